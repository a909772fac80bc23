/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtcd: the host's real-time connection daemon (Documentation/host.md).
 * One per interface: owns the host's connection IDs on its link, speaks
 * signaling (Documentation/signaling.md) to the switch, installs the proxy
 * neighbour entries, and serves applications over a SEQPACKET socket.
 *
 * The pure parts (ID allocation, proxy prefix, request validation) come
 * first and need nothing but libc and jansson: the unit tests build them
 * natively (selftests/unit/rtcd_test.c).
 */
#ifndef ETHEREAL_RTCD_H
#define ETHEREAL_RTCD_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>
#include <jansson.h>

#include "rtcd_sock.h"	/* RTCD_SOCK_DIR, RTCD_GIVE_UP_MS */

#define RTPROT_ETHEREAL		0xe7	/* neighbour NDA_PROTOCOL, route rtm_protocol */
#define RTCD_PREFIX_DEFAULT	"198.18.0.0/15"
#define RTCD_MSG_MAX		4096	/* a request or reply on the UNIX socket */
#define RTCD_RETRANSMIT_MS	500
#define RTCD_LIFETIME_DEFAULT	30000	/* ms, when an ACCEPT lacks LIFETIME */
#define RTCD_GARP_EVERY_MS	60000
#define RTCD_ID_IN_USE_TRIES	8	/* other IDs tried after REJECT id-in-use */
#define RTCD_ADOPT_MS		10000	/* a restart's orphans wait this for their process */
#define RTCD_UNACKED_MAX	3	/* refreshes unacked (a lifetime): set up again */
/*
 * A held connection whose path was lost is set up again until it is up or
 * its owner lets it go: past the first window of retransmits (3 s and a
 * lifetime) the wait between SETUPs doubles from 1 s, +-25% at random, up
 * to the path's lifetime held within these bounds.
 */
#define RTCD_BACKOFF_MIN_MS	500
#define RTCD_BACKOFF_MAX_MS	30000
/*
 * A client socket's send buffer: room for a status of thousands of
 * connections (some 200 bytes each) in the one message SEQPACKET allows.
 */
#define RTCD_SNDBUF		(8 << 20)

/* Exit statuses (rtcd(8)); rtcd@.service does not restart on 2 and 3. */
#define RTCD_EXIT_FAIL		1	/* cannot start, or failed running */
#define RTCD_EXIT_USAGE		2	/* bad command line or configuration */
#define RTCD_EXIT_CONFLICT	3	/* another rtcd has the interface or prefix */

/* ---- idmap.c: the connection IDs of the host's link, 00:0b-ff:fe ---- */

struct idmap {
	uint64_t used[65536 / 64];
	uint32_t next;		/* where the cyclic search starts */
	unsigned int count;
};

void idmap_init(struct idmap *m);
/* A free ID, the next one after the last allocated (cyclic), or -1. */
int idmap_alloc(struct idmap *m);
void idmap_free(struct idmap *m, uint16_t id);
/* Take ID as used without allocating it (a set of IDs). */
void idmap_mark(struct idmap *m, uint16_t id);
/* The cyclic search goes on after ID. */
void idmap_start_after(struct idmap *m, uint16_t id);
bool idmap_used(const struct idmap *m, uint16_t id);
bool idmap_full(const struct idmap *m);

/* ---- deadline.c: the connections' timers, earliest first ---- */

struct deadline {
	uint64_t at;		/* ns, CLOCK_MONOTONIC */
	size_t pos;		/* where in the heap, + 1; 0: not queued */
};

struct deadlines {
	struct deadline **v;	/* a binary min-heap on at */
	size_t n, cap;
};

/* Queue D for AT, or move it there. -1 only when it must grow and cannot. */
int deadline_set(struct deadlines *q, struct deadline *d, uint64_t at);
void deadline_cancel(struct deadlines *q, struct deadline *d);
/* The earliest, or NULL. */
struct deadline *deadlines_first(const struct deadlines *q);
void deadlines_free(struct deadlines *q);

/* ---- prefix.c: the proxy prefix and the proxy IP of an ID ---- */

struct rtcd_prefix {
	uint32_t base;		/* host byte order, host bits zero */
	unsigned int len;	/* at most 16: room for every ID */
};

/* "198.18.0.0/15"; 0, or -1 and *WHY. */
int prefix_parse(const char *s, struct rtcd_prefix *p, const char **why);
void prefix_format(const struct rtcd_prefix *p, char *buf, size_t len);
bool prefix_contains(const struct rtcd_prefix *p, uint32_t addr);
/* Host byte order: the prefix's base + ID, e.g. 198.18.3.9 for 03:09. */
uint32_t prefix_proxy(const struct rtcd_prefix *p, uint16_t id);
/* Whether ADDR (host byte order) is the proxy IP of a connection ID, and which. */
bool prefix_conn_id(const struct rtcd_prefix *p, uint32_t addr, uint16_t *id);
/* The default control IP: the first address, the proxy of 00:01. */
uint32_t prefix_control(const struct rtcd_prefix *p);

/* ---- request.c: requests and replies on the UNIX socket ---- */

enum rtcd_op { RTCD_OP_OPEN, RTCD_OP_CLOSE, RTCD_OP_STATUS, RTCD_OP_ADOPT };

struct rtcd_req {
	enum rtcd_op op;
	uint32_t daddr;		/* network byte order (open) */
	uint16_t dport;
	uint64_t rate;		/* bit/s of whole frames */
	uint32_t burst;		/* bytes */
	uint32_t max_pkt;	/* bytes, Ethernet header included */
	uint64_t max_delay;	/* ns the path's delay bound may be; 0: any */
	uint16_t id;		/* close, adopt */
};

/* The most a request's "max_delay_ns" may be: an hour. */
#define RTCD_MAX_DELAY_MAX_NS	3600000000000ULL

/*
 * Parse and check one request (BUF, LEN bytes of JSON) with the defaults
 * filled in. 0, or -1 with a message for the client in MSG.
 */
int rtcd_req_parse(const char *buf, size_t len, const struct rtcd_prefix *pfx,
		   struct rtcd_req *r, char *msg, size_t msglen);
/* 10 ms of RATE, at least 2 x MAX_PKT, at most UINT32_MAX. */
uint32_t rtcd_default_burst(uint64_t rate, uint32_t max_pkt);
/* {"ok":false,"error":ERROR,"message":...} */
__attribute__((format(printf, 2, 3)))
json_t *rtcd_error_reply(const char *error, const char *fmt, ...);

/* ---- config.c: /etc/ethereal/rtcd.conf (rtcd.conf(5)) ---- */

#define RTCD_CONF_DEFAULT	"/etc/ethereal/rtcd.conf"
#define RTCD_GROUP_DEFAULT	"ethereal"	/* the control socket's group */
#define RTCD_LIMITS_MAX		64		/* a bit each in a connection's mask */

enum rtcd_limit_kind { LIMIT_USER, LIMIT_EACH_USER, LIMIT_GROUP };

struct rtcd_limit {
	enum rtcd_limit_kind kind;
	uint32_t id;			/* uid or gid; not for EACH_USER */
	char name[64];			/* as written: "alice", "1001", "*" */
	unsigned int line;		/* in the file, for refusals */
	uint32_t conns;			/* 0: no limit */
	uint64_t rate;			/* bit/s; 0: no limit */
};

struct rtcd_config {
	char sock_group[64];		/* "" in the file is not possible */
	char prefix[32];		/* "": not set */
	char ctl_ip[16];		/* "": not set */
	struct rtcd_limit limits[RTCD_LIMITS_MAX];
	unsigned int nlimits;
};

/*
 * Read PATH into CFG, the lines for IFNAME's rtcd (a "dev" of another
 * interface is skipped). A missing file reads as an empty one if MISSING_OK.
 * 0, or -1 and ERR ("PATH:LINE: what").
 */
int config_load(const char *path, bool missing_ok, const char *ifname,
		struct rtcd_config *cfg, char *err, size_t len);

/* ---- policy.c: who may reserve how much, and see what ---- */

/* A client's credentials, from SO_PEERCRED and SO_PEERGROUPS. */
struct rtcd_cred {
	uid_t uid;
	gid_t gid;
	gid_t *groups;			/* supplementary */
	unsigned int ngroups;
};

/* What a limit's connections hold. */
struct rtcd_usage {
	uint32_t conns;
	uint64_t rate;
};

/* The limits of CFG that apply to CR: bit i for cfg->limits[i]. */
uint64_t policy_limits(const struct rtcd_config *cfg, const struct rtcd_cred *cr);
/*
 * Count a held connection (its owner's HELD_UID and HELD_MASK, its RATE)
 * into USE (one per limit) for a request of UID under MASK.
 */
void policy_count(const struct rtcd_config *cfg, uint64_t mask, uid_t uid,
		  uint64_t held_mask, uid_t held_uid, uint64_t rate,
		  struct rtcd_usage *use);
/*
 * -1 if one more connection of RATE fits every limit of MASK, given USE;
 * else the first limit it breaks, with MSG naming it and its line.
 */
int policy_check(const struct rtcd_config *cfg, uint64_t mask,
		 const struct rtcd_usage *use, uint64_t rate, char *msg, size_t len);
/* Whether VIEWER may see where OWNER's connections go: root and the owner. */
bool policy_may_see(uid_t viewer, uid_t owner);

/* ---- the daemon ---- */

/* Everything in the epoll set: its handler, called with the epoll events. */
struct rtcd_ev {
	void (*fn)(struct rtcd_ev *ev, uint32_t events);
	int fd;
};

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct rtcd_client;

enum rtcd_conn_state { CONN_PENDING, CONN_UP };

struct rtcd_conn {
	LIST_ENTRY(rtcd_conn) all;	/* rtcd.conns */
	LIST_ENTRY(rtcd_conn) owned;	/* owner->conns */
	struct rtcd_client *owner;	/* NULL once the owner is gone */
	pid_t pid;
	uid_t uid;			/* the owner's */
	uint64_t limits;		/* policy_limits() of the owner */
	enum rtcd_conn_state state;
	struct deadline due;		/* retransmit, give up, refresh */
	uint16_t id;
	uint32_t cookie;
	uint32_t daddr;			/* network byte order */
	uint16_t dport;
	uint64_t rate;
	uint32_t burst, max_pkt;
	uint64_t max_delay;		/* ns, asked for; 0: any */
	/* The contract the path granted (the ACCEPT's A_BURST, A_DELAY). */
	uint32_t tol;			/* bytes: the burst the switches police to */
	uint64_t delay_bound;		/* ns; 0: unknown (a switch bounds nothing) */
	uint64_t setup_start;		/* ns, CLOCK_MONOTONIC, of this ID's first SETUP */
	unsigned int id_tries;		/* IDs tried after id-in-use */
	unsigned int proceeds;		/* PROCEEDINGs since setup_start: waits for ARP */
	uint32_t lifetime_ms;
	uint8_t hops;
	bool neigh;			/* its proxy neighbour entry is installed */
	uint64_t adopt_by;		/* ns: a restart's, unclaimed until then; else 0 */
	bool resetup;			/* down: pending again, the path lost it */
	uint64_t down_since;		/* ns, CLOCK_MONOTONIC: when, if resetup */
	uint32_t backoff_ms;		/* between SETUPs once the first window is past; 0: in it */
	unsigned int downs;		/* times its path was lost */
	const char *down_error;		/* why, or the last refusal since (static) */
	bool acks;			/* its first switch acks refreshes (ACCEPT's FEATURES) */
	unsigned int unacked;		/* refreshes since the last ack */
};

LIST_HEAD(rtcd_conn_list, rtcd_conn);

struct rtcd_client {
	LIST_ENTRY(rtcd_client) all;
	struct rtcd_ev sock;
	struct rtcd_ev pidfd;		/* fd -1 without pidfd_open, or for pid 0 */
	pid_t pid;
	struct rtcd_cred cred;
	bool readonly;			/* came through the status socket */
	struct rtcd_conn_list conns;
	struct rtcd_conn *waiting;	/* open in progress: its answer pending */
	bool broken;			/* an answer was lost: dropped after this batch */
};

struct ethereal_sig_msg;

struct rtcd {
	char ifname[IF_NAMESIZE];
	int ifindex;
	struct rtcd_prefix prefix;
	uint32_t ctl_ip;		/* network byte order */
	const char *sock_path;
	char *ro_path;			/* the status socket, anyone's */
	const char *conf_path;
	bool conf_given;		/* -f: its absence is an error */
	struct rtcd_config cfg;
	bool verbose;

	int epfd;
	struct rtcd_ev sigfd;		/* signalfd: SIGTERM, SIGINT, SIGHUP */
	struct rtcd_ev listen;		/* the UNIX socket */
	struct rtcd_ev listen_ro;	/* the status socket */
	uint64_t accept_paused;		/* ns: out of descriptors since */
	struct rtcd_ev udp;		/* signaling, port 4242 */
	int packet_fd;			/* AF_PACKET, for gratuitous ARP */
	struct rtcd_ev timer;		/* timerfd, at the earliest of timers */
	uint64_t timer_at;		/* what it is set to; 0: disarmed */
	struct deadlines timers;
	unsigned int nbroken;		/* clients to drop after this batch */
	bool route_ours;		/* we installed the proxy route */
	bool ctl_neigh;			/* and the control neighbour entry */
	uint64_t last_garp;		/* ns, 0: never */
	bool stopping;
	bool handover;			/* SIGTERM: live connections stay for the next rtcd */
	struct rtcd_ev watch;		/* libnl's cache manager (watch.c) */
	bool link_up;			/* up and running */

	struct idmap ids;
	struct rtcd_conn *by_id[65536];
	struct rtcd_conn_list conns;
	LIST_HEAD(, rtcd_client) clients;

	/* Freed after the current epoll batch: events for them may be queued. */
	void **graveyard;
	size_t ngraves, graves_cap;
};

extern struct rtcd rtcd;

/* main.c */
__attribute__((format(printf, 1, 2))) void log_msg(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void log_debug(const char *fmt, ...);
int ev_add(struct rtcd_ev *ev, uint32_t events);
int ev_mod(struct rtcd_ev *ev, uint32_t events);
/* Close EV's fd (out of the epoll set) and make pending events for it no-ops. */
void ev_close(struct rtcd_ev *ev);
void defer_free(void *p);
void format_ip(uint32_t be, char *buf);	/* INET_ADDRSTRLEN */
/* /run/rtcd/eth0.sock -> /run/rtcd/eth0SUFFIX (malloc'd, NULL without memory). */
char *sibling_path(const char *sock, const char *suffix);

/* cli.c: rtcd -i IF status|open ..., a client of the daemon */
int cli_main(const char *sock_path, int argc, char **argv);

/* client.c: the UNIX socket */
int client_listen(void);
/* Out of descriptors: ms until accepting is retried (epoll_wait), else -1. */
int client_accept_timeout(void);
void client_close_all(void);
/*
 * Send C the answer to its request, consuming OBJ. An answer that cannot
 * go out is replaced by a short error; if even that fails, C is dropped
 * after this batch rather than left waiting.
 */
void client_reply(struct rtcd_client *c, json_t *obj);
/* Send C an event, consuming OBJ; lost if it cannot go out. */
void client_event(struct rtcd_client *c, json_t *obj);
/* An open of C finished: its answer went out, take requests again. */
void client_done(struct rtcd_client *c);
/* Drop the clients client_reply() gave up on (main loop, between batches). */
void client_reap(void);

/* conn.c: connections */
int conn_init(void);
/* After conn_teardown_all(). */
void conn_fini(void);
/* Start an open for C; replies to C when it ends (now or later). */
void conn_open(struct rtcd_client *c, const struct rtcd_req *r);
/* 0, or -1 if C has no connection ID. */
int conn_close_id(struct rtcd_client *c, uint16_t id);
/* The owner is gone: tear down everything of C's. */
void conn_orphan_all(struct rtcd_client *c);
void conn_on_msg(const struct ethereal_sig_msg *m);
/* rtcd.cfg was read again: the connections' limits anew. */
void conn_policy_changed(void);
/* Every connection; destinations only where policy_may_see(VIEWER, owner). */
json_t *conn_status(uid_t viewer);
void conn_teardown_all(void);
/*
 * SIGTERM: leave the connections that are up and still have their process
 * to the next rtcd (switch state, neighbour entry, state file); their
 * number.
 */
unsigned int conn_handover(void);
/* The connections a dead or stopped rtcd left (state_load()), as orphans. */
void conn_take_back(struct rtcd_conn_list *saved);
/* {"op":"adopt"}: C, the process of a taken-back connection, claims it. */
void conn_adopt(struct rtcd_client *c, uint16_t id);
/*
 * The IDs in LEFT are what a dead rtcd left on the switch: a TEARDOWN for
 * each, and new IDs from after the last of them.
 */
void conn_teardown_leftovers(const struct idmap *left);

/* The link went down or came back: clients told; back, every connection refreshed. */
void conn_link_changed(bool up);
/* The proxy neighbour entry of connection ID that is gone, put back; -1: all. */
void conn_restore_neigh(int id);

/* watch.c: link, route, address and neighbour changes (libnl-route) */
int watch_open(void);
void watch_close(void);
/* After a batch of events: put back what of rtcd's went, once. */
void watch_restore(void);

/* state.c: /run/rtcd/IFNAME.state/, what a restarted rtcd takes back */
int state_open(void);
void state_close(void);
/* K is up: its file, written whole. */
void state_save(const struct rtcd_conn *k);
void state_forget(uint16_t id);
/*
 * The saved connections whose process is alive, into INTO (IDs marked in
 * IDS); the files are removed (conn_take_back() writes them anew). Their
 * number.
 */
int state_load(struct rtcd_conn_list *into, struct idmap *ids);

/* signal.c: the UDP socket to the switch */
int sig_open(void);
int sig_send(const struct ethereal_sig_msg *m);
void sig_close(void);

/* netlink.c: neighbours and the route, through rtnetlink */
int rnl_open(void);
void rnl_close(void);
/*
 * Remove entries marked RTPROT_ETHEREAL on our interface; the connection
 * IDs of the proxy entries among them are marked in LEFT. Those of IDs in
 * KEEP (a restart takes them back) stay, and with any of them the proxy
 * prefix's route (*ROUTE_KEPT).
 */
int rnl_flush(struct idmap *left, const struct idmap *keep, bool *route_kept);
int rnl_neigh_add(uint32_t ip, uint16_t mac_id);
int rnl_neigh_del(uint32_t ip);
/*
 * 1 if IP's entry on our interface is still as rnl_neigh_add() made it
 * (RTPROT_ETHEREAL, FF:FF:FF:FF + MAC_ID), 0 if not or absent, or -errno.
 */
int rnl_neigh_ours(uint32_t ip, uint16_t mac_id);
int rnl_route_add(void);
int rnl_route_del(void);
/*
 * The output interface of the main table's route for the proxy prefix
 * (one through another interface first if there are several; 0 when it
 * has none, e.g. multipath); -ENOENT if there is no such route.
 */
int rnl_route_oif(uint32_t *oif);
/* The last error's text: the kernel's message, or strerror. */
const char *rnl_strerror(int err);

/* arp.c: gratuitous ARP */
int arp_open(void);
void arp_close(void);
/* Announce our address if never done or more than MAX_AGE_MS ago (0: now). */
void arp_announce(unsigned int max_age_ms);

#endif
