/* test_cases.c: the one runner of the rule cases kept as data, in the
 * manner of curl's tests/data: every .json file of tests/cases/<game>/ is one
 * named case (a setup, moves, the expected views or refusals) played
 * through src/engine/engine.h.  Adding a case is adding a file; the format
 * is tests/cases/README.md.
 *
 * Usage: test_cases [DIR]   (DIR defaults to the tree's tests/cases,
 * compiled in as BD_CASES_DIR).  Each case is one check named by its file
 * and its "name"; a failed case prints every expectation that did not
 * hold.  A file that is not a well-formed case fails too (a typo must not
 * pass as an empty case).  Prints "cases: N passed, N failed". */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "engine/engine.h"
#include "testhelp.h"

#ifndef BD_CASES_DIR
#define BD_CASES_DIR "tests/cases"
#endif

#define MOVES_MAX 64 /* accepted moves a case may play */

/* The refusal codes a case may name (src/common/err.h). */
static const struct {
	const char *word;
	int code;
} codes[] = {
    {"illegal", BD_EILLEGAL},        {"not_turn", BD_ENOTTURN},
    {"bad_setup", BD_EBADSETUP},     {"bad_options", BD_EBADOPTIONS},
    {"bad_request", BD_EBADREQUEST}, {"game_over", BD_EGAMEOVER},
};

static const char *code_word(int code)
{
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (codes[i].code == code)
			return codes[i].word;
	return "?";
}

/* The case being run: its file, for every message. */
static const char *cur_file;

static void failf(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "  %s: ", cur_file);
	fprintf(stderr, fmt, a ? a : "(none)", b ? b : "(none)");
	fputc('\n', stderr);
}

static void show(const char *what, const json_t *got, const json_t *want)
{
	char *g = got ? json_dumps(got, JSON_ENCODE_ANY | JSON_SORT_KEYS |
	                                    JSON_COMPACT)
	              : NULL;
	char *w = want ? json_dumps(want, JSON_ENCODE_ANY | JSON_SORT_KEYS |
	                                      JSON_COMPACT)
	               : NULL;
	fprintf(stderr, "  %s: %s\n    got:  %s\n    want: %s\n", cur_file,
	        what, g ? g : "(none)", w ? w : "(none)");
	free(g), free(w);
}

/* The first element of array j whose key `k` equals the JSON text
 * `value` (a path segment "[k=value]"), borrowed; NULL if none. */
static json_t *select_in(json_t *j, const char *seg)
{
	char key[128];
	const char *eq = strchr(seg, '=');
	size_t len = strlen(seg);
	if (!eq || seg[len - 1] != ']' || (size_t)(eq - seg - 1) >= sizeof key)
		return NULL;
	snprintf(key, sizeof key, "%.*s", (int)(eq - seg - 1), seg + 1);
	json_t *want = json_loadb(eq + 1, (size_t)(seg + len - 1 - (eq + 1)),
	                          JSON_DECODE_ANY, NULL);
	json_t *found = NULL, *e;
	size_t i;
	json_array_foreach(j, i, e) {
		if (!found && want && json_equal(json_object_get(e, key), want))
			found = e;
	}
	json_decref(want);
	return found;
}

/* The value at a '/' path (object keys, array indices, "[k=value]"
 * selectors) under j, borrowed; NULL if there is none.  An empty path is
 * j itself. */
static json_t *at(json_t *j, const char *path)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *tok = strtok(buf, "/"); tok && j; tok = strtok(NULL, "/"))
		j = tok[0] == '[' ? select_in(j, tok)
		    : json_is_array(j)
		        ? json_array_get(j, strtoul(tok, NULL, 10))
		        : json_object_get(j, tok);
	return j;
}

/* 1 if array arr holds an element equal to x. */
static int holds(const json_t *arr, const json_t *x)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e) {
		if (json_equal(e, x))
			return 1;
	}
	return 0;
}

/* 1 if two arrays hold the same elements, in any order. */
static int same_set(const json_t *a, const json_t *b)
{
	if (!json_is_array(a) || !json_is_array(b) ||
	    json_array_size(a) != json_array_size(b))
		return 0;
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x) {
		if (!holds(b, x))
			return 0;
	}
	return 1;
}

/* 1 if every key of `filter` is in `a` with an equal value. */
static int matches(const json_t *a, const json_t *filter)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)filter, k, v) {
		if (!json_equal(json_object_get(a, k), v))
			return 0;
	}
	return 1;
}

/* The moves played so far, for "@move": snap[m] is the game after m. */
struct played {
	struct engine_game *snap[MOVES_MAX + 1];
	int actor[MOVES_MAX];
	json_t *act[MOVES_MAX];
	size_t n;
};

/* The value a check key names (README.md "Checks"), as a new reference
 * in *owned with *got pointing into it (NULL: nothing there).  *as_set
 * is set for keys compared in any order.  0, or -1 on a key the format
 * does not know. */
static int lookup(struct engine_game *g, const struct played *p,
                  const char *key, json_t **owned, json_t **got, int *as_set)
{
	char *rest;
	*owned = *got = NULL;
	if (!strncmp(key, "@actions/", 9)) {
		int seat = (int)strtol(key + 9, &rest, 10);
		*owned = engine_game_actions(g, seat);
		*got = at(*owned, rest);
		*as_set = *rest == '\0';
	} else if (!strncmp(key, "@ordered-actions/", 17)) {
		*got = *owned = engine_game_actions(g, atoi(key + 17));
	} else if (!strncmp(key, "@result", 7) &&
	           (key[7] == '\0' || key[7] == '/')) {
		*owned = engine_result_json(g);
		*got = at(*owned, key + 7);
	} else if (!strcmp(key, "@to_act")) {
		*got = *owned = engine_seats_json(engine_game_to_act(g));
	} else if (!strcmp(key, "@seq")) {
		*got = *owned = json_integer((json_int_t)g->seq);
	} else if (!strncmp(key, "@seat/", 6)) {
		int seat = (int)strtol(key + 6, &rest, 10);
		*owned = engine_game_view(g, seat);
		*got = at(*owned, rest);
	} else if (!strncmp(key, "@move/", 6)) {
		int viewer = (int)strtol(key + 6, &rest, 10);
		size_t m = strtoul(rest + (*rest == '/'), NULL, 10);
		if (m >= 1 && m <= p->n)
			*got = *owned =
			    engine_move_view(p->snap[m], g, p->actor[m - 1],
			                     p->act[m - 1], viewer);
	} else if (key[0] == '@') {
		return -1;
	} else {
		*owned = engine_game_view(g, ENGINE_SPECTATOR);
		*got = at(*owned, key);
	}
	return 0;
}

/* Listed actions of `seat` that match the filter object. */
static int count_listed(struct engine_game *g, int seat, const json_t *filter)
{
	json_t *all = engine_game_actions(g, seat), *a;
	size_t i;
	int n = 0;
	json_array_foreach(all, i, a)
		n += matches(a, filter);
	json_decref(all);
	return n;
}

/* One expectation: 1 if it holds (prints what differs if not). */
static int check_one(struct engine_game *g, const struct played *p,
                     const char *key, json_t *want)
{
	json_t *owned, *got, *tmp = NULL;
	int as_set = 0, ok, len = 0;
	char path[512];
	/* "@listed/S", "@unlisted/S": each action of the array is (is not)
	 * among seat S's listed actions. */
	if (!strncmp(key, "@listed/", 8) || !strncmp(key, "@unlisted/", 10)) {
		int listed = key[1] == 'l';
		int seat = atoi(key + (listed ? 8 : 10));
		json_t *all = engine_game_actions(g, seat), *a;
		size_t i;
		ok = json_is_array(want);
		json_array_foreach(want, i, a) {
			if (holds(all, a) != listed) {
				show(key, all, a);
				ok = 0;
			}
		}
		json_decref(all);
		return ok;
	}
	/* "@count/S": {"match": {...}, "is": N} (or "min": N): listed
	 * actions of seat S whose keys include every key of "match". */
	if (!strncmp(key, "@count/", 7)) {
		json_t *m = json_object_get(want, "match");
		json_t *is = json_object_get(want, "is");
		json_t *min = json_object_get(want, "min");
		if (!json_is_object(m) ||
		    (!json_is_integer(is) == !json_is_integer(min))) {
			show(key, NULL, want);
			return 0;
		}
		int n = count_listed(g, atoi(key + 7), m);
		ok = is ? n == json_integer_value(is)
		        : n >= json_integer_value(min);
		if (!ok) {
			tmp = json_integer(n);
			show(key, tmp, want);
			json_decref(tmp);
		}
		return ok;
	}
	/* "@lacks/<key>": [words]: the compact text of that value mentions
	 * none of them (information hiding, rules of each game). */
	int lacks = !strncmp(key, "@lacks/", 7);
	int absent = !strncmp(key, "@absent/", 8);
	/* "@occurrences/<key>": {"of": V, "is": N}: the array there holds
	 * N elements equal to V. */
	int occ = !strncmp(key, "@occurrences/", 13);
	const char *inner = key + (lacks ? 7 : absent ? 8 : occ ? 13 : 0);
	snprintf(path, sizeof path, "%s", inner);
	size_t pl = strlen(path);
	if (!lacks && !absent && pl && path[pl - 1] == '#')
		path[pl - 1] = '\0', len = 1;
	if (lookup(g, p, path, &owned, &got, &as_set)) {
		failf("unknown check key '%s'%s", key, "");
		return 0;
	}
	if (len)
		as_set = 0; /* a count, not a set */
	if (occ) {
		json_t *of = json_object_get(want, "of"), *e;
		size_t i;
		json_int_t n = 0;
		json_array_foreach(got, i, e)
			n += of && json_equal(e, of);
		ok = json_is_array(got) &&
		     json_is_integer(json_object_get(want, "is")) &&
		     n == json_integer_value(json_object_get(want, "is"));
		if (!ok)
			show(key, got, want);
	} else if (absent) {
		ok = got == NULL && json_is_true(want);
		if (!ok)
			show(key, got, NULL);
	} else if (lacks) {
		char *text =
		    got ? json_dumps(got, JSON_ENCODE_ANY | JSON_COMPACT)
		        : NULL;
		size_t i;
		json_t *w;
		ok = text != NULL && json_is_array(want);
		json_array_foreach(want, i, w) {
			if (text && strstr(text, json_string_value(w)))
				ok = 0;
		}
		if (!ok)
			show(key, got, want);
		free(text);
	} else {
		if (len && got)
			got = tmp = json_integer(
			    (json_int_t)(json_is_object(got)
			                     ? json_object_size(got)
			                     : json_array_size(got)));
		ok =
		    as_set ? same_set(got, want) : got && json_equal(got, want);
		if (!ok)
			show(key, got, want);
	}
	json_decref(tmp);
	json_decref(owned);
	return ok;
}

/* An "expect" object: every key checked (not stopping at the first). */
static int check_all(struct engine_game *g, const struct played *p,
                     json_t *expect)
{
	const char *key;
	json_t *want;
	int ok = json_is_object(expect);
	json_object_foreach(expect, key, want)
		ok &= check_one(g, p, key, want);
	return ok;
}

/* 1 if a refusal (rc, why) is what `want` ({"code","rule","detail"},
 * each optional) names. */
static int refusal_is(int rc, const struct rules_why *why, const json_t *want)
{
	const char *code = json_string_value(json_object_get(want, "code"));
	const char *rule = json_string_value(json_object_get(want, "rule"));
	const char *detail = json_string_value(json_object_get(want, "detail"));
	const char *part =
	    json_string_value(json_object_get(want, "detail_contains"));
	int ok = rc != 0 && json_is_object(want) &&
	         (!code || !strcmp(code, code_word(rc))) &&
	         (!rule || !strcmp(rule, why->rule)) &&
	         (!detail || !strcmp(detail, why->detail)) &&
	         (!part || strstr(why->detail, part));
	if (!ok)
		fprintf(stderr,
		        "  %s: refusal\n    got:  rc %d (%s) rule '%s' detail "
		        "'%s'\n    want: %s / %s / %s%s\n",
		        cur_file, rc, rc ? code_word(rc) : "accepted",
		        why->rule, why->detail, code ? code : "*",
		        rule ? rule : "*",
		        detail ? detail
		        : part ? "..."
		               : "*",
		        part ? part : "");
	return ok;
}

/* One move step: {"seat", "move", "refused"?}; 1 if as expected. */
static int move_step(struct engine_game *g, struct played *p, json_t *step)
{
	json_t *seatj = json_object_get(step, "seat");
	json_t *a = json_object_get(step, "move");
	json_t *refused = json_object_get(step, "refused");
	struct rules_why why = {{0}, {0}};
	if (!json_is_integer(seatj) || !a) {
		failf("a step needs \"seat\" and \"move\"%s%s", "", "");
		return 0;
	}
	int seat = (int)json_integer_value(seatj);
	struct engine_game *before = engine_game_clone(g);
	int rc = engine_game_apply(g, seat, a, &why);
	int ok;
	if (refused) {
		ok = refusal_is(rc, &why, refused);
		/* Bad input changes nothing. */
		if (rc && memcmp(before, g, engine_game_size(g->rules)) != 0) {
			failf("a refused move changed the game%s%s", "", "");
			ok = 0;
		}
	} else {
		ok = rc == 0;
		if (!ok) {
			char *t = json_dumps(a, JSON_COMPACT);
			fprintf(stderr, "  %s: refused %s: %s %s\n", cur_file,
			        t, why.rule, why.detail);
			free(t);
		} else if (p->n < MOVES_MAX) {
			p->actor[p->n] = seat;
			p->act[p->n] = json_incref(a);
			p->snap[++p->n] = engine_game_clone(g);
		}
	}
	engine_game_free(before);
	return ok;
}

/* Runs one parsed case; 1 if every step held. */
/* 1 if every key of object o is one of the NULL-terminated `known`: a
 * misspelt key must fail the case, not be passed over. */
static int keys_known(const json_t *o, const char *const *known)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v) {
		const char *const *w = known;
		while (*w && strcmp(*w, k))
			w++;
		if (!*w) {
			failf("unknown key '%s'%s", k, "");
			return 0;
		}
	}
	return 1;
}

static const char *const case_keys[] = {"name",    "rules", "game", "seats",
                                        "options", "setup", "seed", "refused",
                                        "steps",   NULL};
static const char *const step_keys[] = {"seat",   "move", "refused",
                                        "expect", "note", NULL};
static const char *const refusal_keys[] = {"code", "rule", "detail",
                                           "detail_contains", NULL};

static int run_case(json_t *c)
{
	const char *game = json_string_value(json_object_get(c, "game"));
	const struct rules *r = game ? engine_rules_find(game) : NULL;
	json_t *seatsj = json_object_get(c, "seats");
	json_t *seedj = json_object_get(c, "seed");
	json_t *steps = json_object_get(c, "steps");
	json_t *refused = json_object_get(c, "refused");
	size_t i;
	json_t *step;
	if (!json_is_object(c) || !keys_known(c, case_keys) ||
	    (refused && !keys_known(refused, refusal_keys)))
		return 0;
	json_array_foreach(steps, i, step) {
		json_t *ref = json_object_get(step, "refused");
		if (!json_is_object(step) || !keys_known(step, step_keys) ||
		    (ref && !keys_known(ref, refusal_keys)))
			return 0;
	}
	if (!r || !json_is_string(json_object_get(c, "name")) ||
	    !json_is_string(json_object_get(c, "rules")) ||
	    (!refused && json_array_size(steps) == 0)) {
		failf("needs \"name\", \"rules\", a known \"game\" and "
		      "\"steps\" (or \"refused\")%s%s",
		      "", "");
		return 0;
	}
	int seats = seatsj ? (int)json_integer_value(seatsj) : 2;
	uint64_t seed = seedj ? (uint64_t)json_integer_value(seedj) : 1;
	json_t *options = json_object_get(c, "options");
	json_t *setup = json_object_get(c, "setup");
	struct engine_game *g = NULL;
	struct rules_why why = {{0}, {0}};
	int rc = engine_game_new(r, seats, options, setup, seed, &g, &why);
	if (refused) {
		int ok = refusal_is(rc, &why, refused) && g == NULL;
		engine_game_free(g);
		return ok;
	}
	if (rc) {
		fprintf(stderr, "  %s: setup refused: %s %s\n", cur_file,
		        why.rule, why.detail);
		return 0;
	}
	struct played p = {.n = 0};
	p.snap[0] = engine_game_clone(g);
	int ok = 1;
	json_array_foreach(steps, i, step) {
		json_t *expect = json_object_get(step, "expect");
		const char *note =
		    json_string_value(json_object_get(step, "note"));
		int held =
		    expect ? check_all(g, &p, expect) : move_step(g, &p, step);
		if (!held)
			fprintf(stderr, "  %s: step %zu%s%s does not hold\n",
			        cur_file, i + 1, note ? ", " : "",
			        note ? note : "");
		ok &= held;
		if (!held && !expect)
			break; /* later steps assume this move */
	}
	for (size_t m = 0; m < p.n; m++)
		json_decref(p.act[m]), engine_game_free(p.snap[m + 1]);
	engine_game_free(p.snap[0]);
	engine_game_free(g);
	return ok;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder `path`, sorted: its subfolders (dirs 1) or its
 * .json files (dirs 0).  A new array of new strings (free each, then the
 * array), *n of them; NULL if the folder cannot be read. */
static char **list_dir(const char *path, int dirs, size_t *n)
{
	DIR *d = opendir(path);
	if (!d)
		return NULL;
	char **names = malloc(sizeof *names);
	struct dirent *e;
	*n = 0;
	while (names && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		int keep = dirs ? e->d_name[0] != '.' && e->d_type == DT_DIR
		                : l > 5 && !strcmp(e->d_name + l - 5, ".json");
		if (!keep)
			continue;
		char **more = realloc(names, (*n + 2) * sizeof *names);
		if (!more)
			abort();
		names = more;
		names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (!names)
		abort();
	qsort(names, *n, sizeof *names, by_name);
	return names;
}

/* Runs every .json file of dir (sorted, so the output is stable). */
static void run_dir(const char *dir)
{
	size_t n;
	char **names = list_dir(dir, 0, &n);
	if (!names) {
		test_cond(dir, 0);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char file[2048];
		snprintf(file, sizeof file, "%s/%s", dir, names[i]);
		cur_file = file;
		json_error_t err;
		json_t *c = json_load_file(file, 0, &err);
		if (!c)
			fprintf(stderr, "  %s: line %d: %s\n", file, err.line,
			        err.text);
		const char *name =
		    json_string_value(json_object_get(c, "name"));
		char label[2560];
		snprintf(label, sizeof label, "%s (%s)", name ? name : "?",
		         file);
		test_cond(label, c && run_case(c));
		json_decref(c);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : BD_CASES_DIR;
	size_t n;
	char **games = list_dir(root, 1, &n);
	if (!games) {
		fprintf(stderr, "no case folder %s\n", root);
		test_cond(root, 0);
		return test_report("cases");
	}
	for (size_t i = 0; i < n; i++) {
		char dir[1024];
		snprintf(dir, sizeof dir, "%s/%s", root, games[i]);
		run_dir(dir);
		free(games[i]);
	}
	free(games);
	return test_report("cases");
}
