// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptive discard (Section 3.3 of the paper): on a peripheral port's
 * ingress, a host whose non-real-time traffic over a sliding window exceeds
 * its link's residual bandwidth (link rate minus that host's reservations)
 * loses its non-real-time packets early, so that TCP backs off before it
 * fills the host's own queue in front of its real-time traffic.
 *
 * The paper counts the bytes of a sliding window. Here the count is a
 * leaky bucket draining at the residual, a window deep (ethereal_gcra()):
 * the same limit for a host that keeps sending too much, but a host within
 * its residual whose frames the switch took in late and together (NAPI,
 * interrupt coalescing, a stalled CPU) is not counted as over it. Its state
 * is one atomic clock on the port: no lock, and only hosts on peripheral
 * ports with the discard on pay for it.
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
	ASSERT_RTNL();
	port->discard.link = link;
	WRITE_ONCE(port->discard.window, link ? window : 0);
	ethereal_discard_update(port);
}

/* The host's reservations changed: so did its residual. */
void ethereal_discard_update(struct ethereal_port *port)
{
	struct ethereal_discard *d = &port->discard;

	ASSERT_RTNL();
	/* The bucket's clock is time, whatever the rate: nothing to rebase. */
	WRITE_ONCE(d->residual, ethereal_residual(d->link, port->reserved_in));
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
	u64 window = READ_ONCE(d->window);
	u64 residual, now, cost, due, next;

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
		next = ethereal_gcra(due, now, cost, window << ETHEREAL_DISCARD_SHIFT);
		if (!next)
			return true;
	} while (!atomic64_try_cmpxchg(&d->due, &due, next));
	return false;
}
