/* cache.c: a small LRU of game states behind one mutex.  Capacities are
 * a few thousand at most, so a linear scan is simpler than a hash table
 * and costs well under a microsecond per entry. */
#include <pthread.h>
#include <stdlib.h>

#include "cache.h"

struct cache_entry {
	int64_t key;           /* game key; 0 = empty slot */
	uint64_t used;         /* tick of the last get or put (LRU order) */
	struct engine_game *g; /* owned copy */
};

struct engine_cache {
	pthread_mutex_t lock;
	uint64_t tick;                /* grows on every access */
	size_t capacity;              /* slots in entries */
	struct cache_entry entries[]; /* capacity slots */
};

struct engine_cache *engine_cache_new(size_t capacity)
{
	if (capacity == 0)
		capacity = 1;
	struct engine_cache *c =
	    calloc(1, sizeof *c + capacity * sizeof c->entries[0]);
	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	c->capacity = capacity;
	return c;
}

void engine_cache_free(struct engine_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->capacity; i++)
		engine_game_free(c->entries[i].g);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* The slot holding `key`, or NULL.  Caller holds the lock. */
static struct cache_entry *find(struct engine_cache *c, int64_t key)
{
	for (size_t i = 0; i < c->capacity; i++)
		if (c->entries[i].key == key && c->entries[i].g)
			return &c->entries[i];
	return NULL;
}

/* An empty slot, or the least recently used one.  Caller holds the lock. */
static struct cache_entry *victim(struct engine_cache *c)
{
	struct cache_entry *v = &c->entries[0];
	for (size_t i = 0; i < c->capacity; i++) {
		if (!c->entries[i].g)
			return &c->entries[i];
		if (c->entries[i].used < v->used)
			v = &c->entries[i];
	}
	return v;
}

struct engine_game *engine_cache_get(struct engine_cache *c, int64_t key)
{
	struct engine_game *copy = NULL;
	pthread_mutex_lock(&c->lock);
	struct cache_entry *e = find(c, key);
	if (e) {
		e->used = ++c->tick;
		copy = engine_game_clone(e->g);
	}
	pthread_mutex_unlock(&c->lock);
	return copy;
}

void engine_cache_put(struct engine_cache *c, int64_t key,
                      const struct engine_game *g)
{
	struct engine_game *copy = engine_game_clone(g);
	if (!copy)
		return;
	pthread_mutex_lock(&c->lock);
	struct cache_entry *e = find(c, key);
	if (e && e->g->seq > g->seq) {
		engine_game_free(copy); /* a newer state is already here */
		copy = NULL;
	} else {
		if (!e)
			e = victim(c);
		engine_game_free(e->g);
		e->key = key;
		e->g = copy;
		e->used = ++c->tick;
	}
	pthread_mutex_unlock(&c->lock);
}
