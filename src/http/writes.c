/* writes.c: the write workers.  See writes.h (its manual, with the thread
 * ownership and lock order: one mutex, a leaf, never held over a job;
 * a thread is created under it, as the pool grows). */
#include <pthread.h>
#include <stdlib.h>

#include "writes.h"

struct writes {
	pthread_mutex_t mu;
	pthread_cond_t work_cv; /* workers wait here for a job */
	pthread_cond_t idle_cv; /* writes_close waits here for reserved == 0 */
	struct write_job *head, **tail;
	unsigned reserved; /* begun and not yet run to the end */
	unsigned queued;   /* submitted and not yet taken by a worker */
	unsigned idle;     /* workers waiting on work_cv */
	int closing;       /* 1: writes_begin refuses */
	int stop;          /* 1: workers exit once the queue is empty */
	int joined;        /* 1: writes_close has joined the workers */
	unsigned nthreads; /* started, 1..max */
	unsigned max;      /* the most threads the pool may start */
	pthread_t threads[];
};

static void *worker_main(void *arg)
{
	struct writes *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->head && !w->stop) {
			w->idle++;
			pthread_cond_wait(&w->work_cv, &w->mu);
			w->idle--;
		}
		struct write_job *job = w->head;
		if (!job)
			break; /* stop, and nothing queued */
		w->queued--;
		w->head = job->next;
		if (!w->head)
			w->tail = &w->head;
		pthread_mutex_unlock(&w->mu);
		job->run(job); /* job may be gone once it returns */
		pthread_mutex_lock(&w->mu);
		if (--w->reserved == 0 && w->closing)
			pthread_cond_broadcast(&w->idle_cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Starts one more worker (under w->mu): 0, or -1 if the system has no
 * thread for it (the workers running take the job in time). */
static int grow(struct writes *w)
{
	/* The default stack (as the library's own workers have): a worker
	 * runs the same handlers. */
	if (pthread_create(&w->threads[w->nthreads], NULL, worker_main, w) != 0)
		return -1;
	w->nthreads++;
	return 0;
}

struct writes *writes_new(unsigned workers)
{
	if (workers < 1 || workers > 256)
		return NULL;
	struct writes *w = calloc(1, sizeof *w + workers * sizeof(pthread_t));
	if (!w)
		return NULL;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->work_cv, NULL);
	pthread_cond_init(&w->idle_cv, NULL);
	w->tail = &w->head;
	w->max = workers;
	pthread_mutex_lock(&w->mu);
	int rc = grow(w);
	pthread_mutex_unlock(&w->mu);
	if (rc != 0) {
		writes_free(w);
		return NULL;
	}
	return w;
}

unsigned writes_threads(struct writes *w)
{
	pthread_mutex_lock(&w->mu);
	unsigned n = w->nthreads;
	pthread_mutex_unlock(&w->mu);
	return n;
}

int writes_begin(struct writes *w)
{
	pthread_mutex_lock(&w->mu);
	int ok = !w->closing;
	if (ok)
		w->reserved++;
	pthread_mutex_unlock(&w->mu);
	return ok ? 0 : -1;
}

void writes_submit(struct writes *w, struct write_job *job)
{
	job->next = NULL;
	pthread_mutex_lock(&w->mu);
	*w->tail = job;
	w->tail = &job->next;
	/* More jobs waiting than workers waiting for them: one more worker,
	 * up to max (a job queued behind busy workers would wait for a
	 * commit it could have shared).  A worker signalled but not yet
	 * awake still counts as idle, so a lone job starts no thread. */
	if (++w->queued > w->idle && w->nthreads < w->max)
		(void)grow(w);
	pthread_cond_signal(&w->work_cv);
	pthread_mutex_unlock(&w->mu);
}

void writes_close(struct writes *w)
{
	if (!w || w->joined)
		return;
	pthread_mutex_lock(&w->mu);
	w->closing = 1;
	while (w->reserved)
		pthread_cond_wait(&w->idle_cv, &w->mu);
	w->stop = 1;
	pthread_cond_broadcast(&w->work_cv);
	pthread_mutex_unlock(&w->mu);
	for (unsigned i = 0; i < w->nthreads; i++)
		pthread_join(w->threads[i], NULL);
	w->joined = 1; /* only the closing thread reads it */
}

void writes_free(struct writes *w)
{
	if (!w)
		return;
	writes_close(w);
	pthread_cond_destroy(&w->idle_cv);
	pthread_cond_destroy(&w->work_cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
