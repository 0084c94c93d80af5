/* static_files.c: finds the embedded web client file of a request path,
 * and its build-time codings (static_files.h). */
#include <string.h>

#include "static_files.h"

const struct static_coded *static_file_coded(const struct static_file *f,
                                             enum http_coding c)
{
	if (c <= HTTP_IDENTITY || c >= HTTP_CODINGS || !f->coded[c].bytes)
		return NULL;
	return &f->coded[c];
}

int static_file_subresource(const struct static_file *f)
{
	if (strcmp(f->path, "/sw.js") == 0) /* a worker: its own CSP */
		return 0;
	return strncmp(f->type, "text/javascript", 15) == 0 ||
	       strncmp(f->type, "text/css", 8) == 0;
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
