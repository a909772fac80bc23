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
 * Attributes by type into TB[0..MAX], NULL where absent: NLH's after its
 * OFFSET bytes of family header, or NEST's (NULL: none). Types above MAX
 * are skipped; validating the values (mnl_attr_validate()) is the caller's.
 */
void enl_attr_table(const struct nlmsghdr *nlh, unsigned int offset,
		   const struct nlattr **tb, int max);
void enl_nest_table(const struct nlattr *nest, const struct nlattr **tb, int max);

#endif
