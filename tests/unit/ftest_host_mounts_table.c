/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A table of mountinfo lines, one per kind of line real machines show,
 * each with the entry it must decode to or the reason it is skipped
 * (fabric/host_mounts.c).  The format is the kernel's
 * (Documentation/filesystems/proc.rst, "/proc/<pid>/mountinfo";
 * proc_pid_mountinfo(5); fs/proc_namespace.c show_mountinfo()):
 *
 * 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * (1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)   (10)         (11)
 *
 * mount ID, parent ID, major:minor, root, mount point, mount options,
 * optional fields "tag[:value]" (zero or more: shared:X, master:X,
 * propagate_from:X, unbindable; unknown ones to be ignored), "-",
 * filesystem type, source, super options; one space between fields,
 * space, tab, newline and backslash in paths written as \ooo.  The lines
 * are written here after that format and after lines seen on Debian,
 * Kubernetes and Docker hosts; none is copied from a machine.
 *
 * Every line of the table is decoded after one ordinary line, so a
 * skipped line must leave the ordinary one in the table (the decoder of
 * before this table threw the whole table away for any line it did not
 * expect).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../fabric/host_mounts.h"
#include "scratch_tree.h"

/* The ordinary line every case follows. */
#define ROOT_LINE \
	"21 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 " \
	"rw,errors=remount-ro\n"

struct row {
	const char	*name;
	const char	*line;		/* without its '\n' */
	const char	*skip;		/* NULL: kept; else part of the reason */
	const char	*mount_point, *root, *fstype, *source, *options,
			*super_options;
	const char	*optional;	/* optional fields, space-separated */
	int		 read_only, root_is_path;
};

static const struct row rows[] = {
	/* Namespace files bind-mounted by ip-netns(8) and CNI plugins:
	 * the root is the nsfs dentry's name, not a path. */
	{ "nsfs net (ip netns)",
	  "612 29 0:4 net:[4026532712] /run/netns/cni-5f3e1a2b rw "
	  "shared:285 - nsfs nsfs rw",
	  NULL, "/run/netns/cni-5f3e1a2b", "net:[4026532712]", "nsfs",
	  "nsfs", "rw", "rw", "shared:285", 0, 0 },
	{ "nsfs mnt, no optional field",
	  "701 1466 0:4 mnt:[4026531841] /var/run/mntns rw - nsfs nsfs rw",
	  NULL, "/var/run/mntns", "mnt:[4026531841]", "nsfs", "nsfs", "rw",
	  "rw", "", 0, 0 },
	/* Network file systems: the source is not a device path. */
	{ "cifs",
	  "88 29 0:52 / /mnt/share rw,relatime shared:44 - cifs "
	  "//fileserver.corp.example/eng rw,vers=3.1.1,cache=strict,"
	  "username=svc_audit,uid=0,noforceuid,gid=0,noforcegid,"
	  "addr=10.20.0.15,file_mode=0755,dir_mode=0755,soft,nounix,"
	  "serverino,mapposix,rsize=4194304,wsize=4194304,bsize=1048576,"
	  "echo_interval=60,actimeo=1,closetimeo=1",
	  NULL, "/mnt/share", "/", "cifs", "//fileserver.corp.example/eng",
	  "rw,relatime", "rw,vers=3.1.1,cache=strict,username=svc_audit,"
	  "uid=0,noforceuid,gid=0,noforcegid,addr=10.20.0.15,file_mode=0755,"
	  "dir_mode=0755,soft,nounix,serverino,mapposix,rsize=4194304,"
	  "wsize=4194304,bsize=1048576,echo_interval=60,actimeo=1,"
	  "closetimeo=1", "shared:44", 0, 1 },
	{ "cifs share name with a space",
	  "89 29 0:53 / /mnt/team\\040docs rw,relatime - cifs "
	  "//fs01/Team\\040Docs rw,vers=3.0,cache=strict",
	  NULL, "/mnt/team docs", "/", "cifs", "//fs01/Team Docs",
	  "rw,relatime", "rw,vers=3.0,cache=strict", "", 0, 1 },
	{ "nfs4",
	  "95 29 0:60 / /data rw,relatime shared:50 - nfs4 "
	  "10.0.0.5:/export/data rw,vers=4.2,rsize=1048576,wsize=1048576,"
	  "namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,"
	  "clientaddr=10.0.0.12,local_lock=none,addr=10.0.0.5",
	  NULL, "/data", "/", "nfs4", "10.0.0.5:/export/data", "rw,relatime",
	  "rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,"
	  "proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.12,"
	  "local_lock=none,addr=10.0.0.5", "shared:50", 0, 1 },
	{ "nfs3 over IPv6, a subdirectory, read-only",
	  "96 29 0:61 /projects /mnt/nfs3 ro,nosuid,relatime - nfs "
	  "[fd00::5]:/srv/nfs rw,vers=3,rsize=65536,wsize=65536,hard,"
	  "proto=tcp6,mountaddr=fd00::5,mountvers=3,mountproto=tcp6",
	  NULL, "/mnt/nfs3", "/projects", "nfs", "[fd00::5]:/srv/nfs",
	  "ro,nosuid,relatime", "rw,vers=3,rsize=65536,wsize=65536,hard,"
	  "proto=tcp6,mountaddr=fd00::5,mountvers=3,mountproto=tcp6", "", 1,
	  1 },
	/* \ooo escapes in the root, the mount point and the source. */
	{ "\\040 space in root and mount point",
	  "120 29 8:1 /srv/my\\040data /mnt/my\\040data rw,relatime - ext4 "
	  "/dev/sda1 rw", NULL, "/mnt/my data", "/srv/my data", "ext4",
	  "/dev/sda1", "rw,relatime", "rw", "", 0, 1 },
	{ "\\011 tab and \\012 newline (shown escaped)",
	  "121 29 8:1 /srv/a\\011tab /mnt/x\\012y ro - ext4 /dev/sda1 rw",
	  NULL, "/mnt/x\\x0ay", "/srv/a\\x09tab", "ext4", "/dev/sda1", "ro",
	  "rw", "", 1, 1 },
	{ "\\134 backslash (shown escaped)",
	  "122 29 8:1 /back\\134slash /mnt/b\\134s rw - ext4 /dev/sda1 rw",
	  NULL, "/mnt/b\\x5cs", "/back\\x5cslash", "ext4", "/dev/sda1", "rw",
	  "rw", "", 0, 1 },
	{ "escape in the source",
	  "123 29 0:90 / /media/usb rw,nosuid,nodev,relatime - vfat "
	  "/dev/disk/by-label/MY\\040STICK rw,fmask=0022,dmask=0022",
	  NULL, "/media/usb", "/", "vfat", "/dev/disk/by-label/MY STICK",
	  "rw,nosuid,nodev,relatime", "rw,fmask=0022,dmask=0022", "", 0, 1 },
	{ "a deleted bind-mount source",
	  "124 29 8:1 /var/lib/old\\040(deleted) /mnt/old rw - ext4 "
	  "/dev/sda1 rw", NULL, "/mnt/old", "/var/lib/old (deleted)", "ext4",
	  "/dev/sda1", "rw", "rw", "", 0, 1 },
	/* Optional fields: zero or many, unknown ones ignored. */
	{ "every optional field",
	  "130 29 0:70 / /mnt/m rw shared:5 master:3 propagate_from:2 "
	  "unbindable - tmpfs tmpfs rw", NULL, "/mnt/m", "/", "tmpfs",
	  "tmpfs", "rw", "rw", "shared:5 master:3 propagate_from:2 "
	  "unbindable", 0, 1 },
	{ "an optional field this kernel does not know",
	  "131 29 0:71 / /mnt/n rw shared:6 future:9 - tmpfs tmpfs rw",
	  NULL, "/mnt/n", "/", "tmpfs", "tmpfs", "rw", "rw",
	  "shared:6 future:9", 0, 1 },
	/* An empty source: "mount -t tmpfs '' /mnt/empty" prints nothing
	 * between the two spaces. */
	{ "empty source",
	  "140 29 0:72 / /mnt/empty rw,relatime - tmpfs  rw,size=1024k",
	  NULL, "/mnt/empty", "/", "tmpfs", "", "rw,relatime",
	  "rw,size=1024k", "", 0, 1 },
	/* Sockets bind-mounted into a container: ordinary entries. */
	{ "docker.sock bind-mounted from the host's /run",
	  "1490 1466 0:25 /docker.sock /run/docker.sock rw,nosuid,nodev,"
	  "noexec,relatime - tmpfs tmpfs rw,size=1630164k,mode=755",
	  NULL, "/run/docker.sock", "/docker.sock", "tmpfs", "tmpfs",
	  "rw,nosuid,nodev,noexec,relatime", "rw,size=1630164k,mode=755", "",
	  0, 1 },
	{ "docker.sock from the root file system, at /var/run",
	  "1491 1466 259:1 /var/run/docker.sock /var/run/docker.sock "
	  "rw,relatime - ext4 /dev/nvme0n1p1 rw", NULL,
	  "/var/run/docker.sock", "/var/run/docker.sock", "ext4",
	  "/dev/nvme0n1p1", "rw,relatime", "rw", "", 0, 1 },
	{ "containerd.sock",
	  "1492 1466 0:25 /containerd/containerd.sock "
	  "/run/containerd/containerd.sock rw,nosuid,nodev,noexec,relatime "
	  "master:7 - tmpfs tmpfs rw,size=1630164k,mode=755", NULL,
	  "/run/containerd/containerd.sock", "/containerd/containerd.sock",
	  "tmpfs", "tmpfs", "rw,nosuid,nodev,noexec,relatime",
	  "rw,size=1630164k,mode=755", "master:7", 0, 1 },
	/* Other common kinds. */
	{ "btrfs subvolume",
	  "200 29 0:33 /@home /home rw,relatime shared:40 - btrfs "
	  "/dev/nvme0n1p3 rw,ssd,space_cache=v2,subvolid=257,subvol=/@home",
	  NULL, "/home", "/@home", "btrfs", "/dev/nvme0n1p3", "rw,relatime",
	  "rw,ssd,space_cache=v2,subvolid=257,subvol=/@home", "shared:40", 0,
	  1 },
	{ "autofs from systemd",
	  "30 22 0:29 / /proc/sys/fs/binfmt_misc rw,relatime shared:13 - "
	  "autofs systemd-1 rw,fd=29,pgrp=1,timeout=0,minproto=5,maxproto=5,"
	  "direct,pipe_ino=17514", NULL, "/proc/sys/fs/binfmt_misc", "/",
	  "autofs", "systemd-1", "rw,relatime", "rw,fd=29,pgrp=1,timeout=0,"
	  "minproto=5,maxproto=5,direct,pipe_ino=17514", "shared:13", 0, 1 },
	{ "fuse with a subtype",
	  "210 29 0:91 / /home/alice/remote rw,nosuid,nodev,relatime "
	  "shared:300 - fuse.sshfs alice@build01:/home/alice "
	  "rw,user_id=1000,group_id=1000", NULL, "/home/alice/remote", "/",
	  "fuse.sshfs", "alice@build01:/home/alice",
	  "rw,nosuid,nodev,relatime", "rw,user_id=1000,group_id=1000",
	  "shared:300", 0, 1 },
	{ "mount read-write on a read-only superblock",
	  "220 29 0:22 / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs "
	  "ro", NULL, "/sys", "/", "sysfs", "sysfs",
	  "rw,nosuid,nodev,noexec,relatime", "ro", "", 1, 1 },
	{ "super options with a space a filesystem did not escape",
	  "230 29 0:95 / /mnt/odd rw - fuse.odd odd rw,label=a b",
	  NULL, "/mnt/odd", "/", "fuse.odd", "odd", "rw", "rw,label=a b", "",
	  0, 1 },
	/* A backslash that is not \ooo where a file system prints its own
	 * text: kept as written. */
	{ "raw backslash in the super options",
	  "231 29 0:96 / /mnt/odd2 rw - fuse.odd odd rw,path=C:\\data",
	  NULL, "/mnt/odd2", "/", "fuse.odd", "odd", "rw",
	  "rw,path=C:\\x5cdata", "", 0, 1 },
	{ "raw backslash in the source",
	  "232 29 0:97 / /mnt/odd3 rw - fuse.odd C:\\data rw", NULL,
	  "/mnt/odd3", "/", "fuse.odd", "C:\\x5cdata", "rw", "rw", "", 0,
	  1 },
	/* Lines that are not mountinfo lines: skipped, reason kept. */
	{ "too few fields", "1 2 0:1 / / rw - ext4",
	  .skip = "too few fields" },
	{ "no separator", "1 2 0:1 / / rw shared:1 ext4 /dev/x rw",
	  .skip = "separator" },
	{ "nothing after the separator but the type",
	  "1 2 0:1 / /a rw shared:1 shared:2 - ext4",
	  .skip = "after the separator" },
	{ "mount ID not a number", "x 2 0:1 / /a rw - ext4 /dev/x rw",
	  .skip = "mount ID" },
	{ "device not major:minor", "1 2 0-1 / /a rw - ext4 /dev/x rw",
	  .skip = "major:minor" },
	{ "mount point not absolute", "1 2 0:1 / rel rw - ext4 /dev/x rw",
	  .skip = "mount point" },
	{ "bad escape in the mount point", "1 2 0:1 / /a\\9 rw - ext4 /dev/x "
	  "rw", .skip = "escape" },
	{ "\\000 in the mount point", "1 2 0:1 / /a\\000 rw - ext4 /dev/x rw",
	  .skip = "escape" },
	{ "truncated escape", "1 2 0:1 / /a\\04 rw - ext4 /dev/x rw",
	  .skip = "escape" },
	{ "bad escape in the root", "1 2 0:1 /r\\8 /a rw - ext4 /dev/x rw",
	  .skip = "escape" },
	{ "empty line", "", .skip = "empty" },
	{ "a tab instead of spaces",
	  "1\t2\t0:1\t/\t/a\trw\t-\text4\t/dev/x\trw", .skip = "too few fields" },
};

static json_t *
decode_ok(const char *text)
{
	json_t *o = NULL;
	char *why = NULL;
	int r;

	r = fa_mountinfo_decode(text, strlen(text), &o, &why);
	if (r != 0)
		fail_msg("decode: %d %s", r, why != NULL ? why : "");
	assert_null(why);
	assert_true(json_is_object(o));
	return o;
}

static const char *
str(const json_t *m, const char *k)
{
	const char *s = json_string_value(json_object_get(m, k));

	if (s == NULL)
		fail_msg("no string \"%s\"", k);
	return s;
}

static void
check_kept(const struct row *w, const json_t *m)
{
	char opt[512] = "";
	const json_t *v;
	size_t i;

	assert_string_equal(str(m, "mount_point"), w->mount_point);
	assert_string_equal(str(m, "root"), w->root);
	assert_string_equal(str(m, "fstype"), w->fstype);
	assert_string_equal(str(m, "source"), w->source);
	assert_string_equal(str(m, "options"), w->options);
	assert_string_equal(str(m, "super_options"), w->super_options);
	assert_int_equal(json_is_true(json_object_get(m, "read_only")),
	    w->read_only);
	assert_int_equal(json_is_true(json_object_get(m, "root_is_path")),
	    w->root_is_path);
	json_array_foreach(json_object_get(m, "optional_fields"), i, v)
		snprintf(opt + strlen(opt), sizeof(opt) - strlen(opt), "%s%s",
		    i > 0 ? " " : "", json_string_value(v));
	assert_string_equal(opt, w->optional);
}

/* Each row after the ordinary line: kept as decoded, or skipped with its
 * line number and reason while the ordinary line stays. */
static void
table(void **state)
{
	const json_t *mounts, *sk;
	char text[4096];
	json_t *o;
	long long n;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		print_message("row %zu: %s\n", i, rows[i].name);
		snprintf(text, sizeof(text), "%s%s\n", ROOT_LINE, rows[i].line);
		o = decode_ok(text);
		mounts = json_object_get(o, "mounts");
		assert_string_equal(str(json_array_get(mounts, 0),
		    "mount_point"), "/");
		assert_int_equal(fa_json_get_int(o, "lines", 0, 10, &n), 0);
		assert_int_equal(n, 2);
		sk = json_object_get(o, "skipped");
		assert_true(json_is_array(sk));
		if (rows[i].skip == NULL) {
			assert_int_equal(json_array_size(mounts), 2);
			check_kept(&rows[i], json_array_get(mounts, 1));
			assert_int_equal(json_array_size(sk), 0);
			assert_int_equal(fa_json_get_int(o, "lines_skipped", 0,
			    0, &n), 0);
		} else {
			assert_int_equal(json_array_size(mounts), 1);
			assert_int_equal(json_array_size(sk), 1);
			assert_int_equal(fa_json_get_int(o, "lines_skipped", 1,
			    1, &n), 0);
			assert_int_equal(fa_json_get_int(json_array_get(sk, 0),
			    "line", 2, 2, &n), 0);
			if (strstr(str(json_array_get(sk, 0), "why"),
			    rows[i].skip) == NULL)
				fail_msg("reason \"%s\" lacks \"%s\"",
				    str(json_array_get(sk, 0), "why"),
				    rows[i].skip);
		}
		json_decref(o);
	}
}

/* A container's table with every kind at once, in file order, and the
 * skipped lines named. */
static void
mixed(void **state)
{
	static const char text[] =
	    "1466 1178 0:181 / / rw,relatime master:510 - overlay overlay "
	    "rw,lowerdir=/var/lib/docker/overlay2/l/A:/var/lib/docker/overlay2"
	    "/l/B,upperdir=/var/lib/docker/overlay2/9b1d/diff,"
	    "workdir=/var/lib/docker/overlay2/9b1d/work\n"
	    "1467 1466 0:184 / /proc rw,nosuid,nodev,noexec,relatime - proc "
	    "proc rw\n"
	    "garbage\n"
	    "1468 1466 0:4 net:[4026532712] /run/netns/x rw - nsfs nsfs rw\n"
	    "1469 1466 0:25 /docker.sock /run/docker.sock rw,nosuid,nodev,"
	    "noexec,relatime - tmpfs tmpfs rw,size=1630164k,mode=755\n"
	    "1 2 0:1 / /a\\9 rw - ext4 /dev/x rw\n"
	    "1470 1466 0:60 / /data rw,relatime - nfs4 10.0.0.5:/export "
	    "rw,vers=4.2\n";
	const json_t *mounts, *sk;
	json_t *o;
	long long n;

	(void)state;
	o = decode_ok(text);
	mounts = json_object_get(o, "mounts");
	assert_int_equal(json_array_size(mounts), 5);
	assert_string_equal(str(json_array_get(mounts, 0), "fstype"),
	    "overlay");
	assert_string_equal(str(json_array_get(mounts, 2), "root"),
	    "net:[4026532712]");
	assert_string_equal(str(json_array_get(mounts, 3), "mount_point"),
	    "/run/docker.sock");
	assert_string_equal(str(json_array_get(mounts, 4), "source"),
	    "10.0.0.5:/export");
	assert_int_equal(fa_json_get_int(o, "lines", 7, 7, &n), 0);
	assert_int_equal(fa_json_get_int(o, "lines_skipped", 2, 2, &n), 0);
	sk = json_object_get(o, "skipped");
	assert_int_equal(json_array_size(sk), 2);
	assert_int_equal(fa_json_get_int(json_array_get(sk, 0), "line", 3, 3,
	    &n), 0);
	assert_string_equal(str(json_array_get(sk, 0), "text"), "garbage");
	assert_int_equal(fa_json_get_int(json_array_get(sk, 1), "line", 6, 6,
	    &n), 0);
	assert_true(json_is_false(json_object_get(o, "truncated")));
	json_decref(o);
}

/* overlay with a long lowerdir list (an image of 120 layers). */
static void
overlay_long(void **state)
{
	size_t cap = 16384, i;
	char *text = malloc(cap), *super;
	const json_t *m;
	json_t *o;

	(void)state;
	assert_non_null(text);
	snprintf(text, cap, "1466 1178 0:181 / / rw,relatime master:510 - "
	    "overlay overlay rw,lowerdir=");
	for (i = 0; i < 120; i++)
		snprintf(text + strlen(text), cap - strlen(text), "%s/var/lib/"
		    "docker/overlay2/l/L%025zu", i > 0 ? ":" : "", i);
	snprintf(text + strlen(text), cap - strlen(text), ",upperdir=/u,"
	    "workdir=/w,index=off,nfs_export=off,xino=off\n");
	assert_true(strlen(text) > 5000);
	o = decode_ok(text);
	m = json_array_get(json_object_get(o, "mounts"), 0);
	super = strstr(text, "rw,lowerdir=");
	super[strlen(super) - 1] = '\0';
	assert_string_equal(str(m, "super_options"), super);
	json_decref(o);
	free(text);
}

/* The list of skipped lines is bounded; the count is not. */
static void
skipped_bounded(void **state)
{
	char *text = malloc(64 * 200);
	long long n;
	json_t *o;
	size_t i;

	(void)state;
	assert_non_null(text);
	snprintf(text, 64 * 200, "%s", ROOT_LINE);
	for (i = 0; i < 200; i++)
		snprintf(text + strlen(text), 64 * 200 - strlen(text), "%s",
		    "not a mountinfo line\n");
	o = decode_ok(text);
	assert_int_equal(json_array_size(json_object_get(o, "mounts")), 1);
	assert_int_equal(json_array_size(json_object_get(o, "skipped")),
	    FA_MOUNTS_SKIPPED_MAX);
	assert_int_equal(fa_json_get_int(o, "lines_skipped", 200, 200, &n),
	    0);
	json_decref(o);
	free(text);
}

/* More mounts than FA_MOUNTS_MAX: the first ones kept, the rest counted
 * and the table flagged as truncated. */
static void
truncated(void **state)
{
	size_t cap = (FA_MOUNTS_MAX + 3) * 64, i, n;
	char *text = malloc(cap);
	long long v;
	json_t *o;

	(void)state;
	assert_non_null(text);
	for (i = n = 0; i < FA_MOUNTS_MAX + 3; i++)
		n += (size_t)snprintf(text + n, cap - n, "%zu 1 0:%zu / /m/%zu rw "
		    "- tmpfs tmpfs rw\n", i + 2, i + 40, i);
	o = decode_ok(text);
	assert_int_equal(json_array_size(json_object_get(o, "mounts")),
	    FA_MOUNTS_MAX);
	assert_true(json_is_true(json_object_get(o, "truncated")));
	assert_int_equal(fa_json_get_int(o, "lines_not_examined", 3, 3, &v),
	    0);
	assert_int_equal(fa_json_get_int(o, "lines_skipped", 0, 0, &v), 0);
	json_decref(o);
	free(text);
}

/* Nothing decodable at all is not a mount table: an error that names the
 * first line's fault. */
static void
nothing(void **state)
{
	static const char *const bad[] = {
		"", "garbage\n", "1 2 0:1 / / rw - ext4\n", "1 2\0", "\n\n",
	};
	static const size_t len[] = { 0, 8, 22, 4, 2 };
	json_t *o;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = NULL;
		why = NULL;
		assert_int_equal(fa_mountinfo_decode(bad[i], len[i], &o, &why),
		    FA_ERR_INPUT);
		assert_null(o);
		assert_non_null(why);
		free(why);
	}
	why = NULL;
	assert_int_equal(fa_mountinfo_decode("garbage\n", 8, &o, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "line 1"));
	free(why);
}

/* A NUL byte spoils its line only. */
static void
nul_line(void **state)
{
	static const char text[] = ROOT_LINE "1 2 0:1 / /a\0b rw - ext4 "
	    "/dev/x rw\n" "22 21 0:21 / /sys rw - sysfs sysfs rw\n";
	json_t *o = NULL;
	char *why = NULL;
	long long n;

	(void)state;
	assert_int_equal(fa_mountinfo_decode(text, sizeof(text) - 1, &o,
	    &why), 0);
	assert_int_equal(json_array_size(json_object_get(o, "mounts")), 2);
	assert_int_equal(fa_json_get_int(o, "lines_skipped", 1, 1, &n), 0);
	assert_non_null(strstr(str(json_array_get(json_object_get(o,
	    "skipped"), 0), "why"), "NUL"));
	json_decref(o);
}

/* Through a sysroot: skipped lines reach the observation, which stays
 * complete; a file beyond FA_MOUNTINFO_MAX is an error naming the
 * limit. */
static void
collect(void **state)
{
	char dir[] = "/tmp/fa-mountstab-XXXXXX", p[512];
	const struct fa_obs *o;
	struct fa_snapshot *s;
	struct fa_sysroot r;
	size_t it = 0;
	long long n;
	FILE *f;

	(void)state;
	scratch_new(dir);
	scratch_put(dir, "/proc/self/mountinfo", ROOT_LINE
	    "612 21 0:4 net:[4026532712] /run/netns/x rw - nsfs nsfs rw\n"
	    "junk\n");
	assert_int_equal(fa_sysroot_open(dir, &r), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_mounts(&r, s), 0);
	assert_non_null(o = fa_snapshot_next(s, FA_KIND_HOST_MOUNTS, &it));
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	assert_string_equal(o->target, "/proc/self/mountinfo");
	assert_int_equal(json_array_size(json_object_get(o->data, "mounts")),
	    2);
	assert_int_equal(fa_json_get_int(o->data, "lines_skipped", 1, 1, &n),
	    0);
	fa_snapshot_free(s);

	snprintf(p, sizeof(p), "%s/proc/self/mountinfo", dir);
	assert_non_null(f = fopen(p, "w"));
	assert_int_equal(ftruncate(fileno(f), (off_t)FA_MOUNTINFO_MAX + 1), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(s = fa_snapshot_new());
	assert_int_equal(fa_host_collect_mounts(&r, s), 0);
	it = 0;
	assert_non_null(o = fa_snapshot_next(s, FA_KIND_HOST_MOUNTS, &it));
	assert_int_equal(o->state, FA_OBS_ERROR);
	assert_non_null(strstr(o->reason, "larger than the read limit"));
	fa_snapshot_free(s);
	fa_sysroot_close(&r);
	scratch_rm(dir, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(mixed),
		cmocka_unit_test(overlay_long),
		cmocka_unit_test(skipped_bounded),
		cmocka_unit_test(truncated),
		cmocka_unit_test(nothing),
		cmocka_unit_test(nul_line),
		cmocka_unit_test(collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
