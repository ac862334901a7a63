/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MAD engine (see ib_mad.h).  Requests wait in the queue of their
 * destination; a destination with requests queued and room under its cap
 * waits in the ready list, served in turn, one request each, so that
 * consecutive sends go to different agents.  In flight, a request holds a
 * window slot, whose number is the low 8 bits of its TID (the rest a
 * counter): a response finds its request in O(1).  The requests in flight
 * are listed in send order, which is deadline order (one timeout for all),
 * so the next timeout is the list's head.  TIDs are matched on their low
 * 32 bits: the kernel (and umad2sim) use the high bits for the agent ID.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <infiniband/umad.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "ib_mad.h"
#include "ib_pcap.h"
#include "ib_umad.h"

#define MAX_WINDOW	FA_MAD_MAX_WINDOW
#define SLOT_BITS	8	/* MAX_WINDOW slots */
#define RECV_MAX	(16u * 1024 * 1024)	/* largest RMPP answer kept */
#define QP1_QKEY	0x80010000u	/* IBA vol. 1 13.5.1: the GSI Q_Key */
#define NLIDS		65536
/*
 * The agents behind one LID, each its own destination: the SMA (QP0), the
 * SA (where the SM runs) and the other GSI agents (QP1), so that the SA's
 * wider cap never applies to another agent of the SM's node.
 */
enum { AGENT_GSI, AGENT_SMA, AGENT_SA, NAGENTS };

/*
 * One destination: a LID with its agent kind (the SMA behind QP0, the SA,
 * or the other GSI agents behind QP1: SMPs travel on VL15 with no flow
 * control, GMPs on a data VL), or a directed route (only our own port
 * after discovery).
 */
struct fa_mad_dest {
	struct fa_mad_dest	*rnext;		/* ready list */
	struct fa_mad_dest	*drnext;	/* directed-route list */
	struct fa_mad_req	*head, *tail;	/* queued */
	ib_dr_path_t		*path;		/* directed route, else NULL */
	unsigned		 inflight;
	uint8_t			 ready;		/* on the ready list */
	uint8_t			 answered;	/* answered once: per_dest */
	uint8_t			 silent;	/* an SMP to it went unheard */
	uint8_t			 sa;		/* AGENT_SA: o.sa_per_dest */
};

struct fa_mad {
	struct ibmad_port	*port;
	int			 portid;	/* libibumad port handle */
	uint16_t		 lid;
	struct fa_mad_opts	 o;
	struct fa_ib_pcap	*pcap;
	struct fa_mad_dest	**by_lid;	/* [lid * NAGENTS + agent_of()] */
	struct fa_mad_dest	*dr;		/* directed routes */
	struct fa_mad_dest	*rhead, *rtail;	/* ready destinations */
	struct fa_mad_req	*ihead, *itail;	/* in flight, send order */
	struct fa_mad_req	*slot[MAX_WINDOW];
	unsigned		 freeslot[MAX_WINDOW];
	unsigned		 nfree;
	unsigned		 ninflight;
	uint32_t		 gen;		/* TID counter above the slot */
	void			*sbuf, *rbuf;
	size_t			 rbuf_len;
	struct fa_mad_stats	 st;
};

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Where a class's data starts (and so its payload size): SMPs, CC and BM
 * carry 40 bytes of class header (IBA vol. 1 13.4, Annex A10.4.1), the SA
 * 32 (15.2.1.1); vendor range-1 data starts right after the common
 * header, at 24 (libibmad IB_VENDOR_RANGE1_DATA_OFFS), its first 8 bytes
 * being the VS_Key.
 */
static int
data_offs(int mgmt_class)
{
	if (mgmt_class == IB_SA_CLASS)
		return IB_SA_DATA_OFFS;
	if (mgmt_class >= IB_VENDOR_RANGE1_START_CLASS && mgmt_class <= 0x0f)
		return IB_VENDOR_RANGE1_DATA_OFFS + 8;
	return IB_SMP_DATA_OFFS;
}

int
fa_mad_open(const char *ca, int port, uint16_t lid,
    const struct fa_mad_opts *o, struct fa_ib_pcap *pcap, struct fa_mad **out)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	/* CC, vendor (Mellanox 0x0A), SHARP AM (0x0B), baseboard mgmt. */
	static const int extra[] = { IB_CC_CLASS, 0x0a, 0x0b,
	    IB_BOARD_MGMT_CLASS, IB_PERFORMANCE_CLASS };
	struct fa_mad *m;
	size_t i;

	*out = NULL;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return FA_ERR_NOMEM;
	m->o = *o;
	if (m->o.window == 0)
		m->o.window = 1;
	if (m->o.window > MAX_WINDOW)
		m->o.window = MAX_WINDOW;
	if (m->o.per_dest == 0)
		m->o.per_dest = 1;
	if (m->o.sa_per_dest == 0)
		m->o.sa_per_dest = m->o.per_dest;
	if (m->o.timeout_ms == 0)
		m->o.timeout_ms = 500;
	m->lid = lid;
	m->pcap = pcap;
	for (i = 0; i < MAX_WINDOW; i++)
		m->freeslot[i] = (unsigned)(MAX_WINDOW - 1 - i);
	m->nfree = MAX_WINDOW;
	/* Any start will do: answers reach only the agent that asked. */
	m->gen = (uint32_t)mad_trid() & 0xffffff;
	m->rbuf_len = umad_size() + IB_MAD_SIZE * 16;
	m->sbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	m->rbuf = calloc(1, m->rbuf_len);
	m->by_lid = calloc(NLIDS * NAGENTS, sizeof(*m->by_lid));
	if (m->sbuf == NULL || m->rbuf == NULL || m->by_lid == NULL) {
		fa_mad_close(m);
		return FA_ERR_NOMEM;
	}
	m->port = mad_rpc_open_port((char *)ca, port, classes,
	    (int)(sizeof(classes) / sizeof(classes[0])));
	if (m->port == NULL) {
		fa_mad_close(m);
		return FA_ERR_UNAVAIL;
	}
	m->portid = mad_rpc_portid(m->port);
	/*
	 * The key-bearing GMP classes are registered one by one: a stack
	 * that refuses one must not cost the scan the others.  A class that
	 * failed has no agent, and its requests end as FA_MAD_SEND_ERROR.
	 */
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		(void)mad_register_client_via(extra[i], 0, m->port);
	*out = m;
	return 0;
}

static void
dest_free(struct fa_mad_dest *d)
{
	if (d == NULL)
		return;
	free(d->path);
	free(d);
}

void
fa_mad_close(struct fa_mad *m)
{
	struct fa_mad_dest *d;
	size_t i;

	if (m == NULL)
		return;
	if (m->port != NULL)
		mad_rpc_close_port(m->port);
	for (i = 0; m->by_lid != NULL && i < NLIDS * NAGENTS; i++)
		dest_free(m->by_lid[i]);
	free(m->by_lid);
	while ((d = m->dr) != NULL) {
		m->dr = d->drnext;
		dest_free(d);
	}
	/* Answers held keys (SM_Key, M_Key, CC_Key): wipe before freeing. */
	fa_freezero(m->sbuf, umad_size() + IB_MAD_SIZE);
	fa_freezero(m->rbuf, m->rbuf_len);
	free(m);
}

static int
is_smp(int mgmt_class)
{
	return mgmt_class == IB_SMI_CLASS || mgmt_class == IB_SMI_DIRECT_CLASS;
}

/* Requests a destination may have in flight now. */
static unsigned
dest_cap(const struct fa_mad *m, const struct fa_mad_dest *d)
{
	/*
	 * One until it has answered: an agent that drops our Gets (an SMA at
	 * M_Key protection level 2 counts each as a violation and may trap)
	 * never sees two at once, and one that went silent stays at one.
	 */
	if (!d->answered || d->silent)
		return 1;
	return d->sa ? m->o.sa_per_dest : m->o.per_dest;
}

static void
push_ready(struct fa_mad *m, struct fa_mad_dest *d)
{
	if (d->ready || d->head == NULL || d->inflight >= dest_cap(m, d))
		return;
	d->ready = 1;
	d->rnext = NULL;
	if (m->rtail != NULL)
		m->rtail->rnext = d;
	else
		m->rhead = d;
	m->rtail = d;
}

static struct fa_mad_dest *
pop_ready(struct fa_mad *m)
{
	struct fa_mad_dest *d = m->rhead;

	if (d == NULL)
		return NULL;
	m->rhead = d->rnext;
	if (m->rhead == NULL)
		m->rtail = NULL;
	d->rnext = NULL;
	d->ready = 0;
	return d;
}

static int
same_path(const ib_dr_path_t *a, const ib_dr_path_t *b)
{
	return a->cnt == b->cnt && a->drslid == b->drslid &&
	    a->drdlid == b->drdlid && a->cnt >= 0 &&
	    a->cnt < IB_SUBNET_PATH_HOPS_MAX &&
	    memcmp(a->p, b->p, (size_t)a->cnt + 1) == 0;
}

static int
agent_of(int mgmt_class)
{
	return is_smp(mgmt_class) ? AGENT_SMA : mgmt_class == IB_SA_CLASS ?
	    AGENT_SA : AGENT_GSI;
}

/* The destination of r, made on first use; NULL when out of memory. */
static struct fa_mad_dest *
dest_of(struct fa_mad *m, const struct fa_mad_req *r)
{
	struct fa_mad_dest *d, **slot;

	if (r->dest.lid > 0) {
		slot = &m->by_lid[(size_t)r->dest.lid * NAGENTS +
		    agent_of(r->mgmt_class)];
		if (*slot == NULL && (*slot = calloc(1, sizeof(**slot))) !=
		    NULL) {
			m->st.dests++;
			(*slot)->sa = agent_of(r->mgmt_class) == AGENT_SA;
		}
		return *slot;
	}
	/* Directed routes are few (our own port): a list is enough. */
	for (d = m->dr; d != NULL; d = d->drnext)
		if (same_path(d->path, &r->dest.drpath))
			return d;
	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->path = malloc(sizeof(*d->path))) == NULL) {
		free(d);
		return NULL;
	}
	*d->path = r->dest.drpath;
	d->drnext = m->dr;
	m->dr = d;
	m->st.dests++;
	return d;
}

int
fa_mad_submit(struct fa_mad *m, struct fa_mad_req *r)
{
	struct fa_mad_dest *d;

	r->outcome = FA_MAD_PENDING;
	r->status = 0;
	r->busy = 0;
	r->sends = 0;
	r->lost = 0;
	r->solo = 0;
	r->inflight = 0;
	r->next = r->prev = NULL;
	r->dst = NULL;
	/* Read-only unless asked: Get (0x01) and GetTable (0x12) only. */
	if (!m->o.allow_set && r->method != IB_MAD_METHOD_GET &&
	    r->method != IB_MAD_METHOD_GET_TABLE) {
		r->outcome = FA_MAD_REFUSED;
		return FA_ERR_INPUT;
	}
	if (r->mgmt_class <= 0 || r->mgmt_class > 0xff ||
	    mad_rpc_class_agent(m->port, r->mgmt_class) < 0 ||
	    r->dest.lid >= NLIDS || (r->dest.lid <= 0 &&
	    (r->dest.drpath.cnt < 0 ||
	    r->dest.drpath.cnt >= IB_SUBNET_PATH_HOPS_MAX))) {
		r->outcome = FA_MAD_SEND_ERROR;
		return FA_ERR_INPUT;
	}
	if ((d = dest_of(m, r)) == NULL) {
		r->outcome = FA_MAD_SEND_ERROR;
		return FA_ERR_NOMEM;
	}
	r->dst = d;
	if (d->tail != NULL)
		d->tail->next = r;
	else
		d->head = r;
	d->tail = r;
	m->st.queued++;
	push_ready(m, d);
	return 0;
}

/*
 * Zero the key fields of an answer before it goes to mads.pcap, as every
 * other output redacts keys: the M_Key / CC_Key / VS_Key / B_Key header field
 * (bytes 24-31; never the SA's, which holds its RMPP header there), the
 * SA header's SM_Key (bytes 36-43), SMInfo's SM_Key (data 8-15), PortInfo's
 * M_Key (data 0-7) and CongestionKeyInfo's CC_Key (data 0-7).
 */
void
fa_ib_redact_keys(uint8_t *mad)
{
	unsigned cls = mad[1], attr = (unsigned)(mad[16] << 8 | mad[17]);

	if (cls == IB_SA_CLASS) {
		memset(mad + 36, 0, 8);
		return;
	}
	memset(mad + 24, 0, 8);
	if ((cls == IB_SMI_CLASS || cls == IB_SMI_DIRECT_CLASS) &&
	    attr == IB_ATTR_SMINFO)
		memset(mad + IB_SMP_DATA_OFFS + 8, 0, 8);
	else if ((cls == IB_SMI_CLASS || cls == IB_SMI_DIRECT_CLASS) &&
	    attr == IB_ATTR_PORT_INFO)
		memset(mad + IB_SMP_DATA_OFFS, 0, 8);
	else if (cls == IB_CC_CLASS && attr == IB_CC_ATTR_CONGESTION_KEY_INFO)
		memset(mad + IB_CC_DATA_OFFS, 0, 8);
}

void
fa_ib_capture(struct fa_ib_pcap *pcap, enum fa_pcap_dir dir, int mgmt_class,
    uint16_t peer, uint16_t own, int reveal, const uint8_t *mad, size_t len)
{
	uint8_t full[IB_MAD_SIZE];
	struct fa_ib_pkt pkt;
	struct timeval tv;

	if (pcap == NULL)
		return;
	/*
	 * On the wire a MAD is always 256 bytes (IBA vol. 1 13.4.2); the
	 * simulator hands back SA answers cut to their records.  Capture the
	 * packet as it would have been: zero-padded.
	 */
	memset(full, 0, sizeof(full));
	memcpy(full, mad, len > sizeof(full) ? sizeof(full) : len);
	/* We send no secret (keys 0 and 1 only); answers may carry them. */
	if (!reveal && dir == FA_PCAP_RECEIVED)
		fa_ib_redact_keys(full);
	memset(&pkt, 0, sizeof(pkt));
	pkt.slid = dir == FA_PCAP_SENT ? (peer == 0xffff ? 0xffff : own) :
	    peer;
	pkt.dlid = dir == FA_PCAP_SENT ? peer : (peer == 0xffff ? 0xffff :
	    own);
	if (is_smp(mgmt_class))
		pkt.vl = 15;	/* SMPs travel on VL15, QP0 */
	else {
		pkt.src_qp = pkt.dst_qp = 1;
		pkt.qkey = QP1_QKEY;
	}
	gettimeofday(&tv, NULL);
	(void)fa_ib_pcap_write(pcap, &tv, dir, &pkt, full, sizeof(full));
	explicit_bzero(full, sizeof(full));
}

static void
capture(struct fa_mad *m, const struct fa_mad_req *r, enum fa_pcap_dir dir,
    const uint8_t *mad, size_t len)
{
	uint16_t peer;

	/* The permissive LID for DR SMPs. */
	if (r->mgmt_class == IB_SMI_DIRECT_CLASS || r->dest.lid <= 0)
		peer = 0xffff;
	else
		peer = (uint16_t)r->dest.lid;
	fa_ib_capture(m->pcap, dir, r->mgmt_class, peer, m->lid, m->o.reveal,
	    mad, len);
}

/*
 * Encode and send r once: 0; FA_ERR_INPUT when libibmad cannot encode it;
 * FA_ERR_IO when the stack refused the send.
 */
static int
send_one(struct fa_mad *m, struct fa_mad_req *r)
{
	ib_rpc_cc_t rpc;	/* ib_rpc_t plus cckey: mad_build_pkt() reads
				   the CC key through this layout for class
				   0x21 */
	uint8_t *mad;
	int len, agent;

	memset(&rpc, 0, sizeof(rpc));
	rpc.mgtclass = r->mgmt_class;
	rpc.method = r->method;
	rpc.attr.id = r->attr;
	rpc.attr.mod = r->mod;
	rpc.trid = r->tid;
	rpc.timeout = (int)m->o.timeout_ms;
	rpc.dataoffs = data_offs(r->mgmt_class);
	rpc.datasz = IB_MAD_SIZE - rpc.dataoffs;
	if (r->mgmt_class == IB_SA_CLASS)
		rpc.mask = r->comp_mask;
	else
		rpc.mkey = r->key;	/* bytes 24-31: M_Key, CC/B/VS key */
	if (r->mgmt_class == IB_CC_CLASS)
		rpc.cckey = r->key;
	memset(m->sbuf, 0, umad_size() + IB_MAD_SIZE);
	len = mad_build_pkt(m->sbuf, (ib_rpc_t *)&rpc, &r->dest, NULL,
	    r->datalen > 0 ? r->data : NULL);
	if (len < 0)
		return FA_ERR_INPUT;
	/* GMPs carry the P_Key at this index of our table (IBA 13.5.3). */
	if (!is_smp(r->mgmt_class))
		umad_set_pkey(m->sbuf, (int)r->dest.pkey_idx);
	mad = umad_get_mad(m->sbuf);
	/* The SA header's SM_Key (bytes 36-43, IBA vol. 1 15.2.1.1). */
	if (r->mgmt_class == IB_SA_CLASS)
		mad_set_field64(mad, 0, IB_SA_MKEY_F, r->key);
	/* Congestion control is class version 2 (Annex A10.4.1). */
	if (r->mgmt_class == IB_CC_CLASS)
		mad_set_field(mad, 0, IB_MAD_CLASSVER_F, 2);
	/* The VS_Key opens the vendor data (MFT's mtcr_ib_ofed.c). */
	if (r->mgmt_class >= IB_VENDOR_RANGE1_START_CLASS &&
	    r->mgmt_class <= 0x0f)
		mad_set_field64(mad, 0, IB_MAD_MKEY_F, r->key);
	agent = mad_rpc_class_agent(m->port, r->mgmt_class);
	r->sends++;
	m->st.sent++;
	capture(m, r, FA_PCAP_SENT, mad, IB_MAD_SIZE);
	if (fa_umad_send(m->portid, agent, m->sbuf, len, (int)m->o.timeout_ms,
	    0) < 0)
		return FA_ERR_IO;
	r->deadline_ms = now_ms() + m->o.timeout_ms;
	return 0;
}

/* A fresh TID for a send from `slot`: counter above, slot below. */
static uint32_t
next_tid(struct fa_mad *m, unsigned slot)
{
	uint32_t tid;

	do {
		m->gen = (m->gen + 1) & 0xffffff;
		tid = m->gen << SLOT_BITS | slot;
	} while (tid == 0);	/* mad_build_pkt() draws its own for 0 */
	return tid;
}

static void
unlink_inflight(struct fa_mad *m, struct fa_mad_req *r)
{
	if (r->prev != NULL)
		r->prev->next = r->next;
	else
		m->ihead = r->next;
	if (r->next != NULL)
		r->next->prev = r->prev;
	else
		m->itail = r->prev;
	r->next = r->prev = NULL;
}

static void
append_inflight(struct fa_mad *m, struct fa_mad_req *r)
{
	r->next = NULL;
	r->prev = m->itail;
	if (m->itail != NULL)
		m->itail->next = r;
	else
		m->ihead = r;
	m->itail = r;
}

/*
 * (Re)send r, in flight in its slot, with a fresh TID (a late notice about
 * an earlier send must not be taken for the fate of this one), at the end
 * of the deadline list.  0, or as send_one() when it could not be sent.
 */
static int
resend(struct fa_mad *m, struct fa_mad_req *r)
{
	unlink_inflight(m, r);
	append_inflight(m, r);
	r->tid = next_tid(m, r->slot);
	r->busy = 0;
	if (r->sends > 0)
		m->st.resent++;
	return send_one(m, r);
}

static void
finish(struct fa_mad *m, struct fa_mad_req *r, enum fa_mad_outcome oc)
{
	struct fa_mad_dest *d = r->dst;

	/*
	 * An SMA that let every send of a request go unanswered may be
	 * dropping wrong-key Gets (M_Key level 2), each an M_Key violation
	 * and a trap: any later SMP to it is sent once, never retried, and
	 * alone.
	 */
	if (oc == FA_MAD_NO_RESPONSE && r->mgmt_class == IB_SMI_CLASS &&
	    r->dest.lid > 0)
		d->silent = 1;
	if (oc == FA_MAD_ANSWERED || oc == FA_MAD_STATUS)
		d->answered = 1;
	unlink_inflight(m, r);
	m->slot[r->slot] = NULL;
	m->freeslot[m->nfree++] = r->slot;
	m->ninflight--;
	d->inflight--;
	push_ready(m, d);
	r->inflight = 0;
	r->outcome = oc;
	/*
	 * A silence_ok request's silence was its answer only if it lasted
	 * to the end: answered, refused by the stack or cut, its silent
	 * sends were lost sends like any request's.
	 */
	if (r->silence_ok && oc != FA_MAD_NO_RESPONSE)
		m->st.lost_sends += r->lost;
	fa_mad_count(&m->st, oc, r->once || (r->silence_ok &&
	    oc == FA_MAD_NO_RESPONSE), r->lost, r->status);
	if (r->done != NULL)
		r->done(r, r->arg);
}

/* Fill the window from the ready destinations, one request each in turn. */
static void
fill(struct fa_mad *m)
{
	struct fa_mad_dest *d;
	struct fa_mad_req *r;

	while (m->ninflight < m->o.window && (d = pop_ready(m)) != NULL) {
		r = d->head;
		d->head = r->next;
		if (d->head == NULL)
			d->tail = NULL;
		m->st.queued--;
		if (d->silent && r->mgmt_class == IB_SMI_CLASS)
			r->solo = 1;
		r->slot = m->freeslot[--m->nfree];
		m->slot[r->slot] = r;
		r->inflight = 1;
		r->next = r->prev = NULL;
		append_inflight(m, r);
		m->ninflight++;
		d->inflight++;
		if (m->ninflight > m->st.max_inflight)
			m->st.max_inflight = m->ninflight;
		if (d->sa && d->inflight > m->st.max_sa)
			m->st.max_sa = d->inflight;
		else if (!d->sa && d->inflight > m->st.max_per_dest)
			m->st.max_per_dest = d->inflight;
		push_ready(m, d);	/* to the back of the turn */
		if (resend(m, r) != 0)
			finish(m, r, FA_MAD_SEND_ERROR);
	}
}

/*
 * A send timed out (kernel or our timer): send again or give up.  After a
 * busy answer the timeout is the wait before the retry, not a loss; the
 * silence a `once` probe expects is not a loss either, nor a silence_ok
 * one's until an answer shows it was (finish()).
 */
static void
lost(struct fa_mad *m, struct fa_mad_req *r)
{
	if (r->busy == 0) {
		r->lost++;
		if (!r->once && !r->silence_ok)
			m->st.lost_sends++;
	}
	if (!r->once && !r->solo && r->sends <= m->o.retries) {
		if (resend(m, r) != 0)
			finish(m, r, FA_MAD_SEND_ERROR);
		return;
	}
	if (r->busy != 0) {
		/* Busy to the last send: that is the answer. */
		r->status = r->busy;
		finish(m, r, FA_MAD_STATUS);
		return;
	}
	finish(m, r, FA_MAD_NO_RESPONSE);
}

static void
received(struct fa_mad *m, int len)
{
	const uint8_t *mad = umad_get_mad(m->rbuf);
	struct fa_mad_req *r;
	enum fa_mad_outcome oc;
	uint32_t tid;

	if (len < 24)
		return;
	tid = (uint32_t)mad_get_field64((void *)mad, 0, IB_MAD_TRID_F);
	r = m->slot[tid & (MAX_WINDOW - 1)];
	if (r == NULL || r->tid != tid) {
		m->st.stray++;
		return;
	}
	if (umad_status(m->rbuf) != 0) {
		/* The send came back unanswered (kernel timeout, ibsim 110). */
		lost(m, r);
		return;
	}
	/*
	 * An answer must be of the request's class and attribute, with the
	 * response bit set (IBA vol. 1 13.4.5), and whole: a MAD (256
	 * bytes), or for the SA, whose answers come reassembled (RMPP) to
	 * their real length, at least its header (56 bytes, 15.2.1.1; the
	 * records are counted from the length).  Anything else with our TID
	 * is malformed, decoded by nobody.  The request waits on, so it is
	 * resent or ends with no response: what was not seen is never read
	 * as zeros.
	 */
	if (len < (r->mgmt_class == IB_SA_CLASS ? IB_SA_DATA_OFFS :
	    IB_MAD_SIZE) || mad[1] != (r->mgmt_class & 0xff) ||
	    !(mad[3] & 0x80) ||
	    (unsigned)(mad[16] << 8 | mad[17]) != r->attr) {
		m->st.malformed++;
		return;
	}
	capture(m, r, FA_PCAP_RECEIVED, mad, (size_t)len);
	oc = fa_mad_set_resp(r, mad, (size_t)len);
	/*
	 * Status bit 0, busy (IBA vol. 1 13.4.7): the responder could not
	 * take the request now and it may be retried.  The request waits
	 * out its timeout and is resent while it has sends left; a busy
	 * answer to its last one ends it with that status.
	 */
	r->busy = 0;
	if ((r->status & 0x0001) != 0 && !r->once && !r->solo &&
	    r->sends <= m->o.retries) {
		m->st.busy++;
		r->busy = r->status;
		return;
	}
	finish(m, r, oc);
}

enum fa_mad_outcome
fa_mad_set_resp(struct fa_mad_req *r, const uint8_t *mad, size_t len)
{
	memset(r->resp, 0, sizeof(r->resp));
	r->resp_len = (unsigned)len;
	memcpy(r->resp, mad, len < sizeof(r->resp) ? len : sizeof(r->resp));
	if (r->keep_whole && len > sizeof(r->resp) &&
	    r->whole == NULL && (r->whole = malloc(len)) != NULL)
		memcpy(r->whole, mad, len);
	/* DR SMPs have a 15-bit status; bit 15 is the D bit (IBA 14.2.1.2). */
	if (r->mgmt_class == IB_SMI_DIRECT_CLASS)
		r->status = mad_get_field(r->resp, 0, IB_DRSMP_STATUS_F);
	else
		r->status = mad_get_field(r->resp, 0, IB_MAD_STATUS_F);
	return r->status == 0 ? FA_MAD_ANSWERED : FA_MAD_STATUS;
}

/*
 * Finish everything queued or in flight with outcome oc (a failure, or
 * the deadline), calling done() for each (which may queue more, finished
 * in turn), so that no request is left linked when the engine stops.
 */
static void
fail_all(struct fa_mad *m, enum fa_mad_outcome oc)
{
	struct fa_mad_dest *d;
	struct fa_mad_req *r;

	for (;;) {
		if (m->ihead != NULL) {
			finish(m, m->ihead, oc);
			continue;
		}
		/* Nothing in flight: every destination with a queue is
		 * ready. */
		if ((d = pop_ready(m)) == NULL)
			break;
		while ((r = d->head) != NULL) {
			d->head = r->next;
			if (d->head == NULL)
				d->tail = NULL;
			m->st.queued--;
			r->next = NULL;
			r->outcome = oc;
			fa_mad_count(&m->st, oc, r->once, 0, 0);
			if (r->done != NULL)
				r->done(r, r->arg);
		}
	}
}

int
fa_mad_run(struct fa_mad *m)
{
	uint64_t now;
	int len, n, wait, rc;

	for (;;) {
		/*
		 * --max-time: nothing more is sent, and what is in flight is
		 * not waited for; each request ends as cut, which its phase
		 * records as not collected (its item not_tested).
		 */
		if (fa_deadline_passed()) {
			fail_all(m, FA_MAD_DEADLINE);
			return 0;
		}
		/* done() may queue more, even when a send failed in fill();
		 * with nothing in flight, every queued request is ready. */
		fill(m);
		if (m->o.tick != NULL)
			m->o.tick(m->o.tick_arg);
		if (m->ninflight == 0) {
			if (m->rhead != NULL)
				continue;
			if (m->st.queued == 0)
				return 0;
			rc = FA_ERR_INTERNAL;
			goto fail;
		}
		now = now_ms();
		/*
		 * Our own timer, with slack for the kernel's to fire first.
		 * Never 0: libibumad then skips poll() and blocks in read().
		 */
		wait = m->ihead->deadline_ms + 50 > now ?
		    (int)(m->ihead->deadline_ms + 50 - now) : 1;
		if ((wait = fa_deadline_clamp_ms(wait)) < 1)
			wait = 1;
		len = (int)(m->rbuf_len - umad_size());
		n = fa_umad_recv(m->portid, m->rbuf, &len, wait);
		if (n >= 0)
			received(m, len);
		else if (n == -ENOSPC) {
			/* An RMPP answer larger than the buffer: grow once. */
			size_t need = umad_size() + (size_t)len;
			void *nb;

			/*
			 * The kernel keeps a message it could not hand over,
			 * so one beyond the ceiling would block every receive:
			 * give up on the engine rather than spin or hang.
			 */
			if (len <= 0 || need <= m->rbuf_len || need > RECV_MAX) {
				rc = FA_ERR_IO;
				goto fail;
			}
			if ((nb = realloc(m->rbuf, need)) == NULL) {
				rc = FA_ERR_NOMEM;
				goto fail;
			}
			m->rbuf = nb;
			m->rbuf_len = need;
			continue;
		} else if (n != -ETIMEDOUT && n != -EAGAIN && n != -EINTR) {
			rc = FA_ERR_IO;
			goto fail;
		}
		/* Deadlines are checked after every receive, so a stream of
		 * stray answers cannot keep a lost request waiting; a resent
		 * request goes to the list's end, so this ends. */
		now = now_ms();
		while (m->ihead != NULL && m->ihead->deadline_ms + 50 <= now)
			lost(m, m->ihead);
	}
fail:
	fail_all(m, FA_MAD_SEND_ERROR);
	return rc;
}

int
fa_mad_call(struct fa_mad *m, struct fa_mad_req *r)
{
	int rc;

	if ((rc = fa_mad_submit(m, r)) != 0)
		return rc;
	return fa_mad_run(m);
}

/* MAD status bits 4:2 (IBA vol. 1 13.4.7): 1 bad class version, 2 method
 * not supported.  Both say no agent here serves the request's class. */
#define ST_INVALID(st)		(((st) >> 2) & 0x7)
#define ST_BAD_VERSION		1
#define ST_NO_METHOD		2

void
fa_mad_count(struct fa_mad_stats *st, enum fa_mad_outcome oc, int once,
    unsigned lost, unsigned status)
{
	st->finished++;
	if (oc == FA_MAD_ANSWERED || oc == FA_MAD_STATUS) {
		st->answered++;
		if (lost > 0 && !once) {
			st->lost++;
			st->recovered++;
		}
		if (oc == FA_MAD_STATUS &&
		    (ST_INVALID(status) == ST_BAD_VERSION ||
		    ST_INVALID(status) == ST_NO_METHOD))
			st->no_agent++;
	} else if (oc == FA_MAD_DEADLINE)
		st->cut++;
	else if (!once && (lost > 0 || oc == FA_MAD_NO_RESPONSE)) {
		/* Every send lost, or the retry refused by the stack. */
		st->lost++;
		st->unanswered++;
	} else if (oc == FA_MAD_NO_RESPONSE)
		st->silent++;
	else
		st->send_errors++;
}

int
fa_mad_stats_consistent(const struct fa_mad_stats *s)
{
	return s->lost == s->recovered + s->unanswered &&
	    s->finished == s->answered + s->unanswered + s->silent +
	    s->send_errors + s->cut && s->recovered <= s->answered &&
	    s->no_agent <= s->answered;
}

void
fa_mad_get_stats(const struct fa_mad *m, struct fa_mad_stats *s)
{
	*s = m->st;
	s->window = m->o.window;
	s->per_dest = m->o.per_dest;
	s->sa_per_dest = m->o.sa_per_dest;
	s->inflight = m->ninflight;
	s->consistent = fa_mad_stats_consistent(s);
}

const uint8_t *
fa_mad_data(const struct fa_mad_req *r)
{
	return r->resp + data_offs(r->mgmt_class);
}
