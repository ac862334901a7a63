/*
 * Shared reasoning of the host checks (see host_checks.h): what the
 * environment is, the audited process's credentials, which mount holds a
 * path, and whether a file is writable by that process.
 *
 * Container tells, strongest first: a runtime's marker file (/.dockerenv,
 * /run/.containerenv), a runtime's cgroup path in /proc/1/cgroup
 * ("/docker/<id>", "/kubepods/...", cri-containerd, crio, libpod, lxc),
 * and a PID namespace that is not the initial one (its inode is not
 * PROC_PID_INIT_INO, 0xEFFFFFFC; include/linux/proc_ns.h).  VM tells: the
 * CPUID "hypervisor" bit (/proc/cpuinfo flags) and DMI vendor strings.
 */
#include <stdio.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"

static const struct {
	const char	*pattern;	/* substring of a /proc/1/cgroup line */
	const char	*runtime;
} cgroup_tells[] = {
	{ "kubepods", "kubernetes" },
	{ "/docker/", "docker" },
	{ "docker-", "docker" },
	{ "cri-containerd", "containerd" },
	{ "crio-", "cri-o" },
	{ "libpod", "podman" },
	{ "/lxc/", "lxc" },
	{ "lxc.payload", "lxc" },
};

static const char *const vm_vendors[] = {
	"QEMU", "KVM", "VMware", "Xen", "Amazon EC2", "Google",
	"Microsoft Corporation", "innotek", "VirtualBox", "OpenStack",
	"Parallels", "Bochs", "Firecracker", "Cloud Hypervisor", NULL
};

static int
ev(json_t *a, const struct fa_obs *o, const char *field, json_t *v)
{
	return fa_evidence_add(a, fa_evidence(o, field, v));
}

static void
set_runtime(struct fa_host_env *env, const char *rt)
{
	if (env->runtime[0] == '\0')
		snprintf(env->runtime, sizeof(env->runtime), "%s", rt);
}

static int
container_tells(const struct fa_snapshot *s, struct fa_host_env *env)
{
	const struct fa_obs *o;
	const json_t *lines, *v, *pid;
	const char *role, *line;
	size_t it = 0, i, k;
	int seen = 0, exists;

	while ((o = fa_snapshot_next(s, FA_KIND_HOST_PATH, &it)) != NULL) {
		role = fa_json_get_str(o->data, "role");
		if (role == NULL || strncmp(role, "marker:", 7) != 0 ||
		    o->state != FA_OBS_COMPLETE ||
		    fa_json_get_bool(o->data, "exists", &exists) != 0)
			continue;
		seen = 1;
		if (!exists)
			continue;
		env->container = 1;
		set_runtime(env, role + 7);
		if (ev(env->evidence, o, "exists", json_true()) != 0)
			return FA_ERR_NOMEM;
	}
	o = fa_snapshot_find(s, FA_KIND_HOST_TENANCY, "/");
	lines = o != NULL ? json_object_get(o->data, "cgroup_1") : NULL;
	json_array_foreach(lines, i, v) {
		if ((line = json_string_value(v)) == NULL)
			continue;
		for (k = 0; k < sizeof(cgroup_tells) / sizeof(cgroup_tells[0]);
		    k++) {
			if (strstr(line, cgroup_tells[k].pattern) == NULL)
				continue;
			env->container = 1;
			set_runtime(env, cgroup_tells[k].runtime);
			if (ev(env->evidence, o, "cgroup_1",
			    json_string(line)) != 0)
				return FA_ERR_NOMEM;
			i = json_array_size(lines);	/* one line is enough */
			break;
		}
	}
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	pid = o != NULL ? json_object_get(o->data, "pid") : NULL;
	if (json_is_boolean(json_object_get(pid, "initial"))) {
		if (json_is_false(json_object_get(pid, "initial"))) {
			env->container = 1;
			if (ev(env->evidence, o, "pid.initial",
			    json_false()) != 0)
				return FA_ERR_NOMEM;
		} else if (env->container != 1 && seen) {
			/* Initial PID namespace and no marker: not a
			 * container (or one sharing the host's PIDs with no
			 * runtime tell, which no file can show). */
			env->container = 0;
			if (ev(env->evidence, o, "pid.initial",
			    json_true()) != 0)
				return FA_ERR_NOMEM;
		}
	}
	return 0;
}

static int
vm_tells(const struct fa_snapshot *s, struct fa_host_env *env)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_TENANCY, "/");
	const json_t *dmi, *hv;
	const char *vendor, *product, *hvt;
	size_t i;

	if (o == NULL)
		return 0;
	dmi = json_object_get(o->data, "dmi");
	vendor = fa_json_get_str(dmi, "sys_vendor");
	product = fa_json_get_str(dmi, "product_name");
	if (vendor != NULL || product != NULL)
		snprintf(env->platform, sizeof(env->platform), "%s%s%s",
		    vendor != NULL ? vendor : "", vendor != NULL &&
		    product != NULL ? " " : "", product != NULL ? product : "");
	for (i = 0; vm_vendors[i] != NULL && env->platform[0] != '\0'; i++)
		if (strstr(env->platform, vm_vendors[i]) != NULL) {
			env->vm = 1;
			if (ev(env->evidence, o, "dmi", json_string(
			    env->platform)) != 0)
				return FA_ERR_NOMEM;
			break;
		}
	if ((hvt = fa_json_get_str(o->data, "hypervisor_type")) != NULL) {
		env->vm = 1;
		if (ev(env->evidence, o, "hypervisor_type",
		    json_string(hvt)) != 0)
			return FA_ERR_NOMEM;
	}
	hv = json_object_get(o->data, "cpu_hypervisor");
	if (json_is_true(hv)) {
		env->vm = 1;
		if (ev(env->evidence, o, "cpu_hypervisor", json_true()) != 0)
			return FA_ERR_NOMEM;
	} else if (json_is_false(hv) && env->vm != 1) {
		env->vm = 0;
		if (ev(env->evidence, o, "cpu_hypervisor", json_false()) != 0)
			return FA_ERR_NOMEM;
	}
	return 0;
}

int
fa_host_env(const struct fa_snapshot *s, struct fa_host_env *env)
{
	int r;

	memset(env, 0, sizeof(*env));
	env->container = env->vm = -1;
	if ((env->evidence = json_array()) == NULL)
		return FA_ERR_NOMEM;
	if ((r = container_tells(s, env)) != 0 || (r = vm_tells(s, env)) != 0) {
		fa_host_env_free(env);
		return r;
	}
	return 0;
}

void
fa_host_env_free(struct fa_host_env *env)
{
	json_decref(env->evidence);
	env->evidence = NULL;
}

const char *
fa_host_env_name(const struct fa_host_env *env, char *buf, size_t len)
{
	const char *machine = env->vm == 1 ? "a VM" : env->vm == 0 ?
	    "bare metal" : "a machine of unknown kind";

	if (env->container == 1)
		snprintf(buf, len, "a %s%scontainer on %s", env->runtime,
		    env->runtime[0] != '\0' ? " " : "", machine);
	else if (env->container == 0)
		snprintf(buf, len, "%s%s%s", machine,
		    env->platform[0] != '\0' ? ", " : "", env->platform);
	else
		snprintf(buf, len, "an environment that could not be told "
		    "apart from a container (%s)", machine);
	return buf;
}

int
fa_host_creds(const struct fa_snapshot *s, struct fa_host_creds *c)
{
	const json_t *uid, *d;
	long long v;
	int r;

	memset(c, 0, sizeof(*c));
	if ((c->obs = fa_snapshot_find(s, FA_KIND_HOST_STATUS,
	    "/proc/self/status")) == NULL || c->obs->state != FA_OBS_COMPLETE)
		return FA_ERR_NOTFOUND;
	d = c->obs->data;
	if ((uid = json_object_get(d, "uid")) != NULL) {
		if (!json_is_array(uid) || json_array_size(uid) != 4 ||
		    !json_is_integer(json_array_get(uid, 1)) ||
		    (v = json_integer_value(json_array_get(uid, 1))) < 0 ||
		    v > 0xffffffffll)
			return FA_ERR_INPUT;
		c->euid = v;
		c->have |= FA_CRED_UID;
	}
	/* The effective gid and the supplementary groups, together. */
	uid = json_object_get(d, "gid");
	if (uid != NULL || json_object_get(d, "groups") != NULL) {
		if (!json_is_array(uid) || json_array_size(uid) != 4 ||
		    !json_is_integer(json_array_get(uid, 1)) ||
		    !json_is_array(json_object_get(d, "groups")))
			return FA_ERR_INPUT;
		c->egid = json_integer_value(json_array_get(uid, 1));
		c->groups = json_object_get(d, "groups");
		c->have |= FA_CRED_GROUPS;
	}
#define GET(call, bit)							\
	if ((r = (call)) == 0)						\
		c->have |= (bit);					\
	else if (r != FA_ERR_NOTFOUND)					\
		return FA_ERR_INPUT
	GET(fa_json_get_u64(d, "cap_eff", &c->cap_eff), FA_CRED_EFF);
	GET(fa_json_get_u64(d, "cap_bnd", &c->cap_bnd), FA_CRED_BND);
	GET(fa_json_get_int(d, "seccomp", 0, 2, &c->seccomp), FA_CRED_SECCOMP);
	GET(fa_json_get_int(d, "no_new_privs", 0, 1, &c->nnp), FA_CRED_NNP);
#undef GET
	return 0;
}

int
fa_host_container_gate(const struct fa_check *c,
    const struct fa_eval_ctx *ctx, struct fa_results *out,
    struct fa_host_env *env)
{
	char what[256];
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r;
	if ((r = fa_host_env(ctx->snap, env)) != 0)
		return r;
	if (env->container == 1)
		return 0;
	fa_host_env_name(env, what, sizeof(what));
	r = fa_results_add(out, c, env->container == 0 ?
	    FA_ST_NOT_APPLICABLE : FA_ST_NOT_TESTED, "host", NULL,
	    json_deep_copy(env->evidence), env->container == 0 ?
	    "not a container (%s): this check judges container isolation" :
	    "%s; no container evidence could be read", what);
	fa_host_env_free(env);
	return r < 0 ? r : 1;
}
