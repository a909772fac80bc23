/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink requests over libmnl, with the kernel's extended ACK message kept
 * for the user, and generic netlink family resolution. Named enl_: rtcd
 * also links libnl, whose nl_close(), nl_sock... an executable's own
 * symbols of the same name would replace inside libnl itself.
 */
#ifndef ETHEREAL_NL_H
#define ETHEREAL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

struct enl_sock {
	struct mnl_socket *mnl;
	unsigned int portid;
	unsigned int seq;
	uint16_t genl_family;		/* 0 unless enl_genl_open() */
	char errmsg[256];		/* extack message of the last error, or "" */
	bool kernel_error;		/* the last error was the kernel's answer */
};

int enl_open(struct enl_sock *s, int bus);
/* Open NETLINK_GENERIC and resolve FAMILY; -ENOENT if it is not there. */
int enl_genl_open(struct enl_sock *s, const char *family);
/*
 * Join FAMILY's multicast GROUP on S (opened by enl_genl_open()): its
 * notifications arrive from then on. -ENOENT if the family has no such
 * group (a module older than the caller).
 */
int enl_genl_join(struct enl_sock *s, const char *family, const char *group);
void enl_close(struct enl_sock *s);

/* Start a message in BUF (MNL_SOCKET_BUFFER_SIZE bytes). */
struct nlmsghdr *enl_msg(struct enl_sock *s, void *buf, uint16_t type, uint16_t flags);
/* The same with a generic netlink header for CMD of the resolved family. */
struct nlmsghdr *enl_genl_msg(struct enl_sock *s, void *buf, uint8_t cmd,
			     uint8_t version, uint16_t flags);

/*
 * Send NLH and process replies until the ACK or the end of the dump,
 * calling CB (may be NULL) for each data message. 0 or -errno; on error
 * s->errmsg holds the kernel's message, if it gave one, and
 * s->kernel_error tells the kernel's refusal (an NLMSG_ERROR, or a dump
 * ended by an error) from the socket's own failure.
 */
int enl_talk(struct enl_sock *s, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/*
 * What a table accepts of an attribute, in the manner of the kernel's
 * nla_policy: TYPE as mnl_attr_validate() checks it (MNL_TYPE_UNSPEC:
 * anything; strings are MNL_TYPE_NUL_STRING, so that their NUL is within),
 * LEN the exact payload of an MNL_TYPE_BINARY (0: any), NESTED the set an
 * MNL_TYPE_NESTED holds, checked with its parent. REQUIRED: every message
 * that has the set has it. NAME says it in messages (NULL: its number).
 */
struct enl_attrs;

struct enl_policy {
	enum mnl_attr_data_type type;
	unsigned int len;
	bool required;
	const char *name;
	const struct enl_attrs *nested;
};

/* An attribute set: its name in messages ("connection"), and a policy by type. */
struct enl_attrs {
	const char *name;
	int max;
	const struct enl_policy *policy;	/* [0..max]; NULL: none, the
						 * caller validates what it reads
						 */
};

/* Why a table failed: the set and the attribute, and what it was. */
struct enl_fault {
	const struct enl_attrs *set;
	int type;
	bool missing;			/* else malformed: */
	bool trailing;			/* not an attribute: LEN bytes the
					 * set's attributes do not fill
					 */
	unsigned int len;		/* its payload, bytes */
};

/*
 * Attributes by type into TB[0..SET->max], NULL where absent: NLH's after
 * its OFFSET bytes of family header, or NEST's (NULL: none). Each is
 * checked against SET's policy, and nests against theirs, all of them
 * before the caller reads any: 0, or -1 with errno EPROTO and FAULT (may
 * be NULL) saying why, when one is malformed or a required one missing, or
 * when the attributes do not fill the message or nest up to its end (but
 * for the last one's alignment padding): one cut short, as a truncated
 * reply has. Types above SET->max are a newer sender's: skipped, as it
 * expects of an older reader. On failure TB holds what was read before.
 */
int enl_attr_table(const struct nlmsghdr *nlh, unsigned int offset,
		   const struct enl_attrs *set, const struct nlattr **tb,
		   struct enl_fault *fault);
int enl_nest_table(const struct nlattr *nest, const struct enl_attrs *set,
		   const struct nlattr **tb, struct enl_fault *fault);
/*
 * FAULT as words: "a malformed connection attribute 9 (rate): expected
 * u64, got 4 bytes", "no port attribute 3 (ifname)", "92 trailing bytes
 * in its top-level attributes".
 */
void enl_fault_str(const struct enl_fault *fault, char *buf, size_t len);

#endif
