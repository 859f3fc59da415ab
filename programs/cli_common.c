/*
 * cli_common.c - see cli_common.h.
 */
#include "cli_common.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shard.h"

const char twz_usage_text[] =
	"usage:\n"
	"  twigz build LEVEL.map -o OUT.twz [--method cpd|transit] [--threads N]\n"
	"              [--codec zstd|raw] [--level N] [--connectivity 8|4]\n"
	"              [--format 1.2|1.4|1.1|1.0] [--max-nodes N] [--max-seconds N]\n"
	"              [--quiet] [--memory-limit SIZE]\n"
	"              [--apsp dijkstra|floyd|squaring|lines] [--junctions]\n"
	"              [--transit-grid G] [--transit-inner R] [--transit-outer R]\n"
	"              [--agent-sizes 1,2,3] [--chunk SIZE] [--costs FILE]\n"
	"              [--shard I/N] (OUT is then a partial file for merge)\n"
	"  twigz build LEVEL.map -o OUT.twz --mpi [options] (under mpirun -np K)\n"
	"  twigz build LEVEL.gr -o OUT.twz [--coords FILE.co] [--links FILE] [--apsp ...]\n"
	"              [--threads N] [--codec zstd|raw] [--level N] [--max-nodes N]\n"
	"              [--max-seconds N]\n"
	"  twigz build LEVEL.obj -o OUT.twz [--costs FILE] [--apsp ...] [--threads N]\n"
	"              [--codec ...]\n"
	"  twigz query DB SX SY GX GY [--json] [--closed FILE] [--agent-size K]\n"
	"              [--smooth] [--cache SIZE] [--exclude AREA,...]\n"
	"  twigz query DB --scen FILE.scen [--json] [--closed FILE] [--agent-size K]\n"
	"              [--smooth] [--cache SIZE] [--exclude AREA,...]\n"
	"  twigz query DB S T [--json] [--closed FILE]\n"
	"                                       (graph: the .gr file's vertex ids)\n"
	"  twigz query DB --p2p FILE.p2p [--json] [--closed FILE]\n"
	"  twigz query DB SX SY SZ GX GY GZ [--json] [--waypoints funnel|midpoints]\n"
	"  twigz query DB --points FILE [--json] [--waypoints funnel|midpoints]\n"
	"              [--closed FILE] [--exclude AREA,...]\n"
	"                                       (navmesh: points in space, y up)\n"
	"  twigz verify DB FILE.scen [--json] [--agent-size K] [--cache SIZE]\n"
	"  twigz verify DB FILE.p2p             (graph: against its own Dijkstra)\n"
	"  twigz verify DB FILE.points          (navmesh: against its own Dijkstra)\n"
	"  twigz info DB [--json]\n"
	"  twigz check LEVEL.map DB [build options] [--quiet]\n"
	"              exit 0 up to date, 1 stale (says why), 2 error\n"
	"  twigz bench DB [FILE.scen] [--json] [--pairs N] [--seed N]\n"
	"              [--baselines] [--paths N] [--cache SIZE]\n"
	"  twigz unpack IN.twz -o OUT.twz\n"
	"  twigz merge PART... -o OUT.twz [--threads N] [--quiet]\n"
	"  twigz render LEVEL|DB -o OUT.png|OUT.svg [--path SX,SY,GX,GY]... (render --help)\n"
	"  twigz render DB -o OUT.png|OUT.svg [--path S,T]...  (graph with --coords)\n"
	"  twigz render DB -o OUT.png|OUT.svg [--path SX SY SZ GX GY GZ]... (navmesh)\n"
	"  twigz --version\n"
	"  twigz help [COMMAND]\n"
	"  twigz COMMAND --help\n"
	"exit status: 0 ok, 1 verification failed, 2 usage, 3 bad input,\n"
	"             4 I/O error, 5 out of memory\n";

/* The command whose words are being read (twz_cli_set_command): its
 * usage errors show its own lines, not every command's. */
static const char *usage_command;

void twz_cli_set_command(const char *cmd)
{
	usage_command = cmd;
}

/* CMD's lines of the usage text, and the exit statuses, on f; 0 when
 * the text has no line for CMD. */
static int command_usage(FILE *f, const char *cmd)
{
	const char *p = twz_usage_text;
	size_t cl = strlen(cmd);
	int on = 0, found = 0;

	fputs("usage:\n", f);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		/* "  twigz CMD ..." starts a command's lines, deeper indented
		 * lines continue them, and the exit statuses close the text. */
		if (!strncmp(p, "  twigz ", 8)) {
			on = !strncmp(p + 8, cmd, cl) && (p[8 + cl] == ' ' || p[8 + cl] == '\n');
			found |= on;
		} else if (strncmp(p, "    ", 4)) {
			on = !strncmp(p, "exit status", 11);
		}
		if (on)
			fwrite(p, 1, len, f);
		p += len;
	}
	return found;
}

static int usage_v(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "twigz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage_command && command_usage(stderr, usage_command))
		fputs("(every command: twigz help)\n", stderr);
	else
		fputs(twz_usage_text, stderr);
	return EXIT_USAGE;
}

int twz_cli_usage(const char *fmt, const char *arg)
{
	return usage_v(fmt, arg);
}

int twz_cli_command_usage(const char *cmd)
{
	return command_usage(stdout, cmd);
}

int twz_cli_check_output(const char *opt, const char *path)
{
	struct stat sb;

	if (!strcmp(path, "-"))
		return usage_v("%s -: twigz writes files, not standard output; give a file name",
			       opt);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "twigz: %s: is a directory; %s needs a file name\n", path, opt);
		return EXIT_IO;
	}
	return 0;
}

int twz_cli_error(const struct twz_error *err)
{
	fprintf(stderr, "twigz: %s\n", err->msg);
	switch (err->kind) {
	case TWZ_ERR_IO: return EXIT_IO;
	case TWZ_ERR_NOMEM: return EXIT_NOMEM;
	case TWZ_ERR_USAGE: return EXIT_USAGE;
	default: return EXIT_INPUT;
	}
}

/* Whether path starts as a shard's partial file does. */
static int is_partial(const char *path)
{
	uint8_t head[TWZ_MAGIC_SIZE];
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(head, 1, sizeof head, f) : 0;

	if (f)
		fclose(f);
	return twz_shard_is_partial(head, got);
}

int twz_cli_open_db(const char *path, twz_db **db)
{
	return twz_cli_open_db_cache(path, 0, db);
}

int twz_cli_open_db_cache(const char *path, uint64_t cache, twz_db **db)
{
	twz_open_options opt = { .cache_bytes = cache };

	errno = 0;
	twz_status st = twz_open_ex(path, &opt, db);
	if (st == TWZ_OK)
		return 0;
	if (st == TWZ_E_IO)
		fprintf(stderr, "twigz: %s: cannot open: %s\n", path,
			errno ? strerror(errno) : "I/O error");
	else if (st == TWZ_E_NOT_TWIGZ && is_partial(path))
		fprintf(stderr, "twigz: %s: a partial bake (one shard of twigz build --shard), not a database: merge it first with twigz merge\n",
			path);
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

/* ---- reading a subcommand's words ------------------------------------ */

const char *twz_cli_next(struct twz_cli_args *ar)
{
	if (ar->status || ar->next >= ar->argc)
		return NULL;
	return ar->argv[ar->next++];
}

/* The word after the option, taken with it; NULL when there is none. */
static const char *take_value(struct twz_cli_args *ar)
{
	if (ar->next >= ar->argc)
		return NULL;
	return ar->argv[ar->next++];
}

const char *twz_cli_value(struct twz_cli_args *ar, const char *opt,
			  const char *needs)
{
	const char *val = take_value(ar);

	if (!val && !ar->status)
		ar->status = usage_v("%s needs %s", opt, needs);
	return val;
}

void twz_cli_bad_value(struct twz_cli_args *ar, const char *opt,
		       const char *needs, const char *val)
{
	if (!ar->status)
		ar->status = usage_v("%s needs %s, not '%s'", opt, needs,
				     val ? val : "");
}

long twz_cli_number(struct twz_cli_args *ar, const char *opt, long lo,
		    long hi, const char *needs)
{
	const char *val = take_value(ar);
	long v = lo;

	if (!val || twz_cli_parse_int(val, lo, hi, &v))
		twz_cli_bad_value(ar, opt, needs, val);
	return v;
}

uint64_t twz_cli_bytes(struct twz_cli_args *ar, const char *opt, uint64_t lo,
		       uint64_t hi, const char *needs)
{
	const char *val = take_value(ar);
	unsigned long long v = 0;
	char *end = NULL;
	unsigned shift = 0;

	if (val && *val >= '0' && *val <= '9') {
		errno = 0;
		v = strtoull(val, &end, 10);
		if (errno)
			end = NULL;
	}
	if (end && *end) {
		const char *units = "KMGT";
		const char *u = strchr(units, toupper((unsigned char)*end));
		if (u && *u) {
			shift = 10 * (unsigned)(u - units + 1);
			end++;
			if (!strcmp(end, "iB") || !strcmp(end, "B"))
				end += strlen(end);
		}
		if (*end)
			end = NULL;
	}
	if (!end || (v << shift >> shift) != v || (v << shift) < lo ||
	    (v << shift) > hi) {
		twz_cli_bad_value(ar, opt, needs, val);
		return lo;
	}
	return (uint64_t)v << shift;
}

int twz_cli_choice(struct twz_cli_args *ar, const char *opt,
		   const char *const *choices, const char *needs)
{
	const char *val = take_value(ar);

	for (int k = 0; val && choices[k]; k++)
		if (!strcmp(val, choices[k]))
			return k;
	twz_cli_bad_value(ar, opt, needs, val);
	return 0;
}

void twz_cli_place(struct twz_cli_args *ar, const char *word,
		   const char **slots, int n)
{
	for (int k = 0; k < n; k++) {
		if (!slots[k]) {
			slots[k] = word;
			return;
		}
	}
	if (!ar->status)
		ar->status = usage_v("unexpected argument '%s'", word);
}

void twz_cli_operand(struct twz_cli_args *ar, const char *word,
		     const char **slots, int n)
{
	if (word[0] == '-' && word[1]) {
		if (!ar->status)
			ar->status = usage_v("unknown option '%s'", word);
		return;
	}
	twz_cli_place(ar, word, slots, n);
}

int twz_cli_verify_status(const char *file, size_t passed, size_t failed,
			  size_t off, const char *off_what)
{
	if (failed)
		return EXIT_VERIFY;
	if (passed)
		return 0;
	if (off)
		fprintf(stderr, "twigz: %s: nothing verified: all %zu queries are %s\n",
			file, off, off_what);
	else
		fprintf(stderr, "twigz: %s: nothing verified: it holds no query\n", file);
	return EXIT_VERIFY;
}
