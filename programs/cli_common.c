/*
 * cli_common.c - see cli_common.h.
 */
#include "cli_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char twz_usage_text[] =
	"usage:\n"
	"  twigz build LEVEL.map -o OUT.twz [--method cpd|transit] [--threads N]\n"
	"              [--codec zstd|raw] [--level N] [--connectivity 8|4]\n"
	"              [--format 1.2|1.1|1.0] [--max-nodes N] [--quiet]\n"
	"              [--transit-grid G] [--transit-inner R] [--transit-outer R]\n"
	"  twigz query DB SX SY GX GY [--json]\n"
	"  twigz query DB --scen FILE.scen [--json]\n"
	"  twigz verify DB FILE.scen\n"
	"  twigz info DB [--json]\n"
	"  twigz bench DB [FILE.scen] [--json] [--pairs N] [--seed N]\n"
	"  twigz unpack IN.twz -o OUT.twz\n"
	"  twigz render LEVEL|DB -o OUT.png|OUT.svg [--path SX,SY,GX,GY]... (render --help)\n"
	"  twigz --version\n"
	"exit status: 0 ok, 1 verification failed, 2 usage, 3 bad input,\n"
	"             4 I/O error, 5 out of memory\n";

int twz_cli_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "twigz: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", twz_usage_text);
	return EXIT_USAGE;
}

int twz_cli_error(const struct twz_error *err)
{
	fprintf(stderr, "twigz: %s\n", err->msg);
	switch (err->kind) {
	case TWZ_ERR_IO: return EXIT_IO;
	case TWZ_ERR_NOMEM: return EXIT_NOMEM;
	default: return EXIT_INPUT;
	}
}

int twz_cli_open_db(const char *path, twz_db **db)
{
	errno = 0;
	twz_status st = twz_open(path, 0, db);
	if (st == TWZ_OK)
		return 0;
	if (st == TWZ_E_IO)
		fprintf(stderr, "twigz: %s: cannot open: %s\n", path,
			errno ? strerror(errno) : "I/O error");
	else
		fprintf(stderr, "twigz: %s: %s\n", path, twz_strerror(st));
	return st == TWZ_E_IO ? EXIT_IO : st == TWZ_E_NOMEM ? EXIT_NOMEM : EXIT_INPUT;
}

int twz_cli_parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}
