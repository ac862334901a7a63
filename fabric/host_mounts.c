/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mountinfo decoding and collection (see host_mounts.h).  The format is
 * the kernel's, Documentation/filesystems/proc.rst section 3.5
 * "/proc/<pid>/mountinfo" and proc_pid_mountinfo(5):
 *
 * 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * (1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)   (10)         (11)
 *
 * (1) mount ID, (2) parent ID, (3) major:minor, (4) root of the mount in
 * its file system, (5) mount point relative to the process's root, (6) per
 * mount options, (7) zero or more optional fields "tag[:value]" (shared:X,
 * master:X, propagate_from:X, unbindable; "parsers should ignore all
 * unrecognised optional fields"), (8) the separator "-", (9) file system
 * type "type[.subtype]", (10) source, "filesystem specific information or
 * 'none'", (11) per superblock options.
 *
 * What fs/proc_namespace.c (show_mountinfo) really writes, and what this
 * decoder therefore accepts:
 *  - fields apart by exactly one space; the source may be empty
 *    ("mount -t tmpfs '' /mnt" gives "tmpfs  rw"), so runs of spaces are
 *    not collapsed;
 *  - the root through seq_dentry or the file system's show_path: a path,
 *    or a dentry name that is none, such as nsfs's "net:[4026532712]";
 *  - the mount point through seq_path_root, always absolute;
 *  - space, tab, newline and backslash in the root, the mount point, the
 *    type and (through mangle() or the file system's show_devname) the
 *    source written as \ooo; super options through seq_show_option are
 *    escaped likewise, but a file system may print its own options as it
 *    likes, and some sources (CIFS's, on older kernels) carry a raw
 *    backslash.  So \ooo is undone everywhere, an escape that is not
 *    \ooo is a fault in the root, mount point and type (the line is
 *    skipped) and is kept as written in the source and super options;
 *  - the super options last, "ro" or "rw" first: whatever follows the
 *    source to the end of the line is the super options.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_mounts.h"
#include "host_obs.h"

/* Six fixed fields, the optional ones, the separator. */
#define MAX_FIELDS	64
/* Bytes of a skipped line shown in "skipped". */
#define EXCERPT_MAX	120

/* One line split into its fields (pointers into the line). */
struct line {
	char	*f[MAX_FIELDS];	/* 0-5 fixed, 6..nopt+5 optional */
	size_t	 nopt;
	char	*fstype, *source, *super;
};

/* The decode in progress. */
struct walk {
	json_t	*mounts, *skipped;
	size_t	 lines, nskipped, not_examined;
	char	*first_why;	/* the first skipped line's "line N: why" */
};

/* A \ooo escape at s (s[0] == '\\') of a byte 1-255: its value, else 0. */
static int
octal_escape(const char *s)
{
	if (s[1] < '0' || s[1] > '3' || s[2] < '0' || s[2] > '7' ||
	    s[3] < '0' || s[3] > '7')
		return 0;
	return (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
}

/* Undo \ooo escapes in place.  strict: any other backslash is a fault
 * (FA_ERR_INPUT); else it is kept as written.  0 otherwise. */
static int
unescape(char *s, int strict)
{
	char *w = s;
	int v;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && (v = octal_escape(s)) != 0) {
			*w++ = (char)v;
			s += 3;
			continue;
		}
		if (*s == '\\' && strict)
			return FA_ERR_INPUT;
		*w++ = *s;
	}
	*w = '\0';
	return 0;
}

/* A JSON string of decoded bytes: printable as is, else sanitised. */
static json_t *
path_json(const char *s)
{
	char *clean;
	json_t *j;
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e ||
		    s[i] == '\\')
			break;
	if (s[i] == '\0')
		return json_string(s);
	if ((clean = fa_str_sanitize(s, strlen(s))) == NULL)
		return NULL;
	j = json_string(clean);
	free(clean);
	return j;
}

/* "rw,nosuid" -> 1 if "ro" is one of the comma-separated options. */
static int
has_ro(const char *opts)
{
	const char *p = opts;
	size_t n;

	while (*p != '\0') {
		n = strcspn(p, ",");
		if (n == 2 && strncmp(p, "ro", 2) == 0)
			return 1;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* A decimal number of 1-10 digits. */
static int
number_ok(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n <= 10 && s[n] == '\0';
}

static int
device_ok(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (a == 0 || a > 10 || s[a] != ':')
		return 0;
	b = strspn(s + a + 1, "0123456789");
	return b > 0 && b <= 10 && s[a + 1 + b] == '\0';
}

/*
 * Split line at single spaces up to the separator, then the type, the
 * source and the rest (the super options).  NULL, or what is wrong.
 */
static const char *
split(char *line, struct line *l)
{
	char *p = line, *sp;
	size_t n;

	for (n = 0;; n++) {
		if (n == MAX_FIELDS)
			return "too many optional fields";
		l->f[n] = p;
		if ((sp = strchr(p, ' ')) == NULL)
			break;
		*sp = '\0';
		p = sp + 1;
		if (n >= 6 && strcmp(l->f[n], "-") == 0)
			break;
	}
	if (sp == NULL) {
		if (n >= 6 && strcmp(l->f[n], "-") == 0)
			return "too few fields after the separator";
		return n + 1 < 10 ? "too few fields (a mountinfo line has at "
		    "least 10)" : "no \" - \" separator after the optional "
		    "fields";
	}
	l->nopt = n - 6;
	l->fstype = p;
	if ((sp = strchr(p, ' ')) == NULL)
		return "too few fields after the separator";
	*sp = '\0';
	l->source = sp + 1;
	if ((sp = strchr(l->source, ' ')) == NULL)
		return "too few fields after the separator";
	*sp = '\0';
	l->super = sp + 1;
	return NULL;
}

/* Check and decode the fields in place.  NULL, or what is wrong. */
static const char *
check(struct line *l)
{
	if (!number_ok(l->f[0]) || !number_ok(l->f[1]))
		return "mount ID or parent ID is not a number";
	if (!device_ok(l->f[2]))
		return "major:minor is not two numbers";
	if (unescape(l->f[3], 1) != 0)
		return "bad escape in the root";
	if (l->f[3][0] == '\0')
		return "empty root";
	if (unescape(l->f[4], 1) != 0)
		return "bad escape in the mount point";
	if (l->f[4][0] != '/')
		return "mount point is not an absolute path";
	if (l->f[5][0] == '\0')
		return "empty mount options";
	if (unescape(l->fstype, 1) != 0 || l->fstype[0] == '\0')
		return "bad or empty file system type";
	(void)unescape(l->source, 0);
	(void)unescape(l->super, 0);
	return NULL;
}

/* The optional fields as written, empty ones (two spaces) aside. */
static json_t *
optional_json(const struct line *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a != NULL && i < l->nopt; i++)
		if (l->f[6 + i][0] != '\0' &&
		    json_array_append_new(a, path_json(l->f[6 + i])) != 0) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

static json_t *
mount_json(const struct line *l)
{
	int sro = has_ro(l->super);

	return json_pack("{s:I, s:I, s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, "
	    "s:o, s:b, s:b}",
	    "mount_id", (json_int_t)strtoll(l->f[0], NULL, 10),
	    "parent_id", (json_int_t)strtoll(l->f[1], NULL, 10),
	    "device", l->f[2],
	    "root", path_json(l->f[3]),
	    "root_is_path", l->f[3][0] == '/',
	    "mount_point", path_json(l->f[4]),
	    "options", path_json(l->f[5]),
	    "optional_fields", optional_json(l),
	    "fstype", path_json(l->fstype),
	    "source", path_json(l->source),
	    "super_options", path_json(l->super),
	    "super_read_only", sro,
	    "read_only", has_ro(l->f[5]) || sro);
}

/* Record line ln (raw, n bytes) as skipped for why. */
static int
skip(struct walk *w, size_t ln, const char *raw, size_t n, const char *why)
{
	char *text;
	json_t *e;

	if (w->nskipped++ == 0 &&
	    (w->first_why = fa_strfmt("line %zu: %s", ln, why)) == NULL)
		return FA_ERR_NOMEM;
	if (json_array_size(w->skipped) == FA_MOUNTS_SKIPPED_MAX)
		return 0;
	if ((text = fa_str_sanitize(raw, n < EXCERPT_MAX ? n :
	    EXCERPT_MAX)) == NULL)
		return FA_ERR_NOMEM;
	e = json_pack("{s:I, s:s, s:s+}", "line", (json_int_t)ln, "why", why,
	    "text", text, n > EXCERPT_MAX ? "..." : "");
	free(text);
	if (e == NULL || json_array_append_new(w->skipped, e) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

/* One line of n bytes at raw (no '\n'), copied to buf (n + 1 bytes). */
static int
one_line(struct walk *w, const char *raw, size_t n, char *buf)
{
	struct line l;
	const char *bad;
	json_t *m;

	w->lines++;
	if (json_array_size(w->mounts) == FA_MOUNTS_MAX) {
		w->not_examined++;
		return 0;
	}
	if (n == 0)
		return skip(w, w->lines, raw, n, "empty line");
	if (memchr(raw, '\0', n) != NULL)
		return skip(w, w->lines, raw, n, "NUL byte in the line");
	memcpy(buf, raw, n);
	buf[n] = '\0';
	memset(&l, 0, sizeof(l));
	if ((bad = split(buf, &l)) != NULL || (bad = check(&l)) != NULL)
		return skip(w, w->lines, raw, n, bad);
	if ((m = mount_json(&l)) == NULL ||
	    json_array_append_new(w->mounts, m) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

static int
each_line(struct walk *w, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	char *buf;
	size_t n;
	int r = 0;

	if (len == SIZE_MAX || (buf = malloc(len + 1)) == NULL)
		return FA_ERR_NOMEM;
	while (r == 0 && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		r = one_line(w, p, n, buf);
		p += n + 1;
	}
	free(buf);
	return r;
}

int
fa_mountinfo_decode(const char *text, size_t len, json_t **out, char **why)
{
	struct walk w = { NULL, NULL, 0, 0, 0, NULL };
	struct fa_obs_build b;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if ((w.mounts = json_array()) == NULL ||
	    (w.skipped = json_array()) == NULL)
		r = FA_ERR_NOMEM;
	else
		r = each_line(&w, text, len);
	if (r == 0 && json_array_size(w.mounts) == 0)
		r = w.lines == 0 ? fa_why(why, "empty") : fa_why(why,
		    "no mount could be read (%zu line%s; %s)", w.lines,
		    w.lines == 1 ? "" : "s", w.first_why);
	if (r == 0) {
		fa_obs_build(&b);
		fa_put_arr(&b, FA_F(HOST_MOUNTS, mounts), json_incref(w.mounts));
		fa_put_int(&b, FA_F(HOST_MOUNTS, lines), (long long)w.lines);
		fa_put_int(&b, FA_F(HOST_MOUNTS, lines_skipped),
		    (long long)w.nskipped);
		fa_put_arr(&b, FA_F(HOST_MOUNTS, skipped),
		    json_incref(w.skipped));
		fa_put_bool(&b, FA_F(HOST_MOUNTS, truncated),
		    w.not_examined > 0);
		fa_put_int(&b, FA_F(HOST_MOUNTS, lines_not_examined),
		    (long long)w.not_examined);
		if ((*out = fa_obs_built(&b)) == NULL)
			r = FA_ERR_NOMEM;
	}
	json_decref(w.mounts);
	json_decref(w.skipped);
	free(w.first_why);
	return r;
}

int
fa_host_collect_mounts(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	return fa_host_read_decode(root, snap, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo", FA_MOUNTINFO_MAX, fa_mountinfo_decode);
}
