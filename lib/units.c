// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

struct unit {
	const char *name;
	double mult;
};

/* tc(8), "PARAMETERS": rates in bit/s, SI and IEC prefixes, bps = bytes/s */
static const struct unit rate_units[] = {
	{ "", 1 }, { "bit", 1 },
	{ "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 }, { "tbit", 1e12 },
	{ "kibit", 1024. }, { "mibit", 1048576. }, { "gibit", 1073741824. },
	{ "tibit", 1099511627776. },
	{ "bps", 8 }, { "kbps", 8e3 }, { "mbps", 8e6 }, { "gbps", 8e9 },
	{ "tbps", 8e12 },
	{ "kibps", 8 * 1024. }, { "mibps", 8 * 1048576. },
	{ "gibps", 8 * 1073741824. }, { "tibps", 8 * 1099511627776. },
	{ NULL, 0 }
};

/* tc(8), "SIZES": bytes; k/kb, m/mb, g/gb are binary; kbit etc. are bits */
static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1024. }, { "kb", 1024. }, { "m", 1048576. }, { "mb", 1048576. },
	{ "g", 1073741824. }, { "gb", 1073741824. },
	{ "kbit", 1024. / 8 }, { "mbit", 1048576. / 8 },
	{ "gbit", 1073741824. / 8 },
	{ NULL, 0 }
};

/* tc(8), "TIMES": bare number is microseconds */
static const struct unit time_units[] = {
	{ "", 1e3 }, { "us", 1e3 }, { "usec", 1e3 }, { "usecs", 1e3 },
	{ "ns", 1 }, { "ms", 1e6 }, { "msec", 1e6 }, { "msecs", 1e6 },
	{ "s", 1e9 }, { "sec", 1e9 }, { "secs", 1e9 },
	{ NULL, 0 }
};

static int parse_units(const char *s, const struct unit *units, double max,
		       uint64_t *out)
{
	const struct unit *u;
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (u = units; u->name; u++) {
		if (strcasecmp(end, u->name))
			continue;
		v = round(v * u->mult);
		if (v > max)
			return -1;
		*out = (uint64_t)v;
		return 0;
	}
	return -1;
}

int parse_rate(const char *s, uint64_t *bits_per_sec)
{
	return parse_units(s, rate_units, 1e15, bits_per_sec);
}

int parse_conn_rate(const char *s, uint64_t *bits_per_sec)
{
	uint64_t v;

	if (parse_rate(s, &v) || !conn_rate_ok(v))
		return -1;
	*bits_per_sec = v;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	return parse_units(s, size_units, 1e15, bytes);
}

int parse_time(const char *s, uint64_t *nsec)
{
	return parse_units(s, time_units, 1e15, nsec);
}

int parse_count(const char *s, uint64_t *n)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*n = v;
	return 0;
}

int parse_seconds(const char *s, double *sec)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v > 0) || !isfinite(v) || v > 1e9)
		return -1;
	*sec = v;
	return 0;
}

int parse_percent(const char *s, unsigned int *pct)
{
	char *end;
	long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || (*end && strcmp(end, "%")) || v < 0 || v > 100)
		return -1;
	*pct = (unsigned int)v;
	return 0;
}

/* Print v / div with up to three significant decimals, no trailing zeros. */
static void format_scaled(double v, const char *unit, char *buf, size_t len)
{
	char num[32];
	char *p;

	snprintf(num, sizeof(num), "%.3f", v);
	p = num + strlen(num) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	snprintf(buf, len, "%s%s", num, unit);
}

void format_rate(uint64_t bps, char *buf, size_t len)
{
	static const char *const names[] = { "bit", "Kbit", "Mbit", "Gbit", "Tbit" };
	double v = (double)bps;
	unsigned int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	format_scaled(v, names[i], buf, len);
}

void format_rate_exact(uint64_t bps, char *buf, size_t len)
{
	static const char *const names[] = { "bit", "Kbit", "Mbit", "Gbit", "Tbit" };
	unsigned int i = 0;

	while (i < 4 && bps && bps % 1000 == 0) {
		bps /= 1000;
		i++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)bps, names[i]);
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "b", "Kb", "Mb", "Gb" };
	double v = (double)bytes;
	unsigned int i = 0;

	/* Exact multiples only, as tc does, so the value reads back the same. */
	while (i < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		v /= 1024;
		i++;
	}
	format_scaled(v, names[i], buf, len);
}

void format_time(uint64_t nsec, char *buf, size_t len)
{
	if (nsec >= 1000000000ULL)
		format_scaled(nsec / 1e9, "s", buf, len);
	else if (nsec >= 1000000)
		format_scaled(nsec / 1e6, "ms", buf, len);
	else if (nsec >= 1000)
		format_scaled(nsec / 1e3, "us", buf, len);
	else
		format_scaled((double)nsec, "ns", buf, len);
}

uint64_t rate_bytes(uint64_t rate, uint64_t ns)
{
	unsigned __int128 b = (unsigned __int128)rate * ns / 8000000000ULL;

	return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

uint64_t default_burst(uint64_t rate, uint64_t span_ns, uint32_t max_pkt)
{
	uint64_t b = rate_bytes(rate, span_ns);

	return b < 2ULL * max_pkt ? 2ULL * max_pkt : b;
}
