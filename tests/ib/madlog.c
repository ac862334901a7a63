/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test-only LD_PRELOAD shim: logs every MAD a process sends through
 * libibumad (management class, method, attribute, modifier, M_Key field)
 * to the file named by $FA_MADLOG, then sends it.  The scenario tests use
 * it, loaded before libumad2sim.so, to prove the default scan sends only
 * Get methods.  Not part of the product.  The log is opened when the shim
 * is loaded: a scan started as root sends from a child that has dropped
 * to nobody, which could no longer open it.
 *
 * MAD common header (IBA vol. 1 13.4.2): byte 1 MgmtClass, byte 3 Method,
 * bytes 16-17 AttributeID, bytes 20-23 AttributeModifier; for SMPs the
 * M_Key is bytes 24-31.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <infiniband/umad.h>

typedef int (*send_fn)(int, int, void *, int, int, int);

static int logfd = -1;

static void __attribute__((constructor))
madlog_open(void)
{
	const char *path = getenv("FA_MADLOG");

	if (path != NULL)
		logfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		    0600);
}

int
umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
    int retries)
{
	static send_fn real;
	const uint8_t *m;
	char line[160];
	uint64_t mkey = 0;
	int n, i;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "umad_send");
	if (real == NULL)
		return -1;
	m = umad_get_mad(umad);
	if (logfd >= 0 && m != NULL && length >= 32) {
		for (i = 24; i < 32; i++)
			mkey = mkey << 8 | m[i];
		n = snprintf(line, sizeof(line), "class=0x%02x method=0x%02x "
		    "attr=0x%04x mod=0x%08x mkey=0x%016llx\n", m[1], m[3],
		    m[16] << 8 | m[17], (unsigned)(m[20] << 24 | m[21] << 16 |
		    m[22] << 8 | m[23]), (unsigned long long)mkey);
		if (n > 0 && write(logfd, line, (size_t)n) < 0)
			n = 0;
	}
	return real(portid, agentid, umad, length, timeout_ms, retries);
}
