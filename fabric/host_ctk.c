/*
 * NVIDIA Container Toolkit config.toml and CDI specs (see host_ctk.h).
 * The subset read: TOML v1.0 comments, [table] and [a.b] headers, bare
 * keys, and one-line values (basic and literal strings, booleans, decimal
 * integers, arrays of strings).  Paths: the toolkit's own default
 * (/etc/nvidia-container-runtime/config.toml) and the GPU Operator's
 * (/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
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
	int r;

	*out = NULL;
	if (t.values == NULL || t.unparsed == NULL) {
		r = FA_ERR_NOMEM;
		goto fail;
	}
	if ((r = fa_text_each_line(text, len, toml_line, &t, why)) != 0)
		goto fail;
	if ((*out = json_pack("{s:o, s:o}", "values", t.values, "unparsed",
	    t.unparsed)) == NULL)
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
	json_t *dirs = json_array(), *d, *specs;
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
		d = rr != 0 ? json_pack("{s:s, s:b, s:s}", "path", cdi_dirs[i],
		    "listed", 0, "reason", fa_sysroot_strerror(rr)) : json_pack(
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
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_CDI,
	    "cdi", "list", FA_OBS_COMPLETE, NULL, json_pack("{s:o}", "dirs",
	    dirs), NULL);
}

int
fa_host_collect_ctk(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	size_t i;
	int r;

	for (i = 0; config_paths[i] != NULL; i++)
		if ((r = fa_host_read_decode(root, snap,
		    FA_KIND_HOST_CTK_CONFIG, config_paths[i], FA_CTK_CONFIG_MAX,
		    fa_ctk_config_decode, NULL)) != 0)
			return r;
	return collect_cdi(root, snap);
}
