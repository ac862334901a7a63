/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading saved captures (see eth_pcap_read.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_capture.h"
#include "eth_linktype.h"
#include "eth_pcap_read.h"
#include "eth_pcapng.h"

/* Longest if_name kept (before sanitizing), in bytes. */
#define NAME_MAX_KEPT	128

/* A capture source: one eth.capture observation. */
struct src {
	struct fa_eth_agg *a;
	size_t		 ifc;		/* its interface in rd.ifs */
	int		 has_ifindex;	/* LINUX_SLL2: split by ifindex */
	uint32_t	 ifindex;
};

/* An interface: the whole file (pcap) or one IDB (pcapng). */
struct ifc {
	unsigned	 lt;		/* link type */
	char		*name;		/* if_name, sanitized, or NULL */
	unsigned long long unread;	/* frames of an unsupported type */
	uint64_t	 isb_ifdrop;	/* the last isb_ifdrop given */
	uint64_t	 isb_osdrop;	/* the last isb_osdrop given */
	uint64_t	 pkt_drops;	/* sum of epb_dropcount, PB drops */
	int		 has_drops;
	long		 base;		/* its own source in rd.srcs, or -1 */
	size_t		 last;		/* SLL2: the last frame's source */
	int		 has_last;
};

struct rd {
	const char	*file;		/* names the sources */
	int		 ng;		/* pcapng */
	struct ifc	 ifs[FA_ETH_PCAP_SOURCES_MAX];
	size_t		 nifs;
	unsigned long long ifs_over;	/* interfaces past the bound */
	struct src	 srcs[FA_ETH_PCAP_SOURCES_MAX];
	size_t		 nsrcs;
	unsigned long long lost;	/* frames of sources past the bound */
	unsigned long long frames;	/* packet records met */
	unsigned long long max;		/* --max-frames, 0: all */
	int		 sections;	/* pcapng SHBs read */
	char		 stopped[96];	/* why reading stopped early, or "" */
	char		*damage;	/* why the file could not be read to
					 * its end, or NULL */
	char		*skipped;	/* a pcapng section not read, or NULL */
	uint8_t		*scratch;	/* pcap LINUX_SLL2: a writable copy */
	size_t		 scratchcap;
};

static void
rd_free(struct rd *rd)
{
	size_t i;

	for (i = 0; i < rd->nsrcs; i++)
		fa_eth_agg_free(rd->srcs[i].a);
	for (i = 0; i < rd->nifs; i++)
		free(rd->ifs[i].name);
	free(rd->damage);
	free(rd->skipped);
	free(rd->scratch);
	free(rd);
}

static struct rd *
rd_new(const char *file, unsigned long long max_frames)
{
	struct rd *rd = calloc(1, sizeof(*rd));

	if (rd == NULL)
		return NULL;
	rd->file = file;
	rd->max = max_frames;
	return rd;
}

/* Append to a reason being built in buf, "; " between reasons. */
static void
add_reason(char *buf, size_t size, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static void
add_reason(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n > 0 && n + 2 < size) {
		buf[n++] = ';';
		buf[n++] = ' ';
		buf[n] = '\0';
	}
	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

/* A source's name (eth_pcap_read.h); NULL on ENOMEM. */
static char *
src_name(const struct rd *rd, size_t i, int has_ifindex, uint32_t ifindex)
{
	const struct ifc *f = &rd->ifs[i];

	if (!rd->ng)
		return has_ifindex ? fa_strfmt("%s (ifindex %lu)", rd->file,
		    (unsigned long)ifindex) : fa_strdup(rd->file);
	if (has_ifindex)
		return f->name != NULL ? fa_strfmt("%s (interface %zu: %s, "
		    "ifindex %lu)", rd->file, i, f->name,
		    (unsigned long)ifindex) : fa_strfmt("%s (interface %zu, "
		    "ifindex %lu)", rd->file, i, (unsigned long)ifindex);
	return f->name != NULL ? fa_strfmt("%s (interface %zu: %s)",
	    rd->file, i, f->name) : fa_strfmt("%s (interface %zu)", rd->file,
	    i);
}

/* A new summary for interface i (and ifindex), with its notes. */
static struct fa_eth_agg *
new_agg(const struct rd *rd, size_t i, int has_ifindex, uint32_t ifindex)
{
	const struct ifc *f = &rd->ifs[i];
	struct fa_obs_build *b;
	struct fa_eth_agg *a;
	char *name;

	if ((name = src_name(rd, i, has_ifindex, ifindex)) == NULL)
		return NULL;
	a = fa_eth_agg_new(name, "file");
	free(name);
	if (a == NULL)
		return NULL;
	b = fa_eth_agg_facts(a);
	fa_put_str(b, FA_F(ETH_CAPTURE, linktype), fa_linktype_name(f->lt));
	if (f->lt == FA_LINKTYPE_LINUX_SLL)
		fa_put_bool(b, FA_F(ETH_CAPTURE, mixed_interfaces), 1);
	if (rd->ng)
		fa_put_any(b, FA_F(ETH_CAPTURE, interface), f->name != NULL ?
		    json_string(f->name) : json_integer((json_int_t)i));
	if (has_ifindex && rd->ng)
		fa_put_int(b, FA_F(ETH_CAPTURE, ifindex), ifindex);
	else if (has_ifindex)
		fa_put_any(b, FA_F(ETH_CAPTURE, interface),
		    json_integer((json_int_t)ifindex));
	if (b->failed) {
		fa_eth_agg_free(a);
		return NULL;
	}
	return a;
}

/*
 * The source of interface i (and ifindex): 0 with *k, 1 when the bound
 * on sources is reached, FA_ERR_NOMEM.
 */
static int
get_src(struct rd *rd, size_t i, int has_ifindex, uint32_t ifindex,
    size_t *k)
{
	struct ifc *f = &rd->ifs[i];
	struct src *s;
	size_t j;

	if (!has_ifindex && f->base >= 0) {
		*k = (size_t)f->base;
		return 0;
	}
	if (has_ifindex) {
		if (f->has_last && rd->srcs[f->last].ifindex == ifindex) {
			*k = f->last;
			return 0;
		}
		for (j = 0; j < rd->nsrcs; j++)
			if (rd->srcs[j].ifc == i && rd->srcs[j].has_ifindex &&
			    rd->srcs[j].ifindex == ifindex) {
				f->last = *k = j;
				f->has_last = 1;
				return 0;
			}
	}
	if (rd->nsrcs == FA_ETH_PCAP_SOURCES_MAX)
		return 1;
	s = &rd->srcs[rd->nsrcs];
	if ((s->a = new_agg(rd, i, has_ifindex, ifindex)) == NULL)
		return FA_ERR_NOMEM;
	s->ifc = i;
	s->has_ifindex = has_ifindex;
	s->ifindex = ifindex;
	*k = rd->nsrcs++;
	if (has_ifindex) {
		f->last = *k;
		f->has_last = 1;
	} else {
		f->base = (long)*k;
	}
	return 0;
}

/* A writable copy of a pcap frame (libpcap's buffer is not ours). */
static uint8_t *
writable(struct rd *rd, const uint8_t *b, size_t n)
{
	uint8_t *p;

	if (n > rd->scratchcap) {
		if ((p = realloc(rd->scratch, n)) == NULL)
			return NULL;
		rd->scratch = p;
		rd->scratchcap = n;
	}
	if (n > 0)
		memcpy(rd->scratch, b, n);
	return rd->scratch;
}

/*
 * One frame of interface i: caplen bytes of b captured of wirelen sent,
 * dir its pcapng direction.  b is writable when w is not NULL (w == b).
 * 0 or FA_ERR_NOMEM.
 */
static int
frame(struct rd *rd, size_t i, const uint8_t *b, uint8_t *w, size_t caplen,
    size_t wirelen, int dir)
{
	struct ifc *f = &rd->ifs[i];
	struct fa_sll s;
	size_t k;
	int r;

	if (!fa_linktype_supported(f->lt)) {
		f->unread++;
		return 0;
	}
	if (f->lt == FA_LINKTYPE_EN10MB) {
		if ((r = get_src(rd, i, 0, 0, &k)) != 0)
			goto nosrc;
		if (dir == FA_PCAPNG_DIR_OUT)
			return fa_eth_agg_skip(rd->srcs[k].a, "sent by this host",
			    wirelen);
		return fa_eth_agg_frame(rd->srcs[k].a, b, caplen, wirelen);
	}
	if (f->lt == FA_LINKTYPE_LINUX_SLL) {
		fa_sll_frame(b, caplen, wirelen, &s);
	} else {
		if (w == NULL && caplen >= FA_SLL2_HDR_LEN &&
		    (w = writable(rd, b, caplen)) == NULL)
			return FA_ERR_NOMEM;
		/* A frame too short for its header is not written to. */
		fa_sll2_frame(w != NULL ? w : (uint8_t *)(uintptr_t)b, caplen,
		    wirelen, &s);
	}
	if ((r = get_src(rd, i, s.has_ifindex, s.ifindex, &k)) != 0)
		goto nosrc;
	if (s.skip == NULL && dir == FA_PCAPNG_DIR_OUT)
		s.skip = "sent by this host";
	if (s.skip != NULL)
		return fa_eth_agg_skip(rd->srcs[k].a, s.skip, wirelen);
	return fa_eth_agg_l2(rd->srcs[k].a, &s.l2, wirelen);
nosrc:
	if (r == 1) {
		rd->lost++;
		return 0;
	}
	return r;
}

/* Whether to read one more frame; 0 when --max-frames stops the read. */
static int
one_more(struct rd *rd)
{
	if (rd->max > 0 && rd->frames >= rd->max) {
		/* What was not read might have been the finding. */
		snprintf(rd->stopped, sizeof(rd->stopped), "read stopped at "
		    "--max-frames %llu: the rest of the file was not read",
		    rd->max);
		return 0;
	}
	rd->frames++;
	return 1;
}

static uint64_t
sat_add(uint64_t x, uint64_t y)
{
	return x > UINT64_MAX - y ? UINT64_MAX : x + y;
}

/* Record one source (its summary a is freed). */
static int
finish_src(struct rd *rd, struct fa_eth_agg *a, size_t i,
    struct fa_snapshot *snap)
{
	const struct ifc *f = &rd->ifs[i];
	char reason[1024];
	uint64_t drops;

	reason[0] = '\0';
	if (rd->damage != NULL)
		add_reason(reason, sizeof(reason), "%s", rd->damage);
	if (rd->stopped[0] != '\0')
		add_reason(reason, sizeof(reason), "%s", rd->stopped);
	if (rd->lost > 0)
		add_reason(reason, sizeof(reason), "more than %d capture "
		    "sources (interfaces) in the file: %llu frames of the "
		    "others were not read", FA_ETH_PCAP_SOURCES_MAX, rd->lost);
	else if (rd->ifs_over > 0)
		add_reason(reason, sizeof(reason), "the file describes %llu "
		    "interfaces past the first %d: they were not read",
		    rd->ifs_over, FA_ETH_PCAP_SOURCES_MAX);
	if (rd->skipped != NULL)
		add_reason(reason, sizeof(reason), "%s", rd->skipped);
	if (f->has_drops) {
		/* ISB counters are cumulative, per-packet counts add up;
		 * both count the same losses: the larger stands. */
		drops = sat_add(f->isb_ifdrop, f->isb_osdrop);
		if (f->pkt_drops > drops)
			drops = f->pkt_drops;
		fa_put_int(fa_eth_agg_facts(a), FA_F(ETH_CAPTURE,
		    interface_drops), drops > (uint64_t)INT64_MAX ? INT64_MAX :
		    (long long)drops);
		if (drops > 0)
			add_reason(reason, sizeof(reason), "the capturing "
			    "interface dropped %llu frames",
			    (unsigned long long)drops);
	}
	return fa_eth_agg_finish(a, snap, reason[0] != '\0' ?
	    FA_OBS_INCOMPLETE : FA_OBS_COMPLETE, reason[0] != '\0' ? reason :
	    NULL, -1);
}

/* An interface of an unsupported link type: recorded not collected. */
static int
finish_unsupported(struct rd *rd, size_t i, struct fa_snapshot *snap)
{
	const struct ifc *f = &rd->ifs[i];
	struct fa_eth_agg *a;
	char reason[160];

	if ((a = new_agg(rd, i, 0, 0)) == NULL)
		return FA_ERR_NOMEM;
	snprintf(reason, sizeof(reason), "link type %s (%u) is not "
	    "supported; %llu frames not read", fa_linktype_name(f->lt), f->lt,
	    f->unread);
	return fa_eth_agg_finish(a, snap, FA_OBS_NOT_COLLECTED, reason, -1);
}

/* Record every source, interface by interface; rd is freed. */
static int
finish_all(struct rd *rd, struct fa_snapshot *snap)
{
	struct fa_eth_agg *a;
	size_t i, k;
	int r = 0, any;

	for (i = 0; i < rd->nifs && r == 0; i++) {
		if (!fa_linktype_supported(rd->ifs[i].lt)) {
			r = finish_unsupported(rd, i, snap);
			continue;
		}
		any = 0;
		for (k = 0; k < rd->nsrcs && r == 0; k++) {
			if (rd->srcs[k].ifc != i || rd->srcs[k].a == NULL)
				continue;
			a = rd->srcs[k].a;
			rd->srcs[k].a = NULL;
			r = finish_src(rd, a, i, snap);
			any = 1;
		}
		/* An LINUX_SLL2 interface without a frame is still one. */
		if (r == 0 && !any) {
			if ((a = new_agg(rd, i, 0, 0)) == NULL)
				r = FA_ERR_NOMEM;
			else
				r = finish_src(rd, a, i, snap);
		}
	}
	rd_free(rd);
	return r;
}

static const char unsupported_fmt[] = "link type %s (%u) is not supported: "
    "fabaudit reads Ethernet, LINUX_SLL and LINUX_SLL2";

/* A pcapng interface described (IDB). */
static int
add_iface(struct rd *rd, const struct fa_pcapng_rec *rec)
{
	struct ifc *f;
	size_t k, n;
	int r;

	if (rd->nifs == FA_ETH_PCAP_SOURCES_MAX) {
		rd->ifs_over++;
		return 0;
	}
	f = &rd->ifs[rd->nifs++];
	f->lt = rec->linktype;
	f->base = -1;
	if (rec->name != NULL && rec->namelen > 0 && rec->name[0] != '\0') {
		n = rec->namelen < NAME_MAX_KEPT ? rec->namelen :
		    NAME_MAX_KEPT;
		if ((f->name = fa_str_sanitize(rec->name, n)) == NULL)
			return FA_ERR_NOMEM;
	}
	/* An interface is recorded even when it sent nothing. */
	if (f->lt == FA_LINKTYPE_EN10MB || f->lt == FA_LINKTYPE_LINUX_SLL)
		if ((r = get_src(rd, rd->nifs - 1, 0, 0, &k)) < 0)
			return r;
	return 0;
}

/*
 * Why a pcapng file cannot be read at all, once read: no interface of a
 * supported link type.  0 when one is.
 */
static int
ng_unusable(struct rd *rd, char **why)
{
	size_t i;

	for (i = 0; i < rd->nifs; i++)
		if (fa_linktype_supported(rd->ifs[i].lt))
			return 0;
	if (rd->nifs == 0)
		return rd->damage != NULL ? fa_why(why, "%s, before any "
		    "interface was described", rd->damage) :
		    rd->skipped != NULL ? fa_why(why, "%s; no other section "
		    "describes an interface", rd->skipped) :
		    fa_why(why, "the capture describes no interface");
	if (rd->nifs == 1)
		return fa_why(why, unsupported_fmt,
		    fa_linktype_name(rd->ifs[0].lt), rd->ifs[0].lt);
	return fa_why(why, "none of its %zu interfaces has a link type "
	    "fabaudit reads (Ethernet, LINUX_SLL, LINUX_SLL2): interface 0 "
	    "is link type %s (%u)", rd->nifs, fa_linktype_name(rd->ifs[0].lt),
	    rd->ifs[0].lt);
}

/* A pcapng file (eth_pcapng.c), from its start. */
static int
read_ng(struct rd *rd, FILE *f, struct fa_snapshot *snap, char **why)
{
	struct fa_pcapng_rec rec;
	struct fa_pcapng *ng;
	struct ifc *fc;
	char *ewhy = NULL;
	int n = 0, r = 0;

	rd->ng = 1;
	if ((ng = fa_pcapng_new(f)) == NULL) {
		rd_free(rd);
		return FA_ERR_NOMEM;
	}
	while (r == 0 && (n = fa_pcapng_next(ng, &rec, &ewhy)) == 1) {
		switch (rec.type) {
		case FA_PCAPNG_SECTION:
			rd->sections++;
			if (rec.skipped && rd->skipped == NULL &&
			    (rd->skipped = fa_strfmt("the section at byte %llu "
			    "is pcapng version %u.%u, which is not read: its "
			    "blocks were skipped", (unsigned long long)
			    rec.offset, rec.major, rec.minor)) == NULL)
				r = FA_ERR_NOMEM;
			break;
		case FA_PCAPNG_IFACE:
			r = add_iface(rd, &rec);
			break;
		case FA_PCAPNG_PACKET:
			if (!one_more(rd)) {
				n = 0;
				goto done;
			}
			if (rec.iface >= rd->nifs) {
				rd->lost++;	/* past the bound */
				break;
			}
			fc = &rd->ifs[rec.iface];
			if (rec.has_drops) {
				fc->pkt_drops = sat_add(fc->pkt_drops,
				    rec.drops);
				fc->has_drops = 1;
			}
			/* 4.3: a reader may raise an original length below
			 * the captured one. */
			r = frame(rd, (size_t)rec.iface, rec.data, rec.data,
			    rec.caplen, rec.len < rec.caplen ? rec.caplen :
			    rec.len, rec.dir);
			break;
		case FA_PCAPNG_STATS:
			if (rec.iface >= rd->nifs ||
			    (!rec.has_ifdrop && !rec.has_osdrop))
				break;
			/* Each counter is cumulative (4.6): its last value
			 * stands, whether or not the last ISB gave it. */
			fc = &rd->ifs[rec.iface];
			fc->has_drops = 1;
			if (rec.has_ifdrop)
				fc->isb_ifdrop = rec.ifdrop;
			if (rec.has_osdrop)
				fc->isb_osdrop = rec.osdrop;
			break;
		}
	}
done:
	fa_pcapng_free(ng);
	fclose(f);
	if (r != 0 || n == FA_ERR_NOMEM) {
		free(ewhy);
		rd_free(rd);
		return r != 0 ? r : n;
	}
	if (n < 0 && rd->sections == 0) {
		/* Not even a section: the file is not a capture. */
		(void)fa_why(why, "%s", ewhy != NULL ? ewhy :
		    "not a pcapng file");
		free(ewhy);
		rd_free(rd);
		return n == FA_ERR_IO ? FA_ERR_IO : FA_ERR_INPUT;
	}
	if (n < 0) {
		rd->damage = ewhy != NULL ? ewhy : fa_strdup("the capture "
		    "file is damaged");
		ewhy = NULL;
		if (rd->damage == NULL) {
			rd_free(rd);
			return FA_ERR_NOMEM;
		}
	}
	free(ewhy);
	if ((r = ng_unusable(rd, why)) != 0) {
		rd_free(rd);
		return r;
	}
	return finish_all(rd, snap);
}

/* A classic pcap file through libpcap; hdr holds its first got bytes. */
static int
read_classic(struct rd *rd, FILE *f, const uint8_t *hdr, size_t got,
    struct fa_snapshot *snap, char **why)
{
	char eb[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *b;
	pcap_t *p;
	uint64_t at = 24;	/* the next record's offset; 0: not known */
	uint32_t lt, snaplen;
	int n, r = 0, be = hdr[0] == 0xa1;

	if (got < 24) {
		fclose(f);
		rd_free(rd);
		return fa_why(why, "a pcap file of %zu bytes, shorter than its "
		    "24-byte header", got);
	}
	/* The LinkType field, its upper bits FCS information. */
	lt = be ? (uint32_t)hdr[20] << 24 | (uint32_t)hdr[21] << 16 |
	    (uint32_t)hdr[22] << 8 | hdr[23] : (uint32_t)hdr[23] << 24 |
	    (uint32_t)hdr[22] << 16 | (uint32_t)hdr[21] << 8 | hdr[20];
	lt &= 0x03ffffff;
	if (!fa_linktype_supported(lt)) {
		fclose(f);
		rd_free(rd);
		return fa_why(why, unsupported_fmt, fa_linktype_name(lt),
		    (unsigned)lt);
	}
	rd->ifs[0].lt = lt;
	rd->ifs[0].base = -1;
	rd->nifs = 1;
	eb[0] = '\0';
	if (fseek(f, 0, SEEK_SET) != 0) {
		(void)fa_why(why, "cannot read the file from its start: %s",
		    strerror(errno));
		fclose(f);
		rd_free(rd);
		return FA_ERR_IO;
	}
	/* On success the handle owns f (pcap_close closes it). */
	if ((p = pcap_fopen_offline(f, eb)) == NULL) {
		fclose(f);
		rd_free(rd);
		return fa_why(why, "%s", eb[0] != '\0' ? eb :
		    "cannot be read as a capture");
	}
	snaplen = pcap_snapshot(p) > 0 ? (uint32_t)pcap_snapshot(p) : 0;
	/* The file's one source, even without a frame. */
	if (lt != FA_LINKTYPE_LINUX_SLL2 && (r = get_src(rd, 0, 0, 0,
	    &(size_t){ 0 })) < 0) {
		pcap_close(p);
		rd_free(rd);
		return r;
	}
	while ((n = pcap_next_ex(p, &h, &b)) == 1) {
		if (!one_more(rd))
			break;
		/* The next record's offset: 16 bytes of header and the
		 * frame, unless libpcap cut a record longer than the file's
		 * SnapLen (it then reads past what h->caplen says). */
		if (at > 0 && h->caplen < snaplen)
			at += 16 + (uint64_t)h->caplen;
		else
			at = 0;
		if ((r = frame(rd, 0, b, NULL, h->caplen, h->len,
		    FA_PCAPNG_DIR_UNKNOWN)) != 0) {
			pcap_close(p);
			rd_free(rd);
			return r;
		}
	}
	if (n == PCAP_ERROR && (rd->damage = at > 0 ? fa_strfmt("the capture "
	    "file is cut short or damaged after frame %llu, in the record at "
	    "byte %llu: %s", rd->frames, (unsigned long long)at,
	    pcap_geterr(p)) : fa_strfmt("the capture file is cut short or "
	    "damaged after frame %llu: %s", rd->frames,
	    pcap_geterr(p))) == NULL) {
		pcap_close(p);
		rd_free(rd);
		return FA_ERR_NOMEM;
	}
	pcap_close(p);
	return finish_all(rd, snap);
}

int
fa_eth_read_pcap_stream(FILE *f, const char *source,
    unsigned long long max_frames, struct fa_snapshot *snap, char **why)
{
	uint8_t hdr[24];
	struct rd *rd;
	size_t got;

	if ((rd = rd_new(source, max_frames)) == NULL) {
		fclose(f);
		return FA_ERR_NOMEM;
	}
	got = fread(hdr, 1, sizeof(hdr), f);
	if (got < sizeof(hdr) && ferror(f)) {
		(void)fa_why(why, "%s", strerror(errno != 0 ? errno : EIO));
		fclose(f);
		rd_free(rd);
		return FA_ERR_IO;
	}
	if (got >= 4 && memcmp(hdr, "\x0a\x0d\x0d\x0a", 4) == 0) {
		if (fseek(f, 0, SEEK_SET) != 0) {
			(void)fa_why(why, "cannot read the file from its "
			    "start: %s", strerror(errno));
			fclose(f);
			rd_free(rd);
			return FA_ERR_IO;
		}
		return read_ng(rd, f, snap, why);
	}
	if (got >= 4 && (memcmp(hdr, "\xa1\xb2\xc3\xd4", 4) == 0 ||
	    memcmp(hdr, "\xd4\xc3\xb2\xa1", 4) == 0 ||
	    memcmp(hdr, "\xa1\xb2\x3c\x4d", 4) == 0 ||
	    memcmp(hdr, "\x4d\x3c\xb2\xa1", 4) == 0))
		return read_classic(rd, f, hdr, got, snap, why);
	fclose(f);
	rd_free(rd);
	if (got < 4)
		return fa_why(why, "not a capture: %zu bytes long", got);
	return fa_why(why, "not a pcap or pcapng capture (it starts with "
	    "%02x %02x %02x %02x)", hdr[0], hdr[1], hdr[2], hdr[3]);
}

int
fa_eth_read_pcap_fd(int fd, const char *name, unsigned long long max_frames,
    struct fa_snapshot *snap, char **why)
{
	FILE *f;

	if ((f = fdopen(fd, "rb")) == NULL) {
		(void)fa_why(why, "%s", strerror(errno));
		close(fd);
		return FA_ERR_IO;
	}
	/* Larger reads than stdio's default for a file of millions of
	 * small blocks; before any I/O, as setvbuf(3) requires. */
	(void)setvbuf(f, NULL, _IOFBF, 1 << 16);
	return fa_eth_read_pcap_stream(f, name, max_frames, snap, why);
}

/*
 * path opened for reading if it is a regular file: fd; or, with *why,
 * FA_ERR_IO if open(2) or fstat(2) fails, FA_ERR_INPUT if path is not a
 * regular file.  (The callers report either as FA_ERR_INPUT: the path was
 * the user's.)
 */
static int
open_regular(const char *path, char **why)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) < 0) {
		(void)fa_why(why, "%s", strerror(errno));
		return FA_ERR_IO;
	}
	if (fstat(fd, &st) != 0) {
		(void)fa_why(why, "%s", strerror(errno));
		close(fd);
		return FA_ERR_IO;
	}
	if (!S_ISREG(st.st_mode)) {
		(void)fa_why(why, "not a regular file");
		close(fd);
		return FA_ERR_INPUT;
	}
	return fd;
}

int
fa_eth_read_pcap(const char *path, unsigned long long max_frames,
    struct fa_snapshot *snap, char **why)
{
	int fd;

	if ((fd = open_regular(path, why)) < 0)
		return FA_ERR_INPUT;
	return fa_eth_read_pcap_fd(fd, path, max_frames, snap, why);
}

int
fa_eth_pcap_check(const char *path, char **why)
{
	static const uint8_t magics[][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },
		{ 0x0a, 0x0d, 0x0d, 0x0a },
	};
	uint8_t m[4];
	size_t got = 0, i;
	ssize_t n = 0;
	int fd;

	if ((fd = open_regular(path, why)) < 0)
		return FA_ERR_INPUT;
	while (got < sizeof(m) && ((n = read(fd, m + got, sizeof(m) - got)) >
	    0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	if (got < sizeof(m) && n < 0) {
		(void)fa_why(why, "%s", strerror(errno));
		close(fd);
		return FA_ERR_INPUT;
	}
	close(fd);
	if (got < sizeof(m))
		return fa_why(why, "not a capture: %zu bytes long", got);
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (memcmp(m, magics[i], sizeof(m)) == 0)
			return 0;
	return fa_why(why, "not a pcap or pcapng capture (it starts with "
	    "%02x %02x %02x %02x)", m[0], m[1], m[2], m[3]);
}
