/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sensitive paths and device nodes, by stat only: runtime and kubelet
 * sockets (at their well-known paths, bind-mounted anywhere, or inside a
 * bind-mounted directory), the Kubernetes service-account token (never
 * read), container markers, escape files (cgroup v1 release_agent wherever
 * a v1 hierarchy is mounted, core_pattern...) and every device node under
 * /dev.
 *
 * host.path     one per probed path, target the path: {path, role, exists,
 *               type, mode "0NNN", uid, gid, size, inode "dev:ino" (to
 *               tell /run/x and /var/run/x apart)}; role names why it was
 *               probed ("runtime-socket:docker", "k8s-token",
 *               "escape:release_agent", ...).  A socket found rather than
 *               looked for at a fixed path also has found_by
 *               ("mountinfo", "/proc/net/unix") and, from the mount table,
 *               mount (the mount point it was found at or under), and for
 *               a bind-mounted socket mount_root (the host-side path,
 *               relative to its file system) and fstype.  Roles of sockets:
 *               "runtime-socket:API" (a runtime or kubelet API, see
 *               fa_host_socket_ident), "host-socket:NAME" (a known daemon
 *               that is not one) and "host-socket:unidentified" (a
 *               bind-mounted socket whose name says nothing).
 * host.sockets  target "/proc/self/mountinfo": the search of the mount
 *               table for sockets: {mounts (entries read), socket_mounts
 *               [{path, root, fstype, role}], dirs_searched, names (how
 *               many socket names were tried in each directory mount),
 *               unread [{path, reason}] and unread_count (what could not
 *               be stat'ed), not_searched [mount points] and
 *               not_searched_count (past FA_HOST_SOCK_SEARCH_MAX stats),
 *               remote [mount points] and remote_count (network and FUSE
 *               file systems, not searched: a stat there can block on the
 *               server), unparsed (mount table lines or entries that were
 *               not understood)}.  not_collected when the mount table was
 *               not read.
 * host.devices  target "/dev": {dirs: [{path, listed, absent?, reason?,
 *               unread?: [names], unread_count?}], nodes: [{path, type
 *               "char"|"block", major, minor, mode, uid, gid}]}: /dev and
 *               every directory under it (symbolic links not followed),
 *               breadth first, each in name order.
 */
#ifndef FA_HOST_PATHS_H
#define FA_HOST_PATHS_H

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

#define FA_HOST_DEV_MAX		4096	/* entries per listed directory */
#define FA_HOST_DEV_DIRS_MAX	1024	/* directories listed under /dev */
#define FA_HOST_DEV_DEPTH	8	/* levels below /dev */
#define FA_HOST_SOCK_SEARCH_MAX	65536	/* stats of the mount search */
#define FA_HOST_LIST_MAX	64	/* names kept in an unread list */

/* The probe's name for a file type ("socket", "char", "file"...). */
const char *fa_host_file_type(mode_t m);

/* Stat one path into a host.path observation with the given role. */
int fa_host_probe_path(const struct fa_sysroot *root,
    struct fa_snapshot *snap, const char *path, const char *role);

/*
 * The same for a socket found rather than looked for: found_by is added
 * to the data.  Does nothing (0) when path already has a host.path
 * observation.
 */
int fa_host_probe_found(const struct fa_sysroot *root,
    struct fa_snapshot *snap, const char *path, const char *role,
    const char *found_by);

/* What a socket's name says it serves (fa_host_socket_ident). */
enum fa_sock_class {
	FA_SOCK_UNKNOWN = 0,	/* nothing known */
	FA_SOCK_RUNTIME = 1,	/* a container runtime or kubelet API */
	FA_SOCK_OTHER = 2	/* a known daemon that serves no such API */
};

/*
 * Identify a Unix socket by its name alone (nothing is connected to): a
 * path, or an abstract name written "@..." as /proc/net/unix shows it.
 * *api is set to the API's short name ("docker", "containerd-shim",
 * "kubelet-pod-resources", "nvidia-persistenced"...) unless the class is
 * FA_SOCK_UNKNOWN.
 */
enum fa_sock_class fa_host_socket_ident(const char *name, const char **api);

/*
 * Every fixed probe, the cgroup v1 release_agent files (under
 * /sys/fs/cgroup and at every v1 mount of the mount table), the search of
 * the mount table for sockets (host.sockets; reads the host.mounts
 * observation, so runs after fa_host_collect_mounts), and host.devices.
 */
int fa_host_collect_paths(const struct fa_sysroot *root,
    struct fa_snapshot *snap);

#endif
