/* fabaudit keygen: placeholder until the command lands. */
#include <stdio.h>

#include "scanner.h"

const char fa_usage_keygen[] = "       fabaudit keygen ...\n";

int
fa_cmd_keygen(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fa_diag(NULL, "keygen is not implemented yet");
	return FA_EXIT_NORUN;
}
