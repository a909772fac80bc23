// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/* The per-packet pacer: see pacer.h. */
#include "pacer.h"

#define BITNS_PER_BYTE (8ULL * 1000000000ULL)	/* bit/s x ns -> bytes */

typedef unsigned __int128 u128;

static uint64_t sat64(u128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* TAT from TAT x r in bit-ns: the whole ns and the fraction, saturating. */
static void set_tat(struct rttr_pacer *p, u128 tat)
{
	if (tat / p->rate > UINT64_MAX) {
		p->tat = UINT64_MAX;
		p->frac = 0;
	} else {
		p->tat = (uint64_t)(tat / p->rate);
		p->frac = (uint64_t)(tat % p->rate);
	}
}

uint64_t rttr_pacer_tolerance(uint64_t burst, uint32_t max_pkt)
{
	/* half of what the burst holds beyond a frame stays for the jitter */
	return burst > max_pkt ? max_pkt + (burst - max_pkt) / 2 : max_pkt;
}

void rttr_pacer_init(struct rttr_pacer *p, uint64_t rate, uint64_t tol,
		     uint32_t max_pkt, uint64_t res_ns, uint64_t now)
{
	/* empty: TAT at now + (tol - max_pkt) / r, in bit-ns */
	u128 lead = tol > max_pkt ? (u128)(tol - max_pkt) * BITNS_PER_BYTE : 0;

	p->rate = rate ? rate : 1;
	p->tol = tol;
	p->unused = 0;
	set_tat(p, (u128)now * p->rate + lead);
	/* at most half the lead: the shortest sleep itself must lose no rate */
	lead /= 2 * p->rate;
	p->min_sleep = res_ns < lead ? res_ns : (uint64_t)lead;
}

uint64_t rttr_pacer_due(const struct rttr_pacer *p, uint64_t len)
{
	u128 tat, early;

	if (len > p->tol)
		return UINT64_MAX;
	/* TAT x r and the tolerance left beyond this frame, in bit-ns */
	tat = (u128)p->tat * p->rate + p->frac;
	early = (u128)(p->tol - len) * BITNS_PER_BYTE;
	if (early >= tat)
		return 0;
	/* rounded up: never a nanosecond before the GCRA allows */
	return sat64((tat - early + p->rate - 1) / p->rate);
}

bool rttr_pacer_take(struct rttr_pacer *p, uint64_t len, uint64_t now)
{
	u128 tat, t;

	if (now < rttr_pacer_due(p, len))
		return false;
	tat = (u128)p->tat * p->rate + p->frac;
	t = (u128)now * p->rate;
	/* a sender late past TAT gets no credit for the time it missed */
	if (t > tat) {
		p->unused += (uint64_t)((t - tat) / p->rate);
		tat = t;
	}
	set_tat(p, tat + (u128)len * BITNS_PER_BYTE);
	return true;
}

uint64_t rttr_pacer_wake(const struct rttr_pacer *p, uint64_t len, uint64_t now)
{
	uint64_t due = rttr_pacer_due(p, len);
	uint64_t soonest = now > UINT64_MAX - p->min_sleep ? UINT64_MAX : now + p->min_sleep;

	if (due <= now)
		return now;
	return due > soonest ? due : soonest;
}
