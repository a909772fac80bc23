/* SPDX-License-Identifier: GPL-2.0 */
/* etherealctl: shared state and helpers of the subcommands. */
#ifndef ETHEREAL_CTL_H
#define ETHEREAL_CTL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <linux/ethereal.h>

#include "cmdline.h"
#include "nl.h"
#include "attrs.h"

struct ctl {
	struct enl_sock nl;
	bool json;
	bool pretty;
	bool stats;
	bool details;		/* -d */
	json_t *out;		/* JSON array being filled, with -j */
	const char *object;	/* of the command running ("conn"), for usage hints */
	jmp_buf *on_fail;	/* in a batch: where a failing command ends */
	int status;		/* and the status it failed with */
};

extern struct ctl ctl;

/*
 * Exit statuses, as ip(8)'s: 1 for a wrong command line and whatever fails
 * before the kernel is asked (no such device, no module), 2 when the kernel
 * refuses the request, or answers it with a malformed reply.
 */
#define EXIT_USAGE	1
#define EXIT_KERNEL	2

/* Exit with STATUS; in a batch, end the command instead (run_caught()). */
__attribute__((noreturn)) void ctl_exit(int status);
/* Say what is wrong and ctl_exit(EXIT_USAGE); usage_fail() adds a hint. */
__attribute__((noreturn, format(printf, 1, 2))) void fail(const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2))) void usage_fail(const char *fmt, ...);

void ctl_open(void);
/*
 * Report a failed request for WHAT, with the kernel's own message, and
 * ctl_exit(): EXIT_KERNEL when the kernel refused it.
 */
__attribute__((noreturn)) void nl_fail(const char *what, int err);

/* Command-line pieces (matches() is lib/cmdline.h's) */
/* The first of KEYWORDS (NULL-terminated) that ARG abbreviates, or NULL. */
const char *keyword(const char *arg, const char *const *keywords);
/*
 * OBJECT's command in ARGV[0], one of WORDS ("show" when there is none; a
 * usage error naming CHOICES when unknown); NULL when it was "help", which
 * is printed.
 */
const char *object_command(const char *object, const char *const *words,
			   const char *choices, int argc, char **argv);
/* OBJECT's usage on stdout (NULL: everything's); 0. */
int show_help(const char *object);
const char *next_arg(int *argc, char ***argv, const char *what);
uint32_t ifindex_of(const char *name);
uint16_t conn_id_arg(const char *s, const char *what);

/* Requests */
struct nlmsghdr *ctl_msg(void *buf, uint8_t cmd, uint16_t flags);
void ctl_talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what);
/* "02:e7:00:00:00:01" */
void format_mac(const uint8_t *mac, char *buf, size_t len);

/*
 * Replies and events: attribute tables indexed by type, of ETHEREAL_A_*
 * (TB[ETHEREAL_A_MAX + 1]) or of a nest of SET, checked against their
 * policies (attrs.h), nests with their message. A malformed message, or
 * one without an attribute its set requires, ends the command
 * (EXIT_KERNEL), naming the attribute, before anything of it is printed.
 */
void attr_table(const struct nlmsghdr *nlh, const struct nlattr **tb);
void nest_table(const struct nlattr *nest, const struct nlattr **tb,
		const struct enl_attrs *set);
/*
 * TB[TYPE], of SET: an attribute this kind of message always has, though
 * others of its set do not (the policy cannot require it); its absence
 * ends the command as a malformed message does.
 */
const struct nlattr *attr_need(const struct nlattr **tb, const struct enl_attrs *set,
			       int type);
/* A number, of the width its policy checked: 0 when absent. */
uint64_t attr_num(const struct nlattr *a);

/* Counters (ETHEREAL_STATS_A_*) of a reply, printed or added to JSON */
void stats_print(const struct nlattr *nest, const char *indent);
json_t *stats_json(const struct nlattr *nest);

/* Text/JSON output */
/*
 * A rate in JSON: bytes per second, rounded down, as tc -j gives every
 * rate (the ethereal qdisc's too); the text output keeps tc's "10Mbit".
 */
json_t *rate_json(uint64_t bits_per_sec);
/* A switch's reply: the name of its bridge, which it has, as its ifindex. */
const char *switch_name(const struct nlattr **tb);
/*
 * A connection of a reply (not of an event): the name of its output port,
 * which it has, as it has either of ETHEREAL_CONN_A_OUT_MAC and _OUT_ID.
 */
const char *conn_out(const struct nlattr **c);
/*
 * A connection's delay bounds (ETHEREAL_CONN_A_DELAY, _PATH_DELAY of the
 * nest C), when it has them: " delay 6.8ms path 20.4ms", or delay_ns and
 * path_delay_ns in JSON.
 */
void conn_delay_print(const struct nlattr **c);
void conn_delay_json(json_t *o, const struct nlattr **c);
void conn_hop_print(const struct nlattr *nest);
json_t *conn_hop_json(const struct nlattr *nest);
void out_add(json_t *obj);
void out_flush(void);
const char *stp_state_name(uint8_t state);
const char *role_name(uint8_t role);

/*
 * Objects; ARGV[0] is the command, as typed (ARGC 0: show). The switch's
 * commands are also top-level words.
 */
int do_switch(int argc, char **argv);
/* The configuration of BRIDGE (NULL: every switch's), as commands. */
int switch_showconf(const char *bridge);
int do_port(int argc, char **argv);
int do_conn(int argc, char **argv);
int do_neigh(int argc, char **argv);
int do_monitor(int argc, char **argv);

#endif
