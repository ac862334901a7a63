/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pieces of fabric/host_rpm.c that read header values: the source
 * package in a SOURCERPM value (NAME-VERSION-RELEASE.src.rpm, rpm's
 * naming: a name may hold hyphens, a version and a release may not), the
 * builder in a Vendor tag, and the package names read.  The database
 * itself is read by librpm on databases rpm wrote (tests/host/test_rpm.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../fabric/host_pkgname.h"
#include "../../fabric/host_rpm.h"

static void
source_names(void **state)
{
	static const char *const t[][2] = {
		{ "runc-1.1.12-4.el9.src.rpm", "runc" },
		{ "containerd.io-1.6.28-3.1.el9.src.rpm", "containerd.io" },
		{ "nvidia-container-toolkit-1.17.3-1.src.rpm",
		  "nvidia-container-toolkit" },
		{ "kernel-5.14.0-427.13.1.el9_4.src.rpm", "kernel" },
		{ "runc-1.1.12.src.rpm", "" },		/* no release */
		{ "-1.0-1.src.rpm", "" },		/* no name */
		{ "runc-1.1.12-4.el9.rpm", "" },	/* not a source */
		{ "", "" },
	};
	char out[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fa_rpm_source_name(t[i][0], out, sizeof(out));
		assert_string_equal(out, t[i][1]);
	}
	fa_rpm_source_name(NULL, out, sizeof(out));
	assert_string_equal(out, "");
	/* A name longer than the buffer is not cut: it is no name. */
	fa_rpm_source_name("nvidia-container-toolkit-1.17.3-1.src.rpm", out,
	    8);
	assert_string_equal(out, "");
}

static void
origins(void **state)
{
	(void)state;
	assert_string_equal(fa_rpm_origin("Red Hat, Inc."), "rhel");
	assert_string_equal(fa_rpm_origin("Rocky Enterprise Software "
	    "Foundation"), "rocky");
	assert_string_equal(fa_rpm_origin("AlmaLinux"), "almalinux");
	assert_string_equal(fa_rpm_origin("Fedora Project"), "fedora");
	assert_string_equal(fa_rpm_origin("Amazon Linux"), "amzn");
	assert_string_equal(fa_rpm_origin("Docker"), "vendor");
	assert_string_equal(fa_rpm_origin("NVIDIA CORPORATION"), "vendor");
	assert_string_equal(fa_rpm_origin(""), "unknown");
	assert_string_equal(fa_rpm_origin(NULL), "unknown");
	/* A vendor whose name only starts like a distribution's is not. */
	assert_string_equal(fa_rpm_origin("Red Hatter's builds"), "vendor");
	assert_string_equal(fa_rpm_origin("SUSE LLC <https://www.suse.com/>"),
	    "sles");
}

static void
package_names(void **state)
{
	(void)state;
	assert_string_equal(fa_pkg_component("docker", FA_PKG_RPM), "docker");
	assert_null(fa_pkg_component("docker", FA_PKG_DPKG));
	assert_string_equal(fa_pkg_component("docker.io", FA_PKG_DPKG),
	    "docker");
	assert_null(fa_pkg_component("docker.io", FA_PKG_RPM));
	assert_string_equal(fa_pkg_component("containerd.io", FA_PKG_RPM),
	    "containerd");
	assert_string_equal(fa_pkg_component("libnvidia-container1",
	    FA_PKG_DPKG), "nvidia-container-toolkit");
	assert_null(fa_pkg_component("podman", FA_PKG_RPM));
	assert_null(fa_pkg_component(NULL, FA_PKG_RPM));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(source_names),
		cmocka_unit_test(origins),
		cmocka_unit_test(package_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
