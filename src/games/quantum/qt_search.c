/* qt_search.c: what a search (src/bot) needs of Quantum: determinization
 * and a heuristic estimate of each seat's chances.  Neither is a rule:
 * they never run in a game's own moves.
 * Layer 7 (beside the rules) of qt.h: it calls only the board. */
#include <string.h>

#include "qt.h"

/* Sorts n card ids in place (counting sort: ids are < QT_NCARDS). */
static void sort_cards(uint8_t *c, int n)
{
	uint8_t count[QT_NCARDS] = {0};
	for (int i = 0; i < n; i++)
		count[c[i]]++;
	int k = 0;
	for (int id = 0; id < QT_NCARDS; id++)
		for (int i = 0; i < count[id]; i++)
			c[k++] = (uint8_t)id;
}

/* rules §9.1: the decks are face down.  (The dice not rolled yet are
 * unknown too: the searcher's reseeded generator has no script.) */
void qt_determinize(struct qt_state *s, struct rng *rng)
{
	sort_cards(s->cmd_deck, s->cmd_deck_n);
	sort_cards(s->gam_deck, s->gam_deck_n);
	rng_shuffle_u8(rng, s->cmd_deck, s->cmd_deck_n);
	rng_shuffle_u8(rng, s->gam_deck, s->gam_deck_n);
}

/* Progress towards the only win, the last cube (rules §10), with small
 * weights for what helps place cubes: dominance (infamy at 6, §7.1),
 * research (construct at 6, §7.2) and ships in play. */
static double progress(const struct qt_state *s, int seat)
{
	const struct qt_map *m = qt_map_get(s->map);
	double v = (double)(m->cubes - s->cubes_left[seat]) / m->cubes;
	int ships = 0;
	for (int i = 0; i < QT_SHIPS; i++)
		ships += s->ship[seat][i].where == QT_MAP;
	return v + 0.03 * s->dominance[seat] + 0.02 * s->research[seat] +
	       0.02 * ships;
}

void qt_estimate(const struct qt_state *s, double share[QT_MAX_SEATS])
{
	double sum = 0;
	for (int p = 0; p < s->seats; p++) {
		double w = 1 + progress(s, p), w2 = w * w, w4 = w2 * w2;
		sum += share[p] = w4 * w4; /* steep: a cube ahead counts */
	}
	for (int p = 0; p < s->seats; p++)
		share[p] /= sum;
}
