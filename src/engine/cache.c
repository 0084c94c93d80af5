/* cache.c: game states (and bytes served for them) in memory, hashed by
 * game key, in shards that each have their own lock and LRU list, so
 * that readers of different games rarely wait for each other and a
 * lookup costs the same whatever the capacity.  See cache.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* Caches of at least this many games are split in CACHE_SHARDS shards
 * (smaller ones are one shard: an exact LRU over every game). */
#define CACHE_SHARD_FROM 1024
#define CACHE_SHARDS     16

struct engine_bytes {
	atomic_uint refs;
	_Atomic(struct engine_attachment *) attachment; /* owned, or NULL */
	size_t n;
	char p[]; /* n bytes, and a NUL after them */
};

struct cache_bytes {
	uint64_t seq, tag;      /* what they were made for */
	struct engine_bytes *b; /* a reference, or NULL: none */
};

struct cache_entry {
	int64_t key;
	struct cache_entry *chain;         /* next in its hash bucket */
	struct cache_entry *newer, *older; /* LRU list of its shard */
	struct engine_game *g;             /* owned copy */
	struct cache_bytes bytes[ENGINE_CACHE_SLOTS];
};

struct cache_shard {
	pthread_mutex_t lock;
	struct cache_entry **buckets; /* nbuckets heads */
	size_t nbuckets;              /* a power of two >= cap */
	struct cache_entry *newest, *oldest;
	size_t n, cap;
};

struct engine_cache {
	size_t nshards;
	struct cache_shard shards[];
};

static uint64_t mix(int64_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

struct engine_cache *engine_cache_new(size_t capacity)
{
	if (capacity == 0)
		capacity = 1;
	size_t ns = capacity >= CACHE_SHARD_FROM ? CACHE_SHARDS : 1;
	struct engine_cache *c =
	    calloc(1, sizeof *c + ns * sizeof c->shards[0]);
	if (!c)
		return NULL;
	c->nshards = ns;
	for (size_t i = 0; i < ns; i++) {
		struct cache_shard *s = &c->shards[i];
		s->cap = (capacity + ns - 1) / ns;
		s->nbuckets = 1;
		while (s->nbuckets < s->cap)
			s->nbuckets <<= 1;
		s->buckets = calloc(s->nbuckets, sizeof *s->buckets);
		pthread_mutex_init(&s->lock, NULL);
		if (!s->buckets) {
			c->nshards = i + 1;
			engine_cache_free(c);
			return NULL;
		}
	}
	return c;
}

size_t engine_cache_count(struct engine_cache *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nshards; i++) {
		pthread_mutex_lock(&c->shards[i].lock);
		n += c->shards[i].n;
		pthread_mutex_unlock(&c->shards[i].lock);
	}
	return n;
}

struct engine_bytes *engine_bytes_new(const char *bytes, size_t len)
{
	struct engine_bytes *b = malloc(sizeof *b + len + 1);
	if (!b)
		return NULL;
	atomic_init(&b->refs, 1);
	atomic_init(&b->attachment, NULL);
	b->n = len;
	memcpy(b->p, bytes, len);
	b->p[len] = '\0';
	return b;
}

const char *engine_bytes_data(const struct engine_bytes *b)
{
	return b->p;
}

size_t engine_bytes_len(const struct engine_bytes *b)
{
	return b->n;
}

void engine_bytes_release(struct engine_bytes *b)
{
	if (!b ||
	    atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
		return;
	struct engine_attachment *a = atomic_load(&b->attachment);
	if (a)
		a->free(a);
	free(b);
}

struct engine_attachment *engine_bytes_attachment(struct engine_bytes *b)
{
	return atomic_load_explicit(&b->attachment, memory_order_acquire);
}

int engine_bytes_attach(struct engine_bytes *b, struct engine_attachment *a)
{
	struct engine_attachment *none = NULL;
	return atomic_compare_exchange_strong(&b->attachment, &none, a);
}

static void drop_bytes(struct cache_entry *e)
{
	for (int i = 0; i < ENGINE_CACHE_SLOTS; i++) {
		engine_bytes_release(e->bytes[i].b);
		e->bytes[i].b = NULL;
	}
}

void engine_cache_free(struct engine_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nshards; i++) {
		struct cache_shard *s = &c->shards[i];
		for (struct cache_entry *e = s->newest, *next; e; e = next) {
			next = e->older;
			drop_bytes(e);
			engine_game_free(e->g);
			free(e);
		}
		free(s->buckets);
		pthread_mutex_destroy(&s->lock);
	}
	free(c);
}

static struct cache_shard *shard_of(struct engine_cache *c, int64_t key,
                                    uint64_t *h)
{
	*h = mix(key);
	return &c->shards[(*h >> 56) % c->nshards];
}

/* The entry of `key` in s, or NULL.  Caller holds s->lock. */
static struct cache_entry *find(struct cache_shard *s, uint64_t h, int64_t key)
{
	struct cache_entry *e = s->buckets[h & (s->nbuckets - 1)];
	while (e && e->key != key)
		e = e->chain;
	return e;
}

static void lru_unlink(struct cache_shard *s, struct cache_entry *e)
{
	if (e->newer)
		e->newer->older = e->older;
	else
		s->newest = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		s->oldest = e->newer;
	e->newer = e->older = NULL;
}

static void lru_front(struct cache_shard *s, struct cache_entry *e)
{
	if (s->newest == e)
		return;
	if (e->newer || e->older || s->oldest == e)
		lru_unlink(s, e);
	e->older = s->newest;
	if (s->newest)
		s->newest->newer = e;
	s->newest = e;
	if (!s->oldest)
		s->oldest = e;
}

/* Removes e from its bucket (the LRU list is the caller's business). */
static void unchain(struct cache_shard *s, struct cache_entry *e)
{
	struct cache_entry **p = &s->buckets[mix(e->key) & (s->nbuckets - 1)];
	while (*p != e)
		p = &(*p)->chain;
	*p = e->chain;
}

struct engine_game *engine_cache_get(struct engine_cache *c, int64_t key)
{
	uint64_t h;
	struct cache_shard *s = shard_of(c, key, &h);
	struct engine_game *copy = NULL;
	pthread_mutex_lock(&s->lock);
	struct cache_entry *e = find(s, h, key);
	if (e) {
		lru_front(s, e);
		copy = engine_game_clone(e->g);
	}
	pthread_mutex_unlock(&s->lock);
	return copy;
}

void engine_cache_put(struct engine_cache *c, int64_t key,
                      const struct engine_game *g)
{
	uint64_t h;
	struct cache_shard *s = shard_of(c, key, &h);
	struct engine_game *copy = engine_game_clone(g);
	struct cache_entry *fresh = calloc(1, sizeof *fresh);
	struct engine_game *old = NULL;
	if (!copy)
		goto out;
	pthread_mutex_lock(&s->lock);
	struct cache_entry *e = find(s, h, key);
	if (e && e->g->seq >= g->seq) {
		lru_front(s, e); /* as new as this one, or newer: kept */
		old = copy;
	} else if (e) {
		old = e->g;
		e->g = copy;
		drop_bytes(e); /* made for an older seq */
		lru_front(s, e);
	} else if (fresh || s->n >= s->cap) {
		if (s->n >= s->cap) { /* reuse the least recently used */
			e = s->oldest;
			lru_unlink(s, e);
			unchain(s, e);
			drop_bytes(e);
			old = e->g;
			memset(e, 0, sizeof *e);
		} else {
			e = fresh;
			fresh = NULL;
			s->n++;
		}
		e->key = key;
		e->g = copy;
		struct cache_entry **b = &s->buckets[h & (s->nbuckets - 1)];
		e->chain = *b;
		*b = e;
		lru_front(s, e);
	} else {
		old = copy; /* out of memory: best effort */
	}
	pthread_mutex_unlock(&s->lock);
out:
	engine_game_free(old);
	free(fresh);
}

int engine_cache_bytes_share(struct engine_cache *c, int64_t key, unsigned slot,
                             uint64_t seq, uint64_t tag,
                             struct engine_bytes **out)
{
	uint64_t h;
	struct cache_shard *s = shard_of(c, key, &h);
	int hit = 0;
	if (slot >= ENGINE_CACHE_SLOTS)
		return 0;
	pthread_mutex_lock(&s->lock);
	struct cache_entry *e = find(s, h, key);
	struct cache_bytes *b = e ? &e->bytes[slot] : NULL;
	if (b && b->b && b->seq == seq && b->tag == tag && e->g->seq == seq) {
		atomic_fetch_add_explicit(&b->b->refs, 1, memory_order_relaxed);
		*out = b->b;
		hit = 1;
		lru_front(s, e);
	}
	pthread_mutex_unlock(&s->lock);
	return hit;
}

void engine_cache_bytes_keep(struct engine_cache *c, int64_t key, unsigned slot,
                             uint64_t seq, uint64_t tag,
                             struct engine_bytes *bytes)
{
	uint64_t h;
	struct cache_shard *s = shard_of(c, key, &h);
	struct engine_bytes *old = NULL;
	if (slot >= ENGINE_CACHE_SLOTS)
		return;
	pthread_mutex_lock(&s->lock);
	struct cache_entry *e = find(s, h, key);
	if (e && e->g->seq == seq) {
		struct cache_bytes *b = &e->bytes[slot];
		old = b->b;
		atomic_fetch_add_explicit(&bytes->refs, 1,
		                          memory_order_relaxed);
		b->seq = seq;
		b->tag = tag;
		b->b = bytes;
	}
	pthread_mutex_unlock(&s->lock);
	engine_bytes_release(old);
}
