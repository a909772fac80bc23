// SPDX-License-Identifier: GPL-2.0
/*
 * Signaling in the switch (Sections 2.2, 2.3 and 3.4 of the paper;
 * Documentation/signaling.md is the protocol).
 *
 * The packet path only queues control messages (rate-limited per port,
 * bounded per switch); a work item handles them under the switch's lock
 * (switch.h). The same work item times out setups waiting for an answer
 * or for ARP, and expires connections not refreshed in time (soft state).
 * What changes connections (SETUP, ACCEPT, REJECT, TEARDOWN, timeouts,
 * setups whose ARP answer came) also needs RTNL, which serializes it with
 * the bridge and the qdisc: the work takes RTNL only when such a message
 * heads a port's queue or such a deadline is due, with trylock, retrying a
 * jiffy later, so that detaching, which holds RTNL, can cancel it
 * synchronously. Refreshes, hellos and PROCEEDINGs never wait for RTNL,
 * and a flood of them never holds it.
 *
 * A setup travels downstream hop by hop: each switch admits it on its
 * output port (bandwidth, buffer, connections: the port's qdisc decides),
 * installs the connection with a fresh ID on the output link, and forwards
 * the request; the last switch maps it to the receiver's MAC and accepts.
 * Answers travel back the same way. A reject removes the connection at
 * every switch it passes, so nothing stays reserved.
 *
 * This file: the receive queue, the work item and soft state. The state
 * machine is in sigsetup.c, sending in sigsend.c, trunk hellos in
 * sighello.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "conn.h"
#include "neigh.h"
#include "sig.h"
#include "sigmsg.h"
#include "signaling.h"
#include "switch.h"

/* Messages queued per port: a host's own, or a neighbour switch's. */
#define ETHEREAL_SIG_RXQ_HOST	32
#define ETHEREAL_SIG_RXQ_TRUNK	256
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

/*
 * Reads the message SKB brought to PORT into M (its payload in BUF, for
 * the HMAC); < 0, counted, if it is malformed.
 */
static int ethereal_sig_read(struct ethereal_port *port, struct sk_buff *skb,
			     struct ethereal_sig_rxinfo *rx, u8 *buf,
			     struct ethereal_sig_msg *m)
{
	int len;

	rx->port = port;
	rx->arrival = ethereal_sig_cb(skb)->arrival;
	len = ethereal_sig_extract(skb, rx, buf);
	if (len < 0 || ethereal_sig_parse(buf, len, m) != ETHEREAL_SIG_OK) {
		ethereal_sig_count(port->sw, ETHEREAL_SIGC_DROP_MALFORMED);
		return -EINVAL;
	}
	return len;
}

/* Whether handling M may change connections, which takes RTNL too. */
static bool ethereal_sig_needs_rtnl(const struct ethereal_sig_msg *m)
{
	return m->type == ETHEREAL_SIG_SETUP || m->type == ETHEREAL_SIG_ACCEPT ||
	       m->type == ETHEREAL_SIG_REJECT || m->type == ETHEREAL_SIG_TEARDOWN;
}

static void ethereal_sig_handle(const struct ethereal_sig_rxinfo *rx, u8 *buf, int len,
				const struct ethereal_sig_msg *m)
{
	struct ethereal_port *port = rx->port;
	struct ethereal_switch *sw = port->sw;
	bool host;

	lockdep_assert_held(&sw->lock);
	if (ethereal_sig_needs_rtnl(m))
		ASSERT_RTNL();
	ethereal_sig_count(sw, ETHEREAL_SIGC_RX);

	/*
	 * Hosts set up, refresh and tear down their own connections: a setup
	 * from the host learned on the port, the rest for its connections.
	 */
	host = port->role == ETHEREAL_PORT_PERIPHERAL;
	if (host && (m->type == ETHEREAL_SIG_ACCEPT || m->type == ETHEREAL_SIG_REJECT ||
		     m->type == ETHEREAL_SIG_HELLO || m->type == ETHEREAL_SIG_PROCEEDING ||
		     (m->flags & ETHEREAL_SIG_F_REVERSE) ||
		     (m->type == ETHEREAL_SIG_SETUP && !ethereal_sig_from_host(rx)))) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_SPOOFED);
		return;
	}
	/* A trunk: only the switch at its other end speaks, with its key. */
	if (!host && !ethereal_sig_auth_check(rx, buf, len, m)) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_AUTH);
		return;
	}
	if (!host && !ethereal_sig_from_link_switch(rx, m)) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_STRANGER);
		return;
	}
	if (!host)
		ethereal_sig_auth_taken(port, m);
	switch (m->type) {
	case ETHEREAL_SIG_SETUP:
		ethereal_sig_setup(rx, m);
		break;
	case ETHEREAL_SIG_ACCEPT:
		ethereal_sig_accept(rx, m);
		break;
	case ETHEREAL_SIG_REJECT:
		ethereal_sig_rejected(rx, m);
		break;
	case ETHEREAL_SIG_TEARDOWN:
		ethereal_sig_teardown(rx, m);
		break;
	case ETHEREAL_SIG_REFRESH:
		ethereal_sig_refresh(rx, m);
		break;
	case ETHEREAL_SIG_HELLO:
		ethereal_sig_hello(rx, m);
		break;
	case ETHEREAL_SIG_PROCEEDING:
		ethereal_sig_proceeding(rx, m);
		break;
	}
}

/* Soft state and answers overdue. */
/* The earliest deadline's connection, if there is one. */
static struct ethereal_conn *ethereal_sig_first_due(struct ethereal_switch *sw)
{
	struct rb_node *n = rb_first_cached(&sw->sig.deadlines);

	return n ? rb_entry(n, struct ethereal_conn, sig.node) : NULL;
}

static bool ethereal_sig_due(struct ethereal_switch *sw)
{
	struct ethereal_conn *conn = ethereal_sig_first_due(sw);

	return conn && !time_before(jiffies, conn->sig.deadline);
}

/* Each teardown takes the connection out of the tree: the next is first. */
static void ethereal_sig_timeouts(struct ethereal_switch *sw)
{
	struct ethereal_conn *conn;

	while (ethereal_sig_due(sw)) {
		conn = ethereal_sig_first_due(sw);
		if (conn->sig.state == ETHEREAL_CONN_PENDING) {
			ethereal_sig_conn_teardown(conn, ETHEREAL_SIG_R_TIMEOUT);
		} else {
			ethereal_sig_count(sw, ETHEREAL_SIGC_EXPIRED);
			ethereal_sig_conn_teardown(conn, ETHEREAL_SIG_R_EXPIRED);
		}
	}
}

/*
 * One of PORT's queued messages, if it has one; without RTNL (RTNL false),
 * not one that needs it, which stays at the head of the queue for the
 * work's pass under RTNL: a port's messages are handled in order. Returns
 * whether it handled one.
 */
static bool ethereal_sig_handle_one(struct ethereal_port *port, bool rtnl, bool *blocked)
{
	struct ethereal_sig_rxinfo rx = {};
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	struct ethereal_sig_msg m;
	struct sk_buff *skb;
	int len;

	skb = skb_dequeue(&port->sig_rxq);
	if (!skb)
		return false;
	len = ethereal_sig_read(port, skb, &rx, buf, &m);
	if (len >= 0 && !rtnl && ethereal_sig_needs_rtnl(&m)) {
		/* Only this work takes from the queue: its head is still first. */
		skb_queue_head(&port->sig_rxq, skb);
		*blocked = true;
		return false;
	}
	if (len < 0) {
		/* counted by ethereal_sig_read(); a drop to drop monitors too */
		kfree_skb(skb);
		return true;
	}
	ethereal_sig_handle(&rx, buf, len, &m);
	consume_skb(skb);
	return true;
}

/*
 * Up to ETHEREAL_SIG_BATCH messages, one port's at a time in turn, so that
 * no port waits behind another's queue; the port served first moves on
 * with every run. Returns whether a message waits for RTNL.
 */
static bool ethereal_sig_handle_queued(struct ethereal_switch *sw, bool rtnl)
{
	unsigned int start = sw->sig.next_rx++ % max(sw->n_ports, 1U), i, n = 0;
	struct ethereal_port *port;
	bool more, blocked = false;

	do {
		more = false;
		i = 0;
		list_for_each_entry(port, &sw->ports, node)	/* from start */
			if (i++ >= start && n < ETHEREAL_SIG_BATCH &&
			    ethereal_sig_handle_one(port, rtnl, &blocked)) {
				more = true;
				n++;
			}
		i = 0;
		list_for_each_entry(port, &sw->ports, node)	/* then up to it */
			if (i++ < start && n < ETHEREAL_SIG_BATCH &&
			    ethereal_sig_handle_one(port, rtnl, &blocked)) {
				more = true;
				n++;
			}
	} while (more && n < ETHEREAL_SIG_BATCH);
	return blocked;
}

static bool ethereal_sig_queued(const struct ethereal_switch *sw)
{
	const struct ethereal_port *port;

	list_for_each_entry(port, &sw->ports, node)
		if (!skb_queue_empty(&port->sig_rxq))
			return true;
	return false;
}

/* When the work must look again: ARP waits are polled, deadlines are not. */
static void ethereal_sig_rearm(struct ethereal_switch *sw)
{
	struct ethereal_conn *first = ethereal_sig_first_due(sw);
	unsigned long delay = ethereal_sig_hello_delay(sw);

	if (ethereal_sig_queued(sw))
		delay = 0;
	else if (!list_empty(&sw->sig.waiting))
		delay = min(delay, ETHEREAL_SIG_TICK);
	if (first)
		delay = min(delay, time_after(first->sig.deadline, jiffies) ?
				   first->sig.deadline - jiffies : 0);
	if (delay != ULONG_MAX)
		queue_delayed_work(system_wq, &sw->sig.work, delay);
}

/*
 * What changes connections: the messages that wait for RTNL, setups
 * waiting for ARP, deadlines due. Called with RTNL and the switch's lock.
 */
static void ethereal_sig_work_rtnl(struct ethereal_switch *sw)
{
	ethereal_assert_config(sw);
	ethereal_sig_handle_queued(sw, true);
	ethereal_sig_waiting(sw);
	ethereal_sig_timeouts(sw);
}

static void ethereal_sig_work(struct work_struct *work)
{
	struct ethereal_switch *sw = container_of(to_delayed_work(work),
						  struct ethereal_switch, sig.work);
	bool rtnl;

	ethereal_switch_lock(sw);
	rtnl = ethereal_sig_handle_queued(sw, false);
	rtnl |= !list_empty(&sw->sig.waiting) || ethereal_sig_due(sw);
	ethereal_sig_hellos(sw);
	if (!rtnl) {
		ethereal_sig_rearm(sw);
		ethereal_switch_unlock(sw);
		return;
	}
	ethereal_switch_unlock(sw);
	/*
	 * RTNL comes before the switch's lock. Detach cancels this work
	 * holding RTNL: never wait for it here.
	 */
	if (!rtnl_trylock()) {
		queue_delayed_work(system_wq, &sw->sig.work, 1);
		return;
	}
	ethereal_switch_lock(sw);
	ethereal_sig_count(sw, ETHEREAL_SIGC_RTNL_RUNS);
	ethereal_sig_work_rtnl(sw);
	ethereal_sig_rearm(sw);
	ethereal_switch_unlock(sw);
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
	/* Each port its own queue: one host cannot fill the others'. */
	if (skb_queue_len(&port->sig_rxq) >= (READ_ONCE(port->role) == ETHEREAL_PORT_TRUNK ?
					      ETHEREAL_SIG_RXQ_TRUNK : ETHEREAL_SIG_RXQ_HOST)) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_BACKLOG);
		return NF_DROP;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		ethereal_sig_count(sw, ETHEREAL_SIGC_DROP_BACKLOG);
		return NF_STOLEN;
	}
	ethereal_sig_cb(skb)->arrival = ktime_get_ns();
	/* The port, and its device, outlive the queue (freed after it). */
	skb_queue_tail(&port->sig_rxq, skb);
	mod_delayed_work(system_wq, &sw->sig.work, 0);
	return NF_STOLEN;
}

/* A port's link went down: its signaled connections end, on every switch. */
void ethereal_sig_port_down(struct ethereal_port *port, u16 reason)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_sig_wait *w, *wtmp;
	struct xarray *ids[] = { &port->in_conns, &port->out_conns };
	struct ethereal_conn *conn;
	unsigned long id;
	int i;

	ethereal_assert_config(sw);
	/* Its hosts' addresses are no longer bound to it: they may move. */
	ethereal_neigh_port_down(port);
	ethereal_sig_forget_link_switch(port);
	list_for_each_entry_safe(w, wtmp, &sw->sig.waiting, node)
		if (w->in == port)
			ethereal_sig_wait_free(sw, w);
	/* The port's own connections, not the switch's (xa_for_each may erase). */
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		xa_for_each(ids[i], id, conn) {
			if (conn->origin != ETHEREAL_ORIGIN_SIGNALED)
				continue;
			if (reason == ETHEREAL_SIG_R_LINK_DOWN)
				ethereal_sig_count(sw, ETHEREAL_SIGC_LINK_DOWN);
			ethereal_sig_conn_teardown(conn, reason);
		}
}

void ethereal_sig_init(struct ethereal_switch *sw)
{
	mutex_init(&sw->lock);
	INIT_DELAYED_WORK(&sw->sig.work, ethereal_sig_work);
	sw->sig.deadlines = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&sw->sig.waiting);
	spin_lock_init(&sw->sig.neigh_lock);
	sw->sig.neigh_seed = get_random_u32();
	sw->sig.lifetime_ms = ETHEREAL_LIFETIME_DEFAULT_MS;
}

/*
 * Detaching: nothing may be queued after. RTNL held, not the switch's
 * lock, which the work being cancelled may be waiting for.
 */
void ethereal_sig_stop(struct ethereal_switch *sw)
{
	struct ethereal_sig_wait *w, *tmp;
	struct ethereal_port *port;

	ASSERT_RTNL();
	WRITE_ONCE(sw->sig.dead, true);
	/* Hooks that saw it alive have queued what they will. */
	synchronize_net();
	cancel_delayed_work_sync(&sw->sig.work);
	ethereal_switch_lock(sw);
	list_for_each_entry(port, &sw->ports, node)
		skb_queue_purge(&port->sig_rxq);
	list_for_each_entry_safe(w, tmp, &sw->sig.waiting, node)
		ethereal_sig_wait_free(sw, w);
	ethereal_switch_unlock(sw);
	ethereal_neigh_flush(sw);
}
