/* SPDX-License-Identifier: GPL-2.0 */
/* A packet socket on one interface, for the tools that send raw frames. */
#ifndef ETHEREAL_TOOLS_PACKET_H
#define ETHEREAL_TOOLS_PACKET_H

#include <net/ethernet.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

/*
 * A packet socket for IFNAME, its address in *SLL (to send with) and the
 * interface's MAC in MAC; exits with a message if there is no such one.
 */
static inline int packet_open(const char *ifname, struct sockaddr_ll *sll,
			      unsigned char mac[ETH_ALEN])
{
	struct ifreq ifr;
	int fd;

	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("socket");
		exit(1);
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	/* ifr_ifindex and ifr_hwaddr share a union: one at a time. */
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		perror(ifname);
		exit(1);
	}
	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_halen = ETH_ALEN;
	sll->sll_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		perror(ifname);
		exit(1);
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	return fd;
}

#endif
