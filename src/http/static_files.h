/* static_files.h: the reference web client's files (web/), embedded in the
 * binary at build time (tools/embed.sh files, into gen/web.c) like the
 * OpenAPI document, and served at GET / (web/index.html) and GET /NAME.
 *
 * The client is plain HTML, CSS and JavaScript modules built on the public
 * API alone; the server knows nothing of it but these bytes.  Each file
 * carries its Content-Type (from its extension) and a strong ETag (the
 * first 96 bits of its SHA-256 in hex, in quotes, so that it fits
 * http_reply.etag); it is served with Cache-Control: no-cache, so a
 * browser revalidates with If-None-Match and gets 304 while the binary is
 * the same.
 *
 * Each file is also compressed with gzip and br at build time
 * (tools/embed.sh: `gzip -9n`, `brotli -q 11`), a coding kept only when
 * it makes the file smaller: a client gets the smallest its
 * Accept-Encoding takes, with Content-Encoding, the coded entity-tag and
 * Vary: Accept-Encoding (router.c web_file); serving them compresses
 * nothing. */
#ifndef BD_HTTP_STATIC_FILES_H
#define BD_HTTP_STATIC_FILES_H

#include <stddef.h>

#include "encoding.h"

/* A file's bytes in one content coding. */
struct static_coded {
	const char *bytes; /* the coded bytes, or NULL: that coding made the
	                      file no smaller, not kept */
	size_t len;        /* bytes of bytes */
	const char *etag;  /* the file's ETag for that coding
	                      (http_etag_coded's form: "\"<h>-br\"") */
};

struct static_file {
	const char *path;  /* "/app.js": "/" + the file's name in web/ (a
	                      flat folder: no subfolders) */
	const char *type;  /* Content-Type value */
	const char *etag;  /* strong ETag value, with its quotes */
	const char *bytes; /* the file's bytes (NUL after, not counted) */
	size_t len;        /* bytes of bytes */
	struct static_coded coded[HTTP_CODINGS]; /* by coding (encoding.h);
	                                            [HTTP_IDENTITY] unused */
};

/* Generated (gen/web.c): every file of web/, in name order. */
extern const struct static_file static_files[];
extern const size_t static_files_count;

/* Generated (gen/rules.c, tools/rules.sh): the rules of each game as an
 * HTML page, "/rules/agent-avenue" from docs/rules/agent-avenue.md, and
 * "/rules", the list of them; served like the files above. */
extern const struct static_file rules_pages[];
extern const size_t rules_pages_count;

/* The file served at request path `path` ("/" is "/index.html",
 * "/favicon.ico" the client's icon "/favicon.svg"; "/rules" and
 * "/rules/NAME" the rules pages), or NULL.
 * Borrowed: static, lives as long as the program. */
const struct static_file *static_file_find(const char *path);

/* 1 when f is a script or a style sheet that a page loads into itself
 * (text/javascript, text/css), 0 for a document (HTML, SVG, the manifest)
 * or the service worker (/sw.js).  Content-Security-Policy and
 * X-Frame-Options apply to the document or worker a response creates
 * (CSP3's "Initialize a Document's CSP list" and "Initialize a global
 * object's CSP list"; HTML checks X-Frame-Options on the response of a
 * navigation only): on a module script or a style sheet a browser ignores
 * them, the page's own policy governs what it loads and runs.  A service
 * worker is a global of its own whose CSP is that of its script's answer:
 * sw.js keeps them. */
int static_file_subresource(const struct static_file *f);

/* File f coded with c (HTTP_GZIP or HTTP_BR), or NULL for identity or
 * when that coding would not make it smaller.  Borrowed: static. */
const struct static_coded *static_file_coded(const struct static_file *f,
                                             enum http_coding c);

#endif
