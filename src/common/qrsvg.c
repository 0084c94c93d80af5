/* qrsvg.c: a QR code as SVG (see qrsvg.h).  libqrencode computes the
 * modules; this file only writes them out, one path of horizontal runs of
 * dark modules. */
#include "qrsvg.h"

#include <errno.h>
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUIET 4 /* ISO/IEC 18004 §7.3.7: a light margin of 4 modules */

/* Longest text of one run of the path, "M123 123h123v1h-123z", with room
 * to spare. */
#define RUN_MAX 32
#define HEAD_MAX 400 /* the <svg> and <rect> elements and the closing tags */

int qrsvg_make(const char *text, int module_px, char **out)
{
	size_t n = strlen(text);
	if (n == 0)
		return QRSVG_EMPTY;
	if (n > QRSVG_TEXT_MAX || module_px < 1 || module_px > 32)
		return QRSVG_TOO_LONG;
	/* version 0: the smallest that holds the text; case-sensitive */
	QRcode *qr = QRcode_encodeData((int)n, (const unsigned char *)text, 0,
	                           QR_ECLEVEL_M);
	if (!qr)
		return errno == ERANGE ? QRSVG_TOO_LONG : QRSVG_NOMEM;
	int w = qr->width, side = w + 2 * QUIET;
	/* at most (w + 1) / 2 runs a row: the buffer's cap, known up front */
	size_t cap = (size_t)w * (size_t)((w + 1) / 2) * RUN_MAX + HEAD_MAX;
	char *s = malloc(cap);
	int rc = QRSVG_NOMEM;
	if (!s)
		goto out_qr;
	size_t len = (size_t)snprintf(
	    s, cap,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" shape-rendering=\"crispEdges\">"
	    "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
	    "<path fill=\"#000\" d=\"",
	    side * module_px, side * module_px, side, side, side, side);
	for (int y = 0; y < w && len < cap; y++) {
		const unsigned char *row = qr->data + (size_t)y * (size_t)w;
		for (int x = 0; x < w && len < cap;) {
			/* bit 0 of each byte: the module is dark */
			if (!(row[x] & 1)) {
				x++;
				continue;
			}
			int run = 1;
			while (x + run < w && (row[x + run] & 1))
				run++;
			len += (size_t)snprintf(s + len, cap - len,
			                        "M%d %dh%dv1h-%dz", x + QUIET,
			                        y + QUIET, run, run);
			x += run;
		}
	}
	if (len < cap)
		len += (size_t)snprintf(s + len, cap - len, "\"/></svg>");
	if (len >= cap) { /* cannot happen: cap bounds every run */
		free(s);
		goto out_qr;
	}
	*out = s;
	rc = 0;
out_qr:
	QRcode_free(qr);
	return rc;
}
