/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A table of dpkg status stanzas, one per Status dpkg writes and per way a
 * stanza can be malformed, each with what the reader must make of it
 * (fabric/host_dpkg.c).  The format: deb822(5) stanzas separated by empty
 * lines, field names case-insensitive, continuation lines starting with a
 * space or tab; the Status field is three words, "want eflag status"
 * (dpkg(1) "INFORMATION ABOUT PACKAGES": package selection states unknown,
 * install, hold, deinstall, purge; package flags ok, reinstreq; package
 * states not-installed, config-files, half-installed, unpacked,
 * half-configured, triggers-awaited, triggers-pending, installed;
 * dpkg-query(1) db:Status-Want, db:Status-Eflag, db:Status-Status).  The
 * stanzas are written here after that format; none is copied from a
 * machine.
 *
 * Every stanza is read between two ordinary ones, so a stanza skipped must
 * leave both in place (the reader of before this table refused the whole
 * database for one line it did not expect, and took only "install ok
 * installed" for installed).
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

#define BEFORE \
	"Package: aaa\nStatus: install ok installed\nVersion: 1.0-1\n" \
	"Description: before\n the stanza under test\n\n"
#define AFTER \
	"\nPackage: zzz\nStatus: install ok installed\nVersion: 2.0-1\n"

enum { ABSENT = FA_DPKG_ABSENT, PRESENT = FA_DPKG_PRESENT,
    UNCERTAIN = FA_DPKG_UNCERTAIN };

struct row {
	const char	*name;
	const char	*stanza;	/* ends with '\n' */
	const char	*skip;		/* NULL: read; else part of the reason */
	int		 presence;
	const char	*want, *eflag, *state;
};

#define PKG	"Package: runc\nArchitecture: amd64\n"
#define VER	"Version: 1.1.5+ds1-1+deb12u1\n"

static const struct row rows[] = {
	/* Files on disk at Version: present, with their state. */
	{ "installed", PKG "Status: install ok installed\n" VER, NULL,
	  PRESENT, "install", "ok", "installed" },
	{ "on hold, installed", PKG "Status: hold ok installed\n" VER, NULL,
	  PRESENT, "hold", "ok", "installed" },
	{ "half-configured", PKG "Status: install ok half-configured\n" VER,
	  NULL, PRESENT, "install", "ok", "half-configured" },
	{ "unpacked, not configured", PKG "Status: install ok unpacked\n"
	  VER, NULL, PRESENT, "install", "ok", "unpacked" },
	{ "triggers-pending", PKG "Status: install ok triggers-pending\n"
	  "Triggers-Pending: /usr/share/man\n" VER, NULL, PRESENT, "install",
	  "ok", "triggers-pending" },
	{ "triggers-awaited", PKG "Status: install ok triggers-awaited\n"
	  "Triggers-Awaited: man-db\n" VER, NULL, PRESENT, "install", "ok",
	  "triggers-awaited" },
	{ "selected for removal, still installed",
	  PKG "Status: deinstall ok installed\n" VER, NULL, PRESENT,
	  "deinstall", "ok", "installed" },
	{ "selected for purge, still installed",
	  PKG "Status: purge ok installed\n" VER, NULL, PRESENT, "purge",
	  "ok", "installed" },
	{ "selection unknown, installed", PKG "Status: unknown ok installed\n"
	  VER, NULL, PRESENT, "unknown", "ok", "installed" },
	{ "words in capitals (dpkg ignores case)",
	  PKG "Status: Install OK Installed\n" VER, NULL, PRESENT, "install",
	  "ok", "installed" },
	{ "words apart by several blanks",
	  PKG "Status: hold  ok\tinstalled  \n" VER, NULL, PRESENT, "hold",
	  "ok", "installed" },
	{ "field names in any case",
	  "package: runc\nSTATUS: install ok installed\nversion: 1.1.5-1\n",
	  NULL, PRESENT, "install", "ok", "installed" },
	/* Files on disk of no certain version. */
	{ "half-installed", PKG "Status: install ok half-installed\n" VER,
	  NULL, UNCERTAIN, "install", "ok", "half-installed" },
	{ "half-installed, reinstallation required",
	  PKG "Status: install reinstreq half-installed\n" VER, NULL,
	  UNCERTAIN, "install", "reinstreq", "half-installed" },
	{ "unpacked, reinstallation required",
	  PKG "Status: install reinstreq unpacked\n" VER, NULL, UNCERTAIN,
	  "install", "reinstreq", "unpacked" },
	{ "removal interrupted", PKG "Status: deinstall ok half-installed\n"
	  VER, NULL, UNCERTAIN, "deinstall", "ok", "half-installed" },
	/* No program on disk. */
	{ "removed, configuration files left",
	  PKG "Status: deinstall ok config-files\nConfig-Version: 1.1.4-1\n"
	  "Conffiles:\n /etc/runc.conf 0123456789abcdef0123456789abcdef\n",
	  NULL, ABSENT, "deinstall", "ok", "config-files" },
	{ "purged", PKG "Status: purge ok not-installed\n", NULL, ABSENT,
	  "purge", "ok", "not-installed" },
	{ "not installed, selection unknown",
	  PKG "Status: unknown ok not-installed\n", NULL, ABSENT, "unknown",
	  "ok", "not-installed" },
	{ "config-files with a Version", PKG "Status: deinstall ok "
	  "config-files\n" VER, NULL, ABSENT, "deinstall", "ok",
	  "config-files" },
	/* Stanzas that do not parse: skipped, reason kept. */
	{ "four words", PKG "Status: install ok installed now\n" VER,
	  .skip = "three words" },
	{ "two words", PKG "Status: install ok\n" VER, .skip = "three words" },
	{ "empty Status", PKG "Status:\n" VER, .skip = "three words" },
	{ "unknown error flag", PKG "Status: install okay installed\n" VER,
	  .skip = "error flag" },
	{ "unknown state", PKG "Status: install ok configured\n" VER,
	  .skip = "package state" },
	{ "a longer word than dpkg's", PKG "Status: installx ok installed\n"
	  VER, .skip = "selection state" },
	{ "a state word with more after it",
	  PKG "Status: install ok installedx\n" VER, .skip = "package state" },
	{ "no Status", PKG VER, .skip = "no Status" },
	{ "no Package", "Status: install ok installed\n" VER,
	  .skip = "no Package" },
	{ "bad package name", "Package: Bad_Name\nStatus: install ok "
	  "installed\n" VER, .skip = "package name" },
	{ "installed without a Version", PKG "Status: install ok installed\n",
	  .skip = "no Version" },
	{ "installed with a bad Version", PKG "Status: install ok "
	  "installed\nVersion: x1.0\n", .skip = "Version" },
	{ "two Status fields", PKG "Status: install ok installed\n"
	  "Status: deinstall ok config-files\n" VER, .skip = "twice" },
	{ "a line that is not a field", PKG "Status: install ok installed\n"
	  "this line has no colon\n" VER, .skip = "not a field" },
	{ "a continuation line first", " stray continuation\n" PKG
	  "Status: install ok installed\n" VER, .skip = "continuation" },
	{ "a field name with a space", PKG "Status: install ok installed\n"
	  "Bad Field: x\n" VER, .skip = "field name" },
};

struct seen {
	char	 text[2048];
	int	 presence;
	char	 want[16], eflag[16], state[32];
	unsigned line;
};

static int
note(void *arg, const struct fa_dpkg_pkg *p)
{
	struct seen *s = arg;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s=%s;", p->package,
	    p->version);
	if (strcmp(p->package, "runc") == 0) {
		s->presence = p->presence;
		snprintf(s->want, sizeof(s->want), "%s", p->want);
		snprintf(s->eflag, sizeof(s->eflag), "%s", p->eflag);
		snprintf(s->state, sizeof(s->state), "%s", p->state);
		s->line = p->line;
	}
	return 0;
}

static void
table(void **state)
{
	struct fa_dpkg_tally t;
	struct seen s;
	char text[2048];
	const char *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		print_message("row %zu: %s\n", i, rows[i].name);
		memset(&s, 0, sizeof(s));
		s.presence = -1;
		snprintf(text, sizeof(text), "%s%s%s", BEFORE, rows[i].stanza,
		    AFTER);
		assert_int_equal(fa_dpkg_each_package(text, strlen(text), note,
		    &s, &t, NULL), 0);
		assert_int_equal(t.stanzas, 3);
		assert_non_null(strstr(s.text, "aaa=1.0-1;"));
		assert_non_null(strstr(s.text, "zzz=2.0-1;"));
		if (rows[i].skip != NULL) {
			assert_int_equal(s.presence, -1);
			assert_int_equal(t.skipped, 1);
			assert_int_equal(t.nlisted, 1);
			assert_int_equal(t.listed[0].line, 7);
			if (strstr(t.listed[0].why, rows[i].skip) == NULL)
				fail_msg("reason \"%s\" lacks \"%s\"",
				    t.listed[0].why, rows[i].skip);
			continue;
		}
		assert_int_equal(t.skipped, 0);
		assert_int_equal(s.presence, rows[i].presence);
		assert_string_equal(s.want, rows[i].want);
		assert_string_equal(s.eflag, rows[i].eflag);
		assert_string_equal(s.state, rows[i].state);
		assert_int_equal(s.line, 7);
		/* Present packages come with their validated Version. */
		v = strstr(s.text, "runc=");
		assert_non_null(v);
		if (rows[i].presence != ABSENT)
			assert_true(strncmp(v, "runc=1.1.5", 10) == 0);
	}
}

/* fa_dpkg_each_installed: every present package, and only those. */
static int
note_installed(void *arg, const char *package, const char *version)
{
	struct seen *s = arg;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s=%s;", package, version);
	return 0;
}

static void
installed(void **state)
{
	static const char text[] =
	    "Package: runc\nStatus: hold ok installed\nVersion: 1.1.5-1\n\n"
	    "Package: containerd\nStatus: install ok half-configured\n"
	    "Version: 1.6.20~ds1-1\n\n"
	    "Package: docker.io\nStatus: install ok unpacked\n"
	    "Version: 20.10.24+dfsg1-1\n\n"
	    "Package: docker-ce\nStatus: install reinstreq half-installed\n"
	    "Version: 5:27.3.1-1~debian.12~bookworm\n\n"
	    "Package: nvidia-container-toolkit\nStatus: deinstall ok "
	    "config-files\nConfig-Version: 1.17.7-1\n\n"
	    "Package: libnvidia-container1\nStatus: purge ok not-installed\n";
	struct seen s;
	size_t skipped;
	char *why = NULL;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(fa_dpkg_each_installed(text, strlen(text),
	    note_installed, &s, &skipped, &why), 0);
	assert_string_equal(s.text, "runc=1.1.5-1;containerd=1.6.20~ds1-1;"
	    "docker.io=20.10.24+dfsg1-1;");
	assert_int_equal(skipped, 0);
	assert_null(why);
}

/* A broken stanza in the middle of a long database costs that stanza. */
static void
middle(void **state)
{
	size_t cap = 200 * 128, i;
	char *text = malloc(cap);
	struct fa_dpkg_tally t;
	struct seen s;

	(void)state;
	assert_non_null(text);
	text[0] = '\0';
	for (i = 0; i < 100; i++)
		snprintf(text + strlen(text), cap - strlen(text), "%s"
		    "Package: p%zu\nStatus: install ok installed\n"
		    "Version: 1.%zu-1\n%s", i > 0 ? "\n" : "", i, i,
		    i == 50 ? "garbage line\n" : "");
	memset(&s, 0, sizeof(s));
	assert_int_equal(fa_dpkg_each_package(text, strlen(text), note, &s,
	    &t, NULL), 0);
	assert_int_equal(t.stanzas, 100);
	assert_int_equal(t.skipped, 1);
	assert_non_null(strstr(s.text, "p49=1.49-1;p51=1.51-1;"));
	assert_null(strstr(s.text, "p50="));
	assert_string_equal(t.listed[0].package, "p50");
	free(text);
}

/* The list of skipped stanzas is bounded; the count is not. */
static void
skipped_bounded(void **state)
{
	size_t cap = 100 * 64, i;
	char *text = malloc(cap);
	struct fa_dpkg_tally t;
	struct seen s;

	(void)state;
	assert_non_null(text);
	snprintf(text, cap, "%s", BEFORE);
	for (i = 0; i < 40; i++)
		snprintf(text + strlen(text), cap - strlen(text),
		    "Package: bad%zu\nStatus: install ok\n\n", i);
	memset(&s, 0, sizeof(s));
	assert_int_equal(fa_dpkg_each_package(text, strlen(text), note, &s,
	    &t, NULL), 0);
	assert_int_equal(t.stanzas, 41);
	assert_int_equal(t.skipped, 40);
	assert_int_equal(t.nlisted, FA_DPKG_SKIPPED_MAX);
	assert_string_equal(s.text, "aaa=1.0-1;");
	free(text);
}

/* A NUL byte (a zero-filled block after a crash) spoils its stanza. */
static void
nul(void **state)
{
	static const char text[] = BEFORE "Package: runc\nStatus: install ok "
	    "inst\0\0\0\0\n" VER AFTER;
	struct fa_dpkg_tally t;
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(fa_dpkg_each_package(text, sizeof(text) - 1, note,
	    &s, &t, NULL), 0);
	assert_int_equal(t.skipped, 1);
	assert_non_null(strstr(t.listed[0].why, "NUL"));
	assert_string_equal(s.text, "aaa=1.0-1;zzz=2.0-1;");
}

/* Through a sysroot: the state of each package recorded, the uncertain
 * one recorded as incomplete, the removed one not at all, the skipped
 * stanza named in the database's observation. */
static void
collect(void **state)
{
	static const char status[] =
	    "Package: runc\nStatus: hold ok installed\n"
	    "Version: 1.1.5+ds1-1+deb12u1\n\n"
	    "Package: containerd\nStatus: install ok half-configured\n"
	    "Version: 1.6.20~ds1-1+b1\n\n"
	    "Package: docker-ce\nStatus: install reinstreq half-installed\n"
	    "Version: 5:27.3.1-1~debian.12~bookworm\n\n"
	    "Package: nvidia-container-toolkit\nStatus: deinstall ok "
	    "config-files\nConfig-Version: 1.17.7-1\n\n"
	    "Package: libnvidia-container1\nStatus: install ok installed\n"
	    "Version: 1.17.7-1\nDepends: libc6 (>= 2.34)\nno colon here\n\n"
	    "Package: docker.io\nStatus: install ok unpacked\n"
	    "Version: 20.10.24+dfsg1-1+b3\n";
	char dir[] = "/tmp/fa-dpkgtab-XXXXXX";
	const struct fa_obs *o;
	const json_t *sk;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	long long n;

	(void)state;
	scratch_new(dir);
	scratch_put(dir, "/var/lib/dpkg/status", status);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_dpkg(&r, s), 0);

	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:runc");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(fa_json_get_str(o->data, "state"), "installed");
	assert_string_equal(fa_json_get_str(o->data, "want"), "hold");
	assert_string_equal(fa_json_get_str(o->data, "status"),
	    "hold ok installed");
	assert_string_equal(fa_json_get_str(o->data, "upstream"), "1.1.5");

	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:containerd");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(fa_json_get_str(o->data, "state"),
	    "half-configured");

	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:docker.io");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(fa_json_get_str(o->data, "state"), "unpacked");

	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg:docker-ce");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_non_null(strstr(o->reason, "half-installed"));
	assert_string_equal(fa_json_get_str(o->data, "eflag"), "reinstreq");

	assert_null(fa_snapshot_find(s, FA_KIND_HOST_PACKAGE,
	    "dpkg:nvidia-container-toolkit"));
	assert_null(fa_snapshot_find(s, FA_KIND_HOST_PACKAGE,
	    "dpkg:libnvidia-container1"));

	o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, "dpkg");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(fa_json_get_int(o->data, "packages", 4, 4, &n), 0);
	assert_int_equal(fa_json_get_int(o->data, "uncertain", 1, 1, &n), 0);
	assert_int_equal(fa_json_get_int(o->data, "stanzas", 6, 6, &n), 0);
	assert_int_equal(fa_json_get_int(o->data, "skipped", 1, 1, &n), 0);
	sk = json_object_get(o->data, "skipped_stanzas");
	assert_int_equal(json_array_size(sk), 1);
	assert_int_equal(fa_json_get_int(json_array_get(sk, 0), "line", 17,
	    17, &n), 0);
	assert_string_equal(fa_json_get_str(json_array_get(sk, 0), "package"),
	    "libnvidia-container1");
	assert_non_null(strstr(fa_json_get_str(json_array_get(sk, 0), "why"),
	    "not a field"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/*
 * Who built a package, from its Maintainer (Debian Policy 5.6.2) and its
 * source package (5.6.1: the Source field's name, its version in
 * parentheses dropped, else the package's own name).  The maintainers are
 * those Debian, Ubuntu, Docker and NVIDIA put in their packages.
 */
static void
origin(void **state)
{
	static const char status[] =
	    "Package: runc\nStatus: install ok installed\n"
	    "Maintainer: Debian Go Packaging Team "
	    "<team+pkg-go@tracker.debian.org>\n"
	    "Version: 1.1.5+ds1-1+deb12u1\n\n"
	    "Package: docker.io\nStatus: install ok installed\n"
	    "Maintainer: Ubuntu Developers "
	    "<ubuntu-devel-discuss@lists.ubuntu.com>\n"
	    "Source: docker.io-app (27.5.1-0ubuntu3)\n"
	    "Version: 27.5.1-0ubuntu3~24.04.2\n\n"
	    "Package: containerd.io\nStatus: install ok installed\n"
	    "Maintainer: Containerd team <help@containerd.io>\n"
	    "Version: 1.7.27-1\n\n"
	    "Package: nvidia-container-toolkit\nStatus: install ok installed\n"
	    "Version: 1.17.8-1\n";
	static const struct {
		const char *target, *origin, *source;
	} want[] = {
		{ "dpkg:runc", "debian", "runc" },
		{ "dpkg:docker.io", "ubuntu", "docker.io-app" },
		{ "dpkg:containerd.io", "vendor", "containerd.io" },
		{ "dpkg:nvidia-container-toolkit", "unknown",
		  "nvidia-container-toolkit" },
	};
	char dir[] = "/tmp/fa-dpkgorg-XXXXXX";
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	size_t i;

	(void)state;
	scratch_new(dir);
	scratch_put(dir, "/var/lib/dpkg/status", status);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_dpkg(&r, s), 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		o = fa_snapshot_find(s, FA_KIND_HOST_PACKAGE, want[i].target);
		assert_non_null(o);
		assert_string_equal(fa_json_get_str(o->data, "origin"),
		    want[i].origin);
		assert_string_equal(fa_json_get_str(o->data,
		    "source_package"), want[i].source);
	}
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(installed),
		cmocka_unit_test(middle),
		cmocka_unit_test(skipped_bounded),
		cmocka_unit_test(nul),
		cmocka_unit_test(collect),
		cmocka_unit_test(origin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
