// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink family's connections: add, delete, get and dump, and the
 * monitor events about them (netlink.c).
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "conn.h"
#include "main.h"
#include "netlink.h"
#include "nl.h"
#include "sch_ethereal_port.h"
#include "sigmsg.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

/* Not const: the 6.1 policy macros take a non-const pointer. */
static struct netlink_range_validation ethereal_nl_conn_id_range __ro_after_init = {
	.min = ETHEREAL_ID_MIN,
	.max = ETHEREAL_ID_MAX,
};

static struct netlink_range_validation ethereal_nl_conn_max_pkt_range __ro_after_init = {
	.min = ETHEREAL_MAX_PKT_MIN,
	.max = ETHEREAL_MAX_PKT_MAX,
};

const struct nla_policy ethereal_nl_conn_policy[ETHEREAL_CONN_A_MAX + 1] = {
	[ETHEREAL_CONN_A_IN_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_CONN_A_IN_ID] = NLA_POLICY_FULL_RANGE(NLA_U16, &ethereal_nl_conn_id_range),
	[ETHEREAL_CONN_A_OUT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_CONN_A_OUT_ID] = NLA_POLICY_FULL_RANGE(NLA_U16, &ethereal_nl_conn_id_range),
	[ETHEREAL_CONN_A_OUT_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[ETHEREAL_CONN_A_DADDR] = { .type = NLA_BE32 },
	[ETHEREAL_CONN_A_SWAP] = { .type = NLA_FLAG },
	[ETHEREAL_CONN_A_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_rate_range),
	[ETHEREAL_CONN_A_BURST] = NLA_POLICY_MIN(NLA_U32, 1),
	[ETHEREAL_CONN_A_MAX_PKT] = NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_nl_conn_max_pkt_range),
};

static int ethereal_nl_conn_fill(struct sk_buff *msg, const struct ethereal_conn *conn)
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
	    nla_put_u32(msg, ETHEREAL_CONN_A_BUFFER, min_t(u64, conn->queue, U32_MAX)) ||
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
	    ethereal_nl_put_stats(msg, ETHEREAL_CONN_A_STATS, sum) ||
	    ethereal_sched_put_hop(msg, conn))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* Events: signaling, which holds the switch's lock. */
static int ethereal_nl_conn_fill_obj(struct sk_buff *msg, const void *obj)
{
	return ethereal_nl_conn_fill(msg, obj);
}

/* Replies and dumps: refreshes move a connection's expiry. */
static int ethereal_nl_conn_fill_locked(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_conn *conn = obj;
	int err;

	ethereal_switch_lock(conn->in->sw);
	err = ethereal_nl_conn_fill(msg, conn);
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

int ethereal_nl_conn_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[ETHEREAL_CONN_A_MAX + 1];
	struct ethereal_conn_cfg cfg;
	struct ethereal_conn *conn;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ETHEREAL_A_CONN))
		return -EINVAL;
	err = ethereal_nl_nest(tb, ETHEREAL_CONN_A_MAX, info->attrs[ETHEREAL_A_CONN],
			       ethereal_nl_conn_policy, info);
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
	    ethereal_nl_nest(tb, ETHEREAL_CONN_A_MAX, nest, ethereal_nl_conn_policy, info) ||
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

int ethereal_nl_conn_del(struct sk_buff *skb, struct genl_info *info)
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

int ethereal_nl_conn_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ethereal_conn *conn;
	int err;

	rtnl_lock();
	conn = ethereal_nl_conn_req(info);
	err = IS_ERR(conn) ? PTR_ERR(conn) :
		ethereal_nl_reply(info, ETHEREAL_CMD_CONN_GET,
				  ethereal_nl_conn_fill_locked, conn);
	rtnl_unlock();
	return err;
}

/* The connections entering PORT, from the ID in cb->args[2] on. */
static int ethereal_nl_conn_dump_port(struct sk_buff *skb, struct netlink_callback *cb,
				      struct ethereal_port *port)
{
	struct ethereal_conn *conn;
	unsigned long id = cb->args[2];

	xa_for_each_start(&port->in_conns, id, conn, id) {
		if (ethereal_nl_dump_one(skb, cb, ETHEREAL_CMD_CONN_GET,
					 ethereal_nl_conn_fill_locked, conn))
			return -EMSGSIZE;
		cb->args[2] = id + 1;
	}
	return 0;
}

int ethereal_nl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ethereal_nl_dump_filter f;
	int err;

	rtnl_lock();
	cb->seq = ethereal_pernet(sock_net(cb->skb->sk))->gen;
	err = ethereal_nl_dump_filter(cb, &f, true);
	if (!err)
		ethereal_nl_dump_ports(skb, cb, &f, ethereal_nl_conn_dump_port);
	rtnl_unlock();
	return err ? err : skb->len;
}

/* Monitor events: ETHEREAL_CMD_CONN_EVENT to the "monitor" group */

/* A SETUP refused before it installed a connection: what it asked for. */
struct ethereal_nl_conn_setup {
	const struct ethereal_port *in;
	const struct ethereal_sig_msg *req;
};

static int ethereal_nl_conn_fill_setup(struct sk_buff *msg, const void *obj)
{
	const struct ethereal_nl_conn_setup *s = obj;
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

void ethereal_nl_conn_event(const struct ethereal_conn *conn, u8 event, u16 reason, u8 hop)
{
	ethereal_nl_event(conn->in->sw, event, reason, hop, ethereal_nl_conn_fill_obj, conn);
}

void ethereal_nl_setup_event(const struct ethereal_port *in, const struct ethereal_sig_msg *req,
			     u16 reason, u8 hop)
{
	struct ethereal_nl_conn_setup s = { .in = in, .req = req };

	ethereal_nl_event(in->sw, ETHEREAL_EVENT_REJECTED, reason, hop,
			  ethereal_nl_conn_fill_setup, &s);
}
