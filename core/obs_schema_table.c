/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The declaration of every observation kind a scan writes into a snapshot
 * (or that an older scan wrote and the checks still read), with its family
 * and the top-level fields of its data: JSON type, whether every complete
 * observation has it (FA_FF_REQ), whether it may be null (FA_FF_NULL), and
 * one line on what it holds.  The validator (obs_schema.c) and the
 * OBSERVATIONS section of fabaudit-checks(7) are derived from this table:
 * a writer that adds a field declares it here.  Kinds are in strcmp order.
 *
 * A field is required when this version writes it in every complete
 * observation of its kind (older versions may not have: a snapshot read
 * back is not refused for lacking one).  A field that only an older
 * version wrote, and a kind only older versions wrote, stay declared.
 */
#include <stddef.h>

#include "obs_schema.h"

/* ---- Ethernet ----------------------------------------------------------- */

static const struct fa_obs_field f_eth_arp_scan[] = {
	{ "prefix", FA_FT_STR, FA_FF_REQ,
	    "the IPv4 prefix scanned, \"192.0.2.0/24\"" },
	{ "probed", FA_FT_INT, FA_FF_REQ,
	    "ARP probes sent (at most 1024)" },
	{ "hosts", FA_FT_ARR, FA_FF_REQ,
	    "the hosts that answered: [{ip, mac}]" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_eth_capture[] = {
	{ "source", FA_FT_STR, FA_FF_REQ,
	    "the capture file (and interface in it) or the interface "
	    "listened on" },
	{ "mode", FA_FT_STR, FA_FF_REQ,
	    "\"file\" (--pcap) or \"live\" (--listen)" },
	{ "frames", FA_FT_INT, FA_FF_REQ,
	    "frames counted" },
	{ "bytes", FA_FT_INT, FA_FF_REQ,
	    "bytes of the frames as sent on the wire" },
	{ "truncated", FA_FT_INT, FA_FF_REQ,
	    "frames captured shorter than they were sent" },
	{ "malformed", FA_FT_INT, FA_FF_REQ,
	    "frames that could not be decoded" },
	{ "malformed_examples", FA_FT_ARR, FA_FF_REQ,
	    "the first malformed frames: [{frame, why, signal?}]" },
	{ "malformed_signals", FA_FT_OBJ, FA_FF_REQ,
	    "{signal: frames} whose headers name a signal whose body "
	    "did not decode" },
	{ "tagged", FA_FT_INT, FA_FF_REQ,
	    "frames with at least one VLAN tag" },
	{ "vlans", FA_FT_OBJ, FA_FF_REQ,
	    "{\"VID\": frames} for every VID of every tag captured" },
	{ "signals", FA_FT_OBJ, FA_FF_REQ,
	    "{signal: [{facts, vid, count}]}: the facts heard, "
	    "de-duplicated, sorted" },
	{ "signals_dropped", FA_FT_INT, FA_FF_REQ,
	    "signal entries not kept: their table was full" },
	{ "signals_dropped_by", FA_FT_OBJ, FA_FF_REQ,
	    "{signal: entries not kept}" },
	{ "signals_limit", FA_FT_INT, FA_FF_REQ,
	    "entries kept per signal at most" },
	{ "skipped", FA_FT_OBJ, 0,
	    "{why: frames} counted but not judged (sent by this host, "
	    "not Ethernet)" },
	{ "vlans_cut", FA_FT_OBJ, 0,
	    "{\"VID\": frames of it the capture cut short}" },
	{ "seconds", FA_FT_INT, 0,
	    "live only: seconds listened" },
	{ "linktype", FA_FT_STR, 0,
	    "file only: the link type of the interface (\"EN10MB\")" },
	{ "mixed_interfaces", FA_FT_BOOL, 0,
	    "file only: true when one stream holds several interfaces' "
	    "frames (LINUX_SLL)" },
	{ "interface", FA_FT_ANY, 0,
	    "file only: pcapng, the interface's name (string) or index in "
	    "the file (integer); pcap LINUX_SLL2, the ifindex (integer)" },
	{ "ifindex", FA_FT_INT, 0,
	    "pcapng LINUX_SLL2 only: the ifindex of the frames" },
	{ "interface_drops", FA_FT_INT, 0,
	    "pcapng only: frames the capturing interface dropped" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_eth_links[] = {
	{ "links", FA_FT_ARR, FA_FF_REQ,
	    "[{name, ifindex, type, mac, up, operstate, master, link, "
	    "vlan_id, vlan_protocol, num_vf}]" },
	{ "addrs", FA_FT_ARR, FA_FF_REQ,
	    "[{ifindex, family, local, prefixlen}]" },
	{ "routes", FA_FT_ARR, FA_FF_REQ,
	    "[{dst, table, gateway, ifindex}], at most 4096" },
	{ "neighbours", FA_FT_ARR, FA_FF_REQ,
	    "[{dst, lladdr, ifindex, state}], at most 4096" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_eth_reach[] = {
	{ "role", FA_FT_STR, FA_FF_REQ,
	    "\"mgmt_target\" or \"foreign_target\"" },
	{ "net", FA_FT_STR, FA_FF_REQ,
	    "the policy's network, \"ADDRESS/PREFIX\"" },
	{ "line", FA_FT_INT, FA_FF_REQ,
	    "the policy line that names it" },
	{ "hosts_total", FA_FT_INT, FA_FF_REQ,
	    "host addresses in the network" },
	{ "hosts_probed", FA_FT_INT, FA_FF_REQ,
	    "host addresses probed (at most 256)" },
	{ "probes", FA_FT_ARR, FA_FF_REQ,
	    "[{host, probe, outcome, ms, detail?, tls?}]" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_eth_vlan_probe[] = {
	{ "sent", FA_FT_ARR, FA_FF_REQ,
	    "the raw tagged probes sent: [{vid, outer, target}]" },
	{ "replies", FA_FT_ARR, FA_FF_REQ,
	    "ARP replies from the targets: [{target, mac, vid}]" },
	{ "outer_source", FA_FT_STR, FA_FF_REQ,
	    "where the outer VLAN of the double-tagged probes came from" },
	{ "methods", FA_FT_ARR, FA_FF_REQ,
	    "per VID: [{vid, method, why}], a VLAN device or raw tagged "
	    "frames" },
	{ NULL, 0, 0, NULL }
};

/* ---- Host --------------------------------------------------------------- */

static const struct fa_obs_field f_host_binary[] = {
	{ "path", FA_FT_STR, FA_FF_REQ,
	    "the file's path" },
	{ "component", FA_FT_STR, FA_FF_REQ,
	    "\"runc\", \"containerd\", \"dockerd\" or \"buildkitd\"" },
	{ "version", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "the version as found, null when no rule gave one" },
	{ "upstream", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "the version as an upstream version, leading \"v\" dropped, or "
	    "null" },
	{ "upstream_error", FA_FT_STR, 0,
	    "why the version is not an upstream version" },
	{ "rule", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "the rule that gave the version, or null" },
	{ "go_version", FA_FT_STR, FA_FF_REQ,
	    "the Go release that built it, \"go1.22.5\"" },
	{ "main_package", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "the build information's main package path" },
	{ "main_module", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "the build information's main module path" },
	{ "module_version", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "the main module's version, \"(devel)\" for a local build" },
	{ "found_by", FA_FT_STR, FA_FF_REQ,
	    "where the build information was found (\"section "
	    ".go.buildinfo\", \"PT_LOAD scan\")" },
	{ "buildkit_module", FA_FT_STR, 0,
	    "the version of the github.com/moby/buildkit module linked in" },
	{ "aliases", FA_FT_ARR, 0,
	    "other paths of the same file" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_cdi[] = {
	{ "dirs", FA_FT_ARR, FA_FF_REQ,
	    "[{path, listed, missing?, reason?, specs?: [{name, nvidia, "
	    "cuda_compat_hook} or {name, unread}]}]" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_ctk_config[] = {
	{ "values", FA_FT_OBJ, FA_FF_REQ,
	    "{\"table.key\": value}: strings, booleans, integers, arrays "
	    "of strings" },
	{ "unparsed", FA_FT_ARR, FA_FF_REQ,
	    "line numbers outside the subset read" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_ctk_probe[] = {
	{ "probes", FA_FT_ARR, FA_FF_REQ,
	    "[{path, role, exists?, text?, reason?}]; role \"tegra-release\", "
	    "\"soc-family\" or \"hook\"" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_cvedb[] = {
	{ "path", FA_FT_STR, FA_FF_REQ,
	    "where the catalogue was loaded from" },
	{ "catalogue", FA_FT_OBJ, FA_FF_REQ,
	    "the CVE catalogue as loaded and validated" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_devices[] = {
	{ "dirs", FA_FT_ARR, FA_FF_REQ,
	    "/dev and the directories under it, breadth first: [{path, "
	    "listed, absent?, reason?, unread?, unread_count?}]" },
	{ "nodes", FA_FT_ARR, FA_FF_REQ,
	    "character and block devices: [{path, type, major, minor, "
	    "mode, uid, gid}]" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_lsm[] = {
	{ "current", FA_FT_STR, 0,
	    "/proc/self/attr/current, the first line" },
	{ "apparmor_current", FA_FT_STR, 0,
	    "/proc/self/attr/apparmor/current" },
	{ "apparmor_enabled", FA_FT_STR, 0,
	    "/sys/module/apparmor/parameters/enabled" },
	{ "selinux_enforce", FA_FT_STR, 0,
	    "/sys/fs/selinux/enforce" },
	{ "lsm_list", FA_FT_STR, 0,
	    "/sys/kernel/security/lsm" },
	{ "unread", FA_FT_OBJ, FA_FF_REQ,
	    "{field: \"PATH: why\"} for each file not read" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_mounts[] = {
	{ "mounts", FA_FT_ARR, FA_FF_REQ,
	    "[{mount_id, parent_id, device, root, root_is_path, mount_point, "
	    "options, optional_fields, fstype, source, super_options, "
	    "super_read_only, read_only}]" },
	{ "lines", FA_FT_INT, FA_FF_REQ,
	    "lines read" },
	{ "lines_skipped", FA_FT_INT, FA_FF_REQ,
	    "lines not understood" },
	{ "skipped", FA_FT_ARR, FA_FF_REQ,
	    "the first lines skipped: [{line, why, text}]" },
	{ "truncated", FA_FT_BOOL, FA_FF_REQ,
	    "true when more than 20000 mounts: the rest not examined" },
	{ "lines_not_examined", FA_FT_INT, FA_FF_REQ,
	    "lines after the 20000th mount" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_namespaces[] = {
	{ "kernel", FA_FT_STR, 0,
	    "the kernel release, \"MAJOR.MINOR\"" },
	{ "ipc", FA_FT_OBJ, 0,
	    "{inode, initial or initial_unknown, pid1?} or {unreadable}" },
	{ "uts", FA_FT_OBJ, 0,
	    "the same for the UTS namespace" },
	{ "user", FA_FT_OBJ, 0,
	    "the same for the user namespace" },
	{ "pid", FA_FT_OBJ, 0,
	    "the same for the PID namespace" },
	{ "cgroup", FA_FT_OBJ, 0,
	    "the same for the cgroup namespace" },
	{ "time", FA_FT_OBJ, 0,
	    "the same for the time namespace" },
	{ "net", FA_FT_OBJ, 0,
	    "the same for the network namespace" },
	{ "mnt", FA_FT_OBJ, 0,
	    "the same for the mount namespace" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_os[] = {
	{ "id", FA_FT_STR, FA_FF_REQ,
	    "ID, \"\" when absent or refused" },
	{ "version_id", FA_FT_STR, FA_FF_REQ,
	    "VERSION_ID, or \"\"" },
	{ "codename", FA_FT_STR, FA_FF_REQ,
	    "VERSION_CODENAME, or \"\"" },
	{ "id_like", FA_FT_STR, FA_FF_REQ,
	    "ID_LIKE, or \"\"" },
	{ "source", FA_FT_STR, FA_FF_REQ,
	    "the file read" },
	{ "values_refused", FA_FT_INT, FA_FF_REQ,
	    "values that were not plain lower-case names" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_package[] = {
	{ "source", FA_FT_STR, FA_FF_REQ,
	    "the package database's path" },
	{ "package", FA_FT_STR, 0,
	    "a package: its name" },
	{ "component", FA_FT_STR, 0,
	    "a package: the component it provides (\"runc\")" },
	{ "version", FA_FT_STR, 0,
	    "a package: its version as the database has it" },
	{ "upstream", FA_FT_STR, 0,
	    "a package: the upstream version in it, when one reads so" },
	{ "source_package", FA_FT_STR, 0,
	    "a package: its source package, \"\" unknown" },
	{ "origin", FA_FT_STR, 0,
	    "a package: who built it, from its maintainer or vendor" },
	{ "status", FA_FT_STR, 0,
	    "a dpkg package: its Status, \"install ok installed\"" },
	{ "want", FA_FT_STR, 0,
	    "a dpkg package: the first word of Status" },
	{ "eflag", FA_FT_STR, 0,
	    "a dpkg package: the second word of Status" },
	{ "state", FA_FT_STR, 0,
	    "a dpkg package: the third word of Status" },
	{ "maintainer", FA_FT_STR, 0,
	    "a dpkg package: its Maintainer" },
	{ "vendor", FA_FT_STR, 0,
	    "an RPM package: its Vendor" },
	{ "manager", FA_FT_STR, 0,
	    "an RPM package: \"rpm\"" },
	{ "packages", FA_FT_INT, 0,
	    "the database: packages of interest recorded (dpkg), packages "
	    "in it (rpm)" },
	{ "uncertain", FA_FT_INT, 0,
	    "the dpkg database: packages recorded whose files may not be of "
	    "their version" },
	{ "stanzas", FA_FT_INT, 0,
	    "the dpkg database: stanzas read" },
	{ "skipped", FA_FT_INT, 0,
	    "the dpkg database: stanzas that did not parse" },
	{ "skipped_stanzas", FA_FT_ARR, 0,
	    "the dpkg database: the first stanzas skipped, [{line, package, "
	    "why}]" },
	{ "backend", FA_FT_STR, 0,
	    "the RPM database: its format (\"sqlite\", \"bdb\"...)" },
	{ "found", FA_FT_INT, 0,
	    "the RPM database: packages of interest recorded" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_path[] = {
	{ "path", FA_FT_STR, FA_FF_REQ,
	    "the path stat'ed" },
	{ "role", FA_FT_STR, FA_FF_REQ,
	    "why it is looked at (\"runtime-socket:docker\", "
	    "\"k8s-token\"...)" },
	{ "exists", FA_FT_BOOL, FA_FF_REQ,
	    "whether the path exists" },
	{ "type", FA_FT_STR, 0,
	    "\"file\", \"dir\", \"symlink\", \"socket\", \"char\", "
	    "\"block\", \"fifo\" or \"other\"" },
	{ "mode", FA_FT_STR, 0,
	    "mode bits (07777) in octal, \"0660\"" },
	{ "uid", FA_FT_INT, 0,
	    "owner" },
	{ "gid", FA_FT_INT, 0,
	    "group" },
	{ "size", FA_FT_INT, 0,
	    "size in bytes" },
	{ "inode", FA_FT_STR, 0,
	    "\"DEVICE:INODE\", to tell two paths of one file" },
	{ "found_by", FA_FT_STR, 0,
	    "a socket found rather than looked for: \"mountinfo\" or "
	    "\"/proc/net/unix\"" },
	{ "mount", FA_FT_STR, 0,
	    "found by the mount search: the mount point it is under" },
	{ "mount_root", FA_FT_STR, 0,
	    "found by the mount search: the bind mount's root" },
	{ "fstype", FA_FT_STR, 0,
	    "found by the mount search: the bind mount's file system type" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_proc_status[] = {
	{ "uid", FA_FT_ARR, FA_FF_REQ,
	    "Uid: real, effective, saved, file system" },
	{ "gid", FA_FT_ARR, 0,
	    "Gid: real, effective, saved, file system" },
	{ "groups", FA_FT_ARR, 0,
	    "Groups: supplementary group ids" },
	{ "cap_inh", FA_FT_STR, 0,
	    "CapInh, \"0x%016x\"" },
	{ "cap_prm", FA_FT_STR, 0,
	    "CapPrm, \"0x%016x\"" },
	{ "cap_eff", FA_FT_STR, FA_FF_REQ,
	    "CapEff, \"0x%016x\"" },
	{ "cap_bnd", FA_FT_STR, 0,
	    "CapBnd, \"0x%016x\"" },
	{ "cap_amb", FA_FT_STR, 0,
	    "CapAmb, \"0x%016x\"" },
	{ "no_new_privs", FA_FT_INT, 0,
	    "NoNewPrivs, 0 or 1" },
	{ "seccomp", FA_FT_INT, 0,
	    "Seccomp: 0 off, 1 strict, 2 filter" },
	{ "seccomp_filters", FA_FT_INT, 0,
	    "Seccomp_filters: filters installed" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_sockets[] = {
	{ "mounts", FA_FT_INT, FA_FF_REQ,
	    "mount table entries read" },
	{ "socket_mounts", FA_FT_ARR, FA_FF_REQ,
	    "sockets bind-mounted as files: [{path, root, fstype}]" },
	{ "dirs_searched", FA_FT_INT, FA_FF_REQ,
	    "directory mounts searched" },
	{ "names", FA_FT_INT, FA_FF_REQ,
	    "socket names tried in each directory mount" },
	{ "unread", FA_FT_ARR, FA_FF_REQ,
	    "paths that could not be stat'ed: [{path, reason}], the first "
	    "64" },
	{ "unread_count", FA_FT_INT, FA_FF_REQ,
	    "paths that could not be stat'ed" },
	{ "not_searched", FA_FT_ARR, FA_FF_REQ,
	    "mount points not searched, past the search's stat budget, the "
	    "first 64" },
	{ "not_searched_count", FA_FT_INT, FA_FF_REQ,
	    "mount points not searched" },
	{ "remote", FA_FT_ARR, FA_FF_REQ,
	    "network and FUSE mount points, not searched, the first 64" },
	{ "remote_count", FA_FT_INT, FA_FF_REQ,
	    "network and FUSE mount points" },
	{ "unparsed", FA_FT_INT, FA_FF_REQ,
	    "mount table lines or entries not understood" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_sysctl[] = {
	{ "value", FA_FT_INT, FA_FF_REQ,
	    "the file's integer" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_tenancy[] = {
	{ "cgroup_1", FA_FT_ARR, 0,
	    "the lines of /proc/1/cgroup" },
	{ "cgroup_self", FA_FT_ARR, 0,
	    "the lines of /proc/self/cgroup" },
	{ "dmi", FA_FT_OBJ, FA_FF_REQ,
	    "{sys_vendor, product_name, board_vendor, bios_vendor}, those "
	    "read" },
	{ "hypervisor_type", FA_FT_STR, 0,
	    "/sys/hypervisor/type" },
	{ "cpu_hypervisor", FA_FT_BOOL, 0,
	    "the \"hypervisor\" CPU flag in /proc/cpuinfo" },
	{ "net_ifaces", FA_FT_ARR, 0,
	    "the names in /sys/class/net" },
	{ "net_ifaces_physical", FA_FT_ARR, 0,
	    "interfaces with a device that is no SR-IOV VF" },
	{ "net_ifaces_vf", FA_FT_ARR, 0,
	    "interfaces whose device is an SR-IOV VF" },
	{ "net_ifaces_virtio", FA_FT_ARR, 0,
	    "interfaces whose device is virtio" },
	{ "pid1_comm", FA_FT_STR, 0,
	    "/proc/1/comm" },
	{ "container_manager", FA_FT_STR, 0,
	    "/run/systemd/container" },
	{ "host_container_manager", FA_FT_STR, 0,
	    "/run/host/container-manager" },
	{ "dt_hypervisor", FA_FT_STR, 0,
	    "/proc/device-tree/hypervisor/compatible" },
	{ "environ_container", FA_FT_STR, 0,
	    "the scan's own container= environment variable" },
	{ "environ_kubernetes", FA_FT_BOOL, 0,
	    "whether KUBERNETES_SERVICE_HOST is set for the scan" },
	{ "unread", FA_FT_OBJ, FA_FF_REQ,
	    "{field: \"PATH: why\"} for each source not read" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_unix[] = {
	{ "sockets", FA_FT_INT, FA_FF_REQ,
	    "socket records read" },
	{ "listening", FA_FT_ARR, FA_FF_REQ,
	    "[{name, abstract, type, inode, class, api?, shown?}]: every "
	    "identified one, the first 256 others" },
	{ "listening_count", FA_FT_INT, FA_FF_REQ,
	    "listening sockets" },
	{ "unidentified", FA_FT_INT, FA_FF_REQ,
	    "listening sockets whose name identifies nothing" },
	{ "skipped", FA_FT_ARR, FA_FF_REQ,
	    "lines not understood: [{line, reason}], the first 64" },
	{ "skipped_count", FA_FT_INT, FA_FF_REQ,
	    "lines not understood" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_userns[] = {
	{ "map", FA_FT_ARR, FA_FF_REQ,
	    "/proc/self/uid_map: [[inside, outside, count]]" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_host_version[] = {
	{ "component", FA_FT_STR, FA_FF_REQ,
	    "\"kernel\" or \"nvidia-driver\"" },
	{ "version", FA_FT_STR, FA_FF_REQ,
	    "the version read, validated" },
	{ "source", FA_FT_STR, FA_FF_REQ,
	    "the file read" },
	{ "debian_package", FA_FT_OBJ, 0,
	    "the kernel: the Debian package's {version, source}, from "
	    "/proc/version" },
	{ NULL, 0, 0, NULL }
};

/* ---- InfiniBand --------------------------------------------------------- */

static const struct fa_obs_field f_ib_active_gmp_reach[] = {
	{ "lid", FA_FT_INT, FA_FF_REQ,
	    "the port's LID" },
	{ "node_desc", FA_FT_STR, FA_FF_REQ,
	    "its node's NodeDescription" },
	{ "port_guid", FA_FT_STR, FA_FF_REQ,
	    "its port GUID, \"0x%016x\"" },
	{ "pkey", FA_FT_STR, FA_FF_REQ,
	    "the P_Key sent with, \"0x%04x\"" },
	{ "pkey_index", FA_FT_INT, FA_FF_REQ,
	    "its index in our P_Key table" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the Get was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_active_mkey_set[] = {
	{ "lid", FA_FT_INT, FA_FF_REQ,
	    "the port's LID" },
	{ "node_desc", FA_FT_STR, FA_FF_REQ,
	    "its node's NodeDescription" },
	{ "port_guid", FA_FT_STR, FA_FF_REQ,
	    "its port GUID, \"0x%016x\"" },
	{ "violations_before", FA_FT_INT, FA_FF_REQ,
	    "M_KeyViolations as discovery read it" },
	{ "mkey_lease", FA_FT_INT, FA_FF_REQ,
	    "M_KeyLeasePeriod, s" },
	{ "violations_after", FA_FT_INT, 0,
	    "M_KeyViolations read after the Set" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the Set's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the Set was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_engine[] = {
	{ "sent", FA_FT_INT, FA_FF_REQ,
	    "MADs sent, resends included" },
	{ "answered", FA_FT_INT, FA_FF_REQ,
	    "requests answered, whatever the status" },
	{ "lost", FA_FT_INT, FA_FF_REQ,
	    "requests that lost a send: recovered + unanswered" },
	{ "lost_sends", FA_FT_INT, FA_FF_REQ,
	    "sends that went unanswered, those of single-send probes "
	    "excepted" },
	{ "recovered", FA_FT_INT, FA_FF_REQ,
	    "lost requests answered by a resend" },
	{ "unanswered", FA_FT_INT, FA_FF_REQ,
	    "lost requests never answered" },
	{ "silent", FA_FT_INT, FA_FF_REQ,
	    "single-send probes left unanswered (expected, not loss)" },
	{ "no_agent", FA_FT_INT, FA_FF_REQ,
	    "answered \"class or method not supported\"" },
	{ "send_errors", FA_FT_INT, FA_FF_REQ,
	    "requests the local stack refused" },
	{ "cut", FA_FT_INT, FA_FF_REQ,
	    "requests ended by --max-time" },
	{ "finished", FA_FT_INT, FA_FF_REQ,
	    "requests finished" },
	{ "resent", FA_FT_INT, FA_FF_REQ,
	    "sends after a request's first" },
	{ "malformed", FA_FT_INT, FA_FF_REQ,
	    "answers ignored: too short, or not what was asked" },
	{ "busy", FA_FT_INT, FA_FF_REQ,
	    "busy answers (the request resent)" },
	{ "stray", FA_FT_INT, FA_FF_REQ,
	    "answers matching no request" },
	{ "captured", FA_FT_INT, FA_FF_REQ,
	    "MADs written to the capture (mads.pcap), 0 without one" },
	{ "max_outstanding", FA_FT_INT, FA_FF_REQ,
	    "the window: requests in flight at most" },
	{ "per_destination", FA_FT_INT, FA_FF_REQ,
	    "requests in flight to one destination at most" },
	{ "max_inflight", FA_FT_INT, FA_FF_REQ,
	    "requests in flight at once, the highest seen" },
	{ "max_inflight_per_destination", FA_FT_INT, FA_FF_REQ,
	    "requests in flight to one destination (the SA excepted), the "
	    "highest seen" },
	{ "sa_per_destination", FA_FT_INT, FA_FF_REQ,
	    "requests in flight to the SA at most" },
	{ "max_inflight_to_sa", FA_FT_INT, FA_FF_REQ,
	    "requests in flight to the SA, the highest seen" },
	{ "destinations", FA_FT_INT, FA_FF_REQ,
	    "destinations sent to" },
	{ "audit_ms", FA_FT_INT, FA_FF_REQ,
	    "time of the audit phases, ms" },
	{ "discovery", FA_FT_OBJ, FA_FF_REQ,
	    "libibnetdisc's MADs: {sent, answered, lost_sends, held, "
	    "malformed, failed, recovered, max_outstanding, "
	    "per_destination, max_inflight, max_inflight_per_destination, "
	    "ms, tapped}; tapped false: its SMPs did not pass through the "
	    "tap (not captured, not paced)" },
	{ NULL, 0, 0, NULL }
};

/* Before ib.gmp.key_probes: one observation per node and class. */
static const struct fa_obs_field f_ib_gmp_key_probe[] = {
	{ "class", FA_FT_STR, FA_FF_REQ,
	    "\"cc\", \"vs\" or \"am\"" },
	{ "attribute", FA_FT_STR, FA_FF_REQ,
	    "the attribute asked for" },
	{ "lid", FA_FT_INT, 0,
	    "the node's LID" },
	{ "node_desc", FA_FT_STR, 0,
	    "its NodeDescription" },
	{ "node_type", FA_FT_STR, 0,
	    "\"CA\", \"Switch\" or \"Router\"" },
	{ "mad_status", FA_FT_INT, 0,
	    "the answer's MAD status" },
	{ "sends", FA_FT_INT, 0,
	    "times the Get was sent" },
	{ "cc_key", FA_FT_SECRET, 0,
	    "CC answered: the CC_Key" },
	{ "protect", FA_FT_INT, 0,
	    "CC answered: CC_KeyProtectBit" },
	{ "lease", FA_FT_INT, 0,
	    "CC answered: CC_KeyLeasePeriod, s" },
	{ "violations", FA_FT_INT, 0,
	    "CC answered: CC_KeyViolations" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_gmp_key_probes[] = {
	{ "class", FA_FT_STR, FA_FF_REQ,
	    "\"cc\", \"vs\" or \"am\"" },
	{ "attribute", FA_FT_STR, FA_FF_REQ,
	    "the attribute asked for (\"CongestionKeyInfo\", "
	    "\"GeneralInfo\", \"ClassPortInfo\")" },
	{ "nodes", FA_FT_ARR, FA_FF_REQ,
	    "[{target, lid, node_desc, node_type, state, mad_status?, "
	    "cc_key?, protect?, lease?, violations?}], by target" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_local_port[] = {
	{ "ca", FA_FT_STR, FA_FF_REQ,
	    "the CA's name" },
	{ "port", FA_FT_INT, FA_FF_REQ,
	    "the port number" },
	{ "lid", FA_FT_INT, FA_FF_REQ,
	    "its LID" },
	{ "sm_lid", FA_FT_INT, FA_FF_REQ,
	    "the master SM's LID, 0 when none" },
	{ "port_guid", FA_FT_STR, FA_FF_REQ,
	    "the port GUID, \"0x%016x\"" },
	{ "subnet_prefix", FA_FT_STR, FA_FF_REQ,
	    "the GID prefix, \"0x%016x\"" },
	{ "node_guid", FA_FT_STR, FA_FF_REQ,
	    "the node GUID (the port GUID when NodeInfo went unanswered)" },
	{ "node_type", FA_FT_STR, FA_FF_REQ,
	    "\"CA\", \"Switch\", \"Router\" or \"Unknown\"" },
	{ "node_desc", FA_FT_STR, FA_FF_REQ,
	    "NodeDescription, \"\" when not read" },
	{ "partition_cap", FA_FT_INT, FA_FF_REQ,
	    "NodeInfo PartitionCap: P_Key table entries" },
	{ "node_info_answered", FA_FT_BOOL, FA_FF_REQ,
	    "whether NodeInfo was read" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_sa_alive_after[] = {
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the Get was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_sa_path_record[] = {
	{ "lid", FA_FT_INT, FA_FF_REQ,
	    "the port's LID, the paths' DLID" },
	{ "node_desc", FA_FT_STR, FA_FF_REQ,
	    "its node's NodeDescription" },
	{ "port_guid", FA_FT_STR, FA_FF_REQ,
	    "its port GUID, \"0x%016x\"" },
	{ "records", FA_FT_INT, FA_FF_REQ,
	    "path records to it" },
	{ "pkeys", FA_FT_ARR, FA_FF_REQ,
	    "the records' P_Keys, \"0x%04x\"" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the query was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_sa_path_table[] = {
	{ "bytes", FA_FT_INT, FA_FF_REQ,
	    "length of the answer, bytes" },
	{ "records", FA_FT_INT, FA_FF_REQ,
	    "records used, 0 when the table was not used" },
	{ "complete", FA_FT_BOOL, FA_FF_REQ,
	    "whether the table was whole and used" },
	{ "per_port", FA_FT_BOOL, FA_FF_REQ,
	    "whether one query per port followed instead" },
	{ "why_per_port", FA_FT_STR, FA_FF_REQ | FA_FF_NULL,
	    "why the table was not used, or null" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the query was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_sa_pkey_table_record[] = {
	{ "sm_key_sent", FA_FT_STR, FA_FF_REQ,
	    "the SM_Key sent: \"0\" or \"1 (OpenSM default)\"" },
	{ "trusted_query", FA_FT_BOOL, FA_FF_REQ,
	    "whether a non-zero SM_Key was sent" },
	{ "records", FA_FT_INT, FA_FF_REQ,
	    "records in the answer" },
	{ "single_shot", FA_FT_BOOL, 0,
	    "true when sent once, never retried" },
	{ "role", FA_FT_STR, 0,
	    "another port's table: \"remote\"" },
	{ "node_desc", FA_FT_STR, 0,
	    "another port's table: its node's NodeDescription" },
	{ "port_guid", FA_FT_STR, 0,
	    "another port's table: its port GUID, \"0x%016x\"" },
	{ "blocks_total", FA_FT_INT, 0,
	    "another port's table: blocks asked for (1)" },
	{ "blocks_read", FA_FT_INT, 0,
	    "another port's table: blocks read (0 or 1)" },
	{ "pkeys", FA_FT_ARR, 0,
	    "another port's table: the non-zero P_Keys, \"0x%04x\"" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the query was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_sa_sminfo_records[] = {
	{ "sms", FA_FT_ARR, FA_FF_REQ,
	    "the SMs the SA knows: [{lid, priority, state, guid}]" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sends", FA_FT_INT, FA_FF_REQ,
	    "times the query was sent" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_smp_pkey_table[] = {
	{ "role", FA_FT_STR, FA_FF_REQ,
	    "\"local\" (our port) or \"remote\"" },
	{ "lid", FA_FT_INT, FA_FF_REQ,
	    "the port's LID" },
	{ "node_desc", FA_FT_STR, FA_FF_REQ,
	    "its node's NodeDescription" },
	{ "port_guid", FA_FT_STR, FA_FF_REQ,
	    "its port GUID, \"0x%016x\"" },
	{ "partition_cap", FA_FT_INT, FA_FF_REQ,
	    "NodeInfo PartitionCap: P_Key table entries" },
	{ "blocks_total", FA_FT_INT, FA_FF_REQ,
	    "blocks of 32 entries asked for" },
	{ "blocks_read", FA_FT_INT, FA_FF_REQ,
	    "blocks read" },
	{ "pkeys", FA_FT_ARR, FA_FF_REQ,
	    "the non-zero P_Keys, \"0x%04x\", in table order" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_smp_sminfo[] = {
	{ "lid", FA_FT_INT, FA_FF_REQ,
	    "the SM port's LID" },
	{ "found_by", FA_FT_ARR, FA_FF_REQ,
	    "how it was found: \"local PortInfo MasterSMLID\", \"PortInfo "
	    "CapabilityMask IsSM\"" },
	{ "node_desc", FA_FT_STR, 0,
	    "discovered: its node's NodeDescription" },
	{ "port_guid", FA_FT_STR, 0,
	    "discovered: its port GUID, \"0x%016x\"" },
	{ "node_guid", FA_FT_STR, 0,
	    "discovered: its node GUID, \"0x%016x\"" },
	{ "node_type", FA_FT_STR, 0,
	    "discovered: \"CA\", \"Switch\" or \"Router\"" },
	{ "port_num", FA_FT_INT, 0,
	    "discovered: its port number (0 on a switch)" },
	{ "mad_status", FA_FT_INT, FA_FF_REQ,
	    "the answer's MAD status, 0 when none" },
	{ "sm_key", FA_FT_SECRET, FA_FF_REQ,
	    "the SM_Key, with \"well_known\" (0 or 1)" },
	{ "guid", FA_FT_STR, FA_FF_REQ,
	    "SMInfo GUID, \"0x%016x\"" },
	{ "priority", FA_FT_INT, FA_FF_REQ,
	    "SMInfo Priority, 0-15" },
	{ "state", FA_FT_INT, FA_FF_REQ,
	    "SMInfo SMState: 0 not active, 1 discovering, 2 standby, "
	    "3 master" },
	{ "act_count", FA_FT_INT, FA_FF_REQ,
	    "SMInfo ActCount" },
	{ NULL, 0, 0, NULL }
};

static const struct fa_obs_field f_ib_topology[] = {
	{ "nodes", FA_FT_ARR, FA_FF_REQ,
	    "[{type, desc, num_ports, partition_cap, guid, ports: [...]}]; "
	    "a port's M_Key is a secret" },
	{ "max_hops", FA_FT_INT, FA_FF_REQ,
	    "the deepest directed route discovery went" },
	{ "smps_used", FA_FT_INT, FA_FF_REQ,
	    "SMPs libibnetdisc counted" },
	{ "captured", FA_FT_INT, FA_FF_REQ,
	    "discovery MADs written to the capture" },
	{ "unexplored", FA_FT_ARR, FA_FF_REQ,
	    "ports not observed: [{type, desc, port, guid, why, lid?, "
	    "state?, phys_state?}]" },
	{ "unexplored_count", FA_FT_INT, FA_FF_REQ,
	    "ports not observed" },
	{ "unexplored_only", FA_FT_BOOL, 0,
	    "true when unexplored ports are all that made it incomplete" },
	{ NULL, 0, 0, NULL }
};

/* ---- Every family ------------------------------------------------------- */

static const struct fa_obs_field f_scan_max_time[] = {
	{ "max_time", FA_FT_INT, FA_FF_REQ,
	    "the budget, --max-time, s" },
	{ NULL, 0, 0, NULL }
};

const struct fa_obs_kind fa_obs_kinds[] = {
	{ "eth.arp_scan", FA_FAM_ETH, f_eth_arp_scan,
	    "--active: ARP probes to every address of one IPv4 prefix of an "
	    "interface, target \"IFACE PREFIX\" (fabric/eth_active.c)" },
	{ "eth.capture", FA_FAM_ETH, f_eth_capture,
	    "what the wire showed, one per capture source (--pcap, "
	    "--listen) (fabric/eth_capture.c)" },
	{ "eth.links", FA_FAM_ETH, f_eth_links,
	    "links, addresses, routes and neighbours from netlink, target "
	    "\"netlink\" (fabric/eth_live.c)" },
	{ "eth.reach", FA_FAM_ETH, f_eth_reach,
	    "TCP, UDP and ICMP probes of one policy target, target "
	    "\"ROLE:NET\" (fabric/eth_reach.c)" },
	{ "eth.vlan_probe", FA_FAM_ETH, f_eth_vlan_probe,
	    "--active: tagged ARP probes into the policy's foreign VLANs, "
	    "one per interface (fabric/eth_active.c)" },
	{ "host.binary", FA_FAM_HOST, f_host_binary,
	    "the Go build information of a runtime's ELF file, target its "
	    "path (fabric/host_gobuild.c)" },
	{ "host.cdi", FA_FAM_HOST, f_host_cdi,
	    "the CDI spec directories /etc/cdi and /var/run/cdi, target "
	    "\"cdi\" (fabric/host_ctk.c)" },
	{ "host.ctk.config", FA_FAM_HOST, f_host_ctk_config,
	    "an NVIDIA Container Toolkit config.toml, target its path "
	    "(fabric/host_ctk.c)" },
	{ "host.ctk.probe", FA_FAM_HOST, f_host_ctk_probe,
	    "the files the toolkit's \"auto\" mode depends on, target "
	    "\"toolkit\" (fabric/host_ctk.c)" },
	{ "host.cvedb", FA_FAM_HOST, f_host_cvedb,
	    "the CVE catalogue the scan used, target its path "
	    "(fabric/host_collect.c)" },
	{ "host.devices", FA_FAM_HOST, f_host_devices,
	    "the device nodes under /dev, target \"/dev\" "
	    "(fabric/host_paths.c)" },
	{ "host.lsm", FA_FAM_HOST, f_host_lsm,
	    "the scan's LSM label and the LSMs enabled, target "
	    "\"/proc/self/attr\" (fabric/host_ident.c)" },
	{ "host.mounts", FA_FAM_HOST, f_host_mounts,
	    "the mount table, target \"/proc/self/mountinfo\" "
	    "(fabric/host_mounts.c)" },
	{ "host.namespaces", FA_FAM_HOST, f_host_namespaces,
	    "the scan's namespaces and whether each is the initial one, "
	    "target \"/proc/self/ns\" (fabric/host_ns.c)" },
	{ "host.os", FA_FAM_HOST, f_host_os,
	    "/etc/os-release, target \"os-release\" (fabric/host_osrel.c)" },
	{ "host.package", FA_FAM_HOST, f_host_package,
	    "a container-stack package (target \"dpkg:NAME\", \"rpm:NAME\") "
	    "or its database (\"dpkg\", \"rpm\") (fabric/host_dpkg.c, "
	    "host_rpm.c)" },
	{ "host.path", FA_FAM_HOST, f_host_path,
	    "a stat of a sensitive path: runtime socket, token, marker, "
	    "kernel interface, target the path (fabric/host_paths.c, "
	    "host_unix.c)" },
	{ "host.proc.status", FA_FAM_HOST, f_host_proc_status,
	    "the scan's ids, capabilities and seccomp, target "
	    "\"/proc/self/status\" (fabric/host_proc.c)" },
	{ "host.sockets", FA_FAM_HOST, f_host_sockets,
	    "the search of the mount table for runtime sockets, target "
	    "\"/proc/self/mountinfo\" (fabric/host_paths.c)" },
	{ "host.sysctl", FA_FAM_HOST, f_host_sysctl,
	    "one integer sysctl, target its /proc/sys path "
	    "(fabric/host_proc.c)" },
	{ "host.tenancy", FA_FAM_HOST, f_host_tenancy,
	    "what tells a container, VM or bare metal apart, target \"/\" "
	    "(fabric/host_ident.c)" },
	{ "host.unix", FA_FAM_HOST, f_host_unix,
	    "the listening Unix sockets of the network namespace, target "
	    "\"/proc/net/unix\" (fabric/host_unix.c)" },
	{ "host.userns", FA_FAM_HOST, f_host_userns,
	    "the user namespace's uid map, target \"/proc/self/uid_map\" "
	    "(fabric/host_ident.c)" },
	{ "host.version", FA_FAM_HOST, f_host_version,
	    "the kernel's or NVIDIA driver's version, target the component "
	    "(fabric/host_versions.c)" },
	{ "ib.active.gmp_reach", FA_FAM_IB, f_ib_active_gmp_reach,
	    "--active: a PerfMgt Get(ClassPortInfo) to a CA port with one of "
	    "our P_Keys (fabric/ib_gmp_reach.c)" },
	{ "ib.active.mkey_set", FA_FAM_IB, f_ib_active_mkey_set,
	    "--active: a SubnSet(NodeInfo) with a wrong M_Key to a port that "
	    "reads M_Key 0 at level 1 (fabric/ib_active.c)" },
	{ "ib.engine", FA_FAM_IB, f_ib_engine,
	    "the MAD engine's counters, target \"local\" "
	    "(fabric/ib_collect.c)" },
	{ "ib.gmp.key_probe", FA_FAM_IB, f_ib_gmp_key_probe,
	    "old: one GMP key probe of one node, written before "
	    "ib.gmp.key_probes and still read (fabric/ib_gmpkeys.c)" },
	{ "ib.gmp.key_probes", FA_FAM_IB, f_ib_gmp_key_probes,
	    "the CC, VS or AM key probes of one class, a node entry each, "
	    "target \"fabric\" (fabric/ib_gmpkeys.c)" },
	{ "ib.local_port", FA_FAM_IB, f_ib_local_port,
	    "the port the scan runs from (fabric/ib_local.c)" },
	{ "ib.sa.alive_after", FA_FAM_IB, f_ib_sa_alive_after,
	    "SubnAdmGet(ClassPortInfo) once the audit is done: whether the "
	    "SA still answers, target \"sa\" (fabric/ib_collect.c)" },
	{ "ib.sa.path_record", FA_FAM_IB, f_ib_sa_path_record,
	    "the path records from our port to one CA port (fabric/ib_sa.c)" },
	{ "ib.sa.path_table", FA_FAM_IB, f_ib_sa_path_table,
	    "the PathRecord table query with our LID as SLID, target \"sa\" "
	    "(fabric/ib_sa.c)" },
	{ "ib.sa.pkey_table_record", FA_FAM_IB, f_ib_sa_pkey_table_record,
	    "SubnAdmGet(PKeyTableRecord) with SM_Key 0 or 1, of our port "
	    "(target \"sa/...\") or another (fabric/ib_sa.c)" },
	{ "ib.sa.sminfo_records", FA_FAM_IB, f_ib_sa_sminfo_records,
	    "SubnAdmGetTable(SMInfoRecord), target \"sa\" (fabric/ib_sa.c)" },
	{ "ib.smp.pkey_table", FA_FAM_IB, f_ib_smp_pkey_table,
	    "a CA port's P_Key table read by SMP (fabric/ib_pkeys.c, "
	    "ib_pkeys_remote.c)" },
	{ "ib.smp.sminfo", FA_FAM_IB, f_ib_smp_sminfo,
	    "SubnGet(SMInfo) of one SM port (fabric/ib_sminfo.c)" },
	{ "ib.topology", FA_FAM_IB, f_ib_topology,
	    "the fabric as discovery found it, target \"fabric\" "
	    "(fabric/ib_discover.c)" },
	{ "scan.max_time", -1, f_scan_max_time,
	    "a family whose acquisition --max-time cut short, target the "
	    "family, always not_collected (core/deadline.c)" },
	{ NULL, 0, NULL, NULL }
};
