/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the GMP answers of the IB scan's probes, through the
 * engine's answer handling (fa_mad_set_resp, fa_mad_data in ib_mad.c):
 * Congestion Control Get(CongestionKeyInfo), decoded by
 * fa_ib_cc_keyinfo_decode (ib_gmpkeys.c); the Mellanox vendor class 0x0A
 * Get(GeneralInfo) and SHARP AM 0x0B Get(ClassPortInfo) key probes
 * (ib_gmpkeys.c) and the PerfMgt Get(ClassPortInfo) of --active
 * (ib_gmp_reach.c), whose answers count by their status only; and the
 * baseboard management class, which the engine opens.  Each is recorded
 * as the scanner records it, and redacted as the capture redacts it.
 * Input: byte 0 chooses the request (0 CC, 1 VS, 2 AM, 3 PerfMgt, 4 BM,
 * modulo 5); the rest is the answer as umad hands it over.
 */
#include "fuzz/fuzz_ib.h"

static const int classes[] = { IB_CC_CLASS, 0x0a, 0x0b,
    IB_PERFORMANCE_CLASS, IB_BOARD_MGMT_CLASS };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_mad_req r;
	const uint8_t *d;
	int cls;
	struct fa_ib_cc_keyinfo k;
	json_t *o;

	if (size < 1 + 24)
		return 0;
	cls = classes[data[0] % (sizeof(classes) / sizeof(classes[0]))];
	fz_redact(data + 1, size - 1);
	fz_answer(&r, cls, IB_MAD_METHOD_GET, 0, data + 1, size - 1);
	d = fa_mad_data(&r);
	/* The data is at the class's offset: 32 for the vendor classes
	 * 0x09-0x0F (after the 8-byte key), 64 for CC, PerfMgt and BM. */
	if (d != r.resp + (cls == 0x0a || cls == 0x0b ? 32 : 64))
		abort();
	if ((o = json_pack("{s:i}", "class", cls)) == NULL)
		return 0;
	if (r.outcome == FA_MAD_ANSWERED && cls == IB_CC_CLASS) {
		fa_ib_cc_keyinfo_decode(d, &k);
		/* A 1-bit field and two 16-bit ones (Annex A10.4.3). */
		if (k.protect > 1 || k.lease > 0xffff || k.violations > 0xffff)
			abort();
		if (json_object_set_new(o, "lease",
		    json_integer(k.lease)) != 0) {
			json_decref(o);
			return 0;
		}
	}
	fz_record(&r, o, NULL, 0);
	return 0;
}
