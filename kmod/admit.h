/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EtheReal: the arithmetic of reservations, shared by the module and the
 * native unit tests (selftests/unit/admit_test.c, on selftests/unit/kshim.h),
 * so it needs nothing of the kernel but integers, mul_u64_u64_div_u64() and
 * mul_u64_u64_shr(). admit.c, which applies it to a port, is the module's
 * alone.
 *
 * Rates are bit/s of whole Ethernet frames (header included, no preamble,
 * FCS or gap); sizes are bytes; times are nanoseconds.
 */
#ifndef _ETHEREAL_ADMIT_H
#define _ETHEREAL_ADMIT_H

#ifdef __KERNEL__
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/types.h>
#endif
#include <linux/ethereal.h>

struct ethereal_port;
struct netlink_ext_ack;

#define ETHEREAL_NSEC_PER_SEC 1000000000ULL

/*
 * A * B / C, or U64_MAX when the quotient does not fit (or C is 0):
 * mul_u64_u64_div_u64() would raise a divide error on x86-64. Every helper
 * below goes through it, so no input, however large, can fault; the
 * netlink and signaling bounds (ETHEREAL_RATE_MIN/MAX and the like) keep
 * results far below the saturation in practice.
 */
static inline u64 ethereal_mul_div(u64 a, u64 b, u64 c)
{
	if (!c || mul_u64_u64_shr(a, b, 64) >= c)
		return U64_MAX;
	return mul_u64_u64_div_u64(a, b, c);
}

/* Time a frame of LEN bytes takes at RATE bit/s, rounded up. */
static inline u64 ethereal_tx_ns(u64 len, u64 rate)
{
	u64 ns = ethereal_mul_div(len, 8 * ETHEREAL_NSEC_PER_SEC, rate);

	return ns == U64_MAX ? ns : ns + 1;
}

/* Bytes RATE bit/s carries in NS nanoseconds (rounded down). */
static inline u64 ethereal_bytes_in(u64 rate, u64 ns)
{
	return ethereal_mul_div(rate, ns, 8 * ETHEREAL_NSEC_PER_SEC);
}

/*
 * TIME advanced by what LEN bytes take at RATE, exactly in the long run:
 * *FRAC carries what is left beyond whole nanoseconds, in bit-ns (below
 * RATE), from one frame to the next. Rounding each frame up instead
 * (ethereal_tx_ns()) made a shaper's clock fall behind a source at
 * exactly the rate, 83 us a second at 1 Gbit/s, until its queue overflowed.
 * LEN is a frame (at most 2^17 bytes here), RATE at most
 * ETHEREAL_RATE_MAX: nothing overflows.
 */
static inline u64 ethereal_tx_advance(u64 time, u64 len, u64 rate, u64 *frac)
{
	u64 rem, ns;

	if (!rate || len > (1ULL << 17))
		return U64_MAX;
	ns = div64_u64_rem(len * 8 * ETHEREAL_NSEC_PER_SEC + *frac, rate, &rem);
	*frac = rem;
	return time > U64_MAX - ns ? U64_MAX : time + ns;
}

/*
 * The bytes RATE carries in CYCLES cycles of NS each, exactly in the long
 * run: *FRAC carries what is left beyond whole bytes, in bit-ns (below
 * 8e9). ethereal_bytes_in() drops the fraction each time: 1 kbit/s in a
 * 10 ms cycle is 1.25 bytes, and a cycle's credit of 1 lost a fifth of it.
 */
static inline u64 ethereal_bytes_advance(u64 rate, u64 ns, u64 cycles, u64 *frac)
{
	const u64 unit = 8 * ETHEREAL_NSEC_PER_SEC;
	u64 q = ethereal_mul_div(rate, ns, unit), rem;

	if (q == U64_MAX)
		return U64_MAX;
	/* rate x ns - q x unit, exact in 64 bits: it is below unit */
	rem = rate * ns - q * unit;
	if (cycles > (1ULL << 30))
		cycles = 1ULL << 30;
	rem = rem * cycles + *frac;
	*frac = rem % unit;
	return q * cycles + rem / unit;
}

/* Whether RATE is one a reservation or a port may have. */
static inline int ethereal_rate_valid(u64 rate)
{
	return rate >= ETHEREAL_RATE_MIN && rate <= ETHEREAL_RATE_MAX;
}

/* Real-time bandwidth a port may reserve: PCT percent of its LINK rate. */
static inline u64 ethereal_rt_capacity(u64 link, u32 pct)
{
	return ethereal_mul_div(link, pct, 100);
}

/* Whether RATE more fits beside RESERVED on a port. */
static inline int ethereal_admits(u64 link, u32 pct, u64 reserved, u64 rate)
{
	u64 cap = ethereal_rt_capacity(link, pct);

	return reserved <= cap && rate <= cap - reserved;
}

/* The paper's best-effort queue: twice what the link carries in a cycle. */
static inline u64 ethereal_be_limit_default(u64 link, u64 cycle_ns)
{
	return ethereal_bytes_in(link, 2 * cycle_ns);
}

/* A connection's default burst: 10 ms of its rate, at least two frames. */
static inline u64 ethereal_burst_default(u64 rate, u32 max_pkt)
{
	u64 b = ethereal_bytes_in(rate, 10000000ULL);

	return b < 2ULL * max_pkt ? 2ULL * max_pkt : b;
}

/*
 * Preemptive discard's clock counts 1/16 ns: ktime_get_ns() << 4 lasts 36
 * years, and a frame's time at the residual loses at most a 16th of a
 * nanosecond to rounding, in the host's favour (0.05% of a 1514-byte frame
 * at 100 Gbit/s, 1.1% of a 64-byte one).
 */
#define ETHEREAL_DISCARD_SHIFT 4

/*
 * What the host on a peripheral port may send of non-real-time traffic:
 * the link rate less its own reservations, bit/s.
 */
static inline u64 ethereal_residual(u64 link, u64 reserved_in)
{
	return reserved_in >= link ? 0 : link - reserved_in;
}

/*
 * The time, in the discard's units, LEN bytes take at the RESIDUAL (not 0):
 * rounded down, so that a host sending at exactly its residual is never
 * held below it.
 */
static inline u64 ethereal_residual_cost(u64 len, u64 residual)
{
	return ethereal_mul_div(len, (8 * ETHEREAL_NSEC_PER_SEC) << ETHEREAL_DISCARD_SHIFT,
				residual);
}

/*
 * The virtual scheduling algorithm of ATM's GCRA (ITU-T I.371), a leaky
 * bucket as one clock: *DUE is when what was accepted will have drained at
 * the residual. A frame of COST is accepted at NOW when that leaves *DUE
 * at most TAU (the window) ahead of NOW, and *DUE moves past it: a host
 * may run ahead of its residual by a window, and in the long run is held
 * to it exactly. A frame longer than the whole window (a GRO aggregate on
 * a slow link) passes an empty bucket, or it would never pass.
 */
static inline bool ethereal_gcra(u64 *due, u64 now, u64 cost, u64 tau)
{
	u64 start = *due > now ? *due : now;

	if (start - now > (cost < tau ? tau - cost : 0) || cost > U64_MAX - start)
		return false;
	*due = start + cost;
	return true;
}

/* What an output port admits within: its qdisc's settings, or defaults. */
struct ethereal_limits {
	u64 rate;		/* the link, bit/s */
	u32 rt_limit;		/* percent of it real time may reserve */
	u32 max_conns;
	u32 rt_buffer;		/* bytes of connection queues */
	/* Delay bounds: only a port our qdisc schedules has them. */
	bool sched;
	bool paced;		/* the qdisc's mode */
	u64 cycle;		/* ns */
	u64 delay;		/* the budget, ns; 0: the default (bound.h) */
	u32 l_be;		/* bytes: the port's largest best-effort frame */
};

#define ETHEREAL_RT_BUFFER_NS	1000000000ULL	/* default pool: 1 s of the link */
#define ETHEREAL_CYCLE_DEFAULT	10000000ULL	/* the paper's 10 ms */
/*
 * The most bunching a connection's queue takes in beyond its stay
 * (admit.c): a discard window past it is one that no longer tames the
 * host's queue, and seconds of a real-time stream are of no use queued.
 */
#define ETHEREAL_HOST_JITTER_MAX_NS	1000000000ULL

/* What admission tells of a connection it takes (bound.h). */
struct ethereal_admission {
	u64 dl_b;		/* paced: B_j, and the burst it is policed to */
	u64 dl_v;		/* cyclic: V_j */
	u64 budget;		/* the port's, promised; U64_MAX: none */
	u64 hop;		/* the bound promised here; U64_MAX: none */
	u64 tol;		/* the burst the port polices it to */
	u64 jitter;		/* ns its frames may come late, bunched (a host's) */
	u64 queue;		/* bytes: its queue's limit, charged to rt-buffer */
};

struct ethereal_conn;
struct ethereal_conn_cfg;

/* admit.c: a port's admission, RTNL and the switch's lock held */
int ethereal_port_admit(struct ethereal_port *port, const struct ethereal_conn_cfg *cfg,
			u64 max_hop, struct ethereal_admission *a,
			struct netlink_ext_ack *extack);
int ethereal_port_fits(struct ethereal_port *port, const struct ethereal_limits *l,
		       struct netlink_ext_ack *extack);
void ethereal_port_dl_add(struct ethereal_port *port, const struct ethereal_conn *conn);
void ethereal_port_dl_del(struct ethereal_port *port, const struct ethereal_conn *conn);
void ethereal_port_dl_rebase(struct ethereal_port *port, u64 cycle);
void ethereal_port_queues_update(struct ethereal_port *port);
u64 ethereal_limits_budget(const struct ethereal_limits *l);
u64 ethereal_port_dl_used(const struct ethereal_port *port, const struct ethereal_limits *l);
u32 ethereal_port_l_be(const struct ethereal_port *port, u32 mtu);

#endif /* _ETHEREAL_ADMIT_H */
