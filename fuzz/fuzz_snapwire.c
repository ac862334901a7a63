/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the acquisition child's answer as the parent of a
 * root scan reads it from the pipe (core/snapwire.c fa_snapwire_read, in
 * scanner/privsep.c): bounded typed records (core/snapwire.h), each
 * observation checked by the snapshot loader, the head last, nothing
 * after it.  The child parses
 * what the fabric sends, so the parent treats its answer as hostile.  An
 * answer that reads is written again (fa_snapwire_open, _end) and must
 * read back equal.
 *
 * Input: the bytes on the pipe, here an anonymous memory file (no file is
 * written); records of at most 64 KiB, answers of at most 1 MiB.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "../core/snapwire.h"

#define MAX_REC		(64 * 1024)
#define MAX_TOTAL	(1024 * 1024)

/* A memory file holding data[0..size), at offset 0; -1 on failure. */
static int
memfile(const uint8_t *data, size_t size)
{
	int fd = memfd_create("snapwire", MFD_CLOEXEC);
	size_t off = 0;
	ssize_t k;

	if (fd < 0)
		return -1;
	while (off < size && (k = write(fd, data + off, size - off)) > 0)
		off += (size_t)k;
	if (off != size || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Write s as an answer and read it back: it must be s. */
static void
again(struct fa_snapshot *s, int rc, int usable)
{
	struct fa_snapwire_out w;
	struct fa_snapshot *t = NULL;
	int fd = memfd_create("snapwire", MFD_CLOEXEC), rfd, rc2, us2;
	json_t *a, *b;

	if (fd < 0 || (rfd = dup(fd)) < 0)
		abort();
	if (fa_snapwire_open(&w, fd) != 0 ||
	    fa_snapwire_end(&w, s, rc, usable) != 0 ||
	    lseek(rfd, 0, SEEK_SET) != 0 ||
	    fa_snapwire_read(rfd, MAX_REC * 4, MAX_TOTAL * 4, &t, &rc2, &us2,
	    NULL) != 0 || rc2 != rc || us2 != usable)
		abort();
	a = fa_snapshot_to_json(s, 1);
	b = fa_snapshot_to_json(t, 1);
	if (a == NULL || b == NULL || !json_equal(a, b))
		abort();
	json_decref(a);
	json_decref(b);
	fa_snapshot_free(t);
	close(rfd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_snapshot *s = NULL;
	char *why = NULL;
	int fd, rc = 0, usable = 0, r;

	if (size > MAX_TOTAL || (fd = memfile(data, size)) < 0)
		return 0;
	r = fa_snapwire_read(fd, MAX_REC, MAX_TOTAL, &s, &rc, &usable, &why);
	close(fd);
	if (r != 0) {
		if (s != NULL)
			abort();	/* refused, yet a snapshot */
		free(why);
		return 0;
	}
	if (s == NULL || why != NULL)
		abort();
	again(s, rc, usable);
	fa_snapshot_free(s);
	return 0;
}
