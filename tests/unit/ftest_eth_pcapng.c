/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Saved captures as `fabaudit scan --pcap` reads them
 * (fabric/eth_pcap_read.c, fabric/eth_pcapng.c, fabric/eth_linktype.c):
 * pcapng files written here block by block from the layouts of
 * draft-ietf-opsawg-pcapng (sections 4.1-4.6), classic pcap files from
 * the 24-byte header and 16-byte record header, LINUX_SLL and LINUX_SLL2
 * frames from libpcap's pcap/sll.h layouts.  Each is read from memory
 * (fmemopen(3)) and the eth.capture observations are inspected.
 */
#include <setjmp.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../core/snapshot.h"
#include "../../fabric/eth_capture.h"
#include "../../fabric/eth_pcap_read.h"
#include "../../fabric/eth_pcapng.h"

/* ---- writing files ---------------------------------------------------- */

struct bld {
	uint8_t	 b[16384];
	size_t	 n;
	int	 be;		/* big-endian numbers */
};

static void
put(struct bld *w, const void *p, size_t n)
{
	assert_true(w->n + n <= sizeof(w->b));
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void
putn(struct bld *w, uint64_t v, unsigned bytes)
{
	uint8_t x[8];
	unsigned i;

	for (i = 0; i < bytes; i++)
		x[w->be ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
	put(w, x, bytes);
}

static void
pad4(struct bld *w)
{
	while (w->n % 4 != 0)
		putn(w, 0, 1);
}

/* Block type and a total length set by blk_end() (3.1). */
static size_t
blk_begin(struct bld *w, uint32_t type)
{
	size_t at = w->n;

	putn(w, type, 4);
	putn(w, 0, 4);
	return at;
}

static void
blk_end(struct bld *w, size_t at)
{
	uint32_t len;
	size_t end;

	pad4(w);
	len = (uint32_t)(w->n - at + 4);
	end = w->n;
	w->n = at + 4;
	putn(w, len, 4);
	w->n = end;
	putn(w, len, 4);
}

static void
opt(struct bld *w, unsigned code, const void *v, size_t len)
{
	putn(w, code, 2);
	putn(w, len, 2);
	put(w, v, len);
	pad4(w);
}

static void
opt_end(struct bld *w)
{
	putn(w, 0, 4);
}

/* Section Header Block (4.1) of a version, section length unknown. */
static void
shb_v(struct bld *w, unsigned major, unsigned minor)
{
	size_t at = blk_begin(w, 0x0A0D0D0A);

	putn(w, 0x1A2B3C4D, 4);
	putn(w, major, 2);
	putn(w, minor, 2);
	putn(w, UINT64_MAX, 8);
	blk_end(w, at);
}

static void
shb(struct bld *w)
{
	shb_v(w, 1, 0);
}

/* Interface Description Block (4.2), if_name when name is not NULL. */
static void
idb(struct bld *w, unsigned lt, uint32_t snaplen, const char *name)
{
	size_t at = blk_begin(w, 1);

	putn(w, lt, 2);
	putn(w, 0, 2);
	putn(w, snaplen, 4);
	if (name != NULL) {
		opt(w, 2, name, strlen(name));
		opt_end(w);
	}
	blk_end(w, at);
}

/* Enhanced Packet Block (4.3); flags < 0: no epb_flags. */
static void
epb(struct bld *w, uint32_t ifc, const uint8_t *f, size_t cap, size_t len,
    long flags)
{
	size_t at = blk_begin(w, 6);

	putn(w, ifc, 4);
	putn(w, 0, 4);
	putn(w, 0, 4);
	putn(w, cap, 4);
	putn(w, len, 4);
	put(w, f, cap);
	pad4(w);
	if (flags >= 0) {
		putn(w, 2, 2);		/* epb_flags */
		putn(w, 4, 2);
		putn(w, (uint64_t)flags, 4);
		opt_end(w);
	}
	blk_end(w, at);
}

/* Simple Packet Block (4.4): cap bytes kept of a frame of len. */
static void
spb(struct bld *w, const uint8_t *f, size_t cap, size_t len)
{
	size_t at = blk_begin(w, 3);

	putn(w, len, 4);
	put(w, f, cap);
	blk_end(w, at);
}

/* Interface Statistics Block (4.6) with one 64-bit option. */
static void
isb_opt(struct bld *w, uint32_t ifc, unsigned code, uint64_t v)
{
	size_t at = blk_begin(w, 5);

	putn(w, ifc, 4);
	putn(w, 0, 8);
	putn(w, code, 2);
	putn(w, 8, 2);
	putn(w, v, 8);
	opt_end(w);
	blk_end(w, at);
}

/* The same with isb_ifdrop (5). */
static void
isb(struct bld *w, uint32_t ifc, uint64_t ifdrop)
{
	isb_opt(w, ifc, 5, ifdrop);
}

/* Enhanced Packet Block (4.3) with epb_dropcount (4). */
static void
epb_drops(struct bld *w, uint32_t ifc, const uint8_t *f, size_t n,
    uint64_t drops)
{
	size_t at = blk_begin(w, 6);

	putn(w, ifc, 4);
	putn(w, 0, 8);
	putn(w, n, 4);
	putn(w, n, 4);
	put(w, f, n);
	pad4(w);
	putn(w, 4, 2);
	putn(w, 8, 2);
	putn(w, drops, 8);
	opt_end(w);
	blk_end(w, at);
}

/* The obsolete Packet Block (appendix A): 16-bit interface and drops. */
static void
pb(struct bld *w, unsigned ifc, unsigned drops, const uint8_t *f, size_t n)
{
	size_t at = blk_begin(w, 2);

	putn(w, ifc, 2);
	putn(w, drops, 2);
	putn(w, 0, 8);
	putn(w, n, 4);
	putn(w, n, 4);
	put(w, f, n);
	blk_end(w, at);
}

/* A block of any type with n bytes of body (3.1). */
static void
blk(struct bld *w, uint32_t type, size_t n)
{
	size_t at = blk_begin(w, type);

	while (n-- > 0)
		putn(w, 0x5a, 1);
	blk_end(w, at);
}

/* Classic pcap file header: magic, 2.4, zone, sigfigs, snaplen, type. */
static void
pcap_hdr(struct bld *w, uint32_t magic, uint32_t lt)
{
	putn(w, magic, 4);
	putn(w, 2, 2);
	putn(w, 4, 2);
	putn(w, 0, 4);
	putn(w, 0, 4);
	putn(w, 65535, 4);
	putn(w, lt, 4);
}

static void
pcap_rec(struct bld *w, const uint8_t *f, size_t len)
{
	putn(w, 1700000000, 4);
	putn(w, 0, 4);
	putn(w, len, 4);
	putn(w, len, 4);
	put(w, f, len);
}

/* ---- frames ----------------------------------------------------------- */

/* The 28-byte body of an ARP request (RFC 826) from 10.20.0.n. */
static void
arp_body(uint8_t *p, unsigned n)
{
	static const uint8_t head[] = {
		0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01,
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00,	/* sender MAC */
		10, 20, 0, 0,				/* sender IP */
		0, 0, 0, 0, 0, 0,			/* target MAC */
		10, 20, 0, 1,				/* target IP */
	};

	memcpy(p, head, sizeof(head));
	p[13] = (uint8_t)n;
	p[17] = (uint8_t)n;
}

/* A broadcast Ethernet ARP request, padded to 60 bytes. */
static size_t
eth_arp(uint8_t *f, unsigned n)
{
	memset(f, 0, 60);
	memset(f, 0xff, 6);
	f[6] = 0x02;
	f[11] = (uint8_t)n;
	f[12] = 0x08;
	f[13] = 0x06;
	arp_body(f + 14, n);
	return 60;
}

/* LINUX_SLL: packet type, ARPHRD, address length 6, address, protocol. */
static size_t
sll_arp(uint8_t *f, unsigned pkttype, unsigned hatype, unsigned n)
{
	memset(f, 0, 44);
	f[1] = (uint8_t)pkttype;
	f[2] = (uint8_t)(hatype >> 8);
	f[3] = (uint8_t)hatype;
	f[5] = 6;
	f[6] = 0x02;
	f[11] = (uint8_t)n;
	f[14] = 0x08;
	f[15] = 0x06;
	arp_body(f + 16, n);
	return 44;
}

/* LINUX_SLL2: protocol, reserved, ifindex, ARPHRD, pkttype, addrlen. */
static size_t
sll2_arp(uint8_t *f, uint32_t ifindex, unsigned pkttype, unsigned n)
{
	memset(f, 0, 48);
	f[0] = 0x08;
	f[1] = 0x06;
	f[4] = (uint8_t)(ifindex >> 24);
	f[5] = (uint8_t)(ifindex >> 16);
	f[6] = (uint8_t)(ifindex >> 8);
	f[7] = (uint8_t)ifindex;
	f[9] = 1;			/* ARPHRD_ETHER */
	f[10] = (uint8_t)pkttype;
	f[11] = 6;
	f[12] = 0x02;
	f[17] = (uint8_t)n;
	arp_body(f + 20, n);
	return 48;
}

/* ---- reading ---------------------------------------------------------- */

/* Read w's bytes as file "t"; the result, *s and *why set. */
static int
read_mem(const struct bld *w, unsigned long long max, struct fa_snapshot **s,
    char **why)
{
	FILE *f;

	*s = fa_snapshot_new();
	*why = NULL;
	assert_non_null(*s);
	f = fmemopen((void *)(uintptr_t)w->b, w->n, "rb");
	assert_non_null(f);
	return fa_eth_read_pcap_stream(f, "t", max, *s, why);
}

static const struct fa_obs *
obs(const struct fa_snapshot *s, const char *name)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_ETH_CAPTURE,
	    name);

	if (o == NULL)
		fail_msg("no eth.capture observation \"%s\"", name);
	return o;
}

static long long
num(const struct fa_obs *o, const char *k)
{
	return json_integer_value(json_object_get(o->data, k));
}

static const char *
str(const struct fa_obs *o, const char *k)
{
	return json_string_value(json_object_get(o->data, k));
}

static long long
skipped(const struct fa_obs *o, const char *why)
{
	return json_integer_value(json_object_get(json_object_get(o->data,
	    "skipped"), why));
}

static void
has_arp(const struct fa_obs *o)
{
	assert_true(json_array_size(json_object_get(json_object_get(o->data,
	    "signals"), "arp")) > 0);
}

static void
reason_has(const struct fa_obs *o, const char *part)
{
	if (o->reason == NULL || strstr(o->reason, part) == NULL)
		fail_msg("reason \"%s\" lacks \"%s\"", o->reason != NULL ?
		    o->reason : "(none)", part);
}

static void
why_has(const char *why, const char *part)
{
	if (why == NULL || strstr(why, part) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", why != NULL ? why :
		    "(none)", part);
}

/* SHB, one EN10MB IDB named eth0, two ARP frames; the offset of the
 * second. */
static size_t
simple_ng(struct bld *w)
{
	size_t at;

	uint8_t f[64];
	size_t n;

	shb(w);
	idb(w, 1, 0, "eth0");
	n = eth_arp(f, 5);
	epb(w, 0, f, n, n, -1);
	n = eth_arp(f, 6);
	at = w->n;
	epb(w, 0, f, n, n, 1);		/* inbound */
	return at;
}

static void
ng_byte_order(int be)
{
	struct bld w = { .be = be };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	char *why;

	simple_ng(&w);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 1);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(num(o, "frames"), 2);
	assert_string_equal(str(o, "linktype"), "EN10MB");
	assert_string_equal(str(o, "interface"), "eth0");
	has_arp(o);
	fa_snapshot_free(s);
}

static void
ng_little_endian(void **state)
{
	(void)state;
	ng_byte_order(0);
}

static void
ng_big_endian(void **state)
{
	(void)state;
	ng_byte_order(1);
}

/* Two sections of either byte order: interfaces numbered across them. */
static void
ng_two_sections(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	simple_ng(&w);
	w.be = 1;
	shb(&w);
	idb(&w, 1, 0, NULL);
	n = eth_arp(f, 7);
	epb(&w, 0, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 2);
	assert_int_equal(num(obs(s, "t (interface 0: eth0)"), "frames"), 2);
	o = obs(s, "t (interface 1)");
	assert_int_equal(num(o, "frames"), 1);
	assert_int_equal(num(o, "interface"), 1);
	fa_snapshot_free(s);
}

static void
ng_en10mb_and_sll2(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 1, 0, "a");
	idb(&w, 276, 0, "any");
	n = eth_arp(f, 1);
	epb(&w, 0, f, n, n, -1);
	n = sll2_arp(f, 2, 0, 2);
	epb(&w, 1, f, n, n, -1);
	n = sll2_arp(f, 3, 0, 3);
	epb(&w, 1, f, n, n, -1);
	n = sll2_arp(f, 2, 4, 4);	/* PACKET_OUTGOING */
	epb(&w, 1, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 3);
	o = obs(s, "t (interface 0: a)");
	assert_int_equal(num(o, "frames"), 1);
	has_arp(o);
	o = obs(s, "t (interface 1: any, ifindex 2)");
	assert_int_equal(num(o, "frames"), 2);
	assert_int_equal(skipped(o, "sent by this host"), 1);
	assert_string_equal(str(o, "linktype"), "LINUX_SLL2");
	assert_int_equal(num(o, "ifindex"), 2);
	has_arp(o);
	o = obs(s, "t (interface 1: any, ifindex 3)");
	assert_int_equal(num(o, "frames"), 1);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	fa_snapshot_free(s);
}

static void
ng_unsupported_beside(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 105, 0, "wlan0");
	idb(&w, 1, 0, NULL);
	n = eth_arp(f, 1);
	epb(&w, 0, f, n, n, -1);
	epb(&w, 0, f, n, n, -1);
	epb(&w, 1, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 2);
	o = obs(s, "t (interface 0: wlan0)");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_string_equal(o->reason, "link type IEEE802_11 (105) is not "
	    "supported; 2 frames not read");
	assert_int_equal(num(o, "frames"), 0);
	o = obs(s, "t (interface 1)");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(num(o, "frames"), 1);
	fa_snapshot_free(s);
}

static void
ng_only_unsupported(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 105, 0, NULL);
	n = eth_arp(f, 1);
	epb(&w, 0, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	assert_int_equal(s->nobs, 0);
	why_has(why, "link type IEEE802_11 (105) is not supported");
	free(why);
	fa_snapshot_free(s);
}

static void
ng_outbound_skipped(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 1, 0, NULL);
	n = eth_arp(f, 1);
	epb(&w, 0, f, n, n, 2);		/* outbound */
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0)");
	assert_int_equal(num(o, "frames"), 1);
	assert_int_equal(skipped(o, "sent by this host"), 1);
	assert_null(json_object_get(json_object_get(o->data, "signals"),
	    "arp"));
	fa_snapshot_free(s);
}

static void
ng_isb_drops(void **state)
{
	struct bld w = { .be = 1 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	char *why;

	(void)state;
	simple_ng(&w);
	isb(&w, 0, 1);
	isb(&w, 0, 3);		/* cumulative: the last one counts */
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_string_equal(o->reason,
	    "the capturing interface dropped 3 frames");
	assert_int_equal(num(o, "interface_drops"), 3);
	fa_snapshot_free(s);
}

static void
ng_simple_packet(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 1, 32, NULL);		/* SnapLen 32: frames cut */
	n = eth_arp(f, 1);
	spb(&w, f, 32, n);
	spb(&w, f, n, n);		/* more than SnapLen: cut to it */
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0)");
	assert_int_equal(num(o, "frames"), 2);
	assert_int_equal(num(o, "truncated"), 2);
	assert_int_equal(num(o, "bytes"), 120);
	fa_snapshot_free(s);
}

/* The second EPB's trailing length differs from its leading one. */
static void
ng_length_mismatch(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	size_t at;
	char *why, want[64];

	(void)state;
	at = simple_ng(&w);
	assert_int_equal(w.n - at, 104);	/* 60 bytes, epb_flags */
	w.b[w.n - 4] ^= 4;
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_int_equal(num(o, "frames"), 1);
	snprintf(want, sizeof(want), "block at byte %zu claims 104 bytes", at);
	reason_has(o, want);
	fa_snapshot_free(s);
}

static void
ng_cut_short(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	size_t at;
	char *why, want[64];

	(void)state;
	at = simple_ng(&w);
	w.n -= 50;
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_int_equal(num(o, "frames"), 1);
	snprintf(want, sizeof(want), "file ends inside the block at byte %zu",
	    at);
	reason_has(o, want);
	fa_snapshot_free(s);
}

static void
ng_huge_block(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	size_t at;
	char *why, want[64];

	(void)state;
	simple_ng(&w);
	at = w.n;
	putn(&w, 6, 4);
	putn(&w, 99999996, 4);
	putn(&w, 0, 8);
	putn(&w, 0, 8);
	putn(&w, 0, 8);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_int_equal(num(o, "frames"), 2);
	snprintf(want, sizeof(want), "block at byte %zu claims 99999996 bytes",
	    at);
	reason_has(o, want);
	fa_snapshot_free(s);
}

static void
ng_first_not_shb(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_pcapng_rec rec;
	struct fa_pcapng *r;
	struct fa_snapshot *s;
	char *why = NULL;
	FILE *f;

	(void)state;
	/* A section header whose byte-order magic is wrong. */
	simple_ng(&w);
	w.b[8] = 0x00;
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	assert_int_equal(s->nobs, 0);
	why_has(why, "byte-order magic");
	free(why);
	why = NULL;
	fa_snapshot_free(s);

	/* An interface block first: the reader refuses it. */
	w.n = 0;
	idb(&w, 1, 0, NULL);
	f = fmemopen(w.b, w.n, "rb");
	assert_non_null(f);
	assert_non_null(r = fa_pcapng_new(f));
	assert_int_equal(fa_pcapng_next(r, &rec, &why), FA_ERR_INPUT);
	why_has(why, "not a Section Header Block");
	free(why);
	fa_pcapng_free(r);
	fclose(f);

	/* As a --pcap file it is not a capture at all. */
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	why_has(why, "not a pcap or pcapng capture");
	free(why);
	fa_snapshot_free(s);
}

static void
ng_iface_out_of_range(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	simple_ng(&w);
	n = eth_arp(f, 1);
	epb(&w, 1, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	reason_has(o, "names interface 1, but its section describes 1");
	fa_snapshot_free(s);
}

static void
max_frames_stops(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	simple_ng(&w);
	n = eth_arp(f, 9);
	epb(&w, 0, f, n, n, -1);
	assert_int_equal(read_mem(&w, 2, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_int_equal(num(o, "frames"), 2);
	assert_string_equal(o->reason, "read stopped at --max-frames 2: the "
	    "rest of the file was not read");
	fa_snapshot_free(s);
	/* Exactly as many frames as allowed: the file was read whole. */
	assert_int_equal(read_mem(&w, 3, &s, &why), 0);
	assert_int_equal(obs(s, "t (interface 0: eth0)")->state,
	    FA_OBS_COMPLETE);
	fa_snapshot_free(s);
}

static void
pcap_magic(uint32_t magic, int be)
{
	struct bld w = { .be = be };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	pcap_hdr(&w, magic, 1);
	n = eth_arp(f, 1);
	pcap_rec(&w, f, n);
	pcap_rec(&w, f, n);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 1);
	o = obs(s, "t");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(num(o, "frames"), 2);
	assert_string_equal(str(o, "linktype"), "EN10MB");
	has_arp(o);
	fa_snapshot_free(s);
}

static void
pcap_big_endian(void **state)
{
	(void)state;
	pcap_magic(0xa1b2c3d4, 1);
}

static void
pcap_nanosecond(void **state)
{
	(void)state;
	pcap_magic(0xa1b23c4d, 0);
	pcap_magic(0xa1b23c4d, 1);
}

static void
pcap_cut_short(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 1);
	n = eth_arp(f, 1);
	pcap_rec(&w, f, n);
	pcap_rec(&w, f, n);
	w.n -= 10;
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_int_equal(num(o, "frames"), 1);
	/* 24 bytes of file header, 16 + 60 of the first record. */
	reason_has(o, "cut short or damaged after frame 1, in the record at "
	    "byte 100: ");
	fa_snapshot_free(s);
}

static void
pcap_sll(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 113);
	n = sll_arp(f, 1, 1, 1);	/* broadcast, Ethernet */
	pcap_rec(&w, f, n);
	n = sll_arp(f, 4, 1, 2);	/* outgoing */
	pcap_rec(&w, f, n);
	n = sll_arp(f, 0, 772, 3);	/* loopback */
	pcap_rec(&w, f, n);
	pcap_rec(&w, f, 10);		/* shorter than its header */
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 1);
	o = obs(s, "t");
	assert_int_equal(num(o, "frames"), 4);
	assert_int_equal(skipped(o, "sent by this host"), 1);
	assert_int_equal(skipped(o, "not Ethernet (ARPHRD 772)"), 1);
	assert_int_equal(skipped(o, "shorter than its LINUX_SLL header"), 1);
	assert_true(json_is_true(json_object_get(o->data,
	    "mixed_interfaces")));
	assert_string_equal(str(o, "linktype"), "LINUX_SLL");
	has_arp(o);
	fa_snapshot_free(s);
}

static void
pcap_sll2(void **state)
{
	struct bld w = { .be = 1 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 276);
	n = sll2_arp(f, 2, 0, 1);
	pcap_rec(&w, f, n);
	n = sll2_arp(f, 5, 3, 2);
	pcap_rec(&w, f, n);
	pcap_rec(&w, f, n);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 2);
	o = obs(s, "t (ifindex 2)");
	assert_int_equal(num(o, "frames"), 1);
	assert_int_equal(num(o, "interface"), 2);
	assert_string_equal(str(o, "linktype"), "LINUX_SLL2");
	has_arp(o);
	o = obs(s, "t (ifindex 5)");
	assert_int_equal(num(o, "frames"), 2);
	has_arp(o);
	fa_snapshot_free(s);
}

/* More interface indexes than sources kept: the rest is not read. */
static void
pcap_sll2_bound(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n, it = 0;
	uint32_t i;
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 276);
	for (i = 1; i <= FA_ETH_PCAP_SOURCES_MAX + 2; i++) {
		n = sll2_arp(f, i, 0, 1);
		pcap_rec(&w, f, n);
	}
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, FA_ETH_PCAP_SOURCES_MAX);
	while ((o = fa_snapshot_next(s, FA_KIND_ETH_CAPTURE, &it)) != NULL) {
		assert_int_equal(o->state, FA_OBS_INCOMPLETE);
		reason_has(o, "more than 64 capture sources");
	}
	fa_snapshot_free(s);
}

static void
pcap_unsupported(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	uint8_t f[28];
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 101);	/* LINKTYPE_RAW */
	arp_body(f, 1);
	pcap_rec(&w, f, sizeof(f));
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	assert_int_equal(s->nobs, 0);
	assert_string_equal(why, "link type RAW (101) is not supported: "
	    "fabaudit reads Ethernet, LINUX_SLL and LINUX_SLL2");
	free(why);
	fa_snapshot_free(s);
}

/* The path and descriptor entries, and the parent's check. */
static void
file_entries(void **state)
{
	char path[] = "/tmp/ftest_eth_pcapngXXXXXX";
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	char *why = NULL;
	int fd;

	(void)state;
	simple_ng(&w);
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, w.b, w.n), (ssize_t)w.n);
	close(fd);
	assert_int_equal(fa_eth_pcap_check(path, &why), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_eth_read_pcap(path, 0, s, &why), 0);
	assert_int_equal(s->nobs, 1);
	assert_non_null(strstr(s->obs[0].target, " (interface 0: eth0)"));
	fa_snapshot_free(s);

	assert_non_null(s = fa_snapshot_new());
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	assert_int_equal(fa_eth_read_pcap_fd(fd, "named", 0, s, &why), 0);
	(void)obs(s, "named (interface 0: eth0)");
	fa_snapshot_free(s);

	assert_true((fd = open(path, O_WRONLY | O_TRUNC)) >= 0);
	assert_int_equal(write(fd, "hello", 5), 5);
	close(fd);
	assert_int_equal(fa_eth_pcap_check(path, &why), FA_ERR_INPUT);
	why_has(why, "not a pcap or pcapng capture");
	free(why);
	why = NULL;
	unlink(path);
	assert_int_equal(fa_eth_pcap_check("/dev/null", &why), FA_ERR_INPUT);
	why_has(why, "not a regular file");
	free(why);
}

/* A LINUX_SLL interface in pcapng ("-i any" by dumpcap). */
static void
ng_sll_interface(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 113, 0, "any");
	n = sll_arp(f, 0, 1, 1);		/* to us */
	epb(&w, 0, f, n, n, -1);
	epb(&w, 0, f, n, n, 2);			/* epb_flags: outbound */
	n = sll_arp(f, 0, 0xfffe, 2);		/* ARPHRD_NONE: a tun */
	epb(&w, 0, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 1);
	o = obs(s, "t (interface 0: any)");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(num(o, "frames"), 3);
	assert_int_equal(skipped(o, "sent by this host"), 1);
	assert_int_equal(skipped(o, "not Ethernet (ARPHRD 65534)"), 1);
	assert_true(json_is_true(json_object_get(o->data,
	    "mixed_interfaces")));
	assert_string_equal(str(o, "linktype"), "LINUX_SLL");
	assert_string_equal(str(o, "interface"), "any");
	has_arp(o);
	fa_snapshot_free(s);
}

/* An SLL2 frame too short for its header: the interface's own source. */
static void
ng_sll2_short_header(void **state)
{
	struct bld w = { .be = 1 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 276, 0, NULL);
	n = sll2_arp(f, 7, 0, 1);
	epb(&w, 0, f, n, n, -1);
	epb(&w, 0, f, 10, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 2);
	o = obs(s, "t (interface 0, ifindex 7)");
	assert_int_equal(num(o, "frames"), 1);
	assert_int_equal(num(o, "ifindex"), 7);
	has_arp(o);
	o = obs(s, "t (interface 0)");
	assert_int_equal(num(o, "frames"), 1);
	assert_int_equal(skipped(o, "shorter than its LINUX_SLL2 header"), 1);
	fa_snapshot_free(s);
}

/*
 * Drop counts: per-packet counts (epb_dropcount, the Packet Block's) add
 * up; the ISB's are cumulative (4.6), ifdrop + osdrop; the larger stands.
 * An ISB saying 0 drops leaves the source complete, with the note.
 */
static void
ng_drop_counts(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 1, 0, "a");
	idb(&w, 1, 0, "b");
	idb(&w, 1, 0, "c");
	n = eth_arp(f, 1);
	epb_drops(&w, 0, f, n, 2);
	pb(&w, 0, 3, f, n);
	pb(&w, 0, 0xffff, f, n);	/* drops not known */
	isb_opt(&w, 0, 7, 4);		/* isb_osdrop 4 < 2 + 3 */
	epb(&w, 1, f, n, n, -1);
	isb(&w, 1, 0);
	isb_opt(&w, 1, 7, 0);
	pb(&w, 2, 0, f, n);
	isb(&w, 2, 6);
	isb_opt(&w, 2, 7, 1);		/* 6 + 1 */
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 3);
	o = obs(s, "t (interface 0: a)");
	assert_int_equal(num(o, "frames"), 3);
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_string_equal(o->reason,
	    "the capturing interface dropped 5 frames");
	assert_int_equal(num(o, "interface_drops"), 5);
	o = obs(s, "t (interface 1: b)");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(num(o, "interface_drops"), 0);
	o = obs(s, "t (interface 2: c)");
	assert_int_equal(num(o, "frames"), 1);
	assert_string_equal(o->reason,
	    "the capturing interface dropped 7 frames");
	fa_snapshot_free(s);
}

/* An option that runs past its block stops the reading there. */
static void
ng_option_overrun(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n, at;
	char *why, want[96];

	(void)state;
	simple_ng(&w);
	n = eth_arp(f, 3);
	at = w.n;
	epb(&w, 0, f, n, n, 1);
	w.b[at + 28 + 60 + 2] = 200;	/* epb_flags claims 200 bytes */
	epb(&w, 0, f, n, n, -1);	/* not read */
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	assert_int_equal(num(o, "frames"), 2);
	snprintf(want, sizeof(want), "option 2 of the block at byte %zu "
	    "claims 200 bytes, past the end of its block", at);
	assert_string_equal(o->reason, want);
	fa_snapshot_free(s);
}

/*
 * Blocks not needed (Name Resolution 4, Decryption Secrets 0x0A, a
 * custom one) are skipped by their length; a section of a version not
 * read (major 2) is reported and its blocks skipped up to the next SHB.
 */
static void
ng_other_blocks(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n, at;
	char *why, want[128];

	(void)state;
	simple_ng(&w);
	blk(&w, 4, 8);
	blk(&w, 0x0A, 20);
	blk(&w, 0x40000BAD, 0);
	at = w.n;
	shb_v(&w, 2, 0);
	idb(&w, 1, 0, "ignored");
	blk(&w, 6, 3);			/* too short for an EPB: not read */
	w.be = 1;
	shb(&w);
	idb(&w, 1, 0, "x");
	n = eth_arp(f, 4);
	epb(&w, 0, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 2);
	o = obs(s, "t (interface 0: eth0)");
	assert_int_equal(num(o, "frames"), 2);
	assert_int_equal(o->state, FA_OBS_INCOMPLETE);
	snprintf(want, sizeof(want), "the section at byte %zu is pcapng "
	    "version 2.0, which is not read: its blocks were skipped", at);
	assert_string_equal(o->reason, want);
	o = obs(s, "t (interface 1: x)");
	assert_int_equal(num(o, "frames"), 1);
	fa_snapshot_free(s);

	/* Nothing but a section of that version: nothing to read. */
	w.n = 0;
	w.be = 0;
	shb_v(&w, 2, 0);
	idb(&w, 1, 0, NULL);
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	assert_int_equal(s->nobs, 0);
	why_has(why, "pcapng version 2.0, which is not read");
	free(why);
	fa_snapshot_free(s);
}

/* --max-frames counts over the whole file: every source says so. */
static void
ng_max_frames_all_sources(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n, it = 0;
	char *why;

	(void)state;
	shb(&w);
	idb(&w, 1, 0, NULL);
	idb(&w, 1, 0, NULL);
	n = eth_arp(f, 1);
	epb(&w, 0, f, n, n, -1);
	epb(&w, 1, f, n, n, -1);
	epb(&w, 0, f, n, n, -1);
	assert_int_equal(read_mem(&w, 2, &s, &why), 0);
	assert_int_equal(s->nobs, 2);
	while ((o = fa_snapshot_next(s, FA_KIND_ETH_CAPTURE, &it)) != NULL) {
		assert_int_equal(num(o, "frames"), 1);
		assert_int_equal(o->state, FA_OBS_INCOMPLETE);
		assert_string_equal(o->reason, "read stopped at --max-frames "
		    "2: the rest of the file was not read");
	}
	fa_snapshot_free(s);
}

/* More interfaces than sources kept: the others' frames are counted. */
static void
ng_too_many_interfaces(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	uint8_t f[64];
	size_t n, it = 0;
	unsigned i;
	char *why;

	(void)state;
	shb(&w);
	for (i = 0; i < FA_ETH_PCAP_SOURCES_MAX + 1; i++)
		idb(&w, 1, 0, NULL);
	n = eth_arp(f, 1);
	epb(&w, 0, f, n, n, -1);
	epb(&w, FA_ETH_PCAP_SOURCES_MAX, f, n, n, -1);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, FA_ETH_PCAP_SOURCES_MAX);
	while ((o = fa_snapshot_next(s, FA_KIND_ETH_CAPTURE, &it)) != NULL) {
		assert_int_equal(o->state, FA_OBS_INCOMPLETE);
		assert_string_equal(o->reason, "more than 64 capture sources "
		    "(interfaces) in the file: 1 frames of the others were "
		    "not read");
	}
	assert_int_equal(num(obs(s, "t (interface 0)"), "frames"), 1);
	fa_snapshot_free(s);
}

/* Raw IP as old files number it: DLT_RAW 12, or 14 (OpenBSD). */
static void
pcap_raw_old_numbers(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 12);
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	assert_string_equal(why, "link type RAW (12) is not supported: "
	    "fabaudit reads Ethernet, LINUX_SLL and LINUX_SLL2");
	free(why);
	fa_snapshot_free(s);
	w.n = 0;
	w.be = 1;
	pcap_hdr(&w, 0xa1b2c3d4, 14);
	assert_int_equal(read_mem(&w, 0, &s, &why), FA_ERR_INPUT);
	why_has(why, "link type RAW (14) is not supported");
	free(why);
	fa_snapshot_free(s);
}

/* An SLL2 capture of no frame is still one source, the file's. */
static void
pcap_sll2_empty(void **state)
{
	struct bld w = { .be = 0 };
	struct fa_snapshot *s;
	const struct fa_obs *o;
	char *why;

	(void)state;
	pcap_hdr(&w, 0xa1b2c3d4, 276);
	assert_int_equal(read_mem(&w, 0, &s, &why), 0);
	assert_int_equal(s->nobs, 1);
	o = obs(s, "t");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(num(o, "frames"), 0);
	assert_string_equal(str(o, "linktype"), "LINUX_SLL2");
	fa_snapshot_free(s);
}

/* The parent's check: each magic, and files too short to hold one. */
static void
check_magics(void **state)
{
	static const uint8_t good[][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },
		{ 0x0a, 0x0d, 0x0d, 0x0a },
	};
	char path[] = "/tmp/ftest_eth_pcapngXXXXXX";
	char *why = NULL;
	size_t i;
	int fd;

	(void)state;
	assert_true((fd = mkstemp(path)) >= 0);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(pwrite(fd, good[i], 4, 0), 4);
		assert_int_equal(fa_eth_pcap_check(path, &why), 0);
		assert_null(why);
	}
	/* Its link type is the reader's to judge, not the parent's. */
	assert_int_equal(pwrite(fd, "\xa1\xb2\xc3\xd4\0\2\0\4" "0000000000000"
	    "00\0\0\0\x65", 24, 0), 24);
	assert_int_equal(fa_eth_pcap_check(path, &why), 0);
	assert_int_equal(ftruncate(fd, 3), 0);
	assert_int_equal(fa_eth_pcap_check(path, &why), FA_ERR_INPUT);
	why_has(why, "not a capture: 3 bytes long");
	free(why);
	why = NULL;
	close(fd);
	unlink(path);
	assert_int_equal(fa_eth_pcap_check(path, &why), FA_ERR_INPUT);
	why_has(why, "No such file");
	free(why);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ng_little_endian),
		cmocka_unit_test(ng_big_endian),
		cmocka_unit_test(ng_two_sections),
		cmocka_unit_test(ng_en10mb_and_sll2),
		cmocka_unit_test(ng_unsupported_beside),
		cmocka_unit_test(ng_only_unsupported),
		cmocka_unit_test(ng_outbound_skipped),
		cmocka_unit_test(ng_isb_drops),
		cmocka_unit_test(ng_simple_packet),
		cmocka_unit_test(ng_length_mismatch),
		cmocka_unit_test(ng_cut_short),
		cmocka_unit_test(ng_huge_block),
		cmocka_unit_test(ng_first_not_shb),
		cmocka_unit_test(ng_iface_out_of_range),
		cmocka_unit_test(max_frames_stops),
		cmocka_unit_test(pcap_big_endian),
		cmocka_unit_test(pcap_nanosecond),
		cmocka_unit_test(pcap_cut_short),
		cmocka_unit_test(pcap_sll),
		cmocka_unit_test(pcap_sll2),
		cmocka_unit_test(pcap_sll2_bound),
		cmocka_unit_test(pcap_unsupported),
		cmocka_unit_test(file_entries),
		cmocka_unit_test(ng_sll_interface),
		cmocka_unit_test(ng_sll2_short_header),
		cmocka_unit_test(ng_drop_counts),
		cmocka_unit_test(ng_option_overrun),
		cmocka_unit_test(ng_other_blocks),
		cmocka_unit_test(ng_max_frames_all_sources),
		cmocka_unit_test(ng_too_many_interfaces),
		cmocka_unit_test(pcap_raw_old_numbers),
		cmocka_unit_test(pcap_sll2_empty),
		cmocka_unit_test(check_magics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
