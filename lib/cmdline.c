// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cmdline.h"

bool matches(const char *arg, const char *keyword)
{
	return arg && *arg && strncmp(arg, keyword, strlen(arg)) == 0;
}

static const char blanks[] = " \t\r\n";

/* Where the scan of a command is: between words, in a word, in quotes. */
enum scan_state { SCAN_BLANK, SCAN_WORD, SCAN_QUOTED };

struct scan {
	enum scan_state state;
	char quote;
};

/*
 * Scan S[0..N) from state SC, as cmdline_split() will split it. Returns
 * the offset of a comment's #, or N when there is none.
 */
static size_t scan(struct scan *sc, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (sc->state == SCAN_QUOTED) {
			/* After the closing quote a new word may begin at once. */
			if (ch == sc->quote)
				sc->state = SCAN_BLANK;
		} else if (strchr(blanks, ch)) {
			sc->state = SCAN_BLANK;
		} else if (sc->state == SCAN_BLANK) {
			if (ch == '#')
				return i;
			if (ch == '\'' || ch == '"') {
				sc->state = SCAN_QUOTED;
				sc->quote = ch;
			} else {
				sc->state = SCAN_WORD;
			}
		}
	}
	return n;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* makeargs(), with no limit on the number of words. */
static int cmdline_split(struct cmdline *c, const char **why)
{
	char *cp = c->line;
	size_t argc = 0;

	for (;;) {
		cp += strspn(cp, blanks);
		if (!*cp || *cp == '#')
			break;
		if (grow((void **)&c->argv, &c->argv_cap, argc + 2, sizeof(*c->argv))) {
			errno = ENOMEM;
			return -1;
		}
		if (*cp == '\'' || *cp == '"') {
			char quote = *cp++;

			c->argv[argc++] = cp;
			cp = strchr(cp, quote);
			if (!cp) {
				*why = "unterminated quoted string";
				errno = EINVAL;
				return -1;
			}
		} else {
			c->argv[argc++] = cp;
			cp += strcspn(cp, blanks);
			if (!*cp)
				break;
		}
		*cp++ = '\0';
	}
	if (grow((void **)&c->argv, &c->argv_cap, argc + 1, sizeof(*c->argv))) {
		errno = ENOMEM;
		return -1;
	}
	c->argv[argc] = NULL;
	c->argc = (int)argc;
	return 0;
}

int cmdline_read(struct cmdline *c, FILE *f, const char **why)
{
	struct scan sc = { SCAN_BLANK, 0 };
	char *part = NULL;
	size_t part_cap = 0, len = 0, n, body, end;
	bool more = false, cont;
	ssize_t got;
	int ret = -1;

	c->argc = 0;
	c->first = c->lineno + 1;
	for (;;) {
		got = getline(&part, &part_cap, f);
		if (got < 0) {
			if (ferror(f))
				goto out;
			if (more) {
				*why = "missing continuation line";
				errno = EINVAL;
				goto out;
			}
			ret = 0;
			goto out;
		}
		c->lineno++;
		n = (size_t)got;
		cont = n >= 2 && part[n - 2] == '\\' && part[n - 1] == '\n';
		body = cont ? n - 2 : n;
		if (grow((void **)&c->line, &c->line_cap, len + body + 1, 1)) {
			errno = ENOMEM;
			goto out;
		}
		memcpy(c->line + len, part, body);
		c->line[len + body] = '\0';
		/* A comment runs to the end of its line: no continuation. */
		end = scan(&sc, c->line + len, body);
		if (end < body) {
			c->line[len + end] = '\0';
			break;
		}
		len += body;
		if (!cont)
			break;
		more = true;
	}
	ret = cmdline_split(c, why) ? -1 : 1;
out:
	free(part);
	return ret;
}

void cmdline_free(struct cmdline *c)
{
	free(c->line);
	free(c->argv);
	c->line = NULL;
	c->argv = NULL;
	c->line_cap = c->argv_cap = 0;
}
