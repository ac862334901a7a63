/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of the SA records the IB scan reads (PKeyTableRecord,
 * SMInfoRecord, PathRecord): bytes in, facts out, no I/O.  The scanner
 * (fabric/ib_sa.c) and the fuzz target fuzz/fuzz_ib_sa.c call them.
 */
#ifndef FA_IB_SA_DECODE_H
#define FA_IB_SA_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ib_sa_table.h"

#define FA_IB_PKTR_RECSZ	72	/* PKeyTableRecord bytes */

/*
 * Check the PKeyTableRecord at `rec`, of which `avail` bytes were
 * received, `recsz` apart (AttributeOffset), answering a Get for `lid`
 * block 0, and append its non-zero P_Keys to `pk`.  A record cut short,
 * or of another LID or block, sets *bad (static) and appends nothing.
 * 0, or FA_ERR_NOMEM.
 */
int fa_ib_sa_pkey_record(const uint8_t *rec, size_t avail, unsigned recsz,
    uint16_t lid, json_t *pk, const char **bad);

/*
 * Append one {lid, priority, state, guid} object per SMInfoRecord of the
 * table `t` (records of at least 28 bytes) to `arr`, up to the first
 * record of LID 0 (padding).  0, or FA_ERR_NOMEM.
 */
int fa_ib_sa_sminfo_json(const struct fa_sa_table *t, json_t *arr);

/* What the scan keeps of a PathRecord: its DLID and P_Key. */
struct fa_ib_pr_entry {
	uint16_t	dlid;
	uint16_t	pkey;
};

/* The DLID and P_Key of the PathRecord at `rec` (64 bytes). */
void fa_ib_pr_entry_of(const uint8_t *rec, struct fa_ib_pr_entry *e);

/*
 * The paths of the per-port answer `t` (PathRecords of at least 64
 * bytes) to `dlid`, into e[] (room for t->n), up to the first record of
 * DLID 0 (padding).  A record to another DLID sets *bad (static) and ends
 * the list.  Returns how many entries e[] holds.
 */
unsigned fa_ib_pr_port_entries(const struct fa_sa_table *t, uint16_t dlid,
    struct fa_ib_pr_entry *e, const char **bad);

/*
 * The paths of the complete table `t` answering a query from `slid`,
 * sorted by DLID then P_Key, records of DLID 0 (padding) skipped: their
 * count with *out (malloc'd, NULL when there are none), FA_ERR_INPUT with
 * *bad set (static) if a record is from another SLID, or FA_ERR_NOMEM.
 */
long fa_ib_pr_table_entries(const struct fa_sa_table *t, uint16_t slid,
    struct fa_ib_pr_entry **out, const char **bad);

#endif
