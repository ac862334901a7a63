/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Version strings as the host shows them, compared the way their owners
 * order them.  Three schemes:
 *
 *  FA_VER_DEBIAN    a Debian package version, [epoch:]upstream[-revision]
 *                   (Debian Policy 5.6.12), ordered by libdpkg itself:
 *                   "1.1.12+ds1-5+deb12u1", "1:2.66-4".
 *  FA_VER_UPSTREAM  an upstream release: "570.133.20", "1.17.8", "v1.2.0",
 *                   "1.0.0-rc6", "1.2.0-rc.3", "23.10-5.1.4.0".  A hyphen
 *                   followed by a letter starts a pre-release, which sorts
 *                   before the release (semver 2.0.0 section 11); "+build"
 *                   is ignored (section 10).  A hyphen followed by a digit
 *                   is part of the number (vendor build suffixes).
 *  FA_VER_KERNEL    a kernel release as in /proc/sys/kernel/osrelease,
 *                   "6.1.0-27-amd64": only the leading X.Y[.Z] is compared;
 *                   the rest names a distribution build whose backports the
 *                   number does not show.
 *
 * Strings are untrusted: at most FA_VERSION_MAX bytes of printable ASCII,
 * starting with a digit (after an optional "v" for upstream), else
 * FA_ERR_INPUT.
 */
#ifndef FA_VERSION_H
#define FA_VERSION_H

#include <stddef.h>

#define FA_VERSION_MAX	128

enum fa_ver_scheme {
	FA_VER_DEBIAN,
	FA_VER_UPSTREAM,
	FA_VER_KERNEL,
	FA_VER_RPM,	/* [epoch:]version[-release], rpm's ordering */
};

/*
 * Compare a with b under scheme: *cmp is <0, 0 or >0.  Returns 0, or
 * FA_ERR_INPUT with *errstr (if not NULL) naming what is wrong and which
 * operand ("first"/"second" is left to the caller: errstr says what).
 */
int fa_version_cmp(enum fa_ver_scheme scheme, const char *a, const char *b,
    int *cmp, const char **errstr);

/* Parse check only: 0 if s is a valid version of scheme. */
int fa_version_valid(enum fa_ver_scheme scheme, const char *s,
    const char **errstr);

/*
 * Whether v lies in the half-open range [from, to): from may be NULL (no
 * lower bound), to may be NULL (no upper bound).  *in is 1 or 0.
 */
int fa_version_in_range(enum fa_ver_scheme scheme, const char *v,
    const char *from, const char *to, int *in, const char **errstr);

/* The scheme's name ("debian", "upstream", "kernel"). */
const char *fa_version_scheme_name(enum fa_ver_scheme scheme);
/* Scheme from its name; FA_ERR_INPUT if unknown. */
int fa_version_scheme_parse(const char *name, enum fa_ver_scheme *out);
#endif
