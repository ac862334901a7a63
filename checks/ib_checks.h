/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * InfiniBand checks, and the observation kinds they read.  The kinds and
 * their data members are written by fabric/ib_*.c; see those files for how
 * each is acquired.  Targets are "H-0x<node guid>/<port>" (S- for a
 * switch), "sa", "fabric" or "local".
 *
 * ib.local_port         ib_local.c: our CA, port, LIDs, GUIDs
 * ib.topology           ib_discover.c: nodes[] with ports[] (PortInfo facts:
 *                       num, lid, guid, state, remote_*; CA ports and switch
 *                       port 0: capmask, is_sm, mkey (secret), mkey_protect,
 *                       mkey_lease, mkey_violations; switch ports 1..N:
 *                       part_enf_in/out, and guid and lid only where they
 *                       are not port 0's), max_hops, smps_used, captured
 * ib.smp.sminfo         ib_sminfo.c: one per SM port; sm_key (secret),
 *                       priority, state, act_count when answered
 * ib.smp.pkey_table     ib_pkeys.c (role "local"), ib_pkeys_remote.c (role
 *                       "remote", a table not read whole): blocks_total,
 *                       blocks_read, pkeys[]
 * ib.smp.pkey_tables    ib_pkeys_remote.c: the other ports' tables read
 *                       whole, grouped: tables[] {pkeys, port_guids[]}
 * ib.sa.pkey_table_record, ib.sa.sminfo_records, ib.sa.path_record
 *                       ib_sa.c: records, mad_status, pkeys[] / sms[]
 * ib.sa.path_table      ib_sa.c: the one PathRecord table (bytes, records,
 *                       complete, per_port, why_per_port); when complete,
 *                       every port's paths as destinations[] {records,
 *                       pkeys, port_guids[]}, else one ib.sa.path_record
 *                       per port
 * (ib_portobs.h walks either form port by port)
 * ib.gmp.key_probe      ib_gmpkeys.c: class cc/vs/am, cc_key (secret)
 * ib.active.mkey_set    ib_active.c (--active only): the wrong-key Set and
 *                       the M_KeyViolations read after it
 * ib.active.gmp_reach   ib_gmp_reach.c (--active only): a PerfMgt Get per
 *                       foreign port and partition
 * ib.engine             ib_collect.c: MAD counters
 */
#ifndef FA_IB_CHECKS_H
#define FA_IB_CHECKS_H

#include "check.h"
#include "../core/obs_kinds.h"

/*
 * What the IB acquisition sends, for the checks' `sends` texts.  Every MAD
 * but the --active probes is a Get (fabric/ib.h: the engine refuses Sets
 * without --active), sent with M_Key 0 and SM_Key 0 unless stated.
 */
#define FA_IB_SENDS_DISCOVERY						\
	"directed-route SubnGet(NodeInfo), SubnGet(NodeDescription), "	\
	"SubnGet(PortInfo) and SubnGet(SwitchInfo) SMPs with M_Key 0, "	\
	"sent by libibnetdisc hop by hop from the tenant port to every " \
	"node that answers, at most two in flight"
#define FA_IB_SENDS_SMINFO						\
	"one LID-routed SubnGet(SMInfo), M_Key 0, to the master SM's LID " \
	"(from the tenant port's PortInfo) and to every port whose "	\
	"discovered PortInfo advertises IsSM"
#define FA_IB_SENDS_PATHS						\
	"one SubnAdmGetTable(PathRecord) to the SA with only the tenant "	\
	"port's LID as source (if its answer may have been cut, one per "	\
	"other CA port discovered, with its LID as destination); one "	\
	"LID-routed "							\
	"SubnGet(P_KeyTable), M_Key 0, per block of every other CA port's " \
	"P_Key table (SMPs are not partition-checked, so these reach other " \
	"tenants' adapters); the tenant port's own P_Key table; and, only " \
	"when the SA returned records to SM_Key 1 but not to SM_Key 0 (see " \
	"IB-SAKEY-DEFAULT), one SubnAdmGet(PKeyTableRecord) with SM_Key 1 " \
	"per other CA port whose P_Key table SMP could not read. All are " \
	"Gets: nothing is changed"

/*
 * What a default IB scan sends, one row per class, method and attribute
 * (ib_sends.c); the list ends with a row whose attr_name is NULL.  It is
 * printed in fabaudit-checks(7) and counted against mads.pcap by
 * tests/ib/test_sends.sh.
 */
struct fa_ib_send {
	unsigned	 mgmt_class;	/* 0x81 DR SMP, 0x01 LID SMP, 0x03 SA... */
	unsigned	 method;	/* 0x01 Get, 0x12 GetTable */
	unsigned	 attr;
	const char	*attr_name;
	const char	*how_many;	/* the rule, in words */
	const char	*read_by;	/* the checks that need the answers */
};
extern const struct fa_ib_send fa_ib_sends[];

#endif
