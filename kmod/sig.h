/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signaling's own: what the receive path (signal.c), the setup state
 * machine (sigsetup.c) and sending (sigsend.c) share. Not for the rest of
 * the module, which sees signaling.h.
 */
#ifndef _ETHEREAL_SIG_H
#define _ETHEREAL_SIG_H

#include <linux/jiffies.h>
#include <linux/list.h>

#include "sigmsg.h"
#include "signaling.h"
#include "switch.h"

#define ETHEREAL_SIG_PENDING_MAX 256		/* setups in progress per switch */
#define ETHEREAL_SIG_PENDING_HOST 32		/* ... from the host of a port */
#define ETHEREAL_SIG_ANSWER_TIMEOUT msecs_to_jiffies(ETHEREAL_SIG_ANSWER_MS)
#define ETHEREAL_SIG_ARP_TIMEOUT msecs_to_jiffies(ETHEREAL_SIG_ARP_WAIT_MS)
#define ETHEREAL_SIG_ARP_RETRY	(HZ / 5)
/* What a first switch offers its host (ETHEREAL_SIG_A_FEATURES of ACCEPT). */
#define ETHEREAL_SIG_FEATURES	(ETHEREAL_SIG_FEAT_REFRESH_ACK | ETHEREAL_SIG_FEAT_DELAY)

/* A setup waiting for the receiver's ARP answer. */
struct ethereal_sig_wait {
	struct list_head node;
	struct ethereal_port *in;	/* removed with the port */
	struct ethereal_sig_msg m;
	struct ethereal_sig_peer peer;
	bool has_peer;
	u8 hop;
	u64 arrival;
	unsigned long deadline;
	unsigned long next_probe;
	bool probes;			/* the one that asks for its address */
};

/* A message being handled, and where it came from. */
struct ethereal_sig_rxinfo {
	struct ethereal_port *port;
	struct ethereal_sig_peer from;	/* the sender, if a host */
	u64 arrival;
};

static inline void ethereal_sig_count(struct ethereal_switch *sw, enum ethereal_sig_counter c)
{
	atomic_long_inc(&sw->sig.c[c]);
}

/* sigsend.c */
void ethereal_sig_send(struct ethereal_port *port, const struct ethereal_sig_peer *peer,
		       const struct ethereal_sig_msg *m);
void ethereal_sig_send_up(struct ethereal_conn *conn, struct ethereal_sig_msg *m);
void ethereal_sig_send_down(struct ethereal_conn *conn, struct ethereal_sig_msg *m);
void ethereal_sig_send_accept(struct ethereal_conn *conn, struct ethereal_sig_msg *m);
void ethereal_sig_reject(struct ethereal_port *in, const struct ethereal_sig_peer *peer,
			 const struct ethereal_sig_msg *req, u16 reason, u8 hop);
void ethereal_sig_teardown_msg(struct ethereal_sig_msg *m, u16 reason, bool reverse);

/* sigsetup.c: a message of each type, and setups waiting for ARP */
bool ethereal_sig_from_host(const struct ethereal_sig_rxinfo *rx);
void ethereal_sig_setup(const struct ethereal_sig_rxinfo *rx, const struct ethereal_sig_msg *m);
void ethereal_sig_accept(const struct ethereal_sig_rxinfo *rx, const struct ethereal_sig_msg *m);
void ethereal_sig_rejected(const struct ethereal_sig_rxinfo *rx,
			   const struct ethereal_sig_msg *m);
void ethereal_sig_teardown(const struct ethereal_sig_rxinfo *rx,
			   const struct ethereal_sig_msg *m);
void ethereal_sig_refresh(const struct ethereal_sig_rxinfo *rx, const struct ethereal_sig_msg *m);
void ethereal_sig_proceeding(const struct ethereal_sig_rxinfo *rx,
			     const struct ethereal_sig_msg *m);
void ethereal_sig_waiting(struct ethereal_switch *sw);
void ethereal_sig_wait_free(struct ethereal_switch *sw, struct ethereal_sig_wait *w);

/* sighello.c: trunks take signaling from the switch that says hello */
bool ethereal_sig_from_link_switch(const struct ethereal_sig_rxinfo *rx,
				   const struct ethereal_sig_msg *m);
void ethereal_sig_hello(const struct ethereal_sig_rxinfo *rx, const struct ethereal_sig_msg *m);
void ethereal_sig_hellos(struct ethereal_switch *sw);
unsigned long ethereal_sig_hello_delay(const struct ethereal_switch *sw);

/* sigauth.c: messages over a keyed trunk carry A_AUTH */
void ethereal_sig_auth_prepare(struct ethereal_port *port, struct ethereal_sig_msg *m);
bool ethereal_sig_auth_sign(struct ethereal_port *port, u8 *buf, size_t len);
bool ethereal_sig_auth_check(const struct ethereal_sig_rxinfo *rx, u8 *buf, size_t len,
			     const struct ethereal_sig_msg *m);
void ethereal_sig_auth_taken(struct ethereal_port *port, const struct ethereal_sig_msg *m);
bool ethereal_sig_auth_owes(const struct ethereal_port *port);
void ethereal_sig_auth_resync(struct ethereal_port *port);

#endif /* _ETHEREAL_SIG_H */
