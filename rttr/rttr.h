/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * librttr: real-time transmission over an EtheReal network (rttr(3)).
 *
 * A sender asks the host's rtcd for a reservation with rttr_open(), then
 * sends UDP datagrams with rttr_send(), which paces them to the contract:
 * each at its own time, so that the switches find it conforming (or, in
 * the paper's tick mode, from a leaky bucket ticked every 10 ms, 3.2).
 * rttr_info() tells the contract, the path's delay bound and the pacing.
 * Receivers need nothing: they read an ordinary UDP socket.
 *
 *	struct rttr_qos q = { .daddr = "10.0.0.2", .dport = 5000,
 *			      .rate = 50000000 };
 *	struct rttr *r = rttr_open(&q);
 *
 *	if (!r)
 *		errx(1, "rttr_open: %s", rttr_error());
 *	while (...)
 *		if (rttr_send(r, buf, len, 0) < 0)
 *			err(1, "rttr_send");
 *	rttr_close(r);
 *
 * A struct rttr is not safe for concurrent use by several threads; rttr_open()
 * and rttr_error() are (the error text is per thread). Link with
 * `pkg-config --cflags --libs librttr`.
 */
#ifndef RTTR_H
#define RTTR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef RTTR_API
#define RTTR_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes a UDP/IPv4 datagram adds to its payload on Ethernet: 8 + 20 + 14. */
#define RTTR_OVERHEAD 42
/* Defaults of struct rttr_qos's optional fields. */
#define RTTR_MAX_PKT_DEFAULT 1514		/* a full Ethernet frame */
#define RTTR_PERIOD_DEFAULT 10000000ULL		/* ns: the paper's 10 ms */
#define RTTR_RESOLUTION_DEFAULT 200000U		/* ns: per-packet pacing's shortest sleep */

/* How rttr_send() shapes: struct rttr_qos's and struct rttr_info's pacing. */
#define RTTR_PACING_PACKET 0	/* each frame at its own time (GCRA): the default */
#define RTTR_PACING_TICK 1	/* the paper's leaky bucket, ticked every period */

/* What to reserve; zero an optional field for its default. */
struct rttr_qos {
	const char *daddr;	/* receiver's IPv4 address, dotted quad */
	uint16_t dport;		/* receiver's UDP port */
	uint64_t rate;		/* bit/s of whole Ethernet frames (> 0) */
	/* optional */
	uint64_t burst;		/* bytes: 0 = 10 ms of rate, at least
				 * 2 x max_pkt (tick mode: two periods of
				 * rate, at least that) */
	uint32_t max_pkt;	/* largest frame, bytes, including the 14-byte
				 * Ethernet header: 0 = 1514 */
	uint64_t period_ns;	/* tick mode: the shaper's tick: 0 = 10 ms */
	const char *ifname;	/* NULL: $RTTR_IFACE, else the interface of
				 * the route to daddr */
	const char *ctl_path;	/* rtcd's socket. NULL: $RTTR_SOCKET, else
				 * /run/rtcd/IFNAME.sock */
	/* since LIBRTTR_0.1, in what were reserved slots (the layout is kept) */
	uint64_t max_delay_ns;	/* refuse a path whose delay bound exceeds
				 * it, or that promises none: 0 = no limit */
	uint32_t pacing;	/* RTTR_PACING_PACKET (0) or RTTR_PACING_TICK */
	uint32_t resolution_ns;	/* per-packet: the timer's useful resolution,
				 * the shortest sleep, 1 us to 1 s: 0 = 200 us */
	uint64_t reserved[2];	/* zero: room for fields of later versions */
};

/* What a connection got, and how librttr paces it: rttr_info(). */
struct rttr_info {
	uint64_t rate;		/* bit/s: the contract, as the path granted it */
	uint64_t burst;		/* bytes: its burst, the switches' tolerance */
	uint32_t max_pkt;	/* bytes: its largest frame */
	uint32_t hops;		/* switches on the path */
	uint64_t delay_bound_ns; /* the end-to-end bound the path promised:
				  * 0 = none known */
	uint32_t pacing;	/* RTTR_PACING_* */
	uint32_t pad;		/* zero */
	uint64_t tolerance;	/* bytes rttr_send() may send back to back */
	uint64_t resolution_ns;	/* per-packet: the timer resolution; tick:
				 * the period */
	uint64_t jitter_ns;	/* the host's jitter budget, (burst -
				 * tolerance) / rate: how much later than
				 * rttr_send() let it go a frame may reach
				 * the first switch and still conform */
	uint64_t send_max_ns;	/* so far: the longest from rttr_send()'s
				 * decision to send(2)'s return */
	uint64_t late_max_ns;	/* so far: the latest rttr_send() woke past
				 * its time */
	uint64_t unused_ns;	/* so far, per-packet: how long the rate went
				 * unused beyond what the tolerance catches
				 * up, the application idle or the host late */
	/* since LIBRTTR_0.2, in what were reserved slots (the layout is kept) */
	uint32_t path_state;	/* RTTR_PATH_UP (0) or RTTR_PATH_DOWN, as of
				 * the last rttr_send() or rttr_update() */
	uint32_t downs;		/* so far: times the path was lost */
	uint64_t down_ns;	/* so far: how long the path was down */
	uint64_t reserved[3];	/* zero */
};

/* struct rttr_info's path_state. */
#define RTTR_PATH_UP 0		/* set up: its datagrams forwarded as reserved */
#define RTTR_PATH_DOWN 1	/* lost (a switch restarted, a link down):
				 * rtcd sets it up again on the same ID and
				 * proxy IP; its datagrams are dropped at the
				 * first switch until then */

struct rttr;

/*
 * Sets up a real-time connection to qos->daddr:qos->dport through rtcd.
 * Blocks until the network accepts or refuses (rtcd gives up after 3 s).
 * NULL on failure, with errno set and rttr_error() saying why; a refusal
 * by the network carries rtcd's message, e.g. "not enough real-time
 * bandwidth on the path (switch 2) [bandwidth]". errno: ENOSPC (bandwidth,
 * buffers, connections or IDs exhausted), EHOSTUNREACH (receiver unknown),
 * ETIMEDOUT (no answer), EAGAIN (switch busy), ENETDOWN (link down),
 * ETIME (the path's delay bound over qos->max_delay_ns, or none),
 * EINVAL (bad qos), ECONNREFUSED/ENOENT (no rtcd), EPROTO (bad reply).
 */
RTTR_API struct rttr *rttr_open(const struct rttr_qos *qos);

/*
 * Sends LEN bytes as one datagram once its whole frame (LEN + RTTR_OVERHEAD
 * bytes) is due: per-packet, when the pacer's GCRA allows it; tick mode,
 * when the bucket holds it. Sleeps until then; with MSG_DONTWAIT in FLAGS,
 * fails with EAGAIN instead (rttr_next_tick() says when to try again);
 * FLAGS (MSG_DONTWAIT, MSG_CONFIRM, MSG_NOSIGNAL only) go on to send(2).
 * Returns what send(2) returns. Errors: EMSGSIZE (frame larger than max_pkt,
 * the burst or the path's MTU), ECONNRESET (the network tore the connection
 * down: rttr_error() says why), EINTR (a signal during the wait), EINVAL
 * (other flags), and those of send(2).
 */
RTTR_API ssize_t rttr_send(struct rttr *r, const void *buf, size_t len,
			   int flags);

/* The UDP socket, connected to the proxy IP: for poll(2), not for sending. */
RTTR_API int rttr_fd(const struct rttr *r);

/* The connection ID at the host's link ("03:09") and the proxy IP. */
RTTR_API const char *rttr_id(const struct rttr *r);
RTTR_API const char *rttr_proxy(const struct rttr *r);

/*
 * CLOCK_MONOTONIC time, ns, when rttr_send() would send: tick mode, the
 * next tick; per-packet, when it wakes for the frame it last refused with
 * EAGAIN (else when a max_pkt frame is due).
 */
RTTR_API uint64_t rttr_next_tick(const struct rttr *r);

/* Fills INFO (all of it, zeroing what it does not know). 0, or -1 and EINVAL. */
RTTR_API int rttr_info(const struct rttr *r, struct rttr_info *info);

/*
 * Reads what rtcd said of the connection without blocking, as rttr_send()
 * does, for a sender idle a while or one that wants to know before it
 * sends: 0 while its path is up; -1 with errno ENETDOWN while it is down
 * (rtcd sets it up again; rttr_send() goes on working), ECONNRESET once
 * it is torn down (rttr_error() says why), EINVAL for a NULL R. Since
 * LIBRTTR_0.2.
 */
RTTR_API int rttr_update(struct rttr *r);

/* Tears the connection down (tells rtcd) and frees R. NULL is allowed. */
RTTR_API void rttr_close(struct rttr *r);

/* Why the calling thread's last failed librttr call failed. */
RTTR_API const char *rttr_error(void);

#ifdef __cplusplus
}
#endif

#endif
