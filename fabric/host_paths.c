/*
 * Stat-only probes of sensitive paths and device nodes (see host_paths.h).
 * Nothing here opens a socket, a device or the service-account token: the
 * type, owner and mode are the evidence, and they are what a provider can
 * check on its side.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_paths.h"

static const struct {
	const char	*path;
	const char	*role;
} probes[] = {
	{ "/run/docker.sock", "runtime-socket:docker" },
	{ "/var/run/docker.sock", "runtime-socket:docker" },
	{ "/run/containerd/containerd.sock", "runtime-socket:containerd" },
	{ "/var/run/containerd/containerd.sock", "runtime-socket:containerd" },
	{ "/run/k3s/containerd/containerd.sock", "runtime-socket:containerd" },
	{ "/run/crio/crio.sock", "runtime-socket:cri-o" },
	{ "/var/run/crio/crio.sock", "runtime-socket:cri-o" },
	{ "/run/podman/podman.sock", "runtime-socket:podman" },
	{ "/var/lib/kubelet/pod-resources/kubelet.sock",
	    "runtime-socket:kubelet-pod-resources" },
	{ "/var/lib/kubelet/device-plugins/kubelet.sock",
	    "runtime-socket:kubelet-device-plugins" },
	{ "/var/run/secrets/kubernetes.io/serviceaccount/token", "k8s-token" },
	{ "/run/secrets/kubernetes.io/serviceaccount/token", "k8s-token" },
	{ "/.dockerenv", "marker:docker" },
	{ "/run/.containerenv", "marker:podman" },
	{ "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern" },
	{ "/proc/sys/kernel/modprobe", "kernel-if:modprobe" },
	{ "/sys/kernel/uevent_helper", "kernel-if:uevent_helper" },
	{ "/proc/sysrq-trigger", "kernel-if:sysrq-trigger" },
	{ "/sys/fs/cgroup/release_agent", "escape:release_agent" },
};

/* Directories whose device nodes are recorded (not recursive). */
static const char *const dev_dirs[] = {
	"/dev", "/dev/infiniband", "/dev/nvidia-caps",
	"/dev/nvidia-caps-imex-channels", NULL
};

const char *
fa_host_file_type(mode_t m)
{
	if (S_ISREG(m))
		return "file";
	if (S_ISDIR(m))
		return "dir";
	if (S_ISLNK(m))
		return "symlink";
	if (S_ISSOCK(m))
		return "socket";
	if (S_ISCHR(m))
		return "char";
	if (S_ISBLK(m))
		return "block";
	if (S_ISFIFO(m))
		return "fifo";
	return "other";
}

int
fa_host_probe_path(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const char *path, const char *role)
{
	enum fa_obs_state st = FA_OBS_COMPLETE;
	struct stat sb;
	char *reason = NULL;
	json_t *data;
	int r;

	r = fa_sysroot_stat(root, path, 1, &sb);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == 0) {
		char m[8], ino[48];

		snprintf(m, sizeof(m), "0%03o", (unsigned)(sb.st_mode & 07777));
		snprintf(ino, sizeof(ino), "%ju:%ju", (uintmax_t)sb.st_dev,
		    (uintmax_t)sb.st_ino);
		data = json_pack("{s:s, s:s, s:b, s:s, s:s, s:I, s:I, s:I, "
		    "s:s}", "path", path, "role", role, "exists", 1, "type",
		    fa_host_file_type(sb.st_mode), "mode", m,
		    "uid", (json_int_t)sb.st_uid, "gid", (json_int_t)sb.st_gid,
		    "size", (json_int_t)sb.st_size, "inode", ino);
	} else if (r == FA_ERR_NOTFOUND) {
		data = json_pack("{s:s, s:s, s:b}", "path", path, "role", role,
		    "exists", 0);
	} else {
		data = json_pack("{s:s, s:s}", "path", path, "role", role);
		st = FA_OBS_NOT_COLLECTED;
		if ((reason = fa_strfmt("%s: %s", path,
		    fa_sysroot_strerror(r))) == NULL) {
			json_decref(data);
			return FA_ERR_NOMEM;
		}
	}
	if (data == NULL) {
		free(reason);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PATH, path,
	    "stat", st, reason, data, NULL);
	free(reason);
	return r;
}

/* cgroup v1 hierarchies mounted under /sys/fs/cgroup: their release_agent. */
static int
probe_release_agents(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	char **names = NULL, *p;
	size_t n, i;
	int r;

	r = fa_sysroot_list(root, "/sys/fs/cgroup", 256, &names, &n);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0)
		return 0;	/* no cgroupfs: the fixed probe says so */
	for (i = 0, r = 0; i < n && r == 0; i++) {
		if ((p = fa_strfmt("/sys/fs/cgroup/%s/release_agent",
		    names[i])) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		struct stat sb;
		/* Only hierarchies that have one (v1); v2 has none. */
		if (fa_sysroot_stat(root, p, 1, &sb) == 0)
			r = fa_host_probe_path(root, snap, p,
			    "escape:release_agent");
		free(p);
	}
	fa_sysroot_names_free(names);
	return r;
}

/* Add the char/block nodes of dir to nodes; record the listing in dirs. */
static int
list_dev_dir(const struct fa_sysroot *root, const char *dir, json_t *dirs,
    json_t *nodes)
{
	char **names = NULL, *p;
	struct stat sb;
	size_t n, i;
	json_t *d;
	int r;

	r = fa_sysroot_list(root, dir, FA_HOST_DEV_MAX, &names, &n);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0)
		d = json_pack("{s:s, s:b, s:s}", "path", dir, "listed", 0,
		    "reason", fa_sysroot_strerror(r));
	else
		d = json_pack("{s:s, s:b}", "path", dir, "listed", 1);
	if (d == NULL || json_array_append_new(dirs, d) != 0) {
		fa_sysroot_names_free(names);
		return FA_ERR_NOMEM;
	}
	for (i = 0; r == 0 && i < n; i++) {
		if ((p = fa_strfmt("%s/%s", dir, names[i])) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		if (fa_sysroot_stat(root, p, 0, &sb) == 0 &&
		    (S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode))) {
			char m[8];

			snprintf(m, sizeof(m), "0%03o",
			    (unsigned)(sb.st_mode & 07777));
			if (json_array_append_new(nodes, json_pack("{s:s, s:s, "
			    "s:I, s:I, s:s, s:I, s:I}", "path", p, "type",
			    fa_host_file_type(sb.st_mode), "major",
			    (json_int_t)major(sb.st_rdev), "minor",
			    (json_int_t)minor(sb.st_rdev), "mode", m, "uid",
			    (json_int_t)sb.st_uid, "gid",
			    (json_int_t)sb.st_gid)) != 0)
				r = FA_ERR_NOMEM;
		}
		free(p);
	}
	fa_sysroot_names_free(names);
	return r == FA_ERR_NOMEM ? r : 0;
}

static int
collect_devices(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	json_t *dirs = json_array(), *nodes = json_array(), *data;
	enum fa_obs_state st = FA_OBS_COMPLETE;
	const char *reason = NULL;
	size_t i;
	int r = 0;

	if (dirs == NULL || nodes == NULL) {
		json_decref(dirs);
		json_decref(nodes);
		return FA_ERR_NOMEM;
	}
	for (i = 0; dev_dirs[i] != NULL && r == 0; i++)
		r = list_dev_dir(root, dev_dirs[i], dirs, nodes);
	if (r != 0) {
		json_decref(dirs);
		json_decref(nodes);
		return r;
	}
	/* /dev itself unlisted: nothing can be said about device exposure. */
	if (!json_is_true(json_object_get(json_array_get(dirs, 0),
	    "listed"))) {
		st = FA_OBS_NOT_COLLECTED;
		reason = "/dev could not be listed";
	}
	if ((data = json_pack("{s:o, s:o}", "dirs", dirs, "nodes", nodes)) ==
	    NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_DEVICES,
	    "/dev", "list", st, reason, data, NULL);
}

int
fa_host_collect_paths(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	size_t i;
	int r;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if ((r = fa_host_probe_path(root, snap, probes[i].path,
		    probes[i].role)) != 0)
			return r;
	if ((r = probe_release_agents(root, snap)) != 0)
		return r;
	return collect_devices(root, snap);
}
