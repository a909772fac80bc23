/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EtheReal: internal structures of ethereal.ko.
 *
 * Locking: configuration (switches, ports, connections) changes under RTNL,
 * which also serializes it with the bridge and the qdisc. The packet path
 * reads under RCU only: port state through its netfilter hook's private
 * pointer, connections through XArray loads. Objects are freed after a
 * grace period.
 */
#ifndef _ETHEREAL_H
#define _ETHEREAL_H

#include <linux/etherdevice.h>
#include <linux/if_bridge.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/ratelimit.h>
#include <linux/rbtree.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include <linux/ethereal.h>

#include "compat.h"

/* Indices of the counters in struct ethereal_stats, in uapi order. */
enum ethereal_counter {
	ETHEREAL_RX_PACKETS,
	ETHEREAL_RX_BYTES,
	ETHEREAL_TX_PACKETS,
	ETHEREAL_TX_BYTES,
	ETHEREAL_DROP_UNKNOWN_ID,
	ETHEREAL_DROP_PORT_STATE,
	ETHEREAL_DROP_OVERSIZE,
	ETHEREAL_DROP_MALFORMED,
	ETHEREAL_DROP_CONTROL,
	ETHEREAL_DROP_TO_SWITCH,
	ETHEREAL_DROP_QUEUE,
	ETHEREAL_DROP_EARLY,
	ETHEREAL_DROP_FILTERED,
	ETHEREAL_N_COUNTERS
};

/* Signaling counters (ETHEREAL_SIG_STATS_A_*: netlink.c maps them). */
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
	ETHEREAL_SIGC_N
};

/* Per-CPU counters: the packet path never shares a cache line for them. */
struct ethereal_stats {
	u64_stats_t c[ETHEREAL_N_COUNTERS];
	struct u64_stats_sync syncp;
};

/* Setup times at this switch, ns: from the request's arrival to its answer
 * or its forwarding downstream.
 */
struct ethereal_sig_time {
	u64 n;
	u64 sum;
	u64 max;
};

#define ETHEREAL_NEIGH_BITS	8

/*
 * Signaling state of a switch (signal.c, neigh.c). Messages are queued by
 * the packet path and handled in process context under RTNL; the neighbour
 * cache is filled by snooping ARP on the packet path.
 */
struct ethereal_sig {
	struct delayed_work work;
	bool dead;			/* detaching: queue nothing more */
	struct rb_root_cached deadlines; /* signaled connections by deadline, RTNL */
	struct list_head waiting;	/* setups waiting for ARP, RTNL */
	unsigned int n_pending;		/* waiting, or for downstream */
	unsigned int next_rx;		/* the port served first, RTNL */
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

struct ethereal_switch {
	struct list_head node;		/* in ethereal_net.switches */
	struct net_device *br;
	netdevice_tracker br_tracker;
	struct list_head ports;
	unsigned int n_ports;
	unsigned int n_conns;
	struct ethereal_sig sig;
	struct rcu_head rcu;
};

struct ethereal_sched;

/*
 * Preemptive discard (Section 3.3): the non-real-time bytes a host sent
 * over a sliding window, approximated by the current window and the
 * previous one weighted by how much of it still overlaps.
 */
struct ethereal_discard {
	u64 window;			/* ns, 0: off */
	u64 limit;			/* bytes per window: the host's residual */
	u64 link;			/* bit/s, from the port's qdisc */
	atomic64_t start;		/* of the current window, ns */
	atomic64_t cur;			/* bytes accepted in it */
	atomic64_t prev;		/* in the window before */
};

struct ethereal_port {
	struct list_head node;		/* in ethereal_switch.ports */
	struct ethereal_switch *sw;
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct nf_hook_ops hook;	/* .priv is this port */
	u8 role;			/* enum ethereal_port_role */
	u8 stp_state;			/* BR_STATE_*, cached: see stp_notify */
	struct xarray in_conns;		/* input ID -> connection */
	struct xarray out_conns;	/* output ID (qid) -> connection */
	u32 out_next;			/* cyclic output ID allocation */
	unsigned long out_freed;	/* RCU state when an output ID was last freed */
	unsigned int n_in;
	unsigned int n_out;
	u64 reserved;			/* bit/s of connections leaving here */
	u64 buffered;			/* bytes of queue limits leaving here */
	u64 reserved_in;		/* bit/s of connections entering here */
	u32 host_conns;			/* signaled ones a host may have here, 0 any */
	u64 host_rate;			/* bit/s they may reserve together, 0 any */
	/*
	 * A trunk's other end, learned from its hellos (RTNL): the only
	 * sender whose signaling the trunk takes, while it keeps saying hello.
	 */
	u8 link_sw_id[ETH_ALEN];	/* its bridge's MAC */
	u8 link_sw_mac[ETH_ALEN];	/* its port's: the source of its frames */
	unsigned long link_sw_seen;	/* jiffies of its last hello, 0: none */
	struct ethereal_link_key *link_key; /* the trunk's, or NULL (sigauth.c) */
	struct ethereal_sched *sched;	/* the port's root qdisc, if ours */
	struct ethereal_discard discard;
	struct ratelimit_state sig_rl;	/* control messages arriving */
	struct sk_buff_head sig_rxq;	/* its control messages to handle */
	unsigned int sig_pending;	/* its setups in progress, RTNL */
	unsigned int n_neigh;		/* addresses learned here, neigh_lock */
	struct list_head neigh_list;	/* them, oldest first, neigh_lock */
	bool neigh_gone;		/* leaving: learn nothing more, neigh_lock */
	struct ethereal_stats __percpu *stats;
	struct rcu_head rcu;
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
	unsigned long deadline;		/* jiffies: answer due, or expiry */
	struct ethereal_sig_peer peer;
};

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

static inline void ethereal_stats_add(struct ethereal_stats __percpu *stats,
				      enum ethereal_counter c, u64 v)
{
	struct ethereal_stats *s = this_cpu_ptr(stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->c[c], v);
	u64_stats_update_end(&s->syncp);
}

static inline void ethereal_stats_inc(struct ethereal_stats __percpu *stats,
				      enum ethereal_counter c)
{
	ethereal_stats_add(stats, c, 1);
}

/* main.c */
struct ethereal_net {
	struct list_head switches;
	/* Bumped on every change of a switch, port or connection (RTNL): a
	 * dump spanning several messages is flagged if it changed meanwhile.
	 */
	u32 gen;
};

struct ethereal_net *ethereal_pernet(struct net *net);
extern struct netlink_range_validation ethereal_rate_range;
void ethereal_switch_changed(struct ethereal_switch *sw);

/* Live objects, checked at unload: Debian's kernel has no kmemleak. */
enum ethereal_obj { ETHEREAL_OBJ_SWITCH, ETHEREAL_OBJ_PORT, ETHEREAL_OBJ_CONN,
		    ETHEREAL_N_OBJ };
extern atomic_t ethereal_live[ETHEREAL_N_OBJ];

/* switch.c */
struct ethereal_switch *ethereal_switch_find(struct net *net,
					     const struct net_device *br);
struct ethereal_port *ethereal_port_find(struct net *net,
					 const struct net_device *dev);
int ethereal_switch_attach(struct net *net, struct net_device *br,
			   struct netlink_ext_ack *extack);
void ethereal_switch_detach(struct ethereal_switch *sw);
int ethereal_port_add(struct ethereal_switch *sw, struct net_device *dev);
void ethereal_port_set_role(struct ethereal_port *port, u8 role);
void ethereal_port_remove(struct ethereal_port *port);
u64 ethereal_dev_speed(const struct net_device *dev);
u64 ethereal_port_rate(const struct ethereal_port *port);
u16 ethereal_port_vid(const struct ethereal_port *port);
bool ethereal_port_in_vlan(const struct ethereal_port *port, u16 vid);
bool ethereal_port_may_forward(const struct ethereal_port *in,
			       const struct ethereal_port *out, u16 vid);
int ethereal_port_rx_vlan(const struct ethereal_port *in,
			  const struct ethereal_port *out,
			  const struct sk_buff *skb);
/* ethereal_port_rx_vlan: OUT sends the VLAN untagged. */
#define ETHEREAL_VLAN_UNTAG	BIT(16)
void ethereal_port_tx_vlan(const struct ethereal_port *out,
			   struct sk_buff *skb, int vlan);
void ethereal_stats_sum(struct ethereal_stats __percpu *stats,
			u64 sum[ETHEREAL_N_COUNTERS]);
struct ethereal_stats __percpu *ethereal_stats_alloc(void);
int ethereal_notifiers_register(void);
void ethereal_notifiers_unregister(void);

/* conn.c */
struct ethereal_conn *ethereal_conn_add(const struct ethereal_conn_cfg *cfg,
					struct netlink_ext_ack *extack);
void ethereal_conn_del(struct ethereal_conn *conn);
void ethereal_port_flush_conns(struct ethereal_port *port);

/* What an output port admits within: its qdisc's settings, or defaults. */
struct ethereal_limits {
	u64 rate;		/* the link, bit/s */
	u32 rt_limit;		/* percent of it real time may reserve */
	u32 max_conns;
	u32 rt_buffer;		/* bytes of connection queues */
};

#define ETHEREAL_RT_BUFFER_NS	1000000000ULL	/* default pool: 1 s of the link */

/* admit.c */
int ethereal_port_admit(const struct ethereal_port *port, u64 rate, u32 burst,
			struct netlink_ext_ack *extack);
int ethereal_port_fits(const struct ethereal_port *port, const struct ethereal_limits *l,
		       struct netlink_ext_ack *extack);

/* sch_ethereal.c: the qdisc, and what the switch asks of it */
int ethereal_sched_register(void);
void ethereal_sched_unregister(void);
void ethereal_sched_bind(struct ethereal_port *port);
void ethereal_sched_unbind(struct ethereal_port *port);
bool ethereal_sched_limits(const struct ethereal_port *port, struct ethereal_limits *l);
u64 ethereal_sched_rate(const struct ethereal_port *port);
int ethereal_sched_conn_add(struct ethereal_port *port, struct ethereal_conn *conn);
void ethereal_sched_conn_del(struct ethereal_port *port, struct ethereal_conn *conn);

/* discard.c */
void ethereal_discard_set(struct ethereal_port *port, u64 link, u64 window);
void ethereal_discard_update(struct ethereal_port *port);
bool ethereal_discard(struct ethereal_port *port, const struct sk_buff *skb);

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
void ethereal_sig_conn_teardown(struct ethereal_conn *conn, u16 reason);
void ethereal_sig_conn_gone(struct ethereal_conn *conn);

/* neigh.c: the switch's view of IPv4 -> MAC, from ARP it forwards */
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

/* receive.c */
unsigned int ethereal_ingress(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *state);

/* netlink.c */
int ethereal_genl_register(void);
void ethereal_genl_unregister(void);
/*
 * Monitor events (ETHEREAL_CMD_CONN_EVENT), RTNL held: about a signaled
 * connection, or a SETUP refused before one was installed (REJECTED).
 * Never fail: an event nobody listens to costs a check, one that cannot be
 * sent is counted (ETHEREAL_SIGC_EVENT_DROPS).
 */
struct ethereal_sig_msg;
void ethereal_nl_conn_event(const struct ethereal_conn *conn, u8 event, u16 reason, u8 hop);
void ethereal_nl_setup_event(const struct ethereal_port *in, const struct ethereal_sig_msg *req,
			     u16 reason, u8 hop);

#endif /* _ETHEREAL_H */
