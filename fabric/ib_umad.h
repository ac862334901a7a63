/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libibumad's umad_send() and umad_recv() themselves, for the code of
 * this program.  The program defines umad_send() and umad_recv() too
 * (ib_tap.c), so that the calls libibnetdisc makes come to its discovery
 * tap; a call by that name from this program would bind to the tap as
 * well.  The MAD engine (ib_mad.c) and the tap, once it has done its
 * work, call these instead: the next definition in the dynamic linker's
 * order (libibumad's, or a preloaded simulator's such as umad2sim),
 * found once with dlsym(RTLD_NEXT).  The engine's MADs, and its capture
 * of them, never pass through the tap.
 */
#ifndef FA_IB_UMAD_H
#define FA_IB_UMAD_H

/* As umad_send(3) and umad_recv(3); -1 with errno ENOSYS when libibumad's
 * definition cannot be found. */
int fa_umad_send(int portid, int agentid, void *umad, int length,
    int timeout_ms, int retries);
int fa_umad_recv(int portid, void *umad, int *length, int timeout_ms);

#endif
