/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Versions of Go programs (runc, containerd, dockerd) read from the Go
 * build information the linker embeds in the ELF file, never by running
 * the program: for components installed outside the package manager
 * (vendor tarballs, containerd.io's bundled runc, static binaries).
 *
 * The blob (Go 1.13+; cmd/go and debug/buildinfo): 16 bytes "\xff Go
 * buildinf:" (14-byte magic, pointer size, flags) aligned to 16, in the
 * section .go.buildinfo or, section headers stripped, in a writable
 * PT_LOAD segment.  With flags & 2 (Go 1.18+) the Go version and the
 * module information follow at offset 32 as uvarint-length strings; else
 * (Go 1.13-1.17) offsets 16 and 16 + pointer size hold the addresses of
 * two Go string headers {data address, length}, read here through the
 * PT_LOAD segments (flags & 1: big-endian pointers).  The module
 * information sits between two 16-byte sentinels; its lines are "path\t
 * <main package>", "mod\t<module>\t<version>\t<sum>", "dep\t...",
 * "=>\t...", "build\t<key>=<value>" (a value with blanks or quotes is
 * Go-quoted).  Go omits -ldflags from it when built with -trimpath.
 *
 * Every length, offset and address is untrusted and bounded; the parsers
 * work on buffers (fuzzable) as well as on a file descriptor (pread of
 * the few parts needed, so a 100 MB binary is not read whole).
 *
 * host.binary   one per distinct file found at a path of
 *               fa_gobuild_paths, target the path: {path, component,
 *               version (raw, or null), upstream (the version validated
 *               as an upstream version, leading "v" dropped, or null),
 *               upstream_error (why not, when version is not null),
 *               rule (which rule gave the version), go_version,
 *               main_package, main_module, module_version, found_by
 *               ("section .go.buildinfo", "PT_LOAD scan"), aliases
 *               (other paths of the same file, when any)}.
 *               complete: a version; incomplete: build information but no
 *               rule gave a version (reason says why); not_collected: not
 *               an ELF file, or no Go build information; error: unreadable,
 *               larger than FA_GOBUILD_FILE_MAX or malformed build
 *               information.  An absent path gives no observation.
 */
#ifndef FA_HOST_GOBUILD_H
#define FA_HOST_GOBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "../core/snapshot.h"
#include "../core/version.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

/* Files beyond this are not read (an error observation says so). */
#define FA_GOBUILD_FILE_MAX	(256u * 1024 * 1024)
/* The longest Go version or module information string accepted. */
#define FA_GOBUILD_STR_MAX	(1u * 1024 * 1024)

/* Version variables looked up in the symbol tables (fa_gobuild_symvars:
 * main.version, containerd's version.Version (and /v2), dockerd's
 * dockerversion.Version). */
#define FA_GOBUILD_NSYM		4
extern const char *const fa_gobuild_symvars[FA_GOBUILD_NSYM];

struct fa_gobuild {
	char		*go_version;	/* "go1.19.8" */
	char		*modinfo;	/* sentinels removed; "" when none */
	char		*main_package;	/* "path" line, or NULL */
	char		*mod_path;	/* "mod" line, or NULL */
	char		*mod_version;	/* "(devel)", "v1.1.12"... or NULL */
	char		*ldflags;	/* build -ldflags, unquoted, or NULL */
	char		*buildkit;	/* version of the github.com/moby/
					 * buildkit module linked in (a "dep"
					 * line, or the "=>" replacing it),
					 * or NULL */
	int		 buildkit_next;	/* the last line was its "dep" */
	unsigned	 ptr_size;	/* 4 or 8 */
	int		 inline_strings; /* Go 1.18+ format */
	const char	*found_by;	/* static: where the blob was found */
	char		*symval[FA_GOBUILD_NSYM]; /* value, or NULL */
};

/*
 * Parse a blob that starts at the 16-byte header and ends where the
 * enclosing section or segment ends (only the inline, Go 1.18+ format
 * can be read without the ELF file: FA_ERR_UNAVAIL for the other).
 * 0, FA_ERR_NOTFOUND (no header), FA_ERR_INPUT (malformed) with *why,
 * FA_ERR_NOMEM.  On success free *gb with fa_gobuild_free.
 */
int fa_gobuild_parse_blob(const void *blob, size_t len,
    struct fa_gobuild *gb, char **why);

/*
 * Find and parse the build information of a whole ELF file image (buf)
 * or of the regular file open on fd (at most FA_GOBUILD_FILE_MAX bytes,
 * FA_ERR_TOOBIG beyond).  FA_ERR_INPUT with *why for a file that is not
 * ELF or is malformed, FA_ERR_NOTFOUND with *why when there is no build
 * information, FA_ERR_IO (errno kept) on a read error.
 */
int fa_gobuild_read_elf(const void *buf, size_t len, struct fa_gobuild *gb,
    char **why);
int fa_gobuild_read_fd(int fd, struct fa_gobuild *gb, char **why);
void fa_gobuild_free(struct fa_gobuild *gb);

/*
 * The value of the last "-X name=value" (or "-X=name=value") in ldflags,
 * split as the go command splits flags (blanks, single or double quotes),
 * copied into out.  FA_ERR_NOTFOUND, or FA_ERR_TOOBIG when it does not
 * fit.
 */
int fa_gobuild_ldflag_x(const char *ldflags, const char *name, char *out,
    size_t len);

struct fa_gobuild_ver {
	char		 version[FA_VERSION_MAX + 1];	/* raw */
	char		 upstream[FA_VERSION_MAX + 1];	/* "" if not valid */
	const char	*upstream_error;	/* static, when "" above */
	const char	*rule;			/* static */
};

/*
 * The version of component ("runc", "containerd", "dockerd") from its
 * build information, by the component's rules in order:
 *   runc        "module version" (main module github.com/opencontainers/
 *               runc, not "(devel)"), "ldflags main.version",
 *               "symbol main.version"
 *   containerd  "ldflags version.Version" (github.com/containerd/
 *               containerd[/v2]/version.Version), "module version",
 *               "symbol version.Version"
 *   dockerd     "ldflags dockerversion.Version" (github.com/docker/docker/
 *               dockerversion.Version), "module version" (github.com/
 *               docker/docker or github.com/moby/moby), "symbol
 *               dockerversion.Version"
 *   buildkitd   "ldflags version.Version" (github.com/moby/buildkit/
 *               version.Version), "module version"
 * (The BuildKit inside dockerd is no version of dockerd: it is the
 * buildkit member of the observation, from the module list.)
 * A "symbol" rule reads the variable's initial value through .symtab or
 * .dynsym (the string header it names, then the bytes it points to): what
 * -X set, even when -trimpath kept -ldflags out of the build information.
 * In a position-independent executable it relies on the link-time
 * pointer being stored in place as well as in the relocation (Go's
 * linker does so, dockerd here is one); where it is not, no value.
 * 0, or FA_ERR_NOTFOUND with *why saying what was looked for; FA_ERR_INPUT
 * for an unknown component.
 */
int fa_gobuild_version(const struct fa_gobuild *gb, const char *component,
    struct fa_gobuild_ver *v, char **why);

/* The searched paths, NULL-terminated, each {path, component}. */
struct fa_gobuild_path {
	const char	*path;
	const char	*component;
};
extern const struct fa_gobuild_path fa_gobuild_paths[];

/*
 * One host.binary observation per distinct file at fa_gobuild_paths
 * (read inside the sysroot: symbolic links resolve inside it; only
 * regular files are opened; nothing is executed).  0 or FA_ERR_NOMEM.
 */
int fa_host_collect_gobuild(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
