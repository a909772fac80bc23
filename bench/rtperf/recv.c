// SPDX-License-Identifier: GPL-2.0
/*
 * rtperf recv: record every rtperf datagram arriving on a UDP port, with
 * the kernel's receive timestamp, per flow id; at the end, the statistics
 * of each flow (stats.c), as a table or JSON (report.c), and optionally
 * every datagram as CSV.
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "rtperf.h"
#include "units.h"
#include "wire.h"

struct receiver {
	struct sockaddr_in sin;
	double seconds, idle;
	uint64_t count, got;
	const char *csv_path;
	FILE *csv;
	int json, fd;
	struct recv_report rep;
};

static const struct option long_opts[] = {
	{ "bind", required_argument, NULL, 'b' },
	{ "time", required_argument, NULL, 't' },
	{ "idle", required_argument, NULL, 'w' },
	{ "count", required_argument, NULL, 'n' },
	{ "window", required_argument, NULL, 'W' },
	{ "bin", required_argument, NULL, 'H' },
	{ "series", required_argument, NULL, 'T' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void usage(void)
{
	fprintf(stderr,
		"usage: rtperf recv [-b ADDR] [-t SECONDS] [-w IDLE] [-n COUNT] [-W WINDOW]\n"
		"                   [-H BIN] [-T STEP] [-o FILE] [-j] PORT\n");
	exit(2);
}

static void parse(struct receiver *rc, int argc, char **argv)
{
	struct rtperf_params *p = &rc->rep.params;
	int opt;

	while ((opt = getopt_long(argc, argv, "b:t:w:n:W:H:T:o:jh", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'b':
			if (inet_pton(AF_INET, optarg, &rc->sin.sin_addr) != 1)
				errx(2, "bad address '%s': IPv4, dotted quad", optarg);
			break;
		case 't':
			rc->seconds = arg_seconds("time", optarg);
			break;
		case 'w':
			rc->idle = arg_seconds("idle time", optarg);
			break;
		case 'n':
			rc->count = arg_count("count", optarg);
			break;
		case 'W':
			p->window_ns = arg_time("window", optarg);
			break;
		case 'H':
			p->bin_ns = arg_time("bin width", optarg);
			rc->rep.show_hist = 1;
			break;
		case 'T':
			p->step_ns = arg_time("series step", optarg);
			break;
		case 'o':
			rc->csv_path = optarg;
			break;
		case 'j':
			rc->json = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	rc->rep.port = arg_port(argv[optind]);
	rc->sin.sin_port = htons(rc->rep.port);
}

static struct flow *flow_of(struct recv_report *rep, uint32_t id, struct in_addr src)
{
	struct flow *f;
	size_t i;

	for (i = 0; i < rep->nflows; i++)
		if (rep->flows[i].id == id)
			return &rep->flows[i];
	f = realloc(rep->flows, (rep->nflows + 1) * sizeof(*f));
	if (!f)
		return NULL;
	rep->flows = f;
	/* kept in id order, for the report */
	for (i = rep->nflows; i > 0 && f[i - 1].id > id; i--)
		f[i] = f[i - 1];
	memset(&f[i], 0, sizeof(f[i]));
	f[i].id = id;
	f[i].src = src;
	rep->nflows++;
	return &f[i];
}

/* 0, or -1 out of memory. */
static int record(struct recv_report *rep, const struct rtperf_hdr *h,
		  struct in_addr src, int64_t rx, uint32_t size)
{
	struct flow *f = flow_of(rep, h->flow, src);

	if (!f)
		return -1;
	if (f->n == f->cap) {
		/* doubling: a few reallocations for a whole run */
		size_t cap = f->cap ? 2 * f->cap : 4096;
		struct rtperf_rec *r = realloc(f->rec, cap * sizeof(*r));

		if (!r)
			return -1;
		f->rec = r;
		f->cap = cap;
	}
	f->rec[f->n++] = (struct rtperf_rec){ .seq = h->seq, .tx_ns = (int64_t)h->tx_ns,
					      .sched_ns = (int64_t)h->sched_ns,
					      .rx_ns = rx, .size = size };
	if (h->version < 2)
		f->one_stamp = 1;
	return 0;
}

static void open_socket(struct receiver *rc)
{
	int one = 1, big = 4 << 20;

	rc->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rc->fd < 0)
		err(1, "socket");
	/* the kernel's receive time, not ours after a scheduling delay */
	if (setsockopt(rc->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)))
		err(1, "SO_TIMESTAMPNS");
	/* drops at the socket, to tell them from the network's */
	setsockopt(rc->fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	/* room for bursts while we sort what came; FORCE needs CAP_NET_ADMIN */
	if (setsockopt(rc->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)))
		setsockopt(rc->fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (bind(rc->fd, (struct sockaddr *)&rc->sin, sizeof(rc->sin)))
		err(1, "UDP port %u", rc->rep.port);
}

/* Reads what the socket holds. 0, or -1 to stop (count reached, no memory). */
static int drain(struct receiver *rc, uint64_t *last)
{
	static unsigned char buf[65536];

	while (!rc->count || rc->got < rc->count) {
		char cbuf[CMSG_SPACE(sizeof(struct timespec)) + CMSG_SPACE(sizeof(uint32_t))];
		struct sockaddr_in from;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = { .msg_name = &from, .msg_namelen = sizeof(from),
				    .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct rtperf_hdr h;
		struct cmsghdr *c;
		int64_t rx = 0;
		ssize_t n;

		n = recvmsg(rc->fd, &m, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			err(1, "recvmsg");
		}
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level != SOL_SOCKET)
				continue;
			if (c->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
				rx = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
			} else if (c->cmsg_type == SO_RXQ_OVFL) {
				uint32_t drops;

				/* the socket's total so far */
				memcpy(&drops, CMSG_DATA(c), sizeof(drops));
				rc->rep.socket_drops = drops;
			}
		}
		if (!rx) {
			rc->rep.untimestamped++;
			rx = (int64_t)realtime_ns();
		}
		if (rtperf_hdr_get(buf, (size_t)n, (uint64_t)rx, &h)) {
			rc->rep.invalid++;
			continue;
		}
		if (record(&rc->rep, &h, from.sin_addr, rx, (uint32_t)n)) {
			warnx("out of memory after %llu datagrams: stopping",
			      (unsigned long long)rc->got);
			return -1;
		}
		rc->got++;
		*last = now_ns();
	}
	return -1;
}

static void listen_loop(struct receiver *rc)
{
	uint64_t start = now_ns(), end = 0, last = 0;

	if (rc->seconds)
		end = start + (uint64_t)(rc->seconds * 1e9);
	while (!rtperf_stop) {
		struct pollfd p = { .fd = rc->fd, .events = POLLIN };
		int timeout;

		if (!recv_timeout(now_ns(), end, last, (uint64_t)(rc->idle * 1e9), &timeout))
			break;
		if (poll(&p, 1, timeout) <= 0)
			continue;
		if (drain(rc, &last))
			break;
	}
	rc->rep.seconds = (now_ns() - start) / 1e9;
}

static void write_csv(struct receiver *rc)
{
	size_t i, k;

	fprintf(rc->csv, "%s\n", RTPERF_CSV_HEADER);
	for (i = 0; i < rc->rep.nflows; i++) {
		const struct flow *f = &rc->rep.flows[i];

		for (k = 0; k < f->n; k++)
			fprintf(rc->csv, "%u,%llu,%lld,%lld,%lld,%u\n", f->id,
				(unsigned long long)f->rec[k].seq,
				(long long)f->rec[k].sched_ns, (long long)f->rec[k].tx_ns,
				(long long)f->rec[k].rx_ns, f->rec[k].size);
	}
	if (fclose(rc->csv))
		err(1, "%s", rc->csv_path);
}

int rtperf_recv(int argc, char **argv)
{
	struct receiver rc = {
		.sin = { .sin_family = AF_INET },
		.rep.params = { .window_ns = 80000000, .bin_ns = 10000,
				.overhead = RTPERF_OVERHEAD },
	};
	size_t i;

	parse(&rc, argc, argv);
	/* before listening: a bad path should not cost a run */
	if (rc.csv_path) {
		rc.csv = fopen(rc.csv_path, "w");
		if (!rc.csv)
			err(1, "%s", rc.csv_path);
	}
	open_socket(&rc);
	on_stop_signals();
	fprintf(stderr, "rtperf: listening on port %u\n", rc.rep.port);
	listen_loop(&rc);
	close(rc.fd);

	if (rc.csv)
		write_csv(&rc);
	for (i = 0; i < rc.rep.nflows; i++) {
		struct flow *f = &rc.rep.flows[i];

		if (rtperf_analyze(f->rec, f->n, &rc.rep.params, &f->st))
			errx(1, "out of memory for the statistics of flow %u", f->id);
	}
	if (rc.json)
		report_json(&rc.rep);
	else
		report_table(&rc.rep);
	for (i = 0; i < rc.rep.nflows; i++) {
		rtperf_stats_free(&rc.rep.flows[i].st);
		free(rc.rep.flows[i].rec);
	}
	free(rc.rep.flows);
	return 0;
}
