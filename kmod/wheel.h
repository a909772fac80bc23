/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A two-level timing wheel of items due at given times, as Carousel
 * (Saeed et al., SIGCOMM 2017) uses for pacing: adding an item and taking a
 * due one cost O(1) (amortized: an item moves from level 1 to level 0 at
 * most once), whatever the number of items. The paced scheduler keeps each
 * backlogged connection in it, keyed by its head packet's departure time.
 *
 * Level 0: 256 slots of 2^14 ns (16.4 us), the current 4.2 ms span.
 * Level 1: 256 spans of 4.2 ms (1.07 s). Beyond: a list, re-examined once
 * per level-1 turn. Items within one slot come out in insertion order.
 * Pure logic: selftests/unit/wheel_test.c runs it natively.
 */
#ifndef _ETHEREAL_WHEEL_H
#define _ETHEREAL_WHEEL_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/list.h>
#include <linux/types.h>
#endif

#define ETHEREAL_WHEEL_SHIFT	14
#define ETHEREAL_WHEEL_BITS	8
#define ETHEREAL_WHEEL_SLOTS	BIT(ETHEREAL_WHEEL_BITS)

struct ethereal_wheel_item {
	struct list_head list;
	u64 time;		/* when it is due, ns */
	short level;		/* 0, 1, 2 (far), -1 when not in the wheel */
	short slot;
};

struct ethereal_wheel {
	u64 cur;		/* current level-0 slot number (time >> SHIFT) */
	unsigned int count;
	struct list_head l0[ETHEREAL_WHEEL_SLOTS];
	struct list_head l1[ETHEREAL_WHEEL_SLOTS];
	struct list_head far;
	unsigned long b0[ETHEREAL_WHEEL_SLOTS / (8 * sizeof(long))];
	unsigned long b1[ETHEREAL_WHEEL_SLOTS / (8 * sizeof(long))];
};

void ethereal_wheel_init(struct ethereal_wheel *w, u64 now);
void ethereal_wheel_item_init(struct ethereal_wheel_item *it);
void ethereal_wheel_add(struct ethereal_wheel *w, struct ethereal_wheel_item *it, u64 time);
void ethereal_wheel_del(struct ethereal_wheel *w, struct ethereal_wheel_item *it);
/* An item due at NOW (its slot has begun), or NULL. */
struct ethereal_wheel_item *ethereal_wheel_pop(struct ethereal_wheel *w, u64 now);
/*
 * An item not yet due, without taking it: the first of the earliest slot
 * of the current span, or else the first filed in the next span with
 * items (not the earliest there: finding that would scan its list), or
 * NULL. O(1); the current slot stays.
 */
struct ethereal_wheel_item *ethereal_wheel_peek(struct ethereal_wheel *w);
/* When the earliest item's slot begins (a lower bound), or U64_MAX if empty. */
u64 ethereal_wheel_next(struct ethereal_wheel *w);

static inline bool ethereal_wheel_item_queued(const struct ethereal_wheel_item *it)
{
	return it->level >= 0;
}

#endif /* _ETHEREAL_WHEEL_H */
