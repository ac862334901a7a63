/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Go build information read from ELF files (see host_gobuild.h): the ELF
 * walk and the blob parser.  Everything read is untrusted: each offset,
 * size, count and address is checked against the file before it is used,
 * and strings are bounded by FA_GOBUILD_STR_MAX.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_gobuild.h"

#define GB_MAGIC	"\xff Go buildinf:"
#define GB_MAGIC_LEN	14
#define GB_HDR		32	/* header and the two old-format pointers */
#define GB_ALIGN	16
#define SCAN_CHUNK	(64u * 1024)
#define SECT_NAME	".go.buildinfo"
#define PT_LOAD_	1
#define PF_X_		1
#define PF_W_		2
#define SHT_NOBITS_	8

static const unsigned char sent_start[16] = {
	0x30, 0x77, 0xaf, 0x0c, 0x92, 0x74, 0x08, 0x02,
	0x41, 0xe1, 0xc1, 0x07, 0xe6, 0xd6, 0x18, 0xe6
};
static const unsigned char sent_end[16] = {
	0xf9, 0x32, 0x43, 0x31, 0x86, 0x18, 0x20, 0x72,
	0x00, 0x82, 0x42, 0x10, 0x41, 0x16, 0xd8, 0xf2
};

/* Where bytes come from: a buffer, or a file read with pread(2). */
struct src {
	const unsigned char *buf;
	int		 fd;
	uint64_t	 size;
};

/* The ELF header fields the walk uses. */
struct elf {
	const struct src *src;
	int		 is64, be;
	uint64_t	 phoff, shoff;
	unsigned	 phentsize, phnum, shentsize, shnum, shstrndx;
};

/* Read n bytes at off, all inside the source, or fail. */
static int
src_read(const struct src *s, uint64_t off, void *out, size_t n,
    char **why)
{
	size_t got = 0;
	ssize_t r;

	if (n > s->size || off > s->size - n)
		return fa_why(why, "%zu bytes at offset %llu: past the end "
		    "(%llu bytes)", n, (unsigned long long)off,
		    (unsigned long long)s->size);
	if (s->buf != NULL) {
		memcpy(out, s->buf + off, n);
		return 0;
	}
	while (got < n) {
		r = pread(s->fd, (char *)out + got, n - got,
		    (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return FA_ERR_IO;
		if (r == 0)
			return fa_why(why, "the file shrank while read");
		got += (size_t)r;
	}
	return 0;
}

/* An unsigned integer of n (1, 2, 4 or 8) bytes. */
static uint64_t
get(const unsigned char *p, unsigned n, int be)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

static int
elf_header(const struct src *s, struct elf *e, char **why)
{
	unsigned char h[64], *q;
	int r;

	memset(e, 0, sizeof(*e));
	e->src = s;
	if (s->size < 52)
		return fa_why(why, "not an ELF file");
	if ((r = src_read(s, 0, h, 52, why)) != 0)
		return r;
	if (memcmp(h, "\x7f" "ELF", 4) != 0)
		return fa_why(why, "not an ELF file");
	if ((h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2))
		return fa_why(why, "ELF class %u or data encoding %u unknown",
		    h[4], h[5]);
	e->is64 = h[4] == 2;
	e->be = h[5] == 2;
	if (e->is64) {
		if ((r = src_read(s, 0, h, 64, why)) != 0)
			return r;
		e->phoff = get(h + 32, 8, e->be);
		e->shoff = get(h + 40, 8, e->be);
	} else {
		e->phoff = get(h + 28, 4, e->be);
		e->shoff = get(h + 32, 4, e->be);
	}
	q = h + (e->is64 ? 54 : 42);	/* e_phentsize */
	e->phentsize = (unsigned)get(q, 2, e->be);
	e->phnum = (unsigned)get(q + 2, 2, e->be);
	e->shentsize = (unsigned)get(q + 4, 2, e->be);
	e->shnum = (unsigned)get(q + 6, 2, e->be);
	e->shstrndx = (unsigned)get(q + 8, 2, e->be);
	return 0;
}

struct shdr {
	uint32_t	 name, type, link;
	uint64_t	 addr, off, size, entsize;
};

static int
elf_shdr(const struct elf *e, unsigned i, struct shdr *sh, char **why)
{
	unsigned char b[64];
	unsigned need = e->is64 ? 64 : 40, w = e->is64 ? 8 : 4;
	int r;

	if (e->shentsize < need || e->shoff == 0)
		return fa_why(why, "section header size %u", e->shentsize);
	if ((uint64_t)i * e->shentsize > UINT64_MAX - e->shoff)
		return fa_why(why, "section header offset overflows");
	if ((r = src_read(e->src, e->shoff + (uint64_t)i * e->shentsize, b,
	    need, why)) != 0)
		return r;
	sh->name = (uint32_t)get(b, 4, e->be);
	sh->type = (uint32_t)get(b + 4, 4, e->be);
	sh->addr = get(b + 8 + w, w, e->be);
	sh->off = get(b + 8 + 2 * w, w, e->be);
	sh->size = get(b + 8 + 3 * w, w, e->be);
	sh->link = (uint32_t)get(b + 8 + 4 * w, 4, e->be);
	sh->entsize = get(b + 16 + 5 * w, w, e->be);
	return 0;
}

/* Whether section sh is named .go.buildinfo (names from strtab st). */
static int
is_buildinfo(const struct elf *e, const struct shdr *st,
    const struct shdr *sh)
{
	char name[sizeof(SECT_NAME)];

	if (sh->name >= st->size || st->size - sh->name < sizeof(name))
		return 0;
	if (st->off > UINT64_MAX - sh->name ||
	    src_read(e->src, st->off + sh->name, name, sizeof(name), NULL))
		return 0;
	return memcmp(name, SECT_NAME, sizeof(name)) == 0;
}

/* The .go.buildinfo section: 0, FA_ERR_NOTFOUND, or a read error. */
static int
find_section(const struct elf *e, uint64_t *off, uint64_t *end)
{
	struct shdr st, sh;
	unsigned i;

	if (e->shoff == 0 || e->shnum == 0 || e->shstrndx >= e->shnum)
		return FA_ERR_NOTFOUND;
	if (elf_shdr(e, e->shstrndx, &st, NULL) != 0 ||
	    st.type == SHT_NOBITS_)
		return FA_ERR_NOTFOUND;
	for (i = 1; i < e->shnum; i++) {
		if (elf_shdr(e, i, &sh, NULL) != 0)
			return FA_ERR_NOTFOUND;
		if (sh.type == SHT_NOBITS_ || !is_buildinfo(e, &st, &sh))
			continue;
		if (sh.size > e->src->size || sh.off > e->src->size - sh.size)
			return FA_ERR_NOTFOUND;
		*off = sh.off;
		*end = sh.off + sh.size;
		return 0;
	}
	return FA_ERR_NOTFOUND;
}

struct phdr {
	uint32_t	 type, flags;
	uint64_t	 off, vaddr, filesz;
};

static int
elf_phdr(const struct elf *e, unsigned i, struct phdr *ph, char **why)
{
	unsigned char b[56];
	unsigned need = e->is64 ? 56 : 32;
	int r;

	if (e->phentsize < need || e->phoff == 0)
		return fa_why(why, "program header size %u", e->phentsize);
	if ((uint64_t)i * e->phentsize > UINT64_MAX - e->phoff)
		return fa_why(why, "program header offset overflows");
	if ((r = src_read(e->src, e->phoff + (uint64_t)i * e->phentsize, b,
	    need, why)) != 0)
		return r;
	ph->type = (uint32_t)get(b, 4, e->be);
	if (e->is64) {
		ph->flags = (uint32_t)get(b + 4, 4, e->be);
		ph->off = get(b + 8, 8, e->be);
		ph->vaddr = get(b + 16, 8, e->be);
		ph->filesz = get(b + 32, 8, e->be);
	} else {
		ph->off = get(b + 4, 4, e->be);
		ph->vaddr = get(b + 8, 4, e->be);
		ph->filesz = get(b + 16, 4, e->be);
		ph->flags = (uint32_t)get(b + 24, 4, e->be);
	}
	/* A segment is only used within the file. */
	if (ph->off > e->src->size)
		ph->filesz = 0;
	else if (ph->filesz > e->src->size - ph->off)
		ph->filesz = e->src->size - ph->off;
	return 0;
}

/* The file offset of virtual address a, n bytes inside one PT_LOAD. */
static int
vaddr_off(const struct elf *e, uint64_t a, uint64_t n, uint64_t *off,
    char **why)
{
	struct phdr ph;
	unsigned i;
	int r;

	for (i = 0; i < e->phnum; i++) {
		if ((r = elf_phdr(e, i, &ph, why)) != 0)
			return r;
		if (ph.type != PT_LOAD_ || a < ph.vaddr ||
		    a - ph.vaddr > ph.filesz || n > ph.filesz - (a - ph.vaddr))
			continue;
		*off = ph.off + (a - ph.vaddr);
		return 0;
	}
	return fa_why(why, "address 0x%llx (%llu bytes) is in no loaded "
	    "segment", (unsigned long long)a, (unsigned long long)n);
}

/* The first header aligned to 16 (in memory) in one segment. */
static int
scan_segment(const struct elf *e, const struct phdr *ph, uint64_t *off)
{
	unsigned char *chunk;
	uint64_t pos, n, i;

	if ((chunk = malloc(SCAN_CHUNK)) == NULL)
		return FA_ERR_NOMEM;
	/* pos: offset in the segment of the first 16-aligned address. */
	pos = (GB_ALIGN - ph->vaddr % GB_ALIGN) % GB_ALIGN;
	for (; pos < ph->filesz && ph->filesz - pos >= GB_ALIGN; pos += n) {
		n = ph->filesz - pos < SCAN_CHUNK ? ph->filesz - pos :
		    SCAN_CHUNK;
		if (src_read(e->src, ph->off + pos, chunk, n, NULL) != 0)
			break;
		for (i = 0; i + GB_ALIGN <= n; i += GB_ALIGN)
			if (memcmp(chunk + i, GB_MAGIC, GB_MAGIC_LEN) == 0) {
				*off = ph->off + pos + i;
				free(chunk);
				return 0;
			}
	}
	free(chunk);
	return FA_ERR_NOTFOUND;
}

/* Section headers stripped: scan the writable, not executable PT_LOADs. */
static int
find_by_scan(const struct elf *e, uint64_t *off, uint64_t *end)
{
	struct phdr ph;
	unsigned i;
	int r;

	for (i = 0; i < e->phnum; i++) {
		if (elf_phdr(e, i, &ph, NULL) != 0)
			return FA_ERR_NOTFOUND;
		if (ph.type != PT_LOAD_ ||
		    (ph.flags & (PF_X_ | PF_W_)) != PF_W_)
			continue;
		r = scan_segment(e, &ph, off);
		if (r == 0)
			*end = ph.off + ph.filesz;
		if (r != FA_ERR_NOTFOUND)
			return r;
	}
	return FA_ERR_NOTFOUND;
}

/* A uvarint at *p (before end): FA_ERR_INPUT past 64 bits or the end. */
static int
uvarint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end) {
		unsigned char b = *(*p)++;

		if (shift == 63 && b > 1)
			return FA_ERR_INPUT;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return 0;
		if ((shift += 7) > 63)
			return FA_ERR_INPUT;
	}
	return FA_ERR_INPUT;
}

/* One length-prefixed string, copied NUL-terminated. */
static int
inline_str(const unsigned char **p, const unsigned char *end, char **out,
    size_t *outlen, const char *what, char **why)
{
	uint64_t n;

	if (uvarint(p, end, &n) != 0)
		return fa_why(why, "%s: bad or truncated length", what);
	if (n > FA_GOBUILD_STR_MAX)
		return fa_why(why, "%s: length %llu over the limit", what,
		    (unsigned long long)n);
	if (n > (uint64_t)(end - *p))
		return fa_why(why, "%s: length %llu past the end", what,
		    (unsigned long long)n);
	if ((*out = malloc(n + 1)) == NULL)
		return FA_ERR_NOMEM;
	memcpy(*out, *p, n);
	(*out)[n] = '\0';
	*outlen = (size_t)n;
	*p += n;
	return 0;
}

static char *
dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d != NULL) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* The i-th (from 0) tab-separated field of line (n bytes), or NULL. */
static const char *
field(const char *line, size_t n, unsigned i, size_t *flen)
{
	const char *p = line, *end = line + n, *t;

	for (;;) {
		t = memchr(p, '\t', (size_t)(end - p));
		if (i == 0) {
			*flen = (size_t)((t != NULL ? t : end) - p);
			return p;
		}
		if (t == NULL)
			return NULL;
		p = t + 1;
		i--;
	}
}

/* Append the UTF-8 encoding of rune c (at most 0x10ffff) at *q. */
static void
put_utf8(char **q, uint32_t c)
{
	unsigned char *o = (unsigned char *)*q;

	if (c < 0x80) {
		*o++ = (unsigned char)c;
	} else if (c < 0x800) {
		*o++ = (unsigned char)(0xc0 | c >> 6);
		*o++ = (unsigned char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*o++ = (unsigned char)(0xe0 | c >> 12);
		*o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		*o++ = (unsigned char)(0x80 | (c & 0x3f));
	} else {
		*o++ = (unsigned char)(0xf0 | c >> 18);
		*o++ = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
		*o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		*o++ = (unsigned char)(0x80 | (c & 0x3f));
	}
	*q = (char *)o;
}

/* The value of hex digit c, or -1 if c is not one. */
static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;	/* not an error: not a hex digit */
}

/* n hex digits at p as a number, or FA_ERR_INPUT. */
static long
hexnum(const char *p, const char *end, unsigned n)
{
	long v = 0;
	unsigned i;

	if ((size_t)(end - p) < n)
		return FA_ERR_INPUT;
	for (i = 0; i < n; i++) {
		if (hexval((unsigned char)p[i]) < 0)
			return FA_ERR_INPUT;
		v = v * 16 + hexval((unsigned char)p[i]);
	}
	return v;
}

/*
 * One escape after '\' at *p: append it at *q.  0, or FA_ERR_INPUT if
 * malformed.
 */
static int
unescape(const char **p, const char *end, char **q)
{
	static const char from[] = "abfnrtv\\\"'", to[] = "\a\b\f\n\r\t\v\\\"'";
	const char *c;
	long v;
	unsigned n;

	if (*p >= end)
		return FA_ERR_INPUT;
	if (**p != '\0' && (c = strchr(from, **p)) != NULL) {
		*(*q)++ = to[c - from];
		(*p)++;
		return 0;
	}
	n = **p == 'x' ? 2 : **p == 'u' ? 4 : **p == 'U' ? 8 : 0;
	if (n != 0) {
		if ((v = hexnum(*p + 1, end, n)) < 0 || v > 0x10ffff)
			return FA_ERR_INPUT;
		if (n == 2)
			*(*q)++ = (char)v;
		else
			put_utf8(q, (uint32_t)v);
		*p += n + 1;
		return 0;
	}
	if (end - *p < 3 || (*p)[0] < '0' || (*p)[0] > '3' || (*p)[1] < '0' ||
	    (*p)[1] > '7' || (*p)[2] < '0' || (*p)[2] > '7')
		return FA_ERR_INPUT;
	*(*q)++ = (char)(((*p)[0] - '0') * 64 + ((*p)[1] - '0') * 8 +
	    (*p)[2] - '0');
	*p += 3;
	return 0;
}

/*
 * A build setting's value: Go-quoted (strconv.Quote) when it starts with
 * '"', else as is.  NULL (with *bad set) when the quoting is malformed.
 */
static char *
setting_value(const char *s, size_t n, int *bad)
{
	const char *p = s + 1, *end = s + n;
	char *out, *q;

	*bad = 0;
	if (n == 0 || s[0] != '"')
		return dupn(s, n);
	/* An escape is never shorter than what it stands for. */
	if (n < 2 || s[n - 1] != '"' || (out = malloc(n)) == NULL) {
		*bad = n < 2 || s[n - 1] != '"';
		return NULL;
	}
	for (q = out, end--; p < end; ) {
		if (*p == '"')
			break;
		if (*p != '\\') {
			*q++ = *p++;
			continue;
		}
		p++;
		if (unescape(&p, end, &q) != 0) {
			*bad = 1;
			break;
		}
	}
	if (*bad || p < end) {
		free(out);
		*bad = 1;
		return NULL;
	}
	*q = '\0';
	return out;
}

/* Keep the fields of one module information line that the rules use. */
#define BUILDKIT	"github.com/moby/buildkit"

static int
modinfo_line(struct fa_gobuild *gb, const char *l, size_t n, char **why)
{
	const char *f;
	size_t fl = 0, kl;
	int bad, keep;

	if (n > 5 && memcmp(l, "path\t", 5) == 0 && gb->main_package == NULL)
		return (gb->main_package = dupn(l + 5, n - 5)) == NULL ?
		    FA_ERR_NOMEM : 0;
	/* "dep\tPATH\tVERSION\tSUM", then "=>\tPATH\tVERSION\tSUM" when
	 * go.mod replaced it (runtime/debug.BuildInfo's text form): the
	 * BuildKit that dockerd vendors is such a dependency. */
	if (n > 4 && (memcmp(l, "dep\t", 4) == 0 || (memcmp(l, "=>\t", 3) ==
	    0 && gb->buildkit_next))) {
		keep = memcmp(l, "dep\t", 4) == 0;
		gb->buildkit_next = 0;
		if ((f = field(l, n, 1, &fl)) == NULL ||
		    (keep && (fl != sizeof(BUILDKIT) - 1 ||
		    memcmp(f, BUILDKIT, fl) != 0)))
			return 0;
		gb->buildkit_next = keep;
		free(gb->buildkit);
		gb->buildkit = NULL;
		if ((f = field(l, n, 2, &fl)) != NULL &&
		    (gb->buildkit = dupn(f, fl)) == NULL)
			return FA_ERR_NOMEM;
		return 0;
	}
	gb->buildkit_next = 0;
	if (n > 4 && memcmp(l, "mod\t", 4) == 0 && gb->mod_path == NULL) {
		if ((f = field(l, n, 1, &fl)) == NULL)
			return 0;
		if ((gb->mod_path = dupn(f, fl)) == NULL)
			return FA_ERR_NOMEM;
		if ((f = field(l, n, 2, &fl)) != NULL &&
		    (gb->mod_version = dupn(f, fl)) == NULL)
			return FA_ERR_NOMEM;
		return 0;
	}
	kl = sizeof("build\t-ldflags=") - 1;
	if (n < kl || memcmp(l, "build\t-ldflags=", kl) != 0)
		return 0;
	free(gb->ldflags);
	if ((gb->ldflags = setting_value(l + kl, n - kl, &bad)) != NULL)
		return 0;
	return bad ? fa_why(why, "build -ldflags: malformed quoting") :
	    FA_ERR_NOMEM;
}

/* Strip the sentinels and pick out the lines the rules use. */
static int
modinfo(struct fa_gobuild *gb, size_t n, char **why)
{
	char *m = gb->modinfo, *nl;
	int r;

	if (n == 0)
		return 0;
	if (n < 2 * 16 || memcmp(m, sent_start, 16) != 0 ||
	    memcmp(m + n - 16, sent_end, 16) != 0)
		return fa_why(why, "module information lacks its sentinels");
	memmove(m, m + 16, n - 32);
	m[n - 32] = '\0';
	if (strlen(m) != n - 32)
		return fa_why(why, "module information holds a NUL byte");
	for (; *m != '\0'; m = nl + 1) {
		if ((nl = strchr(m, '\n')) == NULL)
			nl = m + strlen(m);
		if ((r = modinfo_line(gb, m, (size_t)(nl - m), why)) != 0)
			return r;
		if (*nl == '\0')
			break;
	}
	return 0;
}

/* Printable ASCII, not empty, at most 64 bytes ("go1.19.8"). */
static int
go_version_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return 1;
}

/*
 * Check both strings.  The end sentinel holds a NUL byte, so the module
 * information is measured by its length, not by strlen.
 */
static int
finish(struct fa_gobuild *gb, size_t modlen, char **why)
{
	if (!go_version_ok(gb->go_version))
		return fa_why(why, "Go version is not printable");
	return modinfo(gb, modlen, why);
}

static int
parse_inline(const unsigned char *p, const unsigned char *end,
    struct fa_gobuild *gb, char **why)
{
	size_t vl, ml;
	int r;

	if ((r = inline_str(&p, end, &gb->go_version, &vl, "Go version",
	    why)) != 0)
		return r;
	if (strlen(gb->go_version) != vl)
		return fa_why(why, "Go version holds a NUL byte");
	if ((r = inline_str(&p, end, &gb->modinfo, &ml,
	    "module information", why)) != 0)
		return r;
	return finish(gb, ml, why);
}

/* A Go string {data, len} whose header is at address a. */
static int
go_string(const struct elf *e, unsigned ps, uint64_t a, char **out,
    size_t *outlen, char **why)
{
	unsigned char h[16];
	uint64_t off, data, len;
	int r;

	if ((r = vaddr_off(e, a, 2 * ps, &off, why)) != 0 ||
	    (r = src_read(e->src, off, h, 2 * ps, why)) != 0)
		return r;
	data = get(h, ps, e->be);
	len = get(h + ps, ps, e->be);
	if (len > FA_GOBUILD_STR_MAX)
		return fa_why(why, "string of %llu bytes over the limit",
		    (unsigned long long)len);
	if ((r = vaddr_off(e, data, len, &off, why)) != 0)
		return r;
	if ((*out = malloc(len + 1)) == NULL)
		return FA_ERR_NOMEM;
	if ((r = src_read(e->src, off, *out, len, why)) != 0)
		return r;
	(*out)[len] = '\0';
	*outlen = len;
	return 0;
}

/*
 * The version variables, whose values the symbol tables can give when
 * the build information does not (a -trimpath build drops -ldflags).
 */
const char *const fa_gobuild_symvars[FA_GOBUILD_NSYM] = {
	"main.version",
	"github.com/containerd/containerd/version.Version",
	"github.com/containerd/containerd/v2/version.Version",
	"github.com/docker/docker/dockerversion.Version",
};

#define SHT_SYMTAB_	2
#define SHT_DYNSYM_	11
#define STT_OBJECT_	1
#define SYM_NAME_MAX	64	/* longer than every name above */
#define SYMS_MAX	(8u * 1024 * 1024)	/* symbols looked at */

struct sym {
	uint32_t	 name;
	unsigned	 type;
	uint64_t	 value, size;
};

static void
sym_decode(const struct elf *e, const unsigned char *b, struct sym *y)
{
	y->name = (uint32_t)get(b, 4, e->be);
	if (e->is64) {
		y->type = b[4] & 0xf;
		y->value = get(b + 8, 8, e->be);
		y->size = get(b + 16, 8, e->be);
	} else {
		y->value = get(b + 4, 4, e->be);
		y->size = get(b + 8, 4, e->be);
		y->type = b[12] & 0xf;
	}
}

/*
 * Which version variable symbol y names (index), or -1 if none: a name
 * outside the string table, or unreadable, names none (the caller skips
 * the symbol).
 */
static int
sym_which(const struct elf *e, const struct shdr *str, const struct sym *y)
{
	char name[SYM_NAME_MAX];
	uint64_t n;
	size_t i, l;

	if (y->name >= str->size)
		return -1;	/* not an error: no name, so none */
	n = str->size - y->name < sizeof(name) ? str->size - y->name :
	    sizeof(name);
	if (str->off > UINT64_MAX - y->name ||
	    src_read(e->src, str->off + y->name, name, n, NULL) != 0)
		return -1;	/* not an error: name unreadable, so none */
	for (i = 0; i < FA_GOBUILD_NSYM; i++) {
		l = strlen(fa_gobuild_symvars[i]) + 1;
		if (l <= n && memcmp(name, fa_gobuild_symvars[i], l) == 0)
			return (int)i;
	}
	return -1;	/* not an error: not a version variable */
}

/* The string variable at y: a printable value, or nothing. */
static int
sym_value(const struct elf *e, unsigned ps, const struct sym *y,
    char **out)
{
	char *v = NULL;
	size_t n = 0, i;
	int r;

	r = go_string(e, ps, y->value, &v, &n, NULL);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0 || n == 0 || n > FA_VERSION_MAX) {
		free(v);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (v[i] < 0x21 || v[i] > 0x7e) {
			free(v);
			return 0;
		}
	free(*out);
	*out = v;
	return 0;
}

/* Look at the symbols of one table, a chunk of entries at a time. */
static int
sym_table(const struct elf *e, const struct shdr *t, const struct shdr *str,
    struct fa_gobuild *gb, size_t *seen)
{
	unsigned char *chunk;
	unsigned es = e->is64 ? 24 : 16;
	uint64_t i, n = t->size / es, k, m;
	struct sym y;
	int w, r = 0;

	if (t->entsize != es || (chunk = malloc(SCAN_CHUNK)) == NULL)
		return t->entsize != es ? 0 : FA_ERR_NOMEM;
	for (i = 0; i < n && *seen < SYMS_MAX && r == 0; i += m) {
		m = n - i < SCAN_CHUNK / es ? n - i : SCAN_CHUNK / es;
		if (t->off > UINT64_MAX - i * es ||
		    src_read(e->src, t->off + i * es, chunk, m * es, NULL))
			break;
		for (k = 0; k < m && r == 0; k++, (*seen)++) {
			sym_decode(e, chunk + k * es, &y);
			if (y.type != STT_OBJECT_ ||
			    y.size != 2 * gb->ptr_size ||
			    (w = sym_which(e, str, &y)) < 0)
				continue;
			r = sym_value(e, gb->ptr_size, &y, &gb->symval[w]);
		}
	}
	free(chunk);
	return r;
}

/*
 * The values of the version variables, from .symtab or .dynsym when the
 * file has them (stripped Go programs often keep a .dynsym).  Anything
 * unreadable is skipped: this only adds evidence.  0 or FA_ERR_NOMEM.
 */
static int
symbols(const struct elf *e, struct fa_gobuild *gb)
{
	struct shdr t, str;
	size_t seen = 0;
	unsigned i;
	int r;

	for (i = 1; i < e->shnum && e->shoff != 0; i++) {
		if (elf_shdr(e, i, &t, NULL) != 0)
			return 0;
		if ((t.type != SHT_SYMTAB_ && t.type != SHT_DYNSYM_) ||
		    t.link == 0 || t.link >= e->shnum ||
		    elf_shdr(e, t.link, &str, NULL) != 0 ||
		    str.type == SHT_NOBITS_)
			continue;
		if ((r = sym_table(e, &t, &str, gb, &seen)) != 0)
			return r;
	}
	return 0;
}

/* Go 1.13-1.17: pointers to the strings, resolved through PT_LOAD. */
static int
parse_pointers(const struct elf *e, const unsigned char *h,
    struct fa_gobuild *gb, char **why)
{
	unsigned ps = gb->ptr_size;
	size_t vl, ml;
	int r, be = (h[15] & 1) != 0;

	if (e == NULL)
		return FA_ERR_UNAVAIL;
	if ((r = go_string(e, ps, get(h + 16, ps, be), &gb->go_version, &vl,
	    why)) != 0 || (r = go_string(e, ps, get(h + 16 + ps, ps, be),
	    &gb->modinfo, &ml, why)) != 0)
		return r;
	if (strlen(gb->go_version) != vl)
		return fa_why(why, "Go version holds a NUL byte");
	return finish(gb, ml, why);
}

/* The blob at off, which the section or segment ends at end. */
static int
parse_at(const struct src *s, const struct elf *e, uint64_t off,
    uint64_t end, struct fa_gobuild *gb, char **why)
{
	unsigned char h[GB_HDR], *w;
	uint64_t n;
	int r;

	if (end > s->size || off > end || end - off < GB_HDR)
		return fa_why(why, "build information header truncated");
	if ((r = src_read(s, off, h, GB_HDR, why)) != 0)
		return r;
	if (memcmp(h, GB_MAGIC, GB_MAGIC_LEN) != 0)
		return fa_why(why, "no build information header");
	gb->ptr_size = h[14];
	if (gb->ptr_size != 4 && gb->ptr_size != 8)
		return fa_why(why, "pointer size %u", h[14]);
	if ((h[15] & 2) == 0) {
		gb->inline_strings = 0;
		return parse_pointers(e, h, gb, why);
	}
	gb->inline_strings = 1;
	n = end - off - GB_HDR;
	if (n > 2 * (uint64_t)FA_GOBUILD_STR_MAX + 20)
		n = 2 * (uint64_t)FA_GOBUILD_STR_MAX + 20;
	if ((w = malloc(n + 1)) == NULL)
		return FA_ERR_NOMEM;
	if ((r = src_read(s, off + GB_HDR, w, n, why)) == 0)
		r = parse_inline(w, w + n, gb, why);
	free(w);
	return r;
}

void
fa_gobuild_free(struct fa_gobuild *gb)
{
	size_t i;

	if (gb == NULL)
		return;
	free(gb->go_version);
	free(gb->modinfo);
	free(gb->main_package);
	free(gb->mod_path);
	free(gb->mod_version);
	free(gb->ldflags);
	free(gb->buildkit);
	for (i = 0; i < FA_GOBUILD_NSYM; i++)
		free(gb->symval[i]);
	memset(gb, 0, sizeof(*gb));
}

/* Parse, and on failure leave *gb empty. */
static int
parse_or_free(const struct src *s, const struct elf *e, uint64_t off,
    uint64_t end, struct fa_gobuild *gb, char **why)
{
	int r;

	memset(gb, 0, sizeof(*gb));
	if ((r = parse_at(s, e, off, end, gb, why)) != 0)
		fa_gobuild_free(gb);
	return r;
}

int
fa_gobuild_parse_blob(const void *blob, size_t len, struct fa_gobuild *gb,
    char **why)
{
	struct src s = { blob, -1, len };
	int r;

	if (len < GB_MAGIC_LEN || memcmp(blob, GB_MAGIC, GB_MAGIC_LEN) != 0) {
		memset(gb, 0, sizeof(*gb));
		fa_why(why, "no build information header");
		return FA_ERR_NOTFOUND;
	}
	r = parse_or_free(&s, NULL, 0, len, gb, why);
	if (r == FA_ERR_UNAVAIL)
		fa_why(why, "pre-Go 1.18 build information (pointers) needs "
		    "the whole ELF file");
	else if (r == 0)
		gb->found_by = "buffer";
	return r;
}

static int
read_src(const struct src *s, struct fa_gobuild *gb, char **why)
{
	struct elf e;
	uint64_t off, end;
	int r;

	memset(gb, 0, sizeof(*gb));
	if ((r = elf_header(s, &e, why)) != 0)
		return r;
	if ((r = find_section(&e, &off, &end)) == 0) {
		if ((r = parse_or_free(s, &e, off, end, gb, why)) == 0) {
			gb->found_by = "section " SECT_NAME;
			r = symbols(&e, gb);
		}
		return r;
	}
	if ((r = find_by_scan(&e, &off, &end)) == 0) {
		if ((r = parse_or_free(s, &e, off, end, gb, why)) == 0) {
			gb->found_by = "PT_LOAD scan";
			r = symbols(&e, gb);
		}
		return r;
	}
	if (r != FA_ERR_NOTFOUND)
		return r;
	fa_why(why, "no Go build information (not a Go program, or built "
	    "before Go 1.13)");
	return FA_ERR_NOTFOUND;
}

int
fa_gobuild_read_elf(const void *buf, size_t len, struct fa_gobuild *gb,
    char **why)
{
	struct src s = { buf, -1, len };

	return read_src(&s, gb, why);
}

int
fa_gobuild_read_fd(int fd, struct fa_gobuild *gb, char **why)
{
	struct src s = { NULL, fd, 0 };
	struct stat st;

	memset(gb, 0, sizeof(*gb));
	if (fstat(fd, &st) != 0)
		return FA_ERR_IO;
	if (!S_ISREG(st.st_mode))
		return fa_why(why, "not a regular file");
	if ((uint64_t)st.st_size > FA_GOBUILD_FILE_MAX) {
		fa_why(why, "larger than %u MiB", FA_GOBUILD_FILE_MAX >> 20);
		return FA_ERR_TOOBIG;
	}
	s.size = (uint64_t)st.st_size;
	return read_src(&s, gb, why);
}

/* The next flag field of ldflags at *p (quoted.Split): [*f, *f + *n). */
static int
next_field(const char **p, const char **f, size_t *n)
{
	const char *s = *p, *q;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s == '\0')
		return 0;
	if (*s == '\'' || *s == '"') {
		if ((q = strchr(s + 1, *s)) == NULL)
			return 0;	/* unterminated: go refuses it */
		*f = s + 1;
		*n = (size_t)(q - s - 1);
		*p = q + 1;
		return 1;
	}
	*f = s;
	*n = strcspn(s, " \t\n\r");
	*p = s + *n;
	return 1;
}

int
fa_gobuild_ldflag_x(const char *ldflags, const char *name, char *out,
    size_t len)
{
	const char *p = ldflags, *f, *val = NULL;
	size_t n, nl = strlen(name), vl = 0;
	int want = 0;

	while (next_field(&p, &f, &n)) {
		if (!want && ((n == 2 && memcmp(f, "-X", 2) == 0) ||
		    (n == 3 && memcmp(f, "--X", 3) == 0))) {
			want = 1;
			continue;
		}
		if (!want && n > 3 && memcmp(f, "-X=", 3) == 0) {
			f += 3, n -= 3;
			want = 1;
		} else if (!want && n > 4 && memcmp(f, "--X=", 4) == 0) {
			f += 4, n -= 4;
			want = 1;
		}
		if (want && n > nl && memcmp(f, name, nl) == 0 &&
		    f[nl] == '=') {
			val = f + nl + 1;
			vl = n - nl - 1;
		}
		want = 0;
	}
	if (val == NULL)
		return FA_ERR_NOTFOUND;
	if (vl >= len)
		return FA_ERR_TOOBIG;
	memcpy(out, val, vl);
	out[vl] = '\0';
	return 0;
}

/* One way to a component's version. */
struct rule {
	const char	*name;		/* "ldflags main.version" */
	const char	*xvar;		/* -X variable, or NULL */
	const char	*module;	/* main module path, or NULL */
	const char	*sym;		/* symbol of a version variable */
};

#define RULES_MAX	6
struct component {
	const char	*name;
	struct rule	 rules[RULES_MAX];
};

#define XVAR(rule, var)	{ .name = (rule), .xvar = (var) }
#define MODULE(path)	{ .name = "module version", .module = (path) }
#define SYM(rule, var)	{ .name = (rule), .sym = (var) }
#define CTRD		"github.com/containerd/containerd"
#define DOCKERV		"github.com/docker/docker/dockerversion.Version"

static const struct component components[] = {
	{ .name = "runc", .rules = {
		MODULE("github.com/opencontainers/runc"),
		XVAR("ldflags main.version", "main.version"),
		SYM("symbol main.version", "main.version"),
	} },
	{ .name = "containerd", .rules = {
		XVAR("ldflags version.Version", CTRD "/version.Version"),
		XVAR("ldflags version.Version", CTRD "/v2/version.Version"),
		MODULE(CTRD),
		MODULE(CTRD "/v2"),
		SYM("symbol version.Version", CTRD "/version.Version"),
		SYM("symbol version.Version", CTRD "/v2/version.Version"),
	} },
	{ .name = "dockerd", .rules = {
		XVAR("ldflags dockerversion.Version", DOCKERV),
		MODULE("github.com/docker/docker"),
		MODULE("github.com/moby/moby"),
		SYM("symbol dockerversion.Version", DOCKERV),
	} },
	{ .name = "buildkitd", .rules = {
		XVAR("ldflags version.Version", BUILDKIT "/version.Version"),
		MODULE(BUILDKIT),
	} },
};

/* Apply one rule: 1 when it gave a version into v->version. */
static int
apply(const struct fa_gobuild *gb, const struct rule *ru,
    struct fa_gobuild_ver *v)
{
	size_t i;

	for (i = 0; ru->sym != NULL && i < FA_GOBUILD_NSYM; i++)
		if (strcmp(ru->sym, fa_gobuild_symvars[i]) == 0 &&
		    gb->symval[i] != NULL &&
		    strlen(gb->symval[i]) < sizeof(v->version)) {
			memcpy(v->version, gb->symval[i],
			    strlen(gb->symval[i]) + 1);
			return 1;
		}
	if (ru->sym != NULL)
		return 0;
	if (ru->xvar != NULL)
		return gb->ldflags != NULL && fa_gobuild_ldflag_x(gb->ldflags,
		    ru->xvar, v->version, sizeof(v->version)) == 0 &&
		    v->version[0] != '\0';
	if (gb->mod_path == NULL || gb->mod_version == NULL ||
	    strcmp(gb->mod_path, ru->module) != 0 ||
	    strcmp(gb->mod_version, "(devel)") == 0 ||
	    gb->mod_version[0] == '\0' ||
	    strlen(gb->mod_version) >= sizeof(v->version))
		return 0;
	memcpy(v->version, gb->mod_version, strlen(gb->mod_version) + 1);
	return 1;
}

/* The upstream form: leading "v" dropped, checked by the catalogue. */
static void
upstream(struct fa_gobuild_ver *v)
{
	const char *s = v->version;

	if (s[0] == 'v')
		s++;
	v->upstream[0] = '\0';
	v->upstream_error = NULL;
	if (fa_version_valid(FA_VER_UPSTREAM, s, &v->upstream_error) == 0)
		memcpy(v->upstream, s, strlen(s) + 1);
	else if (v->upstream_error == NULL)
		v->upstream_error = "not an upstream version";
}

/* Say why no rule gave a version (the strings quoted, sanitised). */
static int
no_rule(const struct fa_gobuild *gb, char **why)
{
	char *m = NULL, *mv = NULL;

	if (gb->mod_path != NULL &&
	    ((m = fa_str_sanitize(gb->mod_path, 200)) == NULL ||
	    (mv = fa_str_sanitize(gb->mod_version != NULL ?
	    gb->mod_version : "", 64)) == NULL)) {
		free(m);
		return FA_ERR_NOMEM;
	}
	fa_why(why, "no version in the build information: %s%s%s%s%s, %s",
	    m != NULL ? "main module \"" : "no main module (GOPATH build)",
	    m != NULL ? m : "", m != NULL ? " " : "",
	    m != NULL ? mv : "", m != NULL ? "\"" : "", gb->ldflags != NULL ?
	    "no -X version variable in -ldflags" :
	    "no -ldflags recorded (-trimpath builds omit them), no version "
	    "variable in a symbol table");
	free(m);
	free(mv);
	if (why != NULL && *why == NULL)
		return FA_ERR_NOMEM;
	return FA_ERR_NOTFOUND;
}

int
fa_gobuild_version(const struct fa_gobuild *gb, const char *component,
    struct fa_gobuild_ver *v, char **why)
{
	const struct component *c = NULL;
	size_t i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < sizeof(components) / sizeof(components[0]); i++)
		if (strcmp(components[i].name, component) == 0)
			c = &components[i];
	if (c == NULL)
		return fa_why(why, "unknown component \"%s\"", component);
	for (i = 0; i < RULES_MAX && c->rules[i].name != NULL; i++) {
		if (!apply(gb, &c->rules[i], v))
			continue;
		v->rule = c->rules[i].name;
		upstream(v);
		return 0;
	}
	memset(v, 0, sizeof(*v));
	return no_rule(gb, why);
	return FA_ERR_NOTFOUND;
}

/*
 * The usual install paths: Debian/Ubuntu packages (usr/bin, usr/sbin;
 * Debian's runc is in usr/sbin with a usr/bin link), Docker's and
 * containerd.io's packages (usr/bin), and the upstream release tarballs
 * and static binaries (usr/local/bin, usr/local/sbin).
 */
const struct fa_gobuild_path fa_gobuild_paths[] = {
	{ "/usr/bin/runc", "runc" },
	{ "/usr/sbin/runc", "runc" },
	{ "/usr/local/bin/runc", "runc" },
	{ "/usr/local/sbin/runc", "runc" },
	{ "/usr/bin/containerd", "containerd" },
	{ "/usr/local/bin/containerd", "containerd" },
	{ "/usr/bin/dockerd", "dockerd" },
	{ "/usr/sbin/dockerd", "dockerd" },
	{ "/usr/local/bin/dockerd", "dockerd" },
	{ "/usr/bin/buildkitd", "buildkitd" },
	{ "/usr/local/bin/buildkitd", "buildkitd" },
	{ NULL, NULL }
};

#define NPATHS	(sizeof(fa_gobuild_paths) / sizeof(fa_gobuild_paths[0]))
#define REQUEST	"read the Go build information of the ELF file"

/* A path of fa_gobuild_paths as stat'ed, a symbolic link followed. */
struct entry {
	const struct fa_gobuild_path *p;
	int		 link;		/* a symbolic link */
	int		 r;		/* the stat's outcome */
	char		 why[128];	/* its reason, when not 0 */
	struct stat	 st;
	int		 alias;		/* named in an earlier one's aliases */
};

/*
 * Open the regular file at path for reading, inside the sysroot (the
 * openat2 rules of host_fs.c); st is its stat, checked again on the
 * descriptor so that a swap between the two is refused.
 */
static int
open_in_root(const struct fa_sysroot *root, const char *path,
    const struct stat *st, int *fd)
{
	struct open_how how;
	struct stat fst;
	long r;

	while (*path == '/')
		path++;
	memset(&how, 0, sizeof(how));
	how.flags = O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	if ((r = syscall(SYS_openat2, root->fd, path, &how, sizeof(how))) < 0)
		return FA_ERR_IO;
	if (fstat((int)r, &fst) != 0 || fst.st_dev != st->st_dev ||
	    fst.st_ino != st->st_ino || !S_ISREG(fst.st_mode)) {
		close((int)r);
		errno = ESTALE;
		return FA_ERR_IO;
	}
	*fd = (int)r;
	return 0;
}

/* Put a sanitised copy of s as f, or null.  0, or FA_ERR_NOMEM. */
static int
put_clean(struct fa_obs_build *b, const struct fa_fld_STR *f, const char *s)
{
	char *c = NULL;

	if (s != NULL && (c = fa_str_sanitize(s, strlen(s))) == NULL)
		return FA_ERR_NOMEM;
	fa_put_str(b, f, c);
	free(c);
	return 0;
}

/* The data of a file with build information. */
static int
binary_data(struct fa_obs_build *b, const char *path, const char *component,
    const struct fa_gobuild *gb, const struct fa_gobuild_ver *v)
{
	int ok = v->rule != NULL;

	if (put_clean(b, FA_F(HOST_BINARY, path), path) ||
	    put_clean(b, FA_F(HOST_BINARY, component), component) ||
	    put_clean(b, FA_F(HOST_BINARY, version), ok ? v->version : NULL) ||
	    put_clean(b, FA_F(HOST_BINARY, upstream), ok &&
	    v->upstream[0] != '\0' ? v->upstream : NULL) ||
	    (ok && v->upstream[0] == '\0' && put_clean(b,
	    FA_F(HOST_BINARY, upstream_error), v->upstream_error)) ||
	    put_clean(b, FA_F(HOST_BINARY, rule), v->rule) ||
	    put_clean(b, FA_F(HOST_BINARY, go_version), gb->go_version) ||
	    put_clean(b, FA_F(HOST_BINARY, main_package), gb->main_package) ||
	    put_clean(b, FA_F(HOST_BINARY, main_module), gb->mod_path) ||
	    put_clean(b, FA_F(HOST_BINARY, module_version),
	    gb->mod_version) ||
	    put_clean(b, FA_F(HOST_BINARY, found_by), gb->found_by) ||
	    (gb->buildkit != NULL && put_clean(b,
	    FA_F(HOST_BINARY, buildkit_module), gb->buildkit)))
		return FA_ERR_NOMEM;
	return 0;
}

/* Record the data built in b, with aliases (stolen; NULL: none). */
static int
add_obs(struct fa_snapshot *snap, const char *path, enum fa_obs_state st,
    const char *reason, struct fa_obs_build *b, json_t *aliases)
{
	json_t *data;

	if (aliases != NULL)
		fa_put_arr(b, FA_F(HOST_BINARY, aliases), aliases);
	if ((data = fa_obs_built(b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_BINARY,
	    path, REQUEST, st, reason, data, NULL);
}

/* An observation without build information: "PATH: why". */
static int
add_why(struct fa_snapshot *snap, const char *path, const char *component,
    enum fa_obs_state st, const char *why, json_t *aliases)
{
	struct fa_obs_build b;
	char *reason = fa_strfmt("%s: %s", path, why);
	int r;

	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_BINARY, path), path);
	fa_put_str(&b, FA_F(HOST_BINARY, component), component);
	if (reason == NULL) {
		json_decref(aliases);
		json_decref(fa_obs_built(&b));
		return FA_ERR_NOMEM;
	}
	r = add_obs(snap, path, st, reason, &b, aliases);
	free(reason);
	return r;
}

/* Record the file open on fd, with aliases (stolen; NULL: none). */
static int
collect_fd(struct fa_snapshot *snap, const struct fa_gobuild_path *p,
    int fd, json_t *aliases)
{
	struct fa_gobuild gb;
	struct fa_gobuild_ver v;
	struct fa_obs_build b;
	char *why = NULL;
	int r, rb;

	r = fa_gobuild_read_fd(fd, &gb, &why);
	if (r == FA_ERR_NOMEM) {
		json_decref(aliases);
		return r;
	}
	if (r != 0) {
		r = add_why(snap, p->path, p->component, r == FA_ERR_NOTFOUND ||
		    (r == FA_ERR_INPUT && why != NULL &&
		    strcmp(why, "not an ELF file") == 0) ?
		    FA_OBS_NOT_COLLECTED : FA_OBS_ERROR, why != NULL ? why :
		    r == FA_ERR_IO ? strerror(errno) : fa_strerror(r), aliases);
		free(why);
		return r;
	}
	r = fa_gobuild_version(&gb, p->component, &v, &why);
	fa_obs_build(&b);
	rb = r == FA_ERR_NOMEM ? r : binary_data(&b, p->path, p->component,
	    &gb, &v);
	fa_gobuild_free(&gb);
	if (rb != 0) {
		json_decref(aliases);
		json_decref(fa_obs_built(&b));
		free(why);
		return FA_ERR_NOMEM;
	}
	r = add_obs(snap, p->path, r == 0 ? FA_OBS_COMPLETE :
	    FA_OBS_INCOMPLETE, r == 0 ? NULL : why, &b, aliases);
	free(why);
	return r;
}

/*
 * The paths of the entries after e[i] that are the same file, as a JSON
 * array in *out (NULL: none), each marked an alias so that it gets no
 * observation of its own.  0 or FA_ERR_NOMEM.
 */
static int
aliases_of(struct entry **e, size_t n, size_t i, json_t **out)
{
	json_t *a = NULL;
	size_t k;

	*out = NULL;
	for (k = i + 1; k < n; k++) {
		if (e[k]->alias || e[k]->r != 0 ||
		    !S_ISREG(e[k]->st.st_mode) ||
		    e[k]->st.st_dev != e[i]->st.st_dev ||
		    e[k]->st.st_ino != e[i]->st.st_ino)
			continue;
		if ((a == NULL && (a = json_array()) == NULL) ||
		    json_array_append_new(a, json_string(e[k]->p->path)) != 0) {
			json_decref(a);
			return FA_ERR_NOMEM;
		}
		e[k]->alias = 1;
	}
	*out = a;
	return 0;
}

/* The observation of e[i], which no earlier one names as an alias. */
static int
collect_one(const struct fa_sysroot *root, struct fa_snapshot *snap,
    struct entry **e, size_t n, size_t i)
{
	const struct fa_gobuild_path *p = e[i]->p;
	json_t *aliases;
	int fd, r;

	if (e[i]->r != 0)
		return add_why(snap, p->path, p->component, FA_OBS_ERROR,
		    e[i]->why, NULL);
	if (!S_ISREG(e[i]->st.st_mode))
		return add_why(snap, p->path, p->component,
		    FA_OBS_NOT_COLLECTED, "not a regular file", NULL);
	if (open_in_root(root, p->path, &e[i]->st, &fd) != 0)
		return add_why(snap, p->path, p->component, FA_OBS_ERROR,
		    strerror(errno), NULL);
	/* Opened: the file is recorded here, and the later paths of the
	 * same file are its aliases. */
	if ((r = aliases_of(e, n, i, &aliases)) == 0)
		r = collect_fd(snap, p, fd, aliases);
	close(fd);
	return r;
}

/* Stat p into en, with the reason of a failure (the sysroot's message
 * holds only until its next call). */
static void
stat_entry(const struct fa_sysroot *root, const struct fa_gobuild_path *p,
    struct entry *en)
{
	memset(en, 0, sizeof(*en));
	en->p = p;
	en->r = fa_sysroot_stat(root, p->path, 0, &en->st);
	en->link = en->r == 0 && S_ISLNK(en->st.st_mode);
	if (en->link)
		en->r = fa_sysroot_stat(root, p->path, 1, &en->st);
	if (en->r != 0)
		snprintf(en->why, sizeof(en->why), "%s",
		    fa_sysroot_strerror(en->r));
}

/*
 * Every path is stat'ed first, once; the paths that are not symbolic
 * links (and those that could not be stat'ed) are recorded before the
 * links, so that a file's observation names it where it is and,
 * complete before it is added, lists the other paths of the same file (a
 * link to it, a hard link) as its aliases.  An absent path, or a link to
 * nothing, gives no observation.
 */
int
fa_host_collect_gobuild(const struct fa_sysroot *root,
    struct fa_snapshot *snap)
{
	struct entry ent[NPATHS], *e[NPATHS];
	size_t i, n = 0;
	int pass, r;

	for (i = 0; fa_gobuild_paths[i].path != NULL; i++)
		stat_entry(root, &fa_gobuild_paths[i], &ent[i]);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; fa_gobuild_paths[i].path != NULL; i++)
			if (ent[i].link == pass &&
			    ent[i].r != FA_ERR_NOTFOUND)
				e[n++] = &ent[i];
	for (i = 0; i < n; i++)
		if (!e[i]->alias && (r = collect_one(root, snap, e, n, i)) != 0)
			return r;
	return 0;
}
