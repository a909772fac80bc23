// SPDX-License-Identifier: GPL-2.0
/*
 * rttr/bucket.c, librttr's leaky bucket: each tick adds T_m x B (T_m the
 * measured interval) up to the burst, deadlines stay on the period's grid,
 * the long-run rate is exact, nothing overflows from 1 bit/s to 10 Gbit/s.
 */
#include <stdlib.h>
#include "kselftest_harness.h"
#include "bucket.h"

#define MS 1000000ULL
#define SEC 1000000000ULL
#define T0 (1000 * SEC)

/* floor(rate x ns / 8e9) without overflow */
static uint64_t bytes_in(uint64_t rate, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)rate * ns / (8 * SEC));
}

static uint64_t rnd(uint64_t max)
{
	return ((uint64_t)random() << 31 ^ (uint64_t)random()) % max;
}

TEST(starts_empty_first_tick_a_period_later)
{
	struct rttr_bucket b;

	rttr_bucket_init(&b, 50000000, 62500, 10 * MS, T0);
	EXPECT_EQ(0ULL, b.tokens);
	EXPECT_EQ(T0 + 10 * MS, b.deadline);
	EXPECT_FALSE(rttr_bucket_due(&b, T0 + 10 * MS - 1));
	EXPECT_TRUE(rttr_bucket_due(&b, T0 + 10 * MS));
	EXPECT_FALSE(rttr_bucket_take(&b, 1));
}

TEST(rates)
{
	static const struct { uint64_t rate, per_tick; } c[] = {
		{ 50000000, 62500 },		/* the paper's 50 Mbit/s */
		{ 100000000, 125000 },
		{ 2000000, 2500 },		/* 20 Kbit per 10 ms (3.3) */
		{ 64000, 80 },
		{ 1000000000, 1250000 },
		{ 10000000000ULL, 12500000 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rttr_bucket b;

		rttr_bucket_init(&b, c[i].rate, UINT64_MAX, 10 * MS, T0);
		EXPECT_EQ(c[i].per_tick, rttr_bucket_tick(&b, T0 + 10 * MS));
		EXPECT_EQ(c[i].per_tick, b.tokens);
		EXPECT_TRUE(rttr_bucket_take(&b, c[i].per_tick));
		EXPECT_FALSE(rttr_bucket_take(&b, 1));
	}
}

TEST(take_all_or_nothing)
{
	struct rttr_bucket b;

	rttr_bucket_init(&b, 8000000, 100000, 10 * MS, T0);
	rttr_bucket_tick(&b, T0 + 10 * MS);	/* 10,000 bytes */
	EXPECT_FALSE(rttr_bucket_take(&b, 10001));
	EXPECT_EQ(10000ULL, b.tokens);
	EXPECT_TRUE(rttr_bucket_take(&b, 1514));
	EXPECT_EQ(8486ULL, b.tokens);
	rttr_bucket_refund(&b, 1514);
	EXPECT_EQ(10000ULL, b.tokens);
	/* a refund never overfills */
	rttr_bucket_refund(&b, UINT64_MAX);
	EXPECT_EQ(100000ULL, b.tokens);
}

/* The paper's rule: T_m x B, T_m measured, whatever the timer's jitter. */
TEST(measured_interval_jittered_ticks)
{
	uint64_t rate = 50000000, now = T0, total = 0;
	struct rttr_bucket b;
	int i;

	srandom(1);
	rttr_bucket_init(&b, rate, UINT64_MAX, 10 * MS, T0);
	for (i = 0; i < 10000; i++) {
		uint64_t before = b.tokens, tm;

		/* due + 0..3 ms late, now and then 17 ms late (a missed tick) */
		now = b.deadline + rnd(3 * MS) + (rnd(20) ? 0 : 17 * MS);
		tm = now - b.last;
		total += rttr_bucket_tick(&b, now);
		/* this tick: T_m x B, give or take the carried fraction */
		EXPECT_GE(b.tokens - before, bytes_in(rate, tm));
		EXPECT_LE(b.tokens - before, bytes_in(rate, tm) + 1);
		/* all ticks so far: exactly the time that passed x B */
		ASSERT_EQ(bytes_in(rate, now - T0), total);
		/* the next deadline is on the grid, in the future */
		ASSERT_EQ(0ULL, (b.deadline - T0) % (10 * MS));
		ASSERT_GT(b.deadline, now);
		ASSERT_LE(b.deadline, now + 10 * MS);
	}
}

TEST(late_tick_skips_to_the_grid)
{
	struct rttr_bucket b;

	rttr_bucket_init(&b, 8000, 1000000, 10 * MS, T0);
	rttr_bucket_tick(&b, T0 + 35 * MS);	/* 3.5 periods late */
	EXPECT_EQ(T0 + 40 * MS, b.deadline);
	rttr_bucket_tick(&b, T0 + 40 * MS);	/* exactly on time */
	EXPECT_EQ(T0 + 50 * MS, b.deadline);
	EXPECT_EQ(40ULL, b.tokens);		/* 40 ms at 1000 bytes/s */
	/* a tick before its deadline adds its time, keeps the deadline */
	rttr_bucket_tick(&b, T0 + 45 * MS);
	EXPECT_EQ(T0 + 50 * MS, b.deadline);
	EXPECT_EQ(45ULL, b.tokens);
	/* the clock going backwards adds nothing */
	EXPECT_EQ(0ULL, rttr_bucket_tick(&b, T0 + 44 * MS));
	EXPECT_EQ(45ULL, b.tokens);
}

TEST(capped_at_burst)
{
	struct rttr_bucket b;

	rttr_bucket_init(&b, 50000000, 62500, 10 * MS, T0);
	EXPECT_EQ(62500ULL, rttr_bucket_tick(&b, T0 + 30 * MS));
	EXPECT_EQ(62500ULL, b.tokens);
	EXPECT_EQ(0ULL, b.frac);
	EXPECT_EQ(0ULL, rttr_bucket_tick(&b, T0 + 40 * MS));
	EXPECT_EQ(62500ULL, b.tokens);
	/* an hour idle at full: still the burst */
	rttr_bucket_tick(&b, T0 + 3600 * SEC);
	EXPECT_EQ(62500ULL, b.tokens);
	EXPECT_TRUE(rttr_bucket_take(&b, 1514));
	EXPECT_EQ(1514ULL, rttr_bucket_tick(&b, T0 + 3600 * SEC + 10 * MS));
	EXPECT_EQ(62500ULL, b.tokens);
}

/* A sender always ready: the long run is the reservation, within 0.1%. */
static void long_run(struct __test_metadata *_metadata, uint64_t rate,
		     uint64_t frame, uint64_t burst, uint64_t seconds)
{
	uint64_t now = T0, sent = 0, end = T0 + seconds * SEC;
	struct rttr_bucket b;
	double want, got;

	rttr_bucket_init(&b, rate, burst, 10 * MS, T0);
	while (now < end) {
		now = b.deadline + rnd(2 * MS);
		rttr_bucket_tick(&b, now);
		while (rttr_bucket_take(&b, frame))
			sent += frame;
	}
	want = (double)rate * (double)(now - T0) / 8e9;
	got = (double)sent;
	EXPECT_LE(got, want);
	EXPECT_GE(got + frame + 1, want);
	EXPECT_LT((want - got) / want, 0.001);
}

TEST(exact_long_run_rate)
{
	srandom(2);
	/* librttr's default burst: two ticks' worth, at least two frames */
	long_run(_metadata, 50000000, 1514, 125000, 100);
	long_run(_metadata, 2000000, 1514, 5000, 100);
	long_run(_metadata, 64000, 1514, 3028, 1000);
	long_run(_metadata, 1000000000, 1514, 2500000, 10);
	long_run(_metadata, 10000000000ULL, 9014, 25000000, 5);
	/* a rate that is not a whole number of bytes per tick */
	long_run(_metadata, 1234567, 100, 3028, 1000);
}

TEST(ten_gigabit_no_overflow)
{
	struct rttr_bucket b;

	/* an hour's worth at 10 Gbit/s, in one tick: 4.5 TB */
	rttr_bucket_init(&b, 10000000000ULL, UINT64_MAX, 10 * MS, T0);
	EXPECT_EQ(4500000000000ULL, rttr_bucket_tick(&b, T0 + 3600 * SEC));
	/* a year: 3.9e16 bytes, T_m x B = 3.15e26 bit-ns */
	rttr_bucket_init(&b, 10000000000ULL, UINT64_MAX, 10 * MS, T0);
	EXPECT_EQ(39420000000000000ULL, rttr_bucket_tick(&b, T0 + 365 * 86400 * SEC));
	/* and the top of the scale */
	rttr_bucket_init(&b, UINT64_MAX, UINT64_MAX, 10 * MS, 0);
	EXPECT_EQ(UINT64_MAX, rttr_bucket_tick(&b, UINT64_MAX));
	EXPECT_EQ(UINT64_MAX, b.tokens);
	/* deadlines near the end of time do not wrap */
	EXPECT_EQ(UINT64_MAX, b.deadline);
	rttr_bucket_init(&b, 1, 10, 10 * MS, UINT64_MAX - MS);
	EXPECT_EQ(UINT64_MAX, b.deadline);
	rttr_bucket_init(&b, 1, 10, 10 * MS, 0);
	EXPECT_EQ(UINT64_MAX, rttr_bucket_ready_at(&b, 11));
	EXPECT_EQ(80 * SEC, rttr_bucket_ready_at(&b, 10));	/* 80 bits */
}

TEST(one_bit_per_second)
{
	struct rttr_bucket b;
	uint64_t now = T0;
	int i;

	/* a byte every 8 s, out of 800 ticks of nothing each */
	rttr_bucket_init(&b, 1, 100, 10 * MS, T0);
	for (i = 1; i <= 799; i++) {
		now = T0 + i * 10 * MS;
		ASSERT_EQ(0ULL, rttr_bucket_tick(&b, now));
	}
	EXPECT_EQ(1ULL, rttr_bucket_tick(&b, T0 + 8 * SEC));
	EXPECT_EQ(0ULL, b.frac);
	/* 80 s: 10 bytes in all */
	for (i = 801; i <= 8000; i++)
		rttr_bucket_tick(&b, T0 + i * 10 * MS);
	EXPECT_EQ(10ULL, b.tokens);
}

/* Why librttr's default burst is two ticks: one tick's worth loses rate. */
TEST(one_tick_of_burst_loses_rate_to_jitter)
{
	uint64_t rate = 50000000, now = T0, sent = 0;
	struct rttr_bucket b;
	int i;

	srandom(3);
	rttr_bucket_init(&b, rate, 62500, 10 * MS, T0);
	for (i = 0; i < 10000; i++) {
		now = b.deadline + rnd(MS);
		rttr_bucket_tick(&b, now);
		while (rttr_bucket_take(&b, 1514))
			sent += 1514;
	}
	EXPECT_LT((double)sent, 0.999 * rate * (double)(now - T0) / 8e9);
}

TEST(ready_at)
{
	struct rttr_bucket b;

	rttr_bucket_init(&b, 8000000, 100000, 10 * MS, T0);	/* 1 MB/s */
	/* 1514 bytes: 1.514 ms of rate, so the first tick */
	EXPECT_EQ(T0 + 10 * MS, rttr_bucket_ready_at(&b, 1514));
	/* 25,000 bytes: 25 ms, so the third tick */
	EXPECT_EQ(T0 + 30 * MS, rttr_bucket_ready_at(&b, 25000));
	EXPECT_EQ(T0 + 20 * MS, rttr_bucket_ready_at(&b, 20000));
	EXPECT_EQ(UINT64_MAX, rttr_bucket_ready_at(&b, 100001));
	rttr_bucket_tick(&b, T0 + 10 * MS);
	EXPECT_EQ(T0 + 10 * MS, rttr_bucket_ready_at(&b, 10000));
	EXPECT_EQ(T0 + 20 * MS, rttr_bucket_ready_at(&b, 10001));
}

/*
 * What rttr_send() does: credit the time passed at every send, take frames
 * while the bucket holds them. Whatever the ticks' lateness and the
 * sender's idle spells, what leaves in any interval stays within
 * burst + B x interval: the switch's queue, at least 2 x burst, has room to
 * spare.
 */
TEST(sends_conform_to_burst_and_rate)
{
	enum { N = 4000 };
	const uint64_t rate = 5000000, burst = 12500, frame = 1514;
	static uint64_t at[N];
	struct rttr_bucket b;
	uint64_t t = T0;
	int n = 0, i, j, want;

	srandom(7);
	rttr_bucket_init(&b, rate, burst, 10 * MS, T0);
	while (n < N) {
		/* a tick up to 30 ms late, the sender back from a nap, or between ticks */
		switch (rnd(3)) {
		case 0:
			t = (t > b.deadline ? t : b.deadline) + rnd(30 * MS);
			break;
		case 1:
			t += rnd(200 * MS);
			break;
		default:
			t += rnd(10 * MS);
		}
		rttr_bucket_tick(&b, t);
		/* as many frames as the application has, the bucket allowing */
		for (want = rnd(12); want && n < N && rttr_bucket_take(&b, frame); want--)
			at[n++] = t;
	}
	for (i = 0; i < N; i++) {
		uint64_t sent = 0;

		for (j = i; j < N; j++) {
			sent += frame;
			ASSERT_LE(sent, burst + bytes_in(rate, at[j] - at[i]) + 1) {
				TH_LOG("frames %d to %d: %llu bytes in %llu ns", i, j,
				       (unsigned long long)sent,
				       (unsigned long long)(at[j] - at[i]));
			}
		}
	}
}

TEST_HARNESS_MAIN
