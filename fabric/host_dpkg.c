/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dpkg status reading (see host_dpkg.h).  libdpkg's own parser (parsedb)
 * loads into process-global package tables and reports malformed input
 * through ohshit(), a longjmp to an error context, which ends the whole
 * parse; for untrusted input read through a sysroot this small bounded
 * reader of three fields is safer, and it skips a bad stanza instead of
 * refusing the database.  The Status words are looked up in libdpkg's own
 * tables (wantinfos, eflaginfos, statusinfos, as dpkg's f_status does),
 * so the names and their case-insensitive matching are dpkg's.
 *
 * The format: deb822(5) stanzas apart by empty lines; a field is
 * "Name: value", the name US-ASCII without control characters, space or
 * colon and not starting with "-" or "#", matched case-insensitively; a
 * line starting with a space or tab continues the field before it.
 * Status is "want eflag status" (dpkg(1) "INFORMATION ABOUT PACKAGES";
 * dpkg-query(1) db:Status-Want, db:Status-Eflag, db:Status-Status).
 */
#define LIBDPKG_VOLATILE_API 1

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg-db.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_dpkg.h"
#include "host_pkgname.h"


int
fa_dpkg_upstream(const char *debver, char *out, size_t len)
{
	const char *p = debver, *colon, *hyphen;
	size_t n, i;

	if (fa_version_valid(FA_VER_DEBIAN, debver, NULL) != 0 ||
	    len < FA_VERSION_MAX + 1)
		return FA_ERR_INPUT;
	if ((colon = strchr(p, ':')) != NULL)
		p = colon + 1;
	hyphen = strrchr(p, '-');
	n = hyphen != NULL ? (size_t)(hyphen - p) : strlen(p);
	n = strcspn(p, "+") < n ? strcspn(p, "+") : n;
	for (i = 0; i < n; i++)
		out[i] = p[i] == '~' ? '-' : p[i];
	out[n] = '\0';
	return fa_version_valid(FA_VER_UPSTREAM, out, NULL) == 0 ? 0 :
	    FA_ERR_INPUT;
}

/* Debian Policy 5.6.7: [a-z0-9][a-z0-9+.-]+. */
static int
package_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n < 2 || n > 100 || !(islower((unsigned char)s[0]) ||
	    isdigit((unsigned char)s[0])))
		return 0;
	for (i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) &&
		    strchr("+.-", s[i]) == NULL)
			return 0;
	return 1;
}

/* One stanza's fields of interest, copied; "" when absent, "?" when too
 * long to be valid. */
struct stanza {
	unsigned first;		/* its first line; 0 before any */
	unsigned fields;	/* field lines seen */
	unsigned seen;		/* SEEN_* */
	char	 package[101];
	char	 status[64];
	char	 version[FA_VERSION_MAX + 1];
	char	 source[101];	/* "name" or "name (version)" */
	char	 maintainer[161];
	char	 bad[96];	/* the first fault of a line, "" none */
};

#define SEEN_PACKAGE	1u
#define SEEN_STATUS	2u
#define SEEN_VERSION	4u
#define SEEN_SOURCE	8u
#define SEEN_MAINT	16u

struct walk {
	struct stanza		 st;
	int			(*fn)(void *, const struct fa_dpkg_pkg *);
	void			*arg;
	struct fa_dpkg_tally	*t;
};

static void
keep(char *dst, size_t size, const char *v)
{
	if (strlen(v) >= size)
		v = "?";
	memcpy(dst, v, strlen(v) + 1);
}

/* s as printable ASCII ('?' for anything else), for a reason text. */
static void
printable(char *dst, size_t size, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < size && s[i] != '\0'; i++)
		dst[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	dst[i] = '\0';
}

/* Note the stanza as skipped for why. */
static void
skip(struct walk *w, const char *why)
{
	struct fa_dpkg_tally *t = w->t;

	t->skipped++;
	if (t->nlisted == FA_DPKG_SKIPPED_MAX)
		return;
	t->listed[t->nlisted].line = w->st.first;
	printable(t->listed[t->nlisted].package,
	    sizeof(t->listed[0].package), w->st.package);
	snprintf(t->listed[t->nlisted].why, sizeof(t->listed[0].why), "%s",
	    why);
	t->nlisted++;
}

/* The entry of dpkg's table named exactly word (any case), or NULL:
 * namevalue_find_by_name matches a prefix, dpkg then wants the word to
 * end there (lib/dpkg/parsehelp.c parse_nv). */
static const struct namevalue *
status_word(const struct namevalue *table, const char *word)
{
	const struct namevalue *nv = namevalue_find_by_name(table, word);

	return nv != NULL && (size_t)nv->length == strlen(word) ? nv : NULL;
}

/*
 * What a Status means for the files on disk, from dpkg(1) "Package
 * states" and "Package flags":
 *  - not-installed ("not installed on your system") and config-files
 *    ("only the configuration files or the postrm script and the data it
 *    needs to remove of the package exist"): the programs are gone.
 *  - unpacked ("unpacked, but not configured"), half-configured
 *    ("unpacked and configuration has been started, but not yet
 *    completed"), triggers-awaited and triggers-pending (configured; a
 *    trigger's processing is outstanding) and installed ("correctly
 *    unpacked and configured"): every file of Version is on disk.  A
 *    runc binary that is only unpacked runs as well as a configured one,
 *    so all of these are present, and the state is recorded.
 *  - half-installed ("the installation of the package has been started,
 *    but not completed"), during an upgrade or a removal: the files are a
 *    mix of two versions, or partly gone; and the reinstreq flag ("broken
 *    and requires reinstallation") with any state: files are there, of no
 *    version the database can vouch for.
 * The selection (install, hold, deinstall, purge, unknown) is what the
 * administrator asked for, not what is on disk: "deinstall ok installed"
 * is still installed.
 */
static enum fa_dpkg_presence
presence(int eflag, int status)
{
	if (status == PKG_STAT_NOTINSTALLED || status == PKG_STAT_CONFIGFILES)
		return FA_DPKG_ABSENT;
	if (status == PKG_STAT_HALFINSTALLED || eflag == PKG_EFLAG_REINSTREQ)
		return FA_DPKG_UNCERTAIN;
	return FA_DPKG_PRESENT;
}

/* Split the Status into dpkg's three words.  NULL, or what is wrong
 * (in why, of size len). */
static const char *
parse_status(const char *status, struct fa_dpkg_pkg *p, char *why,
    size_t len)
{
	static const struct namevalue *const tables[3] = { wantinfos,
	    eflaginfos, statusinfos };
	static const char *const what[3] = { "selection state", "error flag",
	    "package state" };
	const struct namevalue *nv[3];
	char copy[64], *words[4], *save = NULL, shown[64];
	size_t n = 0, i;

	snprintf(copy, sizeof(copy), "%s", status);
	for (words[0] = strtok_r(copy, " \t", &save); words[n] != NULL &&
	    n < 3;)
		words[++n] = strtok_r(NULL, " \t", &save);
	printable(shown, sizeof(shown), status);
	if (n != 3 || words[3] != NULL) {
		snprintf(why, len, "Status \"%s\" is not three words", shown);
		return why;
	}
	for (i = 0; i < 3; i++)
		if ((nv[i] = status_word(tables[i], words[i])) == NULL) {
			printable(shown, sizeof(shown), words[i]);
			snprintf(why, len, "Status: \"%s\" is not a dpkg %s",
			    shown, what[i]);
			return why;
		}
	p->want = nv[0]->name;
	p->eflag = nv[1]->name;
	p->state = nv[2]->name;
	p->presence = presence(nv[1]->value, nv[2]->value);
	return NULL;
}

/*
 * The source package: the Source field's name (deb-control(5): "name" or
 * "name (version)"), else the binary package's own name (Policy 5.6.1).
 * A name that is not one is left "".
 */
static void
source_name(const char *field, const char *package, char *out, size_t len)
{
	const char *v = field[0] != '\0' ? field : package;
	size_t n = strcspn(v, " (");

	out[0] = '\0';
	if (n == 0 || n >= len)
		return;
	memcpy(out, v, n);
	out[n] = '\0';
	if (!package_ok(out))
		out[0] = '\0';
}

/* The stanza as a package, or NULL with why (of size len) filled. */
static const char *
parse_stanza(const struct stanza *st, struct fa_dpkg_pkg *p, char *why,
    size_t len)
{
	memset(p, 0, sizeof(*p));
	p->package = st->package;
	p->line = st->first;
	if (st->bad[0] != '\0')
		return st->bad;
	if (!(st->seen & SEEN_PACKAGE))
		return "no Package field";
	if (!package_ok(st->package))
		return "the package name is not valid (Debian Policy 5.6.7)";
	if (!(st->seen & SEEN_STATUS))
		return "no Status field";
	if (parse_status(st->status, p, why, len) != NULL)
		return why;
	p->version = fa_version_valid(FA_VER_DEBIAN, st->version, NULL) == 0 ?
	    st->version : "";
	source_name(st->source, st->package, p->source, sizeof(p->source));
	p->maintainer = st->maintainer;
	if (p->presence == FA_DPKG_ABSENT || p->version[0] != '\0')
		return NULL;
	return st->seen & SEEN_VERSION ? "the Version is not a Debian version" :
	    "no Version field";
}

static int
finish(struct walk *w)
{
	struct fa_dpkg_pkg p;
	const char *bad;
	char why[128];
	int r = 0;

	if (w->st.first == 0)
		return 0;	/* blank lines between stanzas */
	w->t->stanzas++;
	if ((bad = parse_stanza(&w->st, &p, why, sizeof(why))) != NULL)
		skip(w, bad);
	else
		r = w->fn(w->arg, &p);
	memset(&w->st, 0, sizeof(w->st));
	return r;
}

/* The stanza's first fault, if it has none yet. */
static void
fault(struct stanza *st, unsigned ln, const char *what)
{
	if (st->bad[0] == '\0')
		snprintf(st->bad, sizeof(st->bad), "line %u: %s", ln, what);
}

/* deb822(5): US-ASCII, no control character, space or colon; not
 * starting with "-" or "#". */
static int
field_name_ok(const char *s)
{
	size_t i;

	if (s[0] == '-' || s[0] == '#')
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

static void
field(struct stanza *st, unsigned ln, const char *name, const char *v)
{
	static const struct {
		const char	*name;
		unsigned	 bit;
		size_t		 off, size;
	} f[] = {
		{ "Package", SEEN_PACKAGE, offsetof(struct stanza, package),
		  sizeof(((struct stanza *)0)->package) },
		{ "Status", SEEN_STATUS, offsetof(struct stanza, status),
		  sizeof(((struct stanza *)0)->status) },
		{ "Version", SEEN_VERSION, offsetof(struct stanza, version),
		  sizeof(((struct stanza *)0)->version) },
		{ "Source", SEEN_SOURCE, offsetof(struct stanza, source),
		  sizeof(((struct stanza *)0)->source) },
		{ "Maintainer", SEEN_MAINT, offsetof(struct stanza, maintainer),
		  sizeof(((struct stanza *)0)->maintainer) },
	};
	char what[64];
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (strcasecmp(name, f[i].name) != 0)
			continue;
		if (st->seen & f[i].bit) {
			snprintf(what, sizeof(what), "the %s field appears "
			    "twice", f[i].name);
			fault(st, ln, what);
		}
		st->seen |= f[i].bit;
		keep((char *)st + f[i].off, f[i].size, v);
	}
}

/* One line of n bytes at raw (no '\n'), copied to buf (n + 1 bytes). */
static int
stanza_line(struct walk *w, const char *raw, size_t n, unsigned ln,
    char *buf)
{
	struct stanza *st = &w->st;
	char *colon, *v, *e;

	if (n == 0)
		return finish(w);
	if (st->first == 0)
		st->first = ln;
	if (memchr(raw, '\0', n) != NULL) {
		fault(st, ln, "NUL byte");
		return 0;
	}
	memcpy(buf, raw, n);
	buf[n] = '\0';
	if (buf[0] == ' ' || buf[0] == '\t') {
		if (st->fields == 0)
			fault(st, ln, "a continuation line before any field");
		return 0;	/* continuation of a multi-line field */
	}
	st->fields++;
	if ((colon = strchr(buf, ':')) == NULL || colon == buf) {
		fault(st, ln, "not a field");
		return 0;
	}
	*colon = '\0';
	if (!field_name_ok(buf)) {
		fault(st, ln, "a field name with a space or control character");
		return 0;
	}
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	field(st, ln, buf, v);
	return 0;
}

static int
each_line(struct walk *w, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	unsigned ln = 0;
	char *buf;
	size_t n;
	int r = 0;

	if (len == SIZE_MAX || (buf = malloc(len + 1)) == NULL)
		return FA_ERR_NOMEM;
	while (r == 0 && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		r = stanza_line(w, p, n, ++ln, buf);
		p += n + 1;
	}
	free(buf);
	if (r == 0)
		r = finish(w);	/* the last stanza needs no blank line */
	return r;
}

int
fa_dpkg_each_package(const char *text, size_t len,
    int (*fn)(void *arg, const struct fa_dpkg_pkg *p), void *arg,
    struct fa_dpkg_tally *t, char **why)
{
	struct walk *w;
	int r;

	memset(t, 0, sizeof(*t));
	if (why != NULL)
		*why = NULL;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return FA_ERR_NOMEM;
	w->fn = fn;
	w->arg = arg;
	w->t = t;
	r = each_line(w, text, len);
	free(w);
	if (r == 0 && t->stanzas > 0 && t->skipped == t->stanzas)
		r = fa_why(why, "no stanza could be read (%zu skipped); the "
		    "first, at line %u: %s", t->stanzas, t->listed[0].line,
		    t->listed[0].why);
	return r;
}

struct installed {
	int	(*fn)(void *, const char *, const char *);
	void	*arg;
};

static int
only_present(void *arg, const struct fa_dpkg_pkg *p)
{
	struct installed *in = arg;

	if (p->presence != FA_DPKG_PRESENT)
		return 0;
	return in->fn(in->arg, p->package, p->version);
}

int
fa_dpkg_each_installed(const char *text, size_t len,
    int (*fn)(void *arg, const char *package, const char *version),
    void *arg, size_t *skipped, char **why)
{
	struct installed in = { fn, arg };
	struct fa_dpkg_tally *t;
	int r;

	*skipped = 0;
	if (why != NULL)
		*why = NULL;
	if ((t = malloc(sizeof(*t))) == NULL)
		return FA_ERR_NOMEM;
	r = fa_dpkg_each_package(text, len, only_present, &in, t, why);
	*skipped = t->skipped;
	free(t);
	return r;
}

struct collect {
	struct fa_snapshot *snap;
	size_t		 found, uncertain;
};

/*
 * Who built the package, from its Maintainer field: "ubuntu" (Ubuntu
 * Developers, @lists.ubuntu.com, which Ubuntu sets on every package it
 * changes), "debian" (an @lists.debian.org team or a @debian.org
 * developer), else "vendor" (Docker, NVIDIA: an upstream build packaged
 * by its maker), or "unknown" with no Maintainer.  A distribution's
 * package is judged by that distribution's CVE data; a vendor's by the
 * upstream version it ships.
 */
static const char *
origin_of(const char *maintainer)
{
	if (maintainer == NULL || maintainer[0] == '\0')
		return "unknown";
	if (strstr(maintainer, "ubuntu.com>") != NULL)
		return "ubuntu";
	if (strstr(maintainer, "debian.org>") != NULL)
		return "debian";
	return "vendor";
}

/* The data of a package's observation. */
static void
package_data(struct fa_obs_build *b, const struct fa_dpkg_pkg *p,
    const char *component)
{
	const char *m = p->maintainer != NULL ? p->maintainer : "";
	char up[FA_VERSION_MAX + 1], *maint;

	if ((maint = fa_str_sanitize(m, strlen(m))) == NULL) {
		fa_obs_build_fail(b);
		return;
	}
	fa_put_str(b, FA_F(HOST_PACKAGE, package), p->package);
	fa_put_str(b, FA_F(HOST_PACKAGE, component), component);
	fa_put_str(b, FA_F(HOST_PACKAGE, version), p->version);
	fa_put_str(b, FA_F(HOST_PACKAGE, source), "/var/lib/dpkg/status");
	fa_put_jstr(b, FA_F(HOST_PACKAGE, status), json_sprintf("%s %s %s",
	    p->want, p->eflag, p->state));
	fa_put_str(b, FA_F(HOST_PACKAGE, want), p->want);
	fa_put_str(b, FA_F(HOST_PACKAGE, eflag), p->eflag);
	fa_put_str(b, FA_F(HOST_PACKAGE, state), p->state);
	fa_put_str(b, FA_F(HOST_PACKAGE, source_package), p->source);
	fa_put_str(b, FA_F(HOST_PACKAGE, maintainer), maint);
	fa_put_str(b, FA_F(HOST_PACKAGE, origin), origin_of(m));
	free(maint);
	if (fa_dpkg_upstream(p->version, up, sizeof(up)) == 0)
		fa_put_str(b, FA_F(HOST_PACKAGE, upstream), up);
}

static int
record(void *arg, const struct fa_dpkg_pkg *p)
{
	struct collect *c = arg;
	struct fa_obs_build b;
	char *target, *reason = NULL;
	const char *comp;
	json_t *d;
	int r;

	if ((comp = fa_pkg_component(p->package, FA_PKG_DPKG)) == NULL ||
	    p->presence == FA_DPKG_ABSENT)
		return 0;
	fa_obs_build(&b);
	package_data(&b, p, comp);
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	if (p->presence == FA_DPKG_UNCERTAIN &&
	    (reason = fa_strfmt("%s: Status \"%s %s %s\": %s, so the files on "
	    "disk may not be those of version %s", p->package, p->want,
	    p->eflag, p->state, strcmp(p->eflag, "reinstreq") == 0 ? "dpkg "
	    "marks it broken, to be reinstalled (reinstreq)" : "an "
	    "installation or removal was started and not completed",
	    p->version)) == NULL) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	if ((target = fa_strfmt("dpkg:%s", p->package)) == NULL) {
		json_decref(d);
		free(reason);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(c->snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PACKAGE,
	    target, "read /var/lib/dpkg/status", reason != NULL ?
	    FA_OBS_INCOMPLETE : FA_OBS_COMPLETE, reason, d, NULL);
	free(target);
	free(reason);
	c->found++;
	c->uncertain += p->presence == FA_DPKG_UNCERTAIN;
	return r;
}

/* The database's own observation data, into b. */
static void
summary(struct fa_obs_build *b, const struct collect *c,
    const struct fa_dpkg_tally *t)
{
	json_t *list, *e;
	size_t i;

	if ((list = json_array()) == NULL) {
		fa_obs_build_fail(b);
		return;
	}
	for (i = 0; i < t->nlisted; i++) {
		e = json_pack("{s:I, s:s, s:s}", "line",
		    (json_int_t)t->listed[i].line, "package",
		    t->listed[i].package, "why", t->listed[i].why);
		if (e == NULL || json_array_append_new(list, e) != 0) {
			json_decref(list);
			fa_obs_build_fail(b);
			return;
		}
	}
	fa_put_str(b, FA_F(HOST_PACKAGE, source), "/var/lib/dpkg/status");
	fa_put_int(b, FA_F(HOST_PACKAGE, packages), (long long)c->found);
	fa_put_int(b, FA_F(HOST_PACKAGE, uncertain), (long long)c->uncertain);
	fa_put_int(b, FA_F(HOST_PACKAGE, stanzas), (long long)t->stanzas);
	fa_put_int(b, FA_F(HOST_PACKAGE, skipped), (long long)t->skipped);
	fa_put_arr(b, FA_F(HOST_PACKAGE, skipped_stanzas), list);
}

/* Walk the database text into observations; FA_ERR_INPUT with *why. */
static int
walk_database(const char *buf, size_t len, struct fa_snapshot *snap,
    char **why)
{
	struct collect c = { snap, 0, 0 };
	struct fa_obs_build b;
	struct fa_dpkg_tally *t;
	json_t *d;
	int r;

	if ((t = malloc(sizeof(*t))) == NULL)
		return FA_ERR_NOMEM;
	r = fa_dpkg_each_package(buf, len, record, &c, t, why);
	if (r == 0) {
		fa_obs_build(&b);
		summary(&b, &c, t);
		if ((d = fa_obs_built(&b)) == NULL)
			r = FA_ERR_NOMEM;
		else
			r = fa_snapshot_add(snap, FA_FAM_HOST, NULL,
			    FA_KIND_HOST_PACKAGE, "dpkg",
			    "read /var/lib/dpkg/status", FA_OBS_COMPLETE, NULL,
			    d, NULL);
	}
	free(t);
	return r;
}

int
fa_host_collect_dpkg(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char path[] = "/var/lib/dpkg/status";
	char *buf = NULL, *why = NULL, *reason;
	size_t len;
	int r;

	r = fa_sysroot_read(root, path, FA_DPKG_STATUS_MAX, &buf, &len);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == 0) {
		r = walk_database(buf, len, snap, &why);
		free(buf);
		if (r != FA_ERR_INPUT) {
			free(why);
			return r;
		}
		reason = fa_strfmt("%s: %s", path, why != NULL ? why :
		    fa_strerror(r));
		free(why);
	} else {
		reason = fa_strfmt("%s: %s%s", path, fa_sysroot_strerror(r),
		    r == FA_ERR_NOTFOUND ? " (not a dpkg-based system, or a "
		    "container image without the database)" : "");
	}
	if (reason == NULL)
		return FA_ERR_NOMEM;
	r = fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PACKAGE,
	    "dpkg", "read /var/lib/dpkg/status", r == FA_ERR_NOTFOUND ?
	    FA_OBS_NOT_COLLECTED : FA_OBS_ERROR, reason, NULL, NULL);
	free(reason);
	return r;
}
