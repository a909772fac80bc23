/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels EtheReal supports: Debian's 6.1, 6.12
 * and 6.12 PREEMPT_RT (selftests/lib/kver), and what their configuration
 * must have. The only place in the module that looks at the kernel's
 * version.
 */
#ifndef _ETHEREAL_COMPAT_H
#define _ETHEREAL_COMPAT_H

#include <linux/version.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "EtheReal needs Linux 6.1 or later"
#endif

/*
 * The bridge tells a port's STP state changes through switchdev alone:
 * without it the notifier is a stub, and real time would keep going out
 * of a blocked or disabled port (Debian's kernels have it).
 */
#if !IS_ENABLED(CONFIG_NET_SWITCHDEV)
#error "EtheReal needs a kernel with CONFIG_NET_SWITCHDEV, to follow the bridge's STP states"
#endif

/* 6.12 moved the unaligned accessors out of asm/. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 6.5 moved skb_gso_segment() and skb_gso_validate_mac_len() to net/gso.h. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>
#endif

/* 6.4 moved crypto_memneq() to crypto/utils.h. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#include <crypto/utils.h>
#else
#include <crypto/algapi.h>
#endif

/* A dump's parsed request attributes: 6.6 renamed the accessor. */
static inline struct nlattr **ethereal_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

#endif /* _ETHEREAL_COMPAT_H */
