/* request.c: what a handler reads of its request (http.h): its header
 * fields and query arguments, from the library or from the copy a write
 * worker holds (http_fields_copy), and the body cap of a path.  Below
 * server.c, router.c, live.c and problem.c, which all read requests; it
 * calls none of them. */
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http.h"
#include "request.h"

/* A request's header fields and query arguments, copied out of the
 * library's (one block: this header, the array, then the strings), for
 * a write worker that reads them while the connection is suspended:
 * libmicrohttpd 0.9.75 does not promise that a suspended connection's
 * values may be read from another thread. */
struct http_fields {
	size_t n;
	struct http_field {
		enum MHD_ValueKind kind; /* MHD_HEADER_KIND or a query's */
		const char *key;
		const char *value; /* NULL for a query name without '=' */
	} f[];
};

/* The first value of `key` of `kind` in f, as the library's lookup
 * answers it (names compared without case, as 0.9.75 does). */
static const char *fields_lookup(const struct http_fields *f,
                                 enum MHD_ValueKind kind, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->f[i].kind == kind && strcasecmp(f->f[i].key, key) == 0)
			return f->f[i].value;
	return NULL;
}

const char *http_header(const struct http_req *req, const char *name)
{
	if (req->fields)
		return fields_lookup(req->fields, MHD_HEADER_KIND, name);
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *http_query(const struct http_req *req, const char *name)
{
	if (req->fields)
		return fields_lookup(req->fields, MHD_GET_ARGUMENT_KIND, name);
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND,
	                                   name);
}

/* http_fields_copy's two passes: first counting (f NULL), then copying. */
struct fields_walk {
	size_t n, bytes;       /* fields and string bytes seen */
	struct http_fields *f; /* NULL on the counting pass */
	char *text;            /* where the next string goes */
};

static const char *walk_str(struct fields_walk *w, const char *v)
{
	if (!v)
		return NULL;
	size_t n = strlen(v) + 1;
	if (!w->f) {
		w->bytes += n;
		return NULL;
	}
	char *to = memcpy(w->text, v, n);
	w->text += n;
	return to;
}

static enum MHD_Result walk_field(void *cls, enum MHD_ValueKind kind,
                                  const char *key, const char *value)
{
	struct fields_walk *w = cls;
	struct http_field *out = w->f ? &w->f->f[w->n] : NULL;
	const char *k = walk_str(w, key), *v = walk_str(w, value);
	if (out)
		*out = (struct http_field){kind, k, v};
	w->n++;
	return MHD_YES;
}

struct http_fields *http_fields_copy(struct MHD_Connection *c)
{
	const enum MHD_ValueKind kinds =
	    MHD_HEADER_KIND | MHD_GET_ARGUMENT_KIND;
	struct fields_walk w = {0};
	MHD_get_connection_values(c, kinds, walk_field, &w);
	size_t head = sizeof *w.f + w.n * sizeof w.f->f[0];
	w.f = malloc(head + w.bytes);
	if (!w.f)
		return NULL;
	w.f->n = w.n;
	w.n = 0;
	w.text = (char *)w.f + head;
	MHD_get_connection_values(c, kinds, walk_field, &w);
	return w.f;
}

size_t http_body_max(const char *path)
{
	return strcmp(path, "/v1/games") == 0 ? HTTP_RECORD_BODY_MAX
	                                      : HTTP_BODY_MAX;
}
