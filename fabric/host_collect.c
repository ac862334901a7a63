/* SPDX-License-Identifier: BSD-2-Clause */
/* The host family's collection run (see host.h). */
#include <stdlib.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host.h"
#include "host_ctk.h"
#include "host_dpkg.h"
#include "host_gobuild.h"
#include "host_ident.h"
#include "host_mounts.h"
#include "host_ns.h"
#include "host_osrel.h"
#include "host_paths.h"
#include "host_proc.h"
#include "host_rpm.h"
#include "host_unix.h"
#include "host_versions.h"

static int
add_cvedb(const struct fa_host_opts *o, struct fa_snapshot *snap)
{
	struct fa_obs_build b;
	json_t *data;

	if (o->cvedb == NULL)
		return fa_snapshot_add(snap, FA_FAM_HOST, NULL,
		    FA_KIND_HOST_CVEDB, o->cvedb_path != NULL ? o->cvedb_path :
		    "catalogue", "load", FA_OBS_NOT_COLLECTED, o->cvedb_why !=
		    NULL ? o->cvedb_why : "no catalogue", NULL, NULL);
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_CVEDB, path), o->cvedb_path);
	fa_put_obj(&b, FA_F(HOST_CVEDB, catalogue),
	    json_incref((json_t *)o->cvedb));
	if ((data = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_CVEDB,
	    o->cvedb_path, "load", FA_OBS_COMPLETE, NULL, data, NULL);
}

int
fa_host_collect(const struct fa_host_opts *o, struct fa_snapshot *snap,
    char **why)
{
	static int (*const collectors[])(const struct fa_sysroot *,
	    struct fa_snapshot *) = {
		fa_host_collect_proc, fa_host_collect_ident,
		fa_host_collect_ns, fa_host_collect_mounts,
		fa_host_collect_paths, fa_host_collect_unix,
		fa_host_collect_versions, fa_host_collect_osrel,
		fa_host_collect_dpkg, fa_host_collect_rpm,
		fa_host_collect_gobuild,
		fa_host_collect_ctk,
	};
	struct fa_sysroot root;
	size_t i;
	int r;

	if ((r = fa_sysroot_open(o->sysroot, &root)) != 0) {
		if (r == FA_ERR_NOMEM)
			return r;
		if (why != NULL && (*why = fa_strfmt("sysroot %s: %s",
		    o->sysroot, r == FA_ERR_INPUT ?
		    "not a directory" : fa_sysroot_strerror(r))) == NULL)
			return FA_ERR_NOMEM;
		return fa_snapshot_set_family(snap, FA_FAM_HOST,
		    FA_FAMST_UNAVAILABLE, why != NULL ? *why : NULL);
	}
	for (i = 0, r = 0; r == 0 && i < sizeof(collectors) /
	    sizeof(collectors[0]); i++) {
		/* --max-time, between steps: each step is a few reads. */
		if (fa_deadline_passed()) {
			fa_deadline_cut(FA_FAM_HOST, "after %zu of the %zu "
			    "steps of the host scan", i, sizeof(collectors) /
			    sizeof(collectors[0]));
			break;
		}
		r = collectors[i](&root, snap);
	}
	fa_sysroot_close(&root);
	if (r == 0)
		r = add_cvedb(o, snap);
	if (r == 0)
		r = fa_snapshot_set_family(snap, FA_FAM_HOST,
		    FA_FAMST_COLLECTED, NULL);
	return r;
}
