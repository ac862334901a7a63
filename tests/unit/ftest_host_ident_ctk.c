/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the tenancy/LSM/uid_map collector (fabric/host_ident.c),
 * the toolkit config reader and CDI listing (fabric/host_ctk.c) and the
 * stat-only path and device probes (fabric/host_paths.c): decoders on good
 * and hostile text, and scratch trees standing for machines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_ctk.h"
#include "../../fabric/host_ident.h"
#include "../../fabric/host_paths.h"
#include "scratch_tree.h"

static void
uid_map(void **state)
{
	json_t *j = NULL;
	char *why = NULL;
	const char *ok = "         0     100000      65536\n"
	    "     65536    1000000          1\n";

	(void)state;
	assert_int_equal(fa_uid_map_decode(ok, strlen(ok), &j, &why), 0);
	assert_int_equal(json_array_size(json_object_get(j, "map")), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(
	    json_object_get(j, "map"), 0), 1)), 100000);
	json_decref(j);
	/* Malformed: words, a fourth field, a zero count, nothing at all. */
	assert_int_equal(fa_uid_map_decode("0 0 x\n", 6, &j, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "line 1"));
	free(why);
	why = NULL;
	assert_int_equal(fa_uid_map_decode("0 0 1 2\n", 8, &j, &why),
	    FA_ERR_INPUT);
	free(why);
	why = NULL;
	assert_int_equal(fa_uid_map_decode("0 0 0\n", 6, &j, &why),
	    FA_ERR_INPUT);
	free(why);
	why = NULL;
	assert_int_equal(fa_uid_map_decode("", 0, &j, &why), FA_ERR_INPUT);
	free(why);
	why = NULL;
	assert_int_equal(fa_uid_map_decode("0\0 0 1\n", 7, &j, &why),
	    FA_ERR_INPUT);	/* a NUL byte */
	free(why);
}

static void
cpuinfo(void **state)
{
	const char *vm = "processor\t: 0\nflags\t\t: fpu vme hypervisor lm\n";
	const char *bm = "processor\t: 0\nflags\t\t: fpu vme lm\n";
	const char *tricky = "flags\t: fpu nothypervisor hypervisors\n";

	(void)state;
	assert_int_equal(fa_cpuinfo_hypervisor(vm, strlen(vm)), 1);
	assert_int_equal(fa_cpuinfo_hypervisor(bm, strlen(bm)), 0);
	assert_int_equal(fa_cpuinfo_hypervisor(tricky, strlen(tricky)), 0);
	assert_int_equal(fa_cpuinfo_hypervisor("processor: 0\n", 13),
	    FA_ERR_NOTFOUND);
	assert_int_equal(fa_cpuinfo_hypervisor("", 0), FA_ERR_NOTFOUND);
}

static void
toml(void **state)
{
	const char *text =
	    "# comment\n"
	    "accept-nvidia-visible-devices-envvar-when-unprivileged = false\n"
	    "supported = \"compute,utility\"  # trailing comment\n"
	    "\n"
	    "[nvidia-container-cli]\n"
	    "ldconfig = '@/sbin/ldconfig'\n"
	    "no-cgroups = true\n"
	    "[nvidia-container-runtime]\n"
	    "mode = \"legacy\"\n"
	    "runtimes = [\"docker-runc\", \"runc\", 'crun']\n"
	    "debug = 3\n"
	    "[features]\n"
	    "allow-cuda-compat-libs-from-container = true\n"
	    "multi = \"\"\"\n"		/* multi-line string: not read */
	    "x = [1, 2]\n"			/* array of integers: not read */
	    "\"quoted key\" = 1\n"		/* quoted key: not read */
	    "bad = \"\\u0041\"\n"		/* escape we do not read */
	    "[[array.of.tables]]\n";	/* not read; resets the table */
	const json_t *v;
	json_t *j = NULL;
	char *why = NULL;

	(void)state;
	assert_int_equal(fa_ctk_config_decode(text, strlen(text), &j, &why), 0);
	v = json_object_get(j, "values");
	assert_true(json_is_false(json_object_get(v,
	    "accept-nvidia-visible-devices-envvar-when-unprivileged")));
	assert_string_equal(json_string_value(json_object_get(v,
	    "supported")), "compute,utility");
	assert_string_equal(json_string_value(json_object_get(v,
	    "nvidia-container-cli.ldconfig")), "@/sbin/ldconfig");
	assert_true(json_is_true(json_object_get(v,
	    "nvidia-container-cli.no-cgroups")));
	assert_string_equal(json_string_value(json_object_get(v,
	    "nvidia-container-runtime.mode")), "legacy");
	assert_int_equal(json_array_size(json_object_get(v,
	    "nvidia-container-runtime.runtimes")), 3);
	assert_int_equal(json_integer_value(json_object_get(v,
	    "nvidia-container-runtime.debug")), 3);
	assert_true(json_is_true(json_object_get(v,
	    "features.allow-cuda-compat-libs-from-container")));
	/* Lines outside the subset are listed, never guessed. */
	assert_int_equal(json_array_size(json_object_get(j, "unparsed")), 5);
	assert_null(json_object_get(v, "features.x"));
	assert_null(json_object_get(v, "features.bad"));
	json_decref(j);

	/* Hostile: control bytes are escaped, huge strings are refused. */
	{
		char big[3000];

		memset(big, 'a', sizeof(big));
		memcpy(big, "k = \"", 5);
		big[sizeof(big) - 2] = '"';
		big[sizeof(big) - 1] = '\n';
		assert_int_equal(fa_ctk_config_decode(big, sizeof(big), &j,
		    &why), 0);
		assert_int_equal(json_object_size(json_object_get(j,
		    "values")), 0);
		json_decref(j);
		assert_int_equal(fa_ctk_config_decode("k = \"\033[31m\"\n", 12,
		    &j, &why), 0);
		assert_string_equal(json_string_value(json_object_get(
		    json_object_get(j, "values"), "k")), "\\x1b[31m");
		json_decref(j);
	}
}

static const struct fa_obs *
path_obs(const struct fa_snapshot *s, const char *path)
{
	return fa_snapshot_find(s, FA_KIND_HOST_PATH, path);
}

static void
machine(void **state)
{
	char dir[] = "/tmp/fa-hostid-XXXXXX", p[512];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	struct sockaddr_un sa;
	const json_t *d;
	int fd;

	(void)state;
	scratch_new(dir);
	scratch_put(dir, "/.dockerenv", "");
	scratch_put(dir, "/proc/1/cgroup", "0::/kubepods/pod1/abc\n");
	scratch_put(dir, "/proc/cpuinfo", "flags\t: fpu hypervisor\n");
	scratch_put(dir, "/sys/class/dmi/id/sys_vendor", "QEMU\n");
	scratch_put(dir, "/proc/self/attr/current",
	    "docker-default (enforce)\n");
	scratch_put(dir, "/proc/self/uid_map", "0 100000 65536\n");
	scratch_put(dir, "/var/run/secrets/kubernetes.io/serviceaccount/token",
	    "SECRET-NEVER-READ");
	scratch_put(dir, "/etc/nvidia-container-runtime/config.toml",
	    "[nvidia-container-runtime]\nmode = \"cdi\"\n");
	scratch_put(dir, "/etc/cdi/nvidia.yaml",
	    "kind: nvidia.com/gpu\nhooks: enable-cuda-compat\n");
	scratch_put(dir, "/etc/cdi/README", "not a spec\n");
	scratch_put(dir, "/sys/fs/cgroup/memory/release_agent", "");
	scratch_put(dir, "/dev/infiniband/.keep", "");
	snprintf(p, sizeof(p), "mkdir -p %s/run && ln -s ../run %s/var/run2",
	    dir, dir);
	assert_int_equal(system(p), 0);
	/* A real socket, as a fixture's FIXTURE.nodes would make. */
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/run/docker.sock", dir);
	assert_true((fd = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);

	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ident(&r, s), 0);
	assert_int_equal(fa_host_collect_paths(&r, s), 0);
	assert_int_equal(fa_host_collect_ctk(&r, s), 0);

	o = fa_snapshot_find(s, FA_KIND_HOST_TENANCY, "/");
	assert_non_null(o);
	assert_true(json_is_true(json_object_get(o->data, "cpu_hypervisor")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    o->data, "dmi"), "sys_vendor")), "QEMU");
	/* What could not be read says so. */
	assert_non_null(json_object_get(json_object_get(o->data, "unread"),
	    "product_name"));
	o = fa_snapshot_find(s, FA_KIND_HOST_LSM, "/proc/self/attr");
	assert_string_equal(json_string_value(json_object_get(o->data,
	    "current")), "docker-default (enforce)");
	o = fa_snapshot_find(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map");
	assert_int_equal(o->state, FA_OBS_COMPLETE);

	o = path_obs(s, "/run/docker.sock");
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o->data,
	    "type")), "socket");
	assert_string_equal(json_string_value(json_object_get(o->data,
	    "role")), "runtime-socket:docker");
	o = path_obs(s, "/run/crio/crio.sock");
	assert_true(json_is_false(json_object_get(o->data, "exists")));
	/* The token: stat only; its content is nowhere in the snapshot. */
	o = path_obs(s, "/var/run/secrets/kubernetes.io/serviceaccount/token");
	assert_true(json_is_true(json_object_get(o->data, "exists")));
	{
		json_t *all = fa_snapshot_to_json(s, 1);
		char *text = json_dumps(all, 0);

		assert_null(strstr(text, "SECRET-NEVER-READ"));
		free(text);
		json_decref(all);
	}
	assert_non_null(path_obs(s, "/sys/fs/cgroup/memory/release_agent"));
	o = fa_snapshot_find(s, FA_KIND_HOST_DEVICES, "/dev");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	d = json_object_get(o->data, "dirs");
	assert_true(json_is_true(json_object_get(json_array_get(d, 1),
	    "listed")));	/* /dev/infiniband */
	assert_int_equal(json_array_size(json_object_get(o->data, "nodes")),
	    0);		/* regular files are not device nodes */

	o = fa_snapshot_find(s, FA_KIND_HOST_CTK_CONFIG,
	    "/etc/nvidia-container-runtime/config.toml");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    o->data, "values"), "nvidia-container-runtime.mode")), "cdi");
	o = fa_snapshot_find(s, FA_KIND_HOST_CDI, "cdi");
	d = json_object_get(json_array_get(json_object_get(o->data, "dirs"),
	    0), "specs");
	assert_int_equal(json_array_size(d), 1);	/* README skipped */
	assert_true(json_is_true(json_object_get(json_array_get(d, 0),
	    "cuda_compat_hook")));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* An empty tree: every observation says what is missing, nothing fails. */
static void
empty(void **state)
{
	char dir[] = "/tmp/fa-hostid-XXXXXX";
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;

	(void)state;
	scratch_new(dir);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ident(&r, s), 0);
	assert_int_equal(fa_host_collect_paths(&r, s), 0);
	assert_int_equal(fa_host_collect_ctk(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	o = fa_snapshot_find(s, FA_KIND_HOST_DEVICES, "/dev");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	o = fa_snapshot_find(s, FA_KIND_HOST_CTK_CONFIG,
	    "/etc/nvidia-container-runtime/config.toml");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	o = fa_snapshot_find(s, FA_KIND_HOST_TENANCY, "/");
	assert_null(json_object_get(o->data, "cpu_hypervisor"));
	assert_non_null(json_object_get(json_object_get(o->data, "unread"),
	    "cpu_hypervisor"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uid_map),
		cmocka_unit_test(cpuinfo),
		cmocka_unit_test(toml),
		cmocka_unit_test(machine),
		cmocka_unit_test(empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
