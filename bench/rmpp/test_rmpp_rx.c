/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_rmpp_rx: the RMPP receiver (rmpp_rx.c) against well-formed,
 * lossy and hostile segment streams, without a fabric.  Each case builds
 * the segments a sender would produce (IBA vol. 1 13.6.2) for a known
 * payload, perturbs them, feeds them, and checks the result byte for byte
 * and the control MADs the receiver asked to send.
 *
 *   test_rmpp_rx        prints PASS:/FAIL: lines, exit 1 on any FAIL
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmpp_rx.h"
#include "sa.h"

static int fails, passes;

#define CHECK(cond, name) do {						\
	if (cond) {							\
		passes++;						\
		printf("PASS: %s\n", name);				\
	} else {							\
		fails++;						\
		printf("FAIL: %s (%s:%d)\n", name, __FILE__, __LINE__);	\
	}								\
} while (0)

#define TID	0x0001000012345678ull

static uint8_t	req[SA_MAD_SIZE];
static uint8_t	payload[64 * 1024];	/* the records, as sent */
static size_t	paylen_;		/* bytes of records */
static uint8_t	segs[400][SA_MAD_SIZE];
static uint32_t	nsegs;

/* A PathRecord GetTable answer of `nrec` records, cut into segments. */
static void
make(unsigned nrec)
{
	uint32_t k, pad;
	size_t i;

	sa_build(req, M_GETTABLE, ATTR_PATH_REC, TID, 1u << 5, NULL, 0);
	paylen_ = (size_t)nrec * 64;
	for (i = 0; i < paylen_; i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	nsegs = paylen_ == 0 ? 1 : (uint32_t)((paylen_ + 199) / 200);
	pad = (uint32_t)(nsegs * 200 - paylen_);
	for (k = 1; k <= nsegs; k++) {
		uint8_t *m = segs[k];
		size_t off = (size_t)(k - 1) * 200, n;

		sa_build(m, M_GETTABLE | M_RESP, ATTR_PATH_REC, TID, 1u << 5,
		    NULL, 0);
		put_be16(m + 44, 8);		/* AttributeOffset: 64 B */
		m[24] = 1;
		m[25] = RMPP_T_DATA;
		m[26] = RMPP_F_ACTIVE | (k == 1 ? RMPP_F_FIRST : 0) |
		    (k == nsegs ? RMPP_F_LAST : 0);
		put_be32(m + 28, k);
		put_be32(m + 32, k == 1 ? nsegs * 220 - pad :
		    k == nsegs ? 220 - pad : 0);
		if (k == nsegs)
			put_be32(m + 32, 220 - pad);
		n = paylen_ - off < 200 ? paylen_ - off : 200;
		if (off < paylen_)
			memcpy(m + SA_HDR_SIZE, payload + off, n);
	}
}

static struct rmpp_rx rx;
static uint8_t ctl[RMPP_MAD];
static unsigned acks_seen, last_ack_seg, last_nwl, last_ctl_type,
		last_ctl_status;

static void
start(uint32_t window, size_t max_len)
{
	struct rmpp_rx_opts o = { max_len, window, 3 };

	rmpp_rx_free(&rx);
	if (rmpp_rx_init(&rx, &o, req) != 0) {
		fprintf(stderr, "init failed\n");
		exit(1);
	}
	acks_seen = last_ack_seg = last_nwl = last_ctl_type = 0;
	last_ctl_status = 0;
}

static unsigned
note(unsigned r)
{
	if (r & RMPP_RX_SEND) {
		last_ctl_type = ctl[25];
		last_ctl_status = ctl[27];
		if (ctl[25] == RMPP_T_ACK) {
			acks_seen++;
			last_ack_seg = be32_at(ctl + 28);
			last_nwl = be32_at(ctl + 32);
		}
	}
	return r;
}

static unsigned
feed(uint32_t k)
{
	return note(rmpp_rx_feed(&rx, segs[k], SA_MAD_SIZE, ctl));
}

/* Feed like a window-respecting sender: up to the granted window. */
static unsigned
run_sender(const uint32_t *drop, unsigned ndrop)
{
	uint32_t sent = 0, k;
	unsigned r = 0, i, guard = 0;
	int dropped_once[8] = { 0 };

	while (!(r & (RMPP_RX_DONE | RMPP_RX_FAILED)) && guard++ < 10000) {
		uint32_t lim = last_nwl > 0 ? last_nwl : 1;

		if (lim > nsegs)
			lim = nsegs;
		if (sent >= lim) {
			/* Sender timer: go back to the last ACK. */
			r = note(rmpp_rx_timeout(&rx, ctl));
			sent = last_ack_seg;
			continue;
		}
		for (k = sent + 1; k <= lim; k++) {
			int skip = 0;

			for (i = 0; i < ndrop && i < 8; i++)
				if (drop[i] == k && !dropped_once[i]) {
					dropped_once[i] = 1;
					skip = 1;
				}
			if (!skip)
				r |= feed(k);
			if (r & (RMPP_RX_DONE | RMPP_RX_FAILED))
				break;
		}
		sent = lim;
	}
	return r;
}

static int
result_ok(void)
{
	return rx.state == RMPP_RX_COMPLETE &&
	    rx.len == SA_HDR_SIZE + paylen_ &&
	    memcmp(rx.buf + SA_HDR_SIZE, payload, paylen_) == 0 &&
	    rx.buf[3] == (M_GETTABLE | M_RESP);
}

int
main(void)
{
	uint8_t m[SA_MAD_SIZE];
	unsigned r;
	uint32_t drop[2];

	/* 1. Plain answer, no RMPP (Active clear), short: whole. */
	make(2);
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	m[24] = m[25] = m[26] = 0;
	r = note(rmpp_rx_feed(&rx, m, SA_HDR_SIZE + 128, ctl));
	CHECK(r == RMPP_RX_DONE && rx.unsegmented && !rx.maybe_cut &&
	    rx.len == SA_HDR_SIZE + 128, "no RMPP, short: complete, not cut");

	/* 2. umad2sim: Active, RMPPVersion 0, first 256 bytes only. */
	make(30);
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	m[24] = 0;
	m[25] = 0;
	m[26] = RMPP_F_ACTIVE;
	put_be32(m + 28, 0);
	put_be32(m + 32, 0);
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK(r == RMPP_RX_DONE && rx.unsegmented && rx.maybe_cut &&
	    acks_seen == 0, "umad2sim cut answer: complete, maybe cut, no ACK");

	/* 3. In order, window 4: ACKs at 1, 5, 9 and the final one. */
	make(45);		/* 2880 bytes: 15 segments */
	start(4, 65536);
	r = run_sender(NULL, 0);
	CHECK(nsegs == 15 && (r & RMPP_RX_DONE) && result_ok(),
	    "15 segments in order: reassembled byte for byte");
	CHECK(acks_seen == 5 && last_ack_seg == 15,
	    "15 segments, window 4: ACKs after 1, 5, 9, 13 and 15");

	/* 4. Single segment with First|Last, 0 records. */
	make(0);
	start(4, 65536);
	r = feed(1);
	CHECK((r & RMPP_RX_DONE) && (r & RMPP_RX_SEND) && rx.len ==
	    SA_HDR_SIZE && last_ack_seg == 1, "empty table: one segment, final "
	    "ACK sent");

	/* 5. Duplicates: every segment twice. */
	make(20);		/* 7 segments */
	start(8, 65536);
	r = feed(1);
	r = feed(1);
	CHECK(rx.dups == 1 && acks_seen == 2,
	    "duplicate of segment 1: one re-ACK");
	r = 0;
	for (uint32_t k = 2; k <= nsegs; k++) {
		r |= feed(k);
		if (k < nsegs)
			r |= feed(k);
	}
	CHECK((r & RMPP_RX_DONE) && result_ok() && rx.dups == 6,
	    "every segment twice: reassembled, duplicates counted");
	r = feed(nsegs);
	CHECK((r & RMPP_RX_SEND) && last_ack_seg == nsegs &&
	    (r & RMPP_RX_DROPPED), "duplicate last after completion: "
	    "final ACK again");

	/* 6. Reordering inside the window (3 after 4): stash, no resend. */
	make(20);
	start(8, 65536);
	r = feed(1) | feed(2) | feed(4) | feed(3);
	r |= feed(5) | feed(6) | feed(7);
	CHECK((r & RMPP_RX_DONE) && result_ok() && rx.ooo == 1,
	    "segment 4 before 3: reassembled from the stash");

	/* 7. Loss of segment 3: the sender's go-back after a timeout. */
	make(45);
	start(4, 65536);
	drop[0] = 3;
	r = run_sender(drop, 1);
	CHECK((r & RMPP_RX_DONE) && result_ok(),
	    "segment 3 lost once: recovered by go-back");

	/* 8. Beyond the granted window. */
	make(45);
	start(4, 65536);
	r = feed(1);		/* window now 5 */
	r = feed(7);
	CHECK((r & RMPP_RX_DROPPED) && rx.beyond == 1 && rx.es == 2,
	    "segment beyond NewWindowLast dropped");
	memcpy(m, segs[2], SA_MAD_SIZE);
	put_be32(m + 28, 0xffffffffu);
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_DROPPED) && rx.state == RMPP_RX_ACTIVE,
	    "SegmentNumber 0xffffffff dropped");

	/* 9. Foreign MADs: another TID, method, attribute, class, short. */
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[15] ^= 1;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[3] = 0x81;
	r |= note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[17] = 0x11;
	r |= note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[1] = 0x04;
	r |= note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	r |= note(rmpp_rx_feed(&rx, segs[2], 20, ctl));
	CHECK(r == RMPP_RX_DROPPED && rx.foreign == 5 && rx.es == 2,
	    "wrong TID, method, attribute, class, short MAD: ignored");
	/* The high 32 TID bits belong to the stack: not compared. */
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[8] ^= 0x40;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK(!(r & RMPP_RX_DROPPED) && rx.es == 3,
	    "TID high bits rewritten by the stack: still ours");

	/* 10. Header violations abort with the IBA status. */
	make(45);
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	m[26] &= (uint8_t)~RMPP_F_FIRST;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_type == RMPP_T_ABORT &&
	    last_ctl_status == RMPP_ST_BADSEG, "segment 1 without First: "
	    "ABORT 120");
	start(4, 65536);
	feed(1);
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[26] |= RMPP_F_FIRST;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_BADSEG,
	    "First on segment 2: ABORT 120");
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	m[24] = 2;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_UNV,
	    "RMPPVersion 2: ABORT 125");
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	m[25] = 9;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_BADT,
	    "RMPPType 9: ABORT 121");
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	m[27] = 5;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_BADST,
	    "DATA with RMPPStatus 5: ABORT 124");
	r = feed(1);
	CHECK(r == RMPP_RX_DROPPED, "after an abort everything is ignored");

	/* 11. Size bounds. */
	make(45);
	start(4, 1024);
	r = feed(1);
	CHECK((r & RMPP_RX_FAILED) && last_ctl_type == RMPP_T_STOP &&
	    last_ctl_status == RMPP_ST_RESX && rx.len == 0,
	    "announced 2936 bytes over a 1024 bound: STOP 1 at once");
	start(4, 1024);
	memcpy(m, segs[1], SA_MAD_SIZE);
	put_be32(m + 32, 0);		/* announce nothing */
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	for (uint32_t k = 2; k <= nsegs && !(r & RMPP_RX_FAILED); k++)
		r |= feed(k);
	CHECK((r & RMPP_RX_FAILED) && last_ctl_type == RMPP_T_STOP &&
	    rx.len <= 1024, "unannounced growth past the bound: STOP, "
	    "never more than the bound kept");
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	put_be32(m + 32, 2 * 220);	/* lies: 2 segments */
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	r |= feed(2) | feed(3);
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_BADLEN,
	    "more segments than announced: ABORT 119");
	start(4, 65536);
	feed(1);
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[26] |= RMPP_F_LAST;
	put_be32(m + 32, 300);
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_BADLEN,
	    "last PayloadLength 300: ABORT 119");

	/* 12. Inactivity: re-ACK, then ABORT 118 after max_retries. */
	make(45);
	start(4, 65536);
	feed(1);
	r = note(rmpp_rx_timeout(&rx, ctl)) | note(rmpp_rx_timeout(&rx, ctl)) |
	    note(rmpp_rx_timeout(&rx, ctl));
	CHECK(!(r & RMPP_RX_FAILED) && last_ack_seg == 1 && acks_seen == 4,
	    "three timeouts: three re-ACKs of segment 1");
	r = note(rmpp_rx_timeout(&rx, ctl));
	CHECK((r & RMPP_RX_FAILED) && last_ctl_status == RMPP_ST_T2L,
	    "fourth timeout: ABORT 118");
	start(4, 65536);
	r = note(rmpp_rx_timeout(&rx, ctl));
	CHECK(r == 0, "timeout before any segment: the request's business");

	/* 13. The sender gives up. */
	start(4, 65536);
	feed(1);
	memcpy(m, segs[2], SA_MAD_SIZE);
	m[25] = RMPP_T_ABORT;
	m[27] = RMPP_ST_T2L;
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK(r == RMPP_RX_FAILED && rx.state == RMPP_RX_ABORTED,
	    "ABORT from the sender: failed, nothing sent back");

	/* 14. Error status in a single answer. */
	make(0);
	start(4, 65536);
	memcpy(m, segs[1], SA_MAD_SIZE);
	put_be16(m + 4, 0x0200);
	r = note(rmpp_rx_feed(&rx, m, SA_MAD_SIZE, ctl));
	CHECK((r & RMPP_RX_DONE) && rx.status == 0x0200 && (r & RMPP_RX_SEND),
	    "status 0x0200 in an RMPP answer: done, status kept, ACKed");

	rmpp_rx_free(&rx);
	printf("%d passed, %d failed\n", passes, fails);
	return fails != 0;
}
