/* SPDX-License-Identifier: GPL-2.0 */
/* rtperf(1): what its sender, receiver and reports share. */
#ifndef RTPERF_H
#define RTPERF_H

#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "stats.h"

/* Bytes a UDP/IPv4 datagram adds to its payload on Ethernet: 8 + 20 + 14. */
#define RTPERF_OVERHEAD 42

/* rtperf recv -o's columns, one line per datagram (times CLOCK_REALTIME ns) */
#define RTPERF_CSV_HEADER "flow,seq,sched_ns,tx_ns,rx_ns,size"

extern volatile sig_atomic_t rtperf_stop;

/* SIGINT and SIGTERM set rtperf_stop, and interrupt blocking calls. */
void on_stop_signals(void);

static inline uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Option arguments; bad ones exit 2 naming WHAT. */
double arg_seconds(const char *what, const char *s);
uint64_t arg_count(const char *what, const char *s);
uint64_t arg_time(const char *what, const char *s);
uint16_t arg_port(const char *s);

/* "12.5us", "-3ms": format_time() with a sign. */
void format_ns(double ns, char *buf, size_t len);

int rtperf_send(int argc, char **argv);
int rtperf_recv(int argc, char **argv);
int rtperf_analyze_cmd(int argc, char **argv);
int rtperf_estimate_cmd(int argc, char **argv);

/* A flow at the receiver: the datagrams of one flow id. */
struct flow {
	uint32_t id;
	struct in_addr src;		/* of its first datagram */
	struct rtperf_rec *rec;		/* in arrival order */
	size_t n, cap;
	int one_stamp;			/* version 1 datagrams: no intended time */
	struct rtperf_stats st;
};

/* What the receiver reports. */
struct recv_report {
	uint16_t port;
	double seconds;			/* listened */
	uint64_t invalid;		/* datagrams without rtperf's header */
	uint64_t socket_drops;		/* dropped by the receiving socket */
	uint64_t untimestamped;		/* no kernel timestamp: read the clock */
	struct rtperf_params params;
	int show_hist;			/* -H given: the table prints it */
	struct flow *flows;		/* by id */
	size_t nflows;
};

void report_table(const struct recv_report *rep);
void report_json(const struct recv_report *rep);

#endif
