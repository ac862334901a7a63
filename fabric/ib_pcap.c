/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mads.pcap writer (ib_pcap.h): each MAD becomes one synthesised IBA
 * local UD packet in a classic libpcap file, written to a temporary file
 * and renamed into place on close.
 *
 * Link type: DLT_ERF (197), each packet in an ERF record of type 21
 * (INFINIBAND), not DLT_INFINIBAND (247).  Wireshark does not read 247
 * (tshark 4.0: "pcap: network type 247 unknown or unsupported"; wiretap's
 * pcap-common.c maps no 247), but it decodes ERF InfiniBand records with
 * the same dissector, down to the MAD; Endace capture cards write them.
 * The record carries what classic pcap cannot: the direction, as the
 * capture interface (0 sent, 1 received).
 *
 * ERF header, 16 bytes (Endace ERF types reference): timestamp (64 bits
 * little-endian: seconds << 32 | binary fraction), type 21, flags
 * (interface | varying length), rlen (record length, big-endian), lctr 0,
 * wlen (packet length).  Then the packet, IBA vol. 1 ch. 5 (data packet
 * format), big-endian:
 *   LRH   8 bytes  7.7: VL|LVer, SL|Rsv2|LNH=2 (IBA local: BTH follows),
 *                  DLID, Rsv5|PktLen (4-byte words, LRH up to ICRC), SLID
 *   BTH  12 bytes  9.2: OpCode 0x64 (UD SEND Only), SE|M|PadCnt|TVer,
 *                  P_Key 0xffff, Resv8a, DestQP, A|Resv7, PSN
 *   DETH  8 bytes  9.3: Q_Key, Reserved, SrcQP
 *   MAD   len bytes as given (13.4), then PadCnt zero bytes to a 4-byte
 *                  boundary (9.2: payloads are padded, BTH.PadCnt counts)
 *   ICRC  4 bytes  7.8.1: CRC-32 (the Ethernet one: polynomial 0x04C11DB7
 *                  reflected, initial and final value all ones) over LRH to
 *                  the pad, with the variant fields LRH.VL and BTH.Resv8a
 *                  taken as all ones; least significant byte first
 *   VCRC  2 bytes  7.8.2: CRC-16 (polynomial 0x100B reflected, initial and
 *                  final value all ones) over LRH to ICRC; low byte first
 * Both CRCs are real, not zeros: the unit test reproduces a packet from a
 * hardware capture (Wireshark's sample infiniband.pcap, frame 1, a DR
 * SubnGet(SMInfo)) byte for byte, CRCs included.  Wireshark shows them but
 * does not check them.
 *
 * The PSN is the packet's index in the file (mod 2^24).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <zlib.h>

#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "ib_pcap.h"

#define LRH_LEN		8
#define BTH_LEN		12
#define DETH_LEN	8
#define HDR_LEN		(LRH_LEN + BTH_LEN + DETH_LEN)
#define MAD_MAX		256
#define ICRC_LEN	4
#define VCRC_LEN	2
#define PKT_MAX		(HDR_LEN + MAD_MAX + ICRC_LEN + VCRC_LEN)
#define ERF_LEN		16
#define SNAPLEN		65535

#define ERF_TYPE_INFINIBAND	21	/* ERF record type: IB from the LRH */
#define ERF_FLAG_VLEN		0x04	/* varying record length */
#define ERF_IF_SENT		0	/* capture interface of sent MADs */
#define ERF_IF_RECEIVED		1	/* ... and of received ones */

#define LNH_IBA_LOCAL	0x2	/* LRH.LNH: BTH follows, no GRH */
#define OP_UD_SEND_ONLY	0x64	/* BTH.OpCode: UD, SEND Only */
#define PKEY_DEFAULT	0xffff	/* full member of the default partition */
#define QP_MAX		0xffffffu

struct fa_ib_pcap {
	pcap_dumper_t	*dump;	/* owns the FILE on the temporary file */
	char		*tmp;	/* dir/.name.XXXXXX while open */
	char		*dst;	/* dir/name */
	unsigned long	 count;	/* packets written */
	int		 err;	/* errno of the first failed write, or 0 */
};

/* CRC-16 (reflected 0x100B, i.e. 0xD008), four bits at a time. */
static const uint16_t crc16_nib[16] = {
	0x0000, 0x1a01, 0x3402, 0x2e03, 0x6804, 0x7205, 0x5c06, 0x4607,
	0xd008, 0xca09, 0xe40a, 0xfe0b, 0xb80c, 0xa20d, 0x8c0e, 0x960f,
};

/*
 * Every MAD of a scan (half a million at 10,000 HCAs) goes through both
 * CRCs, so the VCRC takes four bytes a step ("slicing by 4"): crc16[0] is
 * the byte-at-a-time table, made from the nibble one on first use, and
 * crc16[k][b] the register after byte b and then k zero bytes.  A table
 * of constants: filled once (pthread_once), then only read.
 */
static uint16_t crc16[4][256];
static pthread_once_t crc16_once = PTHREAD_ONCE_INIT;

static void
crc16_fill(void)
{
	uint16_t v;
	unsigned b, k;

	for (b = 0; b < 256; b++) {
		v = (uint16_t)b;
		v = (uint16_t)((v >> 4) ^ crc16_nib[v & 0xf]);
		crc16[0][b] = (uint16_t)((v >> 4) ^ crc16_nib[v & 0xf]);
	}
	for (k = 1; k < 4; k++)
		for (b = 0; b < 256; b++) {
			v = crc16[k - 1][b];
			crc16[k][b] = (uint16_t)((v >> 8) ^ crc16[0][v & 0xff]);
		}
}

static void
crc16_tables(void)
{
	(void)pthread_once(&crc16_once, crc16_fill);
}

/*
 * ICRC (7.8.1) over pkt[0..len): the Ethernet CRC-32, which is zlib's
 * crc32(), with LRH.VL (the high nibble of byte 0) and BTH.Resv8a (BTH
 * byte 4) counted as ones.
 */
static uint32_t
ib_icrc(const uint8_t *pkt, size_t len)
{
	uint8_t head[LRH_LEN + 5];
	size_t k = len < sizeof(head) ? len : sizeof(head);
	uLong c;

	memcpy(head, pkt, k);
	if (k > 0)
		head[0] |= 0xf0;
	if (k > LRH_LEN + 4)
		head[LRH_LEN + 4] = 0xff;
	c = crc32(0L, head, (uInt)k);
	return (uint32_t)crc32(c, pkt + k, (uInt)(len - k));
}

/* VCRC (7.8.2) over pkt[0..len). */
static uint16_t
ib_vcrc(const uint8_t *pkt, size_t len)
{
	uint16_t c = 0xffff;
	size_t i = 0;

	crc16_tables();
	for (; i + 4 <= len; i += 4)
		c = (uint16_t)(crc16[3][(c ^ pkt[i]) & 0xff] ^
		    crc16[2][((c >> 8) ^ pkt[i + 1]) & 0xff] ^
		    crc16[1][pkt[i + 2]] ^ crc16[0][pkt[i + 3]]);
	for (; i < len; i++)
		c = (uint16_t)((c >> 8) ^ crc16[0][(c ^ pkt[i]) & 0xff]);
	return (uint16_t)~c;
}

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Lay out one packet in buf; returns its length in bytes. */
static size_t
ib_pkt_build(uint8_t buf[PKT_MAX], const struct fa_ib_pkt *pkt,
    uint32_t psn, const uint8_t *mad, size_t len)
{
	size_t pad = (4 - len % 4) % 4, n, words;
	uint32_t crc;
	uint16_t vcrc;

	n = HDR_LEN + len + pad;
	words = (n + ICRC_LEN) / 4;
	memset(buf, 0, PKT_MAX);

	/* LRH (7.7); LVer 0, Rsv2 and Rsv5 zero. */
	buf[0] = (uint8_t)(pkt->vl << 4);
	buf[1] = (uint8_t)((pkt->sl << 4) | LNH_IBA_LOCAL);
	put16(buf + 2, pkt->dlid);
	put16(buf + 4, (uint32_t)words & 0x7ff);
	put16(buf + 6, pkt->slid);

	/* BTH (9.2); SE, M, TVer, Resv8a, A and Resv7 zero. */
	buf[LRH_LEN] = OP_UD_SEND_ONLY;
	buf[LRH_LEN + 1] = (uint8_t)(pad << 4);
	put16(buf + LRH_LEN + 2, PKEY_DEFAULT);
	put24(buf + LRH_LEN + 5, pkt->dst_qp);
	put24(buf + LRH_LEN + 9, psn & 0xffffff);

	/* DETH (9.3); the reserved byte is zero. */
	put32(buf + LRH_LEN + BTH_LEN, pkt->qkey);
	put24(buf + LRH_LEN + BTH_LEN + 5, pkt->src_qp);

	memcpy(buf + HDR_LEN, mad, len);	/* the pad stays zero */

	crc = ib_icrc(buf, n);
	buf[n] = (uint8_t)crc;
	buf[n + 1] = (uint8_t)(crc >> 8);
	buf[n + 2] = (uint8_t)(crc >> 16);
	buf[n + 3] = (uint8_t)(crc >> 24);
	n += ICRC_LEN;
	vcrc = ib_vcrc(buf, n);
	buf[n] = (uint8_t)vcrc;
	buf[n + 1] = (uint8_t)(vcrc >> 8);
	return n + VCRC_LEN;
}

/*
 * The ERF header for a packet of n bytes.  The timestamp's fraction is
 * rounded up, so that reading it back to microseconds or nanoseconds,
 * truncating or rounding, gives ts exactly.
 */
static void
erf_header(uint8_t h[ERF_LEN], const struct timeval *ts,
    enum fa_pcap_dir dir, size_t n)
{
	uint64_t t;
	int i;

	t = ((uint64_t)ts->tv_usec << 32) + 999999;
	t = (uint64_t)ts->tv_sec << 32 | t / 1000000;
	for (i = 0; i < 8; i++)
		h[i] = (uint8_t)(t >> (8 * i));
	h[8] = ERF_TYPE_INFINIBAND;
	h[9] = ERF_FLAG_VLEN |
	    (dir == FA_PCAP_RECEIVED ? ERF_IF_RECEIVED : ERF_IF_SENT);
	put16(h + 10, (uint32_t)(ERF_LEN + n));	/* rlen */
	put16(h + 12, 0);			/* lctr */
	put16(h + 14, (uint32_t)n);		/* wlen */
}

static void
ib_pcap_free(struct fa_ib_pcap *c)
{
	if (c == NULL)
		return;
	if (c->dump != NULL)
		pcap_dump_close(c->dump);
	if (c->tmp != NULL) {
		unlink(c->tmp);
		fa_interrupt_forget(c->tmp);
	}
	free(c->tmp);
	free(c->dst);
	free(c);
}

int
fa_ib_pcap_open(const char *dir, const char *name, struct fa_ib_pcap **out,
    char **why)
{
	struct fa_ib_pcap *c = NULL;
	pcap_t *dead = NULL;
	FILE *f = NULL;
	const char *detail = NULL;
	int fd = -1, r = FA_ERR_IO, saved = 0;
	sigset_t old;

	if (why != NULL)
		*why = NULL;
	if (out != NULL)
		*out = NULL;
	if (dir == NULL || name == NULL || out == NULL || *name == '\0' ||
	    strchr(name, '/') != NULL)
		return FA_ERR_INPUT;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->tmp = fa_strfmt("%s/.%s.XXXXXX", dir, name)) == NULL ||
	    (c->dst = fa_strfmt("%s/%s", dir, name)) == NULL) {
		r = FA_ERR_NOMEM;
		saved = ENOMEM;
		goto fail;
	}
	/* Created and listed for removal (core/interrupt.h) in one step
	 * that no signal splits. */
	fa_interrupt_defer(&old);
	if ((fd = mkostemp(c->tmp, O_CLOEXEC)) >= 0)
		(void)fa_interrupt_add(c->tmp, 0);
	saved = errno;
	fa_interrupt_undefer(&old);
	if (fd < 0) {
		free(c->tmp);	/* nothing was created: unlink nothing */
		c->tmp = NULL;
		goto fail;
	}
	saved = 0;
	if (fchmod(fd, 0640) != 0 || (f = fdopen(fd, "wb")) == NULL) {
		saved = errno;
		goto fail;
	}
	fd = -1;	/* f owns it */
	/* A large fabric captures 100 MB and more: fewer, larger writes
	 * (setvbuf() failing only leaves stdio's default buffer). */
	(void)setvbuf(f, NULL, _IOFBF, 256 * 1024);
	if ((dead = pcap_open_dead(DLT_ERF, SNAPLEN)) == NULL) {
		r = FA_ERR_NOMEM;
		saved = ENOMEM;
		goto fail;
	}
	/*
	 * On failure libpcap closes f itself when the header write failed,
	 * the only failure possible for DLT_ERF.
	 */
	errno = 0;
	if ((c->dump = pcap_dump_fopen(dead, f)) == NULL) {
		saved = errno != 0 ? errno : EIO;
		detail = pcap_geterr(dead);
		f = NULL;
		goto fail;
	}
	f = NULL;	/* c->dump owns it */
	pcap_close(dead);
	*out = c;
	return 0;

fail:
	if (why != NULL) {
		if (detail != NULL && *detail != '\0')
			*why = fa_strfmt("%s: %s", c != NULL && c->dst != NULL ?
			    c->dst : name, detail);
		else
			*why = fa_strfmt("%s/%s: %s", dir, name,
			    strerror(saved));
	}
	if (dead != NULL)
		pcap_close(dead);
	if (f != NULL)
		fclose(f);
	if (fd >= 0)
		close(fd);
	ib_pcap_free(c);
	return r;
}

int
fa_ib_pcap_write(struct fa_ib_pcap *c, const struct timeval *ts,
    enum fa_pcap_dir dir, const struct fa_ib_pkt *pkt, const uint8_t *mad,
    size_t len)
{
	uint8_t rec[ERF_LEN + PKT_MAX];
	struct pcap_pkthdr h;
	struct timespec now;
	size_t n;

	if (c == NULL || pkt == NULL || mad == NULL || len == 0 ||
	    len > MAD_MAX)
		return FA_ERR_INPUT;
	if (dir != FA_PCAP_SENT && dir != FA_PCAP_RECEIVED)
		return FA_ERR_INPUT;
	if (pkt->vl > 15 || pkt->sl > 15 || pkt->src_qp > QP_MAX ||
	    pkt->dst_qp > QP_MAX)
		return FA_ERR_INPUT;
	memset(&h, 0, sizeof(h));
	if (ts != NULL)
		h.ts = *ts;
	else if (clock_gettime(CLOCK_REALTIME, &now) == 0) {
		h.ts.tv_sec = now.tv_sec;
		h.ts.tv_usec = (suseconds_t)(now.tv_nsec / 1000);
	}
	/* ERF counts seconds in 32 unsigned bits. */
	if (h.ts.tv_sec < 0 || (uint64_t)h.ts.tv_sec > UINT32_MAX ||
	    h.ts.tv_usec < 0 || h.ts.tv_usec > 999999)
		return FA_ERR_INPUT;
	if (c->err != 0 || c->dump == NULL)
		return FA_ERR_IO;

	n = ib_pkt_build(rec + ERF_LEN, pkt, (uint32_t)(c->count & 0xffffff),
	    mad, len);
	erf_header(rec, &h.ts, dir, n);
	h.caplen = h.len = (bpf_u_int32)(ERF_LEN + n);
	errno = 0;
	pcap_dump((u_char *)c->dump, &h, rec);
	/* pcap_dump() reports nothing; the stream's error flag does. */
	if (ferror(pcap_dump_file(c->dump))) {
		c->err = errno != 0 ? errno : EIO;
		return FA_ERR_IO;
	}
	c->count++;
	return 0;
}

unsigned long
fa_ib_pcap_count(const struct fa_ib_pcap *c)
{
	return c != NULL ? c->count : 0;
}

int
fa_ib_pcap_sync(struct fa_ib_pcap *c, char **why)
{
	int saved;

	if (why != NULL)
		*why = NULL;
	if (c == NULL)
		return 0;
	errno = 0;
	if ((saved = c->err) == 0 && (pcap_dump_flush(c->dump) != 0 ||
	    fsync(fileno(pcap_dump_file(c->dump))) != 0))
		saved = errno != 0 ? errno : EIO;
	if (saved == 0)
		return 0;
	if (why != NULL)
		*why = fa_strfmt("%s: %s", c->dst, strerror(saved));
	return FA_ERR_IO;
}

/* Flush, fsync and close the capture's file: 0, or an errno. */
static int
end_dump(struct fa_ib_pcap *c)
{
	if (c->err != 0)
		return c->err;
	errno = 0;
	if (pcap_dump_flush(c->dump) != 0 ||
	    fsync(fileno(pcap_dump_file(c->dump))) != 0)
		return errno != 0 ? errno : EIO;
	/* Nothing is left buffered, so the fclose() inside cannot fail. */
	pcap_dump_close(c->dump);
	c->dump = NULL;
	return 0;
}

int
fa_ib_pcap_finish(struct fa_ib_pcap *c, char **staged, char **why)
{
	const char *base;
	int saved;

	*staged = NULL;
	if (why != NULL)
		*why = NULL;
	if (c == NULL)
		return 0;
	if ((saved = end_dump(c)) != 0)
		goto fail;
	base = strrchr(c->tmp, '/') != NULL ? strrchr(c->tmp, '/') + 1 :
	    c->tmp;
	if ((*staged = strdup(base)) == NULL) {
		saved = ENOMEM;
		goto fail;
	}
	/* The file, and its listing for removal, are the caller's now. */
	free(c->tmp);
	c->tmp = NULL;
	ib_pcap_free(c);
	return 0;

fail:
	if (why != NULL)
		*why = fa_strfmt("%s: %s", c->dst, strerror(saved));
	ib_pcap_free(c);
	return saved == ENOMEM ? FA_ERR_NOMEM : FA_ERR_IO;
}

void
fa_ib_pcap_abort(struct fa_ib_pcap *c)
{
	ib_pcap_free(c);
}
