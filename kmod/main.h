/* SPDX-License-Identifier: GPL-2.0 */
/* main.c: the module's per-network-namespace state and live objects */
#ifndef _ETHEREAL_MAIN_H
#define _ETHEREAL_MAIN_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/types.h>

struct net;

struct ethereal_net {
	struct list_head switches;
	/* Bumped on every change of a switch, port or connection (RTNL): a
	 * dump spanning several messages is flagged if it changed meanwhile.
	 */
	u32 gen;
};

struct ethereal_net *ethereal_pernet(struct net *net);

/* Live objects, checked at unload: Debian's kernel has no kmemleak. */
enum ethereal_obj { ETHEREAL_OBJ_SWITCH, ETHEREAL_OBJ_PORT, ETHEREAL_OBJ_CONN,
		    ETHEREAL_N_OBJ };
extern atomic_t ethereal_live[ETHEREAL_N_OBJ];

#endif /* _ETHEREAL_MAIN_H */
