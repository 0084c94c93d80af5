/* store_pool.c: the store's connections, whichever backend: the read
 * pool (checkout, checkin, and the per-request pin of store_pin) and the
 * write path (one write connection, group commit: store.h, "Group
 * commit"; docs/write-path.md), and the change listener it tells after
 * each commit (store_on_change).  See store_int.h. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../common/log.h"
#include "driver.h"
#include "store_int.h"

/* ---- the pool -------------------------------------------------------- */

/* The calling thread's pin (store_pin): its store, the connection once
 * a store call took one, and how deep the pins nest. */
static _Thread_local struct {
	struct store *s; /* the store pinned, or NULL */
	struct conn *c;  /* its connection, once taken; else NULL */
	int depth;       /* store_pin calls not yet undone */
	int busy;        /* 1 while a store call holds c */
} pin;

static struct conn *pool_take(struct store *s);
static void pool_give(struct store *s, struct conn *c);

void store_pin(struct store *s)
{
	if (!pin.s)
		pin.s = s;
	if (pin.s == s)
		pin.depth++;
}

void store_unpin(struct store *s)
{
	if (pin.s != s || --pin.depth > 0)
		return;
	struct conn *c = pin.c;
	pin.s = NULL;
	pin.c = NULL;
	pin.busy = 0;
	if (c)
		pool_give(s, c);
}

/* The pinned connection of s if this thread pinned s and no call holds
 * it, else a pooled one (blocking until one is free). */
struct conn *store__checkout(struct store *s)
{
	if (pin.s != s || pin.busy)
		return pool_take(s);
	if (!pin.c)
		pin.c = pool_take(s);
	pin.busy = 1;
	return pin.c;
}

/* Gives the calling thread's pinned connection of s back to the pool
 * when no call holds it, so that a request waiting for its write holds
 * no read connection meanwhile (the batch's leader may need one); the
 * pin stays, and its next read takes a connection again. */
static void pin_drop(struct store *s)
{
	if (pin.s != s || pin.busy || !pin.c)
		return;
	struct conn *c = pin.c;
	pin.c = NULL;
	pool_give(s, c);
}

void store__checkin(struct store *s, struct conn *c)
{
	if (pin.s == s && c == pin.c)
		pin.busy = 0; /* kept until store_unpin */
	else
		pool_give(s, c);
}

/* Connects c, a slot of the pool that pool_take reserved (checked out,
 * never connected), outside the pool's mutex.  0, or -1 with c left
 * unconnected and the reason logged. */
static int pool_connect(struct store *s, struct conn *c)
{
	char err[256] = "";
	if (s->drv->connect(s, c, &s->cfg, err, sizeof err) == 0)
		return 0;
	s->drv->close(c); /* what connect opened before it failed */
	log_error("store", "cannot open another read connection (%s): "
	          "reads wait for an open one", err);
	return -1;
}

/* Blocks until a connection is free and takes it: an open one if any is
 * free, else a slot never connected, which it connects now (store_open
 * opened only the first: most of a pool sized for every thread sits
 * unused).  A slot that fails to connect stays free and unconnected, to
 * be tried again by a later checkout that finds no open one free; the
 * caller meanwhile waits for an open one (conns[0] always is). */
static struct conn *pool_take(struct store *s)
{
	atomic_fetch_add_explicit(&s->checkouts, 1, memory_order_relaxed);
	pthread_mutex_lock(&s->mu);
	int tried = 0; /* 1 once this call failed to connect a slot */
	for (;;) {
		struct conn *fresh = NULL; /* a free slot not yet connected */
		for (int i = 0; i < s->nconns; i++) {
			struct conn *c = &s->conns[i];
			if (c->checked_out)
				continue;
			if (c->h) {
				c->checked_out = 1;
				pthread_mutex_unlock(&s->mu);
				return c;
			}
			if (!fresh)
				fresh = c;
		}
		if (fresh && !tried) {
			fresh->checked_out = 1;
			pthread_mutex_unlock(&s->mu);
			if (pool_connect(s, fresh) == 0)
				return fresh;
			tried = 1;
			pthread_mutex_lock(&s->mu);
			fresh->checked_out = 0;
			continue; /* an open one may have come back meanwhile */
		}
		pthread_cond_wait(&s->freed, &s->mu);
	}
}

static void pool_give(struct store *s, struct conn *c)
{
	pthread_mutex_lock(&s->mu);
	c->checked_out = 0;
	pthread_cond_signal(&s->freed);
	pthread_mutex_unlock(&s->mu);
}

/* ---- statements, through the connection's driver (driver.h) ------- */

int store__run(struct conn *c, enum stmt id, const struct arg *a, int n,
               row_fn fn, void *ctx)
{
	atomic_fetch_add_explicit(&c->runs, 1, memory_order_relaxed);
	return c->drv->run(c, id, a, n, fn, ctx);
}

int store__query_i64(struct conn *c, const char *sql, int64_t *v)
{
	atomic_fetch_add_explicit(&c->runs, 1, memory_order_relaxed);
	return c->drv->query_i64(c, sql, v);
}

int64_t store__changes(const struct conn *c)
{
	return c->drv->changes(c);
}

int store__in_tx(const struct conn *c)
{
	return c->drv->in_tx(c);
}

/* ---- transactions ---------------------------------------------------- */

/* Undoes the open transaction of c, if the database has not already
 * done so. */
static void tx_rollback(struct conn *c)
{
	if (store__in_tx(c))
		store__run(c, ST_ROLLBACK, NO_ARGS, NULL, NULL);
}

/* ---- the write path: bounded waits, file checks ------------------------ */

/* The time `ms` milliseconds from now on `clock`. */
static struct timespec clock_after_ms(clockid_t clock, int ms)
{
	struct timespec t;
	clock_gettime(clock, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* Notes on stderr when writes start or stop failing for lack of space
 * (once per change, not once per request). */
static void note_space(struct store *s, int rc)
{
	int out = rc == BD_ENOSPACE;
	if (atomic_exchange(&s->space_out, out) != out)
		log_error("store", "%s",
		          out ? "no space left for writes (disk full or file "
		                "size limit); reads go on"
		              : "writes succeed again");
}

/* ---- the change listener (store_on_change) ------------------------- */

void store__changes_tell(struct store *s, const int64_t *keys, int n)
{
	pthread_mutex_lock(&s->mu);
	store_change_fn fn = s->on_change;
	void *ctx = s->on_change_ctx;
	pthread_mutex_unlock(&s->mu);
	for (int i = 0; fn && i < n; i++)
		fn(ctx, keys[i]);
}

void store_on_change(struct store *s, store_change_fn fn, void *ctx)
{
	pthread_mutex_lock(&s->mu);
	s->on_change = fn;
	s->on_change_ctx = ctx;
	pthread_mutex_unlock(&s->mu);
}

/* ---- group commit (store.h, docs/write-path.md) ------------------------ */

/* Runs unit r inside the open batch transaction of c: SAVEPOINT, its
 * body, RELEASE; on a failure, ROLLBACK TO and RELEASE, so that nothing
 * of it stays.  r->rc gets its outcome (0: kept, for the COMMIT to
 * make durable) and r->touched the players it noted.  Returns 0 while
 * the batch's transaction is still open and usable, else the error
 * that ended it (the database rolled it all back, or the undo failed). */
static int unit_run(struct conn *c, struct write_req *r)
{
	c->ntouched = 0;
	int rc = store__run(c, ST_UNIT, NO_ARGS, NULL, NULL);
	if (rc == 0)
		rc = r->fn(c, r->ctx);
	if (rc == 0)
		rc = store__run(c, ST_UNIT_RELEASE, NO_ARGS, NULL, NULL);
	r->rc = rc;
	if (rc == 0) {
		memcpy(r->touched, c->touched,
		       (size_t)c->ntouched * sizeof *r->touched);
		r->ntouched = c->ntouched;
		return 0;
	}
	r->ntouched = 0;
	if (!store__in_tx(c))
		return rc; /* the whole transaction is gone */
	int undo = store__run(c, ST_UNIT_UNDO, NO_ARGS, NULL, NULL);
	if (undo == 0)
		undo = store__run(c, ST_UNIT_RELEASE, NO_ARGS, NULL, NULL);
	return undo;
}

/* The leader's work, with no lock held: runs the n units of batch in
 * one transaction and commits the ones that are kept.  Every r->rc is
 * final on return: 0 only for units of a batch whose COMMIT returned.
 * *committed: 1 if a COMMIT was run and returned. */
static void batch_run(struct store *s, struct write_req *batch, int *committed)
{
	struct conn *c = &s->writer;
	*committed = 0;
	int rc = s->drv->check(s);
	if (rc == 0) {
		s->write_deadline =
		    clock_after_ms(CLOCK_MONOTONIC, s->write_wait_ms);
		rc = store__run(c, ST_BEGIN, NO_ARGS, NULL, NULL);
	}
	atomic_store(&s->lock_waiting, 0);
	int kept = 0, space = 0;
	struct write_req *r = batch;
	for (; rc == 0 && r; r = r->next) {
		rc = unit_run(c, r);
		kept += r->rc == 0;
		space |= r->rc == BD_ENOSPACE;
	}
	if (rc == 0 && kept)
		rc = store__run(c, ST_COMMIT, NO_ARGS, NULL, NULL);
	/* A batch with no unit kept is rolled back: a COMMIT would write
	 * and sync the pages its undone units dirtied. */
	tx_rollback(c);
	/* Nothing of the batch is kept: every unit fails with its error,
	 * also one refused on its own (its refusal may rest on an earlier
	 * unit's writes, which are gone). */
	if (rc < 0)
		for (r = batch; r; r = r->next)
			r->rc = rc;
	space |= rc == BD_ENOSPACE;
	*committed = rc == 0 && kept;
	if (space || *committed)
		note_space(s, space ? BD_ENOSPACE : 0);
	/* Cleared here too: a busy wait later in the batch must not leave
	 * every later write refused. */
	atomic_store(&s->lock_waiting, 0);
}

/* With q_mu held and no leader: leads one batch of the queued writes
 * (q_mu is dropped while it runs), tells the listener, answers the
 * batch's callers, and gives up the role.  Returns with q_mu held. */
static void batch_lead(struct store *s)
{
	s->leading = 1;
	struct write_req *batch = s->q_head, *last = NULL;
	unsigned n = 0;
	for (struct write_req *r = batch; r && n < STORE_BATCH_MAX;
	     r = r->next, n++) {
		r->state = WR_TAKEN;
		r->rc = BD_EINTERNAL; /* until it ran */
		last = r;
	}
	s->q_head = last->next;
	if (!s->q_head)
		s->q_tail = &s->q_head;
	last->next = NULL;
	pthread_mutex_unlock(&s->q_mu);

	int committed;
	batch_run(s, batch, &committed);
	/* Commit order: batches run one at a time, units in queue order. */
	for (struct write_req *r = batch; committed && r; r = r->next)
		if (r->rc == 0)
			store__changes_tell(s, r->touched, r->ntouched);

	pthread_mutex_lock(&s->q_mu);
	s->stats.units += n;
	s->stats.batches++;
	s->stats.commits += (uint64_t)committed;
	s->stats.rolled_back += (uint64_t)!committed;
	if (n > s->stats.largest)
		s->stats.largest = n;
	for (struct write_req *r = batch, *next; r; r = next) {
		next = r->next; /* r is freed once its caller sees WR_DONE */
		r->state = WR_DONE;
		/* Under q_mu: its caller cannot see WR_DONE (and free r)
		 * before this returns. */
		pthread_cond_signal(&r->cv);
	}
	s->leading = 0;
	/* The batch's callers return; the oldest queued one leads next. */
	if (s->q_head)
		pthread_cond_signal(&s->q_head->cv);
}

/* Unlinks queued request r (q_mu held). */
static void queue_remove(struct store *s, struct write_req *r)
{
	struct write_req **p = &s->q_head;
	while (*p != r)
		p = &(*p)->next;
	*p = r->next;
	if (s->q_tail == &r->next)
		s->q_tail = p;
}

int store__write_tx(struct store *s, tx_fn fn, void *ctx)
{
	/* While the leader waits for another process's lock, new writes do
	 * not queue (each queued one would hold a write worker). */
	if (atomic_load(&s->lock_waiting))
		return BD_EBUSY;
	pin_drop(s);
	struct write_req r = {.fn = fn, .ctx = ctx, .state = WR_QUEUED};
	if (pthread_cond_init(&r.cv, &s->q_ca))
		return BD_ENOMEM;
	struct timespec until =
	    clock_after_ms(CLOCK_MONOTONIC, s->write_wait_ms);
	pthread_mutex_lock(&s->q_mu);
	*s->q_tail = &r;
	s->q_tail = &r.next;
	while (r.state != WR_DONE) {
		if (r.state == WR_QUEUED && !s->leading) {
			batch_lead(s); /* takes r too */
			continue;
		}
		if (r.state == WR_TAKEN) { /* its batch's outcome is owed */
			pthread_cond_wait(&r.cv, &s->q_mu);
			continue;
		}
		/* Timed out while still queued behind a running batch: it
		 * leaves (a wake to lead that came with the timeout leads). */
		if (pthread_cond_timedwait(&r.cv, &s->q_mu, &until) ==
		        ETIMEDOUT &&
		    r.state == WR_QUEUED && s->leading) {
			queue_remove(s, &r);
			r.rc = BD_EBUSY; /* not taken in time: nothing ran */
			break;
		}
	}
	pthread_mutex_unlock(&s->q_mu);
	pthread_cond_destroy(&r.cv);
	return r.rc;
}

void store_write_stats(struct store *s, struct store_write_stats *out)
{
	pthread_mutex_lock(&s->q_mu);
	*out = s->stats;
	unsigned queued = 0;
	for (struct write_req *r = s->q_head; r; r = r->next)
		queued++;
	out->queued = queued;
	pthread_mutex_unlock(&s->q_mu);
}

void store_counts(struct store *s, struct store_counts *out)
{
	uint64_t n =
	    atomic_load_explicit(&s->writer.runs, memory_order_relaxed);
	for (int i = 0; i < s->nconns; i++)
		n += atomic_load_explicit(&s->conns[i].runs,
		                          memory_order_relaxed);
	struct store_write_stats w;
	store_write_stats(s, &w);
	*out = (struct store_counts){.statements = n,
	                             .checkouts = atomic_load_explicit(
	                                 &s->checkouts, memory_order_relaxed),
	                             .units = w.units};
}

int store_check(struct store *s)
{
	return s->drv->check(s);
}
