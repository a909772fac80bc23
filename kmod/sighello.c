// SPDX-License-Identifier: GPL-2.0
/*
 * Who is at the other end of each trunk. Every switch says HELLO on each
 * of its trunks once a second, naming itself (its bridge's MAC); a trunk
 * takes signaling only from the switch it has heard that way, by the
 * source MAC of its frames, for as long as it keeps saying hello. A host
 * plugged into a port configured as a trunk is not a switch: what it
 * signals is dropped (drop_stranger) until it says hello, which a host's
 * stack never does by itself. The first switch heard keeps the trunk
 * until it falls silent (ETHEREAL_SIG_HOLD_MS) or the link goes down.
 *
 * Under the switch's lock, from the signaling work and configuration.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/workqueue.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "sig.h"
#include "sigmsg.h"
#include "signaling.h"
#include "switch.h"

bool ethereal_port_link_sw_alive(const struct ethereal_port *port)
{
	return port->link_sw_seen &&
	       time_before(jiffies, port->link_sw_seen + msecs_to_jiffies(ETHEREAL_SIG_HOLD_MS));
}

static void ethereal_sig_say_hello(struct ethereal_port *port)
{
	struct ethereal_sig_msg m = {
		.type = ETHEREAL_SIG_HELLO,
		.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_SWITCH),
	};

	ether_addr_copy(m.switch_id, port->sw->br->dev_addr);
	ethereal_sig_send(port, NULL, &m);
}

/* Whether a message on a trunk comes from the switch at its other end. */
bool ethereal_sig_from_link_switch(const struct ethereal_sig_rxinfo *rx,
				   const struct ethereal_sig_msg *m)
{
	const struct ethereal_port *port = rx->port;
	bool alive = ethereal_port_link_sw_alive(port);

	/* Our own hello, come back through a loop, is nobody's. */
	if (m->type == ETHEREAL_SIG_HELLO &&
	    ether_addr_equal(m->switch_id, port->sw->br->dev_addr))
		return false;
	if (alive)
		return ether_addr_equal(port->link_sw_mac, rx->from.mac);
	/* Nobody there: a hello makes its sender the one. */
	return m->type == ETHEREAL_SIG_HELLO;
}

void ethereal_sig_hello(const struct ethereal_sig_rxinfo *rx, const struct ethereal_sig_msg *m)
{
	struct ethereal_port *port = rx->port;
	bool known = ethereal_port_link_sw_alive(port) &&
		     ether_addr_equal(port->link_sw_id, m->switch_id);

	port->link_sw_seen = jiffies ?: 1;
	if (known) {
		/* Its challenge (a key just set there) is answered now. */
		if (ethereal_sig_auth_owes(port))
			ethereal_sig_say_hello(port);
		return;
	}
	ether_addr_copy(port->link_sw_id, m->switch_id);
	ether_addr_copy(port->link_sw_mac, rx->from.mac);
	ethereal_sig_count(port->sw, ETHEREAL_SIGC_SWITCHES);
	/* A switch new at the other end learns this one now, not a second later. */
	ethereal_sig_say_hello(port);
}

/* PORT's role changed, or its link went down: whoever was there is gone. */
void ethereal_sig_forget_link_switch(struct ethereal_port *port)
{
	struct ethereal_switch *sw = port->sw;

	ethereal_assert_config(sw);
	port->link_sw_seen = 0;
	ethereal_sig_auth_resync(port);
	/* A new trunk says hello at once. */
	if (port->role == ETHEREAL_PORT_TRUNK && !READ_ONCE(sw->sig.dead)) {
		sw->sig.next_hello = jiffies;
		mod_delayed_work(system_wq, &sw->sig.work, 0);
	}
}

static bool ethereal_sig_has_trunks(const struct ethereal_switch *sw)
{
	const struct ethereal_port *port;

	list_for_each_entry(port, &sw->ports, node)
		if (port->role == ETHEREAL_PORT_TRUNK)
			return true;
	return false;
}

/* The work's part: every trunk's hello when due. */
void ethereal_sig_hellos(struct ethereal_switch *sw)
{
	struct ethereal_port *port;

	if (time_before(jiffies, sw->sig.next_hello))
		return;
	list_for_each_entry(port, &sw->ports, node) {
		/* Gone for good: a stale time must not look fresh once jiffies wrap. */
		if (port->link_sw_seen && !ethereal_port_link_sw_alive(port))
			port->link_sw_seen = 0;
		if (port->role == ETHEREAL_PORT_TRUNK)
			ethereal_sig_say_hello(port);
	}
	sw->sig.next_hello = jiffies + msecs_to_jiffies(ETHEREAL_SIG_HELLO_MS);
}

/* Jiffies until the next hellos, ULONG_MAX when the switch has no trunk. */
unsigned long ethereal_sig_hello_delay(const struct ethereal_switch *sw)
{
	if (!ethereal_sig_has_trunks(sw))
		return ULONG_MAX;
	return time_after(sw->sig.next_hello, jiffies) ? sw->sig.next_hello - jiffies : 0;
}
