/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Typed access to observation data.  Every field core/obs_schema.def
 * declares has one handle, FA_F(KIND, field), whose C type is its JSON
 * type; the checks read an observation's data only through the getters
 * below, each of which takes the handle of its type.  So a field no kind
 * declares is an undeclared identifier, and a string field read as an
 * integer (or any other mismatch) is an incompatible pointer: the
 * compiler says so, before any test runs.
 *
 * A handle also names its kind.  Reading it from an observation of
 * another kind is a bug in fabaudit that no input can cause (the checks
 * pick observations by kind): the getters abort rather than read the
 * field as absent, which would turn the bug into a quiet not_tested.
 *
 * The getters return what the fa_json_get_* family (snapshot.h) returns
 * for the field's name.  A value of another type than declared cannot
 * reach a check: the snapshot reader refuses it and the writer marks it
 * as its own error (obs_schema.c).
 */
#ifndef FA_OBS_FIELDS_H
#define FA_OBS_FIELDS_H

#include <stdint.h>
#include <string.h>
#include <jansson.h>

#include "obs_kinds.h"
#include "obs_schema.h"
#include "snapshot.h"

/* One handle type per JSON type of core/obs_schema.h (FA_FT_*). */
#define FA_FLD_TYPE(T)	\
	struct fa_fld_##T { unsigned short kind, slot; }
FA_FLD_TYPE(ANY);
FA_FLD_TYPE(STR);
FA_FLD_TYPE(INT);
FA_FLD_TYPE(NUM);
FA_FLD_TYPE(BOOL);
FA_FLD_TYPE(OBJ);
FA_FLD_TYPE(ARR);
FA_FLD_TYPE(SECRET);
#undef FA_FLD_TYPE

#define FA_KIND(ID, FAM, DOC)
#define FA_FIELD(ID, NAME, T, FL, DOC)	\
	extern const struct fa_fld_##T fa_f_##ID##__##NAME;
#include "obs_schema.def"

/* The handle of field NAME of kind FA_KIND_ID. */
#define FA_F(ID, NAME)	(&fa_f_##ID##__##NAME)
/*
 * The handle of NAME for an observation o of kind A or B, for code that
 * reads a field both declare (both must give it one type, or the two
 * handles do not make one conditional and it does not compile).
 */
#define FA_F2(o, A, B, NAME)						\
	(strcmp((o)->kind, FA_KIND_##A) == 0 ? FA_F(A, NAME) : FA_F(B, NAME))

/* Strings: the value or NULL. */
const char *fa_obs_str(const struct fa_obs *o, const struct fa_fld_STR *f);
/* A "0x%016" string (GUIDs, keys): as fa_json_get_u64(). */
int fa_obs_u64(const struct fa_obs *o, const struct fa_fld_STR *f,
    uint64_t *out);
/* Integers in [min, max]: as fa_json_get_int(). */
int fa_obs_int(const struct fa_obs *o, const struct fa_fld_INT *f,
    long long min, long long max, long long *out);
/* Booleans: as fa_json_get_bool(). */
int fa_obs_bool(const struct fa_obs *o, const struct fa_fld_BOOL *f,
    int *out);

/* The JSON value itself (borrowed from the observation), or NULL. */
json_t *fa_obs_jstr(const struct fa_obs *o, const struct fa_fld_STR *f);
json_t *fa_obs_jint(const struct fa_obs *o, const struct fa_fld_INT *f);
json_t *fa_obs_jbool(const struct fa_obs *o, const struct fa_fld_BOOL *f);
json_t *fa_obs_obj(const struct fa_obs *o, const struct fa_fld_OBJ *f);
json_t *fa_obs_arr(const struct fa_obs *o, const struct fa_fld_ARR *f);
json_t *fa_obs_secret(const struct fa_obs *o,
    const struct fa_fld_SECRET *f);

/*
 * Filling an observation's data through the same handles: the writers of
 * fabric/ put each top-level field with the put of its type, so a field
 * no kind declares, or put as another type, does not compile either.
 * A builder holds one kind's data: the first put names the kind, a put of
 * another kind's field aborts (fabaudit's bug, no input reaches it).  A
 * put after a failure (out of memory) does nothing; fa_obs_built() then
 * returns NULL, the data released.  Puts that take a json_t steal it,
 * also on failure.
 */
struct fa_obs_build {
	json_t		*data;
	int		 kind;		/* fa_obs_kinds[] index, -1: none yet */
	int		 failed;
};
void fa_obs_build(struct fa_obs_build *b);
json_t *fa_obs_built(struct fa_obs_build *b);
void fa_put_str(struct fa_obs_build *b, const struct fa_fld_STR *f,
    const char *v);			/* NULL: JSON null */
void fa_put_u64(struct fa_obs_build *b, const struct fa_fld_STR *f,
    uint64_t v);			/* "0x%016" */
void fa_put_jstr(struct fa_obs_build *b, const struct fa_fld_STR *f,
    json_t *v);
void fa_put_int(struct fa_obs_build *b, const struct fa_fld_INT *f,
    long long v);
void fa_put_bool(struct fa_obs_build *b, const struct fa_fld_BOOL *f,
    int v);
void fa_put_obj(struct fa_obs_build *b, const struct fa_fld_OBJ *f,
    json_t *v);
void fa_put_arr(struct fa_obs_build *b, const struct fa_fld_ARR *f,
    json_t *v);
void fa_put_any(struct fa_obs_build *b, const struct fa_fld_ANY *f,
    json_t *v);
/* v: a secret made by fa_secret_new() (snapshot.h). */
void fa_put_secret(struct fa_obs_build *b, const struct fa_fld_SECRET *f,
    json_t *v);
/* Mark the data as failed (a value that could not be made), as a put
 * that fails does: fa_obs_built() then returns NULL. */
void fa_obs_build_fail(struct fa_obs_build *b);

/*
 * The whole data object, for code that shows or keeps it whole (as
 * evidence) or reads an older kind's data as the entry of a newer one
 * (ib.gmp.key_probe): not for reading a field.
 */
static inline json_t *
fa_obs_data(const struct fa_obs *o)
{
	return o->data;
}

/* The field's name, for evidence and messages. */
#define fa_fld_name(f)	(fa_obs_fields[(f)->slot].name)

#endif
