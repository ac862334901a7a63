/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The answers about other CA ports that the cross-tenant checks read,
 * whichever form the snapshot holds them in: an observation per port
 * (asked port by port, not read whole, or written by an older version),
 * or one observation of groups of ports that got the same answer
 * (ib.sa.path_table's destinations, ib.smp.pkey_tables; written so by
 * fabric/ib_sa.c and ib_pkeys_remote.c).  A walk yields one entry per
 * port either way, citing the observation that holds it.  Pure.
 */
#ifndef FA_IB_PORTOBS_H
#define FA_IB_PORTOBS_H

#include <stdint.h>

#include "check.h"

/* The PathRecords from the tenant port to one port. */
struct fa_ib_pr {
	const struct fa_obs	*o;		/* holds them */
	enum fa_obs_state	 state;		/* of that query */
	uint64_t		 port_guid;
	int			 have_records;	/* records is known */
	long long		 records;
	const json_t		*pkeys;		/* their P_Keys: an array, or
						   NULL when not recorded */
};

/* A walk's place: zero it to start. */
struct fa_ib_walk {
	size_t			 it;		/* in the snapshot */
	const struct fa_obs	*group_obs;	/* the groups being walked */
	const json_t		*groups;
	size_t			 g, m;		/* group, member */
};

/*
 * The next port's PathRecords: 1 with *pr set, 0 at the end, FA_ERR_INPUT
 * on a malformed observation (a port GUID that is not one; a group
 * without its records, P_Keys or ports).
 */
int fa_ib_next_pr(const struct fa_snapshot *s, struct fa_ib_walk *w,
    struct fa_ib_pr *pr);
/* Whether any PathRecord was asked about another port (a table read
 * whole with no other port in it asked about none). */
int fa_ib_any_pr(const struct fa_snapshot *s);

/* Another port's P_Key table, read whole or in part. */
struct fa_ib_table {
	const struct fa_obs	*o;		/* holds it */
	int			 by_sa;		/* through the SA (PKeyTable-
						   Record), not by SMP */
	uint64_t		 port_guid;
	const json_t		*pkeys;		/* "0x%04x" strings; may be
						   malformed (not checked) */
};

/*
 * The next other port's P_Key table that was read (complete or
 * incomplete), in snapshot order: 1 with *t set, 0 at the end,
 * FA_ERR_INPUT on a malformed observation.
 */
int fa_ib_next_table(const struct fa_snapshot *s, struct fa_ib_walk *w,
    struct fa_ib_table *t);

#endif
