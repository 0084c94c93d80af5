/* histo.c: lock-free histograms (histo.h). */
#include "histo.h"

const double histo_latency_bounds[] = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
    0.25,   0.5,   1,      2.5,   5,    10,    30,   60};
const size_t histo_latency_n =
    sizeof histo_latency_bounds / sizeof *histo_latency_bounds;

void histo_init(struct histo *h, const double *bounds, size_t n)
{
	h->bounds = bounds;
	h->n = n > HISTO_MAX_BOUNDS ? HISTO_MAX_BOUNDS : n;
	for (size_t i = 0; i <= HISTO_MAX_BOUNDS; i++)
		atomic_init(&h->counts[i], 0);
	atomic_init(&h->sum_us, 0);
}

void histo_observe(struct histo *h, double seconds)
{
	if (!(seconds > 0)) /* and NaN */
		seconds = 0;
	size_t i = 0;
	while (i < h->n && seconds > h->bounds[i])
		i++;
	atomic_fetch_add_explicit(&h->counts[i], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&h->sum_us, (uint64_t)(seconds * 1e6 + 0.5),
	                          memory_order_relaxed);
}

void histo_snap(const struct histo *h, struct histo_snap *out)
{
	uint64_t total = 0;
	out->bounds = h->bounds;
	out->n = h->n;
	for (size_t i = 0; i <= h->n; i++) {
		total +=
		    atomic_load_explicit(&h->counts[i], memory_order_relaxed);
		out->cumulative[i] = total;
	}
	out->sum =
	    (double)atomic_load_explicit(&h->sum_us, memory_order_relaxed) /
	    1e6;
}
