/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scan's time budget (see deadline.h).  CLOCK_MONOTONIC: a clock step
 * (NTP, an operator's date) must neither end a scan early nor extend it.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "deadline.h"
#include "errors.h"
#include "util.h"
#include "obs_fields.h"
#include "obs_kinds.h"

static struct {
	unsigned	seconds;
	uint64_t	end_ms;		/* monotonic; 0: no budget */
	char		cut[FA_FAM_MAX][256];	/* "" unless cut */
} dl;

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void
fa_deadline_set(unsigned seconds)
{
	int f;

	dl.seconds = seconds;
	dl.end_ms = seconds > 0 ? now_ms() + (uint64_t)seconds * 1000 : 0;
	for (f = 0; f < FA_FAM_MAX; f++)
		dl.cut[f][0] = '\0';
}

unsigned
fa_deadline_seconds(void)
{
	return dl.seconds;
}

int
fa_deadline_passed(void)
{
	return dl.end_ms != 0 && now_ms() >= dl.end_ms;
}

int
fa_deadline_clamp_ms(int ms)
{
	uint64_t now, left;

	if (dl.end_ms == 0)
		return ms;
	if ((now = now_ms()) >= dl.end_ms)
		return 0;
	left = dl.end_ms - now;
	if (ms >= 0 && (uint64_t)ms < left)
		return ms;
	return left > INT32_MAX ? INT32_MAX : (int)left;
}

void
fa_deadline_cut(enum fa_family f, const char *fmt, ...)
{
	va_list ap;

	if ((unsigned)f >= FA_FAM_MAX || dl.cut[f][0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(dl.cut[f], sizeof(dl.cut[f]), fmt, ap);
	va_end(ap);
	if (dl.cut[f][0] == '\0')
		snprintf(dl.cut[f], sizeof(dl.cut[f]), "during the scan");
}

int
fa_deadline_was_cut(enum fa_family f)
{
	return (unsigned)f < FA_FAM_MAX && dl.cut[f][0] != '\0';
}

int
fa_deadline_record(struct fa_snapshot *snap)
{
	struct fa_obs_build b;
	char *req, *reason;
	json_t *d;
	int f, r = 0;

	for (f = 0; r == 0 && f < FA_FAM_MAX; f++) {
		if (dl.cut[f][0] == '\0')
			continue;
		req = fa_strfmt("--max-time %u", dl.seconds);
		reason = fa_strfmt("--max-time %u s reached %s", dl.seconds,
		    dl.cut[f]);
		fa_obs_build(&b);
		fa_put_int(&b, FA_F(SCAN_MAX_TIME, max_time), dl.seconds);
		if ((d = fa_obs_built(&b)) == NULL || req == NULL ||
		    reason == NULL) {
			json_decref(d);
			r = FA_ERR_NOMEM;
		} else
			r = fa_snapshot_add(snap, (enum fa_family)f, NULL,
			    FA_KIND_SCAN_MAX_TIME,
			    fa_family_name((enum fa_family)f),
			    req, FA_OBS_NOT_COLLECTED, reason, d, NULL);
		free(req);
		free(reason);
	}
	return r;
}

const struct fa_obs *
fa_deadline_obs(const struct fa_snapshot *snap, enum fa_family f)
{
	const struct fa_obs *o;
	size_t it = 0;

	while ((o = fa_snapshot_next(snap, FA_KIND_SCAN_MAX_TIME, &it)) != NULL)
		if (o->family == f)
			return o;
	return NULL;
}
