/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for snapshot.json written observation by observation
 * (fa_outset_write_json_items with fa_snapshot_head_json/obs_json): the
 * file must hold the whole snapshot's JSON tree, redacted (by copy, or in
 * place as the scanner does) or not, with no observation or many, hostile
 * strings included; each observation whole on a line of its own, the
 * rest as JSON_INDENT(2) writes it; the secrets are back afterwards; its
 * SHA-256 is that of the file; a failing item leaves no file.
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
#include "../../core/snapshot.h"
#include "../../core/util.h"
#include "../../reports/report.h"

struct items {
	const struct fa_snapshot	*snap;
	int				 reveal;
	size_t				 fail_at;	/* (size_t)-1: never */
	int				 in_place;	/* redact in place */
	struct fa_redaction		 red;
};

/* snapshot.json in dir as a scan writes it: one file of a run's set. */
static int
write_items(const char *dir, const json_t *head, size_t n,
    json_t *(*item)(size_t, void *), void (*after)(size_t, void *),
    void *arg, char sha[65], char **why)
{
	struct fa_outset *set;
	int r;

	assert_int_equal(fa_outset_open(dir, FA_OUTSET_RUN, &set, NULL, why),
	    0);
	r = fa_outset_write_json_items(set, "snapshot.json", head,
	    "observations", n, item, after, arg, sha, why);
	assert_int_equal(fa_outset_close(set, r == 0, NULL), 0);
	return r;
}

static json_t *
item(size_t i, void *arg)
{
	struct items *it = arg;

	if (i == it->fail_at)
		return NULL;
	/* As the scanner does: redacted in place while written. */
	if (it->in_place) {
		assert_int_equal(fa_json_redact_begin(it->snap->obs[i].data,
		    &it->red), 0);
		return fa_snapshot_obs_json(it->snap, i, 1);
	}
	return fa_snapshot_obs_json(it->snap, i, it->reveal);
}

static void
item_done(size_t i, void *arg)
{
	struct items *it = arg;

	(void)i;
	if (it->in_place)
		fa_json_redact_end(&it->red);
}

/* A snapshot with n observations, a secret and awkward strings among them. */
static struct fa_snapshot *
sample(size_t n)
{
	struct fa_snapshot *s = fa_snapshot_new();
	json_t *d;
	char target[32];
	size_t i;

	assert_non_null(s);
	assert_int_equal(json_object_set_new(s->meta, "scan", json_pack(
	    "{s:s, s:[s]}", "started", "2026-12-03T00:00:00Z", "families",
	    "ib")), 0);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_IB,
	    FA_FAMST_COLLECTED, NULL), 0);
	for (i = 0; i < n; i++) {
		snprintf(target, sizeof(target), "H-0x%016zx/1", i);
		d = json_pack("{s:i, s:s, s:o, s:[i, i], s:{}}", "lid", (int)i,
		    "desc", i % 2 ? "<script>\n\"observations\": []" :
		    "plain", "mkey", fa_secret_new(0x1234 + i), "list", 1, 2,
		    "empty");
		assert_non_null(d);
		assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL,
		    "ib.test", target, "SubnGet(Test)", i % 3 ?
		    FA_OBS_COMPLETE : FA_OBS_NO_RESPONSE, i % 3 ? NULL :
		    "no response after 3 sends", d, NULL), 0);
	}
	return s;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);	/* a string too, for strstr() */
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void
same_as_whole(size_t n, int reveal, int in_place)
{
	struct fa_snapshot *s = sample(n);
	struct items it = { s, reveal, (size_t)-1, in_place,
	    { NULL, NULL, 0, 0, NULL } };
	char *before, *after;
	json_t *all;
	char dir[] = "/tmp/fa-items.XXXXXX", path[64], sha[65], want_sha[65];
	char *why = NULL, *got, *want, *line, *end;
	json_t *head, *whole, *back;
	json_error_t e;
	size_t len, i, k;

	assert_non_null(mkdtemp(dir));
	all = fa_snapshot_to_json(s, 1);
	before = json_dumps(all, JSON_SORT_KEYS);
	json_decref(all);
	head = fa_snapshot_head_json(s, reveal);
	assert_non_null(head);
	assert_int_equal(write_items(dir, head, s->nobs, item, item_done,
	    &it, sha, &why), 0);
	/* Whatever was redacted in place is back. */
	all = fa_snapshot_to_json(s, 1);
	after = json_dumps(all, JSON_SORT_KEYS);
	json_decref(all);
	assert_non_null(before);
	assert_non_null(after);
	assert_string_equal(before, after);
	free(before);
	free(after);
	snprintf(path, sizeof(path), "%s/snapshot.json", dir);
	got = slurp(path, &len);
	whole = fa_snapshot_to_json(s, reveal);
	assert_non_null(whole);
	/* The same tree, and nothing after it but the final newline. */
	assert_non_null(back = json_loadb(got, len, 0, &e));
	assert_true(json_equal(back, whole));
	json_decref(back);
	assert_int_equal(got[len - 1], '\n');
	/* Observation i is line i of the array, alone and compact. */
	line = strstr(got, "\"observations\": [");
	assert_non_null(line);
	for (i = 0; i < n; i++) {
		assert_non_null(line = strchr(line, '\n'));
		line++;
		assert_memory_equal(line, "    {", 5);
		end = strchr(line, '\n');
		assert_non_null(end);
		k = (size_t)(end - line) - (i + 1 < n);	/* its comma */
		assert_non_null(back = json_loadb(line, k, 0, &e));
		assert_true(json_equal(back, json_array_get(json_object_get(
		    whole, "observations"), i)));
		want = json_dumps(back, JSON_COMPACT | JSON_SORT_KEYS);
		assert_non_null(want);
		assert_int_equal(k, strlen(want) + 4);
		assert_memory_equal(line + 4, want, strlen(want));
		free(want);
		json_decref(back);
	}
	/* The rest is the head as JSON_INDENT(2) writes it. */
	want = json_dumps(head, JSON_INDENT(2) | JSON_SORT_KEYS);
	assert_non_null(want);
	assert_memory_equal(got, want, (size_t)(strstr(want,
	    "\"observations\": [") - want));
	free(want);
	want = NULL;
	assert_int_equal(fa_sha256_hex(got, len, want_sha), 0);
	assert_string_equal(sha, want_sha);
	/* Redaction applies item by item as it does to the whole. */
	if (n > 0)
		assert_true((strstr(got, "0x0000000000001234") != NULL) ==
		    (reveal != 0));
	free(got);
	free(want);
	json_decref(whole);
	json_decref(head);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	fa_snapshot_free(s);
}

static void
test_no_observation(void **state)
{
	(void)state;
	same_as_whole(0, 0, 0);
}

static void
test_one_observation(void **state)
{
	(void)state;
	same_as_whole(1, 0, 0);
	same_as_whole(1, 1, 0);
	same_as_whole(1, 0, 1);
}

static void
test_many_observations(void **state)
{
	(void)state;
	same_as_whole(257, 0, 0);
	same_as_whole(257, 1, 0);
	same_as_whole(257, 0, 1);
}

static void
test_failing_item_leaves_nothing(void **state)
{
	struct fa_snapshot *s = sample(10);
	struct items it = { s, 0, 7, 0, { NULL, NULL, 0, 0, NULL } };
	char dir[] = "/tmp/fa-items.XXXXXX", sha[65];
	char *why = NULL;
	json_t *head;

	(void)state;
	assert_non_null(mkdtemp(dir));
	head = fa_snapshot_head_json(s, 0);
	assert_int_equal(write_items(dir, head, s->nobs, item, NULL, &it, sha,
	    &why), FA_ERR_NOMEM);
	free(why);
	/* Neither the file nor its temporary is left. */
	assert_int_equal(rmdir(dir), 0);
	json_decref(head);
	fa_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_observation),
		cmocka_unit_test(test_one_observation),
		cmocka_unit_test(test_many_observations),
		cmocka_unit_test(test_failing_item_leaves_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
