// SPDX-License-Identifier: GPL-2.0
/*
 * The qdisc "ethereal": an EtheReal switch port's output scheduler
 * (Sections 2.3, 2.4 and 3.3 of the paper), its data path: enqueue,
 * the two modes' scheduling, dequeue. tc's options and the qdisc's life
 * are in sch_ethereal_config.c.
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
 * The queues are in sch_ethereal_class.c, the binding to the switch port
 * and the limits admission reads in sch_ethereal_port.c.
 * Locking: the data path runs under the qdisc's root lock; configuration
 * under RTNL, taking the tree lock for what the data path reads.
 */
#include <linux/skbuff.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "bound.h"
#include "compat.h"
#include "sch_ethereal.h"
#include "wheel.h"

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
void ethereal_reschedule(struct ethereal_sched *q)
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

/*
 * When a frame of LEN bytes arriving NOW conforms to its connection's
 * contract, by a GCRA clock at the reserved rate: from then on its delay
 * here counts against the port's promise (ethereal_measure()), what came
 * earlier waits outside any bound, for a source that sent more than it
 * said. Paced mode holds the frame to that time, its tolerance B_j
 * (bound.h), the burst the ACCEPT tells the host: the burst, at most a
 * cycle and the largest frame. Cyclic mode sends by credit and uses the
 * time for the count alone, its tolerance the contract's burst, against
 * which its bound is counted.
 */
static u64 paced_tol(const struct ethereal_sched *q, const struct ethereal_class *cl)
{
	return min(cl->tau, q->cycle + cl->tx_max);
}

static u64 ethereal_conform(struct ethereal_sched *q, struct ethereal_class *cl,
			    unsigned int len, u64 now)
{
	bool paced = q->mode == ETHEREAL_MODE_PACED;
	u64 tol = paced ? paced_tol(q, cl) : cl->tau;
	u64 tx = ethereal_tx_ns(len, cl->rate);
	u64 tau = tol > tx ? tol - tx : 0;
	u64 tat = cl->vtime;
	u64 start;

	/* Idle: the clock starts again from now, its fraction with it. */
	if (tat < now) {
		tat = now;
		cl->vfrac = 0;
	}
	start = tat > now + tau ? tat - tau : now;
	if (paced && start > now)
		cl->qstats.overlimits++;
	cl->vtime = ethereal_tx_advance(tat, len, cl->rate, &cl->vfrac);
	return start;
}

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

	if ((u64)cl->backlog + len > READ_ONCE(cl->limit)) {
		cl->qstats.drops++;
		q->x.rt_drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	ethereal_cb(skb)->time = ethereal_conform(q, cl, len, now);
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

int ethereal_enqueue(struct sk_buff *skb, struct Qdisc *sch, struct sk_buff **to_free)
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

/*
 * When the wheel takes a connection's next frame. By its stamp, normally.
 * But when the port ran late (LATE: for the frame just taken, or since the
 * next one arrived), the frames of a connection over its contract, whose
 * shaper's clock runs ahead of its arrivals, all fell due together: by their
 * stamps, its backlog would go back to back before the frames that arrived
 * meanwhile, delaying them by what its source sent in excess. It is owed
 * them, so it loses nothing, but takes its turn among what is due now. A
 * conforming connection keeps its stamps, which are its arrivals' order.
 * Only the order changes, and only while the port is late, when no bound
 * holds (ethereal_measure() leaves lateness out).
 */
static u64 paced_key(struct ethereal_sched *q, const struct ethereal_class *cl,
		     u64 now, bool late)
{
	const struct ethereal_skb_cb *cb = ethereal_cb(cl->q.head);

	if (cb->time >= now || cl->vtime <= now + paced_tol(q, cl))
		return cb->time;
	if (!late && cb->late == q->x.late_ns)
		return cb->time;
	q->x.late_turns++;
	return now;
}

static struct sk_buff *paced_dequeue(struct ethereal_sched *q, u64 now, u64 *next,
				     struct ethereal_class **clp)
{
	struct ethereal_wheel_item *it = ethereal_wheel_pop(&q->wheel, now);
	struct ethereal_class *cl;
	struct sk_buff *skb;
	bool late;

	if (!it) {
		*next = ethereal_wheel_next(&q->wheel);
		return NULL;
	}
	cl = container_of(it, struct ethereal_class, item);
	*clp = cl;
	skb = ethereal_class_pop(cl);
	/* as ethereal_late() counts it */
	late = now > max(q->due, ethereal_cb(skb)->time);
	if (cl->q.qlen)
		ethereal_wheel_add(&q->wheel, &cl->item, paced_key(q, cl, now, late));
	return skb;
}

/*
 * Nothing due, the link free for best effort: the frame due next may go
 * now if it is due within its connection's tolerance (the burst its shaper
 * lets through at once). A connection whose frames came bunched beyond
 * its burst (a stall upstream, a sender's host) is held to its rate at
 * the switch, and one offered near its rate drains such a backlog at the
 * rate it leaves spare, carrying one stall's delay for dozens of frames:
 * link time no frame is due for lets it catch up. Its stamps stay, so
 * over time no connection gets more than its rate and a tolerance; a due
 * frame waits for such a frame as for a best-effort one, the one frame in
 * service every bound counts (bound.h).
 */
static struct sk_buff *paced_early(struct ethereal_sched *q, u64 now,
				   struct ethereal_class **clp)
{
	struct ethereal_wheel_item *it = ethereal_wheel_peek(&q->wheel);
	struct ethereal_class *cl;
	struct sk_buff *skb;

	if (!it)
		return NULL;
	cl = container_of(it, struct ethereal_class, item);
	if (it->time > now + paced_tol(q, cl))
		return NULL;
	ethereal_wheel_del(&q->wheel, it);
	*clp = cl;
	skb = ethereal_class_pop(cl);
	if (cl->q.qlen)
		ethereal_wheel_add(&q->wheel, &cl->item, ethereal_cb(cl->q.head)->time);
	q->x.early++;
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

struct sk_buff *ethereal_dequeue(struct Qdisc *sch)
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
	if (!skb && q->ctl.qlen) {
		q->x.ctl_late++;
		skb = ethereal_ctl_pop(q, now);
		goto sent;
	}
	if (!skb && q->mode == ETHEREAL_MODE_PACED)
		skb = paced_early(q, now, &cl);
	if (skb) {
		q->x.rt_packets++;
		q->x.rt_bytes += qdisc_pkt_len(skb);
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
	/* (a frame sent early was ready when it went) */
	ready = min(ethereal_cb(skb)->time, now);
	/*
	 * Cyclic: a frame that conformed after its visit was due at the next
	 * cycle; one its credit sends before it conforms, now.
	 */
	if (cl && q->mode == ETHEREAL_MODE_CYCLIC)
		ready = min(max(ready, q->cycle_end - q->cycle), now);
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
