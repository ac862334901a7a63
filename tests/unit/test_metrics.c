/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the textfile-collector metrics (reports/metrics.c): the
 * exact text for a report shaped like the careless-provider scan, label
 * escaping of hostile strings, the last success carried over from the
 * previous file (and malformed previous text ignored), a run without a
 * report, and fa_metrics_write's refusals.
 */
#include <fcntl.h>
#include <math.h>
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
#include "../../reports/metrics.h"
#include "scratch_tree.h"

#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */
#define LAST	"fabaudit_last_success_timestamp_seconds"

#define RUN_HEAD(dur, now, ok) \
	"# HELP fabaudit_scan_duration_seconds How long the last run " \
	"took.\n" \
	"# TYPE fabaudit_scan_duration_seconds gauge\n" \
	"fabaudit_scan_duration_seconds " dur "\n" \
	"# HELP fabaudit_last_run_timestamp_seconds When the last run " \
	"ended, in seconds since the Epoch.\n" \
	"# TYPE fabaudit_last_run_timestamp_seconds gauge\n" \
	"fabaudit_last_run_timestamp_seconds " now "\n" \
	"# HELP fabaudit_last_run_success 1 if the last run scanned and " \
	"wrote its report, whatever the findings; 0 if it failed.\n" \
	"# TYPE fabaudit_last_run_success gauge\n" \
	"fabaudit_last_run_success " ok "\n" \
	"# HELP " LAST " When a run last succeeded, in seconds since the " \
	"Epoch; 0 if never.\n" \
	"# TYPE " LAST " gauge\n"

/* One result; waived adds a waiver object. */
static json_t *
result(const char *id, const char *status, const char *sev,
    const char *target, int waived)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", id,
	    "family", "ib", "status", status, "severity", sev, "target",
	    target);

	assert_non_null(r);
	if (waived)
		assert_int_equal(json_object_set_new(r, "waived", json_pack(
		    "{s:s, s:s, s:i}", "reason", "MSA 7.2", "expires",
		    "2027-03-31", "policy_line", 9)), 0);
	return r;
}

/* The careless-provider shape, with junk results mixed in. */
static json_t *
careless(void)
{
	json_t *rep, *res = json_array();

	assert_non_null(res);
#define ADD(x)	assert_int_equal(json_array_append_new(res, (x)), 0)
	ADD(result("IB-SMKEY-DISCLOSED", "fail", "critical",
	    "H-0x0002c90300f1e000/1", 0));
	ADD(result("IB-XTENANT-REACHABLE", "fail", "critical",
	    "H-0x0002c90300c3d500/1", 0));
	ADD(result("IB-SM-UNEXPECTED", "pass", "high", "fabric", 0));
	ADD(result("IB-PKEY-ENFORCE-OFF", "fail", "high", "fabric", 1));
	ADD(result("IB-VSKEY-UNSET", "not_tested", "high", "fabric", 0));
	ADD(result("HOST-TENANCY", "not_applicable", "high", "host", 0));
	ADD(result("HOST-KERNEL-VULN", "error", "high", "kernel", 0));
	ADD(result("HOST-NNP-OFF", "fail", "medium", "host", 0));
	ADD(result("IB-XTENANT-REACHABLE", "fail", "critical",
	    "H-0x0002c90300c3d4f0/1", 0));
	ADD(result("ETH-STP-EXPOSED", "fail", "low", "eth", 0));
	/* Worst over targets: fail beats error and pass. */
	ADD(result("HOST-DEVICE-EXPOSED", "pass", "high", "/dev/a", 0));
	ADD(result("HOST-DEVICE-EXPOSED", "error", "high", "/dev/b", 0));
	ADD(result("HOST-DEVICE-EXPOSED", "fail", "high", "/dev/mem", 0));
	/* Waived beats not_tested, error beats waived. */
	ADD(result("IB-MKEY-UNSET", "not_tested", "high", "x", 0));
	ADD(result("IB-MKEY-UNSET", "fail", "high", "y", 1));
	ADD(result("IB-CCKEY-UNSET", "fail", "medium", "x", 1));
	ADD(result("IB-CCKEY-UNSET", "error", "medium", "y", 0));
	/* Junk: an unknown status, not an object, no ID, bad severity. */
	ADD(result("IB-JUNK", "bogus", "high", "x", 0));
	ADD(json_string("not a result"));
	ADD(json_pack("{s:s, s:s}", "status", "fail", "severity", "info"));
	ADD(result("IB-ODD-SEV", "fail", "severe", "x", 0));
#undef ADD
	rep = json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:{s:i, s:b}}, s:o}",
	    "schema", "fabaudit-report/1",
	    "tool", "name", "fabaudit", "version", "0.1.0",
	    "scan", "host", "vm", "catalogue", "age_days", 102, "stale", 1,
	    "results", res);
	assert_non_null(rep);
	return rep;
}

static char *
text(const json_t *rep, double dur, int ok, const char *prev)
{
	char *buf = NULL, *why = NULL;
	size_t len = 0;

	assert_int_equal(fa_metrics_text(rep, dur, ok, prev, NOW, &buf, &len,
	    &why), 0);
	assert_null(why);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

/* The six stateset lines of a check whose worst state is `st`. */
#define STATES(id, f, e, w, nt, p, na) \
	"fabaudit_check_status{check=\"" id "\",status=\"fail\"} " f "\n" \
	"fabaudit_check_status{check=\"" id "\",status=\"error\"} " e "\n" \
	"fabaudit_check_status{check=\"" id "\",status=\"waived\"} " w "\n" \
	"fabaudit_check_status{check=\"" id "\",status=\"not_tested\"} " \
	nt "\n" \
	"fabaudit_check_status{check=\"" id "\",status=\"pass\"} " p "\n" \
	"fabaudit_check_status{check=\"" id "\",status=\"not_applicable\"} " \
	na "\n"
#define FAIL(id)	STATES(id, "1", "0", "0", "0", "0", "0")
#define ERROR(id)	STATES(id, "0", "1", "0", "0", "0", "0")
#define WAIVED(id)	STATES(id, "0", "0", "1", "0", "0", "0")
#define NT(id)		STATES(id, "0", "0", "0", "1", "0", "0")
#define PASS(id)	STATES(id, "0", "0", "0", "0", "1", "0")
#define NA(id)		STATES(id, "0", "0", "0", "0", "0", "1")
#define FT(id, n) \
	"fabaudit_check_failing_targets{check=\"" id "\"} " n "\n"

static void
careless_exact(void **state)
{
	static const char want[] =
	    "# HELP fabaudit_info Always 1: the fabaudit version and the "
	    "host it scanned.\n"
	    "# TYPE fabaudit_info gauge\n"
	    "fabaudit_info{version=\"" FA_VERSION "\",host=\"vm\"} 1\n"
	    "# HELP fabaudit_failures Failing results not waived by the "
	    "policy, by severity.\n"
	    "# TYPE fabaudit_failures gauge\n"
	    "fabaudit_failures{severity=\"critical\"} 3\n"
	    "fabaudit_failures{severity=\"high\"} 1\n"
	    "fabaudit_failures{severity=\"medium\"} 1\n"
	    "fabaudit_failures{severity=\"low\"} 1\n"
	    "fabaudit_failures{severity=\"info\"} 1\n"
	    "# HELP fabaudit_waived Failing results a policy waiver covers.\n"
	    "# TYPE fabaudit_waived gauge\n"
	    "fabaudit_waived 3\n"
	    "# HELP fabaudit_results Results by status.\n"
	    "# TYPE fabaudit_results gauge\n"
	    "fabaudit_results{status=\"pass\"} 2\n"
	    "fabaudit_results{status=\"fail\"} 11\n"
	    "fabaudit_results{status=\"not_tested\"} 2\n"
	    "fabaudit_results{status=\"not_applicable\"} 1\n"
	    "fabaudit_results{status=\"error\"} 3\n"
	    "# HELP fabaudit_check_status Worst status of a check over its "
	    "targets (fail > error > waived > not_tested > pass > "
	    "not_applicable): 1 for that status, 0 for the others.\n"
	    "# TYPE fabaudit_check_status gauge\n"
	    FAIL("ETH-STP-EXPOSED")
	    FAIL("HOST-DEVICE-EXPOSED")
	    ERROR("HOST-KERNEL-VULN")
	    FAIL("HOST-NNP-OFF")
	    NA("HOST-TENANCY")
	    ERROR("IB-CCKEY-UNSET")
	    WAIVED("IB-MKEY-UNSET")
	    FAIL("IB-ODD-SEV")
	    WAIVED("IB-PKEY-ENFORCE-OFF")
	    PASS("IB-SM-UNEXPECTED")
	    FAIL("IB-SMKEY-DISCLOSED")
	    NT("IB-VSKEY-UNSET")
	    FAIL("IB-XTENANT-REACHABLE")
	    "# HELP fabaudit_check_failing_targets Targets on which a check "
	    "failed, not waived.\n"
	    "# TYPE fabaudit_check_failing_targets gauge\n"
	    FT("ETH-STP-EXPOSED", "1")
	    FT("HOST-DEVICE-EXPOSED", "1")
	    FT("HOST-KERNEL-VULN", "0")
	    FT("HOST-NNP-OFF", "1")
	    FT("HOST-TENANCY", "0")
	    FT("IB-CCKEY-UNSET", "0")
	    FT("IB-MKEY-UNSET", "0")
	    FT("IB-ODD-SEV", "1")
	    FT("IB-PKEY-ENFORCE-OFF", "0")
	    FT("IB-SM-UNEXPECTED", "0")
	    FT("IB-SMKEY-DISCLOSED", "1")
	    FT("IB-VSKEY-UNSET", "0")
	    FT("IB-XTENANT-REACHABLE", "2")
	    "# HELP fabaudit_catalogue_age_days Age in days of the host CVE "
	    "catalogue the scan used.\n"
	    "# TYPE fabaudit_catalogue_age_days gauge\n"
	    "fabaudit_catalogue_age_days 102\n"
	    RUN_HEAD("12.346", "1796205600", "1")
	    LAST " 1796205600\n";
	json_t *rep = careless();
	char *buf;

	(void)state;
	buf = text(rep, 12.3456, 1, NULL);
	assert_string_equal(buf, want);
	free(buf);
	json_decref(rep);
}

static void
scope_preferred(void **state)
{
	json_t *rep = careless();
	char *buf;

	(void)state;
	/* scope (newer reports) wins over scan; a wrong type falls back. */
	assert_int_equal(json_object_set_new(rep, "scope", json_pack(
	    "{s:s, s:{s:i}}", "host", "login-1", "catalogue", "age_days",
	    7)), 0);
	buf = text(rep, 1, 1, NULL);
	assert_non_null(strstr(buf, "host=\"login-1\"} 1\n"));
	assert_non_null(strstr(buf, "\nfabaudit_catalogue_age_days 7\n"));
	free(buf);
	assert_int_equal(json_object_set_new(rep, "scope", json_pack(
	    "{s:i, s:{s:s}}", "host", 5, "catalogue", "age_days", "7")), 0);
	buf = text(rep, 1, 1, NULL);
	assert_non_null(strstr(buf, "host=\"vm\"} 1\n"));
	assert_non_null(strstr(buf, "\nfabaudit_catalogue_age_days 102\n"));
	free(buf);
	/* No catalogue at all: the family is left out, not faked. */
	assert_int_equal(json_object_del(json_object_get(rep, "scan"),
	    "catalogue"), 0);
	buf = text(rep, 1, 1, NULL);
	assert_null(strstr(buf, "catalogue"));
	free(buf);
	json_decref(rep);
}

static void
hostile_labels(void **state)
{
	json_t *rep = careless(), *res = json_object_get(rep, "results");
	char *buf, longid[400], *p;
	size_t i;

	(void)state;
	/* Quote, backslash, LF, CR, tab and DEL in the check ID and host. */
	assert_int_equal(json_array_append_new(res, result(
	    "IB-X\"} 1\nfabaudit_evil 1 #\\\r\t\x7f", "fail", "high", "t",
	    0)), 0);
	assert_int_equal(json_object_set_new(json_object_get(rep, "scan"),
	    "host", json_string("h\"ost\\\nname")), 0);
	/* 255 ASCII bytes then a two-byte UTF-8 character: cut before it. */
	for (i = 0; i < 255; i++)
		longid[i] = 'A';
	memcpy(longid + 255, "\xc3\xa9" "BBBB", 7);
	assert_int_equal(json_array_append_new(res, result(longid, "fail",
	    "high", "t", 0)), 0);
	buf = text(rep, 1, 1, NULL);
	assert_non_null(strstr(buf,
	    "\nfabaudit_info{version=\"" FA_VERSION "\",host=\"h\\\"ost\\\\"
	    "\\nname\"} 1\n"));
	assert_non_null(strstr(buf,
	    "\nfabaudit_check_status{check=\"IB-X\\\"} 1\\nfabaudit_evil 1 "
	    "#\\\\\\\\x0d\\\\x09\\\\x7f\",status=\"fail\"} 1\n"));
	assert_null(strstr(buf, "\nfabaudit_evil"));
	longid[255] = '\0';
	assert_non_null(p = strstr(buf, longid));
	assert_true(strncmp(p + 255, "\",status=\"fail\"} 1\n", 19) == 0);
	assert_null(strstr(buf, "\xc3"));
	/* Every line is a comment or a sample of a fabaudit family. */
	for (p = buf; *p != '\0'; p = strchr(p, '\n') + 1)
		assert_true(strncmp(p, "# HELP fabaudit_", 16) == 0 ||
		    strncmp(p, "# TYPE fabaudit_", 16) == 0 ||
		    strncmp(p, "fabaudit_", 9) == 0);
	free(buf);
	json_decref(rep);
}

static void
carry_over(void **state)
{
	static const char prev[] =
	    "# HELP " LAST " When...\n"
	    "# TYPE " LAST " gauge\n"
	    "fabaudit_last_run_success 1\n"
	    LAST " 1796000000\n";
	json_t *rep = careless();
	char *buf;

	(void)state;
	/* A failed run keeps the previous success time. */
	buf = text(rep, 3, 0, prev);
	assert_non_null(strstr(buf, "\nfabaudit_last_run_success 0\n"));
	assert_non_null(strstr(buf, "\n" LAST " 1796000000\n"));
	assert_non_null(strstr(buf,
	    "\nfabaudit_last_run_timestamp_seconds 1796205600\n"));
	free(buf);
	/* A successful one replaces it. */
	buf = text(rep, 3, 1, prev);
	assert_non_null(strstr(buf, "\n" LAST " 1796205600\n"));
	free(buf);
	/* Blanks before the value, no final newline: still ours. */
	buf = text(rep, 3, 0, "x 1\n" LAST " \t 1795000000");
	assert_non_null(strstr(buf, "\n" LAST " 1795000000\n"));
	free(buf);
	json_decref(rep);
}

static void
previous_malformed(void **state)
{
	static const char *const bad[] = {
		LAST " 12abc\n",
		LAST " -5\n",
		LAST " +5\n",
		LAST " 1.7e9\n",
		LAST " 1796000000 1796000000000\n",	/* a timestamp */
		LAST " 1796000000 \n",
		LAST " 1796000000\r\n",
		LAST "\n",
		LAST " \n",
		LAST "{host=\"a\"} 1796000000\n",
		LAST "_x 1796000000\n",
		"# " LAST " 1796000000\n",
		" " LAST " 1796000000\n",
		LAST " 1796205601\n",			/* after now */
		LAST " 9999999999999999999999\n",
		LAST " 1796000000\n" LAST " 1796000001\n", /* repeated */
		"",
	};
	char *buf, *big, *p;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		buf = text(NULL, 1, 0, bad[i]);
		if (strstr(buf, "\n" LAST " 0\n") == NULL)
			fail_msg("previous text %zu was taken", i);
		free(buf);
	}
	/* A valid value in a file too long to be ours is ignored too. */
	n = FA_METRICS_PREV_MAX + 1;
	assert_non_null(big = malloc(n + 1));
	memset(big, '#', n);
	big[n] = '\0';
	p = big;
	memcpy(p, LAST " 1796000000\n", strlen(LAST) + 12);
	buf = text(NULL, 1, 0, big);
	assert_non_null(strstr(buf, "\n" LAST " 0\n"));
	free(buf);
	/* One byte shorter, it is read. */
	big[n - 1] = '\0';
	buf = text(NULL, 1, 0, big);
	assert_non_null(strstr(buf, "\n" LAST " 1796000000\n"));
	free(buf);
	free(big);
}

static void
null_report(void **state)
{
	static const char want[] =
	    RUN_HEAD("0.250", "1796205600", "0")
	    LAST " 1796000000\n";
	static const char want_never[] =
	    RUN_HEAD("0.000", "1796205600", "0")
	    LAST " 0\n";
	char *buf;

	(void)state;
	/* run_ok is meaningless without a report: success is 0. */
	buf = text(NULL, 0.25, 1, LAST " 1796000000\n");
	assert_string_equal(buf, want);
	free(buf);
	buf = text(NULL, NAN, 0, NULL);
	assert_string_equal(buf, want_never);
	free(buf);
	buf = text(NULL, -3, 0, NULL);
	assert_string_equal(buf, want_never);
	free(buf);
}

static void
odd_reports(void **state)
{
	json_t *rep;
	char *buf = NULL, *why = NULL;
	size_t len, i;

	(void)state;
	/* No results array: zero counts, no check lines, no info host. */
	assert_non_null(rep = json_pack("{s:s}", "results", "many"));
	buf = text(rep, 1, 1, NULL);
	assert_non_null(strstr(buf, "host=\"\"} 1\n"));
	assert_non_null(strstr(buf, "\nfabaudit_results{status=\"fail\"} 0\n"));
	assert_null(strstr(buf, "fabaudit_check_status{"));
	free(buf);
	json_decref(rep);

	/* Too many results: refused, not truncated. */
	assert_non_null(rep = json_pack("{s:[]}", "results"));
	for (i = 0; i <= FA_METRICS_MAX_RESULTS; i++)
		assert_int_equal(json_array_append_new(json_object_get(rep,
		    "results"), json_null()), 0);
	assert_int_equal(fa_metrics_text(rep, 1, 1, NULL, NOW, &buf, &len,
	    &why), FA_ERR_TOOBIG);
	assert_null(buf);
	assert_non_null(strstr(why, "100001 results"));
	free(why);
	json_decref(rep);
}

static char *
slurp(const char *path)
{
	char *b;
	FILE *f;
	size_t n;

	assert_non_null(f = fopen(path, "r"));
	assert_non_null(b = calloc(1, 1 << 20));
	n = fread(b, 1, (1 << 20) - 1, f);
	b[n] = '\0';
	fclose(f);
	return b;
}

static void
write_file(void **state)
{
	char dir[] = "/tmp/fa-metrics-XXXXXX", path[128], other[128];
	char *why = NULL, *got, *want;
	json_t *rep = careless();
	struct stat st;

	(void)state;
	scratch_new(dir);
	snprintf(path, sizeof(path), "%s/fabaudit.prom", dir);
	assert_int_equal(fa_metrics_write(path, rep, 2, 1, NOW - 100, &why),
	    0);
	assert_null(why);
	/* node_exporter runs as its own user: readable by all. */
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	got = slurp(path);
	want = text(rep, 2, 1, NULL);
	/* The same text, but at NOW - 100. */
	assert_non_null(strstr(got, "\n" LAST " 1796205500\n"));
	assert_int_equal(strlen(got), strlen(want));
	free(got);
	free(want);

	/* A failed run later carries the success over from the file. */
	assert_int_equal(fa_metrics_write(path, NULL, 2, 0, NOW, &why), 0);
	got = slurp(path);
	assert_non_null(strstr(got, "\nfabaudit_last_run_success 0\n"));
	assert_non_null(strstr(got, "\n" LAST " 1796205500\n"));
	assert_null(strstr(got, "fabaudit_info"));
	free(got);

	/* A link at path is refused and its target left alone. */
	snprintf(other, sizeof(other), "%s/target", dir);
	scratch_put(dir, "/target", "keep\n");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(other, path), 0);
	assert_int_equal(fa_metrics_write(path, rep, 2, 1, NOW, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "fabaudit.prom: is a symbolic link"));
	free(why);
	why = NULL;
	got = slurp(other);
	assert_string_equal(got, "keep\n");
	free(got);

	/* A FIFO is refused, not waited on; so is a directory. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(fa_metrics_write(path, rep, 2, 1, NOW, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "fabaudit.prom: is not a regular file"));
	free(why);
	why = NULL;
	assert_int_equal(fa_metrics_write(dir, rep, 2, 1, NOW, &why),
	    FA_ERR_INPUT);
	free(why);
	why = NULL;
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(fa_metrics_write(path, rep, 2, 1, NOW, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, ": not a file name"));
	free(why);
	why = NULL;
	/* A missing directory is an I/O error naming the file. */
	snprintf(path, sizeof(path), "%s/no/such.prom", dir);
	assert_int_equal(fa_metrics_write(path, rep, 2, 1, NOW, &why),
	    FA_ERR_IO);
	assert_non_null(strstr(why, "no/such.prom"));
	free(why);
	scratch_rm(dir, "");
	json_decref(rep);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(careless_exact),
		cmocka_unit_test(scope_preferred),
		cmocka_unit_test(hostile_labels),
		cmocka_unit_test(carry_over),
		cmocka_unit_test(previous_malformed),
		cmocka_unit_test(null_report),
		cmocka_unit_test(odd_reports),
		cmocka_unit_test(write_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
