// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "rtcd_sock.h"
#include "sigmsg.h"
#include "signames.h"

int rtcd_sock_timeout(int fd, unsigned int timeout_s)
{
	struct timeval tv = { .tv_sec = (time_t)timeout_s };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

int rtcd_sock_connect(const char *path, unsigned int timeout_s)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, e;

	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    rtcd_sock_timeout(fd, timeout_s)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int rtcd_sock_send(int fd, const json_t *msg)
{
	char *s = json_dumps(msg, JSON_COMPACT);
	ssize_t n;

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	n = send(fd, s, strlen(s), MSG_NOSIGNAL);
	free(s);
	return n < 0 ? -1 : 0;
}

json_t *rtcd_sock_recv(int fd, int flags)
{
	json_error_t jerr;
	json_t *msg;
	ssize_t n;
	char *buf;

	/* A status of many connections can be long: its size first. */
	do
		n = recv(fd, NULL, 0, flags | MSG_PEEK | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		/* rtcd sends no empty messages: 0 is the end. */
		if (!n)
			errno = 0;
		return NULL;
	}
	buf = malloc((size_t)n);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	n = recv(fd, buf, (size_t)n, flags);
	if (n <= 0) {
		int e = n ? errno : 0;

		free(buf);
		errno = e;
		return NULL;
	}
	msg = json_loadb(buf, (size_t)n, 0, &jerr);
	free(buf);
	if (!json_is_object(msg)) {
		json_decref(msg);
		errno = EPROTO;
		return NULL;
	}
	return msg;
}

int rtcd_error_reason(const char *error)
{
	unsigned int r;

	/* By the module's own names, so that they cannot drift apart. */
	for (r = 0; error && r <= ETHEREAL_SIG_R_MAX; r++)
		if (!strcmp(error, ethereal_sig_reason_name(r)))
			return (int)r;
	return -1;
}
