// SPDX-License-Identifier: GPL-2.0
/*
 * ethsend: put raw Ethernet frames on an interface, for provoking the
 * switch's drop paths.
 *
 *   ethsend IFACE DST_MAC ETHERTYPE LEN [COUNT]
 *
 * Frames of LEN bytes after the 14-byte header (zero-filled), source MAC the
 * interface's, ETHERTYPE as 0x0800 etc. LEN may be 0.
 */
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ether.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "packet.h"

int main(int argc, char **argv)
{
	unsigned char frame[ETH_FRAME_LEN + 4] = { 0 };
	struct ether_header *eh = (void *)frame;
	unsigned long len, count = 1, i;
	struct sockaddr_ll sll;
	struct ether_addr dst;
	int fd;

	if (argc < 5 || !ether_aton_r(argv[2], &dst)) {
		fprintf(stderr, "usage: ethsend IFACE DST_MAC ETHERTYPE LEN [COUNT]\n");
		return 2;
	}
	len = strtoul(argv[4], NULL, 0);
	if (argc > 5)
		count = strtoul(argv[5], NULL, 0);
	if (len > ETH_DATA_LEN)
		return 2;
	fd = packet_open(argv[1], &sll, eh->ether_shost);
	memcpy(eh->ether_dhost, &dst, ETH_ALEN);
	eh->ether_type = htons((uint16_t)strtoul(argv[3], NULL, 0));
	memcpy(sll.sll_addr, &dst, ETH_ALEN);
	for (i = 0; i < count; i++)
		if (sendto(fd, frame, ETH_HLEN + len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) < 0) {
			perror("sendto");
			return 1;
		}
	return 0;
}
