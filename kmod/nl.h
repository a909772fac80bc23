/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink family's own: what netlink.c (the family, and the helpers
 * its objects share) and the file of each object (netlink_switch.c,
 * netlink_port.c, netlink_conn.c, netlink_neigh.c) share. Not for the rest
 * of the module, which sees netlink.h.
 */
#ifndef _ETHEREAL_NL_H
#define _ETHEREAL_NL_H

#include <linux/types.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include <linux/ethereal.h>

#include "stats.h"

struct ethereal_port;
struct ethereal_switch;
struct net;
struct net_device;

typedef int (*ethereal_nl_fill_t)(struct sk_buff *msg, const void *obj);

/*
 * Dumps walk switch, port and what the port has (connection ID, neighbour);
 * cb->args[] holds where the last batch stopped: [0] switch, [1] port, [2]
 * within the port.
 */
struct ethereal_nl_dump_filter {
	struct ethereal_switch *sw;	/* only this switch */
	struct ethereal_port *port;	/* only this port */
};

typedef int (*ethereal_nl_dump_port_t)(struct sk_buff *skb, struct netlink_callback *cb,
				       struct ethereal_port *port);

/* netlink.c: lookups from request attributes, RTNL held */
struct net_device *ethereal_nl_dev(struct net *net, const struct nlattr *attr,
				   struct netlink_ext_ack *extack);
struct ethereal_switch *ethereal_nl_switch(struct net *net, const struct nlattr *attr,
					   struct netlink_ext_ack *extack);
struct ethereal_port *ethereal_nl_port(struct net *net, const struct nlattr *attr,
				       struct netlink_ext_ack *extack);
/* netlink.c: messages, replies and dumps */
int ethereal_nl_put_stats(struct sk_buff *msg, int attr, const u64 sum[ETHEREAL_N_COUNTERS]);
int ethereal_nl_reply(struct genl_info *info, u8 cmd, ethereal_nl_fill_t fill, const void *obj);
int ethereal_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			 u8 cmd, ethereal_nl_fill_t fill, const void *obj);
int ethereal_nl_nest(struct nlattr **tb, int max, struct nlattr *nest,
		     const struct nla_policy *policy, struct genl_info *info);
int ethereal_nl_dump_filter_port(struct netlink_callback *cb,
				 struct ethereal_nl_dump_filter *f, const struct nlattr *attr);
int ethereal_nl_dump_filter(struct netlink_callback *cb, struct ethereal_nl_dump_filter *f,
			    bool conn);
void ethereal_nl_dump_ports(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct ethereal_nl_dump_filter *f, ethereal_nl_dump_port_t each);
/* netlink.c: one monitor event to the "monitor" group (netlink.h says when) */
void ethereal_nl_event(struct ethereal_switch *sw, u8 event, u16 reason, u8 hop,
		       ethereal_nl_fill_t fill, const void *obj);

/* netlink_switch.c */
int ethereal_nl_switch_attach(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_switch_do(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_switch_get(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_switch_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink_port.c */
extern const struct nla_policy ethereal_nl_port_policy[ETHEREAL_PORT_A_MAX + 1];
int ethereal_nl_port_get(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_port_set(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink_conn.c */
extern const struct nla_policy ethereal_nl_conn_policy[ETHEREAL_CONN_A_MAX + 1];
int ethereal_nl_conn_new(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_conn_del(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_conn_get(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink_neigh.c */
extern const struct nla_policy ethereal_nl_neigh_policy[ETHEREAL_NEIGH_A_MAX + 1];
int ethereal_nl_neigh_new(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_neigh_del(struct sk_buff *skb, struct genl_info *info);
int ethereal_nl_neigh_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _ETHEREAL_NL_H */
