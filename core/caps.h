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
#endif
