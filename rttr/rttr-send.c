// SPDX-License-Identifier: GPL-2.0
/*
 * rttr-send: send datagrams at a reservation through librttr.
 *
 *   rttr-send [-i IF] [-S SOCKET] [-b BURST] [-m MAX_PKT] [-P packet|tick]
 *             [-p PERIOD] [-r RESOLUTION] [-d MAX_DELAY] [-j] [-v]
 *             DADDR DPORT RATE [-s SIZE] [-n COUNT] [-t SECONDS]
 *
 * RATE, BURST, SIZE and the times as tc(8) writes them ("50mbit", "64k",
 * "10ms"). -P: per-packet pacing (the default) or the paper's tick mode,
 * whose tick is PERIOD; RESOLUTION is per-packet pacing's timer resolution.
 * Stops after COUNT datagrams or SECONDS, whichever is first (default:
 * 10 s), or on SIGINT/SIGTERM; prints the achieved rate, of the payload
 * and of whole frames (payload + 42 bytes), against the reserved; with -v
 * (and always in -j's JSON, as "info") what rttr_info() says: the
 * contract, the path's delay bound, the pacing.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "clock.h"
#include "rttr.h"
#include "units.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rttr-send [-i IF] [-S SOCKET] [-b BURST] [-m MAX_PKT] [-P packet|tick]\n"
		"                 [-p PERIOD] [-r RESOLUTION] [-d MAX_DELAY] [-j] [-v]\n"
		"                 DADDR DPORT RATE [-s SIZE] [-n COUNT] [-t SECONDS]\n");
	exit(2);
}

/* What rttr_info() says, for people (-v). */
static void print_info(const struct rttr *r)
{
	char rate[32], burst[32], tol[32], res[32], jit[32], bound[32] = "unknown";
	struct rttr_info in;

	if (rttr_info(r, &in))
		return;
	format_rate(in.rate, rate, sizeof(rate));
	format_size(in.burst, burst, sizeof(burst));
	format_size(in.tolerance, tol, sizeof(tol));
	format_time(in.resolution_ns, res, sizeof(res));
	format_time(in.jitter_ns, jit, sizeof(jit));
	if (in.delay_bound_ns)
		format_time(in.delay_bound_ns, bound, sizeof(bound));
	fprintf(stderr, "rttr-send: contract rate %s/s burst %s max_pkt %u, %u hop%s, "
		"delay bound %s\n", rate, burst, in.max_pkt, in.hops,
		in.hops == 1 ? "" : "s", bound);
	fprintf(stderr, "rttr-send: pacing %s, %s %s, tolerance %s, jitter budget %s\n",
		in.pacing == RTTR_PACING_TICK ? "tick" : "per-packet",
		in.pacing == RTTR_PACING_TICK ? "period" : "resolution", res, tol, jit);
}

/* The same and the sender's own jitter, as the JSON report's "info". */
static void json_info(const struct rttr *r)
{
	struct rttr_info in;

	if (rttr_info(r, &in)) {
		printf(",\"info\":null");
		return;
	}
	printf(",\"info\":{\"rate_bps\":%llu,\"burst\":%llu,\"max_pkt\":%u,\"hops\":%u,"
	       "\"delay_bound_ns\":", (unsigned long long)in.rate,
	       (unsigned long long)in.burst, in.max_pkt, in.hops);
	if (in.delay_bound_ns)
		printf("%llu", (unsigned long long)in.delay_bound_ns);
	else
		printf("null");
	printf(",\"pacing\":\"%s\",\"tolerance\":%llu,\"resolution_ns\":%llu,"
	       "\"jitter_ns\":%llu,\"send_max_ns\":%llu,\"late_max_ns\":%llu,"
	       "\"unused_ns\":%llu,\"path\":\"%s\",\"downs\":%u,\"down_ns\":%llu}",
	       in.pacing == RTTR_PACING_TICK ? "tick" : "packet",
	       (unsigned long long)in.tolerance, (unsigned long long)in.resolution_ns,
	       (unsigned long long)in.jitter_ns, (unsigned long long)in.send_max_ns,
	       (unsigned long long)in.late_max_ns, (unsigned long long)in.unused_ns,
	       in.path_state == RTTR_PATH_DOWN ? "down" : "up", in.downs,
	       (unsigned long long)in.down_ns);
}

/* -v: the path lost and back, as rtcd tells it (a poll a frame: -v only). */
static void tell_path(struct rttr *r)
{
	static bool was_down;
	struct rttr_info in;
	char t[32];
	bool down;

	down = rttr_update(r) && errno == ENETDOWN;
	if (down == was_down)
		return;
	was_down = down;
	if (down) {
		fprintf(stderr, "rttr-send: path down: rtcd sets it up again\n");
	} else if (!rttr_info(r, &in)) {
		format_time(in.down_ns, t, sizeof(t));
		fprintf(stderr, "rttr-send: path up again (down %s in all)\n", t);
	}
}

int main(int argc, char **argv)
{
	struct rttr_qos q = { 0 };
	uint64_t size = 1472, count = 0, v, sent = 0, t0, t1, deadline = 0;
	double seconds = 0, dt;
	char rbuf[32], pbuf[32], fbuf[32];
	struct sigaction sa = { .sa_handler = on_signal };
	int opt, json = 0, verbose = 0;
	struct rttr *r;
	char *buf, *end;
	ssize_t n;
	long port;

	while ((opt = getopt(argc, argv, "i:S:b:p:m:P:r:d:s:n:t:jvh")) != -1) {
		switch (opt) {
		case 'i':
			q.ifname = optarg;
			break;
		case 'S':
			q.ctl_path = optarg;
			break;
		case 'b':
			if (parse_size(optarg, &q.burst))
				errx(2, "bad burst: %s", optarg);
			break;
		case 'p':
			if (parse_time(optarg, &q.period_ns) || !q.period_ns)
				errx(2, "bad period: %s", optarg);
			break;
		case 'm':
			if (parse_size(optarg, &v) || v > UINT32_MAX)
				errx(2, "bad max_pkt: %s", optarg);
			q.max_pkt = (uint32_t)v;
			break;
		case 'P':
			if (!strcmp(optarg, "packet"))
				q.pacing = RTTR_PACING_PACKET;
			else if (!strcmp(optarg, "tick"))
				q.pacing = RTTR_PACING_TICK;
			else
				errx(2, "bad pacing: %s (packet or tick)", optarg);
			break;
		case 'r':
			if (parse_time(optarg, &v) || !v || v > UINT32_MAX)
				errx(2, "bad resolution: %s", optarg);
			q.resolution_ns = (uint32_t)v;
			break;
		case 'd':
			if (parse_time(optarg, &q.max_delay_ns) || !q.max_delay_ns)
				errx(2, "bad maximum delay: %s", optarg);
			break;
		case 's':
			if (parse_size(optarg, &size) || size > 65507)
				errx(2, "bad size: %s", optarg);
			break;
		case 'n':
			if (parse_count(optarg, &count))
				errx(2, "bad count: %s", optarg);
			break;
		case 't':
			if (parse_seconds(optarg, &seconds))
				errx(2, "bad seconds: %s (above 0, at most 1e9)", optarg);
			break;
		case 'j':
			json = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 3)
		usage();
	q.daddr = argv[optind];
	port = strtol(argv[optind + 1], &end, 10);
	if (*end || port < 1 || port > 65535)
		errx(2, "bad port: %s", argv[optind + 1]);
	q.dport = (uint16_t)port;
	if (parse_conn_rate(argv[optind + 2], &q.rate))
		errx(2, "bad rate: %s (a rate from " CONN_RATE_RANGE ")", argv[optind + 2]);
	if (!count && !seconds)
		seconds = 10;
	if (!q.max_pkt && size + RTTR_OVERHEAD > RTTR_MAX_PKT_DEFAULT)
		q.max_pkt = (uint32_t)(size + RTTR_OVERHEAD);

	buf = calloc(1, size ? size : 1);
	if (!buf)
		err(1, "calloc");
	r = rttr_open(&q);
	if (!r)
		errx(1, "rttr_open: %s (%s)", rttr_error(), strerror(errno));
	fprintf(stderr, "rttr-send: connection %s, proxy %s\n", rttr_id(r),
		rttr_proxy(r));
	if (verbose)
		print_info(r);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	t0 = now_ns();
	if (seconds)
		deadline = t0 + (uint64_t)(seconds * 1e9);
	t1 = t0;
	while (!stop && (!count || sent < count)) {
		/* a sequence number, for receivers that look */
		if (size >= sizeof(sent))
			memcpy(buf, &sent, sizeof(sent));
		/*
		 * With a time limit, stop rather than wait for a tick past it:
		 * the rate is then that of the ticks up to the last send.
		 */
		n = rttr_send(r, buf, size, MSG_DONTWAIT);
		if (n < 0 && errno == EAGAIN &&
		    !(deadline && rttr_next_tick(r) > deadline))
			n = rttr_send(r, buf, size, 0);
		if (n < 0) {
			/* the receiver's port unreachable, for now: go on */
			if (errno == EINTR || errno == ECONNREFUSED)
				continue;
			if (errno == EAGAIN && deadline && rttr_next_tick(r) > deadline)
				break;
			if (errno == ECONNRESET)
				warnx("rttr_send: %s", rttr_error());
			else
				warn("rttr_send");
			break;
		}
		sent++;
		t1 = now_ns();
		if (verbose)
			tell_path(r);
	}

	dt = (t1 - t0) / 1e9;
	format_rate((uint64_t)(dt > 0 ? sent * size * 8 / dt : 0), pbuf, sizeof(pbuf));
	format_rate((uint64_t)(dt > 0 ? sent * (size + RTTR_OVERHEAD) * 8 / dt : 0),
		    fbuf, sizeof(fbuf));
	format_rate(q.rate, rbuf, sizeof(rbuf));
	if (json) {
		printf("{\"sent\":%llu,\"size\":%llu,\"seconds\":%.6f,\"payload_bps\":%.0f,"
		       "\"frame_bps\":%.0f,\"reserved_bps\":%llu",
		       (unsigned long long)sent, (unsigned long long)size, dt,
		       dt > 0 ? sent * size * 8 / dt : 0,
		       dt > 0 ? sent * (size + RTTR_OVERHEAD) * 8 / dt : 0,
		       (unsigned long long)q.rate);
		json_info(r);
		printf("}\n");
	} else {
		printf("sent %llu datagrams of %llu bytes in %.3f s: payload %s/s, frames %s/s (reserved %s/s)\n",
		       (unsigned long long)sent, (unsigned long long)size, dt,
		       pbuf, fbuf, rbuf);
	}
	if (verbose) {
		struct rttr_info in;
		char sm[32], lm[32], un[32];

		if (!rttr_info(r, &in)) {
			format_time(in.send_max_ns, sm, sizeof(sm));
			format_time(in.late_max_ns, lm, sizeof(lm));
			format_time(in.unused_ns, un, sizeof(un));
			fprintf(stderr, "rttr-send: longest send %s, latest wake-up %s late, "
				"rate unused for %s\n", sm, lm, un);
		}
	}
	/* after the report: its wait for the switches to drain is not sending time */
	rttr_close(r);
	free(buf);
	return 0;
}
