// SPDX-License-Identifier: GPL-2.0
/*
 * The qdisc "ethereal": an EtheReal switch port's output scheduler
 * (Sections 2.3, 2.4 and 3.3 of the paper).
 *
 *   tc qdisc add dev swp1 root ethereal rate 100mbit [cycle 10ms]
 *      [rt-limit 60%] [mode paced|cyclic] [be-limit BYTES] [discard-window 50ms]
 *      [link-burst 1ms]
 *
 * One queue per real-time connection leaving the port (a class, created and
 * removed with the connection, its limit what its contract can queue here
 * within its bound: bound.h) and one best-effort queue. Real-time frames
 * come tagged by the switch with skb->priority = ETHEREAL_TC_MAJOR:qid,
 * which finds their queue in O(1).
 *
 * Nothing leaves faster than the link rate: a link clock, allowed to run up
 * to link-burst behind real time, gates every dequeue. The lag is what the
 * port catches up after its dequeue was late; beyond it, link time is lost.
 *
 * cyclic: the paper's scheduler. Every cycle visits each backlogged
 *   connection once and sends up to rate x cycle of it (a deficit carries
 *   over, and unused credit up to a cycle's), then serves best effort
 *   until the cycle ends, never returning to real time within it. Cycles are counted
 *   lazily: the watchdog fires at a cycle's end only if real time waits.
 *   Cycles that pass unserved (the machine stalled past a cycle's end) are
 *   credited to connections that waited through them, so that a stall does
 *   not cost them their reservation; they count as overruns.
 * paced: each frame gets a departure time at enqueue from its connection's
 *   virtual clock, a GCRA shaper at the reserved rate with what the
 *   reserved burst holds beyond the frame as tolerance, at most a cycle
 *   (never burstier than cyclic, which may send two cycles' worth and a
 *   frame at once): traffic within (burst, rate) leaves at once, only the
 *   excess is spread at the rate. Without the tolerance, a sender whose
 *   frames arrive with any jitter is reshaped: a frame late by d moves its
 *   connection's clock d on, the frames after it wait up to d each, and a
 *   flow offered near its rate carries one stall's delay for dozens of
 *   frames. The cap is in time, not bytes, so that a connection whose
 *   frame takes longer than a cycle at its rate still has a cycle's.
 *   Backlogged connections wait in a timing wheel keyed by their head's
 *   time, so a frame costs O(1) whatever the number of connections. Best
 *   effort fills every gap.
 *
 * Admission: real time may reserve rt-limit percent of the rate.
 * The queues are in sch_ethereal_class.c, the binding to the switch port
 * and the limits admission reads in sch_ethereal_port.c.
 * Locking: the data path runs under the qdisc's root lock; configuration
 * under RTNL, taking the tree lock for what the data path reads.
 */
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "bound.h"
#include "compat.h"
#include "discard.h"
#include "netlink.h"
#include "sch_ethereal.h"
#include "sch_ethereal_port.h"
#include "stats.h"
#include "switch.h"
#include "wheel.h"

/*
 * 1 ms back to back after idle: on a port slower than its device, no more
 * than that leaves at the device's speed; on one as fast, no more than that
 * goes to the driver's ring at once, out of the scheduler's order.
 */
#define ETHEREAL_LINK_BURST_DEFAULT	1000000ULL
#define ETHEREAL_RT_LIMIT_DEFAULT 60
#define ETHEREAL_MAX_CONNS_DEFAULT 4096
#define ETHEREAL_DISCARD_DEFAULT 50000000ULL
#define ETHEREAL_CTL_LIMIT	64		/* control frames queued */

/* Scheduling structures of each mode */

static void cyclic_advance(struct ethereal_sched *q, u64 now)
{
	u64 n;

	if (now < q->cycle_end)
		return;
	n = div64_u64(now - q->cycle_end, q->cycle) + 1;
	/*
	 * Overruns are cycles that real time waited through unserved: the
	 * current one if its visits are unfinished, and every one skipped
	 * with connections backlogged. Idle cycles are none.
	 */
	if (!list_empty(&q->visit))
		q->x.overruns++;
	if (!list_empty(&q->visit) || !list_empty(&q->wait)) {
		q->x.overruns += n - 1;
		q->missed += n - 1;
	}
	q->cycle_no += n;
	q->cycle_end += n * q->cycle;
	q->x.cycles += n;
	list_splice_tail_init(&q->wait, &q->visit);
	q->be_phase = false;
}

/* A class just became backlogged: enter it in its mode's structure. */
static void ethereal_activate(struct ethereal_sched *q, struct ethereal_class *cl,
			      u64 now)
{
	if (q->mode == ETHEREAL_MODE_PACED) {
		ethereal_wheel_add(&q->wheel, &cl->item, ethereal_cb(cl->q.head)->time);
		return;
	}
	cyclic_advance(q, now);
	/* Idle time earns nothing: only cycles missed while waiting count. */
	cl->missed_seen = q->missed;
	/* Not visited yet this cycle, and real time not over: this cycle. */
	if (!q->be_phase && cl->credit_cycle != q->cycle_no)
		list_add_tail(&cl->alist, &q->visit);
	else
		list_add_tail(&cl->alist, &q->wait);
	cl->listed = true;
}

void ethereal_deactivate(struct ethereal_sched *q, struct ethereal_class *cl)
{
	if (ethereal_wheel_item_queued(&cl->item))
		ethereal_wheel_del(&q->wheel, &cl->item);
	if (cl->listed) {
		list_del_init(&cl->alist);
		cl->listed = false;
	}
}

/* Start over in the current mode, keeping the queues (mode change, reset). */
static void ethereal_reschedule(struct ethereal_sched *q)
{
	u64 now = ktime_get_ns();
	struct ethereal_class *cl;
	unsigned long qid;

	ethereal_wheel_init(&q->wheel, now);
	INIT_LIST_HEAD(&q->visit);
	INIT_LIST_HEAD(&q->wait);
	q->cycle_end = now + q->cycle;
	q->be_phase = false;
	xa_for_each(&q->classes, qid, cl) {
		struct sk_buff *skb;

		ethereal_wheel_item_init(&cl->item);
		INIT_LIST_HEAD(&cl->alist);
		cl->listed = false;
		/* Departure times of what waits: evenly from now. */
		cl->vtime = now;
		cl->vfrac = 0;
		for (skb = cl->q.head; skb; skb = skb->next) {
			ethereal_cb(skb)->time = cl->vtime;
			cl->vtime = ethereal_tx_advance(cl->vtime, qdisc_pkt_len(skb), cl->rate,
							&cl->vfrac);
		}
		if (cl->q.qlen)
			ethereal_activate(q, cl, now);
	}
}

/* Enqueue */

static struct ethereal_class *ethereal_classify(struct ethereal_sched *q,
						struct sk_buff *skb)
{
	struct ethereal_class *cl;

	if (TC_H_MAJ(skb->priority) != ETHEREAL_TC_MAJOR ||
	    TC_H_MIN(skb->priority) <= ETHEREAL_ID_CTRL_LAST)
		return NULL;
	cl = xa_load(&q->classes, TC_H_MIN(skb->priority));
	if (!cl)
		q->x.unmatched++;
	return cl;
}

static int ethereal_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
				struct sk_buff **to_free)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);
	u64 now = ktime_get_ns();
	struct ethereal_class *cl;

	ethereal_cb(skb)->time = now;
	ethereal_cb(skb)->late = q->x.late_ns;
	/* The switch's own control frames: ahead of everything, few. */
	if (skb->priority == ETHEREAL_TC_CONTROL) {
		if (q->ctl.qlen >= ETHEREAL_CTL_LIMIT) {
			q->x.ctl_drops++;
			return qdisc_drop(skb, sch, to_free);
		}
		__qdisc_enqueue_tail(skb, &q->ctl);
		goto queued;
	}
	cl = ethereal_classify(q, skb);
	if (!cl) {
		/* u64: a limit near U32_MAX must not wrap the sum. */
		if ((u64)q->be_backlog + len > q->be_limit) {
			q->x.be_drops++;
			return qdisc_drop(skb, sch, to_free);
		}
		__qdisc_enqueue_tail(skb, &q->be);
		q->be_backlog += len;
		goto queued;
	}

	if ((u64)cl->backlog + len > cl->limit) {
		cl->qstats.drops++;
		q->x.rt_drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	if (q->mode == ETHEREAL_MODE_PACED) {
		u64 tx = ethereal_tx_ns(len, cl->rate);
		u64 tat = cl->vtime;
		/*
		 * A bucket of B_j (bound.h), the burst the ACCEPT tells the
		 * host: the burst, at most a cycle and the largest frame.
		 */
		u64 tol = min(cl->tau, q->cycle + cl->tx_max);
		u64 tau = tol > tx ? tol - tx : 0;
		u64 start;

		/* Idle: the clock starts again from now, its fraction with it. */
		if (tat < now) {
			tat = now;
			cl->vfrac = 0;
		}
		start = tat > now + tau ? tat - tau : now;

		if (start > now)
			cl->qstats.overlimits++;
		ethereal_cb(skb)->time = start;
		cl->vtime = ethereal_tx_advance(tat, len, cl->rate, &cl->vfrac);
	}
	__qdisc_enqueue_tail(skb, &cl->q);
	cl->backlog += len;
	cl->qstats.backlog = cl->backlog;
	if (cl->q.qlen == 1)
		ethereal_activate(q, cl, now);
queued:
	sch->q.qlen++;
	qdisc_qstats_backlog_inc(sch, skb);
	return NET_XMIT_SUCCESS;
}

/*
 * A wire carries frames, not 64 KB GSO packets: queued whole, one would
 * hold the link for milliseconds in front of real time.
 */
static int ethereal_segment(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	unsigned int len = 0, prev_len = qdisc_pkt_len(skb);
	struct sk_buff *segs, *nskb;
	int ret, nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);

	skb_list_walk_safe(segs, segs, nskb) {
		unsigned int seg_len = segs->len;

		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = seg_len;
		ret = ethereal_enqueue_one(segs, sch, to_free);
		if (ret == NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		}
	}
	/*
	 * A parent counted one packet of prev_len: tell it what was queued
	 * instead, dropped segments left out (as tbf_segment() does).
	 */
	if (nb > 0) {
		qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
		consume_skb(skb);
		return NET_XMIT_SUCCESS;
	}
	kfree_skb(skb);
	return NET_XMIT_DROP;
}

static int ethereal_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	if (skb_is_gso(skb))
		return ethereal_segment(skb, sch, to_free);
	return ethereal_enqueue_one(skb, sch, to_free);
}

/* Dequeue */

static struct sk_buff *ethereal_class_pop(struct ethereal_class *cl)
{
	struct sk_buff *skb = __qdisc_dequeue_head(&cl->q);

	cl->backlog -= qdisc_pkt_len(skb);
	cl->qstats.backlog = cl->backlog;
	bstats_update(&cl->bstats, skb);
	return skb;
}

static struct sk_buff *paced_dequeue(struct ethereal_sched *q, u64 now, u64 *next,
				     struct ethereal_class **clp)
{
	struct ethereal_wheel_item *it = ethereal_wheel_pop(&q->wheel, now);
	struct ethereal_class *cl;
	struct sk_buff *skb;

	if (!it) {
		*next = ethereal_wheel_next(&q->wheel);
		return NULL;
	}
	cl = container_of(it, struct ethereal_class, item);
	*clp = cl;
	skb = ethereal_class_pop(cl);
	if (cl->q.qlen)
		ethereal_wheel_add(&q->wheel, &cl->item, ethereal_cb(cl->q.head)->time);
	return skb;
}

static struct sk_buff *cyclic_dequeue(struct ethereal_sched *q, u64 now, u64 *next,
				      struct ethereal_class **clp)
{
	struct ethereal_class *cl;
	struct sk_buff *skb;

	cyclic_advance(q, now);
	while (!list_empty(&q->visit)) {
		cl = list_first_entry(&q->visit, struct ethereal_class, alist);
		if (cl->credit_cycle != q->cycle_no) {
			u64 quantum = ethereal_bytes_in(cl->rate, q->cycle);
			u64 cycles = 1 + q->missed - cl->missed_seen;
			u64 earned = ethereal_bytes_advance(cl->rate, q->cycle, cycles,
							    &cl->credit_frac);

			/*
			 * A deficit carries over, and so does credit left
			 * unused, up to a cycle's worth: a frame that arrives
			 * just after its connection's visit must not cost it
			 * that cycle's share, or a sender pacing at exactly its
			 * reservation falls further behind with every such miss.
			 * At most two cycles' worth leave in one.
			 */
			cl->credit = min_t(s64, cl->credit, quantum) + earned;
			cl->credit_cycle = q->cycle_no;
			cl->missed_seen = q->missed;
		}
		if (cl->credit <= 0) {
			cl->qstats.overlimits++;
			list_move_tail(&cl->alist, &q->wait);
			continue;
		}
		*clp = cl;
		skb = ethereal_class_pop(cl);
		cl->credit -= qdisc_pkt_len(skb);
		if (!cl->q.qlen) {
			list_del_init(&cl->alist);
			cl->listed = false;
		} else if (cl->credit <= 0) {
			cl->qstats.overlimits++;
			list_move_tail(&cl->alist, &q->wait);
		}
		return skb;
	}
	/* Real time is over for this cycle; what waits goes next cycle. */
	q->be_phase = true;
	*next = list_empty(&q->wait) ? U64_MAX : q->cycle_end;
	return NULL;
}

/*
 * The control bucket, a GCRA at ETHEREAL_CTL_SHARE of the link with
 * ETHEREAL_CTL_BURST bytes of tolerance: whether a frame of LEN may go
 * ahead of real time NOW.
 */
static bool ethereal_ctl_due(const struct ethereal_sched *q, u64 now, unsigned int len)
{
	u64 rate = ethereal_ctl_rate(q->rate);
	u64 tol = ethereal_tx_ns(ETHEREAL_CTL_BURST, rate);
	u64 tx = ethereal_tx_ns(len, rate);

	return q->ctl_time <= now + (tol > tx ? tol - tx : 0);
}

static struct sk_buff *ethereal_ctl_pop(struct ethereal_sched *q, u64 now)
{
	struct sk_buff *skb = __qdisc_dequeue_head(&q->ctl);

	q->ctl_time = max(q->ctl_time, now) +
		      ethereal_tx_ns(qdisc_pkt_len(skb), ethereal_ctl_rate(q->rate));
	q->x.ctl_packets++;
	return skb;
}

/*
 * The scheduler runs late when the machine stalls (an emulated one, a CPU
 * taken away): the link then sits free while a frame is due. Such time is
 * summed in late_ns, against an on-time scheduler's link clock DUE. READY:
 * when the frame sent NOW was due.
 */
static void ethereal_late(struct ethereal_sched *q, u64 now, u64 ready, u64 tx)
{
	u64 start = max(q->due, ready);

	if (now > start)
		q->x.late_ns += now - start;
	q->due = max(now, start) + tx;
}

/*
 * A real-time frame's delay on this port, from when it could go to the
 * end of its transmission at the port's rate (END), what its bound counts
 * (bound.h); on time: less what the scheduler's lateness took from it
 * while it waited, which no bound can cover.
 */
static void ethereal_measure(struct ethereal_class *cl, struct sk_buff *skb,
			     u64 end, u64 late_ns)
{
	const struct ethereal_skb_cb *cb = ethereal_cb(skb);
	u64 d = end > cb->time ? end - cb->time : 0;
	u64 late = late_ns - cb->late;
	u64 on_time = d > late ? d - late : 0;

	cl->dl_frames++;
	cl->dl_max = max(cl->dl_max, d);
	cl->dl_on_time_max = max(cl->dl_on_time_max, on_time);
	if (d > cl->promise) {
		cl->dl_over++;
		if (on_time > cl->promise)
			cl->dl_over_on_time++;
	}
}

static struct sk_buff *ethereal_dequeue(struct Qdisc *sch)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	u64 now = ktime_get_ns(), next = U64_MAX, ready, tx;
	struct ethereal_class *cl = NULL;
	struct sk_buff *skb;

	if (!sch->q.qlen)
		return NULL;
	if (q->link_time > now) {
		qdisc_watchdog_schedule_ns(&q->watchdog, q->link_time);
		return NULL;
	}
	/*
	 * Signaling first, so that a congested port cannot delay setups,
	 * within its bucket, which real time's delay bounds count on
	 * (bound.h); beyond it, after real time.
	 */
	if (q->ctl.qlen && ethereal_ctl_due(q, now, qdisc_pkt_len(q->ctl.head))) {
		skb = ethereal_ctl_pop(q, now);
		goto sent;
	}
	if (q->mode == ETHEREAL_MODE_PACED)
		skb = paced_dequeue(q, now, &next, &cl);
	else
		skb = cyclic_dequeue(q, now, &next, &cl);
	if (skb) {
		q->x.rt_packets++;
		q->x.rt_bytes += qdisc_pkt_len(skb);
	} else if (q->ctl.qlen) {
		q->x.ctl_late++;
		skb = ethereal_ctl_pop(q, now);
	} else {
		skb = __qdisc_dequeue_head(&q->be);
		if (!skb) {
			if (next != U64_MAX)
				qdisc_watchdog_schedule_ns(&q->watchdog, next);
			return NULL;
		}
		q->be_backlog -= qdisc_pkt_len(skb);
		q->x.be_packets++;
		q->x.be_bytes += qdisc_pkt_len(skb);
	}
sent:
	tx = ethereal_tx_ns(qdisc_pkt_len(skb), q->rate);
	ready = ethereal_cb(skb)->time;
	/* Cyclic: a frame that came after its visit was due at the next cycle. */
	if (cl && q->mode == ETHEREAL_MODE_CYCLIC)
		ready = max(ready, q->cycle_end - q->cycle);
	ethereal_late(q, now, ready, tx);
	if (cl)
		ethereal_measure(cl, skb, now + tx, q->x.late_ns);
	/* max(link_time, now - link_burst), with no underflow */
	q->link_time = max(q->link_time + q->link_burst, now) - q->link_burst + tx;
	qdisc_qstats_backlog_dec(sch, skb);
	qdisc_bstats_update(sch, skb);
	sch->q.qlen--;
	return skb;
}

/* Configuration */

/* Not const: the 6.1 policy macros take a non-const pointer. */
static struct netlink_range_validation ethereal_cycle_range __ro_after_init = {
	.min = ETHEREAL_CYCLE_MIN_NS,
	.max = ETHEREAL_CYCLE_MAX_NS,
};

static struct netlink_range_validation ethereal_window_range __ro_after_init = {
	.max = ETHEREAL_DISCARD_MAX_NS,
};

static struct netlink_range_validation ethereal_link_burst_range __ro_after_init = {
	.max = ETHEREAL_LINK_BURST_MAX_NS,
};

static struct netlink_range_validation ethereal_delay_range __ro_after_init = {
	.max = ETHEREAL_DELAY_MAX_NS,
};

static struct netlink_range_validation ethereal_max_conns_range __ro_after_init = {
	.min = 1,
	.max = ETHEREAL_MAX_CONNS_MAX,
};

/* Every number bounded here, before any arithmetic sees it. */
static const struct nla_policy ethereal_qdisc_policy[TCA_ETHEREAL_MAX + 1] = {
	[TCA_ETHEREAL_RATE] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_rate_range),
	[TCA_ETHEREAL_CYCLE] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_cycle_range),
	[TCA_ETHEREAL_RT_LIMIT] = NLA_POLICY_MAX(NLA_U32, 100),
	[TCA_ETHEREAL_MODE] = NLA_POLICY_MAX(NLA_U8, ETHEREAL_MODE_MAX),
	[TCA_ETHEREAL_BE_LIMIT] = NLA_POLICY_MIN(NLA_U32, ETH_FRAME_LEN),
	[TCA_ETHEREAL_DISCARD_WINDOW] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_window_range),
	[TCA_ETHEREAL_RESERVED] = { .type = NLA_REJECT },
	[TCA_ETHEREAL_CONNS] = { .type = NLA_REJECT },
	[TCA_ETHEREAL_RT_BUFFER] = NLA_POLICY_MIN(NLA_U32, ETH_FRAME_LEN),
	[TCA_ETHEREAL_MAX_CONNS] = NLA_POLICY_FULL_RANGE(NLA_U32, &ethereal_max_conns_range),
	[TCA_ETHEREAL_BUFFERED] = { .type = NLA_REJECT },
	[TCA_ETHEREAL_DELAY] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_delay_range),
	[TCA_ETHEREAL_DELAY_USED] = { .type = NLA_REJECT },
	[TCA_ETHEREAL_DELAY_FLOOR] = { .type = NLA_REJECT },
	[TCA_ETHEREAL_LINK_BURST] = NLA_POLICY_FULL_RANGE(NLA_U64, &ethereal_link_burst_range),
};

static int ethereal_change(struct Qdisc *sch, struct nlattr *opt,
			   struct netlink_ext_ack *extack)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_ETHEREAL_MAX + 1] = {};
	u64 rate = q->rate, cycle = q->cycle, window = q->discard_window;
	u32 rt_limit = q->rt_limit, be_limit = q->be_limit;
	u32 rt_buffer = q->rt_buffer, max_conns = q->max_conns;
	u64 delay = q->delay, link_burst = q->link_burst;
	u8 mode = q->mode;
	int err;

	if (opt) {
		err = nla_parse_nested(tb, TCA_ETHEREAL_MAX, opt, ethereal_qdisc_policy, extack);
		if (err)
			return err;
	}
	if (tb[TCA_ETHEREAL_RATE])
		rate = nla_get_u64(tb[TCA_ETHEREAL_RATE]);
	if (!rate) {
		rate = ethereal_dev_speed(qdisc_dev(sch));
		if (!rate) {
			NL_SET_ERR_MSG(extack, "The device reports no speed: give a rate");
			return -EINVAL;
		}
	}
	if (tb[TCA_ETHEREAL_CYCLE])
		cycle = nla_get_u64(tb[TCA_ETHEREAL_CYCLE]);
	if (tb[TCA_ETHEREAL_RT_LIMIT])
		rt_limit = nla_get_u32(tb[TCA_ETHEREAL_RT_LIMIT]);
	if (tb[TCA_ETHEREAL_MODE])
		mode = nla_get_u8(tb[TCA_ETHEREAL_MODE]);
	if (tb[TCA_ETHEREAL_DISCARD_WINDOW])
		window = nla_get_u64(tb[TCA_ETHEREAL_DISCARD_WINDOW]);
	if (tb[TCA_ETHEREAL_BE_LIMIT])
		be_limit = nla_get_u32(tb[TCA_ETHEREAL_BE_LIMIT]);
	else if (!be_limit || tb[TCA_ETHEREAL_RATE] || tb[TCA_ETHEREAL_CYCLE])
		be_limit = clamp_t(u64, ethereal_be_limit_default(rate, cycle),
				   ETH_FRAME_LEN, U32_MAX);
	if (tb[TCA_ETHEREAL_RT_BUFFER])
		rt_buffer = nla_get_u32(tb[TCA_ETHEREAL_RT_BUFFER]);
	else if (!rt_buffer || tb[TCA_ETHEREAL_RATE])
		rt_buffer = clamp_t(u64, ethereal_bytes_in(rate, ETHEREAL_RT_BUFFER_NS),
				    ETH_FRAME_LEN, U32_MAX);
	if (tb[TCA_ETHEREAL_MAX_CONNS])
		max_conns = nla_get_u32(tb[TCA_ETHEREAL_MAX_CONNS]);
	if (tb[TCA_ETHEREAL_DELAY])
		delay = nla_get_u64(tb[TCA_ETHEREAL_DELAY]);
	if (tb[TCA_ETHEREAL_LINK_BURST])
		link_burst = nla_get_u64(tb[TCA_ETHEREAL_LINK_BURST]);
	if (q->port) {
		struct ethereal_limits l;

		/* The port's MTU, and these settings. */
		ethereal_sched_fill_limits(q, q->port, &l);
		l.rate = rate;
		l.rt_limit = rt_limit;
		l.max_conns = max_conns;
		l.rt_buffer = rt_buffer;
		l.paced = mode == ETHEREAL_MODE_PACED;
		l.cycle = cycle;
		l.delay = delay;
		err = ethereal_port_fits(q->port, &l, extack);
		if (err)
			return err;
	}

	sch_tree_lock(sch);
	q->rate = rate;
	q->rt_limit = rt_limit;
	q->be_limit = be_limit;
	q->rt_buffer = rt_buffer;
	q->max_conns = max_conns;
	q->delay = delay;
	q->discard_window = window;
	q->link_burst = link_burst;
	if (q->cycle != cycle || q->mode != mode) {
		q->cycle = cycle;
		q->mode = mode;
		ethereal_reschedule(q);
	}
	sch_tree_unlock(sch);
	if (q->port && q->port->sched == q)
		ethereal_port_dl_rebase(q->port, cycle);
	if (q->port && q->port->sched == q)
		ethereal_discard_set(q->port, rate, window);
	return 0;
}

static int ethereal_qdisc_init(struct Qdisc *sch, struct nlattr *opt,
			       struct netlink_ext_ack *extack)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct ethereal_port *port;
	int err;

	q->sch = sch;
	q->cycle = ETHEREAL_CYCLE_DEFAULT;
	q->rt_limit = ETHEREAL_RT_LIMIT_DEFAULT;
	q->mode = ETHEREAL_MODE_PACED;
	q->discard_window = ETHEREAL_DISCARD_DEFAULT;
	q->link_burst = ETHEREAL_LINK_BURST_DEFAULT;
	q->max_conns = ETHEREAL_MAX_CONNS_DEFAULT;
	ethereal_qhead_init(&q->be);
	ethereal_qhead_init(&q->ctl);
	/*
	 * Its lock is taken inside the qdisc's root lock (a class unlinked
	 * under sch_tree_lock()), which softirqs take: BH-safe everywhere.
	 */
	xa_init_flags(&q->classes, XA_FLAGS_LOCK_BH);
	qdisc_watchdog_init(&q->watchdog, sch);
	ethereal_reschedule(q);

	err = ethereal_change(sch, opt, extack);
	if (err)
		return err;
	/* As a switch port's root qdisc, it schedules the port's connections. */
	if (sch->parent == TC_H_ROOT) {
		port = ethereal_port_find(dev_net(qdisc_dev(sch)), qdisc_dev(sch));
		if (port) {
			struct ethereal_limits l;

			ethereal_sched_fill_limits(q, port, &l);
			err = ethereal_port_fits(port, &l, extack);
			if (err)
				return err;
			ethereal_sched_attach(q, port);
		}
	}
	return 0;
}

static void ethereal_reset(struct Qdisc *sch)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct ethereal_class *cl;
	unsigned long qid;

	__qdisc_reset_queue(&q->be);
	__qdisc_reset_queue(&q->ctl);
	q->be_backlog = 0;
	xa_for_each(&q->classes, qid, cl) {
		ethereal_deactivate(q, cl);
		rtnl_kfree_skbs(cl->q.head, cl->q.tail);
		ethereal_qhead_init(&cl->q);
		cl->backlog = 0;
		cl->qstats.backlog = 0;
	}
	ethereal_reschedule(q);
	qdisc_watchdog_cancel(&q->watchdog);
}

static void ethereal_destroy(struct Qdisc *sch)
{
	struct ethereal_sched *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
	if (q->port)
		ethereal_sched_release(q);
	ethereal_class_remove_all(q);
	xa_destroy(&q->classes);
	__qdisc_reset_queue(&q->be);
	__qdisc_reset_queue(&q->ctl);
}

/*
 * The delay budget in force (the default one when none is set), and, on a
 * switch port, what its connections take of it and the least promised.
 */
static int ethereal_dump_delay(const struct ethereal_sched *q, struct sk_buff *skb)
{
	struct ethereal_limits l;

	if (!q->port) {
		l.rate = q->rate;
		l.rt_limit = q->rt_limit;
		l.rt_buffer = q->rt_buffer;
		l.cycle = q->cycle;
		l.delay = q->delay;
		l.sched = true;
		l.l_be = ETH_HLEN + VLAN_HLEN + READ_ONCE(qdisc_dev(q->sch)->mtu);
		return nla_put_u64_64bit(skb, TCA_ETHEREAL_DELAY, ethereal_limits_budget(&l),
					 TCA_ETHEREAL_PAD);
	}
	ethereal_sched_fill_limits(q, q->port, &l);
	return nla_put_u64_64bit(skb, TCA_ETHEREAL_DELAY, ethereal_limits_budget(&l),
				 TCA_ETHEREAL_PAD) ||
	       nla_put_u64_64bit(skb, TCA_ETHEREAL_DELAY_USED,
				 q->port->n_out ? ethereal_port_dl_used(q->port, &l) : 0,
				 TCA_ETHEREAL_PAD) ||
	       (q->port->dl_floor != U64_MAX &&
		nla_put_u64_64bit(skb, TCA_ETHEREAL_DELAY_FLOOR, q->port->dl_floor,
				  TCA_ETHEREAL_PAD));
}

static int ethereal_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_ETHEREAL_RATE, q->rate, TCA_ETHEREAL_PAD) ||
	    nla_put_u64_64bit(skb, TCA_ETHEREAL_CYCLE, q->cycle, TCA_ETHEREAL_PAD) ||
	    nla_put_u32(skb, TCA_ETHEREAL_RT_LIMIT, q->rt_limit) ||
	    nla_put_u8(skb, TCA_ETHEREAL_MODE, q->mode) ||
	    nla_put_u32(skb, TCA_ETHEREAL_BE_LIMIT, q->be_limit) ||
	    nla_put_u64_64bit(skb, TCA_ETHEREAL_DISCARD_WINDOW, q->discard_window,
			      TCA_ETHEREAL_PAD) ||
	    nla_put_u64_64bit(skb, TCA_ETHEREAL_LINK_BURST, q->link_burst,
			      TCA_ETHEREAL_PAD) ||
	    nla_put_u64_64bit(skb, TCA_ETHEREAL_RESERVED,
			      q->port ? q->port->reserved : 0, TCA_ETHEREAL_PAD) ||
	    nla_put_u32(skb, TCA_ETHEREAL_CONNS, q->n_classes) ||
	    nla_put_u32(skb, TCA_ETHEREAL_RT_BUFFER, q->rt_buffer) ||
	    nla_put_u32(skb, TCA_ETHEREAL_MAX_CONNS, q->max_conns) ||
	    nla_put_u32(skb, TCA_ETHEREAL_BUFFERED,
			q->port ? min_t(u64, q->port->buffered, U32_MAX) : 0) ||
	    ethereal_dump_delay(q, skb))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

static int ethereal_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct ethereal_sched *q = qdisc_priv(sch);
	struct tc_ethereal_xstats st;

	/* tc dumps without the qdisc's lock; the packet path changes these. */
	sch_tree_lock(sch);
	st = q->x;
	st.be_backlog = q->be_backlog;
	st.be_qlen = q->be.qlen;
	sch_tree_unlock(sch);
	if (q->port) {
		u64 sum[ETHEREAL_N_COUNTERS];

		ethereal_stats_sum(q->port->stats, sum);
		st.discards = sum[ETHEREAL_DROP_EARLY];
	}
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

struct Qdisc_ops ethereal_qdisc_ops __read_mostly = {
	.cl_ops		= &ethereal_class_ops,
	.id		= "ethereal",
	.priv_size	= sizeof(struct ethereal_sched),
	.enqueue	= ethereal_enqueue,
	.dequeue	= ethereal_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= ethereal_qdisc_init,
	.reset		= ethereal_reset,
	.destroy	= ethereal_destroy,
	.change		= ethereal_change,
	.dump		= ethereal_dump,
	.dump_stats	= ethereal_dump_stats,
	.owner		= THIS_MODULE,
};

int __init ethereal_sched_register(void)
{
	return register_qdisc(&ethereal_qdisc_ops);
}

void ethereal_sched_unregister(void)
{
	unregister_qdisc(&ethereal_qdisc_ops);
}
