/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * librttr's leaky bucket (the paper's 3.2): pure arithmetic, no system
 * calls, so that it can be tested on made-up clocks.
 *
 * Each tick adds T_m x B to the bucket, T_m being the measured time since
 * the previous tick and B the reserved rate, capped at the burst. Ticks are
 * due at absolute deadlines, a period apart: a late tick does not move the
 * ones after it, and the bytes it adds are those of the time that really
 * passed, so lateness costs neither rate nor smoothness in the long run.
 *
 * Units: rate in bit/s (of whole Ethernet frames), burst and tokens in
 * bytes, times in nanoseconds of CLOCK_MONOTONIC. The fraction of a byte a
 * tick leaves over is carried to the next one, so the long-run rate is
 * exact, down to 1 bit/s, and no product overflows up to 2^64 bit/s.
 */
#ifndef RTTR_BUCKET_H
#define RTTR_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

struct rttr_bucket {
	uint64_t rate;		/* bit/s */
	uint64_t burst;		/* bytes: the most the bucket holds */
	uint64_t period;	/* ns between ticks */
	uint64_t tokens;	/* bytes: what may be sent now */
	uint64_t frac;		/* bit-ns beyond the whole bytes: < 8e9 */
	uint64_t last;		/* time of the previous tick */
	uint64_t deadline;	/* absolute time the next tick is due */
};

/* An empty bucket, its first tick due a period after NOW. */
void rttr_bucket_init(struct rttr_bucket *b, uint64_t rate, uint64_t burst,
		      uint64_t period, uint64_t now);

/*
 * A tick at NOW: adds (NOW - previous tick) x rate, capped at the burst, and
 * moves the deadline to the first one after NOW that is a whole number of
 * periods after the previous deadline. Returns the bytes added. A clock
 * going backwards adds nothing.
 */
uint64_t rttr_bucket_tick(struct rttr_bucket *b, uint64_t now);

/* Whether a tick is due at NOW. */
static inline bool rttr_bucket_due(const struct rttr_bucket *b, uint64_t now)
{
	return now >= b->deadline;
}

/* Takes BYTES if the bucket holds them all; false, untouched, if not. */
bool rttr_bucket_take(struct rttr_bucket *b, uint64_t bytes);

/* Gives back BYTES taken for a frame that was not sent, up to the burst. */
void rttr_bucket_refund(struct rttr_bucket *b, uint64_t bytes);

/*
 * The deadline of the first tick after which the bucket will hold BYTES if
 * nothing is taken and every tick comes on time; UINT64_MAX if it never
 * will (more than the burst).
 */
uint64_t rttr_bucket_ready_at(const struct rttr_bucket *b, uint64_t bytes);

#endif
