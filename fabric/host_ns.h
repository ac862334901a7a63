/*
 * The scanning process's namespaces, /proc/self/ns/<type>, read as link
 * text ("pid:[4026531836]") without entering them.  The kernel gives the
 * initial (host) ipc, uts, user, pid, cgroup and time namespaces fixed
 * inode numbers (include/linux/proc_ns.h: 0xEFFFFFFF down to 0xEFFFFFFA),
 * so one readlink tells whether a container shares the host's; net and mnt
 * inodes are allocated at boot and prove nothing alone.
 */
#ifndef FA_HOST_NS_H
#define FA_HOST_NS_H

#include <stdint.h>

#include "../core/snapshot.h"
#include "host_fs.h"

#define FA_KIND_HOST_NS		"host.namespaces"

/*
 * Parse "type:[inode]" for the expected type; 0 or FA_ERR_INPUT.
 */
int fa_ns_link_parse(const char *link, const char *type, uint64_t *inode);

/*
 * One observation: {"<type>": {"inode": n, "initial": bool}} for each type
 * whose link could be read ("initial" only where the kernel fixes the
 * number), {"<type>": {"unreadable": "reason"}} otherwise.  Complete when
 * at least one link was read, not_collected when none exists.  0 or
 * FA_ERR_NOMEM.
 */
int fa_host_collect_ns(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
