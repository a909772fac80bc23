// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The signaling wire format: parse and build (see sigmsg.h). Everything is
 * checked against the datagram's length before it is read: the kernel runs
 * this on whatever a host sends.
 */
#include "sigmsg.h"

/* Value sizes; 0: not an attribute of this version (skipped). */
static const u8 ethereal_sig_attr_size[ETHEREAL_SIG_A_MAX + 1] = {
	[ETHEREAL_SIG_A_DADDR] = 4,
	[ETHEREAL_SIG_A_DPORT] = 2,
	[ETHEREAL_SIG_A_RATE] = 8,
	[ETHEREAL_SIG_A_BURST] = 4,
	[ETHEREAL_SIG_A_MAX_PKT] = 4,
	[ETHEREAL_SIG_A_REASON] = 2,
	[ETHEREAL_SIG_A_HOP] = 1,
	[ETHEREAL_SIG_A_LIFETIME] = 4,
	[ETHEREAL_SIG_A_HOPS] = 1,
	[ETHEREAL_SIG_A_FEATURES] = 4,
	[ETHEREAL_SIG_A_SWITCH] = 6,
	[ETHEREAL_SIG_A_AUTH] = ETHEREAL_SIG_AUTH_SIZE,
	[ETHEREAL_SIG_A_CHALLENGE] = 8,
	[ETHEREAL_SIG_A_RESPONSE] = 8,
	[ETHEREAL_SIG_A_DELAY] = 8,
	[ETHEREAL_SIG_A_MAX_DELAY] = 8,
};

static void ethereal_sig_get(struct ethereal_sig_msg *m, unsigned int type,
			     const u8 *v)
{
	switch (type) {
	case ETHEREAL_SIG_A_DADDR:
		memcpy(&m->daddr, v, 4);
		break;
	case ETHEREAL_SIG_A_DPORT:
		m->dport = get_unaligned_be16(v);
		break;
	case ETHEREAL_SIG_A_RATE:
		m->rate = get_unaligned_be64(v);
		break;
	case ETHEREAL_SIG_A_BURST:
		m->burst = get_unaligned_be32(v);
		break;
	case ETHEREAL_SIG_A_MAX_PKT:
		m->max_pkt = get_unaligned_be32(v);
		break;
	case ETHEREAL_SIG_A_REASON:
		m->reason = get_unaligned_be16(v);
		break;
	case ETHEREAL_SIG_A_HOP:
		m->hop = v[0];
		break;
	case ETHEREAL_SIG_A_LIFETIME:
		m->lifetime = get_unaligned_be32(v);
		break;
	case ETHEREAL_SIG_A_HOPS:
		m->hops = v[0];
		break;
	case ETHEREAL_SIG_A_FEATURES:
		m->features = get_unaligned_be32(v);
		break;
	case ETHEREAL_SIG_A_SWITCH:
		memcpy(m->switch_id, v, sizeof(m->switch_id));
		break;
	case ETHEREAL_SIG_A_AUTH:
		m->auth_seq = get_unaligned_be64(v);
		memcpy(m->auth_mac, v + 8, sizeof(m->auth_mac));
		break;
	case ETHEREAL_SIG_A_CHALLENGE:
		m->challenge = get_unaligned_be64(v);
		break;
	case ETHEREAL_SIG_A_RESPONSE:
		m->response = get_unaligned_be64(v);
		break;
	case ETHEREAL_SIG_A_DELAY:
		m->delay = get_unaligned_be64(v);
		break;
	case ETHEREAL_SIG_A_MAX_DELAY:
		m->max_delay = get_unaligned_be64(v);
		break;
	}
}

enum ethereal_sig_err ethereal_sig_parse(const void *buf, size_t len,
					 struct ethereal_sig_msg *m)
{
	const struct ethereal_sig_hdr *h = buf;
	const u8 *p = buf;
	size_t off, mlen;

	memset(m, 0, sizeof(*m));
	if (len > ETHEREAL_SIG_MAX_LEN)
		return ETHEREAL_SIG_E_LONG;
	if (len < sizeof(*h))
		return ETHEREAL_SIG_E_SHORT;
	if (h->version != ETHEREAL_SIG_VERSION)
		return ETHEREAL_SIG_E_VERSION;
	if (h->type < ETHEREAL_SIG_SETUP || h->type >= __ETHEREAL_SIG_TYPE_MAX)
		return ETHEREAL_SIG_E_TYPE;
	mlen = get_unaligned_be16(&h->length);
	/* Padding after the message (Ethernet's minimum frame) is allowed. */
	if (mlen < sizeof(*h) || mlen > len)
		return ETHEREAL_SIG_E_SHORT;
	m->type = h->type;
	m->flags = get_unaligned_be16(&h->flags);
	m->conn_id = get_unaligned_be16(&h->conn_id);
	m->cookie = get_unaligned_be32(&h->cookie);

	for (off = sizeof(*h); off < mlen;) {
		unsigned int type, alen;

		if (mlen - off < sizeof(struct ethereal_sig_attr))
			return ETHEREAL_SIG_E_ATTR;
		type = get_unaligned_be16(p + off);
		alen = get_unaligned_be16(p + off + 2);
		if (alen < sizeof(struct ethereal_sig_attr) || alen > mlen - off)
			return ETHEREAL_SIG_E_ATTR;
		if (type <= ETHEREAL_SIG_A_MAX && ethereal_sig_attr_size[type]) {
			if (alen - sizeof(struct ethereal_sig_attr) !=
			    ethereal_sig_attr_size[type] ||
			    (m->present & ETHEREAL_SIG_BIT(type)))
				return ETHEREAL_SIG_E_ATTR;
			ethereal_sig_get(m, type, p + off + 4);
			m->present |= ETHEREAL_SIG_BIT(type);
			if (type == ETHEREAL_SIG_A_AUTH)
				m->auth_off = (u16)(off + 4);
		}
		/* The last attribute's padding may be left out. */
		off = ETHEREAL_SIG_ALIGN(off + alen);
	}

	if (m->type == ETHEREAL_SIG_SETUP &&
	    (m->present & ETHEREAL_SIG_SETUP_NEEDS) != ETHEREAL_SIG_SETUP_NEEDS)
		return ETHEREAL_SIG_E_MISSING;
	if (m->type == ETHEREAL_SIG_REJECT &&
	    (m->present & ETHEREAL_SIG_REJECT_NEEDS) != ETHEREAL_SIG_REJECT_NEEDS)
		return ETHEREAL_SIG_E_MISSING;
	if (m->type == ETHEREAL_SIG_HELLO &&
	    (m->present & ETHEREAL_SIG_HELLO_NEEDS) != ETHEREAL_SIG_HELLO_NEEDS)
		return ETHEREAL_SIG_E_MISSING;
	return ETHEREAL_SIG_OK;
}

static u8 *ethereal_sig_put(u8 *p, unsigned int type, const void *v)
{
	unsigned int size = ethereal_sig_attr_size[type];

	put_unaligned_be16(type, p);
	put_unaligned_be16(size + 4, p + 2);
	memcpy(p + 4, v, size);
	memset(p + 4 + size, 0, ETHEREAL_SIG_ALIGN(size) - size);
	return p + 4 + ETHEREAL_SIG_ALIGN(size);
}

/* A_AUTH last, whatever its number: the HMAC is the message's last bytes. */
static unsigned int ethereal_sig_build_order(unsigned int i)
{
	if (i == ETHEREAL_SIG_A_MAX)
		return ETHEREAL_SIG_A_AUTH;
	return i < ETHEREAL_SIG_A_AUTH ? i : i + 1;
}

size_t ethereal_sig_build(void *buf, size_t size, const struct ethereal_sig_msg *m)
{
	struct ethereal_sig_hdr *h = buf;
	u8 *p = buf, v[ETHEREAL_SIG_AUTH_SIZE];
	unsigned int i, type;
	size_t len = sizeof(*h);

	for (type = 1; type <= ETHEREAL_SIG_A_MAX; type++)
		if (m->present & ETHEREAL_SIG_BIT(type))
			len += 4 + ETHEREAL_SIG_ALIGN(ethereal_sig_attr_size[type]);
	if (len > size || len > ETHEREAL_SIG_MAX_LEN)
		return 0;

	h->version = ETHEREAL_SIG_VERSION;
	h->type = m->type;
	put_unaligned_be16(len, &h->length);
	put_unaligned_be16(m->conn_id, &h->conn_id);
	put_unaligned_be16(m->flags, &h->flags);
	put_unaligned_be32(m->cookie, &h->cookie);
	p += sizeof(*h);
	for (i = 1; i <= ETHEREAL_SIG_A_MAX; i++) {
		type = ethereal_sig_build_order(i);
		if (!(m->present & ETHEREAL_SIG_BIT(type)))
			continue;
		switch (type) {
		case ETHEREAL_SIG_A_DADDR:
			memcpy(v, &m->daddr, 4);
			break;
		case ETHEREAL_SIG_A_DPORT:
			put_unaligned_be16(m->dport, v);
			break;
		case ETHEREAL_SIG_A_RATE:
			put_unaligned_be64(m->rate, v);
			break;
		case ETHEREAL_SIG_A_BURST:
			put_unaligned_be32(m->burst, v);
			break;
		case ETHEREAL_SIG_A_MAX_PKT:
			put_unaligned_be32(m->max_pkt, v);
			break;
		case ETHEREAL_SIG_A_REASON:
			put_unaligned_be16(m->reason, v);
			break;
		case ETHEREAL_SIG_A_HOP:
			v[0] = m->hop;
			break;
		case ETHEREAL_SIG_A_LIFETIME:
			put_unaligned_be32(m->lifetime, v);
			break;
		case ETHEREAL_SIG_A_HOPS:
			v[0] = m->hops;
			break;
		case ETHEREAL_SIG_A_FEATURES:
			put_unaligned_be32(m->features, v);
			break;
		case ETHEREAL_SIG_A_SWITCH:
			memcpy(v, m->switch_id, sizeof(m->switch_id));
			break;
		case ETHEREAL_SIG_A_AUTH:
			put_unaligned_be64(m->auth_seq, v);
			memcpy(v + 8, m->auth_mac, sizeof(m->auth_mac));
			break;
		case ETHEREAL_SIG_A_CHALLENGE:
			put_unaligned_be64(m->challenge, v);
			break;
		case ETHEREAL_SIG_A_RESPONSE:
			put_unaligned_be64(m->response, v);
			break;
		case ETHEREAL_SIG_A_DELAY:
			put_unaligned_be64(m->delay, v);
			break;
		case ETHEREAL_SIG_A_MAX_DELAY:
			put_unaligned_be64(m->max_delay, v);
			break;
		}
		p = ethereal_sig_put(p, type, v);
	}
	return len;
}
