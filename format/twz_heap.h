/*
 * twz_heap.h - the one binary heap of twigz, for every search that
 * needs one (the bake's searches over weighted graphs, the run-time
 * searches, the tool's reference searches and checks): a min-heap of
 * fixed-size items in the caller's array, 0-based (the children of
 * slot i are 2i + 1 and 2i + 2), ordered by the caller's `before`.
 *
 * A lazy heap (stale items skipped by the caller as they come out)
 * passes placed = NULL. An indexed heap, whose items move up when their
 * key drops, passes `placed`, told every item's new slot, and calls
 * twz_heap_up from the slot it keeps.
 *
 * The functions are inline and `before`, `placed` and `size` are
 * constants at each call, so every caller compiles to its own copy
 * with its comparison inlined: no call through a pointer per step.
 * Runtime code may include this header (it depends on nothing).
 */
#ifndef TWZ_HEAP_H
#define TWZ_HEAP_H

#include <stddef.h>
#include <string.h>

#if defined(__GNUC__)
#define TWZ_HEAP_INLINE static inline __attribute__((always_inline))
#else
#define TWZ_HEAP_INLINE static inline
#endif

/* The largest item, in bytes. */
#define TWZ_HEAP_ITEM_MAX 32

/* Whether item a comes out before item b (ctx: the caller's). */
typedef int (*twz_heap_before_fn)(const void *ctx, const void *a,
				  const void *b);
/* Item now sits in slot at (indexed heaps). */
typedef void (*twz_heap_placed_fn)(void *ctx, const void *item, size_t at);

/* Put item into the hole at slot i and move it up to its place. */
TWZ_HEAP_INLINE void
twz_heap__rise(unsigned char *h, size_t i, const void *item, size_t size,
	       twz_heap_before_fn before, twz_heap_placed_fn placed, void *ctx)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(ctx, item, h + p * size))
			break;
		memcpy(h + i * size, h + p * size, size);
		if (placed)
			placed(ctx, h + i * size, i);
		i = p;
	}
	memcpy(h + i * size, item, size);
	if (placed)
		placed(ctx, h + i * size, i);
}

/* Add item (the heap has room for one more). */
TWZ_HEAP_INLINE void
twz_heap_push(void *heap, size_t *len, const void *item, size_t size,
	      twz_heap_before_fn before, twz_heap_placed_fn placed, void *ctx)
{
	twz_heap__rise(heap, (*len)++, item, size, before, placed, ctx);
}

/* The item in slot i came earlier in the order: move it up. */
TWZ_HEAP_INLINE void
twz_heap_up(void *heap, size_t i, size_t size, twz_heap_before_fn before,
	    twz_heap_placed_fn placed, void *ctx)
{
	unsigned char item[TWZ_HEAP_ITEM_MAX];

	memcpy(item, (unsigned char *)heap + i * size, size);
	twz_heap__rise(heap, i, item, size, before, placed, ctx);
}

/* Take the first item into *top (the heap is not empty). */
TWZ_HEAP_INLINE void
twz_heap_pop(void *heap, size_t *len, void *top, size_t size,
	     twz_heap_before_fn before, twz_heap_placed_fn placed, void *ctx)
{
	unsigned char *h = heap;
	size_t n = --*len, i = 0;

	memcpy(top, h, size);
	if (!n)
		return;
	/* The last item sinks from the root; it stays in slot n, past
	 * the heap, until it lands. */
	const unsigned char *last = h + n * size;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n)
			c += before(ctx, h + (c + 1) * size, h + c * size) != 0;
		if (!before(ctx, h + c * size, last))
			break;
		memcpy(h + i * size, h + c * size, size);
		if (placed)
			placed(ctx, h + i * size, i);
		i = c;
	}
	memcpy(h + i * size, last, size);
	if (placed)
		placed(ctx, h + i * size, i);
}

#endif /* TWZ_HEAP_H */
