/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the SA answers the IB scan decodes (fabric/ib_sa.c through
 * ib_sa_decode.c and ib_sa_table.c), from the engine's answer handling
 * (fa_mad_set_resp) to the recorded observation:
 *   0  SubnAdmGet(PKeyTableRecord) of another port: fa_ib_sa_pkey_record
 *   1  SubnAdmGetTable(SMInfoRecord): fa_sa_table_parse (28-byte
 *      records), fa_ib_sa_sminfo_json
 *   2  SubnAdmGetTable(PathRecord) from our SLID, the one table for every
 *      port: fa_sa_table_parse, then, if complete, fa_ib_pr_table_entries
 *   3  SubnAdmGetTable(PathRecord) SLID and DLID, one port's paths:
 *      fa_sa_table_parse, fa_ib_pr_port_entries
 * Input: byte 0 chooses (modulo 4), bytes 1-2 the LID asked about
 * (big-endian: the record's LID, our SLID, or the DLID), the rest the SA
 * message as umad hands it over: one MAD, shorter when the simulator cut
 * it, or a whole RMPP transfer reassembled by the kernel (any length).
 * The records are decoded from an exact-size copy, so that ASan sees a
 * read past what was received.
 */
#include "fabric/ib_sa_decode.h"
#include "fuzz/fuzz_ib.h"

/* A PathRecord list: every entry a real path, within the table. */
static void
pr_check(const struct fa_ib_pr_entry *e, long ne, unsigned n, int sorted)
{
	long i;

	if (ne < 0 || (unsigned long)ne > n)
		abort();
	for (i = 0; i < ne; i++)
		if (e[i].dlid == 0 || (sorted && i > 0 &&
		    (e[i - 1].dlid > e[i].dlid || (e[i - 1].dlid == e[i].dlid &&
		    e[i - 1].pkey > e[i].pkey))))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_mad_req r;
	struct fa_sa_table t;
	struct fa_ib_pr_entry *e = NULL;
	const uint8_t *rec;
	const char *bad = NULL;
	unsigned sel, recsz;
	uint16_t lid;
	uint8_t *msg;
	size_t len;
	json_t *d, *a;
	long ne;
	int cut = 0;

	if (size < 3 + 24)
		return 0;
	sel = data[0] % 4;
	lid = (uint16_t)(data[1] << 8 | data[2]);
	len = size - 3;
	fz_redact(data + 3, len);
	if (fz_answer(&r, IB_SA_CLASS, sel == 0 ? IB_MAD_METHOD_GET :
	    IB_MAD_METHOD_GET_TABLE, sel != 0, data + 3, len) !=
	    FA_MAD_ANSWERED) {
		free(r.whole);
		fz_record(&r, json_object(), NULL, 0);
		return 0;
	}
	if ((msg = malloc(len)) == NULL) {
		free(r.whole);
		return 0;
	}
	memcpy(msg, data + 3, len);
	d = json_object();
	a = json_array();
	if (d == NULL || a == NULL || json_object_set_new(d, "list", a) != 0)
		goto out;
	switch (sel) {
	case 0:
		/* As ib_sa.c: the record after the SA header, AttributeOffset
		 * apart, of which the bytes past the header were received. */
		recsz = mad_get_field(r.resp, 0, IB_SA_ATTROFFS_F) * 8;
		rec = len > IB_SA_DATA_OFFS ? msg + IB_SA_DATA_OFFS :
		    fa_mad_data(&r);
		if (fa_ib_sa_pkey_record(rec, len > IB_SA_DATA_OFFS ?
		    len - IB_SA_DATA_OFFS : 0, recsz, lid, a, &bad) != 0)
			goto out;
		if (bad != NULL && json_array_size(a) != 0)
			abort();
		cut = len > IB_MAD_SIZE;
		break;
	case 1:
		if (fa_sa_table_parse(msg, len, 28, &t, &bad) != 0)
			break;
		if (fa_ib_sa_sminfo_json(&t, a) != 0)
			goto out;
		if (json_array_size(a) > t.n)
			abort();
		cut = !t.complete;
		break;
	case 2:
		if (fa_sa_table_parse(msg, len, IB_SA_PR_RECSZ, &t, &bad) != 0)
			break;
		cut = !t.complete;
		if (!t.complete)
			break;
		ne = fa_ib_pr_table_entries(&t, lid, &e, &bad);
		if (ne == FA_ERR_NOMEM)
			goto out;
		if (ne == FA_ERR_INPUT) {
			if (bad == NULL || e != NULL)
				abort();
			break;
		}
		if ((ne == 0) != (e == NULL))
			abort();
		pr_check(e, ne, t.n, 1);
		break;
	default:
		if (fa_sa_table_parse(msg, len, IB_SA_PR_RECSZ, &t, &bad) != 0)
			break;
		cut = !t.complete;
		if (t.n == 0 || (e = calloc(t.n, sizeof(*e))) == NULL)
			break;
		ne = fa_ib_pr_port_entries(&t, lid, e, &bad);
		pr_check(e, ne, t.n, 0);
		for (; ne > 0; ne--)
			if (e[ne - 1].dlid != lid)
				abort();
		break;
	}
	fz_record(&r, d, bad, cut && bad == NULL);
	d = NULL;
out:
	json_decref(d);
	free(e);
	free(msg);
	free(r.whole);
	return 0;
}
