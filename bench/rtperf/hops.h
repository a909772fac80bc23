/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the switches measured of a reserved flow's frames, hop by hop
 * (hops.c): each switch's "etherealctl -j -s monitor" of a run, in the
 * run's directory as hops-SWITCH.json, holds its connection's delays as it
 * went (Documentation/delay-bounds.md, "Reading them").
 */
#ifndef RTPERF_HOPS_H
#define RTPERF_HOPS_H

#include <stddef.h>
#include <stdint.h>

#define RTPERF_MAX_HOPS 8

struct rtperf_hop {
	char sw[32];			/* the file's SWITCH */
	char out[32];			/* its output port */
	double promise;			/* ns; NAN: none */
	double max, on_time_max;	/* ns; on time: less the machine's stalls */
	uint64_t frames, over, over_on_time;
};

/*
 * The hops of the connection to DADDR:DPORT that the source set up as ID,
 * in path order (each next one's ID the previous one's output ID), from
 * the hops-*.json of DIR: how many, at most MAX.
 */
size_t rtperf_hops_load(const char *dir, const char *daddr, long dport, uint16_t id,
			struct rtperf_hop *hops, size_t max);

#endif
