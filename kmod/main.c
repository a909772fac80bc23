// SPDX-License-Identifier: GPL-2.0
/*
 * EtheReal: a real-time Ethernet switch on the Linux bridge.
 *
 * Module entry points and per-network-namespace state: bridges in different
 * namespaces are different switches.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netns/generic.h>

#include <linux/ethereal.h>

#include "main.h"
#include "netlink.h"
#include "sch_ethereal_port.h"
#include "switch.h"

atomic_t ethereal_live[ETHEREAL_N_OBJ];

static unsigned int ethereal_net_id __read_mostly;

struct ethereal_net *ethereal_pernet(struct net *net)
{
	return net_generic(net, ethereal_net_id);
}

static int __net_init ethereal_net_init(struct net *net)
{
	INIT_LIST_HEAD(&ethereal_pernet(net)->switches);
	return 0;
}

/* Namespace going away, or module unloading: detach what is left. */
static void __net_exit ethereal_net_exit(struct net *net)
{
	struct ethereal_switch *sw, *tmp;

	rtnl_lock();
	list_for_each_entry_safe(sw, tmp, &ethereal_pernet(net)->switches, node)
		ethereal_switch_detach(sw);
	rtnl_unlock();
}

static struct pernet_operations ethereal_net_ops = {
	.init = ethereal_net_init,
	.exit = ethereal_net_exit,
	.id = &ethereal_net_id,
	.size = sizeof(struct ethereal_net),
};

/*
 * The first netdev ingress hook anywhere enables two static keys, the last
 * one removed disables them, and each flip patches kernel text on every
 * CPU. Holding them while the module is loaded keeps attach and detach from
 * patching text on a switch that is forwarding.
 */
static void ethereal_ingress_keys_hold(void)
{
#ifdef CONFIG_JUMP_LABEL
	static_key_slow_inc(&nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_INGRESS]);
#endif
	net_inc_ingress_queue();
}

static void ethereal_ingress_keys_release(void)
{
	net_dec_ingress_queue();
#ifdef CONFIG_JUMP_LABEL
	static_key_slow_dec(&nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_INGRESS]);
#endif
}

static void ethereal_check_leaks(void)
{
	static const char * const names[ETHEREAL_N_OBJ] = {
		"switches", "ports", "connections"
	};
	int i, n;

	for (i = 0; i < ETHEREAL_N_OBJ; i++) {
		n = atomic_read(&ethereal_live[i]);
		if (n)
			pr_err("leak: %d %s still allocated at unload\n", n, names[i]);
	}
}

static int __init ethereal_init(void)
{
	int err;

	ethereal_ingress_keys_hold();
	err = register_pernet_subsys(&ethereal_net_ops);
	if (err)
		goto err_keys;
	err = ethereal_notifiers_register();
	if (err)
		goto err_pernet;
	err = ethereal_sched_register();
	if (err)
		goto err_notifiers;
	err = ethereal_genl_register();
	if (err)
		goto err_sched;
	pr_info("loaded\n");
	return 0;

err_sched:
	ethereal_sched_unregister();
err_notifiers:
	ethereal_notifiers_unregister();
err_pernet:
	unregister_pernet_subsys(&ethereal_net_ops);
err_keys:
	ethereal_ingress_keys_release();
	return err;
}

static void __exit ethereal_exit(void)
{
	ethereal_genl_unregister();
	/* No qdisc of ours is left: each holds a reference on the module. */
	ethereal_sched_unregister();
	/*
	 * Notifiers before the per-net state they read: unregistering the
	 * netdevice notifier replays NETDEV_UNREGISTER for every device,
	 * which detaches every switch already.
	 */
	ethereal_notifiers_unregister();
	unregister_pernet_subsys(&ethereal_net_ops);
	ethereal_ingress_keys_release();
	/* RCU callbacks free our objects and run module code. */
	rcu_barrier();
	ethereal_check_leaks();
	pr_info("unloaded\n");
}

module_init(ethereal_init);
module_exit(ethereal_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("EtheReal real-time Ethernet switch on the Linux bridge");
MODULE_ALIAS_GENL_FAMILY(ETHEREAL_GENL_NAME);
/* tc's request for the qdisc: "net-sch-ethereal" since 6.9, before that
 * "sch_ethereal".
 */
MODULE_ALIAS("net-sch-ethereal");
MODULE_ALIAS("sch_ethereal");
