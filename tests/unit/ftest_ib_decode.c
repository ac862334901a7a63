/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the IB attribute and SA record decoders
 * (fabric/ib_smp_decode.c, ib_sa_decode.c) and the engine's answer
 * handling (fa_mad_set_resp): known bytes give known facts, and hostile
 * records (cut short, of another LID, SLID or DLID) are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <infiniband/mad.h>

#include "../../core/errors.h"
#include "../../fabric/ib_mad.h"
#include "../../fabric/ib_sa_decode.h"
#include "../../fabric/ib_smp_decode.h"

static void
put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
test_pkey_block(void **state)
{
	uint8_t blk[64];
	uint16_t keep[32];
	json_t *a = json_array();

	(void)state;
	memset(blk, 0, sizeof(blk));
	put16(blk, 0xffff);
	put16(blk + 2 * 31, 0x8001);
	memset(keep, 0xaa, sizeof(keep));
	assert_int_equal(fa_ib_pkeys_json(a, blk, 32, keep, 2), 0);
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_array_get(a, 0)), "0xffff");
	assert_string_equal(json_string_value(json_array_get(a, 1)), "0x8001");
	assert_int_equal(keep[0], 0xffff);
	assert_int_equal(keep[1], 0);
	assert_int_equal(keep[2], 0xaaaa);	/* beyond nkeep: untouched */
	json_decref(a);
}

static void
test_sminfo_key(void **state)
{
	uint8_t smi[64];
	struct fa_ib_sminfo s;

	(void)state;
	memset(smi, 0, sizeof(smi));
	smi[7] = 0x42;		/* GUID 0x42 */
	smi[15] = 1;		/* SM_Key 1: OpenSM's default */
	smi[19] = 7;		/* ActCount 7 */
	smi[20] = 0xf3;		/* priority 15, state 3 (master) */
	fa_ib_sminfo_decode(smi, &s);
	assert_int_equal(s.guid, 0x42);
	assert_int_equal(s.sm_key, 1);
	assert_int_equal(s.act_count, 7);
	assert_int_equal(s.priority, 15);
	assert_int_equal(s.state, 3);
}

/* CongestionKeyInfo (IBA vol. 1 Annex A10.4.3): CC_Key bytes 0-7, the
 * protect bit the top bit of byte 8, lease 10-11, violations 12-13. */
static void
test_cc_keyinfo(void **state)
{
	uint8_t d[64];
	struct fa_ib_cc_keyinfo k;

	(void)state;
	memset(d, 0, sizeof(d));
	d[0] = 0x11;
	d[7] = 0x88;
	d[8] = 0x80;
	d[10] = 0x01;
	d[11] = 0x2c;		/* 300 s */
	d[13] = 9;
	fa_ib_cc_keyinfo_decode(d, &k);
	assert_true(k.cc_key == 0x1100000000000088ULL);
	assert_int_equal(k.protect, 1);
	assert_int_equal(k.lease, 300);
	assert_int_equal(k.violations, 9);
}

/* An SA answer header with records of `recsz` bytes. */
static void
sa_header(uint8_t *m, unsigned recsz)
{
	memset(m, 0, IB_MAD_SIZE);
	m[1] = IB_SA_CLASS;
	put16(m + 44, recsz / 8);
}

static void
test_pkey_record(void **state)
{
	uint8_t m[IB_MAD_SIZE];
	const char *bad = NULL;
	json_t *a = json_array();

	(void)state;
	sa_header(m, 72);
	put16(m + 56, 7);		/* LID 7, block 0 */
	put16(m + 56 + 8, 0xffff);
	assert_int_equal(fa_ib_sa_pkey_record(m + 56, 72, 72, 7, a, &bad), 0);
	assert_null(bad);
	assert_int_equal(json_array_size(a), 1);
	/* Another LID, or a record cut short: malformed, nothing kept. */
	assert_int_equal(fa_ib_sa_pkey_record(m + 56, 72, 72, 8, a, &bad), 0);
	assert_non_null(bad);
	bad = NULL;
	assert_int_equal(fa_ib_sa_pkey_record(m + 56, 71, 72, 7, a, &bad), 0);
	assert_non_null(bad);
	assert_int_equal(json_array_size(a), 1);
	json_decref(a);
}

/* A PathRecord table answer of `n` records, from `slid`, DLIDs dl[]. */
static size_t
path_table(uint8_t *m, unsigned n, unsigned slid, const unsigned *dl)
{
	unsigned i;

	sa_header(m, 64);
	for (i = 0; i < n; i++) {
		put16(m + 56 + 64 * i + 40, dl[i]);
		put16(m + 56 + 64 * i + 42, slid);
		put16(m + 56 + 64 * i + 50, 0x8000 | (dl[i] & 0x7f));
	}
	return 56 + 64 * (size_t)n;
}

static void
test_path_table(void **state)
{
	static const unsigned dl[] = { 9, 3, 0 };	/* 0: padding */
	uint8_t m[IB_MAD_SIZE];
	struct fa_sa_table t;
	struct fa_ib_pr_entry *e;
	const char *bad = NULL;
	size_t len;

	(void)state;
	len = path_table(m, 3, 5, dl);
	assert_int_equal(fa_sa_table_parse(m, len, 64, &t, &bad), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(fa_ib_pr_table_entries(&t, 5, &e, &bad), 2);
	assert_null(bad);
	assert_int_equal(e[0].dlid, 3);		/* sorted */
	assert_int_equal(e[1].dlid, 9);
	assert_int_equal(e[1].pkey, 0x8009);
	free(e);
	/* A record from another SLID: the table is refused. */
	assert_int_equal(fa_ib_pr_table_entries(&t, 6, &e, &bad),
	    FA_ERR_INPUT);
	assert_non_null(bad);
	assert_null(e);
}

static void
test_path_port(void **state)
{
	static const unsigned dl[] = { 9, 9, 4 };
	uint8_t m[IB_MAD_SIZE];
	struct fa_sa_table t;
	struct fa_ib_pr_entry e[3];
	const char *bad = NULL;
	size_t len;

	(void)state;
	len = path_table(m, 3, 5, dl);
	assert_int_equal(fa_sa_table_parse(m, len, 64, &t, &bad), 0);
	/* Two paths to 9, then one to another DLID: malformed. */
	assert_int_equal(fa_ib_pr_port_entries(&t, 9, e, &bad), 2);
	assert_non_null(bad);
}

static void
test_set_resp(void **state)
{
	struct fa_mad_req r;
	uint8_t big[600];

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(big, 0x11, sizeof(big));
	big[4] = 0x80;		/* DR SMP status: only the D bit */
	big[5] = 0;
	r.mgmt_class = IB_SMI_DIRECT_CLASS;
	assert_int_equal(fa_mad_set_resp(&r, big, 100), FA_MAD_ANSWERED);
	assert_int_equal(r.resp_len, 100);
	assert_int_equal(r.resp[100], 0);	/* zero-padded */
	assert_null(r.whole);
	/* An SA GetTable kept whole; status 0x0c (invalid attribute). */
	memset(&r, 0, sizeof(r));
	r.mgmt_class = IB_SA_CLASS;
	r.keep_whole = 1;
	big[4] = 0;
	big[5] = 0x0c;
	assert_int_equal(fa_mad_set_resp(&r, big, sizeof(big)), FA_MAD_STATUS);
	assert_int_equal(r.status, 0x0c);
	assert_non_null(r.whole);
	assert_memory_equal(r.whole, big, sizeof(big));
	free(r.whole);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pkey_block),
		cmocka_unit_test(test_sminfo_key),
		cmocka_unit_test(test_cc_keyinfo),
		cmocka_unit_test(test_pkey_record),
		cmocka_unit_test(test_path_table),
		cmocka_unit_test(test_path_port),
		cmocka_unit_test(test_set_resp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
