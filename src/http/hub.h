/* hub.h: who is waiting for which game.  Its manual.
 *
 * A waiting request (a long-poll, or an event stream with nothing to send)
 * costs no thread: its libmicrohttpd connection is suspended, and the hub
 * resumes it when something happens.  The hub keeps, per game, the list
 * of its waiters; a timer thread for their deadlines (libmicrohttpd does
 * not time out suspended connections); and the shutdown switch.
 *
 * A waiter is a struct the caller owns (embedded in its request state).
 * Its life:
 *
 *   hub_join      register for a game; from now on no move is missed
 *   …             re-check the game (a move may have landed before join)
 *   hub_take      take what happened (HUB_* bits), or, if nothing did,
 *                 suspend the connection and return 0; a later event
 *                 resumes it exactly once, and the caller calls hub_take
 *                 again from the handler or content reader
 *   hub_leave     unregister; the caller may then free the waiter
 *
 * A suspended connection's socket is watched for the client closing it
 * (poll(2): POLLRDHUP, POLLHUP or POLLERR, every HUB_HANGUP_POLL_MS):
 * its waiter then fires HUB_GONE, so a stream or long-poll whose client
 * went away ends within about a second instead of at its next write.  A
 * client that half-closes (shutdown(SHUT_WR)) while it waits counts as
 * gone.
 *
 * Every function is thread-safe.  The hub calls MHD_suspend_connection
 * only from hub_take (so only from a handler or content reader, as the
 * library requires) and MHD_resume_connection only for a connection it
 * suspended, once per suspension, never while holding its own lock.
 */
#ifndef BD_HUB_H
#define BD_HUB_H

#include <stddef.h>
#include <stdint.h>

struct MHD_Connection;

/* What woke a waiter (bits). */
#define HUB_MOVE     1u /* the game moved past the waiter's `after` */
#define HUB_TIMEOUT  2u /* the waiter's deadline passed */
#define HUB_SHUTDOWN 4u /* the server is stopping: answer or end now */
#define HUB_GONE     8u /* the client closed its connection: end now */

/* How often the timer thread looks for clients that closed their
 * connection while suspended (the library does not watch a suspended
 * connection's socket): their waiters get HUB_GONE within this much. */
#define HUB_HANGUP_POLL_MS 1000

/* The hub key of player `player_key`'s own waiters (the account stream,
 * a long-poll on the player's games): game keys are positive, so a
 * player's are their negation.  hub_on_move(h, HUB_PLAYER_KEY(p), 1)
 * wakes them all. */
#define HUB_PLAYER_KEY(player_key) (-(int64_t)(player_key))

/* One waiting request.  Zero it before the first hub_join; the fields are
 * the hub's, read them only through the functions below. */
struct hub_waiter {
	struct MHD_Connection *conn; /* borrowed; outlives the waiter */
	int fd;                      /* conn's socket, -1: unknown */
	int64_t key;                 /* the game's store key */
	int64_t owner;               /* the store key of the player whose
	                                token opened it, 0: none */
	uint64_t after;              /* wake when a move has seq > after */
	int64_t deadline_ms;         /* mono_now_ms() time, 0: none */
	unsigned fired;              /* HUB_* bits not taken yet */
	int joined;                  /* 1 between hub_join and hub_leave */
	int suspended;               /* 1 while the hub holds it suspended */
	size_t heap_pos;             /* 1 + index in the timer heap, 0: out */
	struct hub_waiter *prev, *next; /* the game's bucket list */
	struct hub_waiter *resume_next; /* a waker's list, outside the lock */
};

struct hub;

/* A new hub with its timer thread running, or NULL (out of memory or no
 * thread).  Free with hub_free. */
struct hub *hub_new(void);

/* Stops the timer thread and frees the hub.  Every waiter must have left.
 * NULL is a no-op. */
void hub_free(struct hub *h);

/* The key no game or player has (game keys are positive, players'
 * HUB_PLAYER_KEY negative): service.h's SVC_EVERY_GAME. */
#define HUB_EVERY_KEY 0

/* The move listener (a service_move_fn; `hub` is the struct hub *): wakes
 * every waiter of game `key` whose `after` is below `seq`, or with key
 * HUB_EVERY_KEY every waiter (they look again).  Quick; safe from any
 * thread. */
void hub_on_move(void *hub, int64_t key, uint64_t seq);

/* Registers w (zeroed or left) for game `key` on connection c: a move
 * with seq > after, or reaching deadline_ms (0: never), will wake it.
 * `fired` are bits the first hub_take returns at once (e.g. HUB_MOVE to
 * fetch once more).  `owner` is the store key of the player whose token
 * the request was checked with (0: none, or a seat's token), for
 * hub_on_revoke.  Returns 0, or HUB_SHUTDOWN when the hub is shutting
 * down (w is not registered then), or -1 when out of memory. */
int hub_join(struct hub *h, struct hub_waiter *w, struct MHD_Connection *c,
             int64_t key, uint64_t after, int64_t deadline_ms, unsigned fired,
             int64_t owner);

/* Player `owner` (a store key, > 0) revoked one of its tokens: wakes,
 * with HUB_MOVE, every waiter it owns, whatever its game, so that each
 * looks at its token again (a stream opened with the revoked token ends,
 * a long-poll answers as a plain request: 401).  Scans every waiter:
 * for rare events only.  Safe from any thread. */
void hub_on_revoke(struct hub *h, int64_t owner);

/* 1 if player `player_key` (a store key, > 0) holds a waiter joined on
 * game `key` (an event stream or a long-poll opened with a player token
 * of theirs) whose client has not gone: they are looking at the game, on
 * this node; else 0.  Scans the game's bucket only.  Safe from any
 * thread (the Web Push workers ask it: nothing is pushed about a game
 * its player is live on). */
int hub_is_live(struct hub *h, int64_t key, int64_t player_key);

/* The HUB_* bits that fired since the last call (and clears them); or,
 * when none did, suspends w's connection and returns 0.  Call only from
 * the access handler or a content reader of w's connection, with w
 * joined.  After a shutdown it always returns HUB_SHUTDOWN at least. */
unsigned hub_take(struct hub *h, struct hub_waiter *w);

/* Sets w's deadline (0: none), e.g. the next keep-alive. */
void hub_set_deadline(struct hub *h, struct hub_waiter *w, int64_t deadline_ms);

/* Unregisters w.  A no-op when w is not joined.  Never call it for a
 * suspended waiter (its connection is not running, so nobody can). */
void hub_leave(struct hub *h, struct hub_waiter *w);

/* Refuses new waiters and wakes every waiter with HUB_SHUTDOWN. */
void hub_shutdown(struct hub *h);

/* Waiters joined now: the event streams open and the long-polls
 * waiting (GET /metrics). */
size_t hub_joined(struct hub *h);

/* Waits until no waiter is joined, or timeout_ms passes.  0 when none is
 * left, else the number still joined. */
size_t hub_drain(struct hub *h, int timeout_ms);

#endif
