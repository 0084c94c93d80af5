/* registry.c: the rules modules this server offers, in catalog order.
 * Adding a game = writing its module and adding one line here (and its
 * folder to GAMES in the Makefile); nothing else learns its name. */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "games/agent_avenue/aa.h"
#include "games/quantum/quantum.h"

static const struct rules *const builtin[] = {
    &aa_rules,
    &qt_rules,
};
#define NBUILTIN (sizeof builtin / sizeof *builtin)

/* The registry in use: the built-in one unless a test replaced it.  No
 * module keeps an older version today (Agent Avenue's version 1 games
 * replay under version 2: replays_from), so `older` is empty. */
static const struct rules *const *registry = builtin;
static size_t nregistry = NBUILTIN;
static const struct rules *const *older;
static size_t nolder;

const struct rules *engine_rules_find(const char *id)
{
	for (size_t i = 0; i < nregistry; i++)
		if (strcmp(registry[i]->id, id) == 0)
			return registry[i];
	return NULL;
}

const struct rules *const *engine_rules_all(size_t *n)
{
	*n = nregistry;
	return registry;
}

int engine_rating_category_known(const char *category)
{
	if (!category)
		return 0;
	for (size_t i = 0; i < nregistry; i++) {
		const struct rules *r = registry[i];
		if (r->rating_categories) {
			for (const char *const *c = r->rating_categories; *c; c++)
				if (strcmp(*c, category) == 0)
					return 1;
			continue;
		}
		for (int n = r->min_seats; n <= r->max_seats; n++) {
			char name[48];
			snprintf(name, sizeof name, "%s-%dp", r->id, n);
			if (strcmp(name, category) == 0)
				return 1;
		}
	}
	return 0;
}

const struct rules *engine_rules_older(const char *id, unsigned version)
{
	for (size_t i = 0; i < nolder; i++)
		if (older[i]->version == version &&
		    strcmp(older[i]->id, id) == 0)
			return older[i];
	return NULL;
}

void engine_registry_replace(const struct rules *const *current, size_t n,
                             const struct rules *const *old, size_t nold)
{
	registry = current ? current : builtin;
	nregistry = current ? n : NBUILTIN;
	older = current ? old : NULL;
	nolder = current ? nold : 0;
}

int engine_rules_replays(const struct rules *r, unsigned stored)
{
	unsigned from = r->replays_from ? r->replays_from : r->version;
	return stored >= from && stored <= r->version;
}
