// SPDX-License-Identifier: GPL-2.0
/*
 * kmod/bound.h: the arithmetic of delay bounds. The figures are worked out
 * in Documentation/delay-bounds.md's example (a 10 Mbit/s port).
 */
#include "kselftest_harness.h"
#include "bound.h"

#define MBIT 1000000ULL
#define MS 1000000ULL

TEST(control_frame_and_share)
{
	/* A 256-byte message in UDP, IPv4 and a tagged Ethernet frame. */
	EXPECT_EQ(302, ETHEREAL_CTL_FRAME_MAX);
	EXPECT_EQ(604, ETHEREAL_CTL_BURST);
	EXPECT_EQ(156250ULL, ethereal_ctl_rate(10 * MBIT));
}

TEST(paced_share_is_the_policed_burst)
{
	/* 5 Mbit/s, 10 ms of burst, 10 ms cycle: the whole burst */
	EXPECT_EQ(6250ULL, ethereal_dl_paced(5 * MBIT, 6250, 1514, 10 * MS));
	/* a larger burst is policed to one cycle's worth and a frame */
	EXPECT_EQ(6250ULL + 1514, ethereal_dl_paced(5 * MBIT, 25000, 1514, 10 * MS));
	/*
	 * A slow connection (a frame is 121 ms at 100 kbit/s) keeps a cycle
	 * of tolerance: 125 bytes beyond its frame.
	 */
	EXPECT_EQ(1514ULL + 125, ethereal_dl_paced(100000, 3028, 1514, 10 * MS));
	/* one frame of burst: no tolerance */
	EXPECT_EQ(1514ULL, ethereal_dl_paced(100000, 1514, 1514, 10 * MS));
}

/* How long a conforming frame stays at a port (what its queue must cover). */
TEST(stay)
{
	/* paced, the burst within its policing: the common term alone */
	EXPECT_EQ(3 * MS, ethereal_dl_stay(true, 10 * MS, 3 * MS, 5 * MBIT, 6250, 1514));
	/*
	 * paced, 25000 bytes of burst policed to 7764: the rest, 17236
	 * bytes, waits in the shaper at 5 Mbit/s, 27.5776 ms (rounded up)
	 */
	EXPECT_EQ(3 * MS + 27577601, ethereal_dl_stay(true, 10 * MS, 3 * MS, 5 * MBIT, 25000, 1514));
	/* cyclic: its bound over the common term */
	EXPECT_EQ(ethereal_dl_cyclic_hop(3 * MS, 5 * MBIT, 6250, 20 * MS),
		  ethereal_dl_stay(false, 20 * MS, 3 * MS, 5 * MBIT, 6250, 1514));
	/* no bound */
	EXPECT_EQ(U64_MAX, ethereal_dl_stay(true, 10 * MS, U64_MAX, 5 * MBIT, 6250, 1514));
}

/*
 * The queue holds what a conforming source can have at the port while its
 * bound holds. The fig6 case that lost frames with twice the burst: 5
 * Mbit/s, 10 ms of burst, cyclic with a 20 ms cycle (a bound of two visits
 * and the common term), which queues 12.4 full frames between visits.
 */
TEST(queue_holds_the_bound)
{
	u64 hop = ethereal_dl_cyclic_hop(2 * MS, 5 * MBIT, 6250, 20 * MS);

	EXPECT_EQ(42 * MS, hop);
	/* 6250 + 1514 + 42 ms of 5 Mbit/s */
	EXPECT_EQ(6250ULL + 1514 + 26250, ethereal_dl_queue(5 * MBIT, 6250, 1514, hop, 0));
	EXPECT_LT(12500ULL + 1514 * 13 / 10, ethereal_dl_queue(5 * MBIT, 6250, 1514, hop, 0));
	/* a host's 50 ms of jitter: as much more of the rate */
	EXPECT_EQ(6250ULL + 1514 + 26250 + 31250,
		  ethereal_dl_queue(5 * MBIT, 6250, 1514, hop, 50 * MS));
	/* never below the paper's twice the burst */
	EXPECT_EQ(2 * 100000ULL, ethereal_dl_queue(MBIT, 100000, 1514, MS, 0));
	/* no bound (no qdisc): the paper's rule */
	EXPECT_EQ(2 * 6250ULL, ethereal_dl_queue(5 * MBIT, 6250, 1514, U64_MAX, 50 * MS));
	/* saturates, so that admission refuses it for buffer */
	EXPECT_EQ(U64_MAX, ethereal_dl_queue(ETHEREAL_RATE_MAX, 6250, 1514, U64_MAX - 1, MS));
}

TEST(cyclic_share_is_a_visit)
{
	/* two cycles' credit and the frame that overdraws */
	EXPECT_EQ(2 * 6250ULL + 1514, ethereal_dl_cyclic(5 * MBIT, 1514, 10 * MS));
}

TEST(common_term)
{
	/*
	 * 10 Mbit/s less its control share (9,843,750 bit/s): a best-effort
	 * frame of 1518 bytes, the control burst, 6250 bytes of real time,
	 * and two wheel slots in paced mode: 6.84 ms.
	 */
	EXPECT_EQ(6836680ULL, ethereal_dl_common(10 * MBIT, 1518, 6250, true));
	/* cyclic: the visit of 14014 bytes, no wheel */
	EXPECT_EQ(13113702ULL, ethereal_dl_common(10 * MBIT, 1518, 14014, false));
	/* more real time ahead, a longer wait */
	EXPECT_LT(ethereal_dl_common(10 * MBIT, 1518, 6250, true),
		  ethereal_dl_common(10 * MBIT, 1518, 6251, true));
}

TEST(hop_bounds)
{
	/* paced: the budget */
	EXPECT_EQ(7 * MS, ethereal_dl_hop(true, 7 * MS, 5 * MBIT, 6250, 10 * MS));
	/* cyclic, budget under a cycle: a visit missed and one, a cycle apart */
	EXPECT_EQ(2 * 10 * MS + 7 * MS, ethereal_dl_hop(false, 7 * MS, 5 * MBIT, 6250, 10 * MS));
	/* a burst of four cycles' credit waits for four visits, and the one missed */
	EXPECT_EQ(5 * 10 * MS + 7 * MS, ethereal_dl_hop(false, 7 * MS, 5 * MBIT, 25000, 10 * MS));
	/* real time longer than a cycle stretches the cycles */
	EXPECT_EQ(2 * 20 * MS + 20 * MS, ethereal_dl_hop(false, 20 * MS, 5 * MBIT, 6250, 10 * MS));
	/* less than a byte a cycle: no bound */
	EXPECT_EQ(U64_MAX, ethereal_dl_hop(false, 7 * MS, 1000, 3028, 100000));
	/* no budget, no bound */
	EXPECT_EQ(U64_MAX, ethereal_dl_hop(true, U64_MAX, 5 * MBIT, 6250, 10 * MS));
}

TEST(default_budget_covers_the_limits)
{
	/*
	 * 10 Mbit/s, 60%, 1 s of buffer (1,250,000 bytes), 10 ms: cyclic's
	 * worst (twice 7500 bytes a cycle and half the pool) is the larger.
	 */
	EXPECT_EQ(521851531ULL,
		  ethereal_dl_budget_default(10 * MBIT, 60, 1250000, 10 * MS, 1518));
	/* any set of connections the pool admits fits it */
	EXPECT_LE(ethereal_dl_common(10 * MBIT, 1518, 625000, true),
		  ethereal_dl_budget_default(10 * MBIT, 60, 1250000, 10 * MS, 1518));
}

/* Whatever the inputs, nothing faults and results saturate. */
TEST(edges_saturate)
{
	const u64 v[] = { 0, 1, 1000, UINT32_MAX, 1ULL << 32, 1ULL << 63, U64_MAX };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		for (j = 0; j < ARRAY_SIZE(v); j++) {
			ethereal_dl_paced(v[i], v[j], v[j], v[i]);
			ethereal_dl_cyclic(v[i], v[j], v[j]);
			ethereal_dl_common(v[i], v[j] & 0xffff, v[j], i & 1);
			ethereal_dl_hop(false, v[i], v[j], v[i], v[j]);
			ethereal_dl_budget_default(v[i], (u32)v[j], v[j], v[i], 1518);
		}
	}
	EXPECT_EQ(U64_MAX, ethereal_add_sat(U64_MAX, 1));
	EXPECT_EQ(U64_MAX, ethereal_mul_sat(1ULL << 32, 1ULL << 32));
	EXPECT_EQ(0ULL, ethereal_sub_sat(1, 2));
	/* a zero-rate link bounds nothing */
	EXPECT_EQ(U64_MAX, ethereal_dl_common(0, 1518, 0, true));
}

TEST_HARNESS_MAIN
