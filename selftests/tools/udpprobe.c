// SPDX-License-Identifier: GPL-2.0
/*
 * udpprobe: exact UDP delivery checks for tests.
 *
 *   udpprobe send DST PORT COUNT [SIZE [PPS]]
 *       COUNT datagrams of SIZE payload bytes (>= 8), each starting with a
 *       sequence number; paced at PPS when given (0 = as fast as possible).
 *   udpprobe recv PORT COUNT TIMEOUT_MS
 *       receive until COUNT datagrams or TIMEOUT_MS of silence, then print
 *       "received=N bytes=B dups=D dst=A,B.. src=A,B.."
 *       (dst from IP_PKTINFO: the address the receiver's stack saw; a
 *       duplicate is a sequence number seen twice from the same source)
 *   Exit 0 when all COUNT arrived (recv) or were sent (send).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_ADDRS 8

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int do_send(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	unsigned long count, size = 64, pps = 0, i;
	uint64_t start, gap = 0;
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
	if (argc > 4)
		pps = strtoul(argv[4], NULL, 0);
	if (size < 8 || size > 65000)
		return 2;
	if (pps)
		gap = 1000000000ULL / pps;
	buf = calloc(1, size);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!buf || fd < 0)
		die("socket");
	/* So that DST may be a broadcast address. */
	setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &(int){ 1 }, sizeof(int));
	start = now_ns();
	for (i = 0; i < count; i++) {
		uint64_t seq = i;

		if (gap)
			sleep_until(start + i * gap);
		memcpy(buf, &seq, sizeof(seq));
		while (sendto(fd, buf, size, 0, (struct sockaddr *)&dst, sizeof(dst)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN)
				die("sendto");
			usleep(100);
		}
	}
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
	uint32_t dsts[MAX_ADDRS], srcs[MAX_ADDRS];
	int ndst = 0, nsrc = 0, timeout, fd, one = 1;
	unsigned char *seen;
	char buf[65536];

	if (argc < 3)
		return 2;
	addr.sin_port = htons((uint16_t)atoi(argv[0]));
	count = strtoul(argv[1], NULL, 0);
	timeout = atoi(argv[2]);
	seen = calloc((count + 1) * MAX_ADDRS, 1);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!seen || fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		die("bind");
	/* Tell the caller we listen: it may start sending now. */
	printf("listening\n");
	fflush(stdout);

	while (got < count) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))];
		struct sockaddr_in from;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = { .msg_name = &from, .msg_namelen = sizeof(from),
				    .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c;
		uint64_t seq;
		ssize_t n;
		int src;

		if (poll(&p, 1, timeout) <= 0)
			break;
		n = recvmsg(fd, &m, 0);
		if (n < 0)
			die("recvmsg");
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO)
				note(dsts, &ndst,
				     ((struct in_pktinfo *)CMSG_DATA(c))->ipi_addr.s_addr);
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
	}
	printf("received=%lu bytes=%lu dups=%lu", got, bytes, dups);
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
		fprintf(stderr, "usage: udpprobe send DST PORT COUNT [SIZE [PPS]]\n"
				"       udpprobe recv PORT COUNT TIMEOUT_MS\n");
	return ret;
}
