/* benchutil.h: the few helpers bench_engine.c and bench_http.c share:
 * fatal errors and allocation, a monotonic clock, medians and percentiles, and
 * the summary file that tests/bench.sh turns into its closing table.
 *
 * A summary row is one line "figure<TAB>value<TAB>unit"; tools append
 * them to the file named by their -o option.  Nothing here asserts speed.
 */
#ifndef BD_BENCHUTIL_H
#define BD_BENCHUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_RUNS 3 /* measured runs per figure; the median is reported */

/* The program's name in error messages; each tool defines it. */
extern const char *bench_prog;

/* Reports a fatal error ("what: detail") and exits 1. */
static inline void die(const char *what, const char *detail)
{
	fprintf(stderr, "%s: %s%s%s\n", bench_prog, what, detail ? ": " : "",
	        detail ? detail : "");
	exit(1);
}

/* malloc that dies on failure (never returns NULL, even for n == 0). */
static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory", NULL);
	return p;
}

/* Seconds on the monotonic clock. */
static inline double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of n values (n >= 1); sorts v. */
static inline double bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The p-th percentile (0 < p <= 100, nearest rank) of n sorted values;
 * 0 when n is 0. */
static inline double bench_percentile(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* Appends one summary row to `path` (NULL: nothing). */
static inline void bench_summary(const char *path, const char *figure,
                                 double value, const char *unit)
{
	if (!path)
		return;
	FILE *f = fopen(path, "a");
	if (!f) {
		perror(path);
		return;
	}
	fprintf(f, "%s\t%.6g\t%s\n", figure, value, unit);
	fclose(f);
}

/* One row of a printed table: the figure, its value right-aligned with a
 * precision that suits its size, and its unit. */
static inline void bench_row(const char *figure, double value, const char *unit)
{
	int prec = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3;
	printf("  %-50s %12.*f  %s\n", figure, prec, value, unit);
}

#endif
