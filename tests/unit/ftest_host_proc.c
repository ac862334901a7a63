/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the /proc/PID/status decoder and collector
 * (fabric/host_proc.c): this process's own status file, a privileged
 * container's, hostile variants, and collection through a sysroot
 * (missing, malformed, complete).
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

#define PRIV_STATUS \
	"Name:\tbash\nUmask:\t0022\nState:\tS (sleeping)\n" \
	"Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n" \
	"CapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\n" \
	"CapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n" \
	"CapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\n" \
	"Seccomp_filters:\t0\nSpeculation_Store_Bypass:\tvulnerable\n"

static json_t *
decode(const char *text, char **why)
{
	json_t *o = NULL;

	*why = NULL;
	if (fa_host_status_decode(text, strlen(text), &o, why) != 0)
		assert_null(o);
	return o;
}

static void
own_status(void **state)
{
	struct fa_sysroot r;
	long long v;
	uint64_t m;
	json_t *o;
	size_t len;
	char *buf, *why;

	(void)state;
	assert_int_equal(fa_sysroot_open("/", &r), 0);
	assert_int_equal(fa_sysroot_read(&r, "/proc/self/status",
	    FA_HOST_STATUS_MAX, &buf, &len), 0);
	fa_sysroot_close(&r);
	o = decode(buf, &why);
	if (o == NULL)
		fail_msg("own status: %s", why);
	assert_int_equal(fa_json_get_int(o, "no_new_privs", 0, 1, &v), 0);
	assert_int_equal(fa_json_get_u64(o, "cap_bnd", &m), 0);
	assert_int_equal(json_array_size(json_object_get(o, "uid")), 4);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(o, "uid"), 1)), geteuid());
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(o, "gid"), 1)), getegid());
	assert_true(json_is_array(json_object_get(o, "groups")));
	json_decref(o);
	free(buf);
}

/* Gid is four ids like Uid; Groups a list that may be empty. */
static void
groups(void **state)
{
	json_t *o;
	char *why;

	(void)state;
	o = decode("Uid:\t1000\t1000\t1000\t1000\nGid:\t1000\t999\t1000\t1000\n"
	    "Groups:\t4 24 998 \nCapEff:\t0\n", &why);
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(o, "gid"), 1)), 999);
	assert_int_equal(json_array_size(json_object_get(o, "groups")), 3);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(o, "groups"), 2)), 998);
	json_decref(o);
	o = decode("Uid:\t0\t0\t0\t0\nGroups:\t\nCapEff:\t0\n", &why);
	assert_int_equal(json_array_size(json_object_get(o, "groups")), 0);
	json_decref(o);
	assert_null(decode("Uid:\t0\t0\t0\t0\nGroups:\t4 x\nCapEff:\t0\n",
	    &why));
	free(why);
	assert_null(decode("Uid:\t0\t0\t0\t0\nGroups:\t4294967296\n"
	    "CapEff:\t0\n", &why));
	free(why);
	assert_null(decode("Uid:\t0\t0\t0\t0\nGid:\t0\t0\nCapEff:\t0\n",
	    &why));
	free(why);
}

static void
privileged(void **state)
{
	long long v;
	uint64_t m;
	json_t *o;
	char *why;

	(void)state;
	o = decode(PRIV_STATUS, &why);
	assert_non_null(o);
	assert_int_equal(fa_json_get_u64(o, "cap_eff", &m), 0);
	assert_true(m == UINT64_C(0x1ffffffffff));
	assert_int_equal(fa_json_get_u64(o, "cap_amb", &m), 0);
	assert_true(m == 0);
	assert_int_equal(fa_json_get_int(o, "seccomp", 0, 2, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(o, "uid"), 0)), 0);
	json_decref(o);
	/* gVisor-like: no NoNewPrivs or Seccomp line: absent, not 0. */
	o = decode("Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0\n", &why);
	assert_non_null(o);
	assert_null(json_object_get(o, "seccomp"));
	assert_null(json_object_get(o, "no_new_privs"));
	json_decref(o);
}

static void
hostile(void **state)
{
	static const char *const bad[] = {
		"",
		"Uid:\t0\t0\t0\t0\n",				/* no CapEff */
		"CapEff:\t0\n",					/* no Uid */
		"Uid:\t0\t0\t0\nCapEff:\t0\n",			/* 3 ids */
		"Uid:\t0\t0\t0\t0\t0\nCapEff:\t0\n",		/* 5 ids */
		"Uid:\t0x0\t0\t0\t0\nCapEff:\t0\n",
		"Uid:\t-1\t0\t0\t0\nCapEff:\t0\n",
		"Uid:\t4294967296\t0\t0\t0\nCapEff:\t0\n",
		"Uid:\t0\t0\t0\t0\nCapEff:\tzz\n",
		"Uid:\t0\t0\t0\t0\nCapEff:\t0\nCapEff:\t0\n",	/* twice */
		"Uid:\t0\t0\t0\t0\nCapEff:\t10000000000000000\n",
		"Uid:\t0\t0\t0\t0\nCapEff:\t0\nSeccomp:\t3\n",
		"Uid:\t0\t0\t0\t0\nCapEff:\t0\nNoNewPrivs:\t2\n",
		"Uid:\t0\t0\t0\t0\nCapEff:\t0\nno colon here\n",
	};
	char big[FA_HOST_STATUS_MAX + 2], *why;
	json_t *o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = decode(bad[i], &why);
		if (o != NULL)
			fail_msg("accepted case %zu", i);
		assert_non_null(why);
		free(why);
	}
	assert_int_equal(fa_host_status_decode("Uid:\t0\0", 7, &o, &why),
	    FA_ERR_INPUT);
	free(why);
	memset(big, 'A', sizeof(big));
	assert_int_equal(fa_host_status_decode(big, sizeof(big), &o, &why),
	    FA_ERR_INPUT);
	free(why);
}

static void
collect(void **state)
{
	char dir[] = "/tmp/fa-hostproc-XXXXXX";
	const struct fa_obs *ob;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	size_t it = 0;

	(void)state;
	scratch_new(dir);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	/* Missing: not collected, with the path in the reason. */
	assert_int_equal(fa_host_collect_proc(&r, s), 0);
	scratch_put(dir, "/proc/self/status", "Uid:\tnobody\n");
	assert_int_equal(fa_host_collect_proc(&r, s), 0);
	scratch_put(dir, "/proc/self/status", PRIV_STATUS);
	assert_int_equal(fa_host_collect_proc(&r, s), 0);
	fa_sysroot_close(&r);

	ob = fa_snapshot_next(s, "host.proc.status", &it);
	assert_non_null(ob);
	assert_int_equal(ob->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(ob->reason, "/proc/self/status"));
	ob = fa_snapshot_next(s, "host.proc.status", &it);
	assert_int_equal(ob->state, FA_OBS_ERROR);
	assert_non_null(strstr(ob->reason, "line 1: Uid"));
	ob = fa_snapshot_next(s, "host.proc.status", &it);
	assert_int_equal(ob->state, FA_OBS_COMPLETE);
	assert_int_equal(ob->family, FA_FAM_HOST);
	assert_string_equal(fa_json_get_str(ob->data, "cap_eff"),
	    "0x000001ffffffffff");
	assert_null(fa_snapshot_next(s, "host.proc.status", &it));
	fa_snapshot_free(s);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_status),
		cmocka_unit_test(groups),
		cmocka_unit_test(privileged),
		cmocka_unit_test(hostile),
		cmocka_unit_test(collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
