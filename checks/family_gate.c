/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The preamble every check shares: a family this scan did not collect
 * gives one not_tested (or error) result saying why.
 */
#include "../core/errors.h"
#include "check.h"

int
fa_check_family_gate(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    enum fa_family f, struct fa_results *out)
{
	const struct fa_fam_status *fs = &ctx->snap->fam[f];
	const char *why = fs->reason != NULL ? fs->reason : "no reason recorded";
	int r;

	switch (fs->state) {
	case FA_FAMST_COLLECTED:
		return 0;
	case FA_FAMST_NOT_REQUESTED:
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, fa_family_name(f),
		    NULL, NULL, "%s family not in the scope of this scan",
		    fa_family_name(f));
		break;
	case FA_FAMST_UNAVAILABLE:
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, fa_family_name(f),
		    NULL, NULL, "%s family unavailable: %s", fa_family_name(f),
		    why);
		break;
	default:
		r = fa_results_add(out, c, FA_ST_ERROR, fa_family_name(f),
		    NULL, NULL, "%s acquisition failed: %s", fa_family_name(f),
		    why);
		break;
	}
	return r < 0 ? r : 1;
}
