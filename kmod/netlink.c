// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "ethereal": configuration and counters.
 * Documentation/netlink.md describes the messages. This file is the family:
 * its policy, operations and registration, the lookups, replies, dumps and
 * events its objects share; the objects are netlink_switch.c, netlink_port.c,
 * netlink_conn.c and netlink_neigh.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ethereal.h>

#include "compat.h"
#include "main.h"
#include "netlink.h"
#include "nl.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

static struct genl_family ethereal_genl_family;

/* The family's multicast groups, by offset. */
enum ethereal_mcgrp {
	ETHEREAL_MCGRP_MONITOR,
};

static const struct genl_multicast_group ethereal_genl_mcgrps[] = {
	/* Open to all, as reading is: GETs show as much. */
	[ETHEREAL_MCGRP_MONITOR] = { .name = ETHEREAL_GENL_MCGRP_MONITOR },
};

/* Events are sent while this is set: cleared, under RTNL, before unregistering. */
static bool ethereal_nl_events;

/* Not const: the 6.1 policy macros take a non-const pointer. */
static struct netlink_range_validation ethereal_nl_lifetime_range __ro_after_init = {
	.min = ETHEREAL_LIFETIME_MIN_MS,
	.max = ETHEREAL_LIFETIME_MAX_MS,
};

/* Connections' and the qdisc's (sch_ethereal_config.c) rates. */
struct netlink_range_validation ethereal_rate_range __ro_after_init = {
	.min = ETHEREAL_RATE_MIN,
	.max = ETHEREAL_RATE_MAX,
};

static const struct nla_policy ethereal_genl_policy[ETHEREAL_A_MAX + 1] = {
	[ETHEREAL_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_A_PORT] = NLA_POLICY_NESTED(ethereal_nl_port_policy),
	[ETHEREAL_A_CONN] = NLA_POLICY_NESTED(ethereal_nl_conn_policy),
	[ETHEREAL_A_NEIGH] = NLA_POLICY_NESTED(ethereal_nl_neigh_policy),
	[ETHEREAL_A_LIFETIME] = NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_nl_lifetime_range),
};

/* Lookups from request attributes; RTNL held. */

struct net_device *ethereal_nl_dev(struct net *net, const struct nlattr *attr,
				   struct netlink_ext_ack *extack)
{
	struct net_device *dev = __dev_get_by_index(net, nla_get_u32(attr));

	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "No such device");
		return ERR_PTR(-ENODEV);
	}
	return dev;
}

struct ethereal_switch *ethereal_nl_switch(struct net *net,
					   const struct nlattr *attr,
					   struct netlink_ext_ack *extack)
{
	struct ethereal_switch *sw;
	struct net_device *dev;

	dev = ethereal_nl_dev(net, attr, extack);
	if (IS_ERR(dev))
		return ERR_CAST(dev);
	sw = ethereal_switch_find(net, dev);
	if (!sw) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "Device is not an EtheReal switch");
		return ERR_PTR(-ENOENT);
	}
	return sw;
}

struct ethereal_port *ethereal_nl_port(struct net *net,
				       const struct nlattr *attr,
				       struct netlink_ext_ack *extack)
{
	struct ethereal_port *port;
	struct net_device *dev;

	dev = ethereal_nl_dev(net, attr, extack);
	if (IS_ERR(dev))
		return ERR_CAST(dev);
	port = ethereal_port_find(net, dev);
	if (!port) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "Device is not a port of an EtheReal switch");
		return ERR_PTR(-ENOENT);
	}
	return port;
}

/* Message building */

int ethereal_nl_put_stats(struct sk_buff *msg, int attr,
			  const u64 sum[ETHEREAL_N_COUNTERS])
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, attr);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ETHEREAL_N_COUNTERS; i++)
		if (nla_put_u64_64bit(msg, ETHEREAL_STATS_A_RX_PACKETS + i, sum[i],
				      ETHEREAL_STATS_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int ethereal_nl_reply(struct genl_info *info, u8 cmd,
		      ethereal_nl_fill_t fill, const void *obj)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ethereal_genl_family, 0, cmd);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = fill(msg, obj);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int ethereal_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			 u8 cmd, ethereal_nl_fill_t fill, const void *obj)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ethereal_genl_family, NLM_F_MULTI, cmd);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (fill(skb, obj)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Parse a nest the family policy has already validated. */
int ethereal_nl_nest(struct nlattr **tb, int max, struct nlattr *nest,
		     const struct nla_policy *policy, struct genl_info *info)
{
	return nla_parse_nested(tb, max, nest, policy, info->extack);
}

/* Dumps: their filter and walk (nl.h says what cb->args[] holds) */

/* Narrow F to the port ATTR names, which must be on F's switch if it has one. */
int ethereal_nl_dump_filter_port(struct netlink_callback *cb,
				 struct ethereal_nl_dump_filter *f, const struct nlattr *attr)
{
	f->port = ethereal_nl_port(sock_net(cb->skb->sk), attr, cb->extack);
	if (IS_ERR(f->port))
		return PTR_ERR(f->port);
	if (f->sw && f->port->sw != f->sw) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr, "The port is not on that bridge");
		return -EINVAL;
	}
	f->sw = f->port->sw;
	return 0;
}

int ethereal_nl_dump_filter(struct netlink_callback *cb,
			    struct ethereal_nl_dump_filter *f, bool conn)
{
	struct nlattr **attrs = ethereal_dump_attrs(cb);
	struct net *net = sock_net(cb->skb->sk);
	struct nlattr *tb[ETHEREAL_CONN_A_MAX + 1];
	struct nlattr *attr;
	int err;

	memset(f, 0, sizeof(*f));
	attr = attrs[ETHEREAL_A_IFINDEX];
	if (attr) {
		f->sw = ethereal_nl_switch(net, attr, cb->extack);
		if (IS_ERR(f->sw))
			return PTR_ERR(f->sw);
	}
	attr = attrs[ETHEREAL_A_CONN];
	if (conn && attr) {
		err = nla_parse_nested(tb, ETHEREAL_CONN_A_MAX, attr,
				       ethereal_nl_conn_policy, cb->extack);
		if (err)
			return err;
		if (tb[ETHEREAL_CONN_A_IN_IFINDEX])
			return ethereal_nl_dump_filter_port(cb, f, tb[ETHEREAL_CONN_A_IN_IFINDEX]);
	}
	return 0;
}

/*
 * A dump's walk over the ports F selects, from where the last batch
 * stopped; RTNL held. EACH dumps what it wants of a port, from and into
 * cb->args[2], and returns nonzero when the batch is full.
 */
void ethereal_nl_dump_ports(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct ethereal_nl_dump_filter *f, ethereal_nl_dump_port_t each)
{
	struct ethereal_net *en = ethereal_pernet(sock_net(cb->skb->sk));
	struct ethereal_switch *sw;
	struct ethereal_port *port;
	long s = 0, p;

	list_for_each_entry(sw, &en->switches, node) {
		if (s++ < cb->args[0] || (f->sw && sw != f->sw))
			continue;
		p = 0;
		list_for_each_entry(port, &sw->ports, node) {
			if (p++ < cb->args[1] || (f->port && port != f->port))
				continue;
			if (each(skb, cb, port))
				return;
			cb->args[1] = p;
			cb->args[2] = 0;
		}
		cb->args[0] = s;
		cb->args[1] = 0;
	}
}

/* Monitor events: ETHEREAL_CMD_CONN_EVENT to the "monitor" group */

/*
 * One event of switch SW, its connection filled in by FILL, to the
 * listeners in the switch's namespace. From the signaling paths, in
 * process context under RTNL: nothing of the packet path. Nobody
 * listening costs one check; an event that cannot be sent is counted and
 * the signaling goes on.
 */
void ethereal_nl_event(struct ethereal_switch *sw, u8 event, u16 reason, u8 hop,
		       ethereal_nl_fill_t fill, const void *obj)
{
	struct net *net = dev_net(sw->br);
	struct sk_buff *msg;
	void *hdr;
	int err;

	ASSERT_RTNL();
	if (!READ_ONCE(ethereal_nl_events) ||
	    !genl_has_listeners(&ethereal_genl_family, net, ETHEREAL_MCGRP_MONITOR))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto drop;
	hdr = genlmsg_put(msg, 0, 0, &ethereal_genl_family, 0, ETHEREAL_CMD_CONN_EVENT);
	if (!hdr || fill(msg, obj) ||
	    nla_put_string(msg, ETHEREAL_A_IFNAME, sw->br->name) ||
	    nla_put_u8(msg, ETHEREAL_A_EVENT, event) ||
	    (event >= ETHEREAL_EVENT_REJECTED &&
	     nla_put_u16(msg, ETHEREAL_A_REASON, reason)) ||
	    (hop && nla_put_u8(msg, ETHEREAL_A_HOP, hop))) {
		nlmsg_free(msg);
		goto drop;
	}
	genlmsg_end(msg, hdr);
	/* Consumes MSG. -ESRCH: the last listener left meanwhile. */
	err = genlmsg_multicast_netns(&ethereal_genl_family, net, msg, 0,
				      ETHEREAL_MCGRP_MONITOR, GFP_KERNEL);
	if (!err || err == -ESRCH)
		return;
drop:
	atomic_long_inc(&sw->sig.c[ETHEREAL_SIGC_EVENT_DROPS]);
}

static const struct genl_small_ops ethereal_genl_ops[] = {
	{
		.cmd = ETHEREAL_CMD_SWITCH_ATTACH,
		.doit = ethereal_nl_switch_attach,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_SWITCH_DETACH,
		.doit = ethereal_nl_switch_do,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_SWITCH_GET,
		.doit = ethereal_nl_switch_get,
		.dumpit = ethereal_nl_switch_dump,
	},
	{
		.cmd = ETHEREAL_CMD_PORT_GET,
		.doit = ethereal_nl_port_get,
		.dumpit = ethereal_nl_port_dump,
	},
	{
		.cmd = ETHEREAL_CMD_PORT_SET,
		.doit = ethereal_nl_port_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_CONN_NEW,
		.doit = ethereal_nl_conn_new,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_CONN_DEL,
		.doit = ethereal_nl_conn_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_CONN_GET,
		.doit = ethereal_nl_conn_get,
		.dumpit = ethereal_nl_conn_dump,
	},
	{
		.cmd = ETHEREAL_CMD_SWITCH_SET,
		.doit = ethereal_nl_switch_do,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_NEIGH_NEW,
		.doit = ethereal_nl_neigh_new,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_NEIGH_DEL,
		.doit = ethereal_nl_neigh_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ETHEREAL_CMD_NEIGH_GET,
		.dumpit = ethereal_nl_neigh_dump,
	},
};

static struct genl_family ethereal_genl_family __ro_after_init = {
	.name = ETHEREAL_GENL_NAME,
	.version = ETHEREAL_GENL_VERSION,
	.maxattr = ETHEREAL_A_MAX,
	.policy = ethereal_genl_policy,
	.netnsok = true,
	/* Every operation takes RTNL itself. */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.small_ops = ethereal_genl_ops,
	.n_small_ops = ARRAY_SIZE(ethereal_genl_ops),
	.mcgrps = ethereal_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ethereal_genl_mcgrps),
};

int __init ethereal_genl_register(void)
{
	int err = genl_register_family(&ethereal_genl_family);

	if (!err)
		WRITE_ONCE(ethereal_nl_events, true);
	return err;
}

void ethereal_genl_unregister(void)
{
	/* Events are sent under RTNL: none is under way once this is clear. */
	rtnl_lock();
	WRITE_ONCE(ethereal_nl_events, false);
	rtnl_unlock();
	genl_unregister_family(&ethereal_genl_family);
}
