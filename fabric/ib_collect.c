/*
 * The IB family's acquisition run: open the local port, discover, query
 * every SM's SMInfo, read our P_Key table.  Each step records what it saw;
 * a step that cannot run leaves its observations absent or marked, and the
 * checks turn that into not_tested.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

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

/* What the engine did, so the report can say how many MADs were lost. */
static int
engine_stats(struct fa_ib *ib)
{
	struct fa_mad_stats st;
	json_t *d;

	fa_mad_get_stats(ib->mad, &st);
	d = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}",
	    "sent", (json_int_t)st.sent, "answered", (json_int_t)st.answered,
	    "lost_sends", (json_int_t)st.lost,
	    "unanswered", (json_int_t)st.unanswered,
	    "stray", (json_int_t)st.stray, "captured",
	    (json_int_t)(ib->pcap != NULL ? fa_ib_pcap_count(ib->pcap) : 0));
	if (d == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(ib->snap, FA_FAM_IB, "ib.engine", "ib.engine",
	    "local", "MAD engine counters (discovery excluded: libibnetdisc "
	    "sends its own)", FA_OBS_COMPLETE, NULL, d, NULL);
}

int
fa_ib_collect(const struct fa_ib_opts *o, struct fa_snapshot *snap)
{
	struct fa_ib ib;
	char *why = NULL;
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
	if (o->capture_dir != NULL && (r = fa_ib_pcap_open(o->capture_dir,
	    "mads.pcap", &ib.pcap, &why)) != 0) {
		r = fa_snapshot_set_family(snap, FA_FAM_IB, FA_FAMST_FAILED,
		    why != NULL ? why : "cannot create mads.pcap");
		goto out;
	}
	/* Discovery first: see fa_ib_port_attrs() on why. */
	if ((r = fa_ib_discover(&ib)) != 0)
		goto out;
	if ((r = fa_ib_local(&ib)) != 0 || ib.mad == NULL ||
	    snap->fam[FA_FAM_IB].state == FA_FAMST_FAILED ||
	    snap->fam[FA_FAM_IB].state == FA_FAMST_UNAVAILABLE)
		goto out;
	if ((r = fa_ib_sminfo(&ib)) != 0 ||
	    (r = fa_ib_pkeys_local(&ib)) != 0 ||
	    (r = fa_ib_pkeys_remote(&ib)) != 0 ||
	    (r = fa_ib_sa(&ib)) != 0 ||
	    (r = fa_ib_gmp_keys(&ib)) != 0 ||
	    (r = fa_ib_active_mkey(&ib)) != 0 ||
	    (r = fa_ib_active_gmp(&ib)) != 0)
		goto out;
	if ((r = engine_stats(&ib)) != 0)
		goto out;
	if (ib.pcap != NULL) {
		r = fa_ib_pcap_close(ib.pcap, &why);
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
	/*
	 * The local MAD stack failing is a fact about this scan, recorded so
	 * that the report still gets written (every check then says why).
	 */
	if (r == FA_ERR_IO || r == FA_ERR_INTERNAL)
		r = fa_snapshot_set_family(snap, FA_FAM_IB, FA_FAMST_FAILED,
		    "the local MAD stack failed during the scan (receive "
		    "error or an answer beyond 16 MiB)");
	fa_ib_pcap_abort(ib.pcap);
	free(why);
	if (ib.fabric != NULL)
		ibnd_destroy_fabric(ib.fabric);
	fa_mad_close(ib.mad);
	free(ib.node_desc);
	return r;
}
