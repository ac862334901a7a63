/*
 * For the IB check tests: building the text of IB observations as
 * fabric/ib_*.c writes them (the snapshot format of fabaudit check).
 * Each helper returns a string the caller frees; allocation failure
 * fails the test.
 */
#ifndef FA_TEST_IB_SNAP_H
#define FA_TEST_IB_SNAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static char *xfmt(const char *fmt, ...)
    __attribute__((__format__(__printf__, 1, 2), __unused__));
static void sbf(char **sb, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3), __unused__));

/* printf into a new string. */
static char *
xfmt(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	return s;
}

/* Append printf-style text to the string *sb (NULL: empty). */
static void
sbf(char **sb, const char *fmt, ...)
{
	va_list ap;
	char *add = NULL, *n = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&add, fmt, ap);
	va_end(ap);
	assert_true(r >= 0);
	assert_true(asprintf(&n, "%s%s", *sb != NULL ? *sb : "", add) >= 0);
	free(*sb);
	free(add);
	*sb = n;
}

/* One IB observation's JSON text; reason NULL: none. */
static __attribute__((__unused__)) char *
obs(const char *id, const char *kind, const char *target, const char *req,
    const char *state, const char *reason, const char *data)
{
	char *r = reason != NULL ? xfmt("\"%s\"", reason) : xfmt("null");
	char *o = xfmt("{\"id\":\"%s\",\"family\":\"ib\",\"kind\":\"%s\","
	    "\"target\":\"%s\",\"request\":\"%s\",\"state\":\"%s\","
	    "\"reason\":%s,\"data\":%s}", id, kind, target, req, state, r,
	    data);

	free(r);
	return o;
}

#endif
