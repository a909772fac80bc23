// SPDX-License-Identifier: GPL-2.0
/*
 * EtheReal: a real-time Ethernet switch on the Linux bridge.
 *
 * Module entry points.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

static int __init ethereal_init(void)
{
	pr_info("loaded\n");
	return 0;
}

static void __exit ethereal_exit(void)
{
	pr_info("unloaded\n");
}

module_init(ethereal_init);
module_exit(ethereal_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("EtheReal real-time Ethernet switch on the Linux bridge");
