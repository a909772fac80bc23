// SPDX-License-Identifier: GPL-2.0
/*
 * /etc/ethereal/rtcd.conf (rtcd.conf(5)): a keyword a line, '#' starts a
 * comment.
 *
 *   socket-group ethereal
 *   prefix 198.18.0.0/15 [dev IFNAME]
 *   control 198.18.0.1 [dev IFNAME]
 *   limit user NAME|UID|* [connections N] [rate RATE]
 *   limit group NAME|GID [connections N] [rate RATE]
 *
 * Names are resolved when the file is read: a user or group that does not
 * exist is an error, not a limit that silently never applies.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtcd.h"
#include "units.h"

__attribute__((format(printf, 5, 6)))
static int bad(char *err, size_t len, const char *path, unsigned int line,
	       const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(err, len, "%s:%u: ", path, line);
	if (n >= len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, len - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A user's (GROUP false) or group's name or number: its id, or -1. */
static int resolve(const char *name, bool group, uint32_t *id)
{
	struct passwd *pw;
	struct group *gr;
	uint64_t v;

	if (!parse_count(name, &v) && v <= UINT32_MAX - 1) {
		*id = (uint32_t)v;
		return 0;
	}
	if (group) {
		gr = getgrnam(name);
		if (gr)
			*id = gr->gr_gid;
		return gr ? 0 : -1;
	}
	pw = getpwnam(name);
	if (pw)
		*id = pw->pw_uid;
	return pw ? 0 : -1;
}

/* "limit user|group WHO [connections N] [rate RATE]", from its second word. */
static int parse_limit(char **w, int n, struct rtcd_config *cfg, const char *path,
		       unsigned int line, char *err, size_t len)
{
	struct rtcd_limit *l;
	uint64_t v;
	int i;

	if (n < 3)
		return bad(err, len, path, line, "\"limit\" needs \"user\" or \"group\" and a name");
	if (cfg->nlimits == RTCD_LIMITS_MAX)
		return bad(err, len, path, line, "more than %d limits", RTCD_LIMITS_MAX);
	l = &cfg->limits[cfg->nlimits];
	memset(l, 0, sizeof(*l));
	l->line = line;
	if (strlen(w[2]) >= sizeof(l->name))
		return bad(err, len, path, line, "name '%.32s...' is too long", w[2]);
	strcpy(l->name, w[2]);
	if (!strcmp(w[1], "user")) {
		if (!strcmp(w[2], "*"))
			l->kind = LIMIT_EACH_USER;
		else if (resolve(w[2], false, &l->id))
			return bad(err, len, path, line, "no user '%s'", w[2]);
		else
			l->kind = LIMIT_USER;
	} else if (!strcmp(w[1], "group")) {
		if (resolve(w[2], true, &l->id))
			return bad(err, len, path, line, "no group '%s'", w[2]);
		l->kind = LIMIT_GROUP;
	} else {
		return bad(err, len, path, line, "\"limit\" applies to \"user\" or \"group\", "
			   "not '%s'", w[1]);
	}
	for (i = 3; i < n; i += 2) {
		if (i + 1 >= n)
			return bad(err, len, path, line, "\"%s\" needs a value", w[i]);
		if (!strcmp(w[i], "connections")) {
			if (parse_count(w[i + 1], &v) || !v || v > ETHEREAL_MAX_CONNS_MAX)
				return bad(err, len, path, line, "connections '%s': "
					   "a number from 1 to %u", w[i + 1],
					   (unsigned int)ETHEREAL_MAX_CONNS_MAX);
			l->conns = (uint32_t)v;
		} else if (!strcmp(w[i], "rate")) {
			if (parse_conn_rate(w[i + 1], &l->rate))
				return bad(err, len, path, line, "rate '%s': a rate from "
					   CONN_RATE_RANGE " such as 100mbit", w[i + 1]);
		} else {
			return bad(err, len, path, line, "unknown limit '%s' "
				   "(connections or rate)", w[i]);
		}
	}
	if (!l->conns && !l->rate)
		return bad(err, len, path, line, "a limit needs \"connections\" or \"rate\"");
	cfg->nlimits++;
	return 0;
}

/*
 * "prefix P [dev IF]" and "control IP [dev IF]": into BUF when for our
 * interface, or for any when none has been given for ours yet (*OURS).
 */
static int parse_per_dev(char **w, int n, const char *ifname, char *buf, size_t size,
			 bool *ours, const char *path, unsigned int line, char *err,
			 size_t len)
{
	bool mine;

	if (n != 2 && (n != 4 || strcmp(w[2], "dev")))
		return bad(err, len, path, line, "usage: %s VALUE [dev IFNAME]", w[0]);
	if (strlen(w[1]) >= size)
		return bad(err, len, path, line, "%s '%s' is too long", w[0], w[1]);
	mine = n == 4 && !strcmp(w[3], ifname);
	if (n == 4 && !mine)
		return 0;
	if (*ours && !mine)
		return 0;
	strcpy(buf, w[1]);
	*ours = mine;
	return 0;
}

#define WORDS_MAX 16

int config_load(const char *path, bool missing_ok, const char *ifname,
		struct rtcd_config *cfg, char *err, size_t len)
{
	bool prefix_ours = false, ctl_ours = false;
	char *w[WORDS_MAX], *s, *line = NULL;
	unsigned int lineno = 0;
	size_t cap = 0;
	int n, ret = 0;
	FILE *f;

	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->sock_group, RTCD_GROUP_DEFAULT);
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT && missing_ok)
			return 0;
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		lineno++;
		s = strchr(line, '#');
		if (s)
			*s = '\0';
		n = 0;
		for (s = strtok(line, " \t\r\n"); s; s = strtok(NULL, " \t\r\n")) {
			if (n == WORDS_MAX) {
				ret = bad(err, len, path, lineno, "more than %d words", WORDS_MAX);
				break;
			}
			w[n++] = s;
		}
		if (ret || !n)
			continue;
		if (!strcmp(w[0], "socket-group")) {
			if (n != 2 || strlen(w[1]) >= sizeof(cfg->sock_group))
				ret = bad(err, len, path, lineno, "usage: socket-group NAME");
			else
				strcpy(cfg->sock_group, w[1]);
		} else if (!strcmp(w[0], "prefix")) {
			ret = parse_per_dev(w, n, ifname, cfg->prefix, sizeof(cfg->prefix),
					    &prefix_ours, path, lineno, err, len);
		} else if (!strcmp(w[0], "control")) {
			ret = parse_per_dev(w, n, ifname, cfg->ctl_ip, sizeof(cfg->ctl_ip),
					    &ctl_ours, path, lineno, err, len);
		} else if (!strcmp(w[0], "limit")) {
			ret = parse_limit(w, n, cfg, path, lineno, err, len);
		} else {
			ret = bad(err, len, path, lineno, "unknown keyword '%s'", w[0]);
		}
	}
	if (!ret && ferror(f)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	return ret;
}
