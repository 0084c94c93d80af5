/* aa.h: Agent Avenue, base mode.  The module's manual.
 *
 * The rules are /work/shared/rules/agent-avenue.md; every "§" below cites
 * that file.  This header is the pure rules API (aa_rules.c: no JSON, no
 * I/O, no allocation) plus the engine table `aa_rules` (aa_json.c, the only
 * file of the module that knows JSON).
 *
 * A game is one struct aa_state: flat, no pointers, copies with memcpy.
 * Cards are enum aa_card values stored in uint8_t.  Setup zeroes the whole
 * struct first, so two states built by the same calls are equal byte for
 * byte (memcmp), padding included.
 *
 * Errors follow err.h: 0 on success, BD_EBADSETUP or BD_EILLEGAL on failure
 * with *why filled (when why is not NULL).  Out-parameters are written only
 * on success.
 */
#ifndef BD_AA_H
#define BD_AA_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/err.h"
#include "../../common/why.h"
#include "../../engine/rng.h"

#define AA_SEATS          2        /* §1: a 2-player game */
#define AA_CARDS          38       /* §1: 6×6 + 1 + 1 agent cards */
#define AA_HAND_MAX       AA_CARDS /* a hand has no limit but the deck */
#define AA_HAND_REFILL    4        /* §2, §4 Step 1.3: draw back up to 4 */
#define AA_MAX_DISCARDS   4        /* §4 Step 1.1: per player per game */
#define AA_LOOP           14       /* §1: spaces on the board loop */
#define AA_HOME_GAP       7        /* §1: seat 1's home is space 7 */
#define AA_CATCH_LEAD     7        /* §3: lead >= 7 catches */
#define AA_WIN_COUNT      3        /* §4 Step 3: 3 Codebreakers / Daredevils */
#define AA_PROGRESS_LIMIT 100000   /* custom setup: |progress| at most this */
#define AA_ICON_NONE      INT8_MIN /* a ✓/✗ icon or no icon: no move */

/* The 8 agent names, in catalog order (§1). */
enum aa_card {
	AA_DOUBLE_AGENT,
	AA_ENFORCER,
	AA_CODEBREAKER,
	AA_SABOTEUR,
	AA_DAREDEVIL,
	AA_SENTINEL,
	AA_SIDEKICK,
	AA_MOLE,
	AA_KINDS
};

/* One agent name as printed on its cards (§1). */
struct aa_card_info {
	const char *id;   /* JSON id, e.g. "double-agent" */
	const char *name; /* English name, e.g. "Double Agent" */
	uint8_t copies;   /* cards of this name in the game: 1 or 6 */
	uint8_t icons;    /* printed icons: 3, or 1 for Sidekick and Mole */
	int8_t moves[3];  /* move of the 1st, 2nd, 3rd+ icon; AA_ICON_NONE
	                     for ✓, ✗ and missing icons */
};

/* Indexed by enum aa_card.  Static lifetime. */
extern const struct aa_card_info aa_card_info[AA_KINDS];

/* Moves of the largest possible turn: 8 discards of distinct names and
 * every ordered pair of distinct names, or 2 recruit picks. */
#define AA_MAX_ACTIONS (AA_KINDS + AA_KINDS * (AA_KINDS - 1))

enum aa_phase {
	AA_PHASE_PLAY,    /* the active player discards or plays (§4 Step 1) */
	AA_PHASE_RECRUIT, /* the non-active player recruits (§4 Step 2) */
	AA_PHASE_OVER     /* the game has ended (§4 Step 3) */
};

/* Why the game ended.  Stable machine words: aa_reason_word(). */
enum aa_reason {
	AA_REASON_NONE,         /* the game is not over */
	AA_REASON_CATCH,        /* §3: the winner caught the opponent */
	AA_REASON_CODEBREAKERS, /* the winner has 3 Codebreakers in play */
	AA_REASON_DAREDEVILS,   /* the opponent got 3 Daredevils */
	AA_REASON_TIE,          /* W held both players: active player wins */
	AA_REASON_OUT_OF_CARDS  /* §4 Step 3: the next player cannot play */
};

/* One seat's cards and meeple. */
struct aa_player {
	int32_t progress;  /* §3: running total of all moves, in spaces;
	                      forward adds.  Custom setups start it within
	                      ±AA_PROGRESS_LIMIT; a turn changes it by at
	                      most 6, a game lasts at most 19 turns. */
	uint8_t hand_size; /* cards in hand, 0..AA_HAND_MAX */
	uint8_t hand[AA_HAND_MAX]; /* enum aa_card, oldest first (drawn
	                              cards are appended); unused slots 0 */
	uint8_t in_play[AA_KINDS]; /* recruited cards per name (§4 Step
	                              2.3), 0..copies */
	uint8_t discards;          /* discard-to-draw used, 0..AA_MAX_DISCARDS,
	                              including those a custom setup declared */
	uint8_t discarded_size;    /* discards whose face is known (made in
	                              this game), 0..discards */
	uint8_t discarded[AA_MAX_DISCARDS]; /* those faces, in order */
};

/* The whole game.  Copies with memcpy. */
struct aa_state {
	struct aa_player players[AA_SEATS]; /* indexed by seat 0/1 */
	uint8_t deck[AA_CARDS]; /* the agent deck, enum aa_card, the TOP card
	                           LAST: deck[deck_size - 1] is drawn next */
	uint8_t deck_size;      /* cards in the deck, 0..AA_CARDS */
	uint8_t custom;         /* 1 if built from a custom setup */
	uint8_t phase;          /* enum aa_phase */
	uint8_t active;         /* the active player's seat, 0/1 */
	uint8_t first_player;   /* the seat that played turn 1, 0/1 */
	uint8_t played[2];      /* recruit phase: [0] the face-up card,
	                           [1] the face-down card (enum aa_card);
	                           0 otherwise */
	uint16_t turn;          /* 1-based turn number, 1..19 */
	uint8_t has_last;       /* 1 once a turn has been recruited */
	uint8_t last_active;    /* that turn's active seat, 0/1 */
	uint8_t last_card[AA_SEATS]; /* card each seat recruited then */
	int8_t last_moved[AA_SEATS]; /* its move in spaces, -3..6 */
	uint8_t winner;              /* the winning seat when over, else 0 */
	uint8_t reason;              /* enum aa_reason; NONE while running */
};

/* A move, as binary.  Fields a type does not use are 0. */
enum aa_action_type { AA_ACT_DISCARD, AA_ACT_PLAY, AA_ACT_RECRUIT };
enum aa_pick { AA_PICK_FACE_UP, AA_PICK_FACE_DOWN };

struct aa_action {
	uint8_t type;      /* enum aa_action_type */
	uint8_t card;      /* discard: the card; play: the face-up card */
	uint8_t face_down; /* play: the face-down card */
	uint8_t pick;      /* recruit: enum aa_pick */
};

/* A custom setup (§2 with fields fixed by the game's creator).  Start from
 * aa_custom_init(); fields whose has_ flag is 0 are dealt as usual.  Card
 * lists hold enum aa_card values.  Integers are range-checked by
 * aa_setup_custom, so the JSON edge may pass any value it saturates into
 * int32_t. */
struct aa_custom {
	uint8_t has_first_player;    /* 0: drawn with the rng */
	uint8_t has_hands;           /* 0: 4 cards each dealt from the pool */
	uint8_t has_deck;            /* 0: the rest of the pool, shuffled */
	uint8_t hand_size[AA_SEATS]; /* 0..AA_HAND_MAX */
	uint8_t hands[AA_SEATS][AA_HAND_MAX]; /* in hand order */
	uint8_t deck_size;                    /* 0..AA_CARDS */
	uint8_t deck[AA_CARDS];     /* TOP card FIRST (as in the JSON) */
	int32_t first_player;       /* must be 0 or 1 */
	int32_t progress[AA_SEATS]; /* §3, |.| <= AA_PROGRESS_LIMIT; default
	                               0 */
	int32_t in_play[AA_SEATS][AA_KINDS]; /* recruited so far; default 0 */
	int32_t discards_used[AA_SEATS];     /* 0..AA_MAX_DISCARDS; default 0 */
};

/* ---- setup (§2) ---- */

/* The normal deal: shuffle all 38 cards, 4 to each hand, 30 in the deck,
 * first player = rng_below(rng, 2).  Writes all of *s. */
void aa_setup_default(struct aa_state *s, struct rng *rng);

/* A custom setup with every field left out. */
void aa_custom_init(struct aa_custom *c);

/* Builds *s from *c.  The pool is the 38-card inventory minus the cards
 * named in hands, deck and in_play, in enum order, shuffled with rng when
 * hands or deck are left out; hands left out take 4 each from it (seat 0
 * first), a deck left out takes the rest.  Cards neither named nor dealt
 * are out of the game.  Then first_player (rng_below(rng, 2) if left out).
 * Returns 0, or BD_EBADSETUP when the setup is impossible (see the
 * checks in aa_rules.c); *s is written only on success. */
int aa_setup_custom(struct aa_state *s, const struct aa_custom *c,
                    struct rng *rng, struct rules_why *why);

/* ---- playing (§4) ---- */

/* The seats that may act, as a bit set: the active seat in the play
 * phase, the other seat in the recruit phase, 0 once over. */
unsigned aa_to_act(const struct aa_state *s);

/* Writes every legal action of `seat` into out[] and returns how many:
 * discards first (one per distinct name in hand, enum order), then plays
 * (every ordered pair of distinct names in hand, face-up name major; or the
 * single identical pair when all cards share a name), or the two recruit
 * picks (face up first).  0 when the seat may not act. */
size_t aa_legal(const struct aa_state *s, int seat,
                struct aa_action out[AA_MAX_ACTIONS]);

/* Applies *a by `seat`.  Returns 0, or BD_EILLEGAL with *why filled; on
 * failure *s is unchanged. */
int aa_apply(struct aa_state *s, int seat, const struct aa_action *a,
             struct rules_why *why);

/* 1 with *winner and *reason filled when the game is over, else 0. */
int aa_result(const struct aa_state *s, int *winner, enum aa_reason *reason);

/* ---- search (rules §5: what a seat may see) ---- */

/* Determinization: redeals what `viewer` (0/1) may not see (the
 * opponent's hand, the deck, the face-down card of a play the viewer
 * did not make, the faces of the opponent's discards) by shuffling those
 * cards, taken in enum order, with rng, keeping every count the viewer
 * sees.  Cards a custom setup left out of the game stay out.  Nothing
 * changes once the game is over or for a spectator. */
void aa_determinize(struct aa_state *s, int viewer, struct rng *rng);

/* ---- derived facts ---- */

/* §3: the space seat's meeple stands on, 0..13. */
int aa_space(const struct aa_state *s, int seat);

/* §3: spaces seat still needs to gain on the opponent to catch them,
 * 7 - lead (the two players' distances add up to 14). */
int32_t aa_distance_to_catch(const struct aa_state *s, int seat);

/* The card whose id is `id`, or -1.  `id` is NUL-terminated. */
int aa_card_by_id(const char *id);

/* "catch", "codebreakers", "daredevils", "tie", "out_of_cards", or ""
 * for AA_REASON_NONE.  Static. */
const char *aa_reason_word(enum aa_reason reason);

/* ---- the engine table (aa_json.c) ---- */

struct rules;
extern const struct rules aa_rules;

#endif
