/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench/rmpp: the little SA client the RMPP experiments share.  A
 * libibumad port with one SA agent registered with a chosen RMPP version,
 * raw 256-byte SA MADs built by hand, and accessors for the RMPP header
 * (IBA vol. 1 13.6.2.1) and the SA header (15.2.1.1).  A prototype: it
 * prints, it does not follow fabaudit's "no printing below scanner/" rule.
 */
#ifndef BENCH_RMPP_SA_H
#define BENCH_RMPP_SA_H

#include <stddef.h>
#include <stdint.h>

#define SA_MAD_SIZE	256
#define SA_HDR_SIZE	56	/* common 24 + RMPP 12 + SA 20 */
#define SA_SEG_DATA	200	/* SA data per segment (IBA 15.2.1.1) */
#define RMPP_HDR_END	36	/* PayloadLength counts from here */
#define SA_CLASS	0x03
#define SA_QKEY		0x80010000u	/* the GSI Q_Key, IBA 13.5.1 */

#define M_GET		0x01
#define M_GETTABLE	0x12
#define M_RESP		0x80

#define ATTR_NODE_REC	0x0011
#define ATTR_PORTINFO_REC 0x0012
#define ATTR_PATH_REC	0x0035

/* RMPP header fields (IBA vol. 1 13.6.2.1, bytes 24-35 of the MAD). */
#define RMPP_VERSION(m)	((m)[24])
#define RMPP_TYPE(m)	((m)[25])
#define RMPP_FLAGS(m)	((m)[26] & 0x07)	/* low 3 bits of byte 26 */
#define RMPP_RTIME(m)	((m)[26] >> 3)
#define RMPP_STATUS(m)	((m)[27])
#define RMPP_F_ACTIVE	0x01
#define RMPP_F_FIRST	0x02
#define RMPP_F_LAST	0x04
#define RMPP_T_DATA	1
#define RMPP_T_ACK	2
#define RMPP_T_STOP	3
#define RMPP_T_ABORT	4

uint32_t be32_at(const uint8_t *p);
uint16_t be16_at(const uint8_t *p);
uint64_t be64_at(const uint8_t *p);
void	 put_be16(uint8_t *p, uint16_t v);
void	 put_be32(uint8_t *p, uint32_t v);
void	 put_be64(uint8_t *p, uint64_t v);

struct sa_port {
	int		 portid;	/* libibumad handle */
	int		 agent;		/* SA agent id */
	uint16_t	 lid;		/* ours */
	uint16_t	 sm_lid;	/* the SA's */
	uint64_t	 port_guid;	/* host order */
	uint64_t	 gid_prefix;	/* host order */
	void		*sbuf, *rbuf;	/* umad + one MAD */
	unsigned long	 sent, received;
};

uint64_t now_us(void);

/* Open the first port and register an SA agent (class version 2). */
int	sa_open(struct sa_port *p, int rmpp_version);
void	sa_close(struct sa_port *p);

/* A request MAD: common header, SA header with comp_mask, record. */
void	sa_build(uint8_t mad[SA_MAD_SIZE], int method, unsigned attr,
	    uint64_t tid, uint64_t comp_mask, const uint8_t *rec,
	    size_t reclen);

/* Send one 256-byte MAD to the SA's QP1 (timeout 0: no answer awaited). */
int	sa_send(struct sa_port *p, const uint8_t mad[SA_MAD_SIZE]);

#define SA_RBUF_MAX	(1024 * 1024)	/* largest message kept */

/*
 * Receive one message within timeout_ms; *mad points into the port's
 * receive buffer (valid until the next call), *len is its length (a
 * kernel-reassembled RMPP answer may exceed 256; beyond SA_RBUF_MAX it is
 * cut).  0, -ETIMEDOUT, or another -errno.  *status is the umad status
 * (non-zero: one of our sends timed out).  *slid is the sender's LID.
 */
int	sa_recv(struct sa_port *p, const uint8_t **mad, int *len,
	    int *status, uint16_t *slid, int timeout_ms);

/* One line describing a MAD's common, RMPP and SA headers. */
void	sa_describe(const uint8_t *mad, int len, char *out, size_t outsz);

#endif
