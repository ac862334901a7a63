/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The NVIDIA Container Toolkit's configuration and the CDI specs on a host
 * (they are host files: inside a container they are normally absent).
 *
 * host.ctk.config  target the config path: {values: {"table.key":
 *                  value}, unparsed: [line numbers]}.  Values are strings,
 *                  booleans, integers or arrays of strings.
 * host.cdi         target "cdi": {dirs: [{path, listed, missing?, reason?,
 *                  specs: [{name, nvidia, cuda_compat_hook}]}]}; missing is
 *                  true when the directory does not exist.
 * host.ctk.probe   target "toolkit": {probes: [{path, role, exists?, text?,
 *                  reason?}]}: what the toolkit's "auto" mode depends on
 *                  besides the config and its version (HOST-NVIDIA-CTK-
 *                  CONFIG).  role "tegra-release" (/etc/nv_tegra_release)
 *                  and "soc-family" (/sys/devices/soc0/family, its first
 *                  line in text) are go-nvlib's Tegra tells
 *                  (pkg/nvlib/info/property-extractor.go HasTegraFiles);
 *                  role "hook" is nvidia-container-runtime-hook where a
 *                  container engine's PATH lookup finds it (the systemd
 *                  default PATH) or where the GPU Operator installs it.
 *                  exists is absent when the path could not be examined,
 *                  and reason then says why.
 *
 * config.toml is read by a restricted reader, not a TOML library: Debian 12
 * packages no C TOML parser (only C++ ones), and the toolkit's file uses a
 * small subset: [table] headers and one-line `key = value` pairs.  Lines
 * outside that subset are listed in "unparsed", and a check whose key is
 * missing says it could not read it rather than assume the default.
 */
#ifndef FA_HOST_CTK_H
#define FA_HOST_CTK_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

#define FA_CTK_CONFIG_MAX	(256u * 1024)
#define FA_CTK_KEYS_MAX		512

/* Decode config.toml text into {values: {...}, unparsed: [...]}. */
int fa_ctk_config_decode(const char *text, size_t len, json_t **out,
    char **why);

int fa_host_collect_ctk(const struct fa_sysroot *root,
    struct fa_snapshot *snap);

#endif
