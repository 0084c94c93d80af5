/* aa_rules.c: Agent Avenue rules, pure (see aa.h): the base game (§1–§6),
 * the advanced mode's black market (§8) and the team variant (§9).
 *
 * No JSON, no I/O, no allocation, no globals but const tables.  Every
 * public function validates before it writes, so a refused move or setup
 * leaves its output untouched.  snprintf is used only to word refusals.
 *
 * A 2-seat game is the degenerate team game (§7): team t is seat t, so
 * the same code plays every mode and a 2-seat base game is exactly §1–§6.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "aa.h"

#define NONE AA_ICON_NONE

/* rules §1: the 38 agent cards and their icons. */
const struct aa_card_info aa_card_info[AA_KINDS] = {
    [AA_DOUBLE_AGENT] = {"double-agent", "Double Agent", 6, 3, {-1, 6, -1}},
    [AA_ENFORCER] = {"enforcer", "Enforcer", 6, 3, {1, 2, 3}},
    [AA_CODEBREAKER] = {"codebreaker", "Codebreaker", 6, 3, {0, 0, NONE}},
    [AA_SABOTEUR] = {"saboteur", "Saboteur", 6, 3, {-1, -1, -2}},
    [AA_DAREDEVIL] = {"daredevil", "Daredevil", 6, 3, {2, 3, NONE}},
    [AA_SENTINEL] = {"sentinel", "Sentinel", 6, 3, {0, 2, 6}},
    [AA_SIDEKICK] = {"sidekick", "Sidekick", 1, 1, {4, NONE, NONE}},
    [AA_MOLE] = {"mole", "Mole", 1, 1, {-3, NONE, NONE}},
};

/* rules §8.2: the 15 black-market cards. */
const struct aa_bm_info aa_bm_info[AA_BM_KINDS] = {
    [AA_BM_DISTRACTION_DEVICE] = {"distraction-device", "Distraction Device",
                                  "Dispositif de diversion", 1, 0,
                                  "a recruited Saboteur moves its owner "
                                  "forward by the same number instead of "
                                  "backward"},
    [AA_BM_WATCHTOWER] = {"watchtower", NULL, "Cabane d'observation", 1, 0,
                          "a recruited Enforcer moves 2 more spaces "
                          "forward"},
    [AA_BM_SINISTER_TWIN] = {"sinister-twin", "Sinister Twin",
                             "Jumelle maléfique", 1, 0,
                             "a recruited Double Agent moves twice as far, "
                             "either way"},
    [AA_BM_SUPERCOMPUTER] = {"supercomputer", "Supercomputer",
                             "Superordinateur", 1, 0,
                             "a recruited Codebreaker moves 3 forward"},
    [AA_BM_LEADER_OF_THE_PACK] = {"leader-of-the-pack", "Leader of the Pack",
                                  "Cheffe de meute", 1, 0,
                                  "3 or more Daredevils in play is a win "
                                  "condition for the owner instead of a "
                                  "lose condition"},
    [AA_BM_GETAWAY_CAR] = {"getaway-car", "Getaway Car", "Fuite en voiture", 1,
                           0,
                           "when the owner's meeple ends a movement "
                           "exactly on either home space, it moves 3 "
                           "forward at once"},
    [AA_BM_MASTERPLAN] = {"masterplan", "Masterplan", "Plan des opérations", 1,
                          0,
                          "7 or more different agent names in play is a "
                          "win condition"},
    [AA_BM_SECURITY_SYSTEM] = {"security-system", "Security System",
                               "Système de sécurité", 1, 0,
                               "the opponent's meeple standing on the "
                               "owner's home space is a win condition"},
    [AA_BM_OUTPOST] = {"outpost", "Outpost", "Avant-poste", 0, 1,
                       "the gainer recruits a Sentinel from its hand"},
    [AA_BM_SMOKE_SCREEN] = {"smoke-screen", "Smoke Screen", "Écran de fumée", 0,
                            0,
                            "the owner recruits the top card of the agent "
                            "deck"},
    [AA_BM_MIND_CONTROL] = {"mind-control", "Mind Control",
                            "Manipulation de l'esprit", 0, 1,
                            "one agent the opponent has in play goes into "
                            "the gainer's hand"},
    [AA_BM_DOUBLE_TROUBLE] = {"double-trouble", "Double Trouble", "Coup double",
                              0, 1,
                              "the gainer shows 2 agents of one name from "
                              "its hand, recruits one, keeps the other"},
    [AA_BM_SURVEILLANCE_TRUCK] = {"surveillance-truck", "Surveillance Truck",
                                  "Véhicule de surveillance", 0, 0,
                                  "the owner's meeple moves 1 forward"},
    [AA_BM_SECRET_RECRUIT] = {"secret-recruit", "Secret Recruit",
                              "Recrue secrète", 0, 1,
                              "the gainer recruits from its hand an agent "
                              "of a name the owner has none of in play"},
    [AA_BM_SPYCATION] = {"spycation", "Spycation", "Petit repos", 0, 1,
                         "one of the owner's agents in play goes back to "
                         "the gainer's hand; the gainer may recruit it "
                         "again at once"},
};

static const char *const reason_words[] = {
    [AA_REASON_NONE] = "",
    [AA_REASON_CATCH] = "catch",
    [AA_REASON_CODEBREAKERS] = "codebreakers",
    [AA_REASON_DAREDEVILS] = "daredevils",
    [AA_REASON_TIE] = "tie",
    [AA_REASON_OUT_OF_CARDS] = "out_of_cards",
    [AA_REASON_LEADER] = "leader_of_the_pack",
    [AA_REASON_MASTERPLAN] = "masterplan",
    [AA_REASON_SECURITY] = "security_system",
};

#define RULE_SETUP   "§2"
#define RULE_CUSTOM  "§7.1"
#define RULE_DISCARD "§4 Step 1.1"
#define RULE_PLAY    "§4 Step 1.2"
#define RULE_TEAM    "§9.4"
#define RULE_RECRUIT "§4 Step 2.1"
#define RULE_TAKE    "§8.5"
#define RULE_RESOLVE "§8.6"

/* rules §1: the id of a card value, safe for out-of-range values. */
static const char *card_id(unsigned card)
{
	return card < AA_KINDS ? aa_card_info[card].id : "unknown card";
}

/* rules §8.2: the id of a black-market card, safe for any value. */
static const char *bm_id(unsigned bm)
{
	return bm < AA_BM_KINDS ? aa_bm_info[bm].id : "unknown card";
}

/* rules §9.1: team(s) = s mod 2. */
int aa_team_of(int seat)
{
	return seat & 1;
}

/* rules §9.1: 4 seats: two teams of two; 3 seats: team 0 of two and the
 * solo seat 1; 2 seats: one seat each. */
static int two_seat(unsigned seats, int team)
{
	return seats == 4 || (seats == 3 && team == 0);
}

int aa_two_seat(const struct aa_state *s, int team)
{
	return two_seat(s->seats, team);
}

/* rules §9.1: the teammate of a seat of a two-seat team. */
static int partner(const struct aa_state *s, int seat)
{
	return seat + 2 < s->seats ? seat + 2 : seat - 2;
}

/* rules §9.6: 2 for a seat of a two-seat team, else 4. */
static int discard_limit(unsigned seats, int seat)
{
	return two_seat(seats, aa_team_of(seat)) ? AA_TEAM_DISCARDS
	                                         : AA_MAX_DISCARDS;
}

int aa_discard_limit(const struct aa_state *s, int seat)
{
	return discard_limit(s->seats, seat);
}

/* rules §3: lead = progress[mine] - progress[the other team's]. */
static int32_t lead(const struct aa_state *s, int team)
{
	return s->teams[team].progress - s->teams[1 - team].progress;
}

/* rules §3: (home + progress) mod 14, home 0 or 7. */
int aa_space(const struct aa_state *s, int team)
{
	int32_t home = team * AA_HOME_GAP;
	int32_t m = (home + s->teams[team].progress) % AA_LOOP;
	return (int)(m < 0 ? m + AA_LOOP : m);
}

/* rules §3: distance to catching = 7 - lead. */
int32_t aa_distance_to_catch(const struct aa_state *s, int team)
{
	return AA_CATCH_LEAD - lead(s, team);
}

/* rules §1: names in JSON are the ids of aa_card_info. */
int aa_card_by_id(const char *id)
{
	for (int k = 0; k < AA_KINDS; k++)
		if (strcmp(id, aa_card_info[k].id) == 0)
			return k;
	return -1;
}

/* rules §8.2: the ids of aa_bm_info. */
int aa_bm_by_id(const char *id)
{
	for (int b = 0; b < AA_BM_KINDS; b++)
		if (strcmp(id, aa_bm_info[b].id) == 0)
			return b;
	return -1;
}

/* rules §4 Step 3, §8.8: how the game ended, as a stable word. */
const char *aa_reason_word(enum aa_reason reason)
{
	return (unsigned)reason <= AA_REASON_SECURITY ? reason_words[reason]
	                                              : "";
}

/* rules §8.1.3: team holds ongoing card b in its row. */
static int holds(const struct aa_state *s, int team, unsigned b)
{
	return (s->teams[team].row >> b) & 1u;
}

/* ---- hands and the deck ---- */

/* rules §4 Step 1.2: count[k] = cards named k in p's hand (which names
 * may be played depends on these counts). */
static void hand_counts(const struct aa_player *p, uint8_t count[AA_KINDS])
{
	memset(count, 0, AA_KINDS);
	for (unsigned i = 0; i < p->hand_size; i++)
		count[p->hand[i]]++;
}

/* rules §4 Step 1.1–1.2: a card leaves the hand (discarded or played).
 * Removes the first card named `card`, keeping the order of the others.
 * The card must be there. */
static void hand_remove(struct aa_player *p, uint8_t card)
{
	unsigned i = 0;
	while (p->hand[i] != card)
		i++;
	memmove(&p->hand[i], &p->hand[i + 1], p->hand_size - i - 1u);
	p->hand[--p->hand_size] = 0;
}

/* rules §4 Step 1.1 and 1.3: draw the top card of the agent deck to the
 * end of p's hand.  The deck must not be empty (it is never reshuffled). */
static void draw(struct aa_state *s, struct aa_player *p)
{
	struct aa_last *l = &s->last;
	size_t seat = (size_t)(p - s->players);
	p->hand[p->hand_size++] = s->deck[--s->deck_size];
	if (l->drawn_n[seat] < AA_LAST_MAX)
		l->drawn[seat][l->drawn_n[seat]++] = s->deck[s->deck_size];
	s->deck[s->deck_size] = 0;
}

/* rules §4 Step 1.3, §8.6, R13: draw back up to 4, as far as the deck
 * goes (a hand above 4 draws nothing). */
static void refill(struct aa_state *s, struct aa_player *p)
{
	while (p->hand_size < AA_HAND_REFILL && s->deck_size > 0)
		draw(s, p);
}

/* rules §9.8: a team can play when each of its seats can give its
 * card(s): both teammates hold a card, a seat alone holds 2 (R10). */
static int can_play(const struct aa_state *s, int team)
{
	if (!aa_two_seat(s, team))
		return s->players[team].hand_size >= 2;
	return s->players[team].hand_size >= 1 &&
	       s->players[team + 2].hand_size >= 1;
}

/* ---- the End step's conditions (§4 Step 3, §8.8) ---- */

/* rules §8.8 D: names with a count of 1 or more in team's play. */
static int names_in_play(const struct aa_state *s, int team)
{
	int n = 0;
	for (int k = 0; k < AA_KINDS; k++)
		n += s->teams[team].in_play[k] > 0;
	return n;
}

/* rules §4 Step 3 A–C and §8.8 A–E: why `team` is in W, or NONE. */
static enum aa_reason win_reason(const struct aa_state *s, int team)
{
	int o = 1 - team;
	const struct aa_team *t = &s->teams[team], *ot = &s->teams[o];
	if (lead(s, team) >= AA_CATCH_LEAD)
		return AA_REASON_CATCH;
	if (t->in_play[AA_CODEBREAKER] >= AA_WIN_COUNT)
		return AA_REASON_CODEBREAKERS;
	if (t->in_play[AA_DAREDEVIL] >= AA_WIN_COUNT &&
	    holds(s, team, AA_BM_LEADER_OF_THE_PACK))
		return AA_REASON_LEADER;
	if (ot->in_play[AA_DAREDEVIL] >= AA_WIN_COUNT &&
	    !holds(s, o, AA_BM_LEADER_OF_THE_PACK))
		return AA_REASON_DAREDEVILS;
	if (holds(s, team, AA_BM_MASTERPLAN) &&
	    names_in_play(s, team) >= AA_MASTERPLAN_NAMES)
		return AA_REASON_MASTERPLAN;
	if (holds(s, team, AA_BM_SECURITY_SYSTEM) &&
	    aa_space(s, o) == team * AA_HOME_GAP)
		return AA_REASON_SECURITY;
	return AA_REASON_NONE;
}

/* ---- setup (§2, §7.1, §8.1, §9.2) ---- */

/* rules §7.1: nothing fixed; everything dealt; 2 seats, mode base. */
void aa_custom_init(struct aa_custom *c)
{
	memset(c, 0, sizeof *c);
	c->seats = AA_SEATS;
}

/* rules §3, §7.1, §9.6: the scalar fields of a custom setup are
 * possible. */
static int check_scalars(const struct aa_custom *c, struct rules_why *why)
{
	if (c->seats < AA_SEATS || c->seats > AA_SEATS_MAX)
		return rules_fail(why, BD_EBADSETUP, "§7",
		                  "Agent Avenue is played by 2, 3 or 4 seats");
	if (c->has_first_player &&
	    (c->first_player < 0 || c->first_player >= c->seats))
		return rules_fail(why, BD_EBADSETUP, RULE_CUSTOM,
		                  "first_player must be a seat from 0 to %d, "
		                  "not %d",
		                  c->seats - 1, (int)c->first_player);
	for (int p = 0; p < c->seats; p++) {
		int32_t d = c->discards_used[p];
		int limit = discard_limit(c->seats, p);
		if (d < 0 || d > limit)
			return rules_fail(
			    why, BD_EBADSETUP,
			    c->seats > 2 ? "§9.6" : RULE_DISCARD,
			    "discards_used[%d] is %d, but that seat "
			    "discards 0 to %d times per game",
			    p, (int)d, limit);
	}
	for (int t = 0; t < AA_TEAMS; t++) {
		int32_t g = c->progress[t];
		if (g < -AA_PROGRESS_LIMIT || g > AA_PROGRESS_LIMIT)
			return rules_fail(
			    why, BD_EBADSETUP, "§3",
			    "progress[%d] must be between -%d and %d", t,
			    AA_PROGRESS_LIMIT, AA_PROGRESS_LIMIT);
	}
	int32_t gap = c->progress[0] - c->progress[1];
	if (gap <= -AA_CATCH_LEAD || gap >= AA_CATCH_LEAD)
		return rules_fail(
		    why, BD_EBADSETUP, "§3",
		    "a lead of %d means a meeple is already caught; "
		    "the lead must stay below 7",
		    (int)(gap < 0 ? -gap : gap));
	return 0;
}

/* rules §4 Step 3: recruited counts are possible and decide nothing yet. */
static int check_in_play(const struct aa_custom *c, struct rules_why *why)
{
	static const uint8_t deciding[] = {AA_CODEBREAKER, AA_DAREDEVIL};
	for (int p = 0; p < AA_TEAMS; p++) {
		for (int k = 0; k < AA_KINDS; k++)
			if (c->in_play[p][k] < 0)
				return rules_fail(
				    why, BD_EBADSETUP, "§4 Step 2.3",
				    "%s %d cannot have a negative "
				    "number of %s cards in play",
				    c->seats > 2 ? "team" : "seat", p,
				    card_id((unsigned)k));
		for (unsigned i = 0; i < sizeof deciding; i++)
			if (c->in_play[p][deciding[i]] >= AA_WIN_COUNT)
				return rules_fail(
				    why, BD_EBADSETUP, "§4 Step 3",
				    "%s %d already has %d %s cards in "
				    "play, so the game would already "
				    "be over",
				    c->seats > 2 ? "team" : "seat", p,
				    (int)c->in_play[p][deciding[i]],
				    card_id(deciding[i]));
	}
	return 0;
}

/* rules §1: a card list fits its array and names real cards (the JSON
 * edge checks this too; the pure API does not trust its caller). */
static int check_list(const char *what, const uint8_t *cards, unsigned n,
                      unsigned max, struct rules_why *why)
{
	if (n > max)
		return rules_fail(why, BD_EBADSETUP, "§1",
		                  "%s names %u cards but the game has %d", what,
		                  n, AA_CARDS);
	for (unsigned i = 0; i < n; i++)
		if (cards[i] >= AA_KINDS)
			return rules_fail(why, BD_EBADSETUP, "§1",
			                  "%s holds an unknown card", what);
	return 0;
}

/* rules §1: the custom hands and deck are well-formed card lists. */
static int check_lists(const struct aa_custom *c, struct rules_why *why)
{
	static const char *const names[] = {"hands[0]", "hands[1]", "hands[2]",
	                                    "hands[3]"};
	int rc = 0;
	if (c->has_hands)
		for (int p = 0; p < c->seats && !rc; p++)
			rc = check_list(names[p], c->hands[p], c->hand_size[p],
			                AA_HAND_MAX, why);
	if (c->has_deck && !rc)
		rc = check_list("deck", c->deck, c->deck_size, AA_CARDS, why);
	return rc;
}

/* rules §1: named[k] += copies of k in cards[0..n). */
static void count_cards(int64_t named[AA_KINDS], const uint8_t *cards,
                        unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		named[cards[i]]++;
}

/* rules §1: no name appears more often than the inventory has it; then
 * pool[] = the cards left over, in enum order. */
static int build_pool(const struct aa_custom *c, uint8_t pool[AA_CARDS],
                      unsigned *pool_size, struct rules_why *why)
{
	int64_t named[AA_KINDS] = {0};
	for (int p = 0; p < c->seats; p++)
		if (c->has_hands)
			count_cards(named, c->hands[p], c->hand_size[p]);
	for (int t = 0; t < AA_TEAMS; t++)
		for (int k = 0; k < AA_KINDS; k++)
			named[k] += c->in_play[t][k];
	if (c->has_deck)
		count_cards(named, c->deck, c->deck_size);
	unsigned n = 0;
	for (int k = 0; k < AA_KINDS; k++) {
		if (named[k] > aa_card_info[k].copies)
			return rules_fail(
			    why, BD_EBADSETUP, "§1",
			    "%lld %s cards named but the game has %d",
			    (long long)named[k], aa_card_info[k].id,
			    aa_card_info[k].copies);
		for (int64_t i = named[k]; i < aa_card_info[k].copies; i++)
			pool[n++] = (uint8_t)k;
	}
	*pool_size = n;
	return 0;
}

/* rules §2, §9.2: hands and deck, named or dealt from the (shuffled)
 * pool, 4 per seat in seat order. */
static int deal(struct aa_state *s, const struct aa_custom *c, uint8_t *pool,
                unsigned n, struct rng *rng, struct rules_why *why)
{
	unsigned next = 0;
	if (!c->has_hands || !c->has_deck)
		rng_shuffle_u8(rng, pool, n);
	for (int p = 0; p < c->seats; p++) {
		struct aa_player *pl = &s->players[p];
		if (c->has_hands) {
			pl->hand_size = c->hand_size[p];
			memcpy(pl->hand, c->hands[p], pl->hand_size);
			continue;
		}
		if (n < (unsigned)c->seats * AA_HAND_REFILL)
			return rules_fail(
			    why, BD_EBADSETUP, RULE_SETUP,
			    "only %u cards are left to deal, but the "
			    "hands need %d",
			    n, c->seats * AA_HAND_REFILL);
		pl->hand_size = AA_HAND_REFILL;
		memcpy(pl->hand, pool + next, AA_HAND_REFILL);
		next += AA_HAND_REFILL;
	}
	if (!c->has_deck) {
		s->deck_size = (uint8_t)(n - next);
		memcpy(s->deck, pool + next, s->deck_size);
		return 0;
	}
	/* The setup lists the top card first; the state keeps it last. */
	s->deck_size = c->deck_size;
	for (unsigned i = 0; i < c->deck_size; i++)
		s->deck[c->deck_size - 1 - i] = c->deck[i];
	return 0;
}

/* rules §7.1: the bm_ keys name real cards, each once, ongoing ones in
 * play and instant ones discarded, at most 3 in the supply; then
 * pool[] = the black-market cards named nowhere, in enum order. */
static int check_bm(const struct aa_custom *c, uint8_t pool[AA_BM_KINDS],
                    unsigned *pool_size, struct rules_why *why)
{
	if (c->bm_named && c->mode != AA_MODE_ADVANCED)
		return rules_fail(why, BD_EBADSETUP, "§7.1",
		                  "the bm_ keys need the option "
		                  "{\"mode\":\"advanced\"}");
	if (c->has_bm_supply && c->bm_supply_size > AA_SUPPLY)
		return rules_fail(why, BD_EBADSETUP, "§8.1",
		                  "bm_supply holds %u cards; the supply has "
		                  "at most 3",
		                  c->bm_supply_size);
	uint8_t named[AA_BM_KINDS] = {0};
	const struct {
		const uint8_t *cards;
		unsigned n;
	} lists[] = {
	    {c->bm_supply, c->bm_supply_size},
	    {c->bm_deck, c->bm_deck_size},
	    {c->bm_in_play[0], c->bm_in_play_size[0]},
	    {c->bm_in_play[1], c->bm_in_play_size[1]},
	    {c->bm_discard, c->bm_discard_size},
	};
	for (unsigned l = 0; l < sizeof lists / sizeof lists[0]; l++)
		for (unsigned i = 0; i < lists[l].n; i++) {
			unsigned b = lists[l].cards[i];
			if (b >= AA_BM_KINDS)
				return rules_fail(why, BD_EBADSETUP, "§8.2",
				                  "an unknown black-market "
				                  "card is named");
			if (named[b]++)
				return rules_fail(why, BD_EBADSETUP, "§8.1",
				                  "%s is named twice; each "
				                  "black-market card exists "
				                  "once",
				                  bm_id(b));
			if ((l == 2 || l == 3) && !aa_bm_info[b].ongoing)
				return rules_fail(why, BD_EBADSETUP, "§8.1",
				                  "%s is an instant card; it "
				                  "cannot stay in play",
				                  bm_id(b));
			if (l == 4 && aa_bm_info[b].ongoing)
				return rules_fail(why, BD_EBADSETUP, "§8.1",
				                  "%s is an ongoing card; it "
				                  "is never discarded",
				                  bm_id(b));
		}
	unsigned n = 0;
	for (unsigned b = 0; b < AA_BM_KINDS; b++)
		if (!named[b])
			pool[n++] = (uint8_t)b;
	*pool_size = n;
	return 0;
}

/* rules §8.1: the supply and the black-market deck, named or dealt from
 * the (shuffled) pool; rows and the discard pile as named. */
static int deal_bm(struct aa_state *s, const struct aa_custom *c, uint8_t *pool,
                   unsigned n, struct rng *rng, struct rules_why *why)
{
	unsigned next = 0;
	if (c->mode != AA_MODE_ADVANCED)
		return 0;
	if (!c->has_bm_supply || !c->has_bm_deck)
		rng_shuffle_u8(rng, pool, n);
	if (c->has_bm_supply) {
		s->supply_size = c->bm_supply_size;
		memcpy(s->supply, c->bm_supply, s->supply_size);
	} else {
		s->supply_size = (uint8_t)(n < AA_SUPPLY ? n : AA_SUPPLY);
		memcpy(s->supply, pool, s->supply_size);
		next = s->supply_size;
	}
	if (c->has_bm_deck) {
		s->bm_deck_size = c->bm_deck_size;
		for (unsigned i = 0; i < c->bm_deck_size; i++)
			s->bm_deck[c->bm_deck_size - 1 - i] = c->bm_deck[i];
	} else {
		s->bm_deck_size = (uint8_t)(n - next);
		memcpy(s->bm_deck, pool + next, s->bm_deck_size);
	}
	if (s->supply_size < AA_SUPPLY && s->bm_deck_size > 0)
		return rules_fail(why, BD_EBADSETUP, "§8.5",
		                  "the supply holds %u cards while the "
		                  "black-market deck is not empty; it is "
		                  "refilled to 3 at once",
		                  s->supply_size);
	for (int t = 0; t < AA_TEAMS; t++)
		for (unsigned i = 0; i < c->bm_in_play_size[t]; i++)
			s->teams[t].row |=
			    (uint16_t)(1u << c->bm_in_play[t][i]);
	s->bm_discard_size = c->bm_discard_size;
	memcpy(s->bm_discard, c->bm_discard, c->bm_discard_size);
	return 0;
}

/* rules §4 Step 1.2, §9.8, R28: both teams can play their first turn.
 * 2 seats: the first player needs 2 cards now; the second player's hand
 * only changes on their own turn, so with fewer than 2 cards they are
 * stuck unless the deck is empty once the first player drew back up to 4
 * (then running out of cards ends the game first).  3–4 seats: the first
 * team can play, and so can the other unless the agent deck is empty. */
static int check_playable(const struct aa_state *s, struct rules_why *why)
{
	int ft = aa_team_of(s->active);
	if (s->seats > 2) {
		if (!can_play(s, ft))
			return rules_fail(why, BD_EBADSETUP, "§9.8",
			                  "team %d plays first but a seat of "
			                  "it cannot give its card(s)",
			                  ft);
		if (s->deck_size > 0 && !can_play(s, 1 - ft))
			return rules_fail(why, BD_EBADSETUP, "§9.8",
			                  "team %d could not play its first "
			                  "turn and the agent deck is not "
			                  "empty",
			                  1 - ft);
		return 0;
	}
	const struct aa_player *a = &s->players[s->active];
	const struct aa_player *n = &s->players[1 - s->active];
	if (a->hand_size < 2)
		return rules_fail(
		    why, BD_EBADSETUP, RULE_PLAY,
		    "the first player (seat %d) holds %u card(s) but "
		    "must play 2",
		    s->active, a->hand_size);
	int need = AA_HAND_REFILL + 2 - a->hand_size;
	if (n->hand_size < 2 && s->deck_size > (need > 0 ? need : 0))
		return rules_fail(
		    why, BD_EBADSETUP, RULE_PLAY,
		    "seat %d holds %u card(s) and could not play 2 "
		    "on turn 2, because the deck would not be empty "
		    "yet",
		    1 - s->active, n->hand_size);
	return 0;
}

/* rules §8.8, R28: no End-step condition may hold at creation (the
 * Codebreaker, Daredevil and catch checks came first, with their own
 * words; this one adds Masterplan and Security System). */
static int check_undecided(const struct aa_state *s, struct rules_why *why)
{
	for (int t = 0; t < AA_TEAMS; t++) {
		enum aa_reason r = win_reason(s, t);
		if (r)
			return rules_fail(why, BD_EBADSETUP, "§8.8",
			                  "the End step would already decide "
			                  "the game: %s %d meets the %s "
			                  "condition",
			                  s->seats > 2 ? "team" : "seat", t,
			                  aa_reason_word(r));
	}
	return 0;
}

/* rules §3, §4 Step 1.1, §4 Step 2.3: the custom setup's running totals,
 * discards used (faces unknown) and recruited agents. */
static void place_in_play(struct aa_state *s, const struct aa_custom *c)
{
	for (int p = 0; p < c->seats; p++)
		s->players[p].discards = (uint8_t)c->discards_used[p];
	for (int t = 0; t < AA_TEAMS; t++) {
		s->teams[t].progress = c->progress[t];
		for (int k = 0; k < AA_KINDS; k++)
			s->teams[t].in_play[k] = (uint8_t)c->in_play[t][k];
	}
}

/* rules §9.3: the first team's lead is first_player; the other team's
 * lead is its first seat met going first_player+1, +2, … */
static void place_leads(struct aa_state *s)
{
	int fp = s->first_player, ft = aa_team_of(fp);
	s->teams[ft].lead = (uint8_t)fp;
	for (int i = 1; i < s->seats; i++) {
		int seat = (fp + i) % s->seats;
		if (aa_team_of(seat) != ft) {
			s->teams[1 - ft].lead = (uint8_t)seat;
			break;
		}
	}
}

/* rules §2, §7.1, §8.1, §9.2 with the creator's choices: check, pool,
 * deal, first player, the black market, then check the game is neither
 * decided nor stuck. */
int aa_setup_custom(struct aa_state *out, const struct aa_custom *c,
                    struct rng *rng, struct rules_why *why)
{
	uint8_t pool[AA_CARDS], bm_pool[AA_BM_KINDS];
	unsigned n = 0, bm_n = 0;
	int rc = check_scalars(c, why);
	if (!rc)
		rc = check_lists(c, why);
	if (!rc)
		rc = check_in_play(c, why);
	if (!rc)
		rc = check_bm(c, bm_pool, &bm_n, why);
	if (!rc)
		rc = build_pool(c, pool, &n, why);
	struct aa_state s;
	memset(&s, 0, sizeof s);
	s.seats = c->seats;
	s.mode = c->mode;
	if (!rc)
		rc = deal(&s, c, pool, n, rng, why);
	if (rc)
		return rc;
	place_in_play(&s, c);
	s.first_player =
	    (uint8_t)(c->has_first_player ? (uint32_t)c->first_player
	                                  : rng_below(rng, c->seats));
	s.active = s.first_player;
	place_leads(&s);
	s.phase = AA_PHASE_PLAY;
	s.turn = 1;
	s.custom = 1;
	rc = deal_bm(&s, c, bm_pool, bm_n, rng, why);
	if (!rc)
		rc = check_undecided(&s, why);
	if (!rc)
		rc = check_playable(&s, why);
	if (!rc)
		memcpy(out, &s, sizeof s);
	return rc;
}

/* rules §2, §8.1, §9.2: the normal deal is a custom setup that fixes
 * nothing. */
void aa_setup_default(struct aa_state *s, int seats, enum aa_mode mode,
                      struct rng *rng)
{
	struct aa_custom c;
	aa_custom_init(&c);
	c.seats = (uint8_t)seats;
	c.mode = (uint8_t)mode;
	aa_setup_custom(s, &c, rng, NULL); /* cannot fail: 38 in the pool */
	s->custom = 0;
}

/* ---- whose turn, and what they may do ---- */

/* rules §4 Step 1, §9.4: the seat to act in the Play step: the active
 * player; in a two-seat team the face-up player (the lead, or its
 * partner after hand_over), then the face-down player. */
static int play_actor(const struct aa_state *s)
{
	int a = s->active;
	if (!aa_two_seat(s, aa_team_of(a)))
		return a;
	int up = s->handed_over ? partner(s, a) : a;
	return (s->played_mask & 1) ? partner(s, up) : up;
}

/* rules §7.2, §9.3, §8.7: exactly one seat acts: the player, the other
 * team's voice, the taking team's voice, or the gainer. */
int aa_actor(const struct aa_state *s)
{
	switch (s->phase) {
	case AA_PHASE_PLAY:
		return play_actor(s);
	case AA_PHASE_RECRUIT:
		return s->teams[1 - aa_team_of(s->active)].lead;
	case AA_PHASE_TAKE:
		return s->teams[s->bm_team].lead;
	case AA_PHASE_RESOLVE:
		return s->pending_seat;
	default:
		return -1;
	}
}

unsigned aa_to_act(const struct aa_state *s)
{
	int a = aa_actor(s);
	return a < 0 ? 0 : 1u << a;
}

/* rules §7.2: seat is a real seat and may act now. */
static int may_act(const struct aa_state *s, int seat)
{
	return seat >= 0 && seat < s->seats && aa_actor(s) == seat;
}

/* rules §4 Step 1.1, §9.6: discard-to-draw needs cards in the deck and a
 * discard left. */
static int may_discard(const struct aa_state *s, int seat)
{
	return s->deck_size > 0 &&
	       s->players[seat].discards < aa_discard_limit(s, seat);
}

/* rules §4 Step 1.2: 2 cards of different names, or two identical ones
 * when every card in hand has that name. */
static int play_ok(const uint8_t count[AA_KINDS], unsigned hand_size,
                   unsigned up, unsigned down)
{
	if (up >= AA_KINDS || down >= AA_KINDS)
		return 0;
	if (up == down)
		return count[up] == hand_size && hand_size >= 2;
	return count[up] > 0 && count[down] > 0;
}

/* rules §9.4.3: the face-down card differs from the face-up card X unless
 * every card in the hand is X. */
static int down_ok(const uint8_t count[AA_KINDS], unsigned hand_size,
                   unsigned up, unsigned down)
{
	if (down >= AA_KINDS || count[down] == 0)
		return 0;
	return down != up || count[up] == hand_size;
}

/* A listed discard or play, built whole: the engine's edge copies each
 * listed action at once, and bytes stored one by one would make it wait
 * (a store-forwarding stall, most of a playout's time before). */
static struct aa_action listed(unsigned type, unsigned card, unsigned face_down)
{
	uint8_t b[sizeof(struct aa_action)] = {0};
	b[offsetof(struct aa_action, type)] = (uint8_t)type;
	b[offsetof(struct aa_action, card)] = (uint8_t)card;
	b[offsetof(struct aa_action, face_down)] = (uint8_t)face_down;
	struct aa_action a;
	memcpy(&a, b, sizeof a);
	return a;
}

/* rules §4 Step 1.1–1.2, §9.4: the discards, then the plays, then
 * hand_over, of the seat to act in the Play step. */
static size_t list_play_phase(const struct aa_state *s, int seat,
                              struct aa_action *out)
{
	const struct aa_player *p = &s->players[seat];
	unsigned names = 0; /* bit k: a card named k in hand */
	size_t n = 0;
	for (unsigned i = 0; i < p->hand_size; i++)
		names |= 1u << p->hand[i];
	if (may_discard(s, seat))
		for (unsigned k = names; k; k &= k - 1)
			out[n++] = listed(AA_ACT_DISCARD,
			                  (unsigned)__builtin_ctz(k), 0);
	/* play_ok / down_ok in name order: distinct names, or the identical
	 * pair when the hand holds 2 or more cards of one name only */
	int one_name = (names & (names - 1)) == 0;
	if (!aa_two_seat(s, aa_team_of(seat))) {
		for (unsigned u = names; u; u &= u - 1)
			for (unsigned d = names; d; d &= d - 1) {
				unsigned up = (unsigned)__builtin_ctz(u);
				unsigned down = (unsigned)__builtin_ctz(d);
				if (up != down ||
				    (one_name && p->hand_size >= 2))
					out[n++] =
					    listed(AA_ACT_PLAY, up, down);
			}
		return n;
	}
	for (unsigned k = names; k; k &= k - 1) {
		unsigned c = (unsigned)__builtin_ctz(k);
		if (!(s->played_mask & 1))
			out[n++] = listed(AA_ACT_PLAY_UP, c, 0);
		else if (c != s->played[0] || one_name)
			out[n++] = listed(AA_ACT_PLAY_DOWN, 0, c);
	}
	if (!s->played_mask && !s->handed_over && seat == s->active)
		out[n++] = (struct aa_action){.type = AA_ACT_HAND_OVER};
	return n;
}

/* rules §8.5, §9.7: one take per supply card; for a card that uses a
 * hand, taken by a two-seat team, one per teammate (ascending). */
static size_t list_takes(const struct aa_state *s, struct aa_action *out)
{
	int t = s->bm_team;
	size_t n = 0;
	for (unsigned i = 0; i < s->supply_size; i++) {
		uint8_t b = s->supply[i];
		if (!aa_bm_info[b].uses_hand || !aa_two_seat(s, t)) {
			out[n++] =
			    (struct aa_action){.type = AA_ACT_TAKE, .bm = b};
			continue;
		}
		for (int m = t; m < s->seats; m += 2)
			out[n++] =
			    (struct aa_action){.type = AA_ACT_TAKE,
			                       .bm = b,
			                       .member = (uint8_t)(m + 1)};
	}
	return n;
}

/* rules §8.6: 1 if agent k is a choice of instant card b for gainer
 * `seat` of team t (the table's "decision" column). */
static int decision_ok(const struct aa_state *s, unsigned b, int seat,
                       unsigned k)
{
	int t = aa_team_of(seat);
	uint8_t count[AA_KINDS];
	if (k >= AA_KINDS)
		return 0;
	hand_counts(&s->players[seat], count);
	switch (b) {
	case AA_BM_MIND_CONTROL:
		return s->teams[1 - t].in_play[k] > 0;
	case AA_BM_DOUBLE_TROUBLE:
		return count[k] >= 2;
	case AA_BM_SECRET_RECRUIT:
		return count[k] > 0 && s->teams[t].in_play[k] == 0;
	case AA_BM_SPYCATION:
		return s->teams[t].in_play[k] > 0;
	default:
		return 0;
	}
}

/* rules §8.6: the action type that decides instant card b. */
static int decision_type(unsigned b)
{
	switch (b) {
	case AA_BM_MIND_CONTROL:
		return AA_ACT_MIND_CONTROL;
	case AA_BM_DOUBLE_TROUBLE:
		return AA_ACT_DOUBLE_TROUBLE;
	case AA_BM_SECRET_RECRUIT:
		return AA_ACT_SECRET_RECRUIT;
	case AA_BM_SPYCATION:
		return AA_ACT_SPYCATION;
	default:
		return -1;
	}
}

/* rules §8.6: the decisions of the pending instant card, in enum order
 * (Spycation: false before true). */
static size_t list_decisions(const struct aa_state *s, unsigned b, int seat,
                             struct aa_action *out)
{
	size_t n = 0;
	int type = decision_type(b);
	for (uint8_t k = 0; k < AA_KINDS && type >= 0; k++) {
		if (!decision_ok(s, b, seat, k))
			continue;
		out[n++] = (struct aa_action){.type = (uint8_t)type, .card = k};
		if (type == AA_ACT_SPYCATION)
			out[n++] = (struct aa_action){
			    .type = (uint8_t)type, .card = k, .again = 1};
	}
	return n;
}

/* rules §4 Steps 1–2, §8.5–§8.6, §9.4–§9.7: every action `seat` may take
 * now. */
size_t aa_legal(const struct aa_state *s, int seat,
                struct aa_action out[AA_MAX_ACTIONS])
{
	if (!may_act(s, seat))
		return 0;
	switch (s->phase) {
	case AA_PHASE_PLAY:
		return list_play_phase(s, seat, out);
	case AA_PHASE_RECRUIT:
		out[0] = (struct aa_action){.type = AA_ACT_RECRUIT,
		                            .pick = AA_PICK_FACE_UP};
		out[1] = (struct aa_action){.type = AA_ACT_RECRUIT,
		                            .pick = AA_PICK_FACE_DOWN};
		return 2;
	case AA_PHASE_TAKE:
		return list_takes(s, out);
	default:
		return list_decisions(s, s->pending_card, seat, out);
	}
}

/* ---- Step 1: play ---- */

/* rules §4 Step 1.1, §9.6: discard-to-draw, within the seat's limit, only
 * by the seat to act before its own card(s), only with cards in the
 * deck. */
static int apply_discard(struct aa_state *s, int seat, unsigned card,
                         struct rules_why *why)
{
	struct aa_player *p = &s->players[seat];
	uint8_t count[AA_KINDS];
	int limit = aa_discard_limit(s, seat);
	hand_counts(p, count);
	if (s->phase != AA_PHASE_PLAY)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_DISCARD,
		    "you may discard only on your own turn, before "
		    "playing");
	if (s->deck_size == 0)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_DISCARD,
		    "you may not discard: the agent deck is empty");
	if (p->discards >= limit)
		return rules_fail(
		    why, BD_EILLEGAL, s->seats > 2 ? "§9.6" : RULE_DISCARD,
		    "you have already discarded %d times, the "
		    "most %s may in a game",
		    limit,
		    limit == AA_MAX_DISCARDS ? "a player"
		                             : "a seat of a two-seat team");
	if (card >= AA_KINDS || count[card] == 0)
		return rules_fail(why, BD_EILLEGAL, RULE_DISCARD,
		                  "you hold no %s card", card_id(card));
	hand_remove(p, (uint8_t)card);
	p->discarded[p->discarded_size++] = (uint8_t)card;
	p->discards++;
	draw(s, p);
	return 0;
}

/* rules §4 Step 1.2: why play_ok refused (up, down). */
static int explain_play(const uint8_t count[AA_KINDS], unsigned up,
                        unsigned down, struct rules_why *why)
{
	if (up < AA_KINDS && down < AA_KINDS && up == down && count[up] > 0)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_PLAY,
		    "the face-up and face-down cards must have "
		    "different names unless every card in hand has "
		    "the same name");
	unsigned missing = up < AA_KINDS && count[up] ? down : up;
	return rules_fail(why, BD_EILLEGAL, RULE_PLAY, "you hold no %s card",
	                  card_id(missing));
}

/* rules §4 Step 1.2 and 1.3, §9.4 (solo seat): play 1 face up and 1 face
 * down, then draw back up to 4 (as many as the deck has). */
static int apply_play(struct aa_state *s, int seat, unsigned up, unsigned down,
                      struct rules_why *why)
{
	struct aa_player *p = &s->players[seat];
	uint8_t count[AA_KINDS];
	hand_counts(p, count);
	if (s->phase != AA_PHASE_PLAY)
		return rules_fail(why, BD_EILLEGAL, RULE_PLAY,
		                  "you may play only on your own turn, once");
	if (aa_two_seat(s, aa_team_of(seat)))
		return rules_fail(why, BD_EILLEGAL, RULE_TEAM,
		                  "a seat of a two-seat team plays one card: "
		                  "{\"type\":\"play\",\"face_up\":X} or "
		                  "{\"type\":\"play\",\"face_down\":Y}");
	if (!play_ok(count, p->hand_size, up, down))
		return explain_play(count, up, down, why);
	hand_remove(p, (uint8_t)up);
	hand_remove(p, (uint8_t)down);
	refill(s, p);
	s->played[0] = (uint8_t)up;
	s->played[1] = (uint8_t)down;
	s->played_by[0] = s->played_by[1] = (uint8_t)seat;
	s->played_mask = 3;
	s->phase = AA_PHASE_RECRUIT;
	return 0;
}

/* rules §9.4.2–3: a teammate plays its one card (face up, or face down
 * once the face-up card is down) and at once draws back up to 4. */
static int apply_team_play(struct aa_state *s, int seat, int down,
                           unsigned card, struct rules_why *why)
{
	struct aa_player *p = &s->players[seat];
	uint8_t count[AA_KINDS];
	hand_counts(p, count);
	if (s->phase == AA_PHASE_PLAY && !aa_two_seat(s, aa_team_of(seat)))
		return rules_fail(why, BD_EILLEGAL, RULE_PLAY,
		                  "a play action needs \"%s\"",
		                  down ? "face_up" : "face_down");
	if (s->phase != AA_PHASE_PLAY)
		return rules_fail(why, BD_EILLEGAL, RULE_TEAM,
		                  "only a seat of a two-seat team plays a "
		                  "single card, in its team's Play step");
	if (down != ((s->played_mask & 1) != 0))
		return rules_fail(why, BD_EILLEGAL, RULE_TEAM,
		                  down ? "the face-down card comes after the "
		                         "face-up card"
		                       : "your partner has played the face-up "
		                         "card; play yours face down");
	if (card >= AA_KINDS || count[card] == 0)
		return rules_fail(why, BD_EILLEGAL, RULE_TEAM,
		                  "you hold no %s card", card_id(card));
	if (down && !down_ok(count, p->hand_size, s->played[0], card))
		return rules_fail(why, BD_EILLEGAL, RULE_TEAM,
		                  "the face-down card must not be a %s like "
		                  "the face-up card unless every card in your "
		                  "hand is one",
		                  card_id(card));
	hand_remove(p, (uint8_t)card);
	refill(s, p);
	s->played[down] = (uint8_t)card;
	s->played_by[down] = (uint8_t)seat;
	s->played_mask |= (uint8_t)(1u << down);
	if (down)
		s->phase = AA_PHASE_RECRUIT;
	return 0;
}

/* rules §9.4.1: the lead hands the face-up role to its partner, once per
 * turn, before a card of the turn is played. */
static int apply_hand_over(struct aa_state *s, int seat, struct rules_why *why)
{
	if (s->phase != AA_PHASE_PLAY || !aa_two_seat(s, aa_team_of(seat)) ||
	    seat != s->active || s->handed_over || s->played_mask)
		return rules_fail(why, BD_EILLEGAL, RULE_TEAM,
		                  "only the lead of a two-seat team hands "
		                  "over, once, before a card of the turn is "
		                  "played");
	s->handed_over = 1;
	return 0;
}

/* ---- Step 2: recruit and move (§4 Step 2, §8.3) ---- */

/* rules §4 Step 2.4: the icon of the `count`th (>= 1) agent of this name
 * in play: 1st, 2nd, 3rd-or-later; no number = 0. */
static int icon_move(unsigned card, unsigned count)
{
	const struct aa_card_info *c = &aa_card_info[card];
	unsigned icon = (count < c->icons ? count : c->icons) - 1;
	int m = c->moves[icon];
	return m == AA_ICON_NONE ? 0 : m;
}

/* rules §8.3.2: the team's ongoing card for this agent changes v. */
static int ongoing_move(const struct aa_state *s, int team, unsigned card,
                        int v)
{
	if (card == AA_SABOTEUR && holds(s, team, AA_BM_DISTRACTION_DEVICE))
		return v < 0 ? -v : v;
	if (card == AA_ENFORCER && holds(s, team, AA_BM_WATCHTOWER))
		return v + 2;
	if (card == AA_DOUBLE_AGENT && holds(s, team, AA_BM_SINISTER_TWIN))
		return 2 * v;
	if (card == AA_CODEBREAKER && holds(s, team, AA_BM_SUPERCOMPUTER))
		return v + 3;
	return v;
}

/* rules §8.3.4–5: a movement of v != 0 spaces; Getaway Car's +3 on a home
 * space; due on a black-market space (advanced mode).  Returns the
 * spaces moved. */
static int movement(struct aa_state *s, int team, int v)
{
	struct aa_team *t = &s->teams[team];
	int32_t before = t->progress;
	t->progress += v;
	int32_t m = t->progress % AA_LOOP;
	m = m < 0 ? m + AA_LOOP : m;
	if ((m == 0 || m == AA_HOME_GAP) && holds(s, team, AA_BM_GETAWAY_CAR))
		t->progress += 3, m = (m + 3) % AA_LOOP;
	if (s->mode == AA_MODE_ADVANCED &&
	    (m == 2 || m == 5 || m == 9 || m == 12))
		t->due = 1;
	return (int)(t->progress - before);
}

/* rules §4 Step 2.2–2.4, §8.3: team puts `card` in play and its meeple
 * moves (a 0 move: nothing at all).  Returns the spaces moved. */
static int recruit(struct aa_state *s, int team, uint8_t card)
{
	struct aa_team *t = &s->teams[team];
	struct aa_last *l = &s->last;
	if (l->recruited_n < AA_LAST_MAX) {
		l->recruited_team[l->recruited_n] = (uint8_t)team;
		l->recruited[l->recruited_n++] = card;
	}
	int v =
	    ongoing_move(s, team, card, icon_move(card, ++t->in_play[card]));
	return v ? movement(s, team, v) : 0;
}

static void finish(struct aa_state *s, int winner, enum aa_reason reason)
{
	s->phase = AA_PHASE_OVER;
	s->winner = (uint8_t)winner;
	s->reason = (uint8_t)reason;
}

/* rules §4 Step 3, §8.8, §9.8: W decides (the active team wins a tie);
 * otherwise running out of cards (closer to catching wins, the active
 * team on equal distance); otherwise the lead passes to its partner and
 * the other team's lead starts the next turn. */
static void end_step(struct aa_state *s)
{
	int a = aa_team_of(s->active), n = 1 - a;
	enum aa_reason ra = win_reason(s, a), rn = win_reason(s, n);
	if (ra && rn)
		finish(s, a, AA_REASON_TIE);
	else if (ra || rn)
		finish(s, ra ? a : n, ra ? ra : rn);
	else if (s->deck_size == 0 && !can_play(s, n))
		finish(s, lead(s, a) >= 0 ? a : n, AA_REASON_OUT_OF_CARDS);
	else {
		if (aa_two_seat(s, a))
			s->teams[a].lead = (uint8_t)partner(s, s->active);
		s->active = s->teams[n].lead;
		s->phase = AA_PHASE_PLAY;
		s->handed_over = 0;
		s->turn++;
	}
}

/* rules §8.4.2, §8.6 (chains), R24, R26: after every step of the black
 * market: a due team with a non-empty supply takes (its voice acts);
 * once a team owes nothing its resolved instant cards go to the discard
 * pile, newest first; then the other team if it is due; then the End
 * step. */
static void advance(struct aa_state *s)
{
	for (;;) {
		struct aa_team *t = &s->teams[s->bm_team];
		if (t->due) {
			t->due = 0;
			if (s->supply_size) {
				s->phase = AA_PHASE_TAKE;
				return;
			}
		}
		while (s->chain_size)
			s->bm_discard[s->bm_discard_size++] =
			    s->chain[--s->chain_size];
		int other = 1 - s->bm_team;
		if (s->bm_team == aa_team_of(s->active) &&
		    s->teams[other].due) {
			s->bm_team = (uint8_t)other;
			continue;
		}
		end_step(s);
		return;
	}
}

/* rules §4 Step 2.1–2.4 and §9.5, then §8.4: the other team's voice
 * picks, the playing team gets the other card, both meeples move, the
 * black market, the End step. */
static int apply_recruit(struct aa_state *s, int seat, unsigned pick,
                         struct rules_why *why)
{
	if (s->phase != AA_PHASE_RECRUIT)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_RECRUIT,
		    "only the opponent of the active player recruits, "
		    "after the active player has played");
	if (pick > AA_PICK_FACE_DOWN)
		return rules_fail(why, BD_EILLEGAL, RULE_RECRUIT,
		                  "pick the face_up or the face_down card");
	int a = aa_team_of(s->active), o = aa_team_of(seat);
	struct aa_team *ta = &s->teams[a], *to = &s->teams[o];
	to->last_card = s->played[pick];
	ta->last_card = s->played[1 - pick];
	to->last_moved = (int8_t)recruit(s, o, to->last_card);
	ta->last_moved = (int8_t)recruit(s, a, ta->last_card);
	s->has_last = 1;
	s->last_active = s->active;
	memset(s->played, 0, sizeof s->played);
	memset(s->played_by, 0, sizeof s->played_by);
	s->played_mask = 0;
	s->bm_team = (uint8_t)a;
	advance(s);
	return 0;
}

/* ---- the black market (§8.5–§8.6, §9.7) ---- */

/* rules §8.6: 1 if instant card b can be performed by gainer `seat`
 * (cards without a choice are checked where they resolve). */
static int has_decision(const struct aa_state *s, unsigned b, int seat)
{
	for (unsigned k = 0; k < AA_KINDS; k++)
		if (decision_ok(s, b, seat, k))
			return 1;
	return 0;
}

/* rules §8.6: resolves instant card b taken by the bm team with gainer
 * `seat`: at once when it has no choice (skipped when impossible), else
 * the gainer is asked. */
static void resolve_instant(struct aa_state *s, unsigned b, int seat)
{
	int t = s->bm_team;
	struct aa_player *p = &s->players[seat];
	uint8_t count[AA_KINDS];
	hand_counts(p, count);
	switch (b) {
	case AA_BM_OUTPOST:
		if (count[AA_SENTINEL]) {
			hand_remove(p, AA_SENTINEL);
			refill(s, p);
			recruit(s, t, AA_SENTINEL);
		}
		break;
	case AA_BM_SMOKE_SCREEN:
		if (s->deck_size) {
			uint8_t c = s->deck[--s->deck_size];
			s->deck[s->deck_size] = 0;
			recruit(s, t, c);
		}
		break;
	case AA_BM_SURVEILLANCE_TRUCK:
		movement(s, t, 1);
		break;
	default:
		if (has_decision(s, b, seat)) {
			s->phase = AA_PHASE_RESOLVE;
			s->pending_card = (uint8_t)b;
			s->pending_seat = (uint8_t)seat;
			return;
		}
	}
	advance(s);
}

/* rules §8.5, §9.7: the due team's voice takes a supply card (naming the
 * gainer for a card that uses a hand in a two-seat team); the supply is
 * refilled at once; an ongoing card joins the row, an instant one is
 * resolved. */
static int apply_take(struct aa_state *s, int seat, unsigned b, unsigned member,
                      struct rules_why *why)
{
	int t = s->bm_team;
	unsigned i = 0;
	if (s->phase != AA_PHASE_TAKE)
		return rules_fail(why, BD_EILLEGAL, RULE_TAKE,
		                  "a black-market card is taken only when a "
		                  "meeple stops on a black-market space");
	while (i < s->supply_size && s->supply[i] != b)
		i++;
	if (i == s->supply_size)
		return rules_fail(why, BD_EILLEGAL, RULE_TAKE,
		                  "%s is not in the supply", bm_id(b));
	int needs = aa_bm_info[b].uses_hand && aa_two_seat(s, t);
	if (needs && (member == 0 || member > s->seats ||
	              aa_team_of((int)member - 1) != t))
		return rules_fail(why, BD_EILLEGAL, "§9.7",
		                  "%s uses a hand: name the gainer, a seat of "
		                  "your team, in \"member\"",
		                  bm_id(b));
	if (!needs && member)
		return rules_fail(why, BD_EILLEGAL, "§9.7",
		                  "%s takes no \"member\"", bm_id(b));
	memmove(&s->supply[i], &s->supply[i + 1], s->supply_size - i - 1u);
	s->supply[--s->supply_size] = 0;
	if (s->bm_deck_size) {
		s->supply[s->supply_size++] = s->bm_deck[--s->bm_deck_size];
		s->bm_deck[s->bm_deck_size] = 0;
		if (s->last.supply_n < AA_LAST_MAX)
			s->last.supply[s->last.supply_n++] =
			    s->supply[s->supply_size - 1];
	}
	if (aa_bm_info[b].ongoing) {
		s->teams[t].row |= (uint16_t)(1u << b);
		advance(s);
		return 0;
	}
	s->chain[s->chain_size++] = (uint8_t)b;
	resolve_instant(s, b, member ? (int)member - 1 : seat);
	return 0;
}

/* rules §8.6: the gainer's decision for the pending instant card. */
static int apply_decision(struct aa_state *s, int seat,
                          const struct aa_action *a, struct rules_why *why)
{
	unsigned b = s->pending_card, k = a->card;
	int t = s->bm_team;
	struct aa_player *p = &s->players[seat];
	if (s->phase != AA_PHASE_RESOLVE || decision_type(b) != a->type)
		return rules_fail(why, BD_EILLEGAL, RULE_RESOLVE,
		                  "no black-market card waits for this "
		                  "decision");
	if (!decision_ok(s, b, seat, k) || a->again > 1)
		return rules_fail(why, BD_EILLEGAL, RULE_RESOLVE,
		                  "%s cannot be chosen for %s", card_id(k),
		                  bm_id(b));
	switch (b) {
	case AA_BM_MIND_CONTROL:
		s->teams[1 - t].in_play[k]--;
		p->hand[p->hand_size++] = (uint8_t)k;
		break;
	case AA_BM_SPYCATION:
		s->teams[t].in_play[k]--;
		if (!a->again) {
			p->hand[p->hand_size++] = (uint8_t)k;
			break;
		}
		/* into the hand and straight out again: the hand is as it
		 * was (R20) */
		refill(s, p);
		recruit(s, t, (uint8_t)k);
		break;
	default: /* Double Trouble, Secret Recruit */
		hand_remove(p, (uint8_t)k);
		refill(s, p);
		recruit(s, t, (uint8_t)k);
	}
	s->pending_card = s->pending_seat = 0;
	advance(s);
	return 0;
}

/* rules §4, §8, §9: one action of any type. */
int aa_apply(struct aa_state *s, int seat, const struct aa_action *a,
             struct rules_why *why)
{
	if (seat < 0 || seat >= s->seats)
		return rules_fail(why, BD_EILLEGAL, "§1", "there is no seat %d",
		                  seat);
	if (s->phase == AA_PHASE_OVER)
		return rules_fail(why, BD_EILLEGAL, "§4 Step 3",
		                  "the game is over");
	if (!may_act(s, seat))
		return rules_fail(why, BD_EILLEGAL, "§7.2",
		                  "seat %d is not the seat to act", seat);
	memset(&s->last, 0, sizeof s->last);
	switch (a->type) {
	case AA_ACT_DISCARD:
		return apply_discard(s, seat, a->card, why);
	case AA_ACT_PLAY:
		return apply_play(s, seat, a->card, a->face_down, why);
	case AA_ACT_PLAY_UP:
		return apply_team_play(s, seat, 0, a->card, why);
	case AA_ACT_PLAY_DOWN:
		return apply_team_play(s, seat, 1, a->face_down, why);
	case AA_ACT_HAND_OVER:
		return apply_hand_over(s, seat, why);
	case AA_ACT_RECRUIT:
		return apply_recruit(s, seat, a->pick, why);
	case AA_ACT_TAKE:
		return apply_take(s, seat, a->bm, a->member, why);
	case AA_ACT_MIND_CONTROL:
	case AA_ACT_DOUBLE_TROUBLE:
	case AA_ACT_SECRET_RECRUIT:
	case AA_ACT_SPYCATION:
		return apply_decision(s, seat, a, why);
	default:
		return rules_fail(why, BD_EILLEGAL, "§7.2",
		                  "unknown action type");
	}
}

/* rules §4 Step 3, §9.8: the winning team once the game has ended. */
int aa_result(const struct aa_state *s, int *winner, enum aa_reason *reason)
{
	if (s->phase != AA_PHASE_OVER)
		return 0;
	*winner = s->winner;
	*reason = (enum aa_reason)s->reason;
	return 1;
}

/* ---- search (§5, §8.9, §9.9) ---- */

/* rules §5, §9.9: the cards hidden from `viewer` are pooled in enum order
 * (so the sample never depends on where they really were), shuffled and
 * dealt back into the same places and sizes; rules §8.9: the
 * black-market deck's order is nobody's, so it is shuffled too. */
void aa_determinize(struct aa_state *s, int viewer, struct rng *rng)
{
	if (viewer < 0 || viewer >= s->seats || s->phase == AA_PHASE_OVER)
		return;
	int hide_down = (s->played_mask & 2) && s->played_by[1] != viewer;
	uint8_t count[AA_KINDS] = {0}, pool[AA_CARDS];
	for (int p = 0; p < s->seats; p++) {
		const struct aa_player *op = &s->players[p];
		for (unsigned i = 0; p != viewer && i < op->hand_size; i++)
			count[op->hand[i]]++;
		for (unsigned i = 0; p != viewer && i < op->discarded_size; i++)
			count[op->discarded[i]]++;
	}
	for (unsigned i = 0; i < s->deck_size; i++)
		count[s->deck[i]]++;
	if (hide_down)
		count[s->played[1]]++;
	unsigned n = 0;
	for (uint8_t k = 0; k < AA_KINDS; k++)
		for (unsigned i = 0; i < count[k]; i++)
			pool[n++] = k;
	rng_shuffle_u8(rng, pool, n);
	n = 0;
	/* hands, the deck, then discards: the base game's order */
	for (int p = 0; p < s->seats; p++) {
		struct aa_player *op = &s->players[p];
		for (unsigned i = 0; p != viewer && i < op->hand_size; i++)
			op->hand[i] = pool[n++];
	}
	for (unsigned i = 0; i < s->deck_size; i++)
		s->deck[i] = pool[n++];
	for (int p = 0; p < s->seats; p++) {
		struct aa_player *op = &s->players[p];
		for (unsigned i = 0; p != viewer && i < op->discarded_size; i++)
			op->discarded[i] = pool[n++];
	}
	if (hide_down)
		s->played[1] = pool[n++];
	/* what the others drew last is theirs (§5): not in the sample */
	for (int p = 0; p < s->seats; p++)
		if (p != viewer)
			memset(s->last.drawn[p], 0, sizeof s->last.drawn[p]);
	/* the black-market deck: its cards in enum order, shuffled */
	uint8_t in_deck[AA_BM_KINDS] = {0};
	for (unsigned i = 0; i < s->bm_deck_size; i++)
		in_deck[s->bm_deck[i]] = 1;
	n = 0;
	for (uint8_t b = 0; b < AA_BM_KINDS; b++)
		if (in_deck[b])
			s->bm_deck[n++] = b;
	rng_shuffle_u8(rng, s->bm_deck, s->bm_deck_size);
}
