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
 * Preemptive discard: the host on a peripheral port may send this many
 * non-real-time bytes per window, the link rate minus its own reservations.
 */
static inline u64 ethereal_residual_bytes(u64 link, u64 reserved_in, u64 window_ns)
{
	return reserved_in >= link ? 0 : ethereal_bytes_in(link - reserved_in, window_ns);
}

/* What an output port admits within: its qdisc's settings, or defaults. */
struct ethereal_limits {
	u64 rate;		/* the link, bit/s */
	u32 rt_limit;		/* percent of it real time may reserve */
	u32 max_conns;
	u32 rt_buffer;		/* bytes of connection queues */
};

#define ETHEREAL_RT_BUFFER_NS	1000000000ULL	/* default pool: 1 s of the link */

/* admit.c: a port's admission, RTNL held */
int ethereal_port_admit(const struct ethereal_port *port, u64 rate, u32 burst,
			struct netlink_ext_ack *extack);
int ethereal_port_fits(const struct ethereal_port *port, const struct ethereal_limits *l,
		       struct netlink_ext_ack *extack);

#endif /* _ETHEREAL_ADMIT_H */
