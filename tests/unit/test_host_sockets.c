/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for issue 19's "a pass without looking" in
 * checks/host_path_checks.c, on hand-built snapshots: HOST-RUNTIME-SOCKET
 * passes only when every source of runtime sockets was examined (the fixed
 * paths, /proc/net/unix, and in a container the bind mounts of the mount
 * table), fails for runtime sockets found outside the fixed paths
 * (bind-mounted under another name, inside a mounted directory, abstract
 * in this network namespace), does not take a read-only mount for a
 * protection (connect(2) needs no writable mount); and HOST-HOSTPATH,
 * HOST-CGROUP-ESCAPE and HOST-DEVICE-EXPOSED are not_tested, naming what,
 * when part of what they need was not read.
 *
 * Each case states the verdict first.  "old" says what the code before
 * this change gave, where it differs: those cases fail on it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../checks/host_checks.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "host_snap.h"

#define KIND_UNIX	"host.unix"	/* fabric/host_unix.h */
#define KIND_SOCKETS	"host.sockets"	/* fabric/host_paths.h */
#define DOCKER	"0x00000000a80425fb"	/* Docker's default 14 */
#define NOCAPS	"0x0000000000000000"
#define FULL	"0x000001ffffffffff"

/* ---- snapshots ------------------------------------------------------ */

static void
add(struct fa_snapshot *s, const char *kind, const char *target,
    enum fa_obs_state st, json_t *data)
{
	add_why(s, kind, target, st, "permission denied", data);
}

static json_t *
js(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (j == NULL)
		fail_msg("bad test JSON: %s: %s", e.text, text);
	return j;
}

/* Add the members of the JSON text extra to d. */
static void
update(json_t *d, const char *extra)
{
	json_t *x = js(extra);

	assert_int_equal(json_object_update(d, x), 0);
	json_decref(x);
}

/* A container: the Docker marker and private namespaces. */
static struct fa_snapshot *
container(void)
{
	struct fa_snapshot *s = snap();

	add(s, FA_KIND_HOST_PATH, "/.dockerenv", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:b, s:s, s:s, s:i, s:i}", "path", "/.dockerenv",
	    "role", "marker:docker", "exists", 1, "type", "file", "mode",
	    "0755", "uid", 0, "gid", 0));
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I}}", "pid", "initial",
	    0, "ipc", "initial", 0, "uts", "initial", 0, "cgroup", "initial",
	    0, "net", "inode", (json_int_t)4026532000));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s,s], s:b, s:{}}", "net_ifaces", "eth0", "lo",
	    "cpu_hypervisor", 0, "dmi"));
	return s;
}

/* Not a container: every namespace the initial one. */
static struct fa_snapshot *
host(void)
{
	struct fa_snapshot *s = snap();

	add(s, FA_KIND_HOST_PATH, "/.dockerenv", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:b}", "path", "/.dockerenv", "role", "marker:docker",
	    "exists", 0));
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I}}", "pid",
	    "initial", 1, "ipc", "initial", 1, "uts", "initial", 1, "cgroup",
	    "initial", 1, "user", "initial", 1, "net", "inode",
	    (json_int_t)4026531840));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s,s], s:b, s:{}}", "net_ifaces", "eth0", "lo",
	    "cpu_hypervisor", 0, "dmi"));
	return s;
}

static void
creds(struct fa_snapshot *s, int uid, const char *eff)
{
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:[i,i,i,i], s:[], s:s, s:s, s:i, s:i}",
	    "uid", uid, uid, uid, uid, "gid", uid, uid, uid, uid, "groups",
	    "cap_eff", eff, "cap_bnd", DOCKER, "seccomp", 2, "no_new_privs",
	    0));
}

/* The container's mounts: root read-write, /run/ro read-only. */
#define MOUNTS "[{\"mount_point\":\"/\",\"fstype\":\"overlay\"," \
	"\"root\":\"/\",\"read_only\":false},{\"mount_point\":\"/sys\"," \
	"\"fstype\":\"sysfs\",\"root\":\"/\",\"read_only\":true}," \
	"{\"mount_point\":\"/proc/sys\",\"fstype\":\"proc\",\"root\":" \
	"\"/sys\",\"read_only\":true},{\"mount_point\":\"/ro.sock\"," \
	"\"fstype\":\"tmpfs\",\"root\":\"/docker.sock\",\"read_only\":true}]"

static void
mounts(struct fa_snapshot *s, const char *arr, const char *extra)
{
	json_t *d = json_pack("{s:o}", "mounts", js(arr));

	if (extra != NULL)
		update(d, extra);
	add(s, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo", FA_OBS_COMPLETE,
	    d);
}

/* A stat'ed path; extra members (found_by...) as JSON text or NULL. */
static void
path(struct fa_snapshot *s, const char *p, const char *role,
    const char *type, const char *mode, int uid, const char *inode,
    const char *extra)
{
	json_t *d = json_pack("{s:s, s:s, s:b, s:s, s:s, s:i, s:i, s:s}",
	    "path", p, "role", role, "exists", 1, "type", type, "mode", mode,
	    "uid", uid, "gid", uid, "inode", inode != NULL ? inode : p);

	if (extra != NULL)
		update(d, extra);
	add(s, FA_KIND_HOST_PATH, p, FA_OBS_COMPLETE, d);
}

static void
absent(struct fa_snapshot *s, const char *p, const char *role,
    const char *extra)
{
	json_t *d = json_pack("{s:s, s:s, s:b}", "path", p, "role", role,
	    "exists", 0);

	if (extra != NULL)
		update(d, extra);
	add(s, FA_KIND_HOST_PATH, p, FA_OBS_COMPLETE, d);
}

static void
unread(struct fa_snapshot *s, const char *p, const char *role)
{
	add(s, FA_KIND_HOST_PATH, p, FA_OBS_NOT_COLLECTED, json_pack(
	    "{s:s, s:s}", "path", p, "role", role));
}

/* /proc/net/unix as the decoder writes it; listening as JSON text. */
static void
net_unix(struct fa_snapshot *s, const char *listening, int skipped)
{
	json_t *l = js(listening);

	add(s, KIND_UNIX, "/proc/net/unix", FA_OBS_COMPLETE, json_pack(
	    "{s:i, s:o, s:I, s:i, s:[], s:i}", "sockets", 40, "listening", l,
	    "listening_count", (json_int_t)json_array_size(l), "unidentified",
	    0, "skipped", "skipped_count", skipped));
}

/* The mount search; members over the defaults as JSON text or NULL. */
static void
search(struct fa_snapshot *s, const char *extra)
{
	json_t *d = js("{\"mounts\":4,\"socket_mounts\":[],\"dirs_searched\":"
	    "0,\"names\":59,\"unread\":[],\"unread_count\":0,\"not_searched\":"
	    "[],\"not_searched_count\":0,\"remote\":[],\"remote_count\":0,"
	    "\"unparsed\":0}");

	if (extra != NULL)
		update(d, extra);
	add(s, KIND_SOCKETS, "/proc/self/mountinfo", FA_OBS_COMPLETE, d);
}

/*
 * A container as the collectors leave it when nothing is exposed: uid
 * 1000 without capabilities, the fixed probes (two here) absent,
 * /proc/net/unix read with nothing listening, the mount table searched.
 */
static struct fa_snapshot *
clean(struct fa_snapshot *s, int uid, const char *eff)
{
	creds(s, uid, eff);
	mounts(s, MOUNTS, NULL);
	absent(s, "/run/docker.sock", "runtime-socket:docker", NULL);
	absent(s, "/run/containerd/containerd.sock",
	    "runtime-socket:containerd", NULL);
	return s;
}

/* ---- evaluation ----------------------------------------------------- */

static void
run(const struct fa_check *c, struct fa_snapshot *s, struct fa_results *r)
{
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_eval_ctx ctx;

	assert_non_null(p);
	ctx.snap = s;
	ctx.policy = p;
	memset(r, 0, sizeof(*r));
	assert_int_equal(c->eval(c, &ctx, r), 0);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

/*
 * The results of c on s (consumed), each "status target: reason",
 * checked against want: one "status target needle" per result, in order.
 */
static void
expect(const struct fa_check *c, struct fa_snapshot *s,
    const char *const *want)
{
	struct fa_results r;
	char st[16], tg[256];
	const char *needle;
	size_t i, n;

	run(c, s, &r);
	for (n = 0; want[n] != NULL; n++)
		;
	if (r.n != n) {
		for (i = 0; i < r.n; i++)
			print_message("  got: %s %s: %s\n",
			    fa_status_name(r.v[i].status), r.v[i].target,
			    r.v[i].reason);
		fa_results_free(&r);
		fail_msg("%s: %zu results, %zu expected", c->id, r.n, n);
	}
	for (i = 0; i < n; i++) {
		if (sscanf(want[i], "%15s %255s", st, tg) != 2)
			fail_msg("bad expectation %s", want[i]);
		needle = strchr(strchr(want[i], ' ') + 1, ' ');
		needle = needle != NULL ? needle + 1 : NULL;
		if (strcmp(fa_status_name(r.v[i].status), st) != 0 ||
		    strcmp(r.v[i].target, tg) != 0 || (needle != NULL &&
		    strstr(r.v[i].reason, needle) == NULL)) {
			print_message("  got: %s %s: %s\n",
			    fa_status_name(r.v[i].status), r.v[i].target,
			    r.v[i].reason);
			fa_results_free(&r);
			fail_msg("%s: result %zu is not \"%s\"", c->id, i,
			    want[i]);
		}
	}
	fa_results_free(&r);
}

#define EXPECT(c, s, ...) do {						\
	static const char *const w_[] = { __VA_ARGS__, NULL };		\
	expect(c, s, w_);						\
} while (0)

static const struct fa_check *const SOCK = &fa_chk_host_runtime_socket;

/* ---- HOST-RUNTIME-SOCKET: what was examined --------------------------- */

static void
socket_coverage(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	/* /proc/net/unix not read: not tested, named (old: pass). */
	s = clean(container(), 1000, NOCAPS);
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested host /proc/net/unix (not read)");
	s = clean(container(), 1000, NOCAPS);
	add(s, KIND_UNIX, "/proc/net/unix", FA_OBS_NOT_COLLECTED,
	    json_object());
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested host /proc/net/unix (permission denied)");
	/* Everything examined, nothing there: pass. */
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "pass host no runtime or kubelet socket at any of the "
	    "2 probed paths, in the 4 mounts searched");
	/* Lines of it not understood (old: pass). */
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 2);
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested host 2 lines of /proc/net/unix");
	/* In a container the bind mounts must have been searched (old:
	 * pass)... */
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	EXPECT(SOCK, s, "not_tested host the bind mounts of "
	    "/proc/self/mountinfo (not searched");
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	add(s, KIND_SOCKETS, "/proc/self/mountinfo", FA_OBS_NOT_COLLECTED,
	    json_object());
	EXPECT(SOCK, s, "not_tested host the bind mounts (permission denied)");
	/* ...completely: a mount point not stat'ed, the search's limit, a
	 * mount table entry not understood. */
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	search(s, "{\"unread\":[{\"path\":\"/etc/hosts\",\"reason\":\"in the "
	    "mount table but not found\"}],\"unread_count\":1}");
	EXPECT(SOCK, s, "not_tested host /etc/hosts (in the mount table but "
	    "not found)");
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	search(s, "{\"not_searched_count\":3,\"unparsed\":1}");
	EXPECT(SOCK, s, "not_tested host 3 mounts (past the search's limit "
	    "of stats); 1 entries of the mount table");
	/* Network mounts are named in the evidence, not a reason to refuse. */
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	search(s, "{\"remote\":[\"/data\"],\"remote_count\":1}");
	EXPECT(SOCK, s, "pass host no runtime");
	/* ...but on a host each socket is at its own path: no search. */
	s = clean(host(), 1000, NOCAPS);
	net_unix(s, "[]", 0);
	EXPECT(SOCK, s, "pass host no runtime or kubelet socket at any of the "
	    "2 probed paths or named among the 0 sockets");
	/* A fixed path that could not be stat'ed (old: pass, "1 of 3 paths
	 * could not be examined"). */
	s = clean(container(), 1000, NOCAPS);
	unread(s, "/var/lib/kubelet/pod-resources/kubelet.sock",
	    "runtime-socket:kubelet-pod-resources");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested host /var/lib/kubelet/pod-resources/"
	    "kubelet.sock (permission denied)");
	/* Nothing probed at all. */
	s = container();
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested host no runtime socket path was probed");
	/* A socket judged, the rest examined: its result alone (as
	 * before)... */
	s = clean(container(), 1000, NOCAPS);
	path(s, "/var/run/docker.sock", "runtime-socket:docker", "socket",
	    "0600", 0, NULL, NULL);
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "pass /var/run/docker.sock not writable");
	/* ...and with /proc/net/unix unread, not a pass for the rest (old:
	 * the socket's pass alone). */
	s = clean(container(), 1000, NOCAPS);
	path(s, "/var/run/docker.sock", "runtime-socket:docker", "socket",
	    "0600", 0, NULL, NULL);
	search(s, NULL);
	EXPECT(SOCK, s, "pass /var/run/docker.sock not writable",
	    "not_tested host /proc/net/unix (not read)");
	/* A failure stands whatever was not examined. */
	s = clean(container(), 0, DOCKER);
	path(s, "/var/run/docker.sock", "runtime-socket:docker", "socket",
	    "0660", 0, NULL, NULL);
	EXPECT(SOCK, s, "fail /var/run/docker.sock reachable");
}

/* ---- HOST-RUNTIME-SOCKET: where sockets are found ---------------------- */

#define SHIM "{\"name\":\"@/containerd-shim/moby/3f1c/shim.sock@\"," \
	"\"abstract\":true,\"type\":\"stream\",\"inode\":34567," \
	"\"class\":\"runtime\",\"api\":\"containerd-shim\"}"

static void
socket_found(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	/* The old shim's abstract socket, in a --net=host container and on
	 * the host itself (CVE-2020-15257; old: pass). */
	s = clean(container(), 1000, NOCAPS);
	net_unix(s, "[" SHIM "]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "fail @/containerd-shim/moby/3f1c/shim.sock@ "
	    "abstract socket listening in this process's network namespace");
	s = clean(host(), 1000, NOCAPS);
	net_unix(s, "[" SHIM "]", 0);
	EXPECT(SOCK, s, "fail @/containerd-shim/moby/3f1c/shim.sock@ the "
	    "host's network namespace");
	/* The host's socket bind-mounted under another name (old: not
	 * looked for by the collector). */
	s = clean(container(), 0, DOCKER);
	path(s, "/tmp/d.sock", "runtime-socket:docker", "socket", "0660", 0,
	    NULL, "{\"found_by\":\"mountinfo\",\"mount\":\"/tmp/d.sock\","
	    "\"mount_root\":\"/docker.sock\"}");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "fail /tmp/d.sock the docker socket at /tmp/d.sock (a "
	    "bind mount of /docker.sock");
	/* Inside a bind-mounted directory (old: not looked for by the
	 * collector). */
	s = clean(container(), 0, DOCKER);
	path(s, "/host/run/containerd/containerd.sock",
	    "runtime-socket:containerd", "socket", "0660", 0, NULL,
	    "{\"found_by\":\"mountinfo\",\"mount\":\"/host/run\"}");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "fail /host/run/containerd/containerd.sock inside the "
	    "mount at /host/run");
	/* Listening here, path absent from this mount namespace (a
	 * --net=host container): examined, not reachable by path. */
	s = clean(container(), 0, FULL);
	absent(s, "/run/user/1000/podman/podman.sock", "runtime-socket:podman",
	    "{\"found_by\":\"/proc/net/unix\"}");
	net_unix(s, "[{\"name\":\"/run/user/1000/podman/podman.sock\","
	    "\"abstract\":false,\"class\":\"runtime\",\"api\":\"podman\"}]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "pass host at paths this mount namespace does not "
	    "have");
	/* Listening, but its path never stat'ed: not examined. */
	s = clean(container(), 0, FULL);
	net_unix(s, "[{\"name\":\"/run/crio/crio.sock\",\"abstract\":false,"
	    "\"class\":\"runtime\",\"api\":\"cri-o\"}]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested host /run/crio/crio.sock (listening, its "
	    "path not stat'ed)");
	/* /run and /var/run, one socket: one result. */
	s = clean(container(), 0, DOCKER);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0660",
	    0, "8:1:42", NULL);
	path(s, "/var/run/docker.sock", "runtime-socket:docker", "socket",
	    "0660", 0, "8:1:42", NULL);
	EXPECT(SOCK, s, "fail /run/docker.sock reachable");
}

/* ---- HOST-RUNTIME-SOCKET: who may connect ------------------------------ */

static void
socket_reach(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	/* A read-only mount does not stop connect(2): root with
	 * CAP_DAC_OVERRIDE connects (old: pass, "not writable"); uid 1000
	 * against a 0600 socket of root's may not, whatever the mount. */
	s = clean(container(), 0, DOCKER);
	path(s, "/ro.sock", "runtime-socket:docker", "socket", "0660", 0,
	    NULL, "{\"found_by\":\"mountinfo\",\"mount\":\"/ro.sock\","
	    "\"mount_root\":\"/docker.sock\"}");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "fail /ro.sock read-only mount does not stop "
	    "connect(2)");
	s = clean(container(), 1000, NOCAPS);
	path(s, "/ro.sock", "runtime-socket:docker", "socket", "0600", 0,
	    NULL, NULL);
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "pass /ro.sock may not connect");
	/* A host socket whose name says nothing, bind-mounted in and
	 * reachable: not tested, named; out of reach: evidence only. */
	s = clean(container(), 0, DOCKER);
	path(s, "/srv/api.sock", "host-socket:unidentified", "socket", "0660",
	    0, NULL, "{\"found_by\":\"mountinfo\",\"mount\":\"/srv/api.sock\","
	    "\"mount_root\":\"/srv/api.sock\"}");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "not_tested /srv/api.sock its name identifies no "
	    "runtime");
	s = clean(container(), 1000, NOCAPS);
	path(s, "/srv/api.sock", "host-socket:unidentified", "socket", "0600",
	    0, NULL, "{\"found_by\":\"mountinfo\"}");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "pass host no runtime");
	/* The NVIDIA toolkit's persistenced socket: known, not a runtime. */
	s = clean(container(), 0, DOCKER);
	path(s, "/run/nvidia-persistenced/socket",
	    "host-socket:nvidia-persistenced", "socket", "0666", 0, NULL,
	    "{\"found_by\":\"mountinfo\"}");
	net_unix(s, "[]", 0);
	search(s, NULL);
	EXPECT(SOCK, s, "pass host no runtime");
	/* On a host: world-writable fails, owner-only passes. */
	s = clean(host(), 0, FULL);
	path(s, "/run/user/1000/docker.sock", "runtime-socket:docker",
	    "socket", "0666", 1000, NULL, "{\"found_by\":\"/proc/net/unix\"}");
	net_unix(s, "[]", 0);
	EXPECT(SOCK, s, "fail /run/user/1000/docker.sock is world-writable "
	    "on the host");
}

/* ---- the other checks: not_tested, naming what was not read ------------ */

static void
hostpath(void **state)
{
	static const struct fa_check *const c = &fa_chk_host_hostpath;
	struct fa_snapshot *s;

	(void)state;
	/* Lines the decoder skipped (old: pass). */
	s = container();
	mounts(s, MOUNTS, "{\"lines_skipped\":1,\"skipped\":[{\"line\":7,"
	    "\"why\":\"too few fields\"}]}");
	EXPECT(c, s, "not_tested host 1 lines of /proc/self/mountinfo");
	/* An entry without a type (old: pass). */
	s = container();
	mounts(s, "[{\"mount_point\":\"/\",\"fstype\":\"overlay\",\"root\":"
	    "\"/\",\"read_only\":false},{\"mount_point\":\"/sys\",\"fstype\":"
	    "\"sysfs\",\"root\":\"/\",\"read_only\":true},{\"mount_point\":"
	    "\"/proc/sys\",\"fstype\":\"proc\",\"root\":\"/sys\","
	    "\"read_only\":true},{\"mount_point\":\"/h\",\"root\":\"/\"}]",
	    NULL);
	EXPECT(c, s, "not_tested host 1 entries of the mount table");
	s = container();
	mounts(s, MOUNTS, NULL);
	EXPECT(c, s, "pass host no sensitive host directory among 4 mounts");
	/* A failure stands. */
	s = container();
	mounts(s, "[{\"mount_point\":\"/\",\"fstype\":\"overlay\",\"root\":"
	    "\"/\",\"read_only\":false},{\"mount_point\":\"/h\",\"fstype\":"
	    "\"ext4\",\"root\":\"/etc\",\"read_only\":false}]",
	    "{\"lines_skipped\":1,\"skipped\":[{\"line\":7}]}");
	EXPECT(c, s, "fail host host /etc at /h");
}

static void
escape(void **state)
{
	static const struct fa_check *const c = &fa_chk_host_cgroup_escape;
	struct fa_snapshot *s;

	(void)state;
	s = container();
	creds(s, 0, FULL);
	mounts(s, MOUNTS, NULL);
	path(s, "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern",
	    "file", "0644", 0, NULL, NULL);
	unread(s, "/proc/sys/kernel/modprobe", "kernel-if:modprobe");
	add(s, FA_KIND_HOST_PATH, "/sys/fs/cgroup", FA_OBS_NOT_COLLECTED,
	    json_pack("{s:s, s:s}", "path", "/sys/fs/cgroup", "role",
	    "escape:cgroup-hierarchies"));
	/* old: not_tested, "2 escape files could not be judged", unnamed */
	EXPECT(c, s, "not_tested host could not be judged (unread, or their "
	    "mount or mode unknown): /proc/sys/kernel/modprobe (permission "
	    "denied); /sys/fs/cgroup (permission denied)");
	/* A writable one fails whatever else. */
	s = container();
	creds(s, 0, FULL);
	mounts(s, "[{\"mount_point\":\"/\",\"fstype\":\"overlay\",\"root\":"
	    "\"/\",\"read_only\":false}]", NULL);
	path(s, "/cg/memory/release_agent", "escape:release_agent", "file",
	    "0644", 0, NULL, NULL);
	unread(s, "/proc/sys/kernel/modprobe", "kernel-if:modprobe");
	EXPECT(c, s, "fail /cg/memory/release_agent host root");
}

static void
devices(void **state)
{
	static const struct fa_check *const c = &fa_chk_host_device_exposed;
	struct fa_snapshot *s;

	(void)state;
	/* A directory not listed (old: pass). */
	s = container();
	creds(s, 0, NOCAPS);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, js("{\"dirs\":"
	    "[{\"path\":\"/dev\",\"listed\":true},{\"path\":\"/dev/vfio\","
	    "\"listed\":false,\"reason\":\"permission denied\"}],"
	    "\"nodes\":[{\"path\":\"/dev/null\",\"type\":\"char\"}]}"));
	EXPECT(c, s, "not_tested host /dev/vfio (permission denied)");
	/* Every directory listed, absent ones aside: pass. */
	s = container();
	creds(s, 0, NOCAPS);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, js("{\"dirs\":"
	    "[{\"path\":\"/dev\",\"listed\":true},{\"path\":\"/dev/mapper\","
	    "\"listed\":false,\"absent\":true,\"reason\":\"not found\"}],"
	    "\"nodes\":[{\"path\":\"/dev/null\",\"type\":\"char\"}]}"));
	EXPECT(c, s, "pass host none of the 1 device nodes");
	/* Entries not stat'ed (old: pass). */
	s = container();
	creds(s, 0, NOCAPS);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, js("{\"dirs\":"
	    "[{\"path\":\"/dev\",\"listed\":true,\"unread\":[\"sdz\"],"
	    "\"unread_count\":3}],\"nodes\":[]}"));
	EXPECT(c, s, "not_tested host /dev/sdz (not stat'ed); 2 more entries "
	    "of /dev");
	/* A failure stands. */
	s = container();
	creds(s, 0, NOCAPS);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, js("{\"dirs\":"
	    "[{\"path\":\"/dev\",\"listed\":true},{\"path\":\"/dev/x\","
	    "\"listed\":false,\"reason\":\"permission denied\"}],"
	    "\"nodes\":[{\"path\":\"/dev/mapper/vg-data\",\"type\":"
	    "\"block\"}]}"));
	EXPECT(c, s, "fail /dev/mapper/vg-data block device");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(socket_coverage),
		cmocka_unit_test(socket_found),
		cmocka_unit_test(socket_reach),
		cmocka_unit_test(hostpath),
		cmocka_unit_test(escape),
		cmocka_unit_test(devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
