/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scenario file named by $FA_AGENT_SCENARIO (syntax: tests/agent/README).
 * Line based, "#" starts a comment.  Any line the parser does not fully
 * understand stops the process with one line "fa-agent: FILE:LINE: why" on
 * stderr and exit status 97, so that a broken fixture cannot pass silently.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

struct ag_conf ag_conf;
int ag_active;

#define MAX_TOK 16

struct pctx {
	const char *file;
	int line;
	char *tok[MAX_TOK];
	int ntok;
};

static void __attribute__((format(printf, 2, 3), noreturn))
bad(const struct pctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ag_die("%s:%d: %s", c->file, c->line, msg);
}

const char *
ag_kind_name(enum ag_kind k)
{
	static const char *const names[AG_K_COUNT] = {
		"mkey", "cc", "vs", "am", "bm", "pma", "part_enforce",
		"switch_enforce_cap", "pkeys", "smp_drop"
	};

	return (unsigned)k < AG_K_COUNT ? names[k] : "?";
}

int
ag_conf_has(enum ag_kind k)
{
	size_t i;

	for (i = 0; i < ag_conf.nrules; i++)
		if (ag_conf.rules[i].kind == k)
			return 1;
	return 0;
}

/* An unsigned number (C syntax: decimal, 0x hex, 0 octal) up to max. */
static uint64_t
num(const struct pctx *c, const char *what, const char *s, uint64_t max)
{
	unsigned long long v;
	char *end;

	if (s == NULL)
		bad(c, "%s: value missing", what);
	if (*s == '-' || *s == '+' || isspace((unsigned char)*s) || *s == '\0')
		bad(c, "%s: '%s' is not an unsigned number", what, s);
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0')
		bad(c, "%s: '%s' is not an unsigned number", what, s);
	if (v > max)
		bad(c, "%s: %s is out of range (max %llu)", what, s,
		    (unsigned long long)max);
	return v;
}

static int
onoff(const struct pctx *c, const char *what, const char *s)
{
	if (s == NULL)
		bad(c, "%s: value missing (on or off)", what);
	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0)
		return 1;
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0)
		return 0;
	bad(c, "%s: '%s' is neither on nor off", what, s);
}

static int
yesno(const struct pctx *c, const char *what, const char *s)
{
	if (s == NULL)
		bad(c, "%s: value missing (yes or no)", what);
	if (strcmp(s, "yes") == 0)
		return 1;
	if (strcmp(s, "no") == 0)
		return 0;
	bad(c, "%s: '%s' is neither yes nor no", what, s);
}

/* NODE: a GUID (node or port), or switches, cas, all. */
static void
selector(const struct pctx *c, const char *s, struct ag_sel *sel,
    int switches_only)
{
	if (s == NULL)
		bad(c, "node selector missing (GUID, switches, cas or all)");
	if (strcmp(s, "switches") == 0)
		sel->kind = AG_SEL_SWITCHES;
	else if (strcmp(s, "all") == 0)
		sel->kind = AG_SEL_ALL;
	else if (strcmp(s, "cas") == 0) {
		if (switches_only)
			bad(c, "'cas' makes no sense here: only switches "
			    "have this");
		sel->kind = AG_SEL_CAS;
	} else if (strncmp(s, "0x", 2) == 0 || strncmp(s, "0X", 2) == 0) {
		sel->kind = AG_SEL_GUID;
		sel->guid = num(c, "GUID", s, UINT64_MAX);
		if (sel->guid == 0)
			bad(c, "GUID 0 names no node");
	} else
		bad(c, "'%s' is not a node selector (0xGUID, switches, cas "
		    "or all)", s);
}

/* PORTS: ca-facing, all, or a list such as 1,2,5-7. */
static void
ports(const struct pctx *c, const char *s, struct ag_rule *r)
{
	const char *p = s;

	if (s == NULL)
		bad(c, "ports missing (ca-facing, all or a list like 1,3-5)");
	if (strcmp(s, "ca-facing") == 0) {
		r->ports_kind = AG_PORTS_CA_FACING;
		return;
	}
	if (strcmp(s, "all") == 0) {
		r->ports_kind = AG_PORTS_ALL;
		return;
	}
	r->ports_kind = AG_PORTS_LIST;
	while (*p != '\0') {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*p))
			bad(c, "ports '%s': expected a port number at '%s'",
			    s, p);
		a = b = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				bad(c, "ports '%s': range without an end", s);
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a < 1 || b > 254 || a > b)
			bad(c, "ports '%s': ports are 1..254, ranges low-high",
			    s);
		for (; a <= b; a++)
			r->ports[a / 8] |= (uint8_t)(1u << (a % 8));
		if (*p == ',')
			p++;
		else if (*p != '\0')
			bad(c, "ports '%s': unexpected '%c'", s, *p);
	}
}

/* Optional "name value" pairs from token i on. */
static void
options(const struct pctx *c, int i, struct ag_rule *r, int keyed)
{
	unsigned seen = 0;

	for (; i < c->ntok; i += 2) {
		const char *k = c->tok[i], *v = i + 1 < c->ntok ?
		    c->tok[i + 1] : NULL;
		unsigned bit;

		if (keyed && strcmp(k, "lease") == 0) {
			bit = 1;
			r->lease = (unsigned)num(c, "lease", v, 0xffff);
		} else if (keyed && strcmp(k, "violations") == 0) {
			bit = 2;
			r->violations = (unsigned)num(c, "violations", v,
			    0xffff);
		} else if (!keyed && strcmp(k, "inbound") == 0) {
			bit = 4;
			r->inbound = onoff(c, "inbound", v);
		} else if (!keyed && strcmp(k, "outbound") == 0) {
			bit = 8;
			r->outbound = onoff(c, "outbound", v);
		} else
			bad(c, "unknown option '%s' (allowed: %s)", k, keyed ?
			    "lease, violations" : "inbound, outbound");
		if (seen & bit)
			bad(c, "option '%s' given twice", k);
		seen |= bit;
	}
	if (!keyed && (seen & 12) == 0)
		bad(c, "nothing to set: give inbound on|off and/or "
		    "outbound on|off");
}

static int
same_rule(const struct ag_rule *a, const struct ag_rule *b)
{
	if (a->kind != b->kind || a->sel.kind != b->sel.kind)
		return 0;
	if (a->sel.kind == AG_SEL_GUID && a->sel.guid != b->sel.guid)
		return 0;
	if (a->kind == AG_K_ENFORCE)
		return a->ports_kind == b->ports_kind &&
		    memcmp(a->ports, b->ports, sizeof(a->ports)) == 0;
	return 1;
}

static void
add_rule(const struct pctx *c, const struct ag_rule *r)
{
	struct ag_rule *n;
	size_t i;

	for (i = 0; i < ag_conf.nrules; i++)
		if (same_rule(&ag_conf.rules[i], r))
			bad(c, "same %s rule as line %d (the later one would "
			    "silently win)", ag_kind_name(r->kind),
			    ag_conf.rules[i].line);
	n = realloc(ag_conf.rules, (ag_conf.nrules + 1) * sizeof(*n));
	if (n == NULL)
		bad(c, "out of memory");
	ag_conf.rules = n;
	ag_conf.rules[ag_conf.nrules++] = *r;
}

/* The fault directives (fault.c): 1 if the line was one of them. */
static int
parse_fault(struct pctx *c)
{
	static const char *const hows[] = {
		"truncate", "tid", "attr", "count", "length"
	};
	const char *d = c->tok[0];
	struct ag_mangle *g;
	struct ag_numports *np;
	size_t i;

	if (strcmp(d, "pause_after") == 0) {
		/* pause_after N: see fault.c; needs $FA_AGENT_PAUSE */
		if (c->ntok != 2)
			bad(c, "usage: pause_after N");
		ag_conf.pause_after = (unsigned long)num(c, "count", c->tok[1],
		    0xffffffffu);
		if (ag_conf.pause_after == 0)
			bad(c, "pause_after: N must be at least 1");
		if (getenv("FA_AGENT_PAUSE") == NULL)
			bad(c, "pause_after needs FA_AGENT_PAUSE (a file name)");
		return 1;
	}
	if (strcmp(d, "mangle") == 0) {
		/* mangle sa|smp ATTR|any truncate|tid|attr|count|length */
		if (c->ntok != 4 || (strcmp(c->tok[1], "sa") != 0 &&
		    strcmp(c->tok[1], "smp") != 0))
			bad(c, "usage: mangle sa|smp ATTR|any "
			    "truncate|tid|attr|count|length");
		if (ag_conf.nmangles == AG_MAX_FAULTS)
			bad(c, "more than %d mangle lines", AG_MAX_FAULTS);
		g = &ag_conf.mangles[ag_conf.nmangles];
		g->sa = strcmp(c->tok[1], "sa") == 0;
		g->attr = strcmp(c->tok[2], "any") == 0 ? 0 :
		    (unsigned)num(c, "attribute", c->tok[2], 0xffff);
		for (i = 0; i < sizeof(hows) / sizeof(hows[0]); i++)
			if (strcmp(c->tok[3], hows[i]) == 0)
				break;
		if (i == sizeof(hows) / sizeof(hows[0]))
			bad(c, "mangle '%s': expected truncate, tid, attr, "
			    "count or length", c->tok[3]);
		g->how = (enum ag_mangle_how)i;
		g->line = c->line;
		ag_conf.nmangles++;
		return 1;
	}
	if (strcmp(d, "numports") == 0) {
		/* numports NODE N: NodeInfo answers say N ports */
		if (c->ntok != 3)
			bad(c, "usage: numports NODE N");
		if (ag_conf.nnumports == AG_MAX_FAULTS)
			bad(c, "more than %d numports lines", AG_MAX_FAULTS);
		np = &ag_conf.numports[ag_conf.nnumports];
		selector(c, c->tok[1], &np->sel, 0);
		np->n = (unsigned)num(c, "port count", c->tok[2], 255);
		np->line = c->line;
		ag_conf.nnumports++;
		return 1;
	}
	return 0;
}

static void
parse_line(struct pctx *c)
{
	const char *d = c->tok[0];
	struct ag_rule r;

	memset(&r, 0, sizeof(r));
	r.line = c->line;
	r.inbound = r.outbound = -1;
	if (strcmp(d, "local_vf") == 0) {
		if (c->ntok != 2)
			bad(c, "usage: local_vf yes|no|mlx4");
		if (strcmp(c->tok[1], "mlx4") == 0)
			ag_conf.local_vf = AG_VF_MLX4;
		else
			ag_conf.local_vf = yesno(c, "local_vf", c->tok[1]) ?
			    AG_VF_YES : AG_VF_NO;
		return;
	}
	if (strcmp(d, "sa") == 0) {
		/* sa opensm|trust-all|silent */
		if (c->ntok != 2)
			bad(c, "usage: sa opensm|trust-all|silent|busy");
		if (strcmp(c->tok[1], "opensm") == 0)
			ag_conf.sa = AG_SA_OPENSM;
		else if (strcmp(c->tok[1], "trust-all") == 0)
			ag_conf.sa = AG_SA_TRUST_ALL;
		else if (strcmp(c->tok[1], "silent") == 0)
			ag_conf.sa = AG_SA_SILENT;
		else if (strcmp(c->tok[1], "busy") == 0)
			ag_conf.sa = AG_SA_BUSY;
		else
			bad(c, "sa '%s': expected opensm, trust-all, silent "
			    "or busy", c->tok[1]);
		return;
	}
	if (parse_fault(c))
		return;
	if (strcmp(d, "self_pkeys") == 0) {
		/* self_pkeys P_KEY... : our port's table, index order */
		int i;

		if (c->ntok < 2 || c->ntok > 33)
			bad(c, "usage: self_pkeys P_KEY... (1 to 32)");
		for (i = 1; i < c->ntok; i++)
			ag_conf.self_pkeys[i - 1] = (uint16_t)num(c, "P_Key",
			    c->tok[i], 0xffff);
		ag_conf.nself_pkeys = c->ntok - 1;
		return;
	}
	if (strcmp(d, "pkeys") == 0) {
		/* pkeys NODE P_KEY... : GMPs to NODE are P_Key-checked */
		int i;

		r.kind = AG_K_PKEYS;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 0);
		if (c->ntok < 3 || c->ntok > 34)
			bad(c, "usage: pkeys NODE P_KEY... (1 to 32)");
		for (i = 2; i < c->ntok; i++)
			r.pkeys[i - 2] = (uint16_t)num(c, "P_Key", c->tok[i],
			    0xffff);
		r.npkeys = c->ntok - 2;
		add_rule(c, &r);
		return;
	}
	if (strcmp(d, "mkey") == 0) {
		/* mkey NODE KEY protect 0-3 [lease S] [violations N] */
		r.kind = AG_K_MKEY;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 0);
		r.key = num(c, "M_Key", c->ntok > 2 ? c->tok[2] : NULL,
		    UINT64_MAX);
		if (c->ntok < 5 || strcmp(c->tok[3], "protect") != 0)
			bad(c, "usage: mkey NODE KEY protect 0-3 "
			    "[lease SECONDS] [violations N]");
		r.protect = (int)num(c, "protect", c->tok[4], 3);
		r.mode = AG_MODE_KEYED;
		options(c, 5, &r, 1);
	} else if (strcmp(d, "cc") == 0 || strcmp(d, "vs") == 0 ||
	    strcmp(d, "am") == 0 || strcmp(d, "bm") == 0) {
		r.kind = d[0] == 'c' ? AG_K_CC : d[0] == 'v' ? AG_K_VS :
		    d[0] == 'a' ? AG_K_AM : AG_K_BM;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 0);
		if (c->ntok < 3)
			bad(c, "usage: %s NODE absent|unsupported|keyed KEY "
			    "protect 0|1 [lease SECONDS] [violations N]", d);
		if (strcmp(c->tok[2], "absent") == 0 ||
		    strcmp(c->tok[2], "unsupported") == 0) {
			if (c->ntok != 3)
				bad(c, "'%s' takes no options", c->tok[2]);
			r.mode = c->tok[2][0] == 'a' ? AG_MODE_ABSENT :
			    AG_MODE_UNSUPPORTED;
		} else if (strcmp(c->tok[2], "keyed") == 0) {
			r.mode = AG_MODE_KEYED;
			r.key = num(c, "key", c->ntok > 3 ? c->tok[3] : NULL,
			    UINT64_MAX);
			if (c->ntok < 6 || strcmp(c->tok[4], "protect") != 0)
				bad(c, "usage: %s NODE keyed KEY protect 0|1 "
				    "[lease SECONDS] [violations N]", d);
			r.protect = (int)num(c, "protect", c->tok[5], 1);
			options(c, 6, &r, 1);
		} else
			bad(c, "mode '%s': expected absent, unsupported or "
			    "keyed", c->tok[2]);
	} else if (strcmp(d, "pma") == 0) {
		/* pma NODE pm_key_supported yes|no */
		r.kind = AG_K_PMA;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 0);
		if (c->ntok != 4 || strcmp(c->tok[2], "pm_key_supported") != 0)
			bad(c, "usage: pma NODE pm_key_supported yes|no");
		r.pmkey_supported = yesno(c, "pm_key_supported", c->tok[3]);
	} else if (strcmp(d, "part_enforce") == 0) {
		/* part_enforce SWITCH PORTS [inbound on|off] [outbound on|off] */
		r.kind = AG_K_ENFORCE;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 1);
		ports(c, c->ntok > 2 ? c->tok[2] : NULL, &r);
		options(c, 3, &r, 0);
	} else if (strcmp(d, "switch_enforce_cap") == 0) {
		/* switch_enforce_cap SWITCH [inbound on|off] [outbound on|off] */
		r.kind = AG_K_SWCAP;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 1);
		options(c, 2, &r, 0);
	} else if (strcmp(d, "smp_drop") == 0) {
		/* smp_drop NODE ATTR: its SMP Gets of ATTR are lost */
		r.kind = AG_K_SMP_DROP;
		selector(c, c->ntok > 1 ? c->tok[1] : NULL, &r.sel, 0);
		if (c->ntok != 3)
			bad(c, "usage: smp_drop NODE ATTR");
		r.attr = (unsigned)num(c, "attribute", c->tok[2], 0xffff);
	} else
		bad(c, "unknown directive '%s' (local_vf, sa, self_pkeys, "
		    "pkeys, mkey, part_enforce, switch_enforce_cap, cc, vs, am, "
		    "bm, pma, smp_drop, pause_after, mangle, numports)", d);
	add_rule(c, &r);
}

void
ag_conf_load(const char *path)
{
	struct pctx c;
	char buf[1024];
	FILE *f;

	memset(&c, 0, sizeof(c));
	c.file = path;
	ag_conf.path = strdup(path);
	if ((f = fopen(path, "r")) == NULL)
		ag_die("%s: cannot open the scenario file: %s", path,
		    strerror(errno));
	while (fgets(buf, sizeof(buf), f) != NULL) {
		char *s, *save = NULL;
		size_t n = strlen(buf);

		c.line++;
		if (n > 0 && buf[n - 1] != '\n' && !feof(f))
			bad(&c, "line longer than %zu characters",
			    sizeof(buf) - 2);
		if ((s = strchr(buf, '#')) != NULL)
			*s = '\0';
		c.ntok = 0;
		for (s = strtok_r(buf, " \t\r\n", &save); s != NULL;
		    s = strtok_r(NULL, " \t\r\n", &save)) {
			if (c.ntok == MAX_TOK)
				bad(&c, "too many words");
			c.tok[c.ntok++] = s;
		}
		if (c.ntok > 0)
			parse_line(&c);
	}
	if (ferror(f))
		ag_die("%s: read error: %s", path, strerror(errno));
	fclose(f);
	ag_active = 1;
}
