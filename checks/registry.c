/*
 * The catalogue of implemented checks, in report order.  Every ID here must
 * also be in fa_known_check_ids (core/model.c); tests enforce both.
 */
#include <stddef.h>

#include "check.h"
#include "ib_checks.h"

const struct fa_check *const fa_checks[] = {
	&fa_chk_ib_smkey_disclosed,
	&fa_chk_ib_pkey_default_full,
	NULL
};
