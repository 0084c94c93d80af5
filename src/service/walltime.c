/* walltime.c: the wall clock as the service reads and writes it: now in
 * Unix milliseconds, and a time as ISO 8601 text.  See internal.h. */
#include <stdio.h>
#include <time.h>

#include "internal.h"

int64_t svc__now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

json_t *svc__iso_time(int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char buf[40];
	gmtime_r(&t, &tm);
	size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof buf - n, ".%03dZ", (int)(ms % 1000));
	return json_string(buf);
}
