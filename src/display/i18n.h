/* i18n.h: message catalogs and language negotiation (issue 12).
 *
 * Every language is one JSON file, i18n/TAG.json (TAG a language tag as
 * in RFC 5646: "en", "fr"), embedded in the binary at build time by
 * tools/embed.sh: a flat object from message keys to texts, with named
 * placeholders written {name}.  A key missing in a language falls back
 * to English ("en", which must exist and which is also the answer when
 * nothing the client accepts is available).  Adding a language is adding
 * a file: no code names a language but the fallback.
 *
 * The catalogs are parsed once, on first use (thread-safe), and never
 * change afterwards: every pointer returned here lives as long as the
 * process.
 */
#ifndef BD_DISPLAY_I18N_H
#define BD_DISPLAY_I18N_H

#include <jansson.h>
#include <stddef.h>

/* One embedded catalog (the generated gen/i18n.c). */
struct i18n_file {
	const char *tag;  /* "en", from the file's name */
	const char *text; /* the file's bytes, NUL-terminated */
	size_t len;       /* bytes of text */
};

extern const struct i18n_file i18n_files[];
extern const size_t i18n_files_count;

/* The most languages served; more files are a build error at start
 * (i18n_count reports 0). */
#define I18N_MAX_LANGS 16

/* A language is its index in 0..i18n_count(); 0 is English. */

/* How many languages there are; 0 when a catalog does not parse or
 * English is missing (service_new then fails). */
size_t i18n_count(void);

/* The tag of language `lang` ("en", "fr"), static. */
const char *i18n_tag(size_t lang);

/* RFC 9110 §12.5.4: the language to answer in for an Accept-Language
 * value (NULL: none sent).  Ranges are taken by descending q (q=0 means
 * "not this one"; a malformed q counts as 1, an unparsable range is
 * skipped); a range matches a language whose tag equals it or that it
 * starts with followed by "-" ("fr-CA" -> "fr", as RFC 4647 §3.4's
 * lookup truncates), "*" any language not refused.  English when
 * nothing matches. */
size_t i18n_negotiate(const char *accept_language);

/* The text of `key` in `lang`, else in English, else NULL.  Static. */
const char *i18n_text(size_t lang, const char *key);

/* The text of `key` in `lang` (as i18n_text) with each {name} replaced
 * by params' member `name` (borrowed object, may be NULL): a string as
 * it is, an integer in decimal; an unknown placeholder is left as
 * written.  New reference to a string; NULL when the key has no text in
 * any language or out of memory. */
json_t *i18n_format(size_t lang, const char *key, const json_t *params);

/* As i18n_format, but for a key given as printf-style parts: the key is
 * the concatenation, at most 127 bytes (longer: NULL). */
json_t *i18n_formatf(size_t lang, const json_t *params, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
