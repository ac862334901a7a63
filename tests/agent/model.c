/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The behaviours: what conforming hardware does with each MAD the scanner
 * sends, where ibsim does something else.  References are to
 * ../shared/reference/ib-security.md (sections) and the sources it cites:
 * IBA vol. 1 sections only where the reference (or the code it quotes)
 * names them -- it had no copy of the spec --, qib_mad.c (check_mkey,
 * subn_get_portinfo), OpenSM, the Linux MAD layer and mlx4 driver, NVIDIA
 * UFM documentation.  Where no reference confirms a semantic, the comment
 * says "ASSUMED".
 *
 * Send side (ag_on_send): decide to forward to ibsim, to answer here, or
 * to drop (queue a umad with status 110, as ibsim does for what it drops
 * and the kernel does for what nobody answered).  Receive side
 * (ag_on_recv): learn the topology from forwarded answers and patch the
 * fields ibsim does not store (M_Key, protect bits, lease, violations,
 * partition enforcement, SM_Key hiding, PMA CapabilityMask2).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"

/* --- requests waiting for an answer ------------------------------------ */

#define MAX_PEND 1024

struct pend {
	int		used;
	int		fd;
	uint32_t	tid;		/* low 32 bits: what callers match */
	uint8_t		cls, method;
	uint16_t	attr;
	uint32_t	mod;
	uint64_t	key;		/* MAD bytes 24-31 */
	int		node;		/* -1: not known when sent */
	int		defer;		/* M_Key decision waits for the answer */
	int		retries;
	struct ag_dest	dest;
	size_t		reqlen;
	uint8_t		req[AG_MAD_SIZE];
	unsigned long	age;
};

static struct pend pends[MAX_PEND];
static unsigned long pend_clock;

static struct pend *
pend_find(int fd, uint32_t tid, uint8_t cls)
{
	int i;

	for (i = 0; i < MAX_PEND; i++)
		if (pends[i].used && pends[i].fd == fd &&
		    pends[i].tid == tid && pends[i].cls == cls)
			return &pends[i];
	return NULL;
}

/* A retry reuses its TID (libibmad _do_madrpc): the same slot. */
static struct pend *
pend_new(int fd, uint32_t tid, uint8_t cls)
{
	struct pend *p = pend_find(fd, tid, cls), *old = &pends[0];
	int i;

	for (i = 0; p == NULL && i < MAX_PEND; i++) {
		if (!pends[i].used)
			p = &pends[i];
		else if (pends[i].age < old->age)
			old = &pends[i];
	}
	if (p == NULL)
		p = old;	/* the oldest: its answer never came */
	memset(p, 0, sizeof(*p));
	p->used = 1;
	p->fd = fd;
	p->tid = tid;
	p->cls = cls;
	p->age = ++pend_clock;
	return p;
}

void
ag_forget_fd(int fd)
{
	int i;

	for (i = 0; i < MAX_PEND; i++)
		if (pends[i].fd == fd)
			pends[i].used = 0;
}

/* --- names for the log -------------------------------------------------- */

static const char *
class_name(uint8_t c)
{
	switch (c) {
	case AG_C_SMI: return "SMP";
	case AG_C_SMI_DR: return "DRSMP";
	case AG_C_SA: return "SA";
	case AG_C_PMA: return "PMA";
	case AG_C_BM: return "BM";
	case AG_C_DEVMGT: return "DevMgt";
	case AG_C_CM: return "CM";
	case AG_C_VS: return "VS";
	case AG_C_AM: return "AM";
	case AG_C_CC: return "CC";
	default: return "other";
	}
}

static const char *
method_name(uint8_t m)
{
	switch (m) {
	case 0x01: return "Get";
	case 0x02: return "Set";
	case 0x03: return "Send";
	case 0x05: return "Trap";
	case 0x06: return "Report";
	case 0x07: return "TrapRepress";
	case 0x12: return "GetTable";
	case 0x81: return "GetResp";
	default: return "other";
	}
}

static const char *
attr_name(uint8_t cls, uint16_t a)
{
	if (a == 0x0001)
		return "ClassPortInfo";
	switch (cls) {
	case AG_C_SMI:
	case AG_C_SMI_DR:
		switch (a) {
		case 0x0010: return "NodeDesc";
		case 0x0011: return "NodeInfo";
		case 0x0012: return "SwitchInfo";
		case 0x0014: return "GUIDInfo";
		case 0x0015: return "PortInfo";
		case 0x0016: return "PKeyTable";
		case 0x0020: return "SMInfo";
		default: return "attr";
		}
	case AG_C_CC:
		return a == 0x0012 ? "CongestionKeyInfo" :
		    a == 0x0011 ? "CongestionInfo" : "attr";
	case AG_C_BM:
		return a == 0x0010 ? "BKeyInfo" : "attr";
	case AG_C_VS:
		return a == 0x0017 ? "GeneralInfo" : "attr";
	default:
		return "attr";
	}
}

/* "class=0x81(DRSMP) method=0x01(Get) attr=0x0015(PortInfo) mod=...". */
static void
describe(char *buf, size_t n, const uint8_t *mad, const struct ag_dest *d,
    int node)
{
	const struct ag_node *nd = ag_node(node);
	char ds[200], ns[40];
	uint16_t attr = ag_be16(mad + AG_O_ATTR);

	if (nd != NULL)
		snprintf(ns, sizeof(ns), "0x%016llx",
		    (unsigned long long)nd->guid);
	else
		snprintf(ns, sizeof(ns), "unknown");
	snprintf(buf, n, "class=0x%02x(%s) method=0x%02x(%s) "
	    "attr=0x%04x(%s) mod=0x%08x dest=%s node=%s key=0x%016llx",
	    mad[AG_O_CLASS], class_name(mad[AG_O_CLASS]), mad[AG_O_METHOD],
	    method_name(mad[AG_O_METHOD]), attr,
	    attr_name(mad[AG_O_CLASS], attr), ag_be32(mad + AG_O_MOD),
	    ag_dest_str(d, ds, sizeof(ds)), ns,
	    (unsigned long long)ag_be64(mad + AG_O_KEY));
}

/* --- rules ------------------------------------------------------------- */

static int
sel_match(const struct ag_sel *s, int node)
{
	const struct ag_node *n = ag_node(node);

	if (n == NULL)
		return 0;
	switch (s->kind) {
	case AG_SEL_GUID: return ag_node_has_guid(node, s->guid);
	case AG_SEL_SWITCHES: return n->type == AG_NT_SWITCH;
	case AG_SEL_CAS: return n->type == AG_NT_CA;
	case AG_SEL_ALL: return 1;
	}
	return 0;
}

/* The last line of this kind naming the node wins (README). */
static const struct ag_rule *
rule_for(enum ag_kind k, int node)
{
	const struct ag_rule *best = NULL;
	size_t i;

	for (i = 0; i < ag_conf.nrules; i++)
		if (ag_conf.rules[i].kind == k &&
		    sel_match(&ag_conf.rules[i].sel, node))
			best = &ag_conf.rules[i];
	return best;
}

static const struct ag_rule *
enforce_for(int fd, int node, int port, int *facing)
{
	const struct ag_rule *best = NULL, *r;
	size_t i;
	int nb;

	*facing = -1;
	for (i = 0; i < ag_conf.nrules; i++) {
		r = &ag_conf.rules[i];
		if (r->kind != AG_K_ENFORCE || !sel_match(&r->sel, node))
			continue;
		if (r->ports_kind == AG_PORTS_LIST) {
			if (port > 0 && port < 256 &&
			    (r->ports[port / 8] & (1u << (port % 8))))
				best = r;
		} else if (r->ports_kind == AG_PORTS_ALL)
			best = r;
		else {
			/* What OpenSM does: enforcement on the switch port
			 * facing each end port, never on inter-switch links
			 * (osm_pkey_mgr.c pkey_mgr_update_peer_port, 4.4). */
			if (*facing < 0) {
				nb = ag_topo_neighbour(fd, node, port);
				*facing = nb >= 0 && ag_node(nb)->type !=
				    AG_NT_SWITCH;
			}
			if (*facing)
				best = r;
		}
	}
	return best;
}

/* --- answers made here ---------------------------------------------------- */

/* umad2sim hands a MAD to the agent whose ID is in TID bits 32-47 and
 * sets them on the way out (umad2sim.c umad2sim_write/_read); answers
 * made here look the same.  Callers match the low 32 bits. */
static void
tid_agent(uint8_t *mad, int agent)
{
	mad[AG_O_TID + 2] = (uint8_t)(agent >> 8);
	mad[AG_O_TID + 3] = (uint8_t)agent;
}

static size_t
start_umad(uint8_t *buf, size_t cap, void *req_umad, const uint8_t *req,
    size_t reqlen, int agent)
{
	struct ib_user_mad *u = (struct ib_user_mad *)(void *)buf;
	size_t hs = umad_size();

	if (hs + AG_MAD_SIZE > cap)
		ag_die("umad header of %zu bytes: too large", hs);
	memset(buf, 0, hs + AG_MAD_SIZE);
	memcpy(buf, req_umad, hs);
	u->agent_id = (uint32_t)agent;
	u->status = 0;
	u->timeout_ms = 0;
	u->retries = 0;
	u->length = (uint32_t)(hs + AG_MAD_SIZE);
	memcpy(buf + hs, req, reqlen < AG_MAD_SIZE ? reqlen : AG_MAD_SIZE);
	tid_agent(buf + hs, agent);
	return hs + AG_MAD_SIZE;
}

/* No answer: what ibsim returns for a MAD it drops (the request itself,
 * umad status 110), i.e. what the caller sees when hardware stays silent
 * (ib-security.md 1.6, 7). */
static void
queue_drop(int fd, int agent, void *umad, const uint8_t *req, size_t reqlen)
{
	uint8_t buf[1024];
	size_t n = start_umad(buf, sizeof(buf), umad, req, reqlen, agent);

	((struct ib_user_mad *)(void *)buf)->status = AG_ST_TIMEOUT;
	ag_queue_push(fd, buf, n, 0);
}

/* A GetResp (method 0x81; what ibsim, qib reply() and the kernel's
 * generate_unmatched_resp answer a Get or Set with) with the request's
 * class, version, TID, attribute and modifier.  Returns the MAD; the data
 * from dataoff on is zeroed for the caller to fill. */
static uint8_t *
begin_resp(uint8_t *buf, size_t cap, size_t *n, void *umad,
    const uint8_t *req, size_t reqlen, int agent, uint16_t status,
    size_t dataoff)
{
	uint8_t *m;

	*n = start_umad(buf, cap, umad, req, reqlen, agent);
	m = buf + umad_size();
	m[AG_O_METHOD] = AG_M_GETRESP;
	ag_put16(m + AG_O_STATUS, status);
	memset(m + dataoff, 0, AG_MAD_SIZE - dataoff);
	return m;
}

/* --- M_Key (ib-security.md 1.2, 1.3) ------------------------------------- */

struct verdict {
	int	 drop, valid, expired, stopped, started;
	int	 prot;
	unsigned viol;
};

/*
 * The port's key check, as qib_mad.c check_mkey() and the protection table
 * merged in ib-security.md 1.2 (qib, OPA IB_MKEY_PROTECT, OpenSM man page)
 * have it:
 *  - a running lease timer that has run out clears the protect bits
 *    ("Is the mkey in the process of expiring?", 1.3);
 *  - the key is valid if the port's M_Key is 0 (no checking, 1.4) or the
 *    request carries it;
 *  - a valid Get/Set/TrapRepress stops the lease timer;
 *  - invalid: a Get below level 2 is answered and is no violation; a Get
 *    at level 2 or 3, any Set and any TrapRepress is dropped and is a
 *    violation: M_KeyViolations + 1 (saturating at 0xFFFF), and the lease
 *    timer starts if the lease period is not 0 and no timer runs.
 * ntx: transmissions of this MAD (1 + the kernel retries the caller asked
 * of umad_send; each one reaches the port).  Trap 256 to the SM is not
 * modelled (no SM sees the agent's decisions).
 */
static void
mkey_check(const struct ag_rule *r, int node, uint8_t method,
    uint64_t reqkey, unsigned ntx, int count, struct verdict *v)
{
	struct ag_kstate *ks;
	int64_t now = ag_now_ms();
	int dirty = 0;

	memset(v, 0, sizeof(*v));
	ag_state_begin();
	ks = ag_state_get(AG_K_MKEY, ag_node(node), r);
	if (ks->deadline_ms != 0 && now >= ks->deadline_ms) {
		ks->deadline_ms = 0;
		ks->prot = 0;
		v->expired = dirty = 1;
	}
	v->valid = r->key == 0 || reqkey == r->key;
	if (count && v->valid && ks->deadline_ms != 0 &&
	    (method == AG_M_GET || method == AG_M_SET ||
	    method == AG_M_TRAP_REPRESS)) {
		ks->deadline_ms = 0;
		v->stopped = dirty = 1;
	}
	if (count && !v->valid && (method == AG_M_SET ||
	    method == AG_M_TRAP_REPRESS || (method == AG_M_GET &&
	    ks->prot >= 2))) {
		ks->viol = ks->viol + ntx > 0xffff ? 0xffff : ks->viol + ntx;
		if (ks->deadline_ms == 0 && r->lease != 0) {
			ks->deadline_ms = now + (int64_t)r->lease * 1000;
			v->started = 1;
		}
		v->drop = dirty = 1;
	}
	v->prot = ks->prot;
	v->viol = ks->viol;
	ag_state_end(dirty);
}

static void
log_verdict(const char *desc, const char *rule, const char *action,
    const struct verdict *v, const char *why)
{
	ag_log("%s rule=%s action=%s why=\"%s\" protect=%d violations=%u%s%s%s",
	    desc, rule, action, why, v->prot, v->viol,
	    v->expired ? " lease=expired(protect bits cleared)" : "",
	    v->stopped ? " lease=stopped" : "",
	    v->started ? " lease=started" : "");
}

static int
smp_send(int fd, int agent, void *umad, uint8_t *mad, size_t len,
    int retries)
{
	const struct ag_rule *r;
	struct ag_dest d;
	struct verdict v;
	struct pend *p;
	char desc[512], rule[96];
	uint8_t method = mad[AG_O_METHOD];
	uint16_t attr = ag_be16(mad + AG_O_ATTR);
	uint64_t key = len >= 32 ? ag_be64(mad + AG_O_KEY) : 0;
	int node, defer = 0;

	ag_topo_note_agent(fd, mad[AG_O_CLASS], agent);
	ag_dest_from_umad(umad, mad, len, &d);
	node = ag_topo_lookup(&d);
	if (node < 0) {
		/* An unknown path's NodeInfo answer names the node: decide
		 * then (like the SMA would, it is that node's check). */
		if (method == AG_M_GET && attr == IB_ATTR_NODE_INFO)
			defer = 1;
		else
			node = ag_topo_resolve(fd, &d);
	}
	describe(desc, sizeof(desc), mad, &d, node);
	r = node >= 0 ? rule_for(AG_K_SMP_DROP, node) : NULL;
	if (r != NULL && method == AG_M_GET && attr == r->attr) {
		queue_drop(fd, agent, umad, mad, len);
		ag_log("%s rule=smp_drop(line=%d) action=drop why=\"Gets of "
		    "this attribute are lost on the way (a fault)\"", desc,
		    r->line);
		return 1;
	}
	r = node >= 0 ? rule_for(AG_K_MKEY, node) : NULL;
	if (r != NULL) {
		snprintf(rule, sizeof(rule), "mkey(protect=%d,lease=%u,line=%d)",
		    r->protect, r->lease, r->line);
		mkey_check(r, node, method, key, 1u + (unsigned)(retries > 0 ?
		    retries : 0), 1, &v);
		if (v.drop) {
			queue_drop(fd, agent, umad, mad, len);
			log_verdict(desc, rule, "drop", &v, method == AG_M_GET ?
			    "wrong M_Key, Get at protect level >= 2: no "
			    "response, violation (qib check_mkey; ib-security "
			    "1.2)" : "wrong M_Key on Set/TrapRepress: no "
			    "response, violation (qib check_mkey; ib-security "
			    "1.2)");
			return 1;
		}
		log_verdict(desc, rule, "forward", &v, v.valid ?
		    "M_Key valid (or port M_Key 0)" : "wrong M_Key, Get "
		    "below protect level 2: answered, no violation (qib "
		    "check_mkey)");
	} else
		ag_log("%s rule=%s action=forward", desc, defer ?
		    "deferred(decided on the NodeInfo answer)" : "none");
	p = pend_new(fd, (uint32_t)ag_be64(mad + AG_O_TID), mad[AG_O_CLASS]);
	p->method = method;
	p->attr = attr;
	p->mod = ag_be32(mad + AG_O_MOD);
	p->key = key;
	p->node = node;
	p->defer = defer;
	p->retries = retries > 0 ? retries : 0;
	p->dest = d;
	p->reqlen = len < AG_MAD_SIZE ? len : AG_MAD_SIZE;
	memcpy(p->req, mad, p->reqlen);
	return 0;
}

/* --- CC, VS, AM, BM (ib-security.md 5, 6) --------------------------------- */

static enum ag_kind
class_kind(uint8_t cls)
{
	switch (cls) {
	case AG_C_CC: return AG_K_CC;
	case AG_C_VS: return AG_K_VS;
	case AG_C_AM: return AG_K_AM;
	default: return AG_K_BM;
	}
}

/* Where the attribute data starts.  CC: byte 64 after the CC_Key and the
 * 32-byte CongestionLog area (5; mad.h IB_CC_DATA_OFFS).  BM: 64 after the
 * B_Key and 32 reserved bytes (6.4; IB_BM_DATA_OFFS).  AM: 64
 * (IBIS_IB_DATA_OFFSET_AM, 6.2).  Mellanox VS: 32, after the 8-byte VS_Key
 * at the start of the range-1 data (6.1; IBIS_IB_DATA_OFFSET_VENDOR_MELLANOX).
 */
static size_t
class_data_off(uint8_t cls)
{
	return cls == AG_C_VS ? 32 : 64;
}

/*
 * The class key check.  CC: CC_Key at bytes 24-31 (IB_CC_CCKEY_F, 5);
 * BM: B_Key at 24-31 (IB_BM_BKEY_OFFS, 6.4); VS: the first 8 bytes of the
 * range-1 data, 24-31 (MFT mtcr_ib_ofed.c, 6.1); AM: bytes 24-31 is
 * ASSUMED (the AM_Key position is unconfirmed, 6.2).
 * Semantics, by analogy with M_Key levels 0/1 and 2 and UFM's
 * cc_key_protect_bit ("0: ... CC managers are allowed to read the key by
 * KeyInfo GET. 1: Protect subnet ports with CC key", 5) -- ASSUMED for the
 * exact per-method rules, which no reference states:
 *  - key 0 on the node: no check ("0 means that no CC_Key check is ever
 *    performed", IBIS comment, 5);
 *  - valid key: answered; a valid Get/Set stops the lease timer;
 *  - wrong key, Get, protect bit 0: answered (no violation);
 *  - wrong key, Get with protect bit 1, or any other method: dropped,
 *    violation (+1, saturating), lease timer started if period != 0;
 *  - lease expiry clears the protect bit ("how long the CC Key protect bit
 *    is to remain non-zero", CC_KeyLeasePeriod, 5).
 */
static void
class_check(const struct ag_rule *r, int node, enum ag_kind k,
    uint8_t method, uint64_t reqkey, unsigned ntx, struct verdict *v)
{
	struct ag_kstate *ks;
	int64_t now = ag_now_ms();
	int dirty = 0;

	memset(v, 0, sizeof(*v));
	ag_state_begin();
	ks = ag_state_get(k, ag_node(node), r);
	if (ks->deadline_ms != 0 && now >= ks->deadline_ms) {
		ks->deadline_ms = 0;
		ks->prot = 0;
		v->expired = dirty = 1;
	}
	v->valid = r->key == 0 || reqkey == r->key;
	if (v->valid && ks->deadline_ms != 0 &&
	    (method == AG_M_GET || method == AG_M_SET)) {
		ks->deadline_ms = 0;
		v->stopped = dirty = 1;
	}
	if (!v->valid && (method != AG_M_GET || ks->prot >= 1)) {
		ks->viol = ks->viol + ntx > 0xffff ? 0xffff : ks->viol + ntx;
		if (ks->deadline_ms == 0 && r->lease != 0) {
			ks->deadline_ms = now + (int64_t)r->lease * 1000;
			v->started = 1;
		}
		v->drop = dirty = 1;
	}
	v->prot = ks->prot;
	v->viol = ks->viol;
	ag_state_end(dirty);
}

/* ClassPortInfo (layout: libibmad IB_CPI_*_F; infiniband-diags vendstat.c:
 * "vendor ClassPortInfo is required attribute if class supported"). */
static void
fill_cpi(uint8_t *data, uint8_t classver)
{
	mad_set_field(data, 0, IB_CPI_BASEVER_F, 1);
	mad_set_field(data, 0, IB_CPI_CLASSVER_F, classver);
	mad_set_field(data, 0, IB_CPI_CAPMASK_F, 0);
	mad_set_field(data, 0, IB_CPI_RESP_TIME_VALUE_F, 18);
}

/* CongestionKeyInfo (A10.4.3.4, ib-security.md 5: key 0-7, protect bit
 * byte 8 bit 7, lease 10-11, violations 12-13); BKeyInfo uses the same
 * layout -- ASSUMED ("presumably like CongestionKeyInfo", 6.4). */
static void
fill_keyinfo(uint8_t *data, uint64_t key, int prot, unsigned lease,
    unsigned viol)
{
	mad_set_field64(data, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_F, key);
	mad_set_field(data, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_PROTECT_BIT_F,
	    (uint32_t)prot);
	mad_set_field(data, 0,
	    IB_CC_CONGESTION_KEY_INFO_CC_KEY_LEASE_PERIOD_F, lease);
	mad_set_field(data, 0,
	    IB_CC_CONGESTION_KEY_INFO_CC_KEY_VIOLATIONS_F, viol);
}

/* Mellanox GeneralInfo (0x17), the layout infiniband-diags vendstat.c
 * reads (is4_general_info_t after the 8-byte key area): plausible,
 * visibly synthetic values. */
static void
fill_general_info(uint8_t *data, uint16_t devid)
{
	static const char psid[] = "FA_AGENT_SIM";
	uint8_t *hw = data, *fw = data + 32, *ext = fw + 36, *sw = ext + 28;

	ag_put16(hw + 0, 0x00a0);		/* hw_revision */
	ag_put16(hw + 2, devid);		/* device_id (NodeInfo) */
	hw[30] = 0x0e; hw[31] = 0x10;		/* uptime 3600 s */
	fw[1] = 15; fw[2] = 20; fw[3] = 0;	/* major.minor.sub */
	fw[7] = 1;				/* build_id */
	fw[8] = 0x01; fw[9] = 0x15;		/* month, day (BCD) */
	ag_put16(fw + 10, 0x2024);		/* year (BCD) */
	memcpy(fw + 16, psid, sizeof(psid));	/* psid[16] */
	ext[3] = 15;				/* ext_major */
	ag_put16(ext + 6, 2008);		/* ext_minor */
	ag_put16(ext + 10, 2430);		/* ext_sub_minor */
	sw[1] = 1; sw[2] = 0; sw[3] = 0;
}

static int
gmp_send(int fd, int agent, void *umad, uint8_t *mad, size_t len,
    int retries)
{
	enum ag_kind k = class_kind(mad[AG_O_CLASS]);
	ib_mad_addr_t *a = umad_get_mad_addr(umad);
	const struct ag_rule *r;
	struct ag_dest d;
	struct verdict v;
	uint8_t buf[1024], *m, *data, method = mad[AG_O_METHOD];
	uint16_t attr = ag_be16(mad + AG_O_ATTR), st;
	uint64_t key = len >= 32 ? ag_be64(mad + AG_O_KEY) : 0;
	char desc[512], rule[128];
	const char *what;
	size_t n, off = class_data_off(mad[AG_O_CLASS]);
	int node;

	ag_dest_lid(a != NULL ? ntohs(a->lid) : 0, &d);
	node = ag_topo_resolve(fd, &d);
	describe(desc, sizeof(desc), mad, &d, node);
	r = node >= 0 ? rule_for(k, node) : NULL;
	if (r == NULL) {
		ag_log("%s rule=none action=forward why=\"no %s rule for "
		    "this node: ibsim's behaviour\"", desc, ag_kind_name(k));
		return 0;
	}
	snprintf(rule, sizeof(rule), "%s(%s,line=%d)", ag_kind_name(k),
	    r->mode == AG_MODE_ABSENT ? "absent" :
	    r->mode == AG_MODE_UNSUPPORTED ? "unsupported" : "keyed",
	    r->line);
	if (r->mode == AG_MODE_ABSENT) {
		/* No agent for the class and nobody answering: the request
		 * times out (ibsim drops it, 6.6; firmware may too). */
		queue_drop(fd, agent, umad, mad, len);
		ag_log("%s rule=%s action=drop why=\"class absent: no "
		    "response (6.6)\"", desc, rule);
		return 1;
	}
	if (r->mode == AG_MODE_UNSUPPORTED) {
		/* A Linux host's MAD layer: GetResp, status 0x000C
		 * (kernel mad.c generate_unmatched_resp, 6.6). */
		begin_resp(buf, sizeof(buf), &n, umad, mad, len, agent,
		    AG_MST_UNSUP_ATTR, off);
		ag_queue_push(fd, buf, n, 0);
		ag_log("%s rule=%s action=answer status=0x%04x why=\"class "
		    "unsupported: the MAD layer answers 0x000C (6.6)\"", desc,
		    rule, AG_MST_UNSUP_ATTR);
		return 1;
	}
	class_check(r, node, k, method, key, 1u + (unsigned)(retries > 0 ?
	    retries : 0), &v);
	if (v.drop) {
		queue_drop(fd, agent, umad, mad, len);
		log_verdict(desc, rule, "drop", &v, method == AG_M_GET ?
		    "wrong key, Get with protect bit 1: no response, violation"
		    : "wrong key on a non-Get method: no response, violation");
		return 1;
	}
	st = 0;
	what = NULL;
	m = begin_resp(buf, sizeof(buf), &n, umad, mad, len, agent, 0, off);
	data = m + off;
	if (method != AG_M_GET)
		st = AG_MST_UNSUP_ATTR;	/* Sets are not modelled */
	else if (attr == CLASS_PORT_INFO) {
		fill_cpi(data, mad[AG_O_CLASSVER]);
		what = "ClassPortInfo";
	} else if (k == AG_K_CC && attr == IB_CC_ATTR_CONGESTION_KEY_INFO) {
		/* The key itself: valid key, or protect bit 0 (UFM
		 * cc_key_protect_bit 0: "allowed to read the key", 5). */
		fill_keyinfo(data, r->key, v.prot, r->lease, v.viol);
		what = "CongestionKeyInfo";
	} else if (k == AG_K_BM && attr == IB_BM_ATTR_BKEYINFO) {
		fill_keyinfo(data, r->key, v.prot, r->lease, v.viol);
		what = "BKeyInfo";
	} else if (k == AG_K_VS && attr == 0x0017) {
		fill_general_info(data, ag_node(node)->devid);
		what = "GeneralInfo";
	} else
		st = AG_MST_UNSUP_ATTR;
	ag_put16(m + AG_O_STATUS, st);
	ag_queue_push(fd, buf, n, 0);
	log_verdict(desc, rule, "answer", &v, st != 0 ?
	    "key accepted; method/attribute not modelled: 0x000C" :
	    v.valid ? "key valid (or node key 0): answered" :
	    "wrong key, Get with protect bit 0: answered, no violation");
	if (what != NULL)
		ag_log("%s answered with %s status=0x0000", desc, what);
	return 1;
}

/* --- the VF-like local port (ib-security.md 6.6, 8) ------------------------- */

/* mlx4_ib_multiplex_mad(): a VF without SMI has its SMPs (0x01, 0x81)
 * dropped by the PF; "mlx4" also drops what that function drops for any
 * slave: every class but SA, CM and DevMgt (DevMgt: Get/Set only). */
static int
vf_drops(uint8_t cls, uint8_t method)
{
	if (ag_conf.local_vf == AG_VF_NO)
		return 0;
	if (cls == AG_C_SMI || cls == AG_C_SMI_DR)
		return 1;
	if (ag_conf.local_vf != AG_VF_MLX4 || cls == AG_C_SA ||
	    cls == AG_C_CM)
		return 0;
	if (cls == AG_C_DEVMGT)
		return method != AG_M_GET && method != AG_M_SET;
	return 1;
}

/* --- the SA ------------------------------------------------------------------ */

/*
 * An SA other than OpenSM's.  "trust-all" answers a PKeyTableRecord Get
 * whatever SM_Key it carries, as an SA with no trusted/untrusted check
 * would (OpenSM rejects the untrusted one with 0x0200,
 * osm_sa_pkey_record.c): one record, P_Key 0xffff in entry 0; everything
 * else goes on to OpenSM.  "silent" answers nothing, as an SA that is not
 * there.
 */
static int
sa_send(int fd, int agent, void *umad, const uint8_t *mad, size_t len)
{
	uint8_t buf[1024], *m;
	struct ag_dest d;
	char desc[512];
	size_t n;

	ag_dest_from_umad(umad, mad, len, &d);
	describe(desc, sizeof(desc), mad, &d, -1);
	if (ag_conf.sa == AG_SA_SILENT) {
		queue_drop(fd, agent, umad, mad, len);
		ag_log("%s rule=sa(silent) action=drop why=\"no SA answers\"",
		    desc);
		return 1;
	}
	if (ag_conf.sa == AG_SA_BUSY) {
		/* MAD status bit 0, "Busy" (IBA vol. 1 13.4.7): the
		 * responder cannot answer now, the requester may retry. */
		m = begin_resp(buf, sizeof(buf), &n, umad, mad, len, agent,
		    0x0001, 56);
		m[AG_O_METHOD] = (uint8_t)(mad[AG_O_METHOD] | 0x80);
		ag_queue_push(fd, buf, n, 0);
		ag_log("%s rule=sa(busy) action=answer why=\"status 0x0001 "
		    "busy\"", desc);
		return 1;
	}
	if (mad[AG_O_METHOD] != AG_M_GET ||
	    ag_be16(mad + AG_O_ATTR) != 0x0033)
		return 0;
	/* SA header (IBA vol. 1 15.2.1.1): AttributeOffset at 44, data at
	 * 56; PKeyTableRecord: LID, block, port, 3 reserved, 32 P_Keys. */
	m = begin_resp(buf, sizeof(buf), &n, umad, mad, len, agent, 0, 56);
	ag_put16(m + 44, 72 / 8);
	m[56] = mad[56];
	m[57] = mad[57];
	m[64] = 0xff;
	m[65] = 0xff;
	ag_queue_push(fd, buf, n, 0);
	ag_log("%s rule=sa(trust-all) action=answer why=\"PKeyTableRecord "
	    "for any SM_Key, 0x0200 never\"", desc);
	return 1;
}

/* --- P_Key checking of GMPs (PerfMgt) ------------------------------------ */

/*
 * A GMP is accepted only when the P_Key it carries (our table's entry at
 * the umad's P_Key index) matches one of the receiving port's: same base,
 * at least one of the two full (IBA vol. 1 10.9.3; qib_pkey_ok()); a
 * mismatch is dropped at the receiver, which raises trap 257.  ibsim does
 * no P_Key checking at all (ib-security.md 4.5).  Returns 1 if dropped.
 */
static int
pkey_drops(int fd, int agent, void *umad, const uint8_t *mad, size_t len)
{
	ib_mad_addr_t *a = umad_get_mad_addr(umad);
	const struct ag_rule *r;
	struct ag_dest d;
	char desc[512];
	int node, idx, i, ok = 0;
	uint16_t ours;

	ag_dest_lid(a != NULL ? ntohs(a->lid) : 0, &d);
	if ((node = ag_topo_resolve(fd, &d)) < 0 ||
	    (r = rule_for(AG_K_PKEYS, node)) == NULL)
		return 0;	/* no table declared: ibsim's behaviour */
	idx = umad_get_pkey(umad);
	ours = idx >= 0 && idx < ag_conf.nself_pkeys ?
	    ag_conf.self_pkeys[idx] : 0;
	for (i = 0; i < r->npkeys && (ours & 0x7fff) != 0; i++)
		if ((r->pkeys[i] & 0x7fff) == (ours & 0x7fff) &&
		    ((r->pkeys[i] | ours) & 0x8000))
			ok = 1;
	if (ok)
		return 0;
	describe(desc, sizeof(desc), mad, &d, node);
	queue_drop(fd, agent, umad, mad, len);
	ag_log("%s rule=pkeys(line=%d) action=drop why=\"P_Key 0x%04x (index "
	    "%d) matches none of the receiver's: dropped, trap 257 (10.9.3)\"",
	    desc, r->line, ours, idx);
	return 1;
}

/* --- entry points -------------------------------------------------------- */

int
ag_on_send(int fd, int agent, void *umad, int length, int retries)
{
	const uint8_t *orig = umad_get_mad(umad);
	uint8_t mad[AG_MAD_SIZE];	/* zero-padded copy: reads stay in */
	size_t len = (size_t)length;
	uint8_t cls;

	if (orig == NULL || length < 24)
		return 0;
	memset(mad, 0, sizeof(mad));
	memcpy(mad, orig, len < sizeof(mad) ? len : sizeof(mad));
	cls = mad[AG_O_CLASS];
	if (mad[AG_O_METHOD] & 0x80)
		return 0;	/* an answer this process sends: not ours */
	if (vf_drops(cls, mad[AG_O_METHOD])) {
		struct ag_dest d;
		char desc[512];

		ag_dest_from_umad(umad, mad, len, &d);
		describe(desc, sizeof(desc), mad, &d, -1);
		queue_drop(fd, agent, umad, mad, len);
		ag_log("%s rule=local_vf(%s) action=drop why=\"VF without "
		    "SMI: the PF drops its egress %s (mlx4_ib_multiplex_mad, "
		    "6.6)\"", desc, ag_conf.local_vf == AG_VF_MLX4 ? "mlx4" :
		    "yes", cls == AG_C_SMI || cls == AG_C_SMI_DR ? "SMPs" :
		    "MADs of this class");
		return 1;
	}
	if (cls == AG_C_SA && ag_conf.sa != AG_SA_OPENSM)
		return sa_send(fd, agent, umad, mad, len);
	if (cls == AG_C_SMI || cls == AG_C_SMI_DR) {
		/* Nothing to model without node rules: pure pass-through. */
		if (!ag_conf_has(AG_K_MKEY) && !ag_conf_has(AG_K_ENFORCE) &&
		    !ag_conf_has(AG_K_SWCAP) && !ag_conf_has(AG_K_SMP_DROP))
			return 0;
		return smp_send(fd, agent, umad, mad, len, retries);
	}
	if (cls == AG_C_CC || cls == AG_C_VS || cls == AG_C_AM ||
	    cls == AG_C_BM) {
		if (!ag_conf_has(class_kind(cls)))
			return 0;
		return gmp_send(fd, agent, umad, mad, len, retries);
	}
	if (cls == AG_C_PMA && ag_conf.nself_pkeys > 0 &&
	    ag_conf_has(AG_K_PKEYS) && pkey_drops(fd, agent, umad, mad, len))
		return 1;
	if (cls == AG_C_PMA && mad[AG_O_METHOD] == AG_M_GET &&
	    ag_be16(mad + AG_O_ATTR) == CLASS_PORT_INFO &&
	    ag_conf_has(AG_K_PMA)) {
		ib_mad_addr_t *a = umad_get_mad_addr(umad);
		struct ag_dest d;
		struct pend *p;

		ag_dest_lid(a != NULL ? ntohs(a->lid) : 0, &d);
		p = pend_new(fd, (uint32_t)ag_be64(mad + AG_O_TID), cls);
		p->method = AG_M_GET;
		p->attr = CLASS_PORT_INFO;
		p->dest = d;
		p->reqlen = len < AG_MAD_SIZE ? len : AG_MAD_SIZE;
		memcpy(p->req, mad, p->reqlen);
		p->node = ag_topo_resolve(fd, &d);
	}
	return 0;
}

/* PortInfo answer: M_Key fields and partition enforcement bits. */
static void
patch_portinfo(int fd, const struct pend *p, int node, uint8_t *mad,
    const char *desc)
{
	const struct ag_node *n = ag_node(node);
	const struct ag_rule *r;
	int port = (int)(p->mod & 0xff), facing;
	struct verdict v;

	/* M_Key, lease, protect bits and violations belong to CA/router
	 * ports and switch port 0 only (OpenSM osm_link_mgr.c: "relevant
	 * only for CA port, router, or Enh. SP0"). */
	r = rule_for(AG_K_MKEY, node);
	if (r != NULL && (n->type != AG_NT_SWITCH || port == 0)) {
		int hide;

		mkey_check(r, node, p->method, p->key, 0, 0, &v);
		/* qib subn_get_portinfo(): the M_Key goes back unless a Get
		 * with a mismatching key meets protect level 1 (1.2). */
		hide = p->method == AG_M_GET && p->key != r->key && v.prot == 1;
		mad_set_field64(mad, AG_O_DATA, IB_PORT_MKEY_F,
		    hide ? 0 : r->key);
		mad_set_field(mad, AG_O_DATA, IB_PORT_MKEY_PROT_BITS_F,
		    (uint32_t)v.prot);
		mad_set_field(mad, AG_O_DATA, IB_PORT_MKEY_LEASE_F, r->lease);
		mad_set_field(mad, AG_O_DATA, IB_PORT_MKEY_VIOL_F, v.viol);
		ag_log("%s rule=mkey(line=%d) action=patch M_Key=%s "
		    "ProtectBits=%d MkeyLeasePeriod=%u MkeyViolations=%u%s",
		    desc, r->line, hide ? "0(hidden: protect 1, wrong key)" :
		    "real", v.prot, r->lease, v.viol, v.expired ?
		    " lease=expired(protect bits cleared)" : "");
	}
	/* PortInfo byte 43 bits 3/2, PartitionEnforcementInbound/Outbound,
	 * of a switch external port (ib-security.md 4.3; libibmad
	 * PartEnforceInb/Outb, OpenSM vl_enforce); for a switch
	 * the attribute modifier is the port number. */
	if (n->type == AG_NT_SWITCH && port >= 1 &&
	    (r = enforce_for(fd, node, port, &facing)) != NULL) {
		if (r->inbound >= 0)
			mad_set_field(mad, AG_O_DATA, IB_PORT_PART_EN_INB_F,
			    (uint32_t)r->inbound);
		if (r->outbound >= 0)
			mad_set_field(mad, AG_O_DATA, IB_PORT_PART_EN_OUTB_F,
			    (uint32_t)r->outbound);
		ag_log("%s rule=part_enforce(line=%d) action=patch port=%d%s "
		    "PartEnforceInb=%u PartEnforceOutb=%u", desc, r->line, port,
		    facing > 0 ? "(faces an end port)" : "",
		    mad_get_field(mad, AG_O_DATA, IB_PORT_PART_EN_INB_F),
		    mad_get_field(mad, AG_O_DATA, IB_PORT_PART_EN_OUTB_F));
	}
}

static void
smp_recv(int fd, struct ib_user_mad *u, uint8_t *mad, size_t len,
    struct pend *p)
{
	const struct ag_rule *r;
	struct verdict v;
	char desc[512];
	uint16_t mst;
	int node;

	mst = ag_be16(mad + AG_O_STATUS);
	if (p->cls == AG_C_SMI_DR)
		mst &= 0x7fff;	/* bit 15: the D bit (section 7) */
	if (mst == 0)
		ag_topo_learn(&p->dest, p->attr, p->mod, mad, len);
	node = p->node >= 0 ? p->node : ag_topo_lookup(&p->dest);
	if (node < 0)
		return;
	describe(desc, sizeof(desc), p->req, &p->dest, node);
	if (p->defer && (r = rule_for(AG_K_MKEY, node)) != NULL) {
		char rule[96];

		snprintf(rule, sizeof(rule), "mkey(protect=%d,lease=%u,line=%d)",
		    r->protect, r->lease, r->line);
		mkey_check(r, node, p->method, p->key, 1u + (unsigned)p->retries,
		    1, &v);
		if (v.drop) {
			/* Replace the answer by ibsim's drop: the request,
			 * status 110 (TID as it came back). */
			uint8_t tid[8];

			memcpy(tid, mad + AG_O_TID, 8);
			memset(mad, 0, len);
			memcpy(mad, p->req, p->reqlen < len ? p->reqlen : len);
			memcpy(mad + AG_O_TID, tid, 8);
			u->status = AG_ST_TIMEOUT;
			log_verdict(desc, rule, "drop", &v, "wrong M_Key, Get at "
			    "protect level >= 2: no response, violation (qib "
			    "check_mkey; ib-security 1.2); decided on the "
			    "NodeInfo answer");
			return;
		}
		log_verdict(desc, rule, "forward", &v, v.valid ? "M_Key valid "
		    "(or port M_Key 0)" : "wrong M_Key, Get below protect "
		    "level 2: answered, no violation (qib check_mkey)");
	}
	if (mst != 0 || len < AG_O_DATA + IB_SMP_DATA_SIZE)
		return;
	if (p->attr == IB_ATTR_PORT_INFO)
		patch_portinfo(fd, p, node, mad, desc);
	else if (p->attr == IB_ATTR_SMINFO &&
	    (r = rule_for(AG_K_MKEY, node)) != NULL) {
		/* OpenSM osm_sminfo_rcv.c:632-633: SM port M_Key != 0,
		 * protect bits 1, requester's key wrong -> SM_Key 0 (2.2). */
		mkey_check(r, node, p->method, p->key, 0, 0, &v);
		if (r->key != 0 && p->key != r->key && v.prot == 1) {
			mad_set_field64(mad, AG_O_DATA, IB_SMINFO_KEY_F, 0);
			ag_log("%s rule=mkey(line=%d) action=patch SM_Key=0"
			    "(hidden: SM port at protect 1, wrong M_Key)", desc,
			    r->line);
		}
	} else if (p->attr == IB_ATTR_SWITCH_INFO &&
	    ag_node(node)->type == AG_NT_SWITCH &&
	    (r = rule_for(AG_K_SWCAP, node)) != NULL) {
		/* SwitchInfo byte 16 bits 7/6, Inbound/Outbound
		 * EnforcementCap (4.3; libibmad "InboundPartEnf"). */
		if (r->inbound >= 0)
			mad_set_field(mad, AG_O_DATA, IB_SW_PARTITION_ENF_INB_F,
			    (uint32_t)r->inbound);
		if (r->outbound >= 0)
			mad_set_field(mad, AG_O_DATA,
			    IB_SW_PARTITION_ENF_OUTB_F, (uint32_t)r->outbound);
		ag_log("%s rule=switch_enforce_cap(line=%d) action=patch "
		    "InboundPartEnf=%u OutboundPartEnf=%u", desc, r->line,
		    mad_get_field(mad, AG_O_DATA, IB_SW_PARTITION_ENF_INB_F),
		    mad_get_field(mad, AG_O_DATA, IB_SW_PARTITION_ENF_OUTB_F));
	}
}

void
ag_on_recv(int fd, void *umad, int length)
{
	struct ib_user_mad *u = umad;
	uint8_t *mad = umad_get_mad(umad);
	size_t len = (size_t)length;
	struct pend *p;

	if (mad == NULL || length < 24)
		return;
	if (len > AG_MAD_SIZE)
		len = AG_MAD_SIZE;	/* patches touch the first MAD only */
	p = pend_find(fd, (uint32_t)ag_be64(mad + AG_O_TID), mad[AG_O_CLASS]);
	if (p == NULL)
		return;
	if (u->status != 0) {
		/* ibsim's (or the kernel's) no-answer: nothing to patch */
		p->used = 0;
		return;
	}
	if (!(mad[AG_O_METHOD] & 0x80))
		return;		/* not the answer (a request, same TID) */
	if (p->cls == AG_C_SMI || p->cls == AG_C_SMI_DR)
		smp_recv(fd, u, mad, len, p);
	else if (p->cls == AG_C_PMA && p->node >= 0 &&
	    ag_be16(mad + AG_O_STATUS) == 0 && len >= 64 + 8) {
		const struct ag_rule *r = rule_for(AG_K_PMA, p->node);

		if (r != NULL) {
			/* PMA ClassPortInfo CapabilityMask2 bit 0,
			 * IsPMKeySupported (6.5; iba_types.h
			 * IB_PM_IS_PM_KEY_SUPPORTED). */
			uint32_t cm2 = mad_get_field(mad, IB_PC_DATA_OFFS,
			    IB_CPI_CAPMASK2_F);
			char desc[512];

			cm2 = r->pmkey_supported ? cm2 | 1u : cm2 & ~1u;
			mad_set_field(mad, IB_PC_DATA_OFFS, IB_CPI_CAPMASK2_F,
			    cm2);
			describe(desc, sizeof(desc), p->req, &p->dest,
			    p->node);
			ag_log("%s rule=pma(line=%d) action=patch "
			    "CapabilityMask2=0x%07x IsPMKeySupported=%d", desc,
			    r->line, cm2, r->pmkey_supported);
		}
	}
	p->used = 0;
}
