/* stats.c: what GET /metrics shows of the service (service_stats), and
 * GET /readyz (service_ready). */
#include "internal.h"

/* How late a timeout may be, seconds: the clock worker wakes at the
 * deadline (bots.c), so anything past a second means a busy queue. */
static const double lag_bounds[] = {0.01, 0.05, 0.1, 0.25, 0.5, 1,
                                    2.5,  5,    10,  30,   60,  300};

void svc__stats_init(struct service *svc)
{
	atomic_init(&svc->moves_committed, 0);
	atomic_init(&svc->listening, -1);
	atomic_init(&svc->backs, 0);
	histo_init(&svc->deadline_lag, lag_bounds,
	           sizeof lag_bounds / sizeof *lag_bounds);
}

int service_ready(struct service *svc, struct svc_err *err)
{
	int rc = store_ping(svc->st);
	if (rc == BD_EUNAVAILABLE)
		return svc__fail(err, BD_EUNAVAILABLE, "%s",
		                 store_shared(svc->st)
		                     ? "the database server does not answer"
		                     : "the database file was deleted or "
		                       "replaced while the server ran");
	if (rc < 0)
		return svc__fail(err, BD_EUNAVAILABLE,
		                 "the database does not answer (bd_err %d)",
		                 rc);
	return 0;
}

void service_stats(struct service *svc, struct svc_stats *out)
{
	out->games_cached = engine_cache_count(svc->cache);
	out->cache_capacity = svc->cache_games;
	out->moves_committed =
	    atomic_load_explicit(&svc->moves_committed, memory_order_relaxed);
	out->bot_queue = svc__bots_queued(svc);
	if (store_deliveries_pending(svc->st, &out->webhook_pending) < 0)
		out->webhook_pending = -1;
	if (store_disk_usage(svc->st, &out->db_bytes, &out->wal_bytes) < 0)
		out->db_bytes = out->wal_bytes = -1;
	out->listening = atomic_load(&svc->listening);
	store_write_stats(svc->st, &out->writes);
	histo_snap(&svc->deadline_lag, &out->deadline_lag);
}
