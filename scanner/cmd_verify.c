/* fabaudit verify: placeholder until the command lands. */
#include <stdio.h>

#include "scanner.h"

const char fa_usage_verify[] = "       fabaudit verify ...\n";

int
fa_cmd_verify(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fa_diag(NULL, "verify is not implemented yet");
	return FA_EXIT_NORUN;
}
