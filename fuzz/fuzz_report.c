/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the reports fabaudit makes, as `fabaudit check
 * SNAPSHOT --baseline` writes them.  A snapshot file is loaded as check
 * loads it (fuzz/fuzz_eval.h fz_load), every check is evaluated, and the
 * report, annotated with itself as its baseline, is rendered as
 * report.json, report.txt, the summary, report.xml, report.html and
 * junit.xml (reports/report_*.c; the XML ones streamed, as the scanner
 * writes them), each of which must render: hostile
 * values from the snapshot reach the writers inside a report fabaudit
 * made.  fuzz_check drives the same loading and evaluation with its own
 * properties (write-back, no false pass) and leaves these three
 * renderings here; fuzz_merge gives the same writers any document.
 *
 * Input: the bytes of a snapshot.json (seeds: fuzz/seeds/report.sh).
 */
#include <stdint.h>
#include <stdlib.h>

#include "../core/policy.h"
#include "../core/snapshot.h"
#include "fuzz_eval.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_snapshot *snap;
	struct fa_policy *pol;
	char sha[65];

	if (fz_load(data, size, &snap, &pol) != 0)
		return 0;
	if (fa_sha256_hex(data, size, sha) != 0)
		abort();
	fuzz_evaluate(snap, pol, sha, FZ_BASELINE | FZ_RENDER, NULL);
	fa_policy_free(pol);
	fa_snapshot_free(snap);
	return 0;
}
