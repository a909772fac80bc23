/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Signaling messages (include/uapi/linux/ethereal_sig.h) parsed into and
 * built from one flat structure. Pure logic, compiled into ethereal.ko and,
 * unchanged, into the userspace tools' library (lib/) and the native unit
 * tests, so that both ends share one implementation of the wire format.
 * Dual licensed, as sigmsg.c: the module takes it under GPL-2.0, librttr
 * (LGPL-2.1-or-later OR BSD-2-Clause), which includes this header through
 * lib/, under BSD-2-Clause (README.md, Licences).
 */
#ifndef _ETHEREAL_SIGMSG_H
#define _ETHEREAL_SIGMSG_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include "compat.h"
#else
/* Userspace: lib/kcompat.h gives the few kernel helpers used here. */
#include "kcompat.h"
#endif

#include <linux/ethereal_sig.h>

#define ETHEREAL_SIG_BIT(a)	(1U << (a))
/* What each type must carry. */
#define ETHEREAL_SIG_SETUP_NEEDS	(ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DADDR) | \
					 ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_DPORT) | \
					 ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_RATE) |  \
					 ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_BURST) | \
					 ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_MAX_PKT))
#define ETHEREAL_SIG_REJECT_NEEDS	ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON)
#define ETHEREAL_SIG_HELLO_NEEDS	ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_SWITCH)
/* A_AUTH's value: the sequence number, then the HMAC. */
#define ETHEREAL_SIG_AUTH_SIZE		(8 + ETHEREAL_SIG_AUTH_LEN)

struct ethereal_sig_msg {
	u8 type;
	u16 flags;
	u16 conn_id;
	u32 cookie;
	u32 present;		/* ETHEREAL_SIG_BIT() of the attributes set */
	u32 daddr;		/* network byte order, as an IPv4 address is kept */
	u16 dport;
	u64 rate;
	u32 burst;
	u32 max_pkt;
	u16 reason;
	u8 hop;
	u32 lifetime;
	u8 hops;
	u32 features;		/* ETHEREAL_SIG_FEAT_* */
	u8 switch_id[6];	/* the sender's bridge MAC (HELLO) */
	u64 auth_seq;		/* A_AUTH: its sequence number, */
	u8 auth_mac[ETHEREAL_SIG_AUTH_LEN];	/* its HMAC, */
	u16 auth_off;		/* and where its value starts (parse) */
	u64 challenge;		/* A_CHALLENGE */
	u64 response;		/* A_RESPONSE */
	u64 delay;		/* A_DELAY, ns */
	u64 max_delay;		/* A_MAX_DELAY, ns */
};

/* Why a message was refused, for the counters. */
enum ethereal_sig_err {
	ETHEREAL_SIG_OK,
	ETHEREAL_SIG_E_SHORT,		/* shorter than its header or length */
	ETHEREAL_SIG_E_LONG,		/* longer than ETHEREAL_SIG_MAX_LEN */
	ETHEREAL_SIG_E_VERSION,
	ETHEREAL_SIG_E_TYPE,
	ETHEREAL_SIG_E_ATTR,		/* attribute overruns, bad size, repeated */
	ETHEREAL_SIG_E_MISSING,		/* a required attribute is absent */
};

enum ethereal_sig_err ethereal_sig_parse(const void *buf, size_t len,
					 struct ethereal_sig_msg *m);
/* The message's length, or 0 if SIZE is too small. */
size_t ethereal_sig_build(void *buf, size_t size, const struct ethereal_sig_msg *m);
/* Their names, for people: lib/signames.h (userspace). */

#endif /* _ETHEREAL_SIGMSG_H */
