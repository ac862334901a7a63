/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tenancy, LSM and user-namespace evidence (see host_ident.h).
 *
 * Sources: /proc/1/cgroup names the container runtime's cgroup
 * ("/docker/<id>", "/kubepods/...", "cri-containerd-..."); DMI strings in
 * /sys/class/dmi/id name the platform (KVM, VMware, Amazon EC2...); the
 * "hypervisor" CPUID bit shows in /proc/cpuinfo flags inside any VM; the
 * LSM label is /proc/self/attr/current (AppArmor "docker-default
 * (enforce)", SELinux "...:container_t:..."); uid_map "0 0 4294967295"
 * is the initial user namespace (user_namespaces(7)).
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "host_ident.h"
#include "host_obs.h"

/*
 * Read a small file and return its first line, sanitised.  0 with *out
 * set, or an FA_ERR_* (recorded by the caller in "unread").
 */
static int
first_line(const struct fa_sysroot *root, const char *path, char **out)
{
	char *buf = NULL;
	size_t len, n;
	int r;

	*out = NULL;
	if ((r = fa_sysroot_read(root, path, FA_HOST_SMALL_MAX, &buf,
	    &len)) != 0)
		return r;
	n = strcspn(buf, "\n");
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	*out = fa_str_sanitize(buf, n);
	free(buf);
	return *out == NULL ? FA_ERR_NOMEM : 0;
}

/*
 * The first line of path into *s, or (*s NULL) unread[key] set to the
 * reason it was not read.
 */
static int
line_or_unread(const struct fa_sysroot *root, const char *path,
    const char *key, json_t *unread, char **s)
{
	int r = first_line(root, path, s);

	if (r == 0 || r == FA_ERR_NOMEM)
		return r;
	return json_object_set_new(unread, key, json_sprintf("%s: %s", path,
	    fa_sysroot_strerror(r))) != 0 ? FA_ERR_NOMEM : 0;
}

/* A small file and the field its first line is put as. */
struct line_file {
	const char		*path;
	const struct fa_fld_STR	*field;
};

/* Put the first line of path as f, or unread[f's name] the reason. */
static int
put_line(const struct fa_sysroot *root, const char *path,
    struct fa_obs_build *b, const struct fa_fld_STR *f, json_t *unread)
{
	char *s;
	int r = line_or_unread(root, path, fa_fld_name(f), unread, &s);

	if (r == 0 && s != NULL) {
		fa_put_str(b, f, s);
		free(s);
		r = b->failed ? FA_ERR_NOMEM : 0;
	}
	return r;
}

int
fa_cpuinfo_hypervisor(const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl, *c;
	int found = FA_ERR_NOTFOUND;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((size_t)(nl - p) < 6 || strncmp(p, "flags", 5) != 0 ||
		    (c = memchr(p, ':', (size_t)(nl - p))) == NULL)
			continue;
		found = 0;
		for (c++; c + 10 <= nl; c++)
			if (memcmp(c, "hypervisor", 10) == 0 && c[-1] == ' ' &&
			    (c + 10 == nl || c[10] == ' '))
				return 1;
		return found;	/* the first CPU speaks for all */
	}
	return found;
}

/* Put the lines of a small text file, sanitised, as f (an array). */
static int
put_lines(const struct fa_sysroot *root, const char *path,
    struct fa_obs_build *b, const struct fa_fld_ARR *f, json_t *unread)
{
	char *buf = NULL, *p, *nl, *s;
	json_t *a;
	size_t len;
	int r;

	r = fa_sysroot_read(root, path, FA_HOST_SMALL_MAX, &buf, &len);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0)
		return json_object_set_new(unread, fa_fld_name(f),
		    json_sprintf("%s: %s", path, fa_sysroot_strerror(r))) != 0 ?
		    FA_ERR_NOMEM : 0;
	if ((a = json_array()) == NULL) {
		free(buf);
		return FA_ERR_NOMEM;
	}
	for (p = buf, r = 0; r == 0 && p < buf + len &&
	    json_array_size(a) < 256; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(buf + len - p))) == NULL)
			nl = buf + len;
		if (nl == p)
			continue;
		if ((s = fa_str_sanitize(p, (size_t)(nl - p))) == NULL ||
		    json_array_append_new(a, json_string(s)) != 0)
			r = FA_ERR_NOMEM;
		free(s);
	}
	free(buf);
	fa_put_arr(b, f, a);	/* stolen, also when r is not 0 */
	return r != 0 || b->failed ? FA_ERR_NOMEM : 0;
}

/*
 * Put unread as f, b's field of the reasons, and record the data built
 * (both consumed); r: the outcome so far.
 */
static int
record(struct fa_snapshot *snap, const char *kind, const char *target,
    struct fa_obs_build *b, const struct fa_fld_OBJ *f, json_t *unread,
    int r)
{
	json_t *data;

	fa_put_obj(b, f, unread);
	data = fa_obs_built(b);
	if (r != 0 || data == NULL) {
		json_decref(data);
		return r != 0 ? r : FA_ERR_NOMEM;
	}
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, kind, target, "read",
	    FA_OBS_COMPLETE, NULL, data, NULL);
}

/*
 * One NIC (its /sys/class/net link is link): an SR-IOV VF when its device
 * has a physfn link, a PF when it has none, unknown (in unread) when that
 * could not be told; and a virtio device (".../virtio2/net/eth0": a
 * paravirtual NIC, which a hypervisor provides) in virtio too.
 */
static int
classify_nic(const struct fa_sysroot *root, const char *name,
    const char *link, json_t *phys, json_t *vfs, json_t *virtio,
    json_t *unread)
{
	char path[320], *s;
	struct stat st;
	int r, rs;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/physfn", name);
	if ((s = fa_str_sanitize(name, strlen(name))) == NULL)
		return FA_ERR_NOMEM;
	rs = fa_sysroot_stat(root, path, 0, &st);
	if (rs == FA_ERR_NOMEM)
		r = rs;
	else if (rs != 0 && rs != FA_ERR_NOTFOUND)
		r = json_object_set_new(unread, "net_ifaces_physical",
		    json_sprintf("%s: %s", path, fa_sysroot_strerror(rs))) ?
		    FA_ERR_NOMEM : 0;
	else
		r = json_array_append_new(rs == 0 ? vfs : phys,
		    json_string(s)) != 0 ? FA_ERR_NOMEM : 0;
	if (r == 0 && strstr(link, "/virtio") != NULL &&
	    json_array_append_new(virtio, json_string(s)) != 0)
		r = FA_ERR_NOMEM;
	free(s);
	return r;
}

/*
 * The interfaces of /sys/class/net whose device is not virtual: the link
 * of a NIC leads to its bus (".../devices/pci0000:00/.../net/eth0"), that
 * of a veth, bridge or tunnel to "/devices/virtual/net/".  A network
 * namespace of a container holds only virtual ones unless a NIC (an
 * SR-IOV VF, say) was moved in; the host's holds its NICs.  A VF has a
 * "physfn" link to its PF in its device directory (PCI sysfs,
 * Documentation/ABI/testing/sysfs-bus-pci): VFs go to "net_ifaces_vf",
 * other NICs to "net_ifaces_physical".
 */
static int
physical_ifaces(const struct fa_sysroot *root, struct fa_obs_build *b,
    json_t *unread)
{
	char **names = NULL, path[320], *link;
	json_t *phys, *vfs, *virtio;
	size_t n, i;
	int r;

	r = fa_sysroot_list(root, "/sys/class/net", 1024, &names, &n);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0)
		return 0;	/* "net_ifaces" records why already */
	phys = json_array();
	vfs = json_array();
	virtio = json_array();
	r = phys == NULL || vfs == NULL || virtio == NULL ? FA_ERR_NOMEM : 0;
	for (i = 0; r == 0 && i < n; i++) {
		int rr;

		snprintf(path, sizeof(path), "/sys/class/net/%s", names[i]);
		rr = fa_sysroot_readlink(root, path, &link);
		if (rr == FA_ERR_NOMEM)
			r = rr;
		else if (rr != 0)
			r = json_object_set_new(unread, "net_ifaces_physical",
			    json_sprintf("%s: %s", path,
			    fa_sysroot_strerror(rr))) ? FA_ERR_NOMEM : 0;
		else {
			if (strstr(link, "/devices/") != NULL &&
			    strstr(link, "/devices/virtual/") == NULL)
				r = classify_nic(root, names[i], link, phys,
				    vfs, virtio, unread);
			free(link);
		}
	}
	fa_sysroot_names_free(names);
	/* Stolen, also when r is not 0 (out of memory, as any r here). */
	fa_put_arr(b, FA_F(HOST_TENANCY, net_ifaces_physical), phys);
	fa_put_arr(b, FA_F(HOST_TENANCY, net_ifaces_vf), vfs);
	fa_put_arr(b, FA_F(HOST_TENANCY, net_ifaces_virtio), virtio);
	return r != 0 || b->failed ? FA_ERR_NOMEM : 0;
}

/*
 * From the scanning process's own environment, only what names a
 * container: "container=" (set by systemd-nspawn, podman, LXC: systemd's
 * CONTAINER_INTERFACE) and whether KUBERNETES_SERVICE_HOST is set (every
 * Kubernetes pod).  No other variable is recorded: they may hold secrets.
 */
static int
environ_tells(const struct fa_sysroot *root, struct fa_obs_build *b,
    json_t *unread)
{
	char *buf = NULL, *p, *end, *s;
	size_t len, n;
	int r, k8s = 0;

	r = fa_sysroot_read(root, "/proc/self/environ", 1u << 20, &buf, &len);
	if (r == FA_ERR_NOMEM)
		return r;
	if (r != 0)
		return json_object_set_new(unread, "environ", json_sprintf(
		    "/proc/self/environ: %s", fa_sysroot_strerror(r))) ?
		    FA_ERR_NOMEM : 0;
	for (p = buf, end = buf + len, r = 0; r == 0 && p < end; p += n + 1) {
		n = strnlen(p, (size_t)(end - p));
		if (n > 10 && strncmp(p, "container=", 10) == 0) {
			if ((s = fa_str_sanitize(p + 10, n - 10)) == NULL)
				r = FA_ERR_NOMEM;
			else
				fa_put_str(b, FA_F(HOST_TENANCY,
				    environ_container), s);
			free(s);
		} else if (n > 24 && strncmp(p, "KUBERNETES_SERVICE_HOST=",
		    24) == 0)
			k8s = 1;
	}
	free(buf);
	fa_put_bool(b, FA_F(HOST_TENANCY, environ_kubernetes), k8s);
	return r != 0 || b->failed ? FA_ERR_NOMEM : 0;
}

/*
 * The tells beyond DMI and CPUID: our own cgroups (/proc/self/cgroup),
 * PID 1's name, the container manager files systemd's container
 * interface defines (/run/systemd/container, /run/host/container-manager),
 * the device tree's hypervisor node (ARM and POWER guests), NICs and the
 * environment.
 */
static int
more_tells(const struct fa_sysroot *root, struct fa_obs_build *b,
    json_t *unread)
{
	static const struct line_file files[] = {
		{ "/proc/1/comm", FA_F(HOST_TENANCY, pid1_comm) },
		{ "/run/systemd/container",
		    FA_F(HOST_TENANCY, container_manager) },
		{ "/run/host/container-manager",
		    FA_F(HOST_TENANCY, host_container_manager) },
		{ "/proc/device-tree/hypervisor/compatible",
		    FA_F(HOST_TENANCY, dt_hypervisor) },
	};
	size_t i;
	int r;

	r = put_lines(root, "/proc/self/cgroup", b,
	    FA_F(HOST_TENANCY, cgroup_self), unread);
	for (i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]); i++)
		r = put_line(root, files[i].path, b, files[i].field, unread);
	if (r == 0)
		r = physical_ifaces(root, b, unread);
	if (r == 0)
		r = environ_tells(root, b, unread);
	return r;
}

static int
collect_tenancy(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const char *const dmi[] = { "sys_vendor", "product_name",
	    "board_vendor", "bios_vendor", NULL };
	struct fa_obs_build b;
	json_t *unread = json_object(), *d = json_object(), *ifs;
	char *buf = NULL, **names = NULL, path[64], *s;
	size_t len, n, i;
	int r = 0, hv;

	fa_obs_build(&b);
	if (b.failed || unread == NULL || d == NULL)
		r = FA_ERR_NOMEM;
	if (r == 0)
		r = put_lines(root, "/proc/1/cgroup", &b,
		    FA_F(HOST_TENANCY, cgroup_1), unread);
	for (i = 0; r == 0 && dmi[i] != NULL; i++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", dmi[i]);
		if ((r = line_or_unread(root, path, dmi[i], unread, &s)) == 0 &&
		    s != NULL && json_object_set_new(d, dmi[i],
		    json_string(s)) != 0)
			r = FA_ERR_NOMEM;
		free(s);
	}
	fa_put_obj(&b, FA_F(HOST_TENANCY, dmi), d);	/* stolen */
	if (r == 0 && b.failed)
		r = FA_ERR_NOMEM;
	if (r == 0)
		r = put_line(root, "/sys/hypervisor/type", &b,
		    FA_F(HOST_TENANCY, hypervisor_type), unread);
	if (r == 0) {
		int rr = fa_sysroot_read(root, "/proc/cpuinfo", 4u << 20, &buf,
		    &len);

		if (rr == FA_ERR_NOMEM)
			r = rr;
		else if (rr != 0 || (hv = fa_cpuinfo_hypervisor(buf, len)) < 0)
			r = json_object_set_new(unread, "cpu_hypervisor",
			    json_sprintf("/proc/cpuinfo: %s", rr != 0 ?
			    fa_sysroot_strerror(rr) : "no flags line")) ?
			    FA_ERR_NOMEM : 0;
		else {
			fa_put_bool(&b, FA_F(HOST_TENANCY, cpu_hypervisor), hv);
			r = b.failed ? FA_ERR_NOMEM : 0;
		}
		free(buf);
	}
	if (r == 0) {
		int rr = fa_sysroot_list(root, "/sys/class/net", 1024, &names,
		    &n);

		if (rr == FA_ERR_NOMEM)
			r = rr;
		else if (rr != 0)
			r = json_object_set_new(unread, "net_ifaces",
			    json_sprintf("/sys/class/net: %s",
			    fa_sysroot_strerror(rr))) ? FA_ERR_NOMEM : 0;
		else {
			if ((ifs = json_array()) == NULL)
				r = FA_ERR_NOMEM;
			for (i = 0; r == 0 && i < n; i++) {
				s = fa_str_sanitize(names[i], strlen(names[i]));
				if (s == NULL || json_array_append_new(ifs,
				    json_string(s)) != 0)
					r = FA_ERR_NOMEM;
				free(s);
			}
			fa_put_arr(&b, FA_F(HOST_TENANCY, net_ifaces), ifs);
			if (r == 0 && b.failed)
				r = FA_ERR_NOMEM;
		}
		fa_sysroot_names_free(names);
	}
	if (r == 0)
		r = more_tells(root, &b, unread);
	return record(snap, FA_KIND_HOST_TENANCY, "/", &b,
	    FA_F(HOST_TENANCY, unread), unread, r);
}

static int
collect_lsm(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	static const struct line_file files[] = {
		{ "/proc/self/attr/current", FA_F(HOST_LSM, current) },
		{ "/proc/self/attr/apparmor/current",
		    FA_F(HOST_LSM, apparmor_current) },
		{ "/sys/module/apparmor/parameters/enabled",
		    FA_F(HOST_LSM, apparmor_enabled) },
		{ "/sys/fs/selinux/enforce", FA_F(HOST_LSM, selinux_enforce) },
		{ "/sys/kernel/security/lsm", FA_F(HOST_LSM, lsm_list) },
	};
	struct fa_obs_build b;
	json_t *unread = json_object();
	size_t i;
	int r;

	fa_obs_build(&b);
	r = b.failed || unread == NULL ? FA_ERR_NOMEM : 0;
	for (i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]); i++)
		r = put_line(root, files[i].path, &b, files[i].field, unread);
	return record(snap, FA_KIND_HOST_LSM, "/proc/self/attr", &b,
	    FA_F(HOST_LSM, unread), unread, r);
}

struct map_ctx {
	json_t	*map;
};

static int
map_line(char *line, unsigned ln, void *arg, char **why)
{
	struct map_ctx *m = arg;
	unsigned long long in, out, cnt;
	char extra;

	if (line[strspn(line, " \t")] == '\0')
		return 0;
	if (sscanf(line, "%llu %llu %llu %c", &in, &out, &cnt, &extra) != 3 ||
	    in > 0xffffffffull || out > 0xffffffffull || cnt == 0 ||
	    cnt > 0x100000000ull)
		return fa_why(why, "line %u: not 'inside outside count'", ln);
	if (json_array_size(m->map) >= 340)	/* kernel limit is 340 */
		return fa_why(why, "line %u: more than 340 ranges", ln);
	if (json_array_append_new(m->map, json_pack("[I, I, I]",
	    (json_int_t)in, (json_int_t)out, (json_int_t)cnt)) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_uid_map_decode(const char *text, size_t len, json_t **out, char **why)
{
	struct map_ctx m = { json_array() };
	struct fa_obs_build b;
	int r;

	*out = NULL;
	if (m.map == NULL)
		return FA_ERR_NOMEM;
	if ((r = fa_text_each_line(text, len, map_line, &m, why)) != 0) {
		json_decref(m.map);
		return r;
	}
	if (json_array_size(m.map) == 0) {
		json_decref(m.map);
		return fa_why(why, "no mapping");
	}
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(HOST_USERNS, map), m.map);
	if ((*out = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_host_collect_ident(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	int r;

	if ((r = collect_tenancy(root, snap)) != 0 ||
	    (r = collect_lsm(root, snap)) != 0)
		return r;
	return fa_host_read_decode(root, snap, FA_KIND_HOST_USERNS,
	    "/proc/self/uid_map", FA_HOST_SMALL_MAX, fa_uid_map_decode);
}
