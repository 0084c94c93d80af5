/* aa_json.c: Agent Avenue's JSON edge and engine table (see aa.h).
 *
 * The only file of the module that knows JSON: it parses options, custom
 * setups and actions into the binary forms of aa.h (rules §7), and writes
 * views, logged moves and the catalog entry.  Rules decisions stay in
 * aa_rules.c; what a viewer may see follows rules §5, §8.9 and §9.9.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "../../engine/engine.h"
#include "aa.h"

#define RULE_SETUP "§7.1"

static const char *const phase_words[] = {
    [AA_PHASE_PLAY] = "play",       [AA_PHASE_RECRUIT] = "recruit",
    [AA_PHASE_OVER] = "over",       [AA_PHASE_TAKE] = "take",
    [AA_PHASE_RESOLVE] = "resolve",
};
_Static_assert(sizeof phase_words / sizeof *phase_words == AA_PHASE_RESOLVE + 1,
               "one word per phase");
static const char *const pick_words[] = {
    [AA_PICK_FACE_UP] = "face_up",
    [AA_PICK_FACE_DOWN] = "face_down",
};
_Static_assert(sizeof pick_words / sizeof *pick_words == AA_PICK_FACE_DOWN + 1,
               "one word per pick");
static const char *const mode_words[] = {
    [AA_MODE_BASE] = "base",
    [AA_MODE_ADVANCED] = "advanced",
};

/* ---- actions: one form per native type, shared by parsing, printing
 * and the catalog (rules §7.2) ---- */

enum field_kind { FIELD_CARD, FIELD_PICK, FIELD_BM, FIELD_SEAT, FIELD_BOOL };

static const char *const kind_words[] = {
    [FIELD_CARD] = "card id",
    [FIELD_PICK] = "face_up | face_down",
    [FIELD_BM] = "black-market card id",
    [FIELD_SEAT] = "seat (only for a card that uses a hand, taken by a "
                   "two-seat team)",
    [FIELD_BOOL] = "boolean",
};

struct field {
	const char *key;
	uint8_t kind;     /* enum field_kind */
	uint8_t optional; /* 1: may be left out (stored as 0) */
	size_t offset;    /* of the uint8_t in struct aa_action */
};

struct action_form {
	const char *type; /* the JSON "type" */
	const char *rule; /* cited when its shape is wrong */
	size_t nfields;
	struct field fields[2];
};

#define F(key, kind, member)                                                   \
	{                                                                      \
		key, kind, 0, offsetof(struct aa_action, member)               \
	}

static const struct action_form forms[AA_ACT_TYPES] = {
    [AA_ACT_DISCARD] = {"discard",
                        "§4 Step 1.1",
                        1,
                        {F("card", FIELD_CARD, card)}},
    [AA_ACT_PLAY] = {"play",
                     "§4 Step 1.2",
                     2,
                     {F("face_up", FIELD_CARD, card),
                      F("face_down", FIELD_CARD, face_down)}},
    [AA_ACT_RECRUIT] = {"recruit",
                        "§4 Step 2.1",
                        1,
                        {F("pick", FIELD_PICK, pick)}},
    [AA_ACT_PLAY_UP] = {"play", "§9.4", 1, {F("face_up", FIELD_CARD, card)}},
    [AA_ACT_PLAY_DOWN] = {"play",
                          "§9.4",
                          1,
                          {F("face_down", FIELD_CARD, face_down)}},
    [AA_ACT_HAND_OVER] = {"hand_over", "§9.4", 0, {{0}}},
    [AA_ACT_TAKE] = {"take",
                     "§8.5",
                     2,
                     {F("card", FIELD_BM, bm),
                      {"member", FIELD_SEAT, 1,
                       offsetof(struct aa_action, member)}}},
    [AA_ACT_MIND_CONTROL] = {"mind_control",
                             "§8.6",
                             1,
                             {F("card", FIELD_CARD, card)}},
    [AA_ACT_DOUBLE_TROUBLE] = {"double_trouble",
                               "§8.6",
                               1,
                               {F("card", FIELD_CARD, card)}},
    [AA_ACT_SECRET_RECRUIT] = {"secret_recruit",
                               "§8.6",
                               1,
                               {F("card", FIELD_CARD, card)}},
    [AA_ACT_SPYCATION] = {"spycation",
                          "§8.6",
                          2,
                          {F("card", FIELD_CARD, card),
                           F("recruit", FIELD_BOOL, again)}},
};

/* rules §7.2: the form of an object of JSON type `type`; "play" has three
 * forms, told apart by which of face_up and face_down it holds. */
static const struct action_form *form_of(const char *type, const json_t *j)
{
	if (strcmp(type, "play") == 0) {
		int up = json_object_get(j, "face_up") != NULL;
		int down = json_object_get(j, "face_down") != NULL;
		return &forms[up && down ? AA_ACT_PLAY
		              : down     ? AA_ACT_PLAY_DOWN
		                         : AA_ACT_PLAY_UP];
	}
	for (size_t i = 0; i < AA_ACT_TYPES; i++)
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

/* The stored byte of one field's JSON value v, or -1 with *why. */
static int field_value(const struct action_form *f, const struct field *fd,
                       const json_t *v, struct rules_why *why)
{
	const char *s = json_string_value(v);
	int x = -1;
	switch (fd->kind) {
	case FIELD_BOOL:
		if (json_is_boolean(v))
			return json_is_true(v);
		rules_fail(why, BD_EILLEGAL, f->rule,
		           "\"%s\" must be true or false", fd->key);
		return -1;
	case FIELD_SEAT:
		if (json_is_integer(v) && json_integer_value(v) >= 0 &&
		    json_integer_value(v) < ENGINE_MAX_SEATS)
			return (int)json_integer_value(v) + 1;
		rules_fail(why, BD_EILLEGAL, f->rule,
		           "\"%s\" must be a seat number", fd->key);
		return -1;
	default:
		break;
	}
	if (!s) {
		rules_fail(why, BD_EILLEGAL, f->rule, "\"%s\" must be a string",
		           fd->key);
		return -1;
	}
	if (fd->kind == FIELD_CARD && (x = aa_card_by_id(s)) < 0)
		rules_fail(why, BD_EILLEGAL, f->rule,
		           "'%s' is not an agent card id", s);
	if (fd->kind == FIELD_BM && (x = aa_bm_by_id(s)) < 0)
		rules_fail(why, BD_EILLEGAL, f->rule,
		           "'%s' is not a black-market card id", s);
	if (fd->kind == FIELD_PICK) {
		for (int i = 0; i < 2; i++)
			if (strcmp(s, pick_words[i]) == 0)
				x = i;
		if (x < 0)
			rules_fail(why, BD_EILLEGAL, f->rule,
			           "\"pick\" must be \"face_up\" or "
			           "\"face_down\"");
	}
	return x;
}

/* Parses an action object.  Writes *out only on success. */
static int parse_action(const json_t *j, struct aa_action *out,
                        struct rules_why *why)
{
	if (!json_is_object(j))
		return rules_fail(why, BD_EILLEGAL, "§7.2",
		                  "an action must be a JSON object");
	const char *type = json_string_value(json_object_get(j, "type"));
	if (!type)
		return rules_fail(why, BD_EILLEGAL, "§7.2",
		                  "an action needs a \"type\" string");
	const struct action_form *f = form_of(type, j);
	if (!f)
		return rules_fail(
		    why, BD_EILLEGAL, "§7.2",
		    "unknown action type '%s'; use discard, play, "
		    "hand_over, recruit, take, mind_control, "
		    "double_trouble, secret_recruit or spycation",
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
		const struct field *fd = &f->fields[i];
		const json_t *x = json_object_get(j, fd->key);
		if (!x && fd->optional)
			continue;
		if (!x)
			return rules_fail(why, BD_EILLEGAL, f->rule,
			                  "a %s action needs \"%s\"", f->type,
			                  fd->key);
		int b = field_value(f, fd, x, why);
		if (b < 0)
			return BD_EILLEGAL;
		((uint8_t *)&a)[fd->offset] = (uint8_t)b;
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
		json_t *v = NULL;
		switch (fd->kind) {
		case FIELD_CARD:
			v = json_string(aa_card_info[x].id);
			break;
		case FIELD_PICK:
			v = json_string(pick_words[x]);
			break;
		case FIELD_BM:
			v = json_string(aa_bm_info[x].id);
			break;
		case FIELD_SEAT:
			v = x ? json_integer(x - 1) : NULL;
			break;
		default:
			v = json_boolean(x);
		}
		if (v)
			json_object_set_new(o, fd->key, v);
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

/* An array of black-market ids; `top_last` as for cards_json. */
static json_t *bms_json(const uint8_t *cards, unsigned n, int top_last)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(
		    a, json_string(
		           aa_bm_info[cards[top_last ? n - 1 - i : i]].id));
	return a;
}

/* ---- options and setup (rules §7, §7.1) ---- */

/* rules §7: {"mode":"base"|"advanced"} or {}; nothing else. */
static int parse_options(const json_t *options, enum aa_mode *mode,
                         struct rules_why *why)
{
	const char *key;
	const json_t *v;
	*mode = AA_MODE_BASE;
	if (!json_is_object(options))
		return rules_fail(why, BD_EBADOPTIONS, "§7",
		                  "options must be a JSON object");
	json_object_foreach((json_t *)options, key, v) {
		const char *m = json_string_value(v);
		if (strcmp(key, "mode") != 0)
			return rules_fail(why, BD_EBADOPTIONS, "§7",
			                  "unknown option '%s'; the only "
			                  "option is \"mode\"",
			                  key);
		if (m && strcmp(m, "advanced") == 0)
			*mode = AA_MODE_ADVANCED;
		else if (!m || strcmp(m, "base") != 0)
			return rules_fail(why, BD_EBADOPTIONS, "§7",
			                  "\"mode\" must be \"base\" or "
			                  "\"advanced\"");
	}
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

/* An array of n entries: one per seat (n = seats) or per team (n = 2). */
static int get_array_of(const json_t *v, const char *what, size_t n,
                        const char *of, const char *per, struct rules_why *why)
{
	if (!json_is_array(v) || json_array_size(v) != n)
		return rules_fail(why, BD_EBADSETUP, RULE_SETUP,
		                  "%s must be an array of %zu %s, one per %s",
		                  what, n, of, per);
	return 0;
}

static int get_ints(const json_t *v, const char *what, size_t n,
                    const char *per, int32_t *out, struct rules_why *why)
{
	int rc = get_array_of(v, what, n, "integers", per, why);
	for (size_t p = 0; p < n && !rc; p++)
		rc = get_int(json_array_get(v, p), what, &out[p], why);
	return rc;
}

/* An array of ids (agent cards, or black-market cards when bm). */
static int get_ids(const json_t *v, const char *what, int bm, uint8_t *cards,
                   uint8_t *n, struct rules_why *why)
{
	size_t max = bm ? AA_BM_KINDS : AA_CARDS;
	if (!json_is_array(v))
		return bad_setup(why, what, "an array of card ids");
	if (json_array_size(v) > max)
		return rules_fail(why, BD_EBADSETUP, bm ? "§8.1" : "§1",
		                  "%s names %zu cards but the game has %zu",
		                  what, json_array_size(v), max);
	size_t i;
	const json_t *e;
	json_array_foreach(v, i, e) {
		const char *id = json_string_value(e);
		int k = !id ? -1 : bm ? aa_bm_by_id(id) : aa_card_by_id(id);
		if (!id)
			return bad_setup(why, what, "an array of card ids");
		if (k < 0)
			return rules_fail(why, BD_EBADSETUP, bm ? "§8.2" : "§1",
			                  "'%s' in %s is not %s id", id, what,
			                  bm ? "a black-market card"
			                     : "an agent card");
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
	static const char *const names[] = {"hands[0]", "hands[1]", "hands[2]",
	                                    "hands[3]"};
	int rc = get_array_of(v, "hands", c->seats, "arrays of card ids",
	                      "seat", why);
	for (int p = 0; p < c->seats && !rc; p++)
		rc = get_ids(json_array_get(v, (size_t)p), names[p], 0,
		             c->hands[p], &c->hand_size[p], why);
	c->has_hands = 1;
	return rc;
}

static int parse_deck(const json_t *v, struct aa_custom *c,
                      struct rules_why *why)
{
	c->has_deck = 1;
	return get_ids(v, "deck", 0, c->deck, &c->deck_size, why);
}

static int parse_progress(const json_t *v, struct aa_custom *c,
                          struct rules_why *why)
{
	return get_ints(v, "progress", AA_TEAMS, c->seats > 2 ? "team" : "seat",
	                c->progress, why);
}

static int parse_discards_used(const json_t *v, struct aa_custom *c,
                               struct rules_why *why)
{
	return get_ints(v, "discards_used", c->seats, "seat", c->discards_used,
	                why);
}

/* {"enforcer":2}: recruited counts of one team. */
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
	int rc = get_array_of(v, "in_play", AA_TEAMS, "objects",
	                      c->seats > 2 ? "team" : "seat", why);
	for (int p = 0; p < AA_TEAMS && !rc; p++)
		rc = get_in_play(json_array_get(v, (size_t)p), c->in_play[p],
		                 why);
	return rc;
}

static int parse_bm_supply(const json_t *v, struct aa_custom *c,
                           struct rules_why *why)
{
	c->has_bm_supply = c->bm_named = 1;
	return get_ids(v, "bm_supply", 1, c->bm_supply, &c->bm_supply_size,
	               why);
}

static int parse_bm_deck(const json_t *v, struct aa_custom *c,
                         struct rules_why *why)
{
	c->has_bm_deck = c->bm_named = 1;
	return get_ids(v, "bm_deck", 1, c->bm_deck, &c->bm_deck_size, why);
}

static int parse_bm_in_play(const json_t *v, struct aa_custom *c,
                            struct rules_why *why)
{
	static const char *const names[] = {"bm_in_play[0]", "bm_in_play[1]"};
	c->bm_named = 1;
	int rc = get_array_of(v, "bm_in_play", AA_TEAMS,
	                      "arrays of black-market ids",
	                      c->seats > 2 ? "team" : "seat", why);
	for (int t = 0; t < AA_TEAMS && !rc; t++)
		rc = get_ids(json_array_get(v, (size_t)t), names[t], 1,
		             c->bm_in_play[t], &c->bm_in_play_size[t], why);
	return rc;
}

static int parse_bm_discard(const json_t *v, struct aa_custom *c,
                            struct rules_why *why)
{
	c->bm_named = 1;
	return get_ids(v, "bm_discard", 1, c->bm_discard, &c->bm_discard_size,
	               why);
}

/* rules §7.1: every key, in the table's order (also the catalog's). */
static const struct setup_key {
	const char *key;
	const char *shape; /* for the catalog */
	int (*parse)(const json_t *v, struct aa_custom *c,
	             struct rules_why *why);
} setup_keys[] = {
    {"first_player", "seat", parse_first_player},
    {"hands", "one array of card ids per seat", parse_hands},
    {"deck", "card ids, top first", parse_deck},
    {"progress", "2 integers, one per team", parse_progress},
    {"in_play", "2 objects {card id: count}, one per team", parse_in_play},
    {"discards_used", "one integer per seat", parse_discards_used},
    {"bm_supply", "up to 3 black-market ids (mode advanced)", parse_bm_supply},
    {"bm_deck", "black-market ids, top first (mode advanced)", parse_bm_deck},
    {"bm_in_play",
     "2 arrays of ongoing black-market ids, one per team (mode advanced)",
     parse_bm_in_play},
    {"bm_discard", "instant black-market ids (mode advanced)",
     parse_bm_discard},
};

#define NKEYS (sizeof setup_keys / sizeof setup_keys[0])

static int parse_setup(const json_t *setup, struct aa_custom *c,
                       struct rules_why *why)
{
	const char *key;
	const json_t *v;
	if (!json_is_object(setup))
		return bad_setup(why, "the setup", "a JSON object");
	json_object_foreach((json_t *)setup, key, v) {
		size_t i = 0;
		while (i < NKEYS && strcmp(key, setup_keys[i].key) != 0)
			i++;
		if (i == NKEYS)
			return rules_fail(why, BD_EBADSETUP, RULE_SETUP,
			                  "unknown setup key '%s'", key);
		int rc = setup_keys[i].parse(v, c, why);
		if (rc)
			return rc;
	}
	return 0;
}

/* rules §7: the mode, the seats (2: the base game, 3–4: the team
 * variant), then the normal deal or a custom setup (§7.1). */
static int edge_setup(void *state, int seats, const json_t *options,
                      const json_t *setup, struct rng *rng,
                      struct rules_why *why)
{
	enum aa_mode mode;
	int rc = parse_options(options, &mode, why);
	if (rc)
		return rc;
	if (seats < AA_SEATS || seats > AA_SEATS_MAX)
		return rules_fail(why, BD_EBADOPTIONS, "§7",
		                  "Agent Avenue is played by 2, 3 or 4 seats");
	if (!setup || json_is_null(setup)) {
		aa_setup_default(state, seats, mode, rng);
		return 0;
	}
	struct aa_custom c;
	aa_custom_init(&c);
	c.seats = (uint8_t)seats;
	c.mode = (uint8_t)mode;
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
	(void)rng; /* no mode draws random numbers after setup */
	if (a.type >= AA_ACT_TYPES)
		return rules_fail(why, BD_EILLEGAL, "§7.2",
		                  "unknown action type");
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

/* rules §5, §9.9: a discard's face and a face-down card are not seen by
 * any other seat, a teammate included (until the end or the recruit). */
static void edge_observe(struct engine_action *e, int actor, int viewer)
{
	struct aa_action a = native(e);
	if (viewer == actor)
		return;
	if (a.type == AA_ACT_DISCARD)
		a.card = AA_KINDS;
	if (a.type == AA_ACT_PLAY || a.type == AA_ACT_PLAY_DOWN)
		a.face_down = AA_KINDS;
	*e = wrap(&a);
}

static void edge_determinize(void *state, int viewer, struct rng *rng)
{
	aa_determinize(state, viewer, rng);
}

/* rules §9.8: `winners` is every seat of the winning team. */
static int edge_result(const void *state, struct rules_result *out)
{
	const struct aa_state *s = state;
	int winner;
	enum aa_reason reason;
	if (!aa_result(s, &winner, &reason))
		return 0;
	out->winners = 0;
	for (int p = winner; p < s->seats; p += 2)
		out->winners |= 1u << p;
	out->reason = aa_reason_word(reason);
	return 1;
}

/* ---- views (rules §5, §8.9, §9.9) ---- */

static json_t *in_play_json(const struct aa_team *t)
{
	json_t *o = json_object();
	for (int k = 0; k < AA_KINDS; k++)
		if (t->in_play[k])
			json_object_set_new(o, aa_card_info[k].id,
			                    json_integer(t->in_play[k]));
	return o;
}

/* rules §8.1.3: a team's row of ongoing cards, in enum order. */
static json_t *row_json(const struct aa_team *t)
{
	json_t *a = json_array();
	for (int b = 0; b < AA_BM_KINDS; b++)
		if (t->row >> b & 1u)
			json_array_append_new(a, json_string(aa_bm_info[b].id));
	return a;
}

/* rules §5, §9.9: sizes and discard counts are public; discard faces only
 * for their seat (everyone once over).  In a 2-seat game the seat's team
 * fields are repeated here (the base game's view). */
static json_t *player_json(const struct aa_state *s, int seat, int viewer,
                           int over)
{
	const struct aa_player *p = &s->players[seat];
	json_t *o = json_pack("{s:i,s:i,s:i,s:i,s:i}", "seat", seat, "team",
	                      aa_team_of(seat), "hand_size", p->hand_size,
	                      "discards", p->discards, "discards_left",
	                      aa_discard_limit(s, seat) - p->discards);
	if (s->seats == AA_SEATS) {
		json_object_set_new(o, "progress",
		                    json_integer(s->teams[seat].progress));
		json_object_set_new(o, "space",
		                    json_integer(aa_space(s, seat)));
		json_object_set_new(
		    o, "distance_to_catch",
		    json_integer(aa_distance_to_catch(s, seat)));
		json_object_set_new(o, "in_play",
		                    in_play_json(&s->teams[seat]));
	}
	if (seat == viewer || over)
		json_object_set_new(
		    o, "discarded",
		    cards_json(p->discarded, p->discarded_size, 0));
	return o;
}

/* rules §9.1: a team's meeple, play, row and lead. */
static json_t *team_json(const struct aa_state *s, int team)
{
	const struct aa_team *t = &s->teams[team];
	json_t *seats = json_array();
	for (int p = team; p < s->seats; p += 2)
		json_array_append_new(seats, json_integer(p));
	json_t *o = json_pack("{s:i,s:o,s:i,s:i,s:i,s:o,s:i}", "team", team,
	                      "seats", seats, "progress", (int)t->progress,
	                      "space", aa_space(s, team), "distance_to_catch",
	                      (int)aa_distance_to_catch(s, team), "in_play",
	                      in_play_json(t), "lead", t->lead);
	if (s->mode == AA_MODE_ADVANCED)
		json_object_set_new(o, "black_market", row_json(t));
	return o;
}

/* rules §5, §9.9: the face-up card is everyone's once played; the
 * face-down card its seat's until recruited. */
static json_t *played_json(const struct aa_state *s, int viewer, int over)
{
	if (!s->played_mask)
		return json_null();
	int up = s->played_mask & 1, down = (s->played_mask & 2) != 0;
	int shown = down && (viewer == s->played_by[1] || over);
	return json_pack(
	    "{s:o,s:o,s:o,s:o}", "face_up",
	    up ? card_json(s->played[0]) : json_null(), "face_up_seat",
	    up ? json_integer(s->played_by[0]) : json_null(), "face_down",
	    shown ? card_json(s->played[1]) : json_null(), "face_down_seat",
	    down ? json_integer(s->played_by[1]) : json_null());
}

static json_t *last_turn_json(const struct aa_state *s)
{
	if (!s->has_last)
		return json_null();
	json_t *r = json_array();
	for (int t = 0; t < AA_TEAMS; t++) {
		json_t *e = json_pack("{s:i,s:o,s:i}", "team", t, "card",
		                      card_json(s->teams[t].last_card), "moved",
		                      s->teams[t].last_moved);
		if (s->seats == AA_SEATS)
			json_object_set_new(e, "seat", json_integer(t));
		json_array_append_new(r, e);
	}
	return json_pack("{s:i,s:o}", "active_player", s->last_active,
	                 "recruited", r);
}

/* rules §7.2: who acts, and why. */
static json_t *acting_json(const struct aa_state *s)
{
	static const char *const why[] = {
	    [AA_PHASE_PLAY] = "play",
	    [AA_PHASE_RECRUIT] = "recruit",
	    [AA_PHASE_TAKE] = "take",
	    [AA_PHASE_RESOLVE] = "resolve",
	};
	int a = aa_actor(s);
	if (a < 0)
		return json_null();
	return json_pack("{s:i,s:s}", "seat", a, "why", why[s->phase]);
}

/* rules §8.9: the pending black-market decision, public. */
static json_t *pending_json(const struct aa_state *s)
{
	if (s->phase == AA_PHASE_TAKE)
		return json_pack("{s:s,s:i,s:n}", "decision", "take", "seat",
		                 aa_actor(s), "card");
	if (s->phase != AA_PHASE_RESOLVE)
		return json_null();
	static const uint8_t decided_by[AA_BM_KINDS] = {
	    [AA_BM_MIND_CONTROL] = AA_ACT_MIND_CONTROL,
	    [AA_BM_DOUBLE_TROUBLE] = AA_ACT_DOUBLE_TROUBLE,
	    [AA_BM_SECRET_RECRUIT] = AA_ACT_SECRET_RECRUIT,
	    [AA_BM_SPYCATION] = AA_ACT_SPYCATION,
	};
	const struct action_form *f = &forms[decided_by[s->pending_card]];
	return json_pack("{s:s,s:i,s:s}", "decision", f->type, "seat",
	                 s->pending_seat, "card",
	                 aa_bm_info[s->pending_card].id);
}

/* rules §8.9: the supply and the discard pile are public, the deck's
 * order nobody's (everyone's once over). */
static json_t *black_market_json(const struct aa_state *s, int over)
{
	json_t *o = json_pack("{s:o,s:i,s:o}", "supply",
	                      bms_json(s->supply, s->supply_size, 0),
	                      "deck_size", s->bm_deck_size, "discard",
	                      bms_json(s->bm_discard, s->bm_discard_size, 0));
	if (over)
		json_object_set_new(o, "deck",
		                    bms_json(s->bm_deck, s->bm_deck_size, 1));
	return o;
}

/* Once over, everything: every hand and the deck (top first). */
static void reveal_all(const struct aa_state *s, json_t *v)
{
	json_t *hands = json_array();
	for (int p = 0; p < s->seats; p++)
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
	int seated = viewer >= 0 && viewer < s->seats;
	json_t *players = json_array(), *teams = json_array();
	for (int p = 0; p < s->seats; p++)
		json_array_append_new(players, player_json(s, p, viewer, over));
	for (int t = 0; t < AA_TEAMS; t++)
		json_array_append_new(teams, team_json(s, t));
	json_t *v = json_pack(
	    "{s:s,s:b,s:i,s:s,s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "mode", mode_words[s->mode], "custom", s->custom, "turn", s->turn,
	    "phase", phase_words[s->phase], "active_player", s->active,
	    "active_team", aa_team_of(s->active), "first_player",
	    s->first_player, "deck_size", s->deck_size, "hand",
	    seated ? cards_json(s->players[viewer].hand,
	                        s->players[viewer].hand_size, 0)
	           : json_null(),
	    "players", players, "teams", teams, "played",
	    played_json(s, viewer, over), "last_turn", last_turn_json(s),
	    "acting", acting_json(s), "pending", pending_json(s));
	if (v && s->mode == AA_MODE_ADVANCED)
		json_object_set_new(v, "black_market",
		                    black_market_json(s, over));
	if (v && over)
		reveal_all(s, v);
	return v;
}

/* rules §5, §9.9: a discard's face is its seat's; a face-down card is
 * hidden from every other seat while it waits to be recruited. */
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
	if ((act.type == AA_ACT_PLAY || act.type == AA_ACT_PLAY_DOWN) &&
	    !shown && n->phase == AA_PHASE_RECRUIT && n->turn == a->turn)
		json_object_set_new(o, "face_down", json_null());
	return o;
}

/* rules §5 and §8.1: what a move made known (docs/history.md): the
 * agents it put in play, face up for all ({"team","agent"}: the team whose
 * play it joined; the face-down card of a recruit is among them), the
 * black-market cards it turned face up into the supply, and the agents each
 * seat drew: how many for all (hand sizes are public), which only for that
 * seat until the end.  Keys with nothing to say are left out. */
static json_t *edge_move_outcome(const void *after, int actor, int viewer,
                                 int over)
{
	const struct aa_last *l = &((const struct aa_state *)after)->last;
	const struct aa_state *s = after;
	json_t *o = json_object(), *rec = json_array(), *sup = json_array(),
	       *drawn = json_array();
	(void)actor;
	for (unsigned i = 0; i < l->recruited_n; i++)
		json_array_append_new(
		    rec, json_pack("{s:i,s:s}", "team", l->recruited_team[i],
		                   "agent", aa_card_info[l->recruited[i]].id));
	for (unsigned i = 0; i < l->supply_n; i++)
		json_array_append_new(sup,
		                      json_string(aa_bm_info[l->supply[i]].id));
	for (int p = 0; p < s->seats; p++) {
		if (!l->drawn_n[p])
			continue;
		json_t *d =
		    json_pack("{s:i,s:i}", "seat", p, "count", l->drawn_n[p]);
		json_t *agents = json_array();
		for (unsigned i = 0; (p == viewer || over) && i < l->drawn_n[p];
		     i++)
			json_array_append_new(
			    agents,
			    json_string(aa_card_info[l->drawn[p][i]].id));
		if (p == viewer || over)
			json_object_set_new(d, "agents", agents);
		else
			json_decref(agents);
		json_array_append_new(drawn, d);
	}
	if (json_array_size(rec))
		json_object_set(o, "recruited", rec);
	if (json_array_size(sup))
		json_object_set(o, "supply", sup);
	if (json_array_size(drawn))
		json_object_set(o, "drawn", drawn);
	json_decref(rec);
	json_decref(sup);
	json_decref(drawn);
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

/* rules §7: the modes, their seat counts, the cards, the black market, the
 * setup keys and every action form. */
static json_t *edge_catalog(void)
{
	json_t *cards = json_array(), *actions = json_array();
	json_t *bm = json_array(), *keys = json_array();
	for (int k = 0; k < AA_KINDS; k++) {
		const struct aa_card_info *c = &aa_card_info[k];
		json_array_append_new(
		    cards,
		    json_pack("{s:s,s:s,s:i,s:o}", "id", c->id, "name", c->name,
		              "copies", c->copies, "moves", moves_json(c)));
	}
	for (int b = 0; b < AA_BM_KINDS; b++) {
		const struct aa_bm_info *c = &aa_bm_info[b];
		json_array_append_new(
		    bm,
		    json_pack("{s:s,s:o,s:s,s:s,s:b,s:s}", "id", c->id, "name",
		              c->name ? json_string(c->name) : json_null(),
		              "name_fr", c->name_fr, "kind",
		              c->ongoing ? "ongoing" : "instant", "uses_hand",
		              c->uses_hand, "effect", c->effect));
	}
	for (size_t i = 0; i < AA_ACT_TYPES; i++) {
		json_t *fields = json_object();
		for (size_t j = 0; j < forms[i].nfields; j++)
			json_object_set_new(
			    fields, forms[i].fields[j].key,
			    json_string(kind_words[forms[i].fields[j].kind]));
		json_array_append_new(actions, json_pack("{s:s,s:s,s:o}",
		                                         "type", forms[i].type,
		                                         "rule", forms[i].rule,
		                                         "fields", fields));
	}
	for (size_t i = 0; i < NKEYS; i++)
		json_array_append_new(
		    keys, json_pack("{s:s,s:s}", "key", setup_keys[i].key,
		                    "shape", setup_keys[i].shape));
	json_t *modes = json_pack(
	    "[{s:s,s:[i,i,i],s:s},{s:s,s:[i,i,i],s:s}]", "mode", "base",
	    "seats", 2, 3, 4, "rules", "§1–§6; 3–4 seats: the team variant, §9",
	    "mode", "advanced", "seats", 2, 3, 4, "rules",
	    "§8 (black market); 3–4 seats: with the team variant, §9");
	return json_pack("{s:{s:{s:[s,s],s:s}},s:o,s:o,s:o,s:o,s:o}", "options",
	                 "mode", "values", "base", "advanced", "default",
	                 "base", "modes", modes, "cards", cards, "black_market",
	                 bm, "setup_keys", keys, "actions", actions);
}

/* Ratings (docs/ratings.md): two seats play the base game or the
 * advanced mode, each its own category; three or four play the team
 * variant (§9, either mode), team t = seat mod 2. */
static void edge_rating_category(const void *state, int seats, char *buf,
                                 size_t len, int *side)
{
	const struct aa_state *s = state;
	if (seats > AA_SEATS)
		snprintf(buf, len, "agent-avenue-team");
	else
		snprintf(buf, len, "agent-avenue-%s",
		         s->mode == AA_MODE_ADVANCED ? "advanced" : "base");
	for (int i = 0; i < seats; i++)
		side[i] = seats > AA_SEATS ? aa_team_of(i) : i;
}

const struct rules aa_rules = {
    .id = "agent-avenue",
    .title = "Agent Avenue",
    .version = 3,      /* 2: the advanced mode and the team variant;
                          3: resigned seats' decisions are logged moves */
    .replays_from = 1, /* base games of version 1 replay unchanged */
    .logs_resigned_from = 3,
    .min_seats = AA_SEATS,
    .max_seats = AA_SEATS_MAX,
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
    .move_outcome = edge_move_outcome,
    .result = edge_result,
    .rating_category = edge_rating_category,
    .rating_categories = (const char *const[]){"agent-avenue-base",
                                               "agent-avenue-advanced",
                                               "agent-avenue-team", NULL},
};
