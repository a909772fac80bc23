// SPDX-License-Identifier: GPL-2.0
/*
 * lib/nl.c's attribute tables, checked against the module's policies
 * (ctl/attrs.c), on replies built here as the module builds them: a good
 * one parses; each kind of malformed one fails with EPROTO, naming the
 * attribute, or the bytes of one cut short; what a newer module adds is
 * skipped. Each reply sits in a buffer of its exact size, so that under
 * ASan (the Makefile's, where the compiler has it) a read past its end is
 * caught.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethereal.h>
#include <linux/genetlink.h>
#include <linux/if_ether.h>

#include "kselftest_harness.h"
#include "attrs.h"

/* What conn_reply() gets wrong. */
enum spoil {
	GOOD,
	SHORT_RATE,		/* a u64 of 4 bytes */
	NO_NUL,			/* a string without its NUL */
	SHORT_MAC,		/* 5 bytes of MAC */
	NO_ID,			/* without a required attribute */
	SHORT_COUNTER,		/* a u64 of 4 bytes, a nest further down */
	CUT_NEST,		/* a nest whose length cuts its last attribute */
	NEWER,			/* attributes past the policies */
};

static const uint8_t mac[ETH_ALEN] = { 0x02, 0xe7, 0x00, 0x00, 0x00, 0x02 };

/* A connection's reply, as the module's ethereal_nl_conn_fill() puts it. */
static struct nlmsghdr *conn_reply(enum spoil spoil)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf), *copy;
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *conn, *stats;

	g->cmd = ETHEREAL_CMD_CONN_GET;
	g->version = ETHEREAL_GENL_VERSION;
	mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, 7);
	conn = mnl_attr_nest_start(nlh, ETHEREAL_A_CONN);
	mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_IN_IFINDEX, 8);
	if (spoil == NO_NUL)
		mnl_attr_put(nlh, ETHEREAL_CONN_A_IN_IFNAME, strlen("swp1"), "swp1");
	else
		mnl_attr_put_strz(nlh, ETHEREAL_CONN_A_IN_IFNAME, "swp1");
	if (spoil != NO_ID)
		mnl_attr_put_u16(nlh, ETHEREAL_CONN_A_IN_ID, 0x0309);
	mnl_attr_put_strz(nlh, ETHEREAL_CONN_A_OUT_IFNAME, "swp2");
	mnl_attr_put(nlh, ETHEREAL_CONN_A_OUT_MAC, spoil == SHORT_MAC ? ETH_ALEN - 1 : ETH_ALEN,
		     mac);
	mnl_attr_put(nlh, ETHEREAL_CONN_A_SWAP, 0, NULL);
	/* nla_put_u64_64bit()'s padding, where the architecture wants it */
	mnl_attr_put(nlh, ETHEREAL_CONN_A_PAD, 0, NULL);
	if (spoil == SHORT_RATE)
		mnl_attr_put_u32(nlh, ETHEREAL_CONN_A_RATE, 10000000);
	else
		mnl_attr_put_u64(nlh, ETHEREAL_CONN_A_RATE, 10000000);
	stats = mnl_attr_nest_start(nlh, ETHEREAL_CONN_A_STATS);
	if (spoil == SHORT_COUNTER)
		mnl_attr_put_u32(nlh, ETHEREAL_STATS_A_RX_PACKETS, 42);
	else
		mnl_attr_put_u64(nlh, ETHEREAL_STATS_A_RX_PACKETS, 42);
	if (spoil == NEWER)
		mnl_attr_put(nlh, ETHEREAL_STATS_A_MAX + 1, 3, "new");
	if (spoil == CUT_NEST)
		mnl_attr_put_u64(nlh, ETHEREAL_STATS_A_TX_PACKETS, 1);
	mnl_attr_nest_end(nlh, stats);
	if (spoil == CUT_NEST)
		stats->nla_len -= 4;
	if (spoil == NEWER)
		mnl_attr_put_u64(nlh, ETHEREAL_CONN_A_MAX + 1, 1);
	mnl_attr_nest_end(nlh, conn);
	if (spoil == NEWER)
		mnl_attr_put(nlh, ETHEREAL_A_MAX + 7, 1, "x");

	copy = malloc(nlh->nlmsg_len);
	if (copy)
		memcpy(copy, nlh, nlh->nlmsg_len);
	return copy;
}

struct parsed {
	const struct nlattr *tb[ETHEREAL_A_MAX + 1];
	struct enl_fault fault;
	int ret, err;
	char why[160];
};

/* NLH's attribute tables as etherealctl makes them, then NLH freed. */
static void parse(struct nlmsghdr *nlh, struct parsed *p)
{
	memset(p, 0, sizeof(*p));
	errno = 0;
	p->ret = enl_attr_table(nlh, sizeof(struct genlmsghdr), &ethereal_attrs, p->tb,
				&p->fault);
	p->err = errno;
	if (p->ret)
		enl_fault_str(&p->fault, p->why, sizeof(p->why));
	free(nlh);
}

TEST(good_reply_parses)
{
	struct nlmsghdr *nlh = conn_reply(GOOD);
	const struct nlattr *tb[ETHEREAL_A_MAX + 1], *c[ETHEREAL_CONN_A_MAX + 1];
	const struct nlattr *st[ETHEREAL_STATS_A_MAX + 1];

	ASSERT_NE(NULL, nlh);
	ASSERT_EQ(0, enl_attr_table(nlh, sizeof(struct genlmsghdr), &ethereal_attrs, tb, NULL));
	EXPECT_EQ(7, mnl_attr_get_u32(tb[ETHEREAL_A_IFINDEX]));
	EXPECT_EQ(NULL, tb[ETHEREAL_A_IFNAME]);
	ASSERT_EQ(0, enl_nest_table(tb[ETHEREAL_A_CONN], &ethereal_conn_attrs, c, NULL));
	EXPECT_STREQ("swp1", mnl_attr_get_str(c[ETHEREAL_CONN_A_IN_IFNAME]));
	EXPECT_EQ(0x0309, mnl_attr_get_u16(c[ETHEREAL_CONN_A_IN_ID]));
	EXPECT_EQ(10000000, mnl_attr_get_u64(c[ETHEREAL_CONN_A_RATE]));
	EXPECT_EQ(0, memcmp(mac, mnl_attr_get_payload(c[ETHEREAL_CONN_A_OUT_MAC]), ETH_ALEN));
	EXPECT_NE(NULL, c[ETHEREAL_CONN_A_SWAP]);
	EXPECT_EQ(NULL, c[ETHEREAL_CONN_A_OUT_ID]);
	ASSERT_EQ(0, enl_nest_table(c[ETHEREAL_CONN_A_STATS], &ethereal_stats_attrs, st, NULL));
	EXPECT_EQ(42, mnl_attr_get_u64(st[ETHEREAL_STATS_A_RX_PACKETS]));
	EXPECT_EQ(NULL, st[ETHEREAL_STATS_A_TX_PACKETS]);
	free(nlh);
}

/* Each malformed reply: EPROTO, naming the set and the attribute. */
FIXTURE(malformed) {
	struct parsed p;
};

FIXTURE_VARIANT(malformed) {
	enum spoil spoil;
	const struct enl_attrs *set;
	int type;
	bool missing;
	const char *why;		/* NULL: not checked */
};

FIXTURE_VARIANT_ADD(malformed, truncated_u64) {
	.spoil = SHORT_RATE,
	.set = &ethereal_conn_attrs,
	.type = ETHEREAL_CONN_A_RATE,
	.why = "a malformed connection attribute 9 (rate): expected u64, got 4 bytes",
};

FIXTURE_VARIANT_ADD(malformed, string_without_nul) {
	.spoil = NO_NUL,
	.set = &ethereal_conn_attrs,
	.type = ETHEREAL_CONN_A_IN_IFNAME,
	.why = "a malformed connection attribute 14 (in_ifname): expected a NUL-terminated string",
};

FIXTURE_VARIANT_ADD(malformed, short_mac) {
	.spoil = SHORT_MAC,
	.set = &ethereal_conn_attrs,
	.type = ETHEREAL_CONN_A_OUT_MAC,
	.why = "a malformed connection attribute 6 (out_mac): expected 6 bytes, got 5 bytes",
};

/* A nest is checked with its message: required attributes too. */
FIXTURE_VARIANT_ADD(malformed, missing_required) {
	.spoil = NO_ID,
	.set = &ethereal_conn_attrs,
	.type = ETHEREAL_CONN_A_IN_ID,
	.missing = true,
	.why = "no connection attribute 3 (in_id)",
};

FIXTURE_VARIANT_ADD(malformed, deeper_down) {
	.spoil = SHORT_COUNTER,
	.set = &ethereal_stats_attrs,
	.type = ETHEREAL_STATS_A_RX_PACKETS,
};

FIXTURE_SETUP(malformed)
{
	parse(conn_reply(variant->spoil), &self->p);
}

FIXTURE_TEARDOWN(malformed)
{
}

TEST_F(malformed, fails_naming_it)
{
	EXPECT_EQ(-1, self->p.ret);
	EXPECT_EQ(EPROTO, self->p.err);
	EXPECT_EQ(variant->set, self->p.fault.set);
	EXPECT_EQ(variant->type, self->p.fault.type);
	EXPECT_EQ(variant->missing, self->p.fault.missing);
	if (variant->why)
		EXPECT_STREQ(variant->why, self->p.why);
}

/* A newer module's attributes, at every level: an older reader skips them. */
TEST(unknown_types_skipped)
{
	struct parsed p;

	parse(conn_reply(NEWER), &p);
	EXPECT_EQ(0, p.ret);
	EXPECT_NE(NULL, p.tb[ETHEREAL_A_CONN]);
}

/*
 * A message cut short, inside its last nest: the top-level parse fails,
 * naming the bytes of the attribute that does not fit. The cut message
 * sits in a buffer of its shorter size, so that ASan sees a read past it.
 */
TEST(cut_short)
{
	struct nlmsghdr *nlh = conn_reply(GOOD), *cut;
	const struct nlattr *c[ETHEREAL_CONN_A_MAX + 1];
	struct enl_fault f;
	struct parsed p;
	char why[80];
	uint32_t len;

	ASSERT_NE(NULL, nlh);
	len = nlh->nlmsg_len - 4;
	cut = malloc(len);
	ASSERT_NE(NULL, cut);
	memcpy(cut, nlh, len);
	cut->nlmsg_len = len;
	free(nlh);
	parse(cut, &p);
	EXPECT_EQ(-1, p.ret);
	EXPECT_EQ(EPROTO, p.err);
	EXPECT_EQ(&ethereal_attrs, p.fault.set);
	EXPECT_TRUE(p.fault.trailing);
	/* all but its header, its genlmsghdr and the IFINDEX before the nest */
	EXPECT_EQ(len - MNL_NLMSG_HDRLEN - sizeof(struct genlmsghdr) - MNL_ATTR_HDRLEN - 4,
		  p.fault.len);
	snprintf(why, sizeof(why), "%u trailing bytes in its top-level attributes",
		 p.fault.len);
	EXPECT_STREQ(why, p.why);
	EXPECT_EQ(NULL, p.tb[ETHEREAL_A_CONN]);
	/* Without its nest, a set lacks what it requires... */
	EXPECT_EQ(-1, enl_nest_table(NULL, &ethereal_conn_attrs, c, &f));
	EXPECT_EQ(EPROTO, errno);
	EXPECT_EQ(ETHEREAL_CONN_A_IN_ID, f.type);
	EXPECT_TRUE(f.missing);
	/* ...and a set requiring nothing does without it. */
	EXPECT_EQ(0, enl_nest_table(NULL, &ethereal_stats_attrs, c, NULL));
}

/* Only the last attribute's alignment padding may be missing. */
TEST(unpadded_end)
{
	struct nlmsghdr *nlh = conn_reply(NEWER), *cut;
	struct parsed p;
	uint32_t len;

	ASSERT_NE(NULL, nlh);
	/* its last attribute, of NEWER, has one byte of payload, three of padding */
	len = nlh->nlmsg_len - 3;
	cut = malloc(len);
	ASSERT_NE(NULL, cut);
	memcpy(cut, nlh, len);
	cut->nlmsg_len = len;
	free(nlh);
	parse(cut, &p);
	EXPECT_EQ(0, p.ret);
	EXPECT_NE(NULL, p.tb[ETHEREAL_A_CONN]);
}

/* A nest whose own length cuts its last attribute fails the same way. */
TEST(nest_cut_short)
{
	struct parsed p;

	parse(conn_reply(CUT_NEST), &p);
	EXPECT_EQ(-1, p.ret);
	EXPECT_EQ(EPROTO, p.err);
	EXPECT_EQ(&ethereal_stats_attrs, p.fault.set);
	EXPECT_TRUE(p.fault.trailing);
	EXPECT_EQ(MNL_ATTR_HDRLEN + 4, p.fault.len);
	EXPECT_STREQ("8 trailing bytes in its statistics attributes", p.why);
}

/* Without a policy (rtcd's rtnetlink tables) anything is taken as it is. */
TEST(no_policy)
{
	static const struct enl_attrs top = { "top-level", ETHEREAL_A_MAX, NULL };
	static const struct enl_attrs conn = { "connection", ETHEREAL_CONN_A_MAX, NULL };
	struct nlmsghdr *nlh = conn_reply(SHORT_RATE);
	const struct nlattr *tb[ETHEREAL_A_MAX + 1], *c[ETHEREAL_CONN_A_MAX + 1];

	ASSERT_NE(NULL, nlh);
	ASSERT_EQ(0, enl_attr_table(nlh, sizeof(struct genlmsghdr), &top, tb, NULL));
	ASSERT_EQ(0, enl_nest_table(tb[ETHEREAL_A_CONN], &conn, c, NULL));
	EXPECT_EQ(4, mnl_attr_get_payload_len(c[ETHEREAL_CONN_A_RATE]));
	free(nlh);
}

/* What attr_need() says of a set without a policy: no name, and no NULL read. */
TEST(fault_without_policy)
{
	static const struct enl_attrs conn = { "connection", ETHEREAL_CONN_A_MAX, NULL };
	char why[80];

	enl_fault_str(&(struct enl_fault){ .set = &conn, .type = 3, .missing = true },
		      why, sizeof(why));
	EXPECT_STREQ("no connection attribute 3", why);
	enl_fault_str(&(struct enl_fault){ .set = &conn, .type = 9, .len = 4 },
		      why, sizeof(why));
	EXPECT_STREQ("a malformed connection attribute 9: got 4 bytes", why);
}

TEST_HARNESS_MAIN
