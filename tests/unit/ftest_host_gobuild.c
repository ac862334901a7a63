/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for Go build information read from ELF files
 * (fabric/host_gobuild.c): hand-made blobs and ELF images (Go 1.18+
 * inline strings, the older pointer format, section headers stripped)
 * and hostile ones (truncated header, uvarint overflow, lengths past the
 * end, missing sentinels, bad quoting), the version rules, collection
 * through a scratch sysroot, and the real binaries of this machine when
 * present.  With paths as arguments it runs no test and prints, per path,
 * "component version rule go_version" (or "component - reason"), for
 * tests/host/test_gobuild.sh to compare with the programs' own output.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_gobuild.h"
#include "scratch_tree.h"

#define MAGIC	"\xff Go buildinf:"
#define S_START	"\x30\x77\xaf\x0c\x92\x74\x08\x02" \
		"\x41\xe1\xc1\x07\xe6\xd6\x18\xe6"
/* The end sentinel holds a NUL byte. */
#define S_END	"\xf9\x32\x43\x31\x86\x18\x20\x72" \
		"\x00\x82\x42\x10\x41\x16\xd8\xf2"

/* A Go 1.18+ blob: header, then the two uvarint-prefixed strings. */
static size_t
blob(unsigned char *b, const char *gover, const char *mod, size_t modlen)
{
	size_t n = 32, gl = strlen(gover);

	memset(b, 0, 32);
	memcpy(b, MAGIC, 14);
	b[14] = 8;
	b[15] = 2;
	b[n++] = (unsigned char)gl;
	memcpy(b + n, gover, gl);
	n += gl;
	if (modlen >= 128)
		b[n++] = (unsigned char)(0x80 | (modlen & 0x7f));
	b[n++] = (unsigned char)(modlen >= 128 ? modlen >> 7 : modlen);
	memcpy(b + n, mod, modlen);
	return n + modlen;
}

/* Module information between the sentinels, into m; its length. */
static size_t
modinfo(char *m, const char *lines)
{
	size_t n = strlen(lines);

	memcpy(m, S_START, 16);
	memcpy(m + 16, lines, n);
	memcpy(m + 16 + n, S_END, 16);
	return n + 32;
}

static void
put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

#define SEG_OFF		0x100
#define SEG_VADDR	0x10100

/*
 * A little-endian ELF64 image: one writable PT_LOAD holding data at
 * SEG_OFF, and, with sections, the headers of .go.buildinfo (the data)
 * and .shstrtab.  Returns the image size.
 */
static size_t
elf(unsigned char *img, const unsigned char *data, size_t len, int sections)
{
	static const char strtab[] = "\0.go.buildinfo\0.shstrtab";
	size_t str = SEG_OFF + len, sh = (str + sizeof(strtab) + 7) & ~7u;
	unsigned char *s;

	memset(img, 0, sh + 3 * 64);
	memcpy(img, "\x7f" "ELF\x02\x01\x01", 7);
	put64(img + 32, 64);			/* e_phoff */
	img[54] = 56, img[56] = 1;		/* e_phentsize, e_phnum */
	s = img + 64;
	s[0] = 1, s[4] = 6;			/* PT_LOAD, R|W */
	put64(s + 8, SEG_OFF);
	put64(s + 16, SEG_VADDR);
	put64(s + 32, len);
	put64(s + 40, len);
	memcpy(img + SEG_OFF, data, len);
	memcpy(img + str, strtab, sizeof(strtab));
	if (!sections)
		return sh;
	put64(img + 40, sh);			/* e_shoff */
	img[58] = 64, img[60] = 3, img[62] = 2;
	s = img + sh + 64;			/* .go.buildinfo */
	s[0] = 1, s[4] = 1;
	put64(s + 24, SEG_OFF);
	put64(s + 32, len);
	s += 64;				/* .shstrtab */
	s[0] = 15, s[4] = 3;
	put64(s + 24, str);
	put64(s + 32, sizeof(strtab));
	return sh + 3 * 64;
}

/*
 * The same image with a .dynsym (section 3) and its .dynstr (4) that
 * name one 16-byte OBJECT symbol at address value.
 */
static size_t
elf_sym(unsigned char *img, const unsigned char *data, size_t len,
    const char *name, uint64_t value)
{
	size_t il = elf(img, data, len, 1), str = il, nl = strlen(name) + 2;
	size_t sym = (str + nl + 7) & ~7u, sh = (sym + 48 + 7) & ~7u;
	unsigned char *s;

	img[str] = 0;
	memcpy(img + str + 1, name, nl - 1);
	memset(img + sym, 0, 48);
	s = img + sym + 24;
	s[0] = 1, s[4] = 0x11;			/* name 1, GLOBAL OBJECT */
	put64(s + 8, value);
	put64(s + 16, 16);
	memmove(img + sh, img + il - 192, 192);
	memset(img + sh + 192, 0, 128);
	put64(img + 40, sh);
	img[60] = 5;
	s = img + sh + 192;			/* .dynsym */
	s[4] = 11, s[40] = 4;
	put64(s + 24, sym);
	put64(s + 32, 48);
	put64(s + 56, 24);
	s += 64;				/* .dynstr */
	s[4] = 3;
	put64(s + 24, str);
	put64(s + 32, nl);
	return sh + 320;
}

static const char lines[] = "path\tgithub.com/opencontainers/runc\n"
    "mod\tgithub.com/opencontainers/runc\tv1.1.12\t\n"
    "dep\tgithub.com/x/y\tv0.1.0\th1:abc=\n"
    "build\t-compiler=gc\n"
    "build\t-ldflags=\"-X main.version=1.1.12 -X \\\"main.gitCommit="
    "51d5e946\\\"\"\n";

static void
inline_format(void **state)
{
	unsigned char b[1024];
	char m[512], *why = NULL;
	struct fa_gobuild gb;
	struct fa_gobuild_ver v;
	size_t n;

	(void)state;
	n = blob(b, "go1.21.6", m, modinfo(m, lines));
	assert_int_equal(fa_gobuild_parse_blob(b, n, &gb, &why), 0);
	assert_string_equal(gb.go_version, "go1.21.6");
	assert_string_equal(gb.main_package, "github.com/opencontainers/runc");
	assert_string_equal(gb.mod_path, "github.com/opencontainers/runc");
	assert_string_equal(gb.mod_version, "v1.1.12");
	assert_string_equal(gb.ldflags,
	    "-X main.version=1.1.12 -X \"main.gitCommit=51d5e946\"");
	assert_int_equal(fa_gobuild_version(&gb, "runc", &v, &why), 0);
	assert_string_equal(v.version, "v1.1.12");
	assert_string_equal(v.upstream, "1.1.12");
	assert_string_equal(v.rule, "module version");
	fa_gobuild_free(&gb);
	assert_null(why);
}

/* (devel) main module: the -X main.version of -ldflags decides. */
static void
rules(void **state)
{
	unsigned char b[2048];
	char m[1024], *why = NULL, out[64];
	struct fa_gobuild gb;
	struct fa_gobuild_ver v;
	size_t n;

	(void)state;
	n = blob(b, "go1.22.1", m, modinfo(m, "path\tgithub.com/opencontainers"
	    "/runc\nmod\tgithub.com/opencontainers/runc\t(devel)\t\n"
	    "build\t-ldflags=\"-X main.version=1.1.5+ds1 -X=main.version="
	    "1.1.6\"\n"));
	assert_int_equal(fa_gobuild_parse_blob(b, n, &gb, &why), 0);
	assert_int_equal(fa_gobuild_version(&gb, "runc", &v, &why), 0);
	assert_string_equal(v.version, "1.1.6");	/* the last -X */
	assert_string_equal(v.rule, "ldflags main.version");
	/* containerd and dockerd look for other variables. */
	assert_int_equal(fa_gobuild_version(&gb, "dockerd", &v, &why),
	    FA_ERR_NOTFOUND);
	assert_non_null(strstr(why, "(devel)"));
	free(why);
	why = NULL;
	assert_int_equal(fa_gobuild_version(&gb, "podman", &v, &why),
	    FA_ERR_INPUT);
	free(why);
	why = NULL;
	fa_gobuild_free(&gb);

	n = blob(b, "go1.23.0", m, modinfo(m, "path\tgithub.com/containerd/"
	    "containerd/v2/cmd/containerd\nmod\tgithub.com/containerd/"
	    "containerd/v2\tv2.0.2\th1:x=\nbuild\t-ldflags=\"-X github.com/"
	    "containerd/containerd/v2/version.Version=v2.0.2-3 -s -w\"\n"));
	assert_int_equal(fa_gobuild_parse_blob(b, n, &gb, &why), 0);
	assert_int_equal(fa_gobuild_version(&gb, "containerd", &v, &why), 0);
	assert_string_equal(v.version, "v2.0.2-3");
	assert_string_equal(v.upstream, "2.0.2-3");
	assert_string_equal(v.rule, "ldflags version.Version");
	fa_gobuild_free(&gb);

	/* A Debian repack version: kept raw, not an upstream version. */
	n = blob(b, "go1.19.8", m, modinfo(m, "path\tgithub.com/docker/docker/"
	    "cmd/dockerd\nbuild\t-ldflags=\" \\t-X \\\"github.com/docker/"
	    "docker/dockerversion.Version=20.10.24~ds1\\\" \\t-w\"\n"));
	assert_int_equal(fa_gobuild_parse_blob(b, n, &gb, &why), 0);
	assert_int_equal(fa_gobuild_version(&gb, "dockerd", &v, &why), 0);
	assert_string_equal(v.version, "20.10.24~ds1");
	assert_string_equal(v.upstream, "");
	assert_non_null(v.upstream_error);
	fa_gobuild_free(&gb);

	/* No main module, no ldflags (GOPATH and -trimpath, as Debian). */
	n = blob(b, "go1.19.8", m, modinfo(m, "path\tgithub.com/"
	    "opencontainers/runc\nbuild\t-trimpath=true\n"));
	assert_int_equal(fa_gobuild_parse_blob(b, n, &gb, &why), 0);
	assert_int_equal(fa_gobuild_version(&gb, "runc", &v, &why),
	    FA_ERR_NOTFOUND);
	assert_non_null(strstr(why, "-trimpath"));
	free(why);
	fa_gobuild_free(&gb);

	/* Flag splitting: quotes, -X=, an unterminated quote. */
	assert_int_equal(fa_gobuild_ldflag_x("-s '-X' 'a.b=1 2'", "a.b", out,
	    sizeof(out)), 0);
	assert_string_equal(out, "1 2");
	assert_int_equal(fa_gobuild_ldflag_x("-X a.b", "a.b", out,
	    sizeof(out)), FA_ERR_NOTFOUND);
	assert_int_equal(fa_gobuild_ldflag_x("-X \"a.b=1", "a.b", out,
	    sizeof(out)), FA_ERR_NOTFOUND);
	assert_int_equal(fa_gobuild_ldflag_x("-X a.b=123456", "a.b", out, 4),
	    FA_ERR_TOOBIG);
}

/* parse_blob must fail with code r; *why must say something. */
static void
refused(const unsigned char *b, size_t n, int r, const char *says)
{
	struct fa_gobuild gb;
	char *why = NULL;

	assert_int_equal(fa_gobuild_parse_blob(b, n, &gb, &why), r);
	assert_non_null(why);
	if (says != NULL && strstr(why, says) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", why, says);
	assert_null(gb.go_version);
	free(why);
}

static void
hostile(void **state)
{
	unsigned char b[1024];
	char m[512];
	size_t n, i;

	(void)state;
	n = blob(b, "go1.21.6", m, modinfo(m, lines));
	refused(b, 20, FA_ERR_INPUT, "truncated");	/* header */
	refused(b, 10, FA_ERR_NOTFOUND, NULL);
	refused(b, 34, FA_ERR_INPUT, "past the end");	/* go version */
	refused(b, n - 1, FA_ERR_INPUT, "past the end");	/* modinfo */
	b[14] = 3;
	refused(b, n, FA_ERR_INPUT, "pointer size");
	b[14] = 8;
	/* Lengths of 2^64 and beyond: eleven 0xff bytes. */
	memset(b + 32, 0xff, 11);
	refused(b, n, FA_ERR_INPUT, "length");
	b[32] = 0x80, b[33] = 0x80, b[34] = 0x10;	/* 256 KiB, too long */
	refused(b, n, FA_ERR_INPUT, "past the end");
	/* Missing sentinels. */
	n = blob(b, "go1.21.6", lines, strlen(lines));
	refused(b, n, FA_ERR_INPUT, "sentinels");
	/* Bad quoting of -ldflags. */
	n = blob(b, "go1.21.6", m, modinfo(m, "build\t-ldflags=\"-X a\\q\"\n"));
	refused(b, n, FA_ERR_INPUT, "quoting");
	n = blob(b, "go1.21.6", m, modinfo(m, "build\t-ldflags=\"-X a\\\"\n"));
	refused(b, n, FA_ERR_INPUT, "quoting");
	/* A NUL in the Go version; a non-printable one. */
	n = blob(b, "go1.2\0", m, modinfo(m, lines));
	b[32] = 6;
	refused(b, n, FA_ERR_INPUT, NULL);
	n = blob(b, "go1\x01", m, modinfo(m, lines));
	refused(b, n, FA_ERR_INPUT, "printable");
	/* The old format needs the ELF file. */
	n = blob(b, "go1.21.6", m, modinfo(m, lines));
	b[15] = 0;
	refused(b, n, FA_ERR_UNAVAIL, "ELF");
	/* Every truncation of a good blob fails cleanly (ASan watches). */
	b[15] = 2;
	for (i = 0; i < n; i++) {
		struct fa_gobuild gb;
		char *why = NULL;

		assert_int_not_equal(fa_gobuild_parse_blob(b, i, &gb, &why), 0);
		free(why);
	}
}

static void
elf_images(void **state)
{
	unsigned char b[1024], img[4096], d[256];
	char m[512], *why = NULL;
	struct fa_gobuild gb;
	struct fa_gobuild_ver v;
	size_t n, il, ml;

	(void)state;
	n = blob(b, "go1.21.6", m, modinfo(m, lines));
	il = elf(img, b, n, 1);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why), 0);
	assert_string_equal(gb.found_by, "section .go.buildinfo");
	assert_string_equal(gb.mod_version, "v1.1.12");
	fa_gobuild_free(&gb);
	/* Stripped of section headers: found by scanning the segment. */
	il = elf(img, b, n, 0);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why), 0);
	assert_string_equal(gb.found_by, "PT_LOAD scan");
	fa_gobuild_free(&gb);
	/* Every truncation of the image that cuts the blob fails cleanly
	 * (past it, the scan finds the blob: any result, no crash). */
	for (ml = 0; ml < il; ml++) {
		if (fa_gobuild_read_elf(img, ml, &gb, &why) == 0)
			assert_true(ml >= SEG_OFF + n);
		fa_gobuild_free(&gb);
		free(why);
		why = NULL;
	}
	/* Go 1.13-1.17: pointers to string headers in the segment. */
	memset(d, 0, sizeof(d));
	memcpy(d, MAGIC, 14);
	d[14] = 8;
	put64(d + 16, SEG_VADDR + 32);
	put64(d + 24, SEG_VADDR + 48);
	put64(d + 32, SEG_VADDR + 64);
	put64(d + 40, 8);
	memcpy(d + 64, "go1.16.5", 8);
	ml = modinfo(m, "path\tx\nmod\tgithub.com/docker/docker\tv20.10.7"
	    "+incompatible\t\n");
	put64(d + 48, SEG_VADDR + 72);
	put64(d + 56, ml);
	memcpy(d + 72, m, ml);
	il = elf(img, d, 72 + ml, 1);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why), 0);
	assert_string_equal(gb.go_version, "go1.16.5");
	assert_int_equal(gb.inline_strings, 0);
	assert_string_equal(gb.mod_version, "v20.10.7+incompatible");
	fa_gobuild_free(&gb);
	/* A pointer out of every segment. */
	put64(d + 40, 4096);
	il = elf(img, d, 72 + ml, 1);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "no loaded segment"));
	free(why);
	why = NULL;
	/* No version in the build information: the symbol's value. */
	memset(d, 0, sizeof(d));
	n = blob(d, "go1.19.8", m, modinfo(m, "path\tgithub.com/containerd"
	    "/containerd/cmd/containerd\nbuild\t-trimpath=true\n"));
	assert_true(n <= 160);
	put64(d + 160, SEG_VADDR + 176);
	put64(d + 168, 10);
	memcpy(d + 176, "1.6.20~ds1", 10);
	il = elf_sym(img, d, 186, "github.com/containerd/containerd/"
	    "version.Version", SEG_VADDR + 160);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why), 0);
	assert_int_equal(fa_gobuild_version(&gb, "containerd", &v, &why), 0);
	assert_string_equal(v.version, "1.6.20~ds1");
	assert_string_equal(v.rule, "symbol version.Version");
	fa_gobuild_free(&gb);
	/* Its string past the segment: no value, no crash. */
	put64(d + 168, 100000);
	il = elf_sym(img, d, 186, "github.com/containerd/containerd/"
	    "version.Version", SEG_VADDR + 160);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why), 0);
	assert_int_equal(fa_gobuild_version(&gb, "containerd", &v, &why),
	    FA_ERR_NOTFOUND);
	free(why);
	why = NULL;
	fa_gobuild_free(&gb);
	for (ml = 0; ml < il; ml++) {
		if (fa_gobuild_read_elf(img, ml, &gb, &why) == 0)
			fa_gobuild_free(&gb);
		free(why);
		why = NULL;
	}
	/* Not ELF; ELF without build information. */
	assert_int_equal(fa_gobuild_read_elf("#!/bin/sh\nexit 0\n" "........"
	    "............................................", 60, &gb, &why),
	    FA_ERR_INPUT);
	assert_string_equal(why, "not an ELF file");
	free(why);
	why = NULL;
	memset(d, 'x', sizeof(d));
	il = elf(img, d, sizeof(d), 0);
	assert_int_equal(fa_gobuild_read_elf(img, il, &gb, &why),
	    FA_ERR_NOTFOUND);
	free(why);
}

static void
collect(void **state)
{
	char dir[] = "/tmp/fa-gobuild-XXXXXX", m[512], p[600];
	unsigned char b[1024], img[4096];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	size_t n, il;
	FILE *f;

	(void)state;
	scratch_new(dir);
	n = blob(b, "go1.21.6", m, modinfo(m, lines));
	il = elf(img, b, n, 1);
	scratch_put(dir, "/usr/sbin/runc", "");
	snprintf(p, sizeof(p), "%s/usr/sbin/runc", dir);
	assert_non_null(f = fopen(p, "w"));
	assert_int_equal(fwrite(img, 1, il, f), il);
	assert_int_equal(fclose(f), 0);
	scratch_put(dir, "/usr/bin/containerd", "#!/bin/sh\n");
	/* An absolute link resolves inside the sysroot: the same file. */
	snprintf(p, sizeof(p), "%s/usr/bin/runc", dir);
	assert_int_equal(symlink("/usr/sbin/runc", p), 0);
	/* A FIFO is not opened (it would block). */
	snprintf(p, sizeof(p), "%s/usr/bin/dockerd", dir);
	assert_int_equal(mkfifo(p, 0600), 0);

	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_gobuild(&r, s), 0);
	assert_int_equal(s->nobs, 3);
	/* The file where it is; the link to it an alias. */
	o = fa_snapshot_find(s, FA_KIND_HOST_BINARY, "/usr/sbin/runc");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(json_string_value(json_object_get(o->data,
	    "upstream")), "1.1.12");
	assert_string_equal(json_string_value(json_object_get(o->data,
	    "rule")), "module version");
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    o->data, "aliases"), 0)), "/usr/bin/runc");
	assert_null(fa_snapshot_find(s, FA_KIND_HOST_BINARY,
	    "/usr/bin/runc"));
	o = fa_snapshot_find(s, FA_KIND_HOST_BINARY, "/usr/bin/containerd");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(o->reason, "not an ELF file"));
	o = fa_snapshot_find(s, FA_KIND_HOST_BINARY, "/usr/bin/dockerd");
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(o->reason, "not a regular file"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* Parse path; print one line.  The component is the file's name. */
static int
show(const char *path)
{
	const char *comp = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct fa_gobuild gb;
	struct fa_gobuild_ver v;
	char *why = NULL;
	int fd, r;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		printf("%s - cannot open\n", comp);
		return 1;
	}
	r = fa_gobuild_read_fd(fd, &gb, &why);
	close(fd);
	if (r == 0 && (r = fa_gobuild_version(&gb, comp, &v, &why)) == 0)
		printf("%s %s %s %s\n", comp, v.version, v.rule,
		    gb.go_version);
	else
		printf("%s - %s %s\n", comp, why != NULL ? why : "error",
		    gb.go_version != NULL ? gb.go_version : "-");
	fa_gobuild_free(&gb);
	free(why);
	return 0;
}

/* The real binaries, when installed: parsed without error. */
static void
real_binaries(void **state)
{
	static const char *paths[] = { "/usr/sbin/runc", "/usr/bin/runc",
	    "/usr/bin/containerd", "/usr/sbin/dockerd", "/usr/bin/dockerd" };
	struct fa_gobuild gb;
	char *why = NULL;
	size_t i, found = 0;
	int fd;

	(void)state;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if ((fd = open(paths[i], O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		found++;
		assert_int_equal(fa_gobuild_read_fd(fd, &gb, &why), 0);
		close(fd);
		assert_memory_equal(gb.go_version, "go1.", 4);
		assert_non_null(gb.main_package);
		fa_gobuild_free(&gb);
	}
	if (found == 0)
		skip();
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(inline_format),
		cmocka_unit_test(rules),
		cmocka_unit_test(hostile),
		cmocka_unit_test(elf_images),
		cmocka_unit_test(collect),
		cmocka_unit_test(real_binaries),
	};
	int i, r = 0;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			r |= show(argv[i]);
		return r;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
