/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for namespace identity (fabric/host_ns.c): link parsing, the
 * initial-namespace rule per type and kernel release, fixture trees
 * standing for a container that shares the host's pid and ipc namespaces
 * on kernels before and after 6.18, an empty tree, and this process's own
 * links.
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
#include "../../fabric/host_ns.h"
#include "scratch_tree.h"

static void
parse(void **state)
{
	uint64_t ino;

	(void)state;
	assert_int_equal(fa_ns_link_parse("pid:[4026531836]", "pid", &ino), 0);
	assert_true(ino == 4026531836u);
	assert_int_equal(fa_ns_link_parse("pid:[4026531836]", "net", &ino),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ns_link_parse("pid:[]", "pid", &ino),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ns_link_parse("pid:[12]x", "pid", &ino),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ns_link_parse("pid:[0]", "pid", &ino),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ns_link_parse("pid:[99999999999999999999]", "pid",
	    &ino), FA_ERR_INPUT);
	assert_int_equal(fa_ns_link_parse("pidx:[1]", "pid", &ino),
	    FA_ERR_INPUT);
}

/*
 * The fixed numbers of uapi linux/nsfs.h (enum init_ns_ino): net and mnt
 * since 6.18 only; any other number is dynamic (>= 0xF0000000).
 */
static void
initial_rule(void **state)
{
	static const struct {
		const char	*type;
		uint64_t	 ino;
		unsigned	 major, minor;
		int		 want;
	} t[] = {
		{ "pid", 0xEFFFFFFCu, 0, 0, 1 },	/* kernel unknown */
		{ "pid", 4026532299u, 0, 0, 0 },
		{ "pid", 4026532299u, 5, 15, 0 },
		{ "cgroup", 0xEFFFFFFBu, 5, 15, 1 },
		{ "cgroup", 4026532301u, 0, 0, 0 },	/* fixed since born */
		{ "time", 4026532301u, 5, 6, 0 },
		{ "net", 0xEFFFFFF9u, 6, 18, 1 },
		{ "net", 0xEFFFFFF9u, 0, 0, 1 },	/* fixed: proof */
		{ "net", 4026531840u, 6, 1, -1 },	/* 6.1: no verdict */
		{ "net", 4026532302u, 6, 18, 0 },
		{ "net", 4026532302u, 7, 0, 0 },
		{ "mnt", 0xEFFFFFF8u, 6, 18, 1 },
		{ "mnt", 4026531841u, 6, 17, -1 },
		{ "mnt", 4026532296u, 6, 18, 0 },
		{ "ipc", 0xEFFFFFFFu, 3, 8, 1 },
		{ "uts", 0xEFFFFFFEu, 3, 8, 1 },
		{ "user", 0xEFFFFFFDu, 3, 8, 1 },
		{ "bogus", 1, 6, 18, -1 },
	};
	const char *since;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int got = fa_ns_is_initial(t[i].type, t[i].ino, t[i].major,
		    t[i].minor, &since);

		if (got != t[i].want)
			fail_msg("%s %llu on %u.%u: got %d, want %d",
			    t[i].type, (unsigned long long)t[i].ino,
			    t[i].major, t[i].minor, got, t[i].want);
	}
	assert_int_equal(fa_ns_is_initial("net", 1, 6, 1, &since), -1);
	assert_string_equal(since, "6.18");
}

static int
is_initial(const struct fa_obs *o, const char *type)
{
	return json_is_true(json_object_get(json_object_get(o->data, type),
	    "initial"));
}

static void
fixture(void **state)
{
	char dir[] = "/tmp/fa-hostns-XXXXXX", p[256];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;

	(void)state;
	scratch_new(dir);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ns(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	fa_snapshot_free(s);

	snprintf(p, sizeof(p), "mkdir -p %s/proc/self/ns && cd %s/proc/self/ns"
	    " && ln -s 'pid:[4026531836]' pid && ln -s 'ipc:[4026531839]' ipc"
	    " && ln -s 'uts:[4026532301]' uts && ln -s 'net:[4026531840]' net"
	    " && ln -s 'user:[junk' user", dir, dir);
	assert_int_equal(system(p), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ns(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_true(is_initial(o, "pid"));
	assert_true(is_initial(o, "ipc"));
	assert_false(is_initial(o, "uts"));
	/* net has no fixed number: the inode only, no verdict. */
	assert_null(json_object_get(json_object_get(o->data, "net"),
	    "initial"));
	assert_non_null(json_object_get(json_object_get(o->data, "user"),
	    "unreadable"));
	assert_null(json_object_get(o->data, "mnt"));
	fa_snapshot_free(s);

	/* The same links on 6.18: net 4026531840 is dynamic, so private;
	 * mnt with the fixed number is the host's. */
	snprintf(p, sizeof(p), "mkdir -p %s/proc/sys/kernel && echo "
	    "6.18.44-fc-v1147 >%s/proc/sys/kernel/osrelease && cd "
	    "%s/proc/self/ns && ln -s 'mnt:[4026531832]' mnt", dir, dir, dir);
	assert_int_equal(system(p), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ns(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	assert_string_equal(fa_json_get_str(o->data, "kernel"), "6.18");
	assert_true(json_is_false(json_object_get(json_object_get(o->data,
	    "net"), "initial")));
	assert_true(is_initial(o, "mnt"));
	fa_snapshot_free(s);

	/* On 6.1 the dynamic net inode gives no verdict, and says why. */
	snprintf(p, sizeof(p), "echo 6.1.0-27-amd64 "
	    ">%s/proc/sys/kernel/osrelease", dir);
	assert_int_equal(system(p), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ns(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	assert_null(json_object_get(json_object_get(o->data, "net"),
	    "initial"));
	assert_non_null(strstr(fa_json_get_str(json_object_get(o->data, "net"),
	    "initial_unknown"), "6.1 predates 6.18"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* The real magic links are read as text, never followed. */
static void
own(void **state)
{
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;

	(void)state;
	assert_int_equal(fa_sysroot_open("/", &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_ns(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_non_null(json_object_get(json_object_get(o->data, "pid"),
	    "inode"));
	assert_non_null(json_object_get(json_object_get(o->data, "mnt"),
	    "inode"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(initial_rule),
		cmocka_unit_test(fixture),
		cmocka_unit_test(own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
