/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * EtheReal real-time switch: constants and the generic netlink API shared
 * by ethereal.ko and userspace. Documentation/netlink.md describes it.
 */
#ifndef _UAPI_LINUX_ETHEREAL_H
#define _UAPI_LINUX_ETHEREAL_H

#include <linux/types.h>

#define ETHEREAL_GENL_NAME	"ethereal"
#define ETHEREAL_GENL_VERSION	1
/* Multicast group of the family: ETHEREAL_CMD_CONN_EVENT notifications. */
#define ETHEREAL_GENL_MCGRP_MONITOR	"monitor"

/*
 * Real-time frames carry FF:FF:FF:FF:X:Y as destination MAC, X:Y being a
 * 16-bit connection ID on the link. The first bytes are the same for all.
 */
#define ETHEREAL_MAC_PREFIX_LEN	4

/* IDs 0x0000-0x000a: control range, for signaling and inter-switch use. */
#define ETHEREAL_ID_CTRL_FIRST	0x0000
#define ETHEREAL_ID_CTRL_LAST	0x000a
/* Connection IDs. 0xffff would be FF:FF:FF:FF:FF:FF, the broadcast address. */
#define ETHEREAL_ID_MIN		0x000b
#define ETHEREAL_ID_MAX		0xfffe

/*
 * A real-time frame handed to its output port has
 * skb->priority == TC_H_MAKE(ETHEREAL_TC_MAJOR, qid), qid being the
 * connection's queue on that port (its output ID there), so that the port's
 * scheduler finds the queue without parsing the frame.
 */
#define ETHEREAL_TC_MAJOR	0xe7e00000U
/* The switch's own control frames (signaling, ARP probes): queued first. */
#define ETHEREAL_TC_CONTROL	(ETHEREAL_TC_MAJOR | 0x0001U)

/* Frame sizes count the Ethernet header: 1514 carries a 1500-byte packet. */
#define ETHEREAL_MAX_PKT_DEFAULT	1514
#define ETHEREAL_MAX_PKT_MIN		60
#define ETHEREAL_MAX_PKT_MAX		65535

/*
 * Rates, bit/s, of a reservation and of a port (tc ... ethereal rate):
 * 1 kbit/s to 10 Tbit/s. The bounds keep the scheduler's arithmetic
 * (a burst in ns at the rate, 10 s of the rate in bytes) within 64 bits.
 */
#define ETHEREAL_RATE_MIN		1000ULL
#define ETHEREAL_RATE_MAX		10000000000000ULL

/* Bounds of the qdisc's other numbers (tc ... ethereal, TCA_ETHEREAL_*). */
#define ETHEREAL_CYCLE_MIN_NS		100000ULL	/* 100 us */
#define ETHEREAL_CYCLE_MAX_NS		1000000000ULL	/* 1 s */
#define ETHEREAL_DISCARD_MAX_NS		10000000000ULL	/* 10 s */
#define ETHEREAL_LINK_BURST_MAX_NS	1000000000ULL	/* 1 s */
#define ETHEREAL_MAX_CONNS_MAX		(ETHEREAL_ID_MAX - ETHEREAL_ID_MIN + 1)
/* A port's delay budget (TCA_ETHEREAL_DELAY): up to a minute. */
#define ETHEREAL_DELAY_MAX_NS		60000000000ULL
#define ETHEREAL_KEY_MIN		16	/* bytes of a trunk's link key */
#define ETHEREAL_KEY_MAX		64

enum ethereal_port_role {
	ETHEREAL_PORT_PERIPHERAL,	/* link to a host */
	ETHEREAL_PORT_TRUNK,		/* link to another switch */
	__ETHEREAL_PORT_ROLE_MAX
};

#define ETHEREAL_PORT_ROLE_MAX (__ETHEREAL_PORT_ROLE_MAX - 1)

enum ethereal_conn_origin {
	ETHEREAL_ORIGIN_STATIC,		/* added with ETHEREAL_CMD_CONN_NEW */
	ETHEREAL_ORIGIN_SIGNALED,	/* set up by the signaling protocol */
};

/* A signaled connection's state (ETHEREAL_CONN_A_STATE). */
enum ethereal_conn_state {
	ETHEREAL_CONN_UP,		/* accepted all the way */
	ETHEREAL_CONN_PENDING,		/* waiting for the switches downstream */
};

/*
 * What happened to a signaled connection (ETHEREAL_A_EVENT of a
 * ETHEREAL_CMD_CONN_EVENT). A connection is ADDED when a SETUP installs it,
 * then ends with exactly one of REJECTED, EXPIRED and TEARDOWN, after
 * ACCEPTED if it got that far. A setup refused before anything was
 * installed gives a REJECTED alone.
 */
enum ethereal_event {
	ETHEREAL_EVENT_ADDED = 1,	/* installed: pending, or up at the last switch */
	ETHEREAL_EVENT_ACCEPTED,	/* up: accepted all the way */
	ETHEREAL_EVENT_REJECTED,	/* the setup failed: A_REASON, A_HOP */
	ETHEREAL_EVENT_EXPIRED,		/* not refreshed within its lifetime here */
	ETHEREAL_EVENT_TEARDOWN,	/* ended otherwise: A_REASON */
	__ETHEREAL_EVENT_MAX
};

#define ETHEREAL_EVENT_MAX (__ETHEREAL_EVENT_MAX - 1)

/* Soft state: a signaled connection not refreshed within it expires. */
#define ETHEREAL_LIFETIME_DEFAULT_MS	30000
#define ETHEREAL_LIFETIME_MIN_MS	100
#define ETHEREAL_LIFETIME_MAX_MS	3600000

enum ethereal_cmd {
	ETHEREAL_CMD_UNSPEC,
	ETHEREAL_CMD_SWITCH_ATTACH,	/* A_IFINDEX */
	ETHEREAL_CMD_SWITCH_DETACH,	/* A_IFINDEX */
	ETHEREAL_CMD_SWITCH_GET,	/* A_IFINDEX; dump: every switch */
	ETHEREAL_CMD_PORT_GET,		/* A_PORT{IFINDEX}; dump: A_IFINDEX */
	ETHEREAL_CMD_PORT_SET,		/* A_PORT{IFINDEX, ROLE} */
	ETHEREAL_CMD_CONN_NEW,		/* A_CONN{...} */
	ETHEREAL_CMD_CONN_DEL,		/* A_CONN{IN_IFINDEX, IN_ID} */
	ETHEREAL_CMD_CONN_GET,		/* A_CONN{IN_IFINDEX, IN_ID};
					 * dump: A_IFINDEX or A_CONN{IN_IFINDEX}
					 */
	ETHEREAL_CMD_SWITCH_SET,	/* A_IFINDEX, A_LIFETIME */
	ETHEREAL_CMD_NEIGH_NEW,		/* A_NEIGH{IFINDEX, ADDR, LLADDR}: static */
	ETHEREAL_CMD_NEIGH_DEL,		/* A_NEIGH{IFINDEX, ADDR} */
	ETHEREAL_CMD_NEIGH_GET,		/* dump: A_IFINDEX or A_NEIGH{IFINDEX} */
	ETHEREAL_CMD_CONN_EVENT,	/* notification only (group "monitor"):
					 * A_IFINDEX, A_IFNAME, A_EVENT, A_CONN,
					 * A_REASON, A_HOP
					 */
	__ETHEREAL_CMD_MAX
};

#define ETHEREAL_CMD_MAX (__ETHEREAL_CMD_MAX - 1)

enum ethereal_attr {
	ETHEREAL_A_UNSPEC,
	ETHEREAL_A_PAD,
	ETHEREAL_A_IFINDEX,		/* u32: the bridge */
	ETHEREAL_A_IFNAME,		/* string: the bridge (replies) */
	ETHEREAL_A_PORT,		/* nest: ETHEREAL_PORT_A_* */
	ETHEREAL_A_CONN,		/* nest: ETHEREAL_CONN_A_* */
	ETHEREAL_A_N_PORTS,		/* u32 (replies) */
	ETHEREAL_A_N_CONNS,		/* u32 (replies) */
	ETHEREAL_A_STATS,		/* nest: ETHEREAL_STATS_A_*, all ports */
	ETHEREAL_A_LIFETIME,		/* u32: ms, signaled connections' soft state */
	ETHEREAL_A_SIG,			/* nest: ETHEREAL_SIG_STATS_A_* (replies) */
	ETHEREAL_A_NEIGH,		/* nest: ETHEREAL_NEIGH_A_* */
	ETHEREAL_A_EVENT,		/* u8: enum ethereal_event (notifications) */
	ETHEREAL_A_REASON,		/* u16: enum ethereal_sig_reason (notifications) */
	ETHEREAL_A_HOP,			/* u8: the rejecting switch, 1 = first (notifications) */
	__ETHEREAL_A_MAX
};

#define ETHEREAL_A_MAX (__ETHEREAL_A_MAX - 1)

enum ethereal_port_attr {
	ETHEREAL_PORT_A_UNSPEC,
	ETHEREAL_PORT_A_PAD,
	ETHEREAL_PORT_A_IFINDEX,	/* u32 */
	ETHEREAL_PORT_A_IFNAME,		/* string (replies) */
	ETHEREAL_PORT_A_ROLE,		/* u8: enum ethereal_port_role */
	ETHEREAL_PORT_A_STP_STATE,	/* u8: BR_STATE_* (replies) */
	ETHEREAL_PORT_A_RATE,		/* u64 bit/s: link rate, 0 unknown (replies) */
	ETHEREAL_PORT_A_RESERVED,	/* u64 bit/s: reserved out of this port (replies) */
	ETHEREAL_PORT_A_CONNS_IN,	/* u32: connections entering here (replies) */
	ETHEREAL_PORT_A_CONNS_OUT,	/* u32: connections leaving here (replies) */
	ETHEREAL_PORT_A_STATS,		/* nest: ETHEREAL_STATS_A_* (replies) */
	ETHEREAL_PORT_A_HOST_CONNS,	/* u32: the host's quota of connections, 0 none */
	ETHEREAL_PORT_A_HOST_RATE,	/* u64 bit/s: the host's quota of bandwidth, 0 none */
	/* The switch at the other end of a trunk, while its hellos arrive (replies): */
	ETHEREAL_PORT_A_SWITCH,		/* binary, 6: its identity (bridge MAC) */
	ETHEREAL_PORT_A_SWITCH_LLADDR,	/* binary, 6: its port's MAC, the source
					 * of all it sends here
					 */
	ETHEREAL_PORT_A_SWITCH_AGE,	/* u32: ms since its last hello */
	ETHEREAL_PORT_A_KEY,		/* binary: the trunk's link key, 16 to 64
					 * bytes; empty: none (requests only)
					 */
	ETHEREAL_PORT_A_KEYED,		/* u8: 1 if the port has a key (replies) */
	ETHEREAL_PORT_A_KEY_VERIFIED,	/* u8: 1 once the switch at the other
					 * end answered this port's challenge
					 * under the key: signaling flows
					 * (replies, keyed ports)
					 */
	__ETHEREAL_PORT_A_MAX
};

#define ETHEREAL_PORT_A_MAX (__ETHEREAL_PORT_A_MAX - 1)

enum ethereal_conn_attr {
	ETHEREAL_CONN_A_UNSPEC,
	ETHEREAL_CONN_A_PAD,
	ETHEREAL_CONN_A_IN_IFINDEX,	/* u32: port the frames arrive on */
	ETHEREAL_CONN_A_IN_ID,		/* u16: connection ID on the input link */
	ETHEREAL_CONN_A_OUT_IFINDEX,	/* u32: port the frames leave by */
	ETHEREAL_CONN_A_OUT_ID,		/* u16: ID on the output link (next switch) */
	ETHEREAL_CONN_A_OUT_MAC,	/* binary[6]: receiver's MAC (last switch) */
	ETHEREAL_CONN_A_DADDR,		/* be32: receiver's IPv4 address */
	ETHEREAL_CONN_A_SWAP,		/* flag: rewrite the proxy IP to DADDR */
	ETHEREAL_CONN_A_RATE,		/* u64: bit/s, whole Ethernet frames */
	ETHEREAL_CONN_A_BURST,		/* u32: bytes */
	ETHEREAL_CONN_A_MAX_PKT,	/* u32: largest frame, bytes */
	ETHEREAL_CONN_A_QID,		/* u16: queue on the output port (replies) */
	ETHEREAL_CONN_A_ORIGIN,		/* u8: enum ethereal_conn_origin (replies) */
	ETHEREAL_CONN_A_IN_IFNAME,	/* string (replies) */
	ETHEREAL_CONN_A_OUT_IFNAME,	/* string (replies) */
	ETHEREAL_CONN_A_STATS,		/* nest: ETHEREAL_STATS_A_* (replies) */
	ETHEREAL_CONN_A_STATE,		/* u8: enum ethereal_conn_state (signaled) */
	ETHEREAL_CONN_A_EXPIRES,	/* u32: ms until expiry or answer due (signaled) */
	ETHEREAL_CONN_A_DPORT,		/* u16: receiver's UDP port (signaled, replies) */
	ETHEREAL_CONN_A_DELAY,		/* u64: ns, the most this switch delays its
					 * frames, promised at admission (replies;
					 * absent: its port promises none)
					 */
	ETHEREAL_CONN_A_PATH_DELAY,	/* u64: ns, the bound of the whole path,
					 * told the source (signaled, replies;
					 * absent: unknown or none)
					 */
	ETHEREAL_CONN_A_HOP,		/* nest: enum ethereal_hop_attr, the
					 * delays its frames had on the output
					 * port (replies; absent: not scheduled
					 * by the ethereal qdisc)
					 */
	ETHEREAL_CONN_A_BUFFER,		/* u32: bytes, its queue's limit on the
					 * output port, what it takes of the
					 * port's rt-buffer (replies)
					 */
	__ETHEREAL_CONN_A_MAX
};

#define ETHEREAL_CONN_A_MAX (__ETHEREAL_CONN_A_MAX - 1)

/*
 * A connection's frames as its output port's qdisc measured them, since its
 * queue there was made (Documentation/delay-bounds.md): a frame's delay is
 * from when it conforms to its connection's contract (its shaper's time in
 * paced mode; in cyclic mode the same clock with the contract's burst as
 * its tolerance) to the end of its transmission at the qdisc's rate. LATE:
 * what the machine's stalls took from it, the time the port sat with a
 * frame due and the link free while it waited (the scheduler ran late).
 * All u64, ns where times.
 */
enum ethereal_hop_attr {
	ETHEREAL_HOP_A_UNSPEC,
	ETHEREAL_HOP_A_PAD,
	ETHEREAL_HOP_A_PROMISE,		/* this port's bound; absent: none */
	ETHEREAL_HOP_A_FRAMES,		/* frames measured */
	ETHEREAL_HOP_A_DELAY_MAX,	/* the largest delay */
	ETHEREAL_HOP_A_ON_TIME_MAX,	/* the largest delay less its LATE */
	ETHEREAL_HOP_A_OVER,		/* frames whose delay exceeded PROMISE */
	ETHEREAL_HOP_A_OVER_ON_TIME,	/* of them, still when less their LATE:
					 * a broken bound, not a stall
					 */
	__ETHEREAL_HOP_A_MAX
};

#define ETHEREAL_HOP_A_MAX (__ETHEREAL_HOP_A_MAX - 1)

/*
 * An entry of a switch's neighbour table: an IPv4 address, its MAC and the
 * port it is bound to, learned from ARP or static (added by the operator:
 * never ages, and no ARP from elsewhere moves it).
 */
enum ethereal_neigh_attr {
	ETHEREAL_NEIGH_A_UNSPEC,
	ETHEREAL_NEIGH_A_IFINDEX,	/* u32: the port */
	ETHEREAL_NEIGH_A_IFNAME,	/* string (replies) */
	ETHEREAL_NEIGH_A_ADDR,		/* be32: IPv4 address */
	ETHEREAL_NEIGH_A_LLADDR,	/* binary[6]: its MAC */
	ETHEREAL_NEIGH_A_STATIC,	/* flag: added by the operator (replies) */
	ETHEREAL_NEIGH_A_BOUND,		/* flag: claims from other ports refused (replies) */
	ETHEREAL_NEIGH_A_AGE,		/* u32: ms since ARP last showed it (replies) */
	__ETHEREAL_NEIGH_A_MAX
};

#define ETHEREAL_NEIGH_A_MAX (__ETHEREAL_NEIGH_A_MAX - 1)

/*
 * Counters, all u64. RX: real-time frames that arrived (on the port, any
 * ID; for the connection, its own). TX: real-time frames sent (out of the
 * port; of the connection). Drops count frames that arrived on the port or
 * for the connection, except DROP_QUEUE, which the output port counts. For
 * a connection, RX = TX + its drops.
 */
enum ethereal_stats_attr {
	ETHEREAL_STATS_A_UNSPEC,
	ETHEREAL_STATS_A_PAD,
	ETHEREAL_STATS_A_RX_PACKETS,		/* real-time frames arrived */
	ETHEREAL_STATS_A_RX_BYTES,
	ETHEREAL_STATS_A_TX_PACKETS,		/* real-time frames sent out */
	ETHEREAL_STATS_A_TX_BYTES,
	ETHEREAL_STATS_A_DROP_UNKNOWN_ID,	/* no connection with that ID */
	ETHEREAL_STATS_A_DROP_PORT_STATE,	/* output port not forwarding */
	ETHEREAL_STATS_A_DROP_OVERSIZE,		/* over max packet size or MTU */
	ETHEREAL_STATS_A_DROP_MALFORMED,	/* headers Swap cannot rewrite */
	ETHEREAL_STATS_A_DROP_CONTROL,		/* control range, not handled */
	ETHEREAL_STATS_A_DROP_TO_SWITCH,	/* non-ARP frame to the switch */
	ETHEREAL_STATS_A_DROP_QUEUE,		/* refused by the output queue */
	ETHEREAL_STATS_A_DROP_EARLY,		/* preemptive discard (ingress) */
	ETHEREAL_STATS_A_DROP_FILTERED,		/* bridge VLAN or isolation rules */
	__ETHEREAL_STATS_A_MAX
};

#define ETHEREAL_STATS_A_MAX (__ETHEREAL_STATS_A_MAX - 1)

/* Signaling of a switch (Documentation/signaling.md); counters are u64. */
enum ethereal_sig_stats_attr {
	ETHEREAL_SIG_STATS_A_UNSPEC,
	ETHEREAL_SIG_STATS_A_PAD,
	ETHEREAL_SIG_STATS_A_RX,		/* messages handled */
	ETHEREAL_SIG_STATS_A_TX,		/* messages sent */
	ETHEREAL_SIG_STATS_A_ACCEPTED,		/* setups accepted here */
	ETHEREAL_SIG_STATS_A_REJECTED,		/* setups rejected here or after */
	ETHEREAL_SIG_STATS_A_TEARDOWNS,		/* connections torn down */
	ETHEREAL_SIG_STATS_A_EXPIRED,		/* of which not refreshed */
	ETHEREAL_SIG_STATS_A_LINK_DOWN,		/* of which by a link going down */
	ETHEREAL_SIG_STATS_A_ARP_HITS,		/* receiver's MAC known at setup */
	ETHEREAL_SIG_STATS_A_ARP_MISSES,	/* ARP asked first */
	ETHEREAL_SIG_STATS_A_DROP_MALFORMED,	/* bad IP, UDP or message */
	ETHEREAL_SIG_STATS_A_DROP_RATELIMIT,	/* over the port's message rate */
	ETHEREAL_SIG_STATS_A_DROP_BACKLOG,	/* too many messages queued */
	ETHEREAL_SIG_STATS_A_DROP_SPOOFED,	/* not from the host on that port */
	ETHEREAL_SIG_STATS_A_DROP_UNEXPECTED,	/* for no such connection */
	ETHEREAL_SIG_STATS_A_PENDING,		/* u32: setups in progress */
	ETHEREAL_SIG_STATS_A_NEIGH,		/* u32: IPv4 addresses known */
	ETHEREAL_SIG_STATS_A_SETUP_HIT_N,	/* setups with an ARP hit */
	ETHEREAL_SIG_STATS_A_SETUP_HIT_AVG,	/* ns at this switch, mean */
	ETHEREAL_SIG_STATS_A_SETUP_HIT_MAX,	/* ns */
	ETHEREAL_SIG_STATS_A_SETUP_MISS_N,	/* setups after an ARP miss */
	ETHEREAL_SIG_STATS_A_SETUP_MISS_AVG,
	ETHEREAL_SIG_STATS_A_SETUP_MISS_MAX,
	ETHEREAL_SIG_STATS_A_NEIGH_REFUSED,	/* addresses over their port's share */
	ETHEREAL_SIG_STATS_A_NEIGH_CLAIMS,	/* claims of an address bound elsewhere */
	ETHEREAL_SIG_STATS_A_EVENT_DROPS,	/* monitor events lost: no memory, or
						 * a listener's buffer full
						 */
	ETHEREAL_SIG_STATS_A_DROP_STRANGER,	/* on a trunk, not from its neighbour */
	ETHEREAL_SIG_STATS_A_SWITCHES,		/* switches learned at a trunk's end */
	ETHEREAL_SIG_STATS_A_DROP_AUTH,		/* on a keyed trunk: no or a bad AUTH,
						 * or replayed
						 */
	ETHEREAL_SIG_STATS_A_RTNL_RUNS,		/* times signaling took RTNL: for
						 * setups, answers, teardowns and
						 * timeouts, never for refreshes,
						 * hellos or PROCEEDINGs
						 */
	__ETHEREAL_SIG_STATS_A_MAX
};

#define ETHEREAL_SIG_STATS_A_MAX (__ETHEREAL_SIG_STATS_A_MAX - 1)

/*
 * The qdisc "ethereal": TCA_OPTIONS of `tc qdisc ... ethereal`.
 * Documentation/scheduler.md describes it; tc-ethereal(8) its use.
 */
enum ethereal_sched_mode {
	ETHEREAL_MODE_PACED,		/* each connection at its own pace */
	ETHEREAL_MODE_CYCLIC,		/* the paper's cyclic round robin */
	__ETHEREAL_MODE_MAX
};

#define ETHEREAL_MODE_MAX (__ETHEREAL_MODE_MAX - 1)

enum {
	TCA_ETHEREAL_UNSPEC,
	TCA_ETHEREAL_PAD,
	TCA_ETHEREAL_RATE,		/* u64: link rate, bit/s */
	TCA_ETHEREAL_CYCLE,		/* u64: cycle, ns */
	TCA_ETHEREAL_RT_LIMIT,		/* u32: % of the rate real time may reserve */
	TCA_ETHEREAL_MODE,		/* u8: enum ethereal_sched_mode */
	TCA_ETHEREAL_BE_LIMIT,		/* u32: best-effort queue, bytes */
	TCA_ETHEREAL_DISCARD_WINDOW,	/* u64: preemptive discard window, ns; 0 off */
	TCA_ETHEREAL_RESERVED,		/* u64: bit/s reserved here (dumps) */
	TCA_ETHEREAL_CONNS,		/* u32: connection queues (dumps) */
	TCA_ETHEREAL_RT_BUFFER,		/* u32: bytes of connection queues allowed */
	TCA_ETHEREAL_MAX_CONNS,		/* u32: connections allowed on the port */
	TCA_ETHEREAL_BUFFERED,		/* u32: bytes of connection queues (dumps) */
	TCA_ETHEREAL_DELAY,		/* u64: ns, the delay budget: the most any
					 * frame of real time waits for others and
					 * for best effort here; admission keeps it.
					 * 0: what the port's limits imply
					 * (Documentation/delay-bounds.md)
					 */
	TCA_ETHEREAL_DELAY_USED,	/* u64: ns of it the connections take now (dumps) */
	TCA_ETHEREAL_DELAY_FLOOR,	/* u64: ns, the smallest budget promised to a
					 * connection still here, which admission
					 * keeps too (dumps; 0: none)
					 */
	TCA_ETHEREAL_LINK_BURST,	/* u64: ns the link clock may lag real
					 * time: what the port sends back to back
					 * after it was idle or stalled
					 */
	__TCA_ETHEREAL_MAX
};

#define TCA_ETHEREAL_MAX (__TCA_ETHEREAL_MAX - 1)

/* Classes are the connections' queues: TCA_OPTIONS of their dumps. */
enum {
	TCA_ETHEREAL_CLASS_UNSPEC,
	TCA_ETHEREAL_CLASS_PAD,
	TCA_ETHEREAL_CLASS_RATE,	/* u64: bit/s */
	TCA_ETHEREAL_CLASS_BURST,	/* u32: bytes */
	TCA_ETHEREAL_CLASS_LIMIT,	/* u32: queue limit, bytes (the connection's
					 * queue, at least 2 x burst)
					 */
	TCA_ETHEREAL_CLASS_IN_IFINDEX,	/* u32: the connection's input port */
	TCA_ETHEREAL_CLASS_IN_ID,	/* u16: and its ID there */
	__TCA_ETHEREAL_CLASS_MAX
};

#define TCA_ETHEREAL_CLASS_MAX (__TCA_ETHEREAL_CLASS_MAX - 1)

struct tc_ethereal_xstats {
	__u64	rt_packets;	/* sent from connection queues */
	__u64	rt_bytes;
	__u64	rt_drops;	/* connection queues full */
	__u64	be_packets;	/* sent from the best-effort queue */
	__u64	be_bytes;
	__u64	be_drops;	/* best-effort queue full */
	__u64	cycles;		/* cyclic: cycles begun */
	__u64	overruns;	/* cyclic: real-time phase still running at cycle end */
	__u64	discards;	/* preemptive discards on this port's ingress */
	__u64	unmatched;	/* tagged real-time with no queue, sent best effort */
	__u32	be_backlog;	/* bytes */
	__u32	be_qlen;	/* packets */
	__u64	ctl_packets;	/* the switch's control frames sent */
	__u64	ctl_drops;	/* control queue full */
	__u64	ctl_late;	/* of them, over their share: sent after real time */
	__u64	late_ns;	/* the link free, a frame due, and the scheduler
				 * not run: the machine's stalls, summed
				 */
	__u64	late_turns;	/* paced: frames of a connection over its
				 * contract sent in turn with what was due,
				 * not by their stamps, the port late
				 */
	__u64	early;		/* paced: frames sent before their time, within
				 * their tolerance, no frame due
				 */
};

struct tc_ethereal_class_xstats {
	__s64	credit;		/* cyclic: bytes left in this cycle */
	__u64	lag_ns;		/* paced: how far the head is behind its time */
	/* As ETHEREAL_HOP_A_*: its frames' delays on this port. */
	__u64	promise_ns;	/* 0: none */
	__u64	delay_max_ns;
	__u64	on_time_max_ns;
	__u64	over;
	__u64	over_on_time;
};

#endif /* _UAPI_LINUX_ETHEREAL_H */
