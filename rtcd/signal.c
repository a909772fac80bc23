// SPDX-License-Identifier: GPL-2.0
/*
 * The UDP socket to the switch: port 4242 on our interface only
 * (SO_BINDTODEVICE, so that an rtcd per interface can each have the port),
 * messages to the control IP, whose permanent neighbour entry sends them
 * to FF:FF:FF:FF:00:01. Parsing and building are kmod/sigmsg.c's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ids.h"
#include "rtcd.h"
#include "sigmsg.h"
#include "signames.h"

static void log_sig(const char *dir, const struct ethereal_sig_msg *m)
{
	char id[8];

	if (!rtcd.verbose)
		return;
	format_conn_id(m->conn_id, id, sizeof(id));
	log_debug("%s %s %s cookie 0x%08x%s%s", dir, ethereal_sig_type_name(m->type), id,
		  m->cookie,
		  m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON) ? " reason " : "",
		  m->present & ETHEREAL_SIG_BIT(ETHEREAL_SIG_A_REASON) ?
		  ethereal_sig_reason_name(m->reason) : "");
}

int sig_send(const struct ethereal_sig_msg *m)
{
	struct sockaddr_in to = {
		.sin_family = AF_INET, .sin_port = htons(ETHEREAL_SIG_PORT),
		.sin_addr.s_addr = rtcd.ctl_ip,
	};
	u8 buf[ETHEREAL_SIG_MAX_LEN];
	size_t len = ethereal_sig_build(buf, sizeof(buf), m);

	log_sig("->", m);
	if (!len) {
		log_msg("a %s does not fit a message", ethereal_sig_type_name(m->type));
		return -1;
	}
	if (sendto(rtcd.udp.fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		/* Retransmits and refreshes try again; the lifetime covers gaps. */
		log_msg("cannot send a %s to the switch: %s",
			ethereal_sig_type_name(m->type), strerror(errno));
		return -1;
	}
	return 0;
}

static void on_udp(struct rtcd_ev *ev, uint32_t events)
{
	/* One byte more than a message may have: MSG_TRUNC tells longer ones. */
	u8 buf[ETHEREAL_SIG_MAX_LEN + 1];
	struct ethereal_sig_msg m;
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	char ip[INET_ADDRSTRLEN];
	enum ethereal_sig_err err;
	ssize_t n;

	(void)events;
	n = recvfrom(ev->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC,
		     (struct sockaddr *)&from, &flen);
	if (n < 0) {
		/* ECONNREFUSED and the like: ICMP errors of earlier sends. */
		if (errno != EAGAIN && errno != EINTR)
			log_debug("recvfrom: %s", strerror(errno));
		return;
	}
	format_ip(from.sin_addr.s_addr, ip);
	/* Answers come from the control IP and the signaling port only. */
	if (from.sin_addr.s_addr != rtcd.ctl_ip || from.sin_port != htons(ETHEREAL_SIG_PORT)) {
		log_debug("ignored %zd bytes from %s:%u", n, ip, ntohs(from.sin_port));
		return;
	}
	err = ethereal_sig_parse(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf), &m);
	if (err != ETHEREAL_SIG_OK) {
		log_msg("malformed message from the switch (%zd bytes): %s", n,
			ethereal_sig_err_name(err));
		return;
	}
	log_sig("<-", &m);
	conn_on_msg(&m);
}

int sig_open(void)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET, .sin_port = htons(ETHEREAL_SIG_PORT),
	};
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_msg("UDP socket: %s", strerror(errno));
		return -1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, rtcd.ifname,
		       (socklen_t)strlen(rtcd.ifname))) {
		log_msg("SO_BINDTODEVICE %s: %s%s", rtcd.ifname, strerror(errno),
			errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		close(fd);
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		log_msg("cannot bind UDP port %d on %s: %s%s", ETHEREAL_SIG_PORT,
			rtcd.ifname, strerror(errno),
			errno == EADDRINUSE ? " (another program has it)" : "");
		close(fd);
		return -1;
	}
	rtcd.udp.fd = fd;
	rtcd.udp.fn = on_udp;
	if (ev_add(&rtcd.udp, EPOLLIN)) {
		log_msg("epoll: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void sig_close(void)
{
	ev_close(&rtcd.udp);
}
