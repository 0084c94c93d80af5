/* replay.c: a game rebuilt move by move from its stored row: the secret
 * that seeds it, its fresh state at seq 0, and one logged move applied.
 * load.c replays a game's tail with them, upgrade.c a whole log under
 * another rules version.  See load.h. */
#include <string.h>

#include "internal.h"

void load_secret(const struct store_game *row, struct engine_secret *out)
{
	memset(out, 0, sizeof *out);
	out->format =
	    row->seed_format == 2 ? ENGINE_SEED_SECRET : ENGINE_SEED_64;
	out->seed = row->seed;
	memcpy(out->secret, row->secret, sizeof out->secret);
	memcpy(out->salt, row->salt, sizeof out->salt);
}

int load_fresh(const struct store_game *row, const struct rules *r,
               struct engine_game **out, struct svc_err *err)
{
	json_t *options = json_loads(row->options, 0, NULL);
	json_t *setup = row->setup ? json_loads(row->setup, 0, NULL) : NULL;
	struct rules_why why;
	int rc = BD_EINTERNAL;
	if (!options || (row->setup && !setup))
		goto out_decref;
	struct engine_secret secret;
	struct rng start;
	load_secret(row, &secret);
	engine_secret_rng(&secret, &start);
	rc = engine_game_new_rng(r, row->seats, options, setup, &start, out,
	                         &why);
	if (rc == 0) /* how its resigned seats are played */
		engine_game_stored_under(*out, row->rules_version);
	if (rc == BD_ENOMEM)
		goto out_decref;
	if (rc < 0)
		rc = BD_EINTERNAL; /* it was valid when the game was created */
out_decref:
	json_decref(options);
	json_decref(setup);
	if (rc == BD_EINTERNAL)
		svc__fail(err, rc, "the stored game no longer sets up");
	return rc;
}

int load_apply_logged(struct engine_game *g, uint64_t seq, int seat,
                      const char *action, struct svc_err *err)
{
	if (seq != g->seq + 1)
		return svc__fail(err, BD_EINTERNAL, "the move log has a gap");
	json_t *a = json_loads(action, 0, NULL);
	if (!a)
		return svc__fail(err, BD_EINTERNAL, "a logged move is not JSON");
	struct rules_why why;
	int rc = engine_game_apply(g, seat, a, &why);
	json_decref(a);
	if (rc == BD_ENOMEM)
		return rc;
	if (rc < 0)
		return svc__fail(err, BD_EINTERNAL,
		            "a logged move no longer replays");
	return 0;
}
