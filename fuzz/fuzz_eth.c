/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: one Ethernet frame as the analyser sees it.  Drives
 * fabric/eth_frame.c fa_eth_decode (Ethernet, whole or cut) and
 * fa_eth_decode_l2 (LINUX_SLL "cooked" semantics), and the capture
 * aggregator fabric/eth_capture.c fa_eth_agg_frame / fa_eth_agg_finish,
 * which summarise frames into an eth.capture observation.
 *
 * Input: a 5-byte header, then the frame bytes.
 *   byte 0    flags: bit 0 the kernel moved a VLAN tag to metadata
 *             (PACKET_AUXDATA, tp_status TP_STATUS_VLAN_VALID); bit 1 its
 *             TPID is given (TP_STATUS_VLAN_TPID_VALID), else 0x8100;
 *             bit 2 the frame was cut by the snap length (wire length
 *             larger than captured); bit 3 also decode it as a cooked
 *             (LINUX_SLL) frame: no destination, the source in the first
 *             6 bytes, the protocol field after them
 *   bytes 1-2 the tag's TCI (big-endian), bytes 3-4 its TPID
 * As libpcap does on Linux (pcap-linux.c), a tag from metadata is put
 * back into the bytes after the two MAC addresses, when there are 12.
 * The frame is decoded from an exact-size copy (a sanitizer sees any
 * overread), then goes through the aggregator twice (once exactly as
 * given, so the second time is a duplicate) and the summary is
 * serialised.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/errors.h"
#include "../core/snapshot.h"
#include "../fabric/eth_capture.h"
#include "../fabric/eth_frame.h"

#define HDR	5
#define MACS	12	/* destination and source address */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The facts of one decode, checked against the decoder's contract. */
static void
check(int r, json_t *facts, const char *why, int cut)
{
	const char *k;
	json_t *v;

	if (r == 0) {
		/* A decoded frame always says what it is. */
		if (!json_is_object(facts) || why != NULL ||
		    json_string_value(json_object_get(facts, "signal")) ==
		    NULL || !json_is_array(json_object_get(facts, "tags")))
			abort();
	} else if (r == FA_ERR_INPUT) {
		if (why == NULL)
			abort();
		/* A refused frame: its tags, addresses and signal only. */
		if (facts != NULL) {
			if (!json_is_array(json_object_get(facts, "tags")))
				abort();
			json_object_foreach(facts, k, v)
				if (strcmp(k, "tags") != 0 &&
				    strcmp(k, "src") != 0 &&
				    strcmp(k, "dst") != 0 &&
				    strcmp(k, "signal") != 0)
					abort();
		}
	} else if (r != FA_ERR_NOMEM)
		abort();
	/* Only a cut frame is truncated. */
	if (!cut && json_object_get(facts, "truncated") != NULL)
		abort();
	if (facts != NULL) {
		char *s = json_dumps(facts, JSON_COMPACT);

		if (s == NULL)
			abort();
		free(s);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_snapshot *snap;
	struct fa_eth_agg *a;
	struct fa_eth_l2 l2;
	json_t *facts = NULL, *j, *t0;
	uint8_t *fr;
	char *why = NULL, *s;
	size_t n, wire;
	unsigned tpid = 0;
	int r, i, tag;

	if (size < HDR)
		return 0;
	n = size - HDR;
	tag = (data[0] & 1) && n >= MACS;
	if ((fr = malloc(n + (tag ? 4 : 0) + 1)) == NULL)
		abort();
	if (tag) {
		memcpy(fr, data + HDR, MACS);
		if (data[0] & 2) {
			fr[MACS] = data[3];
			fr[MACS + 1] = data[4];
		} else {
			fr[MACS] = 0x81;
			fr[MACS + 1] = 0x00;
		}
		fr[MACS + 2] = data[1];
		fr[MACS + 3] = data[2];
		memcpy(fr + MACS + 4, data + HDR + MACS, n - MACS);
		n += 4;
		tpid = (unsigned)fr[MACS] << 8 | fr[MACS + 1];
	} else if (n > 0)
		memcpy(fr, data + HDR, n);
	/* An exact-size copy for the decoder. */
	if ((fr = realloc(fr, n > 0 ? n : 1)) == NULL)
		abort();
	wire = (data[0] & 4) ? n + 100 : n;

	r = fa_eth_decode(fr, n, wire, &facts, &why);
	check(r, facts, why, wire > n);
	if (n < 14 && facts != NULL)
		abort();
	/* The tag from metadata is the outer one, as on the wire (an ISL
	 * frame's outer tag is its own). */
	if (r == 0 && (tpid == 0x8100 || tpid == 0x88a8 || tpid == 0x9100 ||
	    tpid == 0x9200) && !((fr[0] == 0x01 || fr[0] == 0x03) &&
	    fr[1] == 0x00 && fr[2] == 0x0c && fr[3] == 0x00 && fr[4] == 0x00)) {
		t0 = json_array_get(json_object_get(facts, "tags"), 0);
		if (json_integer_value(json_object_get(t0, "vid")) !=
		    ((data[1] << 8 | data[2]) & 0x0fff))
			abort();
	}
	json_decref(facts);
	free(why);
	facts = NULL;
	why = NULL;

	if (data[0] & 8) {
		l2.dst = NULL;
		l2.src = n >= 6 ? fr : NULL;
		l2.p = n >= 6 ? fr + 6 : fr;
		l2.len = n >= 6 ? n - 6 : n;
		l2.cut = wire > n;
		l2.cooked = 1;
		r = fa_eth_decode_l2(&l2, &facts, &why);
		check(r, facts, why, l2.cut);
		if (r != FA_ERR_NOMEM && (facts == NULL ||
		    !json_is_null(json_object_get(facts, "dst"))))
			abort();
		json_decref(facts);
		free(why);
	}

	if ((snap = fa_snapshot_new()) == NULL ||
	    (a = fa_eth_agg_new("fuzz", "file")) == NULL)
		abort();
	for (i = 0; i < 2; i++)
		if (fa_eth_agg_frame(a, fr, n, wire) != 0)
			abort();
	if (fa_eth_agg_finish(a, snap, FA_OBS_COMPLETE, NULL, -1) != 0 ||
	    snap->nobs != 1)
		abort();
	if ((j = fa_snapshot_to_json(snap, 0)) == NULL)
		abort();
	if ((s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS)) == NULL)
		abort();
	free(s);
	json_decref(j);
	fa_snapshot_free(snap);
	free(fr);
	return 0;
}
