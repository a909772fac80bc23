// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptive discard (Section 3.3 of the paper): on a peripheral port's
 * ingress, a host whose non-real-time traffic over a sliding window exceeds
 * its link's residual bandwidth (link rate minus that host's reservations)
 * loses its non-real-time packets early, so that TCP backs off before it
 * fills the host's own queue in front of its real-time traffic.
 *
 * The window is approximated with two fixed ones, the previous weighted by
 * how much of it still overlaps the sliding window. Counters are atomics on
 * the port: no lock, and only hosts on peripheral ports with the discard
 * on pay for it.
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
	WRITE_ONCE(d->limit, ethereal_residual_bytes(d->link, port->reserved_in,
						     READ_ONCE(d->window)));
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
	u64 now, start, elapsed, est, len;

	if (!window || READ_ONCE(port->role) != ETHEREAL_PORT_PERIPHERAL ||
	    !ethereal_discard_counts(skb))
		return false;

	now = ktime_get_ns();
	start = atomic64_read(&d->start);
	elapsed = now > start ? now - start : 0;
	if (elapsed >= window) {
		/* One CPU moves the window on; the others use what it left. */
		u64 next = elapsed >= 2 * window ? now : start + window;

		if (atomic64_cmpxchg(&d->start, start, next) == start) {
			u64 cur = atomic64_xchg(&d->cur, 0);

			atomic64_set(&d->prev, elapsed >= 2 * window ? 0 : cur);
		}
		start = atomic64_read(&d->start);
		elapsed = now > start ? min(now - start, window) : 0;
	}
	est = atomic64_read(&d->cur) +
	      mul_u64_u64_div_u64(atomic64_read(&d->prev), window - elapsed, window);
	/* skb->len starts at the network header here. */
	len = ETH_HLEN + skb->len;
	if (est + len > READ_ONCE(d->limit))
		return true;
	atomic64_add(len, &d->cur);
	return false;
}
