// SPDX-License-Identifier: GPL-2.0
/*
 * Signaling in the switch (Sections 2.2, 2.3 and 3.4 of the paper;
 * Documentation/signaling.md is the protocol).
 *
 * The packet path only queues control messages (rate-limited per port,
 * bounded per switch); a work item handles them under RTNL, which
 * serializes them with configuration, the bridge and the qdisc. The same
 * work item times out setups waiting for an answer or for ARP, and expires
 * connections not refreshed in time (soft state). It takes RTNL with
 * trylock and retries a jiffy later, so that detaching, which holds RTNL,
 * can cancel it synchronously.
 *
 * A setup travels downstream hop by hop: each switch admits it on its
 * output port (bandwidth, buffer, connections: the port's qdisc decides),
 * installs the connection with a fresh ID on the output link, and forwards
 * the request; the last switch maps it to the receiver's MAC and accepts.
 * Answers travel back the same way. A reject removes the connection at
 * every switch it passes, so nothing stays reserved.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>

#include "admit.h"
#include "ethereal.h"
#include "sigmsg.h"

#define ETHEREAL_SIG_RXQ_MAX	256		/* messages queued per switch */
#define ETHEREAL_SIG_PENDING_MAX 256		/* setups in progress per switch */
#define ETHEREAL_SIG_ANSWER_TIMEOUT (2 * HZ)	/* downstream must answer */
#define ETHEREAL_SIG_ARP_TIMEOUT (HZ)		/* the receiver must answer ARP */
#define ETHEREAL_SIG_ARP_RETRY	(HZ / 5)
#define ETHEREAL_SIG_TICK	(HZ / 20)
#define ETHEREAL_SIG_BATCH	64		/* messages per run of the work */

/* Arrival time of a queued message, in the skb's control block. */
struct ethereal_sig_cb {
	u64 arrival;
};

static struct ethereal_sig_cb *ethereal_sig_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct ethereal_sig_cb) > sizeof(skb->cb));
	return (struct ethereal_sig_cb *)skb->cb;
}

/* A setup waiting for the receiver's ARP answer. */
struct ethereal_sig_wait {
	struct list_head node;
	struct ethereal_port *in;	/* RTNL: removed with the port */
	struct ethereal_sig_msg m;
	struct ethereal_sig_peer peer;
	bool has_peer;
	u8 hop;
	u64 arrival;
	unsigned long deadline;
	unsigned long next_probe;
};

static void ethereal_sig_count(struct ethereal_switch *sw, enum ethereal_sig_counter c)
{
	atomic_long_inc(&sw->sig.c[c]);
}

/* Sending */

/*
 * One message out of PORT: to the host of PEER, or to the switch at the
 * other end of the link when PEER is NULL.
 */
static void ethereal_sig_send(struct ethereal_port *port,
			      const struct ethereal_sig_peer *peer,
			      const struct ethereal_sig_msg *m)
{
	static const u8 ctl_mac[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0x00,
					      ETHEREAL_ID_SIGNAL };
	struct net_device *dev = port->dev;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	unsigned int len, ulen;
	struct sk_buff *skb;
	struct udphdr *uh;
	struct iphdr *iph;
	__be32 saddr, daddr;

	len = ethereal_sig_build(buf, sizeof(buf), m);
	if (WARN_ON_ONCE(!len) || !netif_running(dev) || !netif_carrier_ok(dev))
		return;
	saddr = peer ? peer->ctl_ip : 0;
	daddr = peer ? peer->ip : htonl(INADDR_BROADCAST);
	ulen = sizeof(*uh) + len;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + sizeof(*iph) + ulen, GFP_KERNEL);
	if (!skb)
		return;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	iph = skb_put(skb, sizeof(*iph));
	skb_set_transport_header(skb, sizeof(*iph));
	uh = skb_put(skb, sizeof(*uh));
	skb_put_data(skb, buf, len);

	uh->source = htons(ETHEREAL_SIG_PORT);
	uh->dest = peer ? peer->port : htons(ETHEREAL_SIG_PORT);
	uh->len = htons(ulen);
	uh->check = 0;
	uh->check = csum_tcpudp_magic(saddr, daddr, ulen, IPPROTO_UDP,
				      csum_partial(uh, ulen, 0));
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;

	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tos = 0;
	iph->tot_len = htons(sizeof(*iph) + ulen);
	iph->id = 0;
	iph->frag_off = htons(IP_DF);
	iph->ttl = 1;			/* one link, never routed */
	iph->protocol = IPPROTO_UDP;
	iph->saddr = saddr;
	iph->daddr = daddr;
	ip_send_check(iph);

	skb->dev = dev;
	skb->protocol = htons(ETH_P_IP);
	skb->priority = ETHEREAL_TC_CONTROL;
	if (dev_hard_header(skb, dev, ETH_P_IP, peer ? peer->mac : ctl_mac,
			    dev->dev_addr, skb->len) < 0) {
		kfree_skb(skb);
		return;
	}
	dev_queue_xmit(skb);
	ethereal_sig_count(port->sw, ETHEREAL_SIGC_TX);
}

/* Toward the source: to the host, or to the upstream switch. */
static void ethereal_sig_send_up(struct ethereal_conn *conn, struct ethereal_sig_msg *m)
{
	m->conn_id = conn->in_id;
	m->cookie = conn->sig.cookie;
	ethereal_sig_send(conn->in, conn->sig.has_peer ? &conn->sig.peer : NULL, m);
}

/* Toward the receiver, when another switch is there. */
static void ethereal_sig_send_down(struct ethereal_conn *conn, struct ethereal_sig_msg *m)
{
	if (conn->to_host)
		return;
	m->conn_id = conn->qid;
	m->cookie = conn->sig.cookie;
	ethereal_sig_send(conn->out, NULL, m);
}

static void ethereal_sig_reject(struct ethereal_port *in,
				const struct ethereal_sig_peer *peer,
				const struct ethereal_sig_msg *req, u16 reason, u8 hop)
{
	struct ethereal_sig_msg m = {
		.type = ETHEREAL_SIG_REJECT,
		.conn_id = req->conn_id,
		.cookie = req->cookie,
		.reason = reason,
		.hop = hop,
		.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON) |
			   ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP),
	};

	ethereal_sig_count(in->sw, ETHEREAL_SIGC_REJECTED);
	ethereal_sig_send(in, peer, &m);
}

static void ethereal_sig_teardown_msg(struct ethereal_sig_msg *m, u16 reason, bool reverse)
{
	memset(m, 0, sizeof(*m));
	m->type = ETHEREAL_SIG_TEARDOWN;
	m->flags = reverse ? ETHEREAL_SIG_F_REVERSE : 0;
	m->reason = reason;
	m->present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON);
}

/* Connections */

static void ethereal_sig_time_add(struct ethereal_sig_time *t, u64 arrival)
{
	u64 d = ktime_get_ns() - arrival;

	t->n++;
	t->sum += d;
	t->max = max(t->max, d);
}

/* Called by ethereal_conn_del() for every signaled connection. */
void ethereal_sig_conn_gone(struct ethereal_conn *conn)
{
	struct ethereal_switch *sw = conn->in->sw;

	ASSERT_RTNL();
	list_del(&conn->sig.node);
	if (conn->sig.state == ETHEREAL_CONN_PENDING)
		sw->sig.n_pending--;
	else
		ethereal_sig_count(sw, ETHEREAL_SIGC_TEARDOWNS);
}

/*
 * Tear a signaled connection down here and tell both neighbours: the
 * switch downstream, and the source (through the switches upstream).
 */
void ethereal_sig_conn_teardown(struct ethereal_conn *conn, u16 reason)
{
	struct ethereal_sig_msg m;

	ASSERT_RTNL();
	ethereal_sig_teardown_msg(&m, reason, false);
	ethereal_sig_send_down(conn, &m);
	if (conn->sig.state == ETHEREAL_CONN_PENDING) {
		struct ethereal_sig_msg req = { .conn_id = conn->in_id,
						.cookie = conn->sig.cookie };

		ethereal_sig_reject(conn->in, conn->sig.has_peer ? &conn->sig.peer : NULL,
				    &req, reason, conn->sig.hop);
	} else {
		ethereal_sig_teardown_msg(&m, reason, true);
		ethereal_sig_send_up(conn, &m);
	}
	ethereal_conn_del(conn);
}

/*
 * A connection's next deadline, IN jiffies from now. The switch keeps a
 * bound below every deadline, so that the work item looks at its
 * connections only when one may be due, not on every tick.
 */
static void ethereal_sig_deadline(struct ethereal_conn *conn, unsigned long in)
{
	struct ethereal_sig *sig = &conn->in->sw->sig;

	conn->sig.deadline = jiffies + in;
	if (time_before(conn->sig.deadline, sig->next_deadline))
		sig->next_deadline = conn->sig.deadline;
}

static u16 ethereal_sig_reason(int err)
{
	switch (err) {
	case -ENOSPC:
		return ETHEREAL_SIG_R_BANDWIDTH;
	case -ENOBUFS:
		return ETHEREAL_SIG_R_BUFFER;
	case -EMLINK:
		return ETHEREAL_SIG_R_CONNS;
	case -EBUSY:
		return ETHEREAL_SIG_R_NO_ID;
	case -ENOMEM:
		return ETHEREAL_SIG_R_NO_MEMORY;
	default:
		return ETHEREAL_SIG_R_INVALID;
	}
}

/*
 * Where the receiver is: its MAC from the neighbour cache, its port from
 * the bridge's FDB. -EAGAIN: ask ARP first.
 */
static int ethereal_sig_route(struct ethereal_switch *sw, __be32 daddr,
			      struct ethereal_port **out, u8 *mac)
{
	struct net_device *dev;

	if (!ethereal_neigh_lookup(sw, daddr, mac))
		return -EAGAIN;
	dev = br_fdb_find_port(sw->br, mac, 0);
	if (!dev)
		return -EAGAIN;
	*out = ethereal_port_find(dev_net(dev), dev);
	return *out && (*out)->sw == sw ? 0 : -ENOENT;
}

/* Admit and install a setup whose route is known, then answer or forward. */
static void ethereal_sig_install(struct ethereal_port *in, struct ethereal_port *out,
				 const u8 *mac, const struct ethereal_sig_msg *req,
				 const struct ethereal_sig_peer *peer, u8 hop,
				 u64 arrival, bool missed)
{
	struct ethereal_switch *sw = in->sw;
	struct ethereal_conn_cfg cfg = {
		.in = in,
		.out = out,
		.in_id = req->conn_id,
		.to_host = out->role == ETHEREAL_PORT_PERIPHERAL,
		.swap = !!peer,
		.origin = ETHEREAL_ORIGIN_SIGNALED,
		.daddr = req->daddr,
		.rate = req->rate,
		.burst = req->burst,
		.max_pkt = req->max_pkt,
	};
	struct ethereal_sig_msg m = *req;
	struct ethereal_conn *conn;

	if (out == in || READ_ONCE(out->stp_state) != BR_STATE_FORWARDING ||
	    !netif_running(out->dev) || !netif_carrier_ok(out->dev)) {
		ethereal_sig_reject(in, peer, req, ETHEREAL_SIG_R_NO_ROUTE, hop);
		return;
	}
	if (cfg.to_host)
		ether_addr_copy(cfg.out_mac, mac);
	conn = ethereal_conn_add(&cfg, NULL);
	if (IS_ERR(conn)) {
		u16 reason = ethereal_sig_reason(PTR_ERR(conn));

		/* -EBUSY is either ID: the input's taken while this waited for ARP. */
		if (PTR_ERR(conn) == -EBUSY && xa_load(&in->in_conns, req->conn_id))
			reason = ETHEREAL_SIG_R_ID_IN_USE;
		ethereal_sig_reject(in, peer, req, reason, hop);
		return;
	}
	conn->sig.cookie = req->cookie;
	conn->sig.hop = hop;
	conn->sig.has_peer = !!peer;
	if (peer)
		conn->sig.peer = *peer;
	conn->sig.lifetime_ms = sw->sig.lifetime_ms;
	list_add_tail(&conn->sig.node, &sw->sig.conns);
	ethereal_sig_time_add(missed ? &sw->sig.t_miss : &sw->sig.t_hit, arrival);

	if (cfg.to_host) {
		/* The last switch: the connection is complete. */
		conn->sig.state = ETHEREAL_CONN_UP;
		ethereal_sig_deadline(conn, msecs_to_jiffies(conn->sig.lifetime_ms));
		memset(&m, 0, sizeof(m));
		m.type = ETHEREAL_SIG_ACCEPT;
		m.hops = hop;
		m.lifetime = conn->sig.lifetime_ms;
		m.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS) |
			    ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME);
		ethereal_sig_count(sw, ETHEREAL_SIGC_ACCEPTED);
		ethereal_sig_send_up(conn, &m);
		return;
	}
	conn->sig.state = ETHEREAL_CONN_PENDING;
	ethereal_sig_deadline(conn, ETHEREAL_SIG_ANSWER_TIMEOUT);
	sw->sig.n_pending++;
	m.hop = hop;
	m.present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP);
	ethereal_sig_send_down(conn, &m);
}

static void ethereal_sig_wait_free(struct ethereal_switch *sw, struct ethereal_sig_wait *w)
{
	list_del(&w->node);
	sw->sig.n_pending--;
	WRITE_ONCE(sw->sig.n_waiting, sw->sig.n_waiting - 1);
	kfree(w);
}

/* Setups waiting for ARP: routed when the answer came, failed when late. */
static void ethereal_sig_waiting(struct ethereal_switch *sw)
{
	struct ethereal_sig_wait *w, *tmp;
	struct ethereal_port *out;
	u8 mac[ETH_ALEN];

	list_for_each_entry_safe(w, tmp, &sw->sig.waiting, node) {
		if (!ethereal_sig_route(sw, w->m.daddr, &out, mac)) {
			ethereal_sig_install(w->in, out, mac, &w->m,
					     w->has_peer ? &w->peer : NULL, w->hop,
					     w->arrival, true);
		} else if (time_after_eq(jiffies, w->deadline)) {
			ethereal_sig_reject(w->in, w->has_peer ? &w->peer : NULL, &w->m,
					    ETHEREAL_SIG_R_NO_ROUTE, w->hop);
		} else {
			if (time_after_eq(jiffies, w->next_probe)) {
				ethereal_neigh_probe(sw, w->m.daddr, w->in);
				w->next_probe = jiffies + ETHEREAL_SIG_ARP_RETRY;
			}
			continue;
		}
		ethereal_sig_wait_free(sw, w);
	}
}

/* Messages */

struct ethereal_sig_rxinfo {
	struct ethereal_port *port;
	struct ethereal_sig_peer from;	/* the sender, if a host */
	u64 arrival;
};

/*
 * A host may speak only for itself: its MAC and IPv4 address must be the
 * ones the switch learned on that port, from its ARP and the bridge's FDB.
 */
static bool ethereal_sig_from_host(const struct ethereal_sig_rxinfo *rx)
{
	struct ethereal_switch *sw = rx->port->sw;
	u8 mac[ETH_ALEN];

	return ethereal_neigh_lookup(sw, rx->from.ip, mac) &&
	       ether_addr_equal(mac, rx->from.mac) &&
	       br_fdb_find_port(sw->br, rx->from.mac, 0) == rx->port->dev;
}

static bool ethereal_sig_setup_valid(const struct ethereal_sig_msg *m)
{
	return m->conn_id >= ETHEREAL_ID_MIN && m->conn_id <= ETHEREAL_ID_MAX &&
	       ethereal_rate_valid(m->rate) && m->max_pkt >= ETHEREAL_MAX_PKT_MIN &&
	       m->max_pkt <= ETHEREAL_MAX_PKT_MAX && m->burst >= m->max_pkt &&
	       m->daddr && m->hop < U8_MAX;
}

static void ethereal_sig_setup(const struct ethereal_sig_rxinfo *rx,
			       const struct ethereal_sig_msg *m)
{
	struct ethereal_port *in = rx->port;
	struct ethereal_switch *sw = in->sw;
	const struct ethereal_sig_peer *peer = NULL;
	struct ethereal_sig_wait *w;
	struct ethereal_port *out;
	struct ethereal_conn *conn;
	u8 mac[ETH_ALEN];
	u8 hop = 1;
	int err;

	if (in->role == ETHEREAL_PORT_PERIPHERAL)
		peer = &rx->from;	/* first switch: Swap, answers to the host */
	else if (m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP))
		hop = m->hop + 1;
	if (!ethereal_sig_setup_valid(m)) {
		ethereal_sig_reject(in, peer, m, ETHEREAL_SIG_R_INVALID, hop);
		return;
	}
	conn = xa_load(&in->in_conns, m->conn_id);
	if (conn) {
		/* A retransmission: answer again if it is complete. */
		if (conn->origin == ETHEREAL_ORIGIN_SIGNALED && conn->sig.cookie == m->cookie) {
			if (conn->sig.state == ETHEREAL_CONN_UP) {
				struct ethereal_sig_msg a = {
					.type = ETHEREAL_SIG_ACCEPT,
					.hops = hop,
					.lifetime = conn->sig.lifetime_ms,
					.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS) |
						   ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME),
				};

				ethereal_sig_send_up(conn, &a);
			}
			return;
		}
		ethereal_sig_reject(in, peer, m, ETHEREAL_SIG_R_ID_IN_USE, hop);
		return;
	}
	list_for_each_entry(w, &sw->sig.waiting, node)
		if (w->in == in && w->m.conn_id == m->conn_id)
			return;		/* already waiting for ARP */
	if (sw->sig.n_pending >= ETHEREAL_SIG_PENDING_MAX) {
		ethereal_sig_reject(in, peer, m, ETHEREAL_SIG_R_BUSY, hop);
		return;
	}

	err = ethereal_sig_route(sw, m->daddr, &out, mac);
	if (!err) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_ARP_HITS);
		ethereal_sig_install(in, out, mac, m, peer, hop, rx->arrival, false);
		return;
	}
	if (err != -EAGAIN) {
		ethereal_sig_reject(in, peer, m, ETHEREAL_SIG_R_NO_ROUTE, hop);
		return;
	}
	/* Miss: ask, and wait a bounded time for the answer. */
	ethereal_sig_count(sw, ETHEREAL_SIGC_ARP_MISSES);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		ethereal_sig_reject(in, peer, m, ETHEREAL_SIG_R_NO_MEMORY, hop);
		return;
	}
	w->in = in;
	w->m = *m;
	w->has_peer = !!peer;
	if (peer)
		w->peer = *peer;
	w->hop = hop;
	w->arrival = rx->arrival;
	w->deadline = jiffies + ETHEREAL_SIG_ARP_TIMEOUT;
	w->next_probe = jiffies + ETHEREAL_SIG_ARP_RETRY;
	list_add_tail(&w->node, &sw->sig.waiting);
	sw->sig.n_pending++;
	WRITE_ONCE(sw->sig.n_waiting, sw->sig.n_waiting + 1);
	ethereal_neigh_probe(sw, m->daddr, in);
}

/* The connection an answer from downstream is about. */
static struct ethereal_conn *ethereal_sig_downstream_conn(const struct ethereal_sig_rxinfo *rx,
							  const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn;

	if (rx->port->role != ETHEREAL_PORT_TRUNK)
		return NULL;
	conn = xa_load(&rx->port->out_conns, m->conn_id);
	if (!conn || conn->origin != ETHEREAL_ORIGIN_SIGNALED || conn->sig.cookie != m->cookie)
		return NULL;
	return conn;
}

/*
 * The connection a message from upstream is about. A host speaks only for
 * its own: the MAC and address its setup came from. That, rather than the
 * FDB, which the host's refreshes alone would let age out, is the check.
 */
static struct ethereal_conn *ethereal_sig_upstream_conn(const struct ethereal_sig_rxinfo *rx,
							const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = xa_load(&rx->port->in_conns, m->conn_id);

	if (!conn || conn->origin != ETHEREAL_ORIGIN_SIGNALED)
		return NULL;
	if (conn->sig.has_peer && (conn->sig.peer.ip != rx->from.ip ||
				   !ether_addr_equal(conn->sig.peer.mac, rx->from.mac))) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_SPOOFED);
		return ERR_PTR(-EPERM);
	}
	return conn;
}

static void ethereal_sig_accept(const struct ethereal_sig_rxinfo *rx,
				const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = ethereal_sig_downstream_conn(rx, m);
	struct ethereal_sig_msg a = *m;

	if (!conn || conn->sig.state != ETHEREAL_CONN_PENDING) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		return;
	}
	conn->sig.state = ETHEREAL_CONN_UP;
	rx->port->sw->sig.n_pending--;
	/* The path lives as long as its shortest-lived switch. */
	if (m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME) && m->lifetime &&
	    m->lifetime < conn->sig.lifetime_ms)
		conn->sig.lifetime_ms = m->lifetime;
	ethereal_sig_deadline(conn, msecs_to_jiffies(conn->sig.lifetime_ms));
	a.lifetime = conn->sig.lifetime_ms;
	a.present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME);
	ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_ACCEPTED);
	ethereal_sig_send_up(conn, &a);
}

static void ethereal_sig_rejected(const struct ethereal_sig_rxinfo *rx,
				  const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = ethereal_sig_downstream_conn(rx, m);
	struct ethereal_sig_msg r = *m;

	if (!conn || conn->sig.state != ETHEREAL_CONN_PENDING) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		return;
	}
	ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_REJECTED);
	ethereal_sig_send_up(conn, &r);
	ethereal_conn_del(conn);
}

static void ethereal_sig_teardown(const struct ethereal_sig_rxinfo *rx,
				  const struct ethereal_sig_msg *m)
{
	bool reverse = m->flags & ETHEREAL_SIG_F_REVERSE;
	struct ethereal_conn *conn;
	struct ethereal_sig_msg t;

	conn = reverse ? ethereal_sig_downstream_conn(rx, m) : ethereal_sig_upstream_conn(rx, m);
	if (IS_ERR(conn))
		return;
	if (!conn) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		return;
	}
	ethereal_sig_teardown_msg(&t, m->reason, reverse);
	if (reverse)
		ethereal_sig_send_up(conn, &t);
	else
		ethereal_sig_send_down(conn, &t);
	ethereal_conn_del(conn);
}

static void ethereal_sig_refresh(const struct ethereal_sig_rxinfo *rx,
				 const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = ethereal_sig_upstream_conn(rx, m);
	struct ethereal_sig_msg r = *m;

	if (IS_ERR(conn))
		return;
	if (!conn) {
		/* Gone (expired, say): tell the sender, so that it knows. */
		struct ethereal_sig_msg t;

		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		ethereal_sig_teardown_msg(&t, ETHEREAL_SIG_R_EXPIRED, true);
		t.conn_id = m->conn_id;
		t.cookie = m->cookie;
		ethereal_sig_send(rx->port, rx->port->role == ETHEREAL_PORT_PERIPHERAL ?
				  &rx->from : NULL, &t);
		return;
	}
	/*
	 * A pending connection's setup is still on its way downstream, where a
	 * switch waiting for ARP does not know it yet and would answer this
	 * with a TEARDOWN: the refresh stops here.
	 */
	if (conn->sig.state != ETHEREAL_CONN_UP)
		return;
	ethereal_sig_deadline(conn, msecs_to_jiffies(conn->sig.lifetime_ms));
	ethereal_sig_send_down(conn, &r);
}

/*
 * Checks the IPv4 and UDP headers of a queued message (skb->data at the
 * network header) and copies its payload out. Returns its length, or < 0.
 */
static int ethereal_sig_extract(struct sk_buff *skb, struct ethereal_sig_rxinfo *rx,
				u8 *buf)
{
	unsigned int ihl, ulen;
	const struct iphdr *iph;
	const struct udphdr *uh;

	if (skb->protocol != htons(ETH_P_IP) || !pskb_may_pull(skb, sizeof(*iph)))
		return -EINVAL;
	iph = ip_hdr(skb);
	ihl = iph->ihl * 4;
	if (iph->version != 4 || ihl < sizeof(*iph) || ip_is_fragment(iph) ||
	    iph->protocol != IPPROTO_UDP || ntohs(iph->tot_len) > skb->len ||
	    ntohs(iph->tot_len) < ihl + sizeof(*uh) ||
	    !pskb_may_pull(skb, ihl + sizeof(*uh)))
		return -EINVAL;
	iph = ip_hdr(skb);
	if (ip_fast_csum(iph, iph->ihl))
		return -EINVAL;
	uh = (const struct udphdr *)(skb->data + ihl);
	ulen = ntohs(uh->len);
	if (uh->dest != htons(ETHEREAL_SIG_PORT) || ulen < sizeof(*uh) ||
	    ulen > ntohs(iph->tot_len) - ihl ||
	    ulen - sizeof(*uh) > ETHEREAL_SIG_MAX_LEN)
		return -EINVAL;
	/*
	 * A checksum left to offload (a veth from a local stack) was never
	 * computed; one the device verified needs no second look.
	 */
	if (uh->check && skb->ip_summed != CHECKSUM_PARTIAL &&
	    skb->ip_summed != CHECKSUM_UNNECESSARY &&
	    csum_tcpudp_magic(iph->saddr, iph->daddr, ulen, IPPROTO_UDP,
			      skb_checksum(skb, ihl, ulen, 0)))
		return -EINVAL;

	ether_addr_copy(rx->from.mac, eth_hdr(skb)->h_source);
	rx->from.ip = iph->saddr;
	rx->from.ctl_ip = iph->daddr;
	rx->from.port = uh->source;
	if (skb_copy_bits(skb, ihl + sizeof(*uh), buf, ulen - sizeof(*uh)))
		return -EINVAL;
	return ulen - sizeof(*uh);
}

static void ethereal_sig_handle(struct ethereal_switch *sw, struct sk_buff *skb)
{
	struct ethereal_sig_rxinfo rx = { .arrival = ethereal_sig_cb(skb)->arrival };
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	struct ethereal_sig_msg m;
	bool host;
	int len;

	rx.port = ethereal_port_find(dev_net(skb->dev), skb->dev);
	if (!rx.port || rx.port->sw != sw)
		return;		/* the port left the switch meanwhile */
	len = ethereal_sig_extract(skb, &rx, buf);
	if (len < 0 || ethereal_sig_parse(buf, len, &m) != ETHEREAL_SIG_OK) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_MALFORMED);
		return;
	}
	ethereal_sig_count(sw, ETHEREAL_SIGC_RX);

	/*
	 * Hosts set up, refresh and tear down their own connections: a setup
	 * from the host learned on the port, the rest for its connections.
	 */
	host = rx.port->role == ETHEREAL_PORT_PERIPHERAL;
	if (host && (m.type == ETHEREAL_SIG_ACCEPT || m.type == ETHEREAL_SIG_REJECT ||
		     (m.flags & ETHEREAL_SIG_F_REVERSE) ||
		     (m.type == ETHEREAL_SIG_SETUP && !ethereal_sig_from_host(&rx)))) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_SPOOFED);
		return;
	}
	switch (m.type) {
	case ETHEREAL_SIG_SETUP:
		ethereal_sig_setup(&rx, &m);
		break;
	case ETHEREAL_SIG_ACCEPT:
		ethereal_sig_accept(&rx, &m);
		break;
	case ETHEREAL_SIG_REJECT:
		ethereal_sig_rejected(&rx, &m);
		break;
	case ETHEREAL_SIG_TEARDOWN:
		ethereal_sig_teardown(&rx, &m);
		break;
	case ETHEREAL_SIG_REFRESH:
		ethereal_sig_refresh(&rx, &m);
		break;
	}
}

/* Soft state and answers overdue. */
static void ethereal_sig_timeouts(struct ethereal_switch *sw)
{
	unsigned long next = jiffies + msecs_to_jiffies(ETHEREAL_LIFETIME_MAX_MS);
	struct ethereal_conn *conn, *tmp;

	if (time_before(jiffies, sw->sig.next_deadline))
		return;
	list_for_each_entry_safe(conn, tmp, &sw->sig.conns, sig.node) {
		if (time_before(jiffies, conn->sig.deadline)) {
			if (time_before(conn->sig.deadline, next))
				next = conn->sig.deadline;
			continue;
		}
		if (conn->sig.state == ETHEREAL_CONN_PENDING) {
			ethereal_sig_conn_teardown(conn, ETHEREAL_SIG_R_TIMEOUT);
		} else {
			ethereal_sig_count(sw, ETHEREAL_SIGC_EXPIRED);
			ethereal_sig_conn_teardown(conn, ETHEREAL_SIG_R_EXPIRED);
		}
	}
	sw->sig.next_deadline = next;
}

/* When the work must look again: ARP waits are polled, deadlines are not. */
static void ethereal_sig_rearm(struct ethereal_switch *sw)
{
	unsigned long delay = ULONG_MAX;

	if (!skb_queue_empty(&sw->sig.rxq))
		delay = 0;
	else if (!list_empty(&sw->sig.waiting))
		delay = ETHEREAL_SIG_TICK;
	if (!list_empty(&sw->sig.conns))
		delay = min(delay, time_after(sw->sig.next_deadline, jiffies) ?
				   sw->sig.next_deadline - jiffies : 0);
	if (delay != ULONG_MAX)
		queue_delayed_work(system_wq, &sw->sig.work, delay);
}

static void ethereal_sig_work(struct work_struct *work)
{
	struct ethereal_switch *sw = container_of(to_delayed_work(work),
						  struct ethereal_switch, sig.work);
	struct sk_buff *skb;
	int n = 0;

	/* Detach cancels this work holding RTNL: never wait for it here. */
	if (!rtnl_trylock()) {
		queue_delayed_work(system_wq, &sw->sig.work, 1);
		return;
	}
	while (n++ < ETHEREAL_SIG_BATCH && (skb = skb_dequeue(&sw->sig.rxq))) {
		ethereal_sig_handle(sw, skb);
		dev_put(skb->dev);
		consume_skb(skb);
	}
	ethereal_sig_waiting(sw);
	ethereal_sig_timeouts(sw);
	ethereal_sig_rearm(sw);
	rtnl_unlock();
}

/* Packet path: a frame to the signaling MAC. Queue it for the work. */
unsigned int ethereal_sig_rx(struct ethereal_port *port, struct sk_buff *skb)
{
	struct ethereal_switch *sw = port->sw;

	if (READ_ONCE(sw->sig.dead))
		return NF_DROP;
	if (!__ratelimit(&port->sig_rl)) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_RATELIMIT);
		return NF_DROP;
	}
	if (skb_queue_len(&sw->sig.rxq) >= ETHEREAL_SIG_RXQ_MAX) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_BACKLOG);
		return NF_DROP;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_BACKLOG);
		return NF_STOLEN;
	}
	ethereal_sig_cb(skb)->arrival = ktime_get_ns();
	/* Held until handled: the port may leave meanwhile. */
	dev_hold(skb->dev);
	skb_queue_tail(&sw->sig.rxq, skb);
	mod_delayed_work(system_wq, &sw->sig.work, 0);
	return NF_STOLEN;
}

/* A port's link went down: its signaled connections end, on every switch. */
void ethereal_sig_port_down(struct ethereal_port *port, u16 reason)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_conn *conn, *tmp;
	struct ethereal_sig_wait *w, *wtmp;

	ASSERT_RTNL();
	list_for_each_entry_safe(w, wtmp, &sw->sig.waiting, node)
		if (w->in == port)
			ethereal_sig_wait_free(sw, w);
	list_for_each_entry_safe(conn, tmp, &sw->sig.conns, sig.node) {
		if (conn->in != port && conn->out != port)
			continue;
		if (reason == ETHEREAL_SIG_R_LINK_DOWN)
			ethereal_sig_count(sw, ETHEREAL_SIGC_LINK_DOWN);
		ethereal_sig_conn_teardown(conn, reason);
	}
}

void ethereal_sig_init(struct ethereal_switch *sw)
{
	skb_queue_head_init(&sw->sig.rxq);
	INIT_DELAYED_WORK(&sw->sig.work, ethereal_sig_work);
	INIT_LIST_HEAD(&sw->sig.conns);
	INIT_LIST_HEAD(&sw->sig.waiting);
	spin_lock_init(&sw->sig.neigh_lock);
	sw->sig.lifetime_ms = ETHEREAL_LIFETIME_DEFAULT_MS;
	sw->sig.next_deadline = jiffies;
}

/* Detaching, ports and connections gone: nothing may be queued after. */
void ethereal_sig_stop(struct ethereal_switch *sw)
{
	struct ethereal_sig_wait *w, *tmp;
	struct sk_buff *skb;

	ASSERT_RTNL();
	WRITE_ONCE(sw->sig.dead, true);
	/* Hooks that saw it alive have queued what they will. */
	synchronize_net();
	cancel_delayed_work_sync(&sw->sig.work);
	while ((skb = skb_dequeue(&sw->sig.rxq))) {
		dev_put(skb->dev);
		kfree_skb(skb);
	}
	list_for_each_entry_safe(w, tmp, &sw->sig.waiting, node)
		ethereal_sig_wait_free(sw, w);
	ethereal_neigh_flush(sw);
}
