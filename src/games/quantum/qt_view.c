/* qt_view.c: what a viewer sees of a Quantum game and of a logged move
 * (qt_json.h).  Everything but the decks' order is public.
 * Layer 8 (JSON edge) of qt.h, above qt_codec.c and qt_options.c. */
#include <jansson.h>
#include <string.h>

#include "qt.h"
#include "qt_json.h"

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
	return json_pack("{s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o}", "attacker",
	                 b->att, "attacker_ship", b->aship, "defender", b->def,
	                 "defender_ship", b->dship, "from", qt_sq_json(b->from),
	                 "target", qt_sq_json(b->target), "attack_roll",
	                 b->aroll ? json_integer(b->aroll) : json_null(),
	                 "defense_roll",
	                 b->droll ? json_integer(b->droll) : json_null());
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
		              qt_sq_json(b->planet[p].at), "number",
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
	json_t *at = sh->where == QT_MAP         ? qt_sq_json(sh->at)
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
	    sp >= 0 ? qt_sq_json(s->board.planet[sp].at) : json_null(), "ships",
	    ships);
}

json_t *qt_view_json(const void *state, int viewer, int over)
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
	    qt_two_printings[s->reloc_first], "curious",
	    qt_curious_printings[s->curious], "strategic",
	    qt_two_printings[s->strategic_first], "map", map_view(s), "players",
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

json_t *qt_move_view_json(const void *after, const void *now, int actor,
                          const json_t *action, int viewer, int over)
{
	/* Quantum hides nothing in a move: the log is public. */
	(void)after, (void)now, (void)actor, (void)viewer, (void)over;
	return json_deep_copy(action);
}

json_t *qt_move_outcome_json(const void *after, int actor, int viewer, int over)
{
	static const char *const roll_for[] = {[QT_ROLL_OTHER] = "other",
	                                       [QT_ROLL_ATTACK] = "attack",
	                                       [QT_ROLL_DEFEND] = "defend",
	                                       [QT_ROLL_SHIP] = "ship",
	                                       [QT_ROLL_FIRST] =
	                                           "first_player"};
	const struct qt_state *s = after;
	(void)actor, (void)viewer, (void)over; /* dice and rows are public */
	json_t *o = json_object(), *dice = json_array(), *cards = json_array();
	for (int k = 0; k < s->last_dice_n; k++) {
		unsigned why = s->last_for[k];
		json_t *d = json_pack(
		    "{s:s,s:i,s:i}", "for",
		    why < sizeof roll_for / sizeof *roll_for ? roll_for[why]
		                                             : "other",
		    "seat", s->last_seat[k], "value", s->last_dice[k]);
		if (d && s->last_ship[k] >= 0)
			json_object_set_new(d, "ship",
			                    json_integer(s->last_ship[k]));
		json_array_append_new(dice, d);
	}
	for (int k = 0; k < s->last_cards_n; k++)
		json_array_append_new(
		    cards,
		    json_pack("{s:s,s:s}", "row",
		              s->last_cards_gambit[k] ? "gambit" : "command",
		              "card", qt_card_name(s->last_cards[k])));
	if (json_array_size(dice))
		json_object_set(o, "dice", dice);
	if (json_array_size(cards))
		json_object_set(o, "cards", cards);
	json_decref(dice);
	json_decref(cards);
	return o;
}
