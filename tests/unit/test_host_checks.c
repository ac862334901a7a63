/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the host checks (checks/host_*.c) on synthetic snapshots:
 * the environment classification, each decision rule, fail-closed
 * behaviour on missing or malformed evidence, and the catalogue rules
 * (unknown driver branch, version-only confidence, flags that re-open or
 * mitigate a CVE).  The fixture trees in fixtures/host/ exercise the same
 * checks end to end (tests/host/test_fixtures.sh).
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

#define FULL	"0x000001ffffffffff"
#define DOCKER	"0x00000000a80425fb"	/* Docker's default 14 */

static void
add(struct fa_snapshot *s, const char *kind, const char *target,
    enum fa_obs_state st, json_t *data)
{
	add_why(s, kind, target, st, "test reason", data);
}

static void
status(struct fa_snapshot *s, int uid, const char *eff, const char *bnd,
    int seccomp, int nnp)
{
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:s, s:s, s:i, s:i, s:i}", "uid", uid,
	    uid, uid, uid, "cap_eff", eff, "cap_bnd", bnd, "seccomp", seccomp,
	    "no_new_privs", nnp, "seccomp_filters", seccomp == 2));
}

static void
marker(struct fa_snapshot *s, int exists)
{
	add(s, FA_KIND_HOST_PATH, "/.dockerenv", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:b, s:s, s:s, s:i, s:i}", "path", "/.dockerenv",
	    "role", "marker:docker", "exists", exists, "type", "file", "mode",
	    "0755", "uid", 0, "gid", 0));
}

static void
ns(struct fa_snapshot *s, int pid_initial, int net_host)
{
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I}}", "pid", "initial",
	    pid_initial, "ipc", "initial", 0, "uts", "initial", 0, "cgroup",
	    "initial", 0, "net", "inode", (json_int_t)4026532000));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s,s], s:b, s:{}}", "net_ifaces", "eth0", net_host ?
	    "docker0" : "lo", "cpu_hypervisor", 0, "dmi"));
}

/* Not a container: every namespace the initial one (the kernel's fixed
 * numbers; net and mnt on a kernel before 6.18 give no verdict). */
static void
host_ns(struct fa_snapshot *s)
{
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I}}", "pid",
	    "initial", 1, "ipc", "initial", 1, "uts", "initial", 1, "cgroup",
	    "initial", 1, "user", "initial", 1, "net", "inode",
	    (json_int_t)4026531840));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s,s], s:b, s:{}}", "net_ifaces", "eth0", "lo",
	    "cpu_hypervisor", 0, "dmi"));
}

/* A container: marker, private namespaces. */
static struct fa_snapshot *
container(void)
{
	struct fa_snapshot *s = snap();

	marker(s, 1);
	ns(s, 0, 0);
	return s;
}

static void
mounts(struct fa_snapshot *s, const char *json)
{
	json_error_t e;
	json_t *m = json_loads(json, 0, &e);

	if (m == NULL)
		fail_msg("bad test JSON: %s", e.text);
	add(s, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo", FA_OBS_COMPLETE,
	    json_pack("{s:o}", "mounts", m));
}

static void
path(struct fa_snapshot *s, const char *p, const char *role,
    const char *type, const char *mode, int uid)
{
	add(s, FA_KIND_HOST_PATH, p, FA_OBS_COMPLETE, json_pack("{s:s, s:s, "
	    "s:b, s:s, s:s, s:i, s:i, s:s}", "path", p, "role", role, "exists",
	    1, "type", type, "mode", mode, "uid", uid, "gid", 0, "inode",
	    p));
}

/* Evaluate c on s (consumed) under policy text (NULL: empty). */
static void
run(const struct fa_check *c, struct fa_snapshot *s, const char *ptext,
    struct fa_results *r)
{
	struct fa_policy *p = NULL;
	struct fa_eval_ctx ctx;
	char *errs = NULL;

	if (ptext == NULL)
		p = fa_policy_new_empty();
	else if (fa_policy_parse("t.conf", ptext, strlen(ptext), 0, &p,
	    &errs) != 0)
		fail_msg("policy rejected: %s", errs);
	assert_non_null(p);
	ctx.snap = s;
	ctx.policy = p;
	memset(r, 0, sizeof(*r));
	assert_int_equal(c->eval(c, &ctx, r), 0);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

/* Exactly one result: its status, with `needle` in its reason. */
static enum fa_status
one(const struct fa_check *c, struct fa_snapshot *s, const char *ptext,
    const char *needle)
{
	struct fa_results r;
	enum fa_status st;
	char reason[512];
	size_t n;

	run(c, s, ptext, &r);
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

static void
family_gate(void **state)
{
	const struct fa_check *const *c;
	struct fa_snapshot *s;
	size_t n = 0;

	(void)state;
	for (c = fa_checks; *c != NULL; c++) {
		if ((*c)->family != FA_FAM_HOST)
			continue;
		n++;
		assert_non_null(s = fa_snapshot_new());
		assert_int_equal(one(*c, s, NULL, "host family not in the "
		    "scope"), FA_ST_NOT_TESTED);
		assert_non_null(s = fa_snapshot_new());
		assert_int_equal(fa_snapshot_set_family(s, FA_FAM_HOST,
		    FA_FAMST_FAILED, "disk on fire"), 0);
		assert_int_equal(one(*c, s, NULL, "disk on fire"), FA_ST_ERROR);
	}
	assert_int_equal(n, 21);
}

static void
environment(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	/* No evidence at all: container checks cannot tell. */
	assert_int_equal(one(&fa_chk_host_seccomp_off, snap(), NULL,
	    "could not be told apart"), FA_ST_NOT_TESTED);
	/* Every namespace the host's, marker probed and absent: not a
	 * container. */
	s = snap();
	marker(s, 0);
	host_ns(s);
	assert_int_equal(one(&fa_chk_host_seccomp_off, s, NULL,
	    "not a container (bare metal"), FA_ST_NOT_APPLICABLE);
	/* A private PID namespace alone makes a container. */
	s = snap();
	ns(s, 0, 0);
	status(s, 0, FULL, FULL, 0, 0);
	assert_int_equal(one(&fa_chk_host_seccomp_off, s, NULL, NULL),
	    FA_ST_FAIL);
	/* The host's PIDs but uts, ipc and cgroup namespaces of its own,
	 * no marker: a container sharing the host's PIDs (a hostPID pod). */
	s = snap();
	ns(s, 1, 0);
	status(s, 0, FULL, FULL, 0, 0);
	assert_int_equal(one(&fa_chk_host_seccomp_off, s, NULL, NULL),
	    FA_ST_FAIL);
	/* Tenancy against the policy. */
	s = snap();
	marker(s, 0);
	host_ns(s);
	assert_int_equal(one(&fa_chk_host_tenancy, s, "dedicated_host yes\n",
	    "bare metal"), FA_ST_PASS);
	assert_int_equal(one(&fa_chk_host_tenancy, container(),
	    "dedicated_host yes\n", "may be shared"), FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_host_tenancy, container(), NULL,
	    "does not promise a dedicated host (no \"dedicated_host yes\" "
	    "line)"), FA_ST_NOT_APPLICABLE);
	assert_int_equal(one(&fa_chk_host_tenancy, snap(),
	    "dedicated_host yes\n", "cannot tell"), FA_ST_NOT_TESTED);
}

static void
credentials(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	s = container();
	status(s, 0, FULL, FULL, 0, 0);
	mounts(s, "[{\"mount_point\":\"/sys\",\"fstype\":\"sysfs\","
	    "\"root\":\"/\",\"read_only\":false}]");
	assert_int_equal(one(&fa_chk_host_privileged, s, NULL,
	    "privileged container"), FA_ST_FAIL);
	/* Docker's defaults: not privileged, nothing dangerous. */
	s = container();
	status(s, 0, DOCKER, DOCKER, 2, 0);
	assert_int_equal(one(&fa_chk_host_privileged, s, NULL,
	    "not privileged"), FA_ST_PASS);
	s = container();
	status(s, 0, DOCKER, DOCKER, 2, 0);
	assert_int_equal(one(&fa_chk_host_cap_dangerous, s, NULL, NULL),
	    FA_ST_PASS);
	/* CAP_SYS_ADMIN (21) and CAP_SYS_PTRACE (19), decoded by name. */
	s = container();
	status(s, 0, "0x0000000000280000", DOCKER, 2, 1);
	assert_int_equal(one(&fa_chk_host_cap_dangerous, s, NULL,
	    "cap_sys_ptrace,cap_sys_admin"), FA_ST_FAIL);
	s = container();
	status(s, 1000, "0x0000000000000000", DOCKER, 1, 1);
	assert_int_equal(one(&fa_chk_host_seccomp_off, s, NULL, "strict"),
	    FA_ST_PASS);
	s = container();
	status(s, 1000, "0x0000000000000000", DOCKER, 2, 1);
	assert_int_equal(one(&fa_chk_host_nnp_off, s, NULL, "is set"),
	    FA_ST_PASS);
	/* A status without the lines: not tested, naming what is missing. */
	s = container();
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i]}", "uid", 0, 0, 0, 0));
	assert_int_equal(one(&fa_chk_host_nnp_off, s, NULL, "NoNewPrivs"),
	    FA_ST_NOT_TESTED);
	/* Malformed: an error, never a verdict. */
	s = container();
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:s}", "uid", 0, 0, 0, 0, "cap_eff",
	    "junk"));
	assert_int_equal(one(&fa_chk_host_cap_dangerous, s, NULL,
	    "malformed"), FA_ST_ERROR);
	s = container();
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_NOT_COLLECTED,
	    json_object());
	assert_int_equal(one(&fa_chk_host_privileged, s, NULL, "test reason"),
	    FA_ST_NOT_TESTED);
}

static enum fa_status
lsm(const char *json)
{
	struct fa_snapshot *s = container();
	json_error_t e;
	json_t *d = json_loads(json, 0, &e);

	if (d == NULL)
		fail_msg("bad test JSON: %s", e.text);
	add(s, FA_KIND_HOST_LSM, "/proc/self/attr", FA_OBS_COMPLETE, d);
	return one(&fa_chk_host_lsm_off, s, NULL, NULL);
}

static void
lsm_labels(void **state)
{
	(void)state;
	assert_int_equal(lsm("{\"current\":\"unconfined\"}"), FA_ST_FAIL);
	assert_int_equal(lsm("{\"current\":\"docker-default (enforce)\"}"),
	    FA_ST_PASS);
	assert_int_equal(lsm("{\"current\":\"x (complain)\"}"), FA_ST_FAIL);
	/* The AppArmor-specific file wins over the stacked one. */
	assert_int_equal(lsm("{\"current\":\"unconfined\", \"apparmor_current\":"
	    "\"docker-default (enforce)\"}"), FA_ST_PASS);
	assert_int_equal(lsm("{\"current\":\"system_u:system_r:spc_t:s0\"}"),
	    FA_ST_FAIL);
	assert_int_equal(lsm("{\"current\":\"system_u:system_r:container_t:"
	    "s0:c1,c2\", \"selinux_enforce\":\"1\"}"), FA_ST_PASS);
	assert_int_equal(lsm("{\"current\":\"system_u:system_r:container_t:"
	    "s0\", \"selinux_enforce\":\"0\"}"), FA_ST_FAIL);
	assert_int_equal(lsm("{\"current\":\"system_u:system_r:container_t:"
	    "s0\"}"), FA_ST_NOT_TESTED);
	assert_int_equal(lsm("{\"lsm_list\":\"lockdown,capability,yama\"}"),
	    FA_ST_FAIL);
	assert_int_equal(lsm("{\"lsm_list\":\"capability,apparmor\"}"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(lsm("{}"), FA_ST_NOT_TESTED);
	assert_int_equal(lsm("{\"current\":\"weird\"}"), FA_ST_NOT_TESTED);
	/* No module serves attr/current (this project's own 6.18 VM, with
	 * no AppArmor or SELinux built in): EINVAL is the kernel's answer. */
	assert_int_equal(lsm("{\"unread\": {\"current\": "
	    "\"/proc/self/attr/current: invalid argument\", "
	    "\"apparmor_current\": \"/proc/self/attr/apparmor/current: not "
	    "found\", \"selinux_enforce\": \"/sys/fs/selinux/enforce: not "
	    "found\", \"lsm_list\": \"/sys/kernel/security/lsm: not "
	    "found\"}}"), FA_ST_FAIL);
	/* Unreadable for another reason: nothing learnt. */
	assert_int_equal(lsm("{\"unread\": {\"current\": "
	    "\"/proc/self/attr/current: permission denied\"}}"),
	    FA_ST_NOT_TESTED);
}

static void
userns_and_namespaces(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	s = container();
	status(s, 0, DOCKER, DOCKER, 2, 0);
	add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map", FA_OBS_COMPLETE,
	    json_pack("{s:[[i,i,I]]}", "map", 0, 0, (json_int_t)4294967295));
	assert_int_equal(one(&fa_chk_host_userns_root, s, NULL,
	    "root on the host"), FA_ST_FAIL);
	s = container();
	status(s, 0, DOCKER, DOCKER, 2, 0);
	add(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map", FA_OBS_COMPLETE,
	    json_pack("{s:[[i,i,i]]}", "map", 0, 100000, 65536));
	assert_int_equal(one(&fa_chk_host_userns_root, s, NULL,
	    "host uid 100000"), FA_ST_PASS);
	s = container();
	status(s, 0, DOCKER, DOCKER, 2, 0);
	assert_int_equal(one(&fa_chk_host_userns_root, s, NULL,
	    "uid_map was not read"), FA_ST_NOT_TESTED);
	/* A marker with the host's PID namespace and a host-only interface. */
	s = snap();
	marker(s, 1);
	ns(s, 1, 1);
	assert_int_equal(one(&fa_chk_host_ns_shared, s, NULL,
	    "host's pid, net namespaces"), FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_host_ns_shared, container(), NULL,
	    "own"), FA_ST_PASS);
}

/*
 * A container (private pid, ipc, uts, cgroup namespaces, a marker) whose
 * net and mnt links and interfaces are given: ns_json holds the net and
 * mnt members as the collector writes them, ten_json the tenancy data.
 */
static enum fa_status
net_case(const char *ns_json, const char *ten_json, const char *needle)
{
	struct fa_snapshot *s = snap();
	json_error_t e;
	json_t *ns = json_loads(ns_json, 0, &e), *ten = json_loads(ten_json,
	    0, &e), *own;

	if (ns == NULL || ten == NULL)
		fail_msg("bad test JSON: %s", e.text);
	marker(s, 1);
	own = json_pack("{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}}", "pid",
	    "initial", 0, "ipc", "initial", 0, "uts", "initial", 0, "cgroup",
	    "initial", 0);
	assert_int_equal(json_object_update(ns, own), 0);
	json_decref(own);
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, ns);
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, ten);
	return one(&fa_chk_host_ns_shared, s, NULL, needle);
}

/*
 * --net=host on every kernel: on 6.18 the initial net namespace's fixed
 * inode (0xEFFFFFF9) says it; before, PID 1's link (hostPID) or what the
 * interfaces show.  A VF moved into a pod is no sign of the host's.
 */
static void
net_host(void **state)
{
	(void)state;
	/* 6.18: net and mnt have verdicts from their numbers. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026531833, "
	    "\"initial\": true}, \"mnt\": {\"inode\": 4026532296, "
	    "\"initial\": false}}", "{\"net_ifaces\": [\"eth0\", \"lo\"]}",
	    "host's net namespace"), FA_ST_FAIL);
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026532302, "
	    "\"initial\": false}, \"mnt\": {\"inode\": 4026531832, "
	    "\"initial\": true}}", "{\"net_ifaces\": [\"eth0\", \"lo\"]}",
	    "host's mnt namespace"), FA_ST_FAIL);
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026532302, "
	    "\"initial\": false}, \"mnt\": {\"inode\": 4026532296, "
	    "\"initial\": false}}", "{\"net_ifaces\": [\"eth0\", \"lo\"], "
	    "\"net_ifaces_physical\": []}", "net, mnt namespaces are the "
	    "container's own"), FA_ST_PASS);
	/* 5.15, no bridge on the host: only its NIC shows. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026531840}, "
	    "\"mnt\": {\"inode\": 4026532296}}", "{\"net_ifaces\": "
	    "[\"eno1\", \"lo\"], \"net_ifaces_physical\": [\"eno1\"], "
	    "\"net_ifaces_vf\": []}", "NIC eno1"), FA_ST_FAIL);
	/* 5.15, a pod with its veth and an SR-IOV VF for RoCE. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026532302}, "
	    "\"mnt\": {\"inode\": 4026532296}}", "{\"net_ifaces\": "
	    "[\"eth0\", \"lo\", \"net1\"], \"net_ifaces_physical\": [], "
	    "\"net_ifaces_vf\": [\"net1\"]}", "SR-IOV VF"), FA_ST_PASS);
	/* 5.15, the host's bridge of a container network. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026531840}}",
	    "{\"net_ifaces\": [\"cni0\", \"lo\"]}", "cni0"), FA_ST_FAIL);
	/* A link that exists but could not be read: no pass. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026532302, "
	    "\"initial\": false}, \"mnt\": {\"unreadable\": \"permission "
	    "denied\"}}", "{\"net_ifaces\": [\"eth0\", \"lo\"]}",
	    "the mnt link could not be read"), FA_ST_NOT_TESTED);
	/* 5.15, a NIC not told PF from VF: no pass. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026532302}}",
	    "{\"net_ifaces\": [\"eth0\", \"lo\", \"net1\"], "
	    "\"net_ifaces_physical\": [], \"net_ifaces_vf\": [], "
	    "\"unread\": {\"net_ifaces_physical\": "
	    "\"/sys/class/net/net1/device/physfn: permission denied\"}}",
	    "could not be told"), FA_ST_NOT_TESTED);
	/* 5.15, nothing read about the interfaces: no pass. */
	assert_int_equal(net_case("{\"net\": {\"inode\": 4026531840}}",
	    "{}", "could not be told"), FA_ST_NOT_TESTED);
}

/* A mount table with a skipped line cannot place a path on its mount. */
static void
mounts_with_holes(void **state)
{
	struct fa_snapshot *s = container();
	struct fa_host_creds cr;
	json_t *pd;

	(void)state;
	status(s, 0, FULL, FULL, 0, 0);
	add(s, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo", FA_OBS_COMPLETE,
	    json_pack("{s:[{s:s, s:s, s:b}], s:i, s:[{s:i, s:s}]}", "mounts",
	    "mount_point", "/", "fstype", "overlay", "read_only", 1,
	    "lines_skipped", 1, "skipped", "line", 7, "why", "too few fields"));
	pd = json_pack("{s:s, s:s, s:i, s:i}", "path", "/etc/shadow", "mode",
	    "0640", "uid", 0, "gid", 0);
	assert_int_equal(fa_host_creds(s, &cr), 0);
	/* The read-only root would say 0; the hole makes it unknown. */
	assert_int_equal(fa_host_writable(s, &cr, as_path(pd)), -1);
	json_decref(pd);
	fa_snapshot_free(s);
}

/* hostPID on an older kernel: PID 1's net link compares directly. */
static void
net_pid1(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	s = snap();
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I, s:I}}", "pid",
	    "initial", 1, "ipc", "initial", 0, "uts", "initial", 0, "cgroup",
	    "initial", 0, "net", "inode", (json_int_t)4026531840, "pid1",
	    (json_int_t)4026531840));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s,s], s:[s]}", "net_ifaces", "eth0", "lo", "cgroup_1",
	    "0::/../../init.scope"));
	assert_int_equal(one(&fa_chk_host_ns_shared, s, NULL, "the same as "
	    "PID 1's"), FA_ST_FAIL);
	s = snap();
	add(s, FA_KIND_HOST_NS, "/proc/self/ns", FA_OBS_COMPLETE, json_pack(
	    "{s:{s:b}, s:{s:b}, s:{s:b}, s:{s:b}, s:{s:I, s:I}}", "pid",
	    "initial", 1, "ipc", "initial", 0, "uts", "initial", 0, "cgroup",
	    "initial", 0, "net", "inode", (json_int_t)4026532302, "pid1",
	    (json_int_t)4026531840));
	add(s, FA_KIND_HOST_TENANCY, "/", FA_OBS_COMPLETE, json_pack(
	    "{s:[s,s], s:[s]}", "net_ifaces", "eth0", "lo", "cgroup_1",
	    "0::/../../init.scope"));
	/* Fails for pid, which is shared; net is not in the list. */
	assert_int_equal(one(&fa_chk_host_ns_shared, s, NULL, "host's pid "
	    "namespace (the network namespace is not PID 1's"), FA_ST_FAIL);
}

static void
paths(void **state)
{
	static const char ro_mounts[] = "[{\"mount_point\":\"/\","
	    "\"fstype\":\"overlay\",\"root\":\"/\",\"read_only\":false},"
	    "{\"mount_point\":\"/sys\",\"fstype\":\"sysfs\",\"root\":\"/\","
	    "\"read_only\":true},{\"mount_point\":\"/proc/sys\","
	    "\"fstype\":\"proc\",\"root\":\"/sys\",\"read_only\":true}]";
	struct fa_snapshot *s;
	struct fa_results r;

	(void)state;
	/* Sockets: root in a container reaches it; mode 0660 keeps uid 1000
	 * out; on a host only world-writable counts. */
	s = container();
	status(s, 0, DOCKER, DOCKER, 2, 0);
	mounts(s, ro_mounts);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0660",
	    0);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, NULL,
	    "reachable"), FA_ST_FAIL);
	s = container();
	status(s, 1000, "0x0000000000000000", DOCKER, 2, 0);
	mounts(s, ro_mounts);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0600",
	    0);
	sockets_examined(s);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, NULL,
	    "not writable"), FA_ST_PASS);
	/* Group-writable: our groups are not known, so it is reported. */
	s = container();
	status(s, 1000, "0x0000000000000000", DOCKER, 2, 0);
	mounts(s, ro_mounts);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0660",
	    0);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, NULL,
	    "not known"), FA_ST_FAIL);
	/* With our groups known: in the socket's group (0), reachable... */
	s = container();
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:[i,i,i,i], s:[i], s:s, s:s}", "uid",
	    1000, 1000, 1000, 1000, "gid", 1000, 1000, 1000, 1000, "groups", 0,
	    "cap_eff", "0x0000000000000000", "cap_bnd", DOCKER));
	mounts(s, ro_mounts);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0660",
	    0);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, NULL,
	    "reachable"), FA_ST_FAIL);
	/* ...outside it, not. */
	s = container();
	add(s, FA_KIND_HOST_STATUS, "/proc/self/status", FA_OBS_COMPLETE,
	    json_pack("{s:[i,i,i,i], s:[i,i,i,i], s:[], s:s, s:s}", "uid",
	    1000, 1000, 1000, 1000, "gid", 1000, 1000, 1000, 1000, "groups",
	    "cap_eff", "0x0000000000000000", "cap_bnd", DOCKER));
	mounts(s, ro_mounts);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0660",
	    0);
	sockets_examined(s);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, NULL,
	    "not writable"), FA_ST_PASS);
	s = snap();
	marker(s, 0);
	host_ns(s);
	path(s, "/run/docker.sock", "runtime-socket:docker", "socket", "0666",
	    0);
	assert_int_equal(one(&fa_chk_host_runtime_socket, s, NULL,
	    "world-writable"), FA_ST_FAIL);
	/* Nothing probed: not tested, never pass. */
	assert_int_equal(one(&fa_chk_host_runtime_socket, container(), NULL,
	    "no runtime socket path was probed"), FA_ST_NOT_TESTED);
	/* Escape files: a read-only mount protects even root. */
	s = container();
	status(s, 0, FULL, FULL, 0, 0);
	mounts(s, ro_mounts);
	path(s, "/sys/fs/cgroup/memory/release_agent", "escape:release_agent",
	    "file", "0644", 0);
	path(s, "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern",
	    "file", "0644", 0);
	assert_int_equal(one(&fa_chk_host_cgroup_escape, s, NULL,
	    "no writable release_agent (1"), FA_ST_PASS);
	s = container();
	status(s, 0, FULL, FULL, 0, 0);
	mounts(s, "[{\"mount_point\":\"/\",\"fstype\":\"overlay\","
	    "\"root\":\"/\",\"read_only\":false}]");
	path(s, "/proc/sys/kernel/core_pattern", "kernel-if:core_pattern",
	    "file", "0644", 0);
	assert_int_equal(one(&fa_chk_host_cgroup_escape, s, NULL,
	    "host root"), FA_ST_FAIL);
	/* Host paths: a bind of the host's /etc, and /sys read-write. */
	s = container();
	mounts(s, "[{\"mount_point\":\"/\",\"fstype\":\"overlay\","
	    "\"root\":\"/\",\"read_only\":false},{\"mount_point\":\"/h\","
	    "\"fstype\":\"ext4\",\"root\":\"/etc\",\"read_only\":true},"
	    "{\"mount_point\":\"/etc/hosts\",\"fstype\":\"ext4\",\"root\":"
	    "\"/var/lib/docker/containers/x/hosts\",\"read_only\":false},"
	    "{\"mount_point\":\"/sys\",\"fstype\":\"sysfs\",\"root\":\"/\","
	    "\"read_only\":false}]");
	assert_int_equal(one(&fa_chk_host_hostpath, s, NULL,
	    "host /etc at /h (read-only); /sys writable"), FA_ST_FAIL);
	s = container();
	mounts(s, ro_mounts);
	assert_int_equal(one(&fa_chk_host_hostpath, s, NULL, NULL),
	    FA_ST_PASS);
	/* Devices: uverbs only with CAP_NET_RAW (13). */
	s = container();
	status(s, 0, "0x0000000000000000", DOCKER, 2, 0);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, json_pack(
	    "{s:[], s:[{s:s, s:s}, {s:s, s:s}]}", "dirs", "nodes", "path",
	    "/dev/infiniband/uverbs0", "type", "char", "path", "/dev/nvidia0",
	    "type", "char"));
	assert_int_equal(one(&fa_chk_host_device_exposed, s, NULL, "none of "
	    "the 2"), FA_ST_PASS);
	s = container();
	status(s, 0, "0x0000000000002000", DOCKER, 2, 0);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, json_pack(
	    "{s:[], s:[{s:s, s:s}, {s:s, s:s}]}", "dirs", "nodes", "path",
	    "/dev/infiniband/uverbs0", "type", "char", "path", "/dev/sdb",
	    "type", "block"));
	run(&fa_chk_host_device_exposed, s, NULL, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_non_null(strstr(r.v[0].reason, "CAP_NET_RAW"));
	assert_string_equal(r.v[1].target, "/dev/sdb");
	fa_results_free(&r);
	/* A node listed twice (two entries of one path) is one result:
	 * diff and --baseline refuse a report with one target twice. */
	s = container();
	status(s, 0, "0x0000000000000000", DOCKER, 2, 0);
	add(s, FA_KIND_HOST_DEVICES, "/dev", FA_OBS_COMPLETE, json_pack(
	    "{s:[], s:[{s:s, s:s}, {s:s, s:s}]}", "dirs", "nodes", "path",
	    "/dev/sdb", "type", "block", "path", "/dev/sdb", "type",
	    "block"));
	{
		struct fa_policy *p = fa_policy_new_empty();
		struct fa_eval_ctx ctx = { s, p };
		size_t i, n = 0, at = 0;

		memset(&r, 0, sizeof(r));
		assert_int_equal(fa_evaluate(&ctx, &r), 0);
		for (i = 0; i < r.n; i++)
			if (r.v[i].check == &fa_chk_host_device_exposed &&
			    strcmp(r.v[i].target, "/dev/sdb") == 0) {
				n++;
				at = i;
			}
		assert_int_equal(n, 1);
		assert_int_equal(r.v[at].status, FA_ST_FAIL);
		assert_int_equal(json_array_size(r.v[at].evidence), 2);
		fa_results_free(&r);
		fa_policy_free(p);
		fa_snapshot_free(s);
	}
	/* The token: reported by path. */
	s = snap();
	path(s, "/run/secrets/kubernetes.io/serviceaccount/token", "k8s-token",
	    "file", "0644", 0);
	assert_int_equal(one(&fa_chk_host_k8s_token, s, NULL,
	    "content was not read"), FA_ST_FAIL);
}

static void
toolkit_config(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	s = snap();
	marker(s, 0);
	host_ns(s);
	add(s, FA_KIND_HOST_CTK_CONFIG, "/etc/c.toml", FA_OBS_COMPLETE,
	    json_pack("{s:{s:s}, s:[]}", "values",
	    "nvidia-container-runtime.mode", "cdi", "unparsed"));
	/* The envvar flag defaults to true: absent is a failure. */
	assert_int_equal(one(&fa_chk_host_nvidia_ctk_config, s, NULL,
	    "the default"), FA_ST_FAIL);
	s = snap();
	marker(s, 0);
	host_ns(s);
	add(s, FA_KIND_HOST_CTK_CONFIG, "/etc/c.toml", FA_OBS_COMPLETE,
	    json_pack("{s:{s:b}, s:[i]}", "values", "accept-nvidia-visible-"
	    "devices-envvar-when-unprivileged", 0, "unparsed", 7));
	assert_int_equal(one(&fa_chk_host_nvidia_ctk_config, s, NULL,
	    "not understood"), FA_ST_NOT_TESTED);
}

/* A one-entry catalogue for component comp with one range. */
static void
cvedb(struct fa_snapshot *s, const char *comp, const char *intro,
    const char *fixed, const char *reopened, const char *mitigated)
{
	add(s, FA_KIND_HOST_CVEDB, "c.json", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:{s:i, s:s, s:s, s:[{s:s, s:s, s:s}], s:[{s:s, s:s, s:s, "
	    "s:f, s:s, s:s, s:[{s:s?, s:s}], s:[], s:s, s:s*, s:s*}]}}",
	    "path", "c.json", "catalogue", "format", 1, "name", "t", "date",
	    "2026-08-23", "sources", "name", "s", "url", "https://example",
	    "date", "2026-08-23",
	    "entries", "id", "CVE-2099-0001", "component", comp, "title", "t",
	    "cvss", 7.5, "cvss_version", "3.1", "advisory", "https://example",
	    "affected", "introduced", intro, "fixed", fixed, "conditions",
	    "confidence", "verified", "reopened_by", reopened, "mitigated_by",
	    mitigated));
}

static void
version(struct fa_snapshot *s, const char *comp, const char *v)
{
	add(s, FA_KIND_HOST_VERSION, comp, FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:s}", "component", comp, "version", v, "source",
	    "/x"));
}

static void
package(struct fa_snapshot *s, const char *pkg, const char *comp,
    const char *v, const char *up)
{
	char t[64];

	snprintf(t, sizeof(t), "dpkg:%s", pkg);
	add(s, FA_KIND_HOST_PACKAGE, t, FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:s, s:s, s:s}", "package", pkg, "component", comp,
	    "version", v, "upstream", up, "source", "/var/lib/dpkg/status"));
}

/*
 * A format 2 catalogue whose one runc CVE (upstream [1.0.0-rc93, 1.1.12),
 * as CVE-2024-21626) has Debian's verdict for bookworm: fixed in
 * 1.1.5+ds1-1+deb12u1 (DSA-5615-1).
 */
static void
cvedb_row(struct fa_snapshot *s, const char *os, const char *release,
    const char *pkg, const char *fixed)
{
	add(s, FA_KIND_HOST_CVEDB, "c.json", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:{s:i, s:s, s:s, s:[{s:s, s:s, s:s}], s:[{s:s, s:s, s:s, "
	    "s:f, s:s, s:s, s:[{s:s, s:s}], s:[], s:s, s:{s:s}, "
	    "s:[{s:s, s:s, s:s, s:s, s:s}]}]}}",
	    "path", "c.json", "catalogue", "format", 2, "name", "t", "date",
	    "2026-08-23", "sources", "name", "s", "url", "https://example",
	    "date", "2026-08-23",
	    "entries", "id", "CVE-2024-21626", "component", "runc", "title",
	    "t", "cvss", 8.6, "cvss_version", "3.1", "advisory",
	    "https://example", "affected", "introduced", "1.0.0-rc93",
	    "fixed", "1.1.12", "conditions", "confidence", "verified", "kev",
	    "added", "2024-06-01", "distro", "os", os, "release",
	    release, "package", pkg, "status", "fixed", "fixed", fixed));
}

static void
cvedb_distro(struct fa_snapshot *s)
{
	cvedb_row(s, "debian", "bookworm", "runc", "1.1.5+ds1-1+deb12u1");
}

/* A dpkg package with its Maintainer's origin and source package. */
static void
package_from(struct fa_snapshot *s, const char *pkg, const char *comp,
    const char *v, const char *up, const char *origin, const char *src)
{
	char t[64];

	snprintf(t, sizeof(t), "dpkg:%s", pkg);
	add(s, FA_KIND_HOST_PACKAGE, t, FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "package", pkg,
	    "component", comp, "version", v, "upstream", up, "source",
	    "/var/lib/dpkg/status", "origin", origin, "source_package", src));
}

static void
os_release_v(struct fa_snapshot *s, const char *id, const char *vid,
    const char *codename)
{
	add(s, "host.os", "os-release", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:s, s:s, s:s}", "id", id, "version_id", vid,
	    "codename", codename, "id_like", "", "source", "/etc/os-release"));
}

static void
os_release(struct fa_snapshot *s, const char *id, const char *codename)
{
	os_release_v(s, id, "12", codename);
}

/*
 * Debian's own runc is judged by Debian's data for the host's release:
 * the DSA-5615-1 build, whose upstream part 1.1.5 is below upstream's fix
 * 1.1.12, is fixed; the build before it is not; without data for the
 * release the upstream range cannot decide.  A vendor's build (Docker's
 * containerd.io) is judged by its upstream version.
 */
static void
distro_versions(void **state)
{
	struct fa_snapshot *s;
	struct fa_results r;

	(void)state;
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "no catalogued CVE"), FA_ST_PASS);
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1", "1.1.5", "debian",
	    "runc");
	run(&fa_chk_host_runc_vuln, s, NULL, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_non_null(strstr(r.v[0].reason, "1 on CISA's Known Exploited"));
	assert_null(strstr(r.v[0].reason, "version-only"));
	fa_results_free(&r);
	/* Another release: no data, and the upstream range holds. */
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "trixie");
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "no data from debian trixie"), FA_ST_NOT_TESTED);
	/* No os-release: which release is unknown. */
	s = snap();
	cvedb_distro(s);
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "no /etc/os-release"), FA_ST_NOT_TESTED);
	/* Outside the upstream range, no data needed: not affected. */
	s = snap();
	cvedb_distro(s);
	package_from(s, "runc", "runc", "1.1.12+ds1-1", "1.1.12", "debian",
	    "runc");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "no catalogued CVE"), FA_ST_PASS);
	/* A vendor's runc of the same upstream number: affected. */
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5-1", "1.1.5", "vendor", "runc");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "CVE-2024-21626"), FA_ST_FAIL);
	/*
	 * Ubuntu's data names a release by its VERSION_ID ("Ubuntu:22.04:LTS"
	 * in its OSV) and Ubuntu 24.04 builds runc from source "runc-app":
	 * jammy's runc at Ubuntu's fix passes, the build before it fails.
	 */
	s = snap();
	cvedb_row(s, "ubuntu", "22.04", "runc-app", "1.1.7-0ubuntu1~22.04.2");
	os_release_v(s, "ubuntu", "22.04", "jammy");
	package_from(s, "runc", "runc", "1.1.7-0ubuntu1~22.04.2", "1.1.7",
	    "ubuntu", "runc-app");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "no catalogued CVE"), FA_ST_PASS);
	s = snap();
	cvedb_row(s, "ubuntu", "22.04", "runc-app", "1.1.7-0ubuntu1~22.04.2");
	os_release_v(s, "ubuntu", "22.04", "jammy");
	package_from(s, "runc", "runc", "1.1.7-0ubuntu1~22.04.1", "1.1.7",
	    "ubuntu", "runc-app");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "CVE-2024-21626"), FA_ST_FAIL);
}

/* A Go program's version as fabric/host_gobuild.c records it. */
static void
binary(struct fa_snapshot *s, const char *path, const char *comp,
    const char *v, const char *up)
{
	add(s, "host.binary", path, FA_OBS_COMPLETE, json_pack("{s:s, s:s, "
	    "s:s, s:s?, s:s, s:s}", "path", path, "component", comp,
	    "version", v, "upstream", up, "rule", "ldflags main.version",
	    "go_version", "go1.22.5"));
}

/*
 * A runc outside dpkg (a vendor's static build in /usr/local/bin) is a
 * build of its own, judged by its upstream version; the file Debian's
 * package installed (the same version) adds nothing.
 */
static void
binary_versions(void **state)
{
	struct fa_snapshot *s;
	struct fa_results r;

	(void)state;
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	binary(s, "/usr/sbin/runc", "runc", "1.1.5+ds1", NULL);
	binary(s, "/usr/local/bin/runc", "runc", "1.1.11", "1.1.11");
	run(&fa_chk_host_runc_vuln, s, NULL, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_string_equal(r.v[0].target, "dpkg:runc");
	assert_int_equal(r.v[1].status, FA_ST_FAIL);
	assert_string_equal(r.v[1].target, "/usr/local/bin/runc");
	assert_non_null(strstr(r.v[1].reason, "Go build information"));
	fa_results_free(&r);
	/* Only a binary: judged alone. */
	s = snap();
	cvedb_distro(s);
	binary(s, "/usr/local/bin/runc", "runc", "1.1.12", "1.1.12");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "no catalogued CVE"), FA_ST_PASS);
}

/* The scan's start time in the snapshot's metadata. */
static void
scan_started(struct fa_snapshot *s, const char *when)
{
	if (s->meta == NULL)
		assert_non_null(s->meta = json_object());
	assert_int_equal(json_object_set_new(s->meta, "scan", json_pack(
	    "{s:s}", "started", when)), 0);
}

/*
 * stale_catalogue not_tested: a catalogue past its validity when the scan
 * ran turns passes into not_tested (it knows nothing published since);
 * a failure stays one; a current catalogue changes nothing, and without
 * the policy line a stale one only warns (elsewhere).
 */
static void
stale_catalogue(void **state)
{
	static const char pol[] = "stale_catalogue not_tested\n";
	struct fa_snapshot *s;

	(void)state;
	/* cvedb_distro: dated 2026-08-23, no valid_until: stale after 90
	 * days (2026-11-21). */
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	scan_started(s, "2026-12-04T10:00:00Z");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, pol,
	    "was stale when the scan ran"), FA_ST_NOT_TESTED);
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	scan_started(s, "2026-09-01T10:00:00Z");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, pol,
	    "no catalogued CVE"), FA_ST_PASS);
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1", "1.1.5", "debian",
	    "runc");
	scan_started(s, "2026-12-04T10:00:00Z");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, pol,
	    "CVE-2024-21626"), FA_ST_FAIL);
	/* No scan time: whether it was current cannot be told. */
	s = snap();
	cvedb_distro(s);
	os_release(s, "debian", "bookworm");
	package_from(s, "runc", "runc", "1.1.5+ds1-1+deb12u1", "1.1.5",
	    "debian", "runc");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, pol,
	    "may be stale"), FA_ST_NOT_TESTED);
}

static void
vulnerable_versions(void **state)
{
	struct fa_snapshot *s;
	struct fa_results r;

	(void)state;
	/* No catalogue: not tested. */
	s = snap();
	version(s, "kernel", "6.1.0");
	assert_int_equal(one(&fa_chk_host_kernel_vuln, s, NULL,
	    "no CVE catalogue"), FA_ST_NOT_TESTED);
	/* Driver: in range fails; fixed passes; another branch: not tested. */
	s = snap();
	cvedb(s, "nvidia-driver", "550", "550.90.07", NULL, NULL);
	version(s, "nvidia-driver", "550.54.14");
	assert_int_equal(one(&fa_chk_host_nvidia_driver_vuln, s, NULL,
	    "CVE-2099-0001, CVSS 7.5"), FA_ST_FAIL);
	s = snap();
	cvedb(s, "nvidia-driver", "550", "550.90.07", NULL, NULL);
	version(s, "nvidia-driver", "550.90.07");
	assert_int_equal(one(&fa_chk_host_nvidia_driver_vuln, s, NULL,
	    "no catalogued CVE"), FA_ST_PASS);
	s = snap();
	cvedb(s, "nvidia-driver", "550", "550.90.07", NULL, NULL);
	version(s, "nvidia-driver", "560.35.03");
	assert_int_equal(one(&fa_chk_host_nvidia_driver_vuln, s, NULL,
	    "branch 560 is not in the catalogue"), FA_ST_NOT_TESTED);
	/* A version the scheme rejects is an error. */
	s = snap();
	cvedb(s, "kernel", "6.1", "6.1.100", NULL, NULL);
	version(s, "kernel", "x.y");
	assert_int_equal(one(&fa_chk_host_kernel_vuln, s, NULL,
	    "cannot be compared"), FA_ST_ERROR);
	/* Kernel: always version-only; the Debian version is compared. */
	s = snap();
	cvedb(s, "kernel", "6.1", "6.1.100", NULL, NULL);
	add(s, FA_KIND_HOST_VERSION, "kernel", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:s, s:s, s:{s:s, s:s}}", "component", "kernel", "version",
	    "6.1.0-27-amd64", "source", "/proc/sys/kernel/osrelease",
	    "debian_package", "version", "6.1.115-1", "source",
	    "/proc/version"));
	assert_int_equal(one(&fa_chk_host_kernel_vuln, s, NULL,
	    "Debian package 6.1.115-1"), FA_ST_PASS);
	/* No runc in the database, but a stanza was skipped: it may have
	 * been runc's, and the reason says so. */
	s = snap();
	cvedb(s, "runc", NULL, "1.1.12", NULL, NULL);
	add(s, FA_KIND_HOST_PACKAGE, "dpkg", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:i, s:i, s:i, s:i, s:[{s:i, s:s, s:s}]}", "source",
	    "/var/lib/dpkg/status", "packages", 0, "uncertain", 0, "stanzas",
	    2, "skipped", 1, "skipped_stanzas", "line", 9, "package", "runc",
	    "why", "bad Status"));
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "could not be parsed were skipped"), FA_ST_NOT_TESTED);
	/*
	 * Debian's runc (from a database without Maintainer fields: by its
	 * name) and no Debian data: the upstream range cannot decide.
	 */
	s = snap();
	cvedb(s, "runc", NULL, "1.1.12", NULL, NULL);
	package(s, "runc", "runc", "1.1.5+ds1-1", "1.1.5");
	assert_int_equal(one(&fa_chk_host_runc_vuln, s, NULL,
	    "may have backported the fix"), FA_ST_NOT_TESTED);
	s = snap();
	cvedb(s, "nvidia-container-toolkit", NULL, "1.17.4", NULL, NULL);
	package(s, "nvidia-container-toolkit", "nvidia-container-toolkit",
	    "1.17.3-1", "1.17.3");
	package(s, "libnvidia-container1", "nvidia-container-toolkit",
	    "1.17.3-1", "1.17.3");
	run(&fa_chk_host_nvidia_ctk_vuln, s, NULL, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_null(strstr(r.v[0].reason, "version-only"));
	fa_results_free(&r);
	/* A [features] flag re-opens a fixed CVE... */
	s = snap();
	cvedb(s, "nvidia-container-toolkit", NULL, "1.17.4",
	    "allow-cuda-compat-libs-from-container", NULL);
	package(s, "nvidia-container-toolkit", "nvidia-container-toolkit",
	    "1.17.8-1", "1.17.8");
	add(s, FA_KIND_HOST_CTK_CONFIG, "/etc/c.toml", FA_OBS_COMPLETE,
	    json_pack("{s:{s:b}, s:[]}", "values", "features.allow-cuda-"
	    "compat-libs-from-container", 1, "unparsed"));
	assert_int_equal(one(&fa_chk_host_nvidia_ctk_vuln, s, NULL, NULL),
	    FA_ST_FAIL);
	/* ...and another mitigates one, which is then ruled out. */
	s = snap();
	cvedb(s, "nvidia-container-toolkit", "1.17.5", "1.17.8", NULL,
	    "disable-cuda-compat-lib-hook");
	package(s, "nvidia-container-toolkit", "nvidia-container-toolkit",
	    "1.17.6-1", "1.17.6");
	add(s, FA_KIND_HOST_CTK_CONFIG, "/etc/c.toml", FA_OBS_COMPLETE,
	    json_pack("{s:{s:b}, s:[]}", "values", "features.disable-cuda-"
	    "compat-lib-hook", 1, "unparsed"));
	assert_int_equal(one(&fa_chk_host_nvidia_ctk_vuln, s, NULL,
	    "ruled out"), FA_ST_PASS);
	/* Nothing installed: not tested, saying where we looked. */
	s = snap();
	cvedb(s, "docker", NULL, "25.0.6", NULL, NULL);
	assert_int_equal(one(&fa_chk_host_docker_vuln, s, NULL,
	    "dpkg or RPM database"), FA_ST_NOT_TESTED);
	s = snap();
	cvedb(s, "containerd", NULL, "1.7.0", NULL, NULL);
	package(s, "containerd.io", "containerd", "1.7.0-1", "1.7.0");
	assert_int_equal(one(&fa_chk_host_containerd_vuln, s, NULL,
	    "no catalogued CVE"), FA_ST_PASS);
}

/*
 * A toolkit CVE whose line below 1.17.5 holds only in CDI mode (as
 * NVIDIA's bulletin for CVE-2025-23266 says in prose): a configuration
 * that states legacy mode rules that line out only where the host has no
 * CDI specification for Docker or containerd to inject from themselves;
 * "auto" (which picks CDI for a container that names CDI devices) and no
 * configuration do not; the line from 1.17.5 holds in every mode.
 * cdi: 0 not observed, 1 both directories empty or absent, 2 a spec.
 */
static void
mode_lines(void **state)
{
	static const char *const mode[] = { "legacy", "legacy", "legacy",
	    "auto", NULL, "legacy", "legacy" };
	static const int cdi[] = { 1, 0, 2, 1, 1, 1, 1 };
	static const char *const ver[] = { "1.17.3", "1.17.3", "1.17.3",
	    "1.17.3", "1.17.3", "1.17.6", "1.17.0" };
	static const enum fa_status want[] = { FA_ST_PASS, FA_ST_FAIL,
	    FA_ST_FAIL, FA_ST_FAIL, FA_ST_FAIL, FA_ST_FAIL, FA_ST_FAIL };
	struct fa_snapshot *s;
	char up[16];
	size_t i;

	(void)state;
	for (i = 0; i < 7; i++) {
		s = snap();
		add(s, FA_KIND_HOST_CVEDB, "c.json", FA_OBS_COMPLETE, json_pack(
		    "{s:s, s:{s:i, s:s, s:s, s:[{s:s, s:s, s:s}], s:[{s:s, "
		    "s:s, s:s, s:f, s:s, s:s, s:[{s:n, s:s, s:[s]}, {s:s?, "
		    "s:s}], s:[], s:s}]}}", "path", "c.json", "catalogue",
		    "format", 1, "name", "t", "date", "2026-08-23", "sources",
		    "name", "s", "url", "https://example", "date",
		    "2026-08-23", "entries", "id", "CVE-2099-0002",
		    "component", "nvidia-container-toolkit", "title", "t",
		    "cvss", 9.0, "cvss_version", "3.1", "advisory",
		    "https://example", "affected", "introduced", "fixed",
		    "1.17.5", "when", "cdi-mode", "introduced", i == 6 ?
		    NULL : "1.17.5", "fixed", "1.17.8", "conditions",
		    "confidence", "verified"));
		snprintf(up, sizeof(up), "%s-1", ver[i]);
		package(s, "nvidia-container-toolkit",
		    "nvidia-container-toolkit", up, ver[i]);
		if (mode[i] != NULL)
			add(s, FA_KIND_HOST_CTK_CONFIG, "/etc/c.toml",
			    FA_OBS_COMPLETE, json_pack("{s:{s:s}, s:[]}",
			    "values", "nvidia-container-runtime.mode", mode[i],
			    "unparsed"));
		if (cdi[i] > 0)
			add(s, FA_KIND_HOST_CDI, "cdi", FA_OBS_COMPLETE,
			    json_pack("{s:[{s:s, s:b, s:[]}, {s:s, s:b, s:o}]}",
			    "dirs", "path", "/etc/cdi", "listed", 1, "specs",
			    "path", "/var/run/cdi", "listed", 1, "specs",
			    cdi[i] == 2 ? json_pack("[{s:s}]", "name",
			    "nvidia.yaml") : json_array()));
		assert_int_equal(one(&fa_chk_host_nvidia_ctk_vuln, s, NULL,
		    want[i] == FA_ST_PASS ? "ruled out by configuration" :
		    "CVE-2099-0002"), want[i]);
	}
}

/*
 * A kernel CVE whose record names only the mainline fix (Google's
 * CVE-2024-1086: 3.15 <= v < 6.8, no stable release): a mainline
 * release below it is affected, a stable or vendor release may carry
 * the backport (6.1.76 does) and is not tested, one above passes.
 */
static void
mainline_only_kernel(void **state)
{
	static const struct {
		const char *v, *why;
		enum fa_status st;
	} t[] = {
		{ "6.7", "CVE-2099-0003", FA_ST_FAIL },
		{ "6.7.0", "CVE-2099-0003", FA_ST_FAIL },
		{ "6.7.0-rc3", "CVE-2099-0003", FA_ST_FAIL },
		{ "6.1.90", "no stable release with the fix", FA_ST_NOT_TESTED },
		{ "5.15.0-1064-azure", "may carry the backport",
		  FA_ST_NOT_TESTED },
		{ "6.8.1", "no catalogued CVE", FA_ST_PASS },
		{ "3.14.79", "no catalogued CVE", FA_ST_PASS },
	};
	struct fa_snapshot *s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = snap();
		add(s, FA_KIND_HOST_CVEDB, "c.json", FA_OBS_COMPLETE, json_pack(
		    "{s:s, s:{s:i, s:s, s:s, s:[{s:s, s:s, s:s}], s:[{s:s, "
		    "s:s, s:s, s:f, s:s, s:s, s:[{s:s, s:s, s:b}], s:[], "
		    "s:s}]}}", "path", "c.json", "catalogue", "format", 1,
		    "name", "t", "date", "2026-08-23", "sources", "name", "s",
		    "url", "https://example", "date", "2026-08-23", "entries",
		    "id", "CVE-2099-0003", "component", "kernel", "title", "t",
		    "cvss", 7.8, "cvss_version", "3.1", "advisory",
		    "https://example", "affected", "introduced", "3.15",
		    "fixed", "6.8", "mainline_only", 1, "conditions",
		    "confidence", "verified"));
		version(s, "kernel", t[i].v);
		assert_int_equal(one(&fa_chk_host_kernel_vuln, s, NULL,
		    t[i].why), t[i].st);
	}
}

/*
 * BuildKit linked into dockerd (the github.com/moby/buildkit module of
 * its Go build information, as fabric/host_gobuild.c records it):
 * GHSA-m3r6-h7wv-7xxv (CVE-2024-23651) affects BuildKit before 0.12.5
 * and is fixed in 0.12.5.  A dockerd linking v0.12.4 fails naming it,
 * v0.12.5 passes, and a dockerd whose build information lists no module
 * (a GOPATH build, as Debian's) cannot tell which BuildKit it links.
 */
static void
buildkit_cat(struct fa_snapshot *s)
{
	add(s, FA_KIND_HOST_CVEDB, "c.json", FA_OBS_COMPLETE, json_pack(
	    "{s:s, s:{s:i, s:s, s:s, s:[{s:s, s:s, s:s}], s:[{s:s, s:s, s:s, "
	    "s:f, s:s, s:s, s:[{s:n, s:s}], s:[], s:s}]}}",
	    "path", "c.json", "catalogue", "format", 2, "name", "t", "date",
	    "2026-08-23", "sources", "name", "s", "url", "https://example",
	    "date", "2026-08-23",
	    "entries", "id", "CVE-2024-23651", "component", "buildkit",
	    "title", "t", "cvss", 8.7, "cvss_version", "3.1", "advisory",
	    "https://github.com/moby/buildkit/security/advisories/"
	    "GHSA-m3r6-h7wv-7xxv", "affected", "introduced", "fixed", "0.12.5",
	    "conditions", "confidence", "verified"));
}

static void
dockerd(struct fa_snapshot *s, const char *bk)
{
	json_t *d = json_pack("{s:s, s:s, s:s, s:s, s:s}", "path",
	    "/usr/bin/dockerd", "component", "dockerd", "version", "24.0.7",
	    "upstream", "24.0.7", "found_by", "test");

	if (bk != NULL)
		assert_int_equal(json_object_set_new(d, "buildkit_module",
		    json_string(bk)), 0);
	add(s, FA_KIND_HOST_BINARY, "/usr/bin/dockerd", FA_OBS_COMPLETE, d);
}

static void
buildkit_vuln(void **state)
{
	struct fa_snapshot *s;

	(void)state;
	s = snap();
	buildkit_cat(s);
	dockerd(s, "v0.12.4");
	assert_int_equal(one(&fa_chk_host_buildkit_vuln, s, NULL,
	    "CVE-2024-23651"), FA_ST_FAIL);
	s = snap();
	buildkit_cat(s);
	dockerd(s, "v0.12.5");
	assert_int_equal(one(&fa_chk_host_buildkit_vuln, s, NULL, NULL),
	    FA_ST_PASS);
	s = snap();
	buildkit_cat(s);
	dockerd(s, NULL);
	assert_int_equal(one(&fa_chk_host_buildkit_vuln, s, NULL, NULL),
	    FA_ST_NOT_TESTED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(family_gate),
		cmocka_unit_test(environment),
		cmocka_unit_test(credentials),
		cmocka_unit_test(lsm_labels),
		cmocka_unit_test(userns_and_namespaces),
		cmocka_unit_test(net_host),
		cmocka_unit_test(net_pid1),
		cmocka_unit_test(mounts_with_holes),
		cmocka_unit_test(paths),
		cmocka_unit_test(toolkit_config),
		cmocka_unit_test(vulnerable_versions),
		cmocka_unit_test(mode_lines),
		cmocka_unit_test(mainline_only_kernel),
		cmocka_unit_test(distro_versions),
		cmocka_unit_test(buildkit_vuln),
		cmocka_unit_test(binary_versions),
		cmocka_unit_test(stale_catalogue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
