/* SPDX-License-Identifier: BSD-2-Clause */
/* Messages for the FA_ERR_* codes of errors.h. */
#include "errors.h"

const char *
fa_strerror(int err)
{
	switch (err) {
	case FA_OK:
		return "success";
	case FA_ERR_NOMEM:
		return "out of memory";
	case FA_ERR_INPUT:
		return "invalid input";
	case FA_ERR_IO:
		return "input/output error";
	case FA_ERR_NOTFOUND:
		return "not found";
	case FA_ERR_UNAVAIL:
		return "not available";
	case FA_ERR_TOOBIG:
		return "input too large";
	case FA_ERR_INTERNAL:
		return "internal error";
	}
	return "unknown error";
}
