/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe: question 1 of issue 7.  Send one SA GetTable and print every MAD
 * that comes back, with its RMPP header, so that what the stack delivers
 * can be seen: a reassembled message (kernel RMPP, IBA vol. 1 13.6), raw
 * RMPP DATA segments (SegmentNumber, First/Last, PayloadLength), or a cut
 * first MAD.  With -a it then acknowledges segment 1 (an RMPP ACK, 13.6.2.3:
 * the data's method with the R bit cleared, SegmentNumber 1,
 * NewWindowLast = -W) and waits for more.
 *
 *   probe [-r RMPPVER] [-q nr|pr|pr-sgid|pir] [-a] [-W WINDOW] [-t MS]
 *
 * -r: the rmpp_version the SA agent is registered with (0 or 1, default 1
 * as libibmad does for the SA class).  -q: NodeRecord (all), PathRecord
 * with only SLID = ours, PathRecord with only SGID = ours, PortInfoRecord
 * (all).  -t: quiet time that ends the wait (default 1500 ms).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sa.h"

#define PR_COMP_SGID	(1ull << 3)
#define PR_COMP_SLID	(1ull << 5)

static void
usage(void)
{
	fprintf(stderr, "usage: probe [-r 0|1] [-q nr|pr|pr-sgid|pir] [-a] "
	    "[-W window] [-t ms]\n");
	exit(2);
}

static unsigned long
num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno != 0 || *s == '\0' || *end != '\0' || v > max)
		usage();
	return v;
}

int
main(int argc, char **argv)
{
	struct sa_port p;
	uint8_t req[SA_MAD_SIZE], ack[SA_MAD_SIZE], rec[64];
	const uint8_t *m;
	const char *q = "pr";
	char line[512];
	unsigned rmppver = 1, window = 64, quiet = 1500, attr = 0;
	uint64_t mask = 0, tid, t0;
	int c, doack = 0, len, st, rc, acked = 0, n = 0;
	uint16_t slid;

	while ((c = getopt(argc, argv, "r:q:aW:t:")) != -1) {
		switch (c) {
		case 'r': rmppver = (unsigned)num(optarg, 1); break;
		case 'q': q = optarg; break;
		case 'a': doack = 1; break;
		case 'W': window = (unsigned)num(optarg, 1u << 20); break;
		case 't': quiet = (unsigned)num(optarg, 60000); break;
		default: usage();
		}
	}
	if ((rc = sa_open(&p, (int)rmppver)) != 0) {
		fprintf(stderr, "probe: cannot open the port / SA agent (%d)\n",
		    rc);
		return 1;
	}
	memset(rec, 0, sizeof(rec));
	if (strcmp(q, "nr") == 0)
		attr = ATTR_NODE_REC;
	else if (strcmp(q, "pir") == 0)
		attr = ATTR_PORTINFO_REC;
	else if (strcmp(q, "pr") == 0) {
		attr = ATTR_PATH_REC;
		put_be16(rec + 42, p.lid);	/* SLID, IBA 15.2.5.16 */
		mask = PR_COMP_SLID;
	} else if (strcmp(q, "pr-sgid") == 0) {
		attr = ATTR_PATH_REC;
		put_be64(rec + 24, p.gid_prefix);	/* SGID */
		put_be64(rec + 32, p.port_guid);
		mask = PR_COMP_SGID;
	} else
		usage();
	tid = 0x5a000000u | (uint32_t)getpid();
	sa_build(req, M_GETTABLE, attr, tid, mask, rec, sizeof(rec));
	printf("port LID %u, SA LID %u, SA agent %d registered with "
	    "rmpp_version %u\n", p.lid, p.sm_lid, p.agent, rmppver);
	printf("send GetTable attr 0x%04x comp_mask 0x%llx tid 0x%llx\n", attr,
	    (unsigned long long)mask, (unsigned long long)tid);
	t0 = now_us();
	if (sa_send(&p, req) != 0) {
		fprintf(stderr, "probe: send failed\n");
		return 1;
	}
	for (;;) {
		rc = sa_recv(&p, &m, &len, &st, &slid, (int)quiet);
		if (rc == -ETIMEDOUT || rc == -EAGAIN)
			break;
		if (rc == -ENOSPC) {
			printf("recv: a message longer than %d bytes\n",
			    SA_RBUF_MAX);
			break;
		}
		if (rc != 0) {
			printf("recv error %d\n", rc);
			break;
		}
		n++;
		sa_describe(m, len, line, sizeof(line));
		printf("recv #%d +%.1f ms from LID %u umad status %d: %s\n", n,
		    (double)(now_us() - t0) / 1000, slid, st, line);
		if (len >= SA_HDR_SIZE && be16_at(m + 44) != 0)
			printf("  records in the bytes delivered: %u "
			    "(record size %u)\n", (unsigned)(len - SA_HDR_SIZE) /
			    (be16_at(m + 44) * 8u), be16_at(m + 44) * 8u);
		if (doack && !acked && len >= SA_HDR_SIZE) {
			/* ACK segment 1: the received header, R bit cleared,
			 * type ACK, Active, NewWindowLast = window. */
			memcpy(ack, m, SA_HDR_SIZE);
			memset(ack + SA_HDR_SIZE, 0, SA_MAD_SIZE - SA_HDR_SIZE);
			ack[3] = (uint8_t)(m[3] & ~M_RESP);
			ack[24] = 1;
			ack[25] = RMPP_T_ACK;
			ack[26] = RMPP_F_ACTIVE;
			ack[27] = 0;
			put_be32(ack + 28, 1);
			put_be32(ack + 32, window);
			if (sa_send(&p, ack) != 0)
				printf("ACK send failed\n");
			else
				printf("sent ACK seg 1 NewWindowLast %u\n",
				    window);
			acked = 1;
		}
	}
	printf("done: %d MAD(s) received, %lu sent, quiet for %u ms\n", n,
	    p.sent, quiet);
	sa_close(&p);
	return 0;
}
