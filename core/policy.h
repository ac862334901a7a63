/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tenant policy of fabaudit.conf(5): what the tenant owns and expects.
 * The parser works on text in memory (no I/O), so the scanner can read a
 * file, and `fabaudit check` can re-parse the copy embedded in a snapshot.
 */
#ifndef FA_POLICY_H
#define FA_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "model.h"

#define FA_POLICY_MAX_BYTES	(1024 * 1024)	/* larger files are refused */
#define FA_POLICY_MAX_LINE	4096		/* longer lines are an error */
#define FA_POLICY_MAX_ERRORS	20		/* stop reporting after this */

struct fa_pol_str {			/* a glob or free string, and its line */
	char		*value;
	unsigned	 line;
};

struct fa_pol_u64 {			/* a GUID, P_Key or VLAN, and its line */
	uint64_t	 value;
	unsigned	 line;
};

struct fa_cidr {
	int		 af;		/* AF_INET or AF_INET6 */
	uint8_t		 addr[16];	/* network order, host bits cleared */
	unsigned	 prefix;	/* 0-32 or 0-128 */
};

enum fa_probe_proto {
	FA_PROBE_ICMP = 0,
	FA_PROBE_TCP,
	FA_PROBE_UDP,
};

struct fa_probe {
	enum fa_probe_proto proto;
	uint16_t	 port;		/* 0 for icmp */
};

struct fa_pol_target {			/* mgmt_target / foreign_target */
	struct fa_cidr	 net;		/* a single address is a /32 or /128 */
	struct fa_probe	*probes;
	size_t		 nprobes;
	unsigned	 line;
};

struct fa_pol_severity {		/* severity CHECK-ID LEVEL */
	char		*check_id;
	enum fa_severity severity;
	unsigned	 line;
};

struct fa_pol_waiver {			/* waive CHECK-ID TARGET DATE REASON */
	char		*check_id;
	char		*target;	/* fnmatch(3) pattern on result target */
	char		 expires[11];	/* YYYY-MM-DD, valid through that day */
	char		*reason;
	unsigned	 line;
	int		 expired;	/* the date is before the policy's "now" */
};

#define FA_POL_ARRAY(type, name) type *name; size_t n_##name

struct fa_policy {
	char		*name;		/* file name used in messages */
	char		*text;		/* the text parsed, NUL-terminated */
	char		*tenant_name;	/* for the report's scope, or NULL */
	char		*provider_name;	/* the operator audited, or NULL */
	size_t		 text_len;
	FA_POL_ARRAY(struct fa_pol_str, tenant_node);
	FA_POL_ARRAY(struct fa_pol_u64, tenant_guid);
	FA_POL_ARRAY(struct fa_pol_u64, tenant_pkey);
	FA_POL_ARRAY(struct fa_pol_str, provider_node);
	FA_POL_ARRAY(struct fa_pol_u64, provider_guid);
	FA_POL_ARRAY(struct fa_pol_u64, sm_guid);
	FA_POL_ARRAY(struct fa_pol_u64, tenant_vlan);
	FA_POL_ARRAY(struct fa_cidr, tenant_subnet);
	FA_POL_ARRAY(struct fa_cidr, dhcp_server);
	FA_POL_ARRAY(struct fa_pol_u64, foreign_vlan);
	FA_POL_ARRAY(struct fa_pol_target, mgmt_target);
	FA_POL_ARRAY(struct fa_pol_target, foreign_target);
	FA_POL_ARRAY(struct fa_pol_severity, severity);
	FA_POL_ARRAY(struct fa_pol_waiver, waive);
	int		 dedicated_host;	/* -1 unset, 0 no, 1 yes */
	int		 stale_not_tested;	/* stale_catalogue not_tested */
};

/*
 * Parse `len` bytes of `text` (need not be NUL-terminated) named `name` in
 * messages.  `now` decides which waivers have expired.  On success *out is a
 * new policy the caller frees with fa_policy_free().  On failure returns
 * FA_ERR_INPUT (or FA_ERR_NOMEM, FA_ERR_TOOBIG), *out is NULL and, if errs
 * is not NULL, *errs is a newly allocated string of one or more lines
 * "NAME:LINE: message" (at most FA_POLICY_MAX_ERRORS of them).
 */
int fa_policy_parse(const char *name, const char *text, size_t len,
    time_t now, struct fa_policy **out, char **errs);

/* An empty policy (nothing owned, nothing expected); NULL on ENOMEM. */
struct fa_policy *fa_policy_new_empty(void);

void fa_policy_free(struct fa_policy *p);

/* Classification helpers for checks.  A NULL desc never matches a glob. */
int fa_policy_is_tenant(const struct fa_policy *p, uint64_t node_guid,
    uint64_t port_guid, const char *node_desc);
int fa_policy_is_provider(const struct fa_policy *p, uint64_t node_guid,
    uint64_t port_guid, const char *node_desc);

/* 1 when addr (af, network order) lies in net. */
int fa_cidr_contains(const struct fa_cidr *net, int af, const uint8_t *addr);
/* 1 when addr lies in any of the n networks. */
int fa_cidr_any(const struct fa_cidr *nets, size_t n, int af,
    const uint8_t *addr);

/* The severity the policy assigns to check_id, or dflt. */
enum fa_severity fa_policy_severity(const struct fa_policy *p,
    const char *check_id, enum fa_severity dflt);

/*
 * The first waiver for check_id whose target pattern matches target
 * (fnmatch(3), no flags), or NULL.  With expired 0 only waivers still in
 * force are considered; with expired 1 only expired ones (which suppress
 * nothing but are reported).
 */
const struct fa_pol_waiver *fa_policy_waiver(const struct fa_policy *p,
    const char *check_id, const char *target, int expired);

#endif
