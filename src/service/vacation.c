/* vacation.c: GET/POST/PATCH/DELETE /v1/players/me/vacation (issue 32
 * goal 3; docs/notifications.md, "Vacation").  The balance and the
 * vacations are the store's (store_vacation.c); what a vacation does to
 * the clocks is clock.c's (svc__clock_vacation). */
#include <string.h>

#include "internal.h"

/* The longest vacation taken by hand, seconds: the cap of the balance. */
#define VAC_MAX_S (STORE_VAC_CAP_MS / 1000)
/* The shortest, seconds. */
#define VAC_MIN_S 3600

json_t *svc__vacation_json(const struct store_vacation *v)
{
	int on = v->end_ms != 0;
	return json_pack(
	    "{s:I,s:b,s:o,s:o,s:b,s:b,s:o}", "left_seconds",
	    (json_int_t)(v->left_ms / 1000), "on_vacation", on, "since",
	    on ? svc__iso_time(v->start_ms) : json_null(), "until",
	    on ? svc__iso_time(v->end_ms) : json_null(), "auto", v->auto_on,
	    "began_automatically", on && v->auto_began, "next_accrual",
	    v->left_ms < STORE_VAC_CAP_MS
	        ? svc__iso_time(v->accrued_ms + STORE_VAC_WEEK_MS)
	        : json_null());
}

/* The answer of every vacation endpoint: *v as GET shows it. */
static int give_vacation(const struct store_vacation *v, json_t **out)
{
	return svc__give(svc__vacation_json(v), out);
}

int service_vacation_get(struct service *svc, const char *token,
                         json_t **out, struct svc_err *err)
{
	struct store_player pl;
	struct store_vacation v;
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = store_vacation_get(svc->st, pl.key, svc__now_ms(), &v);
	return rc < 0 ? rc : give_vacation(&v, out);
}

/* The refusals of the store's vacation writes, worded. */
static int refused(int rc, const struct store_vacation *v,
                   struct svc_err *err)
{
	switch (rc) {
	case BD_EVACATIONLEFT:
		return svc__fail(err, rc,
		                 "only %lld seconds of vacation are left",
		                 (long long)(v->left_ms / 1000));
	case BD_EONVACATION:
		return svc__fail(err, rc,
		                 "you are on vacation already: DELETE "
		                 "/v1/players/me/vacation ends it");
	case BD_ENOTONVACATION:
		return svc__fail(err, rc, "you are not on vacation");
	case BD_ELIMIT:
		return svc__fail(err, rc,
		                 "at most %d vacations may begin in 7 days",
		                 STORE_VAC_BEGUN_MAX);
	default:
		return rc;
	}
}

int service_vacation_take(struct service *svc, const char *token,
                          const json_t *body, json_t **out,
                          struct svc_err *err)
{
	static const char *const fields[] = {"seconds", NULL};
	struct store_player pl;
	struct store_vacation v = {0};
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0 && body) /* (no body: until it ends) */
		rc = svc__body_keys(body, fields, err);
	if (rc < 0)
		return rc;
	const json_t *secs = json_object_get(body, "seconds");
	if (secs && (!json_is_integer(secs) ||
	             json_integer_value(secs) < VAC_MIN_S ||
	             json_integer_value(secs) > VAC_MAX_S))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'seconds' must be an integer from %d "
		                 "(an hour) to %lld (30 days); without it the "
		                 "vacation lasts until it is ended or what is "
		                 "left runs out",
		                 VAC_MIN_S, (long long)VAC_MAX_S);
	int64_t now = svc__now_ms(), len;
	if (secs) {
		len = (int64_t)json_integer_value(secs) * 1000;
	} else {
		if ((rc = store_vacation_get(svc->st, pl.key, now, &v)) < 0)
			return rc;
		if (v.end_ms)
			return refused(BD_EONVACATION, &v, err);
		if (v.left_ms <= 0)
			return refused(BD_EVACATIONLEFT, &v, err);
		len = v.left_ms; /* (a race: the store refuses it) */
	}
	rc = store_vacation_take(svc->st, pl.key, now, len, &v);
	if (rc == 0)
		svc__vacation_changed(svc);
	if (rc == BD_EVACATIONLEFT &&
	    store_vacation_get(svc->st, pl.key, now, &v) < 0)
		v.left_ms = 0;
	return rc < 0 ? refused(rc, &v, err) : give_vacation(&v, out);
}

int service_vacation_end(struct service *svc, const char *token,
                         json_t **out, struct svc_err *err)
{
	struct store_player pl;
	struct store_vacation v = {0};
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = store_vacation_end(svc->st, pl.key, svc__now_ms(), &v);
	if (rc == 0) { /* the deadlines it brought nearer: look now */
		svc__vacation_changed(svc);
		svc__clock_wake(svc, svc__now_ms());
	}
	return rc < 0 ? refused(rc, &v, err) : give_vacation(&v, out);
}

int service_vacation_patch(struct service *svc, const char *token,
                           const json_t *body, json_t **out,
                           struct svc_err *err)
{
	static const char *const fields[] = {"auto", NULL};
	struct store_player pl;
	struct store_vacation v = {0};
	int rc = svc__player_of(svc, token, &pl, err);
	if (rc == 0)
		rc = svc__body_keys(body, fields, err);
	if (rc < 0)
		return rc;
	const json_t *on = json_object_get(body, "auto");
	if (!json_is_boolean(on))
		return svc__fail(err, BD_EBADREQUEST,
		                 "field 'auto' must be true or false");
	rc = store_vacation_auto(svc->st, pl.key, svc__now_ms(),
	                         json_is_true(on), &v);
	return rc < 0 ? rc : give_vacation(&v, out);
}
