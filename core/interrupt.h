/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What an interrupted run leaves behind: nothing.  SIGINT, SIGTERM and
 * SIGHUP end the process at once with 128 + the signal number (130, 143,
 * 129), after removing every path registered here: temporary files being
 * written, output files already in place whose report is not (mads.pcap),
 * and directories this run created (removed only if empty).  The final
 * writing of the reports runs with those signals blocked, so a report set
 * is either complete or absent; a signal that arrives then is acted on
 * once they are unblocked.
 */
#ifndef FA_INTERRUPT_H
#define FA_INTERRUPT_H

#include <sys/types.h>

#include <signal.h>

/* Install the handlers; 0 or FA_ERR_INTERNAL. */
int fa_interrupt_install(void);

/*
 * Remove path on interruption (a directory: rmdir, after every file).
 * The path is copied; 0, or FA_ERR_TOOBIG when the table (or the path)
 * is full (the caller then goes on without the guarantee, or fails).
 */
int fa_interrupt_add(const char *path, int is_dir);
/* Forget path (it is complete, or gone). */
void fa_interrupt_forget(const char *path);

/*
 * A child process working for this run (pid, or 0 when it has ended): an
 * interruption kills it (SIGKILL) and waits for it before removing the
 * paths, so that nothing is written into them afterwards.
 */
void fa_interrupt_child(pid_t pid);
/* In such a child: the default actions again (the parent cleans up). */
void fa_interrupt_uninstall(void);

/*
 * Defer the handled signals over a few steps that must not be split (a
 * mkdir and its registration, a link and its rename), restoring the mask
 * in *old afterwards: nests inside a hold.
 */
void fa_interrupt_defer(sigset_t *old);
void fa_interrupt_undefer(const sigset_t *old);

/* Block / unblock the handled signals around a commit of outputs. */
void fa_interrupt_hold(void);
void fa_interrupt_release(void);

#endif
