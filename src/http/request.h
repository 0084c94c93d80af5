/* request.h: the copy of a request's fields that a write worker reads
 * (request.c); http.h declares the accessors handlers use. */
#ifndef BD_HTTP_REQUEST_H
#define BD_HTTP_REQUEST_H

struct MHD_Connection;
struct http_fields;

/* A copy of c's header fields and query arguments (malloc'd in one
 * block: free it with free), or NULL when out of memory.  http_header and
 * http_query read it when a struct http_req's `fields` points to it. */
struct http_fields *http_fields_copy(struct MHD_Connection *c);

#endif
