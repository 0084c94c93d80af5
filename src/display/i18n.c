/* i18n.c: the embedded message catalogs, Accept-Language and {name}
 * placeholders.  See i18n.h. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "../common/qvalue.h"

/* The longest text a format produces, bytes (labels are a line). */
#define FORMAT_MAX 1024

static struct {
	pthread_once_t once;
	size_t n;                     /* 0: not usable */
	json_t *msgs[I18N_MAX_LANGS]; /* parsed catalogs, never freed */
	const char *tags[I18N_MAX_LANGS];
} cat = {PTHREAD_ONCE_INIT, 0, {0}, {0}};

static void load(void)
{
	size_t n = 0, en = I18N_MAX_LANGS;
	if (i18n_files_count > I18N_MAX_LANGS)
		return;
	for (size_t i = 0; i < i18n_files_count; i++) {
		json_t *m =
		    json_loadb(i18n_files[i].text, i18n_files[i].len, 0, NULL);
		if (!json_is_object(m)) {
			json_decref(m);
			goto fail;
		}
		cat.msgs[n] = m;
		cat.tags[n] = i18n_files[i].tag;
		if (strcmp(i18n_files[i].tag, "en") == 0)
			en = n;
		n++;
	}
	if (en == I18N_MAX_LANGS)
		goto fail;
	/* English first: language 0 is the fallback. */
	json_t *m = cat.msgs[0];
	const char *t = cat.tags[0];
	cat.msgs[0] = cat.msgs[en], cat.tags[0] = cat.tags[en];
	cat.msgs[en] = m, cat.tags[en] = t;
	cat.n = n;
	return;
fail:
	for (size_t i = 0; i < n; i++)
		json_decref(cat.msgs[i]);
}

size_t i18n_count(void)
{
	pthread_once(&cat.once, load);
	return cat.n;
}

const char *i18n_tag(size_t lang)
{
	return lang < i18n_count() ? cat.tags[lang] : "en";
}

const char *i18n_text(size_t lang, const char *key)
{
	if (!i18n_count())
		return NULL;
	const char *s =
	    lang < cat.n
	        ? json_string_value(json_object_get(cat.msgs[lang], key))
	        : NULL;
	return s ? s : json_string_value(json_object_get(cat.msgs[0], key));
}

/* ---- Accept-Language (RFC 9110 §12.5.4, RFC 4647 §2.1 ranges) ---- */

/* 1 if range [r, r+n) matches tag (case-insensitive, prefix at a "-"). */
static int range_matches(const char *r, size_t n, const char *tag)
{
	size_t t = strlen(tag);
	if (n < t || strncasecmp(r, tag, t) != 0)
		return 0;
	return n == t || r[t] == '-';
}

size_t i18n_negotiate(const char *al)
{
	size_t n = i18n_count();
	int best_q = 0;
	size_t best = 0;
	int refused[I18N_MAX_LANGS] = {0}, named[I18N_MAX_LANGS] = {0};
	int star_q = -1;
	if (!al || n == 0)
		return 0;
	/* First pass: every named language's q (the first range naming it
	 * wins), and the q of "*". */
	const char *p;
	size_t rn;
	int q;
	for (const char *at = al; qvalue_next(&at, &p, &rn, &q);) {
		if (rn == 1 && *p == '*') {
			if (star_q < 0)
				star_q = q;
		} else if (rn > 0) {
			for (size_t l = 0; l < n; l++) {
				if (named[l] ||
				    !range_matches(p, rn, cat.tags[l]))
					continue;
				named[l] = 1;
				refused[l] = q == 0;
				if (q > best_q) {
					best_q = q;
					best = l;
				}
			}
		}
	}
	if (best_q > 0)
		return best;
	/* "*": the first language not named (English first). */
	if (star_q > 0)
		for (size_t l = 0; l < n; l++)
			if (!named[l] && !refused[l])
				return l;
	return 0;
}

/* ---- {name} placeholders ---- */

struct buf {
	char p[FORMAT_MAX];
	size_t n;
	int over; /* 1: too long */
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n >= sizeof b->p) {
		b->over = 1;
		return;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

json_t *i18n_format(size_t lang, const char *key, const json_t *params)
{
	const char *t = i18n_text(lang, key);
	struct buf b = {.n = 0, .over = 0};
	if (!t)
		return NULL;
	while (*t) {
		const char *open = strchr(t, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			put(&b, t, strlen(t));
			break;
		}
		put(&b, t, (size_t)(open - t));
		char name[64];
		size_t nn = (size_t)(close - open - 1);
		const json_t *v = NULL;
		if (nn < sizeof name) {
			memcpy(name, open + 1, nn);
			name[nn] = '\0';
			v = params ? json_object_get(params, name) : NULL;
		}
		if (json_is_string(v)) {
			put(&b, json_string_value(v), json_string_length(v));
		} else if (json_is_integer(v)) {
			char num[24];
			int k =
			    snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
			             json_integer_value(v));
			put(&b, num, (size_t)k);
		} else {
			put(&b, open, (size_t)(close - open + 1));
		}
		t = close + 1;
	}
	return b.over ? NULL : json_stringn(b.p, b.n);
}

json_t *i18n_formatf(size_t lang, const json_t *params, const char *fmt, ...)
{
	char key[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(key, sizeof key, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof key)
		return NULL;
	return i18n_format(lang, key, params);
}
