// SPDX-License-Identifier: GPL-2.0
/*
 * rttr-timer: the shaper's timer on its own, for bench/table1 (the paper's
 * Table 1). Runs librttr's tick (rttr_shaper_wait(): clock_nanosleep to the
 * absolute deadline, then the bucket's tick) for SECONDS and prints the
 * measured intervals T_m as JSON, in ms: mean, standard deviation, min, max.
 *
 *   rttr-timer [-p PERIOD] [-t SECONDS]
 *
 * Not installed: linked with librttr's objects, not the library.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "rttr_int.h"
#include "units.h"

int main(int argc, char **argv)
{
	uint64_t period = RTTR_PERIOD_DEFAULT, prev, end, min = UINT64_MAX, max = 0;
	double seconds = 5, sum = 0, sum2 = 0, mean, sd;
	struct rttr_bucket b;
	unsigned long n = 0;
	int opt;

	while ((opt = getopt(argc, argv, "p:t:")) != -1) {
		switch (opt) {
		case 'p':
			if (parse_time(optarg, &period) || !rttr_period_ok(period))
				errx(2, "bad period: %s (" RTTR_PERIOD_RANGE ")", optarg);
			break;
		case 't':
			if (parse_seconds(optarg, &seconds))
				errx(2, "bad seconds: %s (above 0, at most 1e9)", optarg);
			break;
		default:
			fprintf(stderr, "usage: rttr-timer [-p PERIOD] [-t SECONDS]\n");
			return 2;
		}
	}
	rttr_bucket_init(&b, 50000000, 62500, period, now_ns());
	prev = b.last;
	end = prev + (uint64_t)(seconds * 1e9);
	while (b.last < end) {
		uint64_t tm;

		if (rttr_shaper_wait(&b))
			continue;
		tm = b.last - prev;
		prev = b.last;
		n++;
		/* about the period, so that the squares keep their precision */
		sum += (double)tm - (double)period;
		sum2 += ((double)tm - (double)period) * ((double)tm - (double)period);
		if (tm < min)
			min = tm;
		if (tm > max)
			max = tm;
	}
	if (!n)
		errx(1, "no tick in %g s of a %llu ns period", seconds,
		     (unsigned long long)period);
	mean = sum / n;
	sd = n > 1 ? sqrt(fmax(0, (sum2 - sum * mean) / (n - 1))) : 0;
	mean += (double)period;
	printf("{\"period_ms\":%.3f,\"ticks\":%lu,\"mean_ms\":%.4f,\"sd_ms\":%.4f,"
	       "\"min_ms\":%.4f,\"max_ms\":%.4f}\n", period / 1e6, n, mean / 1e6,
	       sd / 1e6, min / 1e6, max / 1e6);
	return 0;
}
