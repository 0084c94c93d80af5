/* store_open.c: opening and closing a store (store.h), whichever its
 * database: the one place that chooses the driver (driver.h) by the
 * path's form, merges the statement texts the connections run
 * (store_sql.c's common ones and the driver's own), opens the pool
 * through the driver, and the calls that differ only by what the driver
 * is: listening, leases, store_shared, store_ping. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "driver.h"
#include "store_int.h"

/* Writes msg into err (if any) and returns code. */
static int open_refused(char *err, size_t errlen, int code, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return code;
}

/* The driver a path names: a libpq connection string or URI is
 * PostgreSQL's (store_is_postgres), anything else an SQLite file. */
static const struct store_driver *driver_for(const char *path)
{
	return store_is_postgres(path) ? &store_driver_pg
	                               : &store_driver_sqlite;
}

int store_is_postgres(const char *path)
{
	return path && (strncmp(path, "postgres://", 11) == 0 ||
	                strncmp(path, "postgresql://", 13) == 0 ||
	                strchr(path, '=') != NULL);
}

/* The text of statement id that driver d runs: its own, else the
 * common one. */
static const char *stmt_text(const struct store_driver *d, enum stmt id)
{
	return d->sql[id] ? d->sql[id] : store__sql[id];
}

const char *store__stmt_sql(enum stmt id)
{
	return id < ST_COUNT ? stmt_text(&store_driver_sqlite, id) : NULL;
}

/* Opens the write connection, which brings the schema up to date, then
 * the pool's first read connection (which shows that reads can connect);
 * the others connect at their first checkout (store_pool.c's pool_take):
 * a server sizes its pool for every thread that may read at once, about
 * seventy connections by default, of which a quiet server uses a few. */
static int pool_open(struct store *s, const struct store_config *cfg, char *err,
                     size_t errlen)
{
	const struct store_driver *d = s->drv;
	s->writer.drv = d;
	s->writer.sql = s->sql;
	s->cfg = *cfg;
	s->cfg.path = s->path;
	s->cfg.secret_key = NULL; /* borrowed for store_open only */
	int rc = d->connect(s, &s->writer, cfg, err, errlen);
	if (rc == 0)
		rc = d->migrate(s, &s->writer, err, errlen);
	for (int i = 0; i < s->nconns; i++) {
		s->conns[i].drv = d;
		s->conns[i].sql = s->sql;
	}
	if (rc == 0)
		rc = d->connect(s, &s->conns[0], cfg, err, errlen);
	return rc;
}

/* Initialises the pool's mutex and condition variable and the write
 * queue's (its waits on CLOCK_MONOTONIC): all or none. */
static int pool_lock_init(struct store *s)
{
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca))
		return -1;
	int rc = -1;
	if (pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_mutex_init(&s->mu, NULL))
		goto out_attr;
	if (pthread_cond_init(&s->freed, NULL))
		goto out_mu;
	if (pthread_mutex_init(&s->q_mu, NULL))
		goto out_freed;
	if (pthread_condattr_init(&s->q_ca) == 0 &&
	    pthread_condattr_setclock(&s->q_ca, CLOCK_MONOTONIC) == 0) {
		s->q_head = NULL;
		s->q_tail = &s->q_head;
		rc = 0;
		goto out_attr;
	}
	pthread_mutex_destroy(&s->q_mu);
out_freed:
	pthread_cond_destroy(&s->freed);
out_mu:
	pthread_mutex_destroy(&s->mu);
out_attr:
	pthread_condattr_destroy(&ca);
	return rc;
}

/* Closes the pool's connections and the writer (a never-connected one
 * is a no-op). */
static void pool_close(struct store *s)
{
	for (int i = 0; i < s->nconns; i++)
		s->drv->close(&s->conns[i]);
	s->drv->close(&s->writer);
}

int store_open(const struct store_config *cfg, struct store **out, char *err,
               size_t errlen)
{
	if (!cfg || !cfg->path || cfg->connections < 1 ||
	    cfg->busy_timeout_ms < 0)
		return open_refused(err, errlen, BD_EBADREQUEST,
		                    "store config needs a path, connections >= "
		                    "1 and busy_timeout_ms >= 0");
	const struct store_driver *d = driver_for(cfg->path);
	/* A database server counts its connections (max_connections):
	 * a node's read pool stays small, reads wait for a free one. */
	int nconns = d->pool_max && cfg->connections > d->pool_max
	                 ? d->pool_max
	                 : cfg->connections;
	struct store *s =
	    calloc(1, sizeof *s + (size_t)nconns * sizeof s->conns[0]);
	if (!s)
		return open_refused(err, errlen, BD_ENOMEM, "out of memory");
	s->drv = d;
	for (int i = 0; i < ST_COUNT; i++)
		s->sql[i] = stmt_text(d, (enum stmt)i);
	s->nconns = nconns;
	s->write_wait_ms = cfg->busy_timeout_ms;
	s->path = strdup(cfg->path);
	if (!s->path) {
		free(s);
		return open_refused(err, errlen, BD_ENOMEM, "out of memory");
	}
	s->waiting_expire_ms =
	    cfg->waiting_expire_ms > 0 ? cfg->waiting_expire_ms : 0;
	s->waiting_per_player = cfg->waiting_per_player;
	s->waiting_per_addr = cfg->waiting_per_addr;
	s->bot_games_per_player = cfg->bot_games_per_player;
	if (pool_lock_init(s)) {
		free(s->path);
		free(s);
		return open_refused(err, errlen, BD_EINTERNAL,
		                    "cannot create the pool's lock");
	}
	if (sodium_init() < 0) {
		free(s->path);
		free(s);
		return open_refused(err, errlen, BD_EINTERNAL,
		                    "libsodium failed to initialise");
	}
	if (d->shared) { /* store.h, "what other processes change" */
		uint8_t node[STORE_NODE_LEN / 2];
		randombytes_buf(node, sizeof node);
		sodium_bin2hex(s->node, sizeof s->node, node, sizeof node);
	}
	if (cfg->secret_key)
		memcpy(s->secret_key, cfg->secret_key, STORE_KEY_LEN);
	else
		randombytes_buf(s->secret_key, STORE_KEY_LEN);
	int rc = d->open(s, cfg, err, errlen);
	if (rc == 0)
		rc = pool_open(s, cfg, err, errlen);
	if (rc == 0)
		rc = store__hooks_seal(s, err, errlen);
	if (rc < 0) {
		store_close(s); /* closes what pool_open opened */
		return rc;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	store_unlisten(s); /* its callbacks end before anything goes */
	pool_close(s);
	s->drv->release(s);
	pthread_condattr_destroy(&s->q_ca);
	pthread_mutex_destroy(&s->q_mu);
	pthread_cond_destroy(&s->freed);
	pthread_mutex_destroy(&s->mu);
	sodium_memzero(s->secret_key, sizeof s->secret_key);
	free(s->path);
	free(s);
}

int store_listen(struct store *s, const struct store_remote *r, void *ctx)
{
	return s->drv->listen ? s->drv->listen(s, r, ctx, store__changes_tell)
	                      : 0;
}

void store_unlisten(struct store *s)
{
	if (s->drv->unlisten)
		s->drv->unlisten(s);
}

int store_shared(struct store *s)
{
	return s->drv->shared;
}

int store_lease_take(struct store *s, int64_t game_key, int64_t lease_ms,
                     int *taken)
{
	*taken = 0;
	if (!s->drv->lease) {
		*taken = 1; /* one process owns the database */
		return 0;
	}
	struct conn *c = store__checkout(s);
	int rc = s->drv->lease(c, s->node, game_key, lease_ms, taken);
	store__checkin(s, c);
	return rc;
}

int store_lease_drop(struct store *s, int64_t game_key)
{
	if (!s->drv->lease)
		return 0;
	struct conn *c = store__checkout(s);
	int rc = s->drv->lease(c, s->node, game_key, 0, NULL);
	store__checkin(s, c);
	return rc;
}
