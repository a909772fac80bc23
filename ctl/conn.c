// SPDX-License-Identifier: GPL-2.0
/* etherealctl conn add | del | show */
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <netinet/ether.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "ids.h"
#include "units.h"

struct conn_args {
	const char *dev, *out;
	int have_id, have_outid, have_mac, swap;
	uint16_t id, outid;
	struct ether_addr mac;
	const char *daddr;
	uint64_t rate, burst, maxpkt;
	int have_rate, have_burst, have_maxpkt;
};

static void parse_conn_args(int argc, char **argv, struct conn_args *a, const char *cmd)
{
	const char *v;

	memset(a, 0, sizeof(*a));
	for (; argc > 0; argc--, argv++) {
		const char *k = argv[0];

		if (matches(k, "dev")) {
			a->dev = next_arg(&argc, &argv, "a port");
		} else if (matches(k, "id")) {
			a->id = conn_id_arg(next_arg(&argc, &argv, "an ID"), "id");
			a->have_id = 1;
		} else if (matches(k, "out")) {
			a->out = next_arg(&argc, &argv, "a port");
		} else if (matches(k, "outid")) {
			a->outid = conn_id_arg(next_arg(&argc, &argv, "an ID"), "outid");
			a->have_outid = 1;
		} else if (matches(k, "lladdr")) {
			v = next_arg(&argc, &argv, "a MAC address");
			if (!ether_aton_r(v, &a->mac))
				usage_fail("lladdr '%s' is not a MAC address", v);
			if (a->mac.ether_addr_octet[0] & 1)
				usage_fail("lladdr %s: the receiver's MAC must be unicast", v);
			a->have_mac = 1;
		} else if (matches(k, "daddr")) {
			a->daddr = next_arg(&argc, &argv, "an IPv4 address");
		} else if (matches(k, "swap")) {
			a->swap = 1;
		} else if (matches(k, "rate")) {
			v = next_arg(&argc, &argv, "a rate");
			if (parse_rate(v, &a->rate))
				usage_fail("rate '%s' is not a rate (e.g. 50mbit)", v);
			if (!conn_rate_ok(a->rate))
				usage_fail("rate must be from " CONN_RATE_RANGE);
			a->have_rate = 1;
		} else if (matches(k, "burst")) {
			v = next_arg(&argc, &argv, "a size");
			if (parse_size(v, &a->burst) || !a->burst || a->burst > UINT32_MAX)
				usage_fail("burst '%s' is not a size from 1 byte to 4 GiB", v);
			a->have_burst = 1;
		} else if (matches(k, "maxpkt")) {
			v = next_arg(&argc, &argv, "a size");
			if (parse_size(v, &a->maxpkt) || a->maxpkt < ETHEREAL_MAX_PKT_MIN ||
			    a->maxpkt > ETHEREAL_MAX_PKT_MAX)
				usage_fail("maxpkt '%s' must be %d to %d bytes", v,
					   ETHEREAL_MAX_PKT_MIN, ETHEREAL_MAX_PKT_MAX);
			a->have_maxpkt = 1;
		} else {
			usage_fail("conn %s: unknown argument '%s'", cmd, k);
		}
	}
}

static void put_in(struct nlmsghdr *nlh, const struct conn_args *a)
{
	mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_IN_IFINDEX, ifindex_of(a->dev));
	mnl_attr_put_u16(nlh, ETHEREAL_CONN_A_IN_ID, a->id);
}

static int conn_add(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct conn_args a;
	struct in_addr ip;

	parse_conn_args(argc, argv, &a, "add");
	if (!a.dev || !a.have_id)
		usage_fail("conn add needs 'dev PORT id ID'");
	if (!a.out)
		usage_fail("conn add needs 'out PORT'");
	if (a.have_outid == a.have_mac)
		usage_fail("conn add needs either 'outid ID' (to a switch) or "
			   "'lladdr MAC' (to the receiving host)");
	if (!a.have_rate)
		usage_fail("conn add needs 'rate RATE'");
	if (a.daddr && inet_pton(AF_INET, a.daddr, &ip) != 1)
		usage_fail("daddr '%s' is not an IPv4 address", a.daddr);
	if (a.swap && !a.daddr)
		usage_fail("swap needs 'daddr ADDR', the receiver's address");

	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_CONN_NEW, 0);
	nest = mnl_attr_nest_start(nlh, ETHEREAL_A_CONN);
	put_in(nlh, &a);
	mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_OUT_IFINDEX, ifindex_of(a.out));
	if (a.have_outid)
		mnl_attr_put_u16(nlh, ETHEREAL_CONN_A_OUT_ID, a.outid);
	else
		mnl_attr_put(nlh, ETHEREAL_CONN_A_OUT_MAC, ETH_ALEN, &a.mac);
	if (a.daddr)
		mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_DADDR, ip.s_addr);
	if (a.swap)
		mnl_attr_put(nlh, ETHEREAL_CONN_A_SWAP, 0, NULL);
	mnl_attr_put_u64(nlh, ETHEREAL_CONN_A_RATE, a.rate);
	if (a.have_burst)
		mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_BURST, (uint32_t)a.burst);
	if (a.have_maxpkt)
		mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_MAX_PKT, (uint32_t)a.maxpkt);
	mnl_attr_nest_end(nlh, nest);
	ctl_talk(nlh, NULL, NULL, "conn add");
	return 0;
}

static int conn_del(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct conn_args a;

	parse_conn_args(argc, argv, &a, "del");
	if (!a.dev || !a.have_id)
		usage_fail("conn del needs 'dev PORT id ID'");
	if (a.out || a.have_outid || a.have_mac || a.have_rate || a.daddr || a.swap)
		usage_fail("conn del takes only 'dev PORT id ID'");
	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_CONN_DEL, 0);
	nest = mnl_attr_nest_start(nlh, ETHEREAL_A_CONN);
	put_in(nlh, &a);
	mnl_attr_nest_end(nlh, nest);
	ctl_talk(nlh, NULL, NULL, "conn del");
	return 0;
}

static int conn_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *c[ETHEREAL_CONN_A_MAX + 1];
	char id[8], out[32], qid[8], rate[32], burst[32], maxpkt[32], daddr[INET_ADDRSTRLEN] = "";
	const char *in_name, *out_name, *origin, *state;
	uint64_t r;
	uint32_t b, m;

	(void)data;
	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_CONN], c, &ethereal_conn_attrs);
	out_name = conn_out(c);
	in_name = mnl_attr_get_str(c[ETHEREAL_CONN_A_IN_IFNAME]);
	format_conn_id(mnl_attr_get_u16(c[ETHEREAL_CONN_A_IN_ID]), id, sizeof(id));
	format_conn_id((uint16_t)attr_num(c[ETHEREAL_CONN_A_QID]), qid, sizeof(qid));
	if (c[ETHEREAL_CONN_A_OUT_MAC]) {
		char mac[18];

		format_mac(mnl_attr_get_payload(c[ETHEREAL_CONN_A_OUT_MAC]), mac, sizeof(mac));
		snprintf(out, sizeof(out), "lladdr %s", mac);
	} else
		snprintf(out, sizeof(out), "id %s", qid);
	if (c[ETHEREAL_CONN_A_DADDR]) {
		uint32_t a = mnl_attr_get_u32(c[ETHEREAL_CONN_A_DADDR]);

		inet_ntop(AF_INET, &a, daddr, sizeof(daddr));
	}
	r = mnl_attr_get_u64(c[ETHEREAL_CONN_A_RATE]);
	b = (uint32_t)attr_num(c[ETHEREAL_CONN_A_BURST]);
	m = (uint32_t)attr_num(c[ETHEREAL_CONN_A_MAX_PKT]);
	origin = c[ETHEREAL_CONN_A_ORIGIN] &&
		 mnl_attr_get_u8(c[ETHEREAL_CONN_A_ORIGIN]) == ETHEREAL_ORIGIN_SIGNALED ?
		 "signaled" : "static";
	state = c[ETHEREAL_CONN_A_STATE] &&
		mnl_attr_get_u8(c[ETHEREAL_CONN_A_STATE]) == ETHEREAL_CONN_PENDING ?
		"pending" : "up";

	if (ctl.json) {
		json_t *o = json_pack("{s:s, s:I, s:s, s:I, s:b, s:o, s:I, s:I, s:s}",
				      "dev", in_name,
				      "id", (json_int_t)mnl_attr_get_u16(c[ETHEREAL_CONN_A_IN_ID]),
				      "out", out_name,
				      "queue", (json_int_t)attr_num(c[ETHEREAL_CONN_A_QID]),
				      "swap", c[ETHEREAL_CONN_A_SWAP] != NULL,
				      "rate", rate_json(r), "burst", (json_int_t)b,
				      "maxpkt", (json_int_t)m, "origin", origin);

		if (c[ETHEREAL_CONN_A_OUT_MAC])
			json_object_set_new(o, "lladdr", json_string(out + strlen("lladdr ")));
		else
			json_object_set_new(o, "outid", json_integer(
				mnl_attr_get_u16(c[ETHEREAL_CONN_A_OUT_ID])));
		if (daddr[0])
			json_object_set_new(o, "daddr", json_string(daddr));
		if (c[ETHEREAL_CONN_A_BUFFER])
			json_object_set_new(o, "buffer", json_integer(
				mnl_attr_get_u32(c[ETHEREAL_CONN_A_BUFFER])));
		if (c[ETHEREAL_CONN_A_STATE])
			json_object_set_new(o, "state", json_string(state));
		if (c[ETHEREAL_CONN_A_EXPIRES])
			json_object_set_new(o, "expires_ms", json_integer(
				mnl_attr_get_u32(c[ETHEREAL_CONN_A_EXPIRES])));
		conn_delay_json(o, c);
		if (c[ETHEREAL_CONN_A_HOP])
			json_object_set_new(o, "measured", conn_hop_json(c[ETHEREAL_CONN_A_HOP]));
		if (ctl.details) {
			json_object_set_new(o, "ifindex", json_integer(
				(json_int_t)attr_num(c[ETHEREAL_CONN_A_IN_IFINDEX])));
			json_object_set_new(o, "out_ifindex", json_integer(
				(json_int_t)attr_num(c[ETHEREAL_CONN_A_OUT_IFINDEX])));
		}
		if (ctl.stats)
			json_object_set_new(o, "stats", stats_json(c[ETHEREAL_CONN_A_STATS]));
		out_add(o);
		return MNL_CB_OK;
	}
	format_rate(r, rate, sizeof(rate));
	format_size(b, burst, sizeof(burst));
	format_size(m, maxpkt, sizeof(maxpkt));
	printf("dev %s id %s -> %s %s", in_name, id, out_name, out);
	/* A connection to a switch is queued under its output ID: -d says so. */
	if (c[ETHEREAL_CONN_A_OUT_MAC] || ctl.details)
		printf(" queue %s", qid);
	printf(" rate %s burst %s maxpkt %s", rate, burst, maxpkt);
	if (c[ETHEREAL_CONN_A_BUFFER]) {
		char buffer[32];

		format_size(mnl_attr_get_u32(c[ETHEREAL_CONN_A_BUFFER]), buffer, sizeof(buffer));
		printf(" buffer %s", buffer);
	}
	if (daddr[0])
		printf(" daddr %s", daddr);
	if (c[ETHEREAL_CONN_A_SWAP])
		printf(" swap");
	printf(" %s", origin);
	if (c[ETHEREAL_CONN_A_STATE])
		printf(" %s", state);
	if (c[ETHEREAL_CONN_A_EXPIRES])
		printf(" expires %.1fs", mnl_attr_get_u32(c[ETHEREAL_CONN_A_EXPIRES]) / 1000.0);
	conn_delay_print(c);
	if (c[ETHEREAL_CONN_A_HOP])
		conn_hop_print(c[ETHEREAL_CONN_A_HOP]);
	if (ctl.details)
		printf(" index %u out-index %u",
		       (unsigned int)attr_num(c[ETHEREAL_CONN_A_IN_IFINDEX]),
		       (unsigned int)attr_num(c[ETHEREAL_CONN_A_OUT_IFINDEX]));
	printf("\n");
	if (ctl.stats)
		stats_print(c[ETHEREAL_CONN_A_STATS], "    ");
	return MNL_CB_OK;
}

static int conn_show(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct conn_args a;

	if (argc == 1 && !matches(argv[0], "dev")) {
		ctl_open();
		nlh = ctl_msg(buf, ETHEREAL_CMD_CONN_GET, NLM_F_DUMP);
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(argv[0]));
		ctl_talk(nlh, conn_cb, NULL, argv[0]);
		return 0;
	}
	parse_conn_args(argc, argv, &a, "show");
	if (a.out || a.have_outid || a.have_mac || a.have_rate || a.daddr || a.swap)
		usage_fail("conn show takes BRIDGE, or 'dev PORT [id ID]'");
	if (a.have_id && !a.dev)
		usage_fail("conn show: 'id' needs 'dev PORT'");
	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_CONN_GET, a.have_id ? 0 : NLM_F_DUMP);
	if (a.dev) {
		nest = mnl_attr_nest_start(nlh, ETHEREAL_A_CONN);
		mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_IN_IFINDEX, ifindex_of(a.dev));
		if (a.have_id)
			mnl_attr_put_u16(nlh, ETHEREAL_CONN_A_IN_ID, a.id);
		mnl_attr_nest_end(nlh, nest);
	}
	ctl_talk(nlh, conn_cb, NULL, "conn show");
	return 0;
}

static const char *const conn_words[] = {
	"show", "list", "add", "del", "delete", "help", NULL
};

int do_conn(int argc, char **argv)
{
	const char *cmd = object_command("conn", conn_words, "add, del or show", argc, argv);

	if (!cmd)
		return 0;
	if (!strcmp(cmd, "add"))
		return conn_add(argc - 1, argv + 1);
	if (!strcmp(cmd, "del") || !strcmp(cmd, "delete"))
		return conn_del(argc - 1, argv + 1);
	return conn_show(argc ? argc - 1 : 0, argv + (argc ? 1 : 0));
}
