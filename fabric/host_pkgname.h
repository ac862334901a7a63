/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The container-stack packages by name, as the distributions and the
 * vendors' repositories call them, and the catalogue component each one
 * is: shared by the dpkg and RPM readers (host_dpkg.c, host_rpm.c).
 */
#ifndef FA_HOST_PKGNAME_H
#define FA_HOST_PKGNAME_H

enum fa_pkg_manager {
	FA_PKG_DPKG,
	FA_PKG_RPM,
};

/*
 * The component ("runc", "docker", ...) of package name under manager,
 * or NULL when it is not one fabaudit judges.
 */
const char *fa_pkg_component(const char *name, enum fa_pkg_manager m);
#endif
