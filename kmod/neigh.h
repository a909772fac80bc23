/* SPDX-License-Identifier: GPL-2.0 */
/* neigh.c: the switch's view of IPv4 -> MAC, from ARP it forwards */
#ifndef _ETHEREAL_NEIGH_H
#define _ETHEREAL_NEIGH_H

#include <linux/if_ether.h>
#include <linux/types.h>

struct ethereal_port;
struct ethereal_switch;
struct netlink_ext_ack;
struct sk_buff;

/* Buckets of the cache, in struct ethereal_sig (signaling.h). */
#define ETHEREAL_NEIGH_BITS	8

void ethereal_neigh_snoop(struct ethereal_port *port, struct sk_buff *skb);
bool ethereal_neigh_lookup(struct ethereal_switch *sw, __be32 ip, u8 *mac,
			   struct ethereal_port **port);
void ethereal_neigh_port_down(struct ethereal_port *port);
void ethereal_neigh_probe(struct ethereal_switch *sw, __be32 ip);
void ethereal_neigh_flush(struct ethereal_switch *sw);
void ethereal_neigh_port_gone(struct ethereal_port *port);
int ethereal_neigh_add(struct ethereal_port *port, __be32 ip, const u8 *mac,
		       struct netlink_ext_ack *extack);
int ethereal_neigh_remove(struct ethereal_port *port, __be32 ip,
			  struct netlink_ext_ack *extack);

/* An entry of the table, as ethereal_neigh_walk() shows it. */
struct ethereal_neigh_info {
	const struct ethereal_port *port;
	__be32 ip;
	u8 mac[ETH_ALEN];
	bool is_static;
	bool bound;
	u32 age_ms;
};

int ethereal_neigh_walk(struct ethereal_switch *sw, const struct ethereal_port *port,
			long *bucket, long *pos,
			int (*fill)(void *arg, const struct ethereal_neigh_info *ni),
			void *arg);

#endif /* _ETHEREAL_NEIGH_H */
