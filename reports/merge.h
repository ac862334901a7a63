/* SPDX-License-Identifier: BSD-2-Clause */
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
 *
 * Accounting.  merged.nodes has one entry per node: "state" scanned
 * (merged), rejected (bad or missing signature, not merged), failed,
 * timed_out or missing (no report), with its signature state.
 * merged.accounting counts them; summary.nodes_not_scanned is the number
 * of nodes whose results are not in the report, and summary.complete is
 * false when it is not 0: such a cluster is never "clean".
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
 * Node identity.  A merged node is named by the scheduler's node name
 * (scan.node, from scan --node-name), else its host name, else its file;
 * scan.id (random per scan) tells two scans apart.  A second report of the
 * same name is a second node, named NAME#<first 8 digits of its scan.id>
 * (NAME#2, #3... without one), with a warning; so is a host name shared
 * by nodes of different scheduler names.  Refused as the same scan: the
 * same bytes (SHA-256), the same scan.id, or, for reports without a
 * scan.id, the same host and start time.
 */

/* Where a report came from, and what its signature said. */
struct fa_merge_src {
	const char	*file;		/* as given */
	const char	*sha256;	/* hex digest of its bytes */
	const char	*signature;	/* "good", "bad", "unsigned", or NULL:
					 * not checked */
	const char	*sig_detail;	/* bad, unsigned: why (or NULL) */
};

/* fa_merge_add(), with the signature state recorded in merged.nodes. */
int fa_merge_add_src(struct fa_merge *m, const json_t *report,
    const struct fa_merge_src *src, char **why);

/*
 * A report refused for its signature (merge --require-signature): listed
 * in merged.nodes with state "rejected", its results not merged.  The
 * report is only read for its node identity.  0 or FA_ERR_NOMEM.
 */
int fa_merge_reject(struct fa_merge *m, const json_t *report,
    const struct fa_merge_src *src, char **why);

/*
 * The nodes that should have reported (merge --expect): a report whose
 * scan.node (else scan.host, or its first label) is such a name accounts
 * for it; any other report is "unexpected" (merged, with a warning).  A
 * name expected twice is FA_ERR_INPUT.
 */
int fa_merge_expect(struct fa_merge *m, const char *node, char **why);

/*
 * An expected node whose scan did not produce a report (merge --failed):
 * state "failed" or "timed_out", with the reason (any bytes: escaped as
 * fa_str_sanitize() does, cut at 1024).  An expected node with
 * neither a report nor such a line is "missing".  FA_ERR_INPUT for another
 * state or a node named twice.
 */
int fa_merge_unscanned(struct fa_merge *m, const char *node,
    const char *state, const char *reason, char **why);

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
