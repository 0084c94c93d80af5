/* why.h: why the rules refused, one type for every game and the engine.
 *
 * Rules code (the pure cores too: no JSON here) fills a struct rules_why
 * with the rules section that forbids an action or a setup (e.g.
 * "§4 Step 1") and a sentence a player can read, and the service turns it
 * into a problem+json detail (src/http/problem.c).
 */
#ifndef BD_WHY_H
#define BD_WHY_H

#include "err.h"

/* Filled only on failure. */
struct rules_why {
	char rule[48];              /* the section cited, or "" */
	char detail[BD_DETAIL_LEN]; /* the sentence */
};

/* Fills *why (may be NULL) with `rule` (NULL: "") and a printf-style
 * detail, both truncated to fit, and returns code, so rules code can write
 * `return rules_fail(...)`. */
int rules_fail(struct rules_why *why, int code, const char *rule,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
