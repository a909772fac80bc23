// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink API of ethereal.ko: strict validation with extack
 * messages, permissions, and network namespaces. Each test runs in a
 * network namespace of its own (the harness forks per test), with a bridge
 * br0 of two veth ports.
 * timeout=300
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/ethereal.h>
#include <linux/genetlink.h>

#include "kselftest_harness.h"
#include "nl.h"

static int sh(const char *cmd)
{
	return system(cmd);
}

/* Before the harness forks its tests: the module under test, by path. */
__attribute__((constructor)) static void load_module(void)
{
	if (sh("lsmod | grep -q '^ethereal ' || "
	       "{ modprobe bridge && insmod \"${ETHEREAL_KO:-build/kmod/$(uname -r)/ethereal.ko}\"; }")) {
		ksft_print_header();
		ksft_exit_skip("cannot load ethereal.ko\n");
	}
}

static void new_netns_with_bridge(void)
{
	if (unshare(CLONE_NEWNET) ||
	    sh("ip link set lo up && ip link add br0 type bridge && "
	       "ip link add p1 type veth peer q1 && ip link add p2 type veth peer q2 && "
	       "ip link set p1 master br0 && ip link set p2 master br0 && "
	       "for d in br0 p1 p2 q1 q2; do ip link set $d up; done"))
		exit(KSFT_SKIP);
}

struct req {
	char buf[8192];	/* MNL_SOCKET_BUFFER_SIZE is not a constant */
	struct nlmsghdr *nlh;
};

static struct nlmsghdr *msg(struct nl_sock *s, struct req *r, uint8_t cmd, uint16_t flags)
{
	r->nlh = nl_genl_msg(s, r->buf, cmd, ETHEREAL_GENL_VERSION, flags);
	return r->nlh;
}

static uint32_t ifx(const char *name)
{
	return if_nametoindex(name);
}

static int attach(struct nl_sock *s, const char *dev)
{
	struct req r;

	mnl_attr_put_u32(msg(s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0), ETHEREAL_A_IFINDEX,
			 ifx(dev));
	return nl_talk(s, r.nlh, NULL, NULL);
}

/* A connection p1:IN_ID -> p2 with the given extra attributes. */
static int conn_new(struct nl_sock *s, uint16_t in_id, uint64_t rate, uint16_t out_id)
{
	struct nlattr *nest;
	struct req r;

	msg(s, &r, ETHEREAL_CMD_CONN_NEW, 0);
	nest = mnl_attr_nest_start(r.nlh, ETHEREAL_A_CONN);
	mnl_attr_put_u32(r.nlh, ETHEREAL_CONN_A_IN_IFINDEX, ifx("p1"));
	mnl_attr_put_u16(r.nlh, ETHEREAL_CONN_A_IN_ID, in_id);
	mnl_attr_put_u32(r.nlh, ETHEREAL_CONN_A_OUT_IFINDEX, ifx("p2"));
	mnl_attr_put_u16(r.nlh, ETHEREAL_CONN_A_OUT_ID, out_id);
	mnl_attr_put_u64(r.nlh, ETHEREAL_CONN_A_RATE, rate);
	mnl_attr_nest_end(r.nlh, nest);
	return nl_talk(s, r.nlh, NULL, NULL);
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(int *)data)++;
	return MNL_CB_OK;
}

static int count_switches(struct nl_sock *s)
{
	struct req r;
	int n = 0;

	msg(s, &r, ETHEREAL_CMD_SWITCH_GET, NLM_F_DUMP);
	if (nl_talk(s, r.nlh, count_cb, &n))
		return -1;
	return n;
}

FIXTURE(api) {
	struct nl_sock s;
};

FIXTURE_SETUP(api)
{
	new_netns_with_bridge();
	ASSERT_EQ(0, nl_genl_open(&self->s, ETHEREAL_GENL_NAME));
}

FIXTURE_TEARDOWN(api)
{
	nl_close(&self->s);
}

TEST_F(api, attach_and_detach)
{
	struct req r;

	ASSERT_EQ(0, count_switches(&self->s));
	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(1, count_switches(&self->s));
	mnl_attr_put_u32(msg(&self->s, &r, ETHEREAL_CMD_SWITCH_DETACH, 0),
			 ETHEREAL_A_IFINDEX, ifx("br0"));
	ASSERT_EQ(0, nl_talk(&self->s, r.nlh, NULL, NULL));
	ASSERT_EQ(0, count_switches(&self->s));
}

TEST_F(api, missing_attribute_is_named)
{
	struct req r;

	msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0);
	EXPECT_EQ(-EINVAL, nl_talk(&self->s, r.nlh, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->s.errmsg, "missing attribute"));
}

TEST_F(api, unknown_attribute_rejected)
{
	struct req r;

	msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0);
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_IFINDEX, ifx("br0"));
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_MAX + 1, 1);
	EXPECT_EQ(-EINVAL, nl_talk(&self->s, r.nlh, NULL, NULL));
	EXPECT_NE(0, self->s.errmsg[0]);
	EXPECT_EQ(0, count_switches(&self->s));
}

TEST_F(api, reply_only_attribute_rejected)
{
	struct req r;

	msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0);
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_IFINDEX, ifx("br0"));
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_N_PORTS, 1);
	EXPECT_EQ(-EINVAL, nl_talk(&self->s, r.nlh, NULL, NULL));
}

TEST_F(api, not_a_bridge)
{
	EXPECT_EQ(-EINVAL, attach(&self->s, "p1"));
	EXPECT_STREQ("Device is not a bridge", self->s.errmsg);
}

TEST_F(api, no_such_device)
{
	struct req r;

	mnl_attr_put_u32(msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0),
			 ETHEREAL_A_IFINDEX, 99999);
	EXPECT_EQ(-ENODEV, nl_talk(&self->s, r.nlh, NULL, NULL));
	EXPECT_STREQ("No such device", self->s.errmsg);
}

TEST_F(api, attach_twice)
{
	ASSERT_EQ(0, attach(&self->s, "br0"));
	EXPECT_EQ(-EEXIST, attach(&self->s, "br0"));
	EXPECT_STREQ("Bridge is already an EtheReal switch", self->s.errmsg);
}

TEST_F(api, ids_outside_the_range)
{
	ASSERT_EQ(0, attach(&self->s, "br0"));
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0x000a, 1000, 0x0100));
	EXPECT_NE(0, self->s.errmsg[0]);
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0xffff, 1000, 0x0100));
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0x0100, 1000, 0x0000));
	EXPECT_EQ(0, conn_new(&self->s, 0x000b, 1000, 0x0100));
	EXPECT_EQ(0, conn_new(&self->s, 0xfffe, 1000, 0x0101));
}

TEST_F(api, duplicate_ids)
{
	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(0, conn_new(&self->s, 0x0309, 1000, 0x0778));
	EXPECT_EQ(-EBUSY, conn_new(&self->s, 0x0309, 1000, 0x0779));
	EXPECT_STREQ("Connection ID already in use on the input port", self->s.errmsg);
	EXPECT_EQ(-EBUSY, conn_new(&self->s, 0x030a, 1000, 0x0778));
	EXPECT_STREQ("Output ID already in use on the output port", self->s.errmsg);
}

TEST_F(api, rates)
{
	ASSERT_EQ(0, attach(&self->s, "br0"));
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0x0309, 0, 0x0778));
	/* veth reports 10 Gbit/s */
	EXPECT_EQ(-EINVAL, conn_new(&self->s, 0x0309, 20000000000ULL, 0x0778));
	EXPECT_STREQ("Rate exceeds the output port's link rate", self->s.errmsg);
	ASSERT_EQ(0, conn_new(&self->s, 0x0309, 6000000000ULL, 0x0778));
	EXPECT_EQ(-ENOSPC, conn_new(&self->s, 0x030a, 6000000000ULL, 0x0779));
	EXPECT_STREQ("Not enough bandwidth left on the output port", self->s.errmsg);
}

TEST_F(api, missing_connection)
{
	struct nlattr *nest;
	struct req r;

	ASSERT_EQ(0, attach(&self->s, "br0"));
	msg(&self->s, &r, ETHEREAL_CMD_CONN_DEL, 0);
	nest = mnl_attr_nest_start(r.nlh, ETHEREAL_A_CONN);
	mnl_attr_put_u32(r.nlh, ETHEREAL_CONN_A_IN_IFINDEX, ifx("p1"));
	mnl_attr_put_u16(r.nlh, ETHEREAL_CONN_A_IN_ID, 0x0309);
	mnl_attr_nest_end(r.nlh, nest);
	EXPECT_EQ(-ENOENT, nl_talk(&self->s, r.nlh, NULL, NULL));
	EXPECT_STREQ("No connection with this ID on the port", self->s.errmsg);
}

TEST_F(api, port_of_plain_bridge)
{
	EXPECT_EQ(-ENOENT, conn_new(&self->s, 0x0309, 1000, 0x0778));
	EXPECT_STREQ("Device is not a port of an EtheReal switch", self->s.errmsg);
}

TEST_F(api, unprivileged)
{
	pid_t pid;
	int status;

	ASSERT_EQ(0, attach(&self->s, "br0"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct nl_sock s;
		int ok;

		/* nobody, without capabilities */
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		if (nl_genl_open(&s, ETHEREAL_GENL_NAME))
			_exit(4);
		ok = conn_new(&s, 0x0309, 1000, 0x0778) == -EPERM &&
		     count_switches(&s) == 1;
		_exit(ok ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(api, namespaces_are_separate_switches)
{
	pid_t pid;
	int status;

	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(0, conn_new(&self->s, 0x0309, 1000, 0x0778));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct nl_sock s;
		int ok;

		new_netns_with_bridge();
		if (nl_genl_open(&s, ETHEREAL_GENL_NAME))
			_exit(4);
		/* Nothing of the parent namespace is visible; same names are free. */
		ok = count_switches(&s) == 0 && attach(&s, "br0") == 0 &&
		     conn_new(&s, 0x0309, 1000, 0x0778) == 0 && count_switches(&s) == 1;
		_exit(ok ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(1, count_switches(&self->s));
}

TEST_HARNESS_MAIN
