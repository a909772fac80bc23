// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * rttr_open()/rttr_close(): the reservation, through rtcd's UNIX socket
 * (Documentation/host.md). The socket stays open for the connection's
 * life: rtcd ties the connection to it and to our pid, and tears it down
 * when either goes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include <linux/ethereal_sig.h>
#include <linux/pkt_sched.h>

#include "clock.h"
#include "rtcd_sock.h"
#include "rttr_int.h"
#include "units.h"

/* The ABI: fields of later versions took reserved slots, and nothing moved. */
struct rttr_qos_0 {
	const char *daddr;
	uint16_t dport;
	uint64_t rate, burst;
	uint32_t max_pkt;
	uint64_t period_ns;
	const char *ifname, *ctl_path;
	uint64_t reserved[4];
};
_Static_assert(sizeof(struct rttr_qos) == sizeof(struct rttr_qos_0),
	       "struct rttr_qos changed size");
_Static_assert(offsetof(struct rttr_qos, max_delay_ns) ==
	       offsetof(struct rttr_qos_0, reserved) &&
	       offsetof(struct rttr_qos, reserved) ==
	       offsetof(struct rttr_qos_0, reserved[2]),
	       "struct rttr_qos's new fields are not where reserved[] was");

struct rttr_info_1 {
	uint64_t rate, burst;
	uint32_t max_pkt, hops;
	uint64_t delay_bound_ns;
	uint32_t pacing, pad;
	uint64_t tolerance, resolution_ns, jitter_ns, send_max_ns, late_max_ns, unused_ns;
	uint64_t reserved[5];
};
_Static_assert(sizeof(struct rttr_info) == sizeof(struct rttr_info_1),
	       "struct rttr_info changed size");
_Static_assert(offsetof(struct rttr_info, path_state) ==
	       offsetof(struct rttr_info_1, reserved) &&
	       offsetof(struct rttr_info, reserved) ==
	       offsetof(struct rttr_info_1, reserved[2]),
	       "struct rttr_info's new fields are not where reserved[] was");

static __thread char last_error[512];

const char *rttr_error(void)
{
	return last_error[0] ? last_error : "no error";
}

void rttr_set_error(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	errno = e;
}

/* Sets the error text and errno together; NULL for the caller to return. */
static void *fail(int e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void *fail(int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	errno = e;
	return NULL;
}

/* rtcd's "error" (a signaling reason name, or its own) as an errno. */
static int reason_errno(const char *reason)
{
	static const int map[ETHEREAL_SIG_R_MAX + 1] = {
		[ETHEREAL_SIG_R_BANDWIDTH] = ENOSPC, [ETHEREAL_SIG_R_BUFFER] = ENOSPC,
		[ETHEREAL_SIG_R_CONNS] = ENOSPC, [ETHEREAL_SIG_R_NO_ID] = ENOSPC,
		[ETHEREAL_SIG_R_NO_MEMORY] = ENOSPC,
		[ETHEREAL_SIG_R_NO_ROUTE] = EHOSTUNREACH,
		[ETHEREAL_SIG_R_ID_IN_USE] = EADDRINUSE,
		[ETHEREAL_SIG_R_INVALID] = EINVAL, [ETHEREAL_SIG_R_TIMEOUT] = ETIMEDOUT,
		[ETHEREAL_SIG_R_BUSY] = EAGAIN, [ETHEREAL_SIG_R_LINK_DOWN] = ENETDOWN,
		[ETHEREAL_SIG_R_EXPIRED] = ECONNRESET, [ETHEREAL_SIG_R_REQUESTED] = ECONNRESET,
		[ETHEREAL_SIG_R_REMOVED] = ECONNRESET,
		/*
		 * ETIME ("timer expired"): time is what the path cannot
		 * promise, and no other failure of librttr's uses it, where
		 * ETIMEDOUT already means no answer and EMSGSIZE a frame too
		 * large.
		 */
		[ETHEREAL_SIG_R_DELAY] = ETIME,
	};
	int r = rtcd_error_reason(reason);

	/* a reason this version does not know: not "no rtcd" */
	return r > 0 && map[r] ? map[r] : EPROTO;
}

/* The interface whose address the kernel would send to DADDR from. */
static int route_ifname(struct in_addr daddr, char *ifname, size_t len)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(9),
				   .sin_addr = daddr };
	socklen_t slen = sizeof(sin);
	struct ifaddrs *ifa, *i;
	int fd, found = -1;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    getsockname(fd, (struct sockaddr *)&sin, &slen)) {
		close(fd);
		return -1;
	}
	close(fd);
	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr !=
		    sin.sin_addr.s_addr)
			continue;
		snprintf(ifname, len, "%s", i->ifa_name);
		found = 0;
		break;
	}
	freeifaddrs(ifa);
	return found;
}

/* "message [error]" (", hop N]" when it names one) of a failure reply, into the error text. */
static void reply_error(json_t *reply, const char *what)
{
	const char *reason = json_string_value(json_object_get(reply, "error"));
	const char *message = json_string_value(json_object_get(reply, "message"));
	json_t *hop = json_object_get(reply, "hop");
	char at[32] = "";

	if (!reason)
		reason = json_string_value(json_object_get(reply, "reason"));
	if (json_is_integer(hop))
		snprintf(at, sizeof(at), ", hop %lld", (long long)json_integer_value(hop));
	rttr_set_error("%s: %s [%s%s]", what,
		       message ? message : "refused by rtcd",
		       reason ? reason : "unknown", at);
}

/*
 * An optional integer KEY of rtcd's REPLY, from MIN to MAX, into *V (left
 * as it is when absent: an older rtcd). 0, or -1 when it is no such number.
 */
static int reply_uint(json_t *reply, const char *key, uint64_t min, uint64_t max,
		      uint64_t *v)
{
	json_t *j = json_object_get(reply, key);
	json_int_t i;

	if (!j)
		return 0;
	i = json_integer_value(j);
	if (!json_is_integer(j) || i < 0 || (uint64_t)i < min || (uint64_t)i > max)
		return -1;
	*v = (uint64_t)i;
	return 0;
}

/*
 * The contract the path granted (rtcd's "rate", "burst", "max_pkt") and its
 * delay bound ("delay_bound_ns"), into R, where the reply has them; an
 * older rtcd's reply has none, and what was asked for stands. -1 when one
 * makes no sense.
 */
static int reply_contract(json_t *reply, struct rttr *r)
{
	uint64_t max_pkt = r->max_pkt;

	if (reply_uint(reply, "rate", ETHEREAL_RATE_MIN, ETHEREAL_RATE_MAX, &r->rate) ||
	    reply_uint(reply, "max_pkt", ETHEREAL_MAX_PKT_MIN, ETHEREAL_MAX_PKT_MAX, &max_pkt) ||
	    reply_uint(reply, "burst", max_pkt, UINT32_MAX, &r->burst) ||
	    r->burst < max_pkt ||
	    reply_uint(reply, "delay_bound_ns", 0, UINT64_MAX, &r->delay_bound))
		return -1;
	r->max_pkt = (uint32_t)max_pkt;
	return 0;
}

/*
 * rtcd went away (a restart): what was reserved stays on the switches and
 * the proxy's neighbour entry stays, so datagrams go on; a new rtcd takes
 * the connection back if its process claims it, which this does every
 * RTTR_READOPT_EVERY_NS until RTTR_READOPT_MAX_NS have passed. The claim
 * is sent, and its answer looked for at the sender's next ticks: never
 * waited for, since a new rtcd still starting (or preempted) would stall
 * the stream as long (a frozen rtcd held rttr_send() 240 ms; one that
 * took over a second had the claim made again, and lost the connection).
 */
static void readopt(struct rttr *r)
{
	uint64_t now = now_ns();
	json_t *req, *reply;
	int fd = r->adopting;

	if (fd >= 0) {
		/*
		 * Awaited until it comes or that rtcd goes: a claim given up
		 * and made again on another socket would have the first one's
		 * close tear the connection down once rtcd reads it.
		 */
		reply = rtcd_sock_recv(fd, MSG_DONTWAIT);
		if (!reply && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			if (now - r->lost_at <= RTTR_READOPT_MAX_NS)
				return;
		}
		r->adopting = -1;
		if (!reply) {
			/* that rtcd went too (or never answered): perhaps another */
			close(fd);
			r->retry_at = now;
		} else if (!json_is_true(json_object_get(reply, "ok"))) {
			/* This rtcd does not have it: the reservation is gone. */
			reply_error(reply, "not taken back by the new rtcd");
			json_decref(reply);
			close(fd);
			r->dead = true;
			return;
		} else {
			json_decref(reply);
			rtcd_sock_timeout(fd, RTCD_SOCK_TIMEOUT_S);
			r->ctl = fd;
			r->lost_at = 0;
			return;
		}
	}
	if (now - r->lost_at > RTTR_READOPT_MAX_NS) {
		rttr_set_error("connection %s: rtcd went away and did not take it back "
			       "within %llu s", r->id,
			       (unsigned long long)(RTTR_READOPT_MAX_NS / 1000000000ULL));
		r->dead = true;
		return;
	}
	if (now < r->retry_at)
		return;
	r->retry_at = now + RTTR_READOPT_EVERY_NS;
	fd = rtcd_sock_connect(r->path, 1);
	if (fd < 0)
		return;
	req = json_pack("{s:s, s:s}", "op", "adopt", "id", r->id);
	if (!req || rtcd_sock_send(fd, req)) {
		json_decref(req);
		close(fd);
		return;
	}
	json_decref(req);
	r->adopting = fd;
}

/*
 * What rtcd says unasked: only a teardown ends R; "down" while rtcd sets
 * the connection up again on its ID (its datagrams dropped at the first
 * switch meanwhile), "up" with the contract of the path it got.
 */
static void on_event(struct rttr *r, json_t *msg)
{
	const char *ev = json_string_value(json_object_get(msg, "event"));
	struct rttr c;
	json_int_t hops;
	uint64_t now;

	if (!ev)
		return;
	if (!strcmp(ev, "teardown")) {
		reply_error(msg, "connection torn down");
		r->dead = true;
	} else if (!strcmp(ev, "down") && !r->down) {
		r->down = true;
		r->down_since = now_ns();
		r->downs++;
	} else if (!strcmp(ev, "up")) {
		/* up also unseen down (gone and back between two looks, or before a claim) */
		if (r->down) {
			now = now_ns();
			r->down = false;
			r->down_total += now - r->down_since;
		}
		hops = json_integer_value(json_object_get(msg, "hops"));
		if (hops > 0 && hops < 256)
			r->hops = (uint32_t)hops;
		/*
		 * The new path's bound and policing (a smaller burst: a
		 * tighter tolerance for the pacer); a contract that makes no
		 * sense leaves the old one.
		 */
		c = *r;
		c.delay_bound = 0;	/* rtcd leaves a path's none out */
		if (!reply_contract(msg, &c) && c.rate == r->rate && c.max_pkt == r->max_pkt) {
			r->delay_bound = c.delay_bound;
			r->burst = c.burst;
			if (r->pacing == RTTR_PACING_PACKET)
				r->pacer.tol = rttr_pacer_tolerance(r->burst, r->max_pkt);
		}
	}
}

bool rttr_ctl_alive(struct rttr *r)
{
	struct pollfd pfd = { .fd = r->ctl, .events = POLLIN };
	json_t *msg;

	if (!r->dead && r->ctl < 0)
		readopt(r);
	pfd.fd = r->ctl;
	/* every tick: a poll, and a read only when rtcd said something */
	while (!r->dead && r->ctl >= 0 && poll(&pfd, 1, 0) > 0) {
		msg = rtcd_sock_recv(r->ctl, MSG_DONTWAIT);
		if (!msg) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR || errno == EPROTO || errno == ENOMEM)
				break;
			/* rtcd went away: perhaps to come back. */
			close(r->ctl);
			r->ctl = -1;
			r->lost_at = now_ns();
			r->retry_at = r->lost_at;
			break;
		}
		on_event(r, msg);
		json_decref(msg);
	}
	return !r->dead;
}

struct rttr *rttr_open(const struct rttr_qos *qos)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char ifname[IF_NAMESIZE], path[108];
	const char *s, *id, *proxy;
	uint64_t burst, period, res, now;
	json_t *req, *reply;
	struct in_addr daddr;
	uint32_t max_pkt;
	json_int_t hops;
	struct rttr *r;
	int e;

	last_error[0] = '\0';
	if (!qos || !qos->daddr || inet_pton(AF_INET, qos->daddr, &daddr) != 1)
		return fail(EINVAL, "daddr: not an IPv4 address");
	if (!qos->dport)
		return fail(EINVAL, "dport: must not be 0");
	for (size_t i = 0; i < sizeof(qos->reserved) / sizeof(qos->reserved[0]); i++)
		if (qos->reserved[i])
			return fail(EINVAL, "reserved: must be zero");
	if (!conn_rate_ok(qos->rate))
		return fail(EINVAL, "rate: %llu bit/s: not from " CONN_RATE_RANGE,
			    (unsigned long long)qos->rate);
	max_pkt = qos->max_pkt ? qos->max_pkt : RTTR_MAX_PKT_DEFAULT;
	if (max_pkt < ETHEREAL_MAX_PKT_MIN || max_pkt > ETHEREAL_MAX_PKT_MAX)
		return fail(EINVAL, "max_pkt: %u bytes: not a frame from %u to %u bytes", max_pkt,
			    ETHEREAL_MAX_PKT_MIN, ETHEREAL_MAX_PKT_MAX);
	period = qos->period_ns ? qos->period_ns : RTTR_PERIOD_DEFAULT;
	if (!rttr_period_ok(period))
		return fail(EINVAL, "period: %llu ns: not from " RTTR_PERIOD_RANGE,
			    (unsigned long long)period);
	if (qos->pacing != RTTR_PACING_PACKET && qos->pacing != RTTR_PACING_TICK)
		return fail(EINVAL, "pacing: %u: not RTTR_PACING_PACKET or RTTR_PACING_TICK",
			    qos->pacing);
	res = qos->resolution_ns ? qos->resolution_ns : RTTR_RESOLUTION_DEFAULT;
	if (res < 1000 || res > 1000000000)
		return fail(EINVAL, "resolution: %llu ns: not from 1 us to 1 s",
			    (unsigned long long)res);
	burst = qos->burst;
	if (!burst) {
		/*
		 * Per-packet, rtcd's own default, 10 ms of rate and two
		 * frames, a cycle of the switches' default: what the pacer
		 * does not use is the host's jitter budget. Tick mode, two
		 * ticks' worth: a bucket that holds only one loses what a
		 * late tick brings beyond it, and the long-run rate with it
		 * (bucket_test); at least the same.
		 */
		burst = default_burst(qos->rate, qos->pacing == RTTR_PACING_TICK &&
					  2 * period > BURST_SPAN_DEFAULT_NS ?
					  2 * period : BURST_SPAN_DEFAULT_NS, max_pkt);
		/* what the signaling carries */
		if (burst > UINT32_MAX)
			burst = UINT32_MAX;
	}
	if (burst < max_pkt || burst > UINT32_MAX)
		return fail(EINVAL, "burst: %llu bytes: not from max_pkt (%u) to 2^32 - 1",
			    (unsigned long long)burst, max_pkt);

	/* secure_getenv: a set-user-ID program must not be pointed elsewhere. */
	s = qos->ctl_path ? qos->ctl_path : secure_getenv("RTTR_SOCKET");
	if (s && *s) {
		snprintf(path, sizeof(path), "%s", s);
	} else {
		s = qos->ifname ? qos->ifname : secure_getenv("RTTR_IFACE");
		if (s && *s)
			snprintf(ifname, sizeof(ifname), "%s", s);
		else if (route_ifname(daddr, ifname, sizeof(ifname)))
			return fail(ENODEV, "no interface: set qos.ifname or RTTR_IFACE (no route to %s)",
				    qos->daddr);
		if (strchr(ifname, '/'))
			return fail(EINVAL, "ifname: %s: not an interface name", ifname);
		snprintf(path, sizeof(path), RTCD_SOCK_DIR "/%s.sock", ifname);
	}

	r = calloc(1, sizeof(*r));
	if (!r)
		return fail(ENOMEM, "out of memory");
	r->fd = r->adopting = -1;
	r->pacing = qos->pacing;
	r->max_pkt = max_pkt;
	r->rate = qos->rate;
	r->burst = burst;
	r->resolution = res;
	strcpy(r->path, path);
	r->ctl = rtcd_sock_connect(path, RTCD_SOCK_TIMEOUT_S);
	if (r->ctl < 0) {
		e = errno;
		free(r);
		return fail(e, "rtcd: %s: %s (is rtcd running on that interface?)",
			    path, strerror(e));
	}

	req = json_pack("{s:s, s:s, s:i, s:I, s:I, s:I}", "op", "open",
			"daddr", qos->daddr, "dport", (int)qos->dport,
			"rate", (json_int_t)qos->rate, "burst", (json_int_t)burst,
			"max_pkt", (json_int_t)max_pkt);
	/* only when asked: an older rtcd ignores what it does not know */
	if (req && qos->max_delay_ns &&
	    json_object_set_new(req, "max_delay_ns",
				json_integer(qos->max_delay_ns > INT64_MAX ? INT64_MAX :
					     (json_int_t)qos->max_delay_ns))) {
		json_decref(req);
		req = NULL;
	}
	if (!req || rtcd_sock_send(r->ctl, req)) {
		e = req ? errno : ENOMEM;
		json_decref(req);
		fail(e, "rtcd: %s: sending the request: %s", path, strerror(e));
		goto err;
	}
	json_decref(req);
	reply = rtcd_sock_recv(r->ctl, 0);
	if (!reply) {
		e = errno;
		if (e == EAGAIN || e == EWOULDBLOCK)
			fail(ETIMEDOUT, "rtcd: no reply in %d s", RTCD_SOCK_TIMEOUT_S);
		else if (!e)
			fail(ECONNRESET, "rtcd closed the socket without replying");
		else if (e == EPROTO)
			fail(EPROTO, "rtcd: the reply is not a JSON object");
		else
			fail(e, "rtcd: %s", strerror(e));
		goto err;
	}
	if (!json_is_true(json_object_get(reply, "ok"))) {
		/* before the reply, and the reason's string with it, is freed */
		e = reason_errno(json_string_value(json_object_get(reply, "error")));
		reply_error(reply, "reservation refused");
		json_decref(reply);
		errno = e;
		goto err;
	}
	id = json_string_value(json_object_get(reply, "id"));
	proxy = json_string_value(json_object_get(reply, "proxy"));
	if (!id || strlen(id) >= sizeof(r->id) || !proxy ||
	    inet_pton(AF_INET, proxy, &sin.sin_addr) != 1) {
		json_decref(reply);
		fail(EPROTO, "rtcd: the reply lacks a valid id or proxy");
		goto err;
	}
	hops = json_integer_value(json_object_get(reply, "hops"));
	r->hops = hops > 0 && hops < 256 ? (uint32_t)hops : 1;
	strcpy(r->id, id);
	inet_ntop(AF_INET, &sin.sin_addr, r->proxy, sizeof(r->proxy));
	e = reply_contract(reply, r);
	json_decref(reply);
	if (e) {
		fail(EPROTO, "rtcd: the reply's contract or delay bound makes no sense");
		goto err_close;
	}
	if (qos->max_delay_ns && (!r->delay_bound || r->delay_bound > qos->max_delay_ns)) {
		/* an older rtcd or switch: accepted, with no bound to keep to */
		if (!r->delay_bound)
			fail(ETIME, "the path promises no delay bound (a switch or rtcd "
			     "without them), and max_delay_ns asks for one");
		else
			fail(ETIME, "the path's delay bound, %llu ns, exceeds max_delay_ns (%llu)",
			     (unsigned long long)r->delay_bound,
			     (unsigned long long)qos->max_delay_ns);
		goto err_close;
	}

	sin.sin_port = htons(qos->dport);
	r->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/*
	 * Never fragment: each fragment's headers would leave unaccounted,
	 * and a datagram over the MTU fails with EMSGSIZE instead. And a
	 * datagram the host's own queue (its NIC's qdisc) drops fails with
	 * ENOBUFS, for the caller to send again: UDP drops it silently
	 * without IP_RECVERR. And the host's own queue serves the stream
	 * first where it can (pfifo_fast's and fq's top band): it is shaped
	 * to its reservation, so it cannot starve the host's other traffic,
	 * which would otherwise hold it as a NIC FIFO does (the highest
	 * priority a process may set without CAP_NET_ADMIN).
	 */
	if (r->fd < 0 ||
	    setsockopt(r->fd, SOL_SOCKET, SO_PRIORITY, &(int){ TC_PRIO_INTERACTIVE },
		       sizeof(int)) ||
	    setsockopt(r->fd, IPPROTO_IP, IP_MTU_DISCOVER, &(int){ IP_PMTUDISC_DO },
		       sizeof(int)) ||
	    setsockopt(r->fd, IPPROTO_IP, IP_RECVERR, &(int){ 1 }, sizeof(int)) ||
	    connect(r->fd, (struct sockaddr *)&sin, sizeof(sin))) {
		fail(errno, "UDP socket to %s:%u: %s", r->proxy, qos->dport,
		     strerror(errno));
		goto err_close;
	}
	now = now_ns();
	if (r->pacing == RTTR_PACING_TICK)
		/* the paper's bucket, as asked for */
		rttr_bucket_init(&r->bucket, r->rate, burst, period, now);
	else
		rttr_pacer_init(&r->pacer, r->rate, rttr_pacer_tolerance(r->burst, r->max_pkt),
				r->max_pkt, res, now);
	return r;

err_close:
	e = errno;
	rttr_close(r);
	errno = e;
	return NULL;
err:
	e = errno;
	close(r->ctl);
	free(r);
	errno = e;
	return NULL;
}

/*
 * rttr_close()'s wait for the switches to drain: bounded (a large burst
 * at a low rate would be hours: what is that late has missed its deadline
 * anyway) and cut short by a signal, as a close must be.
 */
static void drain_wait(uint64_t until)
{
	uint64_t now = now_ns();

	if (until <= now)
		return;
	if (until - now > RTTR_CLOSE_WAIT_MAX_NS)
		until = now + RTTR_CLOSE_WAIT_MAX_NS;
	rttr_sleep_until(until);
}

void rttr_close(struct rttr *r)
{
	json_t *req, *msg;
	int e = errno;

	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	if (!r->dead && r->ctl >= 0) {
		/*
		 * The teardown travels ahead of data in the switches' control
		 * queue and drops what the connection still has queued: wait
		 * until the last datagram has left the last switch.
		 */
		drain_wait(rttr_drained_at(r));
		/* rtcd tears down when the socket closes anyway: best effort */
		struct timeval tv = { .tv_sec = 1 };

		setsockopt(r->ctl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		req = json_pack("{s:s, s:s}", "op", "close", "id", r->id);
		if (req && !rtcd_sock_send(r->ctl, req)) {
			/* the reply, past any notice queued before it */
			while ((msg = rtcd_sock_recv(r->ctl, 0))) {
				bool reply = !json_object_get(msg, "event");

				json_decref(msg);
				if (reply)
					break;
			}
		}
		json_decref(req);
	}
	if (r->ctl >= 0)
		close(r->ctl);
	if (r->adopting >= 0)
		close(r->adopting);
	free(r);
	errno = e;
}

int rttr_fd(const struct rttr *r)
{
	return r ? r->fd : -1;
}

const char *rttr_id(const struct rttr *r)
{
	return r ? r->id : NULL;
}

const char *rttr_proxy(const struct rttr *r)
{
	return r ? r->proxy : NULL;
}

uint64_t rttr_next_tick(const struct rttr *r)
{
	if (!r)
		return 0;
	if (r->pacing == RTTR_PACING_TICK)
		return r->bucket.deadline;
	return r->next_wake ? r->next_wake : rttr_pacer_due(&r->pacer, r->max_pkt);
}

int rttr_info(const struct rttr *r, struct rttr_info *info)
{
	unsigned __int128 jitter;

	if (!r || !info) {
		rttr_set_error("rttr_info: NULL argument");
		errno = EINVAL;
		return -1;
	}
	memset(info, 0, sizeof(*info));
	info->rate = r->rate;
	info->burst = r->burst;
	info->max_pkt = r->max_pkt;
	info->hops = r->hops;
	info->delay_bound_ns = r->delay_bound;
	info->pacing = r->pacing;
	if (r->pacing == RTTR_PACING_TICK) {
		info->tolerance = r->bucket.burst;
		info->resolution_ns = r->bucket.period;
	} else {
		info->tolerance = r->pacer.tol;
		info->resolution_ns = r->resolution;
	}
	/* pacer.h: conforming at the switch while the host's jitter is within it */
	if (r->burst > info->tolerance) {
		jitter = (unsigned __int128)(r->burst - info->tolerance) * 8000000000ULL / r->rate;
		info->jitter_ns = jitter > UINT64_MAX ? UINT64_MAX : (uint64_t)jitter;
	}
	info->path_state = r->down ? RTTR_PATH_DOWN : RTTR_PATH_UP;
	info->downs = r->downs;
	info->down_ns = r->down_total + (r->down ? now_ns() - r->down_since : 0);
	info->send_max_ns = r->send_max;
	info->late_max_ns = r->late_max;
	if (r->pacing == RTTR_PACING_PACKET)
		info->unused_ns = r->pacer.unused;
	return 0;
}

int rttr_update(struct rttr *r)
{
	if (!r) {
		rttr_set_error("rttr_update: NULL argument");
		errno = EINVAL;
		return -1;
	}
	if (!rttr_ctl_alive(r)) {
		errno = ECONNRESET;
		return -1;
	}
	if (r->down) {
		rttr_set_error("the connection's path is down: rtcd is setting it up again");
		errno = ENETDOWN;
		return -1;
	}
	return 0;
}
