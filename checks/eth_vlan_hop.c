/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ETH-VLAN-HOP: the tenant port delivers frames into a VLAN it should not
 * reach (eth.vlan_probe, sent only under --active).  A reply to an ARP
 * probe tagged with a foreign VID proves the port accepts that VLAN
 * (a trunk leak); a reply to the double-tagged probe proves native-VLAN
 * hopping.  No reply is a pass, but only as strong as the targets named:
 * a VLAN without a listed host that answers ARP cannot show a leak.
 */
#include <stdio.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_checks.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

static const char *const refs[] = {
	"IEEE 802.1Q-2018 (VLAN membership, ingress filtering)",
	"RFC 5227 (ARP probes)",
	"NIST SP 800-125B (VLAN hopping)",
	FA_CMAX_VLAN,
	NULL
};

/*
 * The VLANs probed through a VLAN device (eth.vlan_probe "methods"), as
 * "300, 301" in buf, and how many: a reply that came through one arrives
 * untagged, so when one VLAN was probed so, the reply is that VLAN's.
 */
static void
dev_vlans(const struct fa_obs *o, char *buf, size_t len, size_t *n)
{
	const json_t *m;
	const char *how;
	size_t i;

	buf[0] = '\0';
	*n = 0;
	json_array_foreach(fa_obs_arr(o, FA_F(ETH_VLAN_PROBE, methods)), i,
	    m) {
		how = fa_json_get_str(m, "method");
		if (how == NULL || strcmp(how, "vlan device") != 0 ||
		    !json_is_integer(json_object_get(m, "vid")))
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%lld",
		    *n > 0 ? ", " : "", (long long)json_integer_value(
		    json_object_get(m, "vid")));
		(*n)++;
	}
}

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	const json_t *replies, *sent, *e, *vid;
	const char *via;
	size_t it = 0, seen = 0, i, ndev;
	char list[512], devs[64];
	int r, active;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_ETH, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_ETH_VLAN_PROBE,
	    &it))) {
		seen++;
		replies = fa_obs_arr(o, FA_F(ETH_VLAN_PROBE, replies));
		/* Dropped frames can hide a reply, never invent one. */
		if (o->state != FA_OBS_COMPLETE &&
		    (o->state != FA_OBS_INCOMPLETE ||
		    json_array_size(replies) == 0)) {
			if ((r = fa_results_add(out, c, fa_status_for_obs(o),
			    o->target, NULL, NULL, "%s", fa_obs_reason(o))) < 0)
				return r;
			continue;
		}
		sent = fa_obs_arr(o, FA_F(ETH_VLAN_PROBE, sent));
		list[0] = '\0';
		dev_vlans(o, devs, sizeof(devs), &ndev);
		json_array_foreach(replies, i, e) {
			if (i >= 4)
				break;
			vid = json_object_get(e, "vid");
			via = fa_json_get_str(e, "via");
			if (json_is_integer(vid))
				snprintf(list + strlen(list), sizeof(list) -
				    strlen(list), "%s%s in VLAN %lld (%s)",
				    i > 0 ? ", " : "",
				    fa_json_get_str(e, "target"), (long long)
				    json_integer_value(vid), via != NULL &&
				    strcmp(via, "vlan device") == 0 ?
				    "through its VLAN device" : "reply tagged");
			else if (via != NULL && strcmp(via, "untagged") == 0)
				/* Our probe answered, the answer untagged. */
				snprintf(list + strlen(list), sizeof(list) -
				    strlen(list), "%s%s (reply untagged: the "
				    "port leaves a VLAN probed untagged on "
				    "egress)", i > 0 ? ", " : "",
				    fa_json_get_str(e, "target"));
			else
				/* Older: it came through a VLAN device. */
				snprintf(list + strlen(list), sizeof(list) -
				    strlen(list), "%s%s in VLAN %s (through "
				    "its VLAN device)", i > 0 ? ", " : "",
				    fa_json_get_str(e, "target"), ndev == 1 ?
				    devs : ndev > 1 ? "one of the VLANs probed "
				    "so" : "unknown");
		}
		if (ndev > 1 && strstr(list, "one of the VLANs") != NULL)
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), " (VLANs %s)", devs);
		/* No reply to no probe says nothing. */
		if (json_array_size(replies) == 0 &&
		    json_array_size(sent) == 0) {
			if ((r = fa_results_add(out, c, FA_ST_NOT_TESTED,
			    o->target, NULL, NULL, "no tagged probe was sent "
			    "on %s", o->target)) < 0)
				return r;
			continue;
		}
		r = json_array_size(replies) > 0 ? fa_results_add(out, c,
		    FA_ST_FAIL, o->target, NULL, json_pack("[o, o]",
		    fa_evidence(o, "sent", json_deep_copy(sent)),
		    fa_evidence(o, "replies", json_deep_copy(replies))),
		    "hosts of a VLAN the tenant must not reach answered probes "
		    "tagged into it: %s", list) : fa_results_add(out, c,
		    FA_ST_PASS, o->target, NULL, json_pack("[o]", fa_evidence(
		    o, "sent", json_deep_copy(sent))), "no reply to the %zu "
		    "tagged ARP probes into the policy's foreign VLANs",
		    json_array_size(sent));
		if (r < 0)
			return r;
	}
	if (seen > 0)
		return 0;
	active = json_is_true(json_object_get(json_object_get(ctx->snap->meta,
	    "scan"), "active"));
	if (ctx->policy->n_foreign_vlan == 0)
		r = fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "eth", NULL,
		    NULL, "the policy lists no foreign_vlan to probe");
	else
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "eth", NULL, NULL,
		    "%s", active ? "no interface was probed (a capture file "
		    "was analysed, or none was up)" : "the VLAN probes send "
		    "frames into other VLANs and run only with --active");
	return r < 0 ? r : 0;
}

const struct fa_check fa_chk_eth_vlan_hop = {
	.id = "ETH-VLAN-HOP",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "The tenant port can send frames into other VLANs",
	.rationale = "If frames tagged (or double-tagged) with another VLAN's "
	    "ID are delivered into that VLAN, the tenant can reach hosts of "
	    "other tenants or of the provider's management network at layer 2.",
	.remediation = "Configure tenant ports as access ports that drop "
	    "tagged frames, or trunks that admit only the tenant's VLANs; "
	    "never use a tenant VLAN as the native VLAN of a trunk.",
	.msa_clause = "Provider shall configure Customer-facing ports so that "
	    "frames sent by Customer cannot enter any VLAN other than "
	    "Customer's own.",
	.refs = refs,
	.sends = "With --active only, and only for the VLAN IDs of the "
	    "policy's foreign_vlan lines: for each such VLAN and each "
	    "single-host IPv4 mgmt_target or foreign_target (at most 16), one "
	    "broadcast ARP probe (RFC 5227: sender address 0.0.0.0, so no "
	    "neighbour cache learns anything) tagged with that VLAN ID, and "
	    "one double-tagged (outer tag the port's own VLAN, from LLDP or "
	    "the first tenant_vlan) when that VLAN is known; at most 20 frames "
	    "a second, then one second of listening for the replies. Without "
	    "--active nothing is sent.",
	.outcomes = "One result per interface probed. Fails when a host "
	    "answers a probe tagged into a VLAN the tenant must not reach (a "
	    "tagged leak, or native-VLAN hopping for the double-tagged probe): "
	    "an ARP reply from a target to the scan's MAC, in that VLAN or "
	    "untagged to the probe's sender address 0.0.0.0. "
	    "Passes when no probe is answered; that is only as strong as the "
	    "targets named, since a VLAN without a listed host that answers "
	    "ARP cannot show a leak. Not applicable when the policy lists no "
	    "foreign_vlan. Not tested without --active, or when no interface "
	    "was probed or no probe sent.",
	.eval = eval,
};
