/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/* Names of signaling's errors, reasons and types (lib/signames.c). */
#ifndef ETHEREAL_SIGNAMES_H
#define ETHEREAL_SIGNAMES_H

#include "sigmsg.h"

/* What ethereal_sig_parse() refused, for logs: "bad attribute". */
const char *ethereal_sig_err_name(enum ethereal_sig_err err);
const char *ethereal_sig_reason_name(unsigned int reason);
/* What REASON means, as a phrase for people: "a link of the path went down". */
const char *ethereal_sig_reason_text(unsigned int reason);
const char *ethereal_sig_type_name(unsigned int type);

#endif
