// SPDX-License-Identifier: GPL-2.0
/*
 * etherealctl monitor [ BRIDGE ]: the switches' connection events as they
 * happen (the family's "monitor" multicast group, ETHEREAL_CMD_CONN_EVENT),
 * one line each, or one JSON object a line with -j, until SIGINT or
 * SIGTERM.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>

#include "ctl.h"
#include "ids.h"
#include "signames.h"
#include "units.h"

/* A burst of events (a link going down) waits in the socket meanwhile. */
#define MONITOR_RCVBUF	(1 << 20)

static volatile sig_atomic_t monitor_stop;

static void monitor_signal(int sig)
{
	(void)sig;
	monitor_stop = 1;
}

static const char *const event_names[ETHEREAL_EVENT_MAX + 1] = {
	[ETHEREAL_EVENT_ADDED] = "added",
	[ETHEREAL_EVENT_ACCEPTED] = "accepted",
	[ETHEREAL_EVENT_REJECTED] = "rejected",
	[ETHEREAL_EVENT_EXPIRED] = "expired",
	[ETHEREAL_EVENT_TEARDOWN] = "teardown",
};

static const char *event_name(uint8_t event)
{
	return event <= ETHEREAL_EVENT_MAX && event_names[event] ? event_names[event] : "unknown";
}

/* One event; the family checked. DATA: the bridge's ifindex, 0 for any. */
static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1], *c[ETHEREAL_CONN_A_MAX + 1];
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	uint32_t want = *(const uint32_t *)data;
	char id[8], s[32], daddr[INET_ADDRSTRLEN] = "", mac[18] = "";
	const char *event, *bridge, *in_name, *out_name = NULL, *reason = NULL, *state = NULL;
	uint64_t rate;
	uint16_t in_id;
	uint8_t hop;

	if (nlh->nlmsg_type != ctl.nl.genl_family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g) || g->cmd != ETHEREAL_CMD_CONN_EVENT)
		return MNL_CB_OK;
	attr_table(nlh, tb);
	if (want && attr_num(tb[ETHEREAL_A_IFINDEX]) != want)
		return MNL_CB_OK;
	/* An event is of a connection, and names its switch. */
	event = event_name(mnl_attr_get_u8(attr_need(tb, &ethereal_attrs, ETHEREAL_A_EVENT)));
	bridge = mnl_attr_get_str(attr_need(tb, &ethereal_attrs, ETHEREAL_A_IFNAME));
	nest_table(attr_need(tb, &ethereal_attrs, ETHEREAL_A_CONN), c, &ethereal_conn_attrs);
	if (tb[ETHEREAL_A_REASON])
		reason = ethereal_sig_reason_name(mnl_attr_get_u16(tb[ETHEREAL_A_REASON]));
	hop = (uint8_t)attr_num(tb[ETHEREAL_A_HOP]);
	rate = mnl_attr_get_u64(c[ETHEREAL_CONN_A_RATE]);
	in_name = mnl_attr_get_str(c[ETHEREAL_CONN_A_IN_IFNAME]);
	in_id = mnl_attr_get_u16(c[ETHEREAL_CONN_A_IN_ID]);
	/* An event of a setup refused before it was installed has no way out. */
	if (c[ETHEREAL_CONN_A_OUT_IFNAME])
		out_name = mnl_attr_get_str(c[ETHEREAL_CONN_A_OUT_IFNAME]);
	if (c[ETHEREAL_CONN_A_DADDR])
		inet_ntop(AF_INET, mnl_attr_get_payload(c[ETHEREAL_CONN_A_DADDR]), daddr,
			  sizeof(daddr));
	if (c[ETHEREAL_CONN_A_OUT_MAC])
		format_mac(mnl_attr_get_payload(c[ETHEREAL_CONN_A_OUT_MAC]), mac, sizeof(mac));
	if (c[ETHEREAL_CONN_A_STATE])
		state = mnl_attr_get_u8(c[ETHEREAL_CONN_A_STATE]) == ETHEREAL_CONN_PENDING ?
			"pending" : "up";

	if (ctl.json) {
		json_t *o = json_pack("{s:s, s:s, s:s, s:I}", "event", event, "bridge", bridge,
				      "dev", in_name, "id", (json_int_t)in_id);

		if (out_name)
			json_object_set_new(o, "out", json_string(out_name));
		if (mac[0])
			json_object_set_new(o, "lladdr", json_string(mac));
		if (c[ETHEREAL_CONN_A_OUT_ID])
			json_object_set_new(o, "outid",
					    json_integer(mnl_attr_get_u16(c[ETHEREAL_CONN_A_OUT_ID])));
		if (c[ETHEREAL_CONN_A_QID])
			json_object_set_new(o, "queue",
					    json_integer(mnl_attr_get_u16(c[ETHEREAL_CONN_A_QID])));
		/* Bytes per second, as tc -j gives rates. */
		json_object_set_new(o, "rate", json_integer((json_int_t)(rate / 8)));
		json_object_set_new(o, "burst",
				    json_integer((json_int_t)attr_num(c[ETHEREAL_CONN_A_BURST])));
		json_object_set_new(o, "maxpkt",
				    json_integer((json_int_t)attr_num(c[ETHEREAL_CONN_A_MAX_PKT])));
		if (daddr[0])
			json_object_set_new(o, "daddr", json_string(daddr));
		if (c[ETHEREAL_CONN_A_DPORT])
			json_object_set_new(o, "dport",
					    json_integer(mnl_attr_get_u16(c[ETHEREAL_CONN_A_DPORT])));
		if (c[ETHEREAL_CONN_A_SWAP])
			json_object_set_new(o, "swap", json_true());
		if (state)
			json_object_set_new(o, "state", json_string(state));
		if (reason)
			json_object_set_new(o, "reason", json_string(reason));
		if (hop)
			json_object_set_new(o, "hop", json_integer(hop));
		conn_delay_json(o, c);
		if (ctl.stats && c[ETHEREAL_CONN_A_STATS])
			json_object_set_new(o, "stats", stats_json(c[ETHEREAL_CONN_A_STATS]));
		if (ctl.stats && c[ETHEREAL_CONN_A_HOP])
			json_object_set_new(o, "measured", conn_hop_json(c[ETHEREAL_CONN_A_HOP]));
		json_dumpf(o, stdout, JSON_COMPACT);
		json_decref(o);
		putchar('\n');
		return MNL_CB_OK;
	}

	format_conn_id(in_id, id, sizeof(id));
	printf("%s %s dev %s id %s", event, bridge, in_name, id);
	if (out_name) {
		printf(" -> %s", out_name);
		if (mac[0]) {
			printf(" lladdr %s", mac);
		} else {
			format_conn_id((uint16_t)attr_num(c[ETHEREAL_CONN_A_OUT_ID]), s, sizeof(s));
			printf(" id %s", s);
		}
	}
	format_rate(rate, s, sizeof(s));
	printf(" rate %s", s);
	if (daddr[0])
		printf(" daddr %s", daddr);
	if (c[ETHEREAL_CONN_A_DPORT])
		printf(" dport %u", mnl_attr_get_u16(c[ETHEREAL_CONN_A_DPORT]));
	if (state && !reason)
		printf(" %s", state);
	if (reason)
		printf(" reason %s", reason);
	if (hop)
		printf(" hop %u", hop);
	conn_delay_print(c);
	if (ctl.stats && c[ETHEREAL_CONN_A_HOP])
		conn_hop_print(c[ETHEREAL_CONN_A_HOP]);
	putchar('\n');
	if (ctl.stats && c[ETHEREAL_CONN_A_STATS])
		stats_print(c[ETHEREAL_CONN_A_STATS], "    ");
	return MNL_CB_OK;
}

/* Runs until SIGINT or SIGTERM, then exits 0: nothing follows it. */
int do_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = monitor_signal };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int rcvbuf = MONITOR_RCVBUF, fd, err;
	uint32_t bridge = 0;
	sigset_t block, old;
	ssize_t n;

	if (ctl.on_fail)
		usage_fail("monitor runs until interrupted: not in a batch");
	if (argc > 1)
		usage_fail("monitor takes at most a BRIDGE");
	if (argc == 1)
		bridge = ifindex_of(argv[0]);
	ctl_open();
	err = enl_genl_join(&ctl.nl, ETHEREAL_GENL_NAME, ETHEREAL_GENL_MCGRP_MONITOR);
	if (err == -ENOENT)
		fail("monitor: the ethereal module has no \"" ETHEREAL_GENL_MCGRP_MONITOR
		     "\" group (older than etherealctl)");
	if (err)
		nl_fail("monitor", err);
	fd = mnl_socket_get_fd(ctl.nl.mnl);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* Each event as it comes, also into a pipe or a file. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/*
	 * The signals are let in only while waiting: one that comes between
	 * the check and the wait ends the wait. A shell starts background
	 * commands with SIGINT ignored; the handler overrides that.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigdelset(&old, SIGINT);
	sigdelset(&old, SIGTERM);
	while (!monitor_stop) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (ppoll(&p, 1, NULL, &old) < 0) {
			if (errno == EINTR)
				continue;
			fail("monitor: %s", strerror(errno));
		}
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			/* The kernel had more for us than the socket held. */
			if (errno == ENOBUFS) {
				fprintf(stderr, "etherealctl: monitor: events lost\n");
				continue;
			}
			fail("monitor: %s", strerror(errno));
		}
		/* Notifications: sequence 0, from the kernel. */
		errno = 0;
		if (mnl_cb_run(buf, (size_t)n, 0, 0, event_cb, &bridge) == MNL_CB_ERROR)
			fprintf(stderr, "etherealctl: monitor: %s\n",
				strerror(errno ? errno : EBADMSG));
	}
	fflush(stdout);
	enl_close(&ctl.nl);
	exit(0);
}
