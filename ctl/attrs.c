// SPDX-License-Identifier: GPL-2.0
/*
 * Policies of the module's attribute sets. Padding (the _PAD attributes of
 * nla_put_u64_64bit()) is MNL_TYPE_UNSPEC, as every type left out. Names
 * are the attributes' own, but for the counters: those etherealctl prints.
 */
#include <linux/ethereal.h>
#include <linux/if_ether.h>

#include "attrs.h"

static const struct enl_policy top_policy[ETHEREAL_A_MAX + 1] = {
	[ETHEREAL_A_IFINDEX] = { MNL_TYPE_U32, .name = "ifindex" },
	[ETHEREAL_A_IFNAME] = { MNL_TYPE_NUL_STRING, .name = "ifname" },
	[ETHEREAL_A_PORT] = { MNL_TYPE_NESTED, .name = "port", .nested = &ethereal_port_attrs },
	[ETHEREAL_A_CONN] = { MNL_TYPE_NESTED, .name = "conn", .nested = &ethereal_conn_attrs },
	[ETHEREAL_A_N_PORTS] = { MNL_TYPE_U32, .name = "n_ports" },
	[ETHEREAL_A_N_CONNS] = { MNL_TYPE_U32, .name = "n_conns" },
	[ETHEREAL_A_STATS] = { MNL_TYPE_NESTED, .name = "stats", .nested = &ethereal_stats_attrs },
	[ETHEREAL_A_LIFETIME] = { MNL_TYPE_U32, .name = "lifetime" },
	[ETHEREAL_A_SIG] = { MNL_TYPE_NESTED, .name = "sig", .nested = &ethereal_sig_stats_attrs },
	[ETHEREAL_A_NEIGH] = { MNL_TYPE_NESTED, .name = "neigh", .nested = &ethereal_neigh_attrs },
	[ETHEREAL_A_EVENT] = { MNL_TYPE_U8, .name = "event" },
	[ETHEREAL_A_REASON] = { MNL_TYPE_U16, .name = "reason" },
	[ETHEREAL_A_HOP] = { MNL_TYPE_U8, .name = "hop" },
};

/* Of every reply and event; what each kind has of it, its reader says. */
const struct enl_attrs ethereal_attrs = { "top-level", ETHEREAL_A_MAX, top_policy };

static const struct enl_policy port_policy[ETHEREAL_PORT_A_MAX + 1] = {
	[ETHEREAL_PORT_A_IFINDEX] = { MNL_TYPE_U32, .name = "ifindex" },
	[ETHEREAL_PORT_A_IFNAME] = { MNL_TYPE_NUL_STRING, .required = true, .name = "ifname" },
	[ETHEREAL_PORT_A_ROLE] = { MNL_TYPE_U8, .name = "role" },
	[ETHEREAL_PORT_A_STP_STATE] = { MNL_TYPE_U8, .name = "stp_state" },
	[ETHEREAL_PORT_A_RATE] = { MNL_TYPE_U64, .name = "rate" },
	[ETHEREAL_PORT_A_RESERVED] = { MNL_TYPE_U64, .name = "reserved" },
	[ETHEREAL_PORT_A_CONNS_IN] = { MNL_TYPE_U32, .name = "conns_in" },
	[ETHEREAL_PORT_A_CONNS_OUT] = { MNL_TYPE_U32, .name = "conns_out" },
	[ETHEREAL_PORT_A_STATS] = { MNL_TYPE_NESTED, .name = "stats",
				    .nested = &ethereal_stats_attrs },
	[ETHEREAL_PORT_A_HOST_CONNS] = { MNL_TYPE_U32, .name = "host_conns" },
	[ETHEREAL_PORT_A_HOST_RATE] = { MNL_TYPE_U64, .name = "host_rate" },
	[ETHEREAL_PORT_A_SWITCH] = { MNL_TYPE_BINARY, ETH_ALEN, .name = "switch" },
	[ETHEREAL_PORT_A_SWITCH_LLADDR] = { MNL_TYPE_BINARY, ETH_ALEN, .name = "switch_lladdr" },
	[ETHEREAL_PORT_A_SWITCH_AGE] = { MNL_TYPE_U32, .name = "switch_age" },
	/* Requests only, 16 to 64 bytes or none: never in a reply. */
	[ETHEREAL_PORT_A_KEY] = { MNL_TYPE_BINARY, .name = "key" },
	[ETHEREAL_PORT_A_KEYED] = { MNL_TYPE_U8, .name = "keyed" },
	[ETHEREAL_PORT_A_KEY_VERIFIED] = { MNL_TYPE_U8, .name = "key_verified" },
};

const struct enl_attrs ethereal_port_attrs = { "port", ETHEREAL_PORT_A_MAX, port_policy };

/* Required: what replies and events (a setup refused early too) all have. */
static const struct enl_policy conn_policy[ETHEREAL_CONN_A_MAX + 1] = {
	[ETHEREAL_CONN_A_IN_IFINDEX] = { MNL_TYPE_U32, .name = "in_ifindex" },
	[ETHEREAL_CONN_A_IN_ID] = { MNL_TYPE_U16, .required = true, .name = "in_id" },
	[ETHEREAL_CONN_A_OUT_IFINDEX] = { MNL_TYPE_U32, .name = "out_ifindex" },
	[ETHEREAL_CONN_A_OUT_ID] = { MNL_TYPE_U16, .name = "out_id" },
	[ETHEREAL_CONN_A_OUT_MAC] = { MNL_TYPE_BINARY, ETH_ALEN, .name = "out_mac" },
	/* be32 */
	[ETHEREAL_CONN_A_DADDR] = { MNL_TYPE_U32, .name = "daddr" },
	[ETHEREAL_CONN_A_SWAP] = { MNL_TYPE_FLAG, .name = "swap" },
	[ETHEREAL_CONN_A_RATE] = { MNL_TYPE_U64, .required = true, .name = "rate" },
	[ETHEREAL_CONN_A_BURST] = { MNL_TYPE_U32, .name = "burst" },
	[ETHEREAL_CONN_A_MAX_PKT] = { MNL_TYPE_U32, .name = "max_pkt" },
	[ETHEREAL_CONN_A_QID] = { MNL_TYPE_U16, .name = "qid" },
	[ETHEREAL_CONN_A_ORIGIN] = { MNL_TYPE_U8, .name = "origin" },
	[ETHEREAL_CONN_A_IN_IFNAME] = { MNL_TYPE_NUL_STRING, .required = true,
					.name = "in_ifname" },
	[ETHEREAL_CONN_A_OUT_IFNAME] = { MNL_TYPE_NUL_STRING, .name = "out_ifname" },
	[ETHEREAL_CONN_A_STATS] = { MNL_TYPE_NESTED, .name = "stats",
				    .nested = &ethereal_stats_attrs },
	[ETHEREAL_CONN_A_STATE] = { MNL_TYPE_U8, .name = "state" },
	[ETHEREAL_CONN_A_EXPIRES] = { MNL_TYPE_U32, .name = "expires" },
	[ETHEREAL_CONN_A_DPORT] = { MNL_TYPE_U16, .name = "dport" },
	[ETHEREAL_CONN_A_DELAY] = { MNL_TYPE_U64, .name = "delay" },
	[ETHEREAL_CONN_A_PATH_DELAY] = { MNL_TYPE_U64, .name = "path_delay" },
	[ETHEREAL_CONN_A_HOP] = { MNL_TYPE_NESTED, .name = "hop", .nested = &ethereal_hop_attrs },
	[ETHEREAL_CONN_A_BUFFER] = { MNL_TYPE_U32, .name = "buffer" },
};

const struct enl_attrs ethereal_conn_attrs = { "connection", ETHEREAL_CONN_A_MAX, conn_policy };

static const struct enl_policy hop_policy[ETHEREAL_HOP_A_MAX + 1] = {
	[ETHEREAL_HOP_A_PROMISE] = { MNL_TYPE_U64, .name = "promise" },
	[ETHEREAL_HOP_A_FRAMES] = { MNL_TYPE_U64, .name = "frames" },
	[ETHEREAL_HOP_A_DELAY_MAX] = { MNL_TYPE_U64, .name = "delay_max" },
	[ETHEREAL_HOP_A_ON_TIME_MAX] = { MNL_TYPE_U64, .name = "on_time_max" },
	[ETHEREAL_HOP_A_OVER] = { MNL_TYPE_U64, .name = "over" },
	[ETHEREAL_HOP_A_OVER_ON_TIME] = { MNL_TYPE_U64, .name = "over_on_time" },
};

const struct enl_attrs ethereal_hop_attrs = { "measured delay", ETHEREAL_HOP_A_MAX, hop_policy };

static const struct enl_policy neigh_policy[ETHEREAL_NEIGH_A_MAX + 1] = {
	[ETHEREAL_NEIGH_A_IFINDEX] = { MNL_TYPE_U32, .required = true, .name = "ifindex" },
	[ETHEREAL_NEIGH_A_IFNAME] = { MNL_TYPE_NUL_STRING, .required = true, .name = "ifname" },
	/* be32 */
	[ETHEREAL_NEIGH_A_ADDR] = { MNL_TYPE_U32, .required = true, .name = "addr" },
	[ETHEREAL_NEIGH_A_LLADDR] = { MNL_TYPE_BINARY, ETH_ALEN, .required = true,
				      .name = "lladdr" },
	[ETHEREAL_NEIGH_A_STATIC] = { MNL_TYPE_FLAG, .name = "static" },
	[ETHEREAL_NEIGH_A_BOUND] = { MNL_TYPE_FLAG, .name = "bound" },
	[ETHEREAL_NEIGH_A_AGE] = { MNL_TYPE_U32, .name = "age" },
};

const struct enl_attrs ethereal_neigh_attrs = { "neighbour", ETHEREAL_NEIGH_A_MAX, neigh_policy };

/* The names are the counters' in etherealctl's output. */
static const struct enl_policy stats_policy[ETHEREAL_STATS_A_MAX + 1] = {
	[ETHEREAL_STATS_A_RX_PACKETS] = { MNL_TYPE_U64, .name = "rx_packets" },
	[ETHEREAL_STATS_A_RX_BYTES] = { MNL_TYPE_U64, .name = "rx_bytes" },
	[ETHEREAL_STATS_A_TX_PACKETS] = { MNL_TYPE_U64, .name = "tx_packets" },
	[ETHEREAL_STATS_A_TX_BYTES] = { MNL_TYPE_U64, .name = "tx_bytes" },
	[ETHEREAL_STATS_A_DROP_UNKNOWN_ID] = { MNL_TYPE_U64, .name = "drop_unknown_id" },
	[ETHEREAL_STATS_A_DROP_PORT_STATE] = { MNL_TYPE_U64, .name = "drop_port_state" },
	[ETHEREAL_STATS_A_DROP_OVERSIZE] = { MNL_TYPE_U64, .name = "drop_oversize" },
	[ETHEREAL_STATS_A_DROP_MALFORMED] = { MNL_TYPE_U64, .name = "drop_malformed" },
	[ETHEREAL_STATS_A_DROP_CONTROL] = { MNL_TYPE_U64, .name = "drop_control" },
	[ETHEREAL_STATS_A_DROP_TO_SWITCH] = { MNL_TYPE_U64, .name = "drop_to_switch" },
	[ETHEREAL_STATS_A_DROP_QUEUE] = { MNL_TYPE_U64, .name = "drop_queue" },
	[ETHEREAL_STATS_A_DROP_EARLY] = { MNL_TYPE_U64, .name = "drop_early" },
	[ETHEREAL_STATS_A_DROP_FILTERED] = { MNL_TYPE_U64, .name = "drop_filtered" },
};

const struct enl_attrs ethereal_stats_attrs = { "statistics", ETHEREAL_STATS_A_MAX, stats_policy };

/* Counters and times are u64, what signaling holds now u32; names as above. */
static const struct enl_policy sig_policy[ETHEREAL_SIG_STATS_A_MAX + 1] = {
	[ETHEREAL_SIG_STATS_A_RX] = { MNL_TYPE_U64, .name = "rx" },
	[ETHEREAL_SIG_STATS_A_TX] = { MNL_TYPE_U64, .name = "tx" },
	[ETHEREAL_SIG_STATS_A_ACCEPTED] = { MNL_TYPE_U64, .name = "accepted" },
	[ETHEREAL_SIG_STATS_A_REJECTED] = { MNL_TYPE_U64, .name = "rejected" },
	[ETHEREAL_SIG_STATS_A_TEARDOWNS] = { MNL_TYPE_U64, .name = "teardowns" },
	[ETHEREAL_SIG_STATS_A_EXPIRED] = { MNL_TYPE_U64, .name = "expired" },
	[ETHEREAL_SIG_STATS_A_LINK_DOWN] = { MNL_TYPE_U64, .name = "link_down" },
	[ETHEREAL_SIG_STATS_A_ARP_HITS] = { MNL_TYPE_U64, .name = "arp_hits" },
	[ETHEREAL_SIG_STATS_A_ARP_MISSES] = { MNL_TYPE_U64, .name = "arp_misses" },
	[ETHEREAL_SIG_STATS_A_DROP_MALFORMED] = { MNL_TYPE_U64, .name = "drop_malformed" },
	[ETHEREAL_SIG_STATS_A_DROP_RATELIMIT] = { MNL_TYPE_U64, .name = "drop_ratelimit" },
	[ETHEREAL_SIG_STATS_A_DROP_BACKLOG] = { MNL_TYPE_U64, .name = "drop_backlog" },
	[ETHEREAL_SIG_STATS_A_DROP_SPOOFED] = { MNL_TYPE_U64, .name = "drop_spoofed" },
	[ETHEREAL_SIG_STATS_A_DROP_UNEXPECTED] = { MNL_TYPE_U64, .name = "drop_unexpected" },
	[ETHEREAL_SIG_STATS_A_PENDING] = { MNL_TYPE_U32, .name = "pending" },
	[ETHEREAL_SIG_STATS_A_NEIGH] = { MNL_TYPE_U32, .name = "neighbours" },
	[ETHEREAL_SIG_STATS_A_SETUP_HIT_N] = { MNL_TYPE_U64, .name = "setup_hit_n" },
	[ETHEREAL_SIG_STATS_A_SETUP_HIT_AVG] = { MNL_TYPE_U64, .name = "setup_hit_avg_ns" },
	[ETHEREAL_SIG_STATS_A_SETUP_HIT_MAX] = { MNL_TYPE_U64, .name = "setup_hit_max_ns" },
	[ETHEREAL_SIG_STATS_A_SETUP_MISS_N] = { MNL_TYPE_U64, .name = "setup_miss_n" },
	[ETHEREAL_SIG_STATS_A_SETUP_MISS_AVG] = { MNL_TYPE_U64, .name = "setup_miss_avg_ns" },
	[ETHEREAL_SIG_STATS_A_SETUP_MISS_MAX] = { MNL_TYPE_U64, .name = "setup_miss_max_ns" },
	[ETHEREAL_SIG_STATS_A_NEIGH_REFUSED] = { MNL_TYPE_U64, .name = "neigh_refused" },
	[ETHEREAL_SIG_STATS_A_NEIGH_CLAIMS] = { MNL_TYPE_U64, .name = "neigh_claims" },
	[ETHEREAL_SIG_STATS_A_EVENT_DROPS] = { MNL_TYPE_U64, .name = "event_drops" },
	[ETHEREAL_SIG_STATS_A_DROP_STRANGER] = { MNL_TYPE_U64, .name = "drop_stranger" },
	[ETHEREAL_SIG_STATS_A_SWITCHES] = { MNL_TYPE_U64, .name = "switches" },
	[ETHEREAL_SIG_STATS_A_DROP_AUTH] = { MNL_TYPE_U64, .name = "drop_auth" },
	[ETHEREAL_SIG_STATS_A_RTNL_RUNS] = { MNL_TYPE_U64, .name = "rtnl_runs" },
};

const struct enl_attrs ethereal_sig_stats_attrs = {
	"signaling statistics", ETHEREAL_SIG_STATS_A_MAX, sig_policy
};
