/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * librttr's per-packet pacer: pure arithmetic, no system calls, so that it
 * can be tested on made-up clocks (selftests/unit/pacer_test.c).
 *
 * A GCRA at the contract's rate r, in ITU-T I.371's virtual-scheduling
 * form, the one the switch's paced mode polices with (kmod/sch_ethereal.c,
 * ethereal_enqueue_one). TAT is the theoretical arrival time of the next
 * frame; a frame of L bytes may leave at t when
 *
 *	t >= TAT - (tol - L) / r,	and then TAT = max(t, TAT) + L / r,
 *
 * tol being the tolerance, in bytes. It is a token bucket of tol bytes:
 * between any two departures t_i <= t_k, the frames that leave (both
 * included) total at most tol + r (t_k - t_i). The bucket starts empty (a
 * frame of max_pkt is due at once, the next a frame time later), as tick
 * mode's does.
 *
 * Conforming at the switch by construction. The first switch polices the
 * connection with the same GCRA, its tolerance B being the contract's burst
 * capped at a cycle of the rate and a frame (the burst rtcd reports is the
 * one the path granted, that cap applied). A frame librttr lets go at t_k reaches the
 * switch's queue at a_k = t_k + d_k, with d_k in [d, d + J]: J is the
 * host's own jitter after the decision (the rest of send(2) and the stack,
 * a preemption in between, the NIC's queue and link). For i <= k,
 *
 *	L_i + ... + L_k <= tol + r (t_k - t_i) <= tol + r J + r (a_k - a_i),
 *
 * so the arrivals conform to (r, tol + r J): what librttr sends is
 * conforming at the switch as long as J <= (B - tol) / r, the host's
 * jitter budget, which rttr_info() reports.
 *
 * The tolerance (rttr_pacer_tolerance) is half of what the burst holds
 * beyond a frame, tol = (B + max_pkt) / 2: the other half is the jitter
 * budget. What the pacer uses it for is catching up: a sender always ready
 * sends each frame when it is due, a frame time after the one before, and
 * the tolerance only shows after a wake-up (or an application) late by
 * more than a frame time, when the frames due meanwhile leave at once, at
 * most tol bytes: so a lateness up to (tol - max_pkt) / r (3.8 ms at
 * 5 Mbit/s with the default 10 ms burst) costs no rate, and a longer one
 * costs only what lies beyond. A tolerance of one or two frames keeps no
 * rate on a loaded machine: clock_nanosleep() there wakes a normal thread
 * 60 to 70 us late at the median, 100 to 200 us at the 99th percentile and
 * 1 to 3 ms at the 99.9th; 200 us of tolerance lost 2.6% of 100 Mbit/s
 * and 3.4% of 1 Gbit/s (this project's 2-CPU machine, loaded, in a run).
 *
 * Sleeps (rttr_pacer_wake): to the time the frame is due, but never less
 * than the timer's useful resolution R, so that when a frame time is
 * shorter (121 us at 100 Mbit/s, 12 us at 1 Gbit/s) the frames due within
 * R leave together, instead of a wake-up each. R is 200 us by default, what
 * a loaded machine's timer keeps to 99 times in 100 (above); never more
 * than half the tolerance's lead, so that the shortest sleep itself loses
 * no rate. At 1 Gbit/s that is about 4,000 wake-ups a second, 20 frames
 * each, instead of 82,000 (bench/pacing_cpu: what it costs).
 *
 * Units: rate in bit/s, tol and lengths in bytes, times in nanoseconds of
 * CLOCK_MONOTONIC. TAT keeps the fraction of a nanosecond (as bit-ns, below
 * the rate), so the long-run rate is exact; the arithmetic is 128-bit and
 * saturates, from 1 bit/s to 2^53 (past rttr_open()'s 10 Tbit/s) at any
 * time.
 */
#ifndef RTTR_PACER_H
#define RTTR_PACER_H

#include <stdbool.h>
#include <stdint.h>

struct rttr_pacer {
	uint64_t rate;		/* bit/s */
	uint64_t tol;		/* bytes: the most that leaves at once */
	uint64_t min_sleep;	/* ns: the shortest sleep worth taking */
	uint64_t tat;		/* ns: theoretical arrival time of the next frame */
	uint64_t frac;		/* bit-ns beyond tat: < rate */
	uint64_t unused;	/* ns the rate went unused past the tolerance */
};

/* The tolerance for a contract's BURST and MAX_PKT: (burst + max_pkt) / 2, at least max_pkt. */
uint64_t rttr_pacer_tolerance(uint64_t burst, uint32_t max_pkt);

/*
 * A pacer with nothing sent, empty: a frame of MAX_PKT bytes is due at NOW.
 * RES_NS: the timer's useful resolution, the shortest sleep.
 */
void rttr_pacer_init(struct rttr_pacer *p, uint64_t rate, uint64_t tol,
		     uint32_t max_pkt, uint64_t res_ns, uint64_t now);

/* The earliest time a frame of LEN bytes may leave; UINT64_MAX if never (LEN > tol). */
uint64_t rttr_pacer_due(const struct rttr_pacer *p, uint64_t len);

/*
 * Whether a frame of LEN bytes may leave at NOW; if so, it is counted as
 * gone, and the time since TAT, if NOW is past it, as unused: the sender
 * idle, or late by more than the tolerance catches up. For a sender always
 * ready, what it sends is the rate times the time less the unused time.
 */
bool rttr_pacer_take(struct rttr_pacer *p, uint64_t len, uint64_t now);

/*
 * When a sender that has a frame of LEN bytes at NOW should wake: NOW if it
 * is due, else its due time, but at least the shortest sleep after NOW.
 */
uint64_t rttr_pacer_wake(const struct rttr_pacer *p, uint64_t len, uint64_t now);

#endif
