/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's attribute sets, each with the policy etherealctl checks its
 * replies and events by (lib/nl.h): the types <linux/ethereal.h> gives and
 * the module puts. An attribute is required when every message with its
 * set has it and etherealctl cannot do without it.
 */
#ifndef ETHEREAL_CTL_ATTRS_H
#define ETHEREAL_CTL_ATTRS_H

#include "nl.h"

extern const struct enl_attrs ethereal_attrs;		/* ETHEREAL_A_* */
extern const struct enl_attrs ethereal_port_attrs;	/* ETHEREAL_PORT_A_* */
extern const struct enl_attrs ethereal_conn_attrs;	/* ETHEREAL_CONN_A_* */
extern const struct enl_attrs ethereal_hop_attrs;	/* ETHEREAL_HOP_A_* */
extern const struct enl_attrs ethereal_neigh_attrs;	/* ETHEREAL_NEIGH_A_* */
extern const struct enl_attrs ethereal_stats_attrs;	/* ETHEREAL_STATS_A_* */
extern const struct enl_attrs ethereal_sig_stats_attrs;	/* ETHEREAL_SIG_STATS_A_* */

#endif
