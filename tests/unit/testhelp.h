/* testhelp.h: a tiny test harness in the manner of Redis's testhelp.h.
 *
 * test_cond(name, cond) records one check; test_report() prints
 * "<suite>: N passed, N failed" and returns the exit status.  Each failed
 * check prints its name, file and line so the rulebook case is findable.
 */
#ifndef BD_TESTHELP_H
#define BD_TESTHELP_H

#include <stdio.h>

static int test_passed, test_failed;

#define test_cond(name, cond)                                                  \
	do {                                                                   \
		if (cond) {                                                    \
			test_passed++;                                         \
		} else {                                                       \
			test_failed++;                                         \
			fprintf(stderr, "FAIL %s (%s:%d)\n", (name), __FILE__, \
			        __LINE__);                                     \
		}                                                              \
	} while (0)

static inline int test_report(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, test_passed, test_failed);
	return test_failed ? 1 : 0;
}

#endif
