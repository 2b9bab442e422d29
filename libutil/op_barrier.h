/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ordering for memory shared with the kernel (the perf ring buffer) or with
 * another process (a sample file one process writes while another reads).
 *
 * A producer fills its data with plain or relaxed stores, then publishes it
 * with op_store_release() of the index or size that makes it visible.  A
 * consumer reads that index with op_load_acquire() before it reads the data
 * behind it.  Each use in our code names the store or load it pairs with.
 *
 * Fields that one side writes while the other may read at any time (a
 * counter being incremented) go through op_load_relaxed()/op_store_relaxed()
 * so the compiler neither tears nor caches them; they order nothing.
 */
#ifndef OP_BARRIER_H
#define OP_BARRIER_H

/* load *p; later loads and stores are not moved before it */
#define op_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* store v to *p; earlier loads and stores are not moved after it */
#define op_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* untorn, uncached access with no ordering */
#define op_load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define op_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* full fence: orders all earlier loads and stores against all later ones */
#define op_smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)

/* loads before it are ordered before loads and stores after it */
#define op_smp_acquire_fence() __atomic_thread_fence(__ATOMIC_ACQUIRE)

#endif
