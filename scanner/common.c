/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the subcommands: diagnostics, bounded file reads,
 * output options, policy loading, and the evaluate-render-write step.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "../reports/diff.h"
#include "../reports/report.h"
#include "../reports/sign.h"
#include "scanner.h"

void
fa_diag(const char *where, const char *fmt, ...)
{
	va_list ap;

	fputs("fabaudit: ", stderr);
	if (where != NULL)
		fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
fa_bad_option(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";
	int len = (int)strcspn(arg, "=");

	/* A long option is named as typed; optopt holds its table value. */
	if (strncmp(arg, "--", 2) == 0)
		fa_diag(cmd, c == ':' ? "option %.*s needs an argument" :
		    "unknown option %.*s", len, arg);
	else if (c == ':')
		fa_diag(cmd, "option -%c needs an argument", optopt);
	else
		fa_diag(cmd, "unknown option -%c", optopt);
}

void
fa_print_usage(FILE *f, const char *u)
{
	if (strncmp(u, "       ", 7) == 0)
		fprintf(f, "usage: %s", u + 7);
	else
		fputs(u, f);
}

int
fa_read_file(const char *path, size_t max, char **bufp, size_t *lenp,
    char **why)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, r = FA_ERR_IO;

	*bufp = NULL;
	*why = NULL;
	/* O_NONBLOCK: a FIFO must not block us before the S_ISREG test. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) < 0) {
		*why = fa_strdup(strerror(errno));
		return FA_ERR_IO;
	}
	if (fstat(fd, &st) != 0) {
		*why = fa_strdup(strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = fa_strdup("not a regular file");
		r = FA_ERR_INPUT;
		goto out;
	}
	if ((uintmax_t)st.st_size > max) {
		*why = fa_strfmt("larger than %zu bytes", max);
		r = FA_ERR_TOOBIG;
		goto out;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	/* Read at most the size seen; a file that grows is cut, not overrun. */
	while (len < (size_t)st.st_size) {
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*why = fa_strdup(strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	buf = NULL;
	r = 0;
out:
	free(buf);
	close(fd);
	return r;
}

int
fa_parse_formats(const char *s, struct fa_out_opts *o)
{
	static const struct {
		const char	*name;
		size_t		 off;
	} fmts[] = {
		{ "json", offsetof(struct fa_out_opts, json) },
		{ "txt", offsetof(struct fa_out_opts, txt) },
		{ "xml", offsetof(struct fa_out_opts, xml) },
		{ "html", offsetof(struct fa_out_opts, html) },
		{ "junit", offsetof(struct fa_out_opts, junit) },
	};
	char *copy, *tok, *save = NULL;
	size_t i;
	int r = 0, any = 0;

	if ((copy = strdup(s)) == NULL)
		return -1;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		*(int *)(void *)((char *)o + fmts[i].off) = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
			if (strcmp(tok, fmts[i].name) == 0)
				break;
		if (i == sizeof(fmts) / sizeof(fmts[0])) {
			fa_diag("-f", "unknown format '%s' (formats: json, "
			    "txt, xml, html, junit)", tok);
			r = -1;
			continue;
		}
		*(int *)(void *)((char *)o + fmts[i].off) = 1;
		any = 1;
	}
	if (r == 0 && !any) {
		fa_diag("-f", "no format given");
		r = -1;
	}
	free(copy);
	return r;
}

int
fa_parse_fail_on(const char *s, struct fa_out_opts *o)
{
	/* "none": a scheduler's job that ran the audit succeeds whatever it
	 * found; the findings are in the reports and the metrics. */
	if (strcmp(s, "none") == 0) {
		o->findings_ok = 1;
		return 0;
	}
	if (fa_severity_parse(s, &o->fail_on) != 0) {
		fa_diag("--fail-on", "unknown severity '%s' (critical, high, "
		    "medium, low, info, or none)", s);
		return -1;
	}
	return 0;
}

static int
report_policy_errors(const char *errs)
{
	const char *p = errs, *nl;

	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		fprintf(stderr, "fabaudit: %.*s\n",
		    (int)(nl != NULL ? (size_t)(nl - p) : strlen(p)), p);
		p = nl != NULL ? nl + 1 : NULL;
	}
	return FA_EXIT_USAGE;
}

int
fa_load_policy_text(const char *name, const char *text, time_t now,
    struct fa_policy **out)
{
	char *errs = NULL;
	int r;

	r = fa_policy_parse(name, text, strlen(text), now, out, &errs);
	if (r != 0) {
		if (errs != NULL)
			report_policy_errors(errs);
		else
			fa_diag(name, "%s", fa_strerror(r));
		free(errs);
		return FA_EXIT_USAGE;
	}
	return 0;
}

int
fa_load_policy(const char *path, struct fa_policy **out)
{
	char *buf = NULL, *why = NULL, *errs = NULL;
	size_t len = 0;
	int r;

	*out = NULL;
	r = fa_read_file(path, FA_POLICY_MAX_BYTES, &buf, &len, &why);
	if (r != 0) {
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return FA_EXIT_USAGE;
	}
	r = fa_policy_parse(path, buf, len, time(NULL), out, &errs);
	free(buf);
	if (r != 0) {
		if (errs != NULL)
			report_policy_errors(errs);
		else
			fa_diag(path, "%s", fa_strerror(r));
		free(errs);
		return FA_EXIT_USAGE;
	}
	return 0;
}

/*
 * mkdir(2) of one level; a directory it creates is removed again if the
 * run is interrupted before it is filled (rmdir: only while empty), so
 * the two steps are not split by a signal.  0, or -1 with errno.
 */
static int
mkdir_one(const char *s)
{
	sigset_t old;
	int r, e;

	fa_interrupt_defer(&old);
	if ((r = mkdir(s, 0750)) == 0)
		(void)fa_interrupt_add(s, 1);
	e = errno;
	fa_interrupt_undefer(&old);
	errno = e;
	return r != 0 && e != EEXIST ? -1 : 0;
}

/* mkdir -p, mode 0750 for what it creates; 0 or -1 with errno. */
static int
mkdir_p(const char *dir)
{
	char *p, *s;
	int r = 0;

	if ((s = strdup(dir)) == NULL)
		return -1;
	for (p = s + 1; r == 0 && *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		r = mkdir_one(s);
		*p = '/';
	}
	if (r == 0)
		r = mkdir_one(s);
	free(s);
	return r;
}

int
fa_prepare_outdir(const char *dir)
{
	struct fa_outset *set;
	struct stat st;
	char *warn = NULL, *why = NULL;
	int r;

	if (*dir == '\0') {
		fa_diag(NULL, "the output directory name is empty");
		return FA_EXIT_USAGE;
	}
	if (mkdir_p(dir) != 0) {
		fa_diag(dir, "cannot create output directory: %s",
		    strerror(errno));
		return FA_EXIT_USAGE;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fa_diag(dir, "not a directory");
		return FA_EXIT_USAGE;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		fa_diag(dir, "output directory not writable: %s",
		    strerror(errno));
		return FA_EXIT_USAGE;
	}
	/* Who else may write it: refused or warned now, before any scan. */
	if ((r = fa_outset_open(dir, FA_OUTSET_RUN, &set, &warn, &why)) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return FA_EXIT_USAGE;
	}
	(void)fa_outset_close(set, 0, NULL);	/* nothing written */
	if (warn != NULL)
		fa_diag(NULL, "warning: %s", warn);
	free(warn);
	return 0;
}

/* Write j as dir/name (indented, keys sorted); its SHA-256 to sha256 if
 * not NULL.  0 or FA_EXIT_NORUN (diagnostic printed). */
static int
write_json(struct fa_outset *set, const char *name, const json_t *j,
    char sha256[65])
{
	char *why = NULL;
	int r;

	r = fa_outset_write_json(set, name, j, JSON_INDENT(2) |
	    JSON_SORT_KEYS, sha256, &why);
	if (r == FA_ERR_NOMEM && why == NULL)
		fa_diag(name, "out of memory");
	else if (r != 0)
		fa_diag(NULL, "cannot write %s", why != NULL ? why : name);
	free(why);
	return r != 0 ? FA_EXIT_NORUN : 0;
}

struct snap_items {
	const struct fa_snapshot	*snap;
	int				 reveal;
	struct fa_redaction		 red;
};

/*
 * Observation i, its secrets redacted in place while it is written (a
 * redacted copy of a large fabric's topology would be a second one).
 */
static json_t *
snap_item(size_t i, void *arg)
{
	struct snap_items *si = arg;
	json_t *j;

	if (!si->reveal && fa_json_redact_begin(si->snap->obs[i].data,
	    &si->red) != 0)
		return NULL;
	if ((j = fa_snapshot_obs_json(si->snap, i, 1)) == NULL &&
	    !si->reveal)
		fa_json_redact_end(&si->red);
	return j;
}

/* Observation i was written: its secrets back. */
static void
snap_item_done(size_t i, void *arg)
{
	struct snap_items *si = arg;

	(void)i;
	if (!si->reveal)
		fa_json_redact_end(&si->red);
}

/*
 * snapshot.json, one observation at a time (a large fabric's would double
 * the memory held as one JSON tree); its SHA-256 to sha256.  0 or
 * FA_EXIT_NORUN (diagnostic printed).
 */
static int
write_snapshot(struct fa_outset *set, const struct fa_snapshot *snap,
    int reveal, char sha256[65])
{
	struct snap_items si = { snap, reveal, { NULL, NULL, 0, 0, NULL } };
	char *why = NULL;
	json_t *head;
	int r;

	if ((head = fa_snapshot_head_json(snap, reveal)) == NULL) {
		fa_diag("snapshot.json", "out of memory");
		return FA_EXIT_NORUN;
	}
	r = fa_outset_write_json_items(set, "snapshot.json", head,
	    "observations", snap->nobs, snap_item, snap_item_done, &si,
	    sha256, &why);
	json_decref(head);
	if (r == FA_ERR_NOMEM && why == NULL)
		fa_diag("snapshot.json", "out of memory");
	else if (r != 0)
		fa_diag(NULL, "cannot write %s", why != NULL ? why :
		    "snapshot.json");
	free(why);
	return r != 0 ? FA_EXIT_NORUN : 0;
}

int
fa_write_out(struct fa_outset *set, const char *name, const char *buf,
    size_t len)
{
	char *why = NULL;

	if (fa_outset_write(set, name, buf, len, 0640, &why) != 0) {
		fa_diag(NULL, "cannot write %s", why != NULL ? why : name);
		free(why);
		return FA_EXIT_NORUN;
	}
	return 0;
}

/* The comparison with the baseline, after the summary. */
static void
print_baseline(const json_t *report)
{
	const json_t *b = json_object_get(report, "baseline"), *e;
	size_t i;
	char *t;

	json_array_foreach(json_object_get(b, "new_failures"), i, e) {
		t = fa_str_sanitize(fa_json_get_str(e, "target"),
		    strlen(fa_json_get_str(e, "target")));
		printf("New: %s %s %s%s\n", fa_json_get_str(e, "severity"),
		    fa_json_get_str(e, "id"), t != NULL ? t : "?",
		    json_is_true(json_object_get(e, "waived")) ?
		    " (waived)" : "");
		free(t);
	}
	t = fa_str_sanitize(fa_json_get_str(b, "file"),
	    strlen(fa_json_get_str(b, "file")));
	printf("Baseline %s: %zu new failures (%lld at or above %s, not "
	    "waived), %zu resolved, %zu changed, %lld unchanged.\n",
	    t != NULL ? t : "?",
	    json_array_size(json_object_get(b, "new_failures")),
	    (long long)json_integer_value(json_object_get(b,
	    "failing_at_or_above")), fa_json_get_str(b, "fail_on"),
	    json_array_size(json_object_get(b, "resolved")),
	    json_array_size(json_object_get(b, "changed")),
	    (long long)json_integer_value(json_object_get(b,
	    "unchanged_failures")));
	free(t);
}

int
fa_load_baseline(const char *path, struct fa_out_opts *o)
{
	json_error_t je;
	json_t *j, *map = NULL;
	char *buf = NULL, *why = NULL;
	size_t len = 0;
	int r;

	if ((r = fa_read_file(path, FA_SNAPSHOT_MAX_BYTES, &buf, &len,
	    &why)) != 0) {
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return FA_EXIT_USAGE;
	}
	if (fa_sha256_hex(buf, len, o->baseline_sha) != 0) {
		free(buf);
		fa_diag(path, "cannot hash");
		return FA_EXIT_NORUN;
	}
	if ((j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je)) == NULL) {
		free(buf);
		why = fa_json_errmsg(path, &je);
		fa_diag("--baseline", "%s", why != NULL ? why :
		    "out of memory");
		free(why);
		return FA_EXIT_USAGE;
	}
	free(buf);
	if ((r = fa_diff_index(j, &map, &why)) != 0) {
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		json_decref(j);
		return FA_EXIT_USAGE;
	}
	json_decref(map);
	json_decref(o->baseline);
	o->baseline = j;
	o->baseline_file = path;
	return 0;
}

/* The names of the files this run wrote to the output directory. */
struct written {
	const char	*v[FA_OUT_MAX_FILES];
	size_t		 n;
};

static void
wrote(struct written *w, const char *name)
{
	if (w->n < sizeof(w->v) / sizeof(w->v[0]))
		w->v[w->n++] = name;
}

/* The streaming writers in fa_outset_write_emit()'s shape. */
static int
xml_emit(const void *j, fa_emit_fn emit, void *arg, char **why)
{
	return fa_report_xml_emit(j, emit, arg, why);
}

static int
junit_emit(const void *j, fa_emit_fn emit, void *arg, char **why)
{
	return fa_report_junit_emit(j, emit, arg, why);
}

static int
html_emit(const void *j, fa_emit_fn emit, void *arg, char **why)
{
	return fa_report_html_emit(j, emit, arg, why);
}

static int
txt_emit(const void *ctx, fa_emit_fn emit, void *arg, char **why)
{
	return fa_report_txt_emit(ctx, emit, arg, why);
}

int
fa_write_renderings(const struct fa_out_opts *o, const json_t *j,
    const char **names, size_t *n)
{
	/* Every rendering streams to its file as it is made. */
	static const struct {
		const char	*name;
		size_t		 off;
		int		(*emit)(const void *, fa_emit_fn, void *,
				    char **);
	} rend[] = {
		{ "report.xml", offsetof(struct fa_out_opts, xml), xml_emit },
		{ "report.html", offsetof(struct fa_out_opts, html),
		  html_emit },
		{ "junit.xml", offsetof(struct fa_out_opts, junit),
		  junit_emit },
	};
	char *why = NULL;
	size_t i;
	int r = 0;

	if (o->json) {
		if ((r = write_json(o->set, "report.json", j, NULL)) != 0)
			return r;
		names[(*n)++] = "report.json";
	}
	for (i = 0; i < sizeof(rend) / sizeof(rend[0]); i++) {
		if (!*(const int *)(const void *)((const char *)o +
		    rend[i].off))
			continue;
		if ((r = fa_outset_write_emit(o->set, rend[i].name,
		    rend[i].emit, j, &why)) != 0) {
			/* The report could not be rendered, or the file
			 * written (as fa_write_out() says). */
			if (r != FA_ERR_IO)
				fa_diag(rend[i].name, "%s", why != NULL ? why :
				    "cannot render");
			else
				fa_diag(NULL, "cannot write %s", why != NULL ?
				    why : rend[i].name);
			r = FA_EXIT_NORUN;
			break;
		}
		names[(*n)++] = rend[i].name;
	}
	free(why);
	return r;
}

/*
 * report.json and the renderings made from it, after the comparison with
 * the baseline; the report is left in done.
 */
static int
emit_renderings(const struct fa_out_opts *o, const struct fa_report_ctx *rctx,
    struct written *w, struct fa_emitted *done)
{
	json_t *j;
	char *why = NULL;
	int r;

	if ((j = fa_report_json(rctx)) == NULL) {
		fa_diag(NULL, "out of memory");
		return FA_EXIT_NORUN;
	}
	if (o->baseline != NULL && fa_diff_annotate(j, o->baseline,
	    o->baseline_file, o->baseline_sha, o->fail_on, &done->new_failing,
	    &why) != 0) {
		fa_diag(o->baseline_file, "%s", why != NULL ? why :
		    "cannot compare");
		free(why);
		json_decref(j);
		return FA_EXIT_NORUN;
	}
	if ((r = fa_write_renderings(o, j, w->v, &w->n)) != 0) {
		json_decref(j);
		return r;
	}
	done->report = j;
	return 0;
}

/*
 * The output set of this run in o->outdir.  A `check` of the snapshot in
 * that directory keeps it and its capture: they are its evidence.  0 or
 * FA_EXIT_NORUN (diagnostic printed).
 */
static int
open_set(const struct fa_out_opts *o, const char *snapshot_name,
    struct fa_outset **set)
{
	struct stat a, b;
	char *why = NULL;
	int r;

	if ((r = fa_outset_open(o->outdir, FA_OUTSET_RUN, set, NULL,
	    &why)) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return FA_EXIT_NORUN;
	}
	if (snapshot_name != NULL && stat(snapshot_name, &a) == 0 &&
	    fstatat(fa_outset_dirfd(*set), "snapshot.json", &b, 0) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		(void)fa_outset_keep(*set, "snapshot.json");
		(void)fa_outset_keep(*set, "mads.pcap");
	}
	return 0;
}

int
fa_evaluate_and_emit(const struct fa_snapshot *snap,
    const struct fa_policy *policy, const struct fa_out_opts *o,
    const char *mode, const char *snapshot_name, const char *snapshot_sha256,
    struct fa_emitted *done)
{
	struct fa_eval_ctx ectx = { snap, policy };
	struct fa_results res = { NULL, 0, 0 };
	struct fa_report_ctx rctx;
	struct fa_tally t;
	struct written w = { { NULL }, 0 };
	struct fa_emitted local = { NULL, 0 };
	struct fa_outset *set = NULL;
	struct fa_out_opts oo;
	char *txt = NULL, *why = NULL, sha[65];
	int r, rc = FA_EXIT_NORUN;

	if ((r = fa_evaluate(&ectx, &res)) != 0) {
		fa_diag(NULL, "evaluation failed: %s", fa_strerror(r));
		goto out;
	}
	if (o->outdir != NULL && (r = open_set(o, snapshot_name, &set)) != 0)
		goto out;
	oo = *o;
	oo.set = set;
	o = &oo;
	memset(&rctx, 0, sizeof(rctx));
	rctx.snap = snap;
	rctx.res = &res;
	rctx.reveal = o->reveal;
	rctx.fail_on = o->fail_on;
	rctx.mode = mode;
	rctx.policy_name = policy->name;
	rctx.policy = policy;
	rctx.generated = time(NULL);
	if (snapshot_name == NULL) {
		/* A scan: write the snapshot, hashing what is written. */
		if ((r = write_snapshot(set, snap, o->reveal, sha)) != 0)
			goto out;
		wrote(&w, "snapshot.json");
		if (o->pcap != NULL) {
			if (fa_outset_place(set, o->pcap, "mads.pcap",
			    &why) != 0) {
				fa_diag(NULL, "%s", why != NULL ? why :
				    "cannot place mads.pcap");
				goto out;
			}
			wrote(&w, "mads.pcap");
		}
		snapshot_name = "snapshot.json";
		snapshot_sha256 = sha;
	}
	rctx.snapshot_file = snapshot_name;
	rctx.snapshot_sha256 = snapshot_sha256;
	if (done == NULL)
		done = &local;
	done->report = NULL;
	done->new_failing = 0;
	if (o->outdir != NULL && (r = emit_renderings(o, &rctx, &w,
	    done)) != 0)
		goto out;
	if (o->outdir != NULL && o->txt) {
		/* Streamed to the file, as the XML renderings are. */
		if ((r = fa_outset_write_emit(set, "report.txt", txt_emit,
		    &rctx, &why)) != 0) {
			fa_diag(NULL, r == FA_ERR_IO ? "cannot write %s" : "%s",
			    why != NULL ? why : r == FA_ERR_IO ?
			    "report.txt" : "out of memory");
			r = FA_EXIT_NORUN;
			goto out;
		}
		wrote(&w, "report.txt");
	}
	/* Last: SHA256SUMS covers every file above, and is then signed. */
	if (o->outdir != NULL && o->sign_key != NULL &&
	    fa_sign_outset(set, w.v, w.n, o->sign_key, &why) != 0) {
		fa_diag("--sign", "%s", why != NULL ? why : "signing failed");
		goto out;
	}
	/* In place, and the earlier run's other files gone (or all undone). */
	r = fa_outset_close(set, 1, &why);
	set = NULL;
	if (r != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(r));
		goto out;
	}
	fa_tally(&res, o->fail_on, &t);
	/* --quiet with a baseline: silent unless something is new. */
	if (!o->quiet || (o->baseline != NULL && done->new_failing > 0)) {
		txt = o->outdir != NULL ? fa_report_summary(&rctx) :
		    fa_report_txt(&rctx);
		if (txt == NULL) {
			fa_diag(NULL, "out of memory");
			goto out;
		}
		fputs(txt, stdout);
		if (o->baseline != NULL)
			print_baseline(done->report);
		if (o->outdir != NULL)
			printf("Report: %s\n", o->outdir);
		fflush(stdout);
	}
	if (o->findings_ok)
		rc = FA_EXIT_OK;
	else if (o->baseline != NULL)
		rc = done->new_failing > 0 ? FA_EXIT_FINDINGS : FA_EXIT_OK;
	else
		rc = t.failing > 0 ? FA_EXIT_FINDINGS : FA_EXIT_OK;
out:
	(void)fa_outset_close(set, 0, NULL);	/* failed: as it was */
	free(txt);
	free(why);
	if (o->last && !FA_FREE_BEFORE_EXIT)
		return rc;	/* the report and results: left to exit(2) */
	if (done == &local)
		json_decref(local.report);
	fa_results_free(&res);
	return rc;
}
