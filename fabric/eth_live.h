/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Ethernet family's live acquisition: the host's links and addresses
 * through libnl (no privilege needed), and listening on interfaces with
 * libpcap (CAP_NET_RAW).  Listening is passive: nothing is sent.
 *
 * eth.links  target "netlink": {links: [{name, ifindex, type, mac, up,
 *            operstate, master, link, vlan_id, vlan_protocol, num_vf}],
 *            addrs: [{ifindex, family, local, prefixlen}], routes: [{dst,
 *            table, gateway, ifindex}], neighbours: [{dst, lladdr, ifindex,
 *            state}]} (routes and neighbours at most 4096 each)
 */
#ifndef FA_ETH_LIVE_H
#define FA_ETH_LIVE_H

#include "../core/snapshot.h"
#include "../core/obs_kinds.h"

#define FA_ETH_DEF_LISTEN	30	/* seconds */
#define FA_ETH_LISTEN_MAX	64	/* interfaces listened on at once */

/* Record eth.links; 0 or FA_ERR_NOMEM (netlink errors are recorded). */
int fa_eth_collect_links(struct fa_snapshot *snap);

/*
 * The names of the interfaces that are up, not loopback, from the
 * eth.links observation just recorded: a NULL-terminated array the caller
 * frees with free() (one block).  NULL on ENOMEM.
 */
char **fa_eth_up_interfaces(const struct fa_snapshot *snap);

/* What a listen is doing, for the caller's progress line. */
struct fa_eth_progress {
	size_t			 ifaces;	/* listened on */
	long			 left;		/* seconds */
	unsigned long long	 frames;	/* heard so far */
	int			 done;		/* the last call */
};
typedef void (*fa_eth_progress_fn)(const struct fa_eth_progress *p,
    void *arg);

/*
 * Listen on every interface of the NULL-terminated list (at most
 * FA_ETH_LISTEN_MAX) at once for seconds, and record an eth.capture for
 * each.  progress (if not NULL) is called with arg about five times a
 * second, and once with done set at the end; this layer prints nothing.
 * An interface that cannot be opened (no permission, no such device, not
 * Ethernet) is recorded as not_collected with the reason; returns 0 or
 * FA_ERR_NOMEM.
 */
int fa_eth_listen(char *const *ifaces, unsigned seconds,
    fa_eth_progress_fn progress, void *arg, struct fa_snapshot *snap);

#endif
