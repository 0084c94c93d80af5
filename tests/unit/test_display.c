/* test_display.c: the display layer (src/display/): every action form of
 * every game's catalog gets a label of its own in every language (never
 * the bare type, never a {placeholder} left), every card of the catalog
 * a name and a text, every option a name and its values words, and
 * Accept-Language negotiation (RFC 9110 §12.5.4).
 * A new language file or a new action form is covered without a change
 * here. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display/i18n.h"
#include "display/label.h"
#include "engine/engine.h"
#include "testhelp.h"

/* A value for field `name` (described as `what` in the catalog) of an
 * action of `game`; new reference. */
static json_t *sample(const char *game, const char *type, const char *name,
                      const char *what, int flip)
{
	int aa = strcmp(game, "agent-avenue") == 0;
	if (strstr(what, "boolean") || strstr(what, "true or false") ||
	    strncmp(what, "true:", 5) == 0)
		return json_boolean(strncmp(what, "true:", 5) == 0 || !flip);
	if (strcmp(name, "pick") == 0)
		return json_string(flip ? "face_down" : "face_up");
	if (strcmp(name, "card") == 0 || strcmp(name, "face_up") == 0 ||
	    strcmp(name, "face_down") == 0)
		return json_string(!aa                         ? "cunning"
		                   : strcmp(type, "take") == 0 ? "outpost"
		                                               : "enforcer");
	if (strcmp(name, "ships") == 0)
		return strstr(what, "squares")
		           ? json_pack("[[i,i],[i,i],[i,i]]", 0, 1, 2, 1, 1, 0)
		           : json_pack("[i,i]", 0, 2);
	if (strcmp(name, "diagonals") == 0)
		return json_pack("[i]", 1);
	if (strstr(what, "square"))
		return json_pack("[i,i]", 3, 5);
	return json_integer(strcmp(name, "value") == 0 ? 3 : 1);
}

/* The labels of one catalog action form, with and without its optional
 * fields and with each boolean both ways, in language lang. */
static void check_form(size_t lang, const char *game, const json_t *form,
                       const json_t *view)
{
	const char *type = json_string_value(json_object_get(form, "type"));
	const json_t *fields = json_object_get(form, "fields");
	for (int variant = 0; variant < 4; variant++) {
		json_t *a = json_pack("{s:s}", "type", type);
		const char *k;
		json_t *what;
		json_object_foreach((json_t *)fields, k, what) {
			const char *w = json_string_value(what);
			int optional =
			    strstr(w, "optional") || strstr(w, "only for");
			if (optional && !(variant & 1))
				continue;
			json_object_set_new(
			    a, k, sample(game, type, k, w, variant >> 1));
		}
		json_t *list = json_pack("[O]", a);
		int rc = display_label_actions(lang, game, view, 0, list);
		const char *label = json_string_value(
		    json_object_get(json_array_get(list, 0), "label"));
		char name[160];
		snprintf(name, sizeof name, "%s %s %s (variant %d): a label",
		         i18n_tag(lang), game, type, variant);
		int ok = rc == 0 && label && *label &&
		         strcmp(label, type) != 0 && !strchr(label, '{');
		test_cond(name, ok);
		if (!ok) {
			char *t = json_dumps(a, JSON_COMPACT);
			fprintf(stderr, "  %s -> %s\n", t,
			        label ? label : "(none)");
			free(t);
		}
		json_decref(list);
		json_decref(a);
	}
}

static void check_card_list(size_t lang, const char *game, const json_t *list,
                            const char *what)
{
	size_t i;
	json_t *c;
	json_array_foreach((json_t *)list, i, c) {
		const char *name =
		    json_string_value(json_object_get(c, "name"));
		const char *text =
		    json_string_value(json_object_get(c, "text"));
		const char *id = json_string_value(json_object_get(c, "id"));
		char t[160];
		snprintf(t, sizeof t, "%s %s %s %s: a name and a text",
		         i18n_tag(lang), game, what, id);
		/* a key left as the text means the catalog lacks it */
		test_cond(t, name && text && *name && *text &&
		                 !strchr(name, '.') &&
		                 strstr(text, ".text") == NULL);
	}
}

/* Every option of the entry has a name and each of its values (or both
 * booleans) words: a text equal to the key or the value means the
 * catalogs lack it (label.c falls back to those). */
static void check_options(size_t lang, const char *game, const json_t *opts)
{
	const char *k;
	json_t *o;
	test_cond("the catalog lists options", json_object_size(opts) > 0);
	json_object_foreach((json_t *)opts, k, o) {
		char t[160];
		const char *name =
		    json_string_value(json_object_get(o, "name"));
		snprintf(t, sizeof t, "%s %s option %s: a name", i18n_tag(lang),
		         game, k);
		test_cond(t, name && *name && strcmp(name, k) != 0);
		const json_t *values = json_object_get(o, "values");
		const json_t *words = json_object_get(o, "value_names");
		const char *type =
		    json_string_value(json_object_get(o, "type"));
		size_t n = json_is_array(values) ? json_array_size(values)
		           : type && strcmp(type, "boolean") == 0 ? 2
		                                                  : 0;
		for (size_t i = 0; i < n; i++) {
			const char *v =
			    json_is_array(values)
			        ? json_string_value(json_array_get(values, i))
			        : (i ? "false" : "true");
			const char *w =
			    json_string_value(json_object_get(words, v));
			snprintf(t, sizeof t, "%s %s option %s=%s: in words",
			         i18n_tag(lang), game, k, v ? v : "?");
			test_cond(t, v && w && *w && strcmp(w, v) != 0);
		}
	}
}

static void labels_and_texts(void)
{
	size_t n;
	const struct rules *const *all = engine_rules_all(&n);
	json_t *view = json_object(); /* labels read only what a view shows */
	test_cond("two languages or more", i18n_count() >= 2);
	test_cond("English is language 0", strcmp(i18n_tag(0), "en") == 0);
	for (size_t lang = 0; lang < i18n_count(); lang++)
		for (size_t g = 0; g < n; g++) {
			json_t *entry = all[g]->catalog();
			const json_t *forms = json_object_get(entry, "actions");
			size_t i;
			json_t *form;
			test_cond("the catalog lists actions",
			          json_array_size(forms) > 0);
			json_array_foreach((json_t *)forms, i, form)
				check_form(lang, all[g]->id, form, view);
			test_cond("catalog texts",
			          display_catalog_entry(lang, all[g]->id,
			                                entry) == 0);
			check_card_list(lang, all[g]->id,
			                json_object_get(entry, "cards"),
			                "card");
			check_options(lang, all[g]->id,
			              json_object_get(entry, "options"));
			if (json_object_get(entry, "black_market"))
				check_card_list(
				    lang, all[g]->id,
				    json_object_get(entry, "black_market"),
				    "black-market card");
			json_decref(entry);
		}
	json_decref(view);
	/* English and French differ (the catalogs are not copies). */
	json_t *en = i18n_format(0, "aa.action.play.face_up", NULL);
	json_t *fr =
	    i18n_format(i18n_negotiate("fr"), "aa.action.play.face_up", NULL);
	test_cond("fr is not en", en && fr && !json_equal(en, fr));
	json_decref(en);
	json_decref(fr);
}

static void placeholders(void)
{
	json_t *p = json_pack("{s:s,s:i}", "n", "x", "value", 4);
	json_t *t = i18n_format(0, "qt.ship", p);
	test_cond("named placeholders: a string, an integer, one left",
	          t && strcmp(json_string_value(t), "ship x ({name}, 4)") == 0);
	json_decref(t);
	json_decref(p);
	test_cond("an unknown key has no text",
	          i18n_format(0, "no.such.key", NULL) == NULL);
}

static void negotiation(void)
{
	size_t fr = i18n_negotiate("fr");
	test_cond("fr is offered", strcmp(i18n_tag(fr), "fr") == 0);
	struct {
		const char *header;
		const char *want;
	} cases[] = {
	    {NULL, "en"},
	    {"", "en"},
	    {"fr", "fr"},
	    {"FR", "fr"},
	    {"fr-CA", "fr"},
	    {"fr-CA, en;q=0.5", "fr"},
	    {"en;q=0.5, fr;q=0.8", "fr"},
	    {"fr;q=0.3, en", "en"},
	    {"de, fr;q=0.1", "fr"},
	    {"de", "en"},
	    {"fra", "en"},
	    {"*", "en"},
	    {"en;q=0, *", "fr"},
	    {"fr;q=0", "en"},
	    {"fr;q=0.000, en;q=0.001", "en"},
	    {"de;q=1, fr;q=0.5, en;q=0.4", "fr"},
	    {"  fr ; q=0.9 ,en;q=0.8", "fr"},
	    {"fr;q=junk", "fr"},
	    {",,;q=,", "en"},
	    {"en-GB, fr", "en"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char name[120];
		snprintf(name, sizeof name, "Accept-Language '%s' -> %s",
		         cases[i].header ? cases[i].header : "(none)",
		         cases[i].want);
		test_cond(name,
		          strcmp(i18n_tag(i18n_negotiate(cases[i].header)),
		                 cases[i].want) == 0);
	}
}

int main(void)
{
	labels_and_texts();
	placeholders();
	negotiation();
	return test_report("display");
}
