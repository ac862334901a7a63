/*
 * Installed container-stack packages from the dpkg database
 * (SYSROOT/var/lib/dpkg/status, deb822 stanzas, deb-control(5)): runc,
 * containerd, Docker Engine and the NVIDIA container toolkit, under the
 * package names Debian, Ubuntu, Docker's and NVIDIA's repositories use.
 * A Debian package version is not an upstream version: distributions
 * backport fixes without changing the upstream part, so the upstream
 * version derived here supports a version-only judgement and nothing more.
 */
#ifndef FA_HOST_DPKG_H
#define FA_HOST_DPKG_H

#include <stddef.h>

#include "../core/snapshot.h"
#include "../core/version.h"
#include "host_fs.h"

#define FA_KIND_HOST_PACKAGE	"host.package"
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
 * Call fn for every stanza of a dpkg status text whose Status is
 * "install ok installed", with its Package and Version (both validated;
 * a stanza with a bad one is skipped and counted in *skipped).  Stops at
 * the first non-zero return of fn and returns it.  FA_ERR_INPUT with *why
 * for text that is not deb822 (a line without ':' outside a continuation,
 * a NUL byte).
 */
int fa_dpkg_each_installed(const char *text, size_t len,
    int (*fn)(void *arg, const char *package, const char *version),
    void *arg, size_t *skipped, char **why);

/*
 * One "host.package" observation per installed package of interest
 * (target "dpkg:<name>"), and one with target "dpkg" for the database
 * itself: complete with the number of packages recorded and of installed
 * stanzas skipped as malformed, or not_collected/error saying why it could
 * not be read.  0 or FA_ERR_NOMEM.
 */
int fa_host_collect_dpkg(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
