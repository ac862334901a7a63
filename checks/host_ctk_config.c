/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HOST-NVIDIA-CTK-CONFIG: NVIDIA Container Toolkit settings that weaken
 * isolation or re-open fixed CVEs.  On a host: config.toml (keys from the
 * toolkit's api/config/v1 and its [features] flags), with the mode judged
 * as the toolkit resolves it, not as written ("auto" is legacy before
 * 1.18.0: see resolve() below for the rules and their sources).  Inside a
 * container the file is not visible; legacy injection still leaves a
 * fingerprint: the library mounts a tmpfs over /proc/driver/nvidia to hide
 * other GPUs (libnvidia-container mount_procfs()).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../core/version.h"
#include "host_checks.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

static const char *const refs[] = {
	"NVIDIA Container Toolkit: configuration (config.toml) and "
	    "features; release notes 1.17.4 (allow-cuda-compat-libs-from-"
	    "container, CVE-2025-23359)",
	"NVIDIA security bulletin 5616 (CVE-2025-23359)",
	"NVIDIA Container Toolkit: GPU access via NVIDIA_VISIBLE_DEVICES and "
	    "accept-nvidia-visible-devices-envvar-when-unprivileged",
	"NVIDIA Container Toolkit source: internal/info/auto.go (how mode "
	    "auto resolves), CHANGELOG 1.18.0-rc.1 (jit-cdi default in the "
	    "runtime, legacy in the hook) "
	    "(https://github.com/NVIDIA/nvidia-container-toolkit)",
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
	/* The hook skips its "is the mode legacy?" test (1.13.0 CHANGELOG:
	 * "allows legacy and cdi mode ... to be used at the same time"). */
	{ "nvidia-container-runtime-hook.skip-mode-detection", 1,
	    "skip-mode-detection is on: nvidia-container-runtime-hook "
	    "injects in legacy mode whatever the mode, whenever it is called "
	    "(docker --gpus, a legacy runtime class)" },
	{ "nvidia-container-cli.ldconfig", 0,
	    "ldconfig is a container path (no leading '@')" },
};

#define LEGACY_PATH							\
	"legacy injection by libnvidia-container, the path of "	\
	"CVE-2024-0132, CVE-2024-0133 and CVE-2025-23359"

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
	return s[0] != '@';
}

/*
 * The effective mode.  The toolkit's mode key ([nvidia-container-runtime]
 * mode) names what nvidia-container-runtime does, but "auto", its default,
 * is resolved per container by the toolkit (NVIDIA/nvidia-container-
 * toolkit internal/info/auto.go; api/config/v1/config.go GetDefault for
 * the default, internal/config/runtime.go in 1.10-1.17):
 *
 *  - a request that names only CDI devices (NVIDIA_VISIBLE_DEVICES=
 *    nvidia.com/gpu=0) gets "cdi" (image.OnlyFullyQualifiedCDIDevices);
 *    any other request goes on: CDI specs on disk do not enter it;
 *  - the platform (go-nvlib pkg/nvlib/info/resolver.go ResolvePlatform):
 *    Tegra (its files and no NVML, or only integrated GPUs) gets "csv";
 *  - otherwise "legacy" from 1.10.0 (auto.go's first release) to 1.17.x,
 *    and "jit-cdi" in nvidia-container-runtime from 1.18.0-rc.1
 *    (NVIDIA/nvidia-container-toolkit pull 910, CHANGELOG "Default to
 *    jit-cdi mode in the nvidia runtime"); the same release has
 *    nvidia-container-runtime-hook resolve "auto" to legacy
 *    (cmd/nvidia-container-runtime-hook/hook_config.go, WithDefaultMode
 *    legacy), as ResolveAutoMode always did for it.  The hook runs when an
 *    engine calls it directly: Docker's --gpus without --runtime=nvidia.
 *    With an explicit "cdi" or "jit-cdi" it refuses such a call
 *    (assertModeIsLegacy) unless skip-mode-detection is set.
 *
 * Before 1.10.0 there was no mode key: the runtime always added the hook.
 * A mode the runtime does not know is an error at container creation
 * (internal/modifier/mode.go "invalid runtime mode"): nothing is injected.
 * Versions are those of nvidia-container-toolkit-base (the package of
 * nvidia-container-runtime since 1.11; packaging/debian/control), else of
 * nvidia-container-toolkit.
 */
#define MODE_KEY_SINCE	"1.10.0"
#define JIT_CDI_SINCE	"1.18.0-rc.1"
#define OPERATOR_DIR	"/usr/local/nvidia/toolkit/"

enum eff { EFF_SAFE, EFF_LEGACY, EFF_UNKNOWN };
enum tri { TRI_NO, TRI_YES, TRI_UNKNOWN };

struct mode_res {
	enum eff		 eff;
	const char		*literal;	/* as set, or "auto" */
	int			 defaulted;	/* the key is absent */
	const char		*runtime;	/* effective, for the evidence */
	char			 account[768];	/* the resolution, one line */
	const struct fa_obs	*ver_obs;	/* NULL: not used or unknown */
	const struct fa_obs	*probe_obs;
	const struct fa_obs	*cdi_obs;
	char			 version[FA_VERSION_MAX + 1];
	char			 ver_shown[256];
	char			 platform[256];
	char			 hook[256];
	char			 cdi[256];
};

/* The version of the toolkit that reads config (target), or 0 with why. */
static int
toolkit_version(const struct fa_snapshot *s, const char *target,
    struct mode_res *m)
{
	const struct fa_obs *o, *db = NULL, *base = NULL, *tk = NULL, *pick;
	const char *up;
	size_t it = 0;

	if (strncmp(target, OPERATOR_DIR, strlen(OPERATOR_DIR)) == 0) {
		snprintf(m->ver_shown, sizeof(m->ver_shown), "the GPU "
		    "Operator's toolkit under %.*s is not in the dpkg "
		    "database, and no file there states its version",
		    (int)strlen(OPERATOR_DIR) - 1, OPERATOR_DIR);
		return 0;
	}
	while ((o = fa_snapshot_next(s, FA_KIND_HOST_PACKAGE, &it)) != NULL) {
		if (strcmp(o->target, "dpkg") == 0)
			db = o;
		else if (strcmp(o->target,
		    "dpkg:nvidia-container-toolkit-base") == 0)
			base = o;
		else if (strcmp(o->target, "dpkg:nvidia-container-toolkit") ==
		    0)
			tk = o;
	}
	pick = base != NULL ? base : tk;
	if (pick != NULL && pick->state != FA_OBS_COMPLETE) {
		/* e.g. half-installed: files of no version dpkg vouches for */
		snprintf(m->ver_shown, sizeof(m->ver_shown), "%s",
		    fa_obs_reason(pick));
		return 0;
	}
	if (pick == NULL) {
		if (db == NULL || db->state != FA_OBS_COMPLETE)
			snprintf(m->ver_shown, sizeof(m->ver_shown), "%s",
			    db != NULL ? fa_obs_reason(db) : "the dpkg "
			    "database was not read");
		else
			snprintf(m->ver_shown, sizeof(m->ver_shown), "no "
			    "nvidia-container-toolkit-base or "
			    "nvidia-container-toolkit package in %s (a toolkit "
			    "installed otherwise has no version here)",
			    fa_obs_str(db, FA_F(HOST_PACKAGE, source)) != NULL ?
			    fa_obs_str(db, FA_F(HOST_PACKAGE, source)) :
			    "dpkg");
		return 0;
	}
	up = fa_obs_str(pick, FA_F(HOST_PACKAGE, upstream));
	if (up == NULL || fa_version_valid(FA_VER_UPSTREAM, up, NULL) != 0) {
		snprintf(m->ver_shown, sizeof(m->ver_shown), "%s %s has no "
		    "upstream version to compare", pick->target + 5,
		    fa_obs_str(pick, FA_F(HOST_PACKAGE, version)) != NULL ?
		    fa_obs_str(pick, FA_F(HOST_PACKAGE, version)) : "?");
		return 0;
	}
	m->ver_obs = pick;
	snprintf(m->version, sizeof(m->version), "%s", up);
	snprintf(m->ver_shown, sizeof(m->ver_shown), "%s %s (dpkg)",
	    pick->target + 5, fa_obs_str(pick, FA_F(HOST_PACKAGE, version)));
	return 1;
}

/* v < ref, for versions already validated. */
static int
older(const char *v, const char *ref)
{
	int cmp = 0;

	return fa_version_cmp(FA_VER_UPSTREAM, v, ref, &cmp, NULL) == 0 &&
	    cmp < 0;
}

/* The probes of one role: TRI_YES if one shows it, else NO or UNKNOWN;
 * what was seen goes to buf. */
static enum tri
probed(const struct fa_snapshot *s, const char *role, struct mode_res *m,
    char *buf, size_t len)
{
	const json_t *a, *p;
	const char *path, *text;
	size_t i, examined = 0, unread = 0;
	enum tri t = TRI_NO;

	buf[0] = '\0';
	if ((m->probe_obs = fa_snapshot_find(s, FA_KIND_HOST_CTK_PROBE,
	    "toolkit")) ==
	    NULL || m->probe_obs->state != FA_OBS_COMPLETE) {
		snprintf(buf, len, "%s was not probed (%s)", strcmp(role,
		    "hook") == 0 ? "nvidia-container-runtime-hook" :
		    "the Tegra platform", m->probe_obs != NULL ?
		    fa_obs_reason(m->probe_obs) : "no host.ctk.probe "
		    "observation: a snapshot of an older fabaudit");
		return TRI_UNKNOWN;
	}
	a = fa_obs_arr(m->probe_obs, FA_F(HOST_CTK_PROBE, probes));
	json_array_foreach(a, i, p) {
		const char *r = fa_json_get_str(p, "role");
		int tegra_role = r != NULL && (strcmp(r, "tegra-release") ==
		    0 || strcmp(r, "soc-family") == 0);

		if (r == NULL || (strcmp(role, "hook") == 0 ?
		    strcmp(r, "hook") != 0 : !tegra_role))
			continue;
		path = fa_json_get_str(p, "path");
		path = path != NULL ? path : "?";
		if (!json_is_boolean(json_object_get(p, "exists"))) {
			if (t != TRI_YES) {
				snprintf(buf + strlen(buf), len - strlen(buf),
				    "%s%s: %s", unread++ > 0 ? "; " : "", path,
				    fa_json_get_str(p, "reason") != NULL ?
				    fa_json_get_str(p, "reason") : "unread");
				t = TRI_UNKNOWN;
			}
			continue;
		}
		examined++;
		if (!json_is_true(json_object_get(p, "exists")))
			continue;
		text = fa_json_get_str(p, "text");
		/* go-nvlib: soc0 family starting with "tegra", any case. */
		if (strcmp(r, "soc-family") == 0 && (text == NULL ||
		    strncasecmp(text, "tegra", 5) != 0))
			continue;
		if (text != NULL)
			snprintf(buf, len, "%s says \"%s\"", path, text);
		else
			snprintf(buf, len, "%s", path);
		return TRI_YES;
	}
	if (t == TRI_NO)
		snprintf(buf, len, "none at the %zu paths examined", examined);
	return t;
}

/* The CDI specs, in one phrase, for the evidence. */
static void
cdi_summary(const struct fa_snapshot *s, struct mode_res *m)
{
	const json_t *dirs, *d;
	size_t i, n = 0;
	char names[160] = "", none[96] = "", bad[160] = "";
	char *b;

	m->cdi_obs = fa_snapshot_find(s, FA_KIND_HOST_CDI, "cdi");
	dirs = m->cdi_obs != NULL ? fa_obs_arr(m->cdi_obs, FA_F(HOST_CDI,
	    dirs)) :
	    NULL;
	if (dirs == NULL) {
		snprintf(m->cdi, sizeof(m->cdi), "CDI spec directories not "
		    "listed");
		return;
	}
	json_array_foreach(dirs, i, d) {
		const char *p = fa_json_get_str(d, "path");
		size_t k, ns = json_array_size(json_object_get(d, "specs"));

		p = p != NULL ? p : "?";
		if (json_is_true(json_object_get(d, "listed")) && ns > 0) {
			for (k = 0; k < ns; k++)
				snprintf(names + strlen(names), sizeof(names) -
				    strlen(names), "%s%s/%s", n++ > 0 ? ", " :
				    "", p, fa_json_get_str(json_array_get(
				    json_object_get(d, "specs"), k), "name"));
			continue;
		}
		b = json_is_true(json_object_get(d, "listed")) ||
		    json_is_true(json_object_get(d, "missing")) ? none : bad;
		if (b == none)
			snprintf(none + strlen(none), sizeof(none) -
			    strlen(none), "%s%s", none[0] != '\0' ? " or " :
			    "", p);
		else
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
			    "%s%s unreadable (%s)", bad[0] != '\0' ? ", " : "",
			    p, fa_json_get_str(d, "reason") != NULL ?
			    fa_json_get_str(d, "reason") : "?");
	}
	if (n > 0)
		snprintf(m->cdi, sizeof(m->cdi), "CDI spec%s %s", n > 1 ? "s" :
		    "", names);
	else if (none[0] != '\0')
		snprintf(m->cdi, sizeof(m->cdi), "no CDI spec in %s", none);
	else
		m->cdi[0] = '\0';
	if (bad[0] != '\0')
		snprintf(m->cdi + strlen(m->cdi), sizeof(m->cdi) -
		    strlen(m->cdi), "%s%s", m->cdi[0] != '\0' ? ", " : "", bad);
}

/* What the CDI specs change for "auto": only CDI-named requests. */
static const char *
cdi_note(const struct mode_res *m)
{
	return strncmp(m->cdi, "CDI spec", 8) == 0 ? " (the specs serve only "
	    "containers that request devices by CDI name, such as "
	    "nvidia.com/gpu=0: every other request is injected in legacy "
	    "mode)" : "";
}

static void
resolve(const struct fa_snapshot *s, const struct fa_obs *cfg,
    struct mode_res *m)
{
	const json_t *v = json_object_get(fa_obs_obj(cfg, FA_F(HOST_CTK_CONFIG,
	    values)),
	    "nvidia-container-runtime.mode");
	char dflt[48];
	int have_ver;
	enum tri tegra, hook;

	memset(m, 0, sizeof(*m));
	m->eff = EFF_UNKNOWN;
	m->runtime = "unknown";
	if (v != NULL && !json_is_string(v)) {
		m->literal = "?";
		snprintf(m->account, sizeof(m->account), "the mode is not a "
		    "string, and what the toolkit makes of it is not known");
		return;
	}
	m->defaulted = v == NULL;
	m->literal = v != NULL ? json_string_value(v) : "auto";
	snprintf(dflt, sizeof(dflt), "%s", m->defaulted ? " (the default: no "
	    "mode key)" : "");
	have_ver = toolkit_version(s, cfg->target, m);
	cdi_summary(s, m);
	if (have_ver && older(m->version, MODE_KEY_SINCE)) {
		m->eff = EFF_LEGACY;
		m->runtime = "legacy";
		snprintf(m->account, sizeof(m->account), "toolkit %s predates "
		    "the mode key (%s): mode %s is not read, and every GPU "
		    "container is injected in legacy mode", m->version,
		    MODE_KEY_SINCE, m->literal);
		return;
	}
	if (strcmp(m->literal, "legacy") == 0) {
		m->eff = EFF_LEGACY;
		m->runtime = "legacy";
		snprintf(m->account, sizeof(m->account), "mode legacy");
		return;
	}
	if (strcmp(m->literal, "cdi") == 0 || strcmp(m->literal, "csv") == 0 ||
	    strcmp(m->literal, "jit-cdi") == 0) {
		m->eff = EFF_SAFE;
		m->runtime = m->literal;
		if (strcmp(m->literal, "jit-cdi") == 0 && have_ver &&
		    older(m->version, JIT_CDI_SINCE))
			snprintf(m->account, sizeof(m->account), "mode jit-cdi "
			    "is not a mode of toolkit %s (it came in 1.18.0): "
			    "GPU containers fail to start, and none is injected "
			    "in legacy mode", m->version);
		else
			snprintf(m->account, sizeof(m->account), "mode %s: the "
			    "runtime does not inject in legacy mode, and the "
			    "hook refuses a direct call", m->literal);
		return;
	}
	if (strcmp(m->literal, "auto") != 0) {
		m->eff = EFF_SAFE;
		m->runtime = "invalid";
		snprintf(m->account, sizeof(m->account), "mode \"%s\" is not a "
		    "mode the toolkit knows (auto, legacy, csv, cdi, jit-cdi): "
		    "GPU containers fail to start, and none is injected in "
		    "legacy mode", m->literal);
		return;
	}
	if (!have_ver) {
		snprintf(m->account, sizeof(m->account), "mode auto%s resolves "
		    "by the toolkit's version, which is not known: toolkit "
		    "version: %s", dflt, m->ver_shown);
		return;
	}
	tegra = probed(s, "tegra", m, m->platform, sizeof(m->platform));
	if (older(m->version, JIT_CDI_SINCE)) {
		if (tegra == TRI_NO) {
			m->eff = EFF_LEGACY;
			m->runtime = "legacy";
			snprintf(m->account, sizeof(m->account), "mode auto%s "
			    "-> legacy: toolkit %s, not a Tegra system, %s%s",
			    dflt, m->version, m->cdi, cdi_note(m));
		} else if (tegra == TRI_YES) {
			m->runtime = "csv or legacy";
			snprintf(m->account, sizeof(m->account), "mode auto%s on "
			    "a Tegra system (%s), toolkit %s: csv when NVML is "
			    "absent or lists only integrated GPUs, else legacy; "
			    "NVML's GPU list is not read by a file scan", dflt,
			    m->platform, m->version);
		} else {
			snprintf(m->account, sizeof(m->account), "mode auto%s, "
			    "toolkit %s: legacy unless this is a Tegra system, "
			    "which could not be told: %s", dflt, m->version,
			    m->platform);
		}
		return;
	}
	m->runtime = tegra == TRI_NO ? "jit-cdi" : "jit-cdi or csv";
	hook = probed(s, "hook", m, m->hook, sizeof(m->hook));
	if (hook == TRI_NO) {
		m->eff = EFF_SAFE;
		snprintf(m->account, sizeof(m->account), "mode auto%s -> %s: "
		    "toolkit %s, and no nvidia-container-runtime-hook (%s)",
		    dflt, m->runtime, m->version, m->hook);
		return;
	}
	snprintf(m->account, sizeof(m->account), "mode auto%s -> %s in "
	    "nvidia-container-runtime (toolkit %s), while "
	    "nvidia-container-runtime-hook (%s) resolves auto to legacy when "
	    "a container engine calls it directly (docker --gpus without "
	    "--runtime=nvidia), which this check does not examine", dflt,
	    m->runtime, m->version, m->hook);
}

/* The resolution's evidence items. */
static int
mode_evidence(json_t *ev, const struct fa_obs *cfg, const struct mode_res *m)
{
	json_t *eff;

	if (fa_evidence_add(ev, fa_evidence(cfg,
	    "nvidia-container-runtime.mode", m->defaulted ?
	    json_string("absent (default auto)") : json_deep_copy(
	    json_object_get(fa_obs_obj(cfg, FA_F(HOST_CTK_CONFIG, values)),
	    "nvidia-container-runtime.mode")))) != 0)
		return FA_ERR_NOMEM;
	if (m->ver_shown[0] != '\0' && fa_evidence_add(ev, fa_evidence(
	    m->ver_obs, "toolkit_version", json_string(m->ver_shown))) != 0)
		return FA_ERR_NOMEM;
	if (m->platform[0] != '\0' && fa_evidence_add(ev, fa_evidence(
	    m->probe_obs, "tegra", json_string(m->platform))) != 0)
		return FA_ERR_NOMEM;
	if (m->hook[0] != '\0' && fa_evidence_add(ev, fa_evidence(
	    m->probe_obs, "nvidia-container-runtime-hook", json_string(
	    m->hook))) != 0)
		return FA_ERR_NOMEM;
	if (m->cdi[0] != '\0' && strcmp(m->literal, "auto") == 0 &&
	    fa_evidence_add(ev, fa_evidence(m->cdi_obs, "cdi_specs",
	    json_string(m->cdi))) != 0)
		return FA_ERR_NOMEM;
	eff = json_pack("{s:s, s:s, s:s}", "runtime", m->runtime, "verdict",
	    m->eff == EFF_LEGACY ? "legacy" : m->eff == EFF_SAFE ?
	    "not legacy" : "not determined", "resolution", m->account);
	return fa_evidence_add(ev, fa_evidence(NULL, "effective_mode", eff));
}

static int
eval_container(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    int sure, struct fa_results *out)
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
		    NULL, "%s, and no legacy-mode fingerprint was seen", sure ?
		    "the toolkit's config.toml is a host file, not visible in "
		    "a container" : "no config.toml is here, and whether this "
		    "is a container, which would not see the host's, could not "
		    "be told");
	return r < 0 ? r : 0;
}

/* One config file: its settings and its effective mode. */
static int
eval_config(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    const struct fa_obs *o, struct fa_results *out)
{
	const json_t *values = fa_obs_obj(o, FA_F(HOST_CTK_CONFIG, values));
	const json_t *unparsed = fa_obs_arr(o, FA_F(HOST_CTK_CONFIG, unparsed));
	struct mode_res m;
	char list[2048];
	json_t *ev;
	size_t i, bad = 0;
	int r, dflt;

	if ((ev = json_array()) == NULL)
		return FA_ERR_NOMEM;
	list[0] = '\0';
	resolve(ctx->snap, o, &m);
	if (m.eff == EFF_LEGACY) {
		bad++;
		snprintf(list, sizeof(list), "%s: %s", m.account, LEGACY_PATH);
	}
	if (mode_evidence(ev, o, &m) != 0)
		goto nomem;
	for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		if (!weak(values, i, &dflt))
			continue;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s%s", bad++ > 0 ? "; " : "", settings[i].why, dflt ?
		    " (the default, as the key is absent)" : "");
		if (fa_evidence_add(ev, fa_evidence(o, settings[i].key, dflt ?
		    json_string("absent (default true)") : json_deep_copy(
		    json_object_get(values, settings[i].key)))) != 0)
			goto nomem;
	}
	if (json_array_size(unparsed) > 0 && fa_evidence_add(ev, fa_evidence(o,
	    "unparsed", json_deep_copy(unparsed))) != 0)
		goto nomem;
	if (bad > 0)
		r = fa_results_add(out, c, FA_ST_FAIL, o->target, NULL, ev,
		    "%s%s%s", list, m.eff == EFF_UNKNOWN ? "; the effective "
		    "mode is not determined: " : "", m.eff == EFF_UNKNOWN ?
		    m.account : "");
	else if (json_array_size(unparsed) > 0 || m.eff == EFF_UNKNOWN)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target, NULL,
		    ev, "no weakening setting among the %zu keys read, but "
		    "%s%s%s", json_object_size(values),
		    json_array_size(unparsed) > 0 ? "some lines were not "
		    "understood (see evidence)" : "", json_array_size(
		    unparsed) > 0 && m.eff == EFF_UNKNOWN ? ", and " : "",
		    m.eff == EFF_UNKNOWN ? m.account : "");
	else
		r = fa_results_add(out, c, FA_ST_PASS, o->target, NULL, ev,
		    "no weakening setting among %zu keys; %s",
		    json_object_size(values), m.account);
	return r < 0 ? r : 0;
nomem:
	json_decref(ev);
	return FA_ERR_NOMEM;
}

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	size_t it = 0, seen = 0;
	int r, container;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	if ((r = fa_host_env(ctx->snap, &env)) != 0)
		return r;
	container = env.container;
	fa_host_env_free(&env);
	if (container == 1)
		return eval_container(c, ctx, 1, out);
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_CTK_CONFIG,
	    &it)) != NULL) {
		if (o->state != FA_OBS_COMPLETE)
			continue;
		seen++;
		if ((r = eval_config(c, ctx, o, out)) != 0)
			return r;
	}
	if (seen > 0)
		return 0;
	/* No config, and maybe a container: a config here would have been
	 * judged, its absence says nothing. */
	if (container != 0)
		return eval_container(c, ctx, 0, out);
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
	    "bypassing the scheduler on shared nodes.  The toolkit's default "
	    "mode, auto, is legacy injection on every release before 1.18.0.",
	.remediation =
	    "Set nvidia-container-runtime.mode = \"cdi\" (or \"jit-cdi\" "
	    "on 1.18.0 and later) explicitly, not auto, and leave "
	    "nvidia-container-runtime-hook.skip-mode-detection off; set "
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
	    "Operator's copy under /usr/local/nvidia/toolkit); for mode "
	    "auto, the toolkit's version from /var/lib/dpkg/status, the "
	    "Tegra tells /etc/nv_tegra_release and /sys/devices/soc0/family, "
	    "nvidia-container-runtime-hook in the directories of the default "
	    "PATH and /usr/local/nvidia/toolkit (stat only), and the CDI spec "
	    "directories /etc/cdi and /var/run/cdi; in a container "
	    "/proc/self/mountinfo, with the tenancy evidence (see "
	    "HOST-TENANCY)"),
	.outcomes =
	    "On a host, one result per config.toml, with the mode judged as "
	    "the toolkit resolves it: auto (also when the mode key is "
	    "absent) is legacy before toolkit 1.18.0 and jit-cdi from 1.18.0 "
	    "on, in nvidia-container-runtime; on a Tegra system it may be "
	    "csv. Fails when the effective mode is legacy (mode legacy; auto "
	    "before 1.18.0 on a system that is not Tegra, whatever CDI specs "
	    "exist, as they serve only requests that name CDI devices; any "
	    "mode on a toolkit before 1.10.0, which has no mode key), when "
	    "nvidia-container-runtime-hook.skip-mode-detection is on, when "
	    "config.toml accepts NVIDIA_VISIBLE_DEVICES from unprivileged "
	    "containers (also when that key is absent: true is its default), "
	    "names an ldconfig without a leading '@', turns on "
	    "allow-cuda-compat-libs-from-container or "
	    "allow-ldconfig-from-container, or sets no-cgroups. Not tested "
	    "when nothing weak was found but some lines were not understood "
	    "or the effective mode cannot be told: for auto, the toolkit's "
	    "version not in the dpkg database (or the GPU Operator's copy, "
	    "whose version no file states), a Tegra tell that could not be "
	    "read or a Tegra system (csv or legacy depends on NVML's GPU "
	    "list), or, from 1.18.0 on, nvidia-container-runtime-hook "
	    "installed, which resolves auto to legacy when a container engine "
	    "calls it directly (docker --gpus without the nvidia runtime); "
	    "the result names what was missing. Passes otherwise: cdi, csv "
	    "or jit-cdi set explicitly, auto from 1.18.0 on with no hook "
	    "installed, or a mode the toolkit does not know (containers then "
	    "fail to start). Not applicable when there is no config.toml on "
	    "a machine known not to be a container. In a container, where "
	    "the host's config.toml is not visible, and when no config.toml "
	    "is found and whether this is a container cannot be told: fails "
	    "when a tmpfs over /proc/driver/nvidia shows legacy-mode "
	    "injection, and is not tested otherwise.",
	.eval = eval,
};
