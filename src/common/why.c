/* why.c: rules_fail (why.h). */
#include <stdarg.h>
#include <stdio.h>

#include "why.h"

int rules_fail(struct rules_why *why, int code, const char *rule,
               const char *fmt, ...)
{
	if (why) {
		snprintf(why->rule, sizeof why->rule, "%s", rule ? rule : "");
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why->detail, sizeof why->detail, fmt, ap);
		va_end(ap);
	}
	return code;
}
