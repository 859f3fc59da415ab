/*
 * twigz_main.c - the `twigz` command: the table of subcommands (one
 * cmd_<name>.c each, declared in commands.h), --version and the usage.
 *
 * Exit status: 0 success, 1 verification failed, 2 usage, 3 bad input
 * (level, scenario or database), 4 I/O error, 5 out of memory.
 */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "twz_format.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "build", twz_cmd_build },
	{ "query", twz_cmd_query },
	{ "verify", twz_cmd_verify },
	{ "info", twz_cmd_info },
	{ "bench", twz_cmd_bench },
	{ "unpack", twz_cmd_unpack },
	{ "merge", twz_cmd_merge },
	{ "render", twz_cmd_render },
	{ "check", twz_cmd_check },
};

/* --help or -h among a command's words asks for its usage (render has
 * its own, longer help). */
static int asks_help(const char *cmd, int argc, char **argv)
{
	if (!strcmp(cmd, "render"))
		return 0;
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return twz_cli_usage("%s", "no command");
	const char *cmd = argv[1];
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		if (asks_help(cmd, argc - 2, argv + 2)) {
			twz_cli_command_usage(cmd);
			return 0;
		}
		return commands[i].run(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("twigz %s (format %d.%d; reads 1.0 to %d.%d)\n", twz_version(),
		       TWZ_FORMAT_MAJOR, TWZ_FORMAT_MINOR, TWZ_FORMAT_MAJOR,
		       TWZ_FORMAT_MINOR);
		return 0;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "help") || !strcmp(cmd, "-h")) {
		fputs(twz_usage_text, stdout);
		return 0;
	}
	return twz_cli_usage("unknown command '%s'", cmd);
}
