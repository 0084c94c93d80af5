/* test_etag.c: the entity-tag lists of If-None-Match and If-Match
 * (src/http/etag.h, RFC 9110 §8.8.3 and §13.1.1-2).  Issue 34 finding 8:
 * at ETag "0" the server answered 304 to "00" (it compared numbers) and
 * 200 to W/"0" and to "1", "0" (no weak comparison, no lists). */
#include <string.h>

#include "http/etag.h"
#include "testhelp.h"

struct match_case {
	const char *name;
	const char *list;    /* the If-None-Match / If-Match value */
	const char *current; /* the ETag */
	int weak, strong;    /* etag_list_matches by each comparison */
};

static const struct match_case cases[] = {
    {"the same tag", "\"0\"", "\"0\"", 1, 1},
    {"another number's spelling is another tag", "\"00\"", "\"0\"", 0, 0},
    {"W/ matches weakly, never strongly", "W/\"0\"", "\"0\"", 1, 0},
    {"a weak current tag never matches strongly", "W/\"0\"", "W/\"0\"", 1, 0},
    {"a list holding the tag", "\"1\", \"0\"", "\"0\"", 1, 1},
    {"a list without it", "\"1\", \"2\"", "\"0\"", 0, 0},
    {"a list without spaces", "\"1\",W/\"0\"", "\"0\"", 1, 0},
    {"empty elements and tabs", " ,\t\"1\" , ,\"0\",", "\"0\"", 1, 1},
    {"* matches any tag", "*", "\"7\"", 1, 1},
    {"* with spaces", "  * ", "W/\"7-open-1\"", 1, 1},
    {"RFC 9110 §8.8.3.2: W/\"1\" and W/\"1\"", "W/\"1\"", "W/\"1\"", 1, 0},
    {"RFC 9110 §8.8.3.2: W/\"1\" and W/\"2\"", "W/\"1\"", "W/\"2\"", 0, 0},
    {"RFC 9110 §8.8.3.2: W/\"1\" and \"1\"", "W/\"1\"", "\"1\"", 1, 0},
    {"RFC 9110 §8.8.3.2: \"1\" and \"1\"", "\"1\"", "\"1\"", 1, 1},
    {"the empty opaque-tag", "\"\"", "\"\"", 1, 1},
    {"a game's open-seat tag", "W/\"3-open-1\"", "W/\"3-open-1\"", 1, 0},
    {"a substring is no match", "\"10\"", "\"0\"", 0, 0},
    {"a tag inside another is no match", "W/\"3-open-12\"", "W/\"3-open-1\"", 0,
     0},
    {"malformed: no quotes", "0", "\"0\"", -1, -1},
    {"malformed: lower-case w/", "w/\"0\"", "\"0\"", -1, -1},
    {"malformed: unclosed", "\"0", "\"0\"", -1, -1},
    {"malformed: two tags without a comma", "\"1\" \"0\"", "\"0\"", -1, -1},
    {"malformed: a space inside", "\"a b\"", "\"0\"", -1, -1},
    {"malformed: * in a list", "*, \"0\"", "\"0\"", -1, -1},
    {"malformed: empty value", "", "\"0\"", -1, -1},
    {"malformed: only commas", " , ", "\"0\"", -1, -1},
    {"malformed after a match", "\"0\", x", "\"0\"", -1, -1},
    {"malformed current tag", "\"0\"", "0", -1, -1},
};

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct match_case *c = &cases[i];
		test_cond(c->name, etag_list_matches(c->list, c->current,
		                                     ETAG_WEAK) == c->weak);
		test_cond(c->name, etag_list_matches(c->list, c->current,
		                                     ETAG_STRONG) == c->strong);
	}

	/* etag_list_next hands back each element in order. */
	const char *p = "W/\"a\" , \"\",\"b\"";
	struct etag t[3];
	int n = 0;
	while (n < 3 && etag_list_next(&p, &t[n]) == 1)
		n++;
	test_cond("three elements", n == 3 && etag_list_next(&p, &t[0]) == 0);
	test_cond("the first is weak \"a\"",
	          t[0].weak && t[0].len == 1 && t[0].opaque[0] == 'a');
	test_cond("the second is strong and empty",
	          !t[1].weak && t[1].len == 0);
	test_cond("the third is \"b\"", !t[2].weak && t[2].len == 1 &&
	                                    memcmp(t[2].opaque, "b", 1) == 0);
	test_cond("* is not an element", etag_list_is_any(" * ") &&
	                                     !etag_list_is_any("\"*\"") &&
	                                     !etag_list_is_any("**"));
	return test_report("etag");
}
