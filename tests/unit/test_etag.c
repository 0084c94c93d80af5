/* test_etag.c: the entity-tag lists of If-None-Match and If-Match
 * (src/http/etag.h, RFC 9110 §8.8.3 and §13.1.1-2).  Issue 34 finding 8:
 * at ETag "0" the server answered 304 to "00" (it compared numbers) and
 * 200 to W/"0" and to "1", "0" (no weak comparison, no lists).  Then the
 * content codings' choice and tags (src/http/encoding.h, issue 31 goal 8:
 * nothing was compressed). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "http/encoding.h"
#include "http/etag.h"
#include "testhelp.h"

struct coding_case {
	const char *name;
	const char *ae;       /* Accept-Encoding, or NULL for none */
	enum http_coding all; /* the choice among gzip and br */
	enum http_coding gz;  /* the choice when only gzip is offered */
};

static const struct coding_case codings[] = {
    {"no field: identity", NULL, HTTP_IDENTITY, HTTP_IDENTITY},
    {"a browser's: br first", "gzip, deflate, br", HTTP_BR, HTTP_GZIP},
    {"gzip alone", "gzip", HTTP_GZIP, HTTP_GZIP},
    {"x-gzip is gzip", "x-gzip", HTTP_GZIP, HTTP_GZIP},
    {"case does not matter", "GZip", HTTP_GZIP, HTTP_GZIP},
    {"q=0 refuses", "gzip;q=0, br;q=0", HTTP_IDENTITY, HTTP_IDENTITY},
    {"the higher q wins", "gzip;q=0.9, br;q=0.5", HTTP_GZIP, HTTP_GZIP},
    {"* is any coding not named", "br;q=0, *", HTTP_GZIP, HTTP_GZIP},
    {"*;q=0 refuses all", "*;q=0", HTTP_IDENTITY, HTTP_IDENTITY},
    {"identity only", "identity", HTTP_IDENTITY, HTTP_IDENTITY},
    {"deflate is not offered", "deflate", HTTP_IDENTITY, HTTP_IDENTITY},
    {"a name that only starts like one", "gzipx, brr", HTTP_IDENTITY,
     HTTP_IDENTITY},
    {"spaces around parameters", " br ; q=0.1 ,gzip ;q=0.2", HTTP_GZIP,
     HTTP_GZIP},
};

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

	for (size_t i = 0; i < sizeof codings / sizeof *codings; i++) {
		const struct coding_case *c = &codings[i];
		test_cond(c->name, http_coding_choose(
		                       c->ae, (1u << HTTP_GZIP) |
		                                  (1u << HTTP_BR)) == c->all);
		test_cond(c->name,
		          http_coding_choose(c->ae, 1u << HTTP_GZIP) == c->gz);
	}

	char tag[16];
	test_cond("a coded tag",
	          http_etag_coded(tag, sizeof tag, "\"5\"", HTTP_GZIP) == 0 &&
	              strcmp(tag, "\"5-gzip\"") == 0);
	test_cond("a weak coded tag",
	          http_etag_coded(tag, sizeof tag, "W/\"ab\"", HTTP_BR) == 0 &&
	              strcmp(tag, "W/\"ab-br\"") == 0);
	test_cond("identity keeps the tag",
	          http_etag_coded(tag, sizeof tag, "\"5\"", HTTP_IDENTITY) ==
	                  0 &&
	              strcmp(tag, "\"5\"") == 0);
	test_cond("too long for dst",
	          http_etag_coded(tag, sizeof tag, "\"123456789\"",
	                          HTTP_GZIP) == -1 &&
	              tag[0] == '\0');
	test_cond("no closing quote",
	          http_etag_coded(tag, sizeof tag, "\"5", HTTP_GZIP) == -1);
	test_cond("uncoded length of 5-gzip",
	          http_etag_uncoded_len("5-gzip", 6) == 1);
	test_cond("uncoded length of 5-br",
	          http_etag_uncoded_len("5-br", 4) == 1);
	test_cond("no suffix", http_etag_uncoded_len("5", 1) == 1);
	test_cond("a suffix alone is no tag's",
	          http_etag_uncoded_len("-gzip", 5) == 5);

	/* gzip: zlib inflates it back to the same bytes. */
	char in[4000];
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = "{\"seat\":0,\"ship\":1}"[i % 20];
	char *out = NULL;
	size_t len = 0;
	test_cond("gzip compresses",
	          http_compress(HTTP_GZIP, in, sizeof in, 6, &out, &len) == 0 &&
	              len > 0 && len < sizeof in / 4);
	char back[sizeof in];
	z_stream z = {0};
	int ok = out && inflateInit2(&z, 15 + 16) == Z_OK;
	if (ok) {
		z.next_in = (Bytef *)out;
		z.avail_in = (uInt)len;
		z.next_out = (Bytef *)back;
		z.avail_out = sizeof back;
		ok = inflate(&z, Z_FINISH) == Z_STREAM_END &&
		     z.total_out == sizeof in &&
		     memcmp(back, in, sizeof in) == 0;
		inflateEnd(&z);
	}
	test_cond("gzip inflates back", ok);
	free(out);
	out = NULL;
	test_cond("br compresses",
	          http_compress(HTTP_BR, in, sizeof in, 5, &out, &len) == 0 &&
	              len > 0 && len < sizeof in / 4);
	free(out);
	test_cond("identity is no compression",
	          http_compress(HTTP_IDENTITY, in, sizeof in, 6, &out, &len) ==
	              -1);
	return test_report("etag");
}
