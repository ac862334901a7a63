/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the wire showed (eth.capture): ETH-FOREIGN-VLAN, ETH-TRUNK-PORT,
 * ETH-DTP-EXPOSED, ETH-STP-EXPOSED, ETH-CDP-EXPOSED, ETH-LLDP-LEAK,
 * ETH-ROGUE-DHCP, ETH-FOREIGN-L2 and ETH-ROCE-VISIBLE.
 *
 * Each is judged per capture source.  A capture the kernel dropped frames
 * from (incomplete) can fail but never pass: the frames not seen might
 * have been the finding.  Silence (no frame at all) is not_tested.  So
 * can a check not pass when the table of a signal it reads filled
 * ("signals_limit" distinct entries, fabric/eth_capture.h): the entries
 * not kept might have been the rogue server or the foreign host.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_checks.h"
#include "../core/obs_fields.h"

/* Judge one capture: set *st and *reason (allocated), add to ev. */
typedef int (*judge_fn)(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev);

static const json_t *
signal(const struct fa_obs *o, const char *name)
{
	return json_object_get(fa_obs_obj(o, FA_F(ETH_CAPTURE, signals)), name);
}

/* ip (text) inside any of nets?  1 yes, 0 no, -1 when not an address. */
static int
ip_in(const char *ip, const struct fa_cidr *nets, size_t n)
{
	uint8_t a[16];

	if (ip == NULL)
		return -1;	/* not an error: no address */
	if (inet_pton(AF_INET, ip, a) == 1)
		return fa_cidr_any(nets, n, AF_INET, a);
	if (inet_pton(AF_INET6, ip, a) == 1)
		return fa_cidr_any(nets, n, AF_INET6, a);
	return -1;	/* not an error: not an address */
}

/* A MAC address (text) of one of this host's links (eth.links)? */
static int
own_mac(const struct fa_eval_ctx *ctx, const char *mac)
{
	const struct fa_obs *l;
	const json_t *e;
	const char *m;
	size_t it = 0, i;

	if (mac == NULL)
		return 0;
	while ((l = fa_snapshot_next(ctx->snap, FA_KIND_ETH_LINKS, &it)))
		json_array_foreach(fa_obs_arr(l, FA_F(ETH_LINKS, links)), i, e)
			if ((m = fa_json_get_str(e, "mac")) != NULL &&
			    strcasecmp(m, mac) == 0)
				return 1;
	return 0;
}

/*
 * LLDP sent by one of the tenant's own nodes (lldpd on a node), which is
 * no switch leak: its source is one of this host's own MAC addresses, or
 * every management address it names (one at least) is inside the
 * policy's tenant_subnet.  A switch's management address lives on the
 * provider's management network, not in the tenant's subnets.
 */
static int
lldp_is_tenant_node(const struct fa_eval_ctx *ctx, const json_t *e)
{
	const struct fa_policy *p = ctx->policy;
	const json_t *a = json_object_get(e, "mgmt_addrs"), *v;
	size_t i;

	if (own_mac(ctx, fa_json_get_str(e, "src")))
		return 1;
	if (json_array_size(a) == 0 || p->n_tenant_subnet == 0)
		return 0;
	json_array_foreach(a, i, v)
		if (ip_in(json_string_value(v), p->tenant_subnet,
		    p->n_tenant_subnet) != 1)
			return 0;
	return 1;
}

/*
 * The signals of deps (comma-separated) whose tables filled in o: their
 * names and how many entries were not kept, in buf; 0 when none did.  A
 * capture that records only the total (before signals_dropped_by) counts
 * against every check.
 */
static long long
dropped(const struct fa_obs *o, const char *deps, char *buf, size_t len)
{
	const json_t *by = fa_obs_obj(o, FA_F(ETH_CAPTURE, signals_dropped_by));
	long long total = 0, n, all = 0;
	char name[32];
	const char *p, *comma;
	size_t k;

	buf[0] = '\0';
	(void)fa_obs_int(o, FA_F(ETH_CAPTURE, signals_dropped), 0, INT64_MAX,
	    &all);
	if (!json_is_object(by)) {
		if (all > 0)
			snprintf(buf, len, "a signal table (which one was not "
			    "recorded)");
		return all;
	}
	for (p = deps; p != NULL && *p != '\0'; p = comma != NULL ?
	    comma + 1 : NULL) {
		comma = strchr(p, ',');
		k = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (k == 0 || k >= sizeof(name))
			continue;
		memcpy(name, p, k);
		name[k] = '\0';
		n = json_integer_value(json_object_get(by, name));
		if (n <= 0)
			continue;
		total += n;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s (%lld "
		    "not kept)", buf[0] != '\0' ? ", " : "", name, n);
	}
	return total;
}

/* Frames counted but not judged (eth_capture.h fa_eth_agg_skip). */
static long long
skipped(const struct fa_obs *o)
{
	const json_t *v;
	const char *k;
	long long n = 0;

	/* Saturating: the counts of a snapshot read back are anyone's. */
	json_object_foreach(fa_obs_obj(o, FA_F(ETH_CAPTURE, skipped)), k, v)
		if (json_integer_value(v) > 0)
			n = json_integer_value(v) > LLONG_MAX - n ? LLONG_MAX :
			    n + json_integer_value(v);
	return n;
}

/* The first reason frames were not judged, for a message. */
static const char *
skipped_why(const struct fa_obs *o)
{
	const json_t *v;
	const char *k;

	json_object_foreach(fa_obs_obj(o, FA_F(ETH_CAPTURE, skipped)), k, v)
		return k;
	return "none";
}

static int
each_capture(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, judge_fn judge, const char *deps)
{
	char full[256];
	long long limit = 0;
	const json_t *by;
	const struct fa_obs *o;
	enum fa_status st;
	long long frames = 0, secs = -1, bad = 0;
	size_t it = 0, seen = 0;
	char *reason;
	json_t *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_ETH, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_ETH_CAPTURE, &it))) {
		seen++;
		/* Each capture's own counts, none carried from the last. */
		frames = 0;
		secs = -1;
		bad = 0;
		(void)fa_obs_int(o, FA_F(ETH_CAPTURE, frames), 0, INT64_MAX,
		    &frames);
		(void)fa_obs_int(o, FA_F(ETH_CAPTURE, seconds), 0, INT64_MAX,
		    &secs);
		(void)fa_obs_int(o, FA_F(ETH_CAPTURE, malformed), 0, INT64_MAX,
		    &bad);
		if (o->state != FA_OBS_COMPLETE &&
		    o->state != FA_OBS_INCOMPLETE) {
			r = fa_results_add(out, c, fa_status_for_obs(o),
			    o->target, NULL, NULL, "%s", fa_obs_reason(o));
		} else if (frames == 0 && o->state == FA_OBS_INCOMPLETE) {
			/* Silence from a capture cut short: say why. */
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    NULL, NULL, "nothing was heard; %s",
			    fa_obs_reason(o));
		} else if (frames > 0 && frames <= skipped(o)) {
			/* Only the host's own frames, or none of Ethernet. */
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    NULL, NULL, "none of the %lld frames captured can "
			    "be judged (%s)", frames, skipped_why(o));
		} else if (frames == 0) {
			r = secs >= 0 ? fa_results_add(out, c,
			    FA_ST_NOT_TESTED, o->target, NULL, NULL, "nothing "
			    "was heard on %s in %lld s", o->target, secs) :
			    fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    NULL, NULL, "the capture holds no frame");
		} else {
			if ((ev = json_pack("[o]", fa_evidence(o, "frames",
			    json_integer(frames)))) == NULL)
				return FA_ERR_NOMEM;
			/* Frames that could not be decoded are shown; those
			 * whose headers name a signal count for it
			 * (malformed_signals). */
			if (bad > 0 && fa_evidence_add(ev, fa_evidence(o,
			    "malformed_examples", json_deep_copy(
			    fa_obs_arr(o, FA_F(ETH_CAPTURE,
			    malformed_examples))))) !=
			    0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
			if (skipped(o) > 0 && fa_evidence_add(ev, fa_evidence(o,
			    "skipped", json_deep_copy(fa_obs_obj(o,
			    FA_F(ETH_CAPTURE, skipped))))) != 0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
			reason = NULL;
			if ((r = judge(ctx, o, &st, &reason, ev)) != 0) {
				json_decref(ev);
				free(reason);
				return r;
			}
			if (st == FA_ST_PASS && o->state != FA_OBS_COMPLETE) {
				st = FA_ST_NOT_TESTED;
				r = fa_results_add(out, c, st, o->target, NULL,
				    ev, "%s; but %s", reason, fa_obs_reason(o));
			} else if (st == FA_ST_PASS && dropped(o, deps, full,
			    sizeof(full)) > 0) {
				st = FA_ST_NOT_TESTED;
				by = fa_obs_obj(o, FA_F(ETH_CAPTURE,
				    signals_dropped_by));
				if (fa_evidence_add(ev, fa_evidence(o, by !=
				    NULL ? "signals_dropped_by" :
				    "signals_dropped",
				    json_deep_copy(by != NULL ?
				    by : fa_obs_jint(o, FA_F(ETH_CAPTURE,
				    signals_dropped))))) != 0) {
					json_decref(ev);
					free(reason);
					return FA_ERR_NOMEM;
				}
				(void)fa_obs_int(o, FA_F(ETH_CAPTURE,
				    signals_limit),
				    0, INT64_MAX, &limit);
				r = limit > 0 ? fa_results_add(out, c, st,
				    o->target, NULL, ev, "%s; but the table of "
				    "%s filled at %lld distinct entries, and an "
				    "entry not kept might have been the "
				    "finding", reason, full, limit) :
				    fa_results_add(out, c, st, o->target, NULL,
				    ev, "%s; but %s filled, and an entry not "
				    "kept might have been the finding", reason,
				    full);
			} else if (st == FA_ST_PASS && (frames <= bad ||
			    frames - bad <= skipped(o))) {
				/* Heard, but not one frame was judged. */
				r = fa_results_add(out, c, FA_ST_NOT_TESTED,
				    o->target, NULL, ev, "none of the %lld "
				    "frames captured could be judged (%lld "
				    "could not be decoded, %lld not judged)",
				    frames, bad, skipped(o));
			} else if (bad > 0) {
				r = fa_results_add(out, c, st, o->target, NULL,
				    ev, "%s (%lld of %lld frames could not be "
				    "decoded)", reason, bad, frames);
			} else {
				r = fa_results_add(out, c, st, o->target, NULL,
				    ev, "%s", reason);
			}
			free(reason);
		}
		if (r < 0)
			return r;
	}
	if (seen > 0)
		return 0;
	r = fa_results_add(out, c, FA_ST_NOT_TESTED, "eth", NULL, NULL,
	    "nothing was listened to: no interface was up (see eth.links)");
	return r < 0 ? r : 0;
}

/* ev += {observation, field, copy of value}; reason = formatted. */
static int
found(const struct fa_obs *o, json_t *ev, const char *field,
    const json_t *v, char **reason, const char *fmt, ...)
    __attribute__((__format__(__printf__, 6, 7)));

static int
found(const struct fa_obs *o, json_t *ev, const char *field,
    const json_t *v, char **reason, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (v != NULL && fa_evidence_add(ev, fa_evidence(o, field,
	    json_deep_copy(v))) != 0)
		return FA_ERR_NOMEM;
	va_start(ap, fmt);
	n = vasprintf(reason, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*reason = NULL;
		return FA_ERR_NOMEM;
	}
	/* A verdict that rests on a frame the capture cut short says so. */
	if (json_is_true(json_object_get(v, "truncated"))) {
		char *t;

		if (asprintf(&t, "%s (seen in a frame the capture cut short: "
		    "what follows the cut is unknown)", *reason) < 0) {
			free(*reason);
			*reason = NULL;
			return FA_ERR_NOMEM;
		}
		free(*reason);
		*reason = t;
	}
	return 0;
}

/* A "vlans" key of eth.capture: 0-4095, or -1 when it is not one. */
static long long
vid_key(const char *k)
{
	uint64_t v;

	return fa_parse_u64(k, 0, 4095, &v, NULL) == 0 ? (long long)v : -1;
}

/* A malformed key is never an allowed VLAN (fail-closed). */
static int
vid_allowed(const struct fa_policy *p, long long vid)
{
	size_t i;

	if (vid < 0)
		return 0;
	if (vid == 0)		/* priority-tagged: no VLAN */
		return 1;
	for (i = 0; i < p->n_tenant_vlan; i++)
		if ((long long)p->tenant_vlan[i].value == vid)
			return 1;
	return 0;
}

/*
 * A LINUX_SLL2 capture in which no frame is tagged: libpcap (1.10 and
 * before) does not put back into LINUX_SLL2 frames the VLAN tag the
 * kernel moved to packet metadata, as it does for Ethernet and LINUX_SLL
 * (libpcap issue #1105), so absent tags prove nothing there.
 */
static int
tags_unseen(const struct fa_obs *o)
{
	const char *lt = fa_obs_str(o, FA_F(ETH_CAPTURE, linktype));
	long long tagged = 0;

	(void)fa_obs_int(o, FA_F(ETH_CAPTURE, tagged), 0, INT64_MAX, &tagged);
	return lt != NULL && strcmp(lt, "LINUX_SLL2") == 0 && tagged == 0;
}

#define SLL2_TAGS							\
	"this LINUX_SLL2 capture holds no VLAN tag, and libpcap (1.10 "	\
	"and before) drops the tags of LINUX_SLL2 frames (libpcap issue "	\
	"#1105), so VLANs cannot be told from it; capture on the "	\
	"interface, or with -y LINUX_SLL"

static int
judge_foreign_vlan(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	const json_t *vlans = fa_obs_obj(o, FA_F(ETH_CAPTURE, vlans)), *v;
	char list[256] = "";
	const char *k;
	size_t n = 0;
	long long cut = 0;

	json_object_foreach((json_t *)vlans, k, v)
		if (!vid_allowed(ctx->policy, vid_key(k)) && n++ < 16)
			snprintf(list + strlen(list), sizeof(list) -
			    strlen(list), "%s%s", n > 1 ? ", " : "", k);
	if (n == 0 && tags_unseen(o)) {
		*st = FA_ST_NOT_TESTED;
		return found(o, ev, NULL, NULL, reason, "%s", SLL2_TAGS);
	}
	*st = n > 0 ? FA_ST_FAIL : FA_ST_PASS;
	if (n > 0) {
		/* Tags are read from the header: a cut payload loses none,
		 * but the evidence says which frames were cut. */
		json_object_foreach((json_t *)vlans, k, v)
			if (!vid_allowed(ctx->policy, vid_key(k)))
				cut += json_integer_value(json_object_get(
				    fa_obs_obj(o, FA_F(ETH_CAPTURE, vlans_cut)),
				    k));
		if (cut > 0 && fa_evidence_add(ev, fa_evidence(o, "vlans_cut",
		    json_deep_copy(fa_obs_obj(o, FA_F(ETH_CAPTURE,
		    vlans_cut))))) !=
		    0)
			return FA_ERR_NOMEM;
		return found(o, ev, "vlans", vlans, reason, "frames tagged "
		    "with %zu VLAN ID%s the policy does not list reach this "
		    "port: %s%s", n, n > 1 ? "s" : "", list, cut > 0 ?
		    " (some in frames the capture cut short: their tags were "
		    "captured, the rest of them not)" : "");
	}
	return found(o, ev, "vlans", vlans, reason, "no frame carries a VLAN "
	    "ID outside the policy's tenant_vlan (%zu seen)",
	    json_object_size(vlans));
}

static int
judge_trunk(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	const json_t *vlans = fa_obs_obj(o, FA_F(ETH_CAPTURE, vlans)), *e, *v;
	size_t i, nv = 0, pvst = 0;
	const char *k;
	long long first = -1;
	int mixed = json_is_true(fa_obs_jbool(o, FA_F(ETH_CAPTURE,
	    mixed_interfaces)));

	json_object_foreach((json_t *)vlans, k, v)
		if (vid_key(k) != 0)
			nv++;
	json_array_foreach(signal(o, "dtp"), i, e)
		if (json_is_true(json_object_get(e, "trunking"))) {
			*st = FA_ST_FAIL;
			return found(o, ev, "dtp", e, reason, "the switch "
			    "reports this port as trunking (DTP)");
		}
	json_array_foreach(signal(o, "lldp"), i, e)
		if (json_array_size(json_object_get(e, "vlan_names")) > 1 &&
		    !lldp_is_tenant_node(ctx, e)) {
			*st = FA_ST_FAIL;
			return found(o, ev, "lldp", e, reason, "the switch "
			    "advertises %zu VLANs on this port (LLDP VLAN "
			    "Name)", json_array_size(json_object_get(e,
			    "vlan_names")));
		}
	json_array_foreach(signal(o, "stp"), i, e)
		if (json_is_true(json_object_get(e, "pvst"))) {
			long long vl = json_integer_value(json_object_get(e,
			    "vlan"));

			if (first < 0)
				first = vl;
			else if (vl != first)
				pvst++;
		}
	if (mixed && (nv >= 2 || pvst > 0)) {
		/* LINUX_SLL: which interface a frame came in on is lost, and
		 * VLANs of two ports are no trunk. */
		*st = FA_ST_NOT_TESTED;
		return found(o, ev, "vlans", vlans, reason, "frames of %zu "
		    "VLAN%s were captured, but the capture (LINUX_SLL, "
		    "\"tcpdump -i any\") mixes the frames of every interface, "
		    "so whether one port carries several cannot be told; "
		    "capture on the interface itself (LINUX_SLL2 keeps the "
		    "interface but libpcap drops its VLAN tags)", nv,
		    nv == 1 ? "" : "s");
	}
	*st = nv >= 2 || pvst > 0 ? FA_ST_FAIL : FA_ST_PASS;
	if (nv >= 2)
		return found(o, ev, "vlans", vlans, reason, "frames of %zu "
		    "VLANs reach this port: it is a trunk", nv);
	if (pvst > 0)
		return found(o, ev, "stp", signal(o, "stp"), reason, "PVST+ "
		    "BPDUs of several VLANs reach this port: it is a trunk");
	if (tags_unseen(o)) {
		*st = FA_ST_NOT_TESTED;
		return found(o, ev, NULL, NULL, reason, "no DTP trunk, no "
		    "multi-VLAN LLDP or PVST+, but %s", SLL2_TAGS);
	}
	return found(o, ev, NULL, NULL, reason, "no trunk evidence: %zu "
	    "VLAN ID%s seen, no DTP trunk, no multi-VLAN LLDP or PVST+", nv,
	    nv == 1 ? "" : "s");
}

/* Frames whose headers announced signal name but did not decode. */
static long long
malformed_of(const struct fa_obs *o, const char *name)
{
	return json_integer_value(json_object_get(fa_obs_obj(o,
	    FA_F(ETH_CAPTURE, malformed_signals)), name));
}

/* A signal whose mere presence is the finding. */
static int
judge_present(const struct fa_obs *o, const char *name, const char *what,
    enum fa_status *st, char **reason, json_t *ev)
{
	const json_t *a = signal(o, name);
	long long bad = malformed_of(o, name);

	*st = json_array_size(a) > 0 || bad > 0 ? FA_ST_FAIL : FA_ST_PASS;
	if (*st == FA_ST_PASS)
		return found(o, ev, NULL, NULL, reason, "no %s frame among "
		    "those heard", what);
	if (json_array_size(a) == 0)
		return found(o, ev, "malformed_signals", fa_obs_obj(o,
		    FA_F(ETH_CAPTURE, malformed_signals)), reason,
		    "%lld malformed %s "
		    "frame%s reach this port", bad, what, bad > 1 ? "s" : "");
	return found(o, ev, name, a, reason, "%s frames reach this port "
	    "(%zu distinct)", what, json_array_size(a));
}

static int
judge_dtp(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	const json_t *e;
	json_int_t admin;
	size_t i;

	(void)ctx;
	json_array_foreach(signal(o, "dtp"), i, e)
		if (json_is_true(json_object_get(e, "negotiable"))) {
			/* The status TLV's administrative mode, bits 0-2:
			 * 3 desirable, 4 auto (fabric/eth_frame.c). */
			admin = json_integer_value(json_object_get(e,
			    "status")) & 0x07;
			*st = FA_ST_FAIL;
			return found(o, ev, "dtp", e, reason, "the switch "
			    "speaks DTP in %s mode: it would negotiate a "
			    "trunk with this host", admin == 3 ? "desirable" :
			    admin == 4 ? "auto" : "desirable or auto");
		}
	return judge_present(o, "dtp", "DTP", st, reason, ev);
}

static int
judge_stp(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	(void)ctx;
	return judge_present(o, "stp", "spanning-tree BPDU", st, reason, ev);
}

static int
judge_cdp(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	(void)ctx;
	return judge_present(o, "cdp", "CDP", st, reason, ev);
}

static int
judge_lldp(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	const json_t *e;
	size_t i, nodes = 0;

	json_array_foreach(signal(o, "lldp"), i, e) {
		if (lldp_is_tenant_node(ctx, e)) {
			nodes++;
			continue;
		}
		if (json_array_size(json_object_get(e, "mgmt_addrs")) > 0 ||
		    json_array_size(json_object_get(e, "vlan_names")) > 0 ||
		    json_object_get(e, "system_description") != NULL) {
			*st = FA_ST_FAIL;
			return found(o, ev, "lldp", e, reason, "LLDP from %s "
			    "discloses %s", fa_json_get_str(e, "chassis") !=
			    NULL ? fa_json_get_str(e, "chassis") : "a switch",
			    json_array_size(json_object_get(e, "mgmt_addrs")) >
			    0 ? "its management address" : json_array_size(
			    json_object_get(e, "vlan_names")) > 0 ?
			    "VLAN names" : "its software (system description)");
		}
	}
	if (malformed_of(o, "lldp") > 0) {
		/* What the undecodable LLDP disclosed cannot be told. */
		*st = FA_ST_NOT_TESTED;
		return found(o, ev, "malformed_signals", fa_obs_obj(o,
		    FA_F(ETH_CAPTURE, malformed_signals)), reason,
		    "%lld LLDP frames "
		    "could not be decoded; what they disclose is unknown",
		    malformed_of(o, "lldp"));
	}
	*st = FA_ST_PASS;
	if (nodes > 0)
		return found(o, ev, "lldp", signal(o, "lldp"), reason, "LLDP "
		    "heard only from the tenant's own nodes (%zu: a source MAC "
		    "of this host, or management addresses all inside "
		    "tenant_subnet)%s", nodes, nodes < json_array_size(signal(
		    o, "lldp")) ? " and without management addresses, VLAN "
		    "names or system description from any other" : "");
	return found(o, ev, "lldp", signal(o, "lldp"), reason, "%s",
	    json_array_size(signal(o, "lldp")) > 0 ? "LLDP heard, without "
	    "management addresses, VLAN names or system description" :
	    "no LLDP frame among those heard");
}

static int
judge_dhcp(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	const json_t *a = signal(o, "dhcp"), *e;
	const char *srv;
	size_t i;

	json_array_foreach(a, i, e) {
		srv = fa_json_get_str(e, "server_id");
		if (srv == NULL)
			srv = fa_json_get_str(e, "ip_src");
		if (ip_in(srv, ctx->policy->dhcp_server,
		    ctx->policy->n_dhcp_server) != 1) {
			*st = FA_ST_FAIL;
			return found(o, ev, "dhcp", e, reason, "a DHCP server "
			    "the policy does not list answers on this port: "
			    "%s%s", srv != NULL ? srv : "(no address)",
			    json_object_get(e, "bootfile") != NULL ||
			    json_object_get(e, "tftp_server") != NULL ?
			    ", offering a network boot (provisioning network)"
			    : "");
		}
	}
	*st = json_array_size(a) > 0 ? FA_ST_PASS : FA_ST_NOT_TESTED;
	return found(o, ev, "dhcp", a, reason, "%s", json_array_size(a) > 0 ?
	    "every DHCP server heard is one the policy lists" : "no DHCP "
	    "server answered during the capture (the passive scan sends no "
	    "DISCOVER)");
}

/*
 * The address a sender of signal sig claims as its own, judged against
 * tenant_subnet; NULL when the frame tells none (skip it).  *what names
 * the rule in the reason.  Unspecified and link-local sources are judged
 * by what they carry: an ARP probe from 0.0.0.0 (RFC 5227 2.1.1) and a
 * duplicate address detection probe from :: (RFC 4862 5.4.2) claim their
 * target address; a neighbour advertisement (RFC 4861 4.4) announces its
 * target; a router advertisement (RFC 4861 4.2) from a link-local source
 * is judged by the prefixes it advertises (the first outside
 * tenant_subnet, *prefix set).  Other link-local senders tell nothing.
 */
static const char *
claimed(const struct fa_policy *p, const char *sig, const json_t *e,
    const char **what, int *prefix, char *net, size_t netlen)
{
	const char *ip, *t, *pf;
	const json_t *v;
	long long type;
	size_t i;

	*what = sig;
	*prefix = 0;
	if (strcmp(sig, "arp") == 0) {
		ip = fa_json_get_str(e, "sender_ip");
		if (ip != NULL && strcmp(ip, "0.0.0.0") == 0) {
			*what = "ARP probe for its address";
			return fa_json_get_str(e, "target_ip");
		}
		return ip;
	}
	ip = fa_json_get_str(e, "ip_src");
	if (strcmp(sig, "nd") == 0) {
		type = json_integer_value(json_object_get(e, "type"));
		t = fa_json_get_str(e, "target");
		if (type == 134) {
			*what = "router advertising a prefix";
			*prefix = 1;
			json_array_foreach(json_object_get(e, "prefixes"), i,
			    v) {
				if ((pf = json_string_value(v)) == NULL)
					continue;
				/* "2001:db8::/64": judged by its network. */
				snprintf(net, netlen, "%.*s", (int)strcspn(pf,
				    "/"), pf);
				if (ip_in(net, p->tenant_subnet,
				    p->n_tenant_subnet) != 1)
					return pf;
			}
			return NULL;
		}
		if (ip != NULL && strcmp(ip, "::") == 0 && type == 135) {
			*what = "duplicate address detection for its address";
			ip = t;
		} else if (type == 136 && t != NULL) {
			*what = "neighbour advertisement of its address";
			ip = t;
		}
	}
	if (ip == NULL || strcmp(ip, "0.0.0.0") == 0 || strcmp(ip, "::") == 0 ||
	    strncasecmp(ip, "fe8", 3) == 0 || strncasecmp(ip, "fe9", 3) == 0 ||
	    strncasecmp(ip, "fea", 3) == 0 || strncasecmp(ip, "feb", 3) == 0 ||
	    strncmp(ip, "169.254.", 8) == 0)
		return NULL;
	return ip;
}

static int
judge_foreign_l2(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	static const char *const sigs[] = { "arp", "name", "dhcp", "nd",
	    "rmcp" };
	const struct fa_policy *p = ctx->policy;
	const struct fa_obs *s;
	const json_t *e;
	const char *ip, *what;
	char net[INET6_ADDRSTRLEN];
	size_t i, k, n = 0, it, scanned = 0, judged = 0;
	int pfx;

	if (p->n_tenant_subnet == 0) {
		*st = FA_ST_NOT_TESTED;
		return found(o, ev, NULL, NULL, reason, "the policy names no "
		    "tenant_subnet, so no sender can be called foreign");
	}
	for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
		json_array_foreach(signal(o, sigs[k]), i, e) {
			ip = claimed(p, sigs[k], e, &what, &pfx, net,
			    sizeof(net));
			/* An RA whose prefixes are all the tenant's is judged
			 * too, and passes. */
			if (ip != NULL || json_array_size(json_object_get(e,
			    "prefixes")) > 0)
				judged++;
			/* A prefix is judged by its network address. */
			if (ip == NULL || (!pfx && ip_in(ip, p->tenant_subnet,
			    p->n_tenant_subnet) != 0))
				continue;
			if (n++ == 0 && found(o, ev, sigs[k], e, reason,
			    "a host outside the tenant's subnets speaks on "
			    "this segment: %s (%s)", ip, what) != 0)
				return FA_ERR_NOMEM;
			if (n > 1 && fa_evidence_add(ev, fa_evidence(o,
			    sigs[k], json_deep_copy(e))) != 0)
				return FA_ERR_NOMEM;
		}
	/* The --active ARP scan of this interface's prefixes, if any. */
	it = 0;
	while ((s = fa_snapshot_next(ctx->snap, FA_KIND_ETH_ARP_SCAN, &it))) {
		size_t tl = strlen(o->target);

		if (strncmp(s->target, o->target, tl) != 0 ||
		    s->target[tl] != ' ')
			continue;
		scanned++;
		json_array_foreach(fa_obs_arr(s, FA_F(ETH_ARP_SCAN, hosts)), i,
		    e) {
			ip = fa_json_get_str(e, "ip");
			if (ip == NULL || ip_in(ip, p->tenant_subnet,
			    p->n_tenant_subnet) != 0)
				continue;
			if (n++ == 0 && found(s, ev, "arp_scan", e, reason,
			    "a host outside the tenant's subnets answers on "
			    "this segment: %s (ARP scan)", ip) != 0)
				return FA_ERR_NOMEM;
			if (n > 1 && fa_evidence_add(ev, fa_evidence(s,
			    "arp_scan", json_deep_copy(e))) != 0)
				return FA_ERR_NOMEM;
		}
	}
	if (n > 0) {
		*st = FA_ST_FAIL;
		return 0;
	}
	if (judged == 0 && scanned == 0) {
		/* No sender told its address: silence proves nothing. */
		*st = FA_ST_NOT_TESTED;
		return found(o, ev, NULL, NULL, reason, "no ARP, neighbour "
		    "discovery, DHCP, name-service or RMCP sender heard told "
		    "an address to judge (link-local and unspecified senders "
		    "tell none)");
	}
	*st = FA_ST_PASS;
	if (scanned > 0)
		return found(o, ev, NULL, NULL, reason, "every sender heard, "
		    "and every host answering the ARP scan, is inside the "
		    "tenant's subnets");
	return found(o, ev, NULL, NULL, reason, "every ARP, neighbour "
	    "discovery, DHCP, name-service and RMCP sender heard is inside "
	    "the tenant's subnets");
}

/* RoCEv2 is judged by both ends: from another tenant to us is as much a
 * breach as between two others. */
static int
judge_roce(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    enum fa_status *st, char **reason, json_t *ev)
{
	const struct fa_policy *p = ctx->policy;
	const json_t *e;
	const char *src, *dst;
	int sin, din;
	size_t i;

	json_array_foreach(signal(o, "roce"), i, e) {
		src = fa_json_get_str(e, "ip_src");
		dst = fa_json_get_str(e, "ip_dst");
		sin = p->n_tenant_subnet > 0 && ip_in(src, p->tenant_subnet,
		    p->n_tenant_subnet) == 1;
		din = p->n_tenant_subnet > 0 && ip_in(dst, p->tenant_subnet,
		    p->n_tenant_subnet) == 1;
		if (sin && din)
			continue;
		*st = FA_ST_FAIL;
		if (p->n_tenant_subnet == 0)
			return found(o, ev, "roce", e, reason, "RoCEv2 traffic "
			    "from %s to %s is visible on this port (the policy "
			    "names no tenant_subnet to tell whose it is)",
			    src != NULL ? src : "?", dst != NULL ? dst : "?");
		return found(o, ev, "roce", e, reason, "RoCEv2 traffic from %s "
		    "to %s is visible on this port: %s", src != NULL ? src :
		    "?", dst != NULL ? dst : "?", din ? "another tenant's "
		    "RDMA reaches the tenant's nodes" : sin ? "the tenant's "
		    "RDMA goes to an address outside its subnets" : "another "
		    "tenant's RDMA (keys, addresses) reaches us");
	}
	*st = FA_ST_PASS;
	return found(o, ev, NULL, NULL, reason, "no RoCEv2 frame from or to a "
	    "foreign address among those heard (RDMA the NIC handles itself "
	    "is never seen by a capture)");
}

/* deps: the signals the judge reads (their tables must not have filled). */
#define EVAL(name, judge, deps)						\
	static int							\
	name(const struct fa_check *c, const struct fa_eval_ctx *ctx,	\
	    struct fa_results *out)					\
	{								\
		return each_capture(c, ctx, out, judge, deps);		\
	}

EVAL(eval_foreign_vlan, judge_foreign_vlan, "")
EVAL(eval_trunk, judge_trunk, "dtp,lldp,stp")
EVAL(eval_dtp, judge_dtp, "dtp")
EVAL(eval_stp, judge_stp, "stp")
EVAL(eval_cdp, judge_cdp, "cdp")
EVAL(eval_lldp, judge_lldp, "lldp")
EVAL(eval_dhcp, judge_dhcp, "dhcp")
EVAL(eval_foreign_l2, judge_foreign_l2, "arp,name,dhcp,nd,rmcp")
EVAL(eval_roce, judge_roce, "roce")

#define REF_L2	"IEEE 802.1AB-2016 (LLDP); Cisco CDP, DTP"
#define REF_BPDU	"IEEE 802.1D-2004, 9 (BPDUs)"

static const char *const refs_vlan[] = {
	"IEEE 802.1Q-2018, 6.9 and 9.6 (VLAN tags)",
	FA_CMAX_VLAN,
	NULL
};
static const char *const refs_l2[] = { REF_L2, REF_BPDU, NULL };
/* Trunk negotiation undoes VLAN isolation. */
static const char *const refs_dtp[] = {
	REF_L2, REF_BPDU, FA_CMAX_VLAN, NULL
};
static const char *const refs_dhcp[] = {
	"RFC 2131 (DHCP)", "RFC 7610 (DHCPv6-Shield), RFC 6105 (RA-Guard)",
	NULL
};
static const char *const refs_roce[] = {
	"InfiniBand Architecture Specification, Annex A17 (RoCEv2)",
	"Rothenberger et al., ReDMArk: Bypassing RDMA Security Mechanisms, "
	    "USENIX Security 2021",
	FA_CMAX_VLAN,
	NULL
};

const struct fa_check fa_chk_eth_foreign_vlan = {
	.id = "ETH-FOREIGN-VLAN",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "Frames of VLANs outside the policy reach the tenant port",
	.rationale = "Tagged frames of VLANs that are not the tenant's mean "
	    "the switch port leaks other VLANs to the tenant: other tenants' "
	    "or the provider's traffic is visible, and often reachable.",
	.remediation = "Configure tenant-facing ports as access ports (or "
	    "trunks allowing only the tenant's VLANs), and prune every other "
	    "VLAN.",
	.msa_clause = "Provider shall deliver to Customer ports only the VLANs "
	    "assigned to Customer, and no frame of any other VLAN.",
	.refs = refs_vlan,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when a frame carries a VLAN ID "
	    "that the policy's tenant_vlan lines do not list (tag 0, a "
	    "priority tag, is no VLAN; without tenant_vlan every tagged frame "
	    "is foreign). Passes when none does. Not tested for a LINUX_SLL2 "
	    "capture without any tagged frame: libpcap drops the VLAN tags of "
	    "LINUX_SLL2 frames.",
	.eval = eval_foreign_vlan,
};

const struct fa_check fa_chk_eth_trunk_port = {
	.id = "ETH-TRUNK-PORT",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "The tenant port is a trunk",
	.rationale = "A trunk port carries several VLANs; a tenant on one can "
	    "tag its frames into VLANs it was not given.",
	.remediation = "Make tenant-facing ports access ports, or restrict the "
	    "allowed VLAN list of the trunk to the tenant's VLANs.",
	.msa_clause = "Provider shall configure Customer-facing switch ports "
	    "so that they carry only Customer's VLANs and do not negotiate "
	    "trunking.",
	.refs = refs_vlan,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when frames of two or more VLANs "
	    "reach the port (802.1Q, 802.1ad or ISL tags), when the switch "
	    "reports the port as trunking (DTP), when LLDP from a switch names "
	    "more than one VLAN, or when PVST+ BPDUs of several VLANs arrive. "
	    "Passes when none of these was seen. Not tested, when the VLANs or "
	    "PVST+ BPDUs are the only evidence, for a LINUX_SLL capture "
	    "(tcpdump -i any), which mixes the frames of every interface, and "
	    "for a LINUX_SLL2 capture without any tagged frame, whose tags "
	    "libpcap drops.",
	.eval = eval_trunk,
};

const struct fa_check fa_chk_eth_dtp_exposed = {
	.id = "ETH-DTP-EXPOSED",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "The switch speaks DTP on the tenant port",
	.rationale = "Dynamic Trunking Protocol on a tenant port means trunk "
	    "negotiation was not disabled; in desirable or auto mode a tenant "
	    "can turn its port into a trunk (switch spoofing).",
	.remediation = "Disable DTP on tenant ports (switchport nonegotiate, "
	    "mode access).",
	.msa_clause = "Provider shall disable dynamic trunking protocols on "
	    "all Customer-facing switch ports.",
	.refs = refs_dtp,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when any DTP frame arrives, even "
	    "one that could not be decoded; the reason says when the switch is "
	    "in desirable or auto mode and would negotiate a trunk. Passes "
	    "when no DTP frame was heard.",
	.eval = eval_dtp,
};

const struct fa_check fa_chk_eth_stp_exposed = {
	.id = "ETH-STP-EXPOSED",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_LOW,
	.title = "Spanning-tree BPDUs reach the tenant port",
	.rationale = "BPDUs reveal bridge and root identities and the VLAN "
	    "layout, and show the port is not an edge port with BPDU filtering "
	    "or guard.",
	.remediation = "Make tenant ports edge ports with BPDU guard (and BPDU "
	    "filter where appropriate).",
	.msa_clause = "Provider shall configure Customer-facing switch ports "
	    "as edge ports that neither send nor accept spanning-tree BPDUs.",
	.refs = refs_l2,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when any spanning-tree BPDU "
	    "arrives, even one that could not be decoded. Passes when none was "
	    "heard.",
	.eval = eval_stp,
};

const struct fa_check fa_chk_eth_cdp_exposed = {
	.id = "ETH-CDP-EXPOSED",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_LOW,
	.title = "The switch sends CDP to the tenant port",
	.rationale = "CDP discloses the switch's name, software version, "
	    "native VLAN and management addresses to the tenant.",
	.remediation = "Disable CDP and other vendor discovery protocols on "
	    "tenant-facing switch ports.",
	.msa_clause = "Provider shall not send device discovery protocol "
	    "frames disclosing infrastructure details to Customer ports.",
	.refs = refs_l2,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when any CDP frame arrives, even "
	    "one that could not be decoded. Passes when none was heard.",
	.eval = eval_cdp,
};

const struct fa_check fa_chk_eth_lldp_leak = {
	.id = "ETH-LLDP-LEAK",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_MEDIUM,
	.title = "LLDP discloses switch management details to the tenant",
	.rationale = "LLDP with management addresses, VLAN names or the switch "
	    "software tells a tenant where the management plane is and what "
	    "runs it.",
	.remediation = "Limit LLDP on tenant ports to the basic TLVs, or "
	    "disable it.",
	.msa_clause = "Provider shall not disclose management addresses, VLAN "
	    "names or software versions of its network devices to Customer "
	    "ports.",
	.refs = refs_l2,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when an LLDP frame discloses a "
	    "management address, VLAN names or a system description. LLDP from "
	    "the tenant's own nodes (lldpd) is no switch leak and is not "
	    "judged: its source MAC is one of this host's (eth.links), or "
	    "every management address it names is inside tenant_subnet. Passes "
	    "when no LLDP was heard, or only LLDP without those. Not tested "
	    "when some LLDP frames could not be decoded and none decoded "
	    "disclosed anything.",
	.eval = eval_lldp,
};

const struct fa_check fa_chk_eth_rogue_dhcp = {
	.id = "ETH-ROGUE-DHCP",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "A DHCP server the policy does not list answers on the tenant "
	    "port",
	.rationale = "An unlisted DHCP server is another tenant's, a rogue "
	    "one, or the provider's provisioning network reaching the tenant; "
	    "any of them can redirect the tenant's traffic or boot images.",
	.remediation = "Enable DHCP snooping so that only the intended servers "
	    "answer on tenant ports; keep provisioning networks off them.",
	.msa_clause = "Provider shall ensure that only DHCP servers named by "
	    "Customer answer on Customer ports.",
	.refs = refs_dhcp,
	.sends = FA_ETH_SENDS_LISTEN " In particular no DHCP DISCOVER: only "
	    "servers that answer other clients during the capture are heard.",
	.outcomes = FA_ETH_PER_CAPTURE "Fails when a DHCP server reply comes "
	    "from a server that the policy's dhcp_server lines do not list (by "
	    "its server identifier, else its source address). Passes when DHCP "
	    "servers were heard and every one is listed. Not tested when no "
	    "DHCP server answered during the capture.",
	.eval = eval_dhcp,
};

const struct fa_check fa_chk_eth_foreign_l2 = {
	.id = "ETH-FOREIGN-L2",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_HIGH,
	.title = "Hosts outside the tenant's subnets share its layer-2 segment",
	.rationale = "ARP, DHCP and name-service chatter from other subnets "
	    "means the tenant's broadcast domain is shared with other parties.",
	.remediation = "Give each tenant its own broadcast domain (VLAN or "
	    "VXLAN segment).",
	.msa_clause = "Provider shall place Customer hosts in layer-2 segments "
	    "that contain no host of any other customer or of the provider's "
	    "management.",
	.refs = refs_vlan,
	.sends = FA_ETH_SENDS_LISTEN " With --active only: an untagged "
	    "broadcast ARP probe (RFC 5227: sender address 0.0.0.0, so no "
	    "neighbour cache learns anything) to every address of each IPv4 "
	    "prefix of the interface, at most 1024 per prefix and 50 a second, "
	    "then two seconds of listening for the replies.",
	.outcomes = FA_ETH_PER_CAPTURE "Fails when an ARP, neighbour "
	    "discovery, DHCP, name-service (mDNS, LLMNR, NBNS, SSDP) or RMCP "
	    "sender outside the policy's tenant_subnet lines is heard, or "
	    "(with --active) a host outside them answers the ARP scan. A "
	    "sender is judged by the address it claims: an ARP probe from "
	    "0.0.0.0 and a duplicate address detection probe from :: by their "
	    "target, a neighbour advertisement by its target, a router "
	    "advertisement by the prefixes it advertises (a router advertising "
	    "one outside tenant_subnet is foreign); other link-local "
	    "(fe80::/10, 169.254/16) and unspecified senders tell nothing and "
	    "are not judged. Frames this host sent (known from a LINUX_SLL "
	    "packet type or pcapng direction flag) are not judged. Passes when "
	    "every sender is inside. Not tested when the policy names no "
	    "tenant_subnet, or when no sender heard told an address to judge "
	    "(and no --active ARP scan ran).",
	.eval = eval_foreign_l2,
};

const struct fa_check fa_chk_eth_roce_visible = {
	.id = "ETH-ROCE-VISIBLE",
	.family = FA_FAM_ETH,
	.severity = FA_SEV_CRITICAL,
	.title = "Another tenant's RoCE traffic is visible",
	.rationale = "RoCEv2 carries memory keys and addresses in clear and "
	    "has no authentication; seeing another tenant's RDMA traffic means "
	    "the network isolates nothing.",
	.remediation = "Isolate RoCE networks per tenant (VLAN/VRF or VXLAN) "
	    "and never flood or mirror RDMA traffic to tenant ports.",
	.msa_clause = "Provider shall isolate Customer's RDMA (RoCE) traffic "
	    "from every other customer's, so that neither can observe or reach "
	    "the other's.",
	.refs = refs_roce,
	.sends = FA_ETH_SENDS_LISTEN,
	.outcomes = FA_ETH_PER_CAPTURE "Fails when RoCEv2 traffic from or to "
	    "an address outside the policy's tenant_subnet lines (without "
	    "them, any RoCEv2 traffic) is captured: both ends are judged. "
	    "Passes otherwise; RDMA that the adapter handles itself never "
	    "reaches a capture, so a pass covers what the host's kernel sees.",
	.eval = eval_roce,
};
