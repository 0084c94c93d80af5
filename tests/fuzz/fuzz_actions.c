/* fuzz_actions.c: libFuzzer target.  The input is a game id byte (ignored
 * when built with -DFUZZ_GAME='"<id>"', one target per game), a seat
 * count byte, then newline-separated JSON texts: the first is a custom
 * setup (or "-" for the normal deal), optionally preceded by the game's
 * options and a tab (`{"mode":"advanced"}<TAB>-`), each further one an
 * action posted by the seat given in its first byte.  Every registered rules
 * module is driven through the engine exactly as the service drives it: nothing
 * may crash, leak or trip a sanitizer, a refused action must leave the game bit
 * for bit unchanged, and every listed action must be accepted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* One line of the input, or NULL at the end. */
static const char *next_line(const char **p, const char *end, size_t *len)
{
	if (*p >= end)
		return NULL;
	const char *start = *p;
	const char *nl = memchr(start, '\n', (size_t)(end - start));
	*len = (size_t)((nl ? nl : end) - start);
	*p = nl ? nl + 1 : end;
	return start;
}

/* Applies one fuzzed action, checking the engine's promises. */
static void apply_one(struct engine_game *g, int seat, const json_t *action)
{
	size_t size = engine_game_size(g->rules);
	struct engine_game *before = engine_game_clone(g);
	struct rules_why why;
	if (!before)
		return;
	if (engine_game_apply(g, seat, action, &why) < 0 &&
	    memcmp(before, g, size) != 0)
		abort(); /* a refused action changed the game */
	engine_game_free(before);
}

/* Posts the first listed action of the first seat to act, which must be
 * accepted: keeps the game moving between fuzzed actions. */
static void apply_listed(struct engine_game *g)
{
	unsigned to_act = engine_game_to_act(g);
	for (int seat = 0; seat < g->seats; seat++) {
		if (!(to_act & (1u << seat)))
			continue;
		json_t *acts = engine_game_actions(g, seat);
		struct rules_why why;
		if (json_array_size(acts) &&
		    engine_game_apply(g, seat, json_array_get(acts, 0), &why) <
		        0)
			abort(); /* a listed action was refused */
		json_decref(acts);
		return;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	if (size < 2)
		return 0;
#ifdef FUZZ_GAME /* one target per game: the first byte is ignored */
	const struct rules *r = engine_rules_find(FUZZ_GAME);
	(void)all;
#else
	const struct rules *r = all[data[0] % n];
#endif
	int seats = r->min_seats + data[1] % (r->max_seats - r->min_seats + 1);
	const char *p = (const char *)data + 2,
	           *end = (const char *)data + size;
	size_t len;
	const char *line = next_line(&p, end, &len);
	json_t *options = NULL;
	const char *tab = line ? memchr(line, '\t', len) : NULL;
	if (tab) {
		options = json_loadb(line, (size_t)(tab - line), 0, NULL);
		len -= (size_t)(tab + 1 - line);
		line = tab + 1;
	}
	json_t *setup = line && !(len == 1 && *line == '-')
	                    ? json_loadb(line, len, 0, NULL)
	                    : NULL;
	struct engine_game *g = NULL;
	struct rules_why why;
	int rc = engine_game_new(
	    r, seats, json_is_object(options) ? options : NULL,
	    json_is_object(setup) ? setup : NULL, 0x5eed, &g, &why);
	json_decref(options);
	json_decref(setup);
	if (rc < 0)
		return 0;
	while ((line = next_line(&p, end, &len)) != NULL) {
		json_t *a =
		    len > 1 ? json_loadb(line + 1, len - 1, 0, NULL) : NULL;
		if (a)
			apply_one(g, (unsigned char)line[0] % (g->seats + 1),
			          a);
		else
			apply_listed(g);
		json_decref(a);
		for (int v = -1; v < g->seats; v++) {
			json_decref(engine_game_view(g, v));
			json_decref(engine_game_actions(g, v < 0 ? 0 : v));
		}
	}
	engine_game_free(g);
	return 0;
}
