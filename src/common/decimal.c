/* decimal.c: decimal_parse (decimal.h). */
#include "decimal.h"

int decimal_parse(const char *s, size_t len, uint64_t *out)
{
	if (len == 0 || len > DECIMAL_MAX_DIGITS)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}
