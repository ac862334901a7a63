/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tenant port's own P_Key table, block by block (32 entries of 16 bits
 * per block, IBA vol. 1 14.2.5; the block count follows
 * NodeInfo.PartitionCap).
 * Entries are decoded from the 64-byte SMP data big-endian, zero entries
 * dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

#define PKEYS_PER_BLOCK	32
#define MAX_BLOCKS	2048	/* IBA: at most 2048 blocks (65536 entries) */

int
fa_ib_pkeys_local(struct fa_ib *ib)
{
	uint8_t data[IB_SMP_DATA_SIZE];
	ib_portid_t self;
	enum fa_smp_outcome oc = FA_SMP_ANSWERED;
	enum fa_obs_state st;
	unsigned status = 0, nblocks, b, got = 0;
	struct fa_obs_build ob;
	json_t *d = NULL, *pk = NULL;
	char *target = NULL, *req = NULL, *reason = NULL;
	int r = FA_ERR_NOMEM;

	nblocks = (ib->partition_cap + PKEYS_PER_BLOCK - 1) / PKEYS_PER_BLOCK;
	if (!ib->node_info_ok)
		nblocks = 1;	/* PartitionCap unknown: block 0 at least */
	if (nblocks > MAX_BLOCKS)
		nblocks = MAX_BLOCKS;
	target = fa_ib_target(ib->node_type, ib->node_guid, ib->portnum);
	req = fa_strfmt("SubnGet(P_KeyTable) blocks 0-%u by directed route "
	    "to self, M_Key 0", nblocks > 0 ? nblocks - 1 : 0);
	if (target == NULL || req == NULL || (pk = json_array()) == NULL)
		goto out;
	memset(&self, 0, sizeof(self));
	for (b = 0; b < nblocks; b++) {
		oc = fa_ib_smp_get(ib, &self, IB_ATTR_PKEY_TBL, b, data,
		    &status, 0);
		if (oc != FA_SMP_ANSWERED)
			break;
		got++;
		if (fa_ib_pkeys_json(pk, data, PKEYS_PER_BLOCK,
		    b < FA_IB_PKEYS_KEPT / PKEYS_PER_BLOCK ?
		    ib->pkey_at + b * PKEYS_PER_BLOCK : NULL,
		    PKEYS_PER_BLOCK) != 0)
			goto out;
	}
	fa_obs_build(&ob);
	fa_put_str(&ob, FA_F(IB_PKEYS, role), "local");
	fa_put_int(&ob, FA_F(IB_PKEYS, lid), ib->lid);
	fa_put_str(&ob, FA_F(IB_PKEYS, node_desc), ib->node_desc);
	fa_put_int(&ob, FA_F(IB_PKEYS, partition_cap), ib->partition_cap);
	fa_put_int(&ob, FA_F(IB_PKEYS, blocks_total), nblocks);
	fa_put_arr(&ob, FA_F(IB_PKEYS, pkeys), pk);
	fa_put_u64(&ob, FA_F(IB_PKEYS, port_guid), ib->port_guid);
	fa_put_int(&ob, FA_F(IB_PKEYS, blocks_read), got);
	pk = NULL;
	if ((d = fa_obs_built(&ob)) == NULL)
		goto out;
	if (nblocks == 0) {
		st = FA_OBS_ERROR;
		reason = fa_strdup("NodeInfo reports a PartitionCap of 0");
	} else if (got == nblocks)
		st = FA_OBS_COMPLETE;
	else {
		st = got > 0 ? FA_OBS_INCOMPLETE : FA_IB_SMP_STATE(oc);
		reason = fa_ib_smp_reason(oc, status);
	}
	if (st != FA_OBS_COMPLETE && reason == NULL)
		goto out;
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, FA_KIND_IB_PKEYS, target,
	    req, st, reason, d, NULL);
	d = NULL;
out:
	json_decref(d);
	json_decref(pk);
	free(target);
	free(req);
	free(reason);
	return r;
}
