// SPDX-License-Identifier: GPL-2.0
/* lib/units.c: tc(8) rate, size and time syntax. */
#include <string.h>
#include "kselftest_harness.h"
#include "units.h"

static uint64_t rate(const char *s)
{
	uint64_t v = 0;

	return parse_rate(s, &v) ? UINT64_MAX : v;
}

static uint64_t size(const char *s)
{
	uint64_t v = 0;

	return parse_size(s, &v) ? UINT64_MAX : v;
}

static uint64_t tm(const char *s)
{
	uint64_t v = 0;

	return parse_time(s, &v) ? UINT64_MAX : v;
}

TEST(rates)
{
	EXPECT_EQ(100000000ULL, rate("100mbit"));
	EXPECT_EQ(100000000ULL, rate("100Mbit"));
	EXPECT_EQ(1500000ULL, rate("1.5mbit"));
	EXPECT_EQ(64ULL, rate("64"));
	EXPECT_EQ(64ULL, rate("64bit"));
	EXPECT_EQ(100000000ULL, rate("12.5mbps"));
	EXPECT_EQ(8192ULL, rate("1kibps"));
	EXPECT_EQ(1000000000ULL, rate("1gbit"));
	EXPECT_EQ(0ULL, rate("0"));
}

TEST(bad_rates)
{
	EXPECT_EQ(UINT64_MAX, rate(""));
	EXPECT_EQ(UINT64_MAX, rate("mbit"));
	EXPECT_EQ(UINT64_MAX, rate("-5mbit"));
	EXPECT_EQ(UINT64_MAX, rate("5furlongs"));
	EXPECT_EQ(UINT64_MAX, rate("5 mbit"));
	EXPECT_EQ(UINT64_MAX, rate("nan"));
	EXPECT_EQ(UINT64_MAX, rate("inf"));
	EXPECT_EQ(UINT64_MAX, rate("1e30bit"));
}

/* A reservation's or a port's: the protocol's 1 kbit/s to 10 Tbit/s. */
TEST(conn_rates)
{
	uint64_t v = 0;

	EXPECT_EQ(0, parse_conn_rate("1kbit", &v));
	EXPECT_EQ(1000ULL, v);
	EXPECT_EQ(0, parse_conn_rate("10tbit", &v));
	EXPECT_EQ(10000000000000ULL, v);
	EXPECT_EQ(-1, parse_conn_rate("999bit", &v));
	EXPECT_EQ(-1, parse_conn_rate("0", &v));
	EXPECT_EQ(-1, parse_conn_rate("10000000000001", &v));
	EXPECT_EQ(-1, parse_conn_rate("fast", &v));
	EXPECT_EQ(10000000000000ULL, v);	/* untouched on error */
}

TEST(counts_and_seconds)
{
	uint64_t n = 7;
	double sec = 7;

	EXPECT_EQ(0, parse_count("0", &n));
	EXPECT_EQ(0ULL, n);
	EXPECT_EQ(0, parse_count("18446744073709551615", &n));
	EXPECT_EQ(UINT64_MAX, n);
	EXPECT_EQ(-1, parse_count("18446744073709551616", &n));
	EXPECT_EQ(-1, parse_count("-1", &n));
	EXPECT_EQ(-1, parse_count("+1", &n));
	EXPECT_EQ(-1, parse_count(" 1", &n));
	EXPECT_EQ(-1, parse_count("1k", &n));
	EXPECT_EQ(-1, parse_count("", &n));
	EXPECT_EQ(0, parse_seconds("2.5", &sec));
	EXPECT_TRUE(sec == 2.5);
	EXPECT_EQ(0, parse_seconds("1e9", &sec));
	EXPECT_EQ(-1, parse_seconds("1.1e9", &sec));
	EXPECT_EQ(-1, parse_seconds("0", &sec));
	EXPECT_EQ(-1, parse_seconds("-1", &sec));
	EXPECT_EQ(-1, parse_seconds("nan", &sec));
	EXPECT_EQ(-1, parse_seconds("inf", &sec));
	EXPECT_EQ(-1, parse_seconds("2s", &sec));
	EXPECT_EQ(-1, parse_seconds("", &sec));
}

TEST(sizes)
{
	EXPECT_EQ(1500ULL, size("1500"));
	EXPECT_EQ(1500ULL, size("1500b"));
	EXPECT_EQ(65536ULL, size("64k"));
	EXPECT_EQ(65536ULL, size("64kb"));
	EXPECT_EQ(2097152ULL, size("2m"));
	EXPECT_EQ(128ULL, size("1kbit"));
	EXPECT_EQ(UINT64_MAX, size("1x"));
	EXPECT_EQ(UINT64_MAX, size("-1"));
}

TEST(times)
{
	EXPECT_EQ(10000000ULL, tm("10ms"));
	EXPECT_EQ(250000ULL, tm("250us"));
	EXPECT_EQ(250000ULL, tm("250"));
	EXPECT_EQ(2000000000ULL, tm("2s"));
	EXPECT_EQ(1500000000ULL, tm("1.5sec"));
	EXPECT_EQ(UINT64_MAX, tm("10 ms"));
	EXPECT_EQ(UINT64_MAX, tm("10min"));
}

TEST(percent)
{
	unsigned int p = 0;

	EXPECT_EQ(0, parse_percent("60%", &p));
	EXPECT_EQ(60U, p);
	EXPECT_EQ(0, parse_percent("100", &p));
	EXPECT_EQ(100U, p);
	EXPECT_EQ(-1, parse_percent("101%", &p));
	EXPECT_EQ(-1, parse_percent("60%%", &p));
	EXPECT_EQ(-1, parse_percent("-1", &p));
	EXPECT_EQ(-1, parse_percent("", &p));
}

TEST(format_reads_back)
{
	static const uint64_t rates[] = { 1, 999, 1000, 50000000, 1500000,
					  100000000, 1000000000 };
	static const uint64_t sizes[] = { 1, 1514, 1024, 65536, 3 * 1048576 };
	char buf[64];
	unsigned int i;

	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		format_rate(rates[i], buf, sizeof(buf));
		EXPECT_EQ(rates[i], rate(buf)) TH_LOG("%s", buf);
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		format_size(sizes[i], buf, sizeof(buf));
		EXPECT_EQ(sizes[i], size(buf)) TH_LOG("%s", buf);
	}
	format_rate(50000000, buf, sizeof(buf));
	EXPECT_STREQ("50Mbit", buf);
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		format_rate_exact(rates[i], buf, sizeof(buf));
		EXPECT_EQ(rates[i], rate(buf)) TH_LOG("%s", buf);
	}
	format_rate_exact(1234567, buf, sizeof(buf));
	EXPECT_EQ(1234567ULL, rate(buf)) TH_LOG("%s", buf);
	EXPECT_STREQ("1234567bit", buf);
	format_rate_exact(1500000, buf, sizeof(buf));
	EXPECT_STREQ("1500Kbit", buf);
	format_rate_exact(10000000000000ULL, buf, sizeof(buf));
	EXPECT_STREQ("10Tbit", buf);
	format_rate_exact(0, buf, sizeof(buf));
	EXPECT_STREQ("0bit", buf);
	format_time(10000000, buf, sizeof(buf));
	EXPECT_STREQ("10ms", buf);
	format_time(1500000000, buf, sizeof(buf));
	EXPECT_STREQ("1.5s", buf);
}

TEST(bursts)
{
	EXPECT_EQ(125000ULL, rate_bytes(100000000, 10000000));
	EXPECT_EQ(0ULL, rate_bytes(7, 1000000000));
	EXPECT_EQ(UINT64_MAX, rate_bytes(UINT64_MAX, 60000000000ULL));
	/* 10 ms of the rate, at least two frames. */
	EXPECT_EQ(125000ULL, default_burst(100000000, BURST_SPAN_DEFAULT_NS, 1514));
	EXPECT_EQ(3028ULL, default_burst(1000, BURST_SPAN_DEFAULT_NS, 1514));
	EXPECT_EQ(250000ULL, default_burst(100000000, 2 * BURST_SPAN_DEFAULT_NS, 1514));
}

TEST_HARNESS_MAIN
