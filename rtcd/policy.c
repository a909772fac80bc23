// SPDX-License-Identifier: GPL-2.0
/*
 * Who may reserve how much (rtcd.conf(5)'s limits), and who may see whose
 * destinations. A user's limit counts that user's connections; "user *"
 * counts each user's (root's excepted) on its own, for users without a
 * line of their own; a group's counts its members' together, whatever
 * socket or process they came through. A connection is held against the
 * limits that applied to its owner when it was opened (a bit each).
 */
#include <stdio.h>
#include <string.h>

#include "rtcd.h"
#include "units.h"

static bool in_groups(const struct rtcd_cred *cr, gid_t gid)
{
	unsigned int i;

	if (cr->gid == gid)
		return true;
	for (i = 0; i < cr->ngroups; i++)
		if (cr->groups[i] == gid)
			return true;
	return false;
}

uint64_t policy_limits(const struct rtcd_config *cfg, const struct rtcd_cred *cr)
{
	uint64_t mask = 0, each = 0;
	bool own = false;
	unsigned int i;

	for (i = 0; i < cfg->nlimits; i++) {
		const struct rtcd_limit *l = &cfg->limits[i];

		switch (l->kind) {
		case LIMIT_USER:
			if (l->id == cr->uid) {
				mask |= 1ULL << i;
				own = true;
			}
			break;
		case LIMIT_EACH_USER:
			if (cr->uid)
				each |= 1ULL << i;
			break;
		case LIMIT_GROUP:
			if (in_groups(cr, l->id))
				mask |= 1ULL << i;
			break;
		}
	}
	return own ? mask : mask | each;
}

void policy_count(const struct rtcd_config *cfg, uint64_t mask, uid_t uid,
		  uint64_t held_mask, uid_t held_uid, uint64_t rate,
		  struct rtcd_usage *use)
{
	uint64_t both = mask & held_mask;
	unsigned int i;

	for (i = 0; i < cfg->nlimits && both >> i; i++) {
		if (!(both & (1ULL << i)))
			continue;
		/* Each user's own: other users' connections do not count. */
		if (cfg->limits[i].kind == LIMIT_EACH_USER && held_uid != uid)
			continue;
		use[i].conns++;
		/* Saturated: 65534 rates of up to 2^63 would wrap. */
		use[i].rate = use[i].rate > UINT64_MAX - rate ? UINT64_MAX : use[i].rate + rate;
	}
}

static void limit_name(const struct rtcd_limit *l, char *buf, size_t len)
{
	switch (l->kind) {
	case LIMIT_USER:
		snprintf(buf, len, "user %s", l->name);
		break;
	case LIMIT_EACH_USER:
		snprintf(buf, len, "each user's");
		break;
	case LIMIT_GROUP:
		snprintf(buf, len, "group %s", l->name);
		break;
	}
}

int policy_check(const struct rtcd_config *cfg, uint64_t mask,
		 const struct rtcd_usage *use, uint64_t rate, char *msg, size_t len)
{
	char who[96], held[32], asked[32], max[32];
	unsigned int i;

	for (i = 0; i < cfg->nlimits; i++) {
		const struct rtcd_limit *l = &cfg->limits[i];

		if (!(mask & (1ULL << i)))
			continue;
		limit_name(l, who, sizeof(who));
		if (l->conns && use[i].conns >= l->conns) {
			snprintf(msg, len, "%s limit of %u connection%s (rtcd.conf line %u) "
				 "is reached", who, l->conns, l->conns == 1 ? "" : "s", l->line);
			return (int)i;
		}
		if (l->rate && (rate > l->rate || use[i].rate > l->rate - rate)) {
			format_rate(use[i].rate, held, sizeof(held));
			format_rate(rate, asked, sizeof(asked));
			format_rate(l->rate, max, sizeof(max));
			snprintf(msg, len, "%s limit of %s (rtcd.conf line %u) would be exceeded: "
				 "%s held, %s asked", who, max, l->line, held, asked);
			return (int)i;
		}
	}
	return -1;
}

bool policy_may_see(uid_t viewer, uid_t owner)
{
	return !viewer || viewer == owner;
}
