/*
 * libFuzzer target: one Ethernet frame as the analyser sees it.  Drives
 * fabric/eth_frame.c fa_eth_decode and fa_eth_signal_guess, and the
 * capture aggregator fabric/eth_capture.c fa_eth_agg_frame /
 * fa_eth_agg_finish, which summarise frames into an eth.capture
 * observation.
 *
 * Input: a 5-byte header, then the frame bytes.
 *   byte 0    flags: bit 0 the kernel moved a VLAN tag to metadata
 *             (PACKET_AUXDATA, tp_status TP_STATUS_VLAN_VALID); bit 1 its
 *             TPID is given (TP_STATUS_VLAN_TPID_VALID), else 0x8100;
 *             bit 2 the frame was cut by the snap length (wire length
 *             larger than captured)
 *   bytes 1-2 the tag's TCI (big-endian), bytes 3-4 its TPID
 * As libpcap does on Linux (pcap-linux.c), a tag from metadata is put
 * back into the bytes after the two MAC addresses, when there are 12.
 * The frame goes through the aggregator twice (once exactly as given, so
 * the second time is a duplicate) and the summary is serialised.
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_snapshot *snap;
	struct fa_eth_agg *a;
	json_t *facts = NULL, *j;
	uint8_t *fr;
	char *why = NULL, *s;
	size_t n, wire;
	unsigned tpid = 0;
	int r, i;

	if (size < HDR)
		return 0;
	n = size - HDR;
	if ((fr = malloc(n + 4 + 1)) == NULL)
		abort();
	if ((data[0] & 1) && n >= MACS) {
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
	wire = (data[0] & 4) ? n + 100 : n;

	r = fa_eth_decode(fr, n, &facts, &why);
	if (r == 0) {
		/* A decoded frame always says what it is. */
		if (!json_is_object(facts) ||
		    json_string_value(json_object_get(facts, "signal")) ==
		    NULL || why != NULL)
			abort();
		/* The tag from metadata is the outer one, as on the wire. */
		if ((tpid == 0x8100 || tpid == 0x88a8 || tpid == 0x9100 ||
		    tpid == 0x9200) && json_integer_value(json_object_get(
		    json_array_get(json_object_get(facts, "tags"), 0),
		    "vid")) != ((data[1] << 8 | data[2]) & 0x0fff))
			abort();
		if ((s = json_dumps(facts, JSON_COMPACT)) == NULL)
			abort();
		free(s);
	} else if (r == FA_ERR_INPUT) {
		if (why == NULL || facts != NULL)
			abort();
	} else if (r != FA_ERR_NOMEM)
		abort();
	json_decref(facts);
	free(why);
	(void)fa_eth_signal_guess(fr, n);

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
