/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scanning process's namespaces, /proc/self/ns/<type>, read as link
 * text ("pid:[4026531836]") without entering them, and PID 1's where the
 * kernel lets us read them.
 *
 * The kernel gives the initial (host) ipc, uts, user, pid, cgroup and time
 * namespaces fixed inode numbers (0xEFFFFFFF down to 0xEFFFFFFA, since
 * 3.8/4.6/5.6), and since Linux 6.18 the initial net and mnt namespaces
 * too (0xEFFFFFF9, 0xEFFFFFF8; uapi linux/nsfs.h, enum init_ns_ino).
 * Every other namespace inode comes from proc_alloc_inum(), which starts
 * at PROC_DYNAMIC_FIRST (0xF0000000): a fixed number is therefore proof of
 * the initial namespace on any kernel, and any other number proves a
 * non-initial one only where the kernel fixes that type's number.
 */
#ifndef FA_HOST_NS_H
#define FA_HOST_NS_H

#include <stdint.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

/*
 * Parse "type:[inode]" for the expected type; 0 or FA_ERR_INPUT.
 */
int fa_ns_link_parse(const char *link, const char *type, uint64_t *inode);

/*
 * Whether a namespace of type with this inode is the initial one, on a
 * kernel of release major.minor (0.0: unknown): 1 yes, 0 no, -1 cannot
 * tell (a type whose initial inode that kernel does not fix).  *since is
 * set to the first release fixing it ("6.18"), or NULL for unknown types.
 */
int fa_ns_is_initial(const char *type, uint64_t inode, unsigned major,
    unsigned minor, const char **since);

/*
 * One observation, target /proc/self/ns: for each type whose link could be
 * read {"<type>": {"inode": n, "initial": bool, "pid1": m}} ("initial"
 * only where it can be told, else "initial_unknown": "why"; "pid1" when
 * PID 1's link of that type was readable too), {"<type>": {"unreadable":
 * "reason"}} otherwise; "kernel": "6.18" when the release was read.
 * Complete when at least one link was read, not_collected when none
 * exists.  0 or FA_ERR_NOMEM.
 */
int fa_host_collect_ns(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
