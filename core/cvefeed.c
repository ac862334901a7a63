/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The feed records' storage and the helpers every feed parser shares
 * (core/cvefeed.h): bounded strings, dates, the file's SHA-256.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "cvefeed.h"
#include "errors.h"
#include "util.h"

static const char *const kind_names[FA_FEED_MAX] = {
	"osv", "cve5", "csaf", "debian", "kev", "overlay",
};

static const char *const trust_names[] = {
	"vendor", "reviewed", "unreviewed", "distribution", "overlay",
};

const char *
fa_feed_kind_name(enum fa_feed_kind k)
{
	return (unsigned)k < FA_FEED_MAX ? kind_names[k] : "?";
}

int
fa_feed_kind_parse(const char *s, enum fa_feed_kind *out)
{
	size_t i;

	for (i = 0; i < FA_FEED_MAX; i++)
		if (strcmp(s, kind_names[i]) == 0) {
			*out = (enum fa_feed_kind)i;
			return 0;
		}
	return FA_ERR_INPUT;
}

const char *
fa_feed_trust_name(enum fa_feed_trust t)
{
	return (unsigned)t < sizeof(trust_names) / sizeof(trust_names[0]) ?
	    trust_names[t] : "?";
}

struct fa_feed *
fa_feed_new(enum fa_feed_kind kind, const char *name, const char *buf,
    size_t len)
{
	struct fa_feed *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return NULL;
	f->kind = kind;
	if ((f->name = fa_strdup(name)) == NULL ||
	    fa_sha256_hex(buf, len, f->sha256) != 0) {
		fa_feed_free(f);
		return NULL;
	}
	return f;
}

struct fa_feed_rec *
fa_feed_add(struct fa_feed *f)
{
	struct fa_feed_rec *v;
	size_t cap;

	if (f->n >= FA_FEED_MAX_RECORDS)
		return NULL;
	if (f->n == f->cap) {
		cap = f->cap == 0 ? 16 : f->cap * 2;
		if ((v = realloc(f->v, cap * sizeof(*v))) == NULL)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	memset(&f->v[f->n], 0, sizeof(f->v[f->n]));
	f->v[f->n].cvss = -1;
	return &f->v[f->n++];
}

char *
fa_feed_str(const char *s)
{
	size_t i, n;

	if (s == NULL || (n = strlen(s)) > FA_FEED_STR_MAX)
		return NULL;
	for (i = 0; i < n; i++)
		if (!isprint((unsigned char)s[i]))
			return NULL;
	return fa_strdup(s);
}

int
fa_feed_cve_id_ok(const char *s)
{
	size_t i, n;

	if (s == NULL || strncmp(s, "CVE-", 4) != 0)
		return 0;
	for (i = 4; i < 8; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	if (s[8] != '-')
		return 0;
	for (n = 0; isdigit((unsigned char)s[9 + n]); n++)
		;
	return n >= 4 && n <= 19 && s[9 + n] == '\0';
}

#define TITLE_MAX	200

char *
fa_feed_title(const char *s)
{
	char t[TITLE_MAX + 1];
	size_t n = 0;

	for (; *s != '\0' && n < TITLE_MAX; s++) {
		if (isspace((unsigned char)*s)) {
			if (n > 0 && t[n - 1] != ' ')
				t[n++] = ' ';
		} else if (isprint((unsigned char)*s))
			t[n++] = *s;
		else
			break;
	}
	while (n > 0 && t[n - 1] == ' ')
		n--;
	t[n] = '\0';
	return n > 0 ? fa_strdup(t) : NULL;
}

/*
 * A copy of s (NULL stays NULL); FA_ERR_INPUT when s is not a bounded
 * string (or the copy fails: fa_feed_str does not tell the two apart).
 */
static int
dup_opt(const char *s, char **out)
{
	*out = NULL;
	if (s == NULL)
		return 0;
	return (*out = fa_feed_str(s)) != NULL ? 0 : FA_ERR_INPUT;
}

int
fa_feed_add_range(struct fa_feed_rec *r, const char *introduced,
    const char *fixed)
{
	struct fa_feed_range *v;

	if (r->nranges >= 64)
		return FA_ERR_INPUT;
	if ((v = realloc(r->ranges, (r->nranges + 1) * sizeof(*v))) == NULL)
		return FA_ERR_NOMEM;
	r->ranges = v;
	v = &r->ranges[r->nranges];
	memset(v, 0, sizeof(*v));
	if (dup_opt(introduced, &v->introduced) != 0 ||
	    dup_opt(fixed, &v->fixed) != 0) {
		free(v->introduced);
		free(v->fixed);
		return FA_ERR_INPUT;
	}
	r->nranges++;
	return 0;
}

int
fa_feed_add_distro(struct fa_feed_rec *r, const char *os,
    const char *release, const char *package, const char *fixed,
    const char *status)
{
	struct fa_feed_distro *v, d;

	if (r->ndistro >= 256)
		return FA_ERR_INPUT;
	memset(&d, 0, sizeof(d));
	if (dup_opt(os, &d.os) != 0 || d.os == NULL ||
	    dup_opt(release, &d.release) != 0 || d.release == NULL ||
	    dup_opt(package, &d.package) != 0 || d.package == NULL ||
	    dup_opt(fixed, &d.fixed) != 0 || dup_opt(status, &d.status) != 0)
		goto bad;
	if ((v = realloc(r->distro, (r->ndistro + 1) * sizeof(*v))) == NULL) {
		free(d.os);
		free(d.release);
		free(d.package);
		free(d.fixed);
		free(d.status);
		return FA_ERR_NOMEM;
	}
	r->distro = v;
	r->distro[r->ndistro++] = d;
	return 0;
bad:
	free(d.os);
	free(d.release);
	free(d.package);
	free(d.fixed);
	free(d.status);
	return FA_ERR_INPUT;
}

int
fa_feed_date(const char *s, char out[11])
{
	size_t i;

	if (s == NULL || strlen(s) < 10)
		return FA_ERR_INPUT;
	for (i = 0; i < 10; i++)
		if ((i == 4 || i == 7) ? s[i] != '-' :
		    !isdigit((unsigned char)s[i]))
			return FA_ERR_INPUT;
	if (s[10] != '\0' && s[10] != 'T' && s[10] != 't' && s[10] != ' ')
		return FA_ERR_INPUT;
	memcpy(out, s, 10);
	out[10] = '\0';
	return 0;
}

int
fa_feed_saw_date(struct fa_feed *f, const char *date)
{
	char d[11], *n;

	if (fa_feed_date(date, d) != 0)
		return FA_ERR_INPUT;
	if (f->newest != NULL && strcmp(f->newest, d) >= 0)
		return 0;
	if ((n = fa_strdup(d)) == NULL)
		return FA_ERR_NOMEM;
	free(f->newest);
	f->newest = n;
	return 0;
}

static void
rec_free(struct fa_feed_rec *r)
{
	size_t i;

	free(r->id);
	free(r->alias);
	free(r->title);
	free(r->cvss_version);
	free(r->advisory);
	free(r->published);
	free(r->modified);
	free(r->kev_added);
	free(r->branch);
	free(r->no_ranges);
	for (i = 0; i < r->nranges; i++) {
		free(r->ranges[i].introduced);
		free(r->ranges[i].fixed);
	}
	free(r->ranges);
	for (i = 0; i < r->ndistro; i++) {
		free(r->distro[i].os);
		free(r->distro[i].release);
		free(r->distro[i].package);
		free(r->distro[i].fixed);
		free(r->distro[i].status);
	}
	free(r->distro);
}

void
fa_feed_free(struct fa_feed *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++)
		rec_free(&f->v[i]);
	free(f->v);
	free(f->name);
	free(f->newest);
	free(f);
}
