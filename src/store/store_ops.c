/* store_ops.c: what operations asks of the store (store.h): whether it
 * answers, and how many webhook deliveries wait.  Each is one
 * statement prepared for the call: they run once per probe or scrape,
 * never on a request's path, and keep the pool's statement table
 * (store_int.h) to the requests' own. */
#include "driver.h"
#include "store_int.h"

/* Runs sql (one integer column, one row) on a pooled read connection
 * into *v.  0, or a bd_err. */
static int one_integer(struct store *s, const char *sql, int64_t *v)
{
	struct conn *c = store__checkout(s);
	int rc = store__query_i64(c, sql, v);
	store__checkin(s, c);
	return rc;
}

int store_ping(struct store *s)
{
	int rc = store_check(s);
	int64_t version;
	/* the driver's cheapest proof that the database answers */
	return rc < 0 ? rc : one_integer(s, s->drv->ping_sql, &version);
}

int store_deliveries_pending(struct store *s, int64_t *n)
{
	/* the partial index deliveries_due holds exactly these rows */
	return one_integer(s,
	                   "SELECT count(*) FROM deliveries "
	                   "WHERE state = 'pending'",
	                   n);
}
