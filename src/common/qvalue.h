/* qvalue.h: the weight of one element of an HTTP list with weights
 * (Accept-Language, Accept-Encoding: RFC 9110 §12.4.2), shared by the
 * language negotiation (src/display/i18n.c) and the content codings'
 * (src/http/encoding.c). */
#ifndef BD_COMMON_QVALUE_H
#define BD_COMMON_QVALUE_H

#include <stddef.h>

/* q of one element's parameters, the text [p, end) after its value
 * (";q=0.5"), in thousandths (0..1000): 1000 when absent or malformed. */
int qvalue_of(const char *p, const char *end);

/* Reads the next element of weighted list value *p (NUL-ended; elements
 * separated by commas, with spaces or tabs around; empty ones skipped):
 * 1 with *value pointing at the element's value (up to its first space,
 * tab or ";", *len bytes, 0 for a bare ";q=1"), *q its weight
 * (qvalue_of) and *p past the element; 0 at the end (outputs
 * untouched).  Borrowed: *value points into the list. */
int qvalue_next(const char **p, const char **value, size_t *len, int *q);

#endif
