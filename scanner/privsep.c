/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Privilege separation of `fabaudit scan` (see scanner.h): who runs the
 * network-facing acquisition, and running it in a child that drops root.
 * The child parses what the fabric and the wire send; the parent keeps the
 * invoking user's rights and faces no network.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/caps.h"
#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/privdrop.h"
#include "../core/snapwire.h"
#include "../core/util.h"
#include "../fabric/ib.h"
#include "../fabric/ib_pcap.h"
#include "../fabric/ib_portkeep.h"
#include "scanner.h"

/*
 * Who runs the network-facing acquisition.  Root drops to --user (default
 * nobody, when it exists); --user root, or root without a nobody, keeps
 * root.  Another user cannot change user: --user must then name itself.
 * 0 (*drop set), or FA_EXIT_USAGE after one diagnostic line.
 */
int
fa_pick_user(const char *name, int quiet, struct fa_priv_user *u, int *drop)
{
	int r;

	*drop = 0;
	if (name == NULL && geteuid() != 0)
		return 0;
	r = fa_priv_lookup(name != NULL ? name : FA_PRIV_DEFAULT_USER, u);
	if (r != 0 && name == NULL) {
		if (!quiet)
			fa_diag("--user", "no user '%s' to drop to: the scan "
			    "runs as root (give --user)", FA_PRIV_DEFAULT_USER);
		return 0;
	}
	if (r != 0) {
		fa_diag("--user", "'%s' is not a known user", name);
		return FA_EXIT_USAGE;
	}
	if (geteuid() != 0 && u->uid != geteuid()) {
		fa_diag("--user", "only root can change to user '%s' (the scan "
		    "runs as uid %lu)", name, (unsigned long)geteuid());
		return FA_EXIT_USAGE;
	}
	*drop = geteuid() == 0 && u->uid != 0;
	return 0;
}

/* The child's credentials, for the snapshot's scan.acquired_as. */
static int
note_creds(struct fa_snapshot *snap, const struct fa_priv_user *u)
{
	char *caps = NULL;
	cap_t c = cap_get_proc();
	uint64_t mask = 0;
	cap_flag_value_t v;
	cap_value_t i;
	int r;

	for (i = 0; c != NULL && i <= CAP_LAST_CAP && i < 64; i++)
		if (cap_get_flag(c, i, CAP_EFFECTIVE, &v) == 0 && v)
			mask |= UINT64_C(1) << i;
	cap_free(c);
	if ((caps = fa_caps_names(mask)) == NULL)
		return FA_ERR_NOMEM;
	r = json_object_set_new(json_object_get(snap->meta, "scan"),
	    "acquired_as", json_pack("{s:s, s:I, s:I, s:s}", "user", u->name,
	    "uid", (json_int_t)getuid(), "gid", (json_int_t)getgid(),
	    "capabilities", caps));
	free(caps);
	return r != 0 ? FA_ERR_NOMEM : 0;
}

/*
 * The child: keep the umad ports open, drop to the user (keeping
 * CAP_NET_RAW, and CAP_NET_ADMIN for --active's VLAN devices, while the
 * live Ethernet steps run, none after), acquire, and send the snapshot
 * back on fd (core/snapwire.h).  Never returns.
 */
static void __attribute__((__noreturn__))
acq_child(const struct fa_acq *a, struct fa_snapshot *snap, int fd,
    pid_t parent)
{
	cap_value_t keep[2];
	int nkeep = 0, usable = 0, rc = 0, r;
	struct fa_snapwire_out w;
	char *why = NULL;

	/* An interruption is the parent's to clean up. */
	fa_interrupt_uninstall();
	fa_interrupt_release();
	if (a->ib != NULL && (r = fa_ib_keep_ports(a->ib->ca, a->ib->port,
	    &why)) != 0 && r != FA_ERR_UNAVAIL)
		fa_diag("ib", "%s", why);	/* the scan says why later */
	free(why);
	if (a->run_eth != NULL && !a->eth_file) {
		keep[nkeep++] = CAP_NET_RAW;
		if (a->active)
			keep[nkeep++] = CAP_NET_ADMIN;
	}
	if (fa_priv_drop(a->user, keep, nkeep, &why) != 0) {
		fa_diag(NULL, "%s", why);
		_exit(FA_EXIT_NORUN);
	}
	/* The parent gone (killed), the child goes too. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 ||
	    getppid() != parent)
		_exit(FA_EXIT_NORUN);
	/* The answer (core/snapwire.h): observations as they are final. */
	if (fa_snapwire_open(&w, fd) != 0)
		_exit(FA_EXIT_NORUN);
	snap->flush = fa_snapwire_flush;
	snap->flush_arg = &w;
	if (note_creds(snap, a->user) != 0)
		rc = FA_EXIT_NORUN;
	if (rc == 0 && a->run_eth != NULL)
		rc = a->run_eth(a->arg, snap, &usable);
	if (rc == 0 && fa_priv_clear_caps(&why) != 0) {
		fa_diag(NULL, "%s", why);
		_exit(FA_EXIT_NORUN);
	}
	if (rc == 0 && a->run_ib != NULL)
		rc = a->run_ib(a->arg, snap, &usable);
	if (rc == 0 && fa_deadline_record(snap) != 0)
		rc = FA_EXIT_NORUN;
	if (fa_snapwire_end(&w, snap, rc, usable) != 0) {
		/* The parent says nothing of an answer cut short by us. */
		fa_diag(NULL, "cannot send the scan to the parent: %s",
		    w.why[0] != '\0' ? w.why : "write failed");
		_exit(FA_EXIT_NORUN);
	}
	_exit(0);
}

/*
 * Privilege separation.  The child drops to the user and does the
 * network-facing acquisition, where the fabric's and the wire's answers
 * are parsed; the parent keeps the invoking user's rights for what needs
 * them and faces no network: the host family (which must see the
 * credentials the scan was started with, and root-only files), opening
 * the --pcap file (whose content, the wire's, the child parses from the
 * inherited descriptor) and reading policy files given by that user, and
 * writing the outputs
 * where that user asked (the output and history directories, a root-only
 * signing key), so nothing has to be chowned or opened in advance but
 * mads.pcap, which the caller opens.  What
 * comes back is the snapshot, as typed records (core/snapwire.h), read
 * with the checks of `fabaudit check` (fa_snapshot_head_from_json,
 * fa_snapshot_obs_take).  The capture is written by the child through
 * the inherited descriptor.  0, or an exit status after a diagnostic.
 */
int
fa_acquire_as(const struct fa_acq *a, struct fa_snapshot **snap,
    int *usable)
{
	struct fa_snapshot *ns = NULL;
	char *why = NULL;
	int fds[2], status = 0, rc = FA_EXIT_NORUN, crc = 0, cus = 0;
	int rr, ok;
	pid_t pid, parent = getpid();

	/* Nothing of the capture buffered here is written twice. */
	if (a->ib != NULL && a->ib->capture != NULL &&
	    fa_ib_pcap_sync(a->ib->capture, &why) != 0) {
		fa_diag("ib", "%s", why != NULL ? why :
		    "cannot write mads.pcap");
		free(why);
		return FA_EXIT_NORUN;
	}
	if (pipe2(fds, O_CLOEXEC) != 0) {
		fa_diag(NULL, "pipe: %s", strerror(errno));
		return FA_EXIT_NORUN;
	}
	fflush(NULL);		/* nothing buffered twice */
	fa_interrupt_hold();	/* the child is known before any signal */
	if ((pid = fork()) == 0) {
		close(fds[0]);
		acq_child(a, *snap, fds[1], parent);
	}
	close(fds[1]);
	if (pid > 0)
		fa_interrupt_child(pid);
	fa_interrupt_release();
	if (pid < 0) {
		fa_diag(NULL, "fork: %s", strerror(errno));
		close(fds[0]);
		return FA_EXIT_NORUN;
	}
	rr = fa_snapwire_read(fds[0], FA_SNAPSHOT_MAX_BYTES,
	    4 * (size_t)FA_SNAPSHOT_MAX_BYTES, &ns, &crc, &cus, &why);
	close(fds[0]);		/* a child still writing gets EPIPE */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	fa_interrupt_child(0);
	ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	/*
	 * A child that failed said why, and its answer then stops short; an
	 * answer refused here is said here (the child may have stopped only
	 * because it could no longer write).
	 */
	if (WIFSIGNALED(status))
		fa_diag(NULL, "the acquisition (as user %s) was killed by "
		    "signal %d", a->user->name, WTERMSIG(status));
	else if (rr != 0 && (ok || rr != FA_ERR_IO))
		fa_diag(NULL, "the acquisition (as user %s) sent back no "
		    "usable snapshot%s%s", a->user->name, why != NULL ? ": " :
		    "", why != NULL ? why : "");
	if (!ok || rr != 0)
		goto out;
	fa_snapshot_free(*snap);
	*snap = ns;
	ns = NULL;
	*usable += cus;
	rc = crc;
out:
	fa_snapshot_free(ns);
	free(why);
	return rc;
}

