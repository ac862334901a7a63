/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkfattree: writes a simulated fat-tree fabric for `make bench` as a
 * scenario directory that tests/ib/with-fabric.sh can bring up:
 *
 *   net              ibsim topology (ibnetdiscover-compatible syntax, see
 *                    fixtures/ib/careless/net for how ibsim reads it)
 *   opensm.conf      OpenSM options: a careless provider (defaults keys)
 *   partitions.conf  everyone FULL in the default partition
 *   policy.conf      fabaudit policy: tenant "tenantA" (the HCAs of the
 *                    first leaves), the provider's SM host
 *   scenario         SM_HOST, TENANT_HOST and FT_* facts about the shape
 *                    (counts, the ibsim -N/-S/-P flags it needs, the SMP
 *                    count libibnetdisc will use to discover it)
 *
 *   mkfattree [-l 2|3] [-r radix] [-L leaves] [-p pods] [-H hcas_per_leaf]
 *             [-t tenant_leaves] -o dir
 *   mkfattree -n hcas [-r radix] [-t tenant_leaves] -o dir
 *
 * Shapes (r = radix; every switch has r/2 ports down and r/2 up):
 *  - 2 levels: L leaves of r ports, r/2 spines of max(r, L) ports, one
 *    link from every leaf to every spine.  L > r models each spine as one
 *    big "director" switch (as ft1296/ft2016 in
 *    shared/reference/performance.md do).
 *  - 3 levels: p pods of r/2 leaves and r/2 aggregation switches (a full
 *    bipartite graph inside the pod), r/2 core groups; aggregation switch
 *    j of every pod sends its r/2 uplinks round-robin over the
 *    ceil(p*r/2 / r) core switches of group j.  All switches have r ports.
 * -n picks the shape from an HCA count: N/(r/2) leaves, 2 levels when the
 * spines need at most 255 ports (ibsim's per-node limit), else 3 levels
 * with N/(r/2)^2 pods.  648 -> 2 levels, 36 leaves, 18 36-port spines;
 * 2016 -> 2 levels, 112 leaves, 18 112-port spines; 10044 -> 3 levels,
 * 31 pods, 1404 36-port switches.
 *
 * Names (the NodeDescription; its first word is also the ibsim node id,
 * the SIM_HOST value): HCAs "tenantX-gpu-NNNNN mlx5_0", where X is A on the
 * first -t leaves and B..Z by leaf after them; the last HCA is the
 * provider's SM host "provider-sm01 mlx5_0"; switches
 * "MF0;leaf-NNNN:MQM8700/U1", "spine-NNNN", "core-NNNN".  GUIDs: HCA i
 * (from 1) has node GUID 0x0002c90300000000 + i*16 and port 1 GUID node+1
 * (ibsim's rule), switch s (from 1) 0x7cfe900300000000 + s*16.
 *
 * The libibnetdisc SMP count is performance.md section 1.1's formula
 * 2 + 3H + 2*ISL + S + sum over switches of (ports+1).
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../reports/report.h"

#define CA_GUID_BASE	0x0002c90300000000ull
#define SW_GUID_BASE	0x7cfe900300000000ull
#define IBSIM_MAXPORTS	255	/* ports per node in a net file */
/* ibsim 0.10's built-in limits (sim.h), raised with -N/-S/-P. */
#define IBSIM_DEF_NODES	2048
#define IBSIM_DEF_SW	256
#define IBSIM_DEF_PORTS	(256 * 36 + 2048 * 2)

enum sw_kind { SW_LEAF, SW_SPINE, SW_CORE };

struct shape {
	unsigned	levels;
	unsigned	radix;		/* leaf (and 3-level) switch ports */
	unsigned	half;		/* radix / 2 */
	unsigned	leaves;		/* all pods */
	unsigned	pods;		/* 3 levels */
	unsigned	hpl;		/* HCAs per leaf */
	unsigned	tleaves;	/* leaves of tenant A */
	unsigned	spines;		/* 2 levels: top; 3 levels: aggregation */
	unsigned	spine_ports;
	unsigned	cgroup;		/* 3 levels: cores per group */
	unsigned	cores;
	unsigned	hcas;
	unsigned	switches;
};

/* A link end: "name"[port]. */
struct end {
	char		name[32];
	char		desc[64];
	unsigned	port;
	int		ok;		/* 0: port not cabled */
};

static void
usage(void)
{
	fprintf(stderr, "usage: mkfattree [-l 2|3] [-r radix] [-L leaves] "
	    "[-p pods] [-H hcas_per_leaf]\n"
	    "                 [-t tenant_leaves] -o dir\n"
	    "       mkfattree -n hcas [-r radix] [-t tenant_leaves] -o dir\n");
	exit(2);
}

static unsigned
num(const char *opt, const char *s, unsigned min, unsigned max)
{
	const char *err;
	uint64_t v;

	if (fa_parse_u64(s, min, max, &v, &err) != 0) {
		fprintf(stderr, "mkfattree: %s %s: %s (%u..%u)\n", opt, s, err,
		    min, max);
		exit(2);
	}
	return (unsigned)v;
}

static const char *
sw_prefix(enum sw_kind k)
{
	return k == SW_LEAF ? "leaf" : k == SW_SPINE ? "spine" : "core";
}

/* Switch numbering: leaves, then spines (aggregation), then cores. */
static unsigned
sw_index(const struct shape *s, enum sw_kind k, unsigned i)
{
	return k == SW_LEAF ? i : k == SW_SPINE ? s->leaves + i :
	    s->leaves + s->spines + i;
}

static unsigned
sw_ports(const struct shape *s, enum sw_kind k)
{
	return k == SW_SPINE && s->levels == 2 ? s->spine_ports : s->radix;
}

static void
sw_name(const struct shape *s, enum sw_kind k, unsigned i, struct end *e)
{
	unsigned ports = sw_ports(s, k);

	snprintf(e->name, sizeof(e->name), "%s-%04u", sw_prefix(k), i + 1);
	if (ports == 36)
		snprintf(e->desc, sizeof(e->desc), "MF0;%s:MQM8700/U1",
		    e->name);
	else
		snprintf(e->desc, sizeof(e->desc), "MF0;%s:SW%u/U1", e->name,
		    ports);
}

static void
hca_name(const struct shape *s, unsigned i, struct end *e)
{
	unsigned leaf = i / s->hpl;
	char t;

	if (i == s->hcas - 1)
		snprintf(e->name, sizeof(e->name), "provider-sm01");
	else {
		t = leaf < s->tleaves ? 'A' :
		    (char)('B' + (leaf - s->tleaves) % 25);
		snprintf(e->name, sizeof(e->name), "tenant%c-gpu-%05u", t,
		    i + 1);
	}
	snprintf(e->desc, sizeof(e->desc), "%s mlx5_0", e->name);
}

static uint64_t
hca_guid(unsigned i)
{
	return CA_GUID_BASE + ((uint64_t)(i + 1) << 4);
}

/* The far end of switch (k, i) port p (1-based). */
static void
peer(const struct shape *s, enum sw_kind k, unsigned i, unsigned p,
    struct end *e)
{
	unsigned h = s->half, q, j, u, g;

	memset(e, 0, sizeof(*e));
	if (k == SW_LEAF) {
		if (p <= h) {
			if (p > s->hpl)
				return;
			hca_name(s, i * s->hpl + p - 1, e);
			e->port = 1;
		} else if (s->levels == 2) {
			sw_name(s, SW_SPINE, p - h - 1, e);
			e->port = i + 1;
		} else {	/* aggregation switch p-h-1 of this pod */
			sw_name(s, SW_SPINE, (i / h) * h + p - h - 1, e);
			e->port = i % h + 1;
		}
	} else if (k == SW_SPINE && s->levels == 2) {
		if (p > s->leaves)
			return;
		sw_name(s, SW_LEAF, p - 1, e);
		e->port = h + i + 1;
	} else if (k == SW_SPINE) {
		q = i / h;
		j = i % h;
		if (p <= h) {
			sw_name(s, SW_LEAF, q * h + p - 1, e);
			e->port = h + j + 1;
		} else {
			u = p - h - 1;
			g = q * h + u;
			sw_name(s, SW_CORE, j * s->cgroup + g % s->cgroup, e);
			e->port = g / s->cgroup + 1;
		}
	} else {	/* core (group j, index c) */
		j = i / s->cgroup;
		g = (p - 1) * s->cgroup + i % s->cgroup;
		if (g >= s->pods * h)
			return;
		sw_name(s, SW_SPINE, (g / h) * h + j, e);
		e->port = h + g % h + 1;
	}
	e->ok = 1;
}

/* Everything about one switch; counts its ISL ends and cabled CA ports. */
static void
put_switch(FILE *f, const struct shape *s, enum sw_kind k, unsigned i,
    unsigned long *isl_ends)
{
	struct end me, e;
	unsigned p, n = sw_ports(s, k);

	sw_name(s, k, i, &me);
	fprintf(f, "vendid=0x02c9\nswitchguid=0x%016llx\n",
	    (unsigned long long)(SW_GUID_BASE +
	    ((uint64_t)(sw_index(s, k, i) + 1) << 4)));
	fprintf(f, "Switch\t%u \"%s\"\t# \"%s\" enhanced port 0 lid 0 "
	    "lmc 0\n", n, me.name, me.desc);
	for (p = 1; p <= n; p++) {
		peer(s, k, i, p, &e);
		if (!e.ok)
			continue;
		if (strncmp(e.desc, "MF0;", 4) == 0)
			(*isl_ends)++;
		fprintf(f, "[%u]\t\"%s\"[%u]\t# \"%s\" lid 0 4xEDR\n", p,
		    e.name, e.port, e.desc);
	}
	fputc('\n', f);
}

static int
write_file(const char *dir, const char *name, char *buf, size_t len)
{
	char *why = NULL;
	int r;

	if ((r = fa_write_atomic(dir, name, buf, len, &why)) != 0) {
		fprintf(stderr, "mkfattree: %s/%s: %s\n", dir, name,
		    why != NULL ? why : fa_strerror(r));
		free(why);
	}
	free(buf);
	return r;
}

/* Round v up to a multiple of m, with 1% to spare. */
static unsigned long
roomy(unsigned long v, unsigned long m)
{
	v += v / 100 + 1;
	return (v + m - 1) / m * m;
}

static int
make(const struct shape *s, const char *dir)
{
	FILE *f;
	char *buf = NULL, args[96], shape[160];
	size_t len = 0;
	unsigned i, swports = 0, sm = s->hcas - 1;
	unsigned long isl_ends = 0, ports, nodes, pred;
	size_t alen = 0;
	struct end me, e;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return FA_ERR_NOMEM;
	fprintf(f, "# bench fabric written by bench/mkfattree: %u-level fat "
	    "tree, radix %u,\n# %u HCAs, %u switches.  ibsim net file; see "
	    "fixtures/ib/careless/net.\n\ndevid=0xcf08\n\n", s->levels,
	    s->radix, s->hcas, s->switches);
	for (i = 0; i < s->leaves; i++)
		put_switch(f, s, SW_LEAF, i, &isl_ends);
	for (i = 0; i < s->spines; i++)
		put_switch(f, s, SW_SPINE, i, &isl_ends);
	for (i = 0; i < s->cores; i++)
		put_switch(f, s, SW_CORE, i, &isl_ends);
	fprintf(f, "devid=0x1017\n\n");
	for (i = 0; i < s->hcas; i++) {
		hca_name(s, i, &me);
		sw_name(s, SW_LEAF, i / s->hpl, &e);
		fprintf(f, "vendid=0x02c9\ncaguid=0x%016llx\n"
		    "Hca\t1 \"%s\"\t# \"%s\"\n"
		    "[1]\t\"%s\"[%u]\t# lid 0 lmc 0 \"%s\" lid 0 4xEDR\n\n",
		    (unsigned long long)hca_guid(i), me.name, me.desc, e.name,
		    i % s->hpl + 1, e.desc);
	}
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		return FA_ERR_NOMEM;
	}
	if (write_file(dir, "net", buf, len) != 0)
		return FA_ERR_IO;

	swports = s->leaves * s->radix + s->spines * sw_ports(s, SW_SPINE) +
	    s->cores * s->radix;
	nodes = s->switches + s->hcas;
	/* ibsim allocates a node's ports 0..N: N+1 each. */
	ports = (unsigned long)swports + s->switches + 2ul * s->hcas;
	pred = 2 + 3ul * s->hcas + isl_ends + s->switches + swports +
	    s->switches;
	args[0] = '\0';
	if (nodes > IBSIM_DEF_NODES)
		alen += (size_t)snprintf(args + alen, sizeof(args) - alen,
		    " -N %lu", roomy(nodes, 100));
	if (s->switches > IBSIM_DEF_SW)
		alen += (size_t)snprintf(args + alen, sizeof(args) - alen,
		    " -S %lu", roomy(s->switches, 20));
	if (ports > IBSIM_DEF_PORTS)
		snprintf(args + alen, sizeof(args) - alen, " -P %lu",
		    roomy(ports, 100));

	if (s->levels == 2)
		snprintf(shape, sizeof(shape), "2 levels: %u leaves of %u "
		    "ports x %u HCAs, %u spines of %u ports", s->leaves,
		    s->radix, s->hpl, s->spines, s->spine_ports);
	else
		snprintf(shape, sizeof(shape), "3 levels, %u-port switches: "
		    "%u pods x %u leaves x %u HCAs, %u aggregation, %u core",
		    s->radix, s->pods, s->half, s->hpl, s->spines, s->cores);
	if ((f = open_memstream(&buf, &len)) == NULL)
		return FA_ERR_NOMEM;
	hca_name(s, 0, &me);
	hca_name(s, sm, &e);
	fprintf(f, "# bench fabric (bench/mkfattree), sourced by "
	    "tests/ib/with-fabric.sh and bench/run.sh.\n"
	    "DESCRIPTION=\"%u-level fat tree, radix %u: %u HCAs, %u "
	    "switches; careless provider (default keys, ALL=full)\"\n"
	    "SM_HOST=%s\nTENANT_HOST=%s\n"
	    "SM_PORT_GUID=0x%016llx\nTENANT_PORT_GUID=0x%016llx\n"
	    "# facts for bench/run.sh\n"
	    "FT_SHAPE=\"%s\"\n"
	    "FT_HCAS=%u\nFT_SWITCHES=%u\nFT_ISLS=%lu\nFT_SWITCH_PORTS=%u\n"
	    "FT_PORTS=%lu\nFT_TENANT_PORTS=%u\nFT_PRED_SMPS=%lu\n"
	    "FT_IBSIM_ARGS=\"%s\"\n",
	    s->levels, s->radix, s->hcas, s->switches, e.name, me.name,
	    (unsigned long long)hca_guid(sm) + 1,
	    (unsigned long long)hca_guid(0) + 1, shape,
	    s->hcas, s->switches, isl_ends / 2, swports,
	    (unsigned long)swports + s->hcas, s->tleaves * s->hpl, pred,
	    args[0] == ' ' ? args + 1 : args);
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		return FA_ERR_NOMEM;
	}
	if (write_file(dir, "scenario", buf, len) != 0)
		return FA_ERR_IO;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return FA_ERR_NOMEM;
	fprintf(f, "# bench fabric: OpenSM options (opensm -F).  A careless "
	    "provider: m_key 0,\n# sm_key/sa_key 0x1, priority 0 (the "
	    "defaults).  Only the periodic sweep\n# is off, so that OpenSM "
	    "does not compete with the measurement for the\n# simulator "
	    "(it still answers SA queries).\nsweep_interval 0\n");
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		return FA_ERR_NOMEM;
	}
	if (write_file(dir, "opensm.conf", buf, len) != 0)
		return FA_ERR_IO;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return FA_ERR_NOMEM;
	fprintf(f, "# bench fabric: OpenSM partitions (opensm -P).  Every "
	    "end port FULL in the\n# default partition: every tenant reaches "
	    "every other.\nDefault=0x7fff, ipoib : ALL=full ;\n");
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		return FA_ERR_NOMEM;
	}
	if (write_file(dir, "partitions.conf", buf, len) != 0)
		return FA_ERR_IO;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return FA_ERR_NOMEM;
	fprintf(f, "# bench fabric: fabaudit policy of tenant \"tenantA\", "
	    "the HCAs of the first\n# %u leaf/leaves; promised partition "
	    "0x8001 (never configured).\ntenant_node    tenantA-*\n",
	    s->tleaves);
	for (i = 0; i < s->tleaves * s->hpl && i < sm; i++)
		fprintf(f, "tenant_guid    0x%016llx\n",
		    (unsigned long long)hca_guid(i) + 1);
	fprintf(f, "tenant_pkey    0x8001\n# provider: the SM host\n"
	    "provider_node  provider-*\nprovider_guid  0x%016llx\n"
	    "sm_guid        0x%016llx\n",
	    (unsigned long long)hca_guid(sm) + 1,
	    (unsigned long long)hca_guid(sm) + 1);
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		return FA_ERR_NOMEM;
	}
	if (write_file(dir, "policy.conf", buf, len) != 0)
		return FA_ERR_IO;

	fprintf(stderr, "mkfattree: %s: %u HCAs, %u switches, %lu ISLs, "
	    "%lu ports; ibsim flags:%s\n", dir, s->hcas, s->switches,
	    isl_ends / 2, (unsigned long)swports + s->hcas,
	    args[0] != '\0' ? args : " (none)");
	return 0;
}

int
main(int argc, char *argv[])
{
	struct shape s;
	const char *dir = NULL;
	unsigned n = 0, hpl = 0;
	int ch;

	memset(&s, 0, sizeof(s));
	s.levels = 2;
	s.radix = 36;
	s.leaves = 36;
	s.pods = 1;
	s.tleaves = 1;
	while ((ch = getopt(argc, argv, "H:L:l:n:o:p:r:t:")) != -1) {
		switch (ch) {
		case 'H': hpl = num("-H", optarg, 1, 127); break;
		case 'L': s.leaves = num("-L", optarg, 1, 255); break;
		case 'l': s.levels = num("-l", optarg, 2, 3); break;
		case 'n': n = num("-n", optarg, 2, 1000000); break;
		case 'o': dir = optarg; break;
		case 'p': s.pods = num("-p", optarg, 1, 255); break;
		case 'r': s.radix = num("-r", optarg, 4, 254); break;
		case 't': s.tleaves = num("-t", optarg, 1, 65535); break;
		default: usage();
		}
	}
	if (optind != argc || dir == NULL || s.radix % 2 != 0)
		usage();
	s.half = s.radix / 2;
	if (n != 0) {
		if (n % s.half != 0) {
			fprintf(stderr, "mkfattree: -n %u: not a multiple of "
			    "%u HCAs per leaf\n", n, s.half);
			return 2;
		}
		s.leaves = n / s.half;
		s.levels = s.leaves <= IBSIM_MAXPORTS ? 2 : 3;
		if (s.levels == 3) {
			if (n % (s.half * s.half) != 0) {
				fprintf(stderr, "mkfattree: -n %u: a 3-level "
				    "tree of radix %u holds a multiple of %u "
				    "HCAs\n", n, s.radix, s.half * s.half);
				return 2;
			}
			s.pods = n / (s.half * s.half);
		}
	}
	s.hpl = hpl != 0 ? hpl : s.half;
	if (s.hpl > s.half) {
		fprintf(stderr, "mkfattree: -H %u: a leaf has %u down ports\n",
		    s.hpl, s.half);
		return 2;
	}
	if (s.levels == 2) {
		s.spines = s.half;
		s.spine_ports = s.leaves > s.radix ? s.leaves : s.radix;
	} else {
		if (s.pods * s.half > 255 * 255) {
			fprintf(stderr, "mkfattree: too many pods\n");
			return 2;
		}
		s.leaves = s.pods * s.half;
		s.spines = s.leaves;
		s.spine_ports = s.radix;
		s.cgroup = (s.pods * s.half + s.radix - 1) / s.radix;
		s.cores = s.half * s.cgroup;
	}
	s.hcas = s.leaves * s.hpl;
	s.switches = s.leaves + s.spines + s.cores;
	if (s.tleaves >= s.leaves || s.hcas < 2) {
		fprintf(stderr, "mkfattree: -t %u: tenant A must leave other "
		    "leaves to the others\n", s.tleaves);
		return 2;
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "mkfattree: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return make(&s, dir) == 0 ? 0 : 1;
}
