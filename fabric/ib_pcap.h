/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mads.pcap: every MAD the scanner's engine sends and receives, written
 * with libpcap.  The link type is DLT_ERF (197): one ERF record of type 21
 * (InfiniBand) per packet, which Wireshark's InfiniBand dissector decodes
 * (Debian's tshark does not read DLT_INFINIBAND, 247).  The ERF capture
 * interface records the direction: 0 sent, 1 received.  Each MAD is
 * wrapped in a synthesised UD packet: LRH, BTH (opcode UD SEND Only), DETH
 * (Q_Key, source QP), the MAD, then a real ICRC and VCRC.  The headers
 * describe what was asked of whom; they are a faithful summary, not a
 * claim about the wire.
 *
 * The file is written under a temporary name; fa_ib_pcap_finish() leaves
 * it there, complete, for the caller to put in place with the report it
 * belongs to (a scan's output set), so a capture is complete or absent
 * and never beside another run's report.
 */
#ifndef FA_FABRIC_IB_PCAP_H
#define FA_FABRIC_IB_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

struct fa_ib_pcap;

enum fa_pcap_dir {
	FA_PCAP_SENT = 0,
	FA_PCAP_RECEIVED,
};

struct fa_ib_pkt {
	uint16_t	slid;	/* LRH source LID (0xffff permissive for DR) */
	uint16_t	dlid;	/* LRH destination LID */
	uint32_t	src_qp;	/* DETH source QP (0 for SMPs, 1 for GMPs) */
	uint32_t	dst_qp;	/* BTH destination QP */
	uint32_t	qkey;	/* DETH Q_Key (0x80010000 for QP1) */
	uint8_t		sl;	/* LRH service level */
	uint8_t		vl;	/* LRH virtual lane (15 for SMPs) */
};

/*
 * Create dir/name (via a temporary file).  Returns 0, or FA_ERR_IO /
 * FA_ERR_NOMEM with *why (if not NULL) a new string naming the file.
 */
int fa_ib_pcap_open(const char *dir, const char *name, struct fa_ib_pcap **out,
    char **why);

/*
 * Append one MAD of `len` bytes (at most 256) as a packet with the given
 * addressing.  Returns 0 or FA_ERR_IO / FA_ERR_INPUT (len out of range).
 */
int fa_ib_pcap_write(struct fa_ib_pcap *c, const struct timeval *ts,
    enum fa_pcap_dir dir, const struct fa_ib_pkt *pkt, const uint8_t *mad,
    size_t len);

/* Packets written so far. */
unsigned long fa_ib_pcap_count(const struct fa_ib_pcap *c);

/*
 * Flush what is buffered and fsync, leaving the file open: for a capture
 * written by another process (cmd_scan.c's unprivileged acquisition,
 * which inherits it) before, and after, that process writes.  0, or
 * FA_ERR_IO with *why (a write already failed, or this one).
 */
int fa_ib_pcap_sync(struct fa_ib_pcap *c, char **why);

/* Close and remove the temporary file; accepts NULL. */
void fa_ib_pcap_abort(struct fa_ib_pcap *c);

/*
 * Flush, fsync and close, but leave the capture under its temporary name
 * (still removed if the run is interrupted, core/interrupt.h): *staged
 * gets that name (a new string, without the directory), for the caller
 * to move into place with the run's other outputs (a scan: the output
 * set, reports/output.c fa_outset_place) or to remove.  0, or FA_ERR_IO
 * / FA_ERR_NOMEM with *why, the file removed.  Accepts NULL (0, *staged
 * NULL).
 */
int fa_ib_pcap_finish(struct fa_ib_pcap *c, char **staged, char **why);

#endif
