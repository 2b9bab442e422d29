/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The entry point every fuzz target defines (libFuzzer's signature). */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
