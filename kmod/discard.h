/* SPDX-License-Identifier: GPL-2.0 */
/* discard.c: preemptive discard on a peripheral port's ingress */
#ifndef _ETHEREAL_DISCARD_H
#define _ETHEREAL_DISCARD_H

#include <linux/atomic.h>
#include <linux/types.h>

struct ethereal_port;
struct sk_buff;

/*
 * Preemptive discard (Section 3.3): the non-real-time bytes a host sent
 * over a sliding window, approximated by the current window and the
 * previous one weighted by how much of it still overlaps.
 */
struct ethereal_discard {
	u64 window;			/* ns, 0: off */
	u64 limit;			/* bytes per window: the host's residual */
	u64 link;			/* bit/s, from the port's qdisc */
	atomic64_t start;		/* of the current window, ns */
	atomic64_t cur;			/* bytes accepted in it */
	atomic64_t prev;		/* in the window before */
};

void ethereal_discard_set(struct ethereal_port *port, u64 link, u64 window);
void ethereal_discard_update(struct ethereal_port *port);
bool ethereal_discard(struct ethereal_port *port, const struct sk_buff *skb);

#endif /* _ETHEREAL_DISCARD_H */
