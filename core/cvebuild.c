/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The merge of advisory feeds into a host CVE catalogue (see cvebuild.h).
 * Records are grouped by (CVE, component) after a sort; each group makes
 * at most one catalogue entry.  Nothing here reads a file: the command
 * (scanner/cmd_catalogue.c) loads the inputs and writes the outputs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cvebuild.h"
#include "cvedb.h"
#include "errors.h"
#include "util.h"

#define TRUST_KEY	"_ranges_trust"	/* build-time only */
#define NONE_KEY	"_no_ranges"	/* build-time: why no ranges */

struct ref {
	const struct fa_feed_rec	*r;
	const struct fa_feed		*f;
};

struct build {
	const struct fa_cvebuild_in	*in;
	struct ref			*refs;
	size_t				 n;
	json_t				*entries, *conflicts, *left_out;
	json_t				*partly;	/* entries read in
							   part: why */
	json_t				*overlay_used;
	unsigned char			*overlay_done;	/* per overlay entry */
};

static int
ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = strcmp(x->r->id, y->r->id);

	if (c != 0)
		return c;
	if (x->r->component != y->r->component)
		return x->r->component < y->r->component ? -1 : 1;
	return x->r->trust < y->r->trust ? -1 : x->r->trust > y->r->trust;
}

/* The canonical home of each kind of feed, for the catalogue's sources. */
static const char *
kind_url(enum fa_feed_kind k)
{
	switch (k) {
	case FA_FEED_OSV:
		return "https://osv.dev/";
	case FA_FEED_CVE5:
		return "https://www.cve.org/";
	case FA_FEED_CSAF:
		return "https://www.nvidia.com/en-us/product-security/";
	case FA_FEED_DEBIAN:
		return "https://security-tracker.debian.org/tracker/";
	case FA_FEED_KEV:
		return "https://www.cisa.gov/known-exploited-vulnerabilities-"
		    "catalog";
	default:
		return "https://github.com/";
	}
}

/* The ranges of refs [a, b) from feed f, as a sorted set of pairs. */
static json_t *
range_set(const struct ref *v, size_t a, size_t b, const struct fa_feed *f)
{
	json_t *set = json_array(), *p;
	size_t i, k, j;
	int dup;

	for (i = a; set != NULL && i < b; i++) {
		if (v[i].f != f)
			continue;
		for (k = 0; k < v[i].r->nranges; k++) {
			p = json_pack("{s:s?, s:s?}", "introduced",
			    v[i].r->ranges[k].introduced, "fixed",
			    v[i].r->ranges[k].fixed);
			if (p != NULL && v[i].r->ranges[k].mainline_only &&
			    json_object_set_new(p, "mainline_only",
			    json_true()) != 0) {
				json_decref(p);
				p = NULL;
			}
			if (p == NULL) {
				json_decref(set);
				return NULL;
			}
			for (j = 0, dup = 0; j < json_array_size(set); j++)
				dup |= json_equal(json_array_get(set, j), p);
			if (dup)
				json_decref(p);
			else if (json_array_append_new(set, p) != 0) {
				json_decref(set);
				return NULL;
			}
		}
	}
	return set;
}

/* Two range sets hold the same ranges (in any order). */
static int
same_ranges(const json_t *x, const json_t *y)
{
	size_t i, j;
	int found;

	if (json_array_size(x) != json_array_size(y))
		return 0;
	for (i = 0; i < json_array_size(x); i++) {
		for (j = 0, found = 0; j < json_array_size(y) && !found; j++)
			found = json_equal(json_array_get(x, i),
			    json_array_get(y, j));
		if (!found)
			return 0;
	}
	return 1;
}

static int
add_conflict(struct build *b, const char *id, enum fa_component comp,
    const char *what, const struct fa_feed *kf, const struct fa_feed_rec *kr,
    json_t *kept, const struct fa_feed *of, const struct fa_feed_rec *or,
    json_t *other)
{
	json_t *c = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:O}, "
	    "s:{s:s, s:s, s:O}}", "cve", id, "component",
	    fa_component_name(comp), "about", what, "kept", "input", kf->name,
	    "trust", fa_feed_trust_name(kr->trust), "value", kept, "other",
	    "input", of->name, "trust", fa_feed_trust_name(or->trust),
	    "value", other);

	return c != NULL && json_array_append_new(b->conflicts, c) == 0 ? 0 :
	    FA_ERR_NOMEM;
}

/*
 * Another source of the same trust (a later bulletin of the same vendor
 * adding the fixes of more branches): its lines are added to kept; a line
 * both give (the same introduced version) with another fixed version is
 * a conflict, the first source's kept.  0 or FA_ERR_NOMEM.
 */
static int
unite(struct build *b, const struct ref *v, size_t k, size_t i,
    json_t *kept, const json_t *other)
{
	const json_t *o, *x;
	json_t *pair;
	size_t n, j;

	json_array_foreach(other, n, o) {
		for (j = 0, x = NULL; j < json_array_size(kept); j++) {
			x = json_array_get(kept, j);
			if (json_equal(json_object_get(x, "introduced"),
			    json_object_get(o, "introduced")))
				break;
		}
		if (j == json_array_size(kept)) {
			if (json_array_append(kept, (json_t *)o) != 0)
				return FA_ERR_NOMEM;
			continue;
		}
		if (json_equal(x, o))
			continue;
		pair = json_pack("[O]", o);
		if (pair == NULL || add_conflict(b, v[k].r->id,
		    v[k].r->component, "a line's fixed version", v[k].f,
		    v[k].r, (json_t *)x, v[i].f, v[i].r, pair) != 0) {
			json_decref(pair);
			return FA_ERR_NOMEM;
		}
		json_decref(pair);
	}
	return 0;
}

/*
 * The affected ranges of group [a, e): those of the first feed (in input
 * order of the sorted refs: most trusted first) that has any, with the
 * other lines of sources as trusted (unite); a less trusted source whose
 * set differs is a conflict.  NULL-free: an empty array
 * when no source has ranges.
 */
static json_t *
pick_ranges(struct build *b, size_t a, size_t e, int *err)
{
	const struct ref *v = b->refs;
	json_t *kept = NULL, *other;
	size_t i, k = e;

	*err = 0;
	for (i = a; i < e && kept == NULL; i++)
		if (v[i].r->nranges > 0 && v[i].r->trust != FA_TRUST_DISTRO) {
			k = i;
			if ((kept = range_set(v, a, e, v[i].f)) == NULL)
				*err = FA_ERR_NOMEM;
		}
	if (kept == NULL)
		return *err == 0 ? json_array() : NULL;
	for (i = a; i < e; i++) {
		if (v[i].f == v[k].f || v[i].r->nranges == 0 ||
		    v[i].r->trust == FA_TRUST_DISTRO)
			continue;
		/* The same feed's other records were taken with it. */
		if (i > a && v[i - 1].f == v[i].f)
			continue;
		if ((other = range_set(v, a, e, v[i].f)) == NULL) {
			*err = FA_ERR_NOMEM;
			break;
		}
		if (v[i].r->trust == v[k].r->trust)
			*err = unite(b, v, k, i, kept, other);
		else if (!same_ranges(kept, other) && add_conflict(b,
		    v[a].r->id, v[a].r->component, "affected ranges", v[k].f,
		    v[k].r, kept, v[i].f, v[i].r, other) != 0)
			*err = FA_ERR_NOMEM;
		json_decref(other);
		if (*err != 0)
			break;
	}
	if (*err != 0) {
		json_decref(kept);
		return NULL;
	}
	return kept;
}

static json_t *
distro_row(const struct fa_feed_distro *d)
{
	const char *st = d->fixed != NULL ? "fixed" : d->status == NULL ?
	    "undetermined" : strcmp(d->status, "not-affected") == 0 ?
	    "not-affected" : strcmp(d->status, "open") == 0 ? "open" :
	    "undetermined";

	return json_pack("{s:s, s:s, s:s, s:s, s:s?}", "os", d->os,
	    "release", d->release, "package", d->package, "status", st,
	    "fixed", d->fixed);
}

/*
 * The distribution rows of group [a, e), one per (os, release, package);
 * two feeds that disagree on one: a conflict, and neither is kept.
 */
static json_t *
pick_distro(struct build *b, size_t a, size_t e, int *err)
{
	const struct ref *v = b->refs;
	json_t *rows = json_array(), *row, *old = NULL;
	size_t i, k, j;

	*err = 0;
	if (rows == NULL)
		return NULL;
	for (i = a; i < e && *err == 0; i++)
		for (k = 0; k < v[i].r->ndistro && *err == 0; k++) {
			if ((row = distro_row(&v[i].r->distro[k])) == NULL) {
				*err = FA_ERR_NOMEM;
				break;
			}
			for (j = 0; j < json_array_size(rows); j++) {
				old = json_array_get(rows, j);
				if (json_equal(json_object_get(old, "os"),
				    json_object_get(row, "os")) &&
				    json_equal(json_object_get(old, "release"),
				    json_object_get(row, "release")) &&
				    json_equal(json_object_get(old, "package"),
				    json_object_get(row, "package")))
					break;
			}
			if (j == json_array_size(rows)) {
				if (json_array_append_new(rows, row) != 0)
					*err = FA_ERR_NOMEM;
				continue;
			}
			if (!json_equal(old, row) && add_conflict(b,
			    v[a].r->id, v[a].r->component, "distribution row",
			    v[a].f, v[a].r, old, v[i].f, v[i].r, row) != 0)
				*err = FA_ERR_NOMEM;
			/* Marked: disagreeing rows are dropped below. */
			if (!json_equal(old, row) && json_object_set_new(old,
			    "conflict", json_true()) != 0)
				*err = FA_ERR_NOMEM;
			json_decref(row);
		}
	if (*err != 0) {
		json_decref(rows);
		return NULL;
	}
	for (j = json_array_size(rows); j-- > 0; )
		if (json_object_get(json_array_get(rows, j), "conflict"))
			json_array_remove(rows, j);
	return rows;
}

/* The first record of [a, e) (most trusted first) with a title. */
static const struct fa_feed_rec *
with_title(const struct ref *v, size_t a, size_t e)
{
	for (; a < e; a++)
		if (v[a].r->title != NULL && v[a].r->trust != FA_TRUST_DISTRO)
			return v[a].r;
	return NULL;
}

static const struct fa_feed_rec *
with_cvss(const struct ref *v, size_t a, size_t e)
{
	for (; a < e; a++)
		if (v[a].r->cvss >= 0 && v[a].r->cvss <= 10 &&
		    v[a].r->cvss_version != NULL &&
		    (strcmp(v[a].r->cvss_version, "3.1") == 0 ||
		    strcmp(v[a].r->cvss_version, "4.0") == 0))
			return v[a].r;
	return NULL;
}

static const char *
advisory_of(const struct ref *v, size_t a, size_t e)
{
	for (; a < e; a++)
		if (v[a].r->advisory != NULL &&
		    strncmp(v[a].r->advisory, "https://", 8) == 0 &&
		    strchr(v[a].r->advisory, ' ') == NULL &&
		    strlen(v[a].r->advisory) <= 512)
			return v[a].r->advisory;
	return NULL;
}

/* The earliest KEV date of id among all records, or NULL. */
static const char *
kev_of(const struct build *b, const char *id)
{
	const char *d = NULL;
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->refs[i].r->kev && b->refs[i].r->kev_added != NULL &&
		    strcmp(b->refs[i].r->id, id) == 0 && (d == NULL ||
		    strcmp(b->refs[i].r->kev_added, d) < 0))
			d = b->refs[i].r->kev_added;
	return d;
}

/* A title the catalogue accepts: at most 200 bytes, cut at a space. */
static json_t *
title_json(const char *t, const char *id)
{
	char buf[201];
	size_t n;

	if (t == NULL || t[0] == '\0')
		t = id;
	if (strlen(t) <= 200)
		return json_string(t);
	memcpy(buf, t, 196);
	buf[196] = '\0';
	if ((n = (size_t)(strrchr(buf, ' ') - buf)) > 100 &&
	    strrchr(buf, ' ') != NULL)
		buf[n] = '\0';
	n = strlen(buf);
	memcpy(buf + n, "...", 4);
	return json_string(buf);
}

/* Whether the group's records are all from the KEV list (marks only). */
static int
kev_only(const struct ref *v, size_t a, size_t e)
{
	for (; a < e; a++)
		if (v[a].f->kind != FA_FEED_KEV)
			return 0;
	return 1;
}

static int
left_out(struct build *b, const char *id, enum fa_component c,
    const char *why)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "cve", id, "component",
	    fa_component_name(c), "why", why);

	return o != NULL && json_array_append_new(b->left_out, o) == 0 ? 0 :
	    FA_ERR_NOMEM;
}

/* The catalogue entry of group [a, e), or 0 with nothing added. */
static int
group_entry(struct build *b, size_t a, size_t e)
{
	const struct ref *v = b->refs;
	const struct fa_feed_rec *tr, *cr;
	const char *adv, *kev, *id = v[a].r->id;
	json_t *ranges, *distro, *ent;
	char url[96];
	size_t i;
	int err, verified = 0;

	if (kev_only(v, a, e))
		return 0;
	/* The catalogue is keyed by CVE: an advisory without one (a Go or
	 * GitHub advisory only) is reported, not invented an ID. */
	if (!fa_feed_cve_id_ok(id))
		return left_out(b, id, v[a].r->component, "no CVE identifier "
		    "(the catalogue is keyed by CVE)");
	if ((ranges = pick_ranges(b, a, e, &err)) == NULL)
		return err;
	if ((distro = pick_distro(b, a, e, &err)) == NULL) {
		json_decref(ranges);
		return err;
	}
	/* Who said what is affected: the KEV list only marks. */
	for (i = a; i < e; i++)
		verified |= v[i].f->kind != FA_FEED_KEV &&
		    (v[i].r->trust == FA_TRUST_VENDOR ||
		    v[i].r->trust == FA_TRUST_REVIEWED);
	tr = with_title(v, a, e);
	cr = with_cvss(v, a, e);
	if ((adv = advisory_of(v, a, e)) == NULL) {
		snprintf(url, sizeof(url), "https://www.cve.org/CVERecord?id="
		    "%s", id);
		adv = url;
	}
	kev = kev_of(b, id);
	ent = json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:o, s:[], s:s}",
	    "id", id, "component", fa_component_name(v[a].r->component),
	    "title", title_json(tr != NULL ? tr->title : NULL, id), "cvss",
	    cr != NULL ? json_real(cr->cvss) : json_null(), "cvss_version",
	    cr != NULL ? json_string(cr->cvss_version) : json_null(),
	    "advisory", adv, "affected", ranges, "conditions", "confidence",
	    verified ? "verified" : "secondary");
	if (ent == NULL) {
		json_decref(distro);
		return FA_ERR_NOMEM;
	}
	/* Why part of a record's versions gave no range, for the report
	 * (left out, or read in part). */
	for (i = a; i < e; i++)
		if (v[i].r->no_ranges != NULL) {
			if (json_object_set_new(ent, NONE_KEY, json_sprintf(
			    "%s: %s", v[i].f->name, v[i].r->no_ranges)) != 0) {
				json_decref(distro);
				json_decref(ent);
				return FA_ERR_NOMEM;
			}
			break;
		}
	for (i = a; i < e && json_array_size(ranges) > 0; i++)
		if (v[i].r->nranges > 0 && v[i].r->trust != FA_TRUST_DISTRO) {
			/* Whose ranges these are, for the overlay (removed
			 * before the catalogue is written). */
			if (json_object_set_new(ent, TRUST_KEY, json_string(
			    fa_feed_trust_name(v[i].r->trust))) != 0) {
				json_decref(distro);
				json_decref(ent);
				return FA_ERR_NOMEM;
			}
			break;
		}
	if ((json_array_size(distro) > 0 &&
	    json_object_set(ent, "distro", distro) != 0) || (kev != NULL &&
	    json_object_set_new(ent, "kev", json_pack("{s:s}", "added",
	    kev)) != 0) || json_array_append_new(b->entries, ent) != 0) {
		json_decref(distro);
		return FA_ERR_NOMEM;
	}
	json_decref(distro);
	return 0;
}

/* The overlay entry for (id, component) in the entries built, or NULL. */
static json_t *
find_entry(json_t *entries, const char *id, const char *comp)
{
	json_t *e;
	size_t i;

	json_array_foreach(entries, i, e)
		if (strcmp(json_string_value(json_object_get(e, "id")), id) ==
		    0 && strcmp(json_string_value(json_object_get(e,
		    "component")), comp) == 0)
			return e;
	return NULL;
}

static const char *const overlay_keys[] = {
	"conditions", "note", "reopened_by", "mitigated_by", NULL,
};

/*
 * The overlay's ranges, a branch written "580" (as the hand-kept
 * catalogue did) written "580.0" as the feeds write a branch's start:
 * the same line, so that they compare.  A new reference, or NULL for
 * none (or ENOMEM when ranges is not NULL).
 */
static json_t *
branch_starts(const json_t *ranges)
{
	static const char *const keys[] = { "introduced", "fixed" };
	json_t *c, *r;
	const char *v;
	size_t i, k, n;

	if (ranges == NULL || (c = json_deep_copy(ranges)) == NULL)
		return NULL;
	json_array_foreach(c, i, r)
		for (k = 0; k < 2; k++) {
			v = json_string_value(json_object_get(r, keys[k]));
			if (v == NULL || (n = strspn(v, "0123456789")) == 0 ||
			    v[n] != '\0' || json_object_set_new(r, keys[k],
			    json_sprintf("%s.0", v)) == 0)
				continue;
			json_decref(c);
			return NULL;
		}
	return c;
}

/*
 * Compare two bounds of version lines: a NULL "introduced" is minus
 * infinity, a NULL "fixed" plus infinity.  A version the scheme cannot
 * compare is an error (the loader refuses it later anyway).
 */
static int
bound_cmp(enum fa_ver_scheme sch, const json_t *a, int a_hi, const json_t *b,
    int b_hi, int *cmp)
{
	const char *x = json_string_value(a), *y = json_string_value(b);

	if (x == NULL || y == NULL) {
		*cmp = x == NULL && y == NULL && a_hi == b_hi ? 0 :
		    x == NULL ? (a_hi ? 1 : -1) : (b_hi ? -1 : 1);
		return 0;
	}
	return fa_version_cmp(sch, x, y, cmp, NULL);
}

#define LO(o)	json_object_get((o), "introduced"), 0
#define HI(o)	json_object_get((o), "fixed"), 1

/* Whether lines x and y share a version (1), not (0), or error (<0). */
static int
lines_overlap(enum fa_ver_scheme sch, const json_t *x, const json_t *y)
{
	int c1, c2;

	if (bound_cmp(sch, LO(y), HI(x), &c1) != 0 ||
	    bound_cmp(sch, LO(x), HI(y), &c2) != 0)
		return FA_ERR_INPUT;
	return c1 < 0 && c2 < 0;
}

/*
 * Lines of add that share no version with any line of have, appended to
 * have: the vendor's own lines stand, a line its machine-readable data
 * leaves out (a branch past its end of life) is added.
 */
static int
add_lines(enum fa_ver_scheme sch, json_t *have, const json_t *add)
{
	const json_t *o, *x;
	size_t i, j;
	int r = 0;

	json_array_foreach(add, i, o) {
		r = 0;
		json_array_foreach(have, j, x)
			if ((r = lines_overlap(sch, o, x)) != 0)
				break;
		if (r < 0)
			return r;
		if (r == 0 && json_array_append(have, (json_t *)o) != 0)
			return FA_ERR_NOMEM;
	}
	return 0;
}

/*
 * Whether lines of fine cut the lines of coarse into pieces and add no
 * version and leave none out: each line of fine lies in one of coarse,
 * a piece ends where the next begins or where its coarse line ends, and
 * every coarse line starts and ends with a piece.  The overlay then
 * says what the vendor says, line by line, with what prose adds (a
 * mode a line holds in).
 */
static int
refines(enum fa_ver_scheme sch, const json_t *coarse, const json_t *fine)
{
	const json_t *f, *c, *g, *in;
	size_t i, j, k;
	int lo, hi, starts, ends;

	json_array_foreach(fine, i, f) {
		in = NULL;
		json_array_foreach(coarse, j, c)
			if (bound_cmp(sch, LO(c), LO(f), &lo) == 0 &&
			    bound_cmp(sch, HI(f), HI(c), &hi) == 0 &&
			    lo <= 0 && hi <= 0) {
				in = c;
				break;
			}
		if (in == NULL)
			return 0;
		if (bound_cmp(sch, HI(f), HI(in), &hi) != 0)
			return 0;
		if (hi == 0)
			continue;
		json_array_foreach(fine, k, g)
			if (bound_cmp(sch, LO(g),
			    json_object_get(f, "fixed"), 1, &lo) == 0 &&
			    lo == 0)
				break;
		if (k == json_array_size(fine))
			return 0;
	}
	json_array_foreach(coarse, j, c) {
		starts = ends = 0;
		json_array_foreach(fine, i, f) {
			starts |= bound_cmp(sch, LO(c), LO(f), &lo) == 0 &&
			    lo == 0;
			ends |= bound_cmp(sch, HI(c), HI(f), &hi) == 0 &&
			    hi == 0;
		}
		if (!starts || !ends)
			return 0;
	}
	return 1;
}

/*
 * The overlay's distribution rows on a built entry: a row for a release
 * the feeds did not speak of is added; the feeds' own rows stay.
 */
static int
merge_rows(json_t *e, const json_t *rows)
{
	json_t *have = json_object_get(e, "distro"), *x;
	const json_t *o;
	size_t i, j;

	if (!json_is_array(rows) || json_array_size(rows) == 0)
		return 0;
	if (have == NULL) {
		if ((have = json_array()) == NULL ||
		    json_object_set_new(e, "distro", have) != 0)
			return FA_ERR_NOMEM;
	}
	json_array_foreach(rows, i, o) {
		json_array_foreach(have, j, x)
			if (json_equal(json_object_get(x, "os"),
			    json_object_get(o, "os")) &&
			    json_equal(json_object_get(x, "release"),
			    json_object_get(o, "release")) &&
			    json_equal(json_object_get(x, "package"),
			    json_object_get(o, "package")))
				break;
		if (j == json_array_size(have) &&
		    json_array_append(have, (json_t *)o) != 0)
			return FA_ERR_NOMEM;
	}
	return 0;
}

/*
 * Apply overlay entry o (validated by the loader later): on a built
 * entry it sets what no feed carries and fills ranges only where the
 * feeds had none; alone it becomes the entry.  Its source_url is kept in
 * the note and the report.
 */
static int
apply_overlay(struct build *b, size_t oi, const json_t *o, char **why)
{
	const char *id = json_string_value(json_object_get(o, "id"));
	const char *comp = json_string_value(json_object_get(o, "component"));
	const char *src = json_string_value(json_object_get(o, "source_url"));
	json_t *e, *copy, *v, *aff;
	const char *what = "conditions and notes", *trust;
	enum fa_component c;
	enum fa_ver_scheme sch;
	char *note;
	size_t k;
	int verified, win, r;

	if (id == NULL || comp == NULL || src == NULL ||
	    strncmp(src, "https://", 8) != 0)
		return fa_why(why, "overlay[%zu]: needs id, component and an "
		    "https source_url", oi);
	if (fa_component_parse(comp, &c) != 0)
		return fa_why(why, "overlay[%zu].component: not a component "
		    "the catalogue knows", oi);
	sch = fa_component_scheme(c);
	if ((e = find_entry(b->entries, id, comp)) == NULL) {
		if ((copy = json_deep_copy(o)) == NULL)
			return FA_ERR_NOMEM;
		json_object_del(copy, "source_url");
		e = copy;
		what = "the whole entry";
		if (json_array_append_new(b->entries, copy) != 0)
			return FA_ERR_NOMEM;
	} else {
		for (k = 0; overlay_keys[k] != NULL; k++)
			if ((v = json_object_get(o, overlay_keys[k])) != NULL &&
			    json_object_set(e, overlay_keys[k], v) != 0)
				return FA_ERR_NOMEM;
		if ((aff = branch_starts(json_object_get(o, "affected"))) ==
		    NULL && json_object_get(o, "affected") != NULL)
			return FA_ERR_NOMEM;
		trust = json_string_value(json_object_get(e, TRUST_KEY));
		/* Checked against the vendor's advisory: as good as the
		 * vendor, better than a database that read it. */
		verified = json_is_string(json_object_get(o, "confidence")) &&
		    strcmp(json_string_value(json_object_get(o, "confidence")),
		    "verified") == 0;
		if (aff != NULL && json_array_size(json_object_get(e,
		    "affected")) == 0) {
			if (json_object_set(e, "affected", aff) != 0) {
				json_decref(aff);
				return FA_ERR_NOMEM;
			}
			what = "affected ranges no feed gave, and conditions";
		} else if (aff != NULL && verified && !same_ranges(aff,
		    json_object_get(e, "affected")) && refines(sch,
		    json_object_get(e, "affected"), aff)) {
			if (json_object_set(e, "affected", aff) != 0) {
				json_decref(aff);
				return FA_ERR_NOMEM;
			}
			what = "the feeds' ranges cut where the advisory's "
			    "prose does (same versions), and conditions";
		} else if (aff != NULL && !same_ranges(aff,
		    json_object_get(e, "affected"))) {
			win = verified && trust != NULL &&
			    strcmp(trust, "vendor") != 0;
			v = json_pack("{s:s, s:s, s:s, s:s, s:O, s:O}", "cve",
			    id, "component", comp, "about", win ? "overlay "
			    "ranges, verified against the vendor's advisory, "
			    "kept over a database's" : "overlay ranges differ "
			    "from the feeds' (the feeds' kept)",
			    "source_url", src, "overlay", aff, "feeds",
			    json_object_get(e, "affected"));
			if (v == NULL ||
			    json_array_append_new(b->conflicts, v) != 0) {
				json_decref(aff);
				return FA_ERR_NOMEM;
			}
			if (win && json_object_set(e, "affected", aff) != 0) {
				json_decref(aff);
				return FA_ERR_NOMEM;
			}
			if (win)
				what = "affected ranges (over a database's), "
				    "and conditions";
			/* The overlay's note may argue for its ranges, which
			 * lost: the entry says so before it. */
			if (!win && (v = json_sprintf("the feeds' affected "
			    "ranges are kept over the overlay's, with any "
			    "overlay line on versions they do not cover (see "
			    "the build report's conflicts)%s%s",
			    json_is_string(json_object_get(o, "note")) ?
			    "; the overlay's note, written for its own "
			    "ranges: " : "", json_is_string(json_object_get(o,
			    "note")) ? json_string_value(json_object_get(o,
			    "note")) : "")) == NULL) {
				json_decref(aff);
				return FA_ERR_NOMEM;
			}
			if (!win && json_object_set_new(e, "note", v) != 0) {
				json_decref(aff);
				return FA_ERR_NOMEM;
			}
			/* The vendor's own lines stand; a line its machine-
			 * readable data leaves out (a branch past its end of
			 * life, affected with no fix) is added. */
			if (!win && verified && trust != NULL &&
			    (r = add_lines(sch, json_object_get(e, "affected"),
			    aff)) != 0) {
				json_decref(aff);
				return r != FA_ERR_INPUT ? r : fa_why(why,
				    "overlay[%zu]: a version its lines or the "
				    "feeds' give cannot be compared", oi);
			}
		}
		json_decref(aff);
		if ((r = merge_rows(e, json_object_get(o, "distro"))) != 0)
			return r;
		if (json_object_get(e, "kev") == NULL &&
		    json_object_get(o, "kev") != NULL &&
		    json_object_set(e, "kev", json_object_get(o, "kev")) != 0)
			return FA_ERR_NOMEM;
	}
	note = fa_strfmt("%s%s(overlay: %s)", json_string_value(
	    json_object_get(e, "note")) != NULL ? json_string_value(
	    json_object_get(e, "note")) : "", json_object_get(e, "note") !=
	    NULL ? " " : "", src);
	if (note == NULL || json_object_set_new(e, "note",
	    json_string(note)) != 0) {
		free(note);
		return FA_ERR_NOMEM;
	}
	free(note);
	b->overlay_done[oi] = 1;
	v = json_pack("{s:s, s:s, s:s, s:s}", "cve", id, "component", comp,
	    "source_url", src, "what", what);
	return v != NULL && json_array_append_new(b->overlay_used, v) == 0 ?
	    0 : FA_ERR_NOMEM;
}

/*
 * Per input, the records read and those passed over as about another
 * product (a CVE record naming vendor and product "n/a"), so that a
 * record that never reached the catalogue is counted somewhere.
 */
static json_t *
records_json(const struct fa_cvebuild_in *in)
{
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; a != NULL && i < in->nfeeds; i++) {
		o = json_pack("{s:s, s:I, s:I}", "name", in->feeds[i]->name,
		    "records", (json_int_t)in->feeds[i]->n,
		    "other_products", (json_int_t)in->feeds[i]->skipped);
		if (o == NULL || json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Drop built entries that have neither ranges nor distribution rows. */
static int
prune(struct build *b)
{
	json_t *e;
	char *why;
	size_t i;
	int r;

	for (i = json_array_size(b->entries); i-- > 0; ) {
		e = json_array_get(b->entries, i);
		json_object_del(e, TRUST_KEY);
		why = fa_strfmt("no source gave an affected range or a "
		    "distribution row%s%s", json_is_string(json_object_get(e,
		    NONE_KEY)) ? "; " : "", json_is_string(json_object_get(e,
		    NONE_KEY)) ? json_string_value(json_object_get(e,
		    NONE_KEY)) : "");
		if (why == NULL)
			return FA_ERR_NOMEM;
		if (json_array_size(json_object_get(e, "affected")) > 0 ||
		    json_array_size(json_object_get(e, "distro")) > 0) {
			free(why);
			/* Kept, but a part of a record was not read. */
			if (json_is_string(json_object_get(e, NONE_KEY)) &&
			    json_array_append_new(b->partly, json_pack(
			    "{s:O, s:O, s:O}", "cve", json_object_get(e, "id"),
			    "component", json_object_get(e, "component"),
			    "why", json_object_get(e, NONE_KEY))) != 0)
				return FA_ERR_NOMEM;
			json_object_del(e, NONE_KEY);
			continue;
		}
		json_object_del(e, NONE_KEY);
		r = left_out(b, json_string_value(json_object_get(e, "id")),
		    FA_COMP_MAX, why);
		free(why);
		if (r != 0)
			return FA_ERR_NOMEM;
		json_object_set_new(json_array_get(b->left_out,
		    json_array_size(b->left_out) - 1), "component", json_string(
		    json_string_value(json_object_get(e, "component"))));
		json_array_remove(b->entries, i);
	}
	return 0;
}

/* The newest input date; "" when no input has one. */
static void
newest(const struct fa_cvebuild_in *in, char out[11])
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < in->nfeeds; i++)
		if (in->feeds[i]->newest != NULL &&
		    strcmp(in->feeds[i]->newest, out) > 0)
			snprintf(out, 11, "%s", in->feeds[i]->newest);
}

static int
add_days(const char *date, unsigned days, char out[11])
{
	struct tm tm;
	time_t t;

	memset(&tm, 0, sizeof(tm));
	if (strptime(date, "%Y-%m-%d", &tm) == NULL)
		return FA_ERR_INPUT;
	t = timegm(&tm) + (time_t)days * 86400;
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(out, 11, "%Y-%m-%d", &tm) != 10)
		return FA_ERR_INPUT;
	return 0;
}

/*
 * "inputs": each file with its kind, SHA-256 and newest record date;
 * "sources": one per kind of feed read, with the number of its files and
 * its newest date (the catalogue's own when none of them has one).
 */
static json_t *
inputs_json(const struct fa_cvebuild_in *in, const char *date)
{
	json_t *a = json_array(), *src = json_array(), *o;
	const char *newest;
	size_t i, k, n;

	for (i = 0; a != NULL && i < in->nfeeds; i++) {
		const struct fa_feed *f = in->feeds[i];

		o = json_pack("{s:s, s:s, s:s, s:s?}", "name", f->name, "kind",
		    fa_feed_kind_name(f->kind), "sha256", f->sha256, "newest",
		    f->newest);
		if (o == NULL || json_array_append_new(a, o) != 0) {
			json_decref(a);
			a = NULL;
		}
	}
	/* The overlay is an input too: its bytes are part of the result. */
	if (a != NULL && in->overlay_name != NULL &&
	    in->overlay_sha256 != NULL && ((o = json_pack("{s:s, s:s, s:s, "
	    "s:n}", "name", in->overlay_name, "kind", "overlay", "sha256",
	    in->overlay_sha256, "newest")) == NULL ||
	    json_array_append_new(a, o) != 0)) {
		json_decref(a);
		a = NULL;
	}
	for (k = 0; a != NULL && src != NULL && k < FA_FEED_MAX; k++) {
		for (i = 0, n = 0, newest = NULL; i < in->nfeeds; i++) {
			if (in->feeds[i]->kind != (enum fa_feed_kind)k)
				continue;
			n++;
			if (in->feeds[i]->newest != NULL && (newest == NULL ||
			    strcmp(in->feeds[i]->newest, newest) > 0))
				newest = in->feeds[i]->newest;
		}
		if (n == 0)
			continue;
		o = json_pack("{s:o, s:s, s:s}", "name", json_sprintf("%s: %zu "
		    "file%s", fa_feed_kind_name((enum fa_feed_kind)k), n,
		    n == 1 ? "" : "s"), "url", kind_url((enum fa_feed_kind)k),
		    "date", newest != NULL ? newest : date);
		if (o == NULL || json_array_append_new(src, o) != 0) {
			json_decref(src);
			src = NULL;
		}
	}
	if (a == NULL || src == NULL) {
		json_decref(a);
		json_decref(src);
		return NULL;
	}
	return json_pack("{s:o, s:o}", "inputs", a, "sources", src);
}

static int
entry_cmp(const void *x, const void *y)
{
	const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
	int c = strcmp(json_string_value(json_object_get(a, "component")),
	    json_string_value(json_object_get(b, "component")));

	return c != 0 ? c : strcmp(json_string_value(json_object_get(a,
	    "id")), json_string_value(json_object_get(b, "id")));
}

/* Entries in (component, id) order: the catalogue diffs cleanly. */
static int
sort_entries(json_t *entries)
{
	size_t i, n = json_array_size(entries);
	json_t **v;

	if (n < 2)
		return 0;
	if ((v = calloc(n, sizeof(*v))) == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(entries, i));
	qsort(v, n, sizeof(*v), entry_cmp);
	json_array_clear(entries);
	for (i = 0; i < n; i++)
		if (json_array_append_new(entries, v[i]) != 0) {
			for (; i < n; i++)
				json_decref(v[i]);
			free(v);
			return FA_ERR_NOMEM;
		}
	free(v);
	return 0;
}

static int
collect_refs(struct build *b)
{
	size_t i, k, n = 0;

	for (i = 0; i < b->in->nfeeds; i++)
		n += b->in->feeds[i]->n;
	if (n > 0 && (b->refs = calloc(n, sizeof(*b->refs))) == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < b->in->nfeeds; i++)
		for (k = 0; k < b->in->feeds[i]->n; k++) {
			if (b->in->feeds[i]->v[k].id == NULL ||
			    b->in->feeds[i]->v[k].component >= FA_COMP_MAX)
				continue;
			b->refs[b->n].r = &b->in->feeds[i]->v[k];
			b->refs[b->n++].f = b->in->feeds[i];
		}
	if (b->n > 1)
		qsort(b->refs, b->n, sizeof(*b->refs), ref_cmp);
	return 0;
}

static int
merge(struct build *b, char **why)
{
	size_t a, e, i;
	int r;

	if ((r = collect_refs(b)) != 0)
		return r;
	for (a = 0; a < b->n; a = e) {
		for (e = a + 1; e < b->n && strcmp(b->refs[e].r->id,
		    b->refs[a].r->id) == 0 && b->refs[e].r->component ==
		    b->refs[a].r->component; e++)
			;
		if ((r = group_entry(b, a, e)) != 0)
			return r;
	}
	for (i = 0; i < json_array_size(b->in->overlay); i++)
		if ((r = apply_overlay(b, i, json_array_get(b->in->overlay, i),
		    why)) != 0)
			return r;
	if ((r = prune(b)) != 0)
		return r;
	return sort_entries(b->entries);
}

int
fa_cvebuild(const struct fa_cvebuild_in *in, json_t **catalogue,
    json_t **report, char **why)
{
	struct build b;
	struct fa_cvedb *db = NULL;
	char date[11], until[11], *w = NULL;
	json_t *io = NULL, *cat = NULL, *rep = NULL;
	int r;

	*catalogue = *report = NULL;
	memset(&b, 0, sizeof(b));
	b.in = in;
	newest(in, date);
	if (date[0] == '\0')
		return fa_why(why, "no input carries a record date: the "
		    "catalogue's date cannot be known (give a feed that has "
		    "one: OSV, CVE 5, CSAF or KEV)");
	if (add_days(date, in->valid_days, until) != 0)
		return fa_why(why, "cannot compute valid_until from %s", date);
	b.entries = json_array();
	b.conflicts = json_array();
	b.left_out = json_array();
	b.partly = json_array();
	b.overlay_used = json_array();
	b.overlay_done = calloc(json_array_size(in->overlay) + 1, 1);
	r = FA_ERR_NOMEM;
	if (b.entries == NULL || b.conflicts == NULL || b.left_out == NULL ||
	    b.partly == NULL ||
	    b.overlay_used == NULL || b.overlay_done == NULL)
		goto out;
	if ((r = merge(&b, why)) != 0 || (io = inputs_json(in, date)) == NULL) {
		r = r != 0 ? r : FA_ERR_NOMEM;
		goto out;
	}
	cat = json_pack("{s:i, s:s, s:s, s:s, s:O, s:O, s:s, s:O}", "format",
	    FA_CVEDB_FORMAT, "name", "fabaudit host CVE catalogue", "date",
	    date, "valid_until", until, "sources", json_object_get(io,
	    "sources"), "inputs", json_object_get(io, "inputs"), "built_by",
	    in->built_by != NULL ? in->built_by : "fabaudit", "entries",
	    b.entries);
	rep = json_pack("{s:s, s:s, s:O, s:o, s:I, s:O, s:O, s:O, s:O, s:s?, "
	    "s:s?}", "date", date, "valid_until", until, "inputs",
	    json_object_get(io, "inputs"), "records", records_json(in),
	    "entries", (json_int_t)json_array_size(b.entries), "conflicts",
	    b.conflicts, "left_out", b.left_out, "partly_read", b.partly,
	    "overlay_used",
	    b.overlay_used, "overlay", in->overlay_name, "overlay_sha256",
	    in->overlay_sha256);
	if (cat == NULL || rep == NULL)
		goto out;
	/* What the scanner would refuse is not a catalogue. */
	if ((r = fa_cvedb_from_json(cat, &db, &w)) != 0) {
		if (r == FA_ERR_INPUT)
			r = fa_why(why, "the merged catalogue is invalid: %s",
			    w != NULL ? w : "?");
		free(w);
		goto out;
	}
	fa_cvedb_free(db);
	*catalogue = cat;
	*report = rep;
	cat = rep = NULL;
	r = 0;
out:
	json_decref(io);
	json_decref(cat);
	json_decref(rep);
	json_decref(b.entries);
	json_decref(b.conflicts);
	json_decref(b.left_out);
	json_decref(b.partly);
	json_decref(b.overlay_used);
	free(b.overlay_done);
	free(b.refs);
	return r;
}
