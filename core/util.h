/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small bounded helpers shared by every layer: strict number parsing (the
 * strtonum idea: range and reason, never a silent 0), allocation-checked
 * string formatting, and UTC time stamps.
 */
#ifndef FA_UTIL_H
#define FA_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

/*
 * Parse an unsigned integer in base 10, or base 16 with a 0x prefix, that
 * must lie in [min, max] and fill the whole string.  On failure returns
 * FA_ERR_INPUT and, if errstr is not NULL, points it at a static reason
 * ("invalid", "too small", "too large").
 */
int fa_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    const char **errstr);

/* Like fa_parse_u64 but the string must be 0x followed by 1-16 hex digits. */
int fa_parse_hex64(const char *s, uint64_t *out, const char **errstr);

/* asprintf that returns NULL on failure instead of leaving *strp undefined. */
char *fa_strfmt(const char *fmt, ...)
    __attribute__((__format__(__printf__, 1, 2)));

/*
 * Set *why (when why is not NULL and *why is still NULL: the first problem
 * wins) to a new formatted string and return FA_ERR_INPUT; for parsers
 * that explain what they refuse.  A failed allocation leaves *why NULL.
 */
int fa_why(char **why, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/*
 * Call fn for each line of len bytes of untrusted text (which must hold no
 * NUL byte: FA_ERR_INPUT with *why), numbered from 1, on a writable copy
 * without its '\n'.  Empty lines are passed; the empty remainder after a
 * final '\n' is not.  Stops at fn's first non-zero return and returns it.
 */
int fa_text_each_line(const char *text, size_t len,
    int (*fn)(char *line, unsigned ln, void *arg, char **why), void *arg,
    char **why);

/* strdup(s), or NULL when s is NULL or allocation fails. */
char *fa_strdup(const char *s);

/* RFC 3339 UTC stamp "2026-12-02T10:00:00Z" into buf (at least 21 bytes). */
void fa_time_rfc3339(time_t t, char *buf, size_t len);
/* Compact stamp "20261202T100000Z" into buf (at least 17 bytes). */
void fa_time_compact(time_t t, char *buf, size_t len);
/* Calendar date "2026-12-02" into buf (at least 11 bytes). */
void fa_time_date(time_t t, char *buf, size_t len);

/*
 * Make room for at least `need` elements of `size` bytes in the array
 * *(void **)arrp of capacity *cap, doubling.  On failure the array is
 * unchanged.  Returns 0 or FA_ERR_NOMEM.  Pointers into the array are
 * invalid afterwards.
 */
int fa_grow(void *arrp, size_t *cap, size_t need, size_t size);

/* Overwrite then free; for buffers that held keys. */
void fa_freezero(void *p, size_t len);

/*
 * A printable-ASCII copy of untrusted bytes (a NodeDescription, a host
 * name): bytes outside 0x20-0x7e, and the backslash, become "\xNN"; the
 * copy stops at the first NUL or after len bytes.  Safe to put in JSON
 * (valid UTF-8), in a terminal and, once HTML-escaped, in a page.
 * NULL on ENOMEM.
 */
char *fa_str_sanitize(const void *buf, size_t len);

/*
 * The message for a jansson parse error of the file named label:
 * "LABEL:LINE:COLUMN: text" (the compiler convention, so that editors
 * jump to it), the text sanitized (it quotes the input); "LABEL: text"
 * when jansson gives no position.  NULL on ENOMEM.
 */
char *fa_json_errmsg(const char *label, const json_error_t *je);
/* The SHA-256 of len bytes at buf, as 64 lower-case hex digits (OpenSSL);
 * 0 or FA_ERR_NOMEM. */
int fa_sha256_hex(const void *buf, size_t len, char out[65]);

#endif
