/* store_rematch.c: a finished game's rematch: offers, acceptances,
 * declines, and the new game made in the transaction of the last
 * acceptance (sql/0027_rematch.sql).  See store.h, "rematches". */
#include <string.h>

#include "store_int.h"

/* A game's rematch as ST_REMATCH_GET reads it. */
struct rematch_row {
	int found;
	int finished;                /* 1: status 'finished' */
	unsigned seats;              /* accepted (bit set) */
	int by;                      /* first offer's seat, or -1 */
	char game[STORE_ID_LEN + 1]; /* the rematch's id, or "" */
	int nseats;                  /* the game's seat count */
	char id[STORE_ID_LEN + 1];   /* the game's own id */
};

static int read_rematch(const struct row *st, void *ctx)
{
	struct rematch_row *r = ctx;
	const char *status = store__col_text(st, 0);
	r->found = 1;
	r->finished = status && strcmp(status, "finished") == 0;
	r->seats = (unsigned)store__col_i64(st, 1);
	r->by = store__col_int(st, 2);
	r->nseats = store__col_int(st, 4);
	int rc = store__col_copy(st, 3, r->game, sizeof r->game);
	return rc == 0 ? store__col_copy(st, 5, r->id, sizeof r->id) : rc;
}

static int rematch_get(struct conn *c, int64_t key, struct rematch_row *r)
{
	memset(r, 0, sizeof *r);
	int rc =
	    store__run(c, ST_REMATCH_GET, ARGS(A_I64(key)), read_rematch, r);
	return rc == 0 && !r->found ? BD_ENOTFOUND : rc;
}

/* Why an UPDATE that changed nothing changed nothing: the game is not
 * over, or was rematched; 0 when neither (nothing to do). */
static int refusal(const struct rematch_row *r)
{
	if (!r->finished)
		return BD_ENOTFINISHED;
	return r->game[0] ? BD_EREMATCHED : 0;
}

/* What store_rematch_offer's transaction does, and what it found. */
struct offer_ctx {
	struct store *s;
	int64_t key;
	int seat;
	unsigned accepting; /* the seat's bit and the automatic ones */
	const struct store_game *next;
	const struct store_seat *seats;
	struct store_rematch out; /* out */
	int64_t created;          /* out: the new game's key, or 0 */
};

/* Inserts the rematch `x->next` of game r and links the two. */
static int rematch_make(struct conn *c, struct offer_ctx *x,
                        const struct rematch_row *r)
{
	int64_t key = 0;
	int rc = store__game_insert(c, x->s, x->next, x->seats, &key);
	if (rc == 0)
		rc = store__run(c, ST_REMATCH_OF,
		                ARGS(A_I64(key), A_TEXT(r->id)), NULL, NULL);
	if (rc == 0)
		rc = store__run(c, ST_REMATCH_LINK,
		                ARGS(A_I64(x->key), A_TEXT(x->next->id)), NULL,
		                NULL);
	/* the row is locked (PostgreSQL) or the database is (SQLite): the
	 * rematch cannot have been made meanwhile */
	if (rc == 0 && store__changes(c) != 1)
		rc = BD_EINTERNAL;
	if (rc == 0)
		x->created = key;
	return rc;
}

static int offer_tx(struct conn *c, void *ctx)
{
	struct offer_ctx *x = ctx;
	struct one_i64 blocked = {0};
	struct rematch_row r = {0};
	int rc = store__run(c, ST_REMATCH_BLOCKED, ARGS(A_I64(x->key)),
	                    store__read_i64, &blocked);
	if (rc == 0)
		rc = store__run(
		    c, ST_REMATCH_OFFER,
		    ARGS(A_I64(x->key), A_I64(x->accepting), A_I64(x->seat)),
		    NULL, NULL);
	int changed = rc == 0 && store__changes(c) > 0;
	if (rc == 0)
		rc = rematch_get(c, x->key, &r);
	if (rc == 0 && !changed)
		rc = refusal(&r);
	/* A block refuses a new offer, not a retry of one made before
	 * (that changes nothing) nor a rematch made already. */
	if (rc == 0 && changed && blocked.v > 0)
		rc = BD_EBLOCKED;
	unsigned all = r.nseats > 0 && r.nseats < 32 ? (1u << r.nseats) - 1 : 0;
	if (rc == 0 && changed && all && (r.seats & all) == all) {
		rc = rematch_make(c, x, &r);
		if (rc == 0)
			rc = rematch_get(c, x->key, &r);
	}
	if (rc == 0 && changed)
		rc = store__run(
		    c, ST_EV_REMATCH,
		    ARGS(A_I64(x->key), A_I64(x->seat), A_I64(store__now_ms())),
		    NULL, NULL);
	if (rc == 0 && changed)
		rc = store__note_game(c, x->key);
	if (rc < 0)
		return rc;
	x->out.seats = r.seats;
	x->out.by = r.by;
	memcpy(x->out.game, r.game, sizeof r.game);
	x->out.changed = changed;
	return 0;
}

int store_rematch_offer(struct store *s, int64_t key, int seat,
                        unsigned auto_seats, const struct store_game *next,
                        const struct store_seat *seats,
                        struct store_rematch *out, int64_t *created)
{
	if (seat < 0 || seat >= 31 || !next || !seats)
		return BD_EINTERNAL;
	struct offer_ctx x = {.s = s,
	                      .key = key,
	                      .seat = seat,
	                      .accepting = (1u << seat) | auto_seats,
	                      .next = next,
	                      .seats = seats};
	int rc = store__write_tx(s, offer_tx, &x);
	if (rc == 0 && out)
		*out = x.out;
	if (rc == 0 && created)
		*created = x.created;
	return rc;
}

/* What store_rematch_decline's transaction does. */
struct decline_ctx {
	int64_t key;
	int seat;
	int changed; /* out */
};

static int decline_tx(struct conn *c, void *ctx)
{
	struct decline_ctx *x = ctx;
	struct rematch_row r = {0};
	int rc =
	    store__run(c, ST_REMATCH_DECLINE, ARGS(A_I64(x->key)), NULL, NULL);
	x->changed = rc == 0 && store__changes(c) > 0;
	if (rc == 0 && !x->changed) {
		rc = rematch_get(c, x->key, &r);
		return rc < 0 ? rc : refusal(&r);
	}
	if (rc == 0)
		rc = store__run(
		    c, ST_EV_REMATCH,
		    ARGS(A_I64(x->key), A_I64(x->seat), A_I64(store__now_ms())),
		    NULL, NULL);
	if (rc == 0)
		rc = store__note_game(c, x->key);
	return rc;
}

int store_rematch_decline(struct store *s, int64_t key, int seat, int *changed)
{
	struct decline_ctx x = {key, seat, 0};
	int rc = store__write_tx(s, decline_tx, &x);
	if (rc == 0 && changed)
		*changed = x.changed;
	return rc;
}
