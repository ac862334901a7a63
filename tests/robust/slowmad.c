/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test-only LD_PRELOAD shim: every MAD a process sends through libibumad
 * waits first, so that a scan of a small simulated fabric lasts long
 * enough for --max-time to stop it in a chosen phase
 * (tests/robust/test_maxtime.sh): $FA_SLOWMAD_DR_MS milliseconds for a
 * directed-route SMP (management class 0x81: discovery), $FA_SLOWMAD_MS
 * for any other (the audit's LID-routed SMPs and GMPs).  The class is byte
 * 1 of the MAD header (IBA vol. 1 13.4.2).  Not part of the product.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <infiniband/umad.h>

typedef int (*send_fn)(int, int, void *, int, int, int);

int umad_send(int portid, int agentid, void *umad, int length,
    int timeout_ms, int retries);

int
umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
    int retries)
{
	static send_fn real;
	const struct ib_user_mad *um = umad;
	const uint8_t *mad = (const uint8_t *)um->data;
	struct timespec ts;
	const char *v;
	long ms;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "umad_send");
	if (real == NULL)
		return -1;
	v = getenv(length >= 2 && mad[1] == 0x81 ? "FA_SLOWMAD_DR_MS" :
	    "FA_SLOWMAD_MS");
	ms = v != NULL ? strtol(v, NULL, 10) : 0;
	if (ms > 0 && ms < 10000) {
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (ms % 1000) * 1000000L;
		nanosleep(&ts, NULL);
	}
	return real(portid, agentid, umad, length, timeout_ms, retries);
}
