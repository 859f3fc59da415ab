/*
 * twz_writer.c - the .twz writer (FORMAT.md).
 */
#include "twz_writer.h"
#include "twz_chunk_writer.h"
#include "spool.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY  /* ZSTD_c_stableInBuffer */
#include <zstd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define OUT_PIECE ((size_t)1 << 20)   /* compressed bytes written at once */

static void out_free_owned(struct twz_out_file *f);

static uint64_t align_up(uint64_t v)
{
	return (v + TWZ_SECTION_ALIGN - 1) & ~(uint64_t)(TWZ_SECTION_ALIGN - 1);
}

/* ---- one section ------------------------------------------------------ */

/* What the table says of a section once stored. */
struct stored {
	uint16_t codec;
	uint16_t flags;       /* TWZ_SF_* */
	uint64_t size;
	uint64_t checksum;    /* of the raw bytes */
	struct twz_out pre;   /* stored ahead in memory (pre.len bytes), or
				 pre.buf NULL: stored when written */
};

/* The raw bytes of s at `at` of o, hashed; a spooled section piece by
 * piece, its pages given back behind. */
static int copy_raw(const struct twz_out_section *s,
		    const struct twz_spool *spool, struct twz_out *o,
		    uint64_t at, struct stored *st)
{
	const uint8_t *raw = s->raw;
	XXH3_state_t hs;

	XXH3_64bits_reset(&hs);
	for (size_t k = 0; k < s->raw_size; k += TWZ_SPOOL_PIECE) {
		size_t n = s->raw_size - k < TWZ_SPOOL_PIECE ? s->raw_size - k
							   : TWZ_SPOOL_PIECE;
		XXH3_64bits_update(&hs, raw + k, n);
		if (twz_out_put(o, at + k, raw + k, n) != 0)
			return -1;
		twz_spool_release(spool, raw + k, n);
	}
	st->codec = TWZ_CODEC_RAW;
	st->size = s->raw_size;
	st->checksum = XXH3_64bits_digest(&hs);
	return 0;
}

/*
 * A section in the spool as one zstd frame, compressed from its mapping
 * a piece at a time straight into o: zstd makes the frame of a one-shot
 * compression when it is told the whole size up front and reads the
 * input in place (ZSTD_c_stableInBuffer) from one buffer that only
 * grows, so the bytes are those of one call. The pages behind the
 * compressor's window go back to the spool as it moves on. Returns 0,
 * 1 when the raw bytes are the smaller (nothing kept), -1 on an error
 * (errno), -2 on a zstd error (*zerr).
 */
static int stream_zstd(const struct twz_out_section *s, int level,
		       const struct twz_spool *spool, struct twz_out *o,
		       uint64_t at, struct stored *st, size_t *zerr)
{
	ZSTD_compressionParameters cp = ZSTD_getCParams(level, s->raw_size, 0);
	uint64_t keep = ((uint64_t)1 << cp.windowLog) + TWZ_SPOOL_PIECE;
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	uint8_t *piece = malloc(OUT_PIECE);
	const uint8_t *raw = s->raw;
	uint64_t csize = 0;
	XXH3_state_t hs;
	size_t z;
	int rc = -1;

	if (!cc || !piece)
		goto done;
	if (ZSTD_isError(z = ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(z = ZSTD_CCtx_setParameter(cc, ZSTD_c_stableInBuffer, 1)) ||
	    ZSTD_isError(z = ZSTD_CCtx_setPledgedSrcSize(cc, s->raw_size))) {
		*zerr = z;
		rc = -2;
		goto done;
	}
	XXH3_64bits_reset(&hs);
	ZSTD_inBuffer in = { raw, 0, 0 };
	for (;;) {
		size_t grow = s->raw_size - in.size < TWZ_SPOOL_PIECE
			      ? s->raw_size - in.size : TWZ_SPOOL_PIECE;
		XXH3_64bits_update(&hs, raw + in.size, grow);
		in.size += grow;
		ZSTD_EndDirective end = in.size == s->raw_size ? ZSTD_e_end
							       : ZSTD_e_continue;
		for (;;) {
			ZSTD_outBuffer out = { piece, OUT_PIECE, 0 };
			z = ZSTD_compressStream2(cc, &out, &in, end);
			if (ZSTD_isError(z)) {
				*zerr = z;
				rc = -2;
				goto done;
			}
			if (csize + out.pos >= s->raw_size) {
				rc = 1;      /* raw is smaller: stored raw */
				goto done;
			}
			if (out.pos && twz_out_put(o, at + csize, piece, out.pos) != 0)
				goto done;
			csize += out.pos;
			if (end == ZSTD_e_end ? z == 0 : in.pos == in.size)
				break;
		}
		if (in.pos > keep)
			twz_spool_release(spool, raw, (size_t)(in.pos - keep));
		if (end == ZSTD_e_end)
			break;
	}
	st->codec = TWZ_CODEC_ZSTD;
	st->size = csize;
	st->checksum = XXH3_64bits_digest(&hs);
	rc = 0;
done:
	twz_spool_release(spool, raw, s->raw_size);
	ZSTD_freeCCtx(cc);
	free(piece);
	return rc;
}

/* Section i of all[count] at `at` of o: one zstd frame when that saves
 * space (one call in memory, or streamed from the spool), chunks when h
 * asks for them, raw otherwise (the reader accepts each). */
static int store_section(const struct twz_out_header *h,
			 const struct twz_out_section *all, unsigned count,
			 unsigned i, const struct twz_spool *spool,
			 struct twz_out *o, uint64_t at, struct stored *st,
			 struct twz_error *err)
{
	const struct twz_out_section *s = &all[i];
	size_t zerr = 0;
	int rc;

	st->flags = 0;
	/* BUILD_INFO stays raw: a few hundred bytes, readable as text in
	 * the file itself. */
	if (h->codec != TWZ_CODEC_ZSTD || s->raw_size == 0 ||
	    s->kind == TWZ_SECTION_BUILD_INFO)
		rc = copy_raw(s, spool, o, at, st);
	else if (twz_chunk_wanted(all, count, i, h->chunk)) {
		st->codec = TWZ_CODEC_ZSTD;
		st->flags = TWZ_SF_CHUNKED;
		st->checksum = twz_checksum(s->raw, s->raw_size);
		twz_spool_release(spool, s->raw, s->raw_size);
		return twz_chunk_store(all, count, i, h->chunk, h->level, spool,
				       o, at, &st->size, err);
	} else if (twz_spool_holds(spool, s->raw)) {
		rc = stream_zstd(s, h->level, spool, o, at, st, &zerr);
		if (rc == 1)
			rc = copy_raw(s, spool, o, at, st);
	} else {
		size_t bound = ZSTD_compressBound(s->raw_size);
		void *dst = malloc(bound);
		size_t n;
		if (!dst) {
			twz_error_kind_set(err, TWZ_ERR_NOMEM,
					   "out of memory compressing a %zu-byte section",
					   s->raw_size);
			return -1;
		}
		n = ZSTD_compress(dst, bound, s->raw, s->raw_size, h->level);
		if (ZSTD_isError(n)) {
			zerr = n;
			rc = -2;
		} else if (n >= s->raw_size) {
			rc = copy_raw(s, spool, o, at, st);
		} else {
			st->codec = TWZ_CODEC_ZSTD;
			st->size = n;
			st->checksum = twz_checksum(s->raw, s->raw_size);
			rc = twz_out_put(o, at, dst, n);
		}
		free(dst);
	}
	if (rc == -2)
		twz_error_set(err, "zstd: %s", ZSTD_getErrorName(zerr));
	else if (rc != 0)
		twz_error_kind_set(err, errno == ENOMEM ? TWZ_ERR_NOMEM : TWZ_ERR_IO,
				   "cannot store a %zu-byte section: %s", s->raw_size,
				   strerror(errno));
	return rc ? -1 : 0;
}

/* Sections in memory are stored ahead, on up to h->threads threads at
 * once, biggest first, each into a buffer of its own; the bytes are the
 * same whatever the thread count. Sections in the spool are stored when
 * written, one at a time. */
struct ahead_job {
	const struct twz_out_header *h;
	const struct twz_out_section *all;
	const struct twz_spool *spool;
	struct stored *st;
	const unsigned *order;     /* section indices, biggest first */
	unsigned count;            /* of order */
	unsigned total;            /* of all */
	atomic_uint next;
	atomic_int failed;
	pthread_mutex_t lock;      /* guards err */
	struct twz_error *err;
};

static void *ahead_worker(void *arg)
{
	struct ahead_job *job = arg;
	struct twz_error mine = { { 0 }, 0 };

	for (;;) {
		unsigned k = atomic_fetch_add(&job->next, 1);
		if (k >= job->count || atomic_load(&job->failed))
			break;
		unsigned i = job->order[k];
		struct stored *st = &job->st[i];
		st->pre.fd = -1;
		int rc = store_section(job->h, job->all, job->total, i, job->spool,
				       &st->pre, 0, st, &mine);
		if (rc == 0 && !st->pre.buf)
			st->pre.buf = malloc(1);   /* stored, and empty */
		if (rc != 0 || !st->pre.buf) {
			pthread_mutex_lock(&job->lock);
			if (!atomic_exchange(&job->failed, 1))
				*job->err = mine.msg[0] ? mine : (struct twz_error){
					"out of memory storing a section", TWZ_ERR_NOMEM };
			pthread_mutex_unlock(&job->lock);
			break;
		}
	}
	return NULL;
}

static int store_ahead(const struct twz_out_header *h,
		       const struct twz_out_section *all, unsigned count,
		       const struct twz_spool *spool, struct stored *st,
		       struct twz_error *err)
{
	unsigned order[TWZ_MAX_SECTIONS], n = 0;
	pthread_t tid[TWZ_MAX_SECTIONS];
	unsigned started = 0;
	struct ahead_job job = {
		.h = h, .all = all, .spool = spool, .st = st, .order = order,
		.err = err,
	};

	for (unsigned i = 0; i < count; i++) {
		st[i].pre = (struct twz_out){ .fd = -1 };
		/* Raw sections need no work ahead; spooled ones wait. */
		if (h->codec == TWZ_CODEC_ZSTD && !twz_spool_holds(spool, all[i].raw))
			order[n++] = i;
	}
	for (unsigned i = 1; i < n; i++)          /* biggest first, stable */
		for (unsigned j = i; j > 0 &&
		     all[order[j]].raw_size > all[order[j - 1]].raw_size; j--) {
			unsigned t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	job.count = n;
	job.total = count;
	atomic_init(&job.next, 0);
	atomic_init(&job.failed, 0);
	pthread_mutex_init(&job.lock, NULL);
	unsigned threads = h->threads ? h->threads : 1;
	if (threads > n)
		threads = n ? n : 1;
	/* This thread is one of the workers. */
	for (; started + 1 < threads; started++)
		if (pthread_create(&tid[started], NULL, ahead_worker, &job) != 0)
			break;
	ahead_worker(&job);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&job.lock);
	return atomic_load(&job.failed) ? -1 : 0;
}

/* ---- the file --------------------------------------------------------- */

/* sections with h's BUILD_INFO text added in kind order, into all. */
static unsigned with_build_info(const struct twz_out_header *h,
				const struct twz_out_section *sections,
				unsigned count, struct twz_out_section *all)
{
	struct twz_out_section info = {
		TWZ_SECTION_BUILD_INFO, h->build_info,
		strnlen(h->build_info, sizeof h->build_info)
	};
	unsigned n = 0, placed = !h->build_info[0];

	for (unsigned i = 0; i < count; i++) {
		if (!placed && sections[i].kind > TWZ_SECTION_BUILD_INFO) {
			all[n++] = info;
			placed = 1;
		}
		all[n++] = sections[i];
	}
	if (!placed)
		all[n++] = info;
	return n;
}

/* The header and the section table (FORMAT.md sections 2 and 3) into
 * head (TWZ_HEADER_SIZE + count entries, zeroed), under magic. */
static void put_head(uint8_t *head, const char *magic,
		     const struct twz_out_header *h,
		     const struct twz_out_section *all, const struct stored *st,
		     const uint64_t *offset, unsigned count, uint64_t file_size)
{
	unsigned chunked = 0;

	for (unsigned i = 0; i < count; i++) {
		uint8_t *e = head + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put32(e + TWZ_S_KIND, all[i].kind);
		twz_put16(e + TWZ_S_CODEC, st[i].codec);
		twz_put16(e + TWZ_S_FLAGS, st[i].flags);
		chunked |= st[i].flags & TWZ_SF_CHUNKED;
		twz_put64(e + TWZ_S_OFFSET, offset[i]);
		twz_put64(e + TWZ_S_SIZE, st[i].size);
		twz_put64(e + TWZ_S_RAW_SIZE, all[i].raw_size);
		twz_put64(e + TWZ_S_RAW_CHECKSUM, st[i].checksum);
	}
	memcpy(head + TWZ_H_MAGIC, magic, TWZ_MAGIC_SIZE);
	twz_put16(head + TWZ_H_MAJOR, TWZ_FORMAT_MAJOR);
	/* Chunks are a 1.4 feature: a file with any says so. */
	twz_put16(head + TWZ_H_MINOR, chunked && h->minor < 4 ? 4 : h->minor);
	twz_put32(head + TWZ_H_HEADER_SIZE, TWZ_HEADER_SIZE);
	twz_put64(head + TWZ_H_REQUIRED, h->required_features |
		  (chunked ? TWZ_FEATURE_CHUNKED_SECTIONS : 0));
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
	head[TWZ_H_LEVEL_KIND] = h->level_kind;
	twz_put64(head + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(head, TWZ_H_HEADER_CHECKSUM));
}

/* Every section of all[count] into o after the header and table, which
 * go in last. 0, or -1 with err set. */
static int lay_out(const struct twz_out_header *h, const char *magic,
		   const struct twz_out_section *all, unsigned count,
		   const struct twz_spool *spool, struct stored *st,
		   struct twz_out *o, struct twz_error *err)
{
	uint64_t offset[TWZ_MAX_SECTIONS];
	size_t head_len = TWZ_HEADER_SIZE + (size_t)count * TWZ_SECTION_ENTRY_SIZE;
	uint64_t pos = align_up(head_len);
	uint8_t *head;

	for (unsigned i = 0; i < count; i++) {
		offset[i] = pos;
		if (st[i].pre.buf ? twz_out_put(o, pos, st[i].pre.buf, st[i].pre.len)
				  : store_section(h, all, count, i, spool, o, pos,
						  &st[i], err)) {
			if (!err->msg[0])
				twz_error_kind_set(err, TWZ_ERR_IO, "cannot write: %s",
						   strerror(errno));
			return -1;
		}
		pos = align_up(pos + st[i].size);
	}
	/* The last section ends the file: no padding after it. */
	uint64_t file_size = count ? offset[count - 1] + st[count - 1].size
				   : TWZ_HEADER_SIZE;
	head = calloc(1, head_len);
	if (!head) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory");
		return -1;
	}
	put_head(head, magic, h, all, st, offset, count, file_size);
	int rc = twz_out_put(o, 0, head, head_len);
	free(head);
	if (rc == 0 && o->fd >= 0 && ftruncate(o->fd, (off_t)file_size) != 0)
		rc = -1;
	if (rc == 0 && o->fd < 0 && o->len < file_size)
		rc = twz_out_put(o, file_size, NULL, 0);
	if (rc != 0)
		twz_error_kind_set(err, TWZ_ERR_IO, "cannot write: %s", strerror(errno));
	return rc;
}

int twz_out_finish(struct twz_out_file *f, const struct twz_sink *sink,
		   struct twz_error *err)
{
	struct twz_out_section all[TWZ_MAX_SECTIONS];
	struct stored st[TWZ_MAX_SECTIONS];
	struct twz_out o = { .fd = -1 };
	struct twz_atomic a = { .fd = -1 };
	unsigned count = 0;
	int rc = -1;

	memset(st, 0, sizeof st);
	const char *name = f->name ? f->name : "level";
	if (f->failed) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
		goto out_free;
	}
	if (f->count + (f->h.build_info[0] != 0) > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "%s: too many sections (%u)", name, f->count);
		goto out_free;
	}
	count = with_build_info(&f->h, f->sec, f->count, all);
	if (store_ahead(&f->h, all, count, f->spool, st, err) != 0)
		goto out_free;
	if (sink->path) {
		if (twz_atomic_begin(sink->path, &a, err) != 0)
			goto out_free;
		o.fd = a.fd;
	}
	if (lay_out(&f->h, sink->magic ? sink->magic : TWZ_MAGIC, all, count,
		    f->spool, st, &o, err) != 0)
		goto out_cancel;
	if (sink->check && sink->check(sink, sink->path ? a.tmp : NULL, o.buf, o.len, err) != 0)
		goto out_cancel;
	if (sink->path) {
		rc = twz_atomic_commit(&a, sink->path, err);
		goto out_free;
	}
	*sink->buf = o.buf;
	*sink->len = o.len;
	o.buf = NULL;
	rc = 0;
	goto out_free;
out_cancel:
	twz_atomic_cancel(&a);
out_free:
	free(o.buf);
	for (unsigned i = 0; i < count; i++)
		free(st[i].pre.buf);
	out_free_owned(f);
	return rc;
}

int twz_encode(const struct twz_out_header *h,
	       const struct twz_out_section *sections, unsigned count,
	       uint8_t **buf, size_t *len, struct twz_error *err)
{
	struct twz_out_file *f = calloc(1, sizeof *f);
	struct twz_sink sink = { .buf = buf, .len = len };

	if (!f) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory");
		return -1;
	}
	f->h = *h;
	f->name = "file";
	for (unsigned i = 0; i < count; i++)
		twz_out_add(f, sections[i].kind, sections[i].raw, sections[i].raw_size);
	int rc = twz_out_finish(f, &sink, err);
	free(f);
	return rc;
}

/* ---- files as the methods assemble them ----------------------------- */

uint8_t *twz_le32_copy(const uint32_t *v, size_t n)
{
	uint8_t *b = malloc(n ? n * 4 : 1);

	if (!b)
		return NULL;
	for (size_t i = 0; i < n; i++)
		twz_put32(b + 4 * i, v[i]);
	return b;
}

void twz_out_add(struct twz_out_file *f, uint32_t kind, const void *raw,
		 size_t size)
{
	if (f->count == TWZ_MAX_SECTIONS) {
		f->failed = 1;
		return;
	}
	f->sec[f->count++] = (struct twz_out_section){ kind, raw, size };
}

void twz_out_add_owned(struct twz_out_file *f, uint32_t kind, void *raw,
		       size_t size)
{
	if (!raw || f->count == TWZ_MAX_SECTIONS) {
		free(raw);
		f->failed = 1;
		return;
	}
	f->owned[f->count] = raw;
	twz_out_add(f, kind, raw, size);
}

void twz_out_add_le32(struct twz_out_file *f, uint32_t kind,
		      const uint32_t *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	twz_out_add(f, kind, v, n * 4);
#else
	twz_out_add_owned(f, kind, twz_le32_copy(v, n), n * 4);
#endif
}

void twz_out_add_le32_owned(struct twz_out_file *f, uint32_t kind,
			    uint32_t *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		twz_put32((uint8_t *)&v[i], v[i]);
	twz_out_add_owned(f, kind, v, n * 4);
}

static void out_free_owned(struct twz_out_file *f)
{
	for (unsigned i = 0; i < f->count; i++) {
		if (twz_spool_holds(f->spool, f->owned[i]))
			twz_big_free(f->spool, f->owned[i]);
		else
			free(f->owned[i]);
		f->owned[i] = NULL;
	}
	f->count = 0;
}

void twz_out_drop(struct twz_out_file *f)
{
	out_free_owned(f);
}

int twz_out_encode(struct twz_out_file *f, uint8_t **buf, size_t *len,
		   struct twz_error *err)
{
	struct twz_sink sink = { .buf = buf, .len = len };

	return twz_out_finish(f, &sink, err);
}

int twz_out_write(struct twz_out_file *f, const char *path,
		  struct twz_error *err)
{
	struct twz_sink sink = { .path = path };

	return twz_out_finish(f, &sink, err);
}

