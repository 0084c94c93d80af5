/* store_ops.c: what operations asks of the store (store.h): whether it
 * answers, how many webhook deliveries wait, its size on disk.  Each is one
 * statement prepared for the call: they run once per probe or scrape,
 * never on a request's path, and keep the pool's statement table
 * (store_int.h) to the requests' own. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

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

int store_disk_usage(struct store *s, int64_t *db_bytes, int64_t *wal_bytes)
{
	*wal_bytes = -1;
	int rc = one_integer(s, s->drv->size_sql, db_bytes);
	if (rc < 0) {
		*db_bytes = -1;
		return rc;
	}
	if (!s->drv->wal_suffix)
		return 0;
	char path[4096];
	struct stat st;
	if (snprintf(path, sizeof path, "%s%s", s->path, s->drv->wal_suffix) >=
	    (int)sizeof path)
		return 0;
	if (stat(path, &st) == 0)
		*wal_bytes = (int64_t)st.st_size;
	else if (errno == ENOENT) /* checkpointed and removed, or none */
		*wal_bytes = 0;
	return 0;
}
