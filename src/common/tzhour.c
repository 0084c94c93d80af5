/* tzhour.c: see tzhour.h. */
#include "tzhour.h"

#include <string.h>
#include <unicode/ucal.h>
#include <unicode/ustring.h>

/* zone as ICU's UTF-16 into u (TZHOUR_ZONE_MAX + 1 units); -1 when it
 * is too long or not ASCII. */
static int to_uchars(const char *zone, UChar *u)
{
	size_t n = zone ? strlen(zone) : 0;
	if (n == 0 || n > TZHOUR_ZONE_MAX)
		return -1;
	for (size_t i = 0; i <= n; i++) {
		if ((unsigned char)zone[i] > 0x7e)
			return -1;
		u[i] = (UChar)zone[i];
	}
	return (int)n;
}

int tzhour_zone_ok(const char *zone)
{
	UChar u[TZHOUR_ZONE_MAX + 1], canon[128];
	UBool system = 0;
	UErrorCode st = U_ZERO_ERROR;
	int n = to_uchars(zone, u);
	if (n < 0)
		return 0;
	ucal_getCanonicalTimeZoneID(u, n, canon, 128, &system, &st);
	return U_SUCCESS(st) && system;
}

int tzhour_next(const char *zone, int hour, int64_t after_ms, int64_t *out)
{
	UChar u[TZHOUR_ZONE_MAX + 1];
	UErrorCode st = U_ZERO_ERROR;
	int n = to_uchars(zone, u);
	if (n < 0 || hour < 0 || hour > 23 || !tzhour_zone_ok(zone))
		return -1;
	UCalendar *cal = ucal_open(u, n, "en_US", UCAL_GREGORIAN, &st);
	if (U_FAILURE(st))
		return -1;
	ucal_setMillis(cal, (UDate)after_ms, &st);
	ucal_set(cal, UCAL_HOUR_OF_DAY, hour);
	ucal_set(cal, UCAL_MINUTE, 0);
	ucal_set(cal, UCAL_SECOND, 0);
	ucal_set(cal, UCAL_MILLISECOND, 0);
	UDate t = ucal_getMillis(cal, &st);
	if (U_SUCCESS(st) && t <= (UDate)after_ms) {
		ucal_add(cal, UCAL_DATE, 1, &st); /* today's is past: tomorrow */
		ucal_set(cal, UCAL_HOUR_OF_DAY, hour);
		t = ucal_getMillis(cal, &st);
	}
	ucal_close(cal);
	if (U_FAILURE(st))
		return -1;
	*out = (int64_t)t;
	return 0;
}
