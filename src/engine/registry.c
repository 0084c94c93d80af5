/* registry.c: the rules modules this server offers, in catalog order.
 * Adding a game = writing its module and adding one line here (and its
 * folder to GAMES in the Makefile); nothing else learns its name. */
#include <string.h>

#include "engine.h"
#include "games/agent_avenue/aa.h"
#include "games/quantum/quantum.h"

static const struct rules *const registry[] = {
    &aa_rules,
    &qt_rules,
};

const struct rules *engine_rules_find(const char *id)
{
	for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
		if (strcmp(registry[i]->id, id) == 0)
			return registry[i];
	return NULL;
}

const struct rules *const *engine_rules_all(size_t *n)
{
	*n = sizeof registry / sizeof *registry;
	return registry;
}

int engine_rules_replays(const struct rules *r, unsigned stored)
{
	unsigned from = r->replays_from ? r->replays_from : r->version;
	return stored >= from && stored <= r->version;
}
