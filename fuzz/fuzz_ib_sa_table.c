/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: fa_sa_table_parse() (fabric/ib_sa_table.c), the framing of
 * an SA GetTable answer (MAD header, RMPP header, SA header, records).
 * Input: byte 0 is the minimum record size the caller asks for (0-255),
 * the rest the SA message as the kernel hands it over (one MAD or a
 * reassembled RMPP transfer of any length).
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/ib_sa_table.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_sa_table t;
	const char *bad;
	uint8_t *msg;
	unsigned min;

	if (size < 1)
		return 0;
	min = data[0];
	/* A copy of exactly the message, so ASan sees any over-read. */
	msg = malloc(size - 1 ? size - 1 : 1);
	if (msg == NULL)
		return 0;
	memcpy(msg, data + 1, size - 1);
	if (fa_sa_table_parse(msg, size - 1, min, &t, &bad) == 0) {
		/* Every record it reports lies inside the message. */
		if (t.n > 0 && (t.recs < msg || t.recsz < min ||
		    (size_t)(t.recs - msg) + (size_t)t.n * t.recsz > size - 1))
			abort();
		if (!t.complete && t.why == NULL)
			abort();
	} else if (bad == NULL)
		abort();
	free(msg);
	return 0;
}
