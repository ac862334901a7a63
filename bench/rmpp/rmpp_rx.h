/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rmpp_rx: the receiving side of one RMPP transfer (IBA vol. 1 13.6.5),
 * as a pure state machine: the caller feeds it the MADs that carry its
 * TID and sends the control MADs (ACK, STOP, ABORT) it hands back; no
 * I/O, no clock (the caller reports inactivity with rmpp_rx_timeout()).
 * The prototype of what fabric/ib_mad.c would run per RMPP request.
 *
 * The result is laid out as the kernel's reassembly (and so as a
 * single-MAD answer): the first segment's 56-byte header (common, RMPP,
 * SA), then the data of every segment, 200 bytes each, the last one cut to
 * its PayloadLength.  So (len - 56) / AttributeOffset records.
 *
 * Bounds, all enforced on what actually arrives, never on what a header
 * promises: max_len bytes of result (STOP, status 1 "resources exhausted",
 * when the first segment announces more or the data grows past it), the
 * window (segments beyond the granted NewWindowLast are dropped), a stash
 * of at most `window` out-of-order segments, and at most max_retries
 * inactivity timeouts in a row (then ABORT, status 118 "total time too
 * long").
 */
#ifndef BENCH_RMPP_RX_H
#define BENCH_RMPP_RX_H

#include <stddef.h>
#include <stdint.h>

#define RMPP_MAD	256
#define RMPP_WINDOW_MAX	256

/* RMPP status codes (IBA vol. 1 13.6.2.1, table "RMPP Status"). */
#define RMPP_ST_RESX	1	/* STOP: resources exhausted */
#define RMPP_ST_T2L	118	/* total time too long */
#define RMPP_ST_BADLEN	119	/* inconsistent Last and PayloadLength */
#define RMPP_ST_BADSEG	120	/* inconsistent First and SegmentNumber */
#define RMPP_ST_BADT	121	/* illegal RMPPType */
#define RMPP_ST_BADST	124	/* illegal RMPPStatus */
#define RMPP_ST_UNV	125	/* unsupported RMPPVersion */

/* rmpp_rx_feed() / rmpp_rx_timeout() result bits. */
#define RMPP_RX_SEND	0x1	/* ctl[] holds a MAD to send to the sender */
#define RMPP_RX_DONE	0x2	/* complete: buf/len hold the answer */
#define RMPP_RX_FAILED	0x4	/* given up: why says why */
#define RMPP_RX_DROPPED	0x8	/* the MAD was not used (counted) */

enum rmpp_rx_state {
	RMPP_RX_WAITING = 0,	/* nothing yet */
	RMPP_RX_ACTIVE,		/* segments coming */
	RMPP_RX_COMPLETE,
	RMPP_RX_ABORTED,
};

struct rmpp_rx_opts {
	size_t		max_len;	/* result bound, header included */
	uint32_t	window;		/* segments granted per ACK, 1..256 */
	unsigned	max_retries;	/* inactivity timeouts before ABORT */
};

struct rmpp_rx {
	struct rmpp_rx_opts o;
	/* What the answer must match (from the request). */
	uint8_t		 mgmt_class, method;	/* method with the R bit */
	uint16_t	 attr;
	uint64_t	 tid;
	enum rmpp_rx_state state;
	int		 unsegmented;	/* answered without RMPP */
	int		 maybe_cut;	/* unsegmented and its data area full */
	uint16_t	 status;	/* MAD status of the answer */
	uint32_t	 es;		/* next segment expected */
	uint32_t	 wl;		/* NewWindowLast granted */
	uint32_t	 last;		/* segment that had Last, or 0 */
	uint32_t	 announced;	/* segments the first one announced */
	unsigned	 retries;	/* timeouts since the last progress */
	int		 nudged;	/* re-ACKed since the last progress */
	uint8_t		 hdr[56];	/* header echoed in control MADs */
	uint8_t		*buf;
	size_t		 len, cap;
	/* Out-of-order segments inside the window, by seg - es - 1. */
	uint8_t		 have[RMPP_WINDOW_MAX];
	uint8_t		 (*stash)[RMPP_MAD];
	const char	*why;		/* why it failed, or NULL */
	/* Counters, for the capture and the observation. */
	unsigned long	 segs, dups, ooo, beyond, foreign, acks;
};

/*
 * Start waiting for the answer to `req` (the 256-byte request MAD that
 * was sent, TID included).  0, or -1 (no memory / bad options).
 */
int	 rmpp_rx_init(struct rmpp_rx *rx, const struct rmpp_rx_opts *o,
	    const uint8_t *req);
/* One received MAD of `len` bytes carrying the request's TID. */
unsigned rmpp_rx_feed(struct rmpp_rx *rx, const uint8_t *mad, size_t len,
	    uint8_t ctl[RMPP_MAD]);
/* Nothing arrived for the caller's timeout. */
unsigned rmpp_rx_timeout(struct rmpp_rx *rx, uint8_t ctl[RMPP_MAD]);
void	 rmpp_rx_free(struct rmpp_rx *rx);

#endif
