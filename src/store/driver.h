/* driver.h: the store's driver interface, in the manner of SQLite's
 * struct sqlite3_vfs or curl's struct Curl_ssl: one table of functions
 * per database, one file per driver (driver_sqlite.c, driver_pg.c),
 * chosen in one place, store_open (store_open.c), by the path's form
 * (store_is_postgres).
 *
 * The backend-neutral files of the store (games, moves, clocks, events,
 * players, lobby, pool, ...) reach a driver only through this table, by
 * way of store_int.h's wrappers (store__run, store__col_*, ...), and
 * never ask which driver they have: what differs is a property here
 * (shared, pool_max, ping_sql) or a function.  A driver calls no other
 * driver and nothing of the neutral code: what it must tell (players
 * another node changed) goes through the callback store_open hands it,
 * and the statement texts it runs are the store's table s->sql, which
 * store_open merges from store_sql.c's common texts and the driver's
 * own (`sql`).  Not part of the store interface. */
#ifndef BD_STORE_DRIVER_H
#define BD_STORE_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../common/log.h"
#include "migrations.h"
#include "store_int.h"

/* CLOCK_MONOTONIC now, in milliseconds (an arbitrary origin): for a
 * migration's duration (driver_migration_logged). */
static inline double driver_mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Logs that migration m (borrowed) was applied, begun at t0_ms
 * (driver_mono_ms): one line "migration N (NNNN_name.sql) applied in
 * 1.2 ms" of source "store", inside the migration's transaction (a
 * failed commit is logged after it, and the schema stays as it was).
 * Each driver calls it after each migration it applies (issue 35). */
static inline void driver_migration_logged(const struct store_migration *m,
                                           double t0_ms)
{
	log_info("store", "migration %d (%s) applied in %.1f ms", m->version,
	         m->name, driver_mono_ms() - t0_ms);
}

/* Tells the store's change listener about the n players keys[0..n)
 * (store_pool.c's store__changes_tell, handed to a driver's listen). */
typedef void (*store_tell_fn)(struct store *s, const int64_t *keys, int n);

struct store_driver {
	const char *name;       /* "sqlite" or "postgresql", for messages */
	int shared;             /* 1: several processes may share the database
	                           (store_shared: leases, node ids, listening,
	                           deliveries handed over by their lease); 0: one
	                           process owns it */
	int pool_max;           /* the most read connections worth opening (a
	                           server counts its connections), 0: no cap */
	const char *ping_sql;   /* store_ping's statement: one integer, one
	                           row, the cheapest proof the database
	                           answers */
	const char *size_sql;   /* store_disk_usage's statement: the
	                           database's size in bytes, one integer */
	const char *wal_suffix; /* the write-ahead log's file beside the
	                           database file (its path + this), NULL:
	                           none of this database's own */
	const char *const *sql; /* ST_COUNT texts of this dialect, indexed
	                           by enum stmt; a NULL entry runs
	                           store_sql.c's common text */

	/* Sets up the store-wide state of the driver in s->ds (NULL
	 * allowed) before any connection: SQLite's process-wide
	 * configuration and store_config.exclusive's lock.  0, or a
	 * bd_err with a sentence in err.  store_close calls release even
	 * when open failed. */
	int (*open)(struct store *s, const struct store_config *cfg, char *err,
	            size_t errlen);
	/* Frees s->ds and releases what open took; NULL s->ds: no-op. */
	void (*release)(struct store *s);

	/* Connects c, the write connection when c == &s->writer (which
	 * waits at most cfg->busy_timeout_ms for another process's lock),
	 * else a read connection of the pool; c->h is the driver's.  0, or
	 * a bd_err with a sentence in err; on failure c->h may hold what
	 * was opened, for close.  The writer and the pool's first read
	 * connection connect in store_open; the other read connections
	 * at their first checkout, from any thread, with cfg a copy of
	 * store_open's (s->cfg: secret_key NULL), so a read connection
	 * must not create the database. */
	int (*connect)(struct store *s, struct conn *c,
	               const struct store_config *cfg, char *err,
	               size_t errlen);
	/* On the write connection, after connect: brings the schema up to
	 * date (sql/ or sql/postgres/) and readies c for the store's
	 * statements.  0, or a bd_err with a sentence in err. */
	int (*migrate)(struct store *s, struct conn *c, char *err,
	               size_t errlen);
	/* Closes c and frees c->h; a never-connected c (h NULL): no-op. */
	void (*close)(struct conn *c);

	/* store__run: runs statement id of c (text c->sql[id]) with
	 * arguments a[0..n), calling fn (if not NULL) on each row, whose
	 * struct row is the driver's.  0, fn's negative code, or a bd_err. */
	int (*run)(struct conn *c, enum stmt id, const struct arg *a, int n,
	           row_fn fn, void *ctx);
	/* store__query_i64: SQL text outside the table, one integer. */
	int (*query_i64)(struct conn *c, const char *sql, int64_t *v);
	/* store__changes and store__in_tx. */
	int64_t (*changes)(const struct conn *c);
	int (*in_tx)(const struct conn *c);

	/* The columns of a row this driver's run made (store__col_*). */
	int64_t (*col_i64)(const struct row *r, int col);
	const char *(*col_text)(const struct row *r, int col);
	const void *(*col_blob)(const struct row *r, int col);
	int (*col_bytes)(const struct row *r, int col);
	int (*col_null)(const struct row *r, int col);
	int (*col_count)(const struct row *r);

	/* Before each batch and for store_check: 0 while the database is
	 * still the one opened, else BD_EUNAVAILABLE. */
	int (*check)(struct store *s);

	/* store_listen: tells r (and, through tell, the change listener)
	 * what other processes change, until unlisten (which store_close
	 * calls; no listener: no-op).  NULL for a driver that is not
	 * shared. */
	int (*listen)(struct store *s, const struct store_remote *r, void *ctx,
	              store_tell_fn tell);
	void (*unlisten)(struct store *s);

	/* store_lease_take (lease_ms > 0, *taken set) and store_lease_drop
	 * (lease_ms 0, taken NULL) for node `node`, one autocommit
	 * statement on c, a pooled read connection.  NULL for a driver
	 * that is not shared (one process owns every game). */
	int (*lease)(struct conn *c, const char *node, int64_t game_key,
	             int64_t lease_ms, int *taken);
};

/* The two drivers (driver_sqlite.c, driver_pg.c). */
extern const struct store_driver store_driver_sqlite;
extern const struct store_driver store_driver_pg;

#endif
