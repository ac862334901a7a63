/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Unix sockets of the scanning process's network namespace,
 * /proc/net/unix (proc(5); written by unix_seq_show() in the kernel's
 * net/unix/af_unix.c):
 *
 *   Num       RefCount Protocol Flags    Type St Inode Path
 *   0000000000000000: 00000002 00000000 00010000 0001 01 23456 /run/x.sock
 *
 * "%pK: %08X %08X %08X %04X %02X %5lu": the socket's address (zeros
 * under kptr_restrict), reference count, protocol (always 0), flags
 * (__SO_ACCEPTCON, 0x10000, include/linux/net.h, for a listening
 * socket), type (SOCK_STREAM 1, SOCK_DGRAM 2, SOCK_SEQPACKET 5), state
 * (SS_UNCONNECTED 1, SS_CONNECTING 2, SS_CONNECTED 3, SS_DISCONNECTING 4)
 * and inode number, right-aligned in five columns; then, for a bound
 * socket, a space and its name: the path as given to bind(2) (a relative
 * one stays relative), or '@' and an abstract name with each NUL byte
 * shown as '@'.  An abstract socket has no file and no permission bits:
 * any process of the same network namespace may connect to it (unix(7)).
 *
 * Only listening sockets (__SO_ACCEPTCON and SS_UNCONNECTED) are kept;
 * each one's name is identified by fa_host_socket_ident() (host_paths.h).
 * A line that is not understood is skipped and counted, never the whole
 * table thrown away.
 *
 * host.unix     target "/proc/net/unix": {sockets (records read),
 *               listening [{name, abstract, type, inode, class "runtime"|
 *               "other"|"unknown", api?, shown?}] (every identified one,
 *               and the first FA_NET_UNIX_KEEP others), listening_count,
 *               unidentified (listening, name identifies nothing),
 *               skipped [{line, reason}] (the first FA_HOST_LIST_MAX),
 *               skipped_count}.  shown is false when the name held bytes
 *               that had to be escaped to be shown (it is then not the
 *               name's bytes and cannot be looked up).
 *
 * Each listening socket that names a runtime API by a path is then
 * stat'ed through the sysroot into a host.path observation (found_by
 * "/proc/net/unix"): exists false means it listens in this network
 * namespace but its path is not in this mount namespace.
 */
#ifndef FA_HOST_UNIX_H
#define FA_HOST_UNIX_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

#define FA_NET_UNIX_MAX		(32u * 1024 * 1024)
#define FA_NET_UNIX_KEEP	256	/* unidentified listening kept */

/*
 * Decode the text of /proc/net/unix into a new host.unix data object.
 * FA_ERR_INPUT (with *why) only when there is no header line; records
 * that are not understood are counted in it.
 */
int fa_net_unix_decode(const char *text, size_t len, json_t **out,
    char **why);

/* The host.unix observation, and a host.path per runtime socket path. */
int fa_host_collect_unix(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
