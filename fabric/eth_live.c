/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Links through libnl-route-3 and live capture through libpcap (see
 * eth_live.h).  The capture handle is promiscuous (foreign unicast is a
 * finding), immediate, inbound only (pcap_setdirection) so that nothing
 * the host sends is mistaken for wire evidence, and has no kernel filter:
 * VLAN semantics differ between live and offline BPF (ethernet.md 1.2), so
 * the analyser decides everything in user space.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/if_ether.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/vlan.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/route.h>
#include <pcap/pcap.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "eth_capture.h"
#include "eth_live.h"

static json_t *
nl_addr_json(struct nl_addr *a)
{
	char buf[128];

	if (a == NULL)
		return json_null();
	nl_addr2str(a, buf, sizeof(buf));
	return json_string(buf);
}

static json_t *
link_json(struct rtnl_link *l)
{
	const char *type = rtnl_link_get_type(l);
	char *name = fa_str_sanitize(rtnl_link_get_name(l) != NULL ?
	    rtnl_link_get_name(l) : "", IFNAMSIZ);
	char op[32];
	json_t *o;

	if (name == NULL)
		return NULL;
	rtnl_link_operstate2str(rtnl_link_get_operstate(l), op, sizeof(op));
	o = json_pack("{s:s, s:i, s:s?, s:o, s:b, s:s, s:i, s:i}", "name",
	    name, "ifindex", rtnl_link_get_ifindex(l), "type", type, "mac",
	    nl_addr_json(rtnl_link_get_addr(l)), "up",
	    (rtnl_link_get_flags(l) & IFF_UP) != 0, "operstate", op, "master",
	    rtnl_link_get_master(l), "link", rtnl_link_get_link(l));
	free(name);
	{
		/* SR-IOV: only a PF the host can see reports its VFs. */
		uint32_t nvf = 0;

		if (o != NULL && rtnl_link_get_num_vf(l, &nvf) == 0 &&
		    json_object_set_new(o, "num_vf", json_integer(nvf)) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	if (o != NULL && rtnl_link_is_vlan(l) && (json_object_set_new(o,
	    "vlan_id", json_integer(rtnl_link_vlan_get_id(l))) != 0 ||
	    json_object_set_new(o, "vlan_protocol", json_sprintf("0x%04x",
	    ntohs(rtnl_link_vlan_get_protocol(l)))) != 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
addr_json(struct rtnl_addr *a)
{
	return json_pack("{s:i, s:s, s:o, s:i}", "ifindex",
	    rtnl_addr_get_ifindex(a), "family", rtnl_addr_get_family(a) ==
	    AF_INET ? "inet" : rtnl_addr_get_family(a) == AF_INET6 ? "inet6" :
	    "other", "local", nl_addr_json(rtnl_addr_get_local(a)),
	    "prefixlen", rtnl_addr_get_prefixlen(a));
}

static json_t *
route_json(struct rtnl_route *rt)
{
	struct rtnl_nexthop *nh = rtnl_route_get_nnexthops(rt) > 0 ?
	    rtnl_route_nexthop_n(rt, 0) : NULL;

	struct nl_addr *dst = rtnl_route_get_dst(rt);

	return json_pack("{s:o, s:i, s:o, s:i}", "dst", dst == NULL ||
	    nl_addr_get_prefixlen(dst) == 0 ? json_string("default") :
	    nl_addr_json(dst), "table", (int)rtnl_route_get_table(rt),
	    "gateway", nh != NULL ? nl_addr_json(rtnl_route_nh_get_gateway(nh))
	    : json_null(), "ifindex", nh != NULL ?
	    rtnl_route_nh_get_ifindex(nh) : 0);
}

static json_t *
neigh_json(struct rtnl_neigh *n)
{
	char st[64];

	rtnl_neigh_state2str(rtnl_neigh_get_state(n), st, sizeof(st));
	return json_pack("{s:o, s:o, s:i, s:s}", "dst", nl_addr_json(
	    rtnl_neigh_get_dst(n)), "lladdr", nl_addr_json(
	    rtnl_neigh_get_lladdr(n)), "ifindex", rtnl_neigh_get_ifindex(n),
	    "state", st);
}

/*
 * Append every object of cache c, as fn makes it, to a (max entries).  0,
 * or FA_ERR_NOMEM.
 */
static int
dump_cache(struct nl_cache *c, json_t *a, json_t *(*fn)(void *),
    size_t max)
{
	struct nl_object *o;

	for (o = c != NULL ? nl_cache_get_first(c) : NULL; o != NULL &&
	    json_array_size(a) < max; o = nl_cache_get_next(o))
		if (json_array_append_new(a, fn(o)) != 0)
			return FA_ERR_NOMEM;
	return 0;
}

static json_t *
route_fn(void *o)
{
	return route_json(o);
}

static json_t *
neigh_fn(void *o)
{
	return neigh_json(o);
}

int
fa_eth_collect_links(struct fa_snapshot *snap)
{
	struct nl_cache *links = NULL, *addrs = NULL, *routes = NULL,
	    *neighs = NULL;
	struct nl_object *o;
	struct nl_sock *sk;
	json_t *ls = json_array(), *as = json_array(), *rs = json_array(),
	    *ns = json_array();
	char *reason = NULL;
	struct fa_obs_build b;
	json_t *d;
	int err = 0, nomem = 0, r;

	if (ls == NULL || as == NULL || rs == NULL || ns == NULL ||
	    (sk = nl_socket_alloc()) == NULL) {
		json_decref(ls);
		json_decref(as);
		json_decref(rs);
		json_decref(ns);
		return FA_ERR_NOMEM;
	}
	if ((err = nl_connect(sk, NETLINK_ROUTE)) < 0 ||
	    (err = rtnl_link_alloc_cache(sk, AF_UNSPEC, &links)) < 0 ||
	    (err = rtnl_addr_alloc_cache(sk, &addrs)) < 0 ||
	    (err = rtnl_route_alloc_cache(sk, AF_UNSPEC, 0, &routes)) < 0 ||
	    (err = rtnl_neigh_alloc_cache(sk, &neighs)) < 0) {
		/* err is libnl's -NLE_*, not an FA_ERR_* */
		if ((reason = fa_strfmt("netlink: %s", nl_geterror(err))) ==
		    NULL)
			nomem = 1;
	}
	if (dump_cache(routes, rs, route_fn, 4096) != 0 ||
	    dump_cache(neighs, ns, neigh_fn, 4096) != 0)
		nomem = 1;
	for (o = links != NULL ? nl_cache_get_first(links) : NULL; o != NULL;
	    o = nl_cache_get_next(o))
		if (json_array_append_new(ls, link_json((struct rtnl_link *)o)))
			nomem = 1;
	for (o = addrs != NULL ? nl_cache_get_first(addrs) : NULL; o != NULL;
	    o = nl_cache_get_next(o))
		if (json_array_append_new(as, addr_json((struct rtnl_addr *)o)))
			nomem = 1;
	nl_cache_free(links);
	nl_cache_free(addrs);
	nl_cache_free(routes);
	nl_cache_free(neighs);
	nl_socket_free(sk);
	if (nomem && reason == NULL) {
		json_decref(ls);
		json_decref(as);
		json_decref(rs);
		json_decref(ns);
		return FA_ERR_NOMEM;
	}
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(ETH_LINKS, links), ls);
	fa_put_arr(&b, FA_F(ETH_LINKS, addrs), as);
	fa_put_arr(&b, FA_F(ETH_LINKS, routes), rs);
	fa_put_arr(&b, FA_F(ETH_LINKS, neighbours), ns);
	if ((d = fa_obs_built(&b)) == NULL) {
		free(reason);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(snap, FA_FAM_ETH, NULL, FA_KIND_ETH_LINKS,
	    "netlink", "RTM_GETLINK, RTM_GETADDR, RTM_GETROUTE, RTM_GETNEIGH",
	    reason != NULL ? FA_OBS_ERROR : FA_OBS_COMPLETE, reason, d, NULL);
	free(reason);
	return r;
}

char **
fa_eth_up_interfaces(const struct fa_snapshot *snap)
{
	const struct fa_obs *o = fa_snapshot_find(snap, FA_KIND_ETH_LINKS,
	    "netlink");
	const json_t *ls = o != NULL ? json_object_get(o->data, "links") :
	    NULL, *l;
	size_t i, n = 0, bytes = sizeof(char *);
	const char *name;
	char **v, *p;

	json_array_foreach(ls, i, l)
		if (json_is_true(json_object_get(l, "up")) &&
		    (name = fa_json_get_str(l, "name")) != NULL &&
		    strcmp(name, "lo") != 0) {
			n++;
			bytes += sizeof(char *) + strlen(name) + 1;
		}
	if ((v = malloc(bytes)) == NULL)
		return NULL;
	p = (char *)(v + n + 1);
	n = 0;
	json_array_foreach(ls, i, l)
		if (json_is_true(json_object_get(l, "up")) &&
		    (name = fa_json_get_str(l, "name")) != NULL &&
		    strcmp(name, "lo") != 0) {
			v[n++] = p;
			p = stpcpy(p, name) + 1;
		}
	v[n] = NULL;
	return v;
}

struct listen_ctx {
	const char	*iface;
	pcap_t		*p;
	struct fa_eth_agg *agg;
	int		 err;
	char		*lost;		/* why the capture ended early */
	long		 heard;		/* seconds listened before that */
};

static void
on_frame(u_char *arg, const struct pcap_pkthdr *h, const u_char *b)
{
	struct listen_ctx *c = (struct listen_ctx *)arg;

	if (c->err == 0)
		c->err = fa_eth_agg_frame(c->agg, b, h->caplen, h->len);
}

/* Record an interface that could not be listened on. */
static int
not_listened(struct fa_snapshot *snap, const char *iface, const char *why)
{
	struct fa_eth_agg *a = fa_eth_agg_new(iface, "live");
	char *reason = fa_strfmt("%s: %s", iface, why);
	int r;

	if (a == NULL || reason == NULL) {
		fa_eth_agg_free(a);
		free(reason);
		return FA_ERR_NOMEM;
	}
	r = fa_eth_agg_finish(a, snap, FA_OBS_NOT_COLLECTED, reason, 0);
	free(reason);
	return r;
}

/* Open one interface; 1 opened, 0 recorded as not listened, <0 error. */
static int
open_one(struct listen_ctx *c, struct fa_snapshot *snap)
{
	char eb[PCAP_ERRBUF_SIZE];
	const char *why = NULL;
	int r;

	eb[0] = '\0';
	if ((c->p = pcap_create(c->iface, eb)) == NULL)
		return not_listened(snap, c->iface, eb);
	pcap_set_snaplen(c->p, 65535);
	pcap_set_promisc(c->p, 1);
	pcap_set_immediate_mode(c->p, 1);
	pcap_set_timeout(c->p, 100);
	if ((r = pcap_activate(c->p)) < 0)
		why = r == PCAP_ERROR_PERM_DENIED ? "no permission to capture "
		    "(CAP_NET_RAW is needed)" : r == PCAP_ERROR_NO_SUCH_DEVICE ?
		    "no such interface" : pcap_geterr(c->p);
	else if (pcap_datalink(c->p) != DLT_EN10MB)
		why = "not an Ethernet interface";
	else if (pcap_setnonblock(c->p, 1, eb) != 0 ||
	    pcap_get_selectable_fd(c->p) < 0)
		why = "the capture cannot be polled";
	if (why != NULL) {
		r = not_listened(snap, c->iface, why);
		pcap_close(c->p);
		c->p = NULL;
		return r;
	}
	(void)pcap_setdirection(c->p, PCAP_D_IN);
	if ((c->agg = fa_eth_agg_new(c->iface, "live")) == NULL) {
		pcap_close(c->p);
		c->p = NULL;
		return FA_ERR_NOMEM;
	}
	return 1;
}

/*
 * Read what is ready on c; the capture is lost (the interface deleted or
 * gone down: libpcap reports ENODEV/ENETDOWN as an error, the socket as
 * POLLERR) when reading fails or the socket reports an error.  Returns 1
 * when it was lost (c->lost says why), 0, or FA_ERR_NOMEM.
 */
static int
dispatch_one(struct listen_ctx *c, short revents, long heard)
{
	int n = pcap_dispatch(c->p, -1, on_frame, (u_char *)c);

	if (n >= 0 && (revents & (POLLERR | POLLHUP | POLLNVAL)) == 0)
		return 0;
	c->lost = fa_strfmt("%s: the capture ended after %ld s: %s", c->iface,
	    heard, n < 0 ? pcap_geterr(c->p) : "the capture socket reported "
	    "an error");
	c->heard = heard;
	return c->lost != NULL ? 1 : FA_ERR_NOMEM;
}

int
fa_eth_listen(char *const *ifaces, unsigned seconds,
    fa_eth_progress_fn progress, void *arg, struct fa_snapshot *snap)
{
	struct fa_eth_progress pr = { 0, 0, 0, 0 };
	struct listen_ctx c[FA_ETH_LISTEN_MAX];
	struct pollfd pfd[FA_ETH_LISTEN_MAX];
	unsigned long long frames;
	struct pcap_stat ps;
	time_t start, now;
	size_t n = 0, i, live;
	int r = 0, cut = 0, d;
	char why[160];

	memset(c, 0, sizeof(c));
	for (i = 0; ifaces[i] != NULL && i < FA_ETH_LISTEN_MAX && r >= 0;
	    i++) {
		c[n].iface = ifaces[i];
		if ((r = open_one(&c[n], snap)) == 1) {
			pfd[n].fd = pcap_get_selectable_fd(c[n].p);
			pfd[n].events = POLLIN;
			n++;
		}
	}
	start = now = time(NULL);
	live = n;
	while (r >= 0 && live > 0 && now - start < (time_t)seconds &&
	    !(cut = fa_deadline_passed())) {
		for (i = 0, frames = 0; i < n; i++)
			frames += fa_eth_agg_frames(c[i].agg);
		if (progress != NULL) {
			pr.ifaces = n;
			pr.left = (long)(seconds - (now - start));
			pr.frames = frames;
			progress(&pr, arg);
		}
		/* A lost capture's fd is set to -1: poll(2) skips it. */
		if (poll(pfd, n, fa_deadline_clamp_ms(200)) > 0)
			for (i = 0; i < n && r >= 0; i++) {
				if (pfd[i].fd < 0 || pfd[i].revents == 0)
					continue;
				if ((d = dispatch_one(&c[i], pfd[i].revents,
				    (long)(time(NULL) - start))) < 0)
					r = d;
				else if (d == 1) {
					pfd[i].fd = -1;
					live--;
				}
			}
		for (i = 0; i < n; i++)
			if (c[i].err != 0)
				r = c[i].err;
		now = time(NULL);
	}
	if (progress != NULL && n > 0) {
		pr.done = 1;
		progress(&pr, arg);
	}
	/* --max-time: what was heard is kept, marked as a shorter listen. */
	if (cut && n > 0) {
		snprintf(why, sizeof(why), "--max-time %u s reached after %ld "
		    "of the %u s of listening", fa_deadline_seconds(),
		    (long)(now - start), seconds);
		fa_deadline_cut(FA_FAM_ETH, "during the capture, after %ld of "
		    "%u s", (long)(now - start), seconds);
	}
	for (i = 0; i < n; i++) {
		/* What was heard before the loss stands; the rest is not
		 * known, so the capture is incomplete (never a pass). */
		if (r >= 0 && c[i].lost != NULL)
			r = fa_eth_agg_finish(c[i].agg, snap,
			    FA_OBS_INCOMPLETE, c[i].lost, c[i].heard);
		else if (r >= 0 && cut)
			r = fa_eth_agg_finish(c[i].agg, snap, FA_OBS_INCOMPLETE,
			    why, (long)(now - start));
		else if (r >= 0)
			r = pcap_stats(c[i].p, &ps) == 0 && ps.ps_drop > 0 ?
			    fa_eth_agg_finish(c[i].agg, snap,
			    FA_OBS_INCOMPLETE, "the kernel dropped frames "
			    "during the capture", (long)seconds) :
			    fa_eth_agg_finish(c[i].agg, snap, FA_OBS_COMPLETE,
			    NULL, (long)seconds);
		else
			fa_eth_agg_free(c[i].agg);
		free(c[i].lost);
		pcap_close(c[i].p);
	}
	return r < 0 ? r : 0;
}
