/*
 * The discovery tap: libibnetdisc sends and receives its SMPs itself, so to
 * put them in mads.pcap too, this file defines libibumad's umad_send() and
 * umad_recv() in the program.  The dynamic linker binds libibnetdisc's
 * calls to these (the executable comes first in symbol lookup); each hands
 * over to the next definition (dlsym RTLD_NEXT: an LD_PRELOADed library,
 * or libibumad itself) and, while a tap is open, copies the MAD to the
 * capture.  The tap is open only around ibnd_discover_fabric(): the
 * engine captures its own MADs.
 *
 * This is the one process-wide state in fabric/: libibnetdisc offers no
 * hook, and the alternative is to leave discovery out of the capture.
 */
#include <dlfcn.h>
#include <stddef.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "ib_mad.h"
#include "ib_tap.h"

typedef int (*send_fn)(int, int, void *, int, int, int);
typedef int (*recv_fn)(int, void *, int *, int);

static struct {
	struct fa_ib_pcap	*pcap;	/* NULL: closed */
	uint16_t		 lid;
	int			 reveal;
	unsigned long		 n;
} tap;

void
fa_ib_tap_open(struct fa_ib_pcap *pcap, uint16_t own_lid, int reveal)
{
	tap.pcap = pcap;
	tap.lid = own_lid;
	tap.reveal = reveal;
	tap.n = 0;
}

unsigned long
fa_ib_tap_close(void)
{
	unsigned long n = tap.n;

	tap.pcap = NULL;
	tap.n = 0;
	return n;
}

static void
tap_mad(enum fa_pcap_dir dir, void *umad, int len)
{
	const uint8_t *mad;
	ib_mad_addr_t *addr;
	uint16_t peer;
	int cls;

	if (tap.pcap == NULL || umad == NULL || len < 24)
		return;
	mad = umad_get_mad(umad);
	addr = umad_get_mad_addr(umad);
	cls = mad[1];
	peer = cls == IB_SMI_DIRECT_CLASS || addr == NULL ? 0xffff :
	    (uint16_t)(((addr->lid & 0xff) << 8) | ((addr->lid >> 8) & 0xff));
	fa_ib_capture(tap.pcap, dir, cls, peer, tap.lid, tap.reveal, mad,
	    (size_t)len);
	tap.n++;
}

int
umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
    int retries)
{
	static send_fn next;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "umad_send");
	if (next == NULL)
		return -1;
	tap_mad(FA_PCAP_SENT, umad, length);
	return next(portid, agentid, umad, length, timeout_ms, retries);
}

int
umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	static recv_fn next;
	int r;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "umad_recv");
	if (next == NULL)
		return -1;
	r = next(portid, umad, length, timeout_ms);
	/* A send that came back unanswered (status set) is no answer. */
	if (r >= 0 && length != NULL && umad_status(umad) == 0)
		tap_mad(FA_PCAP_RECEIVED, umad, *length);
	return r;
}
