/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Connections (conn.c), and the real-time MACs that name them. Locking as
 * for switches and ports (switch.h).
 */
#ifndef _ETHEREAL_CONN_H
#define _ETHEREAL_CONN_H

#include <linux/if_ether.h>
#include <linux/types.h>

#include <linux/ethereal.h>

#include "compat.h"
#include "signaling.h"
#include "stats.h"

struct ethereal_port;
struct netlink_ext_ack;

struct ethereal_conn {
	struct ethereal_port *in;
	struct ethereal_port *out;
	u16 in_id;
	u16 qid;			/* output ID, and queue on the output port */
	u8 out_mac[ETH_ALEN];		/* FF:FF:FF:FF:qid, or the receiver's MAC */
	bool to_host;			/* out_mac is the receiver's MAC */
	bool swap;
	u8 origin;			/* enum ethereal_conn_origin */
	__be32 daddr;
	u64 rate;			/* bit/s */
	u32 burst;			/* bytes */
	u32 max_pkt;			/* bytes, Ethernet header included */
	/* Its delay bound here (bound.h), U64_MAX: none. */
	u64 delay;			/* ns: the output port's, and the link
					 * from a host to this first switch
					 */
	u64 dl_hop;			/* ns: the output port's promise */
	u64 dl_budget;			/* ns: the port's budget it rests on */
	u64 dl_tol;			/* bytes: the burst policed to, as told */
	u64 dl_b;			/* what it adds to the port's sums */
	u64 dl_v;
	u64 jitter;			/* ns its frames may come late, bunched:
					 * its host's discard window, or the
					 * bound of the path before, at setup
					 */
	u64 queue;			/* bytes: its queue's limit on the output
					 * port, charged to its rt-buffer; grows
					 * with the port's common term
					 */
	struct ethereal_conn_sig sig;	/* ETHEREAL_ORIGIN_SIGNALED only */
	struct ethereal_stats __percpu *stats;
	struct rcu_head rcu;
};

/* What a connection is asked to be, before it exists. */
struct ethereal_conn_cfg {
	struct ethereal_port *in;
	struct ethereal_port *out;
	u16 in_id;
	u16 out_id;			/* 0: allocate one (or to_host) */
	bool to_host;
	u8 out_mac[ETH_ALEN];
	bool swap;
	u8 origin;
	__be32 daddr;
	u64 rate;
	u32 burst;
	u32 max_pkt;
	u64 max_delay;			/* ns its bound here may be, link from a
					 * host included; 0: any
					 */
	u64 before;			/* ns: the bound of the path before this
					 * switch (signaling); 0: a host, or not
					 * known
					 */
};

static inline bool ethereal_mac_is_rt(const u8 *mac)
{
	/* FF:FF:FF:FF:X:Y; FF:FF:FF:FF:FF:FF (broadcast) is checked first. */
	return get_unaligned((const u32 *)mac) == 0xffffffff;
}

static inline u16 ethereal_mac_id(const u8 *mac)
{
	return get_unaligned_be16(mac + ETHEREAL_MAC_PREFIX_LEN);
}

struct ethereal_conn *ethereal_conn_add(const struct ethereal_conn_cfg *cfg,
					struct netlink_ext_ack *extack);
void ethereal_conn_del(struct ethereal_conn *conn);
void ethereal_port_flush_conns(struct ethereal_port *port);

#endif /* _ETHEREAL_CONN_H */
