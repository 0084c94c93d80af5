/* cache.h: recent game states in memory, so a read does not replay the
 * whole log.  Keyed by the store's game key; each entry holds the newest
 * committed state the server has seen for that game (its seq says which).
 * Thread-safe.  Bounded: the least recently used entry is dropped when
 * full.  A miss or an older entry is never wrong, only slower: callers
 * replay the log tail from whatever seq they get back. */
#ifndef BD_CACHE_H
#define BD_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct engine_cache;

/* A new cache holding at most `capacity` games (>= 1), or NULL. */
struct engine_cache *engine_cache_new(size_t capacity);

/* Frees the cache and every state in it.  NULL is a no-op. */
void engine_cache_free(struct engine_cache *c);

/* A new copy (caller frees with engine_game_free) of the cached state of
 * game `key`, or NULL on a miss or allocation failure. */
struct engine_game *engine_cache_get(struct engine_cache *c, int64_t key);

/* Stores a copy of g as game `key`'s state unless the cache already holds
 * a newer seq for it.  Call only with committed states.  Best effort: an
 * allocation failure just leaves the cache as it was. */
void engine_cache_put(struct engine_cache *c, int64_t key,
                      const struct engine_game *g);

#endif
