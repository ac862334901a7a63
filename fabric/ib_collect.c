/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The IB family's acquisition run: open the local port, discover, read
 * our own port, then every other phase at once: each phase starts a feed
 * (ib_feed.c) and one engine run drives them all, so the window stays
 * full across phases.  Each step records what it saw; a step that cannot
 * run leaves its observations absent or marked, and the checks turn that
 * into not_tested.  The phases' observations, recorded in the order their
 * answers came, are then put in an order that does not depend on timing.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

int
fa_ib_available(const struct fa_ib_opts *o, char **why)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	umad_port_t up;
	int n, r = 0;

	if (why != NULL)
		*why = NULL;
	if (umad_init() < 0) {
		if (why != NULL)
			*why = fa_strdup("libibumad could not initialise");
		return FA_ERR_UNAVAIL;
	}
	/*
	 * libibumad reports one default CA name even when none exists, so
	 * a missing device shows as a failing umad_get_port() below.
	 */
	n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
	if (n <= 0) {
		if (why != NULL)
			*why = fa_strdup("no InfiniBand device (umad) found");
		return FA_ERR_UNAVAIL;
	}
	memset(&up, 0, sizeof(up));
	if (umad_get_port(o->ca, o->port, &up) < 0) {
		if (why != NULL)
			*why = o->ca != NULL || o->port != 0 ?
			    fa_strfmt("no usable port %d on %s", o->port,
			    o->ca != NULL ? o->ca : names[0]) :
			    fa_strdup("no InfiniBand device (umad) found");
		return FA_ERR_UNAVAIL;
	}
	if (strcmp(up.link_layer, "InfiniBand") != 0 &&
	    strcmp(up.link_layer, "IB") != 0) {
		if (why != NULL)
			*why = fa_strfmt("%s port %d link layer is %s, not "
			    "InfiniBand", up.ca_name, up.portnum, up.link_layer);
		r = FA_ERR_UNAVAIL;
	} else if (up.state != 4) {	/* PortInfo PortState 4 = Active */
		if (why != NULL)
			*why = fa_strfmt("%s port %d is not active (state %u)",
			    up.ca_name, up.portnum, up.state);
		r = FA_ERR_UNAVAIL;
	}
	umad_release_port(&up);
	return r;
}

/*
 * What the engine did, so the report can say how many MADs were lost.
 * The counters add up (ib_mad.h): "lost" (requests) = "recovered" +
 * "unanswered", and every request finished is in one of "answered",
 * "unanswered", "silent" (the expected silence of a `once` probe, or of a
 * silence_ok one through all its sends: never loss),
 * "send_errors" and "cut"; "no_agent" (answered "class or method not
 * supported") is part of "answered".  "lost_sends" counts sends lost,
 * "resent" the sends after a request's first.  If the engine's counts
 * ever broke those identities, the observation is an error rather than a
 * count a reader would trust.
 */
static int
engine_stats(struct fa_ib *ib)
{
	struct fa_mad_stats st;
	const struct fa_ib_tap_stats *t = &ib->disc;
	struct fa_obs_build b;
	json_t *d;
	char *why = NULL;
	int rc;

	fa_mad_get_stats(ib->mad, &st);
	/*
	 * The top-level counters are the engine's (discovery excluded, as
	 * before); "discovery" holds what the tap saw of libibnetdisc.
	 */
#define PUT(F, V)	fa_put_int(&b, FA_F(IB_ENGINE, F), (long long)(V))
	fa_obs_build(&b);
	PUT(sent, st.sent);
	PUT(answered, st.answered);
	PUT(lost_sends, st.lost_sends);
	PUT(unanswered, st.unanswered);
	PUT(recovered, st.recovered);
	PUT(malformed, st.malformed);
	PUT(busy, st.busy);
	PUT(stray, st.stray);
	PUT(captured, ib->pcap != NULL ? fa_ib_pcap_count(ib->pcap) : 0);
	PUT(max_outstanding, st.window);
	PUT(per_destination, st.per_dest);
	PUT(max_inflight, st.max_inflight);
	PUT(max_inflight_per_destination, st.max_per_dest);
	PUT(sa_per_destination, st.sa_per_dest);
	PUT(max_inflight_to_sa, st.max_sa);
	PUT(destinations, st.dests);
	PUT(audit_ms, ib->audit_ms);
	fa_put_obj(&b, FA_F(IB_ENGINE, discovery), json_pack("{s:I, s:I, "
	    "s:I, s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:I, s:I, s:b}",
	    "sent", (json_int_t)t->sent,
	    "answered", (json_int_t)t->answered,
	    "lost_sends", (json_int_t)t->lost, "held", (json_int_t)t->held,
	    "malformed", (json_int_t)t->malformed,
	    "failed", (json_int_t)t->failed,
	    "recovered", (json_int_t)t->recovered,
	    "max_outstanding", (int)ib->opts->max_outstanding,
	    "per_destination", FA_IB_PER_DEST,
	    "max_inflight", (int)t->max_inflight,
	    "max_inflight_per_destination", (int)t->max_per_dest,
	    "ms", (json_int_t)ib->discovery_ms,
	    "walk_ms", (json_int_t)ib->walk_ms,
	    "tapped", !ib->disc_untapped));
	PUT(lost, st.lost);
	PUT(silent, st.silent);
	PUT(no_agent, st.no_agent);
	PUT(send_errors, st.send_errors);
	PUT(cut, st.cut);
	PUT(resent, st.resent);
	PUT(finished, st.finished);
#undef PUT
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	if (!st.consistent && (why = fa_strfmt("the MAD engine's counters do "
	    "not add up (lost %lu, recovered %lu, unanswered %lu; finished "
	    "%lu, answered %lu, silent %lu, send errors %lu, cut %lu)",
	    st.lost, st.recovered, st.unanswered, st.finished, st.answered,
	    st.silent, st.send_errors, st.cut)) == NULL) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	rc = fa_snapshot_add(ib->snap, FA_FAM_IB, FA_KIND_IB_ENGINE,
	    FA_KIND_IB_ENGINE,
	    "local", "MAD engine counters (discovery excluded: libibnetdisc "
	    "sends its own; its counts are under \"discovery\")",
	    why != NULL ? FA_OBS_ERROR : FA_OBS_COMPLETE, why, d, NULL);
	free(why);
	return rc;
}

/*
 * After the audit the SA is asked once more, for its ClassPortInfo (IBA
 * vol. 1 13.4.8.1, which every SA answers): if the SM went away during
 * the scan, what it then left unanswered was not refusal, and
 * fa_evaluate() (checks/evaluate.c) keeps any IB check from passing.
 */
static int
sa_alive_after(struct fa_ib *ib)
{
	struct fa_mad_req r;
	struct fa_obs_build b;
	int rc;

	if (ib->sm_lid == 0)
		return 0;
	memset(&r, 0, sizeof(r));
	ib_portid_set(&r.dest, ib->sm_lid, 1, IB_DEFAULT_QP1_QKEY);
	r.mgmt_class = IB_SA_CLASS;
	r.method = IB_MAD_METHOD_GET;
	r.attr = CLASS_PORT_INFO;
	if ((rc = fa_mad_call(ib->mad, &r)) != 0 &&
	    r.outcome == FA_MAD_PENDING)
		return rc;
	fa_obs_build(&b);
	return FA_IB_ADD_REQ_OBS(ib, IB_SA_ALIVE, "sa",
	    "SubnAdmGet(ClassPortInfo) to the SA once the audit is done",
	    &r, &b, NULL, 0);
}

/*
 * The phases' kinds in the order their observations are kept; then by
 * target, request and arrival.  Unknown kinds go last.
 */
static const char *const kind_order[] = {
	FA_KIND_IB_SMINFO, FA_KIND_IB_PKEYS, FA_KIND_IB_PKEY_TABLES,
	FA_KIND_IB_SA_PKEY_RECORD,
	FA_KIND_IB_SA_SMINFO, FA_KIND_IB_SA_PATH_TABLE, FA_KIND_IB_PATH_RECORD,
	FA_KIND_IB_KEYPROBES,
	FA_KIND_IB_ACTIVE_MKEY, FA_KIND_IB_GMP_REACH,
};
#define NKINDS	(sizeof(kind_order) / sizeof(kind_order[0]))

struct obs_ref {
	struct fa_obs	 o;
	size_t		 at;	/* where it was recorded */
	unsigned	 rank;
};

static int
obs_cmp(const void *a, const void *b)
{
	const struct obs_ref *x = a, *y = b;
	int c;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->o.target, y->o.target)) != 0 ||
	    (c = strcmp(x->o.request, y->o.request)) != 0)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Put observations [from, nobs) in kind order, then target order, and
 * renumber the ids made from their position ("kind#N").  Returns 0 or
 * FA_ERR_NOMEM (then the order is left as it was).
 */
static int
sort_obs(struct fa_snapshot *snap, size_t from)
{
	struct obs_ref *v;
	size_t n, i, k;
	char *id, *old;

	if (snap->nobs <= from + 1)
		return 0;
	n = snap->nobs - from;
	if ((v = calloc(n, sizeof(*v))) == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		v[i].o = snap->obs[from + i];
		v[i].at = from + i;
		for (k = 0; k < NKINDS; k++)
			if (strcmp(v[i].o.kind, kind_order[k]) == 0)
				break;
		v[i].rank = (unsigned)k;
	}
	qsort(v, n, sizeof(*v), obs_cmp);
	for (i = 0; i < n; i++) {
		snap->obs[from + i] = v[i].o;
		/* fa_snapshot_add() names an observation without an id by
		 * its kind and position. */
		old = fa_strfmt("%s#%zu", v[i].o.kind, v[i].at + 1);
		if (old != NULL && strcmp(old, v[i].o.id) == 0 &&
		    (id = fa_strfmt("%s#%zu", v[i].o.kind, from + i + 1)) !=
		    NULL) {
			free(snap->obs[from + i].id);
			snap->obs[from + i].id = id;
		}
		free(old);
	}
	free(v);
	return 0;
}

/* Nodes and ports in the discovered fabric, for the progress line. */
static void
count_ports(struct fa_ib *ib)
{
	const ibnd_node_t *n;

	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		ib->nnodes++;
		ib->nports += n->type == IB_NODE_SWITCH ?
		    (unsigned long)n->numports + 1 : (unsigned long)n->numports;
	}
}

/* If --max-time cut requests short, note it (core/deadline.h). */
static void
cut_note(struct fa_ib *ib, const char *when)
{
	struct fa_mad_stats st;

	if (ib->mad == NULL)
		return;
	fa_mad_get_stats(ib->mad, &st);
	if (st.cut > 0)
		fa_deadline_cut(FA_FAM_IB, "%s: %lu requests not sent or "
		    "not awaited", when, st.cut);
}

/*
 * Every phase after our own port's: each starts its feed, then one engine
 * run drives them all.  0, or the first failure.
 */
static int
audit(struct fa_ib *ib)
{
	uint64_t t0;
	int r, e, w;

	ib->phase = "audit";
	t0 = fa_ib_now_ms();
	if ((r = fa_ib_sminfo(ib)) != 0 ||
	    (r = fa_ib_pkeys_remote(ib)) != 0 ||
	    (r = fa_ib_sa(ib)) != 0 ||
	    (r = fa_ib_gmp_keys(ib)) != 0 ||
	    (r = fa_ib_active_mkey(ib)) != 0 ||
	    (r = fa_ib_active_gmp(ib)) != 0) {
		/* Finish what was started, then free it. */
		(void)fa_mad_run(ib->mad);
		(void)fa_ib_feeds_end(ib);
		(void)fa_ib_pkeys_remote_end(ib);
		return r;
	}
	r = fa_mad_run(ib->mad);
	e = fa_ib_feeds_end(ib);
	/* What was read is kept, whatever failed. */
	if ((w = fa_ib_pkeys_remote_end(ib)) != 0 && e == 0)
		e = w;
	ib->audit_ms = fa_ib_now_ms() - t0;
	cut_note(ib, "during the audit");
	return r != 0 ? r : e;
}

int
fa_ib_collect(const struct fa_ib_opts *o, struct fa_snapshot *snap)
{
	struct fa_ib ib;
	char *why = NULL;
	size_t first;
	uint64_t t0;
	int r;

	memset(&ib, 0, sizeof(ib));
	ib.opts = o;
	ib.snap = snap;
	/* XXX libibmad's process-wide switches: quiet its own warnings. */
	madrpc_show_errors(0);
	ibdebug = 0;
	if (umad_init() < 0) {
		r = fa_snapshot_set_family(snap, FA_FAM_IB,
		    FA_FAMST_UNAVAILABLE, "libibumad could not initialise");
		goto out;
	}
	if (fa_ib_port_attrs(&ib) != 0) {
		r = fa_snapshot_set_family(snap, FA_FAM_IB,
		    FA_FAMST_UNAVAILABLE, "no usable InfiniBand port (umad)");
		goto out;
	}
	ib.pcap = o->capture;
	/* Discovery first: see fa_ib_port_attrs() on why. */
	t0 = fa_ib_now_ms();
	if ((r = fa_ib_discover(&ib)) != 0)
		goto out;
	ib.discovery_ms = fa_ib_now_ms() - t0;
	/* The topology is final: passed on now, it is read during the audit. */
	fa_snapshot_flush(snap);
	if (ib.fabric != NULL)
		count_ports(&ib);
	r = fa_ib_local(&ib);
	cut_note(&ib, "reading the local port");
	if (r != 0 || ib.mad == NULL ||
	    snap->fam[FA_FAM_IB].state == FA_FAMST_FAILED ||
	    snap->fam[FA_FAM_IB].state == FA_FAMST_UNAVAILABLE)
		goto out;
	r = fa_ib_pkeys_local(&ib);
	cut_note(&ib, "reading the local P_Key table");
	if (r != 0)
		goto out;
	first = snap->nobs;
	if ((r = audit(&ib)) != 0 || (r = sort_obs(snap, first)) != 0 ||
	    (r = sa_alive_after(&ib)) != 0)
		goto out;
	if ((r = engine_stats(&ib)) != 0)
		goto out;
	if (ib.pcap != NULL) {
		r = fa_ib_pcap_sync(ib.pcap, &why);
		ib.pcap = NULL;
		if (r != 0) {
			r = fa_snapshot_set_family(snap, FA_FAM_IB,
			    FA_FAMST_FAILED, why != NULL ? why :
			    "cannot write mads.pcap");
			goto out;
		}
	}
	r = fa_snapshot_set_family(snap, FA_FAM_IB, FA_FAMST_COLLECTED, NULL);
out:
	if (o->progress != NULL) {
		struct fa_ib_progress end;

		memset(&end, 0, sizeof(end));	/* phase NULL: the end */
		o->progress(&end, o->progress_arg);
	}
	/*
	 * The local MAD stack failing is a fact about this scan, recorded so
	 * that the report still gets written (every check then says why).
	 */
	if (r == FA_ERR_IO || r == FA_ERR_INTERNAL)
		r = fa_snapshot_set_family(snap, FA_FAM_IB, FA_FAMST_FAILED,
		    "the local MAD stack failed during the scan (receive "
		    "error or an answer beyond 16 MiB)");
	free(why);
	if (ib.fabric != NULL)
		ibnd_destroy_fabric(ib.fabric);
	fa_mad_close(ib.mad);
	free(ib.node_desc);
	free(ib.smp_table_read);
	return r;
}
