/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Key state that outlives one process, and the decision log.
 *
 * Real ports keep their M_KeyViolations counter, current protect bits and
 * lease timer across the management tools that query them, so the agent
 * keeps them in a small text file shared by every process of one fabric
 * run: $FA_AGENT_STATE, else $FA_WORKDIR/fa-agent.state (with-fabric.sh
 * exports FA_WORKDIR, a fresh directory per fabric), else memory only (one
 * process).  Each access locks the file (flock), reads it, changes one
 * entry and writes it back.  One line per (kind, node GUID):
 *   KIND GUID KEY CFGPROT PROT VIOLATIONS DEADLINE_MS
 * An entry whose KEY or CFGPROT no longer match the scenario is reset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

#define MAX_ENTS 1024

static struct ag_kstate ents[MAX_ENTS];
static size_t nents;
static int sfd = -1;

static const char *
state_path(void)
{
	static char buf[4096];
	static int done;
	const char *p, *w;

	if (done)
		return buf[0] != '\0' ? buf : NULL;
	done = 1;
	if ((p = getenv("FA_AGENT_STATE")) != NULL && *p != '\0')
		snprintf(buf, sizeof(buf), "%s", p);
	else if ((w = getenv("FA_WORKDIR")) != NULL && *w != '\0')
		snprintf(buf, sizeof(buf), "%s/fa-agent.state", w);
	return buf[0] != '\0' ? buf : NULL;
}

int64_t
ag_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
load(void)
{
	char *buf, *line, *save = NULL;
	off_t sz;
	ssize_t n;

	nents = 0;
	if ((sz = lseek(sfd, 0, SEEK_END)) <= 0)
		return;
	if (sz > 1 << 20 || (buf = malloc((size_t)sz + 1)) == NULL)
		ag_die("state file %s: unusable (%lld bytes)", state_path(),
		    (long long)sz);
	n = pread(sfd, buf, (size_t)sz, 0);
	if (n < 0)
		ag_die("state file %s: %s", state_path(), strerror(errno));
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		struct ag_kstate e;
		unsigned long long g, k;
		long long d;

		if (line[0] == '#')
			continue;
		memset(&e, 0, sizeof(e));
		if (sscanf(line, "%d %llx %llx %d %d %u %lld", &e.kind, &g, &k,
		    &e.cfgprot, &e.prot, &e.viol, &d) != 7 ||
		    nents == MAX_ENTS)
			continue;	/* ours alone writes it; skip junk */
		e.guid = g;
		e.key = k;
		e.deadline_ms = d;
		ents[nents++] = e;
	}
	free(buf);
}

static void
store(void)
{
	char *buf;
	size_t cap = 64 + nents * 96, len = 0, i;

	if ((buf = malloc(cap)) == NULL)
		ag_die("out of memory");
	len += (size_t)snprintf(buf, cap, "# fa-agent key state: KIND GUID "
	    "KEY CFGPROT PROT VIOLATIONS DEADLINE_MS\n");
	for (i = 0; i < nents && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len,
		    "%d 0x%016llx 0x%016llx %d %d %u %lld\n", ents[i].kind,
		    (unsigned long long)ents[i].guid,
		    (unsigned long long)ents[i].key, ents[i].cfgprot,
		    ents[i].prot, ents[i].viol,
		    (long long)ents[i].deadline_ms);
	if (len > cap)
		len = cap;
	if (ftruncate(sfd, 0) != 0 || pwrite(sfd, buf, len, 0) != (ssize_t)len)
		ag_die("state file %s: cannot write: %s", state_path(),
		    strerror(errno));
	free(buf);
}

void
ag_state_begin(void)
{
	const char *p = state_path();

	if (p == NULL)
		return;		/* memory only: ents[] is the state */
	sfd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (sfd < 0)
		ag_die("state file %s: cannot open: %s", p, strerror(errno));
	while (flock(sfd, LOCK_EX) != 0)
		if (errno != EINTR)
			ag_die("state file %s: cannot lock: %s", p,
			    strerror(errno));
	load();
}

struct ag_kstate *
ag_state_get(enum ag_kind kind, const struct ag_node *n,
    const struct ag_rule *r)
{
	struct ag_kstate *e = NULL;
	size_t i;

	for (i = 0; i < nents; i++)
		if (ents[i].kind == (int)kind && ents[i].guid == n->guid) {
			e = &ents[i];
			break;
		}
	if (e == NULL) {
		if (nents == MAX_ENTS)
			ag_die("state table full (%d entries)", MAX_ENTS);
		e = &ents[nents++];
		e->kind = (int)kind;
		e->guid = n->guid;
		e->key = ~r->key;	/* force the reset below */
	}
	if (e->key != r->key || e->cfgprot != r->protect) {
		e->key = r->key;
		e->cfgprot = r->protect;
		e->prot = r->protect;
		e->viol = r->violations;
		e->deadline_ms = 0;
	}
	return e;
}

void
ag_state_end(int dirty)
{
	if (sfd < 0)
		return;
	if (dirty)
		store();
	flock(sfd, LOCK_UN);
	close(sfd);
	sfd = -1;
}

/* --- log ------------------------------------------------------------- */

void
ag_log(const char *fmt, ...)
{
	const char *path = getenv("FA_AGENT_LOG");
	char line[1024];
	va_list ap;
	int n, m, fd;

	if (path == NULL || *path == '\0')
		return;
	n = snprintf(line, sizeof(line), "fa-agent pid=%ld ", (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += m;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* One write with O_APPEND: lines of concurrent processes interleave
	 * whole. */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

void
ag_die(const char *fmt, ...)
{
	char msg[768], line[800];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = snprintf(line, sizeof(line), "fa-agent: %s\n", msg);
	if (n > 0 && write(2, line, (size_t)n < sizeof(line) ? (size_t)n :
	    sizeof(line) - 1) < 0)
		n = 0;
	ag_log("fatal: %s", msg);
	exit(AG_EXIT_CONFIG);
}

/* --- bytes ----------------------------------------------------------- */

uint16_t
ag_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint32_t
ag_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

uint64_t
ag_be64(const uint8_t *p)
{
	return (uint64_t)ag_be32(p) << 32 | ag_be32(p + 4);
}

void
ag_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
