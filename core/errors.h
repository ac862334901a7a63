/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Error codes returned by every layer below scanner/.  Functions return 0 on
 * success or one of these negative values; only scanner/ prints or exits.
 */
#ifndef FA_ERRORS_H
#define FA_ERRORS_H

enum fa_err {
	FA_OK = 0,
	FA_ERR_NOMEM = -1,	/* allocation failed */
	FA_ERR_INPUT = -2,	/* malformed or out-of-range input */
	FA_ERR_IO = -3,		/* read/write/open failed (errno kept) */
	FA_ERR_NOTFOUND = -4,	/* looked-up item is absent */
	FA_ERR_UNAVAIL = -5,	/* facility (device, library) not usable */
	FA_ERR_TOOBIG = -6,	/* input exceeds a fixed ceiling */
	FA_ERR_INTERNAL = -7,	/* broken invariant (a bug) */
};

const char *fa_strerror(int err);

#endif
