/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the audited environment is (see host_checks.h): a container or not,
 * and on a VM or on bare metal, decided from every tell read and weighed,
 * never from one alone; and the audited process's credentials.
 *
 * Container.  Decisive tells, each proof alone: a PID namespace that is
 * not the initial one (its inode is not 0xEFFFFFFC, uapi linux/nsfs.h); a
 * container runtime's cgroup in /proc/self/cgroup or /proc/1/cgroup
 * ("/docker/<id>", "kubepods", "cri-containerd-", "libpod-",
 * "machine.slice/systemd-nspawn@"...); a cgroup path of PID 1 that starts
 * with "/.." (PID 1 outside our cgroup namespace's root: a container that
 * shares the host's PIDs).  Weighed tells: a uts, user or cgroup namespace
 * of its own (2 each), an ipc, net or mnt namespace of its own, a marker
 * file (/.dockerenv, /run/.containerenv, /run/systemd/container), the
 * environment's container= or KUBERNETES_SERVICE_HOST, an overlay root
 * file system (1 each).  Against: the initial PID namespace, and every
 * namespace the initial one.  A systemd service with ProtectSystem= has a
 * mount namespace of its own, and a VM whose root file system was made
 * from a container image carries /.dockerenv: neither is a container.
 *
 *   decisive tell, unless all 8 namespaces are the initial ones -> yes
 *   (runc cannot share the host's mount namespace: that is a conflict);
 *   initial PID namespace, weighed tells >= 5 -> yes (a container that
 *   shares the host's PIDs); <= 2 -> no; 3 or 4 -> cannot tell;
 *   no namespace read and no decisive tell -> cannot tell.
 *
 * VM.  For: the CPUID "hypervisor" bit (/proc/cpuinfo flags), a Xen
 * /sys/hypervisor/type, a device-tree hypervisor node, DMI/SMBIOS strings
 * of a hypervisor or cloud VM (2 each), a virtio NIC (1).  Against: no
 * hypervisor bit (2), an EC2 ".metal" product (2), DMI of another vendor
 * (1).  A side with 2 or more and nothing against it decides; both
 * sides: the conflict is reported and nothing decided.  "Amazon EC2"
 * alone is not a VM: .metal instances carry it too.
 */
#include <stdio.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"
#include "../core/obs_fields.h"

/* Substrings of a cgroup line that name the runtime containing us. */
static const struct {
	const char	*pattern;
	const char	*runtime;
} cgroup_tells[] = {
	{ "kubepods", "kubernetes" },
	{ "/docker/", "docker" },
	{ "/docker-", "docker" },
	{ "cri-containerd", "containerd" },
	{ "/crio-", "cri-o" },
	{ "libpod", "podman" },
	{ "/lxc/", "lxc" },
	{ "lxc.payload", "lxc" },
	{ "systemd-nspawn@", "systemd-nspawn" },
	{ "/machine.slice/machine-", "systemd-nspawn" },
	{ "/ecs/", "ecs" },
	{ "/garden/", "garden" },
	{ "/buildkit/", "buildkit" },
};

/* DMI strings of hypervisors and cloud VMs (sys_vendor, product_name). */
static const char *const vm_vendors[] = {
	"QEMU", "KVM", "VMware", "Xen", "Google Compute Engine",
	"Microsoft Corporation Virtual Machine", "innotek", "VirtualBox",
	"OpenStack", "Parallels", "Bochs", "Firecracker", "Cloud Hypervisor",
	"BHYVE", "Alibaba Cloud ECS", "DigitalOcean Droplet", "Hetzner vServer",
	"OracleCloud.com", "Nutanix AHV", "Standard PC (Q35", "Standard PC (i440FX",
	NULL
};

/*
 * The decision as fabaudit-checks(7) states it (mdoc).  A unit test holds
 * it to the tables above: every runtime cgroup pattern and VM vendor is
 * named here.
 */
const char fa_host_env_man[] =
".Ss How container, VM and bare metal are decided\n"
"The host checks that judge container isolation apply only in a\n"
"container, and\n"
".Sy HOST-TENANCY\n"
"asks whether the physical host may be shared.\n"
"Both rest on two questions, each answered from every tell read and\n"
"weighed, never from one alone; the tells seen, what each says, its\n"
"weight and the verdicts are the\n"
".Sy environment\n"
"evidence item of those results, so that a provider can dispute the\n"
"decision precisely.\n"
".Pp\n"
".Em Is this a container?\n"
"Decisive, each alone: a PID namespace other than the initial one (the\n"
"kernel gives the initial namespaces fixed inode numbers, 0xEFFFFFFC for\n"
"pid;\n"
".In linux/nsfs.h ) ;\n"
"a container runtime's cgroup in\n"
".Pa /proc/self/cgroup\n"
"or\n"
".Pa /proc/1/cgroup\n"
"(a path containing\n"
".Ql kubepods ,\n"
".Ql /docker/ ,\n"
".Ql /docker- ,\n"
".Ql cri-containerd ,\n"
".Ql /crio- ,\n"
".Ql libpod ,\n"
".Ql /lxc/ ,\n"
".Ql lxc.payload ,\n"
".Ql systemd-nspawn@ ,\n"
".Ql /machine.slice/machine- ,\n"
".Ql /ecs/ ,\n"
".Ql /garden/\n"
"or\n"
".Ql /buildkit/ ) ;\n"
"a cgroup of PID 1 that begins with\n"
".Ql /.. ,\n"
"which puts PID 1 outside our cgroup namespace (a container sharing the\n"
"host's PIDs).\n"
"Weighed: a uts, user or cgroup namespace of its own (2 each); an ipc,\n"
"net or mnt namespace of its own, the marker files\n"
".Pa /.dockerenv\n"
"and\n"
".Pa /run/.containerenv ,\n"
".Pa /run/systemd/container ,\n"
".Ev container\n"
"or\n"
".Ev KUBERNETES_SERVICE_HOST\n"
"in the environment, an overlay root file system (1 each).\n"
"Against: the initial PID namespace, and every namespace being the\n"
"initial one.\n"
"A decisive tell makes a container, unless all eight namespaces, the\n"
"mount namespace too, are the initial ones (no runtime shares the host's\n"
"mount namespace): then the tells conflict.\n"
"Without one, in the initial PID namespace, weighed tells of 5 or more\n"
"make a container sharing the host's PIDs, 2 or less make no container,\n"
"and 3 or 4 are a conflict.\n"
"With no namespace read and no decisive tell, nothing is decided.\n"
"So a VM whose root file system was made from a container image, and\n"
"carries\n"
".Pa /.dockerenv ,\n"
"is not a container; a hostPID pod without a marker file is one; and a\n"
"systemd service whose ProtectSystem= gives it a mount namespace of its\n"
"own is not.\n"
"The net and mnt namespaces have fixed initial numbers only since Linux\n"
"6.18 (0xEFFFFFF9, 0xEFFFFFF8); on older kernels their links prove\n"
"nothing alone.\n"
".Pp\n"
".Em Is this a VM?\n"
"For (2 each): the CPU's\n"
".Ql hypervisor\n"
"flag in\n"
".Pa /proc/cpuinfo ,\n"
".Pa /sys/hypervisor/type ,\n"
"a device-tree hypervisor node, DMI/SMBIOS strings of a hypervisor or\n"
"cloud VM, which are:\n"
".Bl -bullet -compact\n"
".It\nQEMU\n.It\nKVM\n.It\nVMware\n.It\nXen\n"
".It\nGoogle Compute Engine\n"
".It\nMicrosoft Corporation Virtual Machine\n"
".It\ninnotek\n.It\nVirtualBox\n.It\nOpenStack\n.It\nParallels\n"
".It\nBochs\n.It\nFirecracker\n.It\nCloud Hypervisor\n.It\nBHYVE\n"
".It\nAlibaba Cloud ECS\n.It\nDigitalOcean Droplet\n"
".It\nHetzner vServer\n.It\nOracleCloud.com\n.It\nNutanix AHV\n"
".It\nStandard PC (Q35\n.It\nStandard PC (i440FX\n"
".It\nan Amazon EC2 product that is\n"
"not\n"
".Ql .metal .\n"
".El\n"
"A virtio NIC counts 1 for: virtio is paravirtual, though a DPU may\n"
"present virtio-net to a bare-metal host.\n"
"Against: a clear hypervisor flag (2), an EC2\n"
".Ql .metal\n"
"product (2), DMI of another vendor (1).\n"
"Two or more on one side and nothing on the other decide; tells on both\n"
"sides are a conflict.\n"
"A container on a VM is both.\n"
".Pp\n"
"A question left undecided makes the checks that need it\n"
".Cm not_tested ,\n"
"naming the tells and the conflict.\n";

size_t
fa_host_env_patterns(const char *const **vendors, size_t *nvendors,
    const char **cgroup_pattern, size_t i)
{
	*vendors = vm_vendors;
	for (*nvendors = 0; vm_vendors[*nvendors] != NULL; (*nvendors)++)
		;
	*cgroup_pattern = i < sizeof(cgroup_tells) / sizeof(cgroup_tells[0]) ?
	    cgroup_tells[i].pattern : NULL;
	return sizeof(cgroup_tells) / sizeof(cgroup_tells[0]);
}

/* Namespace types in the order they are reported. */
static const struct fa_fld_OBJ *const ns_all[] = {
	FA_F(HOST_NS, pid), FA_F(HOST_NS, ipc), FA_F(HOST_NS, uts),
	FA_F(HOST_NS, user), FA_F(HOST_NS, cgroup), FA_F(HOST_NS, time),
	FA_F(HOST_NS, net), FA_F(HOST_NS, mnt), NULL
};

/* The weight of a namespace of our own, as a container tell. */
static int
ns_weight(const char *type)
{
	if (strcmp(type, "uts") == 0 || strcmp(type, "user") == 0 ||
	    strcmp(type, "cgroup") == 0)
		return 2;
	if (strcmp(type, "time") == 0)
		return 0;	/* no runtime makes one by default */
	return 1;
}

enum { SAYS_YES, SAYS_NO };
enum { W_DECISIVE = 100 };

struct tally {
	struct fa_host_env *env;
	json_t		*tells;		/* [{tell, says, weight, ...}] */
	int		 decisive;	/* decisive container tells */
	int		 yes, no;	/* weighed sums */
	int		 r;		/* first error */
};

/* Record one tell; weight W_DECISIVE marks a decisive one. */
static void
tell(struct tally *t, const char *question, int says, int weight,
    const struct fa_obs *o, const char *field, const char *what)
{
	json_t *e;

	if (t->r != 0)
		return;
	if (says == SAYS_YES && weight == W_DECISIVE)
		t->decisive++;
	else if (says == SAYS_YES)
		t->yes += weight;
	else
		t->no += weight;
	e = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:s}", "question",
	    question, "says", says == SAYS_YES ? "yes" : "no", "weight",
	    weight == W_DECISIVE ? "decisive" : weight >= 2 ? "strong" :
	    "weak", "observation", o != NULL ? o->id : NULL, "field", field,
	    "tell", what);
	if (e == NULL || json_array_append_new(t->tells, e) != 0)
		t->r = FA_ERR_NOMEM;
}

static void
set_runtime(struct fa_host_env *env, const char *rt)
{
	if (env->runtime[0] == '\0')
		snprintf(env->runtime, sizeof(env->runtime), "%s", rt);
}

/* Runtime cgroups in one cgroup file's lines; "/.." for PID 1's. */
static void
cgroup_lines(struct tally *t, const struct fa_obs *o,
    const struct fa_fld_ARR *field, int pid1)
{
	const json_t *lines = fa_obs_arr(o, field), *v;
	const char *line, *path;
	char what[320];
	size_t i, k;

	json_array_foreach(lines, i, v) {
		if ((line = json_string_value(v)) == NULL)
			continue;
		/* hierarchy-ID:controllers:path (cgroups(7)) */
		path = strchr(line, ':');
		path = path != NULL ? strchr(path + 1, ':') : NULL;
		path = path != NULL ? path + 1 : line;
		for (k = 0; k < sizeof(cgroup_tells) / sizeof(cgroup_tells[0]);
		    k++)
			if (strstr(path, cgroup_tells[k].pattern) != NULL)
				break;
		if (k < sizeof(cgroup_tells) / sizeof(cgroup_tells[0])) {
			snprintf(what, sizeof(what), "%s cgroup %s names the "
			    "%s runtime", pid1 ? "PID 1's" : "our", path,
			    cgroup_tells[k].runtime);
			set_runtime(t->env, cgroup_tells[k].runtime);
			tell(t, "container", SAYS_YES, W_DECISIVE, o,
			    fa_fld_name(field),
			    what);
			return;
		}
		if (pid1 && strncmp(path, "/..", 3) == 0) {
			snprintf(what, sizeof(what), "PID 1's cgroup %s lies "
			    "outside our cgroup namespace: PID 1 is not ours, "
			    "a container sharing the host's PIDs", path);
			tell(t, "container", SAYS_YES, W_DECISIVE, o,
			    fa_fld_name(field),
			    what);
			return;
		}
	}
}

/* Namespaces: returns how many types were told initial or not. */
static int
ns_tells(struct tally *t, const struct fa_snapshot *s, int *pid_initial,
    int *all_initial)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_NS,
	    "/proc/self/ns");
	char own[96] = "", host[96] = "", what[200], *list;
	const char *ns;
	const json_t *v;
	size_t i, n;
	int known = 0, w;

	*pid_initial = -1;
	*all_initial = 0;
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return 0;
	for (i = 0; ns_all[i] != NULL; i++) {
		ns = fa_fld_name(ns_all[i]);
		v = json_object_get(fa_obs_obj(o, ns_all[i]), "initial");
		if (!json_is_boolean(v))
			continue;
		known++;
		list = json_is_true(v) ? host : own;
		n = strlen(list);
		snprintf(list + n, sizeof(own) - n, "%s%s", n > 0 ? ", " : "",
		    ns);
		if (strcmp(ns, "pid") == 0)
			*pid_initial = json_is_true(v);
		if (json_is_true(v))
			continue;
		w = strcmp(ns, "pid") == 0 ? W_DECISIVE :
		    ns_weight(ns);
		snprintf(what, sizeof(what), "the %s namespace is not the "
		    "initial one", ns);
		if (w > 0)
			tell(t, "container", SAYS_YES, w, o, ns, what);
	}
	if (*pid_initial == 1) {
		snprintf(what, sizeof(what), "the PID namespace is the initial "
		    "one (the host's)");
		tell(t, "container", SAYS_NO, 2, o, "pid", what);
	}
	if (known > 0 && own[0] == '\0') {
		*all_initial = known;
		snprintf(what, sizeof(what), "every namespace read is the "
		    "initial one: %s", host);
		tell(t, "container", SAYS_NO, known >= 8 ? 3 : 1, o, NULL,
		    what);
	}
	return known;
}

static void
marker_tells(struct tally *t, const struct fa_snapshot *s)
{
	const struct fa_obs *o;
	const char *role;
	char what[160];
	size_t it = 0;
	int exists;

	while ((o = fa_snapshot_next(s, FA_KIND_HOST_PATH, &it)) != NULL) {
		role = fa_obs_str(o, FA_F(HOST_PATH, role));
		if (role == NULL || strncmp(role, "marker:", 7) != 0 ||
		    o->state != FA_OBS_COMPLETE ||
		    fa_obs_bool(o, FA_F(HOST_PATH, exists), &exists) != 0 ||
		    !exists)
			continue;
		snprintf(what, sizeof(what), "%s exists (the %s marker file)",
		    o->target, role + 7);
		set_runtime(t->env, role + 7);
		tell(t, "container", SAYS_YES, 1, o, "exists", what);
	}
}

static void
tenancy_container_tells(struct tally *t, const struct fa_obs *o)
{
	const char *v;
	char what[200];
	int k8s;

	if (o == NULL)
		return;
	cgroup_lines(t, o, FA_F(HOST_TENANCY, cgroup_self), 0);
	cgroup_lines(t, o, FA_F(HOST_TENANCY, cgroup_1), 1);
	if ((v = fa_obs_str(o, FA_F(HOST_TENANCY,
	    container_manager))) != NULL) {
		snprintf(what, sizeof(what), "/run/systemd/container says "
		    "\"%.60s\"", v);
		set_runtime(t->env, v);
		tell(t, "container", SAYS_YES, 1, o, "container_manager", what);
	}
	if ((v = fa_obs_str(o, FA_F(HOST_TENANCY,
	    environ_container))) != NULL) {
		snprintf(what, sizeof(what), "the environment has "
		    "container=%.60s", v);
		set_runtime(t->env, v);
		tell(t, "container", SAYS_YES, 1, o, "environ_container", what);
	}
	if (fa_obs_bool(o, FA_F(HOST_TENANCY, environ_kubernetes), &k8s) == 0 &&
	    k8s) {
		set_runtime(t->env, "kubernetes");
		tell(t, "container", SAYS_YES, 1, o, "environ_kubernetes",
		    "KUBERNETES_SERVICE_HOST is set (a pod's environment)");
	}
}

static void
root_fs_tell(struct tally *t, const struct fa_snapshot *s)
{
	const json_t *m = fa_host_mount_for(s, "/");
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	const char *fs = fa_json_get_str(m, "fstype");

	if (fs != NULL && (strcmp(fs, "overlay") == 0 ||
	    strcmp(fs, "fuse-overlayfs") == 0 || strcmp(fs, "aufs") == 0))
		tell(t, "container", SAYS_YES, 1, o, "mounts", "the root file "
		    "system is an overlay (container images are)");
}

/* The account of one question for the reason texts. */
static void
account(struct tally *t, const char *question, const char *verdict,
    char *buf, size_t len)
{
	const json_t *e;
	size_t i, n = strlen(buf);
	int first = 1;

	n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s: %s",
	    n > 0 ? "; " : "", question, verdict);
	json_array_foreach(t->tells, i, e) {
		if (strcmp(fa_json_get_str(e, "question"), question) != 0 ||
		    n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s (%s %s)",
		    first ? " - " : ", ", fa_json_get_str(e, "tell"),
		    fa_json_get_str(e, "weight"), strcmp(fa_json_get_str(e,
		    "says"), "yes") == 0 ? "for" : "against");
		first = 0;
	}
}

static void
decide_container(struct tally *t, const struct fa_snapshot *s)
{
	const struct fa_obs *ten = fa_snapshot_find(s, FA_KIND_HOST_TENANCY,
	    "/");
	struct fa_host_env *env = t->env;
	int pid_initial, all_initial, known;
	const char *verdict;

	t->decisive = t->yes = t->no = 0;
	known = ns_tells(t, s, &pid_initial, &all_initial);
	tenancy_container_tells(t, ten != NULL && ten->state ==
	    FA_OBS_COMPLETE ? ten : NULL);
	marker_tells(t, s);
	root_fs_tell(t, s);
	if (t->decisive > 0 && all_initial >= 8) {
		env->container = -1;
		verdict = "conflicting evidence (a runtime's tell, yet every "
		    "namespace, the mount namespace too, is the host's)";
	} else if (t->decisive > 0) {
		env->container = 1;
		verdict = pid_initial == 1 ? "yes, sharing the host's PID "
		    "namespace" : "yes";
	} else if (pid_initial == 1 && t->yes >= 5) {
		env->container = 1;
		verdict = "yes, sharing the host's PID namespace";
	} else if (pid_initial == 1 && t->yes <= 2) {
		env->container = 0;
		verdict = t->yes > 0 ? "no (the weaker tells for it are "
		    "outweighed)" : "no";
	} else if (pid_initial == 1) {
		env->container = -1;
		verdict = "conflicting evidence (namespaces of its own, but "
		    "the host's PIDs and no runtime tell)";
	} else {
		env->container = -1;
		verdict = known == 0 ? "cannot tell (no namespace identity "
		    "was read and no runtime tell was found)" :
		    "cannot tell (the PID namespace was not read)";
	}
	if (env->container != 1)
		env->runtime[0] = '\0';
	if (ten != NULL && ten->state == FA_OBS_COMPLETE &&
	    fa_obs_str(ten, FA_F(HOST_TENANCY, pid1_comm)) != NULL)
		snprintf(env->pid1, sizeof(env->pid1), "%s",
		    fa_obs_str(ten, FA_F(HOST_TENANCY, pid1_comm)));
	if (env->container == -1 && t->yes + t->decisive > 0 &&
	    (t->no > 0 || known == 0))
		env->conflict = 1;
	account(t, "container", verdict, env->account, sizeof(env->account));
	if (env->pid1[0] != '\0') {
		size_t n = strlen(env->account);

		snprintf(env->account + n, sizeof(env->account) - n, "; PID 1 "
		    "is %s%s", env->pid1, pid_initial == 1 ? " (the host's "
		    "init, in the initial PID namespace)" : "");
	}
}

static void
decide_vm(struct tally *t, const struct fa_snapshot *s)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_HOST_TENANCY,
	    "/");
	struct fa_host_env *env = t->env;
	const json_t *dmi, *hv;
	const char *vendor, *product, *v, *verdict;
	char what[256];
	size_t i, n;

	t->yes = t->no = 0;
	if (o == NULL || o->state != FA_OBS_COMPLETE) {
		env->vm = -1;
		account(t, "VM", "cannot tell (the tenancy files were not "
		    "read)", env->account, sizeof(env->account));
		return;
	}
	dmi = fa_obs_obj(o, FA_F(HOST_TENANCY, dmi));
	vendor = fa_json_get_str(dmi, "sys_vendor");
	product = fa_json_get_str(dmi, "product_name");
	if (vendor != NULL || product != NULL)
		snprintf(env->platform, sizeof(env->platform), "%s%s%s",
		    vendor != NULL ? vendor : "", vendor != NULL &&
		    product != NULL ? " " : "", product != NULL ? product : "");
	if (env->platform[0] != '\0') {
		for (i = 0; vm_vendors[i] != NULL; i++)
			if (strstr(env->platform, vm_vendors[i]) != NULL)
				break;
		n = product != NULL ? strlen(product) : 0;
		snprintf(what, sizeof(what), "DMI: %s", env->platform);
		if (n >= 6 && strcmp(product + n - 6, ".metal") == 0)
			tell(t, "VM", SAYS_NO, 2, o, "dmi", what);
		else if (vm_vendors[i] != NULL || (vendor != NULL &&
		    strcmp(vendor, "Amazon EC2") == 0))
			tell(t, "VM", SAYS_YES, 2, o, "dmi", what);
		else
			tell(t, "VM", SAYS_NO, 1, o, "dmi", what);
	}
	if ((v = fa_obs_str(o, FA_F(HOST_TENANCY, hypervisor_type))) != NULL) {
		snprintf(what, sizeof(what), "/sys/hypervisor/type: %.60s", v);
		tell(t, "VM", SAYS_YES, 2, o, "hypervisor_type", what);
	}
	if ((v = fa_obs_str(o, FA_F(HOST_TENANCY, dt_hypervisor))) != NULL) {
		snprintf(what, sizeof(what), "device tree hypervisor node: "
		    "%.60s", v);
		tell(t, "VM", SAYS_YES, 2, o, "dt_hypervisor", what);
	}
	/* A virtio NIC is paravirtual: a hypervisor's (weak: a DPU can
	 * present virtio-net to a bare-metal host). */
	if (json_array_size(fa_obs_arr(o, FA_F(HOST_TENANCY,
	    net_ifaces_virtio))) >
	    0) {
		snprintf(what, sizeof(what), "NIC %s is a virtio device",
		    json_string_value(json_array_get(fa_obs_arr(o,
		    FA_F(HOST_TENANCY, net_ifaces_virtio)), 0)));
		tell(t, "VM", SAYS_YES, 1, o, "net_ifaces_virtio", what);
	}
	hv = fa_obs_jbool(o, FA_F(HOST_TENANCY, cpu_hypervisor));
	if (json_is_boolean(hv))
		tell(t, "VM", json_is_true(hv) ? SAYS_YES : SAYS_NO, 2, o,
		    "cpu_hypervisor", json_is_true(hv) ? "the CPU's "
		    "hypervisor flag is set" : "the CPU's hypervisor flag is "
		    "clear");
	if (t->yes >= 2 && t->no == 0) {
		env->vm = 1;
		verdict = "yes";
	} else if (t->no >= 2 && t->yes == 0) {
		env->vm = 0;
		verdict = "no";
	} else if (t->yes > 0 && t->no > 0) {
		env->vm = -1;
		env->conflict = 1;
		verdict = "conflicting evidence";
	} else {
		env->vm = -1;
		verdict = "cannot tell (too little evidence)";
	}
	account(t, "VM", verdict, env->account, sizeof(env->account));
}

int
fa_host_env(const struct fa_snapshot *s, struct fa_host_env *env)
{
	struct tally t;
	json_t *item;

	memset(env, 0, sizeof(*env));
	memset(&t, 0, sizeof(t));
	env->container = env->vm = -1;
	t.env = env;
	if ((env->evidence = json_array()) == NULL ||
	    (t.tells = json_array()) == NULL) {
		json_decref(env->evidence);
		env->evidence = NULL;
		return FA_ERR_NOMEM;
	}
	decide_container(&t, s);
	decide_vm(&t, s);
	if (t.r == 0) {
		item = fa_evidence(NULL, "environment", json_pack("{s:s, s:s, "
		    "s:s?, s:O}", "container", env->container == 1 ?
		    "yes" : env->container == 0 ? "no" : "cannot tell", "vm",
		    env->vm == 1 ? "yes" : env->vm == 0 ? "no" : "cannot tell",
		    "runtime", env->runtime[0] != '\0' ? env->runtime : NULL,
		    "tells", t.tells));
		if (item != NULL && env->pid1[0] != '\0' &&
		    json_object_set_new(json_object_get(item, "value"),
		    "pid1", json_string(env->pid1)) != 0)
			t.r = FA_ERR_NOMEM;
		if (t.r == 0)
			t.r = fa_evidence_add(env->evidence, item);
		else
			json_decref(item);
	}
	json_decref(t.tells);
	if (t.r != 0) {
		fa_host_env_free(env);
		return t.r;
	}
	return 0;
}

void
fa_host_env_free(struct fa_host_env *env)
{
	json_decref(env->evidence);
	env->evidence = NULL;
}

const char *
fa_host_env_name(const struct fa_host_env *env, char *buf, size_t len)
{
	const char *machine = env->vm == 1 ? "a VM" : env->vm == 0 ?
	    "bare metal" : "a machine of unknown kind";

	if (env->container == 1)
		snprintf(buf, len, "a %s%scontainer on %s", env->runtime,
		    env->runtime[0] != '\0' ? " " : "", machine);
	else if (env->container == 0)
		snprintf(buf, len, "%s%s%s%s", env->vm == 1 ? "a VM" :
		    env->vm == 0 ? "bare metal" : "not a container, on a "
		    "machine of unknown kind", env->platform[0] != '\0' ?
		    " (" : "", env->platform, env->platform[0] != '\0' ? ")" :
		    "");
	else
		snprintf(buf, len, "an environment that could not be told "
		    "apart from a container (%s)", machine);
	return buf;
}

int
fa_host_creds(const struct fa_snapshot *s, struct fa_host_creds *c)
{
	const struct fa_obs *o;
	const json_t *uid, *groups;
	long long v;
	int r;

	memset(c, 0, sizeof(*c));
	if ((c->obs = fa_snapshot_find(s, FA_KIND_HOST_STATUS,
	    "/proc/self/status")) == NULL || c->obs->state != FA_OBS_COMPLETE)
		return FA_ERR_NOTFOUND;
	o = c->obs;
	if ((uid = fa_obs_arr(o, FA_F(HOST_STATUS, uid))) != NULL) {
		if (!json_is_array(uid) || json_array_size(uid) != 4 ||
		    !json_is_integer(json_array_get(uid, 1)) ||
		    (v = json_integer_value(json_array_get(uid, 1))) < 0 ||
		    v > 0xffffffffll)
			return FA_ERR_INPUT;
		c->euid = v;
		c->have |= FA_CRED_UID;
	}
	/* The effective gid and the supplementary groups, together. */
	uid = fa_obs_arr(o, FA_F(HOST_STATUS, gid));
	groups = fa_obs_arr(o, FA_F(HOST_STATUS, groups));
	if (uid != NULL || groups != NULL) {
		if (!json_is_array(uid) || json_array_size(uid) != 4 ||
		    !json_is_integer(json_array_get(uid, 1)) ||
		    !json_is_array(groups))
			return FA_ERR_INPUT;
		c->egid = json_integer_value(json_array_get(uid, 1));
		c->groups = groups;
		c->have |= FA_CRED_GROUPS;
	}
#define GET(call, bit)							\
	if ((r = (call)) == 0)						\
		c->have |= (bit);					\
	else if (r != FA_ERR_NOTFOUND)					\
		return FA_ERR_INPUT
	GET(fa_obs_u64(o, FA_F(HOST_STATUS, cap_eff), &c->cap_eff),
	    FA_CRED_EFF);
	GET(fa_obs_u64(o, FA_F(HOST_STATUS, cap_bnd), &c->cap_bnd),
	    FA_CRED_BND);
	GET(fa_obs_int(o, FA_F(HOST_STATUS, seccomp), 0, 2, &c->seccomp),
	    FA_CRED_SECCOMP);
	GET(fa_obs_int(o, FA_F(HOST_STATUS, no_new_privs), 0, 1, &c->nnp),
	    FA_CRED_NNP);
#undef GET
	return 0;
}

int
fa_host_container_gate(const struct fa_check *c,
    const struct fa_eval_ctx *ctx, struct fa_results *out,
    struct fa_host_env *env)
{
	char what[256];
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r;
	if ((r = fa_host_env(ctx->snap, env)) != 0)
		return r;
	if (env->container == 1)
		return 0;
	fa_host_env_name(env, what, sizeof(what));
	r = fa_results_add(out, c, env->container == 0 ?
	    FA_ST_NOT_APPLICABLE : FA_ST_NOT_TESTED, "host", NULL,
	    json_deep_copy(env->evidence), env->container == 0 ?
	    "not a container (%s): this check judges container isolation%s" :
	    "%s: this check judges container isolation. %s", what,
	    env->container == 0 ? "" : env->account);
	fa_host_env_free(env);
	return r < 0 ? r : 1;
}
