/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of the SA records the IB scan reads, kept apart from the I/O
 * so that the fuzz target (fuzz/fuzz_ib_sa.c) drives exactly what the
 * scanner runs.  The records come framed by fa_sa_table_parse()
 * (ib_sa_table.c), which guarantees that t->n records of t->recsz bytes,
 * at least the size asked for, lie inside the message.  Layouts: IBA
 * vol. 1 15.2.5 (SA attributes), fields read through libibmad's tables.
 */
#include <stdlib.h>

#include <infiniband/mad.h>

#include "../core/errors.h"
#include "../core/snapshot.h"
#include "ib_sa_decode.h"
#include "ib_smp_decode.h"

/* PathRecord P_Key: bytes 50-51 (IBA vol. 1 15.2.5.16). */
#define PR_PKEY_OFFS		50
/* SMInfoRecord: LID (2), reserved (2), SMInfo (IBA vol. 1 15.2.5.5). */
#define SMIR_SMINFO_OFFS	4

/*
 * PKeyTableRecord (IBA vol. 1 15.2.5.11): LID bytes 0-1, BlockNum 2-3,
 * PortNum 4, 3 reserved, then the 32 P_Keys of the block, 72 bytes.
 */
int
fa_ib_sa_pkey_record(const uint8_t *rec, size_t avail, unsigned recsz,
    uint16_t lid, json_t *pk, const char **bad)
{
	if (avail < FA_IB_PKTR_RECSZ || recsz < FA_IB_PKTR_RECSZ ||
	    (unsigned)(rec[0] << 8 | rec[1]) != lid || rec[2] != 0 ||
	    rec[3] != 0) {
		*bad = "a PKeyTableRecord shorter than 72 bytes, or of "
		    "another LID or block than asked";
		return 0;
	}
	return fa_ib_pkeys_json(pk, rec + 8, FA_IB_PKEYS_PER_BLOCK, NULL, 0);
}

int
fa_ib_sa_sminfo_json(const struct fa_sa_table *t, json_t *arr)
{
	const uint8_t *rec;
	unsigned i;
	json_t *o;
	void *smi;

	for (i = 0; i < t->n; i++) {
		rec = t->recs + (size_t)i * t->recsz;
		if (rec[0] == 0 && rec[1] == 0)
			break;	/* padding after the last record */
		smi = (void *)(rec + SMIR_SMINFO_OFFS);
		o = json_pack("{s:i, s:i, s:i}", "lid", rec[0] << 8 | rec[1],
		    "priority", mad_get_field(smi, 0, IB_SMINFO_PRIO_F),
		    "state", mad_get_field(smi, 0, IB_SMINFO_STATE_F));
		if (o == NULL || fa_json_set_u64(o, "guid", mad_get_field64(
		    smi, 0, IB_SMINFO_GUID_F)) != 0 ||
		    json_array_append_new(arr, o) != 0) {
			json_decref(o);
			return FA_ERR_NOMEM;
		}
	}
	return 0;
}

/* PathRecord (IBA vol. 1 15.2.5.16): DLID bytes 40-41, SLID 42-43. */
void
fa_ib_pr_entry_of(const uint8_t *rec, struct fa_ib_pr_entry *e)
{
	e->dlid = (uint16_t)mad_get_field((void *)rec, 0, IB_SA_PR_DLID_F);
	e->pkey = (uint16_t)(rec[PR_PKEY_OFFS] << 8 | rec[PR_PKEY_OFFS + 1]);
}

unsigned
fa_ib_pr_port_entries(const struct fa_sa_table *t, uint16_t dlid,
    struct fa_ib_pr_entry *e, const char **bad)
{
	unsigned i, ne = 0;

	for (i = 0; i < t->n; i++) {
		fa_ib_pr_entry_of(t->recs + (size_t)i * t->recsz, &e[ne]);
		if (e[ne].dlid == 0)
			break;	/* padding */
		if (e[ne].dlid != dlid) {
			*bad = "a PathRecord for another DLID than asked";
			break;
		}
		ne++;
	}
	return ne;
}

static int
pr_entry_cmp(const void *a, const void *b)
{
	const struct fa_ib_pr_entry *x = a, *y = b;

	return x->dlid != y->dlid ? (x->dlid < y->dlid ? -1 : 1) :
	    (x->pkey < y->pkey ? -1 : x->pkey > y->pkey);
}

long
fa_ib_pr_table_entries(const struct fa_sa_table *t, uint16_t slid,
    struct fa_ib_pr_entry **out, const char **bad)
{
	struct fa_ib_pr_entry *e;
	unsigned i;
	long ne = 0;

	*out = NULL;
	if (t->n == 0)
		return 0;
	if ((e = calloc(t->n, sizeof(*e))) == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < t->n; i++) {
		const uint8_t *rec = t->recs + (size_t)i * t->recsz;

		fa_ib_pr_entry_of(rec, &e[ne]);
		if (e[ne].dlid == 0)
			continue;	/* padding */
		if (mad_get_field((void *)rec, 0, IB_SA_PR_SLID_F) != slid) {
			*bad = "a PathRecord from another SLID than asked";
			free(e);
			return FA_ERR_INPUT;
		}
		ne++;
	}
	if (ne == 0) {
		free(e);
		return 0;
	}
	qsort(e, (size_t)ne, sizeof(*e), pr_entry_cmp);
	*out = e;
	return ne;
}
