/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Atomic output: a report is either complete or absent.  Data goes to a
 * temporary file created next to its final name, is flushed to disk, and
 * only then renamed over it (rename(2) is atomic within a file system).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "report.h"

int
fa_write_atomic(const char *dir, const char *name, const void *buf,
    size_t len, char **why)
{
	return fa_write_atomic_mode(dir, name, buf, len, 0640, why);
}

/* An output file being written: its temporary name and descriptor. */
struct atomic {
	char	*tmp, *dst;
	int	 fd;
};

static int
atomic_fail(struct atomic *a, char **why)
{
	int saved = errno;

	if (why != NULL && *why == NULL)
		*why = fa_strfmt("%s: %s", a->dst, strerror(saved));
	return FA_ERR_IO;
}

/* Create the temporary file next to dir/name; 0 or an error. */
static int
atomic_open(struct atomic *a, const char *dir, const char *name, mode_t mode,
    char **why)
{
	sigset_t old;
	int saved;

	a->fd = -1;
	a->tmp = fa_strfmt("%s/.%s.XXXXXX", dir, name);
	a->dst = fa_strfmt("%s/%s", dir, name);
	if (a->tmp == NULL || a->dst == NULL)
		return FA_ERR_NOMEM;
	/*
	 * Created and listed for removal in one step that no signal splits.
	 * Without a slot, an interruption may leave the temp file.
	 */
	fa_interrupt_defer(&old);
	if ((a->fd = mkostemp(a->tmp, O_CLOEXEC)) >= 0)
		(void)fa_interrupt_add(a->tmp, 0);
	saved = errno;
	fa_interrupt_undefer(&old);
	if (a->fd < 0) {
		free(a->tmp);
		a->tmp = NULL;
		errno = saved;
		return atomic_fail(a, why);
	}
	if (fchmod(a->fd, mode) != 0)
		return atomic_fail(a, why);
	return 0;
}

static int
atomic_write(struct atomic *a, const void *buf, size_t len, char **why)
{
	const char *p = buf;
	ssize_t w;

	while (len > 0) {
		if ((w = write(a->fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return atomic_fail(a, why);
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * The output set being written (fa_output_begin): each file put in place,
 * with the hard link that keeps the file it replaced, if any.
 */
struct placed {
	char	*dst;
	char	*prev;		/* link to the replaced file, or NULL */
	int	 existed;	/* dst existed but could not be kept */
};
static struct {
	int		 active;
	struct placed	*v;
	size_t		 n, cap;
} set;

void
fa_output_begin(void)
{
	fa_output_end(1);
	set.active = 1;
}

void
fa_output_end(int keep)
{
	struct placed *p;
	size_t i;

	for (i = set.n; i > 0; i--) {
		p = &set.v[i - 1];
		if (keep && p->prev != NULL)
			(void)unlink(p->prev);
		else if (!keep && p->prev != NULL)
			(void)rename(p->prev, p->dst);	/* atomic: old back */
		else if (!keep && !p->existed)
			(void)unlink(p->dst);		/* new: removed */
		free(p->dst);
		free(p->prev);
	}
	free(set.v);
	set.v = NULL;
	set.n = set.cap = 0;
	set.active = 0;
}

/*
 * In an output set, keep the file dst is about to replace as a hard link
 * (no data is copied: this works on a full disk) and record dst.  0, or
 * FA_ERR_NOMEM; a file system without hard links loses only the undo.
 */
static int
set_record(const struct atomic *a)
{
	struct placed *p;
	struct stat st;

	if (!set.active)
		return 0;
	if (fa_grow(&set.v, &set.cap, set.n + 1, sizeof(*set.v)) != 0)
		return FA_ERR_NOMEM;
	p = &set.v[set.n];
	p->prev = NULL;
	p->existed = lstat(a->dst, &st) == 0;
	if ((p->dst = fa_strdup(a->dst)) == NULL)
		return FA_ERR_NOMEM;
	/* The temporary name is unique in dir: so is it with ".prev". */
	if (p->existed && S_ISREG(st.st_mode) &&
	    (p->prev = fa_strfmt("%s.prev", a->tmp)) != NULL &&
	    link(a->dst, p->prev) != 0) {
		free(p->prev);
		p->prev = NULL;
	}
	set.n++;
	return 0;
}

/* Flush, close and rename into place. */
static int
atomic_commit(struct atomic *a, char **why)
{
	int fd = a->fd;

	if (fsync(fd) != 0)
		return atomic_fail(a, why);
	a->fd = -1;
	if (close(fd) != 0)
		return atomic_fail(a, why);
	if (set_record(a) != 0)
		return FA_ERR_NOMEM;
	if (rename(a->tmp, a->dst) != 0)
		return atomic_fail(a, why);
	fa_interrupt_forget(a->tmp);
	free(a->tmp);
	a->tmp = NULL;
	return 0;
}

/* Release; a file not committed is removed. */
static void
atomic_end(struct atomic *a)
{
	if (a->fd >= 0)
		close(a->fd);
	if (a->tmp != NULL) {
		unlink(a->tmp);
		fa_interrupt_forget(a->tmp);
	}
	free(a->tmp);
	free(a->dst);
}

int
fa_write_atomic_mode(const char *dir, const char *name, const void *buf,
    size_t len, mode_t mode, char **why)
{
	struct atomic a = { NULL, NULL, -1 };
	int r;

	if (why != NULL)
		*why = NULL;
	if ((r = atomic_open(&a, dir, name, mode, why)) == 0 &&
	    (r = atomic_write(&a, buf, len, why)) == 0)
		r = atomic_commit(&a, why);
	atomic_end(&a);
	return r;
}

/*
 * JSON straight to the file through a buffer, hashed on the way, so that
 * a report of a large fabric is never held in memory as text as well.
 */
#define JSON_BUF	(64 * 1024)

struct json_out {
	struct atomic	*a;
	EVP_MD_CTX	*md;
	char		*buf;
	size_t		 n;
	char		**why;
	int		 err;
};

static int
json_flush(struct json_out *o)
{
	if (o->n == 0)
		return 0;
	if (EVP_DigestUpdate(o->md, o->buf, o->n) != 1) {
		o->err = FA_ERR_INTERNAL;
		return -1;
	}
	if ((o->err = atomic_write(o->a, o->buf, o->n, o->why)) != 0)
		return -1;
	o->n = 0;
	return 0;
}

static int
json_emit(const char *p, size_t len, void *arg)
{
	struct json_out *o = arg;
	size_t k;

	while (len > 0) {
		if (o->n == JSON_BUF && json_flush(o) != 0)
			return -1;
		k = JSON_BUF - o->n < len ? JSON_BUF - o->n : len;
		memcpy(o->buf + o->n, p, k);
		o->n += k;
		p += k;
		len -= k;
	}
	return 0;
}

/*
 * Create dir/name atomically with what body() writes through o, hashed on
 * the way; its SHA-256 to sha256 (if not NULL).
 */
static int
write_hashed(const char *dir, const char *name,
    int (*body)(struct json_out *o, const void *arg), const void *arg,
    char sha256[65], char **why)
{
	struct atomic a = { NULL, NULL, -1 };
	struct json_out o = { &a, NULL, NULL, 0, why, 0 };
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	int r;

	if (why != NULL)
		*why = NULL;
	o.md = EVP_MD_CTX_new();
	o.buf = malloc(JSON_BUF);
	if (o.md == NULL || o.buf == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	if (EVP_DigestInit_ex(o.md, EVP_sha256(), NULL) != 1) {
		r = FA_ERR_INTERNAL;
		goto out;
	}
	if ((r = atomic_open(&a, dir, name, 0640, why)) != 0)
		goto out;
	if (body(&o, arg) != 0 || json_flush(&o) != 0) {
		r = o.err != 0 ? o.err : FA_ERR_NOMEM;
		goto out;
	}
	if (EVP_DigestFinal_ex(o.md, md, &mdlen) != 1 || mdlen != 32) {
		r = FA_ERR_INTERNAL;
		goto out;
	}
	if ((r = atomic_commit(&a, why)) != 0)
		goto out;
	if (sha256 != NULL) {
		for (i = 0; i < mdlen; i++)
			snprintf(sha256 + 2 * i, 3, "%02x", md[i]);
		sha256[64] = '\0';
	}
out:
	atomic_end(&a);
	EVP_MD_CTX_free(o.md);
	free(o.buf);
	return r;
}

struct plain {
	const json_t	*j;
	size_t		 flags;
};

/* json_dump_callback() fails on our error or out of memory. */
static int
plain_body(struct json_out *o, const void *arg)
{
	const struct plain *p = arg;

	if (json_dump_callback(p->j, json_emit, o, p->flags) != 0 ||
	    json_emit("\n", 1, o) != 0)
		return -1;
	return 0;
}

int
fa_write_atomic_json(const char *dir, const char *name, const json_t *j,
    size_t flags, char sha256[65], char **why)
{
	struct plain p = { j, flags };

	return write_hashed(dir, name, plain_body, &p, sha256, why);
}

/*
 * The array written item by item.  Jansson writes JSON_INDENT(2) as a
 * newline and two spaces per level before each member or item, and never
 * a raw newline inside a string, so an item dumped on its own becomes one
 * of a top-level member's array by putting four spaces after each of its
 * newlines and before it: the file is the one json_dumps() would write.
 */
#define ITEM_PAD	"    "

struct spliced {
	const json_t	*head;
	const char	*key;
	size_t		 n;
	json_t		*(*item)(size_t i, void *arg);
	void		(*after)(size_t i, void *arg);
	void		*arg;
};

static int
indent_emit(const char *p, size_t len, void *arg)
{
	const char *nl;
	size_t k;

	while (len > 0) {
		nl = memchr(p, '\n', len);
		k = nl != NULL ? (size_t)(nl - p) + 1 : len;
		if (json_emit(p, k, arg) != 0 || (nl != NULL &&
		    json_emit(ITEM_PAD, sizeof(ITEM_PAD) - 1, arg) != 0))
			return -1;
		p += k;
		len -= k;
	}
	return 0;
}

static int
spliced_body(struct json_out *o, const void *arg)
{
	const struct spliced *sp = arg;
	char *head, *marker = NULL, *at;
	json_t *it;
	size_t i;
	int r = -1, ok;

	head = json_dumps(sp->head, JSON_INDENT(2) | JSON_SORT_KEYS);
	marker = fa_strfmt("\n  \"%s\": []", sp->key);
	if (head == NULL || marker == NULL)
		goto out;
	if ((at = strstr(head, marker)) == NULL || sp->n == 0) {
		/* No such member, or nothing to put in it. */
		r = json_emit(head, strlen(head), o) != 0 ||
		    json_emit("\n", 1, o) != 0 ? -1 : 0;
		goto out;
	}
	if (json_emit(head, (size_t)(at - head) + strlen(marker) - 1, o) != 0)
		goto out;
	for (i = 0; i < sp->n; i++) {
		if ((it = sp->item(i, sp->arg)) == NULL)
			goto out;	/* r is still -1 */
		ok = json_emit(i == 0 ? "\n" ITEM_PAD : ",\n" ITEM_PAD,
		    i == 0 ? 5 : 6, o) == 0 && json_dump_callback(it,
		    indent_emit, o, JSON_INDENT(2) | JSON_SORT_KEYS) == 0;
		json_decref(it);
		if (sp->after != NULL)
			sp->after(i, sp->arg);
		if (!ok)
			goto out;
	}
	at += strlen(marker) - 1;	/* at its "]" */
	r = json_emit("\n  ", 3, o) != 0 || json_emit(at, strlen(at), o) != 0 ||
	    json_emit("\n", 1, o) != 0 ? -1 : 0;
out:
	free(head);
	free(marker);
	return r;
}

int
fa_write_atomic_json_items(const char *dir, const char *name,
    const json_t *head, const char *key, size_t n,
    json_t *(*item)(size_t i, void *arg),
    void (*after)(size_t i, void *arg), void *arg, char sha256[65],
    char **why)
{
	struct spliced sp = { head, key, n, item, after, arg };

	return write_hashed(dir, name, spliced_body, &sp, sha256, why);
}
