/* histo.h: a lock-free histogram of durations, for the metrics
 * (http/metrics.h).  Its manual.
 *
 * Any number of threads may histo_observe at once: each observation is
 * two relaxed atomic additions (its bucket, and the sum), no lock.  A
 * snapshot reads the buckets one by one, so it may catch an observation
 * half made (in its bucket, not yet in the sum): the counts are always
 * consistent among themselves (the total is their sum), the sum may lag
 * by the observations in flight.
 */
#ifndef BD_HISTO_H
#define BD_HISTO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define HISTO_MAX_BOUNDS 20 /* finite upper bounds a histogram may have */

/* Request latencies, seconds: 0.5 ms to a minute (long-polls are cut at
 * 60 s; event streams last longer and land in +Inf). */
extern const double histo_latency_bounds[];
extern const size_t histo_latency_n;

struct histo {
	const double *bounds; /* ascending upper bounds, seconds; borrowed
	                         (static), n of them */
	size_t n;             /* <= HISTO_MAX_BOUNDS */
	/* Observations per bucket, not cumulative: counts[i] those <=
	 * bounds[i] and > bounds[i - 1]; counts[n] those above every bound
	 * (+Inf). */
	_Atomic uint64_t counts[HISTO_MAX_BOUNDS + 1];
	_Atomic uint64_t sum_us; /* every observation's sum, microseconds */
};

/* What a histogram held at one moment (histo_snap). */
struct histo_snap {
	const double *bounds; /* the histogram's, borrowed */
	size_t n;
	uint64_t cumulative[HISTO_MAX_BOUNDS + 1]; /* observations <= bounds[i]
	                                              ([n]: all of them) */
	double sum;                                /* seconds */
};

/* Sets h empty with these bounds (static, ascending, n <= HISTO_MAX_BOUNDS
 * of them).  Not thread-safe: before any observation. */
void histo_init(struct histo *h, const double *bounds, size_t n);

/* Counts one observation of `seconds` (negative counts as 0). */
void histo_observe(struct histo *h, double seconds);

/* Copies h into *out, buckets made cumulative (Prometheus's form). */
void histo_snap(const struct histo *h, struct histo_snap *out);

#endif
