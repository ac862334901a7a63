/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kernel and NVIDIA driver versions from files (see host_versions.h).  The
 * values are untrusted: each is validated with the catalogue's version
 * rules before it is recorded, and anything else is a reason, not data.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "../core/version.h"
#include "host_versions.h"

#define SMALL_FILE	4096

/* N.N or N.N.N, digits only, at most 31 bytes. */
static int
driver_token(const char *s, size_t n)
{
	size_t i, dots = 0;

	if (n == 0 || n > 31 || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[n - 1]))
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (s[i + 1] == '.')
				return 0;
			dots++;
		} else if (!isdigit((unsigned char)s[i])) {
			return 0;
		}
	}
	return dots == 1 || dots == 2;
}

int
fa_host_nvrm_version(const char *text, char *out, size_t len)
{
	const char *p = text, *end = text + strcspn(text, "\n");
	size_t n;

	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		n = strcspn(p, " \t\n");
		if (driver_token(p, n) && n < len) {
			memcpy(out, p, n);
			out[n] = '\0';
			return 0;
		}
		p += n;
	}
	return FA_ERR_NOTFOUND;
}

int
fa_host_debian_kernel(const char *text, char *out, size_t len)
{
	const char *p = NULL, *q = text;
	size_t n;

	/* The last one: "(GNU Binutils for Debian)" and the compiler's
	 * version may come before the kernel's. */
	while ((q = strstr(q, " Debian ")) != NULL)
		p = q++;
	if (p == NULL)
		return FA_ERR_NOTFOUND;
	p += strlen(" Debian ");
	n = strcspn(p, " \t\n");
	if (n == 0 || n >= len)
		return FA_ERR_NOTFOUND;
	memcpy(out, p, n);
	out[n] = '\0';
	return fa_version_valid(FA_VER_DEBIAN, out, NULL) == 0 ? 0 :
	    FA_ERR_NOTFOUND;
}

/* The first line of a small file, trailing blanks removed. */
static int
first_line(const struct fa_sysroot *root, const char *path, char **line)
{
	size_t len;
	int r;

	if ((r = fa_sysroot_read(root, path, SMALL_FILE, line, &len)) != 0)
		return r;
	(*line)[strcspn(*line, "\n")] = '\0';
	len = strlen(*line);
	while (len > 0 && isspace((unsigned char)(*line)[len - 1]))
		(*line)[--len] = '\0';
	return 0;
}

/* An observation of component that holds no version: state and why. */
static int
add(struct fa_snapshot *snap, const char *component, const char *source,
    enum fa_obs_state st, const char *reason)
{
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_VERSION,
	    component, source, st, reason, NULL, NULL);
}

/* The version of component, read from source (d from a builder). */
static int
add_version(struct fa_snapshot *snap, const char *component,
    const char *source, struct fa_obs_build *b)
{
	json_t *d;

	if ((d = fa_obs_built(b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_VERSION,
	    component, source, FA_OBS_COMPLETE, NULL, d, NULL);
}

/* A record of version and where it came from, begun in b. */
static void
version_data(struct fa_obs_build *b, const char *component,
    const char *version, const char *source)
{
	fa_obs_build(b);
	fa_put_str(b, FA_F(HOST_VERSION, component), component);
	fa_put_str(b, FA_F(HOST_VERSION, version), version);
	fa_put_str(b, FA_F(HOST_VERSION, source), source);
}

/* Say why a value was not usable: the file's bytes, sanitised. */
static int
add_bad(struct fa_snapshot *snap, const char *component, const char *path,
    const char *value)
{
	char *clean = fa_str_sanitize(value, 80), *reason;
	int r;

	reason = clean == NULL ? NULL :
	    fa_strfmt("%s: \"%s\" is not a version", path, clean);
	free(clean);
	if (reason == NULL)
		return FA_ERR_NOMEM;
	r = add(snap, component, path, FA_OBS_ERROR, reason);
	free(reason);
	return r;
}

static int
collect_kernel(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char rel[] = "/proc/sys/kernel/osrelease";
	static const char ver[] = "/proc/version";
	char deb[FA_VERSION_MAX + 1], *line = NULL, *full = NULL, *reason;
	struct fa_obs_build b;
	int r;

	r = first_line(root, rel, &line);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0) {
		if ((reason = fa_strfmt("%s: %s", rel,
		    fa_sysroot_strerror(r))) == NULL)
			return FA_ERR_NOMEM;
		r = add(snap, "kernel", rel, r == FA_ERR_NOTFOUND ?
		    FA_OBS_NOT_COLLECTED : FA_OBS_ERROR, reason);
		free(reason);
		return r;
	}
	if (fa_version_valid(FA_VER_KERNEL, line, NULL) != 0) {
		r = add_bad(snap, "kernel", rel, line);
		free(line);
		return r;
	}
	version_data(&b, "kernel", line, rel);
	free(line);
	/* The distribution's package version, when /proc/version has one. */
	r = first_line(root, ver, &full);
	if (r == FA_ERR_NOMEM) {
		json_decref(fa_obs_built(&b));
		return r;
	}
	if (r == 0 && fa_host_debian_kernel(full, deb, sizeof(deb)) == 0)
		fa_put_obj(&b, FA_F(HOST_VERSION, debian_package), json_pack(
		    "{s:s, s:s}", "version", deb, "source", ver));
	free(full);
	return add_version(snap, "kernel", rel, &b);
}

static int
collect_driver(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char sysmod[] = "/sys/module/nvidia/version";
	static const char nvrm[] = "/proc/driver/nvidia/version";
	char v[32], *line = NULL;
	struct fa_obs_build b;
	int r;

	r = first_line(root, sysmod, &line);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == 0) {
		if (!driver_token(line, strlen(line))) {
			r = add_bad(snap, "nvidia-driver", sysmod, line);
			free(line);
			return r;
		}
		version_data(&b, "nvidia-driver", line, sysmod);
		free(line);
		return add_version(snap, "nvidia-driver", sysmod, &b);
	}
	r = first_line(root, nvrm, &line);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == FA_ERR_NOTFOUND)
		return add(snap, "nvidia-driver", nvrm, FA_OBS_NOT_COLLECTED,
		    "no NVIDIA kernel module loaded (neither "
		    "/sys/module/nvidia/version nor "
		    "/proc/driver/nvidia/version exists)");
	if (r == 0 && fa_host_nvrm_version(line, v, sizeof(v)) != 0) {
		r = add_bad(snap, "nvidia-driver", nvrm, line);
		free(line);
		return r;
	}
	if (r != 0) {
		char *reason = fa_strfmt("%s: %s", nvrm,
		    fa_sysroot_strerror(r));

		if (reason == NULL)
			return FA_ERR_NOMEM;
		r = add(snap, "nvidia-driver", nvrm, FA_OBS_ERROR, reason);
		free(reason);
		return r;
	}
	free(line);
	version_data(&b, "nvidia-driver", v, nvrm);
	return add_version(snap, "nvidia-driver", nvrm, &b);
}

int
fa_host_collect_versions(const struct fa_sysroot *root,
    struct fa_snapshot *snap)
{
	int r;

	if ((r = collect_kernel(root, snap)) != 0)
		return r;
	return collect_driver(root, snap);
}
