/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who we are running as, beyond /proc/self/status: the tenancy evidence
 * (bare metal, VM or container), the LSM label, and the user-namespace
 * map.  All reads are small, bounded files through the sysroot.
 *
 * host.tenancy  target "/": {cgroup_1: [lines of /proc/1/cgroup],
 *               dmi: {sys_vendor, product_name, board_vendor,
 *               bios_vendor}, cpu_hypervisor: bool, hypervisor_type,
 *               net_ifaces: [names in /sys/class/net], unread: {what:
 *               reason}}; members absent when unread.
 * host.lsm      target "/proc/self/attr": {current, apparmor_current,
 *               apparmor_enabled "Y"/"N", selinux_enforce "0"/"1",
 *               lsm_list (active LSMs, "capability,yama,apparmor"),
 *               unread: {...}}.
 * host.userns   target "/proc/self/uid_map": {map: [[inside, outside,
 *               count], ...]}.
 */
#ifndef FA_HOST_IDENT_H
#define FA_HOST_IDENT_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

#define FA_HOST_SMALL_MAX	(64u * 1024)

/* Decode uid_map text into {"map": [[in, out, count], ...]}. */
int fa_uid_map_decode(const char *text, size_t len, json_t **out,
    char **why);

/* 1 when the "flags" line of cpuinfo text lists "hypervisor", 0 when a
 * flags line does not, FA_ERR_NOTFOUND with no flags line. */
int fa_cpuinfo_hypervisor(const char *text, size_t len);

int fa_host_collect_ident(const struct fa_sysroot *root,
    struct fa_snapshot *snap);

#endif
