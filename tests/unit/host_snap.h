/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hand-built snapshots for the host check tests: an empty one with the
 * host family collected, one observation added, and the observations a
 * real collection adds beside the fixed socket probes.  Include after
 * <cmocka.h>.
 */
#ifndef FA_HOST_SNAP_H
#define FA_HOST_SNAP_H

#include "../../core/obs_kinds.h"
#include "../../core/snapshot.h"

/* A snapshot with the host family collected and nothing else. */
static inline struct fa_snapshot *
snap(void)
{
	struct fa_snapshot *s = fa_snapshot_new();

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_HOST,
	    FA_FAMST_COLLECTED, NULL), 0);
	return s;
}

/* Add one host observation (data consumed); why: an incomplete one's. */
static inline void
add_why(struct fa_snapshot *s, const char *kind, const char *target,
    enum fa_obs_state st, const char *why, json_t *data)
{
	assert_non_null(data);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_HOST, NULL, kind, target,
	    "test", st, st == FA_OBS_COMPLETE ? NULL : why, data, NULL), 0);
}

/* d as the host.path observation that would carry it. */
static inline const struct fa_obs *
as_path(json_t *d)
{
	static struct fa_obs o;

	o.kind = FA_KIND_HOST_PATH;
	o.target = json_string_value(json_object_get(d, "path"));
	o.state = FA_OBS_COMPLETE;
	o.data = d;
	return &o;
}

/*
 * A complete /proc/net/unix with nothing listening and the mount table
 * searched (fabric/host_unix.h, host_paths.h): without them no socket
 * check can pass, as they were not examined.
 */
static inline void
sockets_examined(struct fa_snapshot *s)
{
	json_t *u = json_pack("{s:i, s:[], s:i, s:i, s:[], s:i}", "sockets",
	    12, "listening", "listening_count", 0, "unidentified", 0,
	    "skipped", "skipped_count", 0);
	json_t *m = json_pack("{s:i, s:[], s:i, s:i, s:[], s:i, s:[], s:i, "
	    "s:[], s:i, s:i}", "mounts", 3, "socket_mounts", "dirs_searched",
	    0, "names", 59, "unread", "unread_count", 0, "not_searched",
	    "not_searched_count", 0, "remote", "remote_count", 0, "unparsed",
	    0);

	assert_non_null(u);
	assert_non_null(m);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_HOST, NULL, "host.unix",
	    "/proc/net/unix", "test", FA_OBS_COMPLETE, NULL, u, NULL), 0);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_HOST, NULL,
	    "host.sockets", "/proc/self/mountinfo", "test", FA_OBS_COMPLETE,
	    NULL, m, NULL), 0);
}
#endif
