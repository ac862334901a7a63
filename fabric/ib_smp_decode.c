/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of the SMP and GMP attributes the IB scan reads, kept apart
 * from the I/O so that the fuzz targets (fuzz/fuzz_ib_smp.c,
 * fuzz_ib_gmp.c) drive exactly what the scanner runs.  Every field is
 * read through libibmad's field tables (mad_get_field*), whose offsets
 * follow the IBA vol. 1 layouts cited at each function; the callers pass
 * a buffer that holds the whole attribute (the engine zero-pads an answer
 * to 256 bytes, fabric/ib_mad.c).
 */
#include <stdio.h>

#include <infiniband/mad.h>

#include "../core/errors.h"
#include "../core/snapshot.h"
#include "ib_smp_decode.h"

/* NodeInfo, IBA vol. 1 14.2.5.3: NodeType byte 2, NodeGUID bytes 12-19,
 * PartitionCap bytes 28-29. */
void
fa_ib_nodeinfo_decode(const uint8_t *data, struct fa_ib_nodeinfo *ni)
{
	void *p = (void *)data;

	ni->node_guid = mad_get_field64(p, 0, IB_NODE_GUID_F);
	ni->node_type = (int)mad_get_field(p, 0, IB_NODE_TYPE_F);
	ni->partition_cap = (uint16_t)mad_get_field(p, 0,
	    IB_NODE_PARTITION_CAP_F);
}

/*
 * PortInfo, IBA vol. 1 14.2.5.6: M_Key bytes 0-7, CapabilityMask 20-23
 * (bit 1 IsSM), M_KeyLeasePeriod 26-27, M_KeyProtectBits the top 2 bits
 * of byte 34, PartitionEnforcementInbound/Outbound bits 3 and 2 of byte
 * 43, M_KeyViolations 44-45.  A switch's external ports have no M_Key and no
 * capability mask of their own: only their enforcement bits count.
 */
int
fa_ib_portinfo_json(json_t *o, const uint8_t *info, int switch_ext)
{
	void *p = (void *)info;
	uint32_t cap;

	if (switch_ext) {
		if (json_object_set_new(o, "part_enf_in", json_integer(
		    mad_get_field(p, 0, IB_PORT_PART_EN_INB_F))) != 0 ||
		    json_object_set_new(o, "part_enf_out", json_integer(
		    mad_get_field(p, 0, IB_PORT_PART_EN_OUTB_F))) != 0)
			return FA_ERR_NOMEM;
		return 0;
	}
	cap = mad_get_field(p, 0, IB_PORT_CAPMASK_F);
	if (json_object_update_new(o, json_pack("{s:I, s:b, s:o, s:i, s:i, "
	    "s:i}", "capmask", (json_int_t)cap, "is_sm", (cap & 0x2) != 0,
	    "mkey", fa_secret_new(mad_get_field64(p, 0, IB_PORT_MKEY_F)),
	    "mkey_protect", mad_get_field(p, 0, IB_PORT_MKEY_PROT_BITS_F),
	    "mkey_lease", mad_get_field(p, 0, IB_PORT_MKEY_LEASE_F),
	    "mkey_violations", mad_get_field(p, 0, IB_PORT_MKEY_VIOL_F))) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

/* P_KeyTable, IBA vol. 1 14.2.5.7: 32 entries of 16 bits, big-endian,
 * bit 15 the membership type (1 full). */
int
fa_ib_pkeys_json(json_t *arr, const uint8_t *blk, unsigned n,
    uint16_t *keep, unsigned nkeep)
{
	char hex[8];
	unsigned i;
	uint16_t v;

	if (n > FA_IB_PKEYS_PER_BLOCK)
		n = FA_IB_PKEYS_PER_BLOCK;
	for (i = 0; i < n; i++) {
		v = (uint16_t)(blk[2 * i] << 8 | blk[2 * i + 1]);
		if (keep != NULL && i < nkeep)
			keep[i] = v;
		if (v == 0)
			continue;
		snprintf(hex, sizeof(hex), "0x%04x", v);
		if (json_array_append_new(arr, json_string(hex)) != 0)
			return FA_ERR_NOMEM;
	}
	return 0;
}

/* SMInfo, IBA vol. 1 14.2.5.13: GUID bytes 0-7, SM_Key 8-15, ActCount
 * 16-19, Priority the high nibble of byte 20, SMState its low nibble. */
void
fa_ib_sminfo_decode(const uint8_t *smi, struct fa_ib_sminfo *s)
{
	void *p = (void *)smi;

	s->guid = mad_get_field64(p, 0, IB_SMINFO_GUID_F);
	s->sm_key = mad_get_field64(p, 0, IB_SMINFO_KEY_F);
	s->act_count = mad_get_field(p, 0, IB_SMINFO_ACT_F);
	s->priority = mad_get_field(p, 0, IB_SMINFO_PRIO_F);
	s->state = mad_get_field(p, 0, IB_SMINFO_STATE_F);
}

/* CongestionKeyInfo, IBA vol. 1 Annex A10.4.3: CC_Key bytes 0-7,
 * CC_KeyProtectBit the top bit of byte 8, CC_KeyLeasePeriod 10-11,
 * CC_KeyViolations 12-13. */
void
fa_ib_cc_keyinfo_decode(const uint8_t *data, struct fa_ib_cc_keyinfo *k)
{
	void *p = (void *)data;

	k->cc_key = mad_get_field64(p, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_F);
	k->protect = mad_get_field(p, 0,
	    IB_CC_CONGESTION_KEY_INFO_CC_KEY_PROTECT_BIT_F);
	k->lease = mad_get_field(p, 0,
	    IB_CC_CONGESTION_KEY_INFO_CC_KEY_LEASE_PERIOD_F);
	k->violations = mad_get_field(p, 0,
	    IB_CC_CONGESTION_KEY_INFO_CC_KEY_VIOLATIONS_F);
}
