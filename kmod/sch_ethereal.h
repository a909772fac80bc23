/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ethereal qdisc's state, shared by its files: sch_ethereal.c (the
 * data path), sch_ethereal_config.c (tc's options and the qdisc's life),
 * sch_ethereal_class.c (a queue per connection, and tc's view of them) and
 * sch_ethereal_port.c (the qdisc as a switch port's scheduler).
 */
#ifndef _SCH_ETHEREAL_H
#define _SCH_ETHEREAL_H

#include <linux/xarray.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <linux/ethereal.h>

#include "wheel.h"

struct ethereal_conn;
struct ethereal_port;

struct ethereal_class {
	u32 classid;
	u16 qid;
	u16 in_id;
	u32 in_ifindex;
	u64 rate;			/* bit/s */
	u32 burst;
	u32 limit;			/* bytes: the connection's queue */
	u32 backlog;			/* bytes queued */
	struct qdisc_skb_head q;
	/* when its frames conform (ethereal_conform()), both modes */
	u64 vtime;			/* theoretical arrival time of the next frame */
	u64 vfrac;			/* and bit-ns beyond it, below the rate */
	u64 tau;			/* ns: the burst at the rate */
	u64 tx_max;			/* ns: the largest frame at the rate */
	/* paced */
	struct ethereal_wheel_item item;
	/* cyclic */
	struct list_head alist;		/* in visit or wait */
	bool listed;
	s64 credit;			/* bytes left in cycle credit_cycle */
	u64 credit_frac;		/* bit-ns of credit beyond whole bytes */
	u64 credit_cycle;
	u64 missed_seen;		/* q->missed when it last got credit */
	/* Its frames' delays here (ethereal_measure()), and its bound. */
	u64 promise;			/* ns, U64_MAX: none */
	u64 dl_frames;
	u64 dl_max;
	u64 dl_on_time_max;
	u64 dl_over;
	u64 dl_over_on_time;
	struct gnet_stats_basic_sync bstats;
	struct gnet_stats_queue qstats;
};

struct ethereal_sched {
	struct Qdisc *sch;
	struct ethereal_port *port;	/* bound switch port, RTNL */
	u64 rate;			/* link, bit/s */
	u64 cycle;			/* ns */
	u64 discard_window;		/* ns */
	u32 rt_limit;			/* percent */
	u32 be_limit;			/* bytes */
	u32 rt_buffer;			/* bytes of connection queues allowed */
	u32 max_conns;
	u64 delay;			/* budget, ns; 0: the default */
	u8 mode;

	u64 link_time;			/* when the link is free */
	u64 link_burst;			/* ns link_time may lag now */
	u64 due;			/* when it would be, the scheduler never late */
	u64 ctl_time;			/* control's bucket: its next frame's time */
	struct qdisc_skb_head be;
	u32 be_backlog;
	struct qdisc_skb_head ctl;	/* signaling and ARP probes of the switch */
	struct xarray classes;		/* qid -> class */
	unsigned int n_classes;

	struct ethereal_wheel wheel;	/* paced */
	struct list_head visit;		/* cyclic: still to serve this cycle */
	struct list_head wait;		/* cyclic: served, or late: next cycle */
	u64 cycle_no;
	u64 cycle_end;
	u64 missed;			/* cycles that passed without a visit */
	bool be_phase;			/* real time is over for this cycle */

	struct qdisc_watchdog watchdog;
	struct tc_ethereal_xstats x;
};

/* In the qdisc's private part of skb->cb: */
struct ethereal_skb_cb {
	u64 time;			/* when it may go: paced real time, its
					 * shaper's time; others, their arrival
					 */
	u64 late;			/* x.late_ns at its arrival */
};

static inline struct ethereal_skb_cb *ethereal_cb(struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct ethereal_skb_cb));
	return (struct ethereal_skb_cb *)qdisc_skb_cb(skb)->data;
}

static inline void ethereal_qhead_init(struct qdisc_skb_head *qh)
{
	qh->head = NULL;
	qh->tail = NULL;
	qh->qlen = 0;
}

extern struct Qdisc_ops ethereal_qdisc_ops;
extern const struct Qdisc_class_ops ethereal_class_ops;

/* sch_ethereal.c: the data path, under the qdisc's lock */
int ethereal_enqueue(struct sk_buff *skb, struct Qdisc *sch, struct sk_buff **to_free);
struct sk_buff *ethereal_dequeue(struct Qdisc *sch);
/* out of its mode's scheduling structure */
void ethereal_deactivate(struct ethereal_sched *q, struct ethereal_class *cl);
/* start over in the current mode, keeping the queues (mode change, reset) */
void ethereal_reschedule(struct ethereal_sched *q);

/* sch_ethereal_class.c */
int ethereal_class_insert(struct ethereal_sched *q, const struct ethereal_conn *conn);
void ethereal_class_unlink(struct ethereal_sched *q, struct ethereal_class *cl,
			   struct qdisc_skb_head *gone);
void ethereal_class_remove_all(struct ethereal_sched *q);

/* sch_ethereal_port.c (RTNL held) */
void ethereal_sched_attach(struct ethereal_sched *q, struct ethereal_port *port);
struct ethereal_limits;
void ethereal_sched_fill_limits(const struct ethereal_sched *q, const struct ethereal_port *port,
				struct ethereal_limits *l);
void ethereal_sched_release(struct ethereal_sched *q);

#endif
