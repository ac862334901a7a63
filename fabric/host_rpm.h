/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Installed container-stack packages from the RPM database of the audited
 * root (RHEL, Rocky, AlmaLinux, Fedora, Amazon Linux...): runc,
 * containerd, Docker Engine and the NVIDIA container toolkit under the
 * names those distributions and Docker's and NVIDIA's repositories use.
 * The database is read by librpm itself, from a private copy: librpm
 * opens files by path, which a hostile tree could point outside the
 * sysroot, and SQLite may write beside a database it opens.
 */
#ifndef FA_HOST_RPM_H
#define FA_HOST_RPM_H

#include "../core/snapshot.h"
#include "host_fs.h"

/* A database file beyond this is not read (an error observation says so);
 * a full RHEL 9 server's rpmdb.sqlite is some 60 MiB. */
#define FA_RPMDB_MAX	(256u * 1024 * 1024)

/* One package header, as librpm gives it (valid during the callback). */
struct fa_rpm_pkg {
	const char	*name;
	const char	*evr;		/* [epoch:]version-release */
	const char	*version;	/* the VERSION tag: upstream's */
	const char	*vendor;	/* NULL if the header has none */
	const char	*sourcerpm;	/* "runc-1.1.12-4.el9.src.rpm" */
};

/*
 * Every package of the database in directory dbdir (librpm's backend
 * "sqlite" or "bdb_ro"), fn called for each; *total counts them.
 * FA_ERR_INPUT with *why (caller frees) when librpm cannot open or read
 * it; fn's non-zero return stops the walk and is returned.
 */
int fa_rpmdb_each(const char *dbdir, const char *backend,
    int (*fn)(void *, const struct fa_rpm_pkg *), void *arg, size_t *total,
    char **why);

/*
 * Who built a package, from its Vendor tag: the os-release ID of the
 * distribution ("rhel", "rocky", "fedora"...), "vendor" for another
 * maker (Docker, NVIDIA), "unknown" with none.
 */
const char *fa_rpm_origin(const char *vendor);

/*
 * The source package of a SOURCERPM value ("runc-1.1.12-4.el9.src.rpm"
 * -> "runc"); "" when it does not have that shape.
 */
void fa_rpm_source_name(const char *sourcerpm, char *out, size_t len);

int fa_host_collect_rpm(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
