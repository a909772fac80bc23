// SPDX-License-Identifier: GPL-2.0
/*
 * The proxy prefix: connection X:Y's proxy IP is the prefix's base +
 * (X << 8 | Y), 198.18.3.9 for 03:09 in 198.18.0.0/15; its first address,
 * the proxy of the signaling ID 00:01, is the default control IP.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "rtcd.h"

int prefix_parse(const char *s, struct rtcd_prefix *p, const char **why)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	struct in_addr a;
	unsigned long len;
	char *end;
	uint32_t mask;

	*why = "is not ADDRESS/LENGTH, e.g. 198.18.0.0/15";
	if (!slash || (size_t)(slash - s) >= sizeof(addr) || !slash[1])
		return -1;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (inet_pton(AF_INET, addr, &a) != 1 || slash[1] < '0' || slash[1] > '9')
		return -1;
	len = strtoul(slash + 1, &end, 10);
	if (*end || len > 32)
		return -1;
	if (len < 1 || len > 16) {
		*why = "must have a length of 1 to 16 (room for 65536 proxy addresses)";
		return -1;
	}
	mask = ~0U << (32 - len);
	if (ntohl(a.s_addr) & ~mask) {
		*why = "has host bits set";
		return -1;
	}
	p->base = ntohl(a.s_addr);
	p->len = (unsigned int)len;
	*why = NULL;
	return 0;
}

void prefix_format(const struct rtcd_prefix *p, char *buf, size_t len)
{
	struct in_addr a = { htonl(p->base) };
	char s[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &a, s, sizeof(s));
	snprintf(buf, len, "%s/%u", s, p->len);
}

bool prefix_contains(const struct rtcd_prefix *p, uint32_t addr)
{
	return ((addr ^ p->base) & (~0U << (32 - p->len))) == 0;
}

uint32_t prefix_proxy(const struct rtcd_prefix *p, uint16_t id)
{
	return p->base + id;
}

bool prefix_conn_id(const struct rtcd_prefix *p, uint32_t addr, uint16_t *id)
{
	uint32_t off = addr - p->base;

	if (!prefix_contains(p, addr) || off < ETHEREAL_ID_MIN || off > ETHEREAL_ID_MAX)
		return false;
	*id = (uint16_t)off;
	return true;
}

uint32_t prefix_control(const struct rtcd_prefix *p)
{
	return prefix_proxy(p, ETHEREAL_ID_SIGNAL);
}
