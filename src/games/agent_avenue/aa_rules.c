/* aa_rules.c: Agent Avenue base-mode rules, pure (see aa.h).
 *
 * No JSON, no I/O, no allocation, no globals but const tables.  Every
 * public function validates before it writes, so a refused move or setup
 * leaves its output untouched.  snprintf is used only to word refusals.
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

static const char *const reason_words[] = {
    [AA_REASON_NONE] = "",
    [AA_REASON_CATCH] = "catch",
    [AA_REASON_CODEBREAKERS] = "codebreakers",
    [AA_REASON_DAREDEVILS] = "daredevils",
    [AA_REASON_TIE] = "tie",
    [AA_REASON_OUT_OF_CARDS] = "out_of_cards",
};

#define RULE_SETUP   "§2"
#define RULE_DISCARD "§4 Step 1.1"
#define RULE_PLAY    "§4 Step 1.2"
#define RULE_RECRUIT "§4 Step 2.1"

/* rules §1: the id of a card value, safe for out-of-range values. */
static const char *card_id(unsigned card)
{
	return card < AA_KINDS ? aa_card_info[card].id : "unknown card";
}

/* rules §1: the opponent of seat in a 2-player game. */
static int other(int seat)
{
	return 1 - seat;
}

/* rules §3: lead = progress[me] - progress[opponent]. */
static int32_t lead(const struct aa_state *s, int seat)
{
	return s->players[seat].progress - s->players[other(seat)].progress;
}

/* rules §3: (home + progress) mod 14, home 0 or 7. */
int aa_space(const struct aa_state *s, int seat)
{
	int32_t home = seat * AA_HOME_GAP;
	int32_t m = (home + s->players[seat].progress) % AA_LOOP;
	return (int)(m < 0 ? m + AA_LOOP : m);
}

/* rules §3: distance to catching = 7 - lead. */
int32_t aa_distance_to_catch(const struct aa_state *s, int seat)
{
	return AA_CATCH_LEAD - lead(s, seat);
}

/* rules §1: names in JSON are the ids of aa_card_info. */
int aa_card_by_id(const char *id)
{
	for (int k = 0; k < AA_KINDS; k++)
		if (strcmp(id, aa_card_info[k].id) == 0)
			return k;
	return -1;
}

/* rules §4 Step 3: how the game ended, as a stable word. */
const char *aa_reason_word(enum aa_reason reason)
{
	return (unsigned)reason <= AA_REASON_OUT_OF_CARDS ? reason_words[reason]
	                                                  : "";
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
	p->hand[p->hand_size++] = s->deck[--s->deck_size];
	s->deck[s->deck_size] = 0;
}

/* ---- setup (§2) ---- */

/* rules §2: nothing fixed; everything dealt. */
void aa_custom_init(struct aa_custom *c)
{
	memset(c, 0, sizeof *c);
}

/* rules §2, §3, §4: the scalar fields of a custom setup are possible. */
static int check_scalars(const struct aa_custom *c, struct rules_why *why)
{
	if (c->has_first_player && (c->first_player < 0 || c->first_player > 1))
		return rules_fail(why, BD_EBADSETUP, RULE_SETUP,
		                  "first_player must be 0 or 1, not %d",
		                  (int)c->first_player);
	for (int p = 0; p < AA_SEATS; p++) {
		int32_t d = c->discards_used[p], g = c->progress[p];
		if (d < 0 || d > AA_MAX_DISCARDS)
			return rules_fail(
			    why, BD_EBADSETUP, RULE_DISCARD,
			    "discards_used[%d] is %d, but a player "
			    "discards 0 to 4 times per game",
			    p, (int)d);
		if (g < -AA_PROGRESS_LIMIT || g > AA_PROGRESS_LIMIT)
			return rules_fail(
			    why, BD_EBADSETUP, "§3",
			    "progress[%d] must be between -%d and %d", p,
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
	for (int p = 0; p < AA_SEATS; p++) {
		for (int k = 0; k < AA_KINDS; k++)
			if (c->in_play[p][k] < 0)
				return rules_fail(
				    why, BD_EBADSETUP, "§4 Step 2.3",
				    "seat %d cannot have a negative "
				    "number of %s cards in play",
				    p, card_id((unsigned)k));
		for (unsigned i = 0; i < sizeof deciding; i++)
			if (c->in_play[p][deciding[i]] >= AA_WIN_COUNT)
				return rules_fail(
				    why, BD_EBADSETUP, "§4 Step 3",
				    "seat %d already has %d %s cards in "
				    "play, so the game would already "
				    "be over",
				    p, (int)c->in_play[p][deciding[i]],
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
	int rc = 0;
	if (c->has_hands)
		for (int p = 0; p < AA_SEATS && !rc; p++)
			rc =
			    check_list(p ? "hands[1]" : "hands[0]", c->hands[p],
			               c->hand_size[p], AA_HAND_MAX, why);
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
	for (int p = 0; p < AA_SEATS; p++) {
		if (c->has_hands)
			count_cards(named, c->hands[p], c->hand_size[p]);
		for (int k = 0; k < AA_KINDS; k++)
			named[k] += c->in_play[p][k];
	}
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

/* rules §2: hands and deck, named or dealt from the (shuffled) pool. */
static int deal(struct aa_state *s, const struct aa_custom *c, uint8_t *pool,
                unsigned n, struct rng *rng, struct rules_why *why)
{
	unsigned next = 0;
	if (!c->has_hands || !c->has_deck)
		rng_shuffle_u8(rng, pool, n);
	for (int p = 0; p < AA_SEATS; p++) {
		struct aa_player *pl = &s->players[p];
		if (c->has_hands) {
			pl->hand_size = c->hand_size[p];
			memcpy(pl->hand, c->hands[p], pl->hand_size);
			continue;
		}
		if (n < AA_SEATS * AA_HAND_REFILL)
			return rules_fail(
			    why, BD_EBADSETUP, RULE_SETUP,
			    "only %u cards are left to deal, but the "
			    "two hands need 8",
			    n);
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

/* rules §4 Step 1.2: both players can play 2 cards on their first turn.
 * The first player needs 2 cards now.  The second player's hand only
 * changes on their own turn, so with fewer than 2 cards they are stuck
 * unless the deck is empty once the first player drew back up to 4
 * (then §4 Step 3 "running out of cards" ends the game first). */
static int check_playable(const struct aa_state *s, struct rules_why *why)
{
	const struct aa_player *a = &s->players[s->active];
	const struct aa_player *n = &s->players[other(s->active)];
	if (a->hand_size < 2)
		return rules_fail(
		    why, BD_EBADSETUP, RULE_PLAY,
		    "the first player (seat %d) holds %u card(s) but "
		    "must play 2",
		    s->active, a->hand_size);
	int refill = AA_HAND_REFILL + 2 - a->hand_size;
	if (n->hand_size < 2 && s->deck_size > (refill > 0 ? refill : 0))
		return rules_fail(
		    why, BD_EBADSETUP, RULE_PLAY,
		    "seat %d holds %u card(s) and could not play 2 "
		    "on turn 2, because the deck would not be empty "
		    "yet",
		    other(s->active), n->hand_size);
	return 0;
}

/* rules §3, §4 Step 1.1, §4 Step 2.3: the custom setup's running totals,
 * discards used (faces unknown) and recruited agents. */
static void place_in_play(struct aa_state *s, const struct aa_custom *c)
{
	for (int p = 0; p < AA_SEATS; p++) {
		struct aa_player *pl = &s->players[p];
		pl->progress = c->progress[p];
		pl->discards = (uint8_t)c->discards_used[p];
		for (int k = 0; k < AA_KINDS; k++)
			pl->in_play[k] = (uint8_t)c->in_play[p][k];
	}
}

/* rules §2 with the creator's choices: check, pool, deal, first player,
 * then check both players can play. */
int aa_setup_custom(struct aa_state *out, const struct aa_custom *c,
                    struct rng *rng, struct rules_why *why)
{
	uint8_t pool[AA_CARDS];
	unsigned n = 0;
	int rc = check_scalars(c, why);
	if (!rc)
		rc = check_lists(c, why);
	if (!rc)
		rc = check_in_play(c, why);
	if (!rc)
		rc = build_pool(c, pool, &n, why);
	struct aa_state s;
	memset(&s, 0, sizeof s);
	if (!rc)
		rc = deal(&s, c, pool, n, rng, why);
	if (rc)
		return rc;
	place_in_play(&s, c);
	s.first_player =
	    (uint8_t)(c->has_first_player ? (uint32_t)c->first_player
	                                  : rng_below(rng, 2));
	s.active = s.first_player;
	s.phase = AA_PHASE_PLAY;
	s.turn = 1;
	s.custom = 1;
	rc = check_playable(&s, why);
	if (!rc)
		memcpy(out, &s, sizeof s);
	return rc;
}

/* rules §2: the normal deal is a custom setup that fixes nothing. */
void aa_setup_default(struct aa_state *s, struct rng *rng)
{
	struct aa_custom c;
	aa_custom_init(&c);
	aa_setup_custom(s, &c, rng, NULL); /* cannot fail: 38 in the pool */
	s->custom = 0;
}

/* ---- whose turn, and what they may do ---- */

/* rules §4: the active player plays, then the opponent recruits. */
unsigned aa_to_act(const struct aa_state *s)
{
	switch (s->phase) {
	case AA_PHASE_PLAY:
		return 1u << s->active;
	case AA_PHASE_RECRUIT:
		return 1u << other(s->active);
	default:
		return 0;
	}
}

/* rules §4: seat is a real seat and may act now. */
static int may_act(const struct aa_state *s, int seat)
{
	return seat >= 0 && seat < AA_SEATS && (aa_to_act(s) & (1u << seat));
}

/* rules §4 Step 1.1: discard-to-draw needs cards in the deck and a
 * discard left. */
static int may_discard(const struct aa_state *s, int seat)
{
	return s->deck_size > 0 && s->players[seat].discards < AA_MAX_DISCARDS;
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

/* rules §4 Step 1.1–1.2: the discards, then the plays, of the active
 * player. */
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
	/* play_ok in up-major order: distinct names, or the identical pair
	 * when the hand holds 2 or more cards of one name only */
	int one_name = (names & (names - 1)) == 0 && p->hand_size >= 2;
	for (unsigned u = names; u; u &= u - 1)
		for (unsigned d = names; d; d &= d - 1) {
			uint8_t up = (uint8_t)__builtin_ctz(u);
			uint8_t down = (uint8_t)__builtin_ctz(d);
			if (up != down || one_name)
				out[n++] = listed(AA_ACT_PLAY, up, down);
		}
	return n;
}

/* rules §4 Steps 1–2: every action `seat` may take now. */
size_t aa_legal(const struct aa_state *s, int seat,
                struct aa_action out[AA_MAX_ACTIONS])
{
	if (!may_act(s, seat))
		return 0;
	if (s->phase == AA_PHASE_PLAY)
		return list_play_phase(s, seat, out);
	out[0] =
	    (struct aa_action){.type = AA_ACT_RECRUIT, .pick = AA_PICK_FACE_UP};
	out[1] = (struct aa_action){.type = AA_ACT_RECRUIT,
	                            .pick = AA_PICK_FACE_DOWN};
	return 2;
}

/* ---- Step 1: play ---- */

/* rules §4 Step 1.1: discard-to-draw, at most 4 per player per game, only
 * before playing and only with cards in the deck. */
static int apply_discard(struct aa_state *s, int seat, unsigned card,
                         struct rules_why *why)
{
	struct aa_player *p = &s->players[seat];
	uint8_t count[AA_KINDS];
	hand_counts(p, count);
	if (s->phase != AA_PHASE_PLAY || seat != s->active)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_DISCARD,
		    "you may discard only on your own turn, before "
		    "playing");
	if (s->deck_size == 0)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_DISCARD,
		    "you may not discard: the agent deck is empty");
	if (p->discards >= AA_MAX_DISCARDS)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_DISCARD,
		    "you have already discarded 4 times, the most a "
		    "player may in a game");
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

/* rules §4 Step 1.2 and 1.3: play 1 face up and 1 face down, then draw
 * back up to 4 (as many as the deck has). */
static int apply_play(struct aa_state *s, int seat, unsigned up, unsigned down,
                      struct rules_why *why)
{
	struct aa_player *p = &s->players[seat];
	uint8_t count[AA_KINDS];
	hand_counts(p, count);
	if (s->phase != AA_PHASE_PLAY || seat != s->active)
		return rules_fail(why, BD_EILLEGAL, RULE_PLAY,
		                  "you may play only on your own turn, once");
	if (!play_ok(count, p->hand_size, up, down))
		return explain_play(count, up, down, why);
	hand_remove(p, (uint8_t)up);
	hand_remove(p, (uint8_t)down);
	while (p->hand_size < AA_HAND_REFILL && s->deck_size > 0)
		draw(s, p);
	s->played[0] = (uint8_t)up;
	s->played[1] = (uint8_t)down;
	s->phase = AA_PHASE_RECRUIT;
	return 0;
}

/* ---- Step 2: recruit ---- */

/* rules §4 Step 2.4: the move of a player who now has `count` (>= 1)
 * agents of this name in play: 1st, 2nd, 3rd-or-later icon. */
static int icon_move(unsigned card, unsigned count)
{
	const struct aa_card_info *c = &aa_card_info[card];
	unsigned icon = (count < c->icons ? count : c->icons) - 1;
	int m = c->moves[icon];
	return m == AA_ICON_NONE ? 0 : m;
}

/* rules §4 Step 2.2–2.4: seat puts `card` in play and moves its meeple. */
static void recruit(struct aa_state *s, int seat, uint8_t card)
{
	struct aa_player *p = &s->players[seat];
	int m = icon_move(card, ++p->in_play[card]);
	p->progress += m;
	s->last_card[seat] = card;
	s->last_moved[seat] = (int8_t)m;
}

/* rules §4 Step 3 A–C: why `seat` is in W, or NONE if it is not. */
static enum aa_reason win_reason(const struct aa_state *s, int seat)
{
	if (lead(s, seat) >= AA_CATCH_LEAD)
		return AA_REASON_CATCH;
	if (s->players[seat].in_play[AA_CODEBREAKER] >= AA_WIN_COUNT)
		return AA_REASON_CODEBREAKERS;
	if (s->players[other(seat)].in_play[AA_DAREDEVIL] >= AA_WIN_COUNT)
		return AA_REASON_DAREDEVILS;
	return AA_REASON_NONE;
}

static void finish(struct aa_state *s, int winner, enum aa_reason reason)
{
	s->phase = AA_PHASE_OVER;
	s->winner = (uint8_t)winner;
	s->reason = (uint8_t)reason;
}

/* rules §4 Step 3: W decides (the active player wins a tie); otherwise
 * running out of cards (closer to catching wins, the active player on
 * equal distance); otherwise the other player becomes active. */
static void end_step(struct aa_state *s)
{
	int a = s->active, n = other(a);
	enum aa_reason ra = win_reason(s, a), rn = win_reason(s, n);
	if (ra && rn)
		finish(s, a, AA_REASON_TIE);
	else if (ra || rn)
		finish(s, ra ? a : n, ra ? ra : rn);
	else if (s->deck_size == 0 && s->players[n].hand_size < 2)
		finish(s, lead(s, a) >= 0 ? a : n, AA_REASON_OUT_OF_CARDS);
	else {
		s->active = (uint8_t)n;
		s->phase = AA_PHASE_PLAY;
		s->turn++;
	}
}

/* rules §4 Step 2.1–2.4 then Step 3: the opponent picks, the active player
 * gets the other card, both meeples move, the End step resolves. */
static int apply_recruit(struct aa_state *s, int seat, unsigned pick,
                         struct rules_why *why)
{
	if (s->phase != AA_PHASE_RECRUIT || seat == s->active)
		return rules_fail(
		    why, BD_EILLEGAL, RULE_RECRUIT,
		    "only the opponent of the active player recruits, "
		    "after the active player has played");
	if (pick > AA_PICK_FACE_DOWN)
		return rules_fail(why, BD_EILLEGAL, RULE_RECRUIT,
		                  "pick the face_up or the face_down card");
	recruit(s, seat, s->played[pick]);
	recruit(s, s->active, s->played[1 - pick]);
	s->has_last = 1;
	s->last_active = s->active;
	memset(s->played, 0, sizeof s->played);
	end_step(s);
	return 0;
}

/* rules §4: one discard, play or recruit. */
int aa_apply(struct aa_state *s, int seat, const struct aa_action *a,
             struct rules_why *why)
{
	if (seat < 0 || seat >= AA_SEATS)
		return rules_fail(why, BD_EILLEGAL, "§1", "there is no seat %d",
		                  seat);
	if (s->phase == AA_PHASE_OVER)
		return rules_fail(why, BD_EILLEGAL, "§4 Step 3",
		                  "the game is over");
	switch (a->type) {
	case AA_ACT_DISCARD:
		return apply_discard(s, seat, a->card, why);
	case AA_ACT_PLAY:
		return apply_play(s, seat, a->card, a->face_down, why);
	case AA_ACT_RECRUIT:
		return apply_recruit(s, seat, a->pick, why);
	default:
		return rules_fail(
		    why, BD_EILLEGAL, "§4",
		    "an action is a discard, a play or a recruit");
	}
}

/* rules §4 Step 3: the winner once the game has ended. */
int aa_result(const struct aa_state *s, int *winner, enum aa_reason *reason)
{
	if (s->phase != AA_PHASE_OVER)
		return 0;
	*winner = s->winner;
	*reason = (enum aa_reason)s->reason;
	return 1;
}

/* ---- search (§5) ---- */

/* rules §5: the cards hidden from `viewer` are pooled in enum order (so
 * the sample never depends on where they really were), shuffled and
 * dealt back into the same places and sizes. */
void aa_determinize(struct aa_state *s, int viewer, struct rng *rng)
{
	if (viewer < 0 || viewer >= AA_SEATS || s->phase == AA_PHASE_OVER)
		return;
	struct aa_player *op = &s->players[other(viewer)];
	int hide_down = s->phase == AA_PHASE_RECRUIT && s->active != viewer;
	uint8_t count[AA_KINDS] = {0}, pool[AA_CARDS];
	for (unsigned i = 0; i < op->hand_size; i++)
		count[op->hand[i]]++;
	for (unsigned i = 0; i < s->deck_size; i++)
		count[s->deck[i]]++;
	for (unsigned i = 0; i < op->discarded_size; i++)
		count[op->discarded[i]]++;
	if (hide_down)
		count[s->played[1]]++;
	unsigned n = 0;
	for (uint8_t k = 0; k < AA_KINDS; k++)
		for (unsigned i = 0; i < count[k]; i++)
			pool[n++] = k;
	rng_shuffle_u8(rng, pool, n);
	n = 0;
	for (unsigned i = 0; i < op->hand_size; i++)
		op->hand[i] = pool[n++];
	for (unsigned i = 0; i < s->deck_size; i++)
		s->deck[i] = pool[n++];
	for (unsigned i = 0; i < op->discarded_size; i++)
		op->discarded[i] = pool[n++];
	if (hide_down)
		s->played[1] = pool[n++];
}
