// SPDX-License-Identifier: GPL-2.0
/* The netlink family's switches: attach, detach, set, get and dump (netlink.c). */
#include <linux/math64.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ethereal.h>

#include "main.h"
#include "nl.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

static int ethereal_nl_switch_put_sig_time(struct sk_buff *msg, int attr,
					   const struct ethereal_sig_time *t)
{
	return nla_put_u64_64bit(msg, attr, t->n, ETHEREAL_SIG_STATS_A_PAD) ||
	       nla_put_u64_64bit(msg, attr + 1, t->n ? div64_u64(t->sum, t->n) : 0,
				 ETHEREAL_SIG_STATS_A_PAD) ||
	       nla_put_u64_64bit(msg, attr + 2, t->max, ETHEREAL_SIG_STATS_A_PAD);
}

/* Each signaling counter's attribute. */
static const u16 ethereal_nl_switch_sigc_attr[ETHEREAL_SIGC_N] = {
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

static int ethereal_nl_switch_put_sig(struct sk_buff *msg, const struct ethereal_sig *sig)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, ETHEREAL_A_SIG);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ETHEREAL_SIGC_N; i++)
		if (nla_put_u64_64bit(msg, ethereal_nl_switch_sigc_attr[i],
				      atomic_long_read(&sig->c[i]), ETHEREAL_SIG_STATS_A_PAD))
			return -EMSGSIZE;
	if (nla_put_u32(msg, ETHEREAL_SIG_STATS_A_PENDING, sig->n_pending) ||
	    nla_put_u32(msg, ETHEREAL_SIG_STATS_A_NEIGH, READ_ONCE(sig->n_neigh)) ||
	    ethereal_nl_switch_put_sig_time(msg, ETHEREAL_SIG_STATS_A_SETUP_HIT_N, &sig->t_hit) ||
	    ethereal_nl_switch_put_sig_time(msg, ETHEREAL_SIG_STATS_A_SETUP_MISS_N, &sig->t_miss))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int ethereal_nl_switch_fill(struct sk_buff *msg, const struct ethereal_switch *sw)
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
	    ethereal_nl_switch_put_sig(msg, &sw->sig))
		return -EMSGSIZE;
	return ethereal_nl_put_stats(msg, ETHEREAL_A_STATS, sum);
}

int ethereal_nl_switch_attach(struct sk_buff *skb, struct genl_info *info)
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
int ethereal_nl_switch_do(struct sk_buff *skb, struct genl_info *info)
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
static int ethereal_nl_switch_fill_obj(struct sk_buff *msg, const void *obj)
{
	struct ethereal_switch *sw = (struct ethereal_switch *)obj;
	int err;

	ethereal_switch_lock(sw);
	err = ethereal_nl_switch_fill(msg, sw);
	ethereal_switch_unlock(sw);
	return err;
}

int ethereal_nl_switch_get(struct sk_buff *skb, struct genl_info *info)
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
				  ethereal_nl_switch_fill_obj, sw);
	rtnl_unlock();
	return err;
}

int ethereal_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb)
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
					 ethereal_nl_switch_fill_obj, sw))
			break;
		cb->args[0] = i;
	}
	rtnl_unlock();
	return skb->len;
}
