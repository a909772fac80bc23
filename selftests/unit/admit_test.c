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
	/* 100 Mbit/s link, 30 reserved: 70 Mbit/s of best effort */
	EXPECT_EQ(70000000ULL, ethereal_residual(100000000, 30000000));
	EXPECT_EQ(0ULL, ethereal_residual(100000000, 100000000));
	EXPECT_EQ(0ULL, ethereal_residual(100000000, 200000000));
	/* 1514 bytes at 70 Mbit/s: 173.03 us, in 16ths of a ns, rounded down */
	EXPECT_EQ(2768457ULL, ethereal_residual_cost(1514, 70000000));
}

#define MS 1000000ULL
#define SEC 1000000000ULL

/*
 * The preemptive discard's bucket (kmod/discard.c) fed a host's best effort
 * of LEN-byte frames sent evenly at RATE, for SECS: the switch takes in the
 * frames late by up to STALL of every PERIOD (its receive path stalled,
 * what arrived meanwhile taken in together at the end). Returns the bytes
 * accepted; *DROPS the frames refused.
 */
static u64 discard_run(u64 residual, u64 window, u64 len, u64 rate, u64 secs,
		       u64 stall, u64 period, u64 *drops)
{
	const u64 t0 = 1000 * SEC, tau = window << ETHEREAL_DISCARD_SHIFT;
	u64 due = 0, bytes = 0, cost = ethereal_residual_cost(len, residual);
	u64 i, n = ethereal_bytes_in(rate, secs * SEC) / len;

	*drops = 0;
	for (i = 0; i < n; i++) {
		/* sent at i frames' time at RATE, exactly; taken in after a stall */
		u64 t = mul_u64_u64_div_u64(i * len, 8 * SEC, rate);

		if (period && t % period < stall)
			t += stall - t % period;
		if (ethereal_gcra(&due, (t0 + t) << ETHEREAL_DISCARD_SHIFT, cost, tau))
			bytes += len;
		else
			(*drops)++;
	}
	return bytes;
}

/*
 * A host within its residual loses nothing, however late the switch takes
 * its frames in, up to the window less a frame time. The two fixed windows
 * this replaced dropped one frame in 150 of a host at 98% of a 10 Mbit/s
 * link with no reservation, on the emulated machine (bench/throughput,
 * alone).
 */
TEST(discard_spares_a_host_within_its_residual)
{
	u64 drops;

	/* 98% of 10 Mbit/s, 30 ms of every 100 taken in late, 50 ms window */
	discard_run(10000000, 50 * MS, 1514, 9800000, 60, 30 * MS, 100 * MS, &drops);
	EXPECT_EQ(0ULL, drops);
	/* 99.9%, a stall of the window less two frame times (1.2 ms each)... */
	discard_run(10000000, 50 * MS, 1514, 9990000, 60, 47 * MS, 300 * MS, &drops);
	EXPECT_EQ(0ULL, drops);
	/* ...but not one of the window and a frame time */
	discard_run(10000000, 50 * MS, 1514, 9990000, 60, 51 * MS, 300 * MS, &drops);
	EXPECT_GT(drops, 0ULL);
	/*
	 * Exactly the residual, 64-byte frames at 60 Gbit/s: rounding never
	 * drops. Rounded up (137 sixteenths of a ns, not 136.53), the clock
	 * would run 340 us ahead in 0.1 s, past this 100 us window.
	 */
	discard_run(60000000000ULL, 100000, 64, 60000000000ULL, 1, 0, 0, &drops);
	EXPECT_EQ(0ULL, drops);
}

/* A host over its residual is held to it, a window's worth ahead at most. */
TEST(discard_holds_a_host_to_its_residual)
{
	u64 drops, bytes, want = ethereal_bytes_in(40000000, 10 * SEC);
	u64 ahead = ethereal_bytes_in(40000000, 50 * MS);

	/* 80 Mbit/s of best effort beside 60 reserved on a 100 Mbit/s link */
	bytes = discard_run(40000000, 50 * MS, 1514, 80000000, 10, 0, 0, &drops);
	EXPECT_GE(bytes, want);
	EXPECT_LE(bytes, want + ahead + 1514);
	EXPECT_GT(drops, 0ULL);
	/* stalls change nothing in the long run */
	bytes = discard_run(40000000, 50 * MS, 1514, 80000000, 10, 20 * MS, 70 * MS, &drops);
	EXPECT_GE(bytes + 1514, want);
	EXPECT_LE(bytes, want + ahead + 1514);
}

/* After a pause, a window of the residual passes at once, and no more. */
TEST(discard_burst_after_idle)
{
	u64 now = 1000 * SEC << ETHEREAL_DISCARD_SHIFT, tau = 50 * MS << ETHEREAL_DISCARD_SHIFT;
	u64 cost = ethereal_residual_cost(1514, 40000000), due = 0;
	unsigned int n = 0;

	while (ethereal_gcra(&due, now, cost, tau))
		n++;
	/* 50 ms of 40 Mbit/s: 250,000 bytes, 165 frames of 1514 */
	EXPECT_EQ(165U, n);
	/* a GRO aggregate longer than the window passes an empty bucket only */
	due = 0;
	EXPECT_TRUE(ethereal_gcra(&due, now, 2 * tau, tau));
	EXPECT_EQ(now + 2 * tau, due);
	EXPECT_FALSE(ethereal_gcra(&due, now + tau, 2 * tau, tau));
	EXPECT_FALSE(ethereal_gcra(&due, now + tau, cost, tau));
	EXPECT_TRUE(ethereal_gcra(&due, now + 2 * tau, 2 * tau, tau));
	/* nothing passes at no residual */
	due = 0;
	EXPECT_FALSE(ethereal_gcra(&due, now, ethereal_residual_cost(64, 0), tau));
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
			u64 a = edges[i], b = edges[j], due = a;

			ethereal_tx_ns(a, b);
			ethereal_bytes_in(a, b);
			ethereal_rt_capacity(a, (u32)b);
			ethereal_admits(a, 100, b, a);
			ethereal_be_limit_default(a, b);
			ethereal_burst_default(a, (u32)b);
			ethereal_residual(a, b);
			ethereal_residual_cost(a, b);
			ethereal_gcra(&due, b, a, b);
		}
	}
	/* a frame at 0 bit/s: saturated */
	EXPECT_EQ(UINT64_MAX, ethereal_residual_cost(1514, 0));
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
