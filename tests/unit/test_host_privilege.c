/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for privilege judged against the running kernel and its user
 * namespace (issue 19): HOST-PRIVILEGED against the kernel's own
 * /proc/sys/kernel/cap_last_cap, and fa_host_writable() with CAP_DAC_OVERRIDE
 * counted only where the kernel counts it, then the checks that call it.
 *
 * Each row states the truth first, from the sources, and what the code
 * before this change said ("was"), so that the rows that moved are plain:
 *
 *  - capabilities(7): /proc/sys/kernel/cap_last_cap "exposes the
 *    numerical value of the highest capability supported by the running
 *    kernel"; include/uapi/linux/capability.h numbers them without gaps:
 *    CAP_BLOCK_SUSPEND 36 (3.5; RHEL 7's 3.10 stops there, its CapBnd is
 *    0000001fffffffff), CAP_AUDIT_READ 37 (3.16), CAP_PERFMON 38 and
 *    CAP_BPF 39 (5.8), CAP_CHECKPOINT_RESTORE 40 (5.9, still the last).
 *  - user_namespaces(7), "Unmapped user and group IDs": an id with no
 *    mapping reads as /proc/sys/kernel/overflowuid (overflowgid), 65534.
 *  - kernel/capability.c capable_wrt_inode_uidgid(): CAP_DAC_OVERRIDE in
 *    the process's namespace, and the inode's uid *and* gid mapped into it
 *    (privileged_wrt_inode_uidgid()); fs/namei.c generic_permission():
 *    owner, else group, else other bits first, then that override.
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
#include "../../core/caps.h"
#include "../../core/errors.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "host_snap.h"
#include "../../fabric/host_proc.h"

/* The collector's names, so that checks and collector agree on them. */
#define SYSCTL		FA_KIND_HOST_SYSCTL
#define LASTCAP		FA_SYSCTL_CAP_LAST_CAP
#define DOCKER		"0x00000000a80425fb"	/* holds CAP_DAC_OVERRIDE */
#define NOCAPS		"0x0000000000000000"
#define DYN		4026532301ll	/* a proc_alloc_inum() inode */

static void
add(struct fa_snapshot *s, const char *kind, const char *target,
    enum fa_obs_state st, json_t *data)
{
	add_why(s, kind, target, st, "test reason", data);
}

/* "0 1000 1; 1 100000 65536" as the collector stores a uid_map. */
static json_t *
uid_map(const char *text)
{
	json_t *a = json_array();
	long long in, out, cnt;
	const char *p = text;
	int n;

	assert_non_null(a);
	while (sscanf(p, "%lld %lld %lld%n", &in, &out, &cnt, &n) == 3) {
		assert_int_equal(json_array_append_new(a, json_pack("[I,I,I]",
		    (json_int_t)in, (json_int_t)out, (json_int_t)cnt)), 0);
		p += n;
		p += strspn(p, "; ");
	}
	assert_int_equal(*p, '\0');
	return json_pack("{s:o}", "map", a);
}

static void
sysctl(struct fa_snapshot *s, const char *path, long long v)
{
	add(s, SYSCTL, path, FA_OBS_COMPLETE, json_pack("{s:I}", "value",
	    (json_int_t)v));
}

/*
 * A container as the runtimes show it: private pid, ipc, uts, cgroup and
 * (user_initial 0) user namespaces, a marker, an overlay root, its own
 * cgroup; /sys mounted read-write when sys_rw.
 */
static struct fa_snapshot *
container(int user_initial, int sys_rw)
{
	struct fa_snapshot *s = snap();
	struct fa_host_env env;

	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:I,s:b}, s:{s:I,s:b}, s:{s:I,s:b}, s:{s:I,s:b}, "
	    "s:{s:I,s:b}, s:{s:I}, s:{s:I}}",
	    "pid", "inode", DYN, "initial", 0, "ipc", "inode", DYN + 1,
	    "initial", 0, "uts", "inode", DYN + 2, "initial", 0, "cgroup",
	    "inode", DYN + 3, "initial", 0, "user", "inode", user_initial ?
	    4026531837ll : DYN + 4, "initial", user_initial, "net", "inode",
	    DYN + 5, "mnt", "inode", DYN + 6));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s], s:[s], s:[s,s], s:b, s:{}}", "cgroup_self", "0::/",
	    "cgroup_1", "0::/", "net_ifaces", "eth0", "lo", "cpu_hypervisor",
	    0, "dmi"));
	add(s, FA_KIND_HOST_PATH, "/.dockerenv", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:b, s:s, s:s, s:i, s:i}", "path", "/.dockerenv",
	    "role", "marker:docker", "exists", 1, "type", "file", "mode",
	    "0755", "uid", 0, "gid", 0));
	add(s, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo", FA_OBS_COMPLETE,
	    json_pack("{s:[{s:s,s:s,s:s,s:b}, {s:s,s:s,s:s,s:b}]}", "mounts",
	    "mount_point", "/", "fstype", "overlay", "root", "/",
	    "read_only", 0, "mount_point", "/sys", "fstype", "sysfs", "root",
	    "/", "read_only", !sys_rw));
	/* These tests are about privilege, not the environment decision:
	 * say so plainly if it stops calling this a container. */
	assert_int_equal(fa_host_env(s, &env), 0);
	if (env.container != 1)
		fail_msg("the test's container is not one to fa_host_env: %s",
		    env.account);
	fa_host_env_free(&env);
	return s;
}

/* Evaluate c on s (consumed): exactly one result, its status; its reason
 * must hold needle. */
static enum fa_status
one(const struct fa_check *c, struct fa_snapshot *s, const char *needle)
{
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_results r;
	struct fa_eval_ctx ctx;
	enum fa_status st;
	char reason[1024];
	size_t n;

	assert_non_null(p);
	ctx.snap = s;
	ctx.policy = p;
	memset(&r, 0, sizeof(r));
	assert_int_equal(c->eval(c, &ctx, &r), 0);
	fa_policy_free(p);
	fa_snapshot_free(s);
	n = r.n;
	st = n > 0 ? r.v[0].status : FA_ST_MAX;
	snprintf(reason, sizeof(reason), "%s", n > 0 ? r.v[0].reason : "");
	fa_results_free(&r);
	if (n != 1)
		fail_msg("%s: %zu results", c->id, n);
	if (needle != NULL && strstr(reason, needle) == NULL)
		fail_msg("%s: '%s' not in '%s'", c->id, needle, reason);
	return st;
}

/* ---- HOST-PRIVILEGED against the kernel's cap_last_cap -------------- */

struct priv_case {
	const char	*name;
	int		 last;		/* cap_last_cap, -1 unread, -2 error */
	const char	*eff;		/* CapEff */
	const char	*bnd;		/* CapBnd; NULL: CapEff */
	int		 seccomp;
	enum fa_status	 want;
	const char	*needle;
	enum fa_status	 was;		/* HEAD before issue 19 */
};

static const struct priv_case priv_cases[] = {
	/* docker run --privileged on each kernel: every capability. */
	{ "RHEL 7 3.10 privileged: 37 of 37", 36, "0x0000001fffffffff", NULL,
	  0, FA_ST_FAIL, "every capability of the kernel (37, 0 to "
	  "cap_last_cap 36)", FA_ST_PASS },
	{ "3.16-5.7 privileged: 38 of 38", 37, "0x0000003fffffffff", NULL, 0,
	  FA_ST_FAIL, "(38, 0 to cap_last_cap 37)", FA_ST_FAIL },
	{ "5.8 privileged: 40 of 40", 39, "0x000000ffffffffff", NULL, 0,
	  FA_ST_FAIL, "(40, 0 to cap_last_cap 39)", FA_ST_FAIL },
	{ "6.x privileged: 41 of 41", 40, "0x000001ffffffffff", NULL, 0,
	  FA_ST_FAIL, "(41, 0 to cap_last_cap 40)", FA_ST_FAIL },
	/*
	 * A runtime's privileged mode gives every capability it has: on a
	 * host whose root lacks CAP_SYS_RESOURCE (this project's VMs; runc
	 * with a privileged bundle, seen in tests/host/test_runtimes.sh)
	 * or from a runtime older than the kernel (no CAP_PERFMON, CAP_BPF,
	 * CAP_CHECKPOINT_RESTORE), the bounding set is that much smaller
	 * and the container is privileged all the same.
	 */
	{ "6.x, privileged on a host whose root lacks CAP_SYS_RESOURCE", 40,
	  "0x000001fffeffffff", NULL, 0, FA_ST_FAIL, "lacks only "
	  "cap_sys_resource of the kernel's 41", FA_ST_FAIL },
	{ "6.x, privileged by a runtime that predates CHECKPOINT_RESTORE", 40,
	  "0x000000ffffffffff", NULL, 0, FA_ST_FAIL,
	  "cap_checkpoint_restore", FA_ST_FAIL },
	{ "6.x, privileged by a runtime that knows 3.16's 38", 40,
	  "0x0000003fffffffff", NULL, 0, FA_ST_FAIL, "lacks only "
	  "cap_perfmon,cap_bpf,cap_checkpoint_restore", FA_ST_FAIL },
	/* One dropped from the effective set, not from the bounding set: a
	 * choice of the container's, not privileged. */
	{ "6.x, CAP_SYS_RESOURCE dropped from a full bounding set", 40,
	  "0x000001fffeffffff", "0x000001ffffffffff", 0, FA_ST_PASS,
	  "lacks 1 of the kernel's 41 capabilities: cap_sys_resource",
	  FA_ST_PASS },
	/* Four missing from the bounding set: not a privileged mode. */
	{ "6.x, four dropped from both sets", 40, "0x000001fffff0ffff", NULL,
	  0, FA_ST_PASS, "lacks 4 of the kernel's 41", FA_ST_FAIL },
	/* Without an escape capability it is not the privileged mode. */
	{ "RHEL 7, CAP_SYS_ADMIN dropped", 36, "0x0000001fffdfffff", NULL, 0,
	  FA_ST_PASS, "cap_sys_admin", FA_ST_PASS },
	/* Every capability but seccomp on: not the privileged mode. */
	{ "RHEL 7, all capabilities, seccomp filter", 36,
	  "0x0000001fffffffff", NULL, 2, FA_ST_PASS, "seccomp", FA_ST_PASS },
	/* A capability above cap_last_cap: not one kernel's data. */
	{ "bit 40 on a 3.10 cap_last_cap", 36, "0x000001ffffffffff", NULL, 0,
	  FA_ST_NOT_TESTED, "not read from one kernel", FA_ST_FAIL },
	/* cap_last_cap unread (before 3.2, or a partial copy). */
	{ "unread, 0 to 40", -1, "0x000001ffffffffff", NULL, 0, FA_ST_FAIL,
	  "taken as every capability", FA_ST_FAIL },
	{ "unread, 0 to 36", -1, "0x0000001fffffffff", NULL, 0,
	  FA_ST_NOT_TESTED, "cannot be told", FA_ST_PASS },
	{ "unread, 0 to 37", -1, "0x0000003fffffffff", NULL, 0,
	  FA_ST_NOT_TESTED, "whose last is 37", FA_ST_FAIL },
	/* A gap in a whole bounding set, cap_last_cap unread: the
	 * privileged mode of a host whose root lacks CAP_SYS_RESOURCE, or
	 * one dropped; which cannot be told. */
	{ "unread, a gap at 24 in CapEff = CapBnd", -1, "0x000001fffeffffff",
	  NULL, 0, FA_ST_NOT_TESTED, "was not read", FA_ST_FAIL },
	{ "unread, a gap at 24 dropped from CapEff only", -1,
	  "0x000001fffeffffff", "0x000001ffffffffff", 0, FA_ST_PASS, "gaps",
	  FA_ST_FAIL },
	{ "unread, 0 to 36, seccomp filter", -1, "0x0000001fffffffff", NULL,
	  2, FA_ST_PASS, "seccomp", FA_ST_PASS },
	{ "malformed cap_last_cap, 0 to 36", -2, "0x0000001fffffffff", NULL,
	  0, FA_ST_ERROR, "cannot be told", FA_ST_PASS },
};

static void
privileged_per_kernel(void **state)
{
	const struct priv_case *c;
	struct fa_snapshot *s;
	enum fa_status st;
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(priv_cases) / sizeof(priv_cases[0]); i++) {
		c = &priv_cases[i];
		s = container(1, 1);
		add(s, FA_KIND_HOST_STATUS, "/proc/self/status",
		    FA_OBS_COMPLETE, json_pack("{s:[i,i,i,i], s:s, s:s, s:i, "
		    "s:i}", "uid", 0, 0, 0, 0, "cap_eff", c->eff, "cap_bnd",
		    c->bnd != NULL ? c->bnd : c->eff, "seccomp", c->seccomp,
		    "no_new_privs", 0));
		if (c->last >= 0)
			sysctl(s, LASTCAP, c->last);
		else if (c->last == -2)
			add(s, SYSCTL, LASTCAP, FA_OBS_ERROR, json_object());
		st = one(&fa_chk_host_privileged, s, c->needle);
		if (st != c->want) {
			print_error("%s: got %s, want %s\n", c->name,
			    fa_status_name(st), fa_status_name(c->want));
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The evidence names cap_last_cap, read or not. */
static void
privileged_evidence(void **state)
{
	struct fa_snapshot *s = container(1, 1);
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_eval_ctx ctx;
	struct fa_results r;
	const json_t *e;
	size_t i;
	int seen = 0;

	(void)state;
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:s, s:s, s:i}", "uid", 0, 0, 0, 0,
	    "cap_eff", "0x0000001fffffffff", "cap_bnd", "0x0000001fffffffff",
	    "seccomp", 0));
	sysctl(s, LASTCAP, 36);
	ctx.snap = s;
	ctx.policy = p;
	memset(&r, 0, sizeof(r));
	assert_int_equal(fa_chk_host_privileged.eval(&fa_chk_host_privileged,
	    &ctx, &r), 0);
	assert_int_equal(r.n, 1);
	json_array_foreach(r.v[0].evidence, i, e)
		if (strcmp(json_string_value(json_object_get(e, "field")),
		    "cap_last_cap") == 0) {
			assert_int_equal(json_integer_value(json_object_get(e,
			    "value")), 36);
			seen++;
		}
	assert_int_equal(seen, 1);
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

/* The outcome text says what the code does, and no fixed number. */
static void
privileged_outcomes(void **state)
{
	(void)state;
	assert_non_null(strstr(fa_chk_host_privileged.outcomes,
	    "cap_last_cap"));
	assert_null(strstr(fa_chk_host_privileged.outcomes, "38 or more"));
	assert_non_null(strstr(fa_chk_host_privileged.sends,
	    "/proc/sys/kernel/cap_last_cap"));
}

static void
caps_helpers(void **state)
{
	(void)state;
	assert_true(fa_caps_full(36) == UINT64_C(0x0000001fffffffff));
	assert_true(fa_caps_full(40) == UINT64_C(0x000001ffffffffff));
	assert_true(fa_caps_full(63) == ~UINT64_C(0));
	assert_int_equal(fa_caps_count(fa_caps_full(40)), 41);
	assert_int_equal(fa_caps_count(UINT64_C(0x000001fffeffffff)), 40);
	assert_true(fa_caps_last_known() >= FA_CAP_LAST_KNOWN);
}

/* ---- fa_host_writable in and out of user namespaces ----------------- */

struct wcase {
	const char	*name;
	const char	*map;		/* uid_map; NULL: not read */
	int		 user_initial;	/* the ns link, when map is NULL */
	long long	 euid, egid;
	const char	*groups;	/* JSON array; NULL: no Groups line */
	const char	*eff;		/* CapEff; NULL: no CapEff */
	long long	 ovf;		/* overflowuid/gid read; 0: not read */
	long long	 uid, gid;	/* the file, as stat shows it inside */
	const char	*mode;
	int		 ro;		/* its mount read-only */
	int		 want;		/* 1 writable, 0 not, -1 cannot tell */
	int		 was;		/* HEAD before issue 19 */
};

#define ROOTLESS	"0 1000 1"			/* podman, no subuids */
#define PODMAN		"0 1000 1; 1 100000 65536"	/* podman default */
#define REMAP		"0 100000 65536"		/* userns-remap */
#define INITIAL		"0 0 4294967295"

static const struct wcase wcases[] = {
	/* Rootless: the host's root:docker 0660 socket reads 65534:65534;
	 * only the other bits apply, CAP_DAC_OVERRIDE does not. */
	{ "rootless 0 1000 1, host socket 0660", ROOTLESS, 0, 0, 0, "[]",
	  DOCKER, 65534, 65534, 65534, "0660", 0, 0, 1 },
	{ "podman subuids, host socket 0660", PODMAN, 0, 0, 0, "[]", DOCKER,
	  65534, 65534, 65534, "0660", 0, 0, 1 },
	{ "userns-remap, host socket 0660 (65534 inside the map)", REMAP, 0,
	  0, 0, "[]", DOCKER, 65534, 65534, 65534, "0660", 0, 0, 1 },
	{ "rootless, world-writable host file", ROOTLESS, 0, 0, 0, "[]",
	  DOCKER, 65534, 65534, 65534, "0666", 0, 1, 1 },
	{ "rootless, host core_pattern 0644", ROOTLESS, 0, 0, 0, "[]",
	  DOCKER, 65534, 65534, 65534, "0644", 0, 0, 1 },
	/* The container's own files are mapped: owner bits, then the
	 * override. */
	{ "rootless, own file 0600", ROOTLESS, 0, 0, 0, "[]", DOCKER, 65534,
	  0, 0, "0600", 0, 1, 1 },
	{ "rootless, own file 0400 (override)", PODMAN, 0, 0, 0, "[]", DOCKER,
	  65534, 5, 5, "0400", 0, 1, 1 },
	/* The uid mapped, the gid not: no override (uid AND gid). */
	{ "podman, uid mapped gid unmapped 0644", PODMAN, 0, 0, 0, "[]",
	  DOCKER, 65534, 5, 65534, "0644", 0, 0, 1 },
	/* Unmapped owner, mapped group the process is in: group bits. */
	{ "podman, 65534:0 0664, process in group 0", PODMAN, 0, 0, 0, "[]",
	  DOCKER, 65534, 65534, 0, "0664", 0, 1, 1 },
	/* crun keep-groups: a kept host group reads 65534 in Groups, and
	 * may be the socket's group: cannot tell. */
	{ "podman keep-groups, host socket 0660", PODMAN, 0, 0, 0, "[65534]",
	  DOCKER, 65534, 65534, 65534, "0660", 0, -1, 1 },
	/* nobody inside: its own 65534 and the unmapped look the same. */
	{ "podman, process is 65534, file 65534 0600", PODMAN, 0, 65534,
	  65534, "[]", NOCAPS, 65534, 65534, 65534, "0600", 0, -1, 1 },
	/* overflowuid changed: 65534 is then a real, mapped id. */
	{ "remap, overflowuid 65000, file 65534 0660", REMAP, 0, 0, 0, "[]",
	  DOCKER, 65000, 65534, 65534, "0660", 0, 1, 1 },
	{ "remap, overflowuid 65000, file 65000 0660", REMAP, 0, 0, 0, "[]",
	  DOCKER, 65000, 65000, 65000, "0660", 0, 0, 1 },
	/* The initial user namespace: every id mapped, as before. */
	{ "initial ns, root, nobody's 0660", INITIAL, 0, 0, 0, "[]", DOCKER,
	  65534, 65534, 65534, "0660", 0, 1, 1 },
	{ "initial ns, root, 0644", INITIAL, 0, 0, 0, "[]", DOCKER, 65534, 0,
	  0, "0644", 0, 1, 1 },
	{ "initial ns, uid 1000 no caps, 0644", INITIAL, 0, 1000, 1000, "[]",
	  NOCAPS, 65534, 0, 0, "0644", 0, 0, 0 },
	{ "initial ns, read-only mount", INITIAL, 0, 0, 0, "[]", DOCKER,
	  65534, 0, 0, "0666", 1, 0, 0 },
	/* uid_map not read. */
	{ "no uid_map, 65534:65534 0660: caps decide", NULL, -1, 0, 0, "[]",
	  DOCKER, 65534, 65534, 65534, "0660", 0, -1, 1 },
	{ "no uid_map, ns link initial, 65534 0660", NULL, 1, 0, 0, "[]",
	  DOCKER, 65534, 65534, 65534, "0660", 0, 1, 1 },
	{ "no uid_map, 0:0 0400: ids mapped, override", NULL, -1, 0, 0, "[]",
	  DOCKER, 0, 0, 0, "0400", 0, 1, 1 },
	{ "no uid_map, owner of 0:0 0600", NULL, -1, 0, 0, "[]", DOCKER, 0,
	  0, 0, "0600", 0, 1, 1 },
	/* Capabilities unknown: no override can help an unmapped file. */
	{ "rootless, no CapEff, host socket 0660", ROOTLESS, 0, 0, 0, "[]",
	  NULL, 65534, 65534, 65534, "0660", 0, 0, -1 },
	{ "initial, no CapEff, 0:0 0640, uid 1000", INITIAL, 0, 1000, 1000,
	  "[]", NULL, 65534, 0, 0, "0640", 0, -1, -1 },
	/* Groups unknown, group and other bits differ: cannot tell. */
	{ "rootless, no Groups, host socket 0660", ROOTLESS, 0, 0, 0, NULL,
	  DOCKER, 65534, 65534, 65534, "0660", 0, -1, 1 },
	/* A map no kernel writes (count 0) is no map: as if unread. */
	{ "malformed uid_map, host socket 0660", "0 1000 0", -1, 0, 0, "[]",
	  DOCKER, 65534, 65534, 65534, "0660", 0, -1, 1 },
};

static struct fa_snapshot *
wsnap(const struct wcase *c)
{
	struct fa_snapshot *s = snap();
	json_error_t e;
	json_t *st;

	st = json_pack("{s:[I,I,I,I]}", "uid", (json_int_t)c->euid,
	    (json_int_t)c->euid, (json_int_t)c->euid, (json_int_t)c->euid);
	assert_non_null(st);
	if (c->groups != NULL) {
		json_object_set_new(st, "gid", json_pack("[I,I,I,I]",
		    (json_int_t)c->egid, (json_int_t)c->egid,
		    (json_int_t)c->egid, (json_int_t)c->egid));
		json_object_set_new(st, "groups", json_loads(c->groups, 0,
		    &e));
	}
	if (c->eff != NULL) {
		json_object_set_new(st, "cap_eff", json_string(c->eff));
		json_object_set_new(st, "cap_bnd", json_string(c->eff));
	}
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE, st);
	add(s, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo", FA_OBS_COMPLETE,
	    json_pack("{s:[{s:s,s:s,s:s,s:b}]}", "mounts", "mount_point", "/",
	    "fstype", "overlay", "root", "/", "read_only", c->ro));
	if (c->map != NULL)
		add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map",
		    FA_OBS_COMPLETE, uid_map(c->map));
	else if (c->user_initial >= 0)
		add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE,
		    json_pack("{s:{s:I,s:b}}", "user", "inode", c->user_initial
		    ? 4026531837ll : DYN, "initial", c->user_initial));
	if (c->ovf != 0) {
		sysctl(s, FA_SYSCTL_OVERFLOWUID, c->ovf);
		sysctl(s, FA_SYSCTL_OVERFLOWGID, c->ovf);
	}
	return s;
}

static json_t *
pathdata(const struct wcase *c, const char *path)
{
	json_t *d = json_pack("{s:s, s:s, s:s, s:I, s:I}", "path", path,
	    "type", "socket", "mode", c->mode, "uid", (json_int_t)c->uid,
	    "gid", (json_int_t)c->gid);

	assert_non_null(d);
	return d;
}

static void
writable_table(void **state)
{
	const struct wcase *c;
	struct fa_host_creds cr;
	struct fa_snapshot *s;
	json_t *d;
	size_t i;
	int w, bad = 0;

	(void)state;
	for (i = 0; i < sizeof(wcases) / sizeof(wcases[0]); i++) {
		c = &wcases[i];
		s = wsnap(c);
		d = pathdata(c, "/run/docker.sock");
		assert_int_equal(fa_host_creds(s, &cr), 0);
		w = fa_host_writable(s, &cr, as_path(d));
		if (w != c->want) {
			print_error("%s: got %d, want %d\n", c->name, w,
			    c->want);
			bad++;
		}
		json_decref(d);
		fa_snapshot_free(s);
	}
	assert_int_equal(bad, 0);
}

/* The explanation names what decided, and agrees with the verdict. */
static void
writable_why(void **state)
{
	static const struct { size_t row; const char *needle; } want[] = {
		{ 0, "reads as the overflow id" },
		{ 0, "uid_map 0 1000 1" },
		{ 2, "taken as unmapped though the map holds that id" },
		{ 3, "lets everyone write" },
		{ 6, "CAP_DAC_OVERRIDE overrides mode 0400" },
		{ 9, "may stand for different ids" },
		{ 13, "every id is mapped" },
		{ 16, "read-only" },
		{ 17, "uid_map was not read" },
		{ 23, "groups are not known" },
	};
	const struct wcase *c;
	struct fa_host_creds cr;
	struct fa_snapshot *s;
	char why[512];
	json_t *d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		c = &wcases[want[i].row];
		s = wsnap(c);
		d = pathdata(c, "/run/docker.sock");
		assert_int_equal(fa_host_creds(s, &cr), 0);
		assert_int_equal(fa_host_writable_why(s, &cr, as_path(d), why,
		    sizeof(why)), c->want);
		if (strstr(why, want[i].needle) == NULL)
			fail_msg("%s: '%s' not in '%s'", c->name,
			    want[i].needle, why);
		/* No buffer is fine too. */
		assert_int_equal(fa_host_writable_why(s, &cr, as_path(d), NULL,
		    0),
		    c->want);
		json_decref(d);
		fa_snapshot_free(s);
	}
}

static void
sysctl_accessor(void **state)
{
	struct fa_snapshot *s = snap();
	const struct fa_obs *o;
	long long v = -1;

	(void)state;
	assert_int_equal(fa_host_sysctl(s, LASTCAP, 0, 63, &o, &v),
	    FA_ERR_NOTFOUND);
	assert_null(o);
	sysctl(s, LASTCAP, 64);
	assert_int_equal(fa_host_sysctl(s, LASTCAP, 0, 63, &o, &v),
	    FA_ERR_INPUT);
	assert_non_null(o);
	fa_snapshot_free(s);
	s = snap();
	sysctl(s, LASTCAP, 40);
	assert_int_equal(fa_host_sysctl(s, LASTCAP, 0, 63, NULL, &v), 0);
	assert_int_equal(v, 40);
	fa_snapshot_free(s);
	s = snap();
	add(s, SYSCTL, LASTCAP, FA_OBS_NOT_COLLECTED, json_object());
	assert_int_equal(fa_host_sysctl(s, LASTCAP, 0, 63, &o, &v),
	    FA_ERR_NOTFOUND);
	assert_non_null(o);
	fa_snapshot_free(s);
}

/* ---- the checks that call fa_host_writable -------------------------- */

static void
status_line(struct fa_snapshot *s, const char *eff)
{
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:[i,i,i,i], s:[], s:s, s:s, s:i, s:i}",
	    "uid", 0, 0, 0, 0, "gid", 0, 0, 0, 0, "groups", "cap_eff", eff,
	    "cap_bnd", eff, "seccomp", 2, "no_new_privs", 1));
}

static void
hostfile(struct fa_snapshot *s, const char *p, const char *role,
    const char *type, const char *mode, int id)
{
	add(s, FA_KIND_HOST_PATH, p, FA_OBS_COMPLETE, json_pack("{s:s, s:s, "
	    "s:b, s:s, s:s, s:i, s:i, s:s}", "path", p, "role", role, "exists",
	    1, "type", type, "mode", mode, "uid", id, "gid", id, "inode", p));
}

static void
checks_in_rootless(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	/* Rootless podman with the host's docker socket bind-mounted: seen,
	 * not usable (was: fail, "reachable"). */
	s = container(0, 0);
	status_line(s, DOCKER);
	add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map", FA_OBS_COMPLETE,
	    uid_map(PODMAN));
	hostfile(s, "/run/docker.sock", "runtime-socket:docker", "socket",
	    "0660", 65534);
	sockets_examined(s);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s,
	    "not writable"), FA_ST_PASS);
	/* The same socket in a rootful container: reachable. */
	s = container(1, 0);
	status_line(s, DOCKER);
	add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map", FA_OBS_COMPLETE,
	    uid_map(INITIAL));
	hostfile(s, "/run/docker.sock", "runtime-socket:docker", "socket",
	    "0660", 0);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, "reachable"),
	    FA_ST_FAIL);
	/* uid_map unread and the socket reads 65534: reported, not passed
	 * (was: fail as "reachable"). */
	s = container(0, 0);
	status_line(s, DOCKER);
	hostfile(s, "/run/docker.sock", "runtime-socket:docker", "socket",
	    "0660", 65534);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, "not known"),
	    FA_ST_FAIL);
	/* Escape files on a read-write mount: the kernel's own files are
	 * global root's, 65534 in a rootless container: not writable with
	 * every capability (was: fail). */
	s = container(0, 1);
	status_line(s, "0x000001ffffffffff");
	add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map", FA_OBS_COMPLETE,
	    uid_map(ROOTLESS));
	hostfile(s, "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern",
	    "file", "0644", 65534);
	assert_int_equal(one(&fa_chk_host_cgroup_escape, s,
	    "no writable release_agent"), FA_ST_PASS);
	/* Rootful, every capability: writable as before. */
	s = container(1, 1);
	status_line(s, "0x000001ffffffffff");
	add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map", FA_OBS_COMPLETE,
	    uid_map(INITIAL));
	hostfile(s, "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern",
	    "file", "0644", 0);
	assert_int_equal(one(&fa_chk_host_cgroup_escape, s, "host root"),
	    FA_ST_FAIL);
	/* Rootless with the uid_map unread: not judged, not passed. */
	s = container(0, 1);
	status_line(s, "0x000001ffffffffff");
	hostfile(s, "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern",
	    "file", "0644", 65534);
	assert_int_equal(one(&fa_chk_host_cgroup_escape, s,
	    "could not be judged"), FA_ST_NOT_TESTED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(privileged_per_kernel),
		cmocka_unit_test(privileged_evidence),
		cmocka_unit_test(privileged_outcomes),
		cmocka_unit_test(caps_helpers),
		cmocka_unit_test(writable_table),
		cmocka_unit_test(writable_why),
		cmocka_unit_test(sysctl_accessor),
		cmocka_unit_test(checks_in_rootless),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
