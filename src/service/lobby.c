/* lobby.c: browser tickets for event streams, cancelling a waiting game,
 * leaving a seat, a player's tokens (one per device), and attaching a
 * seat token to a player.  See service.h. */
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "../common/decimal.h"
#include "internal.h"

/* ---- tickets: POST /v1/tickets, and their use ---- */

#define TICKET_TOKEN_MAX 128 /* longest bearer token a ticket seals */
/* The key that derives a ticket's sealing key from the ticket. */
static const char ticket_kdf[] = "boardd ticket seal v1";

void service_ticket_ttl(struct service *svc, unsigned seconds)
{
	svc->ticket_ttl_s = seconds;
}

/* The canonical URL of a stream: `path` with `after` (digits, or NULL)
 * as "?after=<n>".  The game's id (or "" for the account stream) goes to
 * game_id.  BD_EBADREQUEST when it is not a stream's. */
static int stream_url(const char *path, const char *after,
                      char url[STORE_TICKET_URL_MAX + 1],
                      char game_id[STORE_ID_LEN + 1], struct svc_err *err)
{
	static const char games[] = "/v1/games/";
	static const char events[] = "/events";
	uint64_t seq = 0;
	game_id[0] = '\0';
	if (strncmp(path, games, sizeof games - 1) == 0 &&
	    strlen(path) ==
	        sizeof games - 1 + STORE_ID_LEN + sizeof events - 1 &&
	    strcmp(path + sizeof games - 1 + STORE_ID_LEN, events) == 0) {
		memcpy(game_id, path + sizeof games - 1, STORE_ID_LEN);
		game_id[STORE_ID_LEN] = '\0';
	}
	if ((!game_id[0] && strcmp(path, "/v1/players/me/events") != 0) ||
	    (game_id[0] && !token_is_game_id(game_id)))
		return svc__fail(err, BD_EBADREQUEST,
		                 "a ticket is for /v1/games/{id}/events or "
		                 "/v1/players/me/events, optionally with "
		                 "?after=<seq>");
	if (after && decimal_parse(after, strlen(after), &seq) < 0)
		return svc__fail(err, BD_EBADREQUEST,
		                 "after must be a seq (digits)");
	if (after)
		snprintf(url, STORE_TICKET_URL_MAX + 1, "%s?after=%" PRIu64,
		         path, seq);
	else
		snprintf(url, STORE_TICKET_URL_MAX + 1, "%s", path);
	return 0;
}

/* Splits the body's "url" into a canonical stream URL (stream_url). */
static int parse_ticket(const json_t *body, char url[STORE_TICKET_URL_MAX + 1],
                        char game_id[STORE_ID_LEN + 1], struct svc_err *err)
{
	static const char *const keys[] = {"url", NULL};
	char path[STORE_TICKET_URL_MAX + 1];
	int rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	const char *u = json_string_value(json_object_get(body, "url"));
	if (!u || u[0] != '/' || strlen(u) > STORE_TICKET_URL_MAX)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'url' must be the stream's path and "
		                 "query, e.g. /v1/players/me/events");
	size_t n = strcspn(u, "?");
	memcpy(path, u, n);
	path[n] = '\0';
	const char *q = u[n] ? u + n + 1 : NULL;
	if (q && strncmp(q, "after=", 6) != 0)
		return svc__fail(err, BD_EBADREQUEST,
		                 "a stream URL's only query is ?after=<seq>");
	return stream_url(path, q ? q + 6 : NULL, url, game_id, err);
}

/* The secretbox key of a ticket's sealed token. */
static void ticket_key(const char *ticket,
                       uint8_t key[crypto_secretbox_KEYBYTES])
{
	crypto_generichash(key, crypto_secretbox_KEYBYTES,
	                   (const unsigned char *)ticket, strlen(ticket),
	                   (const unsigned char *)ticket_kdf,
	                   sizeof ticket_kdf - 1);
}

/* Checks that `token` may read the stream of game_id ("" : the account
 * stream) now, as opening it would. */
static int may_read(struct service *svc, const char *token, const char *game_id,
                    struct svc_err *err)
{
	struct store_player p;
	struct loaded l;
	int seat;
	if (!game_id[0])
		return svc__player_of(svc, token, &p, err);
	int rc = load_row(svc->st, game_id, &l, err);
	if (rc < 0)
		return rc;
	rc = load_seat(svc->st, &l, token, 0, &seat, err);
	loaded_release(&l);
	return rc;
}

int service_ticket_create(struct service *svc, const char *token,
                          const json_t *body, json_t **out, struct svc_err *err)
{
	char url[STORE_TICKET_URL_MAX + 1], game_id[STORE_ID_LEN + 1];
	if (!token)
		return svc__fail(
		    err, BD_EUNAUTHORIZED,
		    "a ticket is made for a bearer token: send it");
	int rc = parse_ticket(body, url, game_id, err);
	if (rc == 0)
		rc = may_read(svc, token, game_id, err);
	if (rc == 0 && strlen(token) > TICKET_TOKEN_MAX)
		rc = svc__fail(err, BD_EBADREQUEST, "that token is too long");
	if (rc < 0)
		return rc;
	char ticket[TOKEN_LEN + 1];
	uint8_t hash[STORE_TOKEN_HASH_LEN], key[crypto_secretbox_KEYBYTES];
	unsigned char sealed[crypto_secretbox_NONCEBYTES +
	                     crypto_secretbox_MACBYTES + TICKET_TOKEN_MAX];
	size_t tlen = strlen(token);
	size_t len =
	    crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + tlen;
	int64_t expires = svc__now_ms() + (int64_t)svc->ticket_ttl_s * 1000;
	rc = BD_ECONFLICT;
	for (int attempt = 0; rc == BD_ECONFLICT && attempt < 4; attempt++) {
		token_new(ticket);
		token_hash(ticket, hash);
		ticket_key(ticket, key);
		randombytes_buf(sealed, crypto_secretbox_NONCEBYTES);
		crypto_secretbox_easy(sealed + crypto_secretbox_NONCEBYTES,
		                      (const unsigned char *)token, tlen,
		                      sealed, key);
		rc = store_ticket_put(svc->st, hash, url, sealed, len, expires);
	}
	sodium_memzero(key, sizeof key);
	if (rc == 0)
		rc = svc__give(json_pack("{s:s,s:s,s:o,s:i}", "ticket", ticket,
		                         "url", url, "expires",
		                         svc__iso_time(expires), "expires_in",
		                         (int)svc->ticket_ttl_s),
		               out);
	sodium_memzero(ticket, sizeof ticket);
	return rc == BD_ECONFLICT ? BD_EINTERNAL : rc;
}

int service_ticket_use(struct service *svc, const char *ticket,
                       const char *path, const char *after, char *token,
                       size_t max, struct svc_err *err)
{
	char url[STORE_TICKET_URL_MAX + 1], game_id[STORE_ID_LEN + 1];
	uint8_t hash[STORE_TOKEN_HASH_LEN], key[crypto_secretbox_KEYBYTES];
	unsigned char sealed[STORE_TICKET_SEALED_MAX];
	size_t len = 0;
	int rc = stream_url(path, after, url, game_id, err);
	if (rc < 0)
		return rc;
	token_hash(ticket, hash);
	rc = store_ticket_take(svc->st, hash, url, svc__now_ms(), sealed,
	                       sizeof sealed, &len);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EUNAUTHORIZED,
		                 "that ticket is unknown or was used already "
		                 "(a ticket works once: get a new one)");
	if (rc == BD_EDEADLINE)
		return svc__fail(err, BD_EUNAUTHORIZED,
		                 "that ticket expired (a ticket lasts %u s)",
		                 svc->ticket_ttl_s);
	if (rc == BD_EFORBIDDEN)
		return svc__fail(err, BD_EUNAUTHORIZED,
		                 "that ticket is for another stream URL (its "
		                 "path and query, ticket aside, must be the "
		                 "ones it was made for)");
	if (rc < 0)
		return rc;
	size_t tlen =
	    len - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES;
	if (len < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES ||
	    tlen >= max)
		return BD_EINTERNAL;
	ticket_key(ticket, key);
	rc = crypto_secretbox_open_easy(
	         (unsigned char *)token, sealed + crypto_secretbox_NONCEBYTES,
	         len - crypto_secretbox_NONCEBYTES, sealed, key) == 0
	         ? 0
	         : BD_EINTERNAL;
	sodium_memzero(key, sizeof key);
	if (rc == 0)
		token[tlen] = '\0';
	return rc;
}

/* ---- DELETE /v1/games/{id} ---- */

int service_game_cancel(struct service *svc, const char *id, const char *token,
                        struct svc_err *err)
{
	struct store_player p;
	struct loaded l;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		rc = load_row(svc->st, id, &l, err);
	if (rc < 0)
		return rc;
	int64_t key = l.row.key;
	uint64_t seq = l.row.seq;
	char gid[STORE_ID_LEN + 1];
	memcpy(gid, l.row.id, sizeof gid);
	loaded_release(&l);
	hot_write_begin(svc->hot, gid); /* hot.h: until after commit */
	rc = store_game_cancel(svc->st, key, p.key);
	hot_write_end(svc->hot, gid);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, rc, "no game has that id");
	if (rc == BD_EFORBIDDEN)
		return svc__fail(err, rc,
		                 "only the player who created this game may "
		                 "cancel it");
	if (rc == BD_ESTARTED)
		return svc__fail(err, rc,
		                 "a move was made in this game: it can no "
		                 "longer be cancelled (resign instead)");
	if (rc == 0)
		svc__moved(svc, key, seq); /* its long-polls answer: 404 */
	return rc;
}

/* ---- POST /v1/games/{id}/leave ---- */

int service_leave(struct service *svc, const char *id, const char *token,
                  struct svc_err *err)
{
	struct loaded l;
	struct store_player p = {0};
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	int seat = -1, by_token = 0;
	if (!token)
		return svc__fail(err, BD_EUNAUTHORIZED,
		                 "this needs a seat's or a player's bearer "
		                 "token");
	int rc = load_row(svc->st, id, &l, err);
	if (rc < 0)
		return rc;
	token_hash(token, hash);
	rc = store_seat_for_token(svc->st, l.row.key, hash, &seat);
	by_token = rc == 0;
	if (rc == BD_ENOTFOUND)
		rc = svc__player_of(svc, token, &p, err);
	if (rc == 0 && !by_token)
		rc = store_seat_for_player(svc->st, l.row.key, p.key, &seat);
	if (rc == BD_ENOTFOUND || rc == BD_EFORBIDDEN)
		rc = svc__fail(err, BD_EFORBIDDEN,
		               "you hold no seat in this game");
	if (rc == 0 && strcmp(l.row.status, "waiting") != 0)
		rc = BD_ESTARTED;
	if (rc == 0) {
		hot_write_begin(svc->hot, l.row.id);
		rc = store_seat_leave(svc->st, l.row.key, seat,
		                      by_token ? 0 : p.key,
		                      by_token ? hash : NULL);
		hot_write_end(svc->hot, l.row.id);
	}
	if (rc == BD_ESTARTED)
		rc = svc__fail(err, rc,
		               "this game has started: a seat is left only "
		               "before (resign instead)");
	else if (rc == BD_EFORBIDDEN && !err->detail[0])
		rc = svc__fail(err, rc, "you no longer hold that seat");
	else if (rc == BD_ENOTFOUND)
		rc = svc__fail(err, rc, "no game has that id");
	if (rc == 0)
		svc__moved(svc, l.row.key, l.row.seq); /* a seat is open */
	loaded_release(&l);
	return rc;
}

/* ---- a player's tokens: /v1/players/me/tokens ---- */

static json_t *token_json(const struct store_token *t, int current)
{
	return json_pack(
	    "{s:s,s:s,s:o,s:o,s:b}", "id", t->id, "label", t->label, "created",
	    svc__iso_time(t->created_ms), "last_used",
	    t->last_used_ms ? svc__iso_time(t->last_used_ms) : json_null(),
	    "current", current);
}

struct mint_add {
	struct store *st;
	int64_t player_key;
};

/* token_mint's store step for POST /v1/players/me/tokens: ctx a struct
 * mint_add. */
static int mint_add(void *ctx, const struct store_token *t,
                     const uint8_t hash[STORE_TOKEN_HASH_LEN])
{
	struct mint_add *x = ctx;
	return store_token_add(x->st, x->player_key, t, hash);
}

int service_token_create(struct service *svc, const char *token,
                         const json_t *body, json_t **out, struct svc_err *err)
{
	static const char *const keys[] = {"label", NULL};
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0 && body)
		rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	json_t *lv = body ? json_object_get(body, "label") : NULL;
	struct store_token t = {0};
	if (!lv)
		snprintf(t.label, sizeof t.label, "unnamed");
	else if ((rc = svc__name_enforce(lv, "label", t.label, err)) < 0)
		return rc;
	char fresh[TOKEN_LEN + 1];
	t.created_ms = svc__now_ms();
	struct mint_add add = {svc->st, p.key};
	rc = token_mint(&t, fresh, mint_add, &add);
	if (rc == BD_ETOKENSFULL)
		rc = svc__fail(err, rc,
		               "a player holds at most %d tokens: revoke one "
		               "first",
		               STORE_TOKENS_MAX);
	json_t *o = rc == 0 ? token_json(&t, 0) : NULL;
	if (o)
		json_object_set_new(o, "token", json_string(fresh));
	sodium_memzero(fresh, sizeof fresh);
	return rc < 0 ? rc : svc__give(o, out);
}

struct tokens_list {
	json_t *tokens;
	int64_t current;
};

static int list_token(void *ctx, const struct store_token *t)
{
	struct tokens_list *x = ctx;
	return json_array_append_new(x->tokens,
	                             token_json(t, t->key == x->current)) < 0
	           ? BD_ENOMEM
	           : 0;
}

int service_tokens_list(struct service *svc, const char *token, json_t **out,
                        struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc < 0)
		return rc;
	struct tokens_list x = {json_array(), p.token_key};
	if (!x.tokens)
		return BD_ENOMEM;
	rc = store_tokens_each(svc->st, p.key, list_token, &x);
	if (rc < 0) {
		json_decref(x.tokens);
		return rc;
	}
	return svc__give(json_pack("{s:o}", "tokens", x.tokens), out);
}

int service_token_revoke(struct service *svc, const char *token, const char *id,
                         int64_t *player_key, struct svc_err *err)
{
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc < 0)
		return rc;
	rc = token_is_game_id(id) ? store_token_revoke(svc->st, p.key, id)
	                          : BD_ENOTFOUND;
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_ENOROUTE,
		                 "you hold no token with that id");
	if (rc == 0)
		*player_key = p.key;
	return rc;
}

/* ---- POST /v1/players/me/seats ---- */

int service_seat_attach(struct service *svc, const char *token,
                        const json_t *body, json_t **out, struct svc_err *err)
{
	static const char *const keys[] = {"token", NULL};
	struct store_player p;
	int rc = svc__player_of(svc, token, &p, err);
	if (rc == 0)
		rc = svc__body_keys(body, keys, err);
	if (rc < 0)
		return rc;
	const char *seat_token =
	    json_string_value(json_object_get(body, "token"));
	if (!seat_token || !seat_token[0] ||
	    strlen(seat_token) > TICKET_TOKEN_MAX)
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'token' must be a seat token, as POST "
		                 "/v1/games or a join gave it");
	uint8_t hash[STORE_TOKEN_HASH_LEN];
	struct store_attached a;
	token_hash(seat_token, hash);
	/* The game is known only once it ran: every hot read waits. */
	hot_write_begin_all(svc->hot);
	rc = store_seat_attach(svc->st, p.key, hash, &a);
	hot_write_end_all(svc->hot, rc == 0 ? a.game_id : NULL);
	if (rc == BD_ENOTFOUND)
		return svc__fail(err, BD_EFORBIDDEN,
		                 "that token holds no seat (it is not a seat "
		                 "token, was attached already, or its game is "
		                 "gone)");
	if (rc == BD_EALREADYSEATED)
		return svc__fail(err, rc,
		                 "you already hold a seat of that game, or "
		                 "one of its open seats is reserved for you (a "
		                 "player holds at most one seat of a game)");
	if (rc == BD_EBLOCKED)
		return svc__fail(
		    err, rc,
		    "a player of that game blocked you: you cannot "
		    "take a seat of their games");
	if (rc < 0)
		return rc;
	return svc__give(json_pack("{s:s,s:s,s:i,s:s}", "id", a.game_id, "game",
	                           a.rules_id, "seat", a.seat, "player", p.id),
	                 out);
}
