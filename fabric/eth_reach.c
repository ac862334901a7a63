/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Must-not-reach probes (see eth_reach.h).  A small engine keeps at most
 * FA_REACH_WINDOW probes in flight, starts at most FA_REACH_RATE a second,
 * and gives each FA_REACH_TIMEOUT_MS.  ICMP uses an unprivileged ping
 * socket (net.ipv4.ping_group_range) or, failing that, a raw socket
 * (CAP_NET_RAW); without either the probe is recorded as not sent.
 * UDP to port 623 carries an RMCP/ASF presence ping (DMTF DSP0136 3.2.4);
 * other UDP probes an empty datagram.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/obs_fields.h"
#include "../core/util.h"
#include "eth_reach.h"
#include "eth_tls.h"

struct job {
	struct sockaddr_storage sa;
	socklen_t	 salen;
	int		 af;
	char		 host[INET6_ADDRSTRLEN];
	const struct fa_probe *probe;
	int		 fd;
	int		 raw;		/* ICMP over a raw socket */
	uint16_t	 id, seq;
	double		 start;
	const char	*outcome;
	char		 detail[96];
	double		 ms;
};

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static const char *
errno_outcome(int e)
{
	switch (e) {
	case ECONNREFUSED:
		return "refused";
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EHOSTDOWN:
		return "unreachable";
	case EACCES:
	case EPERM:
		return "not_sent";
	default:
		return "error";
	}
}

static void
finish(struct job *j, const char *outcome, int e)
{
	j->outcome = outcome;
	j->ms = now_ms() - j->start;
	if (e != 0)
		snprintf(j->detail, sizeof(j->detail), "%s", strerror(e));
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
}

static uint16_t
csum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (n & 1)
		s += (uint32_t)(b[n - 1] << 8);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons((uint16_t)~s);
}

/* Open and send; leaves the job in flight, or finished. */
static void
start(struct job *j)
{
	static const uint8_t rmcp_ping[12] = { 0x06, 0x00, 0xff, 0x06, 0x00,
	    0x00, 0x11, 0xbe, 0x80, 0x00, 0x00, 0x00 };
	int type, proto = 0;

	j->start = now_ms();
	j->fd = -1;
	switch (j->probe->proto) {
	case FA_PROBE_TCP:
		j->fd = socket(j->af, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (j->fd < 0) {
			finish(j, "error", errno);
			return;
		}
		if (connect(j->fd, (struct sockaddr *)&j->sa, j->salen) == 0)
			finish(j, "answered", 0);
		else if (errno != EINPROGRESS)
			finish(j, errno_outcome(errno), errno);
		return;
	case FA_PROBE_UDP:
		j->fd = socket(j->af, SOCK_DGRAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (j->fd < 0 || connect(j->fd, (struct sockaddr *)&j->sa,
		    j->salen) != 0 || send(j->fd, rmcp_ping, j->probe->port ==
		    623 ? sizeof(rmcp_ping) : 0, 0) < 0)
			finish(j, errno_outcome(errno), errno);
		return;
	case FA_PROBE_ICMP:
		type = j->af == AF_INET ? ICMP_ECHO : ICMP6_ECHO_REQUEST;
		proto = j->af == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6;
		j->fd = socket(j->af, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    proto);
		if (j->fd < 0) {
			j->fd = socket(j->af, SOCK_RAW | SOCK_NONBLOCK |
			    SOCK_CLOEXEC, proto);
			j->raw = 1;
		}
		if (j->fd < 0) {
			finish(j, "not_sent", 0);
			snprintf(j->detail, sizeof(j->detail), "no ICMP "
			    "socket: ping_group_range or CAP_NET_RAW needed");
			return;
		}
		{
			uint8_t pkt[16];

			memset(pkt, 0, sizeof(pkt));
			pkt[0] = (uint8_t)type;
			pkt[4] = (uint8_t)(j->id >> 8);
			pkt[5] = (uint8_t)j->id;
			pkt[6] = (uint8_t)(j->seq >> 8);
			pkt[7] = (uint8_t)j->seq;
			memcpy(pkt + 8, "fabaudit", 8);
			if (j->af == AF_INET) {
				uint16_t c = csum(pkt, sizeof(pkt));

				memcpy(pkt + 2, &c, 2);
			}
			if (sendto(j->fd, pkt, sizeof(pkt), 0,
			    (struct sockaddr *)&j->sa, j->salen) < 0)
				finish(j, errno_outcome(errno), errno);
		}
		return;
	}
}

/* Progress on an in-flight job whose fd is ready. */
static void
ready(struct job *j, short revents)
{
	uint8_t buf[1500];
	socklen_t sl = sizeof(int);
	ssize_t n;
	size_t off;
	int e = 0;

	if (j->probe->proto == FA_PROBE_TCP) {
		if (getsockopt(j->fd, SOL_SOCKET, SO_ERROR, &e, &sl) != 0)
			e = errno;
		finish(j, e == 0 ? "answered" : errno_outcome(e), e);
		return;
	}
	if (j->probe->proto == FA_PROBE_UDP) {
		n = recv(j->fd, buf, sizeof(buf), 0);
		if (n >= 0)
			finish(j, "answered", 0);
		else if (errno != EAGAIN)
			finish(j, errno_outcome(errno), errno);
		return;
	}
	(void)revents;
	/* ICMP: read until our echo reply or nothing more. */
	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);

		if ((n = recvfrom(j->fd, buf, sizeof(buf), 0,
		    (struct sockaddr *)&from, &fl)) <= 0)
			break;
		/* Only the target's reply (a raw socket sees every one). */
		if (j->af == AF_INET6 && (from.ss_family != AF_INET6 ||
		    memcmp(&((struct sockaddr_in6 *)&from)->sin6_addr,
		    &((struct sockaddr_in6 *)&j->sa)->sin6_addr, 16) != 0))
			continue;
		off = 0;
		if (j->raw && j->af == AF_INET) {
			if ((size_t)n < 20 || memcmp(buf + 12, &((struct
			    sockaddr_in *)&j->sa)->sin_addr, 4) != 0)
				continue;
			off = (size_t)(buf[0] & 0xf) * 4;
		}
		if ((size_t)n < off + 8)
			continue;
		if ((j->af == AF_INET && buf[off] != ICMP_ECHOREPLY) ||
		    (j->af == AF_INET6 && buf[off] != ICMP6_ECHO_REPLY))
			continue;
		/* A ping socket rewrites the id; match the sequence. */
		if ((uint16_t)(buf[off + 6] << 8 | buf[off + 7]) != j->seq ||
		    (j->raw && (uint16_t)(buf[off + 4] << 8 | buf[off + 5]) !=
		    j->id))
			continue;
		finish(j, "answered", 0);
		return;
	}
}

static json_t *
job_json(const struct job *j)
{
	char probe[16];
	json_t *o;

	if (j->probe->proto == FA_PROBE_ICMP)
		snprintf(probe, sizeof(probe), "icmp");
	else
		snprintf(probe, sizeof(probe), "%s/%u", j->probe->proto ==
		    FA_PROBE_TCP ? "tcp" : "udp", (unsigned)j->probe->port);
	o = json_pack("{s:s, s:s, s:s, s:I}", "host", j->host, "probe", probe,
	    "outcome", j->outcome, "ms", (json_int_t)(j->ms + 0.5));
	if (o != NULL && j->detail[0] != '\0' && json_object_set_new(o,
	    "detail", json_string(j->detail)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Run the jobs with the window, the rate and the timeout. */
static void
run(struct job *jobs, size_t n)
{
	struct pollfd pfd[FA_REACH_WINDOW];
	size_t map[FA_REACH_WINDOW], next = 0, i, np;
	double last = -1e9, t;

	for (;;) {
		size_t inflight = 0;

		for (i = 0; i < next; i++)
			if (jobs[i].outcome == NULL)
				inflight++;
		t = now_ms();
		/* --max-time: what is not answered yet was not probed. */
		if (fa_deadline_passed()) {
			for (i = 0; i < n; i++) {
				if (jobs[i].outcome != NULL)
					continue;
				finish(&jobs[i], "not_sent", 0);
				snprintf(jobs[i].detail, sizeof(jobs[i].detail),
				    "--max-time %u s reached",
				    fa_deadline_seconds());
			}
			if (next < n || inflight > 0)
				fa_deadline_cut(FA_FAM_ETH, "during the "
				    "must-not-reach probes");
			return;
		}
		while (next < n && inflight < FA_REACH_WINDOW &&
		    t - last >= 1000.0 / FA_REACH_RATE) {
			start(&jobs[next]);
			if (jobs[next].outcome == NULL)
				inflight++;
			next++;
			last = t;
		}
		if (next == n && inflight == 0)
			return;
		for (i = 0, np = 0; i < next && np < FA_REACH_WINDOW; i++) {
			if (jobs[i].outcome != NULL)
				continue;
			if (t - jobs[i].start >= FA_REACH_TIMEOUT_MS) {
				finish(&jobs[i], jobs[i].probe->proto ==
				    FA_PROBE_TCP ? "filtered" : "no_answer", 0);
				continue;
			}
			pfd[np].fd = jobs[i].fd;
			pfd[np].events = jobs[i].probe->proto == FA_PROBE_TCP ?
			    POLLOUT : POLLIN;
			map[np++] = i;
		}
		if (poll(pfd, np, fa_deadline_clamp_ms(1000 / FA_REACH_RATE)) >
		    0)
			for (i = 0; i < np; i++)
				if (pfd[i].revents != 0)
					ready(&jobs[map[i]], pfd[i].revents);
	}
}

/* The i-th host of net (skipping an IPv4 network and broadcast). */
static int
host_of(const struct fa_cidr *net, uint64_t i, struct job *j)
{
	uint8_t a[16];
	unsigned bits = (net->af == AF_INET ? 32 : 128) - net->prefix;
	int k;

	memcpy(a, net->addr, 16);
	if (net->af == AF_INET && bits >= 2)
		i++;			/* not the network address */
	for (k = (net->af == AF_INET ? 3 : 15); k >= 0 && i > 0; k--) {
		uint64_t v = a[k] + (i & 0xff);

		a[k] = (uint8_t)v;
		i = (i >> 8) + (v >> 8);
	}
	memset(&j->sa, 0, sizeof(j->sa));
	j->af = net->af;
	if (net->af == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)&j->sa;

		s->sin_family = AF_INET;
		memcpy(&s->sin_addr, a, 4);
		j->salen = sizeof(*s);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&j->sa;

		s->sin6_family = AF_INET6;
		memcpy(&s->sin6_addr, a, 16);
		j->salen = sizeof(*s);
	}
	return inet_ntop(net->af, a, j->host, sizeof(j->host)) != NULL ? 0 :
	    FA_ERR_INPUT;
}

static uint64_t
hosts_in(const struct fa_cidr *net)
{
	unsigned bits = (net->af == AF_INET ? 32 : 128) - net->prefix;

	if (bits >= 63)
		return UINT64_MAX;
	if (net->af == AF_INET && bits >= 2)
		return (1ull << bits) - 2;
	return 1ull << bits;
}

static int
probe_target(const struct fa_pol_target *t, const char *role,
    struct fa_snapshot *snap, uint16_t *seq)
{
	uint64_t total = hosts_in(&t->net), nh, h;
	struct job *jobs;
	char net[INET6_ADDRSTRLEN + 8], target[64 + INET6_ADDRSTRLEN];
	struct fa_obs_build b;
	json_t *probes, *data;
	size_t n = 0, i, p;
	int r;

	nh = total < FA_REACH_HOSTS_MAX ? total : FA_REACH_HOSTS_MAX;
	if ((jobs = calloc(nh * t->nprobes + 1, sizeof(*jobs))) == NULL)
		return FA_ERR_NOMEM;
	for (h = 0; h < nh; h++)
		for (p = 0; p < t->nprobes; p++, n++) {
			if (host_of(&t->net, h, &jobs[n]) != 0) {
				free(jobs);
				return FA_ERR_INPUT;
			}
			jobs[n].probe = &t->probes[p];
			/* sin_port and sin6_port sit at the same offset. */
			((struct sockaddr_in *)&jobs[n].sa)->sin_port =
			    htons(t->probes[p].port);
			jobs[n].id = (uint16_t)getpid();
			jobs[n].seq = (*seq)++;
			jobs[n].fd = -1;
		}
	run(jobs, n);
	inet_ntop(t->net.af, t->net.addr, net, INET6_ADDRSTRLEN);
	snprintf(net + strlen(net), sizeof(net) - strlen(net), "/%u",
	    t->net.prefix);
	probes = json_array();
	for (i = 0; probes != NULL && i < n; i++) {
		json_t *o = job_json(&jobs[i]);

		/* A TLS look at a management endpoint that accepted TCP. */
		if (o != NULL && strcmp(role, "mgmt_target") == 0 &&
		    jobs[i].probe->proto == FA_PROBE_TCP &&
		    strcmp(jobs[i].outcome, "answered") == 0 &&
		    json_object_set_new(o, "tls", fa_eth_tls_probe(
		    (struct sockaddr *)&jobs[i].sa, jobs[i].salen,
		    jobs[i].probe->port)) != 0) {
			json_decref(o);
			o = NULL;
		}
		if (o == NULL || json_array_append_new(probes, o) != 0) {
			json_decref(probes);
			probes = NULL;
		}
	}
	free(jobs);
	snprintf(target, sizeof(target), "%s:%s", role, net);
	if (probes == NULL)
		return FA_ERR_NOMEM;
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(ETH_REACH, role), role);
	fa_put_str(&b, FA_F(ETH_REACH, net), net);
	fa_put_int(&b, FA_F(ETH_REACH, line), (long long)t->line);
	fa_put_int(&b, FA_F(ETH_REACH, hosts_total), total > INT64_MAX ?
	    INT64_MAX : (long long)total);
	fa_put_int(&b, FA_F(ETH_REACH, hosts_probed), (long long)nh);
	fa_put_arr(&b, FA_F(ETH_REACH, probes), probes);
	if ((data = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	r = fa_snapshot_add(snap, FA_FAM_ETH, NULL, FA_KIND_ETH_REACH, target,
	    "TCP connect, UDP datagram, ICMP echo", nh < total ?
	    FA_OBS_INCOMPLETE : FA_OBS_COMPLETE, nh < total ? "only the first "
	    "hosts of the network were probed" : NULL, data, NULL);
	return r;
}

int
fa_eth_probe_targets(const struct fa_policy *p, struct fa_snapshot *snap)
{
	uint16_t seq = 1;
	size_t i;
	int r;

	for (i = 0; i < p->n_mgmt_target; i++)
		if ((r = probe_target(&p->mgmt_target[i], "mgmt_target", snap,
		    &seq)) == FA_ERR_NOMEM)
			return r;
	for (i = 0; i < p->n_foreign_target; i++)
		if ((r = probe_target(&p->foreign_target[i], "foreign_target",
		    snap, &seq)) == FA_ERR_NOMEM)
			return r;
	return 0;
}
