/* nickname.h: the names people choose (player names, token labels),
 * enforced by the Nickname profile of PRECIS (RFC 8266, over RFC 8264's
 * FreeformClass), with ICU's Unicode data and NFKC.
 *
 * Enforcement, in RFC 8266 §2.2's order: every non-ASCII space (general
 * category Zs) becomes U+0020, spaces at either end go, runs of spaces
 * become one; then NFKC (which also does the width mapping: "ｆｏｏ" is
 * "foo", "Ⅳ" is "IV").  Case is kept (RFC 8266 applies its case
 * mapping for comparison only).  The rules are applied again until the
 * name no longer changes (RFC 8264 §7: NFKC may make a space, "¨" is
 * " ̈"); a name that still changes after 4 rounds is refused.  Then
 * every code point must be allowed by FreeformClass (RFC 8264 §9, the
 * exceptions of RFC 5892 §2.6 and their contextual rules of RFC 5892
 * Appendix A): refused are controls (C0, DEL, C1), default-ignorable code
 * points (the bidi controls U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069, zero-width U+200B, U+2060, U+FEFF, the soft hyphen),
 * noncharacters, unassigned code points (of ICU's Unicode version),
 * private use, surrogates, line and paragraph separators, other format
 * characters, old Hangul jamo, and the joiners U+200C/U+200D except
 * after a virama. */
#ifndef BD_NICKNAME_H
#define BD_NICKNAME_H

#include <stddef.h>
#include <stdint.h>

/* Longest input nickname_enforce reads, in bytes: a longer one is refused
 * before any work (the enforced name is far shorter anyway). */
#define NICKNAME_MAX_INPUT 1024

enum nickname_err {
	NICKNAME_EMPTY = -1,      /* nothing but spaces (or nothing) */
	NICKNAME_TOO_LONG = -2,   /* over `max` bytes once enforced */
	NICKNAME_DISALLOWED = -3, /* a code point FreeformClass refuses */
	NICKNAME_UNSTABLE = -4,   /* still changing after 4 rounds */
	NICKNAME_INVALID = -5,    /* not UTF-8, over NICKNAME_MAX_INPUT, or
	                             ICU failed */
};

/* Enforces the Nickname profile on `in` (NUL-ended UTF-8) into out[0..
 * max] (the name, NUL-ended, 1..max bytes of UTF-8; out holds max + 1
 * bytes).  0 on success; else a nickname_err, out untouched, and for
 * NICKNAME_DISALLOWED *cp the first refused code point (cp may be
 * NULL).  Thread-safe (ICU's normalizer instance is shared, read-only). */
int nickname_enforce(const char *in, char *out, size_t max, uint32_t *cp);

#endif
