/* json.c: JSON pieces the endpoints share, above all the game body. */
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

json_t *svc__seat_list(unsigned bits)
{
	return engine_seats_json(bits);
}

json_t *svc__result_json(const struct engine_game *g)
{
	return engine_result_json(g);
}

int svc__rating_game(const struct engine_game *g,
                     struct store_rating_game *out)
{
	struct rules_result res;
	if (!engine_game_result(g, &res) || g->seats < 2 ||
	    g->seats > STORE_RATING_SEATS)
		return 0;
	memset(out, 0, sizeof *out);
	out->seats = g->seats;
	engine_game_rating_category(g, out->category, sizeof out->category,
	                            out->side);
	for (int s = 0; s < g->seats; s++)
		out->place[s] = (res.winners >> s) & 1 ? 1 : 2;
	return 1;
}

const char *svc__status(const struct engine_game *g, int open_seats)
{
	struct rules_result res;
	if (engine_game_result(g, &res))
		return "finished";
	return open_seats > 0 ? "waiting" : "active";
}

json_t *svc__view(const struct engine_game *g, int viewer, int open_seats)
{
	return engine_game_view(g, open_seats > 0 ? ENGINE_SPECTATOR : viewer);
}

void svc__moved(struct service *svc, int64_t key, uint64_t seq)
{
	if (svc->on_move)
		svc->on_move(svc->on_move_ctx, key, seq);
}

/* The game's secret (docs/shuffles.md) as the game object shows it: the
 * commitment from creation on; the secret and salt it commits to (format
 * 2) or the 64-bit seed (format 1, no commitment) once the game is over,
 * so that anyone can check the commitment and re-run the log; null
 * before.  Sets the members on o; 0 or BD_ENOMEM. */
static int secret_json(json_t *o, const struct loaded *l)
{
	struct rules_result res;
	int over = engine_game_result(l->g, &res);
	struct engine_secret s;
	load_secret(&l->row, &s);
	char hex[2 * ENGINE_HASH_BYTES + 1];
	json_t *seed = NULL, *commitment = NULL, *secret = NULL, *salt = NULL;
	if (s.format == ENGINE_SEED_SECRET) {
		uint8_t c[ENGINE_HASH_BYTES];
		engine_secret_commitment(&s, c);
		engine_hex(c, sizeof c, hex);
		commitment = json_string(hex);
		if (over) {
			engine_hex(s.secret, sizeof s.secret, hex);
			secret = json_string(hex);
			engine_hex(s.salt, sizeof s.salt, hex);
			salt = json_string(hex);
		}
	} else if (over) {
		snprintf(hex, sizeof hex, "%016" PRIx64, s.seed);
		seed = json_string(hex);
	}
	int rc = json_object_set_new(o, "seed_format", json_integer(s.format));
	sodium_memzero(&s, sizeof s);
	rc |= json_object_set_new(o, "seed", seed ? seed : json_null());
	rc |= json_object_set_new(o, "commitment",
	                          commitment ? commitment : json_null());
	rc |= json_object_set_new(o, "secret", secret ? secret : json_null());
	rc |= json_object_set_new(o, "salt", salt ? salt : json_null());
	return rc ? BD_ENOMEM : 0;
}

static json_t *seat_json(const struct store_seat *s, int resigned)
{
	json_t *player = s->player_id[0]
	                     ? json_pack("{s:s,s:s}", "id", s->player_id,
	                                 "name", s->player_name)
	                     : json_null();
	json_t *invited =
	    s->invited_id[0] ? json_string(s->invited_id) : json_null();
	json_t *bot = s->bot[0] ? json_loads(s->bot, 0, NULL) : json_null();
	return json_pack("{s:i,s:b,s:o,s:o,s:o,s:b}", "seat", s->seat, "open",
	                 s->open, "player", player, "invited", invited, "bot",
	                 bot, "resigned", resigned);
}

/* [{seat, open, player, invited, bot, resigned}] for every seat: the hot
 * entry's seats when l came from the hot table, or the copy a write kept
 * of them (no store call), else the store's. */
static json_t *seats_json(struct service *svc, const struct loaded *l)
{
	struct store_seat buf[ENGINE_MAX_SEATS];
	const struct store_seat *seats = buf;
	int n = 0;
	if (l->hot) {
		seats = l->hot->seats;
		n = l->hot->nseats;
	} else if (l->seats) {
		seats = l->seats;
		n = l->nseats;
	} else if (store_seats_get(svc->st, l->row.key, buf, ENGINE_MAX_SEATS,
	                           &n) < 0) {
		return NULL;
	}
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++)
		if (json_array_append_new(
		        a, seat_json(&seats[i],
		                     (l->g->resigned >> seats[i].seat) & 1)) <
		    0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *svc__rematch_json(const struct store_game *row)
{
	if (!row->rematch_seats && !row->rematch[0])
		return json_null();
	return json_pack(
	    "{s:s,s:o,s:o,s:o}", "state",
	    row->rematch[0] ? "started" : "offered", "offered_by",
	    row->rematch_by >= 0 ? json_integer(row->rematch_by) : json_null(),
	    "accepted", svc__seat_list(row->rematch_seats), "game",
	    row->rematch[0] ? json_string(row->rematch) : json_null());
}

json_t *svc__rematch_of_json(const struct store_game *row)
{
	return row->rematch_of[0] ? json_string(row->rematch_of) : json_null();
}

json_t *svc__game_json(struct service *svc, const struct loaded *l, int viewer)
{
	const char *status = svc__status(l->g, l->row.open_seats);
	/* Nobody acts while seats are still open. */
	unsigned to_act = l->row.open_seats ? 0 : engine_game_to_act(l->g);
	json_t *o = json_pack(
	    "{s:s,s:s,s:i,s:I,s:i,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b}",
	    "id", l->row.id, "game", l->rules->id, "rules_version",
	    (int)l->row.rules_version, "seq", (json_int_t)l->g->seq, "seats",
	    l->g->seats, "status", status, "to_act", svc__seat_list(to_act),
	    "you", viewer >= 0 ? json_integer(viewer) : json_null(), "players",
	    seats_json(svc, l), "view",
	    svc__view(l->g, viewer, l->row.open_seats), "result",
	    svc__result_json(l->g), "clock", svc__clock_json(svc, &l->row),
	    "created", svc__iso_time(l->row.created_ms), "updated",
	    svc__iso_time(l->row.updated_ms), "imported", l->row.imported);
	if (o && (json_object_set_new(o, "rematch",
	                              svc__rematch_json(&l->row)) < 0 ||
	          json_object_set_new(o, "rematch_of",
	                              svc__rematch_of_json(&l->row)) < 0)) {
		json_decref(o);
		o = NULL;
	}
	if (o && secret_json(o, l) < 0) {
		json_decref(o);
		o = NULL;
	}
	return o;
}
