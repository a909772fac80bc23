/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/* The monotonic clock in nanoseconds, and sleeping to absolute deadlines. */
#ifndef ETHEREAL_CLOCK_H
#define ETHEREAL_CLOCK_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * CLOCK_REALTIME ns (a time another process was given) on CLOCK_MONOTONIC;
 * now, if it has passed.
 */
static inline uint64_t mono_of_real(uint64_t real)
{
	struct timespec ts;
	uint64_t now = now_ns();
	int64_t ahead;

	clock_gettime(CLOCK_REALTIME, &ts);
	ahead = (int64_t)(real - ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec));
	return ahead > 0 ? now + (uint64_t)ahead : now;
}

/* Absolute deadlines: a periodic sender does not drift with its own work. */
static inline void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * poll()'s timeout for a receiver that stops at END or IDLE ns after its
 * last datagram (LAST; 0 for none of either): in *MS, -1 without a limit;
 * false once the earlier of the two has passed.
 */
static inline bool recv_timeout(uint64_t now, uint64_t end, uint64_t last,
				uint64_t idle, int *ms)
{
	uint64_t until = end;

	if (idle && last && (!until || last + idle < until))
		until = last + idle;
	*ms = -1;
	if (!until)
		return true;
	if (now >= until)
		return false;
	/* (a wait of more than 24 days is one of INT_MAX ms, woken early) */
	*ms = until - now > (uint64_t)INT_MAX * 1000000 ? INT_MAX :
	      (int)((until - now + 999999) / 1000000);
	return true;
}

#endif
