/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the acquisition child's answer (core/snapwire.c): a
 * snapshot written as JSON lines, observations first as they are flushed
 * and the head last, reads back equal; and every way an answer can be
 * short, long, malformed or followed by more is refused, with the error
 * the parent tells apart (short: the writer gone) and a reason that says
 * where, never read as a snapshot.
 */
#include <setjmp.h>
#include <signal.h>
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
#include "../../core/snapwire.h"

#define BIG	(1024 * 1024)

/* A snapshot of two observations, one of them holding a secret. */
static struct fa_snapshot *
sample(void)
{
	struct fa_snapshot *s = fa_snapshot_new();

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_IB,
	    FA_FAMST_COLLECTED, NULL), 0);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.smp.sminfo",
	    "H-0x1/1", "SubnGet(SMInfo)", FA_OBS_COMPLETE, NULL,
	    json_pack("{s:o}", "sm_key", fa_secret_new(0x1122334455667788ULL)),
	    NULL), 0);
	return s;
}

/* The text fa_snapwire_* write for s, flushed after its first
 * observation, then a second one added; its length to *len. */
static char *
answer(struct fa_snapshot *s, int rc, int usable, size_t *len)
{
	struct fa_snapwire_out w;
	FILE *f = tmpfile();
	char *text;
	long n;

	assert_non_null(f);
	assert_int_equal(fa_snapwire_open(&w, dup(fileno(f))), 0);
	s->flush = fa_snapwire_flush;
	s->flush_arg = &w;
	fa_snapshot_flush(s);
	assert_int_equal(w.sent, 1);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.smp.sminfo",
	    "H-0x2/1", "SubnGet(SMInfo)", FA_OBS_NO_RESPONSE, "timed out",
	    NULL, NULL), 0);
	assert_int_equal(fa_snapwire_end(&w, s, rc, usable), 0);
	assert_int_equal(w.sent, 2);
	s->flush = NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true((n = ftell(f)) > 0);
	rewind(f);
	assert_non_null(text = malloc((size_t)n + 1));
	assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return text;
}

/* fa_snapwire_read() over len bytes of text. */
static int
rd(const char *text, size_t len, size_t max_line, size_t max_total,
    struct fa_snapshot **out, int *rc, int *usable, char **why)
{
	FILE *f = tmpfile();
	int r;

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	rewind(f);
	r = fa_snapwire_read(fileno(f), max_line, max_total, out, rc, usable,
	    why);
	fclose(f);
	return r;
}

static size_t
lines(const char *text, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

static void
round_trip(void **state)
{
	struct fa_snapshot *s = sample(), *t = NULL;
	char *text, *why = NULL;
	int rc = -1, usable = -1;
	json_t *a, *b;
	size_t len;

	(void)state;
	text = answer(s, 1, 2, &len);
	assert_int_equal(lines(text, len), 3);
	assert_int_equal(strncmp(text, "{\"obs\":", 7), 0);
	assert_non_null(strstr(text, "\n{\"end\":"));
	assert_int_equal(rd(text, len, BIG, BIG, &t, &rc, &usable, &why), 0);
	assert_null(why);
	assert_int_equal(rc, 1);
	assert_int_equal(usable, 2);
	a = fa_snapshot_to_json(s, 1);
	b = fa_snapshot_to_json(t, 1);
	assert_true(json_equal(a, b));
	/* The secret travels whole: the parent redacts what it writes. */
	assert_non_null(strstr(text, "0x1122334455667788"));
	json_decref(a);
	json_decref(b);
	free(text);
	fa_snapshot_free(s);
	fa_snapshot_free(t);
}

/* Refused with error err and a reason that says want. */
static void
refused(const char *text, size_t len, size_t max_line, size_t max_total,
    int err, const char *want)
{
	struct fa_snapshot *t = NULL;
	char *why = NULL;
	int rc = 0, usable = 0;

	assert_int_equal(rd(text, len, max_line, max_total, &t, &rc,
	    &usable, &why), err);
	assert_null(t);
	assert_non_null(why);
	if (strstr(why, want) == NULL)
		fail_msg("'%s' does not say '%s'", why, want);
	free(why);
}

static void
bad_answers(void **state)
{
	static const struct {
		const char	*text;
		int		 err;
		const char	*want;
	} bad[] = {
		{ "", FA_ERR_IO, "stops before its end line" },
		{ "not json\n", FA_ERR_INPUT, "line 1: " },
		{ "{\"x\": 1}\n", FA_ERR_INPUT, "line 1 is neither an "
		    "observation nor the end" },
		{ "{\"obs\": {\"id\": \"x\"}}\n", FA_ERR_INPUT,
		    "observations[0] is malformed" },
		{ "{\"end\": {\"rc\": 0}}\n", FA_ERR_INPUT, "the end line "
		    "has no rc and usable" },
		{ "{\"end\": {\"rc\": 0, \"usable\": 1, \"snapshot\": {}}}\n",
		    FA_ERR_INPUT, "schema" },
	};
	struct fa_snapshot *s = sample();
	char *text, *more;
	size_t len, i, first;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].text, strlen(bad[i].text), BIG, BIG,
		    bad[i].err, bad[i].want);
	text = answer(s, 0, 1, &len);
	first = (size_t)(strchr(text, '\n') - text) + 1;
	/* Cut after the first observation, inside the end line, or with
	 * something after the end. */
	refused(text, first, BIG, BIG, FA_ERR_IO, "stops before its end "
	    "line");
	refused(text, len - 1, BIG, BIG, FA_ERR_IO, "stops inside line 3");
	assert_non_null(more = malloc(len + 32));
	memcpy(more, text, len);
	memcpy(more + len, "{\"obs\": {}}\n", 12);
	refused(more, len + 12, BIG, BIG, FA_ERR_INPUT, "line 4 follows the "
	    "end line");
	/* Bounded: a line, and the whole answer. */
	refused(text, len, 20, BIG, FA_ERR_TOOBIG, "line 1 is longer than "
	    "20 bytes");
	refused(text, len, BIG, first + 10, FA_ERR_TOOBIG, "the answer is "
	    "longer than");
	free(more);
	free(text);
	fa_snapshot_free(s);
}

/* A reader gone: the writer says so at the end, not before. */
static void
reader_gone(void **state)
{
	struct fa_snapshot *s = sample();
	struct fa_snapwire_out w;
	int fds[2];

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	assert_int_equal(fa_snapwire_open(&w, fds[1]), 0);
	fa_snapwire_flush(s, &w);
	assert_int_equal(w.err, 1);
	assert_int_equal(fa_snapwire_end(&w, s, 0, 1), FA_ERR_IO);
	fa_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(bad_answers),
		cmocka_unit_test(reader_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
