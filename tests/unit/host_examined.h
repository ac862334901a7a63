/*
 * For the host check tests: the observations a real collection adds
 * beside the fixed socket probes, a complete /proc/net/unix with nothing
 * listening and the mount table searched (fabric/host_unix.h,
 * host_paths.h).  Without them no socket check can pass: they were not
 * examined.  Include after <cmocka.h>.
 */
#ifndef FA_HOST_EXAMINED_H
#define FA_HOST_EXAMINED_H

#include "../../core/snapshot.h"

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
