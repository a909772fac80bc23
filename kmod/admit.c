// SPDX-License-Identifier: GPL-2.0
/*
 * Admission control (Section 3.1 of the paper): whether an output port
 * takes a connection more. Its limits are its ethereal qdisc's when it has
 * one (rate, rt-limit, max-conns, rt-buffer); without one, the same checks
 * hold with the device's speed, the whole of it, the IDs and the qdisc's
 * default buffer, so that no port admits without bound, and a device that
 * reports no speed admits nothing until it gets the qdisc and a rate.
 */
#include <linux/rtnetlink.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "sch_ethereal_port.h"
#include "switch.h"

/* The limits PORT admits connections within. */
static void ethereal_port_limits(const struct ethereal_port *port, struct ethereal_limits *l)
{
	if (ethereal_sched_limits(port, l))
		return;
	l->rate = ethereal_dev_speed(port->dev);
	l->rt_limit = 100;	/* no scheduler holds real time back */
	/* max-conns bounds a scheduler's work: without one, the IDs do. */
	l->max_conns = ETHEREAL_MAX_CONNS_MAX;
	l->rt_buffer = min_t(u64, ethereal_bytes_in(l->rate, ETHEREAL_RT_BUFFER_NS), U32_MAX);
}

int ethereal_port_admit(const struct ethereal_port *port, u64 rate, u32 burst,
			struct netlink_ext_ack *extack)
{
	struct ethereal_limits l;

	ASSERT_RTNL();
	ethereal_port_limits(port, &l);
	if (!l.rate) {
		NL_SET_ERR_MSG(extack,
			       "The output port reports no speed: give it the ethereal qdisc with a rate");
		return -EINVAL;
	}
	if (rate > l.rate) {
		NL_SET_ERR_MSG(extack, "Rate exceeds the output port's link rate");
		return -EINVAL;
	}
	if (!ethereal_admits(l.rate, l.rt_limit, port->reserved, rate)) {
		if (l.rt_limit < 100)
			NL_SET_ERR_MSG(extack,
				       "Not enough real-time bandwidth left on the output port (rt-limit)");
		else
			NL_SET_ERR_MSG(extack, "Not enough bandwidth left on the output port");
		return -ENOSPC;
	}
	/* Scheduling work grows with the connections: bounded per port. */
	if (port->n_out >= l.max_conns) {
		NL_SET_ERR_MSG(extack, "The output port has its most connections (max-conns)");
		return -EMLINK;
	}
	if (port->buffered + 2ULL * burst > l.rt_buffer) {
		NL_SET_ERR_MSG(extack,
			       "Not enough queue buffer left on the output port (rt-buffer)");
		return -ENOBUFS;
	}
	return 0;
}

/* Whether PORT's connections fit in limits L (a qdisc's, being changed). */
int ethereal_port_fits(const struct ethereal_port *port, const struct ethereal_limits *l,
		       struct netlink_ext_ack *extack)
{
	ASSERT_RTNL();
	if (!ethereal_admits(l->rate, l->rt_limit, 0, port->reserved)) {
		NL_SET_ERR_MSG(extack, "The port's reservations exceed rt-limit of this rate");
		return -EBUSY;
	}
	if (port->buffered > l->rt_buffer || port->n_out > l->max_conns) {
		NL_SET_ERR_MSG(extack, "The port's connections exceed rt-buffer or max-conns");
		return -EBUSY;
	}
	return 0;
}
