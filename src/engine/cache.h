/* cache.h: recent game states in memory, so a read does not replay the
 * whole log, and the bytes last served for them.  Keyed by the store's
 * game key (hashed); each entry holds the newest committed state the
 * server has seen for that game (its seq says which).  Thread-safe: a
 * cache of 1,024 games or more is split in 16 shards, each with its own
 * lock, hash table and LRU list (smaller ones are one shard).  Bounded:
 * the least recently used entry of a shard is dropped when it is full.
 * A miss or an older entry is never wrong, only slower: callers replay
 * the log tail from whatever seq they get back. */
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

/* How many games the cache holds now (GET /metrics).  Takes each shard's
 * lock in turn: a sum, not a snapshot. */
size_t engine_cache_count(struct engine_cache *c);

/* A new copy (caller frees with engine_game_free) of the cached state of
 * game `key`, or NULL on a miss or allocation failure. */
struct engine_game *engine_cache_get(struct engine_cache *c, int64_t key);

/* Stores a copy of g as game `key`'s state unless the cache already holds
 * that seq or a newer one for it (then nothing is copied).  A newer state
 * drops the entry's bytes.  Call only with committed states.  Best
 * effort: an allocation failure just leaves the cache as it was. */
void engine_cache_put(struct engine_cache *c, int64_t key,
                      const struct engine_game *g);

/* Bytes kept with a game's cached state: ENGINE_CACHE_SLOTS slots, each
 * the bytes of one answer (the service numbers them: one per viewer and
 * kind), valid for one seq and one `tag` (a hash of whatever else the
 * answer depends on; the caller's business).  They are dropped when the
 * entry gets a newer state or leaves the cache. */
#define ENGINE_CACHE_SLOTS 13

/* Bytes of one answer, shared: immutable once made, reference-counted
 * (the cache holds one reference per slot that keeps them, each caller
 * of engine_cache_bytes_share one more).  Thread-safe. */
struct engine_bytes;

/* Something built from a struct engine_bytes by whoever serves it (the
 * HTTP layer's gzipped copy, src/http/server.c), kept with the bytes
 * and freed with them: `free` is called once, when the bytes' last
 * reference goes, by whichever thread releases it (while it may hold a
 * cache shard's lock: free must not call into the cache). */
struct engine_attachment {
	void (*free)(struct engine_attachment *a);
};

/* New bytes holding a copy of bytes[0..len), one reference (the
 * caller's), no attachment; NULL when out of memory. */
struct engine_bytes *engine_bytes_new(const char *bytes, size_t len);

/* The bytes and their size.  Borrowed: valid while b is. */
const char *engine_bytes_data(const struct engine_bytes *b);
size_t engine_bytes_len(const struct engine_bytes *b);

/* Drops one reference; the last one frees the bytes and their
 * attachment.  NULL is a no-op. */
void engine_bytes_release(struct engine_bytes *b);

/* The attachment of b, or NULL.  Borrowed: valid while b is. */
struct engine_attachment *engine_bytes_attachment(struct engine_bytes *b);

/* Attaches a to b unless something is attached already: 1 and b owns a
 * (freed with b), or 0 and the caller still owns a.  Atomic: of two
 * threads attaching at once, one wins. */
int engine_bytes_attach(struct engine_bytes *b, struct engine_attachment *a);

/* 1 and *out (a new reference, the caller releases it) when slot `slot`
 * of game `key` holds bytes for exactly (seq, tag) and the cached state
 * is at seq; else 0. */
int engine_cache_bytes_share(struct engine_cache *c, int64_t key, unsigned slot,
                             uint64_t seq, uint64_t tag,
                             struct engine_bytes **out);

/* Keeps b (a reference of the cache's own; the caller keeps its one) in
 * slot `slot` of game `key` for (seq, tag), replacing what it held, if the
 * cached state is at seq (else nothing: bytes are never kept for a state
 * the cache does not hold). */
void engine_cache_bytes_keep(struct engine_cache *c, int64_t key, unsigned slot,
                             uint64_t seq, uint64_t tag,
                             struct engine_bytes *b);

#endif
