/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet counters of ports and connections (stats.c): per CPU on the
 * packet path, summed for netlink.
 */
#ifndef _ETHEREAL_STATS_H
#define _ETHEREAL_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>

/* Indices of the counters in struct ethereal_stats, in uapi order. */
enum ethereal_counter {
	ETHEREAL_RX_PACKETS,
	ETHEREAL_RX_BYTES,
	ETHEREAL_TX_PACKETS,
	ETHEREAL_TX_BYTES,
	ETHEREAL_DROP_UNKNOWN_ID,
	ETHEREAL_DROP_PORT_STATE,
	ETHEREAL_DROP_OVERSIZE,
	ETHEREAL_DROP_MALFORMED,
	ETHEREAL_DROP_CONTROL,
	ETHEREAL_DROP_TO_SWITCH,
	ETHEREAL_DROP_QUEUE,
	ETHEREAL_DROP_EARLY,
	ETHEREAL_DROP_FILTERED,
	ETHEREAL_N_COUNTERS
};

/* Per-CPU counters: the packet path never shares a cache line for them. */
struct ethereal_stats {
	u64_stats_t c[ETHEREAL_N_COUNTERS];
	struct u64_stats_sync syncp;
};

static inline void ethereal_stats_add(struct ethereal_stats __percpu *stats,
				      enum ethereal_counter c, u64 v)
{
	struct ethereal_stats *s = this_cpu_ptr(stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->c[c], v);
	u64_stats_update_end(&s->syncp);
}

static inline void ethereal_stats_inc(struct ethereal_stats __percpu *stats,
				      enum ethereal_counter c)
{
	ethereal_stats_add(stats, c, 1);
}

void ethereal_stats_sum(struct ethereal_stats __percpu *stats,
			u64 sum[ETHEREAL_N_COUNTERS]);
struct ethereal_stats __percpu *ethereal_stats_alloc(void);

#endif /* _ETHEREAL_STATS_H */
