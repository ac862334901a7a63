/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Rendering: results plus evidence into report.json (jansson) and
 * report.txt, the exit-code tally, and atomic file output.  Strings from the
 * fabric were sanitised at acquisition (fa_str_sanitize), but a snapshot
 * file or policy may hold anything: the text writer escapes on output.
 * Secrets are redacted here unless `reveal` is set.
 */
#ifndef FA_REPORT_H
#define FA_REPORT_H

#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

#include "../core/policy.h"
#include "../core/result.h"
#include "../core/snapshot.h"
#include "../core/util.h"

#define FA_REPORT_SCHEMA	"fabaudit-report/2"
#define FA_REPORT_SCHEMA_1	"fabaudit-report/1"	/* still read */

/*
 * report.json's check texts (report_texts.c).  Schema 2 states a check's
 * rationale, remediation, msa_clause and references once, in "checks";
 * schema 1 put them in each result.  fa_report_text() gives a result's
 * own member `key` if it has one, else its check's (borrowed; NULL if
 * neither).  fa_report_check() is the "checks" entry of a check ID.
 */
int fa_report_schema_ok(const char *schema);
const json_t *fa_report_check(const json_t *report, const char *id);
const json_t *fa_report_text(const json_t *report, const json_t *result,
    const char *key);

struct fa_report_ctx {
	const struct fa_snapshot *snap;
	const struct fa_results	*res;
	int			 reveal;	/* keep secret values */
	enum fa_severity	 fail_on;
	const char		*snapshot_file;	/* name in the output dir, or NULL */
	const char		*snapshot_sha256; /* hex, or NULL */
	const char		*mode;		/* "scan" or "offline" */
	const char		*policy_name;	/* the policy evaluated, or NULL */
	const struct fa_policy	*policy;	/* its names and waivers, or NULL */
	time_t			 generated;
};

struct fa_tally {
	size_t	by_status[FA_ST_MAX];
	size_t	failing;	/* fail at or above fail_on, not waived */
	size_t	waived;		/* failures the policy waived */
};

void fa_tally(const struct fa_results *res, enum fa_severity fail_on,
    struct fa_tally *t);

/* report.json's scope object; NULL on ENOMEM. */
json_t *fa_report_scope(const struct fa_report_ctx *ctx);
/* {sent, lost, retried, unanswered, malformed} of the IB scan, or NULL. */
json_t *fa_report_ib_mads(const struct fa_snapshot *s);
/* The policy's expired waivers as a JSON array; NULL on ENOMEM. */
json_t *fa_report_expired_waivers(const struct fa_policy *p);

/* report.json as a new object, or NULL on ENOMEM. */
json_t *fa_report_json(const struct fa_report_ctx *ctx);

/* report.txt as a new NUL-terminated string, or NULL on ENOMEM. */
char *fa_report_txt(const struct fa_report_ctx *ctx);

/*
 * Where a streaming writer puts its bytes: 0, or -1 to stop it (the sink
 * keeps its own reason).  jansson's json_dump_callback_t has this shape.
 */
typedef int (*fa_emit_fn)(const char *p, size_t len, void *arg);

/*
 * The renderings of a finished report.json (a scan's, an offline check's
 * or a merge's).  They read only the JSON, so every field may be missing or
 * of the wrong type in a file from elsewhere, and every string in it is
 * untrusted: each writer escapes for its format.  0 with *buf (malloc'd,
 * *len bytes, NUL-terminated) or FA_ERR_* with *why (may be NULL).
 */
int fa_report_html(const json_t *report, char **buf, size_t *len,
    char **why);
int fa_report_xml(const json_t *report, char **buf, size_t *len,
    char **why);
int fa_report_junit(const json_t *report, char **buf, size_t *len,
    char **why);

/*
 * report.xml and junit.xml written through emit as they are made, never
 * held whole in memory: the same bytes as fa_report_xml() and
 * fa_report_junit().  0, or FA_ERR_* with *why (may be NULL); FA_ERR_IO
 * when emit stopped it.
 */
int fa_report_xml_emit(const json_t *report, fa_emit_fn emit, void *arg,
    char **why);
int fa_report_junit_emit(const json_t *report, fa_emit_fn emit, void *arg,
    char **why);
/* report.html the same way: fa_report_html()'s bytes. */
int fa_report_html_emit(const json_t *report, fa_emit_fn emit, void *arg,
    char **why);
/* report.txt through emit as it is made (fa_report_txt()'s bytes): 0,
 * FA_ERR_IO when emit stopped it, or FA_ERR_NOMEM with *why (may be
 * NULL). */
int fa_report_txt_emit(const struct fa_report_ctx *ctx, fa_emit_fn emit,
    void *arg, char **why);

/* The short summary printed on stdout after a scan; NULL on ENOMEM. */
char *fa_report_summary(const struct fa_report_ctx *ctx);

/*
 * An output set: the files one run writes to its output directory, all or
 * none, and nothing of an earlier run beside them.  fa_outset_open() holds
 * the directory open; every file is written through that descriptor.
 * With FA_OUTSET_RUN a directory every user may write (without the sticky
 * bit) is refused (FA_ERR_INPUT, *why says so), one its group or, sticky,
 * everyone may write gives *warn (a new string, or NULL).  Each file
 * fa_outset_write*() puts in place is recorded, a file it replaces kept
 * as a hard link beside it.  fa_outset_close(set, 1) then removes the
 * files of fa_run_files[] this run neither wrote, placed (written by
 * another module under a temporary name: mads.pcap) nor was told to keep
 * (the snapshot a `check` re-evaluates), and drops what was kept; if that
 * fails, or with
 * keep 0 (the run failed half-way: a full disk), every replaced or
 * removed file is put back and every new one removed, so that the
 * directory is as it was.  Close frees the set; 0 or FA_ERR_* with *why.
 */
#define FA_OUTSET_RUN		1
#define FA_RUN_FILES_MAX	16
extern const char *const fa_run_files[];	/* NULL-terminated */
struct fa_outset;
int fa_outset_open(const char *dir, int flags, struct fa_outset **out,
    char **warn, char **why);
int fa_outset_dirfd(const struct fa_outset *set);
const char *fa_outset_dir(const struct fa_outset *set);
/*
 * A file of name (one of fa_run_files[]) written into the set's directory
 * under the temporary name tmp (by another module or process: mads.pcap)
 * moved into place as this set's, as the set's own files are: the file
 * it replaces kept aside until close, tmp no longer removed if the run
 * is interrupted.  0, or FA_ERR_INPUT / FA_ERR_NOMEM / FA_ERR_IO with
 * *why.
 */
int fa_outset_place(struct fa_outset *set, const char *tmp,
    const char *name, char **why);
/* name (one of fa_run_files[]) is an earlier run's file this run reads,
 * not removed at close: 0, or FA_ERR_INPUT. */
int fa_outset_keep(struct fa_outset *set, const char *name);
int fa_outset_close(struct fa_outset *set, int keep, char **why);
/* buf as set's name, atomically, with the file's mode. */
int fa_outset_write(struct fa_outset *set, const char *name, const void *buf,
    size_t len, mode_t mode, char **why);
/*
 * What render(src, ...) emits, as set's name, atomically (mode 0640),
 * streamed through a buffer: never held whole in memory.  0, or render's
 * FA_ERR_* with its *why, or the file's error (FA_ERR_IO).
 */
int fa_outset_write_emit(struct fa_outset *set, const char *name,
    int (*render)(const void *src, fa_emit_fn, void *, char **),
    const void *src, char **why);
/* j dumped with jansson flags and a final newline, streamed and hashed
 * (SHA-256 to sha256, if not NULL). */
int fa_outset_write_json(struct fa_outset *set, const char *name,
    const json_t *j, size_t flags, char sha256[65], char **why);
/*
 * The same for a document too large to hold whole: `head` is written as
 * with flags JSON_INDENT(2) | JSON_SORT_KEYS, except that its top-level
 * member `key`, an empty array there, receives the n items item(i, arg)
 * returns (new references, NULL when out of memory), each made, written
 * and freed in turn, then after(i, arg) called if not NULL.  The file is
 * byte for byte the dump of the whole.
 */
int fa_outset_write_json_items(struct fa_outset *set, const char *name,
    const json_t *head, const char *key, size_t n,
    json_t *(*item)(size_t i, void *arg),
    void (*after)(size_t i, void *arg), void *arg, char sha256[65],
    char **why);

/*
 * One file outside any run's set (a catalogue, a metrics file): write buf
 * to dir/name atomically: a temporary file in dir, fsync, rename.
 * Returns 0 or FA_ERR_IO / FA_ERR_NOMEM with *why (if not NULL) a new
 * string naming the file and the system error.
 */
int fa_write_atomic(const char *dir, const char *name, const void *buf,
    size_t len, char **why);
/* The same with the file's mode (fa_write_atomic: 0640). */
int fa_write_atomic_mode(const char *dir, const char *name, const void *buf,
    size_t len, mode_t mode, char **why);

/*
 * Write j to dir/name atomically as fa_write_atomic() does, dumped with
 * jansson `flags` and a final newline, streamed rather than built as one
 * string; the SHA-256 of the bytes written goes to sha256 (if not NULL).
 */
int fa_write_atomic_json(const char *dir, const char *name, const json_t *j,
    size_t flags, char sha256[65], char **why);

/* fa_sha256_hex: core/util.h. */

#endif
