/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A bounded pcapng block reader (see eth_pcapng.h).  Section numbers are
 * those of draft-ietf-opsawg-pcapng: 3.1 the general block structure, 3.4
 * the physical file layout, 3.5 options, 4.1 the Section Header Block, 4.2
 * the Interface Description Block, 4.3 the Enhanced Packet Block (4.3.1
 * its flags word), 4.4 the Simple Packet Block, 4.6 the Interface
 * Statistics Block, appendix A the obsolete Packet Block.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_pcapng.h"

#define BT_SHB		0x0A0D0D0Au
#define BT_IDB		1u
#define BT_PB		2u
#define BT_SPB		3u
#define BT_ISB		5u
#define BT_EPB		6u
#define BOM		0x1A2B3C4Du

/* The least total length of each block type (the fixed fields of 4.x,
 * with the 12 bytes of type and both lengths). */
#define MIN_BLOCK	12u
#define MIN_SHB		28u
#define MIN_IDB		20u
#define MIN_PB		32u
#define MIN_SPB		16u
#define MIN_ISB		24u
#define MIN_EPB		32u

struct fa_pcapng {
	FILE		*f;
	uint8_t		*buf;		/* the current block, whole */
	size_t		 cap;
	uint64_t	 off;		/* of the next block */
	int		 be;		/* the section is big-endian */
	int		 sections;	/* SHBs read */
	int		 skipping;	/* a section of an unknown version */
	uint32_t	 nidb;		/* IDBs in the current section */
	uint64_t	 base;		/* number of its first interface */
	uint32_t	 snap0;		/* its interface 0's SnapLen (SPB) */
};

struct fa_pcapng *
fa_pcapng_new(FILE *f)
{
	struct fa_pcapng *r = calloc(1, sizeof(*r));

	if (r != NULL)
		r->f = f;
	return r;
}

void
fa_pcapng_free(struct fa_pcapng *r)
{
	if (r == NULL)
		return;
	free(r->buf);
	free(r);
}

uint64_t
fa_pcapng_offset(const struct fa_pcapng *r)
{
	return r->off;
}

static uint16_t
rd16(const struct fa_pcapng *r, const uint8_t *p)
{
	return r->be ? (uint16_t)(p[0] << 8 | p[1]) :
	    (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t
rd32(const struct fa_pcapng *r, const uint8_t *p)
{
	return r->be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t
rd64(const struct fa_pcapng *r, const uint8_t *p)
{
	/* A 64-bit integer in the section's byte order (3.6), unaligned. */
	return r->be ? (uint64_t)rd32(r, p) << 32 | rd32(r, p + 4) :
	    (uint64_t)rd32(r, p + 4) << 32 | rd32(r, p);
}

/* Read n bytes: how many were read (fewer at the end or on error). */
static size_t
readn(struct fa_pcapng *r, uint8_t *p, size_t n)
{
	return fread(p, 1, n, r->f);
}

static int
short_read(struct fa_pcapng *r, uint64_t at, const char *what, char **why)
{
	if (ferror(r->f)) {
		(void)fa_why(why, "read error in the block at byte %llu: %s",
		    (unsigned long long)at, strerror(errno != 0 ? errno : EIO));
		return FA_ERR_IO;
	}
	return fa_why(why, "file ends inside the %s at byte %llu", what,
	    (unsigned long long)at);
}

/*
 * Options (3.5): TLVs of a 16-bit code and a 16-bit length, the value
 * padded to 32 bits, ended by opt_endofopt (0) or the end of the block.
 * *it walks p[0..*left); 1 with the option, 0 at the end, FA_ERR_INPUT
 * for an option that runs past its block.
 */
struct opt_it {
	const uint8_t	*p;
	size_t		 left;
	uint64_t	 at;		/* the block's offset, for messages */
};

static int
opt_next(const struct fa_pcapng *r, struct opt_it *it, unsigned *code,
    const uint8_t **v, size_t *vlen, char **why)
{
	size_t padded;

	if (it->left == 0)
		return 0;
	if (it->left < 4)
		return fa_why(why, "the options of the block at byte %llu end "
		    "inside an option header", (unsigned long long)it->at);
	*code = rd16(r, it->p);
	*vlen = rd16(r, it->p + 2);
	if (*code == 0)
		return 0;	/* opt_endofopt */
	padded = (*vlen + 3) & ~(size_t)3;
	if (padded > it->left - 4)
		return fa_why(why, "option %u of the block at byte %llu claims "
		    "%zu bytes, past the end of its block", *code,
		    (unsigned long long)it->at, *vlen);
	*v = it->p + 4;
	it->p += 4 + padded;
	it->left -= 4 + padded;
	return 1;
}

/* Make room for a block of n bytes (n <= FA_PCAPNG_BLOCK_MAX). */
static int
room(struct fa_pcapng *r, size_t n)
{
	size_t c = r->cap > 0 ? r->cap : 65536;
	uint8_t *b;

	if (n <= r->cap)
		return 0;
	while (c < n)
		c *= 2;
	if (c > FA_PCAPNG_BLOCK_MAX)
		c = FA_PCAPNG_BLOCK_MAX;
	if ((b = realloc(r->buf, c)) == NULL)
		return FA_ERR_NOMEM;
	r->buf = b;
	r->cap = c;
	return 0;
}

static int
section(struct fa_pcapng *r, struct fa_pcapng_rec *rec)
{
	rec->type = FA_PCAPNG_SECTION;
	rec->major = rd16(r, r->buf + 12);
	rec->minor = rd16(r, r->buf + 14);
	rec->big_endian = r->be;
	/* 4.1: a minor version of 2 is read as 0; 3.4: a section of
	 * another version is skipped up to the next SHB. */
	rec->skipped = rec->major != 1 || (rec->minor != 0 &&
	    rec->minor != 2);
	r->skipping = rec->skipped;
	r->base += r->nidb;
	r->nidb = 0;
	r->snap0 = 0;
	r->sections++;
	return 1;
}

static int
iface(struct fa_pcapng *r, uint32_t len, struct fa_pcapng_rec *rec,
    char **why)
{
	struct opt_it it = { r->buf + 16, len - 20, rec->offset };
	const uint8_t *v;
	unsigned code;
	size_t vlen;
	int n;

	if (r->nidb == UINT32_MAX)
		return fa_why(why, "the Interface Description Block at byte "
		    "%llu is one too many for its section",
		    (unsigned long long)rec->offset);
	rec->type = FA_PCAPNG_IFACE;
	rec->linktype = rd16(r, r->buf + 8);
	rec->snaplen = rd32(r, r->buf + 12);
	rec->iface = r->base + r->nidb;
	while ((n = opt_next(r, &it, &code, &v, &vlen, why)) == 1)
		if (code == 2 && rec->name == NULL) {	/* if_name */
			rec->name = (const char *)v;
			rec->namelen = vlen;
		}
	if (n != 0)
		return n;
	if (r->nidb == 0)
		r->snap0 = rec->snaplen;
	r->nidb++;
	return 1;
}

/* The interface a packet or statistics block names, checked (4.3). */
static int
which(struct fa_pcapng *r, uint32_t id, struct fa_pcapng_rec *rec,
    const char *what, char **why)
{
	if (id >= r->nidb)
		return fa_why(why, "the %s at byte %llu names interface %lu, "
		    "but its section describes %lu", what,
		    (unsigned long long)rec->offset, (unsigned long)id,
		    (unsigned long)r->nidb);
	rec->iface = r->base + id;
	return 0;
}

/* Flags word (4.3.1, also pack_flags): bits 0-1 the direction. */
static void
flags(const struct fa_pcapng *r, const uint8_t *v, size_t vlen,
    struct fa_pcapng_rec *rec)
{
	uint32_t fl;

	if (vlen != 4)
		return;		/* a length the format forbids: ignored */
	fl = rd32(r, v) & 3;
	rec->dir = fl == 1 ? FA_PCAPNG_DIR_IN : fl == 2 ? FA_PCAPNG_DIR_OUT :
	    FA_PCAPNG_DIR_UNKNOWN;
}

/*
 * An EPB (4.3) or a PB (appendix A): the same 28-byte head but for the
 * interface and drops fields, the data padded to 32 bits, then options.
 */
static int
packet(struct fa_pcapng *r, uint32_t type, uint32_t len,
    struct fa_pcapng_rec *rec, char **why)
{
	const char *what = type == BT_EPB ? "Enhanced Packet Block" :
	    "Packet Block";
	struct opt_it it = { NULL, 0, rec->offset };
	const uint8_t *v;
	unsigned code;
	uint32_t id, room_for = len - MIN_EPB, pad;
	size_t vlen;
	int n;

	rec->type = FA_PCAPNG_PACKET;
	if (type == BT_EPB) {
		id = rd32(r, r->buf + 8);
	} else {
		id = rd16(r, r->buf + 8);
		if (rd16(r, r->buf + 10) != 0xffff) {	/* 0xffff: unknown */
			rec->has_drops = 1;
			rec->drops = rd16(r, r->buf + 10);
		}
	}
	if ((n = which(r, id, rec, what, why)) != 0)
		return n;
	rec->caplen = rd32(r, r->buf + 20);
	rec->len = rd32(r, r->buf + 24);
	if (rec->caplen > room_for)
		return fa_why(why, "the %s at byte %llu claims %lu captured "
		    "bytes, but holds at most %lu", what,
		    (unsigned long long)rec->offset,
		    (unsigned long)rec->caplen, (unsigned long)room_for);
	rec->data = r->buf + 28;
	/* len - 32 is a multiple of 4, so the padded data fits too. */
	pad = (rec->caplen + 3) & ~(uint32_t)3;
	it.p = r->buf + 28 + pad;
	it.left = room_for - pad;
	while ((n = opt_next(r, &it, &code, &v, &vlen, why)) == 1) {
		if (code == 2)				/* epb_flags */
			flags(r, v, vlen, rec);
		else if (code == 4 && type == BT_EPB && vlen == 8) {
			rec->has_drops = 1;		/* epb_dropcount */
			rec->drops = rd64(r, v);
		}
	}
	return n == 0 ? 1 : n;
}

/* An SPB (4.4): interface 0; captured min(original, SnapLen, block). */
static int
simple(struct fa_pcapng *r, uint32_t len, struct fa_pcapng_rec *rec,
    char **why)
{
	uint32_t room_for = len - MIN_SPB;

	rec->type = FA_PCAPNG_PACKET;
	if (r->nidb == 0)
		return fa_why(why, "the Simple Packet Block at byte %llu comes "
		    "before any Interface Description Block of its section",
		    (unsigned long long)rec->offset);
	rec->iface = r->base;
	rec->len = rd32(r, r->buf + 8);
	rec->caplen = rec->len < room_for ? rec->len : room_for;
	if (r->snap0 != 0 && rec->caplen > r->snap0)
		rec->caplen = r->snap0;
	rec->data = r->buf + 12;
	return 1;
}

/* An ISB (4.6): the interface's drop counters. */
static int
stats(struct fa_pcapng *r, uint32_t len, struct fa_pcapng_rec *rec,
    char **why)
{
	struct opt_it it = { r->buf + 20, len - MIN_ISB, rec->offset };
	const uint8_t *v;
	unsigned code;
	size_t vlen;
	int n;

	rec->type = FA_PCAPNG_STATS;
	if ((n = which(r, rd32(r, r->buf + 8), rec,
	    "Interface Statistics Block", why)) != 0)
		return n;
	while ((n = opt_next(r, &it, &code, &v, &vlen, why)) == 1) {
		if (code == 5 && vlen == 8) {		/* isb_ifdrop */
			rec->has_ifdrop = 1;
			rec->ifdrop = rd64(r, v);
		} else if (code == 7 && vlen == 8) {	/* isb_osdrop */
			rec->has_osdrop = 1;
			rec->osdrop = rd64(r, v);
		}
	}
	return n == 0 ? 1 : n;
}

int
fa_pcapng_next(struct fa_pcapng *r, struct fa_pcapng_rec *rec, char **why)
{
	uint8_t h[12];
	uint32_t type, len, min, tail;
	size_t got, head;
	int r2;

	for (;;) {
		memset(rec, 0, sizeof(*rec));
		rec->offset = r->off;
		/* 3.1: type and total length, then the body and the total
		 * length again. */
		if ((got = readn(r, h, 8)) == 0 && !ferror(r->f)) {
			if (r->sections == 0)
				return fa_why(why, "empty file: no Section "
				    "Header Block");
			return 0;
		}
		if (got < 8)
			return short_read(r, r->off, "block header", why);
		head = 8;
		if (rd32(r, h) == BT_SHB) {
			/* 4.1: the byte-order magic tells the section's
			 * byte order, the block type being a palindrome. */
			if ((got = readn(r, h + 8, 4)) < 4)
				return short_read(r, r->off,
				    "Section Header Block", why);
			head = 12;
			if (memcmp(h + 8, "\x1a\x2b\x3c\x4d", 4) == 0)
				r->be = 1;
			else if (memcmp(h + 8, "\x4d\x3c\x2b\x1a", 4) == 0)
				r->be = 0;
			else
				return fa_why(why, "the Section Header Block at "
				    "byte %llu has no byte-order magic "
				    "(0x1A2B3C4D)", (unsigned long long)r->off);
		} else if (r->sections == 0) {
			return fa_why(why, "not a pcapng file: its first "
			    "block (type 0x%08lx) is not a Section Header "
			    "Block", (unsigned long)rd32(r, h));
		}
		type = rd32(r, h);
		len = rd32(r, h + 4);
		/* The blocks of a section of another version are only
		 * skipped: their types may not mean what they mean here. */
		min = type == BT_SHB ? MIN_SHB : r->skipping ? MIN_BLOCK :
		    type == BT_IDB ? MIN_IDB :
		    type == BT_EPB ? MIN_EPB : type == BT_SPB ? MIN_SPB :
		    type == BT_PB ? MIN_PB : type == BT_ISB ? MIN_ISB :
		    MIN_BLOCK;
		if (len > FA_PCAPNG_BLOCK_MAX)
			return fa_why(why, "block at byte %llu claims %lu "
			    "bytes, more than the %u a block may hold here",
			    (unsigned long long)r->off, (unsigned long)len,
			    FA_PCAPNG_BLOCK_MAX);
		if (len % 4 != 0 || len < min)
			return fa_why(why, "block at byte %llu (type 0x%lx) "
			    "claims %lu bytes: %s", (unsigned long long)r->off,
			    (unsigned long)type, (unsigned long)len,
			    len % 4 != 0 ? "not a multiple of 4" :
			    "too short for its type");
		if ((r2 = room(r, len)) != 0)
			return r2;
		memcpy(r->buf, h, head);
		if ((got = readn(r, r->buf + head, len - head)) < len - head)
			return short_read(r, r->off, "block", why);
		tail = rd32(r, r->buf + len - 4);
		if (tail != len)
			return fa_why(why, "block at byte %llu claims %lu bytes "
			    "at its start and %lu at its end",
			    (unsigned long long)r->off, (unsigned long)len,
			    (unsigned long)tail);
		r->off += len;
		if (type == BT_SHB)
			return section(r, rec);
		if (r->skipping)
			continue;
		switch (type) {
		case BT_IDB:
			return iface(r, len, rec, why);
		case BT_EPB:
		case BT_PB:
			return packet(r, type, len, rec, why);
		case BT_SPB:
			return simple(r, len, rec, why);
		case BT_ISB:
			return stats(r, len, rec, why);
		default:
			continue;	/* NRB, DSB, custom...: not needed */
		}
	}
}
