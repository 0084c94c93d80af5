/* aa_json.c: Agent Avenue's JSON edge and engine table (see aa.h).
 *
 * The only file of the module that knows JSON: it parses options, custom
 * setups and actions into the binary forms of aa.h, and writes views,
 * logged moves and the catalog entry.  Rules decisions stay in
 * aa_rules.c; what a viewer may see follows rules §5.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "../../engine/engine.h"
#include "aa.h"

#define RULE_SETUP "§2"

static const char *const phase_words[] = {
    [AA_PHASE_PLAY] = "play",
    [AA_PHASE_RECRUIT] = "recruit",
    [AA_PHASE_OVER] = "over",
};
_Static_assert(sizeof phase_words / sizeof *phase_words == AA_PHASE_OVER + 1,
               "one word per phase");
static const char *const pick_words[] = {
    [AA_PICK_FACE_UP] = "face_up",
    [AA_PICK_FACE_DOWN] = "face_down",
};
_Static_assert(sizeof pick_words / sizeof *pick_words == AA_PICK_FACE_DOWN + 1,
               "one word per pick");

/* ---- actions: one form per type, shared by parsing, printing and the
 * catalog ---- */

enum field_kind { FIELD_CARD, FIELD_PICK };

struct field {
	const char *key;
	uint8_t kind;  /* enum field_kind */
	size_t offset; /* of the uint8_t in struct aa_action */
};

struct action_form {
	const char *type; /* the JSON "type" */
	const char *rule; /* cited when its shape is wrong */
	size_t nfields;
	struct field fields[2];
};

static const struct action_form forms[] = {
    [AA_ACT_DISCARD] = {"discard",
                        "§4 Step 1.1",
                        1,
                        {{"card", FIELD_CARD,
                          offsetof(struct aa_action, card)}}},
    [AA_ACT_PLAY] = {"play",
                     "§4 Step 1.2",
                     2,
                     {{"face_up", FIELD_CARD, offsetof(struct aa_action, card)},
                      {"face_down", FIELD_CARD,
                       offsetof(struct aa_action, face_down)}}},
    [AA_ACT_RECRUIT] = {"recruit",
                        "§4 Step 2.1",
                        1,
                        {{"pick", FIELD_PICK,
                          offsetof(struct aa_action, pick)}}},
};

#define NFORMS (sizeof forms / sizeof forms[0])

static const struct action_form *form_by_type(const char *type)
{
	for (size_t i = 0; i < NFORMS; i++)
		if (strcmp(type, forms[i].type) == 0)
			return &forms[i];
	return NULL;
}

static const struct field *field_by_key(const struct action_form *f,
                                        const char *key)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (strcmp(key, f->fields[i].key) == 0)
			return &f->fields[i];
	return NULL;
}

/* The value of one field of an action as a small integer, or -1. */
static int field_value(const struct field *fd, const char *s)
{
	if (fd->kind == FIELD_CARD)
		return aa_card_by_id(s);
	for (int i = 0; i < 2; i++)
		if (strcmp(s, pick_words[i]) == 0)
			return i;
	return -1;
}

static int parse_field(const struct action_form *f, const struct field *fd,
                       const json_t *j, struct aa_action *a,
                       struct rules_why *why)
{
	const json_t *v = json_object_get(j, fd->key);
	if (!v)
		return rules_fail(why, BD_EILLEGAL, f->rule,
		                  "a %s action needs \"%s\"", f->type, fd->key);
	if (!json_is_string(v))
		return rules_fail(why, BD_EILLEGAL, f->rule,
		                  "\"%s\" must be a string", fd->key);
	int x = field_value(fd, json_string_value(v));
	if (x < 0 && fd->kind == FIELD_CARD)
		return rules_fail(why, BD_EILLEGAL, f->rule,
		                  "'%s' is not an agent card id",
		                  json_string_value(v));
	if (x < 0)
		return rules_fail(why, BD_EILLEGAL, f->rule,
		                  "\"pick\" must be \"face_up\" or "
		                  "\"face_down\"");
	((uint8_t *)a)[fd->offset] = (uint8_t)x;
	return 0;
}

/* Parses an action object.  Writes *out only on success. */
static int parse_action(const json_t *j, struct aa_action *out,
                        struct rules_why *why)
{
	if (!json_is_object(j))
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "an action must be a JSON object");
	const char *type = json_string_value(json_object_get(j, "type"));
	if (!type)
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "an action needs a \"type\" string: "
		                  "discard, play or recruit");
	const struct action_form *f = form_by_type(type);
	if (!f)
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "unknown action type '%s'; use discard, play "
		                  "or recruit",
		                  type);
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)j, key, v)
		if (strcmp(key, "type") != 0 && !field_by_key(f, key))
			return rules_fail(why, BD_EILLEGAL, f->rule,
			                  "unknown key '%s' in a %s action",
			                  key, f->type);
	struct aa_action a = {.type = (uint8_t)(f - forms)};
	for (size_t i = 0; i < f->nfields; i++) {
		int rc = parse_field(f, &f->fields[i], j, &a, why);
		if (rc)
			return rc;
	}
	*out = a;
	return 0;
}

/* A complete action object.  New reference. */
static json_t *action_json(const struct aa_action *a)
{
	const struct action_form *f = &forms[a->type];
	json_t *o = json_pack("{s:s}", "type", f->type);
	for (size_t i = 0; i < f->nfields; i++) {
		const struct field *fd = &f->fields[i];
		uint8_t x = ((const uint8_t *)a)[fd->offset];
		json_object_set_new(o, fd->key,
		                    json_string(fd->kind == FIELD_CARD
		                                    ? aa_card_info[x].id
		                                    : pick_words[x]));
	}
	return o;
}

/* ---- small JSON builders ---- */

static json_t *card_json(unsigned card)
{
	return json_string(aa_card_info[card].id);
}

/* An array of card ids; `top_last` lists cards[n-1] first. */
static json_t *cards_json(const uint8_t *cards, unsigned n, int top_last)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(
		    a, card_json(cards[top_last ? n - 1 - i : i]));
	return a;
}

/* ---- options and setup ---- */

/* Agent Avenue has no options: {} only. */
static int check_options(const json_t *options, struct rules_why *why)
{
	const char *key;
	const json_t *v;
	if (!json_is_object(options))
		return rules_fail(why, BD_EBADOPTIONS, "options",
		                  "options must be a JSON object");
	json_object_foreach((json_t *)options, key, v)
		return rules_fail(why, BD_EBADOPTIONS, "options",
		                  "unknown option '%s'", key);
	return 0;
}

static int bad_setup(struct rules_why *why, const char *what, const char *must)
{
	return rules_fail(why, BD_EBADSETUP, RULE_SETUP, "%s must be %s", what,
	                  must);
}

/* An integer, saturated into int32_t (aa_setup_custom checks ranges). */
static int get_int(const json_t *v, const char *what, int32_t *out,
                   struct rules_why *why)
{
	if (!json_is_integer(v))
		return bad_setup(why, what, "an integer");
	json_int_t x = json_integer_value(v);
	*out = x > INT32_MAX   ? INT32_MAX
	       : x < INT32_MIN ? INT32_MIN
	                       : (int32_t)x;
	return 0;
}

/* An array of one entry per seat. */
static int get_pair(const json_t *v, const char *what, const char *of,
                    struct rules_why *why)
{
	if (!json_is_array(v) || json_array_size(v) != AA_SEATS)
		return rules_fail(why, BD_EBADSETUP, RULE_SETUP,
		                  "%s must be an array of 2 %s, one per seat",
		                  what, of);
	return 0;
}

static int get_int_pair(const json_t *v, const char *what, int32_t out[2],
                        struct rules_why *why)
{
	int rc = get_pair(v, what, "integers", why);
	for (int p = 0; p < AA_SEATS && !rc; p++)
		rc = get_int(json_array_get(v, (size_t)p), what, &out[p], why);
	return rc;
}

static int get_cards(const json_t *v, const char *what, uint8_t *cards,
                     uint8_t *n, struct rules_why *why)
{
	if (!json_is_array(v))
		return bad_setup(why, what, "an array of card ids");
	if (json_array_size(v) > AA_CARDS)
		return rules_fail(why, BD_EBADSETUP, "§1",
		                  "%s names %zu cards but the game has %d",
		                  what, json_array_size(v), AA_CARDS);
	size_t i;
	const json_t *e;
	json_array_foreach(v, i, e) {
		const char *id = json_string_value(e);
		int k = id ? aa_card_by_id(id) : -1;
		if (!id)
			return bad_setup(why, what, "an array of card ids");
		if (k < 0)
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "'%s' in %s is not an agent card id",
			                  id, what);
		cards[i] = (uint8_t)k;
	}
	*n = (uint8_t)json_array_size(v);
	return 0;
}

static int parse_first_player(const json_t *v, struct aa_custom *c,
                              struct rules_why *why)
{
	c->has_first_player = 1;
	return get_int(v, "first_player", &c->first_player, why);
}

static int parse_hands(const json_t *v, struct aa_custom *c,
                       struct rules_why *why)
{
	static const char *const names[] = {"hands[0]", "hands[1]"};
	int rc = get_pair(v, "hands", "arrays of card ids", why);
	for (int p = 0; p < AA_SEATS && !rc; p++)
		rc = get_cards(json_array_get(v, (size_t)p), names[p],
		               c->hands[p], &c->hand_size[p], why);
	c->has_hands = 1;
	return rc;
}

static int parse_deck(const json_t *v, struct aa_custom *c,
                      struct rules_why *why)
{
	c->has_deck = 1;
	return get_cards(v, "deck", c->deck, &c->deck_size, why);
}

static int parse_progress(const json_t *v, struct aa_custom *c,
                          struct rules_why *why)
{
	return get_int_pair(v, "progress", c->progress, why);
}

static int parse_discards_used(const json_t *v, struct aa_custom *c,
                               struct rules_why *why)
{
	return get_int_pair(v, "discards_used", c->discards_used, why);
}

/* {"enforcer":2}: recruited counts of one seat. */
static int get_in_play(const json_t *v, int32_t count[AA_KINDS],
                       struct rules_why *why)
{
	const char *key;
	const json_t *n;
	if (!json_is_object(v))
		return bad_setup(why, "each in_play entry",
		                 "an object of card id: count");
	json_object_foreach((json_t *)v, key, n) {
		int k = aa_card_by_id(key);
		if (k < 0)
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "'%s' in in_play is not an agent "
			                  "card id",
			                  key);
		int rc = get_int(n, "an in_play count", &count[k], why);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_in_play(const json_t *v, struct aa_custom *c,
                         struct rules_why *why)
{
	int rc = get_pair(v, "in_play", "objects", why);
	for (int p = 0; p < AA_SEATS && !rc; p++)
		rc = get_in_play(json_array_get(v, (size_t)p), c->in_play[p],
		                 why);
	return rc;
}

static const struct setup_key {
	const char *key;
	int (*parse)(const json_t *v, struct aa_custom *c,
	             struct rules_why *why);
} setup_keys[] = {
    {"first_player", parse_first_player},
    {"hands", parse_hands},
    {"deck", parse_deck},
    {"progress", parse_progress},
    {"in_play", parse_in_play},
    {"discards_used", parse_discards_used},
};

static int parse_setup(const json_t *setup, struct aa_custom *c,
                       struct rules_why *why)
{
	const char *key;
	const json_t *v;
	if (!json_is_object(setup))
		return bad_setup(why, "the setup", "a JSON object");
	json_object_foreach((json_t *)setup, key, v) {
		size_t i = 0;
		while (i < sizeof setup_keys / sizeof setup_keys[0] &&
		       strcmp(key, setup_keys[i].key) != 0)
			i++;
		if (i == sizeof setup_keys / sizeof setup_keys[0])
			return rules_fail(why, BD_EBADSETUP, RULE_SETUP,
			                  "unknown setup key '%s'", key);
		int rc = setup_keys[i].parse(v, c, why);
		if (rc)
			return rc;
	}
	return 0;
}

/* rules §2: the normal deal, or a custom setup. */
static int edge_setup(void *state, int seats, const json_t *options,
                      const json_t *setup, struct rng *rng,
                      struct rules_why *why)
{
	int rc = check_options(options, why);
	if (rc)
		return rc;
	if (seats != AA_SEATS)
		return rules_fail(why, BD_EBADOPTIONS, "§1",
		                  "Agent Avenue is played by 2 players");
	if (!setup || json_is_null(setup)) {
		aa_setup_default(state, rng);
		return 0;
	}
	struct aa_custom c;
	aa_custom_init(&c);
	rc = parse_setup(setup, &c, why);
	return rc ? rc : aa_setup_custom(state, &c, rng, why);
}

/* ---- playing ---- */

static unsigned edge_to_act(const void *state)
{
	return aa_to_act(state);
}

_Static_assert(sizeof(struct aa_action) <= ENGINE_ACTION_BYTES,
               "struct aa_action fits an engine_action");

/* The native action inside an engine_action (copied: no aliasing). */
static struct aa_action native(const struct engine_action *e)
{
	struct aa_action a;
	memcpy(&a, e->bytes, sizeof a);
	return a;
}

static struct engine_action wrap(const struct aa_action *a)
{
	struct engine_action e = {{0}};
	memcpy(e.bytes, a, sizeof *a);
	return e;
}

static size_t edge_legal(const void *state, int seat, struct engine_action *out,
                         size_t cap)
{
	struct aa_action list[AA_MAX_ACTIONS];
	size_t n = aa_legal(state, seat, list);
	/* written in place: a copy of wrap()'s value would be read back
	 * from the stack across two stores of different sizes (a
	 * store-forwarding stall, a third of a playout's time) */
	for (size_t i = 0; i < n && i < cap; i++) {
		memset(&out[i], 0, sizeof out[i]);
		memcpy(out[i].bytes, &list[i], sizeof list[i]);
	}
	return n;
}

static int edge_play(void *state, int seat, const struct engine_action *e,
                     struct rng *rng, struct rules_why *why)
{
	struct aa_action a = native(e);
	(void)rng; /* base mode draws no random numbers after setup */
	return aa_apply(state, seat, &a, why);
}

static int edge_action_parse(const json_t *action, struct engine_action *out,
                             struct rules_why *why)
{
	struct aa_action a;
	int rc = parse_action(action, &a, why);
	if (rc == 0)
		*out = wrap(&a);
	return rc;
}

static json_t *edge_action_json(const struct engine_action *e)
{
	struct aa_action a = native(e);
	return action_json(&a);
}

/* rules §5: a discard's face and a face-down card are not seen by the
 * other seat (until the end or the recruit). */
static void edge_observe(struct engine_action *e, int actor, int viewer)
{
	struct aa_action a = native(e);
	if (viewer == actor)
		return;
	if (a.type == AA_ACT_DISCARD)
		a.card = AA_KINDS;
	if (a.type == AA_ACT_PLAY)
		a.face_down = AA_KINDS;
	*e = wrap(&a);
}

static void edge_determinize(void *state, int viewer, struct rng *rng)
{
	aa_determinize(state, viewer, rng);
}

static int edge_result(const void *state, struct rules_result *out)
{
	int winner;
	enum aa_reason reason;
	if (!aa_result(state, &winner, &reason))
		return 0;
	out->winners = 1u << winner;
	out->reason = aa_reason_word(reason);
	return 1;
}

/* ---- views (rules §5) ---- */

static json_t *in_play_json(const struct aa_player *p)
{
	json_t *o = json_object();
	for (int k = 0; k < AA_KINDS; k++)
		if (p->in_play[k])
			json_object_set_new(o, aa_card_info[k].id,
			                    json_integer(p->in_play[k]));
	return o;
}

/* rules §5: sizes, positions and recruited agents are public; discard
 * faces only for their owner (everyone once over). */
static json_t *player_json(const struct aa_state *s, int seat, int viewer,
                           int over)
{
	const struct aa_player *p = &s->players[seat];
	json_t *o =
	    json_pack("{s:i,s:i,s:i,s:i,s:i,s:o,s:i,s:i}", "seat", seat,
	              "hand_size", p->hand_size, "progress", (int)p->progress,
	              "space", aa_space(s, seat), "distance_to_catch",
	              (int)aa_distance_to_catch(s, seat), "in_play",
	              in_play_json(p), "discards", p->discards, "discards_left",
	              AA_MAX_DISCARDS - p->discards);
	if (seat == viewer || over)
		json_object_set_new(
		    o, "discarded",
		    cards_json(p->discarded, p->discarded_size, 0));
	return o;
}

/* rules §5: the face-down card is its owner's until recruited. */
static json_t *played_json(const struct aa_state *s, int viewer, int over)
{
	if (s->phase != AA_PHASE_RECRUIT)
		return json_null();
	return json_pack("{s:o,s:o}", "face_up", card_json(s->played[0]),
	                 "face_down",
	                 viewer == s->active || over ? card_json(s->played[1])
	                                             : json_null());
}

static json_t *last_turn_json(const struct aa_state *s)
{
	if (!s->has_last)
		return json_null();
	json_t *r = json_array();
	for (int p = 0; p < AA_SEATS; p++)
		json_array_append_new(r, json_pack("{s:i,s:o,s:i}", "seat", p,
		                                   "card",
		                                   card_json(s->last_card[p]),
		                                   "moved", s->last_moved[p]));
	return json_pack("{s:i,s:o}", "active_player", s->last_active,
	                 "recruited", r);
}

/* Once over, everything: both hands and the deck (top first). */
static void reveal_all(const struct aa_state *s, json_t *v)
{
	json_t *hands = json_array();
	for (int p = 0; p < AA_SEATS; p++)
		json_array_append_new(
		    hands,
		    cards_json(s->players[p].hand, s->players[p].hand_size, 0));
	json_object_set_new(v, "hands", hands);
	json_object_set_new(v, "deck", cards_json(s->deck, s->deck_size, 1));
}

/* `over` comes from the engine: the rules' own end, or every other seat
 * resigned (then the phase is not AA_PHASE_OVER, but all is shown). */
static json_t *edge_view(const void *state, int viewer, int over)
{
	const struct aa_state *s = state;
	int seated = viewer >= 0 && viewer < AA_SEATS;
	json_t *players = json_array();
	for (int p = 0; p < AA_SEATS; p++)
		json_array_append_new(players, player_json(s, p, viewer, over));
	json_t *v = json_pack(
	    "{s:b,s:i,s:s,s:i,s:i,s:i,s:o,s:o,s:o,s:o}", "custom", s->custom,
	    "turn", s->turn, "phase", phase_words[s->phase], "active_player",
	    s->active, "first_player", s->first_player, "deck_size",
	    s->deck_size, "hand",
	    seated ? cards_json(s->players[viewer].hand,
	                        s->players[viewer].hand_size, 0)
	           : json_null(),
	    "players", players, "played", played_json(s, viewer, over),
	    "last_turn", last_turn_json(s));
	if (v && over)
		reveal_all(s, v);
	return v;
}

/* rules §5: a discard's face is its owner's; a face-down card is hidden
 * from the others while it waits to be recruited. */
static json_t *edge_move_view(const void *after, const void *now, int actor,
                              const json_t *action, int viewer, int over)
{
	const struct aa_state *a = after, *n = now;
	struct aa_action act;
	if (parse_action(action, &act, NULL))
		return json_object(); /* never logged: show nothing */
	json_t *o = action_json(&act);
	int shown = viewer == actor || over;
	if (act.type == AA_ACT_DISCARD && !shown)
		json_object_del(o, "card");
	if (act.type == AA_ACT_PLAY && !shown && n->phase == AA_PHASE_RECRUIT &&
	    n->turn == a->turn)
		json_object_set_new(o, "face_down", json_null());
	return o;
}

/* ---- catalog ---- */

static json_t *moves_json(const struct aa_card_info *c)
{
	json_t *m = json_array();
	for (unsigned i = 0; i < c->icons; i++)
		json_array_append_new(m, c->moves[i] == AA_ICON_NONE
		                             ? json_null()
		                             : json_integer(c->moves[i]));
	return m;
}

static json_t *edge_catalog(void)
{
	json_t *cards = json_array(), *actions = json_array();
	for (int k = 0; k < AA_KINDS; k++) {
		const struct aa_card_info *c = &aa_card_info[k];
		json_array_append_new(
		    cards,
		    json_pack("{s:s,s:s,s:i,s:o}", "id", c->id, "name", c->name,
		              "copies", c->copies, "moves", moves_json(c)));
	}
	for (size_t i = 0; i < NFORMS; i++) {
		json_t *fields = json_object();
		for (size_t j = 0; j < forms[i].nfields; j++)
			json_object_set_new(
			    fields, forms[i].fields[j].key,
			    json_string(forms[i].fields[j].kind == FIELD_CARD
			                    ? "card id"
			                    : "face_up | face_down"));
		json_array_append_new(actions, json_pack("{s:s,s:o}", "type",
		                                         forms[i].type,
		                                         "fields", fields));
	}
	return json_pack("{s:{},s:o,s:o}", "options", "cards", cards, "actions",
	                 actions);
}

const struct rules aa_rules = {
    .id = "agent-avenue",
    .title = "Agent Avenue",
    .version = 1,
    .min_seats = 2,
    .max_seats = 2,
    .state_size = sizeof(struct aa_state),
    .catalog = edge_catalog,
    .setup = edge_setup,
    .to_act = edge_to_act,
    .action_size = sizeof(struct aa_action),
    .legal = edge_legal,
    .play = edge_play,
    .action_parse = edge_action_parse,
    .action_json = edge_action_json,
    .determinize = edge_determinize,
    .observe = edge_observe,
    .view = edge_view,
    .move_view = edge_move_view,
    .result = edge_result,
};
