/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * umad ports opened before the scanner drops its privileges (see
 * core/privdrop.h): /dev/infiniband/umadN is usually root's (or a group's)
 * alone, and libibnetdisc and libibmad open it themselves, later, by name.
 * ib_portkeep.c keeps a few open descriptors of one port and hands them
 * out when either library asks for that port.
 */
#ifndef FA_FABRIC_IB_PORTKEEP_H
#define FA_FABRIC_IB_PORTKEEP_H

/*
 * Open the port `ca`/`port` (NULL/0: the first active, as the scan would
 * pick) now, FA_IB_KEPT_PORTS times.  0, or FA_ERR_UNAVAIL / FA_ERR_IO
 * with *why (a new string): the scan then goes on and records the IB
 * family as unavailable, as it would have found it.
 */
#define FA_IB_KEPT_PORTS	2
int fa_ib_keep_ports(const char *ca, int port, char **why);

/* How many opens were served from the kept descriptors (for tests). */
unsigned long fa_ib_kept_served(void);

#endif
