/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The --active VLAN probe (see eth_active.h).  Frames: Ethernet II to the
 * broadcast address from our MAC, 802.1Q tag(s) (IEEE 802.1Q-2018 9.6),
 * then an ARP request (RFC 826) with SPA 0.0.0.0 and THA zero: an ARP
 * probe (RFC 5227 2.1.1).  A host in the VLAN that owns the TPA answers
 * with a unicast reply to our MAC; that reply coming back to this port is
 * the proof.  At most 20 frames a second; nothing else is sent.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/link/vlan.h>
#include <pcap/pcap.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "eth_active.h"
#include "eth_frame.h"
#include "../core/obs_kinds.h"

static int
ipv4_targets(const struct fa_policy *p, uint8_t (*out)[4], size_t max)
{
	const struct fa_pol_target *lists[2] = { p->mgmt_target,
	    p->foreign_target };
	size_t counts[2] = { p->n_mgmt_target, p->n_foreign_target }, n = 0,
	    l, i;

	for (l = 0; l < 2; l++)
		for (i = 0; i < counts[l] && n < max; i++)
			if (lists[l][i].net.af == AF_INET &&
			    lists[l][i].net.prefix == 32)
				memcpy(out[n++], lists[l][i].net.addr, 4);
	return (int)n;
}

/*
 * The port's own VLAN for double tagging: LLDP PVID heard, else policy;
 * -1 (*src says so) when neither names one.
 */
static long
outer_vlan(const struct fa_snapshot *snap, const char *iface,
    const struct fa_policy *p, const char **src)
{
	const struct fa_obs *o = fa_snapshot_find(snap, FA_KIND_ETH_CAPTURE,
	    iface);
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(o != NULL ?
	    o->data : NULL, "signals"), "lldp"), i, e)
		if (json_is_integer(json_object_get(e, "pvid")) &&
		    json_integer_value(json_object_get(e, "pvid")) >= 1 &&
		    json_integer_value(json_object_get(e, "pvid")) <= 4094) {
			*src = "LLDP port VLAN ID";
			return (long)json_integer_value(json_object_get(e,
			    "pvid"));
		}
	if (p->n_tenant_vlan > 0) {
		*src = "policy tenant_vlan";
		return (long)p->tenant_vlan[0].value;
	}
	*src = "none known: no double-tagged probe";
	return -1;	/* not an error: no outer VLAN known */
}

static size_t
arp_probe(uint8_t *f, const uint8_t mac[6], long outer, unsigned vid,
    const uint8_t tpa[4])
{
	size_t n = 12;

	memset(f, 0xff, 6);
	memcpy(f + 6, mac, 6);
	if (outer >= 0) {
		f[n++] = 0x81;
		f[n++] = 0x00;
		f[n++] = (uint8_t)(outer >> 8);
		f[n++] = (uint8_t)outer;
	}
	f[n++] = 0x81;
	f[n++] = 0x00;
	f[n++] = (uint8_t)(vid >> 8);
	f[n++] = (uint8_t)vid;
	memcpy(f + n, "\x08\x06\x00\x01\x08\x00\x06\x04\x00\x01", 10);
	n += 10;
	memcpy(f + n, mac, 6);
	n += 6;
	memset(f + n, 0, 10);		/* SPA 0.0.0.0, THA zero */
	n += 10;
	memcpy(f + n, tpa, 4);
	n += 4;
	while (n < 60)
		f[n++] = 0;
	return n;
}

/* What a reply must answer: our probes, from mac, into these VLANs. */
struct asked {
	uint8_t		  (*targets)[4];
	int		  nt;
	const uint8_t	  *mac;
	const struct fa_policy *p;	/* its foreign_vlan: the VIDs probed */
	json_t		  *replies;
	json_int_t	  ignored;	/* ARP replies from a target that are
					 * not an answer to a probe */
};

static int target_reply(const u_char *b, size_t len, struct asked *a,
    long dev_vid);

/*
 * The VLAN-device variant for one VID: a VLAN sub-interface of iface
 * (rtnl_link_vlan_alloc, CAP_NET_ADMIN) so the NIC's VLAN filter admits the
 * replies; the probes go out untagged through it and the kernel tags them.
 * Returns 1 when used (replies appended), 0 when the kernel refused it
 * (*why set: then the raw frames are used instead), <0 on ENOMEM.
 */
static int
vlan_device(const char *iface, unsigned vid, struct asked *a, json_t *sent,
    char *why, size_t wl)
{
	char ip[INET_ADDRSTRLEN];
	struct timespec gap = { 0, 50 * 1000 * 1000 };
	char name[IFNAMSIZ], eb[PCAP_ERRBUF_SIZE];
	struct rtnl_link *l = NULL;
	struct nl_sock *sk;
	struct pcap_pkthdr *h;
	const u_char *b;
	uint8_t f[128];
	pcap_t *pc = NULL;
	time_t end;
	int err, k, r = 1;

	snprintf(name, sizeof(name), "fa.%u", vid);
	if ((sk = nl_socket_alloc()) == NULL)
		return FA_ERR_NOMEM;
	if ((err = nl_connect(sk, NETLINK_ROUTE)) < 0 ||
	    (l = rtnl_link_vlan_alloc()) == NULL) {
		snprintf(why, wl, "netlink: %s", nl_geterror(err));
		nl_socket_free(sk);
		return 0;
	}
	rtnl_link_set_name(l, name);
	rtnl_link_set_link(l, (int)if_nametoindex(iface));
	rtnl_link_set_flags(l, IFF_UP);
	if ((err = rtnl_link_vlan_set_id(l, (uint16_t)vid)) < 0 ||
	    (err = rtnl_link_add(sk, l, NLM_F_CREATE | NLM_F_EXCL)) < 0) {
		snprintf(why, wl, "no VLAN device: %s", nl_geterror(err));
		rtnl_link_put(l);
		nl_socket_free(sk);
		return 0;
	}
	if ((pc = pcap_open_live(name, 65535, 0, 100, eb)) == NULL) {
		snprintf(why, wl, "VLAN device %s: %.100s", name, eb);
		r = 0;
		goto out;
	}
	(void)pcap_setnonblock(pc, 1, eb);
	for (k = 0; k < a->nt && !fa_deadline_passed(); k++) {
		/* Untagged through the VLAN device: shift the tag out. */
		arp_probe(f, a->mac, -1, vid, a->targets[k]);
		memmove(f + 12, f + 16, 60 - 16);
		if (pcap_inject(pc, f, 60) < 0)
			continue;
		inet_ntop(AF_INET, a->targets[k], ip, sizeof(ip));
		if (json_array_append_new(sent, json_pack("{s:I, s:n, s:s, "
		    "s:s}", "vid", (json_int_t)vid, "outer", "target", ip,
		    "via", "vlan device")) != 0) {
			r = FA_ERR_NOMEM;
			goto out;
		}
		nanosleep(&gap, NULL);
	}
	for (end = time(NULL) + 2; time(NULL) < end && r == 1 &&
	    !fa_deadline_passed();)
		if (pcap_next_ex(pc, &h, &b) != 1)
			nanosleep(&gap, NULL);
		else if (target_reply(b, h->caplen, a, (long)vid) != 0)
			r = FA_ERR_NOMEM;
out:
	if (pc != NULL)
		pcap_close(pc);
	(void)rtnl_link_delete(sk, l);
	rtnl_link_put(l);
	nl_socket_free(sk);
	return r;
}

static int
not_probed(struct fa_snapshot *snap, const char *iface, const char *why)
{
	char *r = fa_strfmt("%s: %s", iface, why);
	int rc;

	if (r == NULL)
		return FA_ERR_NOMEM;
	rc = fa_snapshot_add(snap, FA_FAM_ETH, NULL, FA_KIND_ETH_VLAN_PROBE,
	    iface, "tagged ARP probes", FA_OBS_NOT_COLLECTED, r, NULL, NULL);
	free(r);
	return rc;
}

/* Our MAC, from the eth.links observation. */
static int
own_mac(const struct fa_snapshot *snap, const char *iface, uint8_t mac[6])
{
	const struct fa_obs *o = fa_snapshot_find(snap, FA_KIND_ETH_LINKS,
	    "netlink");
	const json_t *l;
	const char *m;
	unsigned b[6];
	size_t i;

	json_array_foreach(json_object_get(o != NULL ? o->data : NULL,
	    "links"), i, l)
		if ((m = fa_json_get_str(l, "name")) != NULL &&
		    strcmp(m, iface) == 0 && (m = fa_json_get_str(l, "mac")) !=
		    NULL && sscanf(m, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2],
		    &b[3], &b[4], &b[5]) == 6) {
			for (i = 0; i < 6; i++)
				mac[i] = (uint8_t)b[i];
			return 0;
		}
	return FA_ERR_NOTFOUND;
}

/* 1 when vid is one of the policy's foreign VLANs (those probed). */
static int
probed_vid(const struct fa_policy *p, long vid)
{
	size_t i;

	for (i = 0; i < p->n_foreign_vlan; i++)
		if (p->foreign_vlan[i].value == (uint64_t)vid)
			return 1;
	return 0;
}

/*
 * An ARP reply (RFC 826, op 2) that answers one of our probes: from one of
 * the targets, to our MAC (the requester's address, which a responder
 * copies into the reply's target hardware address), and
 *   - through a VLAN device: in its VLAN;
 *   - on the interface itself: with a tag (outer or inner, for a provider
 *     bridge) of a VLAN probed; or untagged but to the probe's sender
 *     address 0.0.0.0 (RFC 5227: only an answer to our probe has it), as a
 *     port whose egress leaves a probed VLAN untagged sends it back.
 * Anything else from a target (a gratuitous ARP, an answer to the kernel's
 * own request) answers no probe: counted in a->ignored.  Kept in
 * a->replies as {target, mac, vid (null when untagged), via}, once per
 * target, MAC and VLAN.  0, or FA_ERR_NOMEM.
 */
static int
target_reply(const u_char *b, size_t len, struct asked *a, long dev_vid)
{
	const char *sip, *tha, *tpa, *via = "vlan device";
	const json_t *tag, *e;
	char ours[18];
	uint8_t ip[4];
	json_t *fa;
	long vid = dev_vid;
	size_t i;
	int k, r = 0;

	if (fa_eth_decode(b, len, len, &fa, NULL) != 0) {
		json_decref(fa);	/* FA_ERR_INPUT may hand facts back */
		return 0;
	}
	sip = fa_json_get_str(fa, "sender_ip");
	if (strcmp(fa_json_get_str(fa, "signal"), "arp") != 0 ||
	    json_integer_value(json_object_get(fa, "op")) != 2 ||
	    sip == NULL || inet_pton(AF_INET, sip, ip) != 1)
		goto out;
	for (k = 0; k < a->nt && memcmp(ip, a->targets[k], 4) != 0; k++)
		;
	if (k == a->nt)
		goto out;	/* not a target's */
	snprintf(ours, sizeof(ours), "%02x:%02x:%02x:%02x:%02x:%02x",
	    a->mac[0], a->mac[1], a->mac[2], a->mac[3], a->mac[4], a->mac[5]);
	tha = fa_json_get_str(fa, "target_mac");
	tpa = fa_json_get_str(fa, "target_ip");
	if (tha == NULL || strcasecmp(tha, ours) != 0) {
		a->ignored++;
		goto out;
	}
	if (dev_vid < 0) {
		via = "tag";
		vid = -1;
		json_array_foreach(json_object_get(fa, "tags"), i, tag)
			if (json_is_integer(json_object_get(tag, "vid")) &&
			    probed_vid(a->p, (long)json_integer_value(
			    json_object_get(tag, "vid")))) {
				vid = (long)json_integer_value(
				    json_object_get(tag, "vid"));
				break;
			}
		if (vid < 0 && json_array_size(json_object_get(fa, "tags")) ==
		    0 && tpa != NULL && strcmp(tpa, "0.0.0.0") == 0)
			via = "untagged";
		else if (vid < 0) {
			a->ignored++;
			goto out;
		}
	}
	/* Seen by the VLAN device and on the interface: once. */
	json_array_foreach(a->replies, i, e)
		if (strcmp(fa_json_get_str(e, "target"), sip) == 0 &&
		    json_equal(json_object_get(e, "mac"),
		    json_object_get(fa, "sender_mac")) &&
		    (vid < 0 ? json_is_null(json_object_get(e, "vid")) :
		    json_integer_value(json_object_get(e, "vid")) == vid))
			goto out;
	if (json_array_size(a->replies) < 64 &&
	    json_array_append_new(a->replies, json_pack("{s:s, s:O?, s:o, "
	    "s:s}", "target", sip, "mac", json_object_get(fa, "sender_mac"),
	    "vid", vid >= 0 ? json_integer(vid) : json_null(), "via",
	    via)) != 0)
		r = FA_ERR_NOMEM;
out:
	json_decref(fa);
	return r;
}

static int
probe_one(const char *iface, const struct fa_policy *p,
    struct fa_snapshot *snap)
{
	uint8_t targets[FA_VLAN_PROBE_TARGETS][4], mac[6], f[128];
	struct timespec gap = { 0, 50 * 1000 * 1000 };
	char eb[PCAP_ERRBUF_SIZE], ip[INET_ADDRSTRLEN], err[PCAP_ERRBUF_SIZE];
	struct fa_obs_build out;
	struct pcap_pkthdr *h;
	struct pcap_stat ps;
	const u_char *b;
	const char *src;
	json_t *sent = json_array(), *replies = json_array(), *d,
	    *method = json_array();
	long outer = outer_vlan(snap, iface, p, &src);
	char *vlan_dev = calloc(p->n_foreign_vlan + 1, 1);
	enum fa_obs_state st = FA_OBS_COMPLETE;
	time_t end;
	size_t v, k, n;
	int nt = ipv4_targets(p, targets, FA_VLAN_PROBE_TARGETS), pass, r;
	struct asked a = { targets, nt, mac, p, replies, 0 };
	pcap_t *pc = NULL;

	err[0] = '\0';
	if (sent == NULL || replies == NULL || method == NULL ||
	    vlan_dev == NULL)
		goto nomem;
	if (own_mac(snap, iface, mac) != 0 || nt == 0) {
		snprintf(err, sizeof(err), "%s", nt == 0 ? "the policy names "
		    "no single IPv4 target to ask for" : "its MAC address is "
		    "not known");
		goto not_probed;
	}
	/*
	 * The interface itself is listened to from the first probe on: a
	 * port that leaves a probed VLAN untagged on egress answers the
	 * VLAN device's probes there, not on the device.
	 */
	if ((pc = pcap_open_live(iface, 65535, 0, 100, eb)) == NULL) {
		snprintf(err, sizeof(err), "%s", eb);
		goto not_probed;
	}
	(void)pcap_setnonblock(pc, 1, eb);
	/* The VLAN-device variant first, VID by VID (see vlan_device). */
	for (v = 0; v < p->n_foreign_vlan; v++) {
		char why[160] = "";

		r = vlan_device(iface, (unsigned)p->foreign_vlan[v].value, &a,
		    sent, why, sizeof(why));
		if (r < 0 || json_array_append_new(method, json_pack("{s:I, "
		    "s:s, s:s?}", "vid", (json_int_t)p->foreign_vlan[v].value,
		    "method", r == 1 ? "vlan device" : "raw tagged frames",
		    "why", why[0] != '\0' ? why : NULL)) != 0)
			goto nomem;
		vlan_dev[v] = r == 1;
		while (pcap_next_ex(pc, &h, &b) == 1)
			if (target_reply(b, h->caplen, &a, -1) != 0)
				goto nomem;
	}
	for (v = 0; v < p->n_foreign_vlan && !fa_deadline_passed(); v++)
		for (k = 0; k < (size_t)nt && !fa_deadline_passed(); k++)
			for (pass = vlan_dev[v] ? 1 : 0;
			    pass < (outer >= 0 ? 2 : 1); pass++) {
				n = arp_probe(f, mac, pass ? outer : -1,
				    (unsigned)p->foreign_vlan[v].value,
				    targets[k]);
				inet_ntop(AF_INET, targets[k], ip, sizeof(ip));
				if (pcap_inject(pc, f, n) < 0) {
					snprintf(err, sizeof(err), "%s",
					    pcap_geterr(pc));
					goto not_probed;
				}
				if (json_array_append_new(sent, json_pack(
				    "{s:I, s:o, s:s, s:s}", "vid", (json_int_t)
				    p->foreign_vlan[v].value, "outer", pass ?
				    json_integer(outer) : json_null(), "target",
				    ip, "via", "raw tagged frame")) != 0)
					goto nomem;
				nanosleep(&gap, NULL);
				/* Read as we go: replies must not be lost. */
				while (pcap_next_ex(pc, &h, &b) == 1)
					if (target_reply(b, h->caplen, &a, -1) !=
					    0)
						goto nomem;
			}
	/* Two seconds more for late replies. */
	for (end = time(NULL) + 2; time(NULL) < end &&
	    !fa_deadline_passed();) {
		if (pcap_next_ex(pc, &h, &b) != 1)
			nanosleep(&gap, NULL);
		else if (target_reply(b, h->caplen, &a, -1) != 0)
			goto nomem;
	}
	if (pcap_stats(pc, &ps) == 0 && ps.ps_drop > 0)
		st = FA_OBS_INCOMPLETE;
	pcap_close(pc);
	free(vlan_dev);
	fa_obs_build(&out);
	fa_put_arr(&out, FA_F(ETH_VLAN_PROBE, sent), sent);
	fa_put_arr(&out, FA_F(ETH_VLAN_PROBE, replies), replies);
	fa_put_str(&out, FA_F(ETH_VLAN_PROBE, outer_source), src);
	fa_put_arr(&out, FA_F(ETH_VLAN_PROBE, methods), method);
	fa_put_int(&out, FA_F(ETH_VLAN_PROBE, ignored), a.ignored);
	if ((d = fa_obs_built(&out)) == NULL)
		return FA_ERR_NOMEM;
	if (fa_deadline_passed()) {
		fa_deadline_cut(FA_FAM_ETH, "during the VLAN probes");
		return fa_snapshot_add(snap, FA_FAM_ETH, NULL,
		    FA_KIND_ETH_VLAN_PROBE, iface, "tagged ARP probes",
		    FA_OBS_INCOMPLETE, "--max-time reached before every probe "
		    "was sent and its replies awaited", d, NULL);
	}
	return fa_snapshot_add(snap, FA_FAM_ETH, NULL, FA_KIND_ETH_VLAN_PROBE,
	    iface, "tagged ARP probes", st, st == FA_OBS_COMPLETE ? NULL :
	    "the kernel dropped frames while the replies were awaited", d,
	    NULL);
nomem:
	err[0] = '\0';		/* nothing to record: out of memory */
not_probed:
	if (pc != NULL)
		pcap_close(pc);
	json_decref(sent);
	json_decref(replies);
	json_decref(method);
	free(vlan_dev);
	return err[0] != '\0' ? not_probed(snap, iface, err) : FA_ERR_NOMEM;
}

int
fa_eth_vlan_probe(char *const *ifaces, const struct fa_policy *p,
    struct fa_snapshot *snap)
{
	size_t i;
	int r;

	for (i = 0; ifaces[i] != NULL; i++)
		if ((r = probe_one(ifaces[i], p, snap)) != 0)
			return r;
	return 0;
}

/* The IPv4 prefixes of iface from eth.links: ifindex first, then addrs. */
static int
if_prefixes(const struct fa_snapshot *snap, const char *iface,
    uint8_t (*addr)[4], unsigned *plen, size_t max)
{
	const struct fa_obs *o = fa_snapshot_find(snap, FA_KIND_ETH_LINKS,
	    "netlink");
	const json_t *l, *a;
	const char *name, *loc;
	long long idx = -1;
	char buf[64];
	size_t i, n = 0;

	json_array_foreach(json_object_get(o != NULL ? o->data : NULL,
	    "links"), i, l)
		if ((name = fa_json_get_str(l, "name")) != NULL &&
		    strcmp(name, iface) == 0)
			idx = json_integer_value(json_object_get(l, "ifindex"));
	json_array_foreach(json_object_get(o != NULL ? o->data : NULL,
	    "addrs"), i, a) {
		if (n >= max || json_integer_value(json_object_get(a,
		    "ifindex")) != idx || strcmp(fa_json_get_str(a, "family") !=
		    NULL ? fa_json_get_str(a, "family") : "", "inet") != 0 ||
		    (loc = fa_json_get_str(a, "local")) == NULL)
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(loc, "/"), loc);
		if (inet_pton(AF_INET, buf, addr[n]) != 1)
			continue;
		plen[n] = (unsigned)json_integer_value(json_object_get(a,
		    "prefixlen"));
		if (plen[n] >= 1 && plen[n] <= 32)
			n++;
	}
	return (int)n;
}

/* An ARP reply's sender, once, into hosts (bounded). */
static int
arp_reply(const u_char *b, size_t len, json_t *hosts)
{
	const json_t *e;
	json_t *fa;
	const char *ip;
	size_t i;
	int r = 0;

	if (fa_eth_decode(b, len, len, &fa, NULL) != 0) {
		json_decref(fa);	/* FA_ERR_INPUT may hand facts back */
		return 0;
	}
	ip = fa_json_get_str(fa, "sender_ip");
	if (json_integer_value(json_object_get(fa, "op")) == 2 && ip != NULL &&
	    strcmp(fa_json_get_str(fa, "signal"), "arp") == 0 &&
	    json_array_size(hosts) < FA_ARP_SCAN_MAX) {
		json_array_foreach(hosts, i, e)
			if (strcmp(fa_json_get_str(e, "ip"), ip) == 0)
				break;
		if (i == json_array_size(hosts) &&
		    json_array_append_new(hosts, json_pack("{s:s, s:O?}", "ip",
		    ip, "mac", json_object_get(fa, "sender_mac"))) != 0)
			r = FA_ERR_NOMEM;
	}
	json_decref(fa);
	return r;
}

static int
scan_prefix(pcap_t *pc, const char *iface, const uint8_t mac[6],
    const uint8_t own[4], unsigned plen, struct fa_snapshot *snap)
{
	struct timespec gap = { 0, 20 * 1000 * 1000 };
	struct fa_obs_build out;
	uint32_t base = (uint32_t)own[0] << 24 | (uint32_t)own[1] << 16 |
	    (uint32_t)own[2] << 8 | own[3], mask, first, last, h;
	json_t *hosts = json_array(), *d;
	char target[64], pfx[INET_ADDRSTRLEN], full[INET_ADDRSTRLEN + 4];
	struct pcap_pkthdr *ph;
	const u_char *b;
	uint8_t f[128], ip[4], net[4];
	size_t probed = 0;
	time_t end;

	if (hosts == NULL)
		return FA_ERR_NOMEM;
	mask = plen == 0 ? 0 : 0xffffffffu << (32 - plen);
	first = (base & mask) + (plen <= 30 ? 1 : 0);
	last = (base | ~mask) - (plen <= 30 ? 1 : 0);
	for (h = first; h <= last && probed < FA_ARP_SCAN_MAX &&
	    !fa_deadline_passed(); h++) {
		if (h == base)
			continue;
		ip[0] = (uint8_t)(h >> 24);
		ip[1] = (uint8_t)(h >> 16);
		ip[2] = (uint8_t)(h >> 8);
		ip[3] = (uint8_t)h;
		/* Untagged: arp_probe writes a tag, so shift it out. */
		arp_probe(f, mac, -1, 0, ip);
		memmove(f + 12, f + 16, 60 - 16);
		if (pcap_inject(pc, f, 60) < 0)
			break;
		probed++;
		nanosleep(&gap, NULL);
		/* Collect replies as they come, so none is lost. */
		while (pcap_next_ex(pc, &ph, &b) == 1)
			if (arp_reply(b, ph->caplen, hosts) != 0) {
				json_decref(hosts);
				return FA_ERR_NOMEM;
			}
		if (h == 0xffffffffu)
			break;
	}
	for (end = time(NULL) + 2; time(NULL) < end &&
	    !fa_deadline_passed();) {
		if (pcap_next_ex(pc, &ph, &b) != 1)
			nanosleep(&gap, NULL);
		else if (arp_reply(b, ph->caplen, hosts) != 0) {
			json_decref(hosts);
			return FA_ERR_NOMEM;
		}
	}
	h = base & mask;
	net[0] = (uint8_t)(h >> 24);
	net[1] = (uint8_t)(h >> 16);
	net[2] = (uint8_t)(h >> 8);
	net[3] = (uint8_t)h;
	inet_ntop(AF_INET, net, pfx, sizeof(pfx));
	snprintf(full, sizeof(full), "%s/%u", pfx, plen);
	snprintf(target, sizeof(target), "%s %s", iface, full);
	fa_obs_build(&out);
	fa_put_str(&out, FA_F(ETH_ARP_SCAN, prefix), full);
	fa_put_int(&out, FA_F(ETH_ARP_SCAN, probed), (long long)probed);
	fa_put_arr(&out, FA_F(ETH_ARP_SCAN, hosts), hosts);
	if ((d = fa_obs_built(&out)) == NULL)
		return FA_ERR_NOMEM;
	if (fa_deadline_passed()) {
		fa_deadline_cut(FA_FAM_ETH, "during the ARP scan");
		return fa_snapshot_add(snap, FA_FAM_ETH, NULL,
		    FA_KIND_ETH_ARP_SCAN, target, "ARP probes to every address "
		    "of the prefix", FA_OBS_INCOMPLETE, "--max-time reached "
		    "before every address was probed and its reply awaited", d,
		    NULL);
	}
	return fa_snapshot_add(snap, FA_FAM_ETH, NULL, FA_KIND_ETH_ARP_SCAN,
	    target, "ARP probes to every address of the prefix",
	    last - first + 1 > FA_ARP_SCAN_MAX ? FA_OBS_INCOMPLETE :
	    FA_OBS_COMPLETE, last - first + 1 > FA_ARP_SCAN_MAX ? "only the "
	    "first 1024 addresses of the prefix were probed" : NULL, d, NULL);
}

int
fa_eth_arp_scan(char *const *ifaces, struct fa_snapshot *snap)
{
	uint8_t addr[8][4], mac[6];
	char eb[PCAP_ERRBUF_SIZE];
	unsigned plen[8];
	size_t i;
	int n, k, r;
	pcap_t *pc;

	for (i = 0; ifaces[i] != NULL; i++) {
		n = if_prefixes(snap, ifaces[i], addr, plen, 8);
		if (n == 0 || own_mac(snap, ifaces[i], mac) != 0)
			continue;	/* no IPv4 address: nothing to scan */
		if ((pc = pcap_open_live(ifaces[i], 65535, 0, 100, eb)) ==
		    NULL)
			continue;
		(void)pcap_setnonblock(pc, 1, eb);
		for (k = 0, r = 0; k < n && r == 0; k++)
			r = scan_prefix(pc, ifaces[i], mac, addr[k], plen[k],
			    snap);
		pcap_close(pc);
		if (r != 0)
			return r;
	}
	return 0;
}
