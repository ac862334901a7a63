/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the mads.pcap writer (fabric/ib_pcap.c): captures written
 * and read back with libpcap (link type ERF, the ERF record header, every
 * IB header field, the MAD bytes, ICRC and VCRC), a packet matched byte for
 * byte against a hardware capture, and the error paths (bad lengths and
 * fields, abort, missing directory, a full disk).  With FA_PCAP_KEEP=DIR
 * the sample capture is also left as DIR/sample.pcap for
 * tests/ib/test_pcap_tshark.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcap/pcap.h>

#include "../../core/errors.h"
#include "../../fabric/ib_pcap.h"
#include "scratch_tree.h"

#define T0		((time_t)1796205600)	/* 2026-12-02T10:00:00Z */
#define ERF		16	/* ERF record header before each IB packet */
#define HDR		28	/* LRH 8 + BTH 12 + DETH 8: where the MAD starts */
#define FULL_PKT	290	/* HDR + 256-byte MAD + ICRC 4 + VCRC 2 */
#define MAD_CLASS	1	/* byte offsets in the MAD common header */
#define MAD_METHOD	3
#define MAD_ATTR	16

/* One MAD of the sample capture; test_pcap_tshark.sh checks the same. */
struct sample {
	enum fa_pcap_dir	dir;
	struct fa_ib_pkt	pkt;
	uint8_t			mclass;
	uint8_t			classver;
	uint8_t			method;
	uint16_t		attr;
	int			dr;	/* directed route SMP */
};

static const struct sample samples[] = {
	/* DR SMP SubnGet(NodeInfo), one hop, from the permissive LID. */
	{ FA_PCAP_SENT, { .slid = 0xffff, .dlid = 0xffff, .src_qp = 0,
	    .dst_qp = 0, .qkey = 0, .sl = 0, .vl = 15 },
	    0x81, 1, 0x01, 0x0011, 1 },
	/* LID-routed SubnGet(SMInfo) to the SM at LID 2. */
	{ FA_PCAP_SENT, { .slid = 1, .dlid = 2, .src_qp = 0, .dst_qp = 0,
	    .qkey = 0, .sl = 0, .vl = 15 },
	    0x01, 1, 0x01, 0x0020, 0 },
	/* SA SubnAdmGetTable(PathRecord) on QP1, SL 3. */
	{ FA_PCAP_SENT, { .slid = 1, .dlid = 2, .src_qp = 1, .dst_qp = 1,
	    .qkey = 0x80010000, .sl = 3, .vl = 0 },
	    0x03, 2, 0x12, 0x0035, 0 },
	/* The SM's SubnGetResp(SMInfo). */
	{ FA_PCAP_RECEIVED, { .slid = 2, .dlid = 1, .src_qp = 0, .dst_qp = 0,
	    .qkey = 0, .sl = 0, .vl = 15 },
	    0x01, 1, 0x81, 0x0020, 0 },
};
#define NSAMPLES	(sizeof(samples) / sizeof(samples[0]))

/* Reference CRCs, bit by bit, independent of the table-driven library. */
static uint32_t
ref_icrc(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;
	uint8_t b;

	for (i = 0; i < n; i++) {
		b = p[i];
		if (i == 0)
			b |= 0xf0;	/* LRH.VL is variant */
		if (i == 12)
			b = 0xff;	/* BTH.Resv8a is variant */
		c ^= b;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static uint16_t
ref_vcrc(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffff;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xd008u : c >> 1;
	}
	return (uint16_t)(~c & 0xffff);
}

/* The trailing ICRC and VCRC of a packet of n bytes are right. */
static void
assert_crcs(const uint8_t *p, size_t n)
{
	uint32_t icrc = ref_icrc(p, n - 6);
	uint16_t vcrc = ref_vcrc(p, n - 2);

	assert_int_equal(p[n - 6], icrc & 0xff);
	assert_int_equal(p[n - 5], (icrc >> 8) & 0xff);
	assert_int_equal(p[n - 4], (icrc >> 16) & 0xff);
	assert_int_equal(p[n - 3], icrc >> 24);
	assert_int_equal(p[n - 2], vcrc & 0xff);
	assert_int_equal(p[n - 1], vcrc >> 8);
}

static unsigned
get16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static unsigned long
get24(const uint8_t *p)
{
	return (unsigned long)p[0] << 16 | (unsigned long)p[1] << 8 | p[2];
}

static unsigned long
get32(const uint8_t *p)
{
	return (unsigned long)p[0] << 24 | get24(p + 1);
}

static void
build_mad(uint8_t mad[256], const struct sample *s, unsigned idx)
{
	int i;

	memset(mad, 0, 256);
	mad[0] = 1;			/* BaseVersion */
	mad[MAD_CLASS] = s->mclass;
	mad[2] = s->classver;
	mad[MAD_METHOD] = s->method;
	mad[15] = (uint8_t)(0x10 + idx);	/* TransactionID */
	mad[14] = 0xfa;
	mad[MAD_ATTR] = (uint8_t)(s->attr >> 8);
	mad[MAD_ATTR + 1] = (uint8_t)s->attr;
	if (s->dr) {
		mad[7] = 1;		/* HopCount; HopPointer 0 */
		mad[32] = mad[33] = 0xff;	/* DrSLID permissive */
		mad[34] = mad[35] = 0xff;	/* DrDLID permissive */
		mad[129] = 1;		/* InitialPath[1]: out of port 1 */
	}
	if (s->method & 0x80)		/* a response carries data */
		for (i = 64; i < 128; i++)
			mad[i] = (uint8_t)(i * 7 + idx);
}

static char *
mk_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *d;

	if (base == NULL || *base == '\0')
		base = "/tmp";
	assert_true(asprintf(&d, "%s/ftest_ib_pcap.XXXXXX", base) > 0);
	assert_non_null(mkdtemp(d));
	return d;
}

/* The whole scratch directory, then its name. */
static void
rm_tmpdir(char *dir)
{
	scratch_rm(dir, "");
	free(dir);
}

static struct fa_ib_pcap *
open_ok(const char *dir, const char *name)
{
	struct fa_ib_pcap *c = NULL;
	char *why = NULL;
	int r;

	r = fa_ib_pcap_open(dir, name, &c, &why);
	if (r != 0)
		print_error("open: %s\n", why != NULL ? why : "(no reason)");
	assert_int_equal(r, 0);
	assert_null(why);
	assert_non_null(c);
	return c;
}

/*
 * Finish c, which left it in dir under a temporary name (".NAME.XXXXXX"),
 * then put it in place as name, as a scan's output set does.
 */
static void
close_ok(struct fa_ib_pcap *c, const char *dir, const char *name)
{
	char *why = NULL, *staged = NULL, *from, *to;
	int r;

	r = fa_ib_pcap_finish(c, &staged, &why);
	if (r != 0)
		print_error("finish: %s\n", why != NULL ? why : "(no reason)");
	assert_int_equal(r, 0);
	assert_null(why);
	assert_non_null(staged);
	assert_int_equal(strncmp(staged + 1, name, strlen(name)), 0);
	assert_true(staged[0] == '.' && staged[strlen(name) + 1] == '.');
	assert_true(asprintf(&from, "%s/%s", dir, staged) > 0);
	assert_true(asprintf(&to, "%s/%s", dir, name) > 0);
	assert_int_equal(rename(from, to), 0);
	free(from);
	free(to);
	free(staged);
}

static pcap_t *
offline(const char *dir, const char *name)
{
	char errbuf[PCAP_ERRBUF_SIZE], *path;
	pcap_t *p;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	p = pcap_open_offline(path, errbuf);
	if (p == NULL)
		print_error("%s: %s\n", path, errbuf);
	free(path);
	assert_non_null(p);
	assert_int_equal(pcap_datalink(p), DLT_ERF);
	assert_int_equal(DLT_ERF, 197);
	return p;
}

/* The ERF header of a record holding an IB packet of n bytes. */
static void
assert_erf(const uint8_t *e, const struct pcap_pkthdr *h, size_t n,
    enum fa_pcap_dir dir)
{
	uint64_t t = 0;
	int i;

	assert_int_equal(h->caplen, ERF + n);
	assert_int_equal(h->len, ERF + n);
	for (i = 7; i >= 0; i--)
		t = t << 8 | e[i];
	assert_int_equal(t >> 32, h->ts.tv_sec);
	/* The fraction reads back as the microseconds, to the nanosecond. */
	assert_int_equal(((t & 0xffffffffu) * 1000000000u) >> 32,
	    (uint64_t)h->ts.tv_usec * 1000);
	assert_int_equal(e[8], 21);		/* type INFINIBAND */
	assert_int_equal(e[9], 0x04 | (dir == FA_PCAP_RECEIVED));
	assert_int_equal(get16(e + 10), ERF + n);	/* rlen */
	assert_int_equal(get16(e + 12), 0);		/* lctr */
	assert_int_equal(get16(e + 14), n);		/* wlen */
}

static void
write_samples(const char *dir, const char *name)
{
	struct fa_ib_pcap *c = open_ok(dir, name);
	struct timeval ts;
	uint8_t mad[256];
	unsigned i;

	for (i = 0; i < NSAMPLES; i++) {
		build_mad(mad, &samples[i], i);
		ts.tv_sec = T0;
		ts.tv_usec = (suseconds_t)(1000 * i);
		assert_int_equal(fa_ib_pcap_write(c, &ts, samples[i].dir,
		    &samples[i].pkt, mad, sizeof(mad)), 0);
		assert_int_equal(fa_ib_pcap_count(c), i + 1);
	}
	close_ok(c, dir, name);
}

static void
check_samples(const char *dir, const char *name)
{
	struct pcap_pkthdr *h;
	const u_char *e, *d;
	const struct fa_ib_pkt *k;
	pcap_t *p = offline(dir, name);
	uint8_t mad[256];
	unsigned i = 0;
	int r;

	while ((r = pcap_next_ex(p, &h, &e)) == 1) {
		assert_true(i < NSAMPLES);
		k = &samples[i].pkt;
		assert_erf(e, h, FULL_PKT, samples[i].dir);
		d = e + ERF;
		assert_int_equal(h->ts.tv_sec, T0);
		assert_int_equal(h->ts.tv_usec, 1000 * i);
		/* LRH */
		assert_int_equal(d[0] >> 4, k->vl);
		assert_int_equal(d[0] & 0xf, 0);	/* LVer */
		assert_int_equal(d[1] >> 4, k->sl);
		assert_int_equal(d[1] & 0x3, 0x2);	/* LNH: IBA local */
		assert_int_equal(get16(d + 2), k->dlid);
		assert_int_equal(get16(d + 4) & 0x7ff, (FULL_PKT - 2) / 4);
		assert_int_equal(get16(d + 6), k->slid);
		/* BTH */
		assert_int_equal(d[8], 0x64);		/* UD SEND Only */
		assert_int_equal(d[9], 0);		/* no pad */
		assert_int_equal(get16(d + 10), 0xffff);
		assert_int_equal(get24(d + 13), k->dst_qp);
		assert_int_equal(get24(d + 17), i);	/* PSN */
		/* DETH */
		assert_int_equal(get32(d + 20), k->qkey);
		assert_int_equal(get24(d + 25), k->src_qp);
		/* MAD, untouched */
		build_mad(mad, &samples[i], i);
		assert_memory_equal(d + HDR, mad, sizeof(mad));
		assert_int_equal(d[HDR + MAD_CLASS], samples[i].mclass);
		assert_int_equal(d[HDR + MAD_METHOD], samples[i].method);
		assert_int_equal(get16(d + HDR + MAD_ATTR), samples[i].attr);
		assert_crcs(d, FULL_PKT);
		i++;
	}
	assert_int_equal(r, PCAP_ERROR_BREAK);	/* end of file, no error */
	assert_int_equal(i, NSAMPLES);
	pcap_close(p);
}

static void
test_samples_round_trip(void **state)
{
	const char *keep = getenv("FA_PCAP_KEEP");
	char *dir = mk_tmpdir();
	struct stat st;
	char *path;

	(void)state;
	write_samples(dir, "mads.pcap");
	assert_int_equal(scratch_count(dir), 1);	/* no temporary left over */
	assert_true(asprintf(&path, "%s/mads.pcap", dir) > 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	free(path);
	check_samples(dir, "mads.pcap");

	/* For test_pcap_tshark.sh. */
	if (keep != NULL && *keep != '\0') {
		write_samples(keep, "sample.pcap");
		check_samples(keep, "sample.pcap");
	}
	rm_tmpdir(dir);
}

/*
 * Frame 1 of Wireshark's sample capture infiniband.pcap, taken by an Endace
 * card on a real link: a DR SubnGet(SMInfo) on VL15 with PSN 489.  Writing
 * the same MAD as our 490th packet must give the same 290 bytes, ICRC and
 * VCRC included.
 */
static void
hw_frame(uint8_t f[FULL_PKT], uint8_t mad[256])
{
	static const uint8_t hdr[HDR] = {
		0xf0, 0x02, 0xff, 0xff, 0x00, 0x48, 0xff, 0xff,	/* LRH */
		0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,	/* BTH */
		0x00, 0x00, 0x01, 0xe9,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* DETH */
	};
	/* The MAD's non-zero bytes, as offset and value. */
	static const uint8_t nz[][2] = {
		{ 0, 0x01 }, { 1, 0x81 }, { 2, 0x01 }, { 3, 0x01 },
		{ 6, 0x01 }, { 7, 0x02 }, { 9, 0x01 }, { 10, 0x50 },
		{ 11, 0x9c }, { 13, 0x01 }, { 14, 0x25 }, { 15, 0xc8 },
		{ 17, 0x20 }, { 32, 0xff }, { 33, 0xff }, { 34, 0xff },
		{ 35, 0xff }, { 129, 0x02 }, { 130, 0x03 },
	};
	static const uint8_t crcs[6] = { 0x10, 0x65, 0xef, 0x88, 0x00, 0x37 };
	size_t i;

	memset(mad, 0, 256);
	for (i = 0; i < sizeof(nz) / sizeof(nz[0]); i++)
		mad[nz[i][0]] = nz[i][1];
	memcpy(f, hdr, HDR);
	memcpy(f + HDR, mad, 256);
	memcpy(f + HDR + 256, crcs, sizeof(crcs));
}

static const uint8_t hw_ack[30] = {
	0x00, 0x02, 0x00, 0x04, 0x00, 0x07, 0x00, 0x01,	/* LRH */
	0x11, 0x40, 0xff, 0xff, 0x00, 0x87, 0x04, 0x08,	/* BTH */
	0x00, 0xd4, 0x0a, 0x55,
	0x1f, 0x00, 0x00, 0x01,				/* AETH */
	0xa8, 0x03, 0x55, 0x50, 0x30, 0x81,		/* ICRC, VCRC */
};

static void
test_hardware_known_answer(void **state)
{
	const struct fa_ib_pkt pkt = { .slid = 0xffff, .dlid = 0xffff,
	    .src_qp = 0, .dst_qp = 0, .qkey = 0, .sl = 0, .vl = 15 };
	uint8_t want[FULL_PKT], mad[256];
	struct pcap_pkthdr *h;
	const u_char *e;
	struct fa_ib_pcap *c;
	char *dir = mk_tmpdir();
	pcap_t *p;
	int i;

	(void)state;
	/*
	 * The reference CRCs agree with the hardware: on frame 1, and on
	 * frame 11 (an RC Acknowledge on VL 0, where the VL mask matters).
	 */
	hw_frame(want, mad);
	assert_crcs(want, sizeof(want));
	assert_crcs(hw_ack, sizeof(hw_ack));

	c = open_ok(dir, "kat.pcap");
	for (i = 0; i <= 489; i++)
		assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &pkt,
		    mad, sizeof(mad)), 0);
	close_ok(c, dir, "kat.pcap");

	p = offline(dir, "kat.pcap");
	for (i = 0; i <= 489; i++)
		assert_int_equal(pcap_next_ex(p, &h, &e), 1);
	assert_erf(e, h, FULL_PKT, FA_PCAP_SENT);
	assert_memory_equal(e + ERF, want, FULL_PKT);
	assert_int_equal(pcap_next_ex(p, &h, &e), PCAP_ERROR_BREAK);
	pcap_close(p);
	rm_tmpdir(dir);
}

/* A MAD shorter than 256 bytes, or not a multiple of 4, is padded. */
static void
test_short_mad_padded(void **state)
{
	static const size_t lens[] = { 1, 24, 30, 255 };
	struct pcap_pkthdr *h;
	const u_char *e, *d;
	struct fa_ib_pcap *c;
	char *dir = mk_tmpdir();
	uint8_t mad[256];
	size_t i, pad, j, n;
	pcap_t *p;

	(void)state;
	for (j = 0; j < sizeof(mad); j++)
		mad[j] = (uint8_t)(0xa5 ^ j);
	c = open_ok(dir, "short.pcap");
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT,
		    &samples[2].pkt, mad, lens[i]), 0);
	close_ok(c, dir, "short.pcap");

	p = offline(dir, "short.pcap");
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		assert_int_equal(pcap_next_ex(p, &h, &e), 1);
		pad = (4 - lens[i] % 4) % 4;
		n = HDR + lens[i] + pad + 6;
		assert_erf(e, h, n, FA_PCAP_SENT);
		d = e + ERF;
		assert_int_equal(get16(d + 4) & 0x7ff,
		    (HDR + lens[i] + pad + 4) / 4);
		assert_int_equal((d[9] >> 4) & 0x3, pad);	/* PadCnt */
		assert_memory_equal(d + HDR, mad, lens[i]);
		for (j = 0; j < pad; j++)
			assert_int_equal(d[HDR + lens[i] + j], 0);
		assert_crcs(d, n);
	}
	assert_int_equal(pcap_next_ex(p, &h, &e), PCAP_ERROR_BREAK);
	pcap_close(p);
	rm_tmpdir(dir);
}

static void
test_bad_input(void **state)
{
	struct fa_ib_pkt k = samples[1].pkt;
	struct timeval ts;
	struct pcap_pkthdr *h;
	const u_char *d;
	struct fa_ib_pcap *c;
	char *dir = mk_tmpdir(), *why = (char *)1, *staged = (char *)1;
	uint8_t mad[257];
	pcap_t *p;

	(void)state;
	memset(mad, 0, sizeof(mad));
	c = open_ok(dir, "bad.pcap");
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, mad, 0),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, mad, 257),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, NULL, 256),
	    FA_ERR_INPUT);
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, NULL, mad,
	    256), FA_ERR_INPUT);
	assert_int_equal(fa_ib_pcap_write(NULL, NULL, FA_PCAP_SENT, &k, mad,
	    256), FA_ERR_INPUT);
	assert_int_equal(fa_ib_pcap_write(c, NULL, (enum fa_pcap_dir)7, &k,
	    mad, 256), FA_ERR_INPUT);
	k.vl = 16;
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, mad, 256),
	    FA_ERR_INPUT);
	k = samples[1].pkt;
	k.sl = 16;
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, mad, 256),
	    FA_ERR_INPUT);
	k = samples[1].pkt;
	k.dst_qp = 0x1000000;
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, mad, 256),
	    FA_ERR_INPUT);
	k = samples[1].pkt;
	k.src_qp = 0x1000000;
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &k, mad, 256),
	    FA_ERR_INPUT);
	/* ERF time stamps: 32-bit unsigned seconds, a fraction below 1. */
	ts.tv_sec = T0;
	ts.tv_usec = 1000000;
	assert_int_equal(fa_ib_pcap_write(c, &ts, FA_PCAP_SENT,
	    &samples[1].pkt, mad, 256), FA_ERR_INPUT);
	ts.tv_sec = -1;
	ts.tv_usec = 0;
	assert_int_equal(fa_ib_pcap_write(c, &ts, FA_PCAP_SENT,
	    &samples[1].pkt, mad, 256), FA_ERR_INPUT);
	assert_int_equal(fa_ib_pcap_count(c), 0);
	assert_int_equal(fa_ib_pcap_count(NULL), 0);
	close_ok(c, dir, "bad.pcap");

	/* Nothing written is still a valid, empty capture. */
	p = offline(dir, "bad.pcap");
	assert_int_equal(pcap_next_ex(p, &h, &d), PCAP_ERROR_BREAK);
	pcap_close(p);

	/* Both ends accept NULL. */
	fa_ib_pcap_abort(NULL);
	assert_int_equal(fa_ib_pcap_finish(NULL, &staged, &why), 0);
	assert_null(why);
	assert_null(staged);

	/* A name is a file name, not a path. */
	c = (struct fa_ib_pcap *)1;
	assert_int_equal(fa_ib_pcap_open(dir, "a/b.pcap", &c, NULL),
	    FA_ERR_INPUT);
	assert_null(c);
	assert_int_equal(scratch_count(dir), 1);
	rm_tmpdir(dir);
}

static void
test_abort_leaves_nothing(void **state)
{
	struct fa_ib_pcap *c;
	char *dir = mk_tmpdir();
	uint8_t mad[256];

	(void)state;
	memset(mad, 0, sizeof(mad));
	c = open_ok(dir, "mads.pcap");
	assert_int_equal(scratch_count(dir), 1);	/* the temporary */
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT,
	    &samples[0].pkt, mad, sizeof(mad)), 0);
	fa_ib_pcap_abort(c);
	assert_int_equal(scratch_count(dir), 0);
	rm_tmpdir(dir);
}

static void
test_open_missing_dir(void **state)
{
	struct fa_ib_pcap *c = (struct fa_ib_pcap *)1;
	char *dir = mk_tmpdir(), *missing, *want, *why = NULL;

	(void)state;
	assert_true(asprintf(&missing, "%s/missing", dir) > 0);
	assert_true(asprintf(&want, "%s/mads.pcap", missing) > 0);
	assert_int_equal(fa_ib_pcap_open(missing, "mads.pcap", &c, &why),
	    FA_ERR_IO);
	assert_null(c);
	assert_non_null(why);
	assert_non_null(strstr(why, want));
	assert_non_null(strstr(why, strerror(ENOENT)));
	free(why);
	/* why may be NULL. */
	c = (struct fa_ib_pcap *)1;
	assert_int_equal(fa_ib_pcap_open(missing, "mads.pcap", &c, NULL),
	    FA_ERR_IO);
	assert_null(c);
	assert_int_equal(scratch_count(dir), 0);
	free(want);
	free(missing);
	rm_tmpdir(dir);
}

/*
 * An existing capture is left alone while the new one is written and once
 * it is finished: only the caller puts the finished one in its place.
 */
static void
test_replaces_existing(void **state)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	struct fa_ib_pcap *c;
	char *dir = mk_tmpdir(), *path, line[8];
	uint8_t mad[256];
	FILE *f;
	pcap_t *p;

	(void)state;
	assert_true(asprintf(&path, "%s/mads.pcap", dir) > 0);
	assert_non_null(f = fopen(path, "w"));
	fputs("old\n", f);
	fclose(f);
	memset(mad, 0, sizeof(mad));
	c = open_ok(dir, "mads.pcap");
	assert_int_equal(fa_ib_pcap_write(c, NULL, FA_PCAP_SENT,
	    &samples[1].pkt, mad, sizeof(mad)), 0);
	assert_int_equal(scratch_count(dir), 2);
	assert_non_null(f = fopen(path, "r"));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "old\n");
	fclose(f);
	free(path);
	close_ok(c, dir, "mads.pcap");
	assert_int_equal(scratch_count(dir), 1);
	p = offline(dir, "mads.pcap");
	assert_int_equal(pcap_next_ex(p, &h, &d), 1);
	assert_int_equal(pcap_next_ex(p, &h, &d), PCAP_ERROR_BREAK);
	pcap_close(p);
	rm_tmpdir(dir);
}

/*
 * A full disk, played by RLIMIT_FSIZE: the write or the close that meets
 * it fails with the file named, and no capture is left.
 */
static void
full_disk(rlim_t limit, int writes)
{
	struct rlimit old, lim;
	struct fa_ib_pcap *c;
	char *dir = mk_tmpdir(), *why = NULL, *want, *staged = (char *)1;
	uint8_t mad[256];
	int i, r = 0, failed_at = -1;
	void (*oldsig)(int);

	memset(mad, 0, sizeof(mad));
	assert_true(asprintf(&want, "%s/mads.pcap: %s", dir,
	    strerror(EFBIG)) > 0);
	c = open_ok(dir, "mads.pcap");
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = limit;
	oldsig = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < writes; i++) {
		r = fa_ib_pcap_write(c, NULL, FA_PCAP_SENT, &samples[2].pkt,
		    mad, sizeof(mad));
		if (r != 0 && failed_at < 0)
			failed_at = i;
		if (failed_at >= 0)	/* and every write after it */
			assert_int_equal(r, FA_ERR_IO);
	}
	r = fa_ib_pcap_finish(c, &staged, &why);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_null(staged);
	signal(SIGXFSZ, oldsig);
	if (writes > 1)
		assert_true(failed_at > 0);
	else
		assert_int_equal(failed_at, -1);
	assert_int_equal(r, FA_ERR_IO);
	assert_non_null(why);
	assert_string_equal(why, want);
	free(why);
	free(want);
	assert_int_equal(scratch_count(dir), 0);
	rm_tmpdir(dir);
}

static void
test_full_disk_on_write(void **state)
{
	(void)state;
	full_disk(1024, 100);
}

static void
test_full_disk_on_close(void **state)
{
	(void)state;
	full_disk(100, 1);	/* still in the stdio buffer until close */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_round_trip),
		cmocka_unit_test(test_hardware_known_answer),
		cmocka_unit_test(test_short_mad_padded),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_abort_leaves_nothing),
		cmocka_unit_test(test_open_missing_dir),
		cmocka_unit_test(test_replaces_existing),
		cmocka_unit_test(test_full_disk_on_write),
		cmocka_unit_test(test_full_disk_on_close),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
