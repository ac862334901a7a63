/* SPDX-License-Identifier: BSD-2-Clause */
/* Namespace identity from /proc/self/ns links (see host_ns.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_ns.h"

/*
 * Fixed inode of each initial namespace and the first kernel release that
 * fixes it (include/linux/proc_ns.h before 6.18, uapi linux/nsfs.h since).
 * The links of ipc, uts, user and pid read "type:[inode]" since 3.8, and
 * the cgroup and time namespaces came with fixed numbers (4.6, 5.6): a
 * link of those types that can be read is numbered by the rule whatever
 * the release.  Only net and mnt depend on it.
 */
static const struct {
	const char	*type;
	uint32_t	 initial;
	unsigned	 major, minor;
	const char	*since;
	const struct fa_fld_OBJ *field;	/* its member of host.namespaces */
} ns_types[] = {
	{ "ipc", 0xEFFFFFFFu, 3, 8, "3.8", FA_F(HOST_NS, ipc) },
	{ "uts", 0xEFFFFFFEu, 3, 8, "3.8", FA_F(HOST_NS, uts) },
	{ "user", 0xEFFFFFFDu, 3, 8, "3.8", FA_F(HOST_NS, user) },
	{ "pid", 0xEFFFFFFCu, 3, 8, "3.8", FA_F(HOST_NS, pid) },
	{ "cgroup", 0xEFFFFFFBu, 4, 6, "4.6", FA_F(HOST_NS, cgroup) },
	{ "time", 0xEFFFFFFAu, 5, 6, "5.6", FA_F(HOST_NS, time) },
	{ "net", 0xEFFFFFF9u, 6, 18, "6.18", FA_F(HOST_NS, net) },
	{ "mnt", 0xEFFFFFF8u, 6, 18, "6.18", FA_F(HOST_NS, mnt) },
};
#define NTYPES	(sizeof(ns_types) / sizeof(ns_types[0]))

int
fa_ns_link_parse(const char *link, const char *type, uint64_t *inode)
{
	size_t n = strlen(type), d;
	char digits[21];

	if (strncmp(link, type, n) != 0 || link[n] != ':' ||
	    link[n + 1] != '[')
		return FA_ERR_INPUT;
	link += n + 2;
	d = strspn(link, "0123456789");
	if (d == 0 || d >= sizeof(digits) || strcmp(link + d, "]") != 0)
		return FA_ERR_INPUT;
	memcpy(digits, link, d);
	digits[d] = '\0';
	return fa_parse_u64(digits, 1, UINT64_MAX, inode, NULL);
}

int
fa_ns_is_initial(const char *type, uint64_t inode, unsigned major,
    unsigned minor, const char **since)
{
	size_t i;

	*since = NULL;
	for (i = 0; i < NTYPES; i++) {
		if (strcmp(type, ns_types[i].type) != 0)
			continue;
		*since = ns_types[i].since;
		/* No dynamic inode can take a fixed number (see host_ns.h). */
		if (inode == ns_types[i].initial)
			return 1;
		if (ns_types[i].major < 6 || major > ns_types[i].major ||
		    (major == ns_types[i].major &&
		    minor >= ns_types[i].minor))
			return 0;
		return -1;	/* not an error: cannot tell */
	}
	return -1;	/* not an error: cannot tell (unknown type) */
}

/* "6.18.44-fc" -> 6, 18; 0 or FA_ERR_INPUT. */
static int
release(const char *s, unsigned *major, unsigned *minor)
{
	char *end;
	unsigned long a, b;

	a = strtoul(s, &end, 10);
	if (end == s || *end != '.' || a > 1000)
		return FA_ERR_INPUT;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || b > 1000)
		return FA_ERR_INPUT;
	*major = (unsigned)a;
	*minor = (unsigned)b;
	return 0;
}

/* The inode of /proc/<who>/ns/<type>: 0, or an FA_ERR_* of the read. */
static int
link_inode(const struct fa_sysroot *root, const char *who, const char *type,
    uint64_t *ino)
{
	char path[64], *link = NULL;
	int r;

	snprintf(path, sizeof(path), "/proc/%s/ns/%s", who, type);
	if ((r = fa_sysroot_readlink(root, path, &link)) != 0)
		return r;
	r = fa_ns_link_parse(link, type, ino);
	free(link);
	return r;
}

static int
one(const struct fa_sysroot *root, size_t t, unsigned major, unsigned minor,
    struct fa_obs_build *b, int *read)
{
	const char *type = ns_types[t].type, *since;
	uint64_t ino, pid1;
	json_t *o;
	int r, init;

	r = link_inode(root, "self", type, &ino);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == FA_ERR_NOTFOUND)
		return 0;	/* older kernel (time, cgroup) or no /proc */
	if (r != 0)
		o = json_pack("{s:s}", "unreadable", r == FA_ERR_INPUT ?
		    "not a namespace link" : fa_sysroot_strerror(r));
	else {
		init = fa_ns_is_initial(type, ino, major, minor, &since);
		o = json_pack("{s:I}", "inode", (json_int_t)ino);
		if (o != NULL && init >= 0 && json_object_set_new(o,
		    "initial", json_boolean(init)) != 0)
			r = FA_ERR_NOMEM;
		if (o != NULL && init < 0 && json_object_set_new(o,
		    "initial_unknown", major == 0 ? json_sprintf("the kernel "
		    "release was not read, and only kernels since %s fix the "
		    "initial %s namespace's inode", since, type) :
		    json_sprintf("kernel %u.%u predates %s, which fixes the "
		    "initial %s namespace's inode", major, minor, since,
		    type)) != 0)
			r = FA_ERR_NOMEM;
		/* PID 1's, when ptrace access rules let us read it. */
		if (o != NULL && r == 0) {
			int r1 = link_inode(root, "1", type, &pid1);

			if (r1 == FA_ERR_NOMEM || (r1 == 0 &&
			    json_object_set_new(o, "pid1",
			    json_integer((json_int_t)pid1)) != 0))
				r = FA_ERR_NOMEM;
		}
		if (r == 0)
			(*read)++;
		else if (o != NULL) {
			json_decref(o);
			return r;
		}
	}
	if (o == NULL)
		return FA_ERR_NOMEM;
	fa_put_obj(b, ns_types[t].field, o);
	return b->failed ? FA_ERR_NOMEM : 0;
}

int
fa_host_collect_ns(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	struct fa_obs_build b;
	json_t *data;
	char *buf = NULL;
	unsigned major = 0, minor = 0;
	size_t i, len;
	int read = 0, r;

	fa_obs_build(&b);
	r = fa_sysroot_read(root, "/proc/sys/kernel/osrelease", 256, &buf,
	    &len);
	if (r == FA_ERR_NOMEM) {
		json_decref(fa_obs_built(&b));
		return r;
	}
	if (r == 0 && release(buf, &major, &minor) == 0)
		fa_put_jstr(&b, FA_F(HOST_NS, kernel), json_sprintf("%u.%u",
		    major, minor));
	free(buf);
	for (i = 0; i < NTYPES; i++) {
		if ((r = one(root, i, major, minor, &b, &read)) != 0) {
			json_decref(fa_obs_built(&b));
			return r;
		}
	}
	if ((data = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	if (read == 0) {
		json_decref(data);
		return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_NS,
		    "/proc/self/ns", "readlink", FA_OBS_NOT_COLLECTED,
		    "no readable link in /proc/self/ns", NULL, NULL);
	}
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_NS,
	    "/proc/self/ns", "readlink", FA_OBS_COMPLETE, NULL, data, NULL);
}
