// SPDX-License-Identifier: GPL-2.0
/*
 * rtcd: options, the lock, signals and the epoll loop (Documentation/host.md).
 *
 *   rtcd [-S PATH] [-f CONF] [-p PREFIX] [-c CTL_IP] [-v] -i IFNAME
 *   rtcd [-S PATH] -i IFNAME status [-p]
 *   rtcd [-S PATH] -i IFNAME open DADDR DPORT RATE [BURST [MAXPKT]]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ethereal.h>
#include <linux/ethereal_sig.h>
#include <systemd/sd-daemon.h>

#include "ids.h"
#include "rtcd.h"

struct rtcd rtcd;

static const char usage_text[] =
"Usage: rtcd [ -S PATH ] [ -f CONF ] [ -p PREFIX ] [ -c CTL_IP ] [ -v ] -i IFNAME\n"
"       rtcd [ -S PATH ] -i IFNAME status [ -p ]\n"
"       rtcd [ -S PATH ] -i IFNAME open DADDR DPORT RATE [ BURST [ MAXPKT ] ]\n"
"\n"
"  -i IFNAME   the interface (one rtcd each)\n"
"  -S PATH     the socket (default " RTCD_SOCK_DIR "/IFNAME.sock); the lock is\n"
"              PATH with .sock replaced by .lock, the status socket by .ro.sock\n"
"  -f CONF     the configuration (default " RTCD_CONF_DEFAULT ", rtcd.conf(5))\n"
"  -p PREFIX   proxy prefix (default: CONF's, else " RTCD_PREFIX_DEFAULT ")\n"
"  -c CTL_IP   control IP (default: CONF's, else the prefix's first address)\n"
"  -v          log every message to and from the switch\n"
"status asks the running rtcd for its connections (-p: pretty JSON); open\n"
"opens a connection (RATE as in tc(8), BURST and MAXPKT in bytes) and holds\n"
"it until killed.\n";

static void vlog(const char *fmt, va_list ap)
{
	fprintf(stderr, "rtcd[%s]: ", rtcd.ifname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!rtcd.verbose)
		return;
	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

static void usage(int status)
{
	fputs(usage_text, status ? stderr : stdout);
	exit(status);
}

void format_ip(uint32_t be, char *buf)
{
	struct in_addr a = { be };

	inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN);
}

int ev_add(struct rtcd_ev *ev, uint32_t events)
{
	struct epoll_event e = { .events = events, .data.ptr = ev };

	return epoll_ctl(rtcd.epfd, EPOLL_CTL_ADD, ev->fd, &e);
}

int ev_mod(struct rtcd_ev *ev, uint32_t events)
{
	struct epoll_event e = { .events = events, .data.ptr = ev };

	return epoll_ctl(rtcd.epfd, EPOLL_CTL_MOD, ev->fd, &e);
}

void ev_close(struct rtcd_ev *ev)
{
	if (ev->fd >= 0)
		close(ev->fd);	/* also leaves the epoll set: no dup()s */
	ev->fd = -1;
	ev->fn = NULL;
}

void defer_free(void *p)
{
	if (rtcd.ngraves == rtcd.graves_cap) {
		size_t cap = rtcd.graves_cap ? 2 * rtcd.graves_cap : 16;
		void **g = realloc(rtcd.graveyard, cap * sizeof(*g));

		if (!g) {
			/* Cannot wait: a queued event for P would find it freed. */
			log_msg("out of memory; exiting");
			exit(1);
		}
		rtcd.graveyard = g;
		rtcd.graves_cap = cap;
	}
	rtcd.graveyard[rtcd.ngraves++] = p;
}

static void bury(void)
{
	size_t i;

	for (i = 0; i < rtcd.ngraves; i++)
		free(rtcd.graveyard[i]);
	rtcd.ngraves = 0;
}

/*
 * SIGHUP: the limits and the socket group anew (the prefix and control IP
 * are the running rtcd's until it restarts). A file with an error changes
 * nothing.
 */
static void reload(void)
{
	struct rtcd_config *cfg = malloc(sizeof(*cfg));
	char err[512];

	sd_notify(0, "RELOADING=1");
	if (!cfg) {
		log_msg("SIGHUP: out of memory: configuration unchanged");
	} else if (config_load(rtcd.conf_path, !rtcd.conf_given, rtcd.ifname, cfg, err,
			       sizeof(err))) {
		log_msg("SIGHUP: %s: configuration unchanged", err);
	} else {
		if (strcmp(cfg->prefix, rtcd.cfg.prefix) || strcmp(cfg->ctl_ip, rtcd.cfg.ctl_ip))
			log_msg("SIGHUP: a new prefix or control IP applies from the next start");
		memcpy(cfg->prefix, rtcd.cfg.prefix, sizeof(cfg->prefix));
		memcpy(cfg->ctl_ip, rtcd.cfg.ctl_ip, sizeof(cfg->ctl_ip));
		rtcd.cfg = *cfg;
		conn_policy_changed();
		log_msg("SIGHUP: %s read again: %u limit(s)", rtcd.conf_path, rtcd.cfg.nlimits);
	}
	free(cfg);
	sd_notify(0, "READY=1");
}

static void on_signal(struct rtcd_ev *ev, uint32_t events)
{
	struct signalfd_siginfo si;

	(void)events;
	if (read(ev->fd, &si, sizeof(si)) != sizeof(si))
		return;
	if (si.ssi_signo == SIGHUP) {
		reload();
		return;
	}
	/*
	 * SIGTERM (systemctl stop and restart): what is up and still used is
	 * left for the next rtcd, which takes it back; SIGINT tears all down.
	 */
	rtcd.handover = si.ssi_signo == SIGTERM;
	log_msg("%s: %s and exiting", strsignal((int)si.ssi_signo),
		rtcd.handover ? "leaving live connections to the next rtcd" : "tearing down");
	rtcd.stopping = true;
}

/*
 * /run/rtcd/eth0.sock -> /run/rtcd/eth0SUFFIX (.lock, .ro.sock); other
 * paths get SUFFIX added.
 */
char *sibling_path(const char *sock, const char *suffix)
{
	size_t n = strlen(sock);
	char *p = malloc(n + strlen(suffix) + 1);

	if (!p)
		return NULL;
	if (n > 5 && !strcmp(sock + n - 5, ".sock"))
		n -= 5;
	memcpy(p, sock, n);
	strcpy(p + n, suffix);
	return p;
}

/* The lock's fd, held until exit, or -1 with *STATUS the exit status. */
static int take_lock(const char *path, int *status)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	*status = RTCD_EXIT_FAIL;
	if (fd < 0) {
		log_msg("cannot open the lock %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK) {
			log_msg("another rtcd runs on %s (it holds %s)", rtcd.ifname, path);
			*status = RTCD_EXIT_CONFLICT;
		} else {
			log_msg("cannot lock %s: %s", path, strerror(errno));
		}
		close(fd);
		return -1;
	}
	return fd;
}

/* Two descriptors a client (socket, pidfd): up to the hard limit, not 1024. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		log_msg("cannot raise the open files limit: %s", strerror(errno));
}

static int setup_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	/* A client gone mid-reply is seen as EPIPE, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	rtcd.sigfd.fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (rtcd.sigfd.fd < 0)
		return -1;
	rtcd.sigfd.fn = on_signal;
	return ev_add(&rtcd.sigfd, EPOLLIN);
}

/* What start() set up, whatever got that far; also after SIGTERM. */
static void stop(void)
{
	char s[INET_ADDRSTRLEN];
	unsigned int left = 0;
	int err;

	if (rtcd.handover)
		left = conn_handover();
	conn_teardown_all();
	conn_fini();
	client_close_all();
	state_close();
	watch_close();
	if (left)
		log_msg("left %u connection(s) for the next rtcd: their route, neighbour "
			"entries and state stay", left);
	/* The connections left need the route and the control IP's entry. */
	if (rtcd.ctl_neigh && !left) {
		format_ip(rtcd.ctl_ip, s);
		/* Replaced by someone since (ip neigh replace): theirs to keep. */
		err = rnl_neigh_ours(rtcd.ctl_ip, ETHEREAL_ID_SIGNAL);
		if (err == 1)
			err = rnl_neigh_del(rtcd.ctl_ip);
		else if (!err)
			log_msg("the neighbour entry of %s is no longer rtcd's: left as it is", s);
		if (err < 0)
			log_msg("cannot remove the neighbour entry of %s: %s",
				s, rnl_strerror(err));
	}
	if (rtcd.route_ours && !left) {
		err = rnl_route_del();
		if (err)
			log_msg("cannot remove the proxy route: %s", rnl_strerror(err));
	}
	sig_close();
	arp_close();
	rnl_close();
	ev_close(&rtcd.sigfd);
	if (rtcd.epfd >= 0)
		close(rtcd.epfd);
	rtcd.epfd = -1;
	bury();
	free(rtcd.graveyard);
	rtcd.graveyard = NULL;
}

/* The proxy prefix's route exists already: fine if it is through our interface. */
static int route_exists(void)
{
	char p[32], name[IF_NAMESIZE];
	const char *other;
	uint32_t oif;
	int err;

	prefix_format(&rtcd.prefix, p, sizeof(p));
	err = rnl_route_oif(&oif);
	if (err) {
		log_msg("a route for the proxy prefix %s exists, but cannot be read: %s",
			p, rnl_strerror(err));
		return RTCD_EXIT_FAIL;
	}
	if (oif == (uint32_t)rtcd.ifindex) {
		log_msg("a route for the proxy prefix %s through %s exists already: "
			"using it, leaving it", p, rtcd.ifname);
		return 0;
	}
	/* The proxy IPs would leave through the other interface, to its switch. */
	other = !oif ? "no single interface" :
		if_indextoname(oif, name) ? name : "another interface";
	log_msg("the proxy prefix %s is routed through %s, not %s: is another rtcd using it? "
		"Each interface's rtcd needs its own prefix (-p)", p, other, rtcd.ifname);
	return RTCD_EXIT_CONFLICT;
}

/* 0, or the exit status. */
static int start(void)
{
	static struct idmap left;	/* IDs a dead rtcd left on the switch */
	static struct idmap keep;	/* and those taken back */
	struct rtcd_conn_list saved = LIST_HEAD_INITIALIZER(saved);
	char s[INET_ADDRSTRLEN];
	bool route_kept;
	int err;

	rtcd.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (rtcd.epfd < 0) {
		log_msg("epoll: %s", strerror(errno));
		return RTCD_EXIT_FAIL;
	}
	if (setup_signals()) {
		log_msg("signals: %s", strerror(errno));
		return RTCD_EXIT_FAIL;
	}
	idmap_init(&left);
	idmap_init(&keep);
	if (state_open())
		return RTCD_EXIT_FAIL;
	state_load(&saved, &keep);
	if (rnl_open() || rnl_flush(&left, &keep, &route_kept))
		goto fail;
	if (arp_open() || sig_open() || conn_init() || watch_open())
		goto fail;
	/*
	 * The route first: the control IP is in the prefix, and without it a
	 * default route would send the first SETUP to the gateway's MAC.
	 */
	err = route_kept ? 0 : rnl_route_add();
	if (route_kept) {
		rtcd.route_ours = true;
	} else if (err == -EEXIST) {
		err = route_exists();
		if (err)
			goto fail_with;
	} else if (err) {
		log_msg("cannot add the route for the proxy prefix: %s", rnl_strerror(err));
		goto fail;
	} else {
		rtcd.route_ours = true;
	}
	err = rnl_neigh_add(rtcd.ctl_ip, ETHEREAL_ID_SIGNAL);
	if (err) {
		format_ip(rtcd.ctl_ip, s);
		log_msg("cannot add the neighbour entry of the control IP %s: %s",
			s, rnl_strerror(err));
		goto fail;
	}
	rtcd.ctl_neigh = true;
	arp_announce(0);
	/* Once the control IP's entry is there: the TEARDOWNs and REFRESHes go through it. */
	conn_take_back(&saved);
	conn_teardown_leftovers(&left);
	return client_listen() ? RTCD_EXIT_FAIL : 0;
fail:
	err = RTCD_EXIT_FAIL;
fail_with:
	/* Not taken back after all: a later rtcd may, their files being gone. */
	while (!LIST_EMPTY(&saved)) {
		struct rtcd_conn *k = LIST_FIRST(&saved);

		LIST_REMOVE(k, all);
		state_save(k);
		free(k);
	}
	return err;
}

static void loop(void)
{
	struct epoll_event evs[32];
	int i, n;

	while (!rtcd.stopping) {
		n = epoll_wait(rtcd.epfd, evs, 32, client_accept_timeout());
		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_msg("epoll_wait: %s", strerror(errno));
			return;
		}
		for (i = 0; i < n; i++) {
			struct rtcd_ev *ev = evs[i].data.ptr;

			/* fn NULL: closed by an earlier handler of this batch. */
			if (ev->fn)
				ev->fn(ev, evs[i].events);
		}
		client_reap();
		watch_restore();
		bury();
	}
}

int main(int argc, char **argv)
{
	const char *prefix = NULL, *ctl = NULL, *why;
	char *sock_path = NULL, *lock = NULL, err[512];
	int opt, lock_fd, ret = RTCD_EXIT_FAIL;
	struct in_addr a;
	uint16_t id;
	char s[8];

	rtcd.epfd = rtcd.packet_fd = -1;
	rtcd.sigfd.fd = rtcd.listen.fd = rtcd.listen_ro.fd = rtcd.udp.fd = rtcd.timer.fd = -1;
	rtcd.watch.fd = -1;
	rtcd.conf_path = RTCD_CONF_DEFAULT;
	/* "+": a subcommand's options are its own (status -p). */
	while ((opt = getopt(argc, argv, "+i:S:f:p:c:vh")) != -1) {
		switch (opt) {
		case 'i':
			if (strlen(optarg) >= IF_NAMESIZE || !*optarg) {
				fprintf(stderr, "rtcd: bad interface name '%s'\n", optarg);
				usage(RTCD_EXIT_USAGE);
			}
			strcpy(rtcd.ifname, optarg);
			break;
		case 'S':
			rtcd.sock_path = optarg;
			break;
		case 'f':
			rtcd.conf_path = optarg;
			rtcd.conf_given = true;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'c':
			ctl = optarg;
			break;
		case 'v':
			rtcd.verbose = true;
			break;
		case 'h':
			usage(0);
			break;
		default:
			usage(RTCD_EXIT_USAGE);
		}
	}
	if (!rtcd.ifname[0]) {
		fprintf(stderr, "rtcd: -i IFNAME is required\n");
		usage(RTCD_EXIT_USAGE);
	}
	if (!rtcd.sock_path) {
		if (asprintf(&sock_path, RTCD_SOCK_DIR "/%s.sock", rtcd.ifname) < 0) {
			fprintf(stderr, "rtcd: out of memory\n");
			return RTCD_EXIT_FAIL;
		}
		rtcd.sock_path = sock_path;
	}
	if (optind < argc) {
		ret = cli_main(rtcd.sock_path, argc - optind, argv + optind);
		free(sock_path);
		return ret;
	}

	/* The file's settings, below the command line's. */
	if (config_load(rtcd.conf_path, !rtcd.conf_given, rtcd.ifname, &rtcd.cfg, err,
			sizeof(err))) {
		fprintf(stderr, "rtcd: %s\n", err);
		return RTCD_EXIT_USAGE;
	}
	if (!prefix)
		prefix = rtcd.cfg.prefix[0] ? rtcd.cfg.prefix : RTCD_PREFIX_DEFAULT;
	if (!ctl && rtcd.cfg.ctl_ip[0])
		ctl = rtcd.cfg.ctl_ip;
	if (prefix_parse(prefix, &rtcd.prefix, &why)) {
		fprintf(stderr, "rtcd: proxy prefix '%s' %s\n", prefix, why);
		usage(RTCD_EXIT_USAGE);
	}
	if (ctl) {
		if (inet_pton(AF_INET, ctl, &a) != 1) {
			fprintf(stderr, "rtcd: control IP '%s' is not an IPv4 address\n", ctl);
			usage(RTCD_EXIT_USAGE);
		}
		if (prefix_conn_id(&rtcd.prefix, ntohl(a.s_addr), &id)) {
			format_conn_id(id, s, sizeof(s));
			fprintf(stderr, "rtcd: control IP %s is the proxy IP of connection %s in %s: "
				"choose one outside the prefix or among its first %u addresses\n",
				ctl, s, prefix, ETHEREAL_ID_MIN);
			usage(RTCD_EXIT_USAGE);
		}
		if (!prefix_contains(&rtcd.prefix, ntohl(a.s_addr)))
			log_msg("warning: control IP %s is outside the proxy prefix %s: "
				"it needs a route through %s", ctl, prefix, rtcd.ifname);
		rtcd.ctl_ip = a.s_addr;
	} else {
		rtcd.ctl_ip = htonl(prefix_control(&rtcd.prefix));
	}
	rtcd.ifindex = (int)if_nametoindex(rtcd.ifname);
	if (!rtcd.ifindex) {
		log_msg("no interface named %s", rtcd.ifname);
		goto out;
	}
	idmap_init(&rtcd.ids);
	LIST_INIT(&rtcd.conns);
	LIST_INIT(&rtcd.clients);

	/* The default directory is ours to create; -S's is the caller's. */
	if (sock_path && mkdir(RTCD_SOCK_DIR, 0755) && errno != EEXIST)
		log_msg("cannot create " RTCD_SOCK_DIR ": %s", strerror(errno));
	lock = sibling_path(rtcd.sock_path, ".lock");
	rtcd.ro_path = sibling_path(rtcd.sock_path, ".ro.sock");
	if (!lock || !rtcd.ro_path) {
		log_msg("out of memory");
		goto out;
	}
	lock_fd = take_lock(lock, &ret);
	if (lock_fd < 0)
		goto out;

	raise_nofile();
	ret = start();
	if (!ret) {
		char p[32];

		prefix_format(&rtcd.prefix, p, sizeof(p));
		log_msg("ready: prefix %s, socket %s", p, rtcd.sock_path);
		/* Type=notify: units ordered after rtcd find its socket there. */
		sd_notifyf(0, "READY=1\nSTATUS=prefix %s, socket %s", p, rtcd.sock_path);
		loop();
		ret = rtcd.stopping ? 0 : RTCD_EXIT_FAIL;
		sd_notify(0, "STOPPING=1");
	}
	stop();
	close(lock_fd);
out:
	free(lock);
	free(rtcd.ro_path);
	free(sock_path);
	return ret;
}
