/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a saved capture (--pcap) into eth.capture observations
 * (eth_capture.h), one per capture source, streaming: the whole file, or
 * its first max_frames frames (0: no limit; --max-frames, counted over
 * the whole file, every frame of every interface), whatever its size, in
 * the bounded memory of the summaries; nothing is allocated per frame.
 *
 * Classic pcap (either byte order, micro- or nanosecond magic) is read
 * by libpcap; pcapng by eth_pcapng.c (libpcap refuses a second interface
 * of another link type and drops direction flags and drop counts).  The
 * link types read are EN10MB, LINUX_SLL and LINUX_SLL2 (eth_linktype.h).
 *
 * Sources, their names and notes ("linktype" always):
 *   pcap EN10MB       one, "FILE"
 *   pcap LINUX_SLL    one, "FILE"; "mixed_interfaces": true (the header
 *                     does not say which interface a frame crossed)
 *   pcap LINUX_SLL2   one per interface index, "FILE (ifindex N)";
 *                     "interface": N
 *   pcapng            one per interface (IDB, numbered across sections),
 *                     "FILE (interface N: NAME)" with its if_name, else
 *                     "FILE (interface N)"; "interface": NAME or N.
 *                     LINUX_SLL: "mixed_interfaces": true.  LINUX_SLL2:
 *                     split further per interface index, "FILE (interface
 *                     N: NAME, ifindex M)", "ifindex": M, as in a pcap
 *                     file, so that a "-i any" capture written as pcapng
 *                     is judged per port too.  "interface_drops": D when
 *                     the file gave a drop count for the interface.
 * A frame of an SLL2 file whose header was not captured, so that its
 * interface index is unknown, goes to the interface's own source ("FILE"
 * or "FILE (interface N...)").  An SLL2 interface without a frame is
 * still recorded, as that source.
 *
 * Frames counted and not judged ("skipped", fa_eth_agg_skip): "sent by
 * this host" (LINUX_SLL/SLL2 packet type 4, pcapng direction outbound),
 * "not Ethernet (ARPHRD N)" (a cooked frame of another device type),
 * "shorter than its LINUX_SLL header" (or LINUX_SLL2).
 *
 * States: complete; incomplete, with every reason that applies joined by
 * "; ": the file is damaged or cut short (pcapng: the exact reason and
 * the block's byte offset; pcap: libpcap's reason, the frame after which
 * and, when known, the record's byte offset), "read stopped at
 * --max-frames N: the rest of the file was not read", more sources than
 * FA_ETH_PCAP_SOURCES_MAX (the frames of the others are not read), a
 * pcapng section of a version not read, "the capturing interface dropped
 * N frames" (pcapng: the last isb_ifdrop plus the last isb_osdrop given
 * for the interface, both cumulative counters, or the sum of its
 * epb_dropcount / Packet Block drops counts, whichever is larger: both
 * count the same losses).  A pcapng interface of another link type is
 * recorded FA_OBS_NOT_COLLECTED (not observed: a capability fabaudit
 * lacks), 0 frames, reason "link type NAME (N) is not supported; M frames
 * not read"; the checks report it per source, apart from the others.
 *
 * Errors, with *why, nothing recorded: FA_ERR_INPUT for a file that is
 * not a pcap or pcapng capture, a pcap file of another link type ("link
 * type NAME (N) is not supported: fabaudit reads Ethernet, LINUX_SLL and
 * LINUX_SLL2"), a pcapng file whose first block is not a valid Section
 * Header Block or with no interface of a supported link type; FA_ERR_IO;
 * FA_ERR_NOMEM.
 */
#ifndef FA_ETH_PCAP_READ_H
#define FA_ETH_PCAP_READ_H

#include <stdio.h>

#include "../core/snapshot.h"

/* The most sources (interfaces, interface indexes) read from one file. */
#define FA_ETH_PCAP_SOURCES_MAX	64

/*
 * Read the capture at path, a regular file only (opened O_NONBLOCK |
 * O_NOCTTY | O_CLOEXEC: a FIFO would block, a device be read), its
 * observations named after path.
 */
int fa_eth_read_pcap(const char *path, unsigned long long max_frames,
    struct fa_snapshot *snap, char **why);
/*
 * The same from fd, opened by the caller (the privileged parent opens
 * the --pcap file as the invoking user and the unprivileged child reads
 * it): name names the observations.  A regular file is expected (the
 * reader seeks back to its start after its first bytes).  fd is closed
 * in every case.
 */
int fa_eth_read_pcap_fd(int fd, const char *name,
    unsigned long long max_frames, struct fa_snapshot *snap, char **why);
/*
 * The same from an open, seekable stream (fmemopen(3) in the fuzz
 * target and the tests), named source.  f is closed in every case.
 */
int fa_eth_read_pcap_stream(FILE *f, const char *source,
    unsigned long long max_frames, struct fa_snapshot *snap, char **why);

/*
 * What the privileged parent may check of path before a scan writes
 * anything, without parsing content from the wire: a regular file it can
 * read whose first 4 bytes are a pcap magic (0xa1b2c3d4 micro-, 0xa1b23c4d
 * nanosecond, either byte order) or a pcapng Section Header Block type
 * (0x0a0d0d0a).  Link types and the rest are judged by the reader.  0, or
 * FA_ERR_INPUT with *why.
 */
int fa_eth_pcap_check(const char *path, char **why);
#endif
