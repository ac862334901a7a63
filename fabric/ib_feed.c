/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Feeds: how a collection phase streams its work through the MAD engine
 * with memory bounded by the window, not by the fabric.  A feed owns a
 * small pool of job structures; it takes the phase's next item (a port, a
 * node, a probe) into every free job, and a job that has finished (its
 * observation recorded) is handed back and refilled at once, from inside
 * the engine's done() callbacks.  Every phase's feed runs concurrently in
 * one fa_mad_run(), so the window stays full from the first phase to the
 * last and no phase waits for another's stragglers.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "ib_internal.h"

/* Take items into free jobs until the pool or the items run out. */
static void
feed_fill(struct fa_ib_feed *f)
{
	void *job;
	int r;

	/* A take() whose submit fails finishes its job at once, which
	 * lands here again: the outer call does the filling. */
	if (f->filling)
		return;
	f->filling = 1;
	while (!f->exhausted && f->err == 0 && f->nfree > 0) {
		job = f->free[--f->nfree];
		memset(job, 0, f->jobsz);
		r = f->take(f, job);
		if (r > 0)
			f->taken++;
		else {
			f->free[f->nfree++] = job;
			if (r < 0)
				f->err = r;
			f->exhausted = 1;
		}
	}
	f->filling = 0;
}

int
fa_ib_feed_start(struct fa_ib *ib, size_t jobsz, unsigned long total,
    int (*take)(struct fa_ib_feed *, void *), void *state,
    struct fa_ib_feed **out)
{
	struct fa_ib_feed *f;
	unsigned i, n;

	if (out != NULL)
		*out = NULL;
	/* Twice the window of jobs keeps it full while jobs are recorded. */
	n = 2 * (ib->opts->max_outstanding > 0 ? ib->opts->max_outstanding :
	    1);
	if (n < 4)
		n = 4;
	if ((f = calloc(1, sizeof(*f))) == NULL ||
	    (f->jobs = calloc(n, jobsz)) == NULL ||
	    (f->free = calloc(n, sizeof(*f->free))) == NULL) {
		if (f != NULL)
			free(f->jobs);
		free(f);
		return FA_ERR_NOMEM;
	}
	f->ib = ib;
	f->jobsz = jobsz;
	f->njobs = n;
	f->take = take;
	f->state = state;
	f->total = total;
	for (i = 0; i < n; i++)
		f->free[f->nfree++] = f->jobs + (size_t)(n - 1 - i) * jobsz;
	f->next = ib->feeds;
	ib->feeds = f;
	ib->total += total;
	if (out != NULL)
		*out = f;
	feed_fill(f);
	return 0;
}

/* Every item taken and finished: the feed's on_end, once. */
static void
feed_check_end(struct fa_ib_feed *f)
{
	if (f->on_end != NULL && !f->ended && !f->filling && f->exhausted &&
	    f->finished == f->taken) {
		f->ended = 1;
		f->on_end(f);
	}
}

void
fa_ib_feed_done(struct fa_ib_feed *f, void *job, int err)
{
	f->finished++;
	f->ib->finished++;
	if (err != 0 && f->err == 0)
		f->err = err;
	f->free[f->nfree++] = job;
	feed_fill(f);
	feed_check_end(f);
}

void
fa_ib_feed_on_end(struct fa_ib_feed *f, void (*on_end)(struct fa_ib_feed *f))
{
	f->on_end = on_end;
	feed_check_end(f);
}

int
fa_ib_feeds_end(struct fa_ib *ib)
{
	struct fa_ib_feed *f;
	int r = 0;

	while ((f = ib->feeds) != NULL) {
		ib->feeds = f->next;
		if (r == 0 && f->err != 0)
			r = f->err;
		/* Every job was handed back: the engine finishes every
		 * request, even when it fails. */
		if (r == 0 && f->nfree != f->njobs)
			r = FA_ERR_INTERNAL;
		free(f->state);
		free(f->free);
		free(f->jobs);
		free(f);
	}
	return r;
}
