/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * /proc/self/status decoding and collection (see host_proc.h).  The file is
 * "Name:\tvalue" lines (proc_pid_status(5)); only the fields the host
 * checks use are kept, each parsed strictly.  No library reads /proc
 * through a sysroot (libproc2 opens /proc itself), hence this small parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_obs.h"
#include "host_proc.h"
#include "../core/obs_kinds.h"

/* The lines kept, each with the member it becomes (host.proc.status). */
enum line_kind { CAPS, IDS, SMALL };
static const struct {
	const char	*line;
	enum line_kind	 kind;
	const struct fa_fld_STR *caps;	/* CAPS */
	const struct fa_fld_ARR *ids;	/* IDS */
	const struct fa_fld_INT *small;	/* SMALL */
	uint64_t	 max;		/* SMALL: the largest value; IDS: how
					 * many (0: any number) */
} status_lines[] = {
	{ "CapInh", CAPS, FA_F(HOST_STATUS, cap_inh), NULL, NULL, 0 },
	{ "CapPrm", CAPS, FA_F(HOST_STATUS, cap_prm), NULL, NULL, 0 },
	{ "CapEff", CAPS, FA_F(HOST_STATUS, cap_eff), NULL, NULL, 0 },
	{ "CapBnd", CAPS, FA_F(HOST_STATUS, cap_bnd), NULL, NULL, 0 },
	{ "CapAmb", CAPS, FA_F(HOST_STATUS, cap_amb), NULL, NULL, 0 },
	{ "Uid", IDS, NULL, FA_F(HOST_STATUS, uid), NULL, 4 },
	{ "Gid", IDS, NULL, FA_F(HOST_STATUS, gid), NULL, 4 },
	{ "Groups", IDS, NULL, FA_F(HOST_STATUS, groups), NULL, 0 },
	{ "NoNewPrivs", SMALL, NULL, NULL, FA_F(HOST_STATUS, no_new_privs),
	    1 },
	{ "Seccomp", SMALL, NULL, NULL, FA_F(HOST_STATUS, seccomp), 2 },
	{ "Seccomp_filters", SMALL, NULL, NULL,
	    FA_F(HOST_STATUS, seccomp_filters), 65535 },
};
#define NLINES	(sizeof(status_lines) / sizeof(status_lines[0]))

/* The decoding: the data built, and the lines seen (one bit each). */
struct status_dec {
	struct fa_obs_build b;
	unsigned	 seen;
};

/* Digits only: the kernel prints these in decimal, never "0x". */
static int
decimal(const char *s)
{
	return s[0] != '\0' && s[strspn(s, "0123456789")] == '\0';
}

/*
 * A blank-separated list of decimal ids, such as Uid's "0\t0\t0\t0" or
 * Groups' "4 24 27 ", into *out; exactly `want` of them (0: any number,
 * none included, up to 65536).
 */
static int
parse_ids(const char *v, size_t want, json_t **out)
{
	json_t *a = json_array();
	char buf[16];
	uint64_t id;
	size_t n;

	*out = NULL;
	if (a == NULL)
		return FA_ERR_NOMEM;
	for (;;) {
		while (*v == '\t' || *v == ' ')
			v++;
		if (*v == '\0')
			break;
		n = strcspn(v, "\t ");
		if (n >= sizeof(buf) || json_array_size(a) >= (want > 0 ?
		    want : 65536))
			goto bad;
		memcpy(buf, v, n);
		buf[n] = '\0';
		v += n;
		if (!decimal(buf) ||
		    fa_parse_u64(buf, 0, 0xffffffffu, &id, NULL) != 0)
			goto bad;
		if (json_array_append_new(a, json_integer((json_int_t)id)) !=
		    0) {
			json_decref(a);
			return FA_ERR_NOMEM;
		}
	}
	if (want > 0 && json_array_size(a) != want)
		goto bad;
	*out = a;
	return 0;
bad:
	json_decref(a);
	return FA_ERR_INPUT;
}

static int
parse_small(const char *v, uint64_t max, uint64_t *n)
{
	while (*v == '\t' || *v == ' ')
		v++;
	if (!decimal(v) || fa_parse_u64(v, 0, max, n, NULL) != 0)
		return FA_ERR_INPUT;
	return 0;
}

/* One "Name:\tvalue" line; unknown names are skipped. */
static int
decode_line(char *line, unsigned ln, void *arg, char **why)
{
	struct status_dec *d = arg;
	const char *errstr;
	char *colon, *v;
	uint64_t mask, n;
	json_t *ids;
	size_t i;
	int r;

	if ((colon = strchr(line, ':')) == NULL)
		return fa_why(why, "line %u: no ':'", ln);
	*colon = '\0';
	v = colon + 1;
	for (i = 0; i < NLINES && strcmp(line, status_lines[i].line) != 0;
	    i++)
		;
	if (i == NLINES)
		return 0;
	if (d->seen & 1u << i)
		return fa_why(why, "line %u: %s twice", ln, line);
	d->seen |= 1u << i;
	switch (status_lines[i].kind) {
	case CAPS:
		if (fa_caps_parse(v, &mask, &errstr) != 0)
			return fa_why(why, "line %u: %s: %s", ln, line,
			    errstr);
		fa_put_u64(&d->b, status_lines[i].caps, mask);
		return d->b.failed ? FA_ERR_NOMEM : 0;
	case IDS:
		r = parse_ids(v, status_lines[i].max, &ids);
		if (r == 0)
			fa_put_arr(&d->b, status_lines[i].ids, ids);
		break;
	case SMALL:
	default:
		if ((r = parse_small(v, status_lines[i].max, &n)) == 0)
			fa_put_int(&d->b, status_lines[i].small, (long long)n);
		break;
	}
	if (r == FA_ERR_INPUT)
		return fa_why(why, "line %u: %s: not a valid value", ln, line);
	return r != 0 || d->b.failed ? FA_ERR_NOMEM : 0;
}

/* Bit of a status line in status_dec.seen. */
static unsigned
seen_bit(const char *line)
{
	size_t i;

	for (i = 0; i < NLINES; i++)
		if (strcmp(status_lines[i].line, line) == 0)
			return 1u << i;
	return 0;
}

int
fa_host_status_decode(const char *text, size_t len, json_t **out, char **why)
{
	struct status_dec d;
	int r;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > FA_HOST_STATUS_MAX)
		return fa_why(why, "larger than %u bytes",
		    FA_HOST_STATUS_MAX);
	fa_obs_build(&d.b);
	d.seen = 0;
	r = d.b.failed ? FA_ERR_NOMEM :
	    fa_text_each_line(text, len, decode_line, &d, why);
	if (r == 0 && (!(d.seen & seen_bit("Uid")) ||
	    !(d.seen & seen_bit("CapEff"))))
		r = fa_why(why, "no Uid or CapEff line");
	if (r != 0) {
		json_decref(fa_obs_built(&d.b));
		return r;
	}
	if ((*out = fa_obs_built(&d.b)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_host_sysctl_decode(const char *text, size_t len, json_t **out, char **why)
{
	struct fa_obs_build b;
	char buf[16];
	uint64_t v;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (len == 0)
		return fa_why(why, "empty");
	if (len >= sizeof(buf) || memchr(text, '\0', len) != NULL)
		return fa_why(why, "not one integer");
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (!decimal(buf) || fa_parse_u64(buf, 0, 0xffffffffu, &v, NULL) != 0)
		return fa_why(why, "not one integer");
	fa_obs_build(&b);
	fa_put_int(&b, FA_F(HOST_SYSCTL, value), (long long)v);
	if ((*out = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_host_collect_proc(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char *const sysctls[] = { FA_SYSCTL_CAP_LAST_CAP,
	    FA_SYSCTL_OVERFLOWUID, FA_SYSCTL_OVERFLOWGID };
	size_t i;
	int r;

	r = fa_host_read_decode(root, snap, FA_KIND_HOST_STATUS,
	    "/proc/self/status", FA_HOST_STATUS_MAX, fa_host_status_decode);
	for (i = 0; r == 0 && i < sizeof(sysctls) / sizeof(sysctls[0]); i++)
		r = fa_host_read_decode(root, snap, FA_KIND_HOST_SYSCTL,
		    sysctls[i], FA_HOST_SYSCTL_MAX, fa_host_sysctl_decode);
	return r;
}
