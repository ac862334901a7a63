/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the environment tells the tenancy collector gathers
 * (fabric/host_ident.c): NICs told from virtual interfaces and SR-IOV VFs
 * by where their sysfs links lead, as the kernel lays them out; only
 * container= and KUBERNETES_SERVICE_HOST kept of the environment (a NUL
 * separated /proc/PID/environ, proc(5)); our cgroups, PID 1's name and
 * systemd's container-interface file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_ident.h"
#include "../../checks/host_checks.h"
#include "scratch_tree.h"

static const struct fa_obs *
collect(const char *dir, struct fa_snapshot **s)
{
	struct fa_sysroot r;

	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(*s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ident(&r, *s), 0);
	fa_sysroot_close(&r);
	return fa_snapshot_find(*s, FA_KIND_HOST_TENANCY, "/");
}

static int
has(const json_t *a, const char *name)
{
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (strcmp(json_string_value(v), name) == 0)
			return 1;
	return 0;
}

static void
nics(void **state)
{
	char dir[] = "/tmp/fa-ident-XXXXXX", cmd[1024];
	struct fa_snapshot *s;
	const struct fa_obs *o;
	const json_t *phys, *vf;

	(void)state;
	scratch_new(dir);
	/* Links as /sys/class/net holds them on a real host. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/class/net && cd "
	    "%s/sys/class/net && "
	    "ln -s ../../devices/pci0000:00/0000:00:03.0/virtio2/net/eth0 eth0"
	    " && ln -s ../../devices/pci0000:17/0000:17:02.0/0000:1a:00.0/net/"
	    "ens1f0np0 ens1f0np0"
	    " && ln -s ../../devices/pci0000:17/0000:17:02.0/0000:1a:00.2/net/"
	    "ens1f0v0 ens1f0v0"
	    " && ln -s ../../devices/virtual/net/lo lo"
	    " && ln -s ../../devices/virtual/net/docker0 docker0"
	    " && ln -s ../../devices/virtual/net/veth1a2b3c veth1a2b3c"
	    " && mkdir -p %s/sys/devices/pci0000:17/0000:17:02.0/0000:1a:00.2"
	    " && ln -s ../0000:1a:00.0 %s/sys/devices/pci0000:17/0000:17:02.0/"
	    "0000:1a:00.2/physfn"
	    " && mkdir -p %s/sys/devices/pci0000:17/0000:17:02.0/0000:1a:00.2/"
	    "net/ens1f0v0"
	    " && ln -s ../../../0000:1a:00.2 %s/sys/devices/pci0000:17/"
	    "0000:17:02.0/0000:1a:00.2/net/ens1f0v0/device",
	    dir, dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	o = collect(dir, &s);
	assert_non_null(o);
	phys = json_object_get(o->data, "net_ifaces_physical");
	vf = json_object_get(o->data, "net_ifaces_vf");
	assert_true(has(phys, "eth0"));
	assert_true(has(phys, "ens1f0np0"));
	assert_false(has(phys, "ens1f0v0"));
	assert_true(has(vf, "ens1f0v0"));
	assert_false(has(phys, "lo") || has(phys, "docker0") ||
	    has(phys, "veth1a2b3c"));
	/* eth0 hangs off a virtio device: paravirtual. */
	assert_true(has(json_object_get(o->data, "net_ifaces_virtio"),
	    "eth0"));
	assert_false(has(json_object_get(o->data, "net_ifaces_virtio"),
	    "ens1f0np0"));
	assert_int_equal(json_array_size(json_object_get(o->data,
	    "net_ifaces")), 6);
	fa_snapshot_free(s);
	scratch_rm(dir, "");
}

static void
environ_and_files(void **state)
{
	char dir[] = "/tmp/fa-ident-XXXXXX", p[512];
	static const char env[] = "PATH=/usr/bin\0container=podman\0"
	    "AWS_SECRET_ACCESS_KEY=FIXTURE-SECRET-CANARY\0"
	    "KUBERNETES_SERVICE_HOST=10.96.0.1\0HOME=/root";
	struct fa_snapshot *s;
	const struct fa_obs *o;
	char *dump;
	FILE *f;

	(void)state;
	scratch_new(dir);
	snprintf(p, sizeof(p), "%s/proc/self", dir);
	scratch_put(dir, "/proc/self/cgroup", "0::/\n");
	scratch_put(dir, "/proc/1/cgroup", "0::/../../../init.scope\n");
	scratch_put(dir, "/proc/1/comm", "systemd\n");
	scratch_put(dir, "/run/systemd/container", "systemd-nspawn\n");
	snprintf(p, sizeof(p), "%s/proc/self/environ", dir);
	assert_non_null(f = fopen(p, "w"));
	assert_int_equal(fwrite(env, 1, sizeof(env), f), sizeof(env));
	assert_int_equal(fclose(f), 0);
	o = collect(dir, &s);
	assert_non_null(o);
	assert_string_equal(fa_json_get_str(o->data, "environ_container"),
	    "podman");
	assert_true(json_is_true(json_object_get(o->data,
	    "environ_kubernetes")));
	assert_string_equal(fa_json_get_str(o->data, "pid1_comm"), "systemd");
	assert_string_equal(fa_json_get_str(o->data, "container_manager"),
	    "systemd-nspawn");
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    o->data, "cgroup_1"), 0)), "0::/../../../init.scope");
	/* No other variable of the environment is kept. */
	dump = json_dumps(o->data, 0);
	assert_non_null(dump);
	assert_null(strstr(dump, "FIXTURE-SECRET-CANARY"));
	assert_null(strstr(dump, "/usr/bin"));
	free(dump);
	fa_snapshot_free(s);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nics),
		cmocka_unit_test(environ_and_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
