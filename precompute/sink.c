/*
 * sink.c - where a written file's bytes go (sink.h): a growing buffer,
 * or a file written in place under a temporary name and renamed once
 * whole.
 */
#include "sink.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- where the bytes go ----------------------------------------------- */

int twz_out_put(struct twz_out *o, uint64_t at, const void *p, size_t n)
{
	if (o->fd >= 0) {
		const uint8_t *b = p;
		while (n) {
			ssize_t w = pwrite(o->fd, b, n, (off_t)at);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return -1;
			b += w;
			at += (uint64_t)w;
			n -= (size_t)w;
		}
		return 0;
	}
	if (at + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		while (cap < at + n)
			cap *= 2;
		uint8_t *nb = realloc(o->buf, cap);
		if (!nb) {
			errno = ENOMEM;
			return -1;
		}
		/* Padding between sections is zero. */
		memset(nb + o->cap, 0, cap - o->cap);
		o->buf = nb;
		o->cap = cap;
	}
	if (n)
		memcpy(o->buf + at, p, n);
	if (at + n > o->len)
		o->len = (size_t)(at + n);
	return 0;
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
	struct twz_atomic a;
	struct twz_out o = { .fd = -1 };

	if (twz_atomic_begin(path, &a, err) != 0)
		return -1;
	o.fd = a.fd;
	if (twz_out_put(&o, 0, buf, len) != 0) {
		int e = errno;
		twz_atomic_cancel(&a);
		twz_error_kind_set(err, TWZ_ERR_IO, "%s: cannot write: %s", path,
				   strerror(e));
		return -1;
	}
	return twz_atomic_commit(&a, path, err);
}

/* ---- an output written in place ------------------------------------- */

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
