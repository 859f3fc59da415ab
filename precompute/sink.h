/*
 * sink.h - where the bytes of a file the writer (twz_writer.h) lays
 * out go: a growing buffer, or a file written in place as a temporary
 * file next to its path, fsync'd and renamed once whole, so that no
 * failure, Ctrl-C or SIGTERM leaves a partial file behind.
 */
#ifndef SINK_H
#define SINK_H

#include <stddef.h>
#include <stdint.h>

#include "twz_error.h"

/* Where the bytes of a file go: a file being written (fd), or a
 * growing buffer (fd -1; bytes not written are zero). */
struct twz_out {
	int fd;
	uint8_t *buf;
	size_t len;
	size_t cap;
};

/* n bytes of p at offset at of o. 0, or -1 with errno set. */
int twz_out_put(struct twz_out *o, uint64_t at, const void *p, size_t n);

/* Where a finished file goes (twz_out_finish): the file at path, written
 * in place as a temporary file next to it and renamed once whole, or,
 * without a path, a malloc'd buffer (*buf, *len). */
struct twz_sink {
	const char *path;
	uint8_t **buf;
	size_t *len;
	const char *magic;       /* TWZ_MAGIC_SIZE bytes; NULL: a database's */
	/* Called on the whole file before it counts (the temporary file's
	 * path tmp, or the buffer): 0, or -1 with err set to refuse it. */
	int (*check)(const struct twz_sink *sink, const char *tmp,
		     const uint8_t *buf, size_t len, struct twz_error *err);
};

/* Write bytes to path through a temporary file in the same directory,
 * fsync'd and renamed into place; on failure nothing is left behind. */
int twz_write_atomic(const char *path, const uint8_t *buf, size_t len,
		     struct twz_error *err);

/* An output written in place: a temporary file next to path (removed
 * by SIGINT, SIGTERM and SIGHUP), then fsync'd and renamed into place by
 * commit, or removed by cancel. */
struct twz_atomic_guard;
struct twz_atomic {
	char *tmp;
	int fd;
	struct twz_atomic_guard *guard;
};
int twz_atomic_begin(const char *path, struct twz_atomic *a,
		     struct twz_error *err);
int twz_atomic_commit(struct twz_atomic *a, const char *path,
		      struct twz_error *err);
void twz_atomic_cancel(struct twz_atomic *a);

#endif
