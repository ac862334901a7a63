/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The typed getters and putters of observation data (obs_fields.h): each
 * checks that the handle's kind is the observation's (or the builder's),
 * then reads or writes the field by the name the schema declares.
 */
#include <stdio.h>
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
	return fa_json_get_u64(o->data, fa_fld_name(f), out);
}

int
fa_obs_int(const struct fa_obs *o, const struct fa_fld_INT *f,
    long long min, long long max, long long *out)
{
	if (value(o, f->kind, f->slot) == NULL)
		return FA_ERR_NOTFOUND;
	return fa_json_get_int(o->data, fa_fld_name(f), min, max, out);
}

int
fa_obs_bool(const struct fa_obs *o, const struct fa_fld_BOOL *f, int *out)
{
	if (value(o, f->kind, f->slot) == NULL)
		return FA_ERR_NOTFOUND;
	return fa_json_get_bool(o->data, fa_fld_name(f), out);
}

#define GETTER(NAME_, T)						\
json_t *								\
NAME_(const struct fa_obs *o, const struct fa_fld_##T *f)		\
{									\
	return value(o, f->kind, f->slot);				\
}
GETTER(fa_obs_jstr, STR)
GETTER(fa_obs_jint, INT)
GETTER(fa_obs_jbool, BOOL)
GETTER(fa_obs_obj, OBJ)
GETTER(fa_obs_arr, ARR)
GETTER(fa_obs_secret, SECRET)

/* ---- building -------------------------------------------------------- */

void
fa_obs_build(struct fa_obs_build *b)
{
	b->data = json_object();
	b->kind = -1;
	b->failed = b->data == NULL;
}

json_t *
fa_obs_built(struct fa_obs_build *b)
{
	json_t *d = b->data;

	b->data = NULL;
	if (b->failed) {
		json_decref(d);
		return NULL;
	}
	return d;
}

/* Set the field in slot of kind k to v (stolen). */
static void
put(struct fa_obs_build *b, unsigned short k, unsigned short slot, json_t *v)
{
	if (b->kind < 0)
		b->kind = k;
	else if (b->kind != k)
		abort();	/* a field of another kind: see value() */
	if (b->failed || v == NULL ||
	    json_object_set_new(b->data, fa_obs_fields[slot].name, v) != 0) {
		if (b->failed)
			json_decref(v);
		b->failed = 1;
	}
}

void
fa_put_str(struct fa_obs_build *b, const struct fa_fld_STR *f, const char *v)
{
	put(b, f->kind, f->slot, v != NULL ? json_string(v) : json_null());
}

void
fa_put_u64(struct fa_obs_build *b, const struct fa_fld_STR *f, uint64_t v)
{
	char hex[19];

	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)v);
	put(b, f->kind, f->slot, json_string(hex));
}

void
fa_put_int(struct fa_obs_build *b, const struct fa_fld_INT *f, long long v)
{
	put(b, f->kind, f->slot, json_integer(v));
}

void
fa_put_bool(struct fa_obs_build *b, const struct fa_fld_BOOL *f, int v)
{
	put(b, f->kind, f->slot, json_boolean(v));
}

#define PUTTER(NAME_, T)						\
void									\
NAME_(struct fa_obs_build *b, const struct fa_fld_##T *f, json_t *v)	\
{									\
	put(b, f->kind, f->slot, v);					\
}
PUTTER(fa_put_jstr, STR)
PUTTER(fa_put_obj, OBJ)
PUTTER(fa_put_arr, ARR)
PUTTER(fa_put_any, ANY)
PUTTER(fa_put_secret, SECRET)

void
fa_obs_build_fail(struct fa_obs_build *b)
{
	b->failed = 1;
}
