// SPDX-License-Identifier: GPL-2.0
/*
 * A reserved flow's hops as the switches' monitors saw its connection go
 * (hops.h). A monitor's events name a connection by its input port and ID,
 * the next switch's ID being this one's output ID: the path is followed
 * from the ID the source set up, among the connections to the flow's
 * receiver address and port.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "hops.h"

/* A connection's last event with what its switch measured. */
struct hop_ev {
	struct rtperf_hop h;
	long id, outid;			/* outid -1: to the receiver */
	int taken;
};

static uint64_t ju(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static int hops_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return !strncmp(d->d_name, "hops-", 5) && n > 10 && !strcmp(d->d_name + n - 5, ".json");
}

/* The events of one switch's monitor for DADDR:DPORT, the last of each connection. */
static size_t file_load(const char *dir, const char *name, const char *daddr, long dport,
			struct hop_ev **ev, size_t n, size_t *cap)
{
	char path[4096], line[4096], sw[32];
	FILE *f;

	/* hops-SWITCH.json */
	snprintf(sw, sizeof(sw), "%.*s", (int)(strlen(name) - 10), name + 5);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return n;
	while (fgets(line, sizeof(line), f)) {
		json_t *o = json_loads(line, 0, NULL), *m = json_object_get(o, "measured");
		const char *a = json_string_value(json_object_get(o, "daddr"));
		const char *dev = json_string_value(json_object_get(o, "dev"));
		const char *out = json_string_value(json_object_get(o, "out"));
		struct hop_ev *e;
		long id;
		size_t i;

		if (!json_is_object(m) || !a || strcmp(a, daddr) || !dev ||
		    (long)ju(o, "dport") != dport) {
			json_decref(o);
			continue;
		}
		id = (long)ju(o, "id");
		/* a later event of the same connection replaces the earlier */
		for (i = 0; i < n; i++)
			if ((*ev)[i].id == id && !strcmp((*ev)[i].h.sw, sw) &&
			    !strcmp((*ev)[i].h.out, out ? out : ""))
				break;
		if (i == n) {
			if (n == *cap) {
				*cap = *cap ? 2 * *cap : 16;
				*ev = realloc(*ev, *cap * sizeof(**ev));
				if (!*ev) {
					perror("realloc");
					exit(1);
				}
			}
			n++;
		}
		e = &(*ev)[i];
		memset(e, 0, sizeof(*e));
		snprintf(e->h.sw, sizeof(e->h.sw), "%s", sw);
		snprintf(e->h.out, sizeof(e->h.out), "%s", out ? out : "");
		e->id = id;
		e->outid = json_is_integer(json_object_get(o, "outid")) ? (long)ju(o, "outid") : -1;
		e->h.promise = json_is_integer(json_object_get(m, "promise_ns")) ?
			       (double)ju(m, "promise_ns") : NAN;
		e->h.max = (double)ju(m, "max_ns");
		e->h.on_time_max = (double)ju(m, "on_time_max_ns");
		e->h.frames = ju(m, "frames");
		e->h.over = ju(m, "over");
		e->h.over_on_time = ju(m, "over_on_time");
		json_decref(o);
	}
	fclose(f);
	return n;
}

size_t rtperf_hops_load(const char *dir, const char *daddr, long dport, uint16_t id,
			struct rtperf_hop *hops, size_t max)
{
	struct hop_ev *ev = NULL;
	struct dirent **names;
	size_t n = 0, cap = 0, nh = 0, i;
	long want = id;
	int k, nf;

	nf = scandir(dir, &names, hops_file, alphasort);
	if (nf < 0)
		return 0;
	for (k = 0; k < nf; k++) {
		n = file_load(dir, names[k]->d_name, daddr, dport, &ev, n, &cap);
		free(names[k]);
	}
	free(names);
	/* hop by hop: the connection with the ID the previous hop sends with */
	while (nh < max && want >= 0) {
		for (i = 0; i < n && (ev[i].taken || ev[i].id != want); i++)
			;
		if (i == n)
			break;
		ev[i].taken = 1;
		hops[nh++] = ev[i].h;
		want = ev[i].outid;
	}
	free(ev);
	return nh;
}
