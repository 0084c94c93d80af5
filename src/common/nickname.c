/* nickname.c: see nickname.h.  Strings are UTF-16 inside (ICU's own). */
#include "common/nickname.h"

#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

/* UTF-16 units of a string in progress: NFKC grows a string by at most
 * 18 times per code point (Unicode's stated bound), far below this for
 * any name once the first round has run, and a longer result fails
 * cleanly (U_BUFFER_OVERFLOW_ERROR). */
#define UNITS (NICKNAME_MAX_INPUT * 4)

/* RFC 8266 §2.2 rule 2: non-ASCII spaces to U+0020, trim, collapse.
 * in[0..n) into out (room for n units: it never grows); its length. */
static int32_t map_spaces(const UChar *in, int32_t n, UChar *out)
{
	int32_t o = 0;
	int space = 0; /* a space is pending (not yet written) */
	for (int32_t i = 0; i < n;) {
		UChar32 c;
		int32_t at = i;
		U16_NEXT(in, i, n, c);
		if (c == 0x20 || u_charType(c) == U_SPACE_SEPARATOR) {
			space = o > 0; /* none at the start */
			continue;
		}
		if (space)
			out[o++] = 0x20;
		space = 0;
		while (at < i)
			out[o++] = in[at++];
	}
	return o; /* a pending space at the end is dropped */
}

/* 1 if some code point of s[0..n) is of script `a` or `b` or `c`. */
static int has_script(const UChar *s, int32_t n, UScriptCode a, UScriptCode b,
                      UScriptCode c)
{
	UErrorCode e = U_ZERO_ERROR;
	for (int32_t i = 0; i < n;) {
		UChar32 x;
		U16_NEXT(s, i, n, x);
		UScriptCode sc = uscript_getScript(x, &e);
		if (U_SUCCESS(e) && (sc == a || sc == b || sc == c))
			return 1;
	}
	return 0;
}

/* 1 if some code point of s[0..n) lies in lo..hi. */
static int has_range(const UChar *s, int32_t n, UChar32 lo, UChar32 hi)
{
	for (int32_t i = 0; i < n;) {
		UChar32 x;
		U16_NEXT(s, i, n, x);
		if (x >= lo && x <= hi)
			return 1;
	}
	return 0;
}

static UScriptCode script_of(UChar32 c)
{
	UErrorCode e = U_ZERO_ERROR;
	UScriptCode sc = uscript_getScript(c, &e);
	return U_SUCCESS(e) ? sc : USCRIPT_INVALID_CODE;
}

/* Whether FreeformClass allows code point c at s[at..next) of s[0..n):
 * RFC 8264 §8's derivation in its order, with RFC 5892 §2.6's
 * exceptions and Appendix A's contextual rules (CONTEXTJ, CONTEXTO). */
static int allowed(const UChar *s, int32_t n, int32_t at, int32_t next,
                   UChar32 c)
{
	UChar32 prev = 0, after = 0;
	int32_t back = at; /* U16_PREV moves its index */
	if (back > 0)
		U16_PREV(s, 0, back, prev);
	if (next < n)
		U16_GET(s, 0, next, n, after);
	switch (c) { /* RFC 5892 §2.6, the exceptions */
	case 0x00DF:
	case 0x03C2:
	case 0x06FD:
	case 0x06FE:
	case 0x0F0B:
	case 0x3007:
		return 1; /* PVALID */
	case 0x0640:
	case 0x07FA:
	case 0x302E:
	case 0x302F:
	case 0x3031:
	case 0x3032:
	case 0x3033:
	case 0x3034:
	case 0x3035:
	case 0x303B:
		return 0; /* DISALLOWED */
	case 0x00B7:      /* MIDDLE DOT: only in "l·l" (Catalan) */
		return prev == 0x6C && after == 0x6C;
	case 0x0375: /* GREEK KERAIA: before a Greek letter */
		return next < n && script_of(after) == USCRIPT_GREEK;
	case 0x05F3:
	case 0x05F4: /* GERESH, GERSHAYIM: after Hebrew */
		return at > 0 && script_of(prev) == USCRIPT_HEBREW;
	case 0x30FB: /* KATAKANA MIDDLE DOT: with Japanese around */
		return has_script(s, n, USCRIPT_HIRAGANA, USCRIPT_KATAKANA,
		                  USCRIPT_HAN);
	default:
		break;
	}
	if (c >= 0x0660 && c <= 0x0669) /* Arabic-Indic digits: not mixed */
		return !has_range(s, n, 0x06F0, 0x06F9);
	if (c >= 0x06F0 && c <= 0x06F9)
		return !has_range(s, n, 0x0660, 0x0669);
	int8_t cat = u_charType(c);
	if (cat == U_UNASSIGNED) /* (J), noncharacters too */
		return 0;
	if (c >= 0x21 && c <= 0x7E) /* (K) ASCII7 */
		return 1;
	if (u_hasBinaryProperty(c, UCHAR_JOIN_CONTROL)) /* (H) CONTEXTJ */
		return at > 0 && u_getCombiningClass(prev) == 9; /* virama */
	int hst = u_getIntPropertyValue(c, UCHAR_HANGUL_SYLLABLE_TYPE);
	if (hst == U_HST_LEADING_JAMO || hst == U_HST_VOWEL_JAMO ||
	    hst == U_HST_TRAILING_JAMO) /* (I) OldHangulJamo */
		return 0;
	if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
	    u_hasBinaryProperty(c, UCHAR_NONCHARACTER_CODE_POINT)) /* (M) */
		return 0;
	switch (cat) {
	case U_CONTROL_CHAR: /* (L) */
		return 0;
	case U_LOWERCASE_LETTER:
	case U_UPPERCASE_LETTER:
	case U_OTHER_LETTER:
	case U_DECIMAL_DIGIT_NUMBER:
	case U_MODIFIER_LETTER:
	case U_NON_SPACING_MARK:
	case U_COMBINING_SPACING_MARK: /* (A) LetterDigits */
	case U_TITLECASE_LETTER:
	case U_LETTER_NUMBER:
	case U_OTHER_NUMBER:
	case U_ENCLOSING_MARK:  /* (R) */
	case U_SPACE_SEPARATOR: /* (N) */
	case U_MATH_SYMBOL:
	case U_CURRENCY_SYMBOL:
	case U_MODIFIER_SYMBOL:
	case U_OTHER_SYMBOL: /* (O) */
	case U_CONNECTOR_PUNCTUATION:
	case U_DASH_PUNCTUATION:
	case U_START_PUNCTUATION:
	case U_END_PUNCTUATION:
	case U_INITIAL_PUNCTUATION:
	case U_FINAL_PUNCTUATION:
	case U_OTHER_PUNCTUATION: /* (P) */
		return 1;         /* FreeformClass: PVALID or FREE_PVAL */
	default:
		return 0; /* format, private use, surrogate, Zl, Zp */
	}
}

int nickname_enforce(const char *in, char *out, size_t max, uint32_t *cp)
{
	UChar s[UNITS], t[UNITS];
	UErrorCode e = U_ZERO_ERROR;
	size_t len = strlen(in);
	if (len > NICKNAME_MAX_INPUT)
		return NICKNAME_INVALID;
	int32_t n;
	u_strFromUTF8(s, UNITS, &n, in, (int32_t)len, &e);
	if (U_FAILURE(e))
		return NICKNAME_INVALID;
	const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
	if (U_FAILURE(e))
		return NICKNAME_INVALID;
	int stable = 0;
	for (int round = 0; round < 4 && !stable; round++) {
		int32_t m = map_spaces(s, n, t);
		if (m == 0)
			return NICKNAME_EMPTY; /* (and t + m would be t) */
		int32_t k = unorm2_normalize(nfkc, t, m, t + m, UNITS - m, &e);
		if (U_FAILURE(e))
			return NICKNAME_INVALID;
		stable = k == n && u_memcmp(t + m, s, n) == 0;
		u_memcpy(s, t + m, k);
		n = k;
	}
	if (!stable)
		return NICKNAME_UNSTABLE;
	for (int32_t i = 0; i < n;) {
		UChar32 c;
		int32_t at = i;
		U16_NEXT(s, i, n, c);
		if (!allowed(s, n, at, i, c)) {
			if (cp)
				*cp = (uint32_t)c;
			return NICKNAME_DISALLOWED;
		}
	}
	char u8[NICKNAME_MAX_INPUT * 3 + 1];
	int32_t bytes;
	u_strToUTF8(u8, (int32_t)sizeof u8, &bytes, s, n, &e);
	if (U_FAILURE(e) && e != U_BUFFER_OVERFLOW_ERROR)
		return NICKNAME_INVALID;
	if (e == U_BUFFER_OVERFLOW_ERROR || (size_t)bytes > max)
		return NICKNAME_TOO_LONG;
	memcpy(out, u8, (size_t)bytes);
	out[bytes] = '\0';
	return 0;
}
