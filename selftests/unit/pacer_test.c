// SPDX-License-Identifier: GPL-2.0
/*
 * rttr/pacer.c, librttr's per-packet pacer, on made-up clocks: no frame
 * leaves before the GCRA allows it, nothing leaves at once beyond the
 * tolerance, a sender always ready sends a frame time apart, the long-run
 * rate is exact, a late wake-up catches up within the tolerance and loses
 * only what lies beyond it, sleeps are never shorter than the resolution
 * (1 Gbit/s costs a wake-up for 16 frames), and what leaves conforms at
 * a switch policing the contract (rate, burst) through any host jitter
 * within the budget.
 */
#include <stdlib.h>
#include "kselftest_harness.h"
#include "pacer.h"

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL
#define T0 (1000 * SEC)
#define RES (200 * US)		/* librttr's default resolution */

/* floor(rate x ns / 8e9) without overflow */
static uint64_t bytes_in(uint64_t rate, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)rate * ns / (8 * SEC));
}

/* ceil(len x 8e9 / rate): a frame's time at the rate */
static uint64_t tx_ns(uint64_t len, uint64_t rate)
{
	return (uint64_t)(((unsigned __int128)len * 8 * SEC + rate - 1) / rate);
}

/* librttr's default burst: 10 ms of the rate, at least two frames */
static uint64_t burst_default(uint64_t rate, uint64_t len)
{
	uint64_t b = bytes_in(rate, 10 * MS);

	return b < 2 * len ? 2 * len : b;
}

static uint64_t rnd(uint64_t max)
{
	return max ? ((uint64_t)random() << 31 ^ (uint64_t)random()) % max : 0;
}

TEST(tolerance)
{
	/* half of the burst beyond a frame: 5 Mbit/s, 10 ms */
	EXPECT_EQ(3882ULL, rttr_pacer_tolerance(6250, 1514));
	EXPECT_EQ(1514ULL + 624243, rttr_pacer_tolerance(1250000, 1514));
	EXPECT_EQ(2271ULL, rttr_pacer_tolerance(3028, 1514));
	/* no room at all: a frame */
	EXPECT_EQ(1514ULL, rttr_pacer_tolerance(1514, 1514));
	EXPECT_EQ(1514ULL, rttr_pacer_tolerance(1000, 1514));
	EXPECT_EQ(UINT64_MAX / 2 + 757, rttr_pacer_tolerance(UINT64_MAX, 1514));
}

TEST(starts_empty_then_the_rate)
{
	struct rttr_pacer p;
	uint64_t t;

	rttr_pacer_init(&p, 10000000, 3028, 1514, RES, T0);	/* 1514 bytes: 1.2112 ms */
	EXPECT_EQ(T0, rttr_pacer_due(&p, 1514));
	EXPECT_FALSE(rttr_pacer_take(&p, 1514, T0 - 1));
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0));
	EXPECT_FALSE(rttr_pacer_take(&p, 1, T0));
	EXPECT_EQ(UINT64_MAX, rttr_pacer_due(&p, 3029));
	/* the next frame: one frame time after the first */
	t = rttr_pacer_due(&p, 1514);
	EXPECT_EQ(T0 + 1211200, t);
	EXPECT_FALSE(rttr_pacer_take(&p, 1514, t - 1));
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, t));
	/* a smaller frame is due sooner, by its shortfall at the rate */
	EXPECT_EQ(T0 + 2 * 1211200 - 100 * 800, rttr_pacer_due(&p, 1414));
	/* idle: the bucket fills to the tolerance, and no further */
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0 + SEC));
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0 + SEC));
	EXPECT_FALSE(rttr_pacer_take(&p, 1, T0 + SEC));
	/* a frame time that is not a whole number of ns: rounded up */
	rttr_pacer_init(&p, 7000000, 1514, 1514, RES, T0);	/* 1730285.71 ns a frame */
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0));
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0 + 1730286));
	EXPECT_EQ(T0 + 3460572, rttr_pacer_due(&p, 1514));
	EXPECT_FALSE(rttr_pacer_take(&p, 1514, T0 + 3460571));
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0 + 3460572));
	EXPECT_EQ(T0 + 5190858, rttr_pacer_due(&p, 1514));
}

TEST(wake)
{
	struct rttr_pacer p;
	uint64_t due;

	/* 1 Gbit/s: frames of 12.1 us, sleeps of at least 200 us */
	rttr_pacer_init(&p, 1000000000, rttr_pacer_tolerance(1250000, 1514), 1514, RES, T0);
	EXPECT_TRUE(rttr_pacer_take(&p, 1514, T0));
	due = rttr_pacer_due(&p, 1514);
	EXPECT_EQ(T0 + 12112, due);
	EXPECT_EQ(T0 + 200 * US, rttr_pacer_wake(&p, 1514, T0));
	EXPECT_EQ(due - 1 + 200 * US, rttr_pacer_wake(&p, 1514, due - 1));
	EXPECT_EQ(due, rttr_pacer_wake(&p, 1514, due));
	EXPECT_EQ(T0 + SEC, rttr_pacer_wake(&p, 1514, T0 + SEC));
	/* 10 Mbit/s: due well past the shortest sleep: the due time */
	rttr_pacer_init(&p, 10000000, 3028, 1514, RES, T0);
	rttr_pacer_take(&p, 1514, T0);
	EXPECT_EQ(T0 + 1211200, rttr_pacer_wake(&p, 1514, T0));
	/* never */
	EXPECT_EQ(UINT64_MAX, rttr_pacer_wake(&p, 3029, T0));
	/* a lead under twice the resolution: sleeps of half the lead */
	rttr_pacer_init(&p, 1000000000, 1514 + 10000, 1514, RES, T0);
	EXPECT_EQ(40000ULL, p.min_sleep);
	rttr_pacer_init(&p, 1000000000, 1514, 1514, RES, T0);
	EXPECT_EQ(0ULL, p.min_sleep);
}

/*
 * A sender that always has a frame (of LEN_MIN to LEN_MAX bytes): it sends
 * what is due, then sleeps as librttr does, waking up to LATE_MAX late (and
 * one time in a hundred LATE_BIG more). Every departure is checked against
 * the GCRA's due time, and every window of departures against the arrival
 * curve: frames i..n, sent from t_i to t_n, total at most tol + r (t_n - t_i).
 * Counts the bytes sent and the wake-ups until SECONDS have passed.
 */
struct run {
	uint64_t rate, tol;
	uint32_t len_min, len_max;
	uint64_t late_max, late_big, seconds;
	uint64_t sent, wakes, end, unused;
};

static void run(struct __test_metadata *_metadata, struct run *c)
{
	typedef __int128 s128;
	const s128 bitns = 8 * (s128)SEC;
	uint64_t now = T0, end = T0 + c->seconds * SEC, len, wake;
	/* max over earlier frames i of r t_i - 8e9 (bytes sent before i) */
	s128 m = 0;
	bool first = true;
	struct rttr_pacer p;

	rttr_pacer_init(&p, c->rate, c->tol, c->len_max, RES, T0);
	c->sent = c->wakes = 0;
	len = c->len_min + rnd(c->len_max - c->len_min + 1);
	/* until SECONDS have passed and what was due then has left */
	for (;;) {
		uint64_t due = rttr_pacer_due(&p, len), late;
		s128 mi;

		if (rttr_pacer_take(&p, len, now)) {
			ASSERT_GE(now, due);
			/* this frame as the window's first one, then as its last */
			mi = (s128)c->rate * now - bitns * c->sent;
			if (first || mi > m)
				m = mi;
			first = false;
			c->sent += len;
			ASSERT_TRUE(bitns * c->sent - (s128)c->rate * now + m <=
				    bitns * c->tol) {
				TH_LOG("%llu bytes sent by %llu ns: a burst over %llu",
				       (unsigned long long)c->sent,
				       (unsigned long long)(now - T0),
				       (unsigned long long)c->tol);
			}
			len = c->len_min + rnd(c->len_max - c->len_min + 1);
			continue;
		}
		ASSERT_LT(now, due);
		if (now >= end)
			break;
		wake = rttr_pacer_wake(&p, len, now);
		ASSERT_GE(wake, now + p.min_sleep);
		ASSERT_GE(wake, due);
		late = rnd(c->late_max + 1);
		if (c->late_big && !rnd(100))
			late += c->late_big;
		now = wake + late;
		c->wakes++;
	}
	c->end = now;
	c->unused = p.unused;
	/* what it sent: the rate over the time less what went unused */
	ASSERT_LE(bytes_in(c->rate, now - T0 - p.unused), c->sent + c->len_max) {
		TH_LOG("%llu bytes sent, %llu ns unused", (unsigned long long)c->sent,
		       (unsigned long long)p.unused);
	}
	ASSERT_GE(bytes_in(c->rate, now - T0 - p.unused) + 2 * c->len_max, c->sent);
}

TEST(no_frame_early_no_burst_beyond_tolerance)
{
	/* random frame sizes, wake-ups up to 1 ms late, or 20 ms */
	struct run c[] = {
		{ .rate = 10000000, .tol = 7007, .len_min = 64, .len_max = 1514,
		  .late_max = 1 * MS, .late_big = 20 * MS, .seconds = 20 },
		{ .rate = 1000000000, .tol = 625757, .len_min = 64, .len_max = 1514,
		  .late_max = 150 * US, .late_big = 5 * MS, .seconds = 2 },
		{ .rate = 1000000000, .tol = 3028, .len_min = 64, .len_max = 1514,
		  .late_max = 150 * US, .late_big = 5 * MS, .seconds = 1 },
		{ .rate = 64000, .tol = 2271, .len_min = 1514, .len_max = 1514,
		  .late_max = 100 * MS, .late_big = 0, .seconds = 600 },
	};
	unsigned int i;

	srandom(11);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		run(_metadata, &c[i]);
}

/* Always ready and woken on time: one frame a frame time, no burst at all. */
TEST(a_frame_time_apart)
{
	struct rttr_pacer p;
	uint64_t now = T0, last = 0;
	int n;

	rttr_pacer_init(&p, 5000000, rttr_pacer_tolerance(6250, 1514), 1514, RES, T0);
	for (n = 0; n < 1000;) {
		if (!rttr_pacer_take(&p, 1514, now)) {
			now = rttr_pacer_wake(&p, 1514, now);
			continue;
		}
		if (n++)
			ASSERT_EQ(2422400ULL, now - last);
		last = now;
	}
}

/*
 * Woken late by less than the tolerance's lead less the shortest sleep,
 * a sender always ready keeps the rate exactly: at most the tolerance
 * ahead of it, at most a frame behind.
 */
TEST(exact_long_run_rate)
{
	static const struct { uint64_t rate; uint32_t len; uint64_t secs; } c[] = {
		{ 10000000, 1514, 100 },
		{ 100000000, 1514, 20 },
		{ 1000000000, 1514, 5 },
		{ 1000000000, 64, 1 },
		{ 1234567, 100, 100 },
		{ 64000, 1514, 1000 },
		{ 10000000000ULL, 9014, 1 },
	};
	unsigned int i;

	srandom(12);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t tol = rttr_pacer_tolerance(burst_default(c[i].rate, c[i].len), c[i].len);
		uint64_t lead = tx_ns(tol - c[i].len, c[i].rate);
		/* the lead, less the shortest sleep */
		uint64_t slack = lead - (RES < lead / 2 ? RES : lead / 2) - 1;
		struct run r = { .rate = c[i].rate, .tol = tol, .len_min = c[i].len,
				 .len_max = c[i].len, .late_max = slack,
				 .seconds = c[i].secs };
		uint64_t want;

		run(_metadata, &r);
		EXPECT_EQ(0ULL, r.unused);
		want = bytes_in(r.rate, r.end - T0);
		EXPECT_LE(r.sent, want + tol) TH_LOG("rate %llu", (unsigned long long)r.rate);
		EXPECT_GE(r.sent + 2 * c[i].len, want) {
			TH_LOG("rate %llu: %llu bytes of %llu", (unsigned long long)r.rate,
			       (unsigned long long)r.sent, (unsigned long long)want);
		}
	}
}

/* 1 Gbit/s stays cheap: a wake-up per 200 us at most, 16 frames or more each. */
TEST(few_wakeups_at_a_gigabit)
{
	struct run r = { .rate = 1000000000, .tol = 625757, .len_min = 1514,
			 .len_max = 1514, .late_max = 0, .seconds = 1 };

	srandom(13);
	run(_metadata, &r);
	EXPECT_LE(r.wakes, 5000ULL);
	EXPECT_GE(r.sent / 1514, 16 * r.wakes);
	/* and the rate kept */
	EXPECT_GE(r.sent + 1514, bytes_in(r.rate, r.end - T0));
}

/*
 * One wake-up LATE late, the sender always ready: the frames it held back
 * leave at once, no more than the tolerance; within the tolerance's lead
 * no time is lost, beyond it exactly what lies beyond.
 */
TEST(late_wakeup_catches_up_within_tolerance)
{
	const uint64_t rate = 10000000, len = 1514, tol = 3028;
	const uint64_t lead = tx_ns(tol - len, rate);	/* 1.2112 ms */
	static const uint64_t lates[] = { 0, 500 * US, 1211200, 1211201, 5 * MS, 300 * MS };
	unsigned int i;

	for (i = 0; i < sizeof(lates) / sizeof(lates[0]); i++) {
		struct rttr_pacer p;
		uint64_t now = T0, burst = 0, before, frames = 0, want_tat;
		int k;

		rttr_pacer_init(&p, rate, tol, len, RES, T0);
		/* steady state: ten frames, each sent when due */
		for (k = 0; k < 10; k++) {
			while (!rttr_pacer_take(&p, len, now))
				now = rttr_pacer_wake(&p, len, now);
			frames++;
		}
		before = p.tat;
		now = rttr_pacer_wake(&p, len, now) + lates[i];
		while (rttr_pacer_take(&p, len, now)) {
			burst += len;
			frames++;
		}
		EXPECT_LE(burst, tol);
		EXPECT_GE(burst, len);
		/* TAT: where the schedule says, plus what was late beyond the lead */
		want_tat = T0 + lead + (frames * len * 8 * SEC) / rate;
		if (lates[i] > lead)
			want_tat += lates[i] - lead;
		EXPECT_EQ(want_tat, p.tat) TH_LOG("late %llu", (unsigned long long)lates[i]);
		/* and that is the time counted unused */
		EXPECT_EQ(lates[i] > lead ? lates[i] - lead : 0, p.unused);
		EXPECT_GT(p.tat, before);
	}
}

/*
 * The derivation of pacer.h, checked: what librttr lets go, delayed by the
 * host by anything within the jitter budget (B - tol) / r, conforms at a
 * switch policing (r, B) with the GCRA of kmod/sch_ethereal.c (exact
 * arithmetic here): no frame would be held back.
 */
TEST(conforming_at_the_switch_through_the_budget)
{
	static const struct { uint64_t rate, burst; uint32_t lmin, lmax; uint64_t late; } c[] = {
		{ 5000000, 6250, 1514, 1514, 3 * MS },		/* librttr's default burst */
		{ 10000000, 12500, 64, 1514, 2 * MS },
		{ 1000000000, 1250000, 64, 1514, 300 * US },
		{ 1000000000, 9514, 1514, 1514, 100 * US },	/* a tight burst */
		{ 10000000, 3028, 1514, 1514, 2 * MS },		/* two frames */
	};
	unsigned int i;

	srandom(14);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t tol = rttr_pacer_tolerance(c[i].burst, c[i].lmax);
		uint64_t budget = (c[i].burst - tol) * 8 * SEC / c[i].rate;
		/* the switch's TAT x r in bit-ns, and its tolerance */
		unsigned __int128 vt = 0, bt = (unsigned __int128)c[i].burst * 8 * SEC;
		uint64_t now = T0, last_arrival = 0, held = 0, n = 0, len;
		struct rttr_pacer p;

		rttr_pacer_init(&p, c[i].rate, tol, c[i].lmax, RES, T0);
		len = c[i].lmin + rnd(c[i].lmax - c[i].lmin + 1);
		while (n < 200000) {
			unsigned __int128 a, lb;
			uint64_t arr;

			if (!rttr_pacer_take(&p, len, now)) {
				now = rttr_pacer_wake(&p, len, now) + rnd(c[i].late);
				/* the application idle now and then */
				if (!rnd(1000))
					now += rnd(50 * MS);
				continue;
			}
			/* the host delays it by up to the budget, in order */
			arr = now + rnd(budget + 1);
			if (arr < last_arrival)
				arr = last_arrival;
			last_arrival = arr;
			a = (unsigned __int128)arr * c[i].rate;
			lb = (unsigned __int128)len * 8 * SEC;
			if (vt < a)
				vt = a;
			/* held back if it arrives before TAT - (B - L) / r */
			if (a + bt < vt + lb)
				held++;
			vt += lb;
			n++;
			len = c[i].lmin + rnd(c[i].lmax - c[i].lmin + 1);
		}
		EXPECT_EQ(0ULL, held) TH_LOG("rate %llu burst %llu", (unsigned long long)c[i].rate,
					     (unsigned long long)c[i].burst);
	}
}

TEST(no_overflow)
{
	struct rttr_pacer p;

	/* rttr_open()'s largest rate, near the end of time */
	rttr_pacer_init(&p, 1ULL << 53, UINT32_MAX, UINT32_MAX, RES, UINT64_MAX - SEC);
	EXPECT_TRUE(rttr_pacer_take(&p, UINT32_MAX, UINT64_MAX - SEC));
	EXPECT_FALSE(rttr_pacer_take(&p, UINT32_MAX, UINT64_MAX - SEC));
	EXPECT_TRUE(rttr_pacer_take(&p, UINT32_MAX, UINT64_MAX - 1));
	/* 1 bit/s: a byte every 8 s, TAT saturating rather than wrapping */
	rttr_pacer_init(&p, 1, 2, 2, RES, T0);
	EXPECT_TRUE(rttr_pacer_take(&p, 2, T0));
	EXPECT_EQ(T0 + 8 * SEC, rttr_pacer_due(&p, 1));
	EXPECT_EQ(T0 + 16 * SEC, rttr_pacer_due(&p, 2));
	rttr_pacer_init(&p, 1, 1000, 1000, RES, UINT64_MAX - SEC);
	EXPECT_TRUE(rttr_pacer_take(&p, 1000, UINT64_MAX - SEC));
	EXPECT_EQ(UINT64_MAX, p.tat);
	EXPECT_EQ(UINT64_MAX, rttr_pacer_due(&p, 1000));
	EXPECT_EQ(UINT64_MAX, rttr_pacer_wake(&p, 1000, UINT64_MAX - 1));
}

TEST_HARNESS_MAIN
