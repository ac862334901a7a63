/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The policy's must-not-reach targets (eth.reach): ETH-MGMT-REACHABLE,
 * ETH-XTENANT-REACHABLE and ETH-MGMT-TLS-WEAK.  One result per policy
 * target.  A TCP reset or an ICMP port-unreachable is an answer from the
 * host, so it counts as reachable; a timeout or an unreachable network
 * does not.  A probe that could not be sent, or a network only partly
 * probed, turns what would be a pass into not_tested.
 */
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_checks.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

static int
reachable(const char *outcome)
{
	return outcome != NULL && (strcmp(outcome, "answered") == 0 ||
	    strcmp(outcome, "refused") == 0);
}

/* The role's observations, or (none: a capture file) its policy lines. */
static int
eval_reach(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, const char *role,
    const struct fa_pol_target *tv, size_t n)
{
	const struct fa_obs *o;
	const json_t *probes, *pr;
	const char *outc;
	char list[512];
	size_t it = 0, i, seen = 0, bad, unsent;
	json_t *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_ETH, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_ETH_REACH, &it))) {
		if (strcmp(fa_obs_str(o, FA_F(ETH_REACH, role)) != NULL ?
		    fa_obs_str(o, FA_F(ETH_REACH, role)) : "", role) != 0)
			continue;
		seen++;
		probes = fa_obs_arr(o, FA_F(ETH_REACH, probes));
		list[0] = '\0';
		bad = unsent = 0;
		if ((ev = json_array()) == NULL)
			return FA_ERR_NOMEM;
		json_array_foreach(probes, i, pr) {
			outc = fa_json_get_str(pr, "outcome");
			if (outc != NULL && (strcmp(outc, "not_sent") == 0 ||
			    strcmp(outc, "error") == 0))
				unsent++;
			if (!reachable(outc))
				continue;
			if (bad++ < 6)
				snprintf(list + strlen(list), sizeof(list) -
				    strlen(list), "%s%s %s %s", bad > 1 ? ", " :
				    "", fa_json_get_str(pr, "host"),
				    fa_json_get_str(pr, "probe"), outc);
			if (fa_evidence_add(ev, fa_evidence(o, "probe",
			    json_deep_copy(pr))) != 0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
		}
		if (bad > 0)
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, NULL,
			    ev, "%zu probe%s reached a target the policy says "
			    "must not be reachable: %s%s", bad, bad > 1 ? "s" :
			    "", list, bad > 6 ? ", ..." : "");
		else if (unsent > 0 || o->state != FA_OBS_COMPLETE)
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    NULL, ev, "nothing reached, but %s", unsent > 0 ?
			    "some probes could not be sent (see evidence)" :
			    fa_obs_reason(o));
		else {
			if (fa_evidence_add(ev, fa_evidence(o, "probes",
			    json_deep_copy(probes))) != 0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
			r = fa_results_add(out, c, FA_ST_PASS, o->target, NULL,
			    ev, "none of the %zu probes reached it (timeouts "
			    "or unreachable)", json_array_size(probes));
		}
		if (r < 0)
			return r;
	}
	if (seen > 0)
		return 0;
	if (n == 0) {
		r = fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "eth", NULL,
		    NULL, "the policy lists no %s", role);
		return r < 0 ? r : 0;
	}
	/* Not probed (a capture file): one result per line, named as a
	 * live scan names it (fabric/eth_reach.c), for waivers. */
	for (i = 0; i < n; i++) {
		char net[INET6_ADDRSTRLEN + 8], target[96];

		if (inet_ntop(tv[i].net.af, tv[i].net.addr, net,
		    INET6_ADDRSTRLEN) == NULL)
			snprintf(net, sizeof(net), "?");
		snprintf(net + strlen(net), sizeof(net) - strlen(net), "/%u",
		    tv[i].net.prefix);
		snprintf(target, sizeof(target), "%s:%s", role, net);
		if ((r = fa_results_add(out, c, FA_ST_NOT_TESTED, target, NULL,
		    NULL, "%s line %u was not probed (a capture file was "
		    "analysed; targets are probed only from a live scan)",
		    role, tv[i].line)) < 0)
			return r;
	}
	return 0;
}

static int
eval_mgmt(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return eval_reach(c, ctx, out, "mgmt_target",
	    ctx->policy->mgmt_target, ctx->policy->n_mgmt_target);
}

static int
eval_xtenant(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return eval_reach(c, ctx, out, "foreign_target",
	    ctx->policy->foreign_target, ctx->policy->n_foreign_target);
}

/* What is weak about one TLS endpoint; "" when nothing. */
static void
tls_weakness(const json_t *tls, char *buf, size_t len)
{
	const json_t *cert = json_object_get(tls, "cert"), *v;
	const char *type = fa_json_get_str(cert, "key_type");
	long long bits = json_integer_value(json_object_get(cert, "key_bits"));
	size_t i;

	buf[0] = '\0';
	json_array_foreach(json_object_get(tls, "versions"), i, v)
		if (strcmp(json_string_value(v), "TLSv1") == 0 ||
		    strcmp(json_string_value(v), "TLSv1.1") == 0)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s "
			    "accepted", buf[0] ? "; " : "",
			    json_string_value(v));
	if (!json_is_object(cert))
		snprintf(buf + strlen(buf), len - strlen(buf), "%sno "
		    "certificate presented", buf[0] ? "; " : "");
	if (json_is_true(json_object_get(cert, "not_yet_valid")) ||
	    json_is_true(json_object_get(cert, "dates_unreadable")))
		snprintf(buf + strlen(buf), len - strlen(buf), "%scertificate "
		    "not yet valid, or its dates unreadable", buf[0] ? "; " :
		    "");
	if (json_is_true(json_object_get(cert, "expired")))
		snprintf(buf + strlen(buf), len - strlen(buf), "%scertificate "
		    "expired", buf[0] ? "; " : "");
	if (json_is_true(json_object_get(cert, "self_signed")))
		snprintf(buf + strlen(buf), len - strlen(buf), "%sself-signed "
		    "certificate", buf[0] ? "; " : "");
	/* RSA-PSS is RSA (RFC 8017): OpenSSL 3 names its key "RSA-PSS". */
	if (type != NULL && (((strcmp(type, "RSA") == 0 ||
	    strcmp(type, "RSA-PSS") == 0) && bits < 2048) ||
	    (strcmp(type, "EC") == 0 && bits < 256)))
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s key of "
		    "%lld bits", buf[0] ? "; " : "", type, bits);
}

static int
eval_tls(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	const json_t *pr, *tls;
	char weak[256], target[96];
	size_t it = 0, i, seen = 0;
	json_t *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_ETH, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_ETH_REACH, &it)))
		json_array_foreach(fa_obs_arr(o, FA_F(ETH_REACH, probes)), i,
		    pr) {
			tls = json_object_get(pr, "tls");
			if (tls == NULL || json_object_get(tls, "versions") ==
			    NULL)
				continue;
			seen++;
			tls_weakness(tls, weak, sizeof(weak));
			snprintf(target, sizeof(target), "%s %s",
			    fa_json_get_str(pr, "host"),
			    fa_json_get_str(pr, "probe"));
			if ((ev = json_pack("[o]", fa_evidence(o, "tls",
			    json_deep_copy(tls)))) == NULL)
				return FA_ERR_NOMEM;
			r = fa_results_add(out, c, weak[0] ? FA_ST_FAIL :
			    FA_ST_PASS, target, NULL, ev, weak[0] ? "the "
			    "management endpoint's TLS is weak: %s" : "TLS 1.2 "
			    "or newer only, with a valid certificate from an "
			    "issuer other than itself and a strong key%s", weak);
			if (r < 0)
				return r;
		}
	if (seen > 0)
		return 0;
	it = 0;
	if (ctx->policy->n_mgmt_target > 0 && fa_snapshot_next(ctx->snap,
	    FA_KIND_ETH_REACH, &it) == NULL)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "eth", NULL, NULL,
		    "the policy's mgmt_target entries were not probed (a "
		    "capture file was analysed)");
	else
		r = fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "eth", NULL,
		    NULL, "no management endpoint completed a TLS handshake");
	return r < 0 ? r : 0;
}

#define REF_SC7	"NIST SP 800-53 SC-7 (boundary protection)"

static const char *const refs_mgmt[] = {
	REF_SC7,
	FA_REF_CMAX_AUDIT("BMC and IPMI tenant isolation", "security-bmc-ipmi",
	    FA_CMAX_REPO_URL),
	NULL
};
static const char *const refs_xtenant[] = { REF_SC7, FA_CMAX_VLAN, NULL };

/* The must-not-reach probes (eth_reach.h), for the checks' `sends`. */
#define SENDS_REACH(kw)							\
	"Every live Ethernet scan, without --active, sends to every "	\
	"address of each " kw " line of the policy (at most 256 hosts of " \
	"a network) the probes the line names: a TCP connection "	\
	"attempt, closed once it is answered, to each TCP port; a UDP "	\
	"datagram to each UDP port (an RMCP presence ping to port 623, " \
	"empty otherwise); an ICMP or ICMPv6 echo request. At most 50 " \
	"probes start a second and 32 are in flight, each given 1 s; no " \
	"credential or application data is sent. Nothing is sent when a " \
	"capture file is analysed."
#define OUTCOMES_REACH(kw)						\
	"One result per " kw " line. Fails when any probe is answered: a " \
	"TCP connection accepted or reset, a UDP or ICMP reply, or an ICMP " \
	"port unreachable all come from the host. Passes when every probe " \
	"timed out or met an unreachable network or host. Not tested when " \
	"some probes could not be sent (e.g. ICMP without permission) or " \
	"the network was only partly probed, and when a capture file was " \
	"analysed instead of a live scan. Not applicable when the policy " \
	"has no " kw " line."

static const char *const refs_tls[] = {
	"RFC 8996 (deprecating TLS 1.0 and 1.1)",
	"NIST SP 800-52 Rev. 2 (TLS guidelines)",
	NULL
};

const struct fa_check fa_chk_eth_mgmt_reachable = {
	.id = "ETH-MGMT-REACHABLE",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "A provider management target is reachable from the tenant",
	.rationale = "Switch, BMC and hypervisor management interfaces "
	    "reachable from a tenant node can be attacked directly; they must "
	    "sit on a network the tenant cannot reach.",
	.remediation = "Filter the management networks from tenant networks "
	    "(ACLs, VRFs, separate out-of-band network).",
	.msa_clause = "Provider shall ensure that no management interface of "
	    "the infrastructure serving Customer is reachable from Customer's "
	    "nodes or networks.",
	.refs = refs_mgmt,
	.sends = SENDS_REACH("mgmt_target") " A TCP port that accepts also "
	    "gets the TLS handshakes of ETH-MGMT-TLS-WEAK.",
	.outcomes = OUTCOMES_REACH("mgmt_target"),
	.eval = eval_mgmt,
};

const struct fa_check fa_chk_eth_xtenant_reachable = {
	.id = "ETH-XTENANT-REACHABLE",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_CRITICAL,
	.title = "Another tenant's target is reachable from the tenant",
	.rationale = "If a canary host of another tenant answers, the network "
	    "between tenants is not isolated: each can reach the other's "
	    "services.",
	.remediation = "Isolate tenants' networks from each other (separate "
	    "VLANs/VRFs with no route between them, or ACLs that drop "
	    "inter-tenant traffic).",
	.msa_clause = "Provider shall ensure that no host or service of any "
	    "other customer is reachable from Customer's nodes, and none of "
	    "Customer's from theirs.",
	.refs = refs_xtenant,
	.sends = SENDS_REACH("foreign_target"),
	.outcomes = OUTCOMES_REACH("foreign_target"),
	.eval = eval_xtenant,
};

const struct fa_check fa_chk_eth_mgmt_tls_weak = {
	.id = "ETH-MGMT-TLS-WEAK",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_MEDIUM,
	.title = "A reachable management endpoint has weak TLS",
	.rationale = "TLS 1.0/1.1, expired or self-signed certificates and "
	    "short keys on a management endpoint make interception of "
	    "administrator sessions practical.",
	.remediation = "Serve management endpoints with TLS 1.2 or newer only, "
	    "and certificates from a trusted CA with keys of at least 2048 "
	    "bits (RSA) or 256 bits (EC).",
	.msa_clause = "Provider shall protect every management endpoint with "
	    "TLS 1.2 or newer and valid certificates issued by a certificate "
	    "authority.",
	.refs = refs_tls,
	.sends = "Every live Ethernet scan, without --active, sends to each "
	    "TCP port of a mgmt_target that accepted a connection (see "
	    "ETH-MGMT-REACHABLE) one TLS handshake per protocol version from "
	    "TLS 1.0 to 1.3, each on its own connection, closed after the "
	    "handshake; no request and no credential is sent.",
	.outcomes = "One result per endpoint that completed a handshake. Fails "
	    "when it accepts TLS 1.0 or 1.1, presents no certificate, an "
	    "expired, not-yet-valid or self-signed one, or a key below 2048 "
	    "bits (RSA) or 256 bits (EC). Passes when none of these holds. Not "
	    "applicable when no management endpoint completed a handshake. Not "
	    "tested when the policy's mgmt_target lines were not probed (a "
	    "capture file was analysed).",
	.eval = eval_tls,
};
