/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stat-only probes of sensitive paths and device nodes (see host_paths.h).
 * Nothing here opens a socket, a device or the service-account token: the
 * type, owner and mode are the evidence, and they are what a provider can
 * check on its side.
 *
 * Runtime sockets are looked for where they are put, not only where their
 * daemons put them by default: at the well-known paths below; as a file
 * bind mount (a mount table entry whose root is not "/" and whose mount
 * point is a socket: `docker run -v /var/run/docker.sock:/x.sock`); and
 * inside a bind-mounted directory (`-v /run:/host/run`), by trying, under
 * each mount point, every tail of a well-known path that names a runtime
 * API ("run/docker.sock", "docker.sock", "containerd/containerd.sock"...).
 * Listening sockets of the network namespace are read from /proc/net/unix
 * by host_unix.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_mounts.h"
#include "host_paths.h"

/*
 * The well-known paths, each under /run and /var/run (usually one
 * directory: /var/run is a link to /run, FHS 3.0 5.13), from each
 * project's defaults: dockerd --host unix:///var/run/docker.sock
 * (dockerd(8)); containerd's [grpc] address
 * /run/containerd/containerd.sock and its ttrpc twin; a dockerd with no
 * containerd configured starts its own at
 * /var/run/docker/containerd/containerd.sock (Docker 18.09 and later;
 * 17.x: /var/run/docker/libcontainerd/docker-containerd.sock); k3s and
 * RKE2 /run/k3s/containerd/containerd.sock; MicroK8s
 * /var/snap/microk8s/common/run/containerd.sock; crio.conf [crio.api]
 * listen /var/run/crio/crio.sock; podman-system-service(1)
 * /run/podman/podman.sock; cri-dockerd's unix:///var/run/cri-dockerd.sock;
 * kubelet's dockershim /var/run/dockershim.sock (Kubernetes 1.23 and
 * before); buildkitd /run/buildkit/buildkitd.sock; containerd and CRI-O's
 * NRI /var/run/nri/nri.sock (containerd/nri pkg/api DefaultSocketPath);
 * the kubelet's PodResources API socket (KEP 606) and device plugin
 * registration socket (device plugin API v1beta1, KubeletSocket); LXD's
 * and Incus's unix.socket.
 */
static const struct {
	const char	*path;
	const char	*role;
} probes[] = {
	{ "/run/docker.sock", "runtime-socket:docker" },
	{ "/var/run/docker.sock", "runtime-socket:docker" },
	{ "/run/containerd/containerd.sock", "runtime-socket:containerd" },
	{ "/var/run/containerd/containerd.sock", "runtime-socket:containerd" },
	{ "/run/containerd/containerd.sock.ttrpc",
	    "runtime-socket:containerd" },
	{ "/run/docker/containerd/containerd.sock",
	    "runtime-socket:containerd" },
	{ "/run/k3s/containerd/containerd.sock", "runtime-socket:containerd" },
	{ "/var/snap/microk8s/common/run/containerd.sock",
	    "runtime-socket:containerd" },
	{ "/run/crio/crio.sock", "runtime-socket:cri-o" },
	{ "/var/run/crio/crio.sock", "runtime-socket:cri-o" },
	{ "/run/podman/podman.sock", "runtime-socket:podman" },
	{ "/var/run/podman/podman.sock", "runtime-socket:podman" },
	{ "/run/cri-dockerd.sock", "runtime-socket:cri-dockerd" },
	{ "/var/run/cri-dockerd.sock", "runtime-socket:cri-dockerd" },
	{ "/run/dockershim.sock", "runtime-socket:dockershim" },
	{ "/var/run/dockershim.sock", "runtime-socket:dockershim" },
	{ "/run/buildkit/buildkitd.sock", "runtime-socket:buildkit" },
	{ "/run/nri/nri.sock", "runtime-socket:nri" },
	{ "/var/run/nri/nri.sock", "runtime-socket:nri" },
	{ "/var/lib/kubelet/pod-resources/kubelet.sock",
	    "runtime-socket:kubelet-pod-resources" },
	{ "/var/lib/kubelet/device-plugins/kubelet.sock",
	    "runtime-socket:kubelet-device-plugins" },
	{ "/var/snap/lxd/common/lxd/unix.socket", "runtime-socket:lxd" },
	{ "/var/lib/lxd/unix.socket", "runtime-socket:lxd" },
	{ "/var/lib/incus/unix.socket", "runtime-socket:incus" },
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

/*
 * How a socket's name is matched: its last component (BASE), the end of
 * the name at a '/' (TAIL, pattern starting with '/'), anywhere in it
 * (PART, for directories whose sockets have generated names), the whole
 * name (EXACT), or its start (START, for abstract names).  The first
 * matching rule wins, so specific rules come before general ones.
 */
enum match { BASE, TAIL, PART, EXACT, START };

static const struct {
	enum match		 how;
	const char		*pattern;
	const char		*api;
	enum fa_sock_class	 cls;
} rules[] = {
	/* Kubelet: PodResources (KEP 606) and device plugin registration
	 * (device plugin API v1beta1); any other socket in device-plugins
	 * is a plugin's own endpoint, which the kubelet calls. */
	{ TAIL, "/pod-resources/kubelet.sock", "kubelet-pod-resources",
	    FA_SOCK_RUNTIME },
	{ TAIL, "/device-plugins/kubelet.sock", "kubelet-device-plugins",
	    FA_SOCK_RUNTIME },
	{ PART, "/kubelet/device-plugins/", "device-plugin", FA_SOCK_OTHER },
	/* CSI and DRA node plugins and the plugin watcher's registry
	 * (kubelet pluginmanager): a CSI node plugin mounts what it is told
	 * to on the node (NodePublishVolume), as root. */
	{ PART, "/kubelet/plugins_registry/", "kubelet-plugin",
	    FA_SOCK_RUNTIME },
	{ PART, "/kubelet/plugins/", "kubelet-plugin", FA_SOCK_RUNTIME },
	{ BASE, "kubelet.sock", "kubelet", FA_SOCK_RUNTIME },
	{ BASE, "docker.sock", "docker", FA_SOCK_RUNTIME },
	{ BASE, "docker-containerd.sock", "containerd", FA_SOCK_RUNTIME },
	{ BASE, "containerd.sock", "containerd", FA_SOCK_RUNTIME },
	{ BASE, "containerd.sock.ttrpc", "containerd", FA_SOCK_RUNTIME },
	/* containerd shims: /run/containerd/s/<sha256> since containerd
	 * 1.3.9 and 1.4.3 (pkg/shim SocketAddress, socketRoot
	 * /run/containerd); before, abstract "@/containerd-shim/..."
	 * reachable from any process of the host network namespace
	 * (CVE-2020-15257, GHSA-36xw-fx78-c5r4). */
	{ PART, "/run/containerd/s/", "containerd-shim", FA_SOCK_RUNTIME },
	{ START, "@/containerd-shim/", "containerd-shim", FA_SOCK_RUNTIME },
	{ BASE, "crio.sock", "cri-o", FA_SOCK_RUNTIME },
	{ BASE, "podman.sock", "podman", FA_SOCK_RUNTIME },
	{ BASE, "cri-dockerd.sock", "cri-dockerd", FA_SOCK_RUNTIME },
	{ BASE, "dockershim.sock", "dockershim", FA_SOCK_RUNTIME },
	{ BASE, "buildkitd.sock", "buildkit", FA_SOCK_RUNTIME },
	/* NRI plugins may change any container's OCI spec. */
	{ BASE, "nri.sock", "nri", FA_SOCK_RUNTIME },
	{ TAIL, "/lxd/unix.socket", "lxd", FA_SOCK_RUNTIME },
	{ TAIL, "/incus/unix.socket", "incus", FA_SOCK_RUNTIME },
	/* Sockets the NVIDIA Container Toolkit mounts into GPU containers
	 * by design (libnvidia-container nvc_info.c, IPC paths; nvidia-ctk
	 * cdi generate), syslog, journald and sd_notify: known daemons, no
	 * runtime API. */
	{ TAIL, "/nvidia-persistenced/socket", "nvidia-persistenced",
	    FA_SOCK_OTHER },
	{ TAIL, "/nvidia-fabricmanager/socket", "nvidia-fabricmanager",
	    FA_SOCK_OTHER },
	{ EXACT, "/dev/log", "syslog", FA_SOCK_OTHER },
	/* sd_notify(3): the service manager's (or, in a systemd-nspawn
	 * container, nspawn's, /run/host/notify) datagram socket. */
	{ TAIL, "/run/host/notify", "sd-notify", FA_SOCK_OTHER },
	{ TAIL, "/run/systemd/notify", "sd-notify", FA_SOCK_OTHER },
	{ PART, "/systemd/journal/", "journald", FA_SOCK_OTHER },
};

/* Directories whose device nodes are recorded first (then, breadth first,
 * every directory below /dev). */
#define DEV_ROOT	"/dev"

/*
 * File systems the mount search skips.  Kernel and image file systems
 * hold no runtime socket (proc_filesystems(5)).  The root of an overlay
 * file system is a container's root: this one's, which the fixed probes
 * cover, or on a host another container's (a file or directory bind
 * mounted from an overlay, as in docker-in-docker, is searched).  Network
 * and FUSE file systems are named in the evidence but not searched: a
 * stat there goes to a server and can block.
 */
static const char *const pseudo_fs[] = {
	"proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue",
	"securityfs", "debugfs", "tracefs", "bpf", "configfs", "pstore",
	"fusectl", "hugetlbfs", "binfmt_misc", "autofs", "nsfs", "efivarfs",
	"selinuxfs", "rpc_pipefs", "nfsd", "devtmpfs", "squashfs", "erofs",
	"iso9660", NULL
};
static const char *const remote_fs[] = {
	"nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs",
	"lustre", "gpfs", "beegfs", "afs", "ocfs2", "gfs2", "ncpfs", NULL
};

static int
in_list(const char *s, const char *const *l)
{
	size_t i;

	for (i = 0; l[i] != NULL; i++)
		if (strcmp(s, l[i]) == 0)
			return 1;
	return 0;
}

static int
remote(const char *fstype)
{
	return in_list(fstype, remote_fs) || strcmp(fstype, "fuse") == 0 ||
	    strncmp(fstype, "fuse.", 5) == 0 || strcmp(fstype, "fuseblk") == 0;
}

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

enum fa_sock_class
fa_host_socket_ident(const char *name, const char **api)
{
	const char *base, *p;
	size_t i, n, m;

	*api = NULL;
	if (name == NULL)
		return FA_SOCK_UNKNOWN;
	base = (base = strrchr(name, '/')) != NULL ? base + 1 : name;
	n = strlen(name);
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		p = rules[i].pattern;
		m = strlen(p);
		switch (rules[i].how) {
		case BASE:
			if (name[0] == '@' || strcmp(base, p) != 0)
				continue;
			break;
		case TAIL:
			if (n < m || strcmp(name + n - m, p) != 0)
				continue;
			break;
		case PART:
			if (strstr(name, p) == NULL)
				continue;
			break;
		case EXACT:
			if (strcmp(name, p) != 0)
				continue;
			break;
		case START:
			if (strncmp(name, p, m) != 0)
				continue;
			break;
		}
		*api = rules[i].api;
		return rules[i].cls;
	}
	return FA_SOCK_UNKNOWN;
}

/* Where the mount search found a socket; a NULL member is left out. */
struct found_at {
	const char	*mount;		/* the mount point, at or under */
	const char	*mount_root;	/* a bind mount's root */
	const char	*fstype;	/* and its file system type */
};

/*
 * Put what a stat of path says into host.path data; a stat that fails
 * otherwise than "not found" makes it not_collected, with *reason.  0 or
 * FA_ERR_NOMEM.
 */
static int
probe_stat(const struct fa_sysroot *root, const char *path,
    struct fa_obs_build *b, enum fa_obs_state *st, char **reason)
{
	struct stat sb;
	char m[8], ino[48];
	int r;

	*st = FA_OBS_COMPLETE;
	*reason = NULL;
	r = fa_sysroot_stat(root, path, 1, &sb);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == 0) {
		snprintf(m, sizeof(m), "0%03o", (unsigned)(sb.st_mode & 07777));
		snprintf(ino, sizeof(ino), "%ju:%ju", (uintmax_t)sb.st_dev,
		    (uintmax_t)sb.st_ino);
		fa_put_bool(b, FA_F(HOST_PATH, exists), 1);
		fa_put_str(b, FA_F(HOST_PATH, type),
		    fa_host_file_type(sb.st_mode));
		fa_put_str(b, FA_F(HOST_PATH, mode), m);
		fa_put_int(b, FA_F(HOST_PATH, uid), (long long)sb.st_uid);
		fa_put_int(b, FA_F(HOST_PATH, gid), (long long)sb.st_gid);
		fa_put_int(b, FA_F(HOST_PATH, size), (long long)sb.st_size);
		fa_put_str(b, FA_F(HOST_PATH, inode), ino);
	} else if (r == FA_ERR_NOTFOUND) {
		fa_put_bool(b, FA_F(HOST_PATH, exists), 0);
	} else {
		*st = FA_OBS_NOT_COLLECTED;
		if ((*reason = fa_strfmt("%s: %s", path,
		    fa_sysroot_strerror(r))) == NULL)
			return FA_ERR_NOMEM;
	}
	return 0;
}

/*
 * Stat path into a host.path observation with role; a socket found rather
 * than looked for (found_by set) once only, with where it was found.
 */
static int
probe(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const char *path, const char *role, const char *found_by,
    const struct found_at *at)
{
	struct fa_obs_build b;
	enum fa_obs_state st;
	char *reason;
	json_t *data;
	int r;

	if (found_by != NULL &&
	    fa_snapshot_find(snap, FA_KIND_HOST_PATH, path) != NULL)
		return 0;
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_PATH, path), path);
	fa_put_str(&b, FA_F(HOST_PATH, role), role);
	if ((r = probe_stat(root, path, &b, &st, &reason)) != 0) {
		json_decref(fa_obs_built(&b));
		return r;
	}
	if (found_by != NULL)
		fa_put_str(&b, FA_F(HOST_PATH, found_by), found_by);
	if (at != NULL && at->mount != NULL)
		fa_put_str(&b, FA_F(HOST_PATH, mount), at->mount);
	if (at != NULL && at->mount_root != NULL)
		fa_put_str(&b, FA_F(HOST_PATH, mount_root), at->mount_root);
	if (at != NULL && at->fstype != NULL)
		fa_put_str(&b, FA_F(HOST_PATH, fstype), at->fstype);
	if ((data = fa_obs_built(&b)) == NULL) {
		free(reason);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PATH, path,
	    "stat", st, reason, data, NULL);
	free(reason);
	return r;
}

int
fa_host_probe_path(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const char *path, const char *role)
{
	return probe(root, snap, path, role, NULL, NULL);
}

int
fa_host_probe_found(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const char *path, const char *role, const char *found_by)
{
	return probe(root, snap, path, role, found_by, NULL);
}

/*
 * The release_agent of a cgroup v1 hierarchy mounted at dir, when it has
 * one (only a hierarchy's root cgroup does; cgroups(7)) or when whether it
 * has one cannot be told.
 */
static int
probe_release_agent(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const char *dir)
{
	struct stat sb;
	char *p;
	int r;

	if ((p = fa_strfmt("%s/release_agent", strcmp(dir, "/") == 0 ? "" :
	    dir)) == NULL)
		return FA_ERR_NOMEM;
	r = fa_snapshot_find(snap, FA_KIND_HOST_PATH, p) != NULL ?
	    FA_ERR_NOTFOUND : fa_sysroot_stat(root, p, 1, &sb);
	if (r == FA_ERR_NOMEM) {
		free(p);
		return r;
	}
	/* Found, or not readable: recorded (the latter as not_collected). */
	r = r == FA_ERR_NOTFOUND ? 0 : fa_host_probe_path(root, snap, p,
	    "escape:release_agent");
	free(p);
	return r;
}

/* The cgroup v1 hierarchies under /sys/fs/cgroup, and wherever the mount
 * table shows one ("cgroup" is v1, "cgroup2" the unified hierarchy). */
static int
probe_release_agents(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const json_t *mounts)
{
	struct fa_obs_build b;
	char **names = NULL, *p, *why;
	const json_t *m;
	const char *fs, *mp;
	json_t *data;
	size_t n, i;
	int r;

	r = fa_sysroot_list(root, "/sys/fs/cgroup", 256, &names, &n);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0 && r != FA_ERR_NOTFOUND) {
		/* Unlisted: the hierarchies in it were not looked at. */
		fa_obs_build(&b);
		fa_put_str(&b, FA_F(HOST_PATH, path), "/sys/fs/cgroup");
		fa_put_str(&b, FA_F(HOST_PATH, role),
		    "escape:cgroup-hierarchies");
		if ((data = fa_obs_built(&b)) == NULL ||
		    (why = fa_strfmt("/sys/fs/cgroup: %s",
		    fa_sysroot_strerror(r))) == NULL) {
			json_decref(data);
			return FA_ERR_NOMEM;
		}
		r = fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PATH,
		    "/sys/fs/cgroup", "list", FA_OBS_NOT_COLLECTED, why, data,
		    NULL);
		free(why);
		if (r != 0)
			return r;
	}
	for (i = 0, r = 0; names != NULL && i < n && r == 0; i++) {
		if ((p = fa_strfmt("/sys/fs/cgroup/%s", names[i])) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		r = probe_release_agent(root, snap, p);
		free(p);
	}
	fa_sysroot_names_free(names);
	json_array_foreach(mounts, i, m) {
		if (r != 0)
			break;
		fs = fa_json_get_str(m, "fstype");
		mp = fa_json_get_str(m, "mount_point");
		if (fs != NULL && mp != NULL && strcmp(fs, "cgroup") == 0 &&
		    mp[0] == '/')
			r = probe_release_agent(root, snap, mp);
	}
	return r;
}

/* ---- the search of the mount table for sockets ---------------------- */

struct search {
	const struct fa_sysroot	*root;
	struct fa_snapshot	*snap;
	const char		*tails[128];	/* run/docker.sock... */
	size_t			 ntails;
	const char		*firsts[32];	/* first components */
	size_t			 nfirsts;
	size_t			 budget;	/* stats left */
	size_t			 dirs;		/* mounts searched */
	json_t			*sockmounts, *unread, *notsearched, *remote;
	size_t			 nunread, nnotsearched, nremote;
};

/* Append s to arr unless FA_HOST_LIST_MAX are kept; count it. */
static int
keep(json_t *arr, size_t *count, json_t *v)
{
	(*count)++;
	if (v == NULL)
		return FA_ERR_NOMEM;
	if (json_array_size(arr) >= FA_HOST_LIST_MAX) {
		json_decref(v);
		return 0;
	}
	return json_array_append_new(arr, v) != 0 ? FA_ERR_NOMEM : 0;
}

static int
unread(struct search *sr, const char *path, const char *why)
{
	return keep(sr->unread, &sr->nunread, json_pack("{s:s, s:s}", "path",
	    path, "reason", why));
}

/*
 * Every tail, at a '/', of the runtime socket probes whose name alone
 * identifies a runtime API ("docker.sock" does, "unix.socket" does not).
 * The strings point into the probes table.
 */
static void
search_tails(struct search *sr)
{
	const char *p, *api, *t;
	char buf[256];
	size_t i, k, n;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		if (strncmp(probes[i].role, "runtime-socket:", 15) != 0)
			continue;
		for (p = probes[i].path; p != NULL && *p != '\0';
		    p = strchr(p + 1, '/')) {
			t = p + 1;
			snprintf(buf, sizeof(buf), "/%s", t);
			if (fa_host_socket_ident(buf, &api) != FA_SOCK_RUNTIME)
				break;	/* shorter tails say even less */
			for (k = 0; k < sr->ntails; k++)
				if (strcmp(sr->tails[k], t) == 0)
					break;
			if (k < sr->ntails || sr->ntails ==
			    sizeof(sr->tails) / sizeof(sr->tails[0]))
				continue;
			sr->tails[sr->ntails++] = t;
			if ((n = strcspn(t, "/")) == strlen(t))
				continue;
			for (k = 0; k < sr->nfirsts; k++)
				if (strncmp(sr->firsts[k], t, n) == 0 &&
				    strcspn(sr->firsts[k], "/") == n)
					break;
			if (k == sr->nfirsts && sr->nfirsts <
			    sizeof(sr->firsts) / sizeof(sr->firsts[0]))
				sr->firsts[sr->nfirsts++] = t;
		}
	}
}

/* Record the socket at path: its role from its name, else the bind
 * mount's root's; at says where it was found. */
static int
found_socket(struct search *sr, const char *path, const struct found_at *at)
{
	enum fa_sock_class cls;
	const char *api;
	char role[64];

	cls = fa_host_socket_ident(path, &api);
	if (cls == FA_SOCK_UNKNOWN && at->mount_root != NULL)
		cls = fa_host_socket_ident(at->mount_root, &api);
	snprintf(role, sizeof(role), "%s:%s", cls == FA_SOCK_RUNTIME ?
	    "runtime-socket" : "host-socket", cls == FA_SOCK_UNKNOWN ?
	    "unidentified" : api);
	return probe(sr->root, sr->snap, path, role, "mountinfo", at);
}

/* One stat of the search, within the budget. */
static int
search_stat(struct search *sr, const char *path, int follow, struct stat *sb)
{
	if (sr->budget == 0)
		return FA_ERR_TOOBIG;
	sr->budget--;
	return fa_sysroot_stat(sr->root, path, follow, sb);
}

/* Try every tail under the directory mount point mp. */
static int
search_dir(struct search *sr, const char *mp)
{
	char path[4200];
	struct stat sb;
	const char *base = strcmp(mp, "/") == 0 ? "" : mp;
	const struct found_at at = { mp, NULL, NULL };
	unsigned char first_ok[32];
	size_t i, k, n;
	int r;

	if (sr->budget < sr->ntails + sr->nfirsts)
		return keep(sr->notsearched, &sr->nnotsearched,
		    json_string(mp));
	sr->dirs++;
	/* Each first component once: most are absent, and prune. */
	for (k = 0; k < sr->nfirsts; k++) {
		n = strcspn(sr->firsts[k], "/");
		snprintf(path, sizeof(path), "%s/%.*s", base, (int)n,
		    sr->firsts[k]);
		r = search_stat(sr, path, 1, &sb);
		first_ok[k] = 0;
		if (r == FA_ERR_NOMEM)
			return r;
		if (r == 0 && S_ISDIR(sb.st_mode))
			first_ok[k] = 1;
		else if (r != FA_ERR_NOTFOUND && (r = unread(sr, path,
		    fa_sysroot_strerror(r))) != 0)
			return r;
	}
	for (i = 0; i < sr->ntails; i++) {
		n = strcspn(sr->tails[i], "/");
		if (sr->tails[i][n] == '/') {
			for (k = 0; k < sr->nfirsts; k++)
				if (strncmp(sr->firsts[k], sr->tails[i],
				    n + 1) == 0)
					break;
			if (k < sr->nfirsts && !first_ok[k])
				continue;
		}
		if (snprintf(path, sizeof(path), "%s/%s", base,
		    sr->tails[i]) >= (int)sizeof(path))
			continue;
		/* Followed, as connect(2) follows a link to a socket. */
		r = search_stat(sr, path, 1, &sb);
		if (r == FA_ERR_NOMEM)
			return r;
		if (r == FA_ERR_NOTFOUND)
			continue;
		if (r != 0) {
			if ((r = unread(sr, path, fa_sysroot_strerror(r))) != 0)
				return r;
			continue;
		}
		if (!S_ISSOCK(sb.st_mode))
			continue;
		if ((r = found_socket(sr, path, &at)) != 0)
			return r;
	}
	return 0;
}

/* One mount table entry: a file bind of a socket, or a directory. */
static int
search_mount(struct search *sr, const json_t *m, size_t *unparsed)
{
	const char *mp = fa_json_get_str(m, "mount_point");
	const char *rt = fa_json_get_str(m, "root");
	const char *fs = fa_json_get_str(m, "fstype");
	const struct found_at at = { mp, rt, fs };
	struct stat sb;
	json_t *sm;
	int r;

	if (mp == NULL || rt == NULL || fs == NULL || mp[0] != '/') {
		(*unparsed)++;
		return 0;
	}
	/* The root file system's own root: the fixed probes' ground. */
	if (in_list(fs, pseudo_fs) || (strcmp(rt, "/") == 0 &&
	    (strcmp(mp, "/") == 0 || strcmp(fs, "overlay") == 0)))
		return 0;
	if (remote(fs))
		return keep(sr->remote, &sr->nremote, json_string(mp));
	/* A file system's own root is a directory: only a bind mount of a
	 * file can put a socket at a mount point. */
	if (strcmp(rt, "/") == 0)
		return search_dir(sr, mp);
	/* The mount point itself: a mount is never on a link (mount(2)
	 * resolves its target), so not followed. */
	r = search_stat(sr, mp, 0, &sb);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == FA_ERR_TOOBIG)
		return keep(sr->notsearched, &sr->nnotsearched,
		    json_string(mp));
	if (r != 0)
		return unread(sr, mp, r == FA_ERR_NOTFOUND ? "in the mount "
		    "table but not found" : fa_sysroot_strerror(r));
	if (S_ISDIR(sb.st_mode))
		return search_dir(sr, mp);
	if (!S_ISSOCK(sb.st_mode))
		return 0;
	if ((r = found_socket(sr, mp, &at)) != 0)
		return r;
	sm = json_pack("{s:s, s:s, s:s}", "path", mp, "root", rt, "fstype",
	    fs);
	if (sm == NULL || json_array_append_new(sr->sockmounts, sm) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

static int
search_mounts(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const struct fa_obs *mo, const json_t *mounts)
{
	struct search sr;
	struct fa_obs_build b;
	const json_t *m;
	json_t *data;
	char *why;
	size_t i, unparsed = 0;
	int r = 0;

	if (mo == NULL || mo->state != FA_OBS_COMPLETE) {
		if ((why = fa_strfmt("the mount table was not read%s%s",
		    mo != NULL ? ": " : "", mo != NULL && mo->reason != NULL ?
		    mo->reason : "")) == NULL)
			return FA_ERR_NOMEM;
		r = fa_snapshot_add(snap, FA_FAM_HOST, NULL,
		    FA_KIND_HOST_SOCKETS, "/proc/self/mountinfo", "search",
		    FA_OBS_NOT_COLLECTED, why, NULL, NULL);
		free(why);
		return r;
	}
	memset(&sr, 0, sizeof(sr));
	sr.root = root;
	sr.snap = snap;
	sr.budget = FA_HOST_SOCK_SEARCH_MAX;
	search_tails(&sr);
	sr.sockmounts = json_array();
	sr.unread = json_array();
	sr.notsearched = json_array();
	sr.remote = json_array();
	if (sr.sockmounts == NULL || sr.unread == NULL ||
	    sr.notsearched == NULL || sr.remote == NULL)
		r = FA_ERR_NOMEM;
	/* Lines the mount table's decoder skipped or did not reach
	 * (host_mounts.h): mounts not searched. */
	unparsed = (size_t)json_integer_value(json_object_get(mo->data,
	    "lines_skipped")) + (size_t)json_integer_value(json_object_get(
	    mo->data, "lines_not_examined"));
	json_array_foreach(mounts, i, m) {
		if (r != 0)
			break;
		r = search_mount(&sr, m, &unparsed);
	}
	if (r == 0) {
		fa_obs_build(&b);
		fa_put_int(&b, FA_F(HOST_SOCKETS, mounts),
		    (long long)json_array_size(mounts));
		fa_put_arr(&b, FA_F(HOST_SOCKETS, socket_mounts),
		    json_incref(sr.sockmounts));
		fa_put_int(&b, FA_F(HOST_SOCKETS, dirs_searched),
		    (long long)sr.dirs);
		fa_put_int(&b, FA_F(HOST_SOCKETS, names), (long long)sr.ntails);
		fa_put_arr(&b, FA_F(HOST_SOCKETS, unread),
		    json_incref(sr.unread));
		fa_put_int(&b, FA_F(HOST_SOCKETS, unread_count),
		    (long long)sr.nunread);
		fa_put_arr(&b, FA_F(HOST_SOCKETS, not_searched),
		    json_incref(sr.notsearched));
		fa_put_int(&b, FA_F(HOST_SOCKETS, not_searched_count),
		    (long long)sr.nnotsearched);
		fa_put_arr(&b, FA_F(HOST_SOCKETS, remote),
		    json_incref(sr.remote));
		fa_put_int(&b, FA_F(HOST_SOCKETS, remote_count),
		    (long long)sr.nremote);
		fa_put_int(&b, FA_F(HOST_SOCKETS, unparsed),
		    (long long)unparsed);
		r = (data = fa_obs_built(&b)) == NULL ? FA_ERR_NOMEM :
		    fa_snapshot_add(snap, FA_FAM_HOST, NULL,
		    FA_KIND_HOST_SOCKETS, "/proc/self/mountinfo", "search",
		    FA_OBS_COMPLETE, NULL, data, NULL);
	}
	json_decref(sr.sockmounts);
	json_decref(sr.unread);
	json_decref(sr.notsearched);
	json_decref(sr.remote);
	return r;
}

/* ---- device nodes ----------------------------------------------------- */

struct devwalk {
	const struct fa_sysroot	*root;
	json_t			*dirs, *nodes;
	char			**queue;	/* directories to list */
	unsigned char		*depth;
	size_t			 nq, capq, capd, head;
};

static int
enqueue(struct devwalk *w, const char *path, unsigned depth)
{
	char *p;

	if (fa_grow(&w->queue, &w->capq, w->nq + 1, sizeof(*w->queue)) != 0 ||
	    fa_grow(&w->depth, &w->capd, w->nq + 1, sizeof(*w->depth)) != 0 ||
	    (p = fa_strdup(path)) == NULL)
		return FA_ERR_NOMEM;
	w->queue[w->nq] = p;
	w->depth[w->nq++] = (unsigned char)depth;
	return 0;
}

/*
 * A name from the walk as JSON text: names are bytes, JSON strings are
 * UTF-8, and anyone who may create a file under /dev (/dev/shm) chooses
 * them.  Sanitised; NULL only when out of memory.
 */
static json_t *
dev_name(const char *raw)
{
	char *s = fa_str_sanitize(raw, strlen(raw));
	json_t *j = s != NULL ? json_string(s) : NULL;

	free(s);
	return j;
}

/* A directory not listed, and why. */
static int
dir_unlisted(struct devwalk *w, const char *dir, const char *why, int absent)
{
	json_t *d = json_pack("{s:o, s:b, s:s}", "path", dev_name(dir),
	    "listed", 0, "reason", why);

	if (d == NULL || (absent && json_object_set_new(d, "absent",
	    json_true()) != 0) || json_array_append_new(w->dirs, d) != 0) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	return 0;
}

/* List one directory: its char/block nodes, its subdirectories queued. */
static int
list_dev_dir(struct devwalk *w, const char *dir, unsigned depth)
{
	char **names = NULL, *p;
	struct stat sb;
	size_t n, i, nunread = 0;
	json_t *d, *unr;
	int r, s;

	r = fa_sysroot_list(w->root, dir, FA_HOST_DEV_MAX, &names, &n);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0)
		return dir_unlisted(w, dir, fa_sysroot_strerror(r),
		    r == FA_ERR_NOTFOUND);
	if ((d = json_pack("{s:o, s:b}", "path", dev_name(dir), "listed",
	    1)) == NULL ||
	    json_array_append_new(w->dirs, d) != 0 ||
	    (unr = json_array()) == NULL) {
		fa_sysroot_names_free(names);
		return FA_ERR_NOMEM;
	}
	for (i = 0; r == 0 && i < n; i++) {
		if ((p = fa_strfmt("%s/%s", dir, names[i])) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		s = fa_sysroot_stat(w->root, p, 0, &sb);
		if (s == FA_ERR_NOMEM) {
			r = s;
		} else if (s != 0 && s != FA_ERR_NOTFOUND) {
			/* Gone in between is fine; unreadable is not. */
			r = keep(unr, &nunread, dev_name(names[i]));
		} else if (s == 0 && S_ISDIR(sb.st_mode)) {
			/* POSIX shared memory and message queues: files
			 * anyone may create, never device nodes. */
			if (depth == 0 && (strcmp(names[i], "shm") == 0 ||
			    strcmp(names[i], "mqueue") == 0))
				;
			else if (depth >= FA_HOST_DEV_DEPTH)
				r = dir_unlisted(w, p, "not listed: deeper "
				    "than the walk goes", 0);
			else if (w->nq >= FA_HOST_DEV_DIRS_MAX)
				r = dir_unlisted(w, p, "not listed: more "
				    "directories than the walk lists", 0);
			else
				r = enqueue(w, p, depth + 1);
		} else if (s == 0 && (S_ISCHR(sb.st_mode) ||
		    S_ISBLK(sb.st_mode))) {
			char m[8];

			snprintf(m, sizeof(m), "0%03o",
			    (unsigned)(sb.st_mode & 07777));
			if (json_array_append_new(w->nodes, json_pack("{s:o, "
			    "s:s, s:I, s:I, s:s, s:I, s:I}", "path",
			    dev_name(p), "type",
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
	if (r == 0 && nunread > 0 && (json_object_set(d, "unread", unr) != 0 ||
	    json_object_set_new(d, "unread_count",
	    json_integer((json_int_t)nunread)) != 0))
		r = FA_ERR_NOMEM;
	json_decref(unr);
	return r;
}

static int
collect_devices(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	struct devwalk w;
	struct fa_obs_build b;
	enum fa_obs_state st = FA_OBS_COMPLETE;
	const char *reason = NULL;
	json_t *data;
	size_t i;
	int r;

	memset(&w, 0, sizeof(w));
	w.root = root;
	w.dirs = json_array();
	w.nodes = json_array();
	r = w.dirs == NULL || w.nodes == NULL ? FA_ERR_NOMEM :
	    enqueue(&w, DEV_ROOT, 0);
	/* Breadth first: /dev's own nodes, then each level in name order. */
	for (w.head = 0; r == 0 && w.head < w.nq; w.head++)
		r = list_dev_dir(&w, w.queue[w.head], w.depth[w.head]);
	for (i = 0; i < w.nq; i++)
		free(w.queue[i]);
	free(w.queue);
	free(w.depth);
	if (r != 0) {
		json_decref(w.dirs);
		json_decref(w.nodes);
		return r;
	}
	/* /dev itself unlisted: nothing can be said about device exposure. */
	if (!json_is_true(json_object_get(json_array_get(w.dirs, 0),
	    "listed"))) {
		st = FA_OBS_NOT_COLLECTED;
		reason = "/dev could not be listed";
	}
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(HOST_DEVICES, dirs), w.dirs);
	fa_put_arr(&b, FA_F(HOST_DEVICES, nodes), w.nodes);
	if ((data = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_DEVICES,
	    "/dev", "list", st, reason, data, NULL);
}

int
fa_host_collect_paths(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	const struct fa_obs *mo;
	json_t *mounts;
	size_t i;
	int r;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if ((r = fa_host_probe_path(root, snap, probes[i].path,
		    probes[i].role)) != 0)
			return r;
	/* The mount table, as fa_host_collect_mounts recorded it; held, as
	 * the observations added below may move the one it is in. */
	mo = fa_snapshot_find(snap, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	mounts = mo != NULL && mo->state == FA_OBS_COMPLETE ?
	    json_incref(json_object_get(mo->data, "mounts")) : NULL;
	if ((r = probe_release_agents(root, snap, mounts)) == 0) {
		mo = fa_snapshot_find(snap, FA_KIND_HOST_MOUNTS,
		    "/proc/self/mountinfo");
		r = search_mounts(root, snap, mo, mounts);
	}
	json_decref(mounts);
	return r != 0 ? r : collect_devices(root, snap);
}
