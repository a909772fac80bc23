// SPDX-License-Identifier: GPL-2.0
/*
 * tstamphold: keep the kernel's receive-timestamp static key
 * (netstamp_needed_key) on for as long as this runs.
 *
 * A socket asking for receive timestamps turns the key on, the last one
 * closing turns it off, and either patches the kernel text that every
 * received frame runs (netif_rx and netif_receive_skb). Under QEMU's TCG,
 * patching text that the other vCPU is executing kills the guest with an
 * int3 no handler claims. The tests open and close such sockets all the
 * time (udpprobe, rtperf); with this one open for the whole boot, the key
 * never changes again. Prints "holding" once the socket asked, then sleeps
 * until killed.
 */
#include <err.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;

	if (fd < 0)
		err(1, "socket");
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)))
		err(1, "SO_TIMESTAMPNS");
	printf("holding\n");
	fflush(stdout);
	for (;;)
		pause();
}
