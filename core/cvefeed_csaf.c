/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA's CSAF 2.0 security advisories (core/cvefeed.h) turned into
 * feed records: one per (CVE, driver branch) for the Linux GPU driver,
 * one per CVE for the NVIDIA Container Toolkit.
 *
 * The product tree is read the way NVIDIA writes it (vendor, then
 * "architecture" branches named "Linux(R580)" holding "product_version"
 * branches named after the product, whose product name is the version
 * phrase) and the standard way (a "product_name" branch holding
 * "product_version" / "product_version_range" branches named by the
 * version).  Phrases go through core/nvbranch.c.  Which products count:
 *
 *  driver   Tesla / Data Center, GeForce, "NVIDIA RTX, Quadro, NVS" and
 *           the vGPU "Guest driver", on Linux: one kernel module and one
 *           version series per branch on the node; a guest VM is a
 *           tenant's node.  Cloud-gaming guest rows ("Gaming") are
 *           skipped: not a cluster's driver.  Per branch the
 *           data-center (Tesla) row wins; without one the highest fixed
 *           version of the rows is kept.
 *           Windows rows are skipped; the Virtual GPU Manager (the
 *           hypervisor's) is not on a tenant node and is skipped.
 *  toolkit  NVIDIA Container Toolkit, libnvidia-container, NVIDIA
 *           Container Runtime.  The GPU Operator, device plugin and MIG
 *           manager have their own version series and are skipped.
 *
 * A vulnerability with no such product is counted in f->skipped.  The
 * advisory URL is the document's "self" reference, else the custhelp
 * page of a numeric tracking ID (NVIDIA's bulletin number), else none.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cvefeed.h"
#include "errors.h"
#include "nvbranch.h"
#include "util.h"

#define CSAF_PATH_MAX	256
#define CSAF_DEPTH_MAX	8
#define CSAF_PRODS_MAX	20000
#define CUSTHELP	"https://nvidia.custhelp.com/app/answers/detail/a_id/"

enum csaf_class {
	CLS_SKIP = 0,
	CLS_DRIVER,
	CLS_DRIVER_DC,		/* the data-center row of the driver */
	CLS_TOOLKIT,
};

/* One product of the tree; strings are borrowed from the JSON. */
struct csaf_prod {
	const char	*id;
	const char	*product;	/* "Tesla", "libnvidia-container" */
	const char	*arch;		/* "Linux(R580)", or NULL */
	const char	*phrase;	/* version phrase, or NULL */
	char		 path[CSAF_PATH_MAX];	/* of the phrase (or node) */
	char		 arch_path[CSAF_PATH_MAX];
};

/* One affected product row of a vulnerability, as a range. */
struct csaf_row {
	enum csaf_class	 cls;
	unsigned	 number;	/* driver branch, 0 for the toolkit */
	struct fa_nvrange r;
	char		*err;		/* why r could not be made, or NULL */
	const char	*path;		/* of the affected phrase */
};

struct csaf_ctx {
	const char		*name;
	char			**why;
	struct fa_feed		*f;
	const char		*aid;		/* tracking.id */
	const char		*cve;		/* current, or NULL */
	char			*advisory;
	char			 initial[11], current[11];
	struct csaf_prod	*prods;
	size_t			 nprods, cap;
	struct csaf_row		*rows;
	size_t			 nrows, rcap;
};

static const struct {
	const char	*name;
	enum csaf_class	 cls;
} products[] = {
	{ "Tesla", CLS_DRIVER_DC },
	{ "Data Center", CLS_DRIVER_DC },
	{ "GeForce", CLS_DRIVER },
	{ "NVIDIA RTX, Quadro, NVS", CLS_DRIVER },
	{ "Guest driver", CLS_DRIVER },
	{ "NVIDIA Container Toolkit", CLS_TOOLKIT },
	{ "libnvidia-container", CLS_TOOLKIT },
	{ "NVIDIA Container Runtime", CLS_TOOLKIT },
};

static enum csaf_class
classify(const char *product)
{
	size_t i;

	for (i = 0; i < sizeof(products) / sizeof(products[0]); i++)
		if (strcasecmp(product, products[i].name) == 0)
			return products[i].cls;
	return CLS_SKIP;
}

/* Whether a full product name starts with a covered product's name. */
static int
names_covered(const char *full)
{
	size_t i, n;

	for (i = 0; i < sizeof(products) / sizeof(products[0]); i++) {
		n = strlen(products[i].name);
		if (strncasecmp(full, products[i].name, n) == 0 &&
		    (full[n] == ' ' || full[n] == '\0'))
			return 1;
	}
	return 0;
}

/* A JSON path into dst (cut short if too long: it is only shown). */
static void pathf(char *dst, size_t n, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static void
pathf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(dst, n, fmt, ap);
	va_end(ap);
}

/* FA_ERR_INPUT with *why "NAME: advisory ID: CVE: PATH: WHAT". */
static int
csaf_bad(struct csaf_ctx *c, const char *path, const char *what)
{
	return fa_why(c->why, "%s: advisory %s: %s: %s: %s", c->name,
	    c->aid != NULL ? c->aid : "?", c->cve != NULL ? c->cve : "-",
	    path, what != NULL ? what : "unreadable (out of memory)");
}

/* As csaf_bad with a message from core/nvbranch.c, which it frees. */
static int
csaf_bad_sub(struct csaf_ctx *c, const char *path, char *sub)
{
	int r = csaf_bad(c, path, sub);

	free(sub);
	return r;
}

/* A printable string member, or NULL. */
static const char *
str_member(json_t *o, const char *key)
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

/*
 * Any string member, or NULL: names and IDs in the tree are checked only
 * where they are used (a phrase, a branch name), so that another
 * product's odd bytes do not fail the advisory.
 */
static const char *
str_any(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static const struct csaf_prod *
find_prod(const struct csaf_ctx *c, const char *id)
{
	size_t i;

	if (id == NULL)
		return NULL;
	for (i = 0; i < c->nprods; i++)
		if (strcmp(c->prods[i].id, id) == 0)
			return &c->prods[i];
	return NULL;
}

/* ---- the product tree ------------------------------------------------- */

/* Context a branch passes to its children. */
struct csaf_walk {
	const char	*arch, *pname;
	char		 arch_path[CSAF_PATH_MAX];
};

static int
add_prod(struct csaf_ctx *c, const char *path, json_t *product,
    const char *category, const char *bname, const struct csaf_walk *w)
{
	struct csaf_prod *p;
	const char *id = str_any(product, "product_id");
	const char *pname = str_any(product, "name");
	int version = strcmp(category, "product_version") == 0 ||
	    strcmp(category, "product_version_range") == 0;
	char full[CSAF_PATH_MAX];

	pathf(full, sizeof(full), "%s.product", path);
	if (id == NULL || pname == NULL)
		return csaf_bad(c, full, "product_id or name missing");
	if (find_prod(c, id) != NULL)
		return csaf_bad(c, full, "product_id given twice");
	if (c->nprods >= CSAF_PRODS_MAX)
		return csaf_bad(c, full, "too many products");
	if (fa_grow(&c->prods, &c->cap, c->nprods + 1, sizeof(*p)) != 0)
		return FA_ERR_NOMEM;
	p = &c->prods[c->nprods++];
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->arch = w->arch;
	pathf(p->arch_path, sizeof(p->arch_path), "%s", w->arch_path);
	p->product = bname;
	pathf(p->path, sizeof(p->path), "%s", path);
	if (version && w->pname != NULL) {
		p->product = w->pname;
		p->phrase = bname;
		pathf(p->path, sizeof(p->path), "%s.name", path);
	} else if (version) {
		p->phrase = pname;
		pathf(p->path, sizeof(p->path), "%s.product.name", path);
	}
	return 0;
}

static int walk(struct csaf_ctx *c, json_t *arr, const char *path,
    const struct csaf_walk *w, int depth);

static int
walk_node(struct csaf_ctx *c, json_t *node, const char *path,
    const struct csaf_walk *w, int depth)
{
	const char *cat = str_any(node, "category");
	const char *name = str_any(node, "name");
	struct csaf_walk sub = *w;
	json_t *v;
	char p[CSAF_PATH_MAX];
	int r;

	if (!json_is_object(node) || cat == NULL || name == NULL)
		return csaf_bad(c, path, "not a branch with category and "
		    "name");
	if (strcmp(cat, "architecture") == 0) {
		sub.arch = name;
		pathf(sub.arch_path, sizeof(sub.arch_path), "%s.name",
		    path);
	} else if (strcmp(cat, "product_name") == 0)
		sub.pname = name;
	if ((v = json_object_get(node, "product")) != NULL &&
	    (r = add_prod(c, path, v, cat, name, &sub)) != 0)
		return r;
	if ((v = json_object_get(node, "branches")) == NULL)
		return 0;
	pathf(p, sizeof(p), "%s.branches", path);
	return walk(c, v, p, &sub, depth + 1);
}

static int
walk(struct csaf_ctx *c, json_t *arr, const char *path,
    const struct csaf_walk *w, int depth)
{
	char p[CSAF_PATH_MAX];
	size_t i;
	int r;

	if (depth > CSAF_DEPTH_MAX)
		return csaf_bad(c, path, "branches nested too deep");
	if (!json_is_array(arr))
		return csaf_bad(c, path, "not an array");
	for (i = 0; i < json_array_size(arr); i++) {
		pathf(p, sizeof(p), "%s[%zu]", path, i);
		if ((r = walk_node(c, json_array_get(arr, i), p, w,
		    depth)) != 0)
			return r;
	}
	return 0;
}

static int
full_names(struct csaf_ctx *c, json_t *arr)
{
	struct csaf_walk w;
	char p[CSAF_PATH_MAX];
	json_t *v;
	size_t i;
	int r;

	memset(&w, 0, sizeof(w));
	if (!json_is_array(arr))
		return csaf_bad(c, "product_tree.full_product_names",
		    "not an array");
	json_array_foreach(arr, i, v) {
		pathf(p, sizeof(p), "product_tree.full_product_names[%zu]",
		    i);
		if (!json_is_object(v))
			return csaf_bad(c, p, "not an object");
		/* add_prod reads "product" members: the entry is one */
		if ((r = add_prod(c, p, v, "full_product_name",
		    str_any(v, "name") != NULL ? str_any(v, "name") : "",
		    &w)) != 0)
			return r;
		pathf(c->prods[c->nprods - 1].path, CSAF_PATH_MAX, "%s",
		    p);
	}
	return 0;
}

static int
read_tree(struct csaf_ctx *c, json_t *root)
{
	json_t *t = json_object_get(root, "product_tree"), *b, *fn;
	struct csaf_walk w;
	int r;

	memset(&w, 0, sizeof(w));
	if (!json_is_object(t))
		return csaf_bad(c, "product_tree", "missing or not an object");
	b = json_object_get(t, "branches");
	fn = json_object_get(t, "full_product_names");
	if (b == NULL && fn == NULL)
		return csaf_bad(c, "product_tree", "neither branches nor "
		    "full_product_names");
	if (b != NULL && (r = walk(c, b, "product_tree.branches", &w, 0)) != 0)
		return r;
	return fn != NULL ? full_names(c, fn) : 0;
}

/* ---- the document ----------------------------------------------------- */

static int
advisory_url(struct csaf_ctx *c, json_t *doc)
{
	json_t *refs = json_object_get(doc, "references"), *v;
	const char *u, *cat;
	size_t i;

	json_array_foreach(refs, i, v) {
		cat = str_member(v, "category");
		u = str_member(v, "url");
		if (cat != NULL && strcmp(cat, "self") == 0 && u != NULL &&
		    strncmp(u, "https://", 8) == 0)
			return (c->advisory = fa_strdup(u)) != NULL ? 0 :
			    FA_ERR_NOMEM;
	}
	for (i = 0; c->aid[i] != '\0'; i++)
		if (!isdigit((unsigned char)c->aid[i]) || i >= 8)
			return 0;
	return (c->advisory = fa_strfmt(CUSTHELP "%s", c->aid)) != NULL ?
	    0 : FA_ERR_NOMEM;
}

static int
read_document(struct csaf_ctx *c, json_t *root)
{
	json_t *doc = json_object_get(root, "document");
	json_t *tr = json_object_get(doc, "tracking");
	const char *v;

	if (!json_is_object(doc))
		return csaf_bad(c, "document", "missing or not an object");
	v = str_member(doc, "csaf_version");
	if (v == NULL || strcmp(v, "2.0") != 0)
		return csaf_bad(c, "document.csaf_version", "not \"2.0\"");
	if (!json_is_object(tr))
		return csaf_bad(c, "document.tracking", "missing");
	if ((c->aid = str_member(tr, "id")) == NULL || c->aid[0] == '\0')
		return csaf_bad(c, "document.tracking.id", "missing or not "
		    "printable");
	if (fa_feed_date(str_member(tr, "current_release_date"),
	    c->current) != 0)
		return csaf_bad(c, "document.tracking.current_release_date",
		    "not an RFC 3339 date");
	if (fa_feed_date(str_member(tr, "initial_release_date"),
	    c->initial) != 0)
		return csaf_bad(c, "document.tracking.initial_release_date",
		    "not an RFC 3339 date");
	if (fa_feed_saw_date(c->f, c->current) != 0)
		return FA_ERR_NOMEM;
	return advisory_url(c, doc);
}

/* ---- one vulnerability ------------------------------------------------ */

static int
cve_ok(const char *s)
{
	size_t i, n;

	if (s == NULL || strncmp(s, "CVE-", 4) != 0 || strlen(s) > 24)
		return 0;
	for (i = 4; i < 8; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	if (s[8] != '-')
		return 0;
	for (i = 9, n = 0; s[i] != '\0'; i++, n++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return n >= 4;
}

/* Every product_id of list resolves (path names the list). */
static int
check_ids(struct csaf_ctx *c, json_t *list, const char *path)
{
	char p[CSAF_PATH_MAX];
	const char *id;
	json_t *v;
	size_t i;

	if (list == NULL)
		return 0;
	if (!json_is_array(list))
		return csaf_bad(c, path, "not an array");
	json_array_foreach(list, i, v) {
		pathf(p, sizeof(p), "%s[%zu]", path, i);
		if ((id = json_string_value(v)) == NULL)
			return csaf_bad(c, p, "not a string");
		if (find_prod(c, id) == NULL)
			return csaf_bad(c, p, "product_id resolves to nothing "
			    "in the product_tree");
	}
	return 0;
}

/* The fixed product of the same product and platform as a, or NULL. */
static int
find_fix(struct csaf_ctx *c, json_t *ps, const struct csaf_prod *a,
    const char *path, const struct csaf_prod **out)
{
	static const char *const lists[] = { "fixed", "first_fixed" };
	const struct csaf_prod *p;
	json_t *v;
	size_t i, k;

	*out = NULL;
	for (k = 0; k < 2; k++)
		json_array_foreach(json_object_get(ps, lists[k]), i, v) {
			p = find_prod(c, json_string_value(v));
			if (p == NULL || p == a || p == *out ||
			    strcmp(p->product, a->product) != 0 ||
			    (p->arch == NULL) != (a->arch == NULL) ||
			    (p->arch != NULL && strcmp(p->arch, a->arch) != 0))
				continue;
			if (*out != NULL)
				return csaf_bad(c, path, "several fixed "
				    "products for this affected product");
			*out = p;
		}
	return 0;
}

/* Whether a platform name says Windows ("Windows(R570 vGPU 13)"). */
static int
names_windows(const char *arch)
{
	return strncasecmp(arch, "Windows", 7) == 0 && (arch[7] == '\0' ||
	    arch[7] == ' ' || arch[7] == '(');
}

/*
 * The driver branch of a's platform name: 0 with *number set, or 1 when
 * the row is skipped: Windows (not parsed further: NVIDIA's Windows
 * names have errors that do not concern us), or the rolling cloud-gaming
 * guest driver ("Gaming"), which is not a GPU cluster's driver and has no
 * branch; FA_ERR_INPUT.
 */
static int
row_branch(struct csaf_ctx *c, const struct csaf_prod *a,
    enum csaf_class cls, unsigned *number)
{
	struct fa_nvbranch b;
	char *sub = NULL;

	*number = 0;
	if (a->arch == NULL)
		return cls == CLS_TOOLKIT ? 0 : csaf_bad(c, a->path,
		    "driver product under no platform / branch name");
	if (names_windows(a->arch))
		return 1;
	if (fa_nvbranch_parse(a->arch, &b, &sub) != 0)
		return csaf_bad_sub(c, a->arch_path, sub);
	if (b.platform == FA_NV_WINDOWS ||
	    strcmp(b.flavour, "Gaming") == 0)
		return 1;
	if (cls == CLS_TOOLKIT)
		return 0;
	if (b.platform != FA_NV_LINUX)
		return csaf_bad(c, a->arch_path, "driver platform is not "
		    "Linux or Windows");
	if (b.number == 0)
		return csaf_bad(c, a->arch_path, "driver platform names no "
		    "branch");
	*number = b.number;
	return 0;
}

/* Keep a row; err (taken over) says why its range could not be made. */
static int
add_row(struct csaf_ctx *c, enum csaf_class cls, unsigned number,
    const struct fa_nvrange *r, char *err, const char *path)
{
	struct csaf_row *w;

	if (fa_grow(&c->rows, &c->rcap, c->nrows + 1, sizeof(*c->rows)) != 0) {
		free(err);
		return FA_ERR_NOMEM;
	}
	w = &c->rows[c->nrows++];
	w->cls = cls;
	w->number = number;
	w->r = *r;
	w->err = err;
	w->path = path;
	return 0;
}

static void
clear_rows(struct csaf_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		free(c->rows[i].err);
	c->nrows = 0;
}

/*
 * The row of one affected product_id (nothing if not ours).  list is the
 * product_status list it is in: known_affected, or last_affected, where a
 * single version is the last affected one; first_affected is not read
 * (a covered product there is refused).
 */
static int
affected_row(struct csaf_ctx *c, json_t *ps, const char *id,
    const char *list, const char *path)
{
	const struct csaf_prod *a = find_prod(c, id), *fx;
	struct fa_nvphrase pa, pf;
	struct fa_nvrange r;
	enum csaf_class cls;
	unsigned number;
	char *sub = NULL;
	int e;

	if (a == NULL)
		return csaf_bad(c, path, "product_id resolves to nothing in "
		    "the product_tree");
	if ((cls = classify(a->product)) == CLS_SKIP) {
		if (a->phrase == NULL && names_covered(a->product))
			return csaf_bad(c, a->path, "a covered product named "
			    "without a product_version branch: its version "
			    "cannot be read");
		return 0;
	}
	if ((e = row_branch(c, a, cls, &number)) != 0)
		return e > 0 ? 0 : e;
	if (strcmp(list, "first_affected") == 0)
		return csaf_bad(c, path, "first_affected is not read");
	if (a->phrase == NULL)
		return csaf_bad(c, a->path, "affected product names no "
		    "version");
	if (fa_nvphrase_parse(a->phrase, &pa, &sub) != 0)
		return csaf_bad_sub(c, a->path, sub);
	if (strcmp(list, "last_affected") == 0) {
		if (pa.kind != FA_NVP_EXACT && pa.kind != FA_NVP_THROUGH)
			return csaf_bad(c, path, "a last_affected product "
			    "is not one version");
		pa.kind = FA_NVP_THROUGH;
	}
	if ((e = find_fix(c, ps, a, path, &fx)) != 0)
		return e;
	if (fx != NULL && fx->phrase == NULL)
		return csaf_bad(c, fx->path, "fixed product names no version");
	if (fx != NULL && fa_nvphrase_parse(fx->phrase, &pf, &sub) != 0)
		return csaf_bad_sub(c, fx->path, sub);
	/*
	 * A driver row whose range cannot be made is kept with its reason:
	 * it fails the advisory only if the row is used (no data-center
	 * row on its branch); see branch_range.
	 */
	if (fa_nvrange_make(number, &pa, fx != NULL ? &pf : NULL, &r,
	    &sub) != 0) {
		if (cls == CLS_TOOLKIT || sub == NULL)
			return csaf_bad_sub(c, a->path, sub);
		return add_row(c, cls, number, &r, sub, a->path);
	}
	return add_row(c, cls, number, &r, NULL, a->path);
}

static int
status_rows(struct csaf_ctx *c, json_t *vuln, const char *vpath)
{
	static const char *const lists[] = { "fixed", "first_fixed",
	    "known_not_affected", "recommended", "under_investigation",
	    "known_affected", "last_affected", "first_affected" };
	json_t *ps = json_object_get(vuln, "product_status"), *v;
	char p[CSAF_PATH_MAX];
	size_t i, k;
	int r;

	pathf(p, sizeof(p), "%s.product_status", vpath);
	if (!json_is_object(ps))
		return csaf_bad(c, p, "missing or not an object");
	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		pathf(p, sizeof(p), "%s.product_status.%s", vpath, lists[k]);
		if ((r = check_ids(c, json_object_get(ps, lists[k]), p)) != 0)
			return r;
	}
	/* the affected lists: the last three */
	for (k = 5; k < sizeof(lists) / sizeof(lists[0]); k++)
		json_array_foreach(json_object_get(ps, lists[k]), i, v) {
			pathf(p, sizeof(p), "%s.product_status.%s[%zu]",
			    vpath, lists[k], i);
			if ((r = affected_row(c, ps, json_string_value(v),
			    lists[k], p)) != 0)
				return r;
		}
	return 0;
}

/* The highest CVSS v3 base score of the vulnerability, if any. */
static int
vuln_cvss(struct csaf_ctx *c, json_t *vuln, const char *vpath,
    double *score, const char **version)
{
	json_t *v, *c3, *bs;
	char p[CSAF_PATH_MAX];
	size_t i;

	*score = -1;
	*version = NULL;
	json_array_foreach(json_object_get(vuln, "scores"), i, v) {
		if ((c3 = json_object_get(v, "cvss_v3")) == NULL)
			continue;
		pathf(p, sizeof(p), "%s.scores[%zu].cvss_v3", vpath, i);
		bs = json_object_get(c3, "baseScore");
		if (!json_is_number(bs) || json_number_value(bs) < 0 ||
		    json_number_value(bs) > 10)
			return csaf_bad(c, p, "baseScore not a number in "
			    "0-10");
		if (json_number_value(bs) > *score) {
			*score = json_number_value(bs);
			*version = str_member(c3, "version");
		}
	}
	return 0;
}

/* A new record for the current CVE with the advisory's common facts. */
static int
new_rec(struct csaf_ctx *c, json_t *vuln, const char *vpath,
    enum fa_component comp, struct fa_feed_rec **out)
{
	struct fa_feed_rec *r;
	const char *title = str_member(vuln, "title"), *ver;
	char pub[11];
	double score;
	int e;

	if ((e = vuln_cvss(c, vuln, vpath, &score, &ver)) != 0)
		return e;
	if (c->f->n >= FA_FEED_MAX_RECORDS)
		return csaf_bad(c, vpath, "too many records");
	if ((r = *out = fa_feed_add(c->f)) == NULL)
		return FA_ERR_NOMEM;
	if (fa_feed_date(str_member(vuln, "release_date"), pub) != 0)
		memcpy(pub, c->initial, sizeof(pub));
	r->component = comp;
	r->trust = FA_TRUST_VENDOR;
	r->cvss = score;
	if ((r->id = fa_feed_str(c->cve)) == NULL ||
	    (title != NULL && (r->title = fa_feed_str(title)) == NULL) ||
	    (ver != NULL && (r->cvss_version = fa_feed_str(ver)) == NULL) ||
	    (c->advisory != NULL &&
	    (r->advisory = fa_feed_str(c->advisory)) == NULL) ||
	    (r->published = fa_feed_str(pub)) == NULL ||
	    (r->modified = fa_feed_str(c->current)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

static const char *
nz(const char *s)
{
	return s[0] != '\0' ? s : NULL;
}

/* Whether range q is already in r. */
static int
has_range(const struct fa_feed_rec *r, const struct fa_nvrange *q)
{
	size_t i;

	for (i = 0; i < r->nranges; i++)
		if (strcmp(r->ranges[i].introduced ? r->ranges[i].introduced :
		    "", q->introduced) == 0 && strcmp(r->ranges[i].fixed ?
		    r->ranges[i].fixed : "", q->fixed) == 0)
			return 1;
	return 0;
}

static int
emit_toolkit(struct csaf_ctx *c, json_t *vuln, const char *vpath)
{
	struct fa_feed_rec *r = NULL;
	size_t i;
	int e;

	for (i = 0; i < c->nrows; i++) {
		if (c->rows[i].cls != CLS_TOOLKIT)
			continue;
		if (r == NULL && (e = new_rec(c, vuln, vpath, FA_COMP_TOOLKIT,
		    &r)) != 0)
			return e;
		if (has_range(r, &c->rows[i].r))
			continue;
		if ((e = fa_feed_add_range(r, nz(c->rows[i].r.introduced),
		    nz(c->rows[i].r.fixed))) != 0)
			return csaf_bad(c, vpath, "too many ranges");
	}
	return 0;
}

/* Whether fixed a is above b ("" is open: above everything). */
static int
fixed_above(const char *a, const char *b)
{
	int cmp;

	if (b[0] == '\0')
		return 0;
	if (a[0] == '\0')
		return 1;
	return fa_version_cmp(FA_VER_UPSTREAM, a, b, &cmp, NULL) == 0 &&
	    cmp > 0;
}

/*
 * The range kept for one branch: the data-center rows if there are any,
 * else all rows; of those, the one with the highest fixed version.  A
 * row of those whose range could not be made fails the advisory.
 */
static int
branch_range(struct csaf_ctx *c, unsigned number,
    const struct fa_nvrange **best)
{
	const struct csaf_row *w;
	size_t i;
	int pass;

	*best = NULL;
	for (pass = 0; pass < 2 && *best == NULL; pass++)
		for (i = 0; i < c->nrows; i++) {
			w = &c->rows[i];
			if (w->number != number || w->cls == CLS_TOOLKIT ||
			    (pass == 0 && w->cls != CLS_DRIVER_DC))
				continue;
			if (w->err != NULL)
				return csaf_bad(c, w->path, w->err);
			if (*best == NULL ||
			    fixed_above(w->r.fixed, (*best)->fixed))
				*best = &w->r;
		}
	return 0;
}

static int
emit_driver(struct csaf_ctx *c, json_t *vuln, const char *vpath)
{
	const struct fa_nvrange *q;
	struct fa_feed_rec *r;
	size_t i, j;
	char br[16];
	int e;

	for (i = 0; i < c->nrows; i++) {
		if (c->rows[i].cls == CLS_TOOLKIT)
			continue;
		for (j = 0; j < i; j++)
			if (c->rows[j].cls != CLS_TOOLKIT &&
			    c->rows[j].number == c->rows[i].number)
				break;
		if (j < i)
			continue;	/* branch already emitted */
		if ((e = branch_range(c, c->rows[i].number, &q)) != 0)
			return e;
		snprintf(br, sizeof(br), "R%u", c->rows[i].number);
		if ((e = new_rec(c, vuln, vpath, FA_COMP_DRIVER, &r)) != 0)
			return e;
		if ((r->branch = fa_strdup(br)) == NULL)
			return FA_ERR_NOMEM;
		if ((e = fa_feed_add_range(r, nz(q->introduced),
		    nz(q->fixed))) != 0)
			return e == FA_ERR_NOMEM ? e : csaf_bad(c, vpath,
			    "range not storable");
	}
	return 0;
}

static int
read_vuln(struct csaf_ctx *c, json_t *vuln, size_t idx)
{
	char vpath[64];
	size_t before = c->f->n;
	int r;

	pathf(vpath, sizeof(vpath), "vulnerabilities[%zu]", idx);
	c->cve = NULL;
	clear_rows(c);
	if (!json_is_object(vuln))
		return csaf_bad(c, vpath, "not an object");
	c->cve = str_member(vuln, "cve");
	if (c->cve != NULL && !cve_ok(c->cve))
		return csaf_bad(c, vpath, "cve is not a CVE ID");
	if ((r = status_rows(c, vuln, vpath)) != 0)
		return r;
	if (c->nrows > 0 && c->cve == NULL)
		return csaf_bad(c, vpath, "covered products but no cve");
	if ((r = emit_driver(c, vuln, vpath)) != 0 ||
	    (r = emit_toolkit(c, vuln, vpath)) != 0)
		return r;
	if (c->f->n == before)
		c->f->skipped++;
	return 0;
}

static int
read_advisory(struct csaf_ctx *c, json_t *root)
{
	json_t *vulns, *v;
	size_t i;
	int r;

	if (!json_is_object(root))
		return csaf_bad(c, "(root)", "not a JSON object");
	if ((r = read_document(c, root)) != 0 || (r = read_tree(c, root)) != 0)
		return r;
	vulns = json_object_get(root, "vulnerabilities");
	if (!json_is_array(vulns))
		return csaf_bad(c, "vulnerabilities", "missing or not an "
		    "array");
	json_array_foreach(vulns, i, v)
		if ((r = read_vuln(c, v, i)) != 0)
			return r;
	return 0;
}

int
fa_feed_parse_csaf(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why)
{
	struct csaf_ctx c;
	json_error_t je;
	json_t *root;
	int r;

	*out = NULL;
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.why = why;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return (*why = fa_json_errmsg(name, &je)) != NULL ?
		    FA_ERR_INPUT : FA_ERR_NOMEM;
	if ((c.f = fa_feed_new(FA_FEED_CSAF, name, buf, len)) == NULL) {
		json_decref(root);
		return FA_ERR_NOMEM;
	}
	r = read_advisory(&c, root);
	json_decref(root);
	clear_rows(&c);
	free(c.prods);
	free(c.rows);
	free(c.advisory);
	if (r != 0) {
		fa_feed_free(c.f);
		return r;
	}
	*out = c.f;
	return 0;
}
