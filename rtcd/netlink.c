// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbour entries and the proxy route, through rtnetlink (lib/nl.c over
 * libmnl). Everything rtcd installs is marked RTPROT_ETHEREAL (neighbours'
 * NDA_PROTOCOL, the route's rtm_protocol), so that at start it finds and
 * removes what an earlier instance on the interface left behind.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethereal.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "nl.h"
#include "rtcd.h"

static struct enl_sock rtnl;

int rnl_open(void)
{
	int err = enl_open(&rtnl, NETLINK_ROUTE);

	if (err)
		log_msg("cannot open rtnetlink: %s", strerror(-err));
	return err;
}

void rnl_close(void)
{
	enl_close(&rtnl);
}

const char *rnl_strerror(int err)
{
	if (rtnl.errmsg[0])
		return rtnl.errmsg;
	if (err == -EPERM)
		return "Operation not permitted (needs CAP_NET_ADMIN)";
	return strerror(-err);
}

/* Zeroed first: libmnl leaves attributes' padding as it finds it. */
static struct nlmsghdr *rnl_msg(void *buf, uint16_t type, uint16_t flags)
{
	memset(buf, 0, MNL_SOCKET_BUFFER_SIZE);
	return enl_msg(&rtnl, buf, type, flags);
}

static struct nlmsghdr *neigh_msg(void *buf, uint16_t type, uint16_t flags, uint32_t ip)
{
	struct nlmsghdr *nlh = rnl_msg(buf, type, flags);
	struct ndmsg *nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));

	nd->ndm_family = AF_INET;
	nd->ndm_ifindex = rtcd.ifindex;
	mnl_attr_put(nlh, NDA_DST, 4, &ip);
	return nlh;
}

int rnl_neigh_add(uint32_t ip, uint16_t mac_id)
{
	const uint8_t mac[6] = { 0xff, 0xff, 0xff, 0xff, mac_id >> 8, mac_id & 0xff };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = neigh_msg(buf, RTM_NEWNEIGH,
					 NLM_F_CREATE | NLM_F_REPLACE, ip);
	struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);

	nd->ndm_state = NUD_PERMANENT;
	nd->ndm_type = RTN_UNICAST;
	mnl_attr_put(nlh, NDA_LLADDR, sizeof(mac), mac);
	mnl_attr_put_u8(nlh, NDA_PROTOCOL, RTPROT_ETHEREAL);
	return enl_talk(&rtnl, nlh, NULL, NULL);
}

int rnl_neigh_del(uint32_t ip)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return enl_talk(&rtnl, neigh_msg(buf, RTM_DELNEIGH, 0, ip), NULL, NULL);
}

static struct nlmsghdr *route_msg(void *buf, uint16_t type, uint16_t flags,
				  uint32_t dst, uint8_t len, uint32_t table)
{
	struct nlmsghdr *nlh = rnl_msg(buf, type, flags);
	struct rtmsg *rt = mnl_nlmsg_put_extra_header(nlh, sizeof(*rt));

	rt->rtm_family = AF_INET;
	rt->rtm_dst_len = len;
	rt->rtm_table = table < 256 ? (uint8_t)table : RT_TABLE_UNSPEC;
	rt->rtm_protocol = RTPROT_ETHEREAL;
	rt->rtm_scope = RT_SCOPE_LINK;
	rt->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, 4, &dst);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)rtcd.ifindex);
	mnl_attr_put_u32(nlh, RTA_TABLE, table);
	return nlh;
}

int rnl_route_add(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	/* EXCL: a route someone else made for the prefix stays theirs. */
	return enl_talk(&rtnl, route_msg(buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL,
					htonl(rtcd.prefix.base), (uint8_t)rtcd.prefix.len,
					RT_TABLE_MAIN), NULL, NULL);
}

int rnl_route_del(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return enl_talk(&rtnl, route_msg(buf, RTM_DELROUTE, 0, htonl(rtcd.prefix.base),
					(uint8_t)rtcd.prefix.len, RT_TABLE_MAIN),
		       NULL, NULL);
}

/* ---- leftovers of an earlier instance ---- */

struct leftover {
	uint32_t dst;
	uint8_t len;		/* routes */
	uint32_t table;
	int id;			/* neighbours: the connection ID of its MAC, or -1 */
};

struct leftovers {
	struct leftover *v;
	size_t n, cap;
	int err;
};

static void keep(struct leftovers *l, uint32_t dst, uint8_t len, uint32_t table, int id)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct leftover *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->err = -ENOMEM;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct leftover){ dst, len, table, id };
}

/*
 * rtnetlink's neighbours and routes, without a policy: their attributes
 * are checked where read (attr_u32(), attr_ours(), NDA_LLADDR's length),
 * a malformed one making its entry someone else's.
 */
static const struct enl_attrs nda_attrs = { "neighbour", NDA_MAX, NULL };
static const struct enl_attrs rta_attrs = { "route", RTA_MAX, NULL };

/* A 4-byte attribute's value (addresses are kept in network byte order). */
static bool attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

static bool attr_ours(const struct nlattr *proto)
{
	return proto && mnl_attr_validate(proto, MNL_TYPE_U8) == 0 &&
	       mnl_attr_get_u8(proto) == RTPROT_ETHEREAL;
}

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	static const uint8_t conn_mac[4] = { 0xff, 0xff, 0xff, 0xff };
	const struct nlattr *tb[NDA_MAX + 1];
	const uint8_t *mac;
	uint32_t dst;
	int id = -1;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*nd) ||
	    nd->ndm_family != AF_INET || nd->ndm_ifindex != rtcd.ifindex)
		return MNL_CB_OK;
	enl_attr_table(nlh, sizeof(*nd), &nda_attrs, tb, NULL);
	if (!attr_ours(tb[NDA_PROTOCOL]) || !attr_u32(tb[NDA_DST], &dst))
		return MNL_CB_OK;
	/* FF:FF:FF:FF:X:Y: the ID, whatever prefix the earlier rtcd had. */
	if (tb[NDA_LLADDR] && mnl_attr_get_payload_len(tb[NDA_LLADDR]) == 6) {
		mac = mnl_attr_get_payload(tb[NDA_LLADDR]);
		if (!memcmp(mac, conn_mac, sizeof(conn_mac)))
			id = mac[4] << 8 | mac[5];
	}
	keep(data, dst, 32, 0, id);
	return MNL_CB_OK;
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[RTA_MAX + 1];
	uint32_t oif, table, dst = 0;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*rt) ||
	    rt->rtm_family != AF_INET || rt->rtm_protocol != RTPROT_ETHEREAL)
		return MNL_CB_OK;
	enl_attr_table(nlh, sizeof(*rt), &rta_attrs, tb, NULL);
	if (!attr_u32(tb[RTA_OIF], &oif) || oif != (uint32_t)rtcd.ifindex)
		return MNL_CB_OK;
	if (!attr_u32(tb[RTA_TABLE], &table))
		table = rt->rtm_table;
	/* Absent: the default route; malformed: not one to touch. */
	if (tb[RTA_DST] && !attr_u32(tb[RTA_DST], &dst))
		return MNL_CB_OK;
	keep(data, dst, rt->rtm_dst_len, table, -1);
	return MNL_CB_OK;
}

static int dump(uint16_t type, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = rnl_msg(buf, type, NLM_F_DUMP);

	if (type == RTM_GETNEIGH) {
		struct ndmsg *nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));

		nd->ndm_family = AF_INET;
	} else {
		struct rtmsg *rt = mnl_nlmsg_put_extra_header(nlh, sizeof(*rt));

		rt->rtm_family = AF_INET;
	}
	return enl_talk(&rtnl, nlh, cb, data);
}

static int dump_leftovers(uint16_t type, mnl_cb_t cb, struct leftovers *l)
{
	int err = dump(type, cb, l);

	return err ? err : l->err;
}

/* ---- an entry of ours, still? ---- */

struct neigh_find {
	uint32_t ip;
	uint8_t mac[6];
	int state;		/* 0: absent, 1: ours, 2: someone else's */
};

static int neigh_find_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[NDA_MAX + 1];
	struct neigh_find *f = data;
	uint32_t dst;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*nd) ||
	    nd->ndm_family != AF_INET || nd->ndm_ifindex != rtcd.ifindex)
		return MNL_CB_OK;
	enl_attr_table(nlh, sizeof(*nd), &nda_attrs, tb, NULL);
	if (!attr_u32(tb[NDA_DST], &dst) || dst != f->ip)
		return MNL_CB_OK;
	/* A replace that gives no protocol keeps ours: the MAC tells too. */
	f->state = attr_ours(tb[NDA_PROTOCOL]) && tb[NDA_LLADDR] &&
		   mnl_attr_get_payload_len(tb[NDA_LLADDR]) == sizeof(f->mac) &&
		   !memcmp(mnl_attr_get_payload(tb[NDA_LLADDR]), f->mac, sizeof(f->mac)) ? 1 : 2;
	return MNL_CB_OK;
}

int rnl_neigh_ours(uint32_t ip, uint16_t mac_id)
{
	struct neigh_find f = {
		.ip = ip, .mac = { 0xff, 0xff, 0xff, 0xff, mac_id >> 8, mac_id & 0xff },
	};
	int err = dump(RTM_GETNEIGH, neigh_find_cb, &f);

	return err ? err : f.state == 1;
}

/* ---- the proxy prefix's route, someone else's ---- */

struct prefix_route {
	uint32_t oif;		/* 0: none seen, or not through one interface */
	bool found;
};

static int prefix_route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[RTA_MAX + 1];
	struct prefix_route *p = data;
	uint32_t table, dst, prio = 0, oif = 0;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*rt) || rt->rtm_family != AF_INET ||
	    rt->rtm_dst_len != rtcd.prefix.len || rt->rtm_tos)
		return MNL_CB_OK;
	enl_attr_table(nlh, sizeof(*rt), &rta_attrs, tb, NULL);
	if (!attr_u32(tb[RTA_TABLE], &table))
		table = rt->rtm_table;
	if (tb[RTA_PRIORITY])
		attr_u32(tb[RTA_PRIORITY], &prio);
	/* The one our NLM_F_EXCL ran into: same table, prefix and metric. */
	if (table != RT_TABLE_MAIN || prio || !attr_u32(tb[RTA_DST], &dst) ||
	    dst != htonl(rtcd.prefix.base))
		return MNL_CB_OK;
	attr_u32(tb[RTA_OIF], &oif);	/* a multipath route has none */
	/* Of several (appended), one through another interface is what matters. */
	if (!p->found || p->oif == (uint32_t)rtcd.ifindex)
		p->oif = oif;
	p->found = true;
	return MNL_CB_OK;
}

int rnl_route_oif(uint32_t *oif)
{
	struct prefix_route p = { 0 };
	int err = dump(RTM_GETROUTE, prefix_route_cb, &p);

	*oif = p.oif;
	if (!err && !p.found)
		err = -ENOENT;
	return err;
}

int rnl_flush(struct idmap *left, const struct idmap *keep, bool *route_kept)
{
	struct leftovers neigh = { 0 }, route = { 0 };
	char buf[MNL_SOCKET_BUFFER_SIZE], ip[INET_ADDRSTRLEN];
	bool keeping = keep->count > 0;
	size_t i, gone = 0;
	int err;

	*route_kept = false;
	err = dump_leftovers(RTM_GETNEIGH, neigh_cb, &neigh);
	if (!err)
		err = dump_leftovers(RTM_GETROUTE, route_cb, &route);
	if (err) {
		log_msg("cannot list neighbours and routes: %s", rnl_strerror(err));
		goto out;
	}
	for (i = 0; i < neigh.n; i++) {
		int id = neigh.v[i].id;

		/* A connection taken back keeps its entry: its traffic goes on. */
		if (id >= ETHEREAL_ID_MIN && id <= ETHEREAL_ID_MAX && idmap_used(keep, (uint16_t)id) &&
		    neigh.v[i].dst == htonl(prefix_proxy(&rtcd.prefix, (uint16_t)id)))
			continue;
		err = rnl_neigh_del(neigh.v[i].dst);
		if (err && err != -ENOENT) {
			format_ip(neigh.v[i].dst, ip);
			log_msg("cannot remove the leftover neighbour entry of %s: %s",
				ip, rnl_strerror(err));
			goto out;
		}
		if (neigh.v[i].id >= ETHEREAL_ID_MIN && neigh.v[i].id <= ETHEREAL_ID_MAX)
			idmap_mark(left, (uint16_t)neigh.v[i].id);
		gone++;
	}
	for (i = 0; i < route.n; i++) {
		/* And their route, without which they would leave by the default one. */
		if (keeping && route.v[i].dst == htonl(rtcd.prefix.base) &&
		    route.v[i].len == rtcd.prefix.len && route.v[i].table == RT_TABLE_MAIN) {
			*route_kept = true;
			continue;
		}
		err = enl_talk(&rtnl, route_msg(buf, RTM_DELROUTE, 0, route.v[i].dst,
					       route.v[i].len, route.v[i].table), NULL, NULL);
		if (err && err != -ESRCH) {
			format_ip(route.v[i].dst, ip);
			log_msg("cannot remove the leftover route to %s/%u: %s",
				ip, route.v[i].len, rnl_strerror(err));
			goto out;
		}
		gone++;
	}
	err = 0;
	if (gone)
		log_msg("removed %zu entries an earlier rtcd left", gone);
out:
	free(neigh.v);
	free(route.v);
	return err;
}
