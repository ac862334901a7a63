/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MAD engine: every MAD fabaudit sends after discovery (SMP, SA, CC,
 * vendor-specific, SHARP AM, baseboard management, PerfMgt) leaves through
 * here.  Built on libibumad, with libibmad's mad_build_pkt() and field
 * tables doing the encoding: a bounded window of requests in flight with
 * distinct TIDs, at most `per_dest` in flight to one destination (and one
 * until it has answered once), destinations served in turn so that the
 * window stays full, our own per-request timeout (the simulator never
 * times a send out) and a bounded number of sends per request, and every
 * MAD sent and received written to mads.pcap when a capture is attached.
 * Every operation is O(1) per MAD: requests wait in per-destination
 * queues, destinations with room wait in one ready list, and a response
 * finds its request through the window slot encoded in its TID.
 *
 * It waits with umad_recv(), never by polling the file descriptor itself,
 * so that a library interposed on libibumad (the test agent) sees every
 * exchange.  Only Get and GetTable methods are sent unless the engine was
 * opened with `allow_set` (fabaudit scan --active).
 */
#ifndef FA_FABRIC_IB_MAD_H
#define FA_FABRIC_IB_MAD_H

#include <stdint.h>

#include <infiniband/mad.h>

#include "ib_pcap.h"

struct fa_ib_pcap;
struct fa_mad;
struct fa_mad_dest;	/* a LID and agent kind, or a directed route */

enum fa_mad_outcome {
	FA_MAD_PENDING = 0,	/* not finished yet */
	FA_MAD_ANSWERED,	/* response with status 0 */
	FA_MAD_STATUS,		/* response with a non-zero MAD status */
	FA_MAD_NO_RESPONSE,	/* nothing after every send timed out */
	FA_MAD_SEND_ERROR,	/* the local stack refused the send */
	FA_MAD_REFUSED,		/* not sent: a Set without allow_set */
	FA_MAD_DEADLINE,	/* not sent, or its answer not awaited:
				   the scan's --max-time was reached */
};

struct fa_mad_req {
	/* Filled by the caller. */
	int		 mgmt_class;	/* IB_SMI_CLASS, IB_SA_CLASS, IB_CC_CLASS... */
	int		 method;	/* IB_MAD_METHOD_GET, ..._GET_TABLE */
	unsigned	 attr;
	uint32_t	 mod;
	ib_portid_t	 dest;		/* lid > 0: LID-routed; else DR path */
	uint64_t	 key;		/* M_Key, SM_Key (SA), CC/VS/B/AM key */
	uint64_t	 comp_mask;	/* SA component mask */
	uint8_t		 data[IB_MAD_SIZE];	/* request payload, class offset */
	unsigned	 datalen;	/* bytes of data used (0: none) */
	int		 once;		/* send once, never retry (a probe a
					   keyed agent counts as a violation) */
	int		 silence_ok;	/* silence is one of its answers, yet
					   it is retried like any request, so
					   that one lost send is not taken for
					   it: silent to the last send, it is
					   counted silent, not lost */
	int		 keep_whole;	/* keep a response longer than one
					   MAD (RMPP, reassembled by the
					   kernel) in whole */
	void		(*done)(struct fa_mad_req *r, void *arg);
	void		*arg;
	/* Filled by the engine. */
	enum fa_mad_outcome outcome;
	unsigned	 status;	/* MAD status; DR SMPs without the D bit */
	unsigned	 sends;		/* times sent */
	unsigned	 lost;		/* sends of it left unanswered (a busy
					   answer is an answer) */
	uint32_t	 tid;
	uint8_t		 resp[IB_MAD_SIZE];	/* the response's first MAD */
	unsigned	 resp_len;	/* its real length (RMPP: more) */
	uint8_t		*whole;		/* keep_whole and resp_len > 256:
					   all resp_len bytes, or NULL if
					   out of memory; the caller frees */
	/* Engine-private. */
	struct fa_mad_req *next;	/* destination queue; in flight: the
					   list in deadline order */
	struct fa_mad_req *prev;	/* in flight only */
	struct fa_mad_dest *dst;
	uint64_t	 deadline_ms;
	unsigned	 slot;		/* window slot while in flight */
	unsigned	 busy;		/* the last answer's status, if busy */
	int		 inflight;
	int		 solo;		/* sent once because its SMA went
					   silent: unlike `once`, its silence
					   is loss */
};

#define FA_MAD_MAX_WINDOW	256	/* the MAD QP's receive ring is 512 */

struct fa_mad_opts {
	unsigned	timeout_ms;	/* per send */
	unsigned	retries;	/* extra sends after the first */
	unsigned	window;		/* requests in flight, all destinations,
					   1..FA_MAD_MAX_WINDOW */
	unsigned	per_dest;	/* requests in flight to one destination
					   that has answered before */
	unsigned	sa_per_dest;	/* the same for the SA (0: per_dest) */
	int		allow_set;	/* permit Set methods (--active) */
	int		reveal;		/* keep key fields in the capture */
	/* Called each time the window has been filled, for a progress
	 * display; may be NULL.  It must not submit or run the engine. */
	void		(*tick)(void *arg);
	void		*tick_arg;
};

/*
 * What the engine did.  Every request that finishes lands in exactly one
 * of answered, unanswered, silent, send_errors and cut:
 *
 *	finished = answered + unanswered + silent + send_errors + cut
 *
 * A request is lost when a send of it went unanswered and it was not a
 * `once` probe (whose expected answer is silence), nor a `silence_ok` one
 * that stayed silent to its last send: then it was either answered by a
 * later send (recovered, a complete answer) or never (unanswered).  So
 *
 *	lost = recovered + unanswered
 *
 * and a retry that brings an answer turns loss into an observation.  An
 * agent that answers "class version or method not supported" (MAD status
 * bits 4:2 = 1 or 2, IBA vol. 1 13.4.7) has none for that class: counted
 * in no_agent (part of answered), never as loss; a class that has no
 * agent and stays silent is met only by `once` probes, so it is counted
 * in silent (as is a silence_ok request silent to its last send).
 * fa_mad_get_stats() checks both identities.
 */
struct fa_mad_stats {
	unsigned long	sent;		/* sends, retries included */
	unsigned long	answered;	/* requests answered (any status) */
	unsigned long	lost;		/* requests that lost a send: recovered
					   + unanswered */
	unsigned long	lost_sends;	/* sends that went unanswered, those
					   of `once` probes and of silence_ok
					   ones silent to the end excepted */
	unsigned long	recovered;	/* lost requests answered by a retry */
	unsigned long	unanswered;	/* lost requests never answered (no
					   send left, or the stack refused
					   the retry) */
	unsigned long	silent;		/* `once` and silence_ok probes left
					   unanswered to the end: the
					   expected answer of an agent that
					   drops them, or of no agent */
	unsigned long	no_agent;	/* answered "class or method not
					   supported" */
	unsigned long	send_errors;	/* refused by the local stack before
					   any send was lost */
	unsigned long	stray;		/* responses matching no request */
	unsigned long	malformed;	/* answers with a request's TID but
					   too short, or of another class,
					   method or attribute: ignored */
	unsigned long	busy;		/* busy answers, the request resent */
	unsigned long	resent;		/* sends after a request's first (after
					   a lost send or a busy answer) */
	unsigned	window;		/* the bound in force */
	unsigned	per_dest;
	unsigned	inflight;	/* now */
	unsigned	max_inflight;	/* highest ever, <= window */
	unsigned	max_per_dest;	/* highest to one destination, the
					   SA excepted */
	unsigned	sa_per_dest;
	unsigned	max_sa;		/* highest to the SA */
	unsigned long	queued;		/* submitted, not yet sent, now */
	unsigned long	finished;	/* requests finished (done called) */
	unsigned long	dests;		/* destinations seen */
	unsigned long	cut;		/* requests ended by --max-time: the
					   budget ended them, not loss, even
					   after a lost send */
	int		consistent;	/* both identities above hold */
};

/*
 * Where a finished request goes in the counters; pure, for the tests.
 * `once` is the caller's flag (expected silence), `lost` the sends of it
 * that went unanswered.
 */
void fa_mad_count(struct fa_mad_stats *st, enum fa_mad_outcome oc,
    int once, unsigned lost, unsigned status);

/* Whether s satisfies the identities above (1) or not (0). */
int fa_mad_stats_consistent(const struct fa_mad_stats *s);

/*
 * Open `ca` port `port` for the SMI classes and the SA.  `pcap` (may be
 * NULL) receives every MAD; the engine does not own it.  `lid` is our own
 * LID, used as the source in the capture.  Returns 0 or FA_ERR_UNAVAIL /
 * FA_ERR_NOMEM.
 */
int fa_mad_open(const char *ca, int port, uint16_t lid,
    const struct fa_mad_opts *o, struct fa_ib_pcap *pcap, struct fa_mad **out);
void fa_mad_close(struct fa_mad *m);	/* NULL is fine */

/*
 * Queue a request; `r` must stay valid until its done callback has run.
 * Returns 0, or FA_ERR_INPUT for a request the engine will not send, or
 * FA_ERR_NOMEM (then r->outcome says why and done is not called).
 */
int fa_mad_submit(struct fa_mad *m, struct fa_mad_req *r);

/*
 * Send and receive until every queued request, including those queued by
 * done callbacks, has finished.  Returns 0, or a negative FA_ERR_* if the
 * local stack failed outright; then every request still queued or in
 * flight has been finished as FA_MAD_SEND_ERROR (done() called), so none
 * stays linked.  A done() callback may submit, but must not run the
 * engine.
 */
int fa_mad_run(struct fa_mad *m);

/* Submit one request and run until it is finished. */
int fa_mad_call(struct fa_mad *m, struct fa_mad_req *r);

void fa_mad_get_stats(const struct fa_mad *m, struct fa_mad_stats *s);

/*
 * Write one MAD to the capture as a packet between our LID `own` and
 * `peer` (0xffff for directed route), zero-padded to 256 bytes, with the
 * key fields of an answer zeroed unless `reveal`.  Used by the engine and
 * by the discovery tap (ib_tap.c).
 */
void fa_ib_capture(struct fa_ib_pcap *pcap, enum fa_pcap_dir dir,
    int mgmt_class, uint16_t peer, uint16_t own, int reveal,
    const uint8_t *mad, size_t len);

/*
 * Keep the response `mad` of `len` bytes (at least 24, its header) in r:
 * its first MAD in r->resp (zero-padded), its length, all of it in
 * r->whole if r->keep_whole and it is longer than a MAD (NULL if out of
 * memory), and its status.  Returns FA_MAD_ANSWERED or FA_MAD_STATUS.
 * What the engine does with every answer; pure, for the fuzz targets.
 */
enum fa_mad_outcome fa_mad_set_resp(struct fa_mad_req *r, const uint8_t *mad,
    size_t len);

/*
 * Zero the key fields of the 256-byte answer `mad` (the header's M_Key,
 * CC_Key, VS_Key or B_Key, the SA header's SM_Key, SMInfo's SM_Key,
 * PortInfo's M_Key, CongestionKeyInfo's CC_Key), as fa_ib_capture() does
 * unless asked to reveal them.
 */
void fa_ib_redact_keys(uint8_t *mad);

/* The data of a response: offset 64 (SMP, CC, BM, AM), 56 (SA), 32 (VS). */
const uint8_t *fa_mad_data(const struct fa_mad_req *r);

#endif
