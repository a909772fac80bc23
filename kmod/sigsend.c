// SPDX-License-Identifier: GPL-2.0
/*
 * Signaling messages out of the switch: toward the source, toward the
 * receiver, and the answers that refuse or end a connection. Each is one
 * UDP datagram on one link, never routed (TTL 1), queued first on the
 * port (ETHEREAL_TC_CONTROL).
 */
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "conn.h"
#include "sig.h"
#include "sigmsg.h"
#include "signaling.h"
#include "switch.h"

/*
 * One message out of PORT: to the host of PEER, or to the switch at the
 * other end of the link when PEER is NULL.
 */
void ethereal_sig_send(struct ethereal_port *port,
		       const struct ethereal_sig_peer *peer,
		       const struct ethereal_sig_msg *m)
{
	static const u8 ctl_mac[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0x00,
					      ETHEREAL_ID_SIGNAL };
	struct net_device *dev = port->dev;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	struct ethereal_sig_msg out;
	unsigned int len, ulen;
	struct sk_buff *skb;
	struct udphdr *uh;
	struct iphdr *iph;
	__be32 saddr, daddr;

	if (!netif_running(dev) || !netif_carrier_ok(dev))
		return;
	/*
	 * Whatever AUTH the message came in with is not ours to pass on; to
	 * the switch at a keyed trunk's other end, it gets ours.
	 */
	out = *m;
	out.present &= ~ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_AUTH);
	if (!peer)
		ethereal_sig_auth_prepare(port, &out);
	len = ethereal_sig_build(buf, sizeof(buf), &out);
	if (WARN_ON_ONCE(!len) || (!peer && !ethereal_sig_auth_sign(port, buf, len)))
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
void ethereal_sig_send_up(struct ethereal_conn *conn, struct ethereal_sig_msg *m)
{
	m->conn_id = conn->in_id;
	m->cookie = conn->sig.cookie;
	ethereal_sig_send(conn->in, conn->sig.has_peer ? &conn->sig.peer : NULL, m);
}

/* Toward the receiver, when another switch is there. */
void ethereal_sig_send_down(struct ethereal_conn *conn, struct ethereal_sig_msg *m)
{
	if (conn->to_host)
		return;
	m->conn_id = conn->qid;
	m->cookie = conn->sig.cookie;
	ethereal_sig_send(conn->out, NULL, m);
}

/*
 * An ACCEPT toward the source. The first switch tells its host what it
 * offers beyond version 1; between switches that means nothing, and the
 * attribute is left out whatever the switch downstream put in.
 */
void ethereal_sig_send_accept(struct ethereal_conn *conn, struct ethereal_sig_msg *m)
{
	m->type = ETHEREAL_SIG_ACCEPT;
	/*
	 * The contract: the burst every switch of the path polices to (the
	 * least of them), and the path's delay bound, if it has one.
	 */
	if (!(m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_BURST)) || m->burst > conn->dl_tol)
		m->burst = min_t(u64, conn->dl_tol, U32_MAX);
	m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_BURST);
	m->delay = conn->sig.path_delay;
	if (m->delay == ETHEREAL_SIG_DELAY_NONE)
		m->present &= ~ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY);
	else
		m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY);
	if (conn->sig.has_peer) {
		m->features = ETHEREAL_SIG_FEATURES;
		m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_FEATURES);
	} else {
		m->features = 0;
		m->present &= ~ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_FEATURES);
	}
	ethereal_sig_send_up(conn, m);
}

void ethereal_sig_reject(struct ethereal_port *in,
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

void ethereal_sig_teardown_msg(struct ethereal_sig_msg *m, u16 reason, bool reverse)
{
	memset(m, 0, sizeof(*m));
	m->type = ETHEREAL_SIG_TEARDOWN;
	m->flags = reverse ? ETHEREAL_SIG_F_REVERSE : 0;
	m->reason = reason;
	m->present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON);
}
