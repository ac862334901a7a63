/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the host catalogue's building blocks: version comparison
 * in the formats hosts really show (driver, toolkit, Debian package,
 * kernel release, runc/containerd pre-releases) and capability decoding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/caps.h"
#include "../../core/errors.h"
#include "../../core/version.h"

static int
cmp(enum fa_ver_scheme s, const char *a, const char *b)
{
	const char *err = NULL;
	int c = 99;

	assert_int_equal(fa_version_cmp(s, a, b, &c, &err), 0);
	assert_null(err);
	return c;
}

static void
upstream_order(void **state)
{
	(void)state;
	/* GPU driver: numeric fields, not strings ("133" > "99"). */
	assert_int_equal(cmp(FA_VER_UPSTREAM, "570.133.20", "570.99.1"), 1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "570.133.07", "570.133.7"), 0);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "535.309.01", "595.71.05"), -1);
	/* Toolkit, with and without a v. */
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.17.8", "v1.17.8"), 0);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.17.10", "1.17.8"), 1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.19.0", "1.19.1"), -1);
	/* Pre-releases sort before the release, both runc spellings. */
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.0.0-rc6", "1.0.0"), -1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.0.0-rc92", "1.0.0-rc93"), -1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.0.0-rc95", "0.9.9"), 1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.4.0-rc.2", "1.4.0-rc.3"), -1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.4.0-rc.3", "1.4.0"), -1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "2.0.0-beta.0", "2.0.0-rc.1"),
	    -1);
	/* Build metadata does not order. */
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.7.13+unknown", "1.7.13"), 0);
	/* A hyphen then a digit is a vendor build number, not a pre-release. */
	assert_int_equal(cmp(FA_VER_UPSTREAM, "23.10-5.1.4.0", "23.10-3.2.5.0"),
	    1);
	assert_int_equal(cmp(FA_VER_UPSTREAM, "23.10-5.1.4.0", "23.10"), 1);
}

static void
debian_order(void **state)
{
	(void)state;
	assert_int_equal(cmp(FA_VER_DEBIAN, "1.1.12+ds1-5+deb12u1",
	    "1.1.12+ds1-5"), 1);
	assert_int_equal(cmp(FA_VER_DEBIAN, "1.1.5+ds1-1+deb12u1",
	    "1.1.12+ds1-1"), -1);
	/* The epoch beats everything. */
	assert_int_equal(cmp(FA_VER_DEBIAN, "1:2.66-4", "3.0-1"), 1);
	/* Tilde sorts before the end: a Debian pre-release. */
	assert_int_equal(cmp(FA_VER_DEBIAN, "1.4.0~rc3-1", "1.4.0-1"), -1);
	assert_int_equal(cmp(FA_VER_DEBIAN, "6.1.115-1", "6.1.115-1"), 0);
	/* Upstream hyphens belong to the upstream part, the last one
	 * starts the revision. */
	assert_int_equal(cmp(FA_VER_DEBIAN, "1.0-rc6-2", "1.0-rc6-10"), -1);
	assert_int_equal(cmp(FA_VER_DEBIAN, "20.10.24+dfsg1-1+b3",
	    "20.10.24+dfsg1-1"), 1);
}

static void
kernel_order(void **state)
{
	(void)state;
	assert_int_equal(cmp(FA_VER_KERNEL, "6.1.0-27-amd64", "6.1.0"), 0);
	assert_int_equal(cmp(FA_VER_KERNEL, "6.1.0-27-amd64", "6.1.0-13-amd64"),
	    0);
	assert_int_equal(cmp(FA_VER_KERNEL, "6.8.0-45-generic", "6.1.119"), 1);
	assert_int_equal(cmp(FA_VER_KERNEL, "6.1", "6.1.0"), 0);
	assert_int_equal(cmp(FA_VER_KERNEL, "5.15.0-1063-nvidia", "5.15.1"), -1);
	assert_int_equal(cmp(FA_VER_KERNEL, "4.18.0-553.el8_10.x86_64",
	    "4.18.0"), 0);
}

/*
 * rpm's ordering as rpm.org's "Version comparison" and rpmvercmp(3)
 * describe it: the epoch first; "~" sorts before anything, "^" after the
 * end but before any more segments; digits beat letters.  The versions
 * are those RHEL and Fedora ship for runc, containerd and the kernel
 * (an installed package and a distribution's fixed version both carry
 * a release).
 */
/*
 * Go pseudo-versions (golang.org/x/mod/module): a commit before the
 * release its prefix names sorts before it, after the previous release,
 * as `go list -m` orders them; what dockerd's vendor.mod often pins.
 */
static void
pseudo_versions(void **state)
{
	(void)state;
	assert_int_equal(cmp(FA_VER_UPSTREAM,
	    "v0.12.5-0.20231208203051-3b6880d2a00f", "0.12.5"), -1);
	assert_int_equal(cmp(FA_VER_UPSTREAM,
	    "v0.12.5-0.20231208203051-3b6880d2a00f", "0.12.4"), 1);
	assert_int_equal(cmp(FA_VER_UPSTREAM,
	    "v0.0.0-20240101000000-abcdef012345", "0.0.1"), -1);
	assert_int_equal(cmp(FA_VER_UPSTREAM,
	    "v0.13.0-beta1.0.20240116143623-28ce478b1fde", "0.13.0-beta1"),
	    1);
	assert_int_equal(cmp(FA_VER_UPSTREAM,
	    "v0.13.0-beta1.0.20240116143623-28ce478b1fde", "0.13.0"), -1);
	/* A hyphen and digits that are no timestamp stay a release part. */
	assert_int_equal(cmp(FA_VER_UPSTREAM, "1.6.28-3", "1.6.28"), 1);
}

static void
rpm_order(void **state)
{
	const char *err = NULL;

	(void)state;
	assert_int_equal(cmp(FA_VER_RPM, "1.1.12-4.el9", "1.1.12-5.el9"), -1);
	assert_int_equal(cmp(FA_VER_RPM, "1.1.12-4.el9_3", "1.1.12-4.el9"),
	    1);
	assert_int_equal(cmp(FA_VER_RPM, "4:1.1.12-1.el9", "1.2.0-1.el9"), 1);
	assert_int_equal(cmp(FA_VER_RPM, "1.2.0~rc1-1", "1.2.0-1"), -1);
	assert_int_equal(cmp(FA_VER_RPM, "1.2.0^git1-1", "1.2.0-1"), 1);
	assert_int_equal(cmp(FA_VER_RPM, "1.2.0^git1", "1.2.0.1"), -1);
	assert_int_equal(cmp(FA_VER_RPM, "5.14.0-427.13.1.el9_4",
	    "5.14.0-427.el9"), 1);
	assert_int_equal(cmp(FA_VER_RPM, "1.10", "1.9"), 1);
	assert_int_equal(cmp(FA_VER_RPM, "1.0a", "1.0.1"), -1);
	assert_int_equal(fa_version_valid(FA_VER_RPM, "1.0-", &err),
	    FA_ERR_INPUT);
	assert_int_equal(fa_version_valid(FA_VER_RPM, "x:1.0", &err),
	    FA_ERR_INPUT);
	assert_int_equal(fa_version_valid(FA_VER_RPM, "1.0 -1", &err),
	    FA_ERR_INPUT);
	assert_int_equal(fa_version_valid(FA_VER_RPM, "1.0-1-2", &err),
	    FA_ERR_INPUT);
	assert_int_equal(fa_version_valid(FA_VER_RPM, "2:1.1.12-4.el9_3",
	    &err), 0);
}

static void
ranges(void **state)
{
	const char *err;
	int in = -1;

	(void)state;
	assert_int_equal(fa_version_in_range(FA_VER_UPSTREAM, "1.17.7", NULL,
	    "1.17.8", &in, &err), 0);
	assert_int_equal(in, 1);
	assert_int_equal(fa_version_in_range(FA_VER_UPSTREAM, "1.17.8", NULL,
	    "1.17.8", &in, &err), 0);
	assert_int_equal(in, 0);
	assert_int_equal(fa_version_in_range(FA_VER_UPSTREAM, "1.0.0-rc92",
	    "1.0.0-rc93", "1.1.12", &in, &err), 0);
	assert_int_equal(in, 0);
	assert_int_equal(fa_version_in_range(FA_VER_UPSTREAM, "1.1.11",
	    "1.0.0-rc93", "1.1.12", &in, &err), 0);
	assert_int_equal(in, 1);
	assert_int_equal(fa_version_in_range(FA_VER_UPSTREAM, "1.1.11",
	    "1.0.0-rc93", "junk", &in, &err), FA_ERR_INPUT);
}

static void
hostile_versions(void **state)
{
	static const struct {
		enum fa_ver_scheme s;
		const char *v;
	} bad[] = {
		{ FA_VER_UPSTREAM, "" },
		{ FA_VER_UPSTREAM, "v" },
		{ FA_VER_UPSTREAM, "abc" },
		{ FA_VER_UPSTREAM, "1.2.3-" },
		{ FA_VER_UPSTREAM, "1.2 3" },
		{ FA_VER_UPSTREAM, "1.2.3<script>" },
		{ FA_VER_UPSTREAM, "1.2.3\n" },
		{ FA_VER_UPSTREAM, "1.2.3+a b" },
		{ FA_VER_DEBIAN, ":1.0" },
		{ FA_VER_DEBIAN, "x:1.0" },
		{ FA_VER_DEBIAN, "99999999999:1.0" },
		{ FA_VER_DEBIAN, "1.0-" },
		{ FA_VER_DEBIAN, "-1" },
		{ FA_VER_DEBIAN, "a1.0" },
		{ FA_VER_DEBIAN, "1.0-1:2" },
		{ FA_VER_DEBIAN, "1.0-r_1" },
		{ FA_VER_KERNEL, "6" },
		{ FA_VER_KERNEL, "6." },
		{ FA_VER_KERNEL, "linux-6.1" },
		{ FA_VER_KERNEL, "6.1.0 #1" },
	};
	char longv[FA_VERSION_MAX + 2];
	const char *err;
	size_t i;
	int c;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		if (fa_version_valid(bad[i].s, bad[i].v, &err) != FA_ERR_INPUT)
			fail_msg("accepted %s version \"%s\"",
			    fa_version_scheme_name(bad[i].s), bad[i].v);
		assert_non_null(err);
		assert_int_equal(fa_version_cmp(bad[i].s, "1.0", bad[i].v, &c,
		    NULL), FA_ERR_INPUT);
	}
	memset(longv, '1', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(fa_version_valid(FA_VER_UPSTREAM, longv, &err),
	    FA_ERR_INPUT);
	assert_string_equal(err, "version too long");
	longv[FA_VERSION_MAX] = '\0';	/* exactly the limit: fine */
	assert_int_equal(fa_version_valid(FA_VER_KERNEL, "6.1.0", &err), 0);
	assert_int_equal(fa_version_valid(FA_VER_UPSTREAM, longv, &err), 0);
	assert_int_equal(fa_version_valid(FA_VER_KERNEL, longv, &err),
	    FA_ERR_INPUT);
}

static void
scheme_names(void **state)
{
	enum fa_ver_scheme s;

	(void)state;
	assert_int_equal(fa_version_scheme_parse("debian", &s), 0);
	assert_int_equal(s, FA_VER_DEBIAN);
	assert_int_equal(fa_version_scheme_parse("kernel", &s), 0);
	assert_string_equal(fa_version_scheme_name(s), "kernel");
	assert_int_equal(fa_version_scheme_parse("semver", &s), FA_ERR_INPUT);
	assert_int_equal(fa_version_scheme_parse(NULL, &s), FA_ERR_INPUT);
}

static void
caps_decode(void **state)
{
	const char *err;
	uint64_t m;
	char *s;

	(void)state;
	/* A default Docker container's set (CapEff of `docker run`). */
	assert_int_equal(fa_caps_parse("00000000a80425fb", &m, &err), 0);
	s = fa_caps_names(m);
	assert_non_null(s);
	assert_string_equal(s, "cap_chown,cap_dac_override,cap_fowner,"
	    "cap_fsetid,cap_kill,cap_setgid,cap_setuid,cap_setpcap,"
	    "cap_net_bind_service,cap_net_raw,cap_sys_chroot,cap_mknod,"
	    "cap_audit_write,cap_setfcap");
	free(s);
	/* Privileged: all 41 of this libcap, CAP_SYS_ADMIN among them. */
	assert_int_equal(fa_caps_parse(" 000001ffffffffff\n", &m, &err), 0);
	assert_true(m == UINT64_C(0x1ffffffffff));
	s = fa_caps_names(m & (UINT64_C(1) << 21 | UINT64_C(1) << 40));
	assert_string_equal(s, "cap_sys_admin,cap_checkpoint_restore");
	free(s);
	s = fa_caps_names(0);
	assert_string_equal(s, "");
	free(s);
	/* A bit from a kernel newer than libcap's table: its number. */
	s = fa_caps_names(UINT64_C(1) << 63);
	assert_string_equal(s, "63");
	free(s);
	s = fa_caps_names(UINT64_MAX);
	assert_non_null(s);
	assert_non_null(strstr(s, "cap_bpf"));
	free(s);
}

static void
caps_hostile(void **state)
{
	static const char *const bad[] = {
		"", " ", "0x10", "00000000000000000", "12g", "1 2", "-1", NULL,
	};
	const char *err;
	uint64_t m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		assert_int_equal(fa_caps_parse(bad[i], &m, &err), FA_ERR_INPUT);
		assert_non_null(err);
	}
}

static void
cap_names_to_bits(void **state)
{
	unsigned bit;

	(void)state;
	assert_int_equal(fa_cap_from_name("cap_sys_admin", &bit), 0);
	assert_int_equal(bit, 21);
	assert_int_equal(fa_cap_from_name("CAP_NET_RAW", &bit), 0);
	assert_int_equal(bit, 13);
	assert_int_equal(fa_cap_from_name("sys_module", &bit), 0);
	assert_int_equal(bit, 16);
	assert_int_equal(fa_cap_from_name("cap_bogus", &bit), FA_ERR_INPUT);
	assert_int_equal(fa_cap_from_name("21", &bit), FA_ERR_INPUT);
	assert_int_equal(fa_cap_from_name("cap_chown,cap_kill", &bit),
	    FA_ERR_INPUT);
	assert_int_equal(fa_cap_from_name("", &bit), FA_ERR_INPUT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(upstream_order),
		cmocka_unit_test(debian_order),
		cmocka_unit_test(kernel_order),
		cmocka_unit_test(rpm_order),
		cmocka_unit_test(pseudo_versions),
		cmocka_unit_test(ranges),
		cmocka_unit_test(hostile_versions),
		cmocka_unit_test(scheme_names),
		cmocka_unit_test(caps_decode),
		cmocka_unit_test(caps_hostile),
		cmocka_unit_test(cap_names_to_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
