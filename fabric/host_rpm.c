/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPM database reading (see host_rpm.h).  The database is copied out of
 * the sysroot through fa_sysroot_read (RESOLVE_IN_ROOT, bounded) into a
 * private directory, and librpm reads the copy: %_dbpath points there
 * and %_db_backend names the format the file name shows (rpmdb.sqlite:
 * "sqlite", RPM 4.16+; Packages: Berkeley DB, read by librpm's own
 * read-only "bdb_ro" reader; Packages.db: "ndb").  A SQLite database's
 * write-ahead log is copied with it, so that what rpm last committed is
 * read.  librpm's messages go to a callback, never to stderr: the first
 * error becomes the reason.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rpm/header.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmlog.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmtag.h>
#include <rpm/rpmts.h>

#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "../core/version.h"
#include "host_dpkg.h"
#include "host_pkgname.h"
#include "host_rpm.h"


/* Where RPM keeps its database, the first found is read. */
static const struct {
	const char	*dir, *file, *backend;
} places[] = {
	{ "/var/lib/rpm", "rpmdb.sqlite", "sqlite" },
	{ "/var/lib/rpm", "Packages", "bdb_ro" },
	{ "/var/lib/rpm", "Packages.db", "ndb" },
	{ "/usr/lib/sysimage/rpm", "rpmdb.sqlite", "sqlite" },
	{ "/usr/lib/sysimage/rpm", "Packages", "bdb_ro" },
	{ "/usr/lib/sysimage/rpm", "Packages.db", "ndb" },
};

/* The Vendor tags of the distributions' own builds. */
static const struct {
	const char	*prefix, *os;
} vendors[] = {
	{ "Red Hat", "rhel" },
	{ "Fedora Project", "fedora" },
	{ "Rocky Enterprise Software Foundation", "rocky" },
	{ "AlmaLinux", "almalinux" },
	{ "CentOS", "centos" },
	{ "Amazon Linux", "amzn" },
	{ "Amazon.com", "amzn" },
	{ "Oracle America", "ol" },
	{ "SUSE LLC", "sles" },
	{ "openSUSE", "opensuse-leap" },
};

const char *
fa_rpm_origin(const char *vendor)
{
	size_t i, n;

	if (vendor == NULL || vendor[0] == '\0')
		return "unknown";
	/* The name, then the end, a comma or a space ("Red Hat, Inc."):
	 * "Red Hatter" is someone else. */
	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++) {
		n = strlen(vendors[i].prefix);
		if (strncmp(vendor, vendors[i].prefix, n) == 0 &&
		    strchr(", ", vendor[n]) != NULL)
			return vendors[i].os;
	}
	return "vendor";
}

void
fa_rpm_source_name(const char *srpm, char *out, size_t len)
{
	const char *end, *p;
	size_t n, dashes = 0;

	out[0] = '\0';
	if (srpm == NULL || (n = strlen(srpm)) < 9 ||
	    strcmp(srpm + n - 8, ".src.rpm") != 0)
		return;
	/* NAME-VERSION-RELEASE.src.rpm: the name ends at the second
	 * hyphen from the right (a name may hold hyphens, a version or
	 * release may not). */
	for (end = srpm + n - 8, p = end; p > srpm; p--)
		if (p[-1] == '-' && ++dashes == 2)
			break;
	if (dashes != 2 || p - 1 == srpm || (size_t)(p - 1 - srpm) >= len)
		return;
	memcpy(out, srpm, (size_t)(p - 1 - srpm));
	out[p - 1 - srpm] = '\0';
}

/* librpm's messages, kept instead of printed. */
struct logbuf {
	char	 first[256];
};

static int
log_cb(rpmlogRec rec, rpmlogCallbackData data)
{
	struct logbuf *b = data;
	const char *m = rpmlogRecMessage(rec);
	size_t n;

	if (rpmlogRecPriority(rec) <= RPMLOG_ERR && b->first[0] == '\0' &&
	    m != NULL) {
		snprintf(b->first, sizeof(b->first), "%s", m);
		n = strlen(b->first);
		while (n > 0 && (b->first[n - 1] == '\n' ||
		    b->first[n - 1] == ' '))
			b->first[--n] = '\0';
	}
	return 0;	/* not RPMLOG_DEFAULT: nothing reaches stderr */
}

/*
 * librpm keeps its configuration (rpmrc, macros) in its own process-wide
 * state, and rpmReadConfigFiles() is meant to run once: so is this flag,
 * the one global of the host family (its reads run on one thread).
 */
static int config_read;

int
fa_rpmdb_each(const char *dbdir, const char *backend,
    int (*fn)(void *, const struct fa_rpm_pkg *), void *arg, size_t *total,
    char **why)
{
	struct logbuf lb = { "" };
	rpmlogCallback old_cb;
	rpmdbMatchIterator mi = NULL;
	struct fa_rpm_pkg p;
	rpmts ts = NULL;
	Header h;
	char *evr;
	int r = 0;

	*total = 0;
	old_cb = rpmlogSetCallback(log_cb, &lb);
	if (!config_read && rpmReadConfigFiles(NULL, NULL) != 0) {
		r = fa_why(why, "librpm could not read its configuration: %s",
		    lb.first[0] != '\0' ? lb.first : "unknown error");
		goto out;
	}
	config_read = 1;
	rpmPushMacro(NULL, "_dbpath", NULL, dbdir, RMIL_CMDLINE);
	rpmPushMacro(NULL, "_db_backend", NULL, backend, RMIL_CMDLINE);
	if ((ts = rpmtsCreate()) == NULL) {
		r = FA_ERR_NOMEM;
		goto pop;
	}
	/* No keyring: a header's signature is not what is asked here. */
	rpmtsSetVSFlags(ts, rpmtsVSFlags(ts) | _RPMVSF_NOSIGNATURES);
	if (rpmtsOpenDB(ts, O_RDONLY) != 0 ||
	    (mi = rpmtsInitIterator(ts, RPMDBI_PACKAGES, NULL, 0)) == NULL) {
		r = fa_why(why, "librpm could not open the %s database: %s",
		    backend, lb.first[0] != '\0' ? lb.first :
		    "unknown error");
		goto pop;
	}
	while ((h = rpmdbNextIterator(mi)) != NULL) {
		(*total)++;
		memset(&p, 0, sizeof(p));
		p.name = headerGetString(h, RPMTAG_NAME);
		p.version = headerGetString(h, RPMTAG_VERSION);
		p.vendor = headerGetString(h, RPMTAG_VENDOR);
		p.sourcerpm = headerGetString(h, RPMTAG_SOURCERPM);
		if (p.name == NULL || p.version == NULL)
			continue;
		if ((evr = headerGetAsString(h, RPMTAG_EVR)) == NULL) {
			r = FA_ERR_NOMEM;
			break;
		}
		p.evr = evr;
		r = fn(arg, &p);
		free(evr);
		if (r != 0)
			break;
	}
	/* A header librpm refused mid-walk is an error it logged. */
	if (r == 0 && lb.first[0] != '\0')
		r = fa_why(why, "librpm: %s", lb.first);
pop:
	rpmdbFreeIterator(mi);
	rpmtsFree(ts);
	rpmPopMacro(NULL, "_db_backend");
	rpmPopMacro(NULL, "_dbpath");
out:
	rpmlogSetCallback(old_cb, NULL);
	return r;
}

/* ---- the private copy ---------------------------------------------- */

static int
write_copy(const char *dir, const char *name, const char *buf, size_t len)
{
	char path[4096];
	size_t off = 0;
	ssize_t w;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) < 0)
		return FA_ERR_IO;
	while (off < len) {
		if ((w = write(fd, buf + off, len - off)) < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return FA_ERR_IO;
		}
		off += (size_t)w;
	}
	return close(fd) == 0 ? 0 : FA_ERR_IO;
}

/* Remove the private directory and what librpm left in it. */
static void
remove_copy(const char *dir)
{
	struct dirent *de;
	char path[4096 + 256];
	DIR *d;

	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* ---- collection ----------------------------------------------------- */

struct collect {
	struct fa_snapshot	*snap;
	const char		*source;	/* the database's path */
	size_t			 found;
};

static int
record(void *arg, const struct fa_rpm_pkg *p)
{
	struct collect *c = arg;
	struct fa_obs_build b;
	char src[128], *target, *vendor;
	const char *vend = p->vendor != NULL ? p->vendor : "", *comp;
	json_t *d;
	int r;

	if ((comp = fa_pkg_component(p->name, FA_PKG_RPM)) == NULL)
		return 0;
	fa_rpm_source_name(p->sourcerpm, src, sizeof(src));
	if ((vendor = fa_str_sanitize(vend, strlen(vend))) == NULL)
		return FA_ERR_NOMEM;
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_PACKAGE, package), p->name);
	fa_put_str(&b, FA_F(HOST_PACKAGE, component), comp);
	fa_put_str(&b, FA_F(HOST_PACKAGE, version), p->evr);
	fa_put_str(&b, FA_F(HOST_PACKAGE, source), c->source);
	fa_put_str(&b, FA_F(HOST_PACKAGE, source_package), src);
	fa_put_str(&b, FA_F(HOST_PACKAGE, vendor), vendor);
	fa_put_str(&b, FA_F(HOST_PACKAGE, origin), fa_rpm_origin(p->vendor));
	fa_put_str(&b, FA_F(HOST_PACKAGE, manager), "rpm");
	free(vendor);
	/* The VERSION tag is upstream's number, when it reads as one. */
	if (fa_version_valid(FA_VER_UPSTREAM, p->version, NULL) == 0)
		fa_put_str(&b, FA_F(HOST_PACKAGE, upstream), p->version);
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	/* Only names from the table above reach a target. */
	if ((target = fa_strfmt("rpm:%s", p->name)) == NULL) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(c->snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PACKAGE,
	    target, "read the RPM database (librpm)", FA_OBS_COMPLETE, NULL,
	    d, NULL);
	free(target);
	c->found++;
	return r;
}

/* Copy the database (and a SQLite log) into dir; r as fa_sysroot_read. */
static int
copy_out(const struct fa_sysroot *root, const char *src, const char *dir,
    const char *file, int sqlite)
{
	char *buf, path[600], name[64];
	size_t len;
	int r;

	if ((r = fa_sysroot_read(root, src, FA_RPMDB_MAX, &buf, &len)) != 0)
		return r;
	r = write_copy(dir, file, buf, len);
	free(buf);
	if (r != 0 || !sqlite)
		return r;
	snprintf(path, sizeof(path), "%s-wal", src);
	snprintf(name, sizeof(name), "%s-wal", file);
	if ((r = fa_sysroot_read(root, path, FA_RPMDB_MAX, &buf, &len)) ==
	    FA_ERR_NOTFOUND)
		return 0;
	if (r != 0)
		return r;
	r = write_copy(dir, name, buf, len);
	free(buf);
	return r;
}

/* The database's observation, without data (not read). */
static int
add_db(struct fa_snapshot *snap, enum fa_obs_state st, const char *why)
{
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PACKAGE,
	    "rpm", "read the RPM database (librpm)", st, why, NULL, NULL);
}

int
fa_host_collect_rpm(const struct fa_sysroot *root, struct fa_snapshot *snap)
{
	char src[512], tmpl[4096], *why = NULL, *reason;
	const char *tmp = getenv("TMPDIR");
	struct collect c = { snap, src, 0 };
	struct stat st;
	size_t i, total = 0;
	struct fa_obs_build b;
	json_t *d;
	int r;

	for (i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(src, sizeof(src), "%s/%s", places[i].dir,
		    places[i].file);
		if ((r = fa_sysroot_stat(root, src, 1, &st)) != FA_ERR_NOTFOUND)
			break;
	}
	if (i == sizeof(places) / sizeof(places[0]))
		return add_db(snap, FA_OBS_NOT_COLLECTED, "no RPM database in "
		    "/var/lib/rpm or /usr/lib/sysimage/rpm (not an RPM-based "
		    "system)");
	snprintf(tmpl, sizeof(tmpl), "%s/fabaudit-rpmdb.XXXXXX",
	    tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if (mkdtemp(tmpl) == NULL) {
		reason = fa_strfmt("%s: no private directory for its copy: %s",
		    src, strerror(errno));
		goto fail;
	}
	r = copy_out(root, src, tmpl, places[i].file,
	    strcmp(places[i].backend, "sqlite") == 0);
	if (r != 0) {
		/* Not librpm's doing: the file, or the copy, failed. */
		remove_copy(tmpl);
		if (r == FA_ERR_NOMEM)
			return r;
		reason = fa_strfmt("%s: %s", src, fa_sysroot_strerror(r));
		goto fail;
	}
	r = fa_rpmdb_each(tmpl, places[i].backend, record, &c, &total, &why);
	remove_copy(tmpl);
	if (r == FA_ERR_NOMEM) {
		free(why);
		return r;
	}
	if (r == FA_ERR_INPUT) {
		reason = fa_strfmt("%s: %s", src, why != NULL ? why :
		    "librpm could not read it");
		free(why);
		goto fail;
	}
	if (r != 0) {
		reason = fa_strfmt("%s: %s", src, fa_sysroot_strerror(r));
		goto fail;
	}
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(HOST_PACKAGE, source), src);
	fa_put_str(&b, FA_F(HOST_PACKAGE, backend), places[i].backend);
	fa_put_int(&b, FA_F(HOST_PACKAGE, packages), (long long)total);
	fa_put_int(&b, FA_F(HOST_PACKAGE, found), (long long)c.found);
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	return fa_snapshot_add(snap, FA_FAM_HOST, NULL, FA_KIND_HOST_PACKAGE,
	    "rpm", "read the RPM database (librpm)", FA_OBS_COMPLETE, NULL, d,
	    NULL);
fail:
	if (reason == NULL)
		return FA_ERR_NOMEM;
	r = add_db(snap, FA_OBS_ERROR, reason);
	free(reason);
	return r;
}
