/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libibumad's send and receive past this program's own definitions of
 * them (ib_umad.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "ib_umad.h"

typedef int (*send_fn)(int, int, void *, int, int, int);
typedef int (*recv_fn)(int, void *, int *, int);

/* Looked up once (pthread_once), then only read. */
static send_fn next_send;
static recv_fn next_recv;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
look_up(void)
{
	*(void **)&next_send = dlsym(RTLD_NEXT, "umad_send");
	*(void **)&next_recv = dlsym(RTLD_NEXT, "umad_recv");
}

int
fa_umad_send(int portid, int agentid, void *umad, int length,
    int timeout_ms, int retries)
{
	(void)pthread_once(&once, look_up);
	if (next_send == NULL) {
		errno = ENOSYS;
		return -1;	/* not an error: umad_send(3)'s own -1 */
	}
	return next_send(portid, agentid, umad, length, timeout_ms, retries);
}

int
fa_umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	(void)pthread_once(&once, look_up);
	if (next_recv == NULL) {
		errno = ENOSYS;
		return -1;	/* not an error: umad_recv(3)'s own -1 */
	}
	return next_recv(portid, umad, length, timeout_ms);
}
