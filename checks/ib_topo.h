/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Read helpers over the IB observations for the checks: the topology's
 * nodes and ports, the local port, and the tenant/provider/foreign
 * classification of a CA port under the policy.  Pure: snapshot in, values
 * out.
 */
#ifndef FA_IB_TOPO_H
#define FA_IB_TOPO_H

#include <stdint.h>

#include "check.h"

enum fa_ib_owner {
	FA_OWN_SELF = 0,	/* the node the scan runs on */
	FA_OWN_TENANT,		/* policy: tenant_node / tenant_guid */
	FA_OWN_PROVIDER,	/* policy: provider_*, sm_guid; every switch */
	FA_OWN_FOREIGN,		/* a CA port that is nobody above */
	FA_OWN_UNKNOWN,		/* a CA port no policy GUID names, whose
				   NodeDescription is unknown (see below) */
};

struct fa_ib_port_ref {
	const json_t	*node;		/* topology node object */
	const json_t	*port;		/* its port object */
	uint64_t	 node_guid;
	uint64_t	 port_guid;
	const char	*type;		/* "CA", "Switch", "Router" */
	const char	*desc;		/* NodeDescription (sanitised) */
	long long	 num;		/* port number */
	long long	 lid;		/* 0 when !info */
	int		 info;		/* 0: its PortInfo went unanswered
					   ("portinfo": "unanswered"), and
					   nothing PortInfo holds is known */
};

/*
 * The "zero" fact of a secret object, checked against its value when the
 * value was not redacted.  0 with *zero set, or FA_ERR_INPUT when absent
 * or inconsistent.
 */
int fa_ib_secret_zero(const json_t *secret, int *zero);

/*
 * When discovery did not complete, SMs other than the master named by our
 * PortInfo were never asked: add a not_tested row saying so.  Returns 0 or
 * a negative FA_ERR_*.
 */
int fa_ib_sm_enum_gate(const struct fa_check *c,
    const struct fa_eval_ctx *ctx, struct fa_results *out);

/*
 * The topology observation, complete or incomplete, or NULL (absent,
 * failed).
 */
const struct fa_obs *fa_ib_topology(const struct fa_snapshot *s);
/* The local port observation, or NULL. */
const struct fa_obs *fa_ib_local_obs(const struct fa_snapshot *s);

/*
 * Iterate every port of the topology: *ni and *pi start at 0.  Returns 1
 * with *ref filled, 0 at the end, FA_ERR_INPUT on a malformed member.
 */
int fa_ib_next_port(const struct fa_obs *topo, size_t *ni, size_t *pi,
    struct fa_ib_port_ref *ref);

/*
 * An index of the topology's CA ports and switch ports 0 by port GUID, so
 * that a check looking up every foreign port is not quadratic in the
 * fabric's size.  Built by the check that needs it, freed by it.
 */
struct fa_ib_port_index {
	struct fa_ib_pix {
		uint64_t	 guid;
		size_t		 ni, pi;	/* node and port position */
	}		*v;
	size_t		 n;
};
/* 0, FA_ERR_INPUT on a malformed member, or FA_ERR_NOMEM. */
int fa_ib_index_build(const struct fa_obs *topo, struct fa_ib_port_index *ix);
void fa_ib_index_free(struct fa_ib_port_index *ix);

/*
 * Find the CA port, or switch port 0, with this port GUID (the first in
 * topology order): 1 found, 0 not, FA_ERR_INPUT on a malformed member.  ix
 * may be NULL (a linear search).
 */
int fa_ib_find_port(const struct fa_obs *topo,
    const struct fa_ib_port_index *ix, uint64_t guid,
    struct fa_ib_port_ref *ref);

/*
 * Whose a port is under the policy.  A NodeDescription Get that went
 * unanswered leaves libibnetdisc's zeroed buffer (ibnetdisc.c: the reply
 * callback that copies it never runs), recorded as "desc": "": a lost
 * answer, not a description.  Such a node is judged by GUIDs alone, and
 * when no tenant_guid, provider_guid or sm_guid names it, it is
 * FA_OWN_UNKNOWN, never FA_OWN_FOREIGN.
 */
int fa_ib_desc_known(const struct fa_ib_port_ref *ref);
enum fa_ib_owner fa_ib_owner(const struct fa_eval_ctx *ctx,
    const struct fa_ib_port_ref *ref, uint64_t self_node_guid);

/*
 * Unobserved parts of the fabric.  A port with a link (PhysicalPortState
 * LinkUp, or where the snapshot does not say, PortState Init or beyond)
 * and no "remote_node_guid" leads to a node that never answered
 * discovery: a switch that drops SMPs, one at M_Key protection level 2
 * or more, or SMPs lost.  That node and everything behind it were not
 * seen (ib_discover.c also lists these ports as "unexplored").  Switch
 * port 0 has no link.  A port whose PortInfo went unanswered (any port,
 * port 0 too) is unobserved as well: its M_Key, capabilities, LID and
 * link are unknown, and so is what may lie behind it.
 */
int fa_ib_port_unexplored(const struct fa_ib_port_ref *ref);

/*
 * Every unexplored port of the topology: *count set (exact), *names a
 * new string naming the first few ("S-0x.../3 (leaf01, LID 2), ...,
 * first N of M"; NULL when none) and *items, unless NULL, a new array of
 * the first FA_IB_LIST_MAX ports as fa_ib_port_json() writes them.  0,
 * FA_ERR_INPUT on a malformed member, or FA_ERR_NOMEM.
 */
int fa_ib_unexplored(const struct fa_obs *topo, size_t *count, char **names,
    json_t **items);

/*
 * For a result that would pass (or be not_applicable) only if every port
 * had been seen: when the topology has unexplored ports, add instead a
 * not_tested row on "fabric" naming them, its reason "<seen>, but N
 * port(s) ...", with the ports as evidence.  Returns 1 when it added the
 * row, 0 when every linked port was followed (the caller adds its own),
 * or a negative FA_ERR_*.
 */
int fa_ib_unexplored_gate(const struct fa_check *c, const struct fa_obs *topo,
    struct fa_results *out, const char *seen);

/* "H-0x<node guid>/<port>" for a port reference; new string or NULL. */
char *fa_ib_ref_target(const struct fa_ib_port_ref *ref);

/* Evidence value {"target","guid","lid","desc"} for a port; NULL on ENOMEM. */
json_t *fa_ib_port_json(const struct fa_ib_port_ref *ref);

/*
 * A list of offending items for a fabric-wide result: the first
 * FA_IB_LIST_MAX items are kept as evidence, all are counted.
 */
#define FA_IB_LIST_MAX	100
struct fa_ib_list {
	json_t	*items;		/* array */
	size_t	 count;
};
int fa_ib_list_init(struct fa_ib_list *l);
/* Steals item; 0 or FA_ERR_NOMEM. */
int fa_ib_list_add(struct fa_ib_list *l, json_t *item);
/* Evidence array {field: items, count} referencing obs; steals the list. */
json_t *fa_ib_list_evidence(struct fa_ib_list *l, const struct fa_obs *obs,
    const char *field);

/*
 * Evidence for the provider who reproduces a finding: the "reproduce"
 * command (unless NULL), a command runnable as written, and the
 * "reproduce_note" (unless NULL) that says where to run it or what to
 * read in its output.  0 or FA_ERR_NOMEM.
 */
int fa_ib_repro(json_t *ev, const char *cmd, const char *note);
/*
 * The same for the SM_Key an SM returns: sminfo with the MADs dumped, at
 * the LID of SMInfo observation o.  0 or FA_ERR_NOMEM.
 */
int fa_ib_sminfo_repro(json_t *ev, const struct fa_obs *o);

/*
 * MADs the audit lost after discovery (ib.engine lost_sends: sends of a
 * retried request that went unanswered; the expected silence of the
 * single-shot probes and of the SM_Key 1 query is counted apart, as
 * "silent"), for the checks whose single-shot
 * probes cannot tell silence from loss; 0 when not recorded.
 * Discovery's own unanswered sends are left out: a port at M_Key
 * protection level 2 drops them by design, and the second discovery
 * (ib_discover.c) tells that refusal from loss.
 */
long long fa_ib_mads_lost(const struct fa_snapshot *s);

/*
 * Sends discovery lost (ib.engine discovery.lost_sends, retried or not),
 * for a check that found nothing to examine: it may be because of them.
 * 0 when not recorded.
 */
long long fa_ib_discovery_lost(const struct fa_snapshot *s);

#endif
