/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the audited process can reach on the host's file systems (see
 * host_checks.h): which mount holds a path, and whether a file on it is
 * writable by that process.
 *
 * Writability follows the kernel's generic_permission() (fs/namei.c):
 * acl_permission_check() takes the owner's mode bits when the process's
 * fsuid is the file's owner, else the group's when the file's group is one
 * of the process's, else the others'; when that denies, CAP_DAC_OVERRIDE
 * grants a read or write only through capable_wrt_inode_uidgid()
 * (kernel/capability.c), which asks for the capability in the process's
 * own user namespace *and* for the file's owner uid and gid both to be
 * mapped into that namespace (privileged_wrt_inode_uidgid()).  Seen from
 * inside the namespace, an id that is not mapped reads as the overflow id,
 * /proc/sys/kernel/overflowuid and overflowgid, 65534 unless changed
 * (user_namespaces(7), "Unmapped user and group IDs";
 * include/linux/highuid.h DEFAULT_OVERFLOWUID).  So root of a rootless
 * container (uid_map "0 1000 1") holds CAP_DAC_OVERRIDE yet cannot write
 * the host's root:docker 0660 socket, which it sees as 65534:65534.
 *
 * Not modelled: POSIX ACLs and LSMs (they can only deny more here, except
 * an ACL granting a named user or group), the fsuid/fsgid when they differ
 * from the effective ids, and /proc/sys files, whose permission
 * (proc_sys_permission) looks at the mode alone: their owner is global
 * root, which reads as the overflow id in any other user namespace.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

size_t
fa_host_mounts_unexamined(const struct fa_snapshot *s)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	long long a = 0, b = 0;

	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return 0;
	(void)fa_obs_int(o, FA_F(HOST_MOUNTS, lines_skipped), 0, LLONG_MAX, &a);
	(void)fa_obs_int(o, FA_F(HOST_MOUNTS, lines_not_examined), 0, LLONG_MAX,
	    &b);
	return (size_t)a + (size_t)b;
}

const json_t *
fa_host_mount_for(const struct fa_snapshot *s, const char *path)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	const json_t *best = NULL, *m;
	const char *mp;
	size_t i, n, bestn = 0;

	if (o == NULL || o->state != FA_OBS_COMPLETE || path == NULL)
		return NULL;
	json_array_foreach(fa_obs_arr(o, FA_F(HOST_MOUNTS, mounts)), i, m) {
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

/* The kind and the files of fabric/host_proc.h (FA_KIND_HOST_SYSCTL...). */
#define OVERFLOWUID	"/proc/sys/kernel/overflowuid"
#define OVERFLOWGID	"/proc/sys/kernel/overflowgid"
#define DEFAULT_OVERFLOW 65534	/* include/linux/highuid.h */

int
fa_host_sysctl(const struct fa_snapshot *s, const char *path, long long min,
    long long max, const struct fa_obs **o, long long *v)
{
	const struct fa_obs *ob = fa_snapshot_find(s, FA_KIND_HOST_SYSCTL,
	    path);

	if (o != NULL)
		*o = ob;
	if (ob == NULL || ob->state != FA_OBS_COMPLETE)
		return FA_ERR_NOTFOUND;
	return fa_obs_int(ob, FA_F(HOST_SYSCTL, value), min, max, v) == 0 ? 0 :
	    FA_ERR_INPUT;
}

/* The process's user namespace, as far as the snapshot tells it. */
struct userns {
	int		 known;		/* uid_map, or the ns link, read */
	int		 whole;		/* every id is mapped (initial ns) */
	int		 ovf_inside;	/* overflowuid is an id of the map */
	long long	 ovf_uid;
	long long	 ovf_gid;
	int		 ovf_assumed;	/* overflowuid/gid not read: 65534 */
	char		 map[48];	/* the uid_map, "0 1000 1; ..." */
};

static void
userns_read(const struct fa_snapshot *s, struct userns *u)
{
	const struct fa_obs *o;
	const json_t *e, *ini;
	long long in, out, cnt, total = 0;
	size_t i, n;

	memset(u, 0, sizeof(*u));
	if (fa_host_sysctl(s, OVERFLOWUID, 0, 65535, NULL, &u->ovf_uid) != 0) {
		u->ovf_uid = DEFAULT_OVERFLOW;
		u->ovf_assumed = 1;
	}
	if (fa_host_sysctl(s, OVERFLOWGID, 0, 65535, NULL, &u->ovf_gid) != 0) {
		u->ovf_gid = DEFAULT_OVERFLOW;
		u->ovf_assumed = 1;
	}
	o = fa_snapshot_find(s, FA_KIND_HOST_USERNS, "/proc/self/uid_map");
	if (o != NULL && o->state == FA_OBS_COMPLETE &&
	    json_array_size(fa_obs_arr(o, FA_F(HOST_USERNS, map))) > 0) {
		u->known = 1;
		json_array_foreach(fa_obs_arr(o, FA_F(HOST_USERNS, map)), i,
		    e) {
			in = json_integer_value(json_array_get(e, 0));
			out = json_integer_value(json_array_get(e, 1));
			cnt = json_integer_value(json_array_get(e, 2));
			if (in < 0 || in > 4294967295ll || out < 0 ||
			    out > 4294967295ll || cnt < 1 ||
			    cnt > 4294967296ll || i >= 340) {
				u->known = 0;	/* not a map the kernel wrote */
				u->map[0] = '\0';
				break;
			}
			/* Ranges never overlap (user_namespaces(7)). */
			total += cnt;
			if (u->ovf_uid >= in && u->ovf_uid - in < cnt)
				u->ovf_inside = 1;
			n = strlen(u->map);
			if (n + 24 < sizeof(u->map))
				snprintf(u->map + n, sizeof(u->map) - n,
				    "%s%lld %lld %lld", i > 0 ? "; " : "", in,
				    out, cnt);
			else if (n + 4 < sizeof(u->map) &&
			    strcmp(u->map + n - 3, "...") != 0)
				snprintf(u->map + n, sizeof(u->map) - n,
				    "...");
		}
		/* 4294967295 ids: all but (uid_t)-1, the initial mapping. */
		u->whole = u->known && total >= 4294967295ll;
		if (u->known)
			return;
		u->ovf_inside = 0;
	}
	/* No map: the initial user namespace still says "all mapped". */
	o = fa_snapshot_find(s, FA_KIND_HOST_NS, "/proc/self/ns");
	ini = o != NULL && o->state == FA_OBS_COMPLETE ? json_object_get(
	    fa_obs_obj(o, FA_F(HOST_NS, user)), "initial") : NULL;
	if (json_is_true(ini)) {
		u->known = u->whole = 1;
		snprintf(u->map, sizeof(u->map), "the initial user namespace");
	}
}

static int
in_groups(const struct fa_host_creds *c, long long gid)
{
	const json_t *g;
	size_t i;

	if (gid == c->egid)
		return 1;
	json_array_foreach(c->groups, i, g)
		if (json_integer_value(g) == gid)
			return 1;
	return 0;
}

/*
 * acl_permission_check() over what is known: owner and group are 1, 0 or
 * -1 (either); the verdict when every possibility agrees, else -1.
 */
static int
dac(int owner, int group, uint64_t bits)
{
	int o, g, v, r = -2;

	for (o = 0; o <= 1; o++)
		for (g = 0; g <= 1; g++) {
			if ((owner >= 0 && o != owner) ||
			    (group >= 0 && g != group))
				continue;
			v = o ? (bits & 0200) != 0 : g ? (bits & 0020) != 0 :
			    (bits & 0002) != 0;
			r = r == -2 || r == v ? v : -1;
		}
	return r;
}

#define WHY(...)	(why != NULL ? snprintf(why, len, __VA_ARGS__) : 0)

/*
 * The permission check, for a write (a read-only mount refuses it) or for
 * a connect(2) to a socket, which a read-only mount does not refuse:
 * fs/namei.c sb_permission() refuses writes on a read-only super block to
 * regular files, directories and links only, and unix_find_bsd()
 * (net/unix/af_unix.c) asks path_permission(MAY_WRITE) and takes no
 * mnt_want_write().  1 permitted, 0 not, -1 cannot tell (why says why).
 */
static int
permission(const struct fa_snapshot *s, const struct fa_host_creds *c,
    const struct fa_obs *o, int connecting, char *why, size_t len)
{
	const char *path = fa_obs_str(o, FA_F(HOST_PATH, path)), *mode;
	const json_t *m;
	struct userns u;
	long long uid, gid;
	uint64_t bits;
	unsigned bit;
	int ro, owner, group, uid_m, gid_m, mapped, cap, d, ovr;

	if (why != NULL && len > 0)
		why[0] = '\0';
	if (fa_host_mounts_unexamined(s) > 0) {
		WHY("%s", "mountinfo lines were skipped: the mount holding it "
		    "is not known");
		return -1;	/* not an error: cannot tell */
	}
	if (path == NULL || c->obs == NULL ||
	    (m = fa_host_mount_for(s, path)) == NULL ||
	    fa_json_get_bool(m, "read_only", &ro) != 0) {
		WHY("%s", path == NULL ? "no path" : c->obs == NULL ?
		    "the process's credentials were not read" :
		    "its mount is not in the mount table");
		return -1;	/* not an error: cannot tell */
	}
	if (ro && !connecting) {
		WHY("its mount (%s) is read-only", fa_json_get_str(m,
		    "mount_point") != NULL ? fa_json_get_str(m,
		    "mount_point") : "?");
		return 0;
	}
	if ((mode = fa_obs_str(o, FA_F(HOST_PATH, mode))) == NULL ||
	    octal_mode(mode, &bits) != 0 ||
	    fa_obs_int(o, FA_F(HOST_PATH, uid), 0, 0xffffffffll, &uid) != 0 ||
	    fa_obs_int(o, FA_F(HOST_PATH, gid), 0, 0xffffffffll, &gid) != 0) {
		WHY("its mode or owner was not recorded");
		return -1;	/* not an error: cannot tell */
	}
	userns_read(s, &u);
	/*
	 * An id that does not read as the overflow id is mapped.  One that
	 * does is unmapped, unless every id is mapped; when the overflow id
	 * is itself in the map, a file of the namespace's own 65534 looks the
	 * same and is taken as unmapped too (the kernel's own files, the
	 * host's sockets and devices are what is judged here).  The gid_map
	 * is not read: the uid_map stands for it.
	 */
	uid_m = uid != u.ovf_uid || u.whole ? 1 : u.known ? 0 : -1;
	gid_m = gid != u.ovf_gid || u.whole ? 1 : u.known ? 0 : -1;
	mapped = uid_m == 0 || gid_m == 0 ? 0 : uid_m == 1 && gid_m == 1 ? 1 :
	    -1;
	/* The owner class: two overflow ids may stand for different ids. */
	owner = !(c->have & FA_CRED_UID) ? -1 : uid_m == 1 ? uid == c->euid :
	    uid == c->euid ? -1 : 0;
	group = !(c->have & FA_CRED_GROUPS) ? -1 : gid_m == 1 ?
	    in_groups(c, gid) : in_groups(c, gid) ? -1 : 0;
	d = dac(owner, group, bits);
	cap = !(c->have & FA_CRED_EFF) ? -1 :
	    fa_cap_from_name("cap_dac_override", &bit) == 0 &&
	    (c->cap_eff >> bit & 1);
	ovr = cap == 0 || mapped == 0 ? 0 : cap == 1 && mapped == 1 ? 1 : -1;
	if (d == 1) {
		WHY("mode %s lets %s write", mode, owner == 1 ? "its owner" :
		    (bits & 0002) ? "everyone" : "its group");
		return 1;
	}
	if (ovr == 1) {
		WHY("CAP_DAC_OVERRIDE overrides mode %s (%s)", mode, u.known &&
		    !u.whole ? "the owner and group are mapped into the "
		    "process's user namespace" : u.known ? "initial user "
		    "namespace: every id is mapped" : "the owner and group do "
		    "not read as the overflow id, so they are mapped");
		return 1;
	}
	if (d == 0 && ovr == 0) {
		if (cap != 0)
			WHY("mode %s does not let this process write, and "
			    "CAP_DAC_OVERRIDE%s does not apply: %s %lld reads "
			    "as the overflow id%s, an id not mapped into its "
			    "user namespace (uid_map %s)%s", mode, cap < 0 ?
			    ", if held," : "", uid_m == 0 ? "owner" : "group",
			    uid_m == 0 ? uid : gid, u.ovf_assumed ? " (65534 "
			    "assumed: overflowuid and overflowgid not read)" :
			    "", u.map, uid_m == 0 && u.ovf_inside ? "; taken "
			    "as unmapped though the map holds that id too" :
			    "");
		else
			WHY("mode %s does not let this process write, and it "
			    "lacks CAP_DAC_OVERRIDE", mode);
		return 0;
	}
	if (d < 0)
		WHY("cannot tell: %s", owner < 0 && !(c->have & FA_CRED_UID) ?
		    "the process's uid is not known" : owner < 0 ?
		    "the owner and the process both read as the overflow id, "
		    "which may stand for different ids" :
		    !(c->have & FA_CRED_GROUPS) ? "the process's groups are "
		    "not known and the group and other bits differ" :
		    "the file's group and one of the process's read as the "
		    "overflow id, which may stand for different ids");
	else
		WHY("cannot tell: mode %s denies, and %s", mode, cap < 0 ?
		    "the effective capabilities are not known" : "the file "
		    "reads as the overflow id but the uid_map was not read, "
		    "so whether CAP_DAC_OVERRIDE applies is not known");
	return -1;	/* not an error: cannot tell */
}

int
fa_host_writable_why(const struct fa_snapshot *s,
    const struct fa_host_creds *c, const struct fa_obs *path, char *why,
    size_t len)
{
	return permission(s, c, path, 0, why, len);
}

int
fa_host_connectable_why(const struct fa_snapshot *s,
    const struct fa_host_creds *c, const struct fa_obs *path, char *why,
    size_t len)
{
	return permission(s, c, path, 1, why, len);
}

int
fa_host_writable(const struct fa_snapshot *s, const struct fa_host_creds *c,
    const struct fa_obs *path)
{
	return fa_host_writable_why(s, c, path, NULL, 0);
}
