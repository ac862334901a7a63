/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NVIDIA's branch names and version phrases (core/nvbranch.h): a
 * word-by-word grammar that accepts the forms the header lists and
 * refuses everything else with the phrase quoted.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errors.h"
#include "nvbranch.h"
#include "util.h"

#define PHRASE_MAX	400	/* bytes of a phrase read */

/* vGPU software release number to its driver branch. */
static const struct {
	unsigned	vgpu, branch;
} vgpu_branches[] = {
	{ 13, 470 }, { 14, 510 }, { 15, 525 }, { 16, 535 },
	{ 17, 550 }, { 18, 570 }, { 19, 580 }, { 20, 595 },
};

/*
 * Whether s is at most PHRASE_MAX bytes of printable ASCII; a tab counts
 * as a space (NVIDIA's files have some).
 */
static int
printable(const char *s)
{
	size_t i;

	if (s == NULL || strlen(s) > PHRASE_MAX)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!isprint((unsigned char)s[i]) && s[i] != '\t')
			return 0;
	return 1;
}

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * If the words of kw (single spaces) start *pp, ignoring case, and end
 * there at a space or the end, advance *pp past them and the spaces
 * after; else leave *pp.  Returns 1 on a match.
 */
static int
take_words(const char **pp, const char *kw)
{
	const char *p = *pp;

	for (; *kw != '\0'; kw++) {
		if (*kw == ' ') {
			if (*p != ' ' && *p != '\t')
				return 0;
			p = skip_ws(p);
			continue;
		}
		if (tolower((unsigned char)*p) != tolower((unsigned char)*kw))
			return 0;
		p++;
	}
	if (*p != '\0' && *p != ' ' && *p != '\t')
		return 0;
	*pp = skip_ws(p);
	return 1;
}

/*
 * A version token at *pp (up to a space, '|' or the end): starts with a
 * digit, ends with a letter or digit, valid in the upstream scheme.
 */
static int
take_version(const char **pp, char out[FA_VERSION_MAX + 1],
    const char **err)
{
	const char *p = *pp;
	size_t n = 0;

	/* "v1.16.1": the v is dropped, as version.h ignores it */
	if ((p[0] == 'v' || p[0] == 'V') && isdigit((unsigned char)p[1]))
		p++;
	while (p[n] != '\0' && p[n] != ' ' && p[n] != '\t' && p[n] != '|')
		n++;
	*err = "no version where one is expected";
	if (n == 0)
		return FA_ERR_INPUT;
	*err = "version too long";
	if (n > FA_VERSION_MAX)
		return FA_ERR_INPUT;
	memcpy(out, p, n);
	out[n] = '\0';
	*err = "version must start with a digit and end with a letter or "
	    "digit";
	if (!isdigit((unsigned char)out[0]) ||
	    !isalnum((unsigned char)out[n - 1]))
		return FA_ERR_INPUT;
	if (fa_version_valid(FA_VER_UPSTREAM, out, err) != 0)
		return FA_ERR_INPUT;
	*pp = skip_ws(p + n);
	return 0;
}

/* The leading number of a version ("580" of "580.95.05"). */
static unsigned long
leading_number(const char *v)
{
	return strtoul(v, NULL, 10);
}

/* ---- branch names ----------------------------------------------------- */

static int
vgpu_branch(unsigned long vgpu, unsigned *branch)
{
	size_t i;

	for (i = 0; i < sizeof(vgpu_branches) / sizeof(vgpu_branches[0]);
	    i++)
		if (vgpu_branches[i].vgpu == vgpu) {
			*branch = vgpu_branches[i].branch;
			return 0;
		}
	return FA_ERR_INPUT;
}

/* Two-digit release number at *pp ("19", "18.x", "16.11" not here). */
static int
take_vgpu_number(const char **pp, unsigned long *out, int allow_x)
{
	const char *p = *pp;
	unsigned long v = 0;
	int nd = 0;

	while (isdigit((unsigned char)*p) && nd < 3)
		v = v * 10 + (unsigned long)(*p++ - '0'), nd++;
	if (nd == 0 || nd > 2)
		return FA_ERR_INPUT;
	if (allow_x && p[0] == '.' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (*p != '\0')
		return FA_ERR_INPUT;
	*out = v;
	*pp = p;
	return 0;
}

static void
set_branch(struct fa_nvbranch *b, unsigned number)
{
	b->number = number;
	snprintf(b->branch, sizeof(b->branch), "R%u", number);
}

/* "vGPU nn[.x]" */
static int
parse_vgpu_name(const char *p, struct fa_nvbranch *b)
{
	unsigned long v;
	unsigned br;

	if (!take_words(&p, "vGPU") || take_vgpu_number(&p, &v, 1) != 0 ||
	    vgpu_branch(v, &br) != 0)
		return FA_ERR_INPUT;
	set_branch(b, br);
	snprintf(b->flavour, sizeof(b->flavour), "vGPU %lu", v);
	return 0;
}

/* What follows "Rnnn": "", "(LTSB)", "vGPU [nn]", "Gaming". */
static int
parse_branch_suffix(const char *p, struct fa_nvbranch *b)
{
	unsigned long v;
	unsigned br;

	p = skip_ws(p);
	if (*p == '\0')
		return 0;
	if (strcasecmp(p, "(LTSB)") == 0) {
		snprintf(b->flavour, sizeof(b->flavour), "LTSB");
		return 0;
	}
	if (strcasecmp(p, "Gaming") == 0) {
		snprintf(b->flavour, sizeof(b->flavour), "Gaming");
		return 0;
	}
	if (!take_words(&p, "vGPU"))
		return FA_ERR_INPUT;
	if (*p == '\0') {
		snprintf(b->flavour, sizeof(b->flavour), "vGPU");
		return 0;
	}
	if (take_vgpu_number(&p, &v, 0) != 0 || vgpu_branch(v, &br) != 0 ||
	    br != b->number)
		return FA_ERR_INPUT;
	snprintf(b->flavour, sizeof(b->flavour), "vGPU %lu", v);
	return 0;
}

/* "Rnnn[ suffix]" or "vGPU nn[.x]". */
static int
parse_branch_spec(const char *p, struct fa_nvbranch *b)
{
	unsigned n;

	if ((p[0] == 'R' || p[0] == 'r') && isdigit((unsigned char)p[1]) &&
	    isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
	    !isdigit((unsigned char)p[4])) {
		n = (unsigned)((p[1] - '0') * 100 + (p[2] - '0') * 10 +
		    (p[3] - '0'));
		if (n < 100)
			return FA_ERR_INPUT;
		set_branch(b, n);
		return parse_branch_suffix(p + 4, b);
	}
	if (strcasecmp(p, "Gaming") == 0 ||	/* rolling, no branch */
	    strcasecmp(p, "Cloud Gaming") == 0) {
		snprintf(b->flavour, sizeof(b->flavour), "Gaming");
		return 0;
	}
	return parse_vgpu_name(p, b);
}

static int
parse_platform(const char *p, enum fa_nv_platform *out)
{
	if (strcasecmp(p, "Linux") == 0)
		*out = FA_NV_LINUX;
	else if (strcasecmp(p, "Windows") == 0 ||
	    strncasecmp(p, "Windows ", 8) == 0)	/* "Windows 10 and 11" */
		*out = FA_NV_WINDOWS;
	else if (strcasecmp(p, "All") == 0)
		*out = FA_NV_ANY;
	else if (strchr(p, ',') != NULL)
		*out = FA_NV_OTHER;
	else
		return FA_ERR_INPUT;
	return 0;
}

/* "PLATFORM(SPEC)" with buf a writable copy. */
static int
parse_platform_branch(char *buf, struct fa_nvbranch *b)
{
	char *open = strchr(buf, '('), *end;
	size_t n = strlen(buf);

	if (open == NULL || n == 0 || buf[n - 1] != ')')
		return FA_ERR_INPUT;
	buf[n - 1] = '\0';
	*open = '\0';
	for (end = open; end > buf && (end[-1] == ' ' || end[-1] == '\t');
	    end--)
		end[-1] = '\0';
	if (parse_platform(buf, &b->platform) != 0 ||
	    b->platform == FA_NV_ANY)
		return FA_ERR_INPUT;
	return parse_branch_spec(skip_ws(open + 1), b);
}

int
fa_nvbranch_parse(const char *s, struct fa_nvbranch *out, char **why)
{
	char buf[PHRASE_MAX + 1];
	const char *p;

	memset(out, 0, sizeof(*out));
	if (!printable(s))
		return fa_why(why, "branch name: not printable ASCII of at "
		    "most %d bytes", PHRASE_MAX);
	p = skip_ws(s);
	snprintf(buf, sizeof(buf), "%s", p);
	while (buf[0] != '\0' && (buf[strlen(buf) - 1] == ' ' ||
	    buf[strlen(buf) - 1] == '\t'))
		buf[strlen(buf) - 1] = '\0';
	if (parse_platform(buf, &out->platform) == 0 &&
	    strchr(buf, '(') == NULL)
		return 0;
	memset(out, 0, sizeof(*out));
	if (parse_branch_spec(buf, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	if (parse_platform_branch(buf, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	return fa_why(why, "branch name \"%s\": not one of Rnnn, Rnnn (LTSB), "
	    "Rnnn vGPU [nn], Rnnn Gaming, [Cloud] Gaming, vGPU nn[.x] "
	    "(nn 13-20), "
	    "Linux, Windows, All, PLATFORM(BRANCH)", s);
}

/* ---- phrases ---------------------------------------------------------- */

/* "<V", "<=V", ">=A|<V", ">=A|<=V", ">=A", "*" after "vers:SCHEME/". */
static int
parse_vers(const char *p, struct fa_nvphrase *ph, const char **err)
{
	*err = "vers: only generic and semver with *, <V, <=V, >=A, "
	    ">=A|<V, >=A|<=V are read";
	if (strncasecmp(p, "vers:generic/", 13) == 0)
		p += 13;
	else if (strncasecmp(p, "vers:semver/", 12) == 0)
		p += 12;
	else
		return FA_ERR_INPUT;
	if (strcmp(p, "*") == 0) {
		ph->kind = FA_NVP_ALL;
		return 0;
	}
	if (strncmp(p, ">=", 2) == 0) {
		p += 2;
		if (take_version(&p, ph->from, err) != 0)
			return FA_ERR_INPUT;
		if (*p == '\0') {
			ph->kind = FA_NVP_ALL;
			return 0;
		}
		if (*p++ != '|')
			return FA_ERR_INPUT;
	}
	ph->kind = FA_NVP_PRIOR;
	if (strncmp(p, "<=", 2) == 0)
		ph->kind = FA_NVP_THROUGH, p += 2;
	else if (*p == '<')
		p++;
	else
		return FA_ERR_INPUT;
	if (take_version(&p, ph->version, err) != 0)
		return FA_ERR_INPUT;
	return *p == '\0' ? 0 : FA_ERR_INPUT;
}

/* "[All] [driver] versions ..." */
static int
parse_words(const char *p, struct fa_nvphrase *ph, const char **err)
{
	int all = take_words(&p, "All");

	/* NVIDIA also writes "All drivers versions", "All driver version" */
	(void)(take_words(&p, "driver") || take_words(&p, "drivers"));
	*err = "not a phrase the grammar reads";
	if (!take_words(&p, "versions") && !take_words(&p, "version"))
		return FA_ERR_INPUT;
	if (*p == '\0') {
		*err = "\"versions\" alone does not say which";
		ph->kind = FA_NVP_ALL;
		return all ? 0 : FA_ERR_INPUT;
	}
	if (take_words(&p, "prior to and including") ||
	    take_words(&p, "up to and including"))
		ph->kind = FA_NVP_THROUGH;
	else if (take_words(&p, "prior to") || take_words(&p, "before"))
		ph->kind = FA_NVP_PRIOR;
	else
		return FA_ERR_INPUT;
	if (take_version(&p, ph->version, err) != 0)
		return FA_ERR_INPUT;
	*err = "text after the version";
	return *p == '\0' ? 0 : FA_ERR_INPUT;
}

static int
parse_core(const char *p, struct fa_nvphrase *ph, const char **err)
{
	if (strncasecmp(p, "vers:", 5) == 0)
		return parse_vers(p, ph, err);
	if (p[0] == '<') {
		ph->kind = p[1] == '=' ? FA_NVP_THROUGH : FA_NVP_PRIOR;
		p = skip_ws(p + (p[1] == '=' ? 2 : 1));
		if (take_version(&p, ph->version, err) != 0)
			return FA_ERR_INPUT;
		*err = "text after the version";
		return *p == '\0' ? 0 : FA_ERR_INPUT;
	}
	if (isdigit((unsigned char)p[0]) || ((p[0] == 'v' || p[0] == 'V') &&
	    isdigit((unsigned char)p[1]))) {
		ph->kind = FA_NVP_EXACT;
		if (take_version(&p, ph->version, err) != 0)
			return FA_ERR_INPUT;
		*err = "text after the version";
		return *p == '\0' ? 0 : FA_ERR_INPUT;
	}
	return parse_words(p, ph, err);
}

/* The "(text)" after a phrase: turns a bare V into THROUGH, or a note. */
static int
parse_paren(const char *inner, struct fa_nvphrase *ph, const char **err)
{
	const char *p = skip_ws(inner);

	*err = "empty or over-long parenthesis";
	if (*p == '\0' || strlen(p) > FA_NV_NOTE_MAX)
		return FA_ERR_INPUT;
	snprintf(ph->note, sizeof(ph->note), "%s", p);
	if (ph->kind != FA_NVP_EXACT)
		return 0;
	if (take_words(&p, "All versions prior to and including") ||
	    take_words(&p, "All versions up to and including")) {
		*err = "\"... and including\" names nothing";
		if (*p == '\0')
			return FA_ERR_INPUT;
		ph->kind = FA_NVP_THROUGH;
		return 0;
	}
	*err = "a version with an \"All ...\" label that is not \"All "
	    "versions prior to / up to and including ...\"";
	return take_words(&p, "All") ? FA_ERR_INPUT : 0;
}

/* Split buf into the phrase and its trailing "(...)" (NULL if none). */
static int
split_paren(char *buf, char **inner, const char **err)
{
	size_t n = strlen(buf);
	char *open, *e;

	*inner = NULL;
	*err = "unbalanced or nested parentheses";
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	if (n == 0 || buf[n - 1] != ')')
		return strpbrk(buf, "()") == NULL ? 0 : FA_ERR_INPUT;
	buf[--n] = '\0';
	if ((open = strrchr(buf, '(')) == NULL || strchr(open, ')') != NULL)
		return FA_ERR_INPUT;
	*open = '\0';
	if (strpbrk(buf, "()") != NULL)
		return FA_ERR_INPUT;
	for (e = open; e > buf && (e[-1] == ' ' || e[-1] == '\t'); e--)
		e[-1] = '\0';
	*inner = open + 1;
	return 0;
}

int
fa_nvphrase_parse(const char *s, struct fa_nvphrase *out, char **why)
{
	char buf[PHRASE_MAX + 1], *inner;
	const char *err = "not a phrase the grammar reads";

	memset(out, 0, sizeof(*out));
	if (!printable(s))
		return fa_why(why, "version phrase: not printable ASCII of at "
		    "most %d bytes", PHRASE_MAX);
	snprintf(buf, sizeof(buf), "%s", skip_ws(s));
	if (split_paren(buf, &inner, &err) != 0 || buf[0] == '\0' ||
	    parse_core(buf, out, &err) != 0 ||
	    (inner != NULL && parse_paren(inner, out, &err) != 0)) {
		memset(out, 0, sizeof(*out));
		return fa_why(why, "version phrase \"%s\": %s", s, err);
	}
	return 0;
}

/* ---- ranges ----------------------------------------------------------- */

static int
on_branch(unsigned number, const char *v)
{
	return number == 0 || v[0] == '\0' || leading_number(v) == number;
}

/* The fixed version for aff given fix (may be NULL); "" for open. */
static int
range_fixed(const struct fa_nvphrase *aff, const struct fa_nvphrase *fix,
    char out[FA_VERSION_MAX + 1], const char **err)
{
	int cmp;

	out[0] = '\0';
	*err = "the fixed product's phrase is not a single version";
	if (fix != NULL && fix->kind != FA_NVP_EXACT)
		return FA_ERR_INPUT;
	switch (aff->kind) {
	case FA_NVP_PRIOR:
		*err = "the advisory's fixed version differs from the one the "
		    "affected phrase is prior to";
		if (fix != NULL && (fa_version_cmp(FA_VER_UPSTREAM,
		    aff->version, fix->version, &cmp, NULL) != 0 || cmp != 0))
			return FA_ERR_INPUT;
		snprintf(out, FA_VERSION_MAX + 1, "%s", aff->version);
		return 0;
	case FA_NVP_THROUGH:
		*err = "last affected version without a fixed version for the "
		    "same product: the half-open form cannot state it";
		if (fix == NULL)
			return FA_ERR_INPUT;
		*err = "the fixed version is not above the last affected one";
		if (fa_version_cmp(FA_VER_UPSTREAM, fix->version,
		    aff->version, &cmp, NULL) != 0 || cmp <= 0)
			return FA_ERR_INPUT;
		break;
	case FA_NVP_ALL:
		if (fix == NULL)
			return 0;
		break;
	default:
		*err = "a single affected version is not a range";
		return FA_ERR_INPUT;
	}
	snprintf(out, FA_VERSION_MAX + 1, "%s", fix->version);
	return 0;
}

int
fa_nvrange_make(unsigned number, const struct fa_nvphrase *aff,
    const struct fa_nvphrase *fix, struct fa_nvrange *out, char **why)
{
	const char *err;
	char pre[16];
	int cmp;

	memset(out, 0, sizeof(*out));
	if (range_fixed(aff, fix, out->fixed, &err) != 0)
		goto bad;
	if (aff->from[0] != '\0')
		snprintf(out->introduced, sizeof(out->introduced), "%s",
		    aff->from);
	else if (number != 0)
		snprintf(out->introduced, sizeof(out->introduced), "%u.0",
		    number);
	err = "a version is not on the branch";
	if (!on_branch(number, aff->from) || !on_branch(number, aff->version) ||
	    !on_branch(number, out->fixed))
		goto bad;
	err = "the fixed version is not above the introduced one";
	if (out->introduced[0] != '\0' && out->fixed[0] != '\0' &&
	    (fa_version_cmp(FA_VER_UPSTREAM, out->fixed, out->introduced,
	    &cmp, NULL) != 0 || cmp <= 0))
		goto bad;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	pre[0] = '\0';
	if (number != 0)
		snprintf(pre, sizeof(pre), "R%u: ", number);
	return fa_why(why, "%saffected \"%s\", fixed \"%s\": %s", pre,
	    aff->version[0] != '\0' ? aff->version : "all",
	    fix != NULL ? fix->version : "none", err);
}
