/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The *-VULN checks: component versions inside a catalogued vulnerable
 * range (HOST-NVIDIA-CTK-VULN, HOST-NVIDIA-DRIVER-VULN, HOST-RUNC-VULN,
 * HOST-CONTAINERD-VULN, HOST-DOCKER-VULN, HOST-KERNEL-VULN).
 *
 * The catalogue is the one embedded in the snapshot (host.cvedb), so an
 * offline re-evaluation uses what the scan used.  Versions come from
 * files, never from running a binary: dpkg status and the RPM database
 * for the toolkit, runc, containerd and Docker; /sys/module/nvidia/version
 * or /proc/driver/nvidia/version for the driver; osrelease and
 * /proc/version (the Debian package version, when present) for the
 * kernel.
 *
 * A distribution's build (a dpkg package whose Maintainer is Debian's or
 * Ubuntu's, an RPM whose Vendor is Red Hat's, Rocky's, Fedora's..., a
 * Debian or RPM distribution's kernel) may carry backported fixes its
 * upstream number does not show: it is judged by the catalogue's data
 * from that distribution for the host's release (/etc/os-release) and
 * source package, in Debian or rpm version order (DSA-5615-1 fixed
 * CVE-2024-21626 in runc 1.1.5+ds1-1+deb12u1, whose upstream 1.1.5 is
 * below 1.1.12); with no such data, an upstream match decides nothing
 * (not_tested).  A kernel line whose record names only the mainline fix
 * (mainline_only) holds a stable or vendor release only as not_tested.
 * Vendor packages (docker-ce, containerd.io, nvidia-container-toolkit) and
 * the driver's own version string are judged by their upstream version.
 * A driver on a branch the catalogue does not list is not_tested, never
 * pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/cvedb.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"
#include "../core/obs_fields.h"

/* cmax grades these against its minimum-version table. */
#define CMAX_MIN(label, id)						\
	FA_REF_CMAX_AUDIT(label " minimum version", id, FA_CMAX_VERSIONS_URL)

static const char *const refs_ctk[] = {
	"NVIDIA Container Toolkit security bulletins "
	    "(https://nvidia.custhelp.com/app/answers/detail/a_id/5582, "
	    "5616, 5659, 5850)",
	CMAX_MIN("NVIDIA Container Toolkit",
	    "security-nvidia-container-toolkit"),
	FA_CMAX_ESCALATION,
	NULL
};
static const char *const refs_drv[] = {
	"NVIDIA GPU display driver security bulletins "
	    "(https://www.nvidia.com/en-us/security/)",
	CMAX_MIN("NVIDIA driver", "security-nvidia-driver"),
	NULL
};
static const char *const refs_runc[] = {
	"runc security advisories "
	    "(https://github.com/opencontainers/runc/security/advisories)",
	CMAX_MIN("runc", "security-runc"),
	FA_CMAX_ESCALATION,
	NULL
};
static const char *const refs_ctrd[] = {
	"containerd security advisories "
	    "(https://github.com/containerd/containerd/security/advisories)",
	FA_CMAX_ESCALATION,
	NULL
};
static const char *const refs_docker[] = {
	"moby security advisories "
	    "(https://github.com/moby/moby/security/advisories)",
	CMAX_MIN("Docker Engine", "security-docker"),
	FA_CMAX_ESCALATION,
	NULL
};
static const char *const refs_buildkit[] = {
	"BuildKit security advisories "
	    "(https://github.com/moby/buildkit/security/advisories)",
	FA_CMAX_ESCALATION,
	NULL
};
static const char *const refs_kernel[] = {
	"Linux kernel CNA CVE records (https://git.kernel.org/pub/scm/linux/"
	    "security/vulns.git)",
	FA_CMAX_ESCALATION,
	NULL
};

/* Where each component's version is read from (fabric/host_*.h). */
#define FROM_DPKG(pkgs)	"/var/lib/dpkg/status or the RPM database in " \
	"/var/lib/rpm (" pkgs ")"
#define SRC_CTK		FROM_DPKG("packages nvidia-container-toolkit, "	\
	"nvidia-container-toolkit-base, libnvidia-container1, "	\
	"libnvidia-container-tools")
#define SRC_DRV		"/sys/module/nvidia/version, else "		\
	"/proc/driver/nvidia/version (the loaded kernel module)"
#define SRC_RUNC	FROM_DPKG("package runc")
#define SRC_CTRD	FROM_DPKG("packages containerd, containerd.io")
#define SRC_DOCKER	FROM_DPKG("packages docker.io, docker, docker-ce, " \
	"moby-engine")
#define SRC_KERNEL	"/proc/sys/kernel/osrelease and /proc/version"
#define SRC_BUILDKIT	"the Go build information of buildkitd "	\
	"(/usr/bin, /usr/local/bin) and the github.com/moby/buildkit "	\
	"module listed in dockerd's"
#define VULN_SENDS(src)							\
	FA_HOST_SENDS("the component's version from " src ", and the CVE " \
	"catalogue, a local file (--cve-db, or the installed "		\
	"host-cves.json) that the snapshot embeds")
#define VULN_OUTCOMES							\
	"One result per version found. A package the distribution built " \
	"(its dpkg Maintainer is Debian's or Ubuntu's, its RPM Vendor "	\
	"Red Hat's, Rocky's, Fedora's...; the distribution's kernel) is " \
	"judged by that distribution's data for the host's release "	\
	"(/etc/os-release) and its source package, with Debian or rpm "	\
	"version ordering: affected below the release's fix or while no " \
	"fix is " \
	"out; the upstream ranges only rule CVEs out, since backported " \
	"fixes do not show in the upstream number. Any other build (a "	\
	"vendor's package, the driver) is judged by its upstream version. " \
	"Fails when a catalogued CVE not ruled out by the configuration " \
	"read affects the version (the reason counts those on CISA's KEV " \
	"list). Passes when none does. Not tested when a distribution "	\
	"build lies in a CVE's upstream range and the catalogue has "	\
	"no data of that distribution for the release, when a kernel "	\
	"that may carry a stable backport lies below a fix its CVE "	\
	"record gives only for mainline, when no catalogue "		\
	"was loaded, when no version was found (in a container the host's " \
	"packages are not visible), or, for the driver, when its branch is " \
	"not in the catalogue. An error when the catalogue is "	\
	"invalid. Each CVE in the evidence says which rule decided it."


/* Debian's own builds (backports possible) versus vendor packages,
 * for a dpkg database whose stanzas name no Maintainer. */
static const char *const distro_packages[] = { "runc", "containerd",
	"docker.io", NULL };

struct candidate {
	const struct fa_obs *obs;
	char		 version[FA_VERSION_MAX + 1];	/* to match */
	char		 shown[160];	/* "runc 1.1.5+ds1-1+deb12u1 (dpkg)" */
	int		 version_only;
	/*
	 * A distribution's build: judged by that distribution's data for
	 * its release (the catalogue's "distro"), the upstream ranges
	 * deciding only where they rule the CVE out.
	 */
	int		 distro_built;
	char		 debver[FA_VERSION_MAX + 1];	/* package version */
	char		 os[41], release[41];	/* from host.os ("" unknown) */
	char		 srcpkg[101];		/* its source package */
	int		 no_upstream_out;	/* upstream ranges cannot rule
						   a CVE out (EL kernels) */
};

/*
 * The host's distribution and release (host.os), into cd: the release as
 * the distribution's own data names it, Debian's codename ("bookworm":
 * the tracker and Debian's OSV, mapped from "Debian:12"), Ubuntu's
 * VERSION_ID ("22.04": Ubuntu's OSV ecosystems "Ubuntu:22.04:LTS").
 */
static void
host_release(const struct fa_snapshot *s, struct candidate *cd)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_OS,
	    "os-release");
	const char *id, *cn;

	cd->os[0] = cd->release[0] = '\0';
	if (o == NULL || o->state != FA_OBS_COMPLETE ||
	    (id = fa_obs_str(o, FA_F(HOST_OS, id))) == NULL ||
	    (cn = fa_obs_str(o, strcmp(id, "ubuntu") == 0 ?
	    FA_F(HOST_OS, version_id) : FA_F(HOST_OS, codename))) == NULL ||
	    cn[0] == '\0' ||
	    strlen(id) >= sizeof(cd->os) || strlen(cn) >= sizeof(cd->release))
		return;
	memcpy(cd->os, id, strlen(id) + 1);
	memcpy(cd->release, cn, strlen(cn) + 1);
}

/*
 * An RPM distribution's build (origin: its os-release ID, from the
 * package's Vendor): its data is per major release, the host's
 * VERSION_ID up to the first dot ("9.4" -> "9").
 */
static void
rpm_release(const struct fa_snapshot *s, const char *origin,
    struct candidate *cd)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_OS,
	    "os-release");
	const char *vid;
	size_t n;

	cd->os[0] = cd->release[0] = '\0';
	if (o == NULL || o->state != FA_OBS_COMPLETE ||
	    (vid = fa_obs_str(o, FA_F(HOST_OS, version_id))) == NULL ||
	    (n = strcspn(vid, ".")) == 0 || n >= sizeof(cd->release) ||
	    strlen(origin) >= sizeof(cd->os))
		return;
	snprintf(cd->os, sizeof(cd->os), "%s", origin);
	snprintf(cd->release, sizeof(cd->release), "%.*s", (int)n, vid);
}

static enum fa_component
component_of(const struct fa_check *c)
{
	if (strcmp(c->id, "HOST-NVIDIA-CTK-VULN") == 0)
		return FA_COMP_TOOLKIT;
	if (strcmp(c->id, "HOST-NVIDIA-DRIVER-VULN") == 0)
		return FA_COMP_DRIVER;
	if (strcmp(c->id, "HOST-RUNC-VULN") == 0)
		return FA_COMP_RUNC;
	if (strcmp(c->id, "HOST-CONTAINERD-VULN") == 0)
		return FA_COMP_CONTAINERD;
	if (strcmp(c->id, "HOST-DOCKER-VULN") == 0)
		return FA_COMP_DOCKER;
	if (strcmp(c->id, "HOST-BUILDKIT-VULN") == 0)
		return FA_COMP_BUILDKIT;
	return FA_COMP_KERNEL;
}

/* The catalogue from the snapshot; 0, or a result was added (1), or <0. */
static int
catalogue(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_cvedb **db, const struct fa_obs **o)
{
	char *why = NULL;
	size_t it = 0;
	int r;


	*o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_CVEDB, &it);
	if (*o == NULL || (*o)->state != FA_OBS_COMPLETE) {
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "catalogue", NULL,
		    NULL, "no CVE catalogue: %s", *o != NULL ?
		    fa_obs_reason(*o) : "none was loaded");
		return r < 0 ? r : 1;
	}
	r = fa_cvedb_from_json(fa_obs_obj((*o), FA_F(HOST_CVEDB, catalogue)),
	    db,
	    &why);
	if (r == FA_ERR_NOMEM) {
		free(why);
		return r;
	}
	if (r != 0) {
		r = fa_results_add(out, c, FA_ST_ERROR, "catalogue", NULL, NULL,
		    "observation %s holds an invalid catalogue: %s", (*o)->id,
		    why != NULL ? why : "invalid");
		free(why);
		return r < 0 ? r : 1;
	}
	return 0;
}

/* A driver branch (the major number) the catalogue has ranges for. */
static int
branch_known(const struct fa_cvedb *db, const char *version)
{
	size_t i, k, n = strcspn(version, ".");
	const struct fa_cve_range *rg;

	for (i = 0; i < db->n; i++) {
		if (db->entries[i].component != FA_COMP_DRIVER)
			continue;
		for (k = 0; k < db->entries[i].nranges; k++) {
			rg = &db->entries[i].ranges[k];
			if ((rg->introduced != NULL &&
			    strncmp(rg->introduced, version, n) == 0 &&
			    strchr(".", rg->introduced[n]) != NULL) ||
			    (rg->fixed != NULL &&
			    strncmp(rg->fixed, version, n) == 0 &&
			    rg->fixed[n] == '.'))
				return 1;
		}
	}
	return 0;
}

/* A [features] flag or mode of the toolkit, from any config read. */
static const json_t *
ctk_value(const struct fa_snapshot *s, const char *key)
{
	const struct fa_obs *o;
	const json_t *v;
	size_t it = 0;

	while ((o = fa_snapshot_next(s, FA_KIND_HOST_CTK_CONFIG, &it)))
		if (o->state == FA_OBS_COMPLETE && (v = json_object_get(
		    fa_obs_obj(o, FA_F(HOST_CTK_CONFIG, values)), key)) != NULL)
			return v;
	return NULL;
}

/*
 * Whether the host has no CDI specification at all, as observed: every
 * CDI directory listed (or absent) and none holds a spec.  Docker's and
 * containerd's own CDI support inject from /etc/cdi and /var/run/cdi
 * whatever the NVIDIA runtime's mode, so only then does "legacy" mean
 * no CDI injection happens.
 */
static int
no_cdi_specs(const struct fa_snapshot *s)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_CDI, "cdi");
	const json_t *dirs, *d;
	size_t i;

	if (o == NULL || o->state != FA_OBS_COMPLETE ||
	    !json_is_array(dirs = fa_obs_arr(o, FA_F(HOST_CDI, dirs))) ||
	    json_array_size(dirs) == 0)
		return 0;
	json_array_foreach(dirs, i, d) {
		if (!json_is_true(json_object_get(d, "listed")) &&
		    !json_is_true(json_object_get(d, "missing")))
			return 0;
		if (json_array_size(json_object_get(d, "specs")) > 0)
			return 0;
	}
	return 1;
}

/* Why a matched CVE does not apply here, or NULL. */
static const char *
ruled_out(const struct fa_snapshot *s, const struct fa_cve *e,
    const struct fa_cve_range *hit, char *buf, size_t len)
{
	const char *mode = json_string_value(ctk_value(s,
	    "nvidia-container-runtime.mode"));
	char key[96];

	if (e->mitigated_by != NULL) {
		snprintf(key, sizeof(key), "features.%s", e->mitigated_by);
		if (json_is_true(ctk_value(s, key))) {
			snprintf(buf, len, "mitigated: [features] %s "
			    "= true", e->mitigated_by);
			return buf;
		}
	}
	if ((e->conditions & 1u << FA_COND_LEGACY_MODE) && mode != NULL &&
	    (strcmp(mode, "cdi") == 0 || strcmp(mode, "jit-cdi") == 0))
		return "legacy mode only, and the toolkit runs in CDI mode";
	/* A line that holds in one mode: ruled out only by a mode the
	 * configuration states ("auto" may pick either per container). */
	if (hit != NULL && (hit->when & 1u << FA_COND_CDI_MODE) &&
	    mode != NULL && strcmp(mode, "legacy") == 0 && no_cdi_specs(s))
		return "on this version only CDI-mode injection is affected, "
		    "the toolkit runs in legacy mode, and no CDI "
		    "specification is on the host for an engine to inject "
		    "from";
	if (hit != NULL && (hit->when & 1u << FA_COND_LEGACY_MODE) &&
	    mode != NULL && (strcmp(mode, "cdi") == 0 ||
	    strcmp(mode, "jit-cdi") == 0))
		return "on this version only legacy-mode injection is "
		    "affected, and the toolkit runs in CDI mode";
	return NULL;
}

static json_t *
conditions_json(unsigned bits)
{
	json_t *a = json_array();
	int k;

	for (k = 0; a != NULL && k < FA_COND_MAX; k++)
		if ((bits & 1u << k) && json_array_append_new(a,
		    json_string(fa_cve_cond_name((enum fa_cve_cond)k))) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/*
 * A distribution's build against entry e: 2 affected by its own data
 * (below the release's fix, or no fix yet: *dh the row), 1 not affected
 * (at or above the fix, never affected, or the upstream range rules it
 * out), 0 no data and the upstream range includes it (undetermined).  A
 * package version that is not a Debian version has no data.
 */
static int
distro_rule(const struct fa_cve *e, const struct candidate *cd,
    const struct fa_cve_range **hit, const char **rule,
    const struct fa_cve_distro **dh)
{
	const char *err;
	int v;

	*dh = NULL;
	if (cd->os[0] == '\0' || cd->srcpkg[0] == '\0' ||
	    fa_cve_distro_verdict(e, cd->os, cd->release, cd->srcpkg,
	    cd->debver, &v, dh, &err) != 0)
		v = -1;
	if (v == 1) {
		*rule = "distribution data for this release";
		return 2;
	}
	if (v == 0)
		return 1;	/* *dh: the row that says so */
	*dh = NULL;
	if (*hit == NULL && cd->no_upstream_out) {
		*rule = "no data from the distribution for this release, and "
		    "its kernel carries features backported from later "
		    "kernels, so the upstream range rules nothing out";
		return 0;
	}
	if (*hit == NULL)
		return 1;	/* not even the upstream range holds */
	*rule = "upstream range only; the distribution may have backported "
	    "the fix and the catalogue has no data for this release";
	return 0;
}

/*
 * A kernel release no stable or vendor build can be: "6.7", "6.7.0" or
 * "6.7.0-rc3".  Anything after (6.1.90, 5.15.0-1064-azure) may carry a
 * backport.
 */
static int
bare_release(const char *v)
{
	size_t i, n;

	for (i = 0; i < 2; i++) {
		if ((n = strspn(v, "0123456789")) == 0)
			return 0;
		v += n;
		if (i == 0 && *v++ != '.')
			return 0;
	}
	if (strncmp(v, ".0", 2) == 0 && strchr("-", v[2]) != NULL)
		v += 2;
	if (*v == '\0')
		return 1;
	return strncmp(v, "-rc", 3) == 0 && strspn(v + 3, "0123456789") > 0 &&
	    v[3 + strspn(v + 3, "0123456789")] == '\0';
}

/* One CVE's evidence entry; NULL on ENOMEM. */
static json_t *
cve_json(const struct fa_cve *e, const struct fa_cve_range *hit,
    const struct fa_cve_distro *dh, const char *rule, const char *verdict)
{
	return json_pack("{s:s, s:s?, s:o, s:s?, s:s?, s:o, s:s, s:s, s:s?}",
	    "cve", e->id, "title", e->title, "cvss", e->cvss >= 0 ?
	    json_real(e->cvss) : json_null(), "fixed", dh != NULL ?
	    dh->fixed : hit != NULL ? hit->fixed : NULL, "advisory",
	    e->advisory, "conditions", conditions_json(e->conditions |
	    (hit != NULL ? hit->when : 0)), "rule", rule,
	    "verdict", verdict, "kev_added", e->kev_added);
}

/* Judge one candidate version against the catalogue. */
static int
judge(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, const struct fa_cvedb *db,
    const struct fa_obs *dbo, const struct candidate *cd,
    enum fa_component comp)
{
	const struct fa_cve_range *hit;
	const struct fa_cve_distro *dh;
	const struct fa_cve *e;
	const char *err, *why, *worst = NULL, *rule;
	double max = -1;
	size_t i, n = 0, out_n = 0, undet = 0, kev = 0, undet_k = 0;
	json_t *ev, *cves;
	char key[96], cvss[32], kevs[80];
	int r;

	if ((ev = json_array()) == NULL || (cves = json_array()) == NULL) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (fa_evidence_add(ev, fa_evidence(cd->obs, "version",
	    json_string(cd->shown))) != 0 || fa_evidence_add(ev, fa_evidence(
	    NULL, "confidence", json_string(cd->version_only ? "version-only" :
	    "version"))) != 0 || fa_evidence_add(ev, fa_evidence(dbo,
	    "catalogue", json_pack("{s:s, s:I}", "date", db->date, "entries",
	    (json_int_t)db->n))) != 0)
		goto nomem;
	for (i = 0; i < db->n; i++) {
		e = &db->entries[i];
		if (e->component != comp)
			continue;
		if (fa_cve_match(e, cd->version, &hit, &err) != 0) {
			json_decref(cves);
			r = fa_results_add(out, c, FA_ST_ERROR, cd->obs->target,
			    NULL, ev, "%s cannot be compared: %s", cd->shown,
			    err != NULL ? err : "invalid version");
			return r < 0 ? r : 0;
		}
		why = NULL;
		dh = NULL;
		rule = "upstream range";
		if (cd->distro_built) {
			r = distro_rule(e, cd, &hit, &rule, &dh);
			if (r == 1 && dh != NULL) {
				/* Fixed by the distribution: say so. */
				if (json_array_append_new(cves, cve_json(e, hit,
				    dh, "distribution data for this release",
				    dh->status == FA_DISTRO_FIXED ? "fixed" :
				    "not affected")) != 0)
					goto nomem;
				continue;
			}
			if (r == 1)
				continue;	/* outside the upstream range */
			if (r == 0) {
				/* No data: the upstream range may not hold. */
				if (json_array_append_new(cves, cve_json(e, hit,
				    NULL, rule, "undetermined")) != 0)
					goto nomem;
				undet++;
				continue;
			}
			/* 2: below the distribution's own fix. */
		} else if (hit != NULL && hit->mainline_only &&
		    !bare_release(cd->version)) {
			/* A stable or vendor release: the backport may be in
			 * it, and the record does not say where it went. */
			if (json_array_append_new(cves, cve_json(e, hit, NULL,
			    "mainline fix only: the CVE record names no "
			    "stable release with the fix", "undetermined")) !=
			    0)
				goto nomem;
			undet_k++;
			continue;
		}
		if (hit == NULL && dh == NULL && e->reopened_by != NULL) {
			snprintf(key, sizeof(key), "features.%s",
			    e->reopened_by);
			if (!json_is_true(ctk_value(ctx->snap, key)))
				continue;
			why = "re-opened by a [features] flag";
		} else if (hit == NULL && dh == NULL) {
			continue;
		}
		{
			char nb[160];
			const char *no = ruled_out(ctx->snap, e, hit, nb,
			    sizeof(nb));
			json_t *cj = cve_json(e, hit, dh, rule, no != NULL ?
			    "ruled out" : "affected");

			if (cj == NULL || json_object_set_new(cj, "ruled_out",
			    no != NULL ? json_string(no) : json_null()) != 0 ||
			    json_object_set_new(cj, "note", why != NULL ?
			    json_string(why) : hit != NULL &&
			    hit->note != NULL ? json_string(hit->note) :
			    json_null()) != 0 ||
			    json_array_append_new(cves, cj) != 0)
				goto nomem;
			if (no != NULL) {
				out_n++;
				continue;
			}
		}
		n++;
		kev += e->kev_added != NULL;
		if (worst == NULL || e->cvss > max) {
			max = e->cvss;
			worst = e->id;
		}
	}
	if (fa_evidence_add(ev, fa_evidence(dbo, "cves", cves)) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	snprintf(cvss, sizeof(cvss), ", CVSS %.1f", max);
	snprintf(kevs, sizeof(kevs), "; %zu on CISA's Known Exploited "
	    "Vulnerabilities list", kev);
	if (n > 0)
		r = fa_results_add(out, c, FA_ST_FAIL, cd->obs->target, NULL,
		    ev, "%s is in the affected range of %zu catalogued CVE%s "
		    "(worst %s%s)%s%s%s", cd->shown, n, n > 1 ? "s" : "",
		    worst, max >= 0 ? cvss : ", no CVSS score", kev > 0 ?
		    kevs : "", cd->version_only && !cd->distro_built ?
		    "; confidence version-only: the distribution may have "
		    "backported fixes the version does not show" : "",
		    out_n > 0 ?
		    "; others ruled out by configuration (see evidence)" : "");
	else if (undet > 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, cd->obs->target,
		    NULL, ev, "%s is the distribution's own build: %zu "
		    "catalogued CVE%s %s, but the distribution may have "
		    "backported the fix, and the catalogue of %s has no "
		    "data from %s%s%s%s for %s%s", cd->shown, undet,
		    undet > 1 ? "s" : "", cd->no_upstream_out ? "may apply "
		    "(an Enterprise Linux kernel carries features of later "
		    "kernels, so upstream ranges cannot rule any out)" :
		    undet > 1 ? "have upstream ranges that include its "
		    "upstream version" : "has an upstream range that "
		    "includes its upstream version", db->date,
		    cd->os[0] != '\0' ? cd->os : "the host's distribution",
		    cd->os[0] != '\0' ? " " : "", cd->release,
		    cd->os[0] != '\0' ? "" : " (unknown: no /etc/os-release)",
		    undet > 1 ? "them" : "it", out_n > 0 ? "; matches ruled "
		    "out by configuration are in the evidence" : "");
	else if (undet_k > 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, cd->obs->target,
		    NULL, ev, "%s is below the mainline fix of %zu catalogued "
		    "CVE%s whose record%s name%s no stable release with the "
		    "fix: a stable or vendor release may carry the backport, "
		    "and the catalogue of %s cannot tell%s", cd->shown, undet_k,
		    undet_k > 1 ? "s" : "", undet_k > 1 ? "s" : "",
		    undet_k > 1 ? "" : "s", db->date, out_n > 0 ? "; matches "
		    "ruled out by configuration are in the evidence" : "");
	else
		r = fa_results_add(out, c, FA_ST_PASS, cd->obs->target, NULL,
		    ev, "no catalogued CVE affects %s (catalogue of %s)%s",
		    cd->shown, db->date, out_n > 0 ? "; matches ruled out by "
		    "configuration are in the evidence" : "");
	return r < 0 ? r : 0;
nomem:
	json_decref(ev);
	json_decref(cves);
	return FA_ERR_NOMEM;
}

/* The Debian version v without its epoch and revision: "1.1.5+ds1". */
static void
deb_upstream_raw(const char *v, char *out, size_t len)
{
	const char *p = strchr(v, ':') != NULL ? strchr(v, ':') + 1 : v;
	const char *h = strrchr(p, '-');
	size_t n = h != NULL ? (size_t)(h - p) : strlen(p);

	snprintf(out, len, "%.*s", (int)n, p);
}

/*
 * Go programs of comp found outside the package manager (host.binary,
 * fabric/host_gobuild.c): a binary whose version is that of a dpkg
 * package of the component already found (the same build: Debian's
 * runc or containerd is the file its package installed) adds nothing;
 * another is a build of its own, judged by its upstream version.  A
 * binary whose version could not be read is kept in *uncertain.  The
 * number added to cd[n..max).
 */
static size_t
binaries(const struct fa_snapshot *s, enum fa_component comp,
    struct candidate *cd, size_t n, size_t max, const struct fa_obs **unc)
{
	const char *want = comp == FA_COMP_RUNC ? "runc" :
	    comp == FA_COMP_CONTAINERD ? "containerd" :
	    comp == FA_COMP_DOCKER ? "dockerd" :
	    comp == FA_COMP_BUILDKIT ? "buildkitd" : NULL;
	const char *v, *up, *rule;
	char raw[FA_VERSION_MAX + 1];
	const struct fa_obs *o;
	size_t it = 0, k, added = 0, first = n;

	while (want != NULL && n + added < max &&
	    (o = fa_snapshot_next(s, FA_KIND_HOST_BINARY, &it)) != NULL) {
		if (fa_obs_str(o, FA_F(HOST_BINARY, component)) == NULL ||
		    strcmp(fa_obs_str(o, FA_F(HOST_BINARY, component)),
		    want) != 0)
			continue;
		v = fa_obs_str(o, FA_F(HOST_BINARY, version));
		up = fa_obs_str(o, FA_F(HOST_BINARY, upstream));
		if (o->state != FA_OBS_COMPLETE || v == NULL || up == NULL) {
			if (*unc == NULL && o->state != FA_OBS_NOT_COLLECTED)
				*unc = o;
			continue;
		}
		for (k = 0; k < first; k++) {
			deb_upstream_raw(cd[k].debver[0] != '\0' ?
			    cd[k].debver : cd[k].version, raw, sizeof(raw));
			if (strcmp(raw, v) == 0 ||
			    strcmp(cd[k].version, up) == 0)
				break;
		}
		if (k < first)
			continue;
		rule = fa_obs_str(o, FA_F(HOST_BINARY, rule));
		memset(&cd[n + added], 0, sizeof(cd[n + added]));
		cd[n + added].obs = o;
		snprintf(cd[n + added].version, sizeof(cd[n + added].version),
		    "%s", up);
		snprintf(cd[n + added].shown, sizeof(cd[n + added].shown),
		    "%s %s (%s, Go build information: %s)", want, v,
		    o->target, rule != NULL ? rule : "?");
		added++;
	}
	return added;
}

/*
 * The distribution's tag in an RPM kernel's release, after the numbers:
 * "427.13.1.el9_4" is RHEL 9's build (and Rocky's, Alma's, Oracle's
 * RHCK), "300.fc40" Fedora 40's, "111.182.amzn2023" Amazon Linux 2023's.
 * *major is the release it names.  0 when the release has no such tag:
 * ELRepo's "1.el9.elrepo", Oracle's UEK "el9uek", a build of one's own.
 */
static int
rpm_kernel_tag(const char *rel, size_t n, const char **tag, size_t *major)
{
	static const char *const tags[] = { ".el", ".fc", ".amzn", NULL };
	const char *p;
	size_t k, d, t;

	for (k = 0; tags[k] != NULL; k++) {
		t = strlen(tags[k]);
		for (p = rel; p + t <= rel + n; p++) {
			if (strncmp(p, tags[k], t) != 0)
				continue;
			/* numbers before it, digits after, then only an
			 * update "_4" (el) and nothing else */
			if (p == rel || strspn(rel, "0123456789.") <
			    (size_t)(p - rel) ||
			    (d = strspn(p + t, "0123456789")) == 0)
				break;
			*tag = tags[k] + 1;
			*major = d;
			if (p + t + d == rel + n)
				return 1;
			p += t + d;	/* past "el9" */
			if (k == 0 && p[0] == '_' && p + 1 < rel + n &&
			    strspn(p + 1, "0123456789") ==
			    (size_t)(rel + n - (p + 1)))
				return 1;
			break;
		}
	}
	return 0;
}

/*
 * The kernel of an RPM distribution ("5.14.0-427.13.1.el9_4.x86_64" on
 * Rocky 9): a release whose tag is the distribution's, for the host's
 * major release, is the distribution's package release, and its
 * backports do not show in 5.14.0, so it is judged by the distribution's
 * data for package "kernel" at version-release (the architecture
 * dropped), like Debian's.  An Enterprise Linux kernel also carries
 * features backported from later kernels: an upstream range that
 * starts after its 5.14 rules nothing out (no_upstream_out).  A kernel
 * without the tag (ELRepo's, a custom build) is judged upstream.
 */
static void
rpm_kernel(const struct fa_snapshot *s, const char *v, struct candidate *cd)
{
	static const char *const arch[] = { ".x86_64", ".aarch64",
	    ".ppc64le", ".s390x", NULL };
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_OS,
	    "os-release");
	const char *id = o != NULL && o->state == FA_OBS_COMPLETE ?
	    fa_obs_str(o, FA_F(HOST_OS, id)) : NULL;
	const char *rel = strchr(v, '-'), *tag = NULL, *tagnum;
	size_t n = strlen(v), k, a, major = 0;

	if (id == NULL || !fa_distro_is_rpm(id) || rel == NULL)
		return;
	for (k = 0; arch[k] != NULL; k++)
		if (n > (a = strlen(arch[k])) &&
		    strcmp(v + n - a, arch[k]) == 0) {
			n -= a;
			break;
		}
	rel++;
	if (n >= sizeof(cd->debver) || rel >= v + n ||
	    fa_version_valid(FA_VER_RPM, v, NULL) != 0 ||
	    !rpm_kernel_tag(rel, (size_t)(v + n - rel), &tag, &major))
		return;
	rpm_release(s, id, cd);
	if (cd->os[0] == '\0')
		return;
	/* The tag's release is the host's: el9 on Rocky 9.4. */
	tagnum = strstr(rel, tag) + strlen(tag);
	if (strlen(cd->release) != major ||
	    strncmp(cd->release, tagnum, major) != 0 ||
	    (strcmp(tag, "el") == 0) != (strcmp(id, "fedora") != 0 &&
	    strcmp(id, "amzn") != 0) ||
	    (strcmp(tag, "fc") == 0) != (strcmp(id, "fedora") == 0) ||
	    (strcmp(tag, "amzn") == 0) != (strcmp(id, "amzn") == 0)) {
		cd->os[0] = cd->release[0] = '\0';
		return;
	}
	snprintf(cd->debver, sizeof(cd->debver), "%.*s", (int)n, v);
	snprintf(cd->srcpkg, sizeof(cd->srcpkg), "kernel");
	cd->distro_built = 1;
	cd->no_upstream_out = strcmp(tag, "el") == 0;
}

/*
 * The BuildKit that dockerd links (the builder behind "docker build"
 * since Docker 23): the github.com/moby/buildkit module of its build
 * information, "v0.12.5" read as 0.12.5.  *plain is set to a dockerd
 * whose build information lists no modules (a GOPATH build, as
 * Debian's): its BuildKit cannot be read.  The number added.
 */
static size_t
vendored_buildkit(const struct fa_snapshot *s, struct candidate *cd,
    size_t n, size_t max, const struct fa_obs **plain)
{
	const char *bk;
	const struct fa_obs *o;
	size_t it = 0, added = 0;

	while (n + added < max &&
	    (o = fa_snapshot_next(s, FA_KIND_HOST_BINARY, &it)) != NULL) {
		if (o->state == FA_OBS_NOT_COLLECTED ||
		    fa_obs_str(o, FA_F(HOST_BINARY, component)) == NULL ||
		    strcmp(fa_obs_str(o, FA_F(HOST_BINARY, component)),
		    "dockerd") !=
		    0)
			continue;
		if (o->state != FA_OBS_COMPLETE) {	/* unreadable */
			if (*plain == NULL)
				*plain = o;
			continue;
		}
		bk = fa_obs_str(o, FA_F(HOST_BINARY, buildkit_module));
		if (bk != NULL && bk[0] == 'v')
			bk++;
		if (bk == NULL || fa_version_valid(FA_VER_UPSTREAM, bk,
		    NULL) != 0) {
			if (*plain == NULL)
				*plain = o;
			continue;
		}
		memset(&cd[n + added], 0, sizeof(cd[n + added]));
		cd[n + added].obs = o;
		snprintf(cd[n + added].version, sizeof(cd[n + added].version),
		    "%s", bk);
		snprintf(cd[n + added].shown, sizeof(cd[n + added].shown),
		    "BuildKit %s (module linked into %s)",
		    fa_obs_str(o, FA_F(HOST_BINARY, buildkit_module)),
		    o->target);
		added++;
	}
	return added;
}

/* Versions of comp found in the snapshot, at most max. */
static size_t
candidates(const struct fa_snapshot *s, enum fa_component comp,
    struct candidate *cd, size_t max, const struct fa_obs **missing,
    const struct fa_obs **plain)
{
	const char *name = fa_component_name(comp), *v, *pkg, *up, *origin;
	const char *src;
	const struct fa_obs *o, *uncertain = NULL;
	const json_t *deb;
	size_t it = 0, n = 0, i, k;
	int rpm, read_one = 0;

	*missing = NULL;
	if (comp == FA_COMP_DRIVER || comp == FA_COMP_KERNEL) {
		o = fa_snapshot_find(s, FA_KIND_HOST_VERSION, name);
		if (o == NULL || o->state != FA_OBS_COMPLETE ||
		    (v = fa_obs_str(o, FA_F(HOST_VERSION, version))) == NULL) {
			*missing = o;
			return 0;
		}
		deb = fa_obs_obj(o, FA_F(HOST_VERSION, debian_package));
		memset(&cd[0], 0, sizeof(cd[0]));
		cd[0].obs = o;
		cd[0].version_only = comp == FA_COMP_KERNEL;
		if (fa_json_get_str(deb, "version") != NULL) {
			snprintf(cd[0].version, sizeof(cd[0].version), "%s",
			    fa_json_get_str(deb, "version"));
			snprintf(cd[0].shown, sizeof(cd[0].shown), "kernel %s "
			    "(Debian package %s)", v, cd[0].version);
			/* Debian's kernel: its source package is "linux". */
			host_release(s, &cd[0]);
			cd[0].distro_built = 1;
			snprintf(cd[0].debver, sizeof(cd[0].debver), "%s",
			    cd[0].version);
			snprintf(cd[0].srcpkg, sizeof(cd[0].srcpkg), "linux");
		} else {
			snprintf(cd[0].version, sizeof(cd[0].version), "%s", v);
			snprintf(cd[0].shown, sizeof(cd[0].shown), "%s %s (%s)",
			    name, v, fa_obs_str(o, FA_F(HOST_VERSION,
			    source)) != NULL
			    ? fa_obs_str(o, FA_F(HOST_VERSION, source)) : "?");
			if (comp == FA_COMP_KERNEL)
				rpm_kernel(s, v, &cd[0]);
		}
		return 1;
	}
	while (n < max && (o = fa_snapshot_next(s, FA_KIND_HOST_PACKAGE,
	    &it)) != NULL) {
		/* A database: its reason matters only if none was read,
		 * one that failed more than one that is not there. */
		if (strcmp(o->target, "dpkg") == 0 ||
		    strcmp(o->target, "rpm") == 0) {
			if (o->state == FA_OBS_COMPLETE)
				read_one = 1;
			else if (*missing == NULL ||
			    ((*missing)->state == FA_OBS_NOT_COLLECTED &&
			    o->state != FA_OBS_NOT_COLLECTED))
				*missing = o;
			continue;
		}
		v = fa_obs_str(o, FA_F(HOST_PACKAGE, version));
		up = fa_obs_str(o, FA_F(HOST_PACKAGE, upstream));
		pkg = fa_obs_str(o, FA_F(HOST_PACKAGE, package));
		if (fa_obs_str(o, FA_F(HOST_PACKAGE, component)) == NULL ||
		    strcmp(fa_obs_str(o, FA_F(HOST_PACKAGE, component)),
		    name) != 0)
			continue;
		if (o->state != FA_OBS_COMPLETE || v == NULL || pkg == NULL) {
			/* Half-installed or reinstreq: no version to trust,
			 * and its reason says why. */
			uncertain = o;
			continue;
		}
		/* One result per distinct version (toolkit: 4 packages). */
		for (k = 0; k < n; k++)
			if (strcmp(cd[k].version, up != NULL ? up : v) == 0)
				break;
		if (k < n)
			continue;
		memset(&cd[n], 0, sizeof(cd[n]));
		cd[n].obs = o;
		snprintf(cd[n].version, sizeof(cd[n].version), "%s",
		    up != NULL ? up : v);
		rpm = json_is_string(fa_obs_jstr(o, FA_F(HOST_PACKAGE,
		    manager))) &&
		    strcmp(fa_obs_str(o, FA_F(HOST_PACKAGE, manager)),
		    "rpm") == 0;
		snprintf(cd[n].shown, sizeof(cd[n].shown), "%s %s (%s)", pkg,
		    v, rpm ? "rpm" : "dpkg");
		origin = fa_obs_str(o, FA_F(HOST_PACKAGE, origin));
		if (rpm) {
			/* Built by an RPM distribution (its Vendor), or by
			 * another maker; no Vendor: the name cannot tell. */
			cd[n].distro_built = origin != NULL &&
			    fa_distro_is_rpm(origin);
			if (cd[n].distro_built)
				rpm_release(s, origin, &cd[n]);
		} else if (origin != NULL && strcmp(origin, "unknown") != 0)
			cd[n].distro_built = strcmp(origin, "debian") == 0 ||
			    strcmp(origin, "ubuntu") == 0;
		else	/* no Maintainer to tell: Debian's package names */
			for (i = 0; distro_packages[i] != NULL; i++)
				if (strcmp(pkg, distro_packages[i]) == 0)
					cd[n].distro_built = 1;
		cd[n].version_only = cd[n].distro_built;
		if (cd[n].distro_built) {
			if (!rpm)
				host_release(s, &cd[n]);
			snprintf(cd[n].debver, sizeof(cd[n].debver), "%s", v);
			src = fa_obs_str(o, FA_F(HOST_PACKAGE, source_package));
			snprintf(cd[n].srcpkg, sizeof(cd[n].srcpkg), "%s",
			    src != NULL && src[0] != '\0' ? src : pkg);
		}
		n++;
	}
	n += binaries(s, comp, cd, n, max, &uncertain);
	if (comp == FA_COMP_BUILDKIT) {
		n += vendored_buildkit(s, cd, n, max, plain);
		read_one = 1;	/* no distribution packages BuildKit */
	}
	if (n > 0 || read_one)
		*missing = NULL;
	if (n == 0 && uncertain != NULL)
		*missing = uncertain;
	return n;
}

/*
 * The policy's "stale_catalogue not_tested": a catalogue stale when the
 * scan ran (past its valid_until, or older than FA_CVEDB_STALE_DAYS) knows
 * nothing published since, so a pass from it would be a false statement
 * in a contract: each pass among out's results from `from` on becomes
 * not_tested, saying so.  A failure stays one: a catalogued CVE still
 * affects the version.  0 or FA_ERR_NOMEM.
 */
static int
stale_downgrade(const struct fa_eval_ctx *ctx, struct fa_results *out,
    size_t from, const struct fa_cvedb *db)
{
	const char *when = json_string_value(json_object_get(json_object_get(
	    ctx->snap->meta, "scan"), "started"));
	struct tm tm;
	char *end, *why;
	size_t i;

	memset(&tm, 0, sizeof(tm));
	end = when != NULL ? strptime(when, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (end != NULL && !fa_cvedb_stale(db, timegm(&tm)))
		return 0;
	for (i = from; i < out->n; i++) {
		if (out->v[i].status != FA_ST_PASS)
			continue;
		why = fa_strfmt("would pass (%s), but the catalogue of %s %s%s%s"
		    ": it knows nothing published since, and the policy says "
		    "a stale catalogue decides nothing (stale_catalogue "
		    "not_tested)", out->v[i].reason != NULL ?
		    out->v[i].reason : "", db->date, end == NULL ? "may be "
		    "stale (the scan's time is not recorded)" : "was stale "
		    "when the scan ran", db->valid_until != NULL ?
		    ", valid until " : "", db->valid_until != NULL ?
		    db->valid_until : "");
		if (why == NULL)
			return FA_ERR_NOMEM;
		free(out->v[i].reason);
		out->v[i].reason = why;
		out->v[i].status = FA_ST_NOT_TESTED;
	}
	return 0;
}

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	enum fa_component comp = component_of(c);
	struct candidate cd[8];
	size_t from;
	const struct fa_obs *dbo, *missing, *plain = NULL;
	struct fa_cvedb *db = NULL;
	struct fa_host_env env;
	const struct fa_obs *pkgdb;
	long long skipped = 0;
	size_t n, i;
	int r, in_container;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	if ((r = catalogue(c, ctx, out, &db, &dbo)) != 0)
		return r < 0 ? r : 0;
	from = out->n;
	n = candidates(ctx->snap, comp, cd, sizeof(cd) / sizeof(cd[0]),
	    &missing, &plain);
	for (i = 0, r = 0; i < n && r == 0; i++) {
		if (comp == FA_COMP_DRIVER && !branch_known(db, cd[i].version))
			r = fa_results_add(out, c, FA_ST_NOT_TESTED,
			    cd[i].obs->target, NULL, json_pack("[o]",
			    fa_evidence(cd[i].obs, "version", json_string(
			    cd[i].shown))), "%s: branch %.*s is not in the "
			    "catalogue of %s, so nothing can be said", cd[i].shown,
			    (int)strcspn(cd[i].version, "."), cd[i].version,
			    db->date);
		else
			r = judge(c, ctx, out, db, dbo, &cd[i], comp);
		r = r < 0 ? r : 0;
	}
	/* A dockerd whose BuildKit cannot be read is a BuildKit unjudged,
	 * whatever else was found (it is the one "docker build" uses). */
	if (r == 0 && plain != NULL) {
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, plain->target,
		    NULL, json_pack("[o]", fa_evidence(plain, "version",
		    json_string(fa_obs_str(plain, FA_F(HOST_BINARY, version)) !=
		    NULL ? fa_obs_str(plain, FA_F(HOST_BINARY, version)) :
		    "?"))),
		    "%s links BuildKit, but %s, so which BuildKit it carries "
		    "cannot be read%s", plain->target, plain->state !=
		    FA_OBS_COMPLETE ? "its Go build information could not be "
		    "read" : "its Go build information lists no module "
		    "version of it (a GOPATH build, as Debian's)", n == 0 ?
		    "; no buildkitd was found" : "");
		r = r < 0 ? r : 0;
	}
	if (r == 0 && ctx->policy->stale_not_tested)
		r = stale_downgrade(ctx, out, from, db);
	fa_cvedb_free(db);
	if (r != 0 || n > 0 || plain != NULL)
		return r;
	if ((r = fa_host_env(ctx->snap, &env)) != 0)
		return r;
	in_container = env.container == 1;
	fa_host_env_free(&env);
	/* Stanzas the parser skipped may have held this package. */
	pkgdb = fa_snapshot_find(ctx->snap, FA_KIND_HOST_PACKAGE, "dpkg");
	if (comp == FA_COMP_KERNEL || comp == FA_COMP_DRIVER ||
	    pkgdb == NULL || pkgdb->state != FA_OBS_COMPLETE ||
	    fa_obs_int(pkgdb, FA_F(HOST_PACKAGE, skipped), 0, INT64_MAX,
	    &skipped) != 0)
		skipped = 0;
	r = fa_results_add(out, c, FA_ST_NOT_TESTED, fa_component_name(comp),
	    NULL, NULL, "no %s version found%s%s%s%s", fa_component_name(comp),
	    missing != NULL && missing->state != FA_OBS_COMPLETE ? ": " : "",
	    missing != NULL && missing->state != FA_OBS_COMPLETE ?
	    fa_obs_reason(missing) : comp == FA_COMP_DRIVER ||
	    comp == FA_COMP_KERNEL ? "" : comp == FA_COMP_TOOLKIT ?
	    " in the dpkg or RPM database" : comp == FA_COMP_BUILDKIT ?
	    ": no buildkitd at the usual paths and no dockerd whose Go "
	    "build information names its BuildKit module" :
	    " in the dpkg or RPM database nor "
	    "in the Go build information of a binary at the usual paths",
	    skipped > 0 ?
	    "; "
	    "stanzas of the database that could not be parsed were skipped "
	    "(see the dpkg observation's skipped_stanzas)" : "",
	    in_container && comp != FA_COMP_KERNEL && comp != FA_COMP_DRIVER ?
	    "; in a container the host's packages are not visible" : "");
	return r < 0 ? r : 0;
}

/* The texts of the seven checks, which differ by the component only. */
#define VULN_RATIONALE(what)						\
	"A " what " version inside a published vulnerable range exposes " \
	"the host to known exploits; container escapes in this component " \
	"reach every tenant on the node."
#define VULN_REMEDIATION(what)						\
	"Upgrade the " what " to the fixed release of its branch named "	\
	"in the evidence, or show that the installed build carries the "	\
	"fix."
#define VULN_CLAUSE(what)						\
	"Provider shall keep the " what " on hosts running Customer "	\
	"workloads at or above the vendor's fixed release for every "	\
	"published vulnerability of CVSS 7.0 or higher within 14 days of " \
	"the advisory (30 days below 7.0), and report the versions in use " \
	"on request."

const struct fa_check fa_chk_host_nvidia_ctk_vuln = {
	.id = "HOST-NVIDIA-CTK-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable NVIDIA Container Toolkit",
	.rationale = VULN_RATIONALE("NVIDIA Container Toolkit"),
	.remediation = VULN_REMEDIATION("NVIDIA Container Toolkit"),
	.msa_clause = VULN_CLAUSE("NVIDIA Container Toolkit"),
	.refs = refs_ctk,
	.sends = VULN_SENDS(SRC_CTK),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};

const struct fa_check fa_chk_host_nvidia_driver_vuln = {
	.id = "HOST-NVIDIA-DRIVER-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable NVIDIA GPU driver",
	.rationale = VULN_RATIONALE("NVIDIA GPU driver"),
	.remediation = VULN_REMEDIATION("NVIDIA GPU driver"),
	.msa_clause = VULN_CLAUSE("NVIDIA GPU driver"),
	.refs = refs_drv,
	.sends = VULN_SENDS(SRC_DRV),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};

const struct fa_check fa_chk_host_runc_vuln = {
	.id = "HOST-RUNC-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable runc",
	.rationale = VULN_RATIONALE("runc"),
	.remediation = VULN_REMEDIATION("runc"),
	.msa_clause = VULN_CLAUSE("runc"),
	.refs = refs_runc,
	.sends = VULN_SENDS(SRC_RUNC),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};

const struct fa_check fa_chk_host_containerd_vuln = {
	.id = "HOST-CONTAINERD-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable containerd",
	.rationale = VULN_RATIONALE("containerd"),
	.remediation = VULN_REMEDIATION("containerd"),
	.msa_clause = VULN_CLAUSE("containerd"),
	.refs = refs_ctrd,
	.sends = VULN_SENDS(SRC_CTRD),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};

const struct fa_check fa_chk_host_docker_vuln = {
	.id = "HOST-DOCKER-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable Docker Engine",
	.rationale = VULN_RATIONALE("Docker Engine (moby)"),
	.remediation = VULN_REMEDIATION("Docker Engine (moby)"),
	.msa_clause = VULN_CLAUSE("Docker Engine (moby)"),
	.refs = refs_docker,
	.sends = VULN_SENDS(SRC_DOCKER),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};

const struct fa_check fa_chk_host_kernel_vuln = {
	.id = "HOST-KERNEL-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable Linux kernel",
	.rationale = VULN_RATIONALE("Linux kernel"),
	.remediation = VULN_REMEDIATION("Linux kernel"),
	.msa_clause = VULN_CLAUSE("Linux kernel"),
	.refs = refs_kernel,
	.sends = VULN_SENDS(SRC_KERNEL),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};

const struct fa_check fa_chk_host_buildkit_vuln = {
	.id = "HOST-BUILDKIT-VULN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Vulnerable BuildKit",
	.rationale = VULN_RATIONALE("BuildKit"),
	.remediation = VULN_REMEDIATION("BuildKit"),
	.msa_clause = VULN_CLAUSE("BuildKit"),
	.refs = refs_buildkit,
	.sends = VULN_SENDS(SRC_BUILDKIT),
	.outcomes = VULN_OUTCOMES,
	.eval = eval,
};
