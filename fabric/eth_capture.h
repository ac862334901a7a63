/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the wire shows: frames from a saved capture (--pcap, read by
 * eth_pcap_read.c) or a live interface (--listen, eth_live.c), decoded by
 * eth_frame.c and summarised into one eth.capture observation per source:
 *
 *   {"source", "mode": "file"|"live", "seconds" (live), "frames", "bytes",
 *    "truncated" (captured shorter than sent), "malformed",
 *    "malformed_examples": [{"frame": n, "why", "signal"?}],
 *    "malformed_signals": {NAME: frames whose headers name a signal but
 *    whose body could not be decoded}, "tagged",
 *    "vlans": {"VID": frames}, "signals": {NAME: [{...facts, "vid",
 *    "count"}]}, "vlans_cut": {"VID": frames of it the capture cut
 *    short}, "skipped": {WHY: frames counted but not judged},
 *    and the reader's facts (fa_eth_agg_facts)}
 *
 * Every VID of every frame whose tags were captured is counted, whatever
 * happened to its payload.  Facts are de-duplicated per signal (same
 * facts, same outer VLAN: one entry with a count), sorted, and bounded
 * (FA_ETH_UNIQUE_MAX per signal, about 1 KiB each; the excess is counted
 * in "signals_dropped", and per signal in "signals_dropped_by": {NAME:
 * entries not kept}, with the bound as "signals_limit"; a check that
 * reads a signal whose table filled cannot pass).  ARP keeps the sender
 * (and the target of a probe from 0.0.0.0), DHCP only server replies, the
 * name protocols the sender, neighbour discovery the sender, target and
 * advertised prefixes; "truncated" marks facts from a frame cut short.
 */
#ifndef FA_ETH_CAPTURE_H
#define FA_ETH_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/obs_fields.h"
#include "../core/snapshot.h"
#include "eth_frame.h"
#include "../core/obs_kinds.h"

#define FA_ETH_UNIQUE_MAX	4096

struct fa_eth_agg;

struct fa_eth_agg *fa_eth_agg_new(const char *source, const char *mode);
void fa_eth_agg_free(struct fa_eth_agg *a);
/* Frames counted so far. */
unsigned long long fa_eth_agg_frames(const struct fa_eth_agg *a);
/* One Ethernet frame: caplen bytes captured of wirelen sent.  0 or
 * FA_ERR_NOMEM. */
int fa_eth_agg_frame(struct fa_eth_agg *a, const uint8_t *b, size_t caplen,
    size_t wirelen);
/* The same for a frame of any link type, as fa_eth_decode_l2() takes it
 * (eth_frame.h); wirelen is the whole frame's length on the wire. */
int fa_eth_agg_l2(struct fa_eth_agg *a, const struct fa_eth_l2 *l2,
    size_t wirelen);
/*
 * A frame counted but not judged, and why (a short noun phrase that keys
 * "skipped": {why: frames}): a frame this host sent ("sent by this host",
 * known from LINUX_SLL's packet type or pcapng's epb_flags: the tenant's
 * own frames say nothing about the port), or one of a link type that is
 * not Ethernet (loopback, tunnels, IPoIB in a "-i any" capture).
 */
int fa_eth_agg_skip(struct fa_eth_agg *a, const char *why, size_t wirelen);
/*
 * Facts about the source itself, put into the observation's data by the
 * reader with the eth.capture fields' handles (core/obs_fields.h):
 * linktype, interface (name or index in the file), mixed_interfaces
 * (the frames of several interfaces in one stream, LINUX_SLL, so
 * ETH-TRUNK-PORT cannot count VLANs per port), ifindex, interface_drops
 * (frames the capturing interface dropped, pcapng isb_ifdrop /
 * epb_dropcount).  A put that runs out of memory fails the finish.
 */
struct fa_obs_build *fa_eth_agg_facts(struct fa_eth_agg *a);
/* Record the summary as an observation (a is freed). */
int fa_eth_agg_finish(struct fa_eth_agg *a, struct fa_snapshot *snap,
    enum fa_obs_state st, const char *reason, long seconds);
#endif
