/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * /etc/os-release as fabric/host_osrel.c reads it: the files Debian 12 and
 * Ubuntu 24.04 install (os-release(5) syntax: KEY=VALUE, values bare or
 * quoted with the shell's escapes), a file with hostile values, and lines
 * that are not KEY=VALUE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_osrel.h"

static void
parse(const char *text, struct fa_osrel *o, size_t *bad, int want)
{
	size_t line;

	assert_int_equal(fa_osrel_parse(text, strlen(text), o, bad, &line),
	    want);
}

static void
debian_and_ubuntu(void **state)
{
	static const char debian[] =
	    "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
	    "NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n"
	    "VERSION=\"12 (bookworm)\"\nVERSION_CODENAME=bookworm\n"
	    "ID=debian\nHOME_URL=\"https://www.debian.org/\"\n";
	static const char ubuntu[] =
	    "PRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\nNAME=\"Ubuntu\"\n"
	    "VERSION_ID=\"24.04\"\nVERSION=\"24.04.1 LTS (Noble Numbat)\"\n"
	    "VERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n"
	    "UBUNTU_CODENAME=noble\nLOGO=ubuntu-logo\n";
	struct fa_osrel o;
	size_t bad;

	(void)state;
	parse(debian, &o, &bad, 0);
	assert_string_equal(o.id, "debian");
	assert_string_equal(o.version_id, "12");
	assert_string_equal(o.codename, "bookworm");
	assert_int_equal(bad, 0);
	parse(ubuntu, &o, &bad, 0);
	assert_string_equal(o.id, "ubuntu");
	assert_string_equal(o.version_id, "24.04");
	assert_string_equal(o.codename, "noble");
	assert_string_equal(o.id_like, "debian");
}

/* Values that are not plain names are not kept, and are counted. */
static void
hostile_values(void **state)
{
	struct fa_osrel o;
	size_t bad;

	(void)state;
	parse("# comment\n\nID='Debian'\nVERSION_CODENAME=\"book\\\"worm\"\n"
	    "ID_LIKE=\"rhel fedora\"\n  VERSION_ID=12\r\n", &o, &bad, 0);
	assert_string_equal(o.id, "");
	assert_string_equal(o.codename, "");
	assert_string_equal(o.id_like, "rhel fedora");
	assert_string_equal(o.version_id, "12");
	assert_int_equal(bad, 2);
}

/* A line that is not KEY=VALUE, or an unbalanced or unescaped quote. */
static void
refused(void **state)
{
	static const char *const bad_files[] = {
		"ID=debian\nthis is not a variable\n",
		"ID=\"debian\n",
		"ID=deb ian\n",
		"ID=\"a\"b\"\n",
		"=debian\n",
		"ID=$(reboot)\n",
	};
	struct fa_osrel o;
	size_t i, bad, line;

	(void)state;
	for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		if (fa_osrel_parse(bad_files[i], strlen(bad_files[i]), &o,
		    &bad, &line) != FA_ERR_INPUT)
			fail_msg("accepted %s", bad_files[i]);
		assert_true(line >= 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(debian_and_ubuntu),
		cmocka_unit_test(hostile_values),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
