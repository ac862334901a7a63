/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Atomic output: a report is either complete or absent.  Data goes to a
 * temporary file created next to its final name, is flushed to disk, and
 * only then renamed over it (rename(2) is atomic within a file system).
 * A run's files form one output set: all in place, the earlier run's
 * other files gone, or the directory as it was.
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

/*
 * An output set: the directory, held open (every file is created,
 * renamed and removed relative to this descriptor, so a directory renamed
 * or replaced by a symbolic link mid-run cannot redirect a write), and
 * each file put in place with the hard link that keeps the file it
 * replaced, if any.
 */
struct placed {
	char	*name;
	char	*prev;		/* link to the replaced file, or NULL */
	int	 existed;	/* name existed but could not be kept */
};
struct fa_outset {
	int		 dfd;
	char		*dir;
	int		 run;		/* FA_OUTSET_RUN */
	struct placed	*v;
	size_t		 n, cap;
	const char	*keep[FA_RUN_FILES_MAX];
	size_t		 nkeep;
};

const char *const fa_run_files[] = {
	"report.json", "report.txt", "report.html", "report.xml",
	"junit.xml", "snapshot.json", "mads.pcap", "SHA256SUMS",
	"SHA256SUMS.sig", NULL
};

/* An output file being written: its temporary name and descriptor. */
struct atomic {
	struct fa_outset *set;
	const char	*name;
	char		*tmp;		/* in the directory */
	char		*path;		/* dir/tmp, for the interrupt handler */
	int		 fd;
};

static int
atomic_fail(struct atomic *a, char **why)
{
	int saved = errno;

	if (why != NULL && *why == NULL)
		*why = fa_strfmt("%s/%s: %s", a->set->dir, a->name,
		    strerror(saved));
	return FA_ERR_IO;
}

/*
 * Create a temporary file ".NAME.XXXXXX" in the set's directory: the
 * suffix from getentropy(), O_EXCL and O_NOFOLLOW, so nothing already
 * there (a file, a symbolic link) is opened.  0, or with errno set
 * FA_ERR_NOMEM (ENOMEM) or FA_ERR_IO (getentropy(2) or openat(2) failed,
 * or EEXIST after 100 tries).
 */
static int
tmp_create(struct atomic *a, mode_t mode)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	char *t;
	size_t i, len;
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (getentropy(rnd, sizeof(rnd)) != 0)
			return FA_ERR_IO;
		free(a->tmp);
		if ((a->tmp = fa_strfmt(".%s.XXXXXX", a->name)) == NULL) {
			errno = ENOMEM;
			return FA_ERR_NOMEM;
		}
		len = strlen(a->tmp);
		t = a->tmp + len - sizeof(rnd);
		for (i = 0; i < sizeof(rnd); i++)
			t[i] = abc[rnd[i] % (sizeof(abc) - 1)];
		a->fd = openat(a->set->dfd, a->tmp, O_WRONLY | O_CREAT |
		    O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (a->fd >= 0 || errno != EEXIST)
			return a->fd >= 0 ? 0 : FA_ERR_IO;
	}
	errno = EEXIST;
	return FA_ERR_IO;
}

/* Create the temporary file beside name; 0 or an error. */
static int
atomic_open(struct atomic *a, struct fa_outset *set, const char *name,
    mode_t mode, char **why)
{
	sigset_t old;
	int saved, r;

	a->set = set;
	a->name = name;
	a->fd = -1;
	/*
	 * Created and listed for removal in one step that no signal splits
	 * (the handler removes by path: it cannot use our descriptor).
	 * Without a slot, an interruption may leave the temp file.
	 */
	fa_interrupt_defer(&old);
	r = tmp_create(a, 0600);
	saved = errno;
	if (r == 0 && (a->path = fa_strfmt("%s/%s", set->dir, a->tmp)) !=
	    NULL)
		(void)fa_interrupt_add(a->path, 0);
	fa_interrupt_undefer(&old);
	if (r != 0) {
		free(a->tmp);
		a->tmp = NULL;
		errno = saved;
		return saved == ENOMEM ? FA_ERR_NOMEM : atomic_fail(a, why);
	}
	if (a->path == NULL)
		return FA_ERR_NOMEM;
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
 * Keep the file `name` is about to replace (or, at the end of a run, the
 * earlier run's file about to be removed) as a hard link named tmp.prev
 * (no data is copied: this works on a full disk), and record name.  0,
 * or FA_ERR_NOMEM; a file system without hard links loses only the undo.
 */
static int
set_record(struct fa_outset *set, const char *name, const char *tmp)
{
	struct placed *p;
	struct stat st;

	if (fa_grow(&set->v, &set->cap, set->n + 1, sizeof(*set->v)) != 0)
		return FA_ERR_NOMEM;
	p = &set->v[set->n];
	p->prev = NULL;
	p->existed = fstatat(set->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if ((p->name = fa_strdup(name)) == NULL)
		return FA_ERR_NOMEM;
	/*
	 * The temporary name is unique in dir: so is it with ".prev".  The
	 * name a stale file is kept under is fixed, and a run killed before
	 * it ended may have left it: removed first.
	 */
	if (p->existed && S_ISREG(st.st_mode) &&
	    (p->prev = fa_strfmt("%s.prev", tmp)) != NULL &&
	    ((unlinkat(set->dfd, p->prev, 0) != 0 && errno != ENOENT) ||
	    linkat(set->dfd, name, set->dfd, p->prev, 0) != 0)) {
		free(p->prev);
		p->prev = NULL;
	}
	set->n++;
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
	if (set_record(a->set, a->name, a->tmp) != 0)
		return FA_ERR_NOMEM;
	if (renameat(a->set->dfd, a->tmp, a->set->dfd, a->name) != 0)
		return atomic_fail(a, why);
	fa_interrupt_forget(a->path);
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
	if (a->tmp != NULL)
		(void)unlinkat(a->set->dfd, a->tmp, 0);
	if (a->path != NULL)
		fa_interrupt_forget(a->path);
	free(a->tmp);
	free(a->path);
}

int
fa_outset_open(const char *dir, int flags, struct fa_outset **out,
    char **warn, char **why)
{
	struct fa_outset *set;
	struct stat st;
	int r = FA_ERR_IO;

	*out = NULL;
	if (warn != NULL)
		*warn = NULL;
	if (why != NULL)
		*why = NULL;
	if ((set = calloc(1, sizeof(*set))) == NULL ||
	    (set->dir = fa_strdup(dir)) == NULL) {
		free(set);
		return FA_ERR_NOMEM;
	}
	set->run = (flags & FA_OUTSET_RUN) != 0;
	if ((set->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fstat(set->dfd, &st) != 0) {
		if (why != NULL)
			*why = fa_strfmt("%s: %s", dir, strerror(errno));
		goto bad;
	}
	/*
	 * Whoever may write the directory may replace a report after it is
	 * written.  World-writable without the sticky bit: anyone can, so
	 * refused; with it (as /tmp) others cannot touch our files, only
	 * make names first (a run then fails, it is not misled), and a
	 * group-writable directory is often a team's on purpose: warned.
	 */
	if (set->run && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		if (why != NULL)
			*why = fa_strfmt("%s: every user may write this "
			    "directory (mode %04o), and so replace the report "
			    "in it: choose a directory of your own, or chmod "
			    "o-w", dir, (unsigned)(st.st_mode & 07777));
		r = FA_ERR_INPUT;
		goto bad;
	}
	if (set->run && warn != NULL && (st.st_mode & (S_IWGRP | S_IWOTH)))
		*warn = fa_strfmt("%s: %s may write this directory (mode "
		    "%04o) and replace a report in it; a signed report "
		    "(--sign) shows it", dir, st.st_mode & S_IWOTH ?
		    "every user" : "its group", (unsigned)(st.st_mode & 07777));
	*out = set;
	return 0;
bad:
	if (set->dfd >= 0)
		close(set->dfd);
	free(set->dir);
	free(set);
	return r;
}

int
fa_outset_dirfd(const struct fa_outset *set)
{
	return set->dfd;
}

const char *
fa_outset_dir(const struct fa_outset *set)
{
	return set->dir;
}

/* name in v[0..n) (names are fa_run_files' own pointers or equal). */
static int
listed(const char *const *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return 1;
	return 0;
}

static int
add_name(const char **v, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; fa_run_files[i] != NULL; i++)
		if (strcmp(fa_run_files[i], name) == 0)
			break;
	if (fa_run_files[i] == NULL)
		return FA_ERR_INPUT;	/* not a run file: nothing to do */
	if (!listed(v, *n, name) && *n < FA_RUN_FILES_MAX)
		v[(*n)++] = fa_run_files[i];
	return 0;
}

int
fa_outset_keep(struct fa_outset *set, const char *name)
{
	return add_name(set->keep, &set->nkeep, name);
}


int
fa_outset_place(struct fa_outset *set, const char *tmp, const char *name,
    char **why)
{
	char *path;
	size_t i;

	for (i = 0; fa_run_files[i] != NULL; i++)
		if (strcmp(fa_run_files[i], name) == 0)
			break;
	if (fa_run_files[i] == NULL || strchr(tmp, '/') != NULL ||
	    tmp[0] != '.')
		return FA_ERR_INPUT;
	if (set_record(set, name, tmp) != 0)
		return FA_ERR_NOMEM;
	if (renameat(set->dfd, tmp, set->dfd, name) != 0) {
		if (why != NULL)
			*why = fa_strfmt("%s/%s: %s", set->dir, name,
			    strerror(errno));
		return FA_ERR_IO;
	}
	if ((path = fa_strfmt("%s/%s", set->dir, tmp)) != NULL)
		fa_interrupt_forget(path);
	free(path);
	return 0;
}

/* 1 when this run wrote (or placed) name. */
static int
written(const struct fa_outset *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i].name, name) == 0)
			return 1;
	return 0;
}

/*
 * The files of an earlier run this run did not write, removed as the
 * replaced ones are kept: linked aside first, so that a failure puts
 * them back with the rest.
 */
static int
remove_stale(struct fa_outset *set, char **why)
{
	struct stat st;
	char *tmp;
	size_t i;
	int r;

	for (i = 0; fa_run_files[i] != NULL; i++) {
		const char *name = fa_run_files[i];

		if (written(set, name) || listed(set->keep, set->nkeep, name) ||
		    fstatat(set->dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if ((tmp = fa_strfmt(".%s.stale", name)) == NULL)
			return FA_ERR_NOMEM;
		r = set_record(set, name, tmp);
		free(tmp);
		if (r != 0)
			return r;
		if (unlinkat(set->dfd, name, 0) != 0) {
			if (why != NULL)
				*why = fa_strfmt("%s/%s (left by an earlier "
				    "run): cannot remove: %s", set->dir, name,
				    strerror(errno));
			set->v[set->n - 1].existed = 1;	/* still there */
			return FA_ERR_IO;
		}
	}
	return 0;
}

int
fa_outset_close(struct fa_outset *set, int keep, char **why)
{
	struct placed *p;
	size_t i;
	int r = 0;

	if (why != NULL)
		*why = NULL;
	if (set == NULL)
		return 0;
	if (keep && set->run && (r = remove_stale(set, why)) != 0)
		keep = 0;
	for (i = set->n; i > 0; i--) {
		p = &set->v[i - 1];
		if (keep && p->prev != NULL)
			(void)unlinkat(set->dfd, p->prev, 0);
		else if (!keep && p->prev != NULL)	/* atomic: old back */
			(void)renameat(set->dfd, p->prev, set->dfd, p->name);
		else if (!keep && !p->existed)		/* new: removed */
			(void)unlinkat(set->dfd, p->name, 0);
		free(p->name);
		free(p->prev);
	}
	/* The renames and removals durable before the run says done. */
	if (keep && fsync(set->dfd) != 0 && errno != EINVAL && r == 0) {
		if (why != NULL)
			*why = fa_strfmt("%s: %s", set->dir, strerror(errno));
		r = FA_ERR_IO;
	}
	close(set->dfd);
	free(set->v);
	free(set->dir);
	free(set);
	return r;
}

int
fa_outset_write(struct fa_outset *set, const char *name, const void *buf,
    size_t len, mode_t mode, char **why)
{
	struct atomic a = { NULL, NULL, NULL, NULL, -1 };
	int r;

	if (why != NULL)
		*why = NULL;
	if ((r = atomic_open(&a, set, name, mode, why)) == 0 &&
	    (r = atomic_write(&a, buf, len, why)) == 0)
		r = atomic_commit(&a, why);
	atomic_end(&a);
	return r;
}

/* A set for one file, dir/name, outside any run: errors name the file. */
static int
single_open(const char *dir, const char *name, struct fa_outset **set,
    char **why)
{
	int r, saved;

	if ((r = fa_outset_open(dir, 0, set, NULL, NULL)) != 0 &&
	    why != NULL) {
		saved = errno;
		*why = fa_strfmt("%s/%s: %s", dir, name, r == FA_ERR_NOMEM ?
		    strerror(ENOMEM) : strerror(saved));
	}
	return r;
}

/* One file in dir, outside any run's set. */
int
fa_write_atomic_mode(const char *dir, const char *name, const void *buf,
    size_t len, mode_t mode, char **why)
{
	struct fa_outset *set;
	int r;

	if ((r = single_open(dir, name, &set, why)) != 0)
		return r;
	r = fa_outset_write(set, name, buf, len, mode, why);
	(void)fa_outset_close(set, r == 0, NULL);
	return r;
}

int
fa_write_atomic(const char *dir, const char *name, const void *buf,
    size_t len, char **why)
{
	return fa_write_atomic_mode(dir, name, buf, len, 0640, why);
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

/*
 * Hash and write what the buffer holds: 0, or FA_ERR_INTERNAL or
 * atomic_write()'s error, also kept in o->err.
 */
static int
json_flush(struct json_out *o)
{
	if (o->n == 0)
		return 0;
	if (EVP_DigestUpdate(o->md, o->buf, o->n) != 1) {
		o->err = FA_ERR_INTERNAL;
		return o->err;
	}
	if ((o->err = atomic_write(o->a, o->buf, o->n, o->why)) != 0)
		return o->err;
	o->n = 0;
	return 0;
}

/*
 * A json_dump_callback_t: 0, or -1 as jansson requires (json_flush()
 * failed: o->err says why).
 */
static int
json_emit(const char *p, size_t len, void *arg)
{
	struct json_out *o = arg;
	size_t k;

	while (len > 0) {
		if (o->n == JSON_BUF && json_flush(o) != 0)
			return -1;	/* not an error: ends jansson's dump */
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
 * the way; its SHA-256 to sha256 (if not NULL).  body() returns 0 or a
 * negative FA_ERR_* (body_fail()).
 */
static int
write_hashed(struct fa_outset *set, const char *name,
    int (*body)(struct json_out *o, const void *arg), const void *arg,
    char sha256[65], char **why)
{
	struct atomic a = { set, name, NULL, NULL, -1 };
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
	if ((r = atomic_open(&a, set, name, 0640, why)) != 0)
		goto out;
	if ((r = body(&o, arg)) != 0 || (r = json_flush(&o)) != 0)
		goto out;
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

/*
 * What a body returns when writing through o failed: o->err when our
 * json_flush() failed, else FA_ERR_NOMEM (json_dump_callback() and the
 * like fail on our error or out of memory).
 */
static int
body_fail(const struct json_out *o)
{
	return o->err != 0 ? o->err : FA_ERR_NOMEM;
}

static int
plain_body(struct json_out *o, const void *arg)
{
	const struct plain *p = arg;

	if (json_dump_callback(p->j, json_emit, o, p->flags) != 0 ||
	    json_emit("\n", 1, o) != 0)
		return body_fail(o);
	return 0;
}

struct emitted {
	int		(*render)(const void *, fa_emit_fn, void *, char **);
	const void	*src;
};

static int
emitted_body(struct json_out *o, const void *arg)
{
	const struct emitted *e = arg;
	char *rwhy = NULL;
	int r;

	if ((r = e->render(e->src, json_emit, o, &rwhy)) == 0 ||
	    o->err != 0) {
		/* Stopped by the file (json_flush()): its error says why. */
		free(rwhy);
		return r == 0 ? 0 : o->err;
	}
	if (o->why != NULL && *o->why == NULL)
		*o->why = rwhy;
	else
		free(rwhy);
	return r;
}

int
fa_outset_write_emit(struct fa_outset *set, const char *name,
    int (*render)(const void *, fa_emit_fn, void *, char **),
    const void *src, char **why)
{
	struct emitted e = { render, src };

	return write_hashed(set, name, emitted_body, &e, NULL, why);
}

int
fa_outset_write_json(struct fa_outset *set, const char *name,
    const json_t *j, size_t flags, char sha256[65], char **why)
{
	struct plain p = { j, flags };

	return write_hashed(set, name, plain_body, &p, sha256, why);
}

int
fa_write_atomic_json(const char *dir, const char *name, const json_t *j,
    size_t flags, char sha256[65], char **why)
{
	struct fa_outset *set;
	int r;

	if ((r = single_open(dir, name, &set, why)) != 0)
		return r;
	r = fa_outset_write_json(set, name, j, flags, sha256, why);
	(void)fa_outset_close(set, r == 0, NULL);
	return r;
}

/*
 * The array written item by item: the head as JSON_INDENT(2) writes it,
 * and in the array each item compact on a line of its own (indented by
 * ITEM_PAD).  An item is the bulk of the file (a large fabric's topology
 * is one): written compact, the file is half the bytes to write, hash,
 * read and parse, and stays one observation per line for grep and diff.
 * Jansson never writes a raw newline inside a string, so each item's
 * line is whole.
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
spliced_body(struct json_out *o, const void *arg)
{
	const struct spliced *sp = arg;
	char *head, *marker = NULL, *at;
	json_t *it;
	size_t i;
	int failed = 1, ok;

	head = json_dumps(sp->head, JSON_INDENT(2) | JSON_SORT_KEYS);
	marker = fa_strfmt("\n  \"%s\": []", sp->key);
	if (head == NULL || marker == NULL)
		goto out;
	if ((at = strstr(head, marker)) == NULL || sp->n == 0) {
		/* No such member, or nothing to put in it. */
		failed = json_emit(head, strlen(head), o) != 0 ||
		    json_emit("\n", 1, o) != 0;
		goto out;
	}
	if (json_emit(head, (size_t)(at - head) + strlen(marker) - 1, o) != 0)
		goto out;
	for (i = 0; i < sp->n; i++) {
		if ((it = sp->item(i, sp->arg)) == NULL)
			goto out;	/* failed is still 1 */
		ok = json_emit(i == 0 ? "\n" ITEM_PAD : ",\n" ITEM_PAD,
		    i == 0 ? 5 : 6, o) == 0 && json_dump_callback(it,
		    json_emit, o, JSON_COMPACT | JSON_SORT_KEYS) == 0;
		json_decref(it);
		if (sp->after != NULL)
			sp->after(i, sp->arg);
		if (!ok)
			goto out;
	}
	at += strlen(marker) - 1;	/* at its "]" */
	failed = json_emit("\n  ", 3, o) != 0 ||
	    json_emit(at, strlen(at), o) != 0 || json_emit("\n", 1, o) != 0;
out:
	free(head);
	free(marker);
	return failed ? body_fail(o) : 0;
}

int
fa_outset_write_json_items(struct fa_outset *set, const char *name,
    const json_t *head, const char *key, size_t n,
    json_t *(*item)(size_t i, void *arg),
    void (*after)(size_t i, void *arg), void *arg, char sha256[65],
    char **why)
{
	struct spliced sp = { head, key, n, item, after, arg };

	return write_hashed(set, name, spliced_body, &sp, sha256, why);
}
