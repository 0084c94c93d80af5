/* test_writes.c: the write-worker pool (src/http/writes.h) on its own:
 * jobs run on the workers, writes_close waits for every reserved job, and
 * a pool closed but not yet freed keeps refusing (writes_begin -1), as a
 * keep-alive request arriving between writes_close and MHD_stop_daemon in
 * http_server_stop needs (it used to read a freed pool). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
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

int main(void)
{
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
