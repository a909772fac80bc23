// SPDX-License-Identifier: GPL-2.0
/*
 * sigclient: speaks the signaling protocol (linux/ethereal_sig.h) to a
 * switch from an ordinary UDP socket, for tests: what rtcd will do, one
 * message at a time, with the answers and their timing printed.
 *
 *   sigclient [-c CTL_IP] [-p PORT] [-t MS] [-k COOKIE] [-m TIME] [-j] COMMAND ...
 *
 *   setup ID DADDR DPORT RATE BURST MAXPKT
 *       "accept id=03:09 lifetime_ms=N hops=N [features=N] [burst=N]
 *       [delay_ns=N] setup_us=N cookie=0x..",
 *       exit 0
 *       "reject id=03:09 reason=NAME hop=N setup_us=N cookie=0x..", exit 1
 *       "timeout id=03:09", exit 2
 *   teardown ID                       (reason requested) "teardown id=03:09"
 *   refresh ID [INTERVAL_MS COUNT]    "refresh id=03:09 sent=COUNT"; with -w MS
 *       also the switch's acks (REFRESH with F_REVERSE, that ID and cookie)
 *       that arrived until MS after the last: "acks=N lifetime_ms=L" (the
 *       last ack's lifetime, when there was one)
 *   batch N FIRST_ID DADDR DPORT RATE BURST MAXPKT
 *       N setups of consecutive IDs, each after the previous one's answer,
 *       then teardowns of those not rejected: "batch n=N accepted=A
 *       rejected=R timeouts=T setup_us_mean=M setup_us_max=X
 *       setups_per_s=S" (times of the accepted ones; S: accepted over the
 *       setup phase), after a line of setup's for each one not accepted;
 *       exit 0 only if all were accepted
 *   flood N FIRST_ID DADDR DPORT RATE BURST MAXPKT
 *       N setups of consecutive IDs at once, a millisecond apart, without
 *       waiting for answers (a host holding as many setups as it can), then
 *       the answers until the timeout: "flood n=N accepted=A timeouts=T
 *       reject_REASON=K ..." (each reason seen); then teardowns
 *   listen MS
 *       "type=teardown id=03:09 reason=link-down ... flags=reverse cookie=0x..
 *       from=IP:PORT" per message (attributes if present, flags if set);
 *       "type=malformed error=NAME bytes=N from=IP:PORT" per datagram that
 *       does not parse; exit 0 if a message arrived, else 2
 *   raw HEX                           any bytes as the payload: "raw bytes=N"
 *
 * Answers are matched on type, conn_id and cookie; everything else that
 * arrives meanwhile is ignored. The cookie is random unless -k sets it: the
 * protocol carries a setup's cookie in every later message about the
 * connection, so a teardown or refresh in another run passes -k with the
 * cookie its setup printed. -j prints each line as one JSON object
 * instead, the leading word as "event". Exit 2 on bad arguments, 3 when
 * the socket fails.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "ids.h"
#include "sigmsg.h"
#include "signames.h"
#include "units.h"

#define DEFAULT_CTL_IP	"198.18.0.1"
#define EXIT_USAGE	2
#define EXIT_SYS	3
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct {
	int fd;
	struct sockaddr_in ctl;
	int timeout_ms;
	int wait_ms;		/* -w: listen this long after a setup */
	bool json;
	bool has_cookie;
	u32 cookie;
	uint64_t max_delay;	/* -m: a setup's A_MAX_DELAY, ns */
} cl = { .timeout_ms = 2000 };

static void usage(void)
{
	fprintf(stderr,
		"usage: sigclient [-c CTL_IP] [-s SRC_IP] [-p PORT] [-t MS] [-w MS] [-k COOKIE]\n"
		"                 [-m TIME] [-j]\n"
		"                 COMMAND ...\n"
		"  setup ID DADDR DPORT RATE BURST MAXPKT\n"
		"  teardown ID\n"
		"  refresh ID [INTERVAL_MS COUNT]\n"
		"  batch N FIRST_ID DADDR DPORT RATE BURST MAXPKT\n"
		"  flood N FIRST_ID DADDR DPORT RATE BURST MAXPKT\n"
		"  listen MS\n"
		"  raw HEX\n"
		"CTL_IP defaults to " DEFAULT_CTL_IP ", PORT (local) to %d, -t MS to 2000;\n"
		"-w MS: after a setup, print what else arrives within MS; after refreshes,\n"
		"count the acks that arrive until MS after the last;\n"
		"-s SRC_IP: send from this local address;\n"
		"-m TIME: setups carry it as their maximum delay (like 20ms).\n"
		"ID as 03:09 or a number, RATE as 5mbit or bit/s, BURST and MAXPKT in bytes.\n",
		ETHEREAL_SIG_PORT);
	exit(EXIT_USAGE);
}

static void bad(const char *what, const char *arg)
{
	fprintf(stderr, "sigclient: bad %s '%s'\n", what, arg);
	usage();
}

static void die(const char *what)
{
	fprintf(stderr, "sigclient: %s: %s\n", what, strerror(errno));
	exit(EXIT_SYS);
}

/* Unsigned decimal (or 0x hex) no larger than MAX; exits on anything else. */
static uint64_t parse_num(const char *s, uint64_t max, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		bad(what, s);
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		bad(what, s);
	return v;
}

static u16 parse_id(const char *s)
{
	uint16_t id;

	/* Reserved IDs are sent all the same: the switch's refusal is tested. */
	if (parse_conn_id(s, &id))
		bad("connection ID", s);
	return id;
}

/* One output line: "word key=value ..." or a JSON object. */
static struct {
	json_t *obj;
	bool first;		/* no key printed yet, nor a word */
} out;

static void out_begin(const char *event)
{
	out.first = !event;
	if (cl.json) {
		out.obj = json_object();
		if (event)
			json_object_set_new(out.obj, "event", json_string(event));
	} else if (event) {
		fputs(event, stdout);
	}
}

static const char *out_sep(void)
{
	const char *sep = out.first ? "" : " ";

	out.first = false;
	return sep;
}

static void out_str(const char *key, const char *v)
{
	if (cl.json)
		json_object_set_new(out.obj, key, json_string(v));
	else
		printf("%s%s=%s", out_sep(), key, v);
}

static void out_uint(const char *key, uint64_t v)
{
	if (cl.json)
		json_object_set_new(out.obj, key, json_integer((json_int_t)v));
	else
		printf("%s%s=%llu", out_sep(), key, (unsigned long long)v);
}

static void out_real(const char *key, double v)
{
	if (cl.json)
		json_object_set_new(out.obj, key, json_real(v));
	else
		printf("%s%s=%.1f", out_sep(), key, v);
}

static void out_id(u16 id)
{
	char s[8];

	format_conn_id(id, s, sizeof(s));
	out_str("id", s);
}

static void out_cookie(u32 cookie)
{
	char s[16];

	if (cl.json) {
		out_uint("cookie", cookie);
	} else {
		snprintf(s, sizeof(s), "0x%08x", cookie);
		out_str("cookie", s);
	}
}

static void out_end(void)
{
	if (cl.json) {
		/* Enough digits for a rate, not the float's noise. */
		json_dumpf(out.obj, stdout, JSON_COMPACT | JSON_REAL_PRECISION(9));
		json_decref(out.obj);
	}
	putchar('\n');
	/* Tests read the lines while we still run (listen). */
	fflush(stdout);
}

static u32 new_cookie(void)
{
	u32 c;

	if (cl.has_cookie)
		return cl.cookie;
	if (getrandom(&c, sizeof(c), 0) != sizeof(c))
		die("getrandom");
	return c;
}

static void send_msg(const struct ethereal_sig_msg *m)
{
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	size_t len = ethereal_sig_build(buf, sizeof(buf), m);

	if (!len) {
		fprintf(stderr, "sigclient: message does not fit\n");
		exit(EXIT_SYS);
	}
	if (sendto(cl.fd, buf, len, 0, (struct sockaddr *)&cl.ctl,
		   sizeof(cl.ctl)) < 0)
		die("sendto");
}

/*
 * The next datagram before DEADLINE (CLOCK_MONOTONIC ns): its parse result,
 * or -1 at the deadline. *AT: when it arrived.
 */
static int recv_msg(uint64_t deadline, struct ethereal_sig_msg *m,
		    struct sockaddr_in *from, size_t *len, uint64_t *at)
{
	/* Larger than any message; MSG_TRUNC tells a longer one's length. */
	u8 buf[ETHEREAL_SIG_MAX_LEN + 1];

	for (;;) {
		struct pollfd p = { .fd = cl.fd, .events = POLLIN };
		socklen_t flen = sizeof(*from);
		uint64_t now = now_ns();
		struct timespec ts;
		ssize_t n;
		int r;

		if (now >= deadline)
			return -1;
		ts.tv_sec = (time_t)((deadline - now) / 1000000000ULL);
		ts.tv_nsec = (long)((deadline - now) % 1000000000ULL);
		r = ppoll(&p, 1, &ts, NULL);
		if (r < 0 && errno != EINTR)
			die("poll");
		if (r <= 0)
			continue;
		n = recvfrom(cl.fd, buf, sizeof(buf), MSG_TRUNC,
			     (struct sockaddr *)from, &flen);
		*at = now_ns();
		if (n < 0) {
			/* An ICMP error of an earlier send: not an answer. */
			if (errno == ECONNREFUSED || errno == EINTR)
				continue;
			die("recvfrom");
		}
		*len = (size_t)n;
		/* Cut, a long one is still too long for the parser. */
		return ethereal_sig_parse(buf, *len < sizeof(buf) ? *len : sizeof(buf), m);
	}
}

/* Setup of M: ACCEPT or REJECT into *ANS, or 0 at the timeout. */
static int setup_one(const struct ethereal_sig_msg *m,
		     struct ethereal_sig_msg *ans, uint64_t *us)
{
	struct sockaddr_in from;
	uint64_t t0, at;
	size_t len;

	t0 = now_ns();
	send_msg(m);
	for (;;) {
		int err = recv_msg(t0 + (uint64_t)cl.timeout_ms * 1000000ULL,
				   ans, &from, &len, &at);

		if (err < 0)
			return 0;
		if (err != ETHEREAL_SIG_OK || ans->conn_id != m->conn_id ||
		    ans->cookie != m->cookie)
			continue;
		if (ans->type == ETHEREAL_SIG_ACCEPT || ans->type == ETHEREAL_SIG_REJECT) {
			*us = (at - t0) / 1000;
			return ans->type;
		}
	}
}

/* SETUP of ID from the command line's DADDR DPORT RATE BURST MAXPKT. */
static void setup_args(struct ethereal_sig_msg *m, u16 id, char **argv)
{
	struct in_addr a;
	uint64_t v;

	memset(m, 0, sizeof(*m));
	m->type = ETHEREAL_SIG_SETUP;
	m->conn_id = id;
	m->present = ETHEREAL_SIG_SETUP_NEEDS;
	if (inet_pton(AF_INET, argv[0], &a) != 1)
		bad("receiver address", argv[0]);
	m->daddr = a.s_addr;
	m->dport = (u16)parse_num(argv[1], 0xffff, "receiver port");
	/* Zero and nonsense are allowed: they are what the switch must refuse. */
	if (parse_rate(argv[2], &m->rate))
		bad("rate", argv[2]);
	if (parse_size(argv[3], &v) || v > UINT32_MAX)
		bad("burst", argv[3]);
	m->burst = (u32)v;
	if (parse_size(argv[4], &v) || v > UINT32_MAX)
		bad("largest frame", argv[4]);
	m->max_pkt = (u32)v;
	if (cl.max_delay) {
		m->max_delay = cl.max_delay;
		m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_MAX_DELAY);
	}
}

static void print_answer(int type, const struct ethereal_sig_msg *ans,
			 u16 id, uint64_t us)
{
	if (type == ETHEREAL_SIG_ACCEPT) {
		out_begin("accept");
		out_id(id);
		if (ans->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME))
			out_uint("lifetime_ms", ans->lifetime);
		if (ans->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS))
			out_uint("hops", ans->hops);
		if (ans->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_FEATURES))
			out_uint("features", ans->features);
		if (ans->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_BURST))
			out_uint("burst", ans->burst);
		if (ans->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY))
			out_uint("delay_ns", ans->delay);
		out_uint("setup_us", us);
		out_cookie(ans->cookie);
	} else if (type == ETHEREAL_SIG_REJECT) {
		out_begin("reject");
		out_id(id);
		out_str("reason", ethereal_sig_reason_name(ans->reason));
		if (ans->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP))
			out_uint("hop", ans->hop);
		out_uint("setup_us", us);
		out_cookie(ans->cookie);
	} else {
		out_begin("timeout");
		out_id(id);
	}
	out_end();
}

static unsigned int listen_for(uint64_t ms);

static int cmd_setup(int argc, char **argv)
{
	struct ethereal_sig_msg m, ans;
	uint64_t us = 0;
	int type;

	if (argc != 6)
		usage();
	setup_args(&m, parse_id(argv[0]), argv + 1);
	m.cookie = new_cookie();
	type = setup_one(&m, &ans, &us);
	print_answer(type, &ans, m.conn_id, us);
	if (cl.wait_ms)
		listen_for(cl.wait_ms);
	return type == ETHEREAL_SIG_ACCEPT ? 0 : type == ETHEREAL_SIG_REJECT ? 1 : 2;
}

static void send_teardown(u16 id, u32 cookie)
{
	struct ethereal_sig_msg m = {
		.type = ETHEREAL_SIG_TEARDOWN, .conn_id = id, .cookie = cookie,
		.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON),
		.reason = ETHEREAL_SIG_R_REQUESTED,
	};

	send_msg(&m);
}

static int cmd_teardown(int argc, char **argv)
{
	u16 id;

	if (argc != 1)
		usage();
	id = parse_id(argv[0]);
	send_teardown(id, new_cookie());
	out_begin("teardown");
	out_id(id);
	out_end();
	return 0;
}

/*
 * Until DEADLINE: the acks of refresh M (REFRESH with F_REVERSE, same ID
 * and cookie), counted in *ACKS, the last one's lifetime in *LIFETIME.
 */
static void refresh_acks(const struct ethereal_sig_msg *m, uint64_t deadline,
			 unsigned int *acks, u32 *lifetime)
{
	struct ethereal_sig_msg a;
	struct sockaddr_in from;
	uint64_t at;
	size_t len;
	int err;

	while ((err = recv_msg(deadline, &a, &from, &len, &at)) >= 0) {
		if (err != ETHEREAL_SIG_OK || a.type != ETHEREAL_SIG_REFRESH ||
		    !(a.flags & ETHEREAL_SIG_F_REVERSE) || a.conn_id != m->conn_id ||
		    a.cookie != m->cookie)
			continue;
		(*acks)++;
		if (a.present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME))
			*lifetime = a.lifetime;
	}
}

static int cmd_refresh(int argc, char **argv)
{
	struct ethereal_sig_msg m = { .type = ETHEREAL_SIG_REFRESH };
	uint64_t interval = 0, count = 1, i, start;
	unsigned int acks = 0;
	u32 lifetime = 0;

	if (argc != 1 && argc != 3)
		usage();
	m.conn_id = parse_id(argv[0]);
	m.cookie = new_cookie();
	if (argc == 3) {
		interval = parse_num(argv[1], 86400000, "interval") * 1000000ULL;
		count = parse_num(argv[2], UINT32_MAX, "count");
	}
	start = now_ns();
	for (i = 0; i < count; i++) {
		/* Absolute deadlines: the interval does not drift with sends. */
		if (i && cl.wait_ms)
			refresh_acks(&m, start + i * interval, &acks, &lifetime);
		else if (i)
			sleep_until(start + i * interval);
		send_msg(&m);
	}
	if (cl.wait_ms)
		refresh_acks(&m, now_ns() + (uint64_t)cl.wait_ms * 1000000ULL, &acks, &lifetime);
	out_begin("refresh");
	out_id(m.conn_id);
	out_uint("sent", count);
	if (cl.wait_ms) {
		out_uint("acks", acks);
		if (acks)
			out_uint("lifetime_ms", lifetime);
	}
	out_end();
	return 0;
}

/*
 * N FIRST_ID DADDR DPORT RATE BURST MAXPKT of batch and flood: the count,
 * the first ID, the setup in *M and room for a cookie each.
 */
static unsigned int many_args(int argc, char **argv, struct ethereal_sig_msg *m,
			      u16 *first, u32 **cookies)
{
	unsigned int n;

	if (argc != 7)
		usage();
	n = (unsigned int)parse_num(argv[0], 0xffff, "count");
	*first = parse_id(argv[1]);
	if (!n || *first + n - 1 > 0xffff)
		bad("count (IDs past ff:ff)", argv[0]);
	setup_args(m, *first, argv + 2);
	*cookies = calloc(n, sizeof(**cookies));
	if (!*cookies)
		die("calloc");
	return n;
}

/* The Ith setup of many, a millisecond after the one before, in *M. */
static void nth_setup(struct ethereal_sig_msg *m, u16 first, unsigned int i, u32 *cookies,
		      uint64_t start)
{
	sleep_until(start + i * 1000000ULL);
	m->conn_id = (u16)(first + i);
	cookies[i] = new_cookie();
	m->cookie = cookies[i];
}

static int cmd_flood(int argc, char **argv)
{
	unsigned int n, i, accepted = 0, answered = 0, reasons[ETHEREAL_SIG_R_MAX + 1] = { 0 };
	struct ethereal_sig_msg m, ans;
	struct sockaddr_in from;
	uint64_t start, at;
	unsigned char *got;
	size_t len;
	u32 *cookies;
	u16 first;

	n = many_args(argc, argv, &m, &first, &cookies);
	got = calloc(n, 1);
	if (!got)
		die("calloc");
	start = now_ns();
	for (i = 0; i < n; i++) {
		nth_setup(&m, first, i, cookies, start);
		send_msg(&m);
	}
	while (answered < n &&
	       recv_msg(start + (uint64_t)cl.timeout_ms * 1000000ULL, &ans, &from, &len, &at) >= 0) {
		i = (u16)(ans.conn_id - first);
		if (i >= n || got[i] || ans.cookie != cookies[i] ||
		    (ans.type != ETHEREAL_SIG_ACCEPT && ans.type != ETHEREAL_SIG_REJECT))
			continue;
		got[i] = ans.type == ETHEREAL_SIG_ACCEPT ? 1 : 2;
		answered++;
		if (ans.type == ETHEREAL_SIG_ACCEPT)
			accepted++;
		else if (ans.reason <= ETHEREAL_SIG_R_MAX)
			reasons[ans.reason]++;
	}
	/* The accepted, and those unanswered that may be set up after all. */
	for (i = 0; i < n; i++)
		if (got[i] != 2)
			send_teardown((u16)(first + i), cookies[i]);
	out_begin("flood");
	out_uint("n", n);
	out_uint("accepted", accepted);
	out_uint("timeouts", n - answered);
	for (i = 0; i <= ETHEREAL_SIG_R_MAX; i++)
		if (reasons[i]) {
			char key[48];

			snprintf(key, sizeof(key), "reject_%s", ethereal_sig_reason_name((u16)i));
			out_uint(key, reasons[i]);
		}
	out_end();
	free(cookies);
	free(got);
	return 0;
}

static int cmd_batch(int argc, char **argv)
{
	unsigned int n, i, accepted = 0, rejected = 0, timeouts = 0;
	uint64_t us, sum = 0, max = 0, start, elapsed, gap;
	struct ethereal_sig_msg m, ans;
	u16 first;
	u32 *cookies;
	int *types;

	n = many_args(argc, argv, &m, &first, &cookies);
	types = calloc(n, sizeof(*types));
	if (!types)
		die("calloc");

	/* At most a setup a millisecond: half what a switch port takes. */
	start = now_ns();
	for (i = 0; i < n; i++) {
		nth_setup(&m, first, i, cookies, start);
		types[i] = setup_one(&m, &ans, &us);
		if (types[i] == ETHEREAL_SIG_ACCEPT) {
			accepted++;
			sum += us;
			if (us > max)
				max = us;
		} else if (types[i] == ETHEREAL_SIG_REJECT) {
			rejected++;
			/* A batch is meant to succeed: say what went wrong. */
			print_answer(types[i], &ans, m.conn_id, us);
		} else {
			timeouts++;
			print_answer(types[i], &ans, m.conn_id, us);
		}
	}
	elapsed = now_ns() - start;

	/*
	 * Teardowns no faster than the setups went, which the switch's rate
	 * limit let through; a timed-out setup may have succeeded after all.
	 */
	gap = elapsed / n > 1000000 ? elapsed / n : 1000000;
	start = now_ns();
	for (i = 0; i < n; i++) {
		if (types[i] == ETHEREAL_SIG_REJECT)
			continue;
		sleep_until(start + i * gap);
		send_teardown((u16)(first + i), cookies[i]);
	}

	out_begin("batch");
	out_uint("n", n);
	out_uint("accepted", accepted);
	out_uint("rejected", rejected);
	out_uint("timeouts", timeouts);
	out_real("setup_us_mean", accepted ? (double)sum / accepted : 0);
	out_uint("setup_us_max", max);
	out_real("setups_per_s", elapsed ? accepted * 1e9 / (double)elapsed : 0);
	out_end();
	free(cookies);
	free(types);
	return accepted == n ? 0 : 1;
}

static const char *const err_names[] = {
	[ETHEREAL_SIG_OK] = "ok",
	[ETHEREAL_SIG_E_SHORT] = "short",
	[ETHEREAL_SIG_E_LONG] = "long",
	[ETHEREAL_SIG_E_VERSION] = "version",
	[ETHEREAL_SIG_E_TYPE] = "type",
	[ETHEREAL_SIG_E_ATTR] = "attribute",
	[ETHEREAL_SIG_E_MISSING] = "missing",
};

static void out_from(const struct sockaddr_in *from)
{
	char a[INET_ADDRSTRLEN], s[INET_ADDRSTRLEN + 8];

	inet_ntop(AF_INET, &from->sin_addr, a, sizeof(a));
	snprintf(s, sizeof(s), "%s:%u", a, ntohs(from->sin_port));
	out_str("from", s);
}

/* "reverse", and any bits this version does not know in hex after it. */
static void out_flags(u16 flags)
{
	u16 rest = flags & ~ETHEREAL_SIG_F_REVERSE;
	char s[32];
	int n = 0;

	if (!flags)
		return;
	if (flags & ETHEREAL_SIG_F_REVERSE)
		n = snprintf(s, sizeof(s), "reverse%s", rest ? "," : "");
	if (rest)
		snprintf(s + n, sizeof(s) - (size_t)n, "0x%04x", rest);
	out_str("flags", s);
}

static void print_msg(const struct ethereal_sig_msg *m)
{
	char s[INET_ADDRSTRLEN];

#define HAS(a) (m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_##a))
	out_str("type", ethereal_sig_type_name(m->type));
	out_id(m->conn_id);
	if (HAS(DADDR)) {
		inet_ntop(AF_INET, &m->daddr, s, sizeof(s));
		out_str("daddr", s);
	}
	if (HAS(DPORT))
		out_uint("dport", m->dport);
	if (HAS(RATE))
		out_uint("rate", m->rate);
	if (HAS(BURST))
		out_uint("burst", m->burst);
	if (HAS(MAX_PKT))
		out_uint("max_pkt", m->max_pkt);
	if (HAS(REASON))
		out_str("reason", ethereal_sig_reason_name(m->reason));
	if (HAS(HOP))
		out_uint("hop", m->hop);
	if (HAS(LIFETIME))
		out_uint("lifetime_ms", m->lifetime);
	if (HAS(HOPS))
		out_uint("hops", m->hops);
	if (HAS(FEATURES))
		out_uint("features", m->features);
	if (HAS(DELAY))
		out_uint("delay_ns", m->delay);
	if (HAS(MAX_DELAY))
		out_uint("max_delay_ns", m->max_delay);
#undef HAS
	out_flags(m->flags);
	out_cookie(m->cookie);
}

/* Print every message arriving within MS; how many were valid. */
static unsigned int listen_for(uint64_t ms)
{
	uint64_t deadline = now_ns() + ms * 1000000ULL, at;
	struct ethereal_sig_msg m;
	struct sockaddr_in from;
	unsigned int got = 0;
	size_t len;
	int err;

	while ((err = recv_msg(deadline, &m, &from, &len, &at)) >= 0) {
		out_begin(NULL);
		if (err == ETHEREAL_SIG_OK) {
			got++;
			print_msg(&m);
		} else {
			out_str("type", "malformed");
			out_str("error", err_names[err]);
			out_uint("bytes", len);
		}
		out_from(&from);
		out_end();
	}
	return got;
}

static int cmd_listen(int argc, char **argv)
{
	if (argc != 1)
		usage();
	return listen_for(parse_num(argv[0], 86400000, "time")) ? 0 : 2;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int cmd_raw(int argc, char **argv)
{
	/* The largest UDP payload over IPv4. */
	static u8 buf[65507];
	const char *p;
	size_t len = 0;
	int hi = -1, v;

	if (argc != 1)
		usage();
	for (p = argv[0]; *p; p++) {
		/* Separators for readability: "01 01 00 0c", "01:01:00:0c". */
		if (*p == ' ' || *p == ':')
			continue;
		v = hexval(*p);
		if (v < 0 || (hi < 0 && len == sizeof(buf)))
			bad("hex", argv[0]);
		if (hi < 0) {
			hi = v;
		} else {
			buf[len++] = (u8)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0)
		bad("hex (odd number of digits)", argv[0]);
	if (sendto(cl.fd, buf, len, 0, (struct sockaddr *)&cl.ctl,
		   sizeof(cl.ctl)) < 0)
		die("sendto");
	out_begin("raw");
	out_uint("bytes", len);
	out_end();
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "setup", cmd_setup },
	{ "teardown", cmd_teardown },
	{ "refresh", cmd_refresh },
	{ "batch", cmd_batch },
	{ "flood", cmd_flood },
	{ "listen", cmd_listen },
	{ "raw", cmd_raw },
};

int main(int argc, char **argv)
{
	struct sockaddr_in local = { .sin_family = AF_INET,
				     .sin_port = htons(ETHEREAL_SIG_PORT) };
	const char *ctl_ip = DEFAULT_CTL_IP;
	unsigned int i;
	int opt;

	/* "+": options end at the command, whose arguments are its own. */
	while ((opt = getopt(argc, argv, "+c:s:p:t:w:k:m:jh")) != -1) {
		switch (opt) {
		case 'm':
			if (parse_time(optarg, &cl.max_delay) || !cl.max_delay)
				bad("maximum delay", optarg);
			break;
		case 's':
			if (inet_pton(AF_INET, optarg, &local.sin_addr) != 1)
				bad("source address", optarg);
			break;
		case 'w':
			cl.wait_ms = (int)parse_num(optarg, 86400000, "wait");
			break;
		case 'c':
			ctl_ip = optarg;
			break;
		case 'p':
			local.sin_port = htons((u16)parse_num(optarg, 0xffff, "port"));
			break;
		case 't':
			cl.timeout_ms = (int)parse_num(optarg, 86400000, "timeout");
			break;
		case 'k':
			cl.cookie = (u32)parse_num(optarg, UINT32_MAX, "cookie");
			cl.has_cookie = true;
			break;
		case 'j':
			cl.json = true;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	cl.ctl.sin_family = AF_INET;
	cl.ctl.sin_port = htons(ETHEREAL_SIG_PORT);
	if (inet_pton(AF_INET, ctl_ip, &cl.ctl.sin_addr) != 1)
		bad("control address", ctl_ip);

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[optind], cmds[i].name))
			break;
	if (i == ARRAY_SIZE(cmds)) {
		fprintf(stderr, "sigclient: unknown command '%s'\n", argv[optind]);
		usage();
	}

	cl.fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (cl.fd < 0)
		die("socket");
	/* Beside another sigclient on the port, e.g. a listen in the background. */
	setsockopt(cl.fd, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	/* Unsolicited messages (teardowns) come to this port: bind it. */
	if (bind(cl.fd, (struct sockaddr *)&local, sizeof(local)))
		die("bind");
	return cmds[i].fn(argc - optind - 1, argv + optind + 1);
}
