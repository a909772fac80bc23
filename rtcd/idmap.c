// SPDX-License-Identifier: GPL-2.0
/*
 * The host's connection IDs on its link: 00:0b to ff:fe, handed out
 * cyclically, so that an ID just released (whose teardown may still be on
 * its way, or lost) is the last to be used again.
 */
#include <string.h>
#include <linux/ethereal.h>

#include "rtcd.h"

void idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof(*m));
	m->next = ETHEREAL_ID_MIN;
}

bool idmap_used(const struct idmap *m, uint16_t id)
{
	return m->used[id / 64] & (1ULL << (id % 64));
}

bool idmap_full(const struct idmap *m)
{
	return m->count >= ETHEREAL_ID_MAX - ETHEREAL_ID_MIN + 1;
}

int idmap_alloc(struct idmap *m)
{
	const uint32_t n = ETHEREAL_ID_MAX - ETHEREAL_ID_MIN + 1;
	uint32_t i, id = m->next;

	if (idmap_full(m))
		return -1;
	for (i = 0; i < n; i++, id++) {
		if (id > ETHEREAL_ID_MAX)
			id = ETHEREAL_ID_MIN;
		/* A whole word in use: skip to the next word. */
		if (m->used[id / 64] == ~0ULL && id % 64 == 0 &&
		    id + 63 <= ETHEREAL_ID_MAX) {
			i += 63;
			id += 63;
			continue;
		}
		if (!idmap_used(m, (uint16_t)id))
			break;
	}
	if (i >= n)
		return -1;
	idmap_mark(m, (uint16_t)id);
	idmap_start_after(m, (uint16_t)id);
	return (int)id;
}

void idmap_mark(struct idmap *m, uint16_t id)
{
	if (idmap_used(m, id))
		return;
	m->used[id / 64] |= 1ULL << (id % 64);
	m->count++;
}

void idmap_start_after(struct idmap *m, uint16_t id)
{
	m->next = id >= ETHEREAL_ID_MAX || id < ETHEREAL_ID_MIN ? ETHEREAL_ID_MIN : id + 1U;
}

void idmap_free(struct idmap *m, uint16_t id)
{
	if (!idmap_used(m, id))
		return;
	m->used[id / 64] &= ~(1ULL << (id % 64));
	m->count--;
}
