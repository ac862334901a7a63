/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the mountinfo decoder and collector
 * (fabric/host_mounts.c): this process's own mounts, a privileged
 * container's (docker.sock, the host's /, cgroup v1), escapes, and
 * tables of nothing but malformed lines (see ftest_host_mounts_table.c for
 * the table of lines, each kept or skipped).
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
#include "../../fabric/host_mounts.h"

#define CONTAINER \
	"1466 1178 0:181 / / rw,relatime master:510 - overlay overlay " \
	"rw,lowerdir=/var/lib/docker/overlay2/l/A,upperdir=/u,workdir=/w\n" \
	"1470 1466 0:186 / /sys ro,nosuid,nodev,noexec,relatime - sysfs " \
	"sysfs ro\n" \
	"1480 1470 0:33 / /sys/fs/cgroup/memory rw,nosuid master:12 " \
	"shared:7 - cgroup cgroup rw,memory,release_agent=/x\n" \
	"1490 1466 8:1 /var/run/docker.sock /run/docker.sock rw,relatime - " \
	"ext4 /dev/sda1 rw\n" \
	"1491 1466 8:1 / /host rw,relatime - ext4 /dev/sda1 rw\n" \
	"1492 1466 8:1 /data/my\\040dir /mnt/a\\134b rw - ext4 /dev/sda1 rw\n"

/* The "mounts" array of the decoded text (a new reference), or NULL. */
static json_t *
decode(const char *text, char **why)
{
	json_t *o = NULL, *a;

	*why = NULL;
	if (fa_mountinfo_decode(text, strlen(text), &o, why) != 0) {
		assert_null(o);
		return NULL;
	}
	a = json_incref(json_object_get(o, "mounts"));
	json_decref(o);
	return a;
}

static const char *
field(json_t *a, size_t i, const char *k)
{
	return json_string_value(json_object_get(json_array_get(a, i), k));
}

static void
container(void **state)
{
	json_t *a;
	char *why;

	(void)state;
	a = decode(CONTAINER, &why);
	if (a == NULL)
		fail_msg("%s", why);
	assert_int_equal(json_array_size(a), 6);
	assert_string_equal(field(a, 0, "fstype"), "overlay");
	assert_string_equal(field(a, 1, "mount_point"), "/sys");
	assert_true(json_is_true(json_object_get(json_array_get(a, 1),
	    "read_only")));
	assert_true(json_is_false(json_object_get(json_array_get(a, 0),
	    "read_only")));
	/* Two optional fields before "-". */
	assert_string_equal(field(a, 2, "fstype"), "cgroup");
	assert_string_equal(field(a, 2, "super_options"),
	    "rw,memory,release_agent=/x");
	assert_string_equal(field(a, 3, "root"), "/var/run/docker.sock");
	assert_string_equal(field(a, 3, "device"), "8:1");
	assert_string_equal(field(a, 4, "mount_point"), "/host");
	/* \040 is a space; \134 a backslash, shown escaped. */
	assert_string_equal(field(a, 5, "root"), "/data/my dir");
	assert_string_equal(field(a, 5, "mount_point"), "/mnt/a\\x5cb");
	json_decref(a);
}

static void
own_mounts(void **state)
{
	struct fa_snapshot *s;
	struct fa_sysroot r;
	const struct fa_obs *o;
	size_t it = 0;

	(void)state;
	assert_int_equal(fa_sysroot_open("/", &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_mounts(&r, s), 0);
	o = fa_snapshot_next(s, FA_KIND_HOST_MOUNTS, &it);
	assert_non_null(o);
	if (o->state != FA_OBS_COMPLETE)
		fail_msg("own mountinfo: %s", o->reason);
	assert_true(json_array_size(json_object_get(o->data, "mounts")) > 0);
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
}

static void
hostile(void **state)
{
	static const char *const bad[] = {
		"",
		"1 2 0:1 / / rw - ext4\n",			/* short */
		"1 2 0:1 / / rw shared:1 ext4 /dev/x rw\n",	/* no "-" */
		"x 2 0:1 / / rw - ext4 /dev/x rw\n",
		"1 2 0-1 / / rw - ext4 /dev/x rw\n",
		"1 2 0:1 / rel rw - ext4 /dev/x rw\n",
		"1 2 0:1 / /a\\9 rw - ext4 /dev/x rw\n",
		"1 2 0:1 / /a\\000 rw - ext4 /dev/x rw\n",
		"1 2 0:1 / /a\\04 rw - ext4 /dev/x rw\n",
		"1 2 0:1 / / rw - ext4 /dev/x\n",		/* no super */
		"\n",
	};
	char *why;
	json_t *a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = decode(bad[i], &why);
		if (a != NULL)
			fail_msg("accepted case %zu", i);
		assert_non_null(why);
		free(why);
	}
	assert_int_equal(fa_mountinfo_decode("1 2\0", 4, &a, &why),
	    FA_ERR_INPUT);
	free(why);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(container),
		cmocka_unit_test(own_mounts),
		cmocka_unit_test(hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
