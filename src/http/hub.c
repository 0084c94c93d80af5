/* hub.c: per-game waiter lists, the deadline timer, wake and shutdown.
 * See hub.h.
 *
 * One mutex guards everything.  Lock order: a content reader holds its
 * response's mutex when it calls hub_take, which takes the hub's mutex
 * and then (inside MHD_suspend_connection) the worker's connection
 * mutex.  Wakers never call MHD_resume_connection with the hub's mutex
 * held: under the mutex they clear `suspended` and chain the waiter on a
 * private list; after unlocking they resume the chain.  That is safe
 * because a suspended connection cannot run, finish or be freed until
 * resumed, and only the waker that cleared the flag resumes it. */
#include <errno.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>

#include "hub.h"
#include "monoclock.h"

#define HUB_BUCKETS 1024 /* game lists, hashed by store key */

struct hub {
	pthread_mutex_t mu;
	pthread_cond_t timer_cv; /* the timer thread sleeps here */
	pthread_cond_t drain_cv; /* hub_drain sleeps here */
	pthread_t timer;
	int stop;      /* 1: the timer thread must exit */
	int closing;   /* 1: after hub_shutdown */
	size_t joined; /* waiters between join and leave */
	struct hub_waiter *buckets[HUB_BUCKETS];
	struct hub_waiter **heap; /* min-heap on deadline_ms */
	size_t heap_len, heap_cap;
	size_t suspended;          /* waiters held suspended now */
	int64_t next_poll_ms;      /* next look for clients gone */
	struct pollfd *pfd;        /* scratch for hangup_poll */
	struct hub_waiter **pfd_w; /* the waiter of each pfd */
	size_t pfd_cap;
};

static struct hub_waiter **bucket_of(struct hub *h, int64_t key)
{
	return &h->buckets[(uint64_t)key % HUB_BUCKETS];
}

/* ---- the deadline heap ---- */

static void heap_set(struct hub *h, size_t i, struct hub_waiter *w)
{
	h->heap[i] = w;
	w->heap_pos = i + 1;
}

static void heap_up(struct hub *h, size_t i)
{
	struct hub_waiter *w = h->heap[i];
	while (i > 0 && h->heap[(i - 1) / 2]->deadline_ms > w->deadline_ms) {
		heap_set(h, i, h->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_set(h, i, w);
}

static void heap_down(struct hub *h, size_t i)
{
	struct hub_waiter *w = h->heap[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->heap_len)
			break;
		if (c + 1 < h->heap_len &&
		    h->heap[c + 1]->deadline_ms < h->heap[c]->deadline_ms)
			c++;
		if (h->heap[c]->deadline_ms >= w->deadline_ms)
			break;
		heap_set(h, i, h->heap[c]);
		i = c;
	}
	heap_set(h, i, w);
}

/* Adds w (not in the heap); -1 when out of memory. */
static int heap_push(struct hub *h, struct hub_waiter *w)
{
	if (h->heap_len == h->heap_cap) {
		size_t cap = h->heap_cap ? 2 * h->heap_cap : 64;
		struct hub_waiter **nh = realloc(h->heap, cap * sizeof *nh);
		if (!nh)
			return -1;
		h->heap = nh;
		h->heap_cap = cap;
	}
	heap_set(h, h->heap_len++, w);
	heap_up(h, h->heap_len - 1);
	if (w->heap_pos == 1)
		pthread_cond_signal(&h->timer_cv); /* a new earliest deadline */
	return 0;
}

static void heap_remove(struct hub *h, struct hub_waiter *w)
{
	if (!w->heap_pos)
		return;
	size_t i = w->heap_pos - 1;
	struct hub_waiter *last = h->heap[--h->heap_len];
	w->heap_pos = 0;
	if (last == w)
		return;
	heap_set(h, i, last);
	heap_up(h, i);
	heap_down(h, last->heap_pos - 1);
}

/* ---- waking ---- */

/* Marks bits on w; if the hub holds w suspended, chains it on *list for
 * resume_all (to be called after unlocking). */
static void fire(struct hub *h, struct hub_waiter *w, unsigned bits,
                 struct hub_waiter **list)
{
	w->fired |= bits;
	if (!w->suspended)
		return;
	w->suspended = 0;
	h->suspended--;
	w->resume_next = *list;
	*list = w;
}

/* Resumes each chained connection.  Reads the link before resuming: a
 * resumed connection may finish and free its waiter at once. */
static void resume_all(struct hub_waiter *list)
{
	while (list) {
		struct hub_waiter *next = list->resume_next;
		MHD_resume_connection(list->conn);
		list = next;
	}
}

void hub_on_move(void *hub, int64_t key, uint64_t seq)
{
	struct hub *h = hub;
	struct hub_waiter *list = NULL;
	pthread_mutex_lock(&h->mu);
	if (key == HUB_EVERY_KEY) { /* anything may have changed */
		for (size_t b = 0; b < HUB_BUCKETS; b++)
			for (struct hub_waiter *w = h->buckets[b]; w;
			     w = w->next)
				fire(h, w, HUB_MOVE, &list);
	} else {
		for (struct hub_waiter *w = *bucket_of(h, key); w; w = w->next)
			/* seq == after: the game changed without a move (a
			 * seat was taken); waiters look again. */
			if (w->key == key && seq >= w->after)
				fire(h, w, HUB_MOVE, &list);
	}
	pthread_mutex_unlock(&h->mu);
	resume_all(list);
}

void hub_on_revoke(struct hub *h, int64_t owner)
{
	struct hub_waiter *list = NULL;
	if (owner <= 0)
		return;
	pthread_mutex_lock(&h->mu);
	for (size_t b = 0; b < HUB_BUCKETS; b++)
		for (struct hub_waiter *w = h->buckets[b]; w; w = w->next)
			if (w->owner == owner)
				fire(h, w, HUB_MOVE, &list);
	pthread_mutex_unlock(&h->mu);
	resume_all(list);
}

int hub_is_live(struct hub *h, int64_t key, int64_t player_key)
{
	int live = 0;
	if (player_key <= 0 || key == HUB_EVERY_KEY)
		return 0;
	pthread_mutex_lock(&h->mu);
	for (struct hub_waiter *w = *bucket_of(h, key); w && !live; w = w->next)
		live = w->key == key && w->owner == player_key &&
		       !(w->fired & HUB_GONE);
	pthread_mutex_unlock(&h->mu);
	return live;
}

/* ---- the timer thread ---- */

/* Fires HUB_GONE on every suspended waiter whose client closed its
 * connection.  A suspended connection cannot run, finish or be freed
 * (hub.c's header comment), so its socket is still its own here. */
static void hangup_poll(struct hub *h, struct hub_waiter **list)
{
	if (h->pfd_cap < h->suspended) {
		size_t cap = h->suspended + 64;
		struct pollfd *p = realloc(h->pfd, cap * sizeof *p);
		if (p)
			h->pfd = p;
		struct hub_waiter **pw =
		    p ? realloc(h->pfd_w, cap * sizeof *pw) : NULL;
		if (pw)
			h->pfd_w = pw;
		if (!p || !pw)
			return; /* no memory: look again next time */
		h->pfd_cap = cap;
	}
	size_t n = 0;
	for (size_t i = 0; i < HUB_BUCKETS; i++)
		for (struct hub_waiter *w = h->buckets[i]; w; w = w->next)
			if (w->suspended && w->fd >= 0 && n < h->pfd_cap) {
				h->pfd[n] =
				    (struct pollfd){w->fd, POLLRDHUP, 0};
				h->pfd_w[n++] = w;
			}
	if (n == 0 || poll(h->pfd, n, 0) <= 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (h->pfd[i].revents & (POLLRDHUP | POLLHUP | POLLERR))
			fire(h, h->pfd_w[i], HUB_GONE, list);
}

static void *timer_main(void *arg)
{
	struct hub *h = arg;
	pthread_mutex_lock(&h->mu);
	while (!h->stop) {
		struct hub_waiter *list = NULL;
		int64_t now = mono_now_ms();
		while (h->heap_len && h->heap[0]->deadline_ms <= now) {
			struct hub_waiter *w = h->heap[0];
			heap_remove(h, w);
			w->deadline_ms = 0;
			fire(h, w, HUB_TIMEOUT, &list);
		}
		if (h->suspended && now >= h->next_poll_ms) {
			hangup_poll(h, &list);
			h->next_poll_ms = now + HUB_HANGUP_POLL_MS;
		}
		int64_t wake = h->heap_len ? h->heap[0]->deadline_ms : 0;
		if (h->suspended && (!wake || h->next_poll_ms < wake))
			wake = h->next_poll_ms;
		if (list) {
			pthread_mutex_unlock(&h->mu);
			resume_all(list);
			pthread_mutex_lock(&h->mu);
		} else if (wake) {
			mono_cond_wait_until(&h->timer_cv, &h->mu, wake);
		} else {
			pthread_cond_wait(&h->timer_cv, &h->mu);
		}
	}
	pthread_mutex_unlock(&h->mu);
	return NULL;
}

/* ---- lifecycle ---- */

struct hub *hub_new(void)
{
	struct hub *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	if (pthread_mutex_init(&h->mu, NULL) != 0)
		goto out_free;
	if (mono_cond_init(&h->timer_cv) < 0)
		goto out_mutex;
	if (mono_cond_init(&h->drain_cv) < 0)
		goto out_timer_cv;
	if (pthread_create(&h->timer, NULL, timer_main, h) != 0)
		goto out_drain_cv;
	return h;
out_drain_cv:
	pthread_cond_destroy(&h->drain_cv);
out_timer_cv:
	pthread_cond_destroy(&h->timer_cv);
out_mutex:
	pthread_mutex_destroy(&h->mu);
out_free:
	free(h);
	return NULL;
}

void hub_free(struct hub *h)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = 1;
	pthread_cond_signal(&h->timer_cv);
	pthread_mutex_unlock(&h->mu);
	pthread_join(h->timer, NULL);
	pthread_cond_destroy(&h->drain_cv);
	pthread_cond_destroy(&h->timer_cv);
	pthread_mutex_destroy(&h->mu);
	free(h->heap);
	free(h->pfd);
	free(h->pfd_w);
	free(h);
}

/* ---- waiters ---- */

int hub_join(struct hub *h, struct hub_waiter *w, struct MHD_Connection *c,
             int64_t key, uint64_t after, int64_t deadline_ms, unsigned fired,
             int64_t owner)
{
	pthread_mutex_lock(&h->mu);
	if (h->closing) {
		pthread_mutex_unlock(&h->mu);
		return HUB_SHUTDOWN;
	}
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	*w = (struct hub_waiter){.conn = c,
	                         .fd = ci ? ci->connect_fd : -1,
	                         .key = key,
	                         .owner = owner,
	                         .after = after,
	                         .deadline_ms = deadline_ms,
	                         .fired = fired};
	if (deadline_ms && heap_push(h, w) < 0) {
		pthread_mutex_unlock(&h->mu);
		return -1;
	}
	struct hub_waiter **b = bucket_of(h, key);
	w->next = *b;
	if (*b)
		(*b)->prev = w;
	*b = w;
	w->joined = 1;
	h->joined++;
	pthread_mutex_unlock(&h->mu);
	return 0;
}

unsigned hub_take(struct hub *h, struct hub_waiter *w)
{
	pthread_mutex_lock(&h->mu);
	unsigned bits = w->fired | (h->closing ? HUB_SHUTDOWN : 0);
	w->fired = 0;
	if (!bits) {
		/* Under the mutex, so no waker can see `suspended` before the
		 * library has the connection suspended. */
		w->suspended = 1;
		if (h->suspended++ == 0)
			pthread_cond_signal(&h->timer_cv); /* watch it */
		MHD_suspend_connection(w->conn);
	}
	pthread_mutex_unlock(&h->mu);
	return bits;
}

void hub_set_deadline(struct hub *h, struct hub_waiter *w, int64_t deadline_ms)
{
	pthread_mutex_lock(&h->mu);
	if (w->joined) {
		heap_remove(h, w);
		w->deadline_ms = deadline_ms;
		if (deadline_ms && heap_push(h, w) < 0)
			w->fired |= HUB_TIMEOUT; /* no room: fire it now */
	}
	pthread_mutex_unlock(&h->mu);
}

void hub_leave(struct hub *h, struct hub_waiter *w)
{
	pthread_mutex_lock(&h->mu);
	if (w->joined) {
		heap_remove(h, w);
		if (w->prev)
			w->prev->next = w->next;
		else
			*bucket_of(h, w->key) = w->next;
		if (w->next)
			w->next->prev = w->prev;
		w->prev = w->next = NULL;
		w->joined = 0;
		w->fired = 0;
		if (--h->joined == 0)
			pthread_cond_broadcast(&h->drain_cv);
	}
	pthread_mutex_unlock(&h->mu);
}

void hub_shutdown(struct hub *h)
{
	struct hub_waiter *list = NULL;
	pthread_mutex_lock(&h->mu);
	h->closing = 1;
	for (size_t i = 0; i < HUB_BUCKETS; i++)
		for (struct hub_waiter *w = h->buckets[i]; w; w = w->next)
			fire(h, w, HUB_SHUTDOWN, &list);
	pthread_mutex_unlock(&h->mu);
	resume_all(list);
}

size_t hub_joined(struct hub *h)
{
	pthread_mutex_lock(&h->mu);
	size_t n = h->joined;
	pthread_mutex_unlock(&h->mu);
	return n;
}

size_t hub_drain(struct hub *h, int timeout_ms)
{
	int64_t end = mono_now_ms() + timeout_ms;
	pthread_mutex_lock(&h->mu);
	while (h->joined && mono_now_ms() < end) {
		if (mono_cond_wait_until(&h->drain_cv, &h->mu, end) ==
		    ETIMEDOUT)
			break;
	}
	size_t left = h->joined;
	pthread_mutex_unlock(&h->mu);
	return left;
}
