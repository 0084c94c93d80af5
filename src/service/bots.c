/* bots.c: the bot workers, which play the seats bots hold (bot.h).
 *
 * A pool of threads (service_bots_start's `workers`) and two bounded
 * queues of game keys: the games whose clock deadline passed (`due`,
 * filled by the clock pass below) and the games where a bot is to act
 * (`jobs`).  A key is queued in `jobs` when a
 * committed move, a join or a creation leaves a bot seat to act
 * (svc__bots_wake); a worker takes it, loads the game, lets the bot choose for
 * the lowest such seat and posts the choice as svc__move_as does for any client
 * that sends expected_seq: with the seq it read, so a move that landed
 * meanwhile makes it load and decide again.  The move is logged like a player's
 * (with "by":"bot", sql/0015) and announced to every live stream; a replay
 * never runs a bot.  After each
 * move the game goes to the back of the queue if a bot is still to act, so
 * bot-vs-bot games share the workers.
 *
 * Fair shares: which queued game a worker takes next is botqueue.c's.
 *
 * No game is played by two workers at once: each worker claims the key
 * it took (`playing`); a worker that takes a key another one holds drops
 * it and marks the holder `again`, and the holder queues it once more
 * when it is done (the wake-up may be for a move it has not seen).  Each
 * decision runs on a worker, never on a request thread; the workers
 * decide in parallel (one core each), their moves are written one at a
 * time by the store.
 *
 * The queue never blocks a request thread: when it is full, the key is
 * dropped and the worker later rescans the store (store_bot_games_each),
 * as it does at start, which is how bot turns pending before a restart
 * are played.  A game whose bot fails (the bot or the engine refuses, the
 * store fails) is logged on stderr and its bots are left alone until the
 * server restarts: a broken bot must not spin the worker.  A full disk
 * (BD_ENOSPACE) is not a failure: the move is tried again a second later.
 *
 * The workers are also the clocks' scheduler (clock.c).  They know the
 * earliest deadline (due_ms: svc__clock_wake lowers it after every move
 * that sets one; a pass over the store resets it) and waits for it; when
 * it passes, one of them runs a pass that queues every game whose
 * deadline (or deadline.soon time) passed (store_clock_due_each, earliest
 * first, a page at a time), and the game is played like any other: each
 * seat whose warning time came gets its deadline.soon (svc__clock_warn,
 * once per deadline), and a seat whose deadline passed gets its
 * timeout (the mcts bot's move or a resignation, logged with reason
 * "timeout", posted with the seq it read, so a player's move that landed
 * first wins and the timeout is decided again).  The first pass runs at
 * start: deadlines that passed while the server was down are applied
 * once, then.
 *
 * The bot's seed comes from libsodium's randombytes, fresh per decision:
 * nothing a player can see or compute (a hash of the game id and seq
 * would let an opponent re-run the bot and learn from its choice what it
 * holds), and nothing tied to the game's own secret seed (the bot would
 * then correlate with the deck it must not see).  Bot moves need no
 * reproducible seed: the log records them. */
#include <pthread.h>
#include <time.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/log.h"
#include "../bot/bot.h"
#include "bots.h"
#include "internal.h"

#define BOTS_PAGE    1000 /* most games one store scan returns */
#define BOTS_RETRIES 8    /* lost races or a busy store, per decision */

int svc__bot_of(const char *bots, int seat, struct bot_spec *out)
{
	json_t *a = bots ? json_loads(bots, 0, NULL) : NULL;
	size_t i;
	json_t *e;
	int rc = a ? BD_ENOTFOUND : BD_EINTERNAL;
	json_array_foreach(a, i, e) {
		json_t *s = json_object_get(e, "seat");
		if (json_is_integer(s) && json_integer_value(s) == seat) {
			rc = bot_spec_from_json(json_object_get(e, "bot"), out,
			                        NULL) < 0
			         ? BD_EINTERNAL
			         : 0;
			break;
		}
	}
	json_decref(a);
	return rc;
}

/* ---- the games whose bots failed ---- */

static int is_stopped(struct svc_bots *b, int64_t key)
{
	int found = 0;
	pthread_mutex_lock(&b->mu);
	size_t n = b->nstopped < BOTS_STOPPED ? b->nstopped : BOTS_STOPPED;
	for (size_t i = 0; i < n && !found; i++)
		found = b->stopped[i] == key;
	pthread_mutex_unlock(&b->mu);
	return found;
}

static void stop_game(struct svc_bots *b, int64_t key)
{
	pthread_mutex_lock(&b->mu);
	b->stopped[b->nstopped++ % BOTS_STOPPED] = key;
	pthread_mutex_unlock(&b->mu);
}

/* ---- one decision ---- */

/* Why play_once stopped a game's bots, for the log. */
struct bot_failure {
	int seat;
	char id[STORE_ID_LEN + 1];
	char detail[BD_DETAIL_LEN];
};

/* If a seat of l (loaded, borrowed) is past its deadline, applies the
 * timeout of the one with the earliest: the mcts bot (default level)
 * chooses its move, or it resigns (on_timeout "forfeit").  1 when no
 * deadline passed (go on with bot seats); else play_once's codes. */
static int timeout_once(struct svc_bots *b, struct loaded *l,
                        struct bot_failure *why)
{
	struct svc_clock c;
	struct svc_clock_state s;
	struct svc_err err = {0};
	if (!l->row.clock || l->row.open_seats)
		return 1;
	if (l->row.seq != l->g->seq)
		return BD_ESTALE; /* its clocks are an older seq's */
	if (svc__clock_load(&l->row, &c, &s) < 0) {
		snprintf(why->detail, sizeof why->detail,
		         "its stored clock does not read");
		return BD_EINTERNAL;
	}
	/* A correspondence clock stops while its player is on vacation: the
	 * stored deadline (never later than the true one) is put right; so
	 * is any other game's that a vacation's end set to now (ST_VAC_POKE):
	 * left passed, every clock pass would load it again. */
	struct svc_vacations *v = c.vacation ? malloc(sizeof *v) : NULL;
	if (c.vacation && !v)
		return BD_ENOMEM;
	int rc = v ? svc__vacations_load(b->svc, &l->row, &c, &s, v) : 0;
	if (rc < 0) {
		free(v);
		snprintf(why->detail, sizeof why->detail,
		         "its players' vacations do not read (bd_err %d)", rc);
		return rc;
	}
	svc__clock_vacation(&c, &s, l->g->seats, v, -1, INT64_MAX);
	/* Only seats to act (and not a bot's) have begun a decision. */
	int seat = -1;
	int64_t due = svc__clock_earliest(&c, &s, l->g->seats, &seat);
	if (!due || due > svc__now_ms()) {
		if ((v || due) && due != l->row.deadline_ms) {
			rc = store_game_deadline(b->svc->st, l->row.key,
			                         l->row.seq, l->row.deadline_ms,
			                         due);
			svc__clock_wake(b->svc, due);
		}
		free(v);
		return rc < 0 ? rc : 1;
	}
	free(v);
	why->seat = seat;
	json_t *action = NULL;
	if (c.forfeit) {
		action = json_pack("{s:s}", "type", "resign");
		rc = action ? 0 : BD_ENOMEM;
	} else {
		struct bot_spec spec = {BOT_MCTS, BOT_LEVEL_DEFAULT};
		uint64_t seed;
		randombytes_buf(&seed, sizeof seed);
		rc = bot_choose(l->g, seat, &spec, seed, b->max_ms, &action);
	}
	if (rc < 0)
		snprintf(why->detail, sizeof why->detail,
		         "no timeout move was chosen (bd_err %d)", rc);
	if (rc == 0 &&
	    (rc = svc__timeout_as(b->svc, l, seat, action, &err)) ==
	        BD_EVACATIONBEGAN)
	{
		svc__vacation_changed(b->svc);
		rc = BD_ESTALE; /* no timeout: look again (its new deadline) */
	}
	else if (rc < 0)
		snprintf(why->detail, sizeof why->detail,
		         "its timeout was refused (bd_err %d): %.200s", rc,
		         err.detail);
	if (rc == 0) /* applied: how late (the deadline lag metric) */
		histo_observe(&b->svc->deadline_lag,
		              (double)(svc__now_ms() - due) / 1000.0);
	json_decref(action);
	return rc;
}

/* Applies a passed deadline of game `key` (timeout_once), else lets the
 * bot of the lowest bot seat to act choose, and posts its move.  0 when it
 * moved or nothing was to do; BD_ESTALE when another move landed first; other
 * codes are failures (*why says which seat and game). */
static int play_once(struct svc_bots *b, int64_t key, struct bot_failure *why)
{
	struct service *svc = b->svc;
	struct loaded l;
	struct svc_err err = {0};
	int rc = load_game_key(svc->st, svc->cache, key, &l, &err);
	if (rc == BD_ENOTFOUND)
		return 0;
	if (rc < 0) {
		snprintf(why->detail, sizeof why->detail,
		         "it does not load (bd_err %d): %.200s", rc,
		         err.detail);
		return rc;
	}
	snprintf(why->id, sizeof why->id, "%s", l.row.id);
	rc = svc__clock_warn(svc, &l);
	if (rc == BD_EBUSY) {
		loaded_release(&l);
		return rc; /* tried again */
	}
	if (rc < 0) /* a warning lost must not stop the game */
		log_error("boardd",
		          "game %s: a deadline.soon was not written "
		          "(bd_err %d)",
		          l.row.id, rc);
	rc = timeout_once(b, &l, why);
	if (rc != 1) {
		loaded_release(&l);
		return rc;
	}
	unsigned due =
	    l.row.open_seats ? 0 : engine_game_to_act(l.g) & l.row.bot_seats;
	if (!due) {
		loaded_release(&l);
		return 0;
	}
	int seat = __builtin_ctz(due);
	why->seat = seat;
	struct bot_spec spec;
	uint64_t seed;
	json_t *action = NULL;
	randombytes_buf(&seed, sizeof seed);
	rc = svc__bot_of(l.row.bots, seat, &spec);
	if (rc < 0)
		snprintf(why->detail, sizeof why->detail,
		         "its stored bot spec does not read");
	if (rc == 0 &&
	    (rc = bot_choose(l.g, seat, &spec, seed, b->max_ms, &action)) < 0)
		snprintf(why->detail, sizeof why->detail,
		         "the bot chose nothing (bd_err %d)", rc);
	if (rc == 0 && (rc = svc__move_as(svc, &l, seat, action, &err)) < 0)
		snprintf(why->detail, sizeof why->detail,
		         "its move was refused (bd_err %d): %.200s", rc,
		         err.detail);
	json_decref(action);
	loaded_release(&l);
	return rc;
}

/* How long one decision holds a game's lease (taken again before each
 * retry): its wall-clock cap (the highest level's when max_ms is 0) and
 * five seconds for the store.  A node that dies leaves the turn to the
 * others that long at most, plus STORE_SHARED_RESCAN_MS. */
static int64_t bots_lease_ms(const struct svc_bots *b)
{
	int64_t cap = b->max_ms ? b->max_ms : bot_level_max_ms(BOT_LEVEL_MAX);
	return cap + 5000;
}

/* Plays one bot move of game `key` of `share` (svc__move_as queues the
 * game again when a bot is still to act), retrying lost races and a busy
 * store a few times before it queues the game again. */
static void play(struct svc_bots *b, int64_t key,
                 const struct svc_bot_share *share)
{
	if (is_stopped(b, key))
		return;
	/* Several nodes on one database: only the holder of the game's
	 * lease plays it (store.h, "leases"); another node holds it: that
	 * node plays, or, if it died, a later scan here takes the lease
	 * once it ended. */
	struct bot_failure why = {.seat = -1};
	int rc = BD_ESTALE;
	for (int i = 0; i < BOTS_RETRIES; i++) {
		int taken = 0;
		if (store_lease_take(b->svc->st, key, bots_lease_ms(b),
		                     &taken) < 0 ||
		    !taken) {
			if (i == 0)
				return; /* another node's: nothing to drop */
			rc = BD_EBUSY;  /* taken over: back of the queue */
			break;
		}
		rc = play_once(b, key, &why);
		if (rc != BD_ESTALE && rc != BD_EBUSY)
			break;
	}
	(void)store_lease_drop(b->svc->st, key); /* or it ends by itself */
	if (rc == 0)
		return;
	if (rc == BD_EDEADLINE)
		rc = BD_ESTALE; /* cannot happen for the server's own moves */
	if (rc == BD_ESTALE || rc == BD_EBUSY) {
		/* Lost every race (people keep moving, or the store is
		 * busy): not a failure; back of the queue. */
		svc__bots_wake(b->svc, key, share);
		return;
	}
	if (rc == BD_ENOSPACE) {
		/* A full disk passes (a client gets 507 and retries): the
		 * move is tried again a second later, not given up until a
		 * restart.  The pause keeps the worker from spinning. */
		sleep(1);
		svc__bots_wake(b->svc, key, share);
		return;
	}
	log_error("boardd",
	          "bot of seat %d in game %s stopped until restart: %s",
	          why.seat, why.id[0] ? why.id : "?", why.detail);
	stop_game(b, key);
}

/* ---- the store scan ---- */

/* Where a scan collects keys (the store's callback must be quick). */
struct scan_ctx {
	int64_t keys[BOTS_PAGE];
	int n;
};

static int scan_one(void *ctx, int64_t key)
{
	struct scan_ctx *x = ctx;
	x->keys[x->n++] = key;
	return 0;
}

/* Queues the next page of games where a bot is to act (keys above
 * b->scan_after, as many as the queue has room for).  A pass over the
 * store takes pages until one is not full; a wake-up dropped meanwhile
 * may be for a game behind the cursor, so the pass then starts over.
 * Called without b->mu. */
static void scan(struct svc_bots *b, struct scan_ctx *x)
{
	pthread_mutex_lock(&b->mu);
	size_t free_slots = b->cap - b->len;
	int room = free_slots > BOTS_PAGE ? BOTS_PAGE : (int)free_slots;
	int64_t after = b->scan_after;
	if (after == 0)
		b->dropped = 0; /* a new pass sees every game */
	pthread_mutex_unlock(&b->mu);
	if (room <= 0)
		return; /* rescan stays set: once the queue is empty */
	x->n = 0;
	int rc = store_bot_games_each(b->svc->st, after, room, scan_one, x);
	if (rc < 0) {
		/* Pending turns must not be forgotten: try again in a
		 * second (a busy or failing store), from the same place. */
		log_error("boardd",
		          "the bot worker's scan failed (bd_err %d); "
		          "retrying",
		          rc);
		sleep(1);
		return;
	}
	pthread_mutex_lock(&b->mu);
	/* Each its own owner, all of one network, and first tier (a person
	 * may play: pending turns at a restart) until its first move here
	 * re-queues it under its own share (svc__move_as). */
	for (int i = 0; i < x->n; i++) {
		struct svc_bot_share sh = {0, -x->keys[i], 1};
		if (!botq_queued(b, x->keys[i])) /* a wake-up's share knows more */
			botq_push(b, x->keys[i], &sh);
	}
	if (x->n == room) { /* a full page: more may follow */
		b->scan_after = x->keys[x->n - 1];
	} else { /* the pass is over */
		b->scan_after = 0;
		b->rescan = b->dropped;
	}
	pthread_mutex_unlock(&b->mu);
}

/* The clock pass: queues in `due` the games whose deadline passed (as
 * many as it has room for, earliest first), then learns the next
 * deadline.  Called without b->mu. */
static void clock_pass(struct svc_bots *b, struct scan_ctx *x)
{
	pthread_mutex_lock(&b->mu);
	size_t free_slots = b->cap - b->ndue;
	int room = free_slots > BOTS_PAGE ? BOTS_PAGE : (int)free_slots;
	b->due_ms = 0; /* wake-ups from now on lower it again */
	b->due_scan = 0;
	b->pass_ms = svc__now_ms();
	pthread_mutex_unlock(&b->mu);
	int64_t now = svc__now_ms(), next = 0;
	x->n = 0;
	int rc = room > 0
	             ? store_clock_due_each(b->svc->st, now, room, scan_one, x)
	             : 0;
	if (rc == 0)
		rc = store_clock_next(b->svc->st, now, &next);
	if (rc < 0) {
		log_error("boardd",
		          "the clock scheduler's scan failed (bd_err %d); "
		          "retrying",
		          rc);
		next = now + 1000;
	}
	pthread_mutex_lock(&b->mu);
	for (int i = 0; i < x->n; i++)
		botq_push_due(b, x->keys[i]);
	if (room <= 0 || x->n == room)
		b->due_scan = 1; /* more may be due: once there is room */
	if (next && (!b->due_ms || next < b->due_ms))
		b->due_ms = next;
	pthread_mutex_unlock(&b->mu);
}

/* 1 if the clock pass should run now: a deadline passed (or a page was
 * full), and `due` is empty or the last pass was a second ago (the
 * games a pass queued are still due until played: passing again at once
 * would find the same ones).  Queued bot decisions never hold it back:
 * it runs as soon as a worker is free.  Under b->mu. */
static int clock_due(const struct svc_bots *b)
{
	int64_t now = svc__now_ms();
	if (b->ndue == b->cap || (b->ndue && now - b->pass_ms < 1000))
		return 0;
	return b->due_scan || (b->due_ms && b->due_ms <= now);
}

/* Waits for a wake-up, or until the earliest deadline (at most a
 * minute, so a wall-clock step is noticed; on a shared store at most
 * until its next look for work another node left).  Under b->mu. */
static void wait_wake(struct svc_bots *b)
{
	int shared = store_shared(b->svc->st);
	/* (while a pass runs, the passer wakes everyone) */
	if ((!b->due_ms && !shared) || b->passing) {
		pthread_cond_wait(&b->wake, &b->mu);
		return;
	}
	int64_t now = svc__now_ms();
	int64_t until = b->due_ms ? b->due_ms : now + 60000;
	int64_t cap =
	    shared ? b->shared_ms + STORE_SHARED_RESCAN_MS : now + 60000;
	if (until > cap)
		until = cap;
	struct timespec ts = {.tv_sec = until / 1000,
	                      .tv_nsec = (long)(until % 1000) * 1000000};
	pthread_cond_timedwait(&b->wake, &b->mu, &ts);
}

/* The worker playing game `key`, or NULL.  Under b->mu. */
static struct bot_worker *holder(struct svc_bots *b, int64_t key)
{
	for (int i = 0; i < b->nworkers; i++)
		if (b->workers[i].playing == key)
			return &b->workers[i];
	return NULL;
}

/* Runs a scan (clock 0) or a clock pass (clock 1) with b->passing set,
 * then wakes every worker: the pass may have queued many games.  Called
 * and returns under b->mu. */
static void pass(struct svc_bots *b, struct scan_ctx *x, int clock)
{
	b->passing = 1;
	pthread_mutex_unlock(&b->mu);
	if (clock)
		clock_pass(b, x);
	else
		scan(b, x);
	pthread_mutex_lock(&b->mu);
	b->passing = 0;
	pthread_cond_broadcast(&b->wake);
}

static void *worker_main(void *arg)
{
	struct bot_worker *w = arg;
	struct svc_bots *b = w->b;
	struct scan_ctx *x = malloc(sizeof *x);
	pthread_mutex_lock(&b->mu);
	while (!b->stopping) {
		if (store_shared(b->svc->st) &&
		    svc__now_ms() - b->shared_ms >= STORE_SHARED_RESCAN_MS) {
			/* Work another node left (store.h, "leases"): its
			 * bot turns, and deadlines it set or left due. */
			b->shared_ms = svc__now_ms();
			b->rescan = 1;
			b->due_scan = 1;
		}
		if (x && !b->passing && clock_due(b)) {
			pass(b, x, 1);
			continue;
		}
		if (x && !b->passing && b->len == 0 && b->ndue == 0 &&
		    b->rescan) {
			pass(b, x, 0);
			continue;
		}
		int tier = botq_next_tier(b);
		if (tier == TIERS) {
			wait_wake(b);
			continue;
		}
		struct bot_job j = botq_take(b, tier);
		struct bot_worker *other = holder(b, j.key);
		if (other) { /* never two at once: its holder goes again */
			other->again = 1;
			continue;
		}
		w->playing = j.key;
		w->share = j.share;
		w->bots_only = tier == TIER_BOTS;
		b->bots_playing += w->bots_only;
		pthread_mutex_unlock(&b->mu);
		play(b, j.key, &j.share);
		pthread_mutex_lock(&b->mu);
		w->playing = 0;
		b->bots_playing -= w->bots_only;
		if (w->again) {
			w->again = 0;
			botq_push(b, j.key, &w->share);
			pthread_cond_signal(&b->wake);
		} else if (w->bots_only && b->queued[TIER_BOTS]) {
			/* a worker held back by the bound may go now */
			pthread_cond_signal(&b->wake);
		}
	}
	pthread_mutex_unlock(&b->mu);
	free(x);
	return NULL;
}

/* Frees b's queues and b (NULL: a no-op). */
static void bots_free(struct svc_bots *b)
{
	if (!b)
		return;
	free(b->jobs);
	free(b->due);
	for (int t = 0; t < TIERS; t++) {
		free(b->rounds[t].nets);
		free(b->rounds[t].owners);
	}
	free(b);
}

int service_bots_start(struct service *svc, unsigned max_ms, size_t queue,
                       int workers)
{
	if (svc->bots)
		return 0;
	struct svc_bots *b = calloc(1, sizeof *b);
	size_t cap = queue ? queue : 1;
	int fail = !b;
	if (b) {
		b->jobs = calloc(cap, sizeof *b->jobs);
		b->due = calloc(cap, sizeof *b->due);
		fail = !b->jobs || !b->due;
		for (int t = 0; t < TIERS; t++) {
			b->rounds[t].nets = calloc(cap, sizeof(int64_t));
			b->rounds[t].owners =
			    calloc(cap, sizeof(struct bot_served));
			fail |= !b->rounds[t].nets || !b->rounds[t].owners;
		}
	}
	if (fail) {
		bots_free(b);
		return BD_ENOMEM;
	}
	b->svc = svc;
	b->max_ms = max_ms;
	b->cap = cap;
	b->rescan = 1;   /* bot turns left pending by the last run */
	b->due_scan = 1; /* deadlines that passed while the server was down */
	if (pthread_mutex_init(&b->mu, NULL) != 0) {
		bots_free(b);
		return BD_EINTERNAL;
	}
	if (pthread_cond_init(&b->wake, NULL) != 0) {
		pthread_mutex_destroy(&b->mu);
		bots_free(b);
		return BD_EINTERNAL;
	}
	/* Published before the threads run, so no wake-up is missed. */
	svc->bots = b;
	if (workers < 1)
		workers = 1;
	if (workers > BOTS_MAX_WORKERS)
		workers = BOTS_MAX_WORKERS;
	pthread_mutex_lock(&b->mu);
	for (int i = 0; i < workers; i++) {
		struct bot_worker *w = &b->workers[i];
		w->b = b;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
			break;
		b->nworkers++;
	}
	int started = b->nworkers;
	pthread_mutex_unlock(&b->mu);
	if (started == 0) {
		svc->bots = NULL;
		pthread_cond_destroy(&b->wake);
		pthread_mutex_destroy(&b->mu);
		bots_free(b);
		return BD_EINTERNAL;
	}
	return 0;
}

void service_bots_stop(struct service *svc)
{
	struct svc_bots *b = svc->bots;
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->stopping = 1;
	pthread_cond_broadcast(&b->wake);
	int n = b->nworkers;
	pthread_mutex_unlock(&b->mu);
	for (int i = 0; i < n; i++)
		pthread_join(b->workers[i].thread, NULL);
	svc->bots = NULL;
	pthread_cond_destroy(&b->wake);
	pthread_mutex_destroy(&b->mu);
	bots_free(b);
}
