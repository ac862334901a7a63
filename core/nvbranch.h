/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The small grammar of the version phrases NVIDIA writes in its security
 * bulletins and CSAF files: branch and platform names ("Linux(R580)",
 * "R535 (LTSB)", "vGPU 18.x") and affected / fixed phrases ("All driver
 * versions prior to 580.95.05", "All versions up to and including
 * 1.16.1", "<= 1.17.7", "580.95.05(vGPU 19.2)"), turned into a branch
 * and a half-open range [introduced, fixed) of upstream versions.
 *
 * Anything the grammar does not cover is refused (FA_ERR_INPUT, *why
 * quoting the phrase); nothing is guessed.  A phrase that says "up to and
 * including X" (last affected X) is only turned into a range with the
 * fixed version the same advisory gives for the same product: the
 * half-open form has no way to say "X and nothing after", and no "next
 * version" is ever invented.
 */
#ifndef FA_NVBRANCH_H
#define FA_NVBRANCH_H

#include "version.h"

#define FA_NV_NOTE_MAX	200	/* bytes of a parenthesised label kept */

enum fa_nv_platform {
	FA_NV_ANY = 0,		/* "All", or no platform named */
	FA_NV_LINUX,
	FA_NV_WINDOWS,
	FA_NV_OTHER,		/* a hypervisor list ("XenServer, ...") */
};

/* A branch / platform name: "Linux(R580 vGPU 19)" is Linux, R580. */
struct fa_nvbranch {
	enum fa_nv_platform platform;
	char		branch[16];	/* "R580"; "" when none named */
	unsigned	number;		/* 580; 0 when none */
	char		flavour[32];	/* "", "LTSB", "vGPU 19", "Gaming" */
};

/*
 * Parse a branch or platform name.  Accepted (keywords ignore case):
 *   Rnnn | Rnnn (LTSB) | Rnnn vGPU [nn] | Rnnn Gaming | vGPU nn[.x]
 *   Gaming | Cloud Gaming (the rolling cloud-gaming line: no branch)
 *   Linux | Windows | Windows ... | All
 *   PLATFORM(BRANCH)  with PLATFORM one of Linux, Windows, "Windows
 *                     10 and 11" or a comma list of hypervisors
 *                     (FA_NV_OTHER)
 * "vGPU nn" is mapped to its driver branch by a fixed table (vGPU 13 to
 * 20, as NVIDIA's own files pair them); another number is refused, and so
 * is "Rnnn vGPU nn" where the table says another branch.  A tab counts as
 * a space.  0 or FA_ERR_INPUT with *why.
 */
int fa_nvbranch_parse(const char *s, struct fa_nvbranch *out, char **why);

enum fa_nvphrase_kind {
	FA_NVP_EXACT = 0,	/* "580.95.05": one version (a fix) */
	FA_NVP_PRIOR,		/* "... prior to X", "< X": fixed X */
	FA_NVP_THROUGH,		/* "... up to and including X": last X */
	FA_NVP_ALL,		/* "All driver versions" */
};

struct fa_nvphrase {
	enum fa_nvphrase_kind kind;
	char		from[FA_VERSION_MAX + 1];	/* vers ">=A"; or "" */
	char		version[FA_VERSION_MAX + 1];	/* "" for ALL */
	char		note[FA_NV_NOTE_MAX + 1];	/* "(...)" text */
};

/*
 * Parse an affected or fixed phrase.  Accepted (keywords ignore case; V
 * a version of the upstream scheme):
 *   V
 *   [All] [driver] versions prior to V     [All] [driver] versions before V
 *   [All] [driver] versions prior to and including V
 *   [All] [driver] versions up to and including V
 *   All [driver] versions
 * ("drivers" and "version" also read, as NVIDIA writes them; V may be
 * written "vX", the v is dropped)
 *   < V      <= V
 *   vers:SCHEME/<V   vers:SCHEME/<=V   vers:SCHEME/>=A|<V
 *   vers:SCHEME/>=A|<=V   vers:SCHEME/ANY (a lone "*"; SCHEME generic, semver)
 * each optionally followed by one "(text)" (no nested parentheses): after
 * a bare V, "(All versions prior to and including ...)" and "(All
 * versions up to and including ...)" make V the last affected version
 * (NVIDIA's vGPU rows: "580.82.07(All versions prior to and including
 * vGPU 19.1)"); any other text is a label kept in note ("580.95.05(vGPU
 * 19.2)").  After a range phrase the text is a qualifier kept in note
 * ("(CDI mode only for versions prior to 1.17.5)"): it can only narrow
 * exposure, so the range stays as stated.
 */
int fa_nvphrase_parse(const char *s, struct fa_nvphrase *out, char **why);

/* A half-open range; "" stands for NULL (open end). */
struct fa_nvrange {
	char		introduced[FA_VERSION_MAX + 1];
	char		fixed[FA_VERSION_MAX + 1];
};

/*
 * The range of one product row: aff is its affected phrase, fix the
 * fixed phrase the same advisory gives for the same product (NULL if
 * none), number the driver branch (580) or 0 for a product without
 * branches.  introduced is "nnn.0" for a branch (vers ">=A" wins), else
 * open; fixed is:
 *   PRIOR X    X (a fix phrase, if any, must say X too)
 *   THROUGH X  the fix phrase's version, which must be above X;
 *              refused when there is none
 *   ALL        the fix phrase's version, or open
 *   EXACT      refused: a single affected version is not a range
 * The fix phrase must be EXACT.  With a branch, every version must be on
 * it (leading number nnn).  0 or FA_ERR_INPUT with *why.
 */
int fa_nvrange_make(unsigned number, const struct fa_nvphrase *aff,
    const struct fa_nvphrase *fix, struct fa_nvrange *out, char **why);
#endif
