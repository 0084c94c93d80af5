/* record.h: checking a game record on its own (docs/records.md).
 *
 * A record is the JSON document GET /v1/games/{id}/record exports for a
 * finished game: its rules and version, seats, options, custom setup, the
 * secret that seeded its generator (and the commitment published at its
 * creation), the starting position as revealed at the end, every move
 * with its seat and time, and the result.  engine_record_check re-runs it
 * through the rules with nothing else: the server imports records with it
 * (POST /v1/games with "record") and tools/verify-record is a front end
 * for it.  Pure: no I/O.
 */
#ifndef BD_RECORD_H
#define BD_RECORD_H

#include "engine.h"
#include "secret.h"

/* The "format" member of every record this engine writes and reads. */
#define ENGINE_RECORD_FORMAT "boardd-record/1"

/* What engine_record_check found. */
struct record_check {
	const struct rules *rules;   /* the record's rules; borrowed */
	struct engine_secret secret; /* the secret it gives */
	struct engine_game *g;       /* the game replayed to its end, owned
	                                (engine_record_release), or NULL */
	long move;                   /* failure: the index in "moves" of the
	                                first move that fails, or -1 when
	                                the failure is not a move's */
	char rule[48];               /* failure: the rules section, or "" */
	char detail[BD_DETAIL_LEN];  /* failure: a sentence */
};

/* Checks `record` (borrowed): its shape; that the commitment is SHA-256 of
 * secret and salt (format 2); that the starting position dealt from the
 * secret is the recorded "start"; that every move is legal for its seat in
 * order (engine_game_apply); that the game is then over with the
 * recorded result, in the recorded final position ("end").  On 0, out->g is the
 * replayed game, over.  Else a negative code, out->g NULL and out->detail (and
 * move, rule) saying the first failure: BD_EUNKNOWNRULES (no such game),
 * BD_EBADOPTIONS, BD_EBADSETUP (as creating the game would say), BD_EBADRECORD
 * (anything else), BD_ENOMEM. */
int engine_record_check(const json_t *record, struct record_check *out);

/* Frees out->g; NULL-safe. */
void engine_record_release(struct record_check *out);

/* A position of a record ("start" at seq 0, "end" after the last move):
 * the view of g that everyone gets once the game is over.  New
 * reference. */
json_t *engine_record_view(const struct engine_game *g);

#endif
