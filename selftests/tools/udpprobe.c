// SPDX-License-Identifier: GPL-2.0
/*
 * udpprobe: exact UDP delivery and rate checks for tests.
 *
 *   udpprobe send DST PORT COUNT [SIZE [PACE [START]]]
 *       COUNT datagrams of SIZE payload bytes (>= 8, default 64), each
 *       starting with a sequence number, at absolute deadlines. PACE is a
 *       packet rate (a bare number) or a tc(8) rate ("10mbit") counting
 *       whole frames: payload + 8 UDP + 20 IP + 14 Ethernet bytes. START
 *       (CLOCK_REALTIME ns) is when the first is due, so that a caller
 *       starts every process at once and no start falls within what it
 *       measures; past START, at once (the receiver sees how late).
 *       Prints "sent=N elapsed_us=E sent_bps=R late_max_us=L catchup_us=C
 *       rate_bps=R iat_mean_us=M iat_sd_us=S iat_max_us=X" (R in frame bits;
 *       the inter-send times of the frames as they left, the jitter the
 *       sender adds). L is how far a frame left behind its deadline; C
 *       the largest burst the sender put out catching up, as time at the
 *       pace: the most by which an earlier frame was later than a later
 *       one. A token bucket at the pace with a depth of C (and one frame)
 *       passes every frame sent: the traffic conformed to any contract of
 *       that rate whose burst is at least C.
 *   udpprobe recv PORT COUNT TIMEOUT_MS [GAP_MS [STAMPS]]
 *       receive until COUNT datagrams or TIMEOUT_MS of silence (GAP_MS once
 *       the first datagram is in: a flow that lost its tail ends sooner),
 *       write each one's receive timestamp (CLOCK_REALTIME ns, in time
 *       order) as a line of the file STAMPS, if given (for rates over a
 *       window of the caller's choosing), then print
 *       "received=N bytes=B dups=D sock_drops=K rate_bps=R iat_mean_us=M
 *       iat_sd_us=S iat_max_us=X dst=A,.. src=A,.." where K counts what the
 *       receiving socket itself dropped (full), the rate (frame bits over the
 *       time from first to last arrival) and the inter-arrival times come
 *       from kernel receive timestamps; dst is the address the receiver's
 *       stack saw (IP_PKTINFO); a duplicate is a sequence number seen twice
 *       from one source.
 *   Exit 0 when all COUNT arrived (recv) or were sent (send).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/errqueue.h>

#include "clock.h"
#include "units.h"

#define MAX_ADDRS 8
#define FRAME_OVERHEAD (8 + 20 + 14)	/* UDP, IPv4, Ethernet headers */

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* Gap between frames, ns: from packets/s, or a tc rate of whole frames. */
static uint64_t pace_gap(const char *pace, unsigned long size)
{
	uint64_t bps;
	char *end;
	double pps;

	if (!pace)
		return 0;
	if (isalpha((unsigned char)pace[strlen(pace) - 1])) {
		if (parse_rate(pace, &bps) || !bps) {
			fprintf(stderr, "udpprobe: bad rate '%s'\n", pace);
			exit(2);
		}
		return (uint64_t)((size + FRAME_OVERHEAD) * 8 * 1e9 / (double)bps);
	}
	pps = strtod(pace, &end);
	if (*end || pps < 0) {
		fprintf(stderr, "udpprobe: bad packet rate '%s'\n", pace);
		exit(2);
	}
	return pps > 0 ? (uint64_t)(1e9 / pps) : 0;
}

/*
 * Send or arrival times, sorted before use: frames of one flow can reach
 * the socket out of order when the path crosses CPUs, but inter-arrival
 * times are between consecutive arrivals.
 */
struct timing {
	uint64_t *at;
	unsigned long n, cap;
	unsigned long long frame_bytes;	/* all but the first frame */
};

static void timing_add(struct timing *t, uint64_t at, unsigned long frame)
{
	if (!at || t->n == t->cap)
		return;
	if (t->n)
		t->frame_bytes += frame;
	t->at[t->n++] = at;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts the times (the lines of STAMPS, if not NULL) and prints their stats. */
static void timing_print(struct timing *t, const char *stamps)
{
	double mean = 0, m2 = 0, max = 0, x, d, span;
	unsigned long i;

	qsort(t->at, t->n, sizeof(*t->at), cmp_u64);
	if (stamps) {
		FILE *f = fopen(stamps, "w");

		for (i = 0; f && i < t->n; i++)
			fprintf(f, "%llu\n", (unsigned long long)t->at[i]);
		if (!f || fclose(f))
			die(stamps);
	}
	for (i = 1; i < t->n; i++) {
		x = (double)(t->at[i] - t->at[i - 1]) / 1e3;
		d = x - mean;
		mean += d / i;
		m2 += d * (x - mean);
		if (x > max)
			max = x;
	}
	span = t->n > 1 ? (double)(t->at[t->n - 1] - t->at[0]) : 0;
	printf(" rate_bps=%.0f iat_mean_us=%.1f iat_sd_us=%.1f iat_max_us=%.1f",
	       span > 0 ? t->frame_bytes * 8 * 1e9 / span : 0, mean,
	       t->n > 2 ? sqrt(m2 / (t->n - 2)) : 0, max);
}

static int do_send(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	unsigned long count, size = 64, i;
	uint64_t start, gap, elapsed, at, late, late_max = 0, catchup = 0;
	struct timing tm = { 0 };
	char *buf;
	int fd;

	if (argc < 3)
		return 2;
	if (inet_pton(AF_INET, argv[0], &dst.sin_addr) != 1)
		die("destination");
	dst.sin_port = htons((uint16_t)atoi(argv[1]));
	count = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		size = strtoul(argv[3], NULL, 0);
	if (size < 8 || size > 65000)
		return 2;
	gap = pace_gap(argc > 4 ? argv[4] : NULL, size);
	buf = calloc(1, size);
	tm.cap = count;
	tm.at = calloc(count + 1, sizeof(*tm.at));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!buf || !tm.at || fd < 0)
		die("socket");
	/* So that DST may be a broadcast address. */
	setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &(int){ 1 }, sizeof(int));
	/*
	 * A datagram this host's own queue drops (a tc FIFO standing for the
	 * NIC) comes back as ENOBUFS and is sent again, instead of being
	 * counted as sent while UDP drops it silently.
	 */
	setsockopt(fd, IPPROTO_IP, IP_RECVERR, &(int){ 1 }, sizeof(int));
	start = argc > 5 ? mono_of_real(strtoull(argv[5], NULL, 0)) : now_ns();
	for (i = 0; i < count; i++) {
		uint64_t seq = i;

		if (gap || !i)
			sleep_until(start + i * gap);
		memcpy(buf, &seq, sizeof(seq));
		while (sendto(fd, buf, size, 0, (struct sockaddr *)&dst, sizeof(dst)) < 0) {
			/* ECONNREFUSED: an ICMP error about an earlier one. */
			if (errno != ENOBUFS && errno != EAGAIN && errno != ECONNREFUSED)
				die("sendto");
			usleep(100);
		}
		/* When the frame left: the jitter the sender itself adds. */
		at = now_ns();
		timing_add(&tm, at, size + FRAME_OVERHEAD);
		/*
		 * Frames j < k leave as a burst of (late_j - late_k) at the
		 * pace when the sender catches up: what a contract must allow.
		 */
		late = gap ? at - (start + i * gap) : 0;
		if (late_max > late && late_max - late > catchup)
			catchup = late_max - late;
		if (late > late_max)
			late_max = late;
	}
	/* Over the COUNT - 1 gaps from the first frame to the last. */
	elapsed = now_ns() - start;
	printf("sent=%lu elapsed_us=%llu sent_bps=%.0f late_max_us=%llu catchup_us=%llu",
	       count, (unsigned long long)(elapsed / 1000),
	       count > 1 ? (count - 1) * (size + FRAME_OVERHEAD) * 8 * 1e9 / elapsed : 0,
	       (unsigned long long)(late_max / 1000), (unsigned long long)(catchup / 1000));
	timing_print(&tm, NULL);
	printf("\n");
	return 0;
}

/* Index of A in SET, added if new; -1 when SET is full. */
static int note(uint32_t *set, int *n, uint32_t a)
{
	int i;

	for (i = 0; i < *n; i++)
		if (set[i] == a)
			return i;
	if (*n == MAX_ADDRS)
		return -1;
	set[*n] = a;
	return (*n)++;
}

static void print_set(const char *name, const uint32_t *set, int n)
{
	char s[INET_ADDRSTRLEN];
	int i;

	printf(" %s=", name);
	for (i = 0; i < n; i++) {
		inet_ntop(AF_INET, &set[i], s, sizeof(s));
		printf("%s%s", i ? "," : "", s);
	}
}

static int do_recv(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	unsigned long count, got = 0, bytes = 0, dups = 0;
	uint32_t sock_drops = 0;
	uint32_t dsts[MAX_ADDRS], srcs[MAX_ADDRS];
	int ndst = 0, nsrc = 0, timeout, gap, fd, one = 1;
	struct timing tm = { 0 };
	unsigned char *seen;
	char buf[65536];

	if (argc < 3)
		return 2;
	addr.sin_port = htons((uint16_t)atoi(argv[0]));
	count = strtoul(argv[1], NULL, 0);
	timeout = atoi(argv[2]);
	gap = argc > 3 ? atoi(argv[3]) : timeout;
	seen = calloc((count + 1) * MAX_ADDRS, 1);
	tm.cap = count;
	tm.at = calloc(count + 1, sizeof(*tm.at));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!seen || !tm.at || fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	/*
	 * 4 MB, past rmem_max (root in the VM may): a receiver descheduled
	 * for a while must not lose what the network delivered. What the
	 * socket still drops is counted (SO_RXQ_OVFL) and printed.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &(int){ 4 << 20 }, sizeof(int)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &(int){ 4 << 20 }, sizeof(int));
	setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		die("bind");
	/* Tell the caller we listen: it may start sending now. */
	printf("listening\n");
	fflush(stdout);

	while (got < count) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo)) +
			  CMSG_SPACE(sizeof(struct timespec)) + CMSG_SPACE(sizeof(uint32_t))];
		struct sockaddr_in from;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = { .msg_name = &from, .msg_namelen = sizeof(from),
				    .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		uint64_t seq, at = 0;
		struct cmsghdr *c;
		ssize_t n;
		int src;

		if (poll(&p, 1, got ? gap : timeout) <= 0)
			break;
		n = recvmsg(fd, &m, 0);
		if (n < 0)
			die("recvmsg");
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO)
				note(dsts, &ndst,
				     ((struct in_pktinfo *)CMSG_DATA(c))->ipi_addr.s_addr);
			/* The socket's drops so far, on each datagram after one. */
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL)
				memcpy(&sock_drops, CMSG_DATA(c), sizeof(sock_drops));
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
				at = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
			}
		}
		src = note(srcs, &nsrc, from.sin_addr.s_addr);
		if (src >= 0 && n >= (ssize_t)sizeof(seq)) {
			memcpy(&seq, buf, sizeof(seq));
			if (seq < count && seen[src * (count + 1) + seq]++) {
				dups++;
				continue;
			}
		}
		got++;
		bytes += (unsigned long)n;
		timing_add(&tm, at, (unsigned long)n + FRAME_OVERHEAD);
	}
	printf("received=%lu bytes=%lu dups=%lu sock_drops=%u", got, bytes, dups, sock_drops);
	timing_print(&tm, argc > 4 ? argv[4] : NULL);
	print_set("dst", dsts, ndst);
	print_set("src", srcs, nsrc);
	printf("\n");
	return got == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	int ret = 2;

	if (argc > 1 && !strcmp(argv[1], "send"))
		ret = do_send(argc - 2, argv + 2);
	else if (argc > 1 && !strcmp(argv[1], "recv"))
		ret = do_recv(argc - 2, argv + 2);
	if (ret == 2)
		fprintf(stderr, "usage: udpprobe send DST PORT COUNT [SIZE [PPS | RATE [START]]]\n"
				"       udpprobe recv PORT COUNT TIMEOUT_MS [GAP_MS [STAMPS]]\n");
	return ret;
}
