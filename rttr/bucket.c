// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/* The leaky bucket: see bucket.h. */
#include "bucket.h"

#define BITNS_PER_BYTE (8ULL * 1000000000ULL)	/* bit/s x ns -> bytes */

typedef unsigned __int128 u128;

void rttr_bucket_init(struct rttr_bucket *b, uint64_t rate, uint64_t burst,
		      uint64_t period, uint64_t now)
{
	b->rate = rate;
	b->burst = burst;
	b->period = period ? period : 1;
	b->tokens = 0;
	b->frac = 0;
	b->last = now;
	b->deadline = now > UINT64_MAX - b->period ? UINT64_MAX : now + b->period;
}

uint64_t rttr_bucket_tick(struct rttr_bucket *b, uint64_t now)
{
	uint64_t added = 0;

	if (now > b->last) {
		/* T_m x B in bit-ns, plus what the previous tick left over */
		u128 acc = (u128)(now - b->last) * b->rate + b->frac;
		u128 bytes = acc / BITNS_PER_BYTE;
		uint64_t room = b->burst - b->tokens;

		if (bytes >= room) {
			/* full: the remainder is lost with the overflow */
			added = room;
			b->tokens = b->burst;
			b->frac = 0;
		} else {
			added = (uint64_t)bytes;
			b->tokens += added;
			b->frac = (uint64_t)(acc % BITNS_PER_BYTE);
		}
		b->last = now;
	}
	if (now >= b->deadline && b->deadline != UINT64_MAX) {
		u128 d = (u128)b->deadline +
			 ((u128)(now - b->deadline) / b->period + 1) * b->period;

		b->deadline = d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
	}
	return added;
}

bool rttr_bucket_take(struct rttr_bucket *b, uint64_t bytes)
{
	if (bytes > b->tokens)
		return false;
	b->tokens -= bytes;
	return true;
}

void rttr_bucket_refund(struct rttr_bucket *b, uint64_t bytes)
{
	b->tokens = bytes >= b->burst - b->tokens ? b->burst : b->tokens + bytes;
}

uint64_t rttr_bucket_ready_at(const struct rttr_bucket *b, uint64_t bytes)
{
	u128 need, ns, periods, t;

	if (bytes > b->burst)
		return UINT64_MAX;
	if (bytes <= b->tokens)
		return b->last;
	if (!b->rate)
		return UINT64_MAX;
	/* bit-ns still missing, then the time they take at the rate */
	need = (u128)(bytes - b->tokens) * BITNS_PER_BYTE - b->frac;
	ns = (need + b->rate - 1) / b->rate;
	t = (u128)b->last + ns;
	if (t <= b->deadline)
		return b->deadline;
	periods = (t - b->deadline + b->period - 1) / b->period;
	t = (u128)b->deadline + periods * b->period;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}
