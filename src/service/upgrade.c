/* upgrade.c: which rules a stored game is played under, and moving it to
 * its module's current version when its log replays the same there
 * (docs/upgrades.md, sql/0016_state_hashes.sql).  See load.h
 * (load_rules). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One replay of a game's log under the current rules (and, when the
 * module keeps it, the game's own older version, for the hashes of moves
 * logged before sql/0016), compared move by move with the stored hashes.
 */
struct replay_check {
	struct engine_game *cur; /* under the current rules; NULL: differed */
	struct engine_game *old; /* under the game's own version, or NULL */
	const unsigned char *hashes, *have; /* stored, per move */
	unsigned char *fill, *fill_have;    /* made under old, per move */
	uint64_t differed;                  /* as struct store_rules_check */
	struct svc_err *err;
};

static int check_move(void *ctx, uint64_t seq, int seat, const char *action,
                      const char *reason, int64_t created_ms)
{
	(void)reason, (void)created_ms;
	struct replay_check *x = ctx;
	size_t i = (size_t)(seq - 1);
	unsigned char *fill = x->fill + i * ENGINE_STATE_HASH_BYTES;
	const unsigned char *want = NULL;
	/* The game's own rules must replay its log: anything else is the
	 * store's trouble, not the upgrade's. */
	if (x->old) {
		int rc = load_apply_logged(x->old, seq, seat, action, x->err);
		if (rc < 0)
			return rc;
	}
	if (x->have[i]) {
		want = x->hashes + i * ENGINE_STATE_HASH_BYTES;
	} else if (x->old) { /* logged before sql/0016: hashed now */
		engine_state_hash(x->old, fill);
		x->fill_have[i] = 1;
		want = fill;
	}
	if (x->differed)
		return 0;
	struct svc_err scratch = {0};
	unsigned char got[ENGINE_STATE_HASH_BYTES];
	if (!want) {
		x->differed = UINT64_MAX; /* nothing to compare: not known */
	} else if (load_apply_logged(x->cur, seq, seat, action, &scratch) < 0) {
		x->differed = seq; /* the new rules refuse the move */
	} else {
		engine_state_hash(x->cur, got);
		if (memcmp(got, want, sizeof got) != 0)
			x->differed = seq;
	}
	return 0;
}

/* Replays l's log under cur (and old, or NULL) into *c (differed, and
 * the hashes to fill in: *fill and *fill_have, malloc'd, the caller's). */
static int replay_compare(struct store *st, const struct store_game *row,
                          const struct rules *cur, const struct rules *old,
                          struct store_rules_check *c, struct svc_err *err)
{
	size_t n = (size_t)row->seq;
	unsigned char *hashes = calloc(n ? n : 1, ENGINE_STATE_HASH_BYTES);
	unsigned char *have = calloc(n ? n : 1, 1);
	unsigned char *fill = calloc(n ? n : 1, ENGINE_STATE_HASH_BYTES);
	unsigned char *fill_have = calloc(n ? n : 1, 1);
	struct replay_check x = {NULL, NULL,      hashes, have,
	                         fill, fill_have, 0,      err};
	struct svc_err scratch = {0};
	int rc = BD_ENOMEM;
	if (!hashes || !have || !fill || !fill_have)
		goto out;
	if ((rc = store_move_hashes(st, row->key, n, hashes, have)) < 0)
		goto out;
	if (old && (rc = load_fresh(row, old, &x.old, err)) < 0)
		goto out;
	if (load_fresh(row, cur, &x.cur, &scratch) < 0)
		x.differed = UINT64_MAX; /* the new rules refuse its setup */
	if (n == 0 && !x.differed) {     /* only the setup to compare */
		unsigned char a[ENGINE_STATE_HASH_BYTES],
		    b[ENGINE_STATE_HASH_BYTES];
		if (!x.old)
			x.differed = UINT64_MAX;
		else if (engine_state_hash(x.cur, a),
		         engine_state_hash(x.old, b), memcmp(a, b, sizeof a))
			x.differed = UINT64_MAX;
	}
	rc = n ? store_moves_range(st, row->key, 0, n, check_move, &x) : 0;
	if (rc == 0 && x.old && x.old->seq != n)
		rc = svc__fail(err, BD_EINTERNAL, "the move log has a gap");
	if (rc == 0 && !x.differed && x.cur->seq != n)
		x.differed = UINT64_MAX;
out:
	engine_game_free(x.cur);
	engine_game_free(x.old);
	free(hashes);
	free(have);
	if (rc < 0) {
		free(fill);
		free(fill_have);
		return rc;
	}
	*c = (struct store_rules_check){
	    row->key, row->rules_version, cur->version, n, x.differed,
	    fill,     fill_have};
	return 0;
}

int load_rules(struct store *st, struct loaded *l, struct svc_err *err)
{
	const struct store_game *row = &l->row;
	const struct rules *cur = engine_rules_find(row->rules_id);
	unsigned v = row->rules_version;
	if (cur && v == cur->version) {
		l->rules = cur;
		return 0;
	}
	const struct rules *old =
	    cur && v < cur->version ? engine_rules_older(cur->id, v) : NULL;
	if (!cur || v > cur->version)
		goto out_refuse;
	/* A version the current module replays exactly (replays_from):
	 * served by it, as before sql/0016. */
	if (!old && engine_rules_replays(cur, v)) {
		l->rules = cur;
		return 0;
	}
	uint64_t at;
	if (store_rules_check_get(st, row->key, cur->version, &at) == 0)
		goto out_differed; /* tried before: go on as it started */
	struct store_rules_check c;
	int rc = replay_compare(st, row, cur, old, &c, err);
	if (rc < 0)
		return rc;
	/* Best effort: a check not recorded is made again next time. */
	int settled = store_rules_settle(st, &c);
	free((void *)c.fill);
	free((void *)c.fill_have);
	if (c.differed)
		goto out_differed;
	/* The same states move for move: the current rules from now on
	 * (also when the record lost a race with another load's, or a
	 * move: that prefix replayed the same too). */
	if (settled == 0)
		l->row.rules_version = cur->version;
	l->rules = cur;
	return 0;
out_differed:
	if (old) {
		l->rules = old;
		return 0;
	}
out_refuse:
	return svc__fail(err, BD_EINTERNAL,
	                 "the game's rules version is not served here");
}
