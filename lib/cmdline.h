/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command lines in iproute2's manner: keywords that may be abbreviated, and
 * batch files read as ip -batch reads them.
 */
#ifndef ETHEREAL_CMDLINE_H
#define ETHEREAL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * iproute2's matches(), returning true on a match: ARG, as typed, is
 * KEYWORD or a beginning of it ("sh" for "show"); an empty or NULL ARG
 * matches nothing. Callers try keywords in a fixed order and take the
 * first that matches, as ip does, so "s" is whichever comes first.
 */
bool matches(const char *arg, const char *keyword);

/*
 * A batch file, read as ip -batch reads one (iproute2's getcmdline() and
 * makeargs()), without its limit on the number of words:
 *  - words are separated by blanks (space, tab, CR);
 *  - a word that begins with ' or " runs to the next same quote, blanks
 *    and # included, and the quotes are not part of it; there is no escape;
 *  - a # that begins a word (outside quotes) starts a comment, to the end
 *    of the line. ip cuts a line at any #; here a # inside a word is kept,
 *    as in sh(1), since device names may contain one;
 *  - a backslash that ends a line (outside a comment) joins the next line.
 */
struct cmdline {
	char *line;		/* the command read, continuation lines joined */
	size_t line_cap;
	char **argv;		/* its words, pointing into LINE; argv[argc] NULL */
	size_t argv_cap;
	int argc;
	unsigned long lineno;	/* lines read so far */
	unsigned long first;	/* the line the last command began on */
};

/*
 * Read the next command of F into C (C zeroed before the first call).
 * Returns 1 with C->argc words (0 for a blank or comment line), 0 at the
 * end of F, -1 on error with errno: EINVAL when the command is malformed
 * (*WHY says how: a quote not closed, a continuation with no next line),
 * ENOMEM, or a read error.
 */
int cmdline_read(struct cmdline *c, FILE *f, const char **why);
void cmdline_free(struct cmdline *c);

#endif
