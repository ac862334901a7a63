/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Component versions read from files, never by running the component:
 * the kernel release (/proc/sys/kernel/osrelease, with the distribution
 * package version /proc/version names, if any) and the loaded NVIDIA
 * kernel module (/sys/module/nvidia/version, else /proc/driver/nvidia/
 * version).  Each becomes a "host.version" observation whose target is the
 * catalogue's component name and whose data says which file it came from.
 */
#ifndef FA_HOST_VERSIONS_H
#define FA_HOST_VERSIONS_H

#include <stddef.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

/*
 * The NVIDIA driver version in the first line of /proc/driver/nvidia/version
 * ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.133.20  ..."): the
 * first blank-separated token of the form N.N or N.N.N, copied into out
 * (at least 32 bytes).  FA_ERR_NOTFOUND if there is none.
 */
int fa_host_nvrm_version(const char *text, char *out, size_t len);

/*
 * The Debian package version in /proc/version (the last "... Debian 6.1.115-1
 * (2024-11-01)"), copied into out (at least FA_VERSION_MAX + 1 bytes);
 * FA_ERR_NOTFOUND if the kernel is not a Debian build.
 */
int fa_host_debian_kernel(const char *text, char *out, size_t len);

/* Add the kernel and driver observations.  0 or FA_ERR_NOMEM. */
int fa_host_collect_versions(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
