/* decimal.h: the one parser of unsigned decimals in URLs, headers and
 * query strings (ETags, ?after=, ?wait=, ?limit=, cursors). */
#ifndef BD_DECIMAL_H
#define BD_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* The most digits decimal_parse takes: 18 always fit in int64_t. */
#define DECIMAL_MAX_DIGITS 18

/* Parses s[0..len), which must be 1 to DECIMAL_MAX_DIGITS ASCII digits
 * and nothing else (no sign, space or NUL), into *out.  Returns 0, or -1
 * (*out untouched) when it is not such a decimal. */
int decimal_parse(const char *s, size_t len, uint64_t *out);

#endif
