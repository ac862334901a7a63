/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The machines of the HOST-NVIDIA-CTK-CONFIG effective-mode tests, shared
 * by two binaries that cannot link each other's layer:
 *
 *  ftest_host_ctk_mode  builds each machine as a scratch sysroot (its
 *                       config.toml, dpkg status, Tegra files, hook binary,
 *                       CDI specs), runs the collectors, and asserts that
 *                       they record exactly the observations below;
 *  test_host_ctk_mode   feeds those same observations to the check and
 *                       asserts the verdict.
 *
 * So each verdict is the one for the real files, end to end.  The config
 * lines follow the toolkit's documented file (nvidia-ctk config default;
 * api/config/v1 in NVIDIA/nvidia-container-toolkit), the status stanzas
 * deb-control(5) and the toolkit's packaging/debian/control.  The verdicts
 * were written from the toolkit's sources before the check was:
 *
 *  - mode defaults to "auto" (api/config/v1/config.go GetDefault, and
 *    internal/config in 1.10-1.17);
 *  - "auto" resolves per container (internal/info/auto.go): "cdi" when the
 *    request names only CDI devices (nvidia.com/gpu=0), "csv" on Tegra,
 *    otherwise "legacy" from 1.10.0 to 1.17.x and "jit-cdi" in
 *    nvidia-container-runtime from 1.18.0-rc.1 (CHANGELOG "Default to
 *    jit-cdi mode in the nvidia runtime"); nvidia-container-runtime-hook,
 *    when a container engine calls it directly (docker --gpus without the
 *    nvidia runtime), resolves "auto" to legacy in every version
 *    (cmd/nvidia-container-runtime-hook: WithDefaultMode(legacy) since
 *    1.18, ResolveAutoMode before);
 *  - CDI specs on disk do not enter the resolution: they serve only the
 *    requests that name CDI devices;
 *  - nvidia-container-runtime-hook.skip-mode-detection = true makes the
 *    hook inject in legacy mode whatever the mode (1.13.0 CHANGELOG).
 *
 * old: the verdict of the code before the effective mode was judged (the
 * literal string "legacy" only), for the record of which tests fail on it.
 */
#ifndef FA_CTK_MODE_CASES_H
#define FA_CTK_MODE_CASES_H

#include <stddef.h>
#include <string.h>

#include <jansson.h>

#define CTK_ETC_CONFIG	"/etc/nvidia-container-runtime/config.toml"
#define CTK_OP_CONFIG	"/usr/local/nvidia/toolkit/.config/" \
			"nvidia-container-runtime/config.toml"
#define CTK_ELOOP	"too many levels of symbolic links"

/* The top of every config: settings that are not weak, so that the mode
 * alone decides (nvidia-ctk config default, with the envvar flag off). */
#define CTK_TOP								\
	"#accept-nvidia-visible-devices-as-volume-mounts = false\n"	\
	"accept-nvidia-visible-devices-envvar-when-unprivileged = false\n" \
	"disable-require = false\n"					\
	"supported-driver-capabilities = "				\
	"\"compat32,compute,display,graphics,ngx,utility,video\"\n"	\
	"\n"								\
	"[nvidia-container-cli]\n"					\
	"environment = []\n"						\
	"ldconfig = \"@/sbin/ldconfig\"\n"				\
	"load-kmods = true\n"						\
	"#no-cgroups = false\n"						\
	"\n"
#define CTK_TOP_VALUES							\
	"\"accept-nvidia-visible-devices-envvar-when-unprivileged\": false, " \
	"\"disable-require\": false, "					\
	"\"supported-driver-capabilities\": "				\
	"\"compat32,compute,display,graphics,ngx,utility,video\", "	\
	"\"nvidia-container-cli.environment\": [], "			\
	"\"nvidia-container-cli.ldconfig\": \"@/sbin/ldconfig\", "	\
	"\"nvidia-container-cli.load-kmods\": true"
/* [nvidia-container-runtime] with the given mode line ("" for none). */
#define CTK_RUNTIME(modeline)						\
	"[nvidia-container-runtime]\n"					\
	"#debug = \"/var/log/nvidia-container-runtime.log\"\n"		\
	"log-level = \"info\"\n"					\
	modeline							\
	"runtimes = [\"docker-runc\", \"runc\", \"crun\"]\n"		\
	"\n"								\
	"[nvidia-container-runtime.modes.cdi]\n"			\
	"annotation-prefixes = [\"cdi.k8s.io/\"]\n"			\
	"default-kind = \"nvidia.com/gpu\"\n"				\
	"spec-dirs = [\"/etc/cdi\", \"/var/run/cdi\"]\n"		\
	"\n"								\
	"[nvidia-container-runtime.modes.csv]\n"			\
	"mount-spec-path = "						\
	"\"/etc/nvidia-container-runtime/host-files-for-container.d\"\n" \
	"\n"								\
	"[nvidia-container-runtime-hook]\n"				\
	"path = \"nvidia-container-runtime-hook\"\n"
#define CTK_RUNTIME_VALUES						\
	"\"nvidia-container-runtime.log-level\": \"info\", "		\
	"\"nvidia-container-runtime.runtimes\": "			\
	"[\"docker-runc\", \"runc\", \"crun\"], "			\
	"\"nvidia-container-runtime.modes.cdi.annotation-prefixes\": "	\
	"[\"cdi.k8s.io/\"], "						\
	"\"nvidia-container-runtime.modes.cdi.default-kind\": "		\
	"\"nvidia.com/gpu\", "						\
	"\"nvidia-container-runtime.modes.cdi.spec-dirs\": "		\
	"[\"/etc/cdi\", \"/var/run/cdi\"], "				\
	"\"nvidia-container-runtime.modes.csv.mount-spec-path\": "	\
	"\"/etc/nvidia-container-runtime/host-files-for-container.d\", " \
	"\"nvidia-container-runtime-hook.path\": "			\
	"\"nvidia-container-runtime-hook\""
#define CTK_SKIP_FALSE	"skip-mode-detection = false\n"
#define CTK_SKIP_FALSE_VALUES						\
	", \"nvidia-container-runtime-hook.skip-mode-detection\": false"

/* One dpkg stanza's facts: package, Debian version, upstream version. */
struct ctk_pkg {
	const char	*package;
	const char	*version;
	const char	*upstream;
};

/*
 * The Tegra tells: none; /etc/nv_tegra_release (L4T); soc0 family "Tegra"
 * (the kernel's drivers/soc/tegra/fuse/fuse-tegra.c); the release file a
 * symlink loop (unreadable); an Arm SMCCC SoC ID family "jep106:036b"
 * (drivers/firmware/smccc/soc_id.c), which is no Tegra tell.
 */
enum { CTK_TEGRA_NONE, CTK_TEGRA_RELEASE, CTK_TEGRA_SOC_FAMILY,
	CTK_TEGRA_LOOP, CTK_SOC_OTHER };
enum { CTK_CDI_NONE, CTK_CDI_ETC, CTK_CDI_LOOP };

struct ctk_case {
	const char	*name;
	const char	*config;	/* its path */
	const char	*toml;		/* the file */
	const char	*values;	/* what the reader makes of it (JSON) */
	int		 dpkg;		/* 1: /var/lib/dpkg/status exists */
	struct ctk_pkg	 pkgs[3];	/* the toolkit's installed packages */
	int		 tegra;		/* CTK_TEGRA_* */
	int		 hook;		/* 1: /usr/bin/nvidia-container-runtime-hook */
	int		 cdi;		/* CTK_CDI_* */
	const char	*want;		/* "fail", "pass", "not_tested" */
	const char	*needle;	/* in the reason */
	const char	*old;		/* the old code's verdict */
};

#define PKG_BASE(v, u)	{ "nvidia-container-toolkit-base", v, u }
#define PKG_TK(v, u)	{ "nvidia-container-toolkit", v, u }
#define MODE(m)		"mode = \"" m "\"\n"
#define MODE_V(m)	", \"nvidia-container-runtime.mode\": \"" m "\""
#define VALUES(rest)	"{" CTK_TOP_VALUES ", " CTK_RUNTIME_VALUES rest "}"

static const struct ctk_case ctk_cases[] = {
	/* The case: 1.17 with "auto" and no CDI spec is legacy. */
	{ "auto on 1.17.3, no CDI spec", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")) CTK_SKIP_FALSE,
	    VALUES(MODE_V("auto") CTK_SKIP_FALSE_VALUES), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "fail",
	    "mode auto -> legacy: toolkit 1.17.3", "pass" },
	/* The key absent: "auto" is the default. */
	{ "no mode key on 1.17.8", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(""), VALUES(""), 1,
	    { PKG_BASE("1.17.8-1", "1.17.8"), PKG_TK("1.17.8-1", "1.17.8") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "fail",
	    "mode auto (the default: no mode key) -> legacy", "pass" },
	/* A CDI spec changes nothing for requests that name no CDI device. */
	{ "auto on 1.17.3 with a CDI spec", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_ETC, "fail",
	    "only containers that request devices by CDI name", "pass" },
	/* An unreadable CDI directory is recorded, and decides nothing. */
	{ "auto on 1.17.9, /etc/cdi unreadable", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.17.9-1", "1.17.9"), PKG_TK("1.17.9-1", "1.17.9") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_LOOP, "fail",
	    "/etc/cdi unreadable", "pass" },
	/* Only the base package (the documented CDI-only install): no hook. */
	{ "auto on 1.18.0, base package only", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.18.0-1", "1.18.0") },
	    CTK_TEGRA_NONE, 0, CTK_CDI_NONE, "pass",
	    "mode auto -> jit-cdi: toolkit 1.18.0", "pass" },
	/* The first release candidate that defaults to jit-cdi. */
	{ "auto on 1.18.0~rc.1, base package only", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.18.0~rc.1-1", "1.18.0-rc.1") },
	    CTK_TEGRA_NONE, 0, CTK_CDI_NONE, "pass",
	    "-> jit-cdi", "pass" },
	/* 1.18 with the hook installed: legacy if an engine calls it. */
	{ "auto on 1.18.1 with the hook", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.18.1-1", "1.18.1"), PKG_TK("1.18.1-1", "1.18.1") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_ETC, "not_tested",
	    "resolves auto to legacy when a container engine calls it "
	    "directly", "pass" },
	/* Tegra: csv, or NVML's discrete GPU; a file scan cannot tell. */
	{ "auto on a Tegra system (nv_tegra_release), 1.17.3", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_RELEASE, 1, CTK_CDI_NONE, "not_tested",
	    "a Tegra system", "pass" },
	{ "auto on a Tegra system (soc0 family), 1.16.2", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.16.2-1", "1.16.2"), PKG_TK("1.16.2-1", "1.16.2") },
	    CTK_TEGRA_SOC_FAMILY, 1, CTK_CDI_NONE, "not_tested",
	    "/sys/devices/soc0/family", "pass" },
	/* A soc0 family that is not Tegra is no Tegra tell. */
	{ "auto, soc0 family not Tegra, 1.17.3", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_SOC_OTHER, 1, CTK_CDI_NONE, "fail",
	    "-> legacy", "pass" },
	/* A Tegra tell that cannot be read: not tested, naming it. */
	{ "auto, /etc/nv_tegra_release unreadable, 1.17.3", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_LOOP, 1, CTK_CDI_NONE, "not_tested",
	    "/etc/nv_tegra_release: " CTK_ELOOP, "pass" },
	/* No version: not tested, naming where it was looked for. */
	{ "auto, no dpkg database", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 0, { { NULL, NULL, NULL } },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "not_tested",
	    "toolkit version: /var/lib/dpkg/status: not found", "pass" },
	{ "auto, the toolkit not in dpkg", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1, { { NULL, NULL, NULL } },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "not_tested",
	    "no nvidia-container-toolkit-base or nvidia-container-toolkit "
	    "package", "pass" },
	/* The GPU Operator's copy is not the dpkg one. */
	{ "auto in the GPU Operator's config", CTK_OP_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("auto")),
	    VALUES(MODE_V("auto")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "not_tested",
	    "GPU Operator", "pass" },
	/* Explicit modes: the literal is the effective mode. */
	{ "cdi on 1.17.3 with the hook", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("cdi")) CTK_SKIP_FALSE,
	    VALUES(MODE_V("cdi") CTK_SKIP_FALSE_VALUES), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_ETC, "pass", "mode cdi", "pass" },
	{ "legacy on 1.18.1", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("legacy")),
	    VALUES(MODE_V("legacy")), 1,
	    { PKG_BASE("1.18.1-1", "1.18.1"), PKG_TK("1.18.1-1", "1.18.1") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "fail", "mode legacy", "fail" },
	/* The hook told to skip mode detection injects in legacy mode. */
	{ "cdi with skip-mode-detection, 1.17.3", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("cdi")) "skip-mode-detection = true\n",
	    VALUES(MODE_V("cdi") ", \"nvidia-container-runtime-hook."
	    "skip-mode-detection\": true"), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_ETC, "fail", "skip-mode-detection",
	    "pass" },
	/* jit-cdi before 1.18: an invalid mode, containers fail to start. */
	{ "jit-cdi on 1.17.3", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("jit-cdi")),
	    VALUES(MODE_V("jit-cdi")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "pass", "fail to start",
	    "pass" },
	/* Before 1.10 there was no mode key: always legacy. */
	{ "cdi on 1.9.0", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("cdi")),
	    VALUES(MODE_V("cdi")), 1,
	    { PKG_TK("1.9.0-1", "1.9.0") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "fail", "predates the mode key",
	    "pass" },
	/* A misspelt mode is an invalid mode: nothing is injected. */
	{ "\"Legacy\" on 1.17.3", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME(MODE("Legacy")),
	    VALUES(MODE_V("Legacy")), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "pass", "not a mode the toolkit",
	    "pass" },
	/* A mode that is not a string: not tested. */
	{ "mode = 1", CTK_ETC_CONFIG,
	    CTK_TOP CTK_RUNTIME("mode = 1\n"),
	    VALUES(", \"nvidia-container-runtime.mode\": 1"), 1,
	    { PKG_BASE("1.17.3-1", "1.17.3"), PKG_TK("1.17.3-1", "1.17.3") },
	    CTK_TEGRA_NONE, 1, CTK_CDI_NONE, "not_tested", "not a string",
	    "pass" },
};
#define CTK_NCASES	(sizeof(ctk_cases) / sizeof(ctk_cases[0]))

/* The probes the collector makes, in its order. */
static const char *const ctk_hook_paths[] = {
	"/usr/local/sbin/nvidia-container-runtime-hook",
	"/usr/local/bin/nvidia-container-runtime-hook",
	"/usr/sbin/nvidia-container-runtime-hook",
	"/usr/bin/nvidia-container-runtime-hook",
	"/sbin/nvidia-container-runtime-hook",
	"/bin/nvidia-container-runtime-hook",
	"/usr/local/nvidia/toolkit/nvidia-container-runtime-hook",
};

static inline size_t
ctk_npkgs(const struct ctk_case *c)
{
	size_t n = 0;

	while (n < 3 && c->pkgs[n].package != NULL)
		n++;
	return n;
}

/* host.ctk.config data for the case's config. */
static inline json_t *
ctk_case_config(const struct ctk_case *c)
{
	json_error_t e;
	json_t *v = json_loads(c->values, 0, &e);

	return v != NULL ? json_pack("{s:o, s:[]}", "values", v, "unparsed") :
	    NULL;
}

/* host.package "dpkg" data: the database read (NULL: not there, and the
 * observation is not_collected with CTK_DPKG_MISSING). */
#define CTK_DPKG_MISSING						\
	"/var/lib/dpkg/status: not found (not a dpkg-based system, or a " \
	"container image without the database)"
static inline json_t *
ctk_case_dpkg_db(const struct ctk_case *c)
{
	return c->dpkg ? json_pack("{s:s, s:I, s:I}", "source",
	    "/var/lib/dpkg/status", "packages", (json_int_t)ctk_npkgs(c),
	    "skipped", (json_int_t)0) : NULL;
}

/* host.package "dpkg:<name>" data. */
static inline json_t *
ctk_case_pkg(const struct ctk_pkg *p)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s}", "package", p->package,
	    "component", "nvidia-container-toolkit", "version", p->version,
	    "source", "/var/lib/dpkg/status", "upstream", p->upstream);
}

/* host.cdi data. */
static inline json_t *
ctk_case_cdi(const struct ctk_case *c)
{
	json_t *etc;

	if (c->cdi == CTK_CDI_ETC)
		etc = json_pack("{s:s, s:b, s:[{s:s, s:b, s:b}]}", "path",
		    "/etc/cdi", "listed", 1, "specs", "name", "nvidia.yaml",
		    "nvidia", 1, "cuda_compat_hook", 0);
	else
		etc = json_pack("{s:s, s:b, s:b, s:s}", "path", "/etc/cdi",
		    "listed", 0, "missing", c->cdi == CTK_CDI_NONE, "reason",
		    c->cdi == CTK_CDI_NONE ? "not found" : CTK_ELOOP);
	return json_pack("{s:[o, {s:s, s:b, s:b, s:s}]}", "dirs", etc,
	    "path", "/var/run/cdi", "listed", 0, "missing", 1, "reason",
	    "not found");
}

/* host.ctk.probe data. */
static inline json_t *
ctk_case_probes(const struct ctk_case *c)
{
	json_t *a = json_array(), *rel, *fam;
	size_t i;

	if (c->tegra == CTK_TEGRA_LOOP)
		rel = json_pack("{s:s, s:s, s:s}", "path",
		    "/etc/nv_tegra_release", "role", "tegra-release", "reason",
		    CTK_ELOOP);
	else
		rel = json_pack("{s:s, s:s, s:b}", "path",
		    "/etc/nv_tegra_release", "role", "tegra-release", "exists",
		    c->tegra == CTK_TEGRA_RELEASE);
	if (c->tegra == CTK_TEGRA_SOC_FAMILY || c->tegra == CTK_SOC_OTHER)
		fam = json_pack("{s:s, s:s, s:b, s:s}", "path",
		    "/sys/devices/soc0/family", "role", "soc-family", "exists", 1,
		    "text", c->tegra == CTK_SOC_OTHER ? "jep106:036b" :
		    "Tegra");
	else
		fam = json_pack("{s:s, s:s, s:b}", "path",
		    "/sys/devices/soc0/family", "role", "soc-family", "exists",
		    0);
	if (a == NULL || json_array_append_new(a, rel) != 0 ||
	    json_array_append_new(a, fam) != 0) {
		json_decref(a);
		return NULL;
	}
	for (i = 0; i < sizeof(ctk_hook_paths) / sizeof(ctk_hook_paths[0]);
	    i++)
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:b}",
		    "path", ctk_hook_paths[i], "role", "hook", "exists",
		    c->hook && strcmp(ctk_hook_paths[i],
		    "/usr/bin/nvidia-container-runtime-hook") == 0)) != 0) {
			json_decref(a);
			return NULL;
		}
	return json_pack("{s:o}", "probes", a);
}
#endif
