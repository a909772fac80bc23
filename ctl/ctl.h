/* SPDX-License-Identifier: GPL-2.0 */
/* etherealctl: shared state and helpers of the subcommands. */
#ifndef ETHEREAL_CTL_H
#define ETHEREAL_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <linux/ethereal.h>

#include "nl.h"

struct ctl {
	struct nl_sock nl;
	bool json;
	bool pretty;
	bool stats;
	json_t *out;		/* JSON array being filled, with -j */
	const char *batch;	/* -b FILE being read, and its line */
	unsigned long line;
};

extern struct ctl ctl;

/* Exit codes: 1 the operation failed, 2 the command line is wrong. */
__attribute__((noreturn, format(printf, 1, 2))) void fail(const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2))) void usage_fail(const char *fmt, ...);

void ctl_open(void);
/* Report a kernel error for WHAT and exit, with the kernel's own message. */
__attribute__((noreturn)) void nl_fail(const char *what, int err);

/* Command-line pieces */
bool matches(const char *arg, const char *keyword);
const char *next_arg(int *argc, char ***argv, const char *what);
uint32_t ifindex_of(const char *name);
uint16_t conn_id_arg(const char *s, const char *what);

/* Requests */
struct nlmsghdr *ctl_msg(void *buf, uint8_t cmd, uint16_t flags);
void ctl_talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what);
/* "02:e7:00:00:00:01" */
void format_mac(const uint8_t *mac, char *buf, size_t len);

/* Replies: attribute tables indexed by type (nests: nl_nest_table()) */
void attr_table(const struct nlmsghdr *nlh, const struct nlattr **tb, int max);

/* Counters (ETHEREAL_STATS_A_*) of a reply, printed or added to JSON */
void stats_print(const struct nlattr *nest, const char *indent);
json_t *stats_json(const struct nlattr *nest);

/* Text/JSON output */
void out_add(json_t *obj);
void out_flush(void);
const char *stp_state_name(uint8_t state);
const char *role_name(uint8_t role);

/* Subcommands */
int do_switch(const char *cmd, int argc, char **argv);
int do_port(int argc, char **argv);
int do_conn(int argc, char **argv);
int do_neigh(int argc, char **argv);
int do_monitor(int argc, char **argv);

#endif
