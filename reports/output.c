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

int
fa_write_atomic_mode(const char *dir, const char *name, const void *buf,
    size_t len, mode_t mode, char **why)
{
	char *tmp = NULL, *dst = NULL;
	const char *p = buf;
	ssize_t w;
	int fd = -1, r = FA_ERR_IO, saved;

	if (why != NULL)
		*why = NULL;
	tmp = fa_strfmt("%s/.%s.XXXXXX", dir, name);
	dst = fa_strfmt("%s/%s", dir, name);
	if (tmp == NULL || dst == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		saved = errno;
		free(tmp);
		tmp = NULL;
		errno = saved;
		goto fail;
	}
	/* Without a slot, an interruption may leave the temp file. */
	(void)fa_interrupt_add(tmp, 0);
	if (fchmod(fd, mode) != 0)
		goto fail;
	while (len > 0) {
		if ((w = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dst) != 0)
		goto fail;
	fa_interrupt_forget(tmp);
	free(tmp);
	tmp = NULL;
	r = 0;
	goto out;
fail:
	saved = errno;
	if (why != NULL)
		*why = fa_strfmt("%s: %s", dst != NULL ? dst : name,
		    strerror(saved));
out:
	if (fd >= 0)
		close(fd);
	if (tmp != NULL) {
		unlink(tmp);
		fa_interrupt_forget(tmp);
	}
	free(tmp);
	free(dst);
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
