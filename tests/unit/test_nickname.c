/* test_nickname.c: the Nickname profile of PRECIS (src/common/nickname.h,
 * RFC 8266).  Issue 34 finding 10: " ", a right-to-left override
 * (U+202E) and a zero-width space (U+200B) were accepted as names.  The
 * first ten cases are RFC 8266 §4's examples, with the profile's output;
 * then its mapping rules, and code points FreeformClass refuses. */
#include <string.h>

#include "common/nickname.h"
#include "testhelp.h"

struct name_case {
	const char *name;
	const char *in;
	const char *out; /* the enforced name, or NULL when refused */
	int rc;          /* nickname_enforce's return */
};

static const struct name_case cases[] = {
    /* RFC 8266 §4, examples 1-10 (case kept: mapped for comparison) */
    {"RFC 8266 #1 Foo", "Foo", "Foo", 0},
    {"RFC 8266 #2 foo", "foo", "foo", 0},
    {"RFC 8266 #3 Foo Bar", "Foo Bar", "Foo Bar", 0},
    {"RFC 8266 #4 foo bar", "foo bar", "foo bar", 0},
    {"RFC 8266 #5 capital sigma", "\u03a3", "\u03a3", 0},
    {"RFC 8266 #6 small sigma", "\u03c3", "\u03c3", 0},
    {"RFC 8266 #7 final sigma", "\u03c2", "\u03c2", 0},
    {"RFC 8266 #8 U+03D4 is NFKC's U+03AB", "\u03d4", "\u03ab", 0},
    {"RFC 8266 #9 infinity", "\u221e", "\u221e", 0},
    {"RFC 8266 #10 Richard IV", "Richard \u2163", "Richard IV", 0},
    /* §2.2 rule 2: spaces */
    {"leading and trailing spaces go", "  Ann ", "Ann", 0},
    {"inner runs of spaces become one", "St   Peter", "St Peter", 0},
    {"a no-break space is a space", "St\u00a0Peter", "St Peter", 0},
    {"an ideographic space is a space", "\u3000St\u3000\u3000Peter\u3000",
     "St Peter", 0},
    {"fullwidth letters (NFKC)", "\uff41\uff4e\uff4e", "ann", 0},
    {"NFC and NFD spell one name", "Jose\u0301", "Jos\u00e9", 0},
    {"a diaeresis alone: NFKC makes a space, trimmed", "\u00a8x", "\u0308x", 0},
    /* the three */
    {"a space only is empty", " ", NULL, NICKNAME_EMPTY},
    {"the empty string", "", NULL, NICKNAME_EMPTY},
    {"spaces of every kind only", "\u00a0\u2003 \u3000", NULL, NICKNAME_EMPTY},
    {"right-to-left override", "Ann\u202egnp.exe", NULL, NICKNAME_DISALLOWED},
    {"zero-width space", "A\u200bnn", NULL, NICKNAME_DISALLOWED},
    /* more refusals */
    {"left-to-right mark", "\u200eAnn", NULL, NICKNAME_DISALLOWED},
    {"right-to-left isolate", "Ann\u2067x\u2069", NULL, NICKNAME_DISALLOWED},
    {"byte order mark", "\ufeffAnn", NULL, NICKNAME_DISALLOWED},
    {"soft hyphen", "An\u00adn", NULL, NICKNAME_DISALLOWED},
    {"word joiner", "An\u2060n", NULL, NICKNAME_DISALLOWED},
    {"zero-width joiner between letters", "a\u200db", NULL,
     NICKNAME_DISALLOWED},
    {"a tab", "Ann\tB", NULL, NICKNAME_DISALLOWED},
    {"a C1 control (CSI)", "Ann\xc2\x9b", NULL, NICKNAME_DISALLOWED},
    {"private use", "Ann\ue000", NULL, NICKNAME_DISALLOWED},
    {"unassigned U+0378", "Ann\u0378", NULL, NICKNAME_DISALLOWED},
    {"line separator", "Ann\u2028B", NULL, NICKNAME_DISALLOWED},
    {"Arabic tatweel (RFC 5892 exception)", "\u0628\u0640\u0628", NULL,
     NICKNAME_DISALLOWED},
    {"a middle dot outside l\u00b7l", "a\u00b7b", NULL, NICKNAME_DISALLOWED},
    {"Arabic-Indic digits mixed with extended ones", "\u0663\u06f3", NULL,
     NICKNAME_DISALLOWED},
    {"an old Hangul jamo alone", "\u1100", NULL, NICKNAME_DISALLOWED},
    /* allowed by their contextual rules */
    {"l\u00b7l (Catalan)", "Pau Mart\u00ed Col\u00b7l",
     "Pau Mart\u00ed Col\u00b7l", 0},
    {"zero-width joiner after a virama", "\u0915\u094d\u200d\u0937",
     "\u0915\u094d\u200d\u0937", 0},
    {"Hebrew geresh after Hebrew", "\u05d2\u05f3", "\u05d2\u05f3", 0},
    {"punctuation, symbols, emoji", "Ann & Bob! \u2605\U0001f600",
     "Ann & Bob! \u2605\U0001f600", 0},
    {"Japanese", "\u5c71\u7530\u30fb\u592a\u90ce",
     "\u5c71\u7530\u30fb\u592a\u90ce", 0},
};

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct name_case *c = &cases[i];
		char out[65] = "untouched";
		uint32_t cp = 0;
		int rc = nickname_enforce(c->in, out, 64, &cp);
		test_cond(c->name, rc == c->rc);
		if (c->out)
			test_cond(c->name, rc == 0 && strcmp(out, c->out) == 0);
		else
			test_cond(c->name, strcmp(out, "untouched") == 0);
	}
	uint32_t cp = 0;
	char out[65];
	test_cond("the refused code point is named",
	          nickname_enforce("ab\u202ec", out, 64, &cp) ==
	                  NICKNAME_DISALLOWED &&
	              cp == 0x202e);
	char long_name[80];
	memset(long_name, 'x', 65);
	long_name[65] = '\0';
	test_cond("65 bytes are too long",
	          nickname_enforce(long_name, out, 64, NULL) ==
	              NICKNAME_TOO_LONG);
	long_name[0] = ' '; /* trimmed to 64 */
	test_cond("64 once trimmed are not",
	          nickname_enforce(long_name, out, 64, NULL) == 0 &&
	              strlen(out) == 64);
	memset(long_name, 'x', 63);
	strcpy(long_name + 63, "\u2163"); /* IV: 65 bytes */
	test_cond("over 64 once NFKC has run (\u2163 is IV)",
	          nickname_enforce(long_name, out, 64, NULL) ==
	              NICKNAME_TOO_LONG);
	return test_report("nickname");
}
