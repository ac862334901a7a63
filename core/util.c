/* SPDX-License-Identifier: BSD-2-Clause */
/* Bounded parsing, formatting and time helpers (see util.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "errors.h"
#include "util.h"

int
fa_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    const char **errstr)
{
	unsigned long long v;
	char *end;
	int base = 10;
	const char *digits = s;

	if (errstr != NULL)
		*errstr = NULL;
	if (s == NULL || *s == '\0' || isspace((unsigned char)*s) ||
	    *s == '-' || *s == '+')
		goto invalid;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = s + 2;
		if (!isxdigit((unsigned char)*digits))
			goto invalid;
	}
	/* strtoull alone would take a second "0x", or a sign, after ours. */
	for (end = (char *)digits; *end != '\0'; end++)
		if (base == 16 ? !isxdigit((unsigned char)*end) :
		    !isdigit((unsigned char)*end))
			goto invalid;
	errno = 0;
	v = strtoull(digits, &end, base);
	if (*end != '\0')
		goto invalid;
	if (errno == ERANGE || v > max) {
		if (errstr != NULL)
			*errstr = "too large";
		return FA_ERR_INPUT;
	}
	if (v < min) {
		if (errstr != NULL)
			*errstr = "too small";
		return FA_ERR_INPUT;
	}
	*out = v;
	return 0;
invalid:
	if (errstr != NULL)
		*errstr = "invalid";
	return FA_ERR_INPUT;
}

int
fa_parse_hex64(const char *s, uint64_t *out, const char **errstr)
{
	size_t n;

	if (s == NULL || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
		if (errstr != NULL)
			*errstr = "invalid";
		return FA_ERR_INPUT;
	}
	n = strlen(s + 2);
	if (n == 0 || n > 16) {
		if (errstr != NULL)
			*errstr = n == 0 ? "invalid" : "too large";
		return FA_ERR_INPUT;
	}
	return fa_parse_u64(s, 0, UINT64_MAX, out, errstr);
}

int
fa_why(char **why, const char *fmt, ...)
{
	va_list ap;
	char *m = NULL;

	if (why != NULL && *why == NULL) {
		va_start(ap, fmt);
		if (vasprintf(&m, fmt, ap) < 0)
			m = NULL;
		va_end(ap);
		*why = m;
	}
	return FA_ERR_INPUT;
}

int
fa_text_each_line(const char *text, size_t len,
    int (*fn)(char *line, unsigned ln, void *arg, char **why), void *arg,
    char **why)
{
	char *copy, *line, *next;
	unsigned ln = 0;
	int r = 0;

	if (memchr(text, '\0', len) != NULL)
		return fa_why(why, "contains a NUL byte");
	if (len == SIZE_MAX || (copy = malloc(len + 1)) == NULL)
		return FA_ERR_NOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (line = copy; r == 0 && line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else if (*line == '\0')
			break;
		r = fn(line, ++ln, arg, why);
	}
	free(copy);
	return r;
}

char *
fa_strfmt(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return NULL;
	return s;
}

char *
fa_strdup(const char *s)
{
	return s == NULL ? NULL : strdup(s);
}

void
fa_time_rfc3339(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void
fa_time_compact(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm) == 0)
		snprintf(buf, len, "19700101T000000Z");
}

void
fa_time_date(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%Y-%m-%d", &tm) == 0)
		snprintf(buf, len, "1970-01-01");
}

void
fa_freezero(void *p, size_t len)
{
	if (p == NULL)
		return;
	explicit_bzero(p, len);
	free(p);
}

char *
fa_str_sanitize(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	char *out, *q;
	size_t i, n;

	for (n = 0; n < len && p[n] != '\0'; n++)
		;
	if (n > (SIZE_MAX - 1) / 4 || (out = malloc(n * 4 + 1)) == NULL)
		return NULL;
	for (i = 0, q = out; i < n; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			*q++ = (char)p[i];
		else
			q += snprintf(q, 5, "\\x%02x", p[i]);
	}
	*q = '\0';
	return out;
}

int
fa_grow(void *arrp, size_t *cap, size_t need, size_t size)
{
	void **a = arrp, *nv;
	size_t nc;

	if (need <= *cap)
		return 0;
	for (nc = *cap ? *cap : 16; nc < need; nc *= 2)
		if (nc > SIZE_MAX / 2)
			return FA_ERR_NOMEM;
	if ((nv = reallocarray(*a, nc, size)) == NULL)
		return FA_ERR_NOMEM;
	*a = nv;
	*cap = nc;
	return 0;
}

char *
fa_json_errmsg(const char *label, const json_error_t *je)
{
	char *t = fa_str_sanitize(je->text, sizeof(je->text)), *m;

	if (t == NULL)
		return NULL;
	if (je->line > 0)
		m = fa_strfmt("%s:%d:%d: %s", label, je->line,
		    je->column > 0 ? je->column : 1, t);
	else
		m = fa_strfmt("%s: %s", label, t);
	free(t);
	return m;
}

int
fa_sha256_hex(const void *buf, size_t len, char out[65])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32)
		return FA_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
	return 0;
}
