/* store_upgrade.c: the state hashes of the move log and the outcome of a
 * rules upgrade check (sql/0016_state_hashes.sql, docs/upgrades.md).  See
 * store.h ("rules upgrades"); internals in store_int.h. */
#include <stdint.h>
#include <string.h>

#include "store_int.h"

struct hashes_ctx {
	uint64_t upto;
	unsigned char *hashes, *have;
};

static int hash_row(const struct row *st, void *ctx)
{
	struct hashes_ctx *x = ctx;
	int64_t seq = store__col_i64(st, 0);
	if (seq < 1 || (uint64_t)seq > x->upto)
		return 0;
	if (store__col_null(st, 1) ||
	    store__col_bytes(st, 1) != STORE_STATE_HASH_LEN)
		return 0; /* none: logged before sql/0016 */
	memcpy(x->hashes + (size_t)(seq - 1) * STORE_STATE_HASH_LEN,
	       store__col_blob(st, 1), STORE_STATE_HASH_LEN);
	x->have[seq - 1] = 1;
	return 0;
}

int store_move_hashes(struct store *s, int64_t key, uint64_t upto,
                      unsigned char *hashes, unsigned char *have)
{
	struct hashes_ctx x = {upto, hashes, have};
	struct conn *c = store__checkout(s);
	int rc = store__run(
	    c, ST_MOVE_HASHES,
	    ARGS(A_I64(key),
	         A_I64(upto > INT64_MAX ? INT64_MAX : (int64_t)upto)),
	    hash_row, &x);
	store__checkin(s, c);
	return rc;
}

int store_rules_check_get(struct store *s, int64_t key, unsigned version,
                          uint64_t *seq)
{
	int64_t v = 0;
	struct conn *c = store__checkout(s);
	int rc = store__lookup_i64(c, ST_RULES_CHECK_GET,
	                           ARGS(A_I64(key), A_I64(version)), &v);
	store__checkin(s, c);
	if (rc == 0)
		*seq = (uint64_t)v;
	return rc;
}

static int settle_tx(struct conn *c, void *ctx)
{
	const struct store_rules_check *x = ctx;
	int rc = 0;
	for (uint64_t i = 0; x->fill && rc == 0 && i < x->seq; i++)
		if (x->fill_have[i])
			rc = store__run(
			    c, ST_MOVE_HASH_FILL,
			    ARGS(A_I64(x->key), A_I64(i + 1),
			         A_BLOB(x->fill + i * STORE_STATE_HASH_LEN,
			                STORE_STATE_HASH_LEN)),
			    NULL, NULL);
	if (rc < 0)
		return rc;
	if (x->differed)
		return store__run(
		    c, ST_RULES_CHECK_PUT,
		    ARGS(A_I64(x->key), A_I64(x->to),
		         A_I64(x->differed == UINT64_MAX ? 0 : x->differed)),
		    NULL, NULL);
	rc = store__run(
	    c, ST_GAME_RULES_MOVE,
	    ARGS(A_I64(x->key), A_I64(x->from), A_I64(x->to), A_I64(x->seq)),
	    NULL, NULL);
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_ECONFLICT; /* moved meanwhile: checked again later */
	return rc;
}

int store_rules_settle(struct store *s, const struct store_rules_check *c)
{
	return store__write_tx(s, settle_tx, (void *)c);
}
