/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabaudit.conf(5) parser and the classification helpers (see policy.h).
 * The text is hostile input: every line, token and number is bounded, every
 * error names its line, and nothing is kept unless the whole file is valid.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <fnmatch.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "errors.h"
#include "model.h"
#include "policy.h"
#include "util.h"

/* Each token but the last takes a byte and a separator: this is enough. */
#define POL_MAX_TOKENS	(FA_POLICY_MAX_LINE / 2 + 2)
#define POL_MAX_TARGET	256		/* bytes in a waiver target */
#define POL_VIS_MAX	64		/* bytes of user text in a message */

struct pctx {
	const char	*name;		/* for messages */
	char		 today[11];	/* UTC date of `now`, YYYY-MM-DD */
	struct fa_policy *p;
	char		*errs;		/* "NAME:LINE: msg" lines, '\n'-joined */
	size_t		 errs_len;
	size_t		 errs_cap;
	unsigned	 nerrs;
	int		 toomany;	/* a further error was dropped */
	int		 nomem;
	unsigned	 dedicated_line; /* where dedicated_host was set */
	unsigned	 stale_line;	/* where stale_catalogue was set */
	unsigned	 tenant_name_line;
	unsigned	 provider_name_line;
	char		 line[FA_POLICY_MAX_LINE + 1];	/* tokens, unescaped */
	char		*tok[POL_MAX_TOKENS];
};

struct keyword {
	const char	*name;
	const char	*usage;		/* value syntax for messages */
	int		 min;		/* values required */
	int		 max;		/* values allowed, -1 for no limit */
	void		(*fn)(struct pctx *, unsigned, int, char **);
};

/*
 * Copy s into buf for a message: printable ASCII only, at most POL_VIS_MAX
 * bytes, "..." when cut short.  Policy text is attacker-influenced and the
 * message ends up on a terminal.
 */
static const char *
vis(char *buf, size_t bufsz, const char *s)
{
	size_t i, o = 0;

	if (bufsz < POL_VIS_MAX + 4)
		return "?";
	for (i = 0; s[i] != '\0' && i < POL_VIS_MAX; i++) {
		unsigned char ch = (unsigned char)s[i];

		buf[o++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
	}
	if (s[i] != '\0') {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

static int
errs_append(struct pctx *c, const char *s)
{
	size_t n = strlen(s), need;
	char *nb;

	need = c->errs_len + n + 2;	/* '\n' separator and NUL */
	if (need > c->errs_cap) {
		size_t cap = c->errs_cap == 0 ? 1024 : c->errs_cap;

		while (cap < need)
			cap *= 2;
		if ((nb = realloc(c->errs, cap)) == NULL) {
			c->nomem = 1;
			return FA_ERR_NOMEM;
		}
		c->errs = nb;
		c->errs_cap = cap;
	}
	if (c->errs_len > 0)
		c->errs[c->errs_len++] = '\n';
	memcpy(c->errs + c->errs_len, s, n);
	c->errs_len += n;
	c->errs[c->errs_len] = '\0';
	return 0;
}

static void perr(struct pctx *, unsigned, const char *, ...)
    __attribute__((__format__(__printf__, 3, 4)));

/* Record "NAME:LINE: message"; past the limit, note that and stop. */
static void
perr(struct pctx *c, unsigned line, const char *fmt, ...)
{
	char msg[512];
	char *s;
	va_list ap;

	if (c->toomany || c->nomem)
		return;
	if (c->nerrs >= FA_POLICY_MAX_ERRORS) {
		c->toomany = 1;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if ((s = fa_strfmt("%s:%u: %s", c->name, line, msg)) == NULL) {
		c->nomem = 1;
		return;
	}
	if (errs_append(c, s) == 0)
		c->nerrs++;
	free(s);
}

/*
 * Make room for element n of an array of elements of size sz, whose
 * capacity is implied by n (8, then powers of two) so struct fa_policy needs
 * no capacity fields.  Returns the array, perhaps moved, or NULL on ENOMEM
 * (the old array is then untouched).
 */
static void *
grow(void *arr, size_t n, size_t sz)
{
	size_t cap;

	if (n != 0 && (n < 8 || (n & (n - 1)) != 0))
		return arr;
	cap = n == 0 ? 8 : n * 2;
	if (cap > SIZE_MAX / sz)
		return NULL;
	return realloc(arr, cap * sz);
}

/* Append a zeroed element to arr (an lvalue) of n elements; ep points at it. */
#define APPEND(arr, n, ep) do {						\
	void *na_ = grow((arr), (n), sizeof(*(arr)));			\
									\
	(ep) = NULL;							\
	if (na_ != NULL) {						\
		(arr) = na_;						\
		(ep) = &(arr)[(n)++];					\
		memset((ep), 0, sizeof(*(ep)));				\
	}								\
} while (0)

static int
nomem(struct pctx *c)
{
	c->nomem = 1;
	return FA_ERR_NOMEM;
}

/*
 * Split one line (no newline, no NUL) into tokens in c->line.  Returns the
 * number of tokens, or FA_ERR_INPUT after reporting an error.
 */
static int
tokenize(struct pctx *c, unsigned lno, const char *s, size_t len)
{
	size_t i = 0, o = 0;
	int ntok = 0;

	for (;;) {
		int quoted = 0;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= len || s[i] == '#')
			break;
		c->tok[ntok] = c->line + o;
		while (i < len) {
			char ch = s[i];

			if (quoted) {
				if (ch == '"') {
					quoted = 0;
					i++;
					continue;
				}
				if (ch == '\\') {
					if (i + 1 >= len)
						break;	/* unterminated */
					if (s[i + 1] != '"' && s[i + 1] != '\\') {
						char vb[2] = { s[i + 1], '\0' };
						char v[POL_VIS_MAX + 4];

						perr(c, lno, "invalid escape "
						    "'\\%s' in quoted string "
						    "(only \\\" and \\\\ are "
						    "allowed)",
						    vis(v, sizeof(v), vb));
						return FA_ERR_INPUT;
					}
					ch = s[i + 1];
					i++;
				}
				c->line[o++] = ch;
				i++;
				continue;
			}
			if (ch == ' ' || ch == '\t' || ch == '#')
				break;
			if (ch == '"') {
				quoted = 1;
				i++;
				continue;
			}
			c->line[o++] = ch;
			i++;
		}
		if (quoted) {
			perr(c, lno, "unterminated quoted string");
			return FA_ERR_INPUT;
		}
		c->line[o++] = '\0';
		ntok++;
		if (ntok >= POL_MAX_TOKENS)	/* cannot happen, see above */
			break;
	}
	return ntok;
}

static int
all_digits(const char *s, int hex)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!(hex ? isxdigit((unsigned char)*s) :
		    isdigit((unsigned char)*s)))
			return 0;
	return 1;
}

/*
 * A GUID: 0x and 1-16 hex digits, not zero.  0 on success, or FA_ERR_INPUT
 * after reporting an error.
 */
static int
parse_guid(struct pctx *c, unsigned lno, const char *s, uint64_t *out)
{
	char v[POL_VIS_MAX + 4];
	const char *errstr;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ||
	    !all_digits(s + 2, 1)) {
		perr(c, lno, "invalid GUID '%s' (expected 0x followed by "
		    "1-16 hex digits)", vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	if (strlen(s + 2) > 16) {
		perr(c, lno, "invalid GUID '%s' (more than 16 hex digits)",
		    vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	if (fa_parse_hex64(s, out, &errstr) != 0) {
		perr(c, lno, "invalid GUID '%s' (%s)", vis(v, sizeof(v), s),
		    errstr != NULL ? errstr : "invalid");
		return FA_ERR_INPUT;
	}
	if (*out == 0) {
		perr(c, lno, "invalid GUID '%s' (must not be zero)",
		    vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	return 0;
}

/*
 * A number in [min, max]: decimal digits, or 0x and hex digits.  0, or
 * FA_ERR_INPUT (nothing reported: the caller says what was expected).
 */
static int
parse_num(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!all_digits(s + 2, 1))
			return FA_ERR_INPUT;
	} else if (!all_digits(s, 0))
		return FA_ERR_INPUT;
	return fa_parse_u64(s, min, max, out, NULL) == 0 ? 0 : FA_ERR_INPUT;
}

/*
 * ADDR/PREFIX, or with allow_bare a lone ADDR as a /32 or /128.  Host bits
 * must be clear.  0 on success, or FA_ERR_INPUT after reporting an
 * error.
 */
static int
parse_cidr(struct pctx *c, unsigned lno, const char *s, int allow_bare,
    struct fa_cidr *out)
{
	char v[POL_VIS_MAX + 4];
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	size_t alen = slash != NULL ? (size_t)(slash - s) : strlen(s);
	unsigned maxp, i;
	uint64_t prefix;

	memset(out, 0, sizeof(*out));
	if (slash == NULL && !allow_bare) {
		perr(c, lno, "missing prefix length in '%s' (expected "
		    "ADDR/PREFIX)", vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	if (alen == 0 || alen >= sizeof(addr)) {
		perr(c, lno, "invalid IP address in '%s'",
		    vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	memcpy(addr, s, alen);
	addr[alen] = '\0';
	if (inet_pton(AF_INET, addr, out->addr) == 1) {
		out->af = AF_INET;
		maxp = 32;
	} else if (inet_pton(AF_INET6, addr, out->addr) == 1) {
		out->af = AF_INET6;
		maxp = 128;
	} else {
		perr(c, lno, "invalid IP address in '%s'",
		    vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	if (slash == NULL)
		prefix = maxp;
	else if (!all_digits(slash + 1, 0) || strlen(slash + 1) > 3 ||
	    parse_num(slash + 1, 0, maxp, &prefix) != 0) {
		perr(c, lno, "invalid prefix length in '%s' (expected 0-%u)",
		    vis(v, sizeof(v), s), maxp);
		return FA_ERR_INPUT;
	}
	out->prefix = (unsigned)prefix;
	for (i = 0; i < maxp / 8; i++) {
		unsigned keep = out->prefix >= (i + 1) * 8 ? 8 :
		    out->prefix > i * 8 ? out->prefix - i * 8 : 0;
		uint8_t mask = (uint8_t)(0xff00u >> keep);

		if (out->addr[i] & (uint8_t)~mask) {
			perr(c, lno, "host bits set in %s",
			    vis(v, sizeof(v), s));
			return FA_ERR_INPUT;
		}
	}
	return 0;
}

/*
 * The check ID of a severity or waive line: valid and published.  0, or
 * FA_ERR_INPUT after reporting an error.
 */
static int
parse_check_id(struct pctx *c, unsigned lno, const char *s)
{
	char v[POL_VIS_MAX + 4];

	if (!fa_check_id_valid(s) || !fa_check_id_known(s)) {
		perr(c, lno, "unknown check ID '%s'", vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	return 0;
}

static int
leap(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* YYYY-MM-DD naming a real calendar day. */
static int
valid_date(const char *s)
{
	static const unsigned mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	unsigned y, m, d, i;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	y = (unsigned)(s[0] - '0') * 1000 + (unsigned)(s[1] - '0') * 100 +
	    (unsigned)(s[2] - '0') * 10 + (unsigned)(s[3] - '0');
	m = (unsigned)(s[5] - '0') * 10 + (unsigned)(s[6] - '0');
	d = (unsigned)(s[8] - '0') * 10 + (unsigned)(s[9] - '0');
	if (y == 0 || m < 1 || m > 12 || d < 1)
		return 0;
	return d <= mdays[m - 1] + (m == 2 && leap(y) ? 1u : 0u);
}

static void
kw_node(struct pctx *c, unsigned lno, int argc, char **argv,
    struct fa_pol_str **arr, size_t *n, const char *kw)
{
	struct fa_pol_str *e;
	int i;

	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '\0') {
			perr(c, lno, "empty pattern for %s", kw);
			continue;
		}
		APPEND(*arr, *n, e);
		if (e == NULL) {
			nomem(c);
			return;
		}
		e->line = lno;
		if ((e->value = strdup(argv[i])) == NULL) {
			nomem(c);
			return;
		}
	}
}

static void
kw_guid(struct pctx *c, unsigned lno, int argc, char **argv,
    struct fa_pol_u64 **arr, size_t *n)
{
	struct fa_pol_u64 *e;
	uint64_t g;
	int i;

	for (i = 0; i < argc; i++) {
		if (parse_guid(c, lno, argv[i], &g) != 0)
			continue;
		APPEND(*arr, *n, e);
		if (e == NULL) {
			nomem(c);
			return;
		}
		e->value = g;
		e->line = lno;
	}
}

static void
kw_tenant_node(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_node(c, lno, argc, argv, &c->p->tenant_node, &c->p->n_tenant_node,
	    "tenant_node");
}

static void
kw_provider_node(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_node(c, lno, argc, argv, &c->p->provider_node,
	    &c->p->n_provider_node, "provider_node");
}

static void
kw_tenant_guid(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_guid(c, lno, argc, argv, &c->p->tenant_guid, &c->p->n_tenant_guid);
}

static void
kw_provider_guid(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_guid(c, lno, argc, argv, &c->p->provider_guid,
	    &c->p->n_provider_guid);
}

static void
kw_sm_guid(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_guid(c, lno, argc, argv, &c->p->sm_guid, &c->p->n_sm_guid);
}

static void
kw_tenant_pkey(struct pctx *c, unsigned lno, int argc, char **argv)
{
	char v[POL_VIS_MAX + 4];
	struct fa_pol_u64 *e;
	uint64_t k;
	int i;

	for (i = 0; i < argc; i++) {
		if (parse_num(argv[i], 1, 0xffff, &k) != 0) {
			perr(c, lno, "invalid P_Key '%s' (expected "
			    "0x0001-0xffff)", vis(v, sizeof(v), argv[i]));
			continue;
		}
		if ((k & 0x7fff) == 0) {
			perr(c, lno, "invalid P_Key '%s' (partition number, "
			    "the low 15 bits, must not be zero)",
			    vis(v, sizeof(v), argv[i]));
			continue;
		}
		APPEND(c->p->tenant_pkey, c->p->n_tenant_pkey, e);
		if (e == NULL) {
			nomem(c);
			return;
		}
		e->value = k;
		e->line = lno;
	}
}

/* VLAN IDs 1-4094 into *arr. */
static void
vlan_list(struct pctx *c, unsigned lno, int argc, char **argv,
    struct fa_pol_u64 **arr, size_t *n)
{
	char v[POL_VIS_MAX + 4];
	struct fa_pol_u64 *e;
	uint64_t vid;
	int i;

	for (i = 0; i < argc; i++) {
		if (!all_digits(argv[i], 0) ||
		    parse_num(argv[i], 1, 4094, &vid) != 0) {
			perr(c, lno, "invalid VLAN ID '%s' (expected 1-4094)",
			    vis(v, sizeof(v), argv[i]));
			continue;
		}
		APPEND(*arr, *n, e);
		if (e == NULL) {
			nomem(c);
			return;
		}
		e->value = vid;
		e->line = lno;
	}
}

static void
kw_tenant_vlan(struct pctx *c, unsigned lno, int argc, char **argv)
{
	vlan_list(c, lno, argc, argv, &c->p->tenant_vlan,
	    &c->p->n_tenant_vlan);
}

static void
kw_foreign_vlan(struct pctx *c, unsigned lno, int argc, char **argv)
{
	vlan_list(c, lno, argc, argv, &c->p->foreign_vlan,
	    &c->p->n_foreign_vlan);
}

/* Networks (ADDR/PREFIX, or a lone ADDR with bare) into *arr. */
static void
cidr_list(struct pctx *c, unsigned lno, int argc, char **argv, int bare,
    struct fa_cidr **arr, size_t *n)
{
	struct fa_cidr net, *e;
	int i;

	for (i = 0; i < argc; i++) {
		if (parse_cidr(c, lno, argv[i], bare, &net) != 0)
			continue;
		APPEND(*arr, *n, e);
		if (e == NULL) {
			nomem(c);
			return;
		}
		*e = net;
	}
}

static void
kw_dhcp_server(struct pctx *c, unsigned lno, int argc, char **argv)
{
	cidr_list(c, lno, argc, argv, 1, &c->p->dhcp_server,
	    &c->p->n_dhcp_server);
}

static void
kw_tenant_subnet(struct pctx *c, unsigned lno, int argc, char **argv)
{
	cidr_list(c, lno, argc, argv, 0, &c->p->tenant_subnet,
	    &c->p->n_tenant_subnet);
}

/*
 * icmp, tcp/PORT[,PORT...] or udp/PORT[,PORT...] into t->probes.  0;
 * FA_ERR_INPUT after reporting an error (the valid ports are kept); or
 * FA_ERR_NOMEM (c->nomem set).
 */
static int
parse_probe(struct pctx *c, unsigned lno, const char *s,
    struct fa_pol_target *t)
{
	char v[POL_VIS_MAX + 4], pv[POL_VIS_MAX + 4];
	enum fa_probe_proto proto;
	struct fa_probe *pr;
	const char *p, *end;
	char port[POL_VIS_MAX + 1];
	uint64_t n;
	int bad = 0;

	if (strcmp(s, "icmp") == 0) {
		APPEND(t->probes, t->nprobes, pr);
		if (pr == NULL)
			return nomem(c);
		pr->proto = FA_PROBE_ICMP;
		pr->port = 0;
		return 0;
	}
	if (strncmp(s, "tcp/", 4) == 0)
		proto = FA_PROBE_TCP;
	else if (strncmp(s, "udp/", 4) == 0)
		proto = FA_PROBE_UDP;
	else {
		perr(c, lno, "invalid probe '%s' (expected icmp, "
		    "tcp/PORT[,PORT...] or udp/PORT[,PORT...])",
		    vis(v, sizeof(v), s));
		return FA_ERR_INPUT;
	}
	for (p = s + 4;; p = end + 1) {
		size_t plen;

		end = strchr(p, ',');
		plen = end != NULL ? (size_t)(end - p) : strlen(p);
		memcpy(port, p, plen < sizeof(port) ? plen : sizeof(port) - 1);
		port[plen < sizeof(port) ? plen : sizeof(port) - 1] = '\0';
		if (plen > 5 || !all_digits(port, 0) ||
		    parse_num(port, 1, 65535, &n) != 0) {
			perr(c, lno, "invalid port '%s' in probe '%s' "
			    "(expected 1-65535)", vis(pv, sizeof(pv), port),
			    vis(v, sizeof(v), s));
			bad = 1;
		} else {
			APPEND(t->probes, t->nprobes, pr);
			if (pr == NULL)
				return nomem(c);
			pr->proto = proto;
			pr->port = (uint16_t)n;
		}
		if (end == NULL)
			break;
	}
	return bad ? FA_ERR_INPUT : 0;
}

static void
kw_target(struct pctx *c, unsigned lno, int argc, char **argv,
    struct fa_pol_target **arr, size_t *n)
{
	struct fa_pol_target *t;
	struct fa_cidr net;
	int i;

	if (parse_cidr(c, lno, argv[0], 1, &net) != 0)
		return;
	APPEND(*arr, *n, t);
	if (t == NULL) {
		nomem(c);
		return;
	}
	t->net = net;
	t->line = lno;
	for (i = 1; i < argc && !c->nomem; i++)
		(void)parse_probe(c, lno, argv[i], t);
}

static void
kw_mgmt_target(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_target(c, lno, argc, argv, &c->p->mgmt_target,
	    &c->p->n_mgmt_target);
}

static void
kw_foreign_target(struct pctx *c, unsigned lno, int argc, char **argv)
{
	kw_target(c, lno, argc, argv, &c->p->foreign_target,
	    &c->p->n_foreign_target);
}

/* A name shown in the report's scope: set once, printable, bounded. */
static void
kw_name(struct pctx *c, unsigned lno, const char *kw, const char *val,
    unsigned *seen, char **dst)
{
	const unsigned char *q;

	if (*seen != 0) {
		perr(c, lno, "duplicate %s (first set on line %u)", kw, *seen);
		return;
	}
	if (val[0] == '\0' || strlen(val) > POL_MAX_TARGET) {
		perr(c, lno, "%s must be 1 to %d bytes", kw, POL_MAX_TARGET);
		return;
	}
	for (q = (const unsigned char *)val; *q != '\0'; q++)
		if (*q < 0x20 || *q == 0x7f) {
			perr(c, lno, "%s contains a control character", kw);
			return;
		}
	*seen = lno;
	if ((*dst = strdup(val)) == NULL)
		nomem(c);
}

static void
kw_tenant_name(struct pctx *c, unsigned lno, int argc, char **argv)
{
	(void)argc;
	kw_name(c, lno, "tenant_name", argv[0], &c->tenant_name_line,
	    &c->p->tenant_name);
}

static void
kw_provider_name(struct pctx *c, unsigned lno, int argc, char **argv)
{
	(void)argc;
	kw_name(c, lno, "provider_name", argv[0], &c->provider_name_line,
	    &c->p->provider_name);
}

static void
kw_dedicated_host(struct pctx *c, unsigned lno, int argc, char **argv)
{
	char v[POL_VIS_MAX + 4];
	int val;

	(void)argc;
	if (strcmp(argv[0], "yes") == 0)
		val = 1;
	else if (strcmp(argv[0], "no") == 0)
		val = 0;
	else {
		perr(c, lno, "invalid value '%s' for dedicated_host "
		    "(expected yes or no)", vis(v, sizeof(v), argv[0]));
		return;
	}
	if (c->dedicated_line != 0) {
		perr(c, lno, "duplicate dedicated_host (first set on line %u)",
		    c->dedicated_line);
		return;
	}
	c->dedicated_line = lno;
	c->p->dedicated_host = val;
}

/* stale_catalogue warn|not_tested: what a stale CVE catalogue does. */
static void
kw_stale_catalogue(struct pctx *c, unsigned lno, int argc, char **argv)
{
	char v[POL_VIS_MAX + 4];

	(void)argc;
	if (strcmp(argv[0], "warn") != 0 &&
	    strcmp(argv[0], "not_tested") != 0) {
		perr(c, lno, "invalid value '%s' for stale_catalogue "
		    "(expected warn or not_tested)", vis(v, sizeof(v),
		    argv[0]));
		return;
	}
	if (c->stale_line != 0) {
		perr(c, lno, "duplicate stale_catalogue (first set on line "
		    "%u)", c->stale_line);
		return;
	}
	c->stale_line = lno;
	c->p->stale_not_tested = strcmp(argv[0], "not_tested") == 0;
}

static void
kw_severity(struct pctx *c, unsigned lno, int argc, char **argv)
{
	char v[POL_VIS_MAX + 4];
	struct fa_pol_severity *e;
	enum fa_severity sev;
	int bad = 0;

	(void)argc;
	if (parse_check_id(c, lno, argv[0]) != 0)
		bad = 1;
	if (fa_severity_parse(argv[1], &sev) != 0) {
		perr(c, lno, "invalid severity '%s' (expected critical, high, "
		    "medium, low or info)", vis(v, sizeof(v), argv[1]));
		bad = 1;
	}
	if (bad)
		return;
	APPEND(c->p->severity, c->p->n_severity, e);
	if (e == NULL || (e->check_id = strdup(argv[0])) == NULL) {
		nomem(c);
		return;
	}
	e->severity = sev;
	e->line = lno;
}

static void
kw_waive(struct pctx *c, unsigned lno, int argc, char **argv)
{
	char v[POL_VIS_MAX + 4];
	struct fa_pol_waiver *e;
	size_t tlen = strlen(argv[1]);
	int bad = 0;

	(void)argc;
	if (parse_check_id(c, lno, argv[0]) != 0)
		bad = 1;
	if (tlen == 0) {
		perr(c, lno, "empty waiver target");
		bad = 1;
	} else if (tlen > POL_MAX_TARGET) {
		perr(c, lno, "waiver target too long (%zu bytes, at most %d)",
		    tlen, POL_MAX_TARGET);
		bad = 1;
	}
	if (!valid_date(argv[2])) {
		perr(c, lno, "invalid date '%s' (expected a real YYYY-MM-DD "
		    "date)", vis(v, sizeof(v), argv[2]));
		bad = 1;
	}
	if (argv[3][0] == '\0') {
		perr(c, lno, "empty waiver reason");
		bad = 1;
	}
	if (bad)
		return;
	APPEND(c->p->waive, c->p->n_waive, e);
	if (e == NULL) {
		nomem(c);
		return;
	}
	e->line = lno;
	memcpy(e->expires, argv[2], sizeof(e->expires));
	/*
	 * Valid through its date, expired from the day after.  An expired
	 * waiver stays in the policy so that the report can say so, but it
	 * no longer suppresses anything (fa_policy_waiver skips it).
	 */
	e->expired = strcmp(argv[2], c->today) < 0;
	if ((e->check_id = strdup(argv[0])) == NULL ||
	    (e->target = strdup(argv[1])) == NULL ||
	    (e->reason = strdup(argv[3])) == NULL)
		nomem(c);
}

static const struct keyword keywords[] = {
	{ .name = "tenant_name", .usage = "tenant_name \"NAME\"",
	  .min = 1, .max = 1, .fn = kw_tenant_name },
	{ .name = "provider_name", .usage = "provider_name \"NAME\"",
	  .min = 1, .max = 1, .fn = kw_provider_name },
	{ .name = "tenant_node", .usage = "tenant_node GLOB...",
	  .min = 1, .max = -1, .fn = kw_tenant_node },
	{ .name = "tenant_guid", .usage = "tenant_guid GUID...",
	  .min = 1, .max = -1, .fn = kw_tenant_guid },
	{ .name = "tenant_pkey", .usage = "tenant_pkey PKEY...",
	  .min = 1, .max = -1, .fn = kw_tenant_pkey },
	{ .name = "provider_node", .usage = "provider_node GLOB...",
	  .min = 1, .max = -1, .fn = kw_provider_node },
	{ .name = "provider_guid", .usage = "provider_guid GUID...",
	  .min = 1, .max = -1, .fn = kw_provider_guid },
	{ .name = "sm_guid", .usage = "sm_guid GUID...",
	  .min = 1, .max = -1, .fn = kw_sm_guid },
	{ .name = "dedicated_host", .usage = "dedicated_host yes|no",
	  .min = 1, .max = 1, .fn = kw_dedicated_host },
	{ .name = "stale_catalogue", .usage = "stale_catalogue "
	  "warn|not_tested", .min = 1, .max = 1, .fn = kw_stale_catalogue },
	{ .name = "tenant_vlan", .usage = "tenant_vlan VID...",
	  .min = 1, .max = -1, .fn = kw_tenant_vlan },
	{ .name = "foreign_vlan", .usage = "foreign_vlan VID...",
	  .min = 1, .max = -1, .fn = kw_foreign_vlan },
	{ .name = "tenant_subnet", .usage = "tenant_subnet ADDR/PREFIX...",
	  .min = 1, .max = -1, .fn = kw_tenant_subnet },
	{ .name = "dhcp_server", .usage = "dhcp_server ADDR[/PREFIX]...",
	  .min = 1, .max = -1, .fn = kw_dhcp_server },
	{ .name = "mgmt_target",
	  .usage = "mgmt_target ADDR[/PREFIX] PROBE...",
	  .min = 2, .max = -1, .fn = kw_mgmt_target },
	{ .name = "foreign_target",
	  .usage = "foreign_target ADDR[/PREFIX] PROBE...",
	  .min = 2, .max = -1, .fn = kw_foreign_target },
	{ .name = "severity", .usage = "severity CHECK-ID LEVEL",
	  .min = 2, .max = 2, .fn = kw_severity },
	{ .name = "waive",
	  .usage = "waive CHECK-ID TARGET YYYY-MM-DD \"REASON\"",
	  .min = 4, .max = 4, .fn = kw_waive },
};

static void
parse_line(struct pctx *c, unsigned lno, const char *s, size_t len)
{
	char v[POL_VIS_MAX + 4];
	const struct keyword *kw = NULL;
	size_t i;
	int ntok, nval;

	if ((ntok = tokenize(c, lno, s, len)) <= 0)
		return;
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(keywords[i].name, c->tok[0]) == 0) {
			kw = &keywords[i];
			break;
		}
	if (kw == NULL) {
		perr(c, lno, "unknown keyword '%s'", vis(v, sizeof(v),
		    c->tok[0]));
		return;
	}
	nval = ntok - 1;
	if (nval == 0) {
		perr(c, lno, "missing value for %s (usage: %s)", kw->name,
		    kw->usage);
		return;
	}
	if (nval < kw->min) {
		perr(c, lno, "too few values for %s (usage: %s)", kw->name,
		    kw->usage);
		return;
	}
	if (kw->max >= 0 && nval > kw->max) {
		perr(c, lno, "too many values for %s (usage: %s)", kw->name,
		    kw->usage);
		return;
	}
	kw->fn(c, lno, nval, c->tok + 1);
}

struct fa_policy *
fa_policy_new_empty(void)
{
	struct fa_policy *p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->dedicated_host = -1;
	return p;
}

static void
free_strs(struct fa_pol_str *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(a[i].value);
	free(a);
}

static void
free_targets(struct fa_pol_target *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(a[i].probes);
	free(a);
}

void
fa_policy_free(struct fa_policy *p)
{
	size_t i;

	if (p == NULL)
		return;
	free(p->name);
	free(p->text);
	free(p->tenant_name);
	free(p->provider_name);
	free_strs(p->tenant_node, p->n_tenant_node);
	free(p->tenant_guid);
	free(p->tenant_pkey);
	free_strs(p->provider_node, p->n_provider_node);
	free(p->provider_guid);
	free(p->sm_guid);
	free(p->tenant_vlan);
	free(p->tenant_subnet);
	free(p->dhcp_server);
	free(p->foreign_vlan);
	free_targets(p->mgmt_target, p->n_mgmt_target);
	free_targets(p->foreign_target, p->n_foreign_target);
	for (i = 0; i < p->n_severity; i++)
		free(p->severity[i].check_id);
	free(p->severity);
	for (i = 0; i < p->n_waive; i++) {
		free(p->waive[i].check_id);
		free(p->waive[i].target);
		free(p->waive[i].reason);
	}
	free(p->waive);
	free(p);
}

int
fa_policy_parse(const char *name, const char *text, size_t len, time_t now,
    struct fa_policy **out, char **errs)
{
	struct pctx *c = NULL;
	size_t pos = 0;
	unsigned lno = 0;
	const char *nul, *q;
	char *s;
	int r;

	if (out != NULL)
		*out = NULL;
	if (errs != NULL)
		*errs = NULL;
	if (name == NULL)
		name = "policy";
	if (out == NULL || (text == NULL && len != 0)) {
		if (errs != NULL)
			*errs = fa_strfmt("%s: no policy text", name);
		return FA_ERR_INPUT;
	}
	if (len > FA_POLICY_MAX_BYTES) {
		if (errs != NULL)
			*errs = fa_strfmt("%s: too large (%zu bytes, at most "
			    "%d)", name, len, FA_POLICY_MAX_BYTES);
		return FA_ERR_TOOBIG;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->p = fa_policy_new_empty()) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	c->name = name;
	fa_time_date(now, c->today, sizeof(c->today));

	/* A UTF-8 byte order mark, as some editors write, is not text. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	/* A binary file: one message, at the first NUL, not one per line. */
	if (len > 0 && (nul = memchr(text, '\0', len)) != NULL) {
		for (q = text; q < nul; q++)
			lno += *q == '\n';
		perr(c, lno + 1, "NUL byte in line (a binary file?)");
		pos = len;
	}
	while (pos < len && !c->toomany && !c->nomem) {
		const char *ls = text + pos, *nl;
		size_t ll, next;

		lno++;
		nl = memchr(ls, '\n', len - pos);
		ll = nl != NULL ? (size_t)(nl - ls) : len - pos;
		next = pos + ll + (nl != NULL ? 1 : 0);
		if (ll > 0 && ls[ll - 1] == '\r')
			ll--;
		if (ll > FA_POLICY_MAX_LINE)
			perr(c, lno, "line too long (more than %d bytes)",
			    FA_POLICY_MAX_LINE);
		else
			parse_line(c, lno, ls, ll);
		pos = next;
	}
	if (c->toomany && !c->nomem) {
		if ((s = fa_strfmt("%s: too many errors", name)) == NULL)
			c->nomem = 1;
		else
			(void)errs_append(c, s);
		free(s);
	}
	if (c->nomem) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	if (c->nerrs > 0) {
		r = FA_ERR_INPUT;
		if (errs != NULL) {
			*errs = c->errs;
			c->errs = NULL;
		}
		goto out;
	}
	if ((c->p->name = strdup(name)) == NULL ||
	    (c->p->text = malloc(len + 1)) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	if (len > 0)
		memcpy(c->p->text, text, len);
	c->p->text[len] = '\0';
	c->p->text_len = len;
	*out = c->p;
	c->p = NULL;
	r = 0;
out:
	if (r == FA_ERR_NOMEM && errs != NULL)
		*errs = fa_strfmt("%s: out of memory", name);
	if (c != NULL) {
		free(c->errs);
		fa_policy_free(c->p);
		free(c);
	}
	return r;
}

/* A GUID of 0 means "unknown" to callers and never matches. */
static int
guid_in(const struct fa_pol_u64 *a, size_t n, uint64_t g)
{
	size_t i;

	if (g == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (a[i].value == g)
			return 1;
	return 0;
}

static int
glob_in(const struct fa_pol_str *a, size_t n, const char *desc)
{
	size_t i;

	if (desc == NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (fnmatch(a[i].value, desc, 0) == 0)
			return 1;
	return 0;
}

int
fa_policy_is_tenant(const struct fa_policy *p, uint64_t node_guid,
    uint64_t port_guid, const char *node_desc)
{
	if (p == NULL)
		return 0;
	return guid_in(p->tenant_guid, p->n_tenant_guid, node_guid) ||
	    guid_in(p->tenant_guid, p->n_tenant_guid, port_guid) ||
	    glob_in(p->tenant_node, p->n_tenant_node, node_desc);
}

int
fa_policy_is_provider(const struct fa_policy *p, uint64_t node_guid,
    uint64_t port_guid, const char *node_desc)
{
	if (p == NULL)
		return 0;
	return guid_in(p->provider_guid, p->n_provider_guid, node_guid) ||
	    guid_in(p->provider_guid, p->n_provider_guid, port_guid) ||
	    guid_in(p->sm_guid, p->n_sm_guid, node_guid) ||
	    guid_in(p->sm_guid, p->n_sm_guid, port_guid) ||
	    glob_in(p->provider_node, p->n_provider_node, node_desc);
}

enum fa_severity
fa_policy_severity(const struct fa_policy *p, const char *check_id,
    enum fa_severity dflt)
{
	size_t i;

	if (p == NULL || check_id == NULL)
		return dflt;
	for (i = p->n_severity; i > 0; i--)
		if (strcmp(p->severity[i - 1].check_id, check_id) == 0)
			return p->severity[i - 1].severity;
	return dflt;
}

const struct fa_pol_waiver *
fa_policy_waiver(const struct fa_policy *p, const char *check_id,
    const char *target, int expired)
{
	size_t i;

	if (p == NULL || check_id == NULL || target == NULL)
		return NULL;
	for (i = 0; i < p->n_waive; i++)
		if (!p->waive[i].expired == !expired &&
		    strcmp(p->waive[i].check_id, check_id) == 0 &&
		    fnmatch(p->waive[i].target, target, 0) == 0)
			return &p->waive[i];
	return NULL;
}

int
fa_cidr_contains(const struct fa_cidr *net, int af, const uint8_t *addr)
{
	unsigned full = net->prefix / 8, rest = net->prefix % 8;

	if (net->af != af)
		return 0;
	if (memcmp(net->addr, addr, full) != 0)
		return 0;
	return rest == 0 || ((net->addr[full] ^ addr[full]) &
	    (uint8_t)(0xff << (8 - rest))) == 0;
}

int
fa_cidr_any(const struct fa_cidr *nets, size_t n, int af,
    const uint8_t *addr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fa_cidr_contains(&nets[i], af, addr))
			return 1;
	return 0;
}
