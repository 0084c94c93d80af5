/* qvalue.c: an HTTP list element's weight (qvalue.h). */
#include <string.h>

#include "qvalue.h"

int qvalue_of(const char *p, const char *end)
{
	while (p < end) {
		p += strspn(p, " \t;");
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') &&
		    p[1] == '=') {
			p += 2;
			if (p < end && *p == '0') {
				int q = 0, scale = 100;
				if (++p < end && *p == '.')
					for (p++; p < end && *p >= '0' &&
					          *p <= '9' && scale;
					     p++, scale /= 10)
						q += (*p - '0') * scale;
				return q;
			}
			return 1000; /* "1", "1.000" or junk */
		}
		p += strcspn(p, ";");
		if (p > end)
			break;
	}
	return 1000;
}

int qvalue_next(const char **p, const char **value, size_t *len, int *q)
{
	const char *s = *p + strspn(*p, " \t,");
	if (!*s) {
		*p = s;
		return 0;
	}
	const char *e = s + strcspn(s, ",");
	size_t n = strcspn(s, " \t;,");
	if (n > (size_t)(e - s))
		n = (size_t)(e - s);
	*value = s;
	*len = n;
	*q = qvalue_of(s + n, e);
	*p = e;
	return 1;
}
