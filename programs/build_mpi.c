/*
 * build_mpi.c - `twigz build --mpi` (see build_mpi.h). Rank 0 reads the
 * level and sends its bytes to every rank (no shared file system
 * needed); rank r bakes shard r+1 of K (CPD or TRANSIT) into a partial
 * file in memory;
 * rank 0 gathers the K partial files and merges them exactly as `twigz
 * merge` does, so the database is the bake on one machine, byte for
 * byte. Every rank ends with the same exit status.
 */
#include "build_mpi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_common.h"
#include "file_read.h"
#include "bake_level.h"
#include "shard.h"

#ifdef TWZ_HAVE_MPI

#include <mpi.h>

/* Largest piece of one message: MPI counts are ints. */
#define PIECE ((size_t)1 << 30)

/* A length that says "this rank failed" instead. */
#define FAILED UINT64_MAX

static int send_bytes(const uint8_t *buf, size_t len, int to)
{
	for (size_t at = 0; at < len; at += PIECE) {
		size_t n = len - at < PIECE ? len - at : PIECE;
		if (MPI_Send(buf + at, (int)n, MPI_BYTE, to, 1, MPI_COMM_WORLD) != MPI_SUCCESS)
			return -1;
	}
	return 0;
}

static int recv_bytes(uint8_t *buf, size_t len, int from)
{
	for (size_t at = 0; at < len; at += PIECE) {
		size_t n = len - at < PIECE ? len - at : PIECE;
		if (MPI_Recv(buf + at, (int)n, MPI_BYTE, from, 1, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
	}
	return 0;
}

static int bcast_bytes(uint8_t *buf, size_t len)
{
	for (size_t at = 0; at < len; at += PIECE) {
		size_t n = len - at < PIECE ? len - at : PIECE;
		if (MPI_Bcast(buf + at, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
			return -1;
	}
	return 0;
}

/* Wait for a nonblocking collective by polling with short sleeps: Open
 * MPI's blocking calls spin, so a rank that finished its shard would
 * take a core from the ranks still baking (or merging) on its host. */
static void wait_sleeping(MPI_Request *req)
{
	const struct timespec nap = { 0, 2000000 };  /* 2 ms */
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&nap, NULL);
	}
}

/* The worst exit status of all ranks, on every rank. */
static int agree(int rc)
{
	int worst = rc;
	MPI_Request req;

	MPI_Iallreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
	wait_sleeping(&req);
	return worst;
}

/* This rank's partial file: shard rank+1 of ranks of the level's bytes. */
static int bake_shard(const uint8_t *level, size_t level_len,
		      const char *name, const struct twz_bake_options *opt,
		      int rank, int ranks, uint8_t **part, size_t *part_len)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_bake_options o = *opt;

	o.shard = (unsigned)rank + 1;
	o.shards = (unsigned)ranks;
	if (twz_bake_part(level, level_len, name, &o, part, part_len, &err) != 0)
		return twz_cli_error(&err);
	return 0;
}

/* Rank 0: every rank's partial file, then the merge. */
static int gather_merge(uint8_t *mine, size_t mine_len, int ranks,
			const struct twz_bake_options *opt, const char *level,
			const char *out, int quiet)
{
	struct twz_error err = { { 0 }, 0 };
	const uint8_t **bufs = calloc((size_t)ranks, sizeof *bufs);
	size_t *lens = calloc((size_t)ranks, sizeof *lens);
	char (*names)[32] = calloc((size_t)ranks, sizeof *names);
	const char **np = calloc((size_t)ranks, sizeof *np);
	struct twz_merge_result res;
	int rc = 0;

	if (!bufs || !lens || !names || !np) {
		fprintf(stderr, "twigz: %s: out of memory\n", level);
		rc = EXIT_NOMEM;
	}
	for (int r = 0; r < ranks; r++) {
		uint64_t len = mine_len;
		if (r > 0)
			MPI_Recv(&len, 1, MPI_UINT64_T, r, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		uint8_t *b = r == 0 ? mine : malloc(len ? (size_t)len : 1);
		if (r > 0 && (!b || recv_bytes(b, (size_t)len, r) != 0)) {
			/* The sender does not wait for an answer: the job
			 * ends with this rank's status. */
			if (!rc) {
				fprintf(stderr, "twigz: %s: cannot receive rank %d's shard\n",
					level, r);
				rc = b ? EXIT_IO : EXIT_NOMEM;
			}
		}
		if (bufs) {
			bufs[r] = b;
			lens[r] = (size_t)len;
			snprintf(names[r], sizeof names[r], "rank %d", r);
			np[r] = names[r];
		} else if (r > 0) {
			free(b);
		}
	}
	if (!rc && twz_shard_merge(bufs, lens, np, (unsigned)ranks, opt->threads,
				   out, &res, &err) != 0)
		rc = twz_cli_error(&err);
	if (!rc && !quiet)
		fprintf(stderr, "twigz: baked %s -> %s on %d ranks: %u nodes, %u regions, %"
			PRIu64 " runs\n", level, out, ranks, res.node_count,
			res.component_count, res.run_count);
	if (bufs)
		for (int r = 1; r < ranks; r++)
			free((void *)bufs[r]);
	free(bufs);
	free(lens);
	free(names);
	free(np);
	return rc;
}

int twz_build_mpi_available(void)
{
	return 1;
}

int twz_build_mpi(const char *level, const struct twz_bake_options *opt,
		  const char *out, int quiet)
{
	struct twz_error err = { { 0 }, 0 };
	struct twz_bake_options o = *opt;
	int rank = 0, ranks = 1, rc = 0;
	uint8_t *bytes = NULL, *part = NULL;
	size_t part_len = 0;
	uint64_t len = 0;

	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "twigz: --mpi: MPI_Init failed\n");
		return EXIT_IO;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	if (rank != 0)
		o.progress = 0;
	if ((unsigned)ranks > TWZ_SHARD_MAX) {
		if (rank == 0)
			fprintf(stderr, "twigz: --mpi: %d ranks, at most %u\n", ranks,
				TWZ_SHARD_MAX);
		MPI_Finalize();
		return EXIT_USAGE;
	}

	/* The level, from rank 0 to all. */
	if (rank == 0) {
		size_t n;
		bytes = twz_read_file(level, TWZ_MAX_LEVEL_BYTES, &n, &err);
		len = bytes ? n : FAILED;
		if (!bytes)
			rc = twz_cli_error(&err);
	}
	MPI_Bcast(&len, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (len == FAILED) {
		rc = agree(rc);
		MPI_Finalize();
		return rc;
	}
	if (rank != 0 && !(bytes = malloc(len ? (size_t)len : 1))) {
		/* The broadcast needs every rank: end the job instead. */
		fprintf(stderr, "twigz: %s: out of memory on rank %d\n", level, rank);
		MPI_Abort(MPI_COMM_WORLD, EXIT_NOMEM);
	}
	(void)bcast_bytes(bytes, (size_t)len);

	if (!rc)
		rc = bake_shard(bytes, (size_t)len, level, &o, rank, ranks,
				&part, &part_len);
	free(bytes);
	/* Every rank baked (or failed): gather only when all did. */
	rc = agree(rc);
	if (!rc) {
		if (rank == 0) {
			rc = gather_merge(part, part_len, ranks, &o, level, out, quiet);
		} else {
			uint64_t pl = part_len;
			MPI_Send(&pl, 1, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD);
			send_bytes(part, part_len, 0);
		}
		MPI_Request req;
		MPI_Ibcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
		wait_sleeping(&req);
	}
	free(part);
	MPI_Finalize();
	return rc;
}

#else

int twz_build_mpi_available(void)
{
	return 0;
}

int twz_build_mpi(const char *level, const struct twz_bake_options *opt,
		  const char *out, int quiet)
{
	(void)level;
	(void)opt;
	(void)out;
	(void)quiet;
	fprintf(stderr, "twigz: --mpi: this twigz was built without MPI (meson setup -Dmpi=enabled)\n");
	return EXIT_USAGE;
}

#endif
