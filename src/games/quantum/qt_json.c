/* qt_json.c: the Quantum module's JSON edge: options, custom setup,
 * actions in and out, the view, the catalog and `const struct rules
 * qt_rules`.  The only file of the module that includes jansson.h. */
#include <jansson.h>
#include <string.h>

#include "qt.h"
#include "quantum.h"

/* ---- action shapes ---- */

enum field {
	F_SHIP,
	F_PASSENGER,
	F_WITH,
	F_VALUE,
	F_TO,
	F_FROM,
	F_TARGET,
	F_DROP,
	F_PLANET,
	F_SQUARES3,
	F_SHIPLIST,
	F_CARD,
	F_OWNER,
	F_TO_OR_SCRAP,
	F_REROLL,
	F_DESTROY,
	F_FACE,
	F_NONE,
};

/* Optional fields (§14.1 forms), a bit set per shape. */
enum { OPT_CUNNING = 1, OPT_CURIOUS = 2, OPT_DIAGONALS = 4 };
#define NOPTS 3
/* Indexed by the bit number of OPT_*. */
static const char *const opt_names[] = {
    [0] = "cunning", [1] = "curious", [2] = "diagonals"};
static const char *const opt_kinds[] = {
    [0] = "true: CUNNING's second use of the ship's ability (optional)",
    [1] = "true: CURIOUS's free move (optional)",
    [2] = "list of ship numbers on the planet's corners: INGENIOUS "
          "(optional)"};
_Static_assert(sizeof opt_names / sizeof *opt_names == NOPTS &&
                   sizeof opt_kinds / sizeof *opt_kinds == NOPTS,
               "one name and kind per optional field");

static const char *const field_names[] = {
    [F_SHIP] = "ship",      [F_PASSENGER] = "passenger",
    [F_WITH] = "with",      [F_VALUE] = "value",
    [F_TO] = "to",          [F_FROM] = "from",
    [F_TARGET] = "target",  [F_DROP] = "drop",
    [F_PLANET] = "planet",  [F_SQUARES3] = "ships",
    [F_SHIPLIST] = "ships", [F_CARD] = "card",
    [F_OWNER] = "owner",    [F_TO_OR_SCRAP] = "to",
    [F_REROLL] = "reroll",  [F_DESTROY] = "destroy",
    [F_FACE] = "value",
};
_Static_assert(sizeof field_names / sizeof *field_names == F_NONE,
               "one name per field");

static const char *const field_kinds[] = {
    [F_SHIP] = "ship number 0-4",
    [F_PASSENGER] = "ship number 0-4",
    [F_WITH] = "ship number 0-4",
    [F_VALUE] = "3 or 5",
    [F_TO] = "square [row,col]",
    [F_FROM] = "square [row,col]",
    [F_TARGET] = "square [row,col]",
    [F_DROP] = "square [row,col]",
    [F_PLANET] = "planet square [row,col]",
    [F_SQUARES3] = "3 squares [[r,c],[r,c],[r,c]] for ships 0, 1, 2",
    [F_SHIPLIST] = "list of ship numbers",
    [F_CARD] = "card id",
    [F_OWNER] = "seat",
    [F_TO_OR_SCRAP] = "square [row,col] or \"scrapyard\"",
    [F_REROLL] = "true or false",
    [F_DESTROY] = "true or false",
    [F_FACE] = "1..6",
};
_Static_assert(sizeof field_kinds / sizeof *field_kinds == F_NONE,
               "one kind per field");

struct shape {
	const char *name; /* the "type" value (TACTICAL has 3 shapes) */
	const char *rule; /* rules section for refusals */
	uint8_t f[4];     /* fields, F_NONE-terminated */
	uint8_t opt;      /* optional fields, OPT_* bits */
};

/* Indexed by enum qt_action_type. */
static const struct shape shapes[QT_NACTION_TYPES] = {
    [QT_A_SETUP_REROLL] = {"setup_reroll", "§3.3", {F_NONE}},
    [QT_A_SETUP_KEEP] = {"setup_keep", "§3.3", {F_NONE}},
    [QT_A_CHOOSE_PLANET] = {"choose_planet", "§3.5", {F_PLANET, F_NONE}},
    [QT_A_ARRANGE] = {"arrange", "§3.6", {F_SQUARES3, F_NONE}},
    [QT_A_RECONFIGURE] = {"reconfigure", "§5", {F_SHIP, F_NONE}},
    [QT_A_DEPLOY] = {"deploy", "§5", {F_SHIP, F_TO, F_NONE}},
    [QT_A_MOVE] = {"move",
                   "§5",
                   {F_SHIP, F_TO, F_NONE},
                   OPT_CUNNING | OPT_CURIOUS},
    [QT_A_ATTACK] = {"attack",
                     "§6.1",
                     {F_SHIP, F_FROM, F_TARGET, F_NONE},
                     OPT_CUNNING},
    [QT_A_TRANSPORT] = {"transport",
                        "§6.2",
                        {F_SHIP, F_PASSENGER, F_TO, F_DROP},
                        OPT_CUNNING | OPT_CURIOUS},
    [QT_A_CONSTRUCT] = {"construct", "§5", {F_PLANET, F_NONE}, OPT_DIAGONALS},
    [QT_A_RESEARCH] = {"research", "§5", {F_NONE}},
    [QT_A_END_TURN] = {"end_turn", "§4", {F_NONE}},
    [QT_A_STRIKE] = {"strike", "§6.2", {F_SHIP, F_TARGET, F_NONE}, OPT_CUNNING},
    [QT_A_WARP] = {"warp", "§6.2", {F_SHIP, F_WITH, F_NONE}, OPT_CUNNING},
    [QT_A_MODIFY] = {"modify", "§6.2", {F_SHIP, F_VALUE, F_NONE}, OPT_CUNNING},
    [QT_A_SCOUT] = {"scout", "§6.2", {F_SHIP, F_NONE}, OPT_CUNNING},
    [QT_A_ADVANCE] = {"advance", "§6.1", {F_NONE}},
    [QT_A_STAY] = {"stay", "§6.1", {F_NONE}},
    [QT_A_INFAMY] = {"infamy", "§7.1", {F_PLANET, F_NONE}},
    [QT_A_TAKE_CARD] = {"take_card", "§9.1", {F_CARD, F_NONE}},
    [QT_A_REFRESH_CARDS] = {"refresh_cards", "§9.1", {F_NONE}},
    [QT_A_DISCARD_COMMAND] = {"discard_command", "§9.1", {F_CARD, F_NONE}},
    [QT_A_PLACE_SHIP] = {"place_ship", "§9.3", {F_SHIP, F_TO_OR_SCRAP, F_NONE}},
    [QT_A_REORGANIZE] = {"reorganize", "§9.3", {F_SHIPLIST, F_NONE}},
    [QT_A_RELOCATE] = {"relocate", "§9.3", {F_OWNER, F_FROM, F_TO, F_NONE}},
    [QT_A_CEREBRAL] = {"cerebral", "§9.2", {F_NONE}},
    [QT_A_TYRANNICAL] = {"tyrannical", "§9.2", {F_NONE}},
    [QT_A_FLEXIBLE] = {"flexible", "§9.2", {F_SHIP, F_FACE, F_NONE}},
    [QT_A_RESOURCEFUL] = {"resourceful", "§9.2", {F_SHIP, F_NONE}},
    [QT_A_NOMADIC] = {"nomadic", "§9.2", {F_SHIP, F_TO, F_NONE}},
    [QT_A_TACTICAL] = {"tactical",
                       "§14.1",
                       {F_SHIP, F_TO, F_NONE},
                       OPT_CUNNING},
    [QT_A_TACTICAL_ATTACK] = {"tactical",
                              "§14.1",
                              {F_SHIP, F_TARGET, F_NONE},
                              OPT_CUNNING},
    [QT_A_TACTICAL_TRANSPORT] = {"tactical",
                                 "§14.1",
                                 {F_SHIP, F_PASSENGER, F_TO, F_DROP},
                                 OPT_CUNNING},
    [QT_A_DANGEROUS] = {"dangerous", "§9.2", {F_DESTROY, F_NONE}},
    [QT_A_CRUEL] = {"cruel", "§14.1", {F_REROLL, F_NONE}},
    [QT_A_RELENTLESS] = {"relentless", "§14.1", {F_REROLL, F_NONE}},
    [QT_A_SCRAPPY] = {"scrappy", "§14.1", {F_REROLL, F_NONE}},
    [QT_A_CLEVER] = {"clever", "§14.1", {F_SHIP, F_FACE, F_NONE}},
};

static int nfields(const struct shape *sh)
{
	int n = 0;
	while (n < 4 && sh->f[n] != F_NONE)
		n++;
	return n;
}

/* ---- small JSON readers: 0 on success, -1 on a bad value ---- */

static int read_int(const json_t *v, int lo, int hi, int *out)
{
	if (!json_is_integer(v))
		return -1;
	json_int_t x = json_integer_value(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int)x;
	return 0;
}

static int read_sq(const json_t *v, struct qt_sq *out)
{
	int r, c;
	if (!json_is_array(v) || json_array_size(v) != 2 ||
	    read_int(json_array_get(v, 0), 0, QT_MAX_ROWS - 1, &r) ||
	    read_int(json_array_get(v, 1), 0, QT_MAX_COLS - 1, &c))
		return -1;
	out->r = (int8_t)r;
	out->c = (int8_t)c;
	return 0;
}

static int read_card(const json_t *v, uint8_t *out)
{
	int c = json_is_string(v) ? qt_card_find(json_string_value(v)) : -1;
	if (c < 0)
		return -1;
	*out = (uint8_t)c;
	return 0;
}

/* A list of min..max ship numbers into a->ships. */
static int read_ship_list(const json_t *v, size_t min, size_t max,
                          struct qt_action *a)
{
	int x;
	if (!json_is_array(v) || json_array_size(v) < min ||
	    json_array_size(v) > max)
		return -1;
	a->nships = (uint8_t)json_array_size(v);
	for (int i = 0; i < a->nships; i++) {
		if (read_int(json_array_get(v, (size_t)i), 0, 4, &x))
			return -1;
		a->ships[i] = (int8_t)x;
	}
	return 0;
}

static int read_field(int f, const json_t *v, struct qt_action *a)
{
	int x;
	switch (f) {
	case F_SHIP:
	case F_PASSENGER:
	case F_WITH:
	case F_OWNER:
		if (read_int(v, 0, f == F_OWNER ? QT_MAX_SEATS - 1 : 4, &x))
			return -1;
		if (f == F_SHIP)
			a->ship = (int8_t)x;
		else if (f == F_OWNER)
			a->owner = (int8_t)x;
		else
			a->other = (int8_t)x;
		return 0;
	case F_VALUE:
	case F_FACE:
		if (read_int(v, 1, 6, &x))
			return -1;
		a->value = (uint8_t)x;
		return 0;
	case F_REROLL:
	case F_DESTROY:
		if (!json_is_boolean(v))
			return -1;
		a->yes = json_is_true(v);
		return 0;
	case F_TO:
		return read_sq(v, &a->to);
	case F_FROM:
		return read_sq(v, &a->from);
	case F_TARGET:
		return read_sq(v, &a->target);
	case F_DROP:
		return read_sq(v, &a->drop);
	case F_PLANET:
		return read_sq(v, &a->planet);
	case F_CARD:
		return read_card(v, &a->card);
	case F_TO_OR_SCRAP:
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), "scrapyard") == 0) {
			a->scrapyard = 1;
			return 0;
		}
		return read_sq(v, &a->to);
	case F_SQUARES3:
		if (!json_is_array(v) || json_array_size(v) != QT_START_SHIPS)
			return -1;
		for (int i = 0; i < QT_START_SHIPS; i++)
			if (read_sq(json_array_get(v, (size_t)i), &a->sq[i]))
				return -1;
		return 0;
	case F_SHIPLIST:
		return read_ship_list(v, 0, QT_SHIPS, a);
	}
	return -1;
}

static int has_field(const struct shape *sh, const char *key)
{
	for (int k = 0; k < nfields(sh); k++)
		if (strcmp(field_names[sh->f[k]], key) == 0)
			return 1;
	return 0;
}

/* OPT_* bit of an optional field of sh named key, or 0. */
static int opt_field(const struct shape *sh, const char *key)
{
	for (int k = 0; k < NOPTS; k++)
		if ((sh->opt >> k & 1) && strcmp(opt_names[k], key) == 0)
			return 1 << k;
	return 0;
}

/* 1 if j has every field of sh and no other (optional ones aside). */
static int keys_match(const struct shape *sh, const json_t *j)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "type") && !has_field(sh, key) &&
		    !opt_field(sh, key))
			return 0;
	}
	for (int k = 0; k < nfields(sh); k++)
		if (!json_object_get(j, field_names[sh->f[k]]))
			return 0;
	return 1;
}

/* Why j does not fit the one shape sh. */
static int shape_refusal(const struct shape *sh, const json_t *j,
                         struct rules_why *why)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)j, key, v) {
		if (strcmp(key, "type") && !has_field(sh, key) &&
		    !opt_field(sh, key))
			return rules_fail(why, BD_EILLEGAL, sh->rule,
			                  "%s has no field \"%s\"", sh->name,
			                  key);
	}
	for (int k = 0; k < nfields(sh); k++)
		if (!json_object_get(j, field_names[sh->f[k]]))
			return rules_fail(why, BD_EILLEGAL, sh->rule,
			                  "%s needs \"%s\"", sh->name,
			                  field_names[sh->f[k]]);
	return rules_fail(why, BD_EILLEGAL, sh->rule, "%s: malformed",
	                  sh->name);
}

static int read_diagonals(const json_t *v, struct qt_action *a)
{
	return read_ship_list(v, 1, 4, a);
}

/* Reads the optional fields of sh present in j. */
static int read_options_of(const struct shape *sh, const json_t *j,
                           struct qt_action *a, struct rules_why *why)
{
	for (int k = 0; k < NOPTS; k++) {
		const json_t *v = json_object_get(j, opt_names[k]);
		if (!(sh->opt >> k & 1) || !v)
			continue;
		int bad = (1 << k) == OPT_DIAGONALS ? read_diagonals(v, a)
		          : json_is_true(v)         ? 0
		                                    : -1;
		if (bad)
			return rules_fail(why, BD_EILLEGAL, sh->rule,
			                  "%s: \"%s\" must be %s", sh->name,
			                  opt_names[k],
			                  (1 << k) == OPT_DIAGONALS
			                      ? "a list of 1 to 4 ship numbers"
			                      : "true (or left out)");
		if ((1 << k) == OPT_CUNNING)
			a->cunning = 1;
		if ((1 << k) == OPT_CURIOUS)
			a->curious = 1;
	}
	return 0;
}

/* Parses a JSON action strictly: known type, exactly the fields of one of
 * its shapes (optional fields aside). */
static int action_from_json(const json_t *j, struct qt_action *a,
                            struct rules_why *why)
{
	memset(a, 0, sizeof *a);
	const json_t *t = json_is_object(j) ? json_object_get(j, "type") : NULL;
	if (!json_is_string(t))
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "an action is an object with a \"type\"");
	int type = -1, named = -1, forms = 0;
	for (int i = 0; i < QT_NACTION_TYPES; i++) {
		if (strcmp(shapes[i].name, json_string_value(t)) != 0)
			continue;
		named = i;
		forms++;
		if (type < 0 && keys_match(&shapes[i], j))
			type = i;
	}
	if (named < 0)
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "unknown action type \"%s\"",
		                  json_string_value(t));
	if (type < 0 && forms == 1)
		return shape_refusal(&shapes[named], j, why);
	if (type < 0)
		return rules_fail(why, BD_EILLEGAL, shapes[named].rule,
		                  "%s takes {ship,to}, {ship,target} or "
		                  "{ship,passenger,to,drop}",
		                  shapes[named].name);
	const struct shape *sh = &shapes[type];
	a->type = (uint8_t)type;
	for (int k = 0; k < nfields(sh); k++) {
		int f = sh->f[k];
		if (read_field(f, json_object_get(j, field_names[f]), a))
			return rules_fail(why, BD_EILLEGAL, sh->rule,
			                  "%s: \"%s\" must be a %s", sh->name,
			                  field_names[f], field_kinds[f]);
	}
	return read_options_of(sh, j, a, why);
}

static json_t *sq_json(struct qt_sq sq)
{
	return json_pack("[ii]", sq.r, sq.c);
}

static json_t *field_json(int f, const struct qt_action *a)
{
	switch (f) {
	case F_SHIP:
		return json_integer(a->ship);
	case F_PASSENGER:
	case F_WITH:
		return json_integer(a->other);
	case F_OWNER:
		return json_integer(a->owner);
	case F_VALUE:
	case F_FACE:
		return json_integer(a->value);
	case F_REROLL:
	case F_DESTROY:
		return json_boolean(a->yes);
	case F_TO:
		return sq_json(a->to);
	case F_FROM:
		return sq_json(a->from);
	case F_TARGET:
		return sq_json(a->target);
	case F_DROP:
		return sq_json(a->drop);
	case F_PLANET:
		return sq_json(a->planet);
	case F_CARD:
		return json_string(qt_card_name(a->card));
	case F_TO_OR_SCRAP:
		return a->scrapyard ? json_string("scrapyard") : sq_json(a->to);
	case F_SQUARES3: {
		json_t *arr = json_array();
		for (int i = 0; i < QT_START_SHIPS; i++)
			json_array_append_new(arr, sq_json(a->sq[i]));
		return arr;
	}
	case F_SHIPLIST: {
		json_t *arr = json_array();
		for (int i = 0; i < a->nships; i++)
			json_array_append_new(arr, json_integer(a->ships[i]));
		return arr;
	}
	}
	return json_null();
}

/* A new reference: the action as posted by clients. */
static json_t *action_to_json(const struct qt_action *a)
{
	const struct shape *sh = &shapes[a->type];
	json_t *o = json_pack("{ss}", "type", sh->name);
	for (int k = 0; k < nfields(sh); k++)
		json_object_set_new(o, field_names[sh->f[k]],
		                    field_json(sh->f[k], a));
	if (a->cunning)
		json_object_set_new(o, "cunning", json_true());
	if (a->curious)
		json_object_set_new(o, "curious", json_true());
	if ((sh->opt & OPT_DIAGONALS) && a->nships > 0)
		json_object_set_new(o, "diagonals", field_json(F_SHIPLIST, a));
	return o;
}

/* ---- options ---- */

/* Printing variants (rules §9.4, §14), in enum order; index 0 is the
 * default. */
static const char *const two_printings[] = {"revised", "first-printing", NULL};
static const char *const curious_printings[] = {"revised", "addon",
                                                "first-printing", NULL};

/* Index of v's string among names, or -1. */
static int printing(const json_t *v, const char *const *names)
{
	const char *sv = json_string_value(v);
	for (int i = 0; sv && names[i]; i++)
		if (strcmp(sv, names[i]) == 0)
			return i;
	return -1;
}

static int read_options(const json_t *o, int seats, struct qt_options *out,
                        struct rules_why *why)
{
	*out = (struct qt_options){.map = qt_map_default(seats),
	                           .entanglement = 1};
	if (!json_is_object(o))
		return rules_fail(why, BD_EBADOPTIONS, "§14",
		                  "options are an object");
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)o, key, v) {
		if (strcmp(key, "map") == 0) {
			int m = json_is_string(v)
			            ? qt_map_find(json_string_value(v))
			            : -1;
			if (m < 0)
				return rules_fail(why, BD_EBADOPTIONS, "§11",
				                  "map: no such map (see the "
				                  "catalog's list)");
			if (qt_map_get(m)->seats != seats)
				return rules_fail(why, BD_EBADOPTIONS, "§11",
				                  "map \"%s\" is for %d "
				                  "players, not %d",
				                  qt_map_get(m)->name,
				                  qt_map_get(m)->seats, seats);
			out->map = m;
		} else if (strcmp(key, "entanglement") == 0) {
			if (!json_is_boolean(v))
				return rules_fail(
				    why, BD_EBADOPTIONS, "§7.3",
				    "entanglement: true or false");
			out->entanglement = json_is_true(v);
		} else if (strcmp(key, "relocation") == 0 ||
		           strcmp(key, "strategic") == 0) {
			int x = json_is_boolean(v) && key[0] == 'r'
			            ? json_is_true(v)
			            : printing(v, two_printings);
			if (x < 0)
				return rules_fail(why, BD_EBADOPTIONS, "§14",
				                  "%s: \"revised\" or "
				                  "\"first-printing\"",
				                  key);
			*(key[0] == 'r' ? &out->reloc_first
			                : &out->strategic_first) = x;
		} else if (strcmp(key, "curious") == 0) {
			if ((out->curious = printing(v, curious_printings)) < 0)
				return rules_fail(why, BD_EBADOPTIONS, "§14",
				                  "curious: \"revised\", "
				                  "\"addon\" or "
				                  "\"first-printing\"");
		} else {
			return rules_fail(why, BD_EBADOPTIONS, "§14",
			                  "unknown option \"%s\"", key);
		}
	}
	struct qt_board b;
	qt_board_decode(qt_map_get(out->map), &b);
	int slack =
	    qt_board_cube_locations(&b) - seats * qt_map_get(out->map)->cubes;
	/* rules §14: no entanglement-off on negative-slack maps. */
	if (!out->entanglement && slack < 0)
		return rules_fail(why, BD_EBADOPTIONS, "§14",
		                  "map \"%s\" needs Quantum Entanglement "
		                  "(slack %d)",
		                  qt_map_get(out->map)->name, slack);
	return 0;
}

/* ---- custom setup ---- */

static int bad_setup(struct rules_why *why, const char *rule, const char *msg)
{
	return rules_fail(why, BD_EBADSETUP, rule, "%s", msg);
}

static int read_ship(const json_t *e, struct qt_custom_ship *cs,
                     struct rules_why *why)
{
	const char *key;
	json_t *v;
	if (!json_is_object(e))
		return bad_setup(why, "§1", "a ship is {\"value\":v,\"at\":…}");
	json_object_foreach((json_t *)e, key, v) {
		if (strcmp(key, "value") && strcmp(key, "at") &&
		    strcmp(key, "moved") && strcmp(key, "ability_used"))
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "a ship has no field \"%s\"", key);
	}
	const json_t *at = json_object_get(e, "at");
	const char *where = json_string_value(at);
	if (where && strcmp(where, "scrapyard") == 0)
		cs->where = QT_SCRAPYARD;
	else if (where && strcmp(where, "reserve") == 0)
		cs->where = QT_RESERVE;
	else if (at && read_sq(at, &cs->at) == 0)
		cs->where = QT_MAP;
	else
		return bad_setup(why, "§2",
		                 "a ship's \"at\" is [row,col], \"scrapyard\" "
		                 "or \"reserve\"");
	int x = 0;
	const json_t *val = json_object_get(e, "value");
	if (cs->where != QT_RESERVE || val) {
		if (read_int(val, 1, 6, &x))
			return bad_setup(why, "§1", "a ship's value is 1..6");
	}
	cs->value = (uint8_t)x;
	const json_t *mv = json_object_get(e, "moved");
	const json_t *ab = json_object_get(e, "ability_used");
	if ((mv && !json_is_boolean(mv)) || (ab && !json_is_boolean(ab)))
		return bad_setup(why, "§4",
		                 "moved and ability_used are booleans");
	cs->moved = json_is_true(mv);
	cs->ability_used = json_is_true(ab);
	return 0;
}

static int read_ships(const json_t *v, int seats, struct qt_custom *cu,
                      struct rules_why *why)
{
	if (!json_is_array(v) || (int)json_array_size(v) != seats)
		return rules_fail(why, BD_EBADSETUP, "§1",
		                  "\"ships\" holds one list per seat (%d)",
		                  seats);
	for (int p = 0; p < seats; p++) {
		const json_t *l = json_array_get(v, (size_t)p);
		if (!json_is_array(l) || json_array_size(l) < QT_START_SHIPS ||
		    json_array_size(l) > QT_SHIPS)
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "seat %d needs 3 to 5 ships", p);
		cu->nships[p] = (int)json_array_size(l);
		for (int i = 0; i < cu->nships[p]; i++) {
			int rc = read_ship(json_array_get(l, (size_t)i),
			                   &cu->ship[p][i], why);
			if (rc)
				return rc;
		}
		for (int i = cu->nships[p]; i < QT_SHIPS; i++)
			cu->ship[p][i].where = QT_RESERVE;
	}
	return 0;
}

static int read_cubes(const json_t *v, struct qt_custom *cu,
                      struct rules_why *why)
{
	if (!json_is_array(v) || json_array_size(v) > QT_MAX_SEATS * 7)
		return bad_setup(why, "§1",
		                 "\"cubes\" is a list of at most "
		                 "28 {\"seat\",\"planet\"}");
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		if (!json_is_object(e) || json_object_size(e) != 2 ||
		    read_int(json_object_get(e, "seat"), 0, QT_MAX_SEATS - 1,
		             &cu->cubes[i].seat) ||
		    read_sq(json_object_get(e, "planet"), &cu->cubes[i].planet))
			return bad_setup(why, "§1",
			                 "a cube is {\"seat\":s,\"planet\":"
			                 "[row,col]}");
	}
	cu->ncubes = (int)json_array_size(v);
	return 0;
}

static int read_track(const json_t *v, int seats, int *out,
                      struct rules_why *why, const char *name)
{
	if (!json_is_array(v) || (int)json_array_size(v) != seats)
		return rules_fail(why, BD_EBADSETUP, "§7",
		                  "\"%s\" holds one number per seat", name);
	for (int p = 0; p < seats; p++)
		if (read_int(json_array_get(v, (size_t)p), 0, 99, &out[p]))
			return rules_fail(why, BD_EBADSETUP, "§7",
			                  "\"%s\" holds numbers", name);
	return 0;
}

static int read_cards(const json_t *v, int max, uint8_t *out, int *n,
                      struct rules_why *why)
{
	if (!v) {
		*n = 0;
		return 0;
	}
	if (!json_is_array(v) || (int)json_array_size(v) > max)
		return rules_fail(why, BD_EBADSETUP, "§9",
		                  "a card list holds at most %d card ids", max);
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		if (read_card(e, &out[i]))
			return rules_fail(
			    why, BD_EBADSETUP, "§9", "unknown card id %s",
			    json_is_string(e) ? json_string_value(e)
			                      : "(not a string)");
	}
	*n = (int)json_array_size(v);
	return 0;
}

static int read_pair(const json_t *v, const char *what, int maxc, int maxg,
                     uint8_t *cmd, int *nc, uint8_t *gam, int *ng,
                     struct rules_why *why)
{
	const char *key;
	json_t *x;
	if (!json_is_object(v))
		return rules_fail(why, BD_EBADSETUP, "§9",
		                  "\"%s\" is {\"command\":[…],\"gambit\":[…]}",
		                  what);
	json_object_foreach((json_t *)v, key, x) {
		if (strcmp(key, "command") && strcmp(key, "gambit"))
			return rules_fail(why, BD_EBADSETUP, "§9",
			                  "\"%s\" has no field \"%s\"", what,
			                  key);
	}
	int rc = read_cards(json_object_get(v, "command"), maxc, cmd, nc, why);
	return rc ? rc
	          : read_cards(json_object_get(v, "gambit"), maxg, gam, ng,
	                       why);
}

static int read_held(const json_t *v, int seats, struct qt_custom *cu,
                     struct rules_why *why)
{
	if (!json_is_array(v) || (int)json_array_size(v) != seats)
		return bad_setup(why, "§9.1",
		                 "\"commands\" holds one list of "
		                 "command card ids per seat");
	for (int p = 0; p < seats; p++) {
		int rc = read_cards(json_array_get(v, (size_t)p), QT_MAX_HELD,
		                    cu->held[p], &cu->held_n[p], why);
		if (rc)
			return rc;
	}
	cu->has_held = 1;
	return 0;
}

static int read_dice(const json_t *v, struct qt_custom *cu,
                     struct rules_why *why)
{
	if (!json_is_array(v) || json_array_size(v) > QT_SCRIPT_DICE)
		return bad_setup(why, "§14",
		                 "\"dice\" is a list of at most 64 dice");
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		int x;
		if (read_int(e, 1, 6, &x))
			return bad_setup(why, "§14", "a die shows 1..6");
		cu->dice[i] = (uint8_t)x;
	}
	cu->ndice = (int)json_array_size(v);
	return 0;
}

static int read_custom_field(const char *key, const json_t *v, int seats,
                             struct qt_custom *cu, struct rules_why *why)
{
	if (strcmp(key, "first_player") == 0)
		return read_int(v, 0, QT_MAX_SEATS - 1, &cu->first_player)
		           ? bad_setup(why, "§3.4", "first_player: a seat")
		           : 0;
	if (strcmp(key, "actions_left") == 0)
		return read_int(v, 0, QT_ACTIONS, &cu->actions_left)
		           ? bad_setup(why, "§4", "actions_left: 0..3")
		           : 0;
	if (strcmp(key, "ships") == 0)
		return read_ships(v, seats, cu, why);
	if (strcmp(key, "cubes") == 0)
		return read_cubes(v, cu, why);
	if (strcmp(key, "dominance") == 0)
		return read_track(v, seats, cu->dominance, why, key);
	if (strcmp(key, "research") == 0)
		return read_track(v, seats, cu->research, why, key);
	if (strcmp(key, "row") == 0) {
		cu->has_row = 1;
		return read_pair(v, key, QT_ROW, QT_ROW, cu->row_cmd,
		                 &cu->row_cmd_n, cu->row_gam, &cu->row_gam_n,
		                 why);
	}
	if (strcmp(key, "decks") == 0) {
		cu->has_decks = 1;
		return read_pair(v, key, QT_NCOMMANDS, QT_NGAMBITS,
		                 cu->deck_cmd, &cu->deck_cmd_n, cu->deck_gam,
		                 &cu->deck_gam_n, why);
	}
	if (strcmp(key, "commands") == 0)
		return read_held(v, seats, cu, why);
	if (strcmp(key, "dice") == 0)
		return read_dice(v, cu, why);
	return rules_fail(why, BD_EBADSETUP, "§3",
	                  "unknown custom setup field \"%s\"", key);
}

static int read_custom(const json_t *j, int seats, struct qt_custom *cu,
                       struct rules_why *why)
{
	memset(cu, 0, sizeof *cu);
	cu->first_player = cu->actions_left = -1;
	for (int p = 0; p < QT_MAX_SEATS; p++)
		cu->dominance[p] = cu->research[p] = -1;
	if (!json_is_object(j))
		return bad_setup(why, "§3", "a custom setup is an object");
	if (!json_object_get(j, "ships"))
		return bad_setup(why, "§3", "a custom setup needs \"ships\"");
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)j, key, v) {
		int rc = read_custom_field(key, v, seats, cu, why);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the rules table's functions ---- */

static int qj_setup(void *state, int seats, const json_t *options,
                    const json_t *setup, struct rng *rng, struct rules_why *why)
{
	struct qt_options o;
	int rc = read_options(options, seats, &o, why);
	if (rc)
		return rc;
	if (!setup) {
		qt_setup_new(state, seats, &o, rng);
		return 0;
	}
	struct qt_custom cu;
	rc = read_custom(setup, seats, &cu, why);
	if (rc)
		return rc;
	return qt_setup_custom(state, seats, &o, &cu, rng, why);
}

static unsigned qj_to_act(const void *state)
{
	return qt_to_act(state);
}

_Static_assert(sizeof(struct qt_action) <= ENGINE_ACTION_BYTES,
               "struct qt_action fits an engine_action");

/* The native action inside an engine_action (copied: no aliasing). */
static struct qt_action native(const struct engine_action *e)
{
	struct qt_action a;
	memcpy(&a, e->bytes, sizeof a);
	return a;
}

struct legal_ctx {
	struct engine_action *out;
	size_t cap, n;
};

static void emit_native(void *ctx, const struct qt_action *a)
{
	struct legal_ctx *c = ctx;
	if (c->n < c->cap) {
		memset(&c->out[c->n], 0, sizeof c->out[c->n]);
		memcpy(c->out[c->n].bytes, a, sizeof *a);
	}
	c->n++;
}

static size_t qj_legal(const void *state, int seat, struct engine_action *out,
                       size_t cap)
{
	struct legal_ctx c = {out, cap, 0};
	if (seat >= 0 && seat < ((const struct qt_state *)state)->seats)
		qt_list_actions(state, seat, emit_native, &c);
	return c.n;
}

static int qj_play(void *state, int seat, const struct engine_action *e,
                   struct rng *rng, struct rules_why *why)
{
	struct qt_action a = native(e);
	return qt_apply(state, seat, &a, rng, why);
}

static int qj_action_parse(const json_t *action, struct engine_action *out,
                           struct rules_why *why)
{
	struct qt_action a;
	int rc = action_from_json(action, &a, why);
	if (rc == 0) {
		memset(out, 0, sizeof *out);
		memcpy(out->bytes, &a, sizeof a);
	}
	return rc;
}

static json_t *qj_action_json(const struct engine_action *e)
{
	struct qt_action a = native(e);
	return action_to_json(&a);
}

static void qj_determinize(void *state, int viewer, struct rng *rng)
{
	(void)viewer; /* every seat sees the same: all but the decks */
	qt_determinize(state, rng);
}

static void qj_estimate(const void *state, double share[ENGINE_MAX_SEATS])
{
	qt_estimate(state, share);
}

/* ---- view ---- */

static const char *const phase_names[] = {
    [QT_PH_REROLL] = "setup_reroll", [QT_PH_PLANET] = "choose_planet",
    [QT_PH_ARRANGE] = "arrange",     [QT_PH_ACTIONS] = "actions",
    [QT_PH_CARDS] = "cards",         [QT_PH_OVER] = "over"};
_Static_assert(sizeof phase_names / sizeof *phase_names == QT_PH_OVER + 1,
               "one name per phase");

static const char *const decision_names[] = {
    [QT_DEC_ADVANCE] = "advance",
    [QT_DEC_INFAMY] = "infamy",
    [QT_DEC_DISCARD] = "discard_command",
    [QT_DEC_SABOTAGE] = "sabotage",
    [QT_DEC_PLACE_SHIP] = "place_ship",
    [QT_DEC_REORGANIZE] = "reorganize",
    [QT_DEC_RELOCATE] = "relocate",
    [QT_DEC_DANGEROUS] = "dangerous",
    [QT_DEC_CRUEL] = "cruel",
    [QT_DEC_RELENTLESS] = "relentless",
    [QT_DEC_SCRAPPY] = "scrappy",
    [QT_DEC_SCRAPPY_SHIP] = "scrappy",
    [QT_DEC_CLEVER] = "clever",
};
_Static_assert(sizeof decision_names / sizeof *decision_names ==
                   QT_DEC_CLEVER + 1,
               "one name per decision kind");

/* The command cards in a QT_CARD_BIT set, by name. */
static json_t *card_set(uint32_t set)
{
	json_t *arr = json_array();
	for (int c = QT_FIRST_COMMAND; c < QT_NCARDS; c++)
		if (set & QT_CARD_BIT(c))
			json_array_append_new(arr,
			                      json_string(qt_card_name(c)));
	return arr;
}

/* The battle being resolved (rules §6.1), or null. */
static json_t *battle_view(const struct qt_state *s)
{
	const struct qt_battle *b = &s->battle;
	if (!b->on)
		return json_null();
	return json_pack(
	    "{s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o}", "attacker", b->att,
	    "attacker_ship", b->aship, "defender", b->def, "defender_ship",
	    b->dship, "from", sq_json(b->from), "target", sq_json(b->target),
	    "attack_roll", b->aroll ? json_integer(b->aroll) : json_null(),
	    "defense_roll", b->droll ? json_integer(b->droll) : json_null());
}

/* One pending decision: its kind, seat and, when it is about one ship,
 * the ship. */
static json_t *decision_view(const struct qt_decision *d)
{
	json_t *o = json_pack("{s:s,s:i}", "kind", decision_names[d->kind],
	                      "seat", d->seat);
	if (d->kind == QT_DEC_ADVANCE || d->kind == QT_DEC_PLACE_SHIP ||
	    d->kind == QT_DEC_SCRAPPY_SHIP || d->kind == QT_DEC_CLEVER)
		json_object_set_new(o, "ship", json_integer(d->ship));
	return o;
}

static json_t *map_view(const struct qt_state *s)
{
	const struct qt_board *b = &s->board;
	json_t *planets = json_array(), *voids = json_array(),
	       *gaps = json_array();
	for (int p = 0; p < b->nplanets; p++) {
		json_t *cubes = json_array();
		for (int k = 0; k < b->planet[p].number - 6; k++)
			if (s->cube[p][k] >= 0)
				json_array_append_new(
				    cubes, json_integer(s->cube[p][k]));
		json_array_append_new(
		    planets,
		    json_pack("{s:o,s:i,s:b,s:i,s:o}", "at",
		              sq_json(b->planet[p].at), "number",
		              b->planet[p].number, "start", b->planet[p].start,
		              "cube_spaces", b->planet[p].number - 6, "cubes",
		              cubes));
	}
	for (int tr = 0; tr < b->tile_rows; tr++)
		for (int tc = 0; tc < b->tile_cols; tc++) {
			if (b->tile[tr][tc] == QT_TILE_VOID)
				json_array_append_new(
				    voids, json_pack("[ii]", tr, tc));
			if (b->tile[tr][tc] == QT_TILE_GAP)
				json_array_append_new(
				    gaps, json_pack("[ii]", tr, tc));
		}
	const struct qt_map *m = qt_map_get(s->map);
	return json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:o,s:o,s:o}", "name",
	                 m->name, "layout", m->layout, "rows", qt_board_rows(b),
	                 "cols", qt_board_cols(b), "tile_rows", b->tile_rows,
	                 "tile_cols", b->tile_cols, "planets", planets,
	                 "void_tiles", voids, "gap_tiles", gaps);
}

static json_t *ship_view(const struct qt_ship *sh, int owner, int i)
{
	json_t *at = sh->where == QT_MAP         ? sq_json(sh->at)
	             : sh->where == QT_SCRAPYARD ? json_string("scrapyard")
	                                         : json_string("reserve");
	return json_pack(
	    "{s:i,s:i,s:o,s:o,s:b,s:b}", "owner", owner, "ship", i, "value",
	    sh->value ? json_integer(sh->value) : json_null(), "at", at,
	    "moved", sh->moved, "ability_used", sh->ability_used);
}

static json_t *card_list(const uint8_t *c, int n, int keep_empty)
{
	json_t *arr = json_array();
	for (int i = 0; i < n; i++) {
		if (c[i] != QT_NO_CARD)
			json_array_append_new(arr,
			                      json_string(qt_card_name(c[i])));
		else if (keep_empty)
			json_array_append_new(arr, json_null());
	}
	return arr;
}

static json_t *player_view(const struct qt_state *s, int p)
{
	json_t *ships = json_array();
	for (int i = 0; i < QT_SHIPS; i++)
		json_array_append_new(ships, ship_view(&s->ship[p][i], p, i));
	const struct qt_map *m = qt_map_get(s->map);
	int sp = s->start_planet[p];
	return json_pack(
	    "{s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o}", "seat", p,
	    "cubes_left", s->cubes_left[p], "cubes_placed",
	    m->cubes - s->cubes_left[p], "dominance", s->dominance[p],
	    "research", s->research[p], "picks_owed", s->picks[p], "commands",
	    card_list(s->held[p], QT_MAX_HELD + 1, 0), "commands_waking",
	    card_set(s->waking[p]), "start_planet",
	    sp >= 0 ? sq_json(s->board.planet[sp].at) : json_null(), "ships",
	    ships);
}

static json_t *qj_view(const void *state, int viewer, int over)
{
	(void)viewer,
	    (void)over; /* rules: everything but deck order is public */
	const struct qt_state *s = state;
	json_t *players = json_array(), *pending = json_array(),
	       *dice = json_array(), *to_act = json_array();
	for (int p = 0; p < s->seats; p++) {
		json_array_append_new(players, player_view(s, p));
		if (qt_to_act(s) >> p & 1)
			json_array_append_new(to_act, json_integer(p));
	}
	for (int k = 0; k < s->ndecisions; k++)
		json_array_append_new(pending, decision_view(&s->decision[k]));
	for (int k = 0; k < s->last_dice_n; k++)
		json_array_append_new(dice, json_integer(s->last_dice[k]));
	json_t *v = json_pack(
	    "{s:b,s:{s:s,s:b,s:s,s:s,s:s},s:o,s:o,s:s,s:i,s:i,s:i,s:b,s:o,"
	    "s:o,s:o}",
	    "custom", s->custom, "options", "map", qt_map_get(s->map)->name,
	    "entanglement", s->entanglement, "relocation",
	    two_printings[s->reloc_first], "curious",
	    curious_printings[s->curious], "strategic",
	    two_printings[s->strategic_first], "map", map_view(s), "players",
	    players, "phase", phase_names[s->phase], "active", s->active,
	    "first_player", s->first, "actions_left", s->actions_left,
	    "bonus_turn", s->bonus_turn, "to_act", to_act, "pending", pending,
	    "last_dice", dice);
	json_object_set_new(
	    v, "row",
	    json_pack("{s:o,s:o}", "command", card_list(s->row_cmd, QT_ROW, 1),
	              "gambit", card_list(s->row_gam, QT_ROW, 1)));
	json_object_set_new(v, "decks",
	                    json_pack("{s:i,s:i}", "command", s->cmd_deck_n,
	                              "gambit", s->gam_deck_n));
	json_object_set_new(
	    v, "discards",
	    json_pack("{s:o,s:o}", "command",
	              card_list(s->cmd_discard, s->cmd_discard_n, 0), "gambit",
	              card_list(s->gam_discard, s->gam_discard_n, 0)));
	json_object_set_new(v, "battle", battle_view(s));
	json_object_set_new(v, "turn",
	                    json_pack("{s:o,s:b,s:b}", "powers_used",
	                              card_set(s->used), "attacked",
	                              s->attacked, "curious_owed",
	                              s->curious_debt));
	json_object_set_new(v, "winner",
	                    s->phase == QT_PH_OVER ? json_integer(s->winner)
	                                           : json_null());
	return v;
}

static json_t *qj_move_view(const void *after, const void *now, int actor,
                            const json_t *action, int viewer, int over)
{
	/* Quantum hides nothing in a move: the log is public. */
	(void)after, (void)now, (void)actor, (void)viewer, (void)over;
	return json_deep_copy(action);
}

static int qj_result(const void *state, struct rules_result *out)
{
	const struct qt_state *s = state;
	if (s->phase != QT_PH_OVER)
		return 0;
	out->winners = 1u << s->winner;
	out->reason = "last_cube"; /* rules §10: the only way to win */
	return 1;
}

/* ---- catalog ---- */

/* [{"type", "rule", "fields": {name: kind}}], the catalog's shape for
 * every game. */
static json_t *catalog_actions(void)
{
	json_t *o = json_array();
	for (int t = 0; t < QT_NACTION_TYPES; t++) {
		json_t *fields = json_object();
		for (int k = 0; k < nfields(&shapes[t]); k++)
			json_object_set_new(
			    fields, field_names[shapes[t].f[k]],
			    json_string(field_kinds[shapes[t].f[k]]));
		for (int k = 0; k < NOPTS; k++)
			if (shapes[t].opt >> k & 1)
				json_object_set_new(fields, opt_names[k],
				                    json_string(opt_kinds[k]));
		json_array_append_new(
		    o, json_pack("{s:s,s:s,s:o}", "type", shapes[t].name,
		                 "rule", shapes[t].rule, "fields", fields));
	}
	return o;
}

static json_t *qj_catalog(void)
{
	json_t *maps = json_object(), *defaults = json_object();
	for (int seats = 2; seats <= QT_MAX_SEATS; seats++) {
		char key[2] = {(char)('0' + seats), 0};
		json_t *list = json_array();
		for (int i = 0; i < qt_map_count(); i++) {
			const struct qt_map *m = qt_map_get(i);
			if (m->seats == seats)
				json_array_append_new(
				    list, json_pack("{s:s,s:i,s:s}", "name",
				                    m->name, "cubes", m->cubes,
				                    "layout", m->layout));
		}
		json_object_set_new(maps, key, list);
		json_object_set_new(
		    defaults, key,
		    json_string(qt_map_get(qt_map_default(seats))->name));
	}
	json_t *cards = json_array();
	for (int c = 0; c < QT_NCARDS; c++)
		json_array_append_new(
		    cards,
		    json_pack("{s:s,s:s,s:i}", "id", qt_card_name(c), "kind",
		              c < QT_FIRST_COMMAND ? "gambit" : "command",
		              "copies", qt_card_copies(c)));
	json_t *options = json_pack(
	    "{s:{s:s,s:o,s:s},s:{s:s,s:b,s:s},s:{s:s,s:[ss],s:s,s:s},"
	    "s:{s:s,s:[sss],s:s,s:s},s:{s:s,s:[ss],s:s,s:s}}",
	    "map", "type", "string", "default", defaults, "rule", "§11",
	    "entanglement", "type", "boolean", "default", 1, "rule", "§7.3",
	    "relocation", "type", "string", "values", "revised",
	    "first-printing", "default", "revised", "rule", "§9.4", "curious",
	    "type", "string", "values", "revised", "addon", "first-printing",
	    "default", "revised", "rule", "§9.4", "strategic", "type", "string",
	    "values", "revised", "first-printing", "default", "revised", "rule",
	    "§9.4");
	return json_pack("{s:o,s:o,s:o,s:o,s:[ssssssssss]}", "options", options,
	                 "maps", maps, "actions", catalog_actions(), "cards",
	                 cards, "setup_fields", "first_player", "actions_left",
	                 "ships", "cubes", "dominance", "research", "row",
	                 "decks", "commands", "dice");
}

const struct rules qt_rules = {
    .id = "quantum",
    .title = "Quantum",
    .version = 2, /* 2: command-card powers */
    .min_seats = 2,
    .max_seats = 4,
    .state_size = sizeof(struct qt_state),
    .catalog = qj_catalog,
    .setup = qj_setup,
    .to_act = qj_to_act,
    .action_size = sizeof(struct qt_action),
    .legal = qj_legal,
    .play = qj_play,
    .action_parse = qj_action_parse,
    .action_json = qj_action_json,
    .determinize = qj_determinize,
    .estimate = qj_estimate,
    .view = qj_view,
    .move_view = qj_move_view,
    .result = qj_result,
};
