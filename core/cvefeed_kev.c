/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CISA Known Exploited Vulnerabilities catalogue
 * (known_exploited_vulnerabilities.json) as feed records
 * (core/cvefeed.h): one record per entry about a component the catalogue
 * covers, with kev = 1 and the date CISA added it; the others are
 * skipped.  KEV only marks CVEs: it has no version ranges, and the merge
 * uses it to flag what other feeds describe.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cvefeed.h"
#include "errors.h"
#include "util.h"

struct kev_ctx {
	struct fa_feed	*f;
	const char	*name;
	char		**why;
};

/* Whether hay contains needle, ignoring ASCII case. */
static int
has_ci(const char *hay, const char *needle)
{
	size_t i, n = strlen(needle);

	for (i = 0; hay[i] != '\0'; i++)
		if (strncasecmp(hay + i, needle, n) == 0)
			return 1;
	return 0;
}

/* The component vendorProject/product name, or FA_COMP_MAX. */
static enum fa_component
kev_component(const char *vendor, const char *product)
{
	if (strcasecmp(vendor, "Linux") == 0 && has_ci(product, "kernel"))
		return FA_COMP_KERNEL;
	if (strcasecmp(vendor, "NVIDIA") == 0) {
		if (has_ci(product, "Container Toolkit"))
			return FA_COMP_TOOLKIT;
		if (has_ci(product, "GPU Display Driver") ||
		    has_ci(product, "driver"))
			return FA_COMP_DRIVER;
		return FA_COMP_MAX;
	}
	if (has_ci(vendor, "runc") || has_ci(product, "runc"))
		return FA_COMP_RUNC;
	if (has_ci(vendor, "containerd") || has_ci(product, "containerd"))
		return FA_COMP_CONTAINERD;
	if (has_ci(product, "BuildKit"))
		return FA_COMP_BUILDKIT;
	if (strcasecmp(vendor, "Docker") == 0 && !has_ci(product, "Desktop"))
		return FA_COMP_DOCKER;
	return FA_COMP_MAX;
}

/* The string member key of o, checked bounded and printable, or NULL. */
static const char *
kev_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	size_t i;

	if (s == NULL || strlen(s) > FA_FEED_STR_MAX)
		return NULL;
	for (i = 0; s[i] != '\0'; i++)
		if (!isprint((unsigned char)s[i]))
			return NULL;
	return s;
}

static int
kev_entry(struct kev_ctx *c, json_t *e, size_t i)
{
	const char *id, *vendor, *product, *added, *title;
	struct fa_feed_rec *r;
	enum fa_component comp;
	char d[11];

	if (!json_is_object(e))
		return fa_why(c->why, "%s: vulnerabilities[%zu]: not an object",
		    c->name, i);
	if (!fa_feed_cve_id_ok(id = kev_str(e, "cveID")))
		return fa_why(c->why, "%s: vulnerabilities[%zu].cveID: missing"
		    " or not a CVE ID", c->name, i);
	/* Only compared, never kept: any bounded string will do. */
	vendor = json_string_value(json_object_get(e, "vendorProject"));
	product = json_string_value(json_object_get(e, "product"));
	if (vendor == NULL || product == NULL ||
	    strlen(vendor) > FA_FEED_STR_MAX ||
	    strlen(product) > FA_FEED_STR_MAX)
		return fa_why(c->why, "%s: %s: vulnerabilities[%zu]: "
		    "vendorProject/product missing or longer than %d bytes",
		    c->name, id, i, FA_FEED_STR_MAX);
	added = kev_str(e, "dateAdded");
	if (fa_feed_date(added, d) != 0)
		return fa_why(c->why, "%s: %s: vulnerabilities[%zu].dateAdded:"
		    " not a date", c->name, id, i);
	if ((comp = kev_component(vendor, product)) == FA_COMP_MAX) {
		c->f->skipped++;
		return 0;
	}
	if (c->f->n >= FA_FEED_MAX_RECORDS)
		return fa_why(c->why, "%s: more than %d records", c->name,
		    FA_FEED_MAX_RECORDS);
	if ((r = fa_feed_add(c->f)) == NULL)
		return FA_ERR_NOMEM;
	r->component = comp;
	r->trust = FA_TRUST_REVIEWED;
	r->kev = 1;
	title = kev_str(e, "vulnerabilityName");
	if ((r->id = fa_strdup(id)) == NULL ||
	    (r->kev_added = fa_strdup(d)) == NULL ||
	    (title != NULL && (r->title = fa_strdup(title)) == NULL))
		return FA_ERR_NOMEM;
	return 0;
}

/* The catalogue's head: count equal to the array's length, the date. */
static int
kev_head(struct kev_ctx *c, json_t *root, json_t **vulns)
{
	json_t *cnt = json_object_get(root, "count");
	const char *rel = kev_str(root, "dateReleased");

	*vulns = json_object_get(root, "vulnerabilities");
	if (!json_is_array(*vulns))
		return fa_why(c->why, "%s: vulnerabilities: missing or not an "
		    "array", c->name);
	if (!json_is_integer(cnt) || json_integer_value(cnt) < 0 ||
	    json_integer_value(cnt) > FA_FEED_MAX_RECORDS)
		return fa_why(c->why, "%s: count: missing or not an integer "
		    "in [0, %d]", c->name, FA_FEED_MAX_RECORDS);
	if ((size_t)json_integer_value(cnt) != json_array_size(*vulns))
		return fa_why(c->why, "%s: count: %lld but vulnerabilities "
		    "holds %zu", c->name, (long long)json_integer_value(cnt),
		    json_array_size(*vulns));
	if (rel == NULL || fa_feed_saw_date(c->f, rel) != 0)
		return fa_why(c->why, "%s: dateReleased: missing or not a "
		    "date", c->name);
	return 0;
}

int
fa_feed_parse_kev(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why)
{
	struct kev_ctx c = { NULL, name, why };
	json_t *root, *vulns;
	json_error_t je;
	size_t i;
	int r;

	*out = NULL;
	*why = NULL;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return (*why = fa_json_errmsg(name, &je)) != NULL ?
		    FA_ERR_INPUT : FA_ERR_NOMEM;
	if (!json_is_object(root)) {
		json_decref(root);
		return fa_why(why, "%s: not a JSON object", name);
	}
	if ((c.f = fa_feed_new(FA_FEED_KEV, name, buf, len)) == NULL) {
		json_decref(root);
		return FA_ERR_NOMEM;
	}
	r = kev_head(&c, root, &vulns);
	for (i = 0; r == 0 && i < json_array_size(vulns); i++)
		r = kev_entry(&c, json_array_get(vulns, i), i);
	json_decref(root);
	if (r != 0) {
		fa_feed_free(c.f);
		return r;
	}
	*out = c.f;
	return 0;
}
