/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The observation schema's lookups and validator (obs_schema.h); the
 * declarations themselves are in obs_schema.def.
 */
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "obs_schema.h"
#include "util.h"

static int
kind_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct fa_obs_kind *)elem)->name);
}

const struct fa_obs_kind *
fa_obs_kind_find(const char *name)
{
	size_t n = 0;

	if (name == NULL)
		return NULL;
	while (fa_obs_kinds[n].name != NULL)
		n++;
	return bsearch(name, fa_obs_kinds, n, sizeof(fa_obs_kinds[0]),
	    kind_cmp);
}

const char *
fa_field_type_name(enum fa_field_type t)
{
	switch (t) {
	case FA_FT_STR:
		return "string";
	case FA_FT_INT:
		return "integer";
	case FA_FT_NUM:
		return "number";
	case FA_FT_BOOL:
		return "boolean";
	case FA_FT_OBJ:
		return "object";
	case FA_FT_ARR:
		return "array";
	case FA_FT_SECRET:
		return "secret";
	default:
		return "any";
	}
}

static const struct fa_obs_field *
field_find(const struct fa_obs_kind *k, const char *name)
{
	const struct fa_obs_field *f;

	for (f = k->fields; f != NULL && f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

/* v has type t (a secret: an object marked "secret": true). */
static int
has_type(const json_t *v, enum fa_field_type t)
{
	switch (t) {
	case FA_FT_STR:
		return json_is_string(v);
	case FA_FT_INT:
		return json_is_integer(v);
	case FA_FT_NUM:
		return json_is_number(v);
	case FA_FT_BOOL:
		return json_is_boolean(v);
	case FA_FT_OBJ:
		return json_is_object(v);
	case FA_FT_ARR:
		return json_is_array(v);
	case FA_FT_SECRET:
		return json_is_object(v) &&
		    json_is_true(json_object_get(v, "secret"));
	default:
		return 1;
	}
}

int
fa_obs_validate(const char *kind, enum fa_family family,
    enum fa_obs_state st, const json_t *data, unsigned flags, char **why)
{
	const struct fa_obs_kind *k = fa_obs_kind_find(kind);
	const struct fa_obs_field *f;
	const char *key;
	json_t *v;

	if (why != NULL)
		*why = NULL;
	if (k == NULL)
		return fa_why(why, "kind '%.64s' is not one fabaudit declares",
		    kind != NULL ? kind : "");
	if (k->family >= 0 && k->family != (int)family)
		return fa_why(why, "kind %s is of the %s family, not %s",
		    kind, fa_family_name((enum fa_family)k->family),
		    fa_family_name(family));
	/* What was not seen holds what it holds: only seen data is typed. */
	if (st != FA_OBS_COMPLETE && st != FA_OBS_INCOMPLETE)
		return 0;
	if (!json_is_object(data))
		return fa_why(why, "kind %s: data is not an object", kind);
	json_object_foreach((json_t *)data, key, v) {
		if ((f = field_find(k, key)) == NULL)
			return fa_why(why, "kind %s: field '%.64s' is not "
			    "declared", kind, key);
		if (json_is_null(v) ? !(f->flags & FA_FF_NULL) :
		    !has_type(v, f->type))
			return fa_why(why, "kind %s: field %s is %s, not %s%s",
			    kind, key, json_is_null(v) ? "null" :
			    json_is_object(v) ? "an object" : json_is_array(v) ?
			    "an array" : json_is_string(v) ? "a string" :
			    json_is_integer(v) ? "an integer" : json_is_real(v) ?
			    "a real" : "a boolean", fa_field_type_name(f->type),
			    f->flags & FA_FF_NULL ? " or null" : "");
	}
	if (st != FA_OBS_COMPLETE || !(flags & FA_VAL_REQUIRED))
		return 0;
	for (f = k->fields; f != NULL && f->name != NULL; f++)
		if ((f->flags & FA_FF_REQ) && json_object_get(data,
		    f->name) == NULL)
			return fa_why(why, "kind %s: required field %s is "
			    "missing", kind, f->name);
	return 0;
}
