/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * OSV 1.x records (ossf.github.io/osv-schema: golang/vulndb, GitHub
 * advisories, Ubuntu and Debian OSV) as feed records (core/cvefeed.h).
 * A file holds one OSV object or a JSON array of them.  Go modules of
 * runc, containerd and moby give affected ranges; Ubuntu and Debian
 * entries for their runc, containerd and docker.io packages give distro
 * verdicts.  Everything else, and withdrawn records, is skipped.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cvefeed.h"
#include "errors.h"
#include "util.h"
#include "version.h"

#define OSV_ID_MAX	64

struct osv_ctx {
	struct fa_feed	*f;
	const char	*name;
	char		 rid[OSV_ID_MAX + 1];	/* for errors */
	char		**why;
	/* The record being read: its feed records, per component, upstream
	 * (0) and distro (1); (size_t)-1 when not made yet. */
	size_t		 slot[2][FA_COMP_MAX];
	json_t		*rec;
};

static const struct {
	const char		*module;
	enum fa_component	 comp;
} osv_go[] = {
	{ "github.com/opencontainers/runc", FA_COMP_RUNC },
	{ "github.com/containerd/containerd", FA_COMP_CONTAINERD },
	{ "github.com/containerd/containerd/v2", FA_COMP_CONTAINERD },
	{ "github.com/docker/docker", FA_COMP_DOCKER },
	{ "github.com/moby/moby", FA_COMP_DOCKER },
	{ "github.com/moby/moby/v2", FA_COMP_DOCKER },
	{ "github.com/moby/buildkit", FA_COMP_BUILDKIT },
};

static const struct {
	const char		*pkg;
	enum fa_component	 comp;
} osv_distro_pkgs[] = {
	{ "runc", FA_COMP_RUNC },
	{ "runc-app", FA_COMP_RUNC },		/* Ubuntu, from 2024 */
	{ "runc-stable", FA_COMP_RUNC },	/* Ubuntu 25.10 */
	{ "containerd", FA_COMP_CONTAINERD },
	{ "containerd-app", FA_COMP_CONTAINERD },
	{ "containerd-stable", FA_COMP_CONTAINERD },
	{ "docker.io", FA_COMP_DOCKER },
	{ "docker.io-app", FA_COMP_DOCKER },
	{ "docker", FA_COMP_DOCKER },		/* RHEL 7 */
	{ "moby-engine", FA_COMP_DOCKER },	/* Fedora */
	{ "linux", FA_COMP_KERNEL },		/* Debian, Ubuntu */
	{ "kernel", FA_COMP_KERNEL },		/* RPM distributions */
};

/* Members whose type, when present, is checked before anything is read. */
static const struct {
	const char	*key;
	json_type	 type;
} osv_types[] = {
	{ "aliases", JSON_ARRAY }, { "upstream", JSON_ARRAY },
	{ "related", JSON_ARRAY }, { "references", JSON_ARRAY },
	{ "severity", JSON_ARRAY }, { "summary", JSON_STRING },
	{ "details", JSON_STRING }, { "published", JSON_STRING },
	{ "modified", JSON_STRING }, { "database_specific", JSON_OBJECT },
};

static const char *const osv_debian_names[][2] = {
	{ "11", "bullseye" }, { "12", "bookworm" }, { "13", "trixie" },
};

/* An OSV ID: 1 to OSV_ID_MAX of [A-Za-z0-9._:-]. */
static int
osv_id_ok(const char *s)
{
	size_t i;

	if (s == NULL)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (i >= OSV_ID_MAX || !(isalnum((unsigned char)s[i]) ||
		    strchr("._:-", s[i]) != NULL))
			return 0;
	return i > 0;
}

static int
osv_bad(struct osv_ctx *c, const char *path, const char *what)
{
	return fa_why(c->why, "%s: %s: %s: %s", c->name, c->rid, path, what);
}

/*
 * The record's CVE: the ID itself, else the first CVE among "aliases",
 * else (Ubuntu and Debian OSV: UBUNTU-CVE-..., DEBIAN-CVE-...) the ID
 * without its prefix, else the only CVE of "upstream" (OSV 1.6); NULL
 * when none.
 */
static const char *
osv_cve(json_t *rec, const char *id)
{
	json_t *a = json_object_get(rec, "aliases"), *u;
	const char *s, *p;
	size_t i;

	if (fa_feed_cve_id_ok(id))
		return id;
	for (i = 0; i < json_array_size(a); i++)
		if (fa_feed_cve_id_ok(s = json_string_value(
		    json_array_get(a, i))))
			return s;
	if ((p = strstr(id, "-CVE-")) != NULL && fa_feed_cve_id_ok(p + 1))
		return p + 1;
	u = json_object_get(rec, "upstream");
	if (json_array_size(u) == 1 &&
	    fa_feed_cve_id_ok(s = json_string_value(json_array_get(u, 0))))
		return s;
	return NULL;
}

/* Who speaks: vulndb's review_status, GHSA's github_reviewed. */
static enum fa_feed_trust
osv_trust(json_t *rec)
{
	json_t *ds = json_object_get(rec, "database_specific");
	const char *rs = json_string_value(json_object_get(ds,
	    "review_status"));
	json_t *gr = json_object_get(ds, "github_reviewed");

	if (rs != NULL && strcmp(rs, "UNREVIEWED") == 0)
		return FA_TRUST_UNREVIEWED;
	if (json_is_false(gr))
		return FA_TRUST_UNREVIEWED;
	return FA_TRUST_REVIEWED;
}

/*
 * A numeric score from database_specific.cvss {"score", "vector_string"}
 * (as GitHub's API gives it); the OSV "severity" vectors are not scores
 * and are not scored here.
 */
static int
osv_cvss(struct fa_feed_rec *r, json_t *rec)
{
	json_t *cv = json_object_get(json_object_get(rec,
	    "database_specific"), "cvss");
	json_t *sc = json_object_get(cv, "score");
	const char *vs = json_string_value(json_object_get(cv,
	    "vector_string"));
	const char *ver;

	if (!json_is_number(sc) || vs == NULL)
		return 0;
	if (strncmp(vs, "CVSS:3.1/", 9) == 0)
		ver = "3.1";
	else if (strncmp(vs, "CVSS:4.0/", 9) == 0)
		ver = "4.0";
	else
		return 0;
	if (json_number_value(sc) < 0 || json_number_value(sc) > 10)
		return 0;
	r->cvss = json_number_value(sc);
	return (r->cvss_version = fa_strdup(ver)) != NULL ? 0 : FA_ERR_NOMEM;
}

/* The first ADVISORY reference's URL, else the first WEB one. */
static int
osv_advisory(struct osv_ctx *c, struct fa_feed_rec *r, json_t *rec)
{
	json_t *refs = json_object_get(rec, "references"), *e;
	static const char *const types[] = { "ADVISORY", "WEB" };
	const char *t, *u;
	char path[64];
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < json_array_size(refs); i++) {
			e = json_array_get(refs, i);
			t = json_string_value(json_object_get(e, "type"));
			if (t == NULL || strcmp(t, types[k]) != 0)
				continue;
			u = json_string_value(json_object_get(e, "url"));
			snprintf(path, sizeof(path), "references[%zu].url", i);
			if (u == NULL || strncmp(u, "https://", 8) != 0 ||
			    (r->advisory = fa_feed_str(u)) == NULL)
				return osv_bad(c, path, "not an https URL of "
				    "at most 400 printable bytes");
			return 0;
		}
	return 0;
}

/*
 * One of published / modified into *out (NULL when absent).  The
 * golang/vulndb repository's own files carry "0001-01-01T00:00:00Z" in
 * both (vuln.go.dev fills in the real dates): that is no date.
 */
static int
osv_date(struct osv_ctx *c, json_t *rec, const char *key, char **out)
{
	const char *s = json_string_value(json_object_get(rec, key));
	char d[11];

	*out = NULL;
	if (s == NULL)
		return 0;
	if (fa_feed_date(s, d) != 0)
		return osv_bad(c, key, "not an RFC 3339 date");
	if (strcmp(d, "0001-01-01") == 0)
		return 0;
	return (*out = fa_strdup(d)) != NULL ? 0 : FA_ERR_NOMEM;
}

/* published / modified; f->newest from modified, else published. */
static int
osv_dates(struct osv_ctx *c, struct fa_feed_rec *r, json_t *rec)
{
	int e;

	if ((e = osv_date(c, rec, "published", &r->published)) != 0 ||
	    (e = osv_date(c, rec, "modified", &r->modified)) != 0)
		return e;
	if (r->modified == NULL && r->published == NULL)
		return 0;
	return fa_feed_saw_date(c->f, r->modified != NULL ? r->modified :
	    r->published);
}

/* The facts every feed record made from this OSV record shares. */
static int
osv_common(struct osv_ctx *c, struct fa_feed_rec *r, const char *cve,
    const char *id)
{
	const char *sum = json_string_value(json_object_get(c->rec,
	    "summary"));
	int e;

	if ((r->id = fa_strdup(cve != NULL ? cve : id)) == NULL ||
	    (cve != NULL && strcmp(cve, id) != 0 &&
	    (r->alias = fa_strdup(id)) == NULL))
		return FA_ERR_NOMEM;
	if (sum == NULL)
		sum = json_string_value(json_object_get(c->rec, "details"));
	if (sum != NULL)
		r->title = fa_feed_title(sum);
	r->trust = osv_trust(c->rec);
	if ((e = osv_cvss(r, c->rec)) != 0 ||
	    (e = osv_advisory(c, r, c->rec)) != 0)
		return e;
	return osv_dates(c, r, c->rec);
}

/* The feed record for (component, upstream or distro), made on demand. */
static int
osv_slot(struct osv_ctx *c, enum fa_component comp, int distro,
    struct fa_feed_rec **out)
{
	const char *id = json_string_value(json_object_get(c->rec, "id"));
	struct fa_feed_rec *r;
	size_t *s = &c->slot[distro][comp];
	int e;

	if (*s != (size_t)-1) {
		*out = &c->f->v[*s];
		return 0;
	}
	if (c->f->n >= FA_FEED_MAX_RECORDS)
		return fa_why(c->why, "%s: more than %d records", c->name,
		    FA_FEED_MAX_RECORDS);
	if ((r = fa_feed_add(c->f)) == NULL)
		return FA_ERR_NOMEM;
	*s = c->f->n - 1;
	r->component = comp;
	if ((e = osv_common(c, r, osv_cve(c->rec, id), id)) != 0)
		return e;
	if (distro)
		r->trust = FA_TRUST_DISTRO;
	*out = r;
	return 0;
}

/* One event's version: bounded, valid under scheme; "0" is NULL. */
static int
osv_ver(struct osv_ctx *c, const char *path, json_t *v,
    enum fa_ver_scheme sch, const char **out)
{
	const char *s = json_string_value(v), *err = NULL;

	if (s == NULL)
		return osv_bad(c, path, "not a string");
	if (strcmp(s, "0") == 0) {
		*out = NULL;
		return 0;
	}
	if (fa_version_valid(sch, s, &err) != 0)
		return osv_bad(c, path, err != NULL ? err : "bad version");
	*out = s;
	return 0;
}

/*
 * The events of one range as half-open ranges, in their order:
 * introduced opens a range, fixed closes it.  A "last_affected" cannot
 * be written as a half-open bound: the range stays open (fixed NULL),
 * which over-reports the versions after it rather than miss any.  A
 * "limit" bounds where to look in a repository, not what is affected,
 * and is ignored.  add() takes each range.
 */
static int
osv_events(struct osv_ctx *c, const char *rpath, json_t *ev,
    enum fa_ver_scheme sch,
    int (*add)(struct osv_ctx *, const char *, const char *, void *),
    void *arg)
{
	const char *lo = NULL, *v = NULL;
	char path[96];
	int open = 0, e;
	size_t i;
	json_t *o;

	if (!json_is_array(ev) || json_array_size(ev) > 64) {
		snprintf(path, sizeof(path), "%s.events", rpath);
		return osv_bad(c, path, "not an array of at most 64 events");
	}
	json_array_foreach(ev, i, o) {
		snprintf(path, sizeof(path), "%s.events[%zu]", rpath, i);
		if (!json_is_object(o) || json_object_size(o) != 1)
			return osv_bad(c, path, "not an object of one event");
		if (json_object_get(o, "limit") != NULL)
			continue;
		if ((e = osv_ver(c, path, json_object_iter_value(
		    json_object_iter(o)), sch, &v)) != 0)
			return e;
		if (json_object_get(o, "introduced") != NULL) {
			if (open && (e = add(c, lo, NULL, arg)) != 0)
				return e;
			lo = v;
			open = 1;
		} else if (json_object_get(o, "fixed") != NULL ||
		    json_object_get(o, "last_affected") != NULL) {
			if ((e = add(c, lo, json_object_get(o, "fixed") ?
			    v : NULL, arg)) != 0)
				return e;
			lo = NULL;
			open = 0;
		} else
			return osv_bad(c, path, "unknown event");
	}
	return open ? add(c, lo, NULL, arg) : 0;
}

static int
osv_add_range(struct osv_ctx *c, const char *lo, const char *hi, void *arg)
{
	if (fa_feed_add_range(arg, lo, hi) != 0)
		return osv_bad(c, "affected", "more than 64 ranges");
	return 0;
}

/*
 * A Go module's ranges.  Go names major version N >= 2 of a module
 * "path/vN" (Go modules reference, "Major version suffixes"), and OSV's
 * "introduced: 0" there means from that module's first version, not from
 * 0: github.com/containerd/containerd/v2's [0, 2.0.7) is [2, 2.0.7),
 * else it would hold every 1.x release too.  floor is "N", or NULL.
 */
struct go_range {
	struct fa_feed_rec	*r;
	const char		*floor;
};

static const char *
go_major_floor(const char *module, char *out, size_t len)
{
	const char *v = strrchr(module, '/');
	size_t i;

	if (v == NULL || v[1] != 'v' || v[2] == '\0' || v[2] == '0' ||
	    (v[2] == '1' && v[3] == '\0') || strlen(v + 2) >= len)
		return NULL;
	for (i = 2; v[i] != '\0'; i++)
		if (!isdigit((unsigned char)v[i]))
			return NULL;
	memcpy(out, v + 2, strlen(v + 2) + 1);
	return out;
}

static int
osv_add_go_range(struct osv_ctx *c, const char *lo, const char *hi,
    void *arg)
{
	const struct go_range *g = arg;

	return osv_add_range(c, lo == NULL ? g->floor : lo, hi, g->r);
}

/* A distro entry's first fixed version (the first range's). */
struct osv_fix {
	const char	*fixed;
	int		 seen;
};

static int
osv_add_fix(struct osv_ctx *c, const char *lo, const char *hi, void *arg)
{
	struct osv_fix *x = arg;

	(void)c;
	(void)lo;
	if (!x->seen || (x->fixed == NULL && hi != NULL))
		x->fixed = hi;
	x->seen = 1;
	return 0;
}

/* The affected entry's SEMVER / ECOSYSTEM ranges through add(). */
static int
osv_ranges(struct osv_ctx *c, size_t ai, json_t *aff, enum fa_ver_scheme sch,
    int (*add)(struct osv_ctx *, const char *, const char *, void *),
    void *arg)
{
	json_t *rs = json_object_get(aff, "ranges"), *r;
	const char *t;
	char path[64];
	size_t i;
	int e;

	if (rs != NULL && !json_is_array(rs)) {
		snprintf(path, sizeof(path), "affected[%zu].ranges", ai);
		return osv_bad(c, path, "not an array");
	}
	json_array_foreach(rs, i, r) {
		snprintf(path, sizeof(path), "affected[%zu].ranges[%zu]", ai,
		    i);
		if ((t = json_string_value(json_object_get(r, "type"))) ==
		    NULL)
			return osv_bad(c, path, "type: missing");
		if (strcmp(t, "GIT") == 0)
			continue;	/* commits, not versions */
		if (strcmp(t, "SEMVER") != 0 && strcmp(t, "ECOSYSTEM") != 0)
			return osv_bad(c, path, "type: not SEMVER, ECOSYSTEM "
			    "or GIT");
		if ((e = osv_events(c, path, json_object_get(r, "events"), sch,
		    add, arg)) != 0)
			return e;
	}
	return 0;
}

/*
 * "Ubuntu:22.04:LTS" -> "22.04", "Debian:12" -> "bookworm"; os set.
 * Ubuntu Pro / FIPS ecosystems are for subscribers' archives and are not
 * taken (0 with *rel empty).  The RPM distributions OSV carries, by the
 * major release their os-release VERSION_ID starts with: "AlmaLinux:9",
 * "Rocky Linux:9", "Red Hat:enterprise_linux:9::appstream" (a Red Hat
 * stream other than enterprise_linux is not taken).  Returns 0,
 * FA_ERR_INPUT for an ecosystem of no distribution known here or a release
 * that is not one, or FA_ERR_TOOBIG for a release longer than relsz - 1.
 */
static int
osv_release(const char *eco, const char **os, char *rel, size_t relsz)
{
	size_t i, n;

	rel[0] = '\0';
	if (strncmp(eco, "AlmaLinux:", 10) == 0) {
		*os = "almalinux";
		eco += 10;
	} else if (strncmp(eco, "Rocky Linux:", 12) == 0) {
		*os = "rocky";
		eco += 12;
	} else if (strncmp(eco, "Red Hat:", 8) == 0) {
		*os = "rhel";
		eco += 8;
		if (strncmp(eco, "enterprise_linux:", 17) != 0)
			return 0;
		eco += 17;
	} else if (strncmp(eco, "Debian:", 7) == 0) {
		*os = "debian";
		eco += 7;
		for (i = 0; i < 3; i++)
			if (strcmp(eco, osv_debian_names[i][0]) == 0)
				eco = osv_debian_names[i][1];
	} else if (strncmp(eco, "Ubuntu:", 7) == 0) {
		*os = "ubuntu";
		eco += 7;
		if (!isdigit((unsigned char)eco[0]))
			return 0;	/* Pro:, FIPS: ... */
	} else
		return FA_ERR_INPUT;
	n = strcspn(eco, ":");
	if (n == 0)
		return FA_ERR_INPUT;
	if (n >= relsz)
		return FA_ERR_TOOBIG;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)eco[i]) && eco[i] != '.')
			return FA_ERR_INPUT;
	memcpy(rel, eco, n);
	rel[n] = '\0';
	return 0;
}

/* Whether CVE s is among the first n strings of a. */
static int
osv_listed(json_t *a, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n && i < json_array_size(a); i++)
		if (json_is_string(json_array_get(a, i)) &&
		    strcmp(json_string_value(json_array_get(a, i)), s) == 0)
			return 1;
	return 0;
}

/*
 * An RPM distribution's advisory is about every CVE it lists, not one:
 * AlmaLinux's (ALSA-2024:0670) in "related", Rocky's and Red Hat's in
 * "upstream" (OSV 1.6).  The release's fix goes to a record per CVE,
 * each with the advisory's ID as its alias.
 */
static int
osv_related(struct osv_ctx *c, const char *path, enum fa_component comp,
    const char *os, const char *rel, const char *pkg, const char *fixed)
{
	const char *id = json_string_value(json_object_get(c->rec, "id"));
	json_t *rl = json_object_get(c->rec, "related");
	json_t *up = json_object_get(c->rec, "upstream");
	json_t *a;
	struct fa_feed_rec *r;
	const char *s;
	size_t i, n;
	int e;

	if (json_array_size(rl) > 256 || json_array_size(up) > 256)
		return osv_bad(c, json_array_size(rl) > 256 ? "related" :
		    "upstream", "more than 256 entries");
	n = json_array_size(rl) + json_array_size(up);
	for (i = 0; i < n; i++) {
		a = i < json_array_size(rl) ? rl : up;
		s = json_string_value(json_array_get(a, a == rl ? i :
		    i - json_array_size(rl)));
		/* each CVE once, whichever member or members name it */
		if (!fa_feed_cve_id_ok(s) || osv_listed(a, a == rl ? i :
		    i - json_array_size(rl), s) || (a == up &&
		    osv_listed(rl, json_array_size(rl), s)))
			continue;
		if (c->f->n >= FA_FEED_MAX_RECORDS)
			return fa_why(c->why, "%s: more than %d records",
			    c->name, FA_FEED_MAX_RECORDS);
		if ((r = fa_feed_add(c->f)) == NULL)
			return FA_ERR_NOMEM;
		r->component = comp;
		if ((e = osv_common(c, r, s, id)) != 0)
			return e;
		r->trust = FA_TRUST_DISTRO;
		if (fa_feed_add_distro(r, os, rel, pkg, fixed, fixed != NULL ?
		    "resolved" : "open") != 0)
			return osv_bad(c, path, "more than 256 releases");
	}
	return 0;
}

static int
osv_distro(struct osv_ctx *c, size_t ai, json_t *aff, const char *eco,
    const char *pkg)
{
	struct osv_fix x = { NULL, 0 };
	struct fa_feed_rec *r;
	const char *os = NULL;
	char rel[32], path[64];
	size_t i;
	int e;

	for (i = 0; i < sizeof(osv_distro_pkgs) / sizeof(osv_distro_pkgs[0]);
	    i++)
		if (strcmp(pkg, osv_distro_pkgs[i].pkg) == 0)
			break;
	snprintf(path, sizeof(path), "affected[%zu].package.ecosystem", ai);
	if (i == sizeof(osv_distro_pkgs) / sizeof(osv_distro_pkgs[0]))
		return 1;
	if (osv_release(eco, &os, rel, sizeof(rel)) != 0)
		return osv_bad(c, path, "not a release of the distribution");
	if (rel[0] == '\0')
		return 1;
	if ((e = osv_ranges(c, ai, aff, fa_distro_scheme(os), osv_add_fix,
	    &x)) != 0)
		return e;
	if (fa_distro_is_rpm(os) && osv_cve(c->rec, json_string_value(
	    json_object_get(c->rec, "id"))) == NULL)
		return osv_related(c, path, osv_distro_pkgs[i].comp, os, rel,
		    pkg, x.fixed);
	if ((e = osv_slot(c, osv_distro_pkgs[i].comp, 1, &r)) != 0)
		return e;
	if (fa_feed_add_distro(r, os, rel, pkg, x.fixed, x.fixed != NULL ?
	    "resolved" : "open") != 0)
		return osv_bad(c, path, "more than 256 releases");
	return 0;
}

/* One affected[] entry: 0 taken, 1 about something else, or an error. */
static int
osv_affected(struct osv_ctx *c, size_t ai, json_t *aff)
{
	json_t *p = json_object_get(aff, "package");
	const char *eco = json_string_value(json_object_get(p, "ecosystem"));
	const char *nm = json_string_value(json_object_get(p, "name"));
	struct fa_feed_rec *r;
	struct go_range g;
	char path[64], floor[8];
	size_t i;
	int e;

	snprintf(path, sizeof(path), "affected[%zu].package", ai);
	if (!json_is_object(aff) || eco == NULL || nm == NULL)
		return osv_bad(c, path, "missing, or no ecosystem and name");
	if (strncmp(eco, "Ubuntu:", 7) == 0 || strncmp(eco, "Debian:", 7) ==
	    0 || strncmp(eco, "AlmaLinux:", 10) == 0 ||
	    strncmp(eco, "Rocky Linux:", 12) == 0 ||
	    strncmp(eco, "Red Hat:", 8) == 0)
		return osv_distro(c, ai, aff, eco, nm);
	if (strcmp(eco, "Go") != 0)
		return 1;
	for (i = 0; i < sizeof(osv_go) / sizeof(osv_go[0]); i++)
		if (strcmp(nm, osv_go[i].module) == 0)
			break;
	if (i == sizeof(osv_go) / sizeof(osv_go[0]))
		return 1;
	if ((e = osv_slot(c, osv_go[i].comp, 0, &r)) != 0)
		return e;
	g.r = r;
	g.floor = go_major_floor(nm, floor, sizeof(floor));
	return osv_ranges(c, ai, aff, fa_component_scheme(osv_go[i].comp),
	    osv_add_go_range, &g);
}

static int
osv_record(struct osv_ctx *c, json_t *rec, size_t idx)
{
	json_t *affs, *aff;
	const char *id;
	size_t i, taken = 0;
	int e;

	snprintf(c->rid, sizeof(c->rid), "[%zu]", idx);
	if (!json_is_object(rec))
		return osv_bad(c, "", "not an OSV object");
	id = json_string_value(json_object_get(rec, "id"));
	if (!osv_id_ok(id))
		return osv_bad(c, "id", "missing or not 1-64 of "
		    "[A-Za-z0-9._:-]");
	snprintf(c->rid, sizeof(c->rid), "%s", id);
	for (i = 0; i < sizeof(osv_types) / sizeof(osv_types[0]); i++)
		if ((aff = json_object_get(rec, osv_types[i].key)) != NULL &&
		    json_typeof(aff) != osv_types[i].type)
			return osv_bad(c, osv_types[i].key, "wrong JSON type");
	if (json_object_get(rec, "withdrawn") != NULL) {
		c->f->skipped++;
		return 0;
	}
	affs = json_object_get(rec, "affected");
	if (affs != NULL && (!json_is_array(affs) ||
	    json_array_size(affs) > 256))
		return osv_bad(c, "affected", "not an array of at most 256");
	c->rec = rec;
	memset(c->slot, 0xff, sizeof(c->slot));
	json_array_foreach(affs, i, aff) {
		if ((e = osv_affected(c, i, aff)) < 0)
			return e;
		taken += e == 0;
	}
	if (taken == 0)
		c->f->skipped++;
	return 0;
}

int
fa_feed_parse_osv(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why)
{
	struct osv_ctx c;
	json_t *root, *v;
	json_error_t je;
	size_t i;
	int e = 0;

	*out = NULL;
	*why = NULL;
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.why = why;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return (*why = fa_json_errmsg(name, &je)) != NULL ?
		    FA_ERR_INPUT : FA_ERR_NOMEM;
	if ((c.f = fa_feed_new(FA_FEED_OSV, name, buf, len)) == NULL) {
		json_decref(root);
		return FA_ERR_NOMEM;
	}
	if (json_is_array(root)) {
		json_array_foreach(root, i, v)
			if ((e = osv_record(&c, v, i)) != 0)
				break;
	} else
		e = osv_record(&c, root, 0);
	json_decref(root);
	if (e != 0) {
		fa_feed_free(c.f);
		return e;
	}
	*out = c.f;
	return 0;
}
