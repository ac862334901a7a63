/*
 * InfiniBand checks, and the observation kinds they read.  The kinds and
 * their data members are written by fabric/ib_*.c; see those files for how
 * each is acquired.
 *
 * ib.smp.sminfo      target "H-0x<nodeguid>/<port>" of an SM port;
 *                    data: lid, port_guid, node_desc, found_by[],
 *                    mad_status, and when answered: guid, sm_key (secret),
 *                    priority, state, act_count.
 * ib.smp.pkey_table  target as above; data: role ("local"), lid,
 *                    port_guid, node_desc, partition_cap, blocks_total,
 *                    blocks_read, pkeys[] ("0x%04x", table order, zero
 *                    entries omitted).
 */
#ifndef FA_IB_CHECKS_H
#define FA_IB_CHECKS_H

#include "check.h"

#define FA_KIND_IB_SMINFO	"ib.smp.sminfo"
#define FA_KIND_IB_PKEYS	"ib.smp.pkey_table"
#define FA_KIND_IB_LOCAL	"ib.local_port"
#define FA_KIND_IB_TOPOLOGY	"ib.topology"

extern const struct fa_check fa_chk_ib_smkey_disclosed;
extern const struct fa_check fa_chk_ib_pkey_default_full;
extern const struct fa_check fa_chk_ib_mkey_unset;
extern const struct fa_check fa_chk_ib_mkey_readable;
extern const struct fa_check fa_chk_ib_mkey_protect_low;
extern const struct fa_check fa_chk_ib_sakey_default;
extern const struct fa_check fa_chk_ib_sa_disclosure;
extern const struct fa_check fa_chk_ib_smkey_default;
extern const struct fa_check fa_chk_ib_sm_unexpected;
extern const struct fa_check fa_chk_ib_pkey_enforce_off;
extern const struct fa_check fa_chk_ib_smp_unrestricted;
extern const struct fa_check fa_chk_ib_xtenant_reachable;
extern const struct fa_check fa_chk_ib_pkey_shared;
extern const struct fa_check fa_chk_ib_cckey_unset;
extern const struct fa_check fa_chk_ib_vskey_unset;
extern const struct fa_check fa_chk_ib_amkey_unset;

#endif
