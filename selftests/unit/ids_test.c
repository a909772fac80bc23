// SPDX-License-Identifier: GPL-2.0
/* lib/ids.c: connection ID notation and reserved ranges. */
#include "kselftest_harness.h"
#include "ids.h"

static long id_of(const char *s)
{
	uint16_t id;

	return parse_conn_id(s, &id) ? -1 : id;
}

TEST(notations)
{
	EXPECT_EQ(0x0309, id_of("03:09"));
	EXPECT_EQ(0x0778, id_of("07.78"));
	EXPECT_EQ(0x0309, id_of("0x0309"));
	EXPECT_EQ(0x0309, id_of("0x309"));
	EXPECT_EQ(777, id_of("777"));
	EXPECT_EQ(0xfffe, id_of("ff:fe"));
	EXPECT_EQ(0xffff, id_of("65535"));
}

TEST(rejected)
{
	EXPECT_EQ(-1, id_of(""));
	EXPECT_EQ(-1, id_of("65536"));
	EXPECT_EQ(-1, id_of("0x10000"));
	EXPECT_EQ(-1, id_of("3:09"));
	EXPECT_EQ(-1, id_of("03:9"));
	EXPECT_EQ(-1, id_of("0g:09"));
	EXPECT_EQ(-1, id_of("03:09:01"));
	EXPECT_EQ(-1, id_of("-1"));
	EXPECT_EQ(-1, id_of("x"));
}

TEST(reserved)
{
	EXPECT_NE(NULL, conn_id_problem(0x0000));
	EXPECT_NE(NULL, conn_id_problem(0x000a));
	EXPECT_EQ(NULL, conn_id_problem(0x000b));
	EXPECT_EQ(NULL, conn_id_problem(0xfffe));
	EXPECT_NE(NULL, conn_id_problem(0xffff));
}

TEST(format)
{
	char buf[8];

	format_conn_id(0x0309, buf, sizeof(buf));
	EXPECT_STREQ("03:09", buf);
	EXPECT_EQ(0x0309, id_of(buf));
}

TEST_HARNESS_MAIN
