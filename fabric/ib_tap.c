/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The discovery tap: libibnetdisc sends and receives its SMPs itself, so to
 * put them in mads.pcap too, this file defines libibumad's umad_send() and
 * umad_recv() in the program.  The dynamic linker binds libibnetdisc's
 * calls to these (the executable comes first in symbol lookup); each hands
 * over to the next definition (ib_umad.c: an LD_PRELOADed library, or
 * libibumad itself) and, while a tap is open, copies the MAD to the
 * capture.  The program's own MAD engine does not call these: it calls
 * ib_umad.c's, so its MADs and their capture never depend on the tap.  The tap is open only around ibnd_discover_fabric(): the
 * engine captures and paces its own MADs.
 *
 * Pacing.  libibnetdisc keeps up to max_smps SMPs "on the wire" but has no
 * per-destination limit: the PortInfo Gets for every port of a switch are
 * queued together and would all reach its SMA at once, while VL15 has no
 * flow control and an SMA may buffer a single SMP (performance.md 2.1).
 * So the tap holds back a send whose destination (its directed route, or
 * its LID) already has per_dest in flight, and sends it when one of them
 * has come back: libibnetdisc sees it as sent, and its window fills with
 * the SMPs of other destinations.  A held send that then fails is handed
 * back to libibnetdisc as a send returned unanswered (status set), as the
 * kernel returns a timed-out one.
 *
 * Retries.  libibnetdisc leaves them to the kernel (umad_send's retries),
 * which the simulator's umad2sim ignores: one lost SMP there loses a node
 * and everything behind it.  So the tap sends with no kernel retries and
 * resends a send that came back unanswered itself, up to the retries
 * libibnetdisc asked for (--retries), before handing the failure over:
 * the same budget on hardware, and a working one on the simulator.
 *
 * This state is process-wide, as the kept ports' (ib_portkeep.c), since
 * libibnetdisc offers no hook; the alternative is to leave discovery out
 * of the capture.  The other mutable globals below scanner/ say why they
 * are where they live: the deadline (core/deadline.h), the interrupt
 * table (core/interrupt.c), librpm's configuration (host_rpm.c), the
 * I/O errno (host_fs.c, thread-local), the CRC tables (ib_pcap.c), the
 * lookup of libibumad's own calls (ib_umad.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "../core/deadline.h"
#include "ib_mad.h"
#include "ib_tap.h"
#include "ib_umad.h"

/* libibnetdisc's window is at most FA_MAD_MAX_WINDOW; room to spare. */
#define MAX_FLIGHT	(4 * FA_MAD_MAX_WINDOW)
#define DR_HOPCNT	7	/* DR SMP header: hop count (IBA 14.2.1.2) */
#define DR_DRDLID	34	/* DrSLID 32-33, DrDLID 34-35 */
#define DR_INITPATH	128	/* InitialPath[0..63] */
#define ATTR_NODE_DESC	0x0010	/* libibnetdisc: once per new node */
#define ATTR_PORT_INFO	0x0015

typedef int (*send_fn)(int, int, void *, int, int, int);
typedef int (*recv_fn)(int, void *, int *, int);

/* A send held back, or one to hand back as failed: a copy of the umad. */
struct held {
	struct held	*next;
	uint64_t	 dest;
	int		 portid, agentid, length, timeout_ms, retries;
	unsigned char	 umad[];
};

struct flight {
	uint32_t	tid;
	uint64_t	dest;
	struct held	*copy;		/* to resend; retries: sends left */
	int		 resent;
};

static struct {
	struct fa_ib_pcap	*pcap;
	uint16_t		 lid;
	int			 reveal;
	unsigned long		 n;
	int			 pacing;	/* open */
	unsigned		 per_dest;
	unsigned		 retries;	/* resends of a lost send */
	void			(*tick)(void *);
	void			*arg;
	struct flight		 fl[MAX_FLIGHT];
	unsigned		 nfl;
	struct held		*hhead, *htail;	/* held, in send order */
	struct held		*failed;	/* to hand back */
	int			 cut;		/* --max-time ended it */
	int			 saved_err;	/* stderr while muted, or -1 */
	struct fa_ib_tap_stats	 st;
} tap;

/* libibumad's own, past the definitions below (ib_umad.c). */
static send_fn
next_send(void)
{
	return fa_umad_send;
}

static recv_fn
next_recv(void)
{
	return fa_umad_recv;
}

void
fa_ib_tap_open(struct fa_ib_pcap *pcap, uint16_t own_lid, int reveal,
    unsigned per_dest, unsigned retries, void (*tick)(void *), void *arg)
{
	tap.retries = retries;
	tap.pcap = pcap;
	tap.lid = own_lid;
	tap.reveal = reveal;
	tap.n = 0;
	tap.per_dest = per_dest > 0 ? per_dest : 1;
	tap.tick = tick;
	tap.arg = arg;
	tap.nfl = 0;
	memset(&tap.st, 0, sizeof(tap.st));
	tap.cut = 0;
	tap.saved_err = -1;
	tap.pacing = 1;
}

void
fa_ib_tap_stats(struct fa_ib_tap_stats *st)
{
	*st = tap.st;
	st->inflight = tap.nfl;
	st->cut = tap.cut;
}

static void
free_list(struct held *h)
{
	struct held *next;

	for (; h != NULL; h = next) {
		next = h->next;
		free(h);
	}
}

unsigned long
fa_ib_tap_close(void)
{
	unsigned long n = tap.n;

	/* libibnetdisc waits for every send it made: nothing is left, but
	 * a failed discovery may return early. */
	free_list(tap.hhead);
	free_list(tap.failed);
	while (tap.nfl > 0)
		free(tap.fl[--tap.nfl].copy);
	tap.hhead = tap.htail = tap.failed = NULL;
	tap.pacing = 0;
	if (tap.cut && tap.saved_err >= 0) {
		fflush(stderr);
		(void)dup2(tap.saved_err, STDERR_FILENO);
		close(tap.saved_err);
	}
	tap.saved_err = -1;
	tap.pcap = NULL;
	tap.tick = NULL;
	tap.n = 0;
	tap.nfl = 0;
	return n;
}

static void
tap_mad(enum fa_pcap_dir dir, void *umad, int len)
{
	const uint8_t *mad;
	ib_mad_addr_t *addr;
	uint16_t peer;
	int cls;

	if (tap.pcap == NULL || umad == NULL || len < 24)
		return;
	mad = umad_get_mad(umad);
	addr = umad_get_mad_addr(umad);
	cls = mad[1];
	peer = cls == IB_SMI_DIRECT_CLASS || addr == NULL ? 0xffff :
	    (uint16_t)(((addr->lid & 0xff) << 8) | ((addr->lid >> 8) & 0xff));
	fa_ib_capture(tap.pcap, dir, cls, peer, tap.lid, tap.reveal, mad,
	    (size_t)len);
	tap.n++;
}

static uint32_t
tid_of(const uint8_t *mad)
{
	/* TransactionID is bytes 8-15; ours are its low 32 bits. */
	return (uint32_t)mad[12] << 24 | (uint32_t)mad[13] << 16 |
	    (uint32_t)mad[14] << 8 | mad[15];
}

/*
 * Where a MAD goes: its directed route (hop count, the ports of the
 * initial path, DrDLID) hashed with FNV-1a, or its LID.  Two routes
 * hashing alike only share a cap.
 */
static uint64_t
dest_of(void *umad, int len)
{
	const uint8_t *mad = umad_get_mad(umad);
	ib_mad_addr_t *addr = umad_get_mad_addr(umad);
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned i, hops;

	if (len >= IB_MAD_SIZE && mad[1] == IB_SMI_DIRECT_CLASS) {
		hops = mad[DR_HOPCNT] < 64 ? mad[DR_HOPCNT] : 63;
		h = (h ^ hops) * 0x100000001b3ull;
		h = (h ^ mad[DR_DRDLID]) * 0x100000001b3ull;
		h = (h ^ mad[DR_DRDLID + 1]) * 0x100000001b3ull;
		for (i = 1; i <= hops; i++)
			h = (h ^ mad[DR_INITPATH + i]) * 0x100000001b3ull;
		return h | 1ull << 63;
	}
	return addr != NULL ? (uint64_t)addr->lid : 0;
}

static unsigned
load(uint64_t dest)
{
	unsigned i, n = 0;

	for (i = 0; i < tap.nfl; i++)
		if (tap.fl[i].dest == dest)
			n++;
	return n;
}

/* A copy of a send (the umad and its arguments), or NULL: no memory. */
static struct held *
held_new(int portid, int agentid, const void *umad, int length,
    int timeout_ms, int retries, uint64_t dest)
{
	size_t sz = umad_size() + (size_t)length;
	struct held *h;

	if ((h = malloc(sizeof(*h) + sz)) == NULL)
		return NULL;
	memcpy(h->umad, umad, sz);
	h->next = NULL;
	h->dest = dest;
	h->portid = portid;
	h->agentid = agentid;
	h->length = length;
	h->timeout_ms = timeout_ms;
	h->retries = retries;
	return h;
}

/*
 * Send now, in flight from here on.  As umad_send(3), which it implements
 * for libibnetdisc: 0, or a negative value (-1 when there is no next
 * umad_send to hand over to).
 */
static int
do_send(int portid, int agentid, void *umad, int length, int timeout_ms,
    int retries, uint64_t dest)
{
	send_fn next = next_send();
	struct held *copy = NULL;
	unsigned n;
	int r;

	if (next == NULL)
		return -1;	/* not an error: umad_send(3)'s failure value */
	tap_mad(FA_PCAP_SENT, umad, length);
	if (!tap.pacing)
		return next(portid, agentid, umad, length, timeout_ms, retries);
	n = load(dest) + 1;
	/* libibmad's own calls (mad_rpc) send with no kernel retries and
	 * retry themselves: they get the scan's budget here too. */
	if (tap.nfl < MAX_FLIGHT && length >= 24 &&
	    (copy = held_new(portid, agentid, umad, length, timeout_ms,
	    retries > 0 ? retries : (int)tap.retries, dest)) != NULL)
		retries = 0;	/* ours, not the kernel's */
	r = next(portid, agentid, umad, length, timeout_ms, retries);
	if (r < 0) {
		free(copy);
		return r;
	}
	tap.st.sent++;
	if (tap.nfl < MAX_FLIGHT && length >= 24) {
		tap.fl[tap.nfl].tid = tid_of(umad_get_mad(umad));
		tap.fl[tap.nfl].dest = dest;
		tap.fl[tap.nfl].copy = copy;
		tap.fl[tap.nfl].resent = 0;
		tap.nfl++;
	} else
		free(copy);
	if (tap.nfl > tap.st.max_inflight)
		tap.st.max_inflight = tap.nfl;
	if (n > tap.st.max_per_dest)
		tap.st.max_per_dest = n;
	return r;
}

/*
 * The cut begins: libibnetdisc reports every SMP handed back on stderr
 * (IBND_ERROR, unconditional), one line each; those would be about our
 * cut, not the fabric, so stderr goes to /dev/null until the tap closes.
 */
static void
mute(void)
{
	int fd;

	if (tap.cut)
		return;
	tap.cut = 1;
	fflush(stderr);
	if ((fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		return;
	if ((tap.saved_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)) >= 0 &&
	    dup2(fd, STDERR_FILENO) < 0) {
		close(tap.saved_err);
		tap.saved_err = -1;
	}
	close(fd);
}

/*
 * --max-time: a send after the deadline is not sent but handed back at
 * once as unanswered, so libibnetdisc ends its discovery with the fabric
 * found so far.  (Failing its receive instead would be simpler, but its
 * error path frees a node twice: rdma-core 50, ibnd_discover_fabric.)
 * What is on the wire still comes back, within the MAD timeout.
 */
static int
cut_send(int agentid, void *umad, int length)
{
	struct held *h;

	mute();
	if ((h = held_new(-1, agentid, umad, length, 0, 0, 0)) == NULL)
		return -ENOMEM;
	((struct ib_user_mad *)(void *)h->umad)->status = ETIMEDOUT;
	h->next = tap.failed;
	tap.failed = h;
	return 0;
}

int
umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
    int retries)
{
	struct held *h;
	uint64_t dest;
	int r;

	if (!tap.pacing || length < 24)
		return do_send(portid, agentid, umad, length, timeout_ms,
		    retries, 0);
	if (fa_deadline_passed())
		return cut_send(agentid, umad, length);
	dest = dest_of(umad, length);
	if (load(dest) < tap.per_dest) {
		r = do_send(portid, agentid, umad, length, timeout_ms,
		    retries, dest);
		if (tap.tick != NULL)
			tap.tick(tap.arg);
		return r;
	}
	/* Out of memory, it goes now: better unpaced than lost. */
	if ((h = held_new(portid, agentid, umad, length, timeout_ms, retries,
	    dest)) == NULL)
		return do_send(portid, agentid, umad, length, timeout_ms,
		    retries, dest);
	if (tap.htail != NULL)
		tap.htail->next = h;
	else
		tap.hhead = h;
	tap.htail = h;
	tap.st.held++;
	return 0;
}

/* The first send held for `dest`, sent now that it has room. */
static void
release(uint64_t dest)
{
	struct held *h, *prev = NULL;

	for (h = tap.hhead; h != NULL; prev = h, h = h->next)
		if (h->dest == dest)
			break;
	if (h == NULL)
		return;
	if (prev != NULL)
		prev->next = h->next;
	else
		tap.hhead = h->next;
	if (tap.htail == h)
		tap.htail = prev;
	h->next = NULL;
	if (fa_deadline_passed()) {
		mute();		/* handed back unsent, as cut_send() */
		((struct ib_user_mad *)(void *)h->umad)->status = ETIMEDOUT;
		h->next = tap.failed;
		tap.failed = h;
		return;
	}
	if (do_send(h->portid, h->agentid, h->umad, h->length, h->timeout_ms,
	    h->retries, dest) >= 0) {
		free(h);
		return;
	}
	((struct ib_user_mad *)(void *)h->umad)->status = EIO;
	h->next = tap.failed;
	tap.failed = h;
}

/* A response (or a send returned unanswered) for what we sent. */
static void
landed(void *umad, int len)
{
	const uint8_t *mad = umad_get_mad(umad);
	uint32_t tid;
	uint64_t dest;
	unsigned i, attr;

	if (len < 24)
		return;
	tid = tid_of(mad);
	for (i = 0; i < tap.nfl; i++)
		if (tap.fl[i].tid == tid)
			break;
	if (i == tap.nfl)
		return;		/* not ours to count */
	dest = tap.fl[i].dest;
	if (tap.fl[i].resent && umad_status(umad) == 0)
		tap.st.recovered++;
	free(tap.fl[i].copy);
	tap.fl[i] = tap.fl[--tap.nfl];
	if (umad_status(umad) != 0) {
		tap.st.lost++;
		tap.st.failed++;
	} else {
		tap.st.answered++;
		attr = (unsigned)(mad[16] << 8 | mad[17]);
		if (attr == ATTR_NODE_DESC)
			tap.st.nodes++;
		else if (attr == ATTR_PORT_INFO)
			tap.st.ports++;
	}
	release(dest);
}

/*
 * Whether an answer libibnetdisc would take is unusable: an SMP GetResp
 * shorter than a MAD (its data would be read past what came), or a
 * NodeInfo (IBA vol. 1 14.2.5.3: NumPorts at data byte 3, LocalPortNum at
 * 36) with no port, or a local port beyond the ports it has -- which
 * libibnetdisc 1.x indexes its port array with unchecked (it crashed on
 * NumPorts 0).  Such an answer is handed back as unanswered.
 */
static int
malformed(const void *umad, int len)
{
	const uint8_t *mad = umad_get_mad((void *)umad);
	unsigned nports, local;

	if (umad_status((void *)umad) != 0 || len < 24 ||
	    (mad[1] != IB_SMI_CLASS && mad[1] != IB_SMI_DIRECT_CLASS) ||
	    !(mad[3] & 0x80))
		return 0;
	if (len < IB_MAD_SIZE)
		return 1;
	if ((unsigned)(mad[16] << 8 | mad[17]) != IB_ATTR_NODE_INFO)
		return 0;
	nports = mad[IB_SMP_DATA_OFFS + 3];
	local = mad[IB_SMP_DATA_OFFS + 36];
	return nports == 0 || local > nports ||
	    (local == 0 && mad[IB_SMP_DATA_OFFS + 2] != IB_NODE_SWITCH);
}

/*
 * A send of ours came back unanswered: send its copy again if it has
 * retries left; then the caller does not see this one (1).
 */
static int
resend(void *umad, int len)
{
	send_fn next = next_send();
	struct held *c;
	uint32_t tid;
	unsigned i;

	if (umad_status(umad) == 0 || len < 24 || next == NULL)
		return 0;
	tid = tid_of(umad_get_mad(umad));
	for (i = 0; i < tap.nfl; i++)
		if (tap.fl[i].tid == tid)
			break;
	if (i == tap.nfl || (c = tap.fl[i].copy) == NULL || c->retries <= 0)
		return 0;
	c->retries--;
	tap_mad(FA_PCAP_SENT, c->umad, c->length);
	if (next(c->portid, c->agentid, c->umad, c->length, c->timeout_ms,
	    0) < 0)
		return 0;
	tap.st.lost++;
	tap.st.sent++;
	tap.fl[i].resent = 1;
	return 1;
}

int
umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	recv_fn next = next_recv();
	struct held *h;
	int r;

	if (next == NULL)
		return -1;	/* not an error: umad_recv(3)'s failure value */
	/* A held send that failed comes back first, as unanswered. */
	if ((h = tap.failed) != NULL && length != NULL &&
	    *length >= h->length) {
		tap.failed = h->next;
		memcpy(umad, h->umad, umad_size() + (size_t)h->length);
		*length = h->length;
		r = h->agentid;
		free(h);
		tap.st.lost++;
		tap.st.failed++;
		return r;
	}
	do {
		r = next(portid, umad, length, timeout_ms);
		if (r < 0 || length == NULL)
			return r;
		if (tap.pacing && malformed(umad, *length)) {
			((struct ib_user_mad *)umad)->status = EIO;
			tap.st.malformed++;
		}
	} while (tap.pacing && resend(umad, *length));
	/* A send that came back unanswered (status set) is no answer. */
	if (umad_status(umad) == 0)
		tap_mad(FA_PCAP_RECEIVED, umad, *length);
	if (tap.pacing) {
		landed(umad, *length);
		if (tap.tick != NULL)
			tap.tick(tap.arg);
	}
	return r;
}
