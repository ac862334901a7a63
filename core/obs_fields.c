/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The typed getters of observation data (obs_fields.h): each checks that
 * the handle's kind is the observation's, then reads the field by the
 * name the schema declares.
 */
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "obs_fields.h"

/*
 * The value of the field in slot of kind k, or NULL.  A handle of another
 * kind than the observation's is fabaudit's bug (the checks choose their
 * observations by kind; no input reaches this): abort, so no report is
 * written with that field read as absent.
 */
static json_t *
value(const struct fa_obs *o, unsigned short k, unsigned short slot)
{
	if (o == NULL)
		return NULL;
	if (o->kind == NULL || strcmp(o->kind, fa_obs_kinds[k].name) != 0)
		abort();
	return json_object_get(o->data, fa_obs_fields[slot].name);
}

#define NAME(f)	(fa_obs_fields[(f)->slot].name)

const char *
fa_obs_str(const struct fa_obs *o, const struct fa_fld_STR *f)
{
	return json_string_value(value(o, f->kind, f->slot));
}

int
fa_obs_u64(const struct fa_obs *o, const struct fa_fld_STR *f,
    uint64_t *out)
{
	if (value(o, f->kind, f->slot) == NULL)
		return FA_ERR_NOTFOUND;
	return fa_json_get_u64(o->data, NAME(f), out);
}

int
fa_obs_int(const struct fa_obs *o, const struct fa_fld_INT *f,
    long long min, long long max, long long *out)
{
	if (value(o, f->kind, f->slot) == NULL)
		return FA_ERR_NOTFOUND;
	return fa_json_get_int(o->data, NAME(f), min, max, out);
}

int
fa_obs_bool(const struct fa_obs *o, const struct fa_fld_BOOL *f, int *out)
{
	if (value(o, f->kind, f->slot) == NULL)
		return FA_ERR_NOTFOUND;
	return fa_json_get_bool(o->data, NAME(f), out);
}

int
fa_obs_true(const struct fa_obs *o, const struct fa_fld_BOOL *f)
{
	return json_is_true(value(o, f->kind, f->slot));
}

#define GETTER(NAME_, T)						\
json_t *								\
NAME_(const struct fa_obs *o, const struct fa_fld_##T *f)		\
{									\
	return value(o, f->kind, f->slot);				\
}
GETTER(fa_obs_jstr, STR)
GETTER(fa_obs_jint, INT)
GETTER(fa_obs_jnum, NUM)
GETTER(fa_obs_jbool, BOOL)
GETTER(fa_obs_obj, OBJ)
GETTER(fa_obs_arr, ARR)
GETTER(fa_obs_any, ANY)
GETTER(fa_obs_secret, SECRET)
