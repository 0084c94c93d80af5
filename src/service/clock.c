/* clock.c: turn clocks.  A timed game gives each decision of a seat (a
 * turn, or an off-turn decision such as Quantum's card decisions) a
 * deadline: the moment the decision began, plus move_seconds, plus the
 * seat's bank.  Time beyond move_seconds comes out of the bank; each move
 * of the seat then adds increment_seconds to its bank.  So
 *   {"move_seconds":S}              a fixed S per decision (correspondence);
 *   {"bank_seconds":B,"increment_seconds":I}  a Fischer clock;
 *   both                            S free per decision, then the bank.
 * The stored forms are sql/0006_clocks.sql's.  Seats bots hold have no
 * deadline (they move at once); nor does anyone while a seat is open.
 * Only the stored state is read here: replay never reads a clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CLOCK_MAX_S (30 * 24 * 3600) /* 30 days, every duration's cap */

/* Reads an optional duration field of o into *ms; 0 when absent. */
static int duration(const json_t *o, const char *name, int64_t lo, int64_t *ms,
                    struct svc_err *err)
{
	json_t *v = json_object_get(o, name);
	*ms = 0;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > CLOCK_MAX_S)
		return svc__fail(
		    err, BD_EBADOPTIONS,
		    "clock.%s must be an integer number of seconds "
		    "from %lld to %d (30 days)",
		    name, (long long)lo, CLOCK_MAX_S);
	*ms = (int64_t)json_integer_value(v) * 1000;
	return 0;
}

int svc__clock_parse(const json_t *clock, const json_t *on_timeout,
                     unsigned min_s, char **text, struct svc_err *err)
{
	static const char *const keys[] = {"move_seconds", "bank_seconds",
	                                   "increment_seconds", "vacation",
	                                   NULL};
	*text = NULL;
	if (!clock || json_is_null(clock)) {
		if (on_timeout)
			return svc__fail(err, BD_EBADOPTIONS,
			                 "field 'on_timeout' needs a 'clock'");
		return 0;
	}
	if (!json_is_object(clock))
		return svc__fail(
		    err, BD_EBADOPTIONS,
		    "field 'clock' must be an object: "
		    "{\"move_seconds\":S} and/or "
		    "{\"bank_seconds\":B,\"increment_seconds\":I}");
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)clock, k, v) {
		int known = 0;
		for (int i = 0; keys[i]; i++)
			known |= strcmp(k, keys[i]) == 0;
		if (!known)
			return svc__fail(
			    err, BD_EBADOPTIONS,
			    "clock has no field '%.64s' (move_seconds, "
			    "bank_seconds, increment_seconds, vacation)",
			    k);
	}
	struct svc_clock c = {0};
	int rc = duration(clock, "move_seconds", min_s, &c.move_ms, err);
	if (rc == 0)
		rc = duration(clock, "bank_seconds", min_s, &c.bank_ms, err);
	if (rc == 0)
		rc = duration(clock, "increment_seconds", 0, &c.increment_ms,
		              err);
	if (rc < 0)
		return rc;
	json_t *vac = json_object_get(clock, "vacation");
	if (vac && !json_is_boolean(vac))
		return svc__fail(err, BD_EBADOPTIONS,
		                 "clock.vacation must be true (a player's "
		                 "vacation stops a correspondence clock) or "
		                 "false (it never stops)");
	if (!c.move_ms && !c.bank_ms)
		return svc__fail(err, BD_EBADOPTIONS,
		                 "a clock needs move_seconds, bank_seconds or "
		                 "both");
	if (json_object_get(clock, "increment_seconds") && !c.bank_ms)
		return svc__fail(
		    err, BD_EBADOPTIONS,
		    "clock.increment_seconds is added to a bank: it "
		    "needs bank_seconds");
	const char *how = on_timeout ? json_string_value(on_timeout) : "bot";
	if (!how || (strcmp(how, "bot") != 0 && strcmp(how, "forfeit") != 0))
		return svc__fail(err, BD_EBADOPTIONS,
		                 "field 'on_timeout' must be \"bot\" or "
		                 "\"forfeit\"");
	if (strcmp(how, "bot") == 0 && !c.move_ms &&
	    c.increment_ms < (int64_t)min_s * 1000)
		return svc__fail(
		    err, BD_EBADOPTIONS,
		    "with on_timeout \"bot\" and no move_seconds, "
		    "increment_seconds must be at least %u: a "
		    "timeout empties the bank, and the player must "
		    "get time for the next move",
		    min_s);
	json_t *o =
	    json_pack("{s:I,s:I,s:I,s:s}", "move_ms", (json_int_t)c.move_ms,
	              "bank_ms", (json_int_t)c.bank_ms, "increment_ms",
	              (json_int_t)c.increment_ms, "on_timeout", how);
	if (o && json_is_false(vac)) /* (absent: vacations stop it) */
		json_object_set_new(o, "vacation", json_false());
	*text = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(o);
	return *text ? 0 : BD_ENOMEM;
}

static int64_t ms_field(const json_t *o, const char *name)
{
	json_t *v = json_object_get(o, name);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

/* Reads a stored state {"since":[…],"bank":[…]} of `seats` seats. */
static int read_state(const char *text, int seats, struct svc_clock_state *s)
{
	json_t *o = json_loads(text, 0, NULL);
	json_t *since = json_object_get(o, "since");
	json_t *bank = json_object_get(o, "bank");
	int rc = json_array_size(since) == (size_t)seats &&
	                 json_array_size(bank) == (size_t)seats
	             ? 0
	             : BD_EINTERNAL;
	for (int i = 0; rc == 0 && i < seats; i++) {
		json_t *a = json_array_get(since, (size_t)i);
		json_t *b = json_array_get(bank, (size_t)i);
		if (!json_is_integer(a) || !json_is_integer(b))
			rc = BD_EINTERNAL;
		else {
			s->since[i] = (int64_t)json_integer_value(a);
			s->bank[i] = (int64_t)json_integer_value(b);
		}
	}
	json_decref(o);
	return rc;
}

int svc__clock_load(const struct store_game *row, struct svc_clock *c,
                    struct svc_clock_state *s)
{
	memset(c, 0, sizeof *c);
	memset(s, 0, sizeof *s);
	if (!row->clock)
		return 0;
	json_t *o = json_loads(row->clock, 0, NULL);
	c->move_ms = ms_field(o, "move_ms");
	c->bank_ms = ms_field(o, "bank_ms");
	c->increment_ms = ms_field(o, "increment_ms");
	const char *how = json_string_value(json_object_get(o, "on_timeout"));
	c->forfeit = how && strcmp(how, "forfeit") == 0;
	c->vacation_off = json_is_false(json_object_get(o, "vacation"));
	c->vacation = c->move_ms >= SVC_CORRESPONDENCE_MS && !c->vacation_off;
	int ok = how && c->move_ms >= 0 && c->bank_ms >= 0 &&
	         c->increment_ms >= 0 && row->seats <= ENGINE_MAX_SEATS;
	json_decref(o);
	if (!ok)
		return BD_EINTERNAL;
	c->on = 1;
	if (row->clock_state)
		return read_state(row->clock_state, row->seats, s);
	/* Nobody moved yet: full banks, and every timed seat to act began
	 * when the game started (its last seat taken, or its creation). */
	unsigned timed = svc__clock_timed(row, row->to_act);
	for (int i = 0; i < row->seats; i++) {
		s->bank[i] = c->bank_ms;
		s->since[i] = (timed >> i) & 1 ? row->updated_ms : 0;
	}
	return 0;
}

unsigned svc__clock_timed(const struct store_game *row, unsigned to_act)
{
	if (!row->clock || row->open_seats)
		return 0;
	return to_act & ~row->bot_seats;
}

int64_t svc__clock_deadline(const struct svc_clock *c,
                            const struct svc_clock_state *s, int seat)
{
	if (!c->on || s->since[seat] == 0)
		return 0;
	return s->since[seat] + c->move_ms + s->bank[seat];
}

int64_t svc__clock_earliest(const struct svc_clock *c,
                            const struct svc_clock_state *s, int seats,
                            int *seat)
{
	int64_t best = 0;
	for (int i = 0; i < seats; i++) {
		int64_t d = svc__clock_deadline(c, s, i);
		if (d && (!best || d < best)) {
			best = d;
			if (seat)
				*seat = i;
		}
	}
	return best;
}

void svc__clock_advance(const struct svc_clock *c, struct svc_clock_state *s,
                        int seats, int mover, int64_t until_ms, int64_t now_ms,
                        unsigned after)
{
	if (!c->on)
		return;
	if (mover >= 0 && mover < seats && s->since[mover]) {
		int64_t over = until_ms - s->since[mover] - c->move_ms;
		if (over > 0)
			s->bank[mover] =
			    over >= s->bank[mover] ? 0 : s->bank[mover] - over;
		if (c->bank_ms)
			s->bank[mover] += c->increment_ms;
		s->since[mover] = 0; /* that decision is over */
	}
	for (int i = 0; i < seats; i++) {
		if (!((after >> i) & 1))
			s->since[i] = 0;
		else if (!s->since[i])
			s->since[i] = now_ms; /* a new decision begins */
	}
}

int64_t svc__clock_soon(const struct svc_clock *c,
                        const struct svc_clock_state *s, int seat)
{
	int64_t d = svc__clock_deadline(c, s, seat);
	if (!d)
		return 0;
	int64_t lead = (d - s->since[seat]) / STORE_SOON_SHARE;
	return d - (lead < STORE_SOON_CAP_MS ? lead : STORE_SOON_CAP_MS);
}

int64_t svc__clock_soon_earliest(const struct svc_clock *c,
                                 const struct svc_clock_state *s, int seats)
{
	int64_t best = 0;
	for (int i = 0; i < seats; i++) {
		int64_t w = svc__clock_soon(c, s, i);
		if (w && (!best || w < best))
			best = w;
	}
	return best;
}

int svc__clock_warn(struct service *svc, const struct loaded *l)
{
	struct svc_clock c;
	struct svc_clock_state s;
	if (!l->row.clock || l->row.open_seats || l->row.seq != l->g->seq)
		return 0;
	if (svc__clock_load(&l->row, &c, &s) < 0)
		return BD_EINTERNAL;
	struct svc_vacations *v = c.vacation ? malloc(sizeof *v) : NULL;
	int rc = c.vacation && !v ? BD_ENOMEM : 0;
	if (v && rc == 0)
		rc = svc__vacations_load(svc, &l->row, &c, &s, v);
	svc__clock_vacation(&c, &s, l->row.seats, v, -1, INT64_MAX);
	free(v);
	int64_t now = svc__now_ms(), next = 0;
	for (int i = 0; rc == 0 && i < l->row.seats; i++) {
		int64_t d = svc__clock_deadline(&c, &s, i);
		int64_t w = svc__clock_soon(&c, &s, i);
		if (!d)
			continue;
		if (w > now) {
			if (!next || w < next)
				next = w;
		} else if (d > now) {
			/* Once per deadline (the store keeps count); a
			 * deadline already past gets its timeout, no
			 * warning. */
			rc = store_event_deadline_soon(svc->st, l->row.key,
			                               l->row.seq, i, d, NULL);
		}
	}
	if (rc == 0)
		rc = store_game_soon(svc->st, l->row.key, l->row.seq, next);
	if (rc == 0 && next)
		svc__clock_wake(svc, next);
	return rc;
}

char *svc__clock_state_text(const struct svc_clock *c,
                            const struct svc_clock_state *s, int seats)
{
	if (!c->on)
		return NULL;
	json_t *since = json_array(), *bank = json_array();
	for (int i = 0; since && bank && i < seats; i++) {
		json_array_append_new(since, json_integer(s->since[i]));
		json_array_append_new(bank, json_integer(s->bank[i]));
	}
	json_t *o = json_pack("{s:o,s:o}", "since", since, "bank", bank);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return text;
}

/* Seat's vacation being taken at v->now_ms as the view shows it,
 * {"since", "until"}, or null. */
static json_t *vacation_json(const struct svc_vacations *v, int seat)
{
	for (int k = 0; v && k < v->n[seat]; k++)
		if (v->start[seat][k] <= v->now_ms &&
		    v->end[seat][k] > v->now_ms)
			return json_pack("{s:o,s:o}", "since",
			                 svc__iso_time(v->start[seat][k]),
			                 "until",
			                 svc__iso_time(v->end[seat][k]));
	return json_null();
}

json_t *svc__clock_json(struct service *svc, const struct store_game *row)
{
	struct svc_clock c;
	struct svc_clock_state s;
	struct svc_vacations *v = NULL;
	if (!row->clock)
		return json_null();
	if (svc__clock_load(row, &c, &s) < 0)
		return NULL;
	/* Vacations show only in a running game: only its seats_version
	 * moves when one begins, ends or runs out (ST_VAC_BUMP,
	 * games.seats_until_ms), and only its clocks stop.  A waiting or
	 * finished game's view would show one under an ETag that does not
	 * change with it. */
	if (svc && strcmp(row->status, "active") == 0 &&
	    (v = malloc(sizeof *v)) == NULL)
		return NULL;
	if (v && svc__vacations_load(svc, row, &c, &s, v) < 0) {
		free(v);
		return NULL;
	}
	svc__clock_vacation(&c, &s, row->seats, v, -1, INT64_MAX);
	json_t *o =
	    json_pack("{s:s}", "on_timeout", c.forfeit ? "forfeit" : "bot");
	/* (a seek's clock, svc NULL, is shown as asked) */
	if (o && (svc || c.vacation_off))
		json_object_set_new(o, "vacation", json_boolean(c.vacation));
	if (o && c.move_ms)
		json_object_set_new(o, "move_seconds",
		                    json_integer(c.move_ms / 1000));
	if (o && c.bank_ms) {
		json_object_set_new(o, "bank_seconds",
		                    json_integer(c.bank_ms / 1000));
		json_object_set_new(o, "increment_seconds",
		                    json_integer(c.increment_ms / 1000));
	}
	json_t *seats = json_array();
	for (int i = 0; seats && i < row->seats; i++) {
		int64_t d = svc__clock_deadline(&c, &s, i);
		json_t *e = json_pack("{s:i,s:o}", "seat", i, "deadline",
		                      d ? svc__iso_time(d) : json_null());
		if (e && c.bank_ms)
			json_object_set_new(e, "bank_ms",
			                    json_integer(s.bank[i]));
		if (e && svc)
			json_object_set_new(e, "vacation", vacation_json(v, i));
		json_array_append_new(seats, e);
	}
	free(v);
	if (o && json_object_set_new(o, "seats", seats) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void svc__vacation_changed(struct service *svc)
{
	hot_write_begin_all(svc->hot);
	hot_clear(svc->hot);
	hot_write_end_all(svc->hot, NULL);
}

/* store_vacation_seats' callback: one row into struct svc_vacations. */
static int vacation_row(void *ctx, const struct store_vacation_row *r)
{
	struct svc_vacations *v = ctx;
	if (r->seat < 0 || r->seat >= ENGINE_MAX_SEATS)
		return 0;
	v->player[r->seat] = r->player_key;
	v->last[r->seat] = r->last_key;
	int k = v->n[r->seat];
	if (r->end_ms && k < SVC_VAC_MAX) {
		v->start[r->seat][k] = r->start_ms;
		v->end[r->seat][k] = r->end_ms;
		v->n[r->seat] = k + 1;
	}
	return 0;
}

int svc__vacations_load(struct service *svc, const struct store_game *row,
                        const struct svc_clock *c,
                        const struct svc_clock_state *s,
                        struct svc_vacations *v)
{
	memset(v, 0, sizeof *v);
	v->now_ms = svc__now_ms();
	if (!c->on)
		return 0;
	int64_t after = v->now_ms;
	for (int i = 0; i < row->seats && i < ENGINE_MAX_SEATS; i++)
		if (s->since[i] && s->since[i] < after)
			after = s->since[i];
	return store_vacation_seats(svc->st, row->key, after, vacation_row, v);
}

void svc__clock_vacation(const struct svc_clock *c, struct svc_clock_state *s,
                         int seats, const struct svc_vacations *v, int seat,
                         int64_t clip_ms)
{
	if (!c->on || !c->vacation || !v)
		return;
	for (int i = 0; i < seats && i < ENGINE_MAX_SEATS; i++) {
		int64_t since = s->since[i];
		if ((seat >= 0 && i != seat) || !since)
			continue;
		/* d: the deadline moved by the whole vacations so far */
		int64_t d = since + c->move_ms + s->bank[i], shift = 0;
		for (int k = 0; k < v->n[i]; k++) {
			int64_t a = v->start[i][k], b = v->end[i][k];
			int64_t lo = a > since ? a : since;
			if (b <= since || a > d)
				continue;
			d += b - lo;
			int64_t hi = b < clip_ms ? b : clip_ms;
			if (hi > lo)
				shift += hi - lo;
		}
		s->since[i] = since + shift;
	}
}
