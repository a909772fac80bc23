// SPDX-License-Identifier: GPL-2.0
/*
 * rtcd's UNIX socket: SOCK_SEQPACKET, one JSON object a message. The
 * client's pid comes from SO_PEERCRED; a pidfd in the epoll set says when
 * the process exits, and its connections go with it, as they do when it
 * closes its socket (a client in a pid namespace rtcd cannot see has pid 0
 * and no pidfd: its socket alone counts). A client has one request in progress at a time: while
 * its open waits for the switch, its socket is only watched for hangups.
 *
 * Two sockets: IFNAME.sock, the control socket, mode 0660 in the
 * socket-group of rtcd.conf (ethereal); and IFNAME.ro.sock, mode 0666,
 * where anyone may ask for the status (and nothing else). Both show a
 * client the destinations of its own user's connections only (all to root).
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "ids.h"
#include "rtcd.h"

static bool bound, bound_ro;	/* the socket files are ours to remove */

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

static void accept_resume(void);

static void client_drop(struct rtcd_client *c)
{
	log_debug("client pid %d gone", (int)c->pid);
	conn_orphan_all(c);
	LIST_REMOVE(c, all);
	ev_close(&c->sock);
	ev_close(&c->pidfd);
	free(c->cred.groups);
	c->cred.groups = NULL;
	defer_free(c);
	/* Its descriptors are free again. */
	accept_resume();
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
	json_t *conns = conn_status(c->cred.uid);

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
	if (c->readonly && r.op != RTCD_OP_STATUS) {
		client_reply(c, rtcd_error_reply("permission", "%s is the status socket: "
						 "open and close go through %s",
						 rtcd.ro_path, rtcd.sock_path));
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
	case RTCD_OP_ADOPT:
		conn_adopt(c, r.id);
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

/*
 * Out of descriptors, the listening sockets stay readable: accepting is
 * paused (they leave the epoll set's interest) until a client leaves, or
 * for a second, instead of failing in a loop.
 */
static bool pause_told;	/* once until a client gets in again */

static void accept_pause(int err)
{
	if (rtcd.accept_paused)
		return;
	rtcd.accept_paused = now_ns();
	if (!pause_told)
		log_msg("accept: %s: no new clients until one leaves (retried every second)",
			strerror(err));
	pause_told = true;
	if (ev_mod(&rtcd.listen, 0) || (rtcd.listen_ro.fd >= 0 && ev_mod(&rtcd.listen_ro, 0)))
		log_msg("epoll: %s", strerror(errno));
}

static void accept_resume(void)
{
	if (!rtcd.accept_paused || rtcd.listen.fd < 0)
		return;
	rtcd.accept_paused = 0;
	if (ev_mod(&rtcd.listen, EPOLLIN) ||
	    (rtcd.listen_ro.fd >= 0 && ev_mod(&rtcd.listen_ro, EPOLLIN)))
		log_msg("epoll: %s", strerror(errno));
}

int client_accept_timeout(void)
{
	uint64_t waited;

	if (!rtcd.accept_paused)
		return -1;
	waited = (now_ns() - rtcd.accept_paused) / 1000000;
	if (waited >= 1000) {
		accept_resume();
		return -1;
	}
	return (int)(1000 - waited);
}

/* The client's uid, gid and supplementary groups; 0 or -1 (logged). */
static int get_cred(int fd, struct rtcd_cred *cr, pid_t *pid)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);
	gid_t *g = NULL;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len)) {
		log_msg("SO_PEERCRED: %s", strerror(errno));
		return -1;
	}
	*pid = uc.pid;
	cr->uid = uc.uid;
	cr->gid = uc.gid;
	/* Asked with no room first: the kernel says how much it needs. */
	len = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, NULL, &len) && errno != ERANGE) {
		log_msg("SO_PEERGROUPS: %s", strerror(errno));
		return -1;
	}
	if (len) {
		g = malloc(len);
		if (!g || getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len)) {
			log_msg("SO_PEERGROUPS: %s", g ? strerror(errno) : "out of memory");
			free(g);
			return -1;
		}
	}
	cr->ngroups = len / sizeof(gid_t);
	cr->groups = g;
	return 0;
}

static void on_accept(struct rtcd_ev *ev, uint32_t events)
{
	static bool warned;
	struct rtcd_client *c;
	int fd, sndbuf = RTCD_SNDBUF / 2;	/* the kernel doubles it */

	(void)events;
	fd = accept4(ev->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
			accept_pause(errno);
		else if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
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
	c = calloc(1, sizeof(*c));
	if (!c) {
		log_msg("out of memory for a client");
		close(fd);
		return;
	}
	if (get_cred(fd, &c->cred, &c->pid)) {
		close(fd);
		free(c);
		return;
	}
	c->readonly = ev == &rtcd.listen_ro;
	c->sock.fd = fd;
	c->sock.fn = on_client;
	LIST_INIT(&c->conns);
	c->pidfd.fn = on_exit_;
	c->pidfd.fd = -1;
	/* Pid 0: a process of a pid namespace rtcd cannot see, which no pidfd reaches. */
	if (c->pid <= 0)
		log_debug("a client of another pid namespace: watched through its socket only");
	else
		c->pidfd.fd = pidfd_open_(c->pid);
	if (c->pid > 0 && c->pidfd.fd < 0) {
		if (errno == ESRCH)	/* already gone */
			goto drop;
		if (errno == EMFILE || errno == ENFILE) {
			accept_pause(errno);
			goto drop;
		}
		if (!warned)
			log_msg("pidfd_open: %s: clients are watched through their sockets only",
				strerror(errno));
		warned = true;
	}
	if (ev_add(&c->sock, EPOLLIN | EPOLLRDHUP) ||
	    (c->pidfd.fd >= 0 && ev_add(&c->pidfd, EPOLLIN))) {
		log_msg("epoll: %s", strerror(errno));
		goto drop;
	}
	LIST_INSERT_HEAD(&rtcd.clients, c, all);
	pause_told = false;
	log_debug("client pid %d uid %u%s", (int)c->pid, c->cred.uid,
		  c->readonly ? " (status socket)" : "");
	return;
drop:
	ev_close(&c->sock);
	ev_close(&c->pidfd);
	free(c->cred.groups);
	free(c);
}

/* A listening socket at PATH, mode MODE, group GID (-1: ours), into EV. */
static int listen_at(const char *path, mode_t mode, gid_t gid, struct rtcd_ev *ev)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, err;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_msg("socket path %s is too long", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_msg("socket: %s", strerror(errno));
		return -1;
	}
	/* We hold the lock: a socket file left there is a dead rtcd's. */
	unlink(path);
	/* Nobody may connect before its mode and group are right: 0600 first. */
	old = umask(0177);
	err = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (err) {
		log_msg("cannot bind %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	ev->fd = fd;
	ev->fn = on_accept;
	if ((gid != (gid_t)-1 && chown(path, (uid_t)-1, gid)) || chmod(path, mode)) {
		log_msg("cannot set the mode or group of %s: %s", path, strerror(errno));
		return -1;
	}
	if (listen(fd, 64) || ev_add(ev, EPOLLIN)) {
		log_msg("listen on %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int client_listen(void)
{
	const char *group = rtcd.cfg.sock_group;
	gid_t gid = (gid_t)-1;
	struct group *gr;

	gr = getgrnam(group);
	if (gr)
		gid = gr->gr_gid;
	else
		log_msg("no group '%s' (socket-group, rtcd.conf(5)): %s is for root alone",
			group, rtcd.sock_path);
	if (listen_at(rtcd.sock_path, gr ? 0660 : 0600, gid, &rtcd.listen))
		return -1;
	bound = true;
	if (listen_at(rtcd.ro_path, 0666, (gid_t)-1, &rtcd.listen_ro))
		return -1;
	bound_ro = true;
	return 0;
}

void client_close_all(void)
{
	while (!LIST_EMPTY(&rtcd.clients))
		client_drop(LIST_FIRST(&rtcd.clients));
	ev_close(&rtcd.listen);
	ev_close(&rtcd.listen_ro);
	if (bound)
		unlink(rtcd.sock_path);
	if (bound_ro)
		unlink(rtcd.ro_path);
	bound = bound_ro = false;
}
