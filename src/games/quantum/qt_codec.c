/* qt_codec.c: Quantum actions as JSON, both ways (qt_json.h): the action
 * shapes of rules §4-§9 and §14.1, their strict parser, their printer and
 * the catalog's list of them.
 * Layer 8 (JSON edge) of qt.h. */
#include <jansson.h>
#include <string.h>

#include "qt.h"
#include "qt_json.h"

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

int qt_read_int(const json_t *v, int lo, int hi, int *out)
{
	if (!json_is_integer(v))
		return -1;
	json_int_t x = json_integer_value(v);
	if (x < lo || x > hi)
		return -1;
	*out = (int)x;
	return 0;
}

int qt_read_sq(const json_t *v, struct qt_sq *out)
{
	int r, c;
	if (!json_is_array(v) || json_array_size(v) != 2 ||
	    qt_read_int(json_array_get(v, 0), 0, QT_MAX_ROWS - 1, &r) ||
	    qt_read_int(json_array_get(v, 1), 0, QT_MAX_COLS - 1, &c))
		return -1;
	out->r = (int8_t)r;
	out->c = (int8_t)c;
	return 0;
}

int qt_read_card(const json_t *v, uint8_t *out)
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
		if (qt_read_int(json_array_get(v, (size_t)i), 0, 4, &x))
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
		if (qt_read_int(v, 0, f == F_OWNER ? QT_MAX_SEATS - 1 : 4, &x))
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
		if (qt_read_int(v, 1, 6, &x))
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
		return qt_read_sq(v, &a->to);
	case F_FROM:
		return qt_read_sq(v, &a->from);
	case F_TARGET:
		return qt_read_sq(v, &a->target);
	case F_DROP:
		return qt_read_sq(v, &a->drop);
	case F_PLANET:
		return qt_read_sq(v, &a->planet);
	case F_CARD:
		return qt_read_card(v, &a->card);
	case F_TO_OR_SCRAP:
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), "scrapyard") == 0) {
			a->scrapyard = 1;
			return 0;
		}
		return qt_read_sq(v, &a->to);
	case F_SQUARES3:
		if (!json_is_array(v) || json_array_size(v) != QT_START_SHIPS)
			return -1;
		for (int i = 0; i < QT_START_SHIPS; i++)
			if (qt_read_sq(json_array_get(v, (size_t)i), &a->sq[i]))
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
		if (!(sh->opt >> k & 1))
			continue;
		const json_t *v = json_object_get(j, opt_names[k]);
		if (!v)
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
int qt_action_from_json(const json_t *j, struct qt_action *a,
                        struct rules_why *why)
{
	memset(a, 0, sizeof *a);
	const json_t *t = json_is_object(j) ? json_object_get(j, "type") : NULL;
	if (!json_is_string(t))
		return rules_fail(why, BD_EILLEGAL, "§4",
		                  "an action is an object with a \"type\"");
	int type = -1, named = -1, forms = 0;
	const char *tname = json_string_value(t);
	for (int i = 0; i < QT_NACTION_TYPES; i++) {
		if (shapes[i].name[0] != tname[0] ||
		    strcmp(shapes[i].name, tname) != 0)
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

json_t *qt_sq_json(struct qt_sq sq)
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
		return qt_sq_json(a->to);
	case F_FROM:
		return qt_sq_json(a->from);
	case F_TARGET:
		return qt_sq_json(a->target);
	case F_DROP:
		return qt_sq_json(a->drop);
	case F_PLANET:
		return qt_sq_json(a->planet);
	case F_CARD:
		return json_string(qt_card_name(a->card));
	case F_TO_OR_SCRAP:
		return a->scrapyard ? json_string("scrapyard")
		                    : qt_sq_json(a->to);
	case F_SQUARES3: {
		json_t *arr = json_array();
		for (int i = 0; i < QT_START_SHIPS; i++)
			json_array_append_new(arr, qt_sq_json(a->sq[i]));
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
json_t *qt_action_to_json(const struct qt_action *a)
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

/* [{"type", "rule", "fields": {name: kind}}], the catalog's shape for
 * every game. */
json_t *qt_catalog_actions(void)
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
