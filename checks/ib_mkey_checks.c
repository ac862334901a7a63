/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The M_Key checks over the PortInfo that discovery read from every port
 * (CA ports and switch port 0, whose M_Key guards the whole switch):
 *
 * IB-MKEY-UNSET        M_Key 0 with protection bits 0: any node may Set
 *                      this port's configuration (IBA vol. 1 14.2.4: a zero
 *                      M_Key disables checking; qib check_mkey()).
 * IB-MKEY-READABLE     a non-zero M_Key came back to our M_Key-0 Get: the
 *                      port is at protection level 0, which returns the key
 *                      to anyone (level table: ib-security.md 1.2).
 * IB-MKEY-PROTECT-LOW  a port below protection level 2, where Gets are
 *                      answered without the key (a port with no key at all
 *                      is at level 0: it also fails IB-MKEY-UNSET).  A key
 *                      is hidden when protection bits >= 1 and the M_Key
 *                      reads 0 (OpenSM osm_port_info_rcv.c).
 *
 * Ports at level >= 2 do not answer discovery at all and so are not in the
 * topology; the evidence says how many ports were examined.  A port that
 * did answer our key-0 Get at level >= 2 must hold M_Key 0, which disables
 * the check altogether: unset, whatever its protection bits say.  At level
 * 1 a key read as 0 is hidden or unset, which cannot be told apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

enum mk_kind { MK_UNSET, MK_READABLE, MK_PROTECT_LOW };

/*
 * What the --active wrong-key SubnSet(NodeInfo) found for this port
 * (fabric/ib_active.c): 1 it was answered, so it passed the key check and
 * the M_Key is 0; -1 it was dropped and the control Get that followed
 * shows M_KeyViolations went up, so a key is set; 0 nothing usable (not
 * probed, lost, or no control).
 */
static int
set_probe(const struct fa_eval_ctx *ctx, const struct fa_ib_port_ref *p)
{
	const struct fa_obs *o;
	char *t = fa_ib_ref_target(p);
	long long before, after;

	if (t == NULL)
		return 0;
	o = fa_snapshot_find(ctx->snap, FA_KIND_IB_ACTIVE_MKEY, t);
	free(t);
	if (o == NULL)
		return 0;
	if (o->state == FA_OBS_COMPLETE || o->state == FA_OBS_REJECTED)
		return 1;
	if (o->state == FA_OBS_NO_RESPONSE &&
	    fa_obs_int(o, FA_F(IB_ACTIVE_MKEY, violations_before), 0, 0xffff,
	    &before) == 0 && fa_obs_int(o, FA_F(IB_ACTIVE_MKEY,
	    violations_after), 0,
	    0xffff, &after) == 0 && (after > before || after == 0xffff))
		return -1;	/* not an error: dropped, a key is set */
	return 0;
}

/* Port facts: key state and protection; 0 ok, FA_ERR_INPUT malformed. */
static int
port_key(const struct fa_ib_port_ref *p, int *zero, long long *prot,
    long long *lease)
{
	const json_t *k = json_object_get(p->port, "mkey");

	if (fa_ib_secret_zero(k, zero) != 0 ||
	    fa_json_get_int(p->port, "mkey_protect", 0, 3, prot) != 0 ||
	    fa_json_get_int(p->port, "mkey_lease", 0, 65535, lease) != 0)
		return FA_ERR_INPUT;
	return 0;
}

/* What the reproduce command shows for a port listed by each check. */
static const char *const repro_fact[] = {
	[MK_UNSET] = "Mkey reads 0x0000000000000000, at the ProtectBits "
	    "listed: a zero M_Key disables the key check (IBA vol. 1 14.2.4)",
	[MK_READABLE] = "Mkey reads the port's non-zero M_Key, returned to a "
	    "Get without the key at ProtectBits 0",
	[MK_PROTECT_LOW] = "ProtectBits reads below 2 (or Mkey reads "
	    "0x0000000000000000): the port answers Gets without the key",
};

/*
 * The command that reads a port's PortInfo with the M_Key shown (smpquery
 * prints "<not displayed>" without -K): the first port listed, or with
 * none listed the first examined, at `lid`.  0 or FA_ERR_NOMEM.
 */
static int
mk_repro(json_t *ev, enum mk_kind kind, long long lid, int listed)
{
	char cmd[48];
	char note[320];

	if (lid <= 0)
		return fa_ib_repro(ev, NULL, "no command: the port has no "
		    "LID; read it by directed route (smpquery -K -D portinfo "
		    "PATH)");
	snprintf(cmd, sizeof(cmd), "smpquery -K portinfo %lld", lid);
	if (listed)
		snprintf(note, sizeof(note), "for the first port listed; for "
		    "the others use their LID. -K shows the M_Key, which "
		    "smpquery hides otherwise. %s", repro_fact[kind]);
	else
		snprintf(note, sizeof(note), "for the first port examined; -K "
		    "shows the M_Key, which smpquery hides otherwise");
	return fa_ib_repro(ev, cmd, note);
}

static int
mk_eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, enum mk_kind kind)
{
	const struct fa_obs *topo;
	struct fa_ib_port_ref p;
	struct fa_ib_list l;
	size_t ni = 0, pi = 0, examined = 0, keyed = 0, ambiguous = 0;
	long long prot, lease, lid = -1;
	json_t *item, *ev;
	int r, zero, off;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	if ((topo = fa_ib_topology(ctx->snap)) == NULL)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "discovery did not complete: no PortInfo to examine");
	if (fa_ib_list_init(&l) != 0)
		return FA_ERR_NOMEM;
	while ((r = fa_ib_next_port(topo, &ni, &pi, &p)) == 1) {
		if (strcmp(p.type, "Switch") == 0 && p.num != 0)
			continue;	/* switch M_Key lives in port 0 */
		if (!p.info)
			continue;	/* unobserved: the gate below */
		if ((r = port_key(&p, &zero, &prot, &lease)) != 0)
			break;
		examined++;
		if (!zero || prot == 1)
			keyed++;
		switch (kind) {
		case MK_UNSET:
			off = zero && prot != 1;
			if (zero && prot == 1) {
				/* --active resolves it: see set_probe(). */
				switch (set_probe(ctx, &p)) {
				case 1:
					off = 1;
					break;
				case 0:
					ambiguous++;
					break;
				default:
					break;	/* dropped: a key is set */
				}
			}
			break;
		case MK_READABLE:
			off = !zero;
			break;
		default:
			off = prot < 2 || zero;
			break;
		}
		if (examined == 1 || (off && l.count == 0))
			lid = p.lid;	/* the port the command reads */
		if (!off)
			continue;
		item = fa_ib_port_json(&p);
		if (item == NULL || json_object_set_new(item, "mkey_protect",
		    json_integer(prot)) != 0 || json_object_set_new(item,
		    "mkey_lease", json_integer(lease)) != 0 ||
		    (kind == MK_READABLE && json_object_set_new(item, "mkey",
		    json_deep_copy(json_object_get(p.port, "mkey"))) != 0)) {
			json_decref(item);
			json_decref(l.items);
			return FA_ERR_NOMEM;
		}
		if (fa_ib_list_add(&l, item) != 0) {
			json_decref(l.items);
			return FA_ERR_NOMEM;
		}
	}
	if (r < 0) {
		json_decref(l.items);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "observation %s holds a malformed port", topo->id);
	}
	if (examined == 0) {
		long long lost;

		json_decref(l.items);
		/* Ports whose PortInfo went unanswered are named ... */
		r = fa_ib_unexplored_gate(c, topo, out, "no CA port or switch "
		    "port 0 could be examined");
		if (r != 0)
			return r < 0 ? r : 0;
		/* ... else say whether discovery lost MADs on the way. */
		if ((lost = fa_ib_discovery_lost(ctx->snap)) > 0)
			return fa_results_add(out, c, FA_ST_NOT_TESTED,
			    "fabric", NULL, NULL, "discovery returned no CA "
			    "port or switch port 0 to examine, and %lld of its "
			    "MADs were lost: the ports may lie beyond them",
			    lost);
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "discovery returned no CA port or switch port 0 to "
		    "examine");
	}
	/* A pass (or none keyed) speaks for every port: all seen? */
	if (l.count == 0 && ambiguous == 0) {
		char *seen = fa_strfmt("none of the %zu ports examined %s",
		    examined, kind == MK_UNSET ? "has M_Key 0 with protection "
		    "off" : kind == MK_READABLE ? "returned its M_Key to an "
		    "unauthenticated Get" : "is below M_Key protection level "
		    "2");

		r = seen == NULL ? FA_ERR_NOMEM :
		    fa_ib_unexplored_gate(c, topo, out, seen);
		free(seen);
		if (r != 0) {
			json_decref(l.items);
			return r < 0 ? r : 0;
		}
	}
	if (l.count == 0 && kind == MK_READABLE && keyed == 0) {
		json_decref(l.items);
		return fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "fabric",
		    NULL, NULL, "none of the %zu ports examined has an M_Key "
		    "(see IB-MKEY-UNSET)", examined);
	}
	if ((ev = fa_ib_list_evidence(&l, topo, "ports")) == NULL ||
	    fa_evidence_add(ev, fa_evidence(topo, "ports_examined",
	    json_integer((json_int_t)examined))) != 0 ||
	    mk_repro(ev, kind, lid, l.count > 0) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (l.count == 0 && ambiguous > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "%zu of the %zu ports examined read M_Key 0 at "
		    "protection level 1: hidden or unset cannot be told "
		    "without --active",
		    ambiguous, examined);
	if (l.count == 0)
		return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, ev,
		    "none of the %zu ports examined %s", examined,
		    kind == MK_UNSET ? "has M_Key 0 with protection off" :
		    kind == MK_READABLE ? "returned its M_Key to an "
		    "unauthenticated Get" : "is below M_Key protection level 2");
	return fa_results_add(out, c, FA_ST_FAIL, "fabric", NULL, ev,
	    "%zu of %zu ports examined %s", l.count, examined,
	    kind == MK_UNSET ? "have M_Key 0 with protection off: any node "
	    "may reconfigure them" : kind == MK_READABLE ? "returned their "
	    "non-zero M_Key to an unauthenticated Get (protection level 0)" :
	    "are below M_Key protection level 2, so unauthenticated Gets are "
	    "answered");
}

static int
eval_unset(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return mk_eval(c, ctx, out, MK_UNSET);
}

static int
eval_readable(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return mk_eval(c, ctx, out, MK_READABLE);
}

static int
eval_protect_low(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return mk_eval(c, ctx, out, MK_PROTECT_LOW);
}

static const char *const refs[] = {
	"InfiniBand Architecture Specification Vol. 1, 14.2.4: management "
	    "key (M_Key) and protection levels",
	"OpenSM opensm.8: m_key, m_key_protection_level, m_key_lease_period",
	"NVIDIA InfiniBand Security Overview: M_Key per port, protection "
	    "level 2",
	FA_CMAX_UFM_KEY("MKEY"),
	NULL
};

#define SENDS_PORTINFO							\
	"Nothing beyond discovery, which sends " FA_IB_SENDS_DISCOVERY	\
	": reads the PortInfo it returned for every CA port and every "	\
	"switch's port 0 (read-only)."
#define SENDS_SET							\
	" With --active only: to each port that reads M_Key 0 at "	\
	"protection level 1, is Active and has an M_Key lease period of 0 " \
	"(so a violation cannot start a lease countdown), one "		\
	"LID-routed SubnSet(NodeInfo) carrying a wrong M_Key, sent once, " \
	"then one SubnGet(PortInfo) reading M_KeyViolations. NodeInfo " \
	"cannot be set, so no port changes; a keyed port drops the Set and " \
	"counts (and may trap) an M_Key violation."
#define NOT_EXAMINED							\
	" Ports at protection level 2 or more drop the key-0 Gets of "	\
	"discovery, so they are not examined; the evidence counts the ports " \
	"that were. Not tested, instead of passing (or being not "	\
	"applicable), when a port discovery reached has a link up "	\
	"(PhysicalPortState LinkUp) to a node discovery did not reach (a " \
	"switch that drops SMPs, one at protection level 2 or more, SMPs " \
	"lost, or the 64-hop limit), or when a port's PortInfo went "	\
	"unanswered (its M_Key is unknown, and it is not counted as "	\
	"examined): those ports and every port behind them were not "	\
	"examined, and the reason names them."

const struct fa_check fa_chk_ib_mkey_unset = {
	.id = "IB-MKEY-UNSET",
	.family = FA_FAM_IB,
	.severity = FA_SEV_HIGH,
	.title = "Ports have no management key (M_Key 0)",
	.rationale =
	    "A port whose M_Key is zero accepts configuration (SubnSet) from "
	    "any node: a tenant can change LIDs, P_Key tables, port states "
	    "and forwarding of the provider's switches and other tenants' "
	    "ports.",
	.remediation =
	    "Configure a secret M_Key (per port where the SM supports it) "
	    "with protection level 2 and a lease period, e.g. OpenSM m_key, "
	    "m_key_protection_level 2, m_key_lease_period; UFM m_key_per_port.",
	.msa_clause =
	    "Provider shall protect every switch and host channel adapter "
	    "port of the fabric with a secret, non-zero management key (M_Key) "
	    "at protection level 2 or higher, unknown to Customer and to every "
	    "other tenant.",
	.refs = refs,
	.sends = SENDS_PORTINFO SENDS_SET,
	.outcomes =
	    "Fails when a port reads M_Key 0 with protection bits 0, 2 or 3 "
	    "(a port at level 2 or more that answers a key-0 Get holds key "
	    "0), or reads M_Key 0 at level 1 and accepted the --active "
	    "wrong-key Set. Passes when no examined port has an unprotected "
	    "zero M_Key. Not tested when discovery did not complete or "
	    "examined no port, or when the only doubtful ports read M_Key 0 "
	    "at level 1 (hidden or unset) and --active did not resolve them."
	    NOT_EXAMINED,
	.eval = eval_unset,
};

const struct fa_check fa_chk_ib_mkey_readable = {
	.id = "IB-MKEY-READABLE",
	.family = FA_FAM_IB,
	.severity = FA_SEV_CRITICAL,
	.title = "Ports return their M_Key to unauthenticated Gets",
	.rationale =
	    "At protection level 0 a PortInfo Get from anyone returns the "
	    "M_Key. The key is then no protection at all: any tenant can read "
	    "it and use it to reconfigure the port (and, with one fabric-wide "
	    "key, every port).",
	.remediation =
	    "Raise the M_Key protection level to 2 (m_key_protection_level "
	    "2) and replace the disclosed key, since it must be assumed "
	    "known.",
	.msa_clause =
	    "Provider shall configure M_Key protection so that no port "
	    "discloses its M_Key in response to a query from a tenant node, "
	    "and shall rotate any M_Key found to have been disclosed within "
	    "five business days.",
	.refs = refs,
	.sends = SENDS_PORTINFO,
	.outcomes =
	    "Fails when a port returned a non-zero M_Key to our key-0 "
	    "SubnGet(PortInfo) (protection level 0). Passes when none did. "
	    "Not applicable when none of the examined ports has an M_Key at "
	    "all (that is IB-MKEY-UNSET's failure). Not tested when "
	    "discovery did not complete or examined no port." NOT_EXAMINED,
	.eval = eval_readable,
};

const struct fa_check fa_chk_ib_mkey_protect_low = {
	.id = "IB-MKEY-PROTECT-LOW",
	.family = FA_FAM_IB,
	.severity = FA_SEV_MEDIUM,
	.title = "M_Key protection level below 2",
	.rationale =
	    "Below protection level 2 a port answers Gets without the M_Key, "
	    "so every tenant can map the fabric by directed route and read "
	    "port configuration; at level 0 it also reads the key itself.",
	.remediation =
	    "Set m_key_protection_level 2 with a lease period shorter than "
	    "the SM's sweep recovery, so that unauthenticated Gets are "
	    "dropped and logged as M_Key violations.",
	.msa_clause =
	    "Provider shall operate M_Key protection at level 2 or higher on "
	    "every port of the fabric.",
	.refs = refs,
	.sends = SENDS_PORTINFO,
	.outcomes =
	    "Fails when a port answered discovery with protection bits below "
	    "2, or with M_Key 0. Passes when every examined port is at "
	    "level 2 or more with a non-zero key. Not tested when discovery "
	    "did not complete or examined no port." NOT_EXAMINED,
	.eval = eval_protect_low,
};
