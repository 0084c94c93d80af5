/* qt_trace.c: a fingerprint of the Quantum rules' behaviour, to prove a
 * rewrite of the rules module changes nothing (issue 10's speed work).
 *
 *   qt_trace [GAMES_PER_MAP [VIEW_STRIDE]]
 *
 * Plays GAMES_PER_MAP (default 3) seeded random games on every map of
 * rules §11 (each with its own seat count, 2-4), with the options drawn
 * from the seed (entanglement, relocation, curious, strategic printings),
 * through the native interface.  At every position it hashes (BLAKE2b,
 * libsodium) the seats to act, every listed action of the seat to act (its
 * native bytes, in order), the JSON of the action played, one mutated
 * listed action's outcome (code, rules section and refusal sentence, or
 * the spectator's view when it was legal), and every VIEW_STRIDE-th
 * position (default 1) the views of every seat and of a spectator.
 * Prints one line per game (map, seats, seed, moves, hash) and a total;
 * run it before and after a change and diff the outputs:
 *
 *   build/release/eval/qt_trace > before.txt   (old code)
 *   build/release/eval/qt_trace > after.txt    (new code)
 *   diff before.txt after.txt
 *
 * Never part of make test (minutes); not a speed figure.
 */
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rng.h"
#include "games/quantum/qt.h"
#include "games/quantum/quantum.h"

static void hash_bytes(crypto_generichash_state *h, const void *p, size_t n)
{
	crypto_generichash_update(h, p, n);
}

static void hash_json(crypto_generichash_state *h, json_t *j)
{
	char *t = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	if (t)
		hash_bytes(h, t, strlen(t) + 1);
	else
		hash_bytes(h, "null", 5);
	free(t);
	json_decref(j);
}

static void hash_views(crypto_generichash_state *h, const struct engine_game *g,
                       int seats)
{
	for (int v = ENGINE_SPECTATOR; v < seats; v++)
		hash_json(h, engine_game_view(g, v));
}

/* Applies a copy of a listed action with one byte changed and hashes
 * what the rules say. */
static void hash_mutant(crypto_generichash_state *h,
                        const struct engine_game *g, int seat,
                        const struct engine_action *a, struct rng *pick)
{
	struct engine_action m = *a;
	size_t at = rng_below(pick, (uint32_t)sizeof(struct qt_action));
	m.bytes[at] = (unsigned char)((int)rng_below(pick, 26) - 3);
	struct engine_game *c = engine_game_clone(g);
	struct rules_why why;
	memset(&why, 0, sizeof why);
	if (!c) {
		fputs("qt_trace: out of memory\n", stderr);
		exit(1);
	}
	int rc = engine_game_play(c, seat, &m, &why);
	hash_bytes(h, &rc, sizeof rc);
	if (rc) {
		hash_bytes(h, why.rule, strlen(why.rule));
		hash_bytes(h, why.detail, strlen(why.detail));
	} else {
		hash_json(h, engine_game_view(c, ENGINE_SPECTATOR));
	}
	engine_game_free(c);
}

static const char *const reloc[] = {"revised", "first-printing"};
static const char *const curious[] = {"revised", "addon", "first-printing"};

int main(int argc, char **argv)
{
	int per_map = argc > 1 ? atoi(argv[1]) : 3;
	int stride = argc > 2 ? atoi(argv[2]) : 1;
	if (per_map < 1 || stride < 1 || sodium_init() < 0) {
		fputs("usage: qt_trace [GAMES_PER_MAP [VIEW_STRIDE]]\n",
		      stderr);
		return 2;
	}
	const struct rules *r = engine_rules_find("quantum");
	crypto_generichash_state total;
	crypto_generichash_init(&total, NULL, 0, 32);
	struct engine_actions list = {0};
	unsigned long positions = 0;
	for (int mi = 0; mi < qt_map_count(); mi++) {
		const struct qt_map *map = qt_map_get(mi);
		for (int gi = 0; gi < per_map; gi++) {
			uint64_t seed = (uint64_t)mi * 1000 + (uint64_t)gi + 1;
			/* entanglement off where the map allows it (rules
			 * §7.3: some maps need it) */
			struct engine_game *g = NULL;
			struct rules_why why;
			for (int ent = seed % 2 == 0; ent <= 1 && !g; ent++) {
				json_t *o = json_pack(
				    "{s:s,s:b,s:s,s:s,s:s}", "map", map->name,
				    "entanglement", ent, "relocation",
				    reloc[seed / 2 % 2], "curious",
				    curious[seed / 4 % 3], "strategic",
				    reloc[seed / 12 % 2]);
				if (engine_game_new(r, map->seats, o, NULL,
				                    seed, &g, &why))
					g = NULL;
				json_decref(o);
			}
			if (!g) {
				fprintf(stderr, "qt_trace: %s: %s\n", map->name,
				        why.detail);
				return 1;
			}
			struct rng pick;
			rng_seed(&pick, seed ^ 0x5bd1e995u);
			crypto_generichash_state h;
			crypto_generichash_init(&h, NULL, 0, 32);
			unsigned due;
			size_t moves = 0;
			while ((due = engine_game_to_act(g)) != 0) {
				int seat = __builtin_ctz(due);
				hash_bytes(&h, &due, sizeof due);
				if (moves % (size_t)stride == 0)
					hash_views(&h, g, map->seats);
				if (engine_game_legal(g, seat, &list) ||
				    !list.n) {
					fprintf(stderr,
					        "qt_trace: no action listed\n");
					return 1;
				}
				hash_bytes(&h, list.v, list.n * sizeof *list.v);
				hash_mutant(
				    &h, g, seat,
				    &list.v[rng_below(&pick, (uint32_t)list.n)],
				    &pick);
				const struct engine_action *a =
				    &list.v[rng_below(&pick, (uint32_t)list.n)];
				hash_json(&h, r->action_json(a));
				if (engine_game_play(g, seat, a, &why)) {
					fprintf(stderr,
					        "qt_trace: a listed action was "
					        "refused: %s\n",
					        why.detail);
					return 1;
				}
				moves++;
				positions++;
			}
			hash_views(&h, g, map->seats);
			unsigned char out[32];
			crypto_generichash_final(&h, out, sizeof out);
			crypto_generichash_update(&total, out, sizeof out);
			printf("%2d %d seats seed %5llu %5zu moves ", mi,
			       map->seats, (unsigned long long)seed, moves);
			for (int k = 0; k < 8; k++)
				printf("%02x", out[k]);
			printf("\n");
			fflush(stdout);
			engine_game_free(g);
		}
	}
	unsigned char out[32];
	crypto_generichash_final(&total, out, sizeof out);
	printf("total %lu positions ", positions);
	for (int k = 0; k < 32; k++)
		printf("%02x", out[k]);
	printf("\n");
	engine_actions_free(&list);
	return 0;
}
