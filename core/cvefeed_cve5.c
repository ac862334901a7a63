/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CVE JSON 5.x records (github.com/CVEProject/cve-schema) as feed records
 * (core/cvefeed.h): a file holds one record or a JSON array of them.  The
 * kernel's records (kernel.org's CNA, and others naming vendor Linux)
 * give affected ranges per maintained line (fa_feed_kernel_ranges);
 * NVIDIA's give versions as prose, of which only unambiguous upper
 * bounds are read.  Records about other products, and rejected records,
 * are skipped.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvefeed.h"
#include "errors.h"
#include "util.h"
#include "version.h"

#define CVE5_MAX_FIXES	64
#define CVE5_LINE_MAX	24

struct cve5_ctx {
	struct fa_feed	*f;
	const char	*name;
	const char	*rid;		/* the record's ID, or "[i]" */
	char		**why;
	json_t		*cna;
	json_t		*adp;		/* containers.adp, or NULL */
};

/* What one kernel affected[] entry says, collected. */
struct cve5_kern {
	const char	*intro;		/* lowest "affected" without bound */
	int		 any_intro;	/* one was given ("0": intro NULL) */
	const char	*fixes[CVE5_MAX_FIXES];	/* "6.1.77" <= v <= "6.1.*" */
	size_t		 nfixes;
	const char	*mainline;	/* "6.8" <= v <= "*" */
	const char	*lo[CVE5_MAX_FIXES], *hi[CVE5_MAX_FIXES];
	size_t		 nplain;	/* affected [version, lessThan) */
	char		 unusable[320];	/* the first entry not taken */
	int		 bounds_only;	/* fixes came as bare upper bounds */
};

/* ---- the kernel's ranges ------------------------------------------ */

/*
 * "X.Y" of a kernel version "X.Y[.Z][-...]" into out: 0, or FA_ERR_INPUT
 * if v has none.
 */
static int
kline(const char *v, char out[CVE5_LINE_MAX])
{
	size_t a = strspn(v, "0123456789"), b;

	if (a == 0 || a > 4 || v[a] != '.')
		return FA_ERR_INPUT;
	b = strspn(v + a + 1, "0123456789");
	if (b == 0 || b > 4)
		return FA_ERR_INPUT;
	memcpy(out, v, a + 1 + b);
	out[a + 1 + b] = '\0';
	return 0;
}

/*
 * The line after "X.Y" as a lower bound: "X.(Y+1)".  Where the next
 * release is (X+1).0 (4.20 was followed by 5.0), "4.21" still sorts after
 * every 4.20.z and before 5.0, so the bound holds.  Returns 0, or
 * FA_ERR_INPUT if line is not "X.Y" or out of range.
 */
static int
knext(const char *line, char out[CVE5_LINE_MAX])
{
	unsigned long x, y;
	char *end;

	x = strtoul(line, &end, 10);
	if (*end != '.')
		return FA_ERR_INPUT;
	y = strtoul(end + 1, &end, 10);
	if (*end != '\0' || x > 9999 || y > 9998)
		return FA_ERR_INPUT;
	snprintf(out, CVE5_LINE_MAX, "%lu.%lu", x, y + 1);
	return 0;
}

/*
 * a < b under the kernel scheme; NULL is minus infinity.  Returns 1 or 0,
 * or FA_ERR_INPUT (*err says why) if a or b is not a kernel version.
 */
static int
klt(const char *a, const char *b, const char **err)
{
	int c = 0;

	if (b == NULL)
		return 0;
	if (a == NULL)
		return 1;
	if (fa_version_cmp(FA_VER_KERNEL, a, b, &c, err) != 0)
		return FA_ERR_INPUT;
	return c < 0;
}

/* The greater of a and b (NULL the least); *bad on an invalid one. */
static const char *
kmax(const char *a, const char *b, int *bad, const char **err)
{
	int lt = klt(a, b, err);

	if (lt < 0)
		*bad = 1;
	return lt > 0 ? b : a;
}

/* Emit [lo, hi) when it is not empty (hi NULL: open). */
static int
kemit(struct fa_feed_rec *r, const char *lo, const char *hi,
    const char **err)
{
	int lt;

	if (hi != NULL && lo != NULL) {
		if ((lt = klt(lo, hi, err)) < 0)
			return FA_ERR_INPUT;
		if (!lt)
			return 0;
	}
	if (fa_feed_add_range(r, lo, hi) != 0) {
		*err = "more than 64 ranges";
		return FA_ERR_INPUT;
	}
	return 0;
}

/* Sort the stable fixes by version (at most CVE5_MAX_FIXES). */
static int
ksort(const char **v, size_t n, const char **err)
{
	const char *t;
	size_t i, j;
	int lt;

	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			if ((lt = klt(v[j], v[j - 1], err)) < 0)
				return FA_ERR_INPUT;
			if (!lt)
				break;
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return 0;
}

/*
 * The half-open ranges of a kernel CVE record, one per stable line that
 * has a fix plus one above the last line, into r.  introduced: the first
 * affected release (NULL: since the beginning); fixes: the first fixed
 * release on each stable line ("6.1.77"), any order, one per line;
 * mainline: the mainline release with the fix (NULL: not fixed there).
 *
 * Line L with fix s gets [lo, s), where lo is the greater of introduced
 * and the start of the line after the previous fixed line: so the lines
 * between two maintained ones (end of life, never fixed) fall in the
 * range of the next maintained line, whose fix is the first release that
 * fixes them.  When introduced is on a later line than L, the bug came to
 * L by a backport the record shows only as a git commit: L is taken as
 * affected from its start (over-reporting rather than missing).  Above
 * the last fixed line: [max(introduced, next line), mainline).
 */
static int
kranges(struct fa_feed_rec *r, const char *introduced,
    const char *const *fixes, size_t nfixes, const char *mainline,
    const char **err)
{
	const char *v[CVE5_MAX_FIXES], *lo;
	char line[CVE5_LINE_MAX], il[CVE5_LINE_MAX], last[CVE5_LINE_MAX];
	char next[CVE5_LINE_MAX];
	size_t i;
	int bad = 0, lt;

	*err = "invalid kernel version";
	if (nfixes > CVE5_MAX_FIXES)
		return FA_ERR_INPUT;
	for (i = 0; i < nfixes; i++)
		if (fa_version_valid(FA_VER_KERNEL, fixes[i], err) != 0)
			return FA_ERR_INPUT;
	if ((introduced != NULL &&
	    fa_version_valid(FA_VER_KERNEL, introduced, err) != 0) ||
	    (mainline != NULL &&
	    fa_version_valid(FA_VER_KERNEL, mainline, err) != 0))
		return FA_ERR_INPUT;
	if (nfixes > 0)
		memcpy(v, fixes, nfixes * sizeof(*v));
	if (ksort(v, nfixes, err) != 0 ||
	    (introduced != NULL && kline(introduced, il) != 0))
		return FA_ERR_INPUT;
	last[0] = '\0';
	for (i = 0; i < nfixes; i++) {
		if (kline(v[i], line) != 0)
			return FA_ERR_INPUT;
		if (strcmp(line, last) == 0) {
			*err = "two fixes on one stable line";
			return FA_ERR_INPUT;
		}
		if (introduced != NULL && (lt = klt(line, il, err)) != 0) {
			if (lt < 0)
				return FA_ERR_INPUT;
			lo = line;	/* backported: see above */
		} else
			lo = kmax(introduced, last[0] ? next : NULL, &bad,
			    err);
		if (bad || kemit(r, lo, v[i], err) != 0 ||
		    knext(line, next) != 0)
			return FA_ERR_INPUT;
		memcpy(last, line, sizeof(last));
	}
	lo = kmax(introduced, last[0] ? next : NULL, &bad, err);
	if (bad || (mainline != NULL && kline(mainline, line) != 0))
		return FA_ERR_INPUT;
	return kemit(r, lo, mainline, err);
}

/* kranges(), and on an error r's ranges as they were (*err says why). */
int
fa_feed_kernel_ranges(struct fa_feed_rec *r, const char *introduced,
    const char *const *fixes, size_t nfixes, const char *mainline,
    const char **err)
{
	size_t n0 = r->nranges;
	int e;

	if ((e = kranges(r, introduced, fixes, nfixes, mainline, err)) == 0)
		return 0;
	while (r->nranges > n0) {
		r->nranges--;
		free(r->ranges[r->nranges].introduced);
		free(r->ranges[r->nranges].fixed);
	}
	return e;
}

/*
 * A mainline release: "X.Y" or "X.Y.0", or one of its release
 * candidates ("5.16-rc6", "6.0~rc1"), no stable number after it.
 */
static int
mainline_release(const char *v)
{
	size_t n = strspn(v, "0123456789");

	if (n == 0 || v[n] != '.')
		return 0;
	v += n + 1;
	if ((n = strspn(v, "0123456789")) == 0)
		return 0;
	v += n;
	if (strncmp(v, ".0", 2) == 0)
		v += 2;
	if ((v[0] == '-' || v[0] == '~') && strncmp(v + 1, "rc", 2) == 0 &&
	    (n = strspn(v + 3, "0123456789")) > 0)
		v += 3 + n;
	return v[0] == '\0';
}

/*
 * Whether [lo, hi) is one whole line, "5.10" to "5.11" (every release of
 * 5.10, none fixed: no backport to wonder about), rather than a span of
 * lines whose stable releases may each carry a fix.
 */
static int
one_line(const char *lo, const char *hi)
{
	char l[CVE5_LINE_MAX], n[CVE5_LINE_MAX], h[CVE5_LINE_MAX];

	return lo != NULL && kline(lo, l) == 0 && knext(l, n) == 0 &&
	    kline(hi, h) == 0 && strcmp(n, h) == 0;
}

/* ---- records ------------------------------------------------------ */

static int
cve5_bad(struct cve5_ctx *c, const char *path, const char *what)
{
	return fa_why(c->why, "%s: %s: %s: %s", c->name, c->rid, path, what);
}

/* Whether hay contains needle, ignoring ASCII case. */
static int
cve5_has(const char *hay, const char *needle)
{
	size_t i, n = strlen(needle);

	for (i = 0; hay[i] != '\0'; i++)
		if (strncasecmp(hay + i, needle, n) == 0)
			return 1;
	return 0;
}

/* The component of an affected[] entry's vendor/product, or MAX. */
static enum fa_component
cve5_component(json_t *aff)
{
	const char *v = json_string_value(json_object_get(aff, "vendor"));
	const char *p = json_string_value(json_object_get(aff, "product"));

	if (v == NULL || p == NULL)
		return FA_COMP_MAX;
	/* The kernel as CNAs name it: kernel.org "Linux"/"Linux", Google
	 * "Linux"/"Kernel", Red Hat "n/a"/"kernel", Google again "Linux
	 * Kernel"/"Kernel" and "The Linux Kernel Organization"/"linux". */
	if ((strcasecmp(v, "Linux") == 0 || strcasecmp(v, "Linux Kernel") ==
	    0 || strcasecmp(v, "The Linux Kernel Organization") == 0 ||
	    strcasecmp(v, "n/a") == 0) && (strcasecmp(p, "Linux") == 0 ||
	    strcasecmp(p, "Kernel") == 0 ||
	    strcasecmp(p, "linux_kernel") == 0 ||
	    strcasecmp(p, "Linux kernel") == 0))
		return FA_COMP_KERNEL;
	if (strcasecmp(v, "NVIDIA") != 0)
		return FA_COMP_MAX;
	if (cve5_has(p, "Container Toolkit"))
		return FA_COMP_TOOLKIT;
	if (cve5_has(p, "GPU Display Driver") || cve5_has(p, "Virtual GPU") ||
	    cve5_has(p, "vGPU"))
		return FA_COMP_DRIVER;
	return FA_COMP_MAX;
}

/*
 * A version member that is no text at all (too long, control bytes) is
 * a broken record: an error.  Text that is not a kernel release is the
 * record's prose, judged by kernel_like().
 */
static int
cve5_text(struct cve5_ctx *c, const char *path, const char *key,
    const char *s)
{
	char p[128];
	size_t i;

	for (i = 0; s[i] != '\0' && i <= FA_VERSION_MAX; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			break;
	if (s[i] == '\0' && i > 0)
		return 0;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	return cve5_bad(c, p, i > FA_VERSION_MAX ? "version too long" :
	    "not a printable version");
}

/* A kernel release: "6.1.77", "5.16-rc6", "6.0~rc1". */
static int
kernel_like(const char *s)
{
	return s[0] >= '0' && s[0] <= '9' &&
	    fa_version_valid(FA_VER_KERNEL, s, NULL) == 0;
}

/*
 * One kernel versions[] entry into k.  "git" entries (commit hashes) are
 * not versions; an "affected" bounded by lessThanOrEqual cannot be said
 * half-open and is not taken; other "unaffected" shapes ("0" lessThan the
 * introducing release) only restate the introduced one.
 */
static int
cve5_kentry(struct cve5_ctx *c, const char *path, json_t *o,
    struct cve5_kern *k)
{
	const char *vt = json_string_value(json_object_get(o, "versionType"));
	const char *st = json_string_value(json_object_get(o, "status"));
	const char *v = json_string_value(json_object_get(o, "version"));
	const char *lt = json_string_value(json_object_get(o, "lessThan"));
	const char *le = json_string_value(json_object_get(o,
	    "lessThanOrEqual"));
	char l1[CVE5_LINE_MAX], l2[CVE5_LINE_MAX];
	size_t n;
	int e;

	if (!json_is_object(o) || st == NULL || v == NULL)
		return cve5_bad(c, path, "no status or version");
	if (vt != NULL && strcmp(vt, "git") == 0)
		return 0;
	/* "unspecified" (Google's, MITRE's records): no lower bound. */
	if (strcmp(v, "unspecified") == 0)
		v = "0";
	if ((e = cve5_text(c, path, "version", v)) != 0 ||
	    (lt != NULL && (e = cve5_text(c, path, "lessThan", lt)) != 0))
		return e;
	/* Prose where a version goes ("Linux Kernel 5.17 rc6", "8.4" is
	 * no kernel a record means either): the entry says nothing a
	 * range can hold, and the record's reason says so. */
	if ((strcmp(v, "0") != 0 && !kernel_like(v)) ||
	    (lt != NULL && !kernel_like(lt))) {
		if (k->unusable[0] == '\0')
			snprintf(k->unusable, sizeof(k->unusable), "%s: "
			    "version \"%.40s\"%s%.40s%s is not a kernel "
			    "release", path, v, lt != NULL ? " lessThan \"" :
			    "", lt != NULL ? lt : "", lt != NULL ? "\"" : "");
		return 0;
	}
	if (strcmp(st, "affected") == 0) {
		if (le != NULL)
			return 0;
		/* No lower bound and a bound that is a release of one
		 * line: the first fixed release there (Google's
		 * CVE-2021-22600 lists 5.4.168, 5.10.88, 5.15.11 and
		 * 5.16-rc6 so), or the mainline one. */
		if (lt != NULL && strcmp(v, "0") == 0) {
			if (mainline_release(lt)) {
				if (k->mainline == NULL ||
				    klt(lt, k->mainline, NULL) > 0)
					k->mainline = lt;
				k->any_intro = 1;
				return 0;
			}
			if (k->nfixes >= CVE5_MAX_FIXES)
				return cve5_bad(c, path, "more than 64 "
				    "stable lines");
			k->fixes[k->nfixes++] = lt;
			k->any_intro = 1;
			k->bounds_only = 1;
			return 0;
		}
		if (lt == NULL) {
			if (strcmp(v, "0") == 0)
				k->intro = NULL;
			else if (!k->any_intro || (k->intro != NULL &&
			    klt(v, k->intro, NULL) > 0))
				k->intro = v;
			k->any_intro = 1;
			return 0;
		}
		if (k->nplain >= CVE5_MAX_FIXES)
			return cve5_bad(c, path, "more than 64 ranges");
		k->lo[k->nplain] = strcmp(v, "0") == 0 ? NULL : v;
		k->hi[k->nplain++] = lt;
		return 0;
	}
	if (strcmp(st, "unaffected") != 0 || le == NULL)
		return 0;
	if (strcmp(le, "*") == 0) {
		k->mainline = v;
		return 0;
	}
	n = strlen(le);
	if (n < 3 || strcmp(le + n - 2, ".*") != 0 ||
	    kline(v, l1) != 0 || kline(le, l2) != 0 || strcmp(l1, l2) != 0)
		return cve5_bad(c, path, "lessThanOrEqual: not the version's "
		    "line X.Y.*");
	if (k->nfixes >= CVE5_MAX_FIXES)
		return cve5_bad(c, path, "more than 64 stable lines");
	k->fixes[k->nfixes++] = v;
	return 0;
}

static int
cve5_kernel(struct cve5_ctx *c, struct fa_feed_rec *r, const char *apath,
    json_t *aff)
{
	struct cve5_kern k;
	json_t *vs = json_object_get(aff, "versions"), *o;
	const char *err = NULL, *ds;
	char path[128];
	size_t i, n0;
	int e;

	memset(&k, 0, sizeof(k));
	if (vs != NULL && (!json_is_array(vs) || json_array_size(vs) > 256)) {
		snprintf(path, sizeof(path), "%s.versions", apath);
		return cve5_bad(c, path, "not an array of at most 256");
	}
	json_array_foreach(vs, i, o) {
		snprintf(path, sizeof(path), "%s.versions[%zu]", apath, i);
		if ((e = cve5_kentry(c, path, o, &k)) != 0)
			return e;
	}
	n0 = r->nranges;
	for (i = 0; i < k.nplain; i++)
		if (fa_feed_add_range(r, k.lo[i], k.hi[i]) != 0)
			return cve5_bad(c, apath, "more than 64 ranges");
	/* One affected release and nothing else, where releases not
	 * listed are unaffected (Red Hat's CVE-2022-0185: "8.4"): a point,
	 * which says nothing of the releases around it. */
	ds = json_string_value(json_object_get(aff, "defaultStatus"));
	if (k.any_intro && k.intro != NULL && k.nfixes == 0 &&
	    k.mainline == NULL && k.nplain == 0 &&
	    (ds == NULL || strcmp(ds, "affected") != 0)) {
		if (k.unusable[0] == '\0')
			snprintf(k.unusable, sizeof(k.unusable), "%s.versions: "
			    "one affected release \"%.40s\" and no bound",
			    apath, k.intro);
	} else if (k.any_intro || k.nfixes > 0 || k.mainline != NULL) {
		if (fa_feed_kernel_ranges(r, k.intro, k.fixes, k.nfixes,
		    k.mainline, &err) != 0) {
			snprintf(path, sizeof(path), "%s.versions", apath);
			return cve5_bad(c, path, err);
		}
	}
	/* Bare upper bounds with no mainline one: what lies above the last
	 * line is not said (kernel.org's "unaffected ... *" would say it),
	 * so no open range is made of silence. */
	if (k.bounds_only && k.mainline == NULL && r->nranges > n0 &&
	    r->ranges[r->nranges - 1].fixed == NULL) {
		r->nranges--;
		free(r->ranges[r->nranges].introduced);
		free(r->ranges[r->nranges].fixed);
		if (k.unusable[0] == '\0')
			snprintf(k.unusable, sizeof(k.unusable), "%s.versions: "
			    "upper bounds per line and none for mainline: "
			    "releases above the last line are not judged",
			    apath);
	}
	/* A CNA other than kernel.org ("3.15 lessThan 6.8", Google's
	 * CVE-2024-1086) that names the mainline fix and no stable line's:
	 * the stable releases below it that carry the backport (6.1.76)
	 * are inside the range, and the record cannot tell them.  (The
	 * kernel's own CNA lists every stable fix it knows.) */
	for (i = n0; i < r->nranges; i++)
		r->ranges[i].mainline_only = k.nfixes == 0 &&
		    r->trust != FA_TRUST_VENDOR && r->ranges[i].fixed != NULL &&
		    mainline_release(r->ranges[i].fixed) &&
		    !one_line(r->ranges[i].introduced, r->ranges[i].fixed);
	/* What was not taken is said, with or without ranges beside. */
	if (k.unusable[0] != '\0' && r->no_ranges == NULL &&
	    (r->no_ranges = fa_strdup(k.unusable)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

/*
 * NVIDIA's prose.  "All versions prior to X", "prior to X", "< X" give
 * [NULL, X); a proper {"version", "lessThan"} gives [version, lessThan).
 * "All versions up to and including X" ("prior to and including X")
 * names the last affected release, not the first fixed one, which a
 * half-open range cannot say; anything else ("R535, R550") is not guessed
 * at.  Such prose is passed over, and a record with nothing else keeps no
 * ranges (nranges 0): NVIDIA's CSAF advisories (core/cvefeed_csaf.c) give
 * the ranges.
 */
static const char *
cve5_prose(const char *v)
{
	static const char *const pre[] = {
		"All versions prior to ", "all versions prior to ",
		"prior to ", "< ", "<",
	};
	const char *x, *err;
	size_t k;

	if (strstr(v, "including") != NULL)
		return NULL;
	for (k = 0; k < sizeof(pre) / sizeof(pre[0]); k++)
		if (strncmp(v, pre[k], strlen(pre[k])) == 0) {
			x = v + strlen(pre[k]);
			return fa_version_valid(FA_VER_UPSTREAM, x, &err) == 0 ?
			    x : NULL;
		}
	return NULL;
}

static int
cve5_nvidia(struct cve5_ctx *c, struct fa_feed_rec *r, const char *apath,
    json_t *aff)
{
	json_t *vs = json_object_get(aff, "versions"), *o;
	const char *v, *st, *lt, *lo, *err = NULL;
	char path[128];
	size_t i;

	json_array_foreach(vs, i, o) {
		v = json_string_value(json_object_get(o, "version"));
		st = json_string_value(json_object_get(o, "status"));
		lt = json_string_value(json_object_get(o, "lessThan"));
		if (v == NULL || st == NULL || strcmp(st, "affected") != 0)
			continue;
		snprintf(path, sizeof(path), "%s.versions[%zu]", apath, i);
		lo = NULL;
		if (lt != NULL) {
			if ((strcmp(v, "0") != 0 && fa_version_valid(
			    FA_VER_UPSTREAM, lo = v, &err) != 0) ||
			    fa_version_valid(FA_VER_UPSTREAM, lt, &err) != 0)
				return cve5_bad(c, path, err);
		} else if ((lt = cve5_prose(v)) == NULL)
			continue;
		if (fa_feed_add_range(r, lo, lt) != 0)
			return cve5_bad(c, path, "more than 64 ranges");
	}
	return 0;
}

/*
 * The first cvssV3_1 or cvssV4_0 baseScore of a metrics[] array (the
 * CNA's, else an ADP's: kernel.org scores nothing, CISA's ADP does).
 */
static int
cve5_score(struct cve5_ctx *c, struct fa_feed_rec *r, json_t *m)
{
	const char *ver;
	json_t *o, *s;
	size_t i;

	json_array_foreach(m, i, o) {
		if ((s = json_object_get(o, "cvssV3_1")) != NULL)
			ver = "3.1";
		else if ((s = json_object_get(o, "cvssV4_0")) != NULL)
			ver = "4.0";
		else
			continue;
		s = json_object_get(s, "baseScore");
		if (!json_is_number(s) || json_number_value(s) < 0 ||
		    json_number_value(s) > 10)
			return cve5_bad(c, "metrics", "baseScore: not a "
			    "number in [0, 10]");
		r->cvss = json_number_value(s);
		return (r->cvss_version = fa_strdup(ver)) != NULL ? 0 :
		    FA_ERR_NOMEM;
	}
	return 0;
}

/* Title, score, advisory, dates: what every record of this CVE shares. */
static int
cve5_common(struct cve5_ctx *c, struct fa_feed_rec *r, json_t *meta,
    json_t *adp)
{
	json_t *refs = json_object_get(c->cna, "references");
	const char *t = json_string_value(json_object_get(c->cna, "title"));
	const char *u, *d;
	char day[11];
	size_t i;
	int e;

	if (t == NULL)
		t = json_string_value(json_object_get(json_array_get(
		    json_object_get(c->cna, "descriptions"), 0), "value"));
	if (t != NULL)
		r->title = fa_feed_title(t);
	if ((e = cve5_score(c, r, json_object_get(c->cna, "metrics"))) != 0)
		return e;
	for (i = 0; r->cvss < 0 && i < json_array_size(adp); i++)
		if ((e = cve5_score(c, r, json_object_get(json_array_get(adp,
		    i), "metrics"))) != 0)
			return e;
	u = json_string_value(json_object_get(json_array_get(refs, 0), "url"));
	if (u != NULL && (r->advisory = fa_feed_str(u)) == NULL)
		return cve5_bad(c, "containers.cna.references[0].url",
		    "not printable ASCII of at most 400 bytes");
	d = json_string_value(json_object_get(meta, "datePublished"));
	if (d != NULL && (fa_feed_date(d, day) != 0 ||
	    (r->published = fa_strdup(day)) == NULL))
		return cve5_bad(c, "cveMetadata.datePublished", "not a date");
	d = json_string_value(json_object_get(meta, "dateUpdated"));
	if (d != NULL && (fa_feed_date(d, day) != 0 ||
	    (r->modified = fa_strdup(day)) == NULL))
		return cve5_bad(c, "cveMetadata.dateUpdated", "not a date");
	if (r->modified == NULL && r->published == NULL)
		return cve5_bad(c, "cveMetadata", "no datePublished or "
		    "dateUpdated");
	return fa_feed_saw_date(c->f, r->modified != NULL ? r->modified :
	    r->published);
}

/* Members whose type, when present, is checked before anything is read. */
static const struct {
	int		 where;		/* 0 cveMetadata, 1 containers.cna */
	const char	*key;
	json_type	 type;
} cve5_types[] = {
	{ 0, "datePublished", JSON_STRING }, { 0, "dateUpdated", JSON_STRING },
	{ 0, "state", JSON_STRING }, { 0, "assignerShortName", JSON_STRING },
	{ 1, "title", JSON_STRING }, { 1, "descriptions", JSON_ARRAY },
	{ 1, "metrics", JSON_ARRAY }, { 1, "references", JSON_ARRAY },
};

static int
cve5_check_types(struct cve5_ctx *c, json_t *meta)
{
	char path[64];
	json_t *j;
	size_t i;

	for (i = 0; i < sizeof(cve5_types) / sizeof(cve5_types[0]); i++) {
		j = json_object_get(cve5_types[i].where ? c->cna : meta,
		    cve5_types[i].key);
		if (j == NULL || json_typeof(j) == cve5_types[i].type)
			continue;
		snprintf(path, sizeof(path), "%s.%s", cve5_types[i].where ?
		    "containers.cna" : "cveMetadata", cve5_types[i].key);
		return cve5_bad(c, path, "wrong JSON type");
	}
	if (c->adp != NULL && !json_is_array(c->adp))
		return cve5_bad(c, "containers.adp", "wrong JSON type");
	return 0;
}

/* One affected[] entry; *slot: this record's feed record per component. */
static int
cve5_affected(struct cve5_ctx *c, json_t *meta, size_t ai, json_t *aff,
    size_t *slot)
{
	enum fa_component comp = cve5_component(aff);
	const char *asn = json_string_value(json_object_get(meta,
	    "assignerShortName"));
	struct fa_feed_rec *r;
	char path[64];
	int e;

	if (comp == FA_COMP_MAX)
		return 1;
	if (slot[comp] == (size_t)-1) {
		if (c->f->n >= FA_FEED_MAX_RECORDS)
			return fa_why(c->why, "%s: more than %d records",
			    c->name, FA_FEED_MAX_RECORDS);
		if ((r = fa_feed_add(c->f)) == NULL)
			return FA_ERR_NOMEM;
		slot[comp] = c->f->n - 1;
		r->component = comp;
		/* The vendor speaks when it is the CNA (kernel.org is
		 * "Linux", NVIDIA "nvidia"). */
		r->trust = asn != NULL && (strcasecmp(asn, "Linux") == 0 ||
		    strcasecmp(asn, "nvidia") == 0) ? FA_TRUST_VENDOR :
		    FA_TRUST_REVIEWED;
		if ((r->id = fa_strdup(c->rid)) == NULL)
			return FA_ERR_NOMEM;
		if ((e = cve5_common(c, r, meta, c->adp)) != 0)
			return e;
	}
	r = &c->f->v[slot[comp]];
	snprintf(path, sizeof(path), "containers.cna.affected[%zu]", ai);
	return comp == FA_COMP_KERNEL ? cve5_kernel(c, r, path, aff) :
	    cve5_nvidia(c, r, path, aff);
}

static int
cve5_record(struct cve5_ctx *c, json_t *rec, size_t idx)
{
	json_t *meta = json_object_get(rec, "cveMetadata"), *affs, *a;
	const char *id = json_string_value(json_object_get(meta, "cveId"));
	const char *st = json_string_value(json_object_get(meta, "state"));
	size_t slot[FA_COMP_MAX], i, taken = 0;
	char rid[24];
	int e;

	snprintf(rid, sizeof(rid), "[%zu]", idx);
	c->rid = rid;
	if (!json_is_object(rec))
		return cve5_bad(c, "", "not a CVE record object");
	if (!fa_feed_cve_id_ok(id))
		return cve5_bad(c, "cveMetadata.cveId", "missing or not a CVE "
		    "ID");
	c->rid = id;
	c->cna = json_object_get(json_object_get(rec, "containers"), "cna");
	c->adp = json_object_get(json_object_get(rec, "containers"), "adp");
	if ((e = cve5_check_types(c, meta)) != 0)
		return e;
	if (st != NULL && strcmp(st, "REJECTED") == 0) {
		c->f->skipped++;
		return 0;
	}
	affs = json_object_get(c->cna, "affected");
	if (!json_is_object(c->cna) || !json_is_array(affs) ||
	    json_array_size(affs) > 256)
		return cve5_bad(c, "containers.cna.affected", "missing or not "
		    "an array of at most 256");
	memset(slot, 0xff, sizeof(slot));
	json_array_foreach(affs, i, a) {
		if (!json_is_object(a))
			return cve5_bad(c, "containers.cna.affected",
			    "an entry is not an object");
		if ((e = cve5_affected(c, meta, i, a, slot)) < 0)
			return e;
		taken += e == 0;
	}
	if (taken == 0)
		c->f->skipped++;
	return 0;
}

int
fa_feed_parse_cve5(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why)
{
	struct cve5_ctx c = { NULL, name, NULL, why, NULL, NULL };
	json_t *root, *v;
	json_error_t je;
	size_t i;
	int e = 0;

	*out = NULL;
	*why = NULL;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return (*why = fa_json_errmsg(name, &je)) != NULL ?
		    FA_ERR_INPUT : FA_ERR_NOMEM;
	if ((c.f = fa_feed_new(FA_FEED_CVE5, name, buf, len)) == NULL) {
		json_decref(root);
		return FA_ERR_NOMEM;
	}
	if (json_is_array(root)) {
		json_array_foreach(root, i, v)
			if ((e = cve5_record(&c, v, i)) != 0)
				break;
	} else
		e = cve5_record(&c, root, 0);
	json_decref(root);
	if (e != 0) {
		fa_feed_free(c.f);
		return e;
	}
	*out = c.f;
	return 0;
}
