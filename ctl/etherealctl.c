// SPDX-License-Identifier: GPL-2.0
/*
 * etherealctl: configure EtheReal switches (ethereal.ko) over generic
 * netlink, in the manner of ip(8) and bridge(8).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/if_bridge.h>

#include "ctl.h"
#include "ids.h"

struct ctl ctl;

static const char usage_text[] =
"Usage: etherealctl [ OPTIONS ] COMMAND\n"
"\n"
"  attach BRIDGE                 make BRIDGE an EtheReal switch\n"
"  detach BRIDGE                 make it a plain bridge again\n"
"  show [ BRIDGE ]               switches\n"
"  stats [ BRIDGE ]              counters of switches and their ports\n"
"  port show [ BRIDGE | dev PORT ]\n"
"  port set dev PORT [ role { peripheral | trunk } ] [ host-conns N ]\n"
"           [ host-rate RATE ]     a host's quota on its port (0: none)\n"
"  conn add dev PORT id ID out PORT { outid ID | lladdr MAC }\n"
"           rate RATE [ burst SIZE ] [ maxpkt SIZE ] [ daddr ADDR ] [ swap ]\n"
"  conn del dev PORT id ID\n"
"  conn show [ BRIDGE | dev PORT [ id ID ] ]\n"
"  neigh show [ BRIDGE | dev PORT ]\n"
"  neigh add ADDR lladdr MAC dev PORT   bind ADDR and MAC to PORT (static)\n"
"  neigh del ADDR dev PORT\n"
"  monitor [ BRIDGE ]            connection events as they happen, until ^C\n"
"\n"
"OPTIONS: -j|--json  -p|--pretty  -s|--stats  -n|--netns NAME\n"
"         -b|--batch FILE (commands one per line, - for stdin)  -h|--help\n"
"IDs: 03:09, 0x0309 or 777; usable 00:0b to ff:fe. RATE and SIZE as in tc(8).\n";

static void vmsg(const char *fmt, va_list ap)
{
	fputs("etherealctl: ", stderr);
	if (ctl.batch)
		fprintf(stderr, "%s:%lu: ", ctl.batch, ctl.line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(1);
}

void usage_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fputs("Try 'etherealctl --help'.\n", stderr);
	exit(2);
}

void nl_fail(const char *what, int err)
{
	if (ctl.nl.errmsg[0])
		fail("%s: %s", what, ctl.nl.errmsg);
	if (err == -EPERM)
		fail("%s: %s (needs CAP_NET_ADMIN)", what, strerror(-err));
	fail("%s: %s", what, strerror(-err));
}

void ctl_open(void)
{
	int err;

	if (ctl.nl.mnl)
		return;
	err = nl_genl_open(&ctl.nl, ETHEREAL_GENL_NAME);
	if (err == -ENOENT)
		fail("the ethereal module is not loaded "
		     "(no generic netlink family \"" ETHEREAL_GENL_NAME "\")");
	if (err)
		fail("cannot open generic netlink: %s", strerror(-err));
}

bool matches(const char *arg, const char *keyword)
{
	return arg && strcmp(arg, keyword) == 0;
}

const char *next_arg(int *argc, char ***argv, const char *what)
{
	if (*argc < 2)
		usage_fail("'%s' needs %s", (*argv)[0], what);
	(*argc)--;
	(*argv)++;
	return (*argv)[0];
}

uint32_t ifindex_of(const char *name)
{
	unsigned int idx = if_nametoindex(name);

	if (!idx)
		fail("no device named '%s'", name);
	return idx;
}

uint16_t conn_id_arg(const char *s, const char *what)
{
	const char *why;
	uint16_t id;

	if (parse_conn_id(s, &id))
		usage_fail("%s '%s' is not a connection ID (03:09, 0x0309 or 777)",
			   what, s);
	why = conn_id_problem(id);
	if (why)
		usage_fail("%s %s %s", what, s, why);
	return id;
}

struct nlmsghdr *ctl_msg(void *buf, uint8_t cmd, uint16_t flags)
{
	return nl_genl_msg(&ctl.nl, buf, cmd, ETHEREAL_GENL_VERSION, flags);
}

void ctl_talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what)
{
	int err = nl_talk(&ctl.nl, nlh, cb, data);

	if (err)
		nl_fail(what, err);
}

void format_mac(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* Of a generic netlink reply: attributes after its genlmsghdr. */
void attr_table(const struct nlmsghdr *nlh, const struct nlattr **tb, int max)
{
	nl_attr_table(nlh, sizeof(struct genlmsghdr), tb, max);
}

static const char *const stat_names[ETHEREAL_STATS_A_MAX + 1] = {
	[ETHEREAL_STATS_A_RX_PACKETS] = "rx_packets",
	[ETHEREAL_STATS_A_RX_BYTES] = "rx_bytes",
	[ETHEREAL_STATS_A_TX_PACKETS] = "tx_packets",
	[ETHEREAL_STATS_A_TX_BYTES] = "tx_bytes",
	[ETHEREAL_STATS_A_DROP_UNKNOWN_ID] = "drop_unknown_id",
	[ETHEREAL_STATS_A_DROP_PORT_STATE] = "drop_port_state",
	[ETHEREAL_STATS_A_DROP_OVERSIZE] = "drop_oversize",
	[ETHEREAL_STATS_A_DROP_MALFORMED] = "drop_malformed",
	[ETHEREAL_STATS_A_DROP_CONTROL] = "drop_control",
	[ETHEREAL_STATS_A_DROP_TO_SWITCH] = "drop_to_switch",
	[ETHEREAL_STATS_A_DROP_QUEUE] = "drop_queue",
	[ETHEREAL_STATS_A_DROP_EARLY] = "drop_early",
	[ETHEREAL_STATS_A_DROP_FILTERED] = "drop_filtered",
};

static uint64_t stat(const struct nlattr **tb, int type)
{
	return tb[type] ? mnl_attr_get_u64(tb[type]) : 0;
}

void stats_print(const struct nlattr *nest, const char *indent)
{
	const struct nlattr *tb[ETHEREAL_STATS_A_MAX + 1];
	int i;

	nl_nest_table(nest, tb, ETHEREAL_STATS_A_MAX);
	printf("%sRX: packets %llu bytes %llu  TX: packets %llu bytes %llu\n",
	       indent,
	       (unsigned long long)stat(tb, ETHEREAL_STATS_A_RX_PACKETS),
	       (unsigned long long)stat(tb, ETHEREAL_STATS_A_RX_BYTES),
	       (unsigned long long)stat(tb, ETHEREAL_STATS_A_TX_PACKETS),
	       (unsigned long long)stat(tb, ETHEREAL_STATS_A_TX_BYTES));
	printf("%sdrops:", indent);
	for (i = ETHEREAL_STATS_A_DROP_UNKNOWN_ID; i <= ETHEREAL_STATS_A_MAX; i++)
		printf(" %s %llu", stat_names[i] + strlen("drop_"),
		       (unsigned long long)stat(tb, i));
	putchar('\n');
}

json_t *stats_json(const struct nlattr *nest)
{
	const struct nlattr *tb[ETHEREAL_STATS_A_MAX + 1];
	json_t *o = json_object();
	int i;

	nl_nest_table(nest, tb, ETHEREAL_STATS_A_MAX);
	for (i = ETHEREAL_STATS_A_RX_PACKETS; i <= ETHEREAL_STATS_A_MAX; i++)
		json_object_set_new(o, stat_names[i], json_integer((json_int_t)stat(tb, i)));
	return o;
}

void out_add(json_t *obj)
{
	json_array_append_new(ctl.out, obj);
}

void out_flush(void)
{
	if (!ctl.json)
		return;
	json_dumpf(ctl.out, stdout, ctl.pretty ? JSON_INDENT(2) : JSON_COMPACT);
	putchar('\n');
	json_decref(ctl.out);
	ctl.out = NULL;
}

const char *stp_state_name(uint8_t state)
{
	static const char *const names[] = {
		[BR_STATE_DISABLED] = "disabled",
		[BR_STATE_LISTENING] = "listening",
		[BR_STATE_LEARNING] = "learning",
		[BR_STATE_FORWARDING] = "forwarding",
		[BR_STATE_BLOCKING] = "blocking",
	};

	return state <= BR_STATE_BLOCKING ? names[state] : "unknown";
}

const char *role_name(uint8_t role)
{
	return role == ETHEREAL_PORT_TRUNK ? "trunk" : "peripheral";
}

static void enter_netns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail("network namespace '%s': %s", name, strerror(errno));
	if (setns(fd, CLONE_NEWNET))
		fail("cannot enter network namespace '%s': %s", name, strerror(errno));
	close(fd);
}

static int run(int argc, char **argv)
{
	const char *cmd = argv[0];

	if (matches(cmd, "port"))
		return do_port(argc - 1, argv + 1);
	if (matches(cmd, "conn"))
		return do_conn(argc - 1, argv + 1);
	if (matches(cmd, "neigh"))
		return do_neigh(argc - 1, argv + 1);
	if (matches(cmd, "monitor"))
		return do_monitor(argc - 1, argv + 1);
	if (matches(cmd, "attach") || matches(cmd, "detach") ||
	    matches(cmd, "show") || matches(cmd, "stats") || matches(cmd, "set"))
		return do_switch(cmd, argc - 1, argv + 1);
	usage_fail("unknown command '%s'", cmd);
}

/* Like ip -batch: one command per line, stop at the first that fails. */
static int run_batch(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, *args[64], *tok, *save;
	size_t cap = 0;
	int n;

	if (!f)
		fail("%s: %s", path, strerror(errno));
	ctl.batch = path;
	while (getline(&line, &cap, f) > 0) {
		ctl.line++;
		n = 0;
		for (tok = strtok_r(line, " \t\n", &save); tok && n < 64;
		     tok = strtok_r(NULL, " \t\n", &save))
			args[n++] = tok;
		if (n == 0 || args[0][0] == '#')
			continue;
		run(n, args);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 's' },
		{ "netns", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *batch = NULL;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+jpsn:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': ctl.json = true; break;
		case 'p': ctl.pretty = true; break;
		case 's': ctl.stats = true; break;
		case 'n': enter_netns(optarg); break;
		case 'b': batch = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 && !batch) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (argc > 0 && matches(argv[0], "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (ctl.json)
		ctl.out = json_array();
	ret = batch ? run_batch(batch) : run(argc, argv);
	out_flush();
	nl_close(&ctl.nl);
	return ret;
}
