/*
 * twz_writer_stream.c - the writer of a bake larger than its memory
 * budget (twz_writer_stream.h): the spool, and the output written in
 * place section by section.
 *
 * A section is one zstd frame. zstd makes the frame of a one-shot
 * compression when it is told the whole size up front and reads the
 * input in place (ZSTD_c_stableInBuffer) from one buffer that only
 * grows: so the spool is mapped, handed to zstd a piece at a time, and
 * the pages behind the compressor's window are dropped from memory as it
 * moves on. Checksums (XXH3) are streamed over the same pieces.
 */
#include "twz_writer_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_c_stableInBuffer, estimates */
#include <zstd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "twz_format.h"

#define OUT_PIECE ((size_t)1 << 20)   /* compressed bytes written at once */

/* ---- the spool -------------------------------------------------------- */

int twz_spool_open(struct twz_spool *sp, const char *near_path,
		   struct twz_error *err)
{
	size_t n = strlen(near_path) + 24;
	char *tmp = malloc(n);

	sp->fd = -1;
	sp->size = 0;
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
	if (sp->fd >= 0)
		close(sp->fd);
	sp->fd = -1;
	sp->size = 0;
}

int twz_spool_pwrite(struct twz_spool *sp, uint64_t at, const void *buf,
		     size_t n)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t w = pwrite(sp->fd, p, n, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		at += (uint64_t)w;
		n -= (size_t)w;
	}
	return 0;
}

int twz_spool_out_flush(struct twz_spool_out *o)
{
	if (o->len && twz_spool_pwrite(o->spool, o->at, o->buf, o->len) != 0)
		return -1;
	o->at += o->len;
	o->len = 0;
	return 0;
}

int twz_spool_out_put(struct twz_spool_out *o, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		size_t k = TWZ_SPOOL_OUT_PIECE - o->len < n ?
			   TWZ_SPOOL_OUT_PIECE - o->len : n;
		memcpy(o->buf + o->len, b, k);
		o->len += k;
		b += k;
		n -= k;
		if (o->len == TWZ_SPOOL_OUT_PIECE && twz_spool_out_flush(o) != 0)
			return -1;
	}
	return 0;
}

int twz_spool_pread(const struct twz_spool *sp, uint64_t at, void *buf,
		    size_t n)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t r = pread(sp->fd, p, n, (off_t)at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		at += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

/* The parameters zstd picks for a one-shot compression of size bytes. */
static ZSTD_compressionParameters cparams(uint64_t size, int level)
{
	return ZSTD_getCParams(level, size ? size : 1, 0);
}

uint64_t twz_spool_write_bytes(uint64_t size, int level)
{
	ZSTD_compressionParameters cp = cparams(size, level);

	return ZSTD_estimateCCtxSize_usingCParams(cp) +
	       ((uint64_t)1 << cp.windowLog) + 3 * (uint64_t)TWZ_SPOOL_PIECE +
	       OUT_PIECE;
}

/* ---- writing ---------------------------------------------------------- */

static uint64_t align_up(uint64_t v)
{
	return (v + TWZ_SECTION_ALIGN - 1) & ~(uint64_t)(TWZ_SECTION_ALIGN - 1);
}

static int out_pwrite(int fd, uint64_t at, const void *buf, size_t n)
{
	struct twz_spool s = { fd, 0 };

	return twz_spool_pwrite(&s, at, buf, n);
}

/* What the table says of a section once it is written. */
struct stored {
	uint16_t codec;
	uint64_t size;
	uint64_t checksum;
};

/* A mapping of spool bytes [at, at + size), dropped page by page behind
 * the reader. */
struct window {
	uint8_t *map;        /* mapping start (page aligned) */
	size_t map_len;
	const uint8_t *data; /* the section's first byte */
	size_t dropped;      /* bytes of the mapping given back */
};

static int window_map(struct window *w, const struct twz_spool *sp,
		      uint64_t at, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t base = at - at % (uint64_t)(page > 0 ? page : 4096);

	memset(w, 0, sizeof *w);
	w->map_len = (size_t)(at + size - base);
	void *m = mmap(NULL, w->map_len, PROT_READ, MAP_SHARED, sp->fd, (off_t)base);
	if (m == MAP_FAILED)
		return -1;
	w->map = m;
	w->data = w->map + (at - base);
	return 0;
}

/* Give back the pages before section byte upto. */
static void window_drop(struct window *w, uint64_t upto)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t ps = (size_t)(page > 0 ? page : 4096);
	size_t end = (size_t)(w->data - w->map) + (size_t)upto;

	end -= end % ps;
	if (end > w->dropped) {
		madvise(w->map + w->dropped, end - w->dropped, MADV_DONTNEED);
		w->dropped = end;
	}
}

static void window_unmap(struct window *w)
{
	if (w->map)
		munmap(w->map, w->map_len);
	w->map = NULL;
}

/* Raw bytes of w at out_at, hashed on the way. */
static int copy_raw(int fd, uint64_t out_at, struct window *w, uint64_t size,
		    uint64_t *checksum)
{
	XXH3_state_t hs;

	XXH3_64bits_reset(&hs);
	for (uint64_t at = 0; at < size; at += TWZ_SPOOL_PIECE) {
		size_t n = size - at < TWZ_SPOOL_PIECE ? (size_t)(size - at) : TWZ_SPOOL_PIECE;
		XXH3_64bits_update(&hs, w->data + at, n);
		if (out_pwrite(fd, out_at + at, w->data + at, n) != 0)
			return -1;
		window_drop(w, at + n);
	}
	*checksum = XXH3_64bits_digest(&hs);
	return 0;
}

/*
 * The spooled section [at, at + size) of sp, at out_at of the output:
 * one zstd frame when it saves space, the raw bytes otherwise, as
 * store_section of twz_writer.c decides. Returns 0, -1 (I/O or memory:
 * errno), or -2 (zstd: *zerr set).
 */
static int spool_section(int fd, uint64_t out_at, const struct twz_spool *sp,
			 uint64_t at, uint64_t size, int zstd, int level,
			 struct stored *st, size_t *zerr)
{
	struct window w;
	XXH3_state_t hs;
	ZSTD_CCtx *cc = NULL;
	uint8_t *out = NULL;
	uint64_t csize = 0;
	int rc = -1;

	st->codec = TWZ_CODEC_RAW;
	st->size = size;
	if (size == 0) {
		st->checksum = XXH3_64bits(NULL, 0);
		return 0;
	}
	if (window_map(&w, sp, at, size) != 0)
		return -1;
	if (!zstd) {
		rc = copy_raw(fd, out_at, &w, size, &st->checksum);
		window_unmap(&w);
		return rc;
	}
	ZSTD_compressionParameters cp = cparams(size, level);
	uint64_t keep = ((uint64_t)1 << cp.windowLog) + TWZ_SPOOL_PIECE;
	cc = ZSTD_createCCtx();
	out = malloc(OUT_PIECE);
	if (!cc || !out)
		goto done;
	size_t z;
	if (ZSTD_isError(z = ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(z = ZSTD_CCtx_setParameter(cc, ZSTD_c_stableInBuffer, 1)) ||
	    ZSTD_isError(z = ZSTD_CCtx_setPledgedSrcSize(cc, size))) {
		*zerr = z;
		rc = -2;
		goto done;
	}
	XXH3_64bits_reset(&hs);
	ZSTD_inBuffer in = { w.data, 0, 0 };
	int bigger = 0;
	while (!bigger) {
		size_t grow = size - in.size < TWZ_SPOOL_PIECE ? (size_t)(size - in.size)
							       : TWZ_SPOOL_PIECE;
		XXH3_64bits_update(&hs, w.data + in.size, grow);
		in.size += grow;
		ZSTD_EndDirective end = in.size == size ? ZSTD_e_end : ZSTD_e_continue;
		for (;;) {
			ZSTD_outBuffer o = { out, OUT_PIECE, 0 };
			z = ZSTD_compressStream2(cc, &o, &in, end);
			if (ZSTD_isError(z)) {
				*zerr = z;
				rc = -2;
				goto done;
			}
			if (csize + o.pos >= size) {
				bigger = 1;    /* raw is smaller: stored raw */
				break;
			}
			if (o.pos && out_pwrite(fd, out_at + csize, out, o.pos) != 0)
				goto done;
			csize += o.pos;
			if (end == ZSTD_e_end ? z == 0 : in.pos == in.size)
				break;
		}
		window_drop(&w, in.pos > keep ? in.pos - keep : 0);
		if (end == ZSTD_e_end)
			break;
	}
	if (bigger) {
		/* The frame written so far is overwritten by the raw bytes,
		 * which are at least as long. */
		window_unmap(&w);
		if (window_map(&w, sp, at, size) != 0)
			goto done;
		rc = copy_raw(fd, out_at, &w, size, &st->checksum);
		goto done;
	}
	st->codec = TWZ_CODEC_ZSTD;
	st->size = csize;
	st->checksum = XXH3_64bits_digest(&hs);
	rc = 0;
done:
	window_unmap(&w);
	ZSTD_freeCCtx(cc);
	free(out);
	return rc;
}

/* An in-memory section, as store_section of twz_writer.c stores it. */
static int memory_section(int fd, uint64_t out_at,
			  const struct twz_out_section *s, int zstd, int level,
			  struct stored *st, size_t *zerr)
{
	st->codec = TWZ_CODEC_RAW;
	st->size = s->raw_size;
	st->checksum = XXH3_64bits(s->raw, s->raw_size);
	if (zstd && s->raw_size && s->kind != TWZ_SECTION_BUILD_INFO) {
		size_t bound = ZSTD_compressBound(s->raw_size);
		void *dst = malloc(bound);
		if (!dst)
			return -1;
		size_t n = ZSTD_compress(dst, bound, s->raw, s->raw_size, level);
		if (ZSTD_isError(n)) {
			free(dst);
			*zerr = n;
			return -2;
		}
		if (n < s->raw_size) {
			int rc = out_pwrite(fd, out_at, dst, n);
			free(dst);
			st->codec = TWZ_CODEC_ZSTD;
			st->size = n;
			return rc;
		}
		free(dst);
	}
	return s->raw_size ? out_pwrite(fd, out_at, s->raw, s->raw_size) : 0;
}

int twz_out_write_spooled(struct twz_out_file *f, const struct twz_spool *sp,
			  const uint64_t *spool_at, const char *name,
			  const char *path, struct twz_error *err)
{
	const struct twz_out_header *h = &f->h;
	struct twz_out_section all[TWZ_MAX_SECTIONS];
	uint64_t at_of[TWZ_MAX_SECTIONS];
	struct stored st[TWZ_MAX_SECTIONS];
	uint64_t offset[TWZ_MAX_SECTIONS];
	struct twz_atomic a;
	uint8_t *head = NULL;
	unsigned count = 0, placed = 0;
	int rc = -1;

	if (f->failed) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto out_free;
	}
	if (f->count + (h->build_info[0] != 0) > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "too many sections (%u)", f->count);
		goto out_free;
	}
	/* BUILD_INFO among the sections by kind, as twz_encode puts it. */
	struct twz_out_section info = {
		TWZ_SECTION_BUILD_INFO, h->build_info,
		strnlen(h->build_info, sizeof h->build_info)
	};
	for (unsigned i = 0; i < f->count; i++) {
		if (h->build_info[0] && !placed &&
		    f->sec[i].kind > TWZ_SECTION_BUILD_INFO) {
			at_of[count] = UINT64_MAX;
			all[count++] = info;
			placed = 1;
		}
		at_of[count] = spool_at[i];
		all[count++] = f->sec[i];
	}
	if (h->build_info[0] && !placed) {
		at_of[count] = UINT64_MAX;
		all[count++] = info;
	}

	if (twz_atomic_begin(path, &a, err) != 0)
		goto out_free;
	int zstd = h->codec == TWZ_CODEC_ZSTD;
	uint64_t pos = align_up(TWZ_HEADER_SIZE + (uint64_t)count * TWZ_SECTION_ENTRY_SIZE);
	for (unsigned i = 0; i < count; i++) {
		size_t zerr = 0;
		int r;
		offset[i] = pos;
		if (at_of[i] != UINT64_MAX)
			r = spool_section(a.fd, pos, sp, at_of[i], all[i].raw_size, zstd,
					  h->level, &st[i], &zerr);
		else
			r = memory_section(a.fd, pos, &all[i], zstd, h->level, &st[i], &zerr);
		if (r == -2) {
			twz_error_set(err, "zstd: %s", ZSTD_getErrorName(zerr));
			goto cancel;
		}
		if (r != 0) {
			twz_error_kind_set(err, errno == ENOMEM ? TWZ_ERR_NOMEM : TWZ_ERR_IO,
					   "%s: cannot write: %s", path, strerror(errno));
			goto cancel;
		}
		pos = align_up(pos + st[i].size);
	}
	uint64_t file_size = count ? offset[count - 1] + st[count - 1].size
				   : TWZ_HEADER_SIZE;
	size_t head_len = TWZ_HEADER_SIZE + (size_t)count * TWZ_SECTION_ENTRY_SIZE;
	head = calloc(1, head_len);
	if (!head) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto cancel;
	}
	for (unsigned i = 0; i < count; i++) {
		uint8_t *e = head + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put32(e + TWZ_S_KIND, all[i].kind);
		twz_put16(e + TWZ_S_CODEC, st[i].codec);
		twz_put64(e + TWZ_S_OFFSET, offset[i]);
		twz_put64(e + TWZ_S_SIZE, st[i].size);
		twz_put64(e + TWZ_S_RAW_SIZE, all[i].raw_size);
		twz_put64(e + TWZ_S_RAW_CHECKSUM, st[i].checksum);
	}
	memcpy(head + TWZ_H_MAGIC, TWZ_MAGIC, TWZ_MAGIC_SIZE);
	twz_put16(head + TWZ_H_MAJOR, TWZ_FORMAT_MAJOR);
	twz_put16(head + TWZ_H_MINOR, h->minor);
	twz_put32(head + TWZ_H_HEADER_SIZE, TWZ_HEADER_SIZE);
	twz_put64(head + TWZ_H_REQUIRED, h->required_features);
	twz_put64(head + TWZ_H_OPTIONAL, 0);
	twz_put64(head + TWZ_H_FILE_SIZE, file_size);
	twz_put32(head + TWZ_H_SECTION_COUNT, count);
	twz_put32(head + TWZ_H_TABLE_OFFSET, TWZ_HEADER_SIZE);
	twz_put64(head + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(head + TWZ_HEADER_SIZE,
			       (size_t)count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(head + TWZ_H_LEVEL_HASH, h->level_hash);
	twz_put32(head + TWZ_H_WIDTH, h->width);
	twz_put32(head + TWZ_H_HEIGHT, h->height);
	twz_put32(head + TWZ_H_NODE_COUNT, h->node_count);
	twz_put32(head + TWZ_H_COMPONENT_COUNT, h->component_count);
	head[TWZ_H_METHOD] = h->method;
	head[TWZ_H_CONNECTIVITY] = h->connectivity;
	head[TWZ_H_NODE_ORDER] = h->node_order;
	head[TWZ_H_BUILD_CODEC] = h->codec;
	head[TWZ_H_BUILD_LEVEL] = (uint8_t)h->level;
	twz_put64(head + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(head, TWZ_H_HEADER_CHECKSUM));
	/* The padding before the first section is zero, as are the gaps the
	 * writes left; the file ends with the last section. */
	uint64_t first = count ? offset[0] : head_len;
	uint8_t zero[TWZ_SECTION_ALIGN] = { 0 };
	if (out_pwrite(a.fd, 0, head, head_len) != 0 ||
	    (first > head_len && out_pwrite(a.fd, head_len, zero,
					    (size_t)(first - head_len)) != 0) ||
	    ftruncate(a.fd, (off_t)file_size) != 0) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path,
				   strerror(errno));
		goto cancel;
	}
	if (twz_atomic_commit(&a, path, err) != 0)
		goto out_free;
	rc = 0;
	goto out_free;
cancel:
	twz_atomic_cancel(&a);
out_free:
	free(head);
	for (unsigned i = 0; i < f->count; i++)
		free(f->owned[i]);
	f->count = 0;
	return rc;
}
