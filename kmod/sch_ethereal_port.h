/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ethereal qdisc as the rest of the module sees it: registering it
 * (sch_ethereal_config.c), and what the switch asks of a port's scheduler
 * (sch_ethereal_port.c). The qdisc's own files share sch_ethereal.h.
 */
#ifndef _ETHEREAL_SCH_PORT_H
#define _ETHEREAL_SCH_PORT_H

#include <linux/types.h>

struct ethereal_conn;
struct ethereal_limits;
struct ethereal_port;
struct sk_buff;

/* sch_ethereal_config.c */
int ethereal_sched_register(void);
void ethereal_sched_unregister(void);
/* sch_ethereal_port.c */
void ethereal_sched_bind(struct ethereal_port *port);
void ethereal_sched_unbind(struct ethereal_port *port);
bool ethereal_sched_limits(const struct ethereal_port *port, struct ethereal_limits *l);
int ethereal_sched_mtu_fits(struct ethereal_port *port, u32 mtu);
u64 ethereal_sched_rate(const struct ethereal_port *port);
int ethereal_sched_conn_add(struct ethereal_port *port, struct ethereal_conn *conn);
void ethereal_sched_queues(struct ethereal_port *port);
void ethereal_sched_conn_del(struct ethereal_port *port, struct ethereal_conn *conn);
int ethereal_sched_put_hop(struct sk_buff *msg, const struct ethereal_conn *conn);

#endif /* _ETHEREAL_SCH_PORT_H */
