/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/rmpp: SA client helpers (see sa.h).  libibumad does the port and
 * agent handling; the MADs are laid out by hand after IBA vol. 1 13.4.2
 * (common header), 13.6.2.1 (RMPP header) and 15.2.1.1 (SA header).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/umad.h>

#include "sa.h"

uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

uint16_t
be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint64_t
be64_at(const uint8_t *p)
{
	return (uint64_t)be32_at(p) << 32 | be32_at(p + 4);
}

void
put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void
put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

void
put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int
sa_open(struct sa_port *p, int rmpp_version)
{
	umad_port_t up;

	memset(p, 0, sizeof(*p));
	p->portid = -1;
	if (umad_init() < 0 || umad_get_port(NULL, 0, &up) < 0)
		return -ENODEV;
	p->lid = (uint16_t)up.base_lid;
	p->sm_lid = (uint16_t)up.sm_lid;
	p->port_guid = be64toh(up.port_guid);
	p->gid_prefix = be64toh(up.gid_prefix);
	umad_release_port(&up);
	if ((p->portid = umad_open_port(NULL, 0)) < 0)
		return -ENODEV;
	/* SA class version 2 (IBA vol. 1 15.2.1.1); no unsolicited methods. */
	p->agent = umad_register(p->portid, SA_CLASS, 2,
	    (uint8_t)rmpp_version, NULL);
	if (p->agent < 0)
		return -EIO;
	p->sbuf = calloc(1, umad_size() + SA_MAD_SIZE);
	p->rbuf = calloc(1, umad_size() + SA_RBUF_MAX);
	if (p->sbuf == NULL || p->rbuf == NULL)
		return -ENOMEM;
	return 0;
}

void
sa_close(struct sa_port *p)
{
	if (p->portid >= 0)
		umad_close_port(p->portid);
	free(p->sbuf);
	free(p->rbuf);
	p->portid = -1;
	p->sbuf = p->rbuf = NULL;
}

void
sa_build(uint8_t mad[SA_MAD_SIZE], int method, unsigned attr, uint64_t tid,
    uint64_t comp_mask, const uint8_t *rec, size_t reclen)
{
	memset(mad, 0, SA_MAD_SIZE);
	mad[0] = 1;		/* BaseVersion */
	mad[1] = SA_CLASS;
	mad[2] = 2;		/* ClassVersion */
	mad[3] = (uint8_t)method;
	put_be64(mad + 8, tid);
	put_be16(mad + 16, (uint16_t)attr);
	/* SA header: SM_Key 0 (bytes 36-43), ComponentMask (48-55). */
	put_be64(mad + 48, comp_mask);
	if (rec != NULL)
		memcpy(mad + SA_HDR_SIZE, rec, reclen > SA_MAD_SIZE -
		    SA_HDR_SIZE ? SA_MAD_SIZE - SA_HDR_SIZE : reclen);
}

int
sa_send(struct sa_port *p, const uint8_t mad[SA_MAD_SIZE])
{
	memset(p->sbuf, 0, umad_size());
	memcpy(umad_get_mad(p->sbuf), mad, SA_MAD_SIZE);
	umad_set_addr(p->sbuf, p->sm_lid, 1, 0, SA_QKEY);
	umad_set_pkey(p->sbuf, 0);
	p->sent++;
	if (umad_send(p->portid, p->agent, p->sbuf, SA_MAD_SIZE, 0, 0) < 0)
		return -EIO;
	return 0;
}

int
sa_recv(struct sa_port *p, const uint8_t **mad, int *len, int *status,
    uint16_t *slid, int timeout_ms)
{
	ib_mad_addr_t *a;
	int n;

	*len = SA_RBUF_MAX;
	n = umad_recv(p->portid, p->rbuf, len, timeout_ms);
	if (n == -ENOSPC) {
		/* The kernel keeps it; it cannot be read here: say so. */
		return -ENOSPC;
	}
	if (n < 0)
		return n;
	p->received++;
	*mad = umad_get_mad(p->rbuf);
	*status = umad_status(p->rbuf);
	a = umad_get_mad_addr(p->rbuf);
	*slid = ntohs(a->lid);
	return 0;
}

void
sa_describe(const uint8_t *m, int len, char *out, size_t outsz)
{
	unsigned off = be16_at(m + 44) * 8u;
	unsigned fl = RMPP_FLAGS(m);

	if (len < SA_HDR_SIZE) {
		snprintf(out, outsz, "short MAD (%d bytes)", len);
		return;
	}
	snprintf(out, outsz, "len %d method 0x%02x status 0x%04x tid 0x%016llx "
	    "attr 0x%04x | RMPP ver %u type %u flags 0x%x(%s%s%s) rtime %u "
	    "status %u seg %u paylen/newwin %u | attroffs %u B comp_mask "
	    "0x%llx", len, m[3], be16_at(m + 4),
	    (unsigned long long)be64_at(m + 8), be16_at(m + 16),
	    RMPP_VERSION(m), RMPP_TYPE(m), fl, fl & RMPP_F_ACTIVE ? "A" : "-",
	    fl & RMPP_F_FIRST ? "F" : "-", fl & RMPP_F_LAST ? "L" : "-",
	    RMPP_RTIME(m), RMPP_STATUS(m), be32_at(m + 28), be32_at(m + 32),
	    off, (unsigned long long)be64_at(m + 48));
}
