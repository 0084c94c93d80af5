/* engine.h: the game-agnostic engine.  Its manual.
 *
 * A game is a rules module (struct rules, below) plus, per running game, an
 * engine_game: the module's flat state, the seat count, the move count and
 * the game's random generator.  The engine rebuilds a game by running the
 * module's setup with the stored options, custom setup and seed, then
 * applying the logged moves in order.  Same inputs, same state, bit for bit.
 *
 * JSON ownership follows Jansson's vocabulary: "new reference" means the
 * caller must json_decref it; "borrowed" means it is not the caller's.
 */
#ifndef BD_ENGINE_H
#define BD_ENGINE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"
#include "../common/why.h"
#include "rng.h"

#define ENGINE_MAX_SEATS 4
#define ENGINE_SPECTATOR (-1)

/* Room for any game's native action (struct rules, action_size). */
#define ENGINE_ACTION_BYTES 48

/* One native action: the module's action struct in the first action_size
 * bytes, the rest 0.  Copies with =; compares with memcmp. */
struct engine_action {
	_Alignas(8) unsigned char bytes[ENGINE_ACTION_BYTES];
};

/* The outcome of a finished game. */
struct rules_result {
	unsigned winners;   /* bit s set: seat s won */
	const char *reason; /* static string, a stable machine word */
};

/* One rules module: a table of functions the engine calls.  Every function
 * is pure: no I/O, no globals, no allocation except the JSON it returns.
 * `state` points to state_size bytes, suitably aligned, that the module
 * owns the layout of; states copy with memcpy. */
struct rules {
	const char *id;        /* "agent-avenue": the catalog id clients send */
	const char *title;     /* human title */
	unsigned version;      /* bump whenever a replay could differ */
	unsigned replays_from; /* the oldest stored version whose games this
	                          module still replays exactly (their logs
	                          give the same states); 0: only `version` */
	unsigned logs_resigned_from; /* the first version whose games log
	                          the decisions of resigned seats as moves
	                          (engine_game_stored_under); games stored
	                          under an older one have them auto-played
	                          inside every apply, their logs hold none;
	                          0: every version is such an older one */
	int min_seats;               /* 1..ENGINE_MAX_SEATS */
	int max_seats;               /* min_seats..ENGINE_MAX_SEATS */
	size_t state_size;           /* sizeof the module's state struct */

	/* Catalog entry fields beyond id/title/seats, e.g. {"options":{…},
	 * "actions":{…}}.  New reference. */
	json_t *(*catalog)(void);

	/* Writes a fresh state into `state` for `seats` seats.  `options` is a
	 * JSON object (never NULL); `setup` is the custom setup object or NULL.
	 * Returns 0, BD_EBADOPTIONS or BD_EBADSETUP (with *why filled). */
	int (*setup)(void *state, int seats, const json_t *options,
	             const json_t *setup, struct rng *rng,
	             struct rules_why *why);

	/* Optional (NULL: no scripts).  The scripted draws of custom setup
	 * `setup` (borrowed, an object), e.g. Quantum's "dice": writes the
	 * first min(n, cap) into out and returns n, how many there are (0:
	 * none).  The engine keeps them outside the flat state, in the
	 * engine_game, so a script as long as a whole game costs the state
	 * nothing, and hands them to setup and play through the generator
	 * (rng_scripted).  setup validates them: here a value that is not
	 * one may be anything. */
	size_t (*script)(const json_t *setup, uint8_t *out, size_t cap);

	/* The seats that may act now, as a bit set; 0 once the game is over. */
	unsigned (*to_act)(const void *state);

	/* ---- actions, native: the engine, replays, auto-play and bots
	 * work on these; JSON appears only in action_parse/action_json ----
	 *
	 * A native action is the module's own fixed-size struct (action_size
	 * bytes, at most ENGINE_ACTION_BYTES) stored at the start of a
	 * struct engine_action whose other bytes are 0. */
	size_t action_size;

	/* Writes the legal actions of `seat` now into out[0..cap) and
	 * returns how many there are in all (more than cap: call again with
	 * a larger buffer; 0 when the seat may not act).  The order is the
	 * order of the JSON list clients see.  Pure. */
	size_t (*legal)(const void *state, int seat, struct engine_action *out,
	                size_t cap);

	/* Optional (NULL: the engine lists with legal and draws).  For
	 * playouts, a uniformly random legal action without writing out the
	 * list: returns n, how many actions legal lists for `seat`, and
	 * when n > 0 writes into *out (all ENGINE_ACTION_BYTES) the one
	 * legal lists at index rng_below(rng, n), that draw being its only
	 * use of rng.  So a game played through pick is, bit for bit, the
	 * game played through legal and rng_below.  0: the seat may not act
	 * (*out and rng untouched).  Pure but for rng. */
	size_t (*pick)(const void *state, int seat, struct rng *rng,
	               struct engine_action *out);

	/* Applies native action *a by `seat`, which the engine has checked
	 * is in to_act().  Returns 0, or BD_EILLEGAL with *why filled.  On
	 * failure the state may be garbage: the engine applies to a copy. */
	int (*play)(void *state, int seat, const struct engine_action *a,
	            struct rng *rng, struct rules_why *why);

	/* Parses an action object as clients post it (borrowed) into *out
	 * (all ENGINE_ACTION_BYTES written).  Returns 0, or BD_EILLEGAL
	 * with *why when it is not a well-formed action of this game. */
	int (*action_parse)(const json_t *action, struct engine_action *out,
	                    struct rules_why *why);

	/* The action object clients see and may post back unchanged for a
	 * native action.  New reference. */
	json_t *(*action_json)(const struct engine_action *a);

	/* Determinization for search: rewrites what `viewer` (a seat) may
	 * not see in `state` with a sample, drawn with rng, that is
	 * consistent with everything the viewer may see (its view, and so
	 * its legal actions, stay the same).  The sample depends only on
	 * what the viewer sees and on rng, never on how the hidden
	 * information was actually arranged.  Does not touch the engine's
	 * generator: a searcher reseeds that itself. */
	void (*determinize)(void *state, int viewer, struct rng *rng);

	/* Optional (NULL: every action is public).  Erases from *a, an
	 * action of `actor`, what `viewer` may not see of it (as move_view
	 * does for JSON), so that actions the viewer cannot tell apart
	 * become equal bytes.  For searches. */
	void (*observe)(struct engine_action *a, int actor, int viewer);

	/* Optional (NULL: every seat alike).  For searches that stop a
	 * playout before the end: each seat's chance to win from a running
	 * game, share[0..seats) in [0, 1] adding up to 1.  A heuristic, not
	 * a rule; it may read the whole state (a search calls it only on
	 * determinized states). */
	void (*estimate)(const void *state, double share[ENGINE_MAX_SEATS]);

	/* What `viewer` (a seat or ENGINE_SPECTATOR) may see.  `over` is 1
	 * once the game has ended, by the rules or by the engine (every
	 * other seat resigned): then everything is shown.  New reference to
	 * an object. */
	json_t *(*view)(const void *state, int viewer, int over);

	/* The logged `action` of `actor` as `viewer` may see it.  `after` is
	 * the state right after that move, `now` the game's current state (so a
	 * card hidden when played can show once it is revealed); `over` as
	 * for view.  New reference. */
	json_t *(*move_view)(const void *after, const void *now, int actor,
	                     const json_t *action, int viewer, int over);

	/* Optional (NULL: every move's outcome is {}).  What the move that
	 * led to `after` (by `actor`) made known besides its action: cards
	 * turned face up, dice rolled, cards drawn (docs/history.md, one
	 * schema per game in openapi.yaml), as `viewer` may see it now:
	 * `over` as for view (1: everything is shown).  Computed from
	 * `after` alone, which the move's play wrote it into, so a replay
	 * of the log gives the same outcome.  New reference to an object. */
	json_t *(*move_outcome)(const void *after, int actor, int viewer,
	                        int over);

	/* 1 and *out filled when the game is over, else 0. */
	int (*result)(const void *state, struct rules_result *out);

	/* Optional (NULL: the category is "<id>-<seats>p" and every seat is
	 * a side of its own).  The rating category of a game in `state` of
	 * `seats` seats (docs/ratings.md): a word of [a-z0-9-] written,
	 * NUL-terminated and cut to len - 1 bytes, into buf; and for each
	 * seat s, side[s] (0..seats-1): the side it plays for, seats of one
	 * side being a team rated together.  Pure. */
	void (*rating_category)(const void *state, int seats, char *buf,
	                        size_t len, int *side);
	/* Every category rating_category writes, NULL-terminated (NULL with
	 * it: the default's, "<id>-<n>p" for n of min_seats..max_seats). */
	const char *const *rating_categories;
};

/* ---- registry (registry.c) ---- */

/* The module whose id is `id`, or NULL.  Borrowed, static lifetime. */
const struct rules *engine_rules_find(const char *id);

/* 1 if r replays games stored under rules version `stored`: its own
 * version, or one from r->replays_from up (older behaviour kept). */
int engine_rules_replays(const struct rules *r, unsigned stored);

/* 1 if `category` is a rating category of a registered module (struct
 * rules' rating_categories, or the default's), else 0. */
int engine_rating_category_known(const char *category);

/* All registered modules in catalog order; *n receives the count. */
const struct rules *const *engine_rules_all(size_t *n);

/* An older version a module keeps for the games stored under it whose
 * logs replay differently under its current rules (docs/upgrades.md): a
 * struct rules with the same id and that `version`, registered beside
 * the current ones but never in the catalog (no new game is created under
 * it).  NULL when the module keeps no such table. */
const struct rules *engine_rules_older(const char *id, unsigned version);

/* Tests only (tests/unit/test_upgrade.c): replaces the registry with the
 * n modules of `current` and the nold kept older versions of `old` (both
 * arrays borrowed, static lifetime); with current NULL, restores the
 * built-in registry.  Call it while no other thread uses the engine. */
void engine_registry_replace(const struct rules *const *current, size_t n,
                             const struct rules *const *old, size_t nold);

/* ---- a running game (game.c) ---- */

/* The most scripted draws a custom setup may hold (struct rules' script). */
#define ENGINE_SCRIPT_MAX 65536

/* A game's scripted draws, shared by its copies (engine_game_clone takes
 * a reference, engine_game_free drops one); immutable. */
struct engine_script;

struct engine_game {
	const struct rules *rules;    /* borrowed, static */
	struct engine_script *script; /* one reference, or NULL: no script;
	                                 rng.script borrows its values */
	int seats;                    /* rules->min_seats..max_seats */
	unsigned char autoplay;       /* 1 (engine_game_new's): every apply
	                                 plays the pending decisions of
	                                 resigned seats itself; 0: it leaves
	                                 them to the caller, who logs them as
	                                 moves (engine_game_stored_under) */
	unsigned char autoplayed;     /* 1: the last move applied was followed
	                                 by such an auto-play (its outcome is
	                                 then unknown: engine_move_outcome) */
	uint64_t seq;                 /* moves applied so far */
	struct rng rng;               /* the game's generator */
	unsigned resigned;            /* bit s set: seat s resigned */
	int ended_by_resignation;     /* 1: over because one seat was left */
	_Alignas(16) unsigned char state[]; /* rules->state_size bytes */
};

/* Bytes an engine_game of these rules occupies (for memcpy copies: such
 * a copy borrows g's script, so it must not outlive g, and is freed with
 * free(), not engine_game_free). */
size_t engine_game_size(const struct rules *r);

/* ---- snapshots: a state as bytes (sql/0012_snapshots.sql) ----
 *
 * A snapshot is an engine_game without its rules pointer: a format
 * stamp (ENGINE_SNAPSHOT_FORMAT and r->state_size, 4 bytes each, host
 * order) then the game's bytes from `seats` to the end of its state, as
 * memcpy copies them (states are flat; struct rules).  It is a cache of
 * what replaying the log gives, never the record: the store keeps one
 * every SVC_SNAPSHOT_EVERY moves under the rules version that made it,
 * and a reader falls back to a replay from the seed whenever a snapshot
 * is missing, of another rules version, or of another format.  Bump
 * ENGINE_SNAPSHOT_FORMAT when struct engine_game changes. */
#define ENGINE_SNAPSHOT_FORMAT                                                 \
	2u /* 2: autoplay, autoplayed; no script                               \
	      address (engine_game_attach_script) */

/* Bytes of a snapshot of a game of rules r. */
size_t engine_snapshot_size(const struct rules *r);

/* Writes g's snapshot into out (engine_snapshot_size(g->rules) bytes). */
void engine_snapshot_write(const struct engine_game *g, void *out);

/* A new game (caller frees with engine_game_free) from the `len` bytes of
 * a snapshot of rules r, without its script: a game whose custom setup
 * has one gets it back with engine_game_attach_script.  BD_ENOTFOUND when the
 * bytes are not a snapshot of this format and state size or hold an impossible
 * seat count (the caller replays instead); BD_ENOMEM. */
int engine_snapshot_read(const struct rules *r, const void *bytes, size_t len,
                         struct engine_game **out);

/* ---- state hashes: what each move led to (sql/0016_state_hashes.sql) ----
 *
 * The store keeps, with every move, the hash of the state right after
 * it, so that after a rules upgrade a replay under the new rules can be
 * compared with what the rules the game was played under gave, move by
 * move (docs/upgrades.md).  The hash is BLAKE2b (libsodium's
 * crypto_generichash) with ENGINE_STATE_HASH_BYTES bytes of output over,
 * in this order and host byte order: seats, seq, resigned and
 * ended_by_resignation as 8-byte integers, the generator's four 64-bit
 * words and its place in a custom setup's script (rng.script_pos, as an
 * 8-byte integer), then the module's state_size bytes.  So it is stable for one
 * module layout: a module keeps its state calloc'd-clean (padding bytes
 * zero: engine_game_new zeroes them and every copy is a memcpy), and a
 * version that changes its state's size or layout can prove no game
 * equal (such games stay on the rules they started with). */
#define ENGINE_STATE_HASH_BYTES 16

/* Writes g's state hash into out[0..ENGINE_STATE_HASH_BYTES). */
void engine_state_hash(const struct engine_game *g,
                       unsigned char out[ENGINE_STATE_HASH_BYTES]);

/* 0 if r is played by `seats` seats, else BD_EBADOPTIONS with *why (may be
 * NULL) saying the game's seat range. */
int engine_seats_check(const struct rules *r, long long seats,
                       struct rules_why *why);

/* Creates a game at seq 0: validates the seat count, then runs setup.
 * `options` may be NULL (treated as {}).  On success *out is a new game
 * the caller frees with engine_game_free.  Errors: BD_EBADOPTIONS,
 * BD_EBADSETUP (with *why), BD_ENOMEM. */
int engine_game_new(const struct rules *r, int seats, const json_t *options,
                    const json_t *setup, uint64_t seed,
                    struct engine_game **out, struct rules_why *why);

/* Says under which rules version g's game is stored, which fixes how
 * its resigned seats are played: games stored from
 * rules->logs_resigned_from on log those decisions as moves (g->autoplay
 * 0: the caller plays them, engine_game_resigned_due), older games have
 * them played inside every apply (g->autoplay 1), as they were when
 * their logs were written. */
void engine_game_stored_under(struct engine_game *g, unsigned version);

/* The lowest resigned seat that must decide now and that the caller is
 * to play (g->autoplay 0), or -1: none (or the engine plays them). */
int engine_game_resigned_due(const struct engine_game *g);
/* engine_game_new with the generator given as it starts (*start, copied;
 * engine_secret_rng seeds one from a game's secret, secret.h) instead of
 * a 64-bit seed: engine_game_new(…, seed, …) is this with rng_seed(seed). */
int engine_game_new_rng(const struct rules *r, int seats, const json_t *options,
                        const json_t *setup, const struct rng *start,
                        struct engine_game **out, struct rules_why *why);

/* Gives g (with no script yet: engine_snapshot_read's) the script of
 * custom setup `setup` (borrowed, may be NULL: none), keeping the
 * generator's position in it.  0, BD_EBADSETUP (longer than
 * ENGINE_SCRIPT_MAX), BD_ENOMEM. */
int engine_game_attach_script(struct engine_game *g, const json_t *setup);

/* A new copy of g, or NULL on allocation failure. */
struct engine_game *engine_game_clone(const struct engine_game *g);

void engine_game_free(struct engine_game *g);

/* Applies one move by `seat`.  g is changed only on success (seq+1).
 * The engine's own action {"type":"resign"} (any time, turn or not) is
 * handled here, not by the rules: with one seat left that seat wins at
 * once; otherwise the game goes on and every decision of a resigned seat
 * is taken by a uniformly random legal action: with g->autoplay 1 here,
 * drawn from the game's generator (so replays agree), after any move;
 * with g->autoplay 0 by the caller, as moves of their own
 * (engine_game_resigned_due).
 * Errors: BD_EGAMEOVER, BD_ENOTTURN, BD_EILLEGAL (with *why),
 * BD_EBADREQUEST (seat out of range). */
int engine_game_apply(struct engine_game *g, int seat, const json_t *action,
                      struct rules_why *why);

/* The native form of engine_game_apply (no resign: that is a JSON-only
 * engine action): the same checks, on a scratch copy, then auto-play.
 * Errors as engine_game_apply. */
int engine_game_play(struct engine_game *g, int seat,
                     const struct engine_action *a, struct rules_why *why);

/* The fast path for searches and playouts: applies *a by `seat` (who must
 * be to act) in place, then the auto-play of resigned seats, without a
 * scratch copy and without seq.  On failure (BD_EILLEGAL, BD_EINTERNAL
 * with *why) g is garbage: use it only on a copy. */
int engine_game_step(struct engine_game *g, int seat,
                     const struct engine_action *a, struct rules_why *why);

/* A growable list of native actions; start it as {0}, free it with
 * engine_actions_free. */
struct engine_actions {
	struct engine_action *v; /* n entries, owned */
	size_t n, cap;
};

/* Fills *list with the legal actions of `seat` in g (none when the seat
 * may not act or the game is over), growing it as needed.  Returns 0 or
 * BD_ENOMEM. */
int engine_game_legal(const struct engine_game *g, int seat,
                      struct engine_actions *list);

void engine_actions_free(struct engine_actions *list);

/* A uniformly random legal action of `seat` in g, for playouts: the one
 * engine_game_legal lists at index rng_below(rng, n) of its n, with rng
 * advanced by that draw alone, in *out.  Through the module's pick when
 * it has one (without writing out the list), else by listing into
 * *scratch (start it as {0}, reuse it across calls, free it with
 * engine_actions_free).  Returns n (0: the seat may not act or the game
 * is over; *out and rng untouched) or BD_ENOMEM. */
long engine_game_pick(const struct engine_game *g, int seat, struct rng *rng,
                      struct engine_actions *scratch,
                      struct engine_action *out);

/* 1 if action is the engine's resign action. */
int engine_action_is_resign(const json_t *action);

/* Seats to act now (bit set). */
unsigned engine_game_to_act(const struct engine_game *g);

/* 1 and *out when finished, else 0. */
int engine_game_result(const struct engine_game *g, struct rules_result *out);

/* The rating category of g and the side of each of its seats (struct
 * rules' rating_category, or its default): buf of len bytes (32 is
 * room enough), side[0..g->seats). */
void engine_game_rating_category(const struct engine_game *g, char *buf,
                                 size_t len, int *side);

/* The seats of bit set `bits` as a JSON array of seat numbers, lowest
 * first.  New reference (NULL on allocation failure). */
json_t *engine_seats_json(unsigned bits);

/* The outcome as the API and records show it: {"winners": [seats],
 * "reason": word}, or JSON null while the game runs.  New reference. */
json_t *engine_result_json(const struct engine_game *g);

/* New references; see struct rules. */
json_t *engine_game_view(const struct engine_game *g, int viewer);

/* A logged action as `viewer` may see it (rules->move_view, except for the
 * engine's own resign action, which is public).  New reference. */
json_t *engine_move_view(const struct engine_game *after,
                         const struct engine_game *now, int actor,
                         const json_t *action, int viewer);
json_t *engine_game_actions(const struct engine_game *g, int seat);

/* The outcome of the move that led to `after` (rules->move_outcome) as
 * `viewer` may see it as of `now` (over: everything).  {} for the
 * engine's resign action and for rules without move_outcome; JSON null
 * when unknown: the move was followed by an auto-play of resigned seats
 * (games stored before rules->logs_resigned_from), whose decisions the
 * state after it mixes in.  New reference. */
json_t *engine_move_outcome(const struct engine_game *after,
                            const struct engine_game *now, int actor,
                            const json_t *action, int viewer);

#endif
