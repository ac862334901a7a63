/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux capability sets as /proc/PID/status shows them ("CapEff:
 * 000001ffffffffff"), decoded to names with libcap's own table, so that a
 * finding says "cap_sys_admin" and not bit 21.
 */
#ifndef FA_CAPS_H
#define FA_CAPS_H

#include <stdint.h>

/*
 * Parse the value of a Cap* line of /proc/PID/status: 1 to 16 hex digits,
 * no prefix, surrounding blanks allowed.  Returns 0 or FA_ERR_INPUT with
 * *errstr set.
 */
int fa_caps_parse(const char *hex, uint64_t *mask, const char **errstr);

/*
 * The names of the bits set in mask, lowest first, joined by ","
 * ("cap_net_raw,cap_sys_admin"); "" for an empty set.  A bit libcap does not
 * know (a newer kernel) is shown as its number.  Caller frees; NULL on
 * ENOMEM.
 */
char *fa_caps_names(uint64_t mask);

/* Bit number of a capability name ("cap_sys_admin", case-insensitive, or
 * "sys_admin"); FA_ERR_INPUT if libcap does not know it. */
int fa_cap_from_name(const char *name, unsigned *bit);

/*
 * How many capabilities a kernel has is its own: /proc/sys/kernel/
 * cap_last_cap is the highest number it knows (capabilities(7), "Since
 * Linux 3.2").  The numbers come from include/uapi/linux/capability.h:
 * CAP_BLOCK_SUSPEND 36 (3.5, the last of RHEL 7's 3.10: 37 capabilities),
 * CAP_AUDIT_READ 37 (3.16: 38), CAP_PERFMON 38 and CAP_BPF 39 (5.8: 40),
 * CAP_CHECKPOINT_RESTORE 40 (5.9, still the last in 6.x: 41).
 */
#define FA_CAP_LAST_KNOWN	40	/* CAP_CHECKPOINT_RESTORE */

/* The highest capability this build knows: FA_CAP_LAST_KNOWN, or the
 * CAP_LAST_CAP of the kernel headers it was built with when higher. */
unsigned fa_caps_last_known(void);

/* Every capability of a kernel whose cap_last_cap is last (at most 63):
 * bits 0 to last. */
uint64_t fa_caps_full(unsigned last);

/* How many capabilities mask holds. */
unsigned fa_caps_count(uint64_t mask);
#endif
