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

#endif
