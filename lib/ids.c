// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethereal.h>

#include "ids.h"

static int parse_hex_byte(const char *s, unsigned int *v)
{
	if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
		return -1;
	*v = (unsigned int)strtoul((char[]){ s[0], s[1], 0 }, NULL, 16);
	return 0;
}

int parse_conn_id(const char *s, uint16_t *id)
{
	unsigned int hi, lo;
	unsigned long v;
	char *end;

	if (!s || !*s)
		return -1;
	/*
	 * "03:09" or "03.09", the notation of the paper; the length first,
	 * so that a shorter string is not read past its end
	 */
	if (strlen(s) == 5 && (s[2] == ':' || s[2] == '.')) {
		if (parse_hex_byte(s, &hi) || parse_hex_byte(s + 3, &lo))
			return -1;
		*id = (uint16_t)(hi << 8 | lo);
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > 0xffff)
		return -1;
	*id = (uint16_t)v;
	return 0;
}

const char *conn_id_problem(uint16_t id)
{
	if (id <= ETHEREAL_ID_CTRL_LAST)
		return "is reserved (00:00 to 00:0a are control IDs)";
	if (id > ETHEREAL_ID_MAX)
		return "is reserved (ff:ff would be the broadcast address)";
	return NULL;
}

void format_conn_id(uint16_t id, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x", id >> 8, id & 0xff);
}
