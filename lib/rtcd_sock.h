/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * The client's end of rtcd's socket (Documentation/host.md): SOCK_SEQPACKET,
 * one JSON object a message. rtcd's own subcommands and librttr share it;
 * librttr links it in without exporting it.
 */
#ifndef ETHEREAL_RTCD_SOCK_H
#define ETHEREAL_RTCD_SOCK_H

#include <jansson.h>
#include <linux/ethereal_sig.h>

/* Where rtcd -i IFNAME listens by default: RTCD_SOCK_DIR "/IFNAME.sock". */
#define RTCD_SOCK_DIR		"/run/rtcd"
/*
 * rtcd answers an open once the switch has, or when it gives up on it:
 * RTCD_GIVE_UP_MS after its SETUP, one ARP wait later for each PROCEEDING
 * from the path, at most ETHEREAL_SIG_PROCEED_MAX (11 s in all).
 */
#define RTCD_GIVE_UP_MS		3000
#define RTCD_ANSWER_MAX_MS	(RTCD_GIVE_UP_MS + \
				 ETHEREAL_SIG_PROCEED_MAX * ETHEREAL_SIG_ARP_WAIT_MS)
/* How long a client waits for an answer: rtcd's longest, and some more. */
#define RTCD_SOCK_TIMEOUT_S	(RTCD_ANSWER_MAX_MS / 1000 + 4)

/* A socket connected to PATH, answers awaited TIMEOUT_S (0: forever); -1 and errno. */
int rtcd_sock_connect(const char *path, unsigned int timeout_s);
/* 0 or -1 and errno. */
int rtcd_sock_timeout(int fd, unsigned int timeout_s);
/* MSG as one message; 0 or -1 and errno. */
int rtcd_sock_send(int fd, const json_t *msg);
/*
 * The next message (recv(2) FLAGS, e.g. MSG_DONTWAIT), of any length, as a
 * JSON object; NULL with errno: 0 when rtcd closed the socket, EAGAIN when
 * nothing came in time, EPROTO when it is not a JSON object.
 */
json_t *rtcd_sock_recv(int fd, int flags);

/* The signaling reason (ETHEREAL_SIG_R_*) an answer's "error" names, or -1. */
int rtcd_error_reason(const char *error);

#endif
