/* remote.c: what the other nodes on one PostgreSQL database change
 * (service_listen; store.h, "what other processes change").
 *
 * A game another node changed is dropped from the hot table (hot_forget:
 * a read that missed before the notice keeps nothing) and told to the
 * move listener as this node's own moves are (svc__moved), so the
 * long-polls and streams waiting on it here wake and read the new moves
 * from the store.  While a change may go untold (before the first
 * LISTEN, after a lost connection) every read bypasses the hot table
 * (hot_write_begin_all), and once listening again the table starts
 * empty: what it held may have changed meanwhile, and every long-poll
 * and stream looks again (SVC_EVERY_GAME).  The state cache needs
 * nothing: a load brings a cached state older than the row forward from
 * the log (load.c).  Account streams hear of the other nodes' events
 * through the store's change listener (store_on_change). */
#include <time.h>

#include "internal.h"

/* How long service_listen waits for the first listening session, ms. */
#define LISTEN_FIRST_MS 10000

static void remote_game(void *ctx, int64_t key, const char *id, uint64_t seq)
{
	struct service *svc = ctx;
	hot_forget(svc->hot, id);
	svc__moved(svc, key, seq);
	/* SQLite: only boardd admin writes beside this process, rarely; its
	 * resignations may leave a bot or a clock to act here.  (Another
	 * PostgreSQL node plays its own games' bots and clocks.) */
	if (!store_shared(svc->st))
		svc__bots_rescan(svc);
}

static void remote_lost(void *ctx)
{
	struct service *svc = ctx;
	atomic_store(&svc->listening, 0);
	hot_write_begin_all(svc->hot);
}

static void remote_back(void *ctx)
{
	struct service *svc = ctx;
	atomic_store(&svc->listening, 1);
	hot_clear(svc->hot);
	hot_write_end_all(svc->hot, NULL);
	/* what changed while nobody told: every waiter looks again */
	svc__moved(svc, SVC_EVERY_GAME, UINT64_MAX);
	atomic_fetch_add(&svc->backs, 1);
}

static const struct store_remote remote = {remote_game, remote_lost,
                                           remote_back};

int service_listen(struct service *svc)
{
	if (!store_shared(svc->st)) /* SQLite: nobody else writes */
		return store_listen(svc->st, &remote, svc);
	atomic_store(&svc->listening, 0);
	int rc = store_listen(svc->st, &remote, svc);
	if (rc < 0) {
		atomic_store(&svc->listening, -1);
		return rc;
	}
	/* The first session's look-again wake (remote_back) is for waiters
	 * that joined before it; sent after the server opens, it would
	 * answer every long-poll of its first moments with an unchanged
	 * game.  So the server opens once it is listening, or after
	 * LISTEN_FIRST_MS if PostgreSQL is slow to take the session (it
	 * then serves as while the listening connection is lost). */
	const struct timespec step = {0, 10 * 1000 * 1000};
	for (int ms = 0; ms < LISTEN_FIRST_MS && atomic_load(&svc->backs) == 0;
	     ms += 10)
		nanosleep(&step, NULL);
	return 0;
}
