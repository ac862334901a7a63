/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An fa_emit_fn (reports/report.h) into memory, for the tests of the
 * streaming writers: it keeps what it is given, NUL-terminated, and stops
 * (returns -1, as a full disk would) once it would hold more than `stop`
 * bytes (0: no limit).
 */
#ifndef FA_TEST_EMIT_SINK_H
#define FA_TEST_EMIT_SINK_H

#include <stdlib.h>
#include <string.h>

struct sink {
	char	*p;
	size_t	 n, stop;
};

static int
sink_emit(const char *p, size_t len, void *arg)
{
	struct sink *s = arg;
	char *np;

	if (s->stop != 0 && s->n + len > s->stop)
		return -1;
	if ((np = realloc(s->p, s->n + len + 1)) == NULL)
		return -1;
	s->p = np;
	memcpy(s->p + s->n, p, len);
	s->n += len;
	s->p[s->n] = '\0';
	return 0;
}

#endif
