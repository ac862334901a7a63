/* report.junit: placeholder until the writer lands. */
#include "../core/errors.h"
#include "../core/util.h"
#include "report.h"

int
fa_report_junit(const json_t *report, char **buf, size_t *len, char **why)
{
	(void)report;
	*buf = NULL;
	*len = 0;
	if (why != NULL)
		*why = fa_strdup("the junit writer is not implemented yet");
	return FA_ERR_INTERNAL;
}
