/* botqueue.c: the bot workers' wake-up queue (bots.h): the games a bot
 * is to act in and the games whose clock deadline passed, what wakes the
 * workers (svc__bots_wake, svc__clock_wake, svc__bots_rescan: called by
 * moves, clocks and requests), and the order the workers take games in.
 *
 * Fair shares.  Each queued game carries its share (svc__bot_share): the
 * network that created it (IPv4 /24, IPv6 /64), its owner (the player
 * who created it, else the address that did) and whether a person still
 * plays in it.  Two tiers: the games where a person still plays (a seat
 * neither a bot's nor resigned) go before every game where only bots
 * play (games of bots only, and games whose every person resigned and
 * whose bots play them out, which need no token and count against no
 * cap); and the games of the second tier take at most all workers but
 * one (one when there is one), so a person's bot never waits for a
 * worker that bots-only games hold, where there are two or more.  Within
 * a tier the workers take the networks in turn, then the owners within
 * each network, not the games: a worker takes the oldest game of a
 * network not yet served in this round (a new round begins when every
 * network with a game queued in the tier was), and of that network the
 * oldest game of an owner not yet served in the network's own round.  So
 * one owner's many games (a player's bot-only games, capped by
 * --bot-games-per-player, or many games an address created), or many
 * accounts' games created from one network, delay another network's next
 * decision by at most the decisions the workers are making (one each, at
 * most --bot-ms), and with k networks waiting each gets 1/k of the
 * workers.  The games whose deadline passed go before every bot decision
 * (`due` is taken first): a timeout waits for a free worker only, never
 * behind queued bot decisions. */
#include <pthread.h>
#include <sodium.h>
#include <string.h>

#include "bots.h"

size_t svc__bots_queued(struct service *svc)
{
	struct svc_bots *b = svc->bots;
	if (!b)
		return 0;
	pthread_mutex_lock(&b->mu);
	size_t n = b->len + b->ndue;
	pthread_mutex_unlock(&b->mu);
	return n;
}

/* The key that makes an address an owner or a network (svc__bot_share):
 * random per run, so nobody can pick an address whose owner is another's. */
static unsigned char owner_key[crypto_shorthash_KEYBYTES];
static pthread_once_t owner_key_once = PTHREAD_ONCE_INIT;

static void owner_key_init(void)
{
	randombytes_buf(owner_key, sizeof owner_key);
}

/* The keyed hash of the `len` bytes of address text at addr, from
 * INT64_MIN up: apart from players (> 0) and games (-key). */
static int64_t addr_hash(const char *addr, size_t len)
{
	unsigned char h[crypto_shorthash_BYTES];
	uint64_t v = 0;
	pthread_once(&owner_key_once, owner_key_init);
	crypto_shorthash(h, (const unsigned char *)addr, len, owner_key);
	for (size_t i = 0; i < sizeof h && i < sizeof v; i++)
		v = v << 8 | h[i];
	return INT64_MIN + (int64_t)(v >> 2);
}

struct svc_bot_share svc__bot_share(const struct store_game *row,
                                    unsigned resigned)
{
	const char *addr =
	    row->creator_from[0] ? row->creator_from : row->creator_addr;
	struct svc_bot_share sh = {0};
	unsigned seats =
	    row->seats > 0 && row->seats < 32 ? (1u << row->seats) - 1 : 0;
	sh.people = (seats & ~row->bot_seats & ~resigned) != 0;
	if (!addr || !addr[0]) {
		sh.owner = row->creator_key > 0 ? row->creator_key : -row->key;
		sh.net = sh.owner; /* a network of its own */
		return sh;
	}
	/* An address's text is limits_addr_text's: an IPv4 one's network
	 * is its /24 (the text to its last dot); an IPv6 one is already
	 * its /64 ("2001:db8:1:2::/64"), "local" itself. */
	size_t len = strlen(addr);
	const char *dot = strrchr(addr, '.');
	sh.net = addr_hash(
	    addr, dot && !strchr(addr, ':') ? (size_t)(dot - addr) : len);
	sh.owner =
	    row->creator_key > 0 ? row->creator_key : addr_hash(addr, len);
	return sh;
}

static int tier_of(const struct svc_bot_share *sh)
{
	return sh->people ? TIER_PEOPLE : TIER_BOTS;
}

/* The job of key in jobs, or NULL.  Under b->mu. */
struct bot_job *botq_queued(struct svc_bots *b, int64_t key)
{
	for (size_t i = 0; i < b->len; i++)
		if (b->jobs[i].key == key)
			return &b->jobs[i];
	return NULL;
}

/* Queues key (of `share`) unless it is there, when its share becomes
 * this one (the latest wake-up knows best: a person may have resigned
 * since); a full queue asks for a rescan.  Under b->mu. */
void botq_push(struct svc_bots *b, int64_t key,
                 const struct svc_bot_share *share)
{
	struct bot_job *j = botq_queued(b, key);
	if (j) {
		b->queued[tier_of(&j->share)]--;
		j->share = *share;
		b->queued[tier_of(share)]++;
		return;
	}
	if (b->len == b->cap) {
		b->rescan = 1;
		b->dropped = 1;
		return;
	}
	b->jobs[b->len++] = (struct bot_job){key, *share};
	b->queued[tier_of(share)]++;
}

/* Queues key in due unless it is there (the clock pass leaves room).
 * Under b->mu. */
void botq_push_due(struct svc_bots *b, int64_t key)
{
	for (size_t i = 0; i < b->ndue; i++)
		if (b->due[i] == key)
			return;
	if (b->ndue < b->cap)
		b->due[b->ndue++] = key;
}

/* 1 if net was served in round r. */
static int net_served(const struct bot_round *r, int64_t net)
{
	for (size_t i = 0; i < r->nnets; i++)
		if (r->nets[i] == net)
			return 1;
	return 0;
}

/* 1 if owner was served in its network's round of r. */
static int owner_served(const struct bot_round *r, int64_t net, int64_t owner)
{
	for (size_t i = 0; i < r->nowners; i++)
		if (r->owners[i].net == net && r->owners[i].owner == owner)
			return 1;
	return 0;
}

/* Begins a new round of net's owners in r: forgets those served. */
static void net_round(struct bot_round *r, int64_t net)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nowners; i++)
		if (r->owners[i].net != net)
			r->owners[n++] = r->owners[i];
	r->nowners = n;
}

/* The tier a worker takes its next game from: a due game first (-1),
 * else TIER_PEOPLE's, else TIER_BOTS' while fewer than all workers but
 * one play such games; TIERS: nothing it may take.  Under b->mu. */
int botq_next_tier(const struct svc_bots *b)
{
	int bots_max = b->nworkers > 1 ? b->nworkers - 1 : 1;
	if (b->ndue)
		return -1;
	if (b->queued[TIER_PEOPLE])
		return TIER_PEOPLE;
	if (b->queued[TIER_BOTS] && b->bots_playing < bots_max)
		return TIER_BOTS;
	return TIERS;
}

/* Takes the next game of `tier` (next_tier's, not TIERS): the oldest due
 * one (-1), else the oldest one of the tier's next network in its round,
 * and of that network's next owner in the network's round (fair shares,
 * above).  Under b->mu. */
struct bot_job botq_take(struct svc_bots *b, int tier)
{
	struct bot_job j = {0};
	if (tier < 0) {
		j.key = b->due[0];
		memmove(b->due, b->due + 1, --b->ndue * sizeof *b->due);
		j.share.people = 1; /* not known here: the game itself */
		j.share.net = j.share.owner = -j.key;
		return j;
	}
	struct bot_round *r = &b->rounds[tier];
	size_t i, first = b->len;
	for (i = 0; i < b->len; i++) {
		if (tier_of(&b->jobs[i].share) != tier)
			continue;
		if (first == b->len)
			first = i;
		if (!net_served(r, b->jobs[i].share.net))
			break;
	}
	if (i == b->len) { /* a new round */
		r->nnets = 0;
		i = first;
	}
	/* (no game before i is of its network: each was served) */
	int64_t net = b->jobs[i].share.net;
	size_t k;
	for (k = i; k < b->len; k++)
		if (tier_of(&b->jobs[k].share) == tier &&
		    b->jobs[k].share.net == net &&
		    !owner_served(r, net, b->jobs[k].share.owner))
			break;
	if (k == b->len) { /* a new round of the network's owners */
		net_round(r, net);
		k = i;
	}
	j = b->jobs[k];
	memmove(b->jobs + k, b->jobs + k + 1,
	        (b->len - k - 1) * sizeof *b->jobs);
	b->len--;
	b->queued[tier]--;
	/* New networks or owners kept coming all round: a new round. */
	if (r->nnets == b->cap)
		r->nnets = 0;
	r->nets[r->nnets++] = net;
	if (r->nowners == b->cap)
		r->nowners = 0;
	r->owners[r->nowners++] = (struct bot_served){net, j.share.owner};
	return j;
}

void svc__bots_wake(struct service *svc, int64_t key,
                    const struct svc_bot_share *share)
{
	struct svc_bots *b = svc->bots;
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	if (!b->stopping) {
		botq_push(b, key, share);
		pthread_cond_signal(&b->wake);
	}
	pthread_mutex_unlock(&b->mu);
}

void svc__clock_wake(struct service *svc, int64_t deadline_ms)
{
	struct svc_bots *b = svc->bots;
	if (!b || deadline_ms <= 0)
		return;
	pthread_mutex_lock(&b->mu);
	if (!b->due_ms || deadline_ms < b->due_ms) {
		b->due_ms = deadline_ms;
		pthread_cond_signal(&b->wake);
	}
	pthread_mutex_unlock(&b->mu);
}

void svc__bots_rescan(struct service *svc)
{
	struct svc_bots *b = svc->bots;
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->rescan = 1;
	b->due_scan = 1;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->mu);
}
