/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the SMP answers the IB scan decodes (fabric/ib_smp_decode.c
 * through the engine's answer handling, fa_mad_set_resp in ib_mad.c):
 * NodeInfo (ib_local.c), NodeDescription (fa_str_sanitize), PortInfo of a
 * CA port or switch port 0 and of a switch's external port
 * (ib_discover.c), a P_KeyTable block (ib_pkeys.c, ib_pkeys_remote.c),
 * SMInfo (ib_sminfo.c), and the capture's key redaction (ib_mad.c).
 * Input: byte 0 chooses what was asked (low 3 bits: 0 NodeInfo, 1
 * NodeDescription, 2 PortInfo, 3 PortInfo of a switch external port,
 * 4 P_KeyTable, 5 SMInfo; bit 3: sent by directed route, whose status
 * has the D bit); the rest is the answer as umad hands it over (the MAD,
 * from byte 0 of its header).
 */
#include "fuzz/fuzz_ib.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_mad_req r;
	struct fa_ib_nodeinfo ni;
	struct fa_ib_sminfo smi;
	uint16_t keep[FA_IB_PKEYS_PER_BLOCK];
	const uint8_t *smp;
	unsigned sel;
	json_t *d, *pk;
	char *s;

	if (size < 1 + 24)	/* the engine drops shorter answers */
		return 0;
	sel = data[0];
	fz_redact(data + 1, size - 1);
	if (fz_answer(&r, sel & 8 ? IB_SMI_DIRECT_CLASS : IB_SMI_CLASS,
	    IB_MAD_METHOD_GET, 0, data + 1, size - 1) != FA_MAD_ANSWERED) {
		/* Not decoded: recorded with its status. */
		if ((s = fa_ib_smp_reason(FA_SMP_STATUS, r.status & 0x7fff)) ==
		    NULL)
			return 0;
		free(s);
		fz_record(&r, json_object(), NULL, 0);
		return 0;
	}
	smp = fa_mad_data(&r);
	if (smp != r.resp + IB_SMP_DATA_OFFS)
		abort();
	d = json_object();
	if (d == NULL)
		return 0;
	switch (sel & 7) {
	case 0:
		fa_ib_nodeinfo_decode(smp, &ni);
		if (json_object_set_new(d, "partition_cap",
		    json_integer(ni.partition_cap)) != 0 ||
		    fa_json_set_u64(d, "node_guid", ni.node_guid) != 0)
			break;
		if ((s = fa_ib_target(ni.node_type, ni.node_guid, 1)) != NULL &&
		    json_object_set_new(d, "target", json_string(s)) != 0)
			abort();
		free(s);
		break;
	case 1:
		/* NodeDescription: 64 bytes, any of them hostile. */
		if ((s = fa_str_sanitize(smp, IB_SMP_DATA_SIZE)) == NULL)
			break;
		if (json_object_set_new(d, "node_desc", json_string(s)) != 0)
			abort();	/* sanitised text is valid UTF-8 */
		free(s);
		break;
	case 2:
	case 3:
		(void)fa_ib_portinfo_json(d, smp, (sel & 7) == 3);
		break;
	case 4:
		if ((pk = json_array()) == NULL ||
		    json_object_set_new(d, "pkeys", pk) != 0 ||
		    fa_ib_pkeys_json(pk, smp, FA_IB_PKEYS_PER_BLOCK, keep,
		    FA_IB_PKEYS_PER_BLOCK) != 0)
			break;
		if (json_array_size(pk) > FA_IB_PKEYS_PER_BLOCK ||
		    keep[0] != (uint16_t)(smp[0] << 8 | smp[1]))
			abort();
		break;
	default:
		fa_ib_sminfo_decode(smp, &smi);
		if (smi.priority > 15 || smi.state > 15 ||
		    json_object_set_new(d, "priority",
		    json_integer(smi.priority)) != 0)
			abort();
		break;
	}
	fz_record(&r, d, NULL, 0);
	return 0;
}
