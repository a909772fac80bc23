// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink family's neighbours, the switch's table of addresses and
 * where they are bound: add, delete and dump (netlink.c).
 */
#include <linux/etherdevice.h>
#include <linux/in.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ethereal.h>

#include "compat.h"
#include "main.h"
#include "neigh.h"
#include "nl.h"
#include "signaling.h"
#include "switch.h"

const struct nla_policy ethereal_nl_neigh_policy[ETHEREAL_NEIGH_A_MAX + 1] = {
	[ETHEREAL_NEIGH_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_NEIGH_A_ADDR] = { .type = NLA_BE32 },
	[ETHEREAL_NEIGH_A_LLADDR] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
};

/* The port, and the address, a NEIGH_NEW or NEIGH_DEL names; RTNL held. */
static struct ethereal_port *ethereal_nl_neigh_req(struct genl_info *info,
						   struct nlattr **tb, __be32 *ip)
{
	struct nlattr *nest = info->attrs[ETHEREAL_A_NEIGH];
	struct ethereal_port *port;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_NEIGH) ||
	    ethereal_nl_nest(tb, ETHEREAL_NEIGH_A_MAX, nest, ethereal_nl_neigh_policy, info) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, ETHEREAL_NEIGH_A_IFINDEX) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, ETHEREAL_NEIGH_A_ADDR))
		return ERR_PTR(-EINVAL);
	*ip = nla_get_be32(tb[ETHEREAL_NEIGH_A_ADDR]);
	if (ipv4_is_zeronet(*ip) || ipv4_is_multicast(*ip) || ipv4_is_lbcast(*ip) ||
	    ipv4_is_loopback(*ip)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[ETHEREAL_NEIGH_A_ADDR],
				    "Not a host's unicast IPv4 address");
		return ERR_PTR(-EINVAL);
	}
	port = ethereal_nl_port(genl_info_net(info), tb[ETHEREAL_NEIGH_A_IFINDEX],
				info->extack);
	return port;
}

int ethereal_nl_neigh_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_NEIGH_A_MAX + 1];
	struct ethereal_port *port;
	const u8 *mac;
	__be32 ip;
	int err;

	rtnl_lock();
	port = ethereal_nl_neigh_req(info, tb, &ip);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto out;
	}
	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[ETHEREAL_A_NEIGH], tb,
			      ETHEREAL_NEIGH_A_LLADDR)) {
		err = -EINVAL;
		goto out;
	}
	mac = nla_data(tb[ETHEREAL_NEIGH_A_LLADDR]);
	if (!is_valid_ether_addr(mac)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[ETHEREAL_NEIGH_A_LLADDR],
				    "Not a host's unicast MAC address");
		err = -EINVAL;
		goto out;
	}
	err = ethereal_neigh_add(port, ip, mac, info->extack);
out:
	rtnl_unlock();
	return err;
}

int ethereal_nl_neigh_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_NEIGH_A_MAX + 1];
	struct ethereal_port *port;
	__be32 ip;
	int err;

	rtnl_lock();
	port = ethereal_nl_neigh_req(info, tb, &ip);
	err = IS_ERR(port) ? PTR_ERR(port) : ethereal_neigh_remove(port, ip, info->extack);
	rtnl_unlock();
	return err;
}

static int ethereal_nl_neigh_fill(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_neigh_info *ni = obj;
	struct nlattr *nest;

	if (nla_put_u32(msg, ETHEREAL_A_IFINDEX, ni->port->sw->br->ifindex))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, ETHEREAL_A_NEIGH);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, ETHEREAL_NEIGH_A_IFINDEX, ni->port->dev->ifindex) ||
	    nla_put_string(msg, ETHEREAL_NEIGH_A_IFNAME, ni->port->dev->name) ||
	    nla_put_be32(msg, ETHEREAL_NEIGH_A_ADDR, ni->ip) ||
	    nla_put(msg, ETHEREAL_NEIGH_A_LLADDR, ETH_ALEN, ni->mac) ||
	    (ni->is_static && nla_put_flag(msg, ETHEREAL_NEIGH_A_STATIC)) ||
	    (ni->bound && nla_put_flag(msg, ETHEREAL_NEIGH_A_BOUND)) ||
	    nla_put_u32(msg, ETHEREAL_NEIGH_A_AGE, ni->age_ms))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

struct ethereal_nl_neigh_dump_arg {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

static int ethereal_nl_neigh_dump_one(void *arg, const struct ethereal_neigh_info *ni)
{
	struct ethereal_nl_neigh_dump_arg *d = arg;

	return ethereal_nl_dump_one(d->skb, d->cb, ETHEREAL_CMD_NEIGH_GET,
				    ethereal_nl_neigh_fill, ni);
}

/* Dump filter: the bridge (A_IFINDEX) or one port (A_NEIGH{IFINDEX}). */
static int ethereal_nl_neigh_dump_filter(struct netlink_callback *cb,
					 struct ethereal_nl_dump_filter *f)
{
	struct nlattr **attrs = ethereal_dump_attrs(cb);
	struct nlattr *tb[ETHEREAL_NEIGH_A_MAX + 1];
	int err;

	err = ethereal_nl_dump_filter(cb, f, false);
	if (err || !attrs[ETHEREAL_A_NEIGH])
		return err;
	err = nla_parse_nested(tb, ETHEREAL_NEIGH_A_MAX, attrs[ETHEREAL_A_NEIGH],
			       ethereal_nl_neigh_policy, cb->extack);
	if (err || !tb[ETHEREAL_NEIGH_A_IFINDEX])
		return err;
	return ethereal_nl_dump_filter_port(cb, f, tb[ETHEREAL_NEIGH_A_IFINDEX]);
}

/* Switch by switch, each's table by hash bucket: cb->args[1], [2] in it. */
int ethereal_nl_neigh_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_net *en = ethereal_pernet(sock_net(cb->skb->sk));
	struct ethereal_nl_neigh_dump_arg d = { .skb = skb, .cb = cb };
	struct ethereal_nl_dump_filter f;
	struct ethereal_switch *sw;
	long s = 0;
	int err;

	rtnl_lock();
	err = ethereal_nl_neigh_dump_filter(cb, &f);
	if (err)
		goto out;
	cb->seq = en->gen;
	list_for_each_entry(sw, &en->switches, node)
		cb->seq += READ_ONCE(sw->sig.neigh_gen);
	list_for_each_entry(sw, &en->switches, node) {
		if (s++ < cb->args[0] || (f.sw && sw != f.sw))
			continue;
		if (ethereal_neigh_walk(sw, f.port, &cb->args[1], &cb->args[2],
					ethereal_nl_neigh_dump_one, &d))
			goto out;
		cb->args[0] = s;
		cb->args[1] = 0;
		cb->args[2] = 0;
	}
out:
	rtnl_unlock();
	return err ? err : skb->len;
}
