// SPDX-License-Identifier: GPL-2.0
/* etherealctl port show | set */
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "units.h"

/* A MAC address attribute as text; "?" when absent. */
static void mac_attr(const struct nlattr *a, char *buf, size_t len)
{
	if (a)
		format_mac(mnl_attr_get_payload(a), buf, len);
	else
		snprintf(buf, len, "?");
}

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *pt[ETHEREAL_PORT_A_MAX + 1];
	char bridge[IF_NAMESIZE] = "?", rate[32], reserved[32], quota[32];
	char sw_id[18], sw_mac[18];
	uint8_t role, state;
	const char *name;

	(void)data;
	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_PORT], pt, &ethereal_port_attrs);
	name = mnl_attr_get_str(pt[ETHEREAL_PORT_A_IFNAME]);
	if (tb[ETHEREAL_A_IFINDEX])
		if_indextoname(mnl_attr_get_u32(tb[ETHEREAL_A_IFINDEX]), bridge);
	role = (uint8_t)attr_num(pt[ETHEREAL_PORT_A_ROLE]);
	state = (uint8_t)attr_num(pt[ETHEREAL_PORT_A_STP_STATE]);
	mac_attr(pt[ETHEREAL_PORT_A_SWITCH], sw_id, sizeof(sw_id));
	mac_attr(pt[ETHEREAL_PORT_A_SWITCH_LLADDR], sw_mac, sizeof(sw_mac));

	if (ctl.json) {
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:I, s:I}",
				      "port", name, "bridge", bridge,
				      "role", role_name(role),
				      "stp_state", stp_state_name(state),
				      "rate", rate_json(attr_num(pt[ETHEREAL_PORT_A_RATE])),
				      "reserved", rate_json(attr_num(pt[ETHEREAL_PORT_A_RESERVED])),
				      "conns_in",
				      (json_int_t)attr_num(pt[ETHEREAL_PORT_A_CONNS_IN]),
				      "conns_out",
				      (json_int_t)attr_num(pt[ETHEREAL_PORT_A_CONNS_OUT]));
		json_object_set_new(o, "host_conns", json_integer(
			(json_int_t)attr_num(pt[ETHEREAL_PORT_A_HOST_CONNS])));
		json_object_set_new(o, "host_rate",
				    rate_json(attr_num(pt[ETHEREAL_PORT_A_HOST_RATE])));
		json_object_set_new(o, "keyed", json_boolean(pt[ETHEREAL_PORT_A_KEYED] &&
							     mnl_attr_get_u8(pt[ETHEREAL_PORT_A_KEYED])));
		if (pt[ETHEREAL_PORT_A_KEY_VERIFIED])
			json_object_set_new(o, "key_verified",
					    json_boolean(mnl_attr_get_u8(pt[ETHEREAL_PORT_A_KEY_VERIFIED])));
		if (ctl.details)
			json_object_set_new(o, "ifindex", json_integer(
				(json_int_t)attr_num(pt[ETHEREAL_PORT_A_IFINDEX])));
		/* The switch at a trunk's other end, while it says hello. */
		if (pt[ETHEREAL_PORT_A_SWITCH]) {
			json_object_set_new(o, "switch", json_string(sw_id));
			json_object_set_new(o, "switch_lladdr", json_string(sw_mac));
			json_object_set_new(o, "switch_age_ms", json_integer(
				(json_int_t)attr_num(pt[ETHEREAL_PORT_A_SWITCH_AGE])));
		}
		if (ctl.stats)
			json_object_set_new(o, "stats", stats_json(pt[ETHEREAL_PORT_A_STATS]));
		out_add(o);
		return MNL_CB_OK;
	}
	if (attr_num(pt[ETHEREAL_PORT_A_RATE]))
		format_rate(attr_num(pt[ETHEREAL_PORT_A_RATE]), rate, sizeof(rate));
	else
		snprintf(rate, sizeof(rate), "unknown");
	format_rate(attr_num(pt[ETHEREAL_PORT_A_RESERVED]), reserved, sizeof(reserved));
	printf("%s: bridge %s role %s state %s rate %s reserved %s conns in %u out %u",
	       name, bridge, role_name(role), stp_state_name(state), rate, reserved,
	       (unsigned int)attr_num(pt[ETHEREAL_PORT_A_CONNS_IN]),
	       (unsigned int)attr_num(pt[ETHEREAL_PORT_A_CONNS_OUT]));
	/* The host's quota when there is one; -d: always, 0 for none. */
	if (ctl.details || attr_num(pt[ETHEREAL_PORT_A_HOST_CONNS]))
		printf(" host-conns %u", (unsigned int)attr_num(pt[ETHEREAL_PORT_A_HOST_CONNS]));
	if (ctl.details || attr_num(pt[ETHEREAL_PORT_A_HOST_RATE])) {
		if (attr_num(pt[ETHEREAL_PORT_A_HOST_RATE]))
			format_rate(attr_num(pt[ETHEREAL_PORT_A_HOST_RATE]), quota, sizeof(quota));
		else
			snprintf(quota, sizeof(quota), "0");
		printf(" host-rate %s", quota);
	}
	if (pt[ETHEREAL_PORT_A_KEYED] && mnl_attr_get_u8(pt[ETHEREAL_PORT_A_KEYED]))
		printf(" keyed (%s)", pt[ETHEREAL_PORT_A_KEY_VERIFIED] &&
		       mnl_attr_get_u8(pt[ETHEREAL_PORT_A_KEY_VERIFIED]) ? "verified" : "unverified");
	if (pt[ETHEREAL_PORT_A_SWITCH])
		printf(" switch %s via %s age %.1fs", sw_id, sw_mac,
		       attr_num(pt[ETHEREAL_PORT_A_SWITCH_AGE]) / 1e3);
	if (ctl.details)
		printf(" index %u", (unsigned int)attr_num(pt[ETHEREAL_PORT_A_IFINDEX]));
	putchar('\n');
	if (ctl.stats)
		stats_print(pt[ETHEREAL_PORT_A_STATS], "    ");
	return MNL_CB_OK;
}

static int port_show(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	if (argc > 0 && matches(argv[0], "dev")) {
		const char *port = next_arg(&argc, &argv, "a port");

		if (argc > 1)
			usage_fail("port show: unexpected argument '%s'", argv[1]);
		ctl_open();
		nlh = ctl_msg(buf, ETHEREAL_CMD_PORT_GET, 0);
		nest = mnl_attr_nest_start(nlh, ETHEREAL_A_PORT);
		mnl_attr_put_u32(nlh, ETHEREAL_PORT_A_IFINDEX, ifindex_of(port));
		mnl_attr_nest_end(nlh, nest);
		ctl_talk(nlh, port_cb, NULL, port);
		return 0;
	}
	if (argc > 1)
		usage_fail("port show: unexpected argument '%s'", argv[1]);
	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_PORT_GET, NLM_F_DUMP);
	if (argc == 1)
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(argv[0]));
	ctl_talk(nlh, port_cb, NULL, argc == 1 ? argv[0] : "port show");
	return 0;
}

/*
 * A link key from PATH ("-": standard input), 16 to 64 bytes in hex: from
 * a file, as wg(8) takes keys, not from the command line, where ps(1)
 * would show it.
 */
static size_t read_key(const char *path, uint8_t *key)
{
	char text[2 * ETHEREAL_KEY_MAX + 2];
	size_t n = 0, i;
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;

	if (!f)
		usage_fail("key %s: %s", path, strerror(errno));
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	if (f != stdin)
		fclose(f);
	text[strcspn(text, " \t\r\n")] = '\0';
	for (i = 0; text[i] && n < ETHEREAL_KEY_MAX; i += 2, n++) {
		unsigned int b;

		if (!isxdigit((unsigned char)text[i]) || !isxdigit((unsigned char)text[i + 1]) ||
		    sscanf(text + i, "%2x", &b) != 1)
			break;
		key[n] = (uint8_t)b;
	}
	if (text[i] || n < ETHEREAL_KEY_MIN) {
		explicit_bzero(text, sizeof(text));
		usage_fail("key %s: must hold %u to %u bytes in hex on its first line", path,
			   ETHEREAL_KEY_MIN, ETHEREAL_KEY_MAX);
	}
	explicit_bzero(text, sizeof(text));
	return n;
}

static int port_set(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *port = NULL, *v;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int role = -1, have_conns = 0, have_rate = 0, have_key = 0;
	uint8_t key[ETHEREAL_KEY_MAX];
	size_t key_len = 0;
	uint64_t host_rate = 0;
	unsigned long host_conns = 0;
	char *end;

	for (; argc > 0; argc--, argv++) {
		if (matches(argv[0], "dev")) {
			port = next_arg(&argc, &argv, "a port");
		} else if (matches(argv[0], "role")) {
			const char *r = next_arg(&argc, &argv, "peripheral or trunk");

			if (matches(r, "peripheral"))
				role = ETHEREAL_PORT_PERIPHERAL;
			else if (matches(r, "trunk"))
				role = ETHEREAL_PORT_TRUNK;
			else
				usage_fail("role '%s': must be peripheral or trunk", r);
		} else if (matches(argv[0], "host-conns")) {
			v = next_arg(&argc, &argv, "a number (0: no quota)");
			host_conns = strtoul(v, &end, 0);
			if (*v == '-' || *end || host_conns > ETHEREAL_MAX_CONNS_MAX)
				usage_fail("host-conns '%s': must be 0 (no quota) to %u", v,
					   (unsigned int)ETHEREAL_MAX_CONNS_MAX);
			have_conns = 1;
		} else if (matches(argv[0], "host-rate")) {
			v = next_arg(&argc, &argv, "a rate (0: no quota)");
			if (strcmp(v, "0") && parse_conn_rate(v, &host_rate))
				usage_fail("host-rate '%s': must be 0 (no quota) or "
					   CONN_RATE_RANGE, v);
			have_rate = 1;
		} else if (matches(argv[0], "key")) {
			v = next_arg(&argc, &argv, "a key file, or off");
			key_len = strcmp(v, "off") ? read_key(v, key) : 0;
			have_key = 1;
		} else {
			usage_fail("port set: unknown argument '%s'", argv[0]);
		}
	}
	if (!port)
		usage_fail("port set needs 'dev PORT'");
	if (role < 0 && !have_conns && !have_rate && !have_key)
		usage_fail("port set: nothing to change (role, host-conns, host-rate, key)");
	ctl_open();
	nlh = ctl_msg(buf, ETHEREAL_CMD_PORT_SET, 0);
	nest = mnl_attr_nest_start(nlh, ETHEREAL_A_PORT);
	mnl_attr_put_u32(nlh, ETHEREAL_PORT_A_IFINDEX, ifindex_of(port));
	if (role >= 0)
		mnl_attr_put_u8(nlh, ETHEREAL_PORT_A_ROLE, (uint8_t)role);
	if (have_conns)
		mnl_attr_put_u32(nlh, ETHEREAL_PORT_A_HOST_CONNS, (uint32_t)host_conns);
	if (have_rate)
		mnl_attr_put_u64(nlh, ETHEREAL_PORT_A_HOST_RATE, host_rate);
	if (have_key)
		mnl_attr_put(nlh, ETHEREAL_PORT_A_KEY, key_len, key);
	mnl_attr_nest_end(nlh, nest);
	explicit_bzero(key, sizeof(key));
	ctl_talk(nlh, NULL, NULL, port);
	explicit_bzero(buf, sizeof(buf));
	return 0;
}

static const char *const port_words[] = { "show", "list", "set", "help", NULL };

int do_port(int argc, char **argv)
{
	const char *cmd = object_command("port", port_words, "show or set", argc, argv);

	if (!cmd)
		return 0;
	if (!strcmp(cmd, "set"))
		return port_set(argc - 1, argv + 1);
	return port_show(argc ? argc - 1 : 0, argv + (argc ? 1 : 0));
}
