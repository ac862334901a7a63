/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The snapshot: every observation a scan made, the state of each family's
 * collection, the scan metadata and the policy text.  It is the seam between
 * acquisition (fabric/), evaluation (checks/) and rendering (reports/), and
 * is saved as snapshot.json so that `fabaudit check` can re-evaluate it.
 *
 * An observation records what was asked of whom and what came back, or why
 * nothing did.  Its decoded payload is a jansson object ("data"), so that
 * new families add observation kinds without changing this model.
 *
 * Secrets (keys) inside data are stored as objects made by fa_secret_new():
 * {"secret": true, "value": "0x...", "zero": bool, ...facts}.  Writers
 * replace "value" by "<redacted>" unless secrets are to be revealed; checks
 * decide from the facts, so a redacted snapshot evaluates the same.
 */
#ifndef FA_SNAPSHOT_H
#define FA_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "model.h"

#define FA_REDACTED	"<redacted>"
#define FA_SNAPSHOT_SCHEMA	"fabaudit-snapshot/1"
#define FA_SNAPSHOT_MAX_BYTES	(128u * 1024 * 1024)
#define FA_SNAPSHOT_MAX_OBS	(16u * 1024 * 1024)

/* enum fa_obs_state: model.h. */

enum fa_fam_state {
	FA_FAMST_NOT_REQUESTED = 0,	/* not part of this scan */
	FA_FAMST_COLLECTED,		/* acquisition ran */
	FA_FAMST_UNAVAILABLE,		/* requested or probed, not usable */
	FA_FAMST_FAILED,		/* acquisition started and failed */
	FA_FAMST_MAX
};

struct fa_obs {
	char		*id;		/* unique in the snapshot */
	enum fa_family	 family;
	const char	*kind;		/* e.g. "ib.smp.sminfo" (pooled) */
	const char	*target;	/* whom it was asked of (pooled) */
	char		*request;	/* what was sent, human readable */
	enum fa_obs_state state;
	const char	*reason;	/* why not complete; NULL when complete
					 * (pooled) */
	json_t		*data;		/* decoded payload; an object, never NULL */
	/*
	 * A reader's decoded view of data, built once on first use and freed
	 * with the observation by memo_free (checks/ib_topo.c: the
	 * topology's ports).  Data does not change once the snapshot is
	 * whole, so the view stays true; NULL until built.
	 */
	void		*memo;
	void		(*memo_free)(void *);
};

struct fa_fam_status {
	enum fa_fam_state state;
	char		*reason;	/* NULL when collected */
};

struct fa_snapshot {
	json_t		*meta;		/* {"tool":{...},"scan":{...}} */
	struct fa_fam_status fam[FA_FAM_MAX];
	char		*policy_name;	/* NULL when the scan had no policy */
	char		*policy_text;
	struct fa_obs	*obs;
	size_t		 nobs;
	size_t		 cap;
	json_t		*pool;		/* interned strings, see snapshot.c */
	/* What fa_snapshot_flush() calls; NULL: nothing. */
	void		(*flush)(struct fa_snapshot *s, void *arg);
	void		*flush_arg;
};

const char *fa_obs_state_name(enum fa_obs_state s);
int fa_obs_state_parse(const char *s, enum fa_obs_state *out);
const char *fa_fam_state_name(enum fa_fam_state s);
int fa_fam_state_parse(const char *s, enum fa_fam_state *out);

/* New empty snapshot (meta = {}), or NULL on ENOMEM. */
struct fa_snapshot *fa_snapshot_new(void);
void fa_snapshot_free(struct fa_snapshot *s);

int fa_snapshot_set_family(struct fa_snapshot *s, enum fa_family f,
    enum fa_fam_state st, const char *reason);
int fa_snapshot_set_policy(struct fa_snapshot *s, const char *name,
    const char *text);

/*
 * The observations added so far are final: hand them to s->flush, if set.
 * The acquisition child sends them to the parent at once, which reads
 * them while the scan goes on (scanner/privsep.c).  The hook keeps its
 * own errors.
 */
void fa_snapshot_flush(struct fa_snapshot *s);

/*
 * Move src's observations (with the strings they share) to dst, which
 * has none; src keeps its head and is left without observations.  For
 * observations that arrive before their snapshot's head.  0, or
 * FA_ERR_INTERNAL when dst has observations.
 */
int fa_snapshot_move_obs(struct fa_snapshot *dst, struct fa_snapshot *src);

/*
 * Append an observation.  Strings are copied; `data` is stolen (the snapshot
 * owns it even on failure; NULL means an empty object).  `reason` may be
 * NULL.  The id is made unique by the snapshot ("<kind>#<n>") when `id` is
 * NULL.  On success *out (if not NULL) points at the stored observation,
 * valid until the next append.
 */
int fa_snapshot_add(struct fa_snapshot *s, enum fa_family fam,
    const char *id, const char *kind, const char *target, const char *request,
    enum fa_obs_state st, const char *reason, json_t *data,
    const struct fa_obs **out);

/* Next observation of `kind` after index *iter (start with 0); NULL at end. */
const struct fa_obs *fa_snapshot_next(const struct fa_snapshot *s,
    const char *kind, size_t *iter);
/* First observation of `kind` whose target equals `target`, or NULL. */
const struct fa_obs *fa_snapshot_find(const struct fa_snapshot *s,
    const char *kind, const char *target);

/* Serialise.  reveal != 0 keeps secret values.  NULL on ENOMEM. */
json_t *fa_snapshot_to_json(const struct fa_snapshot *s, int reveal);
/*
 * The same in parts, to write a large snapshot observation by observation:
 * everything but the observations (an empty "observations" array), and
 * observation i's object (sharing its data with s: not to be changed).
 */
json_t *fa_snapshot_head_json(const struct fa_snapshot *s, int reveal);
json_t *fa_snapshot_obs_json(const struct fa_snapshot *s, size_t i,
    int reveal);
/*
 * Rebuild from JSON.  Every field is checked (types, enums, sizes); on
 * failure returns FA_ERR_INPUT with *why (if not NULL) a new string naming
 * the offending member.
 */
int fa_snapshot_from_json(const json_t *j, struct fa_snapshot **out,
    char **why);
/*
 * The same in parts, for a snapshot that arrives one observation at a
 * time: everything but the observations (a member 'observations' is not
 * looked at), then each observation i (the same checks, the same errors).
 */
int fa_snapshot_head_from_json(const json_t *j, struct fa_snapshot **out,
    char **why);
int fa_snapshot_obs_from_json(struct fa_snapshot *s, const json_t *o,
    size_t i, char **why);
/*
 * The same for an observation already in parts (core/snapwire.c): o's
 * strings are copied, o->data is stolen (even on failure).  The same
 * checks (lengths, family and state in range, the schema) and errors
 * naming observations[i].
 */
int fa_snapshot_obs_take(struct fa_snapshot *s, const struct fa_obs *o,
    size_t i, char **why);

/*
 * Before a scan's snapshot is written: each complete observation that
 * lacks a field the schema says this version always writes
 * (core/obs_schema.h) is fabaudit's bug, and becomes an error
 * observation saying so.  *marked counts them.  0 or FA_ERR_NOMEM.
 */
int fa_snapshot_check_required(struct fa_snapshot *s, size_t *marked);

/* A secret value with its facts; NULL on ENOMEM. */
json_t *fa_secret_new(uint64_t value);
/*
 * Redact j in place for a while: every secret's "value" is replaced by
 * FA_REDACTED until fa_json_redact_end() puts the values back (for
 * writing a large observation without copying it).  0, or FA_ERR_NOMEM
 * with j as it was.
 */
struct fa_redaction {
	json_t	**secret, **value;	/* each secret changed, its value */
	size_t	  n, cap;
	json_t	 *redacted;		/* the FA_REDACTED string they share */
};
int fa_json_redact_begin(json_t *j, struct fa_redaction *r);
void fa_json_redact_end(struct fa_redaction *r);

/* Deep copy of j with every secret's "value" replaced by FA_REDACTED. */
json_t *fa_json_redact(const json_t *j);
/*
 * The same, but sharing with j every part that holds no secret (j itself,
 * counted once more, when it holds none): for output only, never to be
 * changed.
 */
json_t *fa_json_redact_shared(const json_t *j);

/*
 * Typed getters on observation data.  Each returns 0 on success, or
 * FA_ERR_NOTFOUND when the member is missing, FA_ERR_INPUT when it has the
 * wrong type or range.  64-bit quantities (GUIDs, keys) are stored as
 * "0x%016" strings, since JSON integers are signed.
 */
int fa_json_get_u64(const json_t *obj, const char *key, uint64_t *out);
int fa_json_get_int(const json_t *obj, const char *key, long long min,
    long long max, long long *out);
int fa_json_get_bool(const json_t *obj, const char *key, int *out);
const char *fa_json_get_str(const json_t *obj, const char *key);
/* A new JSON string formatted like printf; NULL on ENOMEM. */
json_t *fa_json_stringf(const char *fmt, ...)
    __attribute__((__format__(__printf__, 1, 2)));
/* Store v as a "0x%016" string; returns 0 or FA_ERR_NOMEM. */
int fa_json_set_u64(json_t *obj, const char *key, uint64_t v);

#endif
