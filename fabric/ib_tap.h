/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The discovery tap (ib_tap.c): capture libibnetdisc's MADs, pace them per
 * destination, and count them.
 */
#ifndef FA_FABRIC_IB_TAP_H
#define FA_FABRIC_IB_TAP_H

#include <stdint.h>

#include "ib_pcap.h"

struct fa_ib_tap_stats {
	unsigned long	sent;		/* sends (kernel retries not seen) */
	unsigned long	answered;	/* responses */
	unsigned long	lost;		/* sends returned unanswered */
	unsigned long	failed;		/* ... handed to libibnetdisc so,
					   once out of retries */
	unsigned long	recovered;	/* answered after a resend */
	unsigned long	held;		/* sends held back for pacing */
	unsigned long	malformed;	/* answers handed back as unanswered:
					   short, or a NodeInfo without
					   ports (ib_tap.c) */
	unsigned long	nodes;		/* new nodes (NodeDescription answers) */
	unsigned long	ports;		/* PortInfo answers */
	unsigned	inflight;	/* now */
	unsigned	max_inflight;	/* highest, all destinations */
	unsigned	max_per_dest;	/* highest to one destination */
	int		cut;		/* --max-time ended discovery */
};

/*
 * Start watching every MAD the process sends or receives: copy each to
 * pcap (may be NULL), and keep at most per_dest in flight to one
 * destination (a directed route or a LID), holding back the others,
 * and resend a send that comes back unanswered up to `retries` times
 * (or the retries its caller asked for).
 * tick(arg), if not NULL, is called after every send and receive.
 */
void fa_ib_tap_open(struct fa_ib_pcap *pcap, uint16_t own_lid, int reveal,
    unsigned per_dest, unsigned retries, void (*tick)(void *), void *arg);
/* What the tap saw since the open. */
void fa_ib_tap_stats(struct fa_ib_tap_stats *st);
/* Stop; returns the number of MADs captured since the open. */
unsigned long fa_ib_tap_close(void);

#endif
