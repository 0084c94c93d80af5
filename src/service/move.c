/* move.c: POST /v1/games/{id}/moves and /resign.  A move is validated
 * against the current state, then appended in one transaction that checks
 * the seq it was validated at; when another move landed first it is
 * validated again against the new state (or refused as stale when the
 * client said which seq it expected). */
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MOVE_RETRIES 8   /* optimistic retries when a move races */
#define RESIGNED_MAX 256 /* resigned seats' decisions after one move */

/* The decisions of resigned seats that follow a move, in order: logged as
 * moves of their own, "by":"resigned" (games whose rules version logs
 * them, engine_game_stored_under). */
struct resigned_moves {
	int seat[RESIGNED_MAX];
	char *action[RESIGNED_MAX]; /* JSON text, malloc'd */
	unsigned char hash[RESIGNED_MAX][ENGINE_STATE_HASH_BYTES]; /* the
	                              state each led to (engine_state_hash) */
	size_t n;
};

static void resigned_release(struct resigned_moves *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->action[i]);
	r->n = 0;
}

/* Plays on g every decision of a resigned seat it leaves to the server
 * (engine_game_resigned_due), each with a uniformly random legal action,
 * and keeps them in *r for the log.  The choice comes from libsodium's
 * randombytes, not from the game's generator: a replay applies the logged
 * action and draws nothing, so a draw from the game's generator here would
 * make the replay's later shuffles differ (and would tell whoever sees the
 * choice something about the deck).  BD_EINTERNAL when the rules refuse
 * their own listed action or never stop asking. */
static int play_resigned(struct engine_game *g, struct resigned_moves *r,
                         struct svc_err *err)
{
	struct engine_actions list = {0};
	struct rules_why why;
	int seat, rc = 0;
	while (rc == 0 && (seat = engine_game_resigned_due(g)) >= 0) {
		if ((rc = engine_game_legal(g, seat, &list)) < 0)
			break;
		if (list.n == 0 || r->n == RESIGNED_MAX) {
			rc = svc__fail(err, BD_EINTERNAL,
			               "a resigned seat could not be played");
			break;
		}
		const struct engine_action *a =
		    &list.v[randombytes_uniform((uint32_t)list.n)];
		json_t *j = g->rules->action_json(a);
		char *text =
		    j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		json_decref(j);
		if (!text) {
			rc = BD_ENOMEM;
			break;
		}
		if ((rc = engine_game_play(g, seat, a, &why)) < 0) {
			free(text);
			rc = rc == BD_ENOMEM
			         ? rc
			         : svc__fail(err, BD_EINTERNAL,
			                     "a resigned seat could not be "
			                     "played: %s",
			                     why.detail);
			break;
		}
		engine_state_hash(g, r->hash[r->n]);
		r->seat[r->n] = seat;
		r->action[r->n++] = text;
	}
	engine_actions_free(&list);
	return rc;
}

struct move_req {
	const json_t *action; /* borrowed */
	int has_expected;
	uint64_t expected;
	const uint8_t *seat_token; /* struct store_move's, or NULL */
};

static int parse_move(const json_t *body, const uint64_t *if_match,
                      struct move_req *m, struct svc_err *err)
{
	static const char *const keys[] = {"action", "expected_seq", NULL};
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	m->action = json_object_get(body, "action");
	if (!json_is_object(m->action))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'action' (an object from GET "
		                 "/v1/games/{id}/actions) is required");
	if (engine_action_is_resign(m->action))
		return svc__fail(err, BD_EBADREQUEST,
		                 "to resign, POST /v1/games/{id}/resign");
	json_t *exp = json_object_get(body, "expected_seq");
	if (exp && (!json_is_integer(exp) || json_integer_value(exp) < 0))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'expected_seq' must be a non-negative "
		                 "integer");
	if (exp && if_match && (uint64_t)json_integer_value(exp) != *if_match)
		return svc__fail(err, BD_EBADREQUEST,
		                 "If-Match and expected_seq disagree");
	m->has_expected = exp || if_match;
	m->expected = if_match ? *if_match : (uint64_t)json_integer_value(exp);
	return 0;
}

static int stale(struct svc_err *err, uint64_t current)
{
	err->has_seq = 1;
	err->seq = current;
	return svc__fail(err, BD_ESTALE,
	                 "the game is at seq %" PRIu64
	                 "; fetch it again and choose a move",
	                 current);
}

/* What store_move_append writes for the move l->g has just taken. */
struct move_write {
	struct service *svc;
	const struct store_game *row; /* the game's row before the move */
	uint64_t before;              /* the seq the move was validated at */
	const struct store_move *mv;
	uint64_t *current; /* out: the seq on BD_ECONFLICT */
};

/* w->row as store_move_append's ST_GAME_ADVANCE leaves it once the chain
 * w->mv committed (its strings borrowed from w). */
static struct store_game row_after(const struct move_write *w)
{
	struct store_game r = *w->row;
	const struct store_move *last = w->mv;
	r.seq = w->before + 1;
	for (; last->then; last = last->then)
		r.seq++;
	snprintf(r.status, sizeof r.status, "%s", last->status);
	r.to_act = last->to_act;
	r.result = (char *)(uintptr_t)last->result;
	r.updated_ms = last->at_ms;
	r.clock_state = (char *)(uintptr_t)last->clock_state;
	r.deadline_ms = last->deadline_ms;
	return r;
}

static int write_move(void *ctx, const struct store_idem *rec)
{
	struct move_write *w = ctx;
	struct hot_move hm; /* hot.h: until after commit */
	hot_move_begin(w->svc->hot, w->row->id, &hm);
	int rc = store_move_append(w->svc->st, w->row->key, w->before, w->mv,
	                           rec, w->current);
	/* (A move with no time of its own took the store's clock: unknown.) */
	int known = rc == 0 && w->mv->at_ms;
	struct store_game after = known ? row_after(w) : (struct store_game){0};
	hot_move_end(w->svc->hot, w->row->id, &hm, known ? &after : NULL);
	return rc;
}

/* A timeout's vacation check (struct store_move's vac_player, vac_last,
 * vac_start; all 0: none). */
struct vac_guard {
	int64_t player, last, start;
};

/* Appends the move l->g has just taken (with `reason`, the seats' clocks
 * `clock_state`, the next deadline and `soon_ms`, the next deadline.soon:
 * struct store_move's; `hash`, ENGINE_STATE_HASH_BYTES, the hash of the
 * state it led to; seat_token: struct store_move's; *vg the vacation
 * check of a timeout) and the resigned seats' moves *rs that followed it,
 * with `answer` (owned) recorded for idem; *out = answer on success. */
static int append(struct service *svc, struct loaded *l, uint64_t before,
                  int seat, const uint8_t *seat_token, const json_t *action,
                  const char *reason, const unsigned char *hash,
                  const struct resigned_moves *rs, int64_t soon_ms,
                  const struct vac_guard *vg, json_t *answer,
                  struct svc_idem *idem, uint64_t *current, json_t **out)
{
	char *text = json_dumps(action, JSON_COMPACT | JSON_SORT_KEYS);
	json_t *res = svc__result_json(l->g);
	char *res_text =
	    json_is_null(res) ? NULL : json_dumps(res, JSON_COMPACT);
	/* Every SVC_SNAPSHOT_EVERY moves, the state goes with the move. */
	void *snap = NULL;
	struct store_snapshot sn = {l->rules->version, NULL,
	                            engine_snapshot_size(l->rules)};
	/* (A move followed by resigned seats' moves may step over a
	 * multiple: the snapshot is then of the chain's last move.) */
	if (l->g->seq / SVC_SNAPSHOT_EVERY != before / SVC_SNAPSHOT_EVERY &&
	    (snap = malloc(sn.len)) != NULL) {
		engine_snapshot_write(l->g, snap);
		sn.state = snap;
	}
	/* The row ends as the last move of the chain leaves it: each move
	 * writes the row's fields as the last one leaves them (only the
	 * snapshot is of one seq: the last's).  Each move keeps the hash of
	 * the state it led to, for upgrades (docs/upgrades.md). */
	size_t n = 1 + rs->n;
	/* A game this chain ends is rated in its transaction. */
	struct store_rating_game rating;
	int ends = svc__rating_game(l->g, &rating);
	struct store_move *mv = calloc(n, sizeof *mv);
	for (size_t i = 0; mv && i < n; i++) {
		mv[i] = (struct store_move){i ? rs->seat[i - 1] : seat,
		                            i ? rs->action[i - 1] : text,
		                            svc__status(l->g, 0),
		                            engine_game_to_act(l->g),
		                            res_text,
		                            l->row.updated_ms,
		                            i ? "resigned" : reason,
		                            l->row.clock_state,
		                            l->row.deadline_ms,
		                            soon_ms,
		                            i == n - 1 && snap ? &sn : NULL,
		                            i ? rs->hash[i - 1] : hash,
		                            i + 1 < n ? &mv[i + 1] : NULL,
		                            i ? NULL : seat_token,
		                            i == n - 1 && ends ? &rating : NULL,
		                            i ? 0 : vg->player,
		                            i ? 0 : vg->last,
		                            i ? 0 : vg->start};
	}
	struct move_write w = {svc, &l->row, before, mv, current};
	int rc;
	if (!mv || !text || !res || (!res_text && !json_is_null(res))) {
		json_decref(answer);
		rc = BD_ENOMEM;
	} else {
		rc =
		    svc__write_answered(idem, 201, answer, write_move, &w, out);
	}
	free(mv);
	free(text);
	free(res_text);
	free(snap);
	json_decref(res);
	return rc;
}

/* The clock checks and bookkeeping of a move by `seat` of l, about to be
 * applied (reason "timeout": the server's, for a passed deadline; NULL: the
 * seat's own).  Reads the clock into *c and *s, the seated players'
 * vacations into *v, and *until the moment the seat's decision ends (now,
 * or its deadline, moved by its player's vacations, for a timeout; *vg
 * then gets the vacation check of the timeout's transaction).
 * BD_EDEADLINE when the seat's own move comes after its deadline,
 * BD_ESTALE when a timeout is no longer due, BD_ECONFLICT when l's row
 * is behind its state (load again). */
static int clock_check(struct service *svc, struct loaded *l, int seat,
                       const json_t *action, const char *reason,
                       struct svc_clock *c, struct svc_clock_state *s,
                       struct svc_vacations *v, struct vac_guard *vg,
                       int64_t now, int64_t *until, struct svc_err *err)
{
	*until = now;
	memset(v, 0, sizeof *v);
	memset(vg, 0, sizeof *vg);
	if (!l->row.clock)
		return reason ? BD_ESTALE : 0;
	if (l->row.seq != l->g->seq)
		return BD_ECONFLICT; /* its clocks are those of an older seq */
	if (svc__clock_load(&l->row, c, s) < 0)
		return svc__fail(err, BD_EINTERNAL,
		                 "the game's stored clock does not read");
	int rc = c->vacation ? svc__vacations_load(svc, &l->row, c, s, v) : 0;
	if (rc < 0)
		return rc;
	struct svc_clock_state moved = *s;
	svc__clock_vacation(c, &moved, l->g->seats, v, seat, INT64_MAX);
	unsigned timed = svc__clock_timed(&l->row, engine_game_to_act(l->g));
	int64_t due =
	    (timed >> seat) & 1 ? svc__clock_deadline(c, &moved, seat) : 0;
	if (reason) {
		if (!due || due > now)
			return BD_ESTALE;
		*until = due;
		if (c->vacation && v->player[seat])
			*vg = (struct vac_guard){v->player[seat], v->last[seat],
			                         due};
		return 0;
	}
	if (due && due <= now && !engine_action_is_resign(action)) {
		svc__clock_wake(svc, due);
		json_t *t = svc__iso_time(due);
		svc__fail(
		    err, BD_EDEADLINE,
		    "seat %d's deadline passed at %s; the server applies "
		    "its timeout (on_timeout \"%s\") and the game goes on",
		    seat, t ? json_string_value(t) : "?",
		    c->forfeit ? "forfeit" : "bot");
		json_decref(t);
		return BD_EDEADLINE;
	}
	return 0;
}

/* Advances l->row's clocks over the move just applied to l->g by `seat`
 * (clock_check's c, s, v and until: the mover's time on vacation is not
 * paid for), for the answer and the log; *soon_ms gets the next
 * deadline.soon time (0: none). */
static int clock_advance(struct loaded *l, int seat, struct svc_clock *c,
                         struct svc_clock_state *s,
                         const struct svc_vacations *v, int64_t until,
                         int64_t now, int64_t *soon_ms)
{
	*soon_ms = 0;
	if (!c->on)
		return 0;
	svc__clock_vacation(c, s, l->g->seats, v, seat, until);
	unsigned after = svc__clock_timed(&l->row, engine_game_to_act(l->g));
	svc__clock_advance(c, s, l->g->seats, seat, until, now, after);
	char *text = svc__clock_state_text(c, s, l->g->seats);
	if (!text)
		return BD_ENOMEM;
	free(l->row.clock_state);
	l->row.clock_state = text;
	l->row.to_act = engine_game_to_act(l->g);
	l->row.seq = l->g->seq;
	l->row.deadline_ms = svc__clock_earliest(c, s, l->g->seats, NULL);
	*soon_ms = svc__clock_soon_earliest(c, s, l->g->seats);
	return 0;
}

/* Validates and applies the move to l->g (reason: struct store_move's)
 * with the resigned seats' decisions that follow it, then appends them;
 * *out is the answer (out NULL: none is built).  BD_ECONFLICT means another
 * move landed first and the caller may retry. */
static int try_move(struct service *svc, struct loaded *l, int seat,
                    const struct move_req *m, const char *reason,
                    struct svc_idem *idem, json_t **out, struct svc_err *err)
{
	if (l->row.open_seats)
		return svc__fail(err, BD_EWAITING,
		                 "the game starts when every seat is taken");
	if (m->has_expected && m->expected != l->g->seq)
		return stale(err, l->g->seq);
	uint64_t before = l->g->seq, current = 0;
	struct svc_clock c = {0};
	struct svc_clock_state cs;
	struct svc_vacations vac;
	struct vac_guard vg;
	int64_t now = svc__now_ms(), until, soon = 0;
	/* only a timeout is checked against its deadline ("bot": a seat
	 * whose bot moves has none) */
	const char *timeout =
	    reason && strcmp(reason, "timeout") == 0 ? reason : NULL;
	int rc = clock_check(svc, l, seat, m->action, timeout, &c, &cs, &vac,
	                     &vg, now, &until, err);
	if (rc < 0)
		return rc; /* BD_ECONFLICT: move_loop loads again */
	struct rules_why why;
	rc = engine_game_apply(l->g, seat, m->action, &why);
	if (rc < 0) {
		snprintf(err->rule, sizeof err->rule, "%s", why.rule);
		return svc__fail(err, rc, "%s", why.detail);
	}
	/* the state this move led to, before resigned seats play on */
	unsigned char hash[ENGINE_STATE_HASH_BYTES];
	engine_state_hash(l->g, hash);
	struct resigned_moves rs = {.n = 0};
	if ((rc = play_resigned(l->g, &rs, err)) < 0) {
		resigned_release(&rs);
		return rc;
	}
	l->row.updated_ms = now; /* the answer shows this move's time */
	if ((rc = clock_advance(l, seat, &c, &cs, &vac, until, now, &soon)) <
	    0) {
		resigned_release(&rs);
		return rc;
	}
	json_t *ignored = NULL;
	rc =
	    append(svc, l, before, seat, m->seat_token, m->action, reason, hash,
	           &rs, soon, &vg,
	           out ? svc__game_json(svc, l, seat) : json_null(),
	           idem, &current, out ? out : &ignored);
	resigned_release(&rs);
	if (rc == BD_EFORBIDDEN) /* attached to a player meanwhile */
		return svc__fail(err, rc,
		                 "that token holds no seat in this game");
	if (rc == 0) {
		atomic_fetch_add_explicit(&svc->moves_committed, 1,
		                          memory_order_relaxed);
		engine_cache_put(svc->cache, l->row.key, l->g);
		svc__moved(svc, l->row.key, l->g->seq);
		if (engine_game_to_act(l->g) & l->row.bot_seats) {
			struct svc_bot_share share =
			    svc__bot_share(&l->row, l->g->resigned);
			svc__bots_wake(svc, l->row.key, &share);
		}
		if (soon)
			svc__clock_wake(svc, soon); /* before the deadline */
		if (l->row.deadline_ms)
			svc__clock_wake(svc, l->row.deadline_ms);
		return 0;
	}
	if (rc == BD_ECONFLICT && m->has_expected)
		return stale(err, current);
	return rc;
}

int svc__move_as(struct service *svc, struct loaded *l, int seat,
                 const json_t *action, struct svc_err *err)
{
	struct move_req m = {action, 1, l->g->seq, NULL};
	int rc = try_move(svc, l, seat, &m, "bot", NULL, NULL, err);
	return rc == BD_ECONFLICT ? BD_ESTALE : rc;
}

int svc__timeout_as(struct service *svc, struct loaded *l, int seat,
                    const json_t *action, struct svc_err *err)
{
	struct move_req m = {action, 1, l->g->seq, NULL};
	int rc = try_move(svc, l, seat, &m, "timeout", NULL, NULL, err);
	return rc == BD_ECONFLICT ? BD_ESTALE : rc;
}

/* The recorded answer of a retried request (svc__idem_replay's codes),
 * with the seq it speaks for. */
static int replay(struct service *svc, struct svc_idem *idem, json_t **out,
                  uint64_t *seq, struct svc_err *err)
{
	int rc = svc__idem_replay(svc, idem, out, err);
	if (rc == 0)
		*seq =
		    (uint64_t)json_integer_value(json_object_get(*out, "seq"));
	return rc;
}

/* Whether a refusal of a try loaded by load_game_hot may rest on a row or
 * state older than the store, and so must be decided again from the
 * store: every refusal but the store's own failures and those the store
 * alone decided (a revoked token, a recorded Idempotency-Key). */
static int maybe_stale(int rc)
{
	switch (rc) {
	case BD_EBUSY:
	case BD_ENOMEM:
	case BD_EINTERNAL:
	case BD_ENOSPACE:
	case BD_EUNAVAILABLE:
	case BD_EUNAUTHORIZED:
	case BD_EREPLAY:
	case BD_EIDEMPOTENCY:
	case BD_ENOTFOUND:
		return 0;
	default:
		return rc < 0;
	}
}

/* Loads, authorises and tries the move, retrying lost races.  The first
 * try reads no SQLite row when the hot table holds the game
 * (load_game_hot); it answers only a move it made or a refusal the store
 * decided, any other refusal is decided again by a try loaded from the
 * store (load_game), as every later try is. */
static int move_loop(struct service *svc, const char *id, const char *token,
                     const struct move_req *m, struct svc_idem *idem,
                     json_t **out, uint64_t *seq, struct svc_err *err)
{
	int rc = 0;
	for (int attempt = 0; attempt < MOVE_RETRIES; attempt++) {
		struct loaded l;
		int seat;
		struct load_auth auth;
		int hot = attempt == 0;
		if (hot)
			rc = load_game_hot(svc->st, svc->hot, svc->cache, id,
			                   token, 1, &l, &seat, &auth, err);
		else if ((rc = load_game(svc->st, svc->cache, id, &l, err)) < 0)
			return rc;
		else if ((rc = load_seat_as(svc->st, &l, token, 1, &seat, &auth,
		                            err)) < 0)
			loaded_release(&l);
		if (rc == 0) {
			/* A seat token is checked again in the write. */
			struct move_req mt = *m;
			mt.seat_token = auth.by_token ? auth.hash : NULL;
			rc = try_move(svc, &l, seat, &mt, NULL, idem, out, err);
			if (rc == 0)
				*seq = l.g->seq;
			loaded_release(&l);
		}
		if (hot && maybe_stale(rc)) {
			*err = (struct svc_err){0}; /* decided anew */
			continue;
		}
		if (rc == BD_EREPLAY ||
		    (idem && rc < 0 && rc != BD_ECONFLICT)) {
			/* A racer with this key may have won: its answer. */
			int r2 = replay(svc, idem, out, seq, err);
			if (r2 != BD_ENOTFOUND || rc == BD_EREPLAY)
				return r2;
		}
		if (rc != BD_ECONFLICT)
			return rc;
	}
	return svc__fail(err, BD_EBUSY, "too many concurrent moves; try again");
}

int service_move(struct service *svc, const char *id, const char *token,
                 const json_t *body, const uint64_t *if_match,
                 struct svc_idem *idem, json_t **out, uint64_t *seq,
                 struct svc_err *err)
{
	int rc = replay(svc, idem, out, seq, err);
	if (rc != BD_ENOTFOUND)
		return rc;
	struct move_req m;
	if ((rc = parse_move(body, if_match, &m, err)) < 0)
		return rc;
	/* A listed action carries its `label` (display text, in the lister's
	 * language): posted back unchanged, the label is dropped here, so it
	 * is neither checked by the rules nor logged (a label could say what
	 * a later viewer of the log may not see). */
	json_t *label = json_object_get(m.action, "label");
	if (!label)
		return move_loop(svc, id, token, &m, idem, out, seq, err);
	if (!json_is_string(label))
		return svc__fail(err, BD_EBADREQUEST,
		                 "an action's 'label' is the string GET "
		                 "/v1/games/{id}/actions listed, or absent");
	json_t *bare = json_copy((json_t *)m.action);
	if (!bare || json_object_del(bare, "label") < 0) {
		json_decref(bare);
		return BD_ENOMEM;
	}
	m.action = bare;
	rc = move_loop(svc, id, token, &m, idem, out, seq, err);
	json_decref(bare);
	return rc;
}

int service_resign(struct service *svc, const char *id, const char *token,
                   struct svc_idem *idem, json_t **out, uint64_t *seq,
                   struct svc_err *err)
{
	int rc = replay(svc, idem, out, seq, err);
	if (rc != BD_ENOTFOUND)
		return rc;
	json_t *resign = json_pack("{s:s}", "type", "resign");
	struct move_req m = {resign, 0, 0, NULL};
	rc = resign ? move_loop(svc, id, token, &m, idem, out, seq, err)
	            : BD_ENOMEM;
	json_decref(resign);
	return rc;
}

int svc__resign_seat(struct service *svc, const char *id, int64_t player_key,
                     int seat, struct svc_err *err)
{
	json_t *resign = json_pack("{s:s}", "type", "resign");
	if (!resign)
		return BD_ENOMEM;
	int rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < MOVE_RETRIES;
	     attempt++) {
		struct loaded l;
		struct rules_result res;
		int s = seat;
		if ((rc = load_game(svc->st, svc->cache, id, &l, err)) < 0)
			break;
		if (s < 0)
			rc = store_seat_for_player(svc->st, l.row.key,
			                           player_key, &s);
		/* nothing to resign: not started, over, or resigned already */
		if (rc == 0 && (l.row.open_seats || s >= (int)l.g->seats ||
		                engine_game_result(l.g, &res) ||
		                ((l.g->resigned >> s) & 1)))
			rc = 1;
		else if (rc == 0) {
			struct move_req m = {resign, 0, 0, NULL};
			rc = try_move(svc, &l, s, &m, NULL, NULL, NULL, err);
		}
		loaded_release(&l);
	}
	json_decref(resign);
	if (rc == BD_ECONFLICT)
		return svc__fail(err, BD_EBUSY,
		                 "too many concurrent moves; try again");
	return rc;
}
