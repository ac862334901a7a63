/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for NVIDIA's branch names and version phrases
 * (core/nvbranch.c): every accepted form, the boundaries of each, and
 * the refusals, which must quote the phrase.
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
#include "../../core/nvbranch.h"

struct bcase {
	const char		*in;
	enum fa_nv_platform	 platform;
	const char		*branch;
	const char		*flavour;
};

static const struct bcase branch_ok[] = {
	{ "R580", FA_NV_ANY, "R580", "" },
	{ "r570", FA_NV_ANY, "R570", "" },
	{ "R535 (LTSB)", FA_NV_ANY, "R535", "LTSB" },
	{ "R535(LTSB)", FA_NV_ANY, "R535", "LTSB" },
	{ "R580 vGPU", FA_NV_ANY, "R580", "vGPU" },
	{ "R580 vGPU 19", FA_NV_ANY, "R580", "vGPU 19" },
	{ "R580 Gaming", FA_NV_ANY, "R580", "Gaming" },
	{ "vGPU 18.x", FA_NV_ANY, "R570", "vGPU 18" },
	{ "vGPU 16", FA_NV_ANY, "R535", "vGPU 16" },
	{ "vGPU 13.x", FA_NV_ANY, "R470", "vGPU 13" },
	{ "Linux(R580)", FA_NV_LINUX, "R580", "" },
	{ "Linux (R570)", FA_NV_LINUX, "R570", "" },
	{ "Windows(R535)", FA_NV_WINDOWS, "R535", "" },
	{ "Linux(R580 vGPU 19)", FA_NV_LINUX, "R580", "vGPU 19" },
	{ "Linux(R580 Gaming)", FA_NV_LINUX, "R580", "Gaming" },
	{ "Linux(R535 (LTSB))", FA_NV_LINUX, "R535", "LTSB" },
	{ "Linux(vGPU 17.x)", FA_NV_LINUX, "R550", "vGPU 17" },
	{ "XenServer, VMware vSphere, Red Hat Enterprise Linux KVM, "
	  "Ubuntu(R580 vGPU 19)", FA_NV_OTHER, "R580", "vGPU 19" },
	{ "Linux", FA_NV_LINUX, "", "" },
	{ "Windows", FA_NV_WINDOWS, "", "" },
	{ "All", FA_NV_ANY, "", "" },
	{ "  Linux(R580)  ", FA_NV_LINUX, "R580", "" },
	{ "Linux(R595 vGPU 20)", FA_NV_LINUX, "R595", "vGPU 20" },
	{ "Windows 10 and 11(R470)", FA_NV_WINDOWS, "R470", "" },
	{ "Linux(Gaming)", FA_NV_LINUX, "", "Gaming" },
	{ "Gaming", FA_NV_ANY, "", "Gaming" },
	{ "Linux(Cloud Gaming)", FA_NV_LINUX, "", "Gaming" },
	{ "Linux\t(R570)", FA_NV_LINUX, "R570", "" },
};

static const char *const branch_bad[] = {
	"", "R58", "R5800", "R058", "R580 (NFB)", "R580 vGPU 18",
	"R580 vGPU x", "R580 Gaming 2", "vGPU 12", "vGPU 21.x", "vGPU",
	"vGPU 18.1", "Windows(R570 vGPU 13)", "Gaming 2", "Solaris(R580)",
	"All(R580)", "Linux(R580",
	"Linux()", "Linux(Windows)", "580", "Linux R580", "R580\n",
};

static void
branch_names(void **state)
{
	struct fa_nvbranch b;
	char *why = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(branch_ok) / sizeof(branch_ok[0]); i++) {
		if (fa_nvbranch_parse(branch_ok[i].in, &b, &why) != 0)
			fail_msg("%s: %s", branch_ok[i].in, why);
		assert_int_equal(b.platform, branch_ok[i].platform);
		assert_string_equal(b.branch, branch_ok[i].branch);
		assert_string_equal(b.flavour, branch_ok[i].flavour);
		assert_int_equal(b.number, b.branch[0] != '\0' ?
		    (unsigned)strtoul(b.branch + 1, NULL, 10) : 0);
	}
}

static void
branch_refusals(void **state)
{
	struct fa_nvbranch b;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(branch_bad) / sizeof(branch_bad[0]); i++) {
		why = NULL;
		if (fa_nvbranch_parse(branch_bad[i], &b, &why) != FA_ERR_INPUT)
			fail_msg("accepted \"%s\"", branch_bad[i]);
		assert_non_null(why);
		if (strchr(branch_bad[i], '\n') == NULL &&
		    strstr(why, branch_bad[i]) == NULL)
			fail_msg("%s: does not quote the name", why);
		assert_string_equal(b.branch, "");
		free(why);
	}
}

struct pcase {
	const char		*in;
	enum fa_nvphrase_kind	 kind;
	const char		*from;
	const char		*version;
	const char		*note;
};

static const struct pcase phrase_ok[] = {
	{ "580.95.05", FA_NVP_EXACT, "", "580.95.05", "" },
	{ "1.17.8", FA_NVP_EXACT, "", "1.17.8", "" },
	{ "1.0.0-rc.1", FA_NVP_EXACT, "", "1.0.0-rc.1", "" },
	{ "All driver versions prior to 580.95.05", FA_NVP_PRIOR, "",
	  "580.95.05", "" },
	{ "all driver versions PRIOR TO 580.95.05", FA_NVP_PRIOR, "",
	  "580.95.05", "" },
	{ "All versions prior to 1.17.8", FA_NVP_PRIOR, "", "1.17.8", "" },
	{ "Versions prior to 570.195.03", FA_NVP_PRIOR, "", "570.195.03",
	  "" },
	{ "All versions before 1.16.2", FA_NVP_PRIOR, "", "1.16.2", "" },
	{ "All versions prior to and including 1.17.3", FA_NVP_THROUGH, "",
	  "1.17.3", "" },
	{ "All versions up to and including 1.16.1", FA_NVP_THROUGH, "",
	  "1.16.1", "" },
	{ "All driver versions up to and including 535.261.03",
	  FA_NVP_THROUGH, "", "535.261.03", "" },
	{ "All  versions   up to and  including   1.16.1  ",
	  FA_NVP_THROUGH, "", "1.16.1", "" },
	{ "All driver versions", FA_NVP_ALL, "", "", "" },
	{ "All versions", FA_NVP_ALL, "", "", "" },
	{ "<= 1.17.7", FA_NVP_THROUGH, "", "1.17.7", "" },
	{ "<=1.17.7", FA_NVP_THROUGH, "", "1.17.7", "" },
	{ "< 1.17.8", FA_NVP_PRIOR, "", "1.17.8", "" },
	{ "vers:generic/<1.17.8", FA_NVP_PRIOR, "", "1.17.8", "" },
	{ "vers:semver/<=1.17.7", FA_NVP_THROUGH, "", "1.17.7", "" },
	{ "vers:generic/>=1.17.5|<1.17.8", FA_NVP_PRIOR, "1.17.5", "1.17.8",
	  "" },
	{ "vers:generic/>=580.0|<=580.82.07", FA_NVP_THROUGH, "580.0",
	  "580.82.07", "" },
	{ "vers:generic/>=1.0.0", FA_NVP_ALL, "1.0.0", "", "" },
	{ "vers:generic/*", FA_NVP_ALL, "", "", "" },
	{ "580.82.07(All versions prior to and including vGPU 19.1)",
	  FA_NVP_THROUGH, "", "580.82.07",
	  "All versions prior to and including vGPU 19.1" },
	{ "580.82.07 (All versions up to and including the August 2025 "
	  "release)", FA_NVP_THROUGH, "", "580.82.07",
	  "All versions up to and including the August 2025 release" },
	{ "580.95.05(vGPU 19.2)", FA_NVP_EXACT, "", "580.95.05",
	  "vGPU 19.2" },
	{ "580.95.05(September 2025 Release)", FA_NVP_EXACT, "",
	  "580.95.05", "September 2025 Release" },
	{ "All versions up to and including 1.17.7 (CDI mode only for "
	  "versions prior to 1.17.5)", FA_NVP_THROUGH, "", "1.17.7",
	  "CDI mode only for versions prior to 1.17.5" },
	{ "All driver versions prior to 580.95.05 (Tesla)", FA_NVP_PRIOR,
	  "", "580.95.05", "Tesla" },
	/* as NVIDIA has written them */
	{ "v1.17.8", FA_NVP_EXACT, "", "1.17.8", "" },
	{ "All versions up to and including v1.16.1", FA_NVP_THROUGH, "",
	  "1.16.1", "" },
	{ "All drivers versions prior to 510.47.03", FA_NVP_PRIOR, "",
	  "510.47.03", "" },
	{ "All driver version prior to 570.172.08", FA_NVP_PRIOR, "",
	  "570.172.08", "" },
	{ "512.59(\tAll versions prior to and including the April 2022 "
	  "Cloud Gaming Release)", FA_NVP_THROUGH, "", "512.59",
	  "All versions prior to and including the April 2022 Cloud Gaming "
	  "Release" },
	{ "510.73.06\t(All versions prior to and including vGPU 14.1)",
	  FA_NVP_THROUGH, "", "510.73.06",
	  "All versions prior to and including vGPU 14.1" },
};

static const char *const phrase_bad[] = {
	"",
	"   ",
	"Versions",
	"All",
	"driver versions",
	"All driver versions prior to",
	"All driver versions prior to R580",
	"All driver versions prior to 580.95.05.",
	"All driver versions prior to 580.95.05 and later",
	"All versions after 1.17.3",
	"All versions from 1.17.0 to 1.17.3",
	"All versions up to 1.16.1",
	"All versions prior to and including",
	"Versions 1.17.0 through 1.17.3",
	"Prior to 1.17.8",
	"1.17.8 or later",
	"> 1.17.8",
	"=< 1.17.7",
	"<",
	"v",
	"All versions prior to vv1.2",
	"All versions prior to v",
	"latest",
	"vers:npm/<1.17.8",
	"vers:generic/<1.17.8|>=2.0",
	"vers:generic/>1.0",
	"vers:generic/>=1.0|",
	"580.82.07(All versions prior to vGPU 19.1)",
	"580.82.07(All versions prior to and including)",
	"580.82.07()",
	"580.82.07(vGPU (19.2))",
	"580.82.07(vGPU 19.2",
	"580.82.07 vGPU 19.2)",
	"(vGPU 19.2)",
	"All versions (old) prior to 1.2.3",
	"All versions prior to 1.2.3\t\x01",
};

static void
phrases(void **state)
{
	struct fa_nvphrase p;
	char *why = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(phrase_ok) / sizeof(phrase_ok[0]); i++) {
		if (fa_nvphrase_parse(phrase_ok[i].in, &p, &why) != 0)
			fail_msg("%s: %s", phrase_ok[i].in, why);
		if (p.kind != phrase_ok[i].kind)
			fail_msg("%s: kind %d", phrase_ok[i].in, p.kind);
		assert_string_equal(p.from, phrase_ok[i].from);
		assert_string_equal(p.version, phrase_ok[i].version);
		assert_string_equal(p.note, phrase_ok[i].note);
	}
}

static void
phrase_refusals(void **state)
{
	struct fa_nvphrase p;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(phrase_bad) / sizeof(phrase_bad[0]); i++) {
		why = NULL;
		if (fa_nvphrase_parse(phrase_bad[i], &p, &why) != FA_ERR_INPUT)
			fail_msg("accepted \"%s\"", phrase_bad[i]);
		assert_non_null(why);
		if (strchr(phrase_bad[i], '\x01') == NULL &&
		    strstr(why, phrase_bad[i]) == NULL)
			fail_msg("%s: does not quote the phrase", why);
		assert_int_equal(p.kind, FA_NVP_EXACT);
		assert_string_equal(p.version, "");
		free(why);
	}
}

static void
phrase_too_long(void **state)
{
	char buf[460];
	struct fa_nvphrase p;
	char *why = NULL;

	(void)state;
	memset(buf, '1', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	assert_int_equal(fa_nvphrase_parse(buf, &p, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "printable"));
	free(why);
	why = NULL;
	/* a version of 129 bytes: over FA_VERSION_MAX */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "< ", 2);
	memset(buf + 2, '1', 129);
	assert_int_equal(fa_nvphrase_parse(buf, &p, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "too long"));
	free(why);
	why = NULL;
	assert_int_equal(fa_nvphrase_parse(NULL, &p, &why), FA_ERR_INPUT);
	free(why);
}

/* Range of aff (with fix, or none when fix is NULL) on branch number. */
static int
range(unsigned number, const char *aff, const char *fix,
    struct fa_nvrange *r, char **why)
{
	struct fa_nvphrase a, f;

	*why = NULL;
	assert_int_equal(fa_nvphrase_parse(aff, &a, why), 0);
	if (fix != NULL)
		assert_int_equal(fa_nvphrase_parse(fix, &f, why), 0);
	return fa_nvrange_make(number, &a, fix != NULL ? &f : NULL, r, why);
}

struct rcase {
	unsigned	 number;
	const char	*aff, *fix, *introduced, *fixed;
};

static const struct rcase range_ok[] = {
	{ 580, "All driver versions prior to 580.95.05", "580.95.05",
	  "580.0", "580.95.05" },
	{ 580, "All driver versions prior to 580.95.05", NULL, "580.0",
	  "580.95.05" },
	{ 570, "Versions prior to 570.195.03", "570.195.03", "570.0",
	  "570.195.03" },
	{ 580, "580.82.07(All versions prior to and including vGPU 19.1)",
	  "580.95.05(vGPU 19.2)", "580.0", "580.95.05" },
	{ 0, "All versions up to and including 1.16.1", "1.16.2", "",
	  "1.16.2" },
	{ 0, "All versions prior to and including 1.17.3", "1.17.4", "",
	  "1.17.4" },
	{ 0, "<= 1.17.7", "1.17.8", "", "1.17.8" },
	{ 0, "All versions prior to 1.17.8", NULL, "", "1.17.8" },
	{ 580, "All driver versions", "580.95.05", "580.0", "580.95.05" },
	{ 580, "All driver versions", NULL, "580.0", "" },
	{ 0, "All versions", NULL, "", "" },
	{ 0, "vers:generic/>=1.17.5|<1.17.8", "1.17.8", "1.17.5", "1.17.8" },
	{ 580, "vers:generic/>=580.65|<580.95.05", NULL, "580.65",
	  "580.95.05" },
	{ 535, "All driver versions prior to 535.274.02", "535.274.02",
	  "535.0", "535.274.02" },
};

struct rbad {
	unsigned	 number;
	const char	*aff, *fix, *says;
};

static const struct rbad range_bad[] = {
	/* last affected with no fixed version: never invent "next" */
	{ 0, "All versions up to and including 1.16.1", NULL,
	  "cannot state it" },
	{ 0, "<= 1.17.7", NULL, "cannot state it" },
	{ 580, "580.82.07(All versions prior to and including vGPU 19.1)",
	  NULL, "cannot state it" },
	{ 0, "All versions up to and including 1.16.1", "1.16.1",
	  "not above" },
	{ 0, "All versions up to and including 1.16.1", "1.16.0",
	  "not above" },
	{ 580, "All driver versions prior to 580.95.05", "580.95.06",
	  "differs" },
	{ 580, "All driver versions prior to 580.95.05",
	  "All versions prior to 580.95.05", "not a single version" },
	{ 580, "580.82.07", "580.95.05", "single affected version" },
	/* a fix published off the branch (NVIDIA's 575.274.02 for R535) */
	{ 535, "535.261.03(All versions prior to and including vGPU 16.11)",
	  "575.274.02(vGPU 16.12)", "not on the branch" },
	{ 580, "All driver versions prior to 581.42", NULL,
	  "not on the branch" },
	{ 580, "vers:generic/>=570.0|<580.95.05", NULL, "not on the branch" },
	{ 0, "vers:generic/>=1.17.8|<1.17.5", NULL, "not above" },
	{ 580, "All driver versions prior to 580", NULL, "not above" },
};

static void
ranges(void **state)
{
	struct fa_nvrange r;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(range_ok) / sizeof(range_ok[0]); i++) {
		if (range(range_ok[i].number, range_ok[i].aff, range_ok[i].fix,
		    &r, &why) != 0)
			fail_msg("%s: %s", range_ok[i].aff, why);
		assert_string_equal(r.introduced, range_ok[i].introduced);
		assert_string_equal(r.fixed, range_ok[i].fixed);
	}
	for (i = 0; i < sizeof(range_bad) / sizeof(range_bad[0]); i++) {
		if (range(range_bad[i].number, range_bad[i].aff,
		    range_bad[i].fix, &r, &why) != FA_ERR_INPUT)
			fail_msg("accepted %s / %s", range_bad[i].aff,
			    range_bad[i].fix ? range_bad[i].fix : "-");
		if (why == NULL || strstr(why, range_bad[i].says) == NULL)
			fail_msg("%s: %s", range_bad[i].aff, why);
		assert_string_equal(r.fixed, "");
		free(why);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(branch_names),
		cmocka_unit_test(branch_refusals),
		cmocka_unit_test(phrases),
		cmocka_unit_test(phrase_refusals),
		cmocka_unit_test(phrase_too_long),
		cmocka_unit_test(ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
