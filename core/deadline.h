/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scan's global time budget (`fabaudit scan --max-time SECONDS`).
 * One process-wide deadline, like the interrupt table: the acquisition
 * loops (the IB MAD engine and discovery tap, the Ethernet capture and
 * probes, the host collectors) ask it between steps and stop sending when
 * it has passed.  A family whose acquisition was cut is noted here with
 * what was left undone; fa_deadline_record() turns the notes into
 * observations ("scan.max_time", state not_collected) that the evaluation
 * reads (checks/evaluate.c): a family cut short has no `pass`, since what
 * it did not see could have been the finding.
 */
#ifndef FA_DEADLINE_H
#define FA_DEADLINE_H

#include "model.h"
#include "snapshot.h"
#include "obs_kinds.h"

/* Start the budget: `seconds` from now (0: no budget, the default). */
void fa_deadline_set(unsigned seconds);
/* The budget in seconds, 0 when there is none. */
unsigned fa_deadline_seconds(void);
/* 1 once the budget is spent; always 0 without one. */
int fa_deadline_passed(void);
/*
 * A wait of at most `ms` milliseconds (ms < 0: unbounded) cut to what is
 * left of the budget: the smaller of the two, 0 once it is spent, and
 * `ms` unchanged without a budget.
 */
int fa_deadline_clamp_ms(int ms);

/*
 * Note that family f's acquisition stopped at the deadline; `fmt` says
 * what was left undone ("before the audit: 3 of 40 probes not sent").
 * The first note of a family is kept.
 */
void fa_deadline_cut(enum fa_family f, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));
/* 1 when family f was cut. */
int fa_deadline_was_cut(enum fa_family f);

/*
 * Add an observation of kind FA_KIND_SCAN_MAX_TIME (target: the family's
 * name) for every family cut: "--max-time N s reached <what>".  0, or
 * FA_ERR_NOMEM.
 */
int fa_deadline_record(struct fa_snapshot *snap);

/* The observation saying family f was cut, or NULL. */
const struct fa_obs *fa_deadline_obs(const struct fa_snapshot *snap,
    enum fa_family f);

#endif
