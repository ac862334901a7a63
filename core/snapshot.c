/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The snapshot model (see snapshot.h): observation storage, lookup, and the
 * conversion to and from JSON.  Loading checks every member, because a
 * snapshot file is input like any other.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "obs_schema.h"
#include "snapshot.h"
#include "util.h"

static const char *const obs_state_names[FA_OBS_MAX] = {
	"complete", "incomplete", "no_response", "rejected", "not_collected",
	"error",
};
static const char *const fam_state_names[FA_FAMST_MAX] = {
	"not_requested", "collected", "unavailable", "failed",
};
_Static_assert(sizeof(obs_state_names) / sizeof(obs_state_names[0]) ==
    FA_OBS_MAX, "obs_state_names");
_Static_assert(sizeof(fam_state_names) / sizeof(fam_state_names[0]) ==
    FA_FAMST_MAX, "fam_state_names");

#define MAX_STR		4096	/* any string member of a loaded snapshot */

/*
 * String pool.  A scan of a large fabric holds several observations per
 * port (topology, P_Key table, PathRecord, key probes), and they repeat
 * the same strings: kinds, the port's target and NodeDescription, reasons,
 * attribute and state names.  Each observation's kind, target and reason,
 * and every short string value of its data, point to one shared copy kept
 * in s->pool (value -> json string) for the snapshot's lifetime.  Sharing
 * a json_t string by reference is safe because nothing here changes a
 * string in place (secrets are redacted by replacing the member, see
 * fa_json_redact_begin).  Longer values seldom repeat: they are left as
 * they are.
 */
#define POOL_MAX_LEN	96
#define POOL_MAX_DEPTH	32

/* The pooled string equal to v[0..len) (a borrowed reference), or NULL. */
static json_t *
pool_get(struct fa_snapshot *s, const char *v, size_t len)
{
	json_t *p;

	if (s->pool == NULL && (s->pool = json_object()) == NULL)
		return NULL;
	if ((p = json_object_getn(s->pool, v, len)) != NULL)
		return p;
	/* The pool is never dumped: the bytes are kept as they are. */
	if ((p = json_stringn_nocheck(v, len)) == NULL ||
	    json_object_setn_new_nocheck(s->pool, v, len, p) != 0)
		return NULL;
	return p;
}

/* The pooled copy of the C string v, or NULL when out of memory. */
static const char *
pool_str(struct fa_snapshot *s, const char *v)
{
	json_t *p = pool_get(s, v, strlen(v));

	return p != NULL ? json_string_value(p) : NULL;
}

static int pool_tree(struct fa_snapshot *s, json_t *j, int depth);

/*
 * For one member or element v: its pooled replacement in *p (NULL when v
 * stays: not a string, too long, or already the pooled one); containers
 * are walked.  0 or FA_ERR_NOMEM.
 */
static int
pool_value(struct fa_snapshot *s, json_t *v, int depth, json_t **p)
{
	*p = NULL;
	if (!json_is_string(v))
		return pool_tree(s, v, depth + 1);
	if (json_string_length(v) > POOL_MAX_LEN)
		return 0;
	if ((*p = pool_get(s, json_string_value(v), json_string_length(v))) ==
	    NULL)
		return FA_ERR_NOMEM;
	if (*p == v)
		*p = NULL;
	return 0;
}

/* Replace j's short string members and elements by pooled ones. */
static int
pool_tree(struct fa_snapshot *s, json_t *j, int depth)
{
	json_t *v, *p;
	void *it;
	size_t i;

	if (depth > POOL_MAX_DEPTH)
		return 0;	/* left unshared, still correct */
	if (json_is_object(j)) {
		for (it = json_object_iter(j); it != NULL;
		    it = json_object_iter_next(j, it))
			if (pool_value(s, json_object_iter_value(it), depth,
			    &p) != 0 || (p != NULL &&
			    json_object_iter_set(j, it, p) != 0))
				return FA_ERR_NOMEM;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (pool_value(s, v, depth, &p) != 0 || (p != NULL &&
			    json_array_set(j, i, p) != 0))
				return FA_ERR_NOMEM;
	}
	return 0;
}

const char *
fa_obs_state_name(enum fa_obs_state s)
{
	return (unsigned)s < FA_OBS_MAX ? obs_state_names[s] : "?";
}

const char *
fa_fam_state_name(enum fa_fam_state s)
{
	return (unsigned)s < FA_FAMST_MAX ? fam_state_names[s] : "?";
}

int
fa_obs_state_parse(const char *s, enum fa_obs_state *out)
{
	int i;

	for (i = 0; s != NULL && i < FA_OBS_MAX; i++)
		if (strcmp(s, obs_state_names[i]) == 0) {
			*out = (enum fa_obs_state)i;
			return 0;
		}
	return FA_ERR_NOTFOUND;
}

int
fa_fam_state_parse(const char *s, enum fa_fam_state *out)
{
	int i;

	for (i = 0; s != NULL && i < FA_FAMST_MAX; i++)
		if (strcmp(s, fam_state_names[i]) == 0) {
			*out = (enum fa_fam_state)i;
			return 0;
		}
	return FA_ERR_NOTFOUND;
}

struct fa_snapshot *
fa_snapshot_new(void)
{
	struct fa_snapshot *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if ((s->meta = json_object()) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void
obs_clear(struct fa_obs *o)
{
	/* kind, target and reason belong to the snapshot's pool. */
	free(o->id);
	free(o->request);
	json_decref(o->data);
	if (o->memo_free != NULL)
		o->memo_free(o->memo);
	memset(o, 0, sizeof(*o));
}

void
fa_snapshot_free(struct fa_snapshot *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nobs; i++)
		obs_clear(&s->obs[i]);
	free(s->obs);
	for (i = 0; i < FA_FAM_MAX; i++)
		free(s->fam[i].reason);
	free(s->policy_name);
	free(s->policy_text);
	json_decref(s->meta);
	json_decref(s->pool);
	free(s);
}

int
fa_snapshot_set_family(struct fa_snapshot *s, enum fa_family f,
    enum fa_fam_state st, const char *reason)
{
	char *r = NULL;

	if ((unsigned)f >= FA_FAM_MAX || (unsigned)st >= FA_FAMST_MAX)
		return FA_ERR_INTERNAL;
	if (reason != NULL && (r = strdup(reason)) == NULL)
		return FA_ERR_NOMEM;
	free(s->fam[f].reason);
	s->fam[f].state = st;
	s->fam[f].reason = r;
	return 0;
}

int
fa_snapshot_set_policy(struct fa_snapshot *s, const char *name,
    const char *text)
{
	char *n = NULL, *t = NULL;

	if (name != NULL && ((n = strdup(name)) == NULL ||
	    (t = strdup(text != NULL ? text : "")) == NULL)) {
		free(n);
		return FA_ERR_NOMEM;
	}
	free(s->policy_name);
	free(s->policy_text);
	s->policy_name = n;
	s->policy_text = t;
	return 0;
}

static int obs_add(struct fa_snapshot *s, enum fa_family fam,
    const char *id, const char *kind, const char *target,
    const char *request, enum fa_obs_state st, const char *reason,
    json_t *data, const struct fa_obs **out);

/*
 * A writer's observation is held to the schema (obs_schema.h): one that
 * breaks it is fabaudit's bug, recorded as an error observation saying
 * so (data kept, for the report), never as something seen.
 */
int
fa_snapshot_add(struct fa_snapshot *s, enum fa_family fam, const char *id,
    const char *kind, const char *target, const char *request,
    enum fa_obs_state st, const char *reason, json_t *data,
    const struct fa_obs **out)
{
	char *why = NULL, *bug = NULL;
	int r;

	if (data == NULL && (data = json_object()) == NULL)
		return FA_ERR_NOMEM;
	if (fa_obs_validate(kind, fam, st, data, 0, &why) != 0) {
		bug = fa_strfmt("fabaudit bug: the observation breaks its "
		    "schema (%s)", why != NULL ? why : "out of memory");
		free(why);
		if (bug == NULL) {
			json_decref(data);
			return FA_ERR_NOMEM;
		}
		st = FA_OBS_ERROR;
		reason = bug;
	}
	r = obs_add(s, fam, id, kind, target, request, st, reason, data, out);
	free(bug);
	return r;
}

static int
obs_add(struct fa_snapshot *s, enum fa_family fam, const char *id,
    const char *kind, const char *target, const char *request,
    enum fa_obs_state st, const char *reason, json_t *data,
    const struct fa_obs **out)
{
	struct fa_obs o, *nv;
	size_t ncap;

	if (out != NULL)
		*out = NULL;
	memset(&o, 0, sizeof(o));
	if (data == NULL && (data = json_object()) == NULL)
		return FA_ERR_NOMEM;
	o.data = data;
	if (!json_is_object(data) || (unsigned)fam >= FA_FAM_MAX ||
	    (unsigned)st >= FA_OBS_MAX || kind == NULL) {
		obs_clear(&o);
		return FA_ERR_INTERNAL;
	}
	if (s->nobs >= FA_SNAPSHOT_MAX_OBS) {
		obs_clear(&o);
		return FA_ERR_TOOBIG;
	}
	o.family = fam;
	o.state = st;
	if (id != NULL)
		o.id = strdup(id);
	else
		o.id = fa_strfmt("%s#%zu", kind, s->nobs + 1);
	o.kind = pool_str(s, kind);
	o.target = pool_str(s, target != NULL ? target : "");
	o.request = strdup(request != NULL ? request : "");
	o.reason = reason != NULL ? pool_str(s, reason) : NULL;
	if (o.id == NULL || o.kind == NULL || o.target == NULL ||
	    o.request == NULL || (reason != NULL && o.reason == NULL) ||
	    pool_tree(s, data, 0) != 0)
		goto nomem;
	if (s->nobs == s->cap) {
		ncap = s->cap ? s->cap * 2 : 64;
		if ((nv = reallocarray(s->obs, ncap, sizeof(*nv))) == NULL)
			goto nomem;
		s->obs = nv;
		s->cap = ncap;
	}
	s->obs[s->nobs] = o;
	if (out != NULL)
		*out = &s->obs[s->nobs];
	s->nobs++;
	return 0;
nomem:
	obs_clear(&o);
	return FA_ERR_NOMEM;
}

void
fa_snapshot_flush(struct fa_snapshot *s)
{
	if (s->flush != NULL)
		s->flush(s, s->flush_arg);
}

int
fa_snapshot_move_obs(struct fa_snapshot *dst, struct fa_snapshot *src)
{
	if (dst->nobs > 0 || dst->obs != NULL || dst->pool != NULL)
		return FA_ERR_INTERNAL;
	dst->obs = src->obs;
	dst->nobs = src->nobs;
	dst->cap = src->cap;
	dst->pool = src->pool;
	src->obs = NULL;
	src->nobs = src->cap = 0;
	src->pool = NULL;
	return 0;
}

const struct fa_obs *
fa_snapshot_next(const struct fa_snapshot *s, const char *kind, size_t *iter)
{
	size_t i;

	for (i = *iter; i < s->nobs; i++)
		if (kind == NULL || strcmp(s->obs[i].kind, kind) == 0) {
			*iter = i + 1;
			return &s->obs[i];
		}
	*iter = s->nobs;
	return NULL;
}

const struct fa_obs *
fa_snapshot_find(const struct fa_snapshot *s, const char *kind,
    const char *target)
{
	size_t i;

	for (i = 0; i < s->nobs; i++)
		if (strcmp(s->obs[i].kind, kind) == 0 &&
		    strcmp(s->obs[i].target, target) == 0)
			return &s->obs[i];
	return NULL;
}

/* ---- secrets and typed getters ---------------------------------------- */

json_t *
fa_secret_new(uint64_t value)
{
	char hex[19];

	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)value);
	return json_pack("{s:b, s:s, s:b}", "secret", 1, "value", hex,
	    "zero", value == 0);
}

static int
is_secret(const json_t *j)
{
	return json_is_object(j) && json_is_true(json_object_get(j, "secret"));
}

/* Whether j holds a secret anywhere. */
static int
has_secret(const json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;

	if (is_secret(j))
		return 1;
	if (json_is_object(j)) {
		json_object_foreach((json_t *)j, k, v)
			if (has_secret(v))
				return 1;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (has_secret(v))
				return 1;
	}
	return 0;
}

/*
 * A copy of j with every secret's value redacted; with `share`, the parts
 * that hold no secret are j's own, counted once more, not copies.
 */
static json_t *
redact(const json_t *j, int share)
{
	json_t *c, *v, *cv;
	const char *k;
	size_t i;

	if (share && !has_secret(j))
		return json_incref((json_t *)j);
	if (json_is_object(j)) {
		if ((c = json_object()) == NULL)
			return NULL;
		json_object_foreach((json_t *)j, k, v) {
			if (is_secret(j) && strcmp(k, "value") == 0)
				cv = json_string(FA_REDACTED);
			else
				cv = redact(v, share);
			if (cv == NULL || json_object_set_new(c, k, cv) != 0) {
				json_decref(c);
				return NULL;
			}
		}
		return c;
	}
	if (json_is_array(j)) {
		if ((c = json_array()) == NULL)
			return NULL;
		json_array_foreach(j, i, v) {
			if ((cv = redact(v, share)) == NULL ||
			    json_array_append_new(c, cv) != 0) {
				json_decref(c);
				return NULL;
			}
		}
		return c;
	}
	return json_deep_copy(j);
}

/* Walk j, replacing each secret's value (see fa_json_redact_begin). */
static int
redact_walk(json_t *j, struct fa_redaction *r)
{
	json_t *v, **ns, **nv;
	const char *k;
	size_t i, cap;

	if (is_secret(j)) {
		if ((v = json_object_get(j, "value")) == NULL)
			return 0;
		if (r->n == r->cap) {
			cap = r->cap > 0 ? r->cap * 2 : 64;
			ns = realloc(r->secret, cap * sizeof(*ns));
			if (ns != NULL)
				r->secret = ns;
			nv = ns != NULL ? realloc(r->value, cap * sizeof(*nv)) :
			    NULL;
			if (nv == NULL)
				return FA_ERR_NOMEM;
			r->value = nv;
			r->cap = cap;
		}
		r->secret[r->n] = json_incref(j);
		r->value[r->n] = json_incref(v);
		r->n++;
		/* Replacing a member allocates nothing. */
		return json_object_set(j, "value", r->redacted) != 0 ?
		    FA_ERR_NOMEM : 0;
	}
	if (json_is_object(j)) {
		json_object_foreach(j, k, v)
			if (redact_walk(v, r) != 0)
				return FA_ERR_NOMEM;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (redact_walk(v, r) != 0)
				return FA_ERR_NOMEM;
	}
	return 0;
}

int
fa_json_redact_begin(json_t *j, struct fa_redaction *r)
{
	memset(r, 0, sizeof(*r));
	if ((r->redacted = json_string(FA_REDACTED)) == NULL)
		return FA_ERR_NOMEM;
	if (redact_walk(j, r) != 0) {
		fa_json_redact_end(r);
		return FA_ERR_NOMEM;
	}
	return 0;
}

void
fa_json_redact_end(struct fa_redaction *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		(void)json_object_set(r->secret[i], "value", r->value[i]);
		json_decref(r->value[i]);
		json_decref(r->secret[i]);
	}
	free(r->secret);
	free(r->value);
	json_decref(r->redacted);
	memset(r, 0, sizeof(*r));
}

json_t *
fa_json_redact(const json_t *j)
{
	return redact(j, 0);
}

json_t *
fa_json_redact_shared(const json_t *j)
{
	return redact(j, 1);
}

int
fa_json_get_u64(const json_t *obj, const char *key, uint64_t *out)
{
	const json_t *v = json_object_get(obj, key);

	if (v == NULL)
		return FA_ERR_NOTFOUND;
	if (!json_is_string(v))
		return FA_ERR_INPUT;
	return fa_parse_hex64(json_string_value(v), out, NULL);
}

int
fa_json_get_int(const json_t *obj, const char *key, long long min,
    long long max, long long *out)
{
	const json_t *v = json_object_get(obj, key);
	json_int_t n;

	if (v == NULL)
		return FA_ERR_NOTFOUND;
	if (!json_is_integer(v))
		return FA_ERR_INPUT;
	n = json_integer_value(v);
	if (n < min || n > max)
		return FA_ERR_INPUT;
	*out = n;
	return 0;
}

int
fa_json_get_bool(const json_t *obj, const char *key, int *out)
{
	const json_t *v = json_object_get(obj, key);

	if (v == NULL)
		return FA_ERR_NOTFOUND;
	if (!json_is_boolean(v))
		return FA_ERR_INPUT;
	*out = json_is_true(v);
	return 0;
}

const char *
fa_json_get_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

json_t *
fa_json_stringf(const char *fmt, ...)
{
	va_list ap;
	char *m = NULL;
	json_t *j;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&m, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	j = json_string(m);
	free(m);
	return j;
}

int
fa_json_set_u64(json_t *obj, const char *key, uint64_t v)
{
	char hex[19];

	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)v);
	return json_object_set_new(obj, key, json_string(hex)) == 0 ?
	    0 : FA_ERR_NOMEM;
}

/* ---- serialisation ---------------------------------------------------- */

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

json_t *
fa_snapshot_head_json(const struct fa_snapshot *s, int reveal)
{
	json_t *root, *fams, *o;
	int f;

	(void)reveal;	/* nothing secret outside the observations */
	root = json_object();
	fams = json_object();
	if (root == NULL || fams == NULL)
		goto fail;
	if (json_object_set_new(root, "schema",
	    json_string(FA_SNAPSHOT_SCHEMA)) != 0 ||
	    json_object_update(root, s->meta) != 0)
		goto fail;
	for (f = 0; f < FA_FAM_MAX; f++) {
		o = json_pack("{s:s, s:o}", "state",
		    fa_fam_state_name(s->fam[f].state), "reason",
		    str_or_null(s->fam[f].reason));
		if (o == NULL || json_object_set_new(fams,
		    fa_family_name((enum fa_family)f), o) != 0)
			goto fail;
	}
	if (json_object_set_new(root, "families", fams) != 0) {
		fams = NULL;
		goto fail;
	}
	fams = NULL;
	if (s->policy_name != NULL)
		o = json_pack("{s:s, s:s}", "name", s->policy_name, "text",
		    s->policy_text != NULL ? s->policy_text : "");
	else
		o = json_null();
	if (o == NULL || json_object_set_new(root, "policy", o) != 0 ||
	    json_object_set_new(root, "observations", json_array()) != 0)
		goto fail;
	return root;
fail:
	json_decref(root);
	json_decref(fams);
	return NULL;
}

json_t *
fa_snapshot_obs_json(const struct fa_snapshot *s, size_t i, int reveal)
{
	const struct fa_obs *ob = &s->obs[i];
	json_t *data;

	/* Shared with the snapshot, not copied: written, not changed. */
	data = reveal ? json_incref(ob->data) : fa_json_redact_shared(ob->data);
	if (data == NULL)
		return NULL;
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o}",
	    "id", ob->id, "family", fa_family_name(ob->family),
	    "kind", ob->kind, "target", ob->target,
	    "request", ob->request, "state", fa_obs_state_name(ob->state),
	    "reason", str_or_null(ob->reason), "data", data);
}

json_t *
fa_snapshot_to_json(const struct fa_snapshot *s, int reveal)
{
	json_t *root, *arr;
	size_t i;

	if ((root = fa_snapshot_head_json(s, reveal)) == NULL)
		return NULL;
	arr = json_object_get(root, "observations");
	for (i = 0; i < s->nobs; i++)
		if (json_array_append_new(arr, fa_snapshot_obs_json(s, i,
		    reveal)) != 0) {
			json_decref(root);
			return NULL;
		}
	return root;
}

/* A string member that may be absent or null; bounded length. */
static int
opt_str(const json_t *o, const char *key, const char **out)
{
	const json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) > MAX_STR ||
	    strlen(json_string_value(v)) != json_string_length(v))
		return FA_ERR_INPUT;
	*out = json_string_value(v);
	return 0;
}

static int
req_str(const json_t *o, const char *key, const char **out)
{
	if (opt_str(o, key, out) != 0 || *out == NULL)
		return FA_ERR_INPUT;
	return 0;
}

int
fa_snapshot_head_from_json(const json_t *j, struct fa_snapshot **out,
    char **why)
{
	struct fa_snapshot *s = NULL;
	const json_t *fams, *pol, *o, *v;
	const char *schema, *state, *reason, *pname, *ptext;
	enum fa_fam_state fst;
	int f, r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (!json_is_object(j))
		return fa_why(why, "not a JSON object");
	/*
	 * Versioned: a snapshot of another version of the format (a later
	 * fabaudit's, "fabaudit-snapshot/2") is refused naming both, never
	 * read as if it were this one.
	 */
	if (req_str(j, "schema", &schema) != 0)
		return fa_why(why, "no member 'schema' (\"%s\")",
		    FA_SNAPSHOT_SCHEMA);
	if (strncmp(schema, "fabaudit-snapshot/", 18) == 0 &&
	    strcmp(schema, FA_SNAPSHOT_SCHEMA) != 0)
		return fa_why(why, "snapshot format %.40s%s: this fabaudit "
		    "reads %s only", schema, strlen(schema) > 40 ? "..." : "",
		    FA_SNAPSHOT_SCHEMA);
	if (strcmp(schema, FA_SNAPSHOT_SCHEMA) != 0)
		return fa_why(why, "member 'schema' is not \"%s\"",
		    FA_SNAPSHOT_SCHEMA);
	if ((s = fa_snapshot_new()) == NULL)
		return FA_ERR_NOMEM;
	r = FA_ERR_NOMEM;
	if ((v = json_object_get(j, "tool")) != NULL) {
		if (!json_is_object(v)) {
			r = fa_why(why, "member 'tool' is not an object");
			goto fail;
		}
		if (json_object_set_new(s->meta, "tool",
		    json_deep_copy(v)) != 0)
			goto fail;
	}
	if ((v = json_object_get(j, "scan")) != NULL) {
		if (!json_is_object(v)) {
			r = fa_why(why, "member 'scan' is not an object");
			goto fail;
		}
		if (json_object_set_new(s->meta, "scan",
		    json_deep_copy(v)) != 0)
			goto fail;
	}
	fams = json_object_get(j, "families");
	if (!json_is_object(fams)) {
		r = fa_why(why, "member 'families' is missing or not an object");
		goto fail;
	}
	for (f = 0; f < FA_FAM_MAX; f++) {
		o = json_object_get(fams, fa_family_name((enum fa_family)f));
		if (o == NULL)
			continue;
		if (!json_is_object(o) || req_str(o, "state", &state) != 0 ||
		    fa_fam_state_parse(state, &fst) != 0 ||
		    opt_str(o, "reason", &reason) != 0) {
			r = fa_why(why, "families.%s is malformed",
			    fa_family_name((enum fa_family)f));
			goto fail;
		}
		if ((r = fa_snapshot_set_family(s, (enum fa_family)f, fst,
		    reason)) != 0)
			goto fail;
	}
	pol = json_object_get(j, "policy");
	if (pol != NULL && !json_is_null(pol)) {
		if (!json_is_object(pol) || req_str(pol, "name", &pname) != 0 ||
		    !json_is_string(json_object_get(pol, "text")) ||
		    json_string_length(json_object_get(pol, "text")) > 1024 * 1024) {
			r = fa_why(why, "member 'policy' is malformed");
			goto fail;
		}
		ptext = json_string_value(json_object_get(pol, "text"));
		if (strlen(ptext) != json_string_length(json_object_get(pol,
		    "text"))) {
			r = fa_why(why, "member 'policy.text' holds a NUL byte");
			goto fail;
		}
		if ((r = fa_snapshot_set_policy(s, pname, ptext)) != 0)
			goto fail;
	}
	*out = s;
	return 0;
fail:
	fa_snapshot_free(s);
	return r;
}

int
fa_snapshot_obs_take(struct fa_snapshot *s, const struct fa_obs *o,
    size_t i, char **why)
{
	char *what = NULL;
	int r;

	if (s->nobs >= FA_SNAPSHOT_MAX_OBS) {
		json_decref(o->data);
		return fa_why(why, "too many observations");
	}
	if (o->id == NULL || o->kind == NULL || o->target == NULL ||
	    o->request == NULL || (unsigned)o->family >= FA_FAM_MAX ||
	    (unsigned)o->state >= FA_OBS_MAX || !json_is_object(o->data) ||
	    strlen(o->id) > MAX_STR || strlen(o->kind) > MAX_STR ||
	    strlen(o->target) > MAX_STR || strlen(o->request) > MAX_STR ||
	    (o->reason != NULL && strlen(o->reason) > MAX_STR)) {
		json_decref(o->data);
		return fa_why(why, "observations[%zu] is malformed", i);
	}
	/* Only what the schema declares (obs_schema.h). */
	if ((r = fa_obs_validate(o->kind, o->family, o->state, o->data, 0,
	    &what)) != 0) {
		if (r == FA_ERR_INPUT)
			r = fa_why(why, "observations[%zu] (id %.64s): %s", i,
			    o->id, what != NULL ? what : "breaks the schema");
		free(what);
		json_decref(o->data);
		return r;
	}
	return obs_add(s, o->family, o->id, o->kind, o->target, o->request,
	    o->state, o->reason, o->data, NULL);
}

int
fa_snapshot_obs_from_json(struct fa_snapshot *s, const json_t *o, size_t i,
    char **why)
{
	const char *id, *fam, *kind, *target, *request, *state, *reason;
	struct fa_obs ob;

	if (why != NULL)
		*why = NULL;
	if (s->nobs >= FA_SNAPSHOT_MAX_OBS)
		return fa_why(why, "too many observations");
	memset(&ob, 0, sizeof(ob));
	if (!json_is_object(o) || req_str(o, "id", &id) != 0 ||
	    req_str(o, "family", &fam) != 0 ||
	    fa_family_parse(fam, &ob.family) != 0 ||
	    req_str(o, "kind", &kind) != 0 ||
	    req_str(o, "target", &target) != 0 ||
	    req_str(o, "request", &request) != 0 ||
	    req_str(o, "state", &state) != 0 ||
	    fa_obs_state_parse(state, &ob.state) != 0 ||
	    opt_str(o, "reason", &reason) != 0 ||
	    !json_is_object(json_object_get(o, "data")))
		return fa_why(why, "observations[%zu] is malformed", i);
	ob.id = (char *)id;
	ob.kind = kind;
	ob.target = target;
	ob.request = (char *)request;
	ob.reason = reason;
	/* Shared with o, not copied: it outlives o by its count. */
	ob.data = json_incref(json_object_get(o, "data"));
	return fa_snapshot_obs_take(s, &ob, i, why);
}

int
fa_snapshot_from_json(const json_t *j, struct fa_snapshot **out, char **why)
{
	struct fa_snapshot *s = NULL;
	const json_t *arr, *o;
	size_t i;
	int r;

	if ((r = fa_snapshot_head_from_json(j, &s, why)) != 0)
		return r;
	arr = json_object_get(j, "observations");
	if (!json_is_array(arr)) {
		r = fa_why(why, "member 'observations' is missing or not an array");
		goto fail;
	}
	if (json_array_size(arr) > FA_SNAPSHOT_MAX_OBS) {
		r = fa_why(why, "too many observations");
		goto fail;
	}
	json_array_foreach(arr, i, o)
		if ((r = fa_snapshot_obs_from_json(s, o, i, why)) != 0)
			goto fail;
	*out = s;
	return 0;
fail:
	fa_snapshot_free(s);
	return r;
}

int
fa_snapshot_check_required(struct fa_snapshot *s, size_t *marked)
{
	struct fa_obs *o;
	char *why, *bug;
	size_t i;

	*marked = 0;
	for (i = 0; i < s->nobs; i++) {
		o = &s->obs[i];
		why = NULL;
		if (fa_obs_validate(o->kind, o->family, o->state, o->data,
		    FA_VAL_REQUIRED, &why) == 0)
			continue;
		bug = fa_strfmt("fabaudit bug: the observation breaks its "
		    "schema (%s)", why != NULL ? why : "out of memory");
		free(why);
		if (bug == NULL || (o->reason = pool_str(s, bug)) == NULL) {
			free(bug);
			return FA_ERR_NOMEM;
		}
		free(bug);
		o->state = FA_OBS_ERROR;
		(*marked)++;
	}
	return 0;
}
