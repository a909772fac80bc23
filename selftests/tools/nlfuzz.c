// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: mutated requests to the switch's generic netlink family and to
 * the ethereal qdisc.
 *
 *   nlfuzz COUNT SEED BRIDGE PORT...
 *
 * First a sweep: every numeric attribute of every command (and of the
 * qdisc's options), alone at each edge value (0, 1, 2, its bounds and one
 * past them, 2^16, 2^32, 2^63, 2^64-1), in its own width and in a wrong one,
 * the other attributes plausible. Then random requests up to COUNT: a
 * command (also unknown ones), as a request or a dump, attributes of any
 * type (also unknown and reply-only ones) at plausible or edge values,
 * nested or not, sometimes with their bytes overwritten; or a qdisc add,
 * replace, change or delete of kind ethereal on a port or the bridge, with
 * such options; or a class change on it. Devices are BRIDGE and the PORTs
 * (ifindexes 0, 1 and unused ones too). Every 64 requests the bridge is
 * attached again, which a fuzzed detach may have undone.
 *
 * Prints "requests=N answered=N ok=K" and how many each errno rejected;
 * exits 1 unless every request was answered (an ACK, an error, or a dump's
 * end). The kernel must stay free of crashes, warnings and leaks: the test
 * around it checks dmesg.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/ethereal.h>

#include "fuzz.h"
#include "nl.h"

enum kind { K_U8, K_U16, K_U32, K_U64, K_BE32, K_MAC, K_STR, K_FLAG, K_NEST };

/* What a plausible value of a field is. */
enum role { R_ANY, R_BRIDGE, R_PORT, R_ID, R_RATE, R_SIZE, R_IP, R_SMALL,
	    R_MS, R_NS, R_PCT };

struct schema;

struct field {
	uint16_t type;
	enum kind kind;
	enum role role;
	uint64_t lo, hi;		/* the policy's range, for the edges */
	const struct schema *nest;
};

struct schema {
	const struct field *f;
	unsigned int n;
	unsigned int max;		/* highest attribute type */
};

#define SCHEMA(name, max) { name, sizeof(name) / sizeof(name[0]), max }

static const struct field port_f[] = {
	{ ETHEREAL_PORT_A_IFINDEX, K_U32, R_PORT, 1, UINT32_MAX, NULL },
	{ ETHEREAL_PORT_A_ROLE, K_U8, R_SMALL, 0, ETHEREAL_PORT_ROLE_MAX, NULL },
	{ ETHEREAL_PORT_A_RATE, K_U64, R_RATE, 0, UINT64_MAX, NULL },
	{ ETHEREAL_PORT_A_STATS, K_NEST, R_ANY, 0, 0, NULL },
	{ ETHEREAL_PORT_A_HOST_CONNS, K_U32, R_SIZE, 0, ETHEREAL_MAX_CONNS_MAX, NULL },
	{ ETHEREAL_PORT_A_HOST_RATE, K_U64, R_RATE, 0, ETHEREAL_RATE_MAX, NULL },
};

static const struct field conn_f[] = {
	{ ETHEREAL_CONN_A_IN_IFINDEX, K_U32, R_PORT, 1, UINT32_MAX, NULL },
	{ ETHEREAL_CONN_A_IN_ID, K_U16, R_ID, ETHEREAL_ID_MIN, ETHEREAL_ID_MAX, NULL },
	{ ETHEREAL_CONN_A_OUT_IFINDEX, K_U32, R_PORT, 1, UINT32_MAX, NULL },
	{ ETHEREAL_CONN_A_OUT_ID, K_U16, R_ID, ETHEREAL_ID_MIN, ETHEREAL_ID_MAX, NULL },
	{ ETHEREAL_CONN_A_OUT_MAC, K_MAC, R_ANY, 0, 0, NULL },
	{ ETHEREAL_CONN_A_DADDR, K_BE32, R_IP, 0, UINT32_MAX, NULL },
	{ ETHEREAL_CONN_A_SWAP, K_FLAG, R_ANY, 0, 0, NULL },
	{ ETHEREAL_CONN_A_RATE, K_U64, R_RATE, ETHEREAL_RATE_MIN, ETHEREAL_RATE_MAX, NULL },
	{ ETHEREAL_CONN_A_BURST, K_U32, R_SIZE, 1, UINT32_MAX, NULL },
	{ ETHEREAL_CONN_A_MAX_PKT, K_U32, R_SIZE, ETHEREAL_MAX_PKT_MIN,
	  ETHEREAL_MAX_PKT_MAX, NULL },
	{ ETHEREAL_CONN_A_QID, K_U16, R_ID, 0, UINT16_MAX, NULL },
	{ ETHEREAL_CONN_A_ORIGIN, K_U8, R_SMALL, 0, 1, NULL },
	{ ETHEREAL_CONN_A_STATE, K_U8, R_SMALL, 0, 1, NULL },
	{ ETHEREAL_CONN_A_EXPIRES, K_U32, R_MS, 0, UINT32_MAX, NULL },
	{ ETHEREAL_CONN_A_DELAY, K_U64, R_NS, 0, UINT64_MAX, NULL },
	{ ETHEREAL_CONN_A_PATH_DELAY, K_U64, R_NS, 0, UINT64_MAX, NULL },
};

static const struct field neigh_f[] = {
	{ ETHEREAL_NEIGH_A_IFINDEX, K_U32, R_PORT, 1, UINT32_MAX, NULL },
	{ ETHEREAL_NEIGH_A_ADDR, K_BE32, R_IP, 0, UINT32_MAX, NULL },
	{ ETHEREAL_NEIGH_A_LLADDR, K_MAC, R_ANY, 0, 0, NULL },
	{ ETHEREAL_NEIGH_A_STATIC, K_FLAG, R_ANY, 0, 0, NULL },
	{ ETHEREAL_NEIGH_A_AGE, K_U32, R_MS, 0, UINT32_MAX, NULL },
};

static const struct schema port_s = SCHEMA(port_f, ETHEREAL_PORT_A_MAX);
static const struct schema conn_s = SCHEMA(conn_f, ETHEREAL_CONN_A_MAX);
static const struct schema neigh_s = SCHEMA(neigh_f, ETHEREAL_NEIGH_A_MAX);

static const struct field top_f[] = {
	{ ETHEREAL_A_IFINDEX, K_U32, R_BRIDGE, 1, UINT32_MAX, NULL },
	{ ETHEREAL_A_IFNAME, K_STR, R_ANY, 0, 0, NULL },
	{ ETHEREAL_A_PORT, K_NEST, R_ANY, 0, 0, &port_s },
	{ ETHEREAL_A_CONN, K_NEST, R_ANY, 0, 0, &conn_s },
	{ ETHEREAL_A_N_PORTS, K_U32, R_ANY, 0, UINT32_MAX, NULL },
	{ ETHEREAL_A_LIFETIME, K_U32, R_MS, ETHEREAL_LIFETIME_MIN_MS,
	  ETHEREAL_LIFETIME_MAX_MS, NULL },
	{ ETHEREAL_A_NEIGH, K_NEST, R_ANY, 0, 0, &neigh_s },
};

static const struct schema top_s = SCHEMA(top_f, ETHEREAL_A_MAX);

static const struct field qdisc_f[] = {
	{ TCA_ETHEREAL_RATE, K_U64, R_RATE, ETHEREAL_RATE_MIN, ETHEREAL_RATE_MAX, NULL },
	{ TCA_ETHEREAL_CYCLE, K_U64, R_NS, ETHEREAL_CYCLE_MIN_NS, ETHEREAL_CYCLE_MAX_NS, NULL },
	{ TCA_ETHEREAL_RT_LIMIT, K_U32, R_PCT, 1, 100, NULL },
	{ TCA_ETHEREAL_MODE, K_U8, R_SMALL, 0, ETHEREAL_MODE_MAX, NULL },
	{ TCA_ETHEREAL_BE_LIMIT, K_U32, R_SIZE, 0, UINT32_MAX, NULL },
	{ TCA_ETHEREAL_DISCARD_WINDOW, K_U64, R_NS, 0, ETHEREAL_DISCARD_MAX_NS, NULL },
	{ TCA_ETHEREAL_RESERVED, K_U64, R_RATE, 0, UINT64_MAX, NULL },
	{ TCA_ETHEREAL_RT_BUFFER, K_U32, R_SIZE, 0, UINT32_MAX, NULL },
	{ TCA_ETHEREAL_MAX_CONNS, K_U32, R_SIZE, 1, ETHEREAL_MAX_CONNS_MAX, NULL },
	{ TCA_ETHEREAL_DELAY, K_U64, R_NS, 0, ETHEREAL_DELAY_MAX_NS, NULL },
	{ TCA_ETHEREAL_DELAY_USED, K_U64, R_NS, 0, UINT64_MAX, NULL },
	{ TCA_ETHEREAL_DELAY_FLOOR, K_U64, R_NS, 0, UINT64_MAX, NULL },
	{ TCA_ETHEREAL_LINK_BURST, K_U64, R_NS, 0, ETHEREAL_LINK_BURST_MAX_NS, NULL },
};

static const struct schema qdisc_s = SCHEMA(qdisc_f, TCA_ETHEREAL_MAX);

static struct {
	struct enl_sock genl, rt;
	uint32_t bridge;
	uint32_t ports[16];
	unsigned int n_ports;
	unsigned long requests, answered, ok;
	unsigned long err[256];		/* by errno; [255]: any higher */
} fz;

static uint32_t pick_dev(bool bridge)
{
	switch (below(8)) {
	case 0:
		return (uint32_t)below(3);	/* none, lo, or the first device */
	case 1:
		return 100000 + (uint32_t)below(100);
	case 2:
		return bridge ? fz.ports[below(fz.n_ports)] : fz.bridge;
	default:
		return bridge ? fz.bridge : fz.ports[below(fz.n_ports)];
	}
}

/* A value that may well be accepted, for a field of role R. */
static uint64_t plausible(const struct field *f)
{
	static const uint64_t rates[] = { 1000, 64000, 1000000, 10000000, 100000000,
					  1000000000, ETHEREAL_RATE_MAX };
	static const uint64_t sizes[] = { 60, 64, 1514, 3028, 6056, 65535, 100000 };

	switch (f->role) {
	case R_BRIDGE:
		return pick_dev(true);
	case R_PORT:
		return pick_dev(false);
	case R_ID:
		return ETHEREAL_ID_MIN + below(below(2) ? 64 : ETHEREAL_ID_MAX - ETHEREAL_ID_MIN + 1);
	case R_RATE:
		return rates[below(sizeof(rates) / sizeof(rates[0]))];
	case R_SIZE:
		return sizes[below(sizeof(sizes) / sizeof(sizes[0]))];
	case R_IP:	/* 10.0.0.x, network order */
		return (uint64_t)(10 | (below(3) + 1) << 24);
	case R_SMALL:
		return below(3);
	case R_MS:
		return 100 + below(60000);
	case R_NS:
		return 100000 + below(1000000000);
	case R_PCT:
		return 1 + below(100);
	default:
		return rnd();
	}
}

static const unsigned int widths[] = { 1, 2, 4, 8 };

static unsigned int kind_width(enum kind k)
{
	switch (k) {
	case K_U8:
		return 1;
	case K_U16:
		return 2;
	case K_U64:
		return 8;
	case K_MAC:
		return 6;
	default:
		return 4;
	}
}

/* Put V as an attribute of TYPE in WIDTH bytes (little endian, truncated). */
static void put_num(struct nlmsghdr *nlh, uint16_t type, uint64_t v, unsigned int width)
{
	uint8_t b[8];
	unsigned int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	mnl_attr_put(nlh, type, width, b);
}

static void put_attrs(struct nlmsghdr *nlh, const struct schema *s, unsigned int depth,
		      const struct field *edge_f, uint64_t edge_v, unsigned int edge_w);

/*
 * Field F: at EDGE_V in EDGE_W bytes if it is EDGE_F, else plausible,
 * sometimes at an edge, sometimes in the wrong width.
 */
static void put_field(struct nlmsghdr *nlh, const struct field *f, unsigned int depth,
		      const struct field *edge_f, uint64_t edge_v, unsigned int edge_w)
{
	unsigned int w = kind_width(f->kind);
	uint8_t mac[12];
	struct nlattr *nest;
	unsigned int i;

	if (f == edge_f) {
		put_num(nlh, f->type, edge_v, edge_w);
		return;
	}
	switch (f->kind) {
	case K_FLAG:
		mnl_attr_put(nlh, f->type, 0, NULL);
		return;
	case K_STR:
		mnl_attr_put_strz(nlh, f->type, below(2) ? "br0" : "a-name-much-longer-than-IFNAMSIZ");
		return;
	case K_MAC:
		for (i = 0; i < sizeof(mac); i++)
			mac[i] = (uint8_t)rnd();
		if (below(4))
			mac[0] = 0x02;	/* unicast, locally administered */
		mnl_attr_put(nlh, f->type, below(8) ? 6 : (size_t)below(12), mac);
		return;
	case K_NEST:
		nest = mnl_attr_nest_start(nlh, f->type);
		if (f->nest && depth < 3)
			put_attrs(nlh, f->nest, depth + 1, edge_f, edge_v, edge_w);
		mnl_attr_nest_end(nlh, nest);
		return;
	default:
		break;
	}
	if (!below(8))
		w = widths[below(4)];
	put_num(nlh, f->type, below(4) ? plausible(f) : edge(w * 8, f->lo, f->hi), w);
}

/* Some of S's fields (all of them that lead to EDGE_F), and now and then a stranger. */
static void put_attrs(struct nlmsghdr *nlh, const struct schema *s, unsigned int depth,
		      const struct field *edge_f, uint64_t edge_v, unsigned int edge_w)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		const struct field *f = &s->f[i];
		bool leads = f == edge_f ||
			(f->nest && edge_f >= f->nest->f && edge_f < f->nest->f + f->nest->n);

		if (leads || below(2))
			put_field(nlh, f, depth, edge_f, edge_v, edge_w);
	}
	if (!below(8))	/* unknown, or a type the schema gives another kind */
		put_num(nlh, (uint16_t)below(s->max + 4), rnd(), widths[below(4)]);
}

/* Overwrite a few bytes of NLH's payload past HDR bytes (its lengths stay). */
static void scribble(struct nlmsghdr *nlh, unsigned int hdr)
{
	uint8_t *p = (uint8_t *)mnl_nlmsg_get_payload(nlh) + hdr;
	unsigned int len = mnl_nlmsg_get_payload_len(nlh) - hdr, n;

	if (!len)
		return;
	for (n = (unsigned int)below(4) + 1; n; n--)
		p[below(len)] = (uint8_t)edge(8, 0, 0x7f);
}

static void open_socks(void);

static void count(int err)
{
	fz.requests++;
	if (err == -ETIMEDOUT || err == -EAGAIN) {
		/* No answer at all; a late one must not pass for the next's. */
		enl_close(&fz.genl);
		enl_close(&fz.rt);
		open_socks();
		return;
	}
	fz.answered++;
	if (!err)
		fz.ok++;
	else
		fz.err[-err < 255 ? -err : 255]++;
}

static void genl_request(const struct field *edge_f, uint64_t edge_v, unsigned int edge_w,
			 uint8_t cmd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = enl_genl_msg(&fz.genl, buf, cmd, below(16) ? ETHEREAL_GENL_VERSION : (uint8_t)rnd(),
			  below(4) ? 0 : NLM_F_DUMP);
	put_attrs(nlh, &top_s, 0, edge_f, edge_v, edge_w);
	if (!edge_f && !below(8))
		scribble(nlh, GENL_HDRLEN);
	count(enl_talk(&fz.genl, nlh, NULL, NULL));
}

static void tc_request(const struct field *edge_f, uint64_t edge_v, unsigned int edge_w)
{
	static const uint16_t types[] = { RTM_NEWQDISC, RTM_NEWQDISC, RTM_NEWQDISC,
					  RTM_DELQDISC, RTM_NEWTCLASS, RTM_GETTCLASS };
	static const uint16_t flags[] = { NLM_F_CREATE | NLM_F_EXCL, NLM_F_CREATE | NLM_F_REPLACE,
					  0, NLM_F_REPLACE };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint16_t type = edge_f ? RTM_NEWQDISC : types[below(6)];
	struct nlmsghdr *nlh;
	struct nlattr *opts;
	struct tcmsg *tcm;

	nlh = enl_msg(&fz.rt, buf, type, type == RTM_GETTCLASS ? NLM_F_DUMP :
		     edge_f ? NLM_F_CREATE | NLM_F_REPLACE : flags[below(4)]);
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = (int)(below(8) ? fz.ports[below(fz.n_ports)] : pick_dev(true));
	tcm->tcm_parent = below(8) ? TC_H_ROOT : (uint32_t)edge(32, 0, TC_H_ROOT);
	tcm->tcm_handle = below(2) ? 0 : (uint32_t)below(4) << 16;
	if (type == RTM_NEWTCLASS) {
		tcm->tcm_parent = 1 << 16;
		tcm->tcm_handle = (1 << 16) | (uint32_t)plausible(&conn_f[1]);
	}
	mnl_attr_put_strz(nlh, TCA_KIND, below(16) ? "ethereal" : "pfifo");
	if (type != RTM_DELQDISC) {
		opts = mnl_attr_nest_start(nlh, TCA_OPTIONS);
		put_attrs(nlh, &qdisc_s, 0, edge_f, edge_v, edge_w);
		mnl_attr_nest_end(nlh, opts);
	}
	if (!edge_f && !below(8))
		scribble(nlh, sizeof(*tcm));
	count(enl_talk(&fz.rt, nlh, NULL, NULL));
}

/* What a fuzzed SWITCH_DETACH undid. */
static void attach(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = enl_genl_msg(&fz.genl, buf, ETHEREAL_CMD_SWITCH_ATTACH, ETHEREAL_GENL_VERSION, 0);
	mnl_attr_put_u32(nlh, ETHEREAL_A_IFINDEX, fz.bridge);
	enl_talk(&fz.genl, nlh, NULL, NULL);
}

/* Each numeric field of S at each edge, in its width and in a wrong one. */
static void sweep(const struct schema *s, bool tc)
{
	unsigned int i, e, k, w;
	uint8_t cmd;

	for (i = 0; i < s->n; i++) {
		const struct field *f = &s->f[i];

		if (f->kind == K_NEST && f->nest) {
			sweep(f->nest, tc);
			continue;
		}
		if (f->kind > K_BE32)
			continue;
		for (e = 0; e < FUZZ_N_EDGES; e++) {
			for (k = 0; k < 2; k++) {
				w = kind_width(f->kind);
				if (k)
					w = w == 8 ? 4 : 8;
				if (tc) {
					tc_request(f, fuzz_edge_value(e, f->lo, f->hi), w);
					continue;
				}
				for (cmd = 1; cmd <= ETHEREAL_CMD_MAX; cmd++) {
					genl_request(f, fuzz_edge_value(e, f->lo, f->hi), w, cmd);
					if (cmd == ETHEREAL_CMD_SWITCH_DETACH)
						attach();
				}
			}
		}
	}
}

static void open_socks(void)
{
	int err = enl_genl_open(&fz.genl, ETHEREAL_GENL_NAME);

	if (!err)
		err = enl_open(&fz.rt, NETLINK_ROUTE);
	if (err) {
		fprintf(stderr, "nlfuzz: netlink: %s\n", strerror(-err));
		exit(1);
	}
	/* A request the kernel never answers counts as such, not as a hang. */
	setsockopt(mnl_socket_get_fd(fz.genl.mnl), SOL_SOCKET, SO_RCVTIMEO,
		   &(struct timeval){ .tv_sec = 10 }, sizeof(struct timeval));
	setsockopt(mnl_socket_get_fd(fz.rt.mnl), SOL_SOCKET, SO_RCVTIMEO,
		   &(struct timeval){ .tv_sec = 10 }, sizeof(struct timeval));
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	int a;

	if (argc < 5) {
		fprintf(stderr, "usage: nlfuzz COUNT SEED BRIDGE PORT...\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	rnd_seed(strtoull(argv[2], NULL, 0));
	fz.bridge = if_nametoindex(argv[3]);
	for (a = 4; a < argc && fz.n_ports < 16; a++)
		fz.ports[fz.n_ports++] = if_nametoindex(argv[a]);
	if (!fz.bridge) {
		fprintf(stderr, "nlfuzz: no device %s\n", argv[3]);
		return 1;
	}
	open_socks();
	attach();
	sweep(&top_s, false);
	sweep(&qdisc_s, true);
	printf("sweep=%lu ", fz.requests);
	for (i = fz.requests; i < n; i++) {
		if (i % 64 == 0)
			attach();
		if (below(4))
			genl_request(NULL, 0, 0, (uint8_t)below(ETHEREAL_CMD_MAX + 3));
		else
			tc_request(NULL, 0, 0);
	}
	printf("requests=%lu answered=%lu ok=%lu rejected:", fz.requests, fz.answered, fz.ok);
	for (i = 1; i < 256; i++)
		if (fz.err[i])
			printf(" %s=%lu", i < 255 ? strerrorname_np((int)i) : "other", fz.err[i]);
	printf("\n");
	return fz.answered == fz.requests ? 0 : 1;
}
