/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * EtheReal signaling protocol, version 1: the messages hosts (rtcd) and
 * switches exchange to set up, refresh and tear down real-time connections.
 * Documentation/signaling.md specifies it; this header carries its
 * constants for ethereal.ko, rtcd and test clients alike.
 *
 * Every message is one UDP datagram over IPv4 to port ETHEREAL_SIG_PORT,
 * in an Ethernet frame addressed to the control MAC FF:FF:FF:FF:00:01
 * (ETHEREAL_ID_SIGNAL). All fields are in network byte order. A message is
 * a fixed header followed by attributes (type, length, value, padded to 4
 * bytes), like netlink's; unknown attributes are skipped, so that later
 * versions can add some without breaking this one.
 */
#ifndef _UAPI_LINUX_ETHEREAL_SIG_H
#define _UAPI_LINUX_ETHEREAL_SIG_H

#include <linux/types.h>

#define ETHEREAL_SIG_VERSION	1
#define ETHEREAL_SIG_PORT	4242		/* UDP, both ends */
#define ETHEREAL_ID_SIGNAL	0x0001		/* FF:FF:FF:FF:00:01 */
#define ETHEREAL_SIG_MAX_LEN	256		/* longer messages are dropped */
#define ETHEREAL_SIG_HELLO_MS	1000		/* a switch's hellos on each trunk */
#define ETHEREAL_SIG_HOLD_MS	10000		/* a switch silent this long is gone */
#define ETHEREAL_SIG_AUTH_LEN	16		/* bytes of HMAC in A_AUTH */
/*
 * A switch waits this long for the receiver's ARP answer, and one that
 * forwarded a setup this long for the answer from downstream. Each wait
 * for ARP past the first switch is announced upstream (PROCEEDING), and
 * every end still waiting for the answer, host included, waits that much
 * longer, at most ETHEREAL_SIG_PROCEED_MAX times per setup.
 */
#define ETHEREAL_SIG_ARP_WAIT_MS 1000
#define ETHEREAL_SIG_ANSWER_MS	2000
#define ETHEREAL_SIG_PROCEED_MAX 8

struct ethereal_sig_hdr {
	__u8	version;	/* ETHEREAL_SIG_VERSION */
	__u8	type;		/* enum ethereal_sig_type */
	__be16	length;		/* of the message, header included */
	__be16	conn_id;	/* the connection's ID on this link (see below) */
	__be16	flags;		/* ETHEREAL_SIG_F_*; others sent 0, ignored */
	__be32	cookie;		/* chosen by the requester, echoed in answers */
};

/*
 * conn_id is always the ID the upstream end chose for the link the message
 * crosses: the host's ID on its link to the first switch, then each
 * switch's output ID on the next link. Answers travelling back carry the
 * same ID the request had on that link. A TEARDOWN travelling back toward
 * the source (link down, expiry further along) says so with F_REVERSE: on
 * a link between two switches each end chooses IDs for its own direction,
 * so the ID alone does not tell whose it is. A REFRESH with F_REVERSE is
 * the first switch's acknowledgment of its host's REFRESH: it travels on
 * that link only, never between switches.
 */
#define ETHEREAL_SIG_F_REVERSE	0x0001
enum ethereal_sig_type {
	ETHEREAL_SIG_SETUP = 1,		/* upstream -> downstream: reserve */
	ETHEREAL_SIG_ACCEPT,		/* downstream -> upstream: installed */
	ETHEREAL_SIG_REJECT,		/* downstream -> upstream: A_REASON */
	ETHEREAL_SIG_TEARDOWN,		/* either way: release (A_REASON) */
	ETHEREAL_SIG_REFRESH,		/* upstream -> downstream: still alive;
					 * F_REVERSE: first switch -> host, the
					 * ack (ETHEREAL_SIG_FEAT_REFRESH_ACK)
					 */
	ETHEREAL_SIG_HELLO,		/* switch -> switch over a trunk, every
					 * ETHEREAL_SIG_HELLO_MS: A_SWITCH. A
					 * trunk takes signaling only from the
					 * switch its hellos made known.
					 */
	ETHEREAL_SIG_PROCEEDING,	/* downstream -> upstream: the setup
					 * waits for the receiver's ARP answer
					 * at switch A_HOP; wait
					 * ETHEREAL_SIG_ARP_WAIT_MS longer
					 */
	__ETHEREAL_SIG_TYPE_MAX
};

struct ethereal_sig_attr {
	__be16	type;		/* enum ethereal_sig_attr_type */
	__be16	len;		/* this header and the value, not the padding */
};

#define ETHEREAL_SIG_ALIGN(len)	(((len) + 3U) & ~3U)

enum ethereal_sig_attr_type {
	ETHEREAL_SIG_A_UNSPEC,
	ETHEREAL_SIG_A_DADDR,		/* be32: receiver's IPv4 address (SETUP) */
	ETHEREAL_SIG_A_DPORT,		/* be16: receiver's UDP port (SETUP) */
	ETHEREAL_SIG_A_RATE,		/* be64: bit/s of whole frames (SETUP) */
	ETHEREAL_SIG_A_BURST,		/* be32: bytes (SETUP) */
	ETHEREAL_SIG_A_MAX_PKT,		/* be32: largest frame, bytes (SETUP) */
	ETHEREAL_SIG_A_REASON,		/* be16: enum ethereal_sig_reason */
	ETHEREAL_SIG_A_HOP,		/* u8: SETUP: switches the request has
					 * crossed (none from a host); REJECT:
					 * the rejecting switch's, 1 = first
					 */
	ETHEREAL_SIG_A_LIFETIME,	/* be32: ms without refresh before expiry
					 * (ACCEPT, REFRESH ack: the smallest
					 * on the path)
					 */
	ETHEREAL_SIG_A_HOPS,		/* u8: switches on the path (ACCEPT) */
	ETHEREAL_SIG_A_FEATURES,	/* be32: the ETHEREAL_SIG_FEAT_ bits
					 * the first switch offers its host
					 * (ACCEPT to the host only)
					 */
	ETHEREAL_SIG_A_SWITCH,		/* 6 bytes: the sender's identity, its
					 * bridge's MAC address (HELLO)
					 */
	ETHEREAL_SIG_A_AUTH,		/* 24 bytes, last: be64 sequence number,
					 * then the first 16 bytes of the
					 * HMAC-SHA256, under the link's key, of
					 * the message (header's length) with
					 * these 16 zero. Every message over a
					 * keyed trunk, and only there; built
					 * after every other attribute.
					 */
	ETHEREAL_SIG_A_CHALLENGE,	/* be64: a nonce (HELLO over a keyed
					 * trunk): its sender takes nothing but
					 * HELLOs from the other end until one
					 * answers it
					 */
	ETHEREAL_SIG_A_RESPONSE,	/* be64: the other end's last
					 * A_CHALLENGE, answered (HELLO)
					 */
	ETHEREAL_SIG_A_DELAY,		/* be64: ns. SETUP: the delay bound of
					 * the switches crossed so far (from a
					 * host: absent, none yet), or
					 * ETHEREAL_SIG_DELAY_NONE once one of
					 * them has none; ACCEPT: the bound of
					 * the whole path, told the source
					 */
	ETHEREAL_SIG_A_MAX_DELAY,	/* be64: ns, the most the source takes
					 * (SETUP): a switch at which the bound
					 * would exceed it rejects (R_DELAY)
					 */
	__ETHEREAL_SIG_A_MAX
};

#define ETHEREAL_SIG_A_MAX (__ETHEREAL_SIG_A_MAX - 1)

/*
 * Features beyond version 1 (ETHEREAL_SIG_A_FEATURES). The header's version
 * stays 1, which every switch takes: what a later switch adds is announced
 * here, and a host that does not know a bit ignores it.
 */
/* The first switch answers its host's REFRESH: REFRESH|F_REVERSE, A_LIFETIME. */
#define ETHEREAL_SIG_FEAT_REFRESH_ACK	0x00000001
/*
 * The path's switches bound each connection's delay: the ACCEPT carries
 * A_DELAY (the path's bound) and A_BURST (the burst every switch polices
 * to, at most the one asked for), and a SETUP's A_MAX_DELAY is honoured.
 */
#define ETHEREAL_SIG_FEAT_DELAY		0x00000002
/* A_DELAY of a path on which a switch bounds nothing. */
#define ETHEREAL_SIG_DELAY_NONE		(~0ULL)

enum ethereal_sig_reason {
	ETHEREAL_SIG_R_NONE,
	ETHEREAL_SIG_R_BANDWIDTH,	/* output link's rt-limit reached */
	ETHEREAL_SIG_R_BUFFER,		/* output port's buffer pool exhausted */
	ETHEREAL_SIG_R_CONNS,		/* output port has its most connections */
	ETHEREAL_SIG_R_NO_ROUTE,	/* receiver unknown (no ARP answer, no FDB) */
	ETHEREAL_SIG_R_ID_IN_USE,	/* conn_id already used on the link */
	ETHEREAL_SIG_R_NO_ID,		/* no free ID left on the output link */
	ETHEREAL_SIG_R_INVALID,		/* bad QoS (zero rate, burst < max_pkt...) */
	ETHEREAL_SIG_R_TIMEOUT,		/* downstream did not answer */
	ETHEREAL_SIG_R_LINK_DOWN,	/* a link of the path went down */
	ETHEREAL_SIG_R_EXPIRED,		/* not refreshed in time */
	ETHEREAL_SIG_R_REQUESTED,	/* the source tore it down */
	ETHEREAL_SIG_R_BUSY,		/* too many setups pending, try again */
	ETHEREAL_SIG_R_NO_MEMORY,
	ETHEREAL_SIG_R_REMOVED,		/* administratively removed */
	ETHEREAL_SIG_R_QUOTA,		/* the host's quota on its port is used up */
	ETHEREAL_SIG_R_DELAY,		/* the delay bound would exceed the
					 * setup's A_MAX_DELAY at switch A_HOP,
					 * or break one promised there before
					 */
	__ETHEREAL_SIG_R_MAX
};

#define ETHEREAL_SIG_R_MAX (__ETHEREAL_SIG_R_MAX - 1)

#endif /* _UAPI_LINUX_ETHEREAL_SIG_H */
