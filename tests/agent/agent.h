/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit spec-conforming test agent (tests/agent/README).
 *
 * An LD_PRELOAD library loaded into the scanner process in front of
 * libumad2sim.so.  It interposes libibumad's umad_send(), umad_recv(),
 * umad_poll() and umad_close_port() and makes the simulated fabric behave
 * as conforming hardware would where ibsim cannot: M_Key protection levels
 * with lease and violation counting, partition-enforcement bits, the CC,
 * VS, AM and BM classes with key and protect-bit semantics, the PMA
 * IsPMKeySupported bit and a VF-like local port.  Test code only: never
 * linked into fabaudit.
 *
 * Internal interfaces, shared by the files of tests/agent/.  Everything
 * declared here has hidden visibility, so that no agent symbol can clash
 * with one of the host program; only the interposed libibumad functions
 * are exported.
 */
#ifndef FA_AGENT_H
#define FA_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#pragma GCC visibility push(hidden)

#define AG_MAD_SIZE	256	/* IB_MAD_SIZE */
#define AG_EXIT_CONFIG	97	/* exit status for a broken scenario file */
/* What ibsim (sim_mad.c process_packet, "_dropped") and the kernel MAD
 * layer put in the umad status of a request nobody answered. */
#define AG_ST_TIMEOUT	110	/* ETIMEDOUT */
/* IBA vol. 1 13.4.7 (ib-security.md section 7): "unsupported method /
 * attribute combination", what a Linux MAD layer answers for a class
 * nobody serves (kernel mad.c generate_unmatched_resp, section 6.6). */
#define AG_MST_UNSUP_ATTR 0x000c

/* MAD header (IBA vol. 1 13.4.2; directed route: 14.2.1.2, as libibmad
 * fields.c cites them; ib-security.md 1.1). */
enum {
	AG_O_CLASS = 1, AG_O_CLASSVER = 2, AG_O_METHOD = 3, AG_O_STATUS = 4,
	AG_O_HOPPTR = 6, AG_O_HOPCNT = 7, AG_O_TID = 8, AG_O_ATTR = 16,
	AG_O_MOD = 20, AG_O_KEY = 24, AG_O_DRSLID = 32, AG_O_DRDLID = 34,
	AG_O_DATA = 64, AG_O_IPATH = 128
};

enum {
	AG_C_SMI = 0x01, AG_C_SMI_DR = 0x81, AG_C_SA = 0x03, AG_C_PMA = 0x04,
	AG_C_BM = 0x05, AG_C_DEVMGT = 0x06, AG_C_CM = 0x07, AG_C_VS = 0x0a,
	AG_C_AM = 0x0b, AG_C_CC = 0x21
};

enum {
	AG_M_GET = 0x01, AG_M_SET = 0x02, AG_M_TRAP_REPRESS = 0x07,
	AG_M_GETRESP = 0x81
};

enum { AG_NT_CA = 1, AG_NT_SWITCH = 2, AG_NT_ROUTER = 3 };

/* --- scenario file (conf.c) ------------------------------------------- */

enum ag_sel_kind { AG_SEL_GUID, AG_SEL_SWITCHES, AG_SEL_CAS, AG_SEL_ALL };

struct ag_sel {
	enum ag_sel_kind kind;
	uint64_t	 guid;		/* AG_SEL_GUID: a node or port GUID */
};

enum ag_kind {
	AG_K_MKEY, AG_K_CC, AG_K_VS, AG_K_AM, AG_K_BM,	/* keyed things */
	AG_K_PMA, AG_K_ENFORCE, AG_K_SWCAP, AG_K_PKEYS, AG_K_SMP_DROP,
	AG_K_COUNT
};

enum ag_mode { AG_MODE_ABSENT, AG_MODE_UNSUPPORTED, AG_MODE_KEYED };

enum ag_ports { AG_PORTS_LIST, AG_PORTS_CA_FACING, AG_PORTS_ALL };

struct ag_rule {
	enum ag_kind	kind;
	struct ag_sel	sel;
	int		line;
	/* mkey; cc/vs/am/bm in AG_MODE_KEYED */
	enum ag_mode	mode;
	uint64_t	key;
	int		protect;
	unsigned	lease;		/* seconds, 16 bits */
	unsigned	violations;	/* initial count, 16 bits */
	/* pma */
	int		pmkey_supported;
	/* part_enforce (ports) and switch_enforce_cap: 0/1, -1 unchanged */
	enum ag_ports	ports_kind;
	uint8_t		ports[32];	/* bitmap of ports 0..255 */
	int		inbound, outbound;
	/* pkeys: the node's P_Key table, in index order */
	uint16_t	pkeys[32];
	int		npkeys;
	/* smp_drop: the attribute whose SMP Gets are lost */
	unsigned	attr;
};

enum ag_vf { AG_VF_NO, AG_VF_YES, AG_VF_MLX4 };
/* The SA: OpenSM's own (forwarded), one that trusts every requester, or
 * none that answers. */
enum ag_sa { AG_SA_OPENSM, AG_SA_TRUST_ALL, AG_SA_SILENT, AG_SA_BUSY };

/* Faults (fault.c): malformed answers, odd NodeInfo, a pause. */
enum ag_mangle_how {
	AG_MG_TRUNCATE, AG_MG_TID, AG_MG_ATTR, AG_MG_COUNT, AG_MG_LENGTH
};

struct ag_mangle {
	int		 sa;		/* 1: SA answers; 0: SMP answers */
	unsigned	 attr;		/* 0: any attribute */
	enum ag_mangle_how how;
	int		 line;
};

struct ag_numports {
	struct ag_sel	 sel;
	unsigned	 n;
	int		 line;
};

#define AG_MAX_FAULTS	8

struct ag_conf {
	char		*path;
	enum ag_vf	 local_vf;
	enum ag_sa	 sa;
	uint16_t	 self_pkeys[32];	/* our table, index order */
	int		 nself_pkeys;
	struct ag_rule	*rules;
	size_t		 nrules;
	unsigned long	 pause_after;	/* 0: never pause */
	struct ag_mangle mangles[AG_MAX_FAULTS];
	size_t		 nmangles;
	struct ag_numports numports[AG_MAX_FAULTS];
	size_t		 nnumports;
};

extern struct ag_conf ag_conf;
extern int ag_active;		/* a scenario is loaded */

void ag_conf_load(const char *path);
const char *ag_kind_name(enum ag_kind k);
int ag_conf_has(enum ag_kind k);

/* --- topology (topo.c) ------------------------------------------------ */

#define AG_MAX_HOPS	63	/* IB_SUBNET_PATH_HOPS_MAX - 1 */

struct ag_dest {
	int	 dr;		/* directed route (class 0x81) */
	uint16_t lid;		/* LID-routed: DLID; DR: umad address LID */
	uint16_t drslid;
	int	 hops;
	uint8_t	 path[AG_MAX_HOPS + 1];	/* initial path, [1..hops] */
};

struct ag_node {
	uint64_t guid;
	uint8_t	 type;		/* AG_NT_* */
	uint8_t	 nports;
	uint16_t devid;
	uint16_t lid;		/* 0: unknown */
};

void ag_dest_from_umad(void *umad, const uint8_t *mad, size_t len,
    struct ag_dest *d);
void ag_dest_lid(uint16_t lid, struct ag_dest *d);
char *ag_dest_str(const struct ag_dest *d, char *buf, size_t n);
int ag_topo_lookup(const struct ag_dest *d);
int ag_topo_resolve(int fd, const struct ag_dest *d);
int ag_topo_neighbour(int fd, int node, int port);
void ag_topo_learn(const struct ag_dest *d, unsigned attr, uint32_t mod,
    uint8_t *mad, size_t len);
const struct ag_node *ag_node(int idx);
int ag_node_has_guid(int idx, uint64_t guid);
void ag_topo_forget_fd(int fd);
void ag_topo_note_agent(int fd, int cls, int agent);

/* --- the interposed calls and the delivery queue (core.c) --------------- */

int ag_real_send(int fd, int agent, void *umad, int length, int timeout_ms,
    int retries);
int ag_real_recv(int fd, void *umad, int *length, int timeout_ms);
void ag_queue_push(int fd, const void *umad, size_t total, int raw);

/* --- behaviours (model.c) --------------------------------------------- */

int ag_on_send(int fd, int agent, void *umad, int length, int retries);
void ag_on_recv(int fd, void *umad, int length);
void ag_forget_fd(int fd);

/* --- faults (fault.c) --------------------------------------------------- */

void ag_fault_send(void);
int ag_fault_recv(void *umad, int length);

/* --- persistent key state and the decision log (state.c) --------------- */

struct ag_kstate {
	int	 kind;		/* enum ag_kind */
	uint64_t guid;		/* node GUID */
	uint64_t key;		/* the rule's key, to detect a changed rule */
	int	 cfgprot;	/* the rule's protect level, likewise */
	int	 prot;		/* current protect bits (a lease may clear) */
	unsigned viol;		/* violation counter, saturating at 0xffff */
	int64_t	 deadline_ms;	/* lease timer, wall clock; 0: not running */
};

void ag_state_begin(void);
struct ag_kstate *ag_state_get(enum ag_kind kind, const struct ag_node *n,
    const struct ag_rule *r);
void ag_state_end(int dirty);
int64_t ag_now_ms(void);

void ag_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ag_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* Big-endian helpers (bounds are the caller's business). */
uint16_t ag_be16(const uint8_t *p);
uint32_t ag_be32(const uint8_t *p);
uint64_t ag_be64(const uint8_t *p);
void ag_put16(uint8_t *p, uint16_t v);

#pragma GCC visibility pop

#endif
