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
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"

#define KIND_PR		"ib.sa.path_record"
#define SMP_NOTE	"SMP discovery sees every port regardless of " \
			"partitions; only the SA path is evidence of reachability"

struct pr_walk {
	const struct fa_obs	*o;
	struct fa_ib_port_ref	 ref;
	long long		 records;	/* when o is complete */
};

/* Next PathRecord observation about a foreign port; 1, 0 at end, <0 bad. */
static int
next_foreign(const struct fa_eval_ctx *ctx, const struct fa_obs *topo,
    const struct fa_ib_port_index *ix, uint64_t self, size_t *it,
    struct pr_walk *w)
{
	uint64_t guid;
	int r;

	while ((w->o = fa_snapshot_next(ctx->snap, KIND_PR, it)) != NULL) {
		if (fa_json_get_u64(w->o->data, "port_guid", &guid) != 0)
			return -1;
		if ((r = fa_ib_find_port(topo, ix, guid, &w->ref)) < 0)
			return -1;	/* a malformed port hides the rest */
		if (r == 0)
			continue;	/* not a port discovery saw */
		if (w->o->state == FA_OBS_COMPLETE &&
		    (fa_json_get_int(w->o->data, "records", 0, 1 << 20,
		    &w->records) != 0 || (w->records > 0 &&
		    !json_is_array(json_object_get(w->o->data, "pkeys")))))
			return -1;
		if (fa_ib_owner(ctx, &w->ref, self) == FA_OWN_FOREIGN)
			return 1;
	}
	return 0;
}

/*
 * The positive control: the SA returned a path to some port (the SM's, a
 * tenant's), so it hands paths to us at all and an empty answer about a
 * foreign port means something.
 */
static int
sa_gave_any_path(const struct fa_eval_ctx *ctx)
{
	const struct fa_obs *o;
	size_t it = 0;
	long long n;

	while ((o = fa_snapshot_next(ctx->snap, KIND_PR, &it)) != NULL)
		if (o->state == FA_OBS_COMPLETE &&
		    fa_json_get_int(o->data, "records", 0, 1 << 20, &n) == 0 &&
		    n > 0)
			return 1;
	return 0;
}

#define MAX_PKEYS	2048

/* The pkeys[] of a P_Key table observation, parsed; count or -1. */
static int
pkeys_of(const struct fa_obs *o, uint16_t *out)
{
	const json_t *a = json_object_get(o->data, "pkeys"), *v;
	uint64_t pk;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) > MAX_PKEYS)
		return -1;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v) || fa_parse_u64(json_string_value(v), 1,
		    0xffff, &pk, NULL) != 0)
			return -1;
		out[i] = (uint16_t)pk;
	}
	return (int)json_array_size(a);
}

/* The tenant port's own table: count, 0 if absent, -1 if malformed. */
static int
local_pkeys(const struct fa_eval_ctx *ctx, uint16_t *out)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0;

	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_PKEYS, &it))) {
		role = fa_json_get_str(o->data, "role");
		if (role != NULL && strcmp(role, "local") == 0 &&
		    (o->state == FA_OBS_COMPLETE ||
		    o->state == FA_OBS_INCOMPLETE))
			return pkeys_of(o, out);
	}
	return 0;
}

/*
 * The partitions a remote table shares with ours, one "0x%04x" string
 * per base, written with the membership bit set: a new array, NULL on a
 * malformed table or ENOMEM.
 */
static json_t *
shared_with(const uint16_t *mine, int nmine, const struct fa_obs *o)
{
	uint16_t theirs[MAX_PKEYS];
	json_t *a;
	char hex[8];
	int n, i, k;

	if ((n = pkeys_of(o, theirs)) < 0 || (a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < nmine; i++)
		for (k = 0; k < n; k++)
			if ((mine[i] & 0x7fff) == (theirs[k] & 0x7fff) &&
			    ((mine[i] | theirs[k]) & 0x8000)) {
				snprintf(hex, sizeof(hex), "0x%04x",
				    mine[i] | 0x8000);
				if (json_array_append_new(a, json_string(hex))
				    != 0) {
					json_decref(a);
					return NULL;
				}
				break;
			}
	return a;
}

/*
 * Next remote P_Key table of a foreign port; 1 with *o, *ref and *shared
 * (new array) set, 0 at the end, -1 on malformed data.
 */
static int
next_foreign_table(const struct fa_eval_ctx *ctx, const struct fa_obs *topo,
    const struct fa_ib_port_index *ix, uint64_t self, const uint16_t *mine,
    int nmine, size_t *it,
    const struct fa_obs **o, struct fa_ib_port_ref *ref, json_t **shared)
{
	const char *role;
	uint64_t guid;
	int r;

	/* Tables read by SMP, or through the SA with its default key. */
	while ((*o = fa_snapshot_next(ctx->snap, NULL, it))) {
		if (strcmp((*o)->kind, FA_KIND_IB_PKEYS) != 0 &&
		    strcmp((*o)->kind, "ib.sa.pkey_table_record") != 0)
			continue;
		role = fa_json_get_str((*o)->data, "role");
		if (role == NULL || strcmp(role, "remote") != 0 ||
		    ((*o)->state != FA_OBS_COMPLETE &&
		    (*o)->state != FA_OBS_INCOMPLETE))
			continue;
		if (fa_json_get_u64((*o)->data, "port_guid", &guid) != 0 ||
		    (r = fa_ib_find_port(topo, ix, guid, ref)) < 0)
			return -1;
		if (r == 0 || fa_ib_owner(ctx, ref, self) != FA_OWN_FOREIGN)
			continue;
		if ((*shared = shared_with(mine, nmine, *o)) == NULL)
			return -1;
		return 1;
	}
	return 0;
}

static int
any_pr(const struct fa_eval_ctx *ctx)
{
	size_t it = 0;

	return fa_snapshot_next(ctx->snap, KIND_PR, &it) != NULL;
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
	    fa_json_get_u64(local->data, "node_guid", self) != 0) {
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
table_source(const struct fa_obs *o)
{
	return strcmp(o->kind, FA_KIND_IB_PKEYS) == 0 ?
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

static int
reachable_seen(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_ib_port_index *ix, struct seen *seen)
{
	const struct fa_obs *topo, *to;
	struct pr_walk w;
	struct fa_ib_port_ref ref;
	uint16_t mine[MAX_PKEYS];
	uint64_t self;
	size_t it = 0, foreign = 0, reach = 0, unknown = 0;
	long long own_lid = 0;
	char *t;
	json_t *ev, *shared;
	int r, nmine;

	if ((r = prelude(c, ctx, out, &topo, ix, &self)) != 0)
		return r < 0 ? r : 0;
	(void)fa_json_get_int(fa_ib_local_obs(ctx->snap)->data, "lid", 0,
	    0xffff, &own_lid);
	while ((r = next_foreign(ctx, topo, ix, self, &it, &w)) == 1) {
		foreign++;
		if (w.o->state != FA_OBS_COMPLETE) {
			unknown++;
			continue;
		}
		if (w.records == 0)
			continue;
		reach++;
		t = fa_ib_ref_target(&w.ref);
		ev = json_array();
		if (t == NULL || ev == NULL || fa_evidence_add(ev, fa_evidence(
		    w.o, "port", fa_ib_port_json(&w.ref))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(w.o, "how", json_string(
		    "SA PathRecord returned"))) != 0 || fa_evidence_add(ev,
		    fa_evidence(w.o, "path_pkeys", json_deep_copy(
		    json_object_get(w.o->data, "pkeys")))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(NULL, "note",
		    json_string(SMP_NOTE))) != 0 || fa_evidence_add(ev,
		    fa_evidence(NULL, "reproduce", fa_json_stringf(
		    "saquery PR %lld %lld", own_lid, w.ref.lid))) != 0) {
			free(t);
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		r = fa_results_add(out, c, FA_ST_FAIL, t, w.ref.desc, ev,
		    "the SA returned a path from the tenant port to this "
		    "foreign port: the two share a partition");
		free(t);
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
	it = 0;
	while ((r = next_foreign_table(ctx, topo, ix, self, mine, nmine, &it, &to,
	    &ref, &shared)) == 1) {
		t = fa_ib_ref_target(&ref);
		if (t == NULL) {
			json_decref(shared);
			return FA_ERR_NOMEM;
		}
		if (json_array_size(shared) == 0 ||
		    seen_has(seen, ref.port_guid)) {
			json_decref(shared);
			free(t);
			continue;
		}
		reach++;
		ev = json_array();
		if (ev == NULL || fa_evidence_add(ev, fa_evidence(to, "port",
		    fa_ib_port_json(&ref))) != 0 || fa_evidence_add(ev,
		    fa_evidence(to, "how", json_string(table_source(to)))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(to,
		    "shared_pkeys", shared)) != 0 || fa_evidence_add(ev,
		    fa_evidence(NULL, "reproduce", fa_json_stringf(
		    "smpquery pkeys %lld", ref.lid))) != 0) {
			free(t);
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		r = fa_results_add(out, c, FA_ST_FAIL, t, ref.desc, ev,
		    "this foreign port's P_Key table shares a partition with "
		    "the tenant port's");
		free(t);
		if (r < 0 || (r = seen_insert(seen, ref.port_guid)) < 0)
			return r;
	}
	if (r < 0)
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed P_Key table or topology observation");
	/* --active: a GMP that was answered crossed the partition for real. */
	it = 0;
	while ((to = fa_snapshot_next(ctx->snap, "ib.active.gmp_reach",
	    &it)) != NULL) {
		uint64_t guid;

		/* Any answer, status included, crossed the partition. */
		if (to->state != FA_OBS_COMPLETE &&
		    to->state != FA_OBS_REJECTED)
			continue;
		if (fa_json_get_u64(to->data, "port_guid", &guid) != 0 ||
		    (r = fa_ib_find_port(topo, ix, guid, &ref)) < 0)
			return fa_results_add(out, c, FA_ST_ERROR, "fabric",
			    NULL, NULL, "malformed GMP reachability observation");
		if (r == 0 || fa_ib_owner(ctx, &ref, self) != FA_OWN_FOREIGN)
			continue;
		if (seen_has(seen, ref.port_guid))
			continue;
		if ((t = fa_ib_ref_target(&ref)) == NULL)
			return FA_ERR_NOMEM;
		reach++;
		ev = json_array();
		if (ev == NULL || fa_evidence_add(ev, fa_evidence(to, "port",
		    fa_ib_port_json(&ref))) != 0 || fa_evidence_add(ev,
		    fa_evidence(to, "how", fa_json_stringf("a PerfMgt GMP sent "
		    "with P_Key %s was answered (--active)",
		    fa_json_get_str(to->data, "pkey") != NULL ?
		    fa_json_get_str(to->data, "pkey") : "?"))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(NULL, "reproduce",
		    fa_json_stringf("perfquery %lld", ref.lid))) != 0) {
			free(t);
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		r = fa_results_add(out, c, FA_ST_FAIL, t, ref.desc, ev,
		    "a GMP from the tenant port reached this foreign port and "
		    "was answered");
		free(t);
		if (r < 0 || (r = seen_insert(seen, ref.port_guid)) < 0)
			return r;
	}
	if (reach > 0)
		return 0;
	if (!any_pr(ctx))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no PathRecord was asked of the SA, and the other "
		    "sources found no shared partition: that proves nothing");
	if (foreign == 0)
		return fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "fabric",
		    NULL, NULL, "no foreign CA port was found (every other "
		    "port is the tenant's or the provider's per the policy)");
	if (unknown > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no path to the %zu foreign ports answered for, but "
		    "%zu PathRecord queries got no usable answer",
		    foreign - unknown, unknown);
	/* A pass rests on the SA's paths: without them (or a control
	 * path) the other sources found nothing, which proves nothing. */
	if (!sa_gave_any_path(ctx))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "the SA returned no path to any port at all, not even "
		    "the SM's: an empty answer proves nothing");
	return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, NULL,
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

/* Add port ref to the list of P_Key pk in by_pkey, once per target. */
static int
add_port(json_t *by_pkey, uint16_t pk, const struct fa_ib_port_ref *ref,
    const char *source)
{
	json_t *lst, *e, *o;
	char key[8], *t;
	size_t i;
	int dup = 0;

	snprintf(key, sizeof(key), "0x%04x", pk);
	if ((lst = json_object_get(by_pkey, key)) == NULL) {
		if ((lst = json_array()) == NULL ||
		    json_object_set_new(by_pkey, key, lst) != 0)
			return FA_ERR_NOMEM;
	}
	if ((t = fa_ib_ref_target(ref)) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(lst, i, e)
		if (strcmp(fa_json_get_str(e, "target") != NULL ?
		    fa_json_get_str(e, "target") : "", t) == 0)
			dup = 1;
	free(t);
	if (dup || json_array_size(lst) >= FA_IB_LIST_MAX)
		return 0;
	if ((o = fa_ib_port_json(ref)) == NULL ||
	    json_object_set_new(o, "found_by", json_string(source)) != 0 ||
	    json_array_append_new(lst, o) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

static int
eval_shared_ix(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct fa_ib_port_index *ix)
{
	const struct fa_obs *topo, *to;
	struct pr_walk w;
	struct fa_ib_port_ref ref;
	uint16_t mine[MAX_PKEYS];
	json_t *by_pkey, *ev, *v, *shared;
	const json_t *pks;
	const char *pk;
	uint64_t self;
	size_t it = 0, i, foreign = 0, unknown = 0;
	void *iter;
	int r, nmine;

	if ((r = prelude(c, ctx, out, &topo, ix, &self)) != 0)
		return r < 0 ? r : 0;
	if ((by_pkey = json_object()) == NULL)
		return FA_ERR_NOMEM;
	while ((r = next_foreign(ctx, topo, ix, self, &it, &w)) == 1) {
		foreign++;
		if (w.o->state != FA_OBS_COMPLETE) {
			unknown++;
			continue;
		}
		pks = json_object_get(w.o->data, "pkeys");
		json_array_foreach(pks, i, v) {
			uint64_t pv;

			if ((pk = json_string_value(v)) == NULL ||
			    fa_parse_u64(pk, 1, 0xffff, &pv, NULL) != 0)
				continue;
			if (add_port(by_pkey, (uint16_t)(pv | 0x8000), &w.ref,
			    "SA PathRecord") != 0)
				goto nomem;
		}
	}
	if (r < 0) {
		json_decref(by_pkey);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed PathRecord or topology observation");
	}
	if ((nmine = local_pkeys(ctx, mine)) < 0) {
		json_decref(by_pkey);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "the tenant port's P_Key table observation is malformed");
	}
	it = 0;
	while ((r = next_foreign_table(ctx, topo, ix, self, mine, nmine, &it, &to,
	    &ref, &shared)) == 1) {
		json_array_foreach(shared, i, v) {
			uint64_t pv;

			if (fa_parse_u64(json_string_value(v), 1, 0xffff, &pv,
			    NULL) != 0)
				continue;
			if (add_port(by_pkey, (uint16_t)pv, &ref,
			    strcmp(to->kind, FA_KIND_IB_PKEYS) == 0 ?
			    "SMP P_Key tables" : "SA PKeyTableRecords") != 0) {
				json_decref(shared);
				goto nomem;
			}
		}
		json_decref(shared);
	}
	if (r < 0) {
		json_decref(by_pkey);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "malformed P_Key table or topology observation");
	}
	for (iter = json_object_iter(by_pkey); iter != NULL;
	    iter = json_object_iter_next(by_pkey, iter)) {
		char *t = fa_strfmt("pkey-%s", json_object_iter_key(iter));

		ev = json_array();
		if (t == NULL || ev == NULL || fa_evidence_add(ev, fa_evidence(
		    NULL, "foreign_ports", json_deep_copy(
		    json_object_iter_value(iter)))) != 0 || fa_evidence_add(ev,
		    fa_evidence(NULL, "how", json_string("SA PathRecords carry "
		    "this P_Key, or both P_Key tables hold it with a full "
		    "member on one side"))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(NULL, "reproduce",
		    json_string("saquery PR <own-lid> <foreign-lid>"))) != 0) {
			free(t);
			json_decref(ev);
			goto nomem;
		}
		r = fa_results_add(out, c, FA_ST_FAIL, t, NULL, ev,
		    "the tenant port shares partition %s with %zu foreign "
		    "port(s), with a full member on one side",
		    json_object_iter_key(iter),
		    json_array_size(json_object_iter_value(iter)));
		free(t);
		if (r < 0) {
			json_decref(by_pkey);
			return r;
		}
	}
	i = json_object_size(by_pkey);
	json_decref(by_pkey);
	if (i > 0)
		return 0;
	if (!any_pr(ctx))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no PathRecord was asked of the SA, and the other "
		    "sources found no shared partition: that proves nothing");
	if (foreign == 0)
		return fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "fabric",
		    NULL, NULL, "no foreign CA port was found");
	if (unknown > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "%zu of %zu PathRecord queries to foreign ports got "
		    "no usable answer", unknown, foreign);
	if (!sa_gave_any_path(ctx))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "the SA returned no path to any port at all, not even "
		    "the SM's: an empty answer proves nothing");
	return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, NULL,
	    "no partition is shared with any of the %zu foreign ports that "
	    "discovery found (ports hidden from discovery are not covered)",
	    foreign);
nomem:
	json_decref(by_pkey);
	return FA_ERR_NOMEM;
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
	"protection level 2) are not covered. "
#define NOT_PASSED							\
	"Not applicable when discovery found no foreign CA port. Not "	\
	"tested when discovery did not complete, when no PathRecord was " \
	"asked of the SA, when PathRecord queries about foreign ports got " \
	"no usable answer, or when the SA returned no path to any port at " \
	"all, not even the SM's: an empty answer then proves nothing."


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
	    "with a full member on one side, or (with --active) that "
	    "answered a GMP. Passes when the SA, having returned a path to "
	    "some port, returned none to any foreign port and no table "
	    "shares a partition. " NOT_PASSED,
	.eval = eval_reachable,
};

const struct fa_check fa_chk_ib_pkey_shared = {
	.id = "IB-PKEY-SHARED",
	.family = FA_FAM_IB,
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
	    "One result per shared P_Key. " FOREIGN "Fails for each "
	    "partition that the tenant port shares with foreign ports with a "
	    "full member on one side: a PathRecord to a foreign port carries "
	    "it, or both P_Key tables hold it. Passes when no partition is "
	    "shared with any foreign port discovery found. " NOT_PASSED,
	.eval = eval_shared,
};
