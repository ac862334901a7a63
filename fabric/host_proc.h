/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Process confinement as the kernel reports it for the scanning process:
 * /proc/self/status (capability sets, Seccomp, NoNewPrivs, Uid; see
 * proc_pid_status(5)), read through the sysroot, and the kernel integers
 * needed to read it right: /proc/sys/kernel/cap_last_cap (how many
 * capabilities this kernel has; capabilities(7)) and overflowuid /
 * overflowgid (the ids that stand for ones not mapped into the user
 * namespace; user_namespaces(7), "Unmapped user and group IDs").  The
 * decoders are separate from the collector so that they can be fed hostile
 * text in unit tests.
 *
 * host.sysctl   target the file ("/proc/sys/kernel/cap_last_cap"):
 *               {"value": n}.  One observation per file.
 */
#ifndef FA_HOST_PROC_H
#define FA_HOST_PROC_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

#define FA_HOST_STATUS_MAX	(64u * 1024)
#define FA_HOST_SYSCTL_MAX	64u

/* The /proc/sys integers collected, each a host.sysctl observation. */
#define FA_SYSCTL_CAP_LAST_CAP	"/proc/sys/kernel/cap_last_cap"
#define FA_SYSCTL_OVERFLOWUID	"/proc/sys/kernel/overflowuid"
#define FA_SYSCTL_OVERFLOWGID	"/proc/sys/kernel/overflowgid"

/*
 * Decode the text of /proc/PID/status into a new object:
 *   {"uid": [real, effective, saved, fs], "gid": [the same four],
 *    "groups": [supplementary gids], "cap_inh": "0x%016", "cap_prm",
 *    "cap_eff", "cap_bnd", "cap_amb" (absent before Linux 4.3),
 *    "no_new_privs": 0|1, "seccomp": 0|1|2, "seccomp_filters": n}
 * A field the kernel did not print is absent (older kernels, gVisor); a
 * field present but malformed, a duplicate, or no Uid/CapEff line at all
 * is FA_ERR_INPUT with *why (caller frees) naming the line.
 */
int fa_host_status_decode(const char *text, size_t len, json_t **out,
    char **why);

/*
 * Decode the text of a /proc/sys file holding one integer, as the kernel
 * prints it (proc_dointvec: decimal, then "\n") into {"value": n}, n from
 * 0 to 4294967295.  Anything else (a sign, blanks inside, a second value,
 * no digits) is FA_ERR_INPUT with *why (caller frees).
 */
int fa_host_sysctl_decode(const char *text, size_t len, json_t **out,
    char **why);

/*
 * Read and decode SYSROOT/proc/self/status into one observation of kind
 * "host.proc.status" (complete, or not_collected / error with the reason),
 * then each FA_SYSCTL_* file into a "host.sysctl" observation the same way
 * (not_collected before Linux 3.2, which has no cap_last_cap).  Returns 0
 * or FA_ERR_NOMEM: what could not be read is an observation.
 */
int fa_host_collect_proc(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
