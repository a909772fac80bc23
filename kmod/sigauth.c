// SPDX-License-Identifier: GPL-2.0
/*
 * Keys per link: the operator gives both ends of a trunk the same secret,
 * and every message between them carries A_AUTH, a sequence number and an
 * HMAC-SHA256 (first 16 bytes) under that key of the sender's MAC and the
 * message, as RSVP's INTEGRITY object does (RFC 2747). A keyed trunk takes
 * only messages whose HMAC is right and whose sequence number is past the
 * last one it took from the switch at its other end: a host on the link
 * can neither make its own nor replay the switch's, and a switch's own
 * message sent back to it is refused (its MAC is in the HMAC, and the
 * frame would come from the switch's own address). The sender's numbers
 * start from the real-time clock in ns when the key is set, so that they
 * keep rising across the sender's restarts.
 *
 * A receiver that knows none of the other end's numbers yet (a key just
 * set, the link or the role changed) would take an old message replayed
 * with any number. So it takes nothing but HELLOs until the other end has
 * answered a nonce of its own (A_CHALLENGE in its HELLOs, A_RESPONSE in
 * the answer, as RFC 2747's handshake): that answer's number is the first
 * it takes, and it is newer than anything recorded before.
 *
 * Under the switch's lock: configuration (RTNL too), and the signaling
 * work that sends and receives. HMACs are computed in process context, on the stack.
 */
#include <crypto/hash.h>
#include <crypto/sha2.h>
#include <linux/etherdevice.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>

#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>

#include "compat.h"
#include "sig.h"
#include "sigmsg.h"
#include "signaling.h"
#include "switch.h"

struct ethereal_link_key {
	struct crypto_shash *tfm;	/* hmac(sha256), keyed */
	u64 tx_seq;			/* the last one sent */
	u64 rx_seq;			/* the last one taken */
	u64 challenge;			/* ours, until answered; then 0 */
	u64 owed;			/* the other end's, to answer; or 0 */
};

static void ethereal_link_key_free(struct ethereal_link_key *key)
{
	if (!key)
		return;
	crypto_free_shash(key->tfm);
	kfree_sensitive(key);
}

/*
 * PORT's key from now on (LEN 0: none). Whoever was heard before must say
 * hello again, under the new key.
 */
int ethereal_port_set_key(struct ethereal_port *port, const u8 *secret, unsigned int len,
			  struct netlink_ext_ack *extack)
{
	struct ethereal_link_key *key = NULL;
	int err;

	ethereal_assert_config(port->sw);
	if (len && (len < ETHEREAL_KEY_MIN || len > ETHEREAL_KEY_MAX)) {
		NL_SET_ERR_MSG(extack, "A link key is " __stringify(ETHEREAL_KEY_MIN) " to "
			       __stringify(ETHEREAL_KEY_MAX) " bytes");
		return -EINVAL;
	}
	if (len) {
		key = kzalloc(sizeof(*key), GFP_KERNEL);
		if (!key)
			return -ENOMEM;
		key->tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
		if (IS_ERR(key->tfm)) {
			err = PTR_ERR(key->tfm);
			kfree(key);
			NL_SET_ERR_MSG(extack, "The kernel has no hmac(sha256)");
			return err;
		}
		err = crypto_shash_setkey(key->tfm, secret, len);
		if (err) {
			ethereal_link_key_free(key);
			NL_SET_ERR_MSG(extack, "hmac(sha256) refused the key");
			return err;
		}
		key->tx_seq = ktime_get_real_ns();
	}
	ethereal_link_key_free(port->link_key);
	port->link_key = key;
	/* Which also challenges it under the new key (ethereal_sig_auth_resync()). */
	ethereal_sig_forget_link_switch(port);
	return 0;
}

void ethereal_port_free_key(struct ethereal_port *port)
{
	ethereal_link_key_free(port->link_key);
	port->link_key = NULL;
}

/* The HMAC of the sender's MAC, then the message. */
static int ethereal_sig_hmac(struct ethereal_link_key *key, const u8 *from, const u8 *msg,
			     size_t len, u8 out[SHA256_DIGEST_SIZE])
{
	SHASH_DESC_ON_STACK(desc, key->tfm);
	int err;

	desc->tfm = key->tfm;
	err = crypto_shash_init(desc) ?: crypto_shash_update(desc, from, ETH_ALEN) ?:
	      crypto_shash_finup(desc, msg, len, out);
	shash_desc_zero(desc);
	return err;
}

/* What goes out of PORT to the switch at its other end carries A_AUTH. */
void ethereal_sig_auth_prepare(struct ethereal_port *port, struct ethereal_sig_msg *m)
{
	struct ethereal_link_key *key = port->link_key;

	if (!key)
		return;
	m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_AUTH);
	m->auth_seq = ++key->tx_seq;
	memset(m->auth_mac, 0, sizeof(m->auth_mac));
	if (m->type != ETHEREAL_SIG_HELLO)
		return;
	if (key->challenge) {
		m->challenge = key->challenge;
		m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_CHALLENGE);
	}
	if (key->owed) {
		m->response = key->owed;
		m->present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_RESPONSE);
		key->owed = 0;
	}
}

/* Whether the other end answered PORT's challenge: it takes signaling. */
bool ethereal_port_key_verified(const struct ethereal_port *port)
{
	return port->link_key && !port->link_key->challenge;
}

/* PORT's key must answer a challenge: its next HELLO is due at once. */
bool ethereal_sig_auth_owes(const struct ethereal_port *port)
{
	return port->link_key && port->link_key->owed;
}

/*
 * Whoever is at PORT's other end must prove itself again: nothing from it
 * is known fresh until it answers a new challenge.
 */
void ethereal_sig_auth_resync(struct ethereal_port *port)
{
	struct ethereal_link_key *key = port->link_key;

	if (!key)
		return;
	key->rx_seq = 0;
	key->owed = 0;
	do
		key->challenge = get_random_u64();
	while (!key->challenge);
}

/*
 * Sign the message of LEN bytes in BUF, built from a message prepared above:
 * A_AUTH is its last attribute. False if it cannot be (then not sent).
 */
bool ethereal_sig_auth_sign(struct ethereal_port *port, u8 *buf, size_t len)
{
	u8 mac[SHA256_DIGEST_SIZE];

	if (!port->link_key)
		return true;
	if (len < sizeof(struct ethereal_sig_hdr) + 4 + ETHEREAL_SIG_AUTH_SIZE ||
	    ethereal_sig_hmac(port->link_key, port->dev->dev_addr, buf, len, mac))
		return false;
	memcpy(buf + len - ETHEREAL_SIG_AUTH_LEN, mac, ETHEREAL_SIG_AUTH_LEN);
	memzero_explicit(mac, sizeof(mac));
	return true;
}

/*
 * A message M arrived as RX, LEN bytes in BUF (a copy, changed here): true
 * if the port has no key, or M carries a right HMAC from the frame's
 * sender with a sequence number past the last one taken. Taken, the
 * number counts only once the sender is known for the switch at the
 * trunk's other end (ethereal_sig_auth_taken()).
 */
bool ethereal_sig_auth_check(const struct ethereal_sig_rxinfo *rx, u8 *buf, size_t len,
			     const struct ethereal_sig_msg *m)
{
	struct ethereal_link_key *key = rx->port->link_key;
	size_t mlen = get_unaligned_be16(&((struct ethereal_sig_hdr *)buf)->length);
	u8 mac[SHA256_DIGEST_SIZE];
	bool ok;

	if (!key)
		return true;
	/* The parser checked that the attribute and the message fit in LEN. */
	if (!(m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_AUTH)) || m->auth_seq <= key->rx_seq ||
	    mlen > len || m->auth_off + ETHEREAL_SIG_AUTH_SIZE > mlen ||
	    ether_addr_equal(rx->from.mac, rx->port->dev->dev_addr))
		return false;
	memset(buf + m->auth_off + 8, 0, ETHEREAL_SIG_AUTH_LEN);
	if (ethereal_sig_hmac(key, rx->from.mac, buf, mlen, mac))
		return false;
	ok = !crypto_memneq(mac, m->auth_mac, ETHEREAL_SIG_AUTH_LEN);
	memzero_explicit(mac, sizeof(mac));
	/* Not known fresh yet: hellos only, until our challenge is answered. */
	return ok && (!key->challenge || m->type == ETHEREAL_SIG_HELLO);
}

/*
 * M, checked above, came from the switch at the trunk's other end: a
 * challenge in it is answered, and its number is the bar from now on once
 * it is known fresh (it answers ours, or ours was answered before).
 */
void ethereal_sig_auth_taken(struct ethereal_port *port, const struct ethereal_sig_msg *m)
{
	struct ethereal_link_key *key = port->link_key;

	if (!key)
		return;
	if (m->type == ETHEREAL_SIG_HELLO &&
	    (m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_CHALLENGE)))
		key->owed = m->challenge;
	if (key->challenge) {
		if (m->type != ETHEREAL_SIG_HELLO ||
		    !(m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_RESPONSE)) ||
		    m->response != key->challenge)
			return;
		key->challenge = 0;
	}
	key->rx_seq = m->auth_seq;
}
