/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the dpkg status reader (fabric/host_dpkg.c): upstream
 * versions from real Debian, Docker and NVIDIA package versions, stanza
 * parsing (continuations, removed packages, malformed stanzas, hostile
 * text), and collection through a scratch sysroot.
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
#include "../../fabric/host_dpkg.h"
#include "scratch_tree.h"

#define STATUS \
	"Package: runc\nStatus: install ok installed\nPriority: optional\n" \
	"Version: 1.1.5+ds1-1+deb12u1\nDescription: Open Container Project\n" \
	" runc is a CLI tool\n .\n spawning containers\n\n" \
	"Package: docker-ce\nStatus: install ok installed\n" \
	"Version: 5:27.3.1-1~debian.12~bookworm\n\n" \
	"Package: containerd\nStatus: deinstall ok config-files\n" \
	"Version: 1.6.20~ds1-1+b1\n\n" \
	"Package: nvidia-container-toolkit\nStatus: install ok installed\n" \
	"Version: 1.17.7-1\n\n" \
	"Package: BAD_NAME\nStatus: install ok installed\nVersion: 1.0\n\n" \
	"Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u9\n"

static void
upstream(void **state)
{
	static const char *const ok[][2] = {
		{ "1.1.12+ds1-5+deb12u1", "1.1.12" },
		{ "5:27.3.1-1~debian.12~bookworm", "27.3.1" },
		{ "1.0.0~rc93+ds1-1", "1.0.0-rc93" },
		{ "1.17.8-1", "1.17.8" },
		{ "1.7.22-1", "1.7.22" },
		{ "20.10.24+dfsg1-1+b3", "20.10.24" },
		{ "2.1.0", "2.1.0" },
	};
	char out[FA_VERSION_MAX + 1];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(fa_dpkg_upstream(ok[i][0], out, sizeof(out)),
		    0);
		assert_string_equal(out, ok[i][1]);
	}
	assert_int_equal(fa_dpkg_upstream("x1.0", out, sizeof(out)),
	    FA_ERR_INPUT);
	assert_int_equal(fa_dpkg_upstream("1:+ds-1", out, sizeof(out)),
	    FA_ERR_INPUT);
	assert_int_equal(fa_dpkg_upstream("1.0", out, 8), FA_ERR_INPUT);
}

struct seen {
	char	 text[512];
};

static int
note(void *arg, const char *package, const char *version)
{
	struct seen *s = arg;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s=%s;", package, version);
	return 0;
}

static int
stop(void *arg, const char *package, const char *version)
{
	(void)arg;
	(void)version;
	return strcmp(package, "docker-ce") == 0 ? FA_ERR_NOMEM : 0;
}

static void
stanzas(void **state)
{
	struct seen s = { "" };
	size_t skipped;
	char *why;

	(void)state;
	assert_int_equal(fa_dpkg_each_installed(STATUS, strlen(STATUS), note,
	    &s, &skipped, &why), 0);
	assert_string_equal(s.text, "runc=1.1.5+ds1-1+deb12u1;"
	    "docker-ce=5:27.3.1-1~debian.12~bookworm;"
	    "nvidia-container-toolkit=1.17.7-1;libc6=2.36-9+deb12u9;");
	assert_int_equal(skipped, 1);
	/* The callback's error stops the walk and is returned. */
	assert_int_equal(fa_dpkg_each_installed(STATUS, strlen(STATUS), stop,
	    NULL, &skipped, &why), FA_ERR_NOMEM);
	/* Not deb822. */
	assert_int_equal(fa_dpkg_each_installed("Package: a\nno colon\n", 20,
	    note, &s, &skipped, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "line 2: not a field"));
	free(why);
	assert_int_equal(fa_dpkg_each_installed("Package: a\0\n", 12, note,
	    &s, &skipped, &why), FA_ERR_INPUT);
	free(why);
	/* Empty: nothing installed, not an error. */
	s.text[0] = '\0';
	assert_int_equal(fa_dpkg_each_installed("", 0, note, &s, &skipped,
	    &why), 0);
	assert_string_equal(s.text, "");
}

static void
collect(void **state)
{
	char dir[] = "/tmp/fa-hostdpkg-XXXXXX";
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	long long n;

	(void)state;
	scratch_new(dir);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_dpkg(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(o->reason, "not a dpkg-based system"));
	fa_snapshot_free(s);

	scratch_put(dir, "/var/lib/dpkg/status", STATUS);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_dpkg(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(fa_json_get_int(o->data, "packages", 0, 100, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(fa_json_get_int(o->data, "skipped", 0, 100, &n), 0);
	assert_int_equal(n, 1);
	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:docker-ce");
	assert_non_null(o);
	assert_string_equal(fa_json_get_str(o->data, "component"), "docker");
	assert_string_equal(fa_json_get_str(o->data, "upstream"), "27.3.1");
	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:runc");
	assert_string_equal(fa_json_get_str(o->data, "version"),
	    "1.1.5+ds1-1+deb12u1");
	assert_string_equal(fa_json_get_str(o->data, "upstream"), "1.1.5");
	assert_null(fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:libc6"));
	assert_null(fa_snapshot_find(s, FA_KIND_HOST_PACKAGE,
	    "dpkg:containerd"));	/* removed, config files only */
	fa_snapshot_free(s);

	/* Malformed database: an error observation for "dpkg". */
	scratch_put(dir, "/var/lib/dpkg/status", "garbage\n");
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_dpkg(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg");
	assert_int_equal(o->state, FA_OBS_ERROR);
	assert_non_null(strstr(o->reason, "line 1: not a field"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* This machine's own database (make check runs on Debian): read whole,
 * no installed stanza refused. */
static void
real_database(void **state)
{
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	long long n;

	(void)state;
	assert_int_equal(fa_sysroot_open("/", &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_dpkg(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg");
	assert_non_null(o);
	if (o->state != FA_OBS_COMPLETE)
		fail_msg("/var/lib/dpkg/status: %s", o->reason);
	assert_int_equal(fa_json_get_int(o->data, "skipped", 0, 0, &n), 0);
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(upstream),
		cmocka_unit_test(stanzas),
		cmocka_unit_test(collect),
		cmocka_unit_test(real_database),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
