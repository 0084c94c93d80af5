/* qt_json.c: the Quantum module's engine table, `const struct rules
 * qt_rules`, and its catalog entry.  The JSON edge is four files sharing
 * qt_json.h: qt_codec.c (actions), qt_options.c (options and custom
 * setups), qt_view.c (views) and this one; the rules core never sees
 * JSON.
 * Layer 8 (JSON edge) of qt.h, its top. */
#include <jansson.h>
#include <string.h>

#include "qt.h"
#include "qt_json.h"
#include "quantum.h"

/* ---- the rules table's functions ---- */

static int qj_setup(void *state, int seats, const json_t *options,
                    const json_t *setup, struct rng *rng, struct rules_why *why)
{
	struct qt_options o;
	int rc = qt_read_options(options, seats, &o, why);
	if (rc)
		return rc;
	if (!setup) {
		qt_setup_new(state, seats, &o, rng);
		return 0;
	}
	struct qt_custom cu;
	rc = qt_read_custom(setup, seats, &cu, why);
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
		unsigned char *b = c->out[c->n].bytes;
		memcpy(b, a, sizeof *a);
		memset(b + sizeof *a, 0, ENGINE_ACTION_BYTES - sizeof *a);
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

static size_t qj_pick(const void *state, int seat, struct rng *rng,
                      struct engine_action *out)
{
	struct qt_action a = {0};
	size_t n = 0;
	if (seat >= 0 && seat < ((const struct qt_state *)state)->seats)
		n = qt_pick_action(state, seat, rng, &a);
	if (n)
		emit_native(&(struct legal_ctx){out, 1, 0}, &a);
	return n;
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
	int rc = qt_action_from_json(action, &a, why);
	if (rc == 0) {
		memset(out, 0, sizeof *out);
		memcpy(out->bytes, &a, sizeof a);
	}
	return rc;
}

static json_t *qj_action_json(const struct engine_action *e)
{
	struct qt_action a = native(e);
	return qt_action_to_json(&a);
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
	                 "maps", maps, "actions", qt_catalog_actions(), "cards",
	                 cards, "setup_fields", "first_player", "actions_left",
	                 "ships", "cubes", "dominance", "research", "row",
	                 "decks", "commands", "dice");
}

/* rules §14 custom setup "dice" (validated by qt_read_custom): the
 * engine's script, rolled in order by qt_roll before the generator. */
static size_t qj_script(const json_t *setup, uint8_t *out, size_t cap)
{
	json_t *dice = json_object_get(setup, "dice");
	size_t n = json_array_size(dice);
	for (size_t i = 0; i < n && i < cap; i++)
		out[i] = (uint8_t)json_integer_value(json_array_get(dice, i));
	return n;
}

const struct rules qt_rules = {
    .id = "quantum",
    .title = "Quantum",
    .version = 3,      /* 2: command-card powers; 3: resigned seats'
                          decisions are logged moves */
    .replays_from = 2, /* games of version 2 replay unchanged */
    .logs_resigned_from = 3,
    .min_seats = 2,
    .max_seats = 4,
    .state_size = sizeof(struct qt_state),
    .catalog = qj_catalog,
    .setup = qj_setup,
    .script = qj_script,
    .to_act = qj_to_act,
    .action_size = sizeof(struct qt_action),
    .legal = qj_legal,
    .pick = qj_pick,
    .play = qj_play,
    .action_parse = qj_action_parse,
    .action_json = qj_action_json,
    .determinize = qj_determinize,
    .estimate = qj_estimate,
    .view = qt_view_json,
    .move_view = qt_move_view_json,
    .move_outcome = qt_move_outcome_json,
    .result = qj_result,
};
