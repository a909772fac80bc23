// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: the routing table entries of Section 3.3 of the paper.
 *
 * Each lives in two tables: its input port's in_conns, indexed by the ID
 * the upstream node put in the frames (what the packet path looks up), and
 * its output port's out_conns, indexed by the output ID this switch chose
 * for the link, which also names the connection's queue on that port.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include <linux/ethereal.h>

#include "admit.h"
#include "bound.h"
#include "compat.h"
#include "conn.h"
#include "discard.h"
#include "main.h"
#include "sch_ethereal_port.h"
#include "signaling.h"
#include "stats.h"
#include "switch.h"

static void ethereal_conn_free_rcu(struct rcu_head *head)
{
	struct ethereal_conn *conn = container_of(head, struct ethereal_conn, rcu);

	free_percpu(conn->stats);
	kfree(conn);
	atomic_dec(&ethereal_live[ETHEREAL_OBJ_CONN]);
}

/*
 * A host's quota on its port, for what it asks by signaling (the
 * operator's static connections count, but are not held to it).
 */
static int ethereal_conn_quota(const struct ethereal_conn_cfg *cfg,
			       struct netlink_ext_ack *extack)
{
	const struct ethereal_port *in = cfg->in;

	if (cfg->origin != ETHEREAL_ORIGIN_SIGNALED || in->role != ETHEREAL_PORT_PERIPHERAL)
		return 0;
	if (in->host_conns && in->n_in >= in->host_conns) {
		NL_SET_ERR_MSG(extack, "The host has its quota of connections on this port");
		return -EDQUOT;
	}
	/* Both sides bounded: RATE_MAX, and 65524 connections of it at most. */
	if (in->host_rate &&
	    (cfg->rate > in->host_rate || in->reserved_in > in->host_rate - cfg->rate)) {
		NL_SET_ERR_MSG(extack, "The host has its quota of bandwidth on this port");
		return -EDQUOT;
	}
	return 0;
}

/*
 * A frame from a host reaches its first switch whole after its link
 * carried it: the bound counts that link, when the switch knows its rate.
 */
static u64 ethereal_conn_link_ns(const struct ethereal_conn_cfg *cfg)
{
	u64 rate;

	if (cfg->in->role != ETHEREAL_PORT_PERIPHERAL)
		return 0;
	rate = ethereal_port_rate(cfg->in);
	return rate ? ethereal_tx_ns(cfg->max_pkt, rate) : 0;
}

static int ethereal_conn_check(const struct ethereal_conn_cfg *cfg,
			       struct ethereal_admission *a,
			       struct netlink_ext_ack *extack)
{
	int err;

	if (cfg->in == cfg->out) {
		NL_SET_ERR_MSG(extack, "Input and output port are the same");
		return -EINVAL;
	}
	if (cfg->in->sw != cfg->out->sw) {
		NL_SET_ERR_MSG(extack, "Input and output port are on different switches");
		return -EINVAL;
	}
	if (cfg->swap && !cfg->daddr) {
		NL_SET_ERR_MSG(extack, "Swap needs the receiver's IPv4 address");
		return -EINVAL;
	}
	if (!ethereal_port_may_forward(cfg->in, cfg->out, ethereal_port_vid(cfg->in))) {
		NL_SET_ERR_MSG(extack,
			       "The bridge forwards nothing from the input to the output port (VLAN or isolation)");
		return -ENETUNREACH;
	}
	if (cfg->burst < cfg->max_pkt) {
		NL_SET_ERR_MSG(extack, "Burst is smaller than the maximum packet size");
		return -EINVAL;
	}
	err = ethereal_conn_quota(cfg, extack);
	if (err)
		return err;
	/* Bandwidth, connections, buffer and delay on the output link. */
	err = ethereal_port_admit(cfg->out, cfg, cfg->max_delay ?
				  ethereal_sub_sat(cfg->max_delay, ethereal_conn_link_ns(cfg)) :
				  U64_MAX, a, extack);
	return err;
}

/* Take the output ID: the one asked for, or a free one. */
static int ethereal_conn_take_out_id(struct ethereal_conn *conn,
				     const struct ethereal_conn_cfg *cfg,
				     struct netlink_ext_ack *extack)
{
	struct ethereal_port *out = cfg->out;
	u32 id;
	int err;

	if (cfg->out_id) {
		/*
		 * Frames of a connection just deleted may still be on their way
		 * to its queue, carrying its ID: an ID chosen again waits them
		 * out. Allocated IDs come back only after all others.
		 */
		cond_synchronize_rcu(out->out_freed);
		err = xa_insert(&out->out_conns, cfg->out_id, conn, GFP_KERNEL);
		if (err == -EBUSY)
			NL_SET_ERR_MSG(extack, "Output ID already in use on the output port");
		if (err)
			return err;
		conn->qid = cfg->out_id;
		return 0;
	}
	err = xa_alloc_cyclic(&out->out_conns, &id, conn,
			      XA_LIMIT(ETHEREAL_ID_MIN, ETHEREAL_ID_MAX),
			      &out->out_next, GFP_KERNEL);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(extack, "No free ID left on the output port");
	if (err < 0)
		return err;
	conn->qid = id;
	return 0;
}

struct ethereal_conn *ethereal_conn_add(const struct ethereal_conn_cfg *cfg,
					struct netlink_ext_ack *extack)
{
	struct ethereal_admission a;
	struct ethereal_conn *conn;
	int err;

	ethereal_assert_config(cfg->in->sw);
	err = ethereal_conn_check(cfg, &a, extack);
	if (err)
		return ERR_PTR(err);

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		return ERR_PTR(-ENOMEM);
	conn->stats = ethereal_stats_alloc();
	if (!conn->stats) {
		kfree(conn);
		return ERR_PTR(-ENOMEM);
	}
	conn->in = cfg->in;
	conn->out = cfg->out;
	conn->in_id = cfg->in_id;
	conn->to_host = cfg->to_host;
	conn->swap = cfg->swap;
	conn->origin = cfg->origin;
	RB_CLEAR_NODE(&conn->sig.node);	/* signaling orders it once it has a deadline */
	conn->daddr = cfg->daddr;
	conn->rate = cfg->rate;
	conn->burst = cfg->burst;
	conn->max_pkt = cfg->max_pkt;
	conn->dl_b = a.dl_b;
	conn->dl_v = a.dl_v;
	conn->dl_budget = a.budget;
	conn->dl_hop = a.hop;
	conn->dl_tol = a.tol;
	conn->jitter = a.jitter;
	conn->queue = a.queue;
	conn->delay = ethereal_add_sat(a.hop, ethereal_conn_link_ns(cfg));

	err = ethereal_conn_take_out_id(conn, cfg, extack);
	if (err)
		goto free;
	if (conn->to_host) {
		ether_addr_copy(conn->out_mac, cfg->out_mac);
	} else {
		eth_broadcast_addr(conn->out_mac);
		put_unaligned_be16(conn->qid, conn->out_mac + ETHEREAL_MAC_PREFIX_LEN);
	}

	/* Its queue on the output port, before its first frame arrives. */
	err = ethereal_sched_conn_add(conn->out, conn);
	if (err) {
		xa_erase(&cfg->out->out_conns, conn->qid);
		goto free;
	}
	/* Publishes the connection to the packet path: fill it in first. */
	err = xa_insert(&cfg->in->in_conns, cfg->in_id, conn, GFP_KERNEL);
	if (err) {
		if (err == -EBUSY)
			NL_SET_ERR_MSG(extack, "Connection ID already in use on the input port");
		ethereal_sched_conn_del(conn->out, conn);
		xa_erase(&cfg->out->out_conns, conn->qid);
		goto free;
	}
	conn->in->n_in++;
	conn->in->reserved_in += conn->rate;
	conn->out->n_out++;
	conn->out->reserved += conn->rate;
	conn->out->buffered += conn->queue;
	ethereal_port_dl_add(conn->out, conn);
	/* The others' frames may now stay longer: their queues grow. */
	ethereal_port_queues_update(conn->out);
	conn->in->sw->n_conns++;
	ethereal_switch_changed(conn->in->sw);
	atomic_inc(&ethereal_live[ETHEREAL_OBJ_CONN]);
	ethereal_discard_update(conn->in);
	return conn;

free:
	free_percpu(conn->stats);
	kfree(conn);
	return ERR_PTR(err);
}

void ethereal_conn_del(struct ethereal_conn *conn)
{
	ethereal_assert_config(conn->in->sw);
	if (conn->origin == ETHEREAL_ORIGIN_SIGNALED)
		ethereal_sig_conn_gone(conn);
	xa_erase(&conn->in->in_conns, conn->in_id);
	/* Frames still on their way to its queue go best effort. */
	ethereal_sched_conn_del(conn->out, conn);
	xa_erase(&conn->out->out_conns, conn->qid);
	conn->out->out_freed = get_state_synchronize_rcu();
	conn->in->n_in--;
	conn->in->reserved_in -= conn->rate;
	conn->out->n_out--;
	conn->out->reserved -= conn->rate;
	conn->out->buffered -= conn->queue;
	ethereal_port_dl_del(conn->out, conn);
	conn->in->sw->n_conns--;
	ethereal_switch_changed(conn->in->sw);
	ethereal_discard_update(conn->in);
	/* The packet path may still hold it. */
	call_rcu(&conn->rcu, ethereal_conn_free_rcu);
}

/* Remove every connection entering or leaving the port. */
void ethereal_port_flush_conns(struct ethereal_port *port)
{
	struct ethereal_conn *conn;
	unsigned long id;

	xa_for_each(&port->in_conns, id, conn)
		ethereal_conn_del(conn);
	xa_for_each(&port->out_conns, id, conn)
		ethereal_conn_del(conn);
}
