/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decoders of the SMP and GMP attributes the IB scan reads (NodeInfo,
 * PortInfo, P_KeyTable, SMInfo, CongestionKeyInfo): bytes in, facts out,
 * no I/O.  The scanner (fabric/ib_*.c) and the fuzz targets call them.
 */
#ifndef FA_IB_SMP_DECODE_H
#define FA_IB_SMP_DECODE_H

#include <stdint.h>

#include <jansson.h>

/* What the scan keeps of a NodeInfo (IBA vol. 1 14.2.5.3). */
struct fa_ib_nodeinfo {
	uint64_t	node_guid;
	int		node_type;	/* IB_NODE_CA, ... */
	uint16_t	partition_cap;
};

/* Decode the 64-byte NodeInfo attribute `data`. */
void fa_ib_nodeinfo_decode(const uint8_t *data, struct fa_ib_nodeinfo *ni);

/*
 * Add to `o` the protection facts of the 64-byte PortInfo `info` (IBA
 * vol. 1 14.2.5.6): for a switch's external port (`switch_ext`) the
 * partition enforcement bits part_enf_in/out, else capmask, is_sm, mkey
 * (a secret), mkey_protect, mkey_lease, mkey_violations.  0, or
 * FA_ERR_NOMEM.
 */
int fa_ib_portinfo_json(json_t *o, const uint8_t *info, int switch_ext);

#define FA_IB_PKEYS_PER_BLOCK	32

/*
 * Append the non-zero P_Keys of the `n` (<= 32) big-endian 16-bit
 * entries at `blk` (a P_KeyTable block, IBA vol. 1 14.2.5.7, or the
 * block of a PKeyTableRecord) to the array `arr` as "0x%04x" strings.
 * Entry i also goes to keep[i] for i < nkeep (keep may be NULL).  0, or
 * FA_ERR_NOMEM.
 */
int fa_ib_pkeys_json(json_t *arr, const uint8_t *blk, unsigned n,
    uint16_t *keep, unsigned nkeep);

/* What an SMInfo attribute holds (24 bytes, IBA vol. 1 14.2.5.13). */
struct fa_ib_sminfo {
	uint64_t	guid;
	uint64_t	sm_key;		/* a secret: zero it after use */
	uint32_t	act_count;
	unsigned	priority;	/* 0-15 */
	unsigned	state;		/* SMState: 4 bits, IBA uses 0-3 */
};

/* Decode the SMInfo attribute at `smi`. */
void fa_ib_sminfo_decode(const uint8_t *smi, struct fa_ib_sminfo *s);

/* What a CongestionKeyInfo attribute holds (IBA vol. 1 Annex A10.4.3). */
struct fa_ib_cc_keyinfo {
	uint64_t	cc_key;		/* a secret */
	unsigned	protect;	/* CC_KeyProtectBit */
	unsigned	lease;		/* CC_KeyLeasePeriod, seconds */
	unsigned	violations;	/* CC_KeyViolations */
};

/* Decode the CongestionKeyInfo attribute at `data`. */
void fa_ib_cc_keyinfo_decode(const uint8_t *data,
    struct fa_ib_cc_keyinfo *k);

#endif
