/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Node reports for `fabaudit merge`, loaded by worker threads and handed
 * over in input order (scanner/merge_load.c).
 */
#ifndef FA_MERGE_LOAD_H
#define FA_MERGE_LOAD_H

#include <stddef.h>

#include <jansson.h>

#define FA_MLOAD_MAX_THREADS	8

/* One report as a worker left it. */
struct fa_mload_item {
	const char	*path;		/* the caller's string */
	char		 sha256[65];	/* hex digest of the bytes read */
	json_t		*json;		/* NULL: not read or not JSON */
	char		*err;		/* the diagnostic, when json is NULL
					 * or the signature could not be
					 * checked */
	int		 exit;		/* nonzero: exit status for err */
	const char	*signature;	/* "good", "bad", "unsigned", NULL */
	char		*sig_detail;
	unsigned	 owner;		/* the worker that built it */
	struct fa_mload_item *next_free;
};

/* What a worker does with one item (it->path set): fill the rest. */
typedef void (*fa_mload_fn)(struct fa_mload_item *it, void *arg);

struct fa_mload;

/*
 * Start nthreads (1 to FA_MLOAD_MAX_THREADS) workers loading paths[0..n)
 * with load.  0, or FA_ERR_NOMEM / FA_ERR_INTERNAL (no thread started).
 */
int fa_mload_start(struct fa_mload **l, char *const *paths, size_t n,
    unsigned nthreads, fa_mload_fn load, void *arg);

/*
 * The next item, in input order, waiting for it: 0 (*it to hand back with
 * fa_mload_done()), 1 when all were handed over, FA_ERR_NOMEM when a
 * worker could not allocate the item.
 */
int fa_mload_next(struct fa_mload *l, struct fa_mload_item **it);

/* Done with it: its worker frees it. */
void fa_mload_done(struct fa_mload *l, struct fa_mload_item *it);

/* Stop the workers (after the items wanted), and free the rest. */
void fa_mload_stop(struct fa_mload *l);

#endif
