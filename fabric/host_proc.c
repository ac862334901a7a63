/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * /proc/self/status decoding and collection (see host_proc.h).  The file is
 * "Name:\tvalue" lines (proc_pid_status(5)); only the fields the host
 * checks use are kept, each parsed strictly.  No library reads /proc
 * through a sysroot (libproc2 opens /proc itself), hence this small parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_obs.h"
#include "host_proc.h"
#include "../core/obs_kinds.h"

static const char *const cap_fields[][2] = {
	{ "CapInh", "cap_inh" }, { "CapPrm", "cap_prm" },
	{ "CapEff", "cap_eff" }, { "CapBnd", "cap_bnd" },
	{ "CapAmb", "cap_amb" },
};

/* Digits only: the kernel prints these in decimal, never "0x". */
static int
decimal(const char *s)
{
	return s[0] != '\0' && s[strspn(s, "0123456789")] == '\0';
}

/*
 * A blank-separated list of decimal ids, such as Uid's "0\t0\t0\t0" or
 * Groups' "4 24 27 ", into o[key]; exactly `want` of them (0: any number,
 * none included, up to 65536).
 */
static int
parse_ids(const char *v, json_t *o, const char *key, size_t want)
{
	json_t *a = json_array();
	char buf[16];
	uint64_t id;
	size_t n;

	if (a == NULL)
		return FA_ERR_NOMEM;
	for (;;) {
		while (*v == '\t' || *v == ' ')
			v++;
		if (*v == '\0')
			break;
		n = strcspn(v, "\t ");
		if (n >= sizeof(buf) || json_array_size(a) >= (want > 0 ?
		    want : 65536))
			goto bad;
		memcpy(buf, v, n);
		buf[n] = '\0';
		v += n;
		if (!decimal(buf) ||
		    fa_parse_u64(buf, 0, 0xffffffffu, &id, NULL) != 0)
			goto bad;
		if (json_array_append_new(a, json_integer((json_int_t)id)) != 0) {
			json_decref(a);
			return FA_ERR_NOMEM;
		}
	}
	if (want > 0 && json_array_size(a) != want)
		goto bad;
	return json_object_set_new(o, key, a) != 0 ? FA_ERR_NOMEM : 0;
bad:
	json_decref(a);
	return FA_ERR_INPUT;
}

static int
parse_small(const char *v, uint64_t max, json_t *o, const char *key)
{
	uint64_t n;

	while (*v == '\t' || *v == ' ')
		v++;
	if (!decimal(v) || fa_parse_u64(v, 0, max, &n, NULL) != 0)
		return FA_ERR_INPUT;
	return json_object_set_new(o, key, json_integer((json_int_t)n)) != 0 ?
	    FA_ERR_NOMEM : 0;
}

/* One "Name:\tvalue" line; unknown names are skipped. */
static int
decode_line(char *line, unsigned ln, void *arg, char **why)
{
	json_t *o = arg;
	const char *errstr;
	char *colon, *v;
	uint64_t mask;
	size_t i;
	int r;

	if ((colon = strchr(line, ':')) == NULL)
		return fa_why(why, "line %u: no ':'", ln);
	*colon = '\0';
	v = colon + 1;
	for (i = 0; i < sizeof(cap_fields) / sizeof(cap_fields[0]); i++) {
		if (strcmp(line, cap_fields[i][0]) != 0)
			continue;
		if (json_object_get(o, cap_fields[i][1]) != NULL)
			return fa_why(why, "line %u: %s twice", ln, line);
		if (fa_caps_parse(v, &mask, &errstr) != 0)
			return fa_why(why, "line %u: %s: %s", ln, line,
			    errstr);
		return fa_json_set_u64(o, cap_fields[i][1], mask);
	}
	if (strcmp(line, "Uid") == 0 || strcmp(line, "Gid") == 0 ||
	    strcmp(line, "Groups") == 0 || strcmp(line, "NoNewPrivs") == 0 ||
	    strcmp(line, "Seccomp") == 0 ||
	    strcmp(line, "Seccomp_filters") == 0) {
		const char *key = strcmp(line, "Uid") == 0 ? "uid" :
		    strcmp(line, "Gid") == 0 ? "gid" :
		    strcmp(line, "Groups") == 0 ? "groups" :
		    strcmp(line, "NoNewPrivs") == 0 ? "no_new_privs" :
		    strcmp(line, "Seccomp") == 0 ? "seccomp" :
		    "seccomp_filters";

		if (json_object_get(o, key) != NULL)
			return fa_why(why, "line %u: %s twice", ln, line);
		if (strcmp(key, "uid") == 0 || strcmp(key, "gid") == 0 ||
		    strcmp(key, "groups") == 0)
			r = parse_ids(v, o, key, strcmp(key, "groups") == 0 ?
			    0 : 4);
		else
			r = parse_small(v, strcmp(key, "seccomp") == 0 ? 2 :
			    strcmp(key, "no_new_privs") == 0 ? 1 : 65535, o,
			    key);
		if (r == FA_ERR_INPUT)
			return fa_why(why, "line %u: %s: not a valid value",
			    ln, line);
		return r;
	}
	return 0;
}

int
fa_host_status_decode(const char *text, size_t len, json_t **out, char **why)
{
	json_t *o;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > FA_HOST_STATUS_MAX)
		return fa_why(why, "larger than %u bytes",
		    FA_HOST_STATUS_MAX);
	if ((o = json_object()) == NULL)
		return FA_ERR_NOMEM;
	r = fa_text_each_line(text, len, decode_line, o, why);
	if (r == 0 && (json_object_get(o, "uid") == NULL ||
	    json_object_get(o, "cap_eff") == NULL))
		r = fa_why(why, "no Uid or CapEff line");
	if (r != 0) {
		json_decref(o);
		return r;
	}
	*out = o;
	return 0;
}

int
fa_host_sysctl_decode(const char *text, size_t len, json_t **out, char **why)
{
	char buf[16];
	uint64_t v;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (len == 0)
		return fa_why(why, "empty");
	if (len >= sizeof(buf) || memchr(text, '\0', len) != NULL)
		return fa_why(why, "not one integer");
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (!decimal(buf) || fa_parse_u64(buf, 0, 0xffffffffu, &v, NULL) != 0)
		return fa_why(why, "not one integer");
	if ((*out = json_pack("{s:I}", "value", (json_int_t)v)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_host_collect_proc(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char *const sysctls[] = { FA_SYSCTL_CAP_LAST_CAP,
	    FA_SYSCTL_OVERFLOWUID, FA_SYSCTL_OVERFLOWGID };
	size_t i;
	int r;

	r = fa_host_read_decode(root, snap, FA_KIND_HOST_STATUS,
	    "/proc/self/status", FA_HOST_STATUS_MAX, fa_host_status_decode,
	    NULL);
	for (i = 0; r == 0 && i < sizeof(sysctls) / sizeof(sysctls[0]); i++)
		r = fa_host_read_decode(root, snap, FA_KIND_HOST_SYSCTL,
		    sysctls[i], FA_HOST_SYSCTL_MAX, fa_host_sysctl_decode,
		    NULL);
	return r;
}
