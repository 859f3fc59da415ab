/*
 * twz_writer.c - the .twz writer (FORMAT.md).
 */
#include "twz_writer.h"
#include "twz_chunk_writer.h"

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
#include <zstd.h>

static uint64_t align_up(uint64_t v)
{
	return (v + TWZ_SECTION_ALIGN - 1) & ~(uint64_t)(TWZ_SECTION_ALIGN - 1);
}

struct stored {
	const void *bytes;
	size_t size;
	uint16_t codec;
	uint16_t flags;       /* TWZ_SF_* */
	void *owned;
};

/* zstd when it saves space, raw otherwise (the reader accepts both);
 * section i of sections[count] in chunks when h asks for them. */
static int store_section(const struct twz_out_header *h,
			 const struct twz_out_section *sections,
			 unsigned count, unsigned i, struct stored *out,
			 struct twz_error *err)
{
	const struct twz_out_section *s = &sections[i];
	unsigned codec = h->codec;
	int level = h->level;

	out->bytes = s->raw;
	out->size = s->raw_size;
	out->codec = TWZ_CODEC_RAW;
	out->flags = 0;
	out->owned = NULL;
	/* BUILD_INFO stays raw: a few hundred bytes, readable as text in
	 * the file itself. */
	if (codec != TWZ_CODEC_ZSTD || s->raw_size == 0 ||
	    s->kind == TWZ_SECTION_BUILD_INFO)
		return 0;
	if (twz_chunk_wanted(sections, count, i, h->chunk)) {
		void *chunked;
		size_t n;
		if (twz_chunk_store(sections, count, i, h->chunk, level,
				    &chunked, &n, err) != 0)
			return -1;
		out->bytes = out->owned = chunked;
		out->size = n;
		out->codec = TWZ_CODEC_ZSTD;
		out->flags = TWZ_SF_CHUNKED;
		return 0;
	}
	size_t bound = ZSTD_compressBound(s->raw_size);
	void *dst = malloc(bound);
	if (!dst) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory compressing a %zu-byte section",
			      s->raw_size);
		return -1;
	}
	size_t n = ZSTD_compress(dst, bound, s->raw, s->raw_size, level);
	if (ZSTD_isError(n)) {
		free(dst);
		twz_error_set(err, "zstd: %s", ZSTD_getErrorName(n));
		return -1;
	}
	if (n >= s->raw_size) {
		free(dst);
		return 0;
	}
	out->bytes = dst;
	out->size = n;
	out->codec = TWZ_CODEC_ZSTD;
	out->owned = dst;
	return 0;
}

/* Sections are compressed on up to h->threads threads at once, biggest
 * first. Each is one frame made by one call with the same parameters,
 * so the bytes are the same whatever the thread count. */
struct compress_job {
	const struct twz_out_header *h;
	const struct twz_out_section *sections;
	struct stored *st;
	const unsigned *order;     /* section indices, biggest first */
	unsigned count;
	atomic_uint next;
	atomic_int failed;
	pthread_mutex_t lock;      /* guards err */
	struct twz_error *err;
};

static void *compress_worker(void *arg)
{
	struct compress_job *job = arg;
	struct twz_error mine = { { 0 }, 0 };

	for (;;) {
		unsigned k = atomic_fetch_add(&job->next, 1);
		if (k >= job->count || atomic_load(&job->failed))
			break;
		unsigned i = job->order[k];
		if (store_section(job->h, job->sections, job->count, i,
				  &job->st[i], &mine) != 0) {
			pthread_mutex_lock(&job->lock);
			if (!atomic_exchange(&job->failed, 1))
				*job->err = mine;
			pthread_mutex_unlock(&job->lock);
			break;
		}
	}
	return NULL;
}

static int store_sections(const struct twz_out_header *h,
			  const struct twz_out_section *sections,
			  unsigned count, struct stored *st,
			  struct twz_error *err)
{
	unsigned order[TWZ_MAX_SECTIONS];
	pthread_t tid[TWZ_MAX_SECTIONS];
	unsigned started = 0;
	struct compress_job job = {
		.h = h, .sections = sections, .st = st, .order = order,
		.count = count, .err = err,
	};

	for (unsigned i = 0; i < count; i++) {
		st[i] = (struct stored){ sections[i].raw, sections[i].raw_size,
					 TWZ_CODEC_RAW, 0, NULL };
		order[i] = i;
	}
	for (unsigned i = 1; i < count; i++)      /* biggest first, stable */
		for (unsigned j = i; j > 0 &&
		     sections[order[j]].raw_size > sections[order[j - 1]].raw_size; j--) {
			unsigned t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	atomic_init(&job.next, 0);
	atomic_init(&job.failed, 0);
	pthread_mutex_init(&job.lock, NULL);
	unsigned threads = h->threads ? h->threads : 1;
	if (h->codec != TWZ_CODEC_ZSTD)
		threads = 1;            /* nothing to compress */
	if (threads > count)
		threads = count ? count : 1;
	/* This thread is one of the workers. */
	for (; started + 1 < threads; started++)
		if (pthread_create(&tid[started], NULL, compress_worker, &job) != 0)
			break;
	compress_worker(&job);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&job.lock);
	if (atomic_load(&job.failed)) {
		for (unsigned i = 0; i < count; i++)
			free(st[i].owned);
		return -1;
	}
	return 0;
}

/* sections with h's BUILD_INFO text added in kind order, into all. */
static unsigned with_build_info(const struct twz_out_header *h,
				const struct twz_out_section *sections,
				unsigned count, struct twz_out_section *all)
{
	struct twz_out_section info = {
		TWZ_SECTION_BUILD_INFO, h->build_info,
		strnlen(h->build_info, sizeof h->build_info)
	};
	unsigned n = 0, placed = 0;

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

int twz_encode(const struct twz_out_header *h,
	       const struct twz_out_section *sections, unsigned count,
	       uint8_t **buf, size_t *len, struct twz_error *err)
{
	struct twz_out_section all[TWZ_MAX_SECTIONS];
	struct stored st[TWZ_MAX_SECTIONS];
	uint64_t offset[TWZ_MAX_SECTIONS];
	uint8_t *out = NULL;
	unsigned done = 0, chunked = 0;
	int rc = -1;

	if (count + (h->build_info[0] != 0) > TWZ_MAX_SECTIONS) {
		twz_error_set(err, "too many sections (%u)", count);
		return -1;
	}
	if (h->build_info[0]) {
		count = with_build_info(h, sections, count, all);
		sections = all;
	}
	uint64_t pos = align_up(TWZ_HEADER_SIZE +
				(uint64_t)count * TWZ_SECTION_ENTRY_SIZE);
	if (store_sections(h, sections, count, st, err) != 0)
		return -1;
	for (; done < count; done++) {
		offset[done] = pos;
		pos = align_up(pos + st[done].size);
	}
	/* The last section ends the file: no padding after it. */
	uint64_t file_size = count ? offset[count - 1] + st[count - 1].size
				   : TWZ_HEADER_SIZE;
	out = calloc(1, (size_t)file_size);
	if (!out) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "out of memory for a %llu-byte file",
			      (unsigned long long)file_size);
		goto out_free;
	}

	for (unsigned i = 0; i < count; i++) {
		uint8_t *e = out + TWZ_HEADER_SIZE + (size_t)i * TWZ_SECTION_ENTRY_SIZE;
		twz_put32(e + TWZ_S_KIND, sections[i].kind);
		twz_put16(e + TWZ_S_CODEC, st[i].codec);
		twz_put16(e + TWZ_S_FLAGS, st[i].flags);
		chunked |= st[i].flags & TWZ_SF_CHUNKED;
		twz_put64(e + TWZ_S_OFFSET, offset[i]);
		twz_put64(e + TWZ_S_SIZE, st[i].size);
		twz_put64(e + TWZ_S_RAW_SIZE, sections[i].raw_size);
		twz_put64(e + TWZ_S_RAW_CHECKSUM,
			  twz_checksum(sections[i].raw, sections[i].raw_size));
		if (st[i].size)
			memcpy(out + offset[i], st[i].bytes, st[i].size);
	}

	memcpy(out + TWZ_H_MAGIC, TWZ_MAGIC, TWZ_MAGIC_SIZE);
	twz_put16(out + TWZ_H_MAJOR, TWZ_FORMAT_MAJOR);
	/* Chunks are a 1.4 feature: a file with any says so. */
	twz_put16(out + TWZ_H_MINOR, chunked && h->minor < 4 ? 4 : h->minor);
	twz_put32(out + TWZ_H_HEADER_SIZE, TWZ_HEADER_SIZE);
	twz_put64(out + TWZ_H_REQUIRED, h->required_features |
		  (chunked ? TWZ_FEATURE_CHUNKED_SECTIONS : 0));
	twz_put64(out + TWZ_H_OPTIONAL, 0);
	twz_put64(out + TWZ_H_FILE_SIZE, file_size);
	twz_put32(out + TWZ_H_SECTION_COUNT, count);
	twz_put32(out + TWZ_H_TABLE_OFFSET, TWZ_HEADER_SIZE);
	twz_put64(out + TWZ_H_TABLE_CHECKSUM,
		  twz_checksum(out + TWZ_HEADER_SIZE,
			       (size_t)count * TWZ_SECTION_ENTRY_SIZE));
	twz_put64(out + TWZ_H_LEVEL_HASH, h->level_hash);
	twz_put32(out + TWZ_H_WIDTH, h->width);
	twz_put32(out + TWZ_H_HEIGHT, h->height);
	twz_put32(out + TWZ_H_NODE_COUNT, h->node_count);
	twz_put32(out + TWZ_H_COMPONENT_COUNT, h->component_count);
	out[TWZ_H_METHOD] = h->method;
	out[TWZ_H_CONNECTIVITY] = h->connectivity;
	out[TWZ_H_NODE_ORDER] = h->node_order;
	out[TWZ_H_BUILD_CODEC] = h->codec;
	out[TWZ_H_BUILD_LEVEL] = (uint8_t)h->level;
	out[TWZ_H_LEVEL_KIND] = h->level_kind;
	twz_put64(out + TWZ_H_HEADER_CHECKSUM,
		  twz_checksum(out, TWZ_H_HEADER_CHECKSUM));

	*buf = out;
	*len = (size_t)file_size;
	rc = 0;
out_free:
	for (unsigned i = 0; i < done; i++)
		free(st[i].owned);
	return rc;
}

/* ---- the temporary file under a signal ------------------------------ */

/*
 * A terminal's Ctrl-C, or a build system's SIGTERM, between mkstemp and
 * rename would leave a whole OUT.twz.tmp.* behind. While it exists, these
 * signals (when they would end the process anyway) remove it first, then
 * end the process as they would have. The path is set and cleared with
 * the signals blocked, so the handler sees it whole or not at all.
 */
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define TMP_SIGNAL_COUNT (sizeof tmp_signals / sizeof tmp_signals[0])

static const char *volatile tmp_pending;

static void tmp_on_signal(int sig)
{
	const char *tmp = tmp_pending;

	if (tmp)
		unlink(tmp);
	/* SA_RESETHAND restored the default action: end the process by it. */
	raise(sig);
}

struct tmp_guard {
	sigset_t set, old_mask;
	struct sigaction old[TMP_SIGNAL_COUNT];
	unsigned char installed[TMP_SIGNAL_COUNT];
};

static void tmp_block(struct tmp_guard *g)
{
	sigemptyset(&g->set);
	for (size_t i = 0; i < TMP_SIGNAL_COUNT; i++)
		sigaddset(&g->set, tmp_signals[i]);
	pthread_sigmask(SIG_BLOCK, &g->set, &g->old_mask);
}

/* With the signals blocked: mark tmp for removal on a signal that takes
 * the default action (an ignored or handled one is left as it is). */
static void tmp_guard(struct tmp_guard *g, const char *tmp)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tmp_on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	tmp_pending = tmp;
	for (size_t i = 0; i < TMP_SIGNAL_COUNT; i++) {
		g->installed[i] = 0;
		if (sigaction(tmp_signals[i], NULL, &g->old[i]) == 0 &&
		    !(g->old[i].sa_flags & SA_SIGINFO) &&
		    g->old[i].sa_handler == SIG_DFL &&
		    sigaction(tmp_signals[i], &sa, NULL) == 0)
			g->installed[i] = 1;
	}
	pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
}

/* With the signals blocked again: forget tmp, restore the actions, then
 * let a signal that came meanwhile act as it would have. */
static void tmp_release(struct tmp_guard *g)
{
	tmp_pending = NULL;
	for (size_t i = 0; i < TMP_SIGNAL_COUNT; i++)
		if (g->installed[i])
			sigaction(tmp_signals[i], &g->old[i], NULL);
	pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
}

int twz_write_atomic(const char *path, const uint8_t *buf, size_t len,
		     struct twz_error *err)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	struct tmp_guard guard;
	int fd;

	if (!tmp) {
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
		return -1;
	}
	/* rename() onto a directory fails late and obscurely (EBUSY for
	 * "."): say what is wrong before writing anything. */
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: is a directory, not a file to write",
				   path);
		free(tmp);
		return -1;
	}
	snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
	tmp_block(&guard);
	fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		pthread_sigmask(SIG_SETMASK, &guard.old_mask, NULL);
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot create a temporary file: %s", path,
			      strerror(e));
		free(tmp);
		return -1;
	}
	tmp_guard(&guard, tmp);
	/* mkstemp makes 0600; a database is an ordinary asset. */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0)
		goto fail;
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += (size_t)n;
	}
	if (fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	tmp_block(&guard);
	if (rename(tmp, path) != 0)
		goto fail_blocked;
	tmp_release(&guard);
	free(tmp);
	return 0;

fail:
	tmp_block(&guard);
fail_blocked:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	tmp_release(&guard);
	twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path, strerror(e));
	free(tmp);
	return -1;
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
	twz_out_add_owned(f, kind, twz_le32_copy(v, n), n * 4);
}

static void out_free(struct twz_out_file *f)
{
	for (unsigned i = 0; i < f->count; i++)
		free(f->owned[i]);
	f->count = 0;
}

int twz_out_encode(struct twz_out_file *f, const char *name, uint8_t **buf,
		   size_t *len, struct twz_error *err)
{
	int rc = -1;

	if (f->failed)
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", name);
	else
		rc = twz_encode(&f->h, f->sec, f->count, buf, len, err);
	out_free(f);
	return rc;
}

int twz_out_write(struct twz_out_file *f, const char *name, const char *path,
		  struct twz_error *err)
{
	uint8_t *buf;
	size_t len;

	if (twz_out_encode(f, name, &buf, &len, err) != 0)
		return -1;
	int rc = twz_write_atomic(path, buf, len, err);
	free(buf);
	return rc;
}

/* ---- an output written in place (twz_writer_stream.c) ---------------- */

struct twz_atomic_guard {
	struct tmp_guard g;
};

int twz_atomic_begin(const char *path, struct twz_atomic *a,
		     struct twz_error *err)
{
	size_t plen = strlen(path);
	struct stat sb;

	memset(a, 0, sizeof *a);
	a->fd = -1;
	a->tmp = malloc(plen + 16);
	a->guard = malloc(sizeof *a->guard);
	if (!a->tmp || !a->guard) {
		free(a->tmp);
		free(a->guard);
		a->tmp = NULL;
		a->guard = NULL;
		twz_error_kind_set(err, TWZ_ERR_NOMEM, "%s: out of memory", path);
		return -1;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: is a directory, not a file to write",
				   path);
		goto fail;
	}
	snprintf(a->tmp, plen + 16, "%s.tmp.XXXXXX", path);
	tmp_block(&a->guard->g);
	a->fd = mkstemp(a->tmp);
	if (a->fd < 0) {
		int e = errno;
		pthread_sigmask(SIG_SETMASK, &a->guard->g.old_mask, NULL);
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot create a temporary file: %s",
				   path, strerror(e));
		goto fail;
	}
	tmp_guard(&a->guard->g, a->tmp);
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(a->fd, 0666 & ~mask) != 0) {
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path,
				   strerror(errno));
		twz_atomic_cancel(a);
		return -1;
	}
	return 0;
fail:
	free(a->tmp);
	free(a->guard);
	a->tmp = NULL;
	a->guard = NULL;
	return -1;
}

void twz_atomic_cancel(struct twz_atomic *a)
{
	if (!a->tmp)
		return;
	tmp_block(&a->guard->g);
	if (a->fd >= 0)
		close(a->fd);
	unlink(a->tmp);
	tmp_release(&a->guard->g);
	free(a->tmp);
	free(a->guard);
	a->tmp = NULL;
	a->guard = NULL;
	a->fd = -1;
}

int twz_atomic_commit(struct twz_atomic *a, const char *path,
		      struct twz_error *err)
{
	int e;

	if (fsync(a->fd) != 0) {
		e = errno;
		goto fail;
	}
	int rc = close(a->fd);
	a->fd = -1;
	if (rc != 0) {
		e = errno;
		goto fail;
	}
	tmp_block(&a->guard->g);
	if (rename(a->tmp, path) != 0) {
		e = errno;
		pthread_sigmask(SIG_SETMASK, &a->guard->g.old_mask, NULL);
		goto fail;
	}
	tmp_release(&a->guard->g);
	free(a->tmp);
	free(a->guard);
	a->tmp = NULL;
	a->guard = NULL;
	return 0;
fail:
	twz_atomic_cancel(a);
	twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path, strerror(e));
	return -1;
}
