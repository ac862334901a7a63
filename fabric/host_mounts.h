/*
 * The scanning process's mounts, /proc/self/mountinfo
 * (proc_pid_mountinfo(5)): what the host lent the container (bind mounts
 * of /, /etc, the kubelet's directory, docker.sock), what is writable
 * (/proc/sys, /sys, cgroup v1) and which cgroup version is in use.
 * Decoded strictly: ten or more fields, the " - " separator, octal escapes
 * (\040 for a space) undone and checked.
 */
#ifndef FA_HOST_MOUNTS_H
#define FA_HOST_MOUNTS_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"

#define FA_KIND_HOST_MOUNTS	"host.mounts"
#define FA_MOUNTINFO_MAX	(4u * 1024 * 1024)
#define FA_MOUNTS_MAX		20000

/*
 * Decode mountinfo text into a new array of objects, in file order:
 *   {"mount_point", "root", "fstype", "source", "options" (per mount,
 *    e.g. "rw,nosuid"), "super_options", "device" ("0:23"), "read_only"}
 * Strings are the unescaped path bytes, sanitised (fa_str_sanitize) when
 * they hold anything unprintable.  FA_ERR_INPUT with *why naming the line;
 * FA_ERR_TOOBIG beyond FA_MOUNTS_MAX mounts.
 */
int fa_mountinfo_decode(const char *text, size_t len, json_t **out,
    char **why);

/* One "host.mounts" observation: {"mounts": [...]} or the reason. */
int fa_host_collect_mounts(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
