/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit checks: list the catalogue of implemented checks as text, as
 * JSON, or as the mdoc(7) page fabaudit-checks(7), which the build
 * generates from this binary so that the page cannot drift from the code.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../checks/host_checks.h"
#include "../checks/ib_checks.h"
#include "../core/obs_schema.h"
#include "../core/util.h"
#include "scanner.h"

const char fa_usage_checks[] =
    "       fabaudit checks [--family ib|eth|host] [--format txt|json|man]\n";

static const struct option longopts[] = {
	{ "family", required_argument, NULL, 'F' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

enum format { FMT_TXT, FMT_JSON, FMT_MAN };

static json_t *
check_json(const struct fa_check *c)
{
	json_t *refs = json_array();
	const char *const *p;

	for (p = c->refs; refs != NULL && p != NULL && *p != NULL; p++)
		if (json_array_append_new(refs, json_string(*p)) != 0) {
			json_decref(refs);
			return NULL;
		}
	/* s? : a check without sends/outcomes shows null, never aborts. */
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s?, s:s?, "
	    "s:o}", "id", c->id, "family", fa_family_name(c->family),
	    "severity", fa_severity_name(c->severity), "title", c->title,
	    "rationale", c->rationale, "remediation", c->remediation,
	    "msa_clause", c->msa_clause, "sends", c->sends, "outcomes",
	    c->outcomes, "references", refs);
}

/*
 * ---- roff output ----------------------------------------------------------
 * The page is mdoc(7).  Every string of the catalogue goes through one of
 * two escapers, so that any text renders as itself: roff_text() for text
 * lines and roff_arg() for macro arguments.
 */

#define ROFF_WIDTH	72	/* wrap text lines of the page source here */

/*
 * Decode one UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, at most U+10FFFF); its length, or 0 if it is not valid.
 */
static size_t
utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t n, i;
	uint32_t c, min;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Whitespace, or a control character, which the page turns into one. */
static int
roff_space(unsigned char c)
{
	return c <= 0x20 || c == 0x7f;
}

/*
 * Write the word s[0..len) escaped: the backslash, roff's escape
 * character, as \e; printable ASCII as itself; a valid UTF-8 character as
 * \[uXXXX]; any other byte as '?'.  Returns the columns written.
 */
static size_t
roff_word(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, cols = 0;
	uint32_t cp;
	char u[16];

	while (i < len) {
		if (p[i] == '\\') {
			fputs("\\e", f);
			cols += 2;
			i++;
		} else if (p[i] < 0x80) {
			fputc(p[i], f);
			cols++;
			i++;
		} else if ((n = utf8_decode(p + i, &cp)) != 0 && i + n <= len) {
			snprintf(u, sizeof(u), "\\[u%04X]", (unsigned)cp);
			fputs(u, f);
			cols += strlen(u);
			i += n;
		} else {
			fputc('?', f);
			cols++;
			i++;
		}
	}
	return cols;
}

/* Does the word end a sentence, for roff ("." "!" "?", then ")" or quotes)? */
static int
ends_sentence(const char *w, size_t len)
{
	while (len > 0 && strchr(")]\"'", w[len - 1]) != NULL)
		len--;
	return len > 0 && strchr(".!?", w[len - 1]) != NULL;
}

/*
 * A sentence break for mdoc's "new sentence, new line", as mandoc -T lint
 * finds them: a '.', '!' or '?' right after two letters or digits (so not
 * "e.g."), a lone digit or a closing delimiter, optionally followed by
 * closing delimiters, then a word that starts with a capital letter.
 */
static int
sentence_break(const char *w, size_t len, const char *next)
{
	while (len > 0 && strchr(")]\"'", w[len - 1]) != NULL)
		len--;
	if (len < 2 || strchr(".!?", w[len - 1]) == NULL ||
	    !isupper((unsigned char)*next))
		return 0;
	/* "(read-only)." too: a closing delimiter before the stop. */
	if (strchr(")]\"'", w[len - 2]) != NULL)
		return 1;
	/* "level 1." and "0x7FFF." end sentences; "A." is an initial. */
	if (len == 2)
		return isdigit((unsigned char)w[0]);
	return isalnum((unsigned char)w[len - 2]) &&
	    isalnum((unsigned char)w[len - 3]);
}

/*
 * Write s as mdoc text lines, in fill mode.  A line never starts with a
 * space, nor with '.' or '\'' (roff's control characters: \& goes first);
 * whitespace and control characters separate words; each sentence starts
 * a new line (mdoc(7)); other lines wrap before ROFF_WIDTH columns, and a
 * line wrapped after a word ending in '.' gets \& so that roff does not
 * take the wrap for a sentence end.  Nothing is written for an empty s.
 */
static void
roff_text(FILE *f, const char *s)
{
	const char *w, *prev = NULL;
	size_t len, plen = 0, col = 0;

	for (;;) {
		while (*s != '\0' && roff_space((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		for (w = s, len = 0; w[len] != '\0' &&
		    !roff_space((unsigned char)w[len]); len++)
			;
		if (prev != NULL && sentence_break(prev, plen, w)) {
			fputc('\n', f);
			col = 0;
		} else if (prev != NULL && col + 1 + len > ROFF_WIDTH) {
			fputs(ends_sentence(prev, plen) ? "\\&\n" : "\n", f);
			col = 0;
		} else if (prev != NULL) {
			fputc(' ', f);
			col++;
		}
		if (col == 0 && (*w == '.' || *w == '\'')) {
			fputs("\\&", f);
			col += 2;
		}
		col += roff_word(f, w, len);
		prev = w;
		plen = len;
		s = w + len;
	}
	if (prev != NULL)
		fputc('\n', f);
}

/*
 * Write s as one argument of a parsed mdoc macro line: quoted when it
 * holds whitespace (a '"' in it as \(dq), and preceded by \& unless it is a
 * plain word longer than three characters, so that it can be neither a
 * macro name nor a delimiter.  Characters are escaped as by roff_word().
 */
static void
roff_arg(FILE *f, const char *s)
{
	const char *p;
	int quote = 0, plain = strlen(s) > 3;
	size_t n;

	for (p = s; *p != '\0'; p++) {
		if (roff_space((unsigned char)*p))
			quote = 1;
		if (!(*p == '-' || *p == '_' || (*p >= '0' && *p <= '9') ||
		    (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
			plain = 0;
	}
	if (quote)
		fputc('"', f);
	if (!plain)
		fputs("\\&", f);
	for (p = s; *p != '\0'; p += n) {
		n = strcspn(p, "\"\t\n\r");
		if (n > 0)
			roff_word(f, p, n);
		else if (*p == '"') {
			fputs("\\(dq", f);
			n = 1;
		} else {
			fputc(' ', f);	/* other whitespace: one space */
			n = 1;
		}
	}
	if (quote)
		fputc('"', f);
}

/* ".Mac arg" on a line of its own. */
static void
roff_macro(FILE *f, const char *macro, const char *arg)
{
	fprintf(f, ".%s ", macro);
	roff_arg(f, arg);
	fputc('\n', f);
}

/*
 * The page's date, "December 2, 2026" as mdoc(7) .Dd wants it (English,
 * whatever the locale): SOURCE_DATE_EPOCH when set, for reproducible
 * builds (reproducible-builds.org/specs/source-date-epoch), else today,
 * both in UTC.  0, or -1 when SOURCE_DATE_EPOCH is not a number of seconds.
 */
static int
page_date(char *buf, size_t len)
{
	static const char *const months[] = { "January", "February",
	    "March", "April", "May", "June", "July", "August", "September",
	    "October", "November", "December" };
	const char *sde = getenv("SOURCE_DATE_EPOCH"), *why = NULL;
	uint64_t v;
	time_t t;
	struct tm tm;

	if (sde != NULL && sde[0] != '\0') {
		/* Year 9999 at most: the date stays four digits. */
		if (fa_parse_u64(sde, 0, 253402300799ull, &v, &why) != 0) {
			fa_diag("SOURCE_DATE_EPOCH", "'%s' is %s (seconds since "
			    "1970 expected)", sde, why);
			return -1;
		}
		t = (time_t)v;
	} else
		t = time(NULL);
	if (gmtime_r(&t, &tm) == NULL || tm.tm_mon < 0 || tm.tm_mon > 11) {
		fa_diag(NULL, "cannot convert the date");
		return -1;
	}
	snprintf(buf, len, "%s %d, %d", months[tm.tm_mon], tm.tm_mday,
	    tm.tm_year + 1900);
	return 0;
}

static const char *
family_title(enum fa_family f)
{
	switch (f) {
	case FA_FAM_IB:
		return "INFINIBAND CHECKS";
	case FA_FAM_ETH:
		return "ETHERNET CHECKS";
	case FA_FAM_HOST:
		return "HOST CHECKS";
	default:
		return "OTHER CHECKS";
	}
}

/* ".It Label" followed by text (or "(none)"). */
static void
man_item(FILE *f, const char *label, const char *text)
{
	fprintf(f, ".It %s\n", label);
	roff_text(f, text != NULL && text[0] != '\0' ? text : "(none)");
}

static void
man_check(FILE *f, const struct fa_check *c)
{
	const char *const *r;

	roff_macro(f, "Ss", c->id);
	roff_text(f, c->title);
	fputs(".Bl -tag -width Ds\n.It Severity\n", f);
	roff_macro(f, "Cm", fa_severity_name(c->severity));
	man_item(f, "Why it matters", c->rationale);
	man_item(f, "Sends", c->sends);
	man_item(f, "Outcomes", c->outcomes);
	man_item(f, "Remediation", c->remediation);
	man_item(f, "Contract clause", c->msa_clause);
	fputs(".It References\n", f);
	if (c->refs == NULL || c->refs[0] == NULL)
		roff_text(f, "(none)");
	else {
		fputs(".Bl -dash -compact\n", f);
		for (r = c->refs; *r != NULL; r++) {
			fputs(".It\n", f);
			roff_text(f, *r);
		}
		fputs(".El\n", f);
	}
	fputs(".El\n", f);
}

/*
 * The IB scan's MADs, one tag per class, method and attribute:
 * ".It 0x01 Get SMInfo (0x0020)" (tests/ib/test_sends.sh reads these
 * lines back), how many, and which checks read the answers.
 */
static void
man_ib_sends(FILE *f)
{
	const struct fa_ib_send *s;
	char label[96];

	fputs(".Ss MADs a scan sends\n", f);
	roff_text(f, "Every MAD of a default InfiniBand scan, by management "
	    "class (0x81 directed-route and 0x01 LID-routed SubnMgt, 0x03 "
	    "SubnAdm, 0x21 Congestion Control, 0x0A the Mellanox vendor "
	    "class, 0x0B SHARP Aggregation Management), method and "
	    "attribute, with how many are sent on a fabric that answers; "
	    "each request and answer is in the scan's mads.pcap.  A request "
	    "that gets no answer is resent up to --retries times unless its "
	    "row says it is sent once.  --active adds the probes of the "
	    "checks that say so; --key-probes leaves out the classes it "
	    "names.");
	fputs(".Bl -tag -width Ds\n", f);
	for (s = fa_ib_sends; s->attr_name != NULL; s++) {
		snprintf(label, sizeof(label), "0x%02x %s %s (0x%04x)",
		    s->mgmt_class, s->method == 0x12 ? "GetTable" : "Get",
		    s->attr_name, s->attr);
		roff_macro(f, "It", label);
		roff_text(f, s->how_many);
		fputs(".Pp\n", f);
		roff_text(f, s->read_by);
	}
	fputs(".El\n", f);
}

/* The fixed part of the page: what the statuses mean, how to read it. */
static const char man_intro[] =
".Ss Statuses\n"
"Each check gives one or more results, each with one of these statuses:\n"
".Bl -tag -width \"not_applicable\"\n"
".It Cm pass\n"
"observed, and safe.\n"
".It Cm fail\n"
"observed, and unsafe.\n"
".It Cm not_tested\n"
"could not be observed or decided: the family was not in the scan's\n"
"scope or not available, nothing answered, or what answered cannot tell\n"
"safe from unsafe.\n"
".It Cm not_applicable\n"
"the thing checked does not exist here.\n"
".It Cm error\n"
"a probe or the decoding of its answer failed, an observation is\n"
"malformed, or the family's acquisition failed.\n"
".El\n"
".Pp\n"
"These rules hold for every check, before its own outcomes below:\n"
"when its family was not collected it gives one\n"
".Cm not_tested\n"
"result\n"
".Pq Cm error No when the acquisition failed ;\n"
"a check that gives no result at all is reported as\n"
".Cm not_tested ;\n"
"and missing evidence is never a\n"
".Cm pass .\n"
".Ss Severities\n"
"From most to least severe:\n"
".Cm critical , high , medium , low\n"
"and\n"
".Cm info .\n"
"Each entry gives the check's default severity.\n"
"A policy may rate a check differently with its\n"
".Ic severity\n"
"keyword, and may waive a known failure until a date with\n"
".Ic waive\n"
"(the result stays in the report, marked waived); see\n"
".Xr fabaudit.conf 5 .\n"
"The\n"
".Fl -fail-on\n"
"severity decides which failures set the exit status; see\n"
".Xr fabaudit 8 .\n"
".Ss Reading an entry\n"
"Each check has a subsection named by its ID, the stable name under\n"
"which reports, policies, waivers and contracts refer to it.\n"
"Its title says in one line what a failure means.\n"
"Then:\n"
".Bl -tag -width Ds\n"
".It Severity\n"
"the default severity.\n"
".It Why it matters\n"
"what the check examines, and what a failure exposes.\n"
".It Sends\n"
"what a scan sends to the fabric, the wire or the host to acquire the\n"
"observations the check reads.\n"
"A scan of a family sends every probe of that family, whichever checks\n"
"one reads, and\n"
".Fl -active\n"
"adds the intrusive probes marked so.\n"
".Nm fabaudit Cm check ,\n"
"which evaluates a saved snapshot again, sends nothing at all.\n"
".It Outcomes\n"
"when the check passes, fails, is not_tested or not_applicable, beyond\n"
"the rules above, and what one result stands for when there are several.\n"
".It Remediation\n"
"what the provider is expected to change.\n"
".It Contract clause\n"
"text the tenant can propose for its agreement with the provider.\n"
".It References\n"
"specifications, vendor documentation, and the ClusterMAX criteria the\n"
"check bears on: those of the security criteria page\n"
".Pq Lk https://www.clustermax.ai/criteria/security\n"
"and those graded by ClusterMAX's audit tool\n"
".Pq Sy cmax .\n"
".El\n";

/*
 * The snapshot format, from the observation schema (core/obs_schema.h):
 * every kind with its fields, so the page cannot drift from what the
 * reader accepts.
 */
static void
man_observations(FILE *f)
{
	const struct fa_obs_kind *k;
	const struct fa_obs_field *fd;
	char label[160];

	fputs(".Sh OBSERVATIONS\n", f);
	roff_text(f, "A scan's snapshot (snapshot.json, schema "
	    FA_SNAPSHOT_SCHEMA ") holds what it observed, one object per "
	    "observation: id, family, kind, target, request, state (complete, "
	    "incomplete, no_response, rejected, not_collected, error), reason "
	    "and data. These are the kinds, and the fields of data a complete "
	    "or incomplete observation of each may hold. fabaudit check "
	    "refuses a snapshot with another kind or field, a field of "
	    "another type, or a complete observation without a required "
	    "field, naming the observation and the field; a scan that would "
	    "write one records the observation as an error of fabaudit's "
	    "own. A secret is an object {\"secret\": true, \"value\": ...} "
	    "whose value is redacted unless --reveal-secrets is given.");
	fputs(".Bl -tag -width Ds\n", f);
	for (k = fa_obs_kinds; k->name != NULL; k++) {
		snprintf(label, sizeof(label), "Li %s Pq %s", k->name,
		    k->family < 0 ? "any family" : fa_family_name(
		    (enum fa_family)k->family));
		fprintf(f, ".It %s\n", label);
		roff_text(f, k->doc);
		if (k->fields == NULL || k->fields[0].name == NULL)
			continue;
		fputs(".Bl -tag -width Ds -compact\n", f);
		for (fd = k->fields; fd->name != NULL; fd++) {
			snprintf(label, sizeof(label), "Li %s Pq %s%s%s",
			    fd->name, fa_field_type_name(fd->type),
			    fd->flags & FA_FF_NULL ? " or null" : "",
			    fd->flags & FA_FF_REQ ? ", required" : "");
			fprintf(f, ".It %s\n", label);
			roff_text(f, fd->doc);
		}
		fputs(".El\n", f);
	}
	fputs(".El\n", f);
}

static void
man_page(FILE *f, enum fa_family fam, const char *date)
{
	const struct fa_check *const *c;
	size_t n = 0;
	int f2;

	for (c = fa_checks; *c != NULL; c++)
		if (fam == FA_FAM_MAX || (*c)->family == fam)
			n++;
	fputs(".\\\" fabaudit-checks(7), generated by `fabaudit checks --format "
	    "man`\n.\\\" from the check registry (checks/registry.c).  Do "
	    "not edit: change\n.\\\" the checks and rebuild.\n", f);
	fputs(".Dd ", f);
	roff_text(f, date);
	fputs(".Dt FABAUDIT-CHECKS 7\n.Os\n.Sh NAME\n.Nm fabaudit-checks\n"
	    ".Nd the checks of the fabaudit isolation audit\n"
	    ".Sh DESCRIPTION\n", f);
	fprintf(f, "This page is the catalogue of the %zu %schecks of\n"
	    ".Xr fabaudit 8\n", n, fam == FA_FAM_MAX ? "" :
	    fam == FA_FAM_IB ? "InfiniBand " : fam == FA_FAM_ETH ?
	    "Ethernet " : "host ");
	fputs("version\n", f);
	roff_text(f, FA_VERSION ".");
	fputs("It is generated from the check registry when fabaudit is "
	    "built, so it\ndescribes exactly the checks of that binary;\n"
	    ".Nm fabaudit Cm checks\nlists the same catalogue as text or "
	    "JSON.\n", f);
	fputs(man_intro, f);
	for (f2 = 0; f2 < FA_FAM_MAX; f2++) {
		if (fam != FA_FAM_MAX && fam != (enum fa_family)f2)
			continue;
		roff_macro(f, "Sh", family_title((enum fa_family)f2));
		if (f2 == FA_FAM_HOST)
			fputs(fa_host_env_man, f);
		if (f2 == FA_FAM_IB)
			man_ib_sends(f);
		for (c = fa_checks; *c != NULL; c++)
			if ((*c)->family == (enum fa_family)f2)
				man_check(f, *c);
	}
	if (fam == FA_FAM_MAX)
		man_observations(f);
	fputs(".Sh SEE ALSO\n.Xr fabaudit.conf 5 ,\n.Xr fabaudit 8\n", f);
}

int
fa_cmd_checks(int argc, char **argv)
{
	const struct fa_check *const *c;
	enum fa_family fam = FA_FAM_MAX;
	enum format fmt = FMT_TXT;
	json_t *arr = NULL, *o;
	char *s, date[64];
	int ch;
	static const int once[] = { 'F', 'f', 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (fa_opt_repeated(ch, once, longopts, seen, argv) != 0)
			goto usage;
		switch (ch) {
		case 'F':
			if (fa_family_parse(optarg, &fam) != 0) {
				fa_diag("--family", "unknown family '%s' (ib, "
				    "eth, host)", optarg);
				goto usage;
			}
			break;
		case 'f':
			if (strcmp(optarg, "json") == 0)
				fmt = FMT_JSON;
			else if (strcmp(optarg, "txt") == 0)
				fmt = FMT_TXT;
			else if (strcmp(optarg, "man") == 0)
				fmt = FMT_MAN;
			else {
				fa_diag("--format", "unknown format '%s' (txt, "
				    "json, man)", optarg);
				goto usage;
			}
			break;
		case 'h':
			fa_print_usage(stdout, fa_usage_checks);
			return FA_EXIT_OK;
		default:
			fa_bad_option("checks", ch, argv);
			goto usage;
		}
	}
	if (optind != argc) {
		fa_diag(NULL, "checks takes no operands");
		goto usage;
	}
	errno = 0;	/* so that a write error below names its cause */
	if (fmt == FMT_MAN) {
		if (page_date(date, sizeof(date)) != 0)
			return FA_EXIT_USAGE;
		man_page(stdout, fam, date);
		goto flush;
	}
	if (fmt == FMT_JSON && (arr = json_array()) == NULL)
		goto nomem;
	for (c = fa_checks; *c != NULL; c++) {
		if (fam != FA_FAM_MAX && (*c)->family != fam)
			continue;
		if (fmt == FMT_TXT) {
			printf("%-22s %-5s %-9s %s\n", (*c)->id,
			    fa_family_name((*c)->family),
			    fa_severity_name((*c)->severity), (*c)->title);
			continue;
		}
		if ((o = check_json(*c)) == NULL ||
		    json_array_append_new(arr, o) != 0)
			goto nomem;
	}
	if (fmt == FMT_JSON) {
		if ((s = json_dumps(arr, JSON_INDENT(2))) == NULL)
			goto nomem;
		puts(s);
		free(s);
		json_decref(arr);
	}
flush:
	/* The build redirects this into a file: a short write must fail. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fa_diag(NULL, "standard output: %s", errno != 0 ?
		    strerror(errno) : "write error");
		return FA_EXIT_NORUN;
	}
	return FA_EXIT_OK;
nomem:
	json_decref(arr);
	fa_diag(NULL, "out of memory");
	return FA_EXIT_NORUN;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	return FA_EXIT_USAGE;
}
