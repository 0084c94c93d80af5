/* writes.h: the write workers.  Its manual.
 *
 * A write request (POST, PUT, DELETE) waits for the group commit that
 * makes it durable (docs/write-path.md).  If it waited on the
 * libmicrohttpd worker thread that read it, at most --threads writes could
 * be in flight, and every batch would hold that many.  So server.c
 * suspends the write's connection, hands the request to this pool, and
 * the worker that runs it (router_dispatch, blocking in the group commit)
 * resumes the connection once the reply is made: as many writes as
 * workers share a commit, whatever --threads is.
 *
 * The pool is a FIFO of jobs and up to `workers` threads: one at first,
 * and one more each time a job is queued while no worker waits for it, so
 * an idle server holds one thread, not --write-workers of them (each costs
 * a stack, and in a sanitizer build about 3 MB and 30 ms of CPU to start
 * and join), and a burst of writes gets as many as it can use.  Threads
 * are never stopped before writes_close.  A job is a struct
 * the caller owns (embedded in its request state) with the function to
 * run on a worker.  Its life:
 *
 *   writes_begin   reserve a place (refused once the pool is closing)
 *   …              suspend the connection
 *   writes_submit  queue the job; a worker runs job->run(job) once
 *   (job->run)     makes the reply and resumes the connection; the job
 *                  may be freed by the time run returns
 *
 * writes_close waits until every reserved job has run (so no connection
 * is left suspended by this pool), then stops the threads; the pool stays
 * allocated, refusing (writes_begin -1), until writes_free, so that a
 * request still arriving on a library thread (a keep-alive connection,
 * until the daemon stops) reads a live pool.
 *
 * Thread ownership: a job belongs to the submitter until writes_submit,
 * then to the pool's mutex until a worker takes it, then to that worker
 * alone until its run resumes the connection, from which moment it is the
 * connection's again (the handler that runs after the resume).  Lock
 * order: the pool's mutex is a leaf, held only to queue, take and count;
 * run is called without it, so run may take any lock (the store's queue,
 * the hub's, the cache's shards) and block in the group commit.
 */
#ifndef BD_WRITES_H
#define BD_WRITES_H

/* One queued write.  Zero it; set run; the next field is the pool's. */
struct write_job {
	void (*run)(struct write_job *job); /* on a worker, once */
	struct write_job *next;             /* the pool's queue */
};

struct writes;

/* A pool of up to `workers` threads (1-256), one running, or NULL (no
 * memory or no thread).  Stop with writes_close, free with writes_free. */
struct writes *writes_new(unsigned workers);

/* The threads the pool has started so far (1..workers), for tests and
 * the logs. */
unsigned writes_threads(struct writes *w);

/* Reserves a place for one job: 0, or -1 once writes_close has begun
 * (the caller then runs the write itself).  Every 0 must be followed by
 * one writes_submit. */
int writes_begin(struct writes *w);

/* Queues job (reserved by writes_begin); a worker runs it soon. */
void writes_submit(struct writes *w, struct write_job *job);

/* Refuses new jobs, waits until every reserved job has run, stops and
 * joins the workers; the pool is not freed (writes_begin keeps answering
 * -1).  Called by one thread; a second call, or NULL, is a no-op. */
void writes_close(struct writes *w);

/* writes_close if not done yet, then frees the pool: once no other thread
 * can call writes_begin (after MHD_stop_daemon).  NULL is a no-op. */
void writes_free(struct writes *w);

#endif
