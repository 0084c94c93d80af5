/* test_bot_seats.c: the service's bot worker (src/service/bots.c) against
 * a real store file, without HTTP.
 *
 * Turns left pending while no worker ran are found by its start scan, even
 * through a queue smaller than their number (the scan pages); wake-ups
 * dropped by a full queue are made up by a rescan (sixteen games through
 * a queue of one); a game whose bot fails
 * is logged once and left alone, however often the worker rescans, while
 * other games go on; a full disk only delays a bot's move; stopping joins
 * the thread with no move half-written.
 * As the clocks' scheduler: more games whose deadlines passed (all in one
 * millisecond) than its queue holds are all played (a clock pass used to
 * find the same queued games again and again, and never played them).
 */
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "service/service.h"
#include "store/store.h"
#include "testhelp.h"

#define STUCK_MS 60000 /* no game may take longer to finish here */

static char tmpdir[64];
/* A player's token: games of bots only need one (create.c). */
static char player_token[128];

static const char *db_path(void)
{
	static char path[128];
	snprintf(path, sizeof path, "%s/bots.db", tmpdir);
	return path;
}

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Creates a game from the members `fields` (JSON text) of its body; its
 * id into id. */
static int create_body(struct service *svc, const char *fields,
                       char id[STORE_ID_LEN + 1])
{
	char text[256];
	snprintf(text, sizeof text, "{%s}", fields);
	json_t *body = json_loads(text, 0, NULL);
	json_t *out = NULL;
	struct svc_err err = {0};
	int rc = service_create(svc, body,
	                        player_token[0] ? player_token : NULL, NULL,
	                        NULL, &out, &err);
	if (rc == 0)
		snprintf(id, STORE_ID_LEN + 1, "%s",
		         json_string_value(json_object_get(out, "id")));
	else
		fprintf(stderr, "create: %d %s\n", rc, err.detail);
	json_decref(body);
	json_decref(out);
	return rc;
}

/* Makes the player whose token creates the games (player_token). */
static int make_player(struct service *svc)
{
	json_t *body = json_pack("{s:s}", "name", "Bots");
	json_t *out = NULL;
	struct svc_err err = {0};
	int rc = service_player_create(svc, body, NULL, &out, &err);
	const char *t = json_string_value(json_object_get(out, "token"));
	if (rc == 0 && t)
		snprintf(player_token, sizeof player_token, "%s", t);
	json_decref(body);
	json_decref(out);
	return rc == 0 && t ? 0 : -1;
}

/* Creates a game of `game` with `seating` (JSON text) as player_token's
 * player; its id into id. */
static int create(struct service *svc, const char *game, const char *seating,
                  char id[STORE_ID_LEN + 1])
{
	char fields[200];
	snprintf(fields, sizeof fields, "\"game\":\"%s\",\"seating\":%s", game,
	         seating);
	return create_body(svc, fields, id);
}

static int status_of(struct store *st, const char *id, uint64_t *seq)
{
	struct store_game g;
	if (store_game_get(st, id, &g) < 0)
		return -1;
	int finished = strcmp(g.status, "finished") == 0;
	*seq = g.seq;
	store_game_release(&g);
	return finished;
}

/* Waits until every game of ids[0..n) is finished; 1 if they all are. */
static int all_finish(struct store *st, char (*ids)[STORE_ID_LEN + 1], int n)
{
	int64_t end = mono_ms() + STUCK_MS;
	while (mono_ms() < end) {
		int done = 0;
		uint64_t seq;
		for (int i = 0; i < n; i++)
			done += status_of(st, ids[i], &seq) == 1;
		if (done == n)
			return 1;
		usleep(20 * 1000);
	}
	return 0;
}

/* Counts the lines of file `path` that contain `needle`. */
static int count_lines(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0;
	while (f && fgets(line, sizeof line, f))
		n += strstr(line, needle) != NULL;
	if (f)
		fclose(f);
	return n;
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_bot_seats.XXXXXX");
	if (!mkdtemp(tmpdir) || sodium_init() < 0)
		return 1;
	/* The worker's failures go to stderr: keep them in a file. */
	char logpath[128];
	snprintf(logpath, sizeof logpath, "%s/stderr.log", tmpdir);
	int logfd = open(logpath, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	int saved = dup(2);
	dup2(logfd, 2);

	struct store_config cfg = {
	    .path = db_path(), .connections = 3, .busy_timeout_ms = 5000};
	struct store *st = NULL;
	char err[256];
	if (store_open(&cfg, &st, err, sizeof err) < 0) {
		dup2(saved, 2);
		fprintf(stderr, "store_open: %s\n", err);
		return 1;
	}
	struct service *svc = service_new(st, 64);
	test_cond("a player to create the games", make_player(svc) == 0);

	/* 1. Turns pending before the worker runs: played after its start,
	 * through a queue of 2 (the start scan pages by the room left). */
	char ids[16][STORE_ID_LEN + 1];
	int n = 0, ok = 1;
	for (int i = 0; i < 5; i++)
		ok &= create(svc, "agent-avenue",
		             "[{\"bot\":\"random\"},{\"bot\":\"mcts\"}]",
		             ids[n++]) == 0;
	ok &= create(svc, "quantum",
	             "[{\"bot\":\"random\"},{\"bot\":\"random\"}]",
	             ids[n++]) == 0;
	uint64_t seq = 99;
	int pending = ok;
	for (int i = 0; i < n; i++)
		pending &= status_of(st, ids[i], &seq) == 0 && seq == 0;
	test_cond("created, and nothing moves without a worker", pending);
	test_cond("the worker starts", service_bots_start(svc, 5, 2, 2) == 0);
	test_cond("the pending games are played to the end",
	          all_finish(st, ids, n));
	service_bots_stop(svc);

	/* 2. A failing bot: a stored spec no bot reads.  Both seats are
	 * its, so one of them is to act whoever starts. */
	char broken[STORE_ID_LEN + 1];
	ok = create(svc, "agent-avenue",
	            "[{\"bot\":\"random\"},"
	            "{\"bot\":\"random\"}]",
	            broken) == 0;
	sqlite3 *db = NULL;
	char sql[256];
	snprintf(sql, sizeof sql,
	         "UPDATE seats SET bot = '{\"bot\":\"nonsense\"}' WHERE "
	         "game_key = (SELECT key FROM games WHERE id = '%s')",
	         broken);
	ok &= sqlite3_open(db_path(), &db) == SQLITE_OK &&
	      sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(db);
	test_cond("a broken bot seat is set up", ok);

	/* 3. A queue of one: the wake-ups of many new games overflow it and
	 * the worker rescans (each rescan finds the broken game again).  A
	 * dropped wake-up may be for a game behind the scan's cursor: before
	 * that started the pass over, a game was lost now and then (1 run in
	 * 5 here). */
	test_cond("the worker starts with a queue of one",
	          service_bots_start(svc, 5, 1, 2) == 0);
	n = 0;
	ok = 1;
	for (int i = 0; i < 16; i++)
		ok &= create(svc, "agent-avenue",
		             "[{\"bot\":\"random\"},{\"bot\":\"random\"}]",
		             ids[n++]) == 0;
	test_cond("games created while the worker runs", ok);
	test_cond("dropped wake-ups are made up by a rescan",
	          all_finish(st, ids, n));
	test_cond("the broken game has not moved",
	          status_of(st, broken, &seq) == 0 && seq == 0);
	service_bots_stop(svc);
	/* A restart tries it again, once. */
	test_cond("the worker starts again",
	          service_bots_start(svc, 5, 4, 2) == 0);
	char more[1][STORE_ID_LEN + 1];
	create(svc, "agent-avenue",
	       "[{\"bot\":\"random\"},{\"bot\":\"random\"}]", more[0]);
	test_cond("other games still go on", all_finish(st, more, 1));
	service_bots_stop(svc);
	service_bots_stop(svc); /* a no-op when stopped */
	fflush(stderr);
	char needle[64];
	snprintf(needle, sizeof needle, "game %s stopped", broken);
	int logged = count_lines(logpath, needle);
	test_cond("the failing bot is logged once per run, not in a loop",
	          logged == 2);

	/* 4. A full disk (here a file size limit: every write past 1 KiB of
	 * any file fails) passes: the bot's move is refused with BD_ENOSPACE
	 * while it lasts and is played once space returns, as a client
	 * retries after its 507.  The game was stopped until a restart. */
	char full[1][STORE_ID_LEN + 1];
	struct rlimit lim, small;
	ok = create(svc, "agent-avenue",
	            "[{\"bot\":\"random\"},{\"bot\":\"random\"}]",
	            full[0]) == 0 &&
	     getrlimit(RLIMIT_FSIZE, &lim) == 0;
	small = lim;
	small.rlim_cur = 1024;
	signal(SIGXFSZ, SIG_IGN);
	ok &= setrlimit(RLIMIT_FSIZE, &small) == 0 &&
	      service_bots_start(svc, 5, 4, 2) == 0;
	usleep(1500 * 1000); /* the worker tries, and its write fails */
	ok &= status_of(st, full[0], &seq) == 0 && seq == 0;
	ok &= setrlimit(RLIMIT_FSIZE, &lim) == 0; /* space returns */
	test_cond("a bot's move is refused while the disk is full", ok);
	test_cond("and played once space returns", all_finish(st, full, 1));
	service_bots_stop(svc);

	/* 5. The clocks: five games whose deadlines all passed in the same
	 * millisecond while no worker ran, through a queue of two. */
	service_clock_min(svc, 1);
	n = 0;
	ok = 1;
	for (int i = 0; i < 5; i++)
		ok &= create_body(
		          svc,
		          "\"game\":\"agent-avenue\",\"clock\":"
		          "{\"move_seconds\":1},\"on_timeout\":\"forfeit\"",
		          ids[n++]) == 0;
	ok &=
	    sqlite3_open(db_path(), &db) == SQLITE_OK &&
	    sqlite3_exec(db,
	                 "UPDATE games SET updated_ms = 1, deadline_ms = 1001 "
	                 "WHERE clock IS NOT NULL",
	                 NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(db);
	test_cond("five timed games, every deadline long past", ok);
	test_cond("the worker starts with a queue of two",
	          service_bots_start(svc, 5, 2, 2) == 0);
	test_cond("every overdue timeout is applied (each seat forfeits)",
	          all_finish(st, ids, n));
	service_bots_stop(svc);

	service_free(svc);
	store_close(st);
	dup2(saved, 2);
	/* What went to the file: every line when a check failed (the
	 * checks' own FAIL lines are among them). */
	if (test_failed) {
		fprintf(stderr,
		        "stderr of the run (%d lines about the broken "
		        "game):\n",
		        logged);
		FILE *f = fopen(logpath, "r");
		char line[1024];
		while (f && fgets(line, sizeof line, f))
			fputs(line, stderr);
		if (f)
			fclose(f);
	}
	unlink(logpath);
	char path[160];
	const char *suffixes[] = {"", "-wal", "-shm"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s%s", db_path(), suffixes[i]);
		unlink(path);
	}
	rmdir(tmpdir);
	return test_report("bot-seats");
}
