/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The container's own confinement, from /proc/self/status, the LSM label,
 * uid_map and the namespace links: HOST-PRIVILEGED, HOST-CAP-DANGEROUS,
 * HOST-SECCOMP-OFF, HOST-NNP-OFF, HOST-LSM-OFF, HOST-USERNS-ROOT and
 * HOST-NS-SHARED.  Each judges a container only (host_checks.h).
 *
 * Facts used: Status "Seccomp" 0/1/2 is disabled/strict/filter and
 * "NoNewPrivs" the prctl(PR_SET_NO_NEW_PRIVS) bit (proc(5)); Docker's
 * default capability set is 14 capabilities, none of those listed as
 * dangerous below (moby oci/caps/defaults.go); --privileged grants the
 * whole bounding set, disables seccomp and AppArmor and mounts /sys
 * read-write (docker run reference, "Runtime privilege").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"
#include "../core/obs_fields.h"

/* Beyond Docker's defaults, each is a known escape or host-control path. */
static const char *const dangerous[] = {
	"cap_sys_admin", "cap_sys_module", "cap_sys_ptrace", "cap_sys_rawio",
	"cap_dac_read_search", "cap_net_admin", "cap_bpf", "cap_perfmon",
	"cap_sys_boot", "cap_mac_admin", "cap_mac_override", "cap_syslog",
	"cap_sys_time", NULL
};

static const char *const refs_caps[] = {
	"capabilities(7)",
	"Docker Engine security: Linux kernel capabilities "
	    "(https://docs.docker.com/engine/security/#linux-kernel-"
	    "capabilities)",
	"Kubernetes Pod Security Standards, baseline: capabilities",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_seccomp[] = {
	"proc(5): /proc/pid/status Seccomp, NoNewPrivs",
	"Kubernetes Pod Security Standards, restricted: seccompProfile, "
	    "allowPrivilegeEscalation",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_lsm[] = {
	"Docker Engine: AppArmor security profiles (docker-default)",
	"Kubernetes Pod Security Standards, baseline: AppArmor, SELinux",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_ns[] = {
	"user_namespaces(7), namespaces(7)",
	"Kubernetes Pod Security Standards, baseline: host namespaces",
	"include/linux/proc_ns.h: PROC_*_INIT_INO (initial namespaces)",
	FA_CMAX_ESCALATION,
	NULL
};

#define STATUS	"/proc/self/status"
#define ENV	", and the tenancy evidence (see HOST-TENANCY)"
#define NO_STATUS							\
	" Not tested when /proc/self/status was not read or lacks the " \
	"lines needed (an old kernel); an error when they are malformed."


/* Gate on container, then read the credentials; 1 when a result was
 * added, 0 to go on (env to be freed), <0 on error. */
static int
head(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_host_env *env, struct fa_host_creds *cr,
    unsigned need)
{
	static const char *const names[] = { "Uid", "CapEff", "CapBnd",
	    "Seccomp", "NoNewPrivs" };
	char missing[64] = "";
	size_t i;
	int r;

	if ((r = fa_host_container_gate(c, ctx, out, env)) != 0)
		return r;
	fa_host_env_free(env);
	if ((r = fa_host_creds(ctx->snap, cr)) == 0 &&
	    (cr->have & need) == need)
		return 0;
	if (r == 0) {
		for (i = 0; i < 5; i++)
			if ((need & ~cr->have) & (1u << i))
				snprintf(missing + strlen(missing),
				    sizeof(missing) - strlen(missing), "%s%s",
				    missing[0] != '\0' ? ", " : "", names[i]);
		r = fa_results_add(out, c, FA_ST_NOT_TESTED,
		    "/proc/self/status", NULL, NULL, "/proc/self/status has no "
		    "%s line (an old kernel, or an incomplete copy)", missing);
	} else {
		r = fa_results_add(out, c, r == FA_ERR_NOTFOUND ?
		    FA_ST_NOT_TESTED : FA_ST_ERROR, "/proc/self/status", NULL,
		    NULL, "%s", r == FA_ERR_NOTFOUND ? (cr->obs != NULL ?
		    fa_obs_reason(cr->obs) : "/proc/self/status was not read") :
		    "/proc/self/status holds malformed credentials");
	}
	return r < 0 ? r : 1;
}

/* Evidence: the decoded effective set and the seccomp mode. */
static json_t *
creds_evidence(const struct fa_host_creds *cr, int with_seccomp)
{
	char *names = fa_caps_names(cr->cap_eff);
	json_t *ev = json_array();

	if (names == NULL || ev == NULL || fa_evidence_add(ev, fa_evidence(
	    cr->obs, "cap_eff", json_sprintf("0x%016llx (%s)",
	    (unsigned long long)cr->cap_eff, names[0] != '\0' ? names :
	    "none"))) != 0 || (with_seccomp && fa_evidence_add(ev, fa_evidence(
	    cr->obs, "seccomp", json_integer(cr->seccomp))) != 0)) {
		json_decref(ev);
		ev = NULL;
	}
	free(names);
	return ev;
}

#define CAP_LAST_CAP_FILE	"/proc/sys/kernel/cap_last_cap"

/*
 * The capabilities the usual container escapes use (mount, modules, raw
 * I/O, other processes, host file handles, device nodes, the network
 * stack): a bounding set without one of them is not the privileged mode,
 * however few others it lacks.
 */
static uint64_t
escape_caps(void)
{
	static const char *const names[] = { "cap_sys_admin",
	    "cap_sys_module", "cap_sys_rawio", "cap_sys_ptrace",
	    "cap_dac_read_search", "cap_dac_override", "cap_mknod",
	    "cap_net_admin", NULL };
	uint64_t m = 0;
	unsigned bit;
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (fa_cap_from_name(names[i], &bit) == 0)
			m |= UINT64_C(1) << bit;
	return m;
}

/*
 * Whether the effective set holds every capability of the kernel: bits 0
 * to /proc/sys/kernel/cap_last_cap (capabilities(7); a kernel numbers its
 * capabilities without gaps, include/uapi/linux/capability.h).  A fixed
 * count is wrong both ways: RHEL 7's 3.10 has 37, so a privileged
 * container there holds 37, while on 5.9 and later 40 of 41 is a set with
 * one dropped.  *all: 1 yes, 0 no, -1 cannot tell; *st: the status to
 * give when it cannot; note: how it was decided.  The cap_last_cap read,
 * or why none was, goes into ev.  Returns 0 or FA_ERR_NOMEM.
 */
static int
all_caps(const struct fa_snapshot *s, const struct fa_host_creds *cr,
    json_t *ev, int *all, enum fa_status *st, char *note, size_t len)
{
	const struct fa_obs *o;
	uint64_t eff = cr->cap_eff, full;
	unsigned top, known = fa_caps_last_known();
	long long last;
	char *names;
	int r;

	*st = FA_ST_NOT_TESTED;
	r = fa_host_sysctl(s, CAP_LAST_CAP_FILE, 0, 63, &o, &last);
	if (fa_evidence_add(ev, fa_evidence(r == 0 ? o : NULL,
	    "cap_last_cap", r == 0 ? json_integer(last) : json_sprintf(
	    "not read: %s", o == NULL ? "no observation" : o->state !=
	    FA_OBS_COMPLETE ? fa_obs_reason(o) : "out of range 0-63"))) != 0)
		return FA_ERR_NOMEM;
	if (r == 0) {
		full = fa_caps_full((unsigned)last);
		if ((eff | cr->cap_bnd) & ~full) {
			snprintf(note, len, "CapEff or CapBnd holds a "
			    "capability above cap_last_cap %lld: they were not "
			    "read from one kernel", last);
			*all = -1;
			return 0;
		}
		if ((eff & full) == full) {
			snprintf(note, len, "every capability of the kernel "
			    "(%u, 0 to cap_last_cap %lld) is effective",
			    fa_caps_count(full), last);
			*all = 1;
			return 0;
		}
		/*
		 * A runtime's privileged mode gives what it has: on a host
		 * whose own root lacks a capability (this project's VMs lack
		 * CAP_SYS_RESOURCE), a privileged runc bundle holds 40 of
		 * 41, and a runtime built before 5.9 knows neither
		 * CAP_PERFMON, CAP_BPF nor CAP_CHECKPOINT_RESTORE.  A set
		 * that holds its whole bounding set, which lacks at most
		 * three of the kernel's and none of those that escapes use
		 * (escape_caps()), is that mode; a runtime's default set
		 * drops 27 or more.
		 */
		if ((eff & cr->cap_bnd) == cr->cap_bnd &&
		    fa_caps_count(full & ~cr->cap_bnd) <= 3 &&
		    (full & ~cr->cap_bnd & escape_caps()) == 0) {
			if ((names = fa_caps_names(full & ~cr->cap_bnd)) ==
			    NULL)
				return FA_ERR_NOMEM;
			snprintf(note, len, "every capability of the bounding "
			    "set is effective, and it lacks only %s of the "
			    "kernel's %u (what the host itself did not give)",
			    names, fa_caps_count(full));
			free(names);
			*all = 1;
			return 0;
		}
		if ((names = fa_caps_names(full & ~eff)) == NULL)
			return FA_ERR_NOMEM;
		snprintf(note, len, "the effective set lacks %u of the "
		    "kernel's %u capabilities%s%s", fa_caps_count(full & ~eff),
		    fa_caps_count(full), fa_caps_count(full & ~eff) <= 3 ?
		    ": " : "", fa_caps_count(full & ~eff) <= 3 ? names : "");
		free(names);
		*all = 0;
		return 0;
	}
	/*
	 * cap_last_cap unread (before Linux 3.2, or an incomplete copy):
	 * a gap below the highest effective capability still proves a set
	 * that is not whole, and 0 to the highest capability any kernel has
	 * (FA_CAP_LAST_KNOWN, or newer headers) is taken as whole, saying so.
	 */
	if (r == FA_ERR_INPUT || (o != NULL && o->state == FA_OBS_ERROR))
		*st = FA_ST_ERROR;	/* our decoder or the data failed */
	if (eff != 0 && (eff & (eff + 1)) != 0 &&
	    (eff & cr->cap_bnd) == cr->cap_bnd) {
		/* Gaps in a whole bounding set: the privileged mode on a
		 * host whose root lacks them, or a set with some dropped. */
		uint64_t top_bit = UINT64_C(1) << (63 - __builtin_clzll(eff));
		uint64_t gaps = ((top_bit - 1) | top_bit) & ~cr->cap_bnd;

		if (fa_caps_count(gaps) <= 3 && (gaps & escape_caps()) == 0) {
			snprintf(note, len, "the effective set is the whole "
			    "bounding set but for %u capabilit%s below its "
			    "highest, and %s was not read: the privileged mode "
			    "of a host whose root lacks them, or a set with "
			    "them dropped", fa_caps_count(gaps),
			    fa_caps_count(gaps) == 1 ? "y" : "ies",
			    CAP_LAST_CAP_FILE);
			*all = -1;
			return 0;
		}
	}
	if (eff == 0 || (eff & (eff + 1)) != 0) {
		snprintf(note, len, eff == 0 ? "no capability is effective" :
		    "the effective set has gaps: not every capability of any "
		    "kernel");
		*all = 0;
		return 0;
	}
	top = fa_caps_count(eff) - 1;
	if (top >= known) {
		snprintf(note, len, "capabilities 0 to %u are effective (%s "
		    "not read: taken as every capability of the kernel, as no "
		    "Linux release known to this build defines one above %u)",
		    top, CAP_LAST_CAP_FILE, known);
		*all = 1;
		return 0;
	}
	snprintf(note, len, "capabilities 0 to %u are effective, but %s was "
	    "not read: that is every capability of a kernel whose last is %u "
	    "(36 for RHEL 7's 3.10, 37 for 3.16 to 5.7, 39 for 5.8), or a "
	    "larger set with the highest dropped", top, CAP_LAST_CAP_FILE,
	    top);
	*all = -1;
	return 0;
}

static int
eval_privileged(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_host_env env;
	struct fa_host_creds cr;
	const json_t *sys;
	enum fa_status st;
	char note[400];
	json_t *ev;
	int r, all, sys_rw = -1, ro;

	if ((r = head(c, ctx, out, &env, &cr, FA_CRED_EFF | FA_CRED_BND |
	    FA_CRED_SECCOMP)) != 0)
		return r < 0 ? r : 0;
	if ((ev = creds_evidence(&cr, 1)) == NULL)
		return FA_ERR_NOMEM;
	/* A table with skipped lines cannot say which mount holds /sys. */
	sys = fa_host_mounts_unexamined(ctx->snap) == 0 ?
	    fa_host_mount_for(ctx->snap, "/sys") : NULL;
	if (sys != NULL && fa_json_get_bool(sys, "read_only", &ro) == 0) {
		sys_rw = !ro;
		if (fa_evidence_add(ev, fa_evidence(fa_snapshot_find(ctx->snap,
		    FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo"),
		    "/sys read_only", json_boolean(ro))) != 0) {
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
	}
	if (all_caps(ctx->snap, &cr, ev, &all, &st, note, sizeof(note)) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (all == 1 && cr.seccomp == 0 && sys_rw != 0)
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
		    "%s, seccomp is off%s: a privileged container", note,
		    sys_rw == 1 ? " and /sys is mounted read-write" :
		    " (the /sys mount was not seen)");
	else if (all == 0 || cr.seccomp != 0 || sys_rw == 0)
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "not privileged: %s", all == 0 ? note : cr.seccomp != 0 ?
		    "a seccomp filter is active" : "/sys is read-only");
	else
		r = fa_results_add(out, c, st, "host", NULL, ev, "seccomp is "
		    "off and /sys is not read-only, but whether every "
		    "capability is effective cannot be told: %s", note);
	return r < 0 ? r : 0;
}

static int
eval_cap_dangerous(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_host_env env;
	struct fa_host_creds cr;
	uint64_t bad = 0;
	unsigned bit;
	char *names;
	json_t *ev;
	size_t i;
	int r;

	if ((r = head(c, ctx, out, &env, &cr, FA_CRED_EFF)) != 0)
		return r < 0 ? r : 0;
	for (i = 0; dangerous[i] != NULL; i++)
		if (fa_cap_from_name(dangerous[i], &bit) == 0 && bit < 64 &&
		    (cr.cap_eff >> bit & 1))
			bad |= 1ull << bit;
	if ((ev = creds_evidence(&cr, 0)) == NULL)
		return FA_ERR_NOMEM;
	if (bad == 0)
		return fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "no dangerous capability is effective (%u effective)",
		    fa_caps_count(cr.cap_eff)) < 0 ? FA_ERR_NOMEM : 0;
	if ((names = fa_caps_names(bad)) == NULL) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
	    "dangerous effective capabilities: %s", names);
	free(names);
	return r < 0 ? r : 0;
}

static int
eval_seccomp(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_host_env env;
	struct fa_host_creds cr;
	long long filters = -1;
	json_t *ev;
	int r;

	if ((r = head(c, ctx, out, &env, &cr, FA_CRED_SECCOMP)) != 0)
		return r < 0 ? r : 0;
	(void)fa_obs_int(cr.obs, FA_F(HOST_STATUS, seccomp_filters), 0, 1 << 20,
	    &filters);
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(
	    cr.obs, "seccomp", json_integer(cr.seccomp))) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (cr.seccomp == 0)
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
		    "seccomp is disabled (Seccomp: 0): every system call "
		    "reaches the shared kernel");
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "seccomp %s mode%s", cr.seccomp == 1 ? "strict" : "filter",
		    filters > 0 ? " with filters installed" : "");
	return r < 0 ? r : 0;
}

static int
eval_nnp(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_host_env env;
	struct fa_host_creds cr;
	json_t *ev;
	int r;

	if ((r = head(c, ctx, out, &env, &cr, FA_CRED_NNP)) != 0)
		return r < 0 ? r : 0;
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(
	    cr.obs, "no_new_privs", json_integer(cr.nnp))) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	r = fa_results_add(out, c, cr.nnp ? FA_ST_PASS : FA_ST_FAIL, "host",
	    NULL, ev, cr.nnp ? "no_new_privs is set" : "no_new_privs is off: "
	    "set-user-ID and file-capability binaries can raise privileges");
	return r < 0 ? r : 0;
}

/*
 * Whether label's type is one that means "not confined": 1 yes, 0 no, -1
 * when label is not user:role:type[:level].
 */
static int
selinux_unconfined(const char *label)
{
	static const char *const types[] = { "unconfined_t", "spc_t",
	    "kernel_t", "initrc_t", "unconfined_service_t", NULL };
	const char *p = label;
	size_t i, n;

	for (i = 0; i < 2; i++)		/* user:role:type:level */
		if ((p = strchr(p, ':')) == NULL)
			return -1;	/* not an error: not a label */
		else
			p++;
	n = strcspn(p, ":");
	for (i = 0; types[i] != NULL; i++)
		if (strlen(types[i]) == n && strncmp(p, types[i], n) == 0)
			return 1;
	return 0;
}

/* /proc/self/attr/current unreadable with EINVAL, no AppArmor label. */
static int
no_label(const struct fa_obs *o)
{
	const json_t *unread = fa_obs_obj(o, FA_F(HOST_LSM, unread));
	const char *cur = fa_json_get_str(unread, "current");

	return cur != NULL && strstr(cur, "invalid argument") != NULL &&
	    fa_obs_str(o, FA_F(HOST_LSM, apparmor_current)) == NULL &&
	    fa_obs_str(o, FA_F(HOST_LSM, current)) == NULL;
}

static int
eval_lsm(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	const char *label, *enf, *list, *aa;
	enum fa_status st;
	const char *why;
	char msg[256];
	json_t *ev;
	int r;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	if ((o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_LSM,
	    "/proc/self/attr")) == NULL)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL,
		    NULL, "the LSM label was not read") < 0 ? FA_ERR_NOMEM : 0;
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(o,
	    "data", json_deep_copy(fa_obs_data(o)))) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	label = fa_obs_str(o, FA_F(HOST_LSM, apparmor_current));
	if (label == NULL)
		label = fa_obs_str(o, FA_F(HOST_LSM, current));
	enf = fa_obs_str(o, FA_F(HOST_LSM, selinux_enforce));
	list = fa_obs_str(o, FA_F(HOST_LSM, lsm_list));
	aa = fa_obs_str(o, FA_F(HOST_LSM, apparmor_enabled));
	st = FA_ST_NOT_TESTED;
	why = msg;
	if (label != NULL && strcmp(label, "unconfined") == 0) {
		st = FA_ST_FAIL;
		why = "the process is unconfined (AppArmor label "
		    "'unconfined')";
	} else if (label != NULL && strstr(label, " (complain)") != NULL) {
		st = FA_ST_FAIL;
		snprintf(msg, sizeof(msg), "AppArmor profile '%s' only "
		    "complains, it does not enforce", label);
	} else if (label != NULL && strstr(label, " (enforce)") != NULL) {
		st = FA_ST_PASS;
		snprintf(msg, sizeof(msg), "AppArmor profile '%s'", label);
	} else if (label != NULL && selinux_unconfined(label) == 1) {
		st = FA_ST_FAIL;
		snprintf(msg, sizeof(msg), "SELinux domain of '%s' is "
		    "unconfined", label);
	} else if (label != NULL && selinux_unconfined(label) == 0) {
		st = enf == NULL ? FA_ST_NOT_TESTED : strcmp(enf, "1") == 0 ?
		    FA_ST_PASS : FA_ST_FAIL;
		snprintf(msg, sizeof(msg), "SELinux label '%s', %s", label,
		    enf == NULL ? "enforcement mode unreadable" :
		    strcmp(enf, "1") == 0 ? "enforcing" : "permissive");
	} else if (label != NULL) {
		snprintf(msg, sizeof(msg), "label '%s' is not one this check "
		    "knows", label);
	} else if (list != NULL && strstr(list, "apparmor") == NULL &&
	    strstr(list, "selinux") == NULL && strstr(list, "smack") == NULL &&
	    strstr(list, "tomoyo") == NULL) {
		st = FA_ST_FAIL;
		snprintf(msg, sizeof(msg), "no mandatory access control LSM "
		    "is active (active LSMs: %s)", list);
	} else if (list == NULL && aa != NULL && strcmp(aa, "N") == 0 &&
	    enf == NULL) {
		st = FA_ST_FAIL;
		why = "AppArmor is disabled and SELinux is absent";
	} else if (enf == NULL && no_label(o) && (list == NULL ||
	    strstr(list, "tomoyo") == NULL)) {
		/*
		 * Reading /proc/PID/attr/current fails with EINVAL when no
		 * security module serves it (security_getprocattr(),
		 * security/security.c): AppArmor, SELinux and Smack all do
		 * when active, in any process, confined or not.
		 */
		st = FA_ST_FAIL;
		why = "no mandatory access control LSM is active: reading "
		    "/proc/self/attr/current fails with EINVAL, which the "
		    "kernel returns when no security module (AppArmor, "
		    "SELinux, Smack) serves it";
	} else {
		why = "the process's LSM label could not be read";
	}
	r = fa_results_add(out, c, st, "host", NULL, ev, "%s", why);
	return r < 0 ? r : 0;
}

static int
eval_userns(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	const json_t *map, *e;
	long long outside = -1;
	json_t *ev;
	size_t i;
	int r;

	if ((r = head(c, ctx, out, &env, &cr, FA_CRED_UID)) != 0)
		return r < 0 ? r : 0;
	if (cr.euid != 0)
		return fa_results_add(out, c, FA_ST_PASS, "host", NULL,
		    json_pack("[o]", fa_evidence(cr.obs, "uid", json_deep_copy(
		    fa_obs_arr(cr.obs, FA_F(HOST_STATUS, uid))))),
		    "the process is "
		    "not root (effective uid %lld)", cr.euid) < 0 ?
		    FA_ERR_NOMEM : 0;
	o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_USERNS,
	    "/proc/self/uid_map");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, o != NULL ? fa_status_for_obs(o) :
		    FA_ST_NOT_TESTED, "host", NULL, NULL, "the process is root "
		    "but its uid_map was not read%s%s", o != NULL ? ": " : "",
		    o != NULL ? fa_obs_reason(o) : "") < 0 ? FA_ERR_NOMEM : 0;
	map = fa_obs_arr(o, FA_F(HOST_USERNS, map));
	json_array_foreach(map, i, e)
		if (json_integer_value(json_array_get(e, 0)) == 0)
			outside = json_integer_value(json_array_get(e, 1));
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(o,
	    "map", json_deep_copy(map))) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (outside == 0)
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
		    "root in the container is root on the host (uid 0 maps "
		    "to host uid 0: no user namespace)");
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "root in the container maps to host uid %lld (user "
		    "namespace)", outside);
	return r < 0 ? r : 0;
}

/* Interfaces that exist only in a host's network namespace. */
static int
host_iface(const char *n)
{
	static const char *const pfx[] = { "docker0", "cni0", "cali",
	    "flannel", "veth", "virbr", "kube-ipvs", "vxlan.calico",
	    "cilium_", "weave", NULL };
	size_t i;

	for (i = 0; pfx[i] != NULL; i++)
		if (strncmp(n, pfx[i], strlen(pfx[i])) == 0)
			return 1;
	return 0;
}

/* Append name to a ", "-separated list in buf. */
static void
list_add(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n > 0 ? ", " : "", name);
}

/*
 * Whether our network namespace is the host's when its inode number
 * proves nothing (before 6.18): 1 yes, 0 no, -1 cannot tell, with how it
 * was told in how; -2 when the evidence could not be added (out of
 * memory: the caller, which alone sees -2, reports FA_ERR_NOMEM).  PID
 * 1's link, when we share the host's PIDs and may read it, compares
 * directly; else interfaces that only a host's namespace holds: bridges
 * and veths of a container network, or a NIC that is not an SR-IOV VF (a
 * VF may have been moved into a pod).
 */
static int
net_is_host(const json_t *net, int pid_initial, const struct fa_obs *t,
    json_t *ev, char *how, size_t len)
{
	const json_t *ifs, *phys, *v, *p1 = json_object_get(net, "pid1");
	size_t i;

	if (pid_initial == 1 && json_is_integer(p1) &&
	    json_is_integer(json_object_get(net, "inode"))) {
		int same = json_integer_value(p1) ==
		    json_integer_value(json_object_get(net, "inode"));

		snprintf(how, len, "the network namespace is %s PID 1's, the "
		    "host's init", same ? "the same as" : "not");
		return same;
	}
	if (t == NULL || t->state != FA_OBS_COMPLETE)
		return -1;	/* not an error: cannot tell */
	/* A NIC not told PF from VF leaves it open. */
	if (fa_json_get_str(fa_obs_obj(t, FA_F(HOST_TENANCY, unread)),
	    "net_ifaces_physical") != NULL) {
		snprintf(how, len, "%s", fa_json_get_str(fa_obs_obj(t,
		    FA_F(HOST_TENANCY, unread)), "net_ifaces_physical"));
		return -1;	/* not an error: cannot tell */
	}
	ifs = fa_obs_arr(t, FA_F(HOST_TENANCY, net_ifaces));
	json_array_foreach(ifs, i, v)
		if (json_is_string(v) && host_iface(json_string_value(v))) {
			snprintf(how, len, "interface %s exists only in a "
			    "host's network namespace", json_string_value(v));
			return fa_evidence_add(ev, fa_evidence(t, "net_ifaces",
			    json_deep_copy(ifs))) != 0 ? -2 : 1;
		}
	phys = fa_obs_arr(t, FA_F(HOST_TENANCY, net_ifaces_physical));
	if (json_array_size(phys) > 0) {
		snprintf(how, len, "NIC %s (not an SR-IOV VF) is visible, "
		    "which only the host's network namespace holds",
		    json_string_value(json_array_get(phys, 0)));
		return fa_evidence_add(ev, fa_evidence(t,
		    "net_ifaces_physical", json_deep_copy(phys))) != 0 ? -2 : 1;
	}
	if (!json_is_array(ifs))
		return -1;	/* not an error: cannot tell */
	snprintf(how, len, "no host-only interface and no NIC other than an "
	    "SR-IOV VF is visible");
	return 0;
}

static int
eval_ns_shared(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	static const struct fa_fld_OBJ *const types[] = {
		FA_F(HOST_NS, pid), FA_F(HOST_NS, ipc), FA_F(HOST_NS, uts),
		FA_F(HOST_NS, cgroup), FA_F(HOST_NS, net), FA_F(HOST_NS, mnt),
		NULL
	};
	const struct fa_obs *o, *t;
	struct fa_host_env env;
	const json_t *v, *d;
	const char *ns;
	char shared[96] = "", own[96] = "", unknown[96] = "", how[200] = "";
	char unread[96] = "";
	json_t *ev;
	size_t i;
	int r, pid_initial = -1, net;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_NS, "/proc/self/ns");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL,
		    NULL, "the namespace links were not read%s%s", o != NULL ?
		    ": " : "", o != NULL ? fa_obs_reason(o) : "") < 0 ?
		    FA_ERR_NOMEM : 0;
	if ((ev = json_array()) == NULL)
		return FA_ERR_NOMEM;
	t = fa_snapshot_find(ctx->snap, FA_KIND_HOST_TENANCY, "/");
	for (i = 0; types[i] != NULL; i++) {
		ns = fa_fld_name(types[i]);
		d = fa_obs_obj(o, types[i]);
		v = json_object_get(d, "initial");
		if (strcmp(ns, "pid") == 0 && json_is_boolean(v))
			pid_initial = json_is_true(v);
		if (!json_is_boolean(v) && strcmp(ns, "net") == 0 &&
		    json_is_object(d)) {
			/* A number that proves nothing: other tells. */
			if ((net = net_is_host(d, pid_initial, t, ev, how,
			    sizeof(how))) == -2)
				goto nomem;
			if (net >= 0)
				v = json_boolean(net);	/* a singleton */
		}
		if (!json_is_boolean(v)) {
			/* An older kernel's mnt says nothing: not counted;
			 * a link that exists but could not be read is. */
			if (json_object_get(d, "unreadable") != NULL)
				list_add(unread, sizeof(unread), ns);
			else if (strcmp(ns, "mnt") != 0 ||
			    !json_is_object(d))
				list_add(unknown, sizeof(unknown), ns);
			continue;
		}
		list_add(json_is_true(v) ? shared : own, sizeof(shared),
		    ns);
		if (json_is_true(v) && fa_evidence_add(ev, fa_evidence(o,
		    ns, json_deep_copy(d))) != 0)
			goto nomem;
	}
	if (shared[0] != '\0')
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
		    "the container shares the host's %s namespace%s%s%s%s",
		    shared, strchr(shared, ',') != NULL ? "s" : "", how[0] ?
		    " (" : "", how, how[0] ? ")" : "");
	else if (own[0] == '\0')
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, ev,
		    "no namespace identity could be read");
	else if (unread[0] != '\0')
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, ev,
		    "the %s namespaces are the container's own, but the %s "
		    "link%s could not be read", own, unread, strchr(unread,
		    ',') != NULL ? "s" : "");
	else if (strstr(unknown, "net") != NULL) {
		/* The network namespace was not told: no pass. */
		const char *why = t == NULL ? "no " FA_KIND_HOST_TENANCY
		    " observation" : t->state != FA_OBS_COMPLETE ?
		    fa_obs_reason(t) : fa_json_get_str(fa_obs_obj(t,
		    FA_F(HOST_TENANCY, unread)), "net_ifaces");

		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, ev,
		    "the %s namespaces are the container's own, but whether "
		    "the network namespace is the host's could not be told "
		    "(%s)", own, why != NULL ? why : "its inode proves nothing "
		    "on this kernel and no other tell was read");
	} else if (fa_evidence_add(ev, fa_evidence(o, "namespaces",
	    json_deep_copy(fa_obs_data(o)))) != 0)
		goto nomem;
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "the %s namespaces are the container's own%s%s%s%s%s",
		    own, unknown[0] ? " (not read: " : "", unknown,
		    unknown[0] ? ")" : "", how[0] ? "; " : "", how);
	return r < 0 ? r : 0;
nomem:
	json_decref(ev);
	return FA_ERR_NOMEM;
}

const struct fa_check fa_chk_host_privileged = {
	.id = "HOST-PRIVILEGED",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_CRITICAL,
	.title = "The container is privileged",
	.rationale = "A privileged container holds every capability, runs "
	    "without seccomp or an LSM profile and sees the host's devices: it "
	    "can mount the host disk or load kernel modules, so the container "
	    "boundary is gone.",
	.remediation = "Run tenant containers unprivileged (no --privileged, "
	    "securityContext.privileged false) and grant devices individually "
	    "(CDI, device plugins).",
	.msa_clause = "Provider shall not run Customer containers in "
	    "privileged mode, and shall enforce this by admission policy on "
	    "every node that runs Customer workloads.",
	.refs = refs_caps,
	.sends = FA_HOST_SENDS(STATUS " (CapEff, CapBnd, Seccomp), "
	    CAP_LAST_CAP_FILE ", /proc/self/mountinfo" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when every capability of the "
	    "running kernel is effective (0 to its "
	    "/proc/sys/kernel/cap_last_cap: 37 capabilities on RHEL 7's 3.10, "
	    "41 on 5.9 and later), seccomp is off and /sys is not known to be "
	    "mounted read-only. Passes when one of the kernel's capabilities "
	    "is not effective, seccomp is on or /sys is read-only. Without "
	    "cap_last_cap, capabilities 0 to 40 (CAP_CHECKPOINT_RESTORE, the "
	    "highest Linux defines) count as every one, a set with a gap as "
	    "not, and a smaller unbroken set is not tested." NO_STATUS,
	.eval = eval_privileged,
};

const struct fa_check fa_chk_host_cap_dangerous = {
	.id = "HOST-CAP-DANGEROUS",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "The container holds dangerous capabilities",
	.rationale = "Capabilities such as CAP_SYS_ADMIN, CAP_SYS_MODULE, "
	    "CAP_SYS_PTRACE or CAP_DAC_READ_SEARCH are the usual first step of "
	    "container escapes (mounts, kernel modules, host file handles, "
	    "other processes).",
	.remediation = "Drop every capability beyond the runtime's default "
	    "set; grant narrower ones only where a workload needs them, and "
	    "document each.",
	.msa_clause = "Provider shall run Customer containers with no Linux "
	    "capability beyond the container runtime's default set unless "
	    "Customer requests it in writing.",
	.refs = refs_caps,
	.sends = FA_HOST_SENDS(STATUS " (CapEff)" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when any of CAP_SYS_ADMIN, "
	    "CAP_SYS_MODULE, CAP_SYS_PTRACE, CAP_SYS_RAWIO, "
	    "CAP_DAC_READ_SEARCH, CAP_NET_ADMIN, CAP_BPF, CAP_PERFMON, "
	    "CAP_SYS_BOOT, CAP_MAC_ADMIN, CAP_MAC_OVERRIDE, CAP_SYSLOG or "
	    "CAP_SYS_TIME is effective. Passes when none is." NO_STATUS,
	.eval = eval_cap_dangerous,
};

const struct fa_check fa_chk_host_seccomp_off = {
	.id = "HOST-SECCOMP-OFF",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Seccomp is disabled in the container",
	.rationale = "Without a seccomp filter every system call, including "
	    "rarely used and historically exploitable ones, reaches the kernel "
	    "the container shares with the host.",
	.remediation = "Apply the runtime's default seccomp profile (Docker "
	    "default, Kubernetes seccompProfile RuntimeDefault) or a stricter "
	    "one.",
	.msa_clause = "Provider shall run Customer containers under a seccomp "
	    "filter at least as restrictive as the container runtime's default "
	    "profile.",
	.refs = refs_seccomp,
	.sends = FA_HOST_SENDS(STATUS " (Seccomp)" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when Seccomp is 0 (disabled). "
	    "Passes in strict or filter mode." NO_STATUS,
	.eval = eval_seccomp,
};

const struct fa_check fa_chk_host_lsm_off = {
	.id = "HOST-LSM-OFF",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "The container is not confined by an LSM (AppArmor or "
	    "SELinux)",
	.rationale = "AppArmor and SELinux profiles block known escape paths "
	    "(writes to /proc and /sys, mounts) even when another layer fails.",
	.remediation = "Run containers under an enforcing AppArmor profile "
	    "(docker-default or stricter) or an SELinux container domain "
	    "(container_t) with SELinux enforcing.",
	.msa_clause = "Provider shall confine Customer containers with an "
	    "enforcing mandatory access control profile (AppArmor or SELinux) "
	    "on every node that runs Customer workloads.",
	.refs = refs_lsm,
	.sends = FA_HOST_SENDS("/proc/self/attr/current, "
	    "/proc/self/attr/apparmor/current, "
	    "/sys/module/apparmor/parameters/enabled, /sys/fs/selinux/enforce, "
	    "/sys/kernel/security/lsm" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when the process is unconfined "
	    "(AppArmor label unconfined, or an unconfined SELinux domain such "
	    "as unconfined_t or spc_t), when its AppArmor profile only "
	    "complains, when SELinux is permissive, or when no mandatory "
	    "access control LSM is active (none listed in "
	    "/sys/kernel/security/lsm, or /proc/self/attr/current unreadable "
	    "with EINVAL, which the kernel returns when no module serves it). "
	    "Passes under an enforcing AppArmor profile, or a confined SELinux "
	    "domain with SELinux enforcing. Not tested when the label was not "
	    "read or is not one the check knows.",
	.eval = eval_lsm,
};

const struct fa_check fa_chk_host_nnp_off = {
	.id = "HOST-NNP-OFF",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_MEDIUM,
	.title = "no_new_privs is not set in the container",
	.rationale = "Without no_new_privs a process can gain privileges "
	    "through set-user-ID or file-capability binaries inside the image.",
	.remediation = "Set no_new_privs (Docker --security-opt "
	    "no-new-privileges, Kubernetes allowPrivilegeEscalation: false).",
	.msa_clause = "Provider shall start Customer containers with "
	    "no_new_privs set (allowPrivilegeEscalation false) unless Customer "
	    "requests otherwise in writing.",
	.refs = refs_seccomp,
	.sends = FA_HOST_SENDS(STATUS " (NoNewPrivs)" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when NoNewPrivs is 0. Passes "
	    "when it is 1." NO_STATUS,
	.eval = eval_nnp,
};

const struct fa_check fa_chk_host_userns_root = {
	.id = "HOST-USERNS-ROOT",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Root in the container is root on the host",
	.rationale = "Without a user namespace, uid 0 in the container is uid "
	    "0 on the host: any file or kernel interface that leaks through is "
	    "writable as the host's root.",
	.remediation = "Run containers as a non-root user, or in a user "
	    "namespace that maps container root to an unprivileged host uid "
	    "(Kubernetes hostUsers: false, Docker userns-remap).",
	.msa_clause = "Provider shall run Customer containers either as a "
	    "non-root user or in a user namespace in which container root is "
	    "not host root.",
	.refs = refs_ns,
	.sends = FA_HOST_SENDS(STATUS " (Uid), /proc/self/uid_map" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when the process is root and "
	    "uid 0 maps to host uid 0 (no user namespace). Passes when the "
	    "process is not root, or its root maps to another host uid. Not "
	    "tested when it is root and its uid_map was not read." NO_STATUS,
	.eval = eval_userns,
};

const struct fa_check fa_chk_host_ns_shared = {
	.id = "HOST-NS-SHARED",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "The container shares host namespaces",
	.rationale = "A container in the host's PID, IPC, UTS, cgroup, network "
	    "or mount namespace sees and can signal or talk to host processes "
	    "and services (hostPID, hostIPC, hostNetwork).",
	.remediation = "Give each container its own PID, IPC, UTS, cgroup, "
	    "network and mount namespaces (no hostPID/hostIPC/hostNetwork).",
	.msa_clause = "Provider shall not place Customer containers in the "
	    "host's PID, IPC, UTS, cgroup, network or mount namespace.",
	.refs = refs_ns,
	.sends = FA_HOST_SENDS("the namespace links /proc/self/ns/* and "
	    "/proc/1/ns/* (by readlink, without entering them), "
	    "/proc/sys/kernel/osrelease and the interfaces of /sys/class/net "
	    "and where their links lead" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when the pid, ipc, uts, "
	    "cgroup, net or mnt namespace is the host's initial one: the "
	    "kernel gives those fixed inode numbers (net and mnt since Linux "
	    "6.18). On older kernels the network namespace is the host's when "
	    "it is PID 1's (read when the PIDs are the host's), or when an "
	    "interface only a host holds is visible: a container network's "
	    "bridges and veths (docker0, cni0, veth*, cali* and the like) or a "
	    "NIC that is not an SR-IOV VF. Passes when every namespace told is "
	    "the container's own. Not tested when no namespace identity could "
	    "be read, or when none is shared but the network namespace could "
	    "not be told.",
	.eval = eval_ns_shared,
};
