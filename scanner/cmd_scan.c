/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit scan: decide which families can run, acquire, evaluate, write.
 * Families: ib, eth and host (with no family option, every one that can
 * run: ib when a port is usable, eth on the interfaces that are up, host
 * on "/").
 *
 * Started as root, the scan does its network-facing part (the live
 * Ethernet capture and probes, the whole InfiniBand acquisition) in a
 * child that drops to --user (default nobody) first; see privsep.c.
 */
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/privdrop.h"
#include "../core/util.h"
#include "../fabric/eth_active.h"
#include "../fabric/eth_capture.h"
#include "../fabric/eth_pcap_read.h"
#include "../fabric/eth_live.h"
#include "../fabric/eth_reach.h"
#include "../fabric/host.h"
#include "../fabric/ib.h"
#include "../fabric/ib_pcap.h"
#include "scanner.h"
#include "../core/obs_fields.h"
#include "../core/obs_kinds.h"

const char fa_usage_scan[] =
    "usage: fabaudit scan [-q] [--active] [--ib] [--eth[=iface,...]]\n"
    "                     [--host[=sysroot]] [--listen seconds] [--pcap file]\n"
    "                     [--max-frames count]\n"
    "                     [--reveal-secrets] [-C ca] [-c policy]\n"
    "                     [--cve-db file] [--cve-key key.pub.pem]\n"
    "                     [-f formats] [--fail-on severity]\n"
    "                     [-o outdir] [-P port] [--retries count]\n"
    "                     [--max-outstanding count] [--key-probes list]\n"
    "                     [--baseline report.json] [--sign key.pem]\n"
    "                     [--history dir] [--keep count] [--metrics file]\n"
    "                     [--syslog] [--timeout ms] [--max-time seconds]\n"
    "                     [--user name] [--node-name name]\n";

enum { OPT_IB = 256, OPT_REVEAL, OPT_FAIL_ON, OPT_RETRIES, OPT_TIMEOUT,
	OPT_ACTIVE, OPT_HOST, OPT_CVEDB, OPT_ETH, OPT_LISTEN, OPT_PCAP,
	OPT_SIGN, OPT_BASELINE, OPT_HISTORY, OPT_KEEP, OPT_METRICS,
	OPT_SYSLOG, OPT_MAX_OUTSTANDING, OPT_MAX_TIME, OPT_USER,
	OPT_KEY_PROBES, OPT_MAX_FRAMES, OPT_CVEKEY, OPT_NODE_NAME };

static const struct option longopts[] = {
	{ "active", no_argument, NULL, OPT_ACTIVE },
	{ "ib", no_argument, NULL, OPT_IB },
	{ "host", optional_argument, NULL, OPT_HOST },
	{ "cve-db", required_argument, NULL, OPT_CVEDB },
	{ "cve-key", required_argument, NULL, OPT_CVEKEY },
	{ "eth", optional_argument, NULL, OPT_ETH },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "pcap", required_argument, NULL, OPT_PCAP },
	{ "max-frames", required_argument, NULL, OPT_MAX_FRAMES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "reveal-secrets", no_argument, NULL, OPT_REVEAL },
	{ "ca", required_argument, NULL, 'C' },
	{ "config", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, 'f' },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "sign", required_argument, NULL, OPT_SIGN },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "syslog", no_argument, NULL, OPT_SYSLOG },
	{ "output", required_argument, NULL, 'o' },
	{ "port", required_argument, NULL, 'P' },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "max-outstanding", required_argument, NULL, OPT_MAX_OUTSTANDING },
	{ "key-probes", required_argument, NULL, OPT_KEY_PROBES },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "user", required_argument, NULL, OPT_USER },
	{ "node-name", required_argument, NULL, OPT_NODE_NAME },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int
num_opt(const char *name, const char *arg, uint64_t min, uint64_t max,
    uint64_t *out)
{
	const char *err;

	if (fa_parse_u64(arg, min, max, out, &err) != 0) {
		fa_diag(name, "'%s' is %s (allowed %llu-%llu)", arg, err,
		    (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	return 0;
}

/*
 * The staged file dir/name, not placed with a report: removed (once
 * placed it is gone under that name), and no longer listed for removal.
 */
static void
drop_staged(const char *dir, const char *name)
{
	char *p = fa_strfmt("%s/%s", dir, name);

	if (p != NULL) {
		(void)unlink(p);
		fa_interrupt_forget(p);
	}
	free(p);
}

/* 1 when path is a directory. */
static int
exists_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The families actually collected, for scan.families. */
static json_t *
scanned_families(const struct fa_snapshot *snap)
{
	json_t *a = json_array();
	int f;

	for (f = 0; a != NULL && f < FA_FAM_MAX; f++)
		if (snap->fam[f].state == FA_FAMST_COLLECTED &&
		    json_array_append_new(a, json_string(fa_family_name(
		    (enum fa_family)f))) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* The key probes' classes, in ib_gmpkeys.c's order (--key-probes). */
static const struct {
	const char	*name;
	unsigned	 bit;
} key_probes[] = {
	{ "cc", FA_IB_KEYPROBE_CC },
	{ "vs", FA_IB_KEYPROBE_VS },
	{ "am", FA_IB_KEYPROBE_AM },
};
#define NKEY_PROBES	(sizeof(key_probes) / sizeof(key_probes[0]))

/*
 * --key-probes: "none", or the classes to probe from cc, vs and am; the
 * others are left out (*off).  0, or -1 after a diagnostic.
 */
static int
parse_key_probes(const char *s, unsigned *off)
{
	char *copy, *tok, *save = NULL;
	unsigned on = 0;
	size_t i;
	int r = 0;

	if (strcmp(s, "none") == 0) {
		*off = FA_IB_KEYPROBE_ALL;
		return 0;
	}
	if ((copy = strdup(s)) == NULL) {
		fa_diag(NULL, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NKEY_PROBES; i++)
			if (strcmp(tok, key_probes[i].name) == 0)
				break;
		if (i == NKEY_PROBES) {
			fa_diag("--key-probes", "unknown class '%s' (cc, vs, "
			    "am, or none alone)", tok);
			r = -1;
			continue;
		}
		on |= key_probes[i].bit;
	}
	if (r == 0 && on == 0) {
		fa_diag("--key-probes", "no class given (cc, vs, am, or "
		    "none)");
		r = -1;
	}
	free(copy);
	*off = FA_IB_KEYPROBE_ALL & ~on;
	return r;
}

/* The classes the key probes cover, as the scan's options record them. */
static json_t *
key_probes_json(unsigned off)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a != NULL && i < NKEY_PROBES; i++)
		if (!(off & key_probes[i].bit) && json_array_append_new(a,
		    json_string(key_probes[i].name)) != 0) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

/*
 * --node-name: the scheduler's name of this node (Slurm's SLURMD_NODENAME,
 * Kubernetes' spec.nodeName), 1-64 bytes of letters, digits and
 * "-_.:@", as both schedulers' names are.  0, or -1 with a diagnostic.
 */
static int
node_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64 || strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:@") != n) {
		fa_diag("--node-name", "must be 1 to 64 letters, digits or "
		    "-_.:@");
		return -1;
	}
	return 0;
}

/*
 * scan.id: 128 random bits in hex, the identity of this scan; with
 * scan.node (--node-name) and scan.host it tells apart two nodes that
 * report the same host name to `fabaudit merge`.
 */
static int
scan_id(char out[33])
{
	unsigned char b[16];
	size_t i;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return FA_ERR_INTERNAL;
	for (i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

static int
set_meta(struct fa_snapshot *snap, const struct fa_ib_opts *ib,
    const char *node_name, time_t started, json_t *cvedb,
    const char *cvedb_path, const char *cvedb_why, const json_t *cvedb_prov)
{
	char host[256], when[32], id[33], *h, *by = NULL;
	const struct passwd *pw;
	json_t *scan, *fams;

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	if ((h = fa_str_sanitize(host, strlen(host))) == NULL)
		return FA_ERR_NOMEM;
	/* Who ran it, for the report's scope: user@host. */
	if ((pw = getpwuid(geteuid())) != NULL && pw->pw_name != NULL &&
	    (by = fa_strfmt("%s@%s", pw->pw_name, host)) != NULL) {
		char *t = fa_str_sanitize(by, strlen(by));

		free(by);
		by = t;
	}
	fa_time_rfc3339(started, when, sizeof(when));
	if (scan_id(id) != 0) {
		free(h);
		free(by);
		return FA_ERR_INTERNAL;
	}
	fams = json_array();	/* filled in when the scan ends */
	/* max_smps: the name of the window before --max-outstanding, kept
	 * for readers of older snapshots' fields. */
	scan = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:o, s:b, s:o, s:{s:s?, "
	    "s:i, s:i, s:i, s:i, s:i, s:i, s:o}}", "id", id, "started", when,
	    "host", h, "node", node_name, "run_by", by,
	    "families", fams,
	    "active", ib->active, "catalogue", fa_catalogue_meta(cvedb,
	    cvedb_path, cvedb_why, started, cvedb_prov), "ib_options", "ca",
	    ib->ca,
	    "port", ib->port, "timeout_ms", ib->timeout_ms, "retries", ib->retries,
	    "max_outstanding", ib->max_outstanding, "per_destination",
	    FA_IB_PER_DEST, "max_smps", ib->max_outstanding, "key_probes",
	    key_probes_json(ib->key_probes_off));
	free(h);
	free(by);
	if (scan == NULL || json_object_set_new(snap->meta, "scan", scan) != 0 ||
	    json_object_set_new(snap->meta, "tool", json_pack("{s:s, s:s}",
	    "name", "fabaudit", "version", FA_VERSION)) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

/*
 * The progress line of an IB scan on a terminal, rewritten in place
 * (carriage return, then erase to the end of the line: ECMA-48 EL) and
 * cut to the terminal's width, since a line that wraps cannot be
 * rewritten; the last call (phase NULL) erases it.
 */
static void
ib_progress(const struct fa_ib_progress *p, void *arg)
{
	struct winsize ws;
	char line[256];
	size_t cols = 80;

	(void)arg;
	if (p->phase == NULL) {
		fputs("\r\033[K", stderr);
		return;
	}
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		cols = ws.ws_col;
	if (p->total > 0)
		snprintf(line, sizeof(line), "fabaudit: ib: %s: %lu ports, "
		    "%lu/%lu probes, %lu MADs sent, %u in flight, %lu lost",
		    p->phase, p->ports, p->done, p->total, p->sent,
		    p->inflight, p->lost);
	else
		snprintf(line, sizeof(line), "fabaudit: ib: %s: %lu nodes, "
		    "%lu ports, %lu MADs sent, %u in flight, %lu lost",
		    p->phase, p->nodes, p->ports, p->sent, p->inflight,
		    p->lost);
	if (cols - 1 < sizeof(line))
		line[cols - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

/* The progress line of a live Ethernet listen (fabric/eth_live.h). */
static void
eth_progress(const struct fa_eth_progress *p, void *arg)
{
	(void)arg;
	if (p->done)
		fputs("\n", stderr);
	else
		fprintf(stderr, "\rfabaudit: eth: listening on %zu "
		    "interface%s: %3ld s left, %llu frames ", p->ifaces,
		    p->ifaces > 1 ? "s" : "", p->left, p->frames);
}

/* The IB family: 0, or FA_EXIT_NORUN after a diagnostic. */
static int
run_ib(struct fa_ib_opts *ib, struct fa_snapshot *snap, int quiet,
    int *usable)
{
	char *why = NULL;
	int r;

	if (fa_ib_available(ib, &why) != 0) {
		fa_diag("ib", "skipped: %s", why != NULL ? why : "unavailable");
		r = fa_snapshot_set_family(snap, FA_FAM_IB,
		    FA_FAMST_UNAVAILABLE, why);
	} else {
		if (!quiet && isatty(STDERR_FILENO)) {
			fputs("fabaudit: ib: scanning the fabric...\n",
			    stderr);
			ib->progress = ib_progress;
		}
		r = fa_ib_collect(ib, snap);
		if (r == 0 && snap->fam[FA_FAM_IB].state == FA_FAMST_COLLECTED)
			(*usable)++;
		else if (r == 0)
			fa_diag("ib", "%s: %s", fa_fam_state_name(
			    snap->fam[FA_FAM_IB].state),
			    snap->fam[FA_FAM_IB].reason != NULL ?
			    snap->fam[FA_FAM_IB].reason : "no reason");
	}
	free(why);
	if (r != 0) {
		fa_diag("ib", "%s", fa_strerror(r));
		return FA_EXIT_NORUN;
	}
	return 0;
}

struct eth_opts {
	int		 active;	/* --active: VLAN probes, ARP scan */
	char		*ifaces;	/* --eth=a,b (modified in place) */
	const char	*pcap;		/* --pcap FILE */
	int		 pcap_fd;	/* it, opened by the invoking user */
	unsigned	 listen;	/* seconds */
	unsigned long long max_frames;	/* --max-frames; 0: all */
};

/*
 * The --pcap file, opened for the reader: a regular file only (a FIFO
 * would block, a device be read); -1 after a diagnostic.
 */
static int
open_pcap(const char *path)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) < 0) {
		fa_diag("--pcap", "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		fa_diag("--pcap", "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* The Ethernet family: 0, FA_EXIT_USAGE (bad --pcap) or FA_EXIT_NORUN. */
static int
run_eth(struct eth_opts *e, const struct fa_policy *policy,
    struct fa_snapshot *snap, int quiet, int *usable)
{
	char **ifs = NULL, *why = NULL, *list[FA_ETH_LISTEN_MAX + 1], *s;
	size_t n = 0;
	int r;

	if (e->pcap != NULL) {
		/* A saved capture stands for the wire; this host's links do
		 * not describe it, so none are recorded. */
		r = fa_eth_read_pcap_fd(e->pcap_fd, e->pcap, e->max_frames,
		    snap, &why);
		e->pcap_fd = -1;	/* closed by the reader */
		if (r == FA_ERR_NOMEM)
			goto nomem;
		if (r != 0) {
			fa_diag("--pcap", "%s: %s", e->pcap, why);
			free(why);
			return FA_EXIT_USAGE;
		}
	} else {
		if (fa_eth_collect_links(snap) != 0)
			goto nomem;
		if (e->ifaces != NULL) {
			for (s = strtok(e->ifaces, ","); s != NULL &&
			    n < FA_ETH_LISTEN_MAX; s = strtok(NULL, ","))
				list[n++] = s;
			list[n] = NULL;
		} else if ((ifs = fa_eth_up_interfaces(snap)) == NULL) {
			goto nomem;
		}
		if ((e->ifaces != NULL ? list[0] : ifs[0]) == NULL)
			fa_diag("eth", "no interface is up: nothing to listen "
			    "on");
		else if (fa_eth_listen(e->ifaces != NULL ? list : ifs,
		    e->listen, !quiet && isatty(STDERR_FILENO) ?
		    eth_progress : NULL, NULL, snap) != 0 ||
		    (e->active && policy->n_foreign_vlan > 0 &&
		    fa_eth_vlan_probe(e->ifaces != NULL ? list : ifs, policy,
		    snap) != 0) || (e->active && fa_eth_arp_scan(
		    e->ifaces != NULL ? list : ifs, snap) != 0)) {
			free(ifs);
			goto nomem;
		}
		free(ifs);
		/* The policy's must-not-reach targets, from this node. */
		if (policy->n_mgmt_target + policy->n_foreign_target > 0) {
			if (!quiet && isatty(STDERR_FILENO))
				fprintf(stderr, "fabaudit: eth: probing %zu "
				    "must-not-reach targets...\n",
				    policy->n_mgmt_target +
				    policy->n_foreign_target);
			if (fa_eth_probe_targets(policy, snap) != 0)
				goto nomem;
		}
	}
	if (fa_snapshot_set_family(snap, FA_FAM_ETH, FA_FAMST_COLLECTED,
	    NULL) != 0)
		goto nomem;
	(*usable)++;
	return 0;
nomem:
	fa_diag("eth", "out of memory");
	return FA_EXIT_NORUN;
}

/* The host family: 0, or FA_EXIT_NORUN after a diagnostic. */
static int
run_host(const struct fa_host_opts *host, struct fa_snapshot *snap,
    int quiet, int *usable)
{
	char *why = NULL;
	int r;

	if (!quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "fabaudit: host: reading %s...\n",
		    host->sysroot);
	if (host->cvedb == NULL && !quiet)
		fa_diag("host", "no CVE catalogue (%s); the *-VULN checks will "
		    "not be tested", host->cvedb_why);
	r = fa_host_collect(host, snap, &why);
	if (r == 0 && snap->fam[FA_FAM_HOST].state == FA_FAMST_COLLECTED)
		(*usable)++;
	else if (r == 0)
		fa_diag("host", "skipped: %s", why != NULL ? why :
		    "unavailable");
	free(why);
	if (r != 0) {
		fa_diag("host", "%s", fa_strerror(r));
		return FA_EXIT_NORUN;
	}
	return 0;
}

/*
 * --max-time reached before family f began: it is recorded as unavailable
 * with that reason (its checks then not_tested); 1 if so, else 0.
 */
static int
too_late(struct fa_snapshot *snap, enum fa_family f)
{
	char *why;
	int r;

	if (!fa_deadline_passed())
		return 0;
	why = fa_strfmt("--max-time %u s reached before the %s family was "
	    "scanned", fa_deadline_seconds(), fa_family_name(f));
	r = fa_snapshot_set_family(snap, f, FA_FAMST_UNAVAILABLE, why);
	free(why);
	return r == 0 ? 1 : -1;
}

/* What the acquisition child runs (privsep.c), through live_eth/live_ib. */
struct live {
	struct eth_opts		*eth;
	struct fa_ib_opts	*ib;
	const struct fa_policy	*policy;
	int			 quiet;
};

/* The live Ethernet family, unless --max-time is spent: an exit status. */
static int
live_eth(void *arg, struct fa_snapshot *snap, int *usable)
{
	const struct live *lv = arg;
	int r = too_late(snap, FA_FAM_ETH);

	return r < 0 ? FA_EXIT_NORUN : r > 0 ? 0 : run_eth(lv->eth,
	    lv->policy, snap, lv->quiet, usable);
}

/* The InfiniBand family, unless --max-time is spent: an exit status. */
static int
live_ib(void *arg, struct fa_snapshot *snap, int *usable)
{
	const struct live *lv = arg;
	int r = too_late(snap, FA_FAM_IB);

	return r < 0 ? FA_EXIT_NORUN : r > 0 ? 0 : run_ib(lv->ib, snap,
	    lv->quiet, usable);
}

int
fa_cmd_scan(int argc, char **argv)
{
	struct fa_ib_opts ib = { .timeout_ms = FA_IB_DEF_TIMEOUT_MS,
	    .retries = FA_IB_DEF_RETRIES,
	    .max_outstanding = FA_IB_DEF_MAX_OUTSTANDING };
	struct fa_out_opts out = { .json = 1, .txt = 1, .xml = 1, .html = 1,
	    .fail_on = FA_SEV_HIGH };
	struct fa_policy *policy = NULL;
	struct fa_snapshot *snap = NULL;
	const char *policy_path = NULL;
	char defdir[64], stamp[32], when[32];
	uint64_t v;
	time_t started;
	struct fa_host_opts host = { "/", NULL, NULL, NULL };
	const char *cvedb_opt = NULL, *cvekey_opt = NULL;
	json_t *cvedb_prov = NULL;
	char *cvedb_path = NULL, *cvedb_why = NULL;
	json_t *cvedb = NULL;
	struct eth_opts eth = { 0, NULL, NULL, -1, FA_ETH_DEF_LISTEN, 0 };
	int c, rc = FA_EXIT_USAGE, want_ib = 0, want_host = 0, want_eth = 0;
	sigset_t sigold;
	int usable = 0, made_outdir = 0, began = 0, leave = 0, r;
	struct fa_reaudit ra = { .keep = 30, .lockfd = -1 };
	struct fa_emitted done = { NULL, 0 };
	const char *user_opt = NULL, *node_name = NULL;
	struct fa_priv_user user;
	unsigned max_time = 0;
	int drop = 0;
	char *why = NULL, *staged = NULL;
	struct fa_ib_pcap *capture = NULL;
	static const int once[] = { 'c', 'o', 'C', 'P', 'f', OPT_FAIL_ON,
	    OPT_SIGN, OPT_BASELINE, OPT_HISTORY, OPT_METRICS, OPT_CVEDB,
	    OPT_PCAP, OPT_LISTEN, OPT_KEEP, OPT_RETRIES, OPT_TIMEOUT,
	    OPT_MAX_OUTSTANDING, OPT_HOST, OPT_ETH, OPT_MAX_TIME, OPT_USER,
	    OPT_KEY_PROBES, OPT_MAX_FRAMES, OPT_CVEKEY, OPT_NODE_NAME, 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((c = getopt_long(argc, argv, ":qC:c:f:o:P:h", longopts,
	    NULL)) != -1) {
		if (fa_opt_repeated(c, once, longopts, seen, argv) != 0)
			goto usage;
		switch (c) {
		case OPT_IB:
			want_ib = 1;
			break;
		case OPT_HOST:
			want_host = 1;
			if (optarg != NULL && *optarg == '\0') {
				fa_diag("--host", "empty sysroot");
				goto usage;
			}
			host.sysroot = optarg != NULL ? optarg : "/";
			break;
		case OPT_ETH:
			want_eth = 1;
			if (optarg != NULL && strspn(optarg, ",") ==
			    strlen(optarg)) {
				fa_diag("--eth", "empty interface list");
				goto usage;
			}
			eth.ifaces = optarg;
			break;
		case OPT_PCAP:
			want_eth = 1;
			eth.pcap = optarg;
			break;
		case OPT_LISTEN:
			if (num_opt("--listen", optarg, 1, 3600, &v) != 0)
				goto usage;
			eth.listen = (unsigned)v;
			break;
		case OPT_MAX_FRAMES:
			if (num_opt("--max-frames", optarg, 1, UINT64_MAX,
			    &v) != 0)
				goto usage;
			eth.max_frames = v;
			break;
		case OPT_CVEDB:
			cvedb_opt = optarg;
			break;
		case OPT_CVEKEY:
			cvekey_opt = optarg;
			break;
		case OPT_ACTIVE:
			ib.active = eth.active = 1;
			break;
		case 'q':
			out.quiet = 1;
			break;
		case OPT_REVEAL:
			out.reveal = 1;
			break;
		case 'C':
			ib.ca = optarg;
			break;
		case 'c':
			policy_path = optarg;
			break;
		case 'f':
			if (fa_parse_formats(optarg, &out) != 0)
				goto usage;
			break;
		case OPT_FAIL_ON:
			if (fa_parse_fail_on(optarg, &out) != 0)
				goto usage;
			break;
		case 'o':
			out.outdir = optarg;
			break;
		case OPT_SIGN:
			out.sign_key = optarg;
			break;
		case OPT_BASELINE:
			if ((rc = fa_load_baseline(optarg, &out)) != 0)
				goto out;
			break;
		case OPT_HISTORY:
			if (*optarg == '\0') {
				fa_diag("--history", "empty directory name");
				goto usage;
			}
			ra.history = optarg;
			break;
		case OPT_KEEP:
			if (num_opt("--keep", optarg, 1, 100000, &v) != 0)
				goto usage;
			ra.keep = (unsigned)v;
			break;
		case OPT_METRICS:
			ra.metrics = optarg;
			break;
		case OPT_SYSLOG:
			ra.syslog = 1;
			break;
		case 'P':
			if (num_opt("-P", optarg, 1, 254, &v) != 0)
				goto usage;
			ib.port = (int)v;
			break;
		case OPT_RETRIES:
			if (num_opt("--retries", optarg, 1, 10, &v) != 0)
				goto usage;
			ib.retries = (unsigned)v;
			break;
		case OPT_MAX_OUTSTANDING:
			if (num_opt("--max-outstanding", optarg, 1,
			    FA_IB_MAX_OUTSTANDING, &v) != 0)
				goto usage;
			ib.max_outstanding = (unsigned)v;
			break;
		case OPT_KEY_PROBES:
			if (parse_key_probes(optarg, &ib.key_probes_off) != 0)
				goto usage;
			break;
		case OPT_TIMEOUT:
			if (num_opt("--timeout", optarg, 1, 60000, &v) != 0)
				goto usage;
			ib.timeout_ms = (unsigned)v;
			break;
		case OPT_MAX_TIME:
			if (num_opt("--max-time", optarg, 1, 604800, &v) != 0)
				goto usage;
			max_time = (unsigned)v;
			break;
		case OPT_USER:
			user_opt = optarg;
			break;
		case OPT_NODE_NAME:
			if (node_name_ok(optarg) != 0)
				goto usage;
			node_name = optarg;
			break;
		case 'h':
			fputs(fa_usage_scan, stdout);
			return FA_EXIT_OK;
		default:
			fa_bad_option("scan", c, argv);
			goto usage;
		}
	}
	if (optind != argc) {
		fa_diag(NULL, "scan takes no operands ('%s')", argv[optind]);
		goto usage;
	}
	if (ra.history != NULL && out.outdir != NULL) {
		fa_diag("--history", "each run's output directory is made in "
		    "the history directory: -o cannot be given too");
		goto usage;
	}
	if (eth.pcap != NULL && eth.ifaces != NULL) {
		fa_diag("--pcap", "a capture file and --eth interfaces "
		    "exclude each other");
		goto usage;
	}
	if (eth.max_frames > 0 && eth.pcap == NULL) {
		fa_diag("--max-frames", "limits the frames read from a capture "
		    "file: it needs --pcap");
		goto usage;
	}
	if ((rc = fa_pick_user(user_opt, out.quiet, &user, &drop)) != 0 ||
	    (rc = fa_preflight_sign_key(out.sign_key)) != 0 ||
	    (rc = fa_preflight_pcap(eth.pcap)) != 0 ||
	    (rc = fa_preflight_metrics(ra.metrics)) != 0)
		goto out;
	/* Opened with the invoking user's rights, parsed by the child. */
	if (eth.pcap != NULL && (eth.pcap_fd = open_pcap(eth.pcap)) < 0) {
		rc = FA_EXIT_USAGE;
		goto out;
	}
	if (policy_path != NULL && (rc = fa_load_policy(policy_path,
	    &policy)) != 0)
		goto out;
	if (policy == NULL && (policy = fa_policy_new_empty()) == NULL) {
		fa_diag(NULL, "out of memory");
		rc = FA_EXIT_NORUN;
		goto out;
	}
	started = time(NULL);
	fa_deadline_set(max_time);
	r = fa_load_catalogue(cvedb_opt, cvekey_opt, &cvedb, &cvedb_path,
	    &cvedb_prov, &cvedb_why);
	if (r == FA_ERR_NOMEM) {
		fa_diag(NULL, "out of memory");
		rc = FA_EXIT_NORUN;
		goto out;
	}
	if (r != 0 && (cvedb_opt != NULL || cvekey_opt != NULL)) {
		fa_diag(cvedb_opt != NULL ? "--cve-db" : "--cve-key", "%s",
		    cvedb_why);
		rc = FA_EXIT_USAGE;
		goto out;
	}
	host.cvedb = cvedb;
	host.cvedb_path = cvedb_path;
	host.cvedb_why = cvedb_why;
	ra.quiet = out.quiet;
	/* A run that could not begin (the lock is another run's) leaves the
	 * metrics and the log to that run. */
	if ((rc = fa_reaudit_begin(&ra, &out, started)) != 0)
		goto out;
	began = 1;
	if (out.outdir == NULL) {
		fa_time_compact(started, stamp, sizeof(stamp));
		snprintf(defdir, sizeof(defdir), "fabaudit-%s", stamp);
		out.outdir = defdir;
	}
	made_outdir = !exists_dir(out.outdir);
	/* Interrupted before its report, a run leaves no directory it made:
	 * the mkdir and its registration are not split by a signal. */
	fa_interrupt_defer(&sigold);
	if ((rc = fa_prepare_outdir(out.outdir)) != 0) {
		fa_interrupt_undefer(&sigold);
		goto out;
	}
	if (made_outdir)
		(void)fa_interrupt_add(out.outdir, 1);
	fa_interrupt_undefer(&sigold);
	ib.reveal = out.reveal;
	rc = FA_EXIT_NORUN;
	if ((snap = fa_snapshot_new()) == NULL ||
	    set_meta(snap, &ib, node_name, started, cvedb, cvedb_path,
	    cvedb_why, cvedb_prov) != 0 ||
	    (policy_path != NULL && fa_snapshot_set_policy(snap, policy_path,
	    policy->text) != 0)) {
		fa_diag(NULL, "out of memory");
		goto out;
	}

	/* With no family named, every family that can run does. */
	if (!want_ib && !want_host && !want_eth)
		want_ib = want_host = want_eth = 1;
	/*
	 * mads.pcap is written under a temporary name and placed with the
	 * report (fa_outset_place), so a run that stops short leaves an
	 * earlier run's capture beside that run's report.
	 */
	if (want_ib && fa_ib_pcap_open(out.outdir, "mads.pcap", &capture,
	    &why) != 0) {
		fa_diag("ib", "%s", why != NULL ? why :
		    "cannot create mads.pcap");
		goto out;
	}
	ib.capture = capture;
	/*
	 * Ethernet first: a bad --pcap is a usage error before any probe.
	 * A capture file is wire content: like live frames it is parsed by
	 * the unprivileged child when there is one, from the descriptor
	 * opened above with the invoking user's rights.
	 */
	if (want_eth && !drop && (r = too_late(snap, FA_FAM_ETH)) <= 0 &&
	    (r < 0 || (r = run_eth(&eth, policy, snap, out.quiet, &usable)) !=
	    0)) {
		rc = r < 0 ? FA_EXIT_NORUN : r;
		goto out;
	}
	if (drop && (want_eth || want_ib)) {
		struct live lv = { &eth, &ib, policy, out.quiet };
		struct fa_acq a = { &user, eth.active, eth.pcap != NULL,
		    want_ib ? &ib : NULL, want_eth ? live_eth : NULL,
		    want_ib ? live_ib : NULL, &lv };

		if ((rc = fa_acquire_as(&a, &snap, &usable)) != 0)
			goto out;
		rc = FA_EXIT_NORUN;
	} else if (want_ib && (r = too_late(snap, FA_FAM_IB)) <= 0 &&
	    (r < 0 || run_ib(&ib, snap, out.quiet, &usable) != 0))
		goto out;
	/* The capture stands beside a report only if IB was collected. */
	ib.capture = NULL;
	if (capture != NULL &&
	    snap->fam[FA_FAM_IB].state == FA_FAMST_COLLECTED) {
		r = fa_ib_pcap_finish(capture, &staged, &why);
		capture = NULL;
		if (r != 0) {
			fa_diag("ib", "%s", why != NULL ? why :
			    "cannot write mads.pcap");
			goto out;
		}
	}
	fa_ib_pcap_abort(capture);
	capture = NULL;
	out.pcap = staged;
	if (want_host && (r = too_late(snap, FA_FAM_HOST)) <= 0 && (r < 0 ||
	    run_host(&host, snap, out.quiet, &usable) != 0))
		goto out;
	/*
	 * Not root, but with capabilities (file capabilities on the binary,
	 * or a service's AmbientCapabilities): none is needed past the
	 * acquisition, so none is held while reports are parsed and written.
	 */
	if (geteuid() != 0 && fa_priv_clear_caps(&why) != 0) {
		fa_diag(NULL, "%s", why);
		goto out;
	}
	if (fa_deadline_record(snap) != 0) {
		fa_diag(NULL, "out of memory");
		goto out;
	}
	{
		const struct fa_obs *eng;
		size_t it = 0;

		/* Discovery's SMPs went around the tap (ib_discover.c). */
		if ((eng = fa_snapshot_next(snap, FA_KIND_IB_ENGINE, &it)) !=
		    NULL && json_is_false(json_object_get(fa_obs_obj(eng,
		    FA_F(IB_ENGINE, discovery)), "tapped")))
			fa_diag(NULL, "warning: discovery's SMPs did not pass "
			    "through fabaudit (libibnetdisc did not call this "
			    "program's umad_send: a static link?): they are "
			    "missing from mads.pcap and were not paced");
	}
	{
		size_t bad = 0;

		/* What this version always writes, written (obs_schema.h). */
		if (fa_snapshot_check_required(snap, &bad) != 0) {
			fa_diag(NULL, "out of memory");
			goto out;
		}
		if (bad > 0)
			fa_diag(NULL, "%zu observation(s) lack a field the "
			    "snapshot schema requires (a fabaudit bug): they "
			    "are recorded as errors", bad);
	}
	{
		size_t it = 0;

		/* The cuts of the unprivileged child are in the snapshot. */
		if (fa_snapshot_next(snap, FA_KIND_SCAN_MAX_TIME,
		    &it) != NULL &&
		    !out.quiet)
			fa_diag("--max-time", "%u s reached: what was not "
			    "scanned is not_tested in the report",
			    fa_deadline_seconds());
	}
	fa_time_rfc3339(time(NULL), when, sizeof(when));
	if (json_object_set_new(json_object_get(snap->meta, "scan"),
	    "finished", json_string(when)) != 0 ||
	    json_object_set_new(json_object_get(snap->meta, "scan"),
	    "families", scanned_families(snap)) != 0) {
		fa_diag(NULL, "out of memory");
		goto out;
	}
	/* From here the outputs are written as a set: see interrupt.h. */
	fa_interrupt_hold();
	out.last = 1;
	rc = fa_evaluate_and_emit(snap, policy, &out, "scan", NULL, NULL,
	    &done);
	leave = !FA_FREE_BEFORE_EXIT;	/* the big trees, to exit(2) */
	if (made_outdir)
		fa_interrupt_forget(out.outdir);
	fa_interrupt_release();
	if (usable == 0 && rc != FA_EXIT_NORUN) {
		fa_diag(NULL, "no family could be scanned; report written to %s",
		    out.outdir);
		rc = FA_EXIT_NORUN;
	}
	goto out;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	rc = FA_EXIT_USAGE;
out:
	if (began) {
		ra.outdir = out.outdir;
		rc = fa_reaudit_end(&ra, done.report, rc);
	}
	if (leave) {
		done.report = NULL;
		snap = NULL;
	}
	json_decref(done.report);
	fa_reaudit_free(&ra);
	/* A capture not placed with a report is removed. */
	fa_ib_pcap_abort(capture);
	if (staged != NULL)
		drop_staged(out.outdir, staged);
	free(staged);
	free(why);
	if (eth.pcap_fd >= 0)
		close(eth.pcap_fd);
	json_decref(out.baseline);
	json_decref(cvedb);
	json_decref(cvedb_prov);
	free(cvedb_path);
	free(cvedb_why);
	fa_snapshot_free(snap);
	fa_policy_free(policy);
	return rc;
}
