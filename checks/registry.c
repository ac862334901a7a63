/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The catalogue of implemented checks, in report order.  Every ID here must
 * also be in fa_known_check_ids (core/model.c); tests enforce both.  A
 * check is found by its ID here (fa_check_find).
 */
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "eth_checks.h"
#include "host_checks.h"
#include "ib_checks.h"

const struct fa_check *const fa_checks[] = {
	&fa_chk_ib_smp_unrestricted,
	&fa_chk_ib_mkey_unset,
	&fa_chk_ib_mkey_readable,
	&fa_chk_ib_mkey_protect_low,
	&fa_chk_ib_smkey_disclosed,
	&fa_chk_ib_smkey_default,
	&fa_chk_ib_sm_unexpected,
	&fa_chk_ib_sakey_default,
	&fa_chk_ib_sa_disclosure,
	&fa_chk_ib_pkey_default_full,
	&fa_chk_ib_pkey_shared,
	&fa_chk_ib_xtenant_reachable,
	&fa_chk_ib_pkey_enforce_off,
	&fa_chk_ib_cckey_unset,
	&fa_chk_ib_vskey_unset,
	&fa_chk_ib_amkey_unset,
	&fa_chk_eth_foreign_vlan,
	&fa_chk_eth_trunk_port,
	&fa_chk_eth_dtp_exposed,
	&fa_chk_eth_stp_exposed,
	&fa_chk_eth_cdp_exposed,
	&fa_chk_eth_lldp_leak,
	&fa_chk_eth_rogue_dhcp,
	&fa_chk_eth_foreign_l2,
	&fa_chk_eth_roce_visible,
	&fa_chk_eth_mgmt_reachable,
	&fa_chk_eth_xtenant_reachable,
	&fa_chk_eth_mgmt_tls_weak,
	&fa_chk_eth_vlan_hop,
	&fa_chk_host_tenancy,
	&fa_chk_host_privileged,
	&fa_chk_host_cap_dangerous,
	&fa_chk_host_seccomp_off,
	&fa_chk_host_lsm_off,
	&fa_chk_host_nnp_off,
	&fa_chk_host_userns_root,
	&fa_chk_host_ns_shared,
	&fa_chk_host_runtime_socket,
	&fa_chk_host_hostpath,
	&fa_chk_host_cgroup_escape,
	&fa_chk_host_device_exposed,
	&fa_chk_host_k8s_token,
	&fa_chk_host_nvidia_ctk_config,
	&fa_chk_host_nvidia_ctk_vuln,
	&fa_chk_host_nvidia_driver_vuln,
	&fa_chk_host_runc_vuln,
	&fa_chk_host_containerd_vuln,
	&fa_chk_host_docker_vuln,
	&fa_chk_host_kernel_vuln,
	&fa_chk_host_buildkit_vuln,
	NULL
};

const struct fa_check *
fa_check_find(const char *id)
{
	const struct fa_check *const *c;

	for (c = fa_checks; *c != NULL; c++)
		if (strcmp((*c)->id, id) == 0)
			return *c;
	return NULL;
}
