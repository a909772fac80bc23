/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * librttr: real-time transmission over an EtheReal network (rttr(3)).
 *
 * A sender asks the host's rtcd for a reservation with rttr_open(), then
 * sends UDP datagrams with rttr_send(), which shapes them to the
 * reservation with a leaky bucket ticked every 10 ms (the paper's 3.2).
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

/* What to reserve; zero an optional field for its default. */
struct rttr_qos {
	const char *daddr;	/* receiver's IPv4 address, dotted quad */
	uint16_t dport;		/* receiver's UDP port */
	uint64_t rate;		/* bit/s of whole Ethernet frames (> 0) */
	/* optional */
	uint64_t burst;		/* bytes: 0 = two periods of rate, at least
				 * 10 ms of it and 2 x max_pkt */
	uint32_t max_pkt;	/* largest frame, bytes, including the 14-byte
				 * Ethernet header: 0 = 1514 */
	uint64_t period_ns;	/* the shaper's tick: 0 = 10 ms */
	const char *ifname;	/* NULL: $RTTR_IFACE, else the interface of
				 * the route to daddr */
	const char *ctl_path;	/* rtcd's socket. NULL: $RTTR_SOCKET, else
				 * /run/rtcd/IFNAME.sock */
	uint64_t reserved[4];	/* zero: room for fields of later versions */
};

struct rttr;

/*
 * Sets up a real-time connection to qos->daddr:qos->dport through rtcd.
 * Blocks until the network accepts or refuses (rtcd gives up after 3 s).
 * NULL on failure, with errno set and rttr_error() saying why; a refusal
 * by the network carries rtcd's message, e.g. "not enough real-time
 * bandwidth on the path (switch 2) [bandwidth]". errno: ENOSPC (bandwidth,
 * buffers, connections or IDs exhausted), EHOSTUNREACH (receiver unknown),
 * ETIMEDOUT (no answer), EAGAIN (switch busy), ENETDOWN (link down),
 * EINVAL (bad qos), ECONNREFUSED/ENOENT (no rtcd), EPROTO (bad reply).
 */
RTTR_API struct rttr *rttr_open(const struct rttr_qos *qos);

/*
 * Sends LEN bytes as one datagram once the bucket holds its whole frame
 * (LEN + RTTR_OVERHEAD bytes), sleeping to the shaper's next ticks until it
 * does. With MSG_DONTWAIT in FLAGS, fails with EAGAIN instead of sleeping
 * (rttr_next_tick() says when to try again); FLAGS (MSG_DONTWAIT,
 * MSG_CONFIRM, MSG_NOSIGNAL only) go on to send(2).
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

/* CLOCK_MONOTONIC time, ns, of the shaper's next tick. */
RTTR_API uint64_t rttr_next_tick(const struct rttr *r);

/* Tears the connection down (tells rtcd) and frees R. NULL is allowed. */
RTTR_API void rttr_close(struct rttr *r);

/* Why the calling thread's last failed librttr call failed. */
RTTR_API const char *rttr_error(void);

#ifdef __cplusplus
}
#endif

#endif
