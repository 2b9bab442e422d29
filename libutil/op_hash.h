/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hash functions for in-memory tables: FNV-1a for strings and byte runs,
 * and a 64-bit integer finalizer (from splitmix64) for keys that are
 * already numbers.  Not for on-disk hashes: libdb defines its own, fixed by
 * the OProfile file format.
 */
#ifndef OP_HASH_H
#define OP_HASH_H

#include <stddef.h>
#include <stdint.h>

#define OP_FNV_OFFSET 0xcbf29ce484222325ULL
#define OP_FNV_PRIME 0x100000001b3ULL

/* FNV-1a over len bytes, continuing from h (start with OP_FNV_OFFSET) */
static inline uint64_t op_hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= OP_FNV_PRIME;
	}
	return h;
}

/* FNV-1a of a NUL-terminated string */
static inline uint64_t op_hash_str(const char *s)
{
	uint64_t h = OP_FNV_OFFSET;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= OP_FNV_PRIME;
	}
	return h;
}

/* mix all 64 bits of x into all 64 bits of the result */
static inline uint64_t op_hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* combine a running hash with one more 64-bit value */
static inline uint64_t op_hash_combine(uint64_t h, uint64_t v)
{
	return op_hash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

#endif
