/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host CVE catalogue: a dated JSON file (data/host-cves.json, or
 * --cve-db FILE) listing, per CVE, the component it affects, the version
 * ranges [introduced, fixed) per maintained line, CVSS, advisory and the
 * conditions that limit exposure.  Validated strictly on load (jansson's
 * json_unpack in strict mode: no unknown keys), every version checked
 * against its component's scheme; the parsed form borrows its strings
 * from the JSON it keeps.  The format is described in data/README.md.
 */
#ifndef FA_CVEDB_H
#define FA_CVEDB_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "version.h"

#define FA_CVEDB_FORMAT		2	/* written; 1 is still read */
#define FA_CVEDB_MAX_BYTES	(8u * 1024 * 1024)
#define FA_CVEDB_STALE_DAYS	90

enum fa_component {
	FA_COMP_TOOLKIT = 0,	/* nvidia-container-toolkit, libnvidia-container */
	FA_COMP_DRIVER,		/* NVIDIA data-center GPU driver */
	FA_COMP_RUNC,
	FA_COMP_CONTAINERD,
	FA_COMP_DOCKER,		/* Docker Engine (moby) */
	FA_COMP_KERNEL,
	FA_COMP_BUILDKIT,	/* moby/buildkit: buildkitd, and in dockerd */
	FA_COMP_MAX
};

/* Conditions that limit a CVE's exposure (bit = 1 << enum value). */
enum fa_cve_cond {
	FA_COND_LEGACY_MODE = 0,
	FA_COND_CDI_MODE,
	FA_COND_NOT_WITH_CRUN,
	FA_COND_NON_DEFAULT_CONFIG,
	FA_COND_GPU_ACCESS,
	FA_COND_HOST_NETWORK_ROOT,
	FA_COND_CONSOLE,
	FA_COND_AUTHZ_PLUGIN,
	FA_COND_OPERATOR_ACTION,
	FA_COND_MALICIOUS_IMAGE,
	FA_COND_USERNS,
	FA_COND_CGROUP_V1,
	FA_COND_MODULE_LOADED,
	FA_COND_LOCAL_HOST_USER,
	FA_COND_MAX
};

struct fa_cve_range {
	const char	*introduced;	/* NULL: from the beginning */
	const char	*fixed;		/* NULL: no fix on this line */
	const char	*note;		/* NULL if none */
	unsigned	 when;		/* the line holds only in these modes:
					 * 1 << FA_COND_CDI_MODE or
					 * FA_COND_LEGACY_MODE; 0 always */
	int		 mainline_only;	/* kernel: only the mainline fix is
					 * known, a stable release in the
					 * line may carry a backport */
};

/*
 * A distribution's verdict on one CVE for one release (format 2): the
 * source package and the first package version with the fix (Debian
 * ordering), or none with the tracker's status.
 */
enum fa_distro_status {
	FA_DISTRO_FIXED = 0,	/* fixed in `fixed` */
	FA_DISTRO_OPEN,		/* affected, no fix in the release yet */
	FA_DISTRO_NOT_AFFECTED,	/* the release's package never was */
	FA_DISTRO_UNDETERMINED,	/* the distribution has not decided */
};

struct fa_cve_distro {
	const char		*os;		/* "debian", "ubuntu" */
	const char		*release;	/* "bookworm", "noble" */
	const char		*package;	/* source package */
	const char		*fixed;		/* FIXED only */
	enum fa_distro_status	 status;
};

struct fa_cve {
	const char	*id;
	enum fa_component component;
	const char	*title;
	double		 cvss;		/* < 0 when the catalogue has none */
	const char	*cvss_version;	/* NULL with no score */
	const char	*advisory;
	struct fa_cve_range *ranges;
	size_t		 nranges;
	unsigned	 conditions;	/* 1 << enum fa_cve_cond */
	const char	*reopened_by;	/* toolkit [features] key, or NULL */
	const char	*mitigated_by;	/* toolkit [features] key, or NULL */
	int		 verified;	/* 1 "verified", 0 "secondary" */
	const char	*note;
	struct fa_cve_distro *distro;	/* format 2; may be empty */
	size_t		 ndistro;
	const char	*kev_added;	/* on CISA's KEV list since; NULL */
};

struct fa_cvedb {
	json_t		*json;		/* owns every string below */
	int		 format;	/* 1 or 2 */
	const char	*date;		/* YYYY-MM-DD */
	time_t		 date_t;	/* midnight UTC of date */
	const char	*valid_until;	/* YYYY-MM-DD, NULL (format 1) */
	time_t		 valid_until_t;
	struct fa_cve	*entries;
	size_t		 n;
};

/*
 * Validate and index a parsed catalogue (a reference to j is taken).  On
 * FA_ERR_INPUT *why (caller frees) names the first problem with its JSON
 * path: "entries[4].affected[1].fixed: invalid character in version".
 */
int fa_cvedb_from_json(json_t *j, struct fa_cvedb **out, char **why);
/* Parse text (at most FA_CVEDB_MAX_BYTES) then fa_cvedb_from_json. */
int fa_cvedb_parse(const char *buf, size_t len, struct fa_cvedb **out,
    char **why);
void fa_cvedb_free(struct fa_cvedb *db);

/* Whole days from the catalogue's date to now (negative if in the future). */
long fa_cvedb_age_days(const struct fa_cvedb *db, time_t now);
/*
 * Stale at now: past its valid_until, or, without one (format 1), more
 * than FA_CVEDB_STALE_DAYS after its date.
 */
int fa_cvedb_stale(const struct fa_cvedb *db, time_t now);

/* Whether os (an os-release ID) builds RPMs: rhel, rocky, fedora, ... */
int fa_distro_is_rpm(const char *os);
/* The ordering of os's package versions: FA_VER_RPM or FA_VER_DEBIAN. */
enum fa_ver_scheme fa_distro_scheme(const char *os);

/*
 * What a distribution says of the entry for a package version it built:
 * its data for (os, release, source package), and the verdict on debver
 * (Debian ordering, libdpkg; rpm's for an RPM distribution).  *verdict:
 * 1 affected (below the fix, or no fix yet), 0 not affected (at or above
 * the fix, or never affected), -1 unknown (no data for this release and
 * package, or undetermined).  *hit is the entry used, or NULL.
 * FA_ERR_INPUT with *errstr when debver is not a version of os's kind.
 */
int fa_cve_distro_verdict(const struct fa_cve *e, const char *os,
    const char *release, const char *package, const char *debver,
    int *verdict, const struct fa_cve_distro **hit, const char **errstr);
const char *fa_distro_status_name(enum fa_distro_status s);

/*
 * Whether version (in the component's scheme) lies in one of the entry's
 * ranges: *hit is that range or NULL; of overlapping ranges, one with no
 * `when` and no `mainline_only`, when there is one.  FA_ERR_INPUT with
 * *errstr when the version is not valid for the scheme.
 */
int fa_cve_match(const struct fa_cve *e, const char *version,
    const struct fa_cve_range **hit, const char **errstr);

const char *fa_component_name(enum fa_component c);
int fa_component_parse(const char *s, enum fa_component *out);
enum fa_ver_scheme fa_component_scheme(enum fa_component c);
const char *fa_cve_cond_name(enum fa_cve_cond c);
#endif
