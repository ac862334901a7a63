/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * librmppsim.so: the RMPP sender of the SA host's kernel, for the
 * simulator.  Preloaded into opensm IN FRONT OF libumad2sim.so:
 *
 *   LD_PRELOAD="bench/rmpp/librmppsim.so .../libumad2sim.so" opensm ...
 *
 * Why: OpenSM's ibumad vendor layer leaves RMPP to the kernel (it writes
 * a whole GetTable answer, RMPPFlags = Active, in one umad write, and the
 * kernel's MAD layer cuts it into segments and runs the window).
 * umad2sim has no kernel behind it: it copies the first 256 bytes of the
 * write into one ibsim packet and drops the rest (README, question 1).
 * This shim does what the kernel would, after IBA vol. 1 13.6 (sender):
 *
 *  - an Active SA send from opensm becomes DATA segments 1..N of 256
 *    bytes, each repeating the 56-byte header (common, RMPP, SA), 200
 *    bytes of data each; RMPPVersion 1, type DATA, First on 1, Last on N,
 *    PayloadLength = N * 220 - pad on the first, 220 - pad on the last
 *    (counted from the end of the RMPP header, so the 20 bytes of SA
 *    header count), 0 in between;
 *  - the first window is segment 1 only; each ACK (type 2, R bit clear,
 *    same TID) moves the window to its NewWindowLast and the shim sends
 *    up to it; an ACK of N ends the transfer; STOP/ABORT end it too;
 *  - no ACK for RMPPSIM_ACK_MS (default 2000, the kernel's figure): go
 *    back and resend from the last acknowledged segment + 1, at most
 *    RMPPSIM_RETRIES (3) times, then give up;
 *  - ACK/STOP/ABORT MADs are never handed to opensm (a kernel consumes
 *    them; umad2sim would deliver them as new GetTable queries);
 *  - unlike a kernel, it does not wait for the final ACK of a ONE-segment
 *    answer (RMPPSIM_WAIT_ONE=1 does): in the simulator a client that
 *    exits right after its answer (saquery) loses its last MAD now and
 *    then (ibsim can take the client's disconnect before its data), and
 *    the resends would reach the next process on that port; one stray
 *    arriving while a process exits deadlocks umad2sim's exit (its
 *    cleanup joins the receiver thread while holding the lock that thread
 *    waits for).
 *
 * Fault injection for the receiver under test (each a comma list of
 * segment numbers, applied to the first transmission only):
 *   RMPPSIM_DROP  segments not sent;   RMPPSIM_DUP  sent twice;
 *   RMPPSIM_SWAP  segment k sent after k+1 (within a window).
 * RMPPSIM_LOG=FILE appends one line per transfer (segments, ACKs,
 * retransmissions) and the totals at exit; RMPPSIM_DUMP=DIR writes each
 * whole message opensm handed over (DIR/msg-TID.bin).
 *
 * It relies on umad2sim's numbering (umad device fds are 1024..2047) and
 * calls umad2sim's read/write/poll through RTLD_NEXT.  A test tool, not
 * part of fabaudit.
 */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#define MAD		256
#define HDR		56	/* common 24 + RMPP 12 + SA 20 */
#define SEG_DATA	200
#define RMPP_PAY	220	/* bytes after the RMPP header, per segment */
#define MAX_XFER	64
#define MAX_MSG		(64u * 1024 * 1024)
#define MAX_FAULTS	32

struct xfer {
	int		 used, fd;
	uint64_t	 tid;
	uint8_t		*msg;		/* the whole message opensm wrote */
	size_t		 len;
	uint8_t		 uhdr[128];	/* its umad header */
	uint32_t	 nseg, sent, last_ack, newwin;
	unsigned	 retries;
	uint64_t	 deadline_us;
	unsigned long	 segs_sent, acks, resends;
};

static ssize_t	(*next_read)(int, void *, size_t);
static ssize_t	(*next_write)(int, const void *, size_t);
static int	(*next_poll)(struct pollfd *, nfds_t, int);

static pthread_mutex_t	 mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t	 once = PTHREAD_ONCE_INIT;
static struct xfer	 xf[MAX_XFER];
static unsigned		 ack_ms = 2000, max_retries = 3, wait_one;
static uint32_t		 f_drop[MAX_FAULTS], f_dup[MAX_FAULTS],
			 f_swap[MAX_FAULTS];
static unsigned		 n_drop, n_dup, n_swap;
static FILE		*logf_;
static unsigned long	 t_xfers, t_segs, t_acks, t_resends, t_ctl_other,
			 t_giveup;

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static uint64_t
rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) << 32 | rd32(p + 4);
}

static void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void logmsg(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static void
logmsg(const char *fmt, ...)
{
	va_list ap;

	if (logf_ == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(logf_, fmt, ap);
	va_end(ap);
	fflush(logf_);
}

static unsigned
parse_list(const char *env, uint32_t *out)
{
	const char *s = getenv(env);
	char *end;
	unsigned n = 0;
	unsigned long v;

	while (s != NULL && *s != '\0' && n < MAX_FAULTS) {
		v = strtoul(s, &end, 10);
		if (end == s)
			break;
		out[n++] = (uint32_t)v;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static int
in_list(const uint32_t *l, unsigned n, uint32_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (l[i] == v)
			return 1;
	return 0;
}

static void *timer_main(void *);

static void
init(void)
{
	const char *s;
	pthread_t t;

	next_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	next_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT,
	    "write");
	next_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT,
	    "poll");
	if ((s = getenv("RMPPSIM_ACK_MS")) != NULL)
		ack_ms = (unsigned)strtoul(s, NULL, 10);
	if ((s = getenv("RMPPSIM_RETRIES")) != NULL)
		max_retries = (unsigned)strtoul(s, NULL, 10);
	wait_one = (s = getenv("RMPPSIM_WAIT_ONE")) != NULL && *s == '1';
	n_drop = parse_list("RMPPSIM_DROP", f_drop);
	n_dup = parse_list("RMPPSIM_DUP", f_dup);
	n_swap = parse_list("RMPPSIM_SWAP", f_swap);
	if ((s = getenv("RMPPSIM_LOG")) != NULL)
		logf_ = fopen(s, "a");
	if (pthread_create(&t, NULL, timer_main, NULL) == 0)
		pthread_detach(t);
}

static int
umad_fd(int fd)
{
	return fd >= 1024 && fd < 2048;	/* umad2sim's umad device fds */
}

/* Segment `k` (1-based) of x into out[MAD]. */
static void
build_seg(const struct xfer *x, uint32_t k, uint8_t *out)
{
	size_t off = HDR + (size_t)(k - 1) * SEG_DATA, n;
	uint32_t pad, paylen = 0;

	memset(out, 0, MAD);
	memcpy(out, x->msg, HDR);
	n = x->len > off ? x->len - off : 0;
	if (n > SEG_DATA)
		n = SEG_DATA;
	memcpy(out + HDR, x->msg + off, n);
	/* pad: unused bytes of the last segment's 200. */
	pad = (uint32_t)((size_t)x->nseg * SEG_DATA - (x->len - HDR));
	out[24] = 1;			/* RMPPVersion */
	out[25] = 1;			/* DATA */
	out[26] = (uint8_t)((x->msg[26] & 0xf8) | 0x01);
	out[27] = 0;
	if (k == 1) {
		out[26] |= 0x02;
		paylen = x->nseg * RMPP_PAY - pad;
	}
	if (k == x->nseg) {
		out[26] |= 0x04;
		paylen = RMPP_PAY - pad;
	}
	wr32(out + 28, k);
	wr32(out + 32, paylen);
}

static void
send_seg(struct xfer *x, uint32_t k)
{
	uint8_t buf[128 + MAD];
	size_t uh = umad_size();

	memcpy(buf, x->uhdr, uh);
	build_seg(x, k, buf + uh);
	(void)next_write(x->fd, buf, uh + MAD);
	x->segs_sent++;
	t_segs++;
}

/* Send what the window allows; first transmissions get the faults. */
static void
pump(struct xfer *x, int first)
{
	uint32_t lim = x->newwin < x->nseg ? x->newwin : x->nseg, k;

	/* Nothing new to send (a repeated ACK): the timer keeps running,
	 * as a kernel's does, so a lost segment is resent on time. */
	if (lim <= x->sent)
		return;

	for (k = x->sent + 1; k <= lim; k++) {
		if (first && in_list(f_drop, n_drop, k)) {
			logmsg("tid 0x%016llx seg %u dropped (fault)\n",
			    (unsigned long long)x->tid, k);
			continue;
		}
		if (first && k < lim && in_list(f_swap, n_swap, k)) {
			send_seg(x, k + 1);
			send_seg(x, k);
			k++;
			continue;
		}
		send_seg(x, k);
		if (first && in_list(f_dup, n_dup, k))
			send_seg(x, k);
	}
	x->sent = lim;
	x->deadline_us = now_us() + (uint64_t)ack_ms * 1000;
}

static void
finish(struct xfer *x, const char *why)
{
	logmsg("tid 0x%016llx %s: %zu bytes, %u segments, %lu sent, "
	    "%lu ACKs, %lu resends\n", (unsigned long long)x->tid, why,
	    x->len, x->nseg, x->segs_sent, x->acks, x->resends);
	free(x->msg);
	memset(x, 0, sizeof(*x));
}

static void *
timer_main(void *arg)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	uint64_t now;
	unsigned i;

	(void)arg;
	for (;;) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&mu);
		now = now_us();
		for (i = 0; i < MAX_XFER; i++) {
			struct xfer *x = &xf[i];

			if (!x->used || now < x->deadline_us)
				continue;
			if (x->retries >= max_retries) {
				t_giveup++;
				finish(x, "no ACK, gave up");
				continue;
			}
			/* Go back to the last acknowledged segment. */
			x->retries++;
			x->resends++;
			t_resends++;
			x->sent = x->last_ack;
			if (x->newwin <= x->last_ack)
				x->newwin = x->last_ack + 1;
			pump(x, 0);
		}
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static int
start(int fd, const uint8_t *buf, size_t count)
{
	size_t uh = umad_size(), len = count - uh;
	const uint8_t *mad = buf + uh;
	struct xfer *x = NULL;
	unsigned i;

	if (len > MAX_MSG || uh > sizeof(x->uhdr))
		return -1;
	pthread_mutex_lock(&mu);
	/* A new answer under the TID of an unfinished one: the old one is
	 * over (its receiver went away). */
	for (i = 0; i < MAX_XFER; i++)
		if (xf[i].used && xf[i].tid == rd64(mad + 8))
			finish(&xf[i], "superseded by a new answer, same TID");
	for (i = 0; i < MAX_XFER; i++)
		if (!xf[i].used) {
			x = &xf[i];
			break;
		}
	if (x == NULL || (x->msg = malloc(len < HDR ? HDR : len)) == NULL) {
		pthread_mutex_unlock(&mu);
		return -1;
	}
	memset(x->msg, 0, len < HDR ? HDR : len);
	memcpy(x->msg, mad, len);
	x->len = len < HDR ? HDR : len;
	if (getenv("RMPPSIM_DUMP") != NULL) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/msg-%016llx.bin",
		    getenv("RMPPSIM_DUMP"), (unsigned long long)rd64(mad + 8));
		if ((f = fopen(path, "w")) != NULL) {
			fwrite(mad, 1, len, f);
			fclose(f);
		}
	}
	memcpy(x->uhdr, buf, uh);
	x->used = 1;
	x->fd = fd;
	x->tid = rd64(mad + 8);
	x->nseg = (uint32_t)((x->len - HDR + SEG_DATA - 1) / SEG_DATA);
	if (x->nseg == 0)
		x->nseg = 1;
	x->newwin = 1;		/* the sender's first window (13.6.3) */
	t_xfers++;
	logmsg("tid 0x%016llx start: %zu bytes, %u segments\n",
	    (unsigned long long)x->tid, x->len, x->nseg);
	pump(x, 1);
	/* See the top of the file: a one-segment answer is not kept. */
	if (x->nseg == 1 && !wait_one && n_drop + n_dup + n_swap == 0)
		finish(x, "one segment, sent");
	pthread_mutex_unlock(&mu);
	return 0;
}

/* An ACK, STOP or ABORT from the receiver; never reaches opensm. */
static void
control(const uint8_t *mad)
{
	uint64_t tid = rd64(mad + 8);
	uint32_t seg = rd32(mad + 28), nwl = rd32(mad + 32);
	struct xfer *x = NULL;
	unsigned i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < MAX_XFER; i++)
		if (xf[i].used && xf[i].tid == tid) {
			x = &xf[i];
			break;
		}
	if (x == NULL) {
		t_ctl_other++;
		logmsg("tid 0x%016llx type %u seg %u: no such transfer\n",
		    (unsigned long long)tid, mad[25], seg);
		pthread_mutex_unlock(&mu);
		return;
	}
	if (mad[25] != 2) {
		finish(x, mad[25] == 3 ? "STOP from receiver" :
		    "ABORT from receiver");
		pthread_mutex_unlock(&mu);
		return;
	}
	x->acks++;
	t_acks++;
	/* An ACK beyond what was sent or a window below its segment: the
	 * kernel aborts (S2B, W2S); here: log and end. */
	if (seg > x->nseg || nwl < seg) {
		finish(x, "bad ACK");
		pthread_mutex_unlock(&mu);
		return;
	}
	if (seg > x->last_ack) {
		x->last_ack = seg;
		x->retries = 0;
		x->deadline_us = now_us() + (uint64_t)ack_ms * 1000;
	}
	if (nwl > x->newwin)
		x->newwin = nwl;
	if (x->last_ack == x->nseg)
		finish(x, "complete");
	else
		pump(x, 1);
	pthread_mutex_unlock(&mu);
}

static int
is_rmpp_send(const uint8_t *mad, size_t len)
{
	/* An SA response with RMPPFlags.Active: what the kernel segments. */
	return len >= 36 && mad[1] == 0x03 && (mad[3] & 0x80) &&
	    (mad[26] & 0x01);
}

static int
is_rmpp_ctl(const uint8_t *mad, size_t len)
{
	return len >= 36 && mad[1] == 0x03 && !(mad[3] & 0x80) &&
	    (mad[26] & 0x01) && mad[25] >= 2 && mad[25] <= 4;
}

ssize_t
write(int fd, const void *buf, size_t count)
{
	size_t uh;

	pthread_once(&once, init);
	uh = umad_size();
	if (umad_fd(fd) && count > uh &&
	    is_rmpp_send((const uint8_t *)buf + uh, count - uh) &&
	    start(fd, buf, count) == 0)
		return (ssize_t)count;
	return next_write(fd, buf, count);
}

ssize_t
read(int fd, void *buf, size_t count)
{
	struct pollfd pf;
	ssize_t n;
	size_t uh;

	pthread_once(&once, init);
	uh = umad_size();
	for (;;) {
		n = next_read(fd, buf, count);
		if (!umad_fd(fd) || n <= (ssize_t)uh ||
		    !is_rmpp_ctl((uint8_t *)buf + uh, (size_t)n - uh))
			return n;
		control((uint8_t *)buf + uh);
		/* Swallowed: wait for the next MAD as umad_recv(-1) would. */
		pf.fd = fd;
		pf.events = POLLIN;
		pf.revents = 0;
		if (next_poll(&pf, 1, -1) < 0)
			return -1;
	}
}

__attribute__((destructor)) static void
report(void)
{
	logmsg("totals: %lu transfers, %lu segments sent, %lu ACKs, "
	    "%lu go-backs, %lu gave up, %lu control MADs for no transfer\n",
	    t_xfers, t_segs, t_acks, t_resends, t_giveup, t_ctl_other);
}
