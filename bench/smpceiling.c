/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smpceiling: how many SMPs per second the fabric (for `make bench`: the
 * simulator) answers to one client that keeps many in flight, the ceiling
 * against which fabaudit's own SMP rate is judged.
 *
 *   smpceiling [-C ca] [-P port] [-n count] [-w window] [-m per_dest]
 *              [-t timeout_ms] [-a nodeinfo|portinfo] [-d disc_window]
 *
 * 1. Discovers the fabric with libibnetdisc (window -d, default 32) and
 *    takes every switch's LID (port 0) and every CA port's LID as targets.
 * 2. Sends `count` (default 100000) LID-routed SubnGet(NodeInfo) (or
 *    PortInfo: port 0 of a switch, the CA's port) round-robin over the
 *    targets, at most `window` (default 64) in flight and at most
 *    `per_dest` (default 2) to one target, refilling as answers arrive.
 *    libibmad encodes (mad_build_pkt), libibumad sends and receives.
 * 3. Prints one line of key=value pairs on stdout; rate is answers per
 *    second between the first send and the last answer.
 *
 * Matching: answers are matched on the low 32 bits of the TID, since
 * umad2sim writes its agent id into bits 32-47 (as libibmad and
 * libibnetdisc match).  Timing out: umad2sim never times a send out, so
 * besides the kernel timeout passed to umad_send() a request has its own
 * deadline; one that passes it counts as lost and frees its slot.  Only
 * Gets are sent (IBA vol. 1 14.2.5: NodeInfo 0x0011, PortInfo 0x0015).
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#define MAX_WINDOW	1024

struct target {
	uint16_t	lid;
	uint8_t		port;	/* PortInfo attribute modifier */
	unsigned	inflight;
};

struct slot {
	int		busy;
	uint32_t	tid;
	unsigned	target;
	double		deadline;
};

struct ctx {
	struct target	*t;
	size_t		 nt, cap;
	unsigned	 nsw, nca;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
usage(void)
{
	fprintf(stderr, "usage: smpceiling [-C ca] [-P port] [-n count] "
	    "[-w window] [-m per_dest]\n"
	    "                  [-t timeout_ms] [-a nodeinfo|portinfo] "
	    "[-d disc_window]\n");
	exit(2);
}

static unsigned long
num(const char *opt, const char *s, unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "smpceiling: %s %s: not in %lu..%lu\n", opt, s,
		    min, max);
		exit(2);
	}
	return v;
}

static void
add(struct ctx *c, uint16_t lid, uint8_t port)
{
	struct target *n;

	if (lid == 0 || lid >= 0xc000)	/* unassigned or multicast */
		return;
	if (c->nt == c->cap) {
		c->cap = c->cap != 0 ? c->cap * 2 : 1024;
		if ((n = realloc(c->t, c->cap * sizeof(*n))) == NULL) {
			fprintf(stderr, "smpceiling: out of memory\n");
			exit(1);
		}
		c->t = n;
	}
	c->t[c->nt].lid = lid;
	c->t[c->nt].port = port;
	c->t[c->nt].inflight = 0;
	c->nt++;
}

static void
node_cb(ibnd_node_t *n, void *arg)
{
	struct ctx *c = arg;
	ibnd_port_t *p;
	int i;

	if (n->type == IB_NODE_SWITCH) {
		add(c, n->smalid, 0);
		c->nsw++;
		return;
	}
	for (i = 1; i <= n->numports; i++) {
		if ((p = n->ports[i]) == NULL)
			continue;
		add(c, (uint16_t)p->base_lid, (uint8_t)i);
		c->nca++;
	}
}

int
main(int argc, char *argv[])
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct ibnd_config cfg;
	struct ibmad_port *mp;
	ibnd_fabric_t *fab;
	struct ctx c;
	struct slot *slots;
	ib_rpc_t rpc;
	ib_portid_t dport;
	void *sbuf, *rbuf;
	const char *ca = NULL;
	double t0, t1, td, tnow, next;
	unsigned long count = 100000, window = 64, per_dest = 2, tmo = 1000;
	unsigned long disc = 32, sent = 0, answered = 0, errs = 0, lost = 0;
	unsigned long stray = 0, done = 0;
	unsigned attr = IB_ATTR_NODE_INFO, cursor = 0, i, k;
	uint32_t tidseq = 1, tid;
	int port = 0, fd, agent, ch, len, n, wait, disc_smps;

	while ((ch = getopt(argc, argv, "C:P:a:d:m:n:t:w:")) != -1) {
		switch (ch) {
		case 'C': ca = optarg; break;
		case 'P': port = (int)num("-P", optarg, 0, 254); break;
		case 'a':
			if (strcmp(optarg, "nodeinfo") == 0)
				attr = IB_ATTR_NODE_INFO;
			else if (strcmp(optarg, "portinfo") == 0)
				attr = IB_ATTR_PORT_INFO;
			else
				usage();
			break;
		case 'd': disc = num("-d", optarg, 1, 256); break;
		case 'm': per_dest = num("-m", optarg, 1, MAX_WINDOW); break;
		case 'n': count = num("-n", optarg, 1, 100000000); break;
		case 't': tmo = num("-t", optarg, 1, 60000); break;
		case 'w': window = num("-w", optarg, 1, MAX_WINDOW); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();

	memset(&c, 0, sizeof(c));
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_smps = (unsigned)disc;
	td = now();
	if ((fab = ibnd_discover_fabric((char *)ca, port, NULL, &cfg)) ==
	    NULL) {
		fprintf(stderr, "smpceiling: discovery failed\n");
		return 1;
	}
	td = now() - td;
	ibnd_iter_nodes(fab, node_cb, &c);
	disc_smps = fab->total_mads_used;
	ibnd_destroy_fabric(fab);
	if (c.nt == 0) {
		fprintf(stderr, "smpceiling: no target with a LID\n");
		return 1;
	}

	if ((mp = mad_rpc_open_port((char *)ca, port, classes, 2)) == NULL) {
		fprintf(stderr, "smpceiling: cannot open the umad port\n");
		return 1;
	}
	fd = mad_rpc_portid(mp);
	agent = mad_rpc_class_agent(mp, IB_SMI_CLASS);
	slots = calloc(window, sizeof(*slots));
	sbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	rbuf = calloc(1, umad_size() + IB_MAD_SIZE);
	if (slots == NULL || sbuf == NULL || rbuf == NULL || agent < 0) {
		fprintf(stderr, "smpceiling: setup failed\n");
		return 1;
	}

	t0 = now();
	while (done < count) {
		/* Fill the window, round-robin, per-target cap. */
		for (i = 0; i < window && sent < count; i++) {
			if (slots[i].busy)
				continue;
			for (k = 0; k < c.nt; k++) {
				if (c.t[(cursor + k) % c.nt].inflight <
				    per_dest)
					break;
			}
			if (k == c.nt)
				break;	/* every target at its cap */
			cursor = (cursor + k) % c.nt;
			memset(&rpc, 0, sizeof(rpc));
			memset(&dport, 0, sizeof(dport));
			rpc.mgtclass = IB_SMI_CLASS;
			rpc.method = IB_MAD_METHOD_GET;
			rpc.attr.id = attr;
			rpc.attr.mod = attr == IB_ATTR_PORT_INFO ?
			    c.t[cursor].port : 0;
			rpc.timeout = (int)tmo;
			rpc.dataoffs = IB_SMP_DATA_OFFS;
			rpc.datasz = IB_SMP_DATA_SIZE;
			tid = tidseq++;
			if (tidseq == 0)
				tidseq = 1;
			rpc.trid = tid;
			dport.lid = c.t[cursor].lid;
			memset(sbuf, 0, umad_size() + IB_MAD_SIZE);
			if ((len = mad_build_pkt(sbuf, &rpc, &dport, NULL,
			    NULL)) < 0 || umad_send(fd, agent, sbuf, len,
			    (int)tmo, 0) < 0) {
				fprintf(stderr, "smpceiling: send failed\n");
				return 1;
			}
			slots[i].busy = 1;
			slots[i].tid = tid;
			slots[i].target = cursor;
			slots[i].deadline = now() + (double)tmo / 1000.0;
			c.t[cursor].inflight++;
			sent++;
			cursor = (cursor + 1) % (unsigned)c.nt;
		}
		/* Wait for one answer, at most until the next deadline. */
		tnow = now();
		next = tnow + 1.0;
		for (i = 0; i < window; i++)
			if (slots[i].busy && slots[i].deadline < next)
				next = slots[i].deadline;
		wait = next > tnow ? (int)((next - tnow) * 1000.0) + 1 : 1;
		len = IB_MAD_SIZE;
		n = umad_recv(fd, rbuf, &len, wait);
		if (n >= 0) {
			tid = (uint32_t)mad_get_field64(umad_get_mad(rbuf), 0,
			    IB_MAD_TRID_F);
			for (i = 0; i < window; i++)
				if (slots[i].busy && slots[i].tid == tid)
					break;
			if (i == window)
				stray++;
			else {
				slots[i].busy = 0;
				c.t[slots[i].target].inflight--;
				done++;
				if (umad_status(rbuf) != 0)
					lost++;	/* the kernel timed it out */
				else {
					answered++;
					if (mad_get_field(umad_get_mad(rbuf),
					    0, IB_MAD_STATUS_F) != 0)
						errs++;
				}
			}
		} else if (n != -ETIMEDOUT && n != -EAGAIN && n != -EINTR) {
			fprintf(stderr, "smpceiling: receive failed (%d)\n", n);
			return 1;
		}
		tnow = now();
		for (i = 0; i < window; i++) {
			if (!slots[i].busy || slots[i].deadline > tnow)
				continue;
			slots[i].busy = 0;
			c.t[slots[i].target].inflight--;
			done++;
			lost++;
		}
	}
	t1 = now();
	printf("targets=%zu switches=%u ca_ports=%u disc_smps=%d "
	    "disc_wall=%.3f attr=%s window=%lu per_dest=%lu sent=%lu "
	    "answered=%lu status_errors=%lu lost=%lu stray=%lu wall=%.6f "
	    "rate=%.0f\n", c.nt, c.nsw, c.nca, disc_smps, td,
	    attr == IB_ATTR_NODE_INFO ? "nodeinfo" : "portinfo", window,
	    per_dest, sent, answered, errs, lost, stray, t1 - t0,
	    t1 > t0 ? (double)answered / (t1 - t0) : 0.0);
	mad_rpc_close_port(mp);
	free(slots);
	free(sbuf);
	free(rbuf);
	free(c.t);
	return answered > 0 ? 0 : 1;
}
