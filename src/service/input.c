/* input.c: a request's input, checked, and the refusals it gets: the
 * detail of a refusal (svc__fail), a body's known fields, a decimal in
 * range.  See internal.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../common/decimal.h"
#include "internal.h"

int svc__fail(struct svc_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof err->detail, fmt, ap);
	va_end(ap);
	return code;
}

int svc__give(json_t *v, json_t **out)
{
	if (!v)
		return BD_ENOMEM;
	*out = v;
	return 0;
}

int svc__body_keys(const json_t *obj, const char *const *keys,
                   struct svc_err *err)
{
	if (!json_is_object(obj))
		return svc__fail(err, BD_EBADREQUEST,
		                 "the body must be an object");
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)obj, k, v) {
		int known = 0;
		for (const char *const *p = keys; *p && !known; p++)
			known = strcmp(*p, k) == 0;
		if (!known)
			return svc__fail(err, BD_EBADREQUEST,
			                 "unknown field '%s' in the request "
			                 "body",
			                 k);
	}
	return 0;
}

int svc__parse_uint(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	uint64_t n;
	if (!s || decimal_parse(s, strlen(s), &n) || (int64_t)n < lo ||
	    (int64_t)n > hi)
		return 0;
	*v = (int64_t)n;
	return 1;
}
