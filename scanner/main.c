/* SPDX-License-Identifier: BSD-2-Clause */
/* fabaudit(8): subcommand dispatch, global help and version. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../core/interrupt.h"
#include "scanner.h"

static const struct {
	const char	*name;
	int		(*fn)(int, char **);
} cmds[] = {
	{ "scan", fa_cmd_scan },
	{ "check", fa_cmd_check },
	{ "checks", fa_cmd_checks },
	{ "diff", fa_cmd_diff },
	{ "verify", fa_cmd_verify },
	{ "keygen", fa_cmd_keygen },
	{ "merge", fa_cmd_merge },
	{ "catalogue", fa_cmd_catalogue },
};

static void
usage(FILE *f)
{
	fprintf(f, "%s%s%s%s%s%s%s%s       fabaudit -h | --version\n",
	    fa_usage_scan, fa_usage_check, fa_usage_checks, fa_usage_diff,
	    fa_usage_merge, fa_usage_verify, fa_usage_keygen,
	    fa_usage_catalogue);
}

int
main(int argc, char **argv)
{
	size_t i;

	/* A peer that resets a connection (a TLS probe, a closed pipe) must
	 * make a write fail, not kill the scan. */
	signal(SIGPIPE, SIG_IGN);
	/* SIGINT/SIGTERM/SIGHUP: no partial output, exit 130/143/129. */
	if (fa_interrupt_install() != 0) {
		fa_diag(NULL, "cannot install signal handlers");
		return FA_EXIT_NORUN;
	}

	/* Errors are one line on stderr; -h prints the usage. */
	if (argc < 2) {
		fa_diag(NULL, "no command given (scan, check, checks, diff, "
		    "merge, verify, keygen, catalogue; see fabaudit -h)");
		return FA_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return FA_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("fabaudit %s\n", FA_VERSION);
		return FA_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	fa_diag(NULL, "unknown command '%s' (see fabaudit -h)", argv[1]);
	return FA_EXIT_USAGE;
}
