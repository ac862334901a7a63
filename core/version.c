/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Version comparison for the catalogue (see version.h).  The ordering
 * itself is libdpkg's (dpkg_version_compare, the algorithm of Debian Policy
 * 5.6.12): every scheme is first turned into a Debian upstream version,
 * where "~" sorts before anything, even the end of the string, which is
 * what a pre-release needs.  Here only validation and that rewriting.
 *
 * libdpkg marks its API volatile (dpkg's README.api) and ships only as a
 * static library; dpkg_version_compare and struct dpkg_version have kept
 * their shape since dpkg 1.17, and this file is the only user.
 *
 * RPM versions (FA_VER_RPM) are rpm's own: librpm's rpmverParse and
 * rpmverCmp (rpm 4.16+: epoch, then rpmvercmp on version, then on
 * release; measured here, rpm 4.18 puts "1.1.12" before "1.1.12-1.el9"),
 * after a character check of our own.
 */
#define LIBDPKG_VOLATILE_API 1

#include <ctype.h>
#include <string.h>

#include <dpkg/version.h>
#include <rpm/rpmver.h>

#include "errors.h"
#include "version.h"

static int
bad(const char **errstr, const char *why)
{
	if (errstr != NULL)
		*errstr = why;
	return FA_ERR_INPUT;
}

static int
is_alnum(char c)
{
	return isascii((unsigned char)c) && isalnum((unsigned char)c);
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length-checked: at most FA_VERSION_MAX bytes, not empty. */
static int
length_ok(const char *s, const char **errstr)
{
	if (s == NULL || s[0] == '\0')
		return bad(errstr, "empty version");
	if (strnlen(s, FA_VERSION_MAX + 1) > FA_VERSION_MAX)
		return bad(errstr, "version too long");
	return 0;
}

/*
 * Split a Debian version into epoch, upstream and revision, copying the
 * last two into up and rev (each FA_VERSION_MAX + 1 bytes).  Policy
 * 5.6.12: epoch digits only; upstream starts with a digit and holds
 * alphanumerics and . + ~ - (hyphen only when a revision follows);
 * revision alphanumerics and + . ~.
 */
static int
debian_split(const char *s, struct dpkg_version *dv, char *up, char *rev,
    const char **errstr)
{
	const char *colon, *hyphen, *p, *u;
	unsigned long epoch = 0;
	size_t n;
	int r;

	if ((r = length_ok(s, errstr)) != 0)
		return r;
	colon = strchr(s, ':');
	u = s;
	if (colon != NULL) {
		if (colon == s)
			return bad(errstr, "empty epoch");
		for (p = s; p < colon; p++) {
			if (!is_digit(*p))
				return bad(errstr, "epoch is not a number");
			epoch = epoch * 10 + (unsigned long)(*p - '0');
			if (epoch > 0x7fffffffUL)
				return bad(errstr, "epoch too large");
		}
		u = colon + 1;
	}
	hyphen = strrchr(u, '-');
	n = hyphen != NULL ? (size_t)(hyphen - u) : strlen(u);
	if (n == 0)
		return bad(errstr, "empty upstream version");
	if (!is_digit(u[0]))
		return bad(errstr, "upstream version must start with a digit");
	for (p = u; p < u + n; p++)
		if (!is_alnum(*p) && strchr(".+~-", *p) == NULL)
			return bad(errstr, "invalid character in upstream version");
	memcpy(up, u, n);
	up[n] = '\0';
	rev[0] = '\0';
	if (hyphen != NULL) {
		if (hyphen[1] == '\0')
			return bad(errstr, "empty revision");
		for (p = hyphen + 1; *p != '\0'; p++)
			if (!is_alnum(*p) && strchr("+.~", *p) == NULL)
				return bad(errstr, "invalid character in revision");
		/* Bounded: the whole string is at most FA_VERSION_MAX. */
		memcpy(rev, hyphen + 1, strlen(hyphen + 1) + 1);
	}
	dv->epoch = (unsigned int)epoch;
	dv->version = up;
	dv->revision = rev;
	return 0;
}

/*
 * Whether s (after a hyphen) is the tail of a Go pseudo-version
 * (golang.org/x/mod/module's pseudo-version grammar): "0.", optional,
 * then a 14-digit UTC time, "-" and a revision, up to the end or "+".
 * "v0.12.5-0.20231208203051-3b6880d2a00f" is a commit before v0.12.5,
 * and "v0.0.0-20240101000000-abcdef012345" one before any release: a
 * pre-release, though its hyphen is followed by a digit.
 */
static int
pseudo_tail(const char *s)
{
	size_t n;

	if (strncmp(s, "0.", 2) == 0)
		s += 2;
	if (strspn(s, "0123456789") != 14 || s[14] != '-')
		return 0;
	s += 15;
	n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789");
	return n > 0 && (s[n] == '\0' || s[n] == '+');
}

/*
 * Upstream release to Debian upstream form in out (FA_VERSION_MAX + 1
 * bytes): drop a leading "v" and any "+build", and turn the hyphen that
 * starts a pre-release (hyphen then letter, or a Go pseudo-version's
 * timestamp) into "~".
 */
static int
upstream_norm(const char *s, char *out, const char **errstr)
{
	const char *p;
	size_t o = 0;
	int pre = 0, r;

	if ((r = length_ok(s, errstr)) != 0)
		return r;
	if (s[0] == 'v' || s[0] == 'V')
		s++;
	if (!is_digit(s[0]))
		return bad(errstr, "version must start with a digit");
	for (p = s; *p != '\0' && *p != '+'; p++) {
		if (*p == '-') {
			if (p[1] == '\0' || p[1] == '+')
				return bad(errstr, "version ends in a hyphen");
			if (!pre && (!is_digit(p[1]) || pseudo_tail(p + 1))) {
				out[o++] = '~';
				pre = 1;
				continue;
			}
		} else if (!is_alnum(*p) && *p != '.' && *p != '_') {
			return bad(errstr, "invalid character in version");
		}
		out[o++] = *p;
	}
	if (*p == '+') {
		/* Build metadata: checked, not compared. */
		for (p++; *p != '\0'; p++)
			if (!is_alnum(*p) && *p != '.' && *p != '-')
				return bad(errstr,
				    "invalid character in build metadata");
	}
	out[o] = '\0';
	return 0;
}

/*
 * Kernel release: the leading X.Y or X.Y.Z, padded to three numbers so
 * that "6.1" equals "6.1.0"; the suffix is checked for printable,
 * harmless characters and then ignored.
 */
static int
kernel_norm(const char *s, char *out, const char **errstr)
{
	const char *p = s;
	size_t o = 0;
	int parts = 0, r;

	if ((r = length_ok(s, errstr)) != 0)
		return r;
	for (;;) {
		if (!is_digit(*p))
			return bad(errstr, "kernel release must start X.Y");
		while (is_digit(*p))
			out[o++] = *p++;
		parts++;
		if (parts == 3 || *p != '.' || !is_digit(p[1]))
			break;
		out[o++] = *p++;
	}
	if (parts < 2)
		return bad(errstr, "kernel release must start X.Y");
	if (parts == 2) {
		out[o++] = '.';
		out[o++] = '0';
	}
	out[o] = '\0';
	for (; *p != '\0'; p++)
		if (!is_alnum(*p) && strchr(".-+_~", *p) == NULL)
			return bad(errstr, "invalid character in kernel release");
	return 0;
}

/*
 * An RPM EVR as rpm(8) writes one: optional epoch digits and ":", a
 * version and an optional "-" release, each of alphanumerics and
 * . _ + ~ ^ (rpm's rpmvercmp alphabet plus its separators), the version
 * starting with an alphanumeric.
 */
static int
rpm_valid(const char *s, const char **errstr)
{
	size_t n = strspn(s, "0123456789"), k;
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+~^";

	if (length_ok(s, errstr) != 0)
		return FA_ERR_INPUT;
	if (s[n] == ':')
		s += n + 1;
	if (!is_alnum(s[0]))
		return bad(errstr, "RPM version does not start with a letter "
		    "or digit");
	k = strspn(s, set);
	if (s[k] == '-')
		k += 1 + strspn(s + k + 1, set);
	if (s[k] != '\0' || s[k - 1] == '-')
		return bad(errstr, "invalid character in RPM version");
	return 0;
}

static int
rpm_cmp(const char *a, const char *b, int *cmp, const char **errstr)
{
	rpmver va, vb;

	if (rpm_valid(a, errstr) != 0 || rpm_valid(b, errstr) != 0)
		return FA_ERR_INPUT;
	va = rpmverParse(a);
	vb = rpmverParse(b);
	if (va == NULL || vb == NULL) {
		rpmverFree(va);
		rpmverFree(vb);
		return bad(errstr, "RPM version rpm cannot parse");
	}
	*cmp = rpmverCmp(va, vb);
	*cmp = *cmp < 0 ? -1 : *cmp > 0;
	rpmverFree(va);
	rpmverFree(vb);
	return 0;
}

/* Bring s into a dpkg_version under scheme; buffers hold the strings. */
static int
to_dpkg(enum fa_ver_scheme scheme, const char *s, struct dpkg_version *dv,
    char *up, char *rev, const char **errstr)
{
	int r;

	switch (scheme) {
	case FA_VER_DEBIAN:
		return debian_split(s, dv, up, rev, errstr);
	case FA_VER_UPSTREAM:
		r = upstream_norm(s, up, errstr);
		break;
	case FA_VER_KERNEL:
		r = kernel_norm(s, up, errstr);
		break;
	default:
		return bad(errstr, "unknown version scheme");
	}
	if (r != 0)
		return r;
	rev[0] = '\0';
	dv->epoch = 0;
	dv->version = up;
	dv->revision = rev;
	return 0;
}

int
fa_version_valid(enum fa_ver_scheme scheme, const char *s,
    const char **errstr)
{
	char up[FA_VERSION_MAX + 3], rev[FA_VERSION_MAX + 1];
	struct dpkg_version dv;

	if (scheme == FA_VER_RPM)
		return rpm_valid(s, errstr);
	return to_dpkg(scheme, s, &dv, up, rev, errstr);
}

int
fa_version_cmp(enum fa_ver_scheme scheme, const char *a, const char *b,
    int *cmp, const char **errstr)
{
	char ua[FA_VERSION_MAX + 3], ra[FA_VERSION_MAX + 1];
	char ub[FA_VERSION_MAX + 3], rb[FA_VERSION_MAX + 1];
	struct dpkg_version da, db;
	int r;

	if (scheme == FA_VER_RPM)
		return rpm_cmp(a, b, cmp, errstr);
	if ((r = to_dpkg(scheme, a, &da, ua, ra, errstr)) != 0 ||
	    (r = to_dpkg(scheme, b, &db, ub, rb, errstr)) != 0)
		return r;
	r = dpkg_version_compare(&da, &db);
	*cmp = r < 0 ? -1 : r > 0;
	return 0;
}

int
fa_version_in_range(enum fa_ver_scheme scheme, const char *v,
    const char *from, const char *to, int *in, const char **errstr)
{
	int c, r;

	if ((r = fa_version_valid(scheme, v, errstr)) != 0)
		return r;
	*in = 1;
	if (from != NULL) {
		if ((r = fa_version_cmp(scheme, v, from, &c, errstr)) != 0)
			return r;
		if (c < 0)
			*in = 0;
	}
	if (to != NULL) {
		if ((r = fa_version_cmp(scheme, v, to, &c, errstr)) != 0)
			return r;
		if (c >= 0)
			*in = 0;
	}
	return 0;
}

static const char *const scheme_names[] = {
	[FA_VER_DEBIAN] = "debian",
	[FA_VER_UPSTREAM] = "upstream",
	[FA_VER_KERNEL] = "kernel",
	[FA_VER_RPM] = "rpm",
};

const char *
fa_version_scheme_name(enum fa_ver_scheme scheme)
{
	if ((unsigned)scheme >= sizeof(scheme_names) / sizeof(scheme_names[0]))
		return "unknown";
	return scheme_names[scheme];
}

int
fa_version_scheme_parse(const char *name, enum fa_ver_scheme *out)
{
	size_t i;

	for (i = 0; i < sizeof(scheme_names) / sizeof(scheme_names[0]); i++) {
		if (name != NULL && strcmp(name, scheme_names[i]) == 0) {
			*out = (enum fa_ver_scheme)i;
			return 0;
		}
	}
	return FA_ERR_INPUT;
}
