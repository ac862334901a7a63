/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.html: one self-contained page for procurement and legal readers,
 * made from a finished report.json.  Inline CSS (with a print stylesheet),
 * no script, nothing fetched: the only links are in-page anchors and plain
 * <a href> to http(s) references.  A Content-Security-Policy meta element
 * forbids scripts and fetches in case a reader's browser meets anything
 * this file did not mean to emit.
 *
 * The page is written as it is made, through libxml2's xmlTextWriter, so
 * the library escapes every text and attribute and nothing holds the whole
 * document: the builders below name the element they add to, and an
 * element is closed once something is added to one of its ancestors (a
 * stack of the open ones, as an HTML tree written in document order).  A
 * builder that added to an element already closed would put content where
 * a tree would not: that is an internal error, never a silently different
 * page.  Empty void elements end in "/>", which HTML parsers ignore (HTML
 * Living Standard 13.1.2.1); every other element gets its end tag, and
 * <style> (this file's own CSS) is raw text, as HTML parses it.  Every
 * string from the report goes through clean() first: the report may come
 * from elsewhere, and a JSON string may hold control characters (and, made
 * in memory without jansson's check, invalid UTF-8).  Sizes are bounded
 * (FA_HTML_* below); a cut is said where it happens and points to
 * report.json.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/xmlstring.h>
#include <libxml/xmlwriter.h>

#include "../core/errors.h"
#include "../core/model.h"
#include "../core/util.h"
#include "report.h"
#include "xml_util.h"

#define FA_HTML_STR_MAX		4096	/* bytes of one string shown */
#define FA_HTML_VALUE_MAX	1024	/* bytes of one evidence value shown */
#define FA_HTML_EVIDENCE_MAX	12	/* evidence items shown per finding */
#define FA_HTML_LIST_MAX	32	/* references, targets, sources... */
#define FA_HTML_ROWS_MAX	1000	/* findings or table rows per section */
#define FA_HTML_CITE_MAX	12	/* findings cited per annex clause */
#define FA_HTML_TOP_RISKS	5	/* check titles in "top risks" */
#define FA_HTML_DEPTH_MAX	6	/* nesting shown in an evidence value */
#define FA_HTML_URL_MAX		2048	/* longer references stay text */
#define FA_HTML_NEST_MAX	32	/* elements open at once (the page
					   nests about 12 deep) */

#define CUT_NOTE " [... cut here: the full text is in report.json]"

/* Result statuses (core/model.h order) plus one for anything else. */
#define ST_OTHER	FA_ST_MAX
#define ST_N		(FA_ST_MAX + 1)
/* Severities (core/model.h order) plus "unrated" for anything else. */
#define SEV_UNRATED	FA_SEV_MAX
#define SEV_N		(FA_SEV_MAX + 1)

/* One entry of results[] that is an object, classified once. */
struct hres {
	const json_t	*r;
	int		 st;	/* FA_ST_* or ST_OTHER */
	int		 sev;	/* FA_SEV_* or SEV_UNRATED */
	int		 waived;
	size_t		 num;	/* F-num (failing) or W-num (waived), or 0 */
	size_t		 clause; /* annex clause A.n of a failure, or 0 */
};

/*
 * An element, named by the order it was opened in (1 is the document):
 * valid while it is open, 0 when it could not be made.
 */
typedef size_t hnode;
#define H_DOC	((hnode)1)

struct html {
	struct fa_xw	 x;		/* the writer (xml_util.h) */
	int		 oom;		/* any failure: every helper stops */
	int		 misorder;	/* added to a closed element (a bug) */
	struct {
		hnode		 id;
		const char	*name;	/* a literal of this file */
		int		 filled; /* holds text or an element */
	} open[FA_HTML_NEST_MAX];	/* open[0] is the document */
	size_t		 depth;		/* entries of open[] */
	hnode		 last;		/* the last id given */
	const json_t	*rep;
	struct hres	*res;
	size_t		 nres;
	size_t		 malformed;	/* results[] entries not objects */
	int		 fail_on;	/* FA_SEV_* */
	int		 fail_on_recorded;
	size_t		 by_status[ST_N];
	size_t		 fails[SEV_N];	/* failures not waived */
	size_t		 waived[SEV_N];	/* failures waived */
	size_t		 failing;	/* not waived, at or above fail_on */
	size_t		 nfind, nwaived;
	const struct hres **cl;		/* annex clauses: first failure of */
	size_t		 ncl;		/* each failed check */
	const struct hres **cl_find;	/* and its first finding, or NULL */
	size_t		 cl_dropped;	/* failures past FA_HTML_ROWS_MAX */
};

/* --- untrusted text --- */

/*
 * Decode one UTF-8 character of at most `left` bytes at p: its code point
 * with *n its length, or FA_ERR_INPUT (*n 1) for a byte that does not
 * start a well-formed sequence (RFC 3629, section 4).  xmlGetUTF8Char
 * decodes but accepts continuation bytes as leads, overlong forms,
 * surrogates and values above U+10FFFF, so those are refused here.
 */
static int
utf8_char(const unsigned char *p, size_t left, int *n)
{
	int len = left > 4 ? 4 : (int)left, c;

	*n = 1;
	if (p[0] < 0x80)
		return p[0];
	if (p[0] < 0xc2 || p[0] > 0xf4)
		return FA_ERR_INPUT;
	if ((c = xmlGetUTF8Char(p, &len)) < 0)
		return FA_ERR_INPUT;
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
	    (len == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return FA_ERR_INPUT;
	*n = len;
	return c;
}

/*
 * Characters not shown as themselves: C0 and C1 controls and DEL; the
 * invisible and reordering format characters (zero-width ones, line and
 * paragraph separators, the bidirectional embeddings, overrides and
 * isolates of Unicode UAX #9, which can make a text display in another order
 * than it is stored: CVE-2021-42574), tag characters; noncharacters.
 */
static int
hidden_char(int c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c ||
	    (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
	    (c >= 0x2060 && c <= 0x2069) || c == 0xfeff ||
	    (c >= 0xe0000 && c <= 0xe007f) || (c >= 0xfdd0 && c <= 0xfdef) ||
	    (c & 0xfffe) == 0xfffe;
}

/*
 * A copy of len untrusted bytes fit for a text node: valid UTF-8 is kept,
 * hidden characters and bytes outside well-formed sequences become "\xNN"
 * per byte (as in report.txt; a backslash stays itself, since fabric
 * strings were already escaped that way at acquisition).  At most cap bytes
 * are used, cut at a character boundary, and a cut is said.  NULL on ENOMEM.
 */
static char *
clean(const char *s, size_t len, size_t cap)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, n = len < cap ? len : cap;
	char *out, *q;
	int c, k, j;

	if ((out = malloc(n * 4 + sizeof(CUT_NOTE))) == NULL)
		return NULL;
	for (i = 0, q = out; i < n; i += (size_t)k) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			*q++ = (char)p[i];	/* printable ASCII */
			k = 1;
			continue;
		}
		c = utf8_char(p + i, len - i, &k);
		if (c >= 0 && i + (size_t)k > n)
			break;		/* the cap falls inside this character */
		if (c >= 0 && !hidden_char(c)) {
			memcpy(q, p + i, (size_t)k);
			q += k;
			continue;
		}
		for (j = 0; j < k; j++)
			q += snprintf(q, 5, "\\x%02x", p[i + (size_t)j]);
	}
	*q = '\0';
	if (len > cap)
		memcpy(q, CUT_NOTE, sizeof(CUT_NOTE));
	return out;
}

/* A string member, or NULL when absent or not a string. */
static const char *
jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A member, or NULL (also when o is no object). */
static const json_t *
jget(const json_t *o, const char *k)
{
	return json_object_get(o, k);
}

/* A result's check text (rationale, ...): its own, or its check's. */
static const json_t *
rtext(const struct html *h, const json_t *r, const char *key)
{
	return fa_report_text(h->rep, r, key);
}

/* The first non-NULL of two JSON values. */
static const json_t *
either(const json_t *a, const json_t *b)
{
	return a != NULL && !json_is_null(a) ? a : b;
}

/* --- a bounded string builder for JSON values --- */

struct sbuf {
	char	*p;
	size_t	 len, cap, max;
	int	 oom;
};

/* Append n bytes, silently stopping a few bytes past max (see clean). */
static void
sb_add(struct sbuf *b, const char *s, size_t n)
{
	size_t want;
	char *np;

	if (b->oom || b->len > b->max)
		return;
	if (n > b->max + 4 - b->len)
		n = b->max + 4 - b->len;
	if (b->len + n + 1 > b->cap) {
		want = b->cap * 2 > b->len + n + 1 ? b->cap * 2 :
		    b->len + n + 1;
		if (want > b->max + 5)
			want = b->max + 5;
		if ((np = realloc(b->p, want)) == NULL) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = want;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
sb_puts(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void sb_value(struct sbuf *b, const json_t *v, int depth);

/*
 * A secret as the report gives it (already redacted unless the run
 * revealed it): its value, then what is known about it.
 */
static void
sb_secret(struct sbuf *b, const json_t *v)
{
	const json_t *val = json_object_get(v, "value");

	if (val != NULL)
		sb_value(b, val, FA_HTML_DEPTH_MAX);
	else
		sb_puts(b, FA_REDACTED);
	sb_puts(b, " (secret");
	if (json_is_true(json_object_get(v, "well_known")))
		sb_puts(b, "; a well-known default value");
	if (json_is_boolean(json_object_get(v, "zero")))
		sb_puts(b, json_is_true(json_object_get(v, "zero")) ?
		    "; zero" : "; non-zero");
	sb_puts(b, ")");
}

/* Any JSON value as text: "key=value, ..." for objects, ", " in arrays. */
static void
sb_value(struct sbuf *b, const json_t *v, int depth)
{
	const char *k;
	json_t *e;
	size_t i;
	char num[64];

	if (json_is_string(v))
		sb_add(b, json_string_value(v), json_string_length(v));
	else if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%lld",
		    (long long)json_integer_value(v));
		sb_puts(b, num);
	} else if (json_is_real(v)) {
		snprintf(num, sizeof(num), "%g", json_real_value(v));
		sb_puts(b, num);
	} else if (json_is_boolean(v))
		sb_puts(b, json_is_true(v) ? "yes" : "no");
	else if (v == NULL || json_is_null(v))
		sb_puts(b, "none");
	else if (depth >= FA_HTML_DEPTH_MAX)
		sb_puts(b, "...");
	else if (json_is_object(v) && json_is_true(json_object_get(v,
	    "secret")))
		sb_secret(b, v);
	else if (json_is_object(v)) {
		sb_puts(b, depth > 0 ? "{" : "");
		i = 0;
		json_object_foreach((json_t *)v, k, e) {
			if (i++ > 0)
				sb_puts(b, ", ");
			sb_puts(b, k);
			sb_puts(b, "=");
			sb_value(b, e, depth + 1);
			if (b->len > b->max)
				break;
		}
		sb_puts(b, depth > 0 ? "}" : "");
	} else if (json_is_array(v)) {
		sb_puts(b, depth > 0 ? "[" : "");
		json_array_foreach(v, i, e) {
			if (i > 0)
				sb_puts(b, depth > 0 ? ", " : "; ");
			sb_value(b, e, depth + 1);
			if (b->len > b->max)
				break;
		}
		sb_puts(b, depth > 0 ? "]" : "");
	}
}

/* --- writing: every helper is a no-op once anything failed --- */

/* 1 if name is one of the NULL-terminated names. */
static int
one_of(const char *name, const char *const *names)
{
	for (; *names != NULL; names++)
		if (strcmp(name, *names) == 0)
			return 1;
	return 0;
}

/* Elements HTML has no end tag for (HTML Living Standard 13.1.2). */
static int
is_void(const char *name)
{
	static const char *const v[] = { "br", "hr", "meta", "link", "img",
	    "col", "wbr", NULL };

	return one_of(name, v);
}

/* Elements whose end starts a new line, to keep the file readable. */
static int
ends_line(const char *name)
{
	static const char *const b[] = { "head", "body", "meta", "title",
	    "style", "nav", "section", "article", "div", "table", "thead",
	    "tbody", "tr", "ul", "ol", "li", "p", "h1", "h2", "h3", "h4",
	    NULL };

	return one_of(name, b);
}

/* Record a libxml2 call's failure (rc < 0). */
static void
wrote(struct html *h, int rc)
{
	if (rc < 0)
		h->oom = 1;
}

/* Close the innermost open element. */
static void
close_top(struct html *h)
{
	const char *name = h->open[h->depth - 1].name;

	h->depth--;
	wrote(h, is_void(name) ? xmlTextWriterEndElement(h->x.w) :
	    xmlTextWriterFullEndElement(h->x.w));
	if (!h->oom && ends_line(name))
		wrote(h, xmlTextWriterWriteRaw(h->x.w, BAD_CAST "\n"));
}

/*
 * Make n the innermost open element, closing those inside it: 1, or 0
 * (nothing to do) when n is 0, something failed, or n was closed already,
 * which is a bug of this file's and stops the page.
 */
static int
to_open(struct html *h, hnode n)
{
	size_t d;

	if (h->oom || n == 0)
		return 0;
	for (d = h->depth; d > 0 && h->open[d - 1].id != n; d--)
		;
	if (d == 0) {
		h->misorder = h->oom = 1;
		return 0;
	}
	while (!h->oom && h->depth > d)
		close_top(h);
	return !h->oom;
}

static hnode
el(struct html *h, hnode parent, const char *name, const char *cls)
{
	if (!to_open(h, parent))
		return 0;
	if (h->depth == FA_HTML_NEST_MAX) {
		h->misorder = h->oom = 1;
		return 0;
	}
	h->open[h->depth - 1].filled = 1;
	wrote(h, xmlTextWriterStartElement(h->x.w, BAD_CAST name));
	if (cls != NULL && !h->oom)
		wrote(h, xmlTextWriterWriteAttribute(h->x.w, BAD_CAST "class",
		    BAD_CAST cls));
	if (h->oom)
		return 0;
	h->open[h->depth].id = ++h->last;
	h->open[h->depth].name = name;
	h->open[h->depth].filled = 0;
	h->depth++;
	return h->last;
}

/*
 * Set an attribute whose value this file made or checked, on an element
 * nothing was added to yet (one too late is a bug, as above).
 */
static void
attr(struct html *h, hnode n, const char *name, const char *value)
{
	if (!to_open(h, n))
		return;
	if (h->open[h->depth - 1].filled) {
		h->misorder = h->oom = 1;
		return;
	}
	wrote(h, xmlTextWriterWriteAttribute(h->x.w, BAD_CAST name,
	    BAD_CAST value));
}

/* Append len untrusted bytes as text, cleaned and cut at cap. */
static void
put_n(struct html *h, hnode n, const char *s, size_t len, size_t cap)
{
	char *c;

	if (s == NULL || !to_open(h, n))
		return;
	if ((c = clean(s, len, cap)) == NULL) {
		h->oom = 1;
		return;
	}
	h->open[h->depth - 1].filled = 1;
	/* <style> holds only this file's CSS, which HTML reads raw. */
	wrote(h, strcmp(h->open[h->depth - 1].name, "style") == 0 ?
	    xmlTextWriterWriteRaw(h->x.w, BAD_CAST c) :
	    xmlTextWriterWriteString(h->x.w, BAD_CAST c));
	free(c);
}

/* Append an untrusted C string (NULL: nothing). */
static void
put(struct html *h, hnode n, const char *s)
{
	if (s != NULL)
		put_n(h, n, s, strnlen(s, FA_HTML_STR_MAX + 1),
		    FA_HTML_STR_MAX);
}

/* Append formatted text; it goes through clean() like any other. */
static void putf(struct html *h, hnode n, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));
static void
putf(struct html *h, hnode n, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	if (h->oom || n == 0)
		return;
	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0) {
		h->oom = 1;
		return;
	}
	put(h, n, s);
	free(s);
}

/* A muted remark such as "not recorded". */
static void
remark(struct html *h, hnode n, const char *s)
{
	put(h, el(h, n, "span", "none"), s);
}

static hnode
el_text(struct html *h, hnode parent, const char *name,
    const char *cls, const char *s)
{
	hnode n = el(h, parent, name, cls);

	put(h, n, s);
	return n;
}

/* Append any JSON value as text, cut at cap bytes; absent: remark none. */
static void
put_json(struct html *h, hnode n, const json_t *v, size_t cap,
    const char *none)
{
	struct sbuf b = { NULL, 0, 0, cap, 0 };

	if (h->oom || n == 0)
		return;
	if (v == NULL || json_is_null(v)) {
		if (none != NULL)
			remark(h, n, none);
		return;
	}
	sb_value(&b, v, 0);
	if (b.oom)
		h->oom = 1;
	else if (b.p != NULL)
		put_n(h, n, b.p, b.len, cap);
	free(b.p);
}

/*
 * 1 for an absolute http or https URL of printable ASCII with a host: the
 * only references made links.  Anything else (javascript:, data:, file:,
 * relative) stays text.
 */
static int
web_url(const char *s)
{
	size_t i, skip;

	if (s == NULL)
		return 0;
	if (strncasecmp(s, "https://", 8) == 0)
		skip = 8;
	else if (strncasecmp(s, "http://", 7) == 0)
		skip = 7;
	else
		return 0;
	if (s[skip] == '\0' || s[skip] == '/')
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (i >= FA_HTML_URL_MAX || (unsigned char)s[i] <= 0x20 ||
		    (unsigned char)s[i] >= 0x7f ||
		    strchr("\"'<>\\`", s[i]) != NULL)
			return 0;
	return 1;
}

/* A reference: a link when it is a web URL, else text. */
static void
put_ref(struct html *h, hnode parent, const json_t *v)
{
	const char *s = json_string_value(v);
	hnode a;

	if (!web_url(s)) {
		put_json(h, parent, v, FA_HTML_STR_MAX, "none");
		return;
	}
	a = el(h, parent, "a", NULL);
	attr(h, a, "href", s);
	attr(h, a, "rel", "noreferrer");
	put(h, a, s);
}

/* A table with a header row of heads (NULL-terminated); its tbody. */
static hnode
table(struct html *h, hnode parent, const char *cls,
    const char *const *heads)
{
	hnode t = el(h, parent, "table", cls), tr;

	if (heads != NULL) {
		tr = el(h, el(h, t, "thead", NULL), "tr", NULL);
		for (; *heads != NULL; heads++)
			el_text(h, tr, "th", NULL, *heads);
	}
	return el(h, t, "tbody", NULL);
}

/* A row "key | ..." of a two-column table; its value cell. */
static hnode
kv(struct html *h, hnode tbody, const char *key)
{
	hnode tr = el(h, tbody, "tr", NULL);

	el_text(h, tr, "th", NULL, key);
	return el(h, tr, "td", NULL);
}

static void
kv_json(struct html *h, hnode tbody, const char *key, const json_t *v)
{
	put_json(h, kv(h, tbody, key), v, FA_HTML_STR_MAX, "not recorded");
}

/* A note that a list was cut at `shown` of `total`. */
static void
cut_note(struct html *h, hnode parent, size_t shown, size_t total,
    const char *what)
{
	if (total > shown)
		putf(h, el(h, parent, "p", "note"), "%zu more %s not shown "
		    "here: see report.json.", total - shown, what);
}

/* --- words --- */

static const char *const sev_word[SEV_N] = {
	"critical", "high", "medium", "low", "info", "unrated",
};
static const char *const sev_badge[SEV_N] = {
	"CRITICAL", "HIGH", "MEDIUM", "LOW", "INFO", "UNRATED",
};
static const char *const sev_class[SEV_N] = {
	"finding sev-critical", "finding sev-high", "finding sev-medium",
	"finding sev-low", "finding sev-info", "finding sev-unrated",
};
static const char *const st_title[ST_N] = {
	"Passed", "Failed", "Not tested", "Not applicable", "Error",
	"Other (unknown status)",
};
static const char *const st_meaning[ST_N] = {
	"observed, and safe",
	"observed, and unsafe",
	"not observed (no permission, no answer, out of scope): not a pass",
	"the thing checked does not exist here",
	"a probe, or the decoding of its answer, failed: not a pass",
	"a status this page does not know: not a pass",
};

static const char *
family_word(const char *f)
{
	if (f == NULL)
		return NULL;
	if (strcmp(f, "ib") == 0)
		return "InfiniBand";
	if (strcmp(f, "eth") == 0)
		return "Ethernet";
	if (strcmp(f, "host") == 0)
		return "Host and containers";
	return f;
}

/* Why a family was not examined, in words. */
static const char *
fam_state_short(const char *s)
{
	if (s == NULL)
		return "state not recorded";
	if (strcmp(s, "not_requested") == 0)
		return "not requested";
	if (strcmp(s, "failed") == 0)
		return "its collection failed";
	return s;
}

static const char *
fam_state_word(const char *s)
{
	if (s == NULL)
		return "state not recorded";
	if (strcmp(s, "collected") == 0)
		return "scanned";
	if (strcmp(s, "not_requested") == 0)
		return "not scanned (not requested)";
	if (strcmp(s, "unavailable") == 0)
		return "not scanned (unavailable)";
	if (strcmp(s, "failed") == 0)
		return "scan failed";
	return s;
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void
badge(struct html *h, hnode parent, int sev)
{
	el_text(h, parent, "span", "sev", sev_badge[sev]);
}

/* The check ID of a result for display, never NULL. */
static const char *
check_id(const struct hres *x)
{
	const char *id = jstr(x->r, "id");

	return id != NULL ? id : "(no check ID)";
}

/* --- classification --- */

/* Same check (absent IDs are equal to each other). */
static int
same_check(const struct hres *a, const struct hres *b)
{
	const char *x = jstr(a->r, "id"), *y = jstr(b->r, "id");

	return strcmp(x != NULL ? x : "", y != NULL ? y : "") == 0;
}

/*
 * Classify every result once, count them, and number the failures in the
 * order sections 3 and 4 show them: F-n (failing) and W-n (waived).
 */
static int
classify(struct html *h)
{
	const json_t *results = json_object_get(h->rep, "results"), *r;
	const char *fo;
	enum fa_severity sv;
	enum fa_status st;
	struct hres *x;
	size_t i, n = json_array_size(results);
	int sev;

	fo = jstr(json_object_get(h->rep, "summary"), "fail_on");
	h->fail_on = FA_SEV_HIGH;	/* fabaudit's default --fail-on */
	if (fa_severity_parse(fo, &sv) == 0) {
		h->fail_on = (int)sv;
		h->fail_on_recorded = 1;
	}
	if (n > 0 && (h->res = calloc(n, sizeof(*h->res))) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(results, i, r) {
		if (!json_is_object(r)) {
			h->malformed++;
			continue;
		}
		x = &h->res[h->nres++];
		x->r = r;
		x->st = fa_status_parse(jstr(r, "status"), &st) == 0 ?
		    (int)st : ST_OTHER;
		x->sev = fa_severity_parse(jstr(r, "severity"), &sv) == 0 ?
		    (int)sv : SEV_UNRATED;
		x->waived = json_is_object(json_object_get(r, "waived"));
		h->by_status[x->st]++;
		if (x->st != FA_ST_FAIL)
			continue;
		if (x->waived)
			h->waived[x->sev]++;
		else {
			h->fails[x->sev]++;
			/* Fail closed: an unrated failure counts. */
			if (x->sev <= h->fail_on || x->sev == SEV_UNRATED)
				h->failing++;
		}
	}
	for (sev = 0; sev < SEV_N; sev++)
		for (i = 0; i < h->nres; i++) {
			x = &h->res[i];
			if (x->st == FA_ST_FAIL && x->sev == sev)
				x->num = x->waived ? ++h->nwaived :
				    ++h->nfind;
		}
	return 0;
}

/* Anchor name and label of a failure: "F-3" or "W-1". */
static void
fail_label(const struct hres *x, char *buf, size_t len)
{
	snprintf(buf, len, "%c-%zu", x->waived ? 'W' : 'F', x->num);
}

/* 1 when the failure's own entry is on the page (not cut). */
static int
fail_shown(const struct hres *x)
{
	return x->num > 0 && x->num <= FA_HTML_ROWS_MAX;
}

/* In-page link to a failure's entry, or its label when it is not shown. */
static void
put_anchor(struct html *h, hnode n, const struct hres *x)
{
	char lab[32], href[40];
	hnode a;

	fail_label(x, lab, sizeof(lab));
	if (!fail_shown(x)) {
		put(h, n, lab);
		return;
	}
	snprintf(href, sizeof(href), "#%s", lab);
	a = el(h, n, "a", NULL);
	attr(h, a, "href", href);
	put(h, a, lab);
}

/*
 * Call fn for each result that `want` accepts, most severe first, at most
 * FA_HTML_ROWS_MAX times; then say how many were left out.  Returns the
 * number accepted.
 */
static size_t
each_by_sev(struct html *h, hnode parent, hnode note_at,
    int (*want)(const struct hres *),
    void (*fn)(struct html *, hnode, const struct hres *),
    const char *what)
{
	size_t i, n = 0;
	int sev;

	for (sev = 0; sev < SEV_N; sev++)
		for (i = 0; i < h->nres; i++) {
			if (h->res[i].sev != sev || !want(&h->res[i]))
				continue;
			if (n++ < FA_HTML_ROWS_MAX)
				fn(h, parent, &h->res[i]);
		}
	cut_note(h, note_at, FA_HTML_ROWS_MAX, n, what);
	return n;
}

static int
is_finding(const struct hres *x)
{
	return x->st == FA_ST_FAIL && !x->waived;
}

static int
is_waived(const struct hres *x)
{
	return x->st == FA_ST_FAIL && x->waived;
}

static int
is_undecided(const struct hres *x)
{
	return x->st == FA_ST_NOT_TESTED || x->st == FA_ST_ERROR ||
	    x->st == ST_OTHER;
}

static int
is_na(const struct hres *x)
{
	return x->st == FA_ST_NOT_APPLICABLE;
}

static int
is_pass(const struct hres *x)
{
	return x->st == FA_ST_PASS;
}

static int
has_expired_waiver(const struct hres *x)
{
	return json_is_object(json_object_get(x->r, "waiver_expired"));
}

/* --- pieces of a result --- */

/*
 * A merged target row's nodes: " on K nodes: a, b, ..." or " on K nodes:
 * every scanned node but a, b" (reports/merge.h), at most
 * FA_HTML_LIST_MAX names.
 */
static void
put_node_set(struct html *h, hnode li, const json_t *set)
{
	const json_t *v = json_object_get(set, "names"), *e;
	size_t i;

	if (!json_is_object(set))
		return;
	putf(h, li, " on %lld nodes: ", (long long)json_integer_value(
	    json_object_get(set, "count")));
	if (v == NULL) {
		v = json_object_get(set, "all_scanned_but");
		put(h, li, json_array_size(v) == 0 ? "every scanned node" :
		    "every scanned node but ");
	}
	json_array_foreach(v, i, e) {
		if (i == FA_HTML_LIST_MAX) {
			putf(h, li, ", ... and %zu more", json_array_size(v) -
			    i);
			break;
		}
		putf(h, li, "%s%s", i > 0 ? ", " : "", json_is_string(e) ?
		    json_string_value(e) : "?");
	}
}

/* "target (name)", or for a merged report "node: target (name)" each. */
static void
put_target(struct html *h, hnode td, const json_t *r)
{
	const json_t *ts = json_object_get(r, "targets"), *t;
	hnode ul, li;
	size_t i;

	if (json_array_size(ts) == 0) {
		put_json(h, td, json_object_get(r, "target"), FA_HTML_STR_MAX,
		    "no target recorded");
		if (jstr(r, "target_name") != NULL)
			putf(h, td, " (%s)", jstr(r, "target_name"));
		return;
	}
	ul = el(h, td, "ul", "plain");
	json_array_foreach(ts, i, t) {
		if (i >= FA_HTML_LIST_MAX)
			break;
		li = el(h, ul, "li", NULL);
		if (jstr(t, "node") != NULL)
			putf(h, li, "%s: ", jstr(t, "node"));
		put_json(h, li, json_object_get(t, "target"),
		    FA_HTML_STR_MAX, "no target recorded");
		if (jstr(t, "target_name") != NULL)
			putf(h, li, " (%s)", jstr(t, "target_name"));
		put_node_set(h, li, json_object_get(t, "node_set"));
	}
	cut_note(h, td, FA_HTML_LIST_MAX, json_array_size(ts), "targets");
}

/* The check heading words: "CHECK-ID: title". */
static void
put_check(struct html *h, hnode n, const struct hres *x)
{
	el_text(h, n, "span", "cid", check_id(x));
	put(h, n, ": ");
	put_json(h, n, json_object_get(x->r, "title"), FA_HTML_STR_MAX,
	    "untitled");
}

static int
is_reproduce(const json_t *e)
{
	const char *f = jstr(e, "field");

	return f != NULL && strcmp(f, "reproduce") == 0;
}

/* The evidence list, without the reproduction command(s). */
static void
put_evidence(struct html *h, hnode td, const json_t *ev)
{
	const json_t *e;
	hnode ul, li;
	size_t i, n = 0;

	if (!json_is_array(ev)) {
		put_json(h, td, ev, FA_HTML_VALUE_MAX, "none recorded");
		return;
	}
	ul = el(h, td, "ul", "evidence");
	json_array_foreach(ev, i, e) {
		if (is_reproduce(e) || n++ >= FA_HTML_EVIDENCE_MAX)
			continue;
		li = el(h, ul, "li", NULL);
		if (!json_is_object(e)) {
			put_json(h, li, e, FA_HTML_VALUE_MAX, "none");
			continue;
		}
		put_json(h, el(h, li, "b", NULL), json_object_get(e, "field"),
		    FA_HTML_STR_MAX, "(unnamed)");
		put(h, li, " = ");
		put_json(h, li, json_object_get(e, "value"),
		    FA_HTML_VALUE_MAX, "none");
		if (jstr(e, "observation") != NULL)
			putf(h, el(h, li, "span", "obs"), " (observation %s)",
			    jstr(e, "observation"));
	}
	if (n == 0)
		remark(h, li = el(h, ul, "li", NULL), "none recorded");
	cut_note(h, td, FA_HTML_EVIDENCE_MAX, n, "evidence items");
}

static void
put_reproduce(struct html *h, hnode tb, const json_t *ev)
{
	const json_t *e;
	hnode td = 0;
	size_t i, n = 0;

	json_array_foreach(ev, i, e) {
		if (!is_reproduce(e) || n++ >= FA_HTML_EVIDENCE_MAX)
			continue;
		if (td == 0)
			td = kv(h, tb, "Reproduce (command the provider can run)");
		put_json(h, el(h, td, "pre", NULL), json_object_get(e, "value"),
		    FA_HTML_VALUE_MAX, "none");
	}
}

static void
put_refs(struct html *h, hnode tb, const json_t *refs)
{
	const json_t *e;
	hnode td, ul;
	size_t i;

	if (refs == NULL || json_is_null(refs) || (json_is_array(refs) &&
	    json_array_size(refs) == 0))
		return;
	td = kv(h, tb, "References");
	if (!json_is_array(refs)) {
		put_ref(h, td, refs);
		return;
	}
	ul = el(h, td, "ul", "refs");
	json_array_foreach(refs, i, e) {
		if (i >= FA_HTML_LIST_MAX)
			break;
		put_ref(h, el(h, ul, "li", NULL), e);
	}
	cut_note(h, td, FA_HTML_LIST_MAX, json_array_size(refs),
	    "references");
}

/* "reason, expires, policy line" of a waiver object, as words. */
static void
put_waiver(struct html *h, hnode n, const json_t *w, const char *verb)
{
	put(h, n, verb);
	put(h, n, " ");
	put_json(h, n, json_object_get(w, "expires"), 64, "(no date)");
	if (json_object_get(w, "policy_line") != NULL) {
		put(h, n, " (policy line ");
		put_json(h, n, json_object_get(w, "policy_line"), 32, "?");
		put(h, n, ")");
	}
	put(h, n, ": ");
	put_json(h, n, json_object_get(w, "reason"), FA_HTML_STR_MAX,
	    "no reason given");
}

/*
 * Number the annex clauses: one per failed check ID (waived or not), most
 * severe first; each failure knows its clause.
 */
static int
number_clauses(struct html *h)
{
	struct hres *x;
	size_t i, j;
	int sev;

	if (h->nfind + h->nwaived == 0)
		return 0;
	if ((h->cl = calloc(h->nfind + h->nwaived, sizeof(*h->cl))) == NULL ||
	    (h->cl_find = calloc(h->nfind + h->nwaived,
	    sizeof(*h->cl_find))) == NULL)
		return FA_ERR_NOMEM;
	for (sev = 0; sev < SEV_N; sev++)
		for (i = 0; i < h->nres; i++) {
			x = &h->res[i];
			if (x->st != FA_ST_FAIL || x->sev != sev)
				continue;
			for (j = 0; j < h->ncl; j++)
				if (same_check(h->cl[j], x))
					break;
			if (j == h->ncl) {
				if (h->ncl == FA_HTML_ROWS_MAX) {
					h->cl_dropped++;
					continue;
				}
				h->cl[h->ncl++] = x;
			}
			x->clause = j + 1;
			if (!x->waived && h->cl_find[j] == NULL)
				h->cl_find[j] = x;
		}
	return 0;
}

/* --- 1. executive summary --- */

static void
summary_facts(struct html *h, hnode ul)
{
	const json_t *fams = json_object_get(h->rep, "families"), *f, *cat;
	const json_t *want;
	const char *k, *st;
	size_t undecided, below = 0, nwaived = 0;
	int sev;

	undecided = h->by_status[FA_ST_NOT_TESTED] +
	    h->by_status[FA_ST_ERROR] + h->by_status[ST_OTHER];
	for (sev = 0; sev < SEV_N; sev++) {
		nwaived += h->waived[sev];
		below += h->fails[sev];
	}
	below -= h->failing;
	if (undecided > 0)
		putf(h, el(h, ul, "li", NULL), "%zu %s could not be decided "
		    "(not tested, or an error): nothing is known about %s, "
		    "and %s must not be read as %s (section 5).", undecided,
		    plural(undecided, "check result", "check results"),
		    plural(undecided, "it", "them"),
		    plural(undecided, "it", "they"),
		    plural(undecided, "a pass", "passes"));
	if (below > 0)
		putf(h, el(h, ul, "li", NULL), "%zu further %s below the %s "
		    "threshold (section 3).", below,
		    plural(below, "failure is", "failures are"),
		    sev_word[h->fail_on]);
	if (nwaived > 0)
		putf(h, el(h, ul, "li", NULL), "%zu %s waived by the tenant's "
		    "policy and not counted above (section 4).", nwaived,
		    plural(nwaived, "failure was", "failures were"));
	json_object_foreach((json_t *)fams, k, f) {
		st = jstr(f, "state");
		if (st != NULL && strcmp(st, "collected") == 0)
			continue;
		putf(h, el(h, ul, "li", NULL), "Not examined: %s (%s%s%s).",
		    family_word(k), fam_state_short(st),
		    jstr(f, "reason") != NULL ? ": " : "",
		    jstr(f, "reason") != NULL ? jstr(f, "reason") : "");
	}
	cat = either(jget(jget(h->rep, "scope"), "catalogue"),
	    jget(jget(h->rep, "scan"), "catalogue"));
	if (json_is_true(jget(jget(h->rep, "summary"), "catalogue_stale")) ||
	    json_is_true(jget(cat, "stale")))
		put(h, el(h, ul, "li", NULL), "The vulnerability catalogue "
		    "used was stale: vulnerabilities published since it was "
		    "made are unknown to this scan (section 2).");
	if (!h->fail_on_recorded)
		put(h, el(h, ul, "li", NULL), "The report does not record its "
		    "failure threshold; high, fabaudit's default, is assumed.");
	if (h->malformed > 0)
		putf(h, el(h, ul, "li", NULL), "%zu %s of the results list "
		    "%s not an object and %s not shown.", h->malformed,
		    plural(h->malformed, "entry", "entries"),
		    plural(h->malformed, "is", "are"),
		    plural(h->malformed, "is", "are"));
	want = json_object_get(json_object_get(h->rep, "summary"),
	    "failing_at_or_above");
	if (json_is_integer(want) &&
	    json_integer_value(want) != (json_int_t)h->failing)
		putf(h, el(h, ul, "li", NULL), "The report's own summary "
		    "counts %lld failing results; this page counts %zu from "
		    "the results it lists.", (long long)json_integer_value(want),
		    h->failing);
	if (h->failing == 0 && h->nres > 0)
		put(h, el(h, ul, "li", NULL), "This says what was tested, and "
		    "only that: it is not a certification that the service is "
		    "secure.");
}

static void
summary_verdict(struct html *h, hnode sec)
{
	size_t undecided = h->by_status[FA_ST_NOT_TESTED] +
	    h->by_status[FA_ST_ERROR] + h->by_status[ST_OTHER];
	const char *fo = sev_word[h->fail_on];
	json_int_t left = json_integer_value(jget(jget(h->rep, "summary"),
	    "nodes_not_scanned"));

	if (left > 0)
		putf(h, el(h, sec, "p", h->failing > 0 ? "verdict bad" :
		    "verdict open"), "Incomplete: %lld %s of the cluster %s "
		    "not in this report (section 2)%s", (long long)left,
		    plural((size_t)left, "node", "nodes"),
		    plural((size_t)left, "is", "are"), h->failing > 0 ?
		    "; what it holds is not acceptable as is:" :
		    ": nothing is known of them.");
	if (h->failing > 0)
		putf(h, el(h, sec, "p", "verdict bad"), "Not acceptable as "
		    "is: %zu %s at or above %s severity.", h->failing,
		    plural(h->failing, "failure", "failures"), fo);
	else if (left > 0)
		;	/* the incomplete verdict above says it all */
	else if (h->nres == 0)
		put(h, el(h, sec, "p", "verdict open"), "No conclusion is "
		    "possible: this report holds no check results.");
	else if (undecided > 0)
		putf(h, el(h, sec, "p", "verdict open"), "No failure at or "
		    "above %s severity was found, but %zu %s could not be "
		    "decided.", fo, undecided,
		    plural(undecided, "check", "checks"));
	else
		putf(h, el(h, sec, "p", "verdict ok"), "No failure at or "
		    "above %s severity was found.", fo);
	summary_facts(h, el(h, sec, "ul", "facts"));
}

static void
summary_tables(struct html *h, hnode sec)
{
	static const char *const sh[] = { "Severity", "Failures",
	    "Waived", "Counts toward the verdict", NULL };
	static const char *const th[] = { "Status", "Results", "Meaning",
	    NULL };
	hnode tb, tr;
	int i;

	el_text(h, sec, "h3", NULL, "Failures by severity");
	tb = table(h, sec, "counts", sh);
	for (i = 0; i < SEV_N; i++) {
		if (i == SEV_UNRATED && h->fails[i] + h->waived[i] == 0)
			continue;
		tr = el(h, tb, "tr", NULL);
		el_text(h, tr, "td", NULL, sev_word[i]);
		putf(h, el(h, tr, "td", "num"), "%zu", h->fails[i]);
		putf(h, el(h, tr, "td", "num"), "%zu", h->waived[i]);
		el_text(h, tr, "td", NULL, i <= h->fail_on ||
		    i == SEV_UNRATED ? "yes" : "no");
	}
	el_text(h, sec, "h3", NULL, "Results by status");
	tb = table(h, sec, "counts", th);
	for (i = 0; i < ST_N; i++) {
		if (i == ST_OTHER && h->by_status[i] == 0)
			continue;
		tr = el(h, tb, "tr", NULL);
		el_text(h, tr, "td", NULL, st_title[i]);
		putf(h, el(h, tr, "td", "num"), "%zu", h->by_status[i]);
		el_text(h, tr, "td", NULL, st_meaning[i]);
	}
}

/* The titles of the most severe failing checks, one line per check. */
static void
summary_risks(struct html *h, hnode sec)
{
	const struct hres *top[FA_HTML_TOP_RISKS];
	size_t i, j, n = 0, count;
	hnode ol, li;

	el_text(h, sec, "h3", NULL, "Top risks in plain words");
	for (i = 0; i < h->ncl && n < FA_HTML_TOP_RISKS; i++) {
		/* clauses are ordered most severe first; skip waived-only */
		for (j = 0; j < h->nres; j++)
			if (is_finding(&h->res[j]) &&
			    same_check(&h->res[j], h->cl[i]))
				break;
		if (j < h->nres)
			top[n++] = &h->res[j];
	}
	if (n == 0) {
		el_text(h, sec, "p", NULL, "No failure needs a risk statement: "
		    "none was found among the checks that could be decided.");
		return;
	}
	ol = el(h, sec, "ol", "risks");
	for (i = 0; i < n; i++) {
		for (j = 0, count = 0; j < h->nres; j++)
			if (is_finding(&h->res[j]) &&
			    same_check(&h->res[j], top[i]))
				count++;
		li = el(h, ol, "li", NULL);
		badge(h, li, top[i]->sev);
		put(h, li, " ");
		put_json(h, el(h, li, "b", NULL), json_object_get(top[i]->r,
		    "title"), FA_HTML_STR_MAX, check_id(top[i]));
		putf(h, li, " (%s; %zu %s; see ", check_id(top[i]), count,
		    plural(count, "finding", "findings"));
		put_anchor(h, li, top[i]);
		put(h, li, ")");
	}
}

/* --- 2. scope --- */

static hnode
section(struct html *h, hnode body, const char *id, const char *title,
    const char *cls)
{
	hnode s = el(h, body, "section", cls);

	attr(h, s, "id", id);
	el_text(h, s, "h2", NULL, title);
	return s;
}

/* A hash or other long token, in a monospace span that may wrap. */
static void
put_code(struct html *h, hnode n, const json_t *v, const char *none)
{
	if (v == NULL || json_is_null(v))
		remark(h, n, none);
	else
		put_json(h, el(h, n, "code", "hash"), v, 256, none);
}

/* "FILE, SHA-256 HASH" of a {file, sha256} object (snapshot, previous). */
static void
kv_file(struct html *h, hnode tb, const char *key, const json_t *file,
    const json_t *sha)
{
	hnode td = kv(h, tb, key);

	if ((file == NULL || json_is_null(file)) &&
	    (sha == NULL || json_is_null(sha))) {
		remark(h, td, "not recorded");
		return;
	}
	put_json(h, td, file, FA_HTML_STR_MAX, "(no file name)");
	el(h, td, "br", NULL);
	put(h, td, "SHA-256 ");
	put_code(h, td, sha, "not recorded");
}

static void
scope_catalogue(struct html *h, hnode tb)
{
	const json_t *scat = jget(jget(h->rep, "scope"), "catalogue");
	const json_t *cat = jget(jget(h->rep, "scan"), "catalogue"), *src;
	const json_t *c = scat != NULL && !json_is_null(scat) ? scat : cat;
	hnode td = kv(h, tb, "Vulnerability catalogue"), ul, li;
	size_t i;

	if (c == NULL || json_is_null(c)) {
		remark(h, td, "none recorded (no host scan, or an older "
		    "report)");
		return;
	}
	if (jget(cat, "error") != NULL) {
		put(h, td, "not loaded: ");
		put_json(h, td, jget(cat, "error"), FA_HTML_STR_MAX, "?");
		el(h, td, "br", NULL);
	}
	put(h, td, "dated ");
	put_json(h, td, jget(c, "date"), 64, "(no date)");
	if (jget(c, "age_days") != NULL) {
		put(h, td, ", ");
		put_json(h, td, jget(c, "age_days"), 32, "?");
		put(h, td, " days old at scan time");
	}
	if (json_is_true(jget(c, "stale")))
		el_text(h, td, "span", "warn", " (STALE: vulnerabilities "
		    "published after it are unknown to this scan)");
	if (jget(cat, "path") != NULL) {
		el(h, td, "br", NULL);
		put(h, td, "file ");
		put_json(h, td, jget(cat, "path"), FA_HTML_STR_MAX, "?");
	}
	if (jget(cat, "sha256") != NULL) {
		el(h, td, "br", NULL);
		put(h, td, "SHA-256 ");
		put_json(h, td, jget(cat, "sha256"), 80, "?");
		put(h, td, ", signature: ");
		put_json(h, td, jget(cat, "signature"), FA_HTML_STR_MAX, "?");
		if (json_is_string(jget(cat, "signer"))) {
			put(h, td, " by ");
			put_json(h, td, jget(cat, "signer"), FA_HTML_STR_MAX,
			    "?");
		}
	}
	if (json_array_size(jget(cat, "sources")) == 0)
		return;
	ul = el(h, td, "ul", "refs");
	json_array_foreach(jget(cat, "sources"), i, src) {
		if (i >= FA_HTML_LIST_MAX)
			break;
		li = el(h, ul, "li", NULL);
		put_json(h, li, jget(src, "name"), FA_HTML_STR_MAX,
		    "(unnamed source)");
		if (jget(src, "date") != NULL) {
			put(h, li, " (");
			put_json(h, li, jget(src, "date"), 64, "?");
			put(h, li, ")");
		}
		if (jget(src, "url") != NULL) {
			put(h, li, ": ");
			put_ref(h, li, jget(src, "url"));
		}
	}
	cut_note(h, td, FA_HTML_LIST_MAX, json_array_size(jget(cat,
	    "sources")), "sources");
}

static void
scope_fabric(struct html *h, hnode tb)
{
	const json_t *fab = jget(jget(h->rep, "scope"), "fabric");

	if (fab == NULL || json_is_null(fab)) {
		remark(h, kv(h, tb, "InfiniBand fabric"), "no fabric "
		    "identifiers recorded");
		return;
	}
	put_code(h, kv(h, tb, "Subnet prefix"), jget(fab, "subnet_prefix"),
	    "not recorded");
	put_code(h, kv(h, tb, "Subnet manager port GUIDs"),
	    jget(fab, "sm_guids"), "not recorded");
	put_code(h, kv(h, tb, "Local port GUID"),
	    jget(fab, "local_port_guid"), "not recorded");
	kv_json(h, tb, "Local node description", jget(fab, "local_node_desc"));
	kv_json(h, tb, "Local LID", jget(fab, "local_lid"));
}

/*
 * The MADs an InfiniBand scan sent and lost (families.ib.mads), when every
 * count is there as a number.
 */
static void
family_mads(struct html *h, hnode li, const json_t *m)
{
	static const char *const k[] = { "sent", "lost", "retried",
	    "unanswered", "malformed" };
	long long v[5];
	size_t i;

	for (i = 0; i < 5; i++) {
		if (!json_is_integer(jget(m, k[i])))
			return;
		v[i] = (long long)json_integer_value(jget(m, k[i]));
	}
	putf(h, li, "; MADs: %lld sent, %lld lost, %lld retried, %lld "
	    "unanswered, %lld malformed", v[0], v[1], v[2], v[3], v[4]);
}

static void
scope_families(struct html *h, hnode tb)
{
	const json_t *fams = jget(h->rep, "families"), *f;
	hnode td = kv(h, tb, "Families"), ul, li;
	const char *k;

	if (json_object_size(fams) == 0) {
		remark(h, td, "not recorded");
		return;
	}
	ul = el(h, td, "ul", "plain");
	json_object_foreach((json_t *)fams, k, f) {
		li = el(h, ul, "li", NULL);
		putf(h, li, "%s: %s", family_word(k),
		    fam_state_word(jstr(f, "state")));
		if (jstr(f, "reason") != NULL)
			putf(h, li, " (%s)", jstr(f, "reason"));
		family_mads(h, li, jget(f, "mads"));
	}
}

static void
scope_baseline(struct html *h, hnode tb)
{
	const json_t *b = jget(h->rep, "baseline");
	static const char *const k[] = { "new_failures", "resolved",
	    "changed", "unchanged_failures" };
	static const char *const w[] = { "new failures", "resolved",
	    "changed", "unchanged failures" };
	hnode td;
	size_t i;

	if (b == NULL || json_is_null(b))
		return;
	kv_file(h, tb, "Baseline report compared against", jget(b, "file"),
	    jget(b, "sha256"));
	td = kv(h, tb, "Compared with the baseline");
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		if (i > 0)
			put(h, td, ", ");
		put_json(h, td, jget(b, k[i]), 32, "?");
		putf(h, td, " %s", w[i]);
	}
}

static void
scope_merged(struct html *h, hnode sec)
{
	static const char *const heads[] = { "Node", "State", "Signature",
	    "Report file, or why none", "SHA-256", "Scan started",
	    "Families", "Failed", NULL };
	const json_t *m = jget(h->rep, "merged"), *nodes, *nd, *a, *sg;
	hnode tb, tr, p;
	const char *st;
	size_t i;

	if (m == NULL || json_is_null(m))
		return;
	nodes = jget(m, "nodes");
	a = jget(m, "accounting");
	sg = jget(a, "signatures");
	el_text(h, sec, "h3", NULL, "Merged reports");
	p = el(h, sec, "p", NULL);
	putf(h, p, "This report merges the reports of %lld nodes",
	    (long long)json_integer_value(jget(m, "reports")));
	if (json_is_integer(jget(a, "expected")))
		putf(h, p, " of the %lld expected",
		    (long long)json_integer_value(jget(a, "expected")));
	if (a != NULL)
		putf(h, p, "; %lld rejected for their signature, %lld failed, "
		    "%lld timed out, %lld missing. Signatures: %lld good, %lld "
		    "bad, %lld unsigned, %lld not checked.",
		    (long long)json_integer_value(jget(a, "rejected")),
		    (long long)json_integer_value(jget(a, "failed")),
		    (long long)json_integer_value(jget(a, "timed_out")),
		    (long long)json_integer_value(jget(a, "missing")),
		    (long long)json_integer_value(jget(sg, "good")),
		    (long long)json_integer_value(jget(sg, "bad")),
		    (long long)json_integer_value(jget(sg, "unsigned")),
		    (long long)json_integer_value(jget(sg, "unchecked")));
	else
		put(h, p, ".");
	tb = table(h, sec, "list nodes", heads);
	json_array_foreach(nodes, i, nd) {
		if (i >= FA_HTML_ROWS_MAX)
			break;
		st = jstr(nd, "state") != NULL ? jstr(nd, "state") : "scanned";
		tr = el(h, tb, "tr", NULL);
		put_json(h, el(h, tr, "td", NULL), either(jget(nd, "node"),
		    jget(nd, "host")), FA_HTML_STR_MAX, "?");
		put_json(h, el(h, tr, "td", NULL), jget(nd, "state"), 32,
		    "scanned");
		put_json(h, el(h, tr, "td", NULL), jget(nd, "signature"), 32,
		    "-");
		put_json(h, el(h, tr, "td", NULL), strcmp(st, "scanned") == 0 ?
		    jget(nd, "file") : strcmp(st, "rejected") == 0 ?
		    jget(nd, "signature_detail") : jget(nd, "reason"),
		    FA_HTML_STR_MAX, "-");
		put_code(h, el(h, tr, "td", NULL), jget(nd, "sha256"), "-");
		put_json(h, el(h, tr, "td", NULL), jget(nd, "started"), 64,
		    "-");
		put_json(h, el(h, tr, "td", NULL), jget(nd, "families"), 256,
		    "-");
		put_json(h, el(h, tr, "td", "num"), jget(jget(nd, "summary"),
		    "fail"), 32, "-");
	}
	cut_note(h, sec, FA_HTML_ROWS_MAX, json_array_size(nodes), "nodes");
}

static const char *
mode_word(const char *m)
{
	if (m == NULL)
		return "evaluation mode not recorded";
	if (strcmp(m, "scan") == 0)
		return "evaluated during the scan";
	if (strcmp(m, "offline") == 0)
		return "evaluated offline from the saved snapshot";
	if (strcmp(m, "merge") == 0)
		return "a merge of several reports";
	return m;
}

static void
scope_section(struct html *h, hnode body)
{
	const json_t *rep = h->rep, *sc = jget(rep, "scope");
	const json_t *scan = jget(rep, "scan"), *ev = jget(rep, "evaluation");
	const json_t *prev = jget(rep, "previous");
	hnode sec, tb, td;

	sec = section(h, body, "scope", "2. Scope", "major");
	el_text(h, sec, "p", NULL, "What was examined, from where, when, by "
	    "whom, and with which tool and data, as recorded in report.json.");
	tb = table(h, sec, "kv", NULL);
	kv_json(h, tb, "Tenant (customer)", jget(sc, "tenant"));
	kv_json(h, tb, "Provider (operator)", jget(sc, "provider"));
	kv_json(h, tb, "Run by", jget(sc, "run_by"));
	kv_json(h, tb, "Host scanned from", either(jget(sc, "host"),
	    jget(scan, "host")));
	kv_json(h, tb, "Scan started", either(jget(sc, "started"),
	    jget(scan, "started")));
	kv_json(h, tb, "Scan finished", either(jget(sc, "finished"),
	    jget(scan, "finished")));
	td = kv(h, tb, "Tool");
	put(h, td, "fabaudit ");
	put_json(h, td, either(jget(sc, "tool_version"),
	    jget(jget(rep, "scanned_by"), "version")), 64, "(version not "
	    "recorded)");
	if (jget(scan, "active") != NULL)
		put(h, td, json_is_true(jget(scan, "active")) ? "; active "
		    "probes allowed" : "; passive (no active probes)");
	td = kv(h, tb, "This report");
	put_json(h, td, jget(ev, "generated"), 64, "(date not recorded)");
	putf(h, td, ", %s, by fabaudit ", mode_word(jstr(ev, "mode")));
	put_json(h, td, jget(jget(rep, "tool"), "version"), 64, "?");
	scope_catalogue(h, tb);
	scope_fabric(h, tb);
	scope_families(h, tb);
	kv_json(h, tb, "Families requested", jget(scan, "families"));
	kv_json(h, tb, "Policy", either(jget(sc, "policy"),
	    jget(jget(rep, "policy"), "name")));
	kv_file(h, tb, "Snapshot (the evidence)", jget(jget(rep, "snapshot"),
	    "file"), either(jget(jget(rep, "snapshot"), "sha256"),
	    jget(sc, "snapshot_sha256")));
	if (prev != NULL && !json_is_null(prev))
		kv_file(h, tb, "Previous report (hash chain)",
		    jget(prev, "file"), jget(prev, "sha256"));
	scope_baseline(h, tb);
	scope_merged(h, sec);
}

/* --- 3. findings --- */

static void
finding_marks(struct html *h, hnode art, const json_t *r)
{
	const char *b = jstr(r, "baseline");
	const json_t *we = jget(r, "waiver_expired");
	hnode p;

	if (b != NULL && strcmp(b, "new") == 0)
		el_text(h, art, "p", "mark", "New since the baseline report.");
	else if (b != NULL && strcmp(b, "changed") == 0)
		el_text(h, art, "p", "mark", "Changed since the baseline "
		    "report.");
	else if (b != NULL && strcmp(b, "unchanged") == 0)
		el_text(h, art, "p", "mark-quiet", "Also in the baseline "
		    "report.");
	if (json_is_object(we)) {
		p = el(h, art, "p", "mark");
		put_waiver(h, p, we, "Its waiver expired on");
		put(h, p, ". An expired waiver no longer suppresses anything.");
	}
}

/* Equal JSON values, or both absent. */
static int
same_json(const json_t *a, const json_t *b)
{
	return (a == NULL && b == NULL) || json_equal(a, b);
}

/*
 * The earlier finding of the same check when its impact, remediation,
 * clause and references are the same words (a check failing on several
 * targets): they are then given once.  NULL otherwise.
 */
static const struct hres *
same_text_as(const struct html *h, const struct hres *x)
{
	static const char *const keys[] = { "rationale", "remediation",
	    "msa_clause", "references" };
	const struct hres *f;
	size_t i;

	if (x->clause == 0 || (f = h->cl_find[x->clause - 1]) == NULL ||
	    f == x || !fail_shown(f))
		return NULL;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!same_json(rtext(h, f->r, keys[i]), rtext(h, x->r,
		    keys[i])))
			return NULL;
	return f;
}

static void
finding(struct html *h, hnode parent, const struct hres *x)
{
	const json_t *r = x->r;
	hnode art, hd, tb, td;
	char lab[32];

	fail_label(x, lab, sizeof(lab));
	art = el(h, parent, "article", sev_class[x->sev]);
	attr(h, art, "id", lab);
	hd = el(h, art, "h4", NULL);
	badge(h, hd, x->sev);
	putf(h, hd, " %s ", lab);
	put_check(h, hd, x);
	finding_marks(h, art, r);
	tb = table(h, art, "kv", NULL);
	put_target(h, kv(h, tb, "Target"), r);
	put(h, kv(h, tb, "Area"), family_word(jstr(r, "family")));
	kv_json(h, tb, "What was found", jget(r, "reason"));
	put_evidence(h, kv(h, tb, "Evidence"), jget(r, "evidence"));
	if (same_text_as(h, x) != NULL) {
		td = kv(h, tb, "Impact, remediation, clause, references");
		put(h, td, "As for ");
		put_anchor(h, td, same_text_as(h, x));
		putf(h, td, " (Annex A.%zu).", x->clause);
		put_reproduce(h, tb, jget(r, "evidence"));
		return;
	}
	kv_json(h, tb, "Impact", rtext(h, r, "rationale"));
	kv_json(h, tb, "Remediation", rtext(h, r, "remediation"));
	td = kv(h, tb, "Proposed contract clause");
	put_json(h, td, rtext(h, r, "msa_clause"), FA_HTML_STR_MAX,
	    "none recorded");
	if (x->clause > 0)
		putf(h, td, " (Annex A.%zu)", x->clause);
	put_reproduce(h, tb, jget(r, "evidence"));
	put_refs(h, tb, rtext(h, r, "references"));
}

static void
findings_section(struct html *h, hnode body)
{
	hnode sec, grp;
	size_t i, n;
	int sev;

	sec = section(h, body, "findings", "3. Findings", "major");
	putf(h, el(h, sec, "p", NULL), "Every failed check that the policy "
	    "did not waive, most severe first. Failures at or above %s "
	    "severity make the verdict; the others are listed too. Secrets "
	    "appear as the report gives them (redacted unless the scan was "
	    "told to reveal them).", sev_word[h->fail_on]);
	if (h->nfind == 0) {
		el_text(h, sec, "p", NULL, "No failure was found.");
		return;
	}
	for (sev = 0; sev < SEV_N; sev++) {
		for (i = 0, n = 0; i < h->nres; i++)
			if (h->res[i].sev == sev && is_finding(&h->res[i]))
				n++;
		if (n == 0)
			continue;
		grp = el(h, sec, "div", "sevgroup");
		putf(h, el(h, grp, "h3", NULL), "%s (%zu)", sev_badge[sev], n);
		for (i = 0; i < h->nres; i++)
			if (h->res[i].sev == sev && is_finding(&h->res[i]) &&
			    fail_shown(&h->res[i]))
				finding(h, grp, &h->res[i]);
	}
	cut_note(h, sec, FA_HTML_ROWS_MAX, h->nfind, "findings");
}

/* --- 4. waivers --- */

/* A waiver's reason, then "until DATE (policy line N)". */
static void
waiver_cell(struct html *h, hnode td, const json_t *w, const char *when)
{
	put_json(h, td, jget(w, "reason"), FA_HTML_STR_MAX,
	    "no reason given");
	el(h, td, "br", NULL);
	put(h, td, when);
	put_json(h, td, jget(w, "expires"), 64, "(no date)");
	if (jget(w, "policy_line") != NULL) {
		put(h, td, " (policy line ");
		put_json(h, td, jget(w, "policy_line"), 32, "?");
		put(h, td, ")");
	}
}

static void
waived_row(struct html *h, hnode tb, const struct hres *x)
{
	hnode tr = el(h, tb, "tr", NULL), td;
	char lab[32];

	fail_label(x, lab, sizeof(lab));
	td = el(h, tr, "td", NULL);
	attr(h, td, "id", lab);
	put(h, td, lab);
	td = el(h, tr, "td", NULL);
	badge(h, td, x->sev);
	put(h, td, " ");
	put_check(h, td, x);
	put_target(h, el(h, tr, "td", NULL), x->r);
	waiver_cell(h, el(h, tr, "td", NULL), jget(x->r, "waived"),
	    "until ");
}

static void
expired_row(struct html *h, hnode tb, const struct hres *x)
{
	hnode tr = el(h, tb, "tr", NULL);

	put_anchor(h, el(h, tr, "td", NULL), x);
	put_check(h, el(h, tr, "td", NULL), x);
	put_target(h, el(h, tr, "td", NULL), x->r);
	waiver_cell(h, el(h, tr, "td", NULL), jget(x->r, "waiver_expired"),
	    "expired on ");
}

static void
expired_policy(struct html *h, hnode sec, const json_t *ew)
{
	static const char *const heads[] = { "Check", "Target", "Waiver",
	    NULL };
	const json_t *w;
	hnode tb, tr;
	size_t i;

	el_text(h, sec, "p", NULL, "Waivers in the policy that have expired:");
	tb = table(h, sec, "list expol", heads);
	json_array_foreach(ew, i, w) {
		if (i >= FA_HTML_ROWS_MAX)
			break;
		tr = el(h, tb, "tr", NULL);
		put_json(h, el(h, tr, "td", "cid"), jget(w, "check_id"),
		    FA_HTML_STR_MAX, "?");
		put_json(h, el(h, tr, "td", NULL), jget(w, "target"),
		    FA_HTML_STR_MAX, "?");
		waiver_cell(h, el(h, tr, "td", NULL), w, "expired on ");
	}
	cut_note(h, sec, FA_HTML_ROWS_MAX, json_array_size(ew), "waivers");
}

static void
waivers_section(struct html *h, hnode body)
{
	static const char *const wh[] = { "No.", "Check", "Target",
	    "Waiver", NULL };
	static const char *const eh[] = { "Finding", "Check", "Target",
	    "Waiver", NULL };
	const json_t *ew = jget(h->rep, "expired_waivers");
	hnode sec, tb;
	size_t n = 0, i;

	sec = section(h, body, "waivers", "4. Waived findings and waivers",
	    "major");
	el_text(h, sec, "p", NULL, "Failures the tenant's policy accepts for "
	    "a time, with the reason and the date the waiver ends. A waived "
	    "failure is still a failure: the waiver records a decision to "
	    "live with it, not a fix.");
	if (h->nwaived == 0)
		el_text(h, sec, "p", NULL, "No finding is waived.");
	else {
		tb = table(h, sec, "list waived", wh);
		each_by_sev(h, tb, sec, is_waived, waived_row, "waived findings");
	}
	el_text(h, sec, "h3", NULL, "Expired waivers");
	el_text(h, sec, "p", NULL, "A waiver past its date no longer "
	    "suppresses anything: the findings it covered count again and "
	    "are in section 3.");
	for (i = 0; i < h->nres; i++)
		n += has_expired_waiver(&h->res[i]);
	if (json_array_size(ew) == 0 && n == 0) {
		el_text(h, sec, "p", NULL, "No waiver has expired.");
		return;
	}
	if (json_array_size(ew) > 0)
		expired_policy(h, sec, ew);
	if (n > 0) {
		el_text(h, sec, "p", NULL, "Findings whose waiver has expired:");
		tb = table(h, sec, "list expired", eh);
		each_by_sev(h, tb, sec, has_expired_waiver, expired_row,
		    "findings with an expired waiver");
	}
}

/* --- 5. not decided, 6. passed --- */

static void
undecided_row(struct html *h, hnode tb, const struct hres *x)
{
	hnode tr = el(h, tb, "tr", NULL);

	el_text(h, tr, "td", NULL, st_title[x->st]);
	badge(h, el(h, tr, "td", NULL), x->sev);
	put_check(h, el(h, tr, "td", NULL), x);
	put_target(h, el(h, tr, "td", NULL), x->r);
	put_json(h, el(h, tr, "td", NULL), jget(x->r, "reason"),
	    FA_HTML_STR_MAX, "no reason recorded");
}

static void
na_row(struct html *h, hnode tb, const struct hres *x)
{
	hnode tr = el(h, tb, "tr", NULL);

	put_check(h, el(h, tr, "td", NULL), x);
	put_target(h, el(h, tr, "td", NULL), x->r);
	put_json(h, el(h, tr, "td", NULL), jget(x->r, "reason"),
	    FA_HTML_STR_MAX, "no reason recorded");
}

static void
pass_row(struct html *h, hnode tb, const struct hres *x)
{
	hnode tr = el(h, tb, "tr", NULL);

	badge(h, el(h, tr, "td", NULL), x->sev);
	put_check(h, el(h, tr, "td", NULL), x);
	put_target(h, el(h, tr, "td", NULL), x->r);
}

static void
undecided_section(struct html *h, hnode body)
{
	static const char *const uh[] = { "Status", "Severity", "Check",
	    "Target", "Why", NULL };
	static const char *const nh[] = { "Check", "Target", "Why", NULL };
	hnode sec, tb;

	sec = section(h, body, "undecided", "5. Checks not decided",
	    "major");
	el_text(h, sec, "p", NULL, "These checks reached no verdict. Nothing "
	    "is known about what they test: each is a gap in this audit, not "
	    "a pass.");
	if (h->by_status[FA_ST_NOT_TESTED] + h->by_status[FA_ST_ERROR] +
	    h->by_status[ST_OTHER] == 0)
		el_text(h, sec, "p", NULL, "Every check reached a verdict.");
	else {
		tb = table(h, sec, "list undecided", uh);
		each_by_sev(h, tb, sec, is_undecided, undecided_row,
		    "undecided results");
	}
	el_text(h, sec, "h3", NULL, "Not applicable");
	el_text(h, sec, "p", NULL, "The thing these checks examine does not "
	    "exist here.");
	if (h->by_status[FA_ST_NOT_APPLICABLE] == 0) {
		el_text(h, sec, "p", NULL, "None.");
		return;
	}
	tb = table(h, sec, "list na", nh);
	each_by_sev(h, tb, sec, is_na, na_row, "not applicable results");
}

static void
passed_section(struct html *h, hnode body)
{
	static const char *const ph[] = { "Severity", "Check", "Target",
	    NULL };
	hnode sec, tb;

	sec = section(h, body, "passed", "6. Passed checks", "major");
	el_text(h, sec, "p", NULL, "Checks that observed what they test and "
	    "found it safe.");
	if (h->by_status[FA_ST_PASS] == 0) {
		el_text(h, sec, "p", NULL, "None.");
		return;
	}
	tb = table(h, sec, "list passed", ph);
	each_by_sev(h, tb, sec, is_pass, pass_row, "passed results");
}

/* --- annex --- */

/* The findings a clause rests on: "F-1 (target), W-2 (target; waived)". */
static void
clause_basis(struct html *h, hnode p, size_t k)
{
	const struct hres *x;
	size_t i, n = 0;
	int sev;

	for (sev = 0; sev < SEV_N; sev++)
		for (i = 0; i < h->nres; i++) {
			x = &h->res[i];
			if (x->clause != k || x->sev != sev)
				continue;
			if (n++ >= FA_HTML_CITE_MAX)
				continue;
			put(h, p, n > 1 ? "; " : "");
			put_anchor(h, p, x);
			put(h, p, " (");
			if (json_array_size(jget(x->r, "targets")) > 0)
				putf(h, p, "%lld nodes", (long long)
				    json_integer_value(jget(x->r, "nodes")));
			else
				put_json(h, p, jget(x->r, "target"),
				    FA_HTML_STR_MAX, "no target");
			put(h, p, x->waived ? "; waived)" : ")");
		}
	if (n > FA_HTML_CITE_MAX)
		putf(h, p, "; and %zu more", n - FA_HTML_CITE_MAX);
	put(h, p, ".");
}

static void
clause(struct html *h, hnode sec, size_t k)
{
	const struct hres *c = h->cl[k - 1];
	hnode div, p;
	char id[32];

	snprintf(id, sizeof(id), "A-%zu", k);
	div = el(h, sec, "div", "clause");
	attr(h, div, "id", id);
	p = el(h, div, "p", "ctext");
	putf(h, el(h, p, "span", "cnum"), "A.%zu", k);
	put(h, p, " ");
	if (json_is_string(rtext(h, c->r, "msa_clause")))
		put(h, p, json_string_value(rtext(h, c->r, "msa_clause")));
	else
		remark(h, p, "[No clause text was recorded for this check; see "
		    "its findings.]");
	p = el(h, div, "p", "basis");
	put(h, p, "Rests on check ");
	el_text(h, p, "span", "cid", check_id(c));
	putf(h, p, " (%s): ", sev_word[c->sev]);
	put_json(h, p, jget(c->r, "title"), FA_HTML_STR_MAX, "untitled");
	put(h, p, ". Findings: ");
	clause_basis(h, p, k);
}

static void
annex_section(struct html *h, hnode body)
{
	const json_t *sc = jget(h->rep, "scope");
	const char *cu = jstr(sc, "tenant"), *pr = jstr(sc, "provider");
	hnode sec, p;
	size_t k;

	sec = section(h, body, "annex", "Annex A. Proposed security annex",
	    "major annex");
	p = el(h, sec, "p", "preamble");
	putf(h, p, "The following clauses are proposed for a security annex "
	    "to the agreement between %s (the \"Customer\") and %s (the "
	    "\"Provider\"). ", cu != NULL ? cu : "the tenant",
	    pr != NULL ? pr : "the operator of the shared infrastructure");
	put(h, p, "Each clause answers a weakness this audit found and cites "
	    "the check and the findings it rests on. The Customer may verify "
	    "the Provider's compliance with each clause by repeating the "
	    "audit; a later report in which the cited check passes, or is "
	    "not applicable, shows it met.");
	if (h->ncl == 0) {
		el_text(h, sec, "p", NULL, "No clause is proposed: the audit "
		    "found no failed check.");
		return;
	}
	for (k = 1; k <= h->ncl; k++)
		clause(h, sec, k);
	if (h->cl_dropped > 0)
		putf(h, el(h, sec, "p", "note"), "%zu failed results of further "
		    "checks are not shown here: see report.json.",
		    h->cl_dropped);
}

/* --- the document --- */

/*
 * Screen and print styles.  Each major section and the annex start on a
 * new page; findings, clauses and table rows are not split across pages;
 * table heads repeat.  Nothing in here comes from the report: a <style>
 * element's text is not escaped by the serialiser (HTML raw text).
 */
static const char css[] =
	":root{color-scheme:light}"
	"body{font:11pt/1.45 'DejaVu Serif',Georgia,serif;color:#111;"
	"max-width:62em;margin:2em auto;padding:0 1em}"
	"h1,h2,h3,h4,th,.sev,.verdict{font-family:'DejaVu Sans',Arial,"
	"sans-serif}"
	"h1{font-size:20pt;margin:0 0 .2em}"
	"h2{font-size:15pt;border-bottom:2px solid #333;padding-bottom:.1em;"
	"margin-top:1.6em}"
	"h3{font-size:12.5pt;margin:1.4em 0 .4em}"
	"h4{font-size:11pt;margin:0 0 .4em}"
	"p.sub{color:#444;margin:.1em 0}"
	"table{border-collapse:collapse;width:100%;margin:.4em 0 1em;"
	"font-size:9.5pt}"
	"th,td{border:1px solid #bbb;padding:.25em .45em;text-align:left;"
	"vertical-align:top;overflow-wrap:anywhere}"
	"th{overflow-wrap:break-word}"
	"thead th{background:#e8e8e8}"
	"table.kv th{width:11em;background:#f3f3f3;font-weight:normal}"
	"table.counts{width:auto;min-width:50%;break-inside:avoid;"
	"page-break-inside:avoid}"
	/* fixed layouts: a long token wraps in its column, not the page */
	"table.list{table-layout:fixed}"
	"table.nodes th:nth-child(1){width:14%}"
	"table.nodes th:nth-child(2){width:18%}"
	"table.nodes th:nth-child(3){width:26%}"
	"table.nodes th:nth-child(4){width:13%}"
	"table.nodes th:nth-child(5){width:11%}"
	"table.waived th:nth-child(1),table.expired th:nth-child(1)"
	"{width:4.5em}"
	"table.waived th:nth-child(2),table.expired th:nth-child(2),"
	"table.expol th:nth-child(1){width:30%}"
	"table.waived th:nth-child(3),table.expired th:nth-child(3),"
	"table.expol th:nth-child(2){width:20%}"
	"table.undecided th:nth-child(1),table.undecided th:nth-child(2),"
	"table.passed th:nth-child(1){width:6.5em}"
	"table.undecided th:nth-child(3){width:30%}"
	"table.undecided th:nth-child(4){width:16%}"
	"table.na th:nth-child(1){width:40%}"
	"table.na th:nth-child(2),table.passed th:nth-child(3){width:25%}"
	"td.num{text-align:right}"
	".verdict{border:2px solid;padding:.6em 1em;font-size:13pt;"
	"font-weight:bold;-webkit-print-color-adjust:exact;"
	"print-color-adjust:exact}"
	".verdict.bad{border-color:#a00;background:#fdecec}"
	".verdict.open{border-color:#a65f00;background:#fff3e0}"
	".verdict.ok{border-color:#2d6a2d;background:#edf7ed}"
	".finding{border:1px solid #999;border-left:6px solid #777;"
	"padding:.5em .8em .1em;margin:0 0 1em;break-inside:avoid;"
	"page-break-inside:avoid}"
	".sev{display:inline-block;padding:0 .35em;font-size:8.5pt;"
	"font-weight:bold;color:#fff;background:#666;border-radius:3px;"
	"-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	".sev-critical{border-left-color:#7a0000}"
	".sev-critical .sev{background:#7a0000}"
	".sev-high{border-left-color:#c0392b}.sev-high .sev{background:#c0392b}"
	".sev-medium{border-left-color:#b9770e}"
	".sev-medium .sev{background:#b9770e}"
	".sev-low{border-left-color:#2e6da4}.sev-low .sev{background:#2e6da4}"
	".cid,code,pre{font-family:'DejaVu Sans Mono',monospace;"
	"font-size:9pt}"
	"code.hash{overflow-wrap:anywhere}"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;"
	"border:1px solid #ddd;padding:.3em .5em;margin:0 0 .2em}"
	"ul.plain,ul.evidence,ul.refs{margin:0;padding-left:1.2em}"
	".obs,.none,.note,.mark-quiet{color:#555}"
	".none,.note{font-style:italic}"
	".mark{font-weight:bold;color:#7a0000;margin:.2em 0}"
	".warn{font-weight:bold;color:#a00}"
	".clause{break-inside:avoid;page-break-inside:avoid;margin:0 0 1.1em}"
	".cnum{font-weight:bold}"
	".basis{font-size:9pt;color:#333;margin:.2em 0 0 2.5em}"
	"nav ol{margin:.2em 0}"
	"@page{size:A4;margin:18mm 16mm 20mm;"
	"@bottom-right{content:'Page ' counter(page) ' of ' counter(pages);"
	"font:8pt sans-serif;color:#555}"
	"@bottom-left{content:'fabaudit report';font:8pt sans-serif;"
	"color:#555}}"
	"@media print{"
	"body{max-width:none;margin:0;padding:0;font-size:10pt}"
	"a{color:inherit;text-decoration:none}"
	"section.major{break-before:page;page-break-before:always}"
	"h2,h3,h4{break-after:avoid;page-break-after:avoid}"
	"tr{break-inside:avoid;page-break-inside:avoid}"
	"thead{display:table-header-group}"
	"nav{display:none}}";

/* No script, no fetch, no form, no base: the page only shows itself. */
#define CSP	"default-src 'none'; style-src 'unsafe-inline'; " \
		"img-src 'none'; base-uri 'none'; form-action 'none'"

static hnode
head(struct html *h, hnode root)
{
	const json_t *sc = jget(h->rep, "scope");
	const json_t *who = either(jget(sc, "tenant"), either(jget(sc,
	    "host"), jget(jget(h->rep, "scan"), "host")));
	hnode hd = el(h, root, "head", NULL), m;

	m = el(h, hd, "meta", NULL);
	attr(h, m, "charset", "utf-8");
	m = el(h, hd, "meta", NULL);
	attr(h, m, "http-equiv", "Content-Security-Policy");
	attr(h, m, "content", CSP);
	m = el(h, hd, "meta", NULL);
	attr(h, m, "name", "referrer");
	attr(h, m, "content", "no-referrer");
	m = el(h, hd, "meta", NULL);
	attr(h, m, "name", "generator");
	attr(h, m, "content", "fabaudit");
	if (json_is_string(who))
		putf(h, el(h, hd, "title", NULL), "Tenant isolation audit "
		    "report: %s", json_string_value(who));
	else
		el_text(h, hd, "title", NULL, "Tenant isolation audit report");
	el_text(h, hd, "style", NULL, css);
	return hd;
}

static void
title_block(struct html *h, hnode body)
{
	const json_t *sc = jget(h->rep, "scope"), *scan = jget(h->rep, "scan");
	static const char *const toc[][2] = {
		{ "#summary", "Executive summary" }, { "#scope", "Scope" },
		{ "#findings", "Findings" },
		{ "#waivers", "Waived findings and waivers" },
		{ "#undecided", "Checks not decided" },
		{ "#passed", "Passed checks" },
		{ "#annex", "Annex A. Proposed security annex" },
	};
	hnode p, ol, a;
	size_t i;

	el_text(h, body, "h1", NULL, "Tenant isolation audit report");
	p = el(h, body, "p", "sub");
	put(h, p, "Tenant: ");
	put_json(h, p, jget(sc, "tenant"), FA_HTML_STR_MAX, "not named");
	put(h, p, "; provider: ");
	put_json(h, p, jget(sc, "provider"), FA_HTML_STR_MAX, "not named");
	p = el(h, body, "p", "sub");
	put(h, p, "Scanned from host ");
	put_json(h, p, either(jget(sc, "host"), jget(scan, "host")),
	    FA_HTML_STR_MAX, "(not recorded)");
	put(h, p, ", started ");
	put_json(h, p, either(jget(sc, "started"), jget(scan, "started")),
	    64, "(not recorded)");
	put(h, p, "; made with fabaudit from report.json.");
	ol = el(h, el(h, body, "nav", NULL), "ol", NULL);
	for (i = 0; i < sizeof(toc) / sizeof(toc[0]); i++) {
		a = el(h, el(h, ol, "li", NULL), "a", NULL);
		attr(h, a, "href", toc[i][0]);
		put(h, a, toc[i][1]);
	}
}

static void
summary_section(struct html *h, hnode body)
{
	hnode sec = section(h, body, "summary", "1. Executive summary",
	    "first");

	summary_verdict(h, sec);
	summary_risks(h, sec);
	summary_tables(h, sec);
}

static void
build(struct html *h)
{
	hnode root, body;

	h->open[0].id = h->last = H_DOC;
	h->open[0].name = "";
	h->depth = 1;
	wrote(h, xmlTextWriterWriteRaw(h->x.w, BAD_CAST "<!DOCTYPE html>\n"));
	root = el(h, H_DOC, "html", NULL);
	attr(h, root, "lang", "en");
	head(h, root);
	body = el(h, root, "body", NULL);
	title_block(h, body);
	summary_section(h, body);
	scope_section(h, body);
	findings_section(h, body);
	waivers_section(h, body);
	undecided_section(h, body);
	passed_section(h, body);
	annex_section(h, body);
	while (!h->oom && h->depth > 1)
		close_top(h);
}

/* The page into memory (emit NULL) or through emit. */
static int
render(const json_t *report, fa_emit_fn emit, void *arg, char **buf,
    size_t *len, char **why)
{
	struct html h;
	char *werr = NULL;
	int r;

	if (why != NULL)
		*why = NULL;
	memset(&h, 0, sizeof(h));
	h.rep = report;
	xmlInitParser();
	if ((r = classify(&h)) == 0 && (r = number_clauses(&h)) == 0 &&
	    fa_xw_begin_page(&h.x, emit, arg) == 0) {
		build(&h);
		if (h.misorder)
			fa_xw_fail(&h.x, FA_ERR_INTERNAL, "the page was "
			    "written out of order");
		else if (h.oom)
			fa_xw_fail(&h.x, FA_ERR_NOMEM, "out of memory");
	}
	if (r == 0)
		r = fa_xw_finish(&h.x, buf, len, &werr);
	else
		(void)fa_xw_finish(&h.x, NULL, NULL, NULL);
	free(h.res);
	free(h.cl);
	free(h.cl_find);
	if (r != 0 && why != NULL)
		*why = fa_strfmt("report.html: %s", werr != NULL ? werr :
		    fa_strerror(r));
	free(werr);
	return r;
}

int
fa_report_html(const json_t *report, char **buf, size_t *len, char **why)
{
	*buf = NULL;
	*len = 0;
	return render(report, NULL, NULL, buf, len, why);
}

int
fa_report_html_emit(const json_t *report, fa_emit_fn emit, void *arg,
    char **why)
{
	return render(report, emit, arg, NULL, NULL, why);
}
