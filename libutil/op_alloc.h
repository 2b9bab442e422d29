/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checked allocation.  Every allocation in the project goes through here so
 * that tests can make the k-th one fail (op_alloc_fail_at()).
 *
 * op_malloc() and friends return NULL on failure (libdb and events turn that
 * into -ENOMEM); the op_x* forms print "out of memory" and exit(1), for
 * libpp, daemon and pp.  Memory from either is freed with free().
 *
 * Sizes are multiplied and added through op_mul_size()/op_add_size(), which
 * report overflow instead of wrapping.
 */
#ifndef OP_ALLOC_H
#define OP_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* *out = a * b; returns false (and leaves *out alone) on overflow */
static inline bool op_mul_size(size_t a, size_t b, size_t *out)
{
	size_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return false;
	*out = r;
	return true;
}

/* *out = a + b; returns false (and leaves *out alone) on overflow */
static inline bool op_add_size(size_t a, size_t b, size_t *out)
{
	size_t r;

	if (__builtin_add_overflow(a, b, &r))
		return false;
	*out = r;
	return true;
}

/* NULL on failure; size 0 allocates one byte so NULL always means failure */
void *op_malloc(size_t size);
/* zeroed nmemb * size bytes; NULL on failure or overflow */
void *op_calloc(size_t nmemb, size_t size);
/*
 * op_calloc() for memory read before it is all written (a hash table, a
 * cache): zeroed by writing, not left to the kernel.  A fresh calloc()ed
 * page read first is mapped to the shared zero page and copied on the
 * first store: two faults, the second flushing the TLBs of the other
 * CPUs running the process's threads.
 */
void *op_calloc_written(size_t nmemb, size_t size);
/* like realloc(); on failure returns NULL and leaves ptr untouched */
void *op_realloc(void *ptr, size_t size);
/* realloc() to nmemb * size bytes, NULL on overflow or failure */
void *op_reallocarray(void *ptr, size_t nmemb, size_t size);
/* a copy of s (of at most n bytes of s for op_strndup); NULL on failure */
char *op_strdup(const char *s);
char *op_strndup(const char *s, size_t n);

/* the same, but exit(1) with "out of memory" instead of returning NULL */
void *op_xmalloc(size_t size);
void *op_xcalloc(size_t nmemb, size_t size);
void *op_xcalloc_written(size_t nmemb, size_t size);
void *op_xrealloc(void *ptr, size_t size);
void *op_xreallocarray(void *ptr, size_t nmemb, size_t size);
char *op_xstrdup(const char *s);
char *op_xstrndup(const char *s, size_t n);

/*
 * Scratch memory of megabytes that goes back to the system when freed:
 * mapped and unmapped, never kept by malloc (whose arenas keep freed
 * memory, a thread's arena for that thread alone).  For temporary arrays
 * a thread builds and drops.  The memory is zeroed.  op_scratch_realloc()
 * keeps the contents (old_size bytes) like realloc(); on failure it
 * returns NULL and leaves p as it was.  Sizes are the ones allocated;
 * op_scratch_free() of NULL does nothing.  Failures are injected as for
 * the other allocations.
 */
void *op_scratch_alloc(size_t size);
void *op_scratch_realloc(void *p, size_t old_size, size_t size);
void op_scratch_free(void *p, size_t size);

/*
 * Failure injection for tests.  After op_alloc_fail_at(k) with k >= 1, the
 * k-th allocation from now fails (and, with op_alloc_fail_at_repeat(), every
 * one after it too); k = 0 turns injection off.  op_alloc_count() returns
 * how many allocations were attempted since the last op_alloc_fail_at().
 */
void op_alloc_fail_at(unsigned long k);
void op_alloc_fail_at_repeat(unsigned long k);
unsigned long op_alloc_count(void);

#endif
