// SPDX-License-Identifier: GPL-2.0
/*
 * etherealctl: configure EtheReal switches (ethereal.ko) over generic
 * netlink, in the manner of ip(8) and bridge(8).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/if_bridge.h>

#include "ctl.h"
#include "ids.h"
#include "units.h"

#ifndef VERSION
#define VERSION "unknown"	/* built without the Makefile */
#endif

struct ctl ctl;

/*
 * Each object's commands; `etherealctl OBJECT help` prints one, `help` all.
 * The switch's commands also work without the word "switch", as before
 * objects had one.
 */
static const char switch_help[] =
"Usage: etherealctl [ switch ] attach BRIDGE     make BRIDGE an EtheReal switch\n"
"       etherealctl [ switch ] detach BRIDGE     make it a plain bridge again\n"
"       etherealctl [ switch ] show [ BRIDGE ]\n"
"       etherealctl [ switch ] stats [ BRIDGE ]  with each port's counters\n"
"       etherealctl [ switch ] set BRIDGE lifetime TIME\n"
"                                    soft state of signaled connections\n"
"       etherealctl [ switch ] showconf [ BRIDGE ]\n"
"                                    its configuration, as commands for -batch\n";

static const char port_help[] =
"Usage: etherealctl port show [ BRIDGE | dev PORT ]\n"
"       etherealctl port set dev PORT [ role { peripheral | trunk } ]\n"
"                                     [ host-conns N ] [ host-rate RATE ]\n"
"                                     [ key { FILE | off } ]\n"
"host-conns, host-rate: the quota of the host on PORT (0: none).\n"
"key: the trunk's link key, 16 to 64 bytes in hex in FILE (- : stdin).\n";

static const char conn_help[] =
"Usage: etherealctl conn add dev PORT id ID out PORT { outid ID | lladdr MAC }\n"
"                            rate RATE [ burst SIZE ] [ maxpkt SIZE ]\n"
"                            [ daddr ADDR ] [ swap ]\n"
"       etherealctl conn del dev PORT id ID\n"
"       etherealctl conn show [ BRIDGE | dev PORT [ id ID ] ]\n"
"ID: 03:09, 0x0309 or 777, from 00:0b to ff:fe. RATE and SIZE as in tc(8).\n";

static const char neigh_help[] =
"Usage: etherealctl neigh add ADDR lladdr MAC dev PORT   static binding\n"
"       etherealctl neigh del ADDR dev PORT\n"
"       etherealctl neigh show [ BRIDGE | dev PORT ]\n";

static const char monitor_help[] =
"Usage: etherealctl monitor [ BRIDGE ]  connection events as they happen,\n"
"                                      until interrupted (-j: a JSON object\n"
"                                      a line)\n";

static const char main_help[] =
"Usage: etherealctl [ OPTIONS ] OBJECT { COMMAND | help }\n"
"       etherealctl [ OPTIONS ] [ -force ] -batch FILE\n"
"where  OBJECT := { switch | port | conn | neigh | monitor }\n"
"       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -j[son] |\n"
"                    -p[retty] | -n[etns] NAME | -h[elp] }\n"
"Commands and keywords may be abbreviated (\"c s\" for \"conn show\"). -batch\n"
"runs a command per line of FILE (- for standard input) and stops at the\n"
"first that fails, unless -force. Exit status: 1 for a wrong command line,\n"
"2 when the kernel refused.\n";

static const struct {
	const char *name;
	const char *help;
} objects[] = {
	{ "switch", switch_help },
	{ "port", port_help },
	{ "conn", conn_help },
	{ "neigh", neigh_help },
	{ "monitor", monitor_help },
};

int show_help(const char *object)
{
	size_t i;

	if (!object) {
		fputs(main_help, stdout);
		for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
			putchar('\n');
			fputs(objects[i].help, stdout);
		}
		return 0;
	}
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (!strcmp(object, objects[i].name))
			fputs(objects[i].help, stdout);
	return 0;
}

void ctl_exit(int status)
{
	if (ctl.on_fail) {
		ctl.status = status;
		longjmp(*ctl.on_fail, 1);
	}
	exit(status);
}

static void vmsg(const char *fmt, va_list ap)
{
	fflush(stdout);		/* what came before, first */
	fputs("etherealctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	ctl_exit(EXIT_USAGE);
}

void usage_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	if (ctl.object)
		fprintf(stderr, "Try 'etherealctl %s help'.\n", ctl.object);
	else
		fputs("Try 'etherealctl help'.\n", stderr);
	ctl_exit(EXIT_USAGE);
}

void nl_fail(const char *what, int err)
{
	const char *why = ctl.nl.errmsg[0] ? ctl.nl.errmsg : strerror(-err);
	int status = ctl.nl.kernel_error ? EXIT_KERNEL : EXIT_USAGE;

	fflush(stdout);
	fprintf(stderr, "etherealctl: %s: %s%s\n", what, why,
		err == -EPERM && !ctl.nl.errmsg[0] ? " (needs CAP_NET_ADMIN)" : "");
	ctl_exit(status);
}

void ctl_open(void)
{
	int err;

	if (ctl.nl.mnl)
		return;
	err = enl_genl_open(&ctl.nl, ETHEREAL_GENL_NAME);
	if (err == -ENOENT)
		fail("the ethereal module is not loaded "
		     "(no generic netlink family \"" ETHEREAL_GENL_NAME "\")");
	if (err)
		fail("cannot open generic netlink: %s", strerror(-err));
}

const char *object_command(const char *object, const char *const *words,
			   const char *choices, int argc, char **argv)
{
	const char *cmd = argc > 0 ? keyword(argv[0], words) : "show";

	ctl.object = object;
	if (!cmd)
		usage_fail("%s: unknown command '%s' (%s)", object, argv[0], choices);
	if (!strcmp(cmd, "help")) {
		show_help(object);
		return NULL;
	}
	return cmd;
}

const char *keyword(const char *arg, const char *const *keywords)
{
	for (; *keywords; keywords++)
		if (matches(arg, *keywords))
			return *keywords;
	return NULL;
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
	return enl_genl_msg(&ctl.nl, buf, cmd, ETHEREAL_GENL_VERSION, flags);
}

void ctl_talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what)
{
	int err = enl_talk(&ctl.nl, nlh, cb, data);

	if (err)
		nl_fail(what, err);
}

void format_mac(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* What attr_table() read last, to name it if it is malformed. */
static const char *msg_kind = "reply";

/*
 * A message the module should not have sent (a module of another version,
 * or its bug): the command fails, nothing of the object printed.
 */
static __attribute__((noreturn)) void reply_fail(const struct enl_fault *f)
{
	char why[160];

	enl_fault_str(f, why, sizeof(why));
	fflush(stdout);
	fprintf(stderr, "etherealctl: the module's %s has %s\n", msg_kind, why);
	ctl_exit(EXIT_KERNEL);
}

/* Of a generic netlink message: attributes after its genlmsghdr. */
void attr_table(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct enl_fault f;

	msg_kind = mnl_nlmsg_get_payload_len(nlh) >= sizeof(*g) &&
		   g->cmd == ETHEREAL_CMD_CONN_EVENT ? "event" : "reply";
	if (enl_attr_table(nlh, sizeof(*g), &ethereal_attrs, tb, &f))
		reply_fail(&f);
}

void nest_table(const struct nlattr *nest, const struct nlattr **tb,
		const struct enl_attrs *set)
{
	struct enl_fault f;

	if (enl_nest_table(nest, set, tb, &f))
		reply_fail(&f);
}

const struct nlattr *attr_need(const struct nlattr **tb, const struct enl_attrs *set,
			       int type)
{
	if (!tb[type])
		reply_fail(&(struct enl_fault){ .set = set, .type = type, .missing = true });
	return tb[type];
}

uint64_t attr_num(const struct nlattr *a)
{
	switch (a ? mnl_attr_get_payload_len(a) : 0) {
	case 1:
		return mnl_attr_get_u8(a);
	case 2:
		return mnl_attr_get_u16(a);
	case 4:
		return mnl_attr_get_u32(a);
	case 8:
		return mnl_attr_get_u64(a);
	}
	return 0;
}

void stats_print(const struct nlattr *nest, const char *indent)
{
	const struct nlattr *tb[ETHEREAL_STATS_A_MAX + 1];
	int i;

	nest_table(nest, tb, &ethereal_stats_attrs);
	printf("%sRX: packets %llu bytes %llu  TX: packets %llu bytes %llu\n",
	       indent,
	       (unsigned long long)attr_num(tb[ETHEREAL_STATS_A_RX_PACKETS]),
	       (unsigned long long)attr_num(tb[ETHEREAL_STATS_A_RX_BYTES]),
	       (unsigned long long)attr_num(tb[ETHEREAL_STATS_A_TX_PACKETS]),
	       (unsigned long long)attr_num(tb[ETHEREAL_STATS_A_TX_BYTES]));
	printf("%sdrops:", indent);
	for (i = ETHEREAL_STATS_A_DROP_UNKNOWN_ID; i <= ETHEREAL_STATS_A_MAX; i++)
		printf(" %s %llu", ethereal_stats_attrs.policy[i].name + strlen("drop_"),
		       (unsigned long long)attr_num(tb[i]));
	putchar('\n');
}

json_t *stats_json(const struct nlattr *nest)
{
	const struct nlattr *tb[ETHEREAL_STATS_A_MAX + 1];
	json_t *o = json_object();
	int i;

	nest_table(nest, tb, &ethereal_stats_attrs);
	for (i = ETHEREAL_STATS_A_RX_PACKETS; i <= ETHEREAL_STATS_A_MAX; i++)
		json_object_set_new(o, ethereal_stats_attrs.policy[i].name,
				    json_integer((json_int_t)attr_num(tb[i])));
	return o;
}

json_t *rate_json(uint64_t bits_per_sec)
{
	return json_integer((json_int_t)(bits_per_sec / 8));
}

const char *switch_name(const struct nlattr **tb)
{
	attr_need(tb, &ethereal_attrs, ETHEREAL_A_IFINDEX);
	return mnl_attr_get_str(attr_need(tb, &ethereal_attrs, ETHEREAL_A_IFNAME));
}

const char *conn_out(const struct nlattr **c)
{
	if (!c[ETHEREAL_CONN_A_OUT_MAC])
		attr_need(c, &ethereal_conn_attrs, ETHEREAL_CONN_A_OUT_ID);
	return mnl_attr_get_str(attr_need(c, &ethereal_conn_attrs, ETHEREAL_CONN_A_OUT_IFNAME));
}

void conn_delay_print(const struct nlattr **c)
{
	char s[32];

	if (c[ETHEREAL_CONN_A_DELAY]) {
		format_time(mnl_attr_get_u64(c[ETHEREAL_CONN_A_DELAY]), s, sizeof(s));
		printf(" delay %s", s);
	}
	if (c[ETHEREAL_CONN_A_PATH_DELAY]) {
		format_time(mnl_attr_get_u64(c[ETHEREAL_CONN_A_PATH_DELAY]), s, sizeof(s));
		printf(" path %s", s);
	}
}

void conn_delay_json(json_t *o, const struct nlattr **c)
{
	if (c[ETHEREAL_CONN_A_DELAY])
		json_object_set_new(o, "delay_ns", json_integer(
			(json_int_t)mnl_attr_get_u64(c[ETHEREAL_CONN_A_DELAY])));
	if (c[ETHEREAL_CONN_A_PATH_DELAY])
		json_object_set_new(o, "path_delay_ns", json_integer(
			(json_int_t)mnl_attr_get_u64(c[ETHEREAL_CONN_A_PATH_DELAY])));
}

/* What the output port measured of its frames' delays (ETHEREAL_CONN_A_HOP). */
void conn_hop_print(const struct nlattr *nest)
{
	const struct nlattr *h[ETHEREAL_HOP_A_MAX + 1];
	char max[32], on_time[32];

	nest_table(nest, h, &ethereal_hop_attrs);
	format_time(attr_num(h[ETHEREAL_HOP_A_DELAY_MAX]), max, sizeof(max));
	format_time(attr_num(h[ETHEREAL_HOP_A_ON_TIME_MAX]), on_time, sizeof(on_time));
	printf(" measured %llu max %s on-time %s over %llu broken %llu",
	       (unsigned long long)attr_num(h[ETHEREAL_HOP_A_FRAMES]), max, on_time,
	       (unsigned long long)attr_num(h[ETHEREAL_HOP_A_OVER]),
	       (unsigned long long)attr_num(h[ETHEREAL_HOP_A_OVER_ON_TIME]));
}

json_t *conn_hop_json(const struct nlattr *nest)
{
	const struct nlattr *h[ETHEREAL_HOP_A_MAX + 1];
	json_t *o;

	nest_table(nest, h, &ethereal_hop_attrs);
	o = json_pack("{s:I, s:I, s:I, s:I, s:I}",
		      "frames", (json_int_t)attr_num(h[ETHEREAL_HOP_A_FRAMES]),
		      "max_ns", (json_int_t)attr_num(h[ETHEREAL_HOP_A_DELAY_MAX]),
		      "on_time_max_ns", (json_int_t)attr_num(h[ETHEREAL_HOP_A_ON_TIME_MAX]),
		      "over", (json_int_t)attr_num(h[ETHEREAL_HOP_A_OVER]),
		      "over_on_time", (json_int_t)attr_num(h[ETHEREAL_HOP_A_OVER_ON_TIME]));
	if (h[ETHEREAL_HOP_A_PROMISE])
		json_object_set_new(o, "promise_ns", json_integer(
			(json_int_t)mnl_attr_get_u64(h[ETHEREAL_HOP_A_PROMISE])));
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

/* Top-level words, in the order abbreviations are resolved ("s": show). */
static const char *const top_words[] = {
	"show", "stats", "set", "showconf", "switch", "port", "conn", "neigh",
	"monitor", "attach", "detach", "help", NULL
};

static int run(int argc, char **argv)
{
	const char *cmd = keyword(argv[0], top_words);

	ctl.object = NULL;
	if (!cmd)
		usage_fail("unknown object or command '%s'", argv[0]);
	if (!strcmp(cmd, "help"))
		return show_help(NULL);
	if (!strcmp(cmd, "port"))
		return do_port(argc - 1, argv + 1);
	if (!strcmp(cmd, "conn"))
		return do_conn(argc - 1, argv + 1);
	if (!strcmp(cmd, "neigh"))
		return do_neigh(argc - 1, argv + 1);
	if (!strcmp(cmd, "monitor")) {
		ctl.object = "monitor";
		if (argc > 1 && matches(argv[1], "help"))
			return show_help("monitor");
		return do_monitor(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "switch"))
		return do_switch(argc - 1, argv + 1);
	return do_switch(argc, argv);
}

/* One command of a batch: 0, or the status it would have exited with. */
static int run_caught(int argc, char **argv)
{
	jmp_buf on_fail;

	if (setjmp(on_fail)) {
		ctl.on_fail = NULL;
		/* A request may have been cut short: the next starts afresh. */
		enl_close(&ctl.nl);
		return ctl.status;
	}
	ctl.on_fail = &on_fail;
	run(argc, argv);
	ctl.on_fail = NULL;
	return 0;
}

/*
 * As ip -batch: a command per line (lib/cmdline.h has the syntax); one
 * that fails is named by its line, and ends the batch unless -force. The
 * status is the first failure's.
 */
static int run_batch(const char *path, bool force)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct cmdline c = { 0 };
	int ret = 0, status, r;
	const char *why;

	if (!f)
		fail("cannot open '%s': %s", path, strerror(errno));
	while ((r = cmdline_read(&c, f, &why))) {
		if (r < 0 && errno != EINVAL)
			fail("cannot read '%s': %s", path, strerror(errno));
		if (r < 0) {
			fflush(stdout);
			fprintf(stderr, "etherealctl: %s\n", why);
			status = EXIT_USAGE;
		} else if (c.argc == 0) {
			continue;
		} else {
			status = run_caught(c.argc, c.argv);
			if (!status)
				continue;
		}
		fprintf(stderr, "Command failed %s:%lu\n", path, c.first);
		if (!ret)
			ret = status;
		if (!force)
			break;
	}
	cmdline_free(&c);
	if (f != stdin)
		fclose(f);
	return ret;
}

static void print_version(void)
{
	printf("etherealctl utility, ethereal-%s\n", VERSION);
}

/*
 * Options as ip takes them: each a word of its own, "-" or "--", and
 * abbreviated to any beginning ("-s", "-stat", "--statistics"); tried in
 * this order, so that "-s" is -stats.
 */
int main(int argc, char **argv)
{
	const char *batch = NULL;
	bool force = false;
	int ret;

	for (argc--, argv++; argc > 0; argc--, argv++) {
		const char *opt = argv[0];

		if (!strcmp(opt, "--")) {
			argc--;
			argv++;
			break;
		}
		if (opt[0] != '-' || !opt[1])
			break;
		if (opt[1] == '-')
			opt++;
		if (matches(opt, "-stats") || matches(opt, "-statistics")) {
			ctl.stats = true;
		} else if (matches(opt, "-details")) {
			ctl.details = true;
		} else if (matches(opt, "-Version")) {
			print_version();
			return 0;
		} else if (matches(opt, "-force")) {
			force = true;
		} else if (matches(opt, "-batch")) {
			if (argc < 2)
				usage_fail("'%s' needs a file (- for standard input)", argv[0]);
			batch = *++argv;
			argc--;
		} else if (matches(opt, "-json")) {
			ctl.json = true;
		} else if (matches(opt, "-pretty")) {
			ctl.pretty = true;
		} else if (matches(opt, "-help")) {
			return show_help(NULL);
		} else if (matches(opt, "-netns")) {
			if (argc < 2)
				usage_fail("'%s' needs a network namespace", argv[0]);
			enter_netns(*++argv);
			argc--;
		} else {
			usage_fail("option '%s' is unknown", argv[0]);
		}
	}
	if (batch && argc > 0)
		usage_fail("-batch takes its commands from %s, not '%s'",
			   strcmp(batch, "-") ? batch : "standard input", argv[0]);
	if (!batch && argc < 1) {
		fputs(main_help, stderr);
		return EXIT_USAGE;
	}
	if (ctl.json)
		ctl.out = json_array();
	ret = batch ? run_batch(batch, force) : run(argc, argv);
	out_flush();
	enl_close(&ctl.nl);
	return ret;
}
