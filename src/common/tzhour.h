/* tzhour.h: the next time a clock in an IANA time zone shows a given
 * hour, by ICU's calendar (ucal; libicu-dev).  For the daily email digest
 * (docs/notifications.md, "Email"). */
#ifndef BD_TZHOUR_H
#define BD_TZHOUR_H

#include <stdint.h>

#define TZHOUR_ZONE_MAX 64 /* the longest zone name taken, bytes */

/* 1 if `zone` is an IANA time zone ICU knows ("Europe/Paris", "UTC"), of
 * at most TZHOUR_ZONE_MAX bytes of ASCII; 0 otherwise. */
int tzhour_zone_ok(const char *zone);

/* The first instant after `after_ms` (unix ms) at which a clock in
 * `zone` shows hour:00:00 (hour 0..23), into *out (unix ms).  On a day
 * whose hour:00 does not exist (a daylight saving jump), ICU's lenient
 * calendar moves it past the jump.  0, or -1 for a bad zone or hour. */
int tzhour_next(const char *zone, int hour, int64_t after_ms, int64_t *out);

#endif
