/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the environment decision (checks/host_env.c): container
 * or not, VM or bare metal, from every tell weighed.  Each case is a
 * machine or container as it really shows itself, in the formats the
 * kernel and the runtimes write (namespace links, /proc/PID/cgroup lines,
 * DMI strings), with the truth of what it is written first, from how the
 * case is built: the test then asks fa_host_env() the same question.
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

/* Inodes as the kernel shows them: initial ones fixed, others dynamic. */
#define I_PID	"4026531836"
#define I_IPC	"4026531839"
#define I_UTS	"4026531838"
#define I_USER	"4026531837"
#define I_CG	"4026531835"
#define I_NET	"4026531833"	/* 6.18+ */
#define I_MNT	"4026531832"	/* 6.18+ */
#define DYN	"4026532301"	/* any proc_alloc_inum() number */

struct env_case {
	const char	*name;
	/* "type:inode:initial" per namespace, initial y/n/? ("?": no
	 * verdict, an older kernel's net or mnt); NULL: not read. */
	const char	*ns;
	const char	*cgroup_self;	/* lines joined by '|' */
	const char	*cgroup_1;
	const char	*extra;		/* more tenancy members, JSON */
	const char	*marker;	/* "/.dockerenv" or NULL */
	const char	*root_fs;	/* fstype of "/", or NULL */
	int		 container;	/* the truth */
	int		 vm;
	const char	*runtime;	/* when a container */
	int		 conflict;
};

static const struct env_case cases[] = {
	/* This project's own machines: a Firecracker microVM whose root
	 * file system was made from a Docker image. */
	{ "VM made from a container image (6.18)",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:" I_NET ":y mnt:" I_MNT ":y",
	  "0::/", "9:name=systemd:/|0::/",
	  "\"cpu_hypervisor\": true, \"pid1_comm\": \"process_api\"",
	  "/.dockerenv", "ext4", 0, 1, NULL, 0 },
	{ "docker run, cgroup v1 (5.15)",
	  "pid:" DYN ":n ipc:" DYN ":n uts:" DYN ":n user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:" DYN ":? mnt:" DYN ":?",
	  "12:memory:/docker/3f1c9e2ab04d|0::/docker/3f1c9e2ab04d",
	  "12:memory:/docker/3f1c9e2ab04d",
	  "\"cpu_hypervisor\": false, \"dmi\": {\"sys_vendor\": "
	  "\"Supermicro\", \"product_name\": \"SYS-821GE-TNHR\"}",
	  "/.dockerenv", "overlay", 1, 0, "docker", 0 },
	{ "docker run, cgroup v2 with its own cgroup namespace (6.18)",
	  "pid:" DYN ":n ipc:" DYN ":n uts:" DYN ":n user:" I_USER ":y "
	  "cgroup:" DYN ":n net:" DYN ":n mnt:" DYN ":n",
	  "0::/", "0::/", "\"cpu_hypervisor\": true",
	  "/.dockerenv", "overlay", 1, 1, "docker", 0 },
	/* A hostPID pod: no marker file, PID 1 is the node's systemd,
	 * outside the pod's cgroup namespace. */
	{ "Kubernetes hostPID pod, cgroup v2 (6.18)",
	  "pid:" I_PID ":y ipc:" DYN ":n uts:" DYN ":n user:" I_USER ":y "
	  "cgroup:" DYN ":n net:" DYN ":n mnt:" DYN ":n",
	  "0::/", "0::/../../../init.scope",
	  "\"cpu_hypervisor\": true, \"environ_kubernetes\": true, "
	  "\"pid1_comm\": \"systemd\"",
	  NULL, "overlay", 1, 1, "kubernetes", 0 },
	{ "Kubernetes hostPID and hostNetwork pod, cgroup v1 (5.15)",
	  "pid:" I_PID ":y ipc:" DYN ":n uts:" DYN ":n user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:" DYN ":? mnt:" DYN ":?",
	  "11:devices:/kubepods/besteffort/pod6d1f/3f1c|0::/",
	  "11:devices:/|0::/init.scope",
	  "\"cpu_hypervisor\": false", NULL, "overlay", 1, 0, "kubernetes",
	  0 },
	/* docker run --privileged with every namespace it can share. */
	{ "docker --pid --net --ipc --uts --cgroupns=host (5.15)",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:" I_NET ":? mnt:" DYN ":?",
	  "0::/system.slice/docker-3f1c9e2ab04d.scope", "0::/init.scope",
	  "\"cpu_hypervisor\": true", "/.dockerenv", "overlay", 1, 1,
	  "docker", 0 },
	/* On 6.18 the same would need the host's mount namespace, which
	 * no runtime shares: the tells contradict each other. */
	{ "a runtime's cgroup, yet all eight namespaces initial (6.18)",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y time:4026531834:y net:" I_NET ":y mnt:" I_MNT
	  ":y",
	  "0::/system.slice/docker-3f1c9e2ab04d.scope", "0::/init.scope",
	  "\"cpu_hypervisor\": true", NULL, "ext4", -1, 1, NULL, 1 },
	/* fabaudit's own deploy/systemd unit: ProtectSystem= and
	 * PrivateTmp= give it a mount namespace of its own. */
	{ "systemd service with ProtectSystem=strict (6.18)",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:" I_NET ":y mnt:" DYN ":n",
	  "0::/system.slice/fabaudit.service", "0::/init.scope",
	  "\"cpu_hypervisor\": false, \"dmi\": {\"sys_vendor\": \"Dell "
	  "Inc.\", \"product_name\": \"PowerEdge XE9680\"}",
	  NULL, "xfs", 0, 0, NULL, 0 },
	/* A sandbox with several namespaces but the host's PIDs and no
	 * runtime: not enough to call it either. */
	{ "ProtectHostname=, PrivateNetwork=, PrivateTmp= service (6.18)",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" DYN ":n user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:" DYN ":n mnt:" DYN ":n",
	  "0::/system.slice/x.service", "0::/init.scope",
	  "\"cpu_hypervisor\": false", NULL, "ext4", -1, 0, NULL, 1 },
	{ "systemd-nspawn container",
	  "pid:" DYN ":n ipc:" DYN ":n uts:" DYN ":n user:" I_USER ":y "
	  "cgroup:" DYN ":n net:" DYN ":? mnt:" DYN ":?",
	  "0::/", "0::/",
	  "\"cpu_hypervisor\": true, \"container_manager\": "
	  "\"systemd-nspawn\", \"pid1_comm\": \"systemd\"",
	  NULL, "ext4", 1, 1, "systemd-nspawn", 0 },
	{ "rootless podman (cgroup v2)",
	  "pid:" DYN ":n ipc:" DYN ":n uts:" DYN ":n user:" DYN ":n "
	  "cgroup:" DYN ":n net:" DYN ":n mnt:" DYN ":n",
	  "0::/", "0::/",
	  "\"cpu_hypervisor\": true, \"environ_container\": \"podman\"",
	  "/run/.containerenv", "overlay", 1, 1, "podman", 0 },
	/* A marker and nothing else read: one tell decides nothing. */
	{ "a marker file and no namespace read",
	  NULL, NULL, NULL, "", "/.dockerenv", NULL, -1, -1, NULL, 1 },
	/* Hardware. */
	{ "EC2 bare metal (m5.metal), Amazon Linux 5.10",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:4026531840:? mnt:4026531841:?",
	  "0::/user.slice", "0::/init.scope",
	  "\"cpu_hypervisor\": false, \"dmi\": {\"sys_vendor\": \"Amazon "
	  "EC2\", \"product_name\": \"m5.metal\"}",
	  NULL, "xfs", 0, 0, NULL, 0 },
	{ "EC2 Nitro VM (p5.48xlarge)",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:4026531840:? mnt:4026531841:?",
	  "0::/user.slice", "0::/init.scope",
	  "\"cpu_hypervisor\": true, \"dmi\": {\"sys_vendor\": \"Amazon "
	  "EC2\", \"product_name\": \"p5.48xlarge\"}",
	  NULL, "xfs", 0, 1, NULL, 0 },
	/* KVM with the CPUID bit hidden (-cpu host,-hypervisor) but
	 * SMBIOS left as QEMU's: the tells disagree. */
	{ "QEMU guest with the hypervisor bit hidden",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:4026531840:? mnt:4026531841:?",
	  "0::/init.scope", "0::/init.scope",
	  "\"cpu_hypervisor\": false, \"dmi\": {\"sys_vendor\": \"QEMU\", "
	  "\"product_name\": \"Standard PC (Q35 + ICH9, 2009)\"}",
	  NULL, "ext4", 0, -1, NULL, 1 },
	/* GPU passthrough guests often hide KVM (-cpu host,-hypervisor,
	 * kvm=off) and carry the board's SMBIOS; its NIC is still virtio. */
	{ "KVM guest, hypervisor bit hidden, real SMBIOS, virtio NIC",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:4026531840:? mnt:4026531841:?",
	  "0::/init.scope", "0::/init.scope",
	  "\"cpu_hypervisor\": false, \"net_ifaces_virtio\": [\"ens3\"], "
	  "\"dmi\": {\"sys_vendor\": \"Supermicro\", \"product_name\": "
	  "\"SYS-821GE-TNHR\"}",
	  NULL, "ext4", 0, -1, NULL, 1 },
	{ "arm64 KVM guest with a device-tree hypervisor node",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:4026531840:? mnt:4026531841:?",
	  "0::/init.scope", "0::/init.scope",
	  "\"dt_hypervisor\": \"linux,kvm\"",
	  NULL, "ext4", 0, 1, NULL, 0 },
	{ "Xen PV guest",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y",
	  "0::/init.scope", "0::/init.scope",
	  "\"hypervisor_type\": \"xen\", \"cpu_hypervisor\": true",
	  NULL, "ext4", 0, 1, NULL, 0 },
	{ "bare-metal Supermicro node",
	  "pid:" I_PID ":y ipc:" I_IPC ":y uts:" I_UTS ":y user:" I_USER ":y "
	  "cgroup:" I_CG ":y net:4026531840:? mnt:4026531841:?",
	  "0::/user.slice/user-0.slice/session-3.scope", "0::/init.scope",
	  "\"cpu_hypervisor\": false, \"dmi\": {\"sys_vendor\": "
	  "\"Supermicro\", \"product_name\": \"SYS-821GE-TNHR\"}",
	  NULL, "ext4", 0, 0, NULL, 0 },
};

static void
add(struct fa_snapshot *s, const char *kind, const char *target,
    json_t *data)
{
	assert_non_null(data);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_HOST, NULL, kind, target,
	    "test", FA_OBS_COMPLETE, NULL, data, NULL), 0);
}

static json_t *
lines(const char *joined)
{
	json_t *a = json_array();
	const char *p = joined, *bar;

	assert_non_null(a);
	while (p != NULL && *p != '\0') {
		bar = strchr(p, '|');
		assert_int_equal(json_array_append_new(a, json_stringn(p,
		    bar != NULL ? (size_t)(bar - p) : strlen(p))), 0);
		p = bar != NULL ? bar + 1 : NULL;
	}
	return a;
}

static struct fa_snapshot *
build(const struct env_case *c)
{
	struct fa_snapshot *s = fa_snapshot_new();
	char buf[1024], type[16], ino[24], init;
	const char *p;
	json_error_t e;
	json_t *ns, *ten, *o;
	int n;

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_HOST,
	    FA_FAMST_COLLECTED, NULL), 0);
	if (c->ns != NULL) {
		ns = json_object();
		for (p = c->ns; sscanf(p, "%15[a-z]:%23[0-9]:%c%n", type, ino,
		    &init, &n) == 3; p += n + strspn(p + n, " ")) {
			o = json_pack("{s:I}", "inode", (json_int_t)strtoll(ino,
			    NULL, 10));
			if (init != '?')
				json_object_set_new(o, "initial",
				    json_boolean(init == 'y'));
			json_object_set_new(ns, type, o);
		}
		assert_int_equal(*p, '\0');
		add(s, FA_KIND_HOST_NS, "/proc/self/ns", ns);
	}
	snprintf(buf, sizeof(buf), "{%s}", c->extra);
	ten = json_loads(buf, 0, &e);
	if (ten == NULL)
		fail_msg("%s: bad JSON: %s", c->name, e.text);
	if (c->cgroup_self != NULL)
		json_object_set_new(ten, "cgroup_self", lines(c->cgroup_self));
	if (c->cgroup_1 != NULL)
		json_object_set_new(ten, "cgroup_1", lines(c->cgroup_1));
	add(s, FA_KIND_HOST_TENANCY, "/", ten);
	if (c->marker != NULL)
		add(s, FA_KIND_HOST_PATH, c->marker, json_pack("{s:s, s:s, "
		    "s:b}", "path", c->marker, "role", strstr(c->marker,
		    "containerenv") != NULL ? "marker:podman" :
		    "marker:docker", "exists", 1));
	if (c->root_fs != NULL)
		add(s, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo", json_pack(
		    "{s:[{s:s, s:s, s:b}]}", "mounts", "mount_point", "/",
		    "fstype", c->root_fs, "read_only", 0));
	return s;
}

static void
test_cases(void **state)
{
	struct fa_host_env env;
	const json_t *item, *tells;
	char what[256];
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct env_case *c = &cases[i];
		struct fa_snapshot *s = build(c);

		assert_int_equal(fa_host_env(s, &env), 0);
		fa_host_env_name(&env, what, sizeof(what));
		if (env.container != c->container || env.vm != c->vm ||
		    (c->runtime != NULL && strcmp(env.runtime, c->runtime)) ||
		    env.conflict != c->conflict) {
			print_error("%s: got container %d vm %d runtime '%s' "
			    "conflict %d (%s); want %d %d '%s' %d\n  %s\n",
			    c->name, env.container, env.vm, env.runtime,
			    env.conflict, what, c->container, c->vm,
			    c->runtime != NULL ? c->runtime : "",
			    c->conflict, env.account);
			bad++;
		}
		/* The evidence: one item, the tells and the verdicts. */
		item = json_array_get(env.evidence, 0);
		tells = json_object_get(json_object_get(item, "value"),
		    "tells");
		assert_int_equal(json_array_size(env.evidence), 1);
		assert_string_equal(json_string_value(json_object_get(item,
		    "field")), "environment");
		assert_true(json_array_size(tells) > 0 || c->ns == NULL);
		fa_host_env_free(&env);
		fa_snapshot_free(s);
	}
	assert_int_equal(bad, 0);
}

/* The conflict is named in the account the reasons quote. */
static void
test_account_names_conflict(void **state)
{
	struct fa_snapshot *s = build(&cases[6]);
	struct fa_host_env env;

	(void)state;
	assert_int_equal(fa_host_env(s, &env), 0);
	assert_non_null(strstr(env.account, "conflicting"));
	assert_non_null(strstr(env.account, "docker runtime"));
	assert_non_null(strstr(env.account, "mnt"));
	fa_host_env_free(&env);
	fa_snapshot_free(s);
}

/* The overruled marker of a VM made from an image is in the account. */
static void
test_account_names_overruled(void **state)
{
	struct fa_snapshot *s = build(&cases[0]);
	struct fa_host_env env;

	(void)state;
	assert_int_equal(fa_host_env(s, &env), 0);
	assert_non_null(strstr(env.account, "/.dockerenv exists"));
	assert_non_null(strstr(env.account, "container: no"));
	assert_non_null(strstr(env.account, "VM: yes"));
	fa_host_env_free(&env);
	fa_snapshot_free(s);
}

/* fabaudit-checks(7) names every pattern and vendor the code uses. */
static void
test_man_names_every_tell(void **state)
{
	const char *const *vendors;
	const char *pat;
	char quoted[80];
	size_t nv, n, i;

	(void)state;
	n = fa_host_env_patterns(&vendors, &nv, &pat, 0);
	assert_true(n > 5 && nv > 5);
	for (i = 0; i < n; i++) {
		fa_host_env_patterns(&vendors, &nv, &pat, i);
		snprintf(quoted, sizeof(quoted), ".Ql %s", pat);
		if (strstr(fa_host_env_man, quoted) == NULL)
			fail_msg("pattern %s is not in the man text", pat);
	}
	for (i = 0; i < nv; i++)
		if (strstr(fa_host_env_man, vendors[i]) == NULL)
			fail_msg("vendor %s is not in the man text", vendors[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_account_names_conflict),
		cmocka_unit_test(test_account_names_overruled),
		cmocka_unit_test(test_man_names_every_tell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
