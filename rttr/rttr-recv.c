// SPDX-License-Identifier: GPL-2.0
/*
 * rttr-recv: count the datagrams arriving on a UDP port (a real-time
 * connection's receiver is a plain UDP socket: no librttr needed).
 *
 *   rttr-recv [-b ADDR] [-n COUNT] [-t SECONDS] [-w IDLE] [-j] PORT
 *
 * Stops after COUNT datagrams, SECONDS since the start, IDLE seconds with
 * nothing once something has come, or on SIGINT/SIGTERM; prints count,
 * bytes and rate (of the payload, and of whole frames: payload + 42 bytes)
 * from the first datagram to the last. Datagrams of 8 bytes or more are
 * taken to start with rttr-send's sequence number (host byte order):
 * where numbers were skipped says when in the stream datagrams were lost,
 * and a sender's count beyond the highest says they were lost at its end.
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "units.h"

#define OVERHEAD 42	/* UDP + IPv4 + Ethernet headers */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: rttr-recv [-b ADDR] [-n COUNT] [-t SECONDS] [-w IDLE] [-j] PORT\n");
	exit(2);
}

/* rttr-send's sequence numbers as they came: where some were skipped. */
struct seq_track {
	uint64_t seen;		/* datagrams that carried one */
	uint64_t next;		/* the highest so far, + 1 */
	uint64_t gaps, skipped;	/* jumps forward, and the numbers they skipped */
	uint64_t late;		/* below the highest so far: reordered or duplicated */
	uint64_t first_gap[2], last_gap[2];	/* [from, to] skipped */
};

static void seq_note(struct seq_track *t, const char *buf, size_t len)
{
	uint64_t seq;

	if (len < sizeof(seq))
		return;
	memcpy(&seq, buf, sizeof(seq));
	if (t->seen++ && seq < t->next) {
		t->late++;
		return;
	}
	if (seq > t->next) {
		t->last_gap[0] = t->next;
		t->last_gap[1] = seq - 1;
		if (!t->gaps++)
			memcpy(t->first_gap, t->last_gap, sizeof(t->first_gap));
		t->skipped += seq - t->next;
	}
	t->next = seq + 1;
}

static double seconds_arg(const char *s)
{
	double v;

	if (parse_seconds(s, &v))
		errx(2, "bad time: %s (seconds above 0, at most 1e9)", s);
	return v;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	uint64_t count = 0, n = 0, bytes = 0, first = 0, last = 0, start, end_t = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct seq_track seq = { 0 };
	double seconds = 0, idle = 0, dt;
	char pbuf[32], fbuf[32];
	static char buf[65536];
	int opt, fd, json = 0;
	long port;
	char *end;

	while ((opt = getopt(argc, argv, "b:n:t:w:jh")) != -1) {
		switch (opt) {
		case 'b':
			if (inet_pton(AF_INET, optarg, &sin.sin_addr) != 1)
				errx(2, "bad address: %s", optarg);
			break;
		case 'n':
			if (parse_count(optarg, &count))
				errx(2, "bad count: %s", optarg);
			break;
		case 't':
			seconds = seconds_arg(optarg);
			break;
		case 'w':
			idle = seconds_arg(optarg);
			break;
		case 'j':
			json = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	port = strtol(argv[optind], &end, 10);
	if (*end || port < 1 || port > 65535)
		errx(2, "bad port: %s", argv[optind]);
	sin.sin_port = htons((uint16_t)port);

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		err(1, "UDP port %ld", port);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "rttr-recv: listening on port %ld\n", port);

	start = now_ns();
	if (seconds)
		end_t = start + (uint64_t)(seconds * 1e9);
	while (!stop && (!count || n < count)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int timeout;
		ssize_t len;

		if (!recv_timeout(now_ns(), end_t, last, (uint64_t)(idle * 1e9), &timeout))
			break;
		if (poll(&p, 1, timeout) <= 0)
			continue;
		len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (len < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			err(1, "recv");
		}
		last = now_ns();
		if (!n)
			first = last;
		n++;
		bytes += (uint64_t)len;
		seq_note(&seq, buf, (size_t)len);
	}
	close(fd);

	/* from the first arrival to the last: n - 1 gaps carry n - 1 datagrams */
	dt = n > 1 ? (last - first) / 1e9 : 0;
	{
		double pb = dt > 0 ? (bytes - bytes / n) * 8 / dt : 0;
		double fb = dt > 0 ? (bytes - bytes / n + (n - 1) * OVERHEAD) * 8 / dt : 0;

		format_rate((uint64_t)pb, pbuf, sizeof(pbuf));
		format_rate((uint64_t)fb, fbuf, sizeof(fbuf));
		if (json) {
			printf("{\"count\":%llu,\"bytes\":%llu,\"seconds\":%.6f,"
			       "\"payload_bps\":%.0f,\"frame_bps\":%.0f,\"seq\":",
			       (unsigned long long)n, (unsigned long long)bytes,
			       dt, pb, fb);
			if (seq.seen)
				printf("{\"next\":%llu,\"gaps\":%llu,\"skipped\":%llu,"
				       "\"late\":%llu,\"first_gap\":[%llu,%llu],"
				       "\"last_gap\":[%llu,%llu]}}\n",
				       (unsigned long long)seq.next, (unsigned long long)seq.gaps,
				       (unsigned long long)seq.skipped, (unsigned long long)seq.late,
				       (unsigned long long)seq.first_gap[0],
				       (unsigned long long)seq.first_gap[1],
				       (unsigned long long)seq.last_gap[0],
				       (unsigned long long)seq.last_gap[1]);
			else
				printf("null}\n");
		} else {
			printf("received %llu datagrams, %llu bytes in %.3f s: payload %s/s, frames %s/s\n",
			       (unsigned long long)n, (unsigned long long)bytes,
			       dt, pbuf, fbuf);
			if (seq.gaps || seq.late)
				printf("sequence: %llu skipped in %llu gap(s), first %llu-%llu, "
				       "last %llu-%llu; %llu late; next expected %llu\n",
				       (unsigned long long)seq.skipped, (unsigned long long)seq.gaps,
				       (unsigned long long)seq.first_gap[0],
				       (unsigned long long)seq.first_gap[1],
				       (unsigned long long)seq.last_gap[0],
				       (unsigned long long)seq.last_gap[1],
				       (unsigned long long)seq.late, (unsigned long long)seq.next);
		}
	}
	return 0;
}
