/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: node reports as `fabaudit merge -o DIR R1 R2 ...`
 * reads them (scanner/cmd_merge.c): jansson's parser (duplicate keys
 * refused), reports/merge.c fa_merge_add of each (fa_merge_check_report),
 * fa_merge_finish, then renderings of the merged report to memory:
 * fa_merge_txt, fa_merge_summary and one of report.xml, report.html,
 * junit.xml (reports/report_{xml,html,junit}.c; the input's length
 * divided by 3, modulo 3, chooses), and its warnings.  When the input is
 * one document, a renderer (the length modulo 3) also gets that document
 * as it is: they read only the JSON, any member of which may be missing
 * or of the wrong type (reports/report.h).  One renderer per document and
 * run, not all three: a 100 KB report took 60 ms to render six times
 * under ASan, and the length, which the fuzzer mutates, reaches each.
 * A regression input replays through all three (fz_every_renderer(),
 * fuzz/fuzz.h).
 *
 * Input: up to 16 reports separated by NUL bytes.  The --fail-on severity
 * is the input's length modulo the number of severities.  A report whose
 * SHA-256 starts with 0 is refused for a bad signature (fa_merge_reject);
 * a document that is not JSON is a --expect / --failed list: each line
 * (at most 8) a node name, or NODE TAB STATE TAB REASON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../core/errors.h"
#include "../core/model.h"
#include "../reports/merge.h"
#include "../reports/report.h"

#define MAX_DOCS	16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Render j with renderer `which` (modulo their number), or with each
 * (fz_every_renderer()). */
static void
render(const json_t *j, int ours, size_t which)
{
	static int (*const rend[])(const json_t *, char **, size_t *,
	    char **) = { fa_report_xml, fa_report_html, fa_report_junit };
	const size_t n = sizeof(rend) / sizeof(rend[0]);
	char *buf, *why;
	size_t i, len;
	int r;

	for (i = 0; i < n; i++) {
		if (!fz_every_renderer() && i != which % n)
			continue;
		buf = why = NULL;
		r = rend[i](j, &buf, &len, &why);
		if (r == 0 && (buf == NULL || strlen(buf) != len))
			abort();
		/* What merge made must render; anything else may fail. */
		if (r != 0 && r != FA_ERR_NOMEM && (ours || r != FA_ERR_INPUT))
			abort();
		free(buf);
		free(why);
	}
}

/* A document that is not JSON, as node lists; the names taken. */
static size_t
lists(struct fa_merge *m, const uint8_t *p, size_t n)
{
	char *copy, *line, *save = NULL, *st, *reason, *why = NULL;
	size_t k = 0, taken = 0;
	int r;

	if ((copy = malloc(n + 1)) == NULL)
		abort();
	memcpy(copy, p, n);
	copy[n] = '\0';
	for (line = strtok_r(copy, "\n", &save); line != NULL && k < 8;
	    line = strtok_r(NULL, "\n", &save), k++) {
		if ((st = strchr(line, '\t')) != NULL) {
			*st++ = '\0';
			if ((reason = strchr(st, '\t')) != NULL)
				*reason++ = '\0';
			r = fa_merge_unscanned(m, line, st, reason, &why);
		} else
			r = fa_merge_expect(m, line, &why);
		if (r == 0)
			taken++;
		else if (r != FA_ERR_INPUT || why == NULL)
			abort();
		free(why);
		why = NULL;
	}
	free(copy);
	return taken;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum fa_severity fail_on = (enum fa_severity)(size % FA_SEV_MAX);
	const uint8_t *p = data, *end = data + size, *nul;
	struct fa_merge *m;
	json_error_t je;
	json_t *j, *mj = NULL;
	char *why = NULL, *s, name[16], sha[65];
	size_t n, ndocs = 0, added = 0;
	int r;

	if ((m = fa_merge_new(fail_on)) == NULL)
		abort();
	while (p <= end && ndocs < MAX_DOCS) {
		nul = memchr(p, '\0', (size_t)(end - p));
		n = nul != NULL ? (size_t)(nul - p) : (size_t)(end - p);
		ndocs++;
		snprintf(name, sizeof(name), "node%zu.json", ndocs);
		if (fa_sha256_hex(p, n, sha) != 0)
			abort();
		if ((j = json_loadb((const char *)p, n,
		    JSON_REJECT_DUPLICATES, &je)) != NULL) {
			if (nul == NULL && ndocs == 1)
				render(j, 0, size);
			if (sha[0] == '0') {
				const struct fa_merge_src src = { name, sha,
				    "bad", "the fuzzer says so" };

				r = fa_merge_reject(m, j, &src, &why);
			} else
				r = fa_merge_add(m, j, name, sha, &why);
			if (r == 0)
				added++;
			else if (r != FA_ERR_INPUT && r != FA_ERR_TOOBIG)
				abort();
			else if (why == NULL)
				abort();	/* the reason is printed */
			free(why);
			why = NULL;
			json_decref(j);
		} else
			added += lists(m, p, n);
		if (nul == NULL)
			break;
		p = nul + 1;
	}
	r = fa_merge_finish(m, (time_t)1796200000, &mj, &why);
	if ((r == 0) != (added > 0))
		abort();
	free(why);
	if (r == 0) {
		free(fa_merge_txt(mj, 20));
		free(fa_merge_summary(mj));
		render(mj, 1, size / 3);
		/* Writable (UTF-8 throughout), whatever the layout. */
		if ((s = json_dumps(mj, JSON_COMPACT)) == NULL)
			abort();
		free(s);
		json_decref(mj);
	}
	fa_merge_free(m);
	return 0;
}
