// SPDX-License-Identifier: GPL-2.0
/* rtperf's statistics of one flow (definitions in stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double rtperf_percentile(const double *sorted, size_t n, uint32_t ppm)
{
	/* rank = ceil(ppm x n / 10^6), in integers: p99.9 of 1000 is the 999th */
	unsigned __int128 rank = ((unsigned __int128)ppm * n + 999999) / 1000000;

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

void rtperf_dist(double *v, size_t n, struct rtperf_dist *d)
{
	double sum = 0, m2 = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	d->n = n;
	d->mean = sum / n;
	/* two passes: squares of absolute timestamps' size would cancel badly */
	for (i = 0; i < n; i++)
		m2 += (v[i] - d->mean) * (v[i] - d->mean);
	d->sd = n > 1 ? sqrt(m2 / (n - 1)) : 0;
	d->min = v[0];
	d->max = v[n - 1];
	d->p50 = rtperf_percentile(v, n, 500000);
	d->p99 = rtperf_percentile(v, n, 990000);
	d->p999 = rtperf_percentile(v, n, 999000);
}

int rtperf_hist(const double *sorted, size_t n, uint64_t bin_ns,
		struct rtperf_hist *h)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->bin_ns = bin_ns;
	if (!n || !bin_ns)
		return 0;
	/* at most one bin per value: sparse, whatever the outliers */
	h->bins = calloc(n, sizeof(*h->bins));
	if (!h->bins)
		return -1;
	for (i = 0; i < n; i++) {
		int64_t lo = (int64_t)floor(sorted[i] / (double)bin_ns) * (int64_t)bin_ns;

		if (!h->nbins || h->bins[h->nbins - 1].lo != lo)
			h->bins[h->nbins++].lo = lo;
		h->bins[h->nbins - 1].count++;
	}
	return 0;
}

int rtperf_window(const int64_t *t, const uint32_t *frame, size_t n,
		  uint64_t window_ns, uint64_t step_ns, struct rtperf_window *w)
{
	const double scale = 8e9 / (double)window_ns;	/* bytes per window -> bit/s */
	int64_t a, b, W = (int64_t)window_ns;
	uint64_t cur = 0, hi_sum = 0, lo_sum = 0;
	size_t i = 0, j = 0, lo, hi, k;
	long double integral = 0;
	int first = 1;

	memset(w, 0, sizeof(*w));
	w->window_ns = window_ns;
	if (n < 2 || !window_ns || t[n - 1] - t[0] < W)
		return 0;
	/* windows that start at or after the first arrival */
	a = t[0] + W;
	b = t[n - 1];
	w->valid = 1;

	/*
	 * The rate is a step function of t: frame k counts for t in
	 * [t_k, t_k + W). It rises only at arrivals and falls only at
	 * arrivals + W, so its extremes are at those instants (and at a).
	 */
	for (;;) {
		int64_t e;

		if (first)
			e = a;
		else if (i < n && t[i] <= t[j] + W)
			e = t[i];
		else
			e = t[j] + W;
		if (e > b)
			break;
		while (i < n && t[i] <= e)
			cur += frame[i++];
		while (j < i && t[j] + W <= e)
			cur -= frame[j++];
		if (first || cur * scale < w->min)
			w->min = cur * scale;
		if (first || cur * scale > w->max)
			w->max = cur * scale;
		if (first && a == b)
			w->mean = cur * scale;
		first = 0;
		if (j >= n)
			break;
	}

	/* the mean over time: frame k's bytes weigh |[t_k, t_k + W) ^ [a, b]| */
	if (b > a) {
		for (k = 0; k < n; k++) {
			int64_t from = t[k] > a ? t[k] : a;
			int64_t to = t[k] + W < b ? t[k] + W : b;

			if (to > from)
				integral += (long double)frame[k] * (to - from);
		}
		w->mean = (double)(integral / (b - a)) * scale;
	}

	if (!step_ns)
		return 0;
	w->npoints = (size_t)((uint64_t)(b - a) / step_ns) + 1;
	w->points = calloc(w->npoints, sizeof(*w->points));
	if (!w->points) {
		w->npoints = 0;
		return -1;
	}
	lo = hi = 0;
	for (k = 0; k < w->npoints; k++) {
		int64_t at = a + (int64_t)(k * step_ns);

		while (hi < n && t[hi] <= at)
			hi_sum += frame[hi++];
		while (lo < hi && t[lo] + W <= at)
			lo_sum += frame[lo++];
		w->points[k].t_ns = at - t[0];
		w->points[k].bps = (hi_sum - lo_sum) * scale;
	}
	return 0;
}

struct by_seq {
	uint64_t seq;
	size_t idx;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct by_seq *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct arrival {
	int64_t t;
	uint32_t size;
};

static int cmp_arrival(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

int rtperf_analyze(const struct rtperf_rec *r, size_t n,
		   const struct rtperf_params *p, struct rtperf_stats *s)
{
	struct by_seq *bs = NULL;
	struct arrival *arr = NULL;
	unsigned char *dup = NULL;
	double *v = NULL;
	int64_t *t = NULL;
	uint32_t *frame = NULL;
	uint64_t next_exp = 0;
	size_t i, m, prev;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	s->hist.bin_ns = p->bin_ns;
	s->win.window_ns = p->window_ns;
	s->received = n;
	if (!n)
		return 0;
	bs = malloc(n * sizeof(*bs));
	dup = calloc(n, 1);
	v = malloc(n * sizeof(*v));
	arr = malloc(n * sizeof(*arr));
	t = malloc(n * sizeof(*t));
	frame = malloc(n * sizeof(*frame));
	if (!bs || !dup || !v || !arr || !t || !frame)
		goto out;

	/* duplicates: every arrival of a number after its first */
	for (i = 0; i < n; i++)
		bs[i] = (struct by_seq){ r[i].seq, i };
	qsort(bs, n, sizeof(*bs), cmp_seq);
	for (i = 1; i < n; i++)
		if (bs[i].seq == bs[i - 1].seq)
			dup[bs[i].idx] = 1;
	for (i = 0; i < n; i++)
		s->duplicates += dup[i];
	s->unique = n - s->duplicates;
	s->min_seq = bs[0].seq;
	s->max_seq = bs[n - 1].seq;
	s->expected = s->max_seq - s->min_seq == UINT64_MAX ? UINT64_MAX :
		      s->max_seq - s->min_seq + 1;
	s->lost = s->expected - s->unique;

	/* RFC 4737: below the next expected number means reordered */
	for (i = 0, m = 0; i < n; i++) {
		if (dup[i])
			continue;
		if (m++ && r[i].seq < next_exp)
			s->reordered++;
		else
			next_exp = r[i].seq + 1;
	}

	/* one-way delay, from the socket and from the intention */
	for (i = 0, m = 0; i < n; i++)
		if (!dup[i])
			v[m++] = (double)(r[i].rx_ns - r[i].tx_ns);
	rtperf_dist(v, m, &s->delay);
	for (i = 0, m = 0; i < n; i++)
		if (!dup[i])
			v[m++] = (double)(r[i].rx_ns - r[i].sched_ns);
	rtperf_dist(v, m, &s->delay_app);

	/* |IPDV| of consecutive sequence numbers, both received */
	for (i = 0, m = 0, prev = SIZE_MAX; i < n; i++) {
		const struct rtperf_rec *c = &r[bs[i].idx];

		if (dup[bs[i].idx])
			continue;
		if (prev != SIZE_MAX && c->seq == r[prev].seq + 1)
			v[m++] = fabs((double)(c->rx_ns - c->tx_ns) -
				      (double)(r[prev].rx_ns - r[prev].tx_ns));
		prev = bs[i].idx;
	}
	rtperf_dist(v, m, &s->ipdv);

	/* arrivals in time order: inter-arrival, throughput, window */
	for (i = 0, m = 0; i < n; i++)
		if (!dup[i])
			arr[m++] = (struct arrival){ r[i].rx_ns, r[i].size };
	qsort(arr, m, sizeof(*arr), cmp_arrival);
	for (i = 0; i < m; i++) {
		t[i] = arr[i].t;
		frame[i] = arr[i].size + p->overhead;
		s->bytes += arr[i].size;
		if (i)
			v[i - 1] = (double)(arr[i].t - arr[i - 1].t);
	}
	s->first_rx = arr[0].t;
	s->last_rx = arr[m - 1].t;
	rtperf_dist(v, m - 1, &s->iat);
	if (rtperf_hist(v, m - 1, p->bin_ns, &s->hist))
		goto out;
	s->seconds = (s->last_rx - s->first_rx) / 1e9;
	if (s->last_rx > s->first_rx) {
		uint64_t pay = s->bytes - arr[0].size;

		s->payload_bps = pay * 8 / s->seconds;
		s->frame_bps = (pay + (uint64_t)(m - 1) * p->overhead) * 8 / s->seconds;
	}
	if (rtperf_window(t, frame, m, p->window_ns, p->step_ns, &s->win))
		goto out;
	ret = 0;
out:
	free(bs);
	free(dup);
	free(v);
	free(arr);
	free(t);
	free(frame);
	if (ret)
		rtperf_stats_free(s);
	return ret;
}

/* t(0.975, df) for df 1..30 (Student's tables), then Cornish-Fisher */
static const double t975[] = {
	12.7062047, 4.30265273, 3.18244631, 2.77644511, 2.57058184,
	2.44691185, 2.36462425, 2.30600414, 2.26215716, 2.22813885,
	2.20098516, 2.17881283, 2.16036866, 2.14478669, 2.13144955,
	2.11990530, 2.10981558, 2.10092204, 2.09302405, 2.08596345,
	2.07961384, 2.07387307, 2.06865761, 2.06389856, 2.05953855,
	2.05552944, 2.05183052, 2.04840714, 2.04522964, 2.04227246,
};

double rtperf_t975(unsigned int df)
{
	const double z = 1.959963985, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
	double v = df;

	if (!df)
		return NAN;
	if (df <= sizeof(t975) / sizeof(t975[0]))
		return t975[df - 1];
	/* the expansion in 1/df: within 1e-6 of the tables from 30 on */
	return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
}

void rtperf_estimate(const double *v, size_t n, struct rtperf_est *e)
{
	double sum = 0, m2 = 0;
	size_t i;

	memset(e, 0, sizeof(*e));
	e->n = n;
	e->ci = NAN;
	if (!n) {
		e->mean = NAN;
		return;
	}
	for (i = 0; i < n; i++)
		sum += v[i];
	e->mean = sum / n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - e->mean) * (v[i] - e->mean);
	if (n < 2)
		return;
	e->sd = sqrt(m2 / (n - 1));
	e->ci = rtperf_t975((unsigned int)(n - 1)) * e->sd / sqrt((double)n);
}

double rtperf_jain(const double *x, size_t n)
{
	double sum = 0, sq = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	return sq > 0 ? sum * sum / (n * sq) : 1;
}

double rtperf_window_rate(const int64_t *t, const uint32_t *frame, size_t n,
			  int64_t a, int64_t b, size_t *inwin)
{
	size_t i, lo = n, hi = 0, k = 0;
	uint64_t bits = 0, first = 0;

	for (i = 0; i < n; i++) {
		if (t[i] < a || t[i] > b)
			continue;
		if (!k++) {
			lo = i;
			first = (uint64_t)frame[i] * 8;
		}
		hi = i;
		bits += (uint64_t)frame[i] * 8;
	}
	*inwin = k;
	if (b <= a || !k)
		return 0;
	/* spread over at least half the window: n - 1 frames over the span */
	if (k >= 2 && 2 * (t[hi] - t[lo]) >= b - a)
		return (double)(bits - first) * 1e9 / (double)(t[hi] - t[lo]);
	return (double)bits * 1e9 / (double)(b - a);
}

double rtperf_overlap(const int64_t *first, const int64_t *last, size_t n,
		      int64_t *a, int64_t *b)
{
	int64_t lo, hi;
	size_t i;

	*a = lo = first[0];
	*b = hi = last[0];
	for (i = 1; i < n; i++) {
		*a = first[i] > *a ? first[i] : *a;
		*b = last[i] < *b ? last[i] : *b;
		lo = first[i] < lo ? first[i] : lo;
		hi = last[i] > hi ? last[i] : hi;
	}
	if (hi == lo)
		return *b >= *a ? 1 : 0;
	return *b > *a ? (double)(*b - *a) / (double)(hi - lo) : 0;
}

void rtperf_stats_free(struct rtperf_stats *s)
{
	free(s->hist.bins);
	s->hist.bins = NULL;
	s->hist.nbins = 0;
	free(s->win.points);
	s->win.points = NULL;
	s->win.npoints = 0;
}
