// SPDX-License-Identifier: GPL-2.0
/* lib/cmdline.c: keyword abbreviations and ip -batch's file syntax. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "kselftest_harness.h"
#include "cmdline.h"

TEST(abbreviations)
{
	EXPECT_TRUE(matches("show", "show"));
	EXPECT_TRUE(matches("sh", "show"));
	EXPECT_TRUE(matches("s", "show"));
	EXPECT_FALSE(matches("showx", "show"));
	EXPECT_FALSE(matches("shw", "show"));
	EXPECT_FALSE(matches("", "show"));
	EXPECT_FALSE(matches(NULL, "show"));
	EXPECT_FALSE(matches("Show", "show"));
	/* "outid" is not a beginning of "out": tried first, it does not take it. */
	EXPECT_FALSE(matches("outid", "out"));
	EXPECT_TRUE(matches("-j", "-json"));
	EXPECT_TRUE(matches("-V", "-Version"));
	EXPECT_FALSE(matches("-v", "-Version"));
}

/* The commands of TEXT, one per line of RESULT: words joined by '|'. */
static void commands(struct __test_metadata *_metadata, const char *text,
		     const char *const *want, int n_want, unsigned long last_first)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct cmdline c = { 0 };
	const char *why = NULL;
	char got[1024];
	int i, n = 0, r;

	ASSERT_NE(NULL, f);
	while ((r = cmdline_read(&c, f, &why)) == 1) {
		got[0] = '\0';
		for (i = 0; i < c.argc; i++) {
			if (i)
				strcat(got, "|");
			strcat(got, c.argv[i]);
		}
		ASSERT_LT(n, n_want);
		EXPECT_STREQ(want[n], got);
		EXPECT_EQ(NULL, c.argv[c.argc]);
		n++;
	}
	EXPECT_EQ(0, r);
	EXPECT_EQ(n_want, n);
	EXPECT_EQ(last_first, c.first);
	cmdline_free(&c);
	fclose(f);
}

#define COMMANDS(text, last_first, ...) do { \
	static const char *const want[] = { __VA_ARGS__ }; \
	commands(_metadata, text, want, sizeof(want) / sizeof(want[0]), last_first); \
} while (0)

TEST(words)
{
	COMMANDS("conn add dev swp1  id\t03:09\r\n\n   \n", 4,
		 "conn|add|dev|swp1|id|03:09", "", "");
	COMMANDS("no newline at the end", 2, "no|newline|at|the|end");
}

TEST(quotes)
{
	COMMANDS("a \"b c\" 'd \"e' f\n", 2, "a|b c|d \"e|f");
	COMMANDS("\"\" x\n", 2, "|x");
	/* A quote inside a word is part of it; after a closing one a word begins. */
	COMMANDS("it's \"a\"b\n", 2, "it's|a|b");
	COMMANDS("\"# not a comment\"\n", 2, "# not a comment");
}

TEST(comments)
{
	COMMANDS("# all of it\nshow # the rest\nshow br#1\n", 4, "", "show", "show|br#1");
	/* A comment ends the command: its backslash continues nothing. */
	COMMANDS("show # x \\\nport show\n", 3, "show", "port|show");
	COMMANDS("\"a\"#b\n", 2, "a");
}

TEST(continuation)
{
	COMMANDS("conn add \\\n  dev swp1 \\\n id 03:09\nshow\n", 5,
		 "conn|add|dev|swp1|id|03:09", "show");
	/* Joined as they are: no blank is added. */
	COMMANDS("sh\\\now\n", 3, "show");
	COMMANDS("a \"b \\\nc\"\n", 3, "a|b c");
}

TEST(no_limit)
{
	static char text[64 * 1024];
	struct cmdline c = { 0 };
	const char *why;
	FILE *f;
	int i;

	for (i = 0; i < 5000; i++)
		strcat(text, "w ");
	strcat(text, "last\n");
	f = fmemopen(text, strlen(text), "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, cmdline_read(&c, f, &why));
	EXPECT_EQ(5001, c.argc);
	EXPECT_STREQ("last", c.argv[5000]);
	cmdline_free(&c);
	fclose(f);
}

static int read_error(const char *text, const char **why, unsigned long *first)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct cmdline c = { 0 };
	int r;

	*why = NULL;
	while ((r = cmdline_read(&c, f, why)) == 1)
		;
	*first = c.first;
	cmdline_free(&c);
	fclose(f);
	return r;
}

TEST(errors)
{
	unsigned long first;
	const char *why;

	EXPECT_EQ(-1, read_error("show\nconn add \"dev swp1\n", &why, &first));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("unterminated quoted string", why);
	EXPECT_EQ(2, first);
	EXPECT_EQ(-1, read_error("show\nshow \\\n", &why, &first));
	EXPECT_STREQ("missing continuation line", why);
	EXPECT_EQ(2, first);
}

TEST_HARNESS_MAIN
