/*
 * The NVIDIA Container Toolkit's configuration and the CDI specs on a host
 * (they are host files: inside a container they are normally absent).
 *
 * host.ctk.config  target the config path: {path, values: {"table.key":
 *                  value}, unparsed: [line numbers]}.  Values are strings,
 *                  booleans, integers or arrays of strings.
 * host.cdi         target "cdi": {dirs: [{path, listed, reason?,
 *                  specs: [{name, nvidia, cuda_compat_hook}]}]}.
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

#define FA_KIND_HOST_CTK_CONFIG	"host.ctk.config"
#define FA_KIND_HOST_CDI	"host.cdi"
#define FA_CTK_CONFIG_MAX	(256u * 1024)
#define FA_CTK_KEYS_MAX		512

/* Decode config.toml text into {values: {...}, unparsed: [...]}. */
int fa_ctk_config_decode(const char *text, size_t len, json_t **out,
    char **why);

int fa_host_collect_ctk(const struct fa_sysroot *root,
    struct fa_snapshot *snap);

#endif
