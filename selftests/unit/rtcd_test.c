// SPDX-License-Identifier: GPL-2.0
/*
 * rtcd's pure logic (rtcd/idmap.c, prefix.c, request.c): connection ID
 * allocation, the proxy IP of an ID, and the checks on what applications
 * send to rtcd's socket.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "kselftest_harness.h"
#include "rtcd.h"
#include "sigmsg.h"
#include "signames.h"

static struct idmap m;

TEST(idmap_first_and_cyclic)
{
	idmap_init(&m);
	EXPECT_EQ(ETHEREAL_ID_MIN, idmap_alloc(&m));
	EXPECT_EQ(ETHEREAL_ID_MIN + 1, idmap_alloc(&m));
	/* A released ID is not handed out again at once. */
	idmap_free(&m, ETHEREAL_ID_MIN);
	EXPECT_EQ(ETHEREAL_ID_MIN + 2, idmap_alloc(&m));
	EXPECT_FALSE(idmap_used(&m, ETHEREAL_ID_MIN));
	EXPECT_TRUE(idmap_used(&m, ETHEREAL_ID_MIN + 1));
	EXPECT_EQ(2U, m.count);
	/* Freeing a free ID changes nothing. */
	idmap_free(&m, ETHEREAL_ID_MIN);
	EXPECT_EQ(2U, m.count);
}

TEST(idmap_wraps_and_skips)
{
	idmap_init(&m);
	m.next = ETHEREAL_ID_MAX;
	EXPECT_EQ(ETHEREAL_ID_MAX, idmap_alloc(&m));
	/* Past ff:fe back to 00:0b, never a control ID nor ff:ff. */
	EXPECT_EQ(ETHEREAL_ID_MIN, idmap_alloc(&m));
	EXPECT_FALSE(idmap_used(&m, 0xffff));
	/* Used ones are skipped. */
	m.next = 0x0300;
	m.used[0x0300 / 64] |= 1ULL << (0x0300 % 64);
	m.used[0x0301 / 64] |= 1ULL << (0x0301 % 64);
	m.count += 2;
	EXPECT_EQ(0x0302, idmap_alloc(&m));
}

/* After a restart: past what the dead instance left. */
TEST(idmap_start_after_leftovers)
{
	struct idmap left;

	idmap_init(&left);
	idmap_mark(&left, 0x0310);
	idmap_mark(&left, 0x0310);
	EXPECT_EQ(1U, left.count);
	EXPECT_TRUE(idmap_used(&left, 0x0310));
	idmap_init(&m);
	idmap_start_after(&m, 0x0310);
	EXPECT_EQ(0x0311, idmap_alloc(&m));
	idmap_start_after(&m, ETHEREAL_ID_MAX);
	EXPECT_EQ(ETHEREAL_ID_MIN, idmap_alloc(&m));
	idmap_start_after(&m, 0x0001);
	EXPECT_EQ(ETHEREAL_ID_MIN + 1, idmap_alloc(&m));
	EXPECT_FALSE(idmap_full(&m));
}

TEST(idmap_exhausted)
{
	unsigned int i, n = ETHEREAL_ID_MAX - ETHEREAL_ID_MIN + 1;
	int id;

	idmap_init(&m);
	for (i = 0; i < n; i++) {
		id = idmap_alloc(&m);
		ASSERT_GE(id, ETHEREAL_ID_MIN);
		ASSERT_LE(id, ETHEREAL_ID_MAX);
	}
	EXPECT_EQ(-1, idmap_alloc(&m));
	EXPECT_TRUE(idmap_full(&m));
	/* The only free one, wherever the search starts. */
	idmap_free(&m, 0x1234);
	m.next = 0x8000;
	EXPECT_EQ(0x1234, idmap_alloc(&m));
	EXPECT_EQ(-1, idmap_alloc(&m));
}

TEST(deadlines_earliest_first)
{
	struct deadlines q = { 0 };
	struct deadline d[5] = { { 0 } };
	static const uint64_t at[5] = { 50, 10, 40, 30, 20 };
	unsigned int i;

	EXPECT_EQ(NULL, deadlines_first(&q));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, deadline_set(&q, &d[i], at[i]));
	EXPECT_EQ(&d[1], deadlines_first(&q));
	/* Moved later, moved earlier, cancelled (twice: a no-op). */
	ASSERT_EQ(0, deadline_set(&q, &d[1], 60));
	EXPECT_EQ(&d[4], deadlines_first(&q));
	ASSERT_EQ(0, deadline_set(&q, &d[0], 5));
	EXPECT_EQ(&d[0], deadlines_first(&q));
	deadline_cancel(&q, &d[0]);
	deadline_cancel(&q, &d[0]);
	EXPECT_EQ(0U, d[0].pos);
	EXPECT_EQ(4U, q.n);
	EXPECT_EQ(&d[4], deadlines_first(&q));
	deadline_cancel(&q, &d[4]);
	EXPECT_EQ(&d[3], deadlines_first(&q));
	deadlines_free(&q);
}

/* Against a plain scan, on a few thousand random operations. */
TEST(deadlines_random)
{
	enum { N = 300 };
	static struct deadline d[N];
	struct deadlines q = { 0 };
	uint32_t seed = 12345;
	unsigned int i, op, j;

	memset(d, 0, sizeof(d));
	for (op = 0; op < 20000; op++) {
		const struct deadline *want = NULL;

		seed = seed * 1103515245 + 12345;
		j = (seed >> 8) % N;
		if ((seed >> 20) % 4 == 0)
			deadline_cancel(&q, &d[j]);
		else
			ASSERT_EQ(0, deadline_set(&q, &d[j], (seed >> 4) % 1000));
		for (i = 0; i < N; i++)
			if (d[i].pos && (!want || d[i].at < want->at))
				want = &d[i];
		if (!want) {
			ASSERT_EQ(NULL, deadlines_first(&q));
			continue;
		}
		ASSERT_NE(NULL, deadlines_first(&q));
		ASSERT_EQ(want->at, deadlines_first(&q)->at);
		/* Every queued one knows its place, none before its parent. */
		for (i = 0; i < q.n; i++) {
			ASSERT_EQ(i + 1, q.v[i]->pos);
			if (i)
				ASSERT_LE(q.v[(i - 1) / 2]->at, q.v[i]->at);
		}
	}
	deadlines_free(&q);
}

static uint32_t ip(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return ntohl(a.s_addr);
}

TEST(prefix_proxy_ip)
{
	struct rtcd_prefix p;
	const char *why;
	char buf[32];

	ASSERT_EQ(0, prefix_parse("198.18.0.0/15", &p, &why));
	EXPECT_EQ(ip("198.18.3.9"), prefix_proxy(&p, 0x0309));
	EXPECT_EQ(ip("198.18.0.1"), prefix_control(&p));
	EXPECT_EQ(ip("198.18.255.254"), prefix_proxy(&p, 0xfffe));
	EXPECT_TRUE(prefix_contains(&p, ip("198.19.0.1")));
	EXPECT_FALSE(prefix_contains(&p, ip("198.20.0.1")));
	prefix_format(&p, buf, sizeof(buf));
	EXPECT_STREQ("198.18.0.0/15", buf);

	/* The paper's. */
	ASSERT_EQ(0, prefix_parse("1.1.0.0/16", &p, &why));
	EXPECT_EQ(ip("1.1.3.9"), prefix_proxy(&p, 0x0309));
	EXPECT_EQ(ip("1.1.0.1"), prefix_control(&p));
	EXPECT_FALSE(prefix_contains(&p, ip("1.2.0.0")));
}

TEST(prefix_conn_ids)
{
	struct rtcd_prefix p;
	const char *why;
	uint16_t id = 0;

	ASSERT_EQ(0, prefix_parse("198.18.0.0/15", &p, &why));
	/* Control IPs may sit below the first ID, or past the last. */
	EXPECT_FALSE(prefix_conn_id(&p, ip("198.18.0.1"), &id));
	EXPECT_FALSE(prefix_conn_id(&p, ip("198.18.0.10"), &id));
	EXPECT_FALSE(prefix_conn_id(&p, ip("198.18.255.255"), &id));
	EXPECT_FALSE(prefix_conn_id(&p, ip("198.19.0.11"), &id));
	EXPECT_FALSE(prefix_conn_id(&p, ip("10.0.0.11"), &id));
	EXPECT_TRUE(prefix_conn_id(&p, ip("198.18.0.11"), &id));
	EXPECT_EQ(ETHEREAL_ID_MIN, id);
	EXPECT_TRUE(prefix_conn_id(&p, ip("198.18.255.254"), &id));
	EXPECT_EQ(ETHEREAL_ID_MAX, id);
}

TEST(prefix_refused)
{
	struct rtcd_prefix p;
	const char *why;

	EXPECT_EQ(-1, prefix_parse("198.18.0.0", &p, &why));
	EXPECT_EQ(-1, prefix_parse("198.18.0.0/", &p, &why));
	EXPECT_EQ(-1, prefix_parse("198.18.0/15", &p, &why));
	EXPECT_EQ(-1, prefix_parse("198.18.0.0/x", &p, &why));
	EXPECT_EQ(-1, prefix_parse("198.18.0.0/33", &p, &why));
	/* Too small for 65536 IDs. */
	EXPECT_EQ(-1, prefix_parse("198.18.0.0/17", &p, &why));
	EXPECT_NE(NULL, why);
	EXPECT_EQ(-1, prefix_parse("198.18.0.1/15", &p, &why));
	EXPECT_STREQ("has host bits set", why);
}

static struct rtcd_prefix pfx = { 0xc6120000, 15 };	/* 198.18.0.0/15 */
static char msg[256];

static int parse(const char *s, struct rtcd_req *r)
{
	msg[0] = '\0';
	return rtcd_req_parse(s, strlen(s), &pfx, r, msg, sizeof(msg));
}

TEST(request_open)
{
	struct rtcd_req r;

	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":5000,"
			   "\"rate\":50000000,\"burst\":62500,\"max_pkt\":1514}", &r));
	EXPECT_EQ(RTCD_OP_OPEN, (int)r.op);
	EXPECT_EQ(htonl(0x0a000002), r.daddr);
	EXPECT_EQ(5000, r.dport);
	EXPECT_EQ(50000000ULL, r.rate);
	EXPECT_EQ(62500U, r.burst);
	EXPECT_EQ(1514U, r.max_pkt);
	EXPECT_EQ(0ULL, r.max_delay);	/* none asked: any bound */
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":5000,"
			   "\"rate\":50000000,\"max_delay_ns\":20000000}", &r));
	EXPECT_EQ(20000000ULL, r.max_delay);

	/* Defaults: max_pkt 1514, burst 10 ms of the rate, at least 2 frames. */
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":100000000,\"extra\":true}", &r));
	EXPECT_EQ(1514U, r.max_pkt);
	EXPECT_EQ(125000U, r.burst);
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":1000000,\"max_pkt\":200}", &r));
	EXPECT_EQ(1250U, r.burst);
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":1000}", &r));
	EXPECT_EQ(3028U, r.burst);
	/* An integral real is a number all the same. */
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":5e7}", &r));
	EXPECT_EQ(50000000ULL, r.rate);
}

TEST(default_burst)
{
	EXPECT_EQ(3028U, rtcd_default_burst(0, 1514));
	EXPECT_EQ(125000U, rtcd_default_burst(100000000, 1514));
	EXPECT_EQ(UINT32_MAX, rtcd_default_burst(UINT64_MAX / 2, 1514));
}

TEST(request_open_refused)
{
	static const char *const bad[] = {
		"",
		"[1]",
		"{\"daddr\":\"10.0.0.2\"}",
		"{\"op\":\"opened\"}",
		"{\"op\":1}",
		"{\"op\":\"open\",\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":10,\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"224.0.0.1\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"0.0.0.0\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"255.255.255.255\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"198.18.3.9\",\"dport\":1,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":0,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":65536,\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":\"80\",\"rate\":1000000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":0}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":-5}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1.5}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":999}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"max_pkt\":59}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"max_pkt\":65536}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"burst\":1000}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"burst\":4294967296}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"max_delay_ns\":-1}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"max_delay_ns\":3600000000001}",
		"{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"max_delay_ns\":\"5ms\"}",
	};
	struct rtcd_req r;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-1, parse(bad[i], &r)) {
			TH_LOG("accepted: %s", bad[i]);
		}
		EXPECT_NE('\0', msg[0]);
	}
	parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,\"burst\":1000}", &r);
	EXPECT_NE(NULL, strstr(msg, "max_pkt"));
	/* JSON, with a number past any jansson holds: said so, not "not JSON". */
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,"
			    "\"max_pkt\":99999999999999999999}", &r));
	EXPECT_NE(NULL, strstr(msg, "a number out of range"));
}

/*
 * The protocol's rates, 1 kbit/s to 10 Tbit/s, refused past them in a
 * message that says so; reals past 2^63 round to it as doubles: refused,
 * not wrapped.
 */
TEST(request_rate_limits)
{
	struct rtcd_req r;

	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":1000}", &r));
	EXPECT_EQ(1000ULL, r.rate);
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":10000000000000}", &r));
	EXPECT_EQ(10000000000000ULL, r.rate);
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":1e13}", &r));
	EXPECT_EQ(10000000000000ULL, r.rate);
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			    "\"rate\":10000000000001}", &r));
	EXPECT_NE(NULL, strstr(msg, "\"rate\" must be an integer from 1000 to 10000000000000"));
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			    "\"rate\":9223372036854775807}", &r));
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			    "\"rate\":9.223372036854775808e18}", &r));
	EXPECT_NE(NULL, strstr(msg, "\"rate\" must be an integer from 1000 to"));
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			    "\"rate\":1e19}", &r));
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			    "\"rate\":-0.5}", &r));
	/* A real max_pkt is held to its range as an integer would be. */
	EXPECT_EQ(-1, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			    "\"rate\":1000000,\"max_pkt\":65536.0}", &r));
}

/* A field of the wrong type is said to be so, not missing. */
TEST(request_wrong_types)
{
	static const struct { const char *req, *msg; } cases[] = {
		{ "{\"op\":1}", "\"op\" must be a string" },
		{ "{\"op\":\"open\",\"daddr\":10,\"dport\":1,\"rate\":1000000}",
		  "\"daddr\" must be a string" },
		{ "{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":\"80\",\"rate\":1000000}",
		  "\"dport\" must be an integer" },
		{ "{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":[1]}",
		  "\"rate\" must be an integer" },
		{ "{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,\"rate\":1000000,"
		  "\"burst\":true}", "\"burst\" must be an integer" },
		{ "{\"op\":\"close\",\"id\":777}", "\"id\" must be a string" },
		{ "{\"op\":\"close\"}", "\"id\" (a string such as \"03:09\") is missing" },
		{ "{\"op\":\"open\",\"dport\":1,\"rate\":1000000}", "\"daddr\" (the receiver's" },
		{ "{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1}", "\"rate\" is missing" },
	};
	struct rtcd_req r;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(-1, parse(cases[i].req, &r));
		EXPECT_EQ(0, strncmp(msg, cases[i].msg, strlen(cases[i].msg))) {
			TH_LOG("%s: '%s'", cases[i].req, msg);
		}
	}
	/* null is absent: the default. */
	ASSERT_EQ(0, parse("{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":1,"
			   "\"rate\":1000,\"burst\":null}", &r));
	EXPECT_EQ(3028U, r.burst);
}

TEST(request_close_status)
{
	struct rtcd_req r;

	ASSERT_EQ(0, parse("{\"op\":\"close\",\"id\":\"03:09\"}", &r));
	EXPECT_EQ(RTCD_OP_CLOSE, (int)r.op);
	EXPECT_EQ(0x0309, r.id);
	EXPECT_EQ(-1, parse("{\"op\":\"close\"}", &r));
	EXPECT_EQ(-1, parse("{\"op\":\"close\",\"id\":777}", &r));
	EXPECT_EQ(-1, parse("{\"op\":\"close\",\"id\":\"3:09\"}", &r));
	EXPECT_EQ(-1, parse("{\"op\":\"close\",\"id\":\"00:01\"}", &r));
	EXPECT_EQ(-1, parse("{\"op\":\"close\",\"id\":\"ff:ff\"}", &r));
	ASSERT_EQ(0, parse("{\"op\":\"status\"}", &r));
	EXPECT_EQ(RTCD_OP_STATUS, (int)r.op);
}

TEST(error_reply)
{
	json_t *j = rtcd_error_reply("bandwidth", "%s (switch %u)",
				     ethereal_sig_reason_text(ETHEREAL_SIG_R_BANDWIDTH), 2);
	char *s;

	ASSERT_NE(NULL, j);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	EXPECT_STREQ("{\"error\":\"bandwidth\",\"message\":\"not enough real-time "
		     "bandwidth on the path (switch 2)\",\"ok\":false}", s);
	free(s);
	json_decref(j);
}

/* TEXT as a configuration file, read for eth0. */
static int load(const char *text, struct rtcd_config *cfg, char *err, size_t len)
{
	char path[] = "/tmp/rtcd_test.conf.XXXXXX";
	int fd = mkstemp(path), ret;
	FILE *f;

	if (fd < 0)
		return -2;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	ret = config_load(path, false, "eth0", cfg, err, len);
	unlink(path);
	return ret;
}

TEST(config_read)
{
	static struct rtcd_config cfg;
	char err[256] = "";

	ASSERT_EQ(0, load("# a comment\n\nsocket-group rt\n"
			  "prefix 198.20.0.0/16 dev eth1\nprefix 198.18.0.0/15\n"
			  "control 198.18.0.2 dev eth0\ncontrol 198.18.0.3\n"
			  "limit user root connections 3\n"
			  "limit user 1001 rate 100mbit # trailing comment\n"
			  "limit user * connections 2 rate 10mbit\n"
			  "limit group 0 connections 1000\n", &cfg, err, sizeof(err))) {
		TH_LOG("%s", err);
	}
	EXPECT_STREQ("rt", cfg.sock_group);
	EXPECT_STREQ("198.18.0.0/15", cfg.prefix);
	/* The line for our interface wins, wherever it is. */
	EXPECT_STREQ("198.18.0.2", cfg.ctl_ip);
	ASSERT_EQ(4U, cfg.nlimits);
	EXPECT_EQ(LIMIT_USER, (int)cfg.limits[0].kind);
	EXPECT_EQ(0U, cfg.limits[0].id);
	EXPECT_EQ(3U, cfg.limits[0].conns);
	EXPECT_EQ(8U, cfg.limits[0].line);
	EXPECT_EQ(1001U, cfg.limits[1].id);
	EXPECT_EQ(100000000ULL, cfg.limits[1].rate);
	EXPECT_EQ(LIMIT_EACH_USER, (int)cfg.limits[2].kind);
	EXPECT_EQ(LIMIT_GROUP, (int)cfg.limits[3].kind);

	/* Absent: the default file may be, -f's may not. */
	EXPECT_EQ(0, config_load("/nonexistent/rtcd.conf", true, "eth0", &cfg, err, sizeof(err)));
	EXPECT_STREQ("ethereal", cfg.sock_group);
	EXPECT_EQ(0U, cfg.nlimits);
	EXPECT_EQ(-1, config_load("/nonexistent/rtcd.conf", false, "eth0", &cfg, err, sizeof(err)));
}

TEST(config_refused)
{
	static const char *const bad[][2] = {
		{ "frobnicate 1\n", "unknown keyword 'frobnicate'" },
		{ "limit user root\n", "needs \"connections\" or \"rate\"" },
		{ "limit user nosuchuser-xyz connections 1\n", "no user 'nosuchuser-xyz'" },
		{ "limit group nosuchgroup-xyz connections 1\n", "no group" },
		{ "limit host x connections 1\n", "\"user\" or \"group\"" },
		{ "limit user root connections 0\n", "from 1 to 65524" },
		{ "limit user root connections 65525\n", "from 1 to 65524" },
		{ "limit user root connections -1\n", "from 1 to 65524" },
		{ "limit user root rate fast\n", "rate 'fast'" },
		{ "limit user root rate 500\n", "rate '500': a rate from 1kbit to 10tbit" },
		{ "limit user root rate 11tbit\n", "rate '11tbit': a rate from 1kbit" },
		{ "limit user root rate\n", "needs a value" },
		{ "limit user root burst 10\n", "unknown limit 'burst'" },
		{ "limit group * connections 1\n", "no group '*'" },
		{ "socket-group\n", "usage: socket-group" },
		{ "prefix 1 2 3\n", "usage: prefix" },
		{ "\n\ncontrol 1.2.3.4 via eth0\n", ":3: usage: control" },
	};
	static struct rtcd_config cfg;
	char err[256], many[64 * 40 + 64] = "";
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ(-1, load(bad[i][0], &cfg, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, bad[i][1])) {
			TH_LOG("'%s': '%s'", bad[i][0], err);
		}
	}
	for (i = 0; i <= RTCD_LIMITS_MAX; i++)
		strcat(many, "limit user root connections 1\n");
	EXPECT_EQ(-1, load(many, &cfg, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "more than 64 limits"));
}

TEST(policy_limits_and_use)
{
	static struct rtcd_config cfg;
	struct rtcd_usage use[RTCD_LIMITS_MAX];
	gid_t groups[] = { 50, 60 };
	struct rtcd_cred alice = { .uid = 1001, .gid = 1001, .groups = groups, .ngroups = 2 };
	struct rtcd_cred bob = { .uid = 1002, .gid = 60 };
	struct rtcd_cred carol = { .uid = 1003, .gid = 1003 };
	struct rtcd_cred root = { .uid = 0, .gid = 0 };
	uint64_t ma, mb, mc;
	char err[256], msg[256];

	ASSERT_EQ(0, load("limit user 1001 connections 2 rate 100mbit\n"
			  "limit user * connections 1\n"
			  "limit group 60 rate 150mbit\n", &cfg, err, sizeof(err)));
	ma = policy_limits(&cfg, &alice);
	mb = policy_limits(&cfg, &bob);
	mc = policy_limits(&cfg, &carol);
	/* Her own line replaces "user *"; bob's group is his primary. */
	EXPECT_EQ(0x5ULL, ma);
	EXPECT_EQ(0x6ULL, mb);
	EXPECT_EQ(0x2ULL, mc);
	EXPECT_EQ(0ULL, policy_limits(&cfg, &root));

	/* Alice holds 40mbit; bob 70mbit: the group holds 110mbit. */
	memset(use, 0, sizeof(use));
	policy_count(&cfg, ma, alice.uid, ma, alice.uid, 40000000, use);
	policy_count(&cfg, ma, alice.uid, mb, bob.uid, 70000000, use);
	EXPECT_EQ(1U, use[0].conns);
	EXPECT_EQ(110000000ULL, use[2].rate);
	EXPECT_EQ(-1, policy_check(&cfg, ma, use, 40000000, msg, sizeof(msg)));
	EXPECT_EQ(2, policy_check(&cfg, ma, use, 40000001, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "group 60 limit of 150Mbit (rtcd.conf line 3) "
			       "would be exceeded: 110Mbit held, 40")) TH_LOG("%s", msg);

	/* "user *" is each user's: carol's count ignores bob's connection. */
	memset(use, 0, sizeof(use));
	policy_count(&cfg, mc, carol.uid, mb, bob.uid, 1000, use);
	EXPECT_EQ(-1, policy_check(&cfg, mc, use, 1000, msg, sizeof(msg)));
	policy_count(&cfg, mc, carol.uid, mc, carol.uid, 1000, use);
	EXPECT_EQ(1, policy_check(&cfg, mc, use, 1000, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "each user's limit of 1 connection (rtcd.conf line 2) "
			       "is reached")) TH_LOG("%s", msg);

	/* Saturated sums, no wrap. */
	memset(use, 0, sizeof(use));
	policy_count(&cfg, ma, alice.uid, ma, alice.uid, UINT64_MAX - 5, use);
	policy_count(&cfg, ma, alice.uid, ma, alice.uid, 10, use);
	EXPECT_EQ(UINT64_MAX, use[0].rate);
	EXPECT_EQ(0, policy_check(&cfg, ma, use, 1, msg, sizeof(msg)));

	EXPECT_TRUE(policy_may_see(0, 1001));
	EXPECT_TRUE(policy_may_see(1001, 1001));
	EXPECT_FALSE(policy_may_see(1002, 1001));
}

TEST_HARNESS_MAIN
