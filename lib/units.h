/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * Rates, sizes and times written the way tc(8) writes them, so that
 * etherealctl, rtcd and tc take the same arguments.
 */
#ifndef ETHEREAL_UNITS_H
#define ETHEREAL_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ethereal.h>

/* "100mbit", "12.5MBps", "64kibit", bare number: bit/s. -1 on error. */
int parse_rate(const char *s, uint64_t *bits_per_sec);
/*
 * A reservation's or a port's rate, within the protocol's bounds
 * (ETHEREAL_RATE_MIN..ETHEREAL_RATE_MAX, CONN_RATE_RANGE in messages):
 * whatever reads one from outside checks it here, before it is used.
 */
#define CONN_RATE_RANGE "1kbit to 10tbit"
static inline int conn_rate_ok(uint64_t bits_per_sec)
{
	return bits_per_sec >= ETHEREAL_RATE_MIN && bits_per_sec <= ETHEREAL_RATE_MAX;
}
/* parse_rate(), and -1 for a rate outside those bounds too. */
int parse_conn_rate(const char *s, uint64_t *bits_per_sec);
/* "1500", "64k" (KiB), "2mbit" (bits/8), "1m": bytes. -1 on error. */
int parse_size(const char *s, uint64_t *bytes);
/* "10ms", "250us", "2s", bare number: microseconds. Result in ns. */
int parse_time(const char *s, uint64_t *nsec);
/* "60%" or "60": 0..100. */
int parse_percent(const char *s, unsigned int *pct);
/* A whole decimal number, no sign: 0..UINT64_MAX. -1 on error. */
int parse_count(const char *s, uint64_t *n);
/*
 * Seconds as a real number ("2.5", "1e3"), above 0 and at most 1e9 (so
 * that SEC * 1e9 is a count of ns within 64 bits). -1 on error.
 */
int parse_seconds(const char *s, double *sec);

/* Bytes that RATE bit/s carries in NS nanoseconds: rounded down, at most UINT64_MAX. */
uint64_t rate_bytes(uint64_t rate, uint64_t ns);
/* rtcd's default burst, and the least librttr's is: 10 ms of the rate. */
#define BURST_SPAN_DEFAULT_NS	10000000ULL
/*
 * A default burst in bytes: SPAN_NS of RATE, at least two frames of
 * MAX_PKT (a bucket that holds one loses what a late refill brings).
 */
uint64_t default_burst(uint64_t rate, uint64_t span_ns, uint32_t max_pkt);

/* "50Mbit", "1.5Gbit", "800bit" */
void format_rate(uint64_t bits_per_sec, char *buf, size_t len);
/* The same, exact, for reading back: "50Mbit", "1500Kbit", "1234567bit" */
void format_rate_exact(uint64_t bits_per_sec, char *buf, size_t len);
/* "1514b", "64Kb", "2Mb" (binary multiples, as tc prints) */
void format_size(uint64_t bytes, char *buf, size_t len);
/* "10ms", "250us", "1.5s" */
void format_time(uint64_t nsec, char *buf, size_t len);

#endif
