/* payload.c: what a push says, in the subscription's language.  See
 * push.h. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../display/i18n.h"
#include "push.h"

/* The pushed event types and their catalogue keys (push.<key>.title,
 * push.<key>.body). */
static const struct {
	const char *type, *key, *urgency;
} kinds[] = {
    {"turn", "turn", "high"},
    {"game.finished", "finished", "normal"},
    {"deadline.soon", "clock", "normal"},
    {"invited", "invited", "normal"},
    {"seat.taken", "seat", "normal"},
    {"seek.matched", "matched", "high"}, /* a quick match's game began */
};

/* The language whose tag is `tag`, else English (0). */
static size_t lang_of(const char *tag)
{
	for (size_t i = 0; tag && i < i18n_count(); i++)
		if (strcmp(i18n_tag(i), tag) == 0)
			return i;
	return 0;
}

/* 1 if s is base64url-safe ([A-Za-z0-9_-]) and 1..PUSH_TOPIC_MAX long. */
static int topic_ok(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
	                     "wxyz0123456789-_");
	return n > 0 && n <= PUSH_TOPIC_MAX && s[n] == '\0';
}

int push_message(const char *type, const char *data, const char *lang,
                 char **payload, const char **urgency,
                 char topic[PUSH_TOPIC_MAX + 1])
{
	size_t k = 0, n = sizeof kinds / sizeof *kinds;
	while (k < n && strcmp(kinds[k].type, type) != 0)
		k++;
	if (k == n)
		return 1;
	json_t *d = json_loads(data, 0, NULL);
	const char *game_id = json_string_value(json_object_get(d, "game_id"));
	size_t l = lang_of(lang);
	int rc = -1;
	json_t *title = NULL, *body = NULL, *o = NULL;
	if (!game_id || !topic_ok(game_id))
		goto out;
	title = i18n_formatf(l, d, "push.%s.title", kinds[k].key);
	body = i18n_formatf(l, d, "push.%s.body", kinds[k].key);
	o = title && body
	        ? json_pack("{s:s,s:s,s:O,s:O}", "game_id", game_id, "kind",
	                    type, "title", title, "body", body)
	        : NULL;
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	if (!text)
		goto out;
	if (strlen(text) >= PUSH_PAYLOAD_MAX) {
		free(text);
		goto out;
	}
	*payload = text;
	*urgency = kinds[k].urgency;
	snprintf(topic, PUSH_TOPIC_MAX + 1, "%s", game_id);
	rc = 0;
out:
	json_decref(o);
	json_decref(title);
	json_decref(body);
	json_decref(d);
	return rc;
}
