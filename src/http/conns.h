/* conns.h: how long a connection may take to send a request.  Its manual.
 *
 * libmicrohttpd's own timeout (MHD_OPTION_CONNECTION_TIMEOUT) counts only
 * silences: a client sending one byte a second (slowloris) is never idle
 * and keeps its connection, and enough of them fill the connection limit.
 * The connection table closes such clients itself:
 *
 * - a connection that is waiting for a request (just accepted, or done
 *   with the previous answer) must deliver the whole request, head and
 *   body, within timeout_ms, or it is closed;
 * - near the connection limit (high_water connections open), the
 *   connections that have waited longest for a request are closed as soon
 *   as they have waited grace_ms, oldest first, so that a flood of idle
 *   connections cannot lock other clients out until the timeout.
 *
 * A connection is "waiting" from conns_open or conns_idle until
 * conns_busy; while busy (its request is being answered, a long-poll or
 * event stream is suspended, an answer is being sent) it is never closed
 * here.  Closing is shutdown(2) from the table's own thread: the library
 * then sees the socket end and closes the connection in its thread.  That
 * is safe because the library reports a connection closed (conns_close)
 * before it closes the socket, so no descriptor is shut down after it was
 * reused.
 *
 * Every function is thread-safe; `e` may be NULL (conns_open ran out of
 * memory: that connection is not watched).
 */
#ifndef BD_CONNS_H
#define BD_CONNS_H

struct conns;
struct conn_entry;

/* A new table with its thread running, or NULL.  Free with conns_free. */
struct conns *conns_new(unsigned timeout_ms, unsigned high_water,
                        unsigned grace_ms);

/* Stops the thread and frees the table.  Every entry must be closed.
 * NULL is a no-op. */
void conns_free(struct conns *cs);

/* A new connection on socket fd, waiting for its first request.  NULL
 * when out of memory. */
struct conn_entry *conns_open(struct conns *cs, int fd);

/* The connection's request has arrived whole: no deadline until
 * conns_idle. */
void conns_busy(struct conns *cs, struct conn_entry *e);

/* The connection's answer is done: it waits for its next request. */
void conns_idle(struct conns *cs, struct conn_entry *e);

/* The library closed the connection: forget and free e. */
void conns_close(struct conns *cs, struct conn_entry *e);

/* The connections open now (between conns_open and conns_close). */
unsigned conns_count(struct conns *cs);

#endif
