// SPDX-License-Identifier: GPL-2.0
/* The timing wheel of wheel.h. */
#ifdef __KERNEL__
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/limits.h>
#endif

#include "wheel.h"

#define SLOT_MASK	(ETHEREAL_WHEEL_SLOTS - 1)

void ethereal_wheel_init(struct ethereal_wheel *w, u64 now)
{
	unsigned int i;

	w->cur = now >> ETHEREAL_WHEEL_SHIFT;
	w->count = 0;
	for (i = 0; i < ETHEREAL_WHEEL_SLOTS; i++) {
		INIT_LIST_HEAD(&w->l0[i]);
		INIT_LIST_HEAD(&w->l1[i]);
	}
	INIT_LIST_HEAD(&w->far);
	bitmap_zero(w->b0, ETHEREAL_WHEEL_SLOTS);
	bitmap_zero(w->b1, ETHEREAL_WHEEL_SLOTS);
}

void ethereal_wheel_item_init(struct ethereal_wheel_item *it)
{
	INIT_LIST_HEAD(&it->list);
	it->level = -1;
}

/* File IT by its time against the current slot; late items are due now. */
static void wheel_file(struct ethereal_wheel *w, struct ethereal_wheel_item *it)
{
	u64 s = it->time >> ETHEREAL_WHEEL_SHIFT;
	u64 span = w->cur >> ETHEREAL_WHEEL_BITS;

	if (s < w->cur)
		s = w->cur;
	if ((s >> ETHEREAL_WHEEL_BITS) == span) {
		it->level = 0;
		it->slot = s & SLOT_MASK;
		list_add_tail(&it->list, &w->l0[it->slot]);
		__set_bit(it->slot, w->b0);
	} else if ((s >> ETHEREAL_WHEEL_BITS) - span < ETHEREAL_WHEEL_SLOTS) {
		it->level = 1;
		it->slot = (s >> ETHEREAL_WHEEL_BITS) & SLOT_MASK;
		list_add_tail(&it->list, &w->l1[it->slot]);
		__set_bit(it->slot, w->b1);
	} else {
		it->level = 2;
		list_add_tail(&it->list, &w->far);
	}
}

void ethereal_wheel_add(struct ethereal_wheel *w, struct ethereal_wheel_item *it, u64 time)
{
	it->time = time;
	wheel_file(w, it);
	w->count++;
}

void ethereal_wheel_del(struct ethereal_wheel *w, struct ethereal_wheel_item *it)
{
	list_del_init(&it->list);
	if (it->level == 0 && list_empty(&w->l0[it->slot]))
		__clear_bit(it->slot, w->b0);
	else if (it->level == 1 && list_empty(&w->l1[it->slot]))
		__clear_bit(it->slot, w->b1);
	it->level = -1;
	w->count--;
}

/*
 * The next span holding level-1 items, as an absolute span number, or 0.
 * Level 1 never holds the current span (those items are in level 0), so a
 * circular search from the next slot covers the 255 spans ahead.
 */
static u64 wheel_next_span(struct ethereal_wheel *w)
{
	u64 span = w->cur >> ETHEREAL_WHEEL_BITS;
	unsigned int from = (span + 1) & SLOT_MASK, i;

	i = find_next_bit(w->b1, ETHEREAL_WHEEL_SLOTS, from);
	if (i >= ETHEREAL_WHEEL_SLOTS) {
		i = find_first_bit(w->b1, from);
		if (i >= from)
			return 0;
	}
	return span + 1 + ((i - from) & SLOT_MASK);
}

static u64 wheel_far_min(struct ethereal_wheel *w)
{
	struct ethereal_wheel_item *it;
	u64 best = U64_MAX;

	list_for_each_entry(it, &w->far, list)
		if (it->time < best)
			best = it->time;
	return best;
}

/*
 * Set the current slot. Far items were filed against an earlier turn of
 * level 1: on entering a new turn, file them again.
 */
static void wheel_move(struct ethereal_wheel *w, u64 cur)
{
	struct ethereal_wheel_item *it, *tmp;
	unsigned int turn = 2 * ETHEREAL_WHEEL_BITS;
	bool new_turn = (cur >> turn) != (w->cur >> turn);
	LIST_HEAD(moving);

	w->cur = cur;
	if (!new_turn || list_empty(&w->far))
		return;
	list_splice_init(&w->far, &moving);
	list_for_each_entry_safe(it, tmp, &moving, list) {
		list_del(&it->list);
		wheel_file(w, it);
	}
}

/* Make SPAN current: its level-1 items go to level 0. L0 must be empty. */
static void wheel_enter_span(struct ethereal_wheel *w, u64 span)
{
	struct ethereal_wheel_item *it, *tmp;
	unsigned int slot = span & SLOT_MASK;
	LIST_HEAD(moving);

	wheel_move(w, span << ETHEREAL_WHEEL_BITS);
	list_splice_init(&w->l1[slot], &moving);
	__clear_bit(slot, w->b1);
	list_for_each_entry_safe(it, tmp, &moving, list) {
		list_del(&it->list);
		wheel_file(w, it);
	}
}

/* The first span after the current one holding items, or U64_MAX. */
static u64 wheel_later_span(struct ethereal_wheel *w)
{
	u64 span = wheel_next_span(w), far = wheel_far_min(w);

	if (!span)
		span = U64_MAX;
	if (far != U64_MAX && (far >> (ETHEREAL_WHEEL_SHIFT + ETHEREAL_WHEEL_BITS)) < span)
		span = far >> (ETHEREAL_WHEEL_SHIFT + ETHEREAL_WHEEL_BITS);
	return span;
}

/* The current span's first slot with items from the current one on, or -1. */
static int wheel_l0_first(struct ethereal_wheel *w)
{
	unsigned int i = find_next_bit(w->b0, ETHEREAL_WHEEL_SLOTS, w->cur & SLOT_MASK);

	return i < ETHEREAL_WHEEL_SLOTS ? (int)i : -1;
}

struct ethereal_wheel_item *ethereal_wheel_pop(struct ethereal_wheel *w, u64 now)
{
	u64 t = now >> ETHEREAL_WHEEL_SHIFT, span;
	struct ethereal_wheel_item *it;
	int i;

	for (;;) {
		i = wheel_l0_first(w);
		if (i >= 0) {
			u64 s = (w->cur & ~(u64)SLOT_MASK) | i;

			if (s > t) {
				/* Nothing due; stay near now within this span. */
				if (t > w->cur)
					w->cur = t;
				return NULL;
			}
			w->cur = s;
			it = list_first_entry(&w->l0[i], struct ethereal_wheel_item, list);
			ethereal_wheel_del(w, it);
			return it;
		}
		/* This span is done: go on to the next one with items, if begun. */
		span = w->count ? wheel_later_span(w) : U64_MAX;
		if (span == U64_MAX || (span << ETHEREAL_WHEEL_BITS) > t) {
			/* Level 0 is empty: catch up with now, short of that span. */
			if (t > w->cur)
				wheel_move(w, t);
			return NULL;
		}
		wheel_enter_span(w, span);
	}
}

struct ethereal_wheel_item *ethereal_wheel_peek(struct ethereal_wheel *w)
{
	int i;
	u64 span;

	if (!w->count)
		return NULL;
	i = wheel_l0_first(w);
	if (i >= 0)
		return list_first_entry(&w->l0[i], struct ethereal_wheel_item, list);
	span = wheel_next_span(w);
	if (!span)
		return NULL;
	return list_first_entry(&w->l1[span & SLOT_MASK], struct ethereal_wheel_item, list);
}

u64 ethereal_wheel_next(struct ethereal_wheel *w)
{
	int i;

	if (!w->count)
		return U64_MAX;
	i = wheel_l0_first(w);
	if (i >= 0)
		return ((w->cur & ~(u64)SLOT_MASK) | i) << ETHEREAL_WHEEL_SHIFT;
	return wheel_later_span(w) << (ETHEREAL_WHEEL_BITS + ETHEREAL_WHEEL_SHIFT);
}
