/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `fabaudit catalogue build`'s merge: advisory feeds (core/cvefeed.h) and
 * a hand-kept overlay in, a host CVE catalogue (format 2, data/README.md)
 * and a build report out.
 *
 * Per CVE and component:
 *  - affected ranges come from the most trusted source that has any
 *    (vendor, then a reviewed database, then an unreviewed one; the
 *    NVIDIA driver's per-branch records of one source are united); a
 *    source of another trust level whose ranges differ is a conflict,
 *    listed in the report with both, and never taken silently, whichever
 *    is newer;
 *  - distribution rows (Debian, Ubuntu) are kept per (os, release,
 *    package); two feeds that disagree on one are a conflict too, and
 *    neither is kept;
 *  - the KEV list marks the date a CVE was added;
 *  - title, CVSS and advisory come from the most trusted source that has
 *    them; confidence is "verified" when a vendor or a reviewed source
 *    spoke, else "secondary";
 *  - the overlay (a JSON array of catalogue entries, each with a
 *    "source_url") adds what no feed carries: conditions, notes, the
 *    toolkit's feature flags, and whole entries; it overrides ranges
 *    only where the feeds have none, and a difference is reported.
 * A CVE with neither ranges nor distribution rows is left out and
 * reported.  The catalogue's date is the newest record date of the
 * inputs (never typed), valid_until that date plus valid_days, and the
 * result is validated with fa_cvedb_from_json before it is returned: a
 * build never yields a catalogue the scanner would refuse.
 */
#ifndef FA_CVEBUILD_H
#define FA_CVEBUILD_H

#include <stddef.h>

#include <jansson.h>

#include "cvefeed.h"

#define FA_CVEBUILD_VALID_DAYS	90	/* default validity */

struct fa_cvebuild_in {
	struct fa_feed	**feeds;
	size_t		  nfeeds;
	const json_t	 *overlay;	/* array of entries, or NULL */
	const char	 *overlay_name;	/* for the report */
	const char	 *overlay_sha256;
	unsigned	  valid_days;
	const char	 *built_by;	/* "fabaudit VERSION" */
};

/*
 * Merge.  0 with *catalogue (the catalogue JSON) and *report ({"date",
 * "inputs", "records" (per input: records read, others' products),
 * "entries", "conflicts": [...], "left_out": [...], "overlay_used":
 * [...]}); FA_ERR_INPUT with *why when the inputs cannot
 * make a valid catalogue (no dated input, an overlay entry that is
 * malformed, a result the loader refuses: *why names it); FA_ERR_NOMEM.
 */
int fa_cvebuild(const struct fa_cvebuild_in *in, json_t **catalogue,
    json_t **report, char **why);
#endif
