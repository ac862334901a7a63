/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command layer: the only code that prints diagnostics or chooses an
 * exit status.  Exit codes are design.md's contract.
 */
#ifndef FA_SCANNER_H
#define FA_SCANNER_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "../checks/check.h"
#include "../core/policy.h"
#include "../core/snapshot.h"

enum fa_exit {
	FA_EXIT_OK = 0,		/* no failing result at or above --fail-on */
	FA_EXIT_FINDINGS = 1,	/* failing results at or above --fail-on */
	FA_EXIT_USAGE = 2,	/* usage, policy or input error */
	FA_EXIT_NORUN = 3,	/* the scan could not run; output unwritable */
};

struct fa_outset;

/*
 * Whether a command about to return from main() frees its large
 * structures (the snapshot, the results, the report tree) one allocation
 * at a time, or leaves them to exit(2): at 10,044 HCAs the freeing was a
 * tenth of `fabaudit check`.  Always freed under AddressSanitizer, whose
 * leak check (make check, tests/run.sh) must see every allocation freed.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FA_FREE_BEFORE_EXIT	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FA_FREE_BEFORE_EXIT	1
#endif
#endif
#ifndef FA_FREE_BEFORE_EXIT
#define FA_FREE_BEFORE_EXIT	0
#endif

struct fa_out_opts {
	const char	*outdir;	/* NULL: none (check) or default (scan) */
	int		 json;		/* write report.json */
	int		 txt;		/* write report.txt */
	int		 xml;		/* write report.xml */
	int		 html;		/* write report.html */
	int		 junit;		/* write junit.xml */
	enum fa_severity fail_on;
	int		 findings_ok;	/* --fail-on none: findings leave the
					 * exit status 0 (the threshold still
					 * counts "failing" in the reports) */
	int		 quiet;
	int		 reveal;
	const char	*sign_key;	/* --sign: private key (PEM), or NULL */
	const char	*pcap;		/* the scan's mads.pcap, under this
					 * temporary name in outdir: placed
					 * with the report, or NULL */
	struct fa_outset *set;		/* the output set being written (set
					   by fa_evaluate_and_emit, merge) */
	int		 last;		/* main() returns after this: see
					   FA_FREE_BEFORE_EXIT */
	json_t		*baseline;	/* --baseline: the report compared with */
	const char	*baseline_file;
	char		 baseline_sha[65];
};

/* Files one run writes at most: snapshot, capture, reports, renderings. */
#define FA_OUT_MAX_FILES	8

/*
 * Write report.json and the renderings chosen in o (xml, html, junit) of
 * the finished report j into the output set o->set; each name written is appended to
 * names[*n] (room for FA_OUT_MAX_FILES in all).  0 or FA_EXIT_NORUN
 * (diagnostic printed).
 */
int fa_write_renderings(const struct fa_out_opts *o, const json_t *j,
    const char **names, size_t *n);

/* Write buf as the set's name; 0 or FA_EXIT_NORUN (diagnostic printed). */
int fa_write_out(struct fa_outset *set, const char *name, const char *buf,
    size_t len);

/* What the emit step leaves for the caller (metrics, syslog). */
struct fa_emitted {
	json_t		*report;	/* the report.json content; caller frees */
	size_t		 new_failing;	/* with a baseline: new, unwaived, at or
					   above --fail-on */
};

/*
 * --baseline FILE: read and check a report.json, keep it and the SHA-256
 * of its bytes in o.  0 or FA_EXIT_USAGE (diagnostic printed).
 */
int fa_load_baseline(const char *path, struct fa_out_opts *o);

/* "fabaudit: WHERE: message" (WHERE may be NULL) on stderr. */
void fa_diag(const char *where, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/* Read a whole regular file of at most max bytes; 0 or FA_ERR_* + *why. */
int fa_read_file(const char *path, size_t max, char **buf, size_t *len,
    char **why);

/* -f list "json,txt,xml,html,junit"; 0 or -1 (diagnostic printed). */
int fa_parse_formats(const char *s, struct fa_out_opts *o);
/* --fail-on; 0 or -1 (diagnostic printed). */
int fa_parse_fail_on(const char *s, struct fa_out_opts *o);

/* Load and parse a policy file; 0 or FA_EXIT_USAGE (diagnostics printed). */
int fa_load_policy(const char *path, struct fa_policy **out);
/*
 * Parse policy text from a snapshot, with waivers judged as of `now` (the
 * scan's time, so that re-evaluation reproduces the scan); 0 or
 * FA_EXIT_USAGE.
 */
int fa_load_policy_text(const char *name, const char *text, time_t now,
    struct fa_policy **out);

/*
 * Create outdir if missing (mode 0750); refuse one every user may write
 * (not sticky), warn about one others may write (reports/report.h,
 * fa_outset_open).  0 or FA_EXIT_USAGE (diagnostic printed).
 */
int fa_prepare_outdir(const char *dir);

/*
 * Evaluate snap against policy, write the outputs and print the summary.
 * Returns the exit status (0, 1, or FA_EXIT_NORUN on a write failure).
 * A scan passes snapshot_name NULL: snapshot.json is written to the output
 * directory.  `check` passes the snapshot's name and the SHA-256 (hex) of
 * the bytes it parsed, for the report.  With a baseline, the exit status
 * counts only new failures.  done (may be NULL) receives the report.
 */
int fa_evaluate_and_emit(const struct fa_snapshot *snap,
    const struct fa_policy *policy, const struct fa_out_opts *o,
    const char *mode, const char *snapshot_name, const char *snapshot_sha256,
    struct fa_emitted *done);

int fa_cmd_scan(int argc, char **argv);
int fa_cmd_check(int argc, char **argv);
int fa_cmd_checks(int argc, char **argv);
int fa_cmd_diff(int argc, char **argv);
int fa_cmd_verify(int argc, char **argv);
int fa_cmd_keygen(int argc, char **argv);
int fa_cmd_merge(int argc, char **argv);
int fa_cmd_catalogue(int argc, char **argv);

/* Report a getopt_long() failure (optstring starting with ':'). */
void fa_bad_option(const char *cmd, int c, char **argv);

/* Print a usage string, its leading indent replaced by "usage:". */
void fa_print_usage(FILE *f, const char *u);

extern const char fa_usage_scan[], fa_usage_check[], fa_usage_checks[],
    fa_usage_diff[], fa_usage_verify[], fa_usage_keygen[], fa_usage_merge[],
    fa_usage_catalogue[];

/*
 * The host CVE catalogue: explicit_path (--cve-db) or the default (see
 * catalogue.c), its signature checked with the trusted public key at
 * keypath (--cve-key) when given.  0 with *cat and *prov ({"sha256",
 * "signature", "signer"}), or FA_ERR_* with *why; *path is set either
 * way (caller frees *path and *why, decrefs *prov).
 */
int fa_load_catalogue(const char *explicit_path, const char *keypath,
    json_t **cat, char **path, json_t **prov, char **why);
/* scan.catalogue: path, date, valid_until, sources, entries, age_days,
 * stale, and prov's members; or {path, error} when cat is NULL.  NULL on
 * ENOMEM. */
json_t *fa_catalogue_meta(json_t *cat, const char *path, const char *why,
    time_t now, const json_t *prov);

/* The re-audit loop's options and state (reaudit.c). */
struct fa_reaudit {
	const char	*history;	/* --history DIR, or NULL */
	unsigned	 keep;		/* --keep: complete runs kept */
	const char	*metrics;	/* --metrics FILE, or NULL */
	int		 syslog;	/* --syslog */
	int		 quiet;
	const char	*outdir;	/* for the syslog line */
	int		 lockfd;	/* -1, or the held history lock */
	char		*rundir;	/* this run's directory in history */
	char		*basepath;	/* the previous run's report.json */
	struct timespec	 t0;
};

/*
 * Before the scan: take the history lock (held: FA_EXIT_NORUN), load the
 * newest complete run's report as the baseline unless --baseline named
 * one, and make this run's directory the output directory.  0 or an exit
 * status (diagnostic printed).
 */
int fa_reaudit_begin(struct fa_reaudit *ra, struct fa_out_opts *o,
    time_t started);
/*
 * After it (report NULL when none was written): publish `latest`, prune,
 * write metrics, log; returns rc, or FA_EXIT_NORUN for a failure there
 * when rc was 0.
 */
int fa_reaudit_end(struct fa_reaudit *ra, const json_t *report, int rc);
void fa_reaudit_free(struct fa_reaudit *ra);

/*
 * --syslog: one line summing up the run (report may be NULL when the run
 * produced none), at LOG_INFO when rc is 0, LOG_WARNING otherwise.
 */
void fa_syslog_summary(const json_t *report, const char *outdir, int rc);

/*
 * --sign: the private key can be loaded and is of a supported type; 0, or
 * FA_EXIT_USAGE after one line naming the file and the reason.  Called
 * before anything is written.
 */
int fa_preflight_sign_key(const char *path);
/* --pcap: a readable Ethernet capture; 0, or FA_EXIT_USAGE after one
 * line naming the file. */
int fa_preflight_pcap(const char *path);
/* --metrics: not a directory, in a directory that exists; 0, or
 * FA_EXIT_USAGE after one line. */
int fa_preflight_metrics(const char *path);

/*
 * For each option getopt_long() returns: -1, after one line naming it,
 * when c is one of once[] (0-terminated) and was seen before: a second
 * -o, -c or --sign would silently replace the first.  seen is
 * FA_OPT_SEEN zeroed bytes kept across the calls.
 */
#define FA_OPT_SEEN	512
struct option;
int fa_opt_repeated(int c, const int *once, const struct option *longopts,
    unsigned char *seen, char **argv);

/* ---- privsep.c: the scan's privilege separation ------------------------ */
struct fa_priv_user;
struct fa_ib_opts;

/*
 * Who runs the network-facing acquisition: root drops to name (default
 * nobody, when it exists); --user root, or root without a nobody, keeps
 * root; another user may only name itself.  0 with *drop set, or
 * FA_EXIT_USAGE after one diagnostic line.
 */
int fa_pick_user(const char *name, int quiet, struct fa_priv_user *u,
    int *drop);

/* The acquisition run in the child, after the drop. */
struct fa_acq {
	const struct fa_priv_user *user;
	int		 active;	/* keep CAP_NET_ADMIN with run_eth */
	int		 eth_file;	/* run_eth reads a capture file: it
					 * keeps no capability */
	struct fa_ib_opts *ib;		/* its port kept open, its capture */
	/* Ethernet (live: CAP_NET_RAW kept; a --pcap file, opened by the
	 * parent: none), then InfiniBand (none); NULL:
	 * not run.  Each returns an exit status after a diagnostic. */
	int		(*run_eth)(void *arg, struct fa_snapshot *snap,
			    int *usable);
	int		(*run_ib)(void *arg, struct fa_snapshot *snap,
			    int *usable);
	void		*arg;
};

/*
 * Run a's acquisition in a child dropped to a->user, with *snap's
 * contents so far, and replace *snap by the snapshot it sends back
 * (core/snapwire.h); a->ib->capture, if any (opened by the caller, who
 * finishes it), is written by the child through the inherited
 * descriptor.  0, or an exit status after a diagnostic.
 */
int fa_acquire_as(const struct fa_acq *a, struct fa_snapshot **snap,
    int *usable);

#endif
