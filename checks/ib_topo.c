/* SPDX-License-Identifier: BSD-2-Clause */
/* Read helpers over the IB topology observation (see ib_topo.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

int
fa_ib_secret_zero(const json_t *secret, int *zero)
{
	const char *v;
	uint64_t key;
	int wk;

	if (!json_is_object(secret) ||
	    fa_json_get_bool(secret, "zero", zero) != 0)
		return FA_ERR_INPUT;
	v = fa_json_get_str(secret, "value");
	if (v == NULL)
		return FA_ERR_INPUT;
	if (strcmp(v, FA_REDACTED) == 0)
		return 0;
	if (fa_parse_hex64(v, &key, NULL) != 0 || (key == 0) != (*zero != 0))
		return FA_ERR_INPUT;
	/* A well_known fact, where present, must agree with the value too. */
	if (fa_json_get_bool(secret, "well_known", &wk) == 0 &&
	    (key <= 1) != (wk != 0))
		return FA_ERR_INPUT;
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
 * checks/evaluate.c keeps any check from passing on it.
 */
const struct fa_obs *
fa_ib_topology(const struct fa_snapshot *s)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_IB_TOPOLOGY,
	    "fabric");

	if (o == NULL || (o->state != FA_OBS_COMPLETE &&
	    o->state != FA_OBS_INCOMPLETE) ||
	    !json_is_array(fa_obs_arr(o, FA_F(IB_TOPOLOGY, nodes))))
		return NULL;
	return o;
}

const struct fa_obs *
fa_ib_local_obs(const struct fa_snapshot *s)
{
	size_t it = 0;
	const struct fa_obs *o = fa_snapshot_next(s, FA_KIND_IB_LOCAL, &it);

	return o != NULL && o->state == FA_OBS_COMPLETE ? o : NULL;
}

/*
 * Where a switch's external port (1..N) leaves out its GUID or LID, they
 * are port 0's (fabric/ib_discover.c writes them only where they differ,
 * and port 0 first): the member of the node's first entry when that is
 * port 0, or NULL (a CA's port, port 0 itself, or no port 0 first, and
 * then the port is malformed).  Only the first entry is looked at, so
 * that a hostile node of many ports costs no more than a well-formed one.
 */
static const json_t *
from_port0(const json_t *node, const json_t *ports, const json_t *port,
    const char *key)
{
	const json_t *e = json_array_get(ports, 0);
	const char *type = fa_json_get_str(node, "type");
	long long num;

	if (json_object_get(port, key) != NULL || type == NULL ||
	    strcmp(type, "Switch") != 0 ||
	    fa_json_get_int(port, "num", 1, 255, &num) != 0 ||
	    fa_json_get_int(e, "num", 0, 0, &num) != 0)
		return NULL;
	return json_object_get(e, key);
}

/* Port pi of node: the reference, or FA_ERR_INPUT when malformed. */
static int
decode_port(const json_t *node, const json_t *ports, size_t pi,
    struct fa_ib_port_ref *ref)
{
	const json_t *g, *l;
	const char *info;

	ref->node = node;
	ref->port = json_array_get(ports, pi);
	ref->type = fa_json_get_str(node, "type");
	ref->desc = fa_json_get_str(node, "desc");
	info = fa_json_get_str(ref->port, "portinfo");
	ref->info = info == NULL;
	ref->lid = 0;
	g = from_port0(node, ports, ref->port, "guid");
	l = from_port0(node, ports, ref->port, "lid");
	if (ref->type == NULL || ref->desc == NULL ||
	    (info != NULL && strcmp(info, "unanswered") != 0) ||
	    fa_json_get_u64(node, "guid", &ref->node_guid) != 0 ||
	    (g != NULL ? !json_is_string(g) || fa_parse_hex64(
	    json_string_value(g), &ref->port_guid, NULL) != 0 :
	    fa_json_get_u64(ref->port, "guid", &ref->port_guid) != 0) ||
	    fa_json_get_int(ref->port, "num", 0, 255, &ref->num) != 0 ||
	    (ref->info && (l != NULL ? !json_is_integer(l) ||
	    json_integer_value(l) < 0 || json_integer_value(l) > 0xffff :
	    fa_json_get_int(ref->port, "lid", 0, 0xffff, &ref->lid) != 0)))
		return FA_ERR_INPUT;
	if (ref->info && l != NULL)
		ref->lid = (long long)json_integer_value(l);
	return 0;
}

/* The walk over the topology's JSON, when the view cannot be built. */
static int
next_port_json(const struct fa_obs *topo, size_t *ni, size_t *pi,
    struct fa_ib_port_ref *ref)
{
	const json_t *nodes = fa_obs_arr(topo, FA_F(IB_TOPOLOGY, nodes)),
	    *node, *ports;

	while (*ni < json_array_size(nodes)) {
		node = json_array_get(nodes, *ni);
		ports = json_object_get(node, "ports");
		if (!json_is_array(ports))
			return FA_ERR_INPUT;
		if (*pi >= json_array_size(ports)) {
			(*ni)++;
			*pi = 0;
			continue;
		}
		return decode_port(node, ports, (*pi)++, ref) == 0 ? 1 :
		    FA_ERR_INPUT;
	}
	return 0;
}

/*
 * The topology's ports decoded once, as next_port_json() yields them, and
 * kept as the observation's memo: every check walks the ports, some
 * several times (each unexplored gate), and at 10,000 nodes decoding the
 * GUID strings again on every walk was most of the evaluation's time.
 * A malformed member ends the view where the walk would fail (bad_ni,
 * bad_pi); the walk over the view fails at the same place.
 */
struct topo_view {
	struct fa_ib_port_ref *v;	/* the ports, in topology order */
	size_t		*first;		/* node i's first port in v; first[nn]
					   = n */
	size_t		 n, nn;		/* ports, nodes in the view */
	int		 bad;		/* a malformed member at
					   bad_ni, bad_pi */
	size_t		 bad_ni, bad_pi;
	size_t		*unexpl;	/* unexplored ports' positions in v */
	size_t		 nunexpl;
	int		 unexpl_done;
};

static void
view_free(void *p)
{
	struct topo_view *w = p;

	if (w == NULL)
		return;
	free(w->v);
	free(w->first);
	free(w->unexpl);
	free(w);
}

/* Room for `need` elements in a vector of *cap elements of size. */
static void *
room(void *v, size_t need, size_t *cap, size_t size)
{
	size_t nc;

	if (need <= *cap)
		return v;
	nc = *cap == 0 ? 64 : *cap;
	while (nc < need)
		nc *= 2;
	if ((v = realloc(v, nc * size)) != NULL)
		*cap = nc;
	return v;
}

static struct topo_view *
view_build(const struct fa_obs *topo)
{
	const json_t *nodes = fa_obs_arr(topo, FA_F(IB_TOPOLOGY, nodes)),
	    *node, *ports;
	struct topo_view *w = calloc(1, sizeof(*w));
	struct fa_ib_port_ref *nv;
	size_t ni, pi, np, cap = 0, total = json_array_size(nodes);

	if (w == NULL || (w->first = calloc(total + 1,
	    sizeof(*w->first))) == NULL)
		goto nomem;
	for (ni = 0; ni < total && !w->bad; ni++) {
		w->first[ni] = w->n;
		w->nn = ni + 1;
		node = json_array_get(nodes, ni);
		ports = json_object_get(node, "ports");
		np = json_array_size(ports);
		if (!json_is_array(ports)) {
			w->bad = 1;
			w->bad_ni = ni;
			w->bad_pi = 0;
			break;
		}
		if ((nv = room(w->v, w->n + np, &cap, sizeof(*nv))) == NULL)
			goto nomem;
		w->v = nv;
		for (pi = 0; pi < np; pi++) {
			if (decode_port(node, ports, pi, &w->v[w->n]) != 0) {
				w->bad = 1;
				w->bad_ni = ni;
				w->bad_pi = pi;
				break;
			}
			w->n++;
		}
	}
	w->first[w->nn] = w->n;
	return w;
nomem:
	view_free(w);
	return NULL;
}

/* The memo of a view that could not be built: not tried again. */
static void
view_failed(void *p)
{
	(void)p;
}

/* The view of topo, built on first use; NULL when out of memory. */
static struct topo_view *
view_of(const struct fa_obs *topo)
{
	/* The memo is the observation's cache, not its data: filled in
	 * place (obs are allocated, never const objects). */
	struct fa_obs *o = (struct fa_obs *)topo;

	if (o->memo == NULL && o->memo_free == NULL)
		o->memo_free = (o->memo = view_build(topo)) != NULL ?
		    view_free : view_failed;
	return o->memo_free == view_free ? o->memo : NULL;
}

int
fa_ib_next_port(const struct fa_obs *topo, size_t *ni, size_t *pi,
    struct fa_ib_port_ref *ref)
{
	const struct topo_view *w = view_of(topo);

	if (w == NULL)		/* out of memory: walk the JSON */
		return next_port_json(topo, ni, pi, ref);
	while (*ni < w->nn) {
		if (w->bad && *ni == w->bad_ni && *pi >= w->bad_pi)
			return FA_ERR_INPUT;
		if (*pi >= w->first[*ni + 1] - w->first[*ni]) {
			(*ni)++;
			*pi = 0;
			continue;
		}
		*ref = w->v[w->first[*ni] + (*pi)++];
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
	o = ref->info ? json_pack("{s:s, s:s, s:I, s:s}", "target", t,
	    "port_guid", guid, "lid", (json_int_t)ref->lid, "node_desc",
	    ref->desc) : json_pack("{s:s, s:s, s:n, s:s, s:s}", "target", t,
	    "port_guid", guid, "lid", "node_desc", ref->desc, "portinfo",
	    "unanswered");
	free(t);
	return o;
}

#define PHYS_LINKUP	5	/* PortPhysicalState, IBA vol. 1 14.2.5.6 */
#define NAMES_MAX	8	/* ports named in a reason */

int
fa_ib_port_unexplored(const struct fa_ib_port_ref *ref)
{
	long long v;

	if (!ref->info)
		return 1;
	if (ref->num == 0 ||
	    json_object_get(ref->port, "remote_node_guid") != NULL)
		return 0;
	/* libibnetdisc follows a link when it is physically up. */
	if (fa_json_get_int(ref->port, "phys_state", 0, 15, &v) == 0)
		return v == PHYS_LINKUP;
	return fa_json_get_int(ref->port, "state", 0, 15, &v) == 0 && v >= 2;
}

/* The view's unexplored ports, listed once (the gates ask repeatedly). */
static int
unexplored_list(struct topo_view *w)
{
	size_t i, cap = 0, *nv;

	if (w->unexpl_done)
		return 0;
	w->nunexpl = 0;
	for (i = 0; i < w->n; i++) {
		if (!fa_ib_port_unexplored(&w->v[i]))
			continue;
		if ((nv = room(w->unexpl, w->nunexpl + 1, &cap,
		    sizeof(*nv))) == NULL)
			return FA_ERR_NOMEM;
		w->unexpl = nv;
		w->unexpl[w->nunexpl++] = i;
	}
	w->unexpl_done = 1;
	return 0;
}

/* The next listed unexplored port; at the end, the view's malformed
 * member fails the walk as fa_ib_next_port() would. */
static int
next_listed(const struct topo_view *w, size_t *k, struct fa_ib_port_ref *ref)
{
	if (*k < w->nunexpl) {
		*ref = w->v[w->unexpl[(*k)++]];
		return 1;
	}
	return w->bad ? FA_ERR_INPUT : 0;
}

int
fa_ib_unexplored(const struct fa_obs *topo, size_t *count, char **names,
    json_t **items)
{
	struct topo_view *w = view_of(topo);
	struct fa_ib_port_ref ref;
	size_t ni = 0, pi = 0, k = 0;
	char *t, *s;
	json_t *it;
	int r;

	*count = 0;
	*names = NULL;
	if (items != NULL && (*items = json_array()) == NULL)
		return FA_ERR_NOMEM;
	if (w != NULL && unexplored_list(w) != 0)
		w = NULL;	/* out of memory: walk every port */
	while ((r = w != NULL ? next_listed(w, &k, &ref) :
	    fa_ib_next_port(topo, &ni, &pi, &ref)) == 1) {
		if (w == NULL && !fa_ib_port_unexplored(&ref))
			continue;
		if (++*count <= NAMES_MAX) {
			if ((t = fa_ib_ref_target(&ref)) == NULL)
				goto nomem;
			s = ref.info ? fa_strfmt("%s%s%s (%s, LID %lld)",
			    *names != NULL ? *names : "", *names != NULL ?
			    ", " : "", t, fa_ib_desc_known(&ref) ? ref.desc :
			    "NodeDescription unknown", ref.lid) :
			    fa_strfmt("%s%s%s (%s, PortInfo unanswered)",
			    *names != NULL ? *names : "", *names != NULL ?
			    ", " : "", t, fa_ib_desc_known(&ref) ? ref.desc :
			    "NodeDescription unknown");
			free(t);
			if (s == NULL)
				goto nomem;
			free(*names);
			*names = s;
		}
		if (items != NULL && json_array_size(*items) < FA_IB_LIST_MAX &&
		    ((it = fa_ib_port_json(&ref)) == NULL ||
		    json_array_append_new(*items, it) != 0))
			goto nomem;
	}
	if (r < 0) {
		r = FA_ERR_INPUT;
		goto bad;
	}
	if (*count > NAMES_MAX) {
		s = fa_strfmt("%s (first %d of %zu)", *names, NAMES_MAX,
		    *count);
		if (s == NULL)
			goto nomem;
		free(*names);
		*names = s;
	}
	return 0;
nomem:
	r = FA_ERR_NOMEM;
bad:
	free(*names);
	*names = NULL;
	if (items != NULL) {
		json_decref(*items);
		*items = NULL;
	}
	return r;
}

int
fa_ib_unexplored_gate(const struct fa_check *c, const struct fa_obs *topo,
    struct fa_results *out, const char *seen)
{
	json_t *items, *ev;
	size_t n;
	char *names;
	int r;

	if ((r = fa_ib_unexplored(topo, &n, &names, &items)) < 0) {
		/* A malformed port is the observation's fault: an error. */
		if (r != FA_ERR_INPUT)
			return r;
		r = fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "%s, but observation %s holds a malformed port", seen,
		    topo->id);
		return r < 0 ? r : 1;
	}
	if (n == 0) {
		json_decref(items);
		return 0;
	}
	if ((ev = json_array()) == NULL ||
	    fa_evidence_add(ev, fa_evidence(topo, "unexplored", items)) != 0 ||
	    fa_evidence_add(ev, fa_evidence(topo, "unexplored_count",
	    json_integer((json_int_t)n))) != 0 ||
	    (n > json_array_size(items) && fa_evidence_add(ev, fa_evidence(
	    topo, "unexplored_shown", fa_json_stringf("first %zu of %zu",
	    json_array_size(items), n))) != 0)) {
		if (ev == NULL)
			json_decref(items);
		json_decref(ev);
		free(names);
		return FA_ERR_NOMEM;
	}
	r = fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL, ev,
	    "%s, but %zu port(s) were not observed, nor what lies behind "
	    "them: a link up to a node discovery did not reach (a switch "
	    "that drops SMPs, one at M_Key protection level 2 or more, "
	    "SMPs lost, or a node past the directed-route limit of 64 "
	    "hops), or a PortInfo that went unanswered: %s", seen, n, names);
	free(names);
	return r < 0 ? r : 1;
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
	size_t shown = json_array_size(l->items);
	char *name = NULL;

	if (ev == NULL || fa_evidence_add(ev, fa_evidence(obs, field,
	    l->items)) != 0 || fa_evidence_add(ev, fa_evidence(obs,
	    "count", json_integer((json_int_t)l->count))) != 0)
		goto fail;
	l->items = NULL;
	/* A list cut for the report says so: "first N of M". */
	if (l->count > shown && ((name = fa_strfmt("%s_shown", field)) ==
	    NULL || fa_evidence_add(ev, fa_evidence(obs, name,
	    fa_json_stringf("first %zu of %zu", shown, l->count))) != 0))
		goto fail;
	free(name);
	return ev;
fail:
	if (ev == NULL)
		json_decref(l->items);
	json_decref(ev);
	l->items = NULL;
	free(name);
	return NULL;
}

int
fa_ib_repro(json_t *ev, const char *cmd, const char *note)
{
	if (cmd != NULL && fa_evidence_add(ev, fa_evidence(NULL, "reproduce",
	    json_string(cmd))) != 0)
		return FA_ERR_NOMEM;
	if (note != NULL && fa_evidence_add(ev, fa_evidence(NULL,
	    "reproduce_note", json_string(note))) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_ib_sminfo_repro(json_t *ev, const struct fa_obs *o)
{
	long long lid = 0;
	char cmd[40];

	if (fa_obs_int(o, FA_F(IB_SMINFO, lid), 1, 0xbfff, &lid) != 0)
		return fa_ib_repro(ev, NULL, "no command: the SM's LID is "
		    "unknown");
	snprintf(cmd, sizeof(cmd), "sminfo -d -d %lld", lid);
	return fa_ib_repro(ev, cmd, "-d -d dumps the MADs on stderr; the "
	    "SM_Key is SMInfo bytes 8-15, MAD bytes 72-79: the last 8 bytes "
	    "of the fifth line (offset 0x40) of the \"rcv buf\" dump");
}

/* ib.engine's lost_sends, of the audit or of discovery. */
static long long
engine_lost(const struct fa_snapshot *s, int discovery)
{
	const struct fa_obs *o;
	long long a = 0;
	size_t it = 0;

	if ((o = fa_snapshot_next(s, FA_KIND_IB_ENGINE, &it)) == NULL)
		return 0;
	if (discovery)
		(void)fa_json_get_int(fa_obs_obj(o, FA_F(IB_ENGINE,
		    discovery)), "lost_sends", 0, LLONG_MAX, &a);
	else
		(void)fa_obs_int(o, FA_F(IB_ENGINE, lost_sends), 0, LLONG_MAX,
		    &a);
	return a;
}

long long
fa_ib_mads_lost(const struct fa_snapshot *s)
{
	return engine_lost(s, 0);
}

long long
fa_ib_discovery_lost(const struct fa_snapshot *s)
{
	return engine_lost(s, 1);
}
