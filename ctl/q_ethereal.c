// SPDX-License-Identifier: GPL-2.0
/*
 * q_ethereal.so: tc's plugin for the qdisc "ethereal" of ethereal.ko.
 * Built against the source of the installed iproute2; tc dlopens it from
 * $TC_LIB_DIR or its library directory and lends it its helpers.
 *
 * Rates follow tc's conventions: given as tc(8) rates, carried in bytes/s
 * by tc's helpers and JSON, in bit/s on the wire to the kernel.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"

#include <linux/ethereal.h>

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ethereal [ rate RATE ] [ cycle TIME ] [ rt-limit PERCENT ]\n"
		"                    [ mode { paced | cyclic } ] [ be-limit SIZE ]\n"
		"                    [ discard-window { TIME | off } ]\n"
		"                    [ rt-buffer SIZE ] [ max-conns N ]\n"
		"                    [ delay { TIME | auto } ] [ link-burst TIME ]\n"
		"  rate            the link rate (default: the device's speed)\n"
		"  cycle           the cyclic scheduler's cycle, 100us to 1s (default 10ms)\n"
		"  rt-limit        share of the rate real time may reserve (default 60%%)\n"
		"  mode            paced (default) or cyclic, the paper's scheduler\n"
		"  be-limit        best-effort queue (default 2 x rate x cycle)\n"
		"  discard-window  preemptive discard window on a peripheral port\n"
		"                  (default 50ms; off to disable)\n"
		"  rt-buffer       connection queues' pool (default 1s of the rate)\n"
		"  max-conns       connections the port may carry (default 4096)\n"
		"  delay           the delay budget: the most a real-time frame waits for\n"
		"                  others here, promised to every connection (default auto:\n"
		"                  what rt-buffer and rt-limit imply)\n"
		"  link-burst      how far the link may fall behind and catch up: what\n"
		"                  leaves back to back after idle, 0 to 1s (default 1ms)\n");
}

static int bad(const char *what, const char *arg, const char *why)
{
	fprintf(stderr, "ethereal: %s \"%s\": %s\n", what, arg, why);
	return -1;
}

static int ethereal_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			      struct nlmsghdr *n, const char *dev)
{
	__u64 rate = 0, window = 0, delay = 0, link_burst = 0;
	__s64 cycle = 0, t;
	unsigned int rt_limit = 0, be_limit = 0, rt_buffer = 0, max_conns = 0;
	int have_rate = 0, have_cycle = 0, have_limit = 0, have_be = 0;
	int have_window = 0, have_delay = 0, have_link_burst = 0, mode = -1;
	struct rtattr *tail;

	for (; argc > 0; argc--, argv++) {
		if (strcmp(*argv, "rate") == 0) {
			NEXT_ARG();
			if (strchr(*argv, '%')) {
				if (get_percent_rate64(&rate, *argv, dev))
					return bad("rate", *argv,
						   "not a percentage of the device's speed");
			} else if (get_rate64(&rate, *argv)) {
				return bad("rate", *argv, "not a rate (like 100mbit)");
			}
			if (rate < ETHEREAL_RATE_MIN / 8 || rate > ETHEREAL_RATE_MAX / 8)
				return bad("rate", *argv, "must be from 1kbit to 10Tbit");
			have_rate = 1;
		} else if (strcmp(*argv, "cycle") == 0) {
			NEXT_ARG();
			if (get_time64(&cycle, *argv))
				return bad("cycle", *argv, "not a time (like 10ms)");
			if (cycle < (__s64)ETHEREAL_CYCLE_MIN_NS || cycle > (__s64)ETHEREAL_CYCLE_MAX_NS)
				return bad("cycle", *argv, "must be from 100us to 1s");
			have_cycle = 1;
		} else if (strcmp(*argv, "rt-limit") == 0) {
			char *end;
			unsigned long v;

			NEXT_ARG();
			v = strtoul(*argv, &end, 10);
			if (end == *argv || (*end && strcmp(end, "%")) || v > 100)
				return bad("rt-limit", *argv, "must be a percentage, 0 to 100");
			rt_limit = v;
			have_limit = 1;
		} else if (strcmp(*argv, "mode") == 0) {
			NEXT_ARG();
			if (strcmp(*argv, "paced") == 0)
				mode = ETHEREAL_MODE_PACED;
			else if (strcmp(*argv, "cyclic") == 0)
				mode = ETHEREAL_MODE_CYCLIC;
			else
				return bad("mode", *argv, "must be paced or cyclic");
		} else if (strcmp(*argv, "be-limit") == 0) {
			NEXT_ARG();
			if (get_size(&be_limit, *argv))
				return bad("be-limit", *argv, "not a size (like 250kb)");
			if (be_limit < 1514)
				return bad("be-limit", *argv, "must hold a full frame (1514 bytes)");
			have_be = 1;
		} else if (strcmp(*argv, "discard-window") == 0) {
			NEXT_ARG();
			if (strcmp(*argv, "off") == 0) {
				window = 0;
			} else if (get_time64(&t, *argv) || t <= 0) {
				return bad("discard-window", *argv, "not a time (like 50ms), or off");
			} else if ((__u64)t > ETHEREAL_DISCARD_MAX_NS) {
				return bad("discard-window", *argv, "must be at most 10s");
			} else {
				window = t;
			}
			have_window = 1;
		} else if (strcmp(*argv, "rt-buffer") == 0) {
			NEXT_ARG();
			if (get_size(&rt_buffer, *argv))
				return bad("rt-buffer", *argv, "not a size (like 1mb)");
			if (rt_buffer < 1514)
				return bad("rt-buffer", *argv, "must hold a full frame (1514 bytes)");
		} else if (strcmp(*argv, "max-conns") == 0) {
			NEXT_ARG();
			if (get_unsigned(&max_conns, *argv, 0) || !max_conns ||
			    max_conns > ETHEREAL_MAX_CONNS_MAX)
				return bad("max-conns", *argv, "must be a number from 1 to 65524");
		} else if (strcmp(*argv, "delay") == 0) {
			NEXT_ARG();
			if (strcmp(*argv, "auto") == 0) {
				delay = 0;
			} else if (get_time64(&t, *argv) || t <= 0) {
				return bad("delay", *argv, "not a time (like 5ms), or auto");
			} else if ((__u64)t > ETHEREAL_DELAY_MAX_NS) {
				return bad("delay", *argv, "must be at most 60s");
			} else {
				delay = t;
			}
			have_delay = 1;
		} else if (strcmp(*argv, "link-burst") == 0) {
			NEXT_ARG();
			if (get_time64(&t, *argv) || t < 0)
				return bad("link-burst", *argv, "not a time (like 1ms)");
			if ((__u64)t > ETHEREAL_LINK_BURST_MAX_NS)
				return bad("link-burst", *argv, "must be at most 1s");
			link_burst = t;
			have_link_burst = 1;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "ethereal: unknown option \"%s\"\n", *argv);
			explain();
			return -1;
		}
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (have_rate)
		addattr64(n, 1024, TCA_ETHEREAL_RATE, rate * 8);
	if (have_cycle)
		addattr64(n, 1024, TCA_ETHEREAL_CYCLE, cycle);
	if (have_limit)
		addattr32(n, 1024, TCA_ETHEREAL_RT_LIMIT, rt_limit);
	if (mode >= 0)
		addattr8(n, 1024, TCA_ETHEREAL_MODE, mode);
	if (have_be)
		addattr32(n, 1024, TCA_ETHEREAL_BE_LIMIT, be_limit);
	if (have_window)
		addattr64(n, 1024, TCA_ETHEREAL_DISCARD_WINDOW, window);
	if (rt_buffer)
		addattr32(n, 1024, TCA_ETHEREAL_RT_BUFFER, rt_buffer);
	if (max_conns)
		addattr32(n, 1024, TCA_ETHEREAL_MAX_CONNS, max_conns);
	if (have_delay)
		addattr64(n, 1024, TCA_ETHEREAL_DELAY, delay);
	if (have_link_burst)
		addattr64(n, 1024, TCA_ETHEREAL_LINK_BURST, link_burst);
	addattr_nest_end(n, tail);
	return 0;
}

/*
 * Each attribute's payload as the module puts it (nla_put_u8/u16/u32, and
 * nla_put_u64_64bit, whose alignment is a PAD attribute of its own), by
 * type; 0: not read. parse_rtattr() checks no length and rta_getattr_*()
 * reads as many bytes as its type, past a short attribute's end: every
 * one is checked against this before any is read.
 */
static const __u8 qopt_len[TCA_ETHEREAL_MAX + 1] = {
	[TCA_ETHEREAL_RATE] = sizeof(__u64),
	[TCA_ETHEREAL_CYCLE] = sizeof(__u64),
	[TCA_ETHEREAL_RT_LIMIT] = sizeof(__u32),
	[TCA_ETHEREAL_MODE] = sizeof(__u8),
	[TCA_ETHEREAL_BE_LIMIT] = sizeof(__u32),
	[TCA_ETHEREAL_DISCARD_WINDOW] = sizeof(__u64),
	[TCA_ETHEREAL_RESERVED] = sizeof(__u64),
	[TCA_ETHEREAL_CONNS] = sizeof(__u32),
	[TCA_ETHEREAL_RT_BUFFER] = sizeof(__u32),
	[TCA_ETHEREAL_MAX_CONNS] = sizeof(__u32),
	[TCA_ETHEREAL_BUFFERED] = sizeof(__u32),
	[TCA_ETHEREAL_DELAY] = sizeof(__u64),
	[TCA_ETHEREAL_DELAY_USED] = sizeof(__u64),
	[TCA_ETHEREAL_DELAY_FLOOR] = sizeof(__u64),
	[TCA_ETHEREAL_LINK_BURST] = sizeof(__u64),
};

static const __u8 copt_len[TCA_ETHEREAL_CLASS_MAX + 1] = {
	[TCA_ETHEREAL_CLASS_RATE] = sizeof(__u64),
	[TCA_ETHEREAL_CLASS_BURST] = sizeof(__u32),
	[TCA_ETHEREAL_CLASS_LIMIT] = sizeof(__u32),
	[TCA_ETHEREAL_CLASS_IN_IFINDEX] = sizeof(__u32),
	[TCA_ETHEREAL_CLASS_IN_ID] = sizeof(__u16),
};

/* OPT's attributes into TB[0..MAX], each of the length LEN says: 0, or -1. */
static int parse_opts(struct rtattr **tb, int max, const __u8 *len, struct rtattr *opt)
{
	int type;

	parse_rtattr_nested(tb, max, opt);
	for (type = 0; type <= max; type++) {
		if (tb[type] && len[type] && RTA_PAYLOAD(tb[type]) != len[type]) {
			fprintf(stderr, "tc: ethereal: malformed attribute %d: %u bytes, expected %u\n",
				type, (unsigned int)RTA_PAYLOAD(tb[type]), len[type]);
			return -1;
		}
	}
	return 0;
}

/* An attribute that parse_opts() checked, or 0 when it is not there. */
static __u64 get_u64_or_0(struct rtattr *a)
{
	return a ? rta_getattr_u64(a) : 0;
}

static __u32 get_u32_or_0(struct rtattr *a)
{
	return a ? rta_getattr_u32(a) : 0;
}

static void print_ns(const char *key, const char *fmt, __u64 ns)
{
	char buf[64];

	print_u64(PRINT_JSON, key, NULL, ns);
	print_string(PRINT_FP, NULL, fmt, sprint_time64(ns, buf));
}

static int ethereal_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_ETHEREAL_MAX + 1];
	__u64 window;
	__u8 mode;

	if (!opt)
		return 0;
	if (parse_opts(tb, TCA_ETHEREAL_MAX, qopt_len, opt))
		return -1;

	tc_print_rate(PRINT_ANY, "rate", "rate %s ", get_u64_or_0(tb[TCA_ETHEREAL_RATE]) / 8);
	print_ns("cycle", "cycle %s ", get_u64_or_0(tb[TCA_ETHEREAL_CYCLE]));
	print_uint(PRINT_ANY, "rt_limit", "rt-limit %u%% ", get_u32_or_0(tb[TCA_ETHEREAL_RT_LIMIT]));
	mode = tb[TCA_ETHEREAL_MODE] ? rta_getattr_u8(tb[TCA_ETHEREAL_MODE]) : 0;
	print_string(PRINT_ANY, "mode", "mode %s ",
		     mode == ETHEREAL_MODE_CYCLIC ? "cyclic" : "paced");
	print_size(PRINT_ANY, "be_limit", "be-limit %s ", get_u32_or_0(tb[TCA_ETHEREAL_BE_LIMIT]));
	window = get_u64_or_0(tb[TCA_ETHEREAL_DISCARD_WINDOW]);
	if (window) {
		print_ns("discard_window", "discard-window %s ", window);
	} else {
		print_u64(PRINT_JSON, "discard_window", NULL, 0);
		print_string(PRINT_FP, NULL, "%s", "discard-window off ");
	}
	/* (an older module has no link burst: its 1 ms, not shown) */
	if (tb[TCA_ETHEREAL_LINK_BURST])
		print_ns("link_burst", "link-burst %s ", get_u64_or_0(tb[TCA_ETHEREAL_LINK_BURST]));
	tc_print_rate(PRINT_ANY, "reserved", "reserved %s ",
		      get_u64_or_0(tb[TCA_ETHEREAL_RESERVED]) / 8);
	print_uint(PRINT_ANY, "conns", "conns %u ", get_u32_or_0(tb[TCA_ETHEREAL_CONNS]));
	print_size(PRINT_ANY, "rt_buffer", "rt-buffer %s ", get_u32_or_0(tb[TCA_ETHEREAL_RT_BUFFER]));
	print_uint(PRINT_ANY, "max_conns", "max-conns %u ", get_u32_or_0(tb[TCA_ETHEREAL_MAX_CONNS]));
	print_size(PRINT_ANY, "buffered", "buffered %s", get_u32_or_0(tb[TCA_ETHEREAL_BUFFERED]));
	if (tb[TCA_ETHEREAL_DELAY]) {
		print_ns("delay", " delay %s", get_u64_or_0(tb[TCA_ETHEREAL_DELAY]));
		print_ns("delay_used", " (used %s", get_u64_or_0(tb[TCA_ETHEREAL_DELAY_USED]));
		if (tb[TCA_ETHEREAL_DELAY_FLOOR])
			print_ns("delay_floor", ", promised %s",
				 get_u64_or_0(tb[TCA_ETHEREAL_DELAY_FLOOR]));
		print_string(PRINT_FP, NULL, "%s", ")");
	}
	return 0;
}

static int ethereal_print_xstats(struct qdisc_util *qu, FILE *f, struct rtattr *xstats)
{
	if (!xstats)
		return 0;
	/* Shorter than the smaller of the two: not the module's. */
	if (RTA_PAYLOAD(xstats) < sizeof(struct tc_ethereal_class_xstats)) {
		fprintf(stderr, "tc: ethereal: malformed xstats: %u bytes\n",
			(unsigned int)RTA_PAYLOAD(xstats));
		return -1;
	}
	/* tc shows the qdisc's and each class's with the same callback. */
	if (RTA_PAYLOAD(xstats) >= sizeof(struct tc_ethereal_xstats)) {
		struct tc_ethereal_xstats st;

		memcpy(&st, RTA_DATA(xstats), sizeof(st));
		print_nl();
		print_string(PRINT_FP, NULL, " %s", "real time: ");
		open_json_object("rt");
		print_u64(PRINT_ANY, "packets", "sent %" PRIu64 " pkt ", st.rt_packets);
		print_u64(PRINT_ANY, "bytes", "%" PRIu64 " bytes ", st.rt_bytes);
		print_u64(PRINT_ANY, "drops", "dropped %" PRIu64, st.rt_drops);
		close_json_object();
		print_nl();
		print_string(PRINT_FP, NULL, " %s", "best effort: ");
		open_json_object("be");
		print_u64(PRINT_ANY, "packets", "sent %" PRIu64 " pkt ", st.be_packets);
		print_u64(PRINT_ANY, "bytes", "%" PRIu64 " bytes ", st.be_bytes);
		print_u64(PRINT_ANY, "drops", "dropped %" PRIu64 " ", st.be_drops);
		print_size(PRINT_ANY, "backlog", "backlog %s ", st.be_backlog);
		print_uint(PRINT_ANY, "qlen", "%up", st.be_qlen);
		close_json_object();
		print_nl();
		print_string(PRINT_FP, NULL, " %s", "control: ");
		open_json_object("control");
		print_u64(PRINT_ANY, "packets", "sent %" PRIu64 " pkt ", st.ctl_packets);
		print_u64(PRINT_ANY, "drops", "dropped %" PRIu64 " ", st.ctl_drops);
		print_u64(PRINT_ANY, "late", "after real time %" PRIu64, st.ctl_late);
		close_json_object();
		print_nl();
		print_u64(PRINT_ANY, "cycles", " cycles %" PRIu64 " ", st.cycles);
		print_u64(PRINT_ANY, "overruns", "overruns %" PRIu64 " ", st.overruns);
		print_u64(PRINT_ANY, "discards", "discards %" PRIu64 " ", st.discards);
		print_u64(PRINT_ANY, "unmatched", "unmatched %" PRIu64 " ", st.unmatched);
		print_ns("late", "late %s ", st.late_ns);
		print_u64(PRINT_ANY, "late_turns", "late turns %" PRIu64 " ", st.late_turns);
		print_u64(PRINT_ANY, "early", "early %" PRIu64, st.early);
	} else {
		struct tc_ethereal_class_xstats cs;

		memcpy(&cs, RTA_DATA(xstats), sizeof(cs));
		print_s64(PRINT_ANY, "credit", " credit %" PRId64 " ", cs.credit);
		print_u64(PRINT_ANY, "lag_ns", "lag %" PRIu64 "ns", cs.lag_ns);
		/* Its frames' delays here against what the port promised it. */
		print_nl();
		open_json_object("delay");
		if (cs.promise_ns)
			print_ns("promise", " delay promised %s ", cs.promise_ns);
		print_ns("max", " max %s ", cs.delay_max_ns);
		print_ns("on_time_max", "on time %s ", cs.on_time_max_ns);
		print_u64(PRINT_ANY, "over", "over %" PRIu64 " ", cs.over);
		print_u64(PRINT_ANY, "over_on_time", "on time %" PRIu64, cs.over_on_time);
		close_json_object();
	}
	return 0;
}

static int ethereal_parse_copt(struct qdisc_util *qu, int argc, char **argv,
			       struct nlmsghdr *n, const char *dev)
{
	fprintf(stderr, "ethereal: classes are the switch's connections: "
			"add and delete them with etherealctl conn\n");
	return -1;
}

/* A class is a connection's queue. */
static int ethereal_print_copt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_ETHEREAL_CLASS_MAX + 1];
	char idbuf[8];
	__u32 ifindex;
	__u16 id;

	if (!opt)
		return 0;
	if (parse_opts(tb, TCA_ETHEREAL_CLASS_MAX, copt_len, opt))
		return -1;
	tc_print_rate(PRINT_ANY, "rate", "rate %s ", get_u64_or_0(tb[TCA_ETHEREAL_CLASS_RATE]) / 8);
	print_size(PRINT_ANY, "burst", "burst %s ", get_u32_or_0(tb[TCA_ETHEREAL_CLASS_BURST]));
	print_size(PRINT_ANY, "limit", "limit %s ", get_u32_or_0(tb[TCA_ETHEREAL_CLASS_LIMIT]));
	ifindex = get_u32_or_0(tb[TCA_ETHEREAL_CLASS_IN_IFINDEX]);
	id = tb[TCA_ETHEREAL_CLASS_IN_ID] ? rta_getattr_u16(tb[TCA_ETHEREAL_CLASS_IN_ID]) : 0;
	print_string(PRINT_ANY, "dev", "conn dev %s ", ll_index_to_name(ifindex));
	snprintf(idbuf, sizeof(idbuf), "%02x:%02x", id >> 8, id & 0xff);
	print_uint(PRINT_JSON, "id", NULL, id);
	print_string(PRINT_FP, NULL, "id %s", idbuf);
	return 0;
}

struct qdisc_util ethereal_qdisc_util = {
	.id = "ethereal",
	.parse_qopt = ethereal_parse_opt,
	.print_qopt = ethereal_print_opt,
	.print_xstats = ethereal_print_xstats,
	.parse_copt = ethereal_parse_copt,
	.print_copt = ethereal_print_copt,
};
