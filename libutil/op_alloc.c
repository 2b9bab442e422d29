// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation wrappers with overflow checks and a failure-injection hook
 * (modelled on SQLite's test_malloc: fail the k-th call, then optionally
 * every later one).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "libutil/op_alloc.h"
#include "libutil/op_error.h"

/* test hook state; relaxed atomics so threads in a test don't race on it */
static unsigned long alloc_calls;
static unsigned long alloc_fail_at;
static bool alloc_fail_repeat;

void op_alloc_fail_at(unsigned long k)
{
	__atomic_store_n(&alloc_calls, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&alloc_fail_repeat, false, __ATOMIC_RELAXED);
	__atomic_store_n(&alloc_fail_at, k, __ATOMIC_RELAXED);
}

void op_alloc_fail_at_repeat(unsigned long k)
{
	op_alloc_fail_at(k);
	__atomic_store_n(&alloc_fail_repeat, true, __ATOMIC_RELAXED);
}

unsigned long op_alloc_count(void)
{
	return __atomic_load_n(&alloc_calls, __ATOMIC_RELAXED);
}

/* true when this allocation should fail */
static bool inject_failure(void)
{
	unsigned long at = __atomic_load_n(&alloc_fail_at, __ATOMIC_RELAXED);
	unsigned long n = __atomic_add_fetch(&alloc_calls, 1, __ATOMIC_RELAXED);

	if (!at)
		return false;
	if (n == at)
		return true;
	return n > at && __atomic_load_n(&alloc_fail_repeat, __ATOMIC_RELAXED);
}

void *op_malloc(size_t size)
{
	if (inject_failure())
		return NULL;
	return malloc(size ? size : 1);
}

void *op_calloc_written(size_t nmemb, size_t size)
{
	size_t total;
	void *p;

	if (!op_mul_size(nmemb, size, &total))
		return NULL;
	if (inject_failure())
		return NULL;
	p = malloc(total ? total : 1);
	if (p)
		memset(p, 0, total);
	return p;
}

void *op_calloc(size_t nmemb, size_t size)
{
	size_t total;

	if (!op_mul_size(nmemb, size, &total))
		return NULL;
	if (inject_failure())
		return NULL;
	return calloc(total ? total : 1, 1);
}

void *op_realloc(void *ptr, size_t size)
{
	if (inject_failure())
		return NULL;
	return realloc(ptr, size ? size : 1);
}

void *op_reallocarray(void *ptr, size_t nmemb, size_t size)
{
	size_t total;

	if (!op_mul_size(nmemb, size, &total))
		return NULL;
	return op_realloc(ptr, total);
}

char *op_strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = op_malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *op_strdup(const char *s)
{
	return op_strndup(s, strlen(s));
}

void *op_scratch_alloc(size_t size)
{
	void *p;

	if (inject_failure())
		return NULL;
	p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void *op_scratch_realloc(void *p, size_t old_size, size_t size)
{
	void *q;

	if (!p)
		return op_scratch_alloc(size);
#ifdef __SANITIZE_THREAD__
	/*
	 * ThreadSanitizer does not follow mremap(): the pages it moves keep
	 * their accesses in its shadow, and a later mapping at that address
	 * by another thread reads as a race.  Under it, scratch memory is
	 * moved by copying.
	 */
	q = op_scratch_alloc(size);
	if (q) {
		memcpy(q, p, old_size < size ? old_size : size);
		op_scratch_free(p, old_size);
	}
	return q;
#else
	if (inject_failure())
		return NULL;
	q = mremap(p, old_size ? old_size : 1, size ? size : 1, MREMAP_MAYMOVE);
	return q == MAP_FAILED ? NULL : q;
#endif
}

void op_scratch_free(void *p, size_t size)
{
	if (p)
		munmap(p, size ? size : 1);
}

static void *must(void *p)
{
	if (!p)
		op_die(1, "out of memory");
	return p;
}

void *op_xmalloc(size_t size)
{
	return must(op_malloc(size));
}

void *op_xcalloc(size_t nmemb, size_t size)
{
	return must(op_calloc(nmemb, size));
}

void *op_xcalloc_written(size_t nmemb, size_t size)
{
	return must(op_calloc_written(nmemb, size));
}

void *op_xrealloc(void *ptr, size_t size)
{
	return must(op_realloc(ptr, size));
}

void *op_xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	return must(op_reallocarray(ptr, nmemb, size));
}

char *op_xstrdup(const char *s)
{
	return must(op_strdup(s));
}

char *op_xstrndup(const char *s, size_t n)
{
	return must(op_strndup(s, n));
}
