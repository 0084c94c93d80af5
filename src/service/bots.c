/* bots.c: the bot worker, which plays the seats bots hold (bot.h).
 *
 * One thread and one bounded queue of game keys.  A key is queued when a
 * committed move, a join or a creation leaves a bot seat to act
 * (svc__bots_wake); the worker loads the game, lets the bot choose for the
 * lowest such seat and posts the choice as svc__move_as does for any
 * client that sends expected_seq: with the seq it read, so a move that
 * landed meanwhile makes it load and decide again.  The move is logged
 * like a player's and announced to every live stream; a replay never runs
 * a bot.  After each move the game goes to the back of the queue if a bot
 * is still to act, so bot-vs-bot games share the worker.
 *
 * The queue never blocks a request thread: when it is full, the key is
 * dropped and the worker later rescans the store (store_bot_games_each),
 * as it does at start, which is how bot turns pending before a restart
 * are played.  A game whose bot fails (the bot or the engine refuses, the
 * store fails) is logged on stderr and its bots are left alone until the
 * server restarts: a broken bot must not spin the worker.
 *
 * The bot's seed comes from libsodium's randombytes, fresh per decision:
 * nothing a player can see or compute (a hash of the game id and seq
 * would let an opponent re-run the bot and learn from its choice what it
 * holds), and nothing tied to the game's own secret seed (the bot would
 * then correlate with the deck it must not see).  Bot moves need no
 * reproducible seed: the log records them. */
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bot/bot.h"
#include "internal.h"

#define BOTS_STOPPED 256  /* games whose bots failed, remembered */
#define BOTS_PAGE    1000 /* most games one store scan returns */
#define BOTS_RETRIES 8    /* lost races or a busy store, per decision */

struct svc_bots {
	struct service *svc; /* borrowed */
	unsigned max_ms;     /* each decision's wall-clock cap; 0: level's */
	pthread_t thread;
	pthread_mutex_t mu; /* guards everything below but `stopped` */
	pthread_cond_t wake;
	int64_t *queue; /* a ring of game keys, each at most once */
	size_t cap, head, len;
	int rescan;         /* 1: scan the store once the queue is empty */
	int64_t scan_after; /* the scan pass's cursor: keys above it are
	                       next; 0: the next page starts a pass */
	int dropped;        /* 1: a wake-up was dropped during this pass */
	int stopping;       /* 1: the thread is to return */
	/* Only the worker thread touches these: the games whose bots failed
	 * (a ring; the oldest is forgotten first). */
	int64_t stopped[BOTS_STOPPED];
	size_t nstopped;
};

/* 1 if key is queued.  Under b->mu. */
static int queued(const struct svc_bots *b, int64_t key)
{
	for (size_t i = 0; i < b->len; i++)
		if (b->queue[(b->head + i) % b->cap] == key)
			return 1;
	return 0;
}

/* Queues key unless it is there; a full queue asks for a rescan.  Under
 * b->mu. */
static void push(struct svc_bots *b, int64_t key)
{
	if (queued(b, key))
		return;
	if (b->len == b->cap) {
		b->rescan = 1;
		b->dropped = 1;
		return;
	}
	b->queue[(b->head + b->len) % b->cap] = key;
	b->len++;
}

void svc__bots_wake(struct service *svc, int64_t key)
{
	struct svc_bots *b = svc->bots;
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	if (!b->stopping) {
		push(b, key);
		pthread_cond_signal(&b->wake);
	}
	pthread_mutex_unlock(&b->mu);
}

int svc__bot_of(const char *bots, int seat, struct bot_spec *out)
{
	json_t *a = bots ? json_loads(bots, 0, NULL) : NULL;
	size_t i;
	json_t *e;
	int rc = a ? BD_ENOTFOUND : BD_EINTERNAL;
	json_array_foreach(a, i, e)
	{
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

/* ---- the games whose bots failed (worker thread only) ---- */

static int is_stopped(const struct svc_bots *b, int64_t key)
{
	size_t n = b->nstopped < BOTS_STOPPED ? b->nstopped : BOTS_STOPPED;
	for (size_t i = 0; i < n; i++)
		if (b->stopped[i] == key)
			return 1;
	return 0;
}

static void stop_game(struct svc_bots *b, int64_t key)
{
	b->stopped[b->nstopped++ % BOTS_STOPPED] = key;
}

/* ---- one decision ---- */

/* Why play_once stopped a game's bots, for the log. */
struct bot_failure {
	int seat;
	char id[STORE_ID_LEN + 1];
	char detail[BD_DETAIL_LEN];
};

/* Lets the bot of the lowest bot seat to act in game `key` choose, and
 * posts its move.  0 when it moved or nothing was to do; BD_ESTALE when
 * another move landed first; other codes are failures (*why says which
 * seat and game). */
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

/* Plays one bot move of game `key` (svc__move_as queues the game again
 * when a bot is still to act), retrying lost races and a busy store a few
 * times before it queues the game again. */
static void play(struct svc_bots *b, int64_t key)
{
	if (is_stopped(b, key))
		return;
	struct bot_failure why = {.seat = -1};
	int rc = BD_ESTALE;
	for (int i = 0; i < BOTS_RETRIES; i++) {
		rc = play_once(b, key, &why);
		if (rc != BD_ESTALE && rc != BD_EBUSY)
			break;
	}
	if (rc == 0)
		return;
	if (rc == BD_ESTALE || rc == BD_EBUSY) {
		/* Lost every race (people keep moving, or the store is
		 * busy): not a failure; back of the queue. */
		svc__bots_wake(b->svc, key);
		return;
	}
	fprintf(stderr,
	        "boardd: bot of seat %d in game %s stopped until restart: "
	        "%s\n",
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
		fprintf(stderr,
		        "boardd: the bot worker's scan failed (bd_err %d); "
		        "retrying\n",
		        rc);
		sleep(1);
		return;
	}
	pthread_mutex_lock(&b->mu);
	for (int i = 0; i < x->n; i++)
		push(b, x->keys[i]);
	if (x->n == room) { /* a full page: more may follow */
		b->scan_after = x->keys[x->n - 1];
	} else { /* the pass is over */
		b->scan_after = 0;
		b->rescan = b->dropped;
	}
	pthread_mutex_unlock(&b->mu);
}

static void *worker_main(void *arg)
{
	struct svc_bots *b = arg;
	struct scan_ctx *x = malloc(sizeof *x);
	pthread_mutex_lock(&b->mu);
	while (!b->stopping) {
		if (b->len == 0 && b->rescan && x) {
			pthread_mutex_unlock(&b->mu);
			scan(b, x);
			pthread_mutex_lock(&b->mu);
			continue;
		}
		if (b->len == 0) {
			pthread_cond_wait(&b->wake, &b->mu);
			continue;
		}
		int64_t key = b->queue[b->head];
		b->head = (b->head + 1) % b->cap;
		b->len--;
		pthread_mutex_unlock(&b->mu);
		play(b, key);
		pthread_mutex_lock(&b->mu);
	}
	pthread_mutex_unlock(&b->mu);
	free(x);
	return NULL;
}

int service_bots_start(struct service *svc, unsigned max_ms, size_t queue)
{
	if (svc->bots)
		return 0;
	struct svc_bots *b = calloc(1, sizeof *b);
	if (b)
		b->queue = calloc(queue ? queue : 1, sizeof *b->queue);
	if (!b || !b->queue) {
		free(b);
		return BD_ENOMEM;
	}
	b->svc = svc;
	b->max_ms = max_ms;
	b->cap = queue ? queue : 1;
	b->rescan = 1; /* bot turns left pending by the last run */
	if (pthread_mutex_init(&b->mu, NULL) != 0) {
		free(b->queue);
		free(b);
		return BD_EINTERNAL;
	}
	if (pthread_cond_init(&b->wake, NULL) != 0) {
		pthread_mutex_destroy(&b->mu);
		free(b->queue);
		free(b);
		return BD_EINTERNAL;
	}
	/* Published before the thread runs, so no wake-up is missed. */
	svc->bots = b;
	if (pthread_create(&b->thread, NULL, worker_main, b) != 0) {
		svc->bots = NULL;
		pthread_cond_destroy(&b->wake);
		pthread_mutex_destroy(&b->mu);
		free(b->queue);
		free(b);
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
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->mu);
	pthread_join(b->thread, NULL);
	svc->bots = NULL;
	pthread_cond_destroy(&b->wake);
	pthread_mutex_destroy(&b->mu);
	free(b->queue);
	free(b);
}
