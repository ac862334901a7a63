/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for sysroot-confined reads (fabric/host_fs.c) on a scratch
 * tree: absolute and ".." symlinks stay inside the sysroot, magic links
 * are refused, devices and FIFOs are never opened, reads are bounded, and
 * listings are sorted and bounded.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "../../fabric/host_fs.h"

struct tree {
	char	outside[64];	/* a directory next to the sysroot */
	char	root[96];
};

static void
put(const char *dir, const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_non_null(f = fopen(p, "w"));
	assert_int_equal(fputs(text, f) < 0, 0);
	assert_int_equal(fclose(f), 0);
}

static void
sub(const char *dir, const char *rel, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", dir, rel);
}

static int
setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char p[256];

	assert_non_null(t);
	snprintf(t->outside, sizeof(t->outside), "/tmp/fa-hostfs-XXXXXX");
	assert_non_null(mkdtemp(t->outside));
	put(t->outside, "secret", "outside the sysroot\n");
	sub(t->outside, "root", t->root, sizeof(t->root));
	assert_int_equal(mkdir(t->root, 0755), 0);
	sub(t->root, "etc", p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
	sub(t->root, "dev", p, sizeof(p));
	assert_int_equal(mkdir(p, 0755), 0);
	put(t->root, "etc/os-release", "ID=debian\nVERSION_ID=\"12\"\n");
	put(t->root, "secret", "the sysroot's own\n");
	/* Links that would leave the sysroot if resolved on the real root. */
	sub(t->root, "etc/abs", p, sizeof(p));
	assert_int_equal(symlink("/secret", p), 0);
	sub(t->root, "etc/up", p, sizeof(p));
	assert_int_equal(symlink("../../../../../secret", p), 0);
	sub(t->root, "etc/self", p, sizeof(p));
	assert_int_equal(symlink("/proc/self/root/etc/hostname", p), 0);
	sub(t->root, "dev/fifo", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0600), 0);
	*state = t;
	return 0;
}

static int
teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->outside);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

static void
reads_inside_root(void **state)
{
	struct tree *t = *state;
	struct fa_sysroot r;
	size_t len;
	char *b;

	assert_int_equal(fa_sysroot_open(t->root, &r), 0);
	assert_int_equal(fa_sysroot_read(&r, "/etc/os-release", 1024, &b,
	    &len), 0);
	assert_int_equal(len, strlen("ID=debian\nVERSION_ID=\"12\"\n"));
	assert_string_equal(b, "ID=debian\nVERSION_ID=\"12\"\n");
	free(b);
	/* An absolute symlink and a ".." walk both land in the sysroot. */
	assert_int_equal(fa_sysroot_read(&r, "/etc/abs", 1024, &b, &len), 0);
	assert_string_equal(b, "the sysroot's own\n");
	free(b);
	assert_int_equal(fa_sysroot_read(&r, "/etc/up", 1024, &b, &len), 0);
	assert_string_equal(b, "the sysroot's own\n");
	free(b);
	assert_int_equal(fa_sysroot_read(&r, "/../../secret", 1024, &b, &len),
	    0);
	assert_string_equal(b, "the sysroot's own\n");
	free(b);
	fa_sysroot_close(&r);
}

static void
refusals(void **state)
{
	struct tree *t = *state;
	struct fa_sysroot r;
	size_t len;
	char *b = NULL;

	assert_int_equal(fa_sysroot_open(t->root, &r), 0);
	assert_int_equal(fa_sysroot_read(&r, "/etc/missing", 1024, &b, &len),
	    FA_ERR_NOTFOUND);
	assert_int_equal(fa_sysroot_read(&r, "/etc/os-release/x", 1024, &b,
	    &len), FA_ERR_NOTFOUND);
	assert_int_equal(fa_sysroot_read(&r, "etc/os-release", 1024, &b, &len),
	    FA_ERR_INPUT);	/* relative */
	/* A FIFO is not opened (an open for reading would block). */
	assert_int_equal(fa_sysroot_read(&r, "/dev/fifo", 1024, &b, &len),
	    FA_ERR_INPUT);
	assert_int_equal(fa_sysroot_read(&r, "/etc", 1024, &b, &len),
	    FA_ERR_INPUT);
	/* Bounded: 26 bytes do not fit in 25. */
	assert_int_equal(fa_sysroot_read(&r, "/etc/os-release", 25, &b, &len),
	    FA_ERR_TOOBIG);
	assert_null(b);
	fa_sysroot_close(&r);

	/* On the real root, the same magic link is refused, not followed. */
	assert_int_equal(fa_sysroot_open("/", &r), 0);
	assert_int_equal(fa_sysroot_read(&r, "/proc/self/root/etc/hostname",
	    1024, &b, &len), FA_ERR_IO);
	assert_int_equal(errno, ELOOP);
	/* A character device is never opened. */
	assert_int_equal(fa_sysroot_read(&r, "/dev/null", 1024, &b, &len),
	    FA_ERR_INPUT);
	fa_sysroot_close(&r);

	assert_int_equal(fa_sysroot_open("/nonexistent-fa", &r),
	    FA_ERR_NOTFOUND);
	assert_int_equal(fa_sysroot_open("/etc/hostname", &r), FA_ERR_INPUT);
	assert_int_equal(fa_sysroot_open("", &r), FA_ERR_INPUT);
}

static void
stat_and_links(void **state)
{
	struct tree *t = *state;
	struct fa_sysroot r;
	struct stat st;
	char *s;

	assert_int_equal(fa_sysroot_open(t->root, &r), 0);
	assert_int_equal(fa_sysroot_stat(&r, "/etc/abs", 0, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(fa_sysroot_stat(&r, "/etc/abs", 1, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, strlen("the sysroot's own\n"));
	assert_int_equal(fa_sysroot_stat(&r, "/dev/fifo", 1, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(fa_sysroot_stat(&r, "/", 1, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(fa_sysroot_readlink(&r, "/etc/self", &s), 0);
	assert_string_equal(s, "/proc/self/root/etc/hostname");
	free(s);
	assert_int_equal(fa_sysroot_readlink(&r, "/etc/os-release", &s),
	    FA_ERR_INPUT);
	assert_int_equal(fa_sysroot_readlink(&r, "/etc/nope", &s),
	    FA_ERR_NOTFOUND);
	fa_sysroot_close(&r);
}

static void
listing(void **state)
{
	struct tree *t = *state;
	struct fa_sysroot r;
	char **names;
	size_t n;

	assert_int_equal(fa_sysroot_open(t->root, &r), 0);
	assert_int_equal(fa_sysroot_list(&r, "/etc", 10, &names, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "abs");
	assert_string_equal(names[1], "os-release");
	assert_string_equal(names[2], "self");
	assert_string_equal(names[3], "up");
	assert_null(names[4]);
	fa_sysroot_names_free(names);
	assert_int_equal(fa_sysroot_list(&r, "/etc", 3, &names, &n),
	    FA_ERR_TOOBIG);
	assert_int_equal(fa_sysroot_list(&r, "/etc/os-release", 3, &names, &n),
	    FA_ERR_NOTFOUND);
	fa_sysroot_close(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_inside_root),
		cmocka_unit_test(refusals),
		cmocka_unit_test(stat_and_links),
		cmocka_unit_test(listing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
