#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The compiler refuses a field the observation schema does not declare:
# core/obs_fields.h gives every field of core/obs_schema.def one handle
# whose C type is its JSON type, which the getters of the checks and the
# puts of the writers take.  Each case compiles a small reader of
# observation data with the project's warnings and says whether the
# compiler took it; the expected outcome is the schema's (ib.smp.sminfo
# declares "lid" an integer and "port_guid" a string, and no "lids").
# usage: tests/typed-fields.sh   (CC from the environment, else cc)
CC=${CC:-cc}
cflags="-std=c11 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags jansson)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# case NAME WANT(ok|refused) BODY [WHY]: compile BODY inside a reader
# of o; a refusal must name WHY (an extended regex), so a snippet refused
# for another reason does not pass.
case_() {
	cat >"$tmp/t.c" <<EOT
#include "core/obs_fields.h"
long long read_it(const struct fa_obs *o);
long long
read_it(const struct fa_obs *o)
{
	long long v = 0;
	uint64_t u = 0;

	(void)u;
	(void)o;
	$3;
	return v;
}
EOT
	if $CC $cflags -I. -c "$tmp/t.c" -o /dev/null >"$tmp/err" 2>&1; then
		got=ok
	else
		got=refused
	fi
	if [ "$got" = "$2" ] && { [ -z "$4" ] ||
	    grep -Eq -- "$4" "$tmp/err"; }; then
		echo "PASS: $1 ($got)"
	else
		echo "FAIL: $1: the compiler $got it, want $2${4:+ ($4)}"
		sed 's/^/    /' "$tmp/err" | head -5
		fail=1
	fi
}

case_ "an integer field read as an integer" ok \
    '(void)fa_obs_int(o, FA_F(IB_SMINFO, lid), 1, 0xbfff, &v)'
case_ "a GUID read from its string" ok \
    '(void)fa_obs_u64(o, FA_F(IB_SMINFO, port_guid), &u)'
case_ "a field no kind declares" refused \
    '(void)fa_obs_int(o, FA_F(IB_SMINFO, lids), 1, 0xbfff, &v)' \
    'fa_f_IB_SMINFO__lids'
case_ "a field of another kind" refused \
    '(void)fa_obs_str(o, FA_F(IB_SMINFO, cap_eff))' \
    'fa_f_IB_SMINFO__cap_eff'
case_ "an integer field read as a string" refused \
    'v = fa_obs_str(o, FA_F(IB_SMINFO, lid)) != NULL' \
    'incompatible pointer|fa_fld_INT'
case_ "a string field read as an integer" refused \
    '(void)fa_obs_int(o, FA_F(IB_SMINFO, port_guid), 0, 1, &v)' \
    'incompatible pointer|fa_fld_STR'
case_ "a kind not declared" refused \
    '(void)fa_obs_int(o, FA_F(IB_SMINFOS, lid), 1, 0xbfff, &v)' \
    'fa_f_IB_SMINFOS__lid'
case_ "a field two kinds give two types" refused \
    '(void)fa_obs_int(o, FA_F2(o, HOST_PATH, HOST_STATUS, uid), 0, 1, &v)' \
    'pointer type mismatch|incompatible'
# The writers' side: the puts take the same handles.
case_ "an integer field put as an integer" ok \
    'struct fa_obs_build b; fa_obs_build(&b); fa_put_int(&b, FA_F(IB_SMINFO, lid), 1); json_decref(fa_obs_built(&b))'
case_ "a string field put as an integer" refused \
    'struct fa_obs_build b; fa_obs_build(&b); fa_put_int(&b, FA_F(IB_SMINFO, port_guid), 1); json_decref(fa_obs_built(&b))' \
    'incompatible pointer|fa_fld_STR'
case_ "a field put that no kind declares" refused \
    'struct fa_obs_build b; fa_obs_build(&b); fa_put_str(&b, FA_F(ETH_REACH, roles), "x"); json_decref(fa_obs_built(&b))' \
    'fa_f_ETH_REACH__roles'
exit $fail
