/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * EtheReal real-time switch: constants shared by ethereal.ko and userspace.
 */
#ifndef _UAPI_LINUX_ETHEREAL_H
#define _UAPI_LINUX_ETHEREAL_H

#include <linux/types.h>

#define ETHEREAL_GENL_NAME	"ethereal"
#define ETHEREAL_GENL_VERSION	1

/*
 * Real-time frames carry FF:FF:FF:FF:X:Y as destination MAC, X:Y being a
 * 16-bit connection ID on the link. The first bytes are the same for all.
 */
#define ETHEREAL_MAC_PREFIX_LEN	4

/* IDs 0x0000-0x000a: control range, for signaling and inter-switch use. */
#define ETHEREAL_ID_CTRL_FIRST	0x0000
#define ETHEREAL_ID_CTRL_LAST	0x000a
/* Connection IDs. 0xffff would be FF:FF:FF:FF:FF:FF, the broadcast address. */
#define ETHEREAL_ID_MIN		0x000b
#define ETHEREAL_ID_MAX		0xfffe

#endif /* _UAPI_LINUX_ETHEREAL_H */
