// SPDX-License-Identifier: GPL-2.0
/*
 * rtperf: one-way measurements of UDP flows through real-time networks.
 *
 *   rtperf send [options] DADDR DPORT      (send.c)
 *   rtperf recv [options] PORT             (recv.c, report.c)
 *   rtperf analyze [options] RUNDIR...     (analyze.c: bench/'s methods)
 *   rtperf estimate LIST...                (analyze.c)
 *
 * The sender stamps each datagram with a sequence number and its send
 * time; the receiver takes the kernel's receive timestamp and computes
 * loss, reordering, one-way delay, jitter, IPDV, inter-arrival times and
 * bandwidth (stats.c). One-way delay needs the two ends on one clock: the
 * hosts of a test are network namespaces of one machine. rtperf(1).
 */
#include <err.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtperf.h"
#include "units.h"

volatile sig_atomic_t rtperf_stop;

static void on_signal(int sig)
{
	(void)sig;
	rtperf_stop = 1;
}

void on_stop_signals(void)
{
	/* no SA_RESTART: poll() and sleeps return, and the loops look */
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

double arg_seconds(const char *what, const char *s)
{
	double v;

	if (parse_seconds(s, &v))
		errx(2, "bad %s '%s': seconds, a number > 0", what, s);
	return v;
}

uint64_t arg_count(const char *what, const char *s)
{
	uint64_t v;

	if (parse_count(s, &v) || !v)
		errx(2, "bad %s '%s': a whole number > 0", what, s);
	return v;
}

uint64_t arg_time(const char *what, const char *s)
{
	uint64_t ns;

	if (parse_time(s, &ns) || !ns)
		errx(2, "bad %s '%s': a time > 0 as tc writes it (\"80ms\", \"100us\")",
		     what, s);
	return ns;
}

uint16_t arg_port(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || !*s || v < 1 || v > 65535)
		errx(2, "bad port '%s': 1 to 65535", s);
	return (uint16_t)v;
}

void format_ns(double ns, char *buf, size_t len)
{
	char t[32];

	format_time((uint64_t)llround(fabs(ns)), t, sizeof(t));
	snprintf(buf, len, "%s%s", ns < 0 && llround(ns) ? "-" : "", t);
}

static void usage(FILE *f, int status)
{
	fprintf(f,
		"usage: rtperf send [-r RATE] [-s SIZE] [-t SECONDS] [-n COUNT] [-p cbr|poisson]\n"
		"                   [-k BATCH] [-e SEED] [-f FLOW] [-P PRIO] [-Q TOS] [-j]\n"
		"                   [--start FILE] [--skip]\n"
		"                   [-R [-B RATE] [-b BURST] [-m MAX_PKT] [--pacing packet|tick]\n"
		"                       [--period PERIOD] [-i IF] [-S SOCKET]] DADDR DPORT\n"
		"       rtperf recv [-b ADDR] [-t SECONDS] [-w IDLE] [-n COUNT] [-W WINDOW]\n"
		"                   [-H BIN] [-T STEP] [-o FILE] [-j] PORT\n"
		"       rtperf analyze [-c] [-w WARMUP] [-O MIN_OVERLAP] [-S MAX_SKIP] [-o EXPORT.csv]\n"
		"                   -F NAME:RX:FLOW:CLASS[:OFFERED[:RESERVED[:FLAGS]]]... RUNDIR...\n"
		"       rtperf estimate LIST...\n"
		"see rtperf(1)\n");
	exit(status);
}

int main(int argc, char **argv)
{
	static char send_name[] = "rtperf send", recv_name[] = "rtperf recv",
		    analyze_name[] = "rtperf analyze";

	if (argc < 2)
		usage(stderr, 2);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help"))
		usage(stdout, 0);
	/* the subcommand's getopt sees "send ..." as its argv, and names it */
	if (!strcmp(argv[1], "send")) {
		argv[1] = send_name;
		return rtperf_send(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "recv")) {
		argv[1] = recv_name;
		return rtperf_recv(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "analyze")) {
		argv[1] = analyze_name;
		return rtperf_analyze_cmd(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "estimate"))
		return rtperf_estimate_cmd(argc - 1, argv + 1);
	warnx("unknown command '%s': send, recv, analyze or estimate", argv[1]);
	usage(stderr, 2);
}
