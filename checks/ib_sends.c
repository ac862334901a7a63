/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a default InfiniBand scan sends, one row per management class,
 * method and attribute: the table that fabaudit-checks(7) prints under
 * "MADs a scan sends" (scanner/cmd_checks.c), and that
 * tests/ib/test_sends.sh counts, request by request, in the mads.pcap of
 * fault-free scans on the simulator.  The per-check "Sends" texts say the
 * same in prose; this table is the count a provider can hold the scan to.
 *
 * The rows follow fabric/: ib_discover.c (libibnetdisc's walk),
 * ib_pkeys.c (the tenant port's P_Key table), ib_sminfo.c, ib_pkeys_remote.c,
 * ib_sa.c, ib_gmpkeys.c and ib_collect.c (the SA asked once more after
 * the audit).  Classes: 0x81 directed-route and 0x01 LID-routed SubnMgt,
 * 0x03 SubnAdm, 0x21 Congestion Control, 0x0A the Mellanox vendor class,
 * 0x0B SHARP Aggregation Management.  --active adds the probes its
 * checks describe; --key-probes leaves out the last three rows' classes.
 */
#include "ib_checks.h"

#define DISCOVERY							\
	"as many as libibnetdisc's walk needs, retried: for the four "	\
	"discovery attributes together, the smps_used of the topology "	\
	"observation plus the NodeInfo and PortInfo with which libibmad " \
	"first resolves the tenant port"
#define PROBED								\
	"one per probed node (every node but the tenant's own and those " \
	"with a port that advertises IsSM, at its LID: switch port 0 or " \
	"its first CA port with a LID), with key 0, sent once and never " \
	"retried"

const struct fa_ib_send fa_ib_sends[] = {
	{ 0x81, 0x01, 0x0011, "NodeInfo", DISCOVERY,
	    "every check that reads the topology" },
	{ 0x81, 0x01, 0x0010, "NodeDescription", DISCOVERY,
	    "every check that tells tenant, provider and foreign nodes "
	    "apart" },
	{ 0x81, 0x01, 0x0015, "PortInfo", DISCOVERY,
	    "IB-MKEY-*, IB-PKEY-ENFORCE-OFF, IB-SM-UNEXPECTED" },
	{ 0x81, 0x01, 0x0012, "SwitchInfo", DISCOVERY,
	    "the topology" },
	{ 0x81, 0x01, 0x0016, "P_KeyTable",
	    "one per block of the tenant port's own table (PartitionCap/32 "
	    "blocks, at least 1), retried",
	    "IB-PKEY-DEFAULT-FULL, IB-PKEY-SHARED, IB-XTENANT-REACHABLE" },
	{ 0x01, 0x01, 0x0020, "SMInfo",
	    "one per SM LID (the tenant port's MasterSMLID, and the LID of "
	    "every CA port or switch port 0 whose PortInfo advertises IsSM), "
	    "retried",
	    "IB-SMKEY-DISCLOSED, IB-SMKEY-DEFAULT, IB-SM-UNEXPECTED" },
	{ 0x01, 0x01, 0x0016, "P_KeyTable",
	    "one per block (PartitionCap/32, at most 64) of every other CA "
	    "port with a LID, retried",
	    "IB-PKEY-SHARED, IB-XTENANT-REACHABLE" },
	{ 0x03, 0x12, 0x0035, "PathRecord",
	    "one with the tenant port's LID as source; when its answer may "
	    "have been cut, one more per other CA port with a LID, that LID "
	    "as destination; retried",
	    "IB-XTENANT-REACHABLE, IB-PKEY-SHARED" },
	{ 0x03, 0x01, 0x0033, "PKeyTableRecord",
	    "two for the tenant port's LID: one with SM_Key 0 and one with "
	    "SM_Key 1, both retried (an SA that refuses the second drops "
	    "and logs every send of it); and, when the SA returned "
	    "records to SM_Key 1 but not to SM_Key 0, one with SM_Key 1 per "
	    "other CA port whose P_Key table the SMPs could not read",
	    "IB-SAKEY-DEFAULT, IB-SA-DISCLOSURE, IB-PKEY-SHARED" },
	{ 0x03, 0x12, 0x0018, "SMInfoRecord", "one, retried",
	    "IB-SM-UNEXPECTED" },
	{ 0x03, 0x01, 0x0001, "ClassPortInfo",
	    "one, retried, once the audit is done: whether the SA still "
	    "answers",
	    "the checks that read the SM or the SA" },
	{ 0x21, 0x01, 0x0012, "CongestionKeyInfo", PROBED,
	    "IB-CCKEY-UNSET" },
	{ 0x0a, 0x01, 0x0017, "GeneralInfo", PROBED, "IB-VSKEY-UNSET" },
	{ 0x0b, 0x01, 0x0001, "ClassPortInfo", PROBED, "IB-AMKEY-UNSET" },
	{ 0, 0, 0, NULL, NULL, NULL }
};
