/* etag.h: entity-tags and the lists of If-None-Match and If-Match
 * (RFC 9110 §8.8.3, §13.1.1, §13.1.2), the one parser of those fields.
 *
 *   entity-tag = [ weak ] opaque-tag      weak = %s"W/"
 *   opaque-tag = DQUOTE *etagc DQUOTE     etagc = %x21 / %x23-7E / %x80-FF
 *   If-None-Match / If-Match = "*" / #entity-tag
 *
 * A list's elements are separated by commas with optional spaces or tabs
 * around them; empty elements (", ,") are allowed, as RFC 9110 §5.6.1
 * asks of recipients.  Tags compare octet by octet: "0" and "00" are two
 * tags, whatever they mean to the server. */
#ifndef BD_HTTP_ETAG_H
#define BD_HTTP_ETAG_H

#include <stddef.h>

/* One entity-tag, pointing into the text it was read from (borrowed). */
struct etag {
	int weak;           /* 1 with the W/ prefix */
	const char *opaque; /* the characters between the quotes */
	size_t len;         /* bytes of opaque, 0 for "" */
};

/* How two tags compare (RFC 9110 §8.8.3.2): ETAG_STRONG (If-Match) only
 * when neither is weak and the opaque-tags are equal; ETAG_WEAK
 * (If-None-Match) when the opaque-tags are equal, W/ or not. */
enum etag_cmp { ETAG_STRONG, ETAG_WEAK };

/* Reads the next element of a list field value from *p (NUL-ended).
 * Returns 1 with *out filled and *p past the element and its comma, 0 at
 * the end of the value (*out untouched), -1 when the value is malformed
 * there (not a list of entity-tags; "*" is not an element: see
 * etag_list_is_any).  Empty elements are skipped. */
int etag_list_next(const char **p, struct etag *out);

/* 1 if field value v is "*" (with optional spaces around), else 0. */
int etag_list_is_any(const char *v);

/* Whether field value `list` ("*" or a list of entity-tags) matches the
 * current entity-tag `current` (as sent in ETag: quotes and any W/
 * included) by comparison `cmp`: 1 if it does ("*" matches any current
 * tag), 0 if not, -1 if `list` or `current` is malformed (then the caller
 * decides: a malformed If-None-Match is ignored, a malformed If-Match is
 * a 400). */
int etag_list_matches(const char *list, const char *current, enum etag_cmp cmp);

#endif
