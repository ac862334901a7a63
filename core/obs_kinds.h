/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The name of every observation kind, spelled once: fabric/ writes
 * observations under these names, checks/ and reports/ look them up by
 * them, and core/obs_schema.def declares each one's fields.  A name
 * misspelt in code does not compile; the layer lint fails on a kind's
 * name written as a string anywhere else.
 */
#ifndef FA_OBS_KINDS_H
#define FA_OBS_KINDS_H

#define FA_KIND_ETH_ARP_SCAN	"eth.arp_scan"
#define FA_KIND_ETH_CAPTURE	"eth.capture"
#define FA_KIND_ETH_LINKS	"eth.links"
#define FA_KIND_ETH_REACH	"eth.reach"
#define FA_KIND_ETH_VLAN_PROBE	"eth.vlan_probe"
#define FA_KIND_HOST_BINARY	"host.binary"
#define FA_KIND_HOST_CDI	"host.cdi"
#define FA_KIND_HOST_CTK_CONFIG	"host.ctk.config"
#define FA_KIND_HOST_CTK_PROBE	"host.ctk.probe"
#define FA_KIND_HOST_CVEDB	"host.cvedb"
#define FA_KIND_HOST_DEVICES	"host.devices"
#define FA_KIND_HOST_LSM	"host.lsm"
#define FA_KIND_HOST_MOUNTS	"host.mounts"
#define FA_KIND_HOST_NS	"host.namespaces"
#define FA_KIND_HOST_OS	"host.os"
#define FA_KIND_HOST_PACKAGE	"host.package"
#define FA_KIND_HOST_PATH	"host.path"
#define FA_KIND_HOST_STATUS	"host.proc.status"
#define FA_KIND_HOST_SOCKETS	"host.sockets"
#define FA_KIND_HOST_SYSCTL	"host.sysctl"
#define FA_KIND_HOST_TENANCY	"host.tenancy"
#define FA_KIND_HOST_UNIX	"host.unix"
#define FA_KIND_HOST_USERNS	"host.userns"
#define FA_KIND_HOST_VERSION	"host.version"
#define FA_KIND_IB_GMP_REACH	"ib.active.gmp_reach"
#define FA_KIND_IB_ACTIVE_MKEY	"ib.active.mkey_set"
#define FA_KIND_IB_ENGINE	"ib.engine"
#define FA_KIND_IB_KEYPROBE	"ib.gmp.key_probe"
#define FA_KIND_IB_KEYPROBES	"ib.gmp.key_probes"
#define FA_KIND_IB_LOCAL	"ib.local_port"
#define FA_KIND_IB_SA_ALIVE	"ib.sa.alive_after"
#define FA_KIND_IB_PATH_RECORD	"ib.sa.path_record"
#define FA_KIND_IB_SA_PATH_TABLE	"ib.sa.path_table"
#define FA_KIND_IB_SA_PKEY_RECORD	"ib.sa.pkey_table_record"
#define FA_KIND_IB_SA_SMINFO	"ib.sa.sminfo_records"
#define FA_KIND_IB_PKEYS	"ib.smp.pkey_table"
#define FA_KIND_IB_PKEY_TABLES	"ib.smp.pkey_tables"
#define FA_KIND_IB_SMINFO	"ib.smp.sminfo"
#define FA_KIND_IB_TOPOLOGY	"ib.topology"
#define FA_KIND_SCAN_MAX_TIME	"scan.max_time"

#endif
