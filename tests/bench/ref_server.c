/* ref_server.c: the reference every `make bench` figure is divided by
 * (tests/bench.sh; tests/README.md, "## make bench").
 *
 *   ref_server [--port P] [--threads N]
 *
 * A bare libmicrohttpd server that answers every request with the same
 * 60-byte JSON body (200, Content-Type: application/json), built once and
 * queued as is: no routing, no parsing, no allocation per request.  It
 * runs libmicrohttpd exactly as boardd does (src/http/server.c,
 * http_server_start): the epoll internal thread, suspend/resume allowed
 * (so the same inter-thread channel in the same loop; measured to cost
 * nothing here: 12.6 against 12.7 us of server CPU a request), a thread
 * pool of N when N is 2 or more, 64 KiB of memory per connection, on
 * 127.0.0.1.  So the ratio boardd / reference is what boardd's own work
 * costs on top of the HTTP library, on this machine, in this run.
 *
 * It answers from the access handler's second call, as boardd does
 * (server.c on_request: the first call only makes the request's context).
 * Until 2026-12 it queued the answer from the first call, when only the
 * headers have been read; libmicrohttpd (0.9.75, Debian 12) then cannot
 * tell whether more of the request follows, so it answers with
 * "Connection: close" and closes the socket.  Every request wrk sent was
 * then a new TCP connection (connect, accept, close), and the reference
 * measured 14,900-15,900 req/s while boardd, whose connections stay open,
 * answered 56,000-85,000 in the same run.  Kept alive, both make the same
 * two system calls a request (one recvfrom, one sendmsg; strace -c).
 *
 * --port 0 (the default) lets the kernel pick a free port; the port bound
 * is printed on stderr as "ref_server: listening on http://127.0.0.1:P",
 * the line boardd prints.  Runs until SIGTERM or SIGINT; exit 0, or 1 when
 * it cannot listen.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 60 bytes, as in issue 13's measurement. */
static const char BODY[] =
    "{\"status\":\"ok\",\"server\":\"reference\",\"body\":\"a fixed, small\"}";

static struct MHD_Response *answer;

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_len, void **state)
{
	(void)cls, (void)url, (void)method, (void)version, (void)upload;
	static int begun; /* the request's context: any non-NULL marker */
	if (!*state) {    /* the first call: the headers only (see above) */
		*state = &begun;
		return MHD_YES;
	}
	if (*upload_len) {
		*upload_len = 0; /* a body, if any, is read and dropped */
		return MHD_YES;
	}
	return MHD_queue_response(c, MHD_HTTP_OK, answer);
}

int main(int argc, char **argv)
{
	long port = 0, threads = 1;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--port") == 0)
			port = strtol(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--threads") == 0)
			threads = strtol(argv[i + 1], NULL, 10);
		else {
			fputs("usage: ref_server [--port P] [--threads N]\n",
			      stderr);
			return 2;
		}
	}
	if (port < 0 || port > 65535 || threads < 1 || threads > 256) {
		fputs("ref_server: --port 0-65535, --threads 1-256\n", stderr);
		return 2;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL); /* MHD's threads inherit it */

	answer = MHD_create_response_from_buffer(sizeof BODY - 1, (void *)BODY,
	                                         MHD_RESPMEM_PERSISTENT);
	if (!answer ||
	    MHD_add_response_header(answer, MHD_HTTP_HEADER_CONTENT_TYPE,
	                            "application/json") != MHD_YES)
		return 1;
	struct sockaddr_in sa = {.sin_family = AF_INET,
	                         .sin_port = htons((uint16_t)port),
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	/* As src/http/server.c: no pool option for one thread. */
	struct MHD_OptionItem pool[] = {
	    {threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
	     (intptr_t)threads, NULL},
	    {MHD_OPTION_END, 0, NULL}};
	struct MHD_Daemon *d = MHD_start_daemon(
	    MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
	        MHD_USE_ERROR_LOG,
	    (uint16_t)port, NULL, NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR,
	    (struct sockaddr *)&sa, MHD_OPTION_ARRAY, pool,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
	    MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "ref_server: cannot listen on port %ld\n",
		        port);
		return 1;
	}
	const union MHD_DaemonInfo *di =
	    MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	fprintf(stderr, "ref_server: listening on http://127.0.0.1:%u\n",
	        di ? (unsigned)di->port : 0u);
	int sig;
	sigwait(&set, &sig);
	MHD_stop_daemon(d);
	MHD_destroy_response(answer);
	return 0;
}
