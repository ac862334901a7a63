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
	int saved;

	a->fd = -1;
	a->tmp = fa_strfmt("%s/.%s.XXXXXX", dir, name);
	a->dst = fa_strfmt("%s/%s", dir, name);
	if (a->tmp == NULL || a->dst == NULL)
		return FA_ERR_NOMEM;
	if ((a->fd = mkostemp(a->tmp, O_CLOEXEC)) < 0) {
		saved = errno;
		free(a->tmp);
		a->tmp = NULL;
		errno = saved;
		return atomic_fail(a, why);
	}
	/* Without a slot, an interruption may leave the temp file. */
	(void)fa_interrupt_add(a->tmp, 0);
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

/* Flush, close and rename into place. */
static int
atomic_commit(struct atomic *a, char **why)
{
	int fd = a->fd;

	if (fsync(fd) != 0)
		return atomic_fail(a, why);
	a->fd = -1;
	if (close(fd) != 0 || rename(a->tmp, a->dst) != 0)
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

int
fa_write_atomic_json(const char *dir, const char *name, const json_t *j,
    size_t flags, char sha256[65], char **why)
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
	/* json_dump_callback() fails on our error or out of memory. */
	if (json_dump_callback(j, json_emit, &o, flags) != 0 ||
	    json_emit("\n", 1, &o) != 0 || json_flush(&o) != 0) {
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

int
fa_sha256_hex(const void *buf, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	if (EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL) != 1 ||
	    mdlen != 32)
		return FA_ERR_INTERNAL;
	for (i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	out[64] = '\0';
	return 0;
}
