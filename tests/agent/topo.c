/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which node a MAD is for.  Rules are keyed by node GUID, MADs are
 * addressed by directed-route path or LID, so the agent keeps maps
 * DR path -> node, LID -> node and (node, port) -> neighbour, learnt
 *  - from the answers it forwards (NodeInfo: node and port GUID of the DR
 *    path or LID it was sent to, and the link it crossed last; PortInfo:
 *    the LID of a CA port or of switch port 0), and
 *  - when a MAD's destination is still unknown, from its own discovery:
 *    one breadth-first walk of the fabric with directed-route NodeInfo and
 *    PortInfo Gets from the local port (directed route, as ibnetdiscover),
 *    sent through a QP0 agent of its own and never shown to the caller
 *    (answers for the caller that arrive meanwhile are queued for it).
 * The walk is an oracle of the test bed: ibsim stores no M_Key, so it is
 * not itself subject to the scenario's rules.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#define MAX_NODES	1024
#define ORACLE_MS	1000
#define ORACLE_TID	0xfa9e0000u	/* low 32 bits of our TIDs: this | seq */

static struct ag_node nodes[MAX_NODES];
static int nnodes;
static int local_node = -1;
static int walked;		/* the discovery walk ran (once per process) */

struct pg { uint64_t guid; int node; };
static struct pg *pgs;		/* port GUID -> node */
static size_t npgs;

struct lm { uint16_t lid; int node; };
static struct lm *lids;
static size_t nlids;

struct lk { int node, port, peer, peer_port; };
static struct lk *links;
static size_t nlinks;

struct drm { struct ag_dest d; int node; };
static struct drm *drs;
static size_t ndrs;

struct fdst { int fd, agent, caller_agent; };
static struct fdst fds[32];
static int nfds;

static void *
grow(void *p, size_t *n, size_t size, size_t max)
{
	void *q;

	if (*n >= max)
		return NULL;
	if ((q = realloc(p, (*n + 1) * size)) == NULL)
		ag_die("out of memory");
	return q;
}

const struct ag_node *
ag_node(int idx)
{
	return idx >= 0 && idx < nnodes ? &nodes[idx] : NULL;
}

int
ag_node_has_guid(int idx, uint64_t guid)
{
	size_t i;

	if (idx < 0 || idx >= nnodes)
		return 0;
	if (nodes[idx].guid == guid)
		return 1;
	for (i = 0; i < npgs; i++)
		if (pgs[i].guid == guid && pgs[i].node == idx)
			return 1;
	return 0;
}

/* --- destinations ------------------------------------------------------ */

void
ag_dest_from_umad(void *umad, const uint8_t *mad, size_t len,
    struct ag_dest *d)
{
	ib_mad_addr_t *a = umad_get_mad_addr(umad);
	int i;

	memset(d, 0, sizeof(*d));
	d->lid = a != NULL ? ntohs(a->lid) : 0;
	if (len < 8 || mad[AG_O_CLASS] != AG_C_SMI_DR)
		return;
	d->dr = 1;
	d->drslid = len >= 36 ? ag_be16(mad + AG_O_DRSLID) : 0xffff;
	d->hops = mad[AG_O_HOPCNT];
	if (d->hops > AG_MAX_HOPS || len < (size_t)AG_O_IPATH + 1 +
	    (size_t)d->hops) {
		d->hops = -1;	/* malformed: resolves to nothing */
		return;
	}
	for (i = 1; i <= d->hops; i++)
		d->path[i] = mad[AG_O_IPATH + i];
}

void
ag_dest_lid(uint16_t lid, struct ag_dest *d)
{
	memset(d, 0, sizeof(*d));
	d->lid = lid;
}

char *
ag_dest_str(const struct ag_dest *d, char *buf, size_t n)
{
	size_t off;
	int i;

	if (!d->dr) {
		snprintf(buf, n, "LID:%u", d->lid);
		return buf;
	}
	if (d->hops < 0) {
		snprintf(buf, n, "DR:bad");
		return buf;
	}
	off = (size_t)snprintf(buf, n, "DR:%s", d->hops == 0 ? "0" : "");
	for (i = 1; i <= d->hops && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%u",
		    i > 1 ? "," : "", d->path[i]);
	return buf;
}

/* A DR path starts at the local port when DrSLID is the permissive LID
 * (libibmad sets DrSLID/DrDLID to 0xFFFF for pure DR, ib-security.md 1.1);
 * otherwise it is LID-routed to d->lid first. */
static int
dr_permissive(const struct ag_dest *d)
{
	return d->drslid == 0xffff || d->drslid == 0;
}

static int
dest_eq(const struct ag_dest *a, const struct ag_dest *b)
{
	if (a->dr != b->dr)
		return 0;
	if (!a->dr)
		return a->lid == b->lid;
	if (a->hops != b->hops || dr_permissive(a) != dr_permissive(b))
		return 0;
	if (!dr_permissive(a) && a->lid != b->lid)
		return 0;
	return a->hops < 0 || memcmp(a->path + 1, b->path + 1,
	    (size_t)a->hops) == 0;
}

/* --- maps -------------------------------------------------------------- */

static int
lid_find(uint16_t lid)
{
	size_t i;

	for (i = 0; i < nlids; i++)
		if (lids[i].lid == lid)
			return lids[i].node;
	return -1;
}

static void
lid_put(uint16_t lid, int node)
{
	size_t i;
	struct lm *q;

	if (lid == 0 || lid >= 0xc000)	/* unicast LIDs only */
		return;
	for (i = 0; i < nlids; i++)
		if (lids[i].lid == lid) {
			lids[i].node = node;
			return;
		}
	if ((q = grow(lids, &nlids, sizeof(*q), 4 * MAX_NODES)) == NULL)
		return;
	lids = q;
	lids[nlids].lid = lid;
	lids[nlids++].node = node;
}

static int
link_find(int node, int port)
{
	size_t i;

	for (i = 0; i < nlinks; i++)
		if (links[i].node == node && links[i].port == port)
			return links[i].peer;
	return -1;
}

static void
link_put1(int a, int pa, int b, int pb)
{
	size_t i;
	struct lk *q;

	for (i = 0; i < nlinks; i++)
		if (links[i].node == a && links[i].port == pa) {
			links[i].peer = b;
			links[i].peer_port = pb;
			return;
		}
	if ((q = grow(links, &nlinks, sizeof(*q), 64 * MAX_NODES)) == NULL)
		return;
	links = q;
	links[nlinks].node = a;
	links[nlinks].port = pa;
	links[nlinks].peer = b;
	links[nlinks++].peer_port = pb;
}

static void
link_put(int a, int pa, int b, int pb)
{
	link_put1(a, pa, b, pb);
	if (pb > 0)
		link_put1(b, pb, a, pa);
}

static void
pg_put(uint64_t guid, int node)
{
	size_t i;
	struct pg *q;

	if (guid == 0)
		return;
	for (i = 0; i < npgs; i++)
		if (pgs[i].guid == guid) {
			pgs[i].node = node;
			return;
		}
	if ((q = grow(pgs, &npgs, sizeof(*q), 4 * MAX_NODES)) == NULL)
		return;
	pgs = q;
	pgs[npgs].guid = guid;
	pgs[npgs++].node = node;
}

static void
dr_put(const struct ag_dest *d, int node)
{
	size_t i;
	struct drm *q;

	if (d->hops < 0)
		return;
	for (i = 0; i < ndrs; i++)
		if (dest_eq(&drs[i].d, d)) {
			drs[i].node = node;
			return;
		}
	if ((q = grow(drs, &ndrs, sizeof(*q), 16 * MAX_NODES)) == NULL)
		return;
	drs = q;
	drs[ndrs].d = *d;
	drs[ndrs++].node = node;
}

static int
node_put(uint64_t guid, uint8_t type, uint8_t nports, uint16_t devid)
{
	int i;

	for (i = 0; i < nnodes; i++)
		if (nodes[i].guid == guid)
			break;
	if (i == nnodes) {
		if (nnodes == MAX_NODES)
			return -1;
		nnodes++;
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].guid = guid;
	}
	nodes[i].type = type;
	nodes[i].nports = nports;
	nodes[i].devid = devid;
	return i;
}

int
ag_topo_lookup(const struct ag_dest *d)
{
	size_t i;
	int cur, h;

	if (!d->dr)
		return lid_find(d->lid);
	if (d->hops < 0)
		return -1;
	for (i = 0; i < ndrs; i++)
		if (dest_eq(&drs[i].d, d))
			return drs[i].node;
	cur = dr_permissive(d) ? local_node : lid_find(d->lid);
	for (h = 1; h <= d->hops && cur >= 0; h++)
		cur = link_find(cur, d->path[h]);
	return cur;
}

/* Learn from an answered NodeInfo or PortInfo Get (status 0). */
void
ag_topo_learn(const struct ag_dest *d, unsigned attr, uint32_t mod,
    uint8_t *mad, size_t len)
{
	int n;

	if (attr == IB_ATTR_NODE_INFO && len >= AG_O_DATA + 40) {
		uint64_t guid = mad_get_field64(mad, AG_O_DATA, IB_NODE_GUID_F);

		if (guid == 0)
			return;
		n = node_put(guid,
		    (uint8_t)mad_get_field(mad, AG_O_DATA, IB_NODE_TYPE_F),
		    (uint8_t)mad_get_field(mad, AG_O_DATA, IB_NODE_NPORTS_F),
		    (uint16_t)mad_get_field(mad, AG_O_DATA, IB_NODE_DEVID_F));
		if (n < 0)
			return;
		pg_put(mad_get_field64(mad, AG_O_DATA, IB_NODE_PORT_GUID_F), n);
		if (!d->dr) {
			lid_put(d->lid, n);
			return;
		}
		dr_put(d, n);
		if (d->hops == 0 && dr_permissive(d))
			local_node = n;
		else if (d->hops > 0) {
			struct ag_dest prev = *d;
			int p;

			prev.hops--;
			if ((p = ag_topo_lookup(&prev)) >= 0)
				link_put(p, d->path[d->hops], n,
				    (int)mad_get_field(mad, AG_O_DATA,
				    IB_NODE_LOCAL_PORT_F));
		}
		return;
	}
	if (attr == IB_ATTR_PORT_INFO && len >= AG_O_DATA + 20) {
		uint16_t lid;

		if ((n = ag_topo_lookup(d)) < 0)
			return;
		/* A switch's LID is port 0's (OpenSM ib_types.h: "for switch
		 * lid of port 0"). */
		if (nodes[n].type == AG_NT_SWITCH && (mod & 0xff) != 0)
			return;
		lid = (uint16_t)mad_get_field(mad, AG_O_DATA, IB_PORT_LID_F);
		lid_put(lid, n);
		if (nodes[n].lid == 0 && lid != 0 && lid < 0xc000)
			nodes[n].lid = lid;
	}
}

/* --- per-fd agents ----------------------------------------------------- */

static struct fdst *
fdst(int fd)
{
	int i;

	for (i = 0; i < nfds; i++)
		if (fds[i].fd == fd)
			return &fds[i];
	if (nfds == (int)(sizeof(fds) / sizeof(fds[0])))
		return NULL;
	fds[nfds].fd = fd;
	fds[nfds].agent = -2;	/* not tried */
	fds[nfds].caller_agent = -1;
	return &fds[nfds++];
}

void
ag_topo_note_agent(int fd, int cls, int agent)
{
	struct fdst *s;

	if ((cls == AG_C_SMI || cls == AG_C_SMI_DR) &&
	    (s = fdst(fd)) != NULL)
		s->caller_agent = agent;
}

void
ag_topo_forget_fd(int fd)
{
	int i;

	for (i = 0; i < nfds; i++)
		if (fds[i].fd == fd) {
			fds[i] = fds[--nfds];
			return;
		}
}

/* A QP0 agent for our own SMPs: one registered for us, else the caller's. */
static int
oracle_agent(int fd)
{
	struct fdst *s = fdst(fd);

	if (s == NULL)
		return -1;
	if (s->agent == -2) {
		s->agent = umad_register(fd, AG_C_SMI_DR, 1, 0, NULL);
		if (s->agent < 0) {
			ag_log("discover fd=%d: cannot register a QP0 agent "
			    "(%d); using the caller's (%d)", fd, s->agent,
			    s->caller_agent);
			s->agent = -1;
		}
	}
	return s->agent >= 0 ? s->agent : s->caller_agent;
}

/* One Get of ours, answered into out[256]; 0, or -1 if not answered. */
static int
oracle(int fd, int agent, const struct ag_dest *d, unsigned attr,
    uint32_t mod, uint8_t *out)
{
	static uint16_t seq;
	uint8_t sbuf[1024];
	static uint8_t *rbuf;
	static size_t rcap;
	ib_rpc_t rpc;
	ib_portid_t pid;
	uint32_t tid = ORACLE_TID | seq++;
	int64_t deadline;
	int len, n, i;

	if (umad_size() + AG_MAD_SIZE > sizeof(sbuf))
		return -1;
	if (rbuf == NULL) {
		rcap = umad_size() + 16 * AG_MAD_SIZE;
		if ((rbuf = malloc(rcap)) == NULL)
			ag_die("out of memory");
	}
	memset(sbuf, 0, sizeof(sbuf));
	memset(&rpc, 0, sizeof(rpc));
	memset(&pid, 0, sizeof(pid));
	rpc.mgtclass = d->dr ? IB_SMI_DIRECT_CLASS : IB_SMI_CLASS;
	rpc.method = IB_MAD_METHOD_GET;
	rpc.attr.id = attr;
	rpc.attr.mod = mod;
	rpc.timeout = ORACLE_MS;
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.dataoffs = IB_SMP_DATA_OFFS;
	rpc.trid = tid;
	if (d->dr) {
		if (d->hops < 0)
			return -1;
		pid.drpath.cnt = d->hops;
		for (i = 1; i <= d->hops; i++)
			pid.drpath.p[i] = d->path[i];
		pid.drpath.drslid = pid.drpath.drdlid = 0xffff;
	} else
		pid.lid = d->lid;
	if ((len = mad_build_pkt(sbuf, &rpc, &pid, NULL, NULL)) < 0)
		return -1;
	if (ag_real_send(fd, agent, sbuf, len, ORACLE_MS, 0) < 0)
		return -1;
	deadline = ag_now_ms() + ORACLE_MS;
	for (;;) {
		int64_t left = deadline - ag_now_ms();
		const uint8_t *m;

		if (left <= 0)
			return -1;
		len = (int)(rcap - umad_size());
		n = ag_real_recv(fd, rbuf, &len, (int)left);
		if (n == -ENOSPC && len > 0 &&
		    umad_size() + (size_t)len <= (16u << 20)) {
			uint8_t *nb = realloc(rbuf, umad_size() + (size_t)len);

			if (nb == NULL)
				ag_die("out of memory");
			rbuf = nb;
			rcap = umad_size() + (size_t)len;
			continue;
		}
		if (n < 0) {
			if (n == -ETIMEDOUT || n == -EAGAIN || n == -EINTR ||
			    n == -EWOULDBLOCK)
				continue;
			return -1;
		}
		if (len < 0 || (size_t)len > rcap - umad_size())
			continue;
		m = rbuf + umad_size();
		if (len < 24 || (uint32_t)ag_be64(m + AG_O_TID) != tid) {
			/* someone else's: keep it for the caller, in order */
			ag_queue_push(fd, rbuf, umad_size() + (size_t)len, 1);
			continue;
		}
		if (umad_status(rbuf) != 0 ||
		    (ag_be16(m + AG_O_STATUS) & 0x7fff) != 0)
			return -1;
		memset(out, 0, AG_MAD_SIZE);
		memcpy(out, m, (size_t)len < AG_MAD_SIZE ? (size_t)len :
		    AG_MAD_SIZE);
		return 0;
	}
}

/* The discovery walk (breadth first, from the local port). */
static void
walk(int fd)
{
	static uint8_t mad[AG_MAD_SIZE];
	struct item { int node; struct ag_dest d; } *q;
	unsigned char *seen;
	int agent, qh = 0, qt = 0, sent = 0, n, p, lp;
	struct ag_dest d0;

	if (walked)
		return;
	walked = 1;
	if ((agent = oracle_agent(fd)) < 0) {
		ag_log("discover fd=%d: no QP0 agent, destinations stay "
		    "unknown", fd);
		return;
	}
	q = calloc(MAX_NODES, sizeof(*q));
	seen = calloc(MAX_NODES, 1);
	if (q == NULL || seen == NULL)
		ag_die("out of memory");
	memset(&d0, 0, sizeof(d0));
	d0.dr = 1;
	d0.lid = d0.drslid = 0xffff;
	sent++;
	if (oracle(fd, agent, &d0, IB_ATTR_NODE_INFO, 0, mad) != 0 ||
	    (ag_topo_learn(&d0, IB_ATTR_NODE_INFO, 0, mad, AG_MAD_SIZE),
	    (n = ag_topo_lookup(&d0)) < 0)) {
		ag_log("discover fd=%d: the local NodeInfo went unanswered",
		    fd);
		goto out;
	}
	lp = (int)mad_get_field(mad, AG_O_DATA, IB_NODE_LOCAL_PORT_F);
	sent++;
	if (oracle(fd, agent, &d0, IB_ATTR_PORT_INFO, nodes[n].type ==
	    AG_NT_SWITCH ? 0u : (uint32_t)lp, mad) == 0)
		ag_topo_learn(&d0, IB_ATTR_PORT_INFO, nodes[n].type ==
		    AG_NT_SWITCH ? 0u : (uint32_t)lp, mad, AG_MAD_SIZE);
	seen[n] = 1;
	q[qt].node = n;
	q[qt++].d = d0;
	while (qh < qt) {
		struct item it = q[qh++];

		/* Directed routes are forwarded by switches only (what
		 * libibnetdisc assumes too); the local node may be left by
		 * any of its ports. */
		if (nodes[it.node].type != AG_NT_SWITCH && it.d.hops != 0)
			continue;
		if (it.d.hops >= AG_MAX_HOPS)
			continue;
		for (p = 1; p <= nodes[it.node].nports; p++) {
			struct ag_dest nd = it.d;
			uint32_t pm;

			nd.hops++;
			nd.path[nd.hops] = (uint8_t)p;
			sent++;
			if (oracle(fd, agent, &nd, IB_ATTR_NODE_INFO, 0, mad))
				continue;
			ag_topo_learn(&nd, IB_ATTR_NODE_INFO, 0, mad,
			    AG_MAD_SIZE);
			if ((n = ag_topo_lookup(&nd)) < 0 || seen[n])
				continue;
			seen[n] = 1;
			pm = nodes[n].type == AG_NT_SWITCH ? 0 :
			    mad_get_field(mad, AG_O_DATA, IB_NODE_LOCAL_PORT_F);
			sent++;
			if (oracle(fd, agent, &nd, IB_ATTR_PORT_INFO, pm,
			    mad) == 0)
				ag_topo_learn(&nd, IB_ATTR_PORT_INFO, pm, mad,
				    AG_MAD_SIZE);
			if (qt < MAX_NODES) {
				q[qt].node = n;
				q[qt++].d = nd;
			}
		}
	}
out:
	ag_log("discover fd=%d: %d nodes, %zu links, %zu LIDs known after "
	    "%d Gets of the agent's own", fd, nnodes, nlinks / 2, nlids, sent);
	free(q);
	free(seen);
}

int
ag_topo_resolve(int fd, const struct ag_dest *d)
{
	int n = ag_topo_lookup(d);

	if (n < 0 && !walked) {
		walk(fd);
		n = ag_topo_lookup(d);
	}
	return n;
}

int
ag_topo_neighbour(int fd, int node, int port)
{
	int n = link_find(node, port);

	if (n < 0 && !walked) {
		walk(fd);
		n = link_find(node, port);
	}
	return n;
}
