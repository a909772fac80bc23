// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "ethereal": configuration and counters.
 * Documentation/netlink.md describes the messages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "compat.h"
#include "conn.h"
#include "main.h"
#include "neigh.h"
#include "sch_ethereal_port.h"
#include "netlink.h"
#include "sigmsg.h"
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
static struct netlink_range_validation ethereal_id_range __ro_after_init = {
	.min = ETHEREAL_ID_MIN,
	.max = ETHEREAL_ID_MAX,
};

static struct netlink_range_validation ethereal_max_pkt_range __ro_after_init = {
	.min = ETHEREAL_MAX_PKT_MIN,
	.max = ETHEREAL_MAX_PKT_MAX,
};

/* Connections' and the qdisc's (sch_ethereal.c) rates. */
struct netlink_range_validation ethereal_rate_range __ro_after_init = {
	.min = ETHEREAL_RATE_MIN,
	.max = ETHEREAL_RATE_MAX,
};

static struct netlink_range_validation ethereal_lifetime_range __ro_after_init = {
	.min = ETHEREAL_LIFETIME_MIN_MS,
	.max = ETHEREAL_LIFETIME_MAX_MS,
};

static struct netlink_range_validation ethereal_host_conns_range __ro_after_init = {
	.max = ETHEREAL_MAX_CONNS_MAX,
};

static struct netlink_range_validation ethereal_host_rate_range __ro_after_init = {
	.max = ETHEREAL_RATE_MAX,
};

static const struct nla_policy ethereal_port_policy[ETHEREAL_PORT_A_MAX + 1] = {
	[ETHEREAL_PORT_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_PORT_A_ROLE] = NLA_POLICY_MAX(NLA_U8, ETHEREAL_PORT_ROLE_MAX),
	[ETHEREAL_PORT_A_HOST_CONNS] = NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_host_conns_range),
	[ETHEREAL_PORT_A_HOST_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_host_rate_range),
	/* 0 (no key) or 16 to 64 bytes: ethereal_port_set_key() says which. */
	[ETHEREAL_PORT_A_KEY] = { .type = NLA_BINARY, .len = ETHEREAL_KEY_MAX },
};

static const struct nla_policy ethereal_conn_policy[ETHEREAL_CONN_A_MAX + 1] = {
	[ETHEREAL_CONN_A_IN_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_CONN_A_IN_ID] = NLA_POLICY_FULL_RANGE(NLA_U16, &ethereal_id_range),
	[ETHEREAL_CONN_A_OUT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_CONN_A_OUT_ID] = NLA_POLICY_FULL_RANGE(NLA_U16, &ethereal_id_range),
	[ETHEREAL_CONN_A_OUT_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[ETHEREAL_CONN_A_DADDR] = { .type = NLA_BE32 },
	[ETHEREAL_CONN_A_SWAP] = { .type = NLA_FLAG },
	[ETHEREAL_CONN_A_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_rate_range),
	[ETHEREAL_CONN_A_BURST] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_CONN_A_MAX_PKT] = NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_max_pkt_range),
};

static const struct nla_policy ethereal_neigh_policy[ETHEREAL_NEIGH_A_MAX + 1] = {
	[ETHEREAL_NEIGH_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_NEIGH_A_ADDR] = { .type = NLA_BE32 },
	[ETHEREAL_NEIGH_A_LLADDR] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
};

static const struct nla_policy ethereal_genl_policy[ETHEREAL_A_MAX + 1] = {
	[ETHEREAL_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_A_PORT] = NLA_POLICY_NESTED(ethereal_port_policy),
	[ETHEREAL_A_CONN] = NLA_POLICY_NESTED(ethereal_conn_policy),
	[ETHEREAL_A_NEIGH] = NLA_POLICY_NESTED(ethereal_neigh_policy),
	[ETHEREAL_A_LIFETIME] = NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_lifetime_range),
};

/* Lookups from request attributes; RTNL held. */

static struct net_device *ethereal_nl_dev(struct net *net, const struct nlattr *attr,
					  struct netlink_ext_ack *extack)
{
	struct net_device *dev = __dev_get_by_index(net, nla_get_u32(attr));

	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "No such device");
		return ERR_PTR(-ENODEV);
	}
	return dev;
}

static struct ethereal_switch *ethereal_nl_switch(struct net *net,
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

static struct ethereal_port *ethereal_nl_port(struct net *net,
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

static int ethereal_put_stats(struct sk_buff *msg, int attr,
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

static int ethereal_put_sig_time(struct sk_buff *msg, int attr,
				 const struct ethereal_sig_time *t)
{
	return nla_put_u64_64bit(msg, attr, t->n, ETHEREAL_SIG_STATS_A_PAD) ||
	       nla_put_u64_64bit(msg, attr + 1, t->n ? div64_u64(t->sum, t->n) : 0,
				 ETHEREAL_SIG_STATS_A_PAD) ||
	       nla_put_u64_64bit(msg, attr + 2, t->max, ETHEREAL_SIG_STATS_A_PAD);
}

/* Each signaling counter's attribute. */
static const u16 ethereal_sigc_attr[ETHEREAL_SIGC_N] = {
	[ETHEREAL_SIGC_RX] = ETHEREAL_SIG_STATS_A_RX,
	[ETHEREAL_SIGC_TX] = ETHEREAL_SIG_STATS_A_TX,
	[ETHEREAL_SIGC_ACCEPTED] = ETHEREAL_SIG_STATS_A_ACCEPTED,
	[ETHEREAL_SIGC_REJECTED] = ETHEREAL_SIG_STATS_A_REJECTED,
	[ETHEREAL_SIGC_TEARDOWNS] = ETHEREAL_SIG_STATS_A_TEARDOWNS,
	[ETHEREAL_SIGC_EXPIRED] = ETHEREAL_SIG_STATS_A_EXPIRED,
	[ETHEREAL_SIGC_LINK_DOWN] = ETHEREAL_SIG_STATS_A_LINK_DOWN,
	[ETHEREAL_SIGC_ARP_HITS] = ETHEREAL_SIG_STATS_A_ARP_HITS,
	[ETHEREAL_SIGC_ARP_MISSES] = ETHEREAL_SIG_STATS_A_ARP_MISSES,
	[ETHEREAL_SIGC_DROP_MALFORMED] = ETHEREAL_SIG_STATS_A_DROP_MALFORMED,
	[ETHEREAL_SIGC_DROP_RATELIMIT] = ETHEREAL_SIG_STATS_A_DROP_RATELIMIT,
	[ETHEREAL_SIGC_DROP_BACKLOG] = ETHEREAL_SIG_STATS_A_DROP_BACKLOG,
	[ETHEREAL_SIGC_DROP_SPOOFED] = ETHEREAL_SIG_STATS_A_DROP_SPOOFED,
	[ETHEREAL_SIGC_DROP_UNEXPECTED] = ETHEREAL_SIG_STATS_A_DROP_UNEXPECTED,
	[ETHEREAL_SIGC_NEIGH_REFUSED] = ETHEREAL_SIG_STATS_A_NEIGH_REFUSED,
	[ETHEREAL_SIGC_NEIGH_CLAIMS] = ETHEREAL_SIG_STATS_A_NEIGH_CLAIMS,
	[ETHEREAL_SIGC_EVENT_DROPS] = ETHEREAL_SIG_STATS_A_EVENT_DROPS,
	[ETHEREAL_SIGC_DROP_STRANGER] = ETHEREAL_SIG_STATS_A_DROP_STRANGER,
	[ETHEREAL_SIGC_SWITCHES] = ETHEREAL_SIG_STATS_A_SWITCHES,
	[ETHEREAL_SIGC_DROP_AUTH] = ETHEREAL_SIG_STATS_A_DROP_AUTH,
	[ETHEREAL_SIGC_RTNL_RUNS] = ETHEREAL_SIG_STATS_A_RTNL_RUNS,
};

static int ethereal_put_sig(struct sk_buff *msg, const struct ethereal_sig *sig)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, ETHEREAL_A_SIG);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ETHEREAL_SIGC_N; i++)
		if (nla_put_u64_64bit(msg, ethereal_sigc_attr[i],
				      atomic_long_read(&sig->c[i]), ETHEREAL_SIG_STATS_A_PAD))
			return -EMSGSIZE;
	if (nla_put_u32(msg, ETHEREAL_SIG_STATS_A_PENDING, sig->n_pending) ||
	    nla_put_u32(msg, ETHEREAL_SIG_STATS_A_NEIGH, READ_ONCE(sig->n_neigh)) ||
	    ethereal_put_sig_time(msg, ETHEREAL_SIG_STATS_A_SETUP_HIT_N, &sig->t_hit) ||
	    ethereal_put_sig_time(msg, ETHEREAL_SIG_STATS_A_SETUP_MISS_N, &sig->t_miss))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int ethereal_fill_switch(struct sk_buff *msg, const struct ethereal_switch *sw)
{
	u64 sum[ETHEREAL_N_COUNTERS] = {}, v[ETHEREAL_N_COUNTERS];
	struct ethereal_port *port;
	int i;

	list_for_each_entry(port, &sw->ports, node) {
		ethereal_stats_sum(port->stats, v);
		for (i = 0; i < ETHEREAL_N_COUNTERS; i++)
			sum[i] += v[i];
	}
	if (nla_put_u32(msg, ETHEREAL_A_IFINDEX, sw->br->ifindex) ||
	    nla_put_string(msg, ETHEREAL_A_IFNAME, sw->br->name) ||
	    nla_put_u32(msg, ETHEREAL_A_N_PORTS, sw->n_ports) ||
	    nla_put_u32(msg, ETHEREAL_A_N_CONNS, sw->n_conns) ||
	    nla_put_u32(msg, ETHEREAL_A_LIFETIME, sw->sig.lifetime_ms) ||
	    ethereal_put_sig(msg, &sw->sig))
		return -EMSGSIZE;
	return ethereal_put_stats(msg, ETHEREAL_A_STATS, sum);
}

static int ethereal_fill_port(struct sk_buff *msg, const struct ethereal_port *port)
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
	    ethereal_put_stats(msg, ETHEREAL_PORT_A_STATS, sum))
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

static int ethereal_fill_conn(struct sk_buff *msg, const struct ethereal_conn *conn)
{
	u64 sum[ETHEREAL_N_COUNTERS];
	struct nlattr *nest;

	if (nla_put_u32(msg, ETHEREAL_A_IFINDEX, conn->in->sw->br->ifindex))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, ETHEREAL_A_CONN);
	if (!nest)
		return -EMSGSIZE;
	ethereal_stats_sum(conn->stats, sum);
	if (nla_put_u32(msg, ETHEREAL_CONN_A_IN_IFINDEX, conn->in->dev->ifindex) ||
	    nla_put_string(msg, ETHEREAL_CONN_A_IN_IFNAME, conn->in->dev->name) ||
	    nla_put_u16(msg, ETHEREAL_CONN_A_IN_ID, conn->in_id) ||
	    nla_put_u32(msg, ETHEREAL_CONN_A_OUT_IFINDEX, conn->out->dev->ifindex) ||
	    nla_put_string(msg, ETHEREAL_CONN_A_OUT_IFNAME, conn->out->dev->name) ||
	    nla_put_u16(msg, ETHEREAL_CONN_A_QID, conn->qid) ||
	    (conn->to_host ?
	     nla_put(msg, ETHEREAL_CONN_A_OUT_MAC, ETH_ALEN, conn->out_mac) :
	     nla_put_u16(msg, ETHEREAL_CONN_A_OUT_ID, conn->qid)) ||
	    (conn->daddr && nla_put_be32(msg, ETHEREAL_CONN_A_DADDR, conn->daddr)) ||
	    (conn->swap && nla_put_flag(msg, ETHEREAL_CONN_A_SWAP)) ||
	    nla_put_u64_64bit(msg, ETHEREAL_CONN_A_RATE, conn->rate, ETHEREAL_CONN_A_PAD) ||
	    nla_put_u32(msg, ETHEREAL_CONN_A_BURST, conn->burst) ||
	    nla_put_u32(msg, ETHEREAL_CONN_A_MAX_PKT, conn->max_pkt) ||
	    nla_put_u8(msg, ETHEREAL_CONN_A_ORIGIN, conn->origin) ||
	    (conn->delay != U64_MAX &&
	     nla_put_u64_64bit(msg, ETHEREAL_CONN_A_DELAY, conn->delay, ETHEREAL_CONN_A_PAD)) ||
	    (conn->origin == ETHEREAL_ORIGIN_SIGNALED &&
	     conn->sig.path_delay != ETHEREAL_SIG_DELAY_NONE &&
	     nla_put_u64_64bit(msg, ETHEREAL_CONN_A_PATH_DELAY, conn->sig.path_delay,
			       ETHEREAL_CONN_A_PAD)) ||
	    (conn->origin == ETHEREAL_ORIGIN_SIGNALED &&
	     (nla_put_u8(msg, ETHEREAL_CONN_A_STATE, conn->sig.state) ||
	      nla_put_u32(msg, ETHEREAL_CONN_A_EXPIRES,
			  time_after(conn->sig.deadline, jiffies) ?
			  jiffies_to_msecs(conn->sig.deadline - jiffies) : 0) ||
	      nla_put_u16(msg, ETHEREAL_CONN_A_DPORT, conn->sig.dport))) ||
	    ethereal_put_stats(msg, ETHEREAL_CONN_A_STATS, sum) ||
	    ethereal_sched_put_hop(msg, conn))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

typedef int (*ethereal_fill_t)(struct sk_buff *msg, const void *obj);

static int ethereal_nl_reply(struct genl_info *info, u8 cmd,
			     ethereal_fill_t fill, const void *obj)
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

static int ethereal_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
				u8 cmd, ethereal_fill_t fill, const void *obj)
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
static int ethereal_nl_nest(struct nlattr **tb, int max, struct nlattr *nest,
			    const struct nla_policy *policy, struct genl_info *info)
{
	return nla_parse_nested(tb, max, nest, policy, info->extack);
}

/* Switches */

static int ethereal_nl_attach(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *br;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_IFINDEX))
		return -EINVAL;
	rtnl_lock();
	br = ethereal_nl_dev(genl_info_net(info), info->attrs[ETHEREAL_A_IFINDEX],
			     info->extack);
	err = IS_ERR(br) ? PTR_ERR(br) :
		ethereal_switch_attach(genl_info_net(info), br, info->extack);
	if (err == -EINVAL || err == -EEXIST)
		NL_SET_BAD_ATTR(info->extack, info->attrs[ETHEREAL_A_IFINDEX]);
	rtnl_unlock();
	return err;
}

/* SWITCH_DETACH, SWITCH_SET: on an attached bridge. */
static int ethereal_nl_switch_do(struct sk_buff *skb, struct genl_info *info)
{
	struct ethereal_switch *sw;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_IFINDEX))
		return -EINVAL;
	rtnl_lock();
	sw = ethereal_nl_switch(genl_info_net(info), info->attrs[ETHEREAL_A_IFINDEX],
				info->extack);
	if (IS_ERR(sw))
		goto out;
	if (info->genlhdr->cmd == ETHEREAL_CMD_SWITCH_DETACH) {
		ethereal_switch_detach(sw);
	} else if (info->attrs[ETHEREAL_A_LIFETIME]) {
		ethereal_switch_lock(sw);
		sw->sig.lifetime_ms = nla_get_u32(info->attrs[ETHEREAL_A_LIFETIME]);
		ethereal_switch_unlock(sw);
	}
out:
	rtnl_unlock();
	return PTR_ERR_OR_ZERO(sw);
}

/* For replies and dumps, which hold RTNL only: signaling changes some of it. */
static int ethereal_fill_switch_obj(struct sk_buff *msg, const void *obj)
{
	struct ethereal_switch *sw = (struct ethereal_switch *)obj;
	int err;

	ethereal_switch_lock(sw);
	err = ethereal_fill_switch(msg, sw);
	ethereal_switch_unlock(sw);
	return err;
}

static int ethereal_nl_switch_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ethereal_switch *sw;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_IFINDEX))
		return -EINVAL;
	rtnl_lock();
	sw = ethereal_nl_switch(genl_info_net(info), info->attrs[ETHEREAL_A_IFINDEX],
				info->extack);
	err = IS_ERR(sw) ? PTR_ERR(sw) :
		ethereal_nl_reply(info, ETHEREAL_CMD_SWITCH_GET,
				  ethereal_fill_switch_obj, sw);
	rtnl_unlock();
	return err;
}

static int ethereal_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_net *en = ethereal_pernet(sock_net(cb->skb->sk));
	struct ethereal_switch *sw;
	long i = 0;

	rtnl_lock();
	cb->seq = en->gen;
	list_for_each_entry(sw, &en->switches, node) {
		if (i++ < cb->args[0])
			continue;
		if (ethereal_nl_dump_one(skb, cb, ETHEREAL_CMD_SWITCH_GET,
					 ethereal_fill_switch_obj, sw))
			break;
		cb->args[0] = i;
	}
	rtnl_unlock();
	return skb->len;
}

/* Ports */

/* For replies and dumps: a trunk's hellos change what it shows. */
static int ethereal_fill_port_obj(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_port *port = obj;
	int err;

	ethereal_switch_lock(port->sw);
	err = ethereal_fill_port(msg, port);
	ethereal_switch_unlock(port->sw);
	return err;
}

static struct ethereal_port *ethereal_nl_port_req(struct genl_info *info,
						  struct nlattr **tb)
{
	struct nlattr *nest = info->attrs[ETHEREAL_A_PORT];

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_PORT) ||
	    ethereal_nl_nest(tb, ETHEREAL_PORT_A_MAX, nest, ethereal_port_policy, info) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, ETHEREAL_PORT_A_IFINDEX))
		return ERR_PTR(-EINVAL);
	return ethereal_nl_port(genl_info_net(info), tb[ETHEREAL_PORT_A_IFINDEX],
				info->extack);
}

static int ethereal_nl_port_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_PORT_A_MAX + 1];
	struct ethereal_port *port;
	int err;

	rtnl_lock();
	port = ethereal_nl_port_req(info, tb);
	err = IS_ERR(port) ? PTR_ERR(port) :
		ethereal_nl_reply(info, ETHEREAL_CMD_PORT_GET,
				  ethereal_fill_port_obj, port);
	rtnl_unlock();
	return err;
}

static int ethereal_nl_port_set(struct sk_buff *skb, struct genl_info *info)
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

/*
 * Dumps walk switch, port and what the port has (connection ID, neighbour);
 * cb->args[] holds where the last batch stopped: [0] switch, [1] port, [2]
 * within the port.
 */
struct ethereal_dump_filter {
	struct ethereal_switch *sw;	/* only this switch */
	struct ethereal_port *port;	/* only this port */
};

/* Narrow F to the port ATTR names, which must be on F's switch if it has one. */
static int ethereal_dump_filter_port(struct netlink_callback *cb,
				     struct ethereal_dump_filter *f, const struct nlattr *attr)
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

static int ethereal_dump_filter(struct netlink_callback *cb,
				struct ethereal_dump_filter *f, bool conn)
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
				       ethereal_conn_policy, cb->extack);
		if (err)
			return err;
		if (tb[ETHEREAL_CONN_A_IN_IFINDEX])
			return ethereal_dump_filter_port(cb, f, tb[ETHEREAL_CONN_A_IN_IFINDEX]);
	}
	return 0;
}

typedef int (*ethereal_dump_port_t)(struct sk_buff *skb, struct netlink_callback *cb,
				    struct ethereal_port *port);

/*
 * A dump's walk over the ports F selects, from where the last batch
 * stopped; RTNL held. EACH dumps what it wants of a port, from and into
 * cb->args[2], and returns nonzero when the batch is full.
 */
static void ethereal_dump_ports(struct sk_buff *skb, struct netlink_callback *cb,
				const struct ethereal_dump_filter *f, ethereal_dump_port_t each)
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

static int ethereal_dump_port(struct sk_buff *skb, struct netlink_callback *cb,
			      struct ethereal_port *port)
{
	return ethereal_nl_dump_one(skb, cb, ETHEREAL_CMD_PORT_GET,
				    ethereal_fill_port_obj, port);
}

static int ethereal_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_dump_filter f;
	int err;

	rtnl_lock();
	cb->seq = ethereal_pernet(sock_net(cb->skb->sk))->gen;
	err = ethereal_dump_filter(cb, &f, false);
	if (!err)
		ethereal_dump_ports(skb, cb, &f, ethereal_dump_port);
	rtnl_unlock();
	return err ? err : skb->len;
}

/* Connections */

/* Events: signaling, which holds the switch's lock. */
static int ethereal_fill_conn_obj(struct sk_buff *msg, const void *obj)
{
	return ethereal_fill_conn(msg, obj);
}

/* Replies and dumps: refreshes move a connection's expiry. */
static int ethereal_fill_conn_locked(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_conn *conn = obj;
	int err;

	ethereal_switch_lock(conn->in->sw);
	err = ethereal_fill_conn(msg, conn);
	ethereal_switch_unlock(conn->in->sw);
	return err;
}

static int ethereal_nl_conn_cfg(struct genl_info *info, struct nlattr **tb,
				struct ethereal_conn_cfg *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *nest = info->attrs[ETHEREAL_A_CONN];
	struct net *net = genl_info_net(info);
	u64 burst;

	if (NL_REQ_ATTR_CHECK(extack, nest, tb, ETHEREAL_CONN_A_IN_IFINDEX) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, ETHEREAL_CONN_A_IN_ID) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, ETHEREAL_CONN_A_OUT_IFINDEX) ||
	    NL_REQ_ATTR_CHECK(extack, nest, tb, ETHEREAL_CONN_A_RATE))
		return -EINVAL;
	if (tb[ETHEREAL_CONN_A_OUT_ID] && tb[ETHEREAL_CONN_A_OUT_MAC]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHEREAL_CONN_A_OUT_MAC],
				    "Give the output ID or the receiver's MAC, not both");
		return -EINVAL;
	}
	if (!tb[ETHEREAL_CONN_A_OUT_ID] && !tb[ETHEREAL_CONN_A_OUT_MAC]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "Missing the output ID or the receiver's MAC");
		return -EINVAL;
	}

	memset(cfg, 0, sizeof(*cfg));
	cfg->in = ethereal_nl_port(net, tb[ETHEREAL_CONN_A_IN_IFINDEX], extack);
	if (IS_ERR(cfg->in))
		return PTR_ERR(cfg->in);
	cfg->out = ethereal_nl_port(net, tb[ETHEREAL_CONN_A_OUT_IFINDEX], extack);
	if (IS_ERR(cfg->out))
		return PTR_ERR(cfg->out);
	cfg->in_id = nla_get_u16(tb[ETHEREAL_CONN_A_IN_ID]);
	if (tb[ETHEREAL_CONN_A_OUT_ID])
		cfg->out_id = nla_get_u16(tb[ETHEREAL_CONN_A_OUT_ID]);
	if (tb[ETHEREAL_CONN_A_OUT_MAC]) {
		nla_memcpy(cfg->out_mac, tb[ETHEREAL_CONN_A_OUT_MAC], ETH_ALEN);
		if (!is_valid_ether_addr(cfg->out_mac)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[ETHEREAL_CONN_A_OUT_MAC],
					    "Receiver's MAC must be a unicast address");
			return -EINVAL;
		}
		cfg->to_host = true;
	}
	if (tb[ETHEREAL_CONN_A_DADDR])
		cfg->daddr = nla_get_be32(tb[ETHEREAL_CONN_A_DADDR]);
	cfg->swap = nla_get_flag(tb[ETHEREAL_CONN_A_SWAP]);
	cfg->origin = ETHEREAL_ORIGIN_STATIC;
	cfg->rate = nla_get_u64(tb[ETHEREAL_CONN_A_RATE]);
	cfg->max_pkt = tb[ETHEREAL_CONN_A_MAX_PKT] ?
		       nla_get_u32(tb[ETHEREAL_CONN_A_MAX_PKT]) :
		       ETHEREAL_MAX_PKT_DEFAULT;
	if (tb[ETHEREAL_CONN_A_BURST]) {
		cfg->burst = nla_get_u32(tb[ETHEREAL_CONN_A_BURST]);
	} else {
		/* The paper's cycle: 10 ms of the rate, at least two frames. */
		burst = div_u64(cfg->rate, 8 * 100);
		cfg->burst = clamp_t(u64, burst, 2 * cfg->max_pkt, U32_MAX);
	}
	return 0;
}

static int ethereal_nl_conn_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_CONN_A_MAX + 1];
	struct ethereal_conn_cfg cfg;
	struct ethereal_conn *conn;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_CONN))
		return -EINVAL;
	err = ethereal_nl_nest(tb, ETHEREAL_CONN_A_MAX, info->attrs[ETHEREAL_A_CONN],
			       ethereal_conn_policy, info);
	if (err)
		return err;
	rtnl_lock();
	err = ethereal_nl_conn_cfg(info, tb, &cfg);
	if (!err) {
		ethereal_switch_lock(cfg.in->sw);
		conn = ethereal_conn_add(&cfg, info->extack);
		ethereal_switch_unlock(cfg.in->sw);
		if (IS_ERR(conn))
			err = PTR_ERR(conn);
	}
	rtnl_unlock();
	return err;
}

/* The connection a request names by input port and ID; RTNL held. */
static struct ethereal_conn *ethereal_nl_conn_req(struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_CONN_A_MAX + 1];
	struct nlattr *nest = info->attrs[ETHEREAL_A_CONN];
	struct ethereal_port *port;
	struct ethereal_conn *conn;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_CONN) ||
	    ethereal_nl_nest(tb, ETHEREAL_CONN_A_MAX, nest, ethereal_conn_policy, info) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, ETHEREAL_CONN_A_IN_IFINDEX) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, ETHEREAL_CONN_A_IN_ID))
		return ERR_PTR(-EINVAL);
	port = ethereal_nl_port(genl_info_net(info), tb[ETHEREAL_CONN_A_IN_IFINDEX],
				info->extack);
	if (IS_ERR(port))
		return ERR_CAST(port);
	conn = xa_load(&port->in_conns, nla_get_u16(tb[ETHEREAL_CONN_A_IN_ID]));
	if (!conn) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[ETHEREAL_CONN_A_IN_ID],
				    "No connection with this ID on the port");
		return ERR_PTR(-ENOENT);
	}
	return conn;
}

static int ethereal_nl_conn_del(struct sk_buff *skb, struct genl_info *info)
{
	struct ethereal_conn *conn;

	rtnl_lock();
	conn = ethereal_nl_conn_req(info);
	if (!IS_ERR(conn)) {
		struct ethereal_switch *sw = conn->in->sw;

		ethereal_switch_lock(sw);
		/* A signaled one's neighbours are told, so that nothing dangles. */
		if (conn->origin == ETHEREAL_ORIGIN_SIGNALED)
			ethereal_sig_conn_teardown(conn, ETHEREAL_SIG_R_REMOVED);
		else
			ethereal_conn_del(conn);
		ethereal_switch_unlock(sw);
	}
	rtnl_unlock();
	return PTR_ERR_OR_ZERO(conn);
}

static int ethereal_nl_conn_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ethereal_conn *conn;
	int err;

	rtnl_lock();
	conn = ethereal_nl_conn_req(info);
	err = IS_ERR(conn) ? PTR_ERR(conn) :
		ethereal_nl_reply(info, ETHEREAL_CMD_CONN_GET,
				  ethereal_fill_conn_locked, conn);
	rtnl_unlock();
	return err;
}

/* The connections entering PORT, from the ID in cb->args[2] on. */
static int ethereal_dump_port_conns(struct sk_buff *skb, struct netlink_callback *cb,
				    struct ethereal_port *port)
{
	struct ethereal_conn *conn;
	unsigned long id = cb->args[2];

	xa_for_each_start(&port->in_conns, id, conn, id) {
		if (ethereal_nl_dump_one(skb, cb, ETHEREAL_CMD_CONN_GET,
					 ethereal_fill_conn_locked, conn))
			return -EMSGSIZE;
		cb->args[2] = id + 1;
	}
	return 0;
}

static int ethereal_nl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_dump_filter f;
	int err;

	rtnl_lock();
	cb->seq = ethereal_pernet(sock_net(cb->skb->sk))->gen;
	err = ethereal_dump_filter(cb, &f, true);
	if (!err)
		ethereal_dump_ports(skb, cb, &f, ethereal_dump_port_conns);
	rtnl_unlock();
	return err ? err : skb->len;
}

/* Neighbours: the switch's table of addresses and where they are bound */

/* The port, and the address, a NEIGH_NEW or NEIGH_DEL names; RTNL held. */
static struct ethereal_port *ethereal_nl_neigh_req(struct genl_info *info,
						   struct nlattr **tb, __be32 *ip)
{
	struct nlattr *nest = info->attrs[ETHEREAL_A_NEIGH];
	struct ethereal_port *port;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_NEIGH) ||
	    ethereal_nl_nest(tb, ETHEREAL_NEIGH_A_MAX, nest, ethereal_neigh_policy, info) ||
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

static int ethereal_nl_neigh_new(struct sk_buff *skb, struct genl_info *info)
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

static int ethereal_nl_neigh_del(struct sk_buff *skb, struct genl_info *info)
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

static int ethereal_fill_neigh(struct sk_buff *msg, const void *obj)
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

struct ethereal_neigh_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

static int ethereal_nl_neigh_dump_one(void *arg, const struct ethereal_neigh_info *ni)
{
	struct ethereal_neigh_dump *d = arg;

	return ethereal_nl_dump_one(d->skb, d->cb, ETHEREAL_CMD_NEIGH_GET,
				    ethereal_fill_neigh, ni);
}

/* Dump filter: the bridge (A_IFINDEX) or one port (A_NEIGH{IFINDEX}). */
static int ethereal_neigh_dump_filter(struct netlink_callback *cb,
				      struct ethereal_dump_filter *f)
{
	struct nlattr **attrs = ethereal_dump_attrs(cb);
	struct nlattr *tb[ETHEREAL_NEIGH_A_MAX + 1];
	int err;

	err = ethereal_dump_filter(cb, f, false);
	if (err || !attrs[ETHEREAL_A_NEIGH])
		return err;
	err = nla_parse_nested(tb, ETHEREAL_NEIGH_A_MAX, attrs[ETHEREAL_A_NEIGH],
			       ethereal_neigh_policy, cb->extack);
	if (err || !tb[ETHEREAL_NEIGH_A_IFINDEX])
		return err;
	return ethereal_dump_filter_port(cb, f, tb[ETHEREAL_NEIGH_A_IFINDEX]);
}

/* Switch by switch, each's table by hash bucket: cb->args[1], [2] in it. */
static int ethereal_nl_neigh_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_net *en = ethereal_pernet(sock_net(cb->skb->sk));
	struct ethereal_neigh_dump d = { .skb = skb, .cb = cb };
	struct ethereal_dump_filter f;
	struct ethereal_switch *sw;
	long s = 0;
	int err;

	rtnl_lock();
	err = ethereal_neigh_dump_filter(cb, &f);
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

/* Monitor events: ETHEREAL_CMD_CONN_EVENT to the "monitor" group */

/* A SETUP refused before it installed a connection: what it asked for. */
struct ethereal_setup_obj {
	const struct ethereal_port *in;
	const struct ethereal_sig_msg *req;
};

static int ethereal_fill_setup(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_setup_obj *s = obj;
	const struct ethereal_sig_msg *req = s->req;
	struct nlattr *nest;

	if (nla_put_u32(msg, ETHEREAL_A_IFINDEX, s->in->sw->br->ifindex))
		return -EMSGSIZE;
	nest = nla_nest_start(msg, ETHEREAL_A_CONN);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, ETHEREAL_CONN_A_IN_IFINDEX, s->in->dev->ifindex) ||
	    nla_put_string(msg, ETHEREAL_CONN_A_IN_IFNAME, s->in->dev->name) ||
	    nla_put_u16(msg, ETHEREAL_CONN_A_IN_ID, req->conn_id) ||
	    (req->daddr && nla_put_be32(msg, ETHEREAL_CONN_A_DADDR, (__force __be32)req->daddr)) ||
	    nla_put_u16(msg, ETHEREAL_CONN_A_DPORT, req->dport) ||
	    nla_put_u64_64bit(msg, ETHEREAL_CONN_A_RATE, req->rate, ETHEREAL_CONN_A_PAD) ||
	    nla_put_u32(msg, ETHEREAL_CONN_A_BURST, req->burst) ||
	    nla_put_u32(msg, ETHEREAL_CONN_A_MAX_PKT, req->max_pkt) ||
	    nla_put_u8(msg, ETHEREAL_CONN_A_ORIGIN, ETHEREAL_ORIGIN_SIGNALED))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * One event of switch SW, its connection filled in by FILL, to the
 * listeners in the switch's namespace. From the signaling paths, in
 * process context under RTNL: nothing of the packet path. Nobody
 * listening costs one check; an event that cannot be sent is counted and
 * the signaling goes on.
 */
static void ethereal_event(struct ethereal_switch *sw, u8 event, u16 reason, u8 hop,
			   ethereal_fill_t fill, const void *obj)
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

void ethereal_nl_conn_event(const struct ethereal_conn *conn, u8 event, u16 reason, u8 hop)
{
	ethereal_event(conn->in->sw, event, reason, hop, ethereal_fill_conn_obj, conn);
}

void ethereal_nl_setup_event(const struct ethereal_port *in, const struct ethereal_sig_msg *req,
			     u16 reason, u8 hop)
{
	struct ethereal_setup_obj s = { .in = in, .req = req };

	ethereal_event(in->sw, ETHEREAL_EVENT_REJECTED, reason, hop, ethereal_fill_setup, &s);
}

static const struct genl_small_ops ethereal_genl_ops[] = {
	{
		.cmd = ETHEREAL_CMD_SWITCH_ATTACH,
		.doit = ethereal_nl_attach,
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
