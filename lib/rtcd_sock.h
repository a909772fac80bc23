/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * The client's end of rtcd's socket (Documentation/host.md): SOCK_SEQPACKET,
 * one JSON object a message. rtcd's own subcommands and librttr share it;
 * librttr links it in without exporting it.
 */
#ifndef ETHEREAL_RTCD_SOCK_H
#define ETHEREAL_RTCD_SOCK_H

#include <jansson.h>

/* Where rtcd -i IFNAME listens by default: RTCD_SOCK_DIR "/IFNAME.sock". */
#define RTCD_SOCK_DIR		"/run/rtcd"
/* How long a client waits for an answer: rtcd gives up on the switch in 3 s. */
#define RTCD_SOCK_TIMEOUT_S	10

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
