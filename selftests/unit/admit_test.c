// SPDX-License-Identifier: GPL-2.0
/* kmod/admit.h: the arithmetic of reservations. */
#include "kselftest_harness.h"
#include "admit.h"

TEST(transmission_time)
{
	/* 1514 bytes at 100 Mbit/s: 121.12 us */
	EXPECT_EQ(121121ULL, ethereal_tx_ns(1514, 100000000));
	/* a byte at 8 bit/s takes a second, plus the rounding nanosecond */
	EXPECT_EQ(1000000001ULL, ethereal_tx_ns(1, 8));
	/* 64 KiB at 1 bit/s, no overflow */
	EXPECT_EQ(524288000000001ULL, ethereal_tx_ns(65536, 1));
	/* 4 GiB at 1 kbit/s */
	EXPECT_EQ(34359738360000001ULL, ethereal_tx_ns(UINT32_MAX, 1000));
}

TEST(bytes_per_interval)
{
	/* 50 Mbit/s for the paper's 10 ms cycle: 62,500 bytes */
	EXPECT_EQ(62500ULL, ethereal_bytes_in(50000000, 10000000));
	EXPECT_EQ(0ULL, ethereal_bytes_in(7, 1000000));
	EXPECT_EQ(125000000000ULL, ethereal_bytes_in(1000000000000ULL, 1000000000));
}

/* Shapers' clocks and cycles' credit keep the fractions: exact in the long run. */
TEST(exact_in_the_long_run)
{
	u64 t = 0, frac = 0, bytes = 0;
	unsigned int i;

	/* a second of 1514-byte frames at 1 Gbit/s: 82,562 frames, 999.98 ms */
	for (i = 0; i < 82562; i++)
		t = ethereal_tx_advance(t, 1514, 1000000000ULL, &frac);
	EXPECT_EQ(82562ULL * 1514 * 8, t);
	EXPECT_EQ(0ULL, frac);
	/* 100 frames of 1000 bytes at 3 bit/s less than 1 Mbit/s */
	t = 0;
	frac = 0;
	for (i = 0; i < 100; i++)
		t = ethereal_tx_advance(t, 1000, 999997, &frac);
	EXPECT_EQ(800002400ULL, t);		/* 8e14 / 999997, floor */
	/* rounding each up would have gained a ns per frame */
	EXPECT_LT(t, 100 * ethereal_tx_ns(1000, 999997));

	/* 1 kbit/s in 10 ms cycles: 1.25 bytes each, 5 in four */
	frac = 0;
	for (i = 0; i < 4; i++)
		bytes += ethereal_bytes_advance(1000, 10000000, 1, &frac);
	EXPECT_EQ(5ULL, bytes);
	EXPECT_EQ(0ULL, frac);
	/* missed cycles credited at once: the same */
	frac = 0;
	EXPECT_EQ(5ULL, ethereal_bytes_advance(1000, 10000000, 4, &frac));
	/* 50 Mbit/s, the paper's 10 ms: 62,500 a cycle, nothing left over */
	frac = 0;
	EXPECT_EQ(62500ULL, ethereal_bytes_advance(50000000, 10000000, 1, &frac));
	EXPECT_EQ(0ULL, frac);
	/* no fault at the edges */
	frac = 0;
	EXPECT_EQ(U64_MAX, ethereal_tx_advance(0, 1514, 0, &frac));
	EXPECT_EQ(U64_MAX, ethereal_tx_advance(U64_MAX - 1, 1514, 1000, &frac));
	frac = 0;
	ethereal_bytes_advance(ETHEREAL_RATE_MAX, ETHEREAL_CYCLE_MAX_NS, U64_MAX, &frac);
}

TEST(admission_at_the_limit)
{
	/* 60% of 100 Mbit/s */
	EXPECT_TRUE(ethereal_admits(100000000, 60, 0, 60000000));
	EXPECT_FALSE(ethereal_admits(100000000, 60, 0, 60000001));
	EXPECT_TRUE(ethereal_admits(100000000, 60, 50000000, 10000000));
	EXPECT_FALSE(ethereal_admits(100000000, 60, 50000000, 10000001));
	/* already over (limit lowered below the reservations): nothing fits */
	EXPECT_FALSE(ethereal_admits(100000000, 60, 70000000, 1));
	EXPECT_FALSE(ethereal_admits(100000000, 0, 0, 1));
	EXPECT_TRUE(ethereal_admits(100000000, 100, 0, 100000000));
	/* no overflow near the top */
	EXPECT_TRUE(ethereal_admits(UINT64_MAX / 2, 100, 0, UINT64_MAX / 4));
	EXPECT_FALSE(ethereal_admits(1000, 60, 0, UINT64_MAX));
}

TEST(defaults)
{
	/* be-limit: 2 x rate x cycle: 250,000 bytes at 100 Mbit/s, 10 ms */
	EXPECT_EQ(250000ULL, ethereal_be_limit_default(100000000, 10000000));
	/* burst: 10 ms of the rate, at least two frames */
	EXPECT_EQ(62500ULL, ethereal_burst_default(50000000, 1514));
	EXPECT_EQ(3028ULL, ethereal_burst_default(64000, 1514));
}

TEST(residual_for_preemptive_discard)
{
	/* 100 Mbit/s link, 30 reserved, 50 ms window: 70 Mbit/s -> 437,500 bytes */
	EXPECT_EQ(437500ULL, ethereal_residual_bytes(100000000, 30000000, 50000000));
	EXPECT_EQ(0ULL, ethereal_residual_bytes(100000000, 100000000, 50000000));
	EXPECT_EQ(0ULL, ethereal_residual_bytes(100000000, 200000000, 50000000));
}

/*
 * Whatever a user passes, no helper faults (a quotient past 64 bits is a
 * divide error on x86-64, and kshim.h aborts like it): results saturate.
 * Found with tc ... ethereal rate 2^64-1 discard-window 10s.
 */
static const u64 edges[] = {
	0, 1, 7, 8, 1000, UINT32_MAX, UINT32_MAX + 1ULL, 1ULL << 63,
	UINT64_MAX - 1, UINT64_MAX,
};

TEST(edge_values_never_fault)
{
	size_t i, j;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		for (j = 0; j < sizeof(edges) / sizeof(edges[0]); j++) {
			u64 a = edges[i], b = edges[j];

			ethereal_tx_ns(a, b);
			ethereal_bytes_in(a, b);
			ethereal_rt_capacity(a, (u32)b);
			ethereal_admits(a, 100, b, a);
			ethereal_be_limit_default(a, b);
			ethereal_burst_default(a, (u32)b);
			ethereal_residual_bytes(a, b, a);
			ethereal_residual_bytes(a, 0, b);
		}
	}
	/* 10 s of 2^64-1 bit/s, and a frame at 0 bit/s: saturated */
	EXPECT_EQ(UINT64_MAX, ethereal_residual_bytes(UINT64_MAX, 0, 10000000000ULL));
	EXPECT_EQ(UINT64_MAX, ethereal_tx_ns(1514, 0));
	EXPECT_EQ(UINT64_MAX, ethereal_tx_ns(UINT32_MAX, 1));
	/* inside the bounds, exact: 10 s at the largest rate */
	EXPECT_EQ(ETHEREAL_RATE_MAX / 8 * 10,
		  ethereal_bytes_in(ETHEREAL_RATE_MAX, 10000000000ULL));
	/* the largest burst at the smallest rate still fits in 64 bits */
	EXPECT_GT(UINT64_MAX / 4, ethereal_tx_ns(UINT32_MAX, ETHEREAL_RATE_MIN));
}

TEST(rate_bounds)
{
	EXPECT_FALSE(ethereal_rate_valid(0));
	EXPECT_FALSE(ethereal_rate_valid(ETHEREAL_RATE_MIN - 1));
	EXPECT_TRUE(ethereal_rate_valid(ETHEREAL_RATE_MIN));
	EXPECT_TRUE(ethereal_rate_valid(ETHEREAL_RATE_MAX));
	EXPECT_FALSE(ethereal_rate_valid(ETHEREAL_RATE_MAX + 1));
	EXPECT_FALSE(ethereal_rate_valid(UINT64_MAX));
}

TEST_HARNESS_MAIN
