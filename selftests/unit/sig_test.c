// SPDX-License-Identifier: GPL-2.0
/*
 * kmod/sigmsg.c: the signaling wire format. The module parses whatever a
 * host sends, so besides round trips this feeds it every kind of malformed
 * message; the Makefile builds it under ASan and UBSan where it can, and
 * malformed messages sit in buffers of their exact size so that a read
 * past the datagram is caught.
 */
#include <arpa/inet.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "sigmsg.h"
#include "signames.h"

#define HDR_LEN		sizeof(struct ethereal_sig_hdr)
#define ALL_ATTRS	(((1U << (ETHEREAL_SIG_A_MAX + 1)) - 1) & ~1U)
#define FULL_LEN	184	/* header + all sixteen attributes, padded */

/* Value sizes, written out again rather than taken from sigmsg.c. */
static const unsigned int attr_size[ETHEREAL_SIG_A_MAX + 1] = {
	[ETHEREAL_SIG_A_DADDR] = 4, [ETHEREAL_SIG_A_DPORT] = 2,
	[ETHEREAL_SIG_A_RATE] = 8, [ETHEREAL_SIG_A_BURST] = 4,
	[ETHEREAL_SIG_A_MAX_PKT] = 4, [ETHEREAL_SIG_A_REASON] = 2,
	[ETHEREAL_SIG_A_HOP] = 1, [ETHEREAL_SIG_A_LIFETIME] = 4,
	[ETHEREAL_SIG_A_HOPS] = 1, [ETHEREAL_SIG_A_FEATURES] = 4,
	[ETHEREAL_SIG_A_SWITCH] = 6, [ETHEREAL_SIG_A_AUTH] = 24,
	[ETHEREAL_SIG_A_CHALLENGE] = 8, [ETHEREAL_SIG_A_RESPONSE] = 8,
	[ETHEREAL_SIG_A_DELAY] = 8, [ETHEREAL_SIG_A_MAX_DELAY] = 8,
};

/*
 * A SETUP written by hand from Documentation/signaling.md, so that build
 * and parse cannot agree on a wrong format: connection 03:09, cookie
 * deadbeef, to 192.168.10.2:5001 at 50 Mbit/s, burst 62500, frames <= 1514.
 */
static const u8 setup_wire[] = {
	0x01, 0x01, 0x00, 0x38, 0x03, 0x09, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef,
	0x00, 0x01, 0x00, 0x08, 0xc0, 0xa8, 0x0a, 0x02,
	0x00, 0x02, 0x00, 0x06, 0x13, 0x89, 0x00, 0x00,
	0x00, 0x03, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x02, 0xfa, 0xf0, 0x80,
	0x00, 0x04, 0x00, 0x08, 0x00, 0x00, 0xf4, 0x24,
	0x00, 0x05, 0x00, 0x08, 0x00, 0x00, 0x05, 0xea,
};

/* A TEARDOWN toward the source: link-down, reason last and unpadded. */
static const u8 teardown_wire[] = {
	0x01, 0x04, 0x00, 0x12, 0x03, 0x09, 0x00, 0x01, 0xde, 0xad, 0xbe, 0xef,
	0x00, 0x06, 0x00, 0x06, 0x00, 0x09,
};

/*
 * A HELLO from the switch whose bridge is 02:e7:00:00:0e:03: the bytes
 * selftests/sig_setup.sh sends from a host, padding last.
 */
static const u8 hello_wire[] = {
	0x01, 0x06, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x0b, 0x00, 0x0a, 0x02, 0xe7, 0x00, 0x00, 0x0e, 0x03, 0x00, 0x00,
};

/* Every attribute, each value with distinct bytes so that swaps show. */
static struct ethereal_sig_msg full_msg(unsigned int type)
{
	struct ethereal_sig_msg m = {
		.type = type, .flags = ETHEREAL_SIG_F_REVERSE, .conn_id = 0x0309,
		.cookie = 0xdeadbeef, .present = ALL_ATTRS,
		.daddr = htonl(0xc0a80a02), .dport = 5001,
		.rate = 0x0102030405060708ULL, .burst = 62500, .max_pkt = 1514,
		.reason = ETHEREAL_SIG_R_LINK_DOWN, .hop = 3, .lifetime = 30000,
		.hops = 4, .features = 0x0a0b0c0d,
		.switch_id = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
		.auth_seq = 0x1112131415161718ULL,
		.auth_mac = { 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
			      0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30 },
		.challenge = 0x3132333435363738ULL,
		.response = 0x4142434445464748ULL,
		.delay = 0x5152535455565758ULL,
		.max_delay = 0x6162636465666768ULL,
	};

	return m;
}

/* The fields of A that PRESENT says are set, with everything else zero. */
static struct ethereal_sig_msg only(const struct ethereal_sig_msg *a, u32 present)
{
	struct ethereal_sig_msg m = {
		.type = a->type, .flags = a->flags, .conn_id = a->conn_id,
		.cookie = a->cookie, .present = present,
	};

#define COPY(attr, field) \
	if (present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_##attr)) \
		m.field = a->field
	COPY(DADDR, daddr);
	COPY(DPORT, dport);
	COPY(RATE, rate);
	COPY(BURST, burst);
	COPY(MAX_PKT, max_pkt);
	COPY(REASON, reason);
	COPY(HOP, hop);
	COPY(LIFETIME, lifetime);
	COPY(HOPS, hops);
	COPY(FEATURES, features);
	COPY(CHALLENGE, challenge);
	COPY(RESPONSE, response);
#undef COPY
	if (present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_SWITCH))
		memcpy(m.switch_id, a->switch_id, sizeof(m.switch_id));
	if (present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_AUTH)) {
		m.auth_seq = a->auth_seq;
		memcpy(m.auth_mac, a->auth_mac, sizeof(m.auth_mac));
	}
	return m;
}

static void expect_same(struct __test_metadata *_metadata,
			const struct ethereal_sig_msg *a,
			const struct ethereal_sig_msg *b)
{
	EXPECT_EQ(a->type, b->type);
	EXPECT_EQ(a->flags, b->flags);
	EXPECT_EQ(a->conn_id, b->conn_id);
	EXPECT_EQ(a->cookie, b->cookie);
	EXPECT_EQ(a->present, b->present);
	EXPECT_EQ(a->daddr, b->daddr);
	EXPECT_EQ(a->dport, b->dport);
	EXPECT_EQ(a->rate, b->rate);
	EXPECT_EQ(a->burst, b->burst);
	EXPECT_EQ(a->max_pkt, b->max_pkt);
	EXPECT_EQ(a->reason, b->reason);
	EXPECT_EQ(a->hop, b->hop);
	EXPECT_EQ(a->lifetime, b->lifetime);
	EXPECT_EQ(a->hops, b->hops);
	EXPECT_EQ(a->features, b->features);
	EXPECT_EQ(0, memcmp(a->switch_id, b->switch_id, sizeof(a->switch_id)));
	EXPECT_EQ(a->auth_seq, b->auth_seq);
	EXPECT_EQ(0, memcmp(a->auth_mac, b->auth_mac, sizeof(a->auth_mac)));
	EXPECT_EQ(a->challenge, b->challenge);
	EXPECT_EQ(a->response, b->response);
	EXPECT_EQ(a->delay, b->delay);
	EXPECT_EQ(a->max_delay, b->max_delay);
}

/* Parse LEN bytes of BUF from a heap copy of exactly that size. */
static enum ethereal_sig_err parse_exact(const void *buf, size_t len,
					 struct ethereal_sig_msg *m)
{
	enum ethereal_sig_err err;
	void *p = malloc(len ? len : 1);

	if (!p)
		abort();
	memcpy(p, buf, len);
	err = ethereal_sig_parse(p, len, m);
	free(p);
	return err;
}

/* Hand-made messages, for what ethereal_sig_build() never produces. */
struct raw {
	u8 b[ETHEREAL_SIG_MAX_LEN + 64];
	size_t len;
};

static void raw_hdr(struct raw *r, u8 version, u8 type)
{
	memset(r, 0, sizeof(*r));
	r->b[0] = version;
	r->b[1] = type;
	put_unaligned_be16(0x0309, r->b + 4);
	put_unaligned_be32(0x01020304, r->b + 8);
	r->len = HDR_LEN;
}

/* An attribute whose header says LEN, followed by VLEN value bytes. */
static void raw_attr(struct raw *r, u16 type, u16 len, const void *v,
		     size_t vlen, bool pad)
{
	put_unaligned_be16(type, r->b + r->len);
	put_unaligned_be16(len, r->b + r->len + 2);
	memcpy(r->b + r->len + 4, v, vlen);
	r->len += 4 + vlen;
	if (pad)
		r->len = ETHEREAL_SIG_ALIGN(r->len);
}

/* The header's length: what was written so far. */
static size_t raw_end(struct raw *r)
{
	put_unaligned_be16((u16)r->len, r->b + 2);
	return r->len;
}

static const u8 reason_v[2] = { 0x00, ETHEREAL_SIG_R_REQUESTED };

TEST(wire_format)
{
	struct ethereal_sig_msg m;
	u8 buf[ETHEREAL_SIG_MAX_LEN];

	ASSERT_EQ(ETHEREAL_SIG_OK, parse_exact(setup_wire, sizeof(setup_wire), &m));
	EXPECT_EQ(ETHEREAL_SIG_SETUP, m.type);
	EXPECT_EQ(0, m.flags);
	EXPECT_EQ(0x0309, m.conn_id);
	EXPECT_EQ(0xdeadbeef, m.cookie);
	EXPECT_EQ(ETHEREAL_SIG_SETUP_NEEDS, m.present);
	EXPECT_EQ(htonl(0xc0a80a02), m.daddr);
	EXPECT_EQ(5001, m.dport);
	EXPECT_EQ(50000000ULL, m.rate);
	EXPECT_EQ(62500U, m.burst);
	EXPECT_EQ(1514U, m.max_pkt);

	/* Flags zero, padding zero: the same bytes back. */
	ASSERT_EQ(sizeof(setup_wire), ethereal_sig_build(buf, sizeof(buf), &m));
	EXPECT_EQ(0, memcmp(setup_wire, buf, sizeof(setup_wire)));

	ASSERT_EQ(ETHEREAL_SIG_OK,
		  parse_exact(teardown_wire, sizeof(teardown_wire), &m));
	EXPECT_EQ(ETHEREAL_SIG_TEARDOWN, m.type);
	EXPECT_EQ(ETHEREAL_SIG_F_REVERSE, m.flags);
	EXPECT_EQ(ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON), m.present);
	EXPECT_EQ(ETHEREAL_SIG_R_LINK_DOWN, m.reason);
	/* built, the reason gets its padding */
	ASSERT_EQ(sizeof(teardown_wire) + 2, ethereal_sig_build(buf, sizeof(buf), &m));
	EXPECT_EQ(0, memcmp(teardown_wire, buf, 2));
	EXPECT_EQ(sizeof(teardown_wire) + 2, get_unaligned_be16(buf + 2));
	EXPECT_EQ(0, memcmp(teardown_wire + 4, buf + 4, sizeof(teardown_wire) - 4));
	EXPECT_EQ(0, buf[sizeof(teardown_wire)] | buf[sizeof(teardown_wire) + 1]);
}

/*
 * A first switch's ACCEPT to its host, by hand: lifetime 30 s, 3 hops, and
 * FEATURES offering the refresh ack; then the ack itself, a REFRESH with
 * F_REVERSE and the lifetime.
 */
static const u8 accept_wire[] = {
	0x01, 0x02, 0x00, 0x24, 0x03, 0x09, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef,
	0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x75, 0x30,
	0x00, 0x09, 0x00, 0x05, 0x03, 0x00, 0x00, 0x00,
	0x00, 0x0a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01,
};

static const u8 refresh_ack_wire[] = {
	0x01, 0x05, 0x00, 0x14, 0x03, 0x09, 0x00, 0x01, 0xde, 0xad, 0xbe, 0xef,
	0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x75, 0x30,
};

TEST(features_and_refresh_ack)
{
	struct ethereal_sig_msg m;
	u8 buf[ETHEREAL_SIG_MAX_LEN];

	ASSERT_EQ(ETHEREAL_SIG_OK, parse_exact(accept_wire, sizeof(accept_wire), &m));
	EXPECT_EQ(ETHEREAL_SIG_ACCEPT, m.type);
	EXPECT_EQ(ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME) | ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOPS) |
		  ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_FEATURES), m.present);
	EXPECT_EQ(30000U, m.lifetime);
	EXPECT_EQ(3, m.hops);
	EXPECT_EQ(ETHEREAL_SIG_FEAT_REFRESH_ACK, m.features);
	ASSERT_EQ(sizeof(accept_wire), ethereal_sig_build(buf, sizeof(buf), &m));
	EXPECT_EQ(0, memcmp(accept_wire, buf, sizeof(accept_wire)));

	ASSERT_EQ(ETHEREAL_SIG_OK,
		  parse_exact(refresh_ack_wire, sizeof(refresh_ack_wire), &m));
	EXPECT_EQ(ETHEREAL_SIG_REFRESH, m.type);
	EXPECT_EQ(ETHEREAL_SIG_F_REVERSE, m.flags);
	EXPECT_EQ(ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_LIFETIME), m.present);
	EXPECT_EQ(30000U, m.lifetime);
	ASSERT_EQ(sizeof(refresh_ack_wire), ethereal_sig_build(buf, sizeof(buf), &m));
	EXPECT_EQ(0, memcmp(refresh_ack_wire, buf, sizeof(refresh_ack_wire)));
}

TEST(hello_by_hand)
{
	static const u8 id[6] = { 0x02, 0xe7, 0x00, 0x00, 0x0e, 0x03 };
	struct ethereal_sig_msg m;
	u8 buf[ETHEREAL_SIG_MAX_LEN];

	ASSERT_EQ(ETHEREAL_SIG_OK, parse_exact(hello_wire, sizeof(hello_wire), &m));
	EXPECT_EQ(ETHEREAL_SIG_HELLO, m.type);
	EXPECT_EQ(ETHEREAL_SIG_HELLO_NEEDS, m.present);
	EXPECT_EQ(0, memcmp(id, m.switch_id, sizeof(id)));
	ASSERT_EQ(sizeof(hello_wire), ethereal_sig_build(buf, sizeof(buf), &m));
	EXPECT_EQ(0, memcmp(hello_wire, buf, sizeof(hello_wire)));
	/* Without its switch it says nothing. */
	m.present = 0;
	ASSERT_EQ(HDR_LEN, ethereal_sig_build(buf, sizeof(buf), &m));
	EXPECT_EQ(ETHEREAL_SIG_E_MISSING, parse_exact(buf, HDR_LEN, &m));
}

/* A_AUTH is the last attribute built, and parse says where its value is. */
TEST(auth_last_and_located)
{
	struct ethereal_sig_msg in = full_msg(ETHEREAL_SIG_REFRESH), out;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	size_t len;

	len = ethereal_sig_build(buf, sizeof(buf), &in);
	ASSERT_EQ(FULL_LEN, len);
	ASSERT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out));
	EXPECT_EQ(len - 24, out.auth_off);
	EXPECT_EQ(ETHEREAL_SIG_A_AUTH, get_unaligned_be16(buf + len - 28));
	EXPECT_EQ(0x11, buf[out.auth_off]);
	EXPECT_EQ(0, memcmp(in.auth_mac, buf + len - 16, sizeof(in.auth_mac)));
}

TEST(round_trip_every_type_all_attributes)
{
	struct ethereal_sig_msg in, out;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	unsigned int type;
	size_t len;

	for (type = ETHEREAL_SIG_SETUP; type < __ETHEREAL_SIG_TYPE_MAX; type++) {
		in = full_msg(type);
		memset(buf, 0xa5, sizeof(buf));
		len = ethereal_sig_build(buf, sizeof(buf), &in);
		EXPECT_EQ(FULL_LEN, len) TH_LOG("type %u", type);
		EXPECT_EQ(ETHEREAL_SIG_VERSION, buf[0]);
		EXPECT_EQ(type, buf[1]);
		EXPECT_EQ(len, get_unaligned_be16(buf + 2));
		EXPECT_EQ(ETHEREAL_SIG_F_REVERSE, get_unaligned_be16(buf + 6));
		EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out))
			TH_LOG("type %u", type);
		expect_same(_metadata, &in, &out);
	}
}

/* Every type with every subset of attributes. */
TEST(round_trip_every_subset)
{
	struct ethereal_sig_msg full, in, out;
	enum ethereal_sig_err want, err;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	unsigned int type, a;
	size_t len, want_len;
	u32 set;

	for (type = ETHEREAL_SIG_SETUP; type < __ETHEREAL_SIG_TYPE_MAX; type++) {
		full = full_msg(type);
		for (set = 0; set <= ALL_ATTRS; set += 2) {
			in = only(&full, set);
			want_len = HDR_LEN;
			for (a = 1; a <= ETHEREAL_SIG_A_MAX; a++)
				if (set & ETHEREAL_SIG_BIT(a))
					want_len += 4 + ETHEREAL_SIG_ALIGN(attr_size[a]);
			want = ETHEREAL_SIG_OK;
			if ((type == ETHEREAL_SIG_SETUP &&
			     (set & ETHEREAL_SIG_SETUP_NEEDS) != ETHEREAL_SIG_SETUP_NEEDS) ||
			    (type == ETHEREAL_SIG_REJECT &&
			     !(set & ETHEREAL_SIG_REJECT_NEEDS)) ||
			    (type == ETHEREAL_SIG_HELLO &&
			     !(set & ETHEREAL_SIG_HELLO_NEEDS)))
				want = ETHEREAL_SIG_E_MISSING;

			len = ethereal_sig_build(buf, sizeof(buf), &in);
			ASSERT_EQ(want_len, len) TH_LOG("type %u set %#x", type, set);
			err = parse_exact(buf, len, &out);
			ASSERT_EQ(want, err) TH_LOG("type %u set %#x", type, set);
			if (err == ETHEREAL_SIG_OK)
				expect_same(_metadata, &in, &out);
		}
	}
}

TEST(setup_missing_each_required_attribute)
{
	struct ethereal_sig_msg in, out;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	unsigned int a;
	size_t len;

	for (a = 1; a <= ETHEREAL_SIG_A_MAX; a++) {
		if (!(ETHEREAL_SIG_SETUP_NEEDS & ETHEREAL_SIG_BIT(a)))
			continue;
		in = full_msg(ETHEREAL_SIG_SETUP);
		in.present &= ~ETHEREAL_SIG_BIT(a);
		len = ethereal_sig_build(buf, sizeof(buf), &in);
		ASSERT_NE(0, len);
		EXPECT_EQ(ETHEREAL_SIG_E_MISSING, parse_exact(buf, len, &out))
			TH_LOG("without attribute %u", a);
	}
	/* The five are what SETUP needs: the optional ones may go. */
	in = full_msg(ETHEREAL_SIG_SETUP);
	in = only(&in, ETHEREAL_SIG_SETUP_NEEDS);
	len = ethereal_sig_build(buf, sizeof(buf), &in);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out));
}

TEST(reject_needs_reason_others_need_nothing)
{
	struct ethereal_sig_msg in = { .conn_id = 0x0309 }, out;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	size_t len;

	in.type = ETHEREAL_SIG_REJECT;
	in.present = ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_HOP);
	len = ethereal_sig_build(buf, sizeof(buf), &in);
	EXPECT_EQ(ETHEREAL_SIG_E_MISSING, parse_exact(buf, len, &out));
	in.present |= ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON);
	in.reason = ETHEREAL_SIG_R_BANDWIDTH;
	len = ethereal_sig_build(buf, sizeof(buf), &in);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out));
	EXPECT_EQ(ETHEREAL_SIG_R_BANDWIDTH, out.reason);

	in.present = 0;
	in.type = ETHEREAL_SIG_ACCEPT;
	len = ethereal_sig_build(buf, sizeof(buf), &in);
	EXPECT_EQ(HDR_LEN, len);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out));
	in.type = ETHEREAL_SIG_TEARDOWN;
	len = ethereal_sig_build(buf, sizeof(buf), &in);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out));
	in.type = ETHEREAL_SIG_REFRESH;
	len = ethereal_sig_build(buf, sizeof(buf), &in);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, len, &out));
}

/* Cut short in flight: the header still claims the whole message. */
TEST(truncated_at_every_length)
{
	struct ethereal_sig_msg m;
	size_t l;

	for (l = 0; l < sizeof(setup_wire); l++)
		EXPECT_EQ(ETHEREAL_SIG_E_SHORT, parse_exact(setup_wire, l, &m))
			TH_LOG("%zu bytes", l);
}

/* Cut short by its sender: the header agrees, the attributes do not fit. */
TEST(consistent_length_cut_at_every_length)
{
	struct ethereal_sig_msg m;
	enum ethereal_sig_err err;
	u8 buf[sizeof(setup_wire)];
	size_t l;

	for (l = HDR_LEN; l < sizeof(setup_wire); l++) {
		memcpy(buf, setup_wire, l);
		put_unaligned_be16((u16)l, buf + 2);
		err = parse_exact(buf, l, &m);
		EXPECT_TRUE(err == ETHEREAL_SIG_E_ATTR || err == ETHEREAL_SIG_E_MISSING)
			TH_LOG("%zu bytes: error %d", l, err);
	}
}

TEST(length_field_against_datagram)
{
	struct ethereal_sig_msg m;
	u8 buf[ETHEREAL_SIG_MAX_LEN + 1];

	memset(buf, 0, sizeof(buf));
	memcpy(buf, setup_wire, sizeof(setup_wire));
	/* longer than what arrived */
	put_unaligned_be16(sizeof(setup_wire) + 1, buf + 2);
	EXPECT_EQ(ETHEREAL_SIG_E_SHORT, parse_exact(buf, sizeof(setup_wire), &m));
	put_unaligned_be16(0xffff, buf + 2);
	EXPECT_EQ(ETHEREAL_SIG_E_SHORT, parse_exact(buf, sizeof(setup_wire), &m));
	/* shorter than the header it is part of */
	put_unaligned_be16(HDR_LEN - 1, buf + 2);
	EXPECT_EQ(ETHEREAL_SIG_E_SHORT, parse_exact(buf, sizeof(setup_wire), &m));
	put_unaligned_be16(0, buf + 2);
	EXPECT_EQ(ETHEREAL_SIG_E_SHORT, parse_exact(buf, sizeof(setup_wire), &m));
}

TEST(trailing_padding_is_ignored)
{
	struct ethereal_sig_msg m;
	u8 buf[ETHEREAL_SIG_MAX_LEN + 1];

	/* Bytes that would be a bad attribute, were they read. */
	memset(buf, 0xff, sizeof(buf));
	memcpy(buf, setup_wire, sizeof(setup_wire));
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, sizeof(setup_wire) + 8, &m));
	EXPECT_EQ(1514U, m.max_pkt);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, sizeof(setup_wire) + 1, &m));
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(buf, ETHEREAL_SIG_MAX_LEN, &m));
	EXPECT_EQ(ETHEREAL_SIG_E_LONG,
		  parse_exact(buf, ETHEREAL_SIG_MAX_LEN + 1, &m));
}

TEST(too_long)
{
	struct ethereal_sig_msg m;
	struct raw r;
	u8 big[1500];

	memset(big, 0, sizeof(big));
	/* A well-formed message of 260 bytes: a long unknown attribute. */
	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, 200, 4 + 244, big, 244, true);
	ASSERT_EQ(ETHEREAL_SIG_MAX_LEN + 4, raw_end(&r));
	EXPECT_EQ(ETHEREAL_SIG_E_LONG, parse_exact(r.b, r.len, &m));

	memcpy(big, setup_wire, sizeof(setup_wire));
	EXPECT_EQ(ETHEREAL_SIG_E_LONG, parse_exact(big, sizeof(big), &m));
}

TEST(bad_version)
{
	static const u8 versions[] = { 0, 2, 0xff };
	struct ethereal_sig_msg m;
	u8 buf[sizeof(setup_wire)];
	unsigned int i;

	memcpy(buf, setup_wire, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		buf[0] = versions[i];
		EXPECT_EQ(ETHEREAL_SIG_E_VERSION, parse_exact(buf, sizeof(buf), &m))
			TH_LOG("version %u", versions[i]);
	}
}

TEST(bad_type)
{
	static const u8 types[] = { 0, __ETHEREAL_SIG_TYPE_MAX, 0x80, 0xff };
	struct ethereal_sig_msg m;
	u8 buf[sizeof(setup_wire)];
	unsigned int i;

	memcpy(buf, setup_wire, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		buf[1] = types[i];
		EXPECT_EQ(ETHEREAL_SIG_E_TYPE, parse_exact(buf, sizeof(buf), &m))
			TH_LOG("type %u", types[i]);
	}
}

TEST(attribute_shorter_than_its_header)
{
	const u8 v[4] = { 0 };
	struct ethereal_sig_msg m;
	struct raw r;
	u16 len;

	/* 0 would also never advance: the parser must not loop on it. */
	for (len = 0; len < 4; len++) {
		raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
		raw_attr(&r, ETHEREAL_SIG_A_REASON, len, v, 4, true);
		raw_end(&r);
		EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m))
			TH_LOG("len %u", len);
		raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
		raw_attr(&r, 200, len, v, 4, true);
		raw_end(&r);
		EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m))
			TH_LOG("unknown, len %u", len);
	}
}

TEST(attribute_header_cut)
{
	struct ethereal_sig_msg m;
	struct raw r;

	/* Two bytes of an attribute header after the message header. */
	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	r.len += 2;
	raw_end(&r);
	EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m));
}

TEST(attribute_overruns_message)
{
	struct ethereal_sig_msg m;
	u8 v[16] = { 0 };
	struct raw r;

	/* by one byte, known attribute, last in the message */
	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, ETHEREAL_SIG_A_REASON, 6, reason_v, 1, false);
	raw_end(&r);
	EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m));

	/* unknown attribute, past the header's length into the datagram */
	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, 200, 20, v, 8, true);
	raw_end(&r);
	EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len + 16, &m));

	/* the largest length there is */
	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, 200, 0xffff, v, 8, true);
	raw_end(&r);
	EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m));
}

TEST(known_attribute_of_wrong_size)
{
	struct ethereal_sig_msg m;
	u8 v[12] = { 0 };
	unsigned int a, size;
	struct raw r;

	for (a = 1; a <= ETHEREAL_SIG_A_MAX; a++) {
		for (size = 0; size <= 9; size++) {
			if (size == attr_size[a])
				continue;
			raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
			raw_attr(&r, a, 4 + size, v, size, true);
			raw_end(&r);
			EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m))
				TH_LOG("attribute %u, %u bytes", a, size);
		}
	}
}

TEST(repeated_attribute)
{
	struct ethereal_sig_msg m;
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	struct raw r;

	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, ETHEREAL_SIG_A_REASON, 6, reason_v, 2, true);
	raw_attr(&r, ETHEREAL_SIG_A_REASON, 6, reason_v, 2, true);
	raw_end(&r);
	EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(r.b, r.len, &m));

	/* DPORT again at the end of a valid SETUP */
	memcpy(buf, setup_wire, sizeof(setup_wire));
	memcpy(buf + sizeof(setup_wire), setup_wire + 20, 8);
	put_unaligned_be16(sizeof(setup_wire) + 8, buf + 2);
	EXPECT_EQ(ETHEREAL_SIG_E_ATTR, parse_exact(buf, sizeof(setup_wire) + 8, &m));
}

TEST(unknown_attribute_is_skipped)
{
	static const u16 types[] = { ETHEREAL_SIG_A_MAX + 1, 200, 0xffff };
	u8 v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ethereal_sig_msg m;
	unsigned int i, size;
	struct raw r;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		for (size = 0; size <= 8; size++) {
			/* before a known one: its padding must be skipped too */
			raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_REJECT);
			raw_attr(&r, types[i], 4 + size, v, size, true);
			raw_attr(&r, ETHEREAL_SIG_A_REASON, 6, reason_v, 2, true);
			raw_end(&r);
			EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(r.b, r.len, &m))
				TH_LOG("type %u, %u bytes", types[i], size);
			EXPECT_EQ(ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON), m.present);
			EXPECT_EQ(ETHEREAL_SIG_R_REQUESTED, m.reason);
		}
	}

	/* and last, unpadded */
	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, 200, 9, v, 5, false);
	raw_end(&r);
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(r.b, r.len, &m));
	EXPECT_EQ(0, m.present);
}

TEST(last_attribute_without_padding)
{
	struct ethereal_sig_msg m;
	const u8 hop = 7;
	struct raw r;

	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_TEARDOWN);
	raw_attr(&r, ETHEREAL_SIG_A_REASON, 6, reason_v, 2, false);
	ASSERT_EQ(HDR_LEN + 6, raw_end(&r));
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(r.b, r.len, &m));
	EXPECT_EQ(ETHEREAL_SIG_R_REQUESTED, m.reason);

	raw_hdr(&r, ETHEREAL_SIG_VERSION, ETHEREAL_SIG_REJECT);
	raw_attr(&r, ETHEREAL_SIG_A_REASON, 6, reason_v, 2, true);
	raw_attr(&r, ETHEREAL_SIG_A_HOP, 5, &hop, 1, false);
	ASSERT_EQ(HDR_LEN + 8 + 5, raw_end(&r));
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(r.b, r.len, &m));
	EXPECT_EQ(7, m.hop);
	/* and with the datagram padded after it */
	EXPECT_EQ(ETHEREAL_SIG_OK, parse_exact(r.b, r.len + 3, &m));
	EXPECT_EQ(7, m.hop);
}

TEST(build_into_too_small_buffer)
{
	struct ethereal_sig_msg in = full_msg(ETHEREAL_SIG_SETUP);
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	size_t i;

	memset(buf, 0xa5, sizeof(buf));
	EXPECT_EQ(0, ethereal_sig_build(buf, 0, &in));
	EXPECT_EQ(0, ethereal_sig_build(buf, HDR_LEN, &in));
	EXPECT_EQ(0, ethereal_sig_build(buf, FULL_LEN - 1, &in));
	/* nothing written when it does not fit */
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(0xa5, buf[i]) TH_LOG("byte %zu", i);
	EXPECT_EQ(FULL_LEN, ethereal_sig_build(buf, FULL_LEN, &in));

	in.present = 0;
	EXPECT_EQ(0, ethereal_sig_build(buf, HDR_LEN - 1, &in));
	EXPECT_EQ(HDR_LEN, ethereal_sig_build(buf, HDR_LEN, &in));
}

TEST(names)
{
	const char *a, *b;
	unsigned int i, j;

	EXPECT_STREQ("setup", ethereal_sig_type_name(ETHEREAL_SIG_SETUP));
	EXPECT_STREQ("accept", ethereal_sig_type_name(ETHEREAL_SIG_ACCEPT));
	EXPECT_STREQ("reject", ethereal_sig_type_name(ETHEREAL_SIG_REJECT));
	EXPECT_STREQ("teardown", ethereal_sig_type_name(ETHEREAL_SIG_TEARDOWN));
	EXPECT_STREQ("refresh", ethereal_sig_type_name(ETHEREAL_SIG_REFRESH));
	EXPECT_STREQ("hello", ethereal_sig_type_name(ETHEREAL_SIG_HELLO));
	EXPECT_STREQ("proceeding", ethereal_sig_type_name(ETHEREAL_SIG_PROCEEDING));
	EXPECT_STREQ("unknown", ethereal_sig_type_name(0));
	EXPECT_STREQ("unknown", ethereal_sig_type_name(__ETHEREAL_SIG_TYPE_MAX));
	EXPECT_STREQ("unknown", ethereal_sig_type_name(~0U));

	EXPECT_STREQ("none", ethereal_sig_reason_name(ETHEREAL_SIG_R_NONE));
	EXPECT_STREQ("bandwidth", ethereal_sig_reason_name(ETHEREAL_SIG_R_BANDWIDTH));
	EXPECT_STREQ("link-down", ethereal_sig_reason_name(ETHEREAL_SIG_R_LINK_DOWN));
	EXPECT_STREQ("requested", ethereal_sig_reason_name(ETHEREAL_SIG_R_REQUESTED));
	EXPECT_STREQ("removed", ethereal_sig_reason_name(ETHEREAL_SIG_R_REMOVED));
	EXPECT_STREQ("unknown", ethereal_sig_reason_name(ETHEREAL_SIG_R_MAX + 1));
	EXPECT_STREQ("unknown", ethereal_sig_reason_name(~0U));
	/* Every reason named, once, as one word: tools print key=NAME. */
	for (i = 0; i <= ETHEREAL_SIG_R_MAX; i++) {
		a = ethereal_sig_reason_name(i);
		ASSERT_NE(NULL, a) TH_LOG("reason %u", i);
		EXPECT_STRNE("unknown", a);
		EXPECT_EQ(NULL, strpbrk(a, " =\t")) TH_LOG("'%s'", a);
		for (j = 0; j < i; j++) {
			b = ethereal_sig_reason_name(j);
			EXPECT_STRNE(a, b);
		}
		/* And explained: rtcd passes the text on to applications. */
		EXPECT_STRNE("a reason this version does not know",
			     ethereal_sig_reason_text(i)) TH_LOG("reason %u", i);
	}
	EXPECT_STREQ("bad attribute", ethereal_sig_err_name(ETHEREAL_SIG_E_ATTR));
	EXPECT_STREQ("too short", ethereal_sig_err_name(ETHEREAL_SIG_E_SHORT));
	EXPECT_STREQ("required attribute missing", ethereal_sig_err_name(ETHEREAL_SIG_E_MISSING));
	EXPECT_STREQ("unknown error", ethereal_sig_err_name((enum ethereal_sig_err)99));
	EXPECT_STREQ("a link of the path went down",
		     ethereal_sig_reason_text(ETHEREAL_SIG_R_LINK_DOWN));
	EXPECT_STREQ("a reason this version does not know",
		     ethereal_sig_reason_text(ETHEREAL_SIG_R_MAX + 1));
}

/* xorshift32: the same "random" messages on every run. */
static u32 next(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * Valid messages with a few bytes changed, at random datagram lengths:
 * no crash, and whatever is accepted builds back into a message that
 * parses the same.
 */
TEST(mutated_messages)
{
	struct ethereal_sig_msg in = full_msg(ETHEREAL_SIG_REJECT), m, m2;
	u8 base[2 * ETHEREAL_SIG_MAX_LEN], buf[ETHEREAL_SIG_MAX_LEN + 16], out[sizeof(buf)];
	size_t blen[2], len, olen;
	unsigned int i, k, n, ok = 0;
	u32 seed = 0x5eed;

	blen[0] = sizeof(setup_wire);
	blen[1] = ethereal_sig_build(base + ETHEREAL_SIG_MAX_LEN, ETHEREAL_SIG_MAX_LEN, &in);
	ASSERT_EQ(FULL_LEN, blen[1]);
	memcpy(base, setup_wire, sizeof(setup_wire));

	for (i = 0; i < 200000; i++) {
		k = i & 1;
		memset(buf, 0, sizeof(buf));
		memcpy(buf, base + ETHEREAL_SIG_MAX_LEN * k, blen[k]);
		for (n = next(&seed) % 4 + 1; n; n--)
			buf[next(&seed) % blen[k]] = (u8)next(&seed);
		len = next(&seed) % 4 ? blen[k] : next(&seed) % sizeof(buf);
		if (parse_exact(buf, len, &m) != ETHEREAL_SIG_OK)
			continue;
		ok++;
		olen = ethereal_sig_build(out, sizeof(out), &m);
		ASSERT_NE(0, olen) TH_LOG("iteration %u", i);
		ASSERT_EQ(ETHEREAL_SIG_OK, parse_exact(out, olen, &m2))
			TH_LOG("iteration %u", i);
		expect_same(_metadata, &m, &m2);
		if (!_metadata->passed) {
			TH_LOG("iteration %u", i);
			break;
		}
	}
	/* Values changed within attributes keep most of them valid. */
	EXPECT_LT(1000U, ok);
}

TEST_HARNESS_MAIN
