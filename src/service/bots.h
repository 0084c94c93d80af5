/* bots.h: what the bot workers (bots.c) and their wake-up queue
 * (botqueue.c) share: the workers' state, one mutex for all of it, and
 * the queue's operations the workers call.  Requests, moves and clocks
 * reach the queue only through internal.h's svc__bots_wake,
 * svc__clock_wake and svc__bots_rescan (botqueue.c), so that the
 * workers call down into moves and clocks and nothing calls up into the
 * workers. */
#ifndef BOARDD_SERVICE_BOTS_H
#define BOARDD_SERVICE_BOTS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define BOTS_STOPPED 256  /* games whose bots failed, remembered */
#define BOTS_MAX_WORKERS 64

struct svc_bots;

/* One worker thread and its claim. */
struct bot_worker {
	struct svc_bots *b;
	pthread_t thread;
	int64_t playing; /* the game it plays, 0: none; under b->mu */
	struct svc_bot_share share; /* of `playing`; under mu */
	int bots_only; /* 1: `playing` is a second-tier game; under mu */
	int again;     /* 1: queue `playing` again when done; under mu */
};

/* A game queued for a bot decision, and whose share it takes. */
struct bot_job {
	int64_t key;                /* the game */
	struct svc_bot_share share; /* svc__bot_share of it */
};

/* An owner served in its network's round. */
struct bot_served {
	int64_t net, owner;
};

/* The tiers (fair shares, above): games a person still plays, then games
 * only bots play. */
enum { TIER_PEOPLE, TIER_BOTS, TIERS };

/* One tier's round: the networks served in it, and each network's owners
 * served in the network's own round.  `cap` slots each. */
struct bot_round {
	int64_t *nets;
	size_t nnets;
	struct bot_served *owners;
	size_t nowners;
};

struct svc_bots {
	struct service *svc; /* borrowed */
	unsigned max_ms;     /* each decision's wall-clock cap; 0: level's */
	int nworkers;        /* started */
	struct bot_worker workers[BOTS_MAX_WORKERS];
	pthread_mutex_t mu; /* guards everything below and each worker's
	                       playing and again */
	pthread_cond_t wake;
	struct bot_job *jobs; /* games a bot is to act in, oldest first, each
	                         at most once; `cap` slots, `len` used */
	size_t cap, len;
	int64_t *due; /* games whose deadline passed, taken before `jobs`,
	                 oldest first, each at most once; `cap` slots */
	size_t ndue;  /* used slots of due */
	struct bot_round rounds[TIERS]; /* fair shares, above */
	size_t queued[TIERS];           /* the games of `jobs` in each tier */
	int bots_playing;               /* workers playing a TIER_BOTS game */
	int rescan;         /* 1: scan the store once the queue is empty */
	int64_t scan_after; /* the scan pass's cursor: keys above it are
	                       next; 0: the next page starts a pass */
	int dropped;        /* 1: a wake-up was dropped during this pass */
	int64_t due_ms;     /* the earliest deadline known (unix ms), 0:
	                       none; the clock pass runs once it passes */
	int due_scan;       /* 1: run the clock pass now (at start, or a
	                       page was full) */
	int64_t pass_ms;    /* when the last clock pass began (unix ms) */
	int passing;        /* 1: a worker runs a scan or a clock pass */
	int64_t shared_ms;  /* a shared store: when the last periodic look
	                       for other nodes' left work was asked (unix
	                       ms) */
	int stopping;       /* 1: the threads are to return */
	/* The games whose bots failed (a ring; the oldest is forgotten
	 * first). */
	int64_t stopped[BOTS_STOPPED];
	size_t nstopped;
};

/* The job of key in b->jobs, or NULL.  Under b->mu. */
struct bot_job *botq_queued(struct svc_bots *b, int64_t key);

/* Queues key (of `share`) unless it is there, when its share becomes
 * this one (the latest wake-up knows best: a person may have resigned
 * since); a full queue asks for a rescan.  Under b->mu. */
void botq_push(struct svc_bots *b, int64_t key,
               const struct svc_bot_share *share);

/* Queues key in b->due unless it is there (the clock pass leaves room).
 * Under b->mu. */
void botq_push_due(struct svc_bots *b, int64_t key);

/* The tier a worker takes its next game from: a due game first (-1),
 * else TIER_PEOPLE's, else TIER_BOTS' while fewer than all workers but
 * one play such games; TIERS: nothing it may take.  Under b->mu. */
int botq_next_tier(const struct svc_bots *b);

/* Takes the next game of `tier` (botq_next_tier's, not TIERS): the
 * oldest due one (-1), else the oldest one of the tier's next network in
 * its round, and of that network's next owner in the network's round
 * (botqueue.c, "Fair shares").  Under b->mu. */
struct bot_job botq_take(struct svc_bots *b, int tier);

#endif
