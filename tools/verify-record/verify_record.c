/* verify-record: checks a game record (docs/records.md) on its own, with
 * the engine and the rules modules and nothing of the server.
 *
 *   build/release/verify-record RECORD.json     (or - for stdin)
 *
 * Checks that the commitment is SHA-256(secret || salt), that the secret
 * deals the recorded starting position, that every move is legal in order
 * and that the game ends with the recorded result
 * (src/engine/record.h).  Prints one line: "OK: …" and exits 0, or
 * "FAIL: …" naming the first failure (and the move's index) and exits 1;
 * 2 for a file it cannot read as JSON. */
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "engine/record.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RECORD.json (or - for stdin)\n",
		        argv[0]);
		return 2;
	}
	if (sodium_init() < 0) {
		fprintf(stderr, "verify-record: libsodium does not start\n");
		return 2;
	}
	json_error_t jerr;
	json_t *record = strcmp(argv[1], "-") == 0
	                     ? json_loadf(stdin, 0, &jerr)
	                     : json_load_file(argv[1], 0, &jerr);
	if (!record) {
		printf("FAIL: %s is not JSON: %s (line %d)\n", argv[1],
		       jerr.text, jerr.line);
		return 2;
	}
	struct record_check chk;
	int rc = engine_record_check(record, &chk);
	if (rc < 0) {
		if (chk.move >= 0)
			printf("FAIL: move %ld: %s%s%s\n", chk.move, chk.detail,
			       chk.rule[0] ? " " : "", chk.rule);
		else
			printf("FAIL: %s\n", chk.detail);
		json_decref(record);
		return 1;
	}
	const char *id = json_string_value(json_object_get(record, "id"));
	printf("OK: %s game %s, %zu moves, seed format %d%s, result as "
	       "recorded\n",
	       chk.rules->id, id ? id : "?",
	       json_array_size(json_object_get(record, "moves")),
	       chk.secret.format,
	       chk.secret.format == ENGINE_SEED_SECRET ? " (commitment checked)"
	                                               : "");
	engine_record_release(&chk);
	json_decref(record);
	return 0;
}
