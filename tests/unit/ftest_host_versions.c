/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for kernel and NVIDIA driver versions read from files
 * (fabric/host_versions.c): the real formats of /proc/driver/nvidia/version
 * (proprietary and open module) and /proc/version, hostile values, and
 * collection through a scratch sysroot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../core/version.h"
#include "../../fabric/host_versions.h"
#include "scratch_tree.h"

static void
nvrm_formats(void **state)
{
	char v[32];

	(void)state;
	assert_int_equal(fa_host_nvrm_version("NVRM version: NVIDIA UNIX "
	    "x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
	    "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n", v,
	    sizeof(v)), 0);
	assert_string_equal(v, "535.104.05");
	assert_int_equal(fa_host_nvrm_version("NVRM version: NVIDIA UNIX "
	    "Open Kernel Module for x86_64  570.133.20  Release Build  "
	    "(dvs-builder@U16-I3-B03-4-1)  Fri Mar 14 2025\n", v, sizeof(v)),
	    0);
	assert_string_equal(v, "570.133.20");
	/* x86_64 and 12.2.0 are not on the first line's version token. */
	assert_int_equal(fa_host_nvrm_version("NVRM version: unknown\n"
	    "GCC version: 12.2.0\n", v, sizeof(v)), FA_ERR_NOTFOUND);
	assert_int_equal(fa_host_nvrm_version("1..2 1.2. .1.2 1.2.3.4", v,
	    sizeof(v)), FA_ERR_NOTFOUND);
	assert_int_equal(fa_host_nvrm_version("", v, sizeof(v)),
	    FA_ERR_NOTFOUND);
}

static void
debian_kernel(void **state)
{
	char v[FA_VERSION_MAX + 1];

	(void)state;
	assert_int_equal(fa_host_debian_kernel("Linux version 6.1.0-27-amd64 "
	    "(debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) "
	    "12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP "
	    "PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)\n", v, sizeof(v)),
	    0);
	assert_string_equal(v, "6.1.115-1");
	/* The last " Debian " counts: the compiler's comes first. */
	assert_int_equal(fa_host_debian_kernel("Linux version 6.1.0 (gcc "
	    "Debian 12.2.0-14) #1 SMP Debian 6.1.119-1 (2024-11-22)", v,
	    sizeof(v)), 0);
	assert_string_equal(v, "6.1.119-1");
	assert_int_equal(fa_host_debian_kernel("#1 SMP Debian <script>", v,
	    sizeof(v)), FA_ERR_NOTFOUND);
	assert_int_equal(fa_host_debian_kernel("#1 SMP Debian ", v, sizeof(v)),
	    FA_ERR_NOTFOUND);
	assert_int_equal(fa_host_debian_kernel("Linux version 6.8.0-45-generic "
	    "(buildd@lcy02) #45-Ubuntu SMP\n", v, sizeof(v)), FA_ERR_NOTFOUND);
}

static const struct fa_obs *
version_obs(const struct fa_snapshot *s, const char *comp)
{
	return fa_snapshot_find(s, FA_KIND_HOST_VERSION, comp);
}

static void
collect(void **state)
{
	char dir[] = "/tmp/fa-hostver-XXXXXX";
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;

	(void)state;
	scratch_new(dir);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);

	/* An empty tree: both not collected, with the reason. */
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_versions(&r, s), 0);
	o = version_obs(s, "kernel");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	o = version_obs(s, "nvidia-driver");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(o->reason, "no NVIDIA kernel module"));
	fa_snapshot_free(s);

	/* Hostile values: errors that quote the bytes, sanitised. */
	scratch_put(dir, "/proc/sys/kernel/osrelease", "<script>\n");
	scratch_put(dir, "/sys/module/nvidia/version", "570.x\x01\n");
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_versions(&r, s), 0);
	o = version_obs(s, "kernel");
	assert_int_equal(o->state, FA_OBS_ERROR);
	assert_non_null(strstr(o->reason, "\"<script>\" is not a version"));
	o = version_obs(s, "nvidia-driver");
	assert_int_equal(o->state, FA_OBS_ERROR);
	assert_non_null(strstr(o->reason, "570.x\\x01"));
	fa_snapshot_free(s);

	/* A Debian node with the driver loaded; /proc/driver is the
	 * fallback when /sys/module has no version file. */
	scratch_put(dir, "/proc/sys/kernel/osrelease", "6.1.0-27-amd64\n");
	scratch_put(dir, "/proc/version", "Linux version 6.1.0-27-amd64 "
	    "(debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC "
	    "Debian 6.1.115-1 (2024-11-01)\n");
	scratch_rm(dir, "/sys");
	scratch_put(dir, "/proc/driver/nvidia/version", "NVRM version: "
	    "NVIDIA UNIX x86_64 Kernel Module  570.133.20  Tue Apr  1 2025\n");
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_versions(&r, s), 0);
	o = version_obs(s, "kernel");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(fa_json_get_str(o->data, "version"),
	    "6.1.0-27-amd64");
	assert_string_equal(fa_json_get_str(json_object_get(o->data,
	    "debian_package"), "version"), "6.1.115-1");
	o = version_obs(s, "nvidia-driver");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(fa_json_get_str(o->data, "version"), "570.133.20");
	assert_string_equal(fa_json_get_str(o->data, "source"),
	    "/proc/driver/nvidia/version");
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvrm_formats),
		cmocka_unit_test(debian_kernel),
		cmocka_unit_test(collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
