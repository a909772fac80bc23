/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EtheReal: the arithmetic of delay bounds (Documentation/delay-bounds.md
 * derives them), pure integers like admit.h, whose helpers it uses, so
 * that the native unit tests (selftests/unit/bound_test.c) run it too.
 *
 * A port of rate C serves, in this order: the switch's control frames
 * within their token bucket (ETHEREAL_CTL_BURST bytes, C /
 * ETHEREAL_CTL_SHARE), real time, then control frames over that bucket and
 * best effort; a frame in service is never preempted. Every connection j
 * leaving the port adds to what real time may have ready at once:
 *
 *   paced   B_j = max(L_j, min(b_j, r_j x cycle + L_j)), what its shaper
 *           lets through at once (the burst it polices to: a tolerance of
 *           what b_j holds beyond a frame, at most a cycle);
 *   cyclic  V_j = 2 x r_j x cycle + L_j, the most one visit sends (a
 *           cycle's credit, one carried over, and the frame that overdraws).
 *
 * The port's common term, the most any real-time frame waits for others
 * and for best effort, is (L_be + ETHEREAL_CTL_BURST + sum) / (C - C /
 * ETHEREAL_CTL_SHARE), plus two wheel slots in paced mode. Admission keeps
 * it within the port's budget T (TCA_ETHEREAL_DELAY), and promises:
 *
 *   paced   T: the frame's own connection is in the sum;
 *   cyclic  (ceil(b_i / q_i) + 1) x max(cycle, T) + T, q_i = r_i x cycle:
 *           a visit missed, then as many as its burst needs, each at most
 *           a (possibly stretched) cycle apart.
 *
 * Rates are bit/s, sizes bytes, times ns; every result saturates at
 * U64_MAX, which means "no bound".
 */
#ifndef _ETHEREAL_BOUND_H
#define _ETHEREAL_BOUND_H

#ifdef __KERNEL__
#include <linux/bits.h>
#endif
#include <linux/ethereal_sig.h>

#include "admit.h"

/*
 * The switch's largest control frame: a signaling message in UDP over
 * IPv4, in a VLAN-tagged Ethernet frame. ARP probes are smaller.
 */
#define ETHEREAL_CTL_FRAME_MAX	(14 + 4 + 20 + 8 + ETHEREAL_SIG_MAX_LEN)
/* Control goes ahead of real time within two such frames, ... */
#define ETHEREAL_CTL_BURST	(2 * ETHEREAL_CTL_FRAME_MAX)
/* ... at 1/64 of the link. */
#define ETHEREAL_CTL_SHARE	64
/* The paced scheduler's timing wheel releases a frame up to a slot early. */
#define ETHEREAL_DELAY_GRAIN_NS	BIT_ULL(14)

static inline u64 ethereal_add_sat(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

static inline u64 ethereal_sub_sat(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

static inline u64 ethereal_mul_sat(u64 a, u64 b)
{
	return a && b > U64_MAX / a ? U64_MAX : a * b;
}

static inline u64 ethereal_ctl_rate(u64 link)
{
	return link / ETHEREAL_CTL_SHARE;
}

/* Paced: B_j, which is also the burst the switch polices the connection to. */
static inline u64 ethereal_dl_paced(u64 rate, u64 burst, u64 max_pkt, u64 cycle)
{
	u64 b = ethereal_add_sat(ethereal_bytes_in(rate, cycle), max_pkt);

	if (b > burst)
		b = burst;
	return b < max_pkt ? max_pkt : b;
}

/* Cyclic: V_j. */
static inline u64 ethereal_dl_cyclic(u64 rate, u64 max_pkt, u64 cycle)
{
	u64 q = ethereal_bytes_in(rate, cycle);

	return ethereal_add_sat(ethereal_add_sat(q, q), max_pkt);
}

/*
 * The common term of a port of rate LINK whose largest best-effort frame
 * is L_BE bytes, when its connections add up to SUM (B_j or V_j).
 */
static inline u64 ethereal_dl_common(u64 link, u64 l_be, u64 sum, bool paced)
{
	u64 ns;

	if (link <= ethereal_ctl_rate(link))
		return U64_MAX;
	ns = ethereal_tx_ns(ethereal_add_sat(l_be + ETHEREAL_CTL_BURST, sum),
			    link - ethereal_ctl_rate(link));
	return paced ? ethereal_add_sat(ns, 2 * ETHEREAL_DELAY_GRAIN_NS) : ns;
}

/* Cyclic: the visits a connection's burst waits for, the first missed. */
static inline u64 ethereal_dl_visits(u64 rate, u64 burst, u64 cycle)
{
	u64 q = ethereal_bytes_in(rate, cycle);

	if (!q || q == U64_MAX)
		return U64_MAX;
	return burst / q + (burst % q ? 1 : 0) + 1;
}

/*
 * A connection's bound at a cyclic port whose common term is at most
 * COMMON: its visits, each at most a cycle apart, or COMMON when the real
 * time of a cycle runs longer, and the common term itself.
 */
static inline u64 ethereal_dl_cyclic_hop(u64 common, u64 rate, u64 burst, u64 cycle)
{
	return ethereal_add_sat(ethereal_mul_sat(ethereal_dl_visits(rate, burst, cycle),
						 cycle > common ? cycle : common), common);
}

/*
 * The bound promised at a port of budget T to a connection (RATE, BURST),
 * paced or cyclic.
 */
static inline u64 ethereal_dl_hop(bool paced, u64 budget, u64 rate, u64 burst, u64 cycle)
{
	if (paced || budget == U64_MAX)
		return budget;
	return ethereal_dl_cyclic_hop(budget, rate, burst, cycle);
}

/*
 * The longest a conforming frame of a connection (RATE, BURST, MAX_PKT)
 * stays at a port whose common term is COMMON (U64_MAX: no bound): paced,
 * its shaper's hold of what its burst has beyond what it is policed to
 * (B_j), then the common term; cyclic, its bound.
 */
static inline u64 ethereal_dl_stay(bool paced, u64 cycle, u64 common, u64 rate, u64 burst,
				   u64 max_pkt)
{
	u64 held;

	if (common == U64_MAX)
		return U64_MAX;
	if (!paced)
		return ethereal_dl_cyclic_hop(common, rate, burst, cycle);
	held = ethereal_sub_sat(burst, ethereal_dl_paced(rate, burst, max_pkt, cycle));
	return ethereal_add_sat(common, held ? ethereal_tx_ns(held, rate) : 0);
}

/*
 * The queue of a connection (RATE, BURST, MAX_PKT) whose conforming frames
 * stay at most STAY at a port, and may arrive up to JITTER late, bunched (a
 * host's own queue in front of its first switch): every byte of it that
 * can be there at once while it keeps its contract, so that no conforming
 * frame is dropped for want of room. What is queued arrived within STAY,
 * so the queue holds what the source may send in STAY and JITTER more, its
 * burst and a frame for the rounding; never less than the paper's twice
 * the burst. A port that bounds nothing (STAY U64_MAX) keeps the paper's
 * rule.
 */
static inline u64 ethereal_dl_queue(u64 rate, u64 burst, u64 max_pkt, u64 stay, u64 jitter)
{
	u64 floor = ethereal_add_sat(burst, burst), q;

	if (stay == U64_MAX)
		return floor;
	q = ethereal_add_sat(ethereal_add_sat(burst, max_pkt),
			     ethereal_bytes_in(rate, ethereal_add_sat(stay, jitter)));
	return q > floor ? q : floor;
}

/*
 * The budget a port has when the operator sets none: what its limits
 * imply, so that admission refuses nothing more than they already do. The
 * sum of B_j is at most half the buffer pool (B_j <= b_j, and each
 * connection's queue takes at least 2 x b_j), that of V_j at most twice the real
 * time a cycle carries plus as much: the larger of the two common terms.
 */
static inline u64 ethereal_dl_budget_default(u64 link, u32 rt_limit, u64 rt_buffer,
					     u64 cycle, u64 l_be)
{
	u64 cap = ethereal_bytes_in(ethereal_rt_capacity(link, rt_limit), cycle);
	u64 v = ethereal_add_sat(ethereal_add_sat(cap, cap), rt_buffer / 2);
	u64 paced = ethereal_dl_common(link, l_be, rt_buffer / 2, true);
	u64 cyclic = ethereal_dl_common(link, l_be, v, false);

	return paced > cyclic ? paced : cyclic;
}

#endif /* _ETHEREAL_BOUND_H */
