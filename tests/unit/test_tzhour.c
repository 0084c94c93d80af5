/* test_tzhour.c: the next time a clock in an IANA zone shows an hour
 * (src/common/tzhour.h, ICU's ucal), for the daily email digest.  The
 * expected instants are worked out by hand from the zones' rules
 * (offsets and the 2026 daylight saving dates of the EU and the US). */
#include <stdint.h>

#include "common/tzhour.h"
#include "testhelp.h"

/* 2026-03-28T12:00:00Z, a Saturday: the EU moves to summer time on
 * Sunday 2026-03-29 at 01:00Z (02:00 CET becomes 03:00 CEST). */
#define SAT_NOON_Z 1774699200000LL
#define HOUR_MS    3600000LL

int main(void)
{
	int64_t t = 0;
	test_cond("UTC 8:00 after Saturday noon: Sunday 08:00Z",
	          tzhour_next("UTC", 8, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + 20 * HOUR_MS);
	test_cond("UTC 13:00 after noon: the same day",
	          tzhour_next("UTC", 13, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + HOUR_MS);
	test_cond("UTC 12:00 at noon exactly: the next day",
	          tzhour_next("UTC", 12, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + 24 * HOUR_MS);
	/* Paris: Saturday 13:00 CET is 12:00Z; Sunday 08:00 CEST is 06:00Z */
	test_cond("Paris 8:00 across the spring change: 06:00Z Sunday",
	          tzhour_next("Europe/Paris", 8, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + 18 * HOUR_MS);
	test_cond("Paris 14:00 on Saturday, still CET: 13:00Z",
	          tzhour_next("Europe/Paris", 14, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + HOUR_MS);
	/* Kolkata, UTC+5:30 all year: 08:00 IST is 02:30Z */
	test_cond("Kolkata 8:00: 02:30Z Sunday",
	          tzhour_next("Asia/Kolkata", 8, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + 14 * HOUR_MS + HOUR_MS / 2);
	/* New York, still EDT since 2026-03-08 (UTC-4): 08:00 is 12:00Z */
	test_cond("New York 8:00: 12:00Z Sunday",
	          tzhour_next("America/New_York", 8, SAT_NOON_Z, &t) == 0 &&
	              t == SAT_NOON_Z + 24 * HOUR_MS);
	test_cond("zones", tzhour_zone_ok("Europe/Paris") &&
	                       tzhour_zone_ok("UTC") &&
	                       !tzhour_zone_ok("Mars/Olympus") &&
	                       !tzhour_zone_ok("") && !tzhour_zone_ok(NULL) &&
	                       !tzhour_zone_ok("../etc/passwd") &&
	                       !tzhour_zone_ok("Europe/Par\xc3\xads"));
	test_cond("a bad hour or zone is -1",
	          tzhour_next("UTC", 24, SAT_NOON_Z, &t) < 0 &&
	              tzhour_next("UTC", -1, SAT_NOON_Z, &t) < 0 &&
	              tzhour_next("Nowhere/At_All", 8, SAT_NOON_Z, &t) < 0);
	return test_report("tzhour");
}
