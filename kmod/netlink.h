/* SPDX-License-Identifier: GPL-2.0 */
/* netlink.c: the generic netlink family; netlink_conn.c: its monitor events */
#ifndef _ETHEREAL_NETLINK_H
#define _ETHEREAL_NETLINK_H

#include <linux/types.h>
#include <net/netlink.h>

struct ethereal_conn;
struct ethereal_port;
struct ethereal_sig_msg;

int ethereal_genl_register(void);
void ethereal_genl_unregister(void);
/* Connections' and the qdisc's (sch_ethereal_config.c) rates. */
extern struct netlink_range_validation ethereal_rate_range;
/*
 * Monitor events (ETHEREAL_CMD_CONN_EVENT), RTNL held: about a signaled
 * connection, or a SETUP refused before one was installed (REJECTED).
 * Never fail: an event nobody listens to costs a check, one that cannot be
 * sent is counted (ETHEREAL_SIGC_EVENT_DROPS).
 */
void ethereal_nl_conn_event(const struct ethereal_conn *conn, u8 event, u16 reason, u8 hop);
void ethereal_nl_setup_event(const struct ethereal_port *in, const struct ethereal_sig_msg *req,
			     u16 reason, u8 hop);

#endif /* _ETHEREAL_NETLINK_H */
