/* label.c: labels of listed actions and the catalog's texts.  See
 * label.h.  Reads only views and actions as clients get them: no rules
 * module is called here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "i18n.h"
#include "label.h"

#define KEY_MAX 128

/* A game's display: its key prefix and how its fields read. */
struct game_display {
	const char *id;     /* catalog id */
	const char *prefix; /* message key prefix */
	/* Sets params' member `name` for field `name` = v (borrowed) of
	 * action `a` listed with `view` for `seat`; may add more members
	 * and a key suffix (into suffix, cap bytes).  0 or BD_ENOMEM. */
	int (*field)(size_t lang, const json_t *view, int seat, const json_t *a,
	             const char *name, const json_t *v, json_t *params,
	             char *suffix, size_t cap);
	const char *const
	    *choices; /* string fields whose value is in the key */
	const char *const
	    *flags; /* boolean modifiers: a text, not a key part */
};

static int in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* Sets params[name] = a text of the catalogs; 0 or BD_ENOMEM. */
static int set_text(json_t *params, const char *name, size_t lang,
                    const char *key)
{
	const char *t = i18n_text(lang, key);
	json_t *s = json_string(t ? t : key);
	return json_object_set_new(params, name, s) < 0 ? BD_ENOMEM : 0;
}

/* "[r,c]" for a square, or the value's text. */
static json_t *square_text(const json_t *v)
{
	char b[48];
	if (json_is_array(v) && json_array_size(v) == 2) {
		snprintf(b, sizeof b,
		         "[%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "]",
		         json_integer_value(json_array_get(v, 0)),
		         json_integer_value(json_array_get(v, 1)));
		return json_string(b);
	}
	return json_string(json_is_string(v) ? json_string_value(v) : "?");
}

/* ---- Agent Avenue (rules §7.2) ---- */

/* The face-up or face-down card of the view's "played", or NULL. */
static const char *aa_played(const json_t *view, const char *side)
{
	return json_string_value(
	    json_object_get(json_object_get(view, "played"), side));
}

static int aa_field(size_t lang, const json_t *view, int seat, const json_t *a,
                    const char *name, const json_t *v, json_t *params,
                    char *suffix, size_t cap)
{
	(void)seat;
	char key[KEY_MAX];
	const char *type = json_string_value(json_object_get(a, "type"));
	if (json_is_string(v) &&
	    (strcmp(name, "card") == 0 || strcmp(name, "face_up") == 0 ||
	     strcmp(name, "face_down") == 0)) {
		int bm = type && strcmp(type, "take") == 0;
		snprintf(key, sizeof key, "aa.%s.%s.name", bm ? "bm" : "agent",
		         json_string_value(v));
		return set_text(params, name, lang, key);
	}
	if (strcmp(name, "pick") == 0 && json_is_string(v)) {
		/* rules §4 Step 2.1: the card picked, as far as the seat
		 * sees it (the face-down one only when its view shows it) */
		const char *card =
		    aa_played(view, strcmp(json_string_value(v), "face_up") == 0
		                        ? "face_up"
		                        : "face_down");
		if (!card)
			return 0;
		snprintf(key, sizeof key, "aa.agent.%s.name", card);
		snprintf(suffix, cap, ".seen");
		return set_text(params, "card", lang, key);
	}
	if (json_is_integer(v))
		return json_object_set(params, name, (json_t *)v) < 0
		           ? BD_ENOMEM
		           : 0;
	return 0;
}

static const char *const aa_choices[] = {"pick", NULL};

/* ---- Quantum (rules §3–§9) ---- */

/* Seat's ship `n` as "ship 2 (frigate, 4)", from the seat's view. */
static json_t *qt_ship(size_t lang, const json_t *view, int seat, json_int_t n)
{
	const json_t *players = json_object_get(view, "players");
	const json_t *ships = NULL;
	for (size_t i = 0; i < json_array_size(players); i++) {
		const json_t *p = json_array_get(players, i);
		if (json_integer_value(json_object_get(p, "seat")) == seat)
			ships = json_object_get(p, "ships");
	}
	const json_t *ship = NULL;
	for (size_t i = 0; i < json_array_size(ships); i++)
		if (json_integer_value(
		        json_object_get(json_array_get(ships, i), "ship")) == n)
			ship = json_array_get(ships, i);
	const json_t *value = json_object_get(ship, "value");
	json_t *p = json_pack("{s:I}", "n", n);
	json_t *out = NULL;
	if (p && json_is_integer(value)) {
		char key[KEY_MAX];
		snprintf(key, sizeof key, "qt.ship_type.%" JSON_INTEGER_FORMAT,
		         json_integer_value(value));
		if (set_text(p, "name", lang, key) == 0 &&
		    json_object_set(p, "value", (json_t *)value) == 0)
			out = i18n_format(lang, "qt.ship", p);
	} else if (p) {
		out = i18n_format(lang, "qt.ship.reserve", p);
	}
	json_decref(p);
	return out;
}

/* Items of array v rendered by kind ("ship" or a square), joined. */
static json_t *qt_list(size_t lang, const json_t *view, int seat,
                       const json_t *v, int ships)
{
	char b[512];
	size_t n = 0;
	b[0] = '\0';
	for (size_t i = 0; i < json_array_size(v); i++) {
		const json_t *x = json_array_get(v, i);
		json_t *t =
		    ships ? qt_ship(lang, view, seat, json_integer_value(x))
		          : square_text(x);
		if (!t)
			return NULL;
		int k = snprintf(b + n, sizeof b - n, "%s%s", i ? ", " : "",
		                 json_string_value(t));
		json_decref(t);
		if (k < 0 || (size_t)k >= sizeof b - n)
			break; /* a very long list is cut */
		n += (size_t)k;
	}
	return json_string(b);
}

static int qt_field(size_t lang, const json_t *view, int seat, const json_t *a,
                    const char *name, const json_t *v, json_t *params,
                    char *suffix, size_t cap)
{
	(void)a, (void)suffix, (void)cap;
	char key[KEY_MAX];
	json_t *t = NULL;
	if (strcmp(name, "ship") == 0 || strcmp(name, "passenger") == 0 ||
	    strcmp(name, "with") == 0)
		t = qt_ship(lang, view, seat, json_integer_value(v));
	else if (strcmp(name, "ships") == 0)
		t = qt_list(lang, view, seat, v,
		            json_is_integer(json_array_get(v, 0)));
	else if (strcmp(name, "diagonals") == 0)
		t = qt_list(lang, view, seat, v, 1);
	else if (strcmp(name, "card") == 0 && json_is_string(v)) {
		snprintf(key, sizeof key, "qt.card.%s.name",
		         json_string_value(v));
		return set_text(params, name, lang, key);
	} else if (strcmp(name, "value") == 0 && json_is_integer(v)) {
		snprintf(key, sizeof key, "qt.ship_type.%" JSON_INTEGER_FORMAT,
		         json_integer_value(v));
		if (set_text(params, "value_name", lang, key) < 0)
			return BD_ENOMEM;
		t = json_incref((json_t *)v);
	} else if (strcmp(name, "to") == 0 && json_is_string(v)) {
		/* place_ship: "scrapyard" */
		snprintf(key, sizeof key, "qt.place.%s", json_string_value(v));
		return set_text(params, name, lang, key);
	} else if (json_is_array(v))
		t = square_text(v);
	else if (json_is_integer(v))
		t = json_incref((json_t *)v);
	else
		return 0;
	return !t || json_object_set_new(params, name, t) < 0 ? BD_ENOMEM : 0;
}

static const char *const qt_flags[] = {"cunning", "curious", NULL};

static const struct game_display games[] = {
    {"agent-avenue", "aa", aa_field, aa_choices, NULL},
    {"quantum", "qt", qt_field, NULL, qt_flags},
};

static const struct game_display *display_of(const char *game)
{
	for (size_t i = 0; i < sizeof games / sizeof *games; i++)
		if (strcmp(games[i].id, game) == 0)
			return &games[i];
	return NULL;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* append(k, cap, s): adds s to the key k; 0, or -1 when too long. */
static int append(char *k, size_t cap, const char *s)
{
	size_t n = strlen(k), m = strlen(s);
	if (n + m >= cap)
		return -1;
	memcpy(k + n, s, m + 1);
	return 0;
}

/* The label of action a; new reference or NULL (out of memory). */
static json_t *label_of(size_t lang, const struct game_display *d,
                        const json_t *view, int seat, const json_t *a)
{
	const char *type = json_string_value(json_object_get(a, "type"));
	const char *names[16] = {0};
	size_t n = 0;
	const char *k;
	json_t *v;
	char key[KEY_MAX], suffix[32] = "", flags[256] = "";
	if (!type)
		return json_string("?");
	json_object_foreach((json_t *)a, k, v)
		if (strcmp(k, "type") != 0 && strcmp(k, "label") != 0 &&
		    n < sizeof names / sizeof *names)
			names[n++] = k;
	qsort(names, n, sizeof *names, cmp_str);
	json_t *params = json_object();
	if (!params)
		return NULL;
	snprintf(key, sizeof key, "%s.action.%s", d->prefix, type);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		v = json_object_get(a, names[i]);
		char part[80];
		if (in_list(d->flags, names[i])) {
			if (json_is_true(v)) {
				char fk[KEY_MAX];
				snprintf(fk, sizeof fk, "%s.flag.%s", d->prefix,
				         names[i]);
				const char *t = i18n_text(lang, fk);
				if (t) /* too long: the flag's text is left out
				        */
					(void)append(flags, sizeof flags, t);
			}
			continue;
		}
		if (json_is_boolean(v))
			snprintf(part, sizeof part, ".%s%s",
			         json_is_true(v) ? "" : "!", names[i]);
		else if (in_list(d->choices, names[i]) && json_is_string(v))
			snprintf(part, sizeof part, ".%s=%s", names[i],
			         json_string_value(v));
		else
			snprintf(part, sizeof part, ".%s", names[i]);
		if (append(key, sizeof key, part) < 0)
			break;
		rc = d->field(lang, view, seat, a, names[i], v, params, suffix,
		              sizeof suffix);
	}
	json_t *out = NULL;
	if (rc == 0) {
		char full[KEY_MAX];
		snprintf(full, sizeof full, "%s", key);
		if (suffix[0] && append(full, sizeof full, suffix) == 0 &&
		    i18n_text(lang, full))
			out = i18n_format(lang, full, params);
		if (!out)
			out = i18n_format(lang, key, params);
		if (!out)
			out = json_string(type);
		if (out && flags[0]) {
			char b[1024];
			snprintf(b, sizeof b, "%s%s", json_string_value(out),
			         flags);
			json_decref(out);
			out = json_string(b);
		}
	}
	json_decref(params);
	return out;
}

int display_label_actions(size_t lang, const char *game, const json_t *view,
                          int seat, json_t *actions)
{
	const struct game_display *d = display_of(game);
	size_t i;
	json_t *a;
	if (!d)
		return 0;
	json_array_foreach(actions, i, a) {
		json_t *l = label_of(lang, d, view, seat, a);
		if (!l || json_object_set_new(a, "label", l) < 0)
			return BD_ENOMEM;
	}
	return 0;
}

/* ---- the catalog's texts ---- */

/* Sets name and text of every card of entry's array `list`, from
 * PREFIX.KIND.ID.name / .text, "printings" {printing: text} from
 * PREFIX.KIND.ID.text.PRINTING for each of `printings`, and replaces the
 * rules module's English "effect" (Agent Avenue's black market, rules
 * §8.2) with PREFIX.KIND.ID.effect where the catalog has one: en.json has
 * none, so English keeps the rules module's own words. */
static int card_texts(size_t lang, json_t *list, const char *prefix,
                      const char *kind, const char *const *printings)
{
	size_t i;
	json_t *c;
	char key[KEY_MAX];
	json_array_foreach(list, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		if (!id)
			continue;
		snprintf(key, sizeof key, "%s.%s.%s.name", prefix, kind, id);
		if (set_text(c, "name", lang, key) < 0)
			return BD_ENOMEM;
		snprintf(key, sizeof key, "%s.%s.%s.text", prefix, kind, id);
		if (set_text(c, "text", lang, key) < 0)
			return BD_ENOMEM;
		snprintf(key, sizeof key, "%s.%s.%s.effect", prefix, kind, id);
		const char *effect = i18n_text(lang, key);
		if (effect && json_object_get(c, "effect") &&
		    json_object_set_new(c, "effect", json_string(effect)) < 0)
			return BD_ENOMEM;
		json_t *pr = NULL;
		for (size_t p = 0; printings && printings[p]; p++) {
			snprintf(key, sizeof key, "%s.%s.%s.text.%s", prefix,
			         kind, id, printings[p]);
			const char *t = i18n_text(lang, key);
			if (!t)
				continue;
			if (!pr && !(pr = json_object()))
				return BD_ENOMEM;
			json_object_set_new(pr, printings[p], json_string(t));
		}
		if (pr && json_object_set_new(c, "printings", pr) < 0)
			return BD_ENOMEM;
	}
	return 0;
}

/* rules §1: each agent's "icons", one text per icon of its "moves"
 * (the move of its 1st, 2nd, 3rd and later copy in play). */
static int agent_icons(size_t lang, json_t *cards)
{
	size_t i;
	json_t *c;
	json_array_foreach(cards, i, c) {
		json_t *moves = json_object_get(c, "moves"),
		       *icons = json_array();
		size_t j;
		json_t *m;
		if (!icons)
			return BD_ENOMEM;
		json_array_foreach(moves, j, m) {
			json_int_t n = json_integer_value(m);
			json_t *p = json_pack("{s:I}", "n", n < 0 ? -n : n);
			const char *key = !json_is_integer(m) ? "aa.icon.none"
			                  : n > 0 ? "aa.icon.forward"
			                  : n < 0 ? "aa.icon.back"
			                          : "aa.icon.zero";
			json_t *t = p ? i18n_format(lang, key, p) : NULL;
			json_decref(p);
			if (!t || json_array_append_new(icons, t) < 0) {
				json_decref(icons);
				return BD_ENOMEM;
			}
		}
		if (json_object_set_new(c, "icons", icons) < 0)
			return BD_ENOMEM;
	}
	return 0;
}

/* Sets "name" on every option of entry's `options` object, from
 * PREFIX.option.NAME.name, and "value_names" {value: words} on those with
 * a list of `values` (from PREFIX.option.NAME.value.VALUE) or of type
 * boolean ("true", "false"): a client shows a game's options in words,
 * never its keys.  A missing text falls back to the key or the value. */
static int option_names(size_t lang, json_t *options, const char *prefix)
{
	const char *name;
	json_t *o;
	char key[KEY_MAX];
	json_object_foreach(options, name, o) {
		if (!json_is_object(o))
			continue;
		snprintf(key, sizeof key, "%s.option.%s.name", prefix, name);
		const char *t = i18n_text(lang, key);
		if (json_object_set_new(o, "name", json_string(t ? t : name)) <
		    0)
			return BD_ENOMEM;
		const char *bools[] = {"true", "false", NULL};
		const char *type =
		    json_string_value(json_object_get(o, "type"));
		json_t *values = json_object_get(o, "values");
		if (!json_is_array(values) &&
		    !(type && strcmp(type, "boolean") == 0))
			continue;
		json_t *words = json_object();
		if (!words || json_object_set_new(o, "value_names", words) < 0)
			return BD_ENOMEM;
		size_t n = json_is_array(values) ? json_array_size(values) : 2;
		for (size_t i = 0; i < n; i++) {
			const char *v =
			    json_is_array(values)
			        ? json_string_value(json_array_get(values, i))
			        : bools[i];
			if (!v)
				continue;
			snprintf(key, sizeof key, "%s.option.%s.value.%s",
			         prefix, name, v);
			t = i18n_text(lang, key);
			if (json_object_set_new(words, v,
			                        json_string(t ? t : v)) < 0)
				return BD_ENOMEM;
		}
	}
	return 0;
}

int display_catalog_entry(size_t lang, const char *game, json_t *entry)
{
	static const char *const printings[] = {"revised", "first-printing",
	                                        "addon", NULL};
	const char *prefix = strcmp(game, "agent-avenue") == 0 ? "aa"
	                     : strcmp(game, "quantum") == 0    ? "qt"
	                                                       : NULL;
	if (prefix &&
	    option_names(lang, json_object_get(entry, "options"), prefix) < 0)
		return BD_ENOMEM;
	if (strcmp(game, "agent-avenue") == 0) {
		if (card_texts(lang, json_object_get(entry, "cards"), "aa",
		               "agent", NULL) < 0 ||
		    card_texts(lang, json_object_get(entry, "black_market"),
		               "aa", "bm", NULL) < 0)
			return BD_ENOMEM;
		return agent_icons(lang, json_object_get(entry, "cards"));
	}
	if (strcmp(game, "quantum") == 0) {
		if (card_texts(lang, json_object_get(entry, "cards"), "qt",
		               "card", printings) < 0)
			return BD_ENOMEM;
		json_t *ships = json_array();
		for (int v = 1; ships && v <= 6; v++) {
			char key[KEY_MAX], abil[KEY_MAX];
			snprintf(key, sizeof key, "qt.ship_type.%d", v);
			snprintf(abil, sizeof abil, "qt.ship_ability.%d", v);
			const char *t = i18n_text(lang, key);
			const char *ab = i18n_text(lang, abil);
			json_array_append_new(
			    ships,
			    json_pack("{s:i,s:s,s:s}", "value", v, "name",
			              t ? t : key, "ability", ab ? ab : abil));
		}
		return json_object_set_new(entry, "ships", ships) < 0
		           ? BD_ENOMEM
		           : 0;
	}
	return 0;
}
