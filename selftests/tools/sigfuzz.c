// SPDX-License-Identifier: GPL-2.0
/*
 * sigfuzz: mutated signaling frames at a switch port.
 *
 *   sigfuzz IFACE COUNT [SEED [PPS]]
 *
 * Sends COUNT Ethernet frames out of IFACE (a packet socket: no stack in
 * the way) to the signaling MAC FF:FF:FF:FF:00:01, at PPS a second (0, the
 * default: as fast as it can). Most are IPv4/UDP datagrams to the switch's
 * signaling port with valid checksums, carrying a message of a random type
 * whose attributes take edge values (0, 1, the bounds and one past them,
 * 2^32, 2^63, 2^64-1) or random ones, built with the switch's own encoder
 * (sigmsg.c) and then, most of the time, mutated: bits flipped, bytes
 * overwritten, cut short, or grown with garbage. The rest break the
 * headers: another EtherType, a bad IPv4 or UDP checksum, a fragment,
 * lengths that lie. The source addresses are IFACE's own (MAC, IPv4), so
 * that a host port's switch gets past its anti-spoofing check.
 *
 * Every HELLO_EVERY-th frame, the first among them, is a clean HELLO from
 * switch 02:e7:ff:00:00:01: on a trunk, the fuzzer is then the switch at
 * its other end, and what follows reaches the message handlers instead of
 * being dropped as a stranger's.
 *
 * Prints "sent=N seed=S". The switch must count each frame exactly once:
 * rx, drop_malformed, drop_ratelimit or drop_backlog.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/ethereal.h>

#include "clock.h"
#include "fuzz.h"
#include "packet.h"
#include "sigmsg.h"

#define CTL_IP	"198.18.0.1"
#define HELLO_EVERY 1000

/* A message of a random type, its attributes at edges, encoded. */
static size_t message(uint8_t *buf, size_t size)
{
	struct ethereal_sig_msg m = {
		.type = (uint8_t)edge(8, ETHEREAL_SIG_SETUP, __ETHEREAL_SIG_TYPE_MAX - 1),
		.flags = (uint16_t)(below(2) ? ETHEREAL_SIG_F_REVERSE : edge(16, 0, 1)),
		.conn_id = (uint16_t)edge(16, ETHEREAL_ID_MIN, ETHEREAL_ID_MAX),
		.cookie = (uint32_t)rnd(),
		.present = (uint32_t)(below(2) ? ETHEREAL_SIG_SETUP_NEEDS | rnd() : rnd()),
		.daddr = below(2) ? inet_addr("10.0.0.2") : (uint32_t)rnd(),
		.dport = (uint16_t)edge(16, 1, 65535),
		.rate = edge(64, ETHEREAL_RATE_MIN, ETHEREAL_RATE_MAX),
		.burst = (uint32_t)edge(32, 60, 65535),
		.max_pkt = (uint32_t)edge(32, ETHEREAL_MAX_PKT_MIN, ETHEREAL_MAX_PKT_MAX),
		.reason = (uint16_t)edge(16, 1, ETHEREAL_SIG_R_MAX),
		.hop = (uint8_t)edge(8, 1, 254),
		.lifetime = (uint32_t)edge(32, ETHEREAL_LIFETIME_MIN_MS, ETHEREAL_LIFETIME_MAX_MS),
		.hops = (uint8_t)edge(8, 1, 254),
		.features = (uint32_t)rnd(),
		.auth_seq = edge(64, 0, UINT64_MAX),
		.challenge = edge(64, 0, UINT64_MAX),
		.response = edge(64, 0, UINT64_MAX),
		.delay = edge(64, 0, UINT64_MAX),
		.max_delay = edge(64, 0, UINT64_MAX),
	};
	uint64_t id = rnd();

	memcpy(m.switch_id, &id, sizeof(m.switch_id));

	/* Only the attributes the format knows: the encoder writes no others. */
	m.present &= (1U << (ETHEREAL_SIG_A_MAX + 1)) - 2;
	return ethereal_sig_build(buf, size, &m);
}

/* The HELLO that makes the fuzzer the switch at a trunk's other end. */
static size_t hello(uint8_t *buf, size_t size)
{
	struct ethereal_sig_msg m = {
		.type = ETHEREAL_SIG_HELLO,
		.present = ETHEREAL_SIG_HELLO_NEEDS,
		.switch_id = { 0x02, 0xe7, 0xff, 0x00, 0x00, 0x01 },
	};

	return ethereal_sig_build(buf, size, &m);
}

/* Flip, overwrite, cut or grow LEN bytes of BUF (room for SIZE). */
static size_t mutate(uint8_t *buf, size_t len, size_t size)
{
	unsigned int i, n = 1 + (unsigned int)below(4);

	for (i = 0; i < n; i++) {
		switch (below(5)) {
		case 0:
			if (len)
				buf[below(len)] ^= (uint8_t)(1U << below(8));
			break;
		case 1:
			if (len)
				buf[below(len)] = (uint8_t)edge(8, 0, 0x7f);
			break;
		case 2:
			len = below(len + 1);
			break;
		case 3:
			while (len < size && below(8))
				buf[len++] = (uint8_t)rnd();
			break;
		default:
			/* A 16- or 32-bit field at an edge, anywhere. */
			if (len >= 4) {
				uint32_t v = htonl((uint32_t)edge(32, 0, 0xffff));

				memcpy(buf + below(len - 3), &v, below(2) ? 2 : 4);
			}
			break;
		}
	}
	return len;
}

static uint16_t csum(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;

	while (len > 1) {
		sum += (uint32_t)p[0] << 8 | p[1];
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* One frame into F (room for SIZE), a clean HELLO if HELLO: its length. */
static size_t frame(uint8_t *f, size_t size, const uint8_t *src_mac, uint32_t saddr,
		    bool is_hello)
{
	static const uint8_t ctl_mac[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0x00,
						   ETHEREAL_ID_SIGNAL };
	struct ether_header *eh = (void *)f;
	struct iphdr *ip = (void *)(eh + 1);
	struct udphdr *uh = (void *)(ip + 1);
	uint8_t *payload = (uint8_t *)(uh + 1);
	size_t room = size - (size_t)(payload - f), plen, ulen;
	unsigned int broken = !is_hello && below(8) == 0 ? 1 + (unsigned int)below(6) : 0;
	uint32_t pseudo;

	memcpy(eh->ether_dhost, ctl_mac, ETH_ALEN);
	memcpy(eh->ether_shost, src_mac, ETH_ALEN);
	eh->ether_type = htons(broken == 1 ? (uint16_t)rnd() : ETHERTYPE_IP);
	/* Not a VLAN tag: the stack would untag (or drop) it before the switch. */
	if (eh->ether_type == htons(ETHERTYPE_VLAN) || eh->ether_type == htons(0x88a8))
		eh->ether_type = htons(ETHERTYPE_ARP + 1);

	plen = is_hello ? hello(payload, room) : message(payload, room);
	if (!is_hello && below(4))
		plen = mutate(payload, plen, room > 300 ? 300 : room);
	ulen = sizeof(*uh) + plen;

	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons((uint16_t)(sizeof(*ip) + ulen));
	ip->ttl = 1;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = saddr;
	ip->daddr = inet_addr(CTL_IP);
	if (broken == 2)
		ip->frag_off = htons(IP_MF);
	if (broken == 3)
		ip->tot_len = htons((uint16_t)rnd());
	ip->check = htons(csum(ip, sizeof(*ip), 0));
	if (broken == 4)
		ip->check ^= 1;

	uh->source = htons(40000);
	uh->dest = htons(broken == 5 ? (uint16_t)rnd() : ETHEREAL_SIG_PORT);
	uh->len = htons(broken == 6 ? (uint16_t)rnd() : (uint16_t)ulen);
	uh->check = 0;
	pseudo = (ntohl(ip->saddr) >> 16) + (ntohl(ip->saddr) & 0xffff) +
		 (ntohl(ip->daddr) >> 16) + (ntohl(ip->daddr) & 0xffff) +
		 IPPROTO_UDP + (uint32_t)ulen;
	uh->check = htons(csum(uh, ulen, pseudo));
	if (!uh->check)
		uh->check = 0xffff;
	if (!is_hello && below(16) == 0)
		uh->check ^= htons(1);
	return (size_t)(payload - f) + plen;
}

int main(int argc, char **argv)
{
	uint8_t f[ETH_FRAME_LEN], mac[ETH_ALEN];
	struct sockaddr_ll sll;
	unsigned long count, pps = 0, i;
	uint32_t saddr = 0;
	struct ifreq ifr;
	uint64_t start;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: sigfuzz IFACE COUNT [SEED [PPS]]\n");
		return 2;
	}
	count = strtoul(argv[2], NULL, 0);
	rnd_seed(argc > 3 ? strtoull(argv[3], NULL, 0) : (uint64_t)time(NULL));
	printf("seed=%llu ", (unsigned long long)rng_state);
	if (argc > 4)
		pps = strtoul(argv[4], NULL, 0);

	fd = packet_open(argv[1], &sll, mac);
	/* Its IPv4 address if it has one: the host port's anti-spoofing check. */
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFADDR, &ifr) == 0)
		saddr = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr;
	/*
	 * The switch answers to the source port: a socket there takes the
	 * answers, so that the host sends no ICMP errors back to the switch
	 * (frames to its signaling MAC, which it would count too). Taken
	 * already (EADDRINUSE) is as good: the caller's socket, which outlives
	 * this one for the answers that come after the last frame.
	 */
	if (saddr) {
		struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(40000) };
		int u = socket(AF_INET, SOCK_DGRAM, 0);

		if (u < 0 || (bind(u, (struct sockaddr *)&sin, sizeof(sin)) && errno != EADDRINUSE))
			perror("sigfuzz: the answers' port");
	}

	start = now_ns();
	for (i = 0; i < count; i++) {
		size_t len = frame(f, sizeof(f), mac, saddr, i % HELLO_EVERY == 0);

		if (pps)
			sleep_until(start + i * 1000000000ULL / pps);
		while (sendto(fd, f, len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0)
			usleep(100);	/* a full device queue: not a frame lost */
	}
	printf("sent=%lu\n", count);
	return 0;
}
