// SPDX-License-Identifier: GPL-2.0
/*
 * rtcd's client subcommands, over the daemon's socket:
 *   status [-j] [-p]  its answer to {"op":"status"}, as JSON (-j: the
 *                     only output there is, taken for ip's sake; -p: pretty);
 *                     through the status socket when the control socket is
 *                     not the caller's to open
 *   open DADDR DPORT RATE [BURST [MAXPKT]]
 *                     the answer to an open, then the connection is held
 *                     (events printed as they come) until rtcd -i ... open
 *                     is killed: for tests and trying things out
 * The arguments are checked before rtcd is reached. Exit 0 on success, 1
 * when rtcd says no, cannot be reached or does not answer in time, 2 on
 * bad arguments.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "rtcd.h"
#include "rtcd_sock.h"
#include "units.h"

static const char cli_usage[] =
"usage: rtcd [ -S PATH ] -i IFNAME status [ -j ] [ -p ]\n"
"       rtcd [ -S PATH ] -i IFNAME open DADDR DPORT RATE [ BURST [ MAXPKT ] ]\n";

static void print(json_t *j, bool pretty)
{
	json_dumpf(j, stdout, pretty ? JSON_INDENT(2) : JSON_COMPACT);
	putchar('\n');
	fflush(stdout);
}

/* Why rtcd_sock_recv() returned NULL, for people. */
static void say_recv_error(void)
{
	if (!errno)
		fprintf(stderr, "rtcd: rtcd closed the connection\n");
	else if (errno == EAGAIN || errno == EWOULDBLOCK)
		fprintf(stderr, "rtcd: no answer from rtcd in %d s\n", RTCD_SOCK_TIMEOUT_S);
	else if (errno == EPROTO)
		fprintf(stderr, "rtcd: rtcd's answer is not a JSON object\n");
	else
		fprintf(stderr, "rtcd: reading rtcd's answer: %s\n", strerror(errno));
}

/* The answer to the request just sent, events before it printed. */
static json_t *answer(int fd, bool pretty)
{
	json_t *j;

	while ((j = rtcd_sock_recv(fd, 0)) && json_object_get(j, "event")) {
		print(j, pretty);
		json_decref(j);
	}
	if (!j)
		say_recv_error();
	return j;
}

static int ok_or_say(json_t *j)
{
	if (json_is_true(json_object_get(j, "ok")))
		return 0;
	fprintf(stderr, "rtcd: %s: %s\n", json_string_value(json_object_get(j, "error")) ?: "?",
		json_string_value(json_object_get(j, "message")) ?: "");
	return 1;
}

__attribute__((format(printf, 1, 2)))
static json_t *bad_args(const char *fmt, ...)
{
	va_list ap;

	fputs("rtcd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return NULL;
}

static json_t *status_req(int argc, char **argv, bool *pretty)
{
	static const struct option opts[] = {
		{ "pretty", no_argument, NULL, 'p' }, { "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 0;	/* glibc: start afresh on this argv */
	opterr = 0;	/* said below, with the command's name */
	while ((opt = getopt_long(argc, argv, "pj", opts, NULL)) != -1) {
		if (opt == 'p')
			*pretty = true;
		else if (opt != 'j')
			return bad_args("status: unknown option '%s'", argv[optind - 1]);
	}
	if (optind != argc)
		return bad_args("status: unexpected argument '%s'", argv[optind]);
	return json_pack("{s:s}", "op", "status");
}

static json_t *open_req(int argc, char **argv)
{
	uint64_t rate, burst = 0, max_pkt = 0;
	unsigned long port;
	struct in_addr a;
	json_t *req;
	char *end;

	if (argc < 4)
		return bad_args("open: DADDR, DPORT and RATE are needed");
	if (argc > 6)
		return bad_args("open: unexpected argument '%s'", argv[6]);
	if (inet_pton(AF_INET, argv[1], &a) != 1)
		return bad_args("DADDR '%s' is not an IPv4 address", argv[1]);
	errno = 0;
	port = strtoul(argv[2], &end, 10);
	if (argv[2][0] < '0' || argv[2][0] > '9' || errno || *end || !port || port > 65535)
		return bad_args("DPORT '%s' is not a port from 1 to 65535", argv[2]);
	if (parse_conn_rate(argv[3], &rate))
		return bad_args("RATE '%s' is not a rate from " CONN_RATE_RANGE
				" such as 10mbit", argv[3]);
	if (argc > 4 && (parse_size(argv[4], &burst) || burst > UINT32_MAX))
		return bad_args("BURST '%s' is not a size in bytes up to %u", argv[4], UINT32_MAX);
	if (argc > 5 && (parse_size(argv[5], &max_pkt) || max_pkt < ETHEREAL_MAX_PKT_MIN ||
			 max_pkt > ETHEREAL_MAX_PKT_MAX))
		return bad_args("MAXPKT '%s' is not a frame size from %u to %u bytes", argv[5],
				ETHEREAL_MAX_PKT_MIN, ETHEREAL_MAX_PKT_MAX);
	req = json_pack("{s:s, s:s, s:i, s:I}", "op", "open", "daddr", argv[1],
			"dport", (int)port, "rate", (json_int_t)rate);
	if (req && argc > 4)
		json_object_set_new(req, "burst", json_integer((json_int_t)burst));
	if (req && argc > 5)
		json_object_set_new(req, "max_pkt", json_integer((json_int_t)max_pkt));
	return req;
}

/* Held until killed, or until the switch tears it down: events printed. */
static int hold(int fd)
{
	const char *ev;
	json_t *j;

	if (rtcd_sock_timeout(fd, 0)) {
		fprintf(stderr, "rtcd: SO_RCVTIMEO: %s\n", strerror(errno));
		return 1;
	}
	while ((j = rtcd_sock_recv(fd, 0))) {
		ev = json_string_value(json_object_get(j, "event"));
		print(j, false);
		if (ev && !strcmp(ev, "teardown")) {
			ok_or_say(j);
			json_decref(j);
			return 1;
		}
		json_decref(j);
	}
	say_recv_error();
	return 1;
}

int cli_main(const char *sock_path, int argc, char **argv)
{
	bool pretty = false, hold_it = false, status = false;
	json_t *req, *j;
	char *ro = NULL;
	int fd, ret;

	if (!strcmp(argv[0], "status")) {
		req = status_req(argc, argv, &pretty);
		status = true;
	} else if (!strcmp(argv[0], "open")) {
		req = open_req(argc, argv);
		hold_it = true;
	} else {
		fprintf(stderr, "rtcd: unknown command '%s' (status or open)\n", argv[0]);
		req = NULL;
	}
	if (!req) {
		fputs(cli_usage, stderr);
		return 2;
	}
	fd = rtcd_sock_connect(sock_path, RTCD_SOCK_TIMEOUT_S);
	/* Not in the socket's group: anyone may ask the status socket. */
	if (fd < 0 && errno == EACCES && status) {
		ro = sibling_path(sock_path, ".ro.sock");
		if (ro) {
			fd = rtcd_sock_connect(ro, RTCD_SOCK_TIMEOUT_S);
			if (fd < 0)
				sock_path = ro;
		}
	}
	if (fd < 0) {
		fprintf(stderr, "rtcd: cannot reach rtcd at %s: %s%s\n", sock_path, strerror(errno),
			errno == ENOENT || errno == ECONNREFUSED ? " (is it running?)" :
			errno == EACCES ? " (not in its socket-group)" : "");
		json_decref(req);
		free(ro);
		return 1;
	}
	ret = rtcd_sock_send(fd, req);
	json_decref(req);
	if (ret) {
		fprintf(stderr, "rtcd: sending to rtcd: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	j = answer(fd, pretty);
	ret = 1;
	if (j) {
		print(j, pretty);
		ret = ok_or_say(j);
		json_decref(j);
		if (!ret && hold_it)
			ret = hold(fd);
	}
	close(fd);
	free(ro);
	return ret;
}
