/* SPDX-License-Identifier: BSD-2-Clause */
/* Package names of the container stack (see host_pkgname.h). */
#include <stddef.h>
#include <string.h>

#include "host_pkgname.h"

#define DPKG	(1u << FA_PKG_DPKG)
#define RPM	(1u << FA_PKG_RPM)

static const struct {
	const char	*name;
	const char	*component;
	unsigned	 managers;
} names[] = {
	{ "runc", "runc", DPKG | RPM },
	{ "containerd", "containerd", DPKG | RPM },
	{ "containerd.io", "containerd", DPKG | RPM },	/* Docker's */
	{ "docker.io", "docker", DPKG },		/* Debian, Ubuntu */
	{ "docker", "docker", RPM },			/* RHEL 7 extras */
	{ "docker-ce", "docker", DPKG | RPM },		/* Docker's */
	{ "moby-engine", "docker", DPKG | RPM },	/* Fedora, Azure */
	{ "nvidia-container-toolkit", "nvidia-container-toolkit",
	  DPKG | RPM },
	{ "nvidia-container-toolkit-base", "nvidia-container-toolkit",
	  DPKG | RPM },
	{ "libnvidia-container1", "nvidia-container-toolkit", DPKG | RPM },
	{ "libnvidia-container-tools", "nvidia-container-toolkit",
	  DPKG | RPM },
};

const char *
fa_pkg_component(const char *name, enum fa_pkg_manager m)
{
	size_t i;

	for (i = 0; name != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if ((names[i].managers & 1u << m) &&
		    strcmp(name, names[i].name) == 0)
			return names[i].component;
	return NULL;
}
