/* qt_card_table.c: the table of cards (rules §9): each card's name and
 * how many copies of it the game has.  Layer 1 (data) of qt.h: it calls
 * nothing. */
#include <string.h>

#include "qt.h"

static const char *const card_names[QT_NCARDS] = {
    "expansion",  "aggression",  "momentum",   "reorganization", "relocation",
    "sabotage",   "agile",       "arrogant",   "brilliant",      "cerebral",
    "clever",     "conformist",  "cruel",      "cunning",        "curious",
    "dangerous",  "eager",       "energetic",  "ferocious",      "flexible",
    "ingenious",  "intelligent", "nomadic",    "plundering",     "precocious",
    "rational",   "ravenous",    "relentless", "resourceful",    "righteous",
    "scrappy",    "stealthy",    "strategic",  "stubborn",       "tactical",
    "tyrannical", "warlike",
};

/* rules §9.3: gambit copies; every command card exists once. */
static const uint8_t gambit_copies[QT_NGAMBIT_KINDS] = {8, 4, 4, 2, 2, 2};

int qt_card_find(const char *name)
{
	for (int i = 0; i < QT_NCARDS; i++)
		if (strcmp(card_names[i], name) == 0)
			return i;
	return -1;
}

const char *qt_card_name(int card)
{
	return card >= 0 && card < QT_NCARDS ? card_names[card] : "?";
}

int qt_card_copies(int card)
{
	if (card < 0 || card >= QT_NCARDS)
		return 0;
	return card < QT_NGAMBIT_KINDS ? gambit_copies[card] : 1;
}
