/* admin.c: `boardd admin …`, the operator's commands (issue 35; the
 * walk-through is docs/operations.md, "Admin commands").
 *
 * A second process on the database a server runs on: it opens the store
 * without the server's exclusive lock and with store_config.outside, so
 * that on SQLite the server hears of what it changes (the table
 * outside_changes, read every 250 ms) as a PostgreSQL node hears of
 * another's (NOTIFY).  Every change goes through the store's
 * transactions and the service's functions (a game is ended through the
 * engine's resign), never through SQL of its own.  Output: lines for a
 * person, or with --json one JSON document for a script. */
#include <errno.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "admin.h"
#include "common/keyfile.h"
#include "common/log.h"
#include "common/version.h"
#include "service/service.h"
#include "store/store.h"

/* What the flags say. */
struct admin_opts {
	const char *db;       /* --db, BOARDD_DB, "boardd.db" */
	const char *key_path; /* --secret-key, BOARDD_SECRET_KEY, DB.key */
	int json;             /* --json */
	const char *reason;   /* --reason */
	long winner;          /* --winner, -1: none */
	long limit;           /* --limit */
	long after;           /* --after */
	long chat_days;       /* --chat-days, -1: none */
	long idem_hours;      /* --idempotency-hours, -1: none */
	const char *cmd;      /* the command */
	const char *arg;      /* its argument, or NULL */
};

static void usage(FILE *f)
{
	fputs("usage: boardd admin [--db PATH] [--secret-key FILE] [--json] "
	      "COMMAND\n"
	      "  players [TEXT] [--limit N] [--after KEY]\n"
	      "                       players whose id is TEXT or whose name "
	      "holds it\n"
	      "  player ID            one player\n"
	      "  ban ID --reason R    their tokens stop working, their waiting "
	      "games end\n"
	      "  unban ID [--reason R]\n"
	      "  revoke ID [--reason R]  revokes every token of theirs\n"
	      "  end-game GAME --reason R [--winner SEAT]\n"
	      "                       a waiting game is cancelled; one in "
	      "progress ends\n"
	      "                       with SEAT winning (every other seat "
	      "resigns)\n"
	      "  reports [--after KEY] [--limit N]  the players' reports\n"
	      "  export ID            everything stored about a player (JSON)\n"
	      "  delete ID [--reason R]  resigns their games, erases the "
	      "account\n"
	      "  prune [--chat-days N] [--idempotency-hours H]\n"
	      "                       retention: chat of games finished N days "
	      "ago,\n"
	      "                       Idempotency-Key answers older than H "
	      "hours\n"
	      "  schema               the binary's and the database's schema "
	      "version\n",
	      f);
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse(int argc, char **argv, struct admin_opts *o)
{
	*o = (struct admin_opts){.db = getenv("BOARDD_DB"),
	                         .key_path = getenv("BOARDD_SECRET_KEY"),
	                         .winner = -1,
	                         .limit = 100,
	                         .chat_days = -1,
	                         .idem_hours = -1};
	if (!o->db)
		o->db = "boardd.db";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int taken = 1;
		if (strcmp(a, "--json") == 0) {
			o->json = 1;
			continue;
		}
		if (strcmp(a, "--db") == 0 && v)
			o->db = v;
		else if (strcmp(a, "--secret-key") == 0 && v)
			o->key_path = v;
		else if (strcmp(a, "--reason") == 0 && v)
			o->reason = v;
		else if (strcmp(a, "--winner") == 0)
			taken = parse_long(v, 0, 63, &o->winner) == 0;
		else if (strcmp(a, "--limit") == 0)
			taken = parse_long(v, 1, 1000, &o->limit) == 0;
		else if (strcmp(a, "--after") == 0)
			taken = parse_long(v, 0, LONG_MAX, &o->after) == 0;
		else if (strcmp(a, "--chat-days") == 0)
			taken = parse_long(v, 0, 36500, &o->chat_days) == 0;
		else if (strcmp(a, "--idempotency-hours") == 0)
			taken = parse_long(v, 1, 24, &o->idem_hours) == 0;
		else if (a[0] == '-' && a[1] == '-')
			taken = 0;
		else if (!o->cmd) {
			o->cmd = a;
			continue;
		} else if (!o->arg) {
			o->arg = a;
			continue;
		} else
			taken = 0;
		if (!taken) {
			fprintf(stderr,
			        "boardd admin: bad or incomplete "
			        "argument %s\n",
			        a);
			return -1;
		}
		i++; /* its value */
	}
	if (!o->cmd) {
		fprintf(stderr, "boardd admin: which command?\n");
		return -1;
	}
	return 0;
}

/* What code rc means, for a failure without a sentence of its own. */
static const char *code_text(int rc)
{
	switch (rc) {
	case BD_ENOTFOUND:
		return "not found";
	case BD_EBUSY:
		return "the database is busy: try again";
	case BD_EUNAVAILABLE:
		return "the database cannot be used now";
	case BD_ENOMEM:
		return "out of memory";
	default:
		return "failed";
	}
}

/* The command's failure: svc_err's sentence, or the code's meaning. */
static int fail(int rc, const struct svc_err *err, const char *what)
{
	fprintf(stderr, "boardd admin: %s: %s (nothing changed)\n", what,
	        err && err->detail[0] ? err->detail : code_text(rc));
	return 1;
}

/* Prints v (stolen) as the --json answer, or runs the person's lines. */
static int print_json(json_t *v)
{
	if (!v)
		return fail(BD_ENOMEM, NULL, "output");
	int rc = json_dumpf(v, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	fputc('\n', stdout);
	json_decref(v);
	return rc < 0 ? 1 : 0;
}

/* A unix time in ms as ISO 8601 UTC, into buf (21 bytes). */
static const char *iso(int64_t ms, char buf[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	if (!ms || !gmtime_r(&t, &tm))
		return "-";
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static json_t *player_json(const struct store_admin_player *p)
{
	char a[32], b[32], c[32];
	return json_pack(
	    "{s:I,s:s,s:s,s:s,s:o,s:o,s:o,s:I,s:I}", "key", (json_int_t)p->key,
	    "id", p->id, "name", p->name, "created", iso(p->created_ms, a),
	    "banned",
	    p->banned_ms ? json_string(iso(p->banned_ms, b)) : json_null(),
	    "banned_reason",
	    p->banned_why[0] ? json_string(p->banned_why) : json_null(),
	    "deleted",
	    p->deleted_ms ? json_string(iso(p->deleted_ms, c)) : json_null(),
	    "tokens", (json_int_t)p->tokens, "seats", (json_int_t)p->seats);
}

static void player_line(const struct store_admin_player *p)
{
	char a[32], b[32];
	printf("%-6lld %s  %-24s created %s  tokens %lld  seats %lld",
	       (long long)p->key, p->id, p->name, iso(p->created_ms, a),
	       (long long)p->tokens, (long long)p->seats);
	if (p->deleted_ms)
		printf("  DELETED %s", iso(p->deleted_ms, b));
	else if (p->banned_ms)
		printf("  BANNED %s (%s)", iso(p->banned_ms, b), p->banned_why);
	putchar('\n');
}

struct list_ctx {
	const struct admin_opts *o;
	json_t *a; /* --json: the array */
	int n;
};

static int list_player(void *ctx, const struct store_admin_player *p)
{
	struct list_ctx *x = ctx;
	x->n++;
	if (x->a)
		return json_array_append_new(x->a, player_json(p)) ? BD_ENOMEM
		                                                   : 0;
	player_line(p);
	return 0;
}

static int cmd_players(struct store *st, const struct admin_opts *o)
{
	struct list_ctx x = {o, o->json ? json_array() : NULL, 0};
	int rc = store_admin_players_each(st, o->arg, o->after, (int)o->limit,
	                                  list_player, &x);
	if (rc < 0) {
		json_decref(x.a);
		return fail(rc, NULL, "players");
	}
	if (x.a)
		return print_json(x.a);
	if (!x.n)
		printf("no player matches\n");
	return 0;
}

/* The player with id o->arg into *p, or the failure printed (1). */
static int find_player(struct store *st, const struct admin_opts *o,
                       struct store_admin_player *p, int live)
{
	if (!o->arg) {
		fprintf(stderr, "boardd admin %s: which player (its id)?\n",
		        o->cmd);
		return 2;
	}
	int rc = store_admin_player(st, o->arg, p);
	struct svc_err err = {0};
	if (rc == BD_ENOTFOUND)
		snprintf(err.detail, sizeof err.detail,
		         "no player has the id %s", o->arg);
	else if (rc == 0 && live && p->deleted_ms) {
		snprintf(err.detail, sizeof err.detail, "player %s was deleted",
		         o->arg);
		rc = BD_ENOTFOUND;
	}
	return rc < 0 ? fail(rc, &err, o->cmd) : 0;
}

static int cmd_player(struct store *st, const struct admin_opts *o)
{
	struct store_admin_player p;
	int rc = find_player(st, o, &p, 0);
	if (rc)
		return rc;
	if (o->json)
		return print_json(player_json(&p));
	player_line(&p);
	return 0;
}

/* A done command's answer: {"done": what, ...fields} or the line. */
static int done(const struct admin_opts *o, json_t *fields, const char *line)
{
	if (o->json) {
		json_object_set_new(fields, "done", json_string(o->cmd));
		return print_json(fields);
	}
	json_decref(fields);
	printf("%s\n", line);
	return 0;
}

static int cmd_ban(struct store *st, const struct admin_opts *o)
{
	struct store_admin_player p;
	int rc = find_player(st, o, &p, 1);
	if (rc)
		return rc;
	if (!o->reason || !*o->reason || strlen(o->reason) > 200) {
		fprintf(stderr, "boardd admin ban: give the reason, "
		                "--reason TEXT (1 to 200 bytes)\n");
		return 2;
	}
	int ended = 0;
	struct svc_err err = {0};
	rc = store_player_ban(st, p.key, p.id, o->reason, &ended);
	if (rc == BD_ECONFLICT)
		snprintf(err.detail, sizeof err.detail,
		         "player %s is banned already", p.id);
	if (rc < 0)
		return fail(rc, &err, "ban");
	char line[200];
	snprintf(line, sizeof line,
	         "banned %s (%s): their tokens answer 401; %d waiting "
	         "game(s) ended",
	         p.id, p.name, ended);
	return done(
	    o, json_pack("{s:s,s:i}", "player", p.id, "games_ended", ended),
	    line);
}

static int cmd_unban(struct store *st, const struct admin_opts *o)
{
	struct store_admin_player p;
	int rc = find_player(st, o, &p, 1);
	if (rc)
		return rc;
	struct svc_err err = {0};
	rc = store_player_unban(st, p.key, p.id, o->reason);
	if (rc == BD_ECONFLICT)
		snprintf(err.detail, sizeof err.detail,
		         "player %s is not banned", p.id);
	if (rc < 0)
		return fail(rc, &err, "unban");
	char line[200];
	snprintf(line, sizeof line,
	         "unbanned %s (%s): their tokens not revoked work again", p.id,
	         p.name);
	return done(o, json_pack("{s:s}", "player", p.id), line);
}

static int cmd_revoke(struct store *st, const struct admin_opts *o)
{
	struct store_admin_player p;
	int rc = find_player(st, o, &p, 1);
	if (rc)
		return rc;
	int n = 0;
	rc = store_tokens_revoke_all(st, p.key, p.id, o->reason, &n);
	if (rc < 0)
		return fail(rc, NULL, "revoke");
	char line[200];
	snprintf(line, sizeof line, "revoked %d token(s) of %s (%s)", n, p.id,
	         p.name);
	return done(o, json_pack("{s:s,s:i}", "player", p.id, "revoked", n),
	            line);
}

static int cmd_end_game(struct service *svc, const struct admin_opts *o)
{
	if (!o->arg || !o->reason || !*o->reason || strlen(o->reason) > 200) {
		fprintf(stderr, "boardd admin end-game: give the game's id "
		                "and --reason TEXT (1 to 200 bytes)\n");
		return 2;
	}
	struct svc_err err = {0};
	int resigned = 0;
	int rc = service_admin_end_game(svc, o->arg, (int)o->winner, o->reason,
	                                &resigned, &err);
	if (rc == BD_ENOTFOUND && !err.detail[0])
		snprintf(err.detail, sizeof err.detail, "no game has the id %s",
		         o->arg);
	if (rc < 0)
		return fail(rc, &err, "end-game");
	char line[200];
	if (o->winner >= 0)
		snprintf(line, sizeof line,
		         "ended game %s: %d seat(s) resigned, seat %ld wins",
		         o->arg, resigned, o->winner);
	else
		snprintf(line, sizeof line,
		         "cancelled game %s (it was waiting)", o->arg);
	return done(
	    o,
	    json_pack("{s:s,s:i,s:o}", "game", o->arg, "resigned", resigned,
	              "winner",
	              o->winner >= 0 ? json_integer(o->winner) : json_null()),
	    line);
}

static int list_report(void *ctx, const struct store_report *r)
{
	struct list_ctx *x = ctx;
	char a[32];
	x->n++;
	if (x->a)
		return json_array_append_new(
		           x->a,
		           json_pack(
		               "{s:I,s:{s:s,s:s},s:o,s:o,s:o,s:o,s:o,s:s,"
		               "s:s}",
		               "key", (json_int_t)r->key, "reporter", "id",
		               r->reporter_id, "name", r->reporter_name,
		               "player",
		               *r->player_id
		                   ? json_pack("{s:s,s:s}", "id", r->player_id,
		                               "name", r->player_name)
		                   : json_null(),
		               "game",
		               *r->game_id ? json_string(r->game_id)
		                           : json_null(),
		               "n", r->n ? json_integer(r->n) : json_null(),
		               "seat",
		               r->seat >= 0 ? json_integer(r->seat)
		                            : json_null(),
		               "text",
		               r->text ? json_string(r->text) : json_null(),
		               "reason", r->reason, "created",
		               iso(r->created_ms, a)))
		           ? BD_ENOMEM
		           : 0;
	printf("%-6lld %s  %s (%s) reports %s%s%s%s: %s", (long long)r->key,
	       iso(r->created_ms, a), r->reporter_id, r->reporter_name,
	       *r->player_id ? r->player_id : "a seat token",
	       *r->player_name ? " (" : "", r->player_name,
	       *r->player_name ? ")" : "", r->reason);
	if (*r->game_id)
		printf("  [game %s message %lld: \"%s\"]", r->game_id,
		       (long long)r->n, r->text ? r->text : "");
	putchar('\n');
	return 0;
}

static int cmd_reports(struct store *st, const struct admin_opts *o)
{
	struct list_ctx x = {o, o->json ? json_array() : NULL, 0};
	int rc =
	    store_reports_each(st, o->after, (int)o->limit, list_report, &x);
	if (rc < 0) {
		json_decref(x.a);
		return fail(rc, NULL, "reports");
	}
	if (x.a)
		return print_json(x.a);
	if (!x.n)
		printf("no report after key %ld\n", o->after);
	return 0;
}

static int cmd_export(struct service *svc, const struct admin_opts *o)
{
	if (!o->arg) {
		fprintf(stderr, "boardd admin export: which player?\n");
		return 2;
	}
	struct svc_err err = {0};
	json_t *out = NULL;
	int rc = service_admin_export(svc, o->arg, &out, &err);
	return rc < 0 ? fail(rc, &err, "export") : print_json(out);
}

static int cmd_delete(struct service *svc, const struct admin_opts *o)
{
	if (!o->arg) {
		fprintf(stderr, "boardd admin delete: which player?\n");
		return 2;
	}
	struct svc_err err = {0};
	int rc = service_admin_delete(svc, o->arg, o->reason, &err);
	if (rc < 0)
		return fail(rc, &err, "delete");
	char line[200];
	snprintf(line, sizeof line,
	         "deleted player %s: games in progress resigned, the rest "
	         "erased; their seats show \"deleted player\"",
	         o->arg);
	return done(o, json_pack("{s:s}", "player", o->arg), line);
}

static int cmd_prune(struct store *st, const struct admin_opts *o)
{
	if (o->chat_days < 0 && o->idem_hours < 0) {
		fprintf(stderr, "boardd admin prune: give --chat-days N "
		                "and/or --idempotency-hours H\n");
		return 2;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts); /* ms, as the store's rows */
	int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	int64_t chat = 0, idem = 0, n;
	int rc = 0;
	/* in batches, so the server's writes never wait long */
	if (o->chat_days >= 0)
		do {
			rc = store_chat_prune(
			    st, now - (int64_t)o->chat_days * 86400000, 1000,
			    &n);
			if (rc == 0)
				chat += n;
		} while (rc == 0 && n == 1000);
	if (rc == 0 && o->idem_hours > 0)
		rc = store_idem_prune(
		    st, now - (int64_t)o->idem_hours * 3600000, &idem);
	if (rc < 0)
		return fail(rc, NULL, "prune");
	char line[200];
	snprintf(line, sizeof line,
	         "deleted %lld chat message(s), %lld idempotency record(s)",
	         (long long)chat, (long long)idem);
	return done(o,
	            json_pack("{s:I,s:I}", "chat_messages", (json_int_t)chat,
	                      "idempotency_records", (json_int_t)idem),
	            line);
}

static int cmd_schema(struct store *st, const struct admin_opts *o)
{
	int known;
	const char *name;
	store_schema(st, &known, &name);
	const char *backend =
	    store_is_postgres(o->db) ? "postgresql" : "sqlite";
	char line[300];
	snprintf(line, sizeof line,
	         "boardd %s (commit %s)\n%s database, schema version %d "
	         "(newest migration %s)",
	         boardd_version, boardd_commit, backend, known, name);
	return done(o,
	            json_pack("{s:s,s:s,s:s,s:i,s:s}", "version",
	                      boardd_version, "commit", boardd_commit,
	                      "backend", backend, "schema_version", known,
	                      "migration", name),
	            line);
}

/* Opens the store beside a running server: no exclusive lock, changes
 * recorded for it (store_config.outside); the server key as the server
 * reads it, never made here (a missing file is an error, not a new
 * key). */
static int open_store(const struct admin_opts *o, struct store **st)
{
	char path[4096], err[256];
	if (store_is_postgres(o->db) && !o->key_path) {
		fprintf(stderr, "boardd admin: --db names a PostgreSQL "
		                "database: give --secret-key FILE, the "
		                "servers' key file\n");
		return 2;
	}
	snprintf(path, sizeof path, "%s%s", o->key_path ? o->key_path : o->db,
	         o->key_path ? "" : ".key");
	if (access(path, F_OK) < 0) {
		fprintf(stderr,
		        "boardd admin: the server key file %s is missing "
		        "(give --secret-key FILE, the one the server uses)\n",
		        path);
		return 1;
	}
	uint8_t key[STORE_KEY_LEN];
	if (keyfile_load(path, key, sizeof key, err, sizeof err) < 0) {
		fprintf(stderr, "boardd admin: %s\n", err);
		return 1;
	}
	struct store_config sc = {.path = o->db,
	                          .sync_full = 1,
	                          .connections = 2,
	                          .busy_timeout_ms = 5000,
	                          .secret_key = key,
	                          .outside = 1};
	int rc = store_open(&sc, st, err, sizeof err);
	sodium_memzero(key, sizeof key);
	if (rc < 0) {
		fprintf(stderr, "boardd admin: %s: %s\n",
		        store_is_postgres(o->db) ? "postgresql" : o->db, err);
		return 1;
	}
	return 0;
}

int admin_main(int argc, char **argv)
{
	struct admin_opts o;
	if (argc > 1 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (parse(argc, argv, &o) < 0) {
		usage(stderr);
		return 2;
	}
	static const char *const cmds[] = {
	    "players", "player", "ban",    "unban", "revoke", "end-game",
	    "reports", "export", "delete", "prune", "schema", NULL};
	int known = 0;
	for (int i = 0; cmds[i]; i++)
		known |= strcmp(o.cmd, cmds[i]) == 0;
	if (!known) {
		fprintf(stderr, "boardd admin: no command %s\n", o.cmd);
		usage(stderr);
		return 2;
	}
	if (sodium_init() < 0) {
		fprintf(stderr, "boardd admin: libsodium failed\n");
		return 1;
	}
	json_object_seed(0);
	log_set_level(LOG_ERROR); /* the store's migration lines: not ours */
	struct store *st = NULL;
	int rc = open_store(&o, &st);
	if (rc)
		return rc;
	struct service *svc = service_new(st, 64);
	if (!svc) {
		store_close(st);
		return fail(BD_ENOMEM, NULL, o.cmd);
	}
	const char *c = o.cmd;
	if (strcmp(c, "players") == 0)
		rc = cmd_players(st, &o);
	else if (strcmp(c, "player") == 0)
		rc = cmd_player(st, &o);
	else if (strcmp(c, "ban") == 0)
		rc = cmd_ban(st, &o);
	else if (strcmp(c, "unban") == 0)
		rc = cmd_unban(st, &o);
	else if (strcmp(c, "revoke") == 0)
		rc = cmd_revoke(st, &o);
	else if (strcmp(c, "end-game") == 0)
		rc = cmd_end_game(svc, &o);
	else if (strcmp(c, "reports") == 0)
		rc = cmd_reports(st, &o);
	else if (strcmp(c, "export") == 0)
		rc = cmd_export(svc, &o);
	else if (strcmp(c, "delete") == 0)
		rc = cmd_delete(svc, &o);
	else if (strcmp(c, "prune") == 0)
		rc = cmd_prune(st, &o);
	else
		rc = cmd_schema(st, &o);
	fflush(stdout);
	service_free(svc);
	store_close(st);
	return rc;
}
