/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtperf's statistics of one flow: pure functions of the datagrams a
 * receiver recorded, so that selftests/unit/rtperf_stats_test.c can check
 * them on made-up data with known answers.
 *
 * Definitions (rtperf(1) has them for users):
 *  - arrival order is the order the records are given in (recvmsg's);
 *    the first arrival of a sequence number is the datagram, later ones
 *    are duplicates and count only as such;
 *  - lost = (max seq - min seq + 1) - unique received;
 *  - reordered (RFC 4737): a datagram whose sequence number is lower than
 *    the next expected one, which is one past the highest seen so far;
 *  - one-way delay = rx - tx; jitter = its sample standard deviation
 *    (Jacobs et al.);
 *  - IPDV (RFC 3393, selection: consecutive sequence numbers, both
 *    received) = D(k+1) - D(k), summarized as |IPDV|, the
 *    Type-P-One-way-ipdv-jitter of Ferrari et al.;
 *  - inter-arrival times between consecutive arrivals in receive-time
 *    order;
 *  - throughput over the first to the last arrival, which carry n - 1
 *    datagrams' worth of time: the first one's bytes are not counted;
 *  - the sliding-window rate at time t counts the frames arriving in
 *    (t - W, t], for t from first arrival + W to the last arrival
 *    (the EtheReal paper's Fig. 5 uses W = 80 ms);
 *  - percentiles are nearest-rank: the smallest value with at least p% of
 *    the sample at or below it, always an observed value.
 */
#ifndef RTPERF_STATS_H
#define RTPERF_STATS_H

#include <stddef.h>
#include <stdint.h>

/* One datagram as the receiver saw it. */
struct rtperf_rec {
	uint64_t seq;
	int64_t tx_ns;		/* sender's CLOCK_REALTIME, from the header */
	int64_t rx_ns;		/* kernel receive timestamp, CLOCK_REALTIME */
	uint32_t size;		/* UDP payload bytes */
};

/* A sample, summarized. All zero when n is 0; sd is 0 when n < 2. */
struct rtperf_dist {
	size_t n;
	double min, max, mean, sd;	/* sd: sample (n - 1) standard deviation */
	double p50, p99, p999;
};

struct rtperf_bin {
	int64_t lo;		/* the bin holds [lo, lo + bin width) */
	uint64_t count;
};

/* A histogram's non-empty bins, in ascending order. */
struct rtperf_hist {
	uint64_t bin_ns;
	size_t nbins;
	struct rtperf_bin *bins;
};

struct rtperf_point {
	int64_t t_ns;		/* end of the window, from the first arrival */
	double bps;
};

/* The sliding-window rate, frame bit/s. */
struct rtperf_window {
	uint64_t window_ns;
	int valid;		/* 0: the flow lasted less than one window */
	double min, mean, max;	/* min, max over every t; mean over time */
	size_t npoints;		/* the series, if asked for (step_ns) */
	struct rtperf_point *points;
};

struct rtperf_params {
	uint64_t window_ns;	/* sliding window, > 0 */
	uint64_t bin_ns;	/* inter-arrival histogram's bin width, > 0 */
	uint64_t step_ns;	/* window series' step; 0: no series */
	uint32_t overhead;	/* bytes a frame adds to the payload (42) */
};

struct rtperf_stats {
	uint64_t received;	/* every datagram, duplicates included */
	uint64_t unique, duplicates, reordered;
	uint64_t min_seq, max_seq, expected, lost;
	uint64_t bytes;		/* payload of the unique datagrams */
	int64_t first_rx, last_rx;
	double seconds, payload_bps, frame_bps;
	struct rtperf_dist delay;	/* ns */
	struct rtperf_dist ipdv;	/* |IPDV|, ns */
	struct rtperf_dist iat;		/* ns */
	struct rtperf_hist hist;
	struct rtperf_window win;
};

/* Nearest-rank percentile of SORTED (N > 0); PPM in parts per million. */
double rtperf_percentile(const double *sorted, size_t n, uint32_t ppm);

/* Summarizes the N values of V, sorting V in place. */
void rtperf_dist(double *v, size_t n, struct rtperf_dist *d);

/* Bins SORTED (N values, all >= 0) by BIN_NS. 0, or -1 out of memory. */
int rtperf_hist(const double *sorted, size_t n, uint64_t bin_ns,
		struct rtperf_hist *h);

/*
 * The sliding-window rate of N arrivals at times T (ascending) of FRAME
 * bytes each. 0, or -1 out of memory (the series).
 */
int rtperf_window(const int64_t *t, const uint32_t *frame, size_t n,
		  uint64_t window_ns, uint64_t step_ns, struct rtperf_window *w);

/* Everything above, for the N records of one flow. 0, or -1 out of memory. */
int rtperf_analyze(const struct rtperf_rec *r, size_t n,
		   const struct rtperf_params *p, struct rtperf_stats *s);

void rtperf_stats_free(struct rtperf_stats *s);

#endif
