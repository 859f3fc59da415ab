/*
 * build_mpi.h - `twigz build --mpi`: one CPD or TRANSIT bake on the ranks of an MPI
 * job (mpirun -np K), each rank a shard on its own cores, rank 0
 * gathering the shards and writing the merged database.
 */
#ifndef BUILD_MPI_H
#define BUILD_MPI_H

#include "bake.h"

/* Whether this twigz was built with MPI (meson -Dmpi). */
int twz_build_mpi_available(void);

/* Bakes level to out with opt on every rank of the job, each rank a
 * shard (twz_bake_part); the exit status (cli_common.h), the same on
 * every rank. Without MPI: a one-line error. */
int twz_build_mpi(const char *level, const struct twz_bake_options *opt,
		  const char *out, int quiet);

#endif
