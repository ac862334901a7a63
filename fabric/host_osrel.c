/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * /etc/os-release as data (see host_osrel.h).  The file is untrusted: a
 * value that is not a plain lower-case name is not used, and a line that
 * is not KEY=VALUE makes the whole file unusable rather than half-read.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_osrel.h"

#define OSREL_MAX	16384

/*
 * Unquote v (n bytes) into out (size len); 0, FA_ERR_INPUT if malformed,
 * or FA_ERR_TOOBIG if it does not fit.
 */
static int
unquote(const char *v, size_t n, char *out, size_t len)
{
	size_t i = 0, o = 0;
	char q = 0;

	if (n > 0 && (v[0] == '"' || v[0] == '\'')) {
		q = v[0];
		if (n < 2 || v[n - 1] != q)
			return FA_ERR_INPUT;
		i = 1;
		n--;
	}
	for (; i < n; i++) {
		if (q == '"' && v[i] == '\\' && i + 1 < n &&
		    strchr("\"\\$`", v[i + 1]) != NULL)
			i++;
		else if (q == 0 && strchr("\"'\\$` \t", v[i]) != NULL)
			return FA_ERR_INPUT;
		else if (q == '"' && strchr("\"$`", v[i]) != NULL)
			return FA_ERR_INPUT;
		if (o + 1 >= len)
			return FA_ERR_TOOBIG;
		out[o++] = v[i];
	}
	out[o] = '\0';
	return 0;
}

/* A lower-case name, spaces allowed when `spaces`. */
static int
name_ok(const char *s, int spaces)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!(islower((unsigned char)s[i]) ||
		    isdigit((unsigned char)s[i]) ||
		    strchr("._-", s[i]) != NULL || (spaces && s[i] == ' ')))
			return 0;
	return i > 0;
}

static void
keep(char *dst, size_t size, const char *v, int spaces, size_t *bad)
{
	if (strlen(v) < size && name_ok(v, spaces))
		memcpy(dst, v, strlen(v) + 1);
	else
		(*bad)++;
}

int
fa_osrel_parse(const char *text, size_t len, struct fa_osrel *out,
    size_t *bad, size_t *bad_line)
{
	const char *p = text, *end = text + len, *nl, *eq;
	char key[32], val[256];
	size_t line = 0, n, k;

	memset(out, 0, sizeof(*out));
	*bad = 0;
	*bad_line = 0;
	while (p < end) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' ||
		    p[n - 1] == '\t'))
			n--;
		k = 0;
		while (k < n && (p[k] == ' ' || p[k] == '\t'))
			k++;
		if (k < n && p[k] != '#') {
			eq = memchr(p + k, '=', n - k);
			if (eq == NULL || (size_t)(eq - p - k) == 0 ||
			    (size_t)(eq - p - k) >= sizeof(key) ||
			    unquote(eq + 1, (size_t)(p + n - eq - 1), val,
			    sizeof(val)) != 0) {
				*bad_line = line;
				return FA_ERR_INPUT;
			}
			memcpy(key, p + k, (size_t)(eq - p - k));
			key[eq - p - k] = '\0';
			if (strcmp(key, "ID") == 0)
				keep(out->id, sizeof(out->id), val, 0, bad);
			else if (strcmp(key, "VERSION_ID") == 0)
				keep(out->version_id, sizeof(out->version_id),
				    val, 0, bad);
			else if (strcmp(key, "VERSION_CODENAME") == 0)
				keep(out->codename, sizeof(out->codename), val,
				    0, bad);
			else if (strcmp(key, "ID_LIKE") == 0)
				keep(out->id_like, sizeof(out->id_like), val,
				    1, bad);
		}
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}

int
fa_host_collect_osrel(const struct fa_sysroot *root,
    struct fa_snapshot *snap)
{
	static const char *const paths[] = {
		"/etc/os-release", "/usr/lib/os-release",
	};
	struct fa_osrel o;
	char *text = NULL, *why;
	size_t i, len = 0, bad, bad_line;
	struct fa_obs_build b;
	json_t *d;
	int r = FA_ERR_NOTFOUND;

	for (i = 0; i < 2; i++)
		if ((r = fa_sysroot_read(root, paths[i], OSREL_MAX, &text,
		    &len)) != FA_ERR_NOTFOUND)
			break;
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0) {
		why = fa_strfmt("/etc/os-release, /usr/lib/os-release: %s",
		    fa_sysroot_strerror(r));
		r = why == NULL ? FA_ERR_NOMEM : fa_snapshot_add(snap,
		    FA_FAM_HOST, NULL, FA_KIND_HOST_OS, "os-release", "read "
		    "/etc/os-release", r == FA_ERR_NOTFOUND ?
		    FA_OBS_NOT_COLLECTED : FA_OBS_ERROR, why, NULL, NULL);
		free(why);
		return r;
	}
	if (fa_osrel_parse(text, len, &o, &bad, &bad_line) != 0) {
		free(text);
		why = fa_strfmt("%s line %zu: not KEY=VALUE as os-release(5) "
		    "writes it", paths[i], bad_line);
		r = why == NULL ? FA_ERR_NOMEM : fa_snapshot_add(snap,
		    FA_FAM_HOST, NULL, FA_KIND_HOST_OS, "os-release", "read "
		    "/etc/os-release", FA_OBS_ERROR, why, NULL, NULL);
		free(why);
		return r;
	}
	free(text);
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_OS, id), o.id);
	fa_put_str(&b, FA_F(HOST_OS, version_id), o.version_id);
	fa_put_str(&b, FA_F(HOST_OS, codename), o.codename);
	fa_put_str(&b, FA_F(HOST_OS, id_like), o.id_like);
	fa_put_str(&b, FA_F(HOST_OS, source), paths[i]);
	fa_put_int(&b, FA_F(HOST_OS, values_refused), (long long)bad);
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_OS,
	    "os-release", "read /etc/os-release", FA_OBS_COMPLETE, NULL, d,
	    NULL);
}
