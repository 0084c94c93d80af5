/* stream.c: live updates of one game for one viewer.  See service.h.
 *
 * A stream owns an engine_game copy at the seq of the last event it
 * produced.  Each service_stream_next applies the log tail after that seq
 * (never the whole log again) and turns each move into an event the
 * viewer may see: the move as GET /v1/games/{id}/moves shows it
 * (svc__move_entry: action, outcome, time, by), redacted as of the game's
 * state now, and the state as GET /v1/games/{id}?at=seq shows it.  A live
 * event is built as its move lands, so it shows what was public then; a
 * stream resumed later (after=N) shows what is public now: after the end,
 * everything, as the log does (docs/history.md). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A store_moves_each callback's code for "batch full, stop here"; never
 * leaves this file. */
#define STREAM_STOP (-1000)

struct svc_stream {
	int64_t player_key;    /* an account stream's player, else 0 */
	int64_t key;           /* the game's store key */
	int viewer;            /* a seat, or ENGINE_SPECTATOR */
	int open_seats;        /* seats open when the stream was opened */
	struct engine_game *g; /* owned: the state after g->seq moves */
	uint64_t sent;         /* moves up to this seq need no event */
	int need_state;        /* 1: the next batch opens with `state` */
	int emitted;           /* 1: some event has been produced */
	int ended;             /* 1: nothing more will come */
	int gap;               /* 1: an account stream resumed after key
	                          gap_after lost events to pruning: the
	                          next batch opens with a `gap` event */
	int64_t gap_after;
	int has_token; /* 1: opened with a bearer token, whose */
	uint8_t token_hash[STORE_TOKEN_HASH_LEN]; /* SHA-256 is this */
	/* A game's stream: the chat channel its viewer reads while the game
	 * runs (the players' for a seat, else the spectators'; chat.c), the
	 * newest message of it already told (a stream tells the messages
	 * written after it opened: GET …/chat/{channel} has the earlier
	 * ones), and the player whose blocks hide authors (0: none). */
	int chat_channel;
	int64_t chat_sent;
	int64_t chat_reader;
	/* service_stream_rematch: after the end the stream stays open for
	 * the finished game's rematch (docs/matchmaking.md, "Rematch")
	 * until it starts; rematch_told is the rematch last told, as the
	 * view's ETag tags it (svc_view's rematch; 0: none). */
	int rematch_watch;
	unsigned rematch_told;
};

/* {"event":…,"seq":…}, the head every event starts with. */
static json_t *event_head(const char *event, uint64_t seq)
{
	return json_pack("{s:s,s:I}", "event", event, "seq", (json_int_t)seq);
}

/* Adds status, to_act, view and result of g as `viewer` sees it;
 * `reveal` 1 (the game is over now, g may be earlier): the view shows
 * everything, as GET /v1/games/{id}?at=N does once the game is over. */
static int add_state(json_t *e, const struct engine_game *g, int viewer,
                     int open_seats, int reveal)
{
	unsigned to_act = open_seats ? 0 : engine_game_to_act(g);
	json_t *view = reveal && !open_seats
	                   ? g->rules->view(g->state, viewer, 1)
	                   : svc__view(g, viewer, open_seats);
	json_t *more =
	    json_pack("{s:s,s:o,s:o,s:o}", "status", svc__status(g, open_seats),
	              "to_act", svc__seat_list(to_act), "view", view, "result",
	              svc__result_json(g));
	int rc = more && e ? json_object_update(e, more) : -1;
	json_decref(more);
	return rc < 0 ? BD_ENOMEM : 0;
}

static int append(json_t *events, json_t *e)
{
	return e && json_array_append_new(events, e) == 0 ? 0 : BD_ENOMEM;
}

static json_t *state_event(const struct svc_stream *st)
{
	json_t *e = event_head("state", st->g->seq);
	if (add_state(e, st->g, st->viewer, st->open_seats, 0) < 0) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* A move read from the log for the next batch: its event is built once
 * the batch knows the game's state now. */
struct raw_move {
	uint64_t seq;
	int seat;
	char *action; /* the logged JSON text, malloc'd */
	char *reason; /* "timeout", "bot", "resigned" or NULL; malloc'd */
	int64_t created_ms;
};

/* The move event for logged move m, st->g being the state right after it
 * and `now` the game's state now (at m's seq or later): the log's entry
 * for the viewer as of now (svc__move_entry), then the state at m. */
static json_t *move_event(const struct svc_stream *st,
                          const struct engine_game *now,
                          const struct raw_move *m)
{
	struct rules_result res;
	json_t *entry = svc__move_entry(st->g, now, m->seq, m->seat, m->action,
	                                m->reason, m->created_ms, st->viewer);
	json_t *e = event_head("move", m->seq);
	int rc = entry && e ? json_object_update(e, entry) : -1;
	json_decref(entry);
	if (rc < 0 || add_state(e, st->g, st->viewer, 0,
	                        engine_game_result(now, &res)) < 0) {
		json_decref(e);
		return NULL;
	}
	return e;
}

static json_t *end_event(const struct svc_stream *st)
{
	json_t *e = event_head("end", st->g->seq);
	if (e &&
	    json_object_set_new(e, "status", json_string("finished")) == 0 &&
	    json_object_set_new(e, "result", svc__result_json(st->g)) == 0)
		return e;
	json_decref(e);
	return NULL;
}

/* A `rematch` event when the finished game's rematch changed since the
 * last one told: {"event":"rematch","seq":…,"rematch": the view's
 * rematch or null (declined)}; once it started the stream ends. */
static int emit_rematch(struct service *svc, struct svc_stream *st,
                        json_t *events)
{
	struct store_game row = {0};
	int rc = store_game_by_key(svc->st, st->key, &row);
	unsigned tag = row.rematch_seats | (row.rematch[0] ? 1u << 31 : 0);
	if (rc == 0 && tag != st->rematch_told) {
		json_t *e = event_head("rematch", st->sent);
		rc = e && json_object_set_new(e, "rematch",
		                              svc__rematch_json(&row)) == 0
		         ? append(events, e)
		         : (json_decref(e), BD_ENOMEM);
		if (rc == 0)
			st->rematch_told = tag;
	}
	if (rc == 0 && row.rematch[0] && st->rematch_told == tag)
		st->rematch_watch = 0; /* told: nothing more will come */
	store_game_release(&row);
	return rc;
}

void service_stream_rematch(struct svc_stream *st)
{
	if (!st->player_key)
		st->rematch_watch = 1;
}

/* ---- opening ---- */

int service_game_seq(struct service *svc, const char *id, const char *token,
                     int64_t *key, uint64_t *seq, int *finished,
                     struct svc_err *err)
{
	struct loaded l;
	int seat;
	int rc = svc__load_viewer(svc, id, token, &l, &seat, err);
	if (rc < 0)
		return rc;
	struct rules_result res;
	*key = l.row.key;
	*seq = l.g->seq;
	*finished = engine_game_result(l.g, &res);
	loaded_release(&l);
	return 0;
}

/* Points st at the state the first batch starts from: the current state
 * l->g (taken over) for a `state` event or a resume at the current seq,
 * else the state at `after` (load_at). */
static int start_state(struct store *store, struct svc_stream *st,
                       struct loaded *l, const uint64_t *after,
                       struct svc_err *err)
{
	st->sent = l->g->seq;
	if (!after || *after >= l->g->seq) {
		/* Beyond the log (a lost tail, a bogus id): start afresh. */
		st->need_state = !after || *after > l->g->seq;
		st->g = l->g;
		l->g = NULL;
		return 0;
	}
	st->sent = *after;
	/* From the snapshot at or before `after`: a resume replays a few
	 * moves, not the whole log. */
	return load_at(store, &l->row, l->rules, *after, &st->g, err);
}

int service_stream_open(struct service *svc, const char *id, const char *token,
                        const uint64_t *after, struct svc_stream **out,
                        int64_t *game_key, struct svc_err *err)
{
	struct loaded l;
	int viewer;
	int rc = svc__load_viewer(svc, id, token, &l, &viewer, err);
	if (rc < 0)
		return rc;
	struct svc_stream *st = calloc(1, sizeof *st);
	rc = st ? 0 : BD_ENOMEM;
	if (rc == 0 && token) {
		token_hash(token, st->token_hash);
		st->has_token = 1;
	}
	if (rc == 0) {
		st->viewer = viewer;
		st->key = l.row.key;
		st->open_seats = l.row.open_seats;
		st->chat_channel =
		    viewer >= 0 ? STORE_CHAT_PLAYERS : STORE_CHAT_SPECTATORS;
		rc = store_chat_last(svc->st, st->key, st->chat_channel,
		                     &st->chat_sent);
	}
	if (rc == 0)
		rc = svc__chat_reader(svc, st->key, viewer, token,
		                      &st->chat_reader);
	if (rc == 0)
		rc = start_state(svc->st, st, &l, after, err);
	if (rc == 0) {
		*out = st;
		*game_key = l.row.key;
	} else {
		service_stream_close(st);
	}
	loaded_release(&l);
	return rc;
}

void service_stream_close(struct svc_stream *st)
{
	if (!st)
		return;
	engine_game_free(st->g);
	free(st);
}

/* ---- the next batch ---- */

struct next_ctx {
	struct svc_stream *st;
	json_t *events;
	struct svc_err err;
	struct raw_move raw[SVC_STREAM_BATCH]; /* the batch's moves */
	size_t nraw;
};

static int next_one(void *ctx, uint64_t seq, int seat, const char *action,
                    const char *reason, int64_t created_ms)
{
	struct next_ctx *nc = ctx;
	struct svc_stream *st = nc->st;
	if (seq <= st->sent) /* replaying up to where the client is */
		return load_apply_logged(st->g, seq, seat, action, &nc->err);
	if (json_array_size(nc->events) + nc->nraw >= SVC_STREAM_BATCH)
		return STREAM_STOP;
	struct raw_move *m = &nc->raw[nc->nraw];
	*m = (struct raw_move){seq, seat, strdup(action),
	                       reason ? strdup(reason) : NULL, created_ms};
	nc->nraw++; /* freed by raw_release, whatever failed */
	return m->action && (!reason || m->reason) ? 0 : BD_ENOMEM;
}

static void raw_release(struct next_ctx *nc)
{
	for (size_t i = 0; i < nc->nraw; i++) {
		free(nc->raw[i].action);
		free(nc->raw[i].reason);
	}
	nc->nraw = 0;
}

/* The game's state now, at seq at_least or later, into *out (a new copy):
 * the cached state when it is that recent, else a load. */
static int state_now(struct service *svc, const struct svc_stream *st,
                     uint64_t at_least, struct engine_game **out)
{
	struct engine_game *g = engine_cache_get(svc->cache, st->key);
	if (!g || g->seq < at_least) {
		struct loaded l;
		struct svc_err err = {0};
		engine_game_free(g);
		int rc = load_game_key(svc->st, svc->cache, st->key, &l, &err);
		if (rc < 0)
			return rc;
		g = l.g;
		l.g = NULL;
		loaded_release(&l);
	}
	if (g->seq < at_least) { /* the log ran ahead of its row: later */
		engine_game_free(g);
		return BD_EBUSY;
	}
	*out = g;
	return 0;
}

/* Applies the batch's moves to st->g and appends their events, redacted
 * as of the game's state now. */
static int emit_moves(struct service *svc, struct next_ctx *nc)
{
	struct svc_stream *st = nc->st;
	struct engine_game *now = NULL;
	if (nc->nraw == 0)
		return 0;
	int rc = state_now(svc, st, nc->raw[nc->nraw - 1].seq, &now);
	for (size_t i = 0; rc == 0 && i < nc->nraw; i++) {
		const struct raw_move *m = &nc->raw[i];
		rc = load_apply_logged(st->g, m->seq, m->seat, m->action,
		                       &nc->err);
		if (rc == 0)
			rc = append(nc->events, move_event(st, now, m));
		if (rc == 0) {
			st->sent = m->seq;
			st->emitted = 1;
		}
	}
	engine_game_free(now);
	return rc;
}

/* store_chat_each callback: a `chat` event, headed by the seq of the
 * last move the stream told (a message carries nothing of the game's
 * state: chat.c), so that a client resuming from its id (Last-Event-ID)
 * misses no move. */
static int chat_one(void *ctx, const struct store_chat_msg *m)
{
	struct next_ctx *nc = ctx;
	struct svc_stream *st = nc->st;
	json_t *e = event_head("chat", st->sent);
	json_t *msg = svc__chat_json(st->chat_channel, m);
	int rc = e && msg && json_object_update(e, msg) == 0 ? 0 : BD_ENOMEM;
	json_decref(msg);
	if (rc < 0) {
		json_decref(e);
		return rc;
	}
	st->chat_sent = m->n;
	st->emitted = 1;
	return append(nc->events, e);
}

/* The messages of the viewer's channel written since the last look, as
 * many as the batch has room for; 1 when it is then full. */
static int emit_chat(struct service *svc, struct next_ctx *nc)
{
	struct svc_stream *st = nc->st;
	size_t room = SVC_STREAM_BATCH - json_array_size(nc->events);
	if (room == 0)
		return 1;
	int rc =
	    store_chat_each(svc->st, st->key, st->chat_channel, st->chat_sent,
	                    st->chat_reader, (int)room, chat_one, nc);
	return rc < 0 ? rc : json_array_size(nc->events) >= SVC_STREAM_BATCH;
}

/* A seat taken since the last look changes the status without a move:
 * the next batch then opens with a fresh `state` event. */
static int seats_changed(struct service *svc, struct svc_stream *st)
{
	struct store_game row = {0};
	if (st->open_seats == 0)
		return 0; /* seats never open again */
	int rc = store_game_by_key(svc->st, st->key, &row);
	if (rc == 0 && row.open_seats != st->open_seats) {
		st->open_seats = row.open_seats;
		st->need_state = 1;
	}
	store_game_release(&row);
	return rc;
}

/* Whether the stream's token still gives it what it was opened with:
 * the same viewer of the game (a seat is left, or taken by someone else
 * after, while a game waits; a token is revoked), or the same player's
 * events.  0 when not: the stream then ends, and a client that opens it
 * again is answered as that token is now.  Negative: a store error. */
static int still_allowed(struct service *svc, const struct svc_stream *st)
{
	struct svc_err err = {0};
	struct store_player p;
	int seat = ENGINE_SPECTATOR, rc;
	if (!st->has_token)
		return 1; /* a spectator without a token stays one */
	if (st->player_key) {
		rc = store_player_by_token(svc->st, st->token_hash, &p);
		if (rc == 0)
			return p.key == st->player_key;
	} else {
		rc = load_seat_hash(svc->st, st->key, st->token_hash, 0, &seat,
		                    &err);
		if (rc == 0)
			return seat == st->viewer;
	}
	return rc == BD_EUNAUTHORIZED || rc == BD_EFORBIDDEN ||
	               rc == BD_ENOTFOUND
	           ? 0
	           : rc;
}

int service_stream_allowed(struct service *svc, struct svc_stream *st)
{
	return still_allowed(svc, st);
}

/* ---- the account stream ---- */

int service_account_stream_open(struct service *svc, const char *token,
                                const uint64_t *after, struct svc_stream **out,
                                int64_t *player_key, struct svc_err *err)
{
	struct store_player p;
	int64_t last = 0, pruned = 0;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0 && !after)
		rc = store_events_last(svc->st, p.key, &last);
	if (rc == 0 && after)
		rc = store_events_horizon(svc->st, p.key, &pruned);
	if (rc < 0)
		return rc;
	struct svc_stream *st = calloc(1, sizeof *st);
	if (!st)
		return BD_ENOMEM;
	st->player_key = p.key;
	token_hash(token, st->token_hash);
	st->has_token = 1;
	st->sent = after ? *after : (uint64_t)last;
	if (after && (uint64_t)pruned > *after) {
		/* Events after *after were pruned: say so, then go on
		 * after the newest pruned one. */
		st->gap = 1;
		st->gap_after = (int64_t)*after;
		st->sent = (uint64_t)pruned;
	}
	*out = st;
	*player_key = p.key;
	return 0;
}

/* store_events_each callback: one account event. */
static int account_one(void *ctx, const struct store_event *e)
{
	struct next_ctx *nc = ctx;
	json_t *o = service_event_json(e);
	if (o && (json_object_set_new(o, "event", json_string(e->type)) < 0 ||
	          json_object_set_new(o, "seq", json_integer(e->key)) < 0 ||
	          json_object_set_new(o, "id", json_string(e->id)) < 0)) {
		json_decref(o);
		o = NULL;
	}
	int rc = append(nc->events, o);
	if (rc == 0)
		nc->st->sent = (uint64_t)e->key;
	return rc;
}

/* The `gap` event: {"event":"gap","seq":<newest pruned key>,
 * "after":<the key the client resumed after>}. */
static json_t *gap_event(const struct svc_stream *st)
{
	json_t *e = event_head("gap", st->sent);
	if (e &&
	    json_object_set_new(e, "after", json_integer(st->gap_after)) == 0)
		return e;
	json_decref(e);
	return NULL;
}

static int account_next(struct service *svc, struct svc_stream *st,
                        json_t **events, int *finished)
{
	struct next_ctx nc = {.st = st, .events = json_array()};
	int rc = nc.events ? 0 : BD_ENOMEM;
	if (rc == 0 && st->gap) {
		rc = append(nc.events, gap_event(st));
		st->gap = rc < 0;
	}
	if (rc == 0)
		rc = store_events_each(svc->st, st->player_key,
		                       (int64_t)st->sent, SVC_STREAM_BATCH - 1,
		                       account_one, &nc);
	if (rc < 0) {
		json_decref(nc.events);
		return rc;
	}
	*events = nc.events;
	*finished = 0;
	return 0;
}

/* Gives the last event of a batch (a `state` or `move` event) the
 * game's "clock" as GET /v1/games/{id} shows it (svc__clock_json: each
 * seat's deadline and bank), when the event is at the game's current seq:
 * a client then need not fetch the game to show the clocks.  Events of
 * older seqs carry none (the clocks were those of a state a later event
 * in the batch supersedes). */
static int add_clock(struct service *svc, const struct svc_stream *st,
                     json_t *events)
{
	json_t *e = json_array_get(events, json_array_size(events) - 1);
	const char *what = json_string_value(json_object_get(e, "event"));
	if (!what || (strcmp(what, "move") != 0 && strcmp(what, "state") != 0))
		return 0;
	struct store_game row = {0};
	int rc = store_game_by_key(svc->st, st->key, &row);
	json_t *seq = json_object_get(e, "seq");
	if (rc == 0 && json_is_integer(seq) &&
	    (uint64_t)json_integer_value(seq) == row.seq) {
		json_t *clock = svc__clock_json(svc, &row);
		rc = clock && json_object_set_new(e, "clock", clock) == 0
		         ? 0
		         : BD_ENOMEM;
	}
	store_game_release(&row);
	return rc;
}

int service_stream_next(struct service *svc, struct svc_stream *st,
                        json_t **events, int *finished)
{
	int ok = still_allowed(svc, st);
	if (ok < 0)
		return ok;
	if (!ok) {
		*events = json_array();
		*finished = 1;
		st->ended = 1;
		return *events ? 0 : BD_ENOMEM;
	}
	if (st->player_key)
		return account_next(svc, st, events, finished);
	struct next_ctx nc = {.st = st, .events = json_array()};
	int rc = nc.events ? seats_changed(svc, st) : BD_ENOMEM;
	if (rc == 0 && st->need_state && !st->ended) {
		rc = append(nc.events, state_event(st));
		st->need_state = rc < 0;
		st->emitted |= rc == 0;
	}
	if (rc == 0 && !st->ended)
		rc = store_moves_each(svc->st, st->key, st->g->seq, next_one,
		                      &nc);
	int full = rc == STREAM_STOP;
	if (full || rc == 0)
		rc = emit_moves(svc, &nc);
	raw_release(&nc);
	if (rc == 0 && !full && !st->ended) {
		rc = emit_chat(svc, &nc);
		full = rc == 1;
		rc = rc < 0 ? rc : 0;
	}
	struct rules_result res;
	if (full) {
		rc = rc < 0 ? rc : 0; /* a full batch: the caller asks again */
	} else if (rc == 0 && !st->ended && engine_game_result(st->g, &res) &&
	           json_array_size(nc.events) < SVC_STREAM_BATCH) {
		if (st->emitted)
			rc = append(nc.events, end_event(st));
		st->ended = rc == 0;
	}
	if (rc == 0)
		rc = add_clock(svc, st, nc.events);
	if (rc == 0 && !full && st->ended && st->rematch_watch &&
	    json_array_size(nc.events) < SVC_STREAM_BATCH)
		rc = emit_rematch(svc, st, nc.events);
	if (rc < 0) {
		json_decref(nc.events);
		return rc;
	}
	*events = nc.events;
	*finished = st->ended && !st->rematch_watch;
	return 0;
}
