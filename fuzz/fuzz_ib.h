/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the InfiniBand fuzz targets (fuzz_ib_*.c): a request answered
 * with the fuzzer's bytes through the engine's own answer handling
 * (fa_mad_set_resp), the key redaction of the capture, and the recording
 * of the outcome as the scanner records it, whose facts must serialise.
 */
#ifndef FA_FUZZ_IB_H
#define FA_FUZZ_IB_H

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/snapshot.h"
#include "core/util.h"
#include "fabric/ib_internal.h"

/*
 * Answer a fresh request of `cls` and `method` with `len` bytes; with
 * `keep_whole` (the scanner's SA GetTables) r->whole is the caller's.
 */
static inline enum fa_mad_outcome
fz_answer(struct fa_mad_req *r, int cls, int method, int keep_whole,
    const uint8_t *mad, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->mgmt_class = cls;
	r->method = method;
	r->keep_whole = keep_whole;
	r->sends = 1;
	r->outcome = fa_mad_set_resp(r, mad, len);
	if (r->resp_len != len || (!keep_whole && r->whole != NULL) ||
	    (r->whole != NULL && memcmp(r->whole, mad, len) != 0))
		abort();
	return r->outcome;
}

/* Serialise `j` (stolen), which must work: valid UTF-8, no NaN. */
static inline void
fz_json_ok(json_t *j)
{
	char *s;

	if (j == NULL)
		return;
	if ((s = json_dumps(j, JSON_COMPACT)) == NULL)
		abort();
	free(s);
	json_decref(j);
}

/*
 * Record r's outcome with the facts `d` (stolen) as the scanner does
 * (fa_ib_add_req_obs, without the mad_status and sends its callers put),
 * then serialise the snapshot.
 */
static inline void
fz_record(const struct fa_mad_req *r, json_t *d, const char *bad, int cut)
{
	struct fa_snapshot *snap;
	struct fa_obs_build b;
	struct fa_ib ib;

	if ((snap = fa_snapshot_new()) == NULL) {
		json_decref(d);
		return;
	}
	memset(&ib, 0, sizeof(ib));
	ib.snap = snap;
	/* The facts of no declared kind: a builder made by hand. */
	b.data = d;
	b.kind = -1;
	b.failed = 0;
	if (d != NULL && fa_ib_add_req_obs(&ib, "ib.fuzz", "fuzz", "fuzz", r,
	    &b, bad, cut) == 0) {
		if (snap->nobs != 1)
			abort();
		fz_json_ok(fa_snapshot_to_json(snap, 0));
		fz_json_ok(fa_snapshot_to_json(snap, 1));
	}
	fa_snapshot_free(snap);
}

/* Whether n bytes at p are all zero. */
static inline int
fz_zero(const uint8_t *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return 0;
	return 1;
}

/*
 * The capture's redaction of an answer (fa_ib_redact_keys): every key
 * field of its class and attribute must read zero afterwards.
 */
static inline void
fz_redact(const uint8_t *mad, size_t len)
{
	uint8_t full[IB_MAD_SIZE];
	unsigned cls, attr;

	memset(full, 0, sizeof(full));
	memcpy(full, mad, len < sizeof(full) ? len : sizeof(full));
	fa_ib_redact_keys(full);
	cls = full[1];
	attr = (unsigned)(full[16] << 8 | full[17]);
	if (cls == IB_SA_CLASS) {
		if (!fz_zero(full + 36, 8))
			abort();
		return;
	}
	if (!fz_zero(full + 24, 8))
		abort();
	if ((cls == IB_SMI_CLASS || cls == IB_SMI_DIRECT_CLASS) &&
	    ((attr == IB_ATTR_SMINFO && !fz_zero(full + IB_SMP_DATA_OFFS + 8,
	    8)) || (attr == IB_ATTR_PORT_INFO &&
	    !fz_zero(full + IB_SMP_DATA_OFFS, 8))))
		abort();
	if (cls == IB_CC_CLASS && attr == IB_CC_ATTR_CONGESTION_KEY_INFO &&
	    !fz_zero(full + IB_CC_DATA_OFFS, 8))
		abort();
}

#endif
