// SPDX-License-Identifier: GPL-2.0
/*
 * Packet counters of ports and connections: allocated per CPU, summed for
 * netlink.
 */
#include <linux/netdevice.h>
#include <linux/string.h>

#include "stats.h"

struct ethereal_stats __percpu *ethereal_stats_alloc(void)
{
	return netdev_alloc_pcpu_stats(struct ethereal_stats);
}

void ethereal_stats_sum(struct ethereal_stats __percpu *stats,
			u64 sum[ETHEREAL_N_COUNTERS])
{
	int cpu, i;

	memset(sum, 0, sizeof(u64) * ETHEREAL_N_COUNTERS);
	for_each_possible_cpu(cpu) {
		const struct ethereal_stats *s = per_cpu_ptr(stats, cpu);
		u64 v[ETHEREAL_N_COUNTERS];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < ETHEREAL_N_COUNTERS; i++)
				v[i] = u64_stats_read(&s->c[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < ETHEREAL_N_COUNTERS; i++)
			sum[i] += v[i];
	}
}
