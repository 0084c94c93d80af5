/* netaddr.c: public or not.  See netaddr.h. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "netaddr.h"

/* An IPv4 address (host order) in a.b.c.d/len? */
static int in4(uint32_t a, uint32_t net, int len)
{
	uint32_t mask = len ? ~0u << (32 - len) : 0;
	return (a & mask) == (net & mask);
}

#define V4(a, b, c, d)                                                         \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 |      \
	 (uint32_t)(d))

static int v4_public(uint32_t a)
{
	static const struct {
		uint32_t net;
		int len;
	} blocked[] = {
	    {V4(0, 0, 0, 0), 8},       {V4(10, 0, 0, 0), 8},
	    {V4(100, 64, 0, 0), 10},   {V4(127, 0, 0, 0), 8},
	    {V4(169, 254, 0, 0), 16},  {V4(172, 16, 0, 0), 12},
	    {V4(192, 0, 0, 0), 24},    {V4(192, 0, 2, 0), 24},
	    {V4(192, 168, 0, 0), 16},  {V4(198, 18, 0, 0), 15},
	    {V4(198, 51, 100, 0), 24}, {V4(203, 0, 113, 0), 24},
	    {V4(224, 0, 0, 0), 4},     {V4(240, 0, 0, 0), 4},
	};
	for (size_t i = 0; i < sizeof blocked / sizeof *blocked; i++)
		if (in4(a, blocked[i].net, blocked[i].len))
			return 0;
	return 1;
}

static uint32_t v4_at(const uint8_t *b)
{
	return V4(b[0], b[1], b[2], b[3]);
}

static int v6_public(const uint8_t *b)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0,    0,
	                                   0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b};
	static const uint8_t zero[12] = {0};
	if (memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0 ||
	    memcmp(b, zero, 12) == 0) /* mapped, NAT64, compatible/::/::1 */
		return memcmp(b, zero, 12) == 0 && v4_at(b + 12) <= 1
		           ? 0
		           : v4_public(v4_at(b + 12));
	if (b[0] == 0x20 && b[1] == 0x02) /* 2002::/16 6to4: its IPv4 */
		return v4_public(v4_at(b + 2));
	if (memcmp(b, nat64, 4) == 0 && b[4] == 0 && b[5] == 1)
		return 0; /* 64:ff9b:1::/48 local-use translation (RFC 8215) */
	if ((b[0] & 0xfe) == 0xfc) /* fc00::/7 unique local */
		return 0;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) /* fe80::/10 */
		return 0;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) /* fec0::/10 site-local */
		return 0;
	if (b[0] == 0xff) /* multicast */
		return 0;
	if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8)
		return 0; /* 2001:db8::/32 documentation */
	return 1;
}

int netaddr_is_public(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
		return v4_public(ntohl(s4->sin_addr.s_addr));
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
		return v6_public(s6->sin6_addr.s6_addr);
	}
	return 0;
}

int netaddr_literal(const char *host, int *is_public)
{
	struct sockaddr_in s4 = {.sin_family = AF_INET};
	struct sockaddr_in6 s6 = {.sin6_family = AF_INET6};
	char buf[64];
	size_t n = strlen(host);
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']' &&
	    n - 2 < sizeof buf) {
		memcpy(buf, host + 1, n - 2);
		buf[n - 2] = '\0';
		host = buf;
	} else if (n >= 2 && host[n - 1] == '.' && n - 1 < sizeof buf) {
		/* "127.0.0.1.": the resolver may read it as the address */
		memcpy(buf, host, n - 1);
		buf[n - 1] = '\0';
		host = buf;
	}
	if (inet_pton(AF_INET, host, &s4.sin_addr) == 1) {
		*is_public = netaddr_is_public((struct sockaddr *)&s4);
		return 1;
	}
	if (inet_pton(AF_INET6, host, &s6.sin6_addr) == 1) {
		*is_public = netaddr_is_public((struct sockaddr *)&s6);
		return 1;
	}
	return 0;
}

/* Names that never leave the host (compared without case, a trailing
 * dot removed): RFC 6761 §6.3 reserves "localhost" and every name under
 * it; Debian's /etc/hosts names ::1 ip6-localhost and ip6-loopback. */
static int local_name(const char *host)
{
	static const char *const names[] = {"localhost", "ip6-localhost",
	                                    "ip6-loopback"};
	static const char tail[] = ".localhost";
	size_t n = strlen(host);
	if (n > 0 && host[n - 1] == '.')
		n--;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (n == strlen(names[i]) &&
		    strncasecmp(host, names[i], n) == 0)
			return 1;
	return n > sizeof tail - 1 && strncasecmp(host + n - (sizeof tail - 1),
	                                          tail, sizeof tail - 1) == 0;
}

int netaddr_host_may_be_public(const char *host)
{
	int is_public = 1;
	if (local_name(host))
		return 0;
	if (netaddr_literal(host, &is_public))
		return is_public;
	return 1;
}
