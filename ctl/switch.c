// SPDX-License-Identifier: GPL-2.0
/* etherealctl attach | detach | show | stats */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

#define MAX_SWITCHES 256

struct switch_list {
	unsigned int n;
	uint32_t ifindex[MAX_SWITCHES];
	json_t *obj[MAX_SWITCHES];	/* with -j */
};

static int switch_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	struct switch_list *list = data;
	uint32_t ports, conns;
	const char *name;
	json_t *o;

	attr_table(nlh, tb, ETHEREAL_A_MAX);
	if (!tb[ETHEREAL_A_IFNAME] || !tb[ETHEREAL_A_IFINDEX] || list->n == MAX_SWITCHES)
		return MNL_CB_OK;
	name = mnl_attr_get_str(tb[ETHEREAL_A_IFNAME]);
	ports = tb[ETHEREAL_A_N_PORTS] ? mnl_attr_get_u32(tb[ETHEREAL_A_N_PORTS]) : 0;
	conns = tb[ETHEREAL_A_N_CONNS] ? mnl_attr_get_u32(tb[ETHEREAL_A_N_CONNS]) : 0;
	list->ifindex[list->n] = mnl_attr_get_u32(tb[ETHEREAL_A_IFINDEX]);
	if (ctl.json) {
		o = json_pack("{s:s, s:I, s:I}", "bridge", name, "ports", (json_int_t)ports,
			      "connections", (json_int_t)conns);
		if (ctl.stats)
			json_object_set_new(o, "stats", stats_json(tb[ETHEREAL_A_STATS]));
		list->obj[list->n] = o;
		out_add(o);
	} else {
		printf("%s: ports %u connections %u\n", name, ports, conns);
		if (ctl.stats)
			stats_print(tb[ETHEREAL_A_STATS], "    ");
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
	err = nl_talk(&ctl.nl, nlh, switch_cb, list);
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

	attr_table(nlh, tb, ETHEREAL_A_MAX);
	nest_table(tb[ETHEREAL_A_PORT], pt, ETHEREAL_PORT_A_MAX);
	if (!pt[ETHEREAL_PORT_A_IFNAME])
		return MNL_CB_OK;
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

int do_switch(const char *cmd, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *bridge = argc > 0 ? argv[0] : NULL;
	struct switch_list list;
	struct nlmsghdr *nlh;

	if (argc > 1)
		usage_fail("%s: unexpected argument '%s'", cmd, argv[1]);
	if ((matches(cmd, "attach") || matches(cmd, "detach")) && !bridge)
		usage_fail("%s needs a bridge", cmd);
	ctl_open();
	if (matches(cmd, "show")) {
		switch_list(bridge, &list);
	} else if (matches(cmd, "stats")) {
		switch_stats(bridge);
	} else {
		nlh = ctl_msg(buf, matches(cmd, "attach") ? ETHEREAL_CMD_SWITCH_ATTACH :
						      ETHEREAL_CMD_SWITCH_DETACH, 0);
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(bridge));
		ctl_talk(nlh, NULL, NULL, bridge);
	}
	return 0;
}
