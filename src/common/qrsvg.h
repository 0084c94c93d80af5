/* qrsvg.h: a QR code of a short text as an SVG image, by Debian's
 * libqrencode (ISO/IEC 18004): what a second device's camera reads to
 * open a link code's claim URL (service/identity.c). */
#ifndef BD_QRSVG_H
#define BD_QRSVG_H

#include <stddef.h>

/* Longest text qrsvg_make encodes, in bytes: a QR code of version 10 or
 * less at error correction M (57 modules a side), which a phone's camera
 * still reads off another screen. */
#define QRSVG_TEXT_MAX 200

enum qrsvg_err {
	QRSVG_EMPTY = -1,    /* the text is empty */
	QRSVG_TOO_LONG = -2, /* over QRSVG_TEXT_MAX bytes */
	QRSVG_NOMEM = -3,    /* allocation failed (libqrencode's or ours) */
};

/* The QR code of `text` (NUL-ended bytes, borrowed; 8-bit mode, error
 * correction M, the smallest version that holds it) as an SVG document
 * (UTF-8, NUL-ended) in *out: new, malloc'd, the caller frees it.  Each
 * module is `module_px` CSS pixels square (1..32), dark on white, with
 * the standard's quiet zone of 4 modules around it; the image's width
 * and height attributes are (modules + 8) * module_px.  Drawn with
 * presentation attributes only (no style attribute, no script), so a
 * Content-Security-Policy of `style-src 'self'` draws it.  0 on
 * success; else a qrsvg_err and *out untouched.  Thread-safe. */
int qrsvg_make(const char *text, int module_px, char **out);

#endif
