/* conns.c: the connection table and its thread.  See conns.h.
 *
 * Waiting connections form one list in the order they started waiting.
 * Every deadline is "started waiting + timeout_ms", so that order is also
 * deadline order: the head is always the next to expire, and the thread
 * only ever looks at the head.  One mutex guards the list and counts. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "conns.h"
#include "monoclock.h"

struct conn_entry {
	int fd;                         /* the connection's socket */
	int64_t since_ms;               /* when it started waiting */
	int waiting;                    /* 1: on the list */
	int cut;                        /* 1: shut down here; never re-listed */
	struct conn_entry *prev, *next; /* the waiting list */
};

struct conns {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* the thread sleeps here */
	pthread_t thread;
	int stop;            /* 1: the thread must exit */
	unsigned timeout_ms; /* longest wait for a whole request */
	unsigned high_water; /* open connections that mean "near the limit" */
	unsigned grace_ms;   /* shortest wait before a cut near the limit */
	unsigned open;       /* connections between conns_open and _close */
	struct conn_entry *head, *tail; /* waiting, oldest first */
};

/* ---- the waiting list (callers hold mu) ---- */

static void unlink_entry(struct conns *cs, struct conn_entry *e)
{
	if (!e->waiting)
		return;
	if (e->prev)
		e->prev->next = e->next;
	else
		cs->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		cs->tail = e->prev;
	e->prev = e->next = NULL;
	e->waiting = 0;
}

static void append(struct conns *cs, struct conn_entry *e)
{
	if (e->cut)
		return;
	unlink_entry(cs, e);
	e->since_ms = mono_now_ms();
	e->prev = cs->tail;
	if (cs->tail)
		cs->tail->next = e;
	else
		cs->head = e;
	cs->tail = e;
	e->waiting = 1;
	if (cs->head == e)
		pthread_cond_signal(&cs->cv); /* a new earliest deadline */
}

/* ---- the thread ---- */

/* When the head must be cut: its deadline, or near the limit sooner. */
static int64_t cut_at(const struct conns *cs, const struct conn_entry *e)
{
	if (cs->open >= cs->high_water)
		return e->since_ms + cs->grace_ms;
	return e->since_ms + cs->timeout_ms;
}

static void *conns_main(void *arg)
{
	struct conns *cs = arg;
	pthread_mutex_lock(&cs->mu);
	while (!cs->stop) {
		struct conn_entry *e = cs->head;
		if (!e) {
			pthread_cond_wait(&cs->cv, &cs->mu);
			continue;
		}
		int64_t at = cut_at(cs, e);
		if (at > mono_now_ms()) {
			mono_cond_wait_until(&cs->cv, &cs->mu, at);
			continue;
		}
		/* The library closes the connection in its own thread once
		 * it sees the socket end; until conns_close the descriptor
		 * is still the connection's (see conns.h). */
		shutdown(e->fd, SHUT_RDWR);
		unlink_entry(cs, e);
		e->cut = 1;
	}
	pthread_mutex_unlock(&cs->mu);
	return NULL;
}

/* ---- the interface ---- */

struct conns *conns_new(unsigned timeout_ms, unsigned high_water,
                        unsigned grace_ms)
{
	struct conns *cs = calloc(1, sizeof *cs);
	if (!cs)
		return NULL;
	cs->timeout_ms = timeout_ms;
	cs->high_water = high_water;
	cs->grace_ms = grace_ms;
	if (pthread_mutex_init(&cs->mu, NULL) != 0)
		goto out_free;
	if (mono_cond_init(&cs->cv) < 0)
		goto out_mutex;
	if (pthread_create(&cs->thread, NULL, conns_main, cs) != 0)
		goto out_cond;
	return cs;
out_cond:
	pthread_cond_destroy(&cs->cv);
out_mutex:
	pthread_mutex_destroy(&cs->mu);
out_free:
	free(cs);
	return NULL;
}

unsigned conns_count(struct conns *cs)
{
	pthread_mutex_lock(&cs->mu);
	unsigned n = cs->open;
	pthread_mutex_unlock(&cs->mu);
	return n;
}

void conns_free(struct conns *cs)
{
	if (!cs)
		return;
	pthread_mutex_lock(&cs->mu);
	cs->stop = 1;
	pthread_cond_signal(&cs->cv);
	pthread_mutex_unlock(&cs->mu);
	pthread_join(cs->thread, NULL);
	pthread_cond_destroy(&cs->cv);
	pthread_mutex_destroy(&cs->mu);
	free(cs);
}

struct conn_entry *conns_open(struct conns *cs, int fd)
{
	struct conn_entry *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->fd = fd;
	pthread_mutex_lock(&cs->mu);
	cs->open++;
	append(cs, e);
	if (cs->open >= cs->high_water)
		pthread_cond_signal(&cs->cv); /* the head's cut comes sooner */
	pthread_mutex_unlock(&cs->mu);
	return e;
}

void conns_busy(struct conns *cs, struct conn_entry *e)
{
	if (!e)
		return;
	pthread_mutex_lock(&cs->mu);
	unlink_entry(cs, e);
	pthread_mutex_unlock(&cs->mu);
}

void conns_idle(struct conns *cs, struct conn_entry *e)
{
	if (!e)
		return;
	pthread_mutex_lock(&cs->mu);
	append(cs, e);
	pthread_mutex_unlock(&cs->mu);
}

void conns_close(struct conns *cs, struct conn_entry *e)
{
	if (!e)
		return;
	pthread_mutex_lock(&cs->mu);
	unlink_entry(cs, e);
	cs->open--;
	pthread_mutex_unlock(&cs->mu);
	free(e);
}
