/* monoclock.h: the monotonic clock the HTTP layer's timer threads share
 * (hub.c's deadlines, conns.c's cuts): milliseconds, and condition
 * variables that wait on that clock. */
#ifndef BD_MONOCLOCK_H
#define BD_MONOCLOCK_H

#include <pthread.h>
#include <stdint.h>

/* Milliseconds on CLOCK_MONOTONIC (an arbitrary origin). */
int64_t mono_now_ms(void);

/* Initialises *cv to time out on CLOCK_MONOTONIC.  0, or -1 on failure
 * (nothing to destroy then). */
int mono_cond_init(pthread_cond_t *cv);

/* pthread_cond_timedwait on *cv (made by mono_cond_init), mu held, until
 * mono_now_ms() reaches at_ms or a signal comes; its result (ETIMEDOUT
 * at at_ms). */
int mono_cond_wait_until(pthread_cond_t *cv, pthread_mutex_t *mu,
                         int64_t at_ms);

#endif
