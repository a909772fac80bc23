// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * rttr_send(): per-packet pacing (pacer.h), or the paper's leaky bucket
 * ticked every period (3.2, bucket.h), on the clock.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include "clock.h"
#include "rttr_int.h"

int rttr_sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

int rttr_shaper_wait(struct rttr_bucket *b)
{
	/* a signal: the caller's to handle, the bucket as it was */
	if (rttr_sleep_until(b->deadline) == EINTR)
		return -1;
	rttr_bucket_tick(b, now_ns());
	return 0;
}

uint64_t rttr_drained_at(const struct rttr *r)
{
	unsigned __int128 ns;

	if (!r->last_sent || !r->rate)
		return 0;
	ns = (unsigned __int128)r->hops * 2 * r->burst * 8000000000ULL / r->rate;
	if (ns < r->delay_bound)
		ns = r->delay_bound;
	ns += r->last_sent;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/*
 * Tick mode: until the bucket holds FRAME bytes, and takes them. 0, or an
 * errno (EAGAIN, EINTR, ECONNRESET); *AT is when it took them.
 */
static int tick_wait(struct rttr *r, uint64_t frame, int flags, uint64_t *at)
{
	for (;;) {
		uint64_t now = now_ns(), deadline;
		bool due = rttr_bucket_due(&r->bucket, now);

		/*
		 * The time since the last tick, credited now: a bucket that
		 * was full meanwhile gains nothing, so what leaves in any
		 * interval stays within burst + B x interval. Crediting it
		 * only at the next tick would let a drained bucket refill
		 * with time it spent full: twice the burst back to back.
		 */
		rttr_bucket_tick(&r->bucket, now);
		if (due && !rttr_ctl_alive(r))
			return ECONNRESET;
		if (rttr_bucket_take(&r->bucket, frame)) {
			*at = now;
			return 0;
		}
		if (flags & MSG_DONTWAIT) {
			rttr_set_error("rttr_send: the bucket holds less than the frame");
			return EAGAIN;
		}
		deadline = r->bucket.deadline;
		if (rttr_shaper_wait(&r->bucket)) {
			rttr_set_error("rttr_send: interrupted by a signal");
			return EINTR;
		}
		if (r->bucket.last - deadline > r->late_max)
			r->late_max = r->bucket.last - deadline;
		if (!rttr_ctl_alive(r))
			return ECONNRESET;
	}
}

/*
 * Per-packet: until the pacer lets FRAME bytes go, and counts them gone.
 * 0, or an errno (EAGAIN, EINTR, ECONNRESET); *AT is when it let them go.
 */
static int pace_wait(struct rttr *r, uint64_t frame, int flags, uint64_t *at)
{
	for (;;) {
		uint64_t now = now_ns(), wake;

		/* rtcd's notices as often as tick mode looks: not a poll(2) a frame */
		if (now >= r->ctl_at) {
			r->ctl_at = now + RTTR_CTL_EVERY_NS;
			if (!rttr_ctl_alive(r))
				return ECONNRESET;
			/*
			 * The clock anew: a frame let go on the time before
			 * the look would leave a pacer that credits it with
			 * time it did not wait, and a burst of tol + a frame.
			 */
			now = now_ns();
		}
		if (rttr_pacer_take(&r->pacer, frame, now)) {
			r->next_wake = 0;
			*at = now;
			return 0;
		}
		wake = rttr_pacer_wake(&r->pacer, frame, now);
		r->next_wake = wake;
		if (flags & MSG_DONTWAIT) {
			rttr_set_error("rttr_send: the frame is not due yet");
			return EAGAIN;
		}
		if (rttr_sleep_until(wake) == EINTR) {
			rttr_set_error("rttr_send: interrupted by a signal");
			return EINTR;
		}
		now = now_ns();
		if (now > wake && now - wake > r->late_max)
			r->late_max = now - wake;
	}
}

ssize_t rttr_send(struct rttr *r, const void *buf, size_t len, int flags)
{
	uint64_t frame = (uint64_t)len + RTTR_OVERHEAD, at, limit;
	struct rttr_pacer pacer;
	ssize_t n;
	int e;

	if (!r || (!buf && len) ||
	    (flags & ~(MSG_DONTWAIT | MSG_CONFIRM | MSG_NOSIGNAL))) {
		/* MSG_MORE and the like would make datagrams the shaper never saw */
		rttr_set_error("rttr_send: bad arguments or flags");
		errno = EINVAL;
		return -1;
	}
	if (r->dead) {
		errno = ECONNRESET;
		return -1;
	}
	limit = r->pacing == RTTR_PACING_TICK ? r->bucket.burst : r->pacer.tol;
	if (frame > r->max_pkt || frame > limit) {
		rttr_set_error("a %zu-byte datagram makes a %llu-byte frame: more than %s (%llu)",
			       len, (unsigned long long)frame,
			       frame > r->max_pkt ? "max_pkt" : "the burst",
			       (unsigned long long)(frame > r->max_pkt ? r->max_pkt : limit));
		errno = EMSGSIZE;
		return -1;
	}
	/* as it was, should the frame not leave */
	pacer = r->pacer;
	e = r->pacing == RTTR_PACING_TICK ? tick_wait(r, frame, flags, &at) :
					     pace_wait(r, frame, flags, &at);
	if (e) {
		errno = e;
		return -1;
	}
	n = send(r->fd, buf, len, flags);
	if (n < 0) {
		e = errno;
		if (r->pacing == RTTR_PACING_TICK)
			rttr_bucket_refund(&r->bucket, frame);
		else
			r->pacer = pacer;
		rttr_set_error("rttr_send: %s", strerror(e));
		errno = e;
		return n;
	}
	/* the host's own part of the jitter, as far as it shows here */
	r->last_sent = now_ns();
	if (r->last_sent - at > r->send_max)
		r->send_max = r->last_sent - at;
	return n;
}
