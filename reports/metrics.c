/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Metrics for node_exporter's textfile collector, in the Prometheus text
 * exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): each
 * family has its "# HELP" and "# TYPE" lines before its samples, a
 * family's samples are contiguous, every line (the last too) ends in LF,
 * and no sample carries a timestamp (the textfile collector refuses them).
 * In a label value, backslash, double quote and line feed are escaped as
 * \\, \" and \n; the format carries any other byte raw, so other control
 * bytes are written here as the text \xNN (fa_str_sanitize's convention)
 * to keep the file one sample per line for any reader.
 *
 * Everything below is read from report.json alone and may be missing or
 * of the wrong type: such a result is left out of the counts it cannot
 * join, never guessed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/errors.h"
#include "../core/model.h"
#include "../core/snapshot.h"
#include "../core/util.h"
#include "metrics.h"
#include "report.h"

#define LAST_SUCCESS	"fabaudit_last_success_timestamp_seconds"

/*
 * A check's state over all its targets: the worst of them, in this order
 * (worst first), which is also the order of its stateset lines.  A failure
 * a policy waiver covers is "waived": an accepted risk, ranked below an
 * error (an unknown) and above the outcomes that need no action.
 */
enum cstate {
	CS_FAIL,
	CS_ERROR,
	CS_WAIVED,
	CS_NOT_TESTED,
	CS_PASS,
	CS_NOT_APPLICABLE,
	CS_MAX
};

static const char *const cstate_names[CS_MAX] = {
	"fail", "error", "waived", "not_tested", "pass", "not_applicable"
};

struct target {			/* one result, for the per-check metrics */
	const char	*id;	/* borrowed from the report */
	enum cstate	 st;
};

struct tally {
	size_t		 by_status[FA_ST_MAX];
	size_t		 failures[FA_SEV_MAX];	/* failing, not waived */
	size_t		 waived;
	struct target	*t;
	size_t		 nt;
};

static int
target_cmp(const void *a, const void *b)
{
	const struct target *x = a, *y = b;

	return strcmp(x->id, y->id);
}

static int
tally_report(const json_t *report, struct tally *ty, char **why)
{
	const json_t *results = json_object_get(report, "results"), *r;
	enum fa_status st;
	enum fa_severity sev;
	const char *id;
	size_t i, n = json_array_size(results);
	int waived;

	memset(ty, 0, sizeof(*ty));
	if (n > FA_METRICS_MAX_RESULTS) {
		if (why != NULL)
			*why = fa_strfmt("the report has %zu results, more "
			    "than %d", n, FA_METRICS_MAX_RESULTS);
		return FA_ERR_TOOBIG;
	}
	if ((ty->t = calloc(n > 0 ? n : 1, sizeof(*ty->t))) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(results, i, r) {
		if (fa_status_parse(fa_json_get_str(r, "status"), &st) != 0)
			continue;
		ty->by_status[st]++;
		waived = st == FA_ST_FAIL &&
		    json_is_object(json_object_get(r, "waived"));
		if (waived)
			ty->waived++;
		else if (st == FA_ST_FAIL && fa_severity_parse(
		    fa_json_get_str(r, "severity"), &sev) == 0)
			ty->failures[sev]++;
		if ((id = fa_json_get_str(r, "id")) == NULL || *id == '\0')
			continue;
		ty->t[ty->nt].id = id;
		ty->t[ty->nt++].st = st == FA_ST_PASS ? CS_PASS :
		    st == FA_ST_FAIL ? (waived ? CS_WAIVED : CS_FAIL) :
		    st == FA_ST_NOT_TESTED ? CS_NOT_TESTED :
		    st == FA_ST_NOT_APPLICABLE ? CS_NOT_APPLICABLE : CS_ERROR;
	}
	/* By check ID, so that the output does not depend on result order. */
	qsort(ty->t, ty->nt, sizeof(*ty->t), target_cmp);
	return 0;
}

/* An untrusted string as a label value (see the comment at the top). */
static void
put_label(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, n = strnlen(s, FA_METRICS_LABEL_MAX + 1);

	if (n > FA_METRICS_LABEL_MAX) {
		/* Back off continuation bytes (10xxxxxx): keep UTF-8 whole. */
		for (n = FA_METRICS_LABEL_MAX; n > 0 && (p[n] & 0xc0) == 0x80;
		    n--)
			;
	}
	for (i = 0; i < n; i++) {
		if (p[i] == '\\')
			fputs("\\\\", f);
		else if (p[i] == '"')
			fputs("\\\"", f);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(f, "\\\\x%02x", p[i]);
		else
			fputc(p[i], f);
	}
}

static void
family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * Fold the sorted targets into one entry per check, in place: t[k].st
 * becomes the check's worst state and fail[k] its unwaived failures.
 * Returns the number of checks.
 */
static size_t
fold_checks(struct target *t, size_t nt, size_t *fail)
{
	size_t i, k = 0;

	for (i = 0; i < nt; i++) {
		if (k == 0 || strcmp(t[k - 1].id, t[i].id) != 0) {
			t[k] = t[i];
			fail[k++] = 0;
		} else if (t[i].st < t[k - 1].st)
			t[k - 1].st = t[i].st;
		if (t[i].st == CS_FAIL)
			fail[k - 1]++;
	}
	return k;
}

/* fabaudit_check_status (a stateset) and fabaudit_check_failing_targets. */
static int
put_checks(FILE *f, struct tally *ty)
{
	size_t *fail, i, n;
	int s;

	if ((fail = calloc(ty->nt > 0 ? ty->nt : 1, sizeof(*fail))) == NULL)
		return FA_ERR_NOMEM;
	n = fold_checks(ty->t, ty->nt, fail);
	family(f, "fabaudit_check_status", "gauge",
	    "Worst status of a check over its targets (fail > error > "
	    "waived > not_tested > pass > not_applicable): 1 for that "
	    "status, 0 for the others.");
	for (i = 0; i < n; i++)
		for (s = 0; s < CS_MAX; s++) {
			fputs("fabaudit_check_status{check=\"", f);
			put_label(f, ty->t[i].id);
			fprintf(f, "\",status=\"%s\"} %d\n", cstate_names[s],
			    ty->t[i].st == (enum cstate)s);
		}
	family(f, "fabaudit_check_failing_targets", "gauge",
	    "Targets on which a check failed, not waived.");
	for (i = 0; i < n; i++) {
		fputs("fabaudit_check_failing_targets{check=\"", f);
		put_label(f, ty->t[i].id);
		fprintf(f, "\"} %zu\n", fail[i]);
	}
	free(fail);
	return 0;
}

/* The catalogue's age from scope (newer reports), else scan; 0 if none. */
static int
catalogue_age(const json_t *report, long long *days)
{
	static const char *const where[] = { "scope", "scan" };
	const json_t *c;
	size_t i;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		c = json_object_get(json_object_get(report, where[i]),
		    "catalogue");
		if (fa_json_get_int(c, "age_days", 0, 1000000, days) == 0)
			return 1;
	}
	return 0;
}

static int
put_report(FILE *f, const json_t *report, struct tally *ty)
{
	const char *host;
	long long age;
	int i;

	if ((host = fa_json_get_str(json_object_get(report, "scope"),
	    "host")) == NULL && (host = fa_json_get_str(json_object_get(
	    report, "scan"), "host")) == NULL)
		host = "";
	family(f, "fabaudit_info", "gauge",
	    "Always 1: the fabaudit version and the host it scanned.");
	fputs("fabaudit_info{version=\"", f);
	put_label(f, FA_VERSION);
	fputs("\",host=\"", f);
	put_label(f, host);
	fputs("\"} 1\n", f);

	family(f, "fabaudit_failures", "gauge",
	    "Failing results not waived by the policy, by severity.");
	for (i = 0; i < FA_SEV_MAX; i++)
		fprintf(f, "fabaudit_failures{severity=\"%s\"} %zu\n",
		    fa_severity_name((enum fa_severity)i), ty->failures[i]);
	/* A gauge: Prometheus keeps the _total suffix for counters. */
	family(f, "fabaudit_waived", "gauge",
	    "Failing results a policy waiver covers.");
	fprintf(f, "fabaudit_waived %zu\n", ty->waived);
	family(f, "fabaudit_results", "gauge", "Results by status.");
	for (i = 0; i < FA_ST_MAX; i++)
		fprintf(f, "fabaudit_results{status=\"%s\"} %zu\n",
		    fa_status_name((enum fa_status)i), ty->by_status[i]);
	if (put_checks(f, ty) != 0)
		return FA_ERR_NOMEM;
	if (catalogue_age(report, &age)) {
		family(f, "fabaudit_catalogue_age_days", "gauge",
		    "Age in days of the host CVE catalogue the scan used.");
		fprintf(f, "fabaudit_catalogue_age_days %lld\n", age);
	}
	return 0;
}

/*
 * The last success time recorded in the previous file's text: the value
 * of its one unlabelled LAST_SUCCESS sample, an integer no later than
 * now (this writer's format).  0 (never) when the text is too long, the
 * sample is missing, repeated or malformed.
 */
static long long
previous_success(const char *text, time_t now)
{
	const size_t nl = strlen(LAST_SUCCESS);
	const char *p, *v, *d, *eol, *end;
	long long found = 0, x;
	size_t len;
	int n = 0;

	if (text == NULL || (len = strnlen(text, FA_METRICS_PREV_MAX + 1)) >
	    FA_METRICS_PREV_MAX)
		return 0;
	for (p = text, end = text + len; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if ((size_t)(eol - p) <= nl ||
		    memcmp(p, LAST_SUCCESS, nl) != 0 ||
		    (p[nl] != ' ' && p[nl] != '\t'))
			continue;
		for (v = p + nl; v < eol && (*v == ' ' || *v == '\t'); v++)
			;
		/* 1-18 digits to the end of the line: no overflow. */
		for (d = v, x = 0; d < eol && d - v < 18 && *d >= '0' &&
		    *d <= '9'; d++)
			x = x * 10 + (*d - '0');
		if (d == v || d != eol || x > (long long)now)
			continue;
		found = x;
		n++;
	}
	return n == 1 ? found : 0;
}

int
fa_metrics_text(const json_t *report, double duration_s, int run_ok,
    const char *previous_text, time_t now, char **buf, size_t *len,
    char **why)
{
	struct tally ty;
	FILE *f;
	long long last;
	int r;

	*buf = NULL;
	*len = 0;
	if (why != NULL)
		*why = NULL;
	memset(&ty, 0, sizeof(ty));
	if (report == NULL)
		run_ok = 0;
	else if ((r = tally_report(report, &ty, why)) != 0)
		return r;
	if (!isfinite(duration_s) || duration_s < 0)
		duration_s = 0;
	last = run_ok ? (long long)now : previous_success(previous_text, now);
	if ((f = open_memstream(buf, len)) == NULL) {
		free(ty.t);
		return FA_ERR_NOMEM;
	}
	r = report != NULL ? put_report(f, report, &ty) : 0;
	free(ty.t);
	family(f, "fabaudit_scan_duration_seconds", "gauge",
	    "How long the last run took.");
	fprintf(f, "fabaudit_scan_duration_seconds %.3f\n", duration_s);
	family(f, "fabaudit_last_run_timestamp_seconds", "gauge",
	    "When the last run ended, in seconds since the Epoch.");
	fprintf(f, "fabaudit_last_run_timestamp_seconds %lld\n",
	    (long long)now);
	family(f, "fabaudit_last_run_success", "gauge",
	    "1 if the last run scanned and wrote its report, whatever the "
	    "findings; 0 if it failed.");
	fprintf(f, "fabaudit_last_run_success %d\n", run_ok ? 1 : 0);
	family(f, LAST_SUCCESS, "gauge",
	    "When a run last succeeded, in seconds since the Epoch; 0 if "
	    "never.");
	fprintf(f, "%s %lld\n", LAST_SUCCESS, last);
	if (ferror(f))
		r = FA_ERR_NOMEM;
	if (fclose(f) != 0 || r != 0 || *buf == NULL) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		return FA_ERR_NOMEM;
	}
	return 0;
}

/*
 * The previous metrics file's text into *text (NULL when path is absent
 * or the file is too long to be ours), refusing anything but a regular
 * file: O_NOFOLLOW for a symbolic link, O_NONBLOCK so that a FIFO cannot
 * hang the open before fstat sees it.
 */
static int
read_previous(const char *path, char **text, char **why)
{
	struct stat st;
	char *b = NULL;
	size_t got = 0;
	ssize_t n;
	int fd, saved;

	*text = NULL;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 && errno == ELOOP)
		return fa_why(why, "%s: is a symbolic link", path);
	if (fd < 0)
		goto fail;
	if (fstat(fd, &st) != 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fa_why(why, "%s: is not a regular file", path);
	}
	if ((b = malloc(FA_METRICS_PREV_MAX + 2)) == NULL) {
		close(fd);
		return FA_ERR_NOMEM;
	}
	while (got <= FA_METRICS_PREV_MAX) {
		n = read(fd, b + got, FA_METRICS_PREV_MAX + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	b[got] = '\0';
	if (got > FA_METRICS_PREV_MAX)
		free(b);
	else
		*text = b;
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	free(b);
	if (why != NULL)
		*why = fa_strfmt("%s: %s", path, strerror(saved));
	return FA_ERR_IO;
}

int
fa_metrics_write(const char *path, const json_t *report,
    double duration_s, int run_ok, time_t now, char **why)
{
	char *dir = NULL, *prev = NULL, *buf = NULL;
	const char *base, *slash;
	size_t len;
	int r;

	if (why != NULL)
		*why = NULL;
	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return fa_why(why, "%s: not a file name", path);
	dir = slash == NULL ? fa_strdup(".") : slash == path ? fa_strdup("/") :
	    strndup(path, (size_t)(slash - path));
	if (dir == NULL)
		return FA_ERR_NOMEM;
	if ((r = read_previous(path, &prev, why)) != 0 ||
	    (r = fa_metrics_text(report, duration_s, run_ok, prev, now, &buf,
	    &len, why)) != 0 ||
	    (r = fa_write_atomic_mode(dir, base, buf, len, 0644, why)) != 0)
		goto out;
	/* Mode 0644: node_exporter reads it as its own user. */
out:
	free(dir);
	free(prev);
	free(buf);
	return r;
}
