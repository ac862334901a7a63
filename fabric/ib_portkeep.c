/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kept umad ports (see ib_portkeep.h).  Like the discovery tap (ib_tap.c),
 * this file defines libibumad's umad_open_port() and umad_close_port() in
 * the program, so that the calls libibnetdisc (smp_engine_init) and
 * libibmad (mad_rpc_open_port) make bind here; each hands out a kept
 * descriptor of the port asked for, and otherwise passes the call on to
 * the next definition (dlsym RTLD_NEXT: libibumad, or a preloaded
 * simulator such as umad2sim).
 *
 * A kept descriptor is never closed while the program runs, so its MAD
 * agents would outlive the user that "closed" it: the close unregisters
 * every agent id a descriptor can hold instead (the kernel's limit,
 * IB_UMAD_MAX_AGENTS, is 32), so the next user starts clean.  Answers
 * that were still queued for the old agents reach the next user as
 * strays, which both the engine and libibnetdisc drop by TID.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/umad.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_portkeep.h"

#define UMAD_MAX_AGENTS	32	/* linux/drivers/infiniband/core/user_mad.c */

typedef int (*open_fn)(const char *, int);
typedef int (*close_fn)(int);

static struct {
	char		ca[UMAD_CA_NAME_LEN];
	int		port;
	int		fd[FA_IB_KEPT_PORTS];
	int		used[FA_IB_KEPT_PORTS];
	int		n;
	unsigned long	served;
} keep;

static open_fn
next_open(void)
{
	static open_fn next;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "umad_open_port");
	return next;
}

static close_fn
next_close(void)
{
	static close_fn next;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "umad_close_port");
	return next;
}

int
fa_ib_keep_ports(const char *ca, int port, char **why)
{
	open_fn op = next_open();
	umad_port_t up;
	int i, fd;

	*why = NULL;
	if (op == NULL) {
		*why = fa_strdup("libibumad's umad_open_port not found");
		return FA_ERR_UNAVAIL;
	}
	if (umad_init() < 0) {
		*why = fa_strdup("libibumad could not initialise");
		return FA_ERR_UNAVAIL;
	}
	memset(&up, 0, sizeof(up));
	if (umad_get_port(ca, port, &up) < 0) {
		*why = fa_strdup("no usable InfiniBand port (umad)");
		return FA_ERR_UNAVAIL;
	}
	snprintf(keep.ca, sizeof(keep.ca), "%s", up.ca_name);
	keep.port = up.portnum;
	umad_release_port(&up);
	for (i = keep.n; i < FA_IB_KEPT_PORTS; i++) {
		if ((fd = op(keep.ca, keep.port)) < 0) {
			*why = fa_strfmt("%s port %d: cannot open its umad "
			    "device: %s", keep.ca, keep.port, strerror(-fd));
			return FA_ERR_IO;
		}
		keep.fd[keep.n] = fd;
		keep.used[keep.n++] = 0;
	}
	return 0;
}

unsigned long
fa_ib_kept_served(void)
{
	return keep.served;
}

int
umad_open_port(const char *ca_name, int portnum)
{
	open_fn op = next_open();
	int i;

	if (keep.n > 0 && (ca_name == NULL || *ca_name == '\0' ||
	    strcmp(ca_name, keep.ca) == 0) &&
	    (portnum == 0 || portnum == keep.port))
		for (i = 0; i < keep.n; i++)
			if (!keep.used[i]) {
				keep.used[i] = 1;
				keep.served++;
				return keep.fd[i];
			}
	return op != NULL ? op(ca_name, portnum) : -ENODEV;
}

int
umad_close_port(int portid)
{
	close_fn cl = next_close();
	int i, a;

	for (i = 0; i < keep.n; i++)
		if (keep.used[i] && keep.fd[i] == portid) {
			for (a = 0; a < UMAD_MAX_AGENTS; a++)
				(void)umad_unregister(portid, a);
			keep.used[i] = 0;
			return 0;
		}
	return cl != NULL ? cl(portid) : -EBADF;
}
