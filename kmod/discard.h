/* SPDX-License-Identifier: GPL-2.0 */
/* discard.c: preemptive discard on a peripheral port's ingress */
#ifndef _ETHEREAL_DISCARD_H
#define _ETHEREAL_DISCARD_H

#include <linux/atomic.h>
#include <linux/types.h>

struct ethereal_port;
struct sk_buff;

/*
 * Preemptive discard (Section 3.3): the host's non-real-time traffic held
 * to its residual bandwidth, a window's worth ahead of it at most: a leaky
 * bucket as one clock (ethereal_gcra()).
 */
struct ethereal_discard {
	u64 window;			/* ns, 0: off; published after residual */
	u64 link;			/* bit/s, from the port's qdisc */
	u64 residual;			/* bit/s: link less the host's reservations */
	atomic64_t due;			/* 1/16 ns: when what was accepted will have drained */
};

void ethereal_discard_set(struct ethereal_port *port, u64 link, u64 window);
void ethereal_discard_update(struct ethereal_port *port);
bool ethereal_discard(struct ethereal_port *port, const struct sk_buff *skb);

#endif /* _ETHEREAL_DISCARD_H */
