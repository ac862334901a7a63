/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the host files the host family reads, each through
 * the decoder its collector calls on the file's bytes (NUL-terminated, as
 * fa_sysroot_read returns them).
 *
 * Input: a selector byte (modulo 11), then the file's text:
 *   0  /proc/self/status        fabric/host_proc.c fa_host_status_decode
 *                               (and core/caps.c on its capability sets)
 *   1  /proc/self/mountinfo     fabric/host_mounts.c fa_mountinfo_decode
 *   2  /proc/self/uid_map       fabric/host_ident.c fa_uid_map_decode
 *   3  /var/lib/dpkg/status     fabric/host_dpkg.c fa_dpkg_each_installed,
 *                               fa_dpkg_upstream of each version
 *   4  the NVIDIA container toolkit's config.toml
 *                               fabric/host_ctk.c fa_ctk_config_decode
 *   5  /proc/driver/nvidia/version, /proc/version, osrelease
 *                               fabric/host_versions.c
 *                               fa_host_nvrm_version,
 *                               fa_host_debian_kernel, and the
 *                               kernel-scheme check of core/version.c
 *   6  a Cap* value and a capability name
 *                               core/caps.c fa_caps_parse, fa_caps_names,
 *                               fa_cap_from_name
 *   7  /proc/cpuinfo, a /proc/self/ns link
 *                               fabric/host_ident.c fa_cpuinfo_hypervisor,
 *                               fabric/host_ns.c fa_ns_link_parse
 *   8  a Debian version         fabric/host_dpkg.c fa_dpkg_upstream
 *   9  /proc/net/unix           fabric/host_unix.c fa_net_unix_decode
 *  10  /proc/sys/kernel/cap_last_cap, overflowuid
 *                               fabric/host_proc.c fa_host_sysctl_decode
 * A decoded file must serialise; what the decoders accept must be what
 * their contracts say (see the aborts).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/version.h"
#include "../fabric/host_ctk.h"
#include "../fabric/host_dpkg.h"
#include "../fabric/host_ident.h"
#include "../fabric/host_mounts.h"
#include "../fabric/host_ns.h"
#include "../fabric/host_proc.h"
#include "../fabric/host_unix.h"
#include "../fabric/host_versions.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*decoder)(const char *, size_t, json_t **, char **);

static void
decode(decoder fn, const char *text, size_t len)
{
	json_t *out = NULL;
	char *why = NULL, *s;
	int r;

	r = fn(text, len, &out, &why);
	if (r == 0) {
		if (out == NULL || why != NULL)
			abort();
		if ((s = json_dumps(out, JSON_COMPACT)) == NULL)
			abort();
		free(s);
	} else if (r == FA_ERR_INPUT) {
		if (out != NULL || why == NULL)
			abort();	/* the reason goes into the report */
	} else if (r == FA_ERR_TOOBIG) {
		if (out != NULL)
			abort();
	} else if (r != FA_ERR_NOMEM)
		abort();
	json_decref(out);
	free(why);
}

/* Every capability set fa_host_status_decode kept is a valid mask. */
static void
status(const char *text, size_t len)
{
	static const char *const sets[] = { "cap_inh", "cap_prm", "cap_eff",
	    "cap_bnd", "cap_amb" };
	json_t *out = NULL;
	char *why = NULL;
	uint64_t mask;
	size_t i;

	decode(fa_host_status_decode, text, len);
	if (fa_host_status_decode(text, len, &out, &why) != 0) {
		free(why);
		return;
	}
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (json_object_get(out, sets[i]) == NULL)
			continue;
		if (fa_json_get_u64(out, sets[i], &mask) != 0)
			abort();
		free(fa_caps_names(mask));
	}
	json_decref(out);
}

static int
installed(void *arg, const char *package, const char *version)
{
	char up[FA_VERSION_MAX + 1];

	(void)arg;
	if (package == NULL || package[0] == '\0' ||
	    fa_version_valid(FA_VER_DEBIAN, version, NULL) != 0)
		abort();	/* "both validated" */
	if (fa_dpkg_upstream(version, up, sizeof(up)) == 0 &&
	    fa_version_valid(FA_VER_UPSTREAM, up, NULL) != 0)
		abort();
	return 0;
}

static void
dpkg(const char *text, size_t len)
{
	char *why = NULL;
	size_t skipped = 0;
	int r;

	r = fa_dpkg_each_installed(text, len, installed, NULL, &skipped, &why);
	if (r == FA_ERR_INPUT && why == NULL)
		abort();
	if (r != 0 && r != FA_ERR_INPUT && r != FA_ERR_NOMEM)
		abort();
	free(why);
}

static void
versions(const char *text)
{
	char v[FA_VERSION_MAX + 1], first[FA_VERSION_MAX + 2];
	size_t n;

	if (fa_host_nvrm_version(text, v, 32) == 0 &&
	    fa_version_valid(FA_VER_UPSTREAM, v, NULL) != 0)
		abort();
	if (fa_host_debian_kernel(text, v, sizeof(v)) == 0 &&
	    fa_version_valid(FA_VER_DEBIAN, v, NULL) != 0)
		abort();
	/* osrelease: its first line (host_versions.c first_line). */
	n = strcspn(text, "\n");
	if (n < sizeof(first)) {
		memcpy(first, text, n);
		first[n] = '\0';
		while (n > 0 && (first[n - 1] == ' ' || first[n - 1] == '\t' ||
		    first[n - 1] == '\r'))
			first[--n] = '\0';
		(void)fa_version_valid(FA_VER_KERNEL, first, NULL);
	}
}

static void
caps(const char *text)
{
	const char *err;
	uint64_t mask;
	unsigned bit;
	char *names;

	if (fa_caps_parse(text, &mask, &err) == 0) {
		if ((names = fa_caps_names(mask)) == NULL)
			abort();
		free(names);
	}
	if (fa_cap_from_name(text, &bit) == 0 && bit >= 64)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, up[FA_VERSION_MAX + 1];
	uint64_t ino;
	size_t len;

	if (size < 1)
		return 0;
	len = size - 1;
	if ((text = malloc(len + 1)) == NULL)
		abort();
	memcpy(text, data + 1, len);
	text[len] = '\0';
	switch (data[0] % 11) {
	case 0:
		status(text, len);
		break;
	case 1:
		decode(fa_mountinfo_decode, text, len);
		break;
	case 2:
		decode(fa_uid_map_decode, text, len);
		break;
	case 3:
		dpkg(text, len);
		break;
	case 4:
		decode(fa_ctk_config_decode, text, len);
		break;
	case 5:
		versions(text);
		break;
	case 6:
		caps(text);
		break;
	case 7:
		(void)fa_cpuinfo_hypervisor(text, len);
		(void)fa_ns_link_parse(text, "pid", &ino);
		break;
	case 8:
		if (fa_dpkg_upstream(text, up, sizeof(up)) == 0 &&
		    fa_version_valid(FA_VER_UPSTREAM, up, NULL) != 0)
			abort();
		break;
	case 9:
		decode(fa_net_unix_decode, text, len);
		break;
	case 10:
		decode(fa_host_sysctl_decode, text, len);
		break;
	}
	free(text);
	return 0;
}
