/* err.h: the one error vocabulary shared by every layer.
 *
 * Functions return 0 on success and one of these negative codes on failure
 * (libuv style).  The HTTP layer maps each code to a status, a problem type
 * and a title in exactly one table (src/http/problem.c); no other file knows
 * HTTP statuses.
 */
#ifndef BD_ERR_H
#define BD_ERR_H

enum bd_err {
	BD_OK = 0,
	BD_EMALFORMED = -1,    /* the body is not well-formed JSON */
	BD_EBADREQUEST = -2,   /* well-formed, but not the documented shape */
	BD_ENOTFOUND = -3,     /* no such game */
	BD_ENOROUTE = -4,      /* no such path */
	BD_EMETHOD = -5,       /* path exists, method does not */
	BD_EUNKNOWNRULES = -6, /* "game" names no registered rules module */
	BD_EBADOPTIONS = -7,   /* options or seat count rejected */
	BD_EBADSETUP = -8,     /* custom setup impossible */
	BD_EUNAUTHORIZED = -9, /* no usable bearer token where one is needed */
	BD_EFORBIDDEN = -10,   /* token holds no seat in this game */
	BD_ENOTTURN = -11,     /* the caller's seat may not act now */
	BD_EILLEGAL = -12,     /* the rules forbid this action */
	BD_ESTALE = -13,    /* If-Match / expected_seq is not the current seq */
	BD_EGAMEOVER = -14, /* the game has finished */
	BD_ETOOLARGE = -15, /* request body over the cap */
	BD_EMEDIATYPE = -16,     /* body is not application/json */
	BD_EBUSY = -17,          /* storage busy: retry later */
	BD_ENOMEM = -18,         /* allocation failed */
	BD_EINTERNAL = -19,      /* a bug or an I/O failure */
	BD_ECONFLICT = -20,      /* a concurrent write won: internal, retried */
	BD_EWAITING = -21,       /* the game still has open seats */
	BD_ESEATTAKEN = -22,     /* the seat asked for is not open */
	BD_EALREADYSEATED = -23, /* the player already holds a seat here */
	BD_EREPLAY = -24,        /* an Idempotency-Key was recorded meanwhile */
	BD_EIDEMPOTENCY = -25,   /* same Idempotency-Key, different request */
	BD_ELIMIT = -26,   /* a rate limit or a stream budget is spent: 429 */
	BD_ENOSPACE = -27, /* the disk (or a file size limit) is full: 507 */
	BD_EUNAVAILABLE = -28, /* the store cannot be used now (locked by
	                          another process, file gone): 503 */
	BD_EUNSUPPORTED = -29, /* a transfer coding the server does not
	                          implement (only chunked is): 501 */
	BD_EDEADLINE = -30,    /* the seat's deadline passed; its timeout is
	                          applied by the server: 409 */
	BD_ESTARTED = -31,     /* the game has started (or ended): no longer
	                          cancelled or left: 409 */
	BD_ERESERVED = -32,    /* the seat (or every open seat) is reserved
	                          for another, invited player: 403 */
	BD_ENOTFINISHED = -33, /* the game has not ended: no record yet: 409 */
	BD_EBADRECORD = -34, /* a record that does not check (docs/records.md):
	                        422, naming the first move that fails */
	BD_EBOTGAMES = -35,  /* the player already runs as many games of bots
	                        only as allowed (--bot-games-per-player): 429 */
	BD_EBLOCKED = -36,   /* a player of the game blocked the caller
	                        (docs/matchmaking.md): 403 */
	BD_EPUSHFULL = -37,  /* the player holds STORE_PUSH_SUBS_MAX push
	                        subscriptions already: 409 */
	BD_EUNKNOWNCATEGORY = -40, /* no such rating category
	                              (docs/ratings.md): 404 */
	BD_EUNKNOWNPLAYER = -41,   /* no player has that id (a profile,
	                              a rating history): 404 */
	BD_EREMATCHED = -44, /* the game's rematch was made already
	                        (docs/matchmaking.md, "Rematch"): 409 */
	BD_ENOREMATCH = -45, /* the game cannot be rematched: a seat is held
	                        by no player (a seat token, an import): 409 */
	BD_EMAILLIMIT = -46, /* a confirmation code was mailed to that address
	                        in the last day, or the player asked for too
	                        many this hour (docs/notifications.md,
	                        "Email"): 429 */
	BD_EMAILCODE = -47,  /* the confirmation code is wrong, spent or
	                        expired, or none is pending: 422 */
	BD_EMAILADDR = -48,  /* not an email address boardd mails
	                        (docs/notifications.md, "Email"): 422 */
	BD_ESEEKSFULL = -49, /* the player holds as many open seeks as
	                        allowed (docs/matchmaking.md, "Quick
	                        match"): 409 */
	BD_ESEEKSELF = -50,  /* the player has an open seek of the same
	                        pool: the new one could only pair with
	                        their own: 409 */
	BD_EUNKNOWNSEEK = -51, /* no seek has that id: 404 */
	BD_EVACATIONLEFT = -52,  /* a vacation longer than the player has
	                            left (docs/notifications.md, "Vacation"):
	                            409 */
	BD_EONVACATION = -53,    /* the player is on vacation already: 409 */
	BD_ENOTONVACATION = -54, /* the player is not on vacation: 409 */
	BD_EVACATIONBEGAN = -55, /* store_move_append: an automatic vacation
	                            began instead of the timeout (the clock
	                            scheduler's, never an answer): 409 */
	BD_ELINKCODE = -56,      /* the link code is wrong, used or expired,
	                            or its player may not sign in: one answer
	                            for all (docs/matchmaking.md, "Finding
	                            players, linking devices"): 422 */
	BD_ELINKCODESFULL = -57, /* the player holds as many live link codes
	                            as allowed (STORE_LINK_CODES_MAX): 409 */
	BD_ETOKENSFULL = -58,    /* the player holds as many tokens as
	                            allowed (STORE_TOKENS_MAX): 409, a cap
	                            and not a rate (no Retry-After) */
};

/* Longest human-readable detail an error carries, including the NUL. */
#define BD_DETAIL_LEN 256

#endif
