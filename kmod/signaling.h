/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signaling as the rest of the module sees it: a switch's and a
 * connection's signaling state, and the entry points of signal.c,
 * sigsetup.c, sighello.c and sigauth.c. What those files share among
 * themselves is in sig.h.
 */
#ifndef _ETHEREAL_SIGNALING_H
#define _ETHEREAL_SIGNALING_H

#include <linux/atomic.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "neigh.h"

struct ethereal_conn;
struct ethereal_port;
struct ethereal_switch;
struct netlink_ext_ack;
struct sk_buff;

/* Signaling counters (ETHEREAL_SIG_STATS_A_*: netlink_switch.c maps them). */
enum ethereal_sig_counter {
	ETHEREAL_SIGC_RX,
	ETHEREAL_SIGC_TX,
	ETHEREAL_SIGC_ACCEPTED,
	ETHEREAL_SIGC_REJECTED,
	ETHEREAL_SIGC_TEARDOWNS,
	ETHEREAL_SIGC_EXPIRED,
	ETHEREAL_SIGC_LINK_DOWN,
	ETHEREAL_SIGC_ARP_HITS,
	ETHEREAL_SIGC_ARP_MISSES,
	ETHEREAL_SIGC_DROP_MALFORMED,
	ETHEREAL_SIGC_DROP_RATELIMIT,
	ETHEREAL_SIGC_DROP_BACKLOG,
	ETHEREAL_SIGC_DROP_SPOOFED,
	ETHEREAL_SIGC_DROP_UNEXPECTED,
	ETHEREAL_SIGC_NEIGH_REFUSED,
	ETHEREAL_SIGC_NEIGH_CLAIMS,
	ETHEREAL_SIGC_EVENT_DROPS,
	ETHEREAL_SIGC_DROP_STRANGER,
	ETHEREAL_SIGC_SWITCHES,
	ETHEREAL_SIGC_DROP_AUTH,
	ETHEREAL_SIGC_RTNL_RUNS,
	ETHEREAL_SIGC_N
};

/* Setup times at this switch, ns: from the request's arrival to its answer
 * or its forwarding downstream.
 */
struct ethereal_sig_time {
	u64 n;
	u64 sum;
	u64 max;
};

/*
 * Signaling state of a switch (signal.c, neigh.c). Messages are queued by
 * the packet path and handled in process context under the switch's lock,
 * and RTNL for those that change connections (switch.h); the neighbour
 * cache is filled by snooping ARP on the packet path.
 */
struct ethereal_sig {
	struct delayed_work work;
	bool dead;			/* detaching: queue nothing more */
	struct rb_root_cached deadlines; /* signaled connections by deadline */
	struct list_head waiting;	/* setups waiting for ARP */
	unsigned int n_pending;		/* waiting, or for downstream */
	unsigned int next_rx;		/* the port served first */
	unsigned int n_waiting;
	u32 lifetime_ms;		/* soft state */
	unsigned long next_hello;	/* jiffies: trunks' next hellos */
	spinlock_t neigh_lock;
	u32 neigh_seed;			/* keys the neighbour hash */
	struct hlist_head neigh[1 << ETHEREAL_NEIGH_BITS];
	unsigned int n_neigh;
	u32 neigh_gen;			/* entries added or removed, neigh_lock */
	atomic_long_t c[ETHEREAL_SIGC_N];
	struct ethereal_sig_time t_hit;	/* receiver's MAC known */
	struct ethereal_sig_time t_miss; /* ARP asked first */
};

/* Where answers to a host go: what its request came from. */
struct ethereal_sig_peer {
	u8 mac[ETH_ALEN];
	__be32 ip;			/* the host's */
	__be32 ctl_ip;			/* the address it sent to */
	__be16 port;			/* its UDP port */
};

/* A signaled connection's protocol state. */
struct ethereal_conn_sig {
	struct rb_node node;		/* in ethereal_sig.deadlines */
	u8 state;			/* enum ethereal_conn_state */
	u8 hop;				/* this switch's, 1 = first */
	bool has_peer;			/* input port leads to the source host */
	u16 dport;			/* the receiver's UDP port, from the SETUP */
	/* How it ends, for the monitor: set before ethereal_conn_del(). */
	u8 end_event;			/* enum ethereal_event, 0: removed */
	u8 end_hop;
	u16 end_reason;
	u8 proceeds;			/* PROCEEDINGs taken while pending */
	u32 cookie;
	u32 lifetime_ms;
	u64 path_delay;			/* ns: the path's bound up to here, once
					 * accepted the whole path's; U64_MAX none
					 */
	unsigned long deadline;		/* jiffies: answer due, or expiry */
	struct ethereal_sig_peer peer;
};

/* signal.c */
void ethereal_sig_init(struct ethereal_switch *sw);
void ethereal_sig_stop(struct ethereal_switch *sw);
unsigned int ethereal_sig_rx(struct ethereal_port *port, struct sk_buff *skb);
void ethereal_sig_port_down(struct ethereal_port *port, u16 reason);
/* sighello.c: the switch at a trunk's other end */
bool ethereal_port_link_sw_alive(const struct ethereal_port *port);
void ethereal_sig_forget_link_switch(struct ethereal_port *port);
/* sigauth.c: a trunk's key */
int ethereal_port_set_key(struct ethereal_port *port, const u8 *secret, unsigned int len,
			  struct netlink_ext_ack *extack);
void ethereal_port_free_key(struct ethereal_port *port);
bool ethereal_port_key_verified(const struct ethereal_port *port);
/* sigsetup.c: a signaled connection's end */
void ethereal_sig_conn_teardown(struct ethereal_conn *conn, u16 reason);
void ethereal_sig_conn_gone(struct ethereal_conn *conn);

#endif /* _ETHEREAL_SIGNALING_H */
