/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The records of one SA GetTable answer, and whether they are all of
 * them.  Pure: bytes in, a bounded view out, no I/O.
 */
#ifndef FA_IB_SA_TABLE_H
#define FA_IB_SA_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct fa_sa_table {
	const uint8_t	*recs;		/* the first record */
	unsigned	 recsz;		/* bytes per record */
	unsigned	 n;		/* whole records in the answer */
	int		 complete;	/* every record the SA sent is here */
	const char	*why;		/* !complete: why not (static) */
};

/*
 * Parse the SA answer `msg` of `len` bytes (the MAD, or the whole RMPP
 * message as the kernel reassembled it), whose records must be at least
 * `min_recsz` bytes.  0, or FA_ERR_INPUT with *bad set (static) if
 * malformed.
 */
int fa_sa_table_parse(const uint8_t *msg, size_t len, unsigned min_recsz,
    struct fa_sa_table *t, const char **bad);

#endif
