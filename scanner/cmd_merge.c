/* fabaudit merge: placeholder until the command lands. */
#include <stdio.h>

#include "scanner.h"

const char fa_usage_merge[] = "       fabaudit merge ...\n";

int
fa_cmd_merge(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fa_diag(NULL, "merge is not implemented yet");
	return FA_EXIT_NORUN;
}
