/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host and container checks, and the observation kinds they read (written
 * by fabric/host_*.c; see those headers for each kind's data members).
 *
 * The checks about container isolation (privileges, capabilities, seccomp,
 * LSM, no_new_privs, user and host namespaces, mounts, escape files,
 * devices) judge a container: on a bare-metal node or a VM the process's
 * privileges are the tenant's own business and those checks are
 * not_applicable, saying what the environment was found to be.
 */
#ifndef FA_HOST_CHECKS_H
#define FA_HOST_CHECKS_H

#include <stdint.h>

#include "check.h"
#include "../core/obs_kinds.h"

/* What the evidence says the audited environment is. */
struct fa_host_env {
	int		 container;	/* 1 yes, 0 no, -1 cannot tell */
	int		 vm;		/* 1 yes, 0 no, -1 cannot tell */
	char		 runtime[32];	/* "docker", "kubernetes"..., or "" */
	char		 platform[160];	/* DMI vendor/product, or "" */
	int		 conflict;	/* tells that disagree left it undecided */
	char		 pid1[64];	/* PID 1's name (/proc/1/comm), or "" */
	char		 account[1024];	/* each question, its verdict, its tells */
	json_t		*evidence;	/* one "environment" item (owned) */
};

/* Classify; 0 or FA_ERR_NOMEM.  Free with fa_host_env_free. */
int fa_host_env(const struct fa_snapshot *s, struct fa_host_env *env);
void fa_host_env_free(struct fa_host_env *env);
/* How the decision is made, as fabaudit-checks(7) states it (mdoc). */
extern const char fa_host_env_man[];
/*
 * For the tests that hold that text to the code: the VM vendor strings,
 * and the i-th runtime cgroup pattern (NULL past the end); returns how
 * many patterns there are.
 */
size_t fa_host_env_patterns(const char *const **vendors, size_t *nvendors,
    const char **cgroup_pattern, size_t i);
/* "a docker container", "a VM (KVM)", "bare metal"... */
const char *fa_host_env_name(const struct fa_host_env *env, char *buf,
    size_t len);

/* The audited process's credentials from host.proc.status. */
enum {
	FA_CRED_UID = 1, FA_CRED_EFF = 2, FA_CRED_BND = 4,
	FA_CRED_SECCOMP = 8, FA_CRED_NNP = 16, FA_CRED_GROUPS = 32
};
struct fa_host_creds {
	const struct fa_obs *obs;
	unsigned	 have;		/* FA_CRED_* members present */
	long long	 euid;
	long long	 egid;
	const json_t	*groups;	/* supplementary gids (borrowed) */
	uint64_t	 cap_eff;
	uint64_t	 cap_bnd;
	long long	 seccomp;	/* 0 off, 1 strict, 2 filter */
	long long	 nnp;
};

/*
 * Read what /proc/self/status gave: 0 with c->have saying which members
 * were there (older kernels lack Seccomp/NoNewPrivs lines), FA_ERR_NOTFOUND
 * when it was not read, FA_ERR_INPUT when a member is malformed.  c->obs is
 * set whenever an observation exists.
 */
int fa_host_creds(const struct fa_snapshot *s, struct fa_host_creds *c);

/*
 * Common head of the container checks: family gate, then the environment.
 * Returns 1 when a result was added (not a container: not_applicable;
 * cannot tell: not_tested), 0 to go on with env filled (the caller frees
 * it), or <0 on error.
 */
int fa_host_container_gate(const struct fa_check *c,
    const struct fa_eval_ctx *ctx, struct fa_results *out,
    struct fa_host_env *env);

/*
 * How many mountinfo lines were not decoded (skipped as malformed, or past
 * the table's bound; fabric/host_mounts.h): 0 when the table was read
 * whole.  A mount table with holes cannot say which mount holds a path.
 */
size_t fa_host_mounts_unexamined(const struct fa_snapshot *s);
/* The host.mounts entry whose mount point covers path (longest), or NULL. */
const json_t *fa_host_mount_for(const struct fa_snapshot *s,
    const char *path);

/*
 * Whether the process of creds c may write the file described by a
 * host.path observation (mode, uid, gid) on its mount: 1 yes, 0 no, -1
 * cannot tell.  A read-only mount is never writable; the mode bits
 * decide (owner, group, other), and CAP_DAC_OVERRIDE overrides them only
 * for a file whose owner and group are mapped into the process's user
 * namespace (see fa_host_writable_why).
 */
int fa_host_writable(const struct fa_snapshot *s,
    const struct fa_host_creds *c, const struct fa_obs *path);
/*
 * fa_host_writable, saying in why (len bytes; why may be NULL) how it was
 * decided.  CAP_DAC_OVERRIDE counts only for a file whose owner and group
 * are mapped into the process's user namespace (capable_wrt_inode_uidgid,
 * kernel/capability.c): one that reads as the overflow id is not, unless
 * every id is mapped (uid_map "0 0 4294967295", or the initial user
 * namespace); -1 when that decides and the uid_map was not read.  See
 * host_access.c.
 */
int fa_host_writable_why(const struct fa_snapshot *s,
    const struct fa_host_creds *c, const struct fa_obs *path, char *why,
    size_t len);
/*
 * Whether the process may connect(2) to the socket path describes:
 * the same permission check as a write, but a read-only mount does not
 * refuse it (unix(7): connecting needs write permission on the socket
 * file only).  1, 0, -1 as fa_host_writable.
 */
int fa_host_connectable_why(const struct fa_snapshot *s,
    const struct fa_host_creds *c, const struct fa_obs *path, char *why,
    size_t len);

/*
 * The integer of a /proc/sys file (path "/proc/sys/kernel/cap_last_cap"...)
 * as the host.sysctl observation holds it (fabric/host_proc.h), in
 * [min, max]: 0 with *v; FA_ERR_NOTFOUND when it was not read (no
 * observation, or not complete), FA_ERR_INPUT when out of range.  *o, when
 * o is not NULL, is the observation or NULL.
 */
int fa_host_sysctl(const struct fa_snapshot *s, const char *path,
    long long min, long long max, const struct fa_obs **o, long long *v);

/*
 * What the host acquisition does, for the checks' `sends` texts: it sends
 * nothing anywhere (fabric/host.h, host_fs.h).
 */
#define FA_HOST_SENDS(what)						\
	"Nothing: reads " what " through the sysroot (--host), by bounded " \
	"reads of regular files, stat and readlink only; nothing is "	\
	"written or executed, no device node is opened and no socket is " \
	"connected to."
/* The files that tell bare metal, VM and container apart (host_ident.h). */
#define FA_HOST_ENV_FILES						\
	"the tenancy evidence (/proc/self/ns/* and /proc/1/ns/*, "	\
	"/proc/sys/kernel/osrelease, /proc/self/cgroup, /proc/1/cgroup, " \
	"/proc/1/comm, /proc/self/environ (container= and "		\
	"KUBERNETES_SERVICE_HOST only), /run/systemd/container, "	\
	"/run/host/container-manager, /sys/class/dmi/id, "		\
	"/sys/hypervisor/type, /proc/device-tree/hypervisor, "		\
	"/proc/cpuinfo, /sys/class/net, /proc/self/mountinfo and the "	\
	"container marker files /.dockerenv and /run/.containerenv)"
/* The verdicts of fa_host_container_gate(). */
#define FA_HOST_IN_CONTAINER						\
	"Judges a container only: not applicable on bare metal or in a " \
	"VM, not tested when the evidence cannot tell. "

#endif
