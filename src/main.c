/* main.c: boardd's command line.  Flags override environment variables,
 * which override the config file, which overrides the defaults:
 *
 *   --config PATH  BOARDD_CONFIG  (none)     the config file (conffile.h):
 *                                            `name = value` lines, each
 *                                            name a flag below without
 *                                            its dashes; read again on
 *                                            SIGHUP (reload_config)
 *   --addr A     BOARDD_ADDR     127.0.0.1   address to bind (IPv4 or IPv6)
 *   --port P     BOARDD_PORT     8080        0 = any free port
 *   --db PATH    BOARDD_DB       boardd.db   SQLite file, created if missing;
 *                                            or a PostgreSQL database:
 *                                            postgres://..., postgresql://...
 *                                            or a libpq "key=value ..." string
 *   --threads N  BOARDD_THREADS  cores       HTTP worker threads
 *   --sync MODE  BOARDD_SYNC     full        full: durable acks; normal: faster
 *   --quiet      BOARDD_QUIET=1              no access log
 *   --keepalive S  BOARDD_KEEPALIVE  15      seconds between an event
 *                                            stream's keep-alives
 *   --timeout S  BOARDD_TIMEOUT  30          seconds a connection may sit
 *                                            idle, and may take to send
 *                                            a whole request
 *   --bot-ms MS  BOARDD_BOT_MS   1500        wall-clock cap of one bot
 *                                            decision, milliseconds
 *   --clock-min-seconds S  BOARDD_CLOCK_MIN_SECONDS  10  shortest
 *                                            move_seconds/bank_seconds a
 *                                            game's clock may have (1-10;
 *                                            below 10 for tests and demos)
 *   --max-conns N  BOARDD_MAX_CONNS  (below)  simultaneous connections;
 *                                            default and cap: the open-
 *                                            file limit allows, <= 4096
 *   --write-wait MS  BOARDD_WRITE_WAIT  2000  longest a write waits for
 *                                            the database's write lock;
 *                                            then 503 with Retry-After
 *   --max-conns-per-addr N     BOARDD_MAX_CONNS_PER_ADDR  64, or 0 (no
 *                              cap) with --trusted-proxy: connections
 *                              from one peer address
 *   --max-streams N            BOARDD_MAX_STREAMS  max-conns/2
 *   --max-streams-per-addr N   BOARDD_MAX_STREAMS_PER_ADDR   32 (0: none)
 *   --max-streams-per-token N  BOARDD_MAX_STREAMS_PER_TOKEN  16 (0: none)
 *                              event streams and long-polls open at once
 *   --max-streams-anonymous N  BOARDD_MAX_STREAMS_ANONYMOUS  max-streams/2
 *                              (0: no share of their own)
 *   --max-streams-per-net N    BOARDD_MAX_STREAMS_PER_NET  a quarter of
 *                              that (0: none): anonymous clients' streams
 *                              in all, and per IPv4 /24 or IPv6 /48
 *   --rate-table N  BOARDD_RATE_TABLE  32768  clients and tokens the
 *                              limiter keeps (64 or more)
 *   --rate-limit SPEC  BOARDD_RATE_LIMIT  (limits.h)  repeatable; "off"
 *   --trusted-proxy LIST  BOARDD_TRUSTED_PROXY  repeatable; addresses
 *                              whose X-Forwarded-For / X-Real-IP (and
 *                              X-Request-Id) is used
 *   --waiting-per-player N  BOARDD_WAITING_PER_PLAYER  10 (0: none)
 *   --waiting-per-addr N    BOARDD_WAITING_PER_ADDR    30 (0: none)
 *   --waiting-expiry S      BOARDD_WAITING_EXPIRY  259200 (72 h; 0: never)
 *   --webhook-allow-private  BOARDD_WEBHOOK_ALLOW_PRIVATE=1  webhooks may
 *                                            reach private addresses
 *   --webhook-retry-ms MS  BOARDD_WEBHOOK_RETRY_MS  5000  first retry
 *                                            delay (doubles, <= 720x)
 *   --webhook-timeout-ms MS  BOARDD_WEBHOOK_TIMEOUT_MS  10000  longest
 *                                            delivery attempt
 *   --webhook-workers N  BOARDD_WEBHOOK_WORKERS  8  delivery threads
 *                                            (1-64)
 *   --webhook-per-destination N  BOARDD_WEBHOOK_PER_DESTINATION  2
 *                                            attempts in flight to one
 *                                            receiver's host:port (1-64)
 *   --secret-key PATH  BOARDD_SECRET_KEY  DB.key  the server key file
 *                                            (created 0600 at first
 *                                            start): seals webhook
 *                                            secrets in the database
 *   --push-contact URI  BOARDD_PUSH_CONTACT  (none: Web Push off)  the
 *                                            VAPID contact, mailto:... or
 *                                            https://... (RFC 8292 sub);
 *                                            turns Web Push on
 *   --push-key PATH  BOARDD_PUSH_KEY  KEYFILE.vapid  the VAPID private
 *                                            key file (created 0600 at
 *                                            first start, beside the
 *                                            server key file); every node
 *                                            on a PostgreSQL database
 *                                            must use the same file
 *   --smtp-url URL  BOARDD_SMTP_URL  (none: email off)  the SMTP server,
 *                                            smtp://host:port or
 *                                            smtps://host:port; turns
 *                                            email on
 *   --smtp-credentials FILE  BOARDD_SMTP_CREDENTIALS  (none)  a file
 *                                            holding user:password for
 *                                            the SMTP server, read at
 *                                            start, never logged; not
 *                                            readable by group or others
 *   --mail-from ADDR  BOARDD_MAIL_FROM  (needed with --smtp-url)  the
 *                                            envelope and From address
 *   --public-url URL  BOARDD_PUBLIC_URL  http://ADDR:PORT  the server's
 *                                            address as players reach
 *                                            it, for links in mails
 *                                            (unsubscribe, games)
 *   --mail-code-seconds S  BOARDD_MAIL_CODE_SECONDS  1800  how long an
 *                                            email confirmation code
 *                                            lasts (1-86400)
 *   --event-retention S  BOARDD_EVENT_RETENTION  604800 (7 days)  how
 *                                            long delivered events stay
 *                                            in the outbox (1 s-1 year)
 *   --bot-workers N  BOARDD_BOT_WORKERS  cores  threads that play bot
 *                                            seats and timeouts (1-64)
 *   --bot-games-per-player N  BOARDD_BOT_GAMES_PER_PLAYER  3 (0: none)
 *                                            games of bots only one
 *                                            player runs at once
 *   --write-workers N  BOARDD_WRITE_WORKERS  64  threads that run write
 *                                            requests while their
 *                                            connection is suspended, so
 *                                            that many share a group
 *                                            commit (0-256; 0: on the
 *                                            HTTP threads)
 *   --cache-games N  BOARDD_CACHE_GAMES  4096  games kept in memory (their
 *                                            row, seats, state and answers;
 *                                            docs/read-path.md), 1-10000000
 *   --ticket-seconds S  BOARDD_TICKET_SECONDS  60  how long a browser
 *                                            ticket (POST /v1/tickets)
 *                                            lasts (1-3600)
 *   --log-format F  BOARDD_LOG_FORMAT  text  text, or json: one JSON
 *                                            object per log line (log.h)
 *   --log-level L  BOARDD_LOG_LEVEL  info    debug, info or error: the
 *                                            lowest level logged; health
 *                                            checks and scrapes are debug
 *                                            (log.h)
 *   --metrics M  BOARDD_METRICS  loopback    who may GET /metrics:
 *                                            loopback clients, any, or
 *                                            off (metrics.h)
 *   --drain-seconds S  BOARDD_DRAIN_SECONDS  10  after SIGTERM, how long
 *                                            /readyz answers 503 while
 *                                            requests and streams go on
 *                                            (0-3600; 0: stop at once)
 *   --log-file PATH  BOARDD_LOG_FILE  (none: stderr as it is)  the file
 *                                            stderr goes to, reopened on
 *                                            SIGHUP (logrotate)
 *
 * --version prints "boardd <release> (commit <git commit>)" and exits.
 *
 * Runs until SIGINT or SIGTERM.  SIGTERM drains first (--drain-seconds:
 * /readyz answers 503, everything else is served; a second SIGTERM or a
 * SIGINT ends the drain early); SIGINT (Ctrl-C) does not.  Then streams
 * end with a `retry:` hint, long-polls answer, in-flight requests
 * finish, the database is closed cleanly, and the exit status is 0.
 * SIGHUP reads the config file again and applies its live settings
 * (log-level, log-format, log-file, quiet; is_live), saying which
 * restart-only ones changed, then reopens --log-file and says so.
 * Under systemd (Type=notify, deploy/boardd.service) it sends READY=1
 * once migrated and listening, WATCHDOG=1 while GET /healthz answers,
 * RELOADING=1/READY=1 around a SIGHUP and STOPPING=1 at the stop. */
#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "common/conffile.h"
#include "admin.h"
#include "common/keyfile.h"
#include "push/push.h"
#include "common/log.h"
#include "common/version.h"
#include "http/http.h"
#include "hooks/hooks.h"
#include "http/hub.h"
#include "http/metrics.h"
#include "http/monoclock.h"
#include "store/store.h"

#define MAX_REPEATS 16 /* values of one repeatable flag */

struct config {
	const char *addr, *db, *sync;
	long port, threads, keepalive, timeout, max_conns; /* 0: default */
	long bot_ms;     /* a bot decision's wall-clock cap, milliseconds */
	long clock_min;  /* shortest clock duration, seconds */
	long ticket_s;   /* a browser ticket's life, seconds */
	long write_wait; /* ms */
	long hook_retry_ms, hook_timeout_ms;
	long hook_workers, hook_per_dest; /* hooks.h's workers, per_dest */
	long retention;           /* seconds events stay in the outbox */
	long bot_workers;         /* threads playing bot seats and timeouts */
	long write_workers;       /* threads running write requests */
	long cache_games;         /* games kept in memory (docs/read-path.md) */
	const char *key_path;     /* the server key file; NULL: db + ".key" */
	const char *push_contact; /* VAPID sub, or NULL: Web Push off */
	const char *push_key;   /* VAPID key file; NULL: key file + ".vapid" */
	const char *smtp_url;   /* the SMTP server, or NULL: email off */
	const char *smtp_creds; /* a user:password file, or NULL */
	const char *mail_from;  /* From address (needed with smtp_url) */
	const char *public_url; /* links' base; NULL: http://addr:port */
	long mail_code_s;       /* a confirmation code's life, seconds */
	const char *log_format; /* "text" or "json" (log.h) */
	const char *log_level;  /* "debug", "info" or "error" (log.h) */
	const char *metrics;    /* "loopback", "any" or "off" (metrics.h) */
	const char *log_file;   /* stderr's file (SIGHUP reopens it), or
	                           NULL: stderr as inherited */
	long drain_s;           /* after SIGTERM, seconds of 503 readiness
	                           before the stop, 0-3600 */
	int quiet, hook_private;
	long streams, streams_addr, streams_token; /* -1: default */
	long streams_anon, streams_net;            /* -1: default */
	long rate_table;
	long conns_addr; /* -1: default */
	long waiting_player, waiting_addr, waiting_expiry;
	long bot_games; /* games of bots only a player runs at once, 0: any */
	const char *rates[MAX_REPEATS + 1];   /* --rate-limit values */
	const char *proxies[MAX_REPEATS + 1]; /* --trusted-proxy values */
	int n_rates, n_proxies;
	enum log_format log;                /* log_format parsed */
	enum log_level level;               /* log_level parsed */
	enum metrics_access metrics_access; /* metrics parsed */
};

static void usage(FILE *f)
{
	fputs(
	    "usage: boardd [FLAG VALUE | --quiet | --webhook-allow-private]..."
	    "\n"
	    "       boardd --version   the release and the git commit built"
	    "\n"
	    "       boardd admin ...   the operator's commands (boardd admin "
	    "--help)\n"
	    "  --config PATH  read settings from PATH: one `name = value` a"
	    " line, name a\n"
	    "                 flag's long name (port = 8080, quiet = true);"
	    " flags and the\n"
	    "                 environment win over it; SIGHUP reads it again"
	    " (log-level,\n"
	    "                 log-format, log-file and quiet change live;"
	    " the rest at a\n"
	    "                 restart)\n"
	    "  --addr A       address to bind, IPv4 or IPv6 (default"
	    " 127.0.0.1)\n"
	    "  --port P       port (default 8080; 0 picks a free one)\n"
	    "  --db PATH      SQLite file, created and migrated at start"
	    " (default boardd.db);\n"
	    "                 or a PostgreSQL database, migrated at start:"
	    " postgres://...,\n"
	    "                 postgresql://... or a libpq string"
	    " \"host=... dbname=...\"\n"
	    "                 (then --secret-key is required)\n"
	    "  --threads N    HTTP worker threads (default: cores, 1-64)\n"
	    "  --sync M       full (default: an acknowledged write survives"
	    " power loss)\n"
	    "                 or normal\n"
	    "  --quiet        no access log on stderr\n"
	    "  --keepalive S  seconds between keep-alives on an event"
	    " stream (default 15,\n"
	    "                 1-3600)\n"
	    "  --webhook-allow-private  webhooks may reach loopback and"
	    " private addresses\n"
	    "  --webhook-retry-ms MS  first webhook retry delay, doubled"
	    " per attempt\n"
	    "                 (default 5000, 1-3600000)\n"
	    "  --webhook-timeout-ms MS  longest webhook delivery attempt"
	    " (default 10000,\n"
	    "                 100-600000)\n"
	    "  --webhook-workers N  webhook delivery threads (default 8,"
	    " 1-64)\n"
	    "  --webhook-per-destination N  webhook attempts in flight to"
	    " one receiver's\n"
	    "                 host:port at once (default 2, 1-64)\n"
	    "  --timeout S    close a connection idle for S seconds, or"
	    " that takes longer\n"
	    "                 to send a request (default 30); waiting"
	    " long-polls and\n"
	    "                 event streams are neither\n"
	    "  --max-conns N  connections at once (default: what the"
	    " open-file limit\n"
	    "                 allows, at most 4096); near it, those"
	    " waiting longest for\n"
	    "                 a request are closed to make room\n"
	    "  --write-wait MS longest a write waits for the database's"
	    " write lock\n"
	    "                 (default 2000); then 503 with Retry-After\n"
	    "  --max-conns-per-addr N  connections from one peer address"
	    " (default 64, or 0\n"
	    "                 with --trusted-proxy: the proxy limits each"
	    " client); 0: no cap\n"
	    "  --max-streams N  event streams and long-polls open at once"
	    " (default and cap:\n"
	    "                 half of --max-conns); past it 503\n"
	    "  --max-streams-per-addr N, --max-streams-per-token N\n"
	    "                 the same per client address (default 32)"
	    " and per bearer\n"
	    "                 token (default 16); 0: no cap; past it 429\n"
	    "  --max-streams-anonymous N, --max-streams-per-net N\n"
	    "                 those of clients without a token: in all"
	    " (default half of\n"
	    "                 --max-streams; past it 503) and per IPv4 /24"
	    " or IPv6 /48\n"
	    "                 (default a quarter of that; past it 429);"
	    " 0: no cap\n"
	    "  --rate-table N  clients and tokens the limiter keeps"
	    " (default 32768, >= 64)\n"
	    "  --rate-limit SPEC  off, or"
	    " <players|games|joins|moves|webhooks|tickets|tokens|chat>"
	    ".<addr|token>=<q>/<w>\n"
	    "                 (q requests per w seconds, w may end in"
	    " s/m/h/d; q 0: none),\n"
	    "                 comma list, repeatable; defaults in"
	    " README.md\n"
	    "  --trusted-proxy LIST  comma list of proxy addresses whose"
	    " X-Forwarded-For\n"
	    "                 / X-Real-IP names the client, and whose"
	    " X-Request-Id is the\n"
	    "                 request's id; repeatable\n"
	    "  --waiting-per-player N, --waiting-per-addr N\n"
	    "                 open games waiting for players one player"
	    " (default 10)\n"
	    "                 or one address (default 30) may have"
	    " created; 0: no cap\n"
	    "  --waiting-expiry S  a waiting game nobody joined for S"
	    " seconds is removed\n"
	    "                 (default 259200, 72 h; 0: never)\n"
	    "  --bot-ms MS    longest a bot seat thinks about one decision,"
	    " in\n"
	    "                 milliseconds (default 1500, 1-60000)\n"
	    "  --clock-min-seconds S  shortest move_seconds or bank_seconds"
	    " a game's\n"
	    "                 clock may have (default 10, 1-10)\n"
	    "  --ticket-seconds S  how long a browser ticket (POST"
	    " /v1/tickets) lasts\n"
	    "                 (default 60, 1-3600)\n"
	    "  --push-contact URI  turns Web Push on: the contact push"
	    " services see\n"
	    "                 (mailto:... or https://...)\n"
	    "  --push-key PATH  the VAPID key file (default: the server key"
	    " file + \".vapid\";\n"
	    "                 created 0600 at first start; every node on"
	    " one database\n"
	    "                 must use the same file)\n"
	    "  --smtp-url URL  turns email on: smtp://host:port or"
	    " smtps://host:port\n"
	    "  --smtp-credentials FILE  user:password for the SMTP server"
	    " (mode 0600)\n"
	    "  --mail-from ADDR  the From address of mails (needed with"
	    " --smtp-url)\n"
	    "  --public-url URL  the server as players reach it, for links"
	    " in mails\n"
	    "                 (default http://ADDR:PORT)\n"
	    "  --mail-code-seconds S  an email confirmation code's life"
	    " (1-86400, 1800)\n"
	    "  --secret-key PATH  the server key file, which seals webhook"
	    " secrets in\n"
	    "                 the database (default: the database path +"
	    " \".key\"; created\n"
	    "                 mode 0600 at first start; keep it, and back"
	    " it up apart);\n"
	    "                 required with a PostgreSQL --db: every node"
	    " uses the same file\n"
	    "  --event-retention S  seconds delivered events stay for"
	    " resuming the account\n"
	    "                 stream (default 604800, 7 days; 1-31536000;"
	    " events with a\n"
	    "                 delivery still pending always stay)\n"
	    "  --bot-workers N  threads that play bot seats and timeouts"
	    " (default: cores,\n"
	    "                 1-64)\n"
	    "  --bot-games-per-player N  games of bots only one player may"
	    " run at once\n"
	    "                 (default 3; 0: no cap)\n"
	    "  --write-workers N  threads that run writes while their"
	    " connection waits for\n"
	    "                 the group commit (default 64, 0-256; 0: on"
	    " the HTTP threads)\n"
	    "  --log-format F  text (default) or json: one JSON object"
	    " per log line\n"
	    "  --log-level L  debug, info (default) or error: the lowest"
	    " level logged;\n"
	    "                 health checks and scrapes answered below 400"
	    " are debug\n"
	    "  --metrics M    who may GET /metrics: loopback (default:"
	    " clients on\n"
	    "                 127.0.0.0/8 or ::1, after --trusted-proxy),"
	    " any, or off\n"
	    "  --drain-seconds S  after SIGTERM, how long /readyz answers 503"
	    " while requests\n"
	    "                 and streams go on before the stop (default 10,"
	    " 0-3600)\n"
	    "  --log-file PATH  append the log to PATH instead of stderr;"
	    " SIGHUP reopens\n"
	    "                 it (after logrotate moved it)\n"
	    "  --cache-games N  games kept in memory for reads (row, seats,"
	    " state and\n"
	    "                 answers; default 4096, 1-10000000); about"
	    " 4-8.5 KiB a game\n"
	    "environment: BOARDD_CONFIG BOARDD_ADDR BOARDD_PORT BOARDD_DB "
	    "BOARDD_THREADS"
	    " BOARDD_SYNC BOARDD_QUIET BOARDD_KEEPALIVE BOARDD_TIMEOUT"
	    " BOARDD_MAX_CONNS BOARDD_MAX_CONNS_PER_ADDR BOARDD_MAX_STREAMS"
	    " BOARDD_MAX_STREAMS_PER_ADDR"
	    " BOARDD_MAX_STREAMS_PER_TOKEN BOARDD_RATE_LIMIT"
	    " BOARDD_TRUSTED_PROXY BOARDD_WAITING_PER_PLAYER"
	    " BOARDD_WAITING_PER_ADDR BOARDD_WAITING_EXPIRY BOARDD_WRITE_WAIT"
	    " BOARDD_BOT_MS BOARDD_CLOCK_MIN_SECONDS BOARDD_SECRET_KEY"
	    " BOARDD_EVENT_RETENTION BOARDD_BOT_WORKERS"
	    " BOARDD_BOT_GAMES_PER_PLAYER"
	    " BOARDD_WRITE_WORKERS BOARDD_LOG_FORMAT BOARDD_LOG_LEVEL"
	    " BOARDD_METRICS"
	    " BOARDD_CACHE_GAMES BOARDD_TICKET_SECONDS"
	    " BOARDD_WEBHOOK_ALLOW_PRIVATE BOARDD_WEBHOOK_RETRY_MS"
	    " BOARDD_WEBHOOK_TIMEOUT_MS BOARDD_DRAIN_SECONDS BOARDD_LOG_FILE\n",
	    f);
}

/* Setting `name` (BOARDD_X_Y) from the environment, else from the
 * config file f (its key x-y, the flag's long name; f may be NULL),
 * else dflt.  The flags, read after, override both. */
static const char *env_or(const struct conffile *f, const char *name,
                          const char *dflt)
{
	const char *v = getenv(name);
	if (v && *v)
		return v;
	char key[64];
	size_t i = 0;
	for (const char *p = name + strlen("BOARDD_"); *p && i + 1 < sizeof key;
	     p++)
		key[i++] = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	key[i] = '\0';
	v = conffile_get(f, key);
	return v ? v : dflt;
}

/* Parses a decimal in [lo, hi] into *out; -1 when it is not one. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* 1 if `a` is one of the options that take a value. */
static int takes_value(const char *a)
{
	static const char *const opts[] = {"--addr",
	                                   "--config",
	                                   "--push-contact",
	                                   "--push-key",
	                                   "--smtp-url",
	                                   "--smtp-credentials",
	                                   "--mail-from",
	                                   "--public-url",
	                                   "--mail-code-seconds",
	                                   "--port",
	                                   "--db",
	                                   "--threads",
	                                   "--cache-games",
	                                   "--sync",
	                                   "--keepalive",
	                                   "--timeout",
	                                   "--max-conns",
	                                   "--max-conns-per-addr",
	                                   "--max-streams",
	                                   "--max-streams-per-addr",
	                                   "--max-streams-per-token",
	                                   "--max-streams-anonymous",
	                                   "--max-streams-per-net",
	                                   "--rate-table",
	                                   "--rate-limit",
	                                   "--trusted-proxy",
	                                   "--waiting-per-player",
	                                   "--waiting-per-addr",
	                                   "--waiting-expiry",
	                                   "--write-wait",
	                                   "--bot-ms",
	                                   "--clock-min-seconds",
	                                   "--ticket-seconds",

	                                   "--webhook-retry-ms",
	                                   "--webhook-timeout-ms",
	                                   "--webhook-workers",
	                                   "--webhook-per-destination",
	                                   "--secret-key",
	                                   "--event-retention",
	                                   "--bot-workers",
	                                   "--bot-games-per-player",
	                                   "--write-workers",
	                                   "--log-format",
	                                   "--log-level",
	                                   "--log-file",
	                                   "--drain-seconds",
	                                   "--metrics"};
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		if (strcmp(a, opts[i]) == 0)
			return 1;
	return 0;
}

/* A config file's name (conffile.h's kind): every flag's long name but
 * --config itself (a file names no other) and the commands --version
 * and --help. */
static enum conffile_kind setting_kind(const char *name)
{
	char flag[64];
	if (strcmp(name, "config") == 0 ||
	    snprintf(flag, sizeof flag, "--%s", name) >= (int)sizeof flag)
		return CONFFILE_UNKNOWN;
	if (strcmp(flag, "--quiet") == 0 ||
	    strcmp(flag, "--webhook-allow-private") == 0)
		return CONFFILE_SWITCH;
	return takes_value(flag) ? CONFFILE_VALUE : CONFFILE_UNKNOWN;
}

/* The config file's path: --config's value, else BOARDD_CONFIG, else
 * NULL (no file). */
static const char *config_path(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--config") == 0)
			return argv[i + 1];
	const char *v = getenv("BOARDD_CONFIG");
	return v && *v ? v : NULL;
}

/* The configuration in *c (zeroed by the caller) from the flags, the
 * environment, the config file f (NULL: none; c borrows its strings)
 * and the defaults, in that order of precedence.  0, or -1 after
 * logging why. */
static int parse_args(int argc, char **argv, const struct conffile *f,
                      struct config *c)
{
	const char *port = env_or(f, "BOARDD_PORT", "8080");
	const char *threads = env_or(f, "BOARDD_THREADS", NULL);
	const char *keepalive = env_or(f, "BOARDD_KEEPALIVE", "15");
	const char *timeout = env_or(f, "BOARDD_TIMEOUT", "30");
	const char *max_conns = env_or(f, "BOARDD_MAX_CONNS", NULL);
	const char *bot_ms = env_or(f, "BOARDD_BOT_MS", "1500");
	const char *write_wait = env_or(f, "BOARDD_WRITE_WAIT", "2000");
	const char *clock_min = env_or(f, "BOARDD_CLOCK_MIN_SECONDS", "10");
	const char *ticket_s = env_or(f, "BOARDD_TICKET_SECONDS", "60");
	const char *streams = env_or(f, "BOARDD_MAX_STREAMS", NULL);
	const char *conns_addr = env_or(f, "BOARDD_MAX_CONNS_PER_ADDR", NULL);
	const char *streams_addr =
	    env_or(f, "BOARDD_MAX_STREAMS_PER_ADDR", "32");
	const char *streams_token =
	    env_or(f, "BOARDD_MAX_STREAMS_PER_TOKEN", "16");
	const char *streams_anon =
	    env_or(f, "BOARDD_MAX_STREAMS_ANONYMOUS", NULL);
	const char *streams_net = env_or(f, "BOARDD_MAX_STREAMS_PER_NET", NULL);
	const char *rate_table = env_or(f, "BOARDD_RATE_TABLE", "32768");
	const char *waiting_player =
	    env_or(f, "BOARDD_WAITING_PER_PLAYER", "10");
	const char *waiting_addr = env_or(f, "BOARDD_WAITING_PER_ADDR", "30");
	const char *bot_games = env_or(f, "BOARDD_BOT_GAMES_PER_PLAYER", "3");
	const char *waiting_expiry =
	    env_or(f, "BOARDD_WAITING_EXPIRY", "259200");
	const char *env_rate = env_or(f, "BOARDD_RATE_LIMIT", NULL);
	const char *env_proxy = env_or(f, "BOARDD_TRUSTED_PROXY", NULL);
	const char *hook_retry = env_or(f, "BOARDD_WEBHOOK_RETRY_MS", "5000");
	const char *hook_timeout =
	    env_or(f, "BOARDD_WEBHOOK_TIMEOUT_MS", "10000");
	const char *hook_workers = env_or(f, "BOARDD_WEBHOOK_WORKERS", "8");
	const char *hook_per_dest =
	    env_or(f, "BOARDD_WEBHOOK_PER_DESTINATION", "2");
	const char *retention = env_or(f, "BOARDD_EVENT_RETENTION", "604800");
	const char *bot_workers = env_or(f, "BOARDD_BOT_WORKERS", NULL);
	const char *write_workers = env_or(f, "BOARDD_WRITE_WORKERS", "64");
	const char *cache_games = env_or(f, "BOARDD_CACHE_GAMES", "4096");
	const char *drain = env_or(f, "BOARDD_DRAIN_SECONDS", "10");
	c->log_file = env_or(f, "BOARDD_LOG_FILE", NULL);
	c->key_path = env_or(f, "BOARDD_SECRET_KEY", NULL);
	c->push_contact = env_or(f, "BOARDD_PUSH_CONTACT", NULL);
	c->push_key = env_or(f, "BOARDD_PUSH_KEY", NULL);
	c->smtp_url = env_or(f, "BOARDD_SMTP_URL", NULL);
	c->smtp_creds = env_or(f, "BOARDD_SMTP_CREDENTIALS", NULL);
	c->mail_from = env_or(f, "BOARDD_MAIL_FROM", NULL);
	c->public_url = env_or(f, "BOARDD_PUBLIC_URL", NULL);
	const char *mail_code = env_or(f, "BOARDD_MAIL_CODE_SECONDS", "1800");
	c->log_format = env_or(f, "BOARDD_LOG_FORMAT", "text");
	c->log_level = env_or(f, "BOARDD_LOG_LEVEL", "info");
	c->metrics = env_or(f, "BOARDD_METRICS", "loopback");
	c->hook_private =
	    strcmp(env_or(f, "BOARDD_WEBHOOK_ALLOW_PRIVATE", "0"), "0") != 0;
	c->addr = env_or(f, "BOARDD_ADDR", "127.0.0.1");
	c->db = env_or(f, "BOARDD_DB", "boardd.db");
	c->sync = env_or(f, "BOARDD_SYNC", "full");
	c->quiet = strcmp(env_or(f, "BOARDD_QUIET", "0"), "0") != 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--quiet") == 0) {
			c->quiet = 1;
			continue;
		}
		if (strcmp(a, "--webhook-allow-private") == 0) {
			c->hook_private = 1;
			continue;
		}
		if (strcmp(a, "--version") == 0) {
			printf("boardd %s (commit %s)\n", boardd_version,
			       boardd_commit);
			exit(0);
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(0);
		}
		if (!takes_value(a)) {
			log_error("boardd", "unknown option %s", a);
			return -1;
		}
		if (!v) {
			log_error("boardd", "%s needs a value", a);
			return -1;
		}
		if (strcmp(a, "--config") == 0)
			; /* read before: config_path */
		else if (strcmp(a, "--addr") == 0)
			c->addr = v;
		else if (strcmp(a, "--port") == 0)
			port = v;
		else if (strcmp(a, "--db") == 0)
			c->db = v;
		else if (strcmp(a, "--threads") == 0)
			threads = v;
		else if (strcmp(a, "--sync") == 0)
			c->sync = v;
		else if (strcmp(a, "--keepalive") == 0)
			keepalive = v;
		else if (strcmp(a, "--timeout") == 0)
			timeout = v;
		else if (strcmp(a, "--max-conns") == 0)
			max_conns = v;
		else if (strcmp(a, "--webhook-retry-ms") == 0)
			hook_retry = v;
		else if (strcmp(a, "--webhook-timeout-ms") == 0)
			hook_timeout = v;
		else if (strcmp(a, "--webhook-workers") == 0)
			hook_workers = v;
		else if (strcmp(a, "--webhook-per-destination") == 0)
			hook_per_dest = v;
		else if (strcmp(a, "--bot-ms") == 0)
			bot_ms = v;
		else if (strcmp(a, "--secret-key") == 0)
			c->key_path = v;
		else if (strcmp(a, "--push-contact") == 0)
			c->push_contact = v;
		else if (strcmp(a, "--push-key") == 0)
			c->push_key = v;
		else if (strcmp(a, "--smtp-url") == 0)
			c->smtp_url = v;
		else if (strcmp(a, "--smtp-credentials") == 0)
			c->smtp_creds = v;
		else if (strcmp(a, "--mail-from") == 0)
			c->mail_from = v;
		else if (strcmp(a, "--public-url") == 0)
			c->public_url = v;
		else if (strcmp(a, "--mail-code-seconds") == 0)
			mail_code = v;
		else if (strcmp(a, "--event-retention") == 0)
			retention = v;
		else if (strcmp(a, "--bot-workers") == 0)
			bot_workers = v;
		else if (strcmp(a, "--write-workers") == 0)
			write_workers = v;
		else if (strcmp(a, "--log-format") == 0)
			c->log_format = v;
		else if (strcmp(a, "--log-level") == 0)
			c->log_level = v;
		else if (strcmp(a, "--log-file") == 0)
			c->log_file = v;
		else if (strcmp(a, "--drain-seconds") == 0)
			drain = v;
		else if (strcmp(a, "--metrics") == 0)
			c->metrics = v;
		else if (strcmp(a, "--cache-games") == 0)
			cache_games = v;
		else if (strcmp(a, "--write-wait") == 0)
			write_wait = v;
		else if (strcmp(a, "--clock-min-seconds") == 0)
			clock_min = v;
		else if (strcmp(a, "--ticket-seconds") == 0)
			ticket_s = v;
		else if (strcmp(a, "--max-streams") == 0)
			streams = v;
		else if (strcmp(a, "--max-conns-per-addr") == 0)
			conns_addr = v;
		else if (strcmp(a, "--max-streams-per-addr") == 0)
			streams_addr = v;
		else if (strcmp(a, "--max-streams-per-token") == 0)
			streams_token = v;
		else if (strcmp(a, "--max-streams-anonymous") == 0)
			streams_anon = v;
		else if (strcmp(a, "--max-streams-per-net") == 0)
			streams_net = v;
		else if (strcmp(a, "--rate-table") == 0)
			rate_table = v;
		else if (strcmp(a, "--waiting-per-player") == 0)
			waiting_player = v;
		else if (strcmp(a, "--bot-games-per-player") == 0)
			bot_games = v;
		else if (strcmp(a, "--waiting-per-addr") == 0)
			waiting_addr = v;
		else if (strcmp(a, "--waiting-expiry") == 0)
			waiting_expiry = v;
		else if (strcmp(a, "--rate-limit") == 0 &&
		         c->n_rates < MAX_REPEATS)
			c->rates[c->n_rates++] = v;
		else if (strcmp(a, "--trusted-proxy") == 0 &&
		         c->n_proxies < MAX_REPEATS)
			c->proxies[c->n_proxies++] = v;
		else {
			log_error("boardd", "unknown option %s", a);
			return -1;
		}
		i++;
	}
	if (!c->n_rates && env_rate)
		c->rates[c->n_rates++] = env_rate;
	if (!c->n_proxies && env_proxy)
		c->proxies[c->n_proxies++] = env_proxy;
	c->streams = c->streams_anon = c->streams_net = -1;
	c->conns_addr = c->n_proxies ? 0 : 64;
	c->threads = sysconf(_SC_NPROCESSORS_ONLN);
	if (c->threads < 1)
		c->threads = 1;
	c->bot_workers = c->threads > 64 ? 64 : c->threads;
	if (parse_long(port, 0, 65535, &c->port) < 0 ||
	    (threads && parse_long(threads, 1, 64, &c->threads) < 0) ||
	    parse_long(keepalive, 1, 3600, &c->keepalive) < 0 ||
	    parse_long(timeout, 1, 3600, &c->timeout) < 0 ||
	    (max_conns &&
	     parse_long(max_conns, 1, 1000000, &c->max_conns) < 0) ||
	    parse_long(write_wait, 0, 60000, &c->write_wait) < 0 ||
	    (streams && parse_long(streams, 1, 1000000, &c->streams) < 0) ||
	    (conns_addr &&
	     parse_long(conns_addr, 0, 1000000, &c->conns_addr) < 0) ||
	    parse_long(streams_addr, 0, 1000000, &c->streams_addr) < 0 ||
	    parse_long(streams_token, 0, 1000000, &c->streams_token) < 0 ||
	    (streams_anon &&
	     parse_long(streams_anon, 0, 1000000, &c->streams_anon) < 0) ||
	    (streams_net &&
	     parse_long(streams_net, 0, 1000000, &c->streams_net) < 0) ||
	    parse_long(rate_table, LIMITS_TABLE_MIN, 10000000, &c->rate_table) <
	        0 ||
	    parse_long(waiting_player, 0, 1000000, &c->waiting_player) < 0 ||
	    parse_long(waiting_addr, 0, 1000000, &c->waiting_addr) < 0 ||
	    parse_long(bot_games, 0, 1000000, &c->bot_games) < 0 ||
	    parse_long(waiting_expiry, 0, 100L * 365 * 86400,
	               &c->waiting_expiry) < 0 ||
	    parse_long(bot_ms, 1, 60000, &c->bot_ms) < 0 ||
	    parse_long(clock_min, 1, SVC_CLOCK_MIN_SECONDS, &c->clock_min) <
	        0 ||
	    parse_long(ticket_s, 1, 3600, &c->ticket_s) < 0 ||
	    parse_long(hook_retry, 1, 3600000, &c->hook_retry_ms) < 0 ||
	    parse_long(hook_timeout, 100, 600000, &c->hook_timeout_ms) < 0 ||
	    parse_long(hook_workers, 1, 64, &c->hook_workers) < 0 ||
	    parse_long(hook_per_dest, 1, 64, &c->hook_per_dest) < 0 ||
	    parse_long(retention, 1, 365L * 86400, &c->retention) < 0 ||
	    (bot_workers &&
	     parse_long(bot_workers, 1, 64, &c->bot_workers) < 0) ||
	    parse_long(write_workers, 0, 256, &c->write_workers) < 0 ||
	    parse_long(cache_games, 1, 10000000, &c->cache_games) < 0 ||
	    parse_long(drain, 0, 3600, &c->drain_s) < 0 ||
	    parse_long(mail_code, 1, 86400, &c->mail_code_s) < 0 ||
	    (strcmp(c->sync, "full") != 0 && strcmp(c->sync, "normal") != 0) ||
	    log_parse_format(c->log_format, &c->log) < 0 ||
	    log_parse_level(c->log_level, &c->level) < 0 ||
	    metrics_parse_access(c->metrics, &c->metrics_access) < 0) {
		log_error("boardd",
		          "a value is out of range (port 0-65535, threads "
		          "1-64, keepalive and timeout 1-3600 s, max-conns and "
		          "max-streams >= 1, rate-table >= 64, the other "
		          "counts >= 0, sync "
		          "full|normal, write-wait 0-60000 ms, bot-ms 1-60000, "
		          "clock-min-seconds 1-10, ticket-seconds 1-3600, "
		          "webhook-retry-ms "
		          "1-3600000, webhook-timeout-ms 100-600000, "
		          "webhook-workers and webhook-per-destination 1-64, "
		          "event-retention 1-31536000, bot-workers 1-64, "
		          "write-workers 0-256, cache-games 1-10000000, "
		          "drain-seconds 0-3600, "
		          "log-format text|json, log-level debug|info|error, "
		          "metrics loopback|any|off)");
		return -1;
	}
	return 0;
}

/* Raises the open-file soft limit to the hard one (every live stream and
 * long-poll holds a socket) and returns the connection limit it allows:
 * the descriptors left after the database's and the daemon's own, at
 * most 4096.  The library counts suspended connections too. */
static unsigned max_connections(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1000;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 4096 + 128)
		return 4096;
	return rl.rlim_cur > 256 ? (unsigned)rl.rlim_cur - 128 : 128;
}

/* What a committed change wakes (store_on_change's context). */
struct wakers {
	struct hub *hub;     /* the player's stream and long-polls */
	struct hooks *hooks; /* the webhook workers */
};

/* store_change_fn: player `player_key`'s games or events changed.  Runs
 * after the commit with no store lock held; it takes the hub's mutex and
 * then, separately, the hooks' one: neither nests in another, so hub.c's
 * lock order is unchanged. */
static void on_change(void *ctx, int64_t player_key)
{
	struct wakers *w = ctx;
	hub_on_move(w->hub, HUB_PLAYER_KEY(player_key), 1);
	hooks_poke(w->hooks);
}

/* Reads the SMTP credentials file `path` ("user:password", one line,
 * a trailing newline dropped) into user and password (HOOKS_SMTP_MAX + 1
 * bytes each).  0, or -1 after logging why (never the content). */
static int smtp_credentials(const char *path, char *user, char *password)
{
	char buf[2 * HOOKS_SMTP_MAX + 4];
	struct stat sb;
	FILE *f = fopen(path, "r");
	if (!f || fstat(fileno(f), &sb) != 0) {
		log_error("boardd", "--smtp-credentials %s: %s", path,
		          strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if (sb.st_mode & 077) {
		log_error("boardd",
		          "--smtp-credentials %s may be read by group or "
		          "others: chmod 600 it",
		          path);
		fclose(f);
		return -1;
	}
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	int more = fgetc(f) != EOF;
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	char *colon = strchr(buf, ':');
	int rc = -1;
	if (more || !colon || colon == buf ||
	    (size_t)(colon - buf) > HOOKS_SMTP_MAX ||
	    strlen(colon + 1) > HOOKS_SMTP_MAX)
		log_error("boardd",
		          "--smtp-credentials %s must hold one line "
		          "user:password (each at most %d bytes)",
		          path, HOOKS_SMTP_MAX);
	else {
		size_t un = (size_t)(colon - buf);
		memcpy(user, buf, un);
		user[un] = '\0';
		memcpy(password, colon + 1, strlen(colon + 1) + 1);
		rc = 0;
	}
	sodium_memzero(buf, sizeof buf);
	return rc;
}

/* hooks_config.push_live: whether the player holds a live stream on the
 * game on this node (ctx: the struct hub *). */
static int push_live(void *ctx, int64_t game_key, int64_t player_key)
{
	return hub_is_live(ctx, game_key, player_key);
}

/* The limiter's configuration (http/limits.h) from c, for a server of
 * `conns` connections.  0, or -1 with a sentence in err. */
static int limits_of(const struct config *c, unsigned conns,
                     struct limits_config *lc, char *err, size_t errlen)
{
	limits_config_default(lc, conns);
	if (c->streams > 0 && (unsigned long)c->streams > lc->streams)
		log_error("boardd",
		          "--max-streams %ld would leave ordinary "
		          "requests too little room; using %u",
		          c->streams, lc->streams);
	else if (c->streams > 0)
		lc->streams = (unsigned)c->streams;
	lc->streams_per_addr = (unsigned)c->streams_addr;
	lc->streams_per_token = (unsigned)c->streams_token;
	limits_anon_default(lc); /* of the streams set above */
	if (c->streams_anon >= 0)
		lc->streams_anon = (unsigned)c->streams_anon;
	if (c->streams_net >= 0)
		lc->streams_per_net = (unsigned)c->streams_net;
	lc->table_max = (unsigned)c->rate_table;
	for (int i = 0; i < c->n_rates; i++)
		if (limits_parse_rate(lc, c->rates[i], err, errlen) < 0)
			return -1;
	for (int i = 0; i < c->n_proxies; i++)
		if (limits_parse_proxies(lc, c->proxies[i], err, errlen) < 0)
			return -1;
	return 0;
}

/* Blocks SIGINT, SIGTERM and SIGHUP in every thread (the daemon's
 * inherit the mask) so that main can sigwait for them.  SIGPIPE and SIGXFSZ are
 * ignored: a write to a closed socket then fails with EPIPE, and a write past
 * the file size limit (ulimit -f) with EFBIG, which the store answers as a full
 * disk (507) instead of the process dying. */
static void block_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, set, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
}

/* What SIGHUP and the watchdog need of the running server. */
struct running {
	struct config *c;        /* in effect; its live settings change */
	int argc;                /* the command line, read again with */
	char **argv;             /* the config file at each SIGHUP */
	struct http_server *srv; /* serving */
	uint64_t watchdog_ms;    /* WATCHDOG=1 every this often; 0: off */
};

/* The config files read (the first at start, one more per SIGHUP that
 * read one): kept until exit, because struct config borrows their
 * strings.  Reached from here, so never a leak. */
static struct conffile **files_read;
static size_t n_files_read;

/* Keeps f (owned from now on) with the others; -1 when out of memory
 * (f is then freed). */
static int keep_file(struct conffile *f)
{
	struct conffile **v =
	    realloc(files_read, (n_files_read + 1) * sizeof *v);
	if (!v) {
		conffile_free(f);
		return -1;
	}
	files_read = v;
	files_read[n_files_read++] = f;
	return 0;
}

static void free_files(void)
{
	for (size_t i = 0; i < n_files_read; i++)
		conffile_free(files_read[i]);
	free(files_read);
	files_read = NULL;
	n_files_read = 0;
}

/* 1 if setting `name` can change on SIGHUP (docs/operations.md, "The
 * config file"); the others need a restart. */
static int is_live(const char *name)
{
	static const char *const live[] = {"log-level", "log-format",
	                                   "log-file", "quiet"};
	for (size_t i = 0; i < sizeof live / sizeof *live; i++)
		if (strcmp(name, live[i]) == 0)
			return 1;
	return 0;
}

/* 1 if a flag or the environment sets `name` (a flag's long name), which
 * then wins over the config file. */
static int set_elsewhere(const struct running *r, const char *name)
{
	char flag[64], env[64];
	snprintf(flag, sizeof flag, "--%s", name);
	for (int i = 1; i < r->argc; i++)
		if (strcmp(r->argv[i], flag) == 0)
			return 1;
	size_t n = (size_t)snprintf(env, sizeof env, "BOARDD_%s", name);
	for (size_t i = 7; i < n && i < sizeof env; i++)
		env[i] =
		    env[i] == '-' ? '_' : (char)toupper((unsigned char)env[i]);
	const char *v = getenv(env);
	return v && *v;
}

/* Logs one line for each setting whose value differs between the file
 * read before (old, may be NULL) and now (now): live, restart-only, or
 * overridden.  Never logs a value but a live one's (--db may hold a
 * password).  The number of live settings that changed. */
static int say_changes(const struct running *r, const struct conffile *old,
                       const struct conffile *now)
{
	int live = 0;
	for (int pass = 0; pass < 2; pass++) {
		const struct conffile *f = pass ? old : now;
		for (size_t i = 0; i < conffile_count(f); i++) {
			const char *name = conffile_name(f, i);
			const char *was = conffile_get(old, name);
			const char *is = conffile_get(now, name);
			if (pass && is)
				continue; /* said in the first pass */
			if (was && is && strcmp(was, is) == 0)
				continue;
			if (set_elsewhere(r, name))
				log_info(
				    "boardd",
				    "SIGHUP: %s changed in %s, but a flag "
				    "or the environment sets it: unchanged",
				    name, conffile_path(now));
			else if (is_live(name)) {
				log_info("boardd", "SIGHUP: %s is now %s", name,
				         is ? is : "its default");
				live++;
			} else
				log_info("boardd",
				         "SIGHUP: %s changed in %s; it takes "
				         "effect at the next restart only",
				         name, conffile_path(now));
		}
	}
	return live;
}

/* SIGHUP with a config file: reads it again (and the flags and the
 * environment, which still win) and applies the live settings
 * (is_live).  A file that is refused changes nothing. */
static void reload_config(struct running *r, const char *path)
{
	char err[512];
	struct conffile *now;
	if (conffile_read(path, setting_kind, &now, err, sizeof err) < 0) {
		log_error("boardd", "SIGHUP: %s; every setting stays as it was",
		          err);
		return;
	}
	struct config n = {0};
	if (parse_args(r->argc, r->argv, now, &n) < 0) {
		log_error("boardd",
		          "SIGHUP: %s holds a value out of range (above); "
		          "every setting stays as it was",
		          path);
		conffile_free(now);
		return;
	}
	const struct conffile *old =
	    n_files_read ? files_read[n_files_read - 1] : NULL;
	if (!say_changes(r, old, now))
		log_info("boardd",
		         "SIGHUP: read %s again: no live setting "
		         "changed",
		         path);
	if (keep_file(now) < 0) {
		log_error("boardd", "SIGHUP: out of memory; every setting "
		                    "stays as it was");
		return;
	}
	struct config *c = r->c;
	c->level = n.level;
	log_set_level(c->level);
	c->log = n.log;
	log_set_format(c->log);
	c->quiet = n.quiet;
	http_server_set_access_log(r->srv, !c->quiet);
	if (n.log_file)
		c->log_file = n.log_file;
	else if (c->log_file)
		log_info("boardd",
		         "SIGHUP: without log-file the log still "
		         "goes to %s until a restart",
		         c->log_file);
}

/* SIGHUP: the config file again (reload_config), --log-file again
 * (logrotate moved the old one away), and a line saying what was
 * done. */
static void on_hangup(struct running *r)
{
	char err[512];
	const char *path = config_path(r->argc, r->argv);
	sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
	           (unsigned long long)mono_now_ms() * 1000ULL);
	if (path)
		reload_config(r, path);
	const struct config *c = r->c;
	const char *rest = path ? "the other settings change with a "
	                          "restart only"
	                        : "every other setting changes with a "
	                          "restart only";
	if (!c->log_file)
		log_info("boardd", "SIGHUP: no --log-file to reopen; %s", rest);
	else if (log_reopen(c->log_file, err, sizeof err) < 0)
		log_error("boardd", "SIGHUP: %s; still logging where it did",
		          err);
	else
		log_info("boardd", "SIGHUP: reopened the log file %s; %s",
		         c->log_file, rest);
	sd_notify(0, "READY=1");
}

/* 1 if the server answers its own GET /healthz with 200 within 5 s,
 * through its listening socket (so a wedged HTTP thread pool fails it
 * too, not only a lost database file).  libcurl, initialised by
 * hooks_start before. */
static int healthy(const struct running *r)
{
	const char *a = r->c->addr;
	const char *host = strcmp(a, "0.0.0.0") == 0 ? "127.0.0.1"
	                   : strcmp(a, "::") == 0    ? "::1"
	                                             : a;
	char url[128];
	snprintf(url, sizeof url, "http://%s%s%s:%u/healthz",
	         strchr(host, ':') ? "[" : "", host,
	         strchr(host, ':') ? "]" : "", http_server_port(r->srv));
	CURL *h = curl_easy_init();
	if (!h)
		return 0;
	long status = 0;
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 5000L);
	curl_easy_setopt(h, CURLOPT_NOBODY, 1L); /* HEAD */
	curl_easy_setopt(h, CURLOPT_PROXY, "");  /* never an http_proxy */
	if (curl_easy_perform(h) == CURLE_OK)
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(h);
	return status == 200;
}

/* Waits for SIGINT or SIGTERM (of `set`, blocked), handling each SIGHUP
 * on the way (on_hangup) and, with systemd's watchdog on, sending
 * WATCHDOG=1 every r->watchdog_ms while the server is healthy (a check
 * that fails sends nothing, so systemd restarts a server that stays
 * unhealthy for WatchdogSec), until mono_now_ms() reaches until_ms (-1:
 * no limit).  The signal, or 0 when the time ran out. */
static int wait_for_stop(const sigset_t *set, struct running *r,
                         int64_t until_ms)
{
	int64_t ping_at = mono_now_ms() + (int64_t)r->watchdog_ms;
	for (;;) {
		int64_t now = mono_now_ms();
		if (until_ms >= 0 && now >= until_ms)
			return 0;
		if (r->watchdog_ms && now >= ping_at) {
			if (healthy(r))
				sd_notify(0, "WATCHDOG=1");
			else
				log_error("boardd",
				          "watchdog: GET /healthz "
				          "failed: no WATCHDOG=1 sent");
			ping_at = mono_now_ms() + (int64_t)r->watchdog_ms;
			continue;
		}
		int64_t wake = until_ms;
		if (r->watchdog_ms && (wake < 0 || ping_at < wake))
			wake = ping_at;
		int sig;
		if (wake < 0) {
			if (sigwait(set, &sig) != 0)
				continue;
		} else {
			int64_t left = wake - now;
			struct timespec ts = {(time_t)(left / 1000),
			                      (long)(left % 1000) * 1000000L};
			sig = sigtimedwait(set, NULL, &ts);
			if (sig < 0)
				continue; /* EAGAIN: time to look again; EINTR
				           */
		}
		if (sig != SIGHUP)
			return sig;
		on_hangup(r);
	}
}

int main(int argc, char **argv)
{
	char err[512];
	struct config c = {0};
	if (argc > 1 && strcmp(argv[1], "admin") == 0) /* src/admin.c */
		return admin_main(argc - 1, argv + 1);
	const char *cpath = config_path(argc, argv);
	struct conffile *file = NULL;
	if (cpath &&
	    conffile_read(cpath, setting_kind, &file, err, sizeof err) < 0) {
		log_error("boardd", "%s", err);
		return 2;
	}
	if (file && keep_file(file) < 0) {
		log_error("boardd", "out of memory");
		return 1;
	}
	if (parse_args(argc, argv, file, &c) < 0) {
		if (file)
			log_error("boardd",
			          "(the settings come from the flags, the "
			          "environment and %s, in that order)",
			          cpath);
		usage(stderr);
		return 2;
	}
	log_set_format(c.log);
	log_set_level(c.level);
	if (c.log_file && log_reopen(c.log_file, err, sizeof err) < 0) {
		log_error("boardd", "%s", err);
		return 1;
	}
	if (sodium_init() < 0) {
		log_error("boardd", "libsodium failed to initialise");
		return 1;
	}
	json_object_seed(0); /* before any thread: see Jansson's threadsafety */
	sigset_t set;
	block_signals(&set);

	unsigned conns = max_connections();
	if (c.max_conns > (long)conns)
		log_error("boardd",
		          "--max-conns %ld is more than the open-file "
		          "limit allows; using %u",
		          c.max_conns, conns);
	else if (c.max_conns)
		conns = (unsigned)c.max_conns;
	struct limits_config lc;
	if (limits_of(&c, conns, &lc, err, sizeof err) < 0) {
		log_error("boardd", "%s", err);
		usage(stderr);
		return 2;
	}
	/* The server key: beside the database unless --secret-key says.  A
	 * PostgreSQL database has no path to put it beside, and every node
	 * on it must seal and open webhook secrets with the same key. */
	if (store_is_postgres(c.db) && !c.key_path) {
		log_error("boardd",
		          "--db names a PostgreSQL database: give --secret-key "
		          "FILE (or BOARDD_SECRET_KEY), the server key file; "
		          "every boardd node on that database must use the "
		          "same file (copy it, created at the first start)");
		return 2;
	}
	/* Checked before any key file is made: a refusal leaves none. */
	if (c.push_contact && (strlen(c.push_contact) > PUSH_CONTACT_MAX ||
	                       (strncmp(c.push_contact, "mailto:", 7) != 0 &&
	                        strncmp(c.push_contact, "https://", 8) != 0))) {
		log_error("boardd", "--push-contact must be a mailto: "
		                    "or https: URI of at most 256 bytes");
		return 2;
	}
	/* Email: checked before any key file is made, as push is. */
	char smtp_user[HOOKS_SMTP_MAX + 1] = "",
	                                  smtp_pass[HOOKS_SMTP_MAX + 1] = "";
	char public_url[HOOKS_SMTP_MAX + 1];
	if (c.smtp_url) {
		if ((strncmp(c.smtp_url, "smtp://", 7) != 0 &&
		     strncmp(c.smtp_url, "smtps://", 8) != 0) ||
		    strlen(c.smtp_url) > HOOKS_SMTP_MAX) {
			log_error("boardd", "--smtp-url must be smtp://host:port "
			                    "or smtps://host:port");
			return 2;
		}
		if (!c.mail_from || !strchr(c.mail_from, '@') ||
		    strlen(c.mail_from) > HOOKS_SMTP_MAX) {
			log_error("boardd", "--smtp-url needs --mail-from, an "
			                    "email address");
			return 2;
		}
		if (c.smtp_creds &&
		    smtp_credentials(c.smtp_creds, smtp_user, smtp_pass) < 0)
			return 2;
	}
	if (c.public_url &&
	    ((strncmp(c.public_url, "http://", 7) != 0 &&
	      strncmp(c.public_url, "https://", 8) != 0) ||
	     strlen(c.public_url) > HOOKS_SMTP_MAX)) {
		log_error("boardd", "--public-url must be an http(s) URL");
		return 2;
	}
	if (c.public_url)
		snprintf(public_url, sizeof public_url, "%s", c.public_url);
	else
		snprintf(public_url, sizeof public_url, "http://%s:%ld",
		         c.addr, c.port);
	/* the links append "/v1/...": no trailing slash */
	for (size_t n = strlen(public_url); n > 0 && public_url[n - 1] == '/';)
		public_url[--n] = '\0';
	uint8_t key[STORE_KEY_LEN];
	char key_path[4096];
	snprintf(key_path, sizeof key_path, "%s%s",
	         c.key_path ? c.key_path : c.db, c.key_path ? "" : ".key");
	int key_made = keyfile_load(key_path, key, sizeof key, err, sizeof err);
	if (key_made < 0) {
		log_error("boardd", "%s", err);
		return 1;
	}
	/* The VAPID key (Web Push): its own file with the server key file's
	 * rules, beside it unless --push-key says; nodes on one PostgreSQL
	 * database copy it as they copy the server key. */
	uint8_t vapid[PUSH_PRIV_LEN], vapid_pub[PUSH_POINT_LEN];
	char vapid_path[4200];
	int vapid_made = 0;
	if (c.push_contact) {
		snprintf(vapid_path, sizeof vapid_path, "%s%s",
		         c.push_key ? c.push_key : key_path,
		         c.push_key ? "" : ".vapid");
		vapid_made = keyfile_load(vapid_path, vapid, sizeof vapid, err,
		                          sizeof err);
		if (vapid_made < 0) {
			log_error("boardd", "%s", err);
			return 1;
		}
		/* 32 random bytes are a P-256 scalar but for about 2^-32 */
		if (push_public_key(vapid, vapid_pub) < 0) {
			log_error("boardd",
			          "%s is not a P-256 private key: delete it "
			          "(a new one is made at start)",
			          vapid_path);
			return 1;
		}
	}
	struct store *st = NULL;
	struct store_config sc = {
	    .secret_key = key,
	    .path = c.db,
	    .sync_full = strcmp(c.sync, "full") == 0,
	    /* and the bot workers', the write workers', and one the
	     * webhook workers share */
	    .connections =
	        (int)c.threads + (int)c.bot_workers + (int)c.write_workers + 2,
	    .busy_timeout_ms = (int)c.write_wait,
	    .waiting_per_player = (unsigned)c.waiting_player,
	    .waiting_per_addr = (unsigned)c.waiting_addr,
	    .bot_games_per_player = (unsigned)c.bot_games,
	    .waiting_expire_ms = (int64_t)c.waiting_expiry * 1000,
	    .exclusive = 1};
	int opened = store_open(&sc, &st, err, sizeof err);
	sodium_memzero(key, sizeof key);
	/* a PostgreSQL URL or string may hold a password: never logged */
	const char *db_name = store_is_postgres(c.db) ? "postgresql" : c.db;
	if (opened < 0) {
		log_error("boardd", "%s: %s", db_name, err);
		/* A key file made at this start for a database whose secrets
		 * another key sealed (a restore without its key file): not
		 * left behind, so the next start cannot take it for the
		 * database's key (issue 35) and the right one can be put back
		 * at the same path. */
		if (key_made == KEYFILE_CREATED && opened == BD_EBADREQUEST &&
		    unlink(key_path) == 0)
			log_error(
			    "boardd",
			    "removed the key file %s made at this start: "
			    "put this database's own key file there (from "
			    "its backup) and start again",
			    key_path);
		if (vapid_made == KEYFILE_CREATED && opened == BD_EBADREQUEST &&
		    unlink(vapid_path) == 0)
			log_error("boardd",
			          "removed the VAPID key file %s made at this "
			          "start as well",
			          vapid_path);
		return 1;
	}
	int rc = 1;
	struct service *svc = service_new(st, (size_t)c.cache_games);
	struct hub *hub = svc ? hub_new() : NULL; /* live updates */
	struct hooks_config hk = {.allow_private = c.hook_private,
	                          .retry_ms = c.hook_retry_ms,
	                          .timeout_ms = c.hook_timeout_ms,
	                          .workers = (int)c.hook_workers,
	                          .per_dest = (int)c.hook_per_dest,
	                          .retention_ms = (int64_t)c.retention * 1000,
	                          .push_key = c.push_contact ? vapid : NULL,
	                          .push_contact = c.push_contact,
	                          .push_live = push_live,
	                          .push_live_ctx = hub,
	                          .smtp_url = c.smtp_url,
	                          .smtp_user = smtp_user[0] ? smtp_user : NULL,
	                          .smtp_password = smtp_pass,
	                          .mail_from = c.mail_from,
	                          .public_url = public_url};
	struct hooks *hooks =
	    hub ? hooks_start(st, &hk, err, sizeof err) : NULL;
	sodium_memzero(vapid, sizeof vapid); /* hooks_start copied it */
	sodium_memzero(smtp_pass, sizeof smtp_pass); /* and this */
	struct wakers wakers = {hub, hooks};
	if (hub && !hooks) {
		log_error("boardd", "%s", err);
		goto out_service;
	}
	if (hub) {
		service_on_move(svc, hub_on_move, hub);
		service_webhook_policy(svc, c.hook_private);
		if (c.push_contact)
			service_push_config(svc, vapid_pub);
		if (c.smtp_url)
			service_mail_config(svc, (unsigned)c.mail_code_s);
		store_on_change(st, on_change, &wakers);
		_Static_assert(SVC_EVERY_GAME == HUB_EVERY_KEY,
		               "one key for every game");
		if (service_listen(svc) < 0) { /* several nodes: PostgreSQL */
			log_error("boardd", "cannot listen for the other "
			                    "nodes' changes");
			goto out_service;
		}
	}
	if (svc) {
		service_clock_min(svc, (unsigned)c.clock_min);
		service_ticket_ttl(svc, (unsigned)c.ticket_s);
	}
	/* Bot seats: a worker thread, started after the move listener is
	 * set (its moves reach live streams too). */
	if (hub && service_bots_start(svc, (unsigned)c.bot_ms, SVC_BOTS_QUEUE,
	                              (int)c.bot_workers) < 0) {
		log_error("boardd", "cannot start the bot worker");
		goto out_service;
	}
	struct http_config hc = {.addr = c.addr,
	                         .port = (unsigned)c.port,
	                         .threads = (unsigned)c.threads,
	                         .timeout_s = (unsigned)c.timeout,
	                         .max_conns = conns,
	                         .max_conns_per_addr = (unsigned)c.conns_addr,
	                         .access_log = !c.quiet,
	                         .hub = hub,
	                         .keepalive_s = (unsigned)c.keepalive,
	                         .metrics = c.metrics_access,
	                         .limits = &lc,
	                         .write_workers = (unsigned)c.write_workers};
	struct http_server *srv =
	    hub ? http_server_start(&hc, svc, err, sizeof err) : NULL;
	if (!srv) {
		log_error("boardd", "%s", hub ? err : "out of memory");
		goto out_service;
	}
	log_info("boardd", "listening on http://%s%s%s:%u (db %s)",
	         strchr(c.addr, ':') ? "[" : "", c.addr,
	         strchr(c.addr, ':') ? "]" : "", http_server_port(srv),
	         db_name);
	/* systemd (Type=notify): ready once migrated and listening; with
	 * WatchdogSec, a ping at half of it while GET /healthz answers.
	 * Without NOTIFY_SOCKET these do nothing. */
	struct running run = {.c = &c, .argc = argc, .argv = argv, .srv = srv};
	uint64_t watchdog_us;
	if (sd_watchdog_enabled(0, &watchdog_us) > 0)
		run.watchdog_ms = watchdog_us / 2000 ? watchdog_us / 2000 : 1;
	sd_notifyf(0, "READY=1\nSTATUS=listening on port %u",
	           http_server_port(srv));
	int sig = wait_for_stop(&set, &run, -1);
	sd_notify(0, "STOPPING=1");
	if (sig == SIGTERM && c.drain_s > 0) {
		log_info("boardd",
		         "SIGTERM: draining for %ld s: /readyz answers 503, "
		         "requests and streams go on (SIGTERM or SIGINT again "
		         "ends the drain)",
		         c.drain_s);
		http_server_drain(srv);
		int again =
		    wait_for_stop(&set, &run, mono_now_ms() + c.drain_s * 1000);
		if (again)
			log_info("boardd", "%s: the drain ends early",
			         again == SIGINT ? "SIGINT" : "SIGTERM");
	}
	log_info("boardd", "%s, shutting down",
	         sig == SIGINT ? "SIGINT" : "SIGTERM");
	http_server_drain(srv);
	http_server_stop(srv);
	struct store_write_stats ws;
	store_write_stats(st, &ws);
	log_info("boardd",
	         "group commit: %llu writes in %llu commits (%llu "
	         "batches rolled back, the largest held %u)",
	         (unsigned long long)ws.units, (unsigned long long)ws.commits,
	         (unsigned long long)ws.rolled_back, ws.largest);
	rc = 0;
out_service:
	/* The bot worker first: its moves reach both listeners. */
	if (svc)
		service_bots_stop(svc);
	store_unlisten(st); /* the other nodes' changes reach both too */
	store_on_change(st, NULL, NULL);
	hooks_stop(hooks);
	if (svc)
		service_on_move(svc, NULL, NULL);
	hub_free(hub);
	service_free(svc);
	store_close(st);
	if (rc == 0)
		log_info("boardd", "stopped cleanly, exit 0");
	free_files();
	return rc;
}
