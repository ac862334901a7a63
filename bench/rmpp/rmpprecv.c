/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * librmpprecv.so: the RMPP receiver of a client host's kernel, for the
 * simulator.  Preloaded BEHIND libumad2sim.so in the clients (fabaudit,
 * the diags tools), with librmppsim.so (the SA host kernel's sender) in
 * front of it in opensm:
 *
 *   opensm:   LD_PRELOAD="librmppsim.so libumad2sim.so"
 *   clients:  LD_PRELOAD="libumad2sim.so librmpprecv.so"
 *
 * Why: on hardware an agent registered with rmpp_version 1 (libibmad's
 * mad_rpc_open_port() registers the SA class so) gets a GetTable answer
 * whole: the kernel ACKs the segments and hands umad_recv() one message
 * of any length (drivers/infiniband/core/mad_rmpp.c).  umad2sim has no
 * kernel behind it, so the simulator cuts every SA answer at 256 bytes and
 * fabaudit has to ask for each port's PathRecord instead (README, Q1).
 * Together the two shims give the simulated fabric what its hosts'
 * kernels would do, so that `make bench` measures fabaudit's hardware
 * path.  A test tool: nothing of fabaudit depends on it.
 *
 * What it does:
 *  - umad_recv(): an SA answer that is an RMPP DATA segment (RMPPVersion
 *    1, Active) is not handed over; its transfer (by fd and TID) is fed to
 *    rmpp_rx (rmpp_rx.c), the ACKs it asks for are sent with libibumad's
 *    umad_send() on the agent the segment came to, and the whole message
 *    is handed over once complete: the umad header of its last segment
 *    with the length of the message, then the message as rmpp_rx lays it
 *    out (first header, every segment's data).  A caller buffer too small
 *    gets -ENOSPC and the needed length, and the message stays first, as
 *    the kernel does.  Everything else passes through unchanged.  A
 *    transfer with no segment for RMPPRECV_ACK_MS (default 500) is nudged
 *    with a repeated ACK, up to 8 times, then dropped (the caller's own
 *    timer then fires, as after a kernel's failed receive).
 *  - read(): umad2sim's receiver thread reads each packet from ibsim as
 *    a struct sim_request (ibsim.h: five 32-bit fields, a 64-bit length,
 *    then the 256-byte MAD at byte 32; 288 bytes) into a buffer of the
 *    same size, then hands over only its first 224 MAD bytes (README,
 *    "umad2sim loses MAD bytes 224-255").  Preloaded behind umad2sim,
 *    this library is the read() umad2sim calls (its dlsym(RTLD_NEXT)), so
 *    it keeps bytes 224-255 of every SA answer it sees go by, by TID and
 *    segment number, and umad_recv() puts them back.
 *
 * RMPPRECV_LOG=FILE appends the totals at exit.  Relies on umad2sim's
 * packet size and on libibumad's umad_recv() returning the agent id.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "rmpp_rx.h"

#define SIM_REQ		288	/* sizeof(struct sim_request) */
#define SIM_MAD_OFFS	32
#define LOST_FROM	224	/* umad2sim hands over MAD bytes 0..223 */
#define LOST_LEN	(RMPP_MAD - LOST_FROM)
#define SA_CLASS	0x03
#define SA_QKEY		0x80010000u
#define NKEEP		8192	/* bytes 224-255 of the last NKEEP answers */
#define NXFER		32	/* transfers at once */
#define MAX_MSG		(16u * 1024 * 1024)	/* fabaudit's RECV_MAX */
#define WINDOW		64	/* the Linux receiver's default grant */
#define NUDGES		8
#define IDLE_DROP_MS	30000

typedef int (*recv_fn)(int, void *, int *, int);
typedef int (*send_fn)(int, int, void *, int, int, int);
typedef ssize_t (*read_fn)(int, void *, size_t);

struct kept {
	uint8_t		 key[12];	/* TID (8), SegmentNumber (4) */
	uint8_t		 bytes[LOST_LEN];
	int		 used;
};

struct xfer {
	int		 used, fd, agent;
	uint64_t	 last_ms;
	struct rmpp_rx	 rx;
};

static pthread_mutex_t	 kept_mu = PTHREAD_MUTEX_INITIALIZER;
static struct kept	 kept[NKEEP];
static size_t		 kept_next;

static struct xfer	 xfers[NXFER];
/* A complete message the caller's buffer was too small for. */
static uint8_t		*pend;
static int		 pend_len, pend_fd, pend_agent;
static long		 ack_ms = 500;

static unsigned long	 n_kept, n_repaired, n_unrepaired, n_segs,
			 n_msgs, n_acks, n_failed, n_dropped, n_noslot;

/* The next definition of NAME after this library (dlsym RTLD_NEXT). */
static void *
next_fn(const char *name, void **slot)
{
	if (*slot == NULL)
		*slot = dlsym(RTLD_NEXT, name);
	return *slot;
}

static void	*p_read, *p_recv, *p_send;
#define next_read()	((read_fn)next_fn("read", &p_read))
#define next_recv()	((recv_fn)next_fn("umad_recv", &p_recv))
#define next_send()	((send_fn)next_fn("umad_send", &p_send))

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int
is_sa_answer(const uint8_t *mad)
{
	return mad[1] == SA_CLASS && (mad[3] & 0x80) != 0;
}

static int
is_segment(const uint8_t *mad)
{
	/* RMPPVersion 1, RMPPType DATA, RMPPFlags Active. */
	return is_sa_answer(mad) && mad[24] == 1 && mad[25] == 1 &&
	    (mad[26] & 0x1) != 0;
}

static void
key_of(const uint8_t *mad, uint8_t key[12])
{
	memcpy(key, mad + 8, 8);
	if (mad[24] == 1 && (mad[26] & 0x1) != 0)
		memcpy(key + 8, mad + 28, 4);
	else
		memset(key + 8, 0, 4);
}

/* umad2sim's receiver thread, reading one packet from ibsim. */
ssize_t
read(int fd, void *buf, size_t count)
{
	read_fn f = next_read();
	ssize_t n;
	const uint8_t *mad;
	struct kept *k;

	if (f == NULL) {
		errno = ENOSYS;
		return -1;
	}
	n = f(fd, buf, count);
	if (count != SIM_REQ || n != SIM_REQ)
		return n;
	mad = (const uint8_t *)buf + SIM_MAD_OFFS;
	if (!is_sa_answer(mad))
		return n;
	pthread_mutex_lock(&kept_mu);
	k = &kept[kept_next];
	kept_next = (kept_next + 1) % NKEEP;
	key_of(mad, k->key);
	memcpy(k->bytes, mad + LOST_FROM, LOST_LEN);
	k->used = 1;
	n_kept++;
	pthread_mutex_unlock(&kept_mu);
	return n;
}

/* Put back bytes 224-255 of a 256-byte SA answer, newest match first. */
static void
repair(uint8_t *mad)
{
	uint8_t key[12];
	size_t i, at;

	key_of(mad, key);
	pthread_mutex_lock(&kept_mu);
	for (i = 0; i < NKEEP; i++) {
		at = (kept_next + NKEEP - 1 - i) % NKEEP;
		/* Consumed ones may sit between (answers to two umad fds). */
		if (!kept[at].used)
			continue;
		if (memcmp(kept[at].key, key, sizeof(key)) == 0) {
			memcpy(mad + LOST_FROM, kept[at].bytes, LOST_LEN);
			kept[at].used = 0;	/* one MAD, one repair */
			n_repaired++;
			pthread_mutex_unlock(&kept_mu);
			return;
		}
	}
	n_unrepaired++;
	pthread_mutex_unlock(&kept_mu);
}

static void
send_ctl(int fd, int agent, const uint8_t *from_umad, const uint8_t *ctl)
{
	const ib_mad_addr_t *a = umad_get_mad_addr((void *)from_umad);
	uint8_t u[256 + 256];
	send_fn f = next_send();

	if (f == NULL || umad_size() > 256)
		return;
	memset(u, 0, umad_size());
	memcpy(u + umad_size(), ctl, RMPP_MAD);
	umad_set_addr(u, ntohs(a->lid), (int)ntohl(a->qpn), 0, SA_QKEY);
	if (f(fd, agent, u, RMPP_MAD, 0, 0) == 0 && ctl[25] == 2)
		n_acks++;
}

static struct xfer *
xfer_of(int fd, int agent, const uint8_t *mad)
{
	struct rmpp_rx_opts o = { MAX_MSG, WINDOW, NUDGES };
	uint8_t req[RMPP_MAD];
	struct xfer *free_slot = NULL;
	size_t i;

	for (i = 0; i < NXFER; i++) {
		if (!xfers[i].used) {
			if (free_slot == NULL)
				free_slot = &xfers[i];
			continue;
		}
		if (xfers[i].fd == fd &&
		    memcmp(xfers[i].rx.hdr + 12, mad + 12, 4) == 0 &&
		    xfers[i].rx.mgmt_class == mad[1] &&
		    xfers[i].rx.attr == (uint16_t)(mad[16] << 8 | mad[17]))
			return &xfers[i];
	}
	if (free_slot == NULL)
		return NULL;
	/* The request it answers: the same header, the R bit clear. */
	memset(req, 0, sizeof(req));
	memcpy(req, mad, 56);
	req[3] &= 0x7f;
	if (rmpp_rx_init(&free_slot->rx, &o, req) != 0)
		return NULL;
	memcpy(free_slot->rx.hdr, mad, 56);	/* matched on above */
	free_slot->used = 1;
	free_slot->fd = fd;
	free_slot->agent = agent;
	return free_slot;
}

static void
xfer_end(struct xfer *x)
{
	rmpp_rx_free(&x->rx);
	memset(x, 0, sizeof(*x));
}

/* Nudge transfers that went quiet; drop those given up on. */
static void
idle(int fd, const uint8_t *any_umad)
{
	uint8_t ctl[RMPP_MAD];
	uint64_t now = now_ms();
	unsigned r;
	size_t i;

	for (i = 0; i < NXFER; i++) {
		struct xfer *x = &xfers[i];

		if (!x->used || x->fd != fd)
			continue;
		if (now - x->last_ms > IDLE_DROP_MS) {
			n_dropped++;
			xfer_end(x);
			continue;
		}
		if (now - x->last_ms < (uint64_t)ack_ms || any_umad == NULL)
			continue;
		x->last_ms = now;
		r = rmpp_rx_timeout(&x->rx, ctl);
		if (r & RMPP_RX_SEND)
			send_ctl(fd, x->agent, any_umad, ctl);
		if (r & RMPP_RX_FAILED) {
			n_failed++;
			xfer_end(x);
		}
	}
}

/* Hand a message (umad header + MAD bytes) over, or keep it (-ENOSPC). */
static int
deliver(int fd, int agent, uint8_t *msg, int len, void *umad, int *length)
{
	if (*length < len) {
		if (pend != msg) {
			free(pend);
			pend = msg;
		}
		pend_len = len;
		pend_fd = fd;
		pend_agent = agent;
		*length = len;
		errno = ENOSPC;	/* what callers test (libibumad sets it) */
		return -ENOSPC;
	}
	memcpy(umad, msg, umad_size() + (size_t)len);
	*length = len;
	if (pend == msg)
		pend = NULL;
	free(msg);
	return agent;
}

int
umad_recv(int fd, void *umad, int *length, int timeout_ms)
{
	static uint8_t last_umad[256 + RMPP_MAD];
	static int have_last;
	uint8_t ctl[RMPP_MAD];
	recv_fn f = next_recv();
	uint64_t end = timeout_ms < 0 ? 0 : now_ms() + (uint64_t)timeout_ms;
	struct xfer *x;
	uint8_t *buf, *mad, *msg;
	int n, len, left;
	unsigned r;

	if (f == NULL || umad_size() > 256) {
		errno = EIO;
		return -EIO;
	}
	if (pend != NULL && pend_fd == fd)
		return deliver(fd, pend_agent, pend, pend_len, umad, length);
	if ((buf = malloc(umad_size() + RMPP_MAD)) == NULL) {
		errno = ENOMEM;
		return -ENOMEM;
	}
	for (;;) {
		left = timeout_ms;
		if (timeout_ms > 0) {
			uint64_t now = now_ms();

			left = now >= end ? 0 : (int)(end - now);
			/* Wake up for the transfers' own timers. */
			if (left > ack_ms)
				left = (int)ack_ms;
		}
		len = RMPP_MAD;
		n = f(fd, buf, &len, left);
		idle(fd, have_last ? last_umad : NULL);
		if (n == -ETIMEDOUT || n == -EAGAIN) {
			if (timeout_ms > 0 && now_ms() < end)
				continue;
			free(buf);
			return n;
		}
		if (n < 0 || len < 0) {
			free(buf);
			return n;
		}
		mad = buf + umad_size();
		if (len == RMPP_MAD && is_sa_answer(mad))
			repair(mad);
		if (len < 36 || !is_segment(mad)) {
			/* Not ours: as it came. */
			if (*length < len) {
				msg = realloc(buf, umad_size() + (size_t)len);
				return deliver(fd, n, msg != NULL ? msg : buf,
				    len, umad, length);
			}
			memcpy(umad, buf, umad_size() + (size_t)len);
			*length = len;
			free(buf);
			return n;
		}
		memcpy(last_umad, buf, umad_size());
		have_last = 1;
		n_segs++;
		if ((x = xfer_of(fd, n, mad)) == NULL) {
			n_noslot++;
			continue;
		}
		x->last_ms = now_ms();
		r = rmpp_rx_feed(&x->rx, mad, (size_t)len, ctl);
		if (r & RMPP_RX_SEND)
			send_ctl(fd, x->agent, buf, ctl);
		if (r & RMPP_RX_FAILED) {
			n_failed++;
			xfer_end(x);
			continue;
		}
		if (!(r & RMPP_RX_DONE))
			continue;
		/* Whole: the last segment's umad header, then the message. */
		len = (int)x->rx.len;
		msg = malloc(umad_size() + x->rx.len);
		if (msg != NULL) {
			memcpy(msg, buf, umad_size());
			memcpy(msg + umad_size(), x->rx.buf, x->rx.len);
			((struct ib_user_mad *)(void *)msg)->length =
			    (uint32_t)(umad_size() + x->rx.len);
		}
		n = x->agent;
		xfer_end(x);
		if (msg == NULL) {
			free(buf);
			errno = ENOMEM;
			return -ENOMEM;
		}
		free(buf);
		n_msgs++;
		return deliver(fd, n, msg, len, umad, length);
	}
}

__attribute__((constructor)) static void
init(void)
{
	const char *s = getenv("RMPPRECV_ACK_MS");
	char *end;
	long v;

	if (s == NULL)
		return;
	v = strtol(s, &end, 10);
	if (*s != '\0' && *end == '\0' && v > 0 && v < 60000)
		ack_ms = v;
}

__attribute__((destructor)) static void
fini(void)
{
	const char *path = getenv("RMPPRECV_LOG");
	FILE *fp;

	if (path == NULL || (fp = fopen(path, "a")) == NULL)
		return;
	fprintf(fp, "rmpprecv pid %ld: messages %lu segments %lu acks %lu "
	    "failed %lu dropped %lu noslot %lu | bytes 224-255 kept %lu "
	    "repaired %lu unrepaired %lu\n", (long)getpid(), n_msgs, n_segs,
	    n_acks, n_failed, n_dropped, n_noslot, n_kept, n_repaired,
	    n_unrepaired);
	fclose(fp);
}
