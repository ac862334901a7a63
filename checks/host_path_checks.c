/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What reaches the host from here, by stat and mount table:
 * HOST-RUNTIME-SOCKET, HOST-HOSTPATH, HOST-CGROUP-ESCAPE,
 * HOST-DEVICE-EXPOSED and HOST-K8S-TOKEN.
 *
 * Facts used: a process may connect(2) to a Unix socket only with write
 * permission on it (unix(7)), which a read-only mount does not take away
 * (see may_connect()); an abstract socket has no file and no permission
 * bits, so any process of its network namespace may connect (unix(7));
 * nothing here connects, so a socket's API is told by its name
 * (fabric/host_paths.c fa_host_socket_ident()); a cgroup v1 hierarchy's
 * release_agent is run by the kernel as host root when a cgroup with
 * notify_on_release empties (cgroups(7)), as are the programs named by
 * kernel.core_pattern (when it starts with '|'), kernel.modprobe and
 * /sys/kernel/uevent_helper; /dev/infiniband/umad* and issm* give raw MAD
 * access (QP0/QP1 and the SM capability bit; IBA vol. 1 13.5, rdma-core
 * libibumad).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/caps.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "host_checks.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

static const char *const refs_sock[] = {
	"unix(7): connecting to a socket needs write permission on it",
	"OWASP Docker Security Cheat Sheet, rule 1: do not expose the Docker "
	    "daemon socket",
	"Kubernetes Pod Security Standards, baseline: HostPath volumes",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_mount[] = {
	"NIST SP 800-190, 4.4.3 (container runtime: sensitive host mounts)",
	"Kubernetes Pod Security Standards, baseline: HostPath volumes, "
	    "/proc mount type",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_escape[] = {
	"cgroups(7): release_agent and notify_on_release",
	"CVE-2022-0492 (cgroup v1 release_agent without capability check)",
	"core(5): core_pattern pipes run as root in the initial namespaces",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_dev[] = {
	"InfiniBand Architecture Specification Vol. 1, 13.5 (management "
	    "datagrams); rdma-core libibumad: umad and issm devices",
	"NVIDIA MIG user guide: /dev/nvidia-caps access capabilities",
	"mem(4), kmsg: /dev/mem, /dev/kmem, /dev/port, /dev/kmsg",
	FA_CMAX_ESCALATION,
	NULL
};

static const char *const refs_token[] = {
	"Kubernetes: Configure Service Accounts for Pods "
	    "(automountServiceAccountToken)",
	FA_CMAX_ESCALATION,
	NULL
};

#define WRITABLE							\
	"/proc/self/status and /proc/self/mountinfo (may this process "	\
	"write the file: its mode and owner, the mount, the process's uid " \
	"and capabilities)"
#define ENV	", and the tenancy evidence (see HOST-TENANCY)"

/* Kinds of fabric/host_unix.h and fabric/host_paths.h. */

/*
 * What a check could not examine, named in its not_tested reason: "; "
 * separated, cut short with "and N more" past what fits.
 */
struct names {
	char	 buf[720];
	size_t	 n;		/* noted */
	size_t	 shown;		/* in buf */
};

static void note(struct names *nm, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

static void
note(struct names *nm, const char *fmt, ...)
{
	char one[320];
	size_t len = strlen(nm->buf);
	va_list ap;

	nm->n++;
	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	if (len + strlen(one) + 2 + 32 >= sizeof(nm->buf))
		return;
	snprintf(nm->buf + len, sizeof(nm->buf) - len, "%s%s", len > 0 ?
	    "; " : "", one);
	nm->shown++;
}

/* The names, with "and N more" when some did not fit. */
static const char *
names_str(const struct names *nm, char *out, size_t len)
{
	if (nm->n > nm->shown)
		snprintf(out, len, "%s; and %zu more", nm->buf,
		    nm->n - nm->shown);
	else
		snprintf(out, len, "%s", nm->buf);
	return out;
}

/* An observation that was not read, named: its reason starts with its
 * target when the collector wrote it ("/x: permission denied"). */
static void
note_obs(struct names *nm, const struct fa_obs *o)
{
	const char *why = fa_obs_reason(o);
	size_t n = strlen(o->target);

	if (strncmp(why, o->target, n) == 0 && why[n] == ':')
		note(nm, "%s", why);
	else
		note(nm, "%s (%s)", o->target, why);
}

/* A count member of an observation's data, 0 when absent. */
static long long
count_of(const struct fa_obs *o, const struct fa_fld_INT *f)
{
	long long v;

	return fa_obs_int(o, f, 0, 1ll << 40, &v) == 0 ? v : 0;
}

/* Is there a host.path observation at all for the roles with prefix? */
static int
probes_of(const struct fa_snapshot *s, const char *prefix, size_t *total,
    size_t *unread)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0;

	*total = *unread = 0;
	while ((o = fa_snapshot_next(s, FA_KIND_HOST_PATH, &it)) != NULL) {
		role = fa_obs_str(o, FA_F(HOST_PATH, role));
		if (role == NULL || strncmp(role, prefix, strlen(prefix)) != 0)
			continue;
		(*total)++;
		if (o->state != FA_OBS_COMPLETE)
			(*unread)++;
	}
	return 0;
}

static int
exists_as(const struct fa_obs *o, const char *type)
{
	int e;
	const char *t = fa_obs_str(o, FA_F(HOST_PATH, type));

	return o->state == FA_OBS_COMPLETE &&
	    fa_obs_bool(o, FA_F(HOST_PATH, exists), &e) == 0 && e &&
	    t != NULL &&
	    (type == NULL || strcmp(t, type) == 0);
}

static json_t *
path_evidence(const struct fa_obs *o, int writable)
{
	static const struct fa_fld_STR *const where[] = {
		FA_F(HOST_PATH, found_by), FA_F(HOST_PATH, mount),
		FA_F(HOST_PATH, mount_root), NULL
	};
	json_t *ev = json_array(), *st;
	const json_t *v;
	size_t i;

	st = json_pack("{s:O?, s:O?, s:O?, s:O?}", "type", fa_obs_jstr(o,
	    FA_F(HOST_PATH, type)), "mode", fa_obs_jstr(o, FA_F(HOST_PATH,
	    mode)), "uid",
	    fa_obs_jint(o, FA_F(HOST_PATH, uid)), "gid", fa_obs_jint(o,
	    FA_F(HOST_PATH, gid)));
	/* Where a socket was found, when it was not at a fixed path. */
	for (i = 0; st != NULL && where[i] != NULL; i++)
		if ((v = fa_obs_jstr(o, where[i])) != NULL &&
		    json_object_set(st, fa_fld_name(where[i]), (json_t *)v) !=
		    0) {
			json_decref(st);
			st = NULL;
		}
	if (ev == NULL || st == NULL || fa_evidence_add(ev, fa_evidence(o,
	    "stat", st)) != 0 || fa_evidence_add(ev, fa_evidence(NULL,
	    "writable", writable < 0 ? json_string("unknown") :
	    json_boolean(writable))) != 0) {
		if (st != NULL && ev == NULL)
			json_decref(st);
		json_decref(ev);
		return NULL;
	}
	return ev;
}

/*
 * May this process connect(2) to the socket described by data: 1, 0, or
 * -1 for cannot tell (fa_host_connectable_why: a read-only mount does not
 * stop connect, so `-v /var/run/docker.sock:/x.sock:ro` still lets the
 * container drive the daemon).  *ro: the socket is on a read-only mount,
 * for the reason text.
 */
static int
may_connect(const struct fa_snapshot *s, const struct fa_host_creds *cr,
    const struct fa_obs *o, int *ro)
{
	const char *path = fa_obs_str(o, FA_F(HOST_PATH, path));
	const json_t *m;
	int v;

	if (path == NULL) {
		*ro = 0;
		return -1;	/* not an error: cannot tell (no path) */
	}
	*ro = (m = fa_host_mount_for(s, path)) != NULL &&
	    fa_json_get_bool(m, "read_only", &v) == 0 && v;
	return fa_host_connectable_why(s, cr, o, NULL, 0);
}

/* " (bind-mounted from the host's /docker.sock)" and the like. */
static const char *
found_where(const struct fa_obs *o, char *buf, size_t len)
{
	const char *by = fa_obs_str(o, FA_F(HOST_PATH, found_by));
	const char *mr = fa_obs_str(o, FA_F(HOST_PATH, mount_root));
	const char *mp = fa_obs_str(o, FA_F(HOST_PATH, mount));

	if (by != NULL && strcmp(by, "mountinfo") == 0 && mr != NULL)
		snprintf(buf, len, " (a bind mount of %s, a path on the host "
		    "relative to its file system)", mr);
	else if (by != NULL && strcmp(by, "mountinfo") == 0 && mp != NULL)
		snprintf(buf, len, " (inside the mount at %s)", mp);
	else if (by != NULL && strcmp(by, "/proc/net/unix") == 0)
		snprintf(buf, len, " (listening in this network namespace)");
	else
		buf[0] = '\0';
	return buf;
}

/* One socket at a path whose name identifies a runtime or kubelet API. */
static int
socket_result(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, const struct fa_host_creds *cr,
    const struct fa_obs *o, const char *api, int in_container, int *failed)
{
	const char *mode = fa_obs_str(o, FA_F(HOST_PATH, mode)), *how;
	enum fa_status st;
	char where[320];
	int w, ro, ww;

	w = may_connect(ctx->snap, cr, o, &ro);
	found_where(o, where, sizeof(where));
	if (in_container != 0) {
		st = w == 0 ? FA_ST_PASS : FA_ST_FAIL;
		how = w == 1 && ro ? "is reachable from the container (its "
		    "read-only mount does not stop connect(2)): whoever holds "
		    "it controls the host" : w == 1 ? "is reachable from the "
		    "container: whoever holds it controls the host" : w == 0 ?
		    "is visible but not writable by this process, which may "
		    "not connect to it" : ro ?
		    "is in the container on a read-only mount, which does not "
		    "stop connect(2); whether this process may connect is not "
		    "known, so it is reported" : "is in the container; whether "
		    "this process may connect is not known, so it is reported";
	} else {
		ww = mode != NULL && strlen(mode) == 4 && ((mode[3] - '0') & 2);
		st = ww ? FA_ST_FAIL : FA_ST_PASS;
		how = ww ? "is world-writable on the host" : "is not "
		    "world-writable on the host";
	}
	*failed = st == FA_ST_FAIL;
	return fa_results_add(out, c, st, o->target, api, path_evidence(o, w),
	    "the %s socket at %s%s %s", api, o->target, where, how) < 0 ?
	    FA_ERR_NOMEM : 0;
}

/* A listening abstract socket named for a runtime API. */
static int
abstract_result(const struct fa_check *c, struct fa_results *out,
    const struct fa_obs *u, const json_t *e, int in_container)
{
	const char *name = fa_json_get_str(e, "name");
	const char *api = fa_json_get_str(e, "api");
	json_t *ev = json_array();

	if (ev == NULL || fa_evidence_add(ev, fa_evidence(u, "listening",
	    json_deep_copy(e))) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	return fa_results_add(out, c, FA_ST_FAIL, name, api, ev, "the %s "
	    "socket %s is an abstract socket listening in %s network "
	    "namespace: an abstract name has no file and no permission bits, "
	    "so any process in that namespace may connect (unix(7))",
	    api != NULL ? api : "?", name, in_container != 0 ?
	    "this process's" : "the host's") < 0 ? FA_ERR_NOMEM : 0;
}

/* A socket bind-mounted in whose name identifies nothing. */
static int
unidentified_result(const struct fa_check *c, struct fa_results *out,
    const struct fa_obs *o, int w)
{
	char where[320];

	return fa_results_add(out, c, FA_ST_NOT_TESTED, o->target, NULL,
	    path_evidence(o, w), "a socket is bind-mounted at %s%s and this "
	    "process %s; its name identifies no runtime or kubelet API, and "
	    "no connection is made to ask what it serves", o->target,
	    found_where(o, where, sizeof(where)), w == 1 ? "may connect to "
	    "it" : "perhaps may connect to it (whether it may is not known)")
	    < 0 ? FA_ERR_NOMEM : 0;
}

/* Evidence of what was looked at without a result of its own. */
static int
add_seen(json_t *ev, const struct fa_obs *o, const char *field, json_t *v)
{
	return fa_evidence_add(ev, fa_evidence(o, field, v));
}

/* What /proc/net/unix showed: abstract runtime sockets fail here. */
static int
unix_sockets(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, struct names *un, json_t *ev, int in_container,
    size_t *results, size_t *fails, long long *listening)
{
	const struct fa_obs *u;
	const json_t *e;
	json_t *names;
	const char *cls, *name;
	size_t i, other = 0;
	int r;

	u = fa_snapshot_find(ctx->snap, FA_KIND_HOST_UNIX, "/proc/net/unix");
	if (u == NULL) {
		note(un, "/proc/net/unix (not read)");
		return 0;
	}
	if (u->state != FA_OBS_COMPLETE) {
		note_obs(un, u);
		return 0;
	}
	if (count_of(u, FA_F(HOST_UNIX, skipped_count)) > 0)
		note(un, "%lld lines of /proc/net/unix (not understood)",
		    count_of(u, FA_F(HOST_UNIX, skipped_count)));
	*listening = count_of(u, FA_F(HOST_UNIX, listening_count));
	if ((names = json_array()) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(fa_obs_arr(u, FA_F(HOST_UNIX, listening)), i, e) {
		cls = fa_json_get_str(e, "class");
		name = fa_json_get_str(e, "name");
		if (cls == NULL || name == NULL) {
			note(un, "a listening socket of /proc/net/unix (its "
			    "record lacks a name or class)");
			continue;
		}
		if (strcmp(cls, "runtime") != 0) {
			other += strcmp(cls, "other") == 0;
			if (json_array_size(names) < 16 &&
			    json_array_append_new(names, json_string(name)) !=
			    0) {
				json_decref(names);
				return FA_ERR_NOMEM;
			}
			continue;
		}
		if (json_is_true(json_object_get(e, "abstract"))) {
			if ((r = abstract_result(c, out, u, e,
			    in_container)) != 0) {
				json_decref(names);
				return r;
			}
			(*results)++;
			(*fails)++;
			continue;
		}
		/* By path: judged with the host.path the collector made. */
		if (fa_snapshot_find(ctx->snap, FA_KIND_HOST_PATH, name) ==
		    NULL)
			note(un, "%s (listening, its path not stat'ed)", name);
	}
	/* Listening sockets whose names identify no runtime API (and the
	 * known daemons'): not judged, shown. */
	return add_seen(ev, u, "listening, not a runtime API by name",
	    json_pack("{s:I, s:o}", "count", (json_int_t)(count_of(u,
	    FA_F(HOST_UNIX, unidentified)) + (long long)other), "first",
	    names));
}

/* The search of the bind mounts (containers only). */
static int
mount_search(const struct fa_snapshot *s, struct names *un, json_t *ev,
    long long *searched)
{
	const struct fa_obs *sc = fa_snapshot_find(s, FA_KIND_HOST_SOCKETS,
	    "/proc/self/mountinfo");
	const json_t *e;
	const char *p, *why;
	long long n;
	size_t i;

	if (sc == NULL) {
		note(un, "the bind mounts of /proc/self/mountinfo (not "
		    "searched for sockets)");
		return 0;
	}
	if (sc->state != FA_OBS_COMPLETE) {
		note(un, "the bind mounts (%s)", fa_obs_reason(sc));
		return 0;
	}
	*searched = count_of(sc, FA_F(HOST_SOCKETS, mounts));
	json_array_foreach(fa_obs_arr(sc, FA_F(HOST_SOCKETS, unread)), i, e) {
		p = fa_json_get_str(e, "path");
		why = fa_json_get_str(e, "reason");
		note(un, "%s (%s)", p != NULL ? p : "?", why != NULL ? why :
		    "?");
	}
	n = count_of(sc, FA_F(HOST_SOCKETS, unread_count)) -
	    (long long)json_array_size(
	    fa_obs_arr(sc, FA_F(HOST_SOCKETS, unread)));
	if (n > 0)
		note(un, "%lld more paths of the mount search (not stat'ed)",
		    n);
	if ((n = count_of(sc, FA_F(HOST_SOCKETS, not_searched_count))) > 0)
		note(un, "%lld mounts (past the search's limit of stats)", n);
	if ((n = count_of(sc, FA_F(HOST_SOCKETS, unparsed))) > 0)
		note(un, "%lld entries of the mount table (not understood)", n);
	if (count_of(sc, FA_F(HOST_SOCKETS, remote_count)) > 0)
		return add_seen(ev, sc, "network or FUSE mounts, not searched",
		    json_deep_copy(fa_obs_arr(sc, FA_F(HOST_SOCKETS, remote))));
	return 0;
}

static int
eval_socket(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	struct names un;
	const char *role, *ino, *by;
	json_t *seen = NULL, *ev = NULL;
	char list[800];
	size_t it = 0, probes = 0, results = 0, fails = 0, elsewhere = 0;
	long long listening = 0, searched = 0;
	int r, w, ro, failed, in_container, exists;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	if ((r = fa_host_env(ctx->snap, &env)) != 0)
		return r;
	in_container = env.container;
	fa_host_env_free(&env);
	(void)fa_host_creds(ctx->snap, &cr);
	memset(&un, 0, sizeof(un));
	if ((seen = json_object()) == NULL || (ev = json_array()) == NULL) {
		r = FA_ERR_NOMEM;
		goto done;
	}
	/* Sockets at paths: the fixed probes and those found. */
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_PATH, &it))) {
		role = fa_obs_str(o, FA_F(HOST_PATH, role));
		if (role == NULL || (strncmp(role, "runtime-socket:", 15) !=
		    0 && strncmp(role, "host-socket:", 12) != 0))
			continue;
		if (role[0] == 'r')
			probes++;
		if (o->state != FA_OBS_COMPLETE) {
			note_obs(&un, o);
			continue;
		}
		if (!exists_as(o, "socket")) {
			by = fa_obs_str(o, FA_F(HOST_PATH, found_by));
			if (role[0] == 'r' && by != NULL && strcmp(by,
			    "/proc/net/unix") == 0 && fa_obs_bool(o,
			    FA_F(HOST_PATH, exists), &exists) == 0 && !exists) {
				elsewhere++;
				if (add_seen(ev, o, "listening here, path "
				    "not in this mount namespace",
				    json_string(o->target)) != 0) {
					r = FA_ERR_NOMEM;
					goto done;
				}
			}
			continue;
		}
		/* /var/run is usually /run: one socket, two paths. */
		if ((ino = fa_obs_str(o, FA_F(HOST_PATH, inode))) != NULL) {
			if (json_object_get(seen, ino) != NULL)
				continue;
			if (json_object_set_new(seen, ino, json_true()) != 0) {
				r = FA_ERR_NOMEM;
				goto done;
			}
		}
		if (role[0] == 'r') {
			if ((r = socket_result(c, ctx, out, &cr, o, role + 15,
			    in_container, &failed)) != 0)
				goto done;
			results++;
			fails += (size_t)failed;
			continue;
		}
		w = may_connect(ctx->snap, &cr, o, &ro);
		if (strcmp(role + 12, "unidentified") == 0 &&
		    in_container != 0 && w != 0) {
			if ((r = unidentified_result(c, out, o, w)) != 0)
				goto done;
			results++;
			continue;
		}
		/* A known daemon (NVIDIA, journald), or out of reach. */
		if (add_seen(ev, o, role + 12, json_string(o->target)) != 0) {
			r = FA_ERR_NOMEM;
			goto done;
		}
	}
	if ((r = unix_sockets(c, ctx, out, &un, ev, in_container, &results,
	    &fails, &listening)) != 0)
		goto done;
	/* In a container, sockets also come in by bind mounts; on a host
	 * each is at its own path, which the two sources above cover. */
	if (in_container != 0 &&
	    (r = mount_search(ctx->snap, &un, ev, &searched)) != 0)
		goto done;
	/* What was not examined cannot undo a failure. */
	if (fails > 0)
		goto done;
	if (probes == 0) {
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, ev,
		    "no runtime socket path was probed");
		ev = NULL;
	} else if (un.n > 0) {
		names_str(&un, list, sizeof(list));
		if (fa_evidence_add(ev, fa_evidence(NULL, "not examined",
		    json_string(list))) != 0) {
			r = FA_ERR_NOMEM;
			goto done;
		}
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, ev,
		    "no reachable runtime or kubelet socket was found, but "
		    "not everything could be examined: %s", list);
		ev = NULL;
	} else if (results == 0) {
		if (fa_evidence_add(ev, fa_evidence(NULL, "examined",
		    json_pack("{s:I, s:I, s:I}", "paths_probed",
		    (json_int_t)probes, "mounts_searched", (json_int_t)searched,
		    "sockets_listening", (json_int_t)listening))) != 0) {
			r = FA_ERR_NOMEM;
			goto done;
		}
		if (in_container != 0)
			r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
			    "no runtime or kubelet socket at any of the %zu "
			    "probed paths, in the %lld mounts searched, or "
			    "named among the %lld sockets listening in this "
			    "network namespace%s", probes, searched, listening,
			    elsewhere > 0 ? " (some of those listen for "
			    "runtimes, at paths this mount namespace does "
			    "not have)" : "");
		else
			r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
			    "no runtime or kubelet socket at any of the %zu "
			    "probed paths or named among the %lld sockets "
			    "listening in this network namespace", probes,
			    listening);
		ev = NULL;
	}
	r = r < 0 ? FA_ERR_NOMEM : 0;
done:
	json_decref(seen);
	json_decref(ev);
	return r;
}

/* Host directories whose bind mount into a container is an exposure. */
static int
sensitive_root(const char *root)
{
	static const char *const exact[] = { "/", "/etc", "/root", "/home",
	    "/var", "/var/lib", "/var/lib/kubelet", "/var/lib/docker",
	    "/var/lib/containerd", "/var/run", "/run", "/var/log", "/boot",
	    "/usr", "/lib/modules", "/dev", "/proc", "/sys", "/run/containerd",
	    "/var/run/docker", "/run/docker", NULL };
	static const char *const prefix[] = { "/etc/kubernetes",
	    "/var/lib/kubelet/pki", "/var/lib/etcd", NULL };
	size_t i, n;

	for (i = 0; exact[i] != NULL; i++)
		if (strcmp(root, exact[i]) == 0)
			return 1;
	for (i = 0; prefix[i] != NULL; i++) {
		n = strlen(prefix[i]);
		if (strncmp(root, prefix[i], n) == 0 &&
		    (root[n] == '\0' || root[n] == '/'))
			return 1;
	}
	return 0;
}

static int
disk_fs(const char *t)
{
	static const char *const fs[] = { "ext4", "ext3", "ext2", "xfs",
	    "btrfs", "zfs", "f2fs", "virtiofs", "9p", NULL };
	size_t i;

	for (i = 0; fs[i] != NULL; i++)
		if (strcmp(t, fs[i]) == 0)
			return 1;
	return 0;
}

/* A kernel pseudo-filesystem mounted read-write where it should not be. */
static int
rw_kernel_fs(const struct fa_snapshot *s, const char *path,
    const char *fstype, const json_t **m)
{
	const char *t;
	int ro;

	*m = fa_host_mount_for(s, path);
	return *m != NULL && (t = fa_json_get_str(*m, "fstype")) != NULL &&
	    strcmp(t, fstype) == 0 && fa_json_get_bool(*m, "read_only",
	    &ro) == 0 && !ro;
}

static int
eval_hostpath(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	static const struct { const char *path, *fstype; } kfs[] = {
		{ "/proc/sys", "proc" }, { "/sys", "sysfs" },
	};
	const struct fa_obs *o;
	struct fa_host_env env;
	struct names un;
	const json_t *mounts, *m;
	const char *root, *mp, *fs;
	char list[512] = "", miss[800];
	json_t *ev;
	size_t i, n = 0, bad = 0;
	int r;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_MOUNTS,
	    "/proc/self/mountinfo");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, o != NULL ? fa_status_for_obs(o) :
		    FA_ST_NOT_TESTED, "host", NULL, NULL, "the mount table was "
		    "not read%s%s", o != NULL ? ": " : "", o != NULL ?
		    fa_obs_reason(o) : "") < 0 ? FA_ERR_NOMEM : 0;
	if ((ev = json_array()) == NULL)
		return FA_ERR_NOMEM;
	memset(&un, 0, sizeof(un));
	/* Lines the decoder skipped or did not reach: unexamined. */
	if (fa_host_mounts_unexamined(ctx->snap) > 0)
		note(&un, "%zu lines of /proc/self/mountinfo (not decoded)",
		    fa_host_mounts_unexamined(ctx->snap));
	mounts = fa_obs_arr(o, FA_F(HOST_MOUNTS, mounts));
	json_array_foreach(mounts, i, m) {
		root = fa_json_get_str(m, "root");
		mp = fa_json_get_str(m, "mount_point");
		fs = fa_json_get_str(m, "fstype");
		if (root == NULL || mp == NULL || fs == NULL) {
			bad++;
			continue;
		}
		if (strcmp(mp, "/") == 0 || !disk_fs(fs) ||
		    !sensitive_root(root))
			continue;
		n++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%shost %s at %s%s", n > 1 ? "; " : "", root, mp,
		    json_is_true(json_object_get(m, "read_only")) ?
		    " (read-only)" : "");
		if (fa_evidence_add(ev, fa_evidence(o, "mount",
		    json_deep_copy(m))) != 0)
			goto nomem;
	}
	if (bad > 0)
		note(&un, "%zu entries of the mount table (no root, mount "
		    "point or type)", bad);
	for (i = 0; i < sizeof(kfs) / sizeof(kfs[0]); i++) {
		if (fa_host_mount_for(ctx->snap, kfs[i].path) == NULL) {
			note(&un, "%s (no mount of the table covers it)",
			    kfs[i].path);
			continue;
		}
		if (!rw_kernel_fs(ctx->snap, kfs[i].path, kfs[i].fstype, &m))
			continue;
		n++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s writable", n > 1 ? "; " : "", kfs[i].path);
		if (fa_evidence_add(ev, fa_evidence(o, kfs[i].path,
		    json_deep_copy(m))) != 0)
			goto nomem;
	}
	if (n > 0)
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL, ev,
		    "sensitive host paths are mounted: %s", list);
	else if (un.n > 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, ev,
		    "no sensitive host directory among the %zu mounts "
		    "examined, but not all could be: %s",
		    json_array_size(mounts) - bad, names_str(&un, miss,
		    sizeof(miss)));
	else if (fa_evidence_add(ev, fa_evidence(o, "mounts_examined",
	    json_integer((json_int_t)json_array_size(mounts)))) != 0)
		goto nomem;
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, ev,
		    "no sensitive host directory among %zu mounts; /proc/sys "
		    "and /sys are not writable", json_array_size(mounts));
	return r < 0 ? r : 0;
nomem:
	json_decref(ev);
	return FA_ERR_NOMEM;
}

/*
 * The evidence of a pass over probed paths: each path of a role starting
 * with p1 or p2 (NULL: none) that was examined, whether it exists; NULL
 * when out of memory (fa_results_add then adds an empty list, and the
 * pass becomes an error).
 */
static json_t *
examined(const struct fa_snapshot *s, const char *p1, const char *p2)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0;
	json_t *ev = json_array();

	while (ev != NULL && (o = fa_snapshot_next(s, FA_KIND_HOST_PATH,
	    &it))) {
		role = fa_obs_str(o, FA_F(HOST_PATH, role));
		if (role == NULL || o->state != FA_OBS_COMPLETE ||
		    (strncmp(role, p1, strlen(p1)) != 0 && (p2 == NULL ||
		    strncmp(role, p2, strlen(p2)) != 0)))
			continue;
		if (fa_evidence_add(ev, fa_evidence(o, "examined", json_pack(
		    "{s:s, s:b}", "path", o->target, "exists",
		    json_is_true(fa_obs_jbool(o, FA_F(HOST_PATH,
		    exists)))))) != 0) {
			json_decref(ev);
			ev = NULL;
		}
	}
	return ev;
}

static int
eval_escape(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	struct names un;
	const char *role;
	char miss[800];
	size_t it = 0, bad = 0, seen = 0, agents = 0;
	int r, w;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	(void)fa_host_creds(ctx->snap, &cr);
	memset(&un, 0, sizeof(un));
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_PATH, &it))) {
		role = fa_obs_str(o, FA_F(HOST_PATH, role));
		if (role == NULL || (strncmp(role, "escape:", 7) != 0 &&
		    strncmp(role, "kernel-if:", 10) != 0))
			continue;
		if (o->state != FA_OBS_COMPLETE) {
			note_obs(&un, o);
			continue;
		}
		seen++;
		if (!exists_as(o, "file"))
			continue;
		if (strcmp(role, "escape:release_agent") == 0)
			agents++;
		if ((w = fa_host_writable(ctx->snap, &cr, o)) == 0)
			continue;
		if (w < 0) {
			note(&un, "%s (whether it is writable is not known)",
			    o->target);
			continue;
		}
		bad++;
		if ((r = fa_results_add(out, c, FA_ST_FAIL, o->target,
		    strchr(role, ':') + 1, path_evidence(o, w), "%s is "
		    "writable from the container: %s", o->target,
		    strcmp(role, "kernel-if:sysrq-trigger") == 0 ? "it can "
		    "crash, reboot or freeze the host" : "the kernel runs the "
		    "program it names as host root")) < 0)
			return r;
	}
	if (bad > 0)
		return 0;
	if (fa_host_mount_for(ctx->snap, "/") == NULL)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, NULL,
		    "the mount table was not read, so writability cannot be "
		    "judged");
	else if (seen == 0 && un.n == 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, NULL,
		    "no escape file was probed");
	else if (un.n > 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, NULL,
		    "%zu escape files could not be judged (unread, or their "
		    "mount or mode unknown): %s", un.n, names_str(&un, miss,
		    sizeof(miss)));
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL,
		    examined(ctx->snap, "escape:", "kernel-if:"), "no writable "
		    "release_agent (%zu cgroup v1 hierarchies seen), "
		    "core_pattern, modprobe, uevent_helper or sysrq-trigger",
		    agents);
	return r < 0 ? r : 0;
}

/* Why a device node is an exposure, or NULL. */
static const char *
device_risk(const char *path, const char *type, uint64_t cap_eff)
{
	const char *b = strrchr(path, '/') + 1;
	unsigned raw;

	if (strcmp(type, "block") == 0)
		return "a block device: raw access to a disk";
	if (strncmp(path, "/dev/infiniband/umad", 20) == 0)
		return "raw InfiniBand MAD access (SMPs and GMPs to the fabric)";
	if (strncmp(path, "/dev/infiniband/issm", 20) == 0)
		return "the InfiniBand IsSM capability (can claim to be an SM)";
	if (strncmp(path, "/dev/infiniband/uverbs", 22) == 0)
		return fa_cap_from_name("cap_net_raw", &raw) == 0 &&
		    (cap_eff >> raw & 1) ? "RDMA verbs with CAP_NET_RAW: raw "
		    "packet QPs can send any frame on the fabric" : NULL;
	if (strncmp(path, "/dev/nvidia-caps/", 17) == 0)
		return "an NVIDIA MIG capability (configure or monitor every "
		    "GPU instance)";
	if (strncmp(path, "/dev/nvidia-caps-imex-channels/", 31) == 0)
		return "an NVIDIA IMEX channel (import other nodes' GPU "
		    "memory over NVLink)";
	if (strncmp(b, "nvidia-nvswitch", 15) == 0)
		return "an NVSwitch control node";
	if (strcmp(path, "/dev/mem") == 0 || strcmp(path, "/dev/kmem") == 0 ||
	    strcmp(path, "/dev/port") == 0)
		return "physical memory or I/O port access";
	if (strcmp(path, "/dev/kmsg") == 0)
		return "the host kernel log";
	return NULL;
}

static int
eval_devices(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	struct fa_host_env env;
	struct fa_host_creds cr;
	struct names un;
	const json_t *nodes, *nd, *d, *u;
	const char *path, *type, *risk, *dir, *why;
	char miss[800];
	json_t *ev;
	size_t i, j, bad = 0, odd = 0, oddn = 0;
	long long more;
	int r;

	if ((r = fa_host_container_gate(c, ctx, out, &env)) != 0)
		return r < 0 ? r : 0;
	fa_host_env_free(&env);
	if (fa_host_creds(ctx->snap, &cr) != 0 || !(cr.have & FA_CRED_EFF))
		cr.cap_eff = ~0ull;	/* unknown: assume the worst */
	o = fa_snapshot_find(ctx->snap, FA_KIND_HOST_DEVICES, "/dev");
	if (o == NULL || o->state != FA_OBS_COMPLETE)
		return fa_results_add(out, c, o != NULL ? fa_status_for_obs(o) :
		    FA_ST_NOT_TESTED, "host", NULL, NULL, "/dev was not "
		    "listed%s%s", o != NULL ? ": " : "", o != NULL ?
		    fa_obs_reason(o) : "") < 0 ? FA_ERR_NOMEM : 0;
	memset(&un, 0, sizeof(un));
	/* Directories not listed (absent ones aside) and entries not
	 * stat'ed: their nodes were not seen. */
	json_array_foreach(fa_obs_arr(o, FA_F(HOST_DEVICES, dirs)), i, d) {
		dir = fa_json_get_str(d, "path");
		if (dir == NULL) {
			odd++;
			continue;
		}
		if (!json_is_true(json_object_get(d, "listed"))) {
			if (!json_is_true(json_object_get(d, "absent"))) {
				why = fa_json_get_str(d, "reason");
				note(&un, "%s (%s)", dir, why != NULL ? why :
				    "not listed");
			}
			continue;
		}
		json_array_foreach(json_object_get(d, "unread"), j, u)
			note(&un, "%s/%s (not stat'ed)", dir,
			    json_string_value(u) != NULL ?
			    json_string_value(u) : "?");
		if (fa_json_get_int(d, "unread_count", 0, 1ll << 40, &more) !=
		    0)
			more = 0;
		more -= (long long)json_array_size(json_object_get(d,
		    "unread"));
		if (more > 0)
			note(&un, "%lld more entries of %s (not stat'ed)",
			    more, dir);
	}
	nodes = fa_obs_arr(o, FA_F(HOST_DEVICES, nodes));
	json_array_foreach(nodes, i, nd) {
		path = fa_json_get_str(nd, "path");
		type = fa_json_get_str(nd, "type");
		if (path == NULL || type == NULL || strchr(path, '/') == NULL) {
			oddn++;
			continue;
		}
		if ((risk = device_risk(path, type, cr.cap_eff)) == NULL)
			continue;
		bad++;
		if ((ev = json_pack("[o]", fa_evidence(o, "node",
		    json_deep_copy(nd)))) == NULL ||
		    (r = fa_results_add(out, c, FA_ST_FAIL, path, NULL, ev,
		    "%s is in the container: %s", path, risk)) < 0)
			return FA_ERR_NOMEM;
	}
	if (bad > 0)
		return 0;
	if (odd + oddn > 0)
		note(&un, "%zu entries of the listing (no path or type)",
		    odd + oddn);
	if (un.n > 0)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL, NULL,
		    "none of the %zu device nodes seen is a raw fabric, "
		    "GPU-management, memory, block or kernel-log device, but "
		    "not all of /dev could be examined: %s",
		    json_array_size(nodes) - oddn, names_str(&un, miss,
		    sizeof(miss)));
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL, json_pack(
		    "[o]", fa_evidence(o, "nodes_examined", json_integer(
		    (json_int_t)json_array_size(nodes)))), "none of the %zu "
		    "device nodes is a raw fabric, GPU-management, memory, "
		    "block or kernel-log device", json_array_size(nodes));
	return r < 0 ? r : 0;
}

static int
eval_token(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	const char *role;
	size_t it = 0, total, unread, found = 0;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_HOST_PATH, &it))) {
		role = fa_obs_str(o, FA_F(HOST_PATH, role));
		if (role == NULL || strcmp(role, "k8s-token") != 0 ||
		    !exists_as(o, NULL))
			continue;
		found++;
		if ((r = fa_results_add(out, c, FA_ST_FAIL, o->target, NULL,
		    path_evidence(o, -1), "a Kubernetes service-account token "
		    "is mounted at %s (its content was not read)", o->target))
		    < 0)
			return r;
	}
	if (found > 0)
		return 0;
	probes_of(ctx->snap, "k8s-token", &total, &unread);
	r = fa_results_add(out, c, total == 0 || unread > 0 ?
	    FA_ST_NOT_TESTED : FA_ST_PASS, "host", NULL, total == 0 ||
	    unread > 0 ? NULL : examined(ctx->snap, "k8s-token", NULL),
	    total == 0 ?
	    "the token paths were not probed" : unread > 0 ? "%zu token "
	    "paths could not be examined" : "no service-account token at "
	    "the %zu probed paths", unread > 0 ? unread : total);
	return r < 0 ? r : 0;
}

const struct fa_check fa_chk_host_runtime_socket = {
	.id = "HOST-RUNTIME-SOCKET",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_CRITICAL,
	.title = "A container runtime or kubelet socket is reachable",
	.rationale = "Whoever can talk to the Docker, containerd, CRI-O or "
	    "kubelet socket can start a privileged container on the node or "
	    "read other pods' devices: full control of the host and of its "
	    "other tenants.",
	.remediation = "Do not mount runtime or kubelet sockets into tenant "
	    "containers; on hosts keep them owned by root and a dedicated "
	    "group, never world-writable.",
	.msa_clause = "Provider shall not expose any container runtime or "
	    "kubelet API socket to Customer workloads, nor to any other "
	    "customer's workloads on hosts that run Customer workloads.",
	.refs = refs_sock,
	.sends = FA_HOST_SENDS("the status (stat) of the Docker, containerd, "
	    "CRI-O, Podman, cri-dockerd, dockershim, BuildKit, NRI, LXD, Incus "
	    "and kubelet socket paths under /run, /var/run, /var/lib and "
	    "/var/snap; /proc/net/unix; the status (stat) of each file "
	    "bind-mounted according to /proc/self/mountinfo and of the "
	    "well-known socket names under each mounted directory; " WRITABLE
	    ENV),
	.outcomes = "Runtime sockets are looked for at the well-known paths of "
	    "Docker, containerd, CRI-O, Podman, cri-dockerd, dockershim, "
	    "BuildKit, NRI, LXD, Incus and the kubelet; among the listening "
	    "sockets of /proc/net/unix (flag __SO_ACCEPTCON, state "
	    "unconnected); and, in a container, in the mount table: a socket "
	    "bind-mounted at any path, or one inside a mounted directory under "
	    "a tail of a well-known path (run/docker.sock, "
	    "containerd/containerd.sock...). No socket is connected to, so "
	    "whether a socket speaks a runtime API is decided by its name "
	    "alone: its file name or directory (docker.sock, containerd.sock, "
	    "crio.sock, podman.sock, cri-dockerd.sock, dockershim.sock, "
	    "buildkitd.sock, nri.sock, kubelet.sock, containerd shims under "
	    "/run/containerd/s/, the kubelet's plugins and plugins_registry "
	    "directories, lxd/unix.socket, incus/unix.socket), or for an "
	    "abstract socket its name (@/containerd-shim/..., CVE-2020-15257); "
	    "the evidence gives the path, owner, mode and where the socket was "
	    "found, for the provider to confirm. One result per runtime socket "
	    "found. In a container (or where that cannot be told), fails for a "
	    "socket this process may connect to (write permission on it; a "
	    "read-only mount does not stop connect(2)) or whose writability "
	    "cannot be told, and passes for one it may not; on a host, fails "
	    "for a world-writable socket and passes otherwise. An abstract "
	    "runtime socket listening in this network namespace fails "
	    "anywhere: it has no permission bits. In a container, a "
	    "bind-mounted socket whose name identifies nothing is not tested "
	    "when this process may, or perhaps may, connect to it. Sockets of "
	    "known daemons that serve no runtime API (nvidia-persistenced, "
	    "nvidia-fabricmanager, syslog, journald, sd_notify, device "
	    "plugins' own endpoints) and listening sockets whose names "
	    "identify nothing are shown in the evidence, not judged. When "
	    "nothing fails: passes when no runtime socket is reachable and "
	    "everything was examined; not tested, naming what was not, when a "
	    "probed path could not be stat'ed, /proc/net/unix was not read or "
	    "has lines not understood, a runtime socket it lists could not be "
	    "stat'ed, or, in a container, the mount table was not read or a "
	    "mount could not be searched. Network and FUSE file systems are "
	    "not searched (a stat there can block on the server); the evidence "
	    "names them. They cannot hold the host's runtime sockets: a bind "
	    "mount shows the file system of its source, and runtimes bind "
	    "their sockets on local ones (/run). Not tested when no path was "
	    "probed.",
	.eval = eval_socket,
};

const struct fa_check fa_chk_host_hostpath = {
	.id = "HOST-HOSTPATH",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Sensitive host paths are mounted into the container",
	.rationale = "A bind mount of the host's /, /etc, /var/lib/kubelet or "
	    "similar, or writable /proc/sys or /sys, lets the container read "
	    "host secrets or change the host kernel's behaviour.",
	.remediation = "Remove hostPath mounts of host system directories; "
	    "mount /proc/sys and /sys read-only (the runtime defaults).",
	.msa_clause = "Provider shall not mount host system directories into "
	    "Customer containers and shall keep /proc/sys and /sys read-only "
	    "in them.",
	.refs = refs_mount,
	.sends = FA_HOST_SENDS("/proc/self/mountinfo" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails when a disk filesystem is "
	    "mounted from a sensitive host directory (/, /etc, /root, /home, "
	    "/var, /var/lib, /var/lib/kubelet, /var/lib/docker, /run, /boot, "
	    "/usr, /lib/modules, /dev, /proc, /sys, /etc/kubernetes, "
	    "/var/lib/etcd and the like) anywhere but the container's own "
	    "root, or when /proc/sys or /sys is mounted read-write. Passes "
	    "otherwise. Not tested when the mount table was not read, or, when "
	    "nothing fails, when some of its lines or entries were not "
	    "understood or no mount covers /proc/sys or /sys; the reason names "
	    "them.",
	.eval = eval_hostpath,
};

const struct fa_check fa_chk_host_cgroup_escape = {
	.id = "HOST-CGROUP-ESCAPE",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_CRITICAL,
	.title = "A kernel helper path (cgroup release_agent, core_pattern) is "
	    "writable",
	.rationale = "The kernel runs the program named in a cgroup v1 "
	    "release_agent, in core_pattern, modprobe or uevent_helper as root "
	    "on the host: writing one of them from a container is a direct "
	    "escape.",
	.remediation = "Mount cgroupfs, /proc/sys and /sys read-only in "
	    "containers (runtime defaults), use cgroup v2, and never grant "
	    "CAP_SYS_ADMIN.",
	.msa_clause = "Provider shall ensure that no kernel helper path "
	    "(cgroup release_agent, core_pattern, modprobe, uevent_helper) is "
	    "writable from Customer containers.",
	.refs = refs_escape,
	.sends = FA_HOST_SENDS("the status (stat) of the release_agent file of "
	    "each cgroup v1 hierarchy under /sys/fs/cgroup and at each cgroup "
	    "v1 mount of /proc/self/mountinfo, of "
	    "/proc/sys/kernel/core_pattern, /proc/sys/kernel/modprobe, "
	    "/sys/kernel/uevent_helper and /proc/sysrq-trigger, " WRITABLE ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails for each of these files that "
	    "this process may write. Passes when none is writable. Not tested "
	    "when the mount table was not read, or, when none is writable, "
	    "when some of the files could not be judged (unread, "
	    "/sys/fs/cgroup not listed, or their mount or mode unknown); the "
	    "reason names them.",
	.eval = eval_escape,
};

const struct fa_check fa_chk_host_device_exposed = {
	.id = "HOST-DEVICE-EXPOSED",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "Raw host devices are exposed in the container",
	.rationale = "umad/issm nodes send raw management datagrams to the "
	    "whole InfiniBand fabric, uverbs with CAP_NET_RAW sends raw "
	    "frames, nvidia-caps, NVSwitch and IMEX nodes manage GPUs other "
	    "tenants use, and /dev/mem, block devices and /dev/kmsg reach the "
	    "host directly.",
	.remediation = "Expose only the devices a workload needs (GPU and "
	    "uverbs via CDI or device plugins); never umad, issm, nvidia-caps, "
	    "NVSwitch, IMEX, memory, block or kmsg nodes to tenants.",
	.msa_clause = "Provider shall not expose to Customer containers any "
	    "raw management device (InfiniBand umad or issm, NVIDIA MIG "
	    "capability, NVSwitch or IMEX channel nodes), memory or block "
	    "device, nor the host kernel log.",
	.refs = refs_dev,
	.sends = FA_HOST_SENDS("the listings of /dev and of every directory "
	    "under it (symbolic links not followed) with the type, numbers and "
	    "mode of each node (never opened), /proc/self/status (CapEff)" ENV),
	.outcomes = FA_HOST_IN_CONTAINER "Fails for each block device, "
	    "InfiniBand umad or issm node, uverbs node while CAP_NET_RAW is "
	    "effective (or the capabilities are unknown), NVIDIA MIG "
	    "capability, IMEX channel or NVSwitch node, /dev/mem, /dev/kmem, "
	    "/dev/port or /dev/kmsg present anywhere under /dev. Passes when "
	    "there is none. Not tested when /dev could not be listed, or, when "
	    "nothing fails, when a directory under it could not be listed or "
	    "an entry could not be stat'ed; the reason names them.",
	.eval = eval_devices,
};

const struct fa_check fa_chk_host_k8s_token = {
	.id = "HOST-K8S-TOKEN",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_MEDIUM,
	.title = "A Kubernetes service-account token is mounted",
	.rationale = "A mounted service-account token is a credential for the "
	    "cluster's API server; what it allows depends on RBAC the tenant "
	    "cannot see.",
	.remediation = "Set automountServiceAccountToken: false for tenant "
	    "pods that do not call the API, and bind any token they need to "
	    "least privilege.",
	.msa_clause = "Provider shall not mount Kubernetes API credentials "
	    "into Customer workloads unless Customer requests it, and shall "
	    "limit any such credential to Customer's own namespace.",
	.refs = refs_token,
	.sends = FA_HOST_SENDS("the status (stat) of the service-account token "
	    "paths /var/run/secrets/kubernetes.io/serviceaccount/token and "
	    "/run/secrets/kubernetes.io/serviceaccount/token; the token itself "
	    "is never read"),
	.outcomes = "One result per token found. Fails for each token present, "
	    "on a host as in a container. Passes when no token is at the "
	    "probed paths. Not tested when the paths were not probed or some "
	    "could not be examined.",
	.eval = eval_token,
};
