/* static_files.c: finds the embedded web client file of a request path,
 * and keeps each file compressed (static_files.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "static_files.h"

/* Files are compressed once, with the codings' best settings: the time
 * is spent once, for every client after. */
#define GZIP_LEVEL 9
#define BR_QUALITY 11

/* coded[i * HTTP_CODINGS + c]: file i in coding c (len 0: not kept); the
 * rules pages numbered after the web client's files (file_at). */
static struct static_coded *coded;
static pthread_once_t prepared = PTHREAD_ONCE_INIT;

/* File i of the web client's files then the rules pages. */
static const struct static_file *file_at(size_t i)
{
	return i < static_files_count ? &static_files[i]
	                              : &rules_pages[i - static_files_count];
}

static void prepare(void)
{
	static const int level[HTTP_CODINGS] = {0, GZIP_LEVEL, BR_QUALITY};
	size_t files = static_files_count + rules_pages_count;
	coded = calloc(files * HTTP_CODINGS, sizeof *coded);
	if (!coded)
		return; /* every file is served as it is */
	for (size_t i = 0; i < files; i++) {
		const struct static_file *f = file_at(i);
		for (int c = HTTP_GZIP; c < HTTP_CODINGS; c++) {
			struct static_coded *k = &coded[i * HTTP_CODINGS + c];
			char *out;
			size_t n;
			if (http_compress((enum http_coding)c, f->bytes, f->len,
			                  level[c], &out, &n) < 0)
				continue;
			if (n >= f->len ||
			    http_etag_coded(k->etag, sizeof k->etag, f->etag,
			                    (enum http_coding)c) < 0) {
				free(out);
				continue;
			}
			k->bytes = out;
			k->len = n;
		}
	}
}

const struct static_coded *static_file_coded(const struct static_file *f,
                                             enum http_coding c)
{
	pthread_once(&prepared, prepare);
	if (!coded || c <= HTTP_IDENTITY || c >= HTTP_CODINGS)
		return NULL;
	size_t i = 0, files = static_files_count + rules_pages_count;
	while (i < files && file_at(i) != f)
		i++;
	if (i == files)
		return NULL;
	const struct static_coded *k = &coded[i * HTTP_CODINGS + c];
	return k->len ? k : NULL;
}

const struct static_file *static_file_find(const char *path)
{
	if (strcmp(path, "/") == 0)
		path = "/index.html";
	/* Browsers ask for /favicon.ico whatever the page links: the page's
	 * own icon (an SVG, image/svg+xml), rather than a 404 on every first
	 * load. */
	else if (strcmp(path, "/favicon.ico") == 0)
		path = "/favicon.svg";
	for (size_t i = 0; i < static_files_count; i++)
		if (strcmp(static_files[i].path, path) == 0)
			return &static_files[i];
	for (size_t i = 0; i < rules_pages_count; i++)
		if (strcmp(rules_pages[i].path, path) == 0)
			return &rules_pages[i];
	return NULL;
}
