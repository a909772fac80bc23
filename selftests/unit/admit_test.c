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
}

TEST(bytes_per_interval)
{
	/* 50 Mbit/s for the paper's 10 ms cycle: 62,500 bytes */
	EXPECT_EQ(62500ULL, ethereal_bytes_in(50000000, 10000000));
	EXPECT_EQ(0ULL, ethereal_bytes_in(7, 1000000));
	EXPECT_EQ(125000000000ULL, ethereal_bytes_in(1000000000000ULL, 1000000000));
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

TEST_HARNESS_MAIN
