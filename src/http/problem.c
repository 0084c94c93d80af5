/* problem.c: the one table from bd_err to HTTP status and RFC 9457
 * problem type.  Types are stable URNs; clients switch on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"

struct problem_kind {
	int code;
	unsigned status;
	const char *slug;  /* the type is "urn:boardd:problem:<slug>" */
	const char *title; /* short, the same for every occurrence */
};

static const struct problem_kind kinds[] = {
    {BD_EMALFORMED, 400, "malformed-json", "Malformed JSON"},
    {BD_EBADREQUEST, 400, "bad-request", "Bad request"},
    {BD_EUNAUTHORIZED, 401, "unauthorized", "Bearer token required"},
    {BD_EFORBIDDEN, 403, "forbidden", "Token not valid for this resource"},
    {BD_ENOTFOUND, 404, "unknown-game", "Unknown game"},
    {BD_ENOROUTE, 404, "not-found", "No such resource"},
    {BD_EMETHOD, 405, "method-not-allowed", "Method not allowed"},
    {BD_ENOTTURN, 409, "not-your-turn", "Not your turn"},
    {BD_EGAMEOVER, 409, "game-over", "Game over"},
    {BD_ECONFLICT, 409, "conflict", "Conflicting write"},
    {BD_EREPLAY, 409, "conflict", "Conflicting write"},
    {BD_EWAITING, 409, "waiting-for-players", "Waiting for players"},
    {BD_ESEATTAKEN, 409, "seat-taken", "Seat not open"},
    {BD_EALREADYSEATED, 409, "already-seated", "Already seated"},
    {BD_ESTALE, 412, "stale-state", "Stale state"},
    {BD_ETOOLARGE, 413, "payload-too-large", "Payload too large"},
    {BD_EMEDIATYPE, 415, "unsupported-media-type", "Unsupported media type"},
    {BD_EUNKNOWNRULES, 422, "unknown-rules", "Unknown rules"},
    {BD_EBADOPTIONS, 422, "bad-options", "Bad options"},
    {BD_EBADSETUP, 422, "bad-setup", "Impossible setup"},
    {BD_EILLEGAL, 422, "illegal-action", "Illegal action"},
    {BD_EIDEMPOTENCY, 422, "idempotency-key-reused", "Idempotency-Key reused"},
    {BD_ELIMIT, 429, "too-many-requests", "Too many requests"},
    {BD_ENOSPACE, 507, "insufficient-storage", "Insufficient storage"},
    {BD_EUNAVAILABLE, 503, "unavailable", "Service unavailable"},
    {BD_EBUSY, 503, "busy", "Busy"},
    {BD_EUNSUPPORTED, 501, "not-implemented", "Not implemented"},
    {BD_EDEADLINE, 409, "deadline-passed", "Deadline passed"},
    {BD_ESTARTED, 409, "game-started", "Game already started"},
    {BD_ERESERVED, 403, "seat-reserved", "Seat reserved"},
    {BD_ENOTFINISHED, 409, "not-finished", "Game not finished"},
    {BD_EBADRECORD, 422, "bad-record", "Record does not check"},
    {BD_EBLOCKED, 403, "blocked", "Blocked by a player"},
    {BD_EBOTGAMES, 429, "too-many-bot-games", "Too many bot games"},
    {BD_EPUSHFULL, 409, "push-subscriptions-full",
     "Too many push subscriptions"},
    {BD_EREMATCHED, 409, "already-rematched", "Already rematched"},
    {BD_ENOREMATCH, 409, "no-rematch", "Game cannot be rematched"},
    {BD_EMAILLIMIT, 429, "mail-rate-limited", "Too many confirmation mails"},
    {BD_EMAILCODE, 422, "invalid-code", "Invalid confirmation code"},
    {BD_EMAILADDR, 422, "invalid-email-address", "Invalid email address"},
    {BD_ESEEKSFULL, 409, "too-many-seeks", "Too many open seeks"},
    {BD_ESEEKSELF, 409, "seeking-oneself", "Seeking against oneself"},
    {BD_EUNKNOWNSEEK, 404, "unknown-seek", "Unknown seek"},
    {BD_EVACATIONLEFT, 409, "not-enough-vacation", "Not enough vacation left"},
    {BD_EONVACATION, 409, "on-vacation", "Already on vacation"},
    {BD_ENOTONVACATION, 409, "not-on-vacation", "Not on vacation"},
    {BD_EVACATIONBEGAN, 409, "vacation-began", "A vacation began instead"},
    {BD_ELINKCODE, 422, "invalid-link-code", "Invalid link code"},
    {BD_ELINKCODESFULL, 409, "too-many-link-codes", "Too many link codes"},
    {BD_ETOKENSFULL, 409, "too-many-tokens", "Too many tokens"},
    {BD_EUNKNOWNCATEGORY, 404, "unknown-category",
     "Unknown rating category"},
    {BD_EUNKNOWNPLAYER, 404, "unknown-player", "Unknown player"},
    {BD_ENOMEM, 503, "out-of-memory", "Out of memory"},
    {BD_EINTERNAL, 500, "internal", "Internal error"},
};

static const struct problem_kind *kind_of(int code)
{
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (kinds[i].code == code)
			return &kinds[i];
	return &kinds[sizeof kinds / sizeof *kinds - 1]; /* internal */
}

/* A JSON string of s; bytes that are not valid UTF-8 (a path that
 * decodes to them, a detail cut mid-character) become '?'. */
static json_t *text_json(const char *s)
{
	json_t *v = json_string(s);
	if (v)
		return v;
	char *c = strdup(s);
	if (!c)
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = json_string(c);
	free(c);
	return v;
}

/* The detail of a problem whose caller gave none: for the storage
 * faults a client can act on, what happened and what to do; else the
 * title. */
static const char *default_detail(int code, const struct problem_kind *k)
{
	switch (code) {
	case BD_ENOSPACE:
		return "no space left to store this change (the disk or the "
		       "server's file size limit is full); nothing was "
		       "changed and reads still work: retry later";
	case BD_EBUSY:
		return "the database's write lock was held for too long "
		       "(by another write or another process); nothing was "
		       "changed: retry";
	case BD_EUNAVAILABLE:
		return "the server cannot write its database now (its file "
		       "was deleted or replaced); nothing was changed";
	}
	return k->title;
}

void problem_reply(struct http_reply *rep, int code, const struct svc_err *err,
                   const char *instance)
{
	const struct problem_kind *k = kind_of(code);
	char type[96];
	snprintf(type, sizeof type, "urn:boardd:problem:%s", k->slug);
	const char *detail =
	    err && err->detail[0] ? err->detail : default_detail(code, k);
	json_t *p =
	    json_pack("{s:s,s:s,s:i,s:o,s:o}", "type", type, "title", k->title,
	              "status", (int)k->status, "detail", text_json(detail),
	              "instance", text_json(instance ? instance : "/"));
	if (p && err && err->rule[0])
		json_object_set_new(p, "rule", json_string(err->rule));
	if (p && err && err->has_move)
		json_object_set_new(p, "move",
		                    json_integer((json_int_t)err->move));
	if (p && err && err->has_seq)
		json_object_set_new(p, "seq",
		                    json_integer((json_int_t)err->seq));
	if (p && code == BD_ETOOLARGE)
		json_object_set_new(p, "limit",
		                    json_integer((json_int_t)http_body_max(
		                        instance ? instance : "/")));
	rep->status = k->status;
	json_decref(rep->body);
	rep->body = p;
	rep->problem = 1;
	/* Answers that mean "try again later" say when, unless the caller
	 * said already: a lock is released soon; space or a database file
	 * need an operator. */
	if (!rep->retry_after && code == BD_EBUSY)
		rep->retry_after = 1;
	else if (!rep->retry_after &&
	         (code == BD_ENOSPACE || code == BD_EUNAVAILABLE))
		rep->retry_after = 30;
}
