// SPDX-License-Identifier: GPL-2.0
/*
 * The ethereal qdisc as a switch port's scheduler: bound to the port while
 * it is the port's root, with a queue for each connection leaving it, and
 * the limits admission checks (RTNL held throughout).
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "conn.h"
#include "discard.h"
#include "sch_ethereal.h"
#include "sch_ethereal_port.h"
#include "switch.h"

/*
 * Q schedules PORT from now on: a queue for each of its connections. A root
 * qdisc being replaced keeps its own queues and binding until it is
 * destroyed, so that a replace failing after this (tc_modify_qdisc holds
 * RTNL throughout) leaves the port as it was (ethereal_sched_release()).
 */
void ethereal_sched_attach(struct ethereal_sched *q, struct ethereal_port *port)
{
	struct ethereal_conn *conn;
	unsigned long qid;

	port->sched = q;
	q->port = port;
	ethereal_port_dl_rebase(port, q->cycle);
	xa_for_each(&port->out_conns, qid, conn)
		if (ethereal_class_insert(q, conn))
			netdev_warn(port->dev, "no memory for the queue of connection %u\n",
				    conn->in_id);
	ethereal_discard_set(port, q->rate, q->discard_window);
}

/* A switch port appeared, or its scheduler went: is its root qdisc ours? */
void ethereal_sched_bind(struct ethereal_port *port)
{
	struct Qdisc *root = rtnl_dereference(port->dev->qdisc);
	struct ethereal_sched *q;

	ASSERT_RTNL();
	if (!root || root->ops != &ethereal_qdisc_ops)
		return;
	q = qdisc_priv(root);
	if (q->port == port) {
		/*
		 * Still bound, with its queues: it schedules the port again,
		 * with its own cycle's shares, and its classes take the queues
		 * a replacement that failed may have grown meanwhile (which
		 * may leave them above its rt-buffer: admission then refuses
		 * until connections leave).
		 */
		port->sched = q;
		ethereal_port_dl_rebase(port, q->cycle);
		ethereal_discard_set(port, q->rate, q->discard_window);
	} else {
		ethereal_sched_attach(q, port);
	}
}

void ethereal_sched_unbind(struct ethereal_port *port)
{
	struct ethereal_sched *q = port->sched;

	ASSERT_RTNL();
	if (!q)
		return;
	ethereal_class_remove_all(q);
	q->port = NULL;
	port->sched = NULL;
	ethereal_discard_set(port, 0, 0);
}

/* Q is destroyed: its queues go, and the port is left to the root it has. */
void ethereal_sched_release(struct ethereal_sched *q)
{
	struct net_device *dev = qdisc_dev(q->sch);
	struct ethereal_port *port;

	ASSERT_RTNL();
	ethereal_class_remove_all(q);
	/*
	 * A replaced root may outlive its port (a tc filter request holding
	 * it for a moment): touch the port only if it is still there.
	 */
	port = ethereal_port_find(dev_net(dev), dev);
	if (port != q->port)
		port = NULL;
	q->port = NULL;
	if (!port || port->sched != q)
		return;		/* replaced: the new root has the port */
	port->sched = NULL;
	ethereal_discard_set(port, 0, 0);
	/*
	 * A replacement that failed: the old root takes the port back. Not
	 * when Q is still the root, as when its device goes away.
	 */
	if (rtnl_dereference(port->dev->qdisc) != q->sch)
		ethereal_sched_bind(port);
}

/* The limits Q's settings set PORT, its port. */
void ethereal_sched_fill_limits(const struct ethereal_sched *q, const struct ethereal_port *port,
				struct ethereal_limits *l)
{
	l->rate = q->rate;
	l->rt_limit = q->rt_limit;
	l->max_conns = q->max_conns;
	l->rt_buffer = q->rt_buffer;
	l->sched = true;
	l->paced = q->mode == ETHEREAL_MODE_PACED;
	l->cycle = q->cycle;
	l->delay = q->delay;
	l->l_be = ethereal_port_l_be(port, READ_ONCE(port->dev->mtu));
}

/*
 * Whether PORT's connections keep their delay bounds with MTU: a larger
 * frame of best effort may hold the link longer.
 */
int ethereal_sched_mtu_fits(struct ethereal_port *port, u32 mtu)
{
	struct ethereal_limits l;
	int err;

	ASSERT_RTNL();
	if (!port->sched || !port->n_out)
		return 0;
	ethereal_sched_fill_limits(port->sched, port, &l);
	l.l_be = ethereal_port_l_be(port, mtu);
	err = ethereal_port_fits(port, &l, NULL);
	/* The device has MTU already: a longer frame, longer stays. */
	if (!err && mtu == READ_ONCE(port->dev->mtu))
		ethereal_port_queues_update(port);
	return err;
}

/* PORT's limits, when its scheduler is ours. */
bool ethereal_sched_limits(const struct ethereal_port *port, struct ethereal_limits *l)
{
	const struct ethereal_sched *q = port->sched;

	ASSERT_RTNL();
	if (!q)
		return false;
	ethereal_sched_fill_limits(q, port, l);
	return true;
}

u64 ethereal_sched_rate(const struct ethereal_port *port)
{
	return port->sched ? port->sched->rate : 0;
}

/*
 * Its connections' queues grew (admit.c): their classes' limits with them.
 * Not under the tree lock, which would hold the port's traffic for the
 * whole walk at every setup: RTNL keeps the classes (they are freed under
 * it), and enqueue reads a limit once, a word, either value right.
 */
void ethereal_sched_queues(struct ethereal_port *port)
{
	struct ethereal_sched *q = port->sched;
	struct ethereal_conn *conn;
	struct ethereal_class *cl;
	unsigned long qid;

	ASSERT_RTNL();
	if (!q)
		return;
	xa_for_each(&q->classes, qid, cl) {
		conn = xa_load(&port->out_conns, qid);
		if (conn)
			WRITE_ONCE(cl->limit, min_t(u64, conn->queue, U32_MAX));
	}
}

int ethereal_sched_conn_add(struct ethereal_port *port, struct ethereal_conn *conn)
{
	ASSERT_RTNL();
	return port->sched ? ethereal_class_insert(port->sched, conn) : 0;
}

void ethereal_sched_conn_del(struct ethereal_port *port, struct ethereal_conn *conn)
{
	struct ethereal_sched *q = port->sched;
	struct qdisc_skb_head to_free;
	struct ethereal_class *cl;

	ASSERT_RTNL();
	if (!q)
		return;
	ethereal_qhead_init(&to_free);
	sch_tree_lock(q->sch);
	cl = xa_load(&q->classes, conn->qid);
	if (cl)
		ethereal_class_unlink(q, cl, &to_free);
	sch_tree_unlock(q->sch);
	rtnl_kfree_skbs(to_free.head, to_free.tail);
	kfree(cl);
}

/*
 * ETHEREAL_CONN_A_HOP: the delays CONN's frames had on its output port,
 * when the port's scheduler is ours.
 */
int ethereal_sched_put_hop(struct sk_buff *msg, const struct ethereal_conn *conn)
{
	struct ethereal_sched *q = conn->out->sched;
	u64 v[ETHEREAL_HOP_A_MAX + 1];
	struct ethereal_class *cl;
	struct nlattr *nest;
	int i;

	ASSERT_RTNL();
	if (!q)
		return 0;
	cl = xa_load(&q->classes, conn->qid);
	if (!cl)
		return 0;
	sch_tree_lock(q->sch);
	v[ETHEREAL_HOP_A_PROMISE] = cl->promise;
	v[ETHEREAL_HOP_A_FRAMES] = cl->dl_frames;
	v[ETHEREAL_HOP_A_DELAY_MAX] = cl->dl_max;
	v[ETHEREAL_HOP_A_ON_TIME_MAX] = cl->dl_on_time_max;
	v[ETHEREAL_HOP_A_OVER] = cl->dl_over;
	v[ETHEREAL_HOP_A_OVER_ON_TIME] = cl->dl_over_on_time;
	sch_tree_unlock(q->sch);

	nest = nla_nest_start(msg, ETHEREAL_CONN_A_HOP);
	if (!nest)
		return -EMSGSIZE;
	for (i = ETHEREAL_HOP_A_PROMISE; i <= ETHEREAL_HOP_A_MAX; i++) {
		if (i == ETHEREAL_HOP_A_PROMISE && v[i] == U64_MAX)
			continue;
		if (nla_put_u64_64bit(msg, i, v[i], ETHEREAL_HOP_A_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}
