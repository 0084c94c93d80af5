/* fuzz_setup.c: libFuzzer target for game creation.  The input is a game
 * id byte, a seat count byte, then "options\nsetup" as JSON texts.  Every
 * registered rules module must either refuse with BD_EBADOPTIONS or
 * BD_EBADSETUP and a detail, or build a game whose listed actions are
 * accepted; nothing may crash or leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	if (size < 2)
		return 0;
	const struct rules *r = all[data[0] % n];
	int seats = (int)(data[1] % 6); /* out-of-range counts too */
	const char *text = (const char *)data + 2;
	size_t len = size - 2;
	const char *nl = memchr(text, '\n', len);
	size_t olen = nl ? (size_t)(nl - text) : len;
	json_t *options = json_loadb(text, olen, 0, NULL);
	json_t *setup = nl ? json_loadb(nl + 1, len - olen - 1, 0, NULL) : NULL;
	struct engine_game *g = NULL;
	struct rules_why why = {"", ""};
	int rc =
	    engine_game_new(r, seats, json_is_object(options) ? options : NULL,
	                    json_is_object(setup) ? setup : NULL, 42, &g, &why);
	if (rc < 0 &&
	    (rc != BD_EBADOPTIONS && rc != BD_EBADSETUP && rc != BD_ENOMEM))
		abort(); /* an undocumented refusal */
	if (rc < 0 && rc != BD_ENOMEM && !why.detail[0])
		abort(); /* a refusal must say why */
	for (int seat = 0; rc == 0 && seat < g->seats; seat++) {
		json_t *acts = engine_game_actions(g, seat);
		for (size_t i = 0; i < json_array_size(acts); i++) {
			struct engine_game *c = engine_game_clone(g);
			if (c &&
			    engine_game_apply(c, seat, json_array_get(acts, i),
			                      &why) < 0)
				abort(); /* a listed action was refused */
			engine_game_free(c);
		}
		json_decref(acts);
		json_decref(engine_game_view(g, seat));
	}
	engine_game_free(g);
	json_decref(options);
	json_decref(setup);
	return 0;
}
