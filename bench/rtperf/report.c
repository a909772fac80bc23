// SPDX-License-Identifier: GPL-2.0
/* rtperf recv's reports: a table for people, JSON (jansson) for scripts. */
#include <arpa/inet.h>
#include <err.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "rtperf.h"
#include "units.h"

static json_t *jint(double v)
{
	return json_integer((json_int_t)llround(v));
}

/* A distribution in ns; every key null when the sample is empty. */
static json_t *json_dist(const struct rtperf_dist *d)
{
	static const char *const keys[] = { "min", "mean", "p50", "p99", "p999", "max", "sd" };
	const double vals[] = { d->min, d->mean, d->p50, d->p99, d->p999, d->max, d->sd };
	json_t *o = json_object();
	size_t i;

	json_object_set_new(o, "n", json_integer((json_int_t)d->n));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set_new(o, keys[i], !d->n ? json_null() :
				    /* observations are whole ns; mean and sd are not */
				    i == 1 || i == 6 ? json_real(vals[i]) : jint(vals[i]));
	return o;
}

static json_t *json_flow(const struct flow *f, const struct recv_report *rep)
{
	const struct rtperf_stats *s = &f->st;
	json_t *o, *iat, *bins, *win;
	char src[INET_ADDRSTRLEN];
	size_t i;

	inet_ntop(AF_INET, &f->src, src, sizeof(src));
	o = json_pack("{s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f,"
		      " s:I, s:f, s:I, s:I}",
		      "flow", (json_int_t)f->id, "src", src,
		      "received", (json_int_t)s->received,
		      "unique", (json_int_t)s->unique,
		      "duplicates", (json_int_t)s->duplicates,
		      "reordered", (json_int_t)s->reordered,
		      "min_seq", (json_int_t)s->min_seq,
		      "max_seq", (json_int_t)s->max_seq,
		      "expected", (json_int_t)s->expected,
		      "lost", (json_int_t)s->lost,
		      "loss_ratio", s->expected ? (double)s->lost / (double)s->expected : 0.0,
		      "bytes", (json_int_t)s->bytes, "seconds", s->seconds,
		      "payload_bps", (json_int_t)llround(s->payload_bps),
		      "frame_bps", (json_int_t)llround(s->frame_bps));
	if (!o)
		return NULL;
	json_object_set_new(o, "delay_ns", json_dist(&s->delay));
	/* from the intended send time; version 1 datagrams have none */
	json_object_set_new(o, "delay_app_ns", f->one_stamp ? json_null() :
			    json_dist(&s->delay_app));
	json_object_set_new(o, "jitter_ns", s->delay.n ? json_real(s->delay.sd) : json_null());
	json_object_set_new(o, "ipdv_ns", json_dist(&s->ipdv));

	iat = json_dist(&s->iat);
	bins = json_array();
	for (i = 0; i < s->hist.nbins; i++)
		json_array_append_new(bins, json_pack("[I, I]",
						      (json_int_t)s->hist.bins[i].lo,
						      (json_int_t)s->hist.bins[i].count));
	json_object_set_new(iat, "bin_ns", json_integer((json_int_t)rep->params.bin_ns));
	json_object_set_new(iat, "histogram", bins);
	json_object_set_new(o, "iat_ns", iat);

	if (s->win.valid) {
		win = json_pack("{s:I, s:I, s:I, s:I}",
				"window_ns", (json_int_t)s->win.window_ns,
				"min_bps", (json_int_t)llround(s->win.min),
				"mean_bps", (json_int_t)llround(s->win.mean),
				"max_bps", (json_int_t)llround(s->win.max));
		if (rep->params.step_ns) {
			json_t *series = json_array();

			for (i = 0; i < s->win.npoints; i++)
				json_array_append_new(series, json_pack("[I, I]",
					(json_int_t)s->win.points[i].t_ns,
					(json_int_t)llround(s->win.points[i].bps)));
			json_object_set_new(win, "series", series);
		}
	} else {
		win = json_null();
	}
	json_object_set_new(o, "window", win);
	return o;
}

void report_json(const struct recv_report *rep)
{
	json_t *o, *flows = json_array();
	size_t i;

	for (i = 0; i < rep->nflows; i++) {
		json_t *f = json_flow(&rep->flows[i], rep);

		if (!f)
			errx(1, "out of memory");
		json_array_append_new(flows, f);
	}
	o = json_pack("{s:s, s:i, s:f, s:I, s:I, s:I, s:I, s:I, s:o}",
		      "role", "recv", "port", rep->port, "seconds", rep->seconds,
		      "invalid", (json_int_t)rep->invalid,
		      "socket_drops", (json_int_t)rep->socket_drops,
		      "untimestamped", (json_int_t)rep->untimestamped,
		      "window_ns", (json_int_t)rep->params.window_ns,
		      "bin_ns", (json_int_t)rep->params.bin_ns,
		      "flows", flows);
	if (!o || json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10)))
		errx(1, "cannot write the JSON report");
	putchar('\n');
	json_decref(o);
}

static void print_dist(const char *name, const struct rtperf_dist *d, int pct)
{
	char a[32], b[32], c[32], e[32], f[32], g[32];

	if (!d->n) {
		printf("  %-15s -\n", name);
		return;
	}
	format_ns(d->min, a, sizeof(a));
	format_ns(d->mean, b, sizeof(b));
	format_ns(d->p50, c, sizeof(c));
	format_ns(d->p99, e, sizeof(e));
	format_ns(d->max, f, sizeof(f));
	format_ns(d->sd, g, sizeof(g));
	printf("  %-15s min %s  mean %s  p50 %s  p99 %s", name, a, b, c, e);
	if (pct) {
		format_ns(d->p999, e, sizeof(e));
		printf("  p99.9 %s", e);
	}
	printf("  max %s  sd %s\n", f, g);
}

static void table_flow(const struct flow *f, const struct recv_report *rep)
{
	const struct rtperf_stats *s = &f->st;
	char src[INET_ADDRSTRLEN], a[32], b[32], c[32], name[48];
	size_t i;

	inet_ntop(AF_INET, &f->src, src, sizeof(src));
	printf("flow %u from %s: %llu received, %llu lost (%.2f%%), %llu duplicate, "
	       "%llu reordered; seq %llu..%llu\n",
	       f->id, src, (unsigned long long)s->received, (unsigned long long)s->lost,
	       s->expected ? 100.0 * s->lost / s->expected : 0.0,
	       (unsigned long long)s->duplicates, (unsigned long long)s->reordered,
	       (unsigned long long)s->min_seq, (unsigned long long)s->max_seq);
	format_rate((uint64_t)s->payload_bps, a, sizeof(a));
	format_rate((uint64_t)s->frame_bps, b, sizeof(b));
	printf("  %-15s payload %s/s  frames %s/s  over %.3f s\n", "throughput", a, b,
	       s->seconds);
	print_dist("one-way delay", &s->delay, 1);
	if (!f->one_stamp)
		print_dist("from intended", &s->delay_app, 1);
	format_ns(s->delay.sd, a, sizeof(a));
	printf("  %-15s %s (sd of delay)\n", "jitter", s->delay.n ? a : "-");
	print_dist("|ipdv|", &s->ipdv, 0);
	print_dist("inter-arrival", &s->iat, 0);
	format_time(s->win.window_ns, c, sizeof(c));
	snprintf(name, sizeof(name), "%s window", c);
	if (s->win.valid) {
		format_rate((uint64_t)s->win.min, a, sizeof(a));
		format_rate((uint64_t)s->win.mean, b, sizeof(b));
		format_rate((uint64_t)s->win.max, c, sizeof(c));
		printf("  %-15s min %s/s  mean %s/s  max %s/s (frames)\n", name, a, b, c);
	} else {
		printf("  %-15s - (the flow lasted less than a window)\n", name);
	}
	if (rep->show_hist && s->hist.nbins) {
		printf("  inter-arrival histogram:\n");
		for (i = 0; i < s->hist.nbins; i++) {
			format_ns((double)s->hist.bins[i].lo, a, sizeof(a));
			format_ns((double)(s->hist.bins[i].lo + (int64_t)s->hist.bin_ns), b,
				  sizeof(b));
			printf("    %10s - %-10s %llu\n", a, b,
			       (unsigned long long)s->hist.bins[i].count);
		}
	}
	if (rep->params.step_ns && s->win.npoints) {
		printf("  window series (end of window after the first arrival, frame rate):\n");
		for (i = 0; i < s->win.npoints; i++) {
			format_ns((double)s->win.points[i].t_ns, a, sizeof(a));
			format_rate((uint64_t)s->win.points[i].bps, b, sizeof(b));
			printf("    %10s %s/s\n", a, b);
		}
	}
}

void report_table(const struct recv_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nflows; i++)
		table_flow(&rep->flows[i], rep);
	printf("listened %.3f s on port %u: %zu flow%s", rep->seconds, rep->port,
	       rep->nflows, rep->nflows == 1 ? "" : "s");
	if (rep->invalid)
		printf(", %llu datagrams not rtperf's", (unsigned long long)rep->invalid);
	if (rep->socket_drops)
		printf(", %llu dropped by the socket", (unsigned long long)rep->socket_drops);
	if (rep->untimestamped)
		printf(", %llu without kernel timestamp", (unsigned long long)rep->untimestamped);
	printf("\n");
}
