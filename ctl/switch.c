// SPDX-License-Identifier: GPL-2.0
/* etherealctl attach | detach | show | stats | set */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "units.h"

#define MAX_SWITCHES 256

struct switch_list {
	unsigned int n;
	uint32_t ifindex[MAX_SWITCHES];
	json_t *obj[MAX_SWITCHES];	/* with -j */
};

/* Signaling counters and setup times: the names are their policy's. */
static const char *sig_name(int type)
{
	return ethereal_sig_stats_attrs.policy[type].name;
}

static json_t *sig_json(const struct nlattr *nest)
{
	const struct nlattr *tb[ETHEREAL_SIG_STATS_A_MAX + 1];
	json_t *o = json_object();
	int i;

	nest_table(nest, tb, &ethereal_sig_stats_attrs);
	for (i = ETHEREAL_SIG_STATS_A_RX; i <= ETHEREAL_SIG_STATS_A_MAX; i++)
		json_object_set_new(o, sig_name(i), json_integer((json_int_t)attr_num(tb[i])));
	return o;
}

static void sig_print(const struct nlattr *nest, const char *indent)
{
	const struct nlattr *tb[ETHEREAL_SIG_STATS_A_MAX + 1];
	int i;

	nest_table(nest, tb, &ethereal_sig_stats_attrs);
	printf("%ssignaling:", indent);
	for (i = ETHEREAL_SIG_STATS_A_RX; i < ETHEREAL_SIG_STATS_A_SETUP_HIT_N; i++)
		printf(" %s %llu", sig_name(i), (unsigned long long)attr_num(tb[i]));
	for (i = ETHEREAL_SIG_STATS_A_NEIGH_REFUSED; i <= ETHEREAL_SIG_STATS_A_MAX; i++)
		printf(" %s %llu", sig_name(i), (unsigned long long)attr_num(tb[i]));
	printf("\n%ssetup per hop: ARP hit %llu, mean %.1f us, max %.1f us;"
	       " ARP miss %llu, mean %.1f us, max %.1f us\n", indent,
	       (unsigned long long)attr_num(tb[ETHEREAL_SIG_STATS_A_SETUP_HIT_N]),
	       attr_num(tb[ETHEREAL_SIG_STATS_A_SETUP_HIT_AVG]) / 1e3,
	       attr_num(tb[ETHEREAL_SIG_STATS_A_SETUP_HIT_MAX]) / 1e3,
	       (unsigned long long)attr_num(tb[ETHEREAL_SIG_STATS_A_SETUP_MISS_N]),
	       attr_num(tb[ETHEREAL_SIG_STATS_A_SETUP_MISS_AVG]) / 1e3,
	       attr_num(tb[ETHEREAL_SIG_STATS_A_SETUP_MISS_MAX]) / 1e3);
}

static int switch_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *sig[ETHEREAL_SIG_STATS_A_MAX + 1];
	struct switch_list *list = data;
	uint32_t ports, conns, lifetime;
	const char *name;
	char life[32];
	json_t *o;

	attr_table(nlh, tb);
	name = switch_name(tb);
	if (list->n == MAX_SWITCHES)
		return MNL_CB_OK;
	ports = (uint32_t)attr_num(tb[ETHEREAL_A_N_PORTS]);
	conns = (uint32_t)attr_num(tb[ETHEREAL_A_N_CONNS]);
	lifetime = (uint32_t)attr_num(tb[ETHEREAL_A_LIFETIME]);
	list->ifindex[list->n] = mnl_attr_get_u32(tb[ETHEREAL_A_IFINDEX]);
	nest_table(tb[ETHEREAL_A_SIG], sig, &ethereal_sig_stats_attrs);
	if (ctl.json) {
		o = json_pack("{s:s, s:I, s:I, s:I}", "bridge", name, "ports", (json_int_t)ports,
			      "connections", (json_int_t)conns, "lifetime_ms", (json_int_t)lifetime);
		if (ctl.details) {
			json_object_set_new(o, "ifindex", json_integer(list->ifindex[list->n]));
			json_object_set_new(o, "pending", json_integer(
				(json_int_t)attr_num(sig[ETHEREAL_SIG_STATS_A_PENDING])));
			json_object_set_new(o, "neighbours", json_integer(
				(json_int_t)attr_num(sig[ETHEREAL_SIG_STATS_A_NEIGH])));
		}
		if (ctl.stats) {
			json_object_set_new(o, "stats", stats_json(tb[ETHEREAL_A_STATS]));
			json_object_set_new(o, "signaling", sig_json(tb[ETHEREAL_A_SIG]));
		}
		list->obj[list->n] = o;
		out_add(o);
	} else {
		format_time((uint64_t)lifetime * 1000000, life, sizeof(life));
		printf("%s: ports %u connections %u lifetime %s", name, ports, conns, life);
		/* -d: what signaling holds now (its counters are -s's) */
		if (ctl.details)
			printf(" index %u pending %llu neighbours %llu", list->ifindex[list->n],
			       (unsigned long long)attr_num(sig[ETHEREAL_SIG_STATS_A_PENDING]),
			       (unsigned long long)attr_num(sig[ETHEREAL_SIG_STATS_A_NEIGH]));
		putchar('\n');
		if (ctl.stats) {
			stats_print(tb[ETHEREAL_A_STATS], "    ");
			sig_print(tb[ETHEREAL_A_SIG], "    ");
		}
	}
	list->n++;
	return MNL_CB_OK;
}

static void switch_list(const char *bridge, struct switch_list *list)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	memset(list, 0, sizeof(*list));
	if (bridge) {
		nlh = ctl_msg(buf, ETHEREAL_CMD_SWITCH_GET, 0);
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(bridge));
	} else {
		nlh = ctl_msg(buf, ETHEREAL_CMD_SWITCH_GET, NLM_F_DUMP);
	}
	err = enl_talk(&ctl.nl, nlh, switch_cb, list);
	if (err)
		nl_fail(bridge ? bridge : "show", err);
}

/* `stats`: each port's counters, under its switch. */
static int stats_port_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *pt[ETHEREAL_PORT_A_MAX + 1];
	json_t *ports = data;
	const char *name;

	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_PORT], pt, &ethereal_port_attrs);
	name = mnl_attr_get_str(pt[ETHEREAL_PORT_A_IFNAME]);
	if (ports) {
		json_array_append_new(ports, json_pack("{s:s, s:o}", "port", name, "stats",
						       stats_json(pt[ETHEREAL_PORT_A_STATS])));
		return MNL_CB_OK;
	}
	printf("  %s:\n", name);
	stats_print(pt[ETHEREAL_PORT_A_STATS], "    ");
	return MNL_CB_OK;
}

static void switch_stats(const char *bridge)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct switch_list list;
	struct nlmsghdr *nlh;
	json_t *ports = NULL;
	unsigned int i;

	ctl.stats = true;
	switch_list(bridge, &list);
	for (i = 0; i < list.n; i++) {
		if (ctl.json) {
			ports = json_array();
			json_object_set_new(list.obj[i], "port_stats", ports);
		}
		nlh = ctl_msg(buf, ETHEREAL_CMD_PORT_GET, NLM_F_DUMP);
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, list.ifindex[i]);
		ctl_talk(nlh, stats_port_cb, ports, "stats");
	}
}

/* `set BRIDGE lifetime TIME`: the soft state of signaled connections. */
static int switch_set(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint64_t ns = 0;
	int i;

	if (argc < 1)
		usage_fail("set needs a bridge");
	if (argc < 2)
		usage_fail("set %s: nothing to set (lifetime TIME)", argv[0]);
	for (i = 1; i < argc; i += 2) {
		if (!matches(argv[i], "lifetime"))
			usage_fail("set: unknown setting '%s' (lifetime)", argv[i]);
		if (i + 1 >= argc)
			usage_fail("'lifetime' needs a time");
		if (parse_time(argv[i + 1], &ns) ||
		    ns < ETHEREAL_LIFETIME_MIN_MS * 1000000ULL ||
		    ns > ETHEREAL_LIFETIME_MAX_MS * 1000000ULL)
			usage_fail("lifetime '%s': a time from 100ms to 1h", argv[i + 1]);
	}
	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_SWITCH_SET, 0);
	mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(argv[0]));
	mnl_attr_put_u32(nlh, ETHEREAL_A_LIFETIME, ns / 1000000);
	ctl_talk(nlh, NULL, NULL, argv[0]);
	return 0;
}

static const char *const switch_words[] = {
	"show", "stats", "set", "showconf", "attach", "detach", "help", NULL
};

int do_switch(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *cmd = object_command("switch", switch_words,
					 "attach, detach, show, stats, set or showconf",
					 argc, argv);
	const char *bridge = argc > 1 ? argv[1] : NULL;
	struct switch_list list;
	struct nlmsghdr *nlh;

	if (!cmd)
		return 0;
	if (!strcmp(cmd, "set"))
		return switch_set(argc - 1, argv + 1);
	if (argc > 2)
		usage_fail("%s: unexpected argument '%s'", cmd, argv[2]);
	if (!strcmp(cmd, "showconf"))
		return switch_showconf(bridge);
	if ((!strcmp(cmd, "attach") || !strcmp(cmd, "detach")) && !bridge)
		usage_fail("%s needs a bridge", cmd);
	ctl_open();
	if (!strcmp(cmd, "show")) {
		switch_list(bridge, &list);
	} else if (!strcmp(cmd, "stats")) {
		switch_stats(bridge);
	} else {
		nlh = ctl_msg(buf, !strcmp(cmd, "attach") ? ETHEREAL_CMD_SWITCH_ATTACH :
							    ETHEREAL_CMD_SWITCH_DETACH, 0);
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(bridge));
		ctl_talk(nlh, NULL, NULL, bridge);
	}
	return 0;
}
