/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Installed container-stack packages from the dpkg database
 * (SYSROOT/var/lib/dpkg/status, deb822 stanzas, deb-control(5)): runc,
 * containerd, Docker Engine and the NVIDIA container toolkit, under the
 * package names Debian, Ubuntu, Docker's and NVIDIA's repositories use.
 * A Debian package version is not an upstream version: distributions
 * backport fixes without changing the upstream part, so the upstream
 * version derived here supports a version-only judgement and nothing more.
 * A stanza that does not parse costs that stanza, not the database.
 */
#ifndef FA_HOST_DPKG_H
#define FA_HOST_DPKG_H

#include <stddef.h>

#include "../core/snapshot.h"
#include "../core/version.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

/* A status file beyond this is not read (an error observation saying so);
 * a Debian system's with 3,000 packages is some 3 MiB. */
#define FA_DPKG_STATUS_MAX	(64u * 1024 * 1024)

/*
 * The upstream release inside a Debian version, in the catalogue's upstream
 * form: epoch and revision dropped, "~" (a Debian pre-release) back to "-",
 * repack suffixes from the first "+" dropped ("5:27.3.1-1~debian.12~bookworm"
 * -> "27.3.1", "1.1.12+ds1-5+deb12u1" -> "1.1.12", "1.0.0~rc93+ds1-1" ->
 * "1.0.0-rc93").  out holds FA_VERSION_MAX + 1 bytes.  FA_ERR_INPUT if the
 * result is not an upstream version.
 */
int fa_dpkg_upstream(const char *debver, char *out, size_t len);

/*
 * What a stanza's Status says is on disk (see host_dpkg.c for the reading
 * of dpkg(1)'s package states):
 *   ABSENT     not-installed, config-files: the programs are not there;
 *   PRESENT    unpacked, half-configured, triggers-awaited,
 *              triggers-pending, installed: the files of Version are;
 *   UNCERTAIN  half-installed, or the reinstreq flag: files are there, of
 *              no version the database vouches for.
 */
enum fa_dpkg_presence {
	FA_DPKG_ABSENT,
	FA_DPKG_PRESENT,
	FA_DPKG_UNCERTAIN,
};

/* One stanza that parsed.  The three Status words are dpkg's own names
 * (lower case); version is "" for an ABSENT package without a valid one. */
struct fa_dpkg_pkg {
	const char		*package, *version;
	const char		*want, *eflag, *state;
	enum fa_dpkg_presence	 presence;
	unsigned		 line;		/* its first line */
	char			 source[101];	/* source package ("" unknown) */
	const char		*maintainer;	/* Maintainer, "" if none */
};

#define FA_DPKG_SKIPPED_MAX	16

/* What a walk saw: stanzas, and those skipped (the first few described). */
struct fa_dpkg_tally {
	size_t		 stanzas, skipped, nlisted;
	struct {
		unsigned line;		/* the stanza's first line */
		char	 package[101];	/* "" when unknown */
		char	 why[128];
	} listed[FA_DPKG_SKIPPED_MAX];
};

/*
 * Call fn for every stanza of a dpkg status text (deb822(5); Status as
 * dpkg(1) and dpkg-query(1) describe it) that parses: a Package name of
 * Debian Policy 5.6.7, a Status of three words dpkg knows, a valid Debian
 * Version when the package is PRESENT or UNCERTAIN, no line that is not a
 * field or a continuation, no field of these three twice, no NUL byte.  A
 * stanza that does not parse is skipped and counted in *t, and the walk
 * goes on.  Stops at the first non-zero return of fn and returns it.
 * FA_ERR_INPUT with *why (why may be NULL) when there are stanzas and none
 * parses: not a dpkg database.  FA_ERR_NOMEM.
 */
int fa_dpkg_each_package(const char *text, size_t len,
    int (*fn)(void *arg, const struct fa_dpkg_pkg *p), void *arg,
    struct fa_dpkg_tally *t, char **why);

/*
 * fa_dpkg_each_package for the PRESENT packages only, with their Package
 * and Version (both validated); *skipped is the tally's count of stanzas
 * skipped.
 */
int fa_dpkg_each_installed(const char *text, size_t len,
    int (*fn)(void *arg, const char *package, const char *version),
    void *arg, size_t *skipped, char **why);

/*
 * One "host.package" observation per PRESENT or UNCERTAIN package of
 * interest (target "dpkg:<name>"): complete for PRESENT, incomplete with
 * the reason for UNCERTAIN, its data {"package", "component", "version",
 * "upstream", "source", "status" ("hold ok installed"), "want", "eflag",
 * "state"}.  And one with target "dpkg" for the database itself: complete
 * with {"source", "packages" (observations made), "uncertain", "stanzas",
 * "skipped" (stanzas that did not parse), "skipped_stanzas" ([{"line",
 * "package", "why"}], the first FA_DPKG_SKIPPED_MAX)}, or
 * not_collected/error saying why it could not be read.  0 or FA_ERR_NOMEM.
 */
int fa_host_collect_dpkg(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
