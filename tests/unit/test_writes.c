/* test_writes.c: the write-worker pool (src/http/writes.h) on its own:
 * jobs run on the workers, writes_close waits for every reserved job, and
 * a pool closed but not yet freed keeps refusing (writes_begin -1), as a
 * keep-alive request arriving between writes_close and MHD_stop_daemon in
 * http_server_stop needs (it used to read a freed pool); the pool starts
 * one thread and grows to as many as the jobs waiting at once, never past
 * its maximum. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "http/writes.h"
#include "testhelp.h"

#define JOBS 64

static atomic_int ran;

struct counted {
	struct write_job job; /* first: a write_job * is its address */
	int slow;
};

static void count_job(struct write_job *job)
{
	struct counted *c = (struct counted *)job;
	if (c->slow)
		usleep(2000);
	atomic_fetch_add(&ran, 1);
}

/* A job that blocks until the gate opens: how many run at once. */
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate_open, inside;

static void gated_job(struct write_job *job)
{
	(void)job;
	pthread_mutex_lock(&gate_mu);
	inside++;
	pthread_cond_broadcast(&gate_cv);
	while (!gate_open)
		pthread_cond_wait(&gate_cv, &gate_mu);
	inside--;
	pthread_mutex_unlock(&gate_mu);
}

/* Waits (up to 10 s) until n gated jobs are inside at once. */
static int wait_inside(int n)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	pthread_mutex_lock(&gate_mu);
	while (inside < n &&
	       pthread_cond_timedwait(&gate_cv, &gate_mu, &until) == 0)
		;
	int ok = inside >= n;
	pthread_mutex_unlock(&gate_mu);
	return ok;
}

static void grows_on_demand(void)
{
	static struct write_job gated[6];
	struct writes *w = writes_new(4);
	test_cond("an idle pool holds one thread", w && writes_threads(w) == 1);
	for (int i = 0; w && i < 6; i++) {
		gated[i] = (struct write_job){.run = gated_job};
		if (writes_begin(w) == 0)
			writes_submit(w, &gated[i]);
	}
	test_cond("four jobs blocked at once: the pool grew to its maximum",
	          w && wait_inside(4) && writes_threads(w) == 4);
	usleep(20000);
	pthread_mutex_lock(&gate_mu);
	int at_once = inside;
	gate_open = 1;
	pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_mu);
	test_cond("never past it: the other two waited", at_once == 4);
	writes_close(w);
	test_cond("the waiting jobs ran once the gate opened",
	          w && inside == 0 && writes_threads(w) == 4);
	writes_free(w);
}

int main(void)
{
	grows_on_demand();
	static struct counted jobs[JOBS];
	struct writes *w = writes_new(3);
	test_cond("a pool of 3 workers", w != NULL);
	test_cond("no pool of 0 or 257 workers",
	          writes_new(0) == NULL && writes_new(257) == NULL);
	int reserved = 0;
	for (int i = 0; w && i < JOBS; i++) {
		if (writes_begin(w) < 0)
			break;
		reserved++;
		jobs[i] = (struct counted){.job = {.run = count_job},
		                           .slow = i % 8 == 0};
		writes_submit(w, &jobs[i].job);
	}
	test_cond("every job reserved while open", reserved == JOBS);
	writes_close(w);
	test_cond("writes_close returns once every reserved job has run",
	          atomic_load(&ran) == JOBS);
	/* http_server_stop: a request on a kept-alive connection may still
	 * reach writes_begin until the daemon stops. */
	test_cond("a closed pool refuses (the write runs on the caller)",
	          w && writes_begin(w) < 0 && writes_begin(w) < 0);
	writes_close(w); /* a second close is a no-op */
	test_cond("a second close changes nothing", writes_begin(w) < 0);
	writes_free(w);
	writes_free(NULL);
	writes_close(NULL);
	return test_report("writes");
}
