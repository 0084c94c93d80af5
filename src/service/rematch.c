/* rematch.c: POST and DELETE /v1/games/{id}/rematch: a finished game's
 * rematch (docs/matchmaking.md, "Rematch").
 *
 * Any seat of a finished game offers it (POST); each other seat accepts
 * it with the same POST, bots at once; DELETE declines it (or withdraws
 * one's own offer).  The acceptance that completes it creates the new
 * game in the same transaction (store_rematch_offer): the same rules
 * (at the server's current version), options, clock and timeout
 * policy, a fresh secret, every seat held, the holders rotated one seat
 * on: old seat s is new seat (s + 1) mod n.  So two players swap (who
 * moved first moves second), and 3 or 4 keep their order around the
 * table with the first player now second; in Agent Avenue's team
 * variant (team = seat mod 2, rules §9.1) four seats keep their
 * partnerships and swap team (and so meeple and first turn), and with
 * three seats the solo seat passes to the next player (seat 0's holder),
 * so that over three rematches each plays it once.  A custom setup is
 * not copied (it was chosen for the old seating). */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The finished game `id` from the store (not the hot table: what is
 * decided here is decided again in the write's transaction) and the seat
 * the token holds in it: 401 without a token, 403 without a seat. */
static int rematch_seat(struct service *svc, const char *id, const char *token,
                        struct loaded *l, int *seat, struct svc_err *err)
{
	int rc = load_row(svc->st, id, l, err);
	if (rc < 0)
		return rc;
	rc = load_seat(svc->st, l, token, 1, seat, err);
	if (rc == 0 && *seat < 0)
		rc = BD_EFORBIDDEN;
	if (rc == BD_EFORBIDDEN)
		rc = svc__fail(err, rc,
		               "only a player of this game may offer, accept "
		               "or decline its rematch");
	if (rc < 0)
		loaded_release(l);
	return rc;
}

/* The detail of a refusal the store's transaction decided. */
static int rematch_refused(struct service *svc, int rc, const char *id,
                           struct svc_err *err)
{
	struct store_game row = {0};
	switch (rc) {
	case BD_ENOTFINISHED:
		return svc__fail(err, rc,
		                 "the game has not ended: a rematch is offered "
		                 "once it is over");
	case BD_EREMATCHED:
		if (store_game_get(svc->st, id, &row) == 0 && row.rematch[0])
			svc__fail(err, rc,
			          "this game was rematched already: game %s",
			          row.rematch);
		else
			svc__fail(err, rc, "this game was rematched already");
		store_game_release(&row);
		return rc;
	case BD_EBLOCKED:
		return svc__fail(err, rc,
		                 "a player of this game blocked another of its "
		                 "players: it cannot be rematched");
	case BD_ENOTFOUND:
		return svc__fail(err, rc, "no game has that id");
	default:
		return rc;
	}
}

/* The new game a completed rematch creates, and who holds its seats. */
struct next_game {
	struct store_game row;                     /* options malloc'd */
	struct store_seat seats[ENGINE_MAX_SEATS]; /* the new seats */
	struct engine_game *g;                     /* its state, owned */
	unsigned auto_seats;                       /* the old game's bots */
};

/* Plans n, the rematch of finished game `old` that seat `seat` offers
 * or accepts from address `client`: its row (the caller's player as its
 * creator), its seats rotated one on, its state; n->auto_seats gets the
 * old game's bot seats (they accept at once).  BD_ENOREMATCH when a seat
 * is held by no player nor bot (a seat token alone, an imported game),
 * or the rules no longer take the options.  n is released with
 * next_release, also on failure. */
static int plan_next(struct service *svc, const struct store_game *old,
                     int seat, const char *client, struct next_game *n,
                     struct svc_err *err)
{
	struct store_seat seats[ENGINE_MAX_SEATS];
	int count = 0;
	int rc =
	    store_seats_get(svc->st, old->key, seats, ENGINE_MAX_SEATS, &count);
	if (rc < 0)
		return rc;
	if (count != old->seats || count < 1 || seat < 0 || seat >= count)
		return BD_EINTERNAL;
	for (int s = 0; s < count; s++) {
		const struct store_seat *from = &seats[s];
		struct store_seat *to = &n->seats[(s + 1) % count];
		memset(to, 0, sizeof *to);
		to->seat = (s + 1) % count;
		if (from->bot[0]) {
			memcpy(to->bot, from->bot, sizeof to->bot);
			n->auto_seats |= 1u << s;
		} else if (from->player_key && !from->open) {
			to->player_key = from->player_key;
		} else {
			return svc__fail(
			    err, BD_ENOREMATCH,
			    "seat %d is held by no player (a seat token "
			    "alone, or nobody): a rematch needs every seat "
			    "held by a player or a bot (a seat token is "
			    "claimed with POST /v1/players/me/seats)",
			    s);
		}
	}
	const struct rules *rules = engine_rules_find(old->rules_id);
	if (!rules)
		return svc__fail(err, BD_ENOREMATCH,
		                 "this server no longer has the game '%s'",
		                 old->rules_id);
	json_t *options =
	    json_loads(old->options ? old->options : "{}", 0, NULL);
	if (!options)
		return BD_ENOMEM;
	n->row.seats = count;
	token_secret(&n->row); /* docs/shuffles.md */
	struct engine_secret secret;
	struct rng start;
	struct rules_why why;
	load_secret(&n->row, &secret);
	engine_secret_rng(&secret, &start);
	sodium_memzero(&secret, sizeof secret);
	rc = engine_game_new_rng(rules, count, options, NULL, &start, &n->g,
	                         &why);
	json_decref(options);
	if (rc < 0)
		return svc__fail(
		    err, BD_ENOREMATCH,
		    "the game's options no longer start a game: %s",
		    why.detail);
	engine_game_stored_under(n->g, rules->version);
	snprintf(n->row.rules_id, sizeof n->row.rules_id, "%s", rules->id);
	n->row.rules_version = rules->version;
	snprintf(n->row.status, sizeof n->row.status, "%s",
	         svc__status(n->g, 0));
	n->row.to_act = engine_game_to_act(n->g);
	n->row.options = strdup(old->options ? old->options : "{}");
	n->row.clock = old->clock;                   /* borrowed from old */
	n->row.creator_key = seats[seat].player_key; /* the caller, or 0 */
	n->row.creator_addr = client;
	for (int s = 0; s < count; s++)
		if (n->seats[s].bot[0])
			n->row.bot_seats |= 1u << s;
	return n->row.options ? 0 : BD_ENOMEM;
}

static void next_release(struct next_game *n)
{
	free(n->row.options);
	engine_game_free(n->g);
}

/* After a rematch game was created: its state into the cache, its bots
 * and clock woken, as service_create does for a game with no open seat. */
static void next_started(struct service *svc, struct next_game *n, int64_t key)
{
	engine_cache_put(svc->cache, key, n->g);
	n->row.key = key;
	if (n->row.bot_seats & n->row.to_act) {
		struct svc_bot_share share = svc__bot_share(&n->row, 0);
		svc__bots_wake(svc, key, &share);
	}
	if (n->row.clock)
		svc__clock_wake(svc, svc__now_ms());
}

int service_rematch_offer(struct service *svc, const char *id,
                          const char *token, const char *client, json_t **out,
                          struct svc_err *err)
{
	struct loaded l;
	int seat = -1;
	int rc = rematch_seat(svc, id, token, &l, &seat, err);
	if (rc < 0)
		return rc;
	struct next_game n = {0};
	struct store_rematch r = {0};
	int64_t created = 0;
	if (strcmp(l.row.status, "finished") != 0)
		rc = BD_ENOTFINISHED;
	else if (l.row.rematch[0])
		rc = BD_EREMATCHED;
	if (rc == 0)
		rc = plan_next(svc, &l.row, seat, client, &n, err);
	for (int attempt = 0; attempt < 4 && (rc == 0 || rc == BD_ECONFLICT);
	     attempt++) {
		token_game_id(n.row.id);
		hot_write_begin(svc->hot, l.row.id); /* hot.h: until after
		                                        commit */
		rc = store_rematch_offer(svc->st, l.row.key, seat, n.auto_seats,
		                         &n.row, n.seats, &r, &created);
		hot_write_end(svc->hot, l.row.id);
		if (rc != BD_ECONFLICT)
			break;
	}
	if (rc == BD_ECONFLICT)
		rc = BD_EINTERNAL;
	if (rc == 0 && created)
		next_started(svc, &n, created);
	if (rc == 0 && r.changed)
		svc__moved(svc, l.row.key, l.row.seq); /* its waiters look */
	if (rc == 0) {
		struct store_game now = {.rematch_seats = r.seats,
		                         .rematch_by = r.by};
		memcpy(now.rematch, r.game, sizeof now.rematch);
		rc = svc__give(svc__rematch_json(&now), out);
	}
	rc = rc < 0 ? rematch_refused(svc, rc, id, err) : rc;
	next_release(&n);
	loaded_release(&l);
	return rc;
}

int service_rematch_decline(struct service *svc, const char *id,
                            const char *token, struct svc_err *err)
{
	struct loaded l;
	int seat = -1, changed = 0;
	int rc = rematch_seat(svc, id, token, &l, &seat, err);
	if (rc < 0)
		return rc;
	hot_write_begin(svc->hot, l.row.id);
	rc = store_rematch_decline(svc->st, l.row.key, seat, &changed);
	hot_write_end(svc->hot, l.row.id);
	if (rc == 0 && changed)
		svc__moved(svc, l.row.key, l.row.seq);
	loaded_release(&l);
	return rc < 0 ? rematch_refused(svc, rc, id, err) : 0;
}
