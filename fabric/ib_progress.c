/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The IB scan's progress reports: the tick discovery and the engine call
 * while they wait, which hands fa_ib_opts.progress the counts so far at
 * most every FA_IB_PROGRESS_MS, and the monotonic clock the phases are
 * timed with.  Below ib_collect.c, ib_discover.c and ib_local.c, which
 * all call it.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "ib_internal.h"

uint64_t
fa_ib_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
progress(struct fa_ib *ib, const char *phase)
{
	struct fa_ib_progress p;
	struct fa_mad_stats st;

	memset(&p, 0, sizeof(p));
	memset(&st, 0, sizeof(st));
	if (ib->mad != NULL)
		fa_mad_get_stats(ib->mad, &st);
	p.phase = phase;
	p.nodes = ib->disc.nodes;
	p.ports = ib->disc.ports;
	if (ib->fabric != NULL) {
		p.nodes = ib->nnodes;
		p.ports = ib->nports;
	}
	p.done = ib->finished;
	p.total = ib->total;
	p.sent = ib->disc.sent + st.sent;
	p.inflight = ib->mad != NULL ? st.inflight : ib->disc.inflight;
	p.lost = ib->disc.lost + st.lost_sends;
	ib->opts->progress(&p, ib->opts->progress_arg);
}

void
fa_ib_tick(void *arg)
{
	struct fa_ib *ib = arg;
	uint64_t now;

	if (ib->opts->progress == NULL)
		return;
	now = fa_ib_now_ms();
	if (now - ib->last_tick_ms < FA_IB_PROGRESS_MS)
		return;
	ib->last_tick_ms = now;
	if (ib->mad == NULL)
		fa_ib_tap_stats(&ib->disc);
	progress(ib, ib->phase != NULL ? ib->phase : "starting");
}
