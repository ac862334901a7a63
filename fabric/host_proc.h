/*
 * Process confinement as the kernel reports it for the scanning process:
 * /proc/self/status (capability sets, Seccomp, NoNewPrivs, Uid; see
 * proc_pid_status(5)), read through the sysroot.  The decoder is separate
 * from the collector so that it can be fed hostile text in unit tests.
 */
#ifndef FA_HOST_PROC_H
#define FA_HOST_PROC_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"

#define FA_HOST_STATUS_MAX	(64u * 1024)

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
 * Read and decode SYSROOT/proc/self/status into one observation of kind
 * "host.proc.status" (complete, or not_collected / error with the reason).
 * Returns 0 or FA_ERR_NOMEM: what could not be read is an observation.
 */
int fa_host_collect_proc(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
