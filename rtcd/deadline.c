// SPDX-License-Identifier: GPL-2.0
/*
 * The connections' deadlines (retransmit, give up, refresh), earliest
 * first: a binary min-heap, so that one timerfd set to the earliest serves
 * them all, however many there are.
 */
#include <stdlib.h>

#include "rtcd.h"

static void place(struct deadlines *q, struct deadline *d, size_t i)
{
	q->v[i] = d;
	d->pos = i + 1;
}

static void up(struct deadlines *q, size_t i)
{
	struct deadline *d = q->v[i];

	while (i > 0 && q->v[(i - 1) / 2]->at > d->at) {
		place(q, q->v[(i - 1) / 2], i);
		i = (i - 1) / 2;
	}
	place(q, d, i);
}

static void down(struct deadlines *q, size_t i)
{
	struct deadline *d = q->v[i];
	size_t c;

	while ((c = 2 * i + 1) < q->n) {
		if (c + 1 < q->n && q->v[c + 1]->at < q->v[c]->at)
			c++;
		if (q->v[c]->at >= d->at)
			break;
		place(q, q->v[c], i);
		i = c;
	}
	place(q, d, i);
}

int deadline_set(struct deadlines *q, struct deadline *d, uint64_t at)
{
	if (!d->pos) {
		if (q->n == q->cap) {
			size_t cap = q->cap ? 2 * q->cap : 64;
			struct deadline **v = realloc(q->v, cap * sizeof(*v));

			if (!v)
				return -1;
			q->v = v;
			q->cap = cap;
		}
		d->at = at;
		place(q, d, q->n++);
		up(q, q->n - 1);
		return 0;
	}
	d->at = at;
	up(q, d->pos - 1);
	down(q, d->pos - 1);
	return 0;
}

void deadline_cancel(struct deadlines *q, struct deadline *d)
{
	struct deadline *last;
	size_t i = d->pos - 1;

	if (!d->pos)
		return;
	d->pos = 0;
	last = q->v[--q->n];
	if (last == d)
		return;
	/* The last one fills the hole, and finds its place from there. */
	place(q, last, i);
	up(q, i);
	down(q, last->pos - 1);
}

struct deadline *deadlines_first(const struct deadlines *q)
{
	return q->n ? q->v[0] : NULL;
}

void deadlines_free(struct deadlines *q)
{
	free(q->v);
	q->v = NULL;
	q->n = q->cap = 0;
}
