/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA Container Toolkit config.toml and CDI specs (see host_ctk.h).
 * The subset read: TOML v1.0 comments, [table] and [a.b] headers, bare
 * keys, and one-line values (basic and literal strings, booleans, decimal
 * integers, arrays of strings).  Paths: the toolkit's own default
 * (/etc/nvidia-container-runtime/config.toml) and the GPU Operator's
 * (/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml).
 * CDI spec directories: the CDI default /etc/cdi and /var/run/cdi.  And
 * the stat-only probes that resolving mode "auto" needs (host.ctk.probe).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_ctk.h"
#include "host_obs.h"

static const char *const config_paths[] = {
	"/etc/nvidia-container-runtime/config.toml",
	"/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/"
	    "config.toml",
	NULL
};

static const char *const cdi_dirs[] = { "/etc/cdi", "/var/run/cdi", NULL };

struct toml_ctx {
	char	 table[128];
	json_t	*values;
	json_t	*unparsed;
};

/* c may be a plain char from the text: isalnum(3) takes unsigned chars. */
static int
is_bare(int c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

static char *
skip_ws(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A string at *pp ("..." or '...'); advances *pp; NULL when malformed. */
static json_t *
string_at(char **pp)
{
	char *p = *pp, q = *p++, buf[1024];
	size_t n = 0;

	while (*p != '\0' && *p != q) {
		if (q == '"' && *p == '\\') {
			p++;
			if (*p != '"' && *p != '\\')
				return NULL;	/* other escapes: not read */
		}
		if (n + 1 >= sizeof(buf))
			return NULL;
		buf[n++] = *p++;
	}
	if (*p != q)
		return NULL;
	*pp = p + 1;
	buf[n] = '\0';
	{
		char *s = fa_str_sanitize(buf, n);
		json_t *j = s != NULL ? json_string(s) : NULL;

		free(s);
		return j;
	}
}

/* A one-line value at p; NULL when outside the subset. */
static json_t *
value_at(char *p)
{
	json_t *v = NULL, *s;
	char *end;
	long long n;

	if (*p == '"' || *p == '\'') {
		v = string_at(&p);
	} else if (strncmp(p, "true", 4) == 0 && !is_bare(p[4])) {
		v = json_true();
		p += 4;
	} else if (strncmp(p, "false", 5) == 0 && !is_bare(p[5])) {
		v = json_false();
		p += 5;
	} else if (*p == '[') {
		v = json_array();
		p = skip_ws(p + 1);
		while (v != NULL && *p != ']') {
			if ((*p != '"' && *p != '\'') ||
			    (s = string_at(&p)) == NULL ||
			    json_array_append_new(v, s) != 0 ||
			    json_array_size(v) > 64) {
				json_decref(v);
				return NULL;
			}
			p = skip_ws(p);
			if (*p == ',')
				p = skip_ws(p + 1);
			else if (*p != ']') {
				json_decref(v);
				return NULL;
			}
		}
		if (v != NULL)
			p++;
	} else if (isdigit((unsigned char)*p) || *p == '-') {
		n = strtoll(p, &end, 10);
		if (end != p && !is_bare(*end) && *end != '.') {
			v = json_integer(n);
			p = end;
		}
	}
	if (v == NULL)
		return NULL;
	p = skip_ws(p);
	if (*p != '\0' && *p != '#') {
		json_decref(v);
		return NULL;
	}
	return v;
}

static int
toml_line(char *line, unsigned ln, void *arg, char **why)
{
	struct toml_ctx *t = arg;
	char *p = skip_ws(line), *k, key[256];
	size_t kn;
	json_t *v;

	(void)why;
	if (*p == '\0' || *p == '#')
		return 0;
	if (*p == '[') {
		k = ++p;
		while (is_bare((unsigned char)*p) || *p == '.')
			p++;
		kn = (size_t)(p - k);
		if (*p == ']' && kn > 0 && kn < sizeof(t->table) &&
		    (*(p = skip_ws(p + 1)) == '\0' || *p == '#')) {
			memcpy(t->table, k, kn);
			t->table[kn] = '\0';
			return 0;
		}
		t->table[0] = '\0';
		goto unparsed;
	}
	k = p;
	while (is_bare((unsigned char)*p))
		p++;
	kn = (size_t)(p - k);
	p = skip_ws(p);
	if (kn == 0 || *p != '=')
		goto unparsed;
	p = skip_ws(p + 1);
	if ((v = value_at(p)) == NULL)
		goto unparsed;
	if (snprintf(key, sizeof(key), "%s%s%.*s", t->table,
	    t->table[0] != '\0' ? "." : "", (int)kn, k) >= (int)sizeof(key) ||
	    json_object_size(t->values) >= FA_CTK_KEYS_MAX) {
		json_decref(v);
		goto unparsed;
	}
	return json_object_set_new(t->values, key, v) != 0 ? FA_ERR_NOMEM : 0;
unparsed:
	return json_array_append_new(t->unparsed, json_integer(ln)) != 0 ?
	    FA_ERR_NOMEM : 0;
}

int
fa_ctk_config_decode(const char *text, size_t len, json_t **out, char **why)
{
	struct toml_ctx t = { "", json_object(), json_array() };
	struct fa_obs_build b;
	int r;

	*out = NULL;
	if (t.values == NULL || t.unparsed == NULL) {
		r = FA_ERR_NOMEM;
		goto fail;
	}
	if ((r = fa_text_each_line(text, len, toml_line, &t, why)) != 0)
		goto fail;
	fa_obs_build(&b);
	fa_put_obj(&b, FA_F(HOST_CTK_CONFIG, values), t.values);
	fa_put_arr(&b, FA_F(HOST_CTK_CONFIG, unparsed), t.unparsed);
	if ((*out = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
fail:
	json_decref(t.values);
	json_decref(t.unparsed);
	return r;
}

/* One spec file's facts, from a bounded read (no YAML parse). */
static json_t *
spec_facts(const struct fa_sysroot *root, const char *dir, const char *name)
{
	char *p = fa_strfmt("%s/%s", dir, name), *buf = NULL, *s;
	size_t len;
	int nv = 0, compat = 0, r;
	json_t *j;

	if (p == NULL)
		return NULL;
	r = fa_sysroot_read(root, p, 4u << 20, &buf, &len);
	free(p);
	if (r == 0) {
		nv = memmem(buf, len, "nvidia.com/", 11) != NULL;
		compat = memmem(buf, len, "enable-cuda-compat", 18) != NULL;
	}
	free(buf);
	if ((s = fa_str_sanitize(name, strlen(name))) == NULL)
		return NULL;
	j = r == 0 ? json_pack("{s:s, s:b, s:b}", "name", s, "nvidia", nv,
	    "cuda_compat_hook", compat) : json_pack("{s:s, s:s}", "name", s,
	    "unread", fa_sysroot_strerror(r));
	free(s);
	return j;
}

static int
collect_cdi(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	struct fa_obs_build b;
	json_t *dirs = json_array(), *d, *specs, *data;
	char **names = NULL;
	size_t n, i, k;
	int r = 0, rr;

	for (i = 0; dirs != NULL && r == 0 && cdi_dirs[i] != NULL; i++) {
		rr = fa_sysroot_list(root, cdi_dirs[i], 1024, &names, &n);
		if (rr == FA_ERR_NOMEM) {
			r = rr;
			break;
		}
		specs = json_array();
		d = rr != 0 ? json_pack("{s:s, s:b, s:b, s:s}", "path",
		    cdi_dirs[i], "listed", 0, "missing", rr == FA_ERR_NOTFOUND,
		    "reason", fa_sysroot_strerror(rr)) : json_pack(
		    "{s:s, s:b, s:O}", "path", cdi_dirs[i], "listed", 1,
		    "specs", specs);
		for (k = 0; rr == 0 && specs != NULL && k < n; k++) {
			size_t l = strlen(names[k]);

			if ((l > 5 && strcmp(names[k] + l - 5, ".json") == 0) ||
			    (l > 5 && strcmp(names[k] + l - 5, ".yaml") == 0) ||
			    (l > 4 && strcmp(names[k] + l - 4, ".yml") == 0))
				if (json_array_append_new(specs, spec_facts(
				    root, cdi_dirs[i], names[k])) != 0)
					r = FA_ERR_NOMEM;
		}
		fa_sysroot_names_free(names);
		names = NULL;
		json_decref(specs);
		if (specs == NULL || d == NULL ||
		    json_array_append_new(dirs, d) != 0)
			r = FA_ERR_NOMEM;
	}
	if (dirs == NULL || r != 0) {
		json_decref(dirs);
		return FA_ERR_NOMEM;
	}
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(HOST_CDI, dirs), dirs);
	if ((data = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_CDI,
	    "cdi", "list", FA_OBS_COMPLETE, NULL, data, NULL);
}

/*
 * What "auto" depends on besides the config and the version (host_ctk.h,
 * host.ctk.probe).  The Tegra tells are go-nvlib's (NVIDIA/go-nvlib
 * pkg/nvlib/info/property-extractor.go HasTegraFiles, vendored by the
 * toolkit): /etc/nv_tegra_release that is not a directory, or a
 * /sys/devices/soc0/family starting with "tegra" in any case.  The hook:
 * Docker finds nvidia-container-runtime-hook on its PATH for --gpus, so the
 * directories of the systemd default PATH, and the GPU Operator's toolkit
 * directory.
 */
static const struct {
	const char	*path;
	const char	*role;
} probes[] = {
	{ "/etc/nv_tegra_release", "tegra-release" },
	{ "/sys/devices/soc0/family", "soc-family" },
	{ "/usr/local/sbin/nvidia-container-runtime-hook", "hook" },
	{ "/usr/local/bin/nvidia-container-runtime-hook", "hook" },
	{ "/usr/sbin/nvidia-container-runtime-hook", "hook" },
	{ "/usr/bin/nvidia-container-runtime-hook", "hook" },
	{ "/sbin/nvidia-container-runtime-hook", "hook" },
	{ "/bin/nvidia-container-runtime-hook", "hook" },
	{ "/usr/local/nvidia/toolkit/nvidia-container-runtime-hook", "hook" },
};

/* One probe: {path, role, exists} with text for soc-family, or reason. */
static json_t *
probe(const struct fa_sysroot *root, const char *path, const char *role)
{
	struct stat st;
	char *buf = NULL, *text = NULL;
	size_t len;
	json_t *j;
	int r, exists;

	if (strcmp(role, "soc-family") == 0) {
		r = fa_sysroot_read(root, path, 256, &buf, &len);
		if (r == FA_ERR_NOMEM)
			return NULL;
		if (r == 0) {
			len = strcspn(buf, "\n");
			text = fa_str_sanitize(buf, len);
			free(buf);
			if (text == NULL)
				return NULL;
			j = json_pack("{s:s, s:s, s:b, s:s}", "path", path,
			    "role", role, "exists", 1, "text", text);
			free(text);
			return j;
		}
	} else {
		r = fa_sysroot_stat(root, path, 1, &st);
		if (r == FA_ERR_NOMEM)
			return NULL;
		if (r == 0) {
			/* go-nvlib: a release file that is not a directory;
			 * the hook: a regular file (an engine executes it). */
			exists = strcmp(role, "hook") == 0 ? S_ISREG(st.st_mode)
			    : !S_ISDIR(st.st_mode);
			return json_pack("{s:s, s:s, s:b}", "path", path,
			    "role", role, "exists", exists);
		}
	}
	if (r == FA_ERR_NOTFOUND)
		return json_pack("{s:s, s:s, s:b}", "path", path, "role", role,
		    "exists", 0);
	return json_pack("{s:s, s:s, s:s}", "path", path, "role", role,
	    "reason", fa_sysroot_strerror(r));
}

static int
collect_probes(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	struct fa_obs_build b;
	json_t *a = json_array(), *d;
	size_t i;

	for (i = 0; a != NULL && i < sizeof(probes) / sizeof(probes[0]); i++)
		if (json_array_append_new(a, probe(root, probes[i].path,
		    probes[i].role)) != 0) {
			json_decref(a);
			return FA_ERR_NOMEM;
		}
	if (a == NULL)
		return FA_ERR_NOMEM;
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(HOST_CTK_PROBE, probes), a);
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_CTK_PROBE,
	    "toolkit", "stat", FA_OBS_COMPLETE, NULL, d, NULL);
}

int
fa_host_collect_ctk(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	size_t i;
	int r;

	for (i = 0; config_paths[i] != NULL; i++)
		if ((r = fa_host_read_decode(root, snap,
		    FA_KIND_HOST_CTK_CONFIG, config_paths[i], FA_CTK_CONFIG_MAX,
		    fa_ctk_config_decode)) != 0)
			return r;
	if ((r = collect_cdi(root, snap)) != 0)
		return r;
	return collect_probes(root, snap);
}
