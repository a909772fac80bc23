// SPDX-License-Identifier: GPL-2.0
/*
 * rtcd's UNIX socket: SOCK_SEQPACKET, one JSON object a message. The
 * client's pid comes from SO_PEERCRED; a pidfd in the epoll set says when
 * the process exits, and its connections go with it, as they do when it
 * closes its socket (a client in a pid namespace rtcd cannot see has pid 0
 * and no pidfd: its socket alone counts). A client has one request in progress at a time: while
 * its open waits for the switch, its socket is only watched for hangups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "ids.h"
#include "rtcd.h"

static bool bound;	/* the socket file is ours to remove */

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static void client_drop(struct rtcd_client *c)
{
	log_debug("client pid %d gone", (int)c->pid);
	conn_orphan_all(c);
	LIST_REMOVE(c, all);
	ev_close(&c->sock);
	ev_close(&c->pidfd);
	defer_free(c);
}

/* OBJ as one message to C, consumed; its length, or -1 and errno. */
static ssize_t send_json(struct rtcd_client *c, json_t *obj, size_t *len)
{
	ssize_t n;
	char *s;

	*len = 0;
	s = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
	json_decref(obj);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	*len = strlen(s);
	n = send(c->sock.fd, s, *len, MSG_NOSIGNAL | MSG_DONTWAIT);
	free(s);
	return n;
}

/* Shut C's socket now, so that it reads the end at once; dropped after the batch. */
static void client_break(struct rtcd_client *c)
{
	if (c->broken)
		return;
	c->broken = true;
	rtcd.nbroken++;
	shutdown(c->sock.fd, SHUT_RDWR);
}

void client_reply(struct rtcd_client *c, json_t *obj)
{
	size_t len;
	int err;

	/* Nothing is queued: a client gets its answer now or never. */
	if (c->broken || send_json(c, obj, &len) >= 0)
		return;
	/* A client that went away is noticed by its hangup, not here. */
	if (errno == EPIPE || errno == ECONNRESET)
		return;
	err = errno;
	log_msg("cannot answer pid %d (%zu bytes): %s", (int)c->pid, len, strerror(err));
	if (err == EMSGSIZE)
		obj = rtcd_error_reply("too-long", "the answer (%zu bytes) is longer than "
				       "rtcd can send in one message", len);
	else
		obj = rtcd_error_reply("no-memory", "rtcd cannot send its answer: %s",
				       strerror(err));
	if (send_json(c, obj, &len) >= 0)
		return;
	/* Waiting for an answer that will not come would be forever. */
	log_msg("cannot answer pid %d at all: %s: closing its socket", (int)c->pid,
		strerror(errno));
	client_break(c);
}

void client_event(struct rtcd_client *c, json_t *obj)
{
	size_t len;

	if (!c->broken && send_json(c, obj, &len) < 0 && errno != EPIPE && errno != ECONNRESET)
		log_msg("cannot tell pid %d of an event: %s", (int)c->pid, strerror(errno));
}

void client_reap(void)
{
	struct rtcd_client *c, *next;

	if (!rtcd.nbroken)
		return;
	for (c = LIST_FIRST(&rtcd.clients); c; c = next) {
		next = LIST_NEXT(c, all);
		if (c->broken)
			client_drop(c);
	}
	rtcd.nbroken = 0;
}

void client_done(struct rtcd_client *c)
{
	c->waiting = NULL;
	if (ev_mod(&c->sock, EPOLLIN | EPOLLRDHUP))
		log_msg("epoll: %s", strerror(errno));
}

static void status(struct rtcd_client *c)
{
	char p[32];
	json_t *conns = conn_status();

	prefix_format(&rtcd.prefix, p, sizeof(p));
	client_reply(c, conns ? json_pack("{s:b, s:s, s:s, s:o}", "ok", 1,
					 "ifname", rtcd.ifname, "prefix", p,
					 "connections", conns) : NULL);
}

static void request(struct rtcd_client *c, const char *buf, size_t len)
{
	struct rtcd_req r;
	char msg[256], id[8];

	if (rtcd_req_parse(buf, len, &rtcd.prefix, &r, msg, sizeof(msg))) {
		log_debug("pid %d: invalid request: %s", (int)c->pid, msg);
		client_reply(c, rtcd_error_reply("invalid", "%s", msg));
		return;
	}
	switch (r.op) {
	case RTCD_OP_OPEN:
		conn_open(c, &r);
		/* Until the switch answers, only a hangup matters. */
		if (c->waiting && ev_mod(&c->sock, EPOLLRDHUP))
			log_msg("epoll: %s", strerror(errno));
		break;
	case RTCD_OP_CLOSE:
		if (conn_close_id(c, r.id)) {
			format_conn_id(r.id, id, sizeof(id));
			client_reply(c, rtcd_error_reply("invalid", "no connection %s of this process", id));
		} else {
			client_reply(c, json_pack("{s:b}", "ok", 1));
		}
		break;
	case RTCD_OP_STATUS:
		status(c);
		break;
	}
}

static void on_client(struct rtcd_ev *ev, uint32_t events)
{
	struct rtcd_client *c = container_of(ev, struct rtcd_client, sock);
	char buf[RTCD_MSG_MAX + 1];
	ssize_t n;

	if (!(events & EPOLLIN)) {
		if (events & (EPOLLHUP | EPOLLRDHUP | EPOLLERR))
			client_drop(c);
		return;
	}
	n = recv(ev->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	/* 0 is the end only with a hangup: SEQPACKET carries empty messages too. */
	if (n < 0 || (!n && (events & (EPOLLHUP | EPOLLRDHUP)))) {
		client_drop(c);
		return;
	}
	if (!n) {
		client_reply(c, rtcd_error_reply("invalid", "empty request: a JSON object "
						 "was expected"));
		return;
	}
	if ((size_t)n > RTCD_MSG_MAX) {
		client_reply(c, rtcd_error_reply("invalid", "request longer than %d bytes",
						RTCD_MSG_MAX));
		return;
	}
	request(c, buf, (size_t)n);
}

static void on_exit_(struct rtcd_ev *ev, uint32_t events)
{
	(void)events;
	client_drop(container_of(ev, struct rtcd_client, pidfd));
}

static void on_accept(struct rtcd_ev *ev, uint32_t events)
{
	static bool warned;
	struct rtcd_client *c;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd, sndbuf = RTCD_SNDBUF / 2;	/* the kernel doubles it */

	(void)events;
	fd = accept4(ev->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			log_msg("accept: %s", strerror(errno));
		return;
	}
	/*
	 * Answers are not queued: a long status must fit the socket's buffer
	 * at once (SO_SNDBUFFORCE: past wmem_max, as CAP_NET_ADMIN may).
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)))
		log_debug("SO_SNDBUF: %s", strerror(errno));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		log_msg("SO_PEERCRED: %s", strerror(errno));
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		log_msg("out of memory for a client (pid %d)", (int)cred.pid);
		close(fd);
		return;
	}
	c->pid = cred.pid;
	c->sock.fd = fd;
	c->sock.fn = on_client;
	LIST_INIT(&c->conns);
	c->pidfd.fn = on_exit_;
	c->pidfd.fd = -1;
	/* Pid 0: a process of a pid namespace rtcd cannot see, which no pidfd reaches. */
	if (cred.pid <= 0)
		log_debug("a client of another pid namespace: watched through its socket only");
	else
		c->pidfd.fd = pidfd_open_(cred.pid);
	if (cred.pid > 0 && c->pidfd.fd < 0) {
		if (errno == ESRCH) {	/* already gone */
			close(fd);
			free(c);
			return;
		}
		if (!warned)
			log_msg("pidfd_open: %s: clients are watched through their sockets only",
				strerror(errno));
		warned = true;
	}
	if (ev_add(&c->sock, EPOLLIN | EPOLLRDHUP) ||
	    (c->pidfd.fd >= 0 && ev_add(&c->pidfd, EPOLLIN))) {
		log_msg("epoll: %s", strerror(errno));
		ev_close(&c->sock);
		ev_close(&c->pidfd);
		free(c);
		return;
	}
	LIST_INSERT_HEAD(&rtcd.clients, c, all);
	log_debug("client pid %d", (int)c->pid);
}

int client_listen(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(rtcd.sock_path) >= sizeof(sa.sun_path)) {
		log_msg("socket path %s is too long", rtcd.sock_path);
		return -1;
	}
	strcpy(sa.sun_path, rtcd.sock_path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_msg("socket: %s", strerror(errno));
		return -1;
	}
	/* We hold the lock: a socket file left there is a dead rtcd's. */
	unlink(rtcd.sock_path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		log_msg("cannot bind %s: %s", rtcd.sock_path, strerror(errno));
		close(fd);
		return -1;
	}
	bound = true;
	rtcd.listen.fd = fd;
	rtcd.listen.fn = on_accept;
	/* Applications run as anyone (see rtcd(8)). */
	if (chmod(rtcd.sock_path, 0666))
		log_msg("chmod %s: %s", rtcd.sock_path, strerror(errno));
	if (listen(fd, 64) || ev_add(&rtcd.listen, EPOLLIN)) {
		log_msg("listen on %s: %s", rtcd.sock_path, strerror(errno));
		return -1;
	}
	return 0;
}

void client_close_all(void)
{
	while (!LIST_EMPTY(&rtcd.clients))
		client_drop(LIST_FIRST(&rtcd.clients));
	ev_close(&rtcd.listen);
	if (bound)
		unlink(rtcd.sock_path);
	bound = false;
}
