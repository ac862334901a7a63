/* Read helpers over the IB topology observation (see ib_topo.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"

int
fa_ib_secret_zero(const json_t *secret, int *zero)
{
	const char *v;
	uint64_t key;
	int wk;

	if (!json_is_object(secret) ||
	    fa_json_get_bool(secret, "zero", zero) != 0)
		return -1;
	v = fa_json_get_str(secret, "value");
	if (v == NULL)
		return -1;
	if (strcmp(v, FA_REDACTED) == 0)
		return 0;
	if (fa_parse_hex64(v, &key, NULL) != 0 || (key == 0) != (*zero != 0))
		return -1;
	/* A well_known fact, where present, must agree with the value too. */
	if (fa_json_get_bool(secret, "well_known", &wk) == 0 &&
	    (key <= 1) != (wk != 0))
		return -1;
	return 0;
}

int
fa_ib_sm_enum_gate(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	if (fa_ib_topology(ctx->snap) != NULL)
		return 0;
	return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL, NULL,
	    "discovery did not complete: SMs other than the master named by "
	    "the tenant port's PortInfo were not looked for");
}

/*
 * An incomplete topology (discovery lost SMPs at random, ib_discover.c)
 * is still read: what it shows is true, and a failure seen on it is one;
 * fa_ib_unsteady() keeps any check from passing on it.
 */
const struct fa_obs *
fa_ib_topology(const struct fa_snapshot *s)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_IB_TOPOLOGY,
	    "fabric");

	if (o == NULL || (o->state != FA_OBS_COMPLETE &&
	    o->state != FA_OBS_INCOMPLETE) ||
	    !json_is_array(json_object_get(o->data, "nodes")))
		return NULL;
	return o;
}

static json_int_t
count_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
	    json_integer_value(v) : 0;
}

int
fa_ib_unsteady(const struct fa_snapshot *s, char **why)
{
	const struct fa_obs *o;
	const json_t *d, *disc;
	json_int_t rec, silent, bad;

	*why = NULL;
	o = fa_snapshot_find(s, FA_KIND_IB_TOPOLOGY, "fabric");
	if (o != NULL && o->state == FA_OBS_INCOMPLETE) {
		*why = fa_strdup(fa_obs_reason(o));
		goto out;
	}
	o = fa_snapshot_find(s, "ib.engine", "local");
	d = o != NULL ? o->data : NULL;
	disc = json_object_get(d, "discovery");
	rec = count_of(d, "recovered") + count_of(disc, "recovered");
	silent = count_of(d, "unanswered") + count_of(disc, "failed");
	bad = count_of(d, "malformed") + count_of(disc, "malformed");
	/* Loss seen, and something read as silence: it may be loss too. */
	if (rec > 0 && silent > 0) {
		*why = fa_strfmt("%lld MAD(s) were answered only after a "
		    "lost send and %lld stayed unanswered: with MADs lost at "
		    "random, silence proves nothing", (long long)rec,
		    (long long)silent);
		goto out;
	}
	if (bad > 0) {
		*why = fa_strfmt("%lld malformed answer(s) were ignored: "
		    "what they should have said was not seen", (long long)bad);
		goto out;
	}
	o = fa_snapshot_find(s, "ib.sa.alive_after", "sa");
	if (o != NULL && o->state != FA_OBS_COMPLETE &&
	    o->state != FA_OBS_REJECTED) {
		*why = fa_strfmt("the SA stopped answering during the scan "
		    "(%s): what the SM and SA did not answer was not seen",
		    fa_obs_reason(o));
		goto out;
	}
	return 0;
out:
	return *why != NULL ? 1 : FA_ERR_NOMEM;
}

const struct fa_obs *
fa_ib_local_obs(const struct fa_snapshot *s)
{
	size_t it = 0;
	const struct fa_obs *o = fa_snapshot_next(s, FA_KIND_IB_LOCAL, &it);

	return o != NULL && o->state == FA_OBS_COMPLETE ? o : NULL;
}

int
fa_ib_next_port(const struct fa_obs *topo, size_t *ni, size_t *pi,
    struct fa_ib_port_ref *ref)
{
	const json_t *nodes = json_object_get(topo->data, "nodes"), *ports;

	while (*ni < json_array_size(nodes)) {
		ref->node = json_array_get(nodes, *ni);
		ports = json_object_get(ref->node, "ports");
		if (!json_is_array(ports))
			return -1;
		if (*pi >= json_array_size(ports)) {
			(*ni)++;
			*pi = 0;
			continue;
		}
		ref->port = json_array_get(ports, (*pi)++);
		ref->type = fa_json_get_str(ref->node, "type");
		ref->desc = fa_json_get_str(ref->node, "desc");
		if (ref->type == NULL || ref->desc == NULL ||
		    fa_json_get_u64(ref->node, "guid", &ref->node_guid) != 0 ||
		    fa_json_get_u64(ref->port, "guid", &ref->port_guid) != 0 ||
		    fa_json_get_int(ref->port, "num", 0, 255, &ref->num) != 0 ||
		    fa_json_get_int(ref->port, "lid", 0, 0xffff, &ref->lid) != 0)
			return -1;
		return 1;
	}
	return 0;
}

/* CA ports, and switch port 0 (where an SM on a switch lives). */
static int
findable(const struct fa_ib_port_ref *ref)
{
	return strcmp(ref->type, "CA") == 0 || ref->num == 0;
}

static int
pix_cmp(const void *a, const void *b)
{
	const struct fa_ib_pix *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->ni != y->ni)
		return x->ni < y->ni ? -1 : 1;
	return x->pi < y->pi ? -1 : x->pi > y->pi;
}

int
fa_ib_index_build(const struct fa_obs *topo, struct fa_ib_port_index *ix)
{
	struct fa_ib_port_ref ref;
	struct fa_ib_pix *v;
	size_t ni = 0, pi = 0, cap = 0;
	int r;

	ix->v = NULL;
	ix->n = 0;
	/* After a port is returned, (ni, pi - 1) is its position. */
	while ((r = fa_ib_next_port(topo, &ni, &pi, &ref)) == 1) {
		if (!findable(&ref))
			continue;
		if (ix->n == cap) {
			cap = cap == 0 ? 256 : cap * 2;
			if ((v = realloc(ix->v, cap * sizeof(*v))) == NULL) {
				fa_ib_index_free(ix);
				return FA_ERR_NOMEM;
			}
			ix->v = v;
		}
		ix->v[ix->n].guid = ref.port_guid;
		ix->v[ix->n].ni = ni;
		ix->v[ix->n].pi = pi - 1;
		ix->n++;
	}
	if (r < 0) {
		fa_ib_index_free(ix);
		return FA_ERR_INPUT;
	}
	if (ix->n > 0)
		qsort(ix->v, ix->n, sizeof(ix->v[0]), pix_cmp);
	return 0;
}

void
fa_ib_index_free(struct fa_ib_port_index *ix)
{
	free(ix->v);
	ix->v = NULL;
	ix->n = 0;
}

int
fa_ib_find_port(const struct fa_obs *topo, const struct fa_ib_port_index *ix,
    uint64_t guid, struct fa_ib_port_ref *ref)
{
	size_t ni = 0, pi = 0, lo, hi, mid;
	int r;

	if (ix == NULL) {
		while ((r = fa_ib_next_port(topo, &ni, &pi, ref)) == 1)
			if (ref->port_guid == guid && findable(ref))
				return 1;
		return r;
	}
	/* The first entry with this GUID: topology order breaks ties. */
	lo = 0;
	hi = ix->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ix->v[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ix->n || ix->v[lo].guid != guid)
		return 0;
	ni = ix->v[lo].ni;
	pi = ix->v[lo].pi;
	return fa_ib_next_port(topo, &ni, &pi, ref);
}

int
fa_ib_desc_known(const struct fa_ib_port_ref *ref)
{
	return ref->desc != NULL && ref->desc[0] != '\0';
}

enum fa_ib_owner
fa_ib_owner(const struct fa_eval_ctx *ctx, const struct fa_ib_port_ref *ref,
    uint64_t self_node_guid)
{
	const char *desc = fa_ib_desc_known(ref) ? ref->desc : NULL;

	if (ref->node_guid == self_node_guid)
		return FA_OWN_SELF;
	if (strcmp(ref->type, "CA") != 0)
		return FA_OWN_PROVIDER;
	/* A NULL description matches no glob: GUIDs alone decide. */
	if (fa_policy_is_tenant(ctx->policy, ref->node_guid, ref->port_guid,
	    desc))
		return FA_OWN_TENANT;
	if (fa_policy_is_provider(ctx->policy, ref->node_guid, ref->port_guid,
	    desc))
		return FA_OWN_PROVIDER;
	return desc != NULL ? FA_OWN_FOREIGN : FA_OWN_UNKNOWN;
}

char *
fa_ib_ref_target(const struct fa_ib_port_ref *ref)
{
	char t = strcmp(ref->type, "Switch") == 0 ? 'S' :
	    strcmp(ref->type, "Router") == 0 ? 'R' : 'H';

	return fa_strfmt("%c-0x%016llx/%lld", t,
	    (unsigned long long)ref->node_guid, ref->num);
}

json_t *
fa_ib_port_json(const struct fa_ib_port_ref *ref)
{
	char *t = fa_ib_ref_target(ref), guid[19];
	json_t *o;

	if (t == NULL)
		return NULL;
	snprintf(guid, sizeof(guid), "0x%016llx",
	    (unsigned long long)ref->port_guid);
	o = json_pack("{s:s, s:s, s:I, s:s}", "target", t, "port_guid", guid,
	    "lid", (json_int_t)ref->lid, "node_desc", ref->desc);
	free(t);
	return o;
}

int
fa_ib_list_init(struct fa_ib_list *l)
{
	l->count = 0;
	l->items = json_array();
	return l->items != NULL ? 0 : FA_ERR_NOMEM;
}

int
fa_ib_list_add(struct fa_ib_list *l, json_t *item)
{
	if (item == NULL)
		return FA_ERR_NOMEM;
	l->count++;
	if (json_array_size(l->items) >= FA_IB_LIST_MAX) {
		json_decref(item);
		return 0;
	}
	return json_array_append_new(l->items, item) == 0 ? 0 : FA_ERR_NOMEM;
}

json_t *
fa_ib_list_evidence(struct fa_ib_list *l, const struct fa_obs *obs,
    const char *field)
{
	json_t *ev = json_array();

	if (ev == NULL || fa_evidence_add(ev, fa_evidence(obs, field,
	    l->items)) != 0 || fa_evidence_add(ev, fa_evidence(obs,
	    "count", json_integer((json_int_t)l->count))) != 0) {
		if (ev == NULL)
			json_decref(l->items);
		json_decref(ev);
		l->items = NULL;
		return NULL;
	}
	l->items = NULL;
	return ev;
}
