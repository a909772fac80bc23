/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EtheReal: switches and their ports (switch.c).
 *
 * Locking: configuration (switches, ports, connections) changes under RTNL,
 * which also serializes it with the bridge and the qdisc, and under the
 * switch's own mutex, sw->lock (taken inside RTNL). The mutex guards what
 * signaling reads and changes: the port list, roles, the trunks' other
 * ends and keys, connections and their signaling state, the switch's
 * deadlines and setups in progress. Signaling takes RTNL only for what
 * changes connections or routes a setup (the bridge's FDB and VLAN lookups
 * need RTNL); refreshes, hellos and PROCEEDINGs, the bulk of its traffic,
 * it handles under sw->lock alone (signal.c). Either lock suffices to read.
 * The packet path reads under RCU only: port state through its netfilter
 * hook's private pointer, connections through XArray loads. Objects are
 * freed after a grace period.
 */
#ifndef _ETHEREAL_SWITCH_H
#define _ETHEREAL_SWITCH_H

#include <linux/bits.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/netfilter.h>
#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "discard.h"
#include "signaling.h"
#include "stats.h"

struct ethereal_switch {
	struct list_head node;		/* in ethereal_net.switches */
	struct net_device *br;
	netdevice_tracker br_tracker;
	struct mutex lock;		/* see above */
	struct list_head ports;
	unsigned int n_ports;
	unsigned int n_conns;
	struct ethereal_sig sig;
	struct rcu_head rcu;
};

struct ethereal_sched;

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
	/* Delay bounds of the connections leaving here (bound.h, admit.c). */
	u64 dl_paced;			/* bytes: their B_j together */
	u64 dl_cyclic;			/* bytes: their V_j together */
	u64 dl_floor;			/* ns: the least budget promised, U64_MAX */
	u32 host_conns;			/* signaled ones a host may have here, 0 any */
	u64 host_rate;			/* bit/s they may reserve together, 0 any */
	/*
	 * A trunk's other end, learned from its hellos (sw->lock): the only
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
	unsigned int sig_pending;	/* its setups in progress, sw->lock */
	unsigned int n_neigh;		/* addresses learned here, neigh_lock */
	struct list_head neigh_list;	/* them, oldest first, neigh_lock */
	bool neigh_gone;		/* leaving: learn nothing more, neigh_lock */
	struct ethereal_stats __percpu *stats;
	struct rcu_head rcu;
};

static inline void ethereal_switch_lock(struct ethereal_switch *sw)
{
	mutex_lock(&sw->lock);
}

static inline void ethereal_switch_unlock(struct ethereal_switch *sw)
{
	mutex_unlock(&sw->lock);
}

/* What changes a switch, its ports or connections holds both. */
static inline void ethereal_assert_config(const struct ethereal_switch *sw)
{
	ASSERT_RTNL();
	lockdep_assert_held(&sw->lock);
}

struct ethereal_switch *ethereal_switch_find(struct net *net,
					     const struct net_device *br);
struct ethereal_port *ethereal_port_find(struct net *net,
					 const struct net_device *dev);
int ethereal_switch_attach(struct net *net, struct net_device *br,
			   struct netlink_ext_ack *extack);
void ethereal_switch_detach(struct ethereal_switch *sw);
void ethereal_switch_changed(struct ethereal_switch *sw);
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
int ethereal_notifiers_register(void);
void ethereal_notifiers_unregister(void);

#endif /* _ETHEREAL_SWITCH_H */
