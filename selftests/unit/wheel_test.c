// SPDX-License-Identifier: GPL-2.0
/*
 * kmod/wheel.c, the paced scheduler's timing wheel, against a brute-force
 * model: nothing comes out before its slot begins, everything due comes
 * out, next() is a lower bound, peek() finds the earliest of the current
 * span without taking it, deletion works, at every time scale.
 */
#include <stdlib.h>
#include "kselftest_harness.h"
#include "wheel.h"

#define N 2000
#define SLOT(t) ((t) >> ETHEREAL_WHEEL_SHIFT)

struct item {
	struct ethereal_wheel_item w;
	u64 time;
	int in;		/* in the model */
};

static struct ethereal_wheel wheel;
static struct item items[N];

static u64 rnd(u64 max)
{
	return ((u64)random() << 31 ^ (u64)random()) % max;
}

/* Random traffic with gaps of up to MAXGAP ns, MAXAHEAD ns into the future. */
static void run(struct __test_metadata *_metadata, u64 maxgap, u64 maxahead, int rounds)
{
	u64 now = 1000000000ULL + rnd(1000000000ULL);
	int r, i, in = 0;

	ethereal_wheel_init(&wheel, now);
	for (i = 0; i < N; i++) {
		ethereal_wheel_item_init(&items[i].w);
		items[i].in = 0;
	}
	for (r = 0; r < rounds; r++) {
		struct ethereal_wheel_item *wi;
		u64 next, earliest = U64_MAX;

		/* add a few, some late, delete one now and then */
		for (i = 0; i < 20; i++) {
			struct item *it = &items[rnd(N)];

			if (it->in)
				continue;
			it->time = now - 50000 + rnd(maxahead + 50000);
			ethereal_wheel_add(&wheel, &it->w, it->time);
			it->in = 1;
			in++;
		}
		if (rnd(4) == 0) {
			struct item *it = &items[rnd(N)];

			if (it->in) {
				ethereal_wheel_del(&wheel, &it->w);
				ASSERT_FALSE(ethereal_wheel_item_queued(&it->w));
				it->in = 0;
				in--;
			}
		}
		ASSERT_EQ((unsigned int)in, wheel.count);

		for (i = 0; i < N; i++)
			if (items[i].in && items[i].time < earliest)
				earliest = items[i].time;
		next = ethereal_wheel_next(&wheel);
		if (in) {
			ASSERT_LE(SLOT(next), SLOT(earliest < now ? now : earliest))
				TH_LOG("next %llu earliest %llu", (unsigned long long)next,
				       (unsigned long long)earliest);
		} else {
			ASSERT_EQ(U64_MAX, next);
		}
		/*
		 * peek: an item in the wheel, of the earliest slot when that
		 * is in the current span; taken out now and then, as the paced
		 * scheduler sends a frame early.
		 */
		wi = ethereal_wheel_peek(&wheel);
		if (!in)
			ASSERT_NULL(wi);
		if (in && earliest - now < 1000000000ULL)
			ASSERT_NE(NULL, wi);
		if (wi) {
			struct item *it = container_of(wi, struct item, w);

			ASSERT_TRUE(it->in);
			if (wi->level == 0)
				ASSERT_EQ(SLOT(next), SLOT(it->time) < wheel.cur ?
					  wheel.cur : SLOT(it->time));
			if (rnd(3) == 0) {
				ethereal_wheel_del(&wheel, wi);
				it->in = 0;
				in--;
			}
		}

		now += rnd(maxgap);
		while ((wi = ethereal_wheel_pop(&wheel, now))) {
			struct item *it = container_of(wi, struct item, w);

			ASSERT_TRUE(it->in);
			ASSERT_LE(SLOT(it->time), SLOT(now));
			it->in = 0;
			in--;
		}
		for (i = 0; i < N; i++) {
			if (!items[i].in)
				continue;
			ASSERT_GT(SLOT(items[i].time), SLOT(now))
				TH_LOG("item %d due at %llu not out at %llu", i,
				       (unsigned long long)items[i].time,
				       (unsigned long long)now);
		}
	}
}

TEST(microseconds)
{
	srandom(1);
	run(_metadata, 20000, 100000, 20000);
}

TEST(milliseconds_across_spans)
{
	srandom(2);
	run(_metadata, 3000000, 20000000, 20000);
}

TEST(seconds_and_far_items)
{
	srandom(3);
	run(_metadata, 400000000, 5000000000ULL, 3000);
}

TEST(long_idle_gaps)
{
	srandom(4);
	run(_metadata, 30000000000ULL, 2000000000ULL, 500);
}

TEST(fifo_within_a_slot)
{
	struct ethereal_wheel_item *wi;
	u64 now = 5000000000ULL;
	int i;

	ethereal_wheel_init(&wheel, now);
	for (i = 0; i < 10; i++) {
		ethereal_wheel_item_init(&items[i].w);
		ethereal_wheel_add(&wheel, &items[i].w, now + 1000);
	}
	for (i = 0; i < 10; i++) {
		wi = ethereal_wheel_pop(&wheel, now + 20000);
		ASSERT_EQ(&items[i].w, wi);
	}
	ASSERT_EQ(NULL, ethereal_wheel_pop(&wheel, now + 20000));
}

TEST_HARNESS_MAIN
