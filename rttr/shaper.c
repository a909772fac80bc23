// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/* rttr_send(): the leaky bucket on the clock (the paper's 3.2). */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include "clock.h"
#include "rttr_int.h"

int rttr_shaper_wait(struct rttr_bucket *b)
{
	struct timespec ts = { .tv_sec = (time_t)(b->deadline / 1000000000ULL),
			       .tv_nsec = (long)(b->deadline % 1000000000ULL) };
	int e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	/* a signal: the caller's to handle, the bucket as it was */
	if (e == EINTR)
		return -1;
	rttr_bucket_tick(b, now_ns());
	return 0;
}

uint64_t rttr_drained_at(const struct rttr *r)
{
	unsigned __int128 ns;

	if (!r->last_sent || !r->bucket.rate)
		return 0;
	ns = (unsigned __int128)r->hops * 2 * r->bucket.burst * 8000000000ULL /
	     r->bucket.rate;
	ns += r->last_sent;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

ssize_t rttr_send(struct rttr *r, const void *buf, size_t len, int flags)
{
	uint64_t frame = (uint64_t)len + RTTR_OVERHEAD;
	ssize_t n;

	if (!r || (!buf && len) ||
	    (flags & ~(MSG_DONTWAIT | MSG_CONFIRM | MSG_NOSIGNAL))) {
		/* MSG_MORE and the like would make datagrams the bucket never saw */
		rttr_set_error("rttr_send: bad arguments or flags");
		errno = EINVAL;
		return -1;
	}
	if (r->dead) {
		errno = ECONNRESET;
		return -1;
	}
	if (frame > r->max_pkt || frame > r->bucket.burst) {
		rttr_set_error("a %zu-byte datagram makes a %llu-byte frame: more than %s (%llu)",
			       len, (unsigned long long)frame,
			       frame > r->max_pkt ? "max_pkt" : "the burst",
			       (unsigned long long)(frame > r->max_pkt ?
						    r->max_pkt : r->bucket.burst));
		errno = EMSGSIZE;
		return -1;
	}
	for (;;) {
		uint64_t now = now_ns();
		bool due = rttr_bucket_due(&r->bucket, now);

		/*
		 * The time since the last tick, credited now: a bucket that
		 * was full meanwhile gains nothing, so what leaves in any
		 * interval stays within burst + B x interval. Crediting it
		 * only at the next tick would let a drained bucket refill
		 * with time it spent full: twice the burst back to back.
		 */
		rttr_bucket_tick(&r->bucket, now);
		if (due && !rttr_ctl_alive(r)) {
			errno = ECONNRESET;
			return -1;
		}
		if (rttr_bucket_take(&r->bucket, frame))
			break;
		if (flags & MSG_DONTWAIT) {
			rttr_set_error("rttr_send: the bucket holds less than the frame");
			errno = EAGAIN;
			return -1;
		}
		if (rttr_shaper_wait(&r->bucket)) {
			rttr_set_error("rttr_send: interrupted by a signal");
			errno = EINTR;
			return -1;
		}
		if (!rttr_ctl_alive(r)) {
			errno = ECONNRESET;
			return -1;
		}
	}
	n = send(r->fd, buf, len, flags);
	if (n >= 0)
		r->last_sent = now_ns();
	if (n < 0) {
		int e = errno;

		rttr_bucket_refund(&r->bucket, frame);
		rttr_set_error("rttr_send: %s", strerror(e));
		errno = e;
	}
	return n;
}
