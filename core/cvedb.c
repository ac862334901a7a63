/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loading and validating the host CVE catalogue (see cvedb.h).  Nothing in
 * the file is trusted: every member is checked for type, length and
 * vocabulary before a check may rely on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvedb.h"
#include "errors.h"
#include "util.h"

#define MAX_TEXT	2048
#define MAX_ENTRIES	10000
#define MAX_RANGES	64

static const char *const comp_names[FA_COMP_MAX] = {
	[FA_COMP_TOOLKIT] = "nvidia-container-toolkit",
	[FA_COMP_DRIVER] = "nvidia-driver",
	[FA_COMP_RUNC] = "runc",
	[FA_COMP_CONTAINERD] = "containerd",
	[FA_COMP_DOCKER] = "docker",
	[FA_COMP_KERNEL] = "kernel",
	[FA_COMP_BUILDKIT] = "buildkit",
};

static const char *const cond_names[FA_COND_MAX] = {
	[FA_COND_LEGACY_MODE] = "legacy-mode",
	[FA_COND_CDI_MODE] = "cdi-mode",
	[FA_COND_NOT_WITH_CRUN] = "not-with-crun",
	[FA_COND_NON_DEFAULT_CONFIG] = "non-default-config",
	[FA_COND_GPU_ACCESS] = "gpu-access",
	[FA_COND_HOST_NETWORK_ROOT] = "host-network-root",
	[FA_COND_CONSOLE] = "console",
	[FA_COND_AUTHZ_PLUGIN] = "authz-plugin",
	[FA_COND_OPERATOR_ACTION] = "operator-action",
	[FA_COND_MALICIOUS_IMAGE] = "malicious-image",
	[FA_COND_USERNS] = "userns",
	[FA_COND_CGROUP_V1] = "cgroup-v1",
	[FA_COND_MODULE_LOADED] = "module-loaded",
	[FA_COND_LOCAL_HOST_USER] = "local-host-user",
};

const char *
fa_component_name(enum fa_component c)
{
	return (unsigned)c < FA_COMP_MAX ? comp_names[c] : "unknown";
}

int
fa_component_parse(const char *s, enum fa_component *out)
{
	int i;

	for (i = 0; s != NULL && i < FA_COMP_MAX; i++) {
		if (strcmp(s, comp_names[i]) == 0) {
			*out = (enum fa_component)i;
			return 0;
		}
	}
	return FA_ERR_INPUT;
}

enum fa_ver_scheme
fa_component_scheme(enum fa_component c)
{
	return c == FA_COMP_KERNEL ? FA_VER_KERNEL : FA_VER_UPSTREAM;
}

const char *
fa_cve_cond_name(enum fa_cve_cond c)
{
	return (unsigned)c < FA_COND_MAX ? cond_names[c] : "unknown";
}

/* Printable ASCII, bounded: what the reports may show unescaped in txt. */
static int
text_ok(const char *s, size_t max)
{
	size_t i;

	if (s == NULL || s[0] == '\0')
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (i >= max || (unsigned char)s[i] < 0x20 ||
		    (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

/* YYYY-MM-DD, a real calendar date; midnight UTC into *t. */
static int
date_ok(const char *s, time_t *t)
{
	struct tm tm;
	char *end;

	if (s == NULL || strlen(s) != 10)
		return 0;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%d", &tm);
	if (end == NULL || *end != '\0' || tm.tm_year < 100)
		return 0;
	*t = timegm(&tm);
	{
		struct tm back;
		char buf[11];

		if (gmtime_r(t, &back) == NULL)
			return 0;
		strftime(buf, sizeof(buf), "%Y-%m-%d", &back);
		return strcmp(buf, s) == 0;	/* rejects 2026-02-30 */
	}
}

static int
url_ok(const char *s)
{
	return text_ok(s, 512) && strncmp(s, "https://", 8) == 0 &&
	    strchr(s, ' ') == NULL;
}

static int
cve_id_ok(const char *s)
{
	size_t i, n;

	if (s == NULL || strncmp(s, "CVE-", 4) != 0)
		return 0;
	n = strlen(s);
	if (n < 13 || n > 20 || s[8] != '-')
		return 0;
	for (i = 4; i < n; i++)
		if (i != 8 && (s[i] < '0' || s[i] > '9'))
			return 0;
	return 1;
}

static int
load_sources(const json_t *arr, char **why)
{
	const char *name, *url, *date;
	json_error_t e;
	time_t t;
	size_t i;
	json_t *s;

	if (!json_is_array(arr) || json_array_size(arr) == 0)
		return fa_why(why, "sources: not a non-empty array");
	json_array_foreach(arr, i, s) {
		if (json_unpack_ex(s, &e, JSON_STRICT, "{s:s, s:s, s:s}",
		    "name", &name, "url", &url, "date", &date) != 0)
			return fa_why(why, "sources[%zu]: %s", i, e.text);
		if (!text_ok(name, 200))
			return fa_why(why, "sources[%zu].name: not printable "
			    "text", i);
		if (!url_ok(url))
			return fa_why(why, "sources[%zu].url: not an https URL",
			    i);
		if (!date_ok(date, &t))
			return fa_why(why, "sources[%zu].date: not YYYY-MM-DD",
			    i);
	}
	return 0;
}

/*
 * "inputs" (format 2): the files a build read, [{"name", "kind",
 * "sha256", "newest"}], newest a date or null.
 */
static int
load_inputs(const json_t *arr, char **why)
{
	const char *name, *kind, *sha;
	json_t *s, *newest;
	json_error_t e;
	size_t i, k;
	time_t t;

	if (!json_is_array(arr) || json_array_size(arr) > 1000)
		return fa_why(why, "inputs: not an array of at most 1000");
	json_array_foreach(arr, i, s) {
		if (json_unpack_ex(s, &e, JSON_STRICT, "{s:s, s:s, s:s, s:o}",
		    "name", &name, "kind", &kind, "sha256", &sha, "newest",
		    &newest) != 0)
			return fa_why(why, "inputs[%zu]: %s", i, e.text);
		if (!text_ok(name, 200) || !text_ok(kind, 20))
			return fa_why(why, "inputs[%zu]: name or kind not "
			    "printable text", i);
		for (k = 0; k < 64 && ((sha[k] >= '0' && sha[k] <= '9') ||
		    (sha[k] >= 'a' && sha[k] <= 'f')); k++)
			;
		if (k != 64 || sha[64] != '\0')
			return fa_why(why, "inputs[%zu].sha256: not 64 "
			    "lower-case hex digits", i);
		if (!json_is_null(newest) && (!json_is_string(newest) ||
		    !date_ok(json_string_value(newest), &t)))
			return fa_why(why, "inputs[%zu].newest: not YYYY-MM-DD "
			    "or null", i);
	}
	return 0;
}

static int
opt_text(const char *s, size_t max)
{
	return s == NULL || text_ok(s, max);
}

/* A member that is a string or null (jansson's unpack has no "s or null"). */
static int
str_or_null(const json_t *v, const char **out)
{
	*out = NULL;
	if (json_is_null(v))
		return 0;
	if (!json_is_string(v) ||
	    strlen(json_string_value(v)) != json_string_length(v))
		return FA_ERR_INPUT;
	*out = json_string_value(v);
	return 0;
}

static int
load_ranges(struct fa_cve *c, size_t ei, const json_t *arr, char **why)
{
	enum fa_ver_scheme sch = fa_component_scheme(c->component);
	struct fa_cve_range *r;
	const char *err;
	json_t *o, *intro, *fixed, *when, *w, *ml;
	json_error_t e;
	size_t i, k;
	int cmp, n;

	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    json_array_size(arr) > MAX_RANGES)
		return fa_why(why, "entries[%zu].affected: not an array of "
		    "1-%d ranges", ei, MAX_RANGES);
	c->nranges = json_array_size(arr);
	if ((c->ranges = calloc(c->nranges, sizeof(*c->ranges))) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(arr, i, o) {
		r = &c->ranges[i];
		when = ml = NULL;
		if (json_unpack_ex(o, &e, JSON_STRICT, "{s:o, s:o, s?s, s?o, "
		    "s?o}", "introduced", &intro, "fixed", &fixed,
		    "note", &r->note, "when", &when, "mainline_only",
		    &ml) != 0)
			return fa_why(why, "entries[%zu].affected[%zu]: %s", ei,
			    i, e.text);
		if (ml != NULL && (!json_is_boolean(ml) ||
		    c->component != FA_COMP_KERNEL))
			return fa_why(why, "entries[%zu].affected[%zu]."
			    "mainline_only: a boolean, on kernel entries only",
			    ei, i);
		r->mainline_only = json_is_true(ml);
		/* A line that holds only in one toolkit mode (NVIDIA's
		 * bulletins say so in prose: "CDI mode only"). */
		if (when != NULL && (!json_is_array(when) ||
		    json_array_size(when) != 1))
			return fa_why(why, "entries[%zu].affected[%zu].when: "
			    "not an array of one mode", ei, i);
		json_array_foreach(when, k, w) {
			n = !json_is_string(w) ? -1 : strcmp(json_string_value(
			    w), "cdi-mode") == 0 ? FA_COND_CDI_MODE : strcmp(
			    json_string_value(w), "legacy-mode") == 0 ?
			    FA_COND_LEGACY_MODE : -1;
			if (n < 0)
				return fa_why(why, "entries[%zu].affected[%zu]."
				    "when[%zu]: not cdi-mode or legacy-mode",
				    ei, i, k);
			r->when |= 1u << n;
		}
		if (str_or_null(intro, &r->introduced) != 0)
			return fa_why(why, "entries[%zu].affected[%zu]."
			    "introduced: not a string or null", ei, i);
		if (str_or_null(fixed, &r->fixed) != 0)
			return fa_why(why, "entries[%zu].affected[%zu].fixed: "
			    "not a string or null", ei, i);
		if (r->introduced != NULL &&
		    fa_version_valid(sch, r->introduced, &err) != 0)
			return fa_why(why, "entries[%zu].affected[%zu]."
			    "introduced: %s", ei, i, err);
		if (r->fixed != NULL &&
		    fa_version_valid(sch, r->fixed, &err) != 0)
			return fa_why(why, "entries[%zu].affected[%zu].fixed: "
			    "%s", ei, i, err);
		if (!opt_text(r->note, MAX_TEXT))
			return fa_why(why, "entries[%zu].affected[%zu].note: "
			    "not printable text", ei, i);
		if (r->introduced != NULL && r->fixed != NULL &&
		    (fa_version_cmp(sch, r->introduced, r->fixed, &cmp,
		    &err) != 0 || cmp >= 0))
			return fa_why(why, "entries[%zu].affected[%zu]: "
			    "introduced is not before fixed", ei, i);
	}
	return 0;
}

static const char *const distro_status_names[] = {
	[FA_DISTRO_FIXED] = "fixed",
	[FA_DISTRO_OPEN] = "open",
	[FA_DISTRO_NOT_AFFECTED] = "not-affected",
	[FA_DISTRO_UNDETERMINED] = "undetermined",
};

/*
 * The distributions that build RPMs (their os-release IDs): their package
 * versions are rpm's EVRs, ordered by rpm.  Every other, dpkg's.
 */
static const char *const rpm_distros[] = {
	"rhel", "centos", "rocky", "almalinux", "fedora", "ol", "amzn",
	"opensuse-leap", "sles", NULL,
};

int
fa_distro_is_rpm(const char *os)
{
	size_t i;

	for (i = 0; os != NULL && rpm_distros[i] != NULL; i++)
		if (strcmp(os, rpm_distros[i]) == 0)
			return 1;
	return 0;
}

enum fa_ver_scheme
fa_distro_scheme(const char *os)
{
	return fa_distro_is_rpm(os) ? FA_VER_RPM : FA_VER_DEBIAN;
}

const char *
fa_distro_status_name(enum fa_distro_status st)
{
	return (unsigned)st <= FA_DISTRO_UNDETERMINED ?
	    distro_status_names[st] : "unknown";
}

/* A distribution or release name: [a-z0-9][a-z0-9.+-]*, 1-40 bytes. */
static int
name_ok(const char *s)
{
	size_t i, n;

	if (s == NULL || (n = strlen(s)) == 0 || n > 40 ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') ||
		    strchr(".+-", s[i]) != NULL))
			return 0;
	return 1;
}

/*
 * "distro": [{"os", "release", "package", "status", "fixed"}]: "fixed"
 * a Debian version exactly when status is "fixed".
 */
static int
load_distro(struct fa_cve *c, size_t ei, const json_t *arr, char **why)
{
	struct fa_cve_distro *d;
	const char *st, *err;
	json_t *o, *fixed;
	json_error_t e;
	size_t i;
	int k;

	if (!json_is_array(arr) || json_array_size(arr) > 256)
		return fa_why(why, "entries[%zu].distro: not an array of at "
		    "most 256", ei);
	c->ndistro = json_array_size(arr);
	if (c->ndistro > 0 && (c->distro = calloc(c->ndistro,
	    sizeof(*c->distro))) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(arr, i, o) {
		d = &c->distro[i];
		if (json_unpack_ex(o, &e, JSON_STRICT, "{s:s, s:s, s:s, s:s, "
		    "s:o}", "os", &d->os, "release", &d->release, "package",
		    &d->package, "status", &st, "fixed", &fixed) != 0)
			return fa_why(why, "entries[%zu].distro[%zu]: %s", ei,
			    i, e.text);
		if (!name_ok(d->os) || !name_ok(d->release) ||
		    !name_ok(d->package))
			return fa_why(why, "entries[%zu].distro[%zu]: os, "
			    "release and package are lower-case names", ei, i);
		for (k = 0; k <= FA_DISTRO_UNDETERMINED; k++)
			if (strcmp(st, distro_status_names[k]) == 0)
				break;
		if (k > FA_DISTRO_UNDETERMINED)
			return fa_why(why, "entries[%zu].distro[%zu].status: "
			    "not fixed, open, not-affected or undetermined", ei,
			    i);
		d->status = (enum fa_distro_status)k;
		if (str_or_null(fixed, &d->fixed) != 0 ||
		    (d->status == FA_DISTRO_FIXED) != (d->fixed != NULL))
			return fa_why(why, "entries[%zu].distro[%zu].fixed: a "
			    "version when status is fixed, else null", ei, i);
		if (d->fixed != NULL &&
		    fa_version_valid(fa_distro_scheme(d->os), d->fixed,
		    &err) != 0)
			return fa_why(why, "entries[%zu].distro[%zu].fixed: "
			    "%s", ei, i, err);
	}
	return 0;
}

/* "kev": {"added": "YYYY-MM-DD"}: on CISA's KEV list since. */
static int
load_kev(struct fa_cve *c, size_t ei, const json_t *o, char **why)
{
	json_error_t e;
	time_t t;

	if (json_unpack_ex((json_t *)o, &e, JSON_STRICT, "{s:s}", "added",
	    &c->kev_added) != 0)
		return fa_why(why, "entries[%zu].kev: %s", ei, e.text);
	if (!date_ok(c->kev_added, &t))
		return fa_why(why, "entries[%zu].kev.added: not YYYY-MM-DD",
		    ei);
	return 0;
}

static int
load_entry(struct fa_cvedb *db, size_t i, const json_t *o, char **why)
{
	struct fa_cve *c = &db->entries[i];
	const char *comp, *conf;
	json_t *cvss, *cvssv, *aff, *conds, *v;
	json_error_t e;
	size_t k;
	int n, r;

	json_t *distro = NULL, *kev = NULL;

	if (json_unpack_ex((json_t *)o, &e, JSON_STRICT,
	    "{s:s, s:s, s:s, s:o, s:o, s:s, s:o, s:o, s?s, s?s, s:s, s?s, "
	    "s?o, s?o}",
	    "id", &c->id, "component", &comp, "title", &c->title,
	    "cvss", &cvss, "cvss_version", &cvssv, "advisory", &c->advisory,
	    "affected", &aff, "conditions", &conds,
	    "reopened_by", &c->reopened_by, "mitigated_by", &c->mitigated_by,
	    "confidence", &conf, "note", &c->note, "distro", &distro,
	    "kev", &kev) != 0)
		return fa_why(why, "entries[%zu]: %s", i, e.text);
	if ((distro != NULL || kev != NULL) && db->format < 2)
		return fa_why(why, "entries[%zu]: distro and kev need format "
		    "2", i);
	if (distro != NULL && (r = load_distro(c, i, distro, why)) != 0)
		return r;
	if (kev != NULL && (r = load_kev(c, i, kev, why)) != 0)
		return r;
	if (!cve_id_ok(c->id))
		return fa_why(why, "entries[%zu].id: not a CVE identifier", i);
	if (fa_component_parse(comp, &c->component) != 0)
		return fa_why(why, "entries[%zu].component: unknown \"%.40s\"",
		    i, comp);
	if (!text_ok(c->title, 200))
		return fa_why(why, "entries[%zu].title: not printable text of "
		    "at most 200 bytes", i);
	if (json_is_null(cvss) && json_is_null(cvssv)) {
		c->cvss = -1;
	} else if (json_is_number(cvss) && json_is_string(cvssv) &&
	    json_number_value(cvss) >= 0 && json_number_value(cvss) <= 10 &&
	    (strcmp(json_string_value(cvssv), "3.1") == 0 ||
	    strcmp(json_string_value(cvssv), "4.0") == 0)) {
		c->cvss = json_number_value(cvss);
		c->cvss_version = json_string_value(cvssv);
	} else {
		return fa_why(why, "entries[%zu].cvss: a score 0-10 with "
		    "cvss_version \"3.1\" or \"4.0\", or both null", i);
	}
	if (!url_ok(c->advisory))
		return fa_why(why, "entries[%zu].advisory: not an https "
		    "URL", i);
	/* Format 2: a CVE only distributions speak of has no range. */
	if (!(db->format >= 2 && c->ndistro > 0 && json_is_array(aff) &&
	    json_array_size(aff) == 0) && (r = load_ranges(c, i, aff, why)) !=
	    0)
		return r;
	if (!json_is_array(conds))
		return fa_why(why, "entries[%zu].conditions: not an array", i);
	json_array_foreach(conds, k, v) {
		for (n = 0; n < FA_COND_MAX; n++)
			if (json_is_string(v) &&
			    strcmp(json_string_value(v), cond_names[n]) == 0)
				break;
		if (n == FA_COND_MAX)
			return fa_why(why, "entries[%zu].conditions[%zu]: "
			    "not a known condition", i, k);
		c->conditions |= 1u << n;
	}
	if ((c->reopened_by != NULL || c->mitigated_by != NULL) &&
	    c->component != FA_COMP_TOOLKIT)
		return fa_why(why, "entries[%zu]: reopened_by/mitigated_by are "
		    "toolkit feature flags", i);
	if (!opt_text(c->reopened_by, 100) || !opt_text(c->mitigated_by, 100)
	    || !opt_text(c->note, MAX_TEXT))
		return fa_why(why, "entries[%zu]: a text member is not "
		    "printable text", i);
	if (strcmp(conf, "verified") == 0)
		c->verified = 1;
	else if (strcmp(conf, "secondary") != 0)
		return fa_why(why, "entries[%zu].confidence: \"verified\" or "
		    "\"secondary\"", i);
	return 0;
}

void
fa_cvedb_free(struct fa_cvedb *db)
{
	size_t i;

	if (db == NULL)
		return;
	for (i = 0; i < db->n; i++) {
		free(db->entries[i].ranges);
		free(db->entries[i].distro);
	}
	free(db->entries);
	json_decref(db->json);
	free(db);
}

int
fa_cvedb_from_json(json_t *j, struct fa_cvedb **out, char **why)
{
	struct fa_cvedb *db;
	json_t *sources, *entries, *o, *inputs = NULL;
	const char *name, *built_by = NULL;
	json_error_t e;
	json_int_t format;
	size_t i;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if ((db = calloc(1, sizeof(*db))) == NULL)
		return FA_ERR_NOMEM;
	db->json = json_incref(j);
	if (json_unpack_ex(j, &e, JSON_STRICT, "{s:I, s:s, s:s, s?s, s:o, "
	    "s?o, s?s, s:o}", "format", &format, "name", &name, "date",
	    &db->date, "valid_until", &db->valid_until, "sources", &sources,
	    "inputs", &inputs, "built_by", &built_by, "entries",
	    &entries) != 0) {
		r = fa_why(why, "%s", e.text);
		goto bad;
	}
	r = FA_ERR_INPUT;
	if (format != 1 && format != FA_CVEDB_FORMAT) {
		fa_why(why, "format: %lld is not 1 or %d", (long long)format,
		    FA_CVEDB_FORMAT);
		goto bad;
	}
	db->format = (int)format;
	if (format < 2 && (db->valid_until != NULL || inputs != NULL ||
	    built_by != NULL)) {
		fa_why(why, "valid_until, inputs and built_by need format 2");
		goto bad;
	}
	if (db->valid_until != NULL && !date_ok(db->valid_until,
	    &db->valid_until_t)) {
		fa_why(why, "valid_until: not YYYY-MM-DD");
		goto bad;
	}
	if (built_by != NULL && !text_ok(built_by, 200)) {
		fa_why(why, "built_by: not printable text");
		goto bad;
	}
	if (inputs != NULL && (r = load_inputs(inputs, why)) != 0)
		goto bad;
	r = FA_ERR_INPUT;
	if (!text_ok(name, 200)) {
		fa_why(why, "name: not printable text");
		goto bad;
	}
	if (!date_ok(db->date, &db->date_t)) {
		fa_why(why, "date: not YYYY-MM-DD");
		goto bad;
	}
	if ((r = load_sources(sources, why)) != 0)
		goto bad;
	if (!json_is_array(entries) || json_array_size(entries) > MAX_ENTRIES) {
		r = fa_why(why, "entries: not an array of at most %d",
		    MAX_ENTRIES);
		goto bad;
	}
	if (json_array_size(entries) > 0 && (db->entries = calloc(
	    json_array_size(entries), sizeof(*db->entries))) == NULL) {
		r = FA_ERR_NOMEM;
		goto bad;
	}
	json_array_foreach(entries, i, o) {
		db->n = i + 1;
		if ((r = load_entry(db, i, o, why)) != 0)
			goto bad;
	}
	*out = db;
	return 0;
bad:
	fa_cvedb_free(db);
	return r;
}

int
fa_cvedb_parse(const char *buf, size_t len, struct fa_cvedb **out, char **why)
{
	json_error_t e;
	json_t *j;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > FA_CVEDB_MAX_BYTES)
		return fa_why(why, "larger than %u bytes", FA_CVEDB_MAX_BYTES);
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	if (j == NULL)
		return fa_why(why, "line %d, column %d: %s", e.line, e.column,
		    e.text);
	r = fa_cvedb_from_json(j, out, why);
	json_decref(j);
	return r;
}

long
fa_cvedb_age_days(const struct fa_cvedb *db, time_t now)
{
	double d = difftime(now, db->date_t) / 86400.0;

	return d < 0 ? -(long)(-d) : (long)d;
}

int
fa_cvedb_stale(const struct fa_cvedb *db, time_t now)
{
	if (db->valid_until != NULL)
		return difftime(now, db->valid_until_t) >= 86400.0;
	return fa_cvedb_age_days(db, now) > FA_CVEDB_STALE_DAYS;
}

int
fa_cve_match(const struct fa_cve *e, const char *version,
    const struct fa_cve_range **hit, const char **errstr)
{
	enum fa_ver_scheme sch = fa_component_scheme(e->component);
	size_t i;
	int in, r;

	*hit = NULL;
	if ((r = fa_version_valid(sch, version, errstr)) != 0)
		return r;
	for (i = 0; i < e->nranges; i++) {
		if ((r = fa_version_in_range(sch, version,
		    e->ranges[i].introduced, e->ranges[i].fixed, &in,
		    errstr)) != 0)
			return r;
		/* Where lines overlap, an unconditional one decides: a
		 * line that holds only in one mode, or whose stable fixes
		 * are unknown, may be ruled out where another is not. */
		if (in && (*hit == NULL || ((*hit)->when != 0 ||
		    (*hit)->mainline_only)))
			*hit = &e->ranges[i];
		if (*hit != NULL && (*hit)->when == 0 &&
		    !(*hit)->mainline_only)
			break;
	}
	return 0;
}

int
fa_cve_distro_verdict(const struct fa_cve *e, const char *os,
    const char *release, const char *package, const char *debver,
    int *verdict, const struct fa_cve_distro **hit, const char **errstr)
{
	const struct fa_cve_distro *d;
	size_t i;
	int cmp, r;

	*verdict = -1;
	*hit = NULL;
	if ((r = fa_version_valid(fa_distro_scheme(os), debver, errstr)) != 0)
		return r;
	for (i = 0; i < e->ndistro; i++) {
		d = &e->distro[i];
		if (strcmp(d->os, os) != 0 ||
		    strcmp(d->release, release) != 0 ||
		    strcmp(d->package, package) != 0)
			continue;
		*hit = d;
		switch (d->status) {
		case FA_DISTRO_FIXED:
			if ((r = fa_version_cmp(fa_distro_scheme(os), debver,
			    d->fixed, &cmp, errstr)) != 0)
				return r;
			*verdict = cmp < 0;
			break;
		case FA_DISTRO_OPEN:
			*verdict = 1;
			break;
		case FA_DISTRO_NOT_AFFECTED:
			*verdict = 0;
			break;
		default:
			*verdict = -1;
			break;
		}
		return 0;
	}
	return 0;
}
