/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small, bounded, streaming reader of pcapng capture files
 * (draft-ietf-opsawg-pcapng, "PCAP Next Generation (pcapng) Capture File
 * Format"): block after block from a stdio stream into one buffer reused
 * across blocks, never larger than the largest block met and never more
 * than FA_PCAPNG_BLOCK_MAX.  It knows the blocks a capture of frames needs
 * and skips the others by their length:
 *
 *   Section Header Block (SHB, 0x0A0D0D0A)   a section: its byte order,
 *       from its byte-order magic, and its own list of interfaces; a
 *       file may hold several sections, of either byte order
 *   Interface Description Block (IDB, 1)     an interface: link type,
 *       SnapLen, if_name
 *   Enhanced Packet Block (EPB, 6)           a frame: epb_flags
 *       direction, epb_dropcount
 *   Simple Packet Block (SPB, 3)             a frame of interface 0
 *   Packet Block (2, obsolete)               a frame: pack_flags, its
 *       drops count
 *   Interface Statistics Block (ISB, 5)      isb_ifdrop, isb_osdrop
 *
 * Interfaces are numbered across sections, in the order of their IDBs
 * (the first IDB of the second section follows the last of the first),
 * so that a record names one interface of the whole file.
 *
 * Every length is checked: a block's total length is a multiple of 4, at
 * least 12 and the least its type needs, the same at both ends, and no
 * more than FA_PCAPNG_BLOCK_MAX; a packet's captured length fits in its
 * block; options lie within their block; a packet's or statistics'
 * interface was described in its section.  A file that breaks one of
 * these, or ends inside a block, stops the reading: FA_ERR_INPUT with
 * the reason and the byte offset of the block ("block at byte 1234 claims
 * 99999999 bytes ...", "file ends inside the block at byte N ...").
 * Options of a known code but of a length the format does not allow are
 * ignored (the draft lets a reader report or ignore them; section 3.5).
 * A section of a version this reader does not know (major version other
 * than 1, minor other than 0 or 2) is reported and its blocks skipped up
 * to the next SHB (section 3.4), checked by the rules of 3.1 alone.
 */
#ifndef FA_ETH_PCAPNG_H
#define FA_ETH_PCAPNG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The largest block read (a 16 MiB frame is far past any link's MTU). */
#define FA_PCAPNG_BLOCK_MAX	(16u * 1024 * 1024)

enum fa_pcapng_type {
	FA_PCAPNG_SECTION = 1,	/* an SHB */
	FA_PCAPNG_IFACE,	/* an IDB */
	FA_PCAPNG_PACKET,	/* an EPB, SPB or PB */
	FA_PCAPNG_STATS		/* an ISB */
};

/* Direction of a packet (epb_flags / pack_flags bits 0-1). */
#define FA_PCAPNG_DIR_UNKNOWN	0
#define FA_PCAPNG_DIR_IN	1
#define FA_PCAPNG_DIR_OUT	2

/*
 * One record.  Pointers point into the reader's buffer: valid until the
 * next fa_pcapng_next() or fa_pcapng_free().  Only the members of the
 * record's type are set.
 */
struct fa_pcapng_rec {
	enum fa_pcapng_type type;
	uint64_t	 offset;	/* of the block, from the file's start */
	uint64_t	 iface;		/* IFACE, PACKET, STATS: the interface,
					 * numbered across sections */
	/* SECTION */
	unsigned	 major, minor;	/* version */
	int		 big_endian;
	int		 skipped;	/* a version not read: the section's
					 * blocks are skipped */
	/* IFACE */
	unsigned	 linktype;
	uint32_t	 snaplen;	/* 0: no limit */
	const char	*name;		/* if_name, namelen bytes (not NUL-
					 * terminated, may hold a NUL), or NULL */
	size_t		 namelen;
	/* PACKET */
	uint8_t		*data;		/* caplen bytes, writable (a reader may
					 * rearrange a header in place) */
	uint32_t	 caplen;	/* captured */
	uint32_t	 len;		/* original length, as the file says */
	int		 dir;		/* FA_PCAPNG_DIR_* */
	int		 has_drops;	/* drops is known: */
	uint64_t	 drops;		/* epb_dropcount / PB drops count: frames
					 * lost since the interface's previous
					 * packet */
	/* STATS (cumulative since the capture started, section 4.6) */
	int		 has_ifdrop, has_osdrop;
	uint64_t	 ifdrop;	/* isb_ifdrop: dropped by the interface */
	uint64_t	 osdrop;	/* isb_osdrop: dropped by the OS */
};

struct fa_pcapng;

/* A reader of f from its current position (the file's start); f stays the
 * caller's.  NULL on ENOMEM. */
struct fa_pcapng *fa_pcapng_new(FILE *f);
void fa_pcapng_free(struct fa_pcapng *r);

/*
 * The next record: 1 with *rec; 0 at the end of the file, which fell
 * between two blocks; FA_ERR_INPUT with *why (the byte offset in it) for
 * a file that breaks the format or ends inside a block, FA_ERR_IO with
 * *why for a read error, FA_ERR_NOMEM.  The first block must be an SHB:
 * if it is not, FA_ERR_INPUT before any record.  After an error the
 * reader must not be asked again.
 */
int fa_pcapng_next(struct fa_pcapng *r, struct fa_pcapng_rec *rec,
    char **why);

/* Bytes consumed so far: the offset of the next block. */
uint64_t fa_pcapng_offset(const struct fa_pcapng *r);
#endif
