/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the SA GetTable answer parser (fabric/ib_sa_table.c):
 * when an answer holds every record (shorter than a MAD, reassembled by
 * the kernel's RMPP, or one segment marked first and last) and when it
 * may have been cut (a full MAD without those flags, as the simulator
 * delivers), and its bounds on hostile headers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/ib_sa_table.h"

#define SA_HDR		56	/* MAD 24 + RMPP 12 + SA 20 */
#define PR_SIZE		64	/* PathRecord */
#define MAD		256

/* An SA answer of `len` bytes with records of `recsz` bytes, each record
 * starting with its 1-based index so that it can be told apart. */
static uint8_t *
answer(size_t len, unsigned recsz)
{
	uint8_t *m = calloc(1, len);
	size_t off;

	assert_non_null(m);
	m[44] = (uint8_t)((recsz / 8) >> 8);
	m[45] = (uint8_t)(recsz / 8);
	for (off = SA_HDR; recsz > 0 && off + recsz <= len; off += recsz)
		m[off] = (uint8_t)((off - SA_HDR) / recsz + 1);
	return m;
}

static void
rmpp(uint8_t *m, unsigned version, unsigned type, unsigned flags)
{
	m[24] = (uint8_t)version;
	m[25] = (uint8_t)type;
	m[26] = (uint8_t)(0x38 | flags);	/* RRespTime 7 above the flags */
}

static void
test_shorter_than_a_mad_is_complete(void **state)
{
	uint8_t *m = answer(SA_HDR + 3 * PR_SIZE, PR_SIZE);
	struct fa_sa_table t;
	const char *bad;

	(void)state;
	assert_int_equal(fa_sa_table_parse(m, SA_HDR + 3 * PR_SIZE, PR_SIZE,
	    &t, &bad), 0);
	assert_null(bad);
	assert_true(t.complete);
	assert_null(t.why);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.recsz, PR_SIZE);
	assert_ptr_equal(t.recs, m + SA_HDR);
	assert_int_equal(t.recs[2 * PR_SIZE], 3);
	free(m);
}

static void
test_full_mad_without_flags_may_be_cut(void **state)
{
	uint8_t *m = answer(MAD, PR_SIZE);
	struct fa_sa_table t;
	const char *bad;

	(void)state;
	/* What umad2sim delivers: OpenSM's header, flags Active only. */
	rmpp(m, 0, 0, 0x1);
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad), 0);
	assert_null(bad);
	assert_false(t.complete);
	assert_non_null(t.why);
	assert_int_equal(t.n, 3);	/* 200 bytes: 3 whole records */
	/* First but not last: more segments were coming. */
	rmpp(m, 1, 1, 0x3);
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad), 0);
	assert_false(t.complete);
	/* Last but a wrong type (ACK) or version: not trusted either. */
	rmpp(m, 1, 2, 0x7);
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad), 0);
	assert_false(t.complete);
	rmpp(m, 2, 1, 0x7);
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad), 0);
	assert_false(t.complete);
	free(m);
}

static void
test_single_segment_is_complete(void **state)
{
	uint8_t *m = answer(MAD, PR_SIZE);
	struct fa_sa_table t;
	const char *bad;

	(void)state;
	rmpp(m, 1, 1, 0x7);	/* DATA, Active + First + Last */
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad), 0);
	assert_true(t.complete);
	assert_int_equal(t.n, 3);
	free(m);
}

static void
test_reassembled_is_complete(void **state)
{
	size_t len = SA_HDR + 1000 * PR_SIZE + 40;	/* padding at the end */
	uint8_t *m = answer(len, PR_SIZE);
	struct fa_sa_table t;
	const char *bad;

	(void)state;
	rmpp(m, 1, 1, 0x3);	/* the first segment's header, kept */
	assert_int_equal(fa_sa_table_parse(m, len, PR_SIZE, &t, &bad), 0);
	assert_true(t.complete);
	assert_int_equal(t.n, 1000);
	assert_int_equal(t.recs[999 * PR_SIZE], (uint8_t)1000);
	free(m);
}

static void
test_no_records(void **state)
{
	uint8_t *m = answer(SA_HDR, PR_SIZE);
	struct fa_sa_table t;
	const char *bad;

	(void)state;
	assert_int_equal(fa_sa_table_parse(m, SA_HDR, PR_SIZE, &t, &bad), 0);
	assert_true(t.complete);
	assert_int_equal(t.n, 0);
	free(m);
	/* An empty table with AttributeOffset 0 is still an empty table. */
	m = answer(SA_HDR + 8, 0);
	assert_int_equal(fa_sa_table_parse(m, SA_HDR + 8, PR_SIZE, &t, &bad),
	    0);
	assert_int_equal(t.n, 0);
	free(m);
}

static void
test_hostile_headers(void **state)
{
	uint8_t *m = answer(MAD, PR_SIZE);
	struct fa_sa_table t;
	const char *bad;

	(void)state;
	assert_int_equal(fa_sa_table_parse(m, SA_HDR - 1, PR_SIZE, &t, &bad),
	    FA_ERR_INPUT);
	assert_non_null(bad);
	assert_int_equal(fa_sa_table_parse(NULL, MAD, PR_SIZE, &t, &bad),
	    FA_ERR_INPUT);
	/* Records without a step between them. */
	m[44] = m[45] = 0;
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad),
	    FA_ERR_INPUT);
	assert_non_null(bad);
	assert_int_equal(t.n, 0);
	/* Records shorter than a PathRecord. */
	m[45] = 1;
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad),
	    FA_ERR_INPUT);
	/* The largest AttributeOffset: no whole record fits, none read. */
	m[44] = m[45] = 0xff;
	assert_int_equal(fa_sa_table_parse(m, MAD, PR_SIZE, &t, &bad), 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.recsz, 0xffff * 8);
	free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shorter_than_a_mad_is_complete),
		cmocka_unit_test(test_full_mad_without_flags_may_be_cut),
		cmocka_unit_test(test_single_segment_is_complete),
		cmocka_unit_test(test_reassembled_is_complete),
		cmocka_unit_test(test_no_records),
		cmocka_unit_test(test_hostile_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
