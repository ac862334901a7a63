/* Namespace identity from /proc/self/ns links (see host_ns.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_ns.h"

/* Fixed inode of each initial namespace; 0: allocated, no fixed value. */
static const struct {
	const char	*type;
	uint64_t	 initial;
} ns_types[] = {
	{ "ipc", 0xEFFFFFFFu },
	{ "uts", 0xEFFFFFFEu },
	{ "user", 0xEFFFFFFDu },
	{ "pid", 0xEFFFFFFCu },
	{ "cgroup", 0xEFFFFFFBu },
	{ "time", 0xEFFFFFFAu },
	{ "net", 0 },
	{ "mnt", 0 },
};

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

static int
one(const struct fa_sysroot *root, const char *type, uint64_t initial,
    json_t *data, int *read)
{
	char path[64], *link = NULL;
	uint64_t ino;
	json_t *o;
	int r;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", type);
	r = fa_sysroot_readlink(root, path, &link);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r == FA_ERR_NOTFOUND)
		return 0;	/* older kernel (time, cgroup) or no /proc */
	if (r == 0 && fa_ns_link_parse(link, type, &ino) != 0)
		r = FA_ERR_INPUT;
	free(link);
	if (r != 0)
		o = json_pack("{s:s}", "unreadable", fa_strerror(r));
	else if (initial != 0)
		o = json_pack("{s:I, s:b}", "inode", (json_int_t)ino,
		    "initial", ino == initial);
	else
		o = json_pack("{s:I}", "inode", (json_int_t)ino);
	if (o == NULL || json_object_set_new(data, type, o) != 0)
		return FA_ERR_NOMEM;
	if (r == 0)
		(*read)++;
	return 0;
}

int
fa_host_collect_ns(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	json_t *data = json_object();
	size_t i;
	int read = 0, r;

	if (data == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < sizeof(ns_types) / sizeof(ns_types[0]); i++) {
		if ((r = one(root, ns_types[i].type, ns_types[i].initial, data,
		    &read)) != 0) {
			json_decref(data);
			return r;
		}
	}
	if (read == 0) {
		json_decref(data);
		return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_NS,
		    "/proc/self/ns", "readlink", FA_OBS_NOT_COLLECTED,
		    "no readable link in /proc/self/ns", NULL, NULL);
	}
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_NS,
	    "/proc/self/ns", "readlink", FA_OBS_COMPLETE, NULL, data, NULL);
}
