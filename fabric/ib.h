/*
 * InfiniBand acquisition: discovery through libibnetdisc, then SMP, SA and
 * keyed-class Gets through the MAD engine (ib_mad.c), recorded as
 * observations in a snapshot.  Read-only unless `active`: only ib_active.c
 * sends a Set, and the engine refuses Sets otherwise.  Errors in reaching
 * the fabric are recorded in the snapshot (family status, observation
 * states), not returned.
 */
#ifndef FA_FABRIC_IB_H
#define FA_FABRIC_IB_H

#include "../core/snapshot.h"

struct fa_ib_opts {
	const char	*ca;		/* CA name, NULL for the first */
	int		 port;		/* port number, 0 for the first active */
	unsigned	 timeout_ms;	/* per MAD */
	unsigned	 retries;	/* per MAD, after the first send; >= 1,
					   since libibnetdisc turns 0 into 3 */
	unsigned	 max_smps;	/* discovery window (SMPs in flight) */
	const char	*capture_dir;	/* write mads.pcap here; NULL: none */
	int		 reveal;	/* keep keys in mads.pcap */
	int		 active;	/* --active: the probes of ib_active.c */
};

#define FA_IB_DEF_TIMEOUT_MS	500
#define FA_IB_DEF_RETRIES	2
#define FA_IB_DEF_MAX_SMPS	2

/*
 * Whether an InfiniBand port can be used, without sending anything.
 * Returns 0, or FA_ERR_UNAVAIL with *why (if not NULL) a new string saying
 * why (no umad device, port down, not an InfiniBand link layer).
 */
int fa_ib_available(const struct fa_ib_opts *o, char **why);

/*
 * Collect the IB family into snap: local port, topology, SMInfo of every
 * SM found, the local port's P_Key table.  Sets the family status.  Returns
 * 0, or a negative FA_ERR_* only for internal failures (out of memory).
 */
int fa_ib_collect(const struct fa_ib_opts *o, struct fa_snapshot *snap);

#endif
