/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the runtime socket search (issue 19, "a pass without
 * looking"): the /proc/net/unix decoder (fabric/host_unix.c) on a table of
 * lines in the kernel's format (net/unix/af_unix.c unix_seq_show(): "%pK:
 * %08X %08X %08X %04X %02X %5lu" then ' ' and the name; the lines are
 * written here, not copied), the identification of a socket by its name
 * (fabric/host_paths.c fa_host_socket_ident), and the collectors on a
 * scratch sysroot with real sockets: bind-mounted files, sockets inside a
 * bind-mounted directory, runtime sockets listening in /proc/net/unix,
 * cgroup v1 mounts outside /sys/fs/cgroup, and /dev directories that are
 * not listed.
 *
 * Against the code before this change: fa_net_unix_decode,
 * fa_host_collect_unix and fa_host_socket_ident did not exist (this file
 * does not build); fa_host_collect_paths recorded no host.sockets, no
 * socket outside the fixed paths, no release_agent outside
 * /sys/fs/cgroup, and no /dev directory but the four fixed ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_mounts.h"
#include "../../fabric/host_paths.h"
#include "../../fabric/host_unix.h"
#include "scratch_tree.h"

#define HDR	"Num       RefCount Protocol Flags    Type St Inode Path\n"
#define Z	"0000000000000000: "

/* One line after the header, and what the decoder must make of it. */
static const struct {
	const char	*line;
	int		 listening;	/* kept as a listening socket */
	const char	*cls;		/* runtime, other, unknown */
	const char	*api;		/* or NULL */
	int		 abstract;
	const char	*name;		/* as kept */
} lines[] = {
	/* dockerd listening on its default path. */
	{ Z "00000002 00000000 00010000 0001 01 23456 /run/docker.sock",
	    1, "runtime", "docker", 0, "/run/docker.sock" },
	/* An accepted connection shows the listener's name, state 03. */
	{ Z "00000003 00000000 00000000 0001 03 23457 /run/docker.sock",
	    0, NULL, NULL, 0, NULL },
	/* Unbound: no name; "%5lu" pads a short inode with spaces. */
	{ Z "00000003 00000000 00000000 0001 03  1611", 0, NULL, NULL, 0,
	    NULL },
	{ Z "00000002 00000000 00000000 0002 01 11834", 0, NULL, NULL, 0,
	    NULL },
	/* A bound datagram socket never listens. */
	{ Z "00000002 00000000 00000000 0002 01 118346 /run/systemd/notify",
	    0, NULL, NULL, 0, NULL },
	/* containerd-shim before 1.4.3: abstract, NULs shown as '@'. */
	{ Z "00000002 00000000 00010000 0001 01 34567 "
	    "@/containerd-shim/moby/3f1c9e2ab04d/shim.sock@", 1, "runtime",
	    "containerd-shim", 1,
	    "@/containerd-shim/moby/3f1c9e2ab04d/shim.sock@" },
	{ Z "00000002 00000000 00010000 0001 01 34568 "
	    "@/containerd-shim/9b1d2c5e7f.sock@", 1, "runtime",
	    "containerd-shim", 1, "@/containerd-shim/9b1d2c5e7f.sock@" },
	/* The shim since 1.4.3: a path under /run/containerd/s/. */
	{ Z "00000002 00000000 00010000 0001 01 34569 /run/containerd/s/"
	    "5b1f0e2a9c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7",
	    1, "runtime", "containerd-shim", 0, NULL },
	/* An X server's abstract socket: listening, identifies nothing. */
	{ Z "00000002 00000000 00010000 0001 01 4242 @/tmp/.X11-unix/X0",
	    1, "unknown", NULL, 1, "@/tmp/.X11-unix/X0" },
	/* udev's control socket: seqpacket, listening, nothing known. */
	{ Z "00000002 00000000 00010000 0005 01 1234 /run/udev/control",
	    1, "unknown", NULL, 0, "/run/udev/control" },
	/* A 32-bit kernel prints an 8-digit address. */
	{ "c1d2e3f4: 00000002 00000000 00010000 0001 01 4243 "
	    "/var/run/crio/crio.sock", 1, "runtime", "cri-o", 0, NULL },
	/* A name with spaces is the rest of the line. */
	{ Z "00000002 00000000 00010000 0001 01 4244 /srv/my app/docker.sock",
	    1, "runtime", "docker", 0, "/srv/my app/docker.sock" },
	/* Relative: bound relative to the binder's working directory. */
	{ Z "00000002 00000000 00010000 0001 01 4245 buildkitd.sock", 1,
	    "runtime", "buildkit", 0, "buildkitd.sock" },
	{ Z "00000002 00000000 00010000 0001 01 4246 "
	    "/var/lib/kubelet/pod-resources/kubelet.sock", 1, "runtime",
	    "kubelet-pod-resources", 0, NULL },
	{ Z "00000002 00000000 00010000 0001 01 4247 "
	    "/var/lib/kubelet/plugins/csi.example.com/csi.sock", 1, "runtime",
	    "kubelet-plugin", 0, NULL },
	{ Z "00000002 00000000 00010000 0001 01 4248 "
	    "/var/lib/kubelet/device-plugins/nvidia-gpu.sock", 1, "other",
	    "device-plugin", 0, NULL },
	{ Z "00000002 00000000 00010000 0001 01 4249 "
	    "/var/run/nvidia-persistenced/socket", 1, "other",
	    "nvidia-persistenced", 0, NULL },
	{ Z "00000002 00000000 00010000 0001 01 4250 "
	    "/run/user/1000/podman/podman.sock", 1, "runtime", "podman", 0,
	    NULL },
	/* A byte that has to be escaped to be shown. */
	{ Z "00000002 00000000 00010000 0001 01 4251 /run/a\001b/docker.sock",
	    1, "runtime", "docker", 0, "/run/a\\x01b/docker.sock" },
};

/* Lines not understood: each skipped, the rest of the table kept. */
static const char *const bad_lines[] = {
	"garbage",
	Z "0000000Z 00000000 00010000 0001 01 1 /x",
	Z "00000002 00000000 00010000 0001",
	"0000000000000000 00000002 00000000 00010000 0001 01 1 /x",
	Z "00000002 00000000 00010000 0001 01 /x",
	Z "00000002 00000000 00010000 0001 01 12 ",
	"",
};

static const json_t *
listening_named(const json_t *d, const char *name)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(d, "listening"), i, e)
		if (strcmp(json_string_value(json_object_get(e, "name")),
		    name) == 0)
			return e;
	return NULL;
}

static void
decoder_table(void **state)
{
	char text[8192], *why = NULL;
	const json_t *e;
	json_t *d;
	size_t i, n = 0, listen = 0, unknown = 0;
	int r;

	(void)state;
	/* Each line alone after the header. */
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(text, sizeof(text), HDR "%s\n", lines[i].line);
		r = fa_net_unix_decode(text, strlen(text), &d, &why);
		if (r != 0)
			fail_msg("line %zu: %s", i, why);
		assert_int_equal(json_integer_value(json_object_get(d,
		    "skipped_count")), 0);
		assert_int_equal(json_integer_value(json_object_get(d,
		    "sockets")), 1);
		assert_int_equal(json_array_size(json_object_get(d,
		    "listening")), (size_t)lines[i].listening);
		if (lines[i].listening) {
			e = json_array_get(json_object_get(d, "listening"), 0);
			if (strcmp(json_string_value(json_object_get(e,
			    "class")), lines[i].cls) != 0)
				fail_msg("line %zu: class %s", i,
				    json_string_value(json_object_get(e,
				    "class")));
			if (lines[i].api != NULL)
				assert_string_equal(json_string_value(
				    json_object_get(e, "api")), lines[i].api);
			else
				assert_null(json_object_get(e, "api"));
			assert_int_equal(json_is_true(json_object_get(e,
			    "abstract")), lines[i].abstract);
			if (lines[i].name != NULL)
				assert_string_equal(json_string_value(
				    json_object_get(e, "name")), lines[i].name);
			listen++;
			if (strcmp(lines[i].cls, "unknown") == 0)
				unknown++;
		}
		json_decref(d);
	}
	/* All together, with the lines it cannot read among them. */
	n = (size_t)snprintf(text, sizeof(text), HDR);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\n",
		    lines[i].line);
		if (i < sizeof(bad_lines) / sizeof(bad_lines[0]))
			n += (size_t)snprintf(text + n, sizeof(text) - n,
			    "%s\n", bad_lines[i]);
	}
	assert_true(n < sizeof(text));
	assert_int_equal(fa_net_unix_decode(text, n, &d, &why), 0);
	assert_int_equal(json_integer_value(json_object_get(d,
	    "sockets")), sizeof(lines) / sizeof(lines[0]));
	assert_int_equal(json_integer_value(json_object_get(d,
	    "listening_count")), listen);
	assert_int_equal(json_integer_value(json_object_get(d,
	    "unidentified")), unknown);
	assert_int_equal(json_integer_value(json_object_get(d,
	    "skipped_count")), sizeof(bad_lines) / sizeof(bad_lines[0]));
	/* The skipped lines are numbered as in the file: "garbage" is 3. */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(d, "skipped"), 0), "line")), 3);
	e = listening_named(d, "/run/a\\x01b/docker.sock");
	assert_non_null(e);
	assert_true(json_is_false(json_object_get(e, "shown")));
	assert_null(json_object_get(listening_named(d, "/run/docker.sock"),
	    "shown"));
	json_decref(d);
}

static void
decoder_refuses(void **state)
{
	char *why = NULL;
	json_t *d = NULL;
	/* No header: not /proc/net/unix at all. */
	static const char nohdr[] = Z "00000002 00000000 00010000 0001 01 "
	    "1 /x\n";

	assert_int_equal(fa_net_unix_decode(nohdr, strlen(nohdr), &d, &why),
	    FA_ERR_INPUT);
	(void)state;
	assert_null(d);
	assert_non_null(why);
	free(why);
	why = NULL;
	assert_int_equal(fa_net_unix_decode("", 0, &d, &why), FA_ERR_INPUT);
	free(why);
	why = NULL;
	/* Only the header: no socket at all is a valid table. */
	assert_int_equal(fa_net_unix_decode(HDR, strlen(HDR), &d, &why), 0);
	assert_int_equal(json_integer_value(json_object_get(d, "sockets")),
	    0);
	json_decref(d);
}

/* Names and what they identify; expected verdicts first. */
static void
identify(void **state)
{
	static const struct {
		const char		*name;
		enum fa_sock_class	 cls;
		const char		*api;
	} t[] = {
		{ "/var/run/docker.sock", FA_SOCK_RUNTIME, "docker" },
		{ "/run/user/1000/docker.sock", FA_SOCK_RUNTIME, "docker" },
		{ "/host/run/containerd/containerd.sock", FA_SOCK_RUNTIME,
		    "containerd" },
		{ "/run/containerd/containerd.sock.ttrpc", FA_SOCK_RUNTIME,
		    "containerd" },
		{ "/var/run/docker/libcontainerd/docker-containerd.sock",
		    FA_SOCK_RUNTIME, "containerd" },
		{ "/run/k3s/containerd/containerd.sock", FA_SOCK_RUNTIME,
		    "containerd" },
		{ "/var/run/crio/crio.sock", FA_SOCK_RUNTIME, "cri-o" },
		{ "/run/podman/podman.sock", FA_SOCK_RUNTIME, "podman" },
		{ "/var/run/cri-dockerd.sock", FA_SOCK_RUNTIME, "cri-dockerd" },
		{ "/var/run/dockershim.sock", FA_SOCK_RUNTIME, "dockershim" },
		{ "/run/buildkit/buildkitd.sock", FA_SOCK_RUNTIME, "buildkit" },
		{ "/var/run/nri/nri.sock", FA_SOCK_RUNTIME, "nri" },
		{ "/var/lib/kubelet/pod-resources/kubelet.sock",
		    FA_SOCK_RUNTIME, "kubelet-pod-resources" },
		{ "/var/lib/kubelet/device-plugins/kubelet.sock",
		    FA_SOCK_RUNTIME, "kubelet-device-plugins" },
		{ "/var/lib/kubelet/plugins_registry/csi.x.io-reg.sock",
		    FA_SOCK_RUNTIME, "kubelet-plugin" },
		{ "/var/lib/kubelet/plugins/gpu.nvidia.com/dra.sock",
		    FA_SOCK_RUNTIME, "kubelet-plugin" },
		{ "/var/lib/kubelet/device-plugins/nvidia-gpu.sock",
		    FA_SOCK_OTHER, "device-plugin" },
		{ "/var/snap/lxd/common/lxd/unix.socket", FA_SOCK_RUNTIME,
		    "lxd" },
		{ "/var/lib/incus/unix.socket", FA_SOCK_RUNTIME, "incus" },
		{ "@/containerd-shim/k8s.io/abc/shim.sock@", FA_SOCK_RUNTIME,
		    "containerd-shim" },
		{ "/run/nvidia-persistenced/socket", FA_SOCK_OTHER,
		    "nvidia-persistenced" },
		{ "/run/nvidia-fabricmanager/socket", FA_SOCK_OTHER,
		    "nvidia-fabricmanager" },
		{ "/dev/log", FA_SOCK_OTHER, "syslog" },
		{ "/run/systemd/journal/stdout", FA_SOCK_OTHER, "journald" },
		{ "/run/host/notify", FA_SOCK_OTHER, "sd-notify" },
		/* systemd's private bus is not a known harmless daemon. */
		{ "/run/systemd/private", FA_SOCK_UNKNOWN, NULL },
		/* Identifies nothing. */
		{ "/run/dbus/system_bus_socket", FA_SOCK_UNKNOWN, NULL },
		{ "/run/unix.socket", FA_SOCK_UNKNOWN, NULL },
		{ "/srv/docker.sock.bak", FA_SOCK_UNKNOWN, NULL },
		{ "@docker.sock", FA_SOCK_UNKNOWN, NULL },
		{ "/run/notdocker.sock", FA_SOCK_UNKNOWN, NULL },
		{ "", FA_SOCK_UNKNOWN, NULL },
	};
	const char *api;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (fa_host_socket_ident(t[i].name, &api) != t[i].cls)
			fail_msg("%s: wrong class", t[i].name);
		if (t[i].api == NULL)
			assert_null(api);
		else
			assert_string_equal(api, t[i].api);
	}
	assert_int_equal(fa_host_socket_ident(NULL, &api), FA_SOCK_UNKNOWN);
}

/* A listening Unix socket at root + rel (parents made); the fd closed. */
static void
mksock(const char *root, const char *rel)
{
	struct sockaddr_un sa;
	char cmd[700];
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	assert_true((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path),
	    "%s%s", root, rel) < sizeof(sa.sun_path));
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"",
	    sa.sun_path);
	assert_int_equal(system(cmd), 0);
	assert_true((fd = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
}

static const struct fa_obs *
path_obs(const struct fa_snapshot *s, const char *p)
{
	return fa_snapshot_find(s, FA_KIND_HOST_PATH, p);
}

static const char *
str(const struct fa_obs *o, const char *k)
{
	assert_non_null(o);
	return json_string_value(json_object_get(o->data, k));
}

/* A container's mount table, as the kernel writes it (escapes and all). */
#define MOUNTINFO \
	"1200 1100 0:120 / / rw,relatime - overlay overlay rw,lowerdir=/l\n" \
	"1201 1200 0:123 / /proc rw,nosuid - proc proc rw\n" \
	"1212 1200 0:25 /docker.sock /x/d.sock rw,nosuid - tmpfs tmpfs rw\n" \
	"1213 1200 259:1 /srv/api.sock /srv/api.sock ro - ext4 /dev/sda1 " \
	    "rw\n" \
	"1214 1200 0:25 / /host/run rw,nosuid - tmpfs tmpfs rw\n" \
	"1215 1200 259:1 /var/lib/docker/containers/3f/hosts /etc/hosts rw " \
	    "- ext4 /dev/sda1 rw\n" \
	"1216 1200 0:40 / /data rw - nfs4 srv:/export rw,vers=4.2\n" \
	"1217 1200 0:33 / /cg/memory rw - cgroup cgroup rw,memory\n" \
	"1218 1200 259:1 /srv/My\\040Dir /srv/m\\040d rw - ext4 /dev/sda1 " \
	    "rw\n" \
	"1219 1200 0:26 /nvidia-persistenced/socket " \
	    "/run/nvidia-persistenced/socket ro - tmpfs tmpfs rw\n"

static void
collect_tree(void **state)
{
	char dir[] = "/tmp/fa-hostunix-XXXXXX", pnu[1024];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	const json_t *d, *e;
	size_t i;
	int found;

	(void)state;
	scratch_new(dir);
	scratch_put(dir, "/proc/self/mountinfo", MOUNTINFO);
	mksock(dir, "/x/d.sock");
	mksock(dir, "/srv/api.sock");
	mksock(dir, "/host/run/containerd/containerd.sock");
	mksock(dir, "/host/run/docker.sock");
	mksock(dir, "/run/nvidia-persistenced/socket");
	mksock(dir, "/srv/m d/podman.sock");
	mksock(dir, "/run/crio/crio.sock");
	scratch_put(dir, "/cg/memory/release_agent", "");
	scratch_put(dir, "/data/docker.sock", "never looked at");
	/* /proc/net/unix: crio listening here, and present; podman
	 * listening here, its path absent from this tree (another mount
	 * namespace); the old shim's abstract socket; a relative name. */
	snprintf(pnu, sizeof(pnu), HDR
	    Z "00000002 00000000 00010000 0001 01 23456 /run/crio/crio.sock\n"
	    Z "00000002 00000000 00010000 0001 01 23457 "
	    "/run/user/1000/podman/podman.sock\n"
	    Z "00000002 00000000 00010000 0001 01 23458 "
	    "@/containerd-shim/moby/3f/shim.sock@\n"
	    Z "00000002 00000000 00010000 0001 01 23459 buildkitd.sock\n"
	    Z "00000003 00000000 00000000 0001 03  1611\n");
	scratch_put(dir, "/proc/net/unix", pnu);

	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_mounts(&r, s), 0);
	assert_int_equal(fa_host_collect_paths(&r, s), 0);
	assert_int_equal(fa_host_collect_unix(&r, s), 0);

	/* A file bind of the host's docker.sock under another name. */
	o = path_obs(s, "/x/d.sock");
	assert_string_equal(str(o, "role"), "runtime-socket:docker");
	assert_string_equal(str(o, "type"), "socket");
	assert_string_equal(str(o, "found_by"), "mountinfo");
	assert_string_equal(str(o, "mount_root"), "/docker.sock");
	/* A bind-mounted socket whose name says nothing. */
	assert_string_equal(str(path_obs(s, "/srv/api.sock"), "role"),
	    "host-socket:unidentified");
	/* Inside a bind-mounted directory, by the well-known tails. */
	o = path_obs(s, "/host/run/containerd/containerd.sock");
	assert_string_equal(str(o, "role"), "runtime-socket:containerd");
	assert_string_equal(str(o, "mount"), "/host/run");
	assert_string_equal(str(path_obs(s, "/host/run/docker.sock"), "role"),
	    "runtime-socket:docker");
	/* A directory whose name needed an escape ("\040"). */
	assert_string_equal(str(path_obs(s, "/srv/m d/podman.sock"), "role"),
	    "runtime-socket:podman");
	/* The NVIDIA toolkit's mount of persistenced's socket: known. */
	assert_string_equal(str(path_obs(s, "/run/nvidia-persistenced/socket"),
	    "role"), "host-socket:nvidia-persistenced");
	/* Nothing under the NFS mount was stat'ed. */
	assert_null(path_obs(s, "/data/docker.sock"));
	o = fa_snapshot_find(s, FA_KIND_HOST_SOCKETS, "/proc/self/mountinfo");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    o->data, "remote"), 0)), "/data");
	assert_int_equal(json_array_size(json_object_get(o->data,
	    "socket_mounts")), 3);
	/* /etc/hosts is in the table, not in the tree: not examined. */
	found = 0;
	json_array_foreach(json_object_get(o->data, "unread"), i, e)
		found |= strcmp(json_string_value(json_object_get(e, "path")),
		    "/etc/hosts") == 0;
	assert_true(found);
	assert_int_equal(json_integer_value(json_object_get(o->data,
	    "unread_count")), 1);
	assert_true(json_integer_value(json_object_get(o->data,
	    "dirs_searched")) >= 2);	/* /host/run, /srv/m d */
	/* A cgroup v1 hierarchy mounted outside /sys/fs/cgroup. */
	assert_string_equal(str(path_obs(s, "/cg/memory/release_agent"),
	    "role"), "escape:release_agent");

	/* /proc/net/unix. */
	o = fa_snapshot_find(s, FA_KIND_HOST_UNIX, "/proc/net/unix");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_int_equal(json_integer_value(json_object_get(o->data,
	    "listening_count")), 4);
	d = listening_named(o->data, "@/containerd-shim/moby/3f/shim.sock@");
	assert_true(json_is_true(json_object_get(d, "abstract")));
	/* crio was a fixed probe already: one observation, the fixed one. */
	o = path_obs(s, "/run/crio/crio.sock");
	assert_string_equal(str(o, "type"), "socket");
	assert_null(json_object_get(o->data, "found_by"));
	/* podman listens here, but its path is not in this tree. */
	o = path_obs(s, "/run/user/1000/podman/podman.sock");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_true(json_is_false(json_object_get(o->data, "exists")));
	assert_string_equal(str(o, "found_by"), "/proc/net/unix");
	assert_string_equal(str(o, "role"), "runtime-socket:podman");
	/* A relative name cannot be located: said so, not skipped. */
	o = path_obs(s, "buildkitd.sock");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(o->reason, "relative"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* Without a mount table the search says so; without /proc/net/unix too. */
static void
collect_nothing(void **state)
{
	char dir[] = "/tmp/fa-hostunix-XXXXXX";
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;

	(void)state;
	scratch_new(dir);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_mounts(&r, s), 0);
	assert_int_equal(fa_host_collect_paths(&r, s), 0);
	assert_int_equal(fa_host_collect_unix(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_SOCKETS, "/proc/self/mountinfo");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_non_null(strstr(o->reason, "mount table was not read"));
	o = fa_snapshot_find(s, FA_KIND_HOST_UNIX, "/proc/net/unix");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* A /sys/fs/cgroup that cannot be listed is recorded, not skipped (old:
 * nothing recorded, so HOST-CGROUP-ESCAPE could pass without the v1
 * hierarchies). */
static void
cgroup_unlisted(void **state)
{
	char dir[] = "/tmp/fa-hostunix-XXXXXX", cmd[600];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;

	(void)state;
	scratch_new(dir);
	/* More names than the listing takes (256). */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/fs/cgroup && cd "
	    "%s/sys/fs/cgroup && seq 0 300 | xargs mkdir", dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_paths(&r, s), 0);
	o = path_obs(s, "/sys/fs/cgroup");
	assert_non_null(o);
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_string_equal(str(o, "role"), "escape:cgroup-hierarchies");
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

/* /dev is walked whole; what cannot be listed is recorded, not dropped. */
static void
devices_walk(void **state)
{
	char dir[] = "/tmp/fa-hostunix-XXXXXX", cmd[600];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	const json_t *d;
	size_t i;
	int big = 0, deep = 0, mapper = 0;

	(void)state;
	scratch_new(dir);
	scratch_put(dir, "/dev/mapper/control.txt", "");
	scratch_put(dir, "/dev/a/b/c/d/e/f/g/h/i/j/k", "");
	/* More entries than one directory may hold in the listing. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/dev/big && cd %s/dev/big && "
	    "seq 0 %d | xargs touch", dir, dir, FA_HOST_DEV_MAX);
	assert_int_equal(system(cmd), 0);
	/* POSIX shared memory holds files anyone may name: not walked. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/dev/shm/x %s/dev/mqueue",
	    dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_paths(&r, s), 0);
	o = fa_snapshot_find(s, FA_KIND_HOST_DEVICES, "/dev");
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	json_array_foreach(json_object_get(o->data, "dirs"), i, d) {
		const char *p = json_string_value(json_object_get(d, "path"));

		assert_null(strstr(p, "/dev/shm"));
		assert_null(strstr(p, "/dev/mqueue"));
		if (strcmp(p, "/dev/big") == 0) {
			big = 1;
			assert_true(json_is_false(json_object_get(d,
			    "listed")));
			assert_null(json_object_get(d, "absent"));
		}
		if (strstr(p, "/dev/a/b/c/d/e/f/g/h/i") != NULL &&
		    json_is_false(json_object_get(d, "listed"))) {
			deep = 1;
			assert_non_null(strstr(json_string_value(
			    json_object_get(d, "reason")), "deeper"));
		}
		mapper |= strcmp(p, "/dev/mapper") == 0 &&
		    json_is_true(json_object_get(d, "listed"));
	}
	assert_true(big);
	assert_true(deep);
	assert_true(mapper);
	/* The first entry is /dev itself. */
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(o->data, "dirs"), 0), "path")), "/dev");
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decoder_table),
		cmocka_unit_test(decoder_refuses),
		cmocka_unit_test(identify),
		cmocka_unit_test(collect_tree),
		cmocka_unit_test(collect_nothing),
		cmocka_unit_test(cgroup_unlisted),
		cmocka_unit_test(devices_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
