// SPDX-License-Identifier: GPL-2.0
/*
 * The ethereal qdisc's classes: one queue per real-time connection leaving
 * the port, created and removed by the switch with the connection, and
 * shown to tc (dumps only).
 */
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "conn.h"
#include "sch_ethereal.h"
#include "switch.h"
#include "wheel.h"

static struct ethereal_class *ethereal_class_new(struct ethereal_sched *q,
						 const struct ethereal_conn *conn)
{
	struct ethereal_class *cl = kzalloc(sizeof(*cl), GFP_KERNEL);

	if (!cl)
		return NULL;
	cl->qid = conn->qid;
	cl->classid = TC_H_MAKE(q->sch->handle, conn->qid);
	cl->in_ifindex = conn->in->dev->ifindex;
	cl->in_id = conn->in_id;
	cl->rate = conn->rate;
	cl->burst = conn->burst;
	cl->tau = ethereal_tx_ns(conn->burst, conn->rate);
	cl->tx_max = ethereal_tx_ns(conn->max_pkt, conn->rate);
	cl->promise = conn->dl_hop;
	cl->limit = min_t(u64, conn->queue, U32_MAX);
	ethereal_qhead_init(&cl->q);
	ethereal_wheel_item_init(&cl->item);
	INIT_LIST_HEAD(&cl->alist);
	cl->credit_cycle = U64_MAX;
	gnet_stats_basic_sync_init(&cl->bstats);
	return cl;
}

int ethereal_class_insert(struct ethereal_sched *q, const struct ethereal_conn *conn)
{
	struct ethereal_class *cl = ethereal_class_new(q, conn);
	int err;

	if (!cl)
		return -ENOMEM;
	/* Visible to enqueue once inserted: complete by then. */
	err = xa_insert_bh(&q->classes, cl->qid, cl, GFP_KERNEL);
	if (err) {
		kfree(cl);
		return err;
	}
	sch_tree_lock(q->sch);
	q->n_classes++;
	sch_tree_unlock(q->sch);
	return 0;
}

/*
 * Out of the tables, its frames dropped: moved to GONE, which the caller
 * frees with rtnl_kfree_skbs(), out of the tree lock. That wants the list's
 * tail as well as its head: given no tail, it frees nothing, and every frame
 * queued here would pin its sender's socket for good. The caller frees CL.
 */
void ethereal_class_unlink(struct ethereal_sched *q, struct ethereal_class *cl,
			   struct qdisc_skb_head *gone)
{
	struct Qdisc *sch = q->sch;
	unsigned int qlen = cl->q.qlen, backlog = cl->backlog;

	xa_erase_bh(&q->classes, cl->qid);
	ethereal_deactivate(q, cl);
	if (cl->q.head) {
		if (gone->tail)
			gone->tail->next = cl->q.head;
		else
			gone->head = cl->q.head;
		gone->tail = cl->q.tail;
		gone->qlen += qlen;
		ethereal_qhead_init(&cl->q);
	}
	cl->backlog = 0;
	if (qlen) {
		cl->qstats.drops += qlen;
		q->x.rt_drops += qlen;
		sch->qstats.drops += qlen;
		/* our own counts first: the parent is told when we empty */
		sch->q.qlen -= qlen;
		sch->qstats.backlog -= backlog;
		qdisc_tree_reduce_backlog(sch, qlen, backlog);
	}
	q->n_classes--;
}

void ethereal_class_remove_all(struct ethereal_sched *q)
{
	struct qdisc_skb_head to_free;
	struct ethereal_class *cl;
	unsigned long qid;
	LIST_HEAD(gone);

	ethereal_qhead_init(&to_free);
	sch_tree_lock(q->sch);
	xa_for_each(&q->classes, qid, cl) {
		ethereal_class_unlink(q, cl, &to_free);
		list_add(&cl->alist, &gone);
	}
	sch_tree_unlock(q->sch);
	rtnl_kfree_skbs(to_free.head, to_free.tail);
	while (!list_empty(&gone)) {
		cl = list_first_entry(&gone, struct ethereal_class, alist);
		list_del(&cl->alist);
		kfree(cl);
	}
}

/* Class operations: dumps only; the switch creates and removes classes. */

static struct Qdisc *ethereal_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

static int ethereal_graft(struct Qdisc *sch, unsigned long arg, struct Qdisc *new,
			  struct Qdisc **old, struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "A connection's queue takes no child qdisc");
	return -EOPNOTSUPP;
}

static unsigned long ethereal_find(struct Qdisc *sch, u32 classid)
{
	struct ethereal_sched *q = qdisc_priv(sch);

	if (TC_H_MAJ(classid) != sch->handle)
		return 0;
	return (unsigned long)xa_load(&q->classes, TC_H_MIN(classid));
}

static int ethereal_class_change(struct Qdisc *sch, u32 classid, u32 parentid,
				 struct nlattr **tca, unsigned long *arg,
				 struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack,
		       "Classes are the switch's connections: add them with etherealctl");
	return -EOPNOTSUPP;
}

static int ethereal_class_delete(struct Qdisc *sch, unsigned long arg,
				 struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack,
		       "Classes are the switch's connections: delete them with etherealctl");
	return -EOPNOTSUPP;
}

static void ethereal_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct ethereal_class *cl;
	unsigned long qid;

	if (arg->stop)
		return;
	xa_for_each(&q->classes, qid, cl)
		if (!tc_qdisc_stats_dump(sch, (unsigned long)cl, arg))
			return;
}

static int ethereal_dump_class(struct Qdisc *sch, unsigned long arg,
			       struct sk_buff *skb, struct tcmsg *tcm)
{
	struct ethereal_class *cl = (struct ethereal_class *)arg;
	struct nlattr *opts;

	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = cl->classid;
	tcm->tcm_info = 0;
	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_ETHEREAL_CLASS_RATE, cl->rate,
			      TCA_ETHEREAL_CLASS_PAD) ||
	    nla_put_u32(skb, TCA_ETHEREAL_CLASS_BURST, cl->burst) ||
	    nla_put_u32(skb, TCA_ETHEREAL_CLASS_LIMIT, READ_ONCE(cl->limit)) ||
	    nla_put_u32(skb, TCA_ETHEREAL_CLASS_IN_IFINDEX, cl->in_ifindex) ||
	    nla_put_u16(skb, TCA_ETHEREAL_CLASS_IN_ID, cl->in_id))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int ethereal_dump_class_stats(struct Qdisc *sch, unsigned long arg,
				     struct gnet_dump *d)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct ethereal_class *cl = (struct ethereal_class *)arg;
	struct tc_ethereal_class_xstats xs = {};
	struct gnet_stats_queue qs;
	u64 now = ktime_get_ns();
	u32 qlen;

	/*
	 * tc dumps without the qdisc's lock, and the packet path may dequeue
	 * and free the head frame meanwhile: read the queue under the lock.
	 */
	sch_tree_lock(sch);
	if (q->mode == ETHEREAL_MODE_CYCLIC && cl->credit_cycle == q->cycle_no)
		xs.credit = cl->credit;
	if (q->mode == ETHEREAL_MODE_PACED && cl->q.qlen &&
	    ethereal_cb(cl->q.head)->time < now)
		xs.lag_ns = now - ethereal_cb(cl->q.head)->time;
	qs = cl->qstats;
	qlen = cl->q.qlen;
	xs.promise_ns = cl->promise == U64_MAX ? 0 : cl->promise;
	xs.delay_max_ns = cl->dl_max;
	xs.on_time_max_ns = cl->dl_on_time_max;
	xs.over = cl->dl_over;
	xs.over_on_time = cl->dl_over_on_time;
	sch_tree_unlock(sch);
	if (gnet_stats_copy_basic(d, NULL, &cl->bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &qs, qlen) < 0)
		return -1;
	return gnet_stats_copy_app(d, &xs, sizeof(xs));
}

const struct Qdisc_class_ops ethereal_class_ops = {
	.graft		= ethereal_graft,
	.leaf		= ethereal_leaf,
	.find		= ethereal_find,
	.change		= ethereal_class_change,
	.delete		= ethereal_class_delete,
	.walk		= ethereal_walk,
	.dump		= ethereal_dump_class,
	.dump_stats	= ethereal_dump_class_stats,
};
