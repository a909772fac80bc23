// SPDX-License-Identifier: GPL-2.0
/*
 * Switches and their ports: attaching a bridge, following its ports as they
 * come and go, and caching their STP state for the packet path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/if_bridge.h>
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/switchdev.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "conn.h"
#include "main.h"
#include "neigh.h"
#include "receive.h"
#include "sch_ethereal_port.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

struct ethereal_switch *ethereal_switch_find(struct net *net,
					     const struct net_device *br)
{
	struct ethereal_switch *sw;

	ASSERT_RTNL();
	list_for_each_entry(sw, &ethereal_pernet(net)->switches, node)
		if (sw->br == br)
			return sw;
	return NULL;
}

/*
 * By scanning rather than through the device's master: while a port is
 * being removed from its bridge, the upper link may already be gone.
 */
struct ethereal_port *ethereal_port_find(struct net *net,
					 const struct net_device *dev)
{
	struct ethereal_switch *sw;
	struct ethereal_port *port;

	ASSERT_RTNL();
	list_for_each_entry(sw, &ethereal_pernet(net)->switches, node)
		list_for_each_entry(port, &sw->ports, node)
			if (port->dev == dev)
				return port;
	return NULL;
}

/* What the device says its speed is, in bit/s; 0 when it does not know. */
u64 ethereal_dev_speed(const struct net_device *dev)
{
	struct ethtool_link_ksettings ks;

	ASSERT_RTNL();
	if (__ethtool_get_link_ksettings((struct net_device *)dev, &ks) ||
	    ks.base.speed == SPEED_UNKNOWN || !ks.base.speed)
		return 0;
	return min_t(u64, (u64)ks.base.speed * 1000000, ETHEREAL_RATE_MAX);
}

/*
 * The VLAN of the frames a port's host sends untagged: the port's PVID on
 * a VLAN-filtering bridge, where the FDB learns them there; else 0.
 */
u16 ethereal_port_vid(const struct ethereal_port *port)
{
	u16 pvid;

	ASSERT_RTNL();
	if (!br_vlan_enabled(port->sw->br) || br_vlan_get_pvid(port->dev, &pvid))
		return 0;
	return pvid;
}

/* Whether PORT carries VLAN VID (0: no VLAN filtering, any port does). */
bool ethereal_port_in_vlan(const struct ethereal_port *port, u16 vid)
{
	struct bridge_vlan_info info;

	ASSERT_RTNL();
	return !vid || !br_vlan_get_info(port->dev, vid, &info);
}

/*
 * Whether the bridge would forward VID from IN to OUT (should_deliver and
 * br_allowed_egress): isolated ports never to each other, and with VLAN
 * filtering only within a VLAN both carry. At setup; the packet path
 * checks again, as the configuration may change under a connection.
 */
bool ethereal_port_may_forward(const struct ethereal_port *in,
			       const struct ethereal_port *out, u16 vid)
{
	ASSERT_RTNL();
	if (br_port_flag_is_set(in->dev, BR_ISOLATED) &&
	    br_port_flag_is_set(out->dev, BR_ISOLATED))
		return false;
	return ethereal_port_in_vlan(in, vid) && ethereal_port_in_vlan(out, vid);
}

/*
 * The bridge's rules for a real-time frame from IN to OUT, on the packet
 * path: what it checks for every frame it forwards (br_allowed_ingress,
 * should_deliver, br_allowed_egress). With VLAN filtering, the frame's
 * VLAN is its tag's, else (untagged or priority-tagged) IN's PVID, and both
 * ports must carry it; a tag of another protocol than the bridge's is
 * refused (the bridge would take it for payload). Per-VLAN STP states
 * (MST) are not looked at. Returns < 0 when the frame must not pass, else
 * how OUT sends it (for ethereal_port_tx_vlan): 0 as it came (no VLAN
 * filtering), the VLAN's ID tagged, ETHEREAL_VLAN_UNTAG | ID untagged.
 */
int ethereal_port_rx_vlan(const struct ethereal_port *in,
			  const struct ethereal_port *out,
			  const struct sk_buff *skb)
{
	struct bridge_vlan_info info;
	u16 vid = 0, proto;

	if (unlikely(br_port_flag_is_set(in->dev, BR_ISOLATED) &&
		     br_port_flag_is_set(out->dev, BR_ISOLATED)))
		return -EPERM;
	if (!br_vlan_enabled(in->sw->br))
		return 0;
	if (skb_vlan_tag_present(skb)) {
		if (br_vlan_get_proto(in->sw->br, &proto) || skb->vlan_proto != htons(proto))
			return -EPERM;
		vid = skb_vlan_tag_get_id(skb);
	}
	if (!vid && br_vlan_get_pvid_rcu(in->dev, &vid))
		return -EPERM;
	if (!vid || br_vlan_get_info_rcu(in->dev, vid, &info) ||
	    br_vlan_get_info_rcu(out->dev, vid, &info))
		return -EPERM;
	return info.flags & BRIDGE_VLAN_INFO_UNTAGGED ? ETHEREAL_VLAN_UNTAG | vid : vid;
}

/*
 * Send in VLAN (what ethereal_port_rx_vlan returned) as OUT does
 * (br_handle_vlan): untagged, or tagged with the VLAN's ID and the frame's
 * own priority, if it had a tag.
 */
void ethereal_port_tx_vlan(const struct ethereal_port *out,
			   struct sk_buff *skb, int vlan)
{
	u16 proto, tci = 0;

	if (!vlan)
		return;
	if (vlan & ETHEREAL_VLAN_UNTAG) {
		__vlan_hwaccel_clear_tag(skb);
		return;
	}
	if (br_vlan_get_proto(out->sw->br, &proto))
		return;
	if (skb_vlan_tag_present(skb))
		tci = skb->vlan_tci & ~VLAN_VID_MASK;
	__vlan_hwaccel_put_tag(skb, htons(proto), tci | (vlan & VLAN_VID_MASK));
}

/* The port's link rate: its qdisc's when it has ours, else the device's. */
u64 ethereal_port_rate(const struct ethereal_port *port)
{
	return ethereal_sched_rate(port) ?: ethereal_dev_speed(port->dev);
}

/*
 * Control messages a port takes per 100 ms: a host's own setups, or the
 * signaling of every host behind another switch.
 */
#define ETHEREAL_SIG_BURST_HOST		200
#define ETHEREAL_SIG_BURST_TRUNK	2000

void ethereal_port_set_role(struct ethereal_port *port, u8 role)
{
	bool changed = port->role != role;

	ethereal_assert_config(port->sw);
	WRITE_ONCE(port->role, role);
	/* Read locklessly by __ratelimit(); a stale value for a moment is fine. */
	WRITE_ONCE(port->sig_rl.burst, role == ETHEREAL_PORT_TRUNK ?
		   ETHEREAL_SIG_BURST_TRUNK : ETHEREAL_SIG_BURST_HOST);
	if (changed)
		ethereal_sig_forget_link_switch(port);
}

int ethereal_port_add(struct ethereal_switch *sw, struct net_device *dev)
{
	struct ethereal_port *port;
	int err;

	ethereal_assert_config(sw);
	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->stats = ethereal_stats_alloc();
	if (!port->stats) {
		kfree(port);
		return -ENOMEM;
	}
	port->sw = sw;
	port->dev = dev;
	port->stp_state = br_port_get_stp_state(dev);
	xa_init(&port->in_conns);
	xa_init_flags(&port->out_conns, XA_FLAGS_ALLOC);
	port->out_next = ETHEREAL_ID_MIN;
	port->out_freed = get_state_synchronize_rcu();
	port->dl_floor = U64_MAX;
	skb_queue_head_init(&port->sig_rxq);
	INIT_LIST_HEAD(&port->neigh_list);
	ratelimit_state_init(&port->sig_rl, HZ / 10, 1);
	ratelimit_set_flags(&port->sig_rl, RATELIMIT_MSG_ON_RELEASE);
	ethereal_port_set_role(port, ETHEREAL_PORT_PERIPHERAL);

	port->hook.hook = ethereal_ingress;
	port->hook.pf = NFPROTO_NETDEV;
	port->hook.hooknum = NF_NETDEV_INGRESS;
	port->hook.dev = dev;
	port->hook.priv = port;
	err = nf_register_net_hook(dev_net(dev), &port->hook);
	if (err) {
		free_percpu(port->stats);
		kfree(port);
		return err;
	}
	netdev_hold(dev, &port->dev_tracker, GFP_KERNEL);
	list_add_tail(&port->node, &sw->ports);
	sw->n_ports++;
	ethereal_switch_changed(sw);
	atomic_inc(&ethereal_live[ETHEREAL_OBJ_PORT]);
	ethereal_sched_bind(port);
	return 0;
}

static void ethereal_port_free_rcu(struct rcu_head *head)
{
	struct ethereal_port *port = container_of(head, struct ethereal_port, rcu);

	/* What the hook queued until it was unregistered and had run. */
	skb_queue_purge(&port->sig_rxq);
	netdev_put(port->dev, &port->dev_tracker);
	free_percpu(port->stats);
	kfree(port);
	atomic_dec(&ethereal_live[ETHEREAL_OBJ_PORT]);
}

void ethereal_port_remove(struct ethereal_port *port)
{
	struct ethereal_switch *sw = port->sw;

	ethereal_assert_config(sw);
	/* Tell the other switches and hosts about the signaled ones first. */
	ethereal_sig_port_down(port, ETHEREAL_SIG_R_REMOVED);
	ethereal_port_flush_conns(port);
	/*
	 * Here, not in the RCU callback: xa_destroy() takes the xarrays' lock,
	 * which process context takes with softirqs on (lockdep's "inconsistent
	 * lock state"). Readers still walking them are safe: emptied above,
	 * and the xarray frees its nodes after a grace period.
	 */
	xa_destroy(&port->in_conns);
	xa_destroy(&port->out_conns);
	ethereal_sched_unbind(port);
	ethereal_neigh_port_gone(port);
	ethereal_port_free_key(port);
	/*
	 * Unregistering does not wait for hooks already running, and a
	 * connection just erased may still be in use on another port: free
	 * after a grace period, which covers both.
	 */
	nf_unregister_net_hook(dev_net(port->dev), &port->hook);
	list_del(&port->node);
	sw->n_ports--;
	ethereal_switch_changed(sw);
	call_rcu(&port->rcu, ethereal_port_free_rcu);
}

int ethereal_switch_attach(struct net *net, struct net_device *br,
			   struct netlink_ext_ack *extack)
{
	struct ethereal_switch *sw;
	struct net_device *dev;
	struct list_head *iter;
	int err;

	ASSERT_RTNL();
	if (!netif_is_bridge_master(br)) {
		NL_SET_ERR_MSG(extack, "Device is not a bridge");
		return -EINVAL;
	}
	if (ethereal_switch_find(net, br)) {
		NL_SET_ERR_MSG(extack, "Bridge is already an EtheReal switch");
		return -EEXIST;
	}
	sw = kzalloc(sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	INIT_LIST_HEAD(&sw->ports);
	ethereal_sig_init(sw);
	sw->br = br;
	netdev_hold(br, &sw->br_tracker, GFP_KERNEL);
	list_add_tail(&sw->node, &ethereal_pernet(net)->switches);
	ethereal_switch_changed(sw);
	atomic_inc(&ethereal_live[ETHEREAL_OBJ_SWITCH]);

	ethereal_switch_lock(sw);
	netdev_for_each_lower_dev(br, dev, iter) {
		err = ethereal_port_add(sw, dev);
		if (err) {
			ethereal_switch_unlock(sw);
			NL_SET_ERR_MSG(extack, "Cannot attach to a port of the bridge");
			ethereal_switch_detach(sw);
			return err;
		}
	}
	ethereal_switch_unlock(sw);
	netdev_info(br, "attached as EtheReal switch, %u ports\n", sw->n_ports);
	return 0;
}

/* For dumps: something of SW's changed. A bridge never changes netns. */
void ethereal_switch_changed(struct ethereal_switch *sw)
{
	ASSERT_RTNL();
	ethereal_pernet(dev_net(sw->br))->gen++;
}

static void ethereal_switch_free_rcu(struct rcu_head *head)
{
	struct ethereal_switch *sw = container_of(head, struct ethereal_switch, rcu);

	netdev_put(sw->br, &sw->br_tracker);
	mutex_destroy(&sw->lock);
	kfree(sw);
	atomic_dec(&ethereal_live[ETHEREAL_OBJ_SWITCH]);
}

void ethereal_switch_detach(struct ethereal_switch *sw)
{
	struct ethereal_port *port, *tmp;

	ASSERT_RTNL();
	ethereal_sig_stop(sw);
	ethereal_switch_lock(sw);
	list_for_each_entry_safe(port, tmp, &sw->ports, node)
		ethereal_port_remove(port);
	ethereal_switch_unlock(sw);
	list_del(&sw->node);
	ethereal_switch_changed(sw);
	netdev_info(sw->br, "detached\n");
	/* Hooks still running on its ports may read it (port->sw). */
	call_rcu(&sw->rcu, ethereal_switch_free_rcu);
}

static int ethereal_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *info;
	struct net *net = dev_net(dev);
	struct ethereal_switch *sw;
	struct ethereal_port *port;
	int err;

	switch (event) {
	case NETDEV_CHANGEUPPER:
		info = ptr;
		sw = ethereal_switch_find(net, info->upper_dev);
		if (!sw)
			break;
		port = ethereal_port_find(net, dev);
		ethereal_switch_lock(sw);
		if (info->linking && !port) {
			/* Refuse the port rather than leave it without a hook. */
			err = ethereal_port_add(sw, dev);
			ethereal_switch_unlock(sw);
			if (err)
				return notifier_from_errno(err);
			break;
		}
		if (!info->linking && port)
			ethereal_port_remove(port);
		ethereal_switch_unlock(sw);
		break;
	case NETDEV_CHANGEMTU:
		/*
		 * Refused while connections' delay bounds rest on the MTU: the
		 * core sets the old MTU back (PRECHANGEMTU does not say the new one).
		 */
		port = ethereal_port_find(net, dev);
		if (port) {
			err = ethereal_sched_mtu_fits(port, READ_ONCE(dev->mtu));
			if (err) {
				netdev_warn(dev,
					    "MTU change refused: its connections' delay bounds or queues rest on it\n");
				return notifier_from_errno(err);
			}
		}
		break;
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		/* Link down: the paper tears its connections down. */
		port = ethereal_port_find(net, dev);
		if (port && (event == NETDEV_DOWN || !netif_carrier_ok(dev))) {
			ethereal_switch_lock(port->sw);
			ethereal_sig_port_down(port, ETHEREAL_SIG_R_LINK_DOWN);
			ethereal_switch_unlock(port->sw);
		}
		break;
	case NETDEV_UNREGISTER:
		sw = ethereal_switch_find(net, dev);
		if (sw)
			ethereal_switch_detach(sw);
		port = ethereal_port_find(net, dev);
		if (port) {
			sw = port->sw;
			ethereal_switch_lock(sw);
			ethereal_port_remove(port);
			ethereal_switch_unlock(sw);
		}
		break;
	}
	return NOTIFY_DONE;
}

/*
 * The bridge announces STP state changes to switchdev drivers, deferred to
 * process context under RTNL. br_port_get_stp_state() needs RTNL, so the
 * packet path reads the state cached here instead.
 */
static int ethereal_switchdev_event(struct notifier_block *nb,
				    unsigned long event, void *ptr)
{
	struct net_device *dev = switchdev_notifier_info_to_dev(ptr);
	struct switchdev_notifier_port_attr_info *info = ptr;
	struct ethereal_port *port;

	if (event != SWITCHDEV_PORT_ATTR_SET ||
	    info->attr->id != SWITCHDEV_ATTR_ID_PORT_STP_STATE)
		return NOTIFY_DONE;
	ASSERT_RTNL();
	port = ethereal_port_find(dev_net(dev), dev);
	if (port)
		WRITE_ONCE(port->stp_state, info->attr->u.stp_state);
	return NOTIFY_DONE;
}

static struct notifier_block ethereal_netdev_nb = {
	.notifier_call = ethereal_netdev_event,
};

static struct notifier_block ethereal_switchdev_nb = {
	.notifier_call = ethereal_switchdev_event,
};

int ethereal_notifiers_register(void)
{
	int err;

	err = register_netdevice_notifier(&ethereal_netdev_nb);
	if (err)
		return err;
	err = register_switchdev_blocking_notifier(&ethereal_switchdev_nb);
	if (err)
		unregister_netdevice_notifier(&ethereal_netdev_nb);
	return err;
}

void ethereal_notifiers_unregister(void)
{
	unregister_switchdev_blocking_notifier(&ethereal_switchdev_nb);
	unregister_netdevice_notifier(&ethereal_netdev_nb);
}
