/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The schema table and the typed field handles, both expanded from the
 * one declaration in obs_schema.def.  The table is one array of field
 * rows: each kind's row of NULLs comes before its fields, so a kind's
 * fields start after its own NULL row and end at the next kind's (or the
 * final one), the NULL-terminated list struct fa_obs_kind promises.
 */
#include <stddef.h>

#include "obs_fields.h"
#include "obs_kinds.h"
#include "obs_schema.h"

/* One slot per kind (its NULL row) and per field, in declaration order. */
enum fa_obs_slot {
#define FA_KIND(ID, FAM, DOC)	FA_SLOT_K_##ID,
#define FA_FIELD(ID, NAME, T, FL, DOC)	FA_SLOT_##ID##__##NAME,
#include "obs_schema.def"
	FA_SLOT_END
};

/* Each kind's index in fa_obs_kinds[]. */
enum fa_obs_kind_index {
#define FA_KIND(ID, FAM, DOC)	FA_KI_##ID,
#define FA_FIELD(ID, NAME, T, FL, DOC)
#include "obs_schema.def"
	FA_KI_END
};

const struct fa_obs_field fa_obs_fields[] = {
#define FA_KIND(ID, FAM, DOC)	{ NULL, 0, 0, NULL },
#define FA_FIELD(ID, NAME, T, FL, DOC)	{ #NAME, FA_FT_##T, FL, DOC },
#include "obs_schema.def"
	{ NULL, 0, 0, NULL }
};

const struct fa_obs_kind fa_obs_kinds[] = {
#define FA_KIND(ID, FAM, DOC)	\
	{ FA_KIND_##ID, FAM, &fa_obs_fields[FA_SLOT_K_##ID + 1], DOC },
#define FA_FIELD(ID, NAME, T, FL, DOC)
#include "obs_schema.def"
	{ NULL, 0, NULL, NULL }
};

_Static_assert(sizeof(fa_obs_fields) / sizeof(fa_obs_fields[0]) ==
    FA_SLOT_END + 1, "one table row per slot");
_Static_assert(sizeof(fa_obs_kinds) / sizeof(fa_obs_kinds[0]) ==
    FA_KI_END + 1, "one kind row per kind");

#define FA_KIND(ID, FAM, DOC)
#define FA_FIELD(ID, NAME, T, FL, DOC)	\
	const struct fa_fld_##T fa_f_##ID##__##NAME = \
	    { FA_KI_##ID, FA_SLOT_##ID##__##NAME };
#include "obs_schema.def"
