/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reachability of the policy's must-not-reach targets (mgmt_target,
 * foreign_target): bounded, rate-limited TCP connects, UDP datagrams and
 * ICMP echoes from the tenant node, each outcome recorded; and, for a
 * management endpoint that accepts TCP, a TLS handshake (OpenSSL) that
 * records the protocol versions it accepts and its certificate.  No
 * credential or application data is ever sent.
 *
 * eth.reach  one per policy target, target "mgmt_target:NET" or
 *            "foreign_target:NET": {role, net, line, hosts_total,
 *            hosts_probed, probes: [{host, probe "tcp/22", outcome, ms,
 *            detail?, tls?}]}
 *   outcome: answered (TCP accepted, UDP or ICMP reply), refused (TCP
 *   reset, ICMP port unreachable: the host is reachable), filtered (TCP
 *   timeout), no_answer (UDP or ICMP timeout), unreachable (host or
 *   network unreachable), not_sent (no permission, e.g. ICMP), error.
 *   tls: {versions: ["TLSv1.2", ...], cert: {subject, issuer,
 *   self_signed, not_after, expired, key_type, key_bits}} or {error}.
 */
#ifndef FA_ETH_REACH_H
#define FA_ETH_REACH_H

#include "../core/policy.h"
#include "../core/snapshot.h"
#include "../core/obs_kinds.h"

#define FA_REACH_HOSTS_MAX	256	/* hosts probed per target */
#define FA_REACH_RATE		50	/* probes started per second */
#define FA_REACH_WINDOW		32	/* probes in flight */
#define FA_REACH_TIMEOUT_MS	1000	/* per probe */

/* Probe every target of the policy; 0 or FA_ERR_NOMEM. */
int fa_eth_probe_targets(const struct fa_policy *p, struct fa_snapshot *snap);

#endif
