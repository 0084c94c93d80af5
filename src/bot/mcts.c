/* mcts.c: information-set MCTS with UCT (see mcts.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts.h"

/* UCT's exploration constant for rewards in [0, 1]. */
#define UCT_C 1.0
/* Iterations between two looks at the clock. */
#define CLOCK_EVERY 16

/* One node: the action that led to it and who took it.  Children are a
 * singly linked list of indices into the tree's array (0: none; node 0
 * is the root). */
struct node {
	struct engine_action action; /* as the searching seat saw it */
	uint64_t hash;               /* key_hash(actor, action) */
	int actor;                   /* the seat that took action */
	unsigned long stamp;         /* last selection step that saw it */
	unsigned child, sibling;     /* first child, next sibling; 0: none */
	unsigned long visits, avail; /* visits; times it was available */
	double reward;               /* the actor's share, summed */
};

struct tree {
	struct node *v;
	size_t n, cap;
	unsigned long stamp; /* selection steps so far */
};

/* A hash of (actor, a): a quick test before comparing the bytes (equal
 * keys have equal hashes). */
static uint64_t key_hash(int actor, const struct engine_action *a)
{
	/* independent multiplies per word (they run in parallel), then
	 * one mix */
	static const uint64_t k[ENGINE_ACTION_BYTES / 8] = {
	    0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full,
	    0x165667b19e3779f9ull, 0xd6e8feb86659fd93ull,
	    0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull};
	_Static_assert(ENGINE_ACTION_BYTES == 48, "one constant a word");
	uint64_t h = (uint64_t)(actor + 2) * 0x94d049bb133111ebull;
	for (size_t i = 0; i < sizeof a->bytes / 8; i++) {
		uint64_t w;
		memcpy(&w, a->bytes + 8 * i, 8);
		h += (w ^ (w >> 29)) * k[i];
	}
	h ^= h >> 32;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

static int tree_add(struct tree *t, unsigned parent,
                    const struct engine_action *a, int actor, unsigned *out)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct node *v = realloc(t->v, cap * sizeof *v);
		if (!v)
			return BD_ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	struct node *nd = &t->v[t->n];
	memset(nd, 0, sizeof *nd);
	if (a)
		nd->action = *a;
	nd->actor = actor;
	nd->hash = key_hash(actor, &nd->action);
	if (t->n) {
		nd->sibling = t->v[parent].child;
		t->v[parent].child = (unsigned)t->n;
	}
	*out = (unsigned)t->n++;
	return 0;
}

/* The child of `parent` for (actor, a), or 0. */
static unsigned find_child(const struct tree *t, unsigned parent, int actor,
                           const struct engine_action *a)
{
	for (unsigned c = t->v[parent].child; c; c = t->v[c].sibling)
		if (t->v[c].actor == actor &&
		    memcmp(&t->v[c].action, a, sizeof *a) == 0)
			return c;
	return 0;
}

/* Per listed action of a node being walked: its key's hash and its child
 * node (0: untried), grown with the action list; and the node's children
 * in an open-addressing table by hash (slot: a node index, 0 empty; node
 * 0 is the root, never a child), so that looking up every action costs
 * one probe instead of a walk of the sibling list. */
struct kids {
	uint64_t *hash;
	unsigned *child;
	size_t cap;
	unsigned *slot;
	size_t mask; /* table size - 1 (a power of 2), or 0 before any */
};

/* Fills k's table with the children of `parent`. */
static int kids_gather(struct kids *k, const struct tree *t, unsigned parent)
{
	size_t cn = 0;
	for (unsigned c = t->v[parent].child; c; c = t->v[c].sibling)
		cn++;
	size_t size = 64;
	while (size < 2 * cn)
		size *= 2;
	if (size > k->mask + 1 || !k->slot) {
		unsigned *v = realloc(k->slot, size * sizeof *v);
		if (!v)
			return BD_ENOMEM;
		k->slot = v;
		k->mask = size - 1;
	}
	memset(k->slot, 0, (k->mask + 1) * sizeof *k->slot);
	for (unsigned c = t->v[parent].child; c; c = t->v[c].sibling) {
		size_t j = t->v[c].hash & k->mask;
		while (k->slot[j])
			j = (j + 1) & k->mask;
		k->slot[j] = c;
	}
	return 0;
}

/* find_child through k's table: the same node (children are unique per
 * key), or 0. */
static unsigned kids_find(const struct kids *k, const struct tree *t, int actor,
                          const struct engine_action *a, uint64_t h)
{
	for (size_t j = h & k->mask; k->slot[j]; j = (j + 1) & k->mask) {
		const struct node *nd = &t->v[k->slot[j]];
		if (nd->hash == h && nd->actor == actor &&
		    memcmp(&nd->action, a, sizeof *a) == 0)
			return k->slot[j];
	}
	return 0;
}

static int kids_fit(struct kids *k, size_t n)
{
	if (k->cap >= n)
		return 0;
	uint64_t *h = realloc(k->hash, n * sizeof *h);
	if (h)
		k->hash = h;
	unsigned *c = realloc(k->child, n * sizeof *c);
	if (c)
		k->child = c;
	if (!h || !c)
		return BD_ENOMEM;
	k->cap = n;
	return 0;
}

static int lowest_seat(unsigned bits)
{
	int s = 0;
	while (!(bits >> s & 1))
		s++;
	return s;
}

/* The seats' shares of a finished or cut game: a win split among the
 * winners; a running game by rules->estimate, or even shares. */
static void score(const struct engine_game *g, double share[ENGINE_MAX_SEATS])
{
	struct rules_result res;
	for (int s = 0; s < ENGINE_MAX_SEATS; s++)
		share[s] = 0;
	if (engine_game_result(g, &res)) {
		int k = __builtin_popcount(res.winners);
		for (int s = 0; s < g->seats; s++)
			if (res.winners >> s & 1)
				share[s] = 1.0 / k;
	} else if (g->rules->estimate) {
		g->rules->estimate(g->state, share);
	} else {
		for (int s = 0; s < g->seats; s++)
			share[s] = 1.0 / g->seats;
	}
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* How `seat` sees action a of actor: its own in full, another seat's
 * through rules->observe (so that moves it cannot tell apart share a
 * node: single-observer ISMCTS with partially observable moves). */
static struct engine_action seen(const struct rules *r, int seat, int actor,
                                 const struct engine_action *a)
{
	struct engine_action k = *a;
	if (actor != seat && r->observe)
		r->observe(&k, actor, seat);
	return k;
}

/* Selection and expansion in the sample g, from the root: walks the
 * nodes of the actions taken (a node stands for every action the
 * searching seat sees alike; one of them is played at random), adds one
 * node, and leaves g after those actions.  path[] receives the nodes
 * walked, *depth their count. */
static int descend(struct tree *t, struct engine_game *g, int seat,
                   struct engine_actions *list, struct engine_actions *keys,
                   struct kids *kid, struct rng *rng, unsigned *path,
                   size_t path_cap, size_t *depth)
{
	const struct rules *r = g->rules;
	unsigned at = 0;
	size_t d = 0;
	path[d++] = 0;
	struct rules_why why;
	unsigned due;
	while ((due = engine_game_to_act(g)) != 0 && d < path_cap) {
		int actor = at == 0 ? seat : lowest_seat(due);
		int rc = engine_game_legal(g, actor, list);
		if (rc == 0 && keys->cap < list->n) {
			void *v = realloc(keys->v, list->n * sizeof *keys->v);
			rc = v ? 0 : BD_ENOMEM;
			if (v) {
				keys->v = v;
				keys->cap = list->n;
			}
		}
		if (rc == 0)
			rc = kids_fit(kid, list->n);
		if (rc == 0)
			rc = kids_gather(kid, t, at);
		if (rc)
			return rc;
		if (list->n == 0)
			return BD_EINTERNAL;
		keys->n = list->n;
		/* every action's class (its key) and the class's node, looked
		 * up once */
		size_t untried = 0;
		for (size_t i = 0; i < list->n; i++) {
			keys->v[i] = seen(r, seat, actor, &list->v[i]);
			kid->hash[i] = key_hash(actor, &keys->v[i]);
			kid->child[i] =
			    kids_find(kid, t, actor, &keys->v[i], kid->hash[i]);
			untried += kid->child[i] == 0;
		}
		/* Untried here: expand one (an action at random, so a class
		 * weighs as many actions as it holds). */
		size_t pick = untried ? rng_below(rng, (uint32_t)untried) : 0;
		size_t chosen = list->n;
		for (size_t i = 0; untried && chosen == list->n; i++)
			if (!kid->child[i] && pick-- == 0)
				chosen = i;
		unsigned next = 0;
		if (untried) {
			rc = tree_add(t, at, &keys->v[chosen], actor, &next);
			if (rc)
				return rc;
			/* the new node is the class of every action with the
			 * chosen key */
			for (size_t i = 0; i < list->n; i++)
				if (!kid->child[i] &&
				    kid->hash[i] == kid->hash[chosen] &&
				    memcmp(&keys->v[i], &keys->v[chosen],
				           sizeof keys->v[i]) == 0)
					kid->child[i] = next;
		}
		/* UCT among the classes available in this sample (each
		 * counted once), unless one was just added. */
		double best = -1;
		t->stamp++;
		for (size_t i = 0; i < list->n; i++) {
			struct node *nd = &t->v[kid->child[i]];
			if (nd->stamp == t->stamp)
				continue;
			nd->stamp = t->stamp;
			nd->avail++;
			if (untried || nd->visits == 0)
				continue;
			double u = nd->reward / (double)nd->visits +
			           UCT_C * sqrt(log((double)nd->avail) /
			                        (double)nd->visits);
			if (u > best) {
				best = u;
				next = kid->child[i];
			}
		}
		/* A concrete action of the chosen class, at random. */
		size_t members = 0;
		for (size_t i = 0; i < list->n; i++)
			members += kid->child[i] == next;
		pick = rng_below(rng, (uint32_t)members);
		for (size_t i = 0; i < list->n; i++)
			if (kid->child[i] == next && pick-- == 0) {
				chosen = i;
				break;
			}
		if (engine_game_step(g, actor, &list->v[chosen], &why))
			return BD_EINTERNAL;
		path[d++] = next;
		if (untried)
			break;
		at = next;
	}
	*depth = d;
	return 0;
}

/* Random moves until the end, or MCTS_PLAYOUT_MOVES when the rules can
 * estimate a running game (engine_game_pick: the moves a draw from the
 * whole list would make, without writing it out). */
static int playout(struct engine_game *g, struct engine_actions *list,
                   struct rng *rng)
{
	struct rules_why why;
	struct engine_action a;
	unsigned due;
	long cap = g->rules->estimate ? MCTS_PLAYOUT_MOVES : LONG_MAX;
	for (long m = 0; m < cap && (due = engine_game_to_act(g)) != 0; m++) {
		int actor = lowest_seat(due);
		long n = engine_game_pick(g, actor, rng, list, &a);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return BD_EINTERNAL;
		if (engine_game_step(g, actor, &a, &why))
			return BD_EINTERNAL;
	}
	return 0;
}

#define PATH_MAX_NODES 512

int mcts_choose(const struct engine_game *g, int seat,
                const struct engine_actions *root, struct rng *rng,
                unsigned long iterations, unsigned max_ms,
                struct engine_action *out, struct bot_report *report)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct tree t = {0};
	struct engine_actions list = {0}, keys = {0};
	struct kids kid = {0};
	struct engine_game *sample = engine_game_clone(g);
	unsigned *path = malloc(PATH_MAX_NODES * sizeof *path);
	unsigned rootn;
	int rc = sample && path ? tree_add(&t, 0, NULL, -1, &rootn) : BD_ENOMEM;
	size_t size = engine_game_size(g->rules);
	unsigned long it = 0;
	for (; rc == 0 && it < iterations; it++) {
		if (it % CLOCK_EVERY == 0 && it && ms_since(&t0) >= max_ms) {
			report->cut = 1;
			break;
		}
		memcpy(sample, g, size);
		g->rules->determinize(sample->state, seat, rng);
		rng_seed(&sample->rng, rng_next(rng));
		size_t depth = 0;
		rc = descend(&t, sample, seat, &list, &keys, &kid, rng, path,
		             PATH_MAX_NODES, &depth);
		if (rc == 0)
			rc = playout(sample, &list, rng);
		if (rc)
			break;
		double share[ENGINE_MAX_SEATS];
		score(sample, share);
		for (size_t i = 0; i < depth; i++) {
			struct node *nd = &t.v[path[i]];
			nd->visits++;
			if (nd->actor >= 0)
				nd->reward += share[nd->actor];
		}
	}
	if (rc == 0) {
		/* The most visited root action (list order breaks ties). */
		unsigned long most = 0;
		*out = root->v[0];
		for (size_t i = 0; i < root->n; i++) {
			unsigned c = find_child(&t, 0, seat, &root->v[i]);
			if (c && t.v[c].visits > most) {
				most = t.v[c].visits;
				*out = root->v[i];
			}
		}
		report->iterations = it;
		report->nodes = t.n;
	}
	free(t.v);
	free(path);
	engine_actions_free(&list);
	engine_actions_free(&keys);
	free(kid.hash);
	free(kid.child);
	free(kid.slot);
	engine_game_free(sample);
	return rc;
}
