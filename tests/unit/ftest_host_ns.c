/*
 * Unit tests for namespace identity (fabric/host_ns.c): link parsing, a
 * fixture tree standing for a container that shares the host's pid and
 * ipc namespaces, an empty tree, and this process's own links.
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
		cmocka_unit_test(fixture),
		cmocka_unit_test(own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
