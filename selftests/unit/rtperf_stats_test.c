// SPDX-License-Identifier: GPL-2.0
/*
 * bench/rtperf/stats.c, rtperf's statistics, on made-up flows with known
 * answers: nearest-rank percentiles, sample standard deviation, loss,
 * duplicates, RFC 4737 reordering, RFC 3393 IPDV of consecutive numbers,
 * inter-arrival times and their histogram, throughput, and the sliding
 * window (exact extremes and time mean, against brute force), the
 * delay from the intended send time; what bench/'s methods add (Student's
 * t, confidence intervals, Jain's index, the steady-state rate, the
 * overlap of flows); and wire.h's headers, both versions.
 */
#include <math.h>
#include <stdlib.h>
#include "kselftest_harness.h"
#include "stats.h"
#include "wire.h"

#define US 1000LL
#define MS 1000000LL
#define T0 (1700000000LL * 1000000000LL)	/* CLOCK_REALTIME-sized */

static const struct rtperf_params params = {
	.window_ns = 10 * MS, .bin_ns = 10 * US, .overhead = 42,
};

/* doubles from sums and square roots: equal to 1e-9 relative */
static int near(double want, double got)
{
	return fabs(want - got) <= 1e-9 * fabs(want) + 1e-9;
}

#define EXPECT_NEAR(want, got) \
	EXPECT_TRUE(near((want), (got))) \
		TH_LOG("want %.12g, got %.12g", (double)(want), (double)(got))

/* A flow: record I has sequence number SEQ[I], sent at T0 + SEQ x 1 ms, received D[I] later. */
static void mkflow(struct rtperf_rec *r, size_t n, const uint64_t *seq,
		   const int64_t *d, uint32_t size)
{
	size_t i;

	for (i = 0; i < n; i++) {
		r[i].seq = seq[i];
		r[i].sched_ns = r[i].tx_ns = T0 + (int64_t)seq[i] * MS;
		r[i].rx_ns = r[i].tx_ns + d[i];
		r[i].size = size;
	}
}

TEST(percentiles_nearest_rank)
{
	double v[1000];
	int i;

	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	EXPECT_EQ(50, rtperf_percentile(v, 100, 500000));
	EXPECT_EQ(99, rtperf_percentile(v, 100, 990000));
	EXPECT_EQ(100, rtperf_percentile(v, 100, 999000));
	EXPECT_EQ(1, rtperf_percentile(v, 100, 0));
	EXPECT_EQ(100, rtperf_percentile(v, 100, 1000000));
	/* exactly 99.9% of 1000 is the 999th, not the next (no float rounding) */
	for (i = 0; i < 1000; i++)
		v[i] = i + 1;
	EXPECT_EQ(999, rtperf_percentile(v, 1000, 999000));
	EXPECT_EQ(990, rtperf_percentile(v, 1000, 990000));
	EXPECT_EQ(500, rtperf_percentile(v, 1000, 500000));
	/* one value is every percentile */
	EXPECT_EQ(1, rtperf_percentile(v, 1, 500000));
	EXPECT_EQ(1, rtperf_percentile(v, 1, 999000));
	/* 3 values: p50 is the 2nd (ceil 1.5) */
	EXPECT_EQ(2, rtperf_percentile(v, 3, 500000));
}

TEST(dist_mean_sample_sd_sorted)
{
	double v[] = { 9, 4, 2, 4, 5, 4, 7, 5 };
	struct rtperf_dist d;

	rtperf_dist(v, 8, &d);
	EXPECT_EQ(8U, d.n);
	EXPECT_NEAR(5, d.mean);
	/* sum of squares 32 over n - 1 = 7 */
	EXPECT_NEAR(sqrt(32.0 / 7), d.sd);
	EXPECT_EQ(2, d.min);
	EXPECT_EQ(9, d.max);
	EXPECT_EQ(4, d.p50);	/* 2 4 4 [4] 5 5 7 9 */
	EXPECT_EQ(9, d.p99);
	EXPECT_EQ(9, d.p999);
	EXPECT_EQ(2, v[0]);
	EXPECT_EQ(9, v[7]);

	rtperf_dist(v, 1, &d);
	EXPECT_EQ(0, d.sd);
	EXPECT_EQ(2, d.mean);
	rtperf_dist(v, 0, &d);
	EXPECT_EQ(0U, d.n);
	EXPECT_EQ(0, d.max);
}

TEST(loss_duplicates_reordering)
{
	/* 6 and 8 lost, 3 and 4 late (after 5), 4 twice */
	static const uint64_t seq[] = { 0, 1, 2, 5, 3, 4, 4, 7, 9 };
	int64_t d[9];
	struct rtperf_rec r[9];
	struct rtperf_stats s;
	int i;

	for (i = 0; i < 9; i++)
		d[i] = 100 * US;
	mkflow(r, 9, seq, d, 100);
	ASSERT_EQ(0, rtperf_analyze(r, 9, &params, &s));
	EXPECT_EQ(9ULL, s.received);
	EXPECT_EQ(8ULL, s.unique);
	EXPECT_EQ(1ULL, s.duplicates);
	EXPECT_EQ(0ULL, s.min_seq);
	EXPECT_EQ(9ULL, s.max_seq);
	EXPECT_EQ(10ULL, s.expected);
	EXPECT_EQ(2ULL, s.lost);
	EXPECT_EQ(2ULL, s.reordered);
	/* the duplicate's bytes are not throughput */
	EXPECT_EQ(800ULL, s.bytes);
	rtperf_stats_free(&s);
}

TEST(loss_from_the_lowest_number_seen)
{
	/* a receiver started late: 10..19 with 15 missing */
	uint64_t seq[9] = { 10, 11, 12, 13, 14, 16, 17, 18, 19 };
	int64_t d[9] = { 0 };
	struct rtperf_rec r[9];
	struct rtperf_stats s;

	mkflow(r, 9, seq, d, 100);
	ASSERT_EQ(0, rtperf_analyze(r, 9, &params, &s));
	EXPECT_EQ(10ULL, s.expected);
	EXPECT_EQ(1ULL, s.lost);
	EXPECT_EQ(0ULL, s.reordered);
	rtperf_stats_free(&s);
}

TEST(reordering_rfc4737)
{
	/*
	 * RFC 4737's example of 3.3: 1 2 3 7 4 5 6 8 9 10: 4, 5 and 6 each
	 * below NextExp (8): three reordered. A late packet does not lower
	 * NextExp: 9 after 10 is reordered, 11 is not.
	 */
	static const uint64_t seq[] = { 1, 2, 3, 7, 4, 5, 6, 8, 10, 9, 11 };
	int64_t d[11] = { 0 };
	struct rtperf_rec r[11];
	struct rtperf_stats s;

	mkflow(r, 11, seq, d, 100);
	ASSERT_EQ(0, rtperf_analyze(r, 11, &params, &s));
	EXPECT_EQ(4ULL, s.reordered);
	EXPECT_EQ(0ULL, s.lost);
	rtperf_stats_free(&s);
}

TEST(delay_and_jitter)
{
	static const uint64_t seq[] = { 0, 1, 2, 3, 4 };
	static const int64_t d[] = { 100 * US, 300 * US, 200 * US, 200 * US, 500 * US };
	struct rtperf_rec r[5];
	struct rtperf_stats s;

	mkflow(r, 5, seq, d, 100);
	ASSERT_EQ(0, rtperf_analyze(r, 5, &params, &s));
	EXPECT_EQ(5U, s.delay.n);
	EXPECT_EQ(100 * US, s.delay.min);
	EXPECT_EQ(500 * US, s.delay.max);
	EXPECT_NEAR(260 * US, s.delay.mean);
	EXPECT_EQ(200 * US, s.delay.p50);
	EXPECT_EQ(500 * US, s.delay.p99);
	/* deviations -160 40 -60 -60 240 us: 92000 us^2 over 4 */
	EXPECT_NEAR(sqrt(92000.0 / 4) * US, s.delay.sd);
	rtperf_stats_free(&s);
}

TEST(ipdv_consecutive_numbers)
{
	/*
	 * Delays 10 30 20 20 50 for 0..4: IPDV +20 -10 0 +30, |IPDV| 20 10 0
	 * 30. Arrival order does not matter (pairs go by number); 6 comes
	 * without 5: no pair; 4's duplicate is ignored.
	 */
	static const uint64_t seq[] = { 1, 0, 2, 4, 3, 4, 6 };
	static const int64_t d[] = { 30 * US, 10 * US, 20 * US, 50 * US, 20 * US,
				     900 * US, 70 * US };
	struct rtperf_rec r[7];
	struct rtperf_stats s;

	mkflow(r, 7, seq, d, 100);
	ASSERT_EQ(0, rtperf_analyze(r, 7, &params, &s));
	EXPECT_EQ(4U, s.ipdv.n);
	EXPECT_NEAR(15 * US, s.ipdv.mean);
	EXPECT_EQ(0, s.ipdv.min);
	EXPECT_EQ(30 * US, s.ipdv.max);
	EXPECT_EQ(10 * US, s.ipdv.p50);
	EXPECT_EQ(30 * US, s.ipdv.p99);
	/* deviations 5 -5 -15 15 us: 500 us^2 over 3 */
	EXPECT_NEAR(sqrt(500.0 / 3) * US, s.ipdv.sd);
	EXPECT_EQ(1ULL, s.duplicates);
	EXPECT_EQ(2ULL, s.reordered);	/* 0 after 1, 3 after 4 */
	rtperf_stats_free(&s);
}

TEST(interarrival_sorted_by_receive_time_and_histogram)
{
	/* received at 0, 1, 3, 3.5, 5.5, 10.5 ms, two of them swapped */
	static const int64_t at[] = { 0, 1 * MS, 3500 * US, 3 * MS, 5500 * US, 10500 * US };
	struct rtperf_params p = params;
	struct rtperf_rec r[6];
	struct rtperf_stats s;
	int i;

	for (i = 0; i < 6; i++)
		r[i] = (struct rtperf_rec){ .seq = (uint64_t)i, .tx_ns = T0,
					    .rx_ns = T0 + at[i], .size = 100 };
	p.bin_ns = 1 * MS;
	ASSERT_EQ(0, rtperf_analyze(r, 6, &p, &s));
	/* gaps 1, 2, 0.5, 2, 5 ms */
	EXPECT_EQ(5U, s.iat.n);
	EXPECT_EQ(500 * US, s.iat.min);
	EXPECT_EQ(5 * MS, s.iat.max);
	EXPECT_NEAR(2.1 * MS, s.iat.mean);
	EXPECT_EQ(2 * MS, s.iat.p50);
	/* bins of 1 ms: [0,1) 1, [1,2) 1, [2,3) 2, [5,6) 1 */
	ASSERT_EQ(4U, s.hist.nbins);
	EXPECT_EQ(0, s.hist.bins[0].lo);
	EXPECT_EQ(1ULL, s.hist.bins[0].count);
	EXPECT_EQ(1 * MS, s.hist.bins[1].lo);
	EXPECT_EQ(1ULL, s.hist.bins[1].count);
	EXPECT_EQ(2 * MS, s.hist.bins[2].lo);
	EXPECT_EQ(2ULL, s.hist.bins[2].count);
	EXPECT_EQ(5 * MS, s.hist.bins[3].lo);
	EXPECT_EQ(1ULL, s.hist.bins[3].count);
	/* numbered in receive order: not reordered, only timestamped so */
	EXPECT_EQ(0ULL, s.reordered);
	rtperf_stats_free(&s);
}

TEST(throughput_cbr)
{
	/* 11 datagrams of 1000 bytes, 1 ms apart: 10 of them in 10 ms */
	uint64_t seq[11];
	int64_t d[11];
	struct rtperf_rec r[11];
	struct rtperf_stats s;
	int i;

	for (i = 0; i < 11; i++) {
		seq[i] = (uint64_t)i;
		d[i] = 50 * US;
	}
	mkflow(r, 11, seq, d, 1000);
	ASSERT_EQ(0, rtperf_analyze(r, 11, &params, &s));
	EXPECT_NEAR(0.01, s.seconds);
	EXPECT_NEAR(8000000, s.payload_bps);
	EXPECT_NEAR(8336000, s.frame_bps);
	EXPECT_EQ(11000ULL, s.bytes);
	EXPECT_EQ(0, s.delay.sd);
	EXPECT_EQ(0U, s.ipdv.max);
	EXPECT_EQ(10U, s.ipdv.n);
	rtperf_stats_free(&s);
}

TEST(window_cbr_is_exact)
{
	/* 1042-byte frames every 1 ms for 100 ms: every 10 ms window holds 10 */
	int64_t t[101];
	uint32_t f[101];
	struct rtperf_window w;
	size_t i;

	for (i = 0; i < 101; i++) {
		t[i] = T0 + (int64_t)i * MS;
		f[i] = 1042;
	}
	ASSERT_EQ(0, rtperf_window(t, f, 101, 10 * MS, 10 * MS, &w));
	EXPECT_TRUE(w.valid);
	EXPECT_NEAR(8336000, w.min);
	EXPECT_NEAR(8336000, w.mean);
	EXPECT_NEAR(8336000, w.max);
	/* windows ending 10, 20, ... 100 ms after the first arrival */
	ASSERT_EQ(10U, w.npoints);
	for (i = 0; i < 10; i++) {
		EXPECT_EQ((int64_t)(i + 1) * 10 * MS, w.points[i].t_ns);
		EXPECT_NEAR(8336000, w.points[i].bps);
	}
	free(w.points);
}

TEST(window_gap_min_max_mean)
{
	/*
	 * 100-byte frames at 0..8 ms without 5, W = 4 ms: t in [4, 8]. The
	 * window (t - 4, t] holds 4 frames for t in [4, 5), then 3: min 3,
	 * max 4, time mean (4 x 1 + 3 x 3) / 4 = 3.25 frames; one frame is
	 * 100 x 8 / 4 ms = 200 kbit/s.
	 */
	static const int64_t ms[] = { 0, 1, 2, 3, 4, 6, 7, 8 };
	int64_t t[8];
	uint32_t f[8];
	struct rtperf_window w;
	int i;

	for (i = 0; i < 8; i++) {
		t[i] = T0 + ms[i] * MS;
		f[i] = 100;
	}
	ASSERT_EQ(0, rtperf_window(t, f, 8, 4 * MS, 1 * MS, &w));
	EXPECT_TRUE(w.valid);
	EXPECT_NEAR(600000, w.min);
	EXPECT_NEAR(800000, w.max);
	EXPECT_NEAR(650000, w.mean);
	ASSERT_EQ(5U, w.npoints);	/* t = 4, 5, 6, 7, 8 */
	EXPECT_NEAR(800000, w.points[0].bps);
	EXPECT_NEAR(600000, w.points[1].bps);
	EXPECT_NEAR(600000, w.points[4].bps);
	free(w.points);
}

TEST(window_shorter_flow_and_single_window)
{
	int64_t t[3] = { T0, T0 + 1 * MS, T0 + 2 * MS };
	uint32_t f[3] = { 100, 100, 100 };
	struct rtperf_window w;

	/* 2 ms of flow, 4 ms window: no window fits */
	ASSERT_EQ(0, rtperf_window(t, f, 3, 4 * MS, 1 * MS, &w));
	EXPECT_FALSE(w.valid);
	EXPECT_EQ(0U, w.npoints);
	/* exactly one window: (0, 2] holds the last two */
	ASSERT_EQ(0, rtperf_window(t, f, 3, 2 * MS, 0, &w));
	EXPECT_TRUE(w.valid);
	EXPECT_NEAR(800000, w.min);
	EXPECT_NEAR(800000, w.max);
	EXPECT_NEAR(800000, w.mean);
}

/* B(t) by definition: the frames with t - W < t_k <= t */
static uint64_t brute(const int64_t *t, const uint32_t *f, size_t n, int64_t W, int64_t at)
{
	uint64_t b = 0;
	size_t k;

	for (k = 0; k < n; k++)
		if (t[k] > at - W && t[k] <= at)
			b += f[k];
	return b;
}

TEST(window_against_brute_force)
{
	enum { N = 400 };
	const int64_t W = 5 * MS, step = 10 * US;
	int64_t t[N], at, a, b;
	uint32_t f[N];
	struct rtperf_window w;
	double scale = 8e9 / W, lo, hi, sum;
	int run, i;

	srandom(7);
	for (run = 0; run < 20; run++) {
		/* bursty arrivals on a 10 us grid, random sizes */
		t[0] = T0;
		f[0] = 64 + (uint32_t)(random() % 1450);
		for (i = 1; i < N; i++) {
			t[i] = t[i - 1] + (random() % 4 ? (random() % 30) * 10 * US : 0);
			f[i] = 64 + (uint32_t)(random() % 1450);
		}
		ASSERT_EQ(0, rtperf_window(t, f, N, (uint64_t)W, 0, &w));
		ASSERT_TRUE(w.valid);
		/* every grid point; the rate only changes on the grid */
		a = t[0] + W;
		b = t[N - 1];
		lo = hi = brute(t, f, N, W, a) * scale;
		sum = 0;
		for (at = a; at <= b; at += step) {
			double v = brute(t, f, N, W, at) * scale;

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			if (at < b)
				sum += v * step;
		}
		EXPECT_NEAR(lo, w.min);
		EXPECT_NEAR(hi, w.max);
		if (b > a) {
			EXPECT_NEAR(sum / (b - a), w.mean);
		}
	}
}

TEST(empty_and_single)
{
	struct rtperf_rec r = { .seq = 5, .tx_ns = T0, .rx_ns = T0 + 7 * US, .size = 64 };
	struct rtperf_stats s;

	ASSERT_EQ(0, rtperf_analyze(NULL, 0, &params, &s));
	EXPECT_EQ(0ULL, s.received);
	ASSERT_EQ(0, rtperf_analyze(&r, 1, &params, &s));
	EXPECT_EQ(1ULL, s.expected);
	EXPECT_EQ(0ULL, s.lost);
	EXPECT_EQ(7 * US, s.delay.min);
	EXPECT_EQ(0U, s.iat.n);
	EXPECT_EQ(0U, s.ipdv.n);
	EXPECT_EQ(0, s.payload_bps);
	EXPECT_FALSE(s.win.valid);
	rtperf_stats_free(&s);
}

TEST(wire_header_v2)
{
	/* a CLOCK_REALTIME-sized time whose low 48 bits are 0x3344...88 */
	const uint64_t sched = 0x1122334455667788ULL;
	struct rtperf_hdr h = { .flow = 0xc3d4, .seq = 0x05060708,
				.sched_ns = sched, .tx_ns = sched + 0x01020304 }, g;
	unsigned char buf[64] = { 0 };

	rtperf_hdr_put(buf, &h);
	/* 18 bytes, network byte order, at the documented offsets */
	EXPECT_EQ(18, RTPERF_HDR_LEN);
	EXPECT_EQ('R', buf[0]);
	EXPECT_EQ(2, buf[1]);
	EXPECT_EQ(0xc3, buf[2]);
	EXPECT_EQ(0x05, buf[4]);
	EXPECT_EQ(0x08, buf[7]);
	EXPECT_EQ(0x33, buf[8]);
	EXPECT_EQ(0x88, buf[13]);
	EXPECT_EQ(0x01, buf[14]);
	EXPECT_EQ(0x04, buf[17]);
	EXPECT_EQ(0, buf[18]);
	/* received 5 ms later: both times whole again */
	ASSERT_EQ(0, rtperf_hdr_get(buf, RTPERF_HDR_LEN, sched + 5 * MS, &g));
	EXPECT_EQ(2, g.version);
	EXPECT_EQ(h.flow, g.flow);
	EXPECT_EQ(h.seq, g.seq);
	EXPECT_EQ(sched, g.sched_ns);
	EXPECT_EQ(h.tx_ns, g.tx_ns);
	EXPECT_EQ(-1, rtperf_hdr_get(buf, RTPERF_HDR_LEN - 1, sched, &g));
	buf[1] = 3;	/* another version */
	EXPECT_EQ(-1, rtperf_hdr_get(buf, sizeof(buf), sched, &g));
}

TEST(wire_stamps_unwrap)
{
	const uint64_t mod = 1ULL << 48, rx = 1795000000123456789ULL;

	/* across a wrap of the 48 bits, and a stamp a little after rx */
	EXPECT_EQ(rx - 7 * MS, rtperf_stamp_unwrap((rx - 7 * MS) % mod, rx));
	EXPECT_EQ(rx - (rx % mod) - 3, rtperf_stamp_unwrap(mod - 3, rx - (rx % mod) + 2));
	EXPECT_EQ(rx + 4 * US, rtperf_stamp_unwrap((rx + 4 * US) % mod, rx));
	EXPECT_EQ(rx, rtperf_stamp_unwrap(rx % mod, rx));
}

TEST(wire_send_after_intended_saturates)
{
	struct rtperf_hdr h = { .flow = 1, .sched_ns = 5000000000ULL, .tx_ns = 4000000000ULL }, g;
	unsigned char buf[RTPERF_HDR_LEN];

	/* a socket stamp before the intended one (cannot be): no negative wait */
	rtperf_hdr_put(buf, &h);
	ASSERT_EQ(0, rtperf_hdr_get(buf, sizeof(buf), h.sched_ns, &g));
	EXPECT_EQ(h.sched_ns, g.tx_ns);
	/* held longer than 2^32 ns: saturates */
	h.tx_ns = h.sched_ns + 10000000000ULL;
	rtperf_hdr_put(buf, &h);
	ASSERT_EQ(0, rtperf_hdr_get(buf, sizeof(buf), h.tx_ns, &g));
	EXPECT_EQ(h.sched_ns + UINT32_MAX, g.tx_ns);
}

TEST(wire_header_v1_still_read)
{
	/* magic "RTPF", version 1, flow, u64 sequence, u64 send time */
	static const unsigned char v1[28] = {
		'R', 'T', 'P', 'F', 0, 1, 0, 0, 0xa1, 0xb2, 0xc3, 0xd4,
		1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	unsigned char buf[28];
	struct rtperf_hdr g;

	ASSERT_EQ(0, rtperf_hdr_get(v1, sizeof(v1), 0, &g));
	EXPECT_EQ(1, g.version);
	EXPECT_EQ(0xa1b2c3d4U, g.flow);
	EXPECT_EQ(0x0102030405060708ULL, g.seq);
	EXPECT_EQ(0x1122334455667788ULL, g.tx_ns);
	EXPECT_EQ(g.tx_ns, g.sched_ns);
	EXPECT_EQ(-1, rtperf_hdr_get(v1, 27, 0, &g));
	memcpy(buf, v1, sizeof(buf));
	buf[5] = 9;
	EXPECT_EQ(-1, rtperf_hdr_get(buf, sizeof(buf), 0, &g));
	buf[5] = 1;
	buf[0] = 'X';
	EXPECT_EQ(-1, rtperf_hdr_get(buf, sizeof(buf), 0, &g));
}

TEST(delay_from_intended_and_from_socket)
{
	/* held 0, 2 and 1 ms by a shaper, then 100 us of network each */
	static const uint64_t seq[] = { 0, 1, 2 };
	static const int64_t d[] = { 100 * US, 2100 * US, 1100 * US };
	struct rtperf_rec r[3];
	struct rtperf_stats s;
	int i;

	mkflow(r, 3, seq, d, 100);
	for (i = 0; i < 3; i++) {
		r[i].sched_ns = r[i].tx_ns;
		r[i].tx_ns = r[i].rx_ns - 100 * US;
	}
	ASSERT_EQ(0, rtperf_analyze(r, 3, &params, &s));
	EXPECT_EQ(100 * US, s.delay.max);
	EXPECT_EQ(0, s.delay.sd);
	EXPECT_EQ(100 * US, s.delay_app.min);
	EXPECT_EQ(2100 * US, s.delay_app.max);
	EXPECT_NEAR(1100 * US, s.delay_app.mean);
	rtperf_stats_free(&s);
}

TEST(student_t_975)
{
	/* tables (Abramowitz and Stegun 26.10) */
	EXPECT_NEAR(12.7062047, rtperf_t975(1));
	EXPECT_TRUE(fabs(rtperf_t975(4) - 2.776) < 1e-3);
	EXPECT_TRUE(fabs(rtperf_t975(30) - 2.042) < 1e-3);
	/* past the table, the expansion: 40, 60, 120 and the normal's 1.96 */
	EXPECT_TRUE(fabs(rtperf_t975(40) - 2.021) < 1e-3);
	EXPECT_TRUE(fabs(rtperf_t975(60) - 2.000) < 1e-3);
	EXPECT_TRUE(fabs(rtperf_t975(120) - 1.980) < 1e-3);
	EXPECT_TRUE(fabs(rtperf_t975(100000) - 1.960) < 1e-3);
	/* the table and the expansion meet smoothly: decreasing across 30 */
	EXPECT_TRUE(rtperf_t975(31) < rtperf_t975(30));
	EXPECT_TRUE(rtperf_t975(31) > rtperf_t975(32));
	EXPECT_TRUE(isnan(rtperf_t975(0)));
}

TEST(estimate_mean_and_confidence_interval)
{
	double v[] = { 10, 12, 9, 11, 13 };
	struct rtperf_est e;

	rtperf_estimate(v, 5, &e);
	EXPECT_EQ(5U, e.n);
	EXPECT_NEAR(11, e.mean);
	/* squares 1 1 4 0 4: 10 over 4 */
	EXPECT_NEAR(sqrt(2.5), e.sd);
	EXPECT_NEAR(2.77644511 * sqrt(2.5) / sqrt(5), e.ci);
	/* one run: a mean, no interval; none: nothing */
	rtperf_estimate(v, 1, &e);
	EXPECT_NEAR(10, e.mean);
	EXPECT_TRUE(isnan(e.ci));
	rtperf_estimate(v, 0, &e);
	EXPECT_TRUE(isnan(e.mean));
	/* equal runs: an interval of 0 */
	v[1] = v[0];
	rtperf_estimate(v, 2, &e);
	EXPECT_EQ(0, e.ci);
}

TEST(jain_fairness_index)
{
	double eq[] = { 0.3, 0.3, 0.3, 0.3 }, one[] = { 1, 0, 0, 0 };
	double zero[] = { 0, 0, 0 }, two[] = { 1, 3 };

	EXPECT_NEAR(1, rtperf_jain(eq, 4));
	EXPECT_NEAR(0.25, rtperf_jain(one, 4));	/* one takes all: 1/n */
	EXPECT_NEAR(1, rtperf_jain(zero, 3));	/* none lost anything: equal */
	EXPECT_NEAR(16.0 / 20, rtperf_jain(two, 2));
}

TEST(window_rate_steady_fencepost_and_starved)
{
	/* 1000-byte frames every ms from 0 to 100 ms */
	int64_t t[101];
	uint32_t f[101];
	size_t i, k;

	for (i = 0; i < 101; i++) {
		t[i] = T0 + (int64_t)i * MS;
		f[i] = 1000;
	}
	/* [10.5, 90.5] ms holds 11..90: 79 gaps of 1 ms, 8 Mbit/s exactly */
	EXPECT_NEAR(8000000, rtperf_window_rate(t, f, 101, T0 + 10500 * US, T0 + 90500 * US, &k));
	EXPECT_EQ(80U, k);
	/* frames bunched in the last 10 ms of a 100 ms window: over the window */
	for (i = 0; i < 11; i++)
		t[i] = T0 + 90 * MS + (int64_t)i * MS;
	EXPECT_NEAR(11 * 8000 / 0.1, rtperf_window_rate(t, f, 11, T0, T0 + 100 * MS, &k));
	EXPECT_EQ(11U, k);
	/* one frame, or none */
	EXPECT_NEAR(8000 / 0.1, rtperf_window_rate(t, f, 1, T0 + 90 * MS, T0 + 190 * MS, &k));
	EXPECT_EQ(0, rtperf_window_rate(t, f, 11, T0 + 200 * MS, T0 + 300 * MS, &k));
	EXPECT_EQ(0U, k);
}

TEST(overlap_of_sending_intervals)
{
	int64_t first[] = { 0, 100, 50 }, last[] = { 1000, 1100, 1000 }, a, b;

	/* common [100, 1000] of union [0, 1100] */
	EXPECT_NEAR(900.0 / 1100, rtperf_overlap(first, last, 3, &a, &b));
	EXPECT_EQ(100, a);
	EXPECT_EQ(1000, b);
	/* disjoint: none */
	first[1] = 2000;
	last[1] = 3000;
	EXPECT_EQ(0, rtperf_overlap(first, last, 3, &a, &b));
	/* one interval overlaps itself whole */
	EXPECT_NEAR(1, rtperf_overlap(first, last, 1, &a, &b));
}

TEST_HARNESS_MAIN
