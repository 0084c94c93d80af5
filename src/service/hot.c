/* hot.c: the hot game table: game rows and seat holders in memory,
 * hashed by game id in locked shards, kept correct by write marks.  See
 * hot.h and docs/read-path.md. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hot.h"

#define HOT_SHARDS 16
/* Write marks per shard: a game's mark is one of them, by hash; two
 * games sharing one only make each other's misses keep nothing while
 * one of them is written. */
#define HOT_MARKS 256

struct hot_node {
	struct hot_game g; /* first: a hot_game * is its node's address */
	atomic_int refs;   /* the table's one, plus each borrower's */
	uint64_t h;        /* hash of g.row.id */
	struct hot_node *chain, *newer, *older;
};

/* A write mark: writes of its games in flight, and a generation bumped
 * at each write's begin and end. */
struct hot_mark {
	unsigned pending;
	uint64_t gen;
};

struct hot_shard {
	pthread_mutex_t lock;
	struct hot_node **buckets; /* nbuckets heads, a power of two */
	size_t nbuckets, n, cap;
	struct hot_node *newest, *oldest;
	struct hot_mark marks[HOT_MARKS];
};

struct hot_table {
	atomic_uint all_pending; /* hot_write_begin_all in flight */
	atomic_uint_fast64_t all_gen;
	struct hot_shard shards[HOT_SHARDS];
};

/* FNV-1a of a game id. */
static uint64_t hash_id(const char *id)
{
	uint64_t h = 14695981039346656037ull;
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 1099511628211ull;
	return h ^ (h >> 31);
}

static struct hot_shard *shard_of(struct hot_table *t, uint64_t h)
{
	return &t->shards[(h >> 56) % HOT_SHARDS];
}

static struct hot_mark *mark_of(struct hot_shard *s, uint64_t h)
{
	return &s->marks[(h >> 8) % HOT_MARKS];
}

struct hot_table *hot_new(size_t capacity)
{
	struct hot_table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	if (capacity == 0)
		capacity = 1;
	for (int i = 0; i < HOT_SHARDS; i++) {
		struct hot_shard *s = &t->shards[i];
		pthread_mutex_init(&s->lock, NULL);
		s->cap = (capacity + HOT_SHARDS - 1) / HOT_SHARDS;
		s->nbuckets = 1;
		while (s->nbuckets < s->cap)
			s->nbuckets <<= 1;
		s->buckets = calloc(s->nbuckets, sizeof *s->buckets);
		if (!s->buckets) {
			hot_free(t);
			return NULL;
		}
	}
	return t;
}

static void node_free(struct hot_node *nd)
{
	store_game_release(&nd->g.row);
	free(nd);
}

void hot_release(const struct hot_game *e)
{
	struct hot_node *nd = (struct hot_node *)(uintptr_t)e;
	if (nd && atomic_fetch_sub(&nd->refs, 1) == 1)
		node_free(nd);
}

void hot_free(struct hot_table *t)
{
	if (!t)
		return;
	for (int i = 0; i < HOT_SHARDS; i++) {
		struct hot_shard *s = &t->shards[i];
		for (struct hot_node *nd = s->newest, *next; nd; nd = next) {
			next = nd->older;
			hot_release(&nd->g);
		}
		free(s->buckets);
		pthread_mutex_destroy(&s->lock);
	}
	free(t);
}

/* The node of `id` in s, or NULL.  Caller holds s->lock. */
static struct hot_node *find(struct hot_shard *s, uint64_t h, const char *id)
{
	struct hot_node *nd =
	    s->buckets ? s->buckets[h & (s->nbuckets - 1)] : NULL;
	while (nd && (nd->h != h || strcmp(nd->g.row.id, id) != 0))
		nd = nd->chain;
	return nd;
}

static void lru_unlink(struct hot_shard *s, struct hot_node *nd)
{
	if (nd->newer)
		nd->newer->older = nd->older;
	else
		s->newest = nd->older;
	if (nd->older)
		nd->older->newer = nd->newer;
	else
		s->oldest = nd->newer;
	nd->newer = nd->older = NULL;
}

static void lru_front(struct hot_shard *s, struct hot_node *nd)
{
	nd->older = s->newest;
	nd->newer = NULL;
	if (s->newest)
		s->newest->newer = nd;
	s->newest = nd;
	if (!s->oldest)
		s->oldest = nd;
}

/* Takes nd out of s (hash chain and LRU list) and drops the table's
 * reference.  Caller holds s->lock. */
static void unlink_node(struct hot_shard *s, struct hot_node *nd)
{
	struct hot_node **p = &s->buckets[nd->h & (s->nbuckets - 1)];
	while (*p != nd)
		p = &(*p)->chain;
	*p = nd->chain;
	lru_unlink(s, nd);
	s->n--;
	hot_release(&nd->g);
}

const struct hot_game *hot_get(struct hot_table *t, const char *id,
                               struct hot_ticket *ticket)
{
	uint64_t h = hash_id(id);
	struct hot_shard *s = shard_of(t, h);
	/* Read before the mark: a begin_all after this read bumps all_gen,
	 * which hot_put then sees. */
	uint64_t all_gen = atomic_load(&t->all_gen);
	int all_busy = atomic_load(&t->all_pending) != 0;
	pthread_mutex_lock(&s->lock);
	struct hot_mark *m = mark_of(s, h);
	struct hot_node *nd = all_busy || m->pending ? NULL : find(s, h, id);
	if (nd) {
		atomic_fetch_add(&nd->refs, 1);
		lru_unlink(s, nd);
		lru_front(s, nd);
	} else {
		*ticket = (struct hot_ticket){m->gen, all_gen,
		                              !all_busy && !m->pending};
	}
	pthread_mutex_unlock(&s->lock);
	return nd ? &nd->g : NULL;
}

/* strdup of a field that may be NULL; 0, or -1 when out of memory. */
static int dup_field(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -1 : 0;
}

int hot_row_copy(struct store_game *dst, const struct store_game *src)
{
	*dst = *src;
	dst->options = dst->setup = dst->result = dst->bots = NULL;
	dst->clock = dst->clock_state = dst->players = NULL;
	dst->creator_addr = NULL;
	if (dup_field(&dst->options, src->options) < 0 ||
	    dup_field(&dst->setup, src->setup) < 0 ||
	    dup_field(&dst->result, src->result) < 0 ||
	    dup_field(&dst->bots, src->bots) < 0 ||
	    dup_field(&dst->clock, src->clock) < 0 ||
	    dup_field(&dst->clock_state, src->clock_state) < 0) {
		store_game_release(dst);
		return BD_ENOMEM;
	}
	return 0;
}

/* A new node holding a copy of row, no seats yet, refs 2 (the table's
 * and the caller's), or NULL. */
static struct hot_node *node_new(const struct store_game *row, uint64_t h)
{
	struct hot_node *nd = calloc(1, sizeof *nd);
	if (!nd)
		return NULL;
	if (hot_row_copy(&nd->g.row, row) < 0) {
		free(nd);
		return NULL;
	}
	nd->h = h;
	atomic_init(&nd->refs, 2);
	return nd;
}

/* Puts nd in s as its game's entry (in place of one there), the least
 * recently used entry going if s is full.  Caller holds s->lock. */
static void insert(struct hot_shard *s, struct hot_node *nd)
{
	struct hot_node *old = find(s, nd->h, nd->g.row.id);
	if (old)
		unlink_node(s, old);
	if (s->n >= s->cap && s->oldest)
		unlink_node(s, s->oldest);
	struct hot_node **b = &s->buckets[nd->h & (s->nbuckets - 1)];
	nd->chain = *b;
	*b = nd;
	lru_front(s, nd);
	s->n++;
}

const struct hot_game *hot_put(struct hot_table *t,
                               const struct hot_ticket *ticket,
                               const struct store_game *row,
                               const struct store_seat *seats, int n)
{
	if (!ticket->ok || strcmp(row->status, "waiting") == 0 || n < 0 ||
	    n > ENGINE_MAX_SEATS || n != row->seats)
		return NULL;
	uint64_t h = hash_id(row->id);
	struct hot_node *nd = node_new(row, h);
	if (!nd)
		return NULL;
	nd->g.nseats = n;
	memcpy(nd->g.seats, seats, (size_t)n * sizeof *seats);
	struct hot_shard *s = shard_of(t, h);
	pthread_mutex_lock(&s->lock);
	struct hot_mark *m = mark_of(s, h);
	/* A write of this game began since the ticket (or is running): what
	 * the caller read may be older than the store. */
	int ok = !m->pending && m->gen == ticket->gen &&
	         atomic_load(&t->all_pending) == 0 &&
	         atomic_load(&t->all_gen) == ticket->all_gen;
	if (ok)
		insert(s, nd);
	pthread_mutex_unlock(&s->lock);
	if (!ok) {
		node_free(nd);
		return NULL;
	}
	return &nd->g;
}

/* Drops game id's entry (of hash h, in s) and bumps its mark; pending +=
 * delta.  Returns the mark's new generation.  Caller holds s->lock. */
static uint64_t mark_locked(struct hot_shard *s, uint64_t h, const char *id,
                            int delta)
{
	struct hot_mark *m = mark_of(s, h);
	m->pending += (unsigned)delta;
	struct hot_node *nd = find(s, h, id);
	if (nd)
		unlink_node(s, nd);
	return ++m->gen;
}

/* mark_locked for a caller that holds nothing. */
static void mark(struct hot_table *t, const char *id, int delta)
{
	uint64_t h = hash_id(id);
	struct hot_shard *s = shard_of(t, h);
	pthread_mutex_lock(&s->lock);
	mark_locked(s, h, id, delta);
	pthread_mutex_unlock(&s->lock);
}

void hot_write_begin(struct hot_table *t, const char *id)
{
	mark(t, id, 1);
}

void hot_write_end(struct hot_table *t, const char *id)
{
	mark(t, id, -1);
}

void hot_move_begin(struct hot_table *t, const char *id, struct hot_move *w)
{
	uint64_t h = hash_id(id);
	struct hot_shard *s = shard_of(t, h);
	w->all_gen = atomic_load(&t->all_gen); /* before the mark: hot_get's */
	w->was = NULL;
	pthread_mutex_lock(&s->lock);
	struct hot_node *nd = find(s, h, id);
	if (nd) {
		atomic_fetch_add(&nd->refs, 1); /* w's, past the unlink */
		w->was = &nd->g;
	}
	w->gen = mark_locked(s, h, id, 1);
	pthread_mutex_unlock(&s->lock);
}

void hot_move_end(struct hot_table *t, const char *id, struct hot_move *w,
                  const struct store_game *row)
{
	uint64_t h = hash_id(id);
	struct hot_shard *s = shard_of(t, h);
	struct hot_node *nd = NULL;
	/* The entry's seats are those of the row the move started from
	 * (same seats_version, an older seq), else nothing is kept. */
	if (row && w->was && strcmp(row->status, "waiting") != 0 &&
	    strcmp(row->id, id) == 0 &&
	    w->was->row.seats_version == row->seats_version &&
	    w->was->row.seq < row->seq && (nd = node_new(row, h)) != NULL) {
		/* A move changes no seat's holder: the entry's seats. */
		nd->g.nseats = w->was->nseats;
		memcpy(nd->g.seats, w->was->seats, sizeof nd->g.seats);
	}
	pthread_mutex_lock(&s->lock);
	struct hot_mark *m = mark_of(s, h);
	/* Nothing else touched the mark since hot_move_begin (no other
	 * write of a game of this mark began or ended, no node forgot it)
	 * and no write of an unknown game ran: row is the store's. */
	int ok = nd && m->pending == 1 && m->gen == w->gen &&
	         atomic_load(&t->all_pending) == 0 &&
	         atomic_load(&t->all_gen) == w->all_gen;
	mark_locked(s, h, id, -1);
	if (ok)
		insert(s, nd);
	pthread_mutex_unlock(&s->lock);
	if (ok)
		hot_release(&nd->g); /* the table's reference is left */
	else if (nd)
		node_free(nd);
	hot_release(w->was);
	w->was = NULL;
}

void hot_write_begin_all(struct hot_table *t)
{
	atomic_fetch_add(&t->all_pending, 1);
	atomic_fetch_add(&t->all_gen, 1);
}

void hot_write_end_all(struct hot_table *t, const char *id)
{
	if (id) {
		mark(t, id, 0);
	}
	atomic_fetch_add(&t->all_gen, 1);
	atomic_fetch_sub(&t->all_pending, 1);
}

void hot_forget(struct hot_table *t, const char *id)
{
	mark(t, id, 0);
}

void hot_clear(struct hot_table *t)
{
	for (int i = 0; i < HOT_SHARDS; i++) {
		struct hot_shard *s = &t->shards[i];
		pthread_mutex_lock(&s->lock);
		while (s->oldest)
			unlink_node(s, s->oldest);
		pthread_mutex_unlock(&s->lock);
	}
}

size_t hot_count(struct hot_table *t)
{
	size_t n = 0;
	for (int i = 0; i < HOT_SHARDS; i++) {
		pthread_mutex_lock(&t->shards[i].lock);
		n += t->shards[i].n;
		pthread_mutex_unlock(&t->shards[i].lock);
	}
	return n;
}
