/*
 * dpkg status reading (see host_dpkg.h).  libdpkg's own parser (parsedb)
 * loads into process-global package tables and reports malformed input
 * through ohshit(), a longjmp to an error context; for untrusted input read
 * through a sysroot this small bounded reader of three fields is safer.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_dpkg.h"

/* Package name -> catalogue component. */
static const struct {
	const char	*package;
	const char	*component;
} interesting[] = {
	{ "runc", "runc" },
	{ "containerd", "containerd" },
	{ "containerd.io", "containerd" },	/* Docker's repository */
	{ "docker.io", "docker" },
	{ "docker-ce", "docker" },
	{ "moby-engine", "docker" },
	{ "nvidia-container-toolkit", "nvidia-container-toolkit" },
	{ "nvidia-container-toolkit-base", "nvidia-container-toolkit" },
	{ "libnvidia-container1", "nvidia-container-toolkit" },
	{ "libnvidia-container-tools", "nvidia-container-toolkit" },
};

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
	char	 package[101];
	char	 status[64];
	char	 version[FA_VERSION_MAX + 1];
};

struct walk {
	struct stanza	 st;
	int		(*fn)(void *, const char *, const char *);
	void		*arg;
	size_t		*skipped;
};

static void
keep(char *dst, size_t size, const char *v)
{
	if (strlen(v) >= size)
		v = "?";
	memcpy(dst, v, strlen(v) + 1);
}

static int
finish(struct walk *w)
{
	struct stanza *st = &w->st;
	int r = 0;

	if (strcmp(st->status, "install ok installed") == 0) {
		if (!package_ok(st->package) ||
		    fa_version_valid(FA_VER_DEBIAN, st->version, NULL) != 0)
			(*w->skipped)++;
		else
			r = w->fn(w->arg, st->package, st->version);
	}
	memset(st, 0, sizeof(*st));
	return r;
}

static int
stanza_line(char *line, unsigned ln, void *arg, char **why)
{
	struct walk *w = arg;
	char *colon, *v, *e;

	if (line[0] == '\0')
		return finish(w);
	if (line[0] == ' ' || line[0] == '\t')
		return 0;	/* continuation of a multi-line field */
	if ((colon = strchr(line, ':')) == NULL || colon == line)
		return fa_why(why, "line %u: not a field", ln);
	*colon = '\0';
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	if (strcasecmp(line, "Package") == 0)
		keep(w->st.package, sizeof(w->st.package), v);
	else if (strcasecmp(line, "Status") == 0)
		keep(w->st.status, sizeof(w->st.status), v);
	else if (strcasecmp(line, "Version") == 0)
		keep(w->st.version, sizeof(w->st.version), v);
	return 0;
}

int
fa_dpkg_each_installed(const char *text, size_t len,
    int (*fn)(void *arg, const char *package, const char *version),
    void *arg, size_t *skipped, char **why)
{
	struct walk *w;
	int r;

	*skipped = 0;
	if (why != NULL)
		*why = NULL;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return FA_ERR_NOMEM;
	w->fn = fn;
	w->arg = arg;
	w->skipped = skipped;
	r = fa_text_each_line(text, len, stanza_line, w, why);
	if (r == 0)
		r = finish(w);	/* the last stanza needs no blank line */
	free(w);
	return r;
}

struct collect {
	struct fa_snapshot *snap;
	size_t		 found;
};

static int
record(void *arg, const char *package, const char *version)
{
	struct collect *c = arg;
	char up[FA_VERSION_MAX + 1], *target;
	json_t *d;
	size_t i;
	int r;

	for (i = 0; i < sizeof(interesting) / sizeof(interesting[0]); i++)
		if (strcmp(package, interesting[i].package) == 0)
			break;
	if (i == sizeof(interesting) / sizeof(interesting[0]))
		return 0;
	d = json_pack("{s:s, s:s, s:s, s:s}", "package", package,
	    "component", interesting[i].component, "version", version,
	    "source", "/var/lib/dpkg/status");
	if (d == NULL)
		return FA_ERR_NOMEM;
	if (fa_dpkg_upstream(version, up, sizeof(up)) == 0 &&
	    json_object_set_new(d, "upstream", json_string(up)) != 0) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	if ((target = fa_strfmt("dpkg:%s", package)) == NULL) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(c->snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PACKAGE,
	    target, "read /var/lib/dpkg/status", FA_OBS_COMPLETE, NULL, d,
	    NULL);
	free(target);
	c->found++;
	return r;
}

int
fa_host_collect_dpkg(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char path[] = "/var/lib/dpkg/status";
	struct collect c = { snap, 0 };
	char *buf = NULL, *why = NULL, *reason;
	size_t len, skipped;
	int r;

	r = fa_sysroot_read(root, path, FA_DPKG_STATUS_MAX, &buf, &len);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == 0) {
		r = fa_dpkg_each_installed(buf, len, record, &c, &skipped,
		    &why);
		free(buf);
		if (r == FA_ERR_NOMEM) {
			free(why);
			return r;
		}
		if (r == 0) {
			json_t *d = json_pack("{s:s, s:I, s:I}", "source",
			    path, "packages", (json_int_t)c.found, "skipped",
			    (json_int_t)skipped);

			if (d == NULL)
				return FA_ERR_NOMEM;
			return fa_snapshot_add(snap, FA_FAM_HOST, NULL,
			    FA_KIND_HOST_PACKAGE, "dpkg",
			    "read /var/lib/dpkg/status", FA_OBS_COMPLETE, NULL,
			    d, NULL);
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
