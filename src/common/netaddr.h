/* netaddr.h: is an address public?  Webhooks must not reach the server's
 * own network unless the operator allows it.  Its manual. */
#ifndef BD_NETADDR_H
#define BD_NETADDR_H

#include <sys/socket.h>

/* 1 if sa (AF_INET or AF_INET6) is a public unicast address; 0 for
 * loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10), link-local
 * (169.254/16, fe80::/10), unspecified, "this network" (0/8), benchmark
 * (198.18/15), IETF protocol (192.0.0/24), documentation, multicast,
 * reserved (240/4, broadcast), IPv6 unique-local (fc00::/7), local-use
 * NAT64 (64:ff9b:1::/48), and IPv4 addresses mapped (::ffff:0:0/96),
 * translated (64:ff9b::/96), compatible (::/96) or 6to4 (2002::/16) in
 * IPv6 that are one of those; 0 for any other family. */
int netaddr_is_public(const struct sockaddr *sa);

/* If `host` is an IP literal (IPv6 with or without brackets, IPv4 with
 * or without a trailing dot): 1 and *is_public set; else 0 (a name, to
 * be checked once resolved). */
int netaddr_literal(const char *host, int *is_public);

/* What can be told of a URL's host before resolving it: 0 if it is
 * certainly not public (an IP literal netaddr_is_public rejects, or a
 * name that never leaves the host: "localhost" and every name under it,
 * RFC 6761 §6.3, "ip6-localhost", "ip6-loopback", each without case and
 * with or without a trailing dot); 1 otherwise (a name is checked again
 * on the address it resolves to). */
int netaddr_host_may_be_public(const char *host);

#endif
