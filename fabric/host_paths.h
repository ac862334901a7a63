/*
 * Sensitive paths and device nodes, by stat only: runtime and kubelet
 * sockets, the Kubernetes service-account token (never read), container
 * markers, escape files (cgroup v1 release_agent, core_pattern...) and the
 * device nodes under /dev, /dev/infiniband, /dev/nvidia-caps and the IMEX
 * channel directory.
 *
 * host.path     one per probed path, target the path: {path, role, exists,
 *               type, mode "0NNN", uid, gid, size, inode "dev:ino" (to
 *               tell /run/x and /var/run/x apart)}; role names why it was
 *               probed ("runtime-socket:docker", "k8s-token",
 *               "escape:release_agent", ...).
 * host.devices  target "/dev": {dirs: [{path, listed, reason?}],
 *               nodes: [{path, type "char"|"block", major, minor, mode,
 *               uid, gid}]}.
 */
#ifndef FA_HOST_PATHS_H
#define FA_HOST_PATHS_H

#include "../core/snapshot.h"
#include "host_fs.h"

#define FA_KIND_HOST_PATH	"host.path"
#define FA_KIND_HOST_DEVICES	"host.devices"
#define FA_HOST_DEV_MAX		4096	/* entries per listed directory */

/* The probe's name for a file type ("socket", "char", "file"...). */
const char *fa_host_file_type(mode_t m);

/* Stat one path into a host.path observation with the given role. */
int fa_host_probe_path(const struct fa_sysroot *root,
    struct fa_snapshot *snap, const char *path, const char *role);

/* Every fixed probe, the cgroup v1 release_agent files, and host.devices. */
int fa_host_collect_paths(const struct fa_sysroot *root,
    struct fa_snapshot *snap);

#endif
