// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptive discard (Section 3.3 of the paper): on a peripheral port's
 * ingress, a host whose non-real-time traffic runs ahead of its link's
 * residual bandwidth (link rate minus that host's reservations) by more
 * than a window loses its non-real-time packets early, so that TCP backs
 * off before it fills the host's own queue in front of its real-time
 * traffic.
 *
 * A leaky bucket, where the paper counts a sliding window: a count of
 * arrivals mistook frames the switch took in late and together for a host
 * over its link (Documentation/scheduler.md). Its state is one atomic
 * clock on the port: no lock, and only hosts on peripheral ports with the
 * discard on pay for it.
 */
#include <linux/if_ether.h>
#include <linux/math64.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "discard.h"
#include "switch.h"

/* The port's qdisc says how fast the link is and how long the window. */
void ethereal_discard_set(struct ethereal_port *port, u64 link, u64 window)
{
	struct ethereal_discard *d = &port->discard;

	ASSERT_RTNL();
	if (!link)
		window = 0;
	if (window != d->window) {
		/* Off first: a clock of the old window is none of the new one's. */
		smp_store_release(&d->window, 0);
		atomic64_set(&d->due, 0);
	}
	d->link = link;
	ethereal_discard_update(port);
	/* The residual before the window: on, the discard has both. */
	smp_store_release(&d->window, window);
}

/*
 * The host's reservations changed: so did its residual, and what the
 * bucket holds drains at the new one (a host that gave up a reservation
 * would otherwise be held below its new residual for a window).
 */
void ethereal_discard_update(struct ethereal_port *port)
{
	struct ethereal_discard *d = &port->discard;
	u64 residual = ethereal_residual(d->link, port->reserved_in);
	u64 now = ktime_get_ns() << ETHEREAL_DISCARD_SHIFT;
	u64 due = atomic64_read(&d->due);

	ASSERT_RTNL();
	if (residual != d->residual && d->residual && residual && due > now) {
		u64 held = ethereal_mul_div(due - now, d->residual, residual);

		atomic64_set(&d->due, now + min(held, d->window << ETHEREAL_DISCARD_SHIFT));
	}
	WRITE_ONCE(d->residual, residual);
}

static bool ethereal_discard_counts(const struct sk_buff *skb)
{
	/* ARP, STP and the like are not the traffic that needs taming. */
	return skb->protocol == htons(ETH_P_IP) || skb->protocol == htons(ETH_P_IPV6);
}

/* Whether to drop this non-real-time frame; it is counted if not. */
bool ethereal_discard(struct ethereal_port *port, const struct sk_buff *skb)
{
	struct ethereal_discard *d = &port->discard;
	u64 residual, now, cost, due, next, window;

	/* Paired with ethereal_discard_set()'s: a window on has its residual. */
	window = smp_load_acquire(&d->window);
	if (!window || READ_ONCE(port->role) != ETHEREAL_PORT_PERIPHERAL ||
	    !ethereal_discard_counts(skb))
		return false;
	residual = READ_ONCE(d->residual);
	if (!residual)
		return true;	/* the host reserved its whole link */

	now = ktime_get_ns() << ETHEREAL_DISCARD_SHIFT;
	/* skb->len starts at the network header here. */
	cost = ethereal_residual_cost(ETH_HLEN + skb->len, residual);
	due = atomic64_read(&d->due);
	do {
		next = due;
		if (!ethereal_gcra(&next, now, cost, window << ETHEREAL_DISCARD_SHIFT))
			return true;
		/* on failure, another CPU moved the clock: again from its value */
	} while (!atomic64_try_cmpxchg(&d->due, &due, next));
	return false;
}
