/*
 * transit_cli.h - the TRANSIT part of `twigz build` (transit_cli.c).
 */
#ifndef TRANSIT_CLI_H
#define TRANSIT_CLI_H

#include "bake.h"
#include "level_map.h"
#include "transit.h"

/* One --transit-* option a with its value val (NULL when none): *used is
 * 1 when a is one (its value taken), 0 when it is not ours. Returns 0, or
 * the usage exit status after printing the error. */
int twz_transit_parse_option(const char *a, const char *val,
			     struct twz_transit_options *topt, int *used);

/* Bake grid with TRANSIT and write it to out; prints a summary unless
 * quiet. Returns the command's exit status. */
int twz_transit_build_cmd(const struct twz_grid *grid,
			  const struct twz_bake_options *opt,
			  const struct twz_transit_options *topt,
			  const char *out, int quiet);

#endif
