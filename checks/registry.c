/*
 * The catalogue of implemented checks, in report order.  Every ID here must
 * also be in fa_known_check_ids (core/model.c); tests enforce both.
 */
#include <stddef.h>

#include "check.h"
#include "ib_checks.h"

const struct fa_check *const fa_checks[] = {
	&fa_chk_ib_smp_unrestricted,
	&fa_chk_ib_mkey_unset,
	&fa_chk_ib_mkey_readable,
	&fa_chk_ib_mkey_protect_low,
	&fa_chk_ib_smkey_disclosed,
	&fa_chk_ib_smkey_default,
	&fa_chk_ib_sm_unexpected,
	&fa_chk_ib_sakey_default,
	&fa_chk_ib_sa_disclosure,
	&fa_chk_ib_pkey_default_full,
	&fa_chk_ib_pkey_shared,
	&fa_chk_ib_xtenant_reachable,
	&fa_chk_ib_pkey_enforce_off,
	&fa_chk_ib_cckey_unset,
	&fa_chk_ib_vskey_unset,
	&fa_chk_ib_amkey_unset,
	NULL
};
