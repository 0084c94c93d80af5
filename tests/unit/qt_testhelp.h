/* qt_testhelp.h: what the Quantum scenario tests share (test_quantum.c,
 * test_quantum_cases.c): building games from JSON texts, applying actions,
 * and reading the state.  Header-only, like testhelp.h.
 *
 * JSON texts may be written with single quotes for readability: parse()
 * turns every ' into " (no test JSON needs a literal single quote). */
#ifndef QT_TESTHELP_H
#define QT_TESTHELP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/quantum/qt.h"
#include "games/quantum/quantum.h"

/* Why the last game or action was refused. */
static struct rules_why last_why;

/* A new JSON value from a test text; exits on a broken text (a bug in
 * the test, not in the rules). */
static inline json_t *parse(const char *text)
{
	static char buf[4096];
	size_t i = 0;
	for (; text[i] && i + 1 < sizeof buf; i++)
		buf[i] = text[i] == '\'' ? '"' : text[i];
	buf[i] = '\0';
	json_error_t err;
	json_t *j = json_loads(buf, 0, &err);
	if (!j) {
		fprintf(stderr, "bad test JSON %s: %s\n", buf, err.text);
		exit(2);
	}
	return j;
}

/* A new Quantum game, or NULL with the refusal in last_why. */
static inline struct engine_game *game(int seats, const char *options,
                                       const char *setup, uint64_t seed)
{
	json_t *o = options ? parse(options) : NULL;
	json_t *s = setup ? parse(setup) : NULL;
	struct engine_game *g = NULL;
	memset(&last_why, 0, sizeof last_why);
	int rc = engine_game_new(&qt_rules, seats, o, s, seed, &g, &last_why);
	json_decref(o);
	json_decref(s);
	return rc ? NULL : g;
}

/* Applies a printf-formatted action text by `seat`; the engine's code. */
static inline int act(struct engine_game *g, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int act(struct engine_game *g, int seat, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	json_t *a = parse(buf);
	memset(&last_why, 0, sizeof last_why);
	int rc = engine_game_apply(g, seat, a, &last_why);
	json_decref(a);
	return rc;
}

#define OK(g, seat, ...)      (act((g), (seat), __VA_ARGS__) == 0)
#define ILLEGAL(g, seat, ...) (act((g), (seat), __VA_ARGS__) == BD_EILLEGAL)

static inline struct qt_state *st(struct engine_game *g)
{
	return (struct qt_state *)g->state;
}

static inline const struct qt_ship *ship(struct engine_game *g, int seat, int i)
{
	return &st(g)->ship[seat][i];
}

static inline int ship_on(struct engine_game *g, int seat, int i, int r, int c)
{
	const struct qt_ship *sh = ship(g, seat, i);
	return sh->where == QT_MAP && sh->at.r == r && sh->at.c == c;
}

/* 1 if the action text is among the listed actions of seat. */
static inline int listed(struct engine_game *g, int seat, const char *text)
{
	json_t *want = parse(text);
	json_t *all = engine_game_actions(g, seat);
	size_t i;
	json_t *a;
	int found = 0;
	json_array_foreach(all, i, a)
		found |= json_equal(a, want);
	json_decref(all);
	json_decref(want);
	return found;
}

/* Listed actions of a type; shipno >= 0 also matches their "ship". */
static inline int count_ship(struct engine_game *g, int seat, const char *type,
                             int shipno)
{
	json_t *all = engine_game_actions(g, seat);
	size_t i;
	json_t *a;
	int n = 0;
	json_array_foreach(all, i, a) {
		if (strcmp(json_string_value(json_object_get(a, "type")),
		           type) != 0)
			continue;
		if (shipno >= 0 &&
		    json_integer_value(json_object_get(a, "ship")) != shipno)
			continue;
		n++;
	}
	json_decref(all);
	return n;
}

static inline int count_listed(struct engine_game *g, int seat,
                               const char *type)
{
	return count_ship(g, seat, type, -1);
}

/* Cubes of seat on the planet at (r, c); -1 if there is no planet. */
static inline int cubes_of(struct engine_game *g, int seat, int r, int c)
{
	int p = qt_board_planet_at(&st(g)->board, r, c);
	return p < 0 ? -1 : qt_cubes_of(st(g), seat, p);
}

#endif
