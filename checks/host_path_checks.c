/*
 * What reaches the host from here, by stat and mount table:
 * HOST-RUNTIME-SOCKET, HOST-HOSTPATH, HOST-CGROUP-ESCAPE,
 * HOST-DEVICE-EXPOSED and HOST-K8S-TOKEN.
 *
 * Facts used: a process may connect(2) to a Unix socket only with write
 * permission on it (unix(7)); a cgroup v1 hierarchy's release_agent is run
 * by the kernel as host root when a cgroup with notify_on_release empties
 * (cgroups(7)), as are the programs named by kernel.core_pattern (when it
 * starts with '|'), kernel.modprobe and /sys/kernel/uevent_helper;
 * /dev/infiniband/umad* and issm* give raw MAD access (QP0/QP1 and the SM
 * capability bit; IBA vol. 1 13.5, rdma-core libibumad).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"

static const char *const refs_sock[] = {
	"unix(7): connecting to a socket needs write permission on it",
	"OWASP Docker Security Cheat Sheet, rule 1: do not expose the Docker "
	    "daemon socket",
	"Kubernetes Pod Security Standards, baseline: HostPath volumes",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_mount[] = {
	"NIST SP 800-190, 4.4.3 (container runtime: sensitive host mounts)",
	"Kubernetes Pod Security Standards, baseline: HostPath volumes, "
	    "/proc mount type",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_escape[] = {
	"cgroups(7): release_agent and notify_on_release",
	"CVE-2022-0492 (cgroup v1 release_agent without capability check)",
	"core(5): core_pattern pipes run as root in the initial namespaces",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_dev[] = {
	"InfiniBand Architecture Specification Vol. 1, 13.5 (management "
	    "datagrams); rdma-core libibumad: umad and issm devices",
	"NVIDIA MIG user guide: /dev/nvidia-caps access capabilities",
	"mem(4), kmsg: /dev/mem, /dev/kmem, /dev/port, /dev/kmsg",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_token[] = {
	"Kubernetes: Configure Service Accounts for Pods "
	    "(automountServiceAccountToken)",
	FA_CMAX_ESCALATION,
	NULL
};

#define WRITABLE							\
	"/proc/self/status and /proc/self/mountinfo (may this process "	\
	"write the file: its mode and owner, the mount, the process's uid " \
	"and capabilities)"
#define ENV	", and the tenancy evidence (see HOST-TENANCY)"


/* Is there a host.path observation at all for the roles with prefix? */
static int
probes_of(const struct fa_snapshot *s, const char *prefix, size_t *total,
    size_t *unread)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0;

	*total = *unread = 0;
	while ((o = fa_snapshot_next(s, FA_KIND_HOST_PATH, &it)) != NULL) {
		role = fa_json_get_str(o->data, "role");
		if (role == NULL || strncmp(role, prefix, strlen(prefix)) != 0)
			continue;
		(*total)++;
		if (o->state != FA_OBS_COMPLETE)
			(*unread)++;
	}
	return 0;
}

static int
exists_as(const struct fa_obs *o, const char *type)
{
	int e;
	const char *t = fa_json_get_str(o->data, "type");

	return o->state == FA_OBS_COMPLETE &&
	    fa_json_get_bool(o->data, "exists", &e) == 0 && e && t != NULL &&
	    (type == NULL || strcmp(t, type) == 0);
}

static json_t *
path_evidence(const struct fa_obs *o, int writable)
{
	json_t *ev = json_array();

	if (ev == NULL || fa_evidence_add(ev, fa_evidence(o, "stat",
	    json_pack("{s:O?, s:O?, s:O?, s:O?}", "type", json_object_get(
	    o->data, "type"), "mode", json_object_get(o->data, "mode"), "uid",
	    json_object_get(o->data, "uid"), "gid", json_object_get(o->data,
	    "gid")))) != 0 || fa_evidence_add(ev, fa_evidence(NULL,
	    "writable", writable < 0 ? json_string("unknown") :
	    json_boolean(writable))) != 0) {
		json_decref(ev);
		return NULL;
	}
	return ev;
}

static int
eval_socket(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	const char *role, *mode, *ino, *seen[16];
	size_t it = 0, total, unread, found = 0, k;
	int r, w, in_container;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	if ((r = fa_host_env(ctx->snap, &env)) != 0)
		return r;
	in_container = env.container;
	fa_host_env_free(&env);
	(void)fa_host_creds(ctx->snap, &cr);
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_PATH, &it))) {
		role = fa_json_get_str(o->data, "role");
		if (role == NULL || strncmp(role, "runtime-socket:", 15) != 0 ||
		    !exists_as(o, "socket"))
			continue;
		/* /var/run is usually /run: one socket, two paths. */
		ino = fa_json_get_str(o->data, "inode");
		for (k = 0; ino != NULL && k < found && k < 16; k++)
			if (seen[k] != NULL && strcmp(seen[k], ino) == 0)
				break;
		if (ino != NULL && k < found && k < 16)
			continue;
		if (found < 16)
			seen[found] = ino;
		found++;
		w = fa_host_writable(ctx->snap, &cr, o->data);
		mode = fa_json_get_str(o->data, "mode");
		if (in_container != 0)
			r = fa_results_add(out, c, w == 0 ? FA_ST_PASS :
			    FA_ST_FAIL, o->target, role + 15, path_evidence(o,
			    w), w == 1 ? "the %s socket is reachable from the "
			    "container: whoever holds it controls the host" :
			    w < 0 ? "the %s socket is in the container; "
			    "whether this process may connect is not known, "
			    "so it is reported" : "the %s socket is visible "
			    "but not writable by this process", role + 15);
		else
			r = fa_results_add(out, c, mode != NULL &&
			    strlen(mode) == 4 && (mode[3] - '0') & 2 ?
			    FA_ST_FAIL : FA_ST_PASS, o->target, role + 15,
			    path_evidence(o, w), "the host's %s socket is %s",
			    role + 15, mode != NULL && strlen(mode) == 4 &&
			    (mode[3] - '0') & 2 ? "world-writable" :
			    "not world-writable");
		if (r < 0)
			return r;
	}
	if (found > 0)
		return 0;
	probes_of(ctx->snap, "runtime-socket:", &total, &unread);
	r = fa_results_add(out, c, total == 0 || unread == total ?
	    FA_ST_NOT_TESTED : FA_ST_PASS, "host", NULL, NULL, total == 0 ?
	    "no runtime socket path was probed" : unread > 0 ? "no runtime "
	    "socket found; %zu of %zu paths could not be examined" :
	    "no runtime or kubelet socket at any of the %zu probed paths",
	    unread > 0 ? unread : total, total);
	return r < 0 ? r : 0;
}

/* Host directories whose bind mount into a container is an exposure. */
static int
sensitive_root(const char *root)
{
	static const char *const exact[] = { "/", "/etc", "/root", "/home",
	    "/var", "/var/lib", "/var/lib/kubelet", "/var/lib/docker",
	    "/var/lib/containerd", "/var/run", "/run", "/var/log", "/boot",
	    "/usr", "/lib/modules", "/dev", "/proc", "/sys", "/run/containerd",
	    "/var/run/docker", "/run/docker", NULL };
	static const char *const prefix[] = { "/etc/kubernetes",
	    "/var/lib/kubelet/pki", "/var/lib/etcd", NULL };
	size_t i, n;

	for (i = 0; exact[i] != NULL; i++)
		if (strcmp(root, exact[i]) == 0)
			return 1;
	for (i = 0; prefix[i] != NULL; i++) {
		n = strlen(prefix[i]);
		if (strncmp(root, prefix[i], n) == 0 &&
		    (root[n] == '\0' || root[n] == '/'))
			return 1;
	}
	return 0;
}

static int
disk_fs(const char *t)
{
	static const char *const fs[] = { "ext4", "ext3", "ext2", "xfs",
	    "btrfs", "zfs", "f2fs", "virtiofs", "9p", NULL };
	size_t i;

	for (i = 0; fs[i] != NULL; i++)
		if (strcmp(t, fs[i]) == 0)
			return 1;
	return 0;
}

/* A kernel pseudo-filesystem mounted read-write where it should not be. */
static int
rw_kernel_fs(const struct fa_snapshot *s, const char *path,
    const char *fstype, const json_t **m)
{
	const char *t;
	int ro;

	*m = fa_host_mount_for(s, path);
	return *m != NULL && (t = fa_json_get_str(*m, "fstype")) != NULL &&
	    strcmp(t, fstype) == 0 && fa_json_get_bool(*m, "read_only",
	    &ro) == 0 && !ro;
}

static int
eval_hostpath(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	static const struct { const char *path, *fstype; } kfs[] = {
		{ "/proc/sys", "proc" }, { "/sys", "sysfs" },
	};
	const struct fa_obs *o;
	struct fa_host_env env;
	const json_t *mounts, *m;
	const char *root, *mp, *fs;
	char list[512] = "";
	json_t *ev;
	size_t i, n = 0;
	int r;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, o != NULL ? fa_status_for_obs(o) :
		    FA_ST_NOT_TESTED, "host", NULL, NULL, "the mount table was "
		    "not read%s%s", o != NULL ? ": " : "", o != NULL ?
		    fa_obs_reason(o) : "") < 0 ? FA_ERR_NOMEM : 0;
	if ((ev = json_array()) == NULL)
		return FA_ERR_NOMEM;
	mounts = json_object_get(o->data, "mounts");
	json_array_foreach(mounts, i, m) {
		root = fa_json_get_str(m, "root");
		mp = fa_json_get_str(m, "mount_point");
		fs = fa_json_get_str(m, "fstype");
		if (root == NULL || mp == NULL || fs == NULL ||
		    strcmp(mp, "/") == 0 || !disk_fs(fs) ||
		    !sensitive_root(root))
			continue;
		n++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%shost %s at %s%s", n > 1 ? "; " : "", root, mp,
		    json_is_true(json_object_get(m, "read_only")) ?
		    " (read-only)" : "");
		if (fa_evidence_add(ev, fa_evidence(o, "mount",
		    json_deep_copy(m))) != 0)
			goto nomem;
	}
	for (i = 0; i < sizeof(kfs) / sizeof(kfs[0]); i++) {
		if (!rw_kernel_fs(ctx->snap, kfs[i].path, kfs[i].fstype, &m))
			continue;
		n++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s writable", n > 1 ? "; " : "", kfs[i].path);
		if (fa_evidence_add(ev, fa_evidence(o, kfs[i].path,
		    json_deep_copy(m))) != 0)
			goto nomem;
	}
	if (n > 0)
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
		    "sensitive host paths are mounted: %s", list);
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "no sensitive host directory among %zu mounts; /proc/sys "
		    "and /sys are not writable", json_array_size(mounts));
	return r < 0 ? r : 0;
nomem:
	json_decref(ev);
	return FA_ERR_NOMEM;
}

static int
eval_escape(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	const char *role;
	size_t it = 0, bad = 0, unknown = 0, seen = 0, agents = 0;
	int r, w;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	(void)fa_host_creds(ctx->snap, &cr);
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_PATH, &it))) {
		role = fa_json_get_str(o->data, "role");
		if (role == NULL || (strncmp(role, "escape:", 7) != 0 &&
		    strncmp(role, "kernel-if:", 10) != 0))
			continue;
		if (o->state != FA_OBS_COMPLETE) {
			unknown++;
			continue;
		}
		seen++;
		if (!exists_as(o, "file"))
			continue;
		if (strcmp(role, "escape:release_agent") == 0)
			agents++;
		if ((w = fa_host_writable(ctx->snap, &cr, o->data)) == 0)
			continue;
		if (w < 0) {
			unknown++;
			continue;
		}
		bad++;
		if ((r = fa_results_add(out, c, FA_ST_FAIL, o->target,
		    strchr(role, ':') + 1, path_evidence(o, w), "%s is "
		    "writable from the container: %s", o->target,
		    strcmp(role, "kernel-if:sysrq-trigger") == 0 ? "it can "
		    "crash, reboot or freeze the host" : "the kernel runs the "
		    "program it names as host root")) < 0)
			return r;
	}
	if (bad > 0)
		return 0;
	if (fa_host_mount_for(ctx->snap, "/") == NULL)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, NULL,
		    "the mount table was not read, so writability cannot be "
		    "judged");
	else if (seen == 0 || unknown > 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, NULL,
		    "%zu escape files could not be judged (unread, or their "
		    "mount or mode unknown)", unknown);
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, NULL,
		    "no writable release_agent (%zu cgroup v1 hierarchies "
		    "seen), core_pattern, modprobe, uevent_helper or "
		    "sysrq-trigger", agents);
	return r < 0 ? r : 0;
}

/* Why a device node is an exposure, or NULL. */
static const char *
device_risk(const char *path, const char *type, uint64_t cap_eff)
{
	const char *b = strrchr(path, '/') + 1;
	unsigned raw;

	if (strcmp(type, "block") == 0)
		return "a block device: raw access to a disk";
	if (strncmp(path, "/dev/infiniband/umad", 20) == 0)
		return "raw InfiniBand MAD access (SMPs and GMPs to the fabric)";
	if (strncmp(path, "/dev/infiniband/issm", 20) == 0)
		return "the InfiniBand IsSM capability (can claim to be an SM)";
	if (strncmp(path, "/dev/infiniband/uverbs", 22) == 0)
		return fa_cap_from_name("cap_net_raw", &raw) == 0 &&
		    (cap_eff >> raw & 1) ? "RDMA verbs with CAP_NET_RAW: raw "
		    "packet QPs can send any frame on the fabric" : NULL;
	if (strncmp(path, "/dev/nvidia-caps/", 17) == 0)
		return "an NVIDIA MIG capability (configure or monitor every "
		    "GPU instance)";
	if (strncmp(path, "/dev/nvidia-caps-imex-channels/", 31) == 0)
		return "an NVIDIA IMEX channel (import other nodes' GPU "
		    "memory over NVLink)";
	if (strncmp(b, "nvidia-nvswitch", 15) == 0)
		return "an NVSwitch control node";
	if (strcmp(path, "/dev/mem") == 0 || strcmp(path, "/dev/kmem") == 0 ||
	    strcmp(path, "/dev/port") == 0)
		return "physical memory or I/O port access";
	if (strcmp(path, "/dev/kmsg") == 0)
		return "the host kernel log";
	return NULL;
}

static int
eval_devices(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	const json_t *nodes, *nd;
	const char *path, *type, *risk;
	json_t *ev;
	size_t i, bad = 0;
	int r;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	if (fa_host_creds(ctx->snap, &cr) != 0 || !(cr.have & FA_CRED_EFF))
		cr.cap_eff = ~0ull;	/* unknown: assume the worst */
	o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_DEVICES, "/dev");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, o != NULL ? fa_status_for_obs(o) :
		    FA_ST_NOT_TESTED, "host", NULL, NULL, "/dev was not "
		    "listed%s%s", o != NULL ? ": " : "", o != NULL ?
		    fa_obs_reason(o) : "") < 0 ? FA_ERR_NOMEM : 0;
	nodes = json_object_get(o->data, "nodes");
	json_array_foreach(nodes, i, nd) {
		path = fa_json_get_str(nd, "path");
		type = fa_json_get_str(nd, "type");
		if (path == NULL || type == NULL || strchr(path, '/') == NULL ||
		    (risk = device_risk(path, type, cr.cap_eff)) == NULL)
			continue;
		bad++;
		if ((ev = json_pack("[o]", fa_evidence(o, "node",
		    json_deep_copy(nd)))) == NULL ||
		    (r = fa_results_add(out, c, FA_ST_FAIL, path, NULL, ev,
		    "%s is in the container: %s", path, risk)) < 0)
			return FA_ERR_NOMEM;
	}
	if (bad > 0)
		return 0;
	r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, NULL, "none of "
	    "the %zu device nodes is a raw fabric, GPU-management, memory, "
	    "block or kernel-log device", json_array_size(nodes));
	return r < 0 ? r : 0;
}

static int
eval_token(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0, total, unread, found = 0;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_PATH, &it))) {
		role = fa_json_get_str(o->data, "role");
		if (role == NULL || strcmp(role, "k8s-token") != 0 ||
		    !exists_as(o, NULL))
			continue;
		found++;
		if ((r = fa_results_add(out, c, FA_ST_FAIL, o->target, NULL,
		    path_evidence(o, -1), "a Kubernetes service-account token "
		    "is mounted at %s (its content was not read)", o->target))
		    < 0)
			return r;
	}
	if (found > 0)
		return 0;
	probes_of(ctx->snap, "k8s-token", &total, &unread);
	r = fa_results_add(out, c, total == 0 || unread > 0 ?
	    FA_ST_NOT_TESTED : FA_ST_PASS, "host", NULL, NULL, total == 0 ?
	    "the token paths were not probed" : unread > 0 ? "%zu token "
	    "paths could not be examined" : "no service-account token at "
	    "the %zu probed paths", unread > 0 ? unread : total);
	return r < 0 ? r : 0;
}

HOST_CHECK(fa_chk_host_runtime_socket, "HOST-RUNTIME-SOCKET",
    FA_SEV_CRITICAL,
    "A container runtime or kubelet socket is reachable",
    "Whoever can talk to the Docker, containerd, CRI-O or kubelet socket "
    "can start a privileged container on the node or read other pods' "
    "devices: full control of the host and of its other tenants.",
    "Do not mount runtime or kubelet sockets into tenant containers; on "
    "hosts keep them owned by root and a dedicated group, never "
    "world-writable.",
    "Provider shall not expose any container runtime or kubelet API "
    "socket to Customer workloads, nor to any other customer's workloads "
    "on hosts that run Customer workloads.",
    refs_sock,
    FA_HOST_SENDS("the status (stat) of the Docker, containerd, "
    "CRI-O, Podman and kubelet socket paths under /run, /var/run and "
    "/var/lib/kubelet, " WRITABLE ENV),
    "One result per socket found. In a container (or where that cannot "
    "be told), fails for a socket this process may connect to or whose "
    "writability cannot be told, and passes for one it may not; on a "
    "host, fails for a world-writable socket and passes otherwise. "
    "Passes when no socket exists at any probed path; not tested when no "
    "path could be examined.",
    eval_socket);

HOST_CHECK(fa_chk_host_hostpath, "HOST-HOSTPATH", FA_SEV_HIGH,
    "Sensitive host paths are mounted into the container",
    "A bind mount of the host's /, /etc, /var/lib/kubelet or similar, or "
    "writable /proc/sys or /sys, lets the container read host secrets or "
    "change the host kernel's behaviour.",
    "Remove hostPath mounts of host system directories; mount /proc/sys "
    "and /sys read-only (the runtime defaults).",
    "Provider shall not mount host system directories into Customer "
    "containers and shall keep /proc/sys and /sys read-only in them.",
    refs_mount,
    FA_HOST_SENDS("/proc/self/mountinfo" ENV),
    FA_HOST_IN_CONTAINER "Fails when a disk filesystem is mounted from "
    "a sensitive host directory (/, /etc, /root, /home, /var, /var/lib, "
    "/var/lib/kubelet, /var/lib/docker, /run, /boot, /usr, /lib/modules, "
    "/dev, /proc, /sys, /etc/kubernetes, /var/lib/etcd and the like) "
    "anywhere but the container's own root, or when /proc/sys or /sys is "
    "mounted read-write. Passes otherwise. Not tested when the mount "
    "table was not read.",
    eval_hostpath);

HOST_CHECK(fa_chk_host_cgroup_escape, "HOST-CGROUP-ESCAPE", FA_SEV_CRITICAL,
    "A kernel helper path (cgroup release_agent, core_pattern) is "
    "writable",
    "The kernel runs the program named in a cgroup v1 release_agent, in "
    "core_pattern, modprobe or uevent_helper as root on the host: "
    "writing one of them from a container is a direct escape.",
    "Mount cgroupfs, /proc/sys and /sys read-only in containers (runtime "
    "defaults), use cgroup v2, and never grant CAP_SYS_ADMIN.",
    "Provider shall ensure that no kernel helper path (cgroup "
    "release_agent, core_pattern, modprobe, uevent_helper) is writable "
    "from Customer containers.",
    refs_escape,
    FA_HOST_SENDS("the status (stat) of the release_agent "
    "file of each cgroup v1 hierarchy under /sys/fs/cgroup, of "
    "/proc/sys/kernel/core_pattern, /proc/sys/kernel/modprobe, "
    "/sys/kernel/uevent_helper and /proc/sysrq-trigger, " WRITABLE ENV),
    FA_HOST_IN_CONTAINER "Fails for each of these files that this "
    "process may write. Passes when none is writable. Not tested when "
    "the mount table was not read, or when some of the files could not "
    "be judged (unread, or their mount or mode unknown).",
    eval_escape);

HOST_CHECK(fa_chk_host_device_exposed, "HOST-DEVICE-EXPOSED", FA_SEV_HIGH,
    "Raw host devices are exposed in the container",
    "umad/issm nodes send raw management datagrams to the whole "
    "InfiniBand fabric, uverbs with CAP_NET_RAW sends raw frames, "
    "nvidia-caps, NVSwitch and IMEX nodes manage GPUs other tenants use, "
    "and /dev/mem, block devices and /dev/kmsg reach the host directly.",
    "Expose only the devices a workload needs (GPU and uverbs via CDI or "
    "device plugins); never umad, issm, nvidia-caps, NVSwitch, IMEX, "
    "memory, block or kmsg nodes to tenants.",
    "Provider shall not expose to Customer containers any raw "
    "management device (InfiniBand umad or issm, NVIDIA MIG capability, "
    "NVSwitch or IMEX channel nodes), memory or block device, nor the "
    "host kernel log.",
    refs_dev,
    FA_HOST_SENDS("the listings of /dev, /dev/infiniband, "
    "/dev/nvidia-caps and /dev/nvidia-caps-imex-channels with the type, "
    "numbers and mode of each node (never opened), /proc/self/status "
    "(CapEff)" ENV),
    FA_HOST_IN_CONTAINER "Fails for each block device, InfiniBand "
    "umad or issm node, uverbs node while CAP_NET_RAW is effective (or "
    "the capabilities are unknown), NVIDIA MIG capability, IMEX channel "
    "or NVSwitch node, /dev/mem, /dev/kmem, /dev/port or /dev/kmsg "
    "present. Passes when there is none. Not tested when /dev could "
    "not be listed.",
    eval_devices);

HOST_CHECK(fa_chk_host_k8s_token, "HOST-K8S-TOKEN", FA_SEV_MEDIUM,
    "A Kubernetes service-account token is mounted",
    "A mounted service-account token is a credential for the cluster's "
    "API server; what it allows depends on RBAC the tenant cannot see.",
    "Set automountServiceAccountToken: false for tenant pods that do not "
    "call the API, and bind any token they need to least privilege.",
    "Provider shall not mount Kubernetes API credentials into Customer "
    "workloads unless Customer requests it, and shall limit any such "
    "credential to Customer's own namespace.",
    refs_token,
    FA_HOST_SENDS("the status (stat) of the service-account "
    "token paths /var/run/secrets/kubernetes.io/serviceaccount/token and "
    "/run/secrets/kubernetes.io/serviceaccount/token; the token itself "
    "is never read"),
    "One result per token found. Fails for each token present, on a "
    "host as in a container. Passes when no token is at the probed "
    "paths. Not tested when the paths were not probed or some could not "
    "be examined.",
    eval_token);
