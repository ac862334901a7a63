/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The interposed libibumad calls and the delivery queue.
 *
 * umad_send(): ag_on_send() decides; a MAD the agent answers itself (or
 * drops the way ibsim drops: a umad whose status is 110) never reaches
 * umad2sim, its answer is queued instead.  umad_recv(): queued umads come
 * first (a small FIFO per port fd), then the real receive; everything the
 * caller gets passes ag_on_recv(), which patches forwarded answers.  The
 * kernel's umad_recv() contract is kept: *length in is the room for the
 * MAD, out its length; a MAD that does not fit gives -ENOSPC with the umad
 * header copied and *length set to the size needed, and stays queued.
 *
 * Without $FA_AGENT_SCENARIO every call goes straight to libibumad.
 * The agent assumes one thread per umad port fd (libibmad, libibnetdisc
 * and fabaudit's engine all receive from one thread).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

typedef int (*send_fn)(int, int, void *, int, int, int);
typedef int (*recv_fn)(int, void *, int *, int);
typedef int (*poll_fn)(int, int);
typedef int (*close_fn)(int);

static send_fn real_send;
static recv_fn real_recv;
static poll_fn real_poll;
static close_fn real_close;

static void
resolve(void)
{
	if (real_send != NULL)
		return;
	*(void **)&real_recv = dlsym(RTLD_NEXT, "umad_recv");
	*(void **)&real_poll = dlsym(RTLD_NEXT, "umad_poll");
	*(void **)&real_close = dlsym(RTLD_NEXT, "umad_close_port");
	*(void **)&real_send = dlsym(RTLD_NEXT, "umad_send");
}

int
ag_real_send(int fd, int agent, void *umad, int length, int timeout_ms,
    int retries)
{
	resolve();
	if (real_send == NULL) {
		errno = ENOSYS;
		return -ENOSYS;
	}
	return real_send(fd, agent, umad, length, timeout_ms, retries);
}

int
ag_real_recv(int fd, void *umad, int *length, int timeout_ms)
{
	resolve();
	if (real_recv == NULL) {
		errno = ENOSYS;
		return -ENOSYS;
	}
	return real_recv(fd, umad, length, timeout_ms);
}

/* --- the queue ------------------------------------------------------- */

struct qent {
	struct qent	*next;
	int		 fd;
	int		 raw;	/* forwarded, not yet through ag_on_recv() */
	size_t		 total;	/* umad header + MAD */
	uint8_t		 buf[];
};

static struct qent *qhead;

void
ag_queue_push(int fd, const void *umad, size_t total, int raw)
{
	struct qent *e, **pp;

	if (total < umad_size() || total > umad_size() + (16u << 20))
		return;
	if ((e = malloc(sizeof(*e) + total)) == NULL)
		ag_die("out of memory");
	e->next = NULL;
	e->fd = fd;
	e->raw = raw;
	e->total = total;
	memcpy(e->buf, umad, total);
	for (pp = &qhead; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = e;
}

static struct qent *
qpop(int fd)
{
	struct qent **pp, *e;

	for (pp = &qhead; (e = *pp) != NULL; pp = &e->next)
		if (e->fd == fd) {
			*pp = e->next;
			e->next = NULL;
			return e;
		}
	return NULL;
}

static int
qhas(int fd)
{
	const struct qent *e;

	for (e = qhead; e != NULL; e = e->next)
		if (e->fd == fd)
			return 1;
	return 0;
}

static void
qdrop(int fd)
{
	struct qent *e;

	while ((e = qpop(fd)) != NULL)
		free(e);
}

/* --- the interposed calls ---------------------------------------------- */

int
umad_send(int fd, int agentid, void *umad, int length, int timeout_ms,
    int retries)
{
	static int said;

	if (!ag_active || umad == NULL || length <= 0)
		return ag_real_send(fd, agentid, umad, length, timeout_ms,
		    retries);
	if (!said) {
		said = 1;
		ag_log("start scenario=%s rules=%zu local_vf=%s",
		    ag_conf.path, ag_conf.nrules,
		    ag_conf.local_vf == AG_VF_NO ? "no" :
		    ag_conf.local_vf == AG_VF_YES ? "yes" : "mlx4");
	}
	ag_fault_send();
	if (ag_on_send(fd, agentid, umad, length, retries))
		return 0;	/* answered or dropped here; see the queue */
	return ag_real_send(fd, agentid, umad, length, timeout_ms, retries);
}

int
umad_recv(int fd, void *umad, int *length, int timeout_ms)
{
	struct qent *e;
	int n;

	if (!ag_active || umad == NULL || length == NULL)
		return ag_real_recv(fd, umad, length, timeout_ms);
	if ((e = qpop(fd)) != NULL) {
		size_t mlen = e->total - umad_size();
		int raw = e->raw;

		if (*length < 0 || (size_t)*length < mlen) {
			/* As the kernel: header only, size needed, keep it
			 * (at the head: still the first one of this fd). */
			memcpy(umad, e->buf, umad_size());
			*length = (int)mlen;
			e->next = qhead;
			qhead = e;
			errno = ENOSPC;
			return -ENOSPC;
		}
		memcpy(umad, e->buf, e->total);
		*length = (int)mlen;
		free(e);
		if (raw)
			ag_on_recv(fd, umad, *length);
		*length = ag_fault_recv(umad, *length);
		errno = 0;
		return (int)((struct ib_user_mad *)umad)->agent_id;
	}
	n = ag_real_recv(fd, umad, length, timeout_ms);
	if (n >= 0 && *length > 0) {
		ag_on_recv(fd, umad, *length);
		*length = ag_fault_recv(umad, *length);
	}
	return n;
}

int
umad_poll(int fd, int timeout_ms)
{
	resolve();
	if (ag_active && qhas(fd))
		return 0;
	if (real_poll == NULL) {
		errno = ENOSYS;
		return -ENOSYS;
	}
	return real_poll(fd, timeout_ms);
}

int
umad_close_port(int fd)
{
	resolve();
	if (ag_active) {
		qdrop(fd);
		ag_forget_fd(fd);
		ag_topo_forget_fd(fd);
	}
	if (real_close == NULL) {
		errno = ENOSYS;
		return -ENOSYS;
	}
	return real_close(fd);
}

/* --- start-up ---------------------------------------------------------- */

/* Make a relative path in $name absolute, for children that chdir. */
static void
absolutize(const char *name)
{
	const char *v = getenv(name);
	char cwd[PATH_MAX], buf[PATH_MAX * 2];

	if (v == NULL || *v == '\0' || *v == '/')
		return;
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return;
	if ((size_t)snprintf(buf, sizeof(buf), "%s/%s", cwd, v) >= sizeof(buf))
		return;
	setenv(name, buf, 1);
}

static void __attribute__((constructor))
ag_start(void)
{
	const char *s;

	absolutize("FA_AGENT_SCENARIO");
	absolutize("FA_AGENT_LOG");
	absolutize("FA_AGENT_STATE");
	absolutize("FA_AGENT_PAUSE");
	if ((s = getenv("FA_AGENT_SCENARIO")) != NULL && *s != '\0')
		ag_conf_load(s);
}
