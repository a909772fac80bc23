// SPDX-License-Identifier: GPL-2.0
/*
 * The ethereal qdisc's configuration and life: tc's options, every number
 * bounded by the policy before any arithmetic sees it, checked against
 * what the port's connections were promised, and applied under the tree
 * lock; init, reset, destroy and the dumps.
 *
 *   tc qdisc add dev swp1 root ethereal rate 100mbit [cycle 10ms]
 *      [rt-limit 60%] [mode paced|cyclic] [be-limit BYTES] [discard-window 50ms]
 *      [rt-buffer BYTES] [max-conns N] [delay TIME|auto] [link-burst 1ms]
 *
 * Admission: real time may reserve rt-limit percent of the rate
 * (admit.c).
 */
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "discard.h"
#include "netlink.h"
#include "sch_ethereal.h"
#include "sch_ethereal_port.h"
#include "stats.h"
#include "switch.h"

/*
 * 1 ms back to back after idle: on a port slower than its device, no more
 * than that leaves at the device's speed; on one as fast, no more than that
 * goes to the driver's ring at once, out of the scheduler's order.
 */
#define ETHEREAL_LINK_BURST_DEFAULT	1000000ULL
#define ETHEREAL_RT_LIMIT_DEFAULT 60
#define ETHEREAL_MAX_CONNS_DEFAULT 4096
#define ETHEREAL_DISCARD_DEFAULT 50000000ULL

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
	if (q->port && q->port->sched == q) {
		ethereal_port_dl_rebase(q->port, cycle);
		ethereal_discard_set(q->port, rate, window);
	}
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
