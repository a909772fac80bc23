// SPDX-License-Identifier: GPL-2.0
/*
 * Requests on rtcd's socket, one JSON object a message (Documentation/host.md):
 *   {"op":"open","daddr":"10.0.0.2","dport":5000,"rate":50000000,
 *    "burst":62500,"max_pkt":1514}       burst and max_pkt optional
 *   {"op":"close","id":"03:09"}
 *   {"op":"status"}
 *   {"op":"adopt","id":"03:09"}         a restarted rtcd's connection, claimed
 * Keys this version does not know are ignored, as signaling's attributes are.
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/ethereal.h>

#include "ids.h"
#include "rtcd.h"
#include "units.h"

__attribute__((format(printf, 3, 4)))
static int bad(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * An unsigned integer KEY of OBJ in [MIN, MAX] into *V; DEF (if not NULL)
 * when absent. Integral reals (5e7) are taken too. 0 or -1 and MSG.
 */
static int get_uint(const json_t *obj, const char *key, uint64_t min,
		    uint64_t max, const uint64_t *def, uint64_t *v,
		    char *msg, size_t len)
{
	const json_t *j = json_object_get(obj, key);
	double d;

	if (!j || json_is_null(j)) {
		if (!def)
			return bad(msg, len, "\"%s\" is missing", key);
		*v = *def;
		return 0;
	}
	if (json_is_integer(j)) {
		json_int_t i = json_integer_value(j);

		if (i < 0 || (uint64_t)i < min || (uint64_t)i > max)
			goto range;
		*v = (uint64_t)i;
		return 0;
	}
	if (json_is_real(j)) {
		d = json_real_value(j);
		/*
		 * Compared as integers: (double)INT64_MAX rounds up to 2^63, which
		 * would pass "d > max" and overflow the conversion.
		 */
		if (d != floor(d) || d < 0 || d >= 0x1p63 ||
		    (uint64_t)d < min || (uint64_t)d > max)
			goto range;
		*v = (uint64_t)d;
		return 0;
	}
	return bad(msg, len, "\"%s\" must be an integer", key);
range:
	return bad(msg, len, "\"%s\" must be an integer from %llu to %llu", key,
		   (unsigned long long)min, (unsigned long long)max);
}

/*
 * A string KEY of OBJ into *S, NULL when absent. 0, or -1 and MSG when it
 * is there but not a string (WHAT says what it should be).
 */
static int get_str(const json_t *obj, const char *key, const char *what,
		   const char **s, char *msg, size_t len)
{
	const json_t *j = json_object_get(obj, key);

	*s = json_string_value(j);
	if (j && !json_is_null(j) && !*s)
		return bad(msg, len, "\"%s\" must be a string (%s)", key, what);
	return 0;
}

uint32_t rtcd_default_burst(uint64_t rate, uint32_t max_pkt)
{
	uint64_t b = default_burst(rate, BURST_SPAN_DEFAULT_NS, max_pkt);

	/* Signaling carries a burst in 32 bits. */
	return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

static int parse_open(const json_t *o, const struct rtcd_prefix *pfx,
		      struct rtcd_req *r, char *msg, size_t len)
{
	const uint64_t max_pkt_def = ETHEREAL_MAX_PKT_DEFAULT;
	const char *daddr;
	uint64_t v, def;
	struct in_addr a;
	uint32_t h;

	if (get_str(o, "daddr", "the receiver's IPv4 address", &daddr, msg, len))
		return -1;
	if (!daddr)
		return bad(msg, len, "\"daddr\" (the receiver's IPv4 address, a string) is missing");
	if (inet_pton(AF_INET, daddr, &a) != 1)
		return bad(msg, len, "\"daddr\" '%s' is not an IPv4 address", daddr);
	h = ntohl(a.s_addr);
	if (!h || h == INADDR_BROADCAST || IN_MULTICAST(h) || (h >> 24) == 127)
		return bad(msg, len, "\"daddr\" %s is not a unicast address", daddr);
	if (prefix_contains(pfx, h))
		return bad(msg, len, "\"daddr\" %s is in the proxy prefix", daddr);
	r->daddr = a.s_addr;

	if (get_uint(o, "dport", 1, 65535, NULL, &v, msg, len))
		return -1;
	r->dport = (uint16_t)v;
	if (get_uint(o, "rate", ETHEREAL_RATE_MIN, ETHEREAL_RATE_MAX, NULL, &v, msg, len))
		return -1;
	r->rate = v;
	if (get_uint(o, "max_pkt", ETHEREAL_MAX_PKT_MIN, ETHEREAL_MAX_PKT_MAX,
		     &max_pkt_def, &v, msg, len))
		return -1;
	r->max_pkt = (uint32_t)v;
	def = rtcd_default_burst(r->rate, r->max_pkt);
	if (get_uint(o, "burst", r->max_pkt, UINT32_MAX, &def, &v, msg, len)) {
		/* Say why a small burst is refused. */
		if (json_is_integer(json_object_get(o, "burst")))
			bad(msg, len, "\"burst\" must be at least \"max_pkt\" (%u) and at most %u",
			    r->max_pkt, UINT32_MAX);
		return -1;
	}
	r->burst = (uint32_t)v;
	def = 0;
	if (get_uint(o, "max_delay_ns", 0, RTCD_MAX_DELAY_MAX_NS, &def, &r->max_delay, msg, len))
		return -1;
	return 0;
}

static int parse_close(const json_t *o, struct rtcd_req *r, char *msg, size_t len)
{
	const char *id, *why;

	if (get_str(o, "id", "such as \"03:09\"", &id, msg, len))
		return -1;
	if (!id)
		return bad(msg, len, "\"id\" (a string such as \"03:09\") is missing");
	if (parse_conn_id(id, &r->id))
		return bad(msg, len, "\"id\" '%s' is not a connection ID", id);
	why = conn_id_problem(r->id);
	if (why)
		return bad(msg, len, "\"id\" %s %s", id, why);
	return 0;
}

int rtcd_req_parse(const char *buf, size_t len, const struct rtcd_prefix *pfx,
		   struct rtcd_req *r, char *msg, size_t msglen)
{
	json_error_t jerr;
	const char *op;
	json_t *o;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o) {
		/* JSON all the same, with a number past any that jansson holds. */
		if (json_error_code(&jerr) == json_error_numeric_overflow)
			return bad(msg, msglen, "a number out of range: %s", jerr.text);
		return bad(msg, msglen, "not JSON: %s", jerr.text);
	}
	if (!json_is_object(o)) {
		bad(msg, msglen, "not a JSON object");
		goto out;
	}
	if (get_str(o, "op", "open, close, adopt or status", &op, msg, msglen))
		goto out;
	if (!op) {
		bad(msg, msglen, "\"op\" is missing (open, close, adopt or status)");
	} else if (!strcmp(op, "open")) {
		r->op = RTCD_OP_OPEN;
		ret = parse_open(o, pfx, r, msg, msglen);
	} else if (!strcmp(op, "close")) {
		r->op = RTCD_OP_CLOSE;
		ret = parse_close(o, r, msg, msglen);
	} else if (!strcmp(op, "adopt")) {
		r->op = RTCD_OP_ADOPT;
		ret = parse_close(o, r, msg, msglen);
	} else if (!strcmp(op, "status")) {
		r->op = RTCD_OP_STATUS;
		ret = 0;
	} else {
		bad(msg, msglen, "unknown \"op\" '%s' (open, close, adopt or status)", op);
	}
out:
	json_decref(o);
	return ret;
}

json_t *rtcd_error_reply(const char *error, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return json_pack("{s:b, s:s, s:s}", "ok", 0, "error", error, "message", msg);
}
