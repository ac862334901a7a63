/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rmpp_rx: receiver of one RMPP transfer (see rmpp_rx.h).  Written from
 * IBA vol. 1 13.6 (RMPP) and 15.2.1.1 (SA header); segment layout as the
 * sender in a Linux kernel produces it (each segment repeats the 56-byte
 * header, 200 bytes of SA data follow).
 */
#include <stdlib.h>
#include <string.h>

#include "rmpp_rx.h"

#define HDR		56
#define SEG_DATA	200
#define RMPP_PAY	220	/* a segment's bytes after the RMPP header */
#define F_ACTIVE	0x01
#define F_FIRST		0x02
#define F_LAST		0x04
#define T_DATA		1
#define T_ACK		2
#define T_STOP		3
#define T_ABORT		4

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int
rmpp_rx_init(struct rmpp_rx *rx, const struct rmpp_rx_opts *o,
    const uint8_t *req)
{
	memset(rx, 0, sizeof(*rx));
	if (o->window == 0 || o->window > RMPP_WINDOW_MAX ||
	    o->max_len < HDR)
		return -1;
	rx->o = *o;
	rx->mgmt_class = req[1];
	rx->method = (uint8_t)(req[3] | 0x80);
	rx->attr = (uint16_t)(req[16] << 8 | req[17]);
	rx->tid = (uint64_t)get32(req + 8) << 32 | get32(req + 12);
	rx->es = 1;
	rx->wl = 1;	/* the sender starts with a window of one */
	rx->stash = calloc(o->window, RMPP_MAD);
	return rx->stash == NULL ? -1 : 0;
}

void
rmpp_rx_free(struct rmpp_rx *rx)
{
	free(rx->buf);
	free(rx->stash);
	rx->buf = NULL;
	rx->stash = NULL;
}

/* A control MAD about the transfer: the data's header, R bit cleared. */
static unsigned
ctl_mad(struct rmpp_rx *rx, uint8_t ctl[RMPP_MAD], unsigned type,
    unsigned status, uint32_t seg, uint32_t nwl)
{
	memset(ctl, 0, RMPP_MAD);
	memcpy(ctl, rx->hdr, HDR);
	ctl[3] = (uint8_t)(ctl[3] & ~0x80);
	ctl[4] = ctl[5] = 0;		/* MAD status */
	ctl[24] = 1;
	ctl[25] = (uint8_t)type;
	ctl[26] = (uint8_t)((ctl[26] & 0xf8) | F_ACTIVE);
	ctl[27] = (uint8_t)status;
	put32(ctl + 28, seg);
	put32(ctl + 32, nwl);
	if (type == T_ACK)
		rx->acks++;
	return RMPP_RX_SEND;
}

static unsigned
fail(struct rmpp_rx *rx, uint8_t ctl[RMPP_MAD], unsigned type,
    unsigned status, const char *why)
{
	unsigned r = RMPP_RX_FAILED;

	rx->state = RMPP_RX_ABORTED;
	rx->why = why;
	/* Without a header (nothing valid arrived) there is no one to tell. */
	if (type != 0 && rx->hdr[1] != 0)
		r |= ctl_mad(rx, ctl, type, status, 0, 0);
	return r;
}

/* Append one in-order segment's data; 0, or -1 over max_len. */
static int
append(struct rmpp_rx *rx, const uint8_t *seg, size_t n)
{
	size_t need = rx->len + n, cap;
	uint8_t *nb;

	if (need > rx->o.max_len)
		return -1;
	if (need > rx->cap) {
		cap = rx->cap == 0 ? 4096 : rx->cap;
		while (cap < need)
			cap *= 2;
		if (cap > rx->o.max_len)
			cap = rx->o.max_len;
		if ((nb = realloc(rx->buf, cap)) == NULL)
			return -1;
		rx->buf = nb;
		rx->cap = cap;
	}
	memcpy(rx->buf + rx->len, seg, n);
	rx->len = need;
	return 0;
}

/*
 * Take segment `mad` (number rx->es, checks done).  Returns 0, or a
 * feed result when the transfer ended.
 */
static unsigned
take(struct rmpp_rx *rx, const uint8_t *mad, uint8_t ctl[RMPP_MAD])
{
	uint32_t seg = rx->es, pl = get32(mad + 32);
	unsigned fl = mad[26] & 0x07;
	size_t n = SEG_DATA;

	if (seg == 1) {
		/* First: total of every segment's 220 bytes less the pad. */
		memcpy(rx->hdr, mad, HDR);
		rx->status = (uint16_t)(mad[4] << 8 | mad[5]);
		if (pl != 0) {
			rx->announced = (pl + RMPP_PAY - 1) / RMPP_PAY;
			if ((size_t)pl - (size_t)rx->announced * 20 + HDR >
			    rx->o.max_len)
				return fail(rx, ctl, T_STOP, RMPP_ST_RESX,
				    "the answer announced is larger than "
				    "the bound");
		}
		if (append(rx, mad, HDR) != 0)
			return fail(rx, ctl, T_STOP, RMPP_ST_RESX,
			    "no memory for the answer");
	}
	if (fl & F_LAST) {
		/* Last: its own bytes after the RMPP header, 20..220. */
		if (pl < 20 || pl > RMPP_PAY)
			return fail(rx, ctl, T_ABORT, RMPP_ST_BADLEN,
			    "the last segment's PayloadLength is out of "
			    "range");
		if (rx->announced != 0 && rx->announced != seg)
			return fail(rx, ctl, T_ABORT, RMPP_ST_BADLEN,
			    "the last segment is not the one the first "
			    "announced");
		n = pl - 20;
	} else if (rx->announced != 0 && seg >= rx->announced)
		return fail(rx, ctl, T_ABORT, RMPP_ST_BADLEN,
		    "more segments than the first one announced");
	if (append(rx, mad + HDR, n) != 0)
		return fail(rx, ctl, T_STOP, RMPP_ST_RESX,
		    "the answer grew past the bound");
	rx->segs++;
	rx->es++;
	rx->retries = 0;
	rx->nudged = 0;
	if (fl & F_LAST) {
		rx->last = seg;
		rx->state = RMPP_RX_COMPLETE;
		/* The final ACK: without it the sender resends (13.6.3). */
		return RMPP_RX_DONE | ctl_mad(rx, ctl, T_ACK, 0, seg,
		    rx->wl > seg ? rx->wl : seg);
	}
	return 0;
}

/* Stash slot of an out-of-order segment, or NULL when outside. */
static uint8_t *
slot(struct rmpp_rx *rx, uint32_t seg, uint8_t **have)
{
	uint32_t i = seg - rx->es - 1;

	if (seg <= rx->es || i >= rx->o.window)
		return NULL;
	*have = &rx->have[i];
	return rx->stash[i];
}

/* After es moved by one: shift the stash down by one. */
static void
shift(struct rmpp_rx *rx)
{
	uint32_t w = rx->o.window;

	memmove(rx->have, rx->have + 1, w - 1);
	rx->have[w - 1] = 0;
	memmove(rx->stash, rx->stash + 1, (size_t)(w - 1) * RMPP_MAD);
}

static unsigned
data(struct rmpp_rx *rx, const uint8_t *mad, uint8_t ctl[RMPP_MAD])
{
	uint32_t seg = get32(mad + 28);
	unsigned fl = mad[26] & 0x07, r;
	uint8_t *s, *h;

	if (mad[27] != 0)
		return fail(rx, ctl, T_ABORT, RMPP_ST_BADST,
		    "a DATA segment with a non-zero RMPPStatus");
	if ((seg == 1) != ((fl & F_FIRST) != 0))
		return fail(rx, ctl, T_ABORT, RMPP_ST_BADSEG,
		    "First flag and SegmentNumber disagree");
	if (rx->state == RMPP_RX_COMPLETE) {
		if (seg > rx->last) {
			rx->beyond++;
			return RMPP_RX_DROPPED;
		}
		/* Our final ACK was lost: say it again (one control MAD
		 * per MAD received, never more: no amplification). */
		rx->dups++;
		return RMPP_RX_DROPPED | ctl_mad(rx, ctl, T_ACK, 0, rx->last,
		    rx->wl > rx->last ? rx->wl : rx->last);
	}
	if (seg < rx->es) {
		/* A resend of what we have: one ACK per progress, so a
		 * resent window does not cost a window of ACKs. */
		rx->dups++;
		if (rx->nudged || rx->es == 1)
			return RMPP_RX_DROPPED;
		rx->nudged = 1;
		return RMPP_RX_DROPPED | ctl_mad(rx, ctl, T_ACK, 0,
		    rx->es - 1, rx->wl);
	}
	if (seg > rx->wl || (rx->last != 0 && seg > rx->last)) {
		rx->beyond++;		/* outside the window we granted */
		return RMPP_RX_DROPPED;
	}
	if (seg > rx->es) {
		/* Out of order inside the window: keep it for later. */
		if ((s = slot(rx, seg, &h)) == NULL || rx->es == 1) {
			rx->beyond++;
			return RMPP_RX_DROPPED;
		}
		if (*h)
			rx->dups++;
		else
			rx->ooo++;
		memcpy(s, mad, RMPP_MAD);
		*h = 1;
		return 0;
	}
	rx->state = RMPP_RX_ACTIVE;
	if ((r = take(rx, mad, ctl)) != 0)
		return r;
	/* es moved by one: shift the stash; take what it now continues. */
	for (;;) {
		uint8_t tmp[RMPP_MAD];
		int next = rx->have[0];

		if (next)
			memcpy(tmp, rx->stash[0], RMPP_MAD);
		shift(rx);
		if (!next)
			break;
		if ((r = take(rx, tmp, ctl)) != 0)
			return r;
	}
	if (rx->es - 1 == rx->wl) {
		/* Window used up: grant the next one. */
		rx->wl = rx->es - 1 + rx->o.window;
		return ctl_mad(rx, ctl, T_ACK, 0, rx->es - 1, rx->wl);
	}
	return 0;
}

/*
 * An answer without RMPP that may have been cut: a GetTableResp of a
 * whole MAD whose data area holds as many records as fit, the last of
 * them not padding.  (umad2sim delivers OpenSM's answer up to 256 bytes,
 * so a shorter one is known to be whole.)
 */
static int
full(const uint8_t *mad, size_t len)
{
	unsigned off = (unsigned)(mad[44] << 8 | mad[45]) * 8, k, i;
	const uint8_t *last;

	if (len < RMPP_MAD || mad[3] != 0x92 || off == 0 || off > SEG_DATA)
		return 0;
	k = SEG_DATA / off;
	last = mad + HDR + (size_t)(k - 1) * off;
	for (i = 0; i < off; i++)
		if (last[i] != 0)
			return 1;
	return 0;
}

unsigned
rmpp_rx_feed(struct rmpp_rx *rx, const uint8_t *mad, size_t len,
    uint8_t ctl[RMPP_MAD])
{
	unsigned fl;

	if (rx->state == RMPP_RX_ABORTED)
		return RMPP_RX_DROPPED;
	/* Not the answer to our request: another class, method, attribute
	 * or TID (low 32 bits: the stack owns the high ones). */
	if (len < 36 || mad[1] != rx->mgmt_class || mad[3] != rx->method ||
	    (uint16_t)(mad[16] << 8 | mad[17]) != rx->attr ||
	    get32(mad + 12) != (uint32_t)rx->tid) {
		rx->foreign++;
		return RMPP_RX_DROPPED;
	}
	fl = mad[26] & 0x07;
	/* The header control MADs echo, until segment 1 brings its own. */
	if (rx->state == RMPP_RX_WAITING)
		memcpy(rx->hdr, mad, len < HDR ? len : HDR);
	/*
	 * No RMPP: RMPPFlags.Active clear, or set with RMPPVersion 0, which
	 * no RMPP sender produces (IBA 13.6.2.1) but OpenSM's header shows
	 * when no kernel segmented it (umad2sim): one MAD, complete, and
	 * perhaps cut if its data area is full.
	 */
	if (!(fl & F_ACTIVE) || mad[24] == 0) {
		if (rx->state != RMPP_RX_WAITING) {
			rx->foreign++;
			return RMPP_RX_DROPPED;
		}
		memcpy(rx->hdr, mad, len < HDR ? len : HDR);
		if (append(rx, mad, len > RMPP_MAD ? RMPP_MAD : len) != 0)
			return fail(rx, ctl, 0, 0, "no memory");
		rx->unsegmented = 1;
		rx->status = (uint16_t)(mad[4] << 8 | mad[5]);
		rx->maybe_cut = full(mad, len);
		rx->state = RMPP_RX_COMPLETE;
		return RMPP_RX_DONE;
	}
	if (mad[24] != 1)
		return fail(rx, ctl, T_ABORT, RMPP_ST_UNV,
		    "unsupported RMPPVersion");
	switch (mad[25]) {
	case T_DATA:
		return data(rx, mad, ctl);
	case T_STOP:
	case T_ABORT:
		rx->state = RMPP_RX_ABORTED;
		rx->why = mad[25] == T_STOP ? "the sender sent STOP" :
		    "the sender sent ABORT";
		return RMPP_RX_FAILED;
	case T_ACK:
		/* We send nothing segmented: an ACK is noise. */
		rx->foreign++;
		return RMPP_RX_DROPPED;
	default:
		return fail(rx, ctl, T_ABORT, RMPP_ST_BADT,
		    "illegal RMPPType");
	}
}

unsigned
rmpp_rx_timeout(struct rmpp_rx *rx, uint8_t ctl[RMPP_MAD])
{
	if (rx->state != RMPP_RX_ACTIVE)
		return 0;
	if (++rx->retries > rx->o.max_retries)
		return fail(rx, ctl, T_ABORT, RMPP_ST_T2L,
		    "no segment for too long");
	/* Say again where we are: recovers a lost ACK at once; a lost
	 * segment is resent when the sender's own timer fires. */
	return ctl_mad(rx, ctl, T_ACK, 0, rx->es - 1, rx->wl);
}
