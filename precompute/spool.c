/*
 * spool.c - the spool of a bake larger than its memory budget (spool.h):
 * a temporary file whose regions are mapped shared, so the bake's code
 * is the same whether its arrays live in memory or here.
 *
 * A region is a range of the file mapped on its own; the file only
 * grows, and a region freed gives its blocks back (a hole punched) but
 * not its range. The newest region may grow in place or move (mremap).
 * Pages of a shared mapping of a file are the file's: dropping them
 * (MADV_DONTNEED) loses nothing, and a later read brings them back from
 * the page cache or the disk.
 */
#define _GNU_SOURCE   /* mremap, fallocate */
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_estimateCCtxSize_usingCParams */
#include <zstd.h>

#define OUT_PIECE ((size_t)1 << 20)   /* compressed bytes written at once */

struct twz_spool_region {
	struct twz_spool_region *next;
	uint8_t *map;
	size_t len;               /* mapped bytes, a whole number of pages */
	uint64_t at;              /* where in the file */
};

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

static size_t pages_of(size_t n)
{
	size_t ps = page_size();

	return n ? (n + ps - 1) / ps * ps : ps;
}

int twz_spool_open(struct twz_spool *sp, const char *near_path,
		   struct twz_error *err)
{
	size_t n = strlen(near_path) + 24;
	char *tmp = malloc(n);

	memset(sp, 0, sizeof *sp);
	sp->fd = -1;
	if (!tmp) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", near_path);
		return -1;
	}
	snprintf(tmp, n, "%s.spool.XXXXXX", near_path);
	sp->fd = mkstemp(tmp);
	if (sp->fd < 0) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot create a temporary file: %s",
				   near_path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* Unlinked at once: the file lives as long as the descriptor, and
	 * no exit, not even a kill, leaves it behind. */
	unlink(tmp);
	free(tmp);
	return 0;
}

void twz_spool_close(struct twz_spool *sp)
{
	while (sp->regions) {
		struct twz_spool_region *r = sp->regions;
		sp->regions = r->next;
		munmap(r->map, r->len);
		free(r);
	}
	if (sp->fd >= 0)
		close(sp->fd);
	sp->fd = -1;
	sp->size = 0;
}

static struct twz_spool_region *region_of(const struct twz_spool *sp,
					  const void *p)
{
	const uint8_t *b = p;

	for (struct twz_spool_region *r = sp ? sp->regions : NULL; r; r = r->next)
		if (b >= r->map && b < r->map + r->len)
			return r;
	return NULL;
}

int twz_spool_holds(const struct twz_spool *sp, const void *p)
{
	return p && region_of(sp, p) != NULL;
}

/* The file made len bytes longer, for a region at its end. */
static int extend(struct twz_spool *sp, size_t len)
{
	if (ftruncate(sp->fd, (off_t)(sp->size + len)) != 0)
		return -1;
	sp->size += len;
	if (sp->size > sp->peak)
		sp->peak = sp->size;
	return 0;
}

void *twz_big_alloc(struct twz_spool *sp, size_t n)
{
	struct twz_spool_region *r;
	size_t len = pages_of(n);

	if (!sp)
		return calloc(1, n ? n : 1);
	r = malloc(sizeof *r);
	if (!r)
		return NULL;
	r->at = sp->size;
	r->len = len;
	if (extend(sp, len) != 0) {
		free(r);
		return NULL;
	}
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, sp->fd,
		       (off_t)r->at);
	if (m == MAP_FAILED) {
		free(r);
		return NULL;
	}
	r->map = m;
	r->next = sp->regions;
	sp->regions = r;
	return m;
}

void *twz_big_grow(struct twz_spool *sp, void *p, size_t old, size_t n)
{
	struct twz_spool_region *r;

	if (!sp)
		return realloc(p, n ? n : 1);
	if (!p)
		return twz_big_alloc(sp, n);
	r = region_of(sp, p);
	if (!r || r->map != p)
		return NULL;
	size_t len = pages_of(n);
	if (len <= r->len)
		return p;
	if (r->at + r->len != sp->size) {
		/* Not at the file's end: a new region, and the bytes copied. */
		void *q = twz_big_alloc(sp, n);
		if (!q)
			return NULL;
		memcpy(q, p, old < n ? old : n);
		twz_big_free(sp, p);
		return q;
	}
	if (extend(sp, len - r->len) != 0)
		return NULL;
	void *m = mremap(r->map, r->len, len, MREMAP_MAYMOVE);
	if (m == MAP_FAILED)
		return NULL;
	r->map = m;
	r->len = len;
	return m;
}

void twz_big_free(struct twz_spool *sp, void *p)
{
	struct twz_spool_region **at;

	if (!sp) {
		free(p);
		return;
	}
	for (at = &sp->regions; p && *at; at = &(*at)->next) {
		struct twz_spool_region *r = *at;
		if (r->map != p)
			continue;
		*at = r->next;
		munmap(r->map, r->len);
		/* Its blocks back to the file system; the range stays. */
		fallocate(sp->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			  (off_t)r->at, (off_t)r->len);
		free(r);
		return;
	}
}

void twz_spool_release(const struct twz_spool *sp, const void *p, size_t n)
{
	struct twz_spool_region *r = region_of(sp, p);
	size_t ps = page_size();

	if (!r)
		return;
	/* Whole pages inside [p, p + n): the edges may be shared. */
	size_t lo = (size_t)((const uint8_t *)p - r->map);
	size_t hi = lo + n > r->len ? r->len : lo + n;
	lo = (lo + ps - 1) / ps * ps;
	hi = hi / ps * ps;
	if (hi > lo)
		madvise(r->map + lo, hi - lo, MADV_DONTNEED);
}

void twz_spool_trim(const struct twz_spool *sp)
{
	for (struct twz_spool_region *r = sp ? sp->regions : NULL; r; r = r->next)
		madvise(r->map, r->len, MADV_DONTNEED);
}

uint64_t twz_spool_write_bytes(uint64_t size, int level)
{
	ZSTD_compressionParameters cp = ZSTD_getCParams(level, size ? size : 1, 0);

	return ZSTD_estimateCCtxSize_usingCParams(cp) +
	       ((uint64_t)1 << cp.windowLog) + 3 * (uint64_t)TWZ_SPOOL_PIECE +
	       OUT_PIECE;
}
