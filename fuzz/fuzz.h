/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The libFuzzer entry point every fuzz/fuzz_*.c defines.  The fuzz build
 * force-includes this file (-include fuzz/fuzz.h), so a target needs no
 * prototype of its own to pass -Wmissing-prototypes.
 */
#ifndef FA_FUZZ_H
#define FA_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Targets that give each run one of several renderers (chosen by the
 * input) give it all of them when FA_FUZZ_EVERY_RENDERER is set:
 * fuzz/run.sh sets it to replay the regression inputs, so an input kept
 * for one renderer's bug still reaches that renderer.
 */
#include <stdlib.h>

static inline int
fz_every_renderer(void)
{
	static int every = -1;

	if (every < 0)
		every = getenv("FA_FUZZ_EVERY_RENDERER") != NULL;
	return every;
}

#endif
