/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Debian security tracker's JSON (security-tracker.debian.org/tracker
 * /data/json) as feed records (core/cvefeed.h): per source package the
 * catalogue covers and per CVE, one record whose distro entries give each
 * release's status and first fixed package version.  Other packages, and
 * the tracker's TEMP- pseudo IDs, are skipped without being copied.  The
 * tracker has no dates: f->newest stays NULL and the build uses the
 * file's own date.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cvefeed.h"
#include "errors.h"
#include "util.h"
#include "version.h"

#define DEB_MAX_BYTES	((size_t)512 * 1024 * 1024)

struct deb_ctx {
	struct fa_feed	*f;
	const char	*name;
	const char	*pkg;
	const char	*cve;
	char		**why;
};

static const struct {
	const char		*pkg;
	int			 prefix;	/* a prefix of the name */
	enum fa_component	 comp;
} deb_pkgs[] = {
	{ "runc", 0, FA_COMP_RUNC },
	{ "containerd", 0, FA_COMP_CONTAINERD },
	{ "docker.io", 0, FA_COMP_DOCKER },
	{ "linux", 0, FA_COMP_KERNEL },
	{ "nvidia-graphics-drivers", 0, FA_COMP_DRIVER },
	{ "nvidia-graphics-drivers-tesla", 1, FA_COMP_DRIVER },
	{ "nvidia-container-toolkit", 0, FA_COMP_TOOLKIT },
	{ "libnvidia-container", 0, FA_COMP_TOOLKIT },
};

static enum fa_component
deb_component(const char *pkg)
{
	size_t i, n;

	for (i = 0; i < sizeof(deb_pkgs) / sizeof(deb_pkgs[0]); i++) {
		n = strlen(deb_pkgs[i].pkg);
		if (deb_pkgs[i].prefix ? strncmp(pkg, deb_pkgs[i].pkg, n) == 0 :
		    strcmp(pkg, deb_pkgs[i].pkg) == 0)
			return deb_pkgs[i].comp;
	}
	return FA_COMP_MAX;
}

/* A release name: 1 to 32 lower-case letters, digits or '-'. */
static int
deb_release_ok(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (i >= 32 || !(islower((unsigned char)s[i]) ||
		    isdigit((unsigned char)s[i]) || s[i] == '-'))
			return 0;
	return i > 0;
}

static int
deb_bad(struct deb_ctx *c, const char *rel, const char *what)
{
	return fa_why(c->why, "%s: %s: %s.%s.releases.%s%s", c->name,
	    c->cve, c->pkg, c->cve, rel, what);
}

/* One release's verdict into r's distro entries. */
static int
deb_release(struct deb_ctx *c, struct fa_feed_rec *r, const char *rel,
    json_t *o)
{
	const char *st, *fx, *urg, *err = NULL, *status;
	json_t *j;

	if (!deb_release_ok(rel))
		return fa_why(c->why, "%s: %s: %s.%s.releases: a release "
		    "name is not 1-32 of [a-z0-9-]", c->name, c->cve, c->pkg,
		    c->cve);
	if (!json_is_object(o))
		return deb_bad(c, rel, ": not an object");
	if ((st = json_string_value(json_object_get(o, "status"))) == NULL)
		return deb_bad(c, rel, ".status: missing or not a string");
	j = json_object_get(o, "fixed_version");
	if (j != NULL && !json_is_string(j))
		return deb_bad(c, rel, ".fixed_version: not a string");
	fx = json_string_value(j);
	urg = json_string_value(json_object_get(o, "urgency"));
	if (strcmp(st, "resolved") == 0) {
		if (fx == NULL)
			return deb_bad(c, rel, ".fixed_version: missing on a "
			    "resolved release");
		status = strcmp(fx, "0") == 0 ? "not-affected" : "resolved";
		if (strcmp(fx, "0") == 0)
			fx = NULL;
		else if (fa_version_valid(FA_VER_DEBIAN, fx, &err) != 0)
			return fa_why(c->why, "%s: %s: %s.%s.releases.%s."
			    "fixed_version: %s", c->name, c->cve, c->pkg,
			    c->cve, rel, err);
	} else if (strcmp(st, "open") == 0 ||
	    strcmp(st, "undetermined") == 0) {
		fx = NULL;
		status = urg != NULL && strcmp(urg, "end-of-life") == 0 ?
		    "end-of-life" : st;
	} else
		return deb_bad(c, rel, ".status: not resolved, open or "
		    "undetermined");
	if (fa_feed_add_distro(r, "debian", rel, c->pkg, fx, status) != 0)
		return deb_bad(c, rel, ": cannot be kept (more than 256 "
		    "releases, or out of memory)");
	return 0;
}

/* One (package, CVE) pair as a record. */
static int
deb_cve(struct deb_ctx *c, enum fa_component comp, json_t *o)
{
	const char *desc, *rel;
	struct fa_feed_rec *r;
	json_t *rels, *v;

	if (!json_is_object(o))
		return fa_why(c->why, "%s: %s: %s.%s: not an object", c->name,
		    c->cve, c->pkg, c->cve);
	rels = json_object_get(o, "releases");
	if (!json_is_object(rels))
		return fa_why(c->why, "%s: %s: %s.%s.releases: missing or not "
		    "an object", c->name, c->cve, c->pkg, c->cve);
	if (c->f->n >= FA_FEED_MAX_RECORDS)
		return fa_why(c->why, "%s: more than %d records", c->name,
		    FA_FEED_MAX_RECORDS);
	if ((r = fa_feed_add(c->f)) == NULL)
		return FA_ERR_NOMEM;
	r->component = comp;
	r->trust = FA_TRUST_DISTRO;
	if ((r->id = fa_strdup(c->cve)) == NULL)
		return FA_ERR_NOMEM;
	desc = json_string_value(json_object_get(o, "description"));
	if (desc != NULL)
		r->title = fa_feed_title(desc);
	json_object_foreach(rels, rel, v) {
		int e = deb_release(c, r, rel, v);

		if (e != 0)
			return e;
	}
	return 0;
}

static int
deb_package(struct deb_ctx *c, json_t *o)
{
	enum fa_component comp = deb_component(c->pkg);
	const char *cve;
	json_t *v;
	int e;

	if (comp == FA_COMP_MAX)
		return 0;
	if (!json_is_object(o))
		return fa_why(c->why, "%s: %s: not an object", c->name, c->pkg);
	json_object_foreach(o, cve, v) {
		if (strlen(cve) > 32 || !fa_feed_cve_id_ok(cve)) {
			/* TEMP-nnnnnnn-xxxxxx: no CVE yet; the merge is per
			 * CVE. */
			c->f->skipped++;
			continue;
		}
		c->cve = cve;
		if ((e = deb_cve(c, comp, v)) != 0)
			return e;
	}
	return 0;
}

int
fa_feed_parse_debian(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why)
{
	struct deb_ctx c = { NULL, name, NULL, NULL, why };
	json_t *root, *v;
	json_error_t je;
	int e = 0;

	*out = NULL;
	*why = NULL;
	if (len > DEB_MAX_BYTES)
		return fa_why(why, "%s: %zu bytes: more than the %zu the "
		    "tracker's JSON may take", name, len, DEB_MAX_BYTES);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return (*why = fa_json_errmsg(name, &je)) != NULL ?
		    FA_ERR_INPUT : FA_ERR_NOMEM;
	if (!json_is_object(root)) {
		json_decref(root);
		return fa_why(why, "%s: not a JSON object of source packages",
		    name);
	}
	if ((c.f = fa_feed_new(FA_FEED_DEBIAN, name, buf, len)) == NULL) {
		json_decref(root);
		return FA_ERR_NOMEM;
	}
	json_object_foreach(root, c.pkg, v) {
		if ((e = deb_package(&c, v)) != 0)
			break;
	}
	json_decref(root);
	if (e != 0) {
		fa_feed_free(c.f);
		return e;
	}
	*out = c.f;
	return 0;
}
