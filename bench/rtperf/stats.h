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
 *  - one-way delay = rx - tx, tx the socket's send time (the network's
 *    delay); the application's = rx - sched, sched when it meant to send
 *    (its schedule: a shaper's wait at the host included); jitter = the
 *    network delay's sample standard deviation (Jacobs et al.);
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
 *
 * And what bench/'s methods (rtperf analyze, Documentation/benchmarks.md)
 * build on them, across flows and runs:
 *  - the steady-state rate of a flow in a window [a, b] of time: of the
 *    n frames arriving in it, frames 2..n over the last minus the first
 *    arrival (n arrivals span n - 1 gaps); a flow whose arrivals span less
 *    than half the window (starved part of it, its few frames bunched)
 *    is rated over the whole window instead, all its frames over b - a;
 *  - the overlap of flows' sending intervals [first_i, last_i]: the
 *    length of their intersection over that of their union;
 *  - an estimate over runs: the mean of the runs' values and the half
 *    width of its 95% confidence interval, t(0.975, n - 1) x sd / sqrt(n)
 *    (Student's t; none below two runs);
 *  - Jain's fairness index of x_1..x_n: (sum x)^2 / (n sum x^2), from 1/n
 *    (one takes all) to 1 (all equal); 1 when every x is 0.
 */
#ifndef RTPERF_STATS_H
#define RTPERF_STATS_H

#include <stddef.h>
#include <stdint.h>

/* One datagram as the receiver saw it. */
struct rtperf_rec {
	uint64_t seq;
	int64_t sched_ns;	/* intended send time, CLOCK_REALTIME (header) */
	int64_t tx_ns;		/* socket send time, CLOCK_REALTIME (header) */
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
	struct rtperf_dist delay;	/* ns, from the socket's send time */
	struct rtperf_dist delay_app;	/* ns, from the intended send time */
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

/* The estimate of a quantity measured once per run: N runs' values V. */
struct rtperf_est {
	size_t n;
	double mean, sd;	/* sd: sample standard deviation (0 below 2) */
	double ci;		/* half width of the 95% interval; NAN below 2 */
};

/* t(0.975, DF), Student's t distribution's 97.5th percentile (DF > 0). */
double rtperf_t975(unsigned int df);

void rtperf_estimate(const double *v, size_t n, struct rtperf_est *e);

/* Jain's fairness index of the N values X (N > 0). */
double rtperf_jain(const double *x, size_t n);

/*
 * The steady-state frame rate (bit/s) of N arrivals at times T (ascending)
 * of FRAME bytes each, in the window [A, B] (B > A); *INWIN: how many
 * arrived in it.
 */
double rtperf_window_rate(const int64_t *t, const uint32_t *frame, size_t n,
			  int64_t a, int64_t b, size_t *inwin);

/*
 * The common interval [*A, *B] of N intervals [FIRST_i, LAST_i] (N > 0),
 * and the overlap: its length over the union's, 0 when empty, 1 when every
 * interval is the same instant.
 */
double rtperf_overlap(const int64_t *first, const int64_t *last, size_t n,
		      int64_t *a, int64_t *b);

/* Everything above, for the N records of one flow. 0, or -1 out of memory. */
int rtperf_analyze(const struct rtperf_rec *r, size_t n,
		   const struct rtperf_params *p, struct rtperf_stats *s);

void rtperf_stats_free(struct rtperf_stats *s);

#endif
