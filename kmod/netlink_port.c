// SPDX-License-Identifier: GPL-2.0
/* The netlink family's ports: get, set and dump (netlink.c). */
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ethereal.h>

#include "main.h"
#include "nl.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

/* Not const: the 6.1 policy macros take a non-const pointer. */
static struct netlink_range_validation ethereal_nl_port_host_conns_range __ro_after_init = {
	.max = ETHEREAL_MAX_CONNS_MAX,
};

static struct netlink_range_validation ethereal_nl_port_host_rate_range __ro_after_init = {
	.max = ETHEREAL_RATE_MAX,
};

const struct nla_policy ethereal_nl_port_policy[ETHEREAL_PORT_A_MAX + 1] = {
	[ETHEREAL_PORT_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_PORT_A_ROLE] = NLA_POLICY_MAX(NLA_U8, ETHEREAL_PORT_ROLE_MAX),
	[ETHEREAL_PORT_A_HOST_CONNS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_nl_port_host_conns_range),
	[ETHEREAL_PORT_A_HOST_RATE] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_nl_port_host_rate_range),
	/* 0 (no key) or 16 to 64 bytes: ethereal_port_set_key() says which. */
	[ETHEREAL_PORT_A_KEY] = { .type = NLA_BINARY, .len = ETHEREAL_KEY_MAX },
};

static int ethereal_nl_port_fill(struct sk_buff *msg, const struct ethereal_port *port)
{
	u64 sum[ETHEREAL_N_COUNTERS];
	struct nlattr *nest;

	if (nla_put_u32(msg, ETHEREAL_A_IFINDEX, port->sw->br->ifindex))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, ETHEREAL_A_PORT);
	if (!nest)
		return -EMSGSIZE;
	ethereal_stats_sum(port->stats, sum);
	if (nla_put_u32(msg, ETHEREAL_PORT_A_IFINDEX, port->dev->ifindex) ||
	    nla_put_string(msg, ETHEREAL_PORT_A_IFNAME, port->dev->name) ||
	    nla_put_u8(msg, ETHEREAL_PORT_A_ROLE, port->role) ||
	    nla_put_u8(msg, ETHEREAL_PORT_A_STP_STATE, READ_ONCE(port->stp_state)) ||
	    nla_put_u64_64bit(msg, ETHEREAL_PORT_A_RATE, ethereal_port_rate(port),
			      ETHEREAL_PORT_A_PAD) ||
	    nla_put_u64_64bit(msg, ETHEREAL_PORT_A_RESERVED, port->reserved,
			      ETHEREAL_PORT_A_PAD) ||
	    nla_put_u32(msg, ETHEREAL_PORT_A_CONNS_IN, port->n_in) ||
	    nla_put_u32(msg, ETHEREAL_PORT_A_CONNS_OUT, port->n_out) ||
	    nla_put_u32(msg, ETHEREAL_PORT_A_HOST_CONNS, port->host_conns) ||
	    nla_put_u64_64bit(msg, ETHEREAL_PORT_A_HOST_RATE, port->host_rate,
			      ETHEREAL_PORT_A_PAD) ||
	    nla_put_u8(msg, ETHEREAL_PORT_A_KEYED, !!port->link_key) ||
	    (port->link_key &&
	     nla_put_u8(msg, ETHEREAL_PORT_A_KEY_VERIFIED, ethereal_port_key_verified(port))) ||
	    ethereal_nl_put_stats(msg, ETHEREAL_PORT_A_STATS, sum))
		return -EMSGSIZE;
	if (port->role == ETHEREAL_PORT_TRUNK && ethereal_port_link_sw_alive(port) &&
	    (nla_put(msg, ETHEREAL_PORT_A_SWITCH, ETH_ALEN, port->link_sw_id) ||
	     nla_put(msg, ETHEREAL_PORT_A_SWITCH_LLADDR, ETH_ALEN, port->link_sw_mac) ||
	     nla_put_u32(msg, ETHEREAL_PORT_A_SWITCH_AGE,
			 jiffies_to_msecs(jiffies - port->link_sw_seen))))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* For replies and dumps: a trunk's hellos change what it shows. */
static int ethereal_nl_port_fill_obj(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_port *port = obj;
	int err;

	ethereal_switch_lock(port->sw);
	err = ethereal_nl_port_fill(msg, port);
	ethereal_switch_unlock(port->sw);
	return err;
}

static struct ethereal_port *ethereal_nl_port_req(struct genl_info *info,
						  struct nlattr **tb)
{
	struct nlattr *nest = info->attrs[ETHEREAL_A_PORT];

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_PORT) ||
	    ethereal_nl_nest(tb, ETHEREAL_PORT_A_MAX, nest, ethereal_nl_port_policy, info) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, ETHEREAL_PORT_A_IFINDEX))
		return ERR_PTR(-EINVAL);
	return ethereal_nl_port(genl_info_net(info), tb[ETHEREAL_PORT_A_IFINDEX],
				info->extack);
}

int ethereal_nl_port_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_PORT_A_MAX + 1];
	struct ethereal_port *port;
	int err;

	rtnl_lock();
	port = ethereal_nl_port_req(info, tb);
	err = IS_ERR(port) ? PTR_ERR(port) :
		ethereal_nl_reply(info, ETHEREAL_CMD_PORT_GET,
				  ethereal_nl_port_fill_obj, port);
	rtnl_unlock();
	return err;
}

int ethereal_nl_port_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_PORT_A_MAX + 1] = {};
	struct ethereal_port *port;
	int err = 0;

	rtnl_lock();
	port = ethereal_nl_port_req(info, tb);
	if (IS_ERR(port)) {
		err = PTR_ERR(port);
		goto out;
	}
	if (!tb[ETHEREAL_PORT_A_ROLE] && !tb[ETHEREAL_PORT_A_HOST_CONNS] &&
	    !tb[ETHEREAL_PORT_A_HOST_RATE] && !tb[ETHEREAL_PORT_A_KEY]) {
		NL_SET_ERR_MSG(info->extack, "Nothing to change: no role, host quota or key given");
		err = -EINVAL;
		goto out;
	}
	ethereal_switch_lock(port->sw);
	/* What can fail first: nothing else changes then. */
	if (tb[ETHEREAL_PORT_A_KEY]) {
		err = ethereal_port_set_key(port, nla_data(tb[ETHEREAL_PORT_A_KEY]),
					    nla_len(tb[ETHEREAL_PORT_A_KEY]), info->extack);
		if (err)
			goto unlock;
	}
	if (tb[ETHEREAL_PORT_A_ROLE])
		ethereal_port_set_role(port, nla_get_u8(tb[ETHEREAL_PORT_A_ROLE]));
	/* Quotas bind what is asked from now on; nothing is torn down. */
	if (tb[ETHEREAL_PORT_A_HOST_CONNS])
		port->host_conns = nla_get_u32(tb[ETHEREAL_PORT_A_HOST_CONNS]);
	if (tb[ETHEREAL_PORT_A_HOST_RATE])
		port->host_rate = nla_get_u64(tb[ETHEREAL_PORT_A_HOST_RATE]);
	ethereal_switch_changed(port->sw);
unlock:
	ethereal_switch_unlock(port->sw);
out:
	rtnl_unlock();
	/* The secret is the key's only: not left in the request's memory. */
	if (tb[ETHEREAL_PORT_A_KEY])
		memzero_explicit(nla_data(tb[ETHEREAL_PORT_A_KEY]),
				 nla_len(tb[ETHEREAL_PORT_A_KEY]));
	return err;
}

static int ethereal_nl_port_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
				     struct ethereal_port *port)
{
	return ethereal_nl_dump_one(skb, cb, ETHEREAL_CMD_PORT_GET,
				    ethereal_nl_port_fill_obj, port);
}

int ethereal_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_nl_dump_filter f;
	int err;

	rtnl_lock();
	cb->seq = ethereal_pernet(sock_net(cb->skb->sk))->gen;
	err = ethereal_nl_dump_filter(cb, &f, false);
	if (!err)
		ethereal_nl_dump_ports(skb, cb, &f, ethereal_nl_port_dump_one);
	rtnl_unlock();
	return err ? err : skb->len;
}
