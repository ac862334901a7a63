/* SPDX-License-Identifier: BSD-2-Clause */
/* String tables for the result-contract enums, and the published check IDs. */
#include <string.h>

#include "errors.h"
#include "model.h"

static const char *const family_names[FA_FAM_MAX] = {
	"ib", "eth", "host",
};
static const char *const status_names[FA_ST_MAX] = {
	"pass", "fail", "not_tested", "not_applicable", "error",
};
static const char *const severity_names[FA_SEV_MAX] = {
	"critical", "high", "medium", "low", "info",
};
_Static_assert(sizeof(family_names) / sizeof(family_names[0]) == FA_FAM_MAX,
    "family_names");
_Static_assert(sizeof(status_names) / sizeof(status_names[0]) == FA_ST_MAX,
    "status_names");
_Static_assert(sizeof(severity_names) / sizeof(severity_names[0]) ==
    FA_SEV_MAX, "severity_names");

const char *const fa_known_check_ids[] = {
#define FA_CHECK(ID, SYMBOL)	ID,
#include "checks.def"
	NULL
};

const char *
fa_family_name(enum fa_family f)
{
	return (unsigned)f < FA_FAM_MAX ? family_names[f] : "?";
}

const char *
fa_status_name(enum fa_status s)
{
	return (unsigned)s < FA_ST_MAX ? status_names[s] : "?";
}

const char *
fa_severity_name(enum fa_severity s)
{
	return (unsigned)s < FA_SEV_MAX ? severity_names[s] : "?";
}

/* The index of s among the n names, or FA_ERR_NOTFOUND (s NULL too). */
static int
lookup(const char *const *names, int n, const char *s)
{
	int i;

	if (s == NULL)
		return FA_ERR_NOTFOUND;
	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return FA_ERR_NOTFOUND;
}

int
fa_family_parse(const char *s, enum fa_family *out)
{
	int i = lookup(family_names, FA_FAM_MAX, s);

	if (i < 0)
		return FA_ERR_NOTFOUND;
	*out = (enum fa_family)i;
	return 0;
}

int
fa_status_parse(const char *s, enum fa_status *out)
{
	int i = lookup(status_names, FA_ST_MAX, s);

	if (i < 0)
		return FA_ERR_NOTFOUND;
	*out = (enum fa_status)i;
	return 0;
}

int
fa_severity_parse(const char *s, enum fa_severity *out)
{
	int i = lookup(severity_names, FA_SEV_MAX, s);

	if (i < 0)
		return FA_ERR_NOTFOUND;
	*out = (enum fa_severity)i;
	return 0;
}

int
fa_check_id_valid(const char *id)
{
	const char *p;
	size_t len;

	if (id == NULL)
		return 0;
	len = strlen(id);
	if (len < 4 || len > 64)
		return 0;
	if (strncmp(id, "IB-", 3) != 0 && strncmp(id, "ETH-", 4) != 0 &&
	    strncmp(id, "HOST-", 5) != 0)
		return 0;
	for (p = id; *p != '\0'; p++) {
		if (*p == '-') {
			if (p[1] == '-' || p[1] == '\0')
				return 0;
		} else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	}
	return 1;
}

int
fa_check_id_known(const char *id)
{
	const char *const *p;

	if (id == NULL)
		return 0;
	for (p = fa_known_check_ids; *p != NULL; p++)
		if (strcmp(*p, id) == 0)
			return 1;
	return 0;
}
