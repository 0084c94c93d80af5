/* etag.c: see etag.h. */
#include "http/etag.h"

#include <string.h>

static const char *skip_ows(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* 1 if c may appear inside an opaque-tag (etagc). */
static int is_etagc(unsigned char c)
{
	return c == 0x21 || (c >= 0x23 && c <= 0x7e) || c >= 0x80;
}

/* Reads one entity-tag at s; returns the byte after it, or NULL. */
static const char *read_tag(const char *s, struct etag *t)
{
	t->weak = s[0] == 'W' && s[1] == '/'; /* %s: case-sensitive */
	if (t->weak)
		s += 2;
	if (*s != '"')
		return NULL;
	const char *o = ++s;
	while (is_etagc((unsigned char)*s))
		s++;
	if (*s != '"')
		return NULL;
	t->opaque = o;
	t->len = (size_t)(s - o);
	return s + 1;
}

int etag_list_next(const char **p, struct etag *out)
{
	const char *s = skip_ows(*p);
	while (*s == ',') /* empty elements */
		s = skip_ows(s + 1);
	if (*s == '\0') {
		*p = s;
		return 0;
	}
	struct etag t;
	s = read_tag(s, &t);
	if (!s)
		return -1;
	s = skip_ows(s);
	if (*s != ',' && *s != '\0')
		return -1; /* W/"1"x, "1" "2" */
	if (*s == ',')
		s++;
	*out = t;
	*p = s;
	return 1;
}

int etag_list_is_any(const char *v)
{
	v = skip_ows(v);
	return *v == '*' && *skip_ows(v + 1) == '\0';
}

int etag_list_matches(const char *list, const char *current, enum etag_cmp cmp)
{
	struct etag cur, t;
	const char *end = read_tag(skip_ows(current), &cur);
	if (!end || *skip_ows(end) != '\0')
		return -1;
	if (etag_list_is_any(list))
		return 1;
	int matched = 0, n = 0, rc;
	while ((rc = etag_list_next(&list, &t)) == 1) {
		n++;
		if (cmp == ETAG_STRONG && (t.weak || cur.weak))
			continue;
		if (t.len == cur.len &&
		    memcmp(t.opaque, cur.opaque, t.len) == 0)
			matched = 1;
	}
	/* A list is one entity-tag or more (1#entity-tag); the whole value
	 * is read even after a match, so a malformed tail is reported. */
	return rc < 0 || n == 0 ? -1 : matched;
}
