// SPDX-License-Identifier: GPL-2.0
/*
 * The setup state machine of a switch (Sections 2.2 and 2.3 of the
 * paper): a SETUP admitted on its output port and installed with a fresh
 * ID there, then answered (last switch) or forwarded and PENDING until the
 * switch downstream answers; ACCEPT, REJECT, TEARDOWN and REFRESH for the
 * connections it has. A setup whose receiver is not known yet waits for
 * its ARP answer. From the work item of signal.c, under the switch's lock,
 * and RTNL for what changes connections (SETUP, ACCEPT, REJECT, TEARDOWN).
 */
#include <linux/etherdevice.h>
#include <linux/if_bridge.h>
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "admit.h"
#include "bound.h"
#include "conn.h"
#include "neigh.h"
#include "netlink.h"
#include "sig.h"
#include "sigmsg.h"
#include "signaling.h"
#include "switch.h"

/* Connections */

static void ethereal_sig_time_add(struct ethereal_sig_time *t, u64 arrival)
{
	u64 d = ktime_get_ns() - arrival;

	t->n++;
	t->sum += d;
	t->max = max(t->max, d);
}

/*
 * Setups in progress (waiting for ARP or for the switch downstream), per
 * switch and per input port: a host may have ETHEREAL_SIG_PENDING_HOST at
 * once, so that one host holding setups to dead addresses leaves room for
 * the others; a trunk's are its neighbour's hosts', bounded there.
 */
static void ethereal_sig_pending_add(struct ethereal_port *in, int d)
{
	in->sw->sig.n_pending += d;
	in->sig_pending += d;
}

static bool ethereal_sig_pending_full(const struct ethereal_port *in)
{
	return in->sw->sig.n_pending >= ETHEREAL_SIG_PENDING_MAX ||
	       (in->role == ETHEREAL_PORT_PERIPHERAL &&
		in->sig_pending >= ETHEREAL_SIG_PENDING_HOST);
}

/*
 * Called by ethereal_conn_del() for every signaled connection: its end, as
 * the caller set it (ethereal_sig_conn_del()), goes to the monitor. One
 * deleted without a word (detach, a port leaving) was removed.
 */
void ethereal_sig_conn_gone(struct ethereal_conn *conn)
{
	struct ethereal_switch *sw = conn->in->sw;
	bool pending = conn->sig.state == ETHEREAL_CONN_PENDING;

	ethereal_assert_config(sw);
	if (!conn->sig.end_event) {
		conn->sig.end_event = pending ? ETHEREAL_EVENT_REJECTED : ETHEREAL_EVENT_TEARDOWN;
		conn->sig.end_reason = ETHEREAL_SIG_R_REMOVED;
		conn->sig.end_hop = pending ? conn->sig.hop : 0;
	}
	ethereal_nl_conn_event(conn, conn->sig.end_event, conn->sig.end_reason,
			       conn->sig.end_hop);
	if (!RB_EMPTY_NODE(&conn->sig.node))
		rb_erase_cached(&conn->sig.node, &sw->sig.deadlines);
	if (pending)
		ethereal_sig_pending_add(conn->in, -1);
	else
		ethereal_sig_count(sw, ETHEREAL_SIGC_TEARDOWNS);
}

/* Delete a signaled connection, saying how it ended (enum ethereal_event). */
static void ethereal_sig_conn_del(struct ethereal_conn *conn, u8 event, u16 reason, u8 hop)
{
	conn->sig.end_event = event;
	conn->sig.end_reason = reason;
	conn->sig.end_hop = hop;
	ethereal_conn_del(conn);
}

/*
 * Tear a signaled connection down here and tell both neighbours: the
 * switch downstream, and the source (through the switches upstream).
 */
void ethereal_sig_conn_teardown(struct ethereal_conn *conn, u16 reason)
{
	struct ethereal_sig_msg m;

	ethereal_assert_config(conn->in->sw);
	ethereal_sig_teardown_msg(&m, reason, false);
	ethereal_sig_send_down(conn, &m);
	if (conn->sig.state == ETHEREAL_CONN_PENDING) {
		struct ethereal_sig_msg req = { .conn_id = conn->in_id,
						.cookie = conn->sig.cookie };

		ethereal_sig_reject(conn->in, conn->sig.has_peer ? &conn->sig.peer : NULL,
				    &req, reason, conn->sig.hop);
		ethereal_sig_conn_del(conn, ETHEREAL_EVENT_REJECTED, reason, conn->sig.hop);
		return;
	}
	ethereal_sig_teardown_msg(&m, reason, true);
	ethereal_sig_send_up(conn, &m);
	ethereal_sig_conn_del(conn, reason == ETHEREAL_SIG_R_EXPIRED ?
			      ETHEREAL_EVENT_EXPIRED : ETHEREAL_EVENT_TEARDOWN, reason, 0);
}

/* A setup refused before a connection was installed for it. */
static void ethereal_sig_refuse(struct ethereal_port *in, const struct ethereal_sig_peer *peer,
				const struct ethereal_sig_msg *req, u16 reason, u8 hop)
{
	ethereal_sig_reject(in, peer, req, reason, hop);
	ethereal_nl_setup_event(in, req, reason, hop);
}

static bool ethereal_sig_deadline_less(struct rb_node *a, const struct rb_node *b)
{
	return time_before(rb_entry(a, struct ethereal_conn, sig.node)->sig.deadline,
			   rb_entry(b, struct ethereal_conn, sig.node)->sig.deadline);
}

/*
 * A connection's next deadline, IN jiffies from now. The switch keeps its
 * connections ordered by deadline: the work item wakes for the earliest
 * and takes only the ones due, never scanning the others (O(log n) here).
 */
static void ethereal_sig_deadline(struct ethereal_conn *conn, unsigned long in)
{
	struct ethereal_sig *sig = &conn->in->sw->sig;

	if (!RB_EMPTY_NODE(&conn->sig.node))
		rb_erase_cached(&conn->sig.node, &sig->deadlines);
	conn->sig.deadline = jiffies + in;
	rb_add_cached(&conn->sig.node, &sig->deadlines, ethereal_sig_deadline_less);
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
	case -ENETUNREACH:
		return ETHEREAL_SIG_R_NO_ROUTE;
	case -EDQUOT:
		return ETHEREAL_SIG_R_QUOTA;
	case -ETIME:
		return ETHEREAL_SIG_R_DELAY;
	default:
		return ETHEREAL_SIG_R_INVALID;
	}
}

/*
 * Where the receiver is: its MAC from the neighbour cache, its port the one
 * its address is bound to when that is a host's port (the FDB can be moved
 * by any host), else the bridge's FDB; in the VLAN of the setup's input
 * port IN either way. -EAGAIN: ask ARP first.
 */
static int ethereal_sig_route(struct ethereal_port *in, __be32 daddr,
			      struct ethereal_port **out, u8 *mac)
{
	struct ethereal_switch *sw = in->sw;
	u16 vid = ethereal_port_vid(in);
	struct ethereal_port *bound;
	struct net_device *dev;

	if (!ethereal_neigh_lookup(sw, daddr, mac, &bound))
		return -EAGAIN;
	if (bound->role == ETHEREAL_PORT_PERIPHERAL) {
		*out = bound;
		return ethereal_port_in_vlan(bound, vid) ? 0 : -ENOENT;
	}
	dev = br_fdb_find_port(sw->br, mac, vid);
	if (!dev)
		return -EAGAIN;
	*out = ethereal_port_find(dev_net(dev), dev);
	return *out && (*out)->sw == sw ? 0 : -ENOENT;
}

/*
 * The delay bound of the switches a SETUP crossed before this one: none
 * yet from a host (whatever it says), unknown from a switch that did not
 * say (one of a version before delay bounds).
 */
static u64 ethereal_sig_delay_before(const struct ethereal_sig_msg *m, bool from_host)
{
	if (from_host)
		return 0;
	return m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY) ? m->delay :
	       ETHEREAL_SIG_DELAY_NONE;
}

/*
 * What of the setup's maximum delay is left for this switch, given what
 * the switches before it bound; 0: no maximum. false: nothing is left.
 */
static bool ethereal_sig_delay_left(const struct ethereal_sig_msg *m, u64 before, u64 *left)
{
	*left = 0;
	if (!(m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_MAX_DELAY)) || !m->max_delay)
		return true;
	if (before >= m->max_delay)
		return false;
	*left = m->max_delay - before;
	return true;
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
	u64 before = ethereal_sig_delay_before(req, !!peer);
	struct ethereal_conn *conn;

	if (out == in || READ_ONCE(out->stp_state) != BR_STATE_FORWARDING ||
	    !netif_running(out->dev) || !netif_carrier_ok(out->dev)) {
		ethereal_sig_refuse(in, peer, req, ETHEREAL_SIG_R_NO_ROUTE, hop);
		return;
	}
	if (!ethereal_sig_delay_left(req, before, &cfg.max_delay)) {
		ethereal_sig_refuse(in, peer, req, ETHEREAL_SIG_R_DELAY, hop);
		return;
	}
	/* Its frames may come as late as the switches before may delay them. */
	cfg.before = before == ETHEREAL_SIG_DELAY_NONE ? 0 : before;
	if (cfg.to_host)
		ether_addr_copy(cfg.out_mac, mac);
	conn = ethereal_conn_add(&cfg, NULL);
	if (IS_ERR(conn)) {
		u16 reason = ethereal_sig_reason(PTR_ERR(conn));

		/* -EBUSY is either ID: the input's taken while this waited for ARP. */
		if (PTR_ERR(conn) == -EBUSY && xa_load(&in->in_conns, req->conn_id))
			reason = ETHEREAL_SIG_R_ID_IN_USE;
		ethereal_sig_refuse(in, peer, req, reason, hop);
		return;
	}
	conn->sig.cookie = req->cookie;
	conn->sig.hop = hop;
	conn->sig.dport = req->dport;
	conn->sig.has_peer = !!peer;
	if (peer)
		conn->sig.peer = *peer;
	conn->sig.lifetime_ms = sw->sig.lifetime_ms;
	/* The path's bound so far; the last switch's is the whole path's. */
	conn->sig.path_delay = ethereal_add_sat(before, conn->delay);
	/* The last switch: the connection is complete. */
	conn->sig.state = cfg.to_host ? ETHEREAL_CONN_UP : ETHEREAL_CONN_PENDING;
	ethereal_sig_time_add(missed ? &sw->sig.t_miss : &sw->sig.t_hit, arrival);
	ethereal_nl_conn_event(conn, ETHEREAL_EVENT_ADDED, 0, 0);

	if (cfg.to_host) {
		ethereal_sig_deadline(conn, msecs_to_jiffies(conn->sig.lifetime_ms));
		memset(&m, 0, sizeof(m));
		m.hops = hop;
		m.lifetime = conn->sig.lifetime_ms;
		m.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS) |
			    ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME);
		ethereal_sig_count(sw, ETHEREAL_SIGC_ACCEPTED);
		ethereal_sig_send_accept(conn, &m);
		ethereal_nl_conn_event(conn, ETHEREAL_EVENT_ACCEPTED, 0, 0);
		return;
	}
	ethereal_sig_deadline(conn, ETHEREAL_SIG_ANSWER_TIMEOUT);
	ethereal_sig_pending_add(in, 1);
	m.hop = hop;
	m.delay = conn->sig.path_delay;
	m.present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP) | ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY);
	ethereal_sig_send_down(conn, &m);
}

/* The setup waiting for DADDR's ARP answer that asks for it, if any. */
static struct ethereal_sig_wait *ethereal_sig_prober(struct ethereal_switch *sw, __be32 daddr)
{
	struct ethereal_sig_wait *w;

	list_for_each_entry(w, &sw->sig.waiting, node)
		if (w->probes && w->m.daddr == daddr)
			return w;
	return NULL;
}

void ethereal_sig_wait_free(struct ethereal_switch *sw, struct ethereal_sig_wait *w)
{
	struct ethereal_sig_wait *o;

	list_del(&w->node);
	/* Another setup waiting for the same address asks from now on. */
	if (w->probes) {
		list_for_each_entry(o, &sw->sig.waiting, node)
			if (o->m.daddr == w->m.daddr) {
				o->probes = true;
				break;
			}
	}
	ethereal_sig_pending_add(w->in, -1);
	WRITE_ONCE(sw->sig.n_waiting, sw->sig.n_waiting - 1);
	kfree(w);
}

/*
 * The ends upstream waiting for the answer, host included, counted on no
 * wait for ARP here: tell them, so that their answer timeouts grow by
 * this one instead of expiring while the receiver answers.
 */
static void ethereal_sig_proceed(struct ethereal_port *in, const struct ethereal_sig_peer *peer,
				 const struct ethereal_sig_msg *req, u8 hop)
{
	struct ethereal_sig_msg p = {
		.type = ETHEREAL_SIG_PROCEEDING,
		.conn_id = req->conn_id,
		.cookie = req->cookie,
		.hop = hop,
		.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP),
	};

	ethereal_sig_send(in, peer, &p);
}

/* Setups waiting for ARP: routed when the answer came, failed when late. */
void ethereal_sig_waiting(struct ethereal_switch *sw)
{
	struct ethereal_sig_wait *w, *tmp;
	struct ethereal_port *out;
	u8 mac[ETH_ALEN];

	list_for_each_entry_safe(w, tmp, &sw->sig.waiting, node) {
		if (!ethereal_sig_route(w->in, w->m.daddr, &out, mac)) {
			ethereal_sig_install(w->in, out, mac, &w->m,
					     w->has_peer ? &w->peer : NULL, w->hop,
					     w->arrival, true);
		} else if (time_after_eq(jiffies, w->deadline)) {
			ethereal_sig_refuse(w->in, w->has_peer ? &w->peer : NULL, &w->m,
					    ETHEREAL_SIG_R_NO_ROUTE, w->hop);
		} else {
			if (w->probes && time_after_eq(jiffies, w->next_probe)) {
				ethereal_neigh_probe(sw, w->m.daddr);
				w->next_probe = jiffies + ETHEREAL_SIG_ARP_RETRY;
			}
			continue;
		}
		ethereal_sig_wait_free(sw, w);
	}
}

/* Messages */

/*
 * A host may speak only for itself: its MAC and IPv4 address must be the
 * pair the switch learned from its ARP and bound to that port (neigh.c).
 * Not the FDB: one frame with another host's MAC moves that.
 */
bool ethereal_sig_from_host(const struct ethereal_sig_rxinfo *rx)
{
	struct ethereal_port *bound;
	u8 mac[ETH_ALEN];

	return ethereal_neigh_lookup(rx->port->sw, rx->from.ip, mac, &bound) &&
	       ether_addr_equal(mac, rx->from.mac) && bound == rx->port;
}

static bool ethereal_sig_setup_valid(const struct ethereal_sig_msg *m)
{
	return m->conn_id >= ETHEREAL_ID_MIN && m->conn_id <= ETHEREAL_ID_MAX &&
	       ethereal_rate_valid(m->rate) && m->max_pkt >= ETHEREAL_MAX_PKT_MIN &&
	       m->max_pkt <= ETHEREAL_MAX_PKT_MAX && m->burst >= m->max_pkt &&
	       m->daddr && m->hop < U8_MAX;
}

void ethereal_sig_setup(const struct ethereal_sig_rxinfo *rx,
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
		ethereal_sig_refuse(in, peer, m, ETHEREAL_SIG_R_INVALID, hop);
		return;
	}
	conn = xa_load(&in->in_conns, m->conn_id);
	if (conn) {
		/* A retransmission: answer again if it is complete. */
		if (conn->origin == ETHEREAL_ORIGIN_SIGNALED && conn->sig.cookie == m->cookie) {
			if (conn->sig.state == ETHEREAL_CONN_UP) {
				struct ethereal_sig_msg a = {
					.hops = hop,
					.lifetime = conn->sig.lifetime_ms,
					.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS) |
						   ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME),
				};

				ethereal_sig_send_accept(conn, &a);
			}
			return;
		}
		ethereal_sig_refuse(in, peer, m, ETHEREAL_SIG_R_ID_IN_USE, hop);
		return;
	}
	list_for_each_entry(w, &sw->sig.waiting, node)
		if (w->in == in && w->m.conn_id == m->conn_id)
			return;		/* already waiting for ARP */
	err = ethereal_sig_route(in, m->daddr, &out, mac);
	/* Only a setup that will wait (for ARP, or downstream) needs room. */
	if ((err == -EAGAIN || (!err && out->role != ETHEREAL_PORT_PERIPHERAL)) &&
	    ethereal_sig_pending_full(in)) {
		ethereal_sig_refuse(in, peer, m, ETHEREAL_SIG_R_BUSY, hop);
		return;
	}
	if (!err) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_ARP_HITS);
		ethereal_sig_install(in, out, mac, m, peer, hop, rx->arrival, false);
		return;
	}
	if (err != -EAGAIN) {
		ethereal_sig_refuse(in, peer, m, ETHEREAL_SIG_R_NO_ROUTE, hop);
		return;
	}
	/* Miss: ask, and wait a bounded time for the answer. */
	ethereal_sig_count(sw, ETHEREAL_SIGC_ARP_MISSES);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		ethereal_sig_refuse(in, peer, m, ETHEREAL_SIG_R_NO_MEMORY, hop);
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
	/*
	 * One setup per address asks for it: many waiting for one receiver
	 * (or for a dead address) must not multiply the probes sent out of
	 * every port.
	 */
	w->probes = !ethereal_sig_prober(sw, m->daddr);
	list_add_tail(&w->node, &sw->sig.waiting);
	ethereal_sig_pending_add(in, 1);
	WRITE_ONCE(sw->sig.n_waiting, sw->sig.n_waiting + 1);
	ethereal_sig_proceed(in, peer, m, hop);
	if (w->probes)
		ethereal_neigh_probe(sw, m->daddr);
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
 * FDB, which the host's refreshes alone would let age out, is the check; a
 * host may name its connection by ID alone (rtcd releases what an earlier
 * rtcd left that way). An upstream switch always sends the setup's cookie:
 * from a trunk, a message with another is not about this connection.
 */
static struct ethereal_conn *ethereal_sig_upstream_conn(const struct ethereal_sig_rxinfo *rx,
							const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = xa_load(&rx->port->in_conns, m->conn_id);

	if (!conn || conn->origin != ETHEREAL_ORIGIN_SIGNALED)
		return NULL;
	if (!conn->sig.has_peer)
		return conn->sig.cookie == m->cookie ? conn : NULL;
	if (conn->sig.peer.ip != rx->from.ip ||
	    !ether_addr_equal(conn->sig.peer.mac, rx->from.mac)) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_SPOOFED);
		return ERR_PTR(-EPERM);
	}
	return conn;
}

void ethereal_sig_accept(const struct ethereal_sig_rxinfo *rx,
			 const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = ethereal_sig_downstream_conn(rx, m);
	struct ethereal_sig_msg a = *m;

	if (!conn || conn->sig.state != ETHEREAL_CONN_PENDING) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		return;
	}
	conn->sig.state = ETHEREAL_CONN_UP;
	ethereal_sig_pending_add(conn->in, -1);
	/* The whole path's, if every switch of it said. */
	conn->sig.path_delay = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY) ?
			       m->delay : ETHEREAL_SIG_DELAY_NONE;
	/* The path lives as long as its shortest-lived switch. */
	if (m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME) && m->lifetime &&
	    m->lifetime < conn->sig.lifetime_ms)
		conn->sig.lifetime_ms = m->lifetime;
	ethereal_sig_deadline(conn, msecs_to_jiffies(conn->sig.lifetime_ms));
	a.lifetime = conn->sig.lifetime_ms;
	a.present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME);
	ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_ACCEPTED);
	ethereal_sig_send_accept(conn, &a);
	ethereal_nl_conn_event(conn, ETHEREAL_EVENT_ACCEPTED, 0, 0);
}

void ethereal_sig_rejected(const struct ethereal_sig_rxinfo *rx,
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
	ethereal_sig_conn_del(conn, ETHEREAL_EVENT_REJECTED, m->reason,
			      m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP) ? m->hop : 0);
}

/*
 * A switch downstream waits for the receiver's ARP answer: this one waits
 * that much longer for the answer, and tells upstream, so that no end
 * times out while the path is still being made. A bounded number of times
 * per setup: the path is at most that many ARP waits long, and a
 * neighbour cannot keep a setup pending forever.
 */
void ethereal_sig_proceeding(const struct ethereal_sig_rxinfo *rx,
			     const struct ethereal_sig_msg *m)
{
	struct ethereal_conn *conn = ethereal_sig_downstream_conn(rx, m);
	/* Passed on as this switch's own: the waiting switch's HOP, nothing else. */
	struct ethereal_sig_msg p = {
		.type = ETHEREAL_SIG_PROCEEDING,
		.hop = m->hop,
		.present = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP),
	};
	unsigned long due;

	if (!conn || conn->sig.state != ETHEREAL_CONN_PENDING ||
	    conn->sig.proceeds >= ETHEREAL_SIG_PROCEED_MAX) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		return;
	}
	conn->sig.proceeds++;
	due = jiffies + ETHEREAL_SIG_ARP_TIMEOUT + ETHEREAL_SIG_ANSWER_TIMEOUT;
	if (time_after(due, conn->sig.deadline))
		ethereal_sig_deadline(conn, due - jiffies);
	ethereal_sig_send_up(conn, &p);
}

void ethereal_sig_teardown(const struct ethereal_sig_rxinfo *rx,
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
	ethereal_sig_conn_del(conn, ETHEREAL_EVENT_TEARDOWN, m->reason, 0);
}

void ethereal_sig_refresh(const struct ethereal_sig_rxinfo *rx,
			  const struct ethereal_sig_msg *m)
{
	/* Passed on as this switch's own: nothing of the sender's rides along. */
	struct ethereal_sig_msg r = { .type = ETHEREAL_SIG_REFRESH };
	struct ethereal_conn *conn;

	/*
	 * F_REVERSE: an ack, which only a first switch sends, to its host.
	 * From a host it was dropped as spoofed; from a switch it answers
	 * nothing here and goes no further.
	 */
	if (m->flags & ETHEREAL_SIG_F_REVERSE) {
		ethereal_sig_count(rx->port->sw, ETHEREAL_SIGC_DROP_UNEXPECTED);
		return;
	}
	conn = ethereal_sig_upstream_conn(rx, m);
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
	/*
	 * The first switch acknowledges its host's refresh, with the path's
	 * lifetime: the host tells a live switch from a dead one
	 * (ETHEREAL_SIG_FEAT_REFRESH_ACK, offered in the ACCEPT).
	 */
	if (conn->sig.has_peer) {
		struct ethereal_sig_msg a = {
			.type = ETHEREAL_SIG_REFRESH,
			.flags = ETHEREAL_SIG_F_REVERSE,
			.conn_id = m->conn_id,
			.cookie = conn->sig.cookie,
			.lifetime = conn->sig.lifetime_ms,
			.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME),
		};

		ethereal_sig_send(rx->port, &rx->from, &a);
	}
}
