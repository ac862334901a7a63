/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The history directory of scheduled scans (layout in history.h).  The
 * directory may hold anything (other tools, a hostile local user with
 * write access to it), so every operation inside it works relative to a
 * descriptor of it, looks only at names of the run pattern, never follows
 * a symbolic link below it (O_NOFOLLOW, AT_SYMLINK_NOFOLLOW) and never
 * deletes recursively: pruning removes regular files and then an empty
 * run directory, and leaves anything else in place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "history.h"
#include "interrupt.h"
#include "util.h"

#define STAMP_LEN	16	/* YYYYmmddTHHMMSSZ */

struct run {
	char	*name;
	int	 complete;	/* NAME/report.json is a regular file */
};

int
fa_history_is_run_name(const char *name)
{
	static const char shape[] = "DDDDDDDDTDDDDDDZ";
	size_t i, len;

	if (name == NULL)
		return 0;
	len = strnlen(name, STAMP_LEN + 3);
	if (len != STAMP_LEN && len != STAMP_LEN + 2)
		return 0;
	for (i = 0; i < STAMP_LEN; i++)
		if (shape[i] == 'D' ? name[i] < '0' || name[i] > '9' :
		    name[i] != shape[i])
			return 0;
	return len == STAMP_LEN || (name[STAMP_LEN] == '-' &&
	    name[STAMP_LEN + 1] >= '2' &&
	    name[STAMP_LEN + 1] <= '0' + FA_HISTORY_MAX_SUFFIX);
}

/* *why (first problem wins) = "DIR[/NAME]: strerror(err)"; FA_ERR_IO. */
static int
sys_err(char **why, int err, const char *dir, const char *name)
{
	if (why != NULL && *why == NULL)
		*why = name != NULL ? fa_strfmt("%s/%s: %s", dir, name,
		    strerror(err)) : fa_strfmt("%s: %s", dir, strerror(err));
	return FA_ERR_IO;
}

static int
open_dir(const char *dir, int *dfd, char **why)
{
	if ((*dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return sys_err(why, errno, dir, NULL);
	return 0;
}

/* A run directory of dfd, never through a symbolic link. */
static int
open_run(int dfd, const char *name)
{
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
}

static int
has_report(int rfd)
{
	struct stat st;

	return fstatat(rfd, FA_HISTORY_REPORT, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode);
}

/* A DIR stream over a duplicate of fd, from its first entry. */
static DIR *
dir_stream(int fd)
{
	DIR *d;
	int fd2;

	if ((fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return NULL;
	if ((d = fdopendir(fd2)) == NULL) {
		close(fd2);
		return NULL;
	}
	/* The duplicate shares fd's offset, which an earlier walk moved. */
	rewinddir(d);
	return d;
}

void
fa_history_free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; names != NULL && i < n; i++)
		free(names[i]);
	free(names);
}

static void
free_runs(struct run *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* Newest first: the name pattern makes string order time order. */
static int
run_cmp(const void *a, const void *b)
{
	return strcmp(((const struct run *)b)->name,
	    ((const struct run *)a)->name);
}

/* The runs in dfd (named dir in messages), newest first. */
static int
list_runs(int dfd, const char *dir, struct run **out, size_t *nout,
    char **why)
{
	struct run *v = NULL;
	struct dirent *e;
	struct stat st;
	size_t n = 0, cap = 0, seen = 0;
	DIR *d;
	int rfd, r = 0;

	*out = NULL;
	*nout = 0;
	if ((d = dir_stream(dfd)) == NULL)
		return sys_err(why, errno, dir, NULL);
	for (errno = 0; (e = readdir(d)) != NULL; errno = 0) {
		if (++seen > FA_HISTORY_MAX_ENTRIES) {
			if (why != NULL && *why == NULL)
				*why = fa_strfmt("%s: more than %d entries",
				    dir, FA_HISTORY_MAX_ENTRIES);
			r = FA_ERR_TOOBIG;
			break;
		}
		/* A link or a file of the run pattern is not a run. */
		if (!fa_history_is_run_name(e->d_name) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (fa_grow(&v, &cap, n + 1, sizeof(*v)) != 0 ||
		    (v[n].name = strdup(e->d_name)) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		if ((rfd = open_run(dfd, e->d_name)) >= 0) {
			v[n].complete = has_report(rfd);
			close(rfd);
		} else
			v[n].complete = 0;
		n++;
	}
	if (r == 0 && errno != 0)
		r = sys_err(why, errno, dir, NULL);
	closedir(d);
	if (r != 0) {
		free_runs(v, n);
		return r;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), run_cmp);
	*out = v;
	*nout = n;
	return 0;
}

int
fa_history_lock(const char *dir, int *fd, char **why)
{
	struct stat st;
	int dfd, lfd, e, r;

	*fd = -1;
	if (why != NULL)
		*why = NULL;
	if (mkdir(dir, 0750) != 0 && errno != EEXIST)
		return sys_err(why, errno, dir, NULL);
	if ((r = open_dir(dir, &dfd, why)) != 0)
		return r;
	/* O_NONBLOCK: a FIFO planted as .lock must not hang the open. */
	lfd = openat(dfd, FA_HISTORY_LOCK, O_RDONLY | O_CREAT | O_NOFOLLOW |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0640);
	e = errno;
	close(dfd);
	if (lfd < 0 && e == ELOOP)
		return fa_why(why, "%s/%s: is a symbolic link", dir,
		    FA_HISTORY_LOCK);
	if (lfd < 0)
		return sys_err(why, e, dir, FA_HISTORY_LOCK);
	if (fstat(lfd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(lfd);
		return fa_why(why, "%s/%s: is not a regular file", dir,
		    FA_HISTORY_LOCK);
	}
	/* flock(2) locks belong to the open file description. */
	while ((r = flock(lfd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
		;
	if (r != 0) {
		e = errno;
		close(lfd);
		if (e != EWOULDBLOCK)
			return sys_err(why, e, dir, FA_HISTORY_LOCK);
		if (why != NULL)
			*why = fa_strfmt("another fabaudit run holds %s/%s",
			    dir, FA_HISTORY_LOCK);
		return FA_ERR_UNAVAIL;
	}
	*fd = lfd;
	return 0;
}

int
fa_history_new_run(const char *dir, time_t started, char **rundir,
    char **why)
{
	char stamp[32], name[48];
	int dfd, k, r;

	*rundir = NULL;
	if (why != NULL)
		*why = NULL;
	fa_time_compact(started, stamp, sizeof(stamp));
	if (!fa_history_is_run_name(stamp))
		return fa_why(why, "start time %lld is out of range",
		    (long long)started);
	if ((r = open_dir(dir, &dfd, why)) != 0)
		return r;
	for (k = 1; k <= FA_HISTORY_MAX_SUFFIX; k++) {
		if (k == 1)
			snprintf(name, sizeof(name), "%s", stamp);
		else
			snprintf(name, sizeof(name), "%s-%d", stamp, k);
		if (mkdirat(dfd, name, 0750) == 0) {
			close(dfd);
			if ((*rundir = fa_strfmt("%s/%s", dir, name)) == NULL)
				return FA_ERR_NOMEM;
			return 0;
		}
		if (errno != EEXIST) {
			r = sys_err(why, errno, dir, name);
			close(dfd);
			return r;
		}
	}
	close(dfd);
	if (why != NULL)
		*why = fa_strfmt("%s: %d runs already started at %s", dir,
		    FA_HISTORY_MAX_SUFFIX, stamp);
	return FA_ERR_UNAVAIL;
}

int
fa_history_latest_report(const char *dir, char **path, char **why)
{
	struct run *v;
	size_t n, i;
	int dfd, r;

	*path = NULL;
	if (why != NULL)
		*why = NULL;
	if ((r = open_dir(dir, &dfd, why)) != 0)
		return r;
	r = list_runs(dfd, dir, &v, &n, why);
	close(dfd);
	if (r != 0)
		return r;
	for (i = 0; i < n && !v[i].complete; i++)
		;
	if (i == n) {
		r = FA_ERR_NOTFOUND;
		if (why != NULL)
			*why = fa_strfmt("%s: no complete run", dir);
	} else if ((*path = fa_strfmt("%s/%s/%s", dir, v[i].name,
	    FA_HISTORY_REPORT)) == NULL)
		r = FA_ERR_NOMEM;
	free_runs(v, n);
	return r;
}

int
fa_history_publish(const char *dir, const char *rundir_name, char **why)
{
	char tmp[64];
	sigset_t old;
	int dfd, rfd, k, r, e;

	if (why != NULL)
		*why = NULL;
	if (!fa_history_is_run_name(rundir_name))
		return fa_why(why, "%s: not a run name", dir);
	if ((r = open_dir(dir, &dfd, why)) != 0)
		return r;
	if ((rfd = open_run(dfd, rundir_name)) < 0) {
		r = sys_err(why, errno, dir, rundir_name);
		goto out;
	}
	r = has_report(rfd) ? 0 : fa_why(why, "%s/%s: has no %s, the run "
	    "is incomplete", dir, rundir_name, FA_HISTORY_REPORT);
	close(rfd);
	if (r != 0)
		goto out;
	/*
	 * symlink(2) has no O_EXCL twin of mkstemp: try names until new.
	 * An interruption waits until the temporary link is renamed (or
	 * removed): it must not be left behind (core/interrupt.h).
	 */
	fa_interrupt_defer(&old);
	for (k = 0; ; k++) {
		snprintf(tmp, sizeof(tmp), ".%s.%ld.%d", FA_HISTORY_LATEST,
		    (long)getpid(), k);
		if (symlinkat(rundir_name, dfd, tmp) == 0)
			break;
		if (errno != EEXIST || k == 99) {
			r = sys_err(why, errno, dir, tmp);
			fa_interrupt_undefer(&old);
			goto out;
		}
	}
	/* rename(2) replaces `latest` atomically (never a directory). */
	if (renameat(dfd, tmp, dfd, FA_HISTORY_LATEST) != 0) {
		e = errno;
		unlinkat(dfd, tmp, 0);
		fa_interrupt_undefer(&old);
		r = sys_err(why, e, dir, FA_HISTORY_LATEST);
		goto out;
	}
	fa_interrupt_undefer(&old);
	/* Make the rename durable; not every file system can sync a dir. */
	(void)fsync(dfd);
out:
	close(dfd);
	return r;
}

/* Append "; msg" to *why (taking msg); the prune reports every refusal. */
static void
add_problem(char **why, char *msg)
{
	char *s;

	if (msg == NULL || why == NULL) {
		free(msg);
		return;
	}
	if (*why == NULL) {
		*why = msg;
		return;
	}
	if ((s = fa_strfmt("%s; %s", *why, msg)) != NULL) {
		free(*why);
		*why = s;
	}
	free(msg);
}

/*
 * Delete run dfd/name if it holds only regular files: 0, FA_ERR_INPUT
 * (left in place) or FA_ERR_IO, with *problem saying which and why.
 */
static int
remove_run(int dfd, const char *dir, const char *name, char **problem)
{
	struct dirent *e;
	struct stat st;
	char **files = NULL, *bad;
	size_t nf = 0, cap = 0, i;
	DIR *d = NULL;
	int rfd, r = 0;

	*problem = NULL;
	if ((rfd = open_run(dfd, name)) < 0 || (d = dir_stream(rfd)) == NULL)
		goto ioerr;
	for (errno = 0; (e = readdir(d)) != NULL; errno = 0) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (nf == FA_HISTORY_MAX_FILES) {
			*problem = fa_strfmt("%s/%s: more than %d entries, "
			    "left in place", dir, name, FA_HISTORY_MAX_FILES);
			r = FA_ERR_INPUT;
			break;
		}
		if (fstatat(rfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			goto ioerr;
		if (!S_ISREG(st.st_mode)) {
			bad = fa_str_sanitize(e->d_name, strlen(e->d_name));
			*problem = fa_strfmt("%s/%s/%s: not a regular file, "
			    "%s left in place", dir, name, bad != NULL ? bad :
			    "?", name);
			free(bad);
			r = FA_ERR_INPUT;
			break;
		}
		if (fa_grow(&files, &cap, nf + 1, sizeof(*files)) != 0 ||
		    (files[nf] = strdup(e->d_name)) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		nf++;
	}
	if (r == 0 && errno != 0)
		goto ioerr;
	for (i = 0; r == 0 && i < nf; i++)
		if (unlinkat(rfd, files[i], 0) != 0 && errno != ENOENT)
			goto ioerr;
	if (r == 0 && unlinkat(dfd, name, AT_REMOVEDIR) != 0)
		goto ioerr;
	goto out;
ioerr:
	*problem = fa_strfmt("%s/%s: %s", dir, name, strerror(errno));
	r = FA_ERR_IO;
out:
	if (d != NULL)
		closedir(d);
	if (rfd >= 0)
		close(rfd);
	fa_history_free_names(files, nf);
	return r;
}

int
fa_history_prune(const char *dir, unsigned keep, char ***removed,
    size_t *n, char **why)
{
	struct run *v = NULL;
	char link[64], *problem;
	size_t nv = 0, i, cap = 0, kept = 0, newest = SIZE_MAX;
	ssize_t ll;
	int dfd, r, first = 0;

	*removed = NULL;
	*n = 0;
	if (why != NULL)
		*why = NULL;
	if (keep == 0)
		return fa_why(why, "the number of runs to keep must be at "
		    "least 1");
	if ((r = open_dir(dir, &dfd, why)) != 0)
		return r;
	if ((r = list_runs(dfd, dir, &v, &nv, why)) != 0) {
		close(dfd);
		return r;
	}
	/* `latest` only ever spares a run; a stale or odd link spares none. */
	ll = readlinkat(dfd, FA_HISTORY_LATEST, link, sizeof(link) - 1);
	link[ll > 0 ? ll : 0] = '\0';
	for (i = 0; i < nv && newest == SIZE_MAX; i++)
		if (v[i].complete)
			newest = i;
	for (i = 0; i < nv && first != FA_ERR_NOMEM; i++) {
		/* Newest first: the first `keep` complete runs stay... */
		if (v[i].complete && kept < keep) {
			kept++;
			continue;
		}
		/* ... as do incomplete runs newer than any complete one. */
		if (!v[i].complete && i < newest)
			continue;
		if (strcmp(v[i].name, link) == 0)
			continue;
		if ((r = remove_run(dfd, dir, v[i].name, &problem)) != 0) {
			if (first == 0)
				first = r;
			add_problem(why, problem);
		} else if (fa_grow(removed, &cap, *n + 1,
		    sizeof(**removed)) != 0)
			first = FA_ERR_NOMEM;
		else {
			(*removed)[(*n)++] = v[i].name;
			v[i].name = NULL;
		}
	}
	close(dfd);
	free_runs(v, nv);
	return first;
}
