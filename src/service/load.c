/* load.c: rebuilding a game's state from the cache and the log.  See
 * load.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* svc__fail, svc__now_ms; load.h, token.h */

struct tail_ctx {
	struct engine_game *g;
	struct svc_err *err;
	int keep;          /* 1: keep the last snapshot crossed above from */
	uint64_t from;     /* the seq the replay started at */
	void *snap;        /* the last one crossed, or NULL; malloc'd */
	uint64_t snap_seq; /* its seq */
};

static int apply_tail(void *ctx, uint64_t seq, int seat, const char *action,
                      const char *reason, int64_t created_ms)
{
	(void)reason, (void)created_ms; /* a replay reads only the moves */
	struct tail_ctx *t = ctx;
	int rc = load_apply_logged(t->g, seq, seat, action, t->err);
	if (rc == 0 && t->keep && seq > t->from &&
	    seq % SVC_SNAPSHOT_EVERY == 0) {
		if (!t->snap)
			t->snap = malloc(engine_snapshot_size(t->g->rules));
		if (t->snap) { /* none kept is only slower */
			engine_snapshot_write(t->g, t->snap);
			t->snap_seq = seq;
		}
	}
	return rc;
}

/* A snapshot's game has no script (engine.h): its custom setup's again. */
static int attach_script(const struct store_game *row, struct engine_game *g,
                         struct svc_err *err)
{
	json_t *setup = json_loads(row->setup, 0, NULL);
	int rc = setup ? engine_game_attach_script(g, setup) : BD_EINTERNAL;
	json_decref(setup);
	if (rc < 0)
		engine_game_free(g);
	return rc == BD_ENOMEM ? rc
	       : rc < 0        ? svc__fail(err, BD_EINTERNAL,
	                              "the stored setup no longer sets up")
	                       : 0;
}

int load_at(struct store *st, const struct store_game *row,
            const struct rules *r, uint64_t seq, struct engine_game **out,
            struct svc_err *err)
{
	void *bytes = NULL;
	size_t len = 0;
	uint64_t from = 0;
	struct engine_game *g = NULL;
	int rc = seq ? store_snapshot_get(st, row->key, seq, r->version, &bytes,
	                                  &len, &from)
	             : BD_ENOTFOUND;
	if (rc == 0) {
		rc = engine_snapshot_read(r, bytes, len, &g);
		if (rc == 0 && g->seq != from) {
			engine_game_free(g); /* not what its row says: ignore */
			rc = BD_ENOTFOUND;
		}
		if (rc == 0 && row->setup)
			rc = attach_script(row, g, err);
	}
	free(bytes);
	if (rc == BD_ENOTFOUND)
		rc = load_fresh(row, r, &g, err);
	if (rc < 0)
		return rc;
	struct tail_ctx t = {g, err, 1, g->seq, NULL, 0};
	rc = store_moves_range(st, row->key, g->seq, seq, apply_tail, &t);
	if (rc == 0 && g->seq != seq)
		rc = svc__fail(err, BD_EINTERNAL, "the move log has a gap");
	if (rc == 0 && t.snap) {
		struct store_snapshot sn = {r->version, t.snap,
		                            engine_snapshot_size(r)};
		(void)store_snapshot_put(st, row->key, t.snap_seq, &sn);
	}
	free(t.snap);
	if (rc < 0) {
		engine_game_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

int load_state(struct store *st, struct engine_cache *cache, struct loaded *l,
               struct svc_err *err)
{
	int rc;
	l->g = engine_cache_get(cache, l->row.key);
	if (l->g && l->g->rules != l->rules) { /* of other rules: upgraded */
		engine_game_free(l->g);
		l->g = NULL;
	}
	/* A hot row is the game's newest as this process knows it (every
	 * write of the game drops it, src/service/hot.c): on a store this
	 * process owns (SQLite), a cached state at its seq is that game,
	 * with no store call.  On a shared store (PostgreSQL) another
	 * node's move is told only after its COMMIT, so the log tail is
	 * still read: a read that follows a move made on another node
	 * shows it as soon as it committed, as before the hot table
	 * (docs/read-path.md, "Several processes on one database"). */
	if (l->hot && l->g && l->g->seq == l->row.seq && !store_shared(st))
		return 0;
	int rebuilt = !l->g; /* the cache had no state of this game */
	if (rebuilt &&
	    (rc = load_at(st, &l->row, l->rules, l->row.seq, &l->g, err)) < 0)
		goto out_release;
	/* Moves that landed since the row was read (or since the cached
	 * state): the state may run ahead of the row, never behind. */
	uint64_t had = l->g->seq;
	int missed = had != l->row.seq;
	struct tail_ctx t = {l->g, err, 0, 0, NULL, 0};
	rc = store_moves_each(st, l->row.key, had, apply_tail, &t);
	if (rc < 0)
		goto out_release;
	/* Only a state the cache lacks is put: a read of a cached game
	 * copies nothing back.  A state rebuilt from the log is put too (a
	 * game not moved since this process started was replayed on every
	 * read before). */
	if (rebuilt || missed || l->g->seq != had)
		engine_cache_put(cache, l->row.key, l->g);
	return 0;
out_release:
	loaded_release(l);
	return rc;
}

/* Whether row's view has changed by itself since it was stored: a
 * vacation it shows ran out (store_game.seats_until_ms). */
static int seats_expired(const struct store_game *row, int64_t now_ms)
{
	return row->seats_until_ms && row->seats_until_ms <= now_ms;
}

int load_row(struct store *st, const char *id, struct loaded *out,
             struct svc_err *err)
{
	struct loaded l = {0};
	if (!token_is_game_id(id))
		return svc__fail(err, BD_ENOTFOUND, "no game has that id");
	int rc = store_game_get(st, id, &l.row);
	int64_t now = svc__now_ms();
	if (rc == 0 && seats_expired(&l.row, now)) {
		/* its seats_version moves on, and the row is read again: no
		 * view or ETag cached under the old one is answered */
		rc = store_game_seats_expire(st, l.row.key, now);
		store_game_release(&l.row);
		if (rc == 0)
			rc = store_game_get(st, id, &l.row);
	}
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, rc, "no game has that id");
	if (rc < 0)
		return rc;
	if ((rc = load_rules(st, &l, err)) == 0)
		*out = l;
	else
		loaded_release(&l);
	return rc;
}

int load_row_hot(struct store *st, struct hot_table *hot, const char *id,
                 struct loaded *out, struct svc_err *err)
{
	if (!token_is_game_id(id))
		return svc__fail(err, BD_ENOTFOUND, "no game has that id");
	struct hot_ticket ticket;
	const struct hot_game *e = hot_get(hot, id, &ticket);
	if (e && seats_expired(&e->row, svc__now_ms())) {
		/* A vacation the entry's view shows ran out: load_row moves
		 * the stored seats_version on, inside a write's marks so that
		 * the old entry is dropped and nothing read before is kept. */
		hot_release(e);
		hot_write_begin(hot, id);
		int rc = load_row(st, id, out, err);
		hot_write_end(hot, id);
		return rc;
	}
	if (!e) {
		/* The ticket was taken before these reads: hot_put keeps
		 * them only if no write of the game began since. */
		int rc = load_row(st, id, out, err);
		if (rc < 0 || !ticket.ok ||
		    strcmp(out->row.status, "waiting") == 0)
			return rc;
		struct store_seat seats[ENGINE_MAX_SEATS];
		int n = 0;
		if (store_seats_get(st, out->row.key, seats, ENGINE_MAX_SEATS,
		                    &n) == 0)
			e = hot_put(hot, &ticket, &out->row, seats, n);
		if (!e)
			return 0; /* served from the store this time */
		loaded_release(out);
	}
	*out = (struct loaded){.row = e->row, .hot = e};
	int rc = load_rules(st, out, err);
	if (rc < 0)
		loaded_release(out);
	return rc;
}

int load_game(struct store *st, struct engine_cache *cache, const char *id,
              struct loaded *out, struct svc_err *err)
{
	int rc = load_row(st, id, out, err);
	if (rc == 0)
		rc = load_state(st, cache, out, err);
	return rc;
}

/* l's row with strings of its own, the hot entry released: 0, or
 * BD_ENOMEM (l released). */
static int row_own(struct loaded *l)
{
	if (!l->hot)
		return 0;
	struct store_game r;
	int rc = hot_row_copy(&r, &l->row); /* its strings are the entry's */
	size_t n = (size_t)l->hot->nseats;
	l->seats = rc == 0 && n ? malloc(n * sizeof *l->seats) : NULL;
	if (l->seats) {
		memcpy(l->seats, l->hot->seats, n * sizeof *l->seats);
		l->nseats = (int)n;
	} /* else the answer reads them from the store */
	hot_release(l->hot);
	l->hot = NULL;
	memset(&l->row, 0, sizeof l->row);
	if (rc < 0) {
		loaded_release(l);
		return rc;
	}
	l->row = r;
	return 0;
}

int load_game_hot(struct store *st, struct hot_table *hot,
                  struct engine_cache *cache, const char *id, const char *token,
                  int required, struct loaded *out, int *seat,
                  struct load_auth *auth, struct svc_err *err)
{
	int rc = load_row_hot(st, hot, id, out, err);
	if (rc < 0)
		return rc;
	int was_hot = out->hot != NULL;
	if ((rc = load_seat_as(st, out, token, required, seat, auth, err)) <
	    0) {
		loaded_release(out);
		return rc;
	}
	if ((rc = row_own(out)) < 0)
		return rc;
	if (was_hot) {
		/* The cached state at the entry's seq: no store query. */
		out->g = engine_cache_get(cache, out->row.key);
		if (out->g && out->g->rules == out->rules &&
		    out->g->seq == out->row.seq)
			return 0;
		engine_game_free(out->g);
		out->g = NULL;
	}
	return load_state(st, cache, out, err);
}

int load_game_key(struct store *st, struct engine_cache *cache, int64_t key,
                  struct loaded *out, struct svc_err *err)
{
	struct loaded l = {0};
	int rc = store_game_by_key(st, key, &l.row);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, rc, "no game has that key");
	if (rc < 0)
		return rc;
	if ((rc = load_rules(st, &l, err)) < 0) {
		loaded_release(&l);
		return rc;
	}
	if ((rc = load_state(st, cache, &l, err)) == 0)
		*out = l;
	return rc;
}

void load_token_seen(struct store *st, const struct store_player *p)
{
	int64_t now = svc__now_ms();
	if (p->token_key && now - p->token_used_ms >= LOAD_SEEN_EVERY_MS)
		(void)store_token_used(st, p->token_key, now); /* best effort */
}

void loaded_release(struct loaded *l)
{
	if (l->hot) {
		hot_release(l->hot); /* the row's strings are the entry's */
		l->hot = NULL;
		memset(&l->row, 0, sizeof l->row);
	} else {
		store_game_release(&l->row);
	}
	engine_game_free(l->g);
	l->g = NULL;
	free(l->seats);
	l->seats = NULL;
	l->nseats = 0;
}

static int seat_of(struct store *st, int64_t key, const struct hot_game *e,
                   const uint8_t hash[STORE_TOKEN_HASH_LEN], int required,
                   int *seat, int *by_token, struct svc_err *err);

int load_seat_as(struct store *st, const struct loaded *l, const char *token,
                 int required, int *seat, struct load_auth *auth,
                 struct svc_err *err)
{
	struct load_auth a = {0};
	int rc;
	if (!token) {
		if (required)
			return svc__fail(err, BD_EUNAUTHORIZED,
			            "this needs a seat's or a player's bearer "
			            "token");
		*seat = ENGINE_SPECTATOR;
		rc = 0;
	} else {
		token_hash(token, a.hash);
		rc = seat_of(st, l->row.key, l->hot, a.hash, required, seat,
		             &a.by_token, err);
	}
	if (auth)
		*auth = a;
	return rc;
}

int load_seat(struct store *st, const struct loaded *l, const char *token,
              int required, int *seat, struct svc_err *err)
{
	return load_seat_as(st, l, token, required, seat, NULL, err);
}

/* The seat of e holding the seat token hashing to `hash` (by_token 1) or
 * held by player `player_key` (by_token 0), as store_seat_for_token and
 * store_seat_for_player match them; BD_ENOTFOUND if none. */
static int hot_seat_of(const struct hot_game *e, int by_token,
                       const uint8_t *hash, int64_t player_key, int *seat)
{
	for (int i = 0; i < e->nseats; i++) {
		const struct store_seat *s = &e->seats[i];
		if (by_token ? s->has_token && memcmp(s->token_hash, hash,
		                                      STORE_TOKEN_HASH_LEN) == 0
		             : s->player_key == player_key) {
			*seat = s->seat;
			return 0;
		}
	}
	return BD_ENOTFOUND;
}

/* load_seat_hash, with game `key`'s seats from e when not NULL; *by_token
 * = 1 when a seat token matched. */
static int seat_of(struct store *st, int64_t key, const struct hot_game *e,
                   const uint8_t hash[STORE_TOKEN_HASH_LEN], int required,
                   int *seat, int *by_token, struct svc_err *err)
{
	int rc = e ? hot_seat_of(e, 1, hash, 0, seat)
	           : store_seat_for_token(st, key, hash, seat);
	*by_token = rc == 0;
	if (rc != BD_ENOTFOUND)
		return rc;
	/* Not a seat token of this game: a player's token, then? */
	struct store_player p;
	rc = store_player_by_token(st, hash, &p);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EFORBIDDEN,
		            "that token holds no seat in this game");
	if (rc == BD_EUNAUTHORIZED)
		return svc__fail(err, rc, LOAD_REVOKED);
	if (rc == 0) {
		load_token_seen(st, &p);
		rc = e ? hot_seat_of(e, 0, NULL, p.key, seat)
		       : store_seat_for_player(st, key, p.key, seat);
	}
	if (rc == BD_ENOTFOUND && !required) {
		*seat = ENGINE_SPECTATOR; /* a player looking on */
		return 0;
	}
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EFORBIDDEN,
		            "you hold no seat in this game");
	return rc;
}

int load_seat_hash(struct store *st, int64_t key,
                   const uint8_t hash[STORE_TOKEN_HASH_LEN], int required,
                   int *seat, struct svc_err *err)
{
	int by_token;
	return seat_of(st, key, NULL, hash, required, seat, &by_token, err);
}

int load_game_seat(struct store *st, struct engine_cache *cache, const char *id,
                   const char *token, int required, struct loaded *out,
                   int *seat, struct svc_err *err)
{
	int rc = load_game(st, cache, id, out, err);
	if (rc < 0)
		return rc;
	rc = load_seat(st, out, token, required, seat, err);
	if (rc < 0)
		loaded_release(out);
	return rc;
}

int svc__load_viewer(struct service *svc, const char *id, const char *token,
                     struct loaded *l, int *viewer, struct svc_err *err)
{
	return load_game_seat(svc->st, svc->cache, id, token, 0, l, viewer,
	                      err);
}
