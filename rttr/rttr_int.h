/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/* librttr's insides, shared by rttr.c and shaper.c. */
#ifndef RTTR_INT_H
#define RTTR_INT_H

#include <stdbool.h>
#include "bucket.h"
#include "pacer.h"
#include "rttr.h"

/* The longest rttr_close() waits for the switches to forward what was sent. */
#define RTTR_CLOSE_WAIT_MAX_NS	1000000000ULL

/* rtcd gone (restarting): how often and how long to ask a new one to take R back. */
#define RTTR_READOPT_EVERY_NS	100000000ULL
#define RTTR_READOPT_MAX_NS	15000000000ULL

/*
 * Tick mode's period (struct rttr_qos's period_ns): what rttr_open() takes,
 * and so what rttr-timer, which times that tick on its own, takes too;
 * RTTR_PERIOD_RANGE in messages.
 */
#define RTTR_PERIOD_MIN_NS	100000ULL
#define RTTR_PERIOD_MAX_NS	60000000000ULL
#define RTTR_PERIOD_RANGE	"100 us to a minute"

static inline bool rttr_period_ok(uint64_t ns)
{
	return ns >= RTTR_PERIOD_MIN_NS && ns <= RTTR_PERIOD_MAX_NS;
}

/* How often rttr_send() looks for rtcd's notices: tick mode's default period. */
#define RTTR_CTL_EVERY_NS	RTTR_PERIOD_DEFAULT

struct rttr {
	int fd;			/* UDP, connected to proxy:dport */
	int ctl;		/* rtcd's socket; -1 while rtcd is away */
	int adopting;		/* a new rtcd's socket, our claim's answer awaited; or -1 */
	char path[108];		/* where rtcd listens (sun_path) */
	uint64_t lost_at;	/* now_ns() when rtcd went away; 0: it is there */
	uint64_t retry_at;	/* the next attempt to be taken back */
	bool dead;		/* torn down by the network or rtcd gone */
	bool down;		/* its path lost: rtcd sets it up again */
	uint32_t downs;		/* times its path was lost */
	uint64_t down_since;	/* now_ns() when it went down, if down */
	uint64_t down_total;	/* ns down, the current time not counted */
	uint32_t pacing;	/* RTTR_PACING_* */
	uint32_t max_pkt;	/* the contract: max_pkt, rate, burst */
	uint64_t rate;
	uint64_t burst;
	uint32_t hops;		/* switches on the path, from rtcd's reply */
	uint64_t delay_bound;	/* ns, from rtcd's reply: 0 = none known */
	uint64_t resolution;	/* ns: per-packet pacing's timer resolution */
	uint64_t last_sent;	/* now_ns() of the last datagram sent */
	uint64_t ctl_at;	/* per-packet: when to look for rtcd's notices */
	uint64_t next_wake;	/* per-packet: the wake-up for a refused frame */
	uint64_t send_max;	/* ns: the longest from decision to send()'s return */
	uint64_t late_max;	/* ns: the latest a sleep ended past its time */
	struct rttr_bucket bucket;	/* tick mode */
	struct rttr_pacer pacer;	/* per-packet */
	char id[8];		/* "03:09" */
	char proxy[16];		/* dotted quad */
};

/* Sets the thread's error text, printf-style; keeps errno. */
void rttr_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Reads what rtcd sent unasked, without blocking: a teardown notice or
 * rtcd closing the socket marks R dead (and sets the error text); "down"
 * and "up" mark its path lost and back (with the new path's contract).
 * Returns false once R is dead.
 */
bool rttr_ctl_alive(struct rttr *r);

/*
 * When the switches have forwarded all R sent: within the path's delay
 * bound when rtcd told one (a conforming frame is through each switch
 * within its bound), else 2 x burst at the rate a hop, the paper's queue.
 */
uint64_t rttr_drained_at(const struct rttr *r);

/*
 * One tick of the shaper's timer: sleeps to the deadline, then ticks.
 * -1 if a signal interrupted the sleep (no tick then).
 */
int rttr_shaper_wait(struct rttr_bucket *b);

/* Sleeps to the CLOCK_MONOTONIC time T: 0, or EINTR. */
int rttr_sleep_until(uint64_t t);

#endif
