// SPDX-License-Identifier: GPL-2.0
/*
 * The switch's neighbour cache (Section 3.4 of the paper): which MAC has
 * which IPv4 address, learned by snooping the ARP that crosses the switch,
 * and on which port. Signaling uses it to find a connection's receiver,
 * and to check that a request comes from the host that owns its source
 * address. On a miss it asks with an ARP probe (sender IP 0.0.0.0, so that
 * no host's cache is disturbed) from each port's own MAC.
 *
 * Only ARP frames come here, never real-time or ordinary data. A known
 * address seen again within a second costs an RCU lookup; the per-switch
 * lock and an allocation are for new or changed addresses. Entries stay
 * until the switch detaches; a stale one is reused for a new address of
 * its bucket, so that hosts that left do not keep new ones out.
 */
#include <linux/hash.h>
#include <linux/if_arp.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <net/arp.h>

#include "ethereal.h"

#define ETHEREAL_NEIGH_MAX	4096		/* addresses per switch */
#define ETHEREAL_NEIGH_TTL	(300 * HZ)	/* as long as the FDB's ageing */

struct ethereal_neigh {
	struct hlist_node node;
	__be32 ip;
	u8 mac[ETH_ALEN];
	unsigned long updated;		/* jiffies */
};

static struct hlist_head *ethereal_neigh_head(struct ethereal_switch *sw, __be32 ip)
{
	return &sw->sig.neigh[hash_32((__force u32)ip, ETHEREAL_NEIGH_BITS)];
}

/* Under RCU (the packet path) or the lock. */
static struct ethereal_neigh *ethereal_neigh_find(struct ethereal_switch *sw, __be32 ip)
{
	struct ethereal_neigh *n;

	hlist_for_each_entry_rcu(n, ethereal_neigh_head(sw, ip), node,
				 lockdep_is_held(&sw->sig.neigh_lock))
		/* Acquire: a reused entry's MAC is written before its IP. */
		if (smp_load_acquire(&n->ip) == ip)
			return n;
	return NULL;
}

static bool ethereal_neigh_stale(const struct ethereal_neigh *n)
{
	return time_after_eq(jiffies, READ_ONCE(n->updated) + ETHEREAL_NEIGH_TTL);
}

/* A stale entry of IP's bucket, to take over. */
static struct ethereal_neigh *ethereal_neigh_reuse(struct ethereal_switch *sw, __be32 ip)
{
	struct ethereal_neigh *n;

	hlist_for_each_entry(n, ethereal_neigh_head(sw, ip), node)
		if (ethereal_neigh_stale(n))
			return n;
	return NULL;
}

static void ethereal_neigh_update(struct ethereal_switch *sw, __be32 ip, const u8 *mac)
{
	struct ethereal_neigh *n;
	bool wake = false;

	spin_lock_bh(&sw->sig.neigh_lock);
	/*
	 * Lockless readers (ethereal_neigh_snoop()) find entries by IP: an
	 * entry gets its IP, and a new one its place in the list, only once
	 * its MAC and time are written.
	 */
	n = ethereal_neigh_find(sw, ip);
	if (n) {
		ether_addr_copy(n->mac, mac);
		WRITE_ONCE(n->updated, jiffies);
	} else {
		n = ethereal_neigh_reuse(sw, ip);
		if (n) {
			ether_addr_copy(n->mac, mac);
			WRITE_ONCE(n->updated, jiffies);
			/* Pairs with the acquire in ethereal_neigh_find(). */
			smp_store_release(&n->ip, ip);
		} else if (sw->sig.n_neigh < ETHEREAL_NEIGH_MAX) {
			n = kmalloc(sizeof(*n), GFP_ATOMIC);
			if (n) {
				n->ip = ip;
				ether_addr_copy(n->mac, mac);
				n->updated = jiffies;
				hlist_add_head_rcu(&n->node, ethereal_neigh_head(sw, ip));
				sw->sig.n_neigh++;
			}
		}
	}
	if (n)
		wake = READ_ONCE(sw->sig.n_waiting);
	spin_unlock_bh(&sw->sig.neigh_lock);
	/* A setup may be waiting for this answer. */
	if (wake)
		mod_delayed_work(system_wq, &sw->sig.work, 0);
}

/* Packet path, ARP frames only: learn the sender's address. */
void ethereal_neigh_snoop(struct ethereal_port *port, struct sk_buff *skb)
{
	const struct ethereal_neigh *n;
	const struct arphdr *arp;
	const u8 *sha;
	__be32 sip;

	if (!pskb_may_pull(skb, sizeof(*arp) + 2 * (ETH_ALEN + 4)))
		return;
	arp = arp_hdr(skb);
	if (arp->ar_hrd != htons(ARPHRD_ETHER) || arp->ar_pro != htons(ETH_P_IP) ||
	    arp->ar_hln != ETH_ALEN || arp->ar_pln != 4 ||
	    (arp->ar_op != htons(ARPOP_REQUEST) && arp->ar_op != htons(ARPOP_REPLY)))
		return;
	sha = (const u8 *)(arp + 1);
	memcpy(&sip, sha + ETH_ALEN, 4);
	/* Probes (0.0.0.0) say nothing of the sender; neither do odd MACs. */
	if (!sip || ipv4_is_multicast(sip) || ipv4_is_lbcast(sip) ||
	    !is_valid_ether_addr(sha) || READ_ONCE(port->sw->sig.dead))
		return;
	/* Known and fresh: nothing to write. A torn read only costs the lock. */
	n = ethereal_neigh_find(port->sw, sip);
	if (n && ether_addr_equal(n->mac, sha) &&
	    time_before(jiffies, READ_ONCE(n->updated) + HZ)) {
		/* The answer a waiting setup asked for, or a repeat of it. */
		if (READ_ONCE(port->sw->sig.n_waiting))
			mod_delayed_work(system_wq, &port->sw->sig.work, 0);
		return;
	}
	ethereal_neigh_update(port->sw, sip, sha);
}

bool ethereal_neigh_lookup(struct ethereal_switch *sw, __be32 ip, u8 *mac)
{
	struct ethereal_neigh *n;
	bool found = false;

	spin_lock_bh(&sw->sig.neigh_lock);
	n = ethereal_neigh_find(sw, ip);
	if (n && !ethereal_neigh_stale(n)) {
		ether_addr_copy(mac, n->mac);
		found = true;
	}
	spin_unlock_bh(&sw->sig.neigh_lock);
	return found;
}

/* Ask every other forwarding port who has IP; RTNL held. */
void ethereal_neigh_probe(struct ethereal_switch *sw, __be32 ip,
			  const struct ethereal_port *except)
{
	struct ethereal_port *port;
	struct sk_buff *skb;

	ASSERT_RTNL();
	list_for_each_entry(port, &sw->ports, node) {
		if (port == except || READ_ONCE(port->stp_state) != BR_STATE_FORWARDING ||
		    !netif_running(port->dev) || !netif_carrier_ok(port->dev))
			continue;
		skb = arp_create(ARPOP_REQUEST, ETH_P_ARP, ip, port->dev, 0, NULL,
				 port->dev->dev_addr, NULL);
		if (!skb)
			continue;
		skb->priority = ETHEREAL_TC_CONTROL;
		dev_queue_xmit(skb);
	}
}

void ethereal_neigh_flush(struct ethereal_switch *sw)
{
	struct ethereal_neigh *n;
	struct hlist_node *tmp;
	int i;

	spin_lock_bh(&sw->sig.neigh_lock);
	for (i = 0; i < ARRAY_SIZE(sw->sig.neigh); i++) {
		hlist_for_each_entry_safe(n, tmp, &sw->sig.neigh[i], node) {
			hlist_del(&n->node);
			kfree(n);
		}
	}
	sw->sig.n_neigh = 0;
	spin_unlock_bh(&sw->sig.neigh_lock);
}
