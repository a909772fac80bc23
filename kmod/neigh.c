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
 * until the switch detaches or their port goes; a stale one is reused for
 * a new address of its bucket, so that hosts that left do not keep new
 * ones out.
 *
 * Hostile hosts: the hash is keyed with a secret of the switch, so that no
 * one can choose addresses that share a bucket; each port may fill only
 * its share of the cache (a host's port a few entries, a trunk three
 * quarters), and what does not fit is counted as neigh_refused.
 *
 * An address learned on a host's port is bound to that port, as dynamic
 * ARP inspection binds it: while the binding is fresh and the port up, a
 * claim of it from any other port is refused and counted (neigh_claims),
 * and signaling trusts the binding, not the FDB, which any host can move
 * by sending one frame with another's MAC. The binding ends when the port
 * goes down or leaves, or when no ARP refreshed it for 5 minutes.
 *
 * The operator may bind an address statically (etherealctl neigh add), as
 * IP source guard's static bindings do: a static entry never ages, outlives
 * its port's link going down, and no ARP from another port or with another
 * MAC changes it (such claims count as neigh_claims).
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_bridge.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <net/arp.h>

#include <linux/ethereal.h>

#include "neigh.h"
#include "signaling.h"
#include "switch.h"

#define ETHEREAL_NEIGH_MAX	4096		/* addresses per switch */
#define ETHEREAL_NEIGH_HOST	16		/* ... learned on a host's port */
#define ETHEREAL_NEIGH_TRUNK	3072		/* ... on a trunk */
#define ETHEREAL_NEIGH_TTL	(300 * HZ)	/* as long as the FDB's ageing */

struct ethereal_neigh {
	struct hlist_node node;
	__be32 ip;
	u8 mac[ETH_ALEN];
	unsigned long updated;		/* jiffies */
	struct ethereal_port *port;	/* where it was learned; the lock */
	struct list_head plist;		/* in port->neigh_list, oldest first */
	bool is_static;			/* the operator's: never ages or moves */
	struct rcu_head rcu;
};

static struct hlist_head *ethereal_neigh_head(struct ethereal_switch *sw, __be32 ip)
{
	u32 h = jhash_1word((__force u32)ip, sw->sig.neigh_seed);

	return &sw->sig.neigh[h & (ARRAY_SIZE(sw->sig.neigh) - 1)];
}

/* Whether PORT may have one entry more: its share of the cache. */
static bool ethereal_neigh_room(const struct ethereal_port *port)
{
	return port->n_neigh < (READ_ONCE(port->role) == ETHEREAL_PORT_TRUNK ?
				ETHEREAL_NEIGH_TRUNK : ETHEREAL_NEIGH_HOST);
}

static bool ethereal_neigh_stale(const struct ethereal_neigh *n)
{
	return !READ_ONCE(n->is_static) &&
	       time_after_eq(jiffies, READ_ONCE(n->updated) + ETHEREAL_NEIGH_TTL);
}

/* Whether N's port holds it against claims from other ports. */
static bool ethereal_neigh_bound(const struct ethereal_neigh *n)
{
	return READ_ONCE(n->is_static) ||
	       (READ_ONCE(n->port->role) == ETHEREAL_PORT_PERIPHERAL &&
		!ethereal_neigh_stale(n) && netif_carrier_ok(n->port->dev));
}

/* N learned (again) on PORT: the newest of PORT's entries. */
static void ethereal_neigh_set_port(struct ethereal_neigh *n, struct ethereal_port *port)
{
	if (n->port == port) {
		list_move_tail(&n->plist, &port->neigh_list);
		return;
	}
	if (n->port) {
		list_del(&n->plist);
		n->port->n_neigh--;
	}
	n->port = port;
	list_add_tail(&n->plist, &port->neigh_list);
	port->n_neigh++;
}

/* N, new, into the cache for IP on PORT; filled in before readers find it. */
static void ethereal_neigh_insert(struct ethereal_port *port, struct ethereal_neigh *n,
				  __be32 ip, const u8 *mac, bool is_static)
{
	struct ethereal_switch *sw = port->sw;

	n->ip = ip;
	ether_addr_copy(n->mac, mac);
	n->updated = jiffies;
	n->is_static = is_static;
	n->port = NULL;
	ethereal_neigh_set_port(n, port);
	hlist_add_head_rcu(&n->node, ethereal_neigh_head(sw, ip));
	sw->sig.n_neigh++;
	WRITE_ONCE(sw->sig.neigh_gen, sw->sig.neigh_gen + 1);
}

/* Out of the cache; lockless readers may still hold it. */
static void ethereal_neigh_unlink(struct ethereal_switch *sw, struct ethereal_neigh *n)
{
	WRITE_ONCE(sw->sig.neigh_gen, sw->sig.neigh_gen + 1);
	hlist_del_rcu(&n->node);
	list_del(&n->plist);
	n->port->n_neigh--;
	sw->sig.n_neigh--;
	kfree_rcu(n, rcu);
}

/*
 * Whether PORT may have one entry more: within its share, or by giving up
 * its oldest learned entry if that is stale (its entries are in update
 * order; the operator's static ones, few, are passed over).
 */
static bool ethereal_neigh_make_room(struct ethereal_port *port)
{
	struct ethereal_neigh *old;

	if (ethereal_neigh_room(port))
		return true;
	list_for_each_entry(old, &port->neigh_list, plist) {
		if (old->is_static)
			continue;
		if (!ethereal_neigh_stale(old))
			return false;
		ethereal_neigh_unlink(port->sw, old);
		return true;
	}
	return false;
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

/* A stale entry of IP's bucket to take over for PORT: its own first. */
static struct ethereal_neigh *ethereal_neigh_reuse(struct ethereal_switch *sw, __be32 ip,
						   const struct ethereal_port *port)
{
	struct ethereal_neigh *n, *other = NULL;

	hlist_for_each_entry(n, ethereal_neigh_head(sw, ip), node)
		if (ethereal_neigh_stale(n)) {
			if (n->port == port)
				return n;
			other = other ?: n;
		}
	return other;
}

static void ethereal_neigh_update(struct ethereal_port *port, __be32 ip, const u8 *mac)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_neigh *n;
	bool wake = false;

	spin_lock_bh(&sw->sig.neigh_lock);
	/* The hook may still run while its port is being removed. */
	if (port->neigh_gone) {
		spin_unlock_bh(&sw->sig.neigh_lock);
		return;
	}
	/*
	 * Lockless readers (ethereal_neigh_snoop()) find entries by IP: an
	 * entry gets its IP, and a new one its place in the list, only once
	 * its MAC and time are written.
	 */
	n = ethereal_neigh_find(sw, ip);
	if (n) {
		/*
		 * Claimed from another port: refused while bound there; a
		 * static binding holds its MAC too.
		 */
		if ((n->port != port && ethereal_neigh_bound(n)) ||
		    (n->is_static && !ether_addr_equal(n->mac, mac))) {
			spin_unlock_bh(&sw->sig.neigh_lock);
			atomic_long_inc(&sw->sig.c[ETHEREAL_SIGC_NEIGH_CLAIMS]);
			return;
		}
		if (n->is_static)
			goto out;
		/* Moved to PORT: if PORT has room. */
		if (n->port != port && !ethereal_neigh_make_room(port))
			goto refused;
		ethereal_neigh_set_port(n, port);
		ether_addr_copy(n->mac, mac);
		WRITE_ONCE(n->updated, jiffies);
		goto out;
	}
	/* A stale entry of the bucket: PORT's own, or another's if PORT has room. */
	n = ethereal_neigh_reuse(sw, ip, port);
	if (n && n->port != port && !ethereal_neigh_make_room(port))
		goto refused;
	if (n) {
		ethereal_neigh_set_port(n, port);
		ether_addr_copy(n->mac, mac);
		WRITE_ONCE(n->updated, jiffies);
		/* Pairs with the acquire in ethereal_neigh_find(). */
		smp_store_release(&n->ip, ip);
		goto out;
	}
	if (!ethereal_neigh_make_room(port) || sw->sig.n_neigh >= ETHEREAL_NEIGH_MAX)
		goto refused;
	n = kmalloc(sizeof(*n), GFP_ATOMIC);
	if (!n)
		goto refused;
	ethereal_neigh_insert(port, n, ip, mac, false);
out:
	wake = READ_ONCE(sw->sig.n_waiting);
	spin_unlock_bh(&sw->sig.neigh_lock);
	/* A setup may be waiting for this answer. */
	if (wake)
		mod_delayed_work(system_wq, &sw->sig.work, 0);
	return;

refused:
	spin_unlock_bh(&sw->sig.neigh_lock);
	atomic_long_inc(&sw->sig.c[ETHEREAL_SIGC_NEIGH_REFUSED]);
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
	    (READ_ONCE(n->is_static) ? READ_ONCE(n->port) == port :
	     time_before(jiffies, READ_ONCE(n->updated) + HZ))) {
		/* The answer a waiting setup asked for, or a repeat of it. */
		if (READ_ONCE(port->sw->sig.n_waiting))
			mod_delayed_work(system_wq, &port->sw->sig.work, 0);
		return;
	}
	ethereal_neigh_update(port, sip, sha);
}

/*
 * IP's MAC, and the port it was learned on (PORT, if not NULL; RTNL or the
 * switch's lock held, either of which keeps the port). False if unknown or
 * stale.
 */
bool ethereal_neigh_lookup(struct ethereal_switch *sw, __be32 ip, u8 *mac,
			   struct ethereal_port **port)
{
	struct ethereal_neigh *n;
	bool found = false;

	spin_lock_bh(&sw->sig.neigh_lock);
	n = ethereal_neigh_find(sw, ip);
	if (n && !ethereal_neigh_stale(n)) {
		ether_addr_copy(mac, n->mac);
		if (port)
			*port = n->port;
		found = true;
	}
	spin_unlock_bh(&sw->sig.neigh_lock);
	return found;
}

/* PORT's link went down: its hosts' bindings end (a host may move). */
void ethereal_neigh_port_down(struct ethereal_port *port)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_neigh *n;

	spin_lock_bh(&sw->sig.neigh_lock);
	list_for_each_entry(n, &port->neigh_list, plist)
		if (!n->is_static)
			WRITE_ONCE(n->updated, jiffies - ETHEREAL_NEIGH_TTL);
	spin_unlock_bh(&sw->sig.neigh_lock);
}

/*
 * The operator binds IP and MAC to PORT (RTNL held): a learned entry of IP
 * becomes static there, wherever it was learned. Refused if IP is bound
 * statically to another port.
 */
int ethereal_neigh_add(struct ethereal_port *port, __be32 ip, const u8 *mac,
		       struct netlink_ext_ack *extack)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_neigh *n, *new;
	int err = 0;

	ASSERT_RTNL();
	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	spin_lock_bh(&sw->sig.neigh_lock);
	n = ethereal_neigh_find(sw, ip);
	if (n && n->is_static && n->port != port) {
		NL_SET_ERR_MSG(extack, "The address is bound statically to another port");
		err = -EEXIST;
		goto out;
	}
	if (!n && sw->sig.n_neigh >= ETHEREAL_NEIGH_MAX) {
		NL_SET_ERR_MSG(extack, "The switch's neighbour table is full");
		err = -ENOSPC;
		goto out;
	}
	if (!n) {
		ethereal_neigh_insert(port, new, ip, mac, true);
		new = NULL;
		goto out;
	}
	/* Lockless readers may see the MAC change, as when a host moves. */
	ether_addr_copy(n->mac, mac);
	WRITE_ONCE(n->updated, jiffies);
	WRITE_ONCE(n->is_static, true);
	ethereal_neigh_set_port(n, port);
out:
	spin_unlock_bh(&sw->sig.neigh_lock);
	kfree(new);
	/* A setup may be waiting for this address. */
	if (!err && READ_ONCE(sw->sig.n_waiting))
		mod_delayed_work(system_wq, &sw->sig.work, 0);
	return err;
}

/* The operator removes IP's entry on PORT, static or learned; RTNL held. */
int ethereal_neigh_remove(struct ethereal_port *port, __be32 ip,
			  struct netlink_ext_ack *extack)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_neigh *n;
	int err = 0;

	ASSERT_RTNL();
	spin_lock_bh(&sw->sig.neigh_lock);
	n = ethereal_neigh_find(sw, ip);
	if (n && n->port == port) {
		ethereal_neigh_unlink(sw, n);
	} else {
		NL_SET_ERR_MSG(extack, "No entry for this address on the port");
		err = -ENOENT;
	}
	spin_unlock_bh(&sw->sig.neigh_lock);
	return err;
}

/*
 * FILL each entry of SW (PORT's only, if not NULL) from hash bucket
 * *BUCKET, position *POS in it, on: where the next call starts (a netlink
 * dump's resumption). Refreshes do not reorder the chains; an entry added
 * or removed does, and bumps neigh_gen for the dump's consistency check.
 * Stops at FILL's first error and returns it. FILL runs under the table's
 * lock, BHs off.
 */
int ethereal_neigh_walk(struct ethereal_switch *sw, const struct ethereal_port *port,
			long *bucket, long *pos,
			int (*fill)(void *arg, const struct ethereal_neigh_info *ni),
			void *arg)
{
	struct ethereal_neigh_info ni;
	struct ethereal_neigh *n;
	int err = 0;
	long i;

	spin_lock_bh(&sw->sig.neigh_lock);
	for (; *bucket < ARRAY_SIZE(sw->sig.neigh); (*bucket)++, *pos = 0) {
		i = 0;
		hlist_for_each_entry(n, &sw->sig.neigh[*bucket], node) {
			if (i++ < *pos)
				continue;
			if (!port || n->port == port) {
				ni.port = n->port;
				ni.ip = n->ip;
				ether_addr_copy(ni.mac, n->mac);
				ni.is_static = n->is_static;
				ni.bound = ethereal_neigh_bound(n);
				ni.age_ms = jiffies_to_msecs(jiffies - n->updated);
				err = fill(arg, &ni);
				if (err)
					goto out;
			}
			*pos = i;
		}
	}
out:
	spin_unlock_bh(&sw->sig.neigh_lock);
	return err;
}

/*
 * Ask every forwarding port who has IP; RTNL held. The port of the setup
 * too: the setups waiting for one address share one prober (sigsetup.c),
 * which may have come in where the receiver is.
 */
void ethereal_neigh_probe(struct ethereal_switch *sw, __be32 ip)
{
	struct ethereal_port *port;
	struct sk_buff *skb;

	ASSERT_RTNL();
	list_for_each_entry(port, &sw->ports, node) {
		if (READ_ONCE(port->stp_state) != BR_STATE_FORWARDING ||
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

/* PORT goes: so do the addresses learned on it. */
void ethereal_neigh_port_gone(struct ethereal_port *port)
{
	struct ethereal_switch *sw = port->sw;
	struct ethereal_neigh *n, *tmp;

	spin_lock_bh(&sw->sig.neigh_lock);
	port->neigh_gone = true;
	list_for_each_entry_safe(n, tmp, &port->neigh_list, plist)
		ethereal_neigh_unlink(sw, n);
	spin_unlock_bh(&sw->sig.neigh_lock);
}

void ethereal_neigh_flush(struct ethereal_switch *sw)
{
	struct ethereal_neigh *n;
	struct hlist_node *tmp;
	int i;

	spin_lock_bh(&sw->sig.neigh_lock);
	for (i = 0; i < ARRAY_SIZE(sw->sig.neigh); i++) {
		hlist_for_each_entry_safe(n, tmp, &sw->sig.neigh[i], node) {
			list_del(&n->plist);
			n->port->n_neigh--;
			hlist_del(&n->node);
			kfree(n);
		}
	}
	sw->sig.n_neigh = 0;
	spin_unlock_bh(&sw->sig.neigh_lock);
}
