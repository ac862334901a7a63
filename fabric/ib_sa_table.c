/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The records of one SA GetTable answer, and whether they are all of them.
 *
 * A GetTableResp longer than one MAD travels as an RMPP transfer (IBA
 * vol. 1 13.6): the kernel, for an agent registered with rmpp_version 1
 * (libibmad's mad_rpc_open_port() registers the SA class so), ACKs the
 * segments and hands over the whole message only once it is complete:
 * one MAD header and SA header, then every segment's data.  So:
 *
 *  - longer than 256 bytes: a reassembled message, complete;
 *  - shorter than 256 bytes: the sender wrote less than one MAD, so
 *    nothing was cut, complete;
 *  - exactly 256 bytes: complete only if its RMPP header says it is the
 *    first and last segment of a transfer (RMPPType DATA, flags Active,
 *    First, Last).  Otherwise more may have been cut off by a transport
 *    without RMPP: the simulator's umad2sim forwards the first 256 bytes
 *    of OpenSM's unsegmented answer, header flags Active only
 *    (bench/rmpp/README).
 *
 * The records start after the SA header at byte 56, AttributeOffset
 * (bytes 44-45, in 8-byte words) apart (IBA vol. 1 15.2.1.1); a trailing
 * part shorter than a record is padding.
 */
#include <infiniband/mad.h>

#include "../core/errors.h"
#include "ib_sa_table.h"

/* RMPP header (IBA vol. 1 13.6.2.1), bytes 24-35 of the MAD. */
#define RMPP_VERSION_OFFS	24
#define RMPP_TYPE_OFFS		25
#define RMPP_FLAGS_OFFS		26	/* low 3 bits; RRespTime above */
#define RMPP_TYPE_DATA		1
#define RMPP_FLAG_ACTIVE	0x1
#define RMPP_FLAG_FIRST		0x2
#define RMPP_FLAG_LAST		0x4
#define SA_ATTROFFS_OFFS	44

int
fa_sa_table_parse(const uint8_t *msg, size_t len, unsigned min_recsz,
    struct fa_sa_table *t, const char **bad)
{
	unsigned flags, all;

	t->recs = NULL;
	t->recsz = 0;
	t->n = 0;
	t->complete = 0;
	t->why = NULL;
	*bad = NULL;
	if (msg == NULL || len < IB_SA_DATA_OFFS) {
		*bad = "shorter than the SA header";
		return FA_ERR_INPUT;
	}
	t->recsz = (unsigned)(msg[SA_ATTROFFS_OFFS] << 8 |
	    msg[SA_ATTROFFS_OFFS + 1]) * 8;
	t->recs = msg + IB_SA_DATA_OFFS;
	if (len > IB_SA_DATA_OFFS && t->recsz == 0) {
		/* Records but no step between them: none can be read. */
		if (msg[IB_SA_DATA_OFFS] != 0) {
			*bad = "records with an AttributeOffset of 0";
			return FA_ERR_INPUT;
		}
	} else if (t->recsz != 0) {
		if (t->recsz < min_recsz) {
			*bad = "records shorter than the attribute";
			return FA_ERR_INPUT;
		}
		t->n = (unsigned)((len - IB_SA_DATA_OFFS) / t->recsz);
	}
	if (len != IB_MAD_SIZE) {
		t->complete = 1;
		return 0;
	}
	flags = msg[RMPP_FLAGS_OFFS] & 0x7;
	all = RMPP_FLAG_ACTIVE | RMPP_FLAG_FIRST | RMPP_FLAG_LAST;
	if (msg[RMPP_VERSION_OFFS] == 1 &&
	    msg[RMPP_TYPE_OFFS] == RMPP_TYPE_DATA && flags == all)
		t->complete = 1;
	else
		t->why = "the answer filled one MAD and its RMPP header does "
		    "not mark it the last segment: the transport may have cut "
		    "further records (the simulator's umad2sim forwards only "
		    "the first 256 bytes of an SA answer)";
	return 0;
}
