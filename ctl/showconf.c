// SPDX-License-Identifier: GPL-2.0
/*
 * etherealctl showconf [ BRIDGE ]: the configuration an operator gave each
 * switch, as the commands that recreate it, for etherealctl -batch (as
 * `wg showconf` for `wg setconf`). Only what etherealctl sets: attach, the
 * lifetime, each port's role and host quota, static neighbours and static
 * connections. Signaled connections and learned neighbours are the
 * network's state, not configuration: they come back by themselves, and
 * replayed they would be installed as static. The qdiscs are tc's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "ids.h"
#include "units.h"

struct conf_switch {
	uint32_t ifindex;
	uint32_t lifetime_ms;
	char name[IF_NAMESIZE];
};

struct conf_list {
	struct conf_switch *sw;
	size_t n, cap;
};

/*
 * NAME as a word of a batch file (lib/cmdline.h): as it is, unless it
 * would read otherwise (a quote or # first, a backslash last), then in
 * quotes. Device names hold no blanks; one with both quotes cannot be
 * written (there is no escape).
 */
static const char *conf_word(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (n && !strchr("#'\"", name[0]) && name[n - 1] != '\\')
		return name;
	if (!strchr(name, '"'))
		snprintf(buf, len, "\"%s\"", name);
	else if (!strchr(name, '\''))
		snprintf(buf, len, "'%s'", name);
	else
		fail("showconf: device name %s has both quotes: it cannot be "
		     "written in a batch file", name);
	return buf;
}

#define WORD_SIZE (IF_NAMESIZE + 2)

static int conf_switch_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	struct conf_list *list = data;
	struct conf_switch *sw;
	const char *name;

	attr_table(nlh, tb);
	name = switch_name(tb);
	if (list->n == list->cap) {
		size_t cap = list->cap ? 2 * list->cap : 16;

		sw = realloc(list->sw, cap * sizeof(*sw));
		if (!sw) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		list->sw = sw;
		list->cap = cap;
	}
	sw = &list->sw[list->n++];
	sw->ifindex = mnl_attr_get_u32(tb[ETHEREAL_A_IFINDEX]);
	sw->lifetime_ms = tb[ETHEREAL_A_LIFETIME] ? mnl_attr_get_u32(tb[ETHEREAL_A_LIFETIME]) :
						    ETHEREAL_LIFETIME_DEFAULT_MS;
	snprintf(sw->name, sizeof(sw->name), "%s", name);
	return MNL_CB_OK;
}

/* Every port, with all its settings: the replay resets a port's too. */
static int conf_port_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *pt[ETHEREAL_PORT_A_MAX + 1];
	char word[WORD_SIZE], rate[32] = "0";
	uint64_t host_rate;

	(void)data;
	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_PORT], pt, &ethereal_port_attrs);
	host_rate = attr_num(pt[ETHEREAL_PORT_A_HOST_RATE]);
	if (host_rate)
		format_rate_exact(host_rate, rate, sizeof(rate));
	printf("port set dev %s role %s host-conns %u host-rate %s\n",
	       conf_word(mnl_attr_get_str(pt[ETHEREAL_PORT_A_IFNAME]), word, sizeof(word)),
	       role_name((uint8_t)attr_num(pt[ETHEREAL_PORT_A_ROLE])),
	       (unsigned int)attr_num(pt[ETHEREAL_PORT_A_HOST_CONNS]), rate);
	return MNL_CB_OK;
}

/* Static entries only: learned ones are ARP's. */
static int conf_neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *nt[ETHEREAL_NEIGH_A_MAX + 1];
	char word[WORD_SIZE], ip[INET_ADDRSTRLEN], mac[18];

	(void)data;
	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_NEIGH], nt, &ethereal_neigh_attrs);
	if (!nt[ETHEREAL_NEIGH_A_STATIC])
		return MNL_CB_OK;
	inet_ntop(AF_INET, mnl_attr_get_payload(nt[ETHEREAL_NEIGH_A_ADDR]), ip, sizeof(ip));
	format_mac(mnl_attr_get_payload(nt[ETHEREAL_NEIGH_A_LLADDR]), mac, sizeof(mac));
	printf("neigh add %s lladdr %s dev %s\n", ip, mac,
	       conf_word(mnl_attr_get_str(nt[ETHEREAL_NEIGH_A_IFNAME]), word, sizeof(word)));
	return MNL_CB_OK;
}

/* Static connections only, every value given: the kernel's defaults may change. */
static int conf_conn_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	const struct nlattr *c[ETHEREAL_CONN_A_MAX + 1];
	char in[WORD_SIZE], out[WORD_SIZE], id[8], outid[8], mac[18], rate[32], burst[32];
	char daddr[INET_ADDRSTRLEN];
	const char *out_name;

	(void)data;
	attr_table(nlh, tb);
	nest_table(tb[ETHEREAL_A_CONN], c, &ethereal_conn_attrs);
	if (c[ETHEREAL_CONN_A_ORIGIN] &&
	    mnl_attr_get_u8(c[ETHEREAL_CONN_A_ORIGIN]) != ETHEREAL_ORIGIN_STATIC)
		return MNL_CB_OK;
	out_name = conn_out(c);
	format_conn_id(mnl_attr_get_u16(c[ETHEREAL_CONN_A_IN_ID]), id, sizeof(id));
	format_rate_exact(mnl_attr_get_u64(c[ETHEREAL_CONN_A_RATE]), rate, sizeof(rate));
	printf("conn add dev %s id %s out %s",
	       conf_word(mnl_attr_get_str(c[ETHEREAL_CONN_A_IN_IFNAME]), in, sizeof(in)), id,
	       conf_word(out_name, out, sizeof(out)));
	if (c[ETHEREAL_CONN_A_OUT_MAC]) {
		format_mac(mnl_attr_get_payload(c[ETHEREAL_CONN_A_OUT_MAC]), mac, sizeof(mac));
		printf(" lladdr %s", mac);
	} else {
		format_conn_id(mnl_attr_get_u16(c[ETHEREAL_CONN_A_OUT_ID]), outid, sizeof(outid));
		printf(" outid %s", outid);
	}
	printf(" rate %s", rate);
	if (c[ETHEREAL_CONN_A_BURST]) {
		format_size(mnl_attr_get_u32(c[ETHEREAL_CONN_A_BURST]), burst, sizeof(burst));
		printf(" burst %s", burst);
	}
	if (c[ETHEREAL_CONN_A_MAX_PKT])
		printf(" maxpkt %u", mnl_attr_get_u32(c[ETHEREAL_CONN_A_MAX_PKT]));
	if (c[ETHEREAL_CONN_A_DADDR]) {
		uint32_t a = mnl_attr_get_u32(c[ETHEREAL_CONN_A_DADDR]);

		inet_ntop(AF_INET, &a, daddr, sizeof(daddr));
		printf(" daddr %s", daddr);
	}
	if (c[ETHEREAL_CONN_A_SWAP])
		printf(" swap");
	putchar('\n');
	return MNL_CB_OK;
}

/* A dump of CMD for the switch IFINDEX, each reply to CB. */
static void conf_dump(uint8_t cmd, uint32_t ifindex, mnl_cb_t cb, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = ctl_msg(buf, cmd, NLM_F_DUMP);

	mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex);
	ctl_talk(nlh, cb, NULL, what);
}

static void conf_lifetime(uint32_t ms, char *buf, size_t len)
{
	if (ms % 1000)
		snprintf(buf, len, "%ums", ms);
	else
		snprintf(buf, len, "%us", ms / 1000);
}

int switch_showconf(const char *bridge)
{
	/* Kept from one call to the next: a failure ends a call anywhere. */
	static struct conf_list list;
	char buf[MNL_SOCKET_BUFFER_SIZE], word[WORD_SIZE], life[16];
	struct nlmsghdr *nlh;
	size_t i;

	if (ctl.json)
		usage_fail("showconf writes commands for -batch, not JSON");
	ctl_open();
	list.n = 0;
	if (bridge) {
		nlh = ctl_msg(buf, ETHEREAL_CMD_SWITCH_GET, 0);
		mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, ifindex_of(bridge));
	} else {
		nlh = ctl_msg(buf, ETHEREAL_CMD_SWITCH_GET, NLM_F_DUMP);
	}
	ctl_talk(nlh, conf_switch_cb, &list, bridge ? bridge : "showconf");
	for (i = 0; i < list.n; i++) {
		const struct conf_switch *sw = &list.sw[i];
		const char *name = conf_word(sw->name, word, sizeof(word));

		conf_lifetime(sw->lifetime_ms, life, sizeof(life));
		printf("%s# switch %s\nattach %s\nset %s lifetime %s\n",
		       i ? "\n" : "", name, name, name, life);
		conf_dump(ETHEREAL_CMD_PORT_GET, sw->ifindex, conf_port_cb, sw->name);
		conf_dump(ETHEREAL_CMD_NEIGH_GET, sw->ifindex, conf_neigh_cb, sw->name);
		conf_dump(ETHEREAL_CMD_CONN_GET, sw->ifindex, conf_conn_cb, sw->name);
	}
	return 0;
}
