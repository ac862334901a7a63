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
	n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
	if (n <= 0) {
		if (why != NULL)
			*why = fa_strdup("no InfiniBand device (umad) found");
		return FA_ERR_UNAVAIL;
	}
	memset(&up, 0, sizeof(up));
	if (umad_get_port(o->ca, o->port, &up) < 0) {
		if (why != NULL)
			*why = fa_strfmt("no usable port on %s",
			    o->ca != NULL ? o->ca : names[0]);
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

int
fa_ib_collect(const struct fa_ib_opts *o, struct fa_snapshot *snap)
{
	struct fa_ib ib;
	int r;

	memset(&ib, 0, sizeof(ib));
	ib.opts = o;
	ib.snap = snap;
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
	/* Discovery first: see fa_ib_port_attrs() on why. */
	if ((r = fa_ib_discover(&ib)) != 0)
		goto out;
	if ((r = fa_ib_local(&ib)) != 0 || ib.srcport == NULL ||
	    snap->fam[FA_FAM_IB].state == FA_FAMST_FAILED ||
	    snap->fam[FA_FAM_IB].state == FA_FAMST_UNAVAILABLE)
		goto out;
	if ((r = fa_ib_sminfo(&ib)) != 0 ||
	    (r = fa_ib_pkeys_local(&ib)) != 0)
		goto out;
	r = fa_snapshot_set_family(snap, FA_FAM_IB, FA_FAMST_COLLECTED, NULL);
out:
	if (ib.fabric != NULL)
		ibnd_destroy_fabric(ib.fabric);
	if (ib.srcport != NULL)
		mad_rpc_close_port(ib.srcport);
	free(ib.node_desc);
	return r;
}
