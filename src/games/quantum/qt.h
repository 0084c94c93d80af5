/* qt.h: the Quantum rules module's flat state and its internal API.
 *
 * Rules references (§N) point into docs/rules/quantum.md.  The state is
 * one plain struct without pointers: it copies with memcpy and the engine
 * applies every action to a scratch copy.  The rules core (layers 1-7
 * below) knows no JSON: actions are struct qt_action values, refusals
 * are struct rules_why.  The JSON edge (layer 8, qt_json.h) reads and
 * writes JSON, and qt_json.c defines `const struct rules qt_rules`.
 *
 * Scope: rules §1-§11 and §14: the whole game with its 31 command cards
 * (§9.2, read as §14.1 says) and their printing variants (§9.4).
 *
 * Layers call down (the house style): a file calls only files of
 * its own layer listed before it or of the layers under it, never up, so
 * no two files use each other (tests/callgraph.py).  Bottom to top:
 *
 *   1. data:      qt_maps.c       the map table and the board's geometry
 *                 qt_card_table.c every card's name and copies
 *   2. state:     qt_state.c      the primitives of struct qt_state: dice,
 *                                 squares, cubes, the decision queue, the
 *                                 dominance and research tracks
 *   3. cards:     qt_command.c    what the command cards do to every
 *                                 module's rules: who holds a working card,
 *                                 ship rolls (CLEVER, SCRAPPY), kills and
 *                                 dominance, CURIOUS's attack cost
 *   4. turn:      qt_turn.c       the start of a turn
 *   5. actions:   qt_actions.c    reconfigure, deploy, construct, research
 *                 qt_combat.c     a battle, advance or stay, infamy
 *                 qt_powers.c     the free command powers
 *                 qt_move.c       moves, attacks, transport, abilities
 *                                 (starts a battle: above qt_combat.c)
 *                 qt_cards.c      the card phase and the gambits (deploys
 *                                 a ship: above qt_actions.c)
 *                 qt_setup.c      a new game and a custom position (deals
 *                                 the cards: above qt_cards.c)
 *   6. flow:      qt_rules.c      turn flow and dispatch: who acts, which
 *                                 module applies and lists an action,
 *                                 drawing one action for playouts
 *   7. beside:    qt_search.c     determinization and estimates for bots
 *   8. JSON edge: qt_codec.c      actions as JSON (qt_json.h)
 *                 qt_options.c    options and custom setups
 *                 qt_view.c       views and move outcomes
 *                 qt_json.c       the engine table `qt_rules`, the catalog
 *
 * The sections below follow that order.
 */
#ifndef QT_H
#define QT_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/err.h"
#include "../../common/why.h"
#include "../../engine/rng.h"
#include "qt_maps.h"

#define QT_MAX_SEATS    4
#define QT_SHIPS        5  /* ships 0-2 start in play, 3-4 expansion */
#define QT_START_SHIPS  3  /* rules §3.3 */
#define QT_ACTIONS      3  /* actions per turn, rules §4 */
#define QT_BONUS_ACTS   2  /* MOMENTUM bonus turn, rules §9.3 */
#define QT_MAX_TRACK    6  /* dominance and research, 1..6 */
#define QT_LAST_DICE    16 /* dice shown as "last dice rolled" */
#define QT_MAX_DECISION 16 /* queued decisions */
#define QT_ROW          3  /* face-up cards per deck, rules §9.1 */
#define QT_MAX_HELD     3  /* command cards held, rules §9.1 */
#define QT_NO_CARD      0xff

/* Card ids.  Gambits first (rules §9.3), then the 31 command cards of
 * rules §9.2 in its order. */
enum qt_card {
	QT_EXPANSION,
	QT_AGGRESSION,
	QT_MOMENTUM,
	QT_REORGANIZATION,
	QT_RELOCATION,
	QT_SABOTAGE,
	QT_NGAMBIT_KINDS,
	QT_FIRST_COMMAND = QT_NGAMBIT_KINDS,
	QT_AGILE = QT_FIRST_COMMAND,
	QT_ARROGANT,
	QT_BRILLIANT,
	QT_CEREBRAL,
	QT_CLEVER,
	QT_CONFORMIST,
	QT_CRUEL,
	QT_CUNNING,
	QT_CURIOUS,
	QT_DANGEROUS,
	QT_EAGER,
	QT_ENERGETIC,
	QT_FEROCIOUS,
	QT_FLEXIBLE,
	QT_INGENIOUS,
	QT_INTELLIGENT,
	QT_NOMADIC,
	QT_PLUNDERING,
	QT_PRECOCIOUS,
	QT_RATIONAL,
	QT_RAVENOUS,
	QT_RELENTLESS,
	QT_RESOURCEFUL,
	QT_RIGHTEOUS,
	QT_SCRAPPY,
	QT_STEALTHY,
	QT_STRATEGIC,
	QT_STUBBORN,
	QT_TACTICAL,
	QT_TYRANNICAL,
	QT_WARLIKE,
	QT_NCARDS,
	QT_NCOMMANDS = QT_NCARDS - QT_FIRST_COMMAND, /* 31 */
	QT_NGAMBITS = 22, /* copies in the gambit deck */
};

/* Bit of a command card in a per-seat card set (uint32_t). */
#define QT_CARD_BIT(c) (1u << ((c)-QT_FIRST_COMMAND))

/* CURIOUS printings (rules §9.4, §14.1), option "curious". */
enum qt_curious { QT_CURIOUS_REVISED, QT_CURIOUS_ADDON, QT_CURIOUS_FIRST };

enum qt_where {
	QT_RESERVE,   /* expansion ship not in play */
	QT_MAP,       /* on a square of the board */
	QT_SCRAPYARD, /* in its owner's scrapyard */
};

/* One ship die. */
struct qt_ship {
	uint8_t value;        /* face 1..6; 0 while in reserve */
	uint8_t where;        /* enum qt_where */
	struct qt_sq at;      /* square when where == QT_MAP, else -1,-1 */
	uint8_t moved;        /* 1: moved (or move-attacked) this turn */
	uint8_t ability_used; /* 1: used its ability this turn */
};

enum qt_phase {
	QT_PH_REROLL,  /* rules §3.3: each seat keeps or re-rolls */
	QT_PH_PLANET,  /* rules §3.5: starting planets in turn order */
	QT_PH_ARRANGE, /* rules §3.6: ships around the starting planet */
	QT_PH_ACTIONS, /* rules §4 Phase 1 */
	QT_PH_CARDS,   /* rules §4 Phase 2, §9.1 */
	QT_PH_OVER,    /* rules §10 */
};

enum qt_decision_kind {
	QT_DEC_ADVANCE,      /* attacker won: advance or stay, §6.1 */
	QT_DEC_INFAMY,       /* dominance 6: place a cube, §7.1 */
	QT_DEC_DISCARD,      /* a 4th command card: discard one, §9.1 */
	QT_DEC_SABOTAGE,     /* SABOTAGE: discard a command card, §9.3 */
	QT_DEC_PLACE_SHIP,   /* EXPANSION/REORGANIZATION placement, §9.3 */
	QT_DEC_REORGANIZE,   /* REORGANIZATION: choose the ships, §9.3 */
	QT_DEC_RELOCATE,     /* RELOCATION: move a cube, §9.3 */
	QT_DEC_DANGEROUS,    /* defender: destroy both ships?, §9.2 #10 */
	QT_DEC_CRUEL,        /* re-roll the opponent's combat die?, §9.2 #7 */
	QT_DEC_RELENTLESS,   /* re-roll your combat die?, §9.2 #22 */
	QT_DEC_SCRAPPY,      /* attacker: re-roll your combat die?, §9.2 #25 */
	QT_DEC_SCRAPPY_SHIP, /* re-roll the ship just rolled?, §9.2 #25 */
	QT_DEC_CLEVER,       /* choose a ship roll's value, §9.2 #5 */
};

/* A decision owed by one seat; decision[0] is the current one. */
struct qt_decision {
	uint8_t kind;    /* enum qt_decision_kind */
	uint8_t seat;    /* who decides, 0..seats-1 */
	int8_t ship;     /* ADVANCE, PLACE_SHIP, SCRAPPY_SHIP, CLEVER: 0..4 */
	struct qt_sq sq; /* QT_DEC_ADVANCE: the destroyed ship's square */
	uint8_t old;     /* SCRAPPY_SHIP, CLEVER: the value a roll must not
	                    show (reconfigure: the old number; scout: 6),
	                    0 for none */
};

/* A battle being resolved (rules §6.1, §14 combat-roll pipeline, §14.1):
 * it stops at each card decision and goes on when it is answered. */
struct qt_battle {
	uint8_t on;            /* 1 while a battle is in progress */
	uint8_t step;          /* next pipeline step (qt_combat.c) */
	uint8_t att, def;      /* attacker and defender seats */
	int8_t aship, dship;   /* their ships */
	struct qt_sq from;     /* the attacker's launch square */
	struct qt_sq target;   /* the defender's square */
	uint8_t aroll, droll;  /* combat dice, 0 before the roll */
	uint8_t def_cruel_hit; /* the defender's CRUEL re-rolled the
	                          attacker's die (§14.1) */
	uint8_t scrappy_used;  /* the attacker's SCRAPPY was used */
};

/* The whole game. */
struct qt_state {
	uint8_t seats;           /* 2..4 */
	uint8_t map;             /* index into the map table (qt_maps.h) */
	uint8_t entanglement;    /* 1: Quantum Entanglement on, §7.3 */
	uint8_t reloc_first;     /* 1: first-printing RELOCATION limit, §9.4 */
	uint8_t curious;         /* enum qt_curious, §9.4 */
	uint8_t strategic_first; /* 1: first-printing STRATEGIC, §9.4 */
	uint8_t custom;          /* 1: started from a custom setup */
	uint8_t phase;           /* enum qt_phase */
	uint8_t active;          /* seat whose turn (or setup step) it is */
	uint8_t owner;           /* seat whose regular turn it is; play passes
	                            clockwise from it (differs from active only
	                            in another seat's MOMENTUM bonus turn) */
	uint8_t first;           /* first player, §3.4 */
	uint8_t actions_left;    /* 0..3 in Phase 1 */
	uint8_t bonus_turn;      /* 1 in a MOMENTUM bonus turn */
	uint8_t winner;          /* seat, valid in QT_PH_OVER */
	uint8_t undecided;       /* QT_PH_REROLL: bit set of seats to decide */
	uint8_t placed;          /* QT_PH_PLANET/ARRANGE: seats done, 0..4 */
	int8_t start_planet[QT_MAX_SEATS]; /* planet index, -1 unchosen */
	struct qt_board board;             /* the map, decoded */
	/* owner seat of each cube location of each planet, -1 empty */
	int8_t cube[QT_MAX_PLANETS][4];
	uint8_t cubes_left[QT_MAX_SEATS]; /* cubes still to place, 0..7 */
	uint8_t dominance[QT_MAX_SEATS];  /* 1..6 */
	uint8_t research[QT_MAX_SEATS];   /* 1..6 */
	uint8_t picks[QT_MAX_SEATS];      /* advance-card picks owed */
	struct qt_ship ship[QT_MAX_SEATS][QT_SHIPS];
	/* cards: decks are stacks, the top card is deck[n-1] */
	uint8_t cmd_deck[QT_NCOMMANDS], cmd_deck_n;       /* 0..31 */
	uint8_t cmd_discard[QT_NCOMMANDS], cmd_discard_n; /* 0..31 */
	uint8_t gam_deck[QT_NGAMBITS], gam_deck_n;        /* 0..22 */
	uint8_t gam_discard[QT_NGAMBITS], gam_discard_n;  /* 0..22 */
	uint8_t row_cmd[QT_ROW]; /* face-up command cards, QT_NO_CARD */
	uint8_t row_gam[QT_ROW]; /* face-up gambit cards, QT_NO_CARD */
	uint8_t held[QT_MAX_SEATS][QT_MAX_HELD + 1]; /* commands held; slot 3
	                                                only while a discard
	                                                is pending */
	/* queued decisions, decision[0] first */
	struct qt_decision decision[QT_MAX_DECISION];
	uint8_t ndecisions; /* 0..QT_MAX_DECISION */
	/* a custom setup's scripted dice are not here: the engine keeps
	 * them and qt_roll draws them through the generator (rng_scripted) */
	/* the dice rolled by the last action, in roll order */
	uint8_t last_dice[QT_LAST_DICE]; /* 1..6 */
	uint8_t last_dice_n;             /* 0..QT_LAST_DICE */
	/* what each of last_dice was rolled for (the move's outcome,
	 * docs/history.md): enum qt_roll_for, the seat, the ship or -1 */
	uint8_t last_for[QT_LAST_DICE];
	uint8_t last_seat[QT_LAST_DICE];
	int8_t last_ship[QT_LAST_DICE];
	/* what the next qt_roll is for (qt_roll_for sets it) */
	uint8_t roll_for, roll_seat;
	int8_t roll_ship;
	/* the cards the last action turned face up into the rows, in order:
	 * card ids, and 1 for the gambit row (0: the command row) */
	uint8_t last_cards[2 * QT_ROW];
	uint8_t last_cards_gambit[2 * QT_ROW];
	uint8_t last_cards_n; /* 0..2 * QT_ROW */
	uint8_t reorg_ships;  /* REORGANIZATION: bit set of ships
	                         still to place */
	/* command cards taken but not working yet: they start to work at
	 * the next start of any turn (rules §9.1, §14.1); QT_CARD_BIT sets */
	uint32_t waking[QT_MAX_SEATS];
	/* the turn's card bookkeeping, reset at every start of turn */
	uint32_t used;        /* once-per-turn powers used, QT_CARD_BIT set */
	uint8_t attacked;     /* the active seat attacked this turn */
	uint8_t curious_debt; /* revised CURIOUS: the next attack pays 1
	                         action back (§14) */
	uint8_t qnew;         /* decisions queued by the current action */
	struct qt_battle battle;
};

enum qt_action_type {
	QT_A_SETUP_REROLL,
	QT_A_SETUP_KEEP,
	QT_A_CHOOSE_PLANET,
	QT_A_ARRANGE,
	QT_A_RECONFIGURE,
	QT_A_DEPLOY,
	QT_A_MOVE,
	QT_A_ATTACK,
	QT_A_TRANSPORT,
	QT_A_CONSTRUCT,
	QT_A_RESEARCH,
	QT_A_END_TURN,
	QT_A_STRIKE,
	QT_A_WARP,
	QT_A_MODIFY,
	QT_A_SCOUT,
	QT_A_ADVANCE,
	QT_A_STAY,
	QT_A_INFAMY,
	QT_A_TAKE_CARD,
	QT_A_REFRESH_CARDS,
	QT_A_DISCARD_COMMAND,
	QT_A_PLACE_SHIP,
	QT_A_REORGANIZE,
	QT_A_RELOCATE,
	QT_A_CEREBRAL,
	QT_A_TYRANNICAL,
	QT_A_FLEXIBLE,
	QT_A_RESOURCEFUL,
	QT_A_NOMADIC,
	QT_A_TACTICAL,           /* a 1-square move */
	QT_A_TACTICAL_ATTACK,    /* an attack from the ship's own square */
	QT_A_TACTICAL_TRANSPORT, /* a 1-square TRANSPORT */
	QT_A_DANGEROUS,
	QT_A_CRUEL,
	QT_A_RELENTLESS,
	QT_A_SCRAPPY,
	QT_A_CLEVER,
	QT_NACTION_TYPES,
};

/* One action in binary form; only the fields of its type are meaningful. */
struct qt_action {
	uint8_t type;           /* enum qt_action_type */
	int8_t ship;            /* 0..4 */
	int8_t other;           /* passenger (transport), with (warp) */
	int8_t owner;           /* relocate: the cube's owner seat */
	uint8_t value;          /* modify: 3 or 5; flexible, clever: 1..6 */
	uint8_t yes;            /* dangerous: destroy; cruel, relentless,
	                           scrappy: reroll */
	uint8_t cunning;        /* 1: CUNNING's second ability use */
	uint8_t curious;        /* 1: CURIOUS's free move */
	uint8_t card;           /* take_card, discard_command: enum qt_card */
	uint8_t scrapyard;      /* place_ship: 1 = to the scrapyard */
	uint8_t nships;         /* reorganize, construct: entries in ships[] */
	int8_t ships[QT_SHIPS]; /* reorganize: ship numbers; construct: the
	                           INGENIOUS diagonal ships */
	struct qt_sq to;        /* deploy, move, transport, place, relocate */
	struct qt_sq from;      /* attack (launch square), relocate */
	struct qt_sq target;    /* attack, strike */
	struct qt_sq drop;      /* transport */
	struct qt_sq planet;    /* choose_planet, construct, infamy */
	struct qt_sq sq[QT_START_SHIPS]; /* arrange: ships 0, 1, 2 */
};

/* Called once per legal action by qt_list_actions. */
typedef void (*qt_emit_fn)(void *ctx, const struct qt_action *a);

/* The plain moves of one ship (rules §5 Move, §6.2 MANEUVER, §14.1
 * CUNNING and CURIOUS) as one run, in the order qt_move_list emits them:
 * the squares of to[] in row-major order, each in the forms the seat may
 * pay with, the paid one (curious 0) first, CURIOUS's free one (curious 1)
 * second.  A square missing from ortho[] is reached only by MANEUVER and
 * is marked cunning when the ship has used its ability (`used`). */
struct qt_moves {
	struct qt_action a;          /* type QT_A_MOVE and ship; the rest 0 */
	uint8_t used;                /* 1: the ship's ability is used */
	uint8_t paid;                /* 1: an action is left to pay with */
	uint8_t free_move;           /* 1: CURIOUS's free move is ready */
	uint8_t rows;                /* rows of the board */
	uint32_t to[QT_MAX_ROWS];    /* destinations, a bit per column */
	uint32_t ortho[QT_MAX_ROWS]; /* those reached orthogonally */
	unsigned n;                  /* actions: squares times forms */
};

/* Called by qt_move_list, when given one, with each ship's run of moves
 * (n >= 1) instead of emitting its moves one by one. */
typedef void (*qt_moves_fn)(void *ctx, const struct qt_moves *run);

/* Writes into *out action k (0 <= k < run->n) of *run: the k-th of the
 * actions qt_move_list would have emitted for it. */
void qt_moves_at(const struct qt_moves *run, unsigned k, struct qt_action *out);

/* A custom setup (§ custom setup of the module), parsed by the JSON edge.
 * Absent optional fields hold -1 (or 0 counts). */
struct qt_custom_ship {
	uint8_t value;        /* 1..6 (ignored for QT_RESERVE) */
	uint8_t where;        /* enum qt_where */
	struct qt_sq at;      /* square when QT_MAP */
	uint8_t moved;        /* 0/1 */
	uint8_t ability_used; /* 0/1 */
};

struct qt_custom {
	int first_player; /* -1: seat 0 */
	int actions_left; /* -1: 3 */
	int nships[QT_MAX_SEATS];
	struct qt_custom_ship ship[QT_MAX_SEATS][QT_SHIPS];
	int ncubes;
	struct {
		int seat;
		struct qt_sq planet;
	} cubes[QT_MAX_SEATS * 7];
	int dominance[QT_MAX_SEATS]; /* -1: 1 */
	int research[QT_MAX_SEATS];  /* -1: 1 */
	int has_row, has_decks, has_held;
	int row_cmd_n, row_gam_n, deck_cmd_n, deck_gam_n;
	uint8_t row_cmd[QT_ROW], row_gam[QT_ROW];
	uint8_t deck_cmd[QT_NCOMMANDS + 8]; /* top first */
	uint8_t deck_gam[QT_NGAMBITS + 8];  /* top first */
	int held_n[QT_MAX_SEATS];
	uint8_t held[QT_MAX_SEATS][QT_MAX_HELD + 1];
	/* "dice" is validated here and kept by the engine (qj_script) */
};

/* ---- qt_card_table.c: the cards' names and copies ---- */

/* Card id from its lower-case name, or -1; name of a card id (a static
 * string, "?" for no card). */
int qt_card_find(const char *name);
const char *qt_card_name(int card);
/* Copies of a card in the game: 8 for EXPANSION … 1 for a command. */
int qt_card_copies(int card);

/* ---- qt_state.c: the primitives (the bottom layer) ---- */

/* A die roll 1..6: the next scripted die of the custom setup
 * (rng_scripted), else the generator's.  Recorded in last_dice, with
 * what qt_roll_for said it is for. */
int qt_roll(struct qt_state *s, struct rng *rng);

/* What a die is rolled for, in a move's outcome. */
enum qt_roll_for {
	QT_ROLL_OTHER,  /* a setup roll before any move */
	QT_ROLL_ATTACK, /* the attacker's combat die, §6.1, §14 */
	QT_ROLL_DEFEND, /* the defender's combat die */
	QT_ROLL_SHIP,   /* a ship's new number: reconfigure, construct,
	                   destroyed, setup re-roll, cards (§3.3, §5, §9) */
	QT_ROLL_FIRST,  /* a roll-off for the first player, §3.4 */
};

/* Says what the next qt_roll calls are for: `why` (enum qt_roll_for),
 * the seat, the ship (or -1). */
void qt_roll_for(struct qt_state *s, int why, int seat, int ship);

/* Re-rolls a ship until it differs from `old` (0: any value): qt_roll
 * until the die differs, every roll used up (rules §5 Reconfigure). */
int qt_reroll_ship(struct qt_state *s, struct rng *rng, int old);

/* The ship of seat standing on sq, or -1; *owner receives the seat. */
int qt_ship_at(const struct qt_state *s, struct qt_sq sq, int *owner);

/* 1 if sq is a square a ship may enter now: open and no ship on it. */
int qt_square_free(const struct qt_state *s, struct qt_sq sq);

/* Writes into *out every square qt_square_free allows now. */
void qt_free_bits(const struct qt_state *s, struct qt_bits *out);

/* 1 if seat may place a cube on planet p now (§5 construct (a)(b), §7.3);
 * *own receives the seat's cubes already there. */
int qt_cube_allowed(const struct qt_state *s, int seat, int p, int *own);

/* Places a cube of seat on planet p; ends the game on the last cube
 * (§10).  Returns 1 if the game is over. */
int qt_place_cube(struct qt_state *s, int seat, int p);

/* 1 if seat has a cube on planet p. */
int qt_has_cube(const struct qt_state *s, int seat, int p);

/* Cubes of seat on planet p; free cube locations of planet p. */
int qt_cubes_of(const struct qt_state *s, int seat, int p);
int qt_free_locations(const struct qt_state *s, int p);

/* Queues d (rules §14.1 order of queued decisions): the decisions one
 * action raises go before the older pending ones, in the order they
 * arose. */
void qt_queue(struct qt_state *s, struct qt_decision d);
/* Removes decision[0]. */
void qt_pop_decision(struct qt_state *s);

/* Research +n, capped at 6 (rules §7.2). */
void qt_gain_research(struct qt_state *s, int seat, int n);

/* Raises seat's dominance by n (cap 6) and queues infamy at 6 unless
 * one is pending for seat or it has nowhere to place a cube (§7.1, §14). */
void qt_gain_dominance(struct qt_state *s, int seat, int n);

/* 1 if seat has somewhere to place an infamy cube (§7.1, §7.3). */
int qt_infamy_possible(const struct qt_state *s, int seat);

/* ---- qt_command.c: command cards (rules §9.2, §14.1) ---- */

/* 1 if seat holds card (working or not); 1 if it holds it and the card
 * works (taken before the last start of a turn, §14.1). */
int qt_holds(const struct qt_state *s, int seat, int card);
int qt_has(const struct qt_state *s, int seat, int card);

/* 1 if seat, the active seat in Phase 1, has a working once-per-turn
 * card it has not used this turn; marks it used. */
int qt_power_ready(const struct qt_state *s, int seat, int card);
void qt_power_use(struct qt_state *s, int card);

/* Start-of-turn card effects for seat (BRILLIANT, ARROGANT, CONFORMIST)
 * after the turn's bookkeeping is reset and taken cards wake (§4). */
void qt_cards_turn_start(struct qt_state *s, int seat);

/* A ship roll of seat's ship that must not show `old` (0: any value;
 * reconfigure: its number; scout: 6).  CLEVER makes it a decision;
 * SCRAPPY on the holder's turn queues the offer of a re-roll (§14.1). */
void qt_ship_roll(struct qt_state *s, struct rng *rng, int seat, int ship,
                  int old);
/* Answers and lists QT_DEC_CLEVER and QT_DEC_SCRAPPY_SHIP. */
int qt_roll_decide(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why);
void qt_roll_list(const struct qt_state *s, qt_emit_fn emit, void *ctx);

/* Dominance when seat's ship is destroyed / when seat destroys one
 * (RIGHTEOUS, RAVENOUS), and PLUNDERING/WARLIKE at a kill. */
void qt_lose_dominance(struct qt_state *s, int seat);
void qt_gain_kill(struct qt_state *s, int seat);
void qt_kill_triggers(struct qt_state *s, int seat);

/* CURIOUS (§14): 1 if the active seat may make the free move now. */
int qt_curious_ready(const struct qt_state *s, int seat);
/* Extra actions an attack costs now, -1 if no attack is allowed. */
int qt_attack_cost(const struct qt_state *s);
/* 0 if an attack costing `base` actions may be made now, else refusal. */
int qt_attack_check(const struct qt_state *s, int base, struct rules_why *why);
/* Charges an attack: base actions plus any CURIOUS pay-back. */
void qt_attack_pay(struct qt_state *s, int base);

/* ---- qt_turn.c: the start of a turn ---- */

/* Starts the turn of seat (§4 start of turn) with n actions: Phase 1,
 * per-die limits reset, qt_cards_turn_start, Void research (§8). */
void qt_start_turn(struct qt_state *s, int seat, int n);

/* ---- qt_actions.c: reconfigure, deploy, construct, research (§5) ---- */
int qt_basic_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why);
void qt_basic_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx);

/* 1 if sq is an empty orbital position of a planet with seat's cube
 * (rules §5 Deploy; also EXPANSION and REORGANIZATION, §9.3). */
int qt_deploy_square(const struct qt_state *s, int seat, struct qt_sq sq);

/* Emits *a once per square qt_deploy_square allows, with a->to set. */
void qt_list_deploy_squares(const struct qt_state *s, int seat,
                            struct qt_action *a, qt_emit_fn emit, void *ctx);

/* ---- qt_combat.c: combat, advance or stay, infamy (§6.1, §7.1) ---- */

/* Resolves an attack by (seat, ship) standing on its launch square on the
 * ship of defender standing on target.  Queues advance/stay and infamy. */
void qt_combat(struct qt_state *s, int seat, int ship, struct qt_sq target,
               struct rng *rng);

/* Answers an advance/stay or infamy decision; lists its options. */
int qt_combat_decide(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rules_why *why);
void qt_combat_list(const struct qt_state *s, qt_emit_fn emit, void *ctx);

/* ---- qt_combat.c battle decisions ---- */

/* Answers and lists DANGEROUS, CRUEL, RELENTLESS and combat SCRAPPY. */
int qt_battle_decide(struct qt_state *s, int seat, const struct qt_action *a,
                     struct rng *rng, struct rules_why *why);
void qt_battle_list(const struct qt_state *s, qt_emit_fn emit, void *ctx);

/* ---- qt_powers.c: the free command powers (§9.2, §14.1) ---- */

/* CEREBRAL, TYRANNICAL, FLEXIBLE, RESOURCEFUL, NOMADIC: applies one
 * (0 or BD_EILLEGAL with *why) or emits every legal one of seat. */
int qt_power_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why);
void qt_power_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx);

/* ---- qt_move.c: moves, attacks, transport, abilities (§5, §6.2) ---- */
int qt_move_apply(struct qt_state *s, int seat, const struct qt_action *a,
                  struct rng *rng, struct rules_why *why);
/* Emits seat's moves, attacks, transports and ship abilities; with
 * `runs` (may be NULL), each ship's plain moves go to it as one run
 * (struct qt_moves) instead of through emit. */
void qt_move_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                  qt_moves_fn runs, void *ctx);

/* ---- qt_cards.c: card phase and gambits (§9.1, §9.3) ---- */

/* Shuffles both decks and deals the rows (§3.7). */
void qt_cards_deal(struct qt_state *s, struct rng *rng);

/* Ends Phase 1 of the active seat: starts Phase 2 or the next turn. */
void qt_cards_begin(struct qt_state *s, struct rng *rng);

/* Moves play on when no decision is pending: the next pick, the next
 * seat's picks, or the next turn. */
void qt_cards_settle(struct qt_state *s, struct rng *rng);

int qt_cards_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why);
/* Answers a card decision (discard, place_ship, reorganize, relocate). */
int qt_cards_decide(struct qt_state *s, int seat, const struct qt_action *a,
                    struct rng *rng, struct rules_why *why);
void qt_cards_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx);

/* The seat taking picks now in QT_PH_CARDS, or -1. */
int qt_cards_picker(const struct qt_state *s);

/* ---- qt_setup.c ---- */

/* The game options of rules §14, validated by the JSON edge. */
struct qt_options {
	int map;             /* map index valid for the seat count */
	int entanglement;    /* 0/1, §7.3 */
	int reloc_first;     /* 1: first-printing RELOCATION, §9.4 */
	int curious;         /* enum qt_curious, §9.4 */
	int strategic_first; /* 1: first-printing STRATEGIC, §9.4 */
};

/* Writes a fresh game (setup phase) into *s. */
void qt_setup_new(struct qt_state *s, int seats, const struct qt_options *o,
                  struct rng *rng);

/* Writes the game described by *cu into *s, starting in the first
 * player's Phase 1.  Returns 0 or BD_EBADSETUP with *why. */
int qt_setup_custom(struct qt_state *s, int seats, const struct qt_options *o,
                    const struct qt_custom *cu, struct rng *rng,
                    struct rules_why *why);

/* Setup-phase actions (§3). */
int qt_setup_apply(struct qt_state *s, int seat, const struct qt_action *a,
                   struct rng *rng, struct rules_why *why);
void qt_setup_list(const struct qt_state *s, int seat, qt_emit_fn emit,
                   void *ctx);

/* ---- qt_rules.c ---- */

/* Seats that may act now (bit set), 0 once the game is over. */
unsigned qt_to_act(const struct qt_state *s);

/* Applies *a by seat.  Returns 0 or BD_EILLEGAL with *why. */
int qt_apply(struct qt_state *s, int seat, const struct qt_action *a,
             struct rng *rng, struct rules_why *why);

/* Emits every legal action of seat. */
void qt_list_actions(const struct qt_state *s, int seat, qt_emit_fn emit,
                     void *ctx);

/* For playouts (struct rules' pick, src/engine/engine.h): n, the number
 * of actions qt_list_actions emits for seat, and when n > 0 the one at
 * index rng_below(rng, n) in *out, that draw being the only use of rng.
 * The plain moves, most of a position's actions, are counted by runs
 * (struct qt_moves) and only the one drawn is written out; the other
 * actions are kept as they are listed, the first QT_PICK_KEEP of them
 * (one past those is found by listing again).  0: the seat may not act
 * (rng untouched). */
size_t qt_pick_action(const struct qt_state *s, int seat, struct rng *rng,
                      struct qt_action *out);
#define QT_PICK_KEEP 256

/* What qt_pick_action does once it has drawn k, keeping `keep` (at most
 * QT_PICK_KEEP) actions besides the runs: n as it counts them, and when
 * k < n action k of the list in *out.  Tests compare it with the list
 * for every k, and with a small `keep` to go through the relisting. */
size_t qt_nth_action(const struct qt_state *s, int seat, size_t k, size_t keep,
                     struct qt_action *out);

/* ---- qt_search.c: for searches, never for a game's own moves ---- */

/* Determinization (rules §9.1: only the decks' order is hidden; future
 * dice are unknown): shuffles both decks, their cards taken in id order
 * so the sample never depends on the real order, with rng.  The dice
 * not rolled yet need nothing: a searcher reseeds the generator, which
 * drops the script (rng.h). */
void qt_determinize(struct qt_state *s, struct rng *rng);

/* A heuristic: each seat's chance to win, share[0..seats) adding up to
 * 1, from the cubes placed (rules §10) and, a little, dominance, research
 * and ships in play. */
void qt_estimate(const struct qt_state *s, double share[QT_MAX_SEATS]);

#endif
