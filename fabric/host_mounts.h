/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scanning process's mounts, /proc/self/mountinfo
 * (proc_pid_mountinfo(5), kernel Documentation/filesystems/proc.rst
 * "/proc/<pid>/mountinfo"): what the host lent the container (bind mounts
 * of /, /etc, the kubelet's directory, docker.sock), what is writable
 * (/proc/sys, /sys, cgroup v1) and which cgroup version is in use.
 *
 * Decoded line by line and field by field: a line that is not what the
 * kernel writes is skipped and named in the observation, and the others
 * are kept.  A table where no line at all decodes is not a mount table
 * (every mount namespace has its root mount).
 */
#ifndef FA_HOST_MOUNTS_H
#define FA_HOST_MOUNTS_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

/*
 * Bounds.  The file is read whole, at most FA_MOUNTINFO_MAX bytes: a
 * larger one is not decoded at all and its observation is an error saying
 * "larger than the read limit" (the sysroot reader returns nothing of a
 * file beyond its bound).  16 MiB holds some 60,000 lines of 280 bytes,
 * the length of a Kubernetes node's volume mounts: three times
 * FA_MOUNTS_MAX (the kernel's own limit, sysctl fs.mount-max, is 100,000
 * mounts per namespace by default).  Of the lines read, the first
 * FA_MOUNTS_MAX mounts are kept; the lines after them are counted in
 * "lines_not_examined" and "truncated" is true.  At most
 * FA_MOUNTS_SKIPPED_MAX skipped lines are described; all are counted.
 */
#define FA_MOUNTINFO_MAX	(16u * 1024 * 1024)
#define FA_MOUNTS_MAX		20000
#define FA_MOUNTS_SKIPPED_MAX	32

/*
 * Decode mountinfo text into a new object:
 *   {"mounts": [...] in file order, each
 *      {"mount_id", "parent_id" (numbers), "device" ("0:23"),
 *       "root" (a path in the file system, or a name such as nsfs's
 *        "net:[4026532712]"), "root_is_path", "mount_point",
 *       "options" (per mount, "rw,nosuid"), "optional_fields"
 *       (["shared:3", "master:1"], as written), "fstype", "source"
 *       (possibly "", "//server/share", "host:/export"), "super_options",
 *       "super_read_only", "read_only" (writes fail: the mount or its
 *       superblock is read-only)},
 *    "lines": lines in the text,
 *    "lines_skipped": lines not decoded,
 *    "skipped": [{"line": N, "why": "...", "text": "<the line, cut>"}]
 *      (the first FA_MOUNTS_SKIPPED_MAX),
 *    "truncated": more than FA_MOUNTS_MAX mounts,
 *    "lines_not_examined": lines after the FA_MOUNTS_MAX-th mount}
 * Strings are the unescaped bytes, sanitised (fa_str_sanitize) when they
 * hold anything unprintable or a backslash.  FA_ERR_INPUT with *why when
 * no line decodes (naming the first line's fault); FA_ERR_NOMEM.
 */
int fa_mountinfo_decode(const char *text, size_t len, json_t **out,
    char **why);

/* One "host.mounts" observation of /proc/self/mountinfo: the object
 * above, or the reason it could not be read. */
int fa_host_collect_mounts(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
