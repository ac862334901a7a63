/*
 * Cluster merge: fold the report.json of many nodes into one report of the
 * same schema (FA_REPORT_SCHEMA, evaluation.mode "merge") that every
 * renderer reads.  Pure: JSON in, JSON (or text) out, no I/O.
 *
 * Grouping.  A merged result is one (check ID, status, severity, waived or
 * not) on any number of nodes; its "targets" list every (node, target).
 * Waived-ness splits a group because a waiver is a per-node policy decision
 * and only unwaived failures count towards --fail-on.
 *
 * Fabric-wide targets.  An InfiniBand result about a port GUID
 * ("H-0x<guid>/<port>", S- or R-), "fabric", "sa" or "pkey-..." describes
 * the shared fabric, not the node that looked: when several nodes decide it
 * (pass, fail or not_applicable) with the same status, severity and waiver
 * state on the same subnet (scope.fabric.subnet_prefix when the report has
 * it), it is one target, listed under the first node, with "seen_by" the
 * number of nodes that reported it.  not_tested and error results are about
 * the node that could not look and are never folded.
 *
 * Coverage.  Every merged result carries "coverage": {nodes, decided (pass
 * or fail on that node), not_applicable, not_tested (only not_tested or
 * error), absent (the node's report has no result of that check)}, the same
 * for every result of one check ID.  merged.families says, per family, on
 * which nodes it was not collected.
 */
#ifndef FA_MERGE_H
#define FA_MERGE_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "../core/model.h"

#define FA_MERGE_MAX_REPORTS	100000
#define FA_MERGE_MAX_RESULTS	1000000		/* per input report */
#define FA_MERGE_MAX_TARGETS	2000000		/* in all merged results */

struct fa_merge;

/* A new, empty merge; NULL on ENOMEM. */
struct fa_merge *fa_merge_new(enum fa_severity fail_on);
void fa_merge_free(struct fa_merge *m);

/*
 * Check that report is a node report fabaudit can merge: schema, not
 * itself a merge, a results array of at most FA_MERGE_MAX_RESULTS objects
 * each with a valid id, family, status, severity and a string target, no
 * (id, target) twice.  0, or FA_ERR_INPUT with *why (if why is not NULL)
 * naming the member ("results[3]: ...").
 */
int fa_merge_check_report(const json_t *report, char **why);

/*
 * Fold one report in.  file is its name as given (shown, and the node's
 * name when the report has no scan.host), sha256 the hex digest of its
 * bytes.  Returns 0; FA_ERR_INPUT with *why when the report is invalid
 * (fa_merge_check_report), is the same as one merged before (same SHA-256,
 * or same scan.host and scan.started: *why names the earlier file); or
 * FA_ERR_TOOBIG (a FA_MERGE_MAX_* limit).  In all these cases m is
 * unchanged.  FA_ERR_NOMEM leaves m only fit for fa_merge_free().
 */
int fa_merge_add(struct fa_merge *m, const json_t *report, const char *file,
    const char *sha256, char **why);

/*
 * The merged report (a new object), its evaluation stamped `generated`.
 * 0, or FA_ERR_INPUT (no report was added) / FA_ERR_NOMEM with *why.
 */
int fa_merge_finish(struct fa_merge *m, time_t generated, json_t **out,
    char **why);

/*
 * report.txt of a merged report: per-node coverage table, then the
 * findings with node counts and at most max_targets targets each ("... and
 * K more").  Reads only the JSON (any member may be missing or of the wrong
 * type); untrusted strings are escaped.  NULL on ENOMEM.
 */
char *fa_merge_txt(const json_t *merged, size_t max_targets);

/* The one-line stdout summary of a merged report; NULL on ENOMEM. */
char *fa_merge_summary(const json_t *merged);

#endif
