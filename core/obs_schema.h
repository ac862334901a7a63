/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The schema of observations: every kind a scan records, its family and
 * the top-level fields of its data, each with its JSON type, whether a
 * complete observation always has it, whether it may be null, and what it
 * holds.  Declared once (obs_schema.def); from it the snapshot reader
 * refuses what it does not declare (fa_obs_validate), the writer marks
 * an observation that breaks it as fabaudit's own error, and
 * fabaudit-checks(7) prints the format (fabaudit checks --format man),
 * and the checks read fields through typed handles (obs_fields.h).
 */
#ifndef FA_OBS_SCHEMA_H
#define FA_OBS_SCHEMA_H

#include <jansson.h>

#include "model.h"

enum fa_field_type {
	FA_FT_ANY = 0,	/* any JSON value */
	FA_FT_STR,	/* string */
	FA_FT_INT,	/* integer */
	FA_FT_NUM,	/* integer or real */
	FA_FT_BOOL,	/* true/false */
	FA_FT_OBJ,	/* object */
	FA_FT_ARR,	/* array */
	FA_FT_SECRET,	/* a secret: object {"secret": true, "value": ...} */
};
#define FA_FF_REQ	0x1	/* present in every complete observation */
#define FA_FF_NULL	0x2	/* may be JSON null */

struct fa_obs_field {
	const char		*name;
	enum fa_field_type	 type;
	unsigned		 flags;
	const char		*doc;	/* one short line: what, units */
};

struct fa_obs_kind {
	const char			*name;	/* "ib.topology" */
	int				 family; /* enum fa_family, -1: any */
	const struct fa_obs_field	*fields; /* NULL-name terminated */
	const char			*doc;	/* what it is, who writes it */
};

/* Every kind, NULL-name terminated, sorted by name (obs_schema.def). */
extern const struct fa_obs_kind fa_obs_kinds[];
/* Every kind's fields, each kind's after a row of NULLs (the same). */
extern const struct fa_obs_field fa_obs_fields[];

/* The kind declared as name, or NULL. */
const struct fa_obs_kind *fa_obs_kind_find(const char *name);
/* "string", "integer", ... for the manual and messages. */
const char *fa_field_type_name(enum fa_field_type t);

/*
 * Whether an observation of kind in family, in state st, with data, is
 * one the schema declares: the kind is known and of that family; for a
 * complete or incomplete observation every field of data is declared
 * with that type (or null where allowed), and with FA_VAL_REQUIRED a
 * complete one has every required field.  0, or FA_ERR_INPUT with *why
 * (if not NULL) a new string naming the kind and the field.
 *
 * Required fields are what this version writes: a scan checks them
 * before its snapshot is written (fa_snapshot_check_required), while a
 * snapshot read back is not refused for lacking a field an older version
 * did not write yet.
 */
#define FA_VAL_REQUIRED	0x1
int fa_obs_validate(const char *kind, enum fa_family family,
    enum fa_obs_state st, const json_t *data, unsigned flags, char **why);

#endif
