/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the /proc/sys integers the host collector reads beside
 * /proc/self/status (fabric/host_proc.c): the decoder on the kernel's
 * format (proc_dointvec prints the decimal value and "\n") and on hostile
 * text, this machine's own cap_last_cap, and collection through a sysroot:
 * one host.sysctl observation per file, not_collected where the file is
 * missing (kernels before 3.2 have no cap_last_cap), error where it is
 * malformed, without disturbing the host.proc.status observation.
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
#include "../../core/snapshot.h"
#include "../../fabric/host_fs.h"
#include "../../fabric/host_proc.h"
#include "scratch_tree.h"

static void
decode_good(void **state)
{
	static const struct { const char *text; long long v; } good[] = {
		{ "40\n", 40 },		/* 5.9 and later */
		{ "36\n", 36 },		/* RHEL 7's 3.10 */
		{ "65534\n", 65534 },	/* overflowuid */
		{ "0", 0 },		/* no newline: a copied file */
		{ "4294967295\n", 4294967295ll },
	};
	json_t *o;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(fa_host_sysctl_decode(good[i].text,
		    strlen(good[i].text), &o, &why), 0);
		assert_null(why);
		assert_int_equal(json_integer_value(json_object_get(o,
		    "value")), good[i].v);
		json_decref(o);
	}
}

static void
decode_bad(void **state)
{
	static const char *const bad[] = {
		"", "\n", "-1\n", "+40\n", " 40\n", "40 \n", "40\n\n",
		"40\t41\n", "0x28\n", "forty\n", "4294967296\n",
		"99999999999999999999\n", "40\n41\n",
	};
	json_t *o;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = NULL;
		if (fa_host_sysctl_decode(bad[i], strlen(bad[i]), &o, &why) !=
		    FA_ERR_INPUT)
			fail_msg("accepted '%s'", bad[i]);
		assert_null(o);
		assert_non_null(why);
		free(why);
	}
	/* A NUL inside is not hidden by the C string. */
	assert_int_equal(fa_host_sysctl_decode("4\0" "0\n", 4, &o, &why),
	    FA_ERR_INPUT);
	free(why);
}

/* The running kernel's own value decodes, and is one libcap can name up
 * to (capabilities(7): cap_last_cap since Linux 3.2). */
static void
own_cap_last_cap(void **state)
{
	struct fa_sysroot r;
	json_t *o;
	char *buf, *why;
	size_t len;
	int rc;

	(void)state;
	assert_int_equal(fa_sysroot_open("/", &r), 0);
	rc = fa_sysroot_read(&r, FA_SYSCTL_CAP_LAST_CAP, FA_HOST_SYSCTL_MAX,
	    &buf, &len);
	fa_sysroot_close(&r);
	if (rc != 0)
		skip();		/* a sandbox without it */
	assert_int_equal(fa_host_sysctl_decode(buf, len, &o, &why), 0);
	free(buf);
	assert_in_range(json_integer_value(json_object_get(o, "value")), 30,
	    63);
	json_decref(o);
}

static const struct fa_obs *
find(const struct fa_snapshot *s, const char *path)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_SYSCTL,
	    path);

	assert_non_null(o);
	return o;
}

static void
collect(void **state)
{
	char dir[] = "/tmp/fa-hostsysctl-XXXXXX";
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	size_t it = 0;

	(void)state;
	scratch_new(dir);
	assert_non_null(s = fa_snapshot_new());
	scratch_put(dir, "/proc/self/status", "Uid:\t0\t0\t0\t0\n"
	    "CapEff:\t0000001fffffffff\nCapBnd:\t0000001fffffffff\n");
	scratch_put(dir, FA_SYSCTL_CAP_LAST_CAP, "36\n");
	scratch_put(dir, FA_SYSCTL_OVERFLOWUID, "65534 junk\n");
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_int_equal(fa_host_collect_proc(&r, s), 0);
	fa_sysroot_close(&r);

	o = find(s, FA_SYSCTL_CAP_LAST_CAP);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(o->family, FA_FAM_HOST);
	assert_int_equal(json_integer_value(json_object_get(o->data,
	    "value")), 36);
	o = find(s, FA_SYSCTL_OVERFLOWUID);
	assert_int_equal(o->state, FA_OBS_ERROR);
	assert_non_null(strstr(o->reason, FA_SYSCTL_OVERFLOWUID));
	o = find(s, FA_SYSCTL_OVERFLOWGID);
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	/* The status is still one observation, complete. */
	o = fa_snapshot_next(s, "host.proc.status", &it);
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_null(fa_snapshot_next(s, "host.proc.status", &it));
	fa_snapshot_free(s);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decode_good),
		cmocka_unit_test(decode_bad),
		cmocka_unit_test(own_cap_last_cap),
		cmocka_unit_test(collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
