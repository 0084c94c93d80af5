/* monoclock.c: see monoclock.h. */
#include <time.h>

#include "monoclock.h"

int64_t mono_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int mono_cond_init(pthread_cond_t *cv)
{
	pthread_condattr_t a;
	if (pthread_condattr_init(&a) != 0)
		return -1;
	int rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0 &&
	                 pthread_cond_init(cv, &a) == 0
	             ? 0
	             : -1;
	pthread_condattr_destroy(&a);
	return rc;
}

int mono_cond_wait_until(pthread_cond_t *cv, pthread_mutex_t *mu, int64_t at_ms)
{
	struct timespec ts = {(time_t)(at_ms / 1000),
	                      (long)(at_ms % 1000) * 1000000};
	return pthread_cond_timedwait(cv, mu, &ts);
}
