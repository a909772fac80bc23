// SPDX-License-Identifier: GPL-2.0
/*
 * Gratuitous ARP: the switch accepts setups only from a host it has seen
 * in ARP on that port, with that MAC and address. An ARP request for our
 * own address, broadcast from an AF_PACKET socket, at start and before a
 * setup when the last was more than a minute ago.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "clock.h"
#include "rtcd.h"

struct arp_pkt {
	struct arphdr h;
	uint8_t sha[ETH_ALEN];
	uint8_t sip[4];
	uint8_t tha[ETH_ALEN];
	uint8_t tip[4];
} __attribute__((packed));

int arp_open(void)
{
	/* Protocol 0: it sends, and receives nothing. */
	rtcd.packet_fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rtcd.packet_fd < 0) {
		log_msg("packet socket: %s%s", strerror(errno),
			errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		return -1;
	}
	return 0;
}

void arp_close(void)
{
	if (rtcd.packet_fd >= 0)
		close(rtcd.packet_fd);
	rtcd.packet_fd = -1;
}

void arp_announce(unsigned int max_age_ms)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ARP),
		.sll_ifindex = rtcd.ifindex, .sll_halen = ETH_ALEN,
		.sll_addr = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	struct arp_pkt p = {
		.h = { .ar_hrd = htons(ARPHRD_ETHER), .ar_pro = htons(ETH_P_IP),
		       .ar_hln = ETH_ALEN, .ar_pln = 4, .ar_op = htons(ARPOP_REQUEST) },
	};
	struct ifreq ifr = { 0 };
	uint64_t now = now_ns();
	char ip[INET_ADDRSTRLEN];
	struct in_addr a;

	if (max_age_ms && rtcd.last_garp &&
	    now - rtcd.last_garp < max_age_ms * 1000000ULL)
		return;
	/* Address and MAC as they are now: either may have changed. */
	strcpy(ifr.ifr_name, rtcd.ifname);
	if (ioctl(rtcd.packet_fd, SIOCGIFHWADDR, &ifr)) {
		log_msg("cannot read the MAC of %s: %s", rtcd.ifname, strerror(errno));
		return;
	}
	memcpy(p.sha, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	if (ioctl(rtcd.udp.fd >= 0 ? rtcd.udp.fd : rtcd.packet_fd, SIOCGIFADDR, &ifr)) {
		log_msg("%s has no IPv4 address to announce: %s", rtcd.ifname,
			strerror(errno));
		return;
	}
	a = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
	memcpy(p.sip, &a, 4);
	memcpy(p.tip, &a, 4);
	if (sendto(rtcd.packet_fd, &p, sizeof(p), 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		log_msg("gratuitous ARP on %s: %s", rtcd.ifname, strerror(errno));
		return;
	}
	rtcd.last_garp = now;
	format_ip(a.s_addr, ip);
	log_debug("announced %s in a gratuitous ARP", ip);
}
