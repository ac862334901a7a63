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

struct ref {
	const struct fa_feed_rec	*r;
	const struct fa_feed		*f;
};

struct build {
	const struct fa_cvebuild_in	*in;
	struct ref			*refs;
	size_t				 n;
	json_t				*entries, *conflicts, *left_out;
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
 * The affected ranges of group [a, e): those of the first feed (in input
 * order of the sorted refs: most trusted first) that has any; every
 * other feed whose set differs is a conflict.  NULL-free: an empty array
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
		if (!same_ranges(kept, other) && add_conflict(b, v[a].r->id,
		    v[a].r->component, "affected ranges", v[k].f, v[k].r, kept,
		    v[i].f, v[i].r, other) != 0)
			*err = FA_ERR_NOMEM;
		json_decref(other);
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
	const char *what = "conditions and notes";
	char *note;
	size_t k;

	if (id == NULL || comp == NULL || src == NULL ||
	    strncmp(src, "https://", 8) != 0)
		return fa_why(why, "overlay[%zu]: needs id, component and an "
		    "https source_url", oi);
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
		aff = json_object_get(o, "affected");
		if (aff != NULL && json_array_size(json_object_get(e,
		    "affected")) == 0) {
			if (json_object_set(e, "affected", aff) != 0)
				return FA_ERR_NOMEM;
			what = "affected ranges no feed gave, and conditions";
		} else if (aff != NULL && !same_ranges(aff,
		    json_object_get(e, "affected"))) {
			v = json_pack("{s:s, s:s, s:s, s:s, s:O, s:O}", "cve",
			    id, "component", comp, "about", "overlay ranges "
			    "differ from the feeds' (the feeds' kept)",
			    "source_url", src, "overlay", aff, "kept",
			    json_object_get(e, "affected"));
			if (v == NULL ||
			    json_array_append_new(b->conflicts, v) != 0)
				return FA_ERR_NOMEM;
		}
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

/* Drop built entries that have neither ranges nor distribution rows. */
static int
prune(struct build *b)
{
	json_t *e;
	size_t i;

	for (i = json_array_size(b->entries); i-- > 0; ) {
		e = json_array_get(b->entries, i);
		if (json_array_size(json_object_get(e, "affected")) > 0 ||
		    json_array_size(json_object_get(e, "distro")) > 0)
			continue;
		if (left_out(b, json_string_value(json_object_get(e, "id")),
		    FA_COMP_MAX, "no source gave an affected range or a "
		    "distribution row") != 0)
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

static json_t *
inputs_json(const struct fa_cvebuild_in *in, char *date)
{
	json_t *a = json_array(), *src = json_array(), *o, *s;
	size_t i;

	for (i = 0; a != NULL && src != NULL && i < in->nfeeds; i++) {
		const struct fa_feed *f = in->feeds[i];

		o = json_pack("{s:s, s:s, s:s, s:s?}", "name", f->name, "kind",
		    fa_feed_kind_name(f->kind), "sha256", f->sha256, "newest",
		    f->newest);
		s = json_pack("{s:s+, s:s, s:s}", "name",
		    fa_feed_kind_name(f->kind), " input ", "url",
		    kind_url(f->kind), "date", f->newest != NULL ? f->newest :
		    date);
		if (o == NULL || s == NULL ||
		    json_array_append_new(a, o) != 0 ||
		    json_array_append_new(src, s) != 0) {
			json_decref(a);
			json_decref(src);
			return NULL;
		}
		if (json_object_set_new(s, "name", json_sprintf("%s: %s",
		    fa_feed_kind_name(f->kind), f->name)) != 0) {
			json_decref(a);
			json_decref(src);
			return NULL;
		}
	}
	o = json_pack("{s:o, s:o}", "inputs", a, "sources", src);
	return o;
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
	b.overlay_used = json_array();
	b.overlay_done = calloc(json_array_size(in->overlay) + 1, 1);
	r = FA_ERR_NOMEM;
	if (b.entries == NULL || b.conflicts == NULL || b.left_out == NULL ||
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
	rep = json_pack("{s:s, s:s, s:O, s:I, s:O, s:O, s:O, s:s?, s:s?}",
	    "date", date, "valid_until", until, "inputs",
	    json_object_get(io, "inputs"), "entries",
	    (json_int_t)json_array_size(b.entries), "conflicts", b.conflicts,
	    "left_out", b.left_out, "overlay_used", b.overlay_used,
	    "overlay", in->overlay_name, "overlay_sha256", in->overlay_sha256);
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
	json_decref(b.overlay_used);
	free(b.overlay_done);
	free(b.refs);
	return r;
}
