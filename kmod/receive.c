// SPDX-License-Identifier: GPL-2.0
/*
 * The packet path: every frame entering a port of an attached bridge passes
 * here first (netfilter netdev ingress hook), and is one of the paper's
 * five kinds by destination MAC (Section 3.3):
 *
 *   broadcast                  the bridge floods it, as always
 *   addressed to the switch    ARP goes up, the rest is dropped
 *   FF:FF:FF:FF:00:00-00:0A    control range: 00:01 is signaling (queued
 *                              for signal.c), the rest is dropped
 *   FF:FF:FF:FF:X:Y            real time: connection X:Y of the input port
 *   anything else              the bridge forwards it, untouched
 *
 * Real-time frames are forwarded here and never reach the bridge.
 */
#include <linux/etherdevice.h>
#include <linux/if_bridge.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/pkt_sched.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "compat.h"
#include "conn.h"
#include "discard.h"
#include "neigh.h"
#include "receive.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

static unsigned int ethereal_drop(struct ethereal_port *port,
				  struct ethereal_conn *conn,
				  enum ethereal_counter why)
{
	ethereal_stats_inc(port->stats, why);
	if (conn)
		ethereal_stats_inc(conn->stats, why);
	return NF_DROP;
}

/*
 * First switch only: the sender addressed the proxy IP; the receiver must
 * see its own address. Checksums are updated incrementally, which is right
 * for CHECKSUM_PARTIAL (pseudo-header sum in the field) and for complete
 * checksums alike. skb->data is at the MAC header.
 */
static int ethereal_rewrite_daddr(struct sk_buff *skb, __be32 daddr)
{
	unsigned int nhoff = skb_network_offset(skb);
	unsigned int ihl, l4len = 0;
	struct iphdr *iph;
	__be32 old;

	if (skb->protocol != htons(ETH_P_IP) ||
	    !pskb_may_pull(skb, nhoff + sizeof(*iph)))
		return -EINVAL;
	iph = ip_hdr(skb);
	ihl = iph->ihl * 4;
	if (iph->version != 4 || ihl < sizeof(*iph) ||
	    ntohs(iph->tot_len) < ihl ||
	    skb->len - nhoff < ntohs(iph->tot_len))
		return -EINVAL;

	/* Only the first fragment carries the transport header. */
	if (!(iph->frag_off & htons(IP_OFFSET))) {
		if (iph->protocol == IPPROTO_UDP)
			l4len = sizeof(struct udphdr);
		else if (iph->protocol == IPPROTO_TCP)
			l4len = sizeof(struct tcphdr);
	}
	if (ntohs(iph->tot_len) < ihl + l4len ||
	    skb_ensure_writable(skb, nhoff + ihl + l4len))
		return -EINVAL;

	iph = ip_hdr(skb);
	old = iph->daddr;
	csum_replace4(&iph->check, old, daddr);
	iph->daddr = daddr;

	if (iph->protocol == IPPROTO_UDP && l4len) {
		struct udphdr *uh = (struct udphdr *)((u8 *)iph + ihl);

		/* A zero UDP checksum means none, unless offload fills it. */
		if (uh->check || skb->ip_summed == CHECKSUM_PARTIAL) {
			inet_proto_csum_replace4(&uh->check, skb, old, daddr, true);
			if (!uh->check)
				uh->check = CSUM_MANGLED_0;
		}
	} else if (l4len) {
		struct tcphdr *th = (struct tcphdr *)((u8 *)iph + ihl);

		inet_proto_csum_replace4(&th->check, skb, old, daddr, true);
	}
	return 0;
}

/* Length of the frame on the wire, Ethernet header included, no FCS. */
static unsigned int ethereal_frame_len(const struct sk_buff *skb)
{
	return skb->len + (skb_vlan_tag_present(skb) ? VLAN_HLEN : 0);
}

static unsigned int ethereal_rx_rt(struct ethereal_port *in,
				   struct sk_buff *skb, u16 id)
{
	struct ethereal_conn *conn;
	struct ethereal_port *out;
	unsigned int len;
	int rc, vlan;

	/* Not pushed yet: skb->len starts at the network header. */
	len = ETH_HLEN + ethereal_frame_len(skb);
	ethereal_stats_inc(in->stats, ETHEREAL_RX_PACKETS);
	ethereal_stats_add(in->stats, ETHEREAL_RX_BYTES, len);
	conn = xa_load(&in->in_conns, id);
	if (!conn)
		return ethereal_drop(in, NULL, ETHEREAL_DROP_UNKNOWN_ID);
	ethereal_stats_inc(conn->stats, ETHEREAL_RX_PACKETS);
	ethereal_stats_add(conn->stats, ETHEREAL_RX_BYTES, len);
	out = conn->out;
	/* The cached STP state lags link changes by a moment: check both. */
	if (READ_ONCE(out->stp_state) != BR_STATE_FORWARDING ||
	    !netif_running(out->dev))
		return ethereal_drop(in, conn, ETHEREAL_DROP_PORT_STATE);
	/* The bridge's VLAN and isolation rules bind real time too. */
	vlan = ethereal_port_rx_vlan(in, out, skb);
	if (vlan < 0)
		return ethereal_drop(in, conn, ETHEREAL_DROP_FILTERED);

	/* Shared with someone else: ours to rewrite only as a copy. */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		/* No memory for the copy: counted like a full queue. */
		ethereal_stats_inc(in->stats, ETHEREAL_DROP_QUEUE);
		ethereal_stats_inc(conn->stats, ETHEREAL_DROP_QUEUE);
		return NF_STOLEN;
	}
	skb_push(skb, ETH_HLEN);
	if (skb_is_gso(skb) ? !skb_gso_validate_mac_len(skb, conn->max_pkt) :
			      len > conn->max_pkt)
		goto drop_oversize;
	if (!is_skb_forwardable(out->dev, skb))
		goto drop_oversize;

	skb_forward_csum(skb);
	if (conn->swap && ethereal_rewrite_daddr(skb, conn->daddr))
		goto drop_malformed;
	if (skb_ensure_writable(skb, ETH_HLEN))
		goto drop_malformed;
	ether_addr_copy(eth_hdr(skb)->h_dest, conn->out_mac);

	ethereal_port_tx_vlan(out, skb, vlan);
	skb->dev = out->dev;
	skb->priority = TC_H_MAKE(ETHEREAL_TC_MAJOR, conn->qid);
	skb_clear_tstamp(skb);

	rc = dev_queue_xmit(skb);
	if (net_xmit_eval(rc)) {
		ethereal_stats_inc(conn->stats, ETHEREAL_DROP_QUEUE);
		ethereal_stats_inc(out->stats, ETHEREAL_DROP_QUEUE);
		return NF_STOLEN;
	}
	ethereal_stats_inc(conn->stats, ETHEREAL_TX_PACKETS);
	ethereal_stats_add(conn->stats, ETHEREAL_TX_BYTES, len);
	ethereal_stats_inc(out->stats, ETHEREAL_TX_PACKETS);
	ethereal_stats_add(out->stats, ETHEREAL_TX_BYTES, len);
	return NF_STOLEN;

drop_oversize:
	ethereal_drop(in, conn, ETHEREAL_DROP_OVERSIZE);
	kfree_skb(skb);
	return NF_STOLEN;
drop_malformed:
	ethereal_drop(in, conn, ETHEREAL_DROP_MALFORMED);
	kfree_skb(skb);
	return NF_STOLEN;
}

static bool ethereal_to_switch(const struct ethereal_port *port, const u8 *dest)
{
	return ether_addr_equal(dest, port->dev->dev_addr) ||
	       ether_addr_equal(dest, port->sw->br->dev_addr);
}

unsigned int ethereal_ingress(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *state)
{
	struct ethereal_port *port = priv;
	const u8 *dest = eth_hdr(skb)->h_dest;
	u16 id;

	/* A port STP keeps from forwarding: the bridge decides, as ever. */
	if (READ_ONCE(port->stp_state) != BR_STATE_FORWARDING)
		return NF_ACCEPT;

	if (is_multicast_ether_addr(dest)) {
		if (ethereal_mac_is_rt(dest) && !is_broadcast_ether_addr(dest)) {
			id = ethereal_mac_id(dest);
			if (id == ETHEREAL_ID_SIGNAL)
				return ethereal_sig_rx(port, skb);
			if (id <= ETHEREAL_ID_CTRL_LAST)
				return ethereal_drop(port, NULL, ETHEREAL_DROP_CONTROL);
			return ethereal_rx_rt(port, skb, id);
		}
	} else if (unlikely(ethereal_to_switch(port, dest)) &&
		   skb->protocol != htons(ETH_P_ARP)) {
		/* Keeps the switch transparent: it answers ARP and nothing else. */
		return ethereal_drop(port, NULL, ETHEREAL_DROP_TO_SWITCH);
	}

	/* Signaling finds receivers, and checks senders, by what ARP says. */
	if (skb->protocol == htons(ETH_P_ARP))
		ethereal_neigh_snoop(port, skb);

	/* Best effort from a host over its residual bandwidth: drop early. */
	if (ethereal_discard(port, skb))
		return ethereal_drop(port, NULL, ETHEREAL_DROP_EARLY);
	return NF_ACCEPT;
}
