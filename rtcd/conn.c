// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: an ID from the link's map, a SETUP retransmitted every
 * 500 ms (same cookie) for up to 3 s, 1 s more for each PROCEEDING (8 at
 * most), then, once accepted, the proxy neighbour entry and a REFRESH
 * every third of the path's lifetime. One timerfd, set to the earliest of
 * the connections' deadlines (deadline.c), serves them all: a timerfd each
 * would run out of file descriptors at about a thousand connections. A
 * connection ends by its owner (close, exit, socket closed), by the switch
 * (TEARDOWN with F_REVERSE), or with rtcd (SIGTERM); the switch is told
 * with a TEARDOWN in every case but the second, since it may hold the
 * connection even if its ACCEPT was lost. One whose path was lost (expired,
 * a link down, refreshes unanswered) is "down", not ended: its owner holds
 * a socket connected to its proxy IP, so rtcd sets it up again on the same
 * ID for as long as the owner keeps it, backing off (conn_backoff()).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <linux/ethereal.h>

#include "clock.h"
#include "ids.h"
#include "rtcd.h"
#include "sigmsg.h"
#include "signames.h"

#define MS	1000000ULL

static void conn_name(const struct rtcd_conn *k, char *buf)
{
	format_conn_id(k->id, buf, 8);
}

static void proxy_str(uint16_t id, char *buf)
{
	format_ip(htonl(prefix_proxy(&rtcd.prefix, id)), buf);
}

/* Set the timerfd to the earliest deadline, or disarm it when there is none. */
static void timer_rearm(void)
{
	const struct deadline *d = deadlines_first(&rtcd.timers);
	struct itimerspec its = { 0 };
	uint64_t at = d ? d->at : 0;

	if (at == rtcd.timer_at || rtcd.timer.fd < 0)
		return;
	its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
	its.it_value.tv_nsec = (long)(at % 1000000000ULL);
	if (timerfd_settime(rtcd.timer.fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		log_msg("timerfd: %s", strerror(errno));
		return;
	}
	rtcd.timer_at = at;
}

/*
 * K's next deadline, MS from now, or its claim deadline if sooner (taken
 * back after a restart, unclaimed: conn_due() ends it then). Fails only to
 * queue K the first time.
 */
static int due_in(struct rtcd_conn *k, uint64_t ms)
{
	uint64_t at = now_ns() + ms * MS;

	if (!k->owner && k->adopt_by && k->adopt_by < at)
		at = k->adopt_by;
	if (deadline_set(&rtcd.timers, &k->due, at))
		return -1;
	timer_rearm();
	return 0;
}

static void send_type(const struct rtcd_conn *k, unsigned int type, unsigned int reason)
{
	struct ethereal_sig_msg m = {
		.type = (u8)type, .conn_id = k->id, .cookie = k->cookie,
	};

	if (type == ETHEREAL_SIG_SETUP) {
		m.present = ETHEREAL_SIG_SETUP_NEEDS;
		m.daddr = k->daddr;
		m.dport = k->dport;
		m.rate = k->rate;
		m.burst = k->burst;
		m.max_pkt = k->max_pkt;
		if (k->max_delay) {
			m.max_delay = k->max_delay;
			m.present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_MAX_DELAY);
		}
	} else if (type == ETHEREAL_SIG_TEARDOWN) {
		m.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON);
		m.reason = (u16)reason;
	}
	sig_send(&m);
}

/*
 * Forget K: its neighbour entry, ID and timer; with REASON, a TEARDOWN to
 * the switch first. Telling the owner is the caller's.
 */
static void conn_free(struct rtcd_conn *k, unsigned int reason)
{
	char id[8], ip[INET_ADDRSTRLEN];
	int err;

	conn_name(k, id);
	if (reason)
		send_type(k, ETHEREAL_SIG_TEARDOWN, reason);
	if (k->neigh) {
		err = rnl_neigh_del(htonl(prefix_proxy(&rtcd.prefix, k->id)));
		if (err) {
			proxy_str(k->id, ip);
			log_msg("%s: cannot remove the neighbour entry of %s: %s",
				id, ip, rnl_strerror(err));
		}
	}
	if (k->state == CONN_UP || k->resetup)
		state_forget(k->id);
	idmap_free(&rtcd.ids, k->id);
	rtcd.by_id[k->id] = NULL;
	LIST_REMOVE(k, all);
	if (k->owner) {
		LIST_REMOVE(k, owned);
		if (k->owner->waiting == k)
			client_done(k->owner);
	}
	deadline_cancel(&rtcd.timers, &k->due);
	timer_rearm();
	defer_free(k);
}

/* The owner learns of the end: an error answer to its open, or an event. */
static void conn_tell(struct rtcd_conn *k, const char *error, const char *message)
{
	char id[8];

	if (!k->owner)
		return;
	conn_name(k, id);
	if (k->owner->waiting == k)
		client_reply(k->owner, rtcd_error_reply(error, "%s", message));
	else
		client_event(k->owner, json_pack("{s:s, s:s, s:s, s:s}", "event", "teardown",
						"id", id, "error", error, "message", message));
}

/* A third of the path's lifetime: two refreshes may be lost. */
static uint64_t refresh_ms(const struct rtcd_conn *k)
{
	return k->lifetime_ms / 3 < 10 ? 10 : k->lifetime_ms / 3;
}

static uint32_t new_cookie(void)
{
	uint32_t c;

	if (getrandom(&c, sizeof(c), GRND_NONBLOCK) != sizeof(c))
		c = (uint32_t)now_ns() ^ (uint32_t)getpid();
	return c;
}

/* A fresh ID and cookie for K, its first SETUP and the retransmit timer. */
static int conn_start(struct rtcd_conn *k)
{
	int id = idmap_alloc(&rtcd.ids);

	if (id < 0)
		return -1;
	if (due_in(k, RTCD_RETRANSMIT_MS)) {
		idmap_free(&rtcd.ids, (uint16_t)id);
		return -1;
	}
	k->id = (uint16_t)id;
	k->cookie = new_cookie();
	k->setup_start = now_ns();
	k->proceeds = 0;
	rtcd.by_id[k->id] = k;
	send_type(k, ETHEREAL_SIG_SETUP, 0);
	return 0;
}

/* 0 if C may hold one more connection of RATE (rtcd.conf's limits), else -1, answered. */
static int conn_allowed(struct rtcd_client *c, uint64_t rate, uint64_t mask)
{
	struct rtcd_usage use[RTCD_LIMITS_MAX] = { 0 };
	const struct rtcd_conn *k;
	char msg[256];

	if (!mask)
		return 0;
	LIST_FOREACH(k, &rtcd.conns, all)
		policy_count(&rtcd.cfg, mask, c->cred.uid, k->limits, k->uid, k->rate, use);
	if (policy_check(&rtcd.cfg, mask, use, rate, msg, sizeof(msg)) < 0)
		return 0;
	log_msg("open refused to pid %d (uid %u): %s", (int)c->pid, c->cred.uid, msg);
	client_reply(c, rtcd_error_reply("limit", "%s", msg));
	return -1;
}

void conn_open(struct rtcd_client *c, const struct rtcd_req *r)
{
	uint64_t mask = policy_limits(&rtcd.cfg, &c->cred);
	char id[8], ip[INET_ADDRSTRLEN];
	struct rtcd_conn *k;

	if (conn_allowed(c, r->rate, mask))
		return;
	k = calloc(1, sizeof(*k));
	if (!k) {
		client_reply(c, rtcd_error_reply("no-memory", "rtcd is out of memory"));
		return;
	}
	k->owner = c;
	k->pid = c->pid;
	k->uid = c->cred.uid;
	k->limits = mask;
	k->daddr = r->daddr;
	k->dport = r->dport;
	k->rate = r->rate;
	k->burst = r->burst;
	k->max_pkt = r->max_pkt;
	k->max_delay = r->max_delay;
	k->state = CONN_PENDING;
	/* The switch takes setups only from hosts it has seen in ARP. */
	arp_announce(RTCD_GARP_EVERY_MS);
	if (idmap_full(&rtcd.ids)) {
		client_reply(c, rtcd_error_reply("no-id", "all connection IDs of %s are in use",
						 rtcd.ifname));
		free(k);
		return;
	}
	if (conn_start(k)) {
		client_reply(c, rtcd_error_reply("no-memory", "rtcd is out of memory"));
		free(k);
		return;
	}
	LIST_INSERT_HEAD(&rtcd.conns, k, all);
	LIST_INSERT_HEAD(&c->conns, k, owned);
	c->waiting = k;
	conn_name(k, id);
	format_ip(k->daddr, ip);
	log_debug("%s: setup to %s:%u for pid %d", id, ip, k->dport, (int)k->pid);
}

int conn_close_id(struct rtcd_client *c, uint16_t id)
{
	struct rtcd_conn *k = rtcd.by_id[id];
	char s[8];

	/*
	 * Its own, or its process's through another socket; pid 0 (another
	 * pid namespace) names no process: its socket alone owns.
	 */
	if (!k || (k->owner != c && (c->pid <= 0 || k->pid != c->pid)))
		return -1;
	conn_name(k, s);
	log_msg("%s: closed by pid %d", s, (int)c->pid);
	if (k->owner && k->owner != c)
		conn_tell(k, "requested", "closed by another socket of the process");
	conn_free(k, ETHEREAL_SIG_R_REQUESTED);
	return 0;
}

void conn_orphan_all(struct rtcd_client *c)
{
	struct rtcd_conn *k;
	char id[8];

	while ((k = LIST_FIRST(&c->conns))) {
		conn_name(k, id);
		log_msg("%s: owner pid %d is gone: tearing down", id, (int)c->pid);
		LIST_REMOVE(k, owned);
		k->owner = NULL;
		conn_free(k, ETHEREAL_SIG_R_REQUESTED);
	}
	c->waiting = NULL;
}

/* K, up until the switch lost it: SETUP again on its ID (K stays the owner's). */
static void conn_resetup(struct rtcd_conn *k, const char *why)
{
	char id[8];

	conn_name(k, id);
	log_msg("%s: %s: setting it up again", id, why);
	if (k->owner)
		client_event(k->owner, json_pack("{s:s, s:s, s:s}", "event", "down", "id", id,
						 "error", why));
	/* A switch restarted knows no host yet: it learns them from ARP. */
	arp_announce(0);
	k->state = CONN_PENDING;
	k->resetup = true;
	k->down_since = now_ns();
	k->downs++;
	k->down_error = why;
	/* Down, but a restarted rtcd takes it back so, for its owner. */
	state_save(k);
	k->backoff_ms = 0;
	k->cookie = new_cookie();
	k->setup_start = k->down_since;
	k->proceeds = 0;
	send_type(k, ETHEREAL_SIG_SETUP, 0);
	if (due_in(k, RTCD_RETRANSMIT_MS))
		conn_free(k, ETHEREAL_SIG_R_NO_MEMORY);
}

/*
 * The reasons a lost path may come back from by itself (a switch restarted,
 * a link back, bandwidth freed): a held connection is set up again after
 * them. The others say the request or its owner ends it.
 */
static bool conn_reason_final(unsigned int reason)
{
	return reason == ETHEREAL_SIG_R_INVALID || reason == ETHEREAL_SIG_R_REQUESTED ||
	       reason == ETHEREAL_SIG_R_REMOVED;
}

/*
 * K is down and its first window of retransmits is past: the next SETUP
 * after twice the last wait, from 1 s, up to its lifetime held within
 * 0.5-30 s, each +-25% at random so that the hosts of a switch that
 * restarted do not come back in step.
 */
static void conn_backoff(struct rtcd_conn *k)
{
	uint32_t cap = k->lifetime_ms, r;
	uint64_t wait;

	if (cap < RTCD_BACKOFF_MIN_MS)
		cap = RTCD_BACKOFF_MIN_MS;
	if (cap > RTCD_BACKOFF_MAX_MS)
		cap = RTCD_BACKOFF_MAX_MS;
	k->backoff_ms = k->backoff_ms ? 2 * k->backoff_ms : 2 * RTCD_RETRANSMIT_MS;
	if (k->backoff_ms > cap)
		k->backoff_ms = cap;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint32_t)now_ns();
	/* backoff x (0.75 + r / 2^33): a quarter either way */
	wait = (uint64_t)k->backoff_ms * 3 / 4 + (((uint64_t)k->backoff_ms * r) >> 33);
	due_in(k, wait);
}

/*
 * K is down and refused for now, or its SETUP lost on the way: into the
 * backoff, unless it is there already (its next SETUP is timed: a refusal
 * of each would double the wait twice).
 */
static void conn_refused(struct rtcd_conn *k, const char *why)
{
	k->down_error = why;
	if (!k->backoff_ms)
		conn_backoff(k);
}

void conn_link_changed(bool up)
{
	struct rtcd_client *c;
	struct rtcd_conn *k;

	LIST_FOREACH(c, &rtcd.clients, all)
		if (!LIST_EMPTY(&c->conns))
			client_event(c, json_pack("{s:s, s:s, s:b}", "event", "link",
						  "ifname", rtcd.ifname, "up", up));
	if (!up)
		return;
	/*
	 * Back: whatever a switch lost answers this REFRESH with "expired";
	 * a connection down tries at once.
	 */
	LIST_FOREACH(k, &rtcd.conns, all) {
		if (k->state == CONN_UP) {
			send_type(k, ETHEREAL_SIG_REFRESH, 0);
			due_in(k, refresh_ms(k));
		} else if (k->resetup) {
			/* One SETUP now; its schedule (and jitter) goes on. */
			send_type(k, ETHEREAL_SIG_SETUP, 0);
		}
	}
}

/* K's neighbour entry, if it had one that is gone. */
static void conn_restore_one(struct rtcd_conn *k)
{
	char id[8], ip[INET_ADDRSTRLEN];
	uint32_t proxy;
	int err;

	if (!k->neigh)
		return;
	proxy = htonl(prefix_proxy(&rtcd.prefix, k->id));
	if (rnl_neigh_ours(proxy, k->id) != 0)
		return;
	err = rnl_neigh_add(proxy, k->id);
	conn_name(k, id);
	proxy_str(k->id, ip);
	log_msg("%s: the neighbour entry of %s was gone: %s", id, ip,
		err ? rnl_strerror(err) : "put back");
}

void conn_restore_neigh(int id)
{
	struct rtcd_conn *k;

	if (id >= 0) {
		if (rtcd.by_id[id])
			conn_restore_one(rtcd.by_id[id]);
		return;
	}
	LIST_FOREACH(k, &rtcd.conns, all)
		conn_restore_one(k);
}

unsigned int conn_handover(void)
{
	struct rtcd_conn *k, *next;
	unsigned int n = 0;
	char id[8];

	for (k = LIST_FIRST(&rtcd.conns); k; k = next) {
		next = LIST_NEXT(k, all);
		/*
		 * A first setup, or its process gone: nothing for a new rtcd
		 * to give back. Down is kept: its file says so.
		 */
		if ((k->state != CONN_UP && !k->resetup) || (!k->owner && !k->adopt_by))
			continue;
		conn_name(k, id);
		log_debug("%s: left for the next rtcd", id);
		/* Its file, its neighbour entry and the switches' state stay. */
		if (k->owner)
			LIST_REMOVE(k, owned);
		rtcd.by_id[k->id] = NULL;
		idmap_free(&rtcd.ids, k->id);
		LIST_REMOVE(k, all);
		deadline_cancel(&rtcd.timers, &k->due);
		defer_free(k);
		n++;
	}
	return n;
}

void conn_take_back(struct rtcd_conn_list *saved)
{
	struct rtcd_conn *k;
	struct rtcd_cred cr;
	char id[8], ip[INET_ADDRSTRLEN];
	int err;

	while ((k = LIST_FIRST(saved))) {
		LIST_REMOVE(k, all);
		conn_name(k, id);
		proxy_str(k->id, ip);
		err = rnl_neigh_add(htonl(prefix_proxy(&rtcd.prefix, k->id)), k->id);
		if (err) {
			log_msg("%s: cannot restore the neighbour entry of %s: %s", id, ip,
				rnl_strerror(err));
			send_type(k, ETHEREAL_SIG_TEARDOWN, ETHEREAL_SIG_R_NO_MEMORY);
			free(k);
			continue;
		}
		k->neigh = true;
		k->state = CONN_UP;
		if (k->resetup) {
			/* Down when the last rtcd stopped: set up again, a first window anew. */
			k->state = CONN_PENDING;
			k->down_since = now_ns();
			k->down_error = "rtcd-restarted";
			k->cookie = new_cookie();
			k->setup_start = k->down_since;
		}
		memset(&cr, 0, sizeof(cr));
		cr.uid = k->uid;
		cr.gid = (gid_t)-1;
		k->limits = policy_limits(&rtcd.cfg, &cr);
		k->adopt_by = now_ns() + RTCD_ADOPT_MS * MS;
		idmap_mark(&rtcd.ids, k->id);
		rtcd.by_id[k->id] = k;
		LIST_INSERT_HEAD(&rtcd.conns, k, all);
		state_save(k);
		/* How long the switches went unrefreshed is unknown: at once. */
		send_type(k, k->resetup ? ETHEREAL_SIG_SETUP : ETHEREAL_SIG_REFRESH, 0);
		if (due_in(k, k->resetup ? RTCD_RETRANSMIT_MS : refresh_ms(k))) {
			conn_free(k, ETHEREAL_SIG_R_NO_MEMORY);
			continue;
		}
		log_msg("%s: taken back from the last rtcd%s, proxy %s: pid %d has %d ms "
			"to claim it", id, k->resetup ? " (down: setting it up again)" : "", ip,
			(int)k->pid, RTCD_ADOPT_MS);
	}
}

/*
 * What an open or adopt answers, and status shows, of an up connection:
 * the contract (rate, the burst the switches police to, max_pkt) and the
 * path's delay bound, when every switch of it gave one.
 */
static int conn_contract_json(json_t *o, const struct rtcd_conn *k)
{
	return json_object_set_new(o, "lifetime_ms", json_integer(k->lifetime_ms)) ||
	       json_object_set_new(o, "hops", json_integer(k->hops)) ||
	       json_object_set_new(o, "rate", json_integer((json_int_t)k->rate)) ||
	       json_object_set_new(o, "burst", json_integer(k->tol ? k->tol : k->burst)) ||
	       json_object_set_new(o, "max_pkt", json_integer(k->max_pkt)) ||
	       (k->delay_bound &&
		json_object_set_new(o, "delay_bound_ns", json_integer((json_int_t)k->delay_bound)));
}

/* The answer to a successful open or adopt. */
static json_t *conn_up_reply(const struct rtcd_conn *k)
{
	char id[8], ip[INET_ADDRSTRLEN];
	json_t *o;

	conn_name(k, id);
	proxy_str(k->id, ip);
	o = json_pack("{s:b, s:s, s:s}", "ok", 1, "id", id, "proxy", ip);
	if (o && conn_contract_json(o, k)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void conn_adopt(struct rtcd_client *c, uint16_t id)
{
	struct rtcd_conn *k = rtcd.by_id[id];
	char s[8];

	format_conn_id(id, s, sizeof(s));
	/*
	 * Its process, by pid and user, as it reconnects: a pid 0 on either
	 * side (another pid namespace) leaves the user alone to match.
	 */
	if (!k || k->owner || !k->adopt_by ||
	    (c->cred.uid && c->cred.uid != k->uid) ||
	    (c->pid > 0 && k->pid > 0 && c->pid != k->pid)) {
		client_reply(c, rtcd_error_reply("invalid", "no connection %s of this process "
						 "to take back", s));
		return;
	}
	k->owner = c;
	k->adopt_by = 0;
	if (c->pid > 0)
		k->pid = c->pid;
	k->limits = policy_limits(&rtcd.cfg, &c->cred);
	LIST_INSERT_HEAD(&c->conns, k, owned);
	log_msg("%s: claimed by pid %d", s, (int)c->pid);
	client_reply(c, conn_up_reply(k));
	/* Its path lost meanwhile, or before the restart: its owner must know. */
	if (k->resetup)
		client_event(c, json_pack("{s:s, s:s, s:s}", "event", "down", "id", s, "error",
					  k->down_error ? k->down_error : "unknown"));
}

void conn_teardown_all(void)
{
	struct rtcd_conn *k;

	while ((k = LIST_FIRST(&rtcd.conns))) {
		conn_tell(k, "removed", "rtcd is stopping");
		conn_free(k, ETHEREAL_SIG_R_REQUESTED);
	}
}

/* K's deadline has come: a refresh, a retransmit, or giving up. */
static void conn_due(struct rtcd_conn *k)
{
	uint64_t left, elapsed, give_up;
	char id[8];

	conn_name(k, id);
	if (k->state == CONN_UP) {
		uint64_t now = now_ns(), next = refresh_ms(k);

		if (k->adopt_by && now >= k->adopt_by) {
			log_msg("%s: not taken back by pid %d within %d ms of the restart: "
				"tearing down", id, (int)k->pid, RTCD_ADOPT_MS);
			conn_free(k, ETHEREAL_SIG_R_REQUESTED);
			return;
		}
		/*
		 * Three refreshes unanswered by a switch that acks them: a
		 * lifetime without one, so the path has expired wherever it
		 * was; the switch or its link is gone, or lost it unheard.
		 */
		if (k->acks && k->unacked >= RTCD_UNACKED_MAX) {
			conn_resetup(k, "no answer to refreshes");
			return;
		}
		log_debug("%s: refresh", id);
		/*
		 * The last one unacked: a switch that restarted has forgotten
		 * the hosts it learned from ARP, and ignores their refreshes
		 * until it hears from them again.
		 */
		if (k->acks && k->unacked)
			arp_announce(1000);
		send_type(k, ETHEREAL_SIG_REFRESH, 0);
		if (k->acks)
			k->unacked++;
		if (k->adopt_by && (k->adopt_by - now) / MS + 1 < next)
			next = (k->adopt_by - now) / MS + 1;
		due_in(k, next);
		return;
	}
	if (k->resetup && k->adopt_by && !k->owner && now_ns() >= k->adopt_by) {
		log_msg("%s: down, and not taken back by pid %d within %d ms of the restart: "
			"tearing down", id, (int)k->pid, RTCD_ADOPT_MS);
		conn_free(k, ETHEREAL_SIG_R_REQUESTED);
		return;
	}
	if (k->backoff_ms) {
		log_debug("%s: down: setup again", id);
		arp_announce(1000);
		send_type(k, ETHEREAL_SIG_SETUP, 0);
		conn_backoff(k);
		return;
	}
	elapsed = (now_ns() - k->setup_start) / MS;
	/* Each switch on the path that waits for ARP said so (PROCEEDING). */
	give_up = RTCD_GIVE_UP_MS + (uint64_t)k->proceeds * ETHEREAL_SIG_ARP_WAIT_MS;
	/*
	 * Set up again: the switches past the one that lost it still hold
	 * the old path until it expires, and may refuse the new one
	 * (id-in-use) until then.
	 */
	if (k->resetup)
		give_up += k->lifetime_ms;
	if (elapsed >= give_up && k->resetup) {
		/* Its owner holds it: not given up, tried less often from now. */
		log_msg("%s: down: no answer from the switch in %llu ms, backing off", id,
			(unsigned long long)give_up);
		send_type(k, ETHEREAL_SIG_SETUP, 0);
		conn_backoff(k);
		return;
	}
	if (elapsed >= give_up) {
		log_msg("%s: no answer from the switch in %llu ms", id,
			(unsigned long long)give_up);
		conn_tell(k, "timeout", "no answer from the switch");
		/* It may have been installed with its ACCEPT lost. */
		conn_free(k, ETHEREAL_SIG_R_REQUESTED);
		return;
	}
	log_debug("%s: setup retransmitted", id);
	/*
	 * Unanswered: a switch that restarted (or whose bridge was attached
	 * again) forgot the hosts it learned from ARP and drops their setups:
	 * announce again, at most once a second.
	 */
	arp_announce(1000);
	send_type(k, ETHEREAL_SIG_SETUP, 0);
	left = give_up - elapsed;
	due_in(k, left < RTCD_RETRANSMIT_MS ? left : RTCD_RETRANSMIT_MS);
}

void conn_teardown_leftovers(const struct idmap *left)
{
	struct rtcd_conn t = { 0 };
	char first[8], last[8];
	unsigned int n = 0;
	uint32_t id;

	/*
	 * The switch knows a host's connection by its ID, MAC and address,
	 * not by the cookie (kmod/signal.c, ethereal_sig_upstream_conn()):
	 * a TEARDOWN with any cookie releases it.
	 */
	for (id = ETHEREAL_ID_MIN; id <= ETHEREAL_ID_MAX; id++) {
		if (!idmap_used(left, (uint16_t)id))
			continue;
		t.id = (uint16_t)id;
		send_type(&t, ETHEREAL_SIG_TEARDOWN, ETHEREAL_SIG_R_REQUESTED);
		if (!n++)
			format_conn_id(t.id, first, sizeof(first));
	}
	if (!n)
		return;
	/* A TEARDOWN may be lost: the reused IDs are the last to collide. */
	idmap_start_after(&rtcd.ids, t.id);
	format_conn_id(t.id, last, sizeof(last));
	log_msg("told the switch to release %u connection(s) an earlier rtcd left (%s to %s); "
		"new IDs start after %s", n, first, last, last);
}

static void on_timer(struct rtcd_ev *ev, uint32_t events)
{
	struct deadline *d;
	uint64_t n, now;

	(void)events;
	/* Nothing to read if it was set again since it fired: look all the same. */
	if (read(ev->fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		log_msg("timerfd: %s", strerror(errno));
	rtcd.timer_at = 0;	/* one-shot: it fired, or will be set anew */
	now = now_ns();
	/* Each moves its deadline past NOW, or is freed: the loop ends. */
	while ((d = deadlines_first(&rtcd.timers)) && d->at <= now)
		conn_due(container_of(d, struct rtcd_conn, due));
	timer_rearm();
}

int conn_init(void)
{
	rtcd.timer.fn = on_timer;
	rtcd.timer.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (rtcd.timer.fd < 0 || ev_add(&rtcd.timer, EPOLLIN)) {
		log_msg("timerfd: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void conn_fini(void)
{
	ev_close(&rtcd.timer);
	rtcd.timer_at = 0;
	deadlines_free(&rtcd.timers);
}

static void on_accept(struct rtcd_conn *k, const struct ethereal_sig_msg *m)
{
	char id[8], ip[INET_ADDRSTRLEN], again[48] = "";
	uint64_t down_ms;
	int err;

	conn_name(k, id);
	proxy_str(k->id, ip);
	/*
	 * The switch's numbers, within what the protocol lets a switch say
	 * (a lifetime of 0 would refresh every 10 ms; a tolerance below a
	 * frame is no contract): past them, what we asked for.
	 */
	k->lifetime_ms = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME) &&
			 m->lifetime >= ETHEREAL_LIFETIME_MIN_MS &&
			 m->lifetime <= ETHEREAL_LIFETIME_MAX_MS ? m->lifetime : RTCD_LIFETIME_DEFAULT;
	k->hops = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS) ? m->hops : 0;
	/* Switches before delay bounds say neither: the contract is what we asked. */
	k->tol = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_BURST) &&
		 m->burst >= k->max_pkt && m->burst < k->burst ? m->burst : k->burst;
	/* (JSON and state files hold it as a signed 64-bit number) */
	k->delay_bound = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DELAY) &&
			 m->delay != ETHEREAL_SIG_DELAY_NONE && m->delay <= INT64_MAX ? m->delay : 0;
	/* A switch that acks refreshes: its silence means something. */
	k->acks = m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_FEATURES) &&
		  (m->features & ETHEREAL_SIG_FEAT_REFRESH_ACK);
	k->unacked = 0;
	err = rnl_neigh_add(htonl(prefix_proxy(&rtcd.prefix, k->id)), k->id);
	if (err) {
		char msg[128];

		snprintf(msg, sizeof(msg), "cannot add the neighbour entry of %s: %s", ip,
			 rnl_strerror(err));
		log_msg("%s: %s", id, msg);
		/* An answer if its owner waits, an event if it holds it (set up again) */
		conn_tell(k, "no-memory", msg);
		conn_free(k, ETHEREAL_SIG_R_NO_MEMORY);
		return;
	}
	k->neigh = true;
	k->state = CONN_UP;
	state_save(k);
	due_in(k, refresh_ms(k));
	down_ms = k->resetup ? (now_ns() - k->down_since) / MS : 0;
	if (k->resetup)
		snprintf(again, sizeof(again), " again after %llu ms down",
			 (unsigned long long)down_ms);
	log_msg("%s: up%s, proxy %s, %u hops, lifetime %u ms, burst %u, delay bound %.3f ms, pid %d",
		id, again, ip, k->hops, k->lifetime_ms, k->tol, k->delay_bound / 1e6, (int)k->pid);
	if (k->resetup) {
		/* Its owner is not waiting for an answer: an event, with the new contract. */
		k->resetup = false;
		k->down_since = 0;
		k->backoff_ms = 0;
		k->down_error = NULL;
		if (k->owner) {
			json_t *ev = json_pack("{s:s, s:s, s:I}", "event", "up", "id", id,
					       "down_ms", (json_int_t)down_ms);

			if (ev && conn_contract_json(ev, k)) {
				json_decref(ev);
				ev = NULL;
			}
			client_event(k->owner, ev);
		}
		return;
	}
	client_reply(k->owner, conn_up_reply(k));
	client_done(k->owner);
}

static void on_reject(struct rtcd_conn *k, const struct ethereal_sig_msg *m)
{
	const char *name = ethereal_sig_reason_name(m->reason);
	char id[8], hop[32] = "";
	uint16_t old = k->id;

	conn_name(k, id);
	/* A leftover holds the ID on the link (it will expire): another one. */
	/* Set up again: a stale path downstream; the retransmits try until it expires. */
	if (m->reason == ETHEREAL_SIG_R_ID_IN_USE && k->resetup) {
		log_debug("%s: in use downstream: the old path has not expired yet", id);
		return;
	}
	if (m->reason == ETHEREAL_SIG_R_ID_IN_USE && k->id_tries < RTCD_ID_IN_USE_TRIES) {
		k->id_tries++;
		log_msg("%s: in use on the link, trying another ID", id);
		rtcd.by_id[old] = NULL;
		if (!conn_start(k)) {
			idmap_free(&rtcd.ids, old);
			return;
		}
		rtcd.by_id[old] = k;
	}
	if (m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP))
		snprintf(hop, sizeof(hop), " (switch %u)", m->hop);
	log_msg("%s: rejected: %s%s", id, name, hop);
	/* Down, and refused for now (bandwidth taken, receiver unknown): later. */
	if (k->resetup && !conn_reason_final(m->reason)) {
		conn_refused(k, name);
		return;
	}
	if (k->resetup)
		conn_tell(k, name, ethereal_sig_reason_text(m->reason));
	else if (k->owner) {
		json_t *r = rtcd_error_reply(name, "%s%s", ethereal_sig_reason_text(m->reason),
					     hop);

		/* Which switch refused: for a delay, where the path is too slow. */
		if (r && m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP))
			json_object_set_new(r, "hop", json_integer(m->hop));
		client_reply(k->owner, r);
	}
	/* After a reject nothing stays reserved: no TEARDOWN. */
	conn_free(k, 0);
}

void conn_on_msg(const struct ethereal_sig_msg *m)
{
	struct rtcd_conn *k = rtcd.by_id[m->conn_id];
	const char *name;
	char id[8];

	format_conn_id(m->conn_id, id, sizeof(id));
	if (!k || k->cookie != m->cookie) {
		log_debug("%s: %s for no connection of ours (cookie 0x%08x)", id,
			  ethereal_sig_type_name(m->type), m->cookie);
		/* A late ACCEPT of a setup given up: release it on the switch. */
		if (!k && m->type == ETHEREAL_SIG_ACCEPT) {
			struct rtcd_conn t = { .id = m->conn_id, .cookie = m->cookie };

			send_type(&t, ETHEREAL_SIG_TEARDOWN, ETHEREAL_SIG_R_REQUESTED);
		}
		return;
	}
	switch (m->type) {
	case ETHEREAL_SIG_ACCEPT:
		if (k->state == CONN_PENDING)
			on_accept(k, m);
		break;
	case ETHEREAL_SIG_REJECT:
		if (k->state == CONN_PENDING)
			on_reject(k, m);
		break;
	case ETHEREAL_SIG_REFRESH:
		/* The first switch's ack of our refresh. */
		if (m->flags & ETHEREAL_SIG_F_REVERSE && k->state == CONN_UP) {
			log_debug("%s: refresh acked", id);
			k->unacked = 0;
		}
		break;
	case ETHEREAL_SIG_PROCEEDING:
		/* A switch on the path waits for the receiver's ARP answer: so do we. */
		if (k->state == CONN_PENDING && k->proceeds < ETHEREAL_SIG_PROCEED_MAX) {
			k->proceeds++;
			log_debug("%s: switch %u waits for the receiver's ARP answer", id,
				  m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP) ? m->hop : 0);
		}
		break;
	case ETHEREAL_SIG_TEARDOWN:
		if (!(m->flags & ETHEREAL_SIG_F_REVERSE))
			break;
		name = ethereal_sig_reason_name(m->reason);
		log_msg("%s: torn down by the switch: %s", id, name);
		/*
		 * A switch that lost it (restarted, its bridge re-attached: a
		 * REFRESH answered "expired"), or a link of its path that went
		 * down: set up again on the same ID, whose proxy IP the
		 * application's socket is connected to.
		 */
		if (k->state == CONN_UP && (m->reason == ETHEREAL_SIG_R_EXPIRED ||
					    m->reason == ETHEREAL_SIG_R_LINK_DOWN)) {
			conn_resetup(k, name);
			break;
		}
		/* Down, and its new setup lost on the way: later. */
		if (k->resetup && !conn_reason_final(m->reason)) {
			conn_refused(k, name);
			break;
		}
		conn_tell(k, name, ethereal_sig_reason_text(m->reason));
		conn_free(k, 0);
		break;
	default:
		log_debug("%s: unexpected %s", id, ethereal_sig_type_name(m->type));
	}
}

void conn_policy_changed(void)
{
	struct rtcd_conn *k;
	struct rtcd_cred cr;

	/* The new file's limits, by index: each connection's mask anew. */
	LIST_FOREACH(k, &rtcd.conns, all) {
		if (k->owner) {
			k->limits = policy_limits(&rtcd.cfg, &k->owner->cred);
		} else {
			memset(&cr, 0, sizeof(cr));
			cr.uid = k->uid;
			cr.gid = (gid_t)-1;
			k->limits = policy_limits(&rtcd.cfg, &cr);
		}
	}
}

/* up; down: its path lost, set up again; pending: a first setup. */
static const char *conn_state_name(const struct rtcd_conn *k)
{
	if (k->state == CONN_UP)
		return "up";
	return k->resetup ? "down" : "pending";
}

json_t *conn_status(uid_t viewer)
{
	json_t *a = json_array(), *o;
	char id[8], ip[INET_ADDRSTRLEN], daddr[INET_ADDRSTRLEN];
	uint64_t now = now_ns();
	unsigned int i;

	if (!a)
		return NULL;
	for (i = 0; i < 65536; i++) {
		const struct rtcd_conn *k = rtcd.by_id[i];

		if (!k)
			continue;
		conn_name(k, id);
		proxy_str(k->id, ip);
		format_ip(k->daddr, daddr);
		o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:s}",
			      "id", id, "state", conn_state_name(k),
			      "rate", (json_int_t)k->rate, "burst", (json_int_t)k->burst,
			      "max_pkt", (json_int_t)k->max_pkt, "proxy", ip);
		/* Where other users' connections go is theirs to know. */
		if (o && policy_may_see(viewer, k->uid) &&
		    (json_object_set_new(o, "daddr", json_string(daddr)) ||
		     json_object_set_new(o, "dport", json_integer(k->dport)) ||
		     json_object_set_new(o, "pid", json_integer(k->pid)) ||
		     json_object_set_new(o, "uid", json_integer(k->uid)))) {
			json_decref(o);
			o = NULL;
		}
		if (o && k->state == CONN_UP && conn_contract_json(o, k)) {
			json_decref(o);
			o = NULL;
		}
		/* How long its path has been lost and why, and how often it was. */
		if (o && ((k->resetup &&
			   (json_object_set_new(o, "down_ms",
						json_integer((json_int_t)((now - k->down_since) / MS))) ||
			    json_object_set_new(o, "error",
						json_string(k->down_error ? k->down_error : "unknown")))) ||
			  (k->downs && json_object_set_new(o, "downs", json_integer(k->downs))))) {
			json_decref(o);
			o = NULL;
		}
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
