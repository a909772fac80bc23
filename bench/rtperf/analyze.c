// SPDX-License-Identifier: GPL-2.0
/*
 * rtperf analyze: one measurement point of bench/ from its runs, the
 * methods of Documentation/benchmarks.md in one place. Each RUNDIR holds
 * what one run's rtperf processes wrote: NAME.tx (a sender's JSON report),
 * RX.rx (a receiver's JSON report) and RX.csv (its datagrams, recv -o),
 * and optionally "why", a line saying the run went wrong before it was
 * measured, and hops-SWITCH.json, what each switch measured of the reserved
 * flows (hops.h). Per run: the flows' common steady-state window, each flow's
 * rate, loss, delays and IPDV in it, and whether the run is valid; over
 * the valid runs: means with 95% confidence intervals, pooled
 * percentiles and CDFs, per flow and per class, and Jain's index of each
 * class. JSON on stdout; with -c, only the runs that are not valid, one
 * line each, and exit status 1 if there is one.
 *
 * rtperf estimate LIST...: the same estimate (mean, 95% interval) of
 * values a scenario measured itself once per run, each LIST a
 * comma-separated list of numbers (empty: none), as a JSON array.
 */
#include <dirent.h>
#include <err.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hops.h"
#include "ids.h"
#include "rtperf.h"

/* -F NAME:RX:FLOW:CLASS[:OFFERED[:RESERVED[:FLAGS]]] */
struct spec {
	char *name, *rx, *class;
	uint32_t flow;
	double offered, reserved;	/* bit/s; NAN: not given */
	int hostq;			/* flag h: the host's queue is under test */
	int overload;			/* flag o: offers beyond RESERVED on purpose */
};

/* One flow in one run. */
struct frun {
	int sent_ok;			/* its sender reported */
	uint64_t sent, received, expected, lost, enobufs, inwin;
	double late_max, gap;		/* ns; gap: between batches */
	uint64_t late_over;		/* sends later than a gap */
	uint64_t skipped;		/* departures skipped after stalls (--skip) */
	double stall_max;		/* ns */
	int skip;
	uint64_t batch;			/* datagrams sent at once */
	int64_t first, last;		/* intended sends, CLOCK_REALTIME */
	double tput, loss, jitter, ipdv;
	double sent_bps;		/* what was meant to be sent in the window */
	double max_all;			/* ns: the largest delay of the whole run */
	/* a reservation's contract and bound (rttr_info()); bound NAN: none */
	double bound, res_rate, res_burst, res_max_pkt, res_hops;
	char pacing[8];
	/* what the switches measured of its frames (hops.h) */
	struct rtperf_hop hops[RTPERF_MAX_HOPS];
	size_t nhops;
	uint64_t size;			/* UDP payload bytes */
	struct rtperf_dist net, app;	/* in the window */
	double *vnet, *vapp;		/* the window's delays, ns */
	size_t nd;
};

/* One receiver's datagrams in one run. */
struct rxdata {
	struct rtperf_rec *rec;
	uint32_t *flow;
	size_t n, cap;
	uint64_t drops;
	int ok;
};

struct opts {
	double warmup;			/* s */
	double min_overlap;
	double max_skip;		/* of a sender's departures, a fraction */
	const char *export;
	int check;			/* -c: say which runs are not valid */
};

static struct spec *specs;
static size_t nspecs;

/* The quantiles every CDF is sampled at, ppm */
static uint32_t cdf_ppm[128];
static size_t ncdf;

static void cdf_init(void)
{
	uint32_t p;

	cdf_ppm[ncdf++] = 0;
	for (p = 10000; p <= 990000; p += 10000)
		cdf_ppm[ncdf++] = p;
	cdf_ppm[ncdf++] = 995000;
	cdf_ppm[ncdf++] = 999000;
	cdf_ppm[ncdf++] = 999900;
	cdf_ppm[ncdf++] = 1000000;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rtperf analyze [-c] [-w WARMUP] [-O MIN_OVERLAP] [-S MAX_SKIP] [-o EXPORT.csv]\n"
		"                      -F NAME:RX:FLOW:CLASS[:OFFERED[:RESERVED[:FLAGS]]]... RUNDIR...\n");
	exit(2);
}

static char *field(char **p)
{
	char *f = *p, *c;

	if (!f)
		return NULL;
	c = strchr(f, ':');
	if (c) {
		*c = 0;
		*p = c + 1;
	} else {
		*p = NULL;
	}
	return f;
}

static double rate_field(const char *f, const char *arg)
{
	char *end;
	double v;

	if (!f || !*f)
		return NAN;
	v = strtod(f, &end);
	if (*end || v < 0)
		errx(2, "bad rate '%s' in '%s': bit/s", f, arg);
	return v;
}

static void add_spec(const char *arg)
{
	char *s = strdup(arg), *p = s, *flow, *flags;
	struct spec *sp;
	char *end;

	if (!s)
		err(1, "strdup");
	specs = realloc(specs, (nspecs + 1) * sizeof(*specs));
	if (!specs)
		err(1, "realloc");
	sp = &specs[nspecs++];
	memset(sp, 0, sizeof(*sp));
	sp->name = field(&p);
	sp->rx = field(&p);
	flow = field(&p);
	sp->class = field(&p);
	if (!sp->name || !*sp->name || !sp->rx || !*sp->rx || !flow || !sp->class)
		errx(2, "bad flow '%s': NAME:RX:FLOW:CLASS[:OFFERED[:RESERVED[:FLAGS]]]", arg);
	sp->flow = (uint32_t)strtoul(flow, &end, 10);
	if (*end || !*flow)
		errx(2, "bad flow id '%s' in '%s'", flow, arg);
	sp->offered = rate_field(field(&p), arg);
	sp->reserved = rate_field(field(&p), arg);
	flags = field(&p);
	sp->hostq = flags && strchr(flags, 'h');
	sp->overload = flags && strchr(flags, 'o');
	if (sp->overload && !(sp->offered > sp->reserved && sp->reserved > 0))
		errx(2, "flow '%s': flag o needs OFFERED above RESERVED", arg);
}

/*
 * The share of its departures a sender may skip after stalls: MAX_SKIP,
 * as its offered load is what its flow's figures are set against. An
 * overload (isolation's misbehaving source) is there to exceed its
 * reservation, and still does while it sends more than half its excess:
 * it may skip (offered - reserved) / (2 x offered), a third at 3x. Its
 * senders are the busiest of a run, so they skip the most, and under the
 * flows' rule most runs with one were invalid whatever the switch did.
 */
static double skip_allowed(const struct spec *sp, double max_skip)
{
	double half_excess;

	if (!sp->overload)
		return max_skip;
	half_excess = (sp->offered - sp->reserved) / (2 * sp->offered);
	return half_excess > max_skip ? half_excess : max_skip;
}

/* --- reading one run --- */

static json_t *load_json(const char *dir, const char *name, const char *ext)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	return json_load_file(path, 0, NULL);
}

static double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Whole numbers as they are: a double would round ns since the epoch. */
static int64_t jint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

/* open-HOST: rtcd open's answers (open-HOST.pid, .req beside it) */
static int open_file(const struct dirent *d)
{
	return !strncmp(d->d_name, "open-", 5) && !strchr(d->d_name, '.');
}

/*
 * A reservation held for an unshaped sender by "rtcd open" (lp_open in
 * bench/lib-point.sh): in DIR, open-HOST has rtcd's answer (its proxy,
 * contract and bound) and open-HOST.req the address and port reserved,
 * "DADDR DPORT". The one whose proxy is PROXY and whose port is DPORT, the
 * sender's destination, with DADDR (LEN bytes) set; NULL when none. The
 * port too: hosts on different ports of a switch may be given the same
 * connection ID, so the same proxy (nto1's gold sources, alloc's two).
 */
static json_t *open_find(const char *dir, const char *proxy, long dport, char *daddr,
			 size_t len)
{
	struct dirent **names;
	json_t *held = NULL;
	char path[4096], line[4096], a[64];
	int k, nf;
	FILE *f;

	nf = scandir(dir, &names, open_file, alphasort);
	for (k = 0; k < nf; k++) {
		json_t *o = NULL;

		snprintf(path, sizeof(path), "%s/%s", dir, names[k]->d_name);
		f = held ? NULL : fopen(path, "r");
		if (f && fgets(line, sizeof(line), f))
			o = json_loads(line, 0, NULL);
		if (f)
			fclose(f);
		if (json_is_string(json_object_get(o, "proxy")) &&
		    !strcmp(json_string_value(json_object_get(o, "proxy")), proxy)) {
			long port = -1;

			snprintf(path, sizeof(path), "%s/%s.req", dir, names[k]->d_name);
			f = fopen(path, "r");
			if (f && fscanf(f, "%63s %ld", a, &port) == 2 && port == dport) {
				held = o;
				o = NULL;
				snprintf(daddr, len, "%s", a);
			}
			if (f)
				fclose(f);
		}
		json_decref(o);
		free(names[k]);
	}
	if (nf >= 0)
		free(names);
	return held;
}

/*
 * A sender's reservation (rtperf send's JSON TX, or one rtcd open holds
 * for it): contract and delay bound, and what the switches of the run in
 * DIR measured of it.
 */
static void reservation_load(const char *dir, json_t *tx, struct frun *fr)
{
	json_t *res = json_object_get(tx, "reservation"), *held = NULL, *p;
	const char *daddr = json_string_value(json_object_get(tx, "daddr"));
	long dport = (long)jint(tx, "dport");
	const char *id;
	char real[64];
	uint16_t cid;

	fr->bound = NAN;
	if (!json_is_object(res) && daddr) {
		held = open_find(dir, daddr, dport, real, sizeof(real));
		res = held;
		daddr = held ? real : NULL;
	}
	if (!json_is_object(res))
		return;
	p = json_object_get(res, "pacing");
	id = json_string_value(json_object_get(res, "id"));
	if (json_is_integer(json_object_get(res, "delay_bound_ns")) &&
	    jint(res, "delay_bound_ns") > 0)
		fr->bound = (double)jint(res, "delay_bound_ns");
	/* rtcd's answer says rate; its sender shapes nothing */
	fr->res_rate = jnum(res, held ? "rate" : "rate_bps");
	fr->res_burst = jnum(res, "burst");
	fr->res_max_pkt = jnum(res, "max_pkt");
	fr->res_hops = jnum(res, "hops");
	snprintf(fr->pacing, sizeof(fr->pacing), "%s",
		 held ? "none" : json_is_string(p) ? json_string_value(p) : "");
	if (id && daddr && !parse_conn_id(id, &cid))
		fr->nhops = rtperf_hops_load(dir, daddr, dport, cid, fr->hops, RTPERF_MAX_HOPS);
	json_decref(held);
}

static void rx_load(const char *dir, const char *rx, struct rxdata *d)
{
	char path[4096], line[256];
	json_t *rep;
	FILE *f;

	memset(d, 0, sizeof(*d));
	rep = load_json(dir, rx, "rx");
	if (!rep)
		return;
	d->ok = 1;
	d->drops = (uint64_t)jint(rep, "socket_drops");
	json_decref(rep);
	snprintf(path, sizeof(path), "%s/%s.csv", dir, rx);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long seq;
		long long sched, tx, rxt;
		unsigned int flow, size;

		if (sscanf(line, "%u,%llu,%lld,%lld,%lld,%u", &flow, &seq, &sched, &tx,
			   &rxt, &size) != 6)
			continue;	/* the header */
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 4096;
			d->rec = realloc(d->rec, d->cap * sizeof(*d->rec));
			d->flow = realloc(d->flow, d->cap * sizeof(*d->flow));
			if (!d->rec || !d->flow)
				err(1, "realloc");
		}
		d->flow[d->n] = flow;
		d->rec[d->n++] = (struct rtperf_rec){ .seq = seq, .sched_ns = sched,
						      .tx_ns = tx, .rx_ns = rxt,
						      .size = size };
	}
	fclose(f);
}

static int cmp_rx(const void *a, const void *b)
{
	const struct rtperf_rec *x = a, *y = b;

	return x->rx_ns < y->rx_ns ? -1 : x->rx_ns > y->rx_ns;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct rtperf_rec *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->rx_ns < y->rx_ns ? -1 : x->rx_ns > y->rx_ns;
}

/*
 * One flow's measures in the window [A, B]: the rate of what arrived in
 * it, the loss, delays and IPDV of what was meant to be sent in it.
 */
static void flow_window(const struct spec *sp, const struct rxdata *d, int64_t a, int64_t b,
			struct frun *fr)
{
	struct rtperf_rec *r = NULL;
	int64_t *t;
	uint32_t *frame;
	size_t i, n = 0, m = 0, nip = 0;
	double *ip;
	uint64_t lo = UINT64_MAX, hi = 0;

	for (i = 0; i < d->n; i++)
		n += d->flow[i] == sp->flow;
	r = malloc((n ? n : 1) * sizeof(*r));
	t = malloc((n ? n : 1) * sizeof(*t));
	frame = malloc((n ? n : 1) * sizeof(*frame));
	fr->vnet = malloc((n ? n : 1) * sizeof(double));
	fr->vapp = malloc((n ? n : 1) * sizeof(double));
	ip = malloc((n ? n : 1) * sizeof(double));
	if (!r || !t || !frame || !fr->vnet || !fr->vapp || !ip)
		err(1, "malloc");
	for (i = 0, n = 0; i < d->n; i++)
		if (d->flow[i] == sp->flow)
			r[n++] = d->rec[i];

	/* duplicates out: the first arrival of each number */
	qsort(r, n, sizeof(*r), cmp_seq);
	for (i = 0; i < n; i++)
		if (!m || r[i].seq != r[m - 1].seq)
			r[m++] = r[i];
	n = m;
	fr->received = n;
	/* the bound holds for every frame, the warm-up's too */
	for (i = 0; i < n; i++)
		if ((double)(r[i].rx_ns - r[i].tx_ns) > fr->max_all)
			fr->max_all = (double)(r[i].rx_ns - r[i].tx_ns);

	/* in the order of numbers: delays, loss and IPDV of the window */
	for (i = 0, m = 0; i < n; i++) {
		if (r[i].sched_ns < a || r[i].sched_ns > b)
			continue;
		fr->vnet[m] = (double)(r[i].rx_ns - r[i].tx_ns);
		fr->vapp[m] = (double)(r[i].rx_ns - r[i].sched_ns);
		if (m && r[i].seq == hi + 1)
			ip[nip++] = fabs(fr->vnet[m] - fr->vnet[m - 1]);
		lo = r[i].seq < lo ? r[i].seq : lo;
		hi = r[i].seq;
		m++;
	}
	fr->nd = m;
	if (m) {
		fr->expected = hi - lo + 1;
	} else {
		/* none arrived: what the schedule put in the window */
		fr->expected = fr->gap > 0 ?
			(uint64_t)llround((double)(b - a) / fr->gap) * fr->batch : 0;
	}
	fr->lost = fr->expected > m ? fr->expected - m : 0;
	fr->sent_bps = (double)fr->expected * (double)(fr->size + RTPERF_OVERHEAD) * 8e9 /
		       (double)(b - a);
	fr->loss = fr->expected ? 100.0 * (double)fr->lost / (double)fr->expected : NAN;
	{
		struct rtperf_dist ipd;

		rtperf_dist(ip, nip, &ipd);
		fr->ipdv = nip ? ipd.mean : NAN;
	}
	/* rtperf_dist sorts: copies, the window's delays stay in order */
	{
		double *c = malloc((m ? m : 1) * sizeof(double));

		if (!c)
			err(1, "malloc");
		memcpy(c, fr->vnet, m * sizeof(double));
		rtperf_dist(c, m, &fr->net);
		memcpy(c, fr->vapp, m * sizeof(double));
		rtperf_dist(c, m, &fr->app);
		free(c);
	}
	fr->jitter = m > 1 ? fr->net.sd : NAN;

	/* in the order of arrival: the rate */
	qsort(r, n, sizeof(*r), cmp_rx);
	for (i = 0; i < n; i++) {
		t[i] = r[i].rx_ns;
		frame[i] = r[i].size + RTPERF_OVERHEAD;
	}
	fr->tput = rtperf_window_rate(t, frame, n, a, b, &fr->inwin);
	free(r);
	free(t);
	free(frame);
	free(ip);
}

/* One run: its flows' measures, and why it is not valid (empty: valid). */
struct run {
	const char *dir;
	struct frun *f;			/* by spec */
	double overlap, window;		/* window in s */
	char why[1024];
};

static void why(struct run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(struct run *run, const char *fmt, ...)
{
	size_t len = strlen(run->why);
	va_list ap;

	if (len + 3 >= sizeof(run->why))
		return;
	if (len) {
		strcat(run->why, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(run->why + len, sizeof(run->why) - len, fmt, ap);
	va_end(ap);
}

static void run_load(struct run *run, const struct opts *o)
{
	int64_t *first, *last, a = 0, b = 0;
	struct rxdata *rxd;
	char path[4096];
	size_t i, j, k;
	FILE *f;

	run->f = calloc(nspecs, sizeof(*run->f));
	rxd = calloc(nspecs, sizeof(*rxd));
	first = calloc(nspecs, sizeof(*first));
	last = calloc(nspecs, sizeof(*last));
	if (!run->f || !rxd || !first || !last)
		err(1, "calloc");
	snprintf(path, sizeof(path), "%s/why", run->dir);
	f = fopen(path, "r");
	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (*line)
				why(run, "%s", line);
		}
		fclose(f);
	}

	/* the senders: their schedules, and how they kept them */
	for (i = 0, k = 0; i < nspecs; i++) {
		struct frun *fr = &run->f[i];
		json_t *tx = load_json(run->dir, specs[i].name, "tx");

		if (!tx || jint(tx, "sent") <= 0 || !jint(tx, "first_ns")) {
			why(run, "sender %s sent nothing", specs[i].name);
			json_decref(tx);
			continue;
		}
		fr->sent_ok = 1;
		fr->sent = (uint64_t)jint(tx, "sent");
		fr->gap = jnum(tx, "gap_ns");
		fr->batch = jint(tx, "batch") > 0 ? (uint64_t)jint(tx, "batch") : 1;
		fr->size = (uint64_t)jint(tx, "size");
		fr->late_max = (double)jint(json_object_get(tx, "late_ns"), "max");
		fr->late_over = (uint64_t)jint(json_object_get(tx, "late_ns"), "over_gap");
		fr->skip = json_is_true(json_object_get(tx, "skip"));
		fr->skipped = (uint64_t)jint(tx, "skipped");
		fr->stall_max = (double)jint(tx, "stall_max_ns");
		fr->enobufs = (uint64_t)jint(tx, "enobufs");
		fr->first = jint(tx, "first_ns");
		fr->last = jint(tx, "last_ns");
		reservation_load(run->dir, tx, fr);
		json_decref(tx);
		first[k] = fr->first;
		last[k++] = fr->last;
		if (fr->late_max > fr->gap)
			why(run, "sender %s fell behind its schedule by %.1f ms (its gap %.2f ms; %llu of %llu sends later than that)",
			    specs[i].name, fr->late_max / 1e6, fr->gap / 1e6,
			    (unsigned long long)fr->late_over, (unsigned long long)fr->sent);
		if (fr->skip && (double)fr->skipped >
				skip_allowed(&specs[i], o->max_skip) * (double)(fr->sent + fr->skipped))
			why(run, "sender %s skipped %llu of %llu departures after stalls of up to %.1f ms (more than %.3g%%)",
			    specs[i].name, (unsigned long long)fr->skipped,
			    (unsigned long long)(fr->sent + fr->skipped), fr->stall_max / 1e6,
			    100 * skip_allowed(&specs[i], o->max_skip));
		if (fr->enobufs && !specs[i].hostq)
			why(run, "sender %s found its queue full %llu times (ENOBUFS)",
			    specs[i].name, (unsigned long long)fr->enobufs);
	}
	run->overlap = k ? rtperf_overlap(first, last, k, &a, &b) : 0;
	if (k && run->overlap < o->min_overlap)
		why(run, "the flows overlapped %.1f%% (< %g%%)", 100 * run->overlap,
		    100 * o->min_overlap);
	a += (int64_t)(o->warmup * 1e9);
	run->window = b > a ? (b - a) / 1e9 : 0;
	if (k && b <= a)
		why(run, "no steady state: the flows overlapped %.2f s, the warm-up is %g s",
		    (b - a) / 1e9 + o->warmup, o->warmup);

	/* the receivers: each read once, shared by its flows */
	for (i = 0; i < nspecs; i++) {
		for (j = 0; j < i && strcmp(specs[j].rx, specs[i].rx); j++)
			;
		if (j < i) {
			rxd[i] = rxd[j];
			rxd[i].cap = 0;		/* not its to free */
			continue;
		}
		rx_load(run->dir, specs[i].rx, &rxd[i]);
		if (!rxd[i].ok)
			why(run, "receiver %s reported nothing", specs[i].rx);
		else if (rxd[i].drops)
			why(run, "receiver %s's socket dropped %llu datagrams", specs[i].rx,
			    (unsigned long long)rxd[i].drops);
	}
	for (i = 0; i < nspecs; i++)
		if (run->f[i].sent_ok && b > a)
			flow_window(&specs[i], &rxd[i], a, b, &run->f[i]);
	for (i = 0; i < nspecs; i++) {
		if (rxd[i].cap) {
			free(rxd[i].rec);
			free(rxd[i].flow);
		}
	}
	free(rxd);
	free(first);
	free(last);
}

static void export_run(FILE *f, size_t irun, const struct run *run)
{
	char path[4096], line[256];
	size_t i, j;

	/* each receiver's file once, its lines tagged with the run */
	for (i = 0; i < nspecs; i++) {
		FILE *in;

		for (j = 0; j < i && strcmp(specs[j].rx, specs[i].rx); j++)
			;
		if (j < i)
			continue;
		snprintf(path, sizeof(path), "%s/%s.csv", run->dir, specs[i].rx);
		in = fopen(path, "r");
		if (!in)
			continue;
		while (fgets(line, sizeof(line), in))
			if (line[0] >= '0' && line[0] <= '9')
				fprintf(f, "%zu,%s,%s", irun + 1, specs[i].rx, line);
		fclose(in);
	}
}

/* --- JSON --- */

static json_t *jreal(double v, double unit, int decimals)
{
	double s = pow(10, decimals);

	return isfinite(v) ? json_real(round(v / unit * s) / s) : json_null();
}

static json_t *jest(const double *v, size_t n, double unit, int decimals)
{
	struct rtperf_est e;

	rtperf_estimate(v, n, &e);
	return json_pack("{s:o, s:o, s:I}", "mean", jreal(e.mean, unit, decimals),
			 "ci", jreal(e.ci, unit, decimals), "n", (json_int_t)n);
}

/* A pooled sample of delays (ns, sorted in place) as us, with its CDF. */
static json_t *jdist(double *v, size_t n, json_t **cdf)
{
	struct rtperf_dist d;
	size_t i;

	rtperf_dist(v, n, &d);
	*cdf = json_array();
	if (n)
		for (i = 0; i < ncdf; i++)
			json_array_append_new(*cdf, jreal(rtperf_percentile(v, n, cdf_ppm[i]),
							  1000, 1));
	if (!n)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)n,
			 "min", jreal(d.min, 1000, 1), "mean", jreal(d.mean, 1000, 1),
			 "p50", jreal(d.p50, 1000, 1), "p99", jreal(d.p99, 1000, 1),
			 "p999", jreal(d.p999, 1000, 1), "max", jreal(d.max, 1000, 1),
			 "sd", jreal(d.sd, 1000, 1));
}

/* The per-run values VAL(run, i) of the valid runs, for flows IDX[0..nidx) */
enum what { TPUT, SENT, LOSS, DMEAN, DP99, DP999, DMAX, AMEAN, AP99, JITTER, IPDV };

static double fval(const struct frun *f, enum what w)
{
	switch (w) {
	case TPUT: return f->tput;
	case SENT: return f->sent_bps;
	case LOSS: return f->loss;
	case DMEAN: return f->nd ? f->net.mean : NAN;
	case DP99: return f->nd ? f->net.p99 : NAN;
	case DP999: return f->nd ? f->net.p999 : NAN;
	case DMAX: return f->nd ? f->net.max : NAN;
	case AMEAN: return f->nd ? f->app.mean : NAN;
	case AP99: return f->nd ? f->app.p99 : NAN;
	case JITTER: return f->jitter;
	case IPDV: return f->ipdv;
	}
	return NAN;
}

/*
 * A class's (or a flow's: one index) value in one run: rates add up, loss
 * pools the counts, delays pool the datagrams. NAN when undefined.
 */
static double cval(const struct run *run, const size_t *idx, size_t nidx, enum what w,
		   double *buf)
{
	uint64_t lost = 0, exp = 0;
	double sum = 0;
	size_t i, m = 0;
	struct rtperf_dist d;

	if (nidx == 1)
		return fval(&run->f[idx[0]], w);
	switch (w) {
	case TPUT:
	case SENT:
		for (i = 0; i < nidx; i++)
			sum += fval(&run->f[idx[i]], w);
		return sum;
	case LOSS:
		for (i = 0; i < nidx; i++) {
			lost += run->f[idx[i]].lost;
			exp += run->f[idx[i]].expected;
		}
		return exp ? 100.0 * (double)lost / (double)exp : NAN;
	case IPDV:
		/* the mean of the flows' own (pairs do not cross flows) */
		for (i = 0, m = 0; i < nidx; i++)
			if (isfinite(run->f[idx[i]].ipdv)) {
				sum += run->f[idx[i]].ipdv;
				m++;
			}
		return m ? sum / m : NAN;
	default:
		break;
	}
	for (i = 0; i < nidx; i++) {
		const struct frun *f = &run->f[idx[i]];

		memcpy(buf + m, w == AMEAN || w == AP99 ? f->vapp : f->vnet,
		       f->nd * sizeof(double));
		m += f->nd;
	}
	if (!m)
		return NAN;
	rtperf_dist(buf, m, &d);
	switch (w) {
	case DMEAN: case AMEAN: return d.mean;
	case DP99: case AP99: return d.p99;
	case DP999: return d.p999;
	case DMAX: return d.max;
	case JITTER: return m > 1 ? d.sd : NAN;
	default: return NAN;
	}
}

static json_t *group_json(struct run *runs, size_t nruns, const int *valid, const size_t *idx,
			  size_t nidx, int is_class)
{
	static const struct { const char *key; enum what w; double unit; int dec; } ests[] = {
		{ "throughput_bps", TPUT, 1, 0 }, { "sent_bps", SENT, 1, 0 },
		{ "loss_pct", LOSS, 1, 2 },
		{ "delay_mean_us", DMEAN, 1000, 1 }, { "delay_p99_us", DP99, 1000, 1 },
		{ "delay_p999_us", DP999, 1000, 1 }, { "delay_max_us", DMAX, 1000, 1 },
		{ "delay_app_mean_us", AMEAN, 1000, 1 }, { "delay_app_p99_us", AP99, 1000, 1 },
		{ "jitter_us", JITTER, 1000, 1 }, { "ipdv_us", IPDV, 1000, 1 },
	};
	size_t i, k, r, nv, total = 0;
	double *vals, *buf, *pool_net, *pool_app, late = 0;
	uint64_t sent = 0, received = 0, lost = 0, expected = 0, enobufs = 0, skipped = 0;
	double stall = 0;
	json_t *o = json_object(), *cdf, *d;

	for (r = 0; r < nruns; r++)
		if (valid[r])
			for (i = 0; i < nidx; i++)
				total += runs[r].f[idx[i]].nd;
	vals = malloc((nruns + 1) * sizeof(double));
	buf = malloc((total + 1) * sizeof(double));
	pool_net = malloc((total + 1) * sizeof(double));
	pool_app = malloc((total + 1) * sizeof(double));
	if (!vals || !buf || !pool_net || !pool_app)
		err(1, "malloc");

	for (k = 0; k < sizeof(ests) / sizeof(ests[0]); k++) {
		for (r = 0, nv = 0; r < nruns; r++) {
			double v;

			if (!valid[r])
				continue;
			v = cval(&runs[r], idx, nidx, ests[k].w, buf);
			if (isfinite(v))
				vals[nv++] = v;
		}
		json_object_set_new(o, ests[k].key, jest(vals, nv, ests[k].unit, ests[k].dec));
	}
	/* Jain's index over the class's flows, per run */
	if (is_class) {
		double *x = malloc(nidx * sizeof(double));
		size_t nj;

		if (!x)
			err(1, "malloc");
		for (k = 0; k < 2; k++) {
			for (r = 0, nv = 0; r < nruns; r++) {
				if (!valid[r])
					continue;
				for (i = 0, nj = 0; i < nidx; i++) {
					const struct frun *f = &runs[r].f[idx[i]];
					double off = specs[idx[i]].offered;

					if (k == 0 && isfinite(f->loss))
						x[nj++] = f->loss;
					else if (k == 1)
						/* throughput per unit offered: demands may differ */
						x[nj++] = isfinite(off) && off > 0 ? f->tput / off : f->tput;
				}
				if (nj)
					vals[nv++] = rtperf_jain(x, nj);
			}
			json_object_set_new(o, k ? "jain_throughput" : "jain_loss",
					    jest(vals, nv, 1, 4));
		}
		free(x);
	}

	/* counts and the pooled distributions over the valid runs */
	for (r = 0, nv = 0; r < nruns; r++) {
		if (!valid[r])
			continue;
		for (i = 0; i < nidx; i++) {
			const struct frun *f = &runs[r].f[idx[i]];

			sent += f->sent;
			received += f->received;
			lost += f->lost;
			expected += f->expected;
			enobufs += f->enobufs;
			late = f->late_max > late ? f->late_max : late;
			stall = f->stall_max > stall ? f->stall_max : stall;
			skipped += f->skipped;
			memcpy(pool_net + nv, f->vnet, f->nd * sizeof(double));
			memcpy(pool_app + nv, f->vapp, f->nd * sizeof(double));
			nv += f->nd;
		}
	}
	json_object_set_new(o, "sent", json_integer((json_int_t)sent));
	json_object_set_new(o, "received", json_integer((json_int_t)received));
	json_object_set_new(o, "expected", json_integer((json_int_t)expected));
	json_object_set_new(o, "lost", json_integer((json_int_t)lost));
	json_object_set_new(o, "enobufs", json_integer((json_int_t)enobufs));
	json_object_set_new(o, "late_max_us", jreal(late, 1000, 1));
	json_object_set_new(o, "skipped", json_integer((json_int_t)skipped));
	json_object_set_new(o, "stall_max_us", jreal(stall, 1000, 1));
	d = jdist(pool_net, nv, &cdf);
	json_object_set_new(o, "delay_us", d);
	json_object_set_new(o, "delay_cdf_us", cdf);
	d = jdist(pool_app, nv, &cdf);
	json_object_set_new(o, "delay_app_us", d);
	json_object_set_new(o, "delay_app_cdf_us", cdf);
	free(vals);
	free(buf);
	free(pool_net);
	free(pool_app);
	return o;
}

static json_t *jrate(double v)
{
	return isfinite(v) ? json_integer((json_int_t)llround(v)) : json_null();
}

/* A hop over the valid runs: the largest of each run's, the counts added. */
static void hop_add(struct rtperf_hop *acc, size_t *n, const struct rtperf_hop *h)
{
	size_t k;

	for (k = 0; k < *n && strcmp(acc[k].sw, h->sw); k++)
		;
	if (k == *n) {
		if (*n == RTPERF_MAX_HOPS)
			return;
		acc[(*n)++] = *h;
		return;
	}
	acc[k].promise = isfinite(acc[k].promise) && !(h->promise < acc[k].promise) ?
			 acc[k].promise : h->promise;
	acc[k].max = fmax(acc[k].max, h->max);
	acc[k].on_time_max = fmax(acc[k].on_time_max, h->on_time_max);
	acc[k].frames += h->frames;
	acc[k].over += h->over;
	acc[k].over_on_time += h->over_on_time;
}

/* The switches' part: each hop's largest delay against its promise. */
static json_t *hops_json(const struct rtperf_hop *h, size_t n, double *ratio, double *on_time)
{
	json_t *a = json_array();
	size_t k;

	*ratio = *on_time = NAN;
	for (k = 0; k < n; k++) {
		double r = h[k].max / h[k].promise, ro = h[k].on_time_max / h[k].promise;

		if (isfinite(r) && !(r <= *ratio))
			*ratio = r;
		if (isfinite(ro) && !(ro <= *on_time))
			*on_time = ro;
		json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I}",
			"switch", h[k].sw, "out", h[k].out,
			"promise_us", jreal(h[k].promise, 1000, 1),
			"max_us", jreal(h[k].max, 1000, 1),
			"on_time_max_us", jreal(h[k].on_time_max, 1000, 1),
			"ratio", jreal(r, 1, 3), "on_time_ratio", jreal(ro, 1, 3),
			"frames", (json_int_t)h[k].frames, "over", (json_int_t)h[k].over,
			"over_on_time", (json_int_t)h[k].over_on_time));
	}
	return a;
}

/*
 * Flow I's delay bound against its delays, over the valid runs that had
 * one: each run's largest delay (every datagram, the warm-up's too) set
 * against that run's bound; null when no valid run had a bound. That delay
 * is socket to socket, the bound the network's
 * (Documentation/delay-bounds.md): both hosts' stacks count against it.
 * Where the switches said what they measured (hops), each hop's largest
 * delay stands against its promise, and the bound is kept when no switch
 * had a frame over its promise with its machine's stalls taken away
 * (broken_runs); without them, when no run's socket-to-socket maximum
 * went above the bound.
 */
static json_t *bound_json(const struct run *runs, size_t nruns, const int *valid, size_t i)
{
	struct rtperf_hop hops[RTPERF_MAX_HOPS];
	double bound = 0, max = 0, ratio = 0, sw_ratio, sw_on_time;
	size_t r, k, n = 0, over = 0, broken = 0, measured = 0, nh = 0;
	const struct frun *c = NULL;
	json_t *o;

	for (r = 0; r < nruns; r++) {
		const struct frun *f = &runs[r].f[i];
		int b = 0;

		if (!valid[r] || !f->sent_ok || !(f->bound > 0))
			continue;
		if (!c)
			c = f;
		n++;
		bound = f->bound > bound ? f->bound : bound;
		max = f->max_all > max ? f->max_all : max;
		ratio = f->max_all / f->bound > ratio ? f->max_all / f->bound : ratio;
		over += f->max_all > f->bound;
		measured += f->nhops > 0;
		for (k = 0; k < f->nhops; k++) {
			hop_add(hops, &nh, &f->hops[k]);
			b |= f->hops[k].over_on_time > 0;
		}
		broken += b;
	}
	if (!c)
		return json_null();
	o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:I, s:I, s:b, s:{s:o, s:o, s:o, s:o, s:s}}",
		      "name", specs[i].name, "class", specs[i].class,
		      "delay_bound_us", jreal(bound, 1000, 1), "delay_max_us", jreal(max, 1000, 1),
		      "ratio", jreal(ratio, 1, 3), "runs", (json_int_t)n,
		      "exceeded_runs", (json_int_t)over, "kept", measured ? !broken : !over,
		      "contract", "rate_bps", jrate(c->res_rate), "burst", jrate(c->res_burst),
		      "max_pkt", jrate(c->res_max_pkt), "hops", jrate(c->res_hops),
		      "pacing", c->pacing);
	json_object_set_new(o, "hops", hops_json(hops, nh, &sw_ratio, &sw_on_time));
	json_object_set_new(o, "switch_ratio", jreal(sw_ratio, 1, 3));
	json_object_set_new(o, "switch_on_time_ratio", jreal(sw_on_time, 1, 3));
	json_object_set_new(o, "measured_runs", json_integer((json_int_t)measured));
	json_object_set_new(o, "broken_runs", json_integer((json_int_t)broken));
	json_object_set_new(o, "failed_runs", json_integer((json_int_t)(measured ? broken : over)));
	return o;
}

static void report(struct run *runs, size_t nruns, const struct opts *o)
{
	json_t *top = json_object(), *jruns = json_array(), *flows = json_array();
	json_t *classes = json_array(), *p = json_array(), *bounds = json_array();
	uint64_t skipped = 0, departures = 0, over = 0;
	double stall = 0;
	double *w = malloc((nruns + 1) * sizeof(double));
	double *ov = malloc((nruns + 1) * sizeof(double));
	int *valid = calloc(nruns + 1, sizeof(int));
	size_t *idx = malloc((nspecs + 1) * sizeof(size_t));
	size_t i, j, r, nv = 0, ni;

	if (!w || !ov || !valid || !idx)
		err(1, "malloc");
	for (r = 0; r < nruns; r++) {
		const char *base = strrchr(runs[r].dir, '/');

		valid[r] = !runs[r].why[0];
		if (valid[r]) {
			w[nv] = runs[r].window;
			ov[nv++] = runs[r].overlap;
		}
		json_array_append_new(jruns, json_pack("{s:s, s:b, s:o, s:o, s:o}",
			"run", base ? base + 1 : runs[r].dir, "valid", valid[r],
			"why", valid[r] ? json_null() : json_string(runs[r].why),
			"overlap", jreal(runs[r].overlap, 0.01, 2),
			"window_s", jreal(runs[r].window, 1, 3)));
	}
	for (i = 0; i < ncdf; i++)
		json_array_append_new(p, json_real(cdf_ppm[i] / 1e6));
	json_object_set_new(top, "runs", json_integer((json_int_t)nruns));
	json_object_set_new(top, "valid", json_integer((json_int_t)nv));
	json_object_set_new(top, "warmup_s", json_real(o->warmup));
	json_object_set_new(top, "min_overlap_pct", json_real(100 * o->min_overlap));
	json_object_set_new(top, "max_skip_pct", json_real(100 * o->max_skip));
	json_object_set_new(top, "window_s", jest(w, nv, 1, 3));
	json_object_set_new(top, "overlap_pct", jest(ov, nv, 0.01, 2));
	json_object_set_new(top, "run", jruns);
	json_object_set_new(top, "cdf_p", p);

	/* what the senders skipped after stalls, in the valid runs: shown, never hidden */
	for (r = 0; r < nruns; r++) {
		for (i = 0; valid[r] && i < nspecs; i++) {
			skipped += runs[r].f[i].skipped;
			departures += runs[r].f[i].sent + runs[r].f[i].skipped;
			if (runs[r].f[i].stall_max > stall)
				stall = runs[r].f[i].stall_max;
		}
	}
	json_object_set_new(top, "skipped", json_integer((json_int_t)skipped));
	json_object_set_new(top, "departures", json_integer((json_int_t)departures));
	json_object_set_new(top, "skipped_pct", departures ?
		jreal(100.0 * (double)skipped / (double)departures, 1, 2) : json_null());
	json_object_set_new(top, "stall_max_us", jreal(stall, 1000, 1));

	for (i = 0; i < nspecs; i++) {
		json_t *f = group_json(runs, nruns, valid, &i, 1, 0);
		json_t *b = bound_json(runs, nruns, valid, i);

		if (json_is_object(b)) {
			over += (uint64_t)json_integer_value(json_object_get(b, "failed_runs"));
			json_array_append(bounds, b);
		}
		json_object_set_new(f, "bound", b);

		json_object_update_new(f, json_pack("{s:s, s:I, s:s, s:o, s:o}",
			"name", specs[i].name, "flow", (json_int_t)specs[i].flow,
			"class", specs[i].class, "offered_bps", jrate(specs[i].offered),
			"reserved_bps", jrate(specs[i].reserved)));
		json_array_append_new(flows, f);
	}
	/* classes in the order they first appear */
	for (i = 0; i < nspecs; i++) {
		double off = 0, res = 0;
		json_t *c;

		for (j = 0; j < i && strcmp(specs[j].class, specs[i].class); j++)
			;
		if (j < i)
			continue;
		for (j = i, ni = 0; j < nspecs; j++) {
			if (strcmp(specs[j].class, specs[i].class))
				continue;
			idx[ni++] = j;
			off += specs[j].offered;
			res += specs[j].reserved;
		}
		c = group_json(runs, nruns, valid, idx, ni, 1);
		json_object_update_new(c, json_pack("{s:s, s:I, s:o, s:o}",
			"class", specs[i].class, "flows", (json_int_t)ni,
			"offered_bps", jrate(off), "reserved_bps", jrate(res)));
		json_array_append_new(classes, c);
	}
	json_object_set_new(top, "flows", flows);
	json_object_set_new(top, "classes", classes);
	/* each reserved flow's bound and largest delay, where a scenario finds them */
	json_object_set_new(top, "bounds", bounds);
	json_object_set_new(top, "bounds_exceeded", json_integer((json_int_t)over));
	if (json_dumpf(top, stdout, JSON_COMPACT | JSON_REAL_PRECISION(12)))
		errx(1, "cannot write the JSON");
	putchar('\n');
	json_decref(top);
	free(w);
	free(ov);
	free(valid);
	free(idx);
}

/* A number of 0 to MAX (seconds, percent) as a value / DIV, else exit 2. */
static double arg_num(const char *what, const char *s, double max, double div, const char *hint)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || !*s || !(v >= 0) || v > max)
		errx(2, "bad %s '%s': %s", what, s, hint);
	return v / div;
}

int rtperf_analyze_cmd(int argc, char **argv)
{
	struct opts o = { .warmup = 0.5, .min_overlap = 0.95, .max_skip = 0.05 };
	struct run *runs;
	size_t r, i, nruns;
	FILE *ex = NULL;
	int opt, bad = 0;

	while ((opt = getopt(argc, argv, "w:O:S:o:F:ch")) != -1) {
		switch (opt) {
		case 'c':
			o.check = 1;
			break;
		case 'w':
			o.warmup = arg_num("warm-up", optarg, 1e6, 1, "seconds, >= 0");
			break;
		case 'O':
			o.min_overlap = arg_num("overlap", optarg, 100, 100, "percent, 0 to 100");
			break;
		case 'S':
			o.max_skip = arg_num("skip", optarg, 100, 100, "percent, 0 to 100");
			break;
		case 'o':
			o.export = optarg;
			break;
		case 'F':
			add_spec(optarg);
			break;
		default:
			usage();
		}
	}
	if (!nspecs || optind >= argc)
		usage();
	cdf_init();
	nruns = (size_t)(argc - optind);
	runs = calloc(nruns, sizeof(*runs));
	if (!runs)
		err(1, "calloc");
	if (o.export) {
		ex = fopen(o.export, "w");
		if (!ex)
			err(1, "%s", o.export);
		fprintf(ex, "run,rx,%s\n", RTPERF_CSV_HEADER);
	}
	for (r = 0; r < nruns; r++) {
		runs[r].dir = argv[optind + r];
		run_load(&runs[r], &o);
		if (ex)
			export_run(ex, r, &runs[r]);
	}
	if (ex && fclose(ex))
		err(1, "%s", o.export);
	if (o.check) {
		for (r = 0; r < nruns; r++) {
			if (runs[r].why[0]) {
				printf("%s: %s\n", runs[r].dir, runs[r].why);
				bad = 1;
			}
		}
	} else {
		report(runs, nruns, &o);
	}
	for (r = 0; r < nruns; r++) {
		for (i = 0; i < nspecs; i++) {
			free(runs[r].f[i].vnet);
			free(runs[r].f[i].vapp);
		}
		free(runs[r].f);
	}
	free(runs);
	return bad;
}

int rtperf_estimate_cmd(int argc, char **argv)
{
	json_t *out = json_array();
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: rtperf estimate LIST...  (LIST: 1.5,2,2.5)\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		double *v = malloc((strlen(argv[i]) / 2 + 2) * sizeof(double));
		char *p = argv[i], *end;
		struct rtperf_est e;
		size_t n = 0;

		if (!v)
			err(1, "malloc");
		while (*p) {
			v[n] = strtod(p, &end);
			if (end == p || (*end && *end != ',') || !isfinite(v[n]))
				errx(2, "bad list '%s': numbers separated by commas", argv[i]);
			n++;
			p = *end ? end + 1 : end;
		}
		rtperf_estimate(v, n, &e);
		json_array_append_new(out, json_pack("{s:o, s:o, s:I}",
			"mean", isfinite(e.mean) ? json_real(e.mean) : json_null(),
			"ci", isfinite(e.ci) ? json_real(e.ci) : json_null(), "n", (json_int_t)n));
		free(v);
	}
	json_dumpf(out, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(out);
	return 0;
}
