// SPDX-License-Identifier: GPL-2.0
/*
 * rtperf send: datagrams at a constant rate or as a Poisson process, each
 * with rtperf's header (wire.h), on a plain UDP socket or through a
 * reservation (librttr).
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "rtperf.h"
#include "rttr.h"
#include "units.h"
#include "wire.h"

enum pattern { CBR, POISSON };

struct sender {
	/* options */
	const char *daddr;
	uint16_t dport;
	uint64_t rate, size, count, seed, batch;
	double seconds;
	enum pattern pattern;
	uint32_t flow;
	int reserve, json, prio, tos, skip;
	const char *start_file;
	uint64_t pace;			/* SO_MAX_PACING_RATE, bit/s; 0: none */
	int paced;			/* --pace given */
	struct rttr_qos q;
	/* state */
	int fd;
	struct sockaddr_in sin;
	struct rttr *r;
	unsigned char *buf;
	uint64_t end;			/* CLOCK_MONOTONIC; 0: no time limit */
	int64_t real_off;		/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	uint64_t deadline;		/* the datagram's intended time, MONOTONIC */
	uint64_t ready;			/* when the last send returned */
	int held;			/* it waited: a shaper's bucket, a full queue */
	/* results */
	uint64_t t0;			/* the schedule's start, MONOTONIC */
	uint64_t sent, first, last;	/* CLOCK_MONOTONIC of the sends */
	uint64_t first_sched, last_sched; /* intended times, MONOTONIC */
	uint64_t late_max, late_over, enobufs;
	uint64_t skipped, stall_max;	/* --skip: departures missed, longest stall */
	uint64_t departures;		/* batches of which one datagram or more went */
	double late_sum;
	int failed;			/* stopped by an error */
};

enum { OPT_PERIOD = 256, OPT_PACING, OPT_START, OPT_SKIP, OPT_PACE };

static const struct option long_opts[] = {
	{ "rate", required_argument, NULL, 'r' },
	{ "size", required_argument, NULL, 's' },
	{ "time", required_argument, NULL, 't' },
	{ "count", required_argument, NULL, 'n' },
	{ "pattern", required_argument, NULL, 'p' },
	{ "seed", required_argument, NULL, 'e' },
	{ "flow", required_argument, NULL, 'f' },
	{ "batch", required_argument, NULL, 'k' },
	{ "start", required_argument, NULL, OPT_START },
	{ "skip", no_argument, NULL, OPT_SKIP },
	{ "prio", required_argument, NULL, 'P' },
	{ "tos", required_argument, NULL, 'Q' },
	{ "pace", optional_argument, NULL, OPT_PACE },
	{ "json", no_argument, NULL, 'j' },
	{ "reserve", no_argument, NULL, 'R' },
	{ "reserve-rate", required_argument, NULL, 'B' },
	{ "burst", required_argument, NULL, 'b' },
	{ "max-pkt", required_argument, NULL, 'm' },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "pacing", required_argument, NULL, OPT_PACING },
	{ "interface", required_argument, NULL, 'i' },
	{ "socket", required_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void usage(void)
{
	fprintf(stderr,
		"usage: rtperf send [-r RATE] [-s SIZE] [-t SECONDS] [-n COUNT] [-p cbr|poisson]\n"
		"                   [-k BATCH] [-e SEED] [-f FLOW] [-P PRIO] [-Q TOS] [-j]\n"
		"                   [--start FILE] [--skip] [--pace[=RATE]]\n"
		"                   [-R [-B RATE] [-b BURST] [-m MAX_PKT] [--pacing packet|tick]\n"
		"                       [--period PERIOD] [-i IF] [-S SOCKET]] DADDR DPORT\n");
	exit(2);
}

static long arg_int(const char *what, const char *s, long max)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*end || !*s || v < 0 || v > max)
		errx(2, "bad %s '%s': 0 to %ld", what, s, max);
	return v;
}

static void parse(struct sender *s, int argc, char **argv)
{
	int opt, rtopt = 0;
	uint64_t v;
	char *end;

	while ((opt = getopt_long(argc, argv, "r:s:t:n:p:k:e:f:P:Q:jRB:b:m:i:S:h",
				  long_opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (parse_rate(optarg, &s->rate) || !s->rate)
				errx(2, "bad rate '%s': bit/s > 0 as tc writes it (\"5mbit\")",
				     optarg);
			break;
		case 's':
			if (parse_size(optarg, &s->size) || s->size < RTPERF_HDR_LEN ||
			    s->size > 65507)
				errx(2, "bad size '%s': UDP payload bytes, %d to 65507",
				     optarg, RTPERF_HDR_LEN);
			break;
		case 't':
			s->seconds = arg_seconds("time", optarg);
			break;
		case 'n':
			s->count = arg_count("count", optarg);
			break;
		case 'p':
			if (!strcmp(optarg, "cbr"))
				s->pattern = CBR;
			else if (!strcmp(optarg, "poisson"))
				s->pattern = POISSON;
			else
				errx(2, "bad pattern '%s': cbr or poisson", optarg);
			break;
		case 'e':
			/* erand48()'s state is 48 bits: larger seeds would alias */
			s->seed = strtoull(optarg, &end, 0);
			if (*end || !*optarg || *optarg == '-' || s->seed >> 48)
				errx(2, "bad seed '%s': a whole number below 2^48", optarg);
			break;
		case 'f':
			/* 16 bits on the wire (wire.h) */
			s->flow = (uint32_t)arg_int("flow", optarg, UINT16_MAX);
			break;
		case 'k':
			s->batch = arg_count("batch", optarg);
			break;
		case OPT_START:
			s->start_file = optarg;
			break;
		case OPT_SKIP:
			s->skip = 1;
			break;
		case 'P':
			s->prio = (int)arg_int("priority", optarg, INT32_MAX);
			break;
		case 'Q':
			s->tos = (int)arg_int("TOS", optarg, 255);
			break;
		case OPT_PACE:
			/* the socket's rate, bytes/s, in an int (any kernel) */
			if (optarg && (parse_rate(optarg, &s->pace) || !s->pace ||
				       s->pace / 8 >= UINT32_MAX))
				errx(2, "bad pacing rate '%s': bit/s > 0 (\"5mbit\")", optarg);
			s->paced = 1;
			break;
		case 'j':
			s->json = 1;
			break;
		case 'R':
			s->reserve = 1;
			break;
		case 'B':
			if (parse_conn_rate(optarg, &s->q.rate))
				errx(2, "bad reserved rate '%s': " CONN_RATE_RANGE " (\"5mbit\")",
				     optarg);
			rtopt = 'B';
			break;
		case 'b':
			if (parse_size(optarg, &s->q.burst) || !s->q.burst)
				errx(2, "bad burst '%s': bytes > 0 (\"64k\")", optarg);
			rtopt = 'b';
			break;
		case 'm':
			if (parse_size(optarg, &v) || v < RTPERF_HDR_LEN + RTPERF_OVERHEAD ||
			    v > UINT32_MAX)
				errx(2, "bad max_pkt '%s': frame bytes, at least %d", optarg,
				     RTPERF_HDR_LEN + RTPERF_OVERHEAD);
			s->q.max_pkt = (uint32_t)v;
			rtopt = 'm';
			break;
		case OPT_PERIOD:
			s->q.period_ns = arg_time("period", optarg);
			rtopt = 'T';
			break;
		case OPT_PACING:
			if (!strcmp(optarg, "packet"))
				s->q.pacing = RTTR_PACING_PACKET;
			else if (!strcmp(optarg, "tick"))
				s->q.pacing = RTTR_PACING_TICK;
			else
				errx(2, "bad pacing '%s': packet or tick", optarg);
			rtopt = 'A';
			break;
		case 'i':
			s->q.ifname = optarg;
			rtopt = 'i';
			break;
		case 'S':
			s->q.ctl_path = optarg;
			rtopt = 'S';
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	s->daddr = argv[optind];
	s->dport = arg_port(argv[optind + 1]);
	if (rtopt && !s->reserve)
		errx(2, "%s%c is an option of the reservation: add -R",
		     rtopt == 'T' ? "--period" : rtopt == 'A' ? "--pacing" : "-",
		     rtopt == 'T' || rtopt == 'A' ? ' ' : rtopt);
	if (!s->count && !s->seconds)
		s->seconds = 10;
	/*
	 * Twice the send rate by default: frames a late sender puts out at
	 * once leave at that rate, and the backlog drains within as long as
	 * it took to build (at the send rate itself it would never drain).
	 */
	if (s->paced && !s->pace)
		s->pace = 2 * s->rate;
	if (s->pace / 8 >= UINT32_MAX)
		errx(2, "pacing rate %llu bit/s: too high", (unsigned long long)s->pace);
	if (!s->reserve && inet_pton(AF_INET, s->daddr, &s->sin.sin_addr) != 1)
		errx(2, "bad address '%s': IPv4, dotted quad", s->daddr);
	if (s->reserve) {
		s->q.daddr = s->daddr;
		s->q.dport = s->dport;
		if (!s->q.rate)
			s->q.rate = s->rate;
		if (!s->q.max_pkt && s->size + RTPERF_OVERHEAD > RTTR_MAX_PKT_DEFAULT)
			s->q.max_pkt = (uint32_t)(s->size + RTPERF_OVERHEAD);
		if (s->q.max_pkt && s->size + RTPERF_OVERHEAD > s->q.max_pkt)
			errx(2, "size %llu makes %llu-byte frames: more than max_pkt %u",
			     (unsigned long long)s->size,
			     (unsigned long long)(s->size + RTPERF_OVERHEAD), s->q.max_pkt);
	}
}

/* Sleeps to T (CLOCK_MONOTONIC); returns early, nonzero, when told to stop. */
static int sleep_to(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (rtperf_stop)
			return -1;
	return 0;
}

/* The header, stamped now at the socket, with the intended time (wire.h). */
static void stamp(struct sender *s)
{
	struct rtperf_hdr h = { .flow = s->flow, .seq = s->sent,
				.sched_ns = (uint64_t)((int64_t)s->deadline + s->real_off),
				.tx_ns = (uint64_t)((int64_t)now_ns() + s->real_off) };

	rtperf_hdr_put(s->buf, &h);
}

/*
 * One datagram through the reservation. The socket stamp is taken right
 * before the rttr_send() that goes out, after the shaper's wait; the
 * intended one is the schedule's: the two delays are the network's and
 * the application's, the bucket's wait between them. 1: sent, 0: stopped
 * (the time is up), -1: failed.
 */
static int send_reserved(struct sender *s)
{
	for (;;) {
		uint64_t tick;

		stamp(s);
		if (rttr_send(s->r, s->buf, s->size, MSG_DONTWAIT) >= 0)
			return 1;
		switch (errno) {
		case EAGAIN:
			s->held = 1;
			tick = rttr_next_tick(s->r);
			if (s->end && tick > s->end)
				return 0;
			if (tick > now_ns()) {
				if (sleep_to(tick))
					return 0;
			} else {
				/* tokens there: the socket's buffer is full */
				struct pollfd p = { .fd = rttr_fd(s->r), .events = POLLOUT };

				poll(&p, 1, 10);
			}
			break;
		case EINTR:
			if (rtperf_stop)
				return 0;
			break;
		case ECONNREFUSED:	/* the receiver not listening yet */
			break;
		case ENOBUFS:
			s->held = 1;
			s->enobufs++;
			usleep(100);
			break;
		case ECONNRESET:
			warnx("the network tore the connection down: %s", rttr_error());
			return -1;
		default:
			warnx("rttr_send: %s", rttr_error());
			return -1;
		}
	}
}

/* One datagram on the plain socket: 1 sent, 0 stopped, -1 failed. */
static int send_plain(struct sender *s)
{
	for (;;) {
		stamp(s);
		if (sendto(s->fd, s->buf, s->size, 0, (struct sockaddr *)&s->sin,
			   sizeof(s->sin)) >= 0)
			return 1;
		switch (errno) {
		case EINTR:
			if (rtperf_stop)
				return 0;
			break;
		case ENOBUFS:
		case EAGAIN:
			/* a full queue below: the datagram did not leave, try again */
			s->held = 1;
			s->enobufs++;
			usleep(100);
			break;
		default:
			warn("sendto %s:%u", s->daddr, s->dport);
			return -1;
		}
	}
}

static void setup(struct sender *s)
{
	int fd;

	s->buf = calloc(1, s->size);
	if (!s->buf)
		err(1, "calloc");
	if (s->reserve) {
		s->r = rttr_open(&s->q);
		if (!s->r)
			errx(1, "cannot reserve %llu bit/s to %s:%u: %s",
			     (unsigned long long)s->q.rate, s->daddr, s->dport,
			     rttr_error());
		fd = rttr_fd(s->r);
		fprintf(stderr, "rtperf: connection %s, proxy %s\n", rttr_id(s->r),
			rttr_proxy(s->r));
	} else {
		s->sin.sin_family = AF_INET;
		s->sin.sin_port = htons(s->dport);
		s->fd = fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		/* A datagram the host's own queue drops comes back as ENOBUFS. */
		if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_RECVERR, &(int){ 1 }, sizeof(int)))
			err(1, "socket");
	}
	if (s->prio >= 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &s->prio, sizeof(s->prio)))
		err(1, "SO_PRIORITY %d", s->prio);
	if (s->tos >= 0 && setsockopt(fd, IPPROTO_IP, IP_TOS, &s->tos, sizeof(s->tos)))
		err(1, "IP_TOS %d", s->tos);
	/* fq on the interface spaces this socket's frames (frame bytes/s) */
	if (s->pace && setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE,
				  &(unsigned int){ (unsigned int)(s->pace / 8) },
				  sizeof(unsigned int)))
		err(1, "SO_MAX_PACING_RATE %llu bit/s", (unsigned long long)s->pace);
}

/*
 * With --start FILE: say "ready" (the reservation is made, the socket
 * open), wait until whoever holds FILE's exclusive lock lets go (flock),
 * and start at the CLOCK_REALTIME ns time FILE then holds, or at once if
 * it holds none: every sender of a run starts its schedule at the same
 * instant, whatever it took to start each process. Returns the start on
 * CLOCK_MONOTONIC.
 */
static uint64_t start_time(struct sender *s)
{
	unsigned long long at = 0;
	uint64_t mono;
	FILE *f;

	if (!s->start_file)
		return now_ns();
	f = fopen(s->start_file, "r");
	if (!f)
		err(1, "%s", s->start_file);
	fprintf(stderr, "rtperf: ready\n");
	fflush(stderr);
	while (flock(fileno(f), LOCK_SH))
		if (errno != EINTR || rtperf_stop)
			err(1, "flock %s", s->start_file);
	if (fscanf(f, "%llu", &at) != 1)
		at = 0;
	fclose(f);
	mono = now_ns();
	if (!at || (int64_t)at - s->real_off <= (int64_t)mono)
		return mono;	/* late: the lateness says by how much */
	return (uint64_t)((int64_t)at - s->real_off);
}

/*
 * A departure's lateness: one sample a batch, the datagrams after its
 * first going back to back by design; none for one that failed to go.
 */
static void late_add(struct sender *s, uint64_t late, double gap)
{
	s->departures++;
	s->late_sum += (double)late;
	if (late > s->late_max)
		s->late_max = late;
	if ((double)late > gap)
		s->late_over++;
}

static void run(struct sender *s)
{
	/* CBR: the i-th batch leaves at t0 + i x batch x frame bits / rate, exactly */
	const unsigned __int128 frame_bits_ns =
		(unsigned __int128)(s->size + RTPERF_OVERHEAD) * 8 * 1000000000ULL * s->batch;
	const double mean_gap = (double)frame_bits_ns / (double)s->rate;
	unsigned short xsubi[3] = { (unsigned short)s->seed,
				    (unsigned short)(s->seed >> 16),
				    (unsigned short)(s->seed >> 32) };
	uint64_t t0, deadline, batches = 0;
	long double offset = 0;

	s->t0 = t0 = deadline = start_time(s);
	if (s->seconds)
		s->end = t0 + (uint64_t)(s->seconds * 1e9);
	while (!rtperf_stop && (!s->count || s->sent < s->count)) {
		uint64_t now, since, late, i;
		int ok = 1;

		if (s->end && deadline >= s->end)
			break;
		if (sleep_to(deadline))
			break;
		/*
		 * Late: from when it could have gone (its time, or the end of
		 * the previous send if a shaper or a full queue held that one
		 * past it) to now, the sender's own stall. Behind schedule, the
		 * next ones follow at once: the rate holds. With --skip, a
		 * stall longer than a gap drops the departures it missed
		 * instead, the latest one due going now at its own time: never
		 * a burst, the rate short by what was skipped. Not after a
		 * send that was held (librttr's bucket, a full queue): that
		 * backlog is the application's, and the shaper spaces it.
		 */
		now = now_ns();
		/* a stall: late with the last send not held (that is backpressure) */
		if (s->skip && !s->held && deadline < now && (double)(now - deadline) > mean_gap) {
			if (now - deadline > s->stall_max)
				s->stall_max = now - deadline;
			while (deadline < now && (double)(now - deadline) > mean_gap &&
			       (!s->end || deadline < s->end)) {
				batches++;
				s->skipped += s->batch;
				if (s->pattern == CBR) {
					deadline = t0 + (uint64_t)(frame_bits_ns * batches / s->rate);
				} else {
					offset += -logl(1.0L - erand48(xsubi)) * mean_gap;
					deadline = t0 + (uint64_t)offset;
				}
			}
			if (s->end && deadline >= s->end)
				break;		/* the stall ran past the end */
			if (deadline > now)
				continue;	/* the next one is still to come */
		}
		since = deadline > s->ready ? deadline : s->ready;
		late = now > since ? now - since : 0;
		s->deadline = deadline;
		s->held = 0;
		for (i = 0; i < s->batch && ok > 0 && (!s->count || s->sent < s->count); i++) {
			ok = s->r ? send_reserved(s) : send_plain(s);
			if (ok <= 0)
				break;
			s->ready = s->last = now_ns();
			if (!s->sent++) {
				s->first = s->last;
				s->first_sched = deadline;
			}
			s->last_sched = deadline;
		}
		/* one lateness a departure that went, whatever its size */
		if (i)
			late_add(s, late, mean_gap);
		if (ok <= 0) {
			s->failed = ok < 0;
			break;
		}
		batches++;
		if (s->pattern == CBR) {
			deadline = t0 + (uint64_t)(frame_bits_ns * batches / s->rate);
		} else {
			/* exponential gaps of mean frame bits / rate; 1 - u in (0, 1] */
			offset += -logl(1.0L - erand48(xsubi)) * mean_gap;
			deadline = t0 + (uint64_t)offset;
		}
	}
}

/*
 * The connection as the path granted it (rttr_info()): the contract, the
 * end-to-end delay bound the switches promised (null when none is known)
 * and how librttr paced it; null on a plain socket.
 */
static json_t *reservation_json(const struct sender *s)
{
	struct rttr_info in;

	if (!s->r)
		return json_null();
	if (rttr_info(s->r, &in))
		errx(1, "rttr_info: %s", rttr_error());
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:s, s:I, s:I, s:I, s:I}",
			 "id", rttr_id(s->r), "proxy", rttr_proxy(s->r),
			 "rate_bps", (json_int_t)in.rate, "burst", (json_int_t)in.burst,
			 "max_pkt", (json_int_t)in.max_pkt, "hops", (json_int_t)in.hops,
			 "delay_bound_ns", in.delay_bound_ns ?
				json_integer((json_int_t)in.delay_bound_ns) : json_null(),
			 "pacing", in.pacing == RTTR_PACING_TICK ? "tick" : "packet",
			 "tolerance", (json_int_t)in.tolerance,
			 "send_max_ns", (json_int_t)in.send_max_ns,
			 "late_max_ns", (json_int_t)in.late_max_ns,
			 "unused_ns", (json_int_t)in.unused_ns);
}

static void report(const struct sender *s)
{
	double dt = s->sent > 1 ? (s->last - s->first) / 1e9 : 0;
	/* over first to last send: n - 1 gaps carry n - 1 datagrams */
	double pay = dt > 0 ? (s->sent - 1) * s->size * 8 / dt : 0;
	double frm = dt > 0 ? (s->sent - 1) * (s->size + RTPERF_OVERHEAD) * 8 / dt : 0;
	double late_mean = s->departures ? s->late_sum / (double)s->departures : 0;
	const char *pat = s->pattern == CBR ? "cbr" : "poisson";
	/* the schedule's gap between batches, mean for Poisson */
	double gap = (double)(s->size + RTPERF_OVERHEAD) * 8e9 * s->batch / (double)s->rate;

	if (s->json) {
		json_t *o = json_pack("{s:s, s:s, s:i, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:f,"
				      " s:I, s:I, s:{s:I, s:I, s:I}, s:I, s:I}",
				      "role", "send", "daddr", s->daddr, "dport", s->dport,
				      "flow", (json_int_t)s->flow, "pattern", pat,
				      "seed", (json_int_t)s->seed,
				      "size", (json_int_t)s->size,
				      "rate_bps", (json_int_t)s->rate,
				      "batch", (json_int_t)s->batch,
				      "sent", (json_int_t)s->sent, "seconds", dt,
				      "payload_bps", (json_int_t)llround(pay),
				      "frame_bps", (json_int_t)llround(frm),
				      "late_ns", "mean", (json_int_t)llround(late_mean),
				      "max", (json_int_t)s->late_max,
				      "over_gap", (json_int_t)s->late_over,
				      "gap_ns", (json_int_t)llround(gap),
				      "enobufs", (json_int_t)s->enobufs);

		if (!o)
			errx(1, "out of memory");
		/* the schedule on CLOCK_REALTIME, the receiver's clock */
		json_object_set_new(o, "start_ns", json_integer((json_int_t)s->t0 + s->real_off));
		json_object_set_new(o, "skip", json_boolean(s->skip));
		json_object_set_new(o, "skipped", json_integer((json_int_t)s->skipped));
		json_object_set_new(o, "stall_max_ns", json_integer((json_int_t)s->stall_max));
		json_object_set_new(o, "first_ns", s->sent ?
			json_integer((json_int_t)s->first_sched + s->real_off) : json_null());
		json_object_set_new(o, "last_ns", s->sent ?
			json_integer((json_int_t)s->last_sched + s->real_off) : json_null());
		json_object_set_new(o, "reservation", reservation_json(s));
		json_object_set_new(o, "pace_bps",
				    s->pace ? json_integer((json_int_t)s->pace) : json_null());
		json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
		putchar('\n');
		json_decref(o);
	} else {
		char pb[32], fb[32], rb[32], lm[32], lx[32], res[64] = "";

		format_rate((uint64_t)pay, pb, sizeof(pb));
		format_rate((uint64_t)frm, fb, sizeof(fb));
		format_rate(s->rate, rb, sizeof(rb));
		format_ns(late_mean, lm, sizeof(lm));
		format_ns((double)s->late_max, lx, sizeof(lx));
		if (s->r) {
			char qb[32];

			format_rate(s->q.rate, qb, sizeof(qb));
			snprintf(res, sizeof(res), ", reserved %s/s as %s", qb, rttr_id(s->r));
		}
		printf("sent %llu datagrams of %llu bytes, flow %u, %s at %s/s%s\n"
		       "  in %.3f s: payload %s/s, frames %s/s; late by %s mean, %s max",
		       (unsigned long long)s->sent, (unsigned long long)s->size,
		       s->flow, pat, rb, res, dt, pb, fb, lm, lx);
		if (s->late_over)
			printf(" (%llu later than a gap)", (unsigned long long)s->late_over);
		if (s->skipped)
			printf("; %llu skipped after stalls of up to %.1f ms",
			       (unsigned long long)s->skipped, s->stall_max / 1e6);
		if (s->pattern == POISSON)
			printf("; seed %llu", (unsigned long long)s->seed);
		if (s->enobufs)
			printf("; %llu sends retried (ENOBUFS)", (unsigned long long)s->enobufs);
		printf("\n");
	}
}

int rtperf_send(int argc, char **argv)
{
	struct sender s = { .rate = 1000000, .size = 1472, .prio = -1, .tos = -1,
			    .fd = -1, .batch = 1 };
	struct timespec ts;

	/* a different run each time, unless -e: the seed is in the report */
	clock_gettime(CLOCK_REALTIME, &ts);
	s.seed = ((uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 16 ^
		  (uint64_t)ts.tv_sec << 24) & 0xffffffffffffULL;
	parse(&s, argc, argv);
	/* the default 50 us of timer slack would be 50 us of pacing jitter */
	prctl(PR_SET_TIMERSLACK, 1UL);
	/* one offset: the two stamps on one base, later never before sooner */
	s.real_off = (int64_t)realtime_ns() - (int64_t)now_ns();
	setup(&s);
	on_stop_signals();
	run(&s);
	/*
	 * Its schedule done, a sender run at a real-time priority must not
	 * keep the CPU for its report and exit (tens of ms under emulation)
	 * while senders beside it still have their last datagrams to send.
	 */
	if (sched_getscheduler(0) != SCHED_OTHER)
		sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 });
	report(&s);
	rttr_close(s.r);
	if (s.fd >= 0)
		close(s.fd);
	free(s.buf);
	return s.failed;
}
