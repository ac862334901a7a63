/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capability set decoding (see caps.h).  Names come from libcap
 * (cap_to_name/cap_from_name), which knows the capabilities of the kernel
 * headers it was built with; bits beyond that it prints as numbers.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/capability.h>

#include "caps.h"
#include "errors.h"

int
fa_caps_parse(const char *hex, uint64_t *mask, const char **errstr)
{
	const char *p = hex;
	uint64_t v = 0;
	int n = 0;

	if (hex == NULL)
		goto bad;
	while (*p == ' ' || *p == '\t')
		p++;
	for (; isxdigit((unsigned char)*p); p++, n++) {
		if (n == 16) {
			if (errstr != NULL)
				*errstr = "more than 64 bits";
			return FA_ERR_INPUT;
		}
		v = v << 4 | (uint64_t)(isdigit((unsigned char)*p) ?
		    *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (n == 0 || *p != '\0')
		goto bad;
	*mask = v;
	return 0;
bad:
	if (errstr != NULL)
		*errstr = "not a hexadecimal capability set";
	return FA_ERR_INPUT;
}

char *
fa_caps_names(uint64_t mask)
{
	char *out, *name;
	size_t len = 0, cap = 512, n;
	unsigned bit;

	if ((out = malloc(cap)) == NULL)
		return NULL;
	out[0] = '\0';
	for (bit = 0; bit < 64; bit++) {
		if ((mask & (UINT64_C(1) << bit)) == 0)
			continue;
		name = cap_to_name((cap_value_t)bit);
		if (name == NULL) {
			free(out);
			return NULL;
		}
		n = strlen(name);
		/* 64 names of libcap's longest (~25 bytes) fit in 2 KiB. */
		if (len + n + 2 > cap) {
			char *grown = realloc(out, cap * 4);

			if (grown == NULL) {
				cap_free(name);
				free(out);
				return NULL;
			}
			out = grown;
			cap *= 4;
		}
		if (len > 0)
			out[len++] = ',';
		memcpy(out + len, name, n + 1);
		len += n;
		cap_free(name);
	}
	return out;
}

int
fa_cap_from_name(const char *name, unsigned *bit)
{
	char buf[64];
	cap_value_t v;
	size_t i;

	if (name == NULL || name[0] == '\0' || strlen(name) > 40)
		return FA_ERR_INPUT;
	for (i = 0; name[i] != '\0'; i++)
		if (!isalpha((unsigned char)name[i]) && name[i] != '_')
			return FA_ERR_INPUT;	/* no numbers, no lists */
	snprintf(buf, sizeof(buf), "%s%s",
	    strncasecmp(name, "cap_", 4) == 0 ? "" : "cap_", name);
	for (i = 0; buf[i] != '\0'; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	if (cap_from_name(buf, &v) != 0 || v < 0 || v > 63)
		return FA_ERR_INPUT;
	*bit = (unsigned)v;
	return 0;
}

unsigned
fa_caps_last_known(void)
{
#ifdef CAP_LAST_CAP
	if (CAP_LAST_CAP > FA_CAP_LAST_KNOWN && CAP_LAST_CAP < 64)
		return (unsigned)CAP_LAST_CAP;
#endif
	return FA_CAP_LAST_KNOWN;
}

uint64_t
fa_caps_full(unsigned last)
{
	return last >= 63 ? ~UINT64_C(0) : (UINT64_C(1) << (last + 1)) - 1;
}

unsigned
fa_caps_count(uint64_t mask)
{
	unsigned n = 0;

	for (; mask != 0; mask &= mask - 1)
		n++;
	return n;
}
