/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The collectors behind HOST-NVIDIA-CTK-CONFIG's effective mode
 * (fabric/host_ctk.c, fabric/host_dpkg.c): each machine of ctk_mode_cases.h
 * is built as a scratch sysroot from real files (config.toml as the toolkit
 * writes it, a dpkg status in deb822, the Tegra files as L4T and the kernel
 * show them, the hook binary, a CDI spec) and the observations collected
 * are asserted equal to the ones test_host_ctk_mode gives the check.  And
 * the probes on hostile trees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_ctk.h"
#include "../../fabric/host_dpkg.h"
#include "ctk_mode_cases.h"
#include "scratch_tree.h"

/* L4T's release file (Jetson Linux r35.4.1). */
#define NV_TEGRA_RELEASE						\
	"# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, " \
	"EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023\n"		\
	"# KERNEL_VARIANT: oot\n"					\
	"TARGET_USERSPACE_LIB_DIR=nvidia\n"				\
	"TARGET_USERSPACE_LIB_DIR_PATH=usr/lib/aarch64-linux-gnu/nvidia\n"

/* A CDI spec as nvidia-ctk cdi generate writes it (abridged). */
#define CDI_SPEC							\
	"---\n"								\
	"cdiVersion: 0.5.0\n"						\
	"kind: nvidia.com/gpu\n"					\
	"devices:\n"							\
	"- name: \"0\"\n"						\
	"  containerEdits:\n"						\
	"    deviceNodes:\n"						\
	"    - path: /dev/nvidia0\n"					\
	"- name: all\n"							\
	"  containerEdits:\n"						\
	"    deviceNodes:\n"						\
	"    - path: /dev/nvidia0\n"					\
	"containerEdits:\n"						\
	"  deviceNodes:\n"						\
	"  - path: /dev/nvidiactl\n"					\
	"  - path: /dev/nvidia-uvm\n"					\
	"  hooks:\n"							\
	"  - hookName: createContainer\n"				\
	"    path: /usr/bin/nvidia-cdi-hook\n"				\
	"    args:\n"							\
	"    - nvidia-cdi-hook\n"					\
	"    - update-ldcache\n"					\
	"    - --folder\n"						\
	"    - /usr/lib/x86_64-linux-gnu\n"

/* One deb822 stanza of /var/lib/dpkg/status for a toolkit package. */
static void
stanza(char *buf, size_t len, const struct ctk_pkg *p)
{
	int base = strcmp(p->package, "nvidia-container-toolkit-base") == 0;

	snprintf(buf + strlen(buf), len - strlen(buf),
	    "Package: %s\n"
	    "Status: install ok installed\n"
	    "Priority: optional\n"
	    "Section: utils\n"
	    "Installed-Size: %s\n"
	    "Maintainer: NVIDIA CORPORATION <cudatools@nvidia.com>\n"
	    "Architecture: amd64\n"
	    "Source: nvidia-container-toolkit\n"
	    "Version: %s\n"
	    "%s"
	    "Description: %s\n"
	    " Provides tools and utilities to enable GPU support in "
	    "containers.\n"
	    "\n", p->package, base ? "22866" : "2518", p->version,
	    base ? "Breaks: nvidia-container-runtime (<= 3.5.0-1), "
	    "nvidia-container-runtime-hook, nvidia-container-toolkit "
	    "(<= 1.10.0-1)\n" : "Depends: nvidia-container-toolkit-base "
	    "(= 1.17.3-1), libnvidia-container-tools (>= 1.17.3-1)\n",
	    base ? "NVIDIA Container Toolkit Base" : "NVIDIA Container "
	    "toolkit");
}

static void
build(const char *dir, const struct ctk_case *c)
{
	char status[4096], cmd[700];
	size_t i;

	scratch_put(dir, c->config, c->toml);
	if (c->dpkg) {
		snprintf(status, sizeof(status),
		    "Package: bash\n"
		    "Essential: yes\n"
		    "Status: install ok installed\n"
		    "Priority: required\n"
		    "Section: shells\n"
		    "Installed-Size: 7175\n"
		    "Maintainer: Matthias Klose <doko@debian.org>\n"
		    "Architecture: amd64\n"
		    "Multi-Arch: foreign\n"
		    "Version: 5.2.15-2+b7\n"
		    "Description: GNU Bourne Again SHell\n"
		    " Bash is an sh-compatible command language interpreter.\n"
		    "\n");
		for (i = 0; i < ctk_npkgs(c); i++)
			stanza(status, sizeof(status), &c->pkgs[i]);
		scratch_put(dir, "/var/lib/dpkg/status", status);
	}
	switch (c->tegra) {
	case CTK_TEGRA_RELEASE:
		scratch_put(dir, "/etc/nv_tegra_release", NV_TEGRA_RELEASE);
		break;
	case CTK_TEGRA_SOC_FAMILY:
		scratch_put(dir, "/sys/devices/soc0/family", "Tegra\n");
		break;
	case CTK_SOC_OTHER:
		scratch_put(dir, "/sys/devices/soc0/family", "jep106:036b\n");
		break;
	case CTK_TEGRA_LOOP:
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/etc' && ln -s "
		    "nv_tegra_release '%s/etc/nv_tegra_release'", dir, dir);
		assert_int_equal(system(cmd), 0);
		break;
	}
	if (c->hook)
		scratch_put(dir, "/usr/bin/nvidia-container-runtime-hook",
		    "\177ELF");
	if (c->cdi == CTK_CDI_ETC)
		scratch_put(dir, "/etc/cdi/nvidia.yaml", CDI_SPEC);
	else if (c->cdi == CTK_CDI_LOOP) {
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/etc' && ln -s cdi "
		    "'%s/etc/cdi'", dir, dir);
		assert_int_equal(system(cmd), 0);
	}
}

/* o's data equals want (consumed); prints both when not. */
static int
same(const char *name, const struct fa_obs *o, json_t *want)
{
	int eq;

	assert_non_null(want);
	if (o == NULL) {
		print_error("%s: no observation\n", name);
		json_decref(want);
		return 0;
	}
	eq = json_equal(o->data, want);
	if (!eq) {
		char *a = json_dumps(o->data, JSON_SORT_KEYS);
		char *b = json_dumps(want, JSON_SORT_KEYS);

		print_error("%s: %s %s\n  got  %s\n  want %s\n", name, o->kind,
		    o->target, a, b);
		free(a);
		free(b);
	}
	json_decref(want);
	return eq;
}

/*
 * The dpkg observations: the members the check reads, equal (host_dpkg.c
 * may record more about a package than its version).
 */
static int
subset(const char *name, const struct fa_obs *o, json_t *want)
{
	const char *k;
	json_t *v;
	int eq = 1;

	assert_non_null(want);
	if (o == NULL) {
		print_error("%s: no observation\n", name);
		json_decref(want);
		return 0;
	}
	json_object_foreach(want, k, v)
		if (!json_equal(json_object_get(o->data, k), v)) {
			char *a = json_dumps(json_object_get(o->data, k),
			    JSON_ENCODE_ANY);

			print_error("%s: %s %s: %s is %s\n", name, o->kind,
			    o->target, k, a != NULL ? a : "absent");
			free(a);
			eq = 0;
		}
	json_decref(want);
	return eq;
}

/* Every machine: the collectors record what the check is given. */
static void
machines(void **state)
{
	size_t i, k;
	int bad = 0;

	(void)state;
	assert_string_equal(FA_KIND_HOST_CTK_PROBE, "host.ctk.probe");
	for (i = 0; i < CTK_NCASES; i++) {
		const struct ctk_case *c = &ctk_cases[i];
		char dir[] = "/tmp/fa-ctkmode-XXXXXX", t[96];
		const struct fa_obs *o;
		struct fa_snapshot *s;
		struct fa_sysroot r;

		scratch_new(dir);
		build(dir, c);
		assert_int_equal(fa_sysroot_open(dir, &r), 0);
		assert_non_null(s = fa_snapshot_new());
		assert_int_equal(fa_host_collect_ctk(&r, s), 0);
		assert_int_equal(fa_host_collect_dpkg(&r, s), 0);

		o = fa_snapshot_find(s, FA_KIND_HOST_CTK_CONFIG, c->config);
		assert_non_null(o);
		assert_int_equal(o->state, FA_OBS_COMPLETE);
		bad += !same(c->name, o, ctk_case_config(c));
		o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg");
		assert_non_null(o);
		if (c->dpkg) {
			assert_int_equal(o->state, FA_OBS_COMPLETE);
			bad += !subset(c->name, o, ctk_case_dpkg_db(c));
		}
		else {
			assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
			assert_string_equal(o->reason, CTK_DPKG_MISSING);
		}
		for (k = 0; k < ctk_npkgs(c); k++) {
			snprintf(t, sizeof(t), "dpkg:%s", c->pkgs[k].package);
			o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, t);
			assert_non_null(o);
			assert_int_equal(o->state, FA_OBS_COMPLETE);
			bad += !subset(c->name, o, ctk_case_pkg(&c->pkgs[k]));
		}
		bad += !same(c->name, fa_snapshot_find(s, FA_KIND_HOST_CDI,
		    "cdi"), ctk_case_cdi(c));
		bad += !same(c->name, fa_snapshot_find(s,
		    FA_KIND_HOST_CTK_PROBE, "toolkit"), ctk_case_probes(c));
		fa_snapshot_free(s);
		fa_sysroot_close(&r);
		scratch_rm(dir, "");
	}
	assert_int_equal(bad, 0);
}

static const json_t *
probe_at(const struct fa_snapshot *s, const char *path)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_CTK_PROBE,
	    "toolkit");
	const json_t *p;
	size_t i;

	assert_non_null(o);
	json_array_foreach(json_object_get(o->data, "probes"), i, p)
		if (strcmp(json_string_value(json_object_get(p, "path")),
		    path) == 0)
			return p;
	fail_msg("no probe of %s", path);
	return NULL;
}

/* Hostile and odd trees: directories where files are expected, control
 * bytes, an empty family, the GPU Operator's hook. */
static void
hostile(void **state)
{
	char dir[] = "/tmp/fa-ctkmode-XXXXXX", cmd[600];
	struct fa_snapshot *s;
	struct fa_sysroot r;
	const json_t *p;

	(void)state;
	scratch_new(dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/etc/nv_tegra_release' "
	    "'%s/usr/bin/nvidia-container-runtime-hook'", dir, dir);
	assert_int_equal(system(cmd), 0);
	scratch_put(dir, "/sys/devices/soc0/family", "tegra\033[31m\nmore\n");
	scratch_put(dir, "/usr/local/nvidia/toolkit/"
	    "nvidia-container-runtime-hook", "\177ELF");
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ctk(&r, s), 0);
	/* go-nvlib: a release "file" that is a directory is no tell. */
	p = probe_at(s, "/etc/nv_tegra_release");
	assert_true(json_is_false(json_object_get(p, "exists")));
	/* The first line only, control bytes escaped. */
	p = probe_at(s, "/sys/devices/soc0/family");
	assert_string_equal(json_string_value(json_object_get(p, "text")),
	    "tegra\\x1b[31m");
	/* A directory is not an executable hook; the Operator's is. */
	p = probe_at(s, "/usr/bin/nvidia-container-runtime-hook");
	assert_true(json_is_false(json_object_get(p, "exists")));
	p = probe_at(s, "/usr/local/nvidia/toolkit/"
	    "nvidia-container-runtime-hook");
	assert_true(json_is_true(json_object_get(p, "exists")));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");

	/* An empty tree: every probe examined, none there, no reason. */
	{
		char d2[] = "/tmp/fa-ctkmode-XXXXXX";
		const struct fa_obs *o;
		size_t i;

		scratch_new(d2);
		assert_int_equal(fa_sysroot_open(d2, &r), 0);
		assert_non_null(s = fa_snapshot_new());
		assert_int_equal(fa_host_collect_ctk(&r, s), 0);
		o = fa_snapshot_find(s, FA_KIND_HOST_CTK_PROBE, "toolkit");
		assert_int_equal(o->state, FA_OBS_COMPLETE);
		assert_int_equal(json_array_size(json_object_get(o->data,
		    "probes")), 9);
		json_array_foreach(json_object_get(o->data, "probes"), i, p) {
			assert_true(json_is_false(json_object_get(p,
			    "exists")));
			assert_null(json_object_get(p, "reason"));
		}
		o = fa_snapshot_find(s, FA_KIND_HOST_CDI, "cdi");
		assert_true(json_is_true(json_object_get(json_array_get(
		    json_object_get(o->data, "dirs"), 0), "missing")));
		fa_snapshot_free(s);
		fa_sysroot_close(&r);
		scratch_rm(d2, "");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(machines),
		cmocka_unit_test(hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
