/* SPDX-License-Identifier: GPL-2.0 */
/* Connection IDs as people write them: "03:09" (as in the MAC), "0x309", "777". */
#ifndef ETHEREAL_IDS_H
#define ETHEREAL_IDS_H

#include <stddef.h>
#include <stdint.h>

/* Any 16-bit value; 0 or -1. Whether it may be used is conn_id_problem()'s. */
int parse_conn_id(const char *s, uint16_t *id);
/* NULL when ID may name a connection, else why not. */
const char *conn_id_problem(uint16_t id);
/* "03:09" */
void format_conn_id(uint16_t id, char *buf, size_t len);

#endif
