/*
 * build_args.h - the words of `twigz build`, read by one reader for
 * build (and its --shard and --mpi) and for check, which takes the same
 * words and compares a database with what they would bake.
 */
#ifndef BUILD_ARGS_H
#define BUILD_ARGS_H

#include "bake.h"

struct twz_build_args {
	struct twz_bake_options opt;
	const char *out;          /* -o FILE */
	const char *operand[2];   /* the words no option took, in order */
	int quiet;                /* -q, --quiet */
	int mpi;                  /* --mpi: one shard a rank of an MPI job */
	int format_given;         /* --format (opt.layout is 0 without) */
};

/* Read the words of build into b, `operands` of them operands (1 for
 * build's level, 2 for check's level and database). 0, or the usage exit
 * status after the message. */
int twz_build_args_read(int argc, char **argv, unsigned operands,
			struct twz_build_args *b);

/* Whether b's options go together and with the level at path (by its
 * name's kind): 0, or the usage exit status after the message. */
int twz_build_args_check(const struct twz_build_args *b, const char *path);

#endif
