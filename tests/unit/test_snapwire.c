/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the acquisition child's answer (core/snapwire.c): a
 * snapshot written as typed records, observations first as they are
 * flushed and the head last, reads back equal; and every way an answer
 * can be short, long, malformed or followed by more is refused, with the
 * error the parent tells apart (short: the writer gone) and a reason that
 * says where, never read as a snapshot.  The bad answers are built byte
 * by byte here from the format snapwire.h states, not by the writer.
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

static uint32_t
le32(const char *b)
{
	const unsigned char *u = (const unsigned char *)b;

	return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
	    (uint32_t)u[3] << 24;
}

/* Whether text is records of exactly the types in want, in order. */
static int
records(const char *text, size_t len, const char *want)
{
	size_t off = 0;

	for (; *want != '\0'; want++) {
		if (len - off < 5 || text[off] != *want)
			return 0;
		off += 5 + le32(text + off + 1);
		if (off > len)
			return 0;
	}
	return off == len;
}

/* ---- answers built by hand, from the format in snapwire.h ---------- */

struct buf {
	char	b[4096];
	size_t	n;
};

static void
b_raw(struct buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->b));
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void
b_u32(struct buf *b, uint32_t u)
{
	unsigned char x[4] = { u & 0xff, (u >> 8) & 0xff, (u >> 16) & 0xff,
	    u >> 24 };

	b_raw(b, x, 4);
}

static void
b_str(struct buf *b, const char *p)
{
	b_u32(b, (uint32_t)strlen(p));
	b_raw(b, p, strlen(p));
}

/* A record of type t holding the n bytes of payload p, appended to b. */
static void
b_rec(struct buf *b, int t, const struct buf *p)
{
	char c = (char)t;

	b_raw(b, &c, 1);
	b_u32(b, (uint32_t)p->n);
	b_raw(b, p->b, p->n);
}

/*
 * An observation record's payload: family, complete, id "o1", kind,
 * target "t", request, no reason; the data to be appended by the caller.
 */
static void
b_obs_head(struct buf *p, int family, const char *kind, const char *request)
{
	char fs[2] = { (char)family, 0 };

	b_raw(p, fs, 2);
	b_str(p, "o1");
	b_str(p, kind);
	b_str(p, "t");
	b_str(p, request);
	b_u32(p, 0xffffffffu);
}

/* An 'O' record of kind ib.smp.sminfo whose data is the value bytes v. */
static void
b_obs(struct buf *b, const char *v, size_t vn)
{
	struct buf p = { .n = 0 };

	b_obs_head(&p, 0, "ib.smp.sminfo", "r");
	b_raw(&p, v, vn);
	b_rec(b, 'O', &p);
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
	/* Two observation records, then the end. */
	assert_int_equal(records(text, len, "OOE"), 1);
	assert_int_equal(rd(text, len, BIG, BIG, &t, &rc, &usable, &why), 0);
	assert_null(why);
	assert_int_equal(rc, 1);
	assert_int_equal(usable, 2);
	a = fa_snapshot_to_json(s, 1);
	b = fa_snapshot_to_json(t, 1);
	assert_true(json_equal(a, b));
	/* The secret travels whole: the parent redacts what it writes. */
	assert_non_null(memmem(text, len, "0x1122334455667788", 18));
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

/* The data value bytes v as an observation, refused saying want. */
static void
bad_value(const char *v, size_t vn, const char *want)
{
	struct buf b = { .n = 0 };

	b_obs(&b, v, vn);
	refused(b.b, b.n, BIG, BIG, FA_ERR_INPUT, want);
}

static void
bad_values(void **state)
{
	char deep[70 * 5];
	size_t i;

	(void)state;
	/* The control: an observation whose data is an empty object reads,
	 * and the answer fails only at its empty head. */
	{
		struct buf b = { .n = 0 }, e = { .n = 0 };
		struct fa_snapshot *t = NULL;
		char *why = NULL;
		int rc, us;

		b_obs(&b, "o\0\0\0\0", 5);
		b_u32(&e, 0);
		b_u32(&e, 1);
		b_raw(&e, "o\0\0\0\0", 5);	/* an empty head: refused */
		b_rec(&b, 'E', &e);
		assert_int_equal(rd(b.b, b.n, BIG, BIG, &t, &rc, &us, &why),
		    FA_ERR_INPUT);
		assert_non_null(strstr(why, "schema"));
		free(why);
	}
	bad_value("x", 1, "a value of unknown type");
	bad_value("o\1\0\0\0", 5, "counts more members");
	bad_value("i\1\0", 3, "it stops short");
	bad_value("o\xff\xff\xff\x7f", 5, "counts more members");
	bad_value("a\xff\xff\xff\x7f", 5, "counts more values");
	bad_value("o\1\0\0\0\3\0\0\0l\0dn", 13, "NUL byte");
	bad_value("o\1\0\0\0\3\0\0\0lidn", 13, "observations[0]");
	bad_value("o\1\0\0\0\3\0\0\0lids\2\0\0\0\xc3\x28", 19,
	    "not UTF-8");
	bad_value("o\2\0\0\0\3\0\0\0lidi\1\0\0\0\0\0\0\0"
	    "\3\0\0\0lidi\1\0\0\0\0\0\0\0", 37, "member twice");
	bad_value("o\1\0\0\0\3\0\0\0lidr\0\0\0\0\0\0\xf8\x7f", 22,
	    "not finite");
	bad_value("o\0\0\0\0n", 6, "bytes follow its data");
	/* Arrays in arrays, 70 deep. */
	for (i = 0; i < 70; i++)
		memcpy(deep + i * 5, i < 69 ? "a\1\0\0\0" : "a\0\0\0\0", 5);
	bad_value(deep, 70 * 5, "nest too deep");
	/* The schema decides what the data may hold. */
	bad_value("o\1\0\0\0\3\0\0\0lids\1\0\0\0x", 18, "field lid");
}

/* An observation with empty data, refused saying want. */
static void
bad_obs(int family, const char *kind, const char *request, const char *want)
{
	struct buf b = { .n = 0 }, p = { .n = 0 };

	b_obs_head(&p, family, kind, request);
	b_raw(&p, "o\0\0\0\0", 5);
	b_rec(&b, 'O', &p);
	refused(b.b, b.n, BIG, BIG, FA_ERR_INPUT, want);
}

static void
bad_answers(void **state)
{
	struct fa_snapshot *s = sample();
	struct buf b = { .n = 0 }, p = { .n = 0 };
	char *text, *more;
	size_t len, first;

	(void)state;
	refused("", 0, BIG, BIG, FA_ERR_IO, "stops before its end record");
	b_rec(&b, 'X', &p);
	refused(b.b, b.n, BIG, BIG, FA_ERR_INPUT, "record 1 is neither an "
	    "observation nor the end");
	b.n = 0;
	b_raw(&p, "\0", 1);
	b_rec(&b, 'O', &p);
	refused(b.b, b.n, BIG, BIG, FA_ERR_INPUT, "record 1 "
	    "(observations[0]): it stops short");
	bad_obs(9, "ib.smp.sminfo", "r", "observations[0] is malformed");
	bad_obs(0, "ib.no_such_kind", "r", "ib.no_such_kind");
	/* The fuzzer's find: a request that is not UTF-8 read, and the
	 * snapshot could then not be written. */
	bad_obs(0, "ib.smp.sminfo", "s\xe9" "ed", "not UTF-8");
	b.n = p.n = 0;
	b_u32(&p, 0);
	b_rec(&b, 'E', &p);
	refused(b.b, b.n, BIG, BIG, FA_ERR_INPUT, "record 1 (the end): it "
	    "stops short");
	text = answer(s, 0, 1, &len);
	first = 5 + le32(text + 1);
	/* Cut after the first observation, inside the end record, or with
	 * something after the end. */
	refused(text, first, BIG, BIG, FA_ERR_IO, "stops before its end "
	    "record");
	refused(text, len - 1, BIG, BIG, FA_ERR_IO, "stops inside record 3");
	refused(text, 3, BIG, BIG, FA_ERR_IO, "stops inside record 1");
	assert_non_null(more = malloc(len + 16));
	memcpy(more, text, len);
	memcpy(more + len, "O\0\0\0\0", 5);
	refused(more, len + 5, BIG, BIG, FA_ERR_INPUT, "record 4 follows the "
	    "end record");
	/* Bounded: a record, and the whole answer. */
	refused(text, len, 20, BIG, FA_ERR_TOOBIG, "record 1 is longer than "
	    "20 bytes");
	refused(text, len, BIG, first + 10, FA_ERR_TOOBIG, "the answer is "
	    "longer than");
	refused(text, len, BIG, len - 1, FA_ERR_TOOBIG, "the answer is "
	    "longer than");
	/* An answer of exactly the limit reads. */
	{
		struct fa_snapshot *t = NULL;
		char *why = NULL;
		int rc, us;

		assert_int_equal(rd(text, len, BIG, len, &t, &rc, &us, &why),
		    0);
		assert_null(why);
		fa_snapshot_free(t);
	}
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
		cmocka_unit_test(bad_values),
		cmocka_unit_test(reader_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
