/* store_values.c: the values every file of the store reads and binds:
 * typed columns of a row (over the driver's readers in store_int.h), a
 * game row, a uint64's bits, the time now and the cutoff of waiting
 * games.  See store_int.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"
#include "store_int.h"

int64_t store__waiting_cutoff(const struct store *s)
{
	return s->waiting_expire_ms ? store__now_ms() - s->waiting_expire_ms
	                            : INT64_MIN;
}

int store__read_i64(const struct row *st, void *ctx)
{
	struct one_i64 *o = ctx;
	o->found = 1;
	o->v = store__col_i64(st, 0);
	return 0;
}

/* ---- columns, through the row's driver (driver.h) ---- */

int64_t store__col_i64(const struct row *r, int col)
{
	return r->drv->col_i64(r, col);
}

const char *store__col_text(const struct row *r, int col)
{
	return r->drv->col_text(r, col);
}

const void *store__col_blob(const struct row *r, int col)
{
	return r->drv->col_blob(r, col);
}

int store__col_bytes(const struct row *r, int col)
{
	return r->drv->col_bytes(r, col);
}

int store__col_null(const struct row *r, int col)
{
	return r->drv->col_null(r, col);
}

int store__col_count(const struct row *r)
{
	return r->drv->col_count(r);
}

int store__col_int(const struct row *r, int col)
{
	return (int)store__col_i64(r, col);
}

/* ---- values ---------------------------------------------------------- */

int64_t store__now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The int64 with the bit pattern of u: how SQLite stores a uint64. */
int64_t store__u64_bits(uint64_t u)
{
	int64_t i;
	memcpy(&i, &u, sizeof i);
	return i;
}

/* Copies text column col into buf; BD_EINTERNAL if it does not fit (the
 * schema's CHECKs make that a corrupt file). */
int store__col_copy(const struct row *st, int col, char *buf, size_t len)
{
	const char *t = store__col_text(st, col);
	size_t n = t ? strlen(t) : 0;
	if (!t || n >= len)
		return BD_EINTERNAL;
	memcpy(buf, t, n + 1);
	return 0;
}

/* *out = a malloc'd copy of text column col, or NULL if it is NULL. */
int store__col_strdup(const struct row *st, int col, char **out)
{
	const char *t = store__col_text(st, col);
	*out = NULL;
	if (!t)
		return store__col_null(st, col) ? 0 : BD_ENOMEM;
	*out = strdup(t);
	return *out ? 0 : BD_ENOMEM;
}

void store_game_release(struct store_game *g)
{
	if (!g)
		return;
	free(g->options);
	free(g->setup);
	free(g->result);
	free(g->bots);
	free(g->clock);
	free(g->clock_state);
	free(g->players);
	g->players = NULL;
	g->options = g->setup = g->result = g->bots = NULL;
	g->clock = g->clock_state = NULL;
}

/* Reads the GAME_COLS row at st into *g (caller releases, even on
 * failure: every pointer is NULL or owned). */
int store__game_read(const struct row *st, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->key = store__col_i64(st, GC_KEY);
	g->rules_version = (unsigned)store__col_i64(st, GC_RULES_VERSION);
	g->seats = store__col_int(st, GC_SEATS);
	g->seed = (uint64_t)store__col_i64(st, GC_SEED);
	g->seq = (uint64_t)store__col_i64(st, GC_SEQ);
	g->to_act = (unsigned)store__col_i64(st, GC_TO_ACT);
	g->created_ms = store__col_i64(st, GC_CREATED_MS);
	g->updated_ms = store__col_i64(st, GC_UPDATED_MS);
	g->open_seats = store__col_int(st, GC_OPEN_SEATS);
	g->bot_seats = (unsigned)store__col_i64(st, GC_BOT_SEATS);
	int rc = store__col_copy(st, GC_ID, g->id, sizeof g->id);
	if (rc == 0)
		rc = store__col_copy(st, GC_RULES_ID, g->rules_id,
		                     sizeof g->rules_id);
	if (rc == 0)
		rc =
		    store__col_copy(st, GC_STATUS, g->status, sizeof g->status);
	if (rc == 0)
		rc = store__col_strdup(st, GC_OPTIONS, &g->options);
	if (rc == 0)
		rc = store__col_strdup(st, GC_SETUP, &g->setup);
	if (rc == 0)
		rc = store__col_strdup(st, GC_RESULT, &g->result);
	if (rc == 0)
		rc = store__col_strdup(st, GC_BOTS, &g->bots);
	if (rc == 0)
		rc = store__col_strdup(st, GC_CLOCK, &g->clock);
	if (rc == 0)
		rc = store__col_strdup(st, GC_CLOCK_STATE, &g->clock_state);
	g->deadline_ms = store__col_i64(st, GC_DEADLINE_MS);
	g->seats_version = store__col_i64(st, GC_SEATS_VERSION);
	g->seats_until_ms = store__col_i64(st, GC_SEATS_UNTIL);
	g->seed_format = store__col_int(st, GC_SEED_FORMAT);
	g->imported = store__col_int(st, GC_IMPORTED);
	g->creator_key = store__col_i64(st, GC_CREATOR_KEY);
	if (rc == 0)
		rc = store__col_copy(st, GC_CREATOR_ADDR, g->creator_from,
		                     sizeof g->creator_from);
	g->rematch_seats = (unsigned)store__col_i64(st, GC_REMATCH_SEATS);
	g->rematch_by = store__col_int(st, GC_REMATCH_BY);
	if (rc == 0)
		rc = store__col_copy(st, GC_REMATCH, g->rematch,
		                     sizeof g->rematch);
	if (rc == 0)
		rc = store__col_copy(st, GC_REMATCH_OF, g->rematch_of,
		                     sizeof g->rematch_of);
	if (store__col_bytes(st, GC_SECRET) == sizeof g->secret &&
	    store__col_bytes(st, GC_SALT) == sizeof g->salt) {
		memcpy(g->secret, store__col_blob(st, GC_SECRET),
		       sizeof g->secret);
		memcpy(g->salt, store__col_blob(st, GC_SALT), sizeof g->salt);
	} else if (g->seed_format != 1) {
		rc = rc ? rc : BD_EINTERNAL; /* the CHECKs make it impossible */
	}
	return rc;
}

int store__read_key(const struct row *st, void *ctx)
{
	struct store_keys *x = ctx;
	int rc = x->fn(x->ctx, store__col_i64(st, 0));
	return rc < 0 ? rc : 0;
}
