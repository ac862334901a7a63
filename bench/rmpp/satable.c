/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * satable: questions 2 and 3 of issue 7.  Reads an SA table two ways and
 * counts what it costs:
 *
 *   satable -m table   [-q pr|pr-sgid|nr] ...   one GetTable, the answer
 *                      reassembled from RMPP segments by rmpp_rx (ACKs
 *                      sent as the window fills)
 *   satable -m perport [-L FILE] [-i N] ...      one PathRecord GetTable
 *                      per destination LID (SLID = ours, DLID = it), N in
 *                      flight (fabaudit today: 1, per_dest)
 *
 * Options: -W window (segments per ACK, default 64), -M bytes (bound on
 * one answer, default 16 MiB), -t ms (answer timeout, default 500), -T ms
 * (silence inside a transfer before a re-ACK, default 2500: longer than
 * the 2 s a kernel sender waits before it resends), -R retries (of the
 * request, and re-ACKs before ABORT; default 3), -r rmpp_version the agent registers with
 * (default 0: user-space RMPP), -L file of destination LIDs (default:
 * every CA LID but ours, from a NodeRecord table read first, untimed),
 * -d file: the records, one per line, sorted (PathRecord: DLID, P_Key,
 * SL, MTU, rate, packet life, reversible; NodeRecord: LID, type, GUID,
 * description).
 *
 * -n N repeats the measured part N times (default 1) and prints the median
 * time (with min and max).
 *
 * SATABLE_RAW=FILE: the first transfer's reassembled answer, raw (bench.sh
 * compares it with what opensm wrote).
 *
 * Prints one "result:" line: records, MADs sent (requests, ACKs), MADs
 * received (segments, duplicates, strays), wall time.  A prototype.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmpp_rx.h"
#include "sa.h"

#define PR_COMP_SGID	(1ull << 3)
#define PR_COMP_DLID	(1ull << 4)
#define PR_COMP_SLID	(1ull << 5)
#define MAX_INFLIGHT	256

struct xfer {
	struct rmpp_rx	 rx;
	uint8_t		 req[SA_MAD_SIZE];
	uint64_t	 deadline;
	unsigned	 sends;
	int		 busy, done, failed;
	uint16_t	 dlid;
};

static struct sa_port	 P;
static unsigned		 window = 64, timeout_ms = 500, retries = 3,
			 rmpp_ms = 2500;
static size_t		 max_len = 16u * 1024 * 1024;
static uint32_t		 next_tid;
static unsigned long	 n_req, n_ack, n_ctl, n_seg, n_dup, n_stray,
			 n_fail;
static FILE		*dumpf;
static char		**lines;
static size_t		 nlines, caplines;

static void
usage(void)
{
	fprintf(stderr, "usage: satable -m table|perport [-q pr|pr-sgid|nr] "
	    "[-W n] [-M bytes] [-t ms] [-T ms] [-R n] [-r 0|1] [-i n] [-L file] "
	    "[-d file] [-n repeats]\n");
	exit(2);
}

static unsigned long
num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno != 0 || *s == '\0' || *end != '\0' || v > max)
		usage();
	return v;
}

static void
keep(const char *s)
{
	char **nl;

	if (nlines == caplines) {
		caplines = caplines ? caplines * 2 : 1024;
		if ((nl = realloc(lines, caplines * sizeof(*lines))) == NULL)
			exit(1);
		lines = nl;
	}
	if ((lines[nlines++] = strdup(s)) == NULL)
		exit(1);
}

static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Records of a finished transfer into lines[] (and the count). */
static unsigned
records(const struct rmpp_rx *rx, unsigned attr)
{
	unsigned off, n, i, k;
	const uint8_t *r;
	char line[256], desc[65];

	if (rx->len < SA_HDR_SIZE)
		return 0;
	off = be16_at(rx->buf + 44) * 8u;
	if (off == 0)
		return 0;
	n = (unsigned)((rx->len - SA_HDR_SIZE) / off);
	for (i = 0; i < n; i++) {
		r = rx->buf + SA_HDR_SIZE + (size_t)i * off;
		if (attr == ATTR_PATH_REC) {
			if (be16_at(r + 40) == 0)
				continue;	/* padding */
			snprintf(line, sizeof(line), "dlid %5u pkey 0x%04x "
			    "sl %2u mtu %u rate %2u life %2u rev %u",
			    be16_at(r + 40), be16_at(r + 50), r[53] & 0x0f,
			    r[54] & 0x3f, r[55] & 0x3f, r[56] & 0x3f,
			    r[49] >> 7);
		} else {
			memcpy(desc, r + 44, 64);
			desc[64] = '\0';
			for (k = 0; desc[k] != '\0'; k++)
				if (desc[k] < 0x20 || desc[k] > 0x7e)
					desc[k] = '?';
			snprintf(line, sizeof(line), "lid %5u type %u guid "
			    "0x%016llx desc %s", be16_at(r), r[6],
			    (unsigned long long)be64_at(r + 4 + 12), desc);
		}
		keep(line);
	}
	return n;
}

static void
send_req(struct xfer *x)
{
	struct rmpp_rx_opts o = { max_len, window, retries };

	/* A fresh TID per send: a late answer to an earlier one is stray. */
	put_be64(x->req + 8, ++next_tid);
	rmpp_rx_free(&x->rx);
	if (rmpp_rx_init(&x->rx, &o, x->req) != 0)
		exit(1);
	x->sends++;
	n_req++;
	if (sa_send(&P, x->req) != 0)
		fprintf(stderr, "satable: send failed\n");
	x->deadline = now_us() + (uint64_t)timeout_ms * 1000;
}

static void
ctl_send(const uint8_t *ctl)
{
	if (ctl[25] == RMPP_T_ACK)
		n_ack++;
	else
		n_ctl++;
	(void)sa_send(&P, ctl);
}

/* Run transfers xs[0..n) with at most `inflight` busy at a time. */
static void
run(struct xfer *xs, size_t n, unsigned inflight)
{
	uint8_t ctl[RMPP_MAD];
	const uint8_t *m;
	size_t next = 0, busy = 0, left = n, i;
	uint64_t now, soonest;
	unsigned r;
	int len, st, rc, wait;
	uint16_t slid;

	while (left > 0) {
		while (busy < inflight && next < n) {
			xs[next].busy = 1;
			send_req(&xs[next++]);
			busy++;
		}
		now = now_us();
		soonest = UINT64_MAX;
		for (i = 0; i < next; i++)
			if (xs[i].busy && xs[i].deadline < soonest)
				soonest = xs[i].deadline;
		wait = soonest > now ? (int)((soonest - now) / 1000) + 1 : 1;
		rc = sa_recv(&P, &m, &len, &st, &slid, wait);
		if (rc == 0) {
			uint32_t tid = be32_at(m + 12);

			for (i = 0; i < next; i++)
				if (xs[i].busy &&
				    be32_at(xs[i].req + 12) == tid)
					break;
			if (i == next || st != 0) {
				n_stray++;
				continue;
			}
			n_seg++;
			r = rmpp_rx_feed(&xs[i].rx, m, (size_t)len, ctl);
			if (r & RMPP_RX_DROPPED)
				n_dup++;
			if (r & RMPP_RX_SEND)
				ctl_send(ctl);
			if (!(r & RMPP_RX_DROPPED))
				xs[i].deadline = now_us() +
				    (uint64_t)rmpp_ms * 1000;
			if (r & (RMPP_RX_DONE | RMPP_RX_FAILED)) {
				xs[i].busy = 0;
				xs[i].done = (r & RMPP_RX_DONE) != 0;
				xs[i].failed = !xs[i].done;
				busy--;
				left--;
			}
		} else if (rc != -ETIMEDOUT && rc != -EAGAIN) {
			fprintf(stderr, "satable: receive error %d\n", rc);
			exit(1);
		}
		now = now_us();
		for (i = 0; i < next; i++) {
			struct xfer *x = &xs[i];

			if (!x->busy || x->deadline > now)
				continue;
			if (x->rx.state == RMPP_RX_WAITING) {
				if (x->sends <= retries) {
					send_req(x);
					continue;
				}
				x->failed = 1;
				x->rx.why = "no answer";
			} else {
				r = rmpp_rx_timeout(&x->rx, ctl);
				if (r & RMPP_RX_SEND)
					ctl_send(ctl);
				x->deadline = now +
				    (uint64_t)rmpp_ms * 1000;
				if (!(r & RMPP_RX_FAILED))
					continue;
				x->failed = 1;
			}
			x->busy = 0;
			busy--;
			left--;
		}
	}
	for (i = 0; i < n; i++)
		if (xs[i].failed) {
			n_fail++;
			fprintf(stderr, "satable: transfer %zu (DLID %u) "
			    "failed: %s\n", i, xs[i].dlid, xs[i].rx.why ?
			    xs[i].rx.why : "?");
		}
}

static void
build_table(struct xfer *x, const char *q)
{
	uint8_t rec[64];
	uint64_t mask = 0;
	unsigned attr = ATTR_PATH_REC;

	memset(rec, 0, sizeof(rec));
	if (strcmp(q, "pr") == 0) {
		put_be16(rec + 42, P.lid);
		mask = PR_COMP_SLID;
	} else if (strcmp(q, "pr-sgid") == 0) {
		put_be64(rec + 24, P.gid_prefix);
		put_be64(rec + 32, P.port_guid);
		mask = PR_COMP_SGID;
	} else if (strcmp(q, "nr") == 0)
		attr = ATTR_NODE_REC;
	else
		usage();
	sa_build(x->req, M_GETTABLE, attr, 0, mask, rec, sizeof(rec));
}

/* CA LIDs other than ours, from a NodeRecord table (untimed). */
static size_t
ca_lids(uint16_t *out, size_t max)
{
	struct xfer x;
	size_t n = 0, i, rl;
	unsigned off;

	memset(&x, 0, sizeof(x));
	build_table(&x, "nr");
	run(&x, 1, 1);
	if (!x.done || x.rx.unsegmented) {
		fprintf(stderr, "satable: no reassembled NodeRecord table "
		    "(is librmppsim.so in front of umad2sim in opensm?): "
		    "use -L\n");
		exit(1);
	}
	off = be16_at(x.rx.buf + 44) * 8u;
	rl = off ? (x.rx.len - SA_HDR_SIZE) / off : 0;
	for (i = 0; i < rl && n < max; i++) {
		const uint8_t *r = x.rx.buf + SA_HDR_SIZE + i * off;

		if (r[6] == 1 && be16_at(r) != P.lid && be16_at(r) != 0)
			out[n++] = be16_at(r);
	}
	rmpp_rx_free(&x.rx);
	return n;
}

int
main(int argc, char **argv)
{
	const char *mode = NULL, *q = "pr", *lidfile = NULL, *dump = NULL;
	static uint16_t lids[65536];
	struct xfer *xs;
	unsigned inflight = 1, rmppver = 0, recs = 0, nrep = 1, rep;
	double times[100];
	size_t nl = 0, i;
	uint64_t t0, t1;
	int c;

	while ((c = getopt(argc, argv, "m:q:W:M:t:T:R:r:i:L:d:n:")) != -1) {
		switch (c) {
		case 'm': mode = optarg; break;
		case 'q': q = optarg; break;
		case 'W': window = (unsigned)num(optarg, RMPP_WINDOW_MAX);
			break;
		case 'M': max_len = num(optarg, 1ul << 30); break;
		case 't': timeout_ms = (unsigned)num(optarg, 60000); break;
		case 'T': rmpp_ms = (unsigned)num(optarg, 600000); break;
		case 'R': retries = (unsigned)num(optarg, 100); break;
		case 'r': rmppver = (unsigned)num(optarg, 1); break;
		case 'i': inflight = (unsigned)num(optarg, MAX_INFLIGHT);
			break;
		case 'L': lidfile = optarg; break;
		case 'd': dump = optarg; break;
		case 'n': nrep = (unsigned)num(optarg, 100); break;
		default: usage();
		}
	}
	if (mode == NULL || window == 0 || inflight == 0 || nrep == 0)
		usage();
	/* TIDs distinct across runs: ibsim reuses client ids (bits 48-63)
	 * and the agent id (bits 32-47) is 0 each time. */
	next_tid = (uint32_t)(getpid() & 0x7fff) << 16;
	if (sa_open(&P, (int)rmppver) != 0) {
		fprintf(stderr, "satable: cannot open the port\n");
		return 1;
	}
	if (dump != NULL && (dumpf = fopen(dump, "w")) == NULL) {
		perror(dump);
		return 1;
	}
	if (strcmp(mode, "table") == 0) {
		if ((xs = calloc(1, sizeof(*xs))) == NULL)
			return 1;
		build_table(xs, q);
		nl = 1;
	} else if (strcmp(mode, "perport") == 0) {
		if (lidfile != NULL) {
			FILE *f = fopen(lidfile, "r");
			unsigned long v;
			char tok[32];

			if (f == NULL) {
				perror(lidfile);
				return 1;
			}
			/* One LID per line, decimal or 0x hex. */
			while (nl < 65536 && fscanf(f, "%31s", tok) == 1) {
				v = strtoul(tok, NULL, 0);
				if (v > 0 && v < 0xc000 && v != P.lid)
					lids[nl++] = (uint16_t)v;
			}
			fclose(f);
		} else
			nl = ca_lids(lids, 65536);
		n_req = n_ack = n_ctl = n_seg = n_dup = n_stray = 0;
		P.sent = P.received = 0;
		if ((xs = calloc(nl ? nl : 1, sizeof(*xs))) == NULL)
			return 1;
		for (i = 0; i < nl; i++) {
			uint8_t rec[64];

			memset(rec, 0, sizeof(rec));
			put_be16(rec + 40, lids[i]);
			put_be16(rec + 42, P.lid);
			sa_build(xs[i].req, M_GETTABLE, ATTR_PATH_REC, 0,
			    PR_COMP_SLID | PR_COMP_DLID, rec, sizeof(rec));
			xs[i].dlid = lids[i];
		}
		q = "pr";
	} else
		usage();
	/* Repeats: each a fresh set of transfers; the counts printed are
	 * those of the last, the times min/median/max of all. */
	for (rep = 0; rep < nrep; rep++) {
		if (rep > 0) {
			for (i = 0; i < nl; i++) {
				rmpp_rx_free(&xs[i].rx);
				xs[i].sends = 0;
				xs[i].done = xs[i].failed = xs[i].busy = 0;
			}
			n_req = n_ack = n_ctl = n_seg = n_dup = n_stray = 0;
			n_fail = 0;
			P.sent = P.received = 0;
		}
		t0 = now_us();
		run(xs, nl, inflight);
		t1 = now_us();
		times[rep] = (double)(t1 - t0) / 1000;
	}
	qsort(times, nrep, sizeof(times[0]), dcmp);
	for (i = 0; i < nl; i++)
		if (xs[i].done)
			recs += records(&xs[i].rx, strcmp(q, "nr") == 0 ?
			    ATTR_NODE_REC : ATTR_PATH_REC);
	if (getenv("SATABLE_RAW") != NULL && nl > 0 && xs[0].done) {
		FILE *f = fopen(getenv("SATABLE_RAW"), "w");

		if (f != NULL) {
			fwrite(xs[0].rx.buf, 1, xs[0].rx.len, f);
			fclose(f);
		}
	}
	qsort(lines, nlines, sizeof(*lines), cmp);
	for (i = 0; dumpf != NULL && i < nlines; i++)
		fprintf(dumpf, "%s\n", lines[i]);
	if (dumpf != NULL)
		fclose(dumpf);
	printf("result: mode %s query %s transfers %zu records %zu "
	    "(%u slots) window %u inflight %u | sent %lu (requests %lu, "
	    "ACKs %lu, STOP/ABORT %lu) received %lu (used %lu, dropped %lu, "
	    "stray %lu) | failed %lu unsegmented %d maybe_cut %d | "
	    "%.1f ms", mode, q, nl, nlines, recs, window, inflight,
	    P.sent, n_req, n_ack, n_ctl, P.received, n_seg - n_dup, n_dup,
	    n_stray, n_fail, nl ? xs[0].rx.unsegmented : 0,
	    nl ? xs[0].rx.maybe_cut : 0, times[nrep / 2]);
	if (nrep > 1)
		printf(" (median of %u; min %.1f, max %.1f)", nrep, times[0],
		    times[nrep - 1]);
	printf("\n");
	for (i = 0; i < nl; i++)
		rmpp_rx_free(&xs[i].rx);
	free(xs);
	/* ibsim drops what a client sent just before it disconnected: let
	 * the last ACK reach the sender before closing. */
	usleep(100 * 1000);
	sa_close(&P);
	return n_fail != 0;
}
