/*
 * What the wire shows: frames from a saved capture (--pcap) or a live
 * interface (--listen), decoded by eth_frame.c and summarised into one
 * eth.capture observation per source:
 *
 *   {"source", "mode": "file"|"live", "seconds" (live), "frames", "bytes",
 *    "truncated" (captured shorter than sent), "malformed",
 *    "malformed_examples": [{"frame": n, "why", "signal"?}],
 *    "malformed_signals": {NAME: frames whose headers name a signal but
 *    whose body could not be decoded}, "tagged",
 *    "vlans": {"VID": frames}, "signals": {NAME: [{...facts, "vid",
 *    "count"}]}}
 *
 * Facts are de-duplicated per signal (same facts, same outer VLAN: one entry
 * with a count), sorted, and bounded (FA_ETH_UNIQUE_MAX per signal; the
 * excess is counted in "signals_dropped", and per signal in
 * "signals_dropped_by": {NAME: entries not kept}, with the bound as
 * "signals_limit"; a check that reads a signal whose table filled cannot
 * pass).  ARP keeps the sender, DHCP only
 * server replies, the name protocols and neighbour discovery the sender.
 */
#ifndef FA_ETH_CAPTURE_H
#define FA_ETH_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/snapshot.h"

#define FA_KIND_ETH_CAPTURE	"eth.capture"
#define FA_ETH_UNIQUE_MAX	256

struct fa_eth_agg;

struct fa_eth_agg *fa_eth_agg_new(const char *source, const char *mode);
void fa_eth_agg_free(struct fa_eth_agg *a);
/* Frames counted so far. */
unsigned long long fa_eth_agg_frames(const struct fa_eth_agg *a);
/* One frame: caplen bytes captured of wirelen sent.  0 or FA_ERR_NOMEM. */
int fa_eth_agg_frame(struct fa_eth_agg *a, const uint8_t *b, size_t caplen,
    size_t wirelen);
/* Record the summary as an observation (a is freed). */
int fa_eth_agg_finish(struct fa_eth_agg *a, struct fa_snapshot *snap,
    enum fa_obs_state st, const char *reason, long seconds);

/*
 * Read a saved capture (pcap or pcapng, link type Ethernet) into an
 * eth.capture observation, streaming: the whole file, or its first
 * max_frames frames (0: no limit; --max-frames), whatever its size, in the
 * bounded memory of the summary.  FA_ERR_INPUT / FA_ERR_IO with *why when
 * the file cannot be used at all (nothing is recorded then); a file cut
 * short, or not read to its end, is recorded as incomplete with what was
 * read and why.
 */
int fa_eth_read_pcap(const char *path, unsigned long long max_frames,
    struct fa_snapshot *snap, char **why);
/*
 * The same from an open stream (fmemopen(3) in the fuzz target), named
 * source in the observation.  f is closed in every case.
 */
int fa_eth_read_pcap_stream(FILE *f, const char *source,
    unsigned long long max_frames, struct fa_snapshot *snap, char **why);

/*
 * Whether path can be read by fa_eth_read_pcap() at all (a regular file,
 * a pcap or pcapng capture of Ethernet), checked before a scan writes
 * anything; 0 or FA_ERR_INPUT with *why.
 */
int fa_eth_pcap_check(const char *path, char **why);
#endif
