/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every read the host family makes goes through a sysroot (--host=SYSROOT,
 * "/" by default), so that a fixture tree stands for a real machine.  Paths
 * are resolved with openat2(2) RESOLVE_IN_ROOT: "..", absolute symlinks and
 * magic links cannot leave the sysroot, whatever the tree contains.  Reads
 * are bounded, only regular files are opened for reading (a device node is
 * never opened: opening some, a watchdog or a tape, has effects), and
 * nothing is ever written or executed.
 */
#ifndef FA_HOST_FS_H
#define FA_HOST_FS_H

#include <stddef.h>
#include <sys/stat.h>

struct fa_sysroot {
	int	 fd;		/* O_PATH directory descriptor */
	char	*path;		/* as given, for evidence ("/") */
};

/* Open the sysroot directory.  FA_ERR_NOTFOUND, FA_ERR_INPUT (not a
 * directory), FA_ERR_IO (errno kept) or FA_ERR_UNAVAIL (no openat2). */
int fa_sysroot_open(const char *path, struct fa_sysroot *root);
void fa_sysroot_close(struct fa_sysroot *root);

/*
 * Read the regular file at path (absolute, inside the sysroot) whole, at
 * most max bytes, into a NUL-terminated buffer *buf of *len bytes (the
 * file may itself hold NULs: /proc/PID/environ).  Caller frees.  Errors:
 * FA_ERR_NOTFOUND, FA_ERR_INPUT (not a regular file), FA_ERR_TOOBIG,
 * FA_ERR_IO with errno (EACCES, ELOOP, EXDEV for a path that tries to
 * leave the root...).
 */
int fa_sysroot_read(const struct fa_sysroot *root, const char *path,
    size_t max, char **buf, size_t *len);

/*
 * stat(2) of path inside the sysroot.  With follow 0 a final symlink is
 * reported as itself (lstat), else resolved inside the sysroot.  Errors as
 * for fa_sysroot_read.
 */
int fa_sysroot_stat(const struct fa_sysroot *root, const char *path,
    int follow, struct stat *st);

/*
 * The names in directory path, sorted, without "." and "..", at most max of
 * them (FA_ERR_TOOBIG beyond).  *names is a NULL-terminated array; free
 * with fa_sysroot_names_free.
 */
int fa_sysroot_list(const struct fa_sysroot *root, const char *path,
    size_t max, char ***names, size_t *count);
void fa_sysroot_names_free(char **names);

/* The target of the symlink at path, as stored (not resolved).  Caller
 * frees. */
int fa_sysroot_readlink(const struct fa_sysroot *root, const char *path,
    char **target);

/*
 * The message for an error r of the functions above, in this thread: for
 * FA_ERR_IO the errno behind it ("permission denied", "too many levels of
 * symbolic links"), "not a regular file" for FA_ERR_INPUT, "larger than
 * the read limit" for FA_ERR_TOOBIG.  Valid until the next call.
 */
const char *fa_sysroot_strerror(int r);
#endif
