/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The header rtperf puts at the start of every datagram's payload, in
 * network byte order (the rest of the payload is zeros). Version 2, what
 * rtperf send writes, is 18 bytes, so that a datagram makes a 64-byte
 * Ethernet frame (18 + 42 + 4 bytes of FCS), the smallest of RFC 2544:
 *
 *	0	u8	'R'
 *	1	u8	version (2)
 *	2	u16	flow id (rtperf send -f), to tell senders apart
 *	4	u32	sequence number, from 0 (a flow of 2^32 datagrams wraps)
 *	8	u48	intended send time: when the application meant to send
 *		it (its schedule), CLOCK_REALTIME ns modulo 2^48
 *	14	u32	socket send time - intended send time, ns (taken right
 *		before the send(2) that went out, after any wait in a
 *		shaper such as librttr's), saturating at 2^32 - 1
 *	18
 *
 * Both times are modulo 2^48 ns (78 hours): the receiver restores them
 * from its own receive time, which is within a few seconds of them. The
 * two stamps separate what the host held a datagram back (librttr's
 * shaping, a full socket queue) from what the network did: delay from the
 * intended time is the application's, from the socket time the network's.
 *
 * Version 1 (28 bytes, one stamp) is still read: magic "RTPF", u16 version
 * 1, u16 0, u32 flow, u64 sequence, u64 send time (after the shaper's
 * wait); its intended time is taken as its send time. The first byte of
 * both is 'R', the second tells them apart ('T' or 2).
 *
 * Fields are copied byte-wise: they are not aligned.
 */
#ifndef RTPERF_WIRE_H
#define RTPERF_WIRE_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RTPERF_MAGIC	0x52545046u	/* "RTPF", version 1 */
#define RTPERF_VERSION	2
#define RTPERF_HDR_LEN	18
#define RTPERF_HDR_LEN_V1 28
#define RTPERF_STAMP_BITS 48
#define RTPERF_STAMP_MOD (1ULL << RTPERF_STAMP_BITS)

struct rtperf_hdr {
	uint32_t flow;
	uint64_t seq;
	uint64_t sched_ns;	/* intended send time, CLOCK_REALTIME */
	uint64_t tx_ns;		/* socket send time, CLOCK_REALTIME */
	int version;
};

static inline void rtperf_hdr_put(void *buf, const struct rtperf_hdr *h)
{
	uint16_t flow = htobe16((uint16_t)h->flow);
	uint32_t seq = htobe32((uint32_t)h->seq);
	uint64_t sched = htobe64(h->sched_ns % RTPERF_STAMP_MOD);
	uint64_t d = h->tx_ns > h->sched_ns ? h->tx_ns - h->sched_ns : 0;
	uint32_t dt = htobe32(d > UINT32_MAX ? UINT32_MAX : (uint32_t)d);
	unsigned char *p = buf;

	p[0] = 'R';
	p[1] = RTPERF_VERSION;
	memcpy(p + 2, &flow, 2);
	memcpy(p + 4, &seq, 4);
	/* the low 6 bytes of the big-endian u64 */
	memcpy(p + 8, (unsigned char *)&sched + 2, 6);
	memcpy(p + 14, &dt, 4);
}

/*
 * A 48-bit stamp as a full CLOCK_REALTIME time, from a receive time RX
 * within 2^47 ns (39 hours) of it, before or after.
 */
static inline uint64_t rtperf_stamp_unwrap(uint64_t stamp48, uint64_t rx)
{
	uint64_t back = (rx - stamp48) % RTPERF_STAMP_MOD;

	if (back >= RTPERF_STAMP_MOD / 2)	/* stamped after RX: a clock step */
		return rx + (RTPERF_STAMP_MOD - back);
	return rx - back;
}

/*
 * 0, or -1 when BUF is not an rtperf datagram (version 1 or 2). RX, the
 * receive time (CLOCK_REALTIME ns), restores version 2's short stamps.
 */
static inline int rtperf_hdr_get(const void *buf, size_t len, uint64_t rx,
				 struct rtperf_hdr *h)
{
	const unsigned char *p = buf;

	if (len >= RTPERF_HDR_LEN && p[0] == 'R' && p[1] == RTPERF_VERSION) {
		uint64_t sched = 0;
		uint32_t seq, dt;
		uint16_t flow;

		memcpy(&flow, p + 2, 2);
		memcpy(&seq, p + 4, 4);
		memcpy((unsigned char *)&sched + 2, p + 8, 6);
		memcpy(&dt, p + 14, 4);
		h->flow = be16toh(flow);
		h->seq = be32toh(seq);
		h->sched_ns = rtperf_stamp_unwrap(be64toh(sched), rx);
		h->tx_ns = h->sched_ns + be32toh(dt);
		h->version = 2;
		return 0;
	}
	if (len >= RTPERF_HDR_LEN_V1) {
		uint32_t magic, flow;
		uint16_t version;
		uint64_t seq, tx;

		memcpy(&magic, p, 4);
		memcpy(&version, p + 4, 2);
		if (be32toh(magic) != RTPERF_MAGIC || be16toh(version) != 1)
			return -1;
		memcpy(&flow, p + 8, 4);
		memcpy(&seq, p + 12, 8);
		memcpy(&tx, p + 20, 8);
		h->flow = be32toh(flow);
		h->seq = be64toh(seq);
		h->tx_ns = h->sched_ns = be64toh(tx);
		h->version = 1;
		return 0;
	}
	return -1;
}

#endif
