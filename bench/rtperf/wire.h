/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The header rtperf puts at the start of every datagram's payload, in
 * network byte order (the rest of the payload is zeros):
 *
 *	0	magic	"RTPF"
 *	4	u16	version (1)
 *	6	u16	reserved, 0
 *	8	u32	flow id (rtperf send -f), to tell senders apart
 *	12	u64	sequence number, from 0
 *	20	u64	send time, CLOCK_REALTIME ns, taken right before send()
 *	28
 *
 * Fields are copied byte-wise: they are not aligned.
 */
#ifndef RTPERF_WIRE_H
#define RTPERF_WIRE_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RTPERF_MAGIC	0x52545046u	/* "RTPF" */
#define RTPERF_VERSION	1
#define RTPERF_HDR_LEN	28

struct rtperf_hdr {
	uint32_t flow;
	uint64_t seq;
	uint64_t tx_ns;
};

static inline void rtperf_hdr_put(void *buf, const struct rtperf_hdr *h)
{
	uint32_t magic = htobe32(RTPERF_MAGIC), flow = htobe32(h->flow);
	uint16_t version = htobe16(RTPERF_VERSION), zero = 0;
	uint64_t seq = htobe64(h->seq), tx = htobe64(h->tx_ns);
	unsigned char *p = buf;

	memcpy(p, &magic, 4);
	memcpy(p + 4, &version, 2);
	memcpy(p + 6, &zero, 2);
	memcpy(p + 8, &flow, 4);
	memcpy(p + 12, &seq, 8);
	memcpy(p + 20, &tx, 8);
}

/* 0, or -1 when BUF is not an rtperf datagram of this version. */
static inline int rtperf_hdr_get(const void *buf, size_t len, struct rtperf_hdr *h)
{
	const unsigned char *p = buf;
	uint32_t magic, flow;
	uint16_t version;
	uint64_t seq, tx;

	if (len < RTPERF_HDR_LEN)
		return -1;
	memcpy(&magic, p, 4);
	memcpy(&version, p + 4, 2);
	if (be32toh(magic) != RTPERF_MAGIC || be16toh(version) != RTPERF_VERSION)
		return -1;
	memcpy(&flow, p + 8, 4);
	memcpy(&seq, p + 12, 8);
	memcpy(&tx, p + 20, 8);
	h->flow = be32toh(flow);
	h->seq = be64toh(seq);
	h->tx_ns = be64toh(tx);
	return 0;
}

#endif
