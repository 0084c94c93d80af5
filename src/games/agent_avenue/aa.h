/* aa.h: Agent Avenue: the base game, the advanced mode (black market) and
 * the team variant for 3-4 seats (rules §7-§9).  The module's manual.
 *
 * The rules are docs/rules/agent-avenue.md; every "§" below cites
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

/* The constants' values and comments are aligned as a table. */
/* clang-format off */
#define AA_SEATS          2        /* §1: the base game's 2 players */
#define AA_SEATS_MAX      4        /* §9.1: the team variant, 3 or 4 seats */
#define AA_TEAMS          2        /* §9.1: team(s) = s mod 2 */
#define AA_CARDS          38       /* §1: 6×6 + 1 + 1 agent cards */
#define AA_HAND_MAX       AA_CARDS /* a hand has no limit but the deck */
#define AA_HAND_REFILL    4        /* §2, §4 Step 1.3: draw back up to 4 */
#define AA_MAX_DISCARDS   4        /* §4 Step 1.1, §9.6: per seat per game
                                      (2 for a seat of a two-seat team) */
#define AA_TEAM_DISCARDS  2        /* §9.6: a seat of a two-seat team */
#define AA_LOOP           14       /* §1: spaces on the board loop */
#define AA_HOME_GAP       7        /* §1: seat 1's home is space 7 */
#define AA_CATCH_LEAD     7        /* §3: lead >= 7 catches */
#define AA_WIN_COUNT      3        /* §4 Step 3: 3 Codebreakers / Daredevils */
#define AA_MASTERPLAN_NAMES 7      /* §8.8 D: 7 different names in play */
#define AA_SUPPLY         3        /* §8.1: the black market's face-up cards */
#define AA_PROGRESS_LIMIT 100000   /* custom setup: |progress| at most this */
#define AA_ICON_NONE      INT8_MIN /* a ✓/✗ icon or no icon: no move */
/* clang-format on */

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

/* The 15 black-market cards (§8.2): the 8 ongoing ones first, then the
 * 7 instant ones, in the table's order. */
enum aa_bm {
	AA_BM_DISTRACTION_DEVICE,
	AA_BM_WATCHTOWER,
	AA_BM_SINISTER_TWIN,
	AA_BM_SUPERCOMPUTER,
	AA_BM_LEADER_OF_THE_PACK,
	AA_BM_GETAWAY_CAR,
	AA_BM_MASTERPLAN,
	AA_BM_SECURITY_SYSTEM,
	AA_BM_OUTPOST, /* the first instant card */
	AA_BM_SMOKE_SCREEN,
	AA_BM_MIND_CONTROL,
	AA_BM_DOUBLE_TROUBLE,
	AA_BM_SURVEILLANCE_TRUCK,
	AA_BM_SECRET_RECRUIT,
	AA_BM_SPYCATION,
	AA_BM_KINDS
};

/* One black-market card (§8.2). */
struct aa_bm_info {
	const char *id;      /* JSON id, e.g. "sinister-twin" */
	const char *name;    /* English name, or NULL when unknown (R29) */
	const char *name_fr; /* the French name printed on the card */
	uint8_t ongoing;     /* 1: ∞, stays in its taker's row; 0: ⚡ */
	uint8_t uses_hand;   /* 1: the card uses a gainer's hand (§9.7) */
	const char *effect;  /* §8.2's sentence, as the engine applies it */
};

/* Indexed by enum aa_bm.  Static lifetime. */
extern const struct aa_bm_info aa_bm_info[AA_BM_KINDS];

/* Moves of the largest possible decision: 8 discards of distinct names
 * and every ordered pair of distinct names (a solo play), which is more
 * than any other list (16 spycations, 6 takes, 8 plays + hand_over). */
#define AA_MAX_ACTIONS (AA_KINDS + AA_KINDS * (AA_KINDS - 1))

enum aa_mode { AA_MODE_BASE, AA_MODE_ADVANCED };

enum aa_phase {
	AA_PHASE_PLAY,    /* a seat of the active team discards or plays
	                     (§4 Step 1, §9.4) */
	AA_PHASE_RECRUIT, /* the other team's voice picks (§4 Step 2, §9.5) */
	AA_PHASE_OVER,    /* the game has ended (§4 Step 3) */
	AA_PHASE_TAKE,    /* a due team's voice takes a black-market card
	                     (§8.5, §9.7) */
	AA_PHASE_RESOLVE  /* a gainer decides an instant card (§8.6) */
};

/* Why the game ended.  Stable machine words: aa_reason_word(). */
enum aa_reason {
	AA_REASON_NONE,         /* the game is not over */
	AA_REASON_CATCH,        /* §3: the winner caught the opponent */
	AA_REASON_CODEBREAKERS, /* the winner has 3 Codebreakers in play */
	AA_REASON_DAREDEVILS,   /* the opponent got 3 Daredevils */
	AA_REASON_TIE,          /* W held both teams: the active team wins */
	AA_REASON_OUT_OF_CARDS, /* §4 Step 3, §9.8: the next team cannot play */
	AA_REASON_LEADER,       /* §8.8 C: Leader of the Pack, 3 Daredevils */
	AA_REASON_MASTERPLAN,   /* §8.8 D: 7 names with Masterplan */
	AA_REASON_SECURITY      /* §8.8 E: Security System */
};

/* One seat's cards (§9.1: each seat keeps its own hand and discards). */
struct aa_player {
	uint8_t hand_size;         /* cards in hand, 0..AA_HAND_MAX */
	uint8_t hand[AA_HAND_MAX]; /* enum aa_card, oldest first (drawn
	                              cards are appended); unused slots 0 */
	uint8_t discards;          /* discard-to-draw used, 0..limit (§9.6),
	                              including those a custom setup declared */
	uint8_t discarded_size;    /* discards whose face is known (made in
	                              this game), 0..discards */
	uint8_t discarded[AA_MAX_DISCARDS]; /* those faces, in order */
};

/* One team: its meeple, agents in play and ongoing cards (§9.1).  In a
 * 2-seat game team t is seat t. */
struct aa_team {
	int32_t progress; /* §3: running total of all moves, in spaces;
	                     forward adds.  Custom setups start it within
	                     ±AA_PROGRESS_LIMIT; a game moves it by at most
	                     a few hundred spaces. */
	uint8_t in_play[AA_KINDS]; /* recruited cards per name, 0..copies */
	uint16_t row;      /* §8.1.3: bit b set: holds ongoing card b */
	uint8_t lead;      /* §9.3: the seat leading the team's next turn
	                      (during its own turn: this turn's lead), also
	                      its voice */
	uint8_t due;       /* §8.3.5: 1 while it owes a black-market take */
	uint8_t last_card; /* the agent it recruited in the last Step 2 */
	int8_t last_moved; /* that recruit's movement in spaces (Getaway
	                      Car's +3 included), -2..15 */
};

/* The whole game.  Copies with memcpy. */
/* What the last action made known, for its move's outcome (aa_json.c,
 * docs/history.md).  aa_apply clears it first; a list that would
 * overflow keeps its first entries (no action reaches the bounds: one
 * recruit step is 2 recruits, and a chain at most one per black-market
 * card). */
#define AA_LAST_MAX 16
struct aa_last {
	uint8_t recruited_n;                  /* agents put in play, in order */
	uint8_t recruited[AA_LAST_MAX];       /* enum aa_card */
	uint8_t recruited_team[AA_LAST_MAX];  /* the team whose play it joined */
	uint8_t supply_n;                     /* black-market cards turned up */
	uint8_t supply[AA_LAST_MAX];          /* enum aa_bm, in order */
	uint8_t drawn_n[AA_SEATS_MAX];        /* agents each seat drew */
	uint8_t drawn[AA_SEATS_MAX][AA_LAST_MAX]; /* enum aa_card, in order;
	                                         known to that seat alone
	                                         until the end (§5) */
};

struct aa_state {
	struct aa_player players[AA_SEATS_MAX]; /* indexed by seat */
	struct aa_team teams[AA_TEAMS];         /* indexed by team */
	uint8_t deck[AA_CARDS]; /* the agent deck, enum aa_card, the TOP card
	                           LAST: deck[deck_size - 1] is drawn next */
	uint8_t deck_size;      /* cards in the deck, 0..AA_CARDS */
	uint8_t seats;          /* 2, 3 or 4 */
	uint8_t mode;           /* enum aa_mode */
	uint8_t custom;         /* 1 if built from a custom setup */
	uint8_t phase;          /* enum aa_phase */
	uint8_t active;         /* the turn's lead seat (§9.3; 2 seats: the
	                           active player) */
	uint8_t first_player;   /* the seat that led turn 1 */
	uint8_t handed_over;    /* §9.4: 1 once the lead handed the face-up
	                           role to its partner this turn */
	uint8_t played_mask;    /* bit 0: the face-up card is played, bit 1:
	                           the face-down card */
	uint8_t played[2];      /* [0] the face-up card, [1] the face-down
	                           card (enum aa_card) of this turn; 0 when
	                           not played */
	uint8_t played_by[2];   /* the seat that played each of them */
	uint16_t turn;          /* 1-based turn number */
	uint8_t has_last;       /* 1 once a turn has been recruited */
	uint8_t last_active;    /* that turn's lead seat */
	/* the black market (§8; mode advanced only, else all 0) */
	uint8_t bm_deck[AA_BM_KINDS]; /* enum aa_bm, TOP card LAST */
	uint8_t bm_deck_size;
	uint8_t supply[AA_SUPPLY]; /* face up, in view order (R25) */
	uint8_t supply_size;
	uint8_t bm_discard[AA_BM_KINDS]; /* the pile, bottom first */
	uint8_t bm_discard_size;
	uint8_t chain[AA_BM_KINDS]; /* instant cards taken and resolved
	                               whose chained takes are not over
	                               (R24), oldest first */
	uint8_t chain_size;
	uint8_t bm_team;        /* take/resolve phases: the team taking */
	uint8_t pending_card;   /* resolve phase: the card being resolved */
	uint8_t pending_seat;   /* resolve phase: its gainer */
	uint8_t winner;         /* the winning team when over, else 0 */
	uint8_t reason;         /* enum aa_reason; NONE while running */
	struct aa_last last;    /* what the last action made known */
};

/* A move, as binary.  Fields a type does not use are 0. */
enum aa_action_type {
	AA_ACT_DISCARD,        /* card */
	AA_ACT_PLAY,           /* card (face up), face_down: a solo play */
	AA_ACT_RECRUIT,        /* pick */
	AA_ACT_PLAY_UP,        /* card: a teammate's face-up card (§9.4) */
	AA_ACT_PLAY_DOWN,      /* face_down: a teammate's face-down card */
	AA_ACT_HAND_OVER,      /* §9.4.1 */
	AA_ACT_TAKE,           /* bm, member (§8.5, §9.7) */
	AA_ACT_MIND_CONTROL,   /* card (§8.6) */
	AA_ACT_DOUBLE_TROUBLE, /* card */
	AA_ACT_SECRET_RECRUIT, /* card */
	AA_ACT_SPYCATION,      /* card, again */
	AA_ACT_TYPES
};
enum aa_pick { AA_PICK_FACE_UP, AA_PICK_FACE_DOWN };

struct aa_action {
	uint8_t type;      /* enum aa_action_type */
	uint8_t card;      /* discard, play, play up, the instant decisions:
	                      the agent */
	uint8_t face_down; /* play, play down: the face-down card */
	uint8_t pick;      /* recruit: enum aa_pick */
	uint8_t bm;        /* take: enum aa_bm */
	uint8_t member;    /* take: the gainer's seat + 1; 0 = no member */
	uint8_t again;     /* spycation: 1 = "recruit":true */
};

/* A custom setup (§7.1).  Start from aa_custom_init(); fields whose has_
 * flag is 0 are dealt as usual.  Card lists hold enum aa_card (aa_bm)
 * values.  Integers are range-checked by aa_setup_custom, so the JSON
 * edge may pass any value it saturates into int32_t. */
struct aa_custom {
	uint8_t seats;            /* 2..4; aa_custom_init sets 2 */
	uint8_t mode;             /* enum aa_mode */
	uint8_t has_first_player; /* 0: drawn with the rng */
	uint8_t has_hands;        /* 0: 4 cards each dealt from the pool */
	uint8_t has_deck;         /* 0: the rest of the pool, shuffled */
	uint8_t has_bm_supply;    /* 0: dealt from the black-market pool */
	uint8_t has_bm_deck;      /* 0: the rest of that pool, shuffled */
	uint8_t hand_size[AA_SEATS_MAX];          /* 0..AA_HAND_MAX */
	uint8_t hands[AA_SEATS_MAX][AA_HAND_MAX]; /* in hand order */
	uint8_t deck_size;                        /* 0..AA_CARDS */
	uint8_t deck[AA_CARDS];     /* TOP card FIRST (as in the JSON) */
	int32_t first_player;       /* must be 0..seats-1 */
	int32_t progress[AA_TEAMS]; /* §3, |.| <= AA_PROGRESS_LIMIT */
	int32_t in_play[AA_TEAMS][AA_KINDS]; /* recruited so far */
	int32_t discards_used[AA_SEATS_MAX]; /* 0..limit (§9.6) */
	uint8_t bm_supply_size, bm_deck_size, bm_discard_size;
	uint8_t bm_in_play_size[AA_TEAMS];
	uint8_t bm_supply[AA_BM_KINDS]; /* view order; at most 3 accepted */
	uint8_t bm_deck[AA_BM_KINDS];   /* TOP card FIRST */
	uint8_t bm_in_play[AA_TEAMS][AA_BM_KINDS]; /* ongoing cards */
	uint8_t bm_discard[AA_BM_KINDS]; /* instant cards, bottom first */
	uint8_t bm_named; /* 1 if any bm_ key was given (refused in base) */
};

/* ---- setup (§2, §7.1, §8.1, §9.2) ---- */

/* The normal deal for `seats` (2..4) seats in `mode`: shuffle all 38
 * cards, 4 to each hand, the rest in the deck, first player =
 * rng_below(rng, seats); in mode advanced then shuffle the 15
 * black-market cards, 3 face up.  Writes all of *s. */
void aa_setup_default(struct aa_state *s, int seats, enum aa_mode mode,
                      struct rng *rng);

/* A custom setup with every field left out, for 2 seats, mode base. */
void aa_custom_init(struct aa_custom *c);

/* Builds *s from *c (§7.1).  The pool is the 38-card inventory minus the
 * cards named in hands, deck and in_play, in enum order, shuffled with
 * rng when hands or deck are left out; hands left out take 4 each from
 * it (seat 0 first), a deck left out takes the rest.  Cards neither named
 * nor dealt are out of the game.  Then first_player (rng_below(rng,
 * seats) if left out), then (mode advanced) the black-market pool, the
 * cards named nowhere, shuffled when supply or deck is left out.
 * Returns 0, or BD_EBADSETUP when the setup is impossible (§7.1's list);
 * *s is written only on success. */
int aa_setup_custom(struct aa_state *s, const struct aa_custom *c,
                    struct rng *rng, struct rules_why *why);

/* ---- playing (§4, §8.4–§8.7, §9.3–§9.8) ---- */

/* The seats that may act, as a bit set: exactly one seat until the game
 * is over (§7.2), then 0. */
unsigned aa_to_act(const struct aa_state *s);

/* The seat to act, or -1 once over. */
int aa_actor(const struct aa_state *s);

/* Writes every legal action of `seat` into out[] and returns how many:
 * discards first (one per distinct name in hand, enum order), then plays
 * (every ordered pair of distinct names in hand, face-up name major; or the
 * single identical pair when all cards share a name; a teammate's single
 * card per name), then hand_over; or the two recruit picks (face up
 * first); or one take per supply card (per teammate for a card that uses a
 * hand); or the instant card's decisions in enum order.  0 when the seat
 * may not act. */
size_t aa_legal(const struct aa_state *s, int seat,
                struct aa_action out[AA_MAX_ACTIONS]);

/* Applies *a by `seat`.  Returns 0, or BD_EILLEGAL with *why filled; on
 * failure *s is unchanged. */
int aa_apply(struct aa_state *s, int seat, const struct aa_action *a,
             struct rules_why *why);

/* 1 with *winner (a team; in 2-seat games the seat) and *reason filled
 * when the game is over, else 0. */
int aa_result(const struct aa_state *s, int *winner, enum aa_reason *reason);

/* ---- search (rules §5, §8.9, §9.9: what a seat may see) ---- */

/* Determinization: redeals what `viewer` may not see (every other seat's
 * hand, teammates' included, the agent deck, the face-down card of a play
 * the viewer did not make, the faces of other seats' discards) by
 * shuffling those cards, taken in enum order, with rng, keeping every
 * size the viewer sees; then shuffles the black-market deck (its order is
 * nobody's).  Cards a custom setup left out of the game stay out.
 * Nothing changes once the game is over or for a spectator. */
void aa_determinize(struct aa_state *s, int viewer, struct rng *rng);

/* ---- derived facts ---- */

/* §9.1: the team of a seat (seat mod 2). */
int aa_team_of(int seat);

/* §9.1: 1 if team t has two seats in s. */
int aa_two_seat(const struct aa_state *s, int team);

/* §9.6: how many discards seat may make in a game. */
int aa_discard_limit(const struct aa_state *s, int seat);

/* §3: the space team's meeple stands on, 0..13 (team 0 home 0, team 1
 * home 7). */
int aa_space(const struct aa_state *s, int team);

/* §3: spaces team still needs to gain on the other to catch it,
 * 7 - lead (the two teams' distances add up to 14). */
int32_t aa_distance_to_catch(const struct aa_state *s, int team);

/* The card whose id is `id`, or -1.  `id` is NUL-terminated. */
int aa_card_by_id(const char *id);

/* The black-market card whose id is `id`, or -1. */
int aa_bm_by_id(const char *id);

/* "catch", "codebreakers", "daredevils", "tie", "out_of_cards",
 * "leader_of_the_pack", "masterplan", "security_system", or "" for
 * AA_REASON_NONE.  Static. */
const char *aa_reason_word(enum aa_reason reason);

/* ---- the engine table (aa_json.c) ---- */

struct rules;
extern const struct rules aa_rules;

#endif
