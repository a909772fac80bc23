// SPDX-License-Identifier: GPL-2.0
/*
 * What a restarted rtcd takes back: a file per connection that is up or
 * down (its path lost, being set up again for its owner), in
 * /run/rtcd/IFNAME.state/ (beside the socket), written when the switch
 * accepts it or it goes down, and removed when it ends, so that a crash
 * leaves the truth too. A file costs one write and one unlink a connection,
 * whatever their number; tmpfs keeps it until reboot, when nothing is left to take back.
 *
 * A new rtcd keeps the connections of these files whose process is still
 * alive (its neighbour entry stays, the switches are refreshed at once)
 * and waits RTCD_ADOPT_MS for the process to claim each one with
 * {"op":"adopt","id":...}, as librttr does when it finds rtcd back; the
 * others go as an earlier rtcd's leftovers always went.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ethereal.h>

#include "ids.h"
#include "rtcd.h"
#include "units.h"

static char *dir;

int state_open(void)
{
	dir = sibling_path(rtcd.sock_path, ".state");
	if (!dir) {
		log_msg("out of memory");
		return -1;
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		log_msg("cannot create %s: %s: restarts will not take connections back",
			dir, strerror(errno));
		free(dir);
		dir = NULL;
	}
	return 0;
}

void state_close(void)
{
	free(dir);
	dir = NULL;
}

static int file_of(uint16_t id, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%04x", dir, id);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

void state_save(const struct rtcd_conn *k)
{
	char path[PATH_MAX], tmp[PATH_MAX + 4], daddr[INET_ADDRSTRLEN];
	json_t *o;
	int err;

	if (!dir || file_of(k->id, path, sizeof(path)))
		return;
	format_ip(k->daddr, daddr);
	o = json_pack("{s:i, s:I, s:s, s:i, s:I, s:I, s:I, s:I, s:i, s:I, s:i, s:I, s:I, s:b, s:i}",
		      "id", (int)k->id, "cookie", (json_int_t)k->cookie, "daddr", daddr,
		      "dport", (int)k->dport, "rate", (json_int_t)k->rate,
		      "burst", (json_int_t)k->burst, "max_pkt", (json_int_t)k->max_pkt,
		      "uid", (json_int_t)k->uid, "pid", (int)k->pid,
		      "lifetime_ms", (json_int_t)k->lifetime_ms, "hops", (int)k->hops,
		      "tol", (json_int_t)k->tol, "delay_bound_ns", (json_int_t)k->delay_bound,
		      "down", k->resetup, "downs", (int)k->downs);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	/* Whole or absent: a crash mid-write must not leave half a file. */
	err = !o || json_dump_file(o, tmp, JSON_COMPACT) || rename(tmp, path);
	json_decref(o);
	if (err) {
		log_msg("cannot save %s: %s: a restart would not take it back", path,
			strerror(errno));
		unlink(tmp);
	}
}

void state_forget(uint16_t id)
{
	char path[PATH_MAX];

	if (dir && !file_of(id, path, sizeof(path)) && unlink(path) && errno != ENOENT)
		log_msg("cannot remove %s: %s", path, strerror(errno));
}

/* A saved connection back as an orphan of the new rtcd, or NULL. */
static struct rtcd_conn *load_one(const char *path)
{
	json_int_t id, cookie, dport, rate, burst, max_pkt, uid, pid, lifetime, hops;
	json_int_t tol = 0, bound = 0;	/* absent: saved before delay bounds */
	json_int_t downs = 0;		/* absent, and down: saved before down */
	int down = 0;
	struct rtcd_conn *k = NULL;
	json_error_t jerr;
	const char *daddr;
	struct in_addr a;
	json_t *o;

	o = json_load_file(path, 0, &jerr);
	if (!o || json_unpack(o, "{s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s?I, s?I, "
			      "s?b, s?I}",
			      "id", &id, "cookie", &cookie, "daddr", &daddr, "dport", &dport,
			      "rate", &rate, "burst", &burst, "max_pkt", &max_pkt, "uid", &uid,
			      "pid", &pid, "lifetime_ms", &lifetime, "hops", &hops,
			      "tol", &tol, "delay_bound_ns", &bound, "down", &down, "downs", &downs) ||
	    /* the protocol's bounds, as a request's and an ACCEPT's are held to */
	    downs < 0 || downs > UINT32_MAX || bound < 0 ||
	    id < ETHEREAL_ID_MIN || id > ETHEREAL_ID_MAX || cookie < 0 || cookie > UINT32_MAX ||
	    dport < 1 || dport > 65535 || rate < 0 || !conn_rate_ok((uint64_t)rate) ||
	    max_pkt < ETHEREAL_MAX_PKT_MIN || max_pkt > ETHEREAL_MAX_PKT_MAX ||
	    burst < max_pkt || burst > UINT32_MAX || (tol && (tol < max_pkt || tol > burst)) ||
	    tol < 0 || uid < 0 || uid > UINT32_MAX || pid < 0 || pid > INT32_MAX ||
	    lifetime < ETHEREAL_LIFETIME_MIN_MS || lifetime > ETHEREAL_LIFETIME_MAX_MS ||
	    hops < 0 || hops > 255 || inet_pton(AF_INET, daddr, &a) != 1) {
		log_msg("%s is not a saved connection: ignored", path);
		goto out;
	}
	/* Pid 0 (another pid namespace) has no process to check: kept too. */
	if (pid && kill((pid_t)pid, 0) && errno == ESRCH)
		goto out;
	k = calloc(1, sizeof(*k));
	if (!k)
		goto out;
	k->id = (uint16_t)id;
	k->cookie = (uint32_t)cookie;
	k->daddr = a.s_addr;
	k->dport = (uint16_t)dport;
	k->rate = (uint64_t)rate;
	k->burst = (uint32_t)burst;
	k->max_pkt = (uint32_t)max_pkt;
	k->uid = (uid_t)uid;
	k->pid = (pid_t)pid;
	k->lifetime_ms = (uint32_t)lifetime;
	k->hops = (uint8_t)hops;
	k->tol = (uint32_t)tol;
	k->delay_bound = (uint64_t)bound;
	/* Down: its path lost, being set up again (conn_take_back()). */
	k->resetup = down;
	k->downs = (unsigned int)downs;
out:
	json_decref(o);
	return k;
}

int state_load(struct rtcd_conn_list *into, struct idmap *ids)
{
	char path[PATH_MAX];
	struct rtcd_conn *k;
	struct dirent *e;
	unsigned long v;
	char *end;
	DIR *d;
	int n = 0;

	if (!dir)
		return 0;
	d = opendir(dir);
	if (!d) {
		log_msg("cannot read %s: %s", dir, strerror(errno));
		return 0;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		v = strtoul(e->d_name, &end, 16);
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		k = *end || v > 0xffff ? NULL : load_one(path);
		/* Whatever is not taken back goes: a file of a live one is written anew. */
		unlink(path);
		if (k && (k->id != v || idmap_used(ids, k->id))) {
			log_msg("%s holds connection %u, %s: ignored", path, k->id,
				k->id != v ? "not the one its name says" : "already taken back");
			free(k);
			continue;
		}
		if (!k)
			continue;
		idmap_mark(ids, k->id);
		LIST_INSERT_HEAD(into, k, all);
		n++;
	}
	closedir(d);
	return n;
}
