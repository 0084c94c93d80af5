/* encoding.c: content codings (encoding.h). */
#include <brotli/encode.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "../common/qvalue.h"
#include "encoding.h"

static const char *const names[HTTP_CODINGS] = {NULL, "gzip", "br"};

/* /metrics' counters (http_coding_counts), relaxed: counts, not order. */
static _Atomic unsigned long long compressions[HTTP_CODINGS];
static _Atomic unsigned long long sent[HTTP_CODINGS];

void http_coding_sent(enum http_coding c)
{
	if (c > HTTP_IDENTITY && c < HTTP_CODINGS)
		atomic_fetch_add_explicit(&sent[c], 1, memory_order_relaxed);
}

void http_coding_counts(unsigned long long compressions_out[HTTP_CODINGS],
                        unsigned long long sent_out[HTTP_CODINGS])
{
	for (int c = 0; c < HTTP_CODINGS; c++) {
		compressions_out[c] = atomic_load_explicit(
		    &compressions[c], memory_order_relaxed);
		sent_out[c] =
		    atomic_load_explicit(&sent[c], memory_order_relaxed);
	}
}

const char *http_coding_name(enum http_coding c)
{
	return (unsigned)c < HTTP_CODINGS ? names[c] : NULL;
}

enum http_coding http_coding_choose(const char *ae, unsigned offered)
{
	int q[HTTP_CODINGS] = {0}, named[HTTP_CODINGS] = {0}, star = -1;
	if (!ae)
		return HTTP_IDENTITY;
	const char *p;
	size_t n;
	int w;
	for (const char *at = ae; qvalue_next(&at, &p, &n, &w);) {
		int c = -1;
		if ((n == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (n == 6 && strncasecmp(p, "x-gzip", 6) == 0))
			c = HTTP_GZIP;
		else if (n == 2 && strncasecmp(p, "br", 2) == 0)
			c = HTTP_BR;
		else if (n == 1 && *p == '*' && star < 0)
			star = w;
		if (c >= 0 && !named[c]) { /* the first element naming it */
			named[c] = 1;
			q[c] = w;
		}
	}
	enum http_coding best = HTTP_IDENTITY;
	int best_q = 0;
	for (int c = HTTP_BR; c > HTTP_IDENTITY; c--) { /* br first */
		int cq = named[c] ? q[c] : star > 0 ? star : 0;
		if ((offered & (1u << c)) && cq > best_q) {
			best = (enum http_coding)c;
			best_q = cq;
		}
	}
	return best;
}

static int gzip_bytes(const void *in, size_t len, int level, char **out,
                      size_t *out_len)
{
	z_stream z = {0};
	/* 15 + 16: a 32 KB window with a gzip header and trailer. */
	if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8,
	                 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	size_t cap = deflateBound(&z, (uLong)len);
	char *buf = malloc(cap);
	if (!buf) {
		deflateEnd(&z);
		return -1;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)buf;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	size_t n = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		return -1;
	}
	*out = buf;
	*out_len = n;
	return 0;
}

static int br_bytes(const void *in, size_t len, int level, char **out,
                    size_t *out_len)
{
	size_t cap = BrotliEncoderMaxCompressedSize(len);
	char *buf = cap ? malloc(cap) : NULL;
	if (!buf)
		return -1;
	size_t n = cap;
	if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW,
	                           BROTLI_MODE_TEXT, len, in, &n,
	                           (uint8_t *)buf)) {
		free(buf);
		return -1;
	}
	*out = buf;
	*out_len = n;
	return 0;
}

int http_compress(enum http_coding c, const void *in, size_t len, int level,
                  char **out, size_t *out_len)
{
	/* zlib counts in uInt: a body this server sends is far below. */
	if (len > (size_t)UINT32_MAX / 2)
		return -1;
	if (c > HTTP_IDENTITY && c < HTTP_CODINGS)
		atomic_fetch_add_explicit(&compressions[c], 1,
		                          memory_order_relaxed);
	if (c == HTTP_GZIP)
		return gzip_bytes(in, len, level, out, out_len);
	if (c == HTTP_BR)
		return br_bytes(in, len, level, out, out_len);
	return -1;
}

/* Bodies that live as long as the process, kept coded
 * (http_compress_kept): a key (in, len, c) and its coded bytes. */
#define KEPT_SLOTS 64
static struct kept {
	const void *in;  /* the body, NULL: an empty slot */
	size_t len;      /* its bytes */
	enum http_coding c;
	char *out;       /* coded (malloc'd, never freed), NULL: no smaller */
	size_t out_len;  /* bytes of out */
} kept[KEPT_SLOTS];
static int nkept; /* slots used, under kept_mu */
static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;

/* The slot of (in, len, c), or NULL; under kept_mu. */
static struct kept *kept_find(const void *in, size_t len, enum http_coding c)
{
	for (int i = 0; i < nkept; i++)
		if (kept[i].in == in && kept[i].len == len && kept[i].c == c)
			return &kept[i];
	return NULL;
}

int http_compress_kept(enum http_coding c, const void *in, size_t len,
                       int level, const char **out, size_t *out_len)
{
	pthread_mutex_lock(&kept_mu);
	struct kept *k = kept_find(in, len, c);
	int full = nkept == KEPT_SLOTS;
	pthread_mutex_unlock(&kept_mu);
	if (!k && full)
		return -1;
	if (!k) { /* coded outside the lock; a racing thread's copy wins */
		char *buf;
		size_t n;
		if (http_compress(c, in, len, level, &buf, &n) < 0)
			return -1;
		if (n >= len) {
			free(buf);
			buf = NULL;
		}
		pthread_mutex_lock(&kept_mu);
		if (!(k = kept_find(in, len, c)) && nkept < KEPT_SLOTS) {
			k = &kept[nkept++];
			*k = (struct kept){in, len, c, buf, buf ? n : 0};
			buf = NULL;
		}
		pthread_mutex_unlock(&kept_mu);
		free(buf);
		if (!k)
			return -1;
	}
	/* a filled slot never changes: read without the lock */
	if (!k->out)
		return 1;
	*out = k->out;
	*out_len = k->out_len;
	return 0;
}

int http_etag_coded(char *dst, size_t n, const char *etag, enum http_coding c)
{
	size_t len = strlen(etag);
	const char *name = http_coding_name(c);
	int w;
	if (n)
		dst[0] = '\0';
	if (len < 2 || etag[len - 1] != '"')
		return -1;
	if (!name)
		w = snprintf(dst, n, "%s", etag);
	else
		w = snprintf(dst, n, "%.*s-%s\"", (int)(len - 1), etag, name);
	if (w < 0 || (size_t)w >= n) {
		if (n)
			dst[0] = '\0';
		return -1;
	}
	return 0;
}

size_t http_etag_uncoded_len(const char *opaque, size_t len)
{
	for (int c = HTTP_GZIP; c < HTTP_CODINGS; c++) {
		size_t k = strlen(names[c]);
		if (len > k + 1 && opaque[len - k - 1] == '-' &&
		    memcmp(opaque + len - k, names[c], k) == 0)
			return len - k - 1;
	}
	return len;
}
