/* store_ops.c: what operations asks of the store (store.h): whether it
 * answers, and how many webhook deliveries wait.  Each is one
 * statement prepared for the call: they run once per probe or scrape,
 * never on a request's path, and keep the pool's statement table
 * (sqlite_int.h) to the requests' own. */
#include <sqlite3.h>

#include "sqlite_int.h"

/* Runs sql (one integer column, one row) on a pooled read connection
 * into *v.  0, or a bd_err. */
static int one_integer(struct store *s, const char *sql, int64_t *v)
{
	struct conn *c = store__checkout(s);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	int code = 0;
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else
		code =
		    store__fail(c->db, rc == SQLITE_DONE ? SQLITE_ERROR : rc);
	sqlite3_finalize(st);
	store__checkin(s, c);
	return code;
}

int store_ping(struct store *s)
{
	int rc = store_check(s);
	int64_t version;
	return rc < 0 ? rc : one_integer(s, "PRAGMA schema_version", &version);
}

int store_deliveries_pending(struct store *s, int64_t *n)
{
	/* the partial index deliveries_due holds exactly these rows */
	return one_integer(s,
	                   "SELECT count(*) FROM deliveries "
	                   "WHERE state = 'pending'",
	                   n);
}
