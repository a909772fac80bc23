// SPDX-License-Identifier: GPL-2.0
/*
 * Admission control (Section 3.1 of the paper): whether an output port
 * takes a connection more. Its limits are its ethereal qdisc's when it has
 * one (rate, rt-limit, max-conns, rt-buffer); without one, the same checks
 * hold with the device's speed, the whole of it, the IDs and the qdisc's
 * default buffer, so that no port admits without bound, and a device that
 * reports no speed admits nothing until it gets the qdisc and a rate.
 *
 * A port our qdisc schedules also bounds each connection's delay (bound.h,
 * Documentation/delay-bounds.md): admission keeps the port's common term
 * within its budget and within every budget it promised before, and says
 * what it promises the new connection.
 */
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "bound.h"
#include "conn.h"
#include "sch_ethereal_port.h"
#include "switch.h"

/* The limits PORT admits connections within. */
static void ethereal_port_limits(const struct ethereal_port *port, struct ethereal_limits *l)
{
	if (ethereal_sched_limits(port, l))
		return;
	memset(l, 0, sizeof(*l));
	l->rate = ethereal_dev_speed(port->dev);
	l->rt_limit = 100;	/* no scheduler holds real time back */
	/* max-conns bounds a scheduler's work: without one, the IDs do. */
	l->max_conns = ETHEREAL_MAX_CONNS_MAX;
	l->rt_buffer = min_t(u64, ethereal_bytes_in(l->rate, ETHEREAL_RT_BUFFER_NS), U32_MAX);
	l->cycle = ETHEREAL_CYCLE_DEFAULT;
}

/* The largest frame of best effort PORT sends with MTU: it may be tagged. */
u32 ethereal_port_l_be(const struct ethereal_port *port, u32 mtu)
{
	return mtu + ETH_HLEN + VLAN_HLEN;
}

u64 ethereal_limits_budget(const struct ethereal_limits *l)
{
	if (!l->sched)
		return U64_MAX;
	return l->delay ?: ethereal_dl_budget_default(l->rate, l->rt_limit, l->rt_buffer,
						      l->cycle, l->l_be);
}

/* The common term of PORT's connections and one of B or V more, under L. */
static u64 ethereal_dl_used(const struct ethereal_port *port, const struct ethereal_limits *l,
			    u64 b, u64 v)
{
	if (!l->sched)
		return U64_MAX;
	return ethereal_dl_common(l->rate, l->l_be,
				  l->paced ? ethereal_add_sat(port->dl_paced, b) :
					     ethereal_add_sat(port->dl_cyclic, v), l->paced);
}

u64 ethereal_port_dl_used(const struct ethereal_port *port, const struct ethereal_limits *l)
{
	return ethereal_dl_used(port, l, 0, 0);
}

/*
 * How late and bunched the frames of the connection CFG describes may
 * reach the switch, at most ETHEREAL_HOST_JITTER_MAX_NS: from a host,
 * behind the host's own best effort in its queue, as far as preemptive
 * discard lets that run ahead of its residual, a window; from another
 * switch, by as much as the switches before may delay them, the bound of
 * the path before this one (0 when signaling did not say: a static
 * connection, or a switch of a version before delay bounds).
 */
static u64 ethereal_arrival_jitter(const struct ethereal_conn_cfg *cfg)
{
	ASSERT_RTNL();	/* which ethereal_discard_set() holds to change it */
	if (cfg->in->role != ETHEREAL_PORT_PERIPHERAL)
		return min(cfg->before, ETHEREAL_HOST_JITTER_MAX_NS);
	return min(cfg->in->discard.window, ETHEREAL_HOST_JITTER_MAX_NS);
}

/*
 * The queue a connection (RATE, BURST, MAX_PKT, JITTER) needs at a port
 * under L whose common term is COMMON (bound.h): what it can have there
 * while it keeps its contract. A port our qdisc does not schedule keeps
 * the paper's twice the burst.
 */
static u64 ethereal_queue_at(const struct ethereal_limits *l, u64 common, u64 rate, u64 burst,
			     u64 max_pkt, u64 jitter)
{
	return ethereal_dl_queue(rate, burst, max_pkt,
				 l->sched ? ethereal_dl_stay(l->paced, l->cycle, common, rate,
							     burst, max_pkt) : U64_MAX,
				 jitter);
}

/*
 * What the queues of PORT's connections take under L, its common term
 * COMMON: each what it needs then, or what it has if more (none shrinks);
 * with GROW, each takes that size. O(connections), at admission and
 * configuration only; a port our qdisc does not schedule keeps what it has.
 */
static u64 ethereal_port_queues(struct ethereal_port *port, const struct ethereal_limits *l,
				u64 common, bool grow)
{
	struct ethereal_conn *conn;
	unsigned long id;
	u64 sum = 0, q;

	if (!l->sched)
		return port->buffered;
	xa_for_each(&port->out_conns, id, conn) {
		q = max(conn->queue, ethereal_queue_at(l, common, conn->rate, conn->burst,
						       conn->max_pkt, conn->jitter));
		if (grow)
			conn->queue = q;
		sum = ethereal_add_sat(sum, q);
	}
	return sum;
}

/*
 * Whether the connection CFG describes fits on PORT, its output: bandwidth,
 * connections, buffer, and the delay budget, its bound at most MAX_HOP
 * (U64_MAX: any). A: what it adds and what it is promised.
 */
int ethereal_port_admit(struct ethereal_port *port, const struct ethereal_conn_cfg *cfg,
			u64 max_hop, struct ethereal_admission *a,
			struct netlink_ext_ack *extack)
{
	struct ethereal_limits l;
	u64 common;

	ethereal_assert_config(port->sw);
	ethereal_port_limits(port, &l);
	if (!l.rate) {
		NL_SET_ERR_MSG(extack,
			       "The output port reports no speed: give it the ethereal qdisc with a rate");
		return -EINVAL;
	}
	if (cfg->rate > l.rate) {
		NL_SET_ERR_MSG(extack, "Rate exceeds the output port's link rate");
		return -EINVAL;
	}
	if (!ethereal_admits(l.rate, l.rt_limit, port->reserved, cfg->rate)) {
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

	a->dl_b = ethereal_dl_paced(cfg->rate, cfg->burst, cfg->max_pkt, l.cycle);
	a->dl_v = ethereal_dl_cyclic(cfg->rate, cfg->max_pkt, l.cycle);
	a->budget = ethereal_limits_budget(&l);
	a->hop = ethereal_dl_hop(l.paced, a->budget, cfg->rate, cfg->burst, l.cycle);
	a->tol = l.sched && l.paced ? a->dl_b : cfg->burst;
	if (a->hop > max_hop) {
		if (l.sched)
			NL_SET_ERR_MSG(extack,
				       "The delay bound would exceed the maximum asked for");
		else
			NL_SET_ERR_MSG(extack,
				       "The output port bounds no delay: it has no ethereal qdisc");
		return -ETIME;
	}
	common = ethereal_dl_used(port, &l, a->dl_b, a->dl_v);
	/* Every bound promised here holds: the budget then, and the one now. */
	if (l.sched && common > min(a->budget, port->dl_floor)) {
		NL_SET_ERR_MSG(extack,
			       "The output port's delay budget cannot take the connection (delay)");
		return -ETIME;
	}
	/* Its queue, and those already here grown to the port with it. */
	a->jitter = ethereal_arrival_jitter(cfg);
	a->queue = ethereal_queue_at(&l, common, cfg->rate, cfg->burst, cfg->max_pkt, a->jitter);
	if (ethereal_add_sat(ethereal_port_queues(port, &l, common, false), a->queue) >
	    l.rt_buffer) {
		NL_SET_ERR_MSG(extack,
			       "Not enough queue buffer left on the output port (rt-buffer)");
		return -ENOBUFS;
	}
	return 0;
}

/*
 * PORT's connections or limits changed: each queue grows to what it needs
 * now, which admission, or ethereal_port_fits(), found room for. None
 * shrinks: frames queued under the larger need may still be there.
 */
void ethereal_port_queues_update(struct ethereal_port *port)
{
	struct ethereal_limits l;

	ASSERT_RTNL();
	ethereal_port_limits(port, &l);
	if (!l.sched)
		return;
	port->buffered = ethereal_port_queues(port, &l, ethereal_port_dl_used(port, &l), true);
	ethereal_sched_queues(port);
}

/* CONN, just admitted on PORT, its output, or leaving it: the sums. */
void ethereal_port_dl_add(struct ethereal_port *port, const struct ethereal_conn *conn)
{
	port->dl_paced = ethereal_add_sat(port->dl_paced, conn->dl_b);
	port->dl_cyclic = ethereal_add_sat(port->dl_cyclic, conn->dl_v);
	port->dl_floor = min(port->dl_floor, conn->dl_budget);
}

void ethereal_port_dl_del(struct ethereal_port *port, const struct ethereal_conn *conn)
{
	port->dl_paced -= min(port->dl_paced, conn->dl_b);
	port->dl_cyclic -= min(port->dl_cyclic, conn->dl_v);
	/* Kept low while any promise may rest on it: reset when none is left. */
	if (!port->n_out)
		port->dl_floor = U64_MAX;
}

/*
 * PORT's cycle is CYCLE from now on, or its settings changed: its
 * connections' shares anew, and their queues.
 */
void ethereal_port_dl_rebase(struct ethereal_port *port, u64 cycle)
{
	struct ethereal_conn *conn;
	unsigned long id;

	ASSERT_RTNL();
	port->dl_paced = 0;
	port->dl_cyclic = 0;
	xa_for_each(&port->out_conns, id, conn) {
		conn->dl_b = ethereal_dl_paced(conn->rate, conn->burst, conn->max_pkt, cycle);
		conn->dl_v = ethereal_dl_cyclic(conn->rate, conn->max_pkt, cycle);
		port->dl_paced = ethereal_add_sat(port->dl_paced, conn->dl_b);
		port->dl_cyclic = ethereal_add_sat(port->dl_cyclic, conn->dl_v);
	}
	ethereal_port_queues_update(port);
}

/*
 * Whether PORT's connections fit in limits L (a qdisc's, being changed, or
 * its device's MTU): their bandwidth, number and buffers, and every delay
 * bound and policing burst they were promised.
 */
int ethereal_port_fits(struct ethereal_port *port, const struct ethereal_limits *l,
		       struct netlink_ext_ack *extack)
{
	u64 sum_b = 0, sum_v = 0, used, b;
	struct ethereal_conn *conn;
	unsigned long id;

	ASSERT_RTNL();
	if (!ethereal_admits(l->rate, l->rt_limit, 0, port->reserved)) {
		NL_SET_ERR_MSG(extack, "The port's reservations exceed rt-limit of this rate");
		return -EBUSY;
	}
	if (port->buffered > l->rt_buffer || port->n_out > l->max_conns) {
		NL_SET_ERR_MSG(extack, "The port's connections exceed rt-buffer or max-conns");
		return -EBUSY;
	}
	if (!l->sched || !port->n_out)
		return 0;
	xa_for_each(&port->out_conns, id, conn) {
		sum_b = ethereal_add_sat(sum_b, ethereal_dl_paced(conn->rate, conn->burst,
								  conn->max_pkt, l->cycle));
		sum_v = ethereal_add_sat(sum_v, ethereal_dl_cyclic(conn->rate, conn->max_pkt,
								   l->cycle));
	}
	used = ethereal_dl_common(l->rate, l->l_be, l->paced ? sum_b : sum_v, l->paced);
	if (used > ethereal_limits_budget(l)) {
		NL_SET_ERR_MSG(extack, "The port's connections take more than this delay budget");
		return -EBUSY;
	}
	if (ethereal_port_queues(port, l, used, false) > l->rt_buffer) {
		NL_SET_ERR_MSG(extack, "The port's connections' queues would exceed rt-buffer");
		return -EBUSY;
	}
	xa_for_each(&port->out_conns, id, conn) {
		b = ethereal_dl_paced(conn->rate, conn->burst, conn->max_pkt, l->cycle);
		/* Policed to less than it told a source, whose frames would wait. */
		if (l->paced && conn->origin == ETHEREAL_ORIGIN_SIGNALED && b < conn->dl_tol) {
			NL_SET_ERR_MSG(extack,
				       "A connection would be policed to less than its promised burst");
			return -EBUSY;
		}
		if (conn->dl_hop == U64_MAX)
			continue;
		if ((l->paced ? used :
		     ethereal_dl_cyclic_hop(used, conn->rate, conn->burst, l->cycle)) >
		    conn->dl_hop) {
			NL_SET_ERR_MSG(extack,
				       "A connection would lose the delay bound promised it");
			return -EBUSY;
		}
	}
	return 0;
}
