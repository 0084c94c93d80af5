/* chat.c: a game's chat (the players' and the spectators' channels),
 * players' blocks and reports.  See service.h and docs/matchmaking.md.
 *
 * Who reads and writes which channel (as Lichess does):
 * - players' channel: the seats' holders write and read it; everyone
 *   else reads it once the game is over (as its record shows it);
 * - spectators' channel: players holding no seat write it, and everyone
 *   without a seat reads it (no token needed); while the game runs the
 *   seats' holders neither read nor write it, so nobody at the table is
 *   told what onlookers say; once it is over they may do both.
 * A message shows its number in its channel (n: 1, 2, ...), its author
 * (seat and player), its text and its time: nothing of the game's state,
 * not even its seq, so a message says nothing of a hidden action.  A
 * reader who blocked a player does not see that player's messages. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHAT_PAGE_DEFAULT 50
#define CHAT_PAGE_MAX     100

static const char *const channel_names[STORE_CHAT_CHANNELS] = {"players",
                                                               "spectators"};

int svc__chat_channel(const char *name)
{
	for (int i = 0; name && i < STORE_CHAT_CHANNELS; i++)
		if (strcmp(name, channel_names[i]) == 0)
			return i;
	return -1;
}

/* ---- who asks ---- */

/* The caller in game l: its seat (or ENGINE_SPECTATOR) and its player
 * (0: a seat token no player holds, or no token), and whether the game is
 * over. */
struct chatter {
	int seat;
	int64_t player_key;
	int finished;
};

int svc__chat_reader(struct service *svc, int64_t key, int seat,
                     const char *token, int64_t *player_key)
{
	struct store_seat seats[ENGINE_MAX_SEATS];
	struct store_player p;
	int n = 0, rc;
	*player_key = 0;
	if (seat >= 0) {
		rc = store_seats_get(svc->st, key, seats, ENGINE_MAX_SEATS, &n);
		for (int i = 0; rc == 0 && i < n; i++)
			if (seats[i].seat == seat)
				*player_key = seats[i].player_key;
		return rc;
	}
	if (!token)
		return 0;
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	token_hash(token, hash);
	rc = store_player_by_token(svc->st, hash, &p);
	if (rc == 0)
		*player_key = p.key;
	return rc == BD_ENOTFOUND || rc == BD_EUNAUTHORIZED ? 0 : rc;
}

/* Loads game `id` and who the token is there into *l (to release) and
 * *who. */
static int chatter_of(struct service *svc, const char *id, const char *token,
                      struct loaded *l, struct chatter *who,
                      struct svc_err *err)
{
	int rc = svc__load_viewer(svc, id, token, l, &who->seat, err);
	if (rc < 0)
		return rc;
	struct rules_result res;
	who->finished = engine_game_result(l->g, &res);
	rc = svc__chat_reader(svc, l->row.key, who->seat, token,
	                      &who->player_key);
	if (rc < 0)
		loaded_release(l);
	return rc;
}

int svc__chat_may_read(int channel, int seat, int finished)
{
	if (finished)
		return 1;
	return channel == STORE_CHAT_PLAYERS ? seat >= 0 : seat < 0;
}

/* Why who may not write `channel`: 0 when they may, else the refusal in
 * err. */
static int may_write(int channel, const struct chatter *who, const char *token,
                     struct svc_err *err)
{
	if (!token)
		return svc__fail(err, BD_EUNAUTHORIZED,
		                 "writing in a game's chat needs a seat's or a "
		                 "player's bearer token");
	if (channel == STORE_CHAT_PLAYERS && who->seat < 0)
		return svc__fail(err, BD_EFORBIDDEN,
		                 "only the holders of the game's seats write "
		                 "its players' channel");
	if (channel == STORE_CHAT_SPECTATORS && who->seat >= 0 &&
	    !who->finished)
		return svc__fail(err, BD_EFORBIDDEN,
		                 "a seat's holder neither reads nor writes the "
		                 "spectators' channel while the game runs");
	if (channel == STORE_CHAT_SPECTATORS && who->seat < 0 &&
	    !who->player_key)
		return svc__fail(err, BD_EFORBIDDEN,
		                 "the spectators' channel is written with a "
		                 "player's bearer token");
	return 0;
}

/* ---- the text ---- */

/* The next code point of UTF-8 text s (valid: Jansson checked it) at
 * *i, advancing *i; -1 for a malformed sequence. */
static long next_cp(const unsigned char *s, size_t *i)
{
	unsigned char c = s[*i];
	int more = c < 0x80    ? 0
	           : c >= 0xf0 ? 3
	           : c >= 0xe0 ? 2
	           : c >= 0xc0 ? 1
	                       : -1;
	if (more < 0 || c >= 0xf8)
		return -1;
	long cp = more == 0 ? c : c & (0x3f >> more);
	(*i)++;
	for (int k = 0; k < more; k++, (*i)++) {
		if ((s[*i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[*i] & 0x3f);
	}
	return cp;
}

/* Whether cp may not appear in a message: the controls (C0, DEL, C1:
 * line breaks included, so a message is one line) and the bidirectional
 * embeddings, overrides and isolates, which would let a message reorder
 * what follows it on a client's screen. */
static int refused_cp(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

int svc__chat_text(const json_t *v, const char *field, size_t max,
                   const char **out, struct svc_err *err)
{
	const char *s = json_string_value(v);
	if (!s || json_string_length(v) != strlen(s))
		return svc__fail(err, BD_EBADREQUEST,
		                 "%s must be a string (without NUL)", field);
	size_t i = 0, n = 0;
	int blank = 1;
	while (s[i]) {
		long cp = next_cp((const unsigned char *)s, &i);
		if (cp < 0)
			return svc__fail(err, BD_EBADREQUEST,
			                 "%s is not valid UTF-8", field);
		if (refused_cp(cp))
			return svc__fail(
			    err, BD_EBADREQUEST,
			    "%s holds the control character U+%04lX "
			    "(controls, line breaks and bidi "
			    "controls are refused)",
			    field, (unsigned long)cp);
		blank &= cp == ' ' || cp == 0xa0 || cp == 0x3000;
		n++;
	}
	if (blank)
		return svc__fail(err, BD_EBADREQUEST,
		                 "%s must hold something besides spaces",
		                 field);
	if (n > max)
		return svc__fail(err, BD_EBADREQUEST,
		                 "%s is %zu code points long; at most %zu",
		                 field, n, max);
	*out = s;
	return 0;
}

/* ---- messages ---- */

json_t *svc__chat_json(int channel, const struct store_chat_msg *m)
{
	json_t *player = *m->player_id
	                     ? json_pack("{s:s,s:s}", "id", m->player_id,
	                                 "name", m->player_name)
	                     : json_null();
	json_t *seat = m->seat >= 0 ? json_integer(m->seat) : json_null();
	return json_pack("{s:I,s:s,s:o,s:o,s:s,s:o}", "n", (json_int_t)m->n,
	                 "channel", channel_names[channel], "seat", seat,
	                 "player", player, "text", m->text, "time",
	                 svc__iso_time(m->created_ms));
}

struct chat_list {
	int channel;
	json_t *messages;
	int64_t last;
};

static int list_one(void *ctx, const struct store_chat_msg *m)
{
	struct chat_list *x = ctx;
	json_t *o = svc__chat_json(x->channel, m);
	if (!o || json_array_append_new(x->messages, o) < 0)
		return BD_ENOMEM;
	x->last = m->n;
	return 0;
}

int svc__chat_all(struct service *svc, int64_t key, json_t **out)
{
	json_t *all = json_object();
	int rc = all ? 0 : BD_ENOMEM;
	for (int ch = 0; rc == 0 && ch < STORE_CHAT_CHANNELS; ch++) {
		struct chat_list x = {ch, json_array(), 0};
		rc = x.messages ? 0 : BD_ENOMEM;
		for (size_t got = 1000; rc == 0 && got == 1000;) {
			size_t before = json_array_size(x.messages);
			rc = store_chat_each(svc->st, key, ch, x.last, 0, 1000,
			                     list_one, &x);
			got = json_array_size(x.messages) - before;
		}
		if (json_object_set_new(all, channel_names[ch], x.messages) < 0)
			rc = BD_ENOMEM;
	}
	if (rc < 0) {
		json_decref(all);
		return rc;
	}
	*out = all;
	return 0;
}

int service_chat_post(struct service *svc, const char *id, const char *channel,
                      const char *token, const json_t *body, json_t **out,
                      struct svc_err *err)
{
	static const char *const keys[] = {"text", NULL};
	int ch = svc__chat_channel(channel);
	if (ch < 0)
		return BD_ENOROUTE;
	const char *text = NULL;
	int rc = svc__body_keys(body, keys, err);
	if (rc == 0)
		rc = svc__chat_text(json_object_get(body, "text"), "text",
		                    STORE_CHAT_TEXT_MAX, &text, err);
	if (rc < 0)
		return rc;
	struct loaded l;
	struct chatter who;
	if ((rc = chatter_of(svc, id, token, &l, &who, err)) < 0)
		return rc;
	rc = may_write(ch, &who, token, err);
	struct store_chat_msg m = {.seat = who.seat, .text = text};
	struct store_player p = {0};
	if (rc == 0 && who.player_key) {
		struct store_seat seats[ENGINE_MAX_SEATS];
		int n = 0;
		rc = store_seats_get(svc->st, l.row.key, seats,
		                     ENGINE_MAX_SEATS, &n);
		for (int i = 0; rc == 0 && i < n; i++)
			if (seats[i].player_key == who.player_key) {
				snprintf(p.id, sizeof p.id, "%s",
				         seats[i].player_id);
				snprintf(p.name, sizeof p.name, "%s",
				         seats[i].player_name);
			}
		if (rc == 0 && !*p.id) { /* a spectator: its token's player */
			uint8_t hash[STORE_TOKEN_HASH_LEN];
			token_hash(token, hash);
			rc = store_player_by_token(svc->st, hash, &p);
		}
	}
	m.player_id = p.id;
	m.player_name = p.name;
	/* Another node may number the same message of the channel at once:
	 * the loser is told BD_ECONFLICT and numbers it again. */
	for (int turn = 0; rc == 0 || (rc == BD_ECONFLICT && turn < 8);
	     turn++) {
		rc = store_chat_post(svc->st, l.row.key, ch, m.seat,
		                     who.player_key, text, &m.n, &m.created_ms);
		if (rc != BD_ECONFLICT)
			break;
	}
	if (rc == 0) {
		/* Wakes the game's streams (seq 0: no long-poll of a later
		 * seq wakes for a message). */
		svc__moved(svc, l.row.key, 0);
		rc = svc__give(svc__chat_json(ch, &m), out);
	}
	loaded_release(&l);
	return rc;
}

int service_chat_list(struct service *svc, const char *id, const char *channel,
                      const char *token, const char *after, const char *limit,
                      json_t **out, struct svc_err *err)
{
	int ch = svc__chat_channel(channel);
	int64_t from = 0, n = CHAT_PAGE_DEFAULT;
	if (ch < 0)
		return BD_ENOROUTE;
	if (after && !svc__parse_uint(after, 0, INT64_MAX, &from))
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a message number (digits)");
	if (limit && !svc__parse_uint(limit, 1, CHAT_PAGE_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 CHAT_PAGE_MAX);
	struct loaded l;
	struct chatter who;
	int rc = chatter_of(svc, id, token, &l, &who, err);
	if (rc < 0)
		return rc;
	if (!svc__chat_may_read(ch, who.seat, who.finished))
		rc = svc__fail(
		    err, BD_EFORBIDDEN,
		    ch == STORE_CHAT_PLAYERS
		        ? "the players' channel is read by the seats' "
		          "holders until the game is over"
		        : "a seat's holder does not read the "
		          "spectators' channel while the game runs");
	struct chat_list x = {ch, json_array(), 0};
	if (rc == 0)
		rc = x.messages
		         ? store_chat_each(svc->st, l.row.key, ch, from,
		                           who.player_key, (int)n, list_one, &x)
		         : BD_ENOMEM;
	loaded_release(&l);
	if (rc < 0) {
		json_decref(x.messages);
		return rc;
	}
	/* A full page: more may follow, after its last message. */
	json_t *next = (int64_t)json_array_size(x.messages) == n
	                   ? json_integer(x.last)
	                   : json_null();
	return svc__give(json_pack("{s:s,s:o,s:o}", "channel",
	                           channel_names[ch], "messages", x.messages,
	                           "next_after", next),
	                 out);
}

/* ---- blocks ---- */

/* The player of the path's id (one more segment), into *p. */
static int named_player(struct service *svc, const char *pid,
                        struct store_player *p, struct svc_err *err)
{
	int rc = pid && strlen(pid) == STORE_ID_LEN
	             ? store_player_by_id(svc->st, pid, p)
	             : BD_ENOTFOUND;
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_ENOROUTE, "no player has the id %.40s",
		                 pid ? pid : "");
	return rc;
}

int service_block_put(struct service *svc, const char *token, const char *pid,
                      struct svc_err *err)
{
	struct store_player me, them;
	int rc = svc__player_of(svc, token, &me, err);
	if (rc == 0)
		rc = named_player(svc, pid, &them, err);
	if (rc == 0 && me.key == them.key)
		rc =
		    svc__fail(err, BD_EBADREQUEST, "you cannot block yourself");
	if (rc == 0)
		rc = store_block_put(svc->st, me.key, them.key);
	if (rc == BD_ELIMIT)
		rc = svc__fail(err, BD_EBADREQUEST,
		               "you already block %d players, the most one may",
		               STORE_BLOCKS_MAX);
	return rc;
}

int service_block_delete(struct service *svc, const char *token,
                         const char *pid, struct svc_err *err)
{
	struct store_player me, them;
	int removed = 0;
	int rc = svc__player_of(svc, token, &me, err);
	if (rc == 0)
		rc = named_player(svc, pid, &them, err);
	if (rc == 0)
		rc = store_block_delete(svc->st, me.key, them.key, &removed);
	if (rc == 0 && !removed)
		rc =
		    svc__fail(err, BD_ENOROUTE, "you do not block that player");
	return rc;
}

static int block_one(void *ctx, const char *id, const char *name,
                     int64_t created_ms)
{
	json_t *o = json_pack("{s:{s:s,s:s},s:o}", "player", "id", id, "name",
	                      name, "since", svc__iso_time(created_ms));
	return o && json_array_append_new(ctx, o) == 0 ? 0 : BD_ENOMEM;
}

int service_blocks_list(struct service *svc, const char *token, json_t **out,
                        struct svc_err *err)
{
	struct store_player me;
	int rc = svc__player_of(svc, token, &me, err);
	if (rc < 0)
		return rc;
	json_t *a = json_array();
	rc = a ? store_blocks_each(svc->st, me.key, block_one, a) : BD_ENOMEM;
	if (rc < 0) {
		json_decref(a);
		return rc;
	}
	return svc__give(json_pack("{s:o}", "blocks", a), out);
}

/* ---- reports ---- */

int service_report(struct service *svc, const char *token, const json_t *body,
                   json_t **out, struct svc_err *err)
{
	static const char *const keys[] = {"player", "game",   "channel",
	                                   "n",      "reason", NULL};
	struct store_player me, them = {0};
	struct store_report r = {.channel = -1};
	int rc = svc__player_of(svc, token, &me, err);
	if (rc == 0)
		rc = svc__body_keys(body, keys, err);
	if (rc == 0)
		rc = svc__chat_text(json_object_get(body, "reason"), "reason",
		                    STORE_REASON_MAX, &r.reason, err);
	if (rc < 0)
		return rc;
	r.reporter_key = me.key;
	const json_t *player = json_object_get(body, "player");
	const json_t *game = json_object_get(body, "game");
	const json_t *chan = json_object_get(body, "channel");
	const json_t *num = json_object_get(body, "n");
	if ((player && !json_is_string(player)) ||
	    (game && !json_is_string(game)) ||
	    (chan && svc__chat_channel(json_string_value(chan)) < 0) ||
	    (num && (!json_is_integer(num) || json_integer_value(num) < 1)))
		return svc__fail(err, BD_EBADREQUEST,
		                 "player and game are ids, channel \"players\" "
		                 "or \"spectators\", n an integer >= 1");
	if (player && (chan || num))
		return svc__fail(err, BD_EBADREQUEST,
		                 "a report of a player names no channel or n");
	if (!player == !game)
		return svc__fail(err, BD_EBADREQUEST,
		                 "a report names a player (\"player\") or a "
		                 "message (\"game\", \"channel\", \"n\"), not "
		                 "both");
	if (player) {
		if (!json_is_string(player))
			return svc__fail(err, BD_EBADREQUEST,
			                 "player must be a player's id");
		rc = named_player(svc, json_string_value(player), &them, err);
		if (rc == BD_ENOROUTE)
			rc = BD_EBADREQUEST; /* the body's, not the path's */
		if (rc < 0)
			return rc;
		r.player_key = them.key;
	} else {
		const json_t *n = json_object_get(body, "n");
		r.channel = svc__chat_channel(
		    json_string_value(json_object_get(body, "channel")));
		if (!json_is_string(game) || r.channel < 0 ||
		    !json_is_integer(n) || json_integer_value(n) < 1)
			return svc__fail(err, BD_EBADREQUEST,
			                 "a message is named by game (its id), "
			                 "channel (\"players\" or "
			                 "\"spectators\") and n (>= 1)");
		r.n = json_integer_value(n);
		struct loaded l;
		struct chatter who;
		rc = chatter_of(svc, json_string_value(game), token, &l, &who,
		                err);
		if (rc < 0)
			return rc;
		r.game_key = l.row.key;
		/* Only what the reporter may read: else the answer would
		 * tell them whether a message they may not see exists. */
		if (!svc__chat_may_read(r.channel, who.seat, who.finished))
			rc = svc__fail(
			    err, BD_EFORBIDDEN,
			    "you may not read that channel of this "
			    "game, so you cannot report its messages");
		loaded_release(&l);
		if (rc < 0)
			return rc;
	}
	int64_t key = 0;
	rc = store_report_put(svc->st, &r, &key);
	if (rc == BD_ENOTFOUND)
		return svc__fail(
		    err, BD_EBADREQUEST,
		    "that channel of that game has no message %lld",
		    (long long)r.n);
	if (rc < 0)
		return rc;
	return svc__give(json_pack("{s:I}", "report", (json_int_t)key), out);
}

static int report_one(void *ctx, const struct store_report *r)
{
	json_t *o = json_pack(
	    "{s:I,s:{s:s,s:s},s:o,s:o,s:s,s:o}", "report", (json_int_t)r->key,
	    "reporter", "id", r->reporter_id, "name", r->reporter_name,
	    "player",
	    *r->player_id ? json_pack("{s:s,s:s}", "id", r->player_id, "name",
	                              r->player_name)
	                  : json_null(),
	    "message",
	    *r->game_id
	        ? json_pack("{s:s,s:s,s:I,s:o,s:s?}", "game", r->game_id,
	                    "channel",
	                    channel_names[r->channel == STORE_CHAT_SPECTATORS],
	                    "n", (json_int_t)r->n, "seat",
	                    r->seat >= 0 ? json_integer(r->seat) : json_null(),
	                    "text", r->text)
	        : json_null(),
	    "reason", r->reason, "time", svc__iso_time(r->created_ms));
	return o && json_array_append_new(ctx, o) == 0 ? 0 : BD_ENOMEM;
}

int service_reports_list(struct service *svc, const char *after,
                         const char *limit, json_t **out, struct svc_err *err)
{
	int64_t from = 0, n = CHAT_PAGE_MAX;
	if (after && !svc__parse_uint(after, 0, INT64_MAX, &from))
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a report number (digits)");
	if (limit && !svc__parse_uint(limit, 1, CHAT_PAGE_MAX, &n))
		return svc__fail(err, BD_EBADREQUEST,
		                 "limit must be an integer from 1 to %d",
		                 CHAT_PAGE_MAX);
	json_t *a = json_array();
	int rc = a ? store_reports_each(svc->st, from, (int)n, report_one, a)
	           : BD_ENOMEM;
	if (rc < 0) {
		json_decref(a);
		return rc;
	}
	json_t *last = json_array_get(a, json_array_size(a) - 1);
	json_t *next = (int64_t)json_array_size(a) == n
	                   ? json_deep_copy(json_object_get(last, "report"))
	                   : json_null();
	return svc__give(
	    json_pack("{s:o,s:o}", "reports", a, "next_after", next), out);
}
