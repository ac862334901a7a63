/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The catalogue of implemented checks, in report order: the lines of
 * core/checks.def, which also give core/model.c its known IDs.  A check is
 * found by its ID here (fa_check_find).
 */
#include <stddef.h>
#include <string.h>

#include "check.h"

const struct fa_check *const fa_checks[] = {
#define FA_CHECK(ID, SYMBOL)	&SYMBOL,
#include "../core/checks.def"
	NULL
};

const struct fa_check *
fa_check_find(const char *id)
{
	const struct fa_check *const *c;

	for (c = fa_checks; *c != NULL; c++)
		if (strcmp((*c)->id, id) == 0)
			return *c;
	return NULL;
}
