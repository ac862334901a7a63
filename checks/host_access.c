/*
 * What the audited process can reach on the host's file systems (see
 * host_checks.h): which mount holds a path, and whether a file on it is
 * writable by that process.
 */
#include <stdint.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"

const json_t *
fa_host_mount_for(const struct fa_snapshot *s, const char *path)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	const json_t *best = NULL, *m;
	const char *mp;
	size_t i, n, bestn = 0;

	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return NULL;
	json_array_foreach(json_object_get(o->data, "mounts"), i, m) {
		if ((mp = fa_json_get_str(m, "mount_point")) == NULL)
			continue;
		n = strlen(mp);
		if (strcmp(mp, "/") == 0)
			n = 0;
		else if (strncmp(path, mp, n) != 0 ||
		    (path[n] != '/' && path[n] != '\0'))
			continue;
		/* Later entries stack on earlier ones at the same point. */
		if (best == NULL || n >= bestn) {
			best = m;
			bestn = n;
		}
	}
	return best;
}

/* "0644" as recorded by the collector. */
static int
octal_mode(const char *s, uint64_t *out)
{
	size_t i, n = strlen(s);

	if (n < 1 || n > 5)
		return FA_ERR_INPUT;
	for (*out = 0, i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '7')
			return FA_ERR_INPUT;
		*out = *out * 8 + (uint64_t)(s[i] - '0');
	}
	return 0;
}

int
fa_host_writable(const struct fa_snapshot *s, const struct fa_host_creds *c,
    const json_t *pathdata)
{
	const char *path = fa_json_get_str(pathdata, "path"), *mode;
	const json_t *m;
	long long uid, gid;
	uint64_t bits;
	unsigned dac;
	int ro;

	if (path == NULL || c->obs == NULL ||
	    (m = fa_host_mount_for(s, path)) == NULL ||
	    fa_json_get_bool(m, "read_only", &ro) != 0)
		return -1;
	if (ro)
		return 0;
	if ((mode = fa_json_get_str(pathdata, "mode")) == NULL ||
	    octal_mode(mode, &bits) != 0 ||
	    fa_json_get_int(pathdata, "uid", 0, 0xffffffffll, &uid) != 0 ||
	    fa_json_get_int(pathdata, "gid", 0, 0xffffffffll, &gid) != 0)
		return -1;
	if (!(c->have & FA_CRED_EFF) || !(c->have & FA_CRED_UID))
		return (bits & 0002) ? 1 : -1;
	if (fa_cap_from_name("cap_dac_override", &dac) == 0 &&
	    (c->cap_eff >> dac & 1))
		return 1;
	/* Owner, else group, else other class (the first that matches). */
	if (uid == c->euid)
		return (bits & 0200) != 0;
	if (!(c->have & FA_CRED_GROUPS))	/* our groups unknown */
		return !(bits & 0020) == !(bits & 0002) ? (bits & 0002) != 0 :
		    -1;
	if (gid == c->egid)
		return (bits & 0020) != 0;
	{
		const json_t *g;
		size_t i;

		json_array_foreach(c->groups, i, g)
			if (json_integer_value(g) == gid)
				return (bits & 0020) != 0;
	}
	return (bits & 0002) != 0;
}
