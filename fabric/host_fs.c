/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sysroot-confined, bounded, read-only file access (see host_fs.h).
 * openat2(2) is called through syscall(2): glibc 2.36 has no wrapper.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_fs.h"

#define LINK_MAX_LEN	4096

/*
 * The errno behind this thread's last FA_ERR_IO, for its message: the
 * FA_ERR_* vocabulary has one I/O code, and the message wants the cause.
 * Thread-local, as errno is, so no two readers share it.
 */
static _Thread_local int last_errno;

static int
errno_to_fa(int e)
{
	last_errno = e;
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return FA_ERR_NOTFOUND;
	case ENOSYS:
		return FA_ERR_UNAVAIL;
	case ENOMEM:
		return FA_ERR_NOMEM;
	default:
		errno = e;
		return FA_ERR_IO;
	}
}

/*
 * Resolve path inside the root: "/" and "" are the root itself.  Magic
 * links (/proc/PID/root, /proc/PID/fd/N) are refused: they would lead out
 * of the tree being audited into wherever the scanner runs.
 */
static int
resolve(const struct fa_sysroot *root, const char *path, int flags, int *fd)
{
	struct open_how how;
	long r;

	if (path == NULL || path[0] != '/' ||
	    strnlen(path, PATH_MAX) == PATH_MAX)
		return FA_ERR_INPUT;
	while (*path == '/')
		path++;
	if (*path == '\0')
		path = ".";
	memset(&how, 0, sizeof(how));
	/* openat2 refuses O_PATH with any flag but these three. */
	if ((flags & O_PATH) == 0)
		flags |= O_NOCTTY;
	how.flags = (unsigned long long)(flags | O_CLOEXEC);
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	r = syscall(SYS_openat2, root->fd, path, &how, sizeof(how));
	if (r < 0)
		return errno_to_fa(errno);
	*fd = (int)r;
	return 0;
}

int
fa_sysroot_open(const char *path, struct fa_sysroot *root)
{
	struct stat st;
	int fd;

	root->fd = -1;
	root->path = NULL;
	if (path == NULL || path[0] == '\0')
		return FA_ERR_INPUT;
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR ? FA_ERR_INPUT : errno_to_fa(errno);
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
		close(fd);
		return FA_ERR_INPUT;
	}
	if ((root->path = fa_strdup(path)) == NULL) {
		close(fd);
		return FA_ERR_NOMEM;
	}
	root->fd = fd;
	return 0;
}

void
fa_sysroot_close(struct fa_sysroot *root)
{
	if (root == NULL)
		return;
	if (root->fd >= 0)
		close(root->fd);
	free(root->path);
	root->fd = -1;
	root->path = NULL;
}

/* Read fd to the end, at most max bytes, NUL-terminated. */
static int
read_bounded(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b, *g;
	ssize_t r;

	if (max > SIZE_MAX / 2)
		return FA_ERR_INPUT;
	if ((b = malloc(cap)) == NULL)
		return FA_ERR_NOMEM;
	for (;;) {
		if (n + 1 >= cap) {
			if (n > max) {
				free(b);
				return FA_ERR_TOOBIG;
			}
			if ((g = realloc(b, cap * 2)) == NULL) {
				free(b);
				return FA_ERR_NOMEM;
			}
			b = g;
			cap *= 2;
		}
		r = read(fd, b + n, cap - 1 - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = errno_to_fa(errno);
			free(b);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(b);
			return FA_ERR_TOOBIG;
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int
fa_sysroot_read(const struct fa_sysroot *root, const char *path, size_t max,
    char **buf, size_t *len)
{
	char self[64];
	struct stat st;
	int pfd, fd, r;

	if ((r = resolve(root, path, O_PATH, &pfd)) != 0)
		return r;
	if (fstat(pfd, &st) != 0) {
		r = errno_to_fa(errno);
		close(pfd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(pfd);
		return FA_ERR_INPUT;	/* directory, device, FIFO, socket */
	}
	/*
	 * Reopen the very inode just checked (no second path walk, so no
	 * swap for a device node in between).
	 */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	r = fd < 0 ? errno_to_fa(errno) : 0;
	close(pfd);
	if (r != 0)
		return r == FA_ERR_NOTFOUND ? FA_ERR_UNAVAIL : r;
	r = read_bounded(fd, max, buf, len);
	close(fd);
	return r;
}

int
fa_sysroot_stat(const struct fa_sysroot *root, const char *path, int follow,
    struct stat *st)
{
	int fd, r;

	if ((r = resolve(root, path, O_PATH | (follow ? 0 : O_NOFOLLOW),
	    &fd)) != 0)
		return r;
	r = fstatat(fd, "", st, AT_EMPTY_PATH) != 0 ? errno_to_fa(errno) : 0;
	close(fd);
	return r;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
fa_sysroot_names_free(char **names)
{
	size_t i;

	if (names == NULL)
		return;
	for (i = 0; names[i] != NULL; i++)
		free(names[i]);
	free(names);
}

int
fa_sysroot_list(const struct fa_sysroot *root, const char *path, size_t max,
    char ***names, size_t *count)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;
	DIR *d;
	int fd, r;

	if ((r = resolve(root, path, O_RDONLY | O_DIRECTORY, &fd)) != 0)
		return r;
	if ((d = fdopendir(fd)) == NULL) {
		r = errno_to_fa(errno);
		close(fd);
		return r;
	}
	r = 0;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (n == max) {
			r = FA_ERR_TOOBIG;
			break;
		}
		if ((r = fa_grow(&v, &cap, n + 2, sizeof(*v))) != 0)
			break;
		if ((v[n] = fa_strdup(de->d_name)) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		v[++n] = NULL;
	}
	if (r == 0 && errno != 0)
		r = errno_to_fa(errno);
	closedir(d);
	if (r == 0 && v == NULL && (v = calloc(1, sizeof(*v))) == NULL)
		r = FA_ERR_NOMEM;
	if (r != 0) {
		fa_sysroot_names_free(v);
		return r;
	}
	qsort(v, n, sizeof(*v), name_cmp);
	*names = v;
	*count = n;
	return 0;
}

int
fa_sysroot_readlink(const struct fa_sysroot *root, const char *path,
    char **target)
{
	char buf[LINK_MAX_LEN + 1];
	ssize_t n;
	int fd, r;

	if ((r = resolve(root, path, O_PATH | O_NOFOLLOW, &fd)) != 0)
		return r;
	n = readlinkat(fd, "", buf, sizeof(buf));
	r = n < 0 ? (errno == ENOENT ? FA_ERR_INPUT : errno_to_fa(errno)) : 0;
	close(fd);
	if (r != 0)
		return r;
	if ((size_t)n > LINK_MAX_LEN)
		return FA_ERR_TOOBIG;
	buf[n] = '\0';
	if ((*target = fa_strdup(buf)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

const char *
fa_sysroot_strerror(int r)
{
	static _Thread_local char msg[128];

	switch (r) {
	case FA_ERR_IO:
		/* "Permission denied" -> "permission denied", as ours. */
		snprintf(msg, sizeof(msg), "%s", strerror(last_errno));
		msg[0] = (char)tolower((unsigned char)msg[0]);
		return msg;
	case FA_ERR_INPUT:
		return "not a regular file";
	case FA_ERR_TOOBIG:
		return "larger than the read limit";
	default:
		return fa_strerror(r);
	}
}
