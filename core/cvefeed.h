/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Advisory feeds as `fabaudit catalogue build` reads them: each parser
 * turns one downloaded file (OSV JSON, CVE JSON 5.x, NVIDIA CSAF 2.0, the
 * Debian security tracker JSON, CISA KEV JSON) into the facts below, for
 * the components the catalogue covers (core/cvedb.h enum fa_component),
 * and nothing else.  The merge (core/cvebuild.c) then decides, per CVE,
 * what goes into the catalogue and which sources disagree.
 *
 * Every byte of a feed is untrusted: parsers bound every string (printable
 * ASCII, FA_FEED_STR_MAX), every version (core/version.h, the component's
 * scheme), every count; a record they cannot read is not guessed at but
 * refused, and the file's parse fails with FA_ERR_INPUT and *why naming
 * the record and the JSON path ("CVE-2024-21626: affected[0].ranges[1]:
 * ..."), unless the record is simply about another product (skipped and
 * counted).  Strings are owned by the feed (fa_feed_free).
 */
#ifndef FA_CVEFEED_H
#define FA_CVEFEED_H

#include <stddef.h>

#include <jansson.h>

#include "cvedb.h"

#define FA_FEED_STR_MAX		400	/* bytes of any one string kept */
#define FA_FEED_MAX_RECORDS	200000	/* per file */

enum fa_feed_kind {
	FA_FEED_OSV = 0,	/* OSV 1.x: golang/vulndb, GHSA, Ubuntu OSV */
	FA_FEED_CVE5,		/* CVE JSON 5.x record (kernel.org, NVIDIA CNA) */
	FA_FEED_CSAF,		/* CSAF 2.0 advisory (NVIDIA) */
	FA_FEED_DEBIAN,		/* security-tracker.debian.org tracker JSON */
	FA_FEED_KEV,		/* CISA Known Exploited Vulnerabilities */
	FA_FEED_OVERLAY,	/* the hand-kept overlay (data/README.md) */
	FA_FEED_MAX
};

/*
 * Who speaks in a record, for the merge's trust order: the component's
 * vendor (NVIDIA, the runc/containerd/moby maintainers' own advisories,
 * kernel.org as the kernel's CNA), a reviewed database entry (GHSA
 * reviewed), an unreviewed one (a golang/vulndb entry marked
 * UNREVIEWED), a distribution (per release), or the overlay.
 */
enum fa_feed_trust {
	FA_TRUST_VENDOR = 0,
	FA_TRUST_REVIEWED,
	FA_TRUST_UNREVIEWED,
	FA_TRUST_DISTRO,
	FA_TRUST_OVERLAY,
};

/* One half-open affected range [introduced, fixed), as in cvedb.h. */
struct fa_feed_range {
	char		*introduced;	/* NULL: from the beginning */
	char		*fixed;		/* NULL: no fix on this line */
	int		 mainline_only;	/* kernel: the record names only the
					 * mainline release with the fix, no
					 * stable line's (see cvefeed_cve5.c) */
};

/*
 * A distribution's verdict for one release: the source package and the
 * first fixed package version (Debian ordering), or NULL with a status
 * ("open", "not-affected", "undetermined", "end-of-life").
 */
struct fa_feed_distro {
	char		*os;		/* "debian", "ubuntu" */
	char		*release;	/* "bookworm", "noble" */
	char		*package;	/* source package: "runc", "docker.io" */
	char		*fixed;		/* NULL when not fixed */
	char		*status;	/* "resolved", "open", "not-affected" ... */
};

struct fa_feed_rec {
	char			*id;		/* "CVE-YYYY-N..." (aliases
						   resolved to the CVE) */
	char			*alias;		/* the record's own ID if not
						   a CVE ("GO-2024-2491",
						   "GHSA-..."), else NULL */
	enum fa_component	 component;
	enum fa_feed_trust	 trust;
	char			*title;		/* NULL if none */
	double			 cvss;		/* < 0: none */
	char			*cvss_version;	/* "3.1", "4.0", NULL */
	char			*advisory;	/* URL, NULL if none */
	char			*published;	/* YYYY-MM-DD, NULL if none */
	char			*modified;	/* YYYY-MM-DD, NULL if none */
	struct fa_feed_range	*ranges;
	size_t			 nranges;
	struct fa_feed_distro	*distro;
	size_t			 ndistro;
	int			 kev;		/* on CISA's KEV list */
	char			*kev_added;	/* YYYY-MM-DD, NULL if not */
	char			*branch;	/* NVIDIA driver branch this
						   record's ranges are for
						   ("R580"), NULL if none */
	char			*no_ranges;	/* why an entry of the record
						   gave no range (the first),
						   NULL if none */
};

struct fa_feed {
	enum fa_feed_kind	 kind;
	char			*name;		/* the input's file name */
	char			 sha256[65];	/* of the file's bytes */
	char			*newest;	/* newest record date seen */
	struct fa_feed_rec	*v;
	size_t			 n, cap;
	size_t			 skipped;	/* records about other products */
};

/*
 * Parse one downloaded file of the given kind into *out (a new feed):
 * buf/len are the file's bytes (its sha256 is recorded), name is shown in
 * errors and in the build report.  0; FA_ERR_INPUT with *why (caller
 * frees) when the file or a record is malformed; FA_ERR_NOMEM.  A file
 * may hold one record or several (an OSV or CVE 5 record, a JSON array
 * of them, the KEV catalogue, the tracker's whole JSON); each parser
 * says which shapes it takes.
 */
int fa_feed_parse_osv(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why);
int fa_feed_parse_cve5(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why);
int fa_feed_parse_csaf(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why);
int fa_feed_parse_debian(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why);
int fa_feed_parse_kev(const char *buf, size_t len, const char *name,
    struct fa_feed **out, char **why);

/*
 * The kernel's half-open affected ranges from a kernel.org CVE record's
 * facts (core/cvefeed_cve5.c): introduced (NULL: from the beginning), the
 * first fixed release of each stable line ("6.1.77"), and the mainline
 * fix ("6.8", NULL if none).  Each line L with fix s is affected from the
 * later of introduced and the line after the previous fixed one, up to s;
 * above the last line, up to mainline.  0, or FA_ERR_INPUT with *err
 * (static) and r's ranges as they were.
 */
int fa_feed_kernel_ranges(struct fa_feed_rec *r, const char *introduced,
    const char *const *fixes, size_t nfixes, const char *mainline,
    const char **err);

/* Helpers for the parsers (core/cvefeed.c). */
struct fa_feed *fa_feed_new(enum fa_feed_kind kind, const char *name,
    const char *buf, size_t len);
/* A new zeroed record at the end of f (cvss -1), or NULL (ENOMEM). */
struct fa_feed_rec *fa_feed_add(struct fa_feed *f);
int fa_feed_add_range(struct fa_feed_rec *r, const char *introduced,
    const char *fixed);
int fa_feed_add_distro(struct fa_feed_rec *r, const char *os,
    const char *release, const char *package, const char *fixed,
    const char *status);
/* "CVE-YYYY-NNNN..." with 4 to 19 digits of sequence (and s not NULL). */
int fa_feed_cve_id_ok(const char *s);
/*
 * A one-line title from free text: runs of white space become one space,
 * the copy stops at any other non-printable byte and after 200 bytes.
 * NULL when nothing is left (or ENOMEM).
 */
char *fa_feed_title(const char *s);
/* A bounded printable-ASCII copy of s, or NULL if s is not one. */
char *fa_feed_str(const char *s);
/* "YYYY-MM-DD" from an RFC 3339 date or date-time; 0 or FA_ERR_INPUT. */
int fa_feed_date(const char *s, char out[11]);
/* Keep the newer of f->newest and date (YYYY-MM-DD). */
int fa_feed_saw_date(struct fa_feed *f, const char *date);
void fa_feed_free(struct fa_feed *f);

const char *fa_feed_kind_name(enum fa_feed_kind k);
int fa_feed_kind_parse(const char *s, enum fa_feed_kind *out);
const char *fa_feed_trust_name(enum fa_feed_trust t);
#endif
