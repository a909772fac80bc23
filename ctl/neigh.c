// SPDX-License-Identifier: GPL-2.0
/* etherealctl neigh add | del | show: the switch's neighbour table */
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ether.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"

struct neigh_args {
	const char *dev;
	const char *addr;
	struct in_addr ip;
	struct ether_addr mac;
	bool have_mac;
};

static void parse_neigh_args(int argc, char **argv, struct neigh_args *a,
			     const char *cmd, bool want_mac)
{
	const char *v;

	memset(a, 0, sizeof(*a));
	for (; argc > 0; argc--, argv++) {
		if (matches(argv[0], "dev")) {
			a->dev = next_arg(&argc, &argv, "a port");
		} else if (want_mac && matches(argv[0], "lladdr")) {
			v = next_arg(&argc, &argv, "a MAC address");
			if (!ether_aton_r(v, &a->mac))
				usage_fail("lladdr '%s' is not a MAC address", v);
			if (a->mac.ether_addr_octet[0] & 1)
				usage_fail("lladdr %s: a host's MAC is unicast", v);
			a->have_mac = true;
		} else if (!a->addr && inet_pton(AF_INET, argv[0], &a->ip) == 1) {
			a->addr = argv[0];
		} else {
			usage_fail("neigh %s: unknown argument '%s'", cmd, argv[0]);
		}
	}
	if (!a->addr)
		usage_fail("neigh %s needs an IPv4 address", cmd);
	if (!a->dev)
		usage_fail("neigh %s needs 'dev PORT'", cmd);
	if (want_mac && !a->have_mac)
		usage_fail("neigh %s needs 'lladdr MAC'", cmd);
}

static int neigh_change(int argc, char **argv, const char *cmd, uint8_t nlcmd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct neigh_args a;
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	parse_neigh_args(argc, argv, &a, cmd, nlcmd == ETHEREAL_CMD_NEIGH_NEW);
	ctl_open();
	nlh = ctl_msg(buf, nlcmd, 0);
	nest = mnl_attr_nest_start(nlh, ETHEREAL_A_NEIGH);
	mnl_attr_put_u32(nlh, ETHEREAL_NEIGH_A_IFINDEX, ifindex_of(a.dev));
	mnl_attr_put(nlh, ETHEREAL_NEIGH_A_ADDR, sizeof(a.ip), &a.ip);
	if (a.have_mac)
		mnl_attr_put(nlh, ETHEREAL_NEIGH_A_LLADDR, ETH_ALEN, &a.mac);
	mnl_attr_nest_end(nlh, nest);
	ctl_talk(nlh, NULL, NULL, a.addr);
	return 0;
}

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *nt[ETHEREAL_NEIGH_A_MAX + 1];
	char bridge[IF_NAMESIZE] = "?", ip[INET_ADDRSTRLEN], mac[18];
	bool is_static, bound;
	uint32_t age;

	(void)data;
	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_NEIGH], nt, &ethereal_neigh_attrs);
	if (tb[ETHEREAL_A_IFINDEX])
		if_indextoname(mnl_attr_get_u32(tb[ETHEREAL_A_IFINDEX]), bridge);
	inet_ntop(AF_INET, mnl_attr_get_payload(nt[ETHEREAL_NEIGH_A_ADDR]), ip, sizeof(ip));
	format_mac(mnl_attr_get_payload(nt[ETHEREAL_NEIGH_A_LLADDR]), mac, sizeof(mac));
	is_static = nt[ETHEREAL_NEIGH_A_STATIC];
	bound = nt[ETHEREAL_NEIGH_A_BOUND];
	age = (uint32_t)attr_num(nt[ETHEREAL_NEIGH_A_AGE]);

	if (ctl.json) {
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:b}",
				      "addr", ip, "lladdr", mac,
				      "port", mnl_attr_get_str(nt[ETHEREAL_NEIGH_A_IFNAME]),
				      "bridge", bridge, "static", is_static, "bound", bound);

		if (!is_static || ctl.details)
			json_object_set_new(o, "age_ms", json_integer(age));
		if (ctl.details)
			json_object_set_new(o, "ifindex", json_integer(
				mnl_attr_get_u32(nt[ETHEREAL_NEIGH_A_IFINDEX])));
		out_add(o);
		return MNL_CB_OK;
	}
	printf("%s lladdr %s dev %s bridge %s %s", ip, mac,
	       mnl_attr_get_str(nt[ETHEREAL_NEIGH_A_IFNAME]), bridge,
	       is_static ? "static" : bound ? "bound" : "learned");
	/* -d: a static entry's age too: since it was added */
	if (!is_static || ctl.details)
		printf(" age %u.%03us", age / 1000, age % 1000);
	if (ctl.details)
		printf(" index %u", mnl_attr_get_u32(nt[ETHEREAL_NEIGH_A_IFINDEX]));
	putchar('\n');
	return MNL_CB_OK;
}

static int neigh_show(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *what = "neigh show", *port = NULL;
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	if (argc > 0 && matches(argv[0], "dev"))
		what = port = next_arg(&argc, &argv, "a port");
	else if (argc > 0)
		what = argv[0];
	if (argc > 1)
		usage_fail("neigh show: unexpected argument '%s'", argv[1]);
	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_NEIGH_GET, NLM_F_DUMP);
	if (port) {
		nest = mnl_attr_nest_start(nlh, ETHEREAL_A_NEIGH);
		mnl_attr_put_u32(nlh, ETHEREAL_NEIGH_A_IFINDEX, ifindex_of(port));
		mnl_attr_nest_end(nlh, nest);
	} else if (argc > 0) {
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(what));
	}
	ctl_talk(nlh, neigh_cb, NULL, what);
	return 0;
}

static const char *const neigh_words[] = {
	"show", "list", "add", "del", "delete", "help", NULL
};

int do_neigh(int argc, char **argv)
{
	const char *cmd = object_command("neigh", neigh_words, "show, add or del", argc, argv);

	if (!cmd)
		return 0;
	if (!strcmp(cmd, "add"))
		return neigh_change(argc - 1, argv + 1, "add", ETHEREAL_CMD_NEIGH_NEW);
	if (!strcmp(cmd, "del") || !strcmp(cmd, "delete"))
		return neigh_change(argc - 1, argv + 1, "del", ETHEREAL_CMD_NEIGH_DEL);
	return neigh_show(argc ? argc - 1 : 0, argv + (argc ? 1 : 0));
}
