/* qt_options.c: Quantum's game options (rules §11, §7.3, §9.4, §14) and
 * custom setups read from JSON (qt_json.h).
 * Layer 8 (JSON edge) of qt.h, above qt_codec.c. */
#include <jansson.h>
#include <string.h>

#include "../../engine/engine.h" /* ENGINE_SCRIPT_MAX */
#include "qt.h"
#include "qt_json.h"

/* ---- options ---- */

/* Printing variants (rules §9.4, §14), in enum order; index 0 is the
 * default. */
const char *const qt_two_printings[] = {"revised", "first-printing", NULL};
const char *const qt_curious_printings[] = {"revised", "addon",
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

int qt_read_options(const json_t *o, int seats, struct qt_options *out,
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
			            : printing(v, qt_two_printings);
			if (x < 0)
				return rules_fail(why, BD_EBADOPTIONS, "§14",
				                  "%s: \"revised\" or "
				                  "\"first-printing\"",
				                  key);
			*(key[0] == 'r' ? &out->reloc_first
			                : &out->strategic_first) = x;
		} else if (strcmp(key, "curious") == 0) {
			if ((out->curious = printing(v, qt_curious_printings)) <
			    0)
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
	else if (at && qt_read_sq(at, &cs->at) == 0)
		cs->where = QT_MAP;
	else
		return bad_setup(why, "§2",
		                 "a ship's \"at\" is [row,col], \"scrapyard\" "
		                 "or \"reserve\"");
	int x = 0;
	const json_t *val = json_object_get(e, "value");
	if (cs->where != QT_RESERVE || val) {
		if (qt_read_int(val, 1, 6, &x))
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
		    qt_read_int(json_object_get(e, "seat"), 0, QT_MAX_SEATS - 1,
		                &cu->cubes[i].seat) ||
		    qt_read_sq(json_object_get(e, "planet"),
		               &cu->cubes[i].planet))
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
		if (qt_read_int(json_array_get(v, (size_t)p), 0, 99, &out[p]))
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
		if (qt_read_card(e, &out[i]))
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
	if (!json_is_array(v) || json_array_size(v) > ENGINE_SCRIPT_MAX)
		return rules_fail(why, BD_EBADSETUP, "§14",
		                  "\"dice\" is a list of at most %d dice",
		                  ENGINE_SCRIPT_MAX);
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		int x;
		if (qt_read_int(e, 1, 6, &x))
			return bad_setup(why, "§14", "a die shows 1..6");
	}
	(void)cu; /* kept by the engine, outside the state: qj_script */
	return 0;
}

static int read_custom_field(const char *key, const json_t *v, int seats,
                             struct qt_custom *cu, struct rules_why *why)
{
	if (strcmp(key, "first_player") == 0)
		return qt_read_int(v, 0, QT_MAX_SEATS - 1, &cu->first_player)
		           ? bad_setup(why, "§3.4", "first_player: a seat")
		           : 0;
	if (strcmp(key, "actions_left") == 0)
		return qt_read_int(v, 0, QT_ACTIONS, &cu->actions_left)
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

int qt_read_custom(const json_t *j, int seats, struct qt_custom *cu,
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
