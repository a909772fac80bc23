// SPDX-License-Identifier: GPL-2.0
/*
 * What happens to the interface, its routes and neighbours, through
 * libnl-route's cache manager (its caches and change notifications are
 * what a daemon watching links, routes and neighbours needs; rtcd's own
 * requests stay on libmnl, netlink.c). `ip link set dev eth0 down` flushes
 * the proxy route and every neighbour entry, permanent ones included; an
 * operator may delete one by hand. rtcd puts back what it owns, once per
 * batch of notifications (watch_restore()), tells its clients when the link
 * goes down and comes back, and refreshes every connection at once when it
 * is back, so that a switch that lost them says so now, not a third of a
 * lifetime later.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/epoll.h>
#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>
#include <netlink/cache.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/route.h>

#include "rtcd.h"

static struct nl_cache_mngr *mngr;
static struct nl_cache *links;
/*
 * What to put back after this batch: everything when the link comes back
 * (going down flushed it all); else only what was deleted, one entry at a
 * time, so that the cost of an event does not grow with the connections.
 */
static bool restore_all, restore_route, restore_ctl;
static struct idmap restore_ids;

static bool link_is_up(struct rtnl_link *l)
{
	unsigned int flags = rtnl_link_get_flags(l);

	return (flags & IFF_UP) && (flags & IFF_RUNNING);
}

static void on_link(struct nl_cache *c, struct nl_object *o, int action, void *arg)
{
	struct rtnl_link *l = (struct rtnl_link *)o;
	bool up;

	(void)c;
	(void)arg;
	if (rtnl_link_get_ifindex(l) != rtcd.ifindex)
		return;
	if (action == NL_ACT_DEL) {
		log_msg("%s is gone: exiting", rtcd.ifname);
		rtcd.stopping = true;
		return;
	}
	up = link_is_up(l);
	if (up == rtcd.link_up)
		return;
	rtcd.link_up = up;
	log_msg("%s: link %s", rtcd.ifname, up ? "up" : "down");
	conn_link_changed(up);
	if (up)
		restore_all = true;
}

/* Our route gone: put back after this batch. */
static void on_route(struct nl_cache *c, struct nl_object *o, int action, void *arg)
{
	(void)c;
	(void)arg;
	if (action == NL_ACT_DEL &&
	    rtnl_route_get_protocol((struct rtnl_route *)o) == RTPROT_ETHEREAL)
		restore_route = true;
}

/* A neighbour entry of ours deleted: the control IP's, or a proxy's. */
static void on_neigh(struct nl_cache *c, struct nl_object *o, int action, void *arg)
{
	struct rtnl_neigh *n = (struct rtnl_neigh *)o;
	struct nl_addr *dst = rtnl_neigh_get_dst(n);
	uint32_t ip;
	uint16_t id;

	(void)c;
	(void)arg;
	if (action != NL_ACT_DEL || rtnl_neigh_get_ifindex(n) != rtcd.ifindex || !dst ||
	    nl_addr_get_family(dst) != AF_INET || nl_addr_get_len(dst) != sizeof(ip))
		return;
	memcpy(&ip, nl_addr_get_binary_addr(dst), sizeof(ip));
	if (ip == rtcd.ctl_ip)
		restore_ctl = true;
	else if (prefix_conn_id(&rtcd.prefix, ntohl(ip), &id))
		idmap_mark(&restore_ids, id);
}

/* A new address: the switch learns hosts from ARP. */
static void on_addr(struct nl_cache *c, struct nl_object *o, int action, void *arg)
{
	(void)c;
	(void)arg;
	if (action == NL_ACT_NEW && rtnl_addr_get_ifindex((struct rtnl_addr *)o) == rtcd.ifindex)
		arp_announce(0);
}

static void on_ready(struct rtcd_ev *ev, uint32_t events)
{
	int err;

	(void)ev;
	(void)events;
	err = nl_cache_mngr_data_ready(mngr);
	if (err < 0)
		log_msg("watching %s: %s", rtcd.ifname, nl_geterror(err));
}

int watch_open(void)
{
	static const struct {
		const char *name;
		change_func_t fn;
	} caches[] = {
		{ "route/route", on_route }, { "route/neigh", on_neigh },
		{ "route/addr", on_addr },
	};
	struct rtnl_link *l;
	unsigned int i;
	int err;

	err = nl_cache_mngr_alloc(NULL, NETLINK_ROUTE, NL_AUTO_PROVIDE, &mngr);
	if (!err)
		err = nl_cache_mngr_add(mngr, "route/link", on_link, NULL, &links);
	for (i = 0; !err && i < sizeof(caches) / sizeof(caches[0]); i++)
		err = nl_cache_mngr_add(mngr, caches[i].name, caches[i].fn, NULL, NULL);
	if (err) {
		log_msg("cannot watch %s's links, routes and neighbours: %s", rtcd.ifname,
			nl_geterror(err));
		return -1;
	}
	idmap_init(&restore_ids);
	l = rtnl_link_get(links, rtcd.ifindex);
	rtcd.link_up = l && link_is_up(l);
	rtnl_link_put(l);
	if (!rtcd.link_up)
		log_msg("%s: link down at start", rtcd.ifname);
	rtcd.watch.fd = nl_cache_mngr_get_fd(mngr);
	rtcd.watch.fn = on_ready;
	if (ev_add(&rtcd.watch, EPOLLIN)) {
		log_msg("epoll: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void watch_close(void)
{
	/* The manager owns its socket: out of the epoll set with it. */
	if (rtcd.watch.fd >= 0)
		epoll_ctl(rtcd.epfd, EPOLL_CTL_DEL, rtcd.watch.fd, NULL);
	rtcd.watch.fd = -1;
	rtcd.watch.fn = NULL;
	nl_cache_mngr_free(mngr);
	mngr = NULL;
	links = NULL;
}

void watch_restore(void)
{
	char s[INET_ADDRSTRLEN];
	uint32_t oif, id;
	int err;

	if (!(restore_all || restore_route || restore_ctl || restore_ids.count) ||
	    !rtcd.link_up || rtcd.stopping)
		return;
	if ((restore_all || restore_route) && rtcd.route_ours &&
	    rnl_route_oif(&oif) == -ENOENT) {
		err = rnl_route_add();
		log_msg("the proxy prefix's route was gone: %s",
			err ? rnl_strerror(err) : "put back");
	}
	if ((restore_all || restore_ctl) && rtcd.ctl_neigh &&
	    rnl_neigh_ours(rtcd.ctl_ip, ETHEREAL_ID_SIGNAL) == 0) {
		format_ip(rtcd.ctl_ip, s);
		err = rnl_neigh_add(rtcd.ctl_ip, ETHEREAL_ID_SIGNAL);
		log_msg("the neighbour entry of the control IP %s was gone: %s", s,
			err ? rnl_strerror(err) : "put back");
	}
	if (restore_all) {
		conn_restore_neigh(-1);
		arp_announce(0);
	} else if (restore_ids.count) {
		for (id = ETHEREAL_ID_MIN; id <= ETHEREAL_ID_MAX; id++)
			if (idmap_used(&restore_ids, (uint16_t)id))
				conn_restore_neigh((int)id);
	}
	restore_all = restore_route = restore_ctl = false;
	idmap_init(&restore_ids);
}
