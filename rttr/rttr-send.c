// SPDX-License-Identifier: GPL-2.0
/*
 * rttr-send: send datagrams at a reservation through librttr.
 *
 *   rttr-send [-i IF] [-S SOCKET] [-b BURST] [-p PERIOD] [-m MAX_PKT] [-j]
 *             DADDR DPORT RATE [-s SIZE] [-n COUNT] [-t SECONDS]
 *
 * RATE, BURST, SIZE and PERIOD as tc(8) writes them ("50mbit", "64k",
 * "10ms"). Stops after COUNT datagrams or SECONDS, whichever is first
 * (default: 10 s), or on SIGINT/SIGTERM; prints the achieved rate, of the
 * payload and of whole frames (payload + 42 bytes), against the reserved.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
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
		"usage: rttr-send [-i IF] [-S SOCKET] [-b BURST] [-p PERIOD] [-m MAX_PKT] [-j]\n"
		"                 DADDR DPORT RATE [-s SIZE] [-n COUNT] [-t SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct rttr_qos q = { 0 };
	uint64_t size = 1472, count = 0, v, sent = 0, t0, t1, deadline = 0;
	double seconds = 0, dt;
	char rbuf[32], pbuf[32], fbuf[32];
	struct sigaction sa = { .sa_handler = on_signal };
	int opt, json = 0;
	struct rttr *r;
	char *buf, *end;
	ssize_t n;
	long port;

	while ((opt = getopt(argc, argv, "i:S:b:p:m:s:n:t:jh")) != -1) {
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
		case 's':
			if (parse_size(optarg, &size) || size > 65507)
				errx(2, "bad size: %s", optarg);
			break;
		case 'n':
			count = strtoull(optarg, &end, 10);
			if (*end || !*optarg)
				errx(2, "bad count: %s", optarg);
			break;
		case 't':
			seconds = strtod(optarg, &end);
			if (*end || !*optarg || seconds <= 0)
				errx(2, "bad seconds: %s", optarg);
			break;
		case 'j':
			json = 1;
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
	if (parse_rate(argv[optind + 2], &q.rate) || !q.rate)
		errx(2, "bad rate: %s", argv[optind + 2]);
	if (!count && !seconds)
		seconds = 10;
	if (!q.max_pkt && size + RTTR_OVERHEAD > RTTR_MAX_PKT_DEFAULT)
		q.max_pkt = (uint32_t)(size + RTTR_OVERHEAD);

	buf = calloc(1, size ? size : 1);
	if (!buf)
		err(1, "calloc");
	r = rttr_open(&q);
	if (!r)
		errx(1, "rttr_open: %s", rttr_error());
	fprintf(stderr, "rttr-send: connection %s, proxy %s\n", rttr_id(r),
		rttr_proxy(r));
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
	}
	rttr_close(r);

	dt = (t1 - t0) / 1e9;
	format_rate((uint64_t)(dt > 0 ? sent * size * 8 / dt : 0), pbuf, sizeof(pbuf));
	format_rate((uint64_t)(dt > 0 ? sent * (size + RTTR_OVERHEAD) * 8 / dt : 0),
		    fbuf, sizeof(fbuf));
	format_rate(q.rate, rbuf, sizeof(rbuf));
	if (json)
		printf("{\"sent\":%llu,\"size\":%llu,\"seconds\":%.6f,\"payload_bps\":%.0f,"
		       "\"frame_bps\":%.0f,\"reserved_bps\":%llu}\n",
		       (unsigned long long)sent, (unsigned long long)size, dt,
		       dt > 0 ? sent * size * 8 / dt : 0,
		       dt > 0 ? sent * (size + RTTR_OVERHEAD) * 8 / dt : 0,
		       (unsigned long long)q.rate);
	else
		printf("sent %llu datagrams of %llu bytes in %.3f s: payload %s/s, frames %s/s (reserved %s/s)\n",
		       (unsigned long long)sent, (unsigned long long)size, dt,
		       pbuf, fbuf, rbuf);
	free(buf);
	return 0;
}
