/*
 * HOST-NVIDIA-CTK-CONFIG: NVIDIA Container Toolkit settings that weaken
 * isolation or re-open fixed CVEs.  On a host: config.toml (keys from the
 * toolkit's api/config/v1 and its [features] flags).  Inside a container
 * the file is not visible; legacy injection still leaves a fingerprint: the
 * library mounts a tmpfs over /proc/driver/nvidia to hide other GPUs
 * (libnvidia-container mount_procfs()).
 */
#include <stdio.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"

static const char *const refs[] = {
	"NVIDIA Container Toolkit: configuration (config.toml) and "
	    "features; release notes 1.17.4 (allow-cuda-compat-libs-from-"
	    "container, CVE-2025-23359)",
	"NVIDIA security bulletin 5616 (CVE-2025-23359)",
	"NVIDIA Container Toolkit: GPU access via NVIDIA_VISIBLE_DEVICES and "
	    "accept-nvidia-visible-devices-envvar-when-unprivileged",
	FA_CMAX_ESCALATION,
	NULL
};

/* One weakening setting: key, the value that is bad, what it means. */
static const struct {
	const char	*key;
	int		 bad_true;	/* 1: true is bad; 0: a string test */
	const char	*why;
} settings[] = {
	{ "features.allow-cuda-compat-libs-from-container", 1,
	    "CUDA compat libraries are taken from the image: re-opens "
	    "CVE-2025-23359" },
	{ "features.allow-ldconfig-from-container", 1,
	    "ldconfig is taken from the container image" },
	{ "nvidia-container-cli.no-cgroups", 1,
	    "GPU device cgroup restrictions are off" },
	{ "accept-nvidia-visible-devices-envvar-when-unprivileged", 1,
	    "any unprivileged container may request any GPU with "
	    "NVIDIA_VISIBLE_DEVICES" },
	{ "nvidia-container-runtime.mode", 0,
	    "legacy injection (libnvidia-container hook), the path of "
	    "CVE-2024-0132, CVE-2024-0133 and CVE-2025-23359" },
	{ "nvidia-container-cli.ldconfig", 0,
	    "ldconfig is a container path (no leading '@')" },
};

/* 1 when the setting in values is the weak one. */
static int
weak(const json_t *values, size_t i, int *defaulted)
{
	const json_t *v = json_object_get(values, settings[i].key);
	const char *s;

	*defaulted = 0;
	if (settings[i].bad_true) {
		/* The envvar flag defaults to true when absent. */
		if (v == NULL && strcmp(settings[i].key, "accept-nvidia-"
		    "visible-devices-envvar-when-unprivileged") == 0) {
			*defaulted = 1;
			return 1;
		}
		return json_is_true(v);
	}
	if ((s = json_string_value(v)) == NULL)
		return 0;
	if (strcmp(settings[i].key, "nvidia-container-runtime.mode") == 0)
		return strcmp(s, "legacy") == 0;
	return s[0] != '@';
}

static int
eval_container(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const json_t *m = fa_host_mount_for(ctx->snap, "/proc/driver/nvidia");
	const char *mp = m != NULL ? fa_json_get_str(m, "mount_point") : NULL;
	const char *fs = m != NULL ? fa_json_get_str(m, "fstype") : NULL;
	int r;

	if (mp != NULL && fs != NULL && strcmp(mp, "/proc/driver/nvidia") ==
	    0 && strcmp(fs, "tmpfs") == 0)
		r = fa_results_add(out, c, FA_ST_FAIL, "/proc/driver/nvidia",
		    NULL, json_pack("[o]", fa_evidence(fa_snapshot_find(
		    ctx->snap, FA_KIND_HOST_MOUNTS, "/proc/self/mountinfo"),
		    "mount", json_deep_copy(m))), "the GPUs were injected in "
		    "legacy mode (tmpfs over /proc/driver/nvidia): the path of "
		    "CVE-2024-0132, CVE-2024-0133 and CVE-2025-23359");
	else
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL,
		    NULL, "the toolkit's config.toml is a host file, not "
		    "visible in a container, and no legacy-mode fingerprint "
		    "was seen");
	return r < 0 ? r : 0;
}

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	const json_t *values;
	char list[768];
	json_t *ev;
	size_t it = 0, i, seen = 0, bad;
	int r, in_container, dflt;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	if ((r = fa_host_env(ctx->snap, &env)) != 0)
		return r;
	in_container = env.container == 1;
	fa_host_env_free(&env);
	if (in_container)
		return eval_container(c, ctx, out);
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_CTK_CONFIG,
	    &it)) != NULL) {
		if (o->state != FA_OBS_COMPLETE)
			continue;
		seen++;
		values = json_object_get(o->data, "values");
		list[0] = '\0';
		bad = 0;
		if ((ev = json_array()) == NULL)
			return FA_ERR_NOMEM;
		for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
			if (!weak(values, i, &dflt))
				continue;
			bad++;
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), "%s%s%s", bad > 1 ? "; " : "",
			    settings[i].why, dflt ? " (the default, as the key "
			    "is absent)" : "");
			if (fa_evidence_add(ev, fa_evidence(o,
			    settings[i].key, dflt ? json_string("absent "
			    "(default true)") : json_deep_copy(
			    json_object_get(values, settings[i].key)))) != 0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
		}
		if (json_array_size(json_object_get(o->data, "unparsed")) > 0 &&
		    fa_evidence_add(ev, fa_evidence(o, "unparsed",
		    json_deep_copy(json_object_get(o->data, "unparsed")))) !=
		    0) {
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		if (bad > 0)
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, NULL,
			    ev, "%s", list);
		else if (json_array_size(json_object_get(o->data,
		    "unparsed")) > 0)
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    NULL, ev, "no weakening setting among the %zu keys "
			    "read, but some lines were not understood (see "
			    "evidence)", json_object_size(values));
		else
			r = fa_results_add(out, c, FA_ST_PASS, o->target, NULL,
			    ev, "no weakening setting among %zu keys",
			    json_object_size(values));
		if (r < 0)
			return r;
	}
	if (seen > 0)
		return 0;
	r = fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "host", NULL, NULL,
	    "no NVIDIA Container Toolkit config.toml on this system");
	return r < 0 ? r : 0;
}

const struct fa_check fa_chk_host_nvidia_ctk_config = {
	.id = "HOST-NVIDIA-CTK-CONFIG",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "NVIDIA Container Toolkit settings weaken GPU isolation",
	.rationale =
	    "Legacy injection mode and several opt-in flags re-open fixed "
	    "container-escape CVEs or let any container request any GPU, "
	    "bypassing the scheduler on shared nodes.",
	.remediation =
	    "Use CDI mode (nvidia-container-runtime.mode = \"cdi\"), set "
	    "accept-nvidia-visible-devices-envvar-when-unprivileged = false "
	    "with volume-mount device requests, keep ldconfig as "
	    "\"@/sbin/ldconfig\", and leave the allow-* [features] flags "
	    "and no-cgroups off.",
	.msa_clause =
	    "Provider shall configure the NVIDIA Container Toolkit on hosts "
	    "running Customer workloads in CDI mode, without legacy "
	    "injection, without feature flags that re-enable fixed "
	    "vulnerabilities, and so that no container can obtain a GPU not "
	    "allocated to it.",
	.refs = refs,
	.sends = FA_HOST_SENDS("the toolkit's config.toml "
	    "(/etc/nvidia-container-runtime/config.toml, or the GPU "
	    "Operator's copy under /usr/local/nvidia/toolkit), and in a "
	    "container /proc/self/mountinfo, with the tenancy evidence (see "
	    "HOST-TENANCY)"),
	.outcomes =
	    "On a host: fails when config.toml sets legacy mode, accepts "
	    "NVIDIA_VISIBLE_DEVICES from unprivileged containers (also when "
	    "that key is absent: true is its default), names an ldconfig "
	    "without a leading '@', turns on "
	    "allow-cuda-compat-libs-from-container or "
	    "allow-ldconfig-from-container, or sets no-cgroups; passes when "
	    "it sets none of these; not tested when some of its lines were "
	    "not understood and nothing weak was found; not applicable when "
	    "there is no config.toml. In a container, where config.toml is "
	    "not visible: fails when a tmpfs over /proc/driver/nvidia shows "
	    "legacy-mode injection, and is not tested otherwise.",
	.eval = eval,
};
