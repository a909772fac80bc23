// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl.h"

/* Dumps come in skbs of up to 32 KiB when the reader offers that much. */
#define NL_RECV_SIZE 32768

struct nl_ctx {
	struct enl_sock *s;
	mnl_cb_t cb;
	void *data;
};

int enl_open(struct enl_sock *s, int bus)
{
	int one = 1;

	memset(s, 0, sizeof(*s));
	s->mnl = mnl_socket_open(bus);
	if (!s->mnl)
		return -errno;
	/* Ask for the kernel's error messages, without the request echoed. */
	mnl_socket_setsockopt(s->mnl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(s->mnl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(s->mnl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		mnl_socket_close(s->mnl);
		s->mnl = NULL;
		return err;
	}
	s->portid = mnl_socket_get_portid(s->mnl);
	s->seq = (unsigned int)time(NULL);
	return 0;
}

void enl_close(struct enl_sock *s)
{
	if (s->mnl)
		mnl_socket_close(s->mnl);
	s->mnl = NULL;
}

struct nlmsghdr *enl_msg(struct enl_sock *s, void *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++s->seq;
	return nlh;
}

struct nlmsghdr *enl_genl_msg(struct enl_sock *s, void *buf, uint8_t cmd,
			     uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = enl_msg(s, buf, s->genl_family, flags);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int nl_ext_ack_attr(const struct nlattr *attr, void *data)
{
	struct enl_sock *s = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(s->errmsg, sizeof(s->errmsg), "%s",
				 mnl_attr_get_str(attr));
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		/* The kernel names a missing attribute by number only. */
		if (!s->errmsg[0] && mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "missing attribute %u", mnl_attr_get_u32(attr));
		break;
	}
	return MNL_CB_OK;
}

/* NLMSG_ERROR, and NLMSG_DONE of a dump that failed, carry TLVs after ... */
static void nl_ext_ack(struct enl_sock *s, const struct nlmsghdr *nlh,
		       unsigned int off)
{
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len <= off)
		return;
	mnl_attr_parse(nlh, off - MNL_NLMSG_HDRLEN, nl_ext_ack_attr, s);
}

static int nl_cb_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct enl_sock *s = ((struct nl_ctx *)data)->s;
	unsigned int off = MNL_NLMSG_HDRLEN + sizeof(*e);

	if (nlh->nlmsg_len < off) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	/* Without NETLINK_CAP_ACK honoured, the request follows: skip it. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&e->msg);
	nl_ext_ack(s, nlh, off);
	if (e->error == 0)
		return MNL_CB_STOP;
	s->kernel_error = true;
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int nl_cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct enl_sock *s = ((struct nl_ctx *)data)->s;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
		err = *(const int *)mnl_nlmsg_get_payload(nlh);
	if (err) {
		nl_ext_ack(s, nlh, MNL_NLMSG_HDRLEN + sizeof(int));
		s->kernel_error = true;
		errno = -err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int nl_cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct nl_ctx *ctx = data;

	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

int enl_talk(struct enl_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = nl_cb_error,
		[NLMSG_DONE] = nl_cb_done,
	};
	char buf[NL_RECV_SIZE];
	struct nl_ctx ctx = { .s = s, .cb = cb, .data = data };
	ssize_t n;
	int ret;

	s->errmsg[0] = '\0';
	s->kernel_error = false;
	/* Ask for an ACK so that a request with no reply still ends. */
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(s->mnl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(s->mnl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		ret = mnl_cb_run2(buf, (size_t)n, nlh->nlmsg_seq, s->portid,
				  nl_cb_data, &ctx, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EIO;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

struct nl_table {
	const struct enl_attrs *set;
	const struct nlattr **tb;
	struct enl_fault *fault;
};

static bool nl_attr_ok(const struct nlattr *attr, const struct enl_policy *p)
{
	if (p->type == MNL_TYPE_BINARY && p->len)
		return mnl_attr_validate2(attr, p->type, p->len) == 0;
	return mnl_attr_validate(attr, p->type) == 0;
}

static int nl_table_cb(const struct nlattr *attr, void *data)
{
	const struct nl_table *t = data;
	int type = mnl_attr_get_type(attr);
	const struct enl_policy *p;

	if (type > t->set->max)
		return MNL_CB_OK;
	p = t->set->policy ? &t->set->policy[type] : NULL;
	if (p && !nl_attr_ok(attr, p)) {
		*t->fault = (struct enl_fault){
			.set = t->set, .type = type, .len = mnl_attr_get_payload_len(attr),
		};
		return MNL_CB_ERROR;
	}
	if (p && p->nested) {
		/*
		 * Checked with its parent, so that nothing of a message is
		 * read before all of it is. Sets are small: a table fits the
		 * stack.
		 */
		const struct nlattr *sub[p->nested->max + 1];

		if (enl_nest_table(attr, p->nested, sub, t->fault))
			return MNL_CB_ERROR;
	}
	t->tb[type] = attr;
	return MNL_CB_OK;
}

/* After the parse (RET): the required attributes, if it went through. */
static int nl_table_end(const struct nl_table *t, int ret)
{
	const struct enl_policy *p = t->set->policy;
	int type;

	if (ret == MNL_CB_ERROR)
		goto malformed;
	for (type = 0; p && type <= t->set->max; type++) {
		if (p[type].required && !t->tb[type]) {
			*t->fault = (struct enl_fault){
				.set = t->set, .type = type, .missing = true,
			};
			goto malformed;
		}
	}
	return 0;
malformed:
	errno = EPROTO;
	return -1;
}

/*
 * The attributes from START to END, each through nl_table_cb(). What
 * mnl_attr_parse() does, but that stops at the first attribute that does
 * not fit, without an error: a message cut short (or a nest whose length
 * cuts its last attribute) would parse, less what was cut. Here the
 * attributes must fill up to END, as the kernel's always do; the last
 * one's padding may lie past it (mnl_attr_next() steps over MNL_ALIGN()ed
 * lengths), bytes before it that are no attribute may not. END is the
 * exact end, not MNL_ALIGN()ed as mnl_attr_for_each()'s: nothing past it
 * is read.
 */
static int nl_table_parse(struct nl_table *t, const void *start, const void *end)
{
	const struct nlattr *attr = start;

	for (; mnl_attr_ok(attr, (int)((const char *)end - (const char *)attr));
	     attr = mnl_attr_next(attr)) {
		if (nl_table_cb(attr, t) == MNL_CB_ERROR)
			return MNL_CB_ERROR;
	}
	if ((const char *)attr < (const char *)end) {
		*t->fault = (struct enl_fault){
			.set = t->set, .trailing = true,
			.len = (unsigned int)((const char *)end - (const char *)attr),
		};
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

int enl_attr_table(const struct nlmsghdr *nlh, unsigned int offset,
		   const struct enl_attrs *set, const struct nlattr **tb,
		   struct enl_fault *fault)
{
	struct enl_fault f;
	struct nl_table t = { set, tb, fault ? fault : &f };
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const char *start = mnl_nlmsg_get_payload_offset(nlh, offset);

	memset(tb, 0, sizeof(*tb) * (size_t)(set->max + 1));
	/* Shorter than its family header: what there is, is no attribute. */
	if (start > end)
		start = mnl_nlmsg_get_payload(nlh);
	return nl_table_end(&t, nl_table_parse(&t, start, end));
}

int enl_nest_table(const struct nlattr *nest, const struct enl_attrs *set,
		   const struct nlattr **tb, struct enl_fault *fault)
{
	struct enl_fault f;
	struct nl_table t = { set, tb, fault ? fault : &f };
	const char *start;

	memset(tb, 0, sizeof(*tb) * (size_t)(set->max + 1));
	if (!nest)
		return nl_table_end(&t, MNL_CB_OK);
	start = mnl_attr_get_payload(nest);
	return nl_table_end(&t, nl_table_parse(&t, start,
					       start + mnl_attr_get_payload_len(nest)));
}

/* What a policy expects, as the rest of "expected ...". */
static const char *nl_expects(const struct enl_policy *p, char *buf, size_t len)
{
	switch (p->type) {
	case MNL_TYPE_U8:
		return "u8";
	case MNL_TYPE_U16:
		return "u16";
	case MNL_TYPE_U32:
		return "u32";
	case MNL_TYPE_U64:
	case MNL_TYPE_MSECS:
		return "u64";
	case MNL_TYPE_FLAG:
		return "a flag, no payload";
	case MNL_TYPE_NESTED:
	case MNL_TYPE_NESTED_COMPAT:
		return "nested attributes";
	case MNL_TYPE_STRING:
		return "a string";
	case MNL_TYPE_NUL_STRING:
		return "a NUL-terminated string";
	default:
		snprintf(buf, len, "%u bytes", p->len);
		return buf;
	}
}

void enl_fault_str(const struct enl_fault *f, char *buf, size_t len)
{
	/* A set without a policy (attr_need()'s on one) names no attribute. */
	const struct enl_policy *p = f->set->policy && f->type >= 0 &&
				     f->type <= f->set->max ? &f->set->policy[f->type] : NULL;
	char name[64] = "", got[32] = "", expects[32];

	if (f->trailing) {
		snprintf(buf, len, "%u trailing bytes in its %s attributes", f->len,
			 f->set->name);
		return;
	}
	if (p && p->name)
		snprintf(name, sizeof(name), " (%s)", p->name);
	if (f->missing) {
		snprintf(buf, len, "no %s attribute %d%s", f->set->name, f->type, name);
		return;
	}
	if (!p) {
		snprintf(buf, len, "a malformed %s attribute %d: got %u bytes", f->set->name,
			 f->type, f->len);
		return;
	}
	/* A string's length is not wrong: its NUL is missing, unless it is empty. */
	if (p->type != MNL_TYPE_NUL_STRING || !f->len)
		snprintf(got, sizeof(got), ", got %u bytes", f->len);
	snprintf(buf, len, "a malformed %s attribute %d%s: expected %s%s", f->set->name,
		 f->type, name, nl_expects(p, expects, sizeof(expects)), got);
}

/* What CTRL_CMD_GETFAMILY tells: the family's ID, and a multicast group's. */
struct nl_family {
	const char *group;		/* the group wanted, or NULL */
	uint16_t id;
	uint32_t group_id;		/* 0: no such group */
};

/* CTRL_ATTR_MCAST_GROUPS: a nest per group, of its name and ID. */
static const struct enl_attrs nl_group_attrs = {
	"multicast group", CTRL_ATTR_MCAST_GRP_MAX,
	(const struct enl_policy[CTRL_ATTR_MCAST_GRP_MAX + 1]){
		[CTRL_ATTR_MCAST_GRP_NAME] = { MNL_TYPE_NUL_STRING, .required = true },
		[CTRL_ATTR_MCAST_GRP_ID] = { MNL_TYPE_U32, .required = true },
	},
};

/* A group the controller describes badly is not the one sought. */
static int nl_group_attr(const struct nlattr *nest, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct nl_family *f = data;

	if (enl_nest_table(nest, &nl_group_attrs, tb, NULL) == 0 &&
	    strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]), f->group) == 0)
		f->group_id = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	return MNL_CB_OK;
}

static int nl_family_attr(const struct nlattr *attr, void *data)
{
	struct nl_family *f = data;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			f->id = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		if (f->group)
			mnl_attr_parse_nested(attr, nl_group_attr, f);
		break;
	}
	return MNL_CB_OK;
}

static int nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), nl_family_attr, data);
	return MNL_CB_OK;
}

/* Ask the controller about FAMILY over S, open on NETLINK_GENERIC. */
static int nl_get_family(struct enl_sock *s, const char *family, struct nl_family *f)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint16_t saved = s->genl_family;
	struct nlmsghdr *nlh;
	int err;

	s->genl_family = GENL_ID_CTRL;
	nlh = enl_genl_msg(s, buf, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	err = enl_talk(s, nlh, nl_family_cb, f);
	s->genl_family = saved;
	if (!err && !f->id)
		err = -ENOENT;
	return err;
}

int enl_genl_open(struct enl_sock *s, const char *family)
{
	struct nl_family f = { 0 };
	int err;

	err = enl_open(s, NETLINK_GENERIC);
	if (err)
		return err;
	err = nl_get_family(s, family, &f);
	if (err) {
		enl_close(s);
		return err;
	}
	s->genl_family = f.id;
	return 0;
}

int enl_genl_join(struct enl_sock *s, const char *family, const char *group)
{
	struct nl_family f = { .group = group };
	int err;

	err = nl_get_family(s, family, &f);
	if (err)
		return err;
	if (!f.group_id)
		return -ENOENT;
	if (mnl_socket_setsockopt(s->mnl, NETLINK_ADD_MEMBERSHIP, &f.group_id,
				  sizeof(f.group_id)) < 0)
		return -errno;
	return 0;
}
