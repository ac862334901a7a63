/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cross-tenant checks from the SA's PathRecords to every other CA port.
 * OpenSM returns a path only when both ends share a partition in which at
 * least one of them is a full member (osm_sa_path_record.c; IBA vol. 1
 * 10.9.3), so a path to a foreign port is evidence that the two can talk.
 * SMP visibility alone is not: SMPs are never P_Key-checked.
 *
 * The P_Key tables read by SMP from every other CA port (SMPs are not
 * partition-checked) give the same answer from the other side: two ports
 * share a partition when a P_Key base is in both tables and at least one
 * of the two entries is full (IBA vol. 1 10.9.3).
 *
 * IB-XTENANT-REACHABLE  one result per foreign port the SA gave a path to,
 *                       or whose P_Key table shares a partition with ours.
 * IB-PKEY-SHARED        one result per P_Key shared with foreign ports.
 *
 * A port whose NodeDescription went unanswered and that no policy GUID
 * names is of unknown owner (ib_topo.h): never counted as foreign, it
 * makes a result not_tested when the verdict depends on it.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_portobs.h"
#include "ib_topo.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

#define SMP_NOTE	"SMP discovery sees every port regardless of " \
			"partitions; only the SA path is evidence of reachability"

struct pr_walk {
	struct fa_ib_walk	 at;		/* zeroed to start */
	struct fa_ib_pr		 pr;
	struct fa_ib_port_ref	 ref;
	enum fa_ib_owner	 own;		/* FOREIGN or UNKNOWN */
	long long		 records;	/* read, when seen_paths() */
};

/* Foreign, or possibly foreign: what these checks look at. */
static int
candidate(enum fa_ib_owner own)
{
	return own == FA_OWN_FOREIGN || own == FA_OWN_UNKNOWN;
}

/*
 * Next PathRecord observation about a foreign or unknown-owner port; 1, 0
 * at end, FA_ERR_INPUT on a malformed observation or topology.
 */
/*
 * A PathRecord observation whose records were read: answered whole, or
 * cut (no RMPP, more paths than one MAD holds) after some records, which
 * are paths all the same (ib_sa.c keeps them).
 */
static int
seen_paths(const struct fa_ib_pr *pr)
{
	return pr->state == FA_OBS_COMPLETE ||
	    (pr->state == FA_OBS_INCOMPLETE && pr->have_records);
}

/* Lost: no records read, so nothing is known of its paths. */
static int
pr_lost(const struct pr_walk *w)
{
	return w->pr.state != FA_OBS_COMPLETE && w->records == 0;
}

static int
next_foreign(const struct fa_eval_ctx *ctx, const struct fa_obs *topo,
    const struct fa_ib_port_index *ix, uint64_t self, struct pr_walk *w)
{
	int r;

	while ((r = fa_ib_next_pr(ctx->snap, &w->at, &w->pr)) == 1) {
		/* a malformed port hides the rest */
		if ((r = fa_ib_find_port(topo, ix, w->pr.port_guid,
		    &w->ref)) < 0)
			return FA_ERR_INPUT;
		if (r == 0)
			continue;	/* not a port discovery saw */
		/* A cut answer keeps the records it read: each is a path. */
		w->records = 0;
		if (seen_paths(&w->pr)) {
			if (!w->pr.have_records)
				return FA_ERR_INPUT;
			w->records = w->pr.records;
			if (w->records > 0 && !json_is_array(w->pr.pkeys))
				return FA_ERR_INPUT;
		}
		if (candidate(w->own = fa_ib_owner(ctx, &w->ref, self)))
			return 1;
	}
	return r < 0 ? FA_ERR_INPUT : 0;
}

/*
 * The positive control: the SA returned a path to some port (the SM's, a
 * tenant's), so it hands paths to us at all and an empty answer about a
 * foreign port means something.
 */
static const struct fa_ib_pr *
control_path(const struct fa_eval_ctx *ctx, struct fa_ib_pr *pr)
{
	struct fa_ib_walk at;

	memset(&at, 0, sizeof(at));
	while (fa_ib_next_pr(ctx->snap, &at, pr) == 1)
		if (pr->state == FA_OBS_COMPLETE && pr->have_records &&
		    pr->records > 0)
			return pr;
	return NULL;
}

static int
sa_gave_any_path(const struct fa_eval_ctx *ctx)
{
	struct fa_ib_pr pr;

	return control_path(ctx, &pr) != NULL;
}

/*
 * The evidence of a pass: the foreign ports asked about and the SA's
 * answer that makes their empty answers mean something (a path it did
 * return, the control).  NULL when out of memory.
 */
static json_t *
pass_evidence(const struct fa_eval_ctx *ctx, size_t foreign, size_t unknown)
{
	struct fa_ib_pr pr;
	json_t *ev = json_array();

	if (ev == NULL || fa_evidence_add(ev, fa_evidence(NULL,
	    "foreign_ports_asked", json_pack("{s:I, s:I}", "foreign",
	    (json_int_t)foreign, "description_unanswered",
	    (json_int_t)unknown))) != 0)
		goto nomem;
	if (control_path(ctx, &pr) != NULL && fa_evidence_add(ev,
	    fa_evidence(pr.o, "control_records",
	    json_integer(pr.records))) != 0)
		goto nomem;
	return ev;
nomem:
	json_decref(ev);
	return NULL;
}

#define MAX_PKEYS	2048

/*
 * The P_Keys of a table ("0x%04x" strings), parsed: the count, or
 * FA_ERR_INPUT (no array, or an entry not a 16-bit value) or FA_ERR_TOOBIG
 * (more than MAX_PKEYS entries).  An entry whose base (low 15 bits) is 0
 * names no partition and matches nothing (IBA vol. 1 10.9.1): it is left
 * out.
 */
static int
pkeys_of(const json_t *a, uint16_t *out)
{
	const json_t *v;
	uint64_t pk;
	size_t i;
	int n = 0;

	if (!json_is_array(a))
		return FA_ERR_INPUT;
	if (json_array_size(a) > MAX_PKEYS)
		return FA_ERR_TOOBIG;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v) || fa_parse_u64(json_string_value(v), 0,
		    0xffff, &pk, NULL) != 0)
			return FA_ERR_INPUT;
		if ((pk & 0x7fff) != 0)
			out[n++] = (uint16_t)pk;
	}
	return n;
}

/*
 * The tenant port's own table: count, 0 if absent, or as pkeys_of() (a
 * negative FA_ERR_*) if malformed.
 */
static int
local_pkeys(const struct fa_eval_ctx *ctx, uint16_t *out)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0;

	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_PKEYS, &it))) {
		role = fa_obs_str(o, FA_F(IB_PKEYS, role));
		if (role != NULL && strcmp(role, "local") == 0 &&
		    (o->state == FA_OBS_COMPLETE ||
		    o->state == FA_OBS_INCOMPLETE))
			return pkeys_of(fa_obs_arr(o, FA_F(IB_PKEYS, pkeys)),
			    out);
	}
	return 0;
}

/* Whether the policy's tenant_pkey names the partition of this base. */
static int
tenant_part(const struct fa_policy *p, uint16_t base)
{
	size_t i;

	for (i = 0; p != NULL && i < p->n_tenant_pkey; i++)
		if ((p->tenant_pkey[i].value & 0x7fff) == (base & 0x7fffu))
			return 1;
	return 0;
}

/*
 * The partitions a remote table shares with ours, one "0x%04x" string
 * per base, written with the membership bit set: 0 with *out a new array,
 * FA_ERR_INPUT on a malformed table (whatever pkeys_of() found), or
 * FA_ERR_NOMEM.  Shared: the base is in both tables with a full member on
 * one side (IBA vol. 1 10.9.3), or, with pol, it is the base of a
 * tenant_pkey partition, whatever either membership: a foreign member of
 * the tenant's own partition meets every full member of it.
 */
static int
shared_with(const uint16_t *mine, int nmine, const json_t *pkeys,
    const struct fa_policy *pol, json_t **out)
{
	uint16_t theirs[MAX_PKEYS];
	json_t *a;
	char hex[8];
	int n, i, k, hit;

	*out = NULL;
	if ((n = pkeys_of(pkeys, theirs)) < 0)
		return FA_ERR_INPUT;
	if ((a = json_array()) == NULL)
		return FA_ERR_NOMEM;
	for (k = 0; k < n; k++) {
		hit = tenant_part(pol, theirs[k]);
		for (i = 0; i < nmine && !hit; i++)
			hit = (mine[i] & 0x7fff) == (theirs[k] & 0x7fff) &&
			    ((mine[i] | theirs[k]) & 0x8000);
		if (!hit)
			continue;
		/* Once per base. */
		for (i = 0; i < k && (theirs[i] & 0x7fff) !=
		    (theirs[k] & 0x7fff); i++)
			;
		if (i < k)
			continue;
		snprintf(hex, sizeof(hex), "0x%04x",
		    (unsigned)(uint16_t)(theirs[k] | 0x8000));
		if (json_array_append_new(a, json_string(hex)) != 0) {
			json_decref(a);
			return FA_ERR_NOMEM;
		}
	}
	*out = a;
	return 0;
}

/*
 * Next remote P_Key table of a foreign or unknown-owner port; 1 with *t,
 * *ref, *own and *shared (new array) set, 0 at the end, FA_ERR_INPUT on
 * malformed data, or FA_ERR_NOMEM.
 */
static int
next_foreign_table(const struct fa_eval_ctx *ctx, const struct fa_obs *topo,
    const struct fa_ib_port_index *ix, uint64_t self, const uint16_t *mine,
    int nmine, const struct fa_policy *pol, struct fa_ib_walk *at,
    struct fa_ib_table *t, struct fa_ib_port_ref *ref,
    enum fa_ib_owner *own, json_t **shared)
{
	int r;

	/* Tables read by SMP, or through the SA with its default key. */
	while ((r = fa_ib_next_table(ctx->snap, at, t)) == 1) {
		if ((r = fa_ib_find_port(topo, ix, t->port_guid, ref)) < 0)
			return FA_ERR_INPUT;
		if (r == 0 || !candidate(*own = fa_ib_owner(ctx, ref, self)))
			continue;
		if ((r = shared_with(mine, nmine, t->pkeys, pol, shared)) != 0)
			return r;
		return 1;
	}
	return r < 0 ? FA_ERR_INPUT : 0;
}

/* Append {field: v} to *ev; v is consumed; *ev becomes NULL on ENOMEM. */
static void
ev_put(json_t **ev, const struct fa_obs *o, const char *field, json_t *v)
{
	if (*ev == NULL) {
		json_decref(v);
		return;
	}
	if (fa_evidence_add(*ev, fa_evidence(o, field, v)) != 0) {
		json_decref(*ev);
		*ev = NULL;
	}
}

/*
 * The PathRecord query between the tenant port and a port, as
 * infiniband-diags takes it: saquery ignores positional LIDs for PR and
 * dumps the table, so source and destination go in --slid and --dlid;
 * pk > 0 adds --pkey.
 */
static json_t *
pr_cmd(long long own_lid, long long lid, int pk)
{
	char pks[24] = "";

	if (pk > 0)
		snprintf(pks, sizeof(pks), " --pkey 0x%04x", (unsigned)pk);
	if (own_lid > 0)
		return fa_json_stringf("saquery PR --slid %lld --dlid %lld%s",
		    own_lid, lid, pks);
	return fa_json_stringf("saquery PR --dlid %lld%s", lid, pks);
}

/* The command that reads a remote table again, as fabaudit read it. */
static json_t *
table_cmd(const struct fa_ib_table *t, long long lid)
{
	if (!t->by_sa)
		return fa_json_stringf("smpquery pkeys %lld", lid);
	/* OpenSM's default SA_Key is 1 (osm_subnet.c); PKTR takes a LID. */
	return fa_json_stringf("saquery --smkey 1 PKTR %lld", lid);
}

#define UNKNOWN_OWNER							\
	"its NodeDescription went unanswered and no tenant_guid, "	\
	"provider_guid or sm_guid names it: whose it is is unknown, so it " \
	"is not counted as foreign"

/*
 * A would-be pass or not_applicable rests on every port having been
 * seen: with ports whose peer never answered discovery, not_tested
 * naming them (1), or 0 when there are none, or FA_ERR_*.
 */
static int
unseen(const struct fa_check *c, const struct fa_obs *topo,
    struct fa_results *out, size_t foreign, size_t unknown)
{
	char *seen = foreign + unknown == 0 ? fa_strdup("discovery found no "
	    "foreign CA port") : fa_strfmt("none of the %zu foreign and %zu "
	    "unknown-owner CA port(s) discovery found shares a partition "
	    "with the tenant port", foreign, unknown);
	int r;

	if (seen == NULL)
		return FA_ERR_NOMEM;
	r = fa_ib_unexplored_gate(c, topo, out, seen);
	free(seen);
	return r;
}

static int
any_pr(const struct fa_eval_ctx *ctx)
{
	return fa_ib_any_pr(ctx->snap);
}

/* No PathRecord was asked: not_tested, saying what discovery missed. */
static int
no_pr(const struct fa_check *c, struct fa_results *out,
    const struct fa_obs *topo)
{
	if (topo->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no PathRecord was asked of the SA, and the other "
		    "sources found no shared partition: that proves nothing, "
		    "the less as discovery did not observe the whole fabric "
		    "(%s)", fa_obs_reason(topo));
	return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL, NULL,
	    "no PathRecord was asked of the SA, and the other sources found "
	    "no shared partition: that proves nothing");
}

static int
prelude(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, const struct fa_obs **topo,
    struct fa_ib_port_index *ix, uint64_t *self)
{
	const struct fa_obs *local;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r;
	local = fa_ib_local_obs(ctx->snap);
	*topo = fa_ib_topology(ctx->snap);
	if (local == NULL || *topo == NULL ||
	    fa_obs_u64(local, FA_F(IB_LOCAL, node_guid), self) != 0) {
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "discovery did not complete: foreign ports unknown");
		return r < 0 ? r : 1;
	}
	if ((r = fa_ib_index_build(*topo, ix)) == FA_ERR_NOMEM)
		return r;
	if (r != 0) {
		r = fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed topology observation");
		return r < 0 ? r : 1;
	}
	return 0;
}

static const char *
table_source(const struct fa_ib_table *t)
{
	return !t->by_sa ?
	    "its P_Key table (read by SMP) shares a partition with ours, with "
	    "a full member" : "its P_Key table (read through the SA with "
	    "OpenSM's default SA_Key) shares a partition with ours, with a "
	    "full member";
}

/*
 * The port GUIDs a check has reported, so that a foreign port seen by
 * several sources is reported once: appended unsorted, then sorted once,
 * then kept sorted by insertion (a search per port, not a pass over the
 * results, which made a 10,000-port fabric quadratic).
 */
struct seen {
	uint64_t	*v;
	size_t		 n, cap;
};

static int
seen_push(struct seen *s, uint64_t guid)
{
	uint64_t *nv;
	size_t cap;

	if (s->n == s->cap) {
		cap = s->cap > 0 ? s->cap * 2 : 64;
		if ((nv = realloc(s->v, cap * sizeof(*nv))) == NULL)
			return FA_ERR_NOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = guid;
	return 0;
}

static int
guid_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Where guid is or would go in the sorted set. */
static size_t
seen_pos(const struct seen *s, uint64_t guid)
{
	size_t lo = 0, hi = s->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->v[mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
seen_has(const struct seen *s, uint64_t guid)
{
	size_t i = seen_pos(s, guid);

	return i < s->n && s->v[i] == guid;
}

/* Insert into the sorted set. */
static int
seen_insert(struct seen *s, uint64_t guid)
{
	size_t i = seen_pos(s, guid);

	if (seen_push(s, guid) != 0)
		return FA_ERR_NOMEM;
	memmove(s->v + i + 1, s->v + i, (s->n - 1 - i) * sizeof(*s->v));
	s->v[i] = guid;
	return 0;
}

/*
 * One result about a foreign or unknown-owner port the tenant port
 * reaches: fail for a foreign one, not_tested for one of unknown owner.
 * how, value, repro and note (the "reproduce_note", NULL for none) are
 * consumed.
 */
static int
reached(const struct fa_check *c, struct fa_results *out,
    const struct fa_obs *o, const struct fa_ib_port_ref *ref,
    enum fa_ib_owner own, json_t *how, const char *field, json_t *value,
    json_t *repro, json_t *note, const char *what)
{
	char *t = fa_ib_ref_target(ref);
	json_t *ev = json_array();
	int r;

	ev_put(&ev, o, "port", fa_ib_port_json(ref));
	ev_put(&ev, o, "how", how);
	if (field != NULL)
		ev_put(&ev, o, field, value);
	else
		json_decref(value);
	if (o != NULL && (strcmp(o->kind, FA_KIND_IB_PATH_RECORD) == 0 ||
	    strcmp(o->kind, FA_KIND_IB_SA_PATH_TABLE) == 0))
		ev_put(&ev, NULL, "note", json_string(SMP_NOTE));
	ev_put(&ev, NULL, "reproduce", repro);
	if (note != NULL)
		ev_put(&ev, NULL, "reproduce_note", note);
	if (own == FA_OWN_UNKNOWN)
		ev_put(&ev, NULL, "owner", json_string("unknown: the "
		    "NodeDescription Get went unanswered"));
	if (t == NULL || ev == NULL) {
		free(t);
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (own == FA_OWN_UNKNOWN)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, t, NULL, ev,
		    "%s, but " UNKNOWN_OWNER, what);
	else
		r = fa_results_add(out, c, FA_ST_FAIL, t, ref->desc, ev, "%s",
		    what);
	free(t);
	return r;
}

static int
reachable_seen(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_ib_port_index *ix, struct seen *seen)
{
	const struct fa_obs *topo, *to;
	struct pr_walk w;
	struct fa_ib_walk at;
	struct fa_ib_table tb;
	struct fa_ib_port_ref ref;
	enum fa_ib_owner own;
	uint16_t mine[MAX_PKEYS];
	uint64_t self;
	size_t it = 0, foreign = 0, unknown = 0, reach = 0, undecided = 0,
	    lost = 0;
	long long own_lid = 0;
	json_t *shared;
	int r, nmine;

	if ((r = prelude(c, ctx, out, &topo, ix, &self)) != 0)
		return r < 0 ? r : 0;
	(void)fa_obs_int(fa_ib_local_obs(ctx->snap), FA_F(IB_LOCAL, lid), 0,
	    0xffff, &own_lid);
	memset(&w, 0, sizeof(w));
	while ((r = next_foreign(ctx, topo, ix, self, &w)) == 1) {
		if (w.own == FA_OWN_UNKNOWN)
			unknown++;
		else
			foreign++;
		if (pr_lost(&w)) {
			lost++;
			continue;
		}
		if (w.records == 0)
			continue;
		if (w.own == FA_OWN_UNKNOWN)
			undecided++;
		else
			reach++;
		r = reached(c, out, w.pr.o, &w.ref, w.own, json_string(
		    "SA PathRecord returned"), "path_pkeys", json_deep_copy(
		    w.pr.pkeys),
		    pr_cmd(own_lid,
		    w.ref.lid, 0), NULL, w.own == FA_OWN_UNKNOWN ?
		    "the SA returned "
		    "a path from the tenant port to this port" : "the SA "
		    "returned a path from the tenant port to this foreign "
		    "port: the two share a partition");
		if (r < 0 || (r = seen_push(seen, w.ref.port_guid)) < 0)
			return r;
	}
	if (seen->n > 1)
		qsort(seen->v, seen->n, sizeof(*seen->v), guid_cmp);
	if (r < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed PathRecord or topology observation");
	/* The same question from the P_Key tables, for ports the SA did
	 * not already name. */
	if ((nmine = local_pkeys(ctx, mine)) < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "the tenant port's P_Key table observation is malformed");
	memset(&at, 0, sizeof(at));
	while ((r = next_foreign_table(ctx, topo, ix, self, mine, nmine, NULL,
	    &at, &tb, &ref, &own, &shared)) == 1) {
		if (json_array_size(shared) == 0 ||
		    seen_has(seen, ref.port_guid)) {
			json_decref(shared);
			continue;
		}
		if (own == FA_OWN_UNKNOWN)
			undecided++;
		else
			reach++;
		r = reached(c, out, tb.o, &ref, own, json_string(
		    table_source(&tb)), "shared_pkeys", shared, table_cmd(&tb,
		    ref.lid), NULL, own == FA_OWN_UNKNOWN ?
		    "this port's P_Key table "
		    "shares a partition with the tenant port's" : "this "
		    "foreign port's P_Key table shares a partition with the "
		    "tenant port's");
		if (r < 0 || (r = seen_insert(seen, ref.port_guid)) < 0)
			return r;
	}
	if (r == FA_ERR_NOMEM)
		return r;
	if (r < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed P_Key table or topology observation");
	/* --active: a GMP that was answered crossed the partition for real. */
	it = 0;
	while ((to = fa_snapshot_next(ctx->snap, FA_KIND_IB_GMP_REACH,
	    &it)) != NULL) {
		uint64_t guid;
		const char *pk;

		/* Any answer, status included, crossed the partition. */
		if (to->state != FA_OBS_COMPLETE &&
		    to->state != FA_OBS_REJECTED)
			continue;
		if (fa_obs_u64(to, FA_F(IB_GMP_REACH, port_guid), &guid) != 0 ||
		    (r = fa_ib_find_port(topo, ix, guid, &ref)) < 0)
			return fa_results_add(out, c, FA_ST_ERROR, "fabric",
			    NULL, NULL, "malformed GMP reachability observation");
		if (r == 0 || !candidate(own = fa_ib_owner(ctx, &ref, self)))
			continue;
		if (seen_has(seen, ref.port_guid))
			continue;
		if (own == FA_OWN_UNKNOWN)
			undecided++;
		else
			reach++;
		pk = fa_obs_str(to, FA_F(IB_GMP_REACH, pkey));
		r = reached(c, out, to, &ref, own, fa_json_stringf("a PerfMgt "
		    "GMP sent with P_Key %s was answered (--active)",
		    pk != NULL ? pk : "?"), NULL, NULL, fa_json_stringf(
		    "perfquery %lld", ref.lid), fa_json_stringf("perfquery "
		    "sends its GMP with the P_Key at index 0 of the tenant "
		    "port's table; fabaudit sent this one with P_Key %s. "
		    "Where the two differ no infiniband-diags tool can choose "
		    "the P_Key, and saquery PR --slid %lld --dlid %lld shows "
		    "the partitions the two ports share", pk != NULL ? pk :
		    "?", own_lid, ref.lid), own == FA_OWN_UNKNOWN ? "a GMP "
		    "from the tenant port reached this port and was answered" :
		    "a GMP from the tenant port reached this foreign port and "
		    "was answered");
		if (r < 0 || (r = seen_insert(seen, ref.port_guid)) < 0)
			return r;
	}
	/* A port of unknown owner reached: its result says not_tested. */
	if (reach > 0 || undecided > 0)
		return 0;
	if (!any_pr(ctx))
		return no_pr(c, out, topo);
	if (foreign + unknown == 0 &&
	    (r = unseen(c, topo, out, foreign, unknown)) != 0)
		return r < 0 ? r : 0;
	if (foreign + unknown == 0)
		return fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "fabric",
		    NULL, NULL, "no foreign CA port was found (every other "
		    "port is the tenant's or the provider's per the policy)");
	if (lost > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no path to the %zu foreign ports answered for, but "
		    "%zu PathRecord queries got no usable answer",
		    foreign + unknown - lost, lost);
	/* A pass rests on the SA's paths: without them (or a control
	 * path) the other sources found nothing, which proves nothing. */
	if (!sa_gave_any_path(ctx))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "the SA returned no path to any port at all, not even "
		    "the SM's: an empty answer proves nothing");
	if ((r = unseen(c, topo, out, foreign, unknown)) != 0)
		return r < 0 ? r : 0;
	if (unknown > 0)
		return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL,
		    pass_evidence(ctx, foreign, unknown),
		    "the SA returned no path to any of the %zu foreign ports "
		    "that discovery found, nor to the %zu port(s) whose "
		    "NodeDescription went unanswered (ports hidden from "
		    "discovery, e.g. at M_Key level 2, are not covered)",
		    foreign, unknown);
	return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL,
	    pass_evidence(ctx, foreign, unknown),
	    "the SA returned no path to any of the %zu foreign ports that "
	    "discovery found (ports hidden from discovery, e.g. at M_Key "
	    "level 2, are not covered)", foreign);
}

static int
eval_reachable_ix(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_ib_port_index *ix)
{
	struct seen seen = { NULL, 0, 0 };
	int r;

	r = reachable_seen(c, ctx, out, ix, &seen);
	free(seen.v);
	return r;
}

/*
 * The partitions shared with foreign or unknown-owner ports, by base;
 * base 0 holds the paths whose P_Key names no partition.  Each keeps the
 * exact set of port GUIDs (counted) and the first FA_IB_LIST_MAX ports
 * as evidence.
 */
struct part {
	uint16_t	 base;
	struct seen	 fset, uset;	/* foreign, unknown-owner GUIDs */
	json_t		*flist, *ulist;
	json_t		*repro;		/* about the first foreign port */
};

struct parts {
	struct part	*v;
	size_t		 n, cap;
	uint32_t	*at;		/* base -> index + 1 */
};

static void
parts_free(struct parts *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		free(ps->v[i].fset.v);
		free(ps->v[i].uset.v);
		json_decref(ps->v[i].flist);
		json_decref(ps->v[i].ulist);
		json_decref(ps->v[i].repro);
	}
	free(ps->v);
	free(ps->at);
}

static struct part *
part_get(struct parts *ps, uint16_t base)
{
	struct part *nv, *p;
	size_t cap;

	if (ps->at[base] != 0)
		return &ps->v[ps->at[base] - 1];
	if (ps->n == ps->cap) {
		cap = ps->cap > 0 ? ps->cap * 2 : 8;
		if ((nv = realloc(ps->v, cap * sizeof(*nv))) == NULL)
			return NULL;
		ps->v = nv;
		ps->cap = cap;
	}
	p = &ps->v[ps->n];
	memset(p, 0, sizeof(*p));
	p->base = base;
	if ((p->flist = json_array()) == NULL ||
	    (p->ulist = json_array()) == NULL) {
		json_decref(p->flist);
		return NULL;
	}
	ps->at[base] = (uint32_t)++ps->n;
	return p;
}

/* Count port ref in the partition of this base, once; repro consumed. */
static int
part_add(struct parts *ps, uint16_t base, const struct fa_ib_port_ref *ref,
    enum fa_ib_owner own, const char *source, json_t *repro)
{
	struct part *p = part_get(ps, base & 0x7fff);
	struct seen *set;
	json_t *lst, *o;

	if (p == NULL) {
		json_decref(repro);
		return FA_ERR_NOMEM;
	}
	set = own == FA_OWN_UNKNOWN ? &p->uset : &p->fset;
	lst = own == FA_OWN_UNKNOWN ? p->ulist : p->flist;
	if (seen_has(set, ref->port_guid)) {
		json_decref(repro);
		return 0;
	}
	if (seen_insert(set, ref->port_guid) != 0) {
		json_decref(repro);
		return FA_ERR_NOMEM;
	}
	if (own != FA_OWN_UNKNOWN && p->repro == NULL)
		p->repro = repro;
	else
		json_decref(repro);
	if (json_array_size(lst) >= FA_IB_LIST_MAX)
		return 0;
	if ((o = fa_ib_port_json(ref)) == NULL ||
	    json_object_set_new(o, "found_by", json_string(source)) != 0 ||
	    json_array_append_new(lst, o) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

/* "all 3" or "first 100 of 730": how much of a list the evidence shows. */
static json_t *
shown(size_t listed, size_t count)
{
	return listed == count ? fa_json_stringf("all %zu", count) :
	    fa_json_stringf("first %zu of %zu", listed, count);
}

/* The result of one shared partition. */
static int
part_result(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct part *p)
{
	int mine = p->base != 0 && tenant_part(ctx->policy, p->base);
	size_t nf = p->fset.n, nu = p->uset.n;
	char *t;
	json_t *ev = json_array();
	int r;

	t = p->base != 0 ? fa_strfmt("pkey-0x%04x", p->base | 0x8000) :
	    fa_strdup("pkey-unknown");
	if (nf > 0) {
		ev_put(&ev, NULL, "foreign_ports", json_incref(p->flist));
		ev_put(&ev, NULL, "foreign_port_count",
		    json_integer((json_int_t)nf));
		ev_put(&ev, NULL, "foreign_ports_shown",
		    shown(json_array_size(p->flist), nf));
	}
	if (nu > 0) {
		ev_put(&ev, NULL, "unknown_owner_ports",
		    json_incref(p->ulist));
		ev_put(&ev, NULL, "unknown_owner_port_count",
		    json_integer((json_int_t)nu));
		ev_put(&ev, NULL, "unknown_owner_ports_shown",
		    shown(json_array_size(p->ulist), nu));
	}
	ev_put(&ev, NULL, "partition", json_string(p->base == 0 ?
	    "unknown: the PathRecords carry a P_Key whose base is 0, which "
	    "names no partition" : mine ? "the tenant's own (tenant_pkey)" :
	    ctx->policy != NULL && ctx->policy->n_tenant_pkey > 0 ?
	    "not one of the tenant's (not in tenant_pkey)" :
	    "no tenant_pkey in the policy"));
	ev_put(&ev, NULL, "how", json_string(p->base == 0 ? "the SA "
	    "returned PathRecords to these ports; OpenSM returns a path only "
	    "between ports that share a partition" : mine ? "SA PathRecords "
	    "carry this P_Key, or the port's P_Key table holds this "
	    "tenant_pkey partition, as a full or a limited member" :
	    "SA PathRecords carry this P_Key, or both P_Key tables hold it "
	    "with a full member on one side"));
	if (p->repro != NULL) {
		ev_put(&ev, NULL, "reproduce", p->repro);
		p->repro = NULL;
	}
	if (t == NULL || ev == NULL) {
		free(t);
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (nf == 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, t, NULL, ev,
		    "partition %s is shared only with %zu port(s) whose "
		    "NodeDescription went unanswered and that no tenant_guid, "
		    "provider_guid or sm_guid names: whose they are is "
		    "unknown, so they are not counted as foreign", t + 5, nu);
	else if (p->base == 0)
		r = fa_results_add(out, c, FA_ST_FAIL, t, NULL, ev,
		    "the SA returned paths to %zu foreign port(s) with a P_Key "
		    "that names no partition (base 0): they share a partition "
		    "with the tenant port, which one is unknown", nf);
	else if (mine)
		r = fa_results_add(out, c, FA_ST_FAIL, t, NULL, ev,
		    "the tenant's own partition %s (tenant_pkey) holds %zu "
		    "foreign port(s)", t + 5, nf);
	else
		r = fa_results_add(out, c, FA_ST_FAIL, t, NULL, ev,
		    "the tenant port shares partition %s with %zu foreign "
		    "port(s), with a full member on one side", t + 5, nf);
	free(t);
	return r;
}

static int
shared_parts(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_ib_port_index *ix, struct parts *ps)
{
	const struct fa_obs *topo;
	struct pr_walk w;
	struct fa_ib_walk at;
	struct fa_ib_table tb;
	struct fa_ib_port_ref ref;
	enum fa_ib_owner own;
	uint16_t mine[MAX_PKEYS];
	json_t *v, *shared;
	const json_t *pks;
	uint64_t self, pv;
	size_t i, k, foreign = 0, unknown = 0, lost = 0, rows = 0;
	long long own_lid = 0;
	int r, nmine;

	if ((r = prelude(c, ctx, out, &topo, ix, &self)) != 0)
		return r < 0 ? r : 0;
	/* Only here: allocated before the gate, every evaluation of a
	 * snapshot without IB paid for it. */
	if ((ps->at = calloc(0x8000, sizeof(*ps->at))) == NULL)
		return FA_ERR_NOMEM;
	(void)fa_obs_int(fa_ib_local_obs(ctx->snap), FA_F(IB_LOCAL, lid), 0,
	    0xffff, &own_lid);
	memset(&w, 0, sizeof(w));
	while ((r = next_foreign(ctx, topo, ix, self, &w)) == 1) {
		if (w.own == FA_OWN_UNKNOWN)
			unknown++;
		else
			foreign++;
		if (pr_lost(&w)) {
			lost++;
			continue;
		}
		if (w.records == 0)
			continue;
		/*
		 * A path is a shared partition.  A P_Key that is not one
		 * (not 16-bit hex) is a malformed observation; one whose
		 * base is 0 names no partition, and a path without P_Keys
		 * names none either: counted under "unknown", never
		 * dropped.
		 */
		pks = w.pr.pkeys;
		json_array_foreach(pks, i, v)
			if (!json_is_string(v) || fa_parse_u64(
			    json_string_value(v), 0, 0xffff, &pv, NULL) != 0)
				return fa_results_add(out, c, FA_ST_ERROR,
				    "fabric", NULL, NULL, "malformed PathRecord "
				    "observation: P_Key not a 16-bit value");
		if (json_array_size(pks) == 0 && (r = part_add(ps, 0, &w.ref,
		    w.own, "SA PathRecord", pr_cmd(own_lid, w.ref.lid, 0))) < 0)
			return r;
		json_array_foreach(pks, i, v) {
			(void)fa_parse_u64(json_string_value(v), 0, 0xffff,
			    &pv, NULL);
			if ((r = part_add(ps, (uint16_t)(pv & 0x7fff), &w.ref,
			    w.own, "SA PathRecord", pr_cmd(own_lid, w.ref.lid,
			    (pv & 0x7fff) != 0 ? (int)(pv | 0x8000) : 0))) < 0)
				return r;
		}
	}
	if (r < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed PathRecord or topology observation");
	if ((nmine = local_pkeys(ctx, mine)) < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "the tenant port's P_Key table observation is malformed");
	memset(&at, 0, sizeof(at));
	while ((r = next_foreign_table(ctx, topo, ix, self, mine, nmine,
	    ctx->policy, &at, &tb, &ref, &own, &shared)) == 1) {
		json_array_foreach(shared, i, v) {
			(void)fa_parse_u64(json_string_value(v), 1, 0xffff,
			    &pv, NULL);
			if ((r = part_add(ps, (uint16_t)(pv & 0x7fff), &ref, own,
			    !tb.by_sa ? "SMP P_Key tables" :
			    "SA PKeyTableRecords", table_cmd(&tb,
			    ref.lid))) < 0) {
				json_decref(shared);
				return r;
			}
		}
		json_decref(shared);
	}
	if (r == FA_ERR_NOMEM)
		return r;
	if (r < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed P_Key table or topology observation");
	/* By base, the partition of unknown P_Key last. */
	for (k = 1; k <= 0x8000; k++) {
		if (ps->at[k & 0x7fff] == 0)
			continue;
		if ((r = part_result(c, ctx, out,
		    &ps->v[ps->at[k & 0x7fff] - 1])) < 0)
			return r;
		rows++;
	}
	if (rows > 0)
		return 0;
	if (!any_pr(ctx))
		return no_pr(c, out, topo);
	if (foreign + unknown == 0 &&
	    (r = unseen(c, topo, out, foreign, unknown)) != 0)
		return r < 0 ? r : 0;
	if (foreign + unknown == 0)
		return fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "fabric",
		    NULL, NULL, "no foreign CA port was found");
	if (lost > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "%zu of %zu PathRecord queries to foreign ports got "
		    "no usable answer", lost, foreign + unknown);
	if (!sa_gave_any_path(ctx))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "the SA returned no path to any port at all, not even "
		    "the SM's: an empty answer proves nothing");
	if ((r = unseen(c, topo, out, foreign, unknown)) != 0)
		return r < 0 ? r : 0;
	if (unknown > 0)
		return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL,
		    pass_evidence(ctx, foreign, unknown),
		    "no partition is shared with any of the %zu foreign ports "
		    "that discovery found, nor with the %zu port(s) whose "
		    "NodeDescription went unanswered (ports hidden from "
		    "discovery are not covered)", foreign, unknown);
	return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL,
	    pass_evidence(ctx, foreign, unknown),
	    "no partition is shared with any of the %zu foreign ports that "
	    "discovery found (ports hidden from discovery are not covered)",
	    foreign);
}

static int
eval_shared_ix(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_ib_port_index *ix)
{
	struct parts ps = { NULL, 0, 0, NULL };
	int r;

	r = shared_parts(c, ctx, out, ix, &ps);
	parts_free(&ps);
	return r;
}

static const char *const refs[] = {
	"InfiniBand Architecture Specification Vol. 1, 10.9: partitioning; "
	    "15.2.5.16: PathRecord",
	"OpenSM osm_sa_path_record.c: paths only between ports sharing a "
	    "partition",
	FA_CMAX_PKEYS,
	NULL
};

#define FOREIGN								\
	"A foreign port is a CA port that is neither the tenant's nor the " \
	"provider's under the policy (tenant_node, tenant_guid, provider_*, " \
	"sm_guid lines); ports hidden from discovery (e.g. at M_Key "	\
	"protection level 2) are not covered. A port whose "		\
	"NodeDescription Get went unanswered (discovery records it empty) " \
	"is judged by the GUID lines alone; when none names it, its owner " \
	"is unknown: it is never counted as foreign, and where the verdict " \
	"rests on it the result is not_tested, naming it. "
#define NOT_PASSED							\
	"Not applicable when discovery found no foreign CA port (nor one " \
	"of unknown owner). Not "					\
	"tested when discovery did not complete, when no PathRecord was " \
	"asked of the SA, when PathRecord queries about foreign ports got " \
	"no usable answer (an answer cut short after some records counts " \
	"by the paths it read), or when the SA returned no path to any port at " \
	"all, not even the SM's: an empty answer then proves nothing. "	\
	"Not tested, instead of passing or being not applicable, when a " \
	"port discovery reached has a link up (PhysicalPortState LinkUp) " \
	"to a node discovery did not reach (a switch that drops SMPs, SMPs " \
	"lost, or the 64-hop limit), or when a port's PortInfo went "	\
	"unanswered (its LID is unknown, so neither the SA nor its P_Key " \
	"table can be asked): those ports and every port behind them " \
	"were not observed, and the reason names them. What was seen still " \
	"fails. "							\
	"Each result's reproduce command is the query that shows it: "	\
	"saquery PR --slid OWN --dlid LID (saquery takes no positional " \
	"LIDs for PathRecords), smpquery pkeys LID, saquery --smkey 1 "	\
	"PKTR LID, or perfquery LID."

/* The evaluations with the port index they build, always freed. */
static int
eval_reachable(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_ib_port_index ix = { NULL, 0 };
	int r = eval_reachable_ix(c, ctx, out, &ix);

	fa_ib_index_free(&ix);
	return r;
}

static int
eval_shared(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_ib_port_index ix = { NULL, 0 };
	int r = eval_shared_ix(c, ctx, out, &ix);

	fa_ib_index_free(&ix);
	return r;
}

const struct fa_check fa_chk_ib_xtenant_reachable = {
	.id = "IB-XTENANT-REACHABLE",
	.family = FA_FAM_IB,
	.reads_sm_sa = 1,
	.severity = FA_SEV_CRITICAL,
	.title = "A foreign tenant's port is reachable from the tenant",
	.rationale =
	    "If the SA hands out a path between the tenant and another "
	    "tenant's port, the two share a partition and can exchange "
	    "traffic (RDMA included): tenant isolation on the fabric is "
	    "broken for that pair.",
	.remediation =
	    "Place each tenant in partitions of its own; make tenants only "
	    "limited members of the default and any shared service partition, "
	    "with only provider service ports as full members.",
	.msa_clause =
	    "Provider shall ensure that no Customer port shares an InfiniBand "
	    "partition with any port of another tenant, other than as a "
	    "limited member of a partition whose only full members are "
	    "Provider service ports.",
	.refs = refs,
	.sends =
	    "Only Gets: " FA_IB_SENDS_PATHS ". With --active only: one "
	    "PerfMgt Get(ClassPortInfo) to every other CA port for each "
	    "partition in the tenant port's table, sent once with that "
	    "partition's P_Key (its full entry if the tenant has one). It "
	    "changes nothing but reaches other tenants' hosts, and where the "
	    "P_Keys do not match the receiver drops it and raises a P_Key "
	    "violation trap (257).",
	.outcomes =
	    "One result per foreign port found reachable. " FOREIGN
	    "Fails for each foreign port that the SA returned a path to, "
	    "whose P_Key table shares a partition with the tenant port's "
	    "(the same base in both, a full member on one side; entries of "
	    "base 0 name no partition), or (with --active) that answered a "
	    "GMP. Not tested, for that port, when such a port is of unknown "
	    "owner. Passes when the SA, having returned a path to some port, "
	    "returned none to any foreign or unknown-owner port and no table "
	    "shares a partition. " NOT_PASSED,
	.eval = eval_reachable,
};

const struct fa_check fa_chk_ib_pkey_shared = {
	.id = "IB-PKEY-SHARED",
	.family = FA_FAM_IB,
	.reads_sm_sa = 1,
	.severity = FA_SEV_HIGH,
	.title = "The tenant shares a partition with foreign ports",
	.rationale =
	    "A partition in which the tenant and another tenant meet, with a "
	    "full member on either side, is a channel between them; shared "
	    "storage partitions with every port full are the classic case.",
	.remediation =
	    "Give each tenant its own partitions; in shared service "
	    "partitions make tenant ports limited members and only the "
	    "service ports full members.",
	.msa_clause =
	    "Provider shall not place Customer ports in any partition shared "
	    "with another tenant's ports unless Customer ports and the other "
	    "tenant's ports are all limited members of it.",
	.refs = refs,
	.sends = "Only Gets: " FA_IB_SENDS_PATHS ".",
	.outcomes =
	    "One result per shared partition. " FOREIGN "Fails for each "
	    "partition that the tenant port shares with foreign ports, with "
	    "their exact count (the list of ports may be cut, saying first N "
	    "of M): a PathRecord to a foreign port carries its P_Key, or "
	    "both P_Key tables hold it with a full member on one side. A "
	    "partition the policy names in tenant_pkey is the tenant's own: "
	    "a foreign port whose table holds it fails, as a full or a "
	    "limited member, whatever the tenant port's membership. A path "
	    "to a foreign port whose P_Key has base 0 (or that carries none) "
	    "still fails, as partition unknown: OpenSM returns a path only "
	    "between ports that share a partition. A P_Key in a PathRecord "
	    "observation that is not a 16-bit value is an error. Not tested, "
	    "for a partition, when the only ports sharing it are of unknown "
	    "owner. Passes when no partition is shared with any foreign or "
	    "unknown-owner port discovery found. " NOT_PASSED,
	.eval = eval_shared,
};
