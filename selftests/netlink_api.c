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
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

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

static struct nlmsghdr *msg(struct enl_sock *s, struct req *r, uint8_t cmd, uint16_t flags)
{
	r->nlh = enl_genl_msg(s, r->buf, cmd, ETHEREAL_GENL_VERSION, flags);
	return r->nlh;
}

static uint32_t ifx(const char *name)
{
	return if_nametoindex(name);
}

static int attach(struct enl_sock *s, const char *dev)
{
	struct req r;

	mnl_attr_put_u32(msg(s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0), ETHEREAL_A_IFINDEX,
			 ifx(dev));
	return enl_talk(s, r.nlh, NULL, NULL);
}

/* A connection IN:IN_ID -> OUT:OUT_ID of RATE, and BURST unless 0. */
static int conn_new_burst(struct enl_sock *s, const char *in, uint16_t in_id, uint64_t rate,
			  uint32_t burst, const char *out, uint16_t out_id)
{
	struct nlattr *nest;
	struct req r;

	msg(s, &r, ETHEREAL_CMD_CONN_NEW, 0);
	nest = mnl_attr_nest_start(r.nlh, ETHEREAL_A_CONN);
	mnl_attr_put_u32(r.nlh, ETHEREAL_CONN_A_IN_IFINDEX, ifx(in));
	mnl_attr_put_u16(r.nlh, ETHEREAL_CONN_A_IN_ID, in_id);
	mnl_attr_put_u32(r.nlh, ETHEREAL_CONN_A_OUT_IFINDEX, ifx(out));
	mnl_attr_put_u16(r.nlh, ETHEREAL_CONN_A_OUT_ID, out_id);
	mnl_attr_put_u64(r.nlh, ETHEREAL_CONN_A_RATE, rate);
	if (burst)
		mnl_attr_put_u32(r.nlh, ETHEREAL_CONN_A_BURST, burst);
	mnl_attr_nest_end(r.nlh, nest);
	return enl_talk(s, r.nlh, NULL, NULL);
}

static int conn_new_on(struct enl_sock *s, const char *in, uint16_t in_id, uint64_t rate,
		       const char *out, uint16_t out_id)
{
	return conn_new_burst(s, in, in_id, rate, 0, out, out_id);
}

/* A connection p1:IN_ID -> p2:OUT_ID. */
static int conn_new(struct enl_sock *s, uint16_t in_id, uint64_t rate, uint16_t out_id)
{
	return conn_new_on(s, "p1", in_id, rate, "p2", out_id);
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(int *)data)++;
	return MNL_CB_OK;
}

static int count_switches(struct enl_sock *s)
{
	struct req r;
	int n = 0;

	msg(s, &r, ETHEREAL_CMD_SWITCH_GET, NLM_F_DUMP);
	if (enl_talk(s, r.nlh, count_cb, &n))
		return -1;
	return n;
}

FIXTURE(api) {
	struct enl_sock s;
};

FIXTURE_SETUP(api)
{
	new_netns_with_bridge();
	ASSERT_EQ(0, enl_genl_open(&self->s, ETHEREAL_GENL_NAME));
}

FIXTURE_TEARDOWN(api)
{
	enl_close(&self->s);
}

TEST_F(api, attach_and_detach)
{
	struct req r;

	ASSERT_EQ(0, count_switches(&self->s));
	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(1, count_switches(&self->s));
	mnl_attr_put_u32(msg(&self->s, &r, ETHEREAL_CMD_SWITCH_DETACH, 0),
			 ETHEREAL_A_IFINDEX, ifx("br0"));
	ASSERT_EQ(0, enl_talk(&self->s, r.nlh, NULL, NULL));
	ASSERT_EQ(0, count_switches(&self->s));
}

TEST_F(api, missing_attribute_is_named)
{
	struct req r;

	msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0);
	EXPECT_EQ(-EINVAL, enl_talk(&self->s, r.nlh, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->s.errmsg, "missing attribute"));
}

TEST_F(api, unknown_attribute_rejected)
{
	struct req r;

	msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0);
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_IFINDEX, ifx("br0"));
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_MAX + 1, 1);
	EXPECT_EQ(-EINVAL, enl_talk(&self->s, r.nlh, NULL, NULL));
	EXPECT_NE(0, self->s.errmsg[0]);
	EXPECT_EQ(0, count_switches(&self->s));
}

TEST_F(api, reply_only_attribute_rejected)
{
	struct req r;

	msg(&self->s, &r, ETHEREAL_CMD_SWITCH_ATTACH, 0);
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_IFINDEX, ifx("br0"));
	mnl_attr_put_u32(r.nlh, ETHEREAL_A_N_PORTS, 1);
	EXPECT_EQ(-EINVAL, enl_talk(&self->s, r.nlh, NULL, NULL));
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
	EXPECT_EQ(-ENODEV, enl_talk(&self->s, r.nlh, NULL, NULL));
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

TEST_F(api, rate_bounds)
{
	ASSERT_EQ(0, attach(&self->s, "br0"));
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0x0309, ETHEREAL_RATE_MIN - 1, 0x0778));
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0x0309, ETHEREAL_RATE_MAX + 1, 0x0778));
	EXPECT_EQ(-ERANGE, conn_new(&self->s, 0x0309, UINT64_MAX, 0x0778));
	EXPECT_EQ(0, conn_new(&self->s, 0x0309, ETHEREAL_RATE_MIN, 0x0778));
}

/* tc qdisc replace dev DEV root ethereal, with one option of TYPE. */
static int qdisc_opt(struct enl_sock *s, const char *dev, int type, int len, uint64_t v)
{
	struct nlattr *nest;
	struct tcmsg *tcm;
	struct req r;

	r.nlh = enl_msg(s, r.buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE);
	tcm = mnl_nlmsg_put_extra_header(r.nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifx(dev);
	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = 0x10000;
	mnl_attr_put_strz(r.nlh, TCA_KIND, "ethereal");
	nest = mnl_attr_nest_start(r.nlh, TCA_OPTIONS);
	if (type != TCA_ETHEREAL_RATE)
		mnl_attr_put_u64(r.nlh, TCA_ETHEREAL_RATE, 100000000);
	switch (len) {
	case 1: mnl_attr_put_u8(r.nlh, type, v); break;
	case 4: mnl_attr_put_u32(r.nlh, type, v); break;
	default: mnl_attr_put_u64(r.nlh, type, v); break;
	}
	mnl_attr_nest_end(r.nlh, nest);
	return enl_talk(s, r.nlh, NULL, NULL);
}

/*
 * Every numeric option at its edges, on a switch port and on a device of
 * no switch: what is out of bounds is refused with a message, what is in
 * does not fault when traffic flows (a rate of 2^64-1 bit/s with a 10 s
 * discard window was a divide error in the residual's arithmetic).
 */
TEST_F(api, tc_options_at_their_edges)
{
	static const uint64_t edges[] = {
		0, 1, 99, 100, 101, 999, 1000, 1514, 65535, 65536, 100000,
		1000000000, UINT32_MAX, UINT32_MAX + 1ULL, ETHEREAL_RATE_MAX,
		ETHEREAL_RATE_MAX + 1, 10000000000ULL, 10000000001ULL,
		1ULL << 63, UINT64_MAX,
	};
	static const struct {
		int type, len;
		uint64_t min, max;
	} opts[] = {
		{ TCA_ETHEREAL_RATE, 8, ETHEREAL_RATE_MIN, ETHEREAL_RATE_MAX },
		{ TCA_ETHEREAL_CYCLE, 8, ETHEREAL_CYCLE_MIN_NS, ETHEREAL_CYCLE_MAX_NS },
		{ TCA_ETHEREAL_DISCARD_WINDOW, 8, 0, ETHEREAL_DISCARD_MAX_NS },
		{ TCA_ETHEREAL_LINK_BURST, 8, 0, ETHEREAL_LINK_BURST_MAX_NS },
		{ TCA_ETHEREAL_RT_LIMIT, 4, 0, 100 },
		{ TCA_ETHEREAL_BE_LIMIT, 4, 1514, UINT32_MAX },
		{ TCA_ETHEREAL_RT_BUFFER, 4, 1514, UINT32_MAX },
		{ TCA_ETHEREAL_MAX_CONNS, 4, 1, ETHEREAL_MAX_CONNS_MAX },
		{ TCA_ETHEREAL_MODE, 1, 0, ETHEREAL_MODE_MAX },
	};
	static const char *const devs[] = { "p1", "d0" };
	struct enl_sock rt;
	size_t d, o, e;

	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(0, sh("ip link add d0 up type dummy"));
	ASSERT_EQ(0, enl_open(&rt, NETLINK_ROUTE));
	for (d = 0; d < sizeof(devs) / sizeof(devs[0]); d++) {
		for (o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
			for (e = 0; e < sizeof(edges) / sizeof(edges[0]); e++) {
				uint64_t v = edges[e];
				uint64_t bits = opts[o].len == 8 ? UINT64_MAX :
						(1ULL << (8 * opts[o].len)) - 1;
				int in, err;

				if (v > bits)
					continue;
				in = v >= opts[o].min && v <= opts[o].max;
				err = qdisc_opt(&rt, devs[d], opts[o].type, opts[o].len, v);
				if (in ? err != 0 : err == 0 || !rt.errmsg[0])
					TH_LOG("%s option %d = %llu: %d (%s)", devs[d], opts[o].type,
					       (unsigned long long)v, err, rt.errmsg);
				EXPECT_EQ(in, err == 0);
			}
		}
	}
	/* The largest rate, window and link burst, then traffic through both. */
	ASSERT_EQ(0, sh("tc qdisc replace dev p1 root ethereal rate 10tbit discard-window 10s "
			"link-burst 1s && "
			"tc qdisc replace dev d0 root ethereal rate 10tbit discard-window 10s "
			"link-burst 1s && "
			"ip addr add 192.0.2.1/24 dev d0 && ip addr add 198.51.100.1/24 dev q1 && "
			"ping -q -c 20 -i 0.01 -W 1 192.0.2.2 >/dev/null; "
			"ping -q -c 20 -i 0.01 -W 1 -I q1 198.51.100.2 >/dev/null; true"));
	ASSERT_EQ(0, sh("tc qdisc replace dev p2 root ethereal rate 10tbit"));
	EXPECT_EQ(0, conn_new(&self->s, 0x0309, 5000000000ULL, 0x0778));
	enl_close(&rt);
}

/*
 * A replace that fails after the new qdisc's init (here: its rate
 * estimator is refused) leaves the port to the old root, with the queue of
 * its connection: it used to leave it with none, real time gone best effort.
 */
TEST_F(api, failed_replace_keeps_the_port_scheduled)
{
	struct tc_estimator est = { .interval = 10, .ewma_log = 2 };
	struct nlattr *nest;
	struct enl_sock rt;
	struct tcmsg *tcm;
	struct req r;

	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(0, sh("tc qdisc replace dev p2 root handle 1: ethereal rate 100mbit"));
	ASSERT_EQ(0, conn_new(&self->s, 0x0309, 1000000, 0x0778));
	ASSERT_EQ(0, enl_open(&rt, NETLINK_ROUTE));
	r.nlh = enl_msg(&rt, r.buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE);
	tcm = mnl_nlmsg_put_extra_header(r.nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifx("p2");
	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = 0x20000;
	mnl_attr_put_strz(r.nlh, TCA_KIND, "ethereal");
	nest = mnl_attr_nest_start(r.nlh, TCA_OPTIONS);
	mnl_attr_put_u64(r.nlh, TCA_ETHEREAL_RATE, 200000000);
	mnl_attr_nest_end(r.nlh, nest);
	mnl_attr_put(r.nlh, TCA_RATE, sizeof(est), &est);
	EXPECT_NE(0, enl_talk(&rt, r.nlh, NULL, NULL));
	enl_close(&rt);
	EXPECT_EQ(0, sh("tc qdisc show dev p2 | grep -q 'ethereal 1: root.*rate 100Mbit.*conns 1'"));
	EXPECT_EQ(0, sh("tc class show dev p2 | grep -q 'class ethereal 1:778'"));
	/* and a real replace moves the port and its queue to the new root */
	EXPECT_EQ(0, sh("tc qdisc replace dev p2 root handle 2: ethereal rate 200mbit && "
			"tc qdisc show dev p2 | grep -q 'ethereal 2: root.*conns 1' && "
			"tc class show dev p2 | grep -q 'class ethereal 2:778'"));
	/* deleted, then back: the port is scheduled by whichever is root */
	EXPECT_EQ(0, sh("tc qdisc del dev p2 root && "
			"tc qdisc add dev p2 root handle 3: ethereal rate 100mbit && "
			"tc class show dev p2 | grep -q 'class ethereal 3:778'"));
}

/*
 * A dump across two switches, nothing changing: not flagged as interrupted
 * (NLM_F_DUMP_INTR, which libmnl reports as EINTR). Each switch's own
 * generation used to stand for the dump's, so the second switch flagged it.
 */
TEST_F(api, dump_across_switches_is_consistent)
{
	int n = 0, p;
	struct req r;

	ASSERT_EQ(0, sh("ip link add br1 type bridge && "
			"ip link add p3 type veth peer q3 && ip link add p4 type veth peer q4 && "
			"ip link set p3 master br1 && ip link set p4 master br1 && "
			"for d in br1 p3 p4 q3 q4; do ip link set $d up; done"));
	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(0, attach(&self->s, "br1"));
	for (p = 0; p < 50; p++) {
		ASSERT_EQ(0, conn_new_on(&self->s, "p1", 0x100 + p, 1000, "p2", 0x100 + p));
		ASSERT_EQ(0, conn_new_on(&self->s, "p3", 0x100 + p, 1000, "p4", 0x100 + p));
	}
	msg(&self->s, &r, ETHEREAL_CMD_CONN_GET, NLM_F_DUMP);
	EXPECT_EQ(0, enl_talk(&self->s, r.nlh, count_cb, &n));
	EXPECT_EQ(100, n);
	n = 0;
	msg(&self->s, &r, ETHEREAL_CMD_PORT_GET, NLM_F_DUMP);
	EXPECT_EQ(0, enl_talk(&self->s, r.nlh, count_cb, &n));
	EXPECT_EQ(4, n);
}

/*
 * Without the qdisc a port admits within its device's speed and the
 * qdisc's default limits; a device reporting no speed admits nothing
 * until it gets the qdisc and a rate (any rate used to pass, unbounded).
 */
TEST_F(api, limits_without_the_qdisc)
{
	ASSERT_EQ(0, attach(&self->s, "br0"));
	ASSERT_EQ(0, sh("ip link add d1 type dummy && ip link set d1 master br0 up"));
	EXPECT_EQ(-EINVAL, conn_new_on(&self->s, "p1", 0x0309, 1000000, "d1", 0x0778));
	EXPECT_STREQ("The output port reports no speed: give it the ethereal qdisc with a rate",
		     self->s.errmsg);
	ASSERT_EQ(0, sh("tc qdisc add dev d1 root ethereal rate 10mbit"));
	EXPECT_EQ(0, conn_new_on(&self->s, "p1", 0x0309, 1000000, "d1", 0x0778));
	/* p2, a veth of 10 Gbit/s: queues of 1 s of it, 1.25 GB; 2 x 1 GiB do not fit */
	EXPECT_EQ(-ENOBUFS, conn_new_burst(&self->s, "p1", 0x030a, 1000000, 1U << 30,
					   "p2", 0x0779));
	EXPECT_STREQ("Not enough queue buffer left on the output port (rt-buffer)",
		     self->s.errmsg);
	EXPECT_EQ(0, conn_new_burst(&self->s, "p1", 0x030a, 1000000, 1U << 28, "p2", 0x0779));
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
	EXPECT_EQ(-ENOENT, enl_talk(&self->s, r.nlh, NULL, NULL));
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
		struct enl_sock s;
		int ok;

		/* nobody, without capabilities */
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(3);
		if (enl_genl_open(&s, ETHEREAL_GENL_NAME))
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
		struct enl_sock s;
		int ok;

		new_netns_with_bridge();
		if (enl_genl_open(&s, ETHEREAL_GENL_NAME))
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
