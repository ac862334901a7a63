/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IB-PKEY-DEFAULT-FULL: the tenant port is a full member of the default
 * partition.  A P_Key's bit 15 is the membership bit (1 full, 0 limited)
 * and two ports may talk only when their bases match and at least one is
 * full (IBA vol. 1 10.9).  0xFFFF in the tenant's table therefore lets it
 * talk to every port in the default partition, limited members included:
 * other tenants' nodes that the provider left there.  0x7FFF (limited) is
 * the safe form.
 */
#include <stdio.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_fields.h"

static const char *const refs[] = {
	"InfiniBand Architecture Specification Vol. 1, 10.9: partitioning "
	    "(full and limited membership)",
	"InfiniBand Architecture Specification Vol. 1, 14.2.5: P_KeyTable "
	    "attribute",
	"OpenSM partitions.conf: Default=0x7fff : ALL=limited, SELF=full",
	FA_CMAX_PKEYS,
	NULL
};

/* Find 0xFFFF among the pkeys of o; 1 found, 0 not, <0 malformed. */
static int
has_full_default(const struct fa_obs *o, size_t *count)
{
	const json_t *arr = fa_obs_arr(o, FA_F(IB_PKEYS, pkeys)), *v;
	uint64_t pk;
	size_t i;
	int found = 0;

	if (!json_is_array(arr))
		return FA_ERR_INPUT;
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v) || fa_parse_u64(json_string_value(v), 1,
		    0xffff, &pk, NULL) != 0)
			return FA_ERR_INPUT;
		if (pk == 0xffff)
			found = 1;
	}
	*count = json_array_size(arr);
	return found;
}

/*
 * The command that reads the tenant port's P_Key table: LID-routed to its
 * LID, from any node, or where the LID is unknown by directed route 0 on
 * the tenant node.  0 or FA_ERR_NOMEM.
 */
static int
add_repro(json_t *ev, const struct fa_obs *o)
{
	long long lid = 0;
	char cmd[48];
	const char *note;

	(void)fa_obs_int(o, FA_F(IB_PKEYS, lid), 1, 0xbfff, &lid);
	if (lid > 0) {
		snprintf(cmd, sizeof(cmd), "smpquery pkeys %lld", lid);
		note = "the tenant port's P_Key table, LID-routed from any "
		    "node (on the tenant node, smpquery -D pkeys 0 reads the "
		    "same table); 0xffff is full membership of the default "
		    "partition, 0x7fff limited";
	} else {
		snprintf(cmd, sizeof(cmd), "smpquery -D pkeys 0");
		note = "run on the tenant node: directed route 0 is the tenant "
		    "port itself; 0xffff is full membership of the default "
		    "partition, 0x7fff limited";
	}
	return fa_ib_repro(ev, cmd, note);
}

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	const char *name, *role;
	size_t it = 0, n = 0;
	long long got = 0, total = 0;
	json_t *ev;
	int r, full, seen = 0;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_PKEYS, &it))) {
		role = fa_obs_str(o, FA_F(IB_PKEYS, role));
		if (role == NULL || strcmp(role, "local") != 0)
			continue;
		seen++;
		name = fa_obs_str(o, FA_F(IB_PKEYS, node_desc));
		if (o->state != FA_OBS_COMPLETE &&
		    o->state != FA_OBS_INCOMPLETE) {
			if ((r = fa_results_add(out, c, fa_status_for_obs(o),
			    o->target, name, NULL, "the tenant port's P_Key "
			    "table could not be read (%s)", fa_obs_reason(o))) < 0)
				return r;
			continue;
		}
		if ((full = has_full_default(o, &n)) < 0) {
			if ((r = fa_results_add(out, c, FA_ST_ERROR, o->target,
			    name, NULL, "observation %s holds a malformed P_Key "
			    "list", o->id)) < 0)
				return r;
			continue;
		}
		if (fa_obs_int(o, FA_F(IB_PKEYS, blocks_read), 0, 2048,
		    &got) != 0 ||
		    fa_obs_int(o, FA_F(IB_PKEYS, blocks_total), 0, 2048,
		    &total) != 0 || got > total || (o->state ==
		    FA_OBS_COMPLETE && (total == 0 || got != total))) {
			if ((r = fa_results_add(out, c, FA_ST_ERROR, o->target,
			    name, NULL, "observation %s has inconsistent block "
			    "counts", o->id)) < 0)
				return r;
			continue;
		}
		if ((ev = json_array()) == NULL || fa_evidence_add(ev,
		    fa_evidence(o, "pkeys", json_deep_copy(fa_obs_arr(o,
		    FA_F(IB_PKEYS, pkeys))))) != 0 || add_repro(ev, o) != 0) {
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		if (full)
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, name,
			    ev, "the tenant port holds P_Key 0xffff: full "
			    "member of the default partition");
		else if (o->state == FA_OBS_COMPLETE)
			r = fa_results_add(out, c, FA_ST_PASS, o->target, name,
			    ev, "no 0xffff among the %zu P_Keys of the tenant "
			    "port (%lld of %lld blocks read)", n, got, total);
		else
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    name, ev, "only %lld of %lld P_Key blocks could be "
			    "read (%s); no 0xffff among them", got, total,
			    fa_obs_reason(o));
		if (r < 0)
			return r;
	}
	if (seen == 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "local", NULL,
		    NULL, "the tenant port's P_Key table was not read");
	return 0;
}

const struct fa_check fa_chk_ib_pkey_default_full = {
	.id = "IB-PKEY-DEFAULT-FULL",
	.family = FA_FAM_IB,
	.own_port_only = 1,
	.severity = FA_SEV_HIGH,
	.title = "Tenant port is a full member of the default partition",
	.rationale =
	    "A full member of the default partition (P_Key 0xFFFF) may "
	    "exchange traffic with every port in that partition, including "
	    "other tenants' ports that are limited members. Partition "
	    "isolation between tenants then depends on nothing.",
	.remediation =
	    "Make tenant ports limited members of the default partition "
	    "(0x7FFF; OpenSM partitions.conf 'Default=0x7fff : ALL=limited, "
	    "SELF=full ;' or UFM default_membership limited) and give each "
	    "tenant its own partition in which only its ports are full "
	    "members.",
	.msa_clause =
	    "Provider shall configure the default InfiniBand partition so "
	    "that Customer ports are limited members only (P_Key 0x7FFF), "
	    "and shall place Customer ports in one or more partitions "
	    "dedicated to Customer, in which no other tenant's port is a "
	    "member.",
	.refs = refs,
	.sends =
	    "Only Gets to the tenant's own adapter: SubnGet(P_KeyTable), "
	    "M_Key 0, by directed route with hop count 0 (answered by the "
	    "tenant port's own SMA), one per block of 32 entries as its "
	    "NodeInfo PartitionCap gives.",
	.outcomes =
	    "Fails when the tenant port's table holds 0xFFFF, full "
	    "membership of the default partition. Passes when the whole "
	    "table was read and holds no 0xFFFF. Not tested when the table "
	    "could not be read, or was read only in part without a 0xFFFF "
	    "among the blocks read.",
	.eval = eval,
};
