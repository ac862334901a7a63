/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Interrupt cleanup (see interrupt.h).  The handler may only call
 * async-signal-safe functions (POSIX.1-2017 2.4.3): kill, waitpid, unlink,
 * rmdir, _exit.
 * The table is fixed storage written with the signals blocked, so the
 * handler never sees an entry half written.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <errno.h>

#include "errors.h"
#include "interrupt.h"

#define INT_MAX_PATHS	32

static struct {
	char	path[PATH_MAX];
	int	used;
	int	is_dir;
} tab[INT_MAX_PATHS];

static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* A child doing part of the run (cmd_scan.c's acquisition), or 0. */
static volatile pid_t child;

static void
on_signal(int sig)
{
	int i;

	/* The child first: it may be writing into a file listed here. */
	if (child > 0) {
		kill(child, SIGKILL);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	for (i = 0; i < INT_MAX_PATHS; i++)
		if (tab[i].used && !tab[i].is_dir)
			unlink(tab[i].path);
	/* Directories last, newest first: an inner one before its parent. */
	for (i = INT_MAX_PATHS - 1; i >= 0; i--)
		if (tab[i].used && tab[i].is_dir)
			rmdir(tab[i].path);
	_exit(128 + sig);
}

/* Block (how SIG_BLOCK) or unblock the signals; *old gets the mask. */
static void
mask(int how, sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(how, &set, old);
}

/*
 * The handled signals' action: fn, one run at a time; 0, or FA_ERR_IO
 * (errno kept) if sigaction(2) fails.
 */
static int
set_action(void (*fn)(int))
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL) != 0)
			return FA_ERR_IO;
	return 0;
}

int
fa_interrupt_install(void)
{
	return set_action(on_signal) != 0 ? FA_ERR_INTERNAL : 0;
}

int
fa_interrupt_add(const char *path, int is_dir)
{
	size_t len = strlen(path);
	int i, r = FA_ERR_TOOBIG;

	sigset_t old;

	if (len >= PATH_MAX)
		return FA_ERR_TOOBIG;
	mask(SIG_BLOCK, &old);
	for (i = 0; i < INT_MAX_PATHS; i++)
		if (!tab[i].used) {
			memcpy(tab[i].path, path, len + 1);
			tab[i].is_dir = is_dir;
			tab[i].used = 1;
			r = 0;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

void
fa_interrupt_forget(const char *path)
{
	sigset_t old;
	int i;

	mask(SIG_BLOCK, &old);
	for (i = 0; i < INT_MAX_PATHS; i++)
		if (tab[i].used && strcmp(tab[i].path, path) == 0)
			tab[i].used = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void
fa_interrupt_hold(void)
{
	mask(SIG_BLOCK, NULL);
}

void
fa_interrupt_release(void)
{
	mask(SIG_UNBLOCK, NULL);
}

void
fa_interrupt_child(pid_t pid)
{
	sigset_t old;

	mask(SIG_BLOCK, &old);
	child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void
fa_interrupt_uninstall(void)
{
	(void)set_action(SIG_DFL);
	child = 0;
}

void
fa_interrupt_defer(sigset_t *old)
{
	mask(SIG_BLOCK, old);
}

void
fa_interrupt_undefer(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}
